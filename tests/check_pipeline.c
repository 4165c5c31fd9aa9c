/* check_pipeline.c - the classify pipeline: hand-built ops in, the report's
 * rows, the summary, the timeline and the errors out; no files read.
 *
 * Device: tests/data/tiny.device (1 TB/s, 10 TFLOPS fp32 vector with FMA,
 * so 5 TFLOP/s for a pointwise op's plain FLOPs, a 2 us launch floor), with
 * 5 us of host time per launch. The ops, worked out by hand:
 *
 *   a  pointwise fp32, 10^6 elements: reads 4 MB, writes 4 MB = 8e6 B,
 *      8 us at 1 TB/s; 10^6 FLOP, 0.2 us; memory-bound, t = 8 us
 *   b  pointwise fp32, 1000 elements: 8000 B, 0.008 us; 1000 FLOP; the
 *      5 us host time is the longest: overhead-bound, t = 5 us
 *   g  two pointwise ops of 10^6 elements in fuse group "g": the group reads
 *      x (4 MB) once and writes its output (4 MB) once, the intermediate
 *      stays on chip: 8e6 B, 8 us; 2e6 FLOP, 0.4 us; memory-bound, t = 8 us
 *      (16 us unfused)
 *
 * Totals over the kernels a, b, g: 21 us, 16 us memory-bound (2 ops), 5 us
 * overhead-bound (1 op), 3001000 FLOP, 16008000 B. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include "check.h"
#include "num.h"
#include "pipeline.h"
#include "symbols.h"

static struct rl_device tiny;
static struct rl_runtime rt;
static struct rl_pipeline_model model;

static void setup(void)
{
	struct rl_err err;

	ck_assert_msg(rl_device_load(RL_TEST_DATA "/tiny.device", &tiny, &err) == 0, "%s", err.msg);
	memset(&rt, 0, sizeof(rt));
	rt.id = (char *)"test";
	model.dev = &tiny;
	model.rt = &rt;
	model.host_overhead_us = 5;
	model.db = NULL;
	model.best_case = 1; /* the tests work out roofline times by hand */
	model.expected_source = NULL;
}

static void teardown(void)
{
	rl_device_release(&tiny);
}

static const char *cells[4][1] = {{"l0"}, {"l1"}, {"l2"}, {"l3"}};

/* Op I of the list a, b, g1, g2 (lines 2 to 5). */
static void mkop(struct rl_op *op, size_t i)
{
	static const char *const names[] = {"a", "b", "g1", "g2"};
	static const char *const shapes[] = {"1000000", "1000", "1000000", "1000000"};

	rl_op_init(op);
	op->name = names[i];
	op->kind = RL_KIND_POINTWISE;
	op->dtype = RL_FP32;
	ck_assert_int_eq(rl_parse_dims(shapes[i], op->dims, RL_MAX_DIMS, &op->ndims, NULL), 0);
	op->has |= RL_HAS_SHAPE | RL_HAS_FPE;
	op->flops_per_element = 1;
	op->fuse = i >= 2 ? "g" : NULL;
	op->line = i + 2;
	op->extra = cells[i];
}

/* Feeds the four ops through a pipeline writing FMT into a malloc'ed
 * string; *SUM gets the summary. The extra column's name is overwritten
 * right after begin: the pipeline must hold its own copy. */
static char *run(enum rl_format fmt, struct rl_summary *sum)
{
	struct rl_pipeline_sinks sinks;
	struct rl_pipeline_columns cols;
	char name[8] = "layer";
	const char *names[1] = {name};
	struct rl_err err;
	rl_pipeline *pl;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *out = open_memstream(&buf, &len);

	memset(&sinks, 0, sizeof(sinks));
	sinks.out = out;
	sinks.fmt = fmt;
	memset(&cols, 0, sizeof(cols));
	cols.input = "t.csv";
	cols.nextra = 1;
	cols.extra_names = names;
	ck_assert_int_eq(rl_pipeline_begin(&model, &sinks, &cols, &pl), 0);
	strcpy(name, "XXXXX");
	for (i = 0; i < 4; i++) {
		struct rl_op op;

		mkop(&op, i);
		ck_assert_int_eq(rl_pipeline_op(pl, &op, &err), 0);
	}
	ck_assert_int_eq(rl_pipeline_end(pl, &err), 0);
	*sum = *rl_pipeline_summary(pl);
	sum->ntop = 0; /* the names are the pipeline's */
	rl_pipeline_free(pl);
	fclose(out);
	return buf;
}

