/* check_chart.c - the chart geometry (log axes, roofs, ridge points, point
 * sizes) against pixel positions worked out by hand, and the SVG writer's
 * escaping and content. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "check.h"
#include "model.h"
#include "oplist.h"
#include "svg.h"

/* Log axis 0.1 .. 1e4 over 110 .. 750 px: five decades of 128 px. */
static const struct {
	double v, px;
} x_cases[] = {
	{0.1, 110},
	{1, 238},                /* 110 + 1 x 128 */
	{100, 494},              /* 110 + 3 x 128 */
	{1e4, 750},
	{3.16227766016838, 302}, /* sqrt(10): half a decade past 1, 238 + 64 */
};

START_TEST(test_axis_log_x)
{
	struct rl_chart_axis a = {1, 0.1, 1e4, 110, 750};

	ck_assert_double_eq_tol(rl_chart_axis_px(&a, x_cases[_i].v), x_cases[_i].px, 1e-9);
}
END_TEST

START_TEST(test_axis_log_y)
{
	/* 1e11 .. 1e15 from y = 520 up to y = 70: 112.5 px per decade, upwards */
	struct rl_chart_axis a = {1, 1e11, 1e15, 520, 70};

	ck_assert_double_eq_tol(rl_chart_axis_px(&a, 1e11), 520, 1e-9);
	ck_assert_double_eq_tol(rl_chart_axis_px(&a, 1e13), 295, 1e-9); /* 520 - 2 x 112.5 */
	ck_assert_double_eq_tol(rl_chart_axis_px(&a, 1e15), 70, 1e-9);
}
END_TEST

START_TEST(test_axis_linear)
{
	/* ops 1..11 on 0.5 .. 11.5: 640 px / 11 per op */
	struct rl_chart_axis a = {0, 0.5, 11.5, 110, 750};

	ck_assert_double_eq_tol(rl_chart_axis_px(&a, 1), 110 + 0.5 * 640 / 11, 1e-9);
	ck_assert_double_eq_tol(rl_chart_axis_px(&a, 6), 430, 1e-9); /* the middle */
}
END_TEST

static const struct {
	double min, max, lo, hi;
	int rc;
} fit_cases[] = {
	{0.167, 5342, 0.1, 1e4, 0},
	{3, 3, 1, 10, 0},     /* at least one decade */
	{1, 100, 1, 100, 0},  /* powers of ten stay */
	{0.02, 0.5, 0.01, 1, 0},
	{5, 3, 1, 10, 0},     /* swapped: the same range */
	/* the sweep's FLOP/s panel of copies alone: no value (lo = HUGE_VAL)
	 * and the fp32 roof 66.9e12: the roof's decade 1e13 .. 1e14 */
	{HUGE_VAL, 66.9e12, 1e13, 1e14, 0},
	{NAN, 5, 1, 10, 0},   /* 5 alone: 10^0 .. 10^1 */
	{-3, 100, 100, 1000, 0},
	{0, 0, 1, 10, RL_ERR_RANGE},
	{HUGE_VAL, HUGE_VAL, 1, 10, RL_ERR_RANGE},
	{NAN, -HUGE_VAL, 1, 10, RL_ERR_RANGE},
	/* 1e-310 -> 10^-300 at least; 300 decades cut to the top 40 */
	{1e-310, 1, 1e-40, 1, 0},
	/* 1e308 -> 10^300 at most, the top 40 decades kept */
	{1e-5, 1e308, 1e260, 1e300, 0},
};

START_TEST(test_axis_fit)
{
	struct rl_chart_axis a;

	memset(&a, 0, sizeof(a));
	ck_assert_int_eq(rl_chart_axis_fit(&a, fit_cases[_i].min, fit_cases[_i].max),
	                 fit_cases[_i].rc);
	ck_assert_int_eq(a.log, 1);
	ck_assert_double_eq_tol(a.lo, fit_cases[_i].lo, fit_cases[_i].lo * 1e-12);
	ck_assert_double_eq_tol(a.hi, fit_cases[_i].hi, fit_cases[_i].hi * 1e-12);
}
END_TEST

