/* check_expected.c - the expected-time model and efficiency profiles.
 *
 * tests/data/expected/unit.device is a made-up GPU with round numbers (4 SMs,
 * bf16 tensor 1 TFLOPS = 1e6 FLOP/us, fp32 vector 10 TFLOPS, 1000 GB/s =
 * 1e6 bytes/us) and unit.efficiency a made-up profile (latency 1 us, the
 * tile classes at 1, 0.5, 0.25 and 0.125 of the peak, no epilogue, each row
 * path its own fixed time per wave: 1 us for a warp softmax up to 10 for a
 * wide reduction). Every expected value below is worked out by hand from
 * those numbers and the principles in src/expected.c's comments. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "effprof.h"
#include "expected.h"
#include "model.h"

#define DIR RL_TEST_DATA "/expected"

static struct rl_device dev;
static struct rl_effprof prof;
static struct rl_model_ctx ctx;

static void setup(void)
{
	struct rl_err err;

	ck_assert_msg(rl_device_load(DIR "/unit.device", &dev, &err) == 0, "%s", err.msg);
	ck_assert_msg(rl_effprof_load(DIR "/unit.efficiency", &prof, &err) == 0, "%s", err.msg);
	memset(&ctx, 0, sizeof(ctx));
	ctx.dev = &dev;
	ctx.host_overhead_us = 0;
	ctx.eff = &prof;
}

static void teardown(void)
{
	rl_device_release(&dev);
	rl_effprof_release(&prof);
}

static void make_op(struct rl_op *op, enum rl_kind k, enum rl_dtype t, const uint64_t *dims, int n)
{
	rl_op_init(op);
	op->kind = k;
	op->dtype = t;
	op->has |= RL_HAS_SHAPE;
	op->ndims = n;
	memcpy(op->dims, dims, (size_t)n * sizeof(*dims));
}

static struct rl_pred predict(const struct rl_op *op)
{
	struct rl_pred p;
	struct rl_err err;

	ck_assert_msg(rl_predict(op, &ctx, &p, &err) == 0, "%s", err.msg);
	return p;
}

static double expected_of(enum rl_kind k, enum rl_dtype t, const uint64_t *dims, int n)
{
	struct rl_op op;

	make_op(&op, k, t, dims, n);
	return predict(&op).expected_gpu_us;
}

/* A pointwise fp32 op over 1e6 elements, one input: 8e6 bytes at half of
 * 1e6 bytes/us = 16 us, its 1e6 FLOPs at 10 TFLOPS / 2 (not FMA) = 0.2 us:
 * 1 us of latency + 16 = 17 us. */
START_TEST(test_streaming)
{
	struct rl_op op;
	struct rl_pred p;
	uint64_t n[] = {1000000};

	make_op(&op, RL_KIND_POINTWISE, RL_FP32, n, 1);
	p = predict(&op);
	ck_assert_double_eq_tol(p.expected_gpu_us, 17, 1e-9);
	ck_assert_double_eq_tol(p.t_gpu_us, 8, 1e-9); /* the roofline: 8e6 / 1e6 */
	ck_assert_int_eq(p.expected_bound, RL_BOUND_MEMORY);
	/* two kernels per occurrence do the op's work between them, as the
	 * roofline counts it: twice the latency, the work once: 2 + 16 */
	op.launches = 2;
	p = predict(&op);
	ck_assert_double_eq_tol(p.expected_gpu_us, 18, 1e-9);
}
END_TEST

/* --best-case, or no profile: the expected times are the roofline's. */
START_TEST(test_best_case_and_no_profile)
{
	struct rl_op op;
	struct rl_pred p;
	uint64_t n[] = {1000000};

	make_op(&op, RL_KIND_POINTWISE, RL_FP32, n, 1);
	ctx.best_case = 1;
	p = predict(&op);
	ck_assert_double_eq(p.expected_gpu_us, p.t_gpu_us);
	ck_assert_double_eq(p.expected_us, p.t_us);
	ck_assert_int_eq(p.expected_bound, p.bound);
	ctx.best_case = 0;
	ctx.eff = NULL;
	p = predict(&op);
	ck_assert_double_eq(p.expected_gpu_us, 8);
}
END_TEST

/* Never below the roofline: with a profile faster than the datasheet
 * (mem.elementwise 1.5) and no latency, the bound holds. */
START_TEST(test_never_below_roofline)
{
	struct rl_op op;
	struct rl_pred p;
	uint64_t n[] = {1000000};

	prof.num[RL_EP_MEM_ELEMENTWISE].value = 1.5;
	prof.num[RL_EP_LATENCY_US].value = 0;
	make_op(&op, RL_KIND_POINTWISE, RL_FP32, n, 1);
	p = predict(&op);
	ck_assert_double_eq_tol(p.expected_gpu_us, 8, 1e-9);
}
END_TEST

/* The softmax path PyTorch takes (SoftMax.cu), told apart by each path's
 * fixed time per wave: 4 rows fill the 4 SMs at one slot each, so one wave,
 * and the expected time is 1 us of latency + the path's row_us (the rates,
 * 1e9 elements/us, add under 1e-4 us; the bytes, at most 64 KiB x 4 at
 * 0.5e6 bytes/us, under 0.6 us, less than any path's time). */
START_TEST(test_softmax_paths)
{
	uint64_t d[2] = {4, 0};

	d[1] = 1024; /* fp32, 4 KiB rows: a warp per row */
	ck_assert_double_eq_tol(expected_of(RL_KIND_SOFTMAX, RL_FP32, d, 2), 1 + 1, 1e-3);
	d[1] = 2048; /* 8 KiB: still a warp, two passes per lane */
	ck_assert_double_eq_tol(expected_of(RL_KIND_SOFTMAX, RL_FP32, d, 2), 1 + 2, 1e-3);
	d[1] = 4096; /* over 2048 elements, ceil(4096 / 1024) < 10: registers */
	ck_assert_double_eq_tol(expected_of(RL_KIND_SOFTMAX, RL_FP32, d, 2), 1 + 3, 1e-3);
	d[1] = 9216; /* ceil(9216 / 1024) = 9 < 10: still registers */
	ck_assert_double_eq_tol(expected_of(RL_KIND_SOFTMAX, RL_FP32, d, 2), 1 + 3, 1e-3);
	d[1] = 12288; /* 48 KiB, 16-byte aligned: shared memory */
	ck_assert_double_eq_tol(expected_of(RL_KIND_SOFTMAX, RL_FP32, d, 2), 1 + 4, 1e-3);
	d[1] = 16384; /* 64 KiB: three passes */
	ck_assert_double_eq_tol(expected_of(RL_KIND_SOFTMAX, RL_FP32, d, 2), 1 + 5, 1e-2);
	d[1] = 16384; /* bf16: 32 KiB, shared memory */
	ck_assert_double_eq_tol(expected_of(RL_KIND_SOFTMAX, RL_BF16, d, 2), 1 + 4, 1e-2);
	d[1] = 2048; /* bf16, 4 KiB: a warp, two passes per lane */
	ck_assert_double_eq_tol(expected_of(RL_KIND_SOFTMAX, RL_BF16, d, 2), 1 + 2, 1e-3);
}
END_TEST