START_TEST(test_summary)
{
	struct rl_summary s;
	char *text = run(RL_FMT_CSV, &s);

	ck_assert_uint_eq(s.ops, 3);
	ck_assert_double_eq_tol(s.total_us, 21, 1e-9);
	ck_assert_double_eq_tol(s.bound_us[RL_BOUND_MEMORY], 16, 1e-9);
	ck_assert_double_eq_tol(s.bound_us[RL_BOUND_OVERHEAD], 5, 1e-9);
	ck_assert_double_eq_tol(s.bound_us[RL_BOUND_COMPUTE], 0, 1e-9);
	ck_assert_uint_eq(s.bound_ops[RL_BOUND_MEMORY], 2);
	ck_assert_uint_eq(s.bound_ops[RL_BOUND_OVERHEAD], 1);
	ck_assert_double_eq_tol(s.flops, 3001000, 1e-6);
	ck_assert_double_eq_tol(s.bytes, 16008000, 1e-6);
	free(text);
}
END_TEST

/* The csv field COL of the row named ROW, into BUF. */
static void field(const char *csv, const char *row, const char *col, char *buf, size_t len)
{
	char *copy = strdup(csv), *line, *save = NULL, *head = NULL;
	int want = -1;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f, *s2 = NULL;
		int k = 0;

		if (head == NULL) {
			head = line;
			for (f = strtok_r(line, ",", &s2); f; f = strtok_r(NULL, ",", &s2), k++)
				if (strcmp(f, col) == 0)
					want = k;
			continue;
		}
		if (strncmp(line, row, strlen(row)) != 0 || line[strlen(row)] != ',')
			continue;
		/* fields may be empty: walk the commas by hand */
		for (f = line; k < want && f != NULL; k++) {
			f = strchr(f, ',');
			if (f != NULL)
				f++;
		}
		ck_assert_ptr_nonnull(f);
		snprintf(buf, len, "%.*s", (int)strcspn(f, ","), f);
		free(copy);
		return;
	}
	ck_abort_msg("no row %s (column %s, index %d) in:\n%s", row, col, want, csv);
}

/* The rows: a and b as themselves, g1 and g2 as one kernel "g" of kind
 * fused; the extra column carried, empty for the group. */
START_TEST(test_csv_rows)
{
	struct rl_summary s;
	char *csv = run(RL_FMT_CSV, &s), v[64];

	ck_assert_msg(strstr(csv, ",l2_resident,expected_gpu_us,expected_us,expected_bound,layer\n") != NULL,
	              "%s", csv);
	ck_assert_ptr_null(strstr(csv, "\ng1,"));
	field(csv, "a", "t_us", v, sizeof(v));
	ck_assert_double_eq_tol(strtod(v, NULL), 8, 1e-9);
	field(csv, "a", "bound", v, sizeof(v));
	ck_assert_str_eq(v, "memory");
	field(csv, "a", "layer", v, sizeof(v));
	ck_assert_str_eq(v, "l0");
	field(csv, "b", "t_us", v, sizeof(v));
	ck_assert_double_eq_tol(strtod(v, NULL), 5, 1e-9);
	field(csv, "b", "bound", v, sizeof(v));
	ck_assert_str_eq(v, "overhead");
	field(csv, "g", "kind", v, sizeof(v));
	ck_assert_str_eq(v, "fused");
	field(csv, "g", "bytes", v, sizeof(v));
	ck_assert_double_eq_tol(strtod(v, NULL), 8e6, 1e-6);
	field(csv, "g", "flops", v, sizeof(v));
	ck_assert_double_eq_tol(strtod(v, NULL), 2e6, 1e-6);
	field(csv, "g", "t_us", v, sizeof(v));
	ck_assert_double_eq_tol(strtod(v, NULL), 8, 1e-9);
	field(csv, "g", "bound", v, sizeof(v));
	ck_assert_str_eq(v, "memory");
	field(csv, "g", "layer", v, sizeof(v));
	ck_assert_str_eq(v, "");
	free(csv);
}
END_TEST

