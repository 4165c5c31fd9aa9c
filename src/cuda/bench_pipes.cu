/* bench_pipes.cu - the CUDA-core pipes and special functions
 * (rl_gpubench_pipes, gpubench.h): dependent chains of FMA, MUL, HFMA2,
 * BFMA2, cos and exp; timing and checks from harness.h.
 */
#include "config.h"

#include "harness.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

/* ==== CUDA-core pipes and special functions ============================= */

/* Each thread runs ILP independent dependent chains x = op(x) for ITERS
 * steps, unrolled CHUNK steps at a time (one loop branch per CHUNK x ILP
 * operations). Inputs come from memory; the chains are stored when
 * STORE_ALL (the checking launch) or when the XOR of their bits equals
 * IMPOSSIBLE, a run-time value they never produce, so nothing folds away. */
#define ILP 8
#define PIPE_WAVES 16

template <typename T> __device__ __forceinline__ unsigned long long bits_of(T x)
{
	if constexpr (sizeof(T) == 8) {
		unsigned long long u;

		memcpy(&u, &x, 8);
		return u;
	} else {
		unsigned u;

		static_assert(sizeof(T) == 4, "4- or 8-byte words");
		memcpy(&u, &x, 4);
		return u;
	}
}

template <class Op, int ITERS, int CHUNK>
__global__ void __launch_bounds__(THREADS)
	k_pipe(const typename Op::T *__restrict__ in, typename Op::T *__restrict__ out, Op op,
	       int store_all, unsigned long long impossible)
{
	typedef typename Op::T T;
	static_assert(ITERS % CHUNK == 0, "ITERS a multiple of CHUNK");
	const size_t nt = (size_t)gridDim.x * blockDim.x;
	const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	unsigned long long h = 0;
	T x[ILP];

#pragma unroll
	for (int j = 0; j < ILP; j++)
		x[j] = in[j * nt + t];
#pragma unroll 1
	for (int k = 0; k < ITERS / CHUNK; k++) {
#pragma unroll
		for (int m = 0; m < CHUNK; m++) {
#pragma unroll
			for (int j = 0; j < ILP; j++)
				x[j] = op(x[j]);
		}
	}
#pragma unroll
	for (int j = 0; j < ILP; j++)
		h ^= bits_of(x[j]);
	if (store_all || h == impossible) {
#pragma unroll
		for (int j = 0; j < ILP; j++)
			out[j * nt + t] = x[j];
	}
}

/* The operations. T: the word in memory; LANES elements of LANE_T per word;
 * FLOPS per operation on a word; host(): one step of one lane, recomputed
 * on the host in double; TOL: 0 for a bit-exact comparison, else the
 * relative tolerance after the whole chain. */
struct op_fma32 {
	typedef float T;
	static constexpr int lanes = 1, flops = 2;
	static constexpr enum rl_dtype lane_t = RL_FP32;
	float a, b;
	__device__ __forceinline__ T operator()(T x) const
	{
		return fmaf(x, a, b);
	}
	double host(double x) const
	{
		return fmaf((float)x, a, b);
	}
	static double lane(uint64_t w, int l)
	{
		return lane_f32(w, l);
	}
	static constexpr double tol = 0;
};

struct op_mul32 {
	typedef float T;
	static constexpr int lanes = 1, flops = 1;
	static constexpr enum rl_dtype lane_t = RL_FP32;
	float a;
	__device__ __forceinline__ T operator()(T x) const
	{
		return x * a;
	}
	double host(double x) const
	{
		return (float)x * a;
	}
	static double lane(uint64_t w, int l)
	{
		return lane_f32(w, l);
	}
	static constexpr double tol = 0;
};

struct op_fma64 {
	typedef double T;
	static constexpr int lanes = 1, flops = 2;
	static constexpr enum rl_dtype lane_t = RL_FP64;
	double a, b;
	__device__ __forceinline__ T operator()(T x) const
	{
		return fma(x, a, b);
	}
	double host(double x) const
	{
		return fma(x, a, b);
	}
	static double lane(uint64_t w, int l)
	{
		return lane_f64(w, l);
	}
	static constexpr double tol = 0;
};

/* Packed half precision: one HFMA2 does two FMAs. On the host, x * a is
 * exact in double (11 x 11 significant bits) and so is the sum with b for
 * the magnitudes used, so rounding once to half reproduces the GPU. */
struct op_hfma2 {
	typedef __half2 T;
	static constexpr int lanes = 2, flops = 4;
	static constexpr enum rl_dtype lane_t = RL_FP16;
	__half2 a2, b2;
	double a, b;
	__device__ __forceinline__ T operator()(T x) const
	{
		return __hfma2(x, a2, b2);
	}
	double host(double x) const
	{
		return rl_cu_round(fma(x, a, b), RL_FP16);
	}
	static double lane(uint64_t w, int l)
	{
		return lane_f16(w, l);
	}
	static constexpr double tol = 0;
};

