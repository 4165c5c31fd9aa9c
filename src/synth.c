/* synth.c - the host half of the synthetic ops of "roofline validate"
 * (synth.h): which specs can run, their bytes and FLOPs. Plain C in the
 * library, so that validate.c can ask without loading the CUDA plugin and
 * tests can check the arithmetic; the plugin compiles this file in too for
 * src/cuda/synth.cu, which runs the ops.
 */
#include "config.h"

#include "synth.h"

#include <math.h>

#include "gemm_host.h"
#include "num.h"

/* What one synthetic launch may ask for: bounds on the GPU memory and time a
 * single op-list row can make validate spend. */
#define SYNTH_MAX_BYTES          ((uint64_t)64 << 30) /* one buffer set at most */
#define SYNTH_MAX_FLOPS_PER_ELEM 1e5                  /* pointwise, reduction */
#define SYNTH_MAX_FLOPS          1e13                 /* one elementwise launch */
#define SYNTH_MAX_MATMUL_FLOPS   1e14                 /* one matmul launch */
#define SYNTH_NORM_MAX_COLS      ((uint64_t)1 << 24)  /* softmax, layernorm rows */

const char *rl_synth_kind_name(enum rl_synth_kind k)
{
	switch (k) {
	case RL_SYNTH_POINTWISE:
		return "pointwise";
	case RL_SYNTH_COPY:
		return "copy";
	case RL_SYNTH_REDUCTION:
		return "reduction";
	case RL_SYNTH_SOFTMAX:
		return "softmax";
	case RL_SYNTH_LAYERNORM:
		return "layernorm";
	case RL_SYNTH_MATMUL:
		return "matmul";
	}
	return "?";
}

static int elementwise_dtype(enum rl_dtype t)
{
	return t == RL_FP64 || t == RL_FP32 || t == RL_FP16 || t == RL_BF16;
}

static int mul_ok(uint64_t a, uint64_t b, uint64_t *out)
{
	return rl_mul_u64(a, b, out) == 0;
}

static int add_ok(uint64_t a, uint64_t b, uint64_t *out)
{
	return !__builtin_add_overflow(a, b, out);
}

int rl_synth_bytes(const struct rl_synth *s, uint64_t *bytes)
{
	uint64_t es = rl_dtype_size(s->dtype), n, t, a, b, c;

	switch (s->kind) {
	case RL_SYNTH_POINTWISE:
	case RL_SYNTH_COPY:
		return mul_ok(s->elems, es, &n) &&
		               mul_ok(n, (s->kind == RL_SYNTH_COPY ? 1 : s->inputs) + 1, bytes)
		           ? 0
		           : RL_ERR_RANGE;
	case RL_SYNTH_REDUCTION:
		return mul_ok(s->rows, s->cols, &n) && add_ok(n, s->rows, &t) &&
		               mul_ok(t, es, bytes)
		           ? 0
		           : RL_ERR_RANGE;
	case RL_SYNTH_SOFTMAX:
	case RL_SYNTH_LAYERNORM:
		if (!mul_ok(s->rows, s->cols, &n) || !mul_ok(n, 2, &t))
			return RL_ERR_RANGE;
		if (s->kind == RL_SYNTH_LAYERNORM && !add_ok(t, 2 * s->cols, &t))
			return RL_ERR_RANGE;
		return mul_ok(t, es, bytes) ? 0 : RL_ERR_RANGE;
	case RL_SYNTH_MATMUL: {
		struct rl_gemm_shape g = {s->dtype, s->batch, s->m, s->n, s->k};

		if (rl_gemm_bytes(&g, &a, &b, &c) < 0 || !add_ok(a, b, &t) || !add_ok(t, c, bytes))
			return RL_ERR_RANGE;
		return 0;
	}
	}
	return RL_ERR_RANGE;
}

uint64_t rl_synth_flops_each(const struct rl_synth *s)
{
	double f = s->flops_per_elem < 0 ? 0 : floor(s->flops_per_elem + 0.5);

	if (s->kind == RL_SYNTH_REDUCTION && f < 1)
		f = 1;
	return (uint64_t)f;
}

