/* check_report.c - the writers: csv column contract, json structure (read
 * back with yajl's tree parser), and the 80-column table. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

#include "check.h"
#include "fmt.h"
#include "model.h"
#include "oplist.h"
#include "report.h"
#include "summary.h"

static const char *ops_text =
	"name,kind,dtype,shape,count,measured_us,layer\n"
	"a_very_long_operator_name_that_does_not_fit,matmul,bf16,8192x8192x8192,2,4000,l0\n"
	"tiny,pointwise,fp32,1,1,,\"l,1\"\n";

static char *render_text(const char *text, enum rl_format fmt, int wide);
static char *render_dev(const char *text, enum rl_format fmt, int wide, const char *dev_id);

/* Classifies ops_text on the A100 40GB with 5 us of host overhead into a
 * malloc'ed string. */
static char *render(enum rl_format fmt, int wide)
{
	return render_text(ops_text, fmt, wide);
}

/* The same for the op list TEXT. */
static char *render_text(const char *text, enum rl_format fmt, int wide)
{
	return render_dev(text, fmt, wide, "a100-sxm4-40gb");
}

/* The same on the device DEV_ID of the database. */
static char *render_dev(const char *text, enum rl_format fmt, int wide, const char *dev_id)
{
	struct rl_device dev;
	struct rl_model_ctx ctx;
	struct rl_report_info info;
	struct rl_oplist l;
	struct rl_errlist errs;
	struct rl_summary sum;
	rl_report *rep;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *in = test_stream(text), *out = open_memstream(&buf, &len);

	test_load_device(dev_id, &dev);
	rl_errlist_init(&errs);
	ck_assert_int_eq(rl_oplist_read(in, "t.csv", &l, &errs), 0);
	fclose(in);
	memset(&ctx, 0, sizeof(ctx));
	ctx.dev = &dev;
	ctx.host_overhead_us = 5;
	memset(&info, 0, sizeof(info));
	info.dev = &dev;
	info.runtime = "eager";
	info.host_overhead_us = 5;
	info.nextra = l.nextra;
	info.extra_names = (const char *const *)l.extra_names;
	info.has_measured = l.has_measured;
	info.wide = wide;
	rl_summary_init(&sum);
	ck_assert_int_eq(rl_report_begin(out, fmt, &info, &rep), 0);
	for (i = 0; i < l.n; i++) {
		struct rl_pred p;

		ck_assert_int_eq(rl_predict(&l.ops[i], &ctx, &p, NULL), 0);
		ck_assert_int_eq(rl_summary_add(&sum, &l.ops[i], &p, NULL), 0);
		ck_assert_int_eq(rl_report_row(rep, &l.ops[i], &p), 0);
	}
	ck_assert_int_eq(rl_report_end(rep, &sum), 0);
	rl_report_free(rep);
	rl_summary_release(&sum);
	rl_oplist_release(&l);
	rl_device_release(&dev);
	fclose(out);
	return buf;
}

START_TEST(test_csv_columns)
{
	char *s = render(RL_FMT_CSV, 0);
	char *nl = strchr(s, '\n');

	*nl = '\0';
	ck_assert_str_eq(s, "name,kind,dtype,count,flops,bytes,intensity,unit,t_compute_us,"
	                    "t_memory_us,t_overhead_us,t_gpu_us,t_us,bound,attainable_tflops,"
	                    "measured_us,roofline_pct,measured_over_expected,"
	                    "measured_over_roofline,l2_resident,expected_gpu_us,expected_us,"
	                    "expected_bound,layer");
	/* 2 x 8192^3 FLOPs; 2 x 3 x 8192^2 bytes; 3524.1 us compute on 312 TFLOPS;
	 * roofline 3524.1 / 4000 = 88 % */
	ck_assert_ptr_nonnull(strstr(nl + 1, "a_very_long_operator_name_that_does_not_fit,matmul,bf16,2,"
	                                     "1099511627776,402653184,2730.67,tensor,3524.08,"));
	ck_assert_ptr_nonnull(strstr(nl + 1, ",compute,312,4000,88.1019,"));
	/* measured / roofline: 4000 / 3524.08 = 1.13505, then l2_resident 0 */
	ck_assert_ptr_nonnull(strstr(nl + 1, ",1.13505,0,"));
	/* a carried-through cell with a comma is quoted; a missing measurement
	 * leaves both measured columns empty; l2_resident is 0, as rl_predict
	 * leaves it (residency is judged after it, l2.h) */
	ck_assert_ptr_nonnull(strstr(nl + 1, ",overhead,"));
	ck_assert_ptr_nonnull(strstr(nl + 1, ",,,,,0,"));
	ck_assert_ptr_nonnull(strstr(nl + 1, ",\"l,1\"\n"));
	free(s);
}
END_TEST

