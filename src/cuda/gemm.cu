/* gemm.cu - cuBLASLt matrix products (gemm.h) and the tensor-core GEMM
 * ceilings of "roofline bench" (rl_gpubench_gemm, gpubench.h): one plan per
 * dtype and shape, random inputs, the L2 flushed before each timed run, a
 * sample of the outputs checked against a host reference.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include "gemm.h"
#include "gpubench.h"
#include "gpuutil.h"

/* The cuBLASLt workspace the benchmark gives every plan; 32 MiB is what
 * cuBLAS itself recommends on Hopper. */
#define GEMM_WORKSPACE_BYTES ((size_t)32 << 20)

/* Host work of one verification: dot-product terms recomputed. */
#define GEMM_VERIFY_TERMS   ((uint64_t)1 << 26)
#define GEMM_VERIFY_SAMPLES 64

/* ---- dtypes ---------------------------------------------------------- */

static cublasComputeType_t compute_type(enum rl_dtype t)
{
	switch (t) {
	case RL_TF32:
		return CUBLAS_COMPUTE_32F_FAST_TF32;
	case RL_FP64:
		return CUBLAS_COMPUTE_64F;
	case RL_INT8:
		return CUBLAS_COMPUTE_32I;
	default:
		return CUBLAS_COMPUTE_32F;
	}
}

static cudaDataType_t cuda_type(enum rl_dtype t)
{
	switch (t) {
	case RL_FP64:
		return CUDA_R_64F;
	case RL_FP16:
		return CUDA_R_16F;
	case RL_BF16:
		return CUDA_R_16BF;
	case RL_FP8E4M3:
		return CUDA_R_8F_E4M3;
	case RL_INT8:
		return CUDA_R_8I;
	case RL_INT32:
		return CUDA_R_32I;
	default: /* fp32, tf32 */
		return CUDA_R_32F;
	}
}

static cudaDataType_t scale_type(enum rl_dtype t)
{
	return t == RL_FP64 ? CUDA_R_64F : t == RL_INT8 ? CUDA_R_32I : CUDA_R_32F;
}

/* The tolerance per unit of sum_k |a b| (see rl_gemm_verify). fp32 and
 * fp64 accumulate k rounded terms; tf32 also rounds each operand to 11
 * significant bits (up to 2 x 2^-11 per product); fp16, bf16 and fp8e4m3
 * inputs are exact in the fp32 accumulator, whose precision inside the
 * tensor cores is not documented (Hopper's fp8 path keeps fewer bits): the
 * margins are coarse but still catch a wrong layout, whose errors are of
 * the order of the terms themselves. */
static double gemm_tol(enum rl_dtype t)
{
	switch (t) {
	case RL_FP64:
		return 1e-12;
	case RL_FP32:
		return 1e-5;
	case RL_TF32:
		return 2e-3;
	case RL_FP16:
	case RL_BF16:
		return 1e-2;
	case RL_FP8E4M3:
		return 6e-2;
	default: /* int8: exact */
		return 0;
	}
}

/* Half a unit in the last place of the output type, relative. */
static double out_rounding(enum rl_dtype out)
{
	switch (out) {
	case RL_FP16:
		return ldexp(1, -11);
	case RL_BF16:
		return ldexp(1, -8);
	case RL_FP32:
		return ldexp(1, -24);
	case RL_FP64:
		return ldexp(1, -53);
	default:
		return 0;
	}
}

/* ---- the plan -------------------------------------------------------- */

struct rl_gemm_plan {
	struct rl_gemm_shape s;
	cublasLtHandle_t lt;
	cublasLtMatmulDesc_t op;
	cublasLtMatrixLayout_t la, lb, lc;
	cublasLtMatmulAlgo_t algo;
	size_t ws_bytes; /* the workspace the caller promised */
	size_t ws_need;  /* what the chosen algorithm asked for */
	union {
		float f;
		double d;
		int32_t i;
	} alpha, beta;
};

