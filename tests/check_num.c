/* check_num.c - strict number parsing and checked products. */
#include "config.h"

#include <stdint.h>

#include "check.h"
#include "num.h"

static const struct {
	const char *in;
	int rc;
	uint64_t want;
} u64_cases[] = {
	{"0", 0, 0},
	{"42", 0, 42},
	{"18446744073709551615", 0, UINT64_MAX},
	{"18446744073709551616", RL_ERR_RANGE, 0},
	{"99999999999999999999999", RL_ERR_RANGE, 0},
	{"", RL_ERR_PARSE, 0},
	{"-1", RL_ERR_PARSE, 0},
	{"+1", RL_ERR_PARSE, 0},
	{"1.5", RL_ERR_PARSE, 0},
	{" 1", RL_ERR_PARSE, 0},
	{"1 ", RL_ERR_PARSE, 0},
	{"0x10", RL_ERR_PARSE, 0},
	{"1e3", RL_ERR_PARSE, 0},
};

START_TEST(test_u64)
{
	uint64_t v = 7;
	struct rl_err err = {0, ""};
	int rc = rl_parse_u64(u64_cases[_i].in, &v, &err);

	ck_assert_int_eq(rc, u64_cases[_i].rc);
	if (rc == 0)
		ck_assert_uint_eq(v, u64_cases[_i].want);
	else
		ck_assert_int_ne(err.msg[0], '\0');
}
END_TEST

static const struct {
	const char *in;
	int rc;
	double want;
} num_cases[] = {
	{"0", 0, 0},
	{"2.5e3", 0, 2500},
	{"+1", 0, 1},
	{"0.125", 0, 0.125},
	{".5", 0, 0.5},
	{"1E-3", 0, 0.001},
	{"-1", RL_ERR_RANGE, 0},
	{"-0.5", RL_ERR_RANGE, 0},
	{"1e400", RL_ERR_RANGE, 0},
	{"nan", RL_ERR_PARSE, 0},
	{"NaN", RL_ERR_PARSE, 0},
	{"inf", RL_ERR_PARSE, 0},
	{"-inf", RL_ERR_PARSE, 0},
	{"infinity", RL_ERR_PARSE, 0},
	{"0x1p3", RL_ERR_PARSE, 0},
	{"1,5", RL_ERR_PARSE, 0},
	{"1.2.3", RL_ERR_PARSE, 0},
	{".", RL_ERR_PARSE, 0},
	{"e5", RL_ERR_PARSE, 0},
	{"12abc", RL_ERR_PARSE, 0},
	{" 3", RL_ERR_PARSE, 0},
	{"", RL_ERR_PARSE, 0},
};

START_TEST(test_nonneg)
{
	double v = -1;
	struct rl_err err = {0, ""};
	int rc = rl_parse_nonneg(num_cases[_i].in, &v, &err);

	ck_assert_msg(rc == num_cases[_i].rc, "'%s': rc %d, want %d", num_cases[_i].in, rc,
	              num_cases[_i].rc);
	if (rc == 0)
		ck_assert_double_eq_tol(v, num_cases[_i].want, 1e-12);
	else
		ck_assert_int_ne(err.msg[0], '\0');
}
END_TEST

static const struct {
	const char *in;
	int rc;
	int n;
	uint64_t d0, dlast;
} dims_cases[] = {
	{"8192x4096", 0, 2, 8192, 4096},
	{"7", 0, 1, 7, 7},
	{"2x3x4x5x6x7", 0, 6, 2, 7},
	{"2x3x4x5x6x7x8", RL_ERR_PARSE, 0, 0, 0},
	{"0x5", RL_ERR_RANGE, 0, 0, 0},
	{"5x0", RL_ERR_RANGE, 0, 0, 0},
	{"4x", RL_ERR_PARSE, 0, 0, 0},
	{"x4", RL_ERR_PARSE, 0, 0, 0},
	{"4xx4", RL_ERR_PARSE, 0, 0, 0},
	{"4*4", RL_ERR_PARSE, 0, 0, 0},
	{"4X4", RL_ERR_PARSE, 0, 0, 0},
	{"-4x4", RL_ERR_PARSE, 0, 0, 0},
	{"99999999999999999999x2", RL_ERR_RANGE, 0, 0, 0},
	{"", RL_ERR_PARSE, 0, 0, 0},
	/* the one-pass front (19 digits at most) and the checked parse behind it */
	{"1234567890123456789x3", 0, 2, 1234567890123456789ULL, 3},
	{"18446744073709551615", 0, 1, 18446744073709551615ULL, 18446744073709551615ULL},
	{"18446744073709551616", RL_ERR_RANGE, 0, 0, 0},
	{"4x 4", RL_ERR_PARSE, 0, 0, 0},
	{"4x4.5", RL_ERR_PARSE, 0, 0, 0},
};

START_TEST(test_dims)
{
	uint64_t d[6];
	int n = 0;
	struct rl_err err = {0, ""};
	int rc = rl_parse_dims(dims_cases[_i].in, d, 6, &n, &err);

	ck_assert_msg(rc == dims_cases[_i].rc, "'%s': rc %d", dims_cases[_i].in, rc);
	if (rc == 0) {
		ck_assert_int_eq(n, dims_cases[_i].n);
		ck_assert_uint_eq(d[0], dims_cases[_i].d0);
		ck_assert_uint_eq(d[n - 1], dims_cases[_i].dlast);
	}
}
END_TEST

START_TEST(test_mul)
{
	uint64_t v;

	ck_assert_int_eq(rl_mul_u64(1ULL << 32, (1ULL << 32) - 1, &v), 0);
	ck_assert_uint_eq(v, 0xFFFFFFFF00000000ULL);
	ck_assert_int_eq(rl_mul_u64(1ULL << 32, 1ULL << 32, &v), RL_ERR_RANGE);
	ck_assert_int_eq(rl_mul_u64(0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 0);
}
END_TEST

Suite *suite_num(void)
{
	Suite *s = suite_create("num");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, test_u64, 0, ARRAY_SIZE(u64_cases));
	tcase_add_loop_test(tc, test_nonneg, 0, ARRAY_SIZE(num_cases));
	tcase_add_loop_test(tc, test_dims, 0, ARRAY_SIZE(dims_cases));
	tcase_add_test(tc, test_mul);
	suite_add_tcase(s, tc);
	return s;
}
