/* check_bench.c - the host side of bench, calibrate and validate on values
 * worked out by hand: quantiles (numpy's default, type 7), per-entry
 * statistics, the knee of a sweep built from two roofs, the JSON recording
 * read back and its errors, the calibrated device file, and the validation
 * rules (error, overhead ratio, achieved fractions, confusion matrix).
 * check_recorded.c runs the same code on the recordings of an H200. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_report.h"
#include "calibrate.h"
#include "check.h"
#include "hwdb.h"
#include "json.h"
#include "validate.h"

static struct rl_bench_entry entry(enum rl_bench_group g, const char *name, const char *dtype,
                                   double bytes, double flops)
{
	struct rl_bench_entry e;

	memset(&e, 0, sizeof(e));
	e.group = g;
	snprintf(e.name, sizeof(e.name), "%s", name);
	snprintf(e.dtype, sizeof(e.dtype), "%s", dtype);
	e.bytes = bytes;
	e.flops = flops;
	e.check = 1;
	snprintf(e.method, sizeof(e.method), "made up for the test suite");
	return e;
}

static void gpu_h200(struct rl_gpu *g)
{
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "NVIDIA H200");
	g->cc_major = 9;
	g->sm_count = 132;
	g->clock_khz = 1980000;
	g->memory_clock_khz = 3201000;
	g->bus_width_bits = 6016;
	g->l2_bytes = 62914560;
	g->total_mem_bytes = 150109880320ull;
	g->driver_version = 13000;
	g->runtime_version = 13000;
}

START_TEST(quantile_type7)
{
	const double x[] = {4, 1, 3, 2};
	const double one[] = {7};

	/* h = (n - 1) q: q = 0.5 -> 1.5, between 2 and 3; q = 0.9 -> 2.7 */
	ck_assert_double_eq_tol(rl_quantile(x, 4, 0.5), 2.5, 1e-12);
	ck_assert_double_eq_tol(rl_quantile(x, 4, 0.9), 3.7, 1e-12);
	ck_assert_double_eq_tol(rl_quantile(x, 4, 0.0), 1, 1e-12);
	ck_assert_double_eq_tol(rl_quantile(x, 4, 1.0), 4, 1e-12);
	ck_assert_double_eq_tol(rl_quantile(one, 1, 0.9), 7, 1e-12);
}
END_TEST

START_TEST(stats_of_a_copy)
{
	struct rl_bench b;
	struct rl_bench_entry e = entry(RL_BENCH_MEMORY, "copy", "fp32", 2e9, 0);
	const double us[] = {500, 400, 600, 450, 550};
	struct rl_bench_stats s;

	rl_bench_init(&b);
	ck_assert_int_eq(rl_bench_add(&b, &e, us, 5, NULL), 0);
	rl_bench_stats(&b.e[0], &s);
	/* 2e9 bytes in 500 us = 4000 GB/s; best 400 us = 5000 GB/s */
	ck_assert_double_eq_tol(s.median_us, 500, 1e-9);
	ck_assert_double_eq_tol(s.gbs_median, 4000, 1e-9);
	ck_assert_double_eq_tol(s.gbs_best, 5000, 1e-9);
	/* p90: h = 3.6 between 550 and 600 -> 580; spread (580 - 400) / 500 */
	ck_assert_double_eq_tol(s.p90_us, 580, 1e-9);
	ck_assert_double_eq_tol(s.spread, 0.36, 1e-12);
	ck_assert_double_eq(s.tflops_median, 0);
	rl_bench_release(&b);
}
END_TEST

START_TEST(add_refuses_bad_samples)
{
	struct rl_bench b;
	struct rl_bench_entry e = entry(RL_BENCH_MEMORY, "copy", "fp32", 1, 0);
	const double bad[] = {1, -2};
	struct rl_err err;

	rl_bench_init(&b);
	ck_assert_int_eq(rl_bench_add(&b, &e, bad, 0, &err), RL_ERR_ARG);
	ck_assert_int_eq(rl_bench_add(&b, &e, bad, 2, &err), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(err.msg, "sample 2"));
	ck_assert_uint_eq(b.n, 0);
	rl_bench_release(&b);
}
END_TEST

/* A sweep of 1e6 fp32 elements (8 bytes each, read + write) on a GPU of
 * 4e12 bytes/s and 30e12 multiplies/s: t(r) = max(2 us, r / 30 us). The
 * roofs meet at 30 / 4 = 7.5 FLOP/byte, r = 60. */
static void add_sweep(struct rl_bench *b, const char *dtype, double elem_bytes)
{
	int r;

	for (r = 1; r <= 1024; r *= 2) {
		struct rl_bench_entry e = entry(RL_BENCH_SWEEP, "sweep", dtype, 1e6 * elem_bytes, 1e6 * r);
		double t = fmax(1e6 * elem_bytes / 4e12, 1e6 * r / 30e12) * 1e6;
		const double us[] = {t, t * 1.01, t * 0.99};

		e.repeat = r;
		ck_assert_int_eq(rl_bench_add(b, &e, us, 3, NULL), 0);
	}
}