struct op_bfma2 {
	typedef __nv_bfloat162 T;
	static constexpr int lanes = 2, flops = 4;
	static constexpr enum rl_dtype lane_t = RL_BF16;
	__nv_bfloat162 a2, b2;
	double a, b;
	__device__ __forceinline__ T operator()(T x) const
	{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
		/* No bf16 arithmetic before sm_80 (the entry is skipped there at
		 * run time): a float emulation, so that the kernel compiles. */
		float2 xf = __bfloat1622float2(x), af = __bfloat1622float2(a2),
		       bf = __bfloat1622float2(b2);

		return __floats2bfloat162_rn(fmaf(xf.x, af.x, bf.x), fmaf(xf.y, af.y, bf.y));
#else
		return __hfma2(x, a2, b2);
#endif
	}
	double host(double x) const
	{
		return rl_cu_round(fma(x, a, b), RL_BF16);
	}
	static double lane(uint64_t w, int l)
	{
		return lane_bf16(w, l);
	}
	static constexpr double tol = 0;
};

/* Special functions: x = cos(x) and x = exp(-x) are contractions (|f'| < 1
 * at their fixed points 0.739 and 0.567), so rounding differences between
 * the GPU and the host's double chain stay bounded instead of growing. The
 * chains settle on the fixed point, so the check confirms the values, not
 * the iteration count. */
struct op_cos {
	typedef float T;
	static constexpr int lanes = 1, flops = 1;
	static constexpr enum rl_dtype lane_t = RL_FP32;
	__device__ __forceinline__ T operator()(T x) const
	{
		return cosf(x);
	}
	double host(double x) const
	{
		return cos(x);
	}
	static double lane(uint64_t w, int l)
	{
		return lane_f32(w, l);
	}
	static constexpr double tol = 1e-5;
};

struct op_cos_fast {
	typedef float T;
	static constexpr int lanes = 1, flops = 1;
	static constexpr enum rl_dtype lane_t = RL_FP32;
	__device__ __forceinline__ T operator()(T x) const
	{
		return __cosf(x);
	}
	double host(double x) const
	{
		return cos(x);
	}
	static double lane(uint64_t w, int l)
	{
		return lane_f32(w, l);
	}
	static constexpr double tol = 1e-3;
};

struct op_exp {
	typedef float T;
	static constexpr int lanes = 1, flops = 1;
	static constexpr enum rl_dtype lane_t = RL_FP32;
	__device__ __forceinline__ T operator()(T x) const
	{
		return expf(-x);
	}
	double host(double x) const
	{
		return exp(-x);
	}
	static double lane(uint64_t w, int l)
	{
		return lane_f32(w, l);
	}
	static constexpr double tol = 1e-5;
};

struct op_exp_fast {
	typedef float T;
	static constexpr int lanes = 1, flops = 1;
	static constexpr enum rl_dtype lane_t = RL_FP32;
	__device__ __forceinline__ T operator()(T x) const
	{
		return __expf(-x);
	}
	double host(double x) const
	{
		return exp(-x);
	}
	static double lane(uint64_t w, int l)
	{
		return lane_f32(w, l);
	}
	static constexpr double tol = 1e-3;
};

struct pipectx {
	struct gpu *g;
	struct rl_bench *b;
	int ns;
	void *in, *out;   /* max_words words of up to 8 bytes each */
	size_t max_words;
};

#define PIPE_CHECK_THREADS 32 /* sampled threads, x ILP chains each */