/* Issue 11: leading and trailing blanks are quoted, so that a reader that
 * trims unquoted fields (libcsv's default, Excel) keeps them. RFC 4180 makes
 * blanks part of the field; quoting a field is always allowed (section 2,
 * rule 5), and inside quotes nothing is trimmed. Expected lines by hand. */
START_TEST(test_csv_quotes_blanks)
{
	static const char text[] = "name,kind,dtype,shape,\" note\"\n"
	                           "\" lead\",copy,fp32,1,\"x \"\n"
	                           "\"trail \",copy,fp32,1,\"\ty\"\n"
	                           "\"in side\",copy,fp32,1,z\n";
	char *s = render_text(text, RL_FMT_CSV, 0);

	ck_assert_msg(strstr(s, ",expected_bound,\" note\"\n") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "\n\" lead\",copy,fp32,1,") != NULL, "%s", s);
	ck_assert_msg(strstr(s, ",\"x \"\n") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "\n\"trail \",copy,fp32,1,") != NULL, "%s", s);
	ck_assert_msg(strstr(s, ",\"\ty\"\n") != NULL, "%s", s);
	/* a blank inside needs no quotes */
	ck_assert_msg(strstr(s, "\nin side,copy,fp32,1,") != NULL, "%s", s);
	free(s);
}
END_TEST

START_TEST(test_json_structure)
{
	char *s = render(RL_FMT_JSON, 0);
	char errbuf[256];
	yajl_val root = yajl_tree_parse(s, errbuf, sizeof(errbuf));
	const char *dev_id[] = {"device", "id", NULL};
	const char *ops[] = {"ops", NULL};
	const char *total[] = {"summary", "total_us", NULL};
	const char *share_ovh[] = {"summary", "share", "overhead", NULL};
	const char *advice[] = {"summary", "advice", "compute", NULL};
	const char *bound[] = {"bound", NULL};
	const char *layer[] = {"extra", "layer", NULL};
	yajl_val v;

	ck_assert_msg(root != NULL, "invalid json: %s", errbuf);
	ck_assert_str_eq(YAJL_GET_STRING(yajl_tree_get(root, dev_id, yajl_t_string)), "a100-sxm4-40gb");
	v = yajl_tree_get(root, ops, yajl_t_array);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(YAJL_GET_ARRAY(v)->len, 2);
	ck_assert_str_eq(YAJL_GET_STRING(yajl_tree_get(YAJL_GET_ARRAY(v)->values[0], bound,
	                                               yajl_t_string)),
	                 "compute");
	ck_assert_str_eq(YAJL_GET_STRING(yajl_tree_get(YAJL_GET_ARRAY(v)->values[1], layer,
	                                               yajl_t_string)),
	                 "l,1");
	/* total: 2 x 3524.08 + 5 (the tiny op waits on the host) = 7053.2 us */
	ck_assert_double_eq_tol(YAJL_GET_DOUBLE(yajl_tree_get(root, total, yajl_t_number)),
	                        2 * 2 * 8192.0 * 8192 * 8192 / 312e12 * 1e6 + 5, 0.01);
	ck_assert_double_eq_tol(YAJL_GET_DOUBLE(yajl_tree_get(root, share_ovh, yajl_t_number)),
	                        5 / 7053.16, 1e-5);
	ck_assert_ptr_nonnull(yajl_tree_get(root, advice, yajl_t_string));
	yajl_tree_free(root);
	free(s);
}
END_TEST