/* Layer norm: a row of a multiple of 4 elements takes the vectorised kernel
 * (6 us per wave); 1026 does not: two kernels (2 us of latency) and the
 * split path's 7 us. Reductions: rows of up to 32, up to 128, and longer. */
START_TEST(test_row_paths)
{
	uint64_t d[2] = {4, 1024};
	struct rl_op op;

	ck_assert_double_eq_tol(expected_of(RL_KIND_LAYERNORM, RL_FP32, d, 2), 1 + 6, 1e-3);
	d[1] = 1026;
	make_op(&op, RL_KIND_LAYERNORM, RL_FP32, d, 2);
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 2 + 7, 1e-3);
	ck_assert_ptr_nonnull(strstr(predict(&op).expected_note, "two-kernel"));
	d[1] = 32;
	ck_assert_double_eq_tol(expected_of(RL_KIND_REDUCTION, RL_FP32, d, 2), 1 + 8, 1e-3);
	d[1] = 128;
	ck_assert_double_eq_tol(expected_of(RL_KIND_REDUCTION, RL_FP32, d, 2), 1 + 9, 1e-3);
	d[1] = 4096;
	ck_assert_double_eq_tol(expected_of(RL_KIND_REDUCTION, RL_FP32, d, 2), 1 + 10, 1e-3);
	/* 8 rows on 4 SMs of one slot: two waves of the fixed time */
	d[0] = 8;
	ck_assert_double_eq_tol(expected_of(RL_KIND_REDUCTION, RL_FP32, d, 2), 1 + 2 * 10, 1e-3);
}
END_TEST

/* Rows too few for the SMs: one row alone runs at row_elems_per_us. With
 * that rate at 1000 elements/us, one row of 1e6 elements takes 1000 us,
 * whatever the SM rate. */
START_TEST(test_lone_row)
{
	uint64_t d[2] = {1, 1000000};

	prof.num[RL_EP_ROW(RL_EP_SOFTMAX_BLOCK, RL_EP_ROW_RATE)].value = 1000;
	ck_assert_double_eq_tol(expected_of(RL_KIND_SOFTMAX, RL_FP32, d, 2), 1 + 5 + 1000, 1e-2);
}
END_TEST

/* GEMM tiles and waves, bf16 at 1e6 FLOP/us over 4 SMs. 320 x 320 x 1024:
 * 256 x 128 tiles: 2 x 3 = 6 tiles, 2 waves of 2 x 256 x 128 x 1024 FLOPs at
 * 2.5e5 FLOP/us per SM = 536.9 us; 192 x 192: 2 x 2 = 4 tiles, one wave of
 * 2 x 192 x 192 x 1024 / 2.5e5 = 301.989888 us, the best; 192 x 128 at half
 * the rate: 6 tiles, 2 waves, 805 us; smaller tiles lower still. So 1 us of
 * latency + 301.989888, against the roofline's 2 x 320^2 x 1024 / 1e6 =
 * 209.7152 us: the wave is 4 tiles of 192^2 for 320^2 of work. */
START_TEST(test_gemm_waves)
{
	uint64_t d[3] = {320, 320, 1024};
	struct rl_op op;
	struct rl_pred p;

	make_op(&op, RL_KIND_MATMUL, RL_BF16, d, 3);
	p = predict(&op);
	ck_assert_double_eq_tol(p.t_gpu_us, 209.7152, 1e-6);
	ck_assert_double_eq_tol(p.expected_gpu_us, 1 + 301.989888, 1e-6);
	ck_assert_int_eq(p.expected_bound, RL_BOUND_COMPUTE);
}
END_TEST

/* N = 321: 642 bytes, 2-byte aligned: the fallback kernels at align2 = 0.5
 * of the tiles' rates, no split (K of 1024), CUTLASS's fixed tiles only
 * (no 192 x 192, no widths in steps of 16). 256 x 128 (large: 1e6 / 4 x
 * 0.5 = 1.25e5 FLOP/us a CTA): 2 x 3 tiles, two waves on the 4 SMs of 2 x
 * 256 x 128 x 1024 / 1.25e5 = 536.870912 us each: 1073.741824 us (128 x
 * 256 ties; 128 x 128 at half the rate takes three waves, 64 x 64 at a
 * quarter four of eight slots). */
START_TEST(test_gemm_unaligned)
{
	uint64_t d[3] = {320, 321, 1024};
	struct rl_op op;
	struct rl_pred p;

	make_op(&op, RL_KIND_MATMUL, RL_BF16, d, 3);
	p = predict(&op);
	ck_assert_double_eq_tol(p.expected_gpu_us, 1 + 1073.741824, 1e-6);
	ck_assert_ptr_nonnull(strstr(p.expected_note, "16 bytes"));
	/* under F.linear's layout (the weight [N, K]) the 2-byte fallback runs
	 * at align2_linear = 0.25: the same tile at half the rate */
	op.linear = 1;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 2 * 1073.741824, 1e-6);
	/* N = 324: 648 bytes, 8-byte aligned: align8 = 0.75 of the rate, the
	 * same for both layouts: 256 x 128 again, 2 x 3 tiles in two waves of
	 * 2 x 256 x 128 x 1024 / 1.875e5 us */
	d[1] = 324;
	make_op(&op, RL_KIND_MATMUL, RL_BF16, d, 3);
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 2 * 67108864 / 1.875e5, 1e-6);
	op.linear = 1;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 2 * 67108864 / 1.875e5, 1e-6);
}
END_TEST

