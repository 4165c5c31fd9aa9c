/* check_model.c - the roofline model, and the blog reproduced as assertions.
 *
 * Horace He, "Making Deep Learning Go Brrrr From First Principles" uses an
 * A100 (A100 SXM4 40GB datasheet: 19.5 TFLOPS FP32, 312 TFLOPS BF16 tensor,
 * 1555 GB/s). Expected values below follow from those datasheet figures. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "check.h"
#include "formulas.h"
#include "model.h"
#include "num.h"
#include "step.h"

static struct rl_device a100, v100;
static struct rl_model_ctx ctx;

static void setup(void)
{
	test_load_device("a100-sxm4-40gb", &a100);
	test_load_device("v100-sxm2", &v100);
	ctx.dev = &a100;
	ctx.host_overhead_us = test_runtime_overhead("eager");
	ctx.host_kind_us = NULL;
}

static void teardown(void)
{
	rl_device_release(&a100);
	rl_device_release(&v100);
}

static void pointwise(struct rl_op *op, enum rl_dtype t, const char *shape, double fpe,
                      uint64_t inputs)
{
	rl_op_init(op);
	op->kind = RL_KIND_POINTWISE;
	op->dtype = t;
	ck_assert_int_eq(rl_parse_dims(shape, op->dims, RL_MAX_DIMS, &op->ndims, NULL), 0);
	op->has |= RL_HAS_SHAPE | RL_HAS_FPE;
	op->flops_per_element = fpe;
	op->inputs = inputs;
}

static void predict(const struct rl_op *op, struct rl_pred *p)
{
	struct rl_err err = {0, ""};

	ck_assert_msg(rl_predict(op, &ctx, p, &err) == 0, "%s", err.msg);
}

/* The blog's 19.5 TFLOPS for FMA work and 9.75 for everything else. */
START_TEST(test_vector_peaks)
{
	struct rl_op op;
	struct rl_pred p;

	pointwise(&op, RL_FP32, "1024", 1, 1);
	predict(&op, &p);
	ck_assert_int_eq(p.pipe, RL_PIPE_FP32_VECTOR);
	ck_assert_double_eq_tol(p.peak_flops, 9.75e12, 1e6);
	op.fma = 1;
	op.has |= RL_HAS_FMA;
	predict(&op, &p);
	ck_assert_double_eq_tol(p.peak_flops, 19.5e12, 1e6);
	/* ridge of non-FMA fp32: 9.75e12 / 1555e9 = 6.27 FLOP/byte */
	op.has &= ~RL_HAS_FMA;
	predict(&op, &p);
	ck_assert_double_eq_tol(p.ridge, 9.75e12 / 1555e9, 1e-9);
}
END_TEST

/* x = x * 2 repeated r times on 2^28 fp32 elements: 8 bytes per element moved,
 * r FLOPs per element. Memory time 8 x 2^28 / 1555e9 = 1381.0 us; compute
 * r x 2^28 / 9.75e12. They cross at r = 9.75e12 x 8 / 1555e9 = 50.2: memory-bound
 * up to 32, compute-bound from 64, as the blog measured. */
START_TEST(test_repeat_sweep)
{
	struct rl_op op;
	struct rl_pred p;
	double r;

	for (r = 1; r <= 1024; r *= 2) {
		pointwise(&op, RL_FP32, "268435456", r, 1);
		predict(&op, &p);
		ck_assert_double_eq_tol(p.t_memory_us, 8.0 * 268435456 / 1555e9 * 1e6, 1e-6);
		ck_assert_double_eq_tol(p.t_compute_us, r * 268435456 / 9.75e12 * 1e6, 1e-6);
		ck_assert_msg(p.bound == (r <= 32 ? RL_BOUND_MEMORY : RL_BOUND_COMPUTE),
		              "repeat %g: %s", r, rl_bound_name(p.bound));
	}
	/* at repeat 1: 2^28 FLOPs in 1381 us = 0.194 TFLOPS, the blog's "~0.2" */
	pointwise(&op, RL_FP32, "268435456", 1, 1);
	predict(&op, &p);
	ck_assert_double_eq_tol(p.attainable_flops / 1e12, 0.194, 0.001);
}
END_TEST