/* Issue 11, bug 1: the last kernel is the group, flushed at the end, after
 * the column's name was gone; json names every extra cell. */
START_TEST(test_json_extra_names)
{
	static const char *rows[] = {"ops", NULL};
	static const char *extra[] = {"extra", "layer", NULL};
	static const char *name[] = {"name", NULL};
	struct rl_summary s;
	char *json = run(RL_FMT_JSON, &s), ebuf[256];
	yajl_val root = yajl_tree_parse(json, ebuf, sizeof(ebuf)), ops, v;

	ck_assert_msg(root != NULL, "%s: %s", ebuf, json);
	ops = yajl_tree_get(root, rows, yajl_t_array);
	ck_assert_ptr_nonnull(ops);
	ck_assert_uint_eq(YAJL_GET_ARRAY(ops)->len, 3);
	v = yajl_tree_get(YAJL_GET_ARRAY(ops)->values[2], name, yajl_t_string);
	ck_assert_str_eq(YAJL_GET_STRING(v), "g");
	v = yajl_tree_get(YAJL_GET_ARRAY(ops)->values[2], extra, yajl_t_string);
	ck_assert_ptr_nonnull(v);
	ck_assert_str_eq(YAJL_GET_STRING(v), "");
	v = yajl_tree_get(YAJL_GET_ARRAY(ops)->values[1], extra, yajl_t_string);
	ck_assert_ptr_nonnull(v);
	ck_assert_str_eq(YAJL_GET_STRING(v), "l1");
	yajl_tree_free(root);
	free(json);
}
END_TEST

/* The table ends with the fusion what-if when asked: the group saves
 * 16 - 8 = 8 us. */
START_TEST(test_whatif)
{
	struct rl_pipeline_sinks sinks;
	struct rl_pipeline_columns cols;
	const struct rl_fuse_stream *fs;
	rl_pipeline *pl;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *out = open_memstream(&buf, &len);

	memset(&sinks, 0, sizeof(sinks));
	sinks.out = out;
	sinks.fmt = RL_FMT_TABLE;
	sinks.whatif = 1;
	memset(&cols, 0, sizeof(cols));
	cols.input = "t.csv";
	model.best_case = 1; /* the roofline's times, worked out above */
	ck_assert_int_eq(rl_pipeline_begin(&model, &sinks, &cols, &pl), 0);
	model.best_case = 0;
	for (i = 0; i < 4; i++) {
		struct rl_op op;

		mkop(&op, i);
		op.extra = NULL;
		ck_assert_int_eq(rl_pipeline_op(pl, &op, NULL), 0);
	}
	ck_assert_int_eq(rl_pipeline_end(pl, NULL), 0);
	fs = rl_pipeline_fusion(pl);
	ck_assert_uint_eq(fs->ngroups, 1);
	ck_assert_str_eq(fs->groups[0].first, "g");
	ck_assert_uint_eq(fs->groups[0].nops, 2);
	ck_assert_double_eq_tol(fs->groups[0].unfused_us, 16, 1e-9);
	ck_assert_double_eq_tol(fs->groups[0].fused_us, 8, 1e-9);
	rl_pipeline_free(pl);
	fclose(out);
	ck_assert_msg(strstr(buf, "total: 21.00 us predicted for 3 ops") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "\nbest case (roofline bounds): ") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "fusion") != NULL, "%s", buf);
	free(buf);
}
END_TEST

/* The simulated step of the eager lane (5 us per launch) with the group
 * last: a issued at 5 runs 5..13, g issued at 10 runs 13..21; step 21 us,
 * busy 16. The group, flushed at the end, is in the step. */