/* Decade lines: lo, 10 lo, ... while <= hi; bounded whatever the axis. */
static const struct {
	double lo, hi;
	int n;
} decade_cases[] = {
	{1, 1e4, 5},
	{1e13, 2.4735e15, 3},   /* 1e13, 1e14, 1e15 */
	{1 / 1.414, 64 * 1.414, 3}, /* 0.707, 7.07, 70.7 (90.5 ends it) */
	{0.1, 0.1, 1},
	{1, HUGE_VAL, 1}, /* the loop that never ended: no decade past lo */
	{HUGE_VAL, HUGE_VAL, 1},
	{NAN, 10, 1},
	{10, 1, 1},
	{1e-300, 1e300, RL_CHART_MAX_DECADES + 1},
};

START_TEST(test_axis_decades)
{
	struct rl_chart_axis a = {1, decade_cases[_i].lo, decade_cases[_i].hi, 0, 100};

	ck_assert_int_eq(rl_chart_axis_decades(&a), decade_cases[_i].n);
}
END_TEST

START_TEST(test_radius)
{
	ck_assert_double_eq_tol(rl_chart_radius(1), 24, 1e-12);
	ck_assert_double_eq_tol(rl_chart_radius(0.25), 12, 1e-12); /* 24 x 0.5 */
	ck_assert_double_eq_tol(rl_chart_radius(0.01), 2.5, 1e-12); /* 2.4: the floor */
	ck_assert_double_eq_tol(rl_chart_radius(0), 2.5, 1e-12);
}
END_TEST

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/* Builds a chart of TEXT classified on the H100 SXM with a host overhead of
 * OVERHEAD_US per launch. */
static rl_chart *chart_ovh(const char *text, double overhead_us, struct rl_device *dev,
                           struct rl_oplist *l)
{
	/* roofline times, worked out by hand: the best case */
	struct rl_chart_info info = {dev, "eager", overhead_us, "dir/ops.csv", 1, NULL};
	struct rl_model_ctx ctx = {.dev = dev, .host_overhead_us = overhead_us, .best_case = 1};
	struct rl_errlist errs;
	FILE *in = test_stream(text);
	rl_chart *c;
	size_t i;

	test_load_device("h100-sxm", dev);
	rl_errlist_init(&errs);
	ck_assert_int_eq(rl_oplist_read(in, "t.csv", l, &errs), 0);
	fclose(in);
	ck_assert_int_eq(rl_chart_new(&info, &c), 0);
	for (i = 0; i < l->n; i++) {
		struct rl_pred p;

		ck_assert_int_eq(rl_predict(&l->ops[i], &ctx, &p, NULL), 0);
		ck_assert_int_eq(rl_chart_add(c, &l->ops[i], &p), 0);
	}
	return c;
}

/* The same with no host overhead. */
static rl_chart *chart_of(const char *text, struct rl_device *dev, struct rl_oplist *l)
{
	return chart_ovh(text, 0, dev, l);
}

/* H100 SXM datasheet: 3350 GB/s, bf16 tensor 989.4, bf16 vector 133.8, fp32
 * vector 66.9 TFLOP/s. */
START_TEST(test_roofs_of_pipes_used)
{
	struct rl_device dev;
	struct rl_oplist l;
	struct rl_chart_roof roof[RL_CHART_MAX_ROOFS];
	rl_chart *c = chart_of("name,kind,dtype,shape,fma\n"
	                       "mm,matmul,bf16,4096x4096x4096,\n"
	                       "mm2,matmul,bf16,64x64x64,\n"
	                       "act,pointwise,bf16,4096x4096,\n"
	                       "fmadd,pointwise,fp32,4096,1\n"
	                       "cp,copy,bf16,4096,\n",
	                       &dev, &l);
	size_t n = rl_chart_roofs(c, roof);

	/* three pipes, the copy uses none; highest first, and the equal
	 * 66.9 TFLOP/s roofs (fp32 FMA, bf16 non-FMA = 133.8 / 2) in pipe order */
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(roof[0].pipe, RL_PIPE_BF16_TENSOR);
	ck_assert_double_eq_tol(roof[0].peak_flops, 989.4e12, 1e3);
	ck_assert_double_eq_tol(roof[0].ridge, 295.343, 1e-3); /* 989.4e12 / 3350e9 */
	ck_assert_int_eq(roof[1].pipe, RL_PIPE_FP32_VECTOR);
	ck_assert_int_eq(roof[1].fma, 1);
	ck_assert_double_eq_tol(roof[1].peak_flops, 66.9e12, 1e3);
	ck_assert_double_eq_tol(roof[1].ridge, 19.970, 1e-3); /* 66.9e12 / 3350e9 */
	ck_assert_int_eq(roof[2].pipe, RL_PIPE_BF16_VECTOR);
	ck_assert_int_eq(roof[2].fma, 0);
	ck_assert_double_eq_tol(roof[2].peak_flops, 66.9e12, 1e3);
	rl_chart_free(c);
	rl_oplist_release(&l);
	rl_device_release(&dev);
}
END_TEST