/* x.cos().cos(): unfused reads and writes the array twice (4 passes), fused
 * once (2 passes): the blog's 2x. */
START_TEST(test_cos_cos_fusion)
{
	struct rl_op one, fused;
	struct rl_pred p1, pf;

	pointwise(&one, RL_FP32, "268435456", 1, 1);
	pointwise(&fused, RL_FP32, "268435456", 2, 1);
	predict(&one, &p1);
	predict(&fused, &pf);
	ck_assert_int_eq(p1.bound, RL_BOUND_MEMORY);
	ck_assert_int_eq(pf.bound, RL_BOUND_MEMORY);
	ck_assert_double_eq_tol((2 * p1.t_us) / pf.t_us, 2.0, 1e-12);
}
END_TEST

/* gelu (tanh form, about 14 FLOPs per element) and relu (1) take the same time
 * on a large tensor: both are memory-bound. */
START_TEST(test_gelu_relu)
{
	struct rl_op relu, gelu;
	struct rl_pred pr, pg;

	pointwise(&relu, RL_FP32, "268435456", 1, 1);
	pointwise(&gelu, RL_FP32, "268435456", 14, 1);
	predict(&relu, &pr);
	predict(&gelu, &pg);
	ck_assert_int_eq(pg.bound, RL_BOUND_MEMORY);
	ck_assert_double_eq_tol(pg.t_us, pr.t_us, 1e-9);
	ck_assert_double_lt(pg.t_compute_us, pg.t_memory_us);
}
END_TEST

/* A one-element add in eager PyTorch: 12 bytes, 1 FLOP; all overhead. */
START_TEST(test_tiny_add_overhead)
{
	struct rl_op op;
	struct rl_pred p;

	pointwise(&op, RL_FP32, "1", 1, 2);
	predict(&op, &p);
	ck_assert_int_eq(p.bound, RL_BOUND_OVERHEAD);
	ck_assert_double_eq(p.bytes, 12);
	ck_assert_double_eq_tol(p.t_us, ctx.host_overhead_us, 1e-12);
	/* the GPU side is the launch floor: min_kernel_us of the device */
	ck_assert_double_eq_tol(p.t_gpu_us, a100.num[RL_HW_MIN_KERNEL_US].value, 1e-12);
}
END_TEST

/* An 8192^3 bf16 matmul runs on tensor cores and is compute-bound:
 * 2 x 8192^3 / 312e12 s = 3524.1 us against 402.7 MB / 1555 GB/s = 258.9 us. */
START_TEST(test_big_matmul_compute)
{
	struct rl_op op;
	struct rl_pred p;

	rl_op_init(&op);
	op.kind = RL_KIND_MATMUL;
	op.dtype = RL_BF16;
	op.ndims = 3;
	op.dims[0] = op.dims[1] = op.dims[2] = 8192;
	op.has = RL_HAS_SHAPE;
	predict(&op, &p);
	ck_assert_int_eq(p.bound, RL_BOUND_COMPUTE);
	ck_assert_int_eq(p.pipe, RL_PIPE_BF16_TENSOR);
	ck_assert_int_eq(p.unit, RL_UNIT_TENSOR);
	ck_assert_double_eq_tol(p.t_compute_us, 3524.1, 0.1);
	ck_assert_double_eq_tol(p.t_memory_us, 258.9, 0.1);
	ck_assert_double_eq_tol(p.t_us, p.t_compute_us, 1e-9);
	/* 312 TFLOPS over 1555 GB/s: ridge at 200.6 FLOP/byte */
	ck_assert_double_eq_tol(p.ridge, 312e12 / 1555e9, 1e-9);

	/* The same shape in fp32 has no tensor pipe: CUDA cores at the FMA peak,
	 * 2 x 8192^3 / 19.5e12 = 56385 us. */
	op.dtype = RL_FP32;
	predict(&op, &p);
	ck_assert_int_eq(p.pipe, RL_PIPE_FP32_VECTOR);
	ck_assert_int_eq(p.fallback, 0);
	ck_assert_double_eq_tol(p.t_compute_us, 56385.2, 0.1);
	/* tf32 goes to the TF32 tensor pipe: 156 TFLOPS */
	op.dtype = RL_TF32;
	predict(&op, &p);
	ck_assert_int_eq(p.pipe, RL_PIPE_TF32_TENSOR);
	ck_assert_double_eq_tol(p.peak_flops, 156e12, 1e6);
}
END_TEST

