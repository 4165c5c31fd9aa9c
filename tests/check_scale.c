/* check_scale.c - the batch-scaling verdicts (--scale B=2) and their
 * count-weighted totals. The predictions are set by hand: the FLOPs and
 * bytes of a bf16 matmul and an fp32 add worked out from their shapes, the
 * times made up for each case. */
#include "config.h"

#include <string.h>

#include "check.h"
#include "model.h"
#include "scale.h"

static struct rl_pred pred(double flops, double bytes, double us, enum rl_bound bound)
{
	struct rl_pred p;

	memset(&p, 0, sizeof(p));
	p.flops = flops;
	p.bytes = bytes;
	p.intensity = flops / bytes;
	p.expected_us = us;
	p.expected_bound = bound;
	return p;
}

/* A 4096 x 4096 bf16 weight times M rows: FLOPs 2 x M x 4096 x 4096, bytes
 * 2 x (M x 4096 + 4096 x 4096 + M x 4096). M = 1: 33,554,432 FLOPs,
 * 33,570,816 bytes (0.9995 FLOP/byte); M = 2: 67,108,864 FLOPs and
 * 33,587,200 bytes (1.998): the weight read once serves both rows, so the
 * intensity almost doubles. */
START_TEST(test_intensity)
{
	struct rl_pred b = pred(33554432, 33570816, 7.0, RL_BOUND_MEMORY);
	struct rl_pred s = pred(67108864, 33587200, 7.1, RL_BOUND_MEMORY);

	ck_assert_int_eq(rl_scale_verdict(&b, &s), RL_SCALE_INTENSITY);
	ck_assert_str_eq(rl_scale_verdict_name(RL_SCALE_INTENSITY), "intensity");
}
END_TEST

/* An fp32 add of 2^20 elements, 2 inputs: 1,048,576 FLOPs and 12,582,912
 * bytes; at twice the size both double and the intensity stays 1/12. */
START_TEST(test_linear_and_overhead)
{
	struct rl_pred b = pred(1048576, 12582912, 5.0, RL_BOUND_MEMORY);
	struct rl_pred s = pred(2097152, 25165824, 9.0, RL_BOUND_MEMORY);

	ck_assert_int_eq(rl_scale_verdict(&b, &s), RL_SCALE_LINEAR);
	ck_assert_str_eq(rl_scale_verdict_name(RL_SCALE_LINEAR), "linear");
	/* overhead-bound at the base size and under 1.1x the time: 10 us to
	 * 10.9 us is flat, 10 to 11 is not (then linear: no intensity gain) */
	b = pred(1048576, 12582912, 10.0, RL_BOUND_OVERHEAD);
	s = pred(2097152, 25165824, 10.9, RL_BOUND_OVERHEAD);
	ck_assert_int_eq(rl_scale_verdict(&b, &s), RL_SCALE_OVERHEAD);
	ck_assert_str_eq(rl_scale_verdict_name(RL_SCALE_OVERHEAD), "overhead");
	s.expected_us = 11.0;
	ck_assert_int_eq(rl_scale_verdict(&b, &s), RL_SCALE_LINEAR);
	/* flat but memory-bound: not the host's fault */
	b.expected_bound = RL_BOUND_MEMORY;
	s.expected_us = 10.0;
	ck_assert_int_eq(rl_scale_verdict(&b, &s), RL_SCALE_LINEAR);
}
END_TEST

/* An op whose size has no scaled name: same FLOPs and bytes, "fixed",
 * whatever its bound */
START_TEST(test_fixed)
{
	struct rl_pred b = pred(1048576, 12582912, 10.0, RL_BOUND_OVERHEAD);
	struct rl_pred s = b;

	ck_assert_int_eq(rl_scale_verdict(&b, &s), RL_SCALE_FIXED);
	ck_assert_str_eq(rl_scale_verdict_name(RL_SCALE_FIXED), "fixed");
}
END_TEST

START_TEST(test_sum)
{
	struct rl_scale_sum s;
	struct rl_pred b1 = pred(1, 1, 10.0, RL_BOUND_MEMORY), s1 = pred(2, 2, 20.0, RL_BOUND_MEMORY);
	struct rl_pred b2 = pred(1, 1, 5.0, RL_BOUND_OVERHEAD), s2 = pred(2, 2, 5.0, RL_BOUND_OVERHEAD);

	rl_scale_sum_init(&s);
	/* 3 x (10 -> 20 us) linear, 2 x (5 -> 5 us) overhead: 40 us -> 70 us */
	rl_scale_sum_add(&s, 3, &b1, &s1, RL_SCALE_LINEAR);
	rl_scale_sum_add(&s, 2, &b2, &s2, RL_SCALE_OVERHEAD);
	ck_assert_uint_eq(s.ops, 2);
	ck_assert_double_eq_tol(s.base_us, 40.0, 1e-12);
	ck_assert_double_eq_tol(s.scaled_us, 70.0, 1e-12);
	ck_assert_double_eq_tol(s.base_by[RL_SCALE_LINEAR], 30.0, 1e-12);
	ck_assert_double_eq_tol(s.scaled_by[RL_SCALE_LINEAR], 60.0, 1e-12);
	ck_assert_double_eq_tol(s.base_by[RL_SCALE_OVERHEAD], 10.0, 1e-12);
	ck_assert_double_eq_tol(s.scaled_by[RL_SCALE_OVERHEAD], 10.0, 1e-12);
	ck_assert_uint_eq(s.ops_by[RL_SCALE_LINEAR], 1);
	ck_assert_uint_eq(s.ops_by[RL_SCALE_OVERHEAD], 1);
	ck_assert_uint_eq(s.ops_by[RL_SCALE_FIXED], 0);
	ck_assert_double_eq(s.base_by[RL_SCALE_INTENSITY], 0);
}
END_TEST

Suite *suite_scale(void)
{
	Suite *s = suite_create("scale");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_intensity);
	tcase_add_test(tc, test_linear_and_overhead);
	tcase_add_test(tc, test_fixed);
	tcase_add_test(tc, test_sum);
	suite_add_tcase(s, tc);
	return s;
}