START_TEST(sweep_knee)
{
	struct rl_bench b;
	struct rl_sweep s;
	struct rl_err err;

	rl_bench_init(&b);
	add_sweep(&b, "fp32", 8);
	add_sweep(&b, "bf16", 4);
	ck_assert_int_eq(rl_bench_sweep(&b, "fp32", &s, NULL), 0);
	ck_assert_uint_eq(s.n, 11);
	ck_assert_double_eq(s.pt[0]->repeat, 1);
	ck_assert_double_eq(s.pt[10]->repeat, 1024);
	ck_assert_double_eq_tol(s.elem_bytes, 8, 1e-12);
	ck_assert_double_eq_tol(s.bytes_per_s, 4e12, 1e3);
	ck_assert_double_eq_tol(s.flops_per_s, 30e12, 1e3);
	ck_assert_double_eq_tol(s.knee_intensity, 7.5, 1e-9);
	ck_assert_double_eq_tol(s.knee_repeat, 60, 1e-9);
	/* bf16 moves 4 bytes per element: the same roofs meet at r = 30 */
	ck_assert_int_eq(rl_bench_sweep(&b, "bf16", &s, NULL), 0);
	ck_assert_double_eq_tol(s.knee_repeat, 30, 1e-9);
	ck_assert_int_eq(rl_bench_sweep(&b, "fp16", &s, &err), RL_ERR_NOTFOUND);
	rl_bench_release(&b);
}
END_TEST

START_TEST(knee_against_the_model)
{
	struct rl_bench b;
	struct rl_sweep s;
	struct rl_knee k;
	struct rl_device d;
	struct rl_err err;

	ck_assert_int_eq(rl_device_load(RL_TEST_HWDB "/h200-sxm.device", &d, &err), 0);
	rl_bench_init(&b);
	add_sweep(&b, "fp32", 8);
	ck_assert_int_eq(rl_bench_sweep(&b, "fp32", &s, NULL), 0);
	ck_assert_int_eq(rl_bench_knee(&s, &d, &k), 0);
	/* the model rates multiplies at half of 66.9 TFLOPS over 4800 GB/s:
	 * 33.45 / 4.8 = 6.96875 FLOP/byte, x 8 bytes = r 55.75 */
	ck_assert_double_eq_tol(k.predicted_intensity, 6.96875, 1e-9);
	ck_assert_double_eq_tol(k.predicted_repeat, 55.75, 1e-9);
	ck_assert_double_eq_tol(k.log2_ratio, log2(60 / 55.75), 1e-9);
	ck_assert_int_eq(k.within_2x, 1);
	/* no device: no model side, a bad argument (not -1, RL_ERR_NOMEM) */
	ck_assert_int_eq(rl_bench_knee(&s, NULL, &k), RL_ERR_ARG);
	ck_assert_double_eq_tol(k.measured_repeat, 60, 1e-9);
	rl_device_release(&d);
	rl_bench_release(&b);
}
END_TEST

/* A recording's group name that is no group: malformed input. */
START_TEST(group_names)
{
	enum rl_bench_group g;

	ck_assert_int_eq(rl_bench_group_parse("bogus", &g), RL_ERR_PARSE);
	ck_assert_int_eq(rl_bench_group_parse("l2", &g), 0);
	ck_assert_int_eq(g, RL_BENCH_L2);
}
END_TEST