/* cuBLASLt statuses to rl_err: what failed, the library's own words. */
static int lt_fail(struct rl_err *err, const char *what, cublasStatus_t st)
{
	int code = st == CUBLAS_STATUS_ALLOC_FAILED    ? RL_ERR_NOMEM
	           : st == CUBLAS_STATUS_NOT_SUPPORTED ? RL_ERR_UNSUPPORTED
	                                               : RL_ERR_DEVICE;

	return rl_err_set(err, code, "%s: %s (%s)", what, cublasLtGetStatusString(st),
	                  cublasLtGetStatusName(st));
}

#define LT(call, what)                                                                             \
	do {                                                                                       \
		cublasStatus_t lt_st_ = (call);                                                    \
		if (lt_st_ != CUBLAS_STATUS_SUCCESS) {                                             \
			rc = lt_fail(err, what, lt_st_);                                           \
			goto out;                                                                  \
		}                                                                                  \
	} while (0)

static cublasStatus_t layout(cublasLtMatrixLayout_t *l, cudaDataType_t t, uint64_t rows,
                             uint64_t cols, uint64_t batch, uint64_t stride)
{
	cublasStatus_t st = cublasLtMatrixLayoutCreate(l, t, rows, cols, (int64_t)rows);
	int32_t count = (int32_t)batch;
	int64_t off = (int64_t)stride;

	if (st != CUBLAS_STATUS_SUCCESS || batch <= 1)
		return st;
	st = cublasLtMatrixLayoutSetAttribute(*l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
	                                      sizeof(count));
	if (st == CUBLAS_STATUS_SUCCESS)
		st = cublasLtMatrixLayoutSetAttribute(
		    *l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &off, sizeof(off));
	return st;
}

void rl_gemm_plan_free(struct rl_gemm_plan *p)
{
	if (p == NULL)
		return;
	/* Destroy calls only fail on a NULL descriptor; there is nothing to
	 * report them to here. */
	if (p->la)
		(void)cublasLtMatrixLayoutDestroy(p->la);
	if (p->lb)
		(void)cublasLtMatrixLayoutDestroy(p->lb);
	if (p->lc)
		(void)cublasLtMatrixLayoutDestroy(p->lc);
	if (p->op)
		(void)cublasLtMatmulDescDestroy(p->op);
	free(p);
}

