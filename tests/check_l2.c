/* check_l2.c - L2 residency: the rule on hand cases, the rule over a
 * fused op list, the --l2 memory time worked out by hand, and the marks in
 * the writers.
 *
 * Device: made up for the arithmetic, 2000 GB/s of device memory, a 50 MiB
 * L2 at 8000 GB/s, 50 TFLOPS fp32 vector (25 for work that is not FMA),
 * launch floor 1 us; no host overhead. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include "l2.h"
#include "check.h"
#include "formulas.h"
#include "fusion.h"
#include "model.h"
#include "num.h"
#include "report.h"
#include "summary.h"

#define MIB (1024.0 * 1024.0)
#define GIB (1024.0 * MIB)

static struct rl_device dev;
static struct rl_model_ctx ctx;

static void set(struct rl_device *d, enum rl_hw_key k, double v, const char *text)
{
	d->num[k].present = 1;
	d->num[k].value = v;
	d->num[k].text = (char *)text;
	d->num[k].source = (char *)"made up for the test suite";
}

/* The device above; without the L2 bandwidth when L2_GBS is NULL. */
static void mkdev(struct rl_device *d, const char *l2_gbs)
{
	memset(d, 0, sizeof(*d));
	d->id = (char *)"test-l2";
	d->name = (char *)"Test L2 GPU";
	set(d, RL_HW_SM_COUNT, 100, "100");
	set(d, RL_HW_MEM_BANDWIDTH_GBS, 2000, "2000");
	set(d, RL_HW_L2_MIB, 50, "50");
	set(d, (enum rl_hw_key)RL_PIPE_FP32_VECTOR, 50, "50");
	set(d, RL_HW_MIN_KERNEL_US, 1, "1");
	if (l2_gbs != NULL)
		set(d, RL_HW_L2_BANDWIDTH_GBS, strtod(l2_gbs, NULL), l2_gbs);
}

static void setup(void)
{
	mkdev(&dev, "8000");
	ctx.dev = &dev;
	ctx.host_overhead_us = 0;
}

static void mkop(struct rl_op *op, const char *name, enum rl_kind k, const char *shape)
{
	rl_op_init(op);
	op->name = name;
	op->kind = k;
	op->dtype = RL_FP32;
	ck_assert_int_eq(rl_parse_dims(shape, op->dims, RL_MAX_DIMS, &op->ndims, NULL), 0);
	op->has |= RL_HAS_SHAPE;
}

/* ---- the rule ---- */

/* Sizes of one occurrence; "unary 1 MiB" is a pointwise op on 1 MiB tensors:
 * 1 MiB read, 1 MiB written. */
static const struct {
	const char *what;
	double capacity, prev_out, bytes, out;
	uint64_t count, launches;
	int want;
} rule[] = {
    {"unary 1 MiB after 1 MiB, 50 MiB L2", 50 * MIB, MIB, 2 * MIB, MIB, 1, 1, 1},
    {"binary 1 MiB (reads 2 MiB) after 1 MiB", 50 * MIB, MIB, 3 * MIB, MIB, 1, 1, 1},
    {"unary 1 GiB after 1 GiB: 3 GiB do not fit", 50 * MIB, GIB, 2 * GIB, GIB, 1, 1, 0},
    {"unary 1 GiB after 1 MiB: 2 GiB do not fit", 50 * MIB, MIB, 2 * GIB, GIB, 1, 1, 0},
    {"first op: no previous kernel", 50 * MIB, -1, 2 * MIB, MIB, 1, 1, 0},
    {"previous output unknown (explicit bytes)", 50 * MIB, -1, 2 * MIB, MIB, 1, 1, 0},
    {"own reads unknown (explicit bytes)", 50 * MIB, MIB, 2 * MIB, -1, 1, 1, 0},
    {"previous output larger than all reads", 50 * MIB, 2 * MIB, 2 * MIB, MIB, 1, 1, 0},
    /* 2 MiB read (one of them the previous output) plus 1 MiB written:
     * 3 MiB + 1 MiB = 4 MiB, exactly the L2; a byte more does not fit */
    {"exactly fills the L2", 4 * MIB, MIB, 3 * MIB, MIB, 1, 1, 1},
    {"one byte over the L2", 4 * MIB - 1, MIB, 3 * MIB, MIB, 1, 1, 0},
    {"repeated row (count 12)", 50 * MIB, MIB, 2 * MIB, MIB, 12, 1, 0},
    {"two kernels per occurrence", 50 * MIB, MIB, 2 * MIB, MIB, 1, 2, 0},
    {"device without l2_mib", 0, MIB, 2 * MIB, MIB, 1, 1, 0},
};