static char *write_tmp(const char *text)
{
	static char path[] = "/tmp/check_bench_XXXXXX";
	int fd;
	FILE *f;

	strcpy(path, "/tmp/check_bench_XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

START_TEST(json_round_trip)
{
	struct rl_bench b, r;
	struct rl_bench_entry e = entry(RL_BENCH_GEMM, "gemm", "bf16", 402653184, 1099511627776.0);
	const double us[] = {1421.3456, 1400.25, 1455.5};
	struct rl_err err;
	char path[] = "/tmp/check_bench_rt_XXXXXX";
	FILE *f;
	int fd;

	rl_bench_init(&b);
	snprintf(b.version, sizeof(b.version), "0.1.0");
	snprintf(b.date, sizeof(b.date), "2026-11-29T10:00:00Z");
	gpu_h200(&b.gpu);
	snprintf(e.shape, sizeof(e.shape), "8192x8192x8192");
	snprintf(e.method, sizeof(e.method), "a method, with \"quotes\"");
	e.sm_clock_mhz = 1980;
	e.temp_c = 41;
	ck_assert_int_eq(rl_bench_add(&b, &e, us, 3, NULL), 0);
	fd = mkstemp(path);
	f = fdopen(fd, "w");
	ck_assert_int_eq(rl_bench_write_json(f, &b), 0);
	fclose(f);
	ck_assert_int_eq(rl_bench_read(path, &r, &err), 0);
	remove(path);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_str_eq(r.e[0].shape, "8192x8192x8192");
	ck_assert_str_eq(r.e[0].method, "a method, with \"quotes\"");
	ck_assert_int_eq(r.e[0].group, RL_BENCH_GEMM);
	ck_assert_double_eq_tol(r.e[0].us[0], 1421.346, 1e-9); /* 7 significant digits */
	ck_assert_double_eq(r.e[0].flops, 1099511627776.0); /* counts exactly */
	ck_assert_int_eq(r.gpu.bus_width_bits, 6016);
	ck_assert_str_eq(r.gpu.name, "NVIDIA H200");
	ck_assert_int_eq(r.quick, 0);
	rl_bench_release(&b);
	rl_bench_release(&r);
}
END_TEST

START_TEST(json_errors)
{
	struct rl_bench r;
	struct rl_err err;
	char *p;

	p = write_tmp("{\"format\": \"roofline-bench-1\", \"roofline_version\": \"0.1.0\"");
	ck_assert_int_eq(rl_bench_read(p, &r, &err), RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, "not JSON"));
	rl_bench_release(&r);
	remove(p);
	p = write_tmp("{\"format\": \"something else\"}");
	ck_assert_int_eq(rl_bench_read(p, &r, &err), RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, "format: expected \"roofline-bench-1\""));
	rl_bench_release(&r);
	remove(p);
	ck_assert_int_eq(rl_bench_read("/nonexistent/bench.json", &r, &err), RL_ERR_IO);
	rl_bench_release(&r);
}
END_TEST

/* The times a recording may hold: 1 ns to an hour (bench.h). A sample of
 * 1e-300 us is one rl_bench_add takes (it is a positive time), but its
 * GB/s is infinite: the recording written is still JSON (null for the
 * figure, never a bare inf) and reading it back names the sample (issue
 * 21, item 7). */
static const struct {
	double us;
	const char *refused; /* NULL: read back */
} time_cases[] = {
    {1e-300, "entries[0].samples_us[0]: expected a time in microseconds from 0.001 (1 ns) to "
             "3.6e9 (an hour), not 1e-300"},
    {0.0009, "entries[0].samples_us[0]: expected a time in microseconds from 0.001 (1 ns) to "
             "3.6e9 (an hour), not 0.0009"},
    {0.001, NULL},
    {3.6e9, NULL},
    {3.7e9, "entries[0].samples_us[0]: expected a time in microseconds from 0.001 (1 ns) to "
            "3.6e9 (an hour), not 3.7e+09"},
};

START_TEST(json_time_bounds)
{
	struct rl_bench b, r;
	struct rl_bench_entry e = entry(RL_BENCH_MEMORY, "copy", "fp32", 2147483648.0, 0);
	struct rl_err err;
	char path[] = "/tmp/check_bench_tb_XXXXXX";
	yajl_val root, gbs;
	char *text;
	FILE *f;
	int fd;

	rl_bench_init(&b);
	snprintf(b.version, sizeof(b.version), "0.1.0");
	snprintf(b.date, sizeof(b.date), "2026-11-29T10:00:00Z");
	gpu_h200(&b.gpu);
	ck_assert_int_eq(rl_bench_add(&b, &e, &time_cases[_i].us, 1, NULL), 0);
	fd = mkstemp(path);
	f = fdopen(fd, "w");
	ck_assert_int_eq(rl_bench_write_json(f, &b), 0);
	fclose(f);
	rl_bench_release(&b);
	text = rl_json_slurp(path, "a bench recording", &err);
	ck_assert_ptr_nonnull(text);
	root = rl_json_parse(text, path, &err);
	free(text);
	ck_assert_msg(root != NULL, "not JSON: %s", err.msg);
	gbs = rl_json_member(rl_json_member(rl_json_member(root, "entries")->u.array.values[0],
	                                    "derived"),
	                     "gbs_median");
	ck_assert_ptr_nonnull(gbs);
	/* 2^31 bytes in 1e-300 us is past DBL_MAX GB/s: null */
	ck_assert_int_eq(YAJL_IS_NULL(gbs), time_cases[_i].us == 1e-300);
	yajl_tree_free(root);
	if (time_cases[_i].refused == NULL) {
		ck_assert_msg(rl_bench_read(path, &r, &err) == 0, "%s", err.msg);
		ck_assert_double_eq(r.e[0].us[0], time_cases[_i].us);
	} else {
		ck_assert_int_eq(rl_bench_read(path, &r, &err), RL_ERR_PARSE);
		ck_assert_msg(strstr(err.msg, time_cases[_i].refused) != NULL, "%s", err.msg);
	}
	rl_bench_release(&r);
	remove(path);
}
END_TEST

/* Issue 11, bug 5: an infinite or zero figure in a recording is refused by
 * name instead of becoming "mem_bandwidth_gbs = inf". */
