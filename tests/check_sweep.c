/* check_sweep.c - sweeps (sweep.h): the value list, rows from a pipeline,
 * the knee and the first value out of memory, the csv read back; values
 * worked out by hand.
 *
 * The matmul list: "mm,matmul,bf16,Bx10000x10000,1" (M = B, N = K = 10^4)
 * on tests/data/tiny.device (100 TFLOP/s bf16 tensor, 1 TB/s), best case,
 * 5 us host time per launch:
 *   FLOPs 2 x B x 10^8: 2 B us at 100 TFLOP/s;
 *   bytes: the weights K x N x 2 = 2e8, A and C 2 x B x 10^4 x 2 = 4e4 B:
 *   200 + 0.04 B us at 1 TB/s.
 *   B = 1: memory-bound, 200.04 us; B = 1000, 2000, 4000: compute-bound,
 *   2000, 4000, 8000 us (over 240, 280, 360 us of memory): the time
 *   doubles with B, and items/s (items = B) stay at 1000 / 2000 us = 5e5/s.
 *   Memory: weights 2e8 B, activations (A and C) 4e4 B: 2.4e8, 2.8e8,
 *   3.6e8 B at B = 1000, 2000, 4000; a 0.3 GiB device (322,122,547 B) holds
 *   the first two only.
 *
 * Llama-3-8B decode (examples/llama3-8b.json), context 2048, bf16, on the
 * H100 SXM (80 GiB = 85,899,345,920 B):
 *   weights: per layer qkv 4096 x 6144, o 4096 x 4096, gate_up 4096 x 28672,
 *   down 14336 x 4096 = 218,103,808 parameters, x 32 = 6,979,321,856, plus
 *   lm_head 4096 x 128256 = 525,336,576: 7,504,658,432 x 2 B =
 *   15,009,316,864 B whatever the batch;
 *   KV: 2 x 32 layers x 8 heads x 128 x 2048 x 2 B = 268,435,456 B per
 *   sequence;
 *   activations: the largest op's, lm_head: B x (4096 + 128256) x 2 =
 *   264,704 B per sequence.
 *   Fits while 15,009,316,864 + B x 268,700,160 <= 85,899,345,920:
 *   B <= 263.8, so batch 263 fits and 264 does not. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hfconfig.h"
#include "modelops.h"
#include "oplist.h"
#include "pipeline.h"
#include "sweep.h"
#include "sweep_oplist.h"
#include "sweep_report.h"
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
	memset(&model, 0, sizeof(model));
	model.dev = &tiny;
	model.rt = &rt;
	model.host_overhead_us = 5;
	model.best_case = 1;
}

static void teardown(void)
{
	rl_device_release(&tiny);
}

static void set_mem(struct rl_device *d, double gib)
{
	d->num[RL_HW_MEMORY_GIB].present = 1;
	d->num[RL_HW_MEMORY_GIB].value = gib;
}

START_TEST(parse_good)
{
	struct rl_sweep_spec sw;
	struct rl_err e;

	ck_assert_int_eq(rl_sweep_parse("batch=1,8,64,256", &sw, &e), 0);
	ck_assert_str_eq(sw.name, "batch");
	ck_assert_uint_eq(sw.n, 4);
	ck_assert_uint_eq(sw.value[0], 1);
	ck_assert_uint_eq(sw.value[3], 256);
	ck_assert_int_eq(rl_sweep_parse("H_kv=7", &sw, &e), 0);
	ck_assert_str_eq(sw.name, "H_kv");
	ck_assert_uint_eq(sw.n, 1);
	ck_assert_uint_eq(sw.value[0], 7);
}
END_TEST

static const struct {
	const char *spec;
	int rc;
	const char *msg; /* a part of the message */
} bad[] = {
    {"batch", RL_ERR_PARSE, "is not NAME=V1,V2"},
    {"batch=", RL_ERR_PARSE, "batch: no values"},
    {"batch=1,,2", RL_ERR_PARSE, "value 2 is empty"},
    {"batch=1,", RL_ERR_PARSE, "value 2 is empty"},
    {"batch=1,x", RL_ERR_PARSE, "value 2 'x'"},
    {"batch=1.5", RL_ERR_PARSE, "value 1 '1.5'"},
    {"batch=0", RL_ERR_RANGE, "below the minimum 1"},
    {"batch=-4", RL_ERR_PARSE, "value 1 '-4'"},
    {"batch=8,4", RL_ERR_PARSE, "must increase"},
    {"batch=4,4", RL_ERR_PARSE, "must increase"},
    {"=1,2", RL_ERR_PARSE, "is not a name"},
    {"1b=1", RL_ERR_PARSE, "'1b' is not a name"},
    {"b-c=1", RL_ERR_PARSE, "is not a name"},
    {"batch=99999999999999999999", RL_ERR_RANGE, "value 1"},
};

