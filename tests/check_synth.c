/* check_synth.c - the host arithmetic of the GPU parts, which is plain C in
 * the library: GEMM shapes, sizes and storage indices (gemm_host.c), the
 * synthetic ops' sizes and limits (synth.c), and the CUDA plugin's loader
 * where the plugin cannot be loaded (cudaload.c). Sizes are worked out by
 * hand in the comments. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "check.h"
#include "cuda.h"
#include "cudaload.h"
#include "gemm_host.h"
#include "gpubench.h"
#include "synth.h"

/* batch 2 of (3 x 7) (7 x 5): A 2 x 21 = 42, B 2 x 35 = 70, C 2 x 15 = 30. */
START_TEST(gemm_elems_and_bytes)
{
	static const struct {
		enum rl_dtype t;
		uint64_t a, b, c; /* bytes */
	} cases[] = {
	    {RL_FP16, 84, 140, 60},   /* 2 bytes each */
	    {RL_BF16, 84, 140, 60},   /* 2 bytes each */
	    {RL_TF32, 168, 280, 120}, /* stored as fp32 */
	    {RL_FP64, 336, 560, 240}, /* 8 bytes each */
	    {RL_FP8E4M3, 42, 70, 60}, /* 1-byte inputs, bf16 output */
	    {RL_INT8, 42, 70, 120},   /* 1-byte inputs, int32 output */
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct rl_gemm_shape s = {cases[i].t, 2, 3, 5, 7};
		uint64_t a, b, c;

		ck_assert_int_eq(rl_gemm_elems(&s, &a, &b, &c), 0);
		ck_assert_uint_eq(a, 42);
		ck_assert_uint_eq(b, 70);
		ck_assert_uint_eq(c, 30);
		ck_assert_int_eq(rl_gemm_bytes(&s, &a, &b, &c), 0);
		ck_assert_uint_eq(a, cases[i].a);
		ck_assert_uint_eq(b, cases[i].b);
		ck_assert_uint_eq(c, cases[i].c);
	}
}
END_TEST

START_TEST(gemm_sizes_that_overflow)
{
	/* m k = 2^32 x 2^32 = 2^64: one past the largest uint64_t. */
	struct rl_gemm_shape s = {RL_FP16, 1, (uint64_t)1 << 32, 1, (uint64_t)1 << 32};
	uint64_t a, b, c;

	ck_assert_int_eq(rl_gemm_elems(&s, &a, &b, &c), RL_ERR_RANGE);
	/* 2^31 x 2^31 = 2^62 elements fit, and their 2-byte storage, 2^63
	 * bytes; two batches hold 2^63 elements, but 2^64 bytes do not fit. */
	s.m = s.k = (uint64_t)1 << 31;
	ck_assert_int_eq(rl_gemm_bytes(&s, &a, &b, &c), 0);
	ck_assert_uint_eq(a, (uint64_t)1 << 63);
	s.batch = 2;
	ck_assert_int_eq(rl_gemm_elems(&s, &a, &b, &c), 0);
	ck_assert_int_eq(rl_gemm_bytes(&s, &a, &b, &c), RL_ERR_RANGE);
	s.batch = 0;
	ck_assert_int_eq(rl_gemm_elems(&s, &a, &b, &c), RL_ERR_RANGE);
}
END_TEST

/* Column-major, batch 2 of m 3, k 7, n 5: A[i=2, l=4] of batch 1 is at
 * 21 + 4 x 3 + 2 = 35 (NN: leading dimension m), at 21 + 2 x 7 + 4 = 39
 * stored transposed (TN: fp8e4m3, int8); B[l=4, j=3] at 35 + 3 x 7 + 4 = 60;
 * C[i=2, j=4] at 15 + 4 x 3 + 2 = 29. */
START_TEST(gemm_storage_indices)
{
	struct rl_gemm_shape nn = {RL_BF16, 2, 3, 5, 7}, tn = {RL_INT8, 2, 3, 5, 7};

	ck_assert_int_eq(rl_gemm_a_transposed(RL_BF16), 0);
	ck_assert_int_eq(rl_gemm_a_transposed(RL_FP8E4M3), 1);
	ck_assert_uint_eq(rl_gemm_a_index(&nn, 1, 2, 4), 35);
	ck_assert_uint_eq(rl_gemm_a_index(&tn, 1, 2, 4), 39);
	ck_assert_uint_eq(rl_gemm_b_index(&nn, 1, 4, 3), 60);
	ck_assert_uint_eq(rl_gemm_b_index(&tn, 1, 4, 3), 60);
	ck_assert_uint_eq(rl_gemm_c_index(&nn, 1, 2, 4), 29);
	ck_assert_int_eq(rl_gemm_min_cc(RL_FP8E4M3), 89);
	ck_assert_int_eq(rl_gemm_dtype_ok(RL_INT32), 0);
}
END_TEST