START_TEST(test_only_copies_get_fp32_roof)
{
	struct rl_device dev;
	struct rl_oplist l;
	struct rl_chart_roof roof[RL_CHART_MAX_ROOFS];
	rl_chart *c = chart_of("name,kind,dtype,shape\ncp,copy,bf16,4096\n", &dev, &l);

	ck_assert_uint_eq(rl_chart_roofs(c, roof), 1);
	ck_assert_int_eq(roof[0].pipe, RL_PIPE_FP32_VECTOR);
	ck_assert_double_eq_tol(roof[0].peak_flops, 66.9e12, 1e3);
	rl_chart_free(c);
	rl_oplist_release(&l);
	rl_device_release(&dev);
}
END_TEST

/* One bf16 matmul 4096^3: flops = 2 x 4096^3 = 137,438,953,472, bytes =
 * 2 x 3 x 4096^2 = 100,663,296, intensity 1365.33 FLOP/B, compute-bound at
 * 989.4 TFLOP/s. x: from the ridge / 10 = 29.5 down to 10, up to 1365 x 10
 * -> 1e5: 4 decades of 160 px from 110. y: from the memory roof at x = 10
 * (3.35e13) down to 1e13, up to 2.5 x 989.4e12 = 2.4735e15, 450 px. */
START_TEST(test_layout_ridge)
{
	struct rl_device dev;
	struct rl_oplist l;
	struct rl_chart_layout lay;
	rl_chart *c = chart_of("name,kind,dtype,shape,measured_us\n"
	                       "mm,matmul,bf16,4096x4096x4096,200\n",
	                       &dev, &l);

	rl_chart_layout(c, &lay);
	ck_assert_uint_eq(lay.nroofs, 1);
	ck_assert_uint_eq(lay.plotted, 1);
	ck_assert_double_eq_tol(lay.bandwidth, 3350e9, 1);
	ck_assert_double_eq_tol(lay.x.lo, 10, 1e-9);
	ck_assert_double_eq_tol(lay.x.hi, 1e5, 1e-6);
	ck_assert_double_eq_tol(lay.y.lo, 1e13, 1);
	ck_assert_double_eq_tol(lay.y.hi, 2.4735e15, 1e3);
	/* the ridge at 295.343 FLOP/B: 110 + (log10 295.343 - 1) x 160
	 * = 110 + 1.47033 x 160 = 345.25 */
	ck_assert_double_eq_tol(rl_chart_axis_px(&lay.x, lay.roof[0].ridge), 345.25, 0.01);
	/* and at 989.4e12 FLOP/s: 520 - (14.99537 - 13) / (15.39331 - 13) x 450
	 * = 520 - 375.18 = 144.82 */
	ck_assert_double_eq_tol(rl_chart_axis_px(&lay.y, lay.roof[0].peak_flops), 144.82, 0.01);
	/* the op's point: 110 + (log10 1365.33 - 1) x 160 = 110 + 2.13524 x 160 */
	ck_assert_double_eq_tol(rl_chart_axis_px(&lay.x, rl_chart_point(c, 0)->intensity), 451.64, 0.01);
	/* measured 200 us: 137.44 GFLOP / 200 us = 687.2 TFLOP/s */
	ck_assert_double_eq_tol(rl_chart_point(c, 0)->flops / (rl_chart_point(c, 0)->measured_us * 1e-6),
	                        687.19e12, 0.01e12);
	rl_chart_free(c);
	rl_oplist_release(&l);
	rl_device_release(&dev);
}
END_TEST

