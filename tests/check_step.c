/* check_step.c - a measured step: the timeline of GPU activities (span,
 * busy union, gaps) worked out by hand from intervals, the per-kind and
 * per-phase sums, the ranking of recoverable time and its cap, the advice. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "model.h"
#include "op.h"
#include "step.h"

START_TEST(test_timeline)
{
	/* given out of order: [20, 30], [0, 10], [40, 41], [5, 15] us (two
	 * streams overlap in [5, 10]). Busy: [0, 15] + [20, 30] + [40, 41] =
	 * 15 + 10 + 1 = 26 us of a 41 us span; idle 15 in 2 gaps, the longest
	 * 30 -> 40 */
	struct rl_interval iv[] = {
		{20000, 30000}, {0, 10000}, {40000, 41000}, {5000, 15000},
	};
	struct rl_step s;

	rl_step_init(&s);
	rl_step_timeline(&s, iv, ARRAY_SIZE(iv));
	ck_assert_uint_eq(s.activities, 4);
	ck_assert_double_eq_tol(s.span_us, 41, 1e-9);
	ck_assert_double_eq_tol(s.busy_us, 26, 1e-9);
	ck_assert_double_eq_tol(s.idle_us, 15, 1e-9);
	ck_assert_uint_eq(s.gaps, 2);
	ck_assert_double_eq_tol(s.longest_gap_us, 10, 1e-9);
	rl_step_release(&s);

	/* nothing recorded: all zero */
	rl_step_init(&s);
	rl_step_timeline(&s, iv, 0);
	ck_assert_uint_eq(s.activities, 0);
	ck_assert_double_eq(s.span_us, 0);
	rl_step_release(&s);
}
END_TEST

static void mk(struct rl_op *op, struct rl_pred *p, const char *name, enum rl_kind kind,
               double measured_us, double expected_us)
{
	rl_op_init(op);
	memset(p, 0, sizeof(*p));
	op->name = name;
	op->kind = kind;
	if (measured_us >= 0) {
		op->measured_us = measured_us;
		op->has |= RL_HAS_MEASURED;
	}
	p->expected_gpu_us = expected_us;
	p->t_gpu_us = expected_us / 2;
	p->bound = RL_BOUND_MEMORY;
}

START_TEST(test_sums_and_top)
{
	struct rl_step s;
	struct rl_op op;
	struct rl_pred p;

	rl_step_init(&s);
	/* a: 100 us measured, 40 expected: 60 recoverable; b: 5; c: slower
	 * expected than measured, none; d: no measurement */
	mk(&op, &p, "a", RL_KIND_MATMUL, 100, 40);
	ck_assert_int_eq(rl_step_add(&s, &op, &p), 0);
	mk(&op, &p, "b", RL_KIND_POINTWISE, 50, 45);
	op.phase = RL_PHASE_BACKWARD;
	op.launches = 3;
	ck_assert_int_eq(rl_step_add(&s, &op, &p), 0);
	mk(&op, &p, "c", RL_KIND_MATMUL, 30, 40);
	ck_assert_int_eq(rl_step_add(&s, &op, &p), 0);
	mk(&op, &p, "d", RL_KIND_MATMUL, -1, 40);
	op.host_us = 7;
	op.has |= RL_HAS_HOST;
	ck_assert_int_eq(rl_step_add(&s, &op, &p), 0);

	/* matmul: 3 ops, measured 100 + 30, expected 40 + 40, roofline
	 * 20 + 20 (d has no measurement, so none of its times), host 7 */
	ck_assert_uint_eq(s.kind[RL_KIND_MATMUL].ops, 3);
	ck_assert_double_eq_tol(s.kind[RL_KIND_MATMUL].measured_us, 130, 1e-9);
	ck_assert_double_eq_tol(s.kind[RL_KIND_MATMUL].expected_us, 80, 1e-9);
	ck_assert_double_eq_tol(s.kind[RL_KIND_MATMUL].roofline_us, 40, 1e-9);
	ck_assert_double_eq_tol(s.kind[RL_KIND_MATMUL].host_us, 7, 1e-9);
	ck_assert_uint_eq(s.kind[RL_KIND_POINTWISE].launches, 3);
	ck_assert_uint_eq(s.phase[RL_PHASE_BACKWARD].ops, 1);
	ck_assert_uint_eq(s.phase[RL_PHASE_FORWARD].ops, 3);
	ck_assert_uint_eq(s.all.ops, 4);
	ck_assert_uint_eq(s.all.launches, 6);
	ck_assert_double_eq_tol(s.all.measured_us, 180, 1e-9);
	/* ranked by measured - expected: a (60), b (5) */
	ck_assert_uint_eq(s.ntop, 2);
	ck_assert_str_eq(s.top[0].name, "a");
	ck_assert_str_eq(s.top[1].name, "b");
	ck_assert_double_eq_tol(s.top[0].measured_us - s.top[0].expected_us, 60, 1e-9);
	rl_step_release(&s);
}
END_TEST

