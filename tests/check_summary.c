/* check_summary.c - the totals of a classified list, worked out by hand for
 * three ops with made-up predictions: count-weighted times by bound and
 * phase, the collectives' share, the measured ops and the errors' median
 * and p90, the top ops, and the exact count of occurrences. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "check.h"
#include "err.h"
#include "model.h"
#include "op.h"
#include "summary.h"

static void three(struct rl_summary *s)
{
	struct rl_op op;
	struct rl_pred p;

	/* a: matmul x3, expected 10 us (GPU 8), roofline 6 (GPU 5), 100 FLOPs
	 * and 50 bytes each, measured 9 */
	rl_op_init(&op);
	memset(&p, 0, sizeof(p));
	op.name = "a", op.kind = RL_KIND_MATMUL, op.count = 3;
	op.measured_us = 9, op.has |= RL_HAS_MEASURED;
	p.expected_us = 10, p.expected_gpu_us = 8, p.t_us = 6, p.t_gpu_us = 5;
	p.flops = 100, p.bytes = 50;
	p.bound = RL_BOUND_COMPUTE, p.expected_bound = RL_BOUND_COMPUTE;
	ck_assert_int_eq(rl_summary_add(s, &op, &p, NULL), 0);
	/* b: pointwise x2 in the backward pass, expected 4 (GPU 4), roofline 2
	 * (GPU 2), 10 FLOPs and 40 bytes, memory-bound by the roofline but
	 * overhead-bound expected; measured 5 */
	rl_op_init(&op);
	memset(&p, 0, sizeof(p));
	op.name = "b", op.kind = RL_KIND_POINTWISE, op.count = 2, op.phase = RL_PHASE_BACKWARD;
	op.measured_us = 5, op.has |= RL_HAS_MEASURED;
	p.expected_us = 4, p.expected_gpu_us = 4, p.t_us = 2, p.t_gpu_us = 2;
	p.flops = 10, p.bytes = 40;
	p.bound = RL_BOUND_MEMORY, p.expected_bound = RL_BOUND_OVERHEAD;
	ck_assert_int_eq(rl_summary_add(s, &op, &p, NULL), 0);
	/* c: an all-reduce overlapped with compute, 20 us, not measured */
	rl_op_init(&op);
	memset(&p, 0, sizeof(p));
	op.name = "c", op.kind = RL_KIND_ALLREDUCE, op.overlap = 1;
	p.expected_us = 20, p.expected_gpu_us = 20, p.t_us = 20, p.t_gpu_us = 20;
	p.bound = RL_BOUND_NETWORK, p.expected_bound = RL_BOUND_NETWORK;
	ck_assert_int_eq(rl_summary_add(s, &op, &p, NULL), 0);
}

START_TEST(test_totals)
{
	struct rl_summary s;

	rl_summary_init(&s);
	three(&s);
	ck_assert_uint_eq(s.ops, 3);
	ck_assert_uint_eq(s.occurrences, 6);
	/* 3 x 10 + 2 x 4 + 20 = 58; GPU 24 + 8 + 20 = 52; roofline 18 + 4 + 20 */
	ck_assert_double_eq_tol(s.total_us, 58, 1e-9);
	ck_assert_double_eq_tol(s.gpu_us, 52, 1e-9);
	ck_assert_double_eq_tol(s.roofline_us, 42, 1e-9);
	ck_assert_double_eq_tol(s.roofline_gpu_us, 39, 1e-9);
	ck_assert_double_eq_tol(s.bound_us[RL_BOUND_COMPUTE], 30, 1e-9);
	ck_assert_double_eq_tol(s.bound_us[RL_BOUND_OVERHEAD], 8, 1e-9);
	ck_assert_double_eq_tol(s.bound_us[RL_BOUND_NETWORK], 20, 1e-9);
	ck_assert_double_eq_tol(s.roofline_bound_us[RL_BOUND_MEMORY], 4, 1e-9);
	ck_assert_uint_eq(s.bound_ops[RL_BOUND_OVERHEAD], 1);
	ck_assert_uint_eq(s.bound_differs, 1);
	ck_assert_double_eq_tol(s.phase_us[RL_PHASE_FORWARD], 50, 1e-9);
	ck_assert_double_eq_tol(s.phase_us[RL_PHASE_BACKWARD], 8, 1e-9);
	ck_assert_double_eq_tol(s.phase_flops[RL_PHASE_BACKWARD], 20, 1e-9);
	ck_assert_double_eq_tol(s.flops, 320, 1e-9);
	ck_assert_double_eq_tol(s.bytes, 230, 1e-9);
	ck_assert_double_eq_tol(s.comm_us, 20, 1e-9);
	ck_assert_double_eq_tol(s.comm_overlap_us, 20, 1e-9);
	ck_assert_uint_eq(s.comm_ops, 1);
	/* measured: a and b, 3 x 9 + 2 x 5 = 37 us against 15 + 4 roofline and
	 * 24 + 8 expected */
	ck_assert_uint_eq(s.measured_ops, 2);
	ck_assert_double_eq_tol(s.measured_us, 37, 1e-9);
	ck_assert_double_eq_tol(s.roofline_of_measured_us, 19, 1e-9);
	ck_assert_double_eq_tol(s.expected_of_measured_us, 32, 1e-9);
	/* the top by count x expected: a 30, c 20, b 8 */
	ck_assert_uint_eq(s.ntop, 3);
	ck_assert_str_eq(s.top[0].name, "a");
	ck_assert_str_eq(s.top[1].name, "c");
	ck_assert_str_eq(s.top[2].name, "b");
	ck_assert_double_eq_tol(s.top[0].roofline_us, 18, 1e-9);
	rl_summary_release(&s);
}
END_TEST