/* An unaligned GEMV: 8 x 321 x 4096 runs the fallback's CUTLASS tiles, 64 x
 * 64 at the least, not the GEMV tiles. At align2 = 0.5 of the tile rates,
 * 128 x 256 (large: 1e6 / 4 x 0.5 = 1.25e5 FLOP/us a CTA) covers it in 2
 * tiles, split over K in 2 for the 4 SMs: 2 x 128 x 256 x 2048 / 1.25e5 =
 * 1073.741824 us (64 x 256, medium at 6.25e4, ties; the partial sums and
 * the operands' 2.7 MB stay under it), two kernels at 1 us. Four rows
 * still run cuBLAS's GEMV kernels: the 8 x 64 tile (thin: 1e6 / 8 x 0.125
 * x 0.5 = 7812.5) over 6 tiles, no split (8 / 6 < 2): 2 x 8 x 64 x 4096 /
 * 7812.5 = 536.870912 us, one kernel. One output column has no stride to
 * align: 8 x 1 x 4096 is no fallback. */
START_TEST(test_gemm_unaligned_gemv)
{
	uint64_t d[3] = {8, 321, 4096};
	struct rl_op op;
	struct rl_pred p;

	make_op(&op, RL_KIND_MATMUL, RL_BF16, d, 3);
	p = predict(&op);
	ck_assert_double_eq_tol(p.expected_gpu_us, 2 + 1073.741824, 1e-6);
	ck_assert_double_eq_tol(p.expected_kernels, 2, 1e-12);
	d[0] = 4;
	make_op(&op, RL_KIND_MATMUL, RL_BF16, d, 3);
	p = predict(&op);
	ck_assert_double_eq_tol(p.expected_gpu_us, 1 + 536.870912, 1e-6);
	ck_assert_double_eq_tol(p.expected_kernels, 1, 1e-12);
	op.linear = 1; /* the GEMV kernels take either layout alike */
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 536.870912, 1e-6);
	d[0] = 8;
	d[1] = 1;
	make_op(&op, RL_KIND_MATMUL, RL_BF16, d, 3);
	p = predict(&op);
	ck_assert(p.expected_note == NULL || strstr(p.expected_note, "16 bytes") == NULL);
}
END_TEST

/* 128 x 128 x 4096: one 256 x 128 tile for 4 SMs, so split over K in
 * min(4 / 1, 4096 / 256) = 4: 4 units, one wave of 2 x 256 x 128 x 1024 /
 * 2.5e5 = 268.435456 us (128 x 128 at half the rate ties; smaller tiles
 * are slower); the partial sums (2 x 4 x 128^2 x 4 bytes) stay under the
 * work; a second kernel adds them: 2 us of latency. */
START_TEST(test_gemm_split_k)
{
	uint64_t d[3] = {128, 128, 4096};

	ck_assert_double_eq_tol(expected_of(RL_KIND_MATMUL, RL_BF16, d, 3), 2 + 268.435456, 1e-6);
}
END_TEST

/* gemm.latency_us is each kernel's fixed time for cuBLAS's GEMV tiles (a
 * side under 128) in place of latency_us (1 us): at 3 us the split GEMM
 * above (M = N = 128: no GEMV tiles) keeps its 2 x 1 us, a GEMV of 1 x
 * 4096 x 4096 (one kernel on the unit GPU: its 64 tiles of 64 columns fill
 * the 4 SMs without a split) takes 2 us more, and an op recorded as 2 or 3
 * launches is that many kernels at 3 us, never times the model's count. */
START_TEST(test_gemv_latency)
{
	uint64_t big[3] = {128, 128, 4096}, gemv[3] = {1, 4096, 4096};
	struct rl_op op;
	struct rl_pred p1, p3;

	make_op(&op, RL_KIND_MATMUL, RL_BF16, gemv, 3);
	p1 = predict(&op);
	prof.num[RL_EP_GEMM_LATENCY_US].value = 3;
	ck_assert_double_eq_tol(expected_of(RL_KIND_MATMUL, RL_BF16, big, 3), 2 + 268.435456, 1e-6);
	p3 = predict(&op);
	ck_assert_double_eq_tol(p3.expected_kernels, 1, 1e-12);
	ck_assert_double_eq_tol(p3.expected_gpu_us - p1.expected_gpu_us, 2, 1e-9);
	op.launches = 2;
	ck_assert_double_eq_tol(predict(&op).expected_kernels, 2, 1e-12);
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us - p3.expected_gpu_us, 3, 1e-9);
	op.launches = 3;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us - p3.expected_gpu_us, 6, 1e-9);
	prof.num[RL_EP_GEMM_LATENCY_US].value = 1;
}
END_TEST

/* Decode: 2 x 2 heads, one query, 4096 keys of 128 bf16: 2 x 4 x (2 x 128 +
 * 2 x 4096 x 128) = 8,390,656 bytes at 1e6 bytes/us = 8.390656 us; 4 CTAs
 * at 1000 GB/s each would stream them in 2.1 us; the FLOPs (4 x 4 x 4096 x
 * 128) at 1.5 x 1e6 take 5.59 us. 1 + 8.390656. */
START_TEST(test_attention_decode)
{
	uint64_t d[5] = {2, 2, 1, 4096, 128};
	struct rl_op op;
	struct rl_pred p;

	make_op(&op, RL_KIND_ATTENTION, RL_BF16, d, 5);
	p = predict(&op);
	/* 2 x 2 (batch, KV head) pairs: cuDNN splits the 4096 keys 16 ways (64
	 * CTAs, under 256, at least 128 keys each), and a combine kernel
	 * follows: two latencies; the 8.390656 MB at the bandwidth (1 TB/s),
	 * the 4 SMs' CTAs at 1000 GB/s each being faster */
	ck_assert_double_eq_tol(p.expected_gpu_us, 2 + 8.390656, 1e-6);
	ck_assert_double_eq_tol(p.expected_kernels, 2, 1e-12);
	ck_assert_ptr_nonnull(strstr(p.expected_note, "KV cache"));
	/* at 100 GB/s a CTA, the 4 SMs' 4 CTAs at a time take 20.97664 us */
	prof.num[RL_EP_ATTN_DECODE_CTA_GBS].value = 100;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 2 + 20.97664, 1e-6);
	/* a kernel's fixed time adds once */
	prof.num[RL_EP_ATTN_DECODE_US].value = 3;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 2 + 3 + 20.97664, 1e-6);
	prof.num[RL_EP_ATTN_DECODE_US].value = 0;
	prof.num[RL_EP_ATTN_DECODE_CTA_GBS].value = 1000;
	/* 64 x 2 = 128 pairs: no split, one kernel; 268.500992 MB at 1 TB/s
	 * (64 x 2 x 4096 x 128 x 2 bytes of K and V, the queries and output) */
	d[0] = 64;
	make_op(&op, RL_KIND_ATTENTION, RL_BF16, d, 5);
	p = predict(&op);
	ck_assert_double_eq_tol(p.expected_kernels, 1, 1e-12);
	ck_assert_double_eq_tol(p.expected_gpu_us, 1 + 268.500992, 1e-6);
	/* 32 pairs over 4096 keys: 8 splits (256 CTAs) and the combine */
	d[0] = 16;
	make_op(&op, RL_KIND_ATTENTION, RL_BF16, d, 5);
	ck_assert_double_eq_tol(predict(&op).expected_kernels, 2, 1e-12);
	/* the split's combine beyond its kernel's latency adds to a split
	 * decode only: 2 x 2 pairs again, 4 us more; 64 x 2 pairs unchanged */
	prof.num[RL_EP_ATTN_DECODE_SPLIT_US].value = 4;
	d[0] = 2;
	make_op(&op, RL_KIND_ATTENTION, RL_BF16, d, 5);
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 2 + 4 + 8.390656, 1e-6);
	d[0] = 64;
	make_op(&op, RL_KIND_ATTENTION, RL_BF16, d, 5);
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 268.500992, 1e-6);
	prof.num[RL_EP_ATTN_DECODE_SPLIT_US].value = 0;
}
END_TEST

