/* check_report.c - the writers: csv column contract, json structure (read
 * back with yajl's tree parser), and the 80-column table. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
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

/* Classifies ops_text on the A100 40GB with 5 us of host overhead into a
 * malloc'ed string. */
static char *render(enum rl_format fmt, int wide)
{
	return render_text(ops_text, fmt, wide);
}

/* The same for the op list TEXT. */
static char *render_text(const char *text, enum rl_format fmt, int wide)
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

	test_load_device("a100-sxm4-40gb", &dev);
	rl_errlist_init(&errs);
	ck_assert_int_eq(rl_oplist_read(in, "t.csv", &l, &errs), 0);
	fclose(in);
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

Suite *suite_report(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("formats");

	tcase_set_timeout(tc, 60); /* the printf comparison is slow under sanitizers */
	tcase_add_test(tc, test_fmt_matches_printf);
	tcase_add_test(tc, test_csv_columns);
	tcase_add_test(tc, test_csv_quotes_blanks);
	tcase_add_test(tc, test_json_structure);
	tcase_add_test(tc, test_table_fits_80_columns);
	suite_add_tcase(s, tc);
	return s;
}