START_TEST(test_rule)
{
	ck_assert_msg(rl_l2_resident(rule[_i].capacity, rule[_i].prev_out, rule[_i].bytes,
	                             rule[_i].out, rule[_i].count,
	                             rule[_i].launches) == rule[_i].want,
	              "%s: expected %d", rule[_i].what, rule[_i].want);
}
END_TEST

/* ---- the rule over a list, fusion included ---- */

struct seen {
	struct rl_l2 l2;
	char names[16][8];
	int resident[16];
	double l2_bytes[16];
	size_t n;
};

static int emit(const struct rl_fuse_row *row, void *user)
{
	struct seen *s = user;
	struct rl_pred p = *row->p;

	rl_l2_kernel(&s->l2, &ctx, row->op, row->out_bytes, &p);
	ck_assert_uint_lt(s->n, 16);
	snprintf(s->names[s->n], sizeof(s->names[0]), "%s", row->op->name);
	s->resident[s->n] = p.l2_resident;
	s->l2_bytes[s->n] = p.l2_bytes;
	s->n++;
	return 0;
}

START_TEST(test_list)
{
	/* 262144 fp32 elements = 1 MiB; 268435456 = 1 GiB */
	static const struct {
		const char *name;
		enum rl_kind kind;
		const char *shape;
		const char *fuse;
		uint64_t inputs, count;
	} rows[] = {
	    {"a", RL_KIND_POINTWISE, "262144", NULL, 1, 1},
	    {"b", RL_KIND_POINTWISE, "262144", "g", 1, 1},
	    {"c", RL_KIND_POINTWISE, "262144", "g", 1, 1},
	    {"d", RL_KIND_POINTWISE, "262144", NULL, 2, 1},
	    {"h", RL_KIND_POINTWISE, "262144", NULL, 1, 12},
	    {"i", RL_KIND_POINTWISE, "262144", NULL, 1, 1},
	    {"e", RL_KIND_COPY, "268435456", NULL, 1, 1},
	    {"f", RL_KIND_POINTWISE, "268435456", NULL, 1, 1},
	    {"k", RL_KIND_CUSTOM, "1", NULL, 1, 1},
	    {"l", RL_KIND_POINTWISE, "262144", NULL, 1, 1},
	};
	/* a: the first kernel. g (b, c fused): reads 1 MiB, a's output.
	 * d: reads 2 MiB, one of them g's output (c's, 1 MiB). h: would be,
	 * but count 12. i: after h's 1 MiB. e: 2 GiB do not fit. f: 1 GiB
	 * after 1 GiB. k: a custom op, reads unknown. l: after k, whose output
	 * is unknown. */
	static const struct {
		const char *name;
		int resident;
		double l2_bytes;
	} want[] = {
	    {"a", 0, 0}, {"g", 1, MIB}, {"d", 1, MIB}, {"h", 0, 0}, {"i", 1, MIB},
	    {"e", 0, 0}, {"f", 0, 0},   {"k", 0, 0},   {"l", 0, 0},
	};
	struct rl_fuse_stream fs;
	struct seen s;
	struct rl_err err = {0, ""};
	size_t i;

	memset(&s, 0, sizeof(s));
	rl_l2_init(&s.l2, &dev, 0);
	rl_fuse_stream_init(&fs, &ctx, 0, emit, &s);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct rl_op op;
		struct rl_pred p;

		mkop(&op, rows[i].name, rows[i].kind, rows[i].shape);
		op.inputs = rows[i].inputs;
		op.count = rows[i].count;
		op.fuse = rows[i].fuse;
		if (rows[i].kind == RL_KIND_CUSTOM) {
			op.flops = op.bytes = 1e6;
			op.has |= RL_HAS_FLOPS | RL_HAS_BYTES;
		}
		ck_assert_int_eq(rl_predict(&op, &ctx, &p, &err), 0);
		ck_assert_msg(rl_fuse_stream_op(&fs, &op, &p, &err) == 0, "%s", err.msg);
	}
	ck_assert_int_eq(rl_fuse_stream_end(&fs, &err), 0);
	rl_fuse_stream_release(&fs);
	ck_assert_uint_eq(s.n, ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		ck_assert_str_eq(s.names[i], want[i].name);
		ck_assert_msg(s.resident[i] == want[i].resident, "%s: resident %d, expected %d",
		              want[i].name, s.resident[i], want[i].resident);
		ck_assert_double_eq_tol(s.l2_bytes[i], want[i].l2_bytes, 1e-9);
	}
}
END_TEST