START_TEST(calibrate_refuses_broken_figures)
{
	struct rl_bench b;
	struct rl_bench_entry copy = entry(RL_BENCH_MEMORY, "copy", "", 1e308, 0);
	struct rl_bench_entry gemm = entry(RL_BENCH_GEMM, "gemm", "bf16", 1, 0);
	const double tiny[] = {1e-3}, us[] = {1000};
	struct rl_device ds, cal;
	struct rl_calib c;
	struct rl_err err;

	ck_assert_int_eq(rl_device_load(RL_TEST_HWDB "/h200-sxm.device", &ds, &err), 0);
	/* 1e308 bytes in 1e-3 us: 1e308 / 1e-9 s overflows to inf GB/s */
	rl_bench_init(&b);
	ck_assert_int_eq(rl_bench_add(&b, &copy, tiny, 1, NULL), 0);
	rl_calib_roofs(&b, &c);
	ck_assert_int_eq(c.present[RL_HW_MEM_BANDWIDTH_GBS], 0);
	err.msg[0] = '\0';
	ck_assert_int_eq(rl_calibrate(&b, &c, &ds, "x", &cal, &err), RL_ERR_RANGE);
	ck_assert_msg(strstr(err.msg, "memory copy: mem_bandwidth_gbs = inf GB/s") != NULL, "%s",
	              err.msg);
	rl_bench_release(&b);
	/* a GEMM of 0 FLOPs: 0 TFLOPS is no roof either */
	rl_bench_init(&b);
	ck_assert_int_eq(rl_bench_add(&b, &gemm, us, 1, NULL), 0);
	rl_calib_roofs(&b, &c);
	err.msg[0] = '\0';
	ck_assert_int_eq(rl_calibrate(&b, &c, &ds, "x", &cal, &err), RL_ERR_RANGE);
	ck_assert_msg(strstr(err.msg, "gemm gemm bf16: bf16_tensor_tflops = 0 TFLOPS") != NULL,
	              "%s", err.msg);
	rl_bench_release(&b);
	/* finite but absurd: 1e20 bytes in 1 us is 1e14 GB/s, above 1e7 GB/s */
	copy.bytes = 1e20;
	rl_bench_init(&b);
	ck_assert_int_eq(rl_bench_add(&b, &copy, us, 1, NULL), 0);
	rl_calib_roofs(&b, &c);
	err.msg[0] = '\0';
	ck_assert_int_eq(rl_calibrate(&b, &c, &ds, "x", &cal, &err), RL_ERR_RANGE);
	ck_assert_msg(strstr(err.msg, "memory copy: mem_bandwidth_gbs = 1e+14 GB/s is outside") !=
	                      NULL,
	              "%s", err.msg);
	rl_bench_release(&b);
	rl_device_release(&ds);
}
END_TEST

/* The reference each figure is judged by, from hwdb/h200-sxm.device's
 * datasheet lines: 4800 GB/s for a copy, 66.9 TFLOPS for the FP32 FMA pipe
 * and half that (33.45) for multiply-only, 989.4 for a bf16 GEMM; none for
 * a launch figure, not even graph-node (0.68 us measured on the H200), which
 * is the spacing of graph nodes, not the 0.50 us floor under a kernel. */
START_TEST(reference_figures)
{
	struct rl_device d;
	struct rl_bench_entry copy = entry(RL_BENCH_MEMORY, "copy", "fp32", 1, 0);
	struct rl_bench_entry fma = entry(RL_BENCH_VECTOR, "fp32-fma", "fp32", 0, 1);
	struct rl_bench_entry mul = entry(RL_BENCH_VECTOR, "fp32-mul", "fp32", 0, 1);
	struct rl_bench_entry gemm = entry(RL_BENCH_GEMM, "gemm", "bf16", 1, 1);
	struct rl_bench_entry node = entry(RL_BENCH_LAUNCH, "graph-node", "", 0, 0);

	test_load_device("h200-sxm", &d);
	ck_assert_double_eq_tol(rl_bench_reference(&copy, &d), 4800, 1e-9);
	ck_assert_double_eq_tol(rl_bench_reference(&fma, &d), 66.9, 1e-9);
	ck_assert_double_eq_tol(rl_bench_reference(&mul, &d), 33.45, 1e-9);
	ck_assert_double_eq_tol(rl_bench_reference(&gemm, &d), 989.4, 1e-9);
	ck_assert_double_eq(rl_bench_reference(&node, &d), 0);
	ck_assert_double_eq(rl_bench_reference(&copy, NULL), 0);
	rl_device_release(&d);
}
END_TEST