/* An explicit mask at prefill: 1 x 2 heads x 128 x 128, bf16, not causal,
 * at a d128 rate of 0.5 set here (0.5 x 1e6 FLOP/us, so that the times
 * stay above the roofline): 4 x 2 x 128^2 x 128 = 16,777,216 FLOPs,
 * 33.554432 us; Q K V O 262,144 bytes (0.26 us: not the bound).
 * A float mask, broadcast over the heads (1x1x128x128, 32,768 bytes more)
 * or one a head (1x2x128x128, 65,536 more): either way each of the 2
 * (batch, head) pairs reads its 128 x 128 x 2 bytes of tiles, 65,536 at
 * mem.attention_mask = 0.25 of 1e6 bytes/us = 0.262144 us, in series: 1 +
 * 33.816576. A bool mask (16,384 bytes) is first turned into a float
 * one: a kernel reading a byte and writing 2 an element, 49,152 bytes at
 * mem.elementwise = 0.5 of 1e6 = 0.098304 us, and its latency: 2 +
 * 33.91488. fp32 (1x2x128x64, the memory-efficient kernel at
 * attention.vector = 0.5 of the 1e7 FLOP/us fp32 peak): 8,388,608 FLOPs,
 * 1.6777216 us, and its float mask's tiles at 4 bytes, 131,072 at 0.25e6
 * = 0.524288 us: 1 + 2.2020096. */
START_TEST(test_attention_mask)
{
	uint64_t d[4] = {1, 2, 128, 128}, d32[4] = {1, 2, 128, 64};
	struct rl_op op;
	struct rl_pred p;

	prof.num[RL_EP_ATTN_D128].value = 0.5;
	make_op(&op, RL_KIND_ATTENTION, RL_BF16, d, 4);
	p = predict(&op);
	ck_assert_double_eq_tol(p.expected_gpu_us, 1 + 33.554432, 1e-6);
	op.mask = RL_MASK_FLOAT;
	p = predict(&op);
	ck_assert_double_eq_tol(p.bytes, 294912, 1e-6);
	ck_assert_double_eq_tol(p.expected_gpu_us, 1 + 33.816576, 1e-6);
	ck_assert_double_eq_tol(p.expected_kernels, 1, 1e-12);
	ck_assert_ptr_nonnull(strstr(p.expected_note, "float mask"));
	op.mask_dims[0] = 1;
	op.mask_dims[1] = 2;
	op.mask_dims[2] = 128;
	op.mask_dims[3] = 128;
	p = predict(&op);
	ck_assert_double_eq_tol(p.bytes, 327680, 1e-6);
	ck_assert_double_eq_tol(p.expected_gpu_us, 1 + 33.816576, 1e-6);
	memset(op.mask_dims, 0, sizeof(op.mask_dims));
	op.mask = RL_MASK_BOOL;
	p = predict(&op);
	ck_assert_double_eq_tol(p.bytes, 278528, 1e-6);
	ck_assert_double_eq_tol(p.expected_gpu_us, 2 + 33.91488, 1e-6);
	ck_assert_double_eq_tol(p.expected_kernels, 2, 1e-12);
	ck_assert_ptr_nonnull(strstr(p.expected_note, "bool mask"));
	make_op(&op, RL_KIND_ATTENTION, RL_FP32, d32, 4);
	op.mask = RL_MASK_FLOAT;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 2.2020096, 1e-6);
}
END_TEST

/* Prefill of 197 tokens, head dim 64, at the d64 rate (1 x the peak): the
 * kernel computes tiles of 64 queries x 128 keys, so 256 x 256 scores:
 * 4 x 256^2 x 64 / 1e6 = 16.777216 us, against 4 x 197^2 x 64 / 1e6 =
 * 9.935104 us of useful work. */
START_TEST(test_attention_tiles)
{
	uint64_t d[4] = {1, 1, 197, 64};

	ck_assert_double_eq_tol(expected_of(RL_KIND_ATTENTION, RL_BF16, d, 4), 1 + 16.777216, 1e-6);
	d[2] = 256; /* no padding: the same time */
	ck_assert_double_eq_tol(expected_of(RL_KIND_ATTENTION, RL_BF16, d, 4), 1 + 16.777216, 1e-6);
}
END_TEST

/* A sliding window at prefill: B=1, H=8, S=4096, D=128, causal, bf16,
 * whole tiles (4096 = 64 x 64 = 32 x 128), at the d128 rate 1.5 with
 * attention.s_half = 1024 set here. Without a window: 4 x 8 x 4096^2 x 128
 * / 2 = 34,359,738,368 FLOPs, s_eff = Sk / 2 = 2048 keys, eff = 1.5 x 2048
 * / (2048 + 1024) = 1, 34,359.738368 us. With W = 1024: 3,670,528 scores a
 * head (1024 x 1025 / 2 + 3072 x 1024), 4 x 128 x 8 x that =
 * 15,034,482,688 FLOPs, s_eff = 3,670,528 / 4096 = 896.125 keys a query,
 * eff = 1.5 x 896.125 / 1920.125, 15,034.482688 x 1920.125 / 1344.1875 =
 * 21,476.23458 us. Faster by (8,388,608 / 3,670,528) x (1.5 x 896.125 /
 * 1920.125) = 1.59990. With s_half 0 (the profile's) and the d128 rate at
 * 0.75 (so that both stay above the roofline, 1e6 FLOP/us), faster by the
 * FLOPs alone, 8,388,608 / 3,670,528 = 2.28539. The bytes (33.6 MB: 34 us)
 * are not the bound. A window of Sk changes nothing. */