/* ---- the memory time with --l2 ---- */

START_TEST(test_memory_time)
{
	/* t = max(bytes / l2_bw, (bytes - l2_bytes) / mem_bw):
	 * 16 MiB, 8 MiB of them hits, 8000 and 2000 GB/s:
	 *   max(16777216 / 8e12, 8388608 / 2e12) = max(2.097152, 4.194304) us
	 * 8 MiB + 8 KiB, 8 MiB hits: max(1.0496, 0.004096) us: the L2 roof */
	ck_assert_double_eq_tol(rl_l2_memory_us(16 * MIB, 8 * MIB, 8e12, 2e12), 4.194304, 1e-9);
	ck_assert_double_eq_tol(rl_l2_memory_us(8 * MIB + 8192, 8 * MIB, 8e12, 2e12), 1.0496, 1e-9);
	/* no hits: the memory roof, as without an L2 */
	ck_assert_double_eq_tol(rl_l2_memory_us(16 * MIB, 0, 8e12, 2e12), 8.388608, 1e-9);
}
END_TEST

/* Two kernels through rl_l2_kernel with --l2: an 8 MiB unary pointwise op
 * (2097152 fp32 elements), then the same again (resident), then a row sum
 * of 2048x1024 over its output (resident). */
static const struct {
	const char *name;
	enum rl_kind kind;
	const char *shape;
	int resident;
	double t_memory_us, t_us, saved_us;
	enum rl_bound bound;
} timed[] = {
    /* 16 MiB at 2000 GB/s = 8.388608 us, above the 1 us floor */
    {"p1", RL_KIND_POINTWISE, "2097152", 0, 8.388608, 8.388608, 0, RL_BOUND_MEMORY},
    /* max(16 MiB / 8e12, 8 MiB / 2e12) = 4.194304 us: 8.388608 - 4.194304
     * saved */
    {"p2", RL_KIND_POINTWISE, "2097152", 1, 4.194304, 4.194304, 4.194304, RL_BOUND_MEMORY},
    /* reads 8 MiB (all hits), writes 2048 x 4 B: 8396800 B; from memory
     * 8396800 / 2e12 = 4.1984 us; with the L2 max(8396800 / 8e12,
     * 8192 / 2e12) = 1.0496 us, above the 1 us floor */
    {"sum", RL_KIND_REDUCTION, "2048x1024", 1, 1.0496, 1.0496, 4.1984 - 1.0496, RL_BOUND_MEMORY},
};

START_TEST(test_predict_l2)
{
	struct rl_l2 l2;
	struct rl_summary sum;
	size_t i;

	rl_l2_init(&l2, &dev, 1);
	rl_summary_init(&sum);
	for (i = 0; i < ARRAY_SIZE(timed); i++) {
		struct rl_op op;
		struct rl_pred p;
		double out;

		mkop(&op, timed[i].name, timed[i].kind, timed[i].shape);
		ck_assert_int_eq(rl_predict(&op, &ctx, &p, NULL), 0);
		ck_assert_int_eq(rl_op_output_bytes(&op, &out, NULL), 0);
		rl_l2_kernel(&l2, &ctx, &op, out, &p);
		ck_assert_int_eq(p.l2_resident, timed[i].resident);
		ck_assert_double_eq_tol(p.t_memory_us, timed[i].t_memory_us, 1e-9);
		ck_assert_double_eq_tol(p.t_us, timed[i].t_us, 1e-9);
		ck_assert_double_eq_tol(p.l2_saved_us, timed[i].saved_us, 1e-9);
		ck_assert_int_eq(p.bound, timed[i].bound);
		ck_assert_int_eq(rl_summary_add(&sum, &op, &p, NULL), 0);
	}
	ck_assert_uint_eq(sum.l2_ops, 2);
	ck_assert_double_eq_tol(sum.l2_saved_us, 4.194304 + 4.1984 - 1.0496, 1e-9);
	rl_summary_release(&sum);
}
END_TEST