/* With 10 us of host overhead per launch: "pw", fp32 pointwise over 1024
 * elements, 1024 FLOPs and 2 x 1024 x 4 = 8192 bytes (0.125 FLOP/B), takes
 * 10 us (its memory time is 2.4 ns, the launch floor about 1 us): it
 * achieves 1024 / 10 us = 1.024e8 FLOP/s, far below its roof 0.125 x
 * 3350e9 = 4.1875e11. "mm" (4096^3 bf16, 138.9 us of compute) reaches its
 * roof, 989.4e12. "cp" has no FLOPs: 4096 bf16 elements read and written,
 * 16384 bytes, no point. Layout: x from 0.1 (below 0.125) to 1e5 (10 x
 * 1365.33), 6 decades of 106.67 px; y from 1e8 (below 1.024e8) to 2.5 x
 * 989.4e12 = 2.4735e15, 450 px over log10(2.4735e15) - 8 = 7.39331
 * decades. */
START_TEST(test_overhead_point_below_roof)
{
	struct rl_device dev;
	struct rl_oplist l;
	struct rl_chart_layout lay;
	rl_chart *c = chart_ovh("name,kind,dtype,shape\n"
	                        "mm,matmul,bf16,4096x4096x4096\n"
	                        "pw,pointwise,fp32,1024\n"
	                        "cp,copy,bf16,4096\n",
	                        10, &dev, &l);
	const struct rl_chart_point *mm = rl_chart_point(c, 0), *pw = rl_chart_point(c, 1);
	char *a = NULL;
	size_t alen = 0;
	FILE *f;

	ck_assert_int_eq(pw->bound, RL_BOUND_OVERHEAD);
	ck_assert_double_eq_tol(pw->attainable_flops, 4.1875e11, 1e5);
	ck_assert_double_eq_tol(pw->predicted_flops, 1.024e8, 1);
	ck_assert_int_eq(mm->bound, RL_BOUND_COMPUTE);
	ck_assert_double_eq_tol(mm->predicted_flops, 989.4e12, 1e3);
	rl_chart_layout(c, &lay);
	ck_assert_uint_eq(lay.plotted, 2);
	ck_assert_uint_eq(lay.copies, 1);
	ck_assert_uint_eq(lay.no_bytes, 0);
	ck_assert_double_eq_tol(lay.x.lo, 0.1, 1e-12);
	ck_assert_double_eq_tol(lay.x.hi, 1e5, 1e-6);
	ck_assert_double_eq_tol(lay.y.lo, 1e8, 1e-3);
	ck_assert_double_eq_tol(lay.y.hi, 2.4735e15, 1e3);
	/* pw: x = 110 + (log10 0.125 + 1) x 106.667 = 110 + 0.09691 x 106.667
	 * = 120.34; y = 520 - (log10 1.024e8 - 8) / 7.39331 x 450 = 520 -
	 * 0.010300 / 7.39331 x 450 = 519.37 (on the roof it would be at 520 -
	 * 3.62195 / 7.39331 x 450 = 299.55) */
	ck_assert_double_eq_tol(rl_chart_axis_px(&lay.x, pw->intensity), 120.34, 0.01);
	ck_assert_double_eq_tol(rl_chart_axis_px(&lay.y, pw->predicted_flops), 519.37, 0.01);
	f = open_memstream(&a, &alen);
	ck_assert_int_eq(rl_svg_roofline(f, c), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(a, "<circle cx=\"120.3\" cy=\"519.4\""));
	ck_assert_ptr_null(strstr(a, "cy=\"299.5\""));
	ck_assert_ptr_nonnull(strstr(a, "pw: 0.125 FLOP/B, 102.4 MFLOP/s predicted (roof 418.8 GFLOP/s)"));
	/* the copy: in the legend with its share. Times: mm 138.9 us, pw 10 us,
	 * cp 10 us (host overhead): 10 / 158.9 = 6.3 % */
	ck_assert_ptr_nonnull(strstr(a, ">1 copy (no FLOPs): not<"));
	ck_assert_ptr_nonnull(strstr(a, ">6.3 % of the time<"));
	ck_assert_ptr_nonnull(strstr(a, "stroke=\"#555555\"><title>cp</title></rect>"));
	free(a);
	rl_chart_free(c);
	rl_oplist_release(&l);
	rl_device_release(&dev);
}
END_TEST

/* The sweep of copies alone (the endless loop of issue 11): cp, bf16
 * 4096 x 4096, moves 2 x 16777216 x 2 = 67,108,864 bytes in 67108864 /
 * 3350e9 = 20.03 us. Time: 10 .. 100 us. FLOP/s: no value, so the fp32 FMA
 * roof (66.9e12) alone: 1e13 .. 1e14, raised to 2 x 66.9e12 = 1.338e14.
 * Bandwidth: 3.35e12 achieved, and the bandwidth itself: 1e12 .. 1e13.
 * x: position 1 on 0.5 .. 1.5. */