START_TEST(parse_bad)
{
	struct rl_sweep_spec sw;
	struct rl_err e;

	e.msg[0] = '\0';
	ck_assert_int_eq(rl_sweep_parse(bad[_i].spec, &sw, &e), bad[_i].rc);
	ck_assert_msg(strstr(e.msg, bad[_i].msg) != NULL, "'%s': '%s' lacks '%s'", bad[_i].spec,
	              e.msg, bad[_i].msg);
}
END_TEST

/* 257 values: one past the most */
START_TEST(parse_too_many)
{
	char spec[4096];
	struct rl_sweep_spec sw;
	struct rl_err e;
	size_t o = 0;
	int i;

	o += (size_t)snprintf(spec, sizeof(spec), "B=");
	for (i = 1; i <= RL_SWEEP_MAX_VALUES + 1; i++)
		o += (size_t)snprintf(spec + o, sizeof(spec) - o, "%s%d", i > 1 ? "," : "", i);
	ck_assert_int_eq(rl_sweep_parse(spec, &sw, &e), RL_ERR_RANGE);
	ck_assert_ptr_nonnull(strstr(e.msg, "more than 256 values"));
}
END_TEST

static const char mm_list[] = "name,kind,dtype,shape,count\n"
                              "mm,matmul,bf16,Bx10000x10000,1\n";

static int run_list(const char *spec, const char *text, const char *items, struct rl_sweep_table *t,
                    struct rl_errlist *errs)
{
	struct rl_sweep_spec sw;
	struct rl_sweep_oplist l;
	struct rl_err e;

	ck_assert_int_eq(rl_sweep_parse(spec, &sw, &e), 0);
	memset(&l, 0, sizeof(l));
	l.name = "mm.csv";
	l.text = text;
	l.len = strlen(text);
	l.items_expr = items;
	rl_errlist_init(errs);
	return rl_sweep_oplist_run(&sw, &l, &model, t, errs);
}

START_TEST(matmul_rows)
{
	static struct rl_sweep_table t;
	struct rl_errlist errs;

	set_mem(&tiny, 0.3);
	ck_assert_int_eq(run_list("B=1,1000,2000,4000", mm_list, "B", &t, &errs), 0);
	ck_assert_uint_eq(t.n, 4);
	ck_assert_str_eq(t.name, "B");
	ck_assert_str_eq(t.items, "items");
	/* B = 1: memory-bound */
	ck_assert_double_eq_tol(t.row[0].roofline_us, 200.04, 1e-6);
	ck_assert_double_eq_tol(t.row[0].share[RL_BOUND_MEMORY], 1.0, 1e-12);
	ck_assert_int_eq(rl_sweep_row_bound(&t.row[0]), RL_BOUND_MEMORY);
	/* compute-bound from B = 1000: 2 B us, the time doubles with B */
	ck_assert_double_eq_tol(t.row[1].roofline_us, 2000.0, 1e-6);
	ck_assert_double_eq_tol(t.row[2].roofline_us, 4000.0, 1e-6);
	ck_assert_double_eq_tol(t.row[3].roofline_us, 8000.0, 1e-6);
	ck_assert_double_eq_tol(t.row[3].step_us, 8000.0, 1e-6); /* best case */
	ck_assert_double_eq_tol(t.row[1].share[RL_BOUND_COMPUTE], 1.0, 1e-12);
	ck_assert_uint_eq(t.row[2].value, 2000);
	ck_assert_double_eq(t.row[2].items, 2000.0);
	ck_assert_double_eq_tol(rl_sweep_row_per_s(&t.row[1], 0), 5e5, 1e-6);
	ck_assert_double_eq_tol(rl_sweep_row_per_s(&t.row[3], 1), 5e5, 1e-6);
	/* memory: weights constant, activations 4e4 B per row of A and C */
	ck_assert_double_eq(t.row[0].weight_bytes, 2e8);
	ck_assert_double_eq(t.row[3].weight_bytes, 2e8);
	ck_assert_double_eq(t.row[1].activation_bytes, 4e7);
	ck_assert_double_eq(t.row[3].memory_bytes, 3.6e8);
	ck_assert_double_eq(t.row[2].kv_bytes, 0);
	ck_assert_int_eq(t.row[2].fits, 1);
	ck_assert_int_eq(t.row[3].fits, 0);
	ck_assert_int_eq(rl_sweep_knee(&t), 1);
	ck_assert_int_eq(rl_sweep_oom(&t), 3);
}
END_TEST

