/* check_hostfit.c - the host fit (hostfit.h) on hand-built host timelines:
 * the charge of each call (its gap, its time, what kernel-less calls pass
 * on), the per-kind and per-name figures, the extras at new shapes, the
 * profiler's spans, the scale, overlapping threads, the outliers, the
 * errors; the calls of a hand-written trace (hostcalls.h) and the runtime
 * file written from a fit, read back. Every figure is worked out in the
 * comments. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "hostcalls.h"
#include "hostfit.h"
#include "hostfit_write.h"
#include "hwdb.h"
#include "kind.h"
#include "trace.h"

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

/* A trace by hand, thread 1: aten::mm [100, 130] launching kernel 1 (its
 * launch at 110) with aten::mm nested in it (autocast's double record);
 * aten::view [140, 142] (nothing); aten::add [150, 160] launching 2 and a
 * memset 3. Thread 2: aten::relu [105, 125] launching 4 (the first launch,
 * at 106). A launch at 200 outside any op (kernel 5), a kernel 6 whose
 * launch is not in the trace; an overhead span [141, 145]. */
static const char trace_text[] =
    "{\"cuda_runtime_version\": 13000, \"traceEvents\": [\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, "
    "\"ts\": 100, \"dur\": 30, \"args\": {\"Input Dims\": [[64, 32], [32, 16]], "
    "\"Input type\": [\"float\", \"float\"]}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, "
    "\"ts\": 101, \"dur\": 28, \"args\": {\"Input Dims\": [[64, 32], [32, 16]], "
    "\"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\"]}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::view\", \"pid\": 1, \"tid\": 1, "
    "\"ts\": 140, \"dur\": 2},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"pid\": 1, \"tid\": 1, "
    "\"ts\": 150, \"dur\": 10, \"args\": {\"Input Dims\": [[8, 8], [8, 8], []], "
    "\"Input type\": [\"float\", \"float\", \"Scalar\"]}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::relu\", \"pid\": 1, \"tid\": 2, "
    "\"ts\": 105, \"dur\": 20, \"args\": {\"Input Dims\": [[8]], \"Input type\": [\"float\"]}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
    "\"tid\": 1, \"ts\": 110, \"dur\": 5, \"args\": {\"correlation\": 1}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
    "\"tid\": 1, \"ts\": 152, \"dur\": 2, \"args\": {\"correlation\": 2}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaMemsetAsync\", \"pid\": 1, "
    "\"tid\": 1, \"ts\": 155, \"dur\": 2, \"args\": {\"correlation\": 3}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
    "\"tid\": 2, \"ts\": 106, \"dur\": 3, \"args\": {\"correlation\": 4}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
    "\"tid\": 1, \"ts\": 200, \"dur\": 4, \"args\": {\"correlation\": 5}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k1\", \"pid\": 0, \"tid\": 7, \"ts\": 120, "
    "\"dur\": 5, \"args\": {\"correlation\": 1}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k2\", \"pid\": 0, \"tid\": 7, \"ts\": 160, "
    "\"dur\": 1, \"args\": {\"correlation\": 2}},\n"
    "{\"ph\": \"X\", \"cat\": \"gpu_memset\", \"name\": \"m3\", \"pid\": 0, \"tid\": 7, \"ts\": 162, "
    "\"dur\": 1, \"args\": {\"correlation\": 3}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k4\", \"pid\": 0, \"tid\": 7, \"ts\": 130, "
    "\"dur\": 1, \"args\": {\"correlation\": 4}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k5\", \"pid\": 0, \"tid\": 7, \"ts\": 210, "
    "\"dur\": 1, \"args\": {\"correlation\": 5}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k6\", \"pid\": 0, \"tid\": 7, \"ts\": 220, "
    "\"dur\": 1, \"args\": {\"correlation\": 99}},\n"
    "{\"ph\": \"X\", \"cat\": \"overhead\", \"name\": \"Activity Buffer Request\", \"pid\": -1, "
    "\"tid\": 0, \"ts\": 141, \"dur\": 4}\n"
    "]}\n";

static void read_trace(struct rl_trace *t)
{
	char path[] = "/tmp/roofline-hostfit-XXXXXX";
	struct rl_err e;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, trace_text, sizeof(trace_text) - 1),
	                 (ssize_t)(sizeof(trace_text) - 1));
	close(fd);
	ck_assert_msg(rl_trace_read(path, t, &e) == 0, "%s", e.msg);
	unlink(path);
}