START_TEST(test_timeline_group_last)
{
	struct rl_pipeline_sinks sinks;
	struct rl_pipeline_columns cols;
	struct rl_pipeline_model m = model;
	const struct rl_timeline *tl;
	struct rl_err err;
	rl_hwdb *db;
	rl_pipeline *pl;
	size_t i, found = 0;

	ck_assert_msg(rl_hwdb_open(RL_TEST_HWDB, &db, &err) == 0, "%s", err.msg);
	m.db = db;
	m.rt = rl_hwdb_find_runtime(db, "eager", &err);
	ck_assert_ptr_nonnull(m.rt);
	memset(&sinks, 0, sizeof(sinks));
	sinks.timeline = 1;
	memset(&cols, 0, sizeof(cols));
	cols.input = "t.csv";
	ck_assert_int_eq(rl_pipeline_begin(&m, &sinks, &cols, &pl), 0);
	for (i = 0; i < 4; i++) {
		struct rl_op op;

		if (i == 1)
			continue; /* a, then the group */
		mkop(&op, i);
		ck_assert_int_eq(rl_pipeline_op(pl, &op, &err), 0);
	}
	ck_assert_int_eq(rl_pipeline_end(pl, &err), 0);
	tl = rl_pipeline_timeline(pl);
	for (i = 0; i < tl->nlanes; i++) {
		const struct rl_tl_lane *l = &tl->lanes[i];

		if (strcmp(l->runtime, "eager") != 0)
			continue;
		found++;
		ck_assert_int_eq(l->selected, 1);
		ck_assert_double_eq_tol(l->kernels, 2, 1e-12);
		ck_assert_double_eq_tol(l->host_us, 10, 1e-9);
		ck_assert_double_eq_tol(l->busy_us, 16, 1e-9);
		ck_assert_double_eq_tol(l->step_us, 21, 1e-9);
		ck_assert_double_eq_tol(l->idle_us, 5, 1e-9);
	}
	ck_assert_uint_eq(found, 1);
	rl_pipeline_free(pl);
	rl_hwdb_free(db);
}
END_TEST

/* An op that cannot join its group (another count) is an error located at
 * its line: "t.csv:5: ...". */
START_TEST(test_error_located)
{
	struct rl_pipeline_sinks sinks;
	struct rl_pipeline_columns cols;
	struct rl_op op;
	struct rl_err err;
	rl_pipeline *pl;

	memset(&sinks, 0, sizeof(sinks));
	memset(&cols, 0, sizeof(cols));
	cols.input = "t.csv";
	ck_assert_int_eq(rl_pipeline_begin(&model, &sinks, &cols, &pl), 0);
	mkop(&op, 2);
	ck_assert_int_eq(rl_pipeline_op(pl, &op, &err), 0);
	mkop(&op, 3);
	op.count = 2;
	ck_assert_int_eq(rl_pipeline_op(pl, &op, &err), RL_ERR_PARSE);
	ck_assert_int_eq(err.code, RL_ERR_PARSE);
	ck_assert_msg(strncmp(err.msg, "t.csv:5: ", 9) == 0, "%s", err.msg);
	rl_pipeline_free(pl);
}
END_TEST

/* The total of occurrences is counted exactly: a (count 2^53) and b
 * (count 1) make 2^53 + 1 = 9007199254740993, which a double rounds to
 * 9007199254740992; the json summary and the table say it in full. */
START_TEST(test_occurrences_exact)
{
	struct rl_pipeline_sinks sinks;
	struct rl_pipeline_columns cols;
	struct rl_op op;
	struct rl_err err;
	rl_pipeline *pl;
	int fmt;

	for (fmt = 0; fmt < 2; fmt++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);

		memset(&sinks, 0, sizeof(sinks));
		sinks.out = out;
		sinks.fmt = fmt ? RL_FMT_JSON : RL_FMT_TABLE;
		memset(&cols, 0, sizeof(cols));
		cols.input = "t.csv";
		ck_assert_int_eq(rl_pipeline_begin(&model, &sinks, &cols, &pl), 0);
		mkop(&op, 0);
		op.count = 9007199254740992ull;
		ck_assert_int_eq(rl_pipeline_op(pl, &op, &err), 0);
		mkop(&op, 1);
		ck_assert_int_eq(rl_pipeline_op(pl, &op, &err), 0);
		ck_assert_int_eq(rl_pipeline_end(pl, &err), 0);
		ck_assert_uint_eq(rl_pipeline_summary(pl)->occurrences, 9007199254740993ull);
		rl_pipeline_free(pl);
		fclose(out);
		if (fmt)
			ck_assert_msg(strstr(buf, "\"occurrences\":9007199254740993,") != NULL,
			              "%s", buf);
		else
			ck_assert_msg(strstr(buf, " for 2 ops (9007199254740993 occurrences), ") !=
			                  NULL,
			              "%s", buf);
		free(buf);
	}
}
END_TEST