START_TEST(test_top_cap)
{
	char names[12][8];
	struct rl_step s;
	struct rl_op op;
	struct rl_pred p;
	int i;

	/* gains 1, 2, ..., 12 us: the ten largest stay, 12 first, 3 last; of
	 * two equal gains the earlier stays first */
	rl_step_init(&s);
	for (i = 0; i < 12; i++) {
		snprintf(names[i], sizeof(names[i]), "op%d", i + 1);
		mk(&op, &p, names[i], RL_KIND_COPY, 10 + i + 1, 10);
		ck_assert_int_eq(rl_step_add(&s, &op, &p), 0);
	}
	ck_assert_uint_eq(s.ntop, RL_STEP_TOP);
	ck_assert_str_eq(s.top[0].name, "op12");
	ck_assert_str_eq(s.top[9].name, "op3");
	rl_step_release(&s);

	rl_step_init(&s);
	mk(&op, &p, "first", RL_KIND_COPY, 20, 10);
	rl_step_add(&s, &op, &p);
	mk(&op, &p, "second", RL_KIND_COPY, 20, 10);
	rl_step_add(&s, &op, &p);
	ck_assert_str_eq(s.top[0].name, "first");
	ck_assert_str_eq(s.top[1].name, "second");
	rl_step_release(&s);
}
END_TEST

START_TEST(test_advice)
{
	struct rl_op op;
	struct rl_pred p;

	mk(&op, &p, "x", RL_KIND_CUSTOM, 10, 1);
	ck_assert_ptr_nonnull(strstr(rl_step_advice(&op, &p), "not mapped to a kind"));
	/* several kernels for one memory-bound op: fuse */
	mk(&op, &p, "x", RL_KIND_POINTWISE, 10, 1);
	op.launches = 2;
	ck_assert_ptr_nonnull(strstr(rl_step_advice(&op, &p), "several kernels"));
	/* a memory-bound matmul streams its weights: fusing does not help */
	mk(&op, &p, "x", RL_KIND_MATMUL, 10, 1);
	ck_assert_ptr_nonnull(strstr(rl_step_advice(&op, &p), "streaming its weights"));
	/* a tensor-core GEMM below its peak */
	p.bound = RL_BOUND_COMPUTE;
	p.unit = RL_UNIT_TENSOR;
	ck_assert_ptr_nonnull(strstr(rl_step_advice(&op, &p), "tensor-core peak"));
	p.bound = RL_BOUND_OVERHEAD;
	ck_assert_ptr_nonnull(strstr(rl_step_advice(&op, &p), "too small to fill the GPU"));
}
END_TEST

Suite *suite_step(void)
{
	Suite *s = suite_create("step");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_timeline);
	tcase_add_test(tc, test_sums_and_top);
	tcase_add_test(tc, test_top_cap);
	tcase_add_test(tc, test_advice);
	suite_add_tcase(s, tc);
	return s;
}