int rl_gemm_plan_new(cublasLtHandle_t lt, const struct rl_gemm_shape *s, int cc,
                     size_t workspace_bytes, struct rl_gemm_plan **out, struct rl_err *err)
{
	struct rl_gemm_plan *p = NULL;
	cublasLtMatmulPreference_t pref = NULL;
	cublasLtMatmulHeuristicResult_t heur;
	cublasOperation_t ta, tb = CUBLAS_OP_N;
	uint64_t ws = workspace_bytes, ea, eb, ec;
	char what[128];
	int found = 0, rc = 0;
	cudaDataType_t in, outt;

	*out = NULL;
	if (!rl_gemm_dtype_ok(s->dtype))
		return rl_err_set(err, RL_ERR_UNSUPPORTED,
		                  "cuBLASLt matrix products exist here for fp16, bf16, tf32, fp32, "
		                  "fp64, fp8e4m3 and int8, not %s",
		                  rl_dtype_name(s->dtype));
	rl_gemm_describe(s, what, sizeof(what));
	if (cc < rl_gemm_min_cc(s->dtype))
		return rl_err_set(err, RL_ERR_UNSUPPORTED,
		                  "matmul %s: cuBLASLt needs compute capability %d.%d or later for "
		                  "%s (this GPU is %d.%d)",
		                  what, rl_gemm_min_cc(s->dtype) / 10,
		                  rl_gemm_min_cc(s->dtype) % 10, rl_dtype_name(s->dtype), cc / 10,
		                  cc % 10);
	if (rl_gemm_elems(s, &ea, &eb, &ec) < 0)
		return rl_err_set(err, RL_ERR_RANGE,
		                  "matmul %s: a dimension is 0 or a size overflows", what);
	/* Layout leading dimensions and batch offsets are int64, the batch
	 * count an int32. */
	if (s->batch > INT32_MAX || ea > INT64_MAX || eb > INT64_MAX || ec > INT64_MAX)
		return rl_err_set(
		    err, RL_ERR_UNSUPPORTED,
		    "matmul %s: beyond cuBLASLt's limits (batch count %d, sizes 2^63)", what,
		    INT32_MAX);
	p = (struct rl_gemm_plan *)calloc(1, sizeof(*p));
	if (p == NULL)
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	p->s = *s;
	p->lt = lt;
	p->ws_bytes = workspace_bytes;
	if (s->dtype == RL_FP64) {
		p->alpha.d = 1;
		p->beta.d = 0;
	} else if (s->dtype == RL_INT8) {
		p->alpha.i = 1;
		p->beta.i = 0;
	} else {
		p->alpha.f = 1;
		p->beta.f = 0;
	}
	in = cuda_type(rl_gemm_in_type(s->dtype));
	outt = cuda_type(rl_gemm_out_type(s->dtype));
	ta = rl_gemm_a_transposed(s->dtype) ? CUBLAS_OP_T : CUBLAS_OP_N;

	LT(cublasLtMatmulDescCreate(&p->op, compute_type(s->dtype), scale_type(s->dtype)),
	   "cublasLtMatmulDescCreate");
	LT(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta)),
	   "cublasLtMatmulDescSetAttribute(TRANSA)");
	LT(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb)),
	   "cublasLtMatmulDescSetAttribute(TRANSB)");
	/* A as stored: m x k (NN) or k x m (TN), column-major, packed. */
	if (ta == CUBLAS_OP_T)
		LT(layout(&p->la, in, s->k, s->m, s->batch, s->m * s->k),
		   "cublasLtMatrixLayoutCreate(A)");
	else
		LT(layout(&p->la, in, s->m, s->k, s->batch, s->m * s->k),
		   "cublasLtMatrixLayoutCreate(A)");
	LT(layout(&p->lb, in, s->k, s->n, s->batch, s->k * s->n), "cublasLtMatrixLayoutCreate(B)");
	LT(layout(&p->lc, outt, s->m, s->n, s->batch, s->m * s->n),
	   "cublasLtMatrixLayoutCreate(C)");

	LT(cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate");
	LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws,
	                                        sizeof(ws)),
	   "cublasLtMatmulPreferenceSetAttribute(MAX_WORKSPACE_BYTES)");
	memset(&heur, 0, sizeof(heur));
	{
		cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(lt, p->op, p->la, p->lb, p->lc,
		                                                   p->lc, pref, 1, &heur, &found);
		if (st == CUBLAS_STATUS_NOT_SUPPORTED ||
		    (st == CUBLAS_STATUS_SUCCESS && found < 1)) {
			rc = rl_err_set(err, RL_ERR_UNSUPPORTED,
			                "matmul %s: the cuBLASLt heuristic has no algorithm for it "
			                "(%s, %s layout, %zu bytes of workspace)",
			                what, rl_gemm_compute_name(s->dtype),
			                ta == CUBLAS_OP_T ? "TN" : "NN", workspace_bytes);
			goto out;
		}
		if (st != CUBLAS_STATUS_SUCCESS) {
			rc = lt_fail(err, "cublasLtMatmulAlgoGetHeuristic", st);
			goto out;
		}
	}
	if (heur.state != CUBLAS_STATUS_SUCCESS || heur.workspaceSize > workspace_bytes) {
		rc = rl_err_set(
		    err, RL_ERR_UNSUPPORTED,
		    "matmul %s: the cuBLASLt heuristic's first algorithm is unusable (%s)", what,
		    cublasLtGetStatusString(heur.state));
		goto out;
	}
	p->algo = heur.algo;
	p->ws_need = heur.workspaceSize;
