/* check_chart.c - the chart geometry (log axes, roofs, ridge points, point
 * sizes) against pixel positions worked out by hand, and the SVG writer's
 * escaping and content. */
#include "config.h"

#include <math.h>
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
	struct rl_axis a = {1, 0.1, 1e4, 110, 750};

	ck_assert_double_eq_tol(rl_axis_px(&a, x_cases[_i].v), x_cases[_i].px, 1e-9);
}
END_TEST

START_TEST(test_axis_log_y)
{
	/* 1e11 .. 1e15 from y = 520 up to y = 70: 112.5 px per decade, upwards */
	struct rl_axis a = {1, 1e11, 1e15, 520, 70};

	ck_assert_double_eq_tol(rl_axis_px(&a, 1e11), 520, 1e-9);
	ck_assert_double_eq_tol(rl_axis_px(&a, 1e13), 295, 1e-9); /* 520 - 2 x 112.5 */
	ck_assert_double_eq_tol(rl_axis_px(&a, 1e15), 70, 1e-9);
}
END_TEST

START_TEST(test_axis_linear)
{
	/* ops 1..11 on 0.5 .. 11.5: 640 px / 11 per op */
	struct rl_axis a = {0, 0.5, 11.5, 110, 750};

	ck_assert_double_eq_tol(rl_axis_px(&a, 1), 110 + 0.5 * 640 / 11, 1e-9);
	ck_assert_double_eq_tol(rl_axis_px(&a, 6), 430, 1e-9); /* the middle */
}
END_TEST

static const struct {
	double min, max, lo, hi;
} fit_cases[] = {
	{0.167, 5342, 0.1, 1e4},
	{3, 3, 1, 10},     /* at least one decade */
	{1, 100, 1, 100},  /* powers of ten stay */
	{0.02, 0.5, 0.01, 1},
};

START_TEST(test_axis_fit)
{
	struct rl_axis a;

	memset(&a, 0, sizeof(a));
	rl_axis_fit_decades(&a, fit_cases[_i].min, fit_cases[_i].max);
	ck_assert_int_eq(a.log, 1);
	ck_assert_double_eq_tol(a.lo, fit_cases[_i].lo, fit_cases[_i].lo * 1e-12);
	ck_assert_double_eq_tol(a.hi, fit_cases[_i].hi, fit_cases[_i].hi * 1e-12);
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

/* Builds a chart of TEXT classified on the H100 SXM with no host overhead. */
static rl_chart *chart_of(const char *text, struct rl_device *dev, struct rl_oplist *l)
{
	struct rl_chart_info info = {dev, "eager", 0, "dir/ops.csv"};
	struct rl_model_ctx ctx = {dev, 0};
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
	ck_assert_double_eq_tol(rl_axis_px(&lay.x, lay.roof[0].ridge), 345.25, 0.01);
	/* and at 989.4e12 FLOP/s: 520 - (14.99537 - 13) / (15.39331 - 13) x 450
	 * = 520 - 375.18 = 144.82 */
	ck_assert_double_eq_tol(rl_axis_px(&lay.y, lay.roof[0].peak_flops), 144.82, 0.01);
	/* the op's point: 110 + (log10 1365.33 - 1) x 160 = 110 + 2.13524 x 160 */
	ck_assert_double_eq_tol(rl_axis_px(&lay.x, rl_chart_point(c, 0)->intensity), 451.64, 0.01);
	/* measured 200 us: 137.44 GFLOP / 200 us = 687.2 TFLOP/s */
	ck_assert_double_eq_tol(rl_chart_point(c, 0)->flops / (rl_chart_point(c, 0)->measured_us * 1e-6),
	                        687.19e12, 0.01e12);
	rl_chart_free(c);
	rl_oplist_release(&l);
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

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

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
	ck_assert_ptr_nonnull(strstr(a, ">1 op without FLOPs or<"));
	ck_assert_ptr_nonnull(strstr(a, "</svg>\n"));

	/* the array entry point draws the same chart */
	ctx.dev = &dev;
	ctx.host_overhead_us = 0;
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
	tcase_add_test(tc, test_radius);
	tcase_add_test(tc, test_roofs_of_pipes_used);
	tcase_add_test(tc, test_only_copies_get_fp32_roof);
	tcase_add_test(tc, test_layout_ridge);
	tcase_add_loop_test(tc, test_svg_text, 0, ARRAY_SIZE(text_cases));
	tcase_add_test(tc, test_svg_roofline_content);
	tcase_add_test(tc, test_svg_sweep_axis);
	suite_add_tcase(s, tc);
	return s;
}