/* The floor still holds: with the L2 the 1 MiB unary op would take
 * max(2 MiB / 8e12, 1 MiB / 2e12) = 0.524288 us, under the 1 us launch
 * floor, so it becomes overhead-bound at 1 us (from 1.048576). */
START_TEST(test_predict_floor)
{
	struct rl_l2 l2;
	struct rl_op op;
	struct rl_pred p;

	rl_l2_init(&l2, &dev, 1);
	mkop(&op, "p", RL_KIND_POINTWISE, "262144");
	ck_assert_int_eq(rl_predict(&op, &ctx, &p, NULL), 0);
	rl_l2_kernel(&l2, &ctx, &op, MIB, &p);
	ck_assert_int_eq(rl_predict(&op, &ctx, &p, NULL), 0);
	ck_assert_int_eq(p.bound, RL_BOUND_MEMORY);
	rl_l2_kernel(&l2, &ctx, &op, MIB, &p);
	ck_assert_int_eq(p.l2_resident, 1);
	ck_assert_double_eq_tol(p.t_memory_us, 0.524288, 1e-9);
	ck_assert_double_eq_tol(p.t_us, 1, 1e-9);
	ck_assert_int_eq(p.bound, RL_BOUND_OVERHEAD);
	ck_assert_double_eq_tol(p.l2_saved_us, 0.048576, 1e-9);
}
END_TEST

/* Without --l2, or without an L2 bandwidth, or with one slower than the
 * memory, a resident op keeps its memory time: flagged, 8.388608 us. */
START_TEST(test_predict_unchanged)
{
	static const struct {
		int predict;
		const char *l2_gbs;
	} cases[] = {{0, "8000"}, {1, NULL}, {1, "1000"}};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct rl_device d;
		struct rl_model_ctx c = {.dev = &d};
		struct rl_l2 l2;
		struct rl_op op;
		struct rl_pred p;

		mkdev(&d, cases[i].l2_gbs);
		rl_l2_init(&l2, &d, cases[i].predict);
		mkop(&op, "p", RL_KIND_POINTWISE, "2097152");
		ck_assert_int_eq(rl_predict(&op, &c, &p, NULL), 0);
		rl_l2_kernel(&l2, &c, &op, 8 * MIB, &p);
		ck_assert_int_eq(rl_predict(&op, &c, &p, NULL), 0);
		rl_l2_kernel(&l2, &c, &op, 8 * MIB, &p);
		ck_assert_int_eq(p.l2_resident, 1);
		ck_assert_double_eq_tol(p.l2_bytes, 8 * MIB, 1e-9);
		ck_assert_double_eq_tol(p.t_us, 8.388608, 1e-9);
		ck_assert_double_eq_tol(p.l2_saved_us, 0, 1e-12);
	}
}
END_TEST

/* ---- the writers ---- */

/* The l2_resident cell of the csv ROW: the fourth field from its end. */
static char l2_cell(const char *row)
{
	const char *e = strchr(row, '\n');
	int commas = 0;

	while (e > row && commas < 3)
		if (*--e == ',')
			commas++;
	return e - row >= 2 && e[-2] == ',' ? e[-1] : '?';
}

/* Writes two 1 MiB ops, the second resident (one with a long name), in
 * FMT into a malloc'ed string. */
static char *render(enum rl_format fmt, const char *name2)
{
	struct rl_report_info info;
	struct rl_summary sum;
	struct rl_l2 l2;
	rl_report *rep;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *out = open_memstream(&buf, &len);

	memset(&info, 0, sizeof(info));
	info.dev = &dev;
	info.runtime = "graph";
	info.l2 = 1;
	rl_summary_init(&sum);
	rl_l2_init(&l2, &dev, 1);
	ck_assert_int_eq(rl_report_begin(out, fmt, &info, &rep), 0);
	for (i = 0; i < 2; i++) {
		struct rl_op op;
		struct rl_pred p;

		mkop(&op, i == 0 ? "first" : name2, RL_KIND_POINTWISE, "2097152");
		ck_assert_int_eq(rl_predict(&op, &ctx, &p, NULL), 0);
		rl_l2_kernel(&l2, &ctx, &op, 8 * MIB, &p);
		ck_assert_int_eq(rl_summary_add(&sum, &op, &p, NULL), 0);
		ck_assert_int_eq(rl_report_row(rep, &op, &p), 0);
	}
	ck_assert_int_eq(rl_report_end(rep, &sum), 0);
	rl_report_free(rep);
	rl_summary_release(&sum);
	fclose(out);
	return buf;
}