START_TEST(calibrated_device)
{
	struct rl_bench b;
	struct rl_bench_entry copy = entry(RL_BENCH_MEMORY, "copy", "fp32", 4e9, 0);
	struct rl_bench_entry bad = entry(RL_BENCH_VECTOR, "fp32-fma", "fp32", 0, 64e12);
	struct rl_bench_entry g1 = entry(RL_BENCH_GEMM, "gemm", "bf16", 1, 800e9);
	struct rl_bench_entry g2 = entry(RL_BENCH_GEMM, "gemm", "bf16", 1, 700e9);
	struct rl_bench_entry node = entry(RL_BENCH_LAUNCH, "graph-node", "", 0, 0);
	const double us1[] = {1000, 1010, 990}, us2[] = {1000}, us3[] = {0.683};
	struct rl_device ds, cal, back;
	struct rl_calib c;
	struct rl_err err;
	char path[] = "/tmp/check_bench_cal_XXXXXX";
	FILE *f;
	char *hdr;

	rl_bench_init(&b);
	snprintf(b.version, sizeof(b.version), "0.1.0");
	snprintf(b.date, sizeof(b.date), "2026-11-29T10:00:00Z");
	gpu_h200(&b.gpu);
	bad.check = -1; /* a failed check never becomes a roof */
	snprintf(g1.shape, sizeof(g1.shape), "8192x8192x8192");
	snprintf(g2.shape, sizeof(g2.shape), "4096x4096x4096");
	ck_assert_int_eq(rl_bench_add(&b, &copy, us1, 3, NULL), 0);
	ck_assert_int_eq(rl_bench_add(&b, &bad, us2, 1, NULL), 0);
	ck_assert_int_eq(rl_bench_add(&b, &g2, us2, 1, NULL), 0);
	ck_assert_int_eq(rl_bench_add(&b, &g1, us2, 1, NULL), 0);
	ck_assert_int_eq(rl_bench_add(&b, &node, us3, 1, NULL), 0);
	rl_calib_roofs(&b, &c);
	/* 4e9 bytes in a median 1000 us = 4000 GB/s */
	ck_assert_int_eq(c.present[RL_HW_MEM_BANDWIDTH_GBS], 1);
	ck_assert_double_eq_tol(c.value[RL_HW_MEM_BANDWIDTH_GBS], 4000, 1e-9);
	ck_assert_int_eq(c.present[RL_PIPE_FP32_VECTOR], 0);
	/* the best GEMM shape: 800e9 FLOP in 1000 us = 800 TFLOPS */
	ck_assert_double_eq_tol(c.value[RL_PIPE_BF16_TENSOR], 800, 1e-9);
	ck_assert_str_eq(c.from[RL_PIPE_BF16_TENSOR]->shape, "8192x8192x8192");

	ck_assert_int_eq(rl_device_load(RL_TEST_HWDB "/h200-sxm.device", &ds, &err), 0);
	ck_assert_int_eq(rl_calibrate(&b, &c, &ds, "h200-test-measured", &cal, &err), 0);
	hdr = rl_calibrate_header(&b, &ds);
	ck_assert_ptr_nonnull(hdr);
	f = fdopen(mkstemp(path), "w");
	ck_assert_int_eq(rl_device_write(f, &cal, hdr), 0);
	fclose(f);
	free(hdr);
	ck_assert_int_eq(rl_device_load(path, &back, &err), 0);
	remove(path);
	ck_assert_str_eq(back.id, "h200-test-measured");
	ck_assert_str_eq(back.name, "NVIDIA H200 SXM 141GB (measured)");
	ck_assert_double_eq_tol(back.num[RL_HW_MEM_BANDWIDTH_GBS].value, 4000, 1e-9);
	ck_assert_double_eq_tol(back.datasheet[RL_HW_MEM_BANDWIDTH_GBS].value, 4800, 1e-9);
	ck_assert_ptr_nonnull(strstr(back.num[RL_HW_MEM_BANDWIDTH_GBS].source,
	                             "measured by roofline bench 0.1.0 on 2026-11-29: memory copy"));
	ck_assert_double_eq_tol(back.num[RL_PIPE_BF16_TENSOR].value, 800, 1e-9);
	ck_assert_double_eq_tol(back.datasheet[RL_PIPE_BF16_TENSOR].value, 989.4, 1e-9);
	/* fp32 vector was not measured: the datasheet value, nothing beside */
	ck_assert_double_eq_tol(back.num[RL_PIPE_FP32_VECTOR].value, 66.9, 1e-9);
	ck_assert_int_eq(back.datasheet[RL_PIPE_FP32_VECTOR].present, 0);
	/* the launch floor: h200-sxm's 0.50 us, not the graph node's 0.683,
	 * and its source says why */
	ck_assert_double_eq_tol(back.num[RL_HW_MIN_KERNEL_US].value, 0.50, 1e-12);
	ck_assert_int_eq(back.datasheet[RL_HW_MIN_KERNEL_US].present, 0);
	ck_assert_msg(strstr(back.num[RL_HW_MIN_KERNEL_US].source,
	                     "kept by calibrate from the datasheet entry h200-sxm: bench's "
	                     "graph-node figure (0.683 us here) is the spacing") ==
	                  back.num[RL_HW_MIN_KERNEL_US].source,
	              "%s", back.num[RL_HW_MIN_KERNEL_US].source);
	ck_assert_int_eq(rl_device_calibrated(&back), 1);
	ck_assert_int_eq(rl_device_roofs(&back, RL_ROOFS_DATASHEET, &err), 0);
	ck_assert_double_eq_tol(back.num[RL_HW_MEM_BANDWIDTH_GBS].value, 4800, 1e-9);
	ck_assert_double_eq_tol(back.num[RL_PIPE_BF16_TENSOR].value, 989.4, 1e-9);
	/* a plain entry has no roofs to choose between */
	ck_assert_int_eq(rl_device_roofs(&ds, RL_ROOFS_MEASURED, &err), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(err.msg, "datasheet roofs only"));
	rl_device_release(&back);
	rl_device_release(&cal);
	rl_device_release(&ds);
	rl_bench_release(&b);
}
END_TEST