START_TEST(test_attention_window)
{
	uint64_t d[4] = {1, 8, 4096, 128};
	struct rl_op op;
	double full, win;

	make_op(&op, RL_KIND_ATTENTION, RL_BF16, d, 4);
	op.causal = 1;
	prof.num[RL_EP_ATTN_S_HALF].value = 1024;
	full = predict(&op).expected_gpu_us;
	ck_assert_double_eq_tol(full, 1 + 34359.738368, 1e-6);
	op.window = 1024;
	win = predict(&op).expected_gpu_us;
	ck_assert_double_eq_tol(win, 1 + 15034.482688 * 1920.125 / 1344.1875, 1e-6);
	ck_assert_double_eq_tol((full - 1) / (win - 1),
	                        (8388608.0 / 3670528.0) * (1.5 * 896.125 / 1920.125), 1e-12);
	op.window = 4096;
	ck_assert_double_eq(predict(&op).expected_gpu_us, full);
	prof.num[RL_EP_ATTN_S_HALF].value = 0;
	prof.num[RL_EP_ATTN_D128].value = 0.75;
	op.window = 0;
	full = predict(&op).expected_gpu_us;
	op.window = 1024;
	win = predict(&op).expected_gpu_us;
	ck_assert_double_eq_tol(full, 1 + 34359.738368 / 0.75, 1e-6);
	ck_assert_double_eq_tol((full - 1) / (win - 1), 8388608.0 / 3670528.0, 1e-12);
}
END_TEST

/* A windowed decode streams its window: 2 x 2 heads, one query over 8192
 * keys, W = 4096, reads what the 4096-key decode of test_attention_decode
 * does (16 splits, the combine: 2 + 8.390656). W = 128: 2 x 4 x (2 x 128 +
 * 2 x 128 x 128) = 264,192 bytes, 0.264192 us; one split of 128 keys (a
 * split of the whole 8192 would be 16), so one kernel: 1 + 0.264192 (the
 * FLOPs, 4 x 4 x 128 x 128, take 0.17 us at 1.5 x 1e6). */
START_TEST(test_attention_window_decode)
{
	uint64_t d[5] = {2, 2, 1, 8192, 128};
	struct rl_op op;
	struct rl_pred p;

	make_op(&op, RL_KIND_ATTENTION, RL_BF16, d, 5);
	op.window = 4096;
	p = predict(&op);
	ck_assert_double_eq_tol(p.expected_gpu_us, 2 + 8.390656, 1e-6);
	ck_assert_double_eq_tol(p.expected_kernels, 2, 1e-12);
	op.window = 128;
	p = predict(&op);
	ck_assert_double_eq_tol(p.expected_gpu_us, 1 + 0.264192, 1e-6);
	ck_assert_double_eq_tol(p.expected_kernels, 1, 1e-12);
}
END_TEST

/* MLA's absorbed decode (kv_shared: V is K's first Dv channels, read once
 * with K) against the same latent read again as a V of its own, with the
 * bf16 tensor peak raised to 1000 TFLOPS (1e9 FLOP/us, an H200's order) so
 * that the stream bounds both. DeepSeek-V3's row, 64 x 16 heads, one query
 * over 4096 keys, D = 576, one KV head, Dv = 512: 9,126,805,504 FLOPs
 * (9.13 us); bytes Q 1,179,648 + O 1,048,576 + K 301,989,888 =
 * 304,218,112, and V's 268,435,456 more without kv_shared: 572,653,568. A
 * head dim over 256 is SDPA's memory-efficient kernel, unmeasured: the
 * expected time is the roofline, the bytes at 1e6 bytes/us, 304.218112
 * against 572.653568 us, 572,653,568 / 304,218,112 = 1.8824 slower. The
 * same through the decode model (D = 192 and Dv = 128, measured head dims):
 * 2 x 16 heads over 4096 keys, one KV head: 2 units, 16 splits (32 CTAs,
 * the 4 SMs' at 1000 GB/s each, faster than the 1 TB/s stream), so two
 * kernels, 2 us, and the bytes at 1e6 bytes/us: Q 2 x 16 x 192 x 2 =
 * 12,288, O 2 x 16 x 128 x 2 = 8,192, K 2 x 4096 x 192 x 2 = 3,145,728:
 * 3,166,208, 2 + 3.166208 us; V apart 2 x 4096 x 128 x 2 = 2,097,152
 * more, 2 + 5.26336 us (the FLOPs, 2 x 2 x 16 x 4096 x 320 = 83,886,080,
 * take 0.056 us at the d128 rate 1.5). The streams' ratio 5,263,360 /
 * 3,166,208 = 1.6624. */
START_TEST(test_attention_mla_decode)
{
	uint64_t d[5] = {64, 16, 1, 4096, 576};
	struct rl_op op;
	struct rl_pred shared, apart;

	dev.num[RL_PIPE_BF16_TENSOR].value = 1000;
	make_op(&op, RL_KIND_ATTENTION, RL_BF16, d, 5);
	op.kv_heads = 1;
	op.v_head_dim = 512;
	op.kv_shared = 1;
	shared = predict(&op);
	op.kv_shared = 0;
	apart = predict(&op);
	ck_assert_double_eq_tol(shared.expected_gpu_us, 304.218112, 1e-9);
	ck_assert_double_eq_tol(apart.expected_gpu_us, 572.653568, 1e-9);
	ck_assert_ptr_nonnull(strstr(shared.expected_note, "memory-efficient"));
	ck_assert_double_eq_tol(apart.expected_gpu_us / shared.expected_gpu_us,
	                        572653568.0 / 304218112.0, 1e-12);
	d[0] = 2, d[4] = 192;
	make_op(&op, RL_KIND_ATTENTION, RL_BF16, d, 5);
	op.kv_heads = 1;
	op.v_head_dim = 128;
	op.kv_shared = 1;
	shared = predict(&op);
	op.kv_shared = 0;
	apart = predict(&op);
	ck_assert_double_eq_tol(shared.expected_gpu_us, 2 + 3.166208, 1e-9);
	ck_assert_double_eq_tol(apart.expected_gpu_us, 2 + 5.26336, 1e-9);
	ck_assert_double_eq_tol(shared.expected_kernels, 2, 1e-12);
	ck_assert_ptr_nonnull(strstr(shared.expected_note, "KV cache"));
	ck_assert_double_eq_tol((apart.expected_gpu_us - 2) / (shared.expected_gpu_us - 2),
	                        5263360.0 / 3166208.0, 1e-12);
}
END_TEST