/* A pipe the device lacks: the op falls back, and says so. */
START_TEST(test_fallbacks)
{
	struct rl_op op;
	struct rl_pred p;

	rl_op_init(&op);
	op.kind = RL_KIND_MATMUL;
	op.dtype = RL_FP8E4M3; /* A100 has no FP8 tensor cores: fp16 tensor, 312 */
	op.ndims = 3;
	op.dims[0] = op.dims[1] = op.dims[2] = 4096;
	op.has = RL_HAS_SHAPE;
	predict(&op, &p);
	ck_assert_int_eq(p.wanted, RL_PIPE_FP8_TENSOR);
	ck_assert_int_eq(p.pipe, RL_PIPE_FP16_TENSOR);
	ck_assert_int_eq(p.fallback, 1);
	ck_assert_double_eq_tol(p.peak_flops, 312e12, 1e6);

	/* V100 has neither bf16 tensor nor bf16 vector pipes: fp32 CUDA cores,
	 * 15.7 TFLOPS (datasheet). */
	ctx.dev = &v100;
	op.dtype = RL_BF16;
	predict(&op, &p);
	ck_assert_int_eq(p.pipe, RL_PIPE_FP32_VECTOR);
	ck_assert_int_eq(p.fallback, 1);
	ck_assert_double_eq_tol(p.peak_flops, 15.7e12, 1e6);
	/* fp16 on V100: tensor cores, 125 TFLOPS dense */
	op.dtype = RL_FP16;
	predict(&op, &p);
	ck_assert_int_eq(p.pipe, RL_PIPE_FP16_TENSOR);
	ck_assert_int_eq(p.fallback, 0);
	ck_assert_double_eq_tol(p.peak_flops, 125e12, 1e6);
	ctx.dev = &a100;

	/* unit=tensor on an fp32 op: no tensor pipe for fp32 anywhere */
	op.dtype = RL_FP32;
	op.unit = RL_UNIT_TENSOR;
	predict(&op, &p);
	ck_assert_int_eq(p.unit, RL_UNIT_VECTOR);
	ck_assert_int_eq(p.fallback, 1);
	/* unit=vector on a bf16 matmul: A100's bf16 CUDA-core peak, 39 TFLOPS */
	op.dtype = RL_BF16;
	op.unit = RL_UNIT_VECTOR;
	predict(&op, &p);
	ck_assert_int_eq(p.pipe, RL_PIPE_BF16_VECTOR);
	ck_assert_double_eq_tol(p.peak_flops, 39e12, 1e6);
}
END_TEST