int rl_synth_supported(const struct rl_synth *s, struct rl_err *err)
{
	const char *k = rl_synth_kind_name(s->kind), *d;
	uint64_t bytes = 0;
	double flops = 0;

	if ((int)s->dtype < 0 || (int)s->dtype >= RL_DTYPE_COUNT) {
		rl_err_set(err, RL_ERR_UNSUPPORTED, "synthetic %s: unknown dtype %d", k,
		           (int)s->dtype);
		return 0;
	}
	d = rl_dtype_name(s->dtype);
	switch (s->kind) {
	case RL_SYNTH_POINTWISE:
	case RL_SYNTH_COPY:
	case RL_SYNTH_REDUCTION:
	case RL_SYNTH_SOFTMAX:
	case RL_SYNTH_LAYERNORM:
		if (!elementwise_dtype(s->dtype)) {
			rl_err_set(err, RL_ERR_UNSUPPORTED,
			           "synthetic %s ops exist for fp64, fp32, fp16 and bf16, not %s",
			           k, d);
			return 0;
		}
		break;
	case RL_SYNTH_MATMUL:
		if (!rl_gemm_dtype_ok(s->dtype)) {
			rl_err_set(
			    err, RL_ERR_UNSUPPORTED,
			    "synthetic matmuls exist for fp16, bf16, tf32, fp32, fp64, fp8e4m3 "
			    "and int8, not %s",
			    d);
			return 0;
		}
		break;
	default:
		rl_err_set(err, RL_ERR_UNSUPPORTED, "synthetic ops: unknown kind %d", (int)s->kind);
		return 0;
	}
	switch (s->kind) {
	case RL_SYNTH_POINTWISE:
	case RL_SYNTH_COPY:
		if (s->elems == 0) {
			rl_err_set(err, RL_ERR_UNSUPPORTED, "synthetic %s: no elements", k);
			return 0;
		}
		if (s->kind == RL_SYNTH_POINTWISE && s->inputs > RL_SYNTH_MAX_INPUTS) {
			rl_err_set(err, RL_ERR_UNSUPPORTED,
			           "synthetic pointwise ops take 0 to %d inputs, not %llu",
			           RL_SYNTH_MAX_INPUTS, (unsigned long long)s->inputs);
			return 0;
		}
		break;
	case RL_SYNTH_REDUCTION:
	case RL_SYNTH_SOFTMAX:
	case RL_SYNTH_LAYERNORM:
		if (s->rows == 0 || s->cols == 0) {
			rl_err_set(err, RL_ERR_UNSUPPORTED,
			           "synthetic %s: %llu x %llu has no elements", k,
			           (unsigned long long)s->rows, (unsigned long long)s->cols);
			return 0;
		}
		if (s->kind != RL_SYNTH_REDUCTION && s->cols > SYNTH_NORM_MAX_COLS) {
			rl_err_set(err, RL_ERR_UNSUPPORTED,
			           "synthetic %s: rows of %llu elements (at most %llu here)", k,
			           (unsigned long long)s->cols,
			           (unsigned long long)SYNTH_NORM_MAX_COLS);
			return 0;
		}
		break;
	case RL_SYNTH_MATMUL:
		if (s->batch == 0 || s->m == 0 || s->n == 0 || s->k == 0) {
			rl_err_set(err, RL_ERR_UNSUPPORTED, "synthetic matmul: a dimension is 0");
			return 0;
		}
		if (s->batch > INT32_MAX) {
			rl_err_set(
			    err, RL_ERR_UNSUPPORTED,
			    "synthetic matmul: batch %llu (cuBLASLt counts batches in 32 bits)",
			    (unsigned long long)s->batch);
			return 0;
		}
		flops = 2.0 * (double)s->batch * (double)s->m * (double)s->n * (double)s->k;
		if (flops > SYNTH_MAX_MATMUL_FLOPS) {
			rl_err_set(
			    err, RL_ERR_UNSUPPORTED,
			    "synthetic matmul: %.3g FLOPs per launch (at most %.0e here: seconds "
			    "per launch on the slower pipes)",
			    flops, SYNTH_MAX_MATMUL_FLOPS);
			return 0;
		}
		break;
	}
	if (s->kind == RL_SYNTH_POINTWISE || s->kind == RL_SYNTH_REDUCTION) {
		uint64_t n = s->kind == RL_SYNTH_POINTWISE ? s->elems : s->rows * s->cols;

		if (!isfinite(s->flops_per_elem) || s->flops_per_elem < 0 ||
		    s->flops_per_elem > SYNTH_MAX_FLOPS_PER_ELEM) {
			rl_err_set(err, RL_ERR_UNSUPPORTED,
			           "synthetic %s: %g FLOPs per element (0 to %.0e here)", k,
			           s->flops_per_elem, SYNTH_MAX_FLOPS_PER_ELEM);
			return 0;
		}
		if (s->kind == RL_SYNTH_POINTWISE && s->fma != 0 && s->fma != 1) {
			rl_err_set(err, RL_ERR_UNSUPPORTED,
			           "synthetic pointwise: fma is %d (0 or 1)", s->fma);
			return 0;
		}
		/* rows x cols may overflow here; rl_synth_bytes below says so first. */
		flops = (double)rl_synth_flops_each(s) * (double)n;
		if (rl_synth_bytes(s, &bytes) == 0 && flops > SYNTH_MAX_FLOPS) {
			rl_err_set(err, RL_ERR_UNSUPPORTED,
			           "synthetic %s: %.3g FLOPs per launch (at most %.0e here)", k,
			           flops, SYNTH_MAX_FLOPS);
			return 0;
		}
	}
	if (rl_synth_bytes(s, &bytes) < 0 || bytes > SYNTH_MAX_BYTES) {
		rl_err_set(err, RL_ERR_UNSUPPORTED,
		           "synthetic %s %s: the buffers would take more than %llu GiB", k, d,
		           (unsigned long long)(SYNTH_MAX_BYTES >> 30));
		return 0;
	}
	return 1;
}

int rl_synth_sets(uint64_t set_bytes, uint64_t l2_bytes)
{
	uint64_t k;

	if (set_bytes == 0 || l2_bytes > UINT64_MAX / 2 || set_bytes >= 2 * l2_bytes)
		return 1;
	k = 2 * l2_bytes / set_bytes + (2 * l2_bytes % set_bytes != 0);
	return k < RL_SYNTH_MAX_SETS ? (int)k : RL_SYNTH_MAX_SETS;
}

int rl_synth_launches(double one_us)
{
	double l;

	if (!(one_us > 1))
		one_us = 1;
	l = ceil(RL_SYNTH_LOOP_US / one_us);
	return l < 1 ? 1 : l > RL_SYNTH_MAX_LAUNCHES ? RL_SYNTH_MAX_LAUNCHES : (int)l;
}