template <class Op, int ITERS, int CHUNK>
static int pipe_entry(struct pipectx *p, enum rl_bench_group group, const char *name,
                      const char *dtype, const char *what, const Op &op, uint64_t seed,
                      double lo, double hi, struct rl_err *err)
{
	typedef typename Op::T T;
	struct gpu *g = p->g;
	struct rl_bench_entry e;
	double us[SAMPLES_MAX];
	size_t nt = 0, tid[PIPE_CHECK_THREADS], idx[PIPE_CHECK_THREADS * ILP];
	uint64_t words[PIPE_CHECK_THREADS * ILP];
	int rc = 0, nb = 0, grid = 0, nl = 0, ok = 1, i, k, l, it;
	const unsigned long long impossible = ~0ull;
	auto launch = [&]() -> cudaError_t {
		k_pipe<Op, ITERS, CHUNK><<<grid, THREADS, 0, g->s>>>((const T *)p->in, (T *)p->out, op,
		                                                      0, impossible);
		return cudaGetLastError();
	};

	static_assert(sizeof(T) <= 8, "words of up to 8 bytes");
	entry_init(&e, group, name, dtype);
	RL_CU(resident_blocks(k_pipe<Op, ITERS, CHUNK>, &nb));
	grid = g->sms * nb * PIPE_WAVES;
	nt = (size_t)grid * THREADS;
	if (nt * ILP > p->max_words) {
		rc = rl_err_set(err, RL_ERR_RANGE, "%s: %zu threads over the buffers", name, nt);
		goto out;
	}
	RL_CU(rl_cu_fill_random(p->in, nt * ILP * Op::lanes, Op::lane_t, seed, lo, hi, g->s));
	rc = pick_launches(g, launch, &nl, err);
	if (rc != 0)
		goto out;
	rc = time_launches(g, launch, p->ns, nl, us, &e, err);
	if (rc != 0)
		goto out;

	/* The checking launch: the same kernel and grid, storing every chain. */
	RL_CU(rl_cu_fill_random(p->out, nt * ILP * Op::lanes, Op::lane_t, seed + 1, lo, hi, g->s));
	k_pipe<Op, ITERS, CHUNK><<<grid, THREADS, 0, g->s>>>((const T *)p->in, (T *)p->out, op, 1,
	                                                      impossible);
	RL_CU(cudaGetLastError());
	pick_indices(nt, seed ^ 0x7069ull, tid, PIPE_CHECK_THREADS);
	for (i = 0; i < PIPE_CHECK_THREADS; i++)
		for (k = 0; k < ILP; k++)
			idx[i * ILP + k] = k * nt + tid[i];
	memset(words, 0, sizeof(words));
	if ((rc = gather(g, p->out, sizeof(T), idx, PIPE_CHECK_THREADS * ILP, words, err)) != 0)
		goto out;
	for (i = 0; i < PIPE_CHECK_THREADS * ILP; i++) {
		uint64_t w = 0;

		/* gather packed the words at sizeof(T) strides */
		memcpy(&w, (const char *)words + i * sizeof(T), sizeof(T));
		for (l = 0; l < Op::lanes; l++) {
			size_t el = idx[i] * Op::lanes + l;
			double x = rl_cu_round(rl_cu_random_value(seed, el, lo, hi), Op::lane_t);
			double d = Op::lane(w, l);

			for (it = 0; it < ITERS; it++)
				x = op.host(x);
			if (Op::tol == 0 ? !(d == x) : !(fabs(d - x) <= Op::tol * fabs(x)))
				ok = 0;
		}
	}
	e.check = ok ? 1 : -1;
	e.flops = (double)nt * ILP * ITERS * Op::flops;
	snprintf(e.method, sizeof(e.method),
	         "%s; %d independent chains x %d dependent steps per thread (unrolled by %d), "
	         "grid %dx%d blocks of %d (%d waves); %d samples x %d launches, CUDA events; "
	         "check: %d chains of a store-all launch vs host%s",
	         what, ILP, ITERS, CHUNK, g->sms * PIPE_WAVES, nb, THREADS, PIPE_WAVES, p->ns, nl,
	         PIPE_CHECK_THREADS * ILP, Op::tol == 0 ? ", bitwise" : " within a tolerance");
	rc = rl_bench_add(p->b, &e, us, p->ns, err);
out:
	return rc;
}

#define SEED_PIPE 0x70697065ull

