/* check_hostfit.c - the host fit (hostfit.h) on hand-built host timelines:
 * the charge of each call (its gap, its time, what kernel-less calls pass
 * on), the per-kind and per-name figures, the extras at new shapes, the
 * profiler's spans, the scale, overlapping threads, the outliers, the
 * errors. Every figure is worked out in the comments. */
#include "config.h"

#include <string.h>

#include "check.h"
#include "hostfit.h"
#include "kind.h"

#define US 1000 /* ns */

static struct rl_hostfit_call call(const char *name, int kind, uint64_t kernels, double t0,
                                   double t1, uint64_t shape)
{
	struct rl_hostfit_call c;

	memset(&c, 0, sizeof(c));
	c.name = name;
	c.kind = kind;
	c.kernels = kernels;
	c.start_ns = (int64_t)(t0 * US);
	c.end_ns = (int64_t)(t1 * US);
	c.shape = shape;
	return c;
}

static const struct rl_hostfit_name *find_name(const struct rl_hostfit *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->nnames; i++)
		if (strcmp(f->names[i].name, name) == 0)
			return &f->names[i];
	return NULL;
}

START_TEST(test_charges)
{
	/* given out of order. The span is 0 to 92 us. Charges:
	 *   view    [0, 2]    2, no kernel: passed on
	 *   mul     [5, 15]   gap 3 + 10 + 2 passed = 15
	 *   linear  [20, 50]  gap 5 + 30 = 35
	 *   reshape [52, 53]  gap 2 + 1 = 3, passed on
	 *   linear  [60, 80]  gap 7 + 20 + 3 = 30
	 *   add     [81, 85]  gap 1 + 4 = 5, and the trailing view's 7 = 12
	 *   view    [90, 92]  gap 5 + 2 = 7, to the last launching call
	 * 15 + 35 + 30 + 12 = 92. pointwise: (15 + 12) / 2 kernels = 13.5;
	 * matmul: 65 / 4 kernels = 16.25; the default 92 / 6 = 15.33. linear's
	 * median own time (30 + 20) / 2 = 25: no extra (30 < 2 x 25). */
	struct rl_hostfit_call c[] = {
		call("aten::linear", RL_KIND_MATMUL, 2, 60, 80, 7),
		call("aten::view", -1, 0, 0, 2, 1),
		call("aten::mul", RL_KIND_POINTWISE, 1, 5, 15, 1),
		call("aten::linear", RL_KIND_MATMUL, 2, 20, 50, 7),
		call("aten::reshape", -1, 0, 52, 53, 2),
		call("aten::add", RL_KIND_POINTWISE, 1, 81, 85, 2),
		call("aten::view", -1, 0, 90, 92, 1),
	};
	const struct rl_hostfit_name *lin;
	struct rl_hostfit f;
	struct rl_err err;

	ck_assert_int_eq(rl_hostfit_run(c, ARRAY_SIZE(c), NULL, 0, 0, &f, &err), 0);
	ck_assert_double_eq_tol(f.span_us, 92, 1e-9);
	ck_assert_double_eq_tol(f.scale, 1, 1e-12);
	ck_assert_uint_eq(f.calls, 7);
	ck_assert_uint_eq(f.launching, 4);
	ck_assert_uint_eq(f.kernels, 6);
	ck_assert_double_eq_tol(f.kind[RL_KIND_POINTWISE].charged_us, 27, 1e-9);
	ck_assert_double_eq_tol(f.kind[RL_KIND_POINTWISE].host_us, 13.5, 1e-9);
	ck_assert_uint_eq(f.kind[RL_KIND_MATMUL].kernels, 4);
	ck_assert_uint_eq(f.kind[RL_KIND_MATMUL].calls, 2);
	ck_assert_double_eq_tol(f.kind[RL_KIND_MATMUL].host_us, 16.25, 1e-9);
	ck_assert_double_eq_tol(f.host_us, 92.0 / 6, 1e-9);
	ck_assert_uint_eq(f.nextras, 0);
	ck_assert_uint_eq(f.kind[RL_KIND_COPY].kernels, 0);
	/* names: launching ones only, most charged first */
	ck_assert_uint_eq(f.nnames, 3);
	ck_assert_str_eq(f.names[0].name, "aten::linear");
	lin = find_name(&f, "aten::linear");
	ck_assert_uint_eq(lin->calls, 2);
	ck_assert_double_eq_tol(lin->charged_us, 65, 1e-9);
	ck_assert_double_eq_tol(lin->median_us, 25, 1e-9);
	ck_assert_double_eq_tol(lin->max_us, 30, 1e-9);
	ck_assert_ptr_null(find_name(&f, "aten::view"));
	ck_assert_double_eq_tol(find_name(&f, "aten::add")->charged_us, 12, 1e-9);
	rl_hostfit_release(&f);
}
END_TEST