/* Issue 22: the op rows are written by report.c's own writer, not yajl's
 * generator. Its strings must be what yajl_gen writes: every byte from 1 to
 * 255 in a name and in a carried-through cell, against yajl_gen's own
 * encoding of the same string (the oracle), and a name read back by yajl's
 * parser as it was. */
static char *yajl_encoded(const char *s)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	const unsigned char *buf;
	size_t len;
	char *copy;

	yajl_gen_array_open(g); /* a bare string is no document for yajl */
	yajl_gen_string(g, (const unsigned char *)s, strlen(s));
	yajl_gen_get_buf(g, &buf, &len);
	copy = strndup((const char *)buf + 1, len - 1);
	yajl_gen_free(g);
	return copy;
}

START_TEST(test_json_row_strings)
{
	static const char text[] = "name,kind,dtype,shape,note\n"
	                           "\"a \"\"quoted\"\" \\back/slash\",copy,fp32,1024,x\n";
	struct rl_device dev;
	struct rl_model_ctx ctx;
	struct rl_report_info info;
	struct rl_oplist l;
	struct rl_errlist errs;
	struct rl_summary sum;
	struct rl_pred p;
	struct rl_op op;
	rl_report *rep;
	char all[256], *buf = NULL, *enc, *key, errbuf[256];
	const char *cell[1];
	size_t len = 0;
	int i;
	FILE *in = test_stream(text), *out = open_memstream(&buf, &len);
	yajl_val root;

	for (i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = '\0';
	test_load_device("a100-sxm4-40gb", &dev);
	rl_errlist_init(&errs);
	ck_assert_int_eq(rl_oplist_read(in, "t.csv", &l, &errs), 0);
	fclose(in);
	memset(&ctx, 0, sizeof(ctx));
	ctx.dev = &dev;
	memset(&info, 0, sizeof(info));
	info.dev = &dev;
	info.runtime = "eager";
	info.nextra = l.nextra;
	info.extra_names = (const char *const *)l.extra_names;
	rl_summary_init(&sum);
	ck_assert_int_eq(rl_predict(&l.ops[0], &ctx, &p, NULL), 0);
	ck_assert_int_eq(rl_summary_add(&sum, &l.ops[0], &p, NULL), 0);
	ck_assert_int_eq(rl_report_begin(out, RL_FMT_JSON, &info, &rep), 0);
	ck_assert_int_eq(rl_report_row(rep, &l.ops[0], &p), 0);
	op = l.ops[0];
	op.name = all;
	cell[0] = all;
	op.extra = cell;
	ck_assert_int_eq(rl_report_row(rep, &op, &p), 0);
	ck_assert_int_eq(rl_report_end(rep, &sum), 0);
	rl_report_free(rep);
	fclose(out);
	enc = yajl_encoded(all);
	key = malloc(strlen(enc) + 16);
	sprintf(key, "{\"name\":%s,", enc);
	ck_assert_msg(strstr(buf, key) != NULL, "%s", buf);
	sprintf(key, "{\"note\":%s}}", enc);
	ck_assert_msg(strstr(buf, key) != NULL, "%s", buf);
	free(key);
	/* the first row alone parses back: cut the document after it */
	key = strstr(buf, ",{\"name\":");
	ck_assert_ptr_nonnull(key);
	strcpy(key, "]}");
	root = yajl_tree_parse(buf, errbuf, sizeof(errbuf));
	ck_assert_msg(root != NULL, "%s", errbuf);
	{
		const char *ops[] = {"ops", NULL}, *name[] = {"name", NULL};
		yajl_val a = yajl_tree_get(root, ops, yajl_t_array);

		ck_assert_ptr_nonnull(a);
		ck_assert_uint_eq(a->u.array.len, 1);
		ck_assert_str_eq(YAJL_GET_STRING(yajl_tree_get(a->u.array.values[0], name,
		                                               yajl_t_string)),
		                 "a \"quoted\" \\back/slash");
	}
	yajl_tree_free(root);
	free(enc);
	free(buf);
	rl_summary_release(&sum);
	rl_oplist_release(&l);
	rl_device_release(&dev);
}
END_TEST

/* Issue 22's column walk: json's bandwidth_gbs, the bandwidth of an op's
 * memory roof. On the measured H200 (read 4455 GB/s, write 4583.3 GB/s) a
 * copy reads and writes as many bytes: 2 / (1/4455 + 1/4583.3) = 4518.24
 * GB/s; a 4096^3 bf16 matmul reads A and B (2 x 32 MiB) and writes C
 * (32 MiB): 3 / (2/4455 + 1/4583.3) = 4496.96 GB/s. */
START_TEST(test_json_bandwidth)
{
	static const char text[] = "name,kind,dtype,shape\n"
	                           "cp,copy,fp32,16777216\n"
	                           "mm,matmul,bf16,4096x4096x4096\n";
	static const double want[] = {4518.24, 4496.96};
	char *s = render_dev(text, RL_FMT_JSON, 0, "h200-sxm-measured");
	char errbuf[256];
	yajl_val root = yajl_tree_parse(s, errbuf, sizeof(errbuf));
	const char *ops[] = {"ops", NULL}, *bw[] = {"bandwidth_gbs", NULL};
	yajl_val a;
	size_t i;

	ck_assert_msg(root != NULL, "%s", errbuf);
	a = yajl_tree_get(root, ops, yajl_t_array);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(a->u.array.len, 2);
	for (i = 0; i < 2; i++) {
		yajl_val v = yajl_tree_get(a->u.array.values[i], bw, yajl_t_number);

		ck_assert_ptr_nonnull(v);
		ck_assert_double_eq_tol(YAJL_GET_DOUBLE(v), want[i], 0.01);
	}
	yajl_tree_free(root);
	free(s);
}
END_TEST

START_TEST(test_table_fits_80_columns)
{
	char *s = render(RL_FMT_TABLE, 0);
	char *line, *save = NULL;
	int rows = 0;

	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		ck_assert_msg(strlen(line) <= 80, "%zu columns: '%s'", strlen(line), line);
		rows++;
	}
	ck_assert_int_gt(rows, 5);
	free(s);
	s = render(RL_FMT_TABLE, 1); /* --wide keeps the whole name */
	ck_assert_ptr_nonnull(strstr(s, "a_very_long_operator_name_that_does_not_fit"));
	free(s);
	s = render(RL_FMT_MD, 0);
	ck_assert_ptr_nonnull(strstr(s, "| name | kind | dtype |"));
	ck_assert_ptr_nonnull(strstr(s, "**Advice:**"));
	free(s);
}
END_TEST

