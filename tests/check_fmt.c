/* check_fmt.c - the writers' number formatting: times in microseconds and
 * SI-prefixed totals, including values far outside what a report holds. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fmt.h"

/* Times: two decimals below a second (1e6 us), "%.3e" from there. */
static const struct {
	double us;
	const char *want;
} us_cases[] = {
    {0, "0.00"},         {1.005, "1.00"}, /* 1.005 is 1.00499999... in binary */
    {12.5, "12.50"},     {999999.994, "999999.99"}, {1e6, "1.000e+06"},      {1234567, "1.235e+06"},
    {1e25, "1.000e+25"}, {1e300, "1.000e+300"},     {DBL_MAX, "1.798e+308"}, {HUGE_VAL, "inf"},
};

START_TEST(test_us)
{
	char buf[32];
	size_t n = rl_fmt_us(buf, sizeof(buf), us_cases[_i].us);

	ck_assert_str_eq(buf, us_cases[_i].want);
	ck_assert_uint_eq(n, strlen(us_cases[_i].want));
}
END_TEST

/* A value whose "%.2f" has 311 digits, and buffers shorter than the text:
 * the text is cut, NUL-terminated, and the length returned is what was
 * written. */
START_TEST(test_us_cut)
{
	char buf[32], small[6];
	size_t n;

	n = rl_fmt_us(buf, sizeof(buf), -DBL_MAX);
	ck_assert_uint_eq(n, 31);
	ck_assert_uint_eq(strlen(buf), 31);
	ck_assert(strncmp(buf, "-17976931348623157", 18) == 0);
	n = rl_fmt_us(small, sizeof(small), 1e25);
	ck_assert_str_eq(small, "1.000");
	ck_assert_uint_eq(n, 5);
	n = rl_fmt_fixed(buf, 1e300, 2);
	ck_assert_uint_eq(n, 31);
	ck_assert_uint_eq(strlen(buf), 31);
}
END_TEST

/* Totals: 4.2e12 FLOP is 4.2 TFLOP; 999 stays unprefixed; 1e21 is 1000 E
 * (E is the last prefix); -2500 is -2.5 k; DIGITS significant digits. */
static const struct {
	double v;
	int digits;
	const char *unit, *want;
} si_cases[] = {
    {4.2e12, 3, "FLOP", "4.2 TFLOP"},
    {999, 3, "B", "999 B"},
    {1000, 3, "B", "1 kB"},
    {123456789, 3, "B", "123 MB"},
    {123456789, 4, "B/s", "123.5 MB/s"},
    {3.35e12, 4, "B/s", "3.35 TB/s"},
    {1e21, 3, "B", "1e+03 EB"},
    {-2500, 4, "B", "-2.5 kB"},
    {0, 3, "FLOP", "0 FLOP"},
};

START_TEST(test_si)
{
	char buf[32];
	size_t n =
	    rl_fmt_si(buf, sizeof(buf), si_cases[_i].v, si_cases[_i].digits, si_cases[_i].unit);

	ck_assert_str_eq(buf, si_cases[_i].want);
	ck_assert_uint_eq(n, strlen(si_cases[_i].want));
}
END_TEST

START_TEST(test_si_cut)
{
	char buf[8];
	size_t n = rl_fmt_si(buf, sizeof(buf), 4.2e12, 3, "FLOP/s");

	ck_assert_str_eq(buf, "4.2 TFL");
	ck_assert_uint_eq(n, 7);
}
END_TEST

/* Issue 22: rl_fmt_num's own digits and exponent (no frexp, no printf for
 * "e+XX") against printf's "%.6g" over the whole range it formats itself,
 * 1e-20 to 1e21, both signs; and rl_fmt_u64 at every digit count. */
START_TEST(test_num_range)
{
	unsigned long x = 22;
	char a[64], b[64];
	uint64_t p = 1;
	int i;

	for (i = 0; i < 300000; i++) {
		double v;

		x = x * 6364136223846793005UL + 1442695040888963407UL; /* LCG */
		v = exp(((double)(x >> 11) / 9007199254740992.0) * 94.5 - 46.0); /* 1e-20..1e21 */
		if (i & 1)
			v = -v;
		rl_fmt_num(a, v);
		snprintf(b, sizeof(b), v == floor(v) && fabs(v) < 1e15 ? "%.0f" : "%.6g", v);
		ck_assert_msg(strcmp(a, b) == 0, "%.17g: '%s', printf '%s'", v, a, b);
	}
	for (i = 0; i < 20; i++, p *= 10) {
		rl_fmt_u64(a, p);
		snprintf(b, sizeof(b), "%llu", (unsigned long long)p);
		ck_assert_str_eq(a, b);
		rl_fmt_u64(a, p - 1);
		snprintf(b, sizeof(b), "%llu", (unsigned long long)(p - 1));
		ck_assert_str_eq(a, b);
	}
}
END_TEST

Suite *suite_fmt(void)
{
	Suite *s = suite_create("fmt");
	TCase *tc = tcase_create("fmt");

	tcase_add_loop_test(tc, test_us, 0, ARRAY_SIZE(us_cases));
	tcase_add_test(tc, test_us_cut);
	tcase_add_test(tc, test_num_range);
	tcase_add_loop_test(tc, test_si, 0, ARRAY_SIZE(si_cases));
	tcase_add_test(tc, test_si_cut);
	suite_add_tcase(s, tc);
	return s;
}