START_TEST(test_calls_from_trace)
{
	/* calls in order of start: mm [100, 130] 1 kernel, relu [105, 125] 1
	 * (thread 2; the first launch, at 106), view [140, 142] none, add
	 * [150, 160] 2 (a kernel and a memset), the orphan launch [200, 204]
	 * 1, custom. Kernel 6 is unlinked. The fit: mm 30; relu inside mm's
	 * time: 0; view 2 - 1 (the overhead [141, 145] covers 141-142) + the
	 * gap 140 - 130 = 10 -> 11, passed to add: 11 + gap 150 - 142 = 8,
	 * of which 3 (145 - 142) is the profiler's: 5, + 10 = 26; the orphan:
	 * gap 40 + 4 = 44. Span 204 - 100 - 4 = 100. */
	struct rl_trace t;
	struct rl_hostcalls hc;
	struct rl_hostfit f;
	struct rl_err e;
	char stack[1024];

	read_trace(&t);
	ck_assert_int_eq(rl_hostcalls_build(&t, &hc, &e), 0);
	ck_assert_uint_eq(hc.n, 5);
	ck_assert_uint_eq(hc.threads, 2);
	ck_assert_uint_eq(hc.gpu, 5);
	ck_assert_uint_eq(hc.unlinked, 1);
	ck_assert_uint_eq(hc.orphans, 1);
	ck_assert_uint_eq(hc.nskips, 1);
	ck_assert_str_eq(hc.calls[0].name, "aten::mm");
	ck_assert_int_eq(hc.calls[0].kind, RL_KIND_MATMUL);
	ck_assert_uint_eq(hc.calls[0].kernels, 1);
	ck_assert_int_eq(hc.calls[0].first_launch, 0);
	ck_assert_str_eq(hc.calls[1].name, "aten::relu");
	ck_assert_int_eq(hc.calls[1].kind, RL_KIND_POINTWISE);
	ck_assert_int_eq(hc.calls[1].first_launch, 1);
	ck_assert_str_eq(hc.calls[2].name, "aten::view");
	ck_assert_int_eq(hc.calls[2].kind, -1);
	ck_assert_uint_eq(hc.calls[2].kernels, 0);
	ck_assert_str_eq(hc.calls[3].name, "aten::add");
	ck_assert_int_eq(hc.calls[3].kind, RL_KIND_POINTWISE);
	ck_assert_uint_eq(hc.calls[3].kernels, 2);
	ck_assert_str_eq(hc.calls[4].name, "cudaLaunchKernel");
	ck_assert_int_eq(hc.calls[4].kind, RL_KIND_CUSTOM);
	ck_assert_int_eq(hc.calls[4].start_ns, 200000);
	ck_assert_int_eq(hc.calls[4].end_ns, 204000);
	ck_assert_int_eq(rl_hostfit_run(hc.calls, hc.n, hc.skips, hc.nskips, 0, &f, &e), 0);
	ck_assert_double_eq_tol(f.span_us, 100, 1e-9);
	ck_assert_double_eq_tol(f.skipped_us, 4, 1e-9);
	ck_assert_double_eq_tol(f.kind[RL_KIND_MATMUL].host_us, 30, 1e-9);
	/* pointwise: relu 0 + add 26 over 3 kernels */
	ck_assert_double_eq_tol(f.kind[RL_KIND_POINTWISE].charged_us, 26, 1e-9);
	ck_assert_uint_eq(f.kind[RL_KIND_POINTWISE].kernels, 3);
	ck_assert_double_eq_tol(f.kind[RL_KIND_CUSTOM].host_us, 44, 1e-9);
	rl_hostcalls_stack(&t, stack, sizeof(stack));
	ck_assert_ptr_nonnull(strstr(stack, "PyTorch: version not recorded in the trace\n"));
	ck_assert_ptr_nonnull(strstr(stack, "cuda_runtime_version: 13000\n"));
	ck_assert_ptr_nonnull(strstr(stack, "GPU: no deviceProperties in the trace\n"));
	ck_assert_ptr_nonnull(strstr(stack, "CPU: unknown"));
	rl_hostfit_release(&f);
	rl_hostcalls_release(&hc);
	rl_trace_release(&t);
}
END_TEST

START_TEST(test_calls_errors)
{
	struct rl_trace t;
	struct rl_hostcalls hc;
	struct rl_err e;

	memset(&t, 0, sizeof(t));
	t.name = (char *)"x.json";
	ck_assert_int_eq(rl_hostcalls_build(&t, &hc, &e), RL_ERR_PARSE);
	ck_assert_str_eq(e.msg, "x.json: no CPU ops in the trace: the host time cannot be charged "
	                        "to the ops that launch the kernels (record it with "
	                        "activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA])");
	ck_assert_ptr_null(hc.calls);
	rl_hostcalls_release(&hc);
}
END_TEST

/* The file written from the fit of test_extras reads back as a runtime:
 * matmul 21.40, host_extra_us.matmul 78.00, every figure with a source. */