/* compute-bound throughout: no knee; no memory_gib: everything fits */
START_TEST(matmul_no_knee)
{
	static struct rl_sweep_table t;
	struct rl_errlist errs;

	ck_assert_int_eq(run_list("B=1000,2000", mm_list, NULL, &t, &errs), 0);
	ck_assert_str_eq(t.items, "");
	ck_assert_double_eq(t.row[0].items, 0);
	ck_assert_double_eq(rl_sweep_row_per_s(&t.row[0], 0), 0);
	ck_assert_int_eq(rl_sweep_knee(&t), -1);
	ck_assert_int_eq(rl_sweep_oom(&t), -1);
	ck_assert_double_eq(t.device_bytes, 0);
}
END_TEST

START_TEST(oplist_errors)
{
	static struct rl_sweep_table t;
	struct rl_errlist errs;

	/* a name no shape or count uses */
	ck_assert_int_eq(run_list("S=1,2",
	                          "name,kind,dtype,shape,count\nmm,matmul,bf16,"
	                          "4x4x4,1\n",
	                          NULL, &t, &errs),
	                 RL_ERR_ARG);
	ck_assert_uint_eq(errs.count, 1);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "no shape or count of mm.csv uses the name 'S'"));
	/* used in count only: fine */
	ck_assert_int_eq(run_list("L=1,2",
	                          "name,kind,dtype,shape,count\nmm,matmul,bf16,"
	                          "4x4x4,L\n",
	                          NULL, &t, &errs),
	                 0);
	/* --items-per-step over a name not bound */
	ck_assert_int_lt(run_list("B=1", mm_list, "B*T", &t, &errs), 0);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "'T'"));
	/* a bad list fails at its first value */
	ck_assert_int_eq(
	    run_list("B=1,2", "name,kind,dtype,shape\nmm,matmul,fp9,Bx4x4\n", NULL, &t, &errs),
	    RL_ERR_PARSE);
	ck_assert_uint_eq(t.n, 0);
}
END_TEST

/* Llama-3-8B rows as op list v1 (its rows have neither kernels nor
 * flops_per_element), as roofline model -f oplist writes them. */
static char *llama_list(const struct rl_hfconfig *cfg, uint64_t batch, size_t *len)
{
	struct rl_modelops_opts o = {.phase = RL_PHASE_DECODE,
	                             .batch = batch,
	                             .seq = 2048,
	                             .context = 2048,
	                             .dtype = RL_BF16,
	                             .weight_dtype = RL_BF16,
	                             .kv_dtype = RL_BF16,
	                             .expert_imbalance = 1.0};
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	struct rl_err e;
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	int n = rl_modelops_build(cfg, &o, r, &e), i;

	ck_assert_msg(n > 0, "%s", e.msg);
	ck_assert_ptr_nonnull(f);
	fputs("name,kind,dtype,shape,inputs,causal,kv_heads,weight_dtype,kv_dtype,count\n", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s,%s,bf16,%s,", r[i].name, r[i].kind, r[i].shape);
		if (r[i].inputs)
			fprintf(f, "%u", r[i].inputs);
		fprintf(f, ",%s,", r[i].causal ? "1" : "");
		if (r[i].kv_heads)
			fprintf(f, "%llu", (unsigned long long)r[i].kv_heads);
		fprintf(f, ",%s,%s,%llu\n", r[i].weights ? "bf16" : "", r[i].kv ? "bf16" : "",
		        (unsigned long long)r[i].count);
	}
	ck_assert_int_eq(fclose(f), 0);
	return text;
}

struct llama {
	struct rl_hfconfig cfg;
	struct rl_pipeline_model m;
	rl_pipeline *pl;
};

static int llama_header(const struct rl_ops_header *h, void *user)
{
	struct llama *l = user;
	struct rl_pipeline_sinks sinks;
	struct rl_pipeline_columns cols;

	(void)h;
	memset(&sinks, 0, sizeof(sinks));
	memset(&cols, 0, sizeof(cols));
	cols.input = "llama";
	return rl_pipeline_begin(&l->m, &sinks, &cols, &l->pl);
}

static int llama_op(const struct rl_op *op, void *user)
{
	struct llama *l = user;

	return rl_pipeline_op(l->pl, op, NULL);
}