/* A file calibrated before the floor was kept, given as the datasheet: its
 * datasheet.min_kernel_us (0.5) becomes the floor again, not its measured
 * 0.68; calibrating the result once more leaves the floor and its source. */
START_TEST(calibrate_restores_the_floor)
{
	struct rl_bench b;
	struct rl_bench_entry copy = entry(RL_BENCH_MEMORY, "copy", "fp32", 4e9, 0);
	const double us[] = {1000};
	struct rl_device old, cal, again;
	struct rl_calib c;
	struct rl_err err;
	char *p = write_tmp(
	    "id = x-measured\nname = X\nsm_count = 1 ; s\n"
	    "mem_bandwidth_gbs = 1000 ; bench\ndatasheet.mem_bandwidth_gbs = 2000 ; sheet\n"
	    "fp32_vector_tflops = 1 ; s\n"
	    "min_kernel_us = 0.68 ; graph node\ndatasheet.min_kernel_us = 0.5 ; empty kernel\n");

	ck_assert_int_eq(rl_device_load(p, &old, &err), 0);
	remove(p);
	rl_bench_init(&b);
	ck_assert_int_eq(rl_bench_add(&b, &copy, us, 1, NULL), 0);
	rl_calib_roofs(&b, &c);
	ck_assert_int_eq(rl_calibrate(&b, &c, &old, "y", &cal, &err), 0);
	ck_assert_double_eq_tol(cal.num[RL_HW_MIN_KERNEL_US].value, 0.5, 1e-12);
	ck_assert_int_eq(cal.datasheet[RL_HW_MIN_KERNEL_US].present, 0);
	ck_assert_str_eq(cal.num[RL_HW_MIN_KERNEL_US].source,
	                 "kept by calibrate from the datasheet entry x-measured: bench's "
	                 "graph-node figure is the spacing of back-to-back kernels in a CUDA "
	                 "graph, not a floor under every kernel's GPU time; empty kernel");
	ck_assert_int_eq(rl_calibrate(&b, &c, &cal, "z", &again, &err), 0);
	ck_assert_double_eq_tol(again.num[RL_HW_MIN_KERNEL_US].value, 0.5, 1e-12);
	ck_assert_str_eq(again.num[RL_HW_MIN_KERNEL_US].source,
	                 cal.num[RL_HW_MIN_KERNEL_US].source);
	rl_device_release(&again);
	rl_device_release(&cal);
	rl_device_release(&old);
	rl_bench_release(&b);
}
END_TEST

START_TEST(datasheet_key_needs_its_measured_twin)
{
	struct rl_device d;
	struct rl_err err;
	char *p = write_tmp("id = x\nname = X\nsm_count = 1 ; s\nmem_bandwidth_gbs = 1 ; s\n"
	                    "fp32_vector_tflops = 1 ; s\nmin_kernel_us = 1 ; s\n"
	                    "datasheet.l2_bandwidth_gbs = 5 ; s\n");

	ck_assert_int_eq(rl_device_load(p, &d, &err), RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, "'datasheet.l2_bandwidth_gbs'"));
	remove(p);
}
END_TEST

/* The validation rules on the H200 entry (4800 GB/s, 66.9 FP32 TFLOPS):
 * mul1-fp32 moves 2 x 2^28 x 4 bytes = 2147483648 in 447.39 us. */
