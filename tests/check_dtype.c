/* check_dtype.c - data type names and sizes, and the pipes: the sizes from
 * the formats' definitions (IEEE 754 binary64/32/16, bfloat16, OCP FP8 and
 * FP4, two's-complement integers), the names the op-list format documents
 * (docs/oplist-format.md, "dtype"). */
#include "config.h"

#include <string.h>

#include "check.h"
#include "dtype.h"
#include "err.h"

/* name, element size in bytes as stored per element, bytes per element
 * (half a byte for the 4-bit types, which pack two to a byte) */
static const struct {
	const char *name;
	enum rl_dtype t;
	size_t size;
	double bytes;
} cases[] = {
	{"fp64", RL_FP64, 8, 8},       {"fp32", RL_FP32, 4, 4},     {"tf32", RL_TF32, 4, 4},
	{"fp16", RL_FP16, 2, 2},       {"bf16", RL_BF16, 2, 2},     {"fp8e4m3", RL_FP8E4M3, 1, 1},
	{"fp8e5m2", RL_FP8E5M2, 1, 1}, {"int8", RL_INT8, 1, 1},     {"int32", RL_INT32, 4, 4},
	{"int64", RL_INT64, 8, 8},     {"int4", RL_INT4, 1, 0.5},   {"fp4", RL_FP4, 1, 0.5},
	    {"mxfp4", RL_MXFP4, 1, 17.0 / 32.0}, /* 32 x 4 bits and an 8-bit scale per 32 */
};

START_TEST(test_sizes_and_names)
{
	const char *n = cases[_i].name;
	enum rl_dtype t;

	ck_assert_int_eq(rl_dtype_parse(n, &t), 0);
	ck_assert_int_eq(t, cases[_i].t);
	ck_assert_str_eq(rl_dtype_name(t), n);
	ck_assert_uint_eq(rl_dtype_size(t), cases[_i].size);
	ck_assert_double_eq(rl_dtype_bytes(t), cases[_i].bytes);
	/* only the 4-bit types are storage only (weights, KV caches) */
	ck_assert_int_eq(rl_dtype_storage_only(t), cases[_i].bytes < 1);
	/* every name is in the list the errors give */
	ck_assert_ptr_nonnull(strstr(rl_dtype_expected(), n));
}
END_TEST

START_TEST(test_parse)
{
	enum rl_dtype t = RL_FP64;

	ck_assert_int_eq(ARRAY_SIZE(cases), RL_DTYPE_COUNT); /* every dtype above */

	/* case does not matter; "fp8" is e4m3, the inference format */
	ck_assert_int_eq(rl_dtype_parse("BF16", &t), 0);
	ck_assert_int_eq(t, RL_BF16);
	ck_assert_int_eq(rl_dtype_parse("fp8", &t), 0);
	ck_assert_int_eq(t, RL_FP8E4M3);
	ck_assert_int_eq(rl_dtype_parse("FP8", &t), 0);
	ck_assert_int_eq(t, RL_FP8E4M3);
	/* unknown names, prefixes and suffixes are refused, *OUT untouched */
	t = RL_INT8;
	ck_assert_int_eq(rl_dtype_parse("fp9", &t), RL_ERR_PARSE);
	ck_assert_int_eq(rl_dtype_parse("fp", &t), RL_ERR_PARSE);
	ck_assert_int_eq(rl_dtype_parse("fp32x", &t), RL_ERR_PARSE);
	ck_assert_int_eq(rl_dtype_parse("", &t), RL_ERR_PARSE);
	ck_assert_int_eq(t, RL_INT8);
}
END_TEST

START_TEST(test_units)
{
	ck_assert_str_eq(rl_unit_name(RL_UNIT_TENSOR), "tensor");
	ck_assert_str_eq(rl_unit_name(RL_UNIT_VECTOR), "vector");
	ck_assert_str_eq(rl_unit_name(RL_UNIT_AUTO), "auto");
}
END_TEST

/* the pipes' database keys (docs/hwdb-format.md) and which are tensor
 * cores: the vector pipes are the CUDA cores' */
static const struct {
	enum rl_pipe p;
	const char *key, *label;
	int tensor;
} pipes[] = {
	{RL_PIPE_FP64_VECTOR, "fp64_vector_tflops", "fp64 vector", 0},
	{RL_PIPE_FP64_TENSOR, "fp64_tensor_tflops", "fp64 tensor", 1},
	{RL_PIPE_FP32_VECTOR, "fp32_vector_tflops", "fp32 vector", 0},
	{RL_PIPE_FP16_VECTOR, "fp16_vector_tflops", "fp16 vector", 0},
	{RL_PIPE_BF16_VECTOR, "bf16_vector_tflops", "bf16 vector", 0},
	{RL_PIPE_TF32_TENSOR, "tf32_tensor_tflops", "tf32 tensor", 1},
	{RL_PIPE_FP16_TENSOR, "fp16_tensor_tflops", "fp16 tensor", 1},
	{RL_PIPE_BF16_TENSOR, "bf16_tensor_tflops", "bf16 tensor", 1},
	{RL_PIPE_FP8_TENSOR, "fp8_tensor_tflops", "fp8 tensor", 1},
	{RL_PIPE_INT8_TENSOR, "int8_tensor_tops", "int8 tensor", 1},
};

START_TEST(test_pipes)
{
	ck_assert_int_eq(ARRAY_SIZE(pipes), RL_PIPE_COUNT);
	ck_assert_str_eq(rl_pipe_key(pipes[_i].p), pipes[_i].key);
	ck_assert_str_eq(rl_pipe_label(pipes[_i].p), pipes[_i].label);
	ck_assert_int_eq(rl_pipe_is_tensor(pipes[_i].p), pipes[_i].tensor);
}
END_TEST

START_TEST(test_pipe_none)
{
	ck_assert_str_eq(rl_pipe_key(RL_PIPE_NONE), "none");
	ck_assert_str_eq(rl_pipe_label(RL_PIPE_NONE), "none");
	ck_assert_int_eq(rl_pipe_is_tensor(RL_PIPE_NONE), 0);
}
END_TEST

Suite *suite_dtype(void)
{
	Suite *s = suite_create("dtype");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_sizes_and_names, 0, ARRAY_SIZE(cases));
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_units);
	tcase_add_loop_test(tc, test_pipes, 0, ARRAY_SIZE(pipes));
	tcase_add_test(tc, test_pipe_none);
	suite_add_tcase(s, tc);
	return s;
}