START_TEST(test_marks)
{
	char *s;

	/* table: a mark after the name, inside the 18 columns; the footnote
	 * counts the op and the 4.19 us saved (test_predict_l2's p2) */
	s = render(RL_FMT_TABLE, "second");
	ck_assert_ptr_nonnull(strstr(s, "\nfirst              pointwise"));
	ck_assert_ptr_nonnull(strstr(s, "\nsecond^            pointwise"));
	ck_assert_ptr_nonnull(strstr(s, "\n^ L2-resident (1 op): "));
	ck_assert_ptr_nonnull(strstr(s, "4.19 us saved"));
	free(s);
	s = render(RL_FMT_TABLE, "a_name_longer_than_eighteen");
	ck_assert_ptr_nonnull(strstr(s, "\na_name_longer_th~^ pointwise"));
	free(s);
	/* md: the same mark */
	s = render(RL_FMT_MD, "second");
	ck_assert_ptr_nonnull(strstr(s, "| second^ | pointwise"));
	free(s);
	/* csv: the last column before the three expected ones */
	s = render(RL_FMT_CSV, "second");
	ck_assert_ptr_nonnull(strstr(s, ",attainable_tflops,l2_resident,expected_gpu_us,"
	                                "expected_us,expected_bound\n"));
	ck_assert_ptr_nonnull(strstr(s, "\nfirst,"));
	ck_assert_int_eq(l2_cell(strstr(s, "\nfirst,") + 1), '0');
	ck_assert_int_eq(l2_cell(strstr(s, "\nsecond,") + 1), '1');
	free(s);
}
END_TEST

START_TEST(test_json)
{
	char *s = render(RL_FMT_JSON, "second");
	char errbuf[256];
	yajl_val root = yajl_tree_parse(s, errbuf, sizeof(errbuf));
	const char *ops[] = {"ops", NULL};
	const char *resident[] = {"l2_resident", NULL};
	const char *bytes[] = {"l2_bytes", NULL};
	const char *nops[] = {"summary", "l2_resident_ops", NULL};
	const char *saved[] = {"summary", "l2_saved_us", NULL};
	const char *l2bw[] = {"device", "l2_bandwidth_gbs", NULL};
	yajl_val v, a, b;

	ck_assert_msg(root != NULL, "invalid json: %s", errbuf);
	v = yajl_tree_get(root, ops, yajl_t_array);
	ck_assert_ptr_nonnull(v);
	a = YAJL_GET_ARRAY(v)->values[0];
	b = YAJL_GET_ARRAY(v)->values[1];
	ck_assert(YAJL_IS_FALSE(yajl_tree_get(a, resident, yajl_t_any)));
	ck_assert_ptr_null(yajl_tree_get(a, bytes, yajl_t_number));
	ck_assert(YAJL_IS_TRUE(yajl_tree_get(b, resident, yajl_t_any)));
	ck_assert_double_eq_tol(YAJL_GET_DOUBLE(yajl_tree_get(b, bytes, yajl_t_number)), 8 * MIB,
	                        1e-6);
	ck_assert_double_eq_tol(YAJL_GET_DOUBLE(yajl_tree_get(root, nops, yajl_t_number)), 1,
	                        1e-12);
	ck_assert_double_eq_tol(YAJL_GET_DOUBLE(yajl_tree_get(root, saved, yajl_t_number)),
	                        4.194304, 1e-5);
	ck_assert_double_eq_tol(YAJL_GET_DOUBLE(yajl_tree_get(root, l2bw, yajl_t_number)), 8000,
	                        1e-9);
	yajl_tree_free(root);
	free(s);
}
END_TEST

Suite *suite_l2(void)
{
	Suite *s = suite_create("l2");
	TCase *t = tcase_create("l2");

	tcase_add_checked_fixture(t, setup, NULL);
	tcase_add_loop_test(t, test_rule, 0, ARRAY_SIZE(rule));
	tcase_add_test(t, test_list);
	tcase_add_test(t, test_memory_time);
	tcase_add_test(t, test_predict_l2);
	tcase_add_test(t, test_predict_floor);
	tcase_add_test(t, test_predict_unchanged);
	tcase_add_test(t, test_marks);
	tcase_add_test(t, test_json);
	suite_add_tcase(s, t);
	return s;
}
