/* gemm_host.c - the host half of the GEMM module: dtypes, layout and sizes
 * (see gemm_host.h). */
#include "config.h"

#include "gemm_host.h"

#include <stdio.h>

#include "err.h"
#include "num.h"

/* What the GEMM benchmark does with each dtype: whether cuBLASLt runs it,
 * the output type, the lowest compute capability and the compute type. */
static const struct {
	int ok;
	enum rl_dtype out;
	int min_cc;
	const char *compute;
} gemm_types[RL_DTYPE_COUNT] = {
	[RL_FP64] = {1, RL_FP64, 0, "CUBLAS_COMPUTE_64F"},
	[RL_FP32] = {1, RL_FP32, 0, "CUBLAS_COMPUTE_32F"},
	[RL_TF32] = {1, RL_FP32, 80, "CUBLAS_COMPUTE_32F_FAST_TF32"},
	[RL_FP16] = {1, RL_FP16, 0, "CUBLAS_COMPUTE_32F"},
	[RL_BF16] = {1, RL_BF16, 80, "CUBLAS_COMPUTE_32F"},
	[RL_FP8E4M3] = {1, RL_BF16, 89, "CUBLAS_COMPUTE_32F"},
	[RL_FP8E5M2] = {0, RL_FP8E5M2, 0, "CUBLAS_COMPUTE_32F"},
	[RL_INT8] = {1, RL_INT32, 75, "CUBLAS_COMPUTE_32I"},
	[RL_INT32] = {0, RL_INT32, 0, "CUBLAS_COMPUTE_32F"},
	[RL_INT64] = {0, RL_INT64, 0, "CUBLAS_COMPUTE_32F"},
	[RL_INT4] = {0, RL_INT4, 0, "CUBLAS_COMPUTE_32F"},
	[RL_FP4] = {0, RL_FP4, 0, "CUBLAS_COMPUTE_32F"},
	[RL_MXFP4] = {0, RL_MXFP4, 0, "CUBLAS_COMPUTE_32F"},
};

int rl_gemm_dtype_ok(enum rl_dtype t)
{
	return gemm_types[t].ok;
}

enum rl_dtype rl_gemm_in_type(enum rl_dtype t)
{
	return t == RL_TF32 ? RL_FP32 : t;
}

enum rl_dtype rl_gemm_out_type(enum rl_dtype t)
{
	return gemm_types[t].out;
}

int rl_gemm_min_cc(enum rl_dtype t)
{
	return gemm_types[t].min_cc;
}

const char *rl_gemm_compute_name(enum rl_dtype t)
{
	return gemm_types[t].compute;
}

int rl_gemm_a_transposed(enum rl_dtype t)
{
	return t == RL_FP8E4M3 || t == RL_INT8;
}

void rl_gemm_input_range(enum rl_dtype t, double *lo, double *hi)
{
	/* int8: small integers, so that k-long sums stay exact in int32 and the
	 * check can ask for equality. */
	*lo = t == RL_INT8 ? -4 : -1;
	*hi = t == RL_INT8 ? 4 : 1;
}

int rl_gemm_elems(const struct rl_gemm_shape *s, uint64_t *a, uint64_t *b, uint64_t *c)
{
	uint64_t mk, kn, mn;

	if (s->batch == 0 || s->m == 0 || s->n == 0 || s->k == 0)
		return RL_ERR_RANGE;
	if (rl_mul_u64(s->m, s->k, &mk) < 0 || rl_mul_u64(s->k, s->n, &kn) < 0 ||
	    rl_mul_u64(s->m, s->n, &mn) < 0 || rl_mul_u64(mk, s->batch, a) < 0 ||
	    rl_mul_u64(kn, s->batch, b) < 0 || rl_mul_u64(mn, s->batch, c) < 0)
		return RL_ERR_RANGE;
	return 0;
}

int rl_gemm_bytes(const struct rl_gemm_shape *s, uint64_t *a, uint64_t *b, uint64_t *c)
{
	uint64_t ea, eb, ec;
	size_t in = rl_dtype_size(rl_gemm_in_type(s->dtype));
	size_t out = rl_dtype_size(rl_gemm_out_type(s->dtype));

	if (rl_gemm_elems(s, &ea, &eb, &ec) < 0 || rl_mul_u64(ea, in, a) < 0 ||
	    rl_mul_u64(eb, in, b) < 0 || rl_mul_u64(ec, out, c) < 0)
		return RL_ERR_RANGE;
	return 0;
}

uint64_t rl_gemm_a_index(const struct rl_gemm_shape *s, uint64_t bi, uint64_t i, uint64_t l)
{
	uint64_t base = bi * s->m * s->k;

	return rl_gemm_a_transposed(s->dtype) ? base + i * s->k + l : base + l * s->m + i;
}

uint64_t rl_gemm_b_index(const struct rl_gemm_shape *s, uint64_t bi, uint64_t l, uint64_t j)
{
	return bi * s->k * s->n + j * s->k + l;
}

uint64_t rl_gemm_c_index(const struct rl_gemm_shape *s, uint64_t bi, uint64_t i, uint64_t j)
{
	return bi * s->m * s->n + j * s->m + i;
}

void rl_gemm_describe(const struct rl_gemm_shape *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s %llux%llux%llux%llu (batch x m x n x k)", rl_dtype_name(s->dtype),
	         (unsigned long long)s->batch, (unsigned long long)s->m, (unsigned long long)s->n,
	         (unsigned long long)s->k);
}