START_TEST(synth_bytes_by_kind)
{
	static const struct {
		struct rl_synth s;
		uint64_t bytes;
	} cases[] = {
	    /* 1000 fp32 outputs from 2 inputs: 1000 x 4 x 3 */
	    {{.kind = RL_SYNTH_POINTWISE, .dtype = RL_FP32, .elems = 1000, .inputs = 2}, 12000},
	    /* a pointwise op with no input writes its output only: 1000 x 4 */
	    {{.kind = RL_SYNTH_POINTWISE, .dtype = RL_FP32, .elems = 1000, .inputs = 0}, 4000},
	    /* copy of 10 bf16: 10 x 2 read, 10 x 2 written */
	    {{.kind = RL_SYNTH_COPY, .dtype = RL_BF16, .elems = 10}, 40},
	    /* 4 rows of 8 fp16 summed: (32 + 4) x 2 */
	    {{.kind = RL_SYNTH_REDUCTION, .dtype = RL_FP16, .rows = 4, .cols = 8}, 72},
	    /* softmax of 4 x 8 fp32, in and out: 64 x 4 */
	    {{.kind = RL_SYNTH_SOFTMAX, .dtype = RL_FP32, .rows = 4, .cols = 8}, 256},
	    /* layernorm: the same plus weight and bias of 8: (64 + 16) x 4 */
	    {{.kind = RL_SYNTH_LAYERNORM, .dtype = RL_FP32, .rows = 4, .cols = 8}, 320},
	    /* fp16 matmul 2 x 4 by 4 x 3: (8 + 12 + 6) x 2 */
	    {{.kind = RL_SYNTH_MATMUL, .dtype = RL_FP16, .batch = 1, .m = 2, .n = 3, .k = 4}, 52},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t b = 0;

		ck_assert_msg(rl_synth_bytes(&cases[i].s, &b) == 0, "case %zu", i);
		ck_assert_msg(b == cases[i].bytes, "case %zu: %llu bytes, expected %llu", i,
		              (unsigned long long)b, (unsigned long long)cases[i].bytes);
	}
}
END_TEST

START_TEST(synth_sizes_that_overflow)
{
	/* 2^62 fp32 elements: 2^64 bytes. */
	struct rl_synth s = {.kind = RL_SYNTH_COPY, .dtype = RL_FP32, .elems = (uint64_t)1 << 62};
	struct rl_synth r = {.kind = RL_SYNTH_REDUCTION, .dtype = RL_FP16};
	uint64_t b;

	ck_assert_int_eq(rl_synth_bytes(&s, &b), RL_ERR_RANGE);
	/* rows x cols = 2^64 */
	r.rows = r.cols = (uint64_t)1 << 32;
	ck_assert_int_eq(rl_synth_bytes(&r, &b), RL_ERR_RANGE);
}
END_TEST

START_TEST(synth_flops_each)
{
	struct rl_synth s = {.kind = RL_SYNTH_POINTWISE, .flops_per_elem = 2.4};

	ck_assert_uint_eq(rl_synth_flops_each(&s), 2);
	s.flops_per_elem = 2.5;
	ck_assert_uint_eq(rl_synth_flops_each(&s), 3);
	s.flops_per_elem = -1;
	ck_assert_uint_eq(rl_synth_flops_each(&s), 0);
	/* a reduction adds at least once per input element */
	s.kind = RL_SYNTH_REDUCTION;
	s.flops_per_elem = 0;
	ck_assert_uint_eq(rl_synth_flops_each(&s), 1);
	ck_assert_str_eq(rl_synth_kind_name(RL_SYNTH_LAYERNORM), "layernorm");
}
END_TEST

/* rl_synth_supported is host arithmetic: it answers in every build, without
 * the plugin. One buffer set may take 64 GiB = 2^36 bytes: 2^33 fp32 outputs
 * of a one-input pointwise op are 2^33 x 4 x 2 = 2^36 bytes, one more
 * element is too many. */