START_TEST(validation_rules)
{
	struct rl_validation v;
	struct rl_errlist errs;
	struct rl_device d;
	struct rl_model_ctx ctx;
	struct rl_vsummary s;
	struct rl_err err;
	const char *csv = "name,kind,dtype,shape,inputs,flops_per_element,fma\n"
	                  "mul1,pointwise,fp32,268435456,1,1,0\n"
	                  "mul1024,pointwise,fp32,268435456,1,1024,0\n"
	                  "tiny,pointwise,fp32,1,2,1,0\n"
	                  "att,attention,fp32,1x1x64x64,,,\n";

	rl_errlist_init(&errs);
	ck_assert_int_eq(rl_device_load(RL_TEST_HWDB "/h200-sxm.device", &d, &err), 0);
	ck_assert_int_eq(rl_validation_init(&v, csv, "t.csv", 0, &errs), 0);
	ck_assert_uint_eq(v.list.n, 4);
	ck_assert_int_eq(v.v[0].spec.kind, RL_SYNTH_POINTWISE);
	ck_assert_uint_eq(v.v[0].spec.elems, 268435456);
	ck_assert_int_eq(v.v[3].runnable, 0);
	ck_assert_ptr_nonnull(strstr(v.v[3].why, "no synthetic kernel for kind 'attention'"));
	/* measured: mul1 600 us; mul1024 at 30 TFLOPS = 9162.5 us; tiny 5 us
	 * wall against 2 us of GPU time (2.5 > 1.5: overhead) */
	v.v[0].measured = v.v[1].measured = v.v[2].measured = 1;
	v.v[0].m.gpu_us = v.v[0].m.wall_us = 600;
	v.v[1].m.gpu_us = v.v[1].m.wall_us = 268435456.0 * 1024 / 30e12 * 1e6;
	v.v[2].m.gpu_us = 2;
	v.v[2].m.wall_us = 5;
	memset(&ctx, 0, sizeof(ctx));
	ctx.dev = &d;
	ctx.host_overhead_us = 3;
	rl_validate_eval(&v, &ctx);
	ck_assert_double_eq_tol(v.v[0].pred.t_us, 2147483648.0 / 4.8e12 * 1e6, 1e-6);
	ck_assert_double_eq_tol(v.v[0].err, (447.392426666 - 600) / 600, 1e-6);
	ck_assert_int_eq(v.v[0].empirical, RL_BOUND_MEMORY);
	ck_assert_double_eq_tol(v.v[0].memory_frac, 2147483648.0 / 600e-6 / 4.8e12, 1e-9);
	/* multiplies: compute roof 33.45 TFLOPS; 30 achieved = 0.8969 */
	ck_assert_int_eq(v.v[1].pred.bound, RL_BOUND_COMPUTE);
	ck_assert_int_eq(v.v[1].empirical, RL_BOUND_COMPUTE);
	ck_assert_double_eq_tol(v.v[1].compute_frac, 30 / 33.45, 1e-9);
	ck_assert_double_eq_tol(v.v[1].err, 30 / 33.45 - 1, 1e-9);
	ck_assert_int_eq(v.v[2].empirical, RL_BOUND_OVERHEAD);
	ck_assert_int_eq(v.v[2].pred.bound, RL_BOUND_OVERHEAD);
	ck_assert_double_eq_tol(v.v[2].pred.t_us, 3, 1e-9);
	rl_validate_summary(&v, &s);
	ck_assert_uint_eq(s.measured, 3);
	ck_assert_uint_eq(s.skipped, 1);
	ck_assert_uint_eq(s.n_long, 2); /* 600 and 9162 us; the 5 us op is short */
	ck_assert_uint_eq(s.confusion[RL_BOUND_MEMORY][RL_BOUND_MEMORY], 1);
	ck_assert_uint_eq(s.confusion[RL_BOUND_COMPUTE][RL_BOUND_COMPUTE], 1);
	ck_assert_uint_eq(s.confusion[RL_BOUND_OVERHEAD][RL_BOUND_OVERHEAD], 1);
	ck_assert_double_eq(s.agreement, 1);
	/* |errors| 0.2543, 0.1031, 0.4: median 0.2543 */
	ck_assert_double_eq_tol(s.median_err, (600 - 447.392426666) / 600, 1e-6);
	rl_validation_release(&v);
	rl_device_release(&d);
}
END_TEST

START_TEST(builtin_list_reads)
{
	struct rl_validation v;
	struct rl_errlist errs;
	size_t i;

	rl_errlist_init(&errs);
	ck_assert_int_eq(rl_validation_init(&v, rl_validate_builtin(), "<built-in>", 0, &errs), 0);
	ck_assert_uint_ge(v.list.n, 40);
	for (i = 0; i < v.list.n; i++)
		ck_assert_msg(v.v[i].runnable, "%s: %s", v.list.ops[i].name, v.v[i].why);
	rl_validation_release(&v);
}
END_TEST

/* The H200 recordings: the statistics, the roofs, the knee and the
 * validation summary against tests/data/h200-*.facts, which
 * tests/bench-facts.py worked out from the same samples in Python. */
#define H200 RL_MEASUREMENTS "/h200-bench-2026-11-29"