/* The bound: a host cost at least the kernel's work in a stream (its work
 * plus the 0.5 us floor) is overhead. The 1e6-element op works 16 us. */
START_TEST(test_bound_overhead)
{
	struct rl_op op;
	uint64_t n[] = {1000000};

	make_op(&op, RL_KIND_POINTWISE, RL_FP32, n, 1);
	ctx.host_overhead_us = 16.4;
	ck_assert_int_eq(predict(&op).expected_bound, RL_BOUND_MEMORY);
	ctx.host_overhead_us = 16.5;
	ck_assert_int_eq(predict(&op).expected_bound, RL_BOUND_OVERHEAD);
	ck_assert_double_eq_tol(predict(&op).expected_us, 17, 1e-9);
	/* a tiny op: the latency outweighs its work, overhead with no host */
	ctx.host_overhead_us = 0;
	n[0] = 16;
	make_op(&op, RL_KIND_POINTWISE, RL_FP32, n, 1);
	ck_assert_int_eq(predict(&op).expected_bound, RL_BOUND_OVERHEAD);
}
END_TEST

/* Issue 26's terms, worked by hand on unit.device (4 SMs, 1e6 bytes/us,
 * bf16 tensor 1e6 FLOP/us) with the rates of the test set low enough to
 * show. A permuted copy: x.t().contiguous() of 64 x 64 bf16 (4096
 * elements): a warp's 32 output elements read input offsets 64 apart, 128
 * bytes, each its own 32-byte sector: 32 sectors a warp, 4096 in all, at
 * 1000 per us per SM on 4 SMs = 1.024 us (elements at 1e6 per us per SM:
 * 0.001 us; bytes 2 x 4096 x 2 at 0.5 x 1e6 bytes/us: 0.032768 us): 1 us of
 * latency + 1.024. Perm 0x1 keeps the order: a plain copy, 1 + 0.032768.
 * 2 x 64 x 64, perm 1x0x2 keeps the last dim: a warp reads 32 consecutive
 * bf16, 64 bytes, 2 sectors; 8192 / 32 x 2 = 512 sectors / 4000 per us =
 * 0.128 us (bytes 0.065536): 1 + 0.128. */
START_TEST(test_permuted_copy)
{
	uint64_t d[3] = {64, 64, 0}, d3[3] = {2, 64, 64};
	struct rl_op op;

	prof.num[RL_EP_COPY_PERM_SECTORS].value = 1000;
	prof.num[RL_EP_COPY_PERM_ELEMS].value = 1e6;
	make_op(&op, RL_KIND_COPY, RL_BF16, d, 2);
	op.nperm = 2, op.perm[0] = 1, op.perm[1] = 0;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 1.024, 1e-6);
	ck_assert_ptr_nonnull(strstr(predict(&op).expected_note, "permuted copy"));
	op.perm[0] = 0, op.perm[1] = 1;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 0.032768, 1e-6);
	make_op(&op, RL_KIND_COPY, RL_BF16, d3, 3);
	op.nperm = 3, op.perm[0] = 1, op.perm[1] = 0, op.perm[2] = 2;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 0.128, 1e-6);
}
END_TEST

/* An unvectorised loop (strided): 1e6 bf16 elements through the offset
 * calculator at 1e4 per us per SM on the 4 SMs, 25 us, and the loop's fixed
 * 2 us (unit.efficiency), over the 4 MB it reads and writes at half the
 * 1 TB/s (8 us): 1 + 27; a cat of strided inputs computes two offsets an
 * element: 1 + 52. At 1e6 per us per SM the 8 us of bytes are longer: 1 + 8.
 * Given bytes do not take it off the loop. */
START_TEST(test_strided_loop)
{
	uint64_t d[2] = {1000, 1000};
	struct rl_op op;

	prof.num[RL_EP_COPY_PERM_ELEMS].value = 1e4;
	make_op(&op, RL_KIND_POINTWISE, RL_BF16, d, 2);
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 8, 1e-6);
	op.strided = 1;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 27, 1e-6);
	ck_assert_ptr_nonnull(strstr(predict(&op).expected_note, "unvectorised loop"));
	op.has |= RL_HAS_BYTES;
	op.bytes = 4e6;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 27, 1e-6);
	make_op(&op, RL_KIND_COPY, RL_BF16, d, 2);
	op.strided = 2;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 52, 1e-6);
	ck_assert_ptr_nonnull(strstr(predict(&op).expected_note, "cat"));
	prof.num[RL_EP_COPY_PERM_ELEMS].value = 1e6;
	op.strided = 1;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 8, 1e-6);
}
END_TEST

/* Narrow accesses (vector_bytes under 16): the pointwise fp32 op of
 * test_streaming, 8e6 bytes, at mem.narrow = 0.25 of 1e6 bytes/us instead
 * of mem.elementwise's 0.5: 1 + 32 us; 16 bytes a thread is a vectorised
 * stream again (1 + 16), and so are given bytes at 16 (the Triton row's
 * form: its bytes from its arguments). */
START_TEST(test_narrow)
{
	uint64_t n[] = {1000000};
	struct rl_op op;

	make_op(&op, RL_KIND_POINTWISE, RL_FP32, n, 1);
	op.vector_bytes = 4;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 32, 1e-9);
	op.vector_bytes = 16;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 16, 1e-9);
	op.has |= RL_HAS_BYTES | RL_HAS_FLOPS;
	op.bytes = 8e6;
	op.flops = 1e6;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 16, 1e-9);
	op.vector_bytes = 8;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 32, 1e-9);
	/* only pointwise rows: a copy of the same bytes streams as a copy */
	make_op(&op, RL_KIND_COPY, RL_FP32, n, 1);
	op.vector_bytes = 4;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 16, 1e-9);
}
END_TEST

/* A depthwise 3x3 convolution, bf16, 1 x 4 x 8 x 8, pad 1: 4 planes of
 * 8 x 8 outputs x 9 taps = 576 taps at 1000 per us per SM, and the staged
 * input (7 + 3) x (7 + 3) = 100 pixels at 100 per us per SM, per plane:
 * 4 x (0.576 + 1) / 4 SMs = 1.576 us, over its 1096 bytes at mem.conv = 1
 * (0.001096 us): 1 + 1.576. */