extern "C" int rl_gpubench_pipes(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	struct gpu g;
	struct pipectx p;
	op_fma32 f32;
	op_mul32 m32;
	op_fma64 f64;
	op_hfma2 h16;
	op_bfma2 hb16;
	int rc;

	memset(&p, 0, sizeof(p));
	rc = gpu_open(dev, &g, err);
	if (rc != 0)
		return rc;
	p.g = &g;
	p.b = b;
	p.ns = quick ? SAMPLES_QUICK : SAMPLES_FULL;
	/* The most threads any grid below has: every SM full, PIPE_WAVES times. */
	p.max_words = (size_t)g.sms * g.threads_per_sm * PIPE_WAVES * ILP;
	RL_CU(cudaMalloc(&p.in, p.max_words * 8));
	RL_CU(cudaMalloc(&p.out, p.max_words * 8));

	/* Multipliers just under 1 in magnitude and negative, small addends:
	 * the chains alternate in sign and decay slowly (|a|^1024 > 0.3 for
	 * fp32), so values stay in range and keep changing; a != 1 exactly. */
	f32.a = (float)param(SEED_PIPE, 0, -0.9999, -0.999, RL_FP32);
	f32.b = (float)param(SEED_PIPE, 1, -0.01, 0.01, RL_FP32);
	rc = pipe_entry<op_fma32, 1024, 64>(&p, RL_BENCH_VECTOR, "fp32-fma", "fp32",
	                                    "x = fmaf(x, a, b) (FFMA)", f32, SEED_PIPE + 10, -1.0,
	                                    1.0, err);
	if (rc != 0)
		goto out;
	m32.a = (float)param(SEED_PIPE, 2, 0.9999, 0.99999, RL_FP32);
	rc = pipe_entry<op_mul32, 1024, 64>(&p, RL_BENCH_VECTOR, "fp32-mul", "fp32",
	                                    "x = x * a (FMUL, 1 FLOP)", m32, SEED_PIPE + 20, -1.0,
	                                    1.0, err);
	if (rc != 0)
		goto out;
	f64.a = param(SEED_PIPE, 3, -0.9999, -0.999, RL_FP64);
	f64.b = param(SEED_PIPE, 4, -0.01, 0.01, RL_FP64);
	rc = pipe_entry<op_fma64, 1024, 64>(&p, RL_BENCH_VECTOR, "fp64-fma", "fp64",
	                                    "x = fma(x, a, b) (DFMA)", f64, SEED_PIPE + 30, -1.0,
	                                    1.0, err);
	if (rc != 0)
		goto out;
	/* Half: a in [-0.999, -0.99) is -(1 - k 2^-11) (fp16), -0.99609 or
	 * -0.99219 (bf16): the chains oscillate towards b / (1 - a), |b| <
	 * 0.01, within the normal range of both types. */
	h16.a = param(SEED_PIPE, 5, -0.999, -0.99, RL_FP16);
	h16.b = param(SEED_PIPE, 6, -0.01, 0.01, RL_FP16);
	h16.a2 = __halves2half2(__double2half(h16.a), __double2half(h16.a));
	h16.b2 = __halves2half2(__double2half(h16.b), __double2half(h16.b));
	rc = pipe_entry<op_hfma2, 1024, 64>(&p, RL_BENCH_VECTOR, "fp16-fma", "fp16",
	                                    "x = __hfma2(x, a, b) on __half2 (HFMA2, 4 FLOPs)", h16,
	                                    SEED_PIPE + 40, -1.0, 1.0, err);
	if (rc != 0)
		goto out;
	if (g.cc >= 80) {
		hb16.a = param(SEED_PIPE, 7, -0.998, -0.99, RL_BF16);
		hb16.b = param(SEED_PIPE, 8, -0.01, 0.01, RL_BF16);
		hb16.a2 = __halves2bfloat162(__double2bfloat16(hb16.a), __double2bfloat16(hb16.a));
		hb16.b2 = __halves2bfloat162(__double2bfloat16(hb16.b), __double2bfloat16(hb16.b));
		rc = pipe_entry<op_bfma2, 1024, 64>(
			&p, RL_BENCH_VECTOR, "bf16-fma", "bf16",
			"x = __hfma2(x, a, b) on __nv_bfloat162 (HFMA2.BF16, 4 FLOPs)", hb16,
			SEED_PIPE + 50, -1.0, 1.0, err);
		if (rc != 0)
			goto out;
	}

	/* Special functions, one FLOP per evaluation. The accurate cosf
	 * carries a Payne-Hanek branch for |x| > 105615 that these inputs never
	 * take; a short unroll keeps its inlined copies few. */
	rc = pipe_entry<op_cos, 256, 2>(&p, RL_BENCH_SPECIAL, "cos", "fp32",
	                                "x = cosf(x) (libdevice, accurate)", op_cos(),
	                                SEED_PIPE + 60, -1.0, 1.0, err);
	if (rc != 0)
		goto out;
	rc = pipe_entry<op_exp, 256, 16>(&p, RL_BENCH_SPECIAL, "exp", "fp32",
	                                 "x = expf(-x) (libdevice, accurate)", op_exp(),
	                                 SEED_PIPE + 70, 0.0, 1.0, err);
	if (rc != 0)
		goto out;
	rc = pipe_entry<op_cos_fast, 1024, 32>(&p, RL_BENCH_SPECIAL, "cos-fast", "fp32",
	                                       "x = __cosf(x) (MUFU.COS)", op_cos_fast(),
	                                       SEED_PIPE + 80, -1.0, 1.0, err);
	if (rc != 0)
		goto out;
	rc = pipe_entry<op_exp_fast, 1024, 32>(&p, RL_BENCH_SPECIAL, "exp-fast", "fp32",
	                                       "x = __expf(-x) (FMUL + MUFU.EX2)", op_exp_fast(),
	                                       SEED_PIPE + 90, 0.0, 1.0, err);
out:
	cudaFree(p.in);
	cudaFree(p.out);
	gpu_close(&g);
	return rc;
}