START_TEST(recorded_h200_bench)
{
	struct rl_bench b;
	struct rl_bench_stats s;
	struct rl_sweep sw;
	struct rl_calib c;
	struct rl_err err;
	const struct rl_bench_entry *e;

	ck_assert_int_eq(rl_bench_read(H200 "/bench.json", &b, &err), 0);
	ck_assert_str_eq(b.gpu.name, "NVIDIA H200");
	ck_assert_int_eq(b.gpu.sm_count, 132);
	e = rl_bench_find(&b, RL_BENCH_MEMORY, "copy", NULL, NULL);
	ck_assert_ptr_nonnull(e);
	rl_bench_stats(e, &s);
	ck_assert_double_eq_tol(s.median_us, 552.208, 1e-9);
	ck_assert_double_eq_tol(s.best_us, 548.976, 1e-9);
	ck_assert_double_eq_tol(s.gbs_median, 3888.90354, 1e-5);
	e = rl_bench_find(&b, RL_BENCH_GEMM, "gemm", "bf16", "8192x8192x8192");
	ck_assert_ptr_nonnull(e);
	rl_bench_stats(e, &s);
	ck_assert_double_eq_tol(s.tflops_median, 802.497626, 1e-6);
	rl_calib_roofs(&b, &c);
	ck_assert_double_eq_tol(c.value[RL_PIPE_FP32_VECTOR], 64.506139, 1e-6);
	ck_assert_double_eq_tol(c.value[RL_PIPE_BF16_TENSOR], 802.497626, 1e-6);
	/* the read-only and write-only streams: 2^30 bytes in the medians
	 * 235.1502 and 248.6542 us of the entries 'read' and 'write' */
	ck_assert_double_eq_tol(c.value[RL_HW_MEM_READ_BANDWIDTH_GBS],
	                        1073741824.0 / 235.1502 / 1e3, 1e-6);
	ck_assert_double_eq_tol(c.value[RL_HW_MEM_WRITE_BANDWIDTH_GBS],
	                        1073741824.0 / 248.6542 / 1e3, 1e-6);
	ck_assert_ptr_eq(c.from[RL_HW_MEM_READ_BANDWIDTH_GBS],
	                 rl_bench_find(&b, RL_BENCH_MEMORY, "read", NULL, NULL));
	/* the graph-node figure (0.683 us) is no roof: the floor stays the
	 * datasheet's */
	ck_assert_int_eq(c.present[RL_HW_MIN_KERNEL_US], 0);
	ck_assert_int_eq(rl_bench_sweep(&b, "fp32", &sw, NULL), 0);
	ck_assert_double_eq_tol(sw.knee_repeat, 67.6665094, 1e-6);
	rl_bench_release(&b);
}
END_TEST

START_TEST(recorded_h200_validation)
{
	struct rl_validation v;
	struct rl_errlist errs;
	struct rl_device d;
	struct rl_model_ctx ctx;
	struct rl_vsummary s;
	struct rl_err err;

	rl_errlist_init(&errs);
	ck_assert_int_eq(rl_device_load(RL_TEST_HWDB "/h200-sxm-measured.device", &d, &err), 0);
	ck_assert_int_eq(rl_validation_read(H200 "/validate.json", &v, &errs, &err), 0);
	memset(&ctx, 0, sizeof(ctx));
	ctx.dev = &d;
	ctx.host_overhead_us = 4.21;
	rl_validate_eval(&v, &ctx);
	rl_validate_summary(&v, &s);
	ck_assert_uint_eq(s.measured, 44);
	/* tests/data/h200-validate.facts (tests/bench-facts.py), with the
	 * memory roof by access mix of the calibrated file (read 4566.2, write
	 * 4318.2 GB/s) */
	ck_assert_double_eq_tol(s.median_err, 0.138570903, 1e-8);
	ck_assert_double_eq_tol(s.p90_err, 0.222630773, 1e-8);
	ck_assert_double_eq_tol(s.median_err_long, 0.101777601, 1e-8);
	ck_assert_double_eq_tol(s.p90_err_long, 0.170247392, 1e-8);
	ck_assert_double_eq_tol(s.agreement, 0.977272727, 1e-8);
	rl_validation_release(&v);
	rl_device_release(&d);
}
END_TEST

Suite *suite_bench(void)
{
	Suite *s = suite_create("bench");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, quantile_type7);
	tcase_add_test(tc, reference_figures);
	tcase_add_test(tc, stats_of_a_copy);
	tcase_add_test(tc, add_refuses_bad_samples);
	tcase_add_test(tc, sweep_knee);
	tcase_add_test(tc, knee_against_the_model);
	tcase_add_test(tc, group_names);
	tcase_add_test(tc, json_round_trip);
	tcase_add_test(tc, json_errors);
	tcase_add_loop_test(tc, json_time_bounds, 0, ARRAY_SIZE(time_cases));
	tcase_add_test(tc, calibrated_device);
	tcase_add_test(tc, calibrate_refuses_broken_figures);
	tcase_add_test(tc, calibrate_restores_the_floor);
	tcase_add_test(tc, datasheet_key_needs_its_measured_twin);
	tcase_add_test(tc, validation_rules);
	tcase_add_test(tc, builtin_list_reads);
	tcase_add_test(tc, recorded_h200_bench);
	tcase_add_test(tc, recorded_h200_validation);
	suite_add_tcase(s, tc);
	return s;
}