START_TEST(test_sweep_copies_only)
{
	struct rl_device dev;
	struct rl_oplist l;
	struct rl_chart_sweep sw;
	struct rl_err err;
	rl_chart *c = chart_of("name,kind,dtype,shape\ncp,copy,bf16,4096x4096\n", &dev, &l);
	char *a = NULL;
	size_t alen = 0;
	FILE *f;

	ck_assert_int_eq(rl_chart_sweep_layout(c, &sw, &err), 0);
	ck_assert_int_eq(sw.by_fpe, 0);
	ck_assert_int_eq(sw.x.log, 0);
	ck_assert_double_eq_tol(sw.x.lo, 0.5, 1e-12);
	ck_assert_double_eq_tol(sw.x.hi, 1.5, 1e-12);
	ck_assert_uint_eq(sw.nticks, 1);
	ck_assert_double_eq_tol(sw.tick[0], 1, 1e-12);
	ck_assert_double_eq_tol(sw.y[RL_SWEEP_TIME].lo, 10, 1e-9);
	ck_assert_double_eq_tol(sw.y[RL_SWEEP_TIME].hi, 100, 1e-9);
	ck_assert_uint_eq(sw.points[RL_SWEEP_FLOPS], 0);
	ck_assert_double_eq_tol(sw.y[RL_SWEEP_FLOPS].lo, 1e13, 1);
	ck_assert_double_eq_tol(sw.y[RL_SWEEP_FLOPS].hi, 1.338e14, 1e3);
	ck_assert_double_eq_tol(sw.y[RL_SWEEP_BW].lo, 1e12, 1);
	ck_assert_double_eq_tol(sw.y[RL_SWEEP_BW].hi, 1e13, 1);
	/* panels from y = 80 down, 170 px high, 50 apart */
	ck_assert_double_eq_tol(sw.y[RL_SWEEP_FLOPS].px_hi, 300, 1e-9);
	ck_assert_double_eq_tol(sw.y[RL_SWEEP_FLOPS].px_lo, 470, 1e-9);
	f = open_memstream(&a, &alen);
	ck_assert_int_eq(rl_svg_sweep(f, c), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(a, ">no op with FLOPs to plot: 1 copy (no FLOPs)<"));
	/* the FLOP/s panel's ticks: 10 and 100 TFLOP/s, nothing else */
	ck_assert_uint_eq(count(a, "FLOP/s</text>"), 2 + 1); /* + the roof's label */
	ck_assert_ptr_nonnull(strstr(a, ">10 TFLOP/s</text>"));
	ck_assert_ptr_nonnull(strstr(a, ">100 TFLOP/s</text>"));
	ck_assert_ptr_nonnull(strstr(a, "</svg>\n"));
	free(a);
	rl_chart_free(c);
	rl_oplist_release(&l);
	rl_device_release(&dev);
}
END_TEST

/* A chart without ops: no sweep, a clear error; the roofline layout still
 * has finite axes (the fp32 roof, ridge 66.9e12 / 3350e9 = 19.97: x from
 * 1.997 -> 1 to 199.7 -> 1000, y from 3350e9 x 1 = 3.35e12 -> 1e12 to 2.5 x
 * 66.9e12). */
START_TEST(test_empty_chart)
{
	struct rl_device dev;
	struct rl_chart_info info = {&dev, "eager", 0, NULL, 0, NULL};
	struct rl_chart_sweep sw;
	struct rl_chart_layout lay;
	struct rl_err err;
	rl_chart *c;
	FILE *f = fopen("/dev/null", "w");

	test_load_device("h100-sxm", &dev);
	ck_assert_int_eq(rl_chart_new(&info, &c), 0);
	ck_assert_int_eq(rl_chart_sweep_layout(c, &sw, &err), RL_ERR_RANGE);
	ck_assert_str_eq(err.msg, "no ops to plot");
	ck_assert_int_eq(rl_svg_sweep(f, c), RL_ERR_RANGE);
	rl_chart_layout(c, &lay);
	ck_assert_uint_eq(lay.plotted, 0);
	ck_assert_double_eq_tol(lay.x.lo, 1, 1e-12);
	ck_assert_double_eq_tol(lay.x.hi, 1000, 1e-9);
	ck_assert_double_eq_tol(lay.y.lo, 1e12, 1);
	ck_assert_double_eq_tol(lay.y.hi, 1.6725e14, 1e3);
	fclose(f);
	rl_chart_free(c);
	rl_device_release(&dev);
}
END_TEST