out:
	if (pref)
		(void)cublasLtMatmulPreferenceDestroy(pref);
	if (rc < 0) {
		rl_gemm_plan_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

size_t rl_gemm_plan_workspace(const struct rl_gemm_plan *p)
{
	return p->ws_need;
}

int rl_gemm_run(const struct rl_gemm_plan *p, const void *a, const void *b, void *c,
                void *workspace, cudaStream_t stream, struct rl_err *err)
{
	cublasStatus_t st =
	    cublasLtMatmul(p->lt, p->op, &p->alpha, a, p->la, b, p->lb, &p->beta, c, p->lc, c,
	                   p->lc, &p->algo, workspace, p->ws_bytes, stream);

	if (st != CUBLAS_STATUS_SUCCESS) {
		char what[160];

		rl_gemm_describe(&p->s, what, sizeof(what));
		return rl_err_set(err, RL_ERR_DEVICE, "cublasLtMatmul (%s): %s (%s)", what,
		                  cublasLtGetStatusString(st), cublasLtGetStatusName(st));
	}
	return 0;
}

cudaError_t rl_gemm_fill(const struct rl_gemm_shape *s, void *a, void *b, uint64_t seed,
                         cudaStream_t stream)
{
	uint64_t ea, eb, ec;
	double lo, hi;
	enum rl_dtype in = rl_gemm_in_type(s->dtype);
	cudaError_t e;

	if (rl_gemm_elems(s, &ea, &eb, &ec) < 0)
		return cudaErrorInvalidValue;
	rl_gemm_input_range(s->dtype, &lo, &hi);
	e = rl_cu_fill_random(a, ea, in, seed, lo, hi, stream);
	if (e == cudaSuccess)
		e = rl_cu_fill_random(b, eb, in, seed + 1, lo, hi, stream);
	return e;
}

double rl_gemm_value(enum rl_dtype t, const void *raw)
{
	switch (t) {
	case RL_FP16: {
		__half h;
		memcpy(&h, raw, sizeof(h));
		return __half2float(h);
	}
	case RL_BF16: {
		__nv_bfloat16 h;
		memcpy(&h, raw, sizeof(h));
		return __bfloat162float(h);
	}
	case RL_FP64: {
		double d;
		memcpy(&d, raw, sizeof(d));
		return d;
	}
	case RL_INT32: {
		int32_t i;
		memcpy(&i, raw, sizeof(i));
		return i;
	}
	default: {
		float f;
		memcpy(&f, raw, sizeof(f));
		return f;
	}
	}
}

int rl_gemm_verify(const struct rl_gemm_shape *s, const void *c, uint64_t seed, cudaStream_t stream,
                   int *check, double *worst, struct rl_err *err)
{
	unsigned char raw[GEMM_VERIFY_SAMPLES][8];
	uint64_t pos[GEMM_VERIFY_SAMPLES];
	uint64_t ea, eb, ec, ns, q;
	enum rl_dtype in = rl_gemm_in_type(s->dtype), out = rl_gemm_out_type(s->dtype);
	size_t osz = rl_dtype_size(out);
	double lo, hi, tol = gemm_tol(s->dtype), w = 0;
	int rc = 0, ok = 1;

	*check = -1;
	if (worst)
		*worst = INFINITY;
	if (rl_gemm_elems(s, &ea, &eb, &ec) < 0)
		return rl_err_set(err, RL_ERR_RANGE, "matmul verification: a size overflows");
	rl_gemm_input_range(s->dtype, &lo, &hi);
	/* Up to 64 outputs, fewer when k is so long that the host's dot
	 * products would take seconds; the first and the last always. */
	ns = ec < GEMM_VERIFY_SAMPLES ? ec : GEMM_VERIFY_SAMPLES;
	q = GEMM_VERIFY_TERMS / s->k;
	if (ns > q)
		ns = q < 2 ? (ec < 2 ? ec : 2) : q;
	for (q = 0; q < ns; q++) {
		/* Spread linearly over batch x n x m: with m rows per column this
		 * walks rows and columns both. */
		pos[q] = ns == 1 ? 0 : (uint64_t)((double)q / (double)(ns - 1) * (double)(ec - 1));
		if (q == ns - 1)
			pos[q] = ec - 1;
		if (pos[q] >= ec)
			pos[q] = ec - 1;
		RL_CU(cudaMemcpyAsync(raw[q], (const unsigned char *)c + pos[q] * osz, osz,
		                      cudaMemcpyDeviceToHost, stream));
	}
	RL_CU(cudaStreamSynchronize(stream));
	for (q = 0; q < ns; q++) {
		uint64_t bi = pos[q] / (s->m * s->n), r = pos[q] % (s->m * s->n);
		uint64_t i = r % s->m, j = r / s->m, l;
		double ref = 0, mag = 0, got = rl_gemm_value(out, raw[q]), bound, e;

		for (l = 0; l < s->k; l++) {
			double a = rl_cu_round(
			    rl_cu_random_value(seed, rl_gemm_a_index(s, bi, i, l), lo, hi), in);
			double b = rl_cu_round(
			    rl_cu_random_value(seed + 1, rl_gemm_b_index(s, bi, l, j), lo, hi), in);

			ref += a * b;
			mag += fabs(a * b);
		}
		bound = tol * mag + out_rounding(out) * fabs(ref);
		e = fabs(got - ref);
		if (!(e <= bound))
			ok = 0;
		/* NaN, and any error where none is allowed, is infinitely far. */
		e = isnan(e) ? INFINITY : bound > 0 ? e / bound : e == 0 ? 0 : INFINITY;
		if (e > w)
			w = e;
	}
	*check = ok ? 1 : -1;
	if (worst)
		*worst = w;
out:
	return rc;
}

/* ---- the benchmark --------------------------------------------------- */

struct gemm_case {
	uint64_t m, n, k;
};

/* Three large shapes of different aspect, each 2 x 8192^3 FLOPs: square,
 * a wide output with a short reduction, and a narrow output with a long
 * one (LLM projections look like the last two). */
static const struct gemm_case full_cases[] = {
    {8192, 8192, 8192},
    {16384, 8192, 4096},
    {4096, 16384, 8192},
};
static const struct gemm_case quick_cases[] = {
    {4096, 4096, 4096},
};

/* The benchmark's device state, freed in one place. */
struct gemm_bench {
	int dev, cc, quick;
	size_t l2_bytes, flush_bytes;
	cudaStream_t stream;
	cublasLtHandle_t lt;
	void *workspace, *flush;
	cudaEvent_t e0, e1;
};

/* Device memory for one problem, or RL_ERR_RANGE naming the bytes. */
static int gemm_alloc(void **p, size_t bytes, const char *what, struct rl_err *err)
{
	cudaError_t e = cudaMalloc(p, bytes);

	if (e == cudaErrorMemoryAllocation) {
		size_t free_b = 0, total_b = 0;

		(void)cudaGetLastError();
		(void)cudaMemGetInfo(&free_b, &total_b);
		*p = NULL;
		return rl_err_set(err, RL_ERR_RANGE,
		                  "%s: %zu bytes of device memory needed, %zu available", what,
		                  bytes, free_b);
	}
	if (e != cudaSuccess) {
		*p = NULL;
		return rl_cu_fail(err, "cudaMalloc", e);
	}
	return 0;
}

/* Runs one dtype and shape and appends its entry. */
static int gemm_one(struct gemm_bench *g, enum rl_dtype t, const struct gemm_case *gc,
                    uint64_t seed, struct rl_bench *b, struct rl_err *err)
{
	struct rl_gemm_shape s = {t, 1, gc->m, gc->n, gc->k};
	struct rl_gemm_plan *plan = NULL;
	struct rl_bench_entry e;
	void *da = NULL, *db = NULL, *dc = NULL;
	uint64_t ba, bb, bc;
	double us[16], lo, hi, worst = 0;
	float ms = 0;
	int warm = g->quick ? 3 : 10, samples = g->quick ? 5 : 15, i, rc = 0, check = -1;
	/* Beyond this per entry, fewer samples (a slow fp64 pipe on a consumer
	 * card would otherwise take minutes). */
	double budget_us = g->quick ? 1e6 : 3e6;
	char what[160];

	rl_gemm_describe(&s, what, sizeof(what));
	if (rl_gemm_bytes(&s, &ba, &bb, &bc) < 0)
		return rl_err_set(err, RL_ERR_RANGE, "gemm %s: a size overflows", what);
	rc = rl_gemm_plan_new(g->lt, &s, g->cc, GEMM_WORKSPACE_BYTES, &plan, err);
	if (rc < 0)
		return rc;
	if ((rc = gemm_alloc(&da, ba, "gemm A", err)) < 0 ||
	    (rc = gemm_alloc(&db, bb, "gemm B", err)) < 0 ||
	    (rc = gemm_alloc(&dc, bc, "gemm C", err)) < 0)
		goto out;
	RL_CU(rl_gemm_fill(&s, da, db, seed, g->stream));
	/* Poison C: a run that writes nothing fails the check. */
	RL_CU(cudaMemsetAsync(dc, 0x7f, bc, g->stream));

	/* The first warm-up run, timed, decides whether the full count fits. */
	RL_CU(cudaEventRecord(g->e0, g->stream));
	if ((rc = rl_gemm_run(plan, da, db, dc, g->workspace, g->stream, err)) < 0)
		goto out;
	RL_CU(cudaEventRecord(g->e1, g->stream));
	RL_CU(cudaEventSynchronize(g->e1));
	RL_CU(cudaEventElapsedTime(&ms, g->e0, g->e1));
	if (ms * 1e3 * (warm + samples) > budget_us) {
		int fit = (int)(budget_us / (ms * 1e3)) - 1;

		warm = 1;
		samples = fit < 3 ? 3 : fit < samples ? fit : samples;
	}
	for (i = 1; i < warm; i++)
		if ((rc = rl_gemm_run(plan, da, db, dc, g->workspace, g->stream, err)) < 0)
			goto out;
	for (i = 0; i < samples; i++) {
		/* Evict A, B and C from the L2: write twice its size elsewhere,
		 * outside the timed region. */
		RL_CU(cudaMemsetAsync(g->flush, i & 0xff, g->flush_bytes, g->stream));
		RL_CU(cudaEventRecord(g->e0, g->stream));
		if ((rc = rl_gemm_run(plan, da, db, dc, g->workspace, g->stream, err)) < 0)
			goto out;
		RL_CU(cudaEventRecord(g->e1, g->stream));
		RL_CU(cudaEventSynchronize(g->e1));
		RL_CU(cudaEventElapsedTime(&ms, g->e0, g->e1));
		us[i] = ms * 1e3;
	}

	memset(&e, 0, sizeof(e));
	rl_nvml_sample(g->dev, &e.sm_clock_mhz, &e.temp_c);
	if ((rc = rl_gemm_verify(&s, dc, seed, g->stream, &check, &worst, err)) < 0)
		goto out;
	e.group = RL_BENCH_GEMM;
	snprintf(e.name, sizeof(e.name), "gemm");
	snprintf(e.dtype, sizeof(e.dtype), "%s", rl_dtype_name(t));
	snprintf(e.shape, sizeof(e.shape), "%llux%llux%llu", (unsigned long long)s.m,
	         (unsigned long long)s.n, (unsigned long long)s.k);
	e.flops = 2.0 * (double)s.m * (double)s.n * (double)s.k;
	e.bytes = (double)ba + (double)bb + (double)bc;
	e.check = check;
	rl_gemm_input_range(t, &lo, &hi);
	snprintf(e.method, sizeof(e.method),
	         "cuBLASLt heuristic #0 (%s, %zu MiB workspace), column-major C = A B, %s, "
	         "%s %s inputs %s[%g,%g), %s output, L2 flushed (%zu MiB write) before each run, "
	         "%d warm-up, %d samples, CUDA events",
	         rl_gemm_compute_name(t), GEMM_WORKSPACE_BYTES >> 20,
	         rl_gemm_a_transposed(t) ? "TN (A stored k x m, transposed)" : "NN", "random",
	         rl_dtype_name(rl_gemm_in_type(t)), t == RL_INT8 ? "integers in " : "U", lo, hi,
	         rl_dtype_name(rl_gemm_out_type(t)), g->flush_bytes >> 20, warm, samples);
	rc = rl_bench_add(b, &e, us, (size_t)samples, err);
out:
	cudaFree(da);
	cudaFree(db);
	cudaFree(dc);
	rl_gemm_plan_free(plan);
	return rc;
}

extern "C" int rl_gpubench_gemm(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	static const enum rl_dtype dtypes[] = {RL_FP16, RL_BF16, RL_TF32, RL_FP8E4M3,
	                                       RL_INT8, RL_FP64, RL_FP32};
	const struct gemm_case *cases = quick ? quick_cases : full_cases;
	size_t ncases = quick ? sizeof(quick_cases) / sizeof(quick_cases[0])
	                      : sizeof(full_cases) / sizeof(full_cases[0]);
	struct gemm_bench g;
	int major = 0, minor = 0, l2 = 0, rc = 0;
	size_t d, i;
	cublasStatus_t st;

	memset(&g, 0, sizeof(g));
	g.dev = dev;
	g.quick = quick;
	RL_CU(cudaSetDevice(dev));
	RL_CU(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
	RL_CU(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
	RL_CU(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
	g.cc = major * 10 + minor;
	g.l2_bytes = l2 > 0 ? (size_t)l2 : (size_t)8 << 20;
	g.flush_bytes = 2 * g.l2_bytes;
	RL_CU(cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking));
	RL_CU(cudaEventCreate(&g.e0));
	RL_CU(cudaEventCreate(&g.e1));
	if ((rc = gemm_alloc(&g.workspace, GEMM_WORKSPACE_BYTES, "cuBLASLt workspace", err)) < 0 ||
	    (rc = gemm_alloc(&g.flush, g.flush_bytes, "L2 flush buffer", err)) < 0)
		goto out;
	st = cublasLtCreate(&g.lt);
	if (st != CUBLAS_STATUS_SUCCESS) {
		g.lt = NULL;
		rc = lt_fail(err, "cublasLtCreate", st);
		goto out;
	}
	for (d = 0; d < sizeof(dtypes) / sizeof(dtypes[0]); d++) {
		enum rl_dtype t = dtypes[d];
		/* fp32 and fp64 run at a tenth of the tensor rates: the square
		 * shape is enough to place their roofs. */
		size_t nc = (t == RL_FP32 || t == RL_FP64) ? 1 : ncases;

		if (g.cc < rl_gemm_min_cc(t))
			continue;
		for (i = 0; i < nc; i++) {
			uint64_t seed = 0x67656d6d0000ull + (uint64_t)t * 0x100 + i * 0x10;

			if ((rc = gemm_one(&g, t, &cases[i], seed, b, err)) < 0)
				goto out;
		}
	}
out:
	if (g.lt)
		(void)cublasLtDestroy(g.lt);
	if (g.stream)
		(void)cudaStreamSynchronize(g.stream);
	cudaFree(g.workspace);
	cudaFree(g.flush);
	if (g.e0)
		cudaEventDestroy(g.e0);
	if (g.e1)
		cudaEventDestroy(g.e1);
	if (g.stream)
		cudaStreamDestroy(g.stream);
	if (rc < 0)
		/* Clear a non-sticky error so that later CUDA calls start clean. */
		(void)cudaGetLastError();
	return rc;
}