/* The fast formatter against printf: exact on %.6g and %.0f over 200,000
 * values spread across 26 decades; %.2f may differ in the last digit on
 * double-rounding near ties, rarely. */
START_TEST(test_fmt_matches_printf)
{
	static const double fixed[] = {3524.0757300512823, 88.10189325128206, 0.0833333333,
	                               2730.666666, 333.33333, 0.194375, 9.999996, 999999.5,
	                               1.234567e-5, 123456789.5, 0.5, 2.5e-7, 6.6, 1e20, 0,
	                               1099511627776.0, 12.5};
	char a[64], b[64];
	unsigned long x = 12345;
	size_t i, fixed_mismatch = 0;

	for (i = 0; i < ARRAY_SIZE(fixed) + 200000; i++) {
		double v;

		if (i < ARRAY_SIZE(fixed)) {
			v = fixed[i];
		} else {
			x = x * 6364136223846793005UL + 1442695040888963407UL; /* LCG */
			v = exp(((double)(x >> 11) / 9007199254740992.0 - 0.5) * 60);
		}
		rl_fmt_num(a, v);
		snprintf(b, sizeof(b), v == floor(v) && v < 1e15 ? "%.0f" : "%.6g", v);
		ck_assert_msg(strcmp(a, b) == 0, "%.17g: '%s', printf '%s'", v, a, b);
		if (v < 1e9) {
			rl_fmt_fixed(a, v, 2);
			snprintf(b, sizeof(b), "%.2f", v);
			fixed_mismatch += strcmp(a, b) != 0;
		}
	}
	ck_assert_uint_le(fixed_mismatch, 10);
	rl_fmt_u64(a, 18446744073709551615ULL);
	ck_assert_str_eq(a, "18446744073709551615");
	rl_fmt_u64(a, 0);
	ck_assert_str_eq(a, "0");
}
END_TEST