START_TEST(test_extras)
{
	/* five linears back to back, own times 100 (shape 1), 20 (shape 1
	 * again), 25 (shape 2), 22 (shape 2 again), 18 (shape 3): median 22.
	 * The first at shape 1: 100 > 2 x 22 and 78 > 20 us above: an extra of
	 * 78. The first at shape 2 (25) and 3 (18) are not. Span 185; matmul
	 * charged 185 - 78 = 107 over 5 kernels = 21.4; host_extra 78 per call. */
	struct rl_hostfit_call c[] = {
		call("aten::linear", RL_KIND_MATMUL, 1, 0, 100, 1),
		call("aten::linear", RL_KIND_MATMUL, 1, 100, 120, 1),
		call("aten::linear", RL_KIND_MATMUL, 1, 120, 145, 2),
		call("aten::linear", RL_KIND_MATMUL, 1, 145, 167, 2),
		call("aten::linear", RL_KIND_MATMUL, 1, 167, 185, 3),
	};
	struct rl_hostfit f;
	struct rl_err err;

	ck_assert_int_eq(rl_hostfit_run(c, ARRAY_SIZE(c), NULL, 0, 0, &f, &err), 0);
	ck_assert_double_eq_tol(f.span_us, 185, 1e-9);
	ck_assert_uint_eq(f.nextras, 1);
	ck_assert_uint_eq(f.extras[0].call, 0);
	ck_assert_double_eq_tol(f.extras[0].own_us, 100, 1e-9);
	ck_assert_double_eq_tol(f.extras[0].median_us, 22, 1e-9);
	ck_assert_double_eq_tol(f.extras[0].extra_us, 78, 1e-9);
	ck_assert_int_eq(f.extras[0].new_shape, 1);
	ck_assert_uint_eq(f.kind[RL_KIND_MATMUL].extra_calls, 1);
	ck_assert_double_eq_tol(f.kind[RL_KIND_MATMUL].extra_us, 78, 1e-9);
	ck_assert_double_eq_tol(f.kind[RL_KIND_MATMUL].charged_us, 107, 1e-9);
	ck_assert_double_eq_tol(f.kind[RL_KIND_MATMUL].host_us, 21.4, 1e-9);
	ck_assert_double_eq_tol(f.host_us, 21.4, 1e-9);
	/* base + extras give back the span */
	ck_assert_double_eq_tol(f.kind[RL_KIND_MATMUL].charged_us + f.kind[RL_KIND_MATMUL].extra_us,
	                        f.span_us, 1e-9);
	rl_hostfit_release(&f);
	/* the same 100 us at shapes seen before is no extra: shape 1 ran first
	 * at 20 us; matmul 185 / 5 = 37 */
	{
		struct rl_hostfit_call d[] = {
			call("aten::linear", RL_KIND_MATMUL, 1, 0, 20, 1),
			call("aten::linear", RL_KIND_MATMUL, 1, 20, 120, 1),
			call("aten::linear", RL_KIND_MATMUL, 1, 120, 145, 2),
			call("aten::linear", RL_KIND_MATMUL, 1, 145, 167, 2),
			call("aten::linear", RL_KIND_MATMUL, 1, 167, 185, 3),
		};

		ck_assert_int_eq(rl_hostfit_run(d, ARRAY_SIZE(d), NULL, 0, 0, &f, &err), 0);
		ck_assert_uint_eq(f.nextras, 0);
		ck_assert_double_eq_tol(f.kind[RL_KIND_MATMUL].host_us, 37, 1e-9);
		rl_hostfit_release(&f);
	}
	/* the call with the trace's first launch is no extra: the profiler's
	 * start is in it */
	c[0].first_launch = 1;
	ck_assert_int_eq(rl_hostfit_run(c, ARRAY_SIZE(c), NULL, 0, 0, &f, &err), 0);
	ck_assert_uint_eq(f.nextras, 0);
	ck_assert_double_eq_tol(f.kind[RL_KIND_MATMUL].host_us, 37, 1e-9);
	rl_hostfit_release(&f);
}
END_TEST