static int llama_step(void *user, uint64_t batch, const struct rl_summary **s,
                      const struct rl_memfit **m, double *items)
{
	struct llama *l = user;
	struct rl_ops_sink sink = {llama_header, llama_op, l, NULL, NULL, 0};
	struct rl_errlist errs;
	size_t len;
	char *text = llama_list(&l->cfg, batch, &len);
	FILE *f = fmemopen(text, len, "r");

	rl_pipeline_free(l->pl);
	l->pl = NULL;
	rl_errlist_init(&errs);
	ck_assert_int_eq(rl_ops_read(f, "llama", &sink, &errs), 0);
	ck_assert_int_eq(rl_pipeline_end(l->pl, NULL), 0);
	fclose(f);
	free(text);
	*s = rl_pipeline_summary(l->pl);
	*m = rl_pipeline_memfit(l->pl);
	*items = (double)batch;
	return 0;
}

START_TEST(llama_memory)
{
	static struct rl_sweep_table t;
	struct rl_sweep_spec sw;
	struct rl_device h100;
	struct llama l;
	struct rl_err e;
	int i;

	memset(&l, 0, sizeof(l));
	ck_assert_int_eq(rl_hfconfig_read(RL_EXAMPLES "/llama3-8b.json", &l.cfg, &e), 0);
	test_load_device("h100-sxm", &h100);
	l.m = model;
	l.m.dev = &h100;
	ck_assert_int_eq(rl_sweep_parse("batch=1,2,4,263,264", &sw, &e), 0);
	rl_sweep_table_init(&t, "batch", "tokens", &h100);
	ck_assert_int_eq(rl_sweep_run(&sw, llama_step, &l, &h100, &t), 0);
	ck_assert_uint_eq(t.n, 5);
	ck_assert_double_eq(t.device_bytes, 85899345920.0);
	for (i = 0; i < 5; i++) {
		double b = (double)t.row[i].value;

		ck_assert_double_eq(t.row[i].weight_bytes, 15009316864.0);
		ck_assert_double_eq(t.row[i].kv_bytes, b * 268435456.0);
		ck_assert_double_eq(t.row[i].activation_bytes, b * 264704.0);
		ck_assert_double_eq(t.row[i].items, b);
	}
	ck_assert_int_eq(t.row[3].fits, 1);
	ck_assert_int_eq(t.row[4].fits, 0);
	ck_assert_int_eq(rl_sweep_oom(&t), 4);
	rl_pipeline_free(l.pl);
	rl_device_release(&h100);
}
END_TEST

/* The csv written, then read back: the same rows (to the csv's 6 digits) */
START_TEST(csv_round_trip)
{
	static struct rl_sweep_table t, back;
	struct rl_errlist errs;
	struct rl_err e;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	set_mem(&tiny, 0.3);
	ck_assert_int_eq(run_list("B=1,1000,2000,4000", mm_list, "B", &t, &errs), 0);
	f = open_memstream(&text, &len);
	ck_assert_int_eq(rl_sweep_report_write(f, RL_FMT_CSV, &t), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "B,step_us,roofline_us,items_per_step,items_per_s,"));
	ck_assert_ptr_nonnull(strstr(text,
	                             "\n4000,8000,8000,4000,500000,500000,100,0,0,0,200000000,0,"
	                             "160000000,360000000,322122547,no\n"));
	f = fmemopen(text, len, "r");
	ck_assert_int_eq(rl_sweep_read_csv(f, "s.csv", &back, &e), 0);
	fclose(f);
	free(text);
	ck_assert_str_eq(back.name, "B");
	ck_assert_str_eq(back.items, "items");
	ck_assert_uint_eq(back.n, 4);
	ck_assert_double_eq_tol(back.row[0].step_us, 200.04, 1e-9);
	ck_assert_double_eq(back.row[2].items, 2000);
	ck_assert_double_eq_tol(back.row[0].share[RL_BOUND_MEMORY], 1.0, 1e-12);
	ck_assert_int_eq(rl_sweep_knee(&back), 1);
	ck_assert_int_eq(rl_sweep_oom(&back), 3);
}
END_TEST