/* x by flops_per_element: 1, 4, 64 padded by 1.414: 0.7072 .. 90.50, a
 * tick at each value; by position past 20 ops, a tick every ceil(25 / 10) =
 * 3rd op: 1, 4, ..., 25, nine of them. */
START_TEST(test_sweep_x)
{
	struct rl_device dev;
	struct rl_oplist l;
	struct rl_chart_sweep sw;
	rl_chart *c = chart_of("name,kind,dtype,shape,flops_per_element\n"
	                       "r1,pointwise,fp32,1048576,1\n"
	                       "r4,pointwise,fp32,1048576,4\n"
	                       "r64,pointwise,fp32,1048576,64\n"
	                       "r4b,pointwise,fp32,1048576,4\n",
	                       &dev, &l);
	char text[2048] = "name,kind,dtype,shape\n";
	size_t i;

	ck_assert_int_eq(rl_chart_sweep_layout(c, &sw, NULL), 0);
	ck_assert_int_eq(sw.by_fpe, 1);
	ck_assert_int_eq(sw.x.log, 1);
	ck_assert_double_eq_tol(sw.x.lo, 0.70721, 1e-5);
	ck_assert_double_eq_tol(sw.x.hi, 90.496, 1e-3);
	ck_assert_uint_eq(sw.nticks, 3);
	ck_assert_double_eq_tol(sw.tick[2], 64, 1e-12);
	ck_assert_double_eq_tol(rl_chart_sweep_x(&sw, rl_chart_point(c, 3)), 4, 1e-12);
	rl_chart_free(c);
	rl_oplist_release(&l);
	rl_device_release(&dev);

	for (i = 1; i <= 25; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
		         "op%zu,pointwise,fp32,1024\n", i);
	c = chart_of(text, &dev, &l);
	ck_assert_int_eq(rl_chart_sweep_layout(c, &sw, NULL), 0);
	ck_assert_int_eq(sw.by_fpe, 0);
	ck_assert_double_eq_tol(sw.x.hi, 25.5, 1e-12);
	ck_assert_uint_eq(sw.nticks, 9);
	ck_assert_double_eq_tol(sw.tick[1], 4, 1e-12);
	ck_assert_double_eq_tol(sw.tick[8], 25, 1e-12);
	ck_assert_double_eq_tol(rl_chart_sweep_x(&sw, rl_chart_point(c, 6)), 7, 1e-12);
	rl_chart_free(c);
	rl_oplist_release(&l);
	rl_device_release(&dev);
}
END_TEST

/* Numbers no reader should let through, given to the chart directly: a
 * total that overflows to inf, a measured time that makes inf FLOP/s. The
 * chart draws no "inf" or "nan", leaves the measured point out and says the
 * total is too large. Shares: 0 against an infinite total; 25 of 100 us is
 * 0.25. */