START_TEST(test_skips_scale)
{
	/* mul [0, 50] with the profiler's span [10, 40] inside, add [60, 70]
	 * with [52, 58] in the gap before it (and [38, 45] overlapping the
	 * first: merged to [10, 45]). Span 70 - 35 - 6 = 29, skipped 41:
	 * mul 50 - 35 = 15 (own 15), add 10 - 6 + 10 = 14 (own 10). Scaled to
	 * a step of 14.5 us: 0.5, pointwise (15 + 14) / 2 x 0.5 = 7.25. */
	struct rl_hostfit_call c[] = {
		call("aten::mul", RL_KIND_POINTWISE, 1, 0, 50, 1),
		call("aten::add", RL_KIND_POINTWISE, 1, 60, 70, 2),
	};
	struct rl_hostfit_skip s[] = {
		{52 * US, 58 * US}, {10 * US, 40 * US}, {38 * US, 45 * US},
	};
	struct rl_hostfit f;
	struct rl_err err;

	ck_assert_int_eq(rl_hostfit_run(c, 2, s, 3, 0, &f, &err), 0);
	ck_assert_double_eq_tol(f.span_us, 29, 1e-9);
	ck_assert_double_eq_tol(f.skipped_us, 41, 1e-9);
	ck_assert_double_eq_tol(find_name(&f, "aten::mul")->median_us, 15, 1e-9);
	ck_assert_double_eq_tol(find_name(&f, "aten::add")->charged_us, 14, 1e-9);
	ck_assert_double_eq_tol(f.kind[RL_KIND_POINTWISE].host_us, 14.5, 1e-9);
	rl_hostfit_release(&f);
	ck_assert_int_eq(rl_hostfit_run(c, 2, s, 3, 14.5, &f, &err), 0);
	ck_assert_double_eq_tol(f.scale, 0.5, 1e-12);
	ck_assert_double_eq_tol(f.span_us, 29, 1e-9);
	ck_assert_double_eq_tol(f.kind[RL_KIND_POINTWISE].host_us, 7.25, 1e-9);
	ck_assert_double_eq_tol(f.host_us, 7.25, 1e-9);
	ck_assert_double_eq_tol(find_name(&f, "aten::add")->charged_us, 7, 1e-9);
	rl_hostfit_release(&f);
}
END_TEST

START_TEST(test_threads_overlap)
{
	/* mul [0, 10] on one thread, copy_ [5, 20] on another: copy_ is
	 * charged only its time past what ran before it, 20 - 10 = 10, so that
	 * the charges still sum to the span, 20 */
	struct rl_hostfit_call c[] = {
		call("aten::mul", RL_KIND_POINTWISE, 1, 0, 10, 1),
		call("aten::copy_", RL_KIND_COPY, 1, 5, 20, 1),
	};
	struct rl_hostfit f;
	struct rl_err err;

	ck_assert_int_eq(rl_hostfit_run(c, 2, NULL, 0, 0, &f, &err), 0);
	ck_assert_double_eq_tol(f.span_us, 20, 1e-9);
	ck_assert_double_eq_tol(f.kind[RL_KIND_POINTWISE].host_us, 10, 1e-9);
	ck_assert_double_eq_tol(f.kind[RL_KIND_COPY].host_us, 10, 1e-9);
	ck_assert_double_eq_tol(find_name(&f, "aten::copy_")->median_us, 15, 1e-9);
	rl_hostfit_release(&f);
}
END_TEST

