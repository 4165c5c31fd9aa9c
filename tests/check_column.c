/* check_column.c - the report's column table (column.h): every column
 * complete, csv's positions a sequence, and the getters' values and
 * presence on ops and predictions set by hand. */
#include "config.h"

#include <string.h>

#include "check.h"
#include "column.h"

START_TEST(test_table_complete)
{
	int i, j, ncsv = 0;

	for (i = 0; i < RL_COL_COUNT; i++) {
		const struct rl_column *c = &rl_columns[i];

		ck_assert_msg(c->name != NULL && c->get != NULL && c->doc != NULL,
		              "column %d has no name, getter or doc", i);
		ck_assert_msg((c->formats & (RL_COLF_CSV | RL_COLF_JSON)) != 0, "%s is in no format",
		              c->name);
		ck_assert_msg(((c->formats & RL_COLF_CSV) != 0) == (c->csv_pos > 0),
		              "%s: csv position %d", c->name, c->csv_pos);
		/* json's keys are written without escapes into 40 bytes each
		 * (report.c): lower-case letters, digits and '_', 36 at most */
		ck_assert_uint_le(strlen(c->name), 36);
		ck_assert_uint_eq(strspn(c->name, "abcdefghijklmnopqrstuvwxyz0123456789_"),
		                  strlen(c->name));
		if (c->csv_pos > 0)
			ncsv++;
		for (j = 0; j < i; j++) {
			ck_assert_str_ne(rl_columns[j].name, c->name);
			ck_assert(c->csv_pos == 0 || rl_columns[j].csv_pos != c->csv_pos);
		}
	}
	/* the positions are 1..ncsv: each taken once (above), none beyond */
	for (i = 0; i < RL_COL_COUNT; i++)
		ck_assert_int_le(rl_columns[i].csv_pos, ncsv);
	/* csv's 25 columns of docs/oplist-format.md ("Output columns") */
	ck_assert_int_eq(ncsv, 25);
}
END_TEST

START_TEST(test_find)
{
	ck_assert_int_eq(rl_column_find("name"), RL_COL_NAME);
	ck_assert_int_eq(rl_column_find("t_us"), RL_COL_T);
	ck_assert_int_eq(rl_column_find("measured_over_roofline"), RL_COL_MEASURED_OVER_ROOFLINE);
	ck_assert_int_eq(rl_column_find("T_US"), -1);
	ck_assert_int_eq(rl_column_find(""), -1);
}
END_TEST

/* Column ID's getter on OP and P (the op list has phases): 1 and *V, or 0. */
static int get(enum rl_col id, const struct rl_op *op, const struct rl_pred *p, int l2,
               union rl_col_val *v)
{
	const struct rl_col_row row = {op, p, 1, l2};

	return rl_columns[id].get(&row, v);
}

START_TEST(test_getters)
{
	struct rl_op op;
	struct rl_pred p;
	union rl_col_val v;

	memset(&op, 0, sizeof(op));
	memset(&p, 0, sizeof(p));
	op.name = "q_proj";
	op.kind = RL_KIND_MATMUL;
	op.count = 12;
	p.attainable_flops = 312e12; /* an A100's bf16 tensor peak: 312 TFLOP/s */
	p.peak_flops = 312e12;
	p.expected_gpu_us = 40;
	p.t_gpu_us = 25;

	ck_assert_int_eq(get(RL_COL_NAME, &op, &p, 0, &v), 1);
	ck_assert_str_eq(v.s, "q_proj");
	ck_assert_int_eq(get(RL_COL_KIND, &op, &p, 0, &v), 1);
	ck_assert_str_eq(v.s, "matmul");
	ck_assert_int_eq(get(RL_COL_OP_COUNT, &op, &p, 0, &v), 1);
	ck_assert_uint_eq(v.u, 12);
	ck_assert_int_eq(get(RL_COL_ATTAINABLE_TFLOPS, &op, &p, 0, &v), 1);
	ck_assert_double_eq_tol(v.n, 312, 1e-9);
	p.bandwidth = 1555e9; /* the A100 40GB's 1,555 GB/s, in bytes/s */
	ck_assert_int_eq(get(RL_COL_BANDWIDTH, &op, &p, 0, &v), 1);
	ck_assert_double_eq_tol(v.n, 1555, 1e-9);
	/* not measured: no measured time and no ratios */
	ck_assert_int_eq(get(RL_COL_MEASURED, &op, &p, 0, &v), 0);
	ck_assert_int_eq(get(RL_COL_MEASURED_OVER_EXPECTED, &op, &p, 0, &v), 0);
	op.has |= RL_HAS_MEASURED;
	op.measured_us = 50;
	ck_assert_int_eq(get(RL_COL_MEASURED_OVER_EXPECTED, &op, &p, 0, &v), 1);
	ck_assert_double_eq_tol(v.n, 50.0 / 40, 1e-12);
	ck_assert_int_eq(get(RL_COL_MEASURED_OVER_ROOFLINE, &op, &p, 0, &v), 1);
	ck_assert_double_eq_tol(v.n, 2.0, 1e-12);
	p.expected_gpu_us = 0; /* no ratio over a zero time */
	ck_assert_int_eq(get(RL_COL_MEASURED_OVER_EXPECTED, &op, &p, 0, &v), 0);
	/* the interconnect's columns only for collectives */
	ck_assert_int_eq(get(RL_COL_RANKS, &op, &p, 0, &v), 0);
	op.kind = RL_KIND_ALLREDUCE;
	op.ranks = 8;
	ck_assert_int_eq(get(RL_COL_RANKS, &op, &p, 0, &v), 1);
	ck_assert_uint_eq(v.u, 8);
	/* l2_saved_us: resident and --l2 */
	p.l2_resident = 1;
	ck_assert_int_eq(get(RL_COL_L2_SAVED, &op, &p, 0, &v), 0);
	ck_assert_int_eq(get(RL_COL_L2_SAVED, &op, &p, 1, &v), 1);
	ck_assert_int_eq(get(RL_COL_LINE, &op, &p, 0, &v), 0);
	op.line = 7;
	ck_assert_int_eq(get(RL_COL_LINE, &op, &p, 0, &v), 1);
	ck_assert_double_eq(v.n, 7);
}
END_TEST

Suite *suite_column(void)
{
	Suite *s = suite_create("column");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_table_complete);
	tcase_add_test(tc, test_find);
	tcase_add_test(tc, test_getters);
	suite_add_tcase(s, tc);
	return s;
}