START_TEST(test_chart_absurd_numbers)
{
	struct rl_device dev;
	struct rl_chart_info info = {&dev, "eager", 0, NULL, 0, NULL};
	struct rl_op op;
	struct rl_pred p;
	rl_chart *c;
	char *a = NULL;
	size_t alen = 0;
	FILE *f;
	int sweep;

	test_load_device("h100-sxm", &dev);
	memset(&p, 0, sizeof(p));
	rl_op_init(&op);
	op.name = "huge";
	op.count = UINT64_MAX;
	op.has |= RL_HAS_MEASURED;
	op.measured_us = 1e-300;
	p.bound = RL_BOUND_COMPUTE;
	p.pipe = RL_PIPE_FP32_VECTOR;
	p.flops = 1e300;
	p.bytes = 1;
	p.intensity = 1e300;
	p.peak_flops = p.attainable_flops = 66.9e12;
	p.t_us = 1e300 / 66.9e12 * 1e6;
	p.expected_us = p.t_us; /* as rl_predict sets it with --best-case */
	p.expected_bound = p.bound;
	ck_assert_int_eq(rl_chart_new(&info, &c), 0);
	ck_assert_int_eq(rl_chart_add(c, &op, &p), 0);
	ck_assert(isinf(rl_chart_total_us(c)));
	ck_assert_double_eq(rl_chart_share(c, rl_chart_point(c, 0)->total_us), 0);
	ck_assert_double_eq(rl_chart_measured_flops(rl_chart_point(c, 0)), 0);
	for (sweep = 0; sweep < 2; sweep++) {
		f = open_memstream(&a, &alen);
		ck_assert_int_eq(sweep ? rl_svg_sweep(f, c) : rl_svg_roofline(f, c), 0);
		fclose(f);
		ck_assert_ptr_null(strstr(a, "inf"));
		ck_assert_ptr_null(strstr(a, "nan"));
		ck_assert_ptr_nonnull(strstr(a, "1 op, a time too large to print expected in all"));
		free(a);
		a = NULL;
	}
	rl_chart_free(c);

	/* an ordinary chart: 100 us in all */
	ck_assert_int_eq(rl_chart_new(&info, &c), 0);
	op.count = 4;
	op.measured_us = 50;
	p.flops = 1e9;
	p.t_us = p.expected_us = 25;
	ck_assert_int_eq(rl_chart_add(c, &op, &p), 0);
	ck_assert_double_eq_tol(rl_chart_total_us(c), 100, 1e-9);
	ck_assert_double_eq_tol(rl_chart_share(c, 25), 0.25, 1e-12);
	/* 1e9 FLOP in 50 us: 2e13 FLOP/s */
	ck_assert_double_eq_tol(rl_chart_measured_flops(rl_chart_point(c, 0)), 2e13, 1);
	rl_chart_free(c);
	rl_device_release(&dev);
}
END_TEST

static char *text_of(const char *s, size_t max)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	rl_svg_text(f, s, max);
	fclose(f);
	return buf;
}

static const struct {
	const char *in;
	size_t max;
	const char *out;
	size_t len;
} text_cases[] = {
	{"attn.qkv", 0, "attn.qkv", 8},
	{"a<b>&\"c'", 0, "a&lt;b&gt;&amp;&quot;c&apos;", 8},
	{"tab\there\nnl\x01", 0, "tab here nl ", 12},
	{"bad\xff", 0, "bad\xef\xbf\xbd", 4},
	{"over\xc0\xafl", 0, "over\xef\xbf\xbd\xef\xbf\xbdl", 7}, /* overlong '/' */
	{"caf\xc3\xa9", 0, "caf\xc3\xa9", 4},
	{"abcdef", 4, "abc\xe2\x80\xa6", 4},
	{"abcd", 4, "abcd", 4},
	{"\xc3\xa9\xc3\xa9\xc3\xa9", 2, "\xc3\xa9\xe2\x80\xa6", 2},
};

START_TEST(test_svg_text)
{
	char *got = text_of(text_cases[_i].in, text_cases[_i].max);

	ck_assert_str_eq(got, text_cases[_i].out);
	ck_assert_uint_eq(rl_svg_text_len(text_cases[_i].in, text_cases[_i].max),
	                  text_cases[_i].len);
	free(got);
}
END_TEST