START_TEST(test_outliers)
{
	/* pointwise per kernel: 10, 10, 10, 10 and, at a new shape, 200 (one
	 * kernel): median 10; 200 > 5 x 10 and 190 > 100 us above: an outlier
	 * of 190. The first call (first_launch, 300 us) is left out, and so is
	 * a custom call of 400 us; the add at 40 us for 2 kernels is 20 per
	 * kernel, no outlier. Medians per kernel over the 6 pointwise calls:
	 * 10, 10, 10, 10, 20, 200, 300 -> 10. */
	struct rl_hostfit_call c[] = {
		call("aten::embedding", RL_KIND_POINTWISE, 1, 0, 300, 1),
		call("aten::mul", RL_KIND_POINTWISE, 1, 300, 310, 2),
		call("aten::mul", RL_KIND_POINTWISE, 1, 310, 320, 3),
		call("aten::mul", RL_KIND_POINTWISE, 1, 320, 330, 4),
		call("aten::mul", RL_KIND_POINTWISE, 1, 330, 340, 5),
		call("aten::mul", RL_KIND_POINTWISE, 1, 340, 540, 6),
		call("aten::add", RL_KIND_POINTWISE, 2, 540, 580, 6),
		call("custom_op", RL_KIND_CUSTOM, 1, 580, 980, 6),
	};
	struct rl_hostfit f;
	struct rl_err err;

	c[0].first_launch = 1;
	ck_assert_int_eq(rl_hostfit_run(c, ARRAY_SIZE(c), NULL, 0, 0, &f, &err), 0);
	ck_assert_double_eq_tol(f.kind[RL_KIND_POINTWISE].median_us, 10, 1e-9);
	ck_assert_uint_eq(f.noutliers, 1);
	ck_assert_uint_eq(f.outliers[0].call, 5);
	ck_assert_str_eq(f.outliers[0].name, "aten::mul");
	ck_assert_double_eq_tol(f.outliers[0].own_us, 200, 1e-9);
	ck_assert_double_eq_tol(f.outliers[0].extra_us, 190, 1e-9);
	ck_assert_int_eq(f.outliers[0].new_shape, 1);
	/* mul's median own time 10: 200 is also an extra (new shape, > 2 x,
	 * 190 above) */
	ck_assert_uint_eq(f.nextras, 1);
	ck_assert_double_eq_tol(f.extras[0].extra_us, 190, 1e-9);
	rl_hostfit_release(&f);
}
END_TEST

START_TEST(test_errors)
{
	struct rl_hostfit_call none[] = {call("aten::view", -1, 0, 0, 5, 1)};
	struct rl_hostfit_call zero[] = {call("aten::mul", RL_KIND_POINTWISE, 1, 5, 5, 1)};
	struct rl_hostfit_call bad[] = {call("aten::mul", RL_KIND_COUNT, 1, 0, 5, 1)};
	struct rl_hostfit_call back[] = {call("aten::mul", RL_KIND_POINTWISE, 1, 5, 4, 1)};
	struct rl_hostfit f;
	struct rl_err err;

	ck_assert_int_eq(rl_hostfit_run(none, 1, NULL, 0, 0, &f, &err), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(err.msg, "no CPU op in the trace launched a kernel"));
	ck_assert_int_eq(rl_hostfit_run(NULL, 0, NULL, 0, 0, &f, &err), RL_ERR_ARG);
	ck_assert_int_eq(rl_hostfit_run(zero, 1, NULL, 0, 0, &f, &err), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(err.msg, "host span is 0 us"));
	ck_assert_int_eq(rl_hostfit_run(bad, 1, NULL, 0, 0, &f, &err), RL_ERR_ARG);
	ck_assert_int_eq(rl_hostfit_run(back, 1, NULL, 0, 0, &f, &err), RL_ERR_ARG);
	ck_assert_ptr_null(f.names);
	rl_hostfit_release(NULL);
}
END_TEST

Suite *suite_hostfit(void)
{
	Suite *s = suite_create("hostfit");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_charges);
	tcase_add_test(tc, test_extras);
	tcase_add_test(tc, test_skips_scale);
	tcase_add_test(tc, test_threads_overlap);
	tcase_add_test(tc, test_outliers);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}