START_TEST(synth_supported_limits)
{
	struct rl_synth s = {.kind = RL_SYNTH_POINTWISE, .dtype = RL_FP32, .inputs = 1};
	struct rl_err err;

	s.elems = (uint64_t)1 << 33;
	ck_assert_int_eq(rl_synth_supported(&s, &err), 1);
	s.elems++;
	ck_assert_int_eq(rl_synth_supported(&s, &err), 0);
	ck_assert_int_eq(err.code, RL_ERR_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.msg, "more than 64 GiB"));
	s.elems = 16;
	s.inputs = RL_SYNTH_MAX_INPUTS + 1;
	ck_assert_int_eq(rl_synth_supported(&s, &err), 0);
	s.inputs = 1;
	s.dtype = RL_FP8E4M3;
	ck_assert_int_eq(rl_synth_supported(&s, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "fp64, fp32, fp16 and bf16, not fp8e4m3"));
}
END_TEST

/* The H200's L2 is 60 MiB = 62914560 bytes; twice that is 125829120. A
 * 1 MiB set needs ceil(125829120 / 1048576) = 120 sets: capped at 64. A
 * 10,000,000-byte set needs ceil(12.58) = 13; a 62914560-byte one exactly
 * 2; at 125829120 bytes and beyond one set is out of the L2 already. */
START_TEST(synth_rotation_sets)
{
	const uint64_t l2 = 62914560;

	ck_assert_int_eq(rl_synth_sets(1048576, l2), 64);
	ck_assert_int_eq(rl_synth_sets(10000000, l2), 13);
	ck_assert_int_eq(rl_synth_sets(62914560, l2), 2);
	ck_assert_int_eq(rl_synth_sets(62914561, l2), 2);
	ck_assert_int_eq(rl_synth_sets(125829119, l2), 2);
	ck_assert_int_eq(rl_synth_sets(125829120, l2), 1);
	ck_assert_int_eq(rl_synth_sets(0, l2), 1);
	ck_assert_int_eq(rl_synth_sets(1, UINT64_MAX), 1);
}
END_TEST

/* Loops of about 2000 us: a 3 us launch gives ceil(666.7) = 667 launches, a
 * 2500 us one 1; under 1 us counts as 1 us (2000 launches, capped at 1000). */
START_TEST(synth_launches_per_loop)
{
	ck_assert_int_eq(rl_synth_launches(3.0), 667);
	ck_assert_int_eq(rl_synth_launches(2500.0), 1);
	ck_assert_int_eq(rl_synth_launches(4.0), 500);
	ck_assert_int_eq(rl_synth_launches(0.2), 1000);
	ck_assert_int_eq(rl_synth_launches(NAN), 1000);
}
END_TEST

/* Where the plugin cannot be loaded, every GPU entry point fails with one
 * message and RL_ERR_UNSUPPORTED, and nothing is left half-set. */
START_TEST(cudaload_without_plugin)
{
	struct rl_err err;
	struct rl_gpu g;
	struct rl_bench b;
	int n = 7;

	rl_cudaload_set_path("/nonexistent/roofline-cuda.so");
	ck_assert_ptr_null(rl_cudaload_get(&err));
	ck_assert_int_eq(err.code, RL_ERR_UNSUPPORTED);
	if (rl_cuda_built())
		ck_assert_ptr_nonnull(strstr(err.msg, "cannot load the CUDA parts "
		                                      "(/nonexistent/roofline-cuda.so: "));
	else
		ck_assert_ptr_nonnull(strstr(err.msg, "this build has no CUDA support"));
	ck_assert_int_eq(rl_cuda_device_count(&n, &err), RL_ERR_UNSUPPORTED);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(rl_cuda_query(0, &g, &err), RL_ERR_UNSUPPORTED);
	rl_bench_init(&b);
	ck_assert_int_eq(rl_gpubench_memory(0, 1, &b, &err), RL_ERR_UNSUPPORTED);
	ck_assert_uint_eq(b.n, 0);
	rl_bench_release(&b);
	ck_assert_ptr_null(rl_synth_open(0, &err));
	rl_synth_close(NULL);
	rl_cudaload_set_path(NULL);
	ck_assert_ptr_null(rl_cudaload_get(&err));
	ck_assert_int_eq(err.code, RL_ERR_UNSUPPORTED);
}
END_TEST

Suite *suite_synth(void)
{
	Suite *s = suite_create("synth");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, gemm_elems_and_bytes);
	tcase_add_test(tc, gemm_sizes_that_overflow);
	tcase_add_test(tc, gemm_storage_indices);
	tcase_add_test(tc, synth_bytes_by_kind);
	tcase_add_test(tc, synth_sizes_that_overflow);
	tcase_add_test(tc, synth_flops_each);
	tcase_add_test(tc, synth_supported_limits);
	tcase_add_test(tc, synth_rotation_sets);
	tcase_add_test(tc, synth_launches_per_loop);
	tcase_add_test(tc, cudaload_without_plugin);
	suite_add_tcase(s, tc);
	return s;
}