/* A kernel whose count would carry the total past 2^64 - 1 is refused
 * through the error path, located at its line, and the summary keeps what
 * came before: a (line 2) of count 2^63, then b (line 3) of 2^63: 2^64. */
START_TEST(test_occurrences_overflow)
{
	struct rl_pipeline_sinks sinks;
	struct rl_pipeline_columns cols;
	struct rl_op op;
	struct rl_err err;
	rl_pipeline *pl;

	memset(&sinks, 0, sizeof(sinks));
	memset(&cols, 0, sizeof(cols));
	cols.input = "t.csv";
	ck_assert_int_eq(rl_pipeline_begin(&model, &sinks, &cols, &pl), 0);
	mkop(&op, 0);
	op.count = 1ull << 63;
	ck_assert_int_eq(rl_pipeline_op(pl, &op, &err), 0);
	mkop(&op, 1);
	op.count = 1ull << 63;
	ck_assert_int_eq(rl_pipeline_op(pl, &op, &err), RL_ERR_RANGE);
	ck_assert_int_eq(err.code, RL_ERR_RANGE);
	ck_assert_str_eq(err.msg, "t.csv:3: column 'count': the total of occurrences passes "
	                          "2^64 - 1 (9223372036854775808 before this op, "
	                          "9223372036854775808 in it)");
	ck_assert_uint_eq(rl_pipeline_summary(pl)->occurrences, 1ull << 63);
	ck_assert_uint_eq(rl_pipeline_summary(pl)->ops, 1);
	/* 2^63 - 1 more still fits: 2^64 - 1 */
	op.count = (1ull << 63) - 1;
	ck_assert_int_eq(rl_pipeline_op(pl, &op, &err), 0);
	ck_assert_uint_eq(rl_pipeline_summary(pl)->occurrences, 18446744073709551615ull);
	rl_pipeline_free(pl);

	/* the last fusion group is emitted by end: its error, located at the
	 * group's first line (4), comes from rl_pipeline_end */
	ck_assert_int_eq(rl_pipeline_begin(&model, &sinks, &cols, &pl), 0);
	mkop(&op, 0);
	op.count = 1ull << 63;
	ck_assert_int_eq(rl_pipeline_op(pl, &op, &err), 0);
	mkop(&op, 2);
	op.count = 1ull << 63;
	ck_assert_int_eq(rl_pipeline_op(pl, &op, &err), 0);
	mkop(&op, 3);
	op.count = 1ull << 63;
	ck_assert_int_eq(rl_pipeline_op(pl, &op, &err), 0);
	ck_assert_int_eq(rl_pipeline_end(pl, &err), RL_ERR_RANGE);
	ck_assert_msg(strstr(err.msg, "t.csv:4: column 'count': the total of occurrences") ==
	                  err.msg,
	              "%s", err.msg);
	rl_pipeline_free(pl);
}
END_TEST

/* The scale: B (the 10^6 of a and the group, not b's 1000) times 2. a and
 * g move twice the bytes, 16 us each, and follow the work (linear); b does
 * not change (fixed). Base 8 + 5 + 8 = 21 us, scaled 16 + 5 + 16 = 37 us.
 * Each kernel at the base size is paired with its twin: the csv has one
 * row per kernel, the group's one row. */
