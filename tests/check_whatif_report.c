/* check_whatif_report.c - the batch-scaling report (--scale): a csv row, a
 * table row with a long name cut to its column, and the summary with its
 * shares and verdict line, the text worked out from the formats the writer
 * states (%.6g for csv numbers, two decimals in the table, 18 columns for a
 * name with '~' marking the cut). The fusion section is tested through
 * classify --fuse in tests/cli_whatif.sh. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model.h"
#include "op.h"
#include "scale.h"
#include "whatif_report.h"

static struct rl_pred pred(double us, double intensity, enum rl_bound b)
{
	struct rl_pred p;

	memset(&p, 0, sizeof(p));
	p.expected_us = us;
	p.intensity = intensity;
	p.expected_bound = b;
	return p;
}

START_TEST(test_rows)
{
	struct rl_op op;
	struct rl_pred b = pred(10, 0.5, RL_BOUND_MEMORY), s = pred(20, 1, RL_BOUND_COMPUTE);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	rl_op_init(&op);
	op.name = "a,b"; /* quoted in csv */
	op.kind = RL_KIND_MATMUL;
	op.dtype = RL_BF16;
	op.count = 3;
	ck_assert_int_eq(rl_scale_report_row(f, 1, &op, &b, &s, RL_SCALE_INTENSITY), 0);
	/* 29 characters: the first 17 and '~' */
	op.name = "layers.0.mlp.down_proj:linear";
	ck_assert_int_eq(rl_scale_report_row(f, 0, &op, &b, &s, RL_SCALE_INTENSITY), 0);
	fclose(f);
	ck_assert_str_eq(buf, "\"a,b\",matmul,bf16,3,10,20,2,0.5,1,memory,compute,intensity\n"
	                      "layers.0.mlp.down~      10.00      20.00   2.00     0.50     1.00 "
	                      "intensity\n");
	free(buf);
}
END_TEST

/* 3 x (10 -> 20 us) linear and 2 x (5 -> 5 us) overhead: 40 -> 70 us,
 * ratio 1.75; overhead 10 us of 40 (25 %), linear 30 (75 %) */
START_TEST(test_summary)
{
	struct rl_scale_sum sum;
	struct rl_pred b1 = pred(10, 1, RL_BOUND_MEMORY), s1 = pred(20, 1, RL_BOUND_MEMORY);
	struct rl_pred b2 = pred(5, 1, RL_BOUND_OVERHEAD), s2 = pred(5, 1, RL_BOUND_OVERHEAD);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	rl_scale_sum_init(&sum);
	rl_scale_sum_add(&sum, 3, &b1, &s1, RL_SCALE_LINEAR);
	rl_scale_sum_add(&sum, 2, &b2, &s2, RL_SCALE_OVERHEAD);
	ck_assert_int_eq(rl_scale_report_end(f, 1, &sum, "B x2"), 0); /* csv: none */
	ck_assert_int_eq(rl_scale_report_end(f, 0, &sum, "B x2"), 0);
	fclose(f);
	ck_assert_str_eq(buf, "\ntotal: 40.00 us -> 70.00 us with B x2: ratio 1.75\n"
	                      "time by verdict (at the base size -> scaled):\n"
	                      "  overhead   25.0 %  (1 op)  10.00 -> 10.00 us, ratio 1.00\n"
	                      "  linear     75.0 %  (1 op)  30.00 -> 60.00 us, ratio 2.00\n"
	                      "1.1 or more: the time follows the work (compute or memory traffic)\n");
	free(buf);
}
END_TEST

/* all overhead and flat: 20 -> 21 us, ratio 1.05 */
START_TEST(test_summary_flat)
{
	struct rl_scale_sum sum;
	struct rl_pred b = pred(10, 1, RL_BOUND_OVERHEAD), s = pred(10.5, 1, RL_BOUND_OVERHEAD);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	rl_scale_sum_init(&sum);
	rl_scale_sum_add(&sum, 2, &b, &s, RL_SCALE_OVERHEAD);
	ck_assert_int_eq(rl_scale_report_end(f, 0, &sum, "B x2"), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "total: 20.00 us -> 21.00 us with B x2: ratio 1.05\n"));
	ck_assert_ptr_nonnull(strstr(buf, "  overhead  100.0 %  (1 op)"));
	ck_assert_ptr_nonnull(strstr(buf, "under 1.1: overhead-bound."));
	free(buf);
}
END_TEST

Suite *suite_whatif_report(void)
{
	Suite *s = suite_create("whatif_report");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_rows);
	tcase_add_test(tc, test_summary);
	tcase_add_test(tc, test_summary_flat);
	suite_add_tcase(s, tc);
	return s;
}