/* t = max(t_gpu, t_overhead) and the launch floor, on made-up numbers. */
START_TEST(test_time_composition)
{
	struct rl_op op;
	struct rl_pred p;

	rl_op_init(&op);
	op.kind = RL_KIND_CUSTOM;
	op.flops = 0;
	op.bytes = 1555e3; /* 1 us at 1555 GB/s */
	op.launches = 3;
	op.has = RL_HAS_FLOPS | RL_HAS_BYTES;
	ctx.host_overhead_us = 0.1;
	predict(&op, &p);
	/* 3 launches x 0.53 us floor (1.59) beats 1 us of traffic and 0.3 us of host */
	ck_assert_double_eq_tol(p.t_memory_us, 1.0, 1e-9);
	ck_assert_double_eq_tol(p.t_overhead_us, 0.3, 1e-9);
	ck_assert_double_eq_tol(p.t_gpu_us, 3 * 0.53, 1e-9);
	ck_assert_double_eq_tol(p.t_us, 3 * 0.53, 1e-9);
	ck_assert_int_eq(p.bound, RL_BOUND_OVERHEAD);
	ck_assert_ptr_nonnull(strstr(rl_op_advice(&op, &p), "launch"));

	op.bytes = 1555e6; /* 1000 us */
	predict(&op, &p);
	ck_assert_int_eq(p.bound, RL_BOUND_MEMORY);
	ck_assert_double_eq_tol(p.t_us, 1000, 1e-6);
	ck_assert_double_eq(p.flops, 0);
	ck_assert_double_eq(p.attainable_flops, 0);

	ctx.host_overhead_us = 5000; /* the host is the bottleneck */
	predict(&op, &p);
	ck_assert_int_eq(p.bound, RL_BOUND_OVERHEAD);
	ck_assert_double_eq_tol(p.t_us, 15000, 1e-6);
	ck_assert_double_eq_tol(p.t_gpu_us, 1000, 1e-6);

	op.measured_us = 2000;
	op.has |= RL_HAS_MEASURED;
	predict(&op, &p);
	ck_assert_double_eq_tol(p.roofline_pct, 50, 1e-9);
}
END_TEST

/* The ties of model.h: overhead wins a tie with compute or memory, host or
 * launch floor alike; memory wins a tie with compute. Exact binary values, so
 * the tie is exact. */
START_TEST(test_bound_ties)
{
	struct rl_pred p;
	double floor_us = a100.num[RL_HW_MIN_KERNEL_US].value;

	memset(&p, 0, sizeof(p));
	ctx.host_overhead_us = 4.0;
	p.t_memory_us = 4.0; /* host overhead = memory time */
	rl_pred_times(&p, &ctx, RL_KIND_POINTWISE, 1);
	ck_assert_double_eq(p.t_us, 4.0);
	ck_assert_int_eq(p.bound, RL_BOUND_OVERHEAD);

	p.t_memory_us = 0;
	p.t_compute_us = 8.0; /* 2 launches x 4 us = compute time */
	rl_pred_times(&p, &ctx, RL_KIND_POINTWISE, 2);
	ck_assert_int_eq(p.bound, RL_BOUND_OVERHEAD);

	ctx.host_overhead_us = 0;
	p.t_compute_us = 0;
	p.t_memory_us = floor_us; /* the launch floor = memory time */
	rl_pred_times(&p, &ctx, RL_KIND_POINTWISE, 1);
	ck_assert_int_eq(p.bound, RL_BOUND_OVERHEAD);

	p.t_memory_us = p.t_compute_us = 64.0; /* compute = memory, above the floor */
	rl_pred_times(&p, &ctx, RL_KIND_POINTWISE, 1);
	ck_assert_int_eq(p.bound, RL_BOUND_MEMORY);
}
END_TEST

/* Sets key K of D to V GB/s (a test device, no text). */
static void set_bw(struct rl_device *d, enum rl_hw_key k, double v)
{
	d->num[k].present = 1;
	d->num[k].value = v;
}

/* Issue 12: the memory roof by access mix, on the A100 (1555 GB/s) given a
 * read bandwidth of 4000 GB/s and a write bandwidth of 2000. */