START_TEST(test_write_reads_back)
{
	struct rl_hostfit_call c[] = {
		call("aten::linear", RL_KIND_MATMUL, 1, 0, 100, 1),
		call("aten::linear", RL_KIND_MATMUL, 1, 100, 120, 1),
		call("aten::linear", RL_KIND_MATMUL, 1, 120, 145, 2),
		call("aten::linear", RL_KIND_MATMUL, 1, 145, 167, 2),
		call("aten::linear", RL_KIND_MATMUL, 1, 167, 185, 3),
	};
	struct rl_hostfit_origin o;
	struct rl_hostfit f;
	struct rl_runtime rt;
	struct rl_err e;
	char path[] = "/tmp/roofline-hostfit-XXXXXX";
	int fd = mkstemp(path);
	FILE *out;

	ck_assert_int_ge(fd, 0);
	out = fdopen(fd, "w");
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(rl_hostfit_run(c, ARRAY_SIZE(c), NULL, 0, 0, &f, &e), 0);
	memset(&o, 0, sizeof(o));
	o.id = "t1";
	o.name = "a test; with a semicolon";
	o.trace = "dir/x;y.json";
	o.when = "2026-12-02T00:00:00Z";
	o.version = "0";
	o.stack = "CPU: unknown\nGPU: none";
	o.threads = 1;
	ck_assert_int_eq(rl_hostfit_write(out, &f, &o), 0);
	fclose(out);
	ck_assert_msg(rl_runtime_load(path, &rt, &e) == 0, "%s", e.msg);
	unlink(path);
	ck_assert_str_eq(rt.id, "t1");
	ck_assert_str_eq(rt.name, "a test, with a semicolon");
	ck_assert_double_eq_tol(rt.host_overhead_us.value, 21.4, 1e-9);
	ck_assert_int_eq(rt.host_kind_us[RL_KIND_MATMUL].present, 1);
	ck_assert_double_eq_tol(rt.host_kind_us[RL_KIND_MATMUL].value, 21.4, 1e-9);
	ck_assert_int_eq(rt.host_extra_us[RL_KIND_MATMUL].present, 1);
	ck_assert_double_eq_tol(rt.host_extra_us[RL_KIND_MATMUL].value, 78, 1e-9);
	ck_assert_int_eq(rt.host_kind_us[RL_KIND_POINTWISE].present, 0);
	ck_assert_ptr_nonnull(strstr(rt.host_extra_us[RL_KIND_MATMUL].source, "dir/x,y.json"));
	rl_runtime_release(&rt);
	rl_hostfit_release(&f);
}
END_TEST

START_TEST(test_advice)
{
	/* test_outliers' timeline: one outlier, aten::mul, the 6th call,
	 * 200 us against a median of 10 per kernel: 20.0 x */
	struct rl_hostfit_call c[] = {
		call("aten::embedding", RL_KIND_POINTWISE, 1, 0, 300, 1),
		call("aten::mul", RL_KIND_POINTWISE, 1, 300, 310, 2),
		call("aten::mul", RL_KIND_POINTWISE, 1, 310, 320, 3),
		call("aten::mul", RL_KIND_POINTWISE, 1, 320, 330, 4),
		call("aten::mul", RL_KIND_POINTWISE, 1, 330, 340, 5),
		call("aten::mul", RL_KIND_POINTWISE, 1, 340, 540, 6),
	};
	struct rl_hostfit f;
	struct rl_err e;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	c[0].first_launch = 1;
	ck_assert_int_eq(rl_hostfit_run(c, ARRAY_SIZE(c), NULL, 0, 0, &f, &e), 0);
	ck_assert_int_eq(rl_hostfit_write_advice(out, &f, 0), 0);
	fclose(out);
	ck_assert_str_eq(buf,
	                 "host: 1 call far above its kind's CPU time per launch:\n"
	                 "  aten::mul (pointwise), call 6 of the step, the first at its input shapes:\n"
	                 "    200.0 us of CPU, 20.0 x the pointwise median of 10.0 us per kernel "
	                 "launched:\n"
	                 "    a library's plan or cache built for new shapes (cuDNN's SDPA plan on a\n"
	                 "    new KV length), or a wait on the GPU (a synchronize, a copy to the host)\n");
	free(buf);
	rl_hostfit_release(&f);
	/* none: nothing written */
	buf = NULL;
	out = open_memstream(&buf, &len);
	c[5].end_ns = 350 * US;
	ck_assert_int_eq(rl_hostfit_run(c, ARRAY_SIZE(c), NULL, 0, 0, &f, &e), 0);
	ck_assert_int_eq(rl_hostfit_write_advice(out, &f, 1), 0);
	fclose(out);
	ck_assert_uint_eq(len, 0);
	free(buf);
	rl_hostfit_release(&f);
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
	tcase_add_test(tc, test_calls_from_trace);
	tcase_add_test(tc, test_calls_errors);
	tcase_add_test(tc, test_write_reads_back);
	tcase_add_test(tc, test_advice);
	suite_add_tcase(s, tc);
	return s;
}