/* ---- the summary of expected times and of the errors ---- */

/* A prediction with roofline GPU time T_GPU (bound RB) and expected GPU
 * time E_GPU (bound EB); 5 us of host cost, so t and expected are at least
 * 5 us. */
static struct rl_pred pred(double t_gpu, enum rl_bound rb, double e_gpu, enum rl_bound eb)
{
	struct rl_pred p;

	memset(&p, 0, sizeof(p));
	p.t_overhead_us = 5;
	p.t_gpu_us = t_gpu;
	p.t_us = fmax(t_gpu, 5);
	p.bound = rb;
	p.expected_gpu_us = e_gpu;
	p.expected_us = fmax(e_gpu, 5);
	p.expected_bound = eb;
	return p;
}

static void add(struct rl_summary *s, const char *name, unsigned count, double measured_us,
                struct rl_pred p)
{
	struct rl_op op;

	rl_op_init(&op);
	op.name = name;
	op.count = count;
	if (measured_us >= 0) {
		op.has |= RL_HAS_MEASURED;
		op.measured_us = measured_us;
	}
	ck_assert_int_eq(rl_summary_add(s, &op, &p, NULL), 0);
}

/* Totals: expected beside roofline, shares by the expected bound.
 *   a: count 2, roofline 4 us GPU (t 5, overhead), expected 12 (memory)
 *   b: count 1, roofline 30 (compute), expected 40 (compute)
 * expected total 2 x 12 + 40 = 64; roofline 2 x 5 + 30 = 40; expected GPU
 * 2 x 12 + 40 = 64, roofline GPU 2 x 4 + 30 = 38. By expected bound: memory
 * 24, compute 40; by the roofline's: overhead 10, compute 30. One op's
 * bound differs. Top by expected time: b (40) before a (24). */
START_TEST(test_summary_totals)
{
	struct rl_summary s;

	rl_summary_init(&s);
	add(&s, "a", 2, -1, pred(4, RL_BOUND_OVERHEAD, 12, RL_BOUND_MEMORY));
	add(&s, "b", 1, -1, pred(30, RL_BOUND_COMPUTE, 40, RL_BOUND_COMPUTE));
	ck_assert_double_eq_tol(s.total_us, 64, 1e-12);
	ck_assert_double_eq_tol(s.roofline_us, 40, 1e-12);
	ck_assert_double_eq_tol(s.gpu_us, 64, 1e-12);
	ck_assert_double_eq_tol(s.roofline_gpu_us, 38, 1e-12);
	ck_assert_double_eq_tol(s.bound_us[RL_BOUND_MEMORY], 24, 1e-12);
	ck_assert_double_eq_tol(s.bound_us[RL_BOUND_COMPUTE], 40, 1e-12);
	ck_assert_double_eq_tol(s.bound_us[RL_BOUND_OVERHEAD], 0, 1e-12);
	ck_assert_double_eq_tol(s.roofline_bound_us[RL_BOUND_OVERHEAD], 10, 1e-12);
	ck_assert_double_eq_tol(s.roofline_bound_us[RL_BOUND_COMPUTE], 30, 1e-12);
	ck_assert_uint_eq(s.bound_ops[RL_BOUND_MEMORY], 1);
	ck_assert_uint_eq(s.roofline_bound_ops[RL_BOUND_OVERHEAD], 1);
	ck_assert_uint_eq(s.bound_differs, 1);
	ck_assert_uint_eq(s.ntop, 2);
	ck_assert_str_eq(s.top[0].name, "b");
	ck_assert_double_eq_tol(s.top[1].total_us, 24, 1e-12);
	ck_assert_double_eq_tol(s.top[1].roofline_us, 10, 1e-12);
	ck_assert_int_eq(s.top[1].expected_bound, RL_BOUND_MEMORY);
	ck_assert_int_eq(s.top[1].bound, RL_BOUND_OVERHEAD);
	rl_summary_release(&s);
}
END_TEST