START_TEST(test_svg_roofline_content)
{
	struct rl_device dev;
	struct rl_oplist l;
	struct rl_model_ctx ctx;
	struct rl_pred p[4];
	struct rl_chart_info info;
	rl_chart *c = chart_of("name,kind,dtype,shape\n"
	                       "\"x<y & \"\"z\"\"\",matmul,bf16,4096x4096x4096\n"
	                       "act,pointwise,bf16,4096x4096\n"
	                       "cp,copy,bf16,4096\n",
	                       &dev, &l);
	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0, i;
	FILE *f = open_memstream(&a, &alen);

	ck_assert_int_eq(rl_svg_roofline(f, c), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(a, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\""));
	ck_assert_ptr_nonnull(strstr(a, "NVIDIA H100 SXM5 80GB (h100-sxm), eager runtime"));
	/* the source's last component only */
	ck_assert_ptr_nonnull(strstr(a, ">ops.csv: 3 ops"));
	ck_assert_ptr_null(strstr(a, "dir/"));
	/* the two roofs used, with their peaks and ridges (989.4e12 / 3350e9
	 * = 295; 66.9e12 / 3350e9 = 20.0) */
	ck_assert_ptr_nonnull(strstr(a, ">bf16 tensor 989.4 TFLOP/s<"));
	ck_assert_ptr_nonnull(strstr(a, ">bf16 vector, no FMA 66.9 TFLOP/s<"));
	ck_assert_ptr_nonnull(strstr(a, ">ridge 295<"));
	ck_assert_ptr_nonnull(strstr(a, ">ridge 20<"));
	ck_assert_ptr_null(strstr(a, "fp32 vector"));
	ck_assert_ptr_nonnull(strstr(a, ">memory 3.35 TB/s<"));
	/* the name escaped, never raw */
	ck_assert_ptr_nonnull(strstr(a, "x&lt;y &amp; &quot;z&quot;"));
	ck_assert_ptr_null(strstr(a, "x<y"));
	/* two op points (the copy has no FLOPs), each with a tooltip */
	ck_assert_uint_eq(count(a, "fill-opacity=\"0.55\" stroke=\"#d62728\"><title>"), 1);
	ck_assert_uint_eq(count(a, "fill-opacity=\"0.55\" stroke=\"#1f77b4\"><title>"), 1);
	ck_assert_ptr_nonnull(strstr(a, ">1 copy (no FLOPs): not<"));
	ck_assert_ptr_nonnull(strstr(a, "</svg>\n"));

	/* the array entry point draws the same chart */
	memset(&ctx, 0, sizeof(ctx));
	ctx.dev = &dev;
	ctx.host_overhead_us = 0;
	ctx.best_case = 1;
	for (i = 0; i < l.n; i++)
		ck_assert_int_eq(rl_predict(&l.ops[i], &ctx, &p[i], NULL), 0);
	info = *rl_chart_info(c);
	f = open_memstream(&b, &blen);
	ck_assert_int_eq(rl_svg_roofline_ops(f, &info, l.ops, p, l.n), 0);
	fclose(f);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	rl_chart_free(c);
	rl_oplist_release(&l);
	rl_device_release(&dev);
}
END_TEST

START_TEST(test_svg_sweep_axis)
{
	struct rl_device dev;
	struct rl_oplist l;
	rl_chart *c = chart_of("name,kind,dtype,shape,flops_per_element\n"
	                       "r1,pointwise,fp32,1048576,1\n"
	                       "r4,pointwise,fp32,1048576,4\n"
	                       "r64,pointwise,fp32,1048576,64\n",
	                       &dev, &l);
	char *a = NULL;
	size_t alen = 0;
	FILE *f = open_memstream(&a, &alen);

	ck_assert_int_eq(rl_svg_sweep(f, c), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(a, ">FLOPs per element (the flops_per_element column)<"));
	/* one tick per distinct value, in each of the three panels */
	ck_assert_uint_eq(count(a, "text-anchor=\"middle\">64</text>"), 3);
	/* the fp32 non-FMA roof (66.9 / 2) and the bandwidth as references */
	ck_assert_ptr_nonnull(strstr(a, "fp32 vector, no FMA 33.45 TFLOP/s"));
	ck_assert_ptr_nonnull(strstr(a, "memory 3.35 TB/s"));
	free(a);
	rl_chart_free(c);
	rl_oplist_release(&l);
	rl_device_release(&dev);
}
END_TEST

Suite *suite_chart(void)
{
	Suite *s = suite_create("chart");
	TCase *tc = tcase_create("chart");

	tcase_add_loop_test(tc, test_axis_log_x, 0, ARRAY_SIZE(x_cases));
	tcase_add_test(tc, test_axis_log_y);
	tcase_add_test(tc, test_axis_linear);
	tcase_add_loop_test(tc, test_axis_fit, 0, ARRAY_SIZE(fit_cases));
	tcase_add_loop_test(tc, test_axis_decades, 0, ARRAY_SIZE(decade_cases));
	tcase_add_test(tc, test_radius);
	tcase_add_test(tc, test_roofs_of_pipes_used);
	tcase_add_test(tc, test_only_copies_get_fp32_roof);
	tcase_add_test(tc, test_layout_ridge);
	tcase_add_test(tc, test_overhead_point_below_roof);
	tcase_add_test(tc, test_sweep_copies_only);
	tcase_add_test(tc, test_empty_chart);
	tcase_add_test(tc, test_sweep_x);
	tcase_add_test(tc, test_chart_absurd_numbers);
	tcase_add_loop_test(tc, test_svg_text, 0, ARRAY_SIZE(text_cases));
	tcase_add_test(tc, test_svg_roofline_content);
	tcase_add_test(tc, test_svg_sweep_axis);
	suite_add_tcase(s, tc);
	return s;
}