START_TEST(test_depthwise)
{
	uint64_t d[4] = {1, 4, 8, 8};
	struct rl_op op;

	prof.num[RL_EP_DW_TAPS].value = 1000;
	prof.num[RL_EP_DW_PIXELS].value = 100;
	make_op(&op, RL_KIND_CONV2D, RL_BF16, d, 4);
	op.has |= RL_HAS_KERNEL;
	op.kernel[0] = 4, op.kernel[1] = 3, op.kernel[2] = 3;
	op.groups = 4;
	op.padding = 1;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 1.576, 1e-6);
	/* the serial phase in series: staging 0.5 us, then 9 taps of 0.1 us:
	 * 1 + 1.576 + 0.5 + 0.9 */
	prof.num[RL_EP_DW_STAGE_US].value = 0.5;
	prof.num[RL_EP_DW_TAP_US].value = 0.1;
	ck_assert_double_eq_tol(predict(&op).expected_gpu_us, 1 + 1.576 + 1.4, 1e-6);
	prof.num[RL_EP_DW_STAGE_US].value = 0;
	prof.num[RL_EP_DW_TAP_US].value = 0;
}
END_TEST

/* SDPA's backend by dtype and head dim (sdp_utils.cpp's rules): bf16 at
 * head dim 512 goes to the memory-efficient kernel and bf16 at 100 (not a
 * multiple of 8) or fp32 at 66 (not of 4) to the math path, none measured:
 * the roofline and a note naming the backend; bf16 at 128 (cuDNN) and fp32
 * at 64 (the fp32 memory-efficient kernel) keep their model. */
START_TEST(test_sdpa_backend)
{
	static const struct {
		enum rl_dtype dt;
		uint64_t hd;
		const char *note; /* NULL: a measured backend */
	} cases[] = {
	        {RL_BF16, 512, "memory-efficient backend"},
	        {RL_FP16, 100, "math backend"},
	        {RL_FP32, 66, "math backend"},
	        {RL_BF16, 128, NULL},
	        {RL_FP32, 64, NULL},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t d[4] = {1, 2, 256, cases[i].hd};
		struct rl_op op;
		struct rl_pred p;

		make_op(&op, RL_KIND_ATTENTION, cases[i].dt, d, 4);
		p = predict(&op);
		if (cases[i].note != NULL) {
			ck_assert_ptr_nonnull(p.expected_note);
			ck_assert_ptr_nonnull(strstr(p.expected_note, cases[i].note));
			ck_assert_double_eq_tol(p.expected_gpu_us, p.t_gpu_us, 1e-9);
			ck_assert_int_eq(p.expected_assumed, 1);
		} else {
			ck_assert(p.expected_note == NULL || strstr(p.expected_note, "backend") == NULL);
			ck_assert_int_eq(p.expected_assumed, 0);
		}
	}
}
END_TEST

/* int4 weights under bf16 (tinygemm), 1 x 1024 x 1024, a scale per 128
 * weights: bytes 2 x (1024 + 1024) + 1024^2 / 2 + 2 x 1024^2 / 128 =
 * 544768 at mem.int4_tinygemm = 0.25 of 1e6 bytes/us = 2.179072 us, then
 * the MMAs, 2 x 1024^2 FLOPs at gemm.int4_tinygemm = 0.125 of 1e6 FLOP/us =
 * 16.777216 us, in series: 1 + 18.956288. int8 weights under fp32
 * activations have no measured kernel, and fp8 GEMMs none in this profile
 * (gemm.fp8 = 0): the roofline, and a note that says so. */
START_TEST(test_quantised)
{
	uint64_t d[3] = {1, 1024, 1024};
	struct rl_op op;
	struct rl_pred p;

	make_op(&op, RL_KIND_MATMUL, RL_BF16, d, 3);
	op.has |= RL_HAS_WEIGHT_DTYPE;
	op.weight_dtype = RL_INT4;
	op.weight_group = 128;
	p = predict(&op);
	ck_assert_double_eq_tol(p.expected_gpu_us, 1 + 18.956288, 1e-6);
	ck_assert_ptr_nonnull(strstr(p.expected_note, "tinygemm"));
	ck_assert_int_eq(p.expected_assumed, 1); /* the kernel assumed, said */
	op.weight_dtype = RL_INT8;
	op.dtype = RL_FP32;
	p = predict(&op);
	ck_assert_double_eq_tol(p.expected_gpu_us, p.t_gpu_us, 1e-9);
	ck_assert_ptr_nonnull(strstr(p.expected_note, "no measured kernel"));
	ck_assert_int_eq(p.expected_assumed, 1);
	make_op(&op, RL_KIND_MATMUL, RL_FP8E4M3, d, 3);
	p = predict(&op);
	ck_assert_double_eq_tol(p.expected_gpu_us, p.t_gpu_us, 1e-9);
	ck_assert_ptr_nonnull(strstr(p.expected_note, "no measured"));
	ck_assert_int_eq(p.expected_assumed, 1);
	make_op(&op, RL_KIND_MATMUL, RL_BF16, d, 3); /* bf16: nothing assumed */
	ck_assert_int_eq(predict(&op).expected_assumed, 0);
}
END_TEST

/* int8 weights under bf16, 1 x 1024 x 1024, one scale a row of weights
 * (weight_group 1024): bytes 2 x (1024 + 1024) + 1024^2 + 2 x 1024 =
 * 1054720. Eagerly, three kernels in series: the cast reads 1024^2 int8
 * weights and writes them as bf16, 3 x 1048576 bytes at mem.elementwise =
 * 0.5 of 1e6 bytes/us = 6.291456 us (over the 0.262144 us of its elements
 * at 1e6 per us per SM on 4 SMs), plus copy.strided.latency_us = 2; the
 * GEMM over the cast weights, as the same product of bf16 weights (its
 * tiles' time, far over either's bytes); the scales' multiply, (2 x 1024 +
 * 1024) x 2 bytes at 0.5 of 1e6 = 0.012288 us. Two kernels more than the
 * bf16 product at latency_us = 1 each: its time + 2 + 8.291456 + 0.012288.
 * Compiled, one row: one kernel streaming the 1054720 bytes at
 * mem.int8_gemv = 0.5 (2.10944 us) after its fixed gemm.int8_gemv_us = 3
 * (the FLOPs, 2 x 1024^2 at the 1e7 FLOP/us fp32 pipe, 0.21 us, under it):
 * 5.10944. Compiled at two rows: eager's three kernels, and said. */