START_TEST(test_access_mix)
{
	struct rl_device d;
	struct rl_op op;
	struct rl_pred p;
	struct rl_err err = {0, ""};
	const double n = 268435456; /* 2^28 fp32 elements: 2^30 bytes per tensor */

	ck_assert_int_eq(rl_device_copy(&d, &a100, &err), 0);
	ctx.dev = &d;

	/* without the keys: as ever, 2 x 2^30 bytes at 1555 GB/s */
	rl_op_init(&op);
	op.kind = RL_KIND_COPY;
	ck_assert_int_eq(rl_parse_dims("268435456", op.dims, RL_MAX_DIMS, &op.ndims, NULL), 0);
	op.has |= RL_HAS_SHAPE;
	predict(&op, &p);
	ck_assert_double_eq(p.t_memory_us, 2147483648.0 / 1555e9 * 1e6);
	ck_assert_double_eq(p.bandwidth, 1555e9);
	ck_assert_int_eq(p.rw_known, 1);
	ck_assert_double_eq(p.bytes_read, 1073741824.0);
	ck_assert_double_eq(p.bytes_written, 1073741824.0);

	/* a copy: n x 4 bytes read at 4000 GB/s, n x 4 written at 2000 */
	set_bw(&d, RL_HW_MEM_READ_BANDWIDTH_GBS, 4000);
	set_bw(&d, RL_HW_MEM_WRITE_BANDWIDTH_GBS, 2000);
	predict(&op, &p);
	ck_assert_double_eq_tol(p.t_memory_us, (n * 4 / 4e12 + n * 4 / 2e12) * 1e6, 1e-9);
	ck_assert_double_eq_tol(p.t_memory_us, 805.306368, 1e-9);
	/* 2 / (1/4000 + 1/2000) = 2666.67 GB/s */
	ck_assert_double_eq_tol(p.bandwidth, 8e12 / 3, 1e-3);
	ck_assert_int_eq(p.bound, RL_BOUND_MEMORY);

	/* an fp32 add (2 reads, 1 write): 8n / 4e12 + 4n / 2e12 = 4n / 1e12 s;
	 * 12n bytes in it: 3000 GB/s, and the ridge of its plain fp32 math
	 * (9.75 TFLOPS) at that bandwidth is 3.25 FLOP/byte */
	pointwise(&op, RL_FP32, "268435456", 1, 2);
	predict(&op, &p);
	ck_assert_double_eq_tol(p.t_memory_us, 4 * n / 1e12 * 1e6, 1e-9);
	ck_assert_double_eq_tol(p.bandwidth, 3000e9, 1e-3);
	ck_assert_double_eq_tol(p.ridge, 3.25, 1e-12);
	ck_assert_double_eq_tol(p.attainable_flops, n / (4 * n / 1e12), 1e-3);
	/* the device's ridge stays at mem_bandwidth_gbs: 19.5 TFLOPS / 1555 GB/s */
	ck_assert_double_eq_tol(rl_model_ridge(&d, RL_PIPE_FP32_VECTOR, 1), 19.5e12 / 1555e9, 1e-12);

	/* bytes given: the split is not known, all at mem_bandwidth_gbs */
	op.bytes = 1555e6;
	op.has |= RL_HAS_BYTES;
	predict(&op, &p);
	ck_assert_int_eq(p.rw_known, 0);
	ck_assert_double_eq(p.bytes_read, 1555e6);
	ck_assert_double_eq(p.bytes_written, 0);
	ck_assert_double_eq_tol(p.t_memory_us, 1000, 1e-9);
	ck_assert_double_eq(p.bandwidth, 1555e9);

	/* only the read bandwidth: the writes at mem_bandwidth_gbs */
	d.num[RL_HW_MEM_WRITE_BANDWIDTH_GBS].present = 0;
	rl_op_init(&op);
	op.kind = RL_KIND_COPY;
	ck_assert_int_eq(rl_parse_dims("268435456", op.dims, RL_MAX_DIMS, &op.ndims, NULL), 0);
	op.has |= RL_HAS_SHAPE;
	predict(&op, &p);
	ck_assert_double_eq_tol(p.t_memory_us, (n * 4 / 4e12 + n * 4 / 1555e9) * 1e6, 1e-9);
	/* only the write bandwidth: the reads at mem_bandwidth_gbs */
	d.num[RL_HW_MEM_READ_BANDWIDTH_GBS].present = 0;
	set_bw(&d, RL_HW_MEM_WRITE_BANDWIDTH_GBS, 2000);
	predict(&op, &p);
	ck_assert_double_eq_tol(p.t_memory_us, (n * 4 / 1555e9 + n * 4 / 2e12) * 1e6, 1e-9);
	rl_device_release(&d);
}
END_TEST