START_TEST(test_scale_pairs)
{
	struct rl_pipeline_sinks sinks;
	struct rl_pipeline_columns cols;
	const struct rl_scale_sum *ss;
	struct rl_symbols syms;
	struct rl_err err;
	rl_pipeline *pl;
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0, i, rows = 0;
	FILE *out = open_memstream(&buf, &len);

	rl_symbols_init(&syms);
	ck_assert_int_eq(rl_symbols_set(&syms, "B=1000000", &err), 0);
	ck_assert_int_eq(rl_symbols_scale(&syms, "B=2", &err), 0);
	memset(&sinks, 0, sizeof(sinks));
	sinks.out = out;
	sinks.fmt = RL_FMT_CSV;
	sinks.scale = &syms;
	sinks.scale_label = "B x2";
	memset(&cols, 0, sizeof(cols));
	cols.input = "t.csv";
	ck_assert_int_eq(rl_pipeline_begin(&model, &sinks, &cols, &pl), 0);
	for (i = 0; i < 4; i++) {
		struct rl_op op;

		mkop(&op, i);
		if (i != 1)
			op.dim_sym[0] = 1; /* bound from B */
		ck_assert_int_eq(rl_pipeline_op(pl, &op, &err), 0);
	}
	ck_assert_int_eq(rl_pipeline_end(pl, &err), 0);
	ss = rl_pipeline_scale_sum(pl);
	ck_assert_uint_eq(ss->ops, 3);
	ck_assert_double_eq_tol(ss->base_us, 21, 1e-9);
	ck_assert_double_eq_tol(ss->scaled_us, 37, 1e-9);
	ck_assert_uint_eq(ss->ops_by[RL_SCALE_LINEAR], 2);
	ck_assert_uint_eq(ss->ops_by[RL_SCALE_FIXED], 1);
	ck_assert_double_eq_tol(ss->scaled_by[RL_SCALE_LINEAR], 32, 1e-9);
	rl_pipeline_free(pl);
	fclose(out);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		rows++;
	ck_assert_msg(rows == 4, "a header and 3 rows:\n%s", buf);
	free(buf);
}
END_TEST

/* The model's expected_source reaches the report's header (table) and its
 * json; --best-case drops it (the times are the roofline's then). */
START_TEST(test_expected_source)
{
	static const char *const src = "expected times: profile p (measured on d)";
	struct rl_pipeline_sinks sinks;
	struct rl_pipeline_columns cols;
	int fmt, best;

	for (best = 0; best < 2; best++) {
		for (fmt = 0; fmt < 2; fmt++) {
			rl_pipeline *pl;
			char *buf = NULL;
			size_t len = 0;
			FILE *out = open_memstream(&buf, &len);
			struct rl_op op;

			memset(&sinks, 0, sizeof(sinks));
			sinks.out = out;
			sinks.fmt = fmt ? RL_FMT_JSON : RL_FMT_TABLE;
			memset(&cols, 0, sizeof(cols));
			cols.input = "t.csv";
			model.expected_source = src;
			model.best_case = best;
			ck_assert_int_eq(rl_pipeline_begin(&model, &sinks, &cols, &pl), 0);
			model.expected_source = NULL;
			model.best_case = 0;
			mkop(&op, 0);
			op.extra = NULL;
			ck_assert_int_eq(rl_pipeline_op(pl, &op, NULL), 0);
			ck_assert_int_eq(rl_pipeline_end(pl, NULL), 0);
			rl_pipeline_free(pl);
			fclose(out);
			if (best)
				ck_assert_msg(strstr(buf, src) == NULL, "%s", buf);
			else if (fmt)
				ck_assert_msg(strstr(buf, "\"expected_source\":\"expected times: profile p "
				                          "(measured on d)\"") != NULL,
				              "%s", buf);
			else
				ck_assert_msg(strstr(buf, "\nexpected times: profile p (measured on d)\n") !=
				                  NULL,
				              "%s", buf);
			if (fmt)
				ck_assert_msg(strstr(buf, best ? "\"best_case\":true" : "\"best_case\":false") !=
				                  NULL,
				              "%s", buf);
			free(buf);
		}
	}
}
END_TEST

Suite *suite_pipeline(void)
{
	Suite *s = suite_create("pipeline");
	TCase *tc = tcase_create("pipeline");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_summary);
	tcase_add_test(tc, test_csv_rows);
	tcase_add_test(tc, test_json_extra_names);
	tcase_add_test(tc, test_whatif);
	tcase_add_test(tc, test_expected_source);
	tcase_add_test(tc, test_timeline_group_last);
	tcase_add_test(tc, test_error_located);
	tcase_add_test(tc, test_occurrences_exact);
	tcase_add_test(tc, test_occurrences_overflow);
	tcase_add_test(tc, test_scale_pairs);
	suite_add_tcase(s, tc);
	return s;
}