static void int8_op(struct rl_op *op, const uint64_t *d)
{
	make_op(op, RL_KIND_MATMUL, RL_BF16, d, 3);
	op->has |= RL_HAS_WEIGHT_DTYPE;
	op->weight_dtype = RL_INT8;
	op->weight_group = 1024;
}

START_TEST(test_int8_weights)
{
	uint64_t d[3] = {1, 1024, 1024}, d2[3] = {2, 1024, 1024};
	struct rl_op op, bf;
	struct rl_pred p, pb;

	make_op(&bf, RL_KIND_MATMUL, RL_BF16, d, 3);
	pb = predict(&bf);
	int8_op(&op, d);
	p = predict(&op);
	ck_assert_double_eq_tol(p.bytes, 1054720, 1e-6);
	ck_assert_double_eq_tol(p.expected_gpu_us, pb.expected_gpu_us + 2 + 8.291456 + 0.012288, 1e-6);
	ck_assert_double_eq_tol(p.expected_kernels, 3, 1e-12);
	ck_assert_ptr_nonnull(strstr(p.expected_note, "cast"));
	ck_assert_int_eq(p.expected_assumed, 0);
	ctx.compiled = 1;
	p = predict(&op);
	ck_assert_double_eq_tol(p.expected_gpu_us, 5.10944, 1e-6);
	ck_assert_double_eq_tol(p.expected_kernels, 1, 1e-12);
	ck_assert_ptr_nonnull(strstr(p.expected_note, "fused dequantising GEMV"));
	ck_assert_int_eq(p.expected_assumed, 0);
	make_op(&bf, RL_KIND_MATMUL, RL_BF16, d2, 3);
	pb = predict(&bf);
	int8_op(&op, d2);
	p = predict(&op);
	/* the multiply over two rows: (2 x 2048 + 1024) x 2 bytes, 0.020480 us */
	ck_assert_double_eq_tol(p.expected_gpu_us, pb.expected_gpu_us + 2 + 8.291456 + 0.02048, 1e-6);
	ck_assert_int_eq(p.expected_assumed, 1);
	ck_assert_ptr_nonnull(strstr(p.expected_note, "not measured"));
	ctx.compiled = 0;
}
END_TEST

/* Profiles: every key required, each with a source and within range. */
START_TEST(test_profile_errors)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{"id = x\nname = x\ngpu = x\nstack = x\n", "key 'gpu.compute_capability' is missing"},
		{"latency_us = 1\n", "needs its source"},
		{"latency_us = 1000 ; t\n", "outside 0 to 100"},
		{"latency_us = fast ; t\n", "latency_us"},
		{"gemm.hyper = 1 ; t\n", "unknown key 'gemm.hyper'"},
		{"latency_us = 1 ; t\nlatency_us = 1 ; t\n", "given twice"},
		{"softmax.warp.row_us = -1 ; t\n", "softmax.warp.row_us"},
	};
	char path[] = "/tmp/roofline-check-XXXXXX";
	struct rl_effprof ep;
	struct rl_err err;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int fd = mkstemp(path);
		FILE *f = fdopen(fd, "w");

		fputs(bad[i].text, f);
		fclose(f);
		ck_assert_int_lt(rl_effprof_load(path, &ep, &err), 0);
		ck_assert_msg(strstr(err.msg, bad[i].msg) != NULL, "case %zu: %s", i, err.msg);
		ck_assert_msg(strncmp(err.msg, path, strlen(path)) == 0, "case %zu names the file: %s",
		              i, err.msg);
		remove(path);
		strcpy(path, "/tmp/roofline-check-XXXXXX");
	}
}
END_TEST

/* The pick: unit.efficiency was measured on unit.device's GPU (compute
 * capability 9.0, 4 SMs, 16 GiB); far.efficiency on an 8.0 GPU. A 9.0 GPU
 * with other figures gets unit's as the nearest (the same major version);
 * an 8.6 GPU gets far's. */
START_TEST(test_pick)
{
	struct rl_effprof ep;
	struct rl_err err;

	ck_assert_int_eq(rl_effprof_pick(DIR, &dev, &ep, &err), RL_EP_SAME_GPU);
	ck_assert_str_eq(ep.id, "unit");
	rl_effprof_release(&ep);
	dev.num[RL_HW_SM_COUNT].value = 132;
	dev.num[RL_HW_MEMORY_GIB].value = 80;
	ck_assert_int_eq(rl_effprof_pick(DIR, &dev, &ep, &err), RL_EP_NEAREST);
	ck_assert_str_eq(ep.id, "unit");
	rl_effprof_release(&ep);
	dev.num[RL_HW_COMPUTE_CAPABILITY].value = 8.6;
	ck_assert_int_eq(rl_effprof_pick(DIR, &dev, &ep, &err), RL_EP_NEAREST);
	ck_assert_str_eq(ep.id, "far");
	rl_effprof_release(&ep);
	/* a directory without profiles */
	ck_assert_int_eq(rl_effprof_pick(RL_TEST_DATA "/gpu", &dev, &ep, &err), RL_EP_NONE);
}
END_TEST

Suite *suite_expected(void)
{
	Suite *s = suite_create("expected");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_streaming);
	tcase_add_test(tc, test_best_case_and_no_profile);
	tcase_add_test(tc, test_never_below_roofline);
	tcase_add_test(tc, test_softmax_paths);
	tcase_add_test(tc, test_row_paths);
	tcase_add_test(tc, test_lone_row);
	tcase_add_test(tc, test_gemm_waves);
	tcase_add_test(tc, test_gemm_unaligned);
	tcase_add_test(tc, test_gemm_unaligned_gemv);
	tcase_add_test(tc, test_gemm_split_k);
	tcase_add_test(tc, test_gemv_latency);
	tcase_add_test(tc, test_attention_decode);
	tcase_add_test(tc, test_attention_tiles);
	tcase_add_test(tc, test_attention_mask);
	tcase_add_test(tc, test_attention_window);
	tcase_add_test(tc, test_attention_window_decode);
	tcase_add_test(tc, test_attention_mla_decode);
	tcase_add_test(tc, test_bound_overhead);
	tcase_add_test(tc, test_permuted_copy);
	tcase_add_test(tc, test_strided_loop);
	tcase_add_test(tc, test_narrow);
	tcase_add_test(tc, test_depthwise);
	tcase_add_test(tc, test_sdpa_backend);
	tcase_add_test(tc, test_quantised);
	tcase_add_test(tc, test_int8_weights);
	tcase_add_test(tc, test_profile_errors);
	tcase_add_test(tc, test_pick);
	suite_add_tcase(s, tc);
	return s;
}