/* errors per row (not per occurrence): expected |8 - 9| / 9 = 1/9 and
 * |4 - 5| / 5 = 0.2, roofline |5 - 9| / 9 = 4/9 and |2 - 5| / 5 = 0.6; with
 * two values the median is their mean and p90 lies 0.9 of the way from the
 * smaller to the larger */
START_TEST(test_errors)
{
	struct rl_summary s;
	struct rl_summary_err e;

	rl_summary_init(&s);
	three(&s);
	ck_assert_int_eq(rl_summary_err(&s, 0, &e), 0);
	ck_assert_uint_eq(e.ops, 2);
	ck_assert_double_eq_tol(e.expected_median, (1.0 / 9 + 0.2) / 2, 1e-12);
	ck_assert_double_eq_tol(e.expected_p90, 1.0 / 9 + 0.9 * (0.2 - 1.0 / 9), 1e-12);
	ck_assert_double_eq_tol(e.roofline_median, (4.0 / 9 + 0.6) / 2, 1e-12);
	ck_assert_double_eq_tol(e.roofline_p90, 4.0 / 9 + 0.9 * (0.6 - 4.0 / 9), 1e-12);
	/* a floor of 6 us leaves a alone */
	ck_assert_int_eq(rl_summary_err(&s, 6, &e), 0);
	ck_assert_uint_eq(e.ops, 1);
	ck_assert_double_eq_tol(e.expected_median, 1.0 / 9, 1e-12);
	ck_assert_double_eq_tol(e.roofline_p90, 4.0 / 9, 1e-12);
	rl_summary_release(&s);

	rl_summary_init(&s);
	ck_assert_int_eq(rl_summary_err(&s, 0, &e), 0);
	ck_assert_uint_eq(e.ops, 0);
	ck_assert_double_eq(e.expected_median, 0);
	rl_summary_release(&s);
}
END_TEST

START_TEST(test_occurrences_overflow)
{
	struct rl_summary s;
	struct rl_op op;
	struct rl_pred p;
	struct rl_err err = {0};

	rl_summary_init(&s);
	rl_op_init(&op);
	memset(&p, 0, sizeof(p));
	op.name = "x";
	op.count = UINT64_MAX;
	ck_assert_int_eq(rl_summary_add(&s, &op, &p, &err), 0);
	ck_assert_uint_eq(s.occurrences, UINT64_MAX);
	op.count = 1;
	ck_assert_int_eq(rl_summary_add(&s, &op, &p, &err), RL_ERR_RANGE);
	ck_assert_ptr_nonnull(strstr(err.msg, "2^64 - 1"));
	ck_assert_uint_eq(s.ops, 1); /* unchanged */
	ck_assert_uint_eq(s.occurrences, UINT64_MAX);
	rl_summary_release(&s);
}
END_TEST

Suite *suite_summary(void)
{
	Suite *s = suite_create("summary");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_totals);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_occurrences_overflow);
	suite_add_tcase(s, tc);
	return s;
}