/* Median and p90 of |t - measured| / measured, per op (count ignored),
 * linear between order statistics (rl_quantile). Worked by hand:
 *   measured  expected  roofline   error expected  error roofline
 *   A  10       13         5          0.3             0.5
 *   B  20       18        10          0.1             0.5
 *   C  40       40        30          0               0.25
 *   D 100      150        90          0.5             0.1
 *   E  50       45        25          0.1             0.5
 * plus F without a measurement and G measured at 0: left out.
 * All five: expected sorted 0, 0.1, 0.1, 0.3, 0.5: median 0.1; p90 at
 * 4 x 0.9 = 3.6: 0.3 + 0.6 x 0.2 = 0.42. Roofline 0.1, 0.25, 0.5, 0.5, 0.5:
 * median 0.5, p90 0.5.
 * >= 20 us (B..E): expected 0, 0.1, 0.1, 0.5: median at 1.5: 0.1; p90 at
 * 2.7: 0.1 + 0.7 x 0.4 = 0.38. Roofline 0.1, 0.25, 0.5, 0.5: median
 * 0.25 + 0.5 x 0.25 = 0.375; p90 0.5. */
START_TEST(test_summary_errors)
{
	struct rl_summary s;
	struct rl_summary_err e;

	rl_summary_init(&s);
	ck_assert_int_eq(rl_summary_err(&s, 0, &e), 0);
	ck_assert_uint_eq(e.ops, 0);
	add(&s, "A", 3, 10, pred(5, RL_BOUND_MEMORY, 13, RL_BOUND_MEMORY));
	add(&s, "B", 1, 20, pred(10, RL_BOUND_MEMORY, 18, RL_BOUND_MEMORY));
	add(&s, "C", 1, 40, pred(30, RL_BOUND_MEMORY, 40, RL_BOUND_MEMORY));
	add(&s, "D", 7, 100, pred(90, RL_BOUND_MEMORY, 150, RL_BOUND_MEMORY));
	add(&s, "F", 1, -1, pred(90, RL_BOUND_MEMORY, 150, RL_BOUND_MEMORY));
	add(&s, "G", 1, 0, pred(90, RL_BOUND_MEMORY, 150, RL_BOUND_MEMORY));
	add(&s, "E", 1, 50, pred(25, RL_BOUND_MEMORY, 45, RL_BOUND_MEMORY));
	ck_assert_int_eq(rl_summary_err(&s, 0, &e), 0);
	ck_assert_uint_eq(e.ops, 5);
	ck_assert_double_eq_tol(e.expected_median, 0.1, 1e-12);
	ck_assert_double_eq_tol(e.expected_p90, 0.42, 1e-12);
	ck_assert_double_eq_tol(e.roofline_median, 0.5, 1e-12);
	ck_assert_double_eq_tol(e.roofline_p90, 0.5, 1e-12);
	ck_assert_int_eq(rl_summary_err(&s, 20, &e), 0);
	ck_assert_uint_eq(e.ops, 4);
	ck_assert_double_eq_tol(e.expected_median, 0.1, 1e-12);
	ck_assert_double_eq_tol(e.expected_p90, 0.38, 1e-12);
	ck_assert_double_eq_tol(e.roofline_median, 0.375, 1e-12);
	ck_assert_double_eq_tol(e.roofline_p90, 0.5, 1e-12);
	ck_assert_int_eq(rl_summary_err(&s, 1000, &e), 0);
	ck_assert_uint_eq(e.ops, 0);
	rl_summary_release(&s);
}
END_TEST