static const struct {
	const char *text;
	const char *msg;
} bad_csv[] = {
    {"\n", "empty: no header"},
    {"B,step_us,compute_pct,memory_pct,overhead_pct\n1,2,3,4,5\n", "no column 'fits'"},
    {"B,step_us,compute_pct,memory_pct,overhead_pct,fits\n", "no rows to plot"},
    {"B,step_us,compute_pct,memory_pct,overhead_pct,fits\n1,2,0,100,0,maybe\n",
     "s.csv:2: column 'fits': 'maybe' is not yes or no"},
    {"B,step_us,compute_pct,memory_pct,overhead_pct,fits\n1,x,0,100,0,yes\n",
     "s.csv:2: column 'step_us'"},
    {"B,step_us,compute_pct,memory_pct,overhead_pct,fits\n0,1,0,100,0,yes\n",
     "s.csv:2: column 'B': '0' is not an integer from 1"},
    {"B,step_us,compute_pct,memory_pct,overhead_pct,fits\n2,1,0,100,0,yes\n2,1,0,100,0,yes\n",
     "s.csv:3: column 'B': 2 is not above"},
    {"B,step_us,compute_pct,memory_pct,overhead_pct,fits\n1,1,0,100,0\n",
     "s.csv:2: 5 fields, the header has 6"},
    {"B,step_us,step_us,compute_pct,memory_pct,overhead_pct,fits\n", "given twice"},
    {"1x,step_us\n", "s.csv:1: column 1"},
    {"B,step_us,compute_pct,memory_pct,overhead_pct,fits\n1,\"2,0,100,0,yes\n", "malformed CSV"},
};

START_TEST(csv_bad)
{
	static struct rl_sweep_table t;
	struct rl_err e;
	FILE *f = fmemopen((void *)bad_csv[_i].text, strlen(bad_csv[_i].text), "r");

	e.msg[0] = '\0';
	ck_assert_int_lt(rl_sweep_read_csv(f, "s.csv", &t, &e), 0);
	fclose(f);
	ck_assert_msg(strstr(e.msg, bad_csv[_i].msg) != NULL, "case %d: '%s' lacks '%s'", _i, e.msg,
	              bad_csv[_i].msg);
}
END_TEST

/* A row of exactly RL_SWEEP_LINE_MAX bytes (its newline counted) reads;
 * one byte more, or a NUL byte, is refused at once, where the line says
 * (issue 21: /dev/zero grew without bound). The long row's extra column is
 * an ignored one ("note"), its value filling the row. */
START_TEST(csv_line_cap)
{
	static const char head[] = "B,step_us,compute_pct,memory_pct,overhead_pct,fits,note\n";
	static const char row[] = "1,2,0,100,0,yes,";
	static struct rl_sweep_table t;
	size_t fill = RL_SWEEP_LINE_MAX - (sizeof(row) - 1) - 1, len;
	char *text = malloc(sizeof(head) + RL_SWEEP_LINE_MAX + 2);
	struct rl_err e = {0, ""};
	FILE *f;

	ck_assert_ptr_nonnull(text);
	len = (size_t)sprintf(text, "%s%s", head, row);
	memset(text + len, 'n', fill);
	strcpy(text + len + fill, "\n");
	f = fmemopen(text, strlen(text), "r");
	ck_assert_msg(rl_sweep_read_csv(f, "s.csv", &t, &e) == 0, "%s", e.msg);
	fclose(f);
	ck_assert_uint_eq(t.n, 1);

	memset(text + len, 'n', fill + 1);
	strcpy(text + len + fill + 1, "\n");
	f = fmemopen(text, strlen(text), "r");
	ck_assert_int_eq(rl_sweep_read_csv(f, "s.csv", &t, &e), RL_ERR_PARSE);
	fclose(f);
	ck_assert_str_eq(e.msg, "s.csv:2: a row longer than 65536 bytes: not a sweep's csv");

	memcpy(text, head, sizeof(head) - 1);
	memcpy(text + sizeof(head) - 1, "1,2\0", 4);
	f = fmemopen(text, sizeof(head) - 1 + 4, "r");
	ck_assert_int_eq(rl_sweep_read_csv(f, "s.csv", &t, &e), RL_ERR_PARSE);
	fclose(f);
	ck_assert_str_eq(e.msg, "s.csv:2: NUL byte: not a sweep's csv (a text file)");
	free(text);
}
END_TEST

Suite *suite_sweep(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, parse_good);
	tcase_add_loop_test(tc, parse_bad, 0, (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, parse_too_many);
	tcase_add_test(tc, matmul_rows);
	tcase_add_test(tc, matmul_no_knee);
	tcase_add_test(tc, oplist_errors);
	tcase_add_test(tc, llama_memory);
	tcase_add_test(tc, csv_round_trip);
	tcase_add_loop_test(tc, csv_bad, 0, (int)(sizeof(bad_csv) / sizeof(bad_csv[0])));
	tcase_add_test(tc, csv_line_cap);
	suite_add_tcase(s, tc);
	return s;
}