/* Issue 12: the host cost follows the op's kind. A runtime with
 * host_overhead_us = 5 and host_overhead_us.matmul = 12: a matmul pays 12 us
 * per launch, a pointwise op (no key of its own) 5. */
START_TEST(test_host_per_kind)
{
	double kind_us[RL_HOST_KEY_COUNT];
	struct rl_op op;
	struct rl_pred p;
	size_t k;

	for (k = 0; k < RL_HOST_KEY_COUNT; k++)
		kind_us[k] = 5;
	kind_us[RL_KIND_MATMUL] = 12;
	ctx.host_overhead_us = 5;
	ctx.host_kind_us = kind_us;

	rl_op_init(&op); /* tiny: the host is the limit */
	op.kind = RL_KIND_MATMUL;
	op.dtype = RL_BF16;
	ck_assert_int_eq(rl_parse_dims("8x8x8", op.dims, RL_MAX_DIMS, &op.ndims, NULL), 0);
	op.has |= RL_HAS_SHAPE;
	predict(&op, &p);
	ck_assert_double_eq(p.t_overhead_us, 12);
	ck_assert_double_eq(p.t_us, 12);
	ck_assert_int_eq(p.bound, RL_BOUND_OVERHEAD);
	op.launches = 2;
	predict(&op, &p);
	ck_assert_double_eq(p.t_overhead_us, 24);

	/* an fp8 matmul (torch._scaled_mm) pays its path's cost */
	kind_us[RL_HOST_MATMUL_FP8] = 43;
	op.dtype = RL_FP8E4M3;
	predict(&op, &p);
	ck_assert_double_eq(p.t_overhead_us, 86);
	op.dtype = RL_BF16;

	pointwise(&op, RL_FP32, "8", 1, 1);
	predict(&op, &p);
	ck_assert_double_eq(p.t_overhead_us, 5);

	/* a fused group is an elementwise kernel: pointwise's cost */
	kind_us[RL_KIND_POINTWISE] = 7;
	ck_assert_double_eq(rl_model_host_us(&ctx, RL_KIND_FUSED), 7);
	memset(&p, 0, sizeof(p));
	rl_pred_times(&p, &ctx, RL_KIND_FUSED, 1);
	ck_assert_double_eq(p.t_overhead_us, 7);

	/* without the array (--host-overhead-us resolves every kind to its
	 * value; a caller without a runtime passes none): the default */
	ctx.host_kind_us = NULL;
	ctx.host_overhead_us = 3;
	op.kind = RL_KIND_MATMUL;
	ck_assert_int_eq(rl_parse_dims("8x8x8", op.dims, RL_MAX_DIMS, &op.ndims, NULL), 0);
	op.launches = 1;
	predict(&op, &p);
	ck_assert_double_eq(p.t_overhead_us, 3);
}
END_TEST

/* Issue 11: a GEMV at batch 1 (1x4096 activations, 4096x4096 bf16 weights)
 * is weight-bound: 2 (4096 + 4096^2 + 4096) = 33570816 bytes, 21.6 us at
 * 1555 GB/s against 67108864 FLOP / 312 TFLOPS = 0.2 us. Fusing does not
 * cut the weights' traffic; batching (more rows per weight read) or
 * quantisation does. The advice says so per op, for a measured op, and in
 * the summary line for memory-bound time. */