/* The writers on one op with hand-set times: roofline 4 us GPU, 5 us with
 * the host (overhead-bound); expected 12 us GPU (memory-bound); measured
 * 24 us: measured / expected 2, measured / roofline 6; errors |12 - 24| / 24
 * = 50 % and |4 - 24| / 24 = 83.3 %. */
static char *render_one(enum rl_format fmt, int best_case, int wide)
{
	struct rl_device dev;
	struct rl_report_info info;
	struct rl_summary sum;
	struct rl_pred p = pred(4, RL_BOUND_OVERHEAD, 12, RL_BOUND_MEMORY);
	struct rl_op op;
	rl_report *rep;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	if (best_case) /* what rl_predict gives then: the roofline's */
		p = pred(4, RL_BOUND_OVERHEAD, 4, RL_BOUND_OVERHEAD);
	p.roofline_pct = 4.0 / 24 * 100;
	test_load_device("a100-sxm4-40gb", &dev);
	memset(&info, 0, sizeof(info));
	info.dev = &dev;
	info.runtime = "eager";
	info.host_overhead_us = 5;
	info.has_measured = 1;
	info.wide = wide;
	info.best_case = best_case;
	info.expected_source = best_case ? NULL : "expected times: profile x (measured on y)";
	rl_op_init(&op);
	op.name = "op";
	op.has |= RL_HAS_MEASURED;
	op.measured_us = 24;
	rl_summary_init(&sum);
	ck_assert_int_eq(rl_summary_add(&sum, &op, &p, NULL), 0);
	ck_assert_int_eq(rl_report_begin(out, fmt, &info, &rep), 0);
	ck_assert_int_eq(rl_report_row(rep, &op, &p), 0);
	ck_assert_int_eq(rl_report_end(rep, &sum), 0);
	rl_report_free(rep);
	rl_summary_release(&sum);
	rl_device_release(&dev);
	fclose(out);
	return buf;
}

START_TEST(test_expected_table)
{
	char *s = render_one(RL_FMT_TABLE, 0, 0);

	ck_assert_msg(strstr(s, "\nexpected times: profile x (measured on y)\n") != NULL, "%s", s);
	ck_assert_msg(strstr(s, " exp_us exp_bound ") != NULL, "%s", s);
	ck_assert_msg(strstr(s, " m/exp m/roof\n") != NULL, "%s", s);
	/* expected 12 us, memory, marked: the roofline says overhead */
	ck_assert_msg(strstr(s, "    12.00 memory*      24.00  2.00   6.00\n") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "\n* the roofline bound differs (--best-case shows it)\n") != NULL,
	              "%s", s);
	ck_assert_msg(strstr(s, "\ntotal: 12.00 us expected for 1 op (1 occurrence), ") != NULL,
	              "%s", s);
	ck_assert_msg(strstr(s, " 0 FLOP, 0 B\n  roofline bound: 5.00 us (--best-case)\n") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "\ntime by expected bound:\n  memory    100.0 %  (1 op)\n") != NULL,
	              "%s", s);
	/* 12 / 24 = 50 %, 4 / 24 = 17 % */
	ck_assert_msg(strstr(s, "\nmeasured GPU time 24.00 us over 1 op: expected 50 %, roofline 17 % "
	                        "of it\n") != NULL,
	              "%s", s);
	ck_assert_msg(strstr(s, "\n  all                1          50.0 %  50.0 %          83.3 %  "
	                        "83.3 %\n") != NULL,
	              "%s", s);
	ck_assert_msg(strstr(s, "\n  >= 20 us           1          50.0 %") != NULL, "%s", s);
	free(s);
	s = render_one(RL_FMT_TABLE, 0, 1);
	ck_assert_msg(strstr(s, " exp_gpu_us     exp_us exp_bound") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "      12.00      12.00 memory*") != NULL, "%s", s);
	free(s);
	s = render_one(RL_FMT_MD, 0, 0);
	ck_assert_msg(strstr(s, "| expected_us | expected bound |") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "| 12.00 | memory* |") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "| all | 1 | 50.0 % | 50.0 % | 83.3 % | 83.3 % |") != NULL, "%s", s);
	free(s);
}
END_TEST

/* --best-case: the roofline's columns and words, no mark. */
START_TEST(test_best_case_table)
{
	char *s = render_one(RL_FMT_TABLE, 1, 0);

	ck_assert_msg(strstr(s, "\nbest case (roofline bounds): ") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "expected times:") == NULL, "%s", s);
	ck_assert_msg(strstr(s, "      t_us bound      meas_us roof%\n") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "     5.00 overhead     24.00    17\n") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "differs") == NULL, "%s", s);
	ck_assert_msg(strstr(s, "\ntotal: 5.00 us predicted for 1 op (1 occurrence), ") != NULL,
	              "%s", s);
	ck_assert_msg(strstr(s, "\ntime by bound (best case: roofline bounds):\n") != NULL, "%s", s);
	free(s);
}
END_TEST

START_TEST(test_expected_csv_json)
{
	char *s = render_one(RL_FMT_CSV, 0, 0);

	ck_assert_msg(strstr(s, ",measured_us,roofline_pct,measured_over_expected,"
	                        "measured_over_roofline,l2_resident,expected_gpu_us,expected_us,"
	                        "expected_bound\n") != NULL,
	              "%s", s);
	ck_assert_msg(strstr(s, ",24,16.6667,2,6,0,12,12,memory\n") != NULL, "%s", s);
	free(s);
	s = render_one(RL_FMT_JSON, 0, 0);
	ck_assert_msg(strstr(s, "\"expected_source\":\"expected times: profile x (measured on y)\"") !=
	                  NULL,
	              "%s", s);
	ck_assert_msg(strstr(s, "\"expected_gpu_us\":12,\"expected_us\":12,\"expected_bound\":\"memory\"") !=
	                  NULL,
	              "%s", s);
	ck_assert_msg(strstr(s, "\"measured_over_expected\":2,\"measured_over_roofline\":6") != NULL,
	              "%s", s);
	ck_assert_msg(strstr(s, "\"total_us\":5,\"gpu_us\":4,\"expected_us\":12,\"expected_gpu_us\":12") !=
	                  NULL,
	              "%s", s);
	ck_assert_msg(strstr(s, "\"error\":{\"ops\":1,\"expected_median\":0.5,") != NULL, "%s", s);
	free(s);
}
END_TEST

Suite *suite_report(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("formats");

	tcase_set_timeout(tc, 60); /* the printf comparison is slow under sanitizers */
	tcase_add_test(tc, test_fmt_matches_printf);
	tcase_add_test(tc, test_csv_columns);
	tcase_add_test(tc, test_csv_quotes_blanks);
	tcase_add_test(tc, test_json_structure);
	tcase_add_test(tc, test_json_row_strings);
	tcase_add_test(tc, test_json_bandwidth);
	tcase_add_test(tc, test_table_fits_80_columns);
	suite_add_tcase(s, tc);
	tc = tcase_create("expected");
	tcase_add_test(tc, test_summary_totals);
	tcase_add_test(tc, test_summary_errors);
	tcase_add_test(tc, test_expected_table);
	tcase_add_test(tc, test_best_case_table);
	tcase_add_test(tc, test_expected_csv_json);
	suite_add_tcase(s, tc);
	return s;
}