START_TEST(test_gemv_advice)
{
	struct rl_op op;
	struct rl_pred p;
	const char *a;

	rl_op_init(&op);
	op.kind = RL_KIND_MATMUL;
	op.dtype = RL_BF16;
	ck_assert_int_eq(rl_parse_dims("1x4096x4096", op.dims, RL_MAX_DIMS, &op.ndims, NULL), 0);
	op.has |= RL_HAS_SHAPE;
	ctx.host_overhead_us = 0.05;
	predict(&op, &p);
	ck_assert_double_eq_tol(p.bytes, 33570816, 0.5);
	ck_assert_int_eq(p.bound, RL_BOUND_MEMORY);
	a = rl_op_advice(&op, &p);
	ck_assert_msg(strstr(a, "batch more rows per weight read") && strstr(a, "quantize"), "%s",
	              a);
	ck_assert_msg(strstr(a, "fusing does not") != NULL, "%s", a);
	a = rl_step_advice(&op, &p);
	ck_assert_msg(strstr(a, "batch more rows per weight read") && !strstr(a, "fuse with"), "%s",
	              a);
	a = rl_bound_advice(RL_BOUND_MEMORY);
	ck_assert_msg(strstr(a, "batching") && strstr(a, "quantisation"), "%s", a);
	/* an elementwise op below the memory roof is still told to fuse */
	pointwise(&op, RL_BF16, "1048576", 1, 1);
	predict(&op, &p);
	ck_assert_ptr_nonnull(strstr(rl_op_advice(&op, &p), "fuse"));
}
END_TEST

/* Issue 11, bug 4: an op whose time times its count overflows is refused,
 * never an "inf us" total. */
START_TEST(test_overflowing_total_refused)
{
	struct rl_op op;
	struct rl_pred p;
	struct rl_err err = {0, ""};

	rl_op_init(&op);
	op.kind = RL_KIND_CUSTOM;
	op.flops = 1e308; /* 1e308 / 19.5e12 FLOP/s = 5e295 s, finite */
	op.bytes = 1;
	op.has = RL_HAS_FLOPS | RL_HAS_BYTES;
	ck_assert_int_eq(rl_predict(&op, &ctx, &p, &err), 0);
	op.count = 1ull << 53; /* x 9e15: above 1.8e308 */
	ck_assert_int_eq(rl_predict(&op, &ctx, &p, &err), RL_ERR_RANGE);
	ck_assert_msg(strstr(err.msg, "count 9007199254740992 overflow") != NULL, "%s", err.msg);
}
END_TEST

/* rl_predict_work() reads the record: 1e12 FLOPs on the A100's 312 TFLOP/s
 * bf16 tensor peak are 3205.13 us whatever the shape says. */
START_TEST(predict_work_record)
{
	struct rl_op op;
	struct rl_pred p;
	struct rl_work w = {0};

	test_op_shape(&op, RL_KIND_MATMUL, RL_BF16, 3, (uint64_t[]){16, 16, 16});
	w.flops = 1e12;
	w.bytes = w.bytes_read = 1000;
	ck_assert_int_eq(rl_predict_work(&op, &w, &ctx, &p, NULL), 0);
	ck_assert_double_eq(p.flops, 1e12);
	ck_assert_double_eq(p.bytes, 1000);
	ck_assert_int_eq(p.rw_known, 0);
	ck_assert_double_eq_tol(p.t_compute_us, 1e12 / 312e12 * 1e6, 1e-6);
}
END_TEST

Suite *suite_model(void)
{
	Suite *s = suite_create("model");
	TCase *blog = tcase_create("blog");
	TCase *core = tcase_create("core");

	tcase_add_checked_fixture(blog, setup, teardown);
	tcase_add_test(blog, test_vector_peaks);
	tcase_add_test(blog, predict_work_record);
	tcase_add_test(blog, test_repeat_sweep);
	tcase_add_test(blog, test_cos_cos_fusion);
	tcase_add_test(blog, test_gelu_relu);
	tcase_add_test(blog, test_tiny_add_overhead);
	tcase_add_test(blog, test_big_matmul_compute);
	tcase_add_checked_fixture(core, setup, teardown);
	tcase_add_test(core, test_fallbacks);
	tcase_add_test(core, test_time_composition);
	tcase_add_test(core, test_overflowing_total_refused);
	tcase_add_test(core, test_bound_ties);
	tcase_add_test(core, test_gemv_advice);
	tcase_add_test(core, test_access_mix);
	tcase_add_test(core, test_host_per_kind);
	suite_add_tcase(s, blog);
	suite_add_tcase(s, core);
	return s;
}
