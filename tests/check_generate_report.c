/* check_generate_report.c - the writer of a generation's times
 * (generate_report.c): a result set by hand, the block, the md table and
 * the json object written out in full. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "generate_report.h"

/* batch 2, prompt 10, 4 tokens: prefill 1000 us (roofline 500), decode
 * 3 steps summing 300 us (roofline 150): per token 100 (50), total 1300
 * (650), 2 x 4 / 1300 us = 6153.846 tokens/s (12307.692). */
static void four_tokens(struct rl_generate *g)
{
	memset(g, 0, sizeof(*g));
	g->spec.batch = 2;
	g->spec.seq = 10;
	g->spec.tokens = 4;
	g->steps = 3;
	g->first_context = 10;
	g->last_context = 12;
	g->evaluated = 3;
	g->prefill.expected_us = 1000;
	g->prefill.roofline_us = 500;
	g->decode.expected_us = 300;
	g->decode.roofline_us = 150;
	g->per_token.expected_us = 100;
	g->per_token.roofline_us = 50;
	g->total.expected_us = 1300;
	g->total.roofline_us = 650;
	g->tokens_per_s = 8 / 1300e-6;
	g->tokens_per_s_roofline = 8 / 650e-6;
}

static void written(enum rl_format fmt, const struct rl_generate *g, char *buf, size_t n)
{
	FILE *f = fmemopen(buf, n, "w");

	memset(buf, 0, n);
	ck_assert_int_eq(rl_generate_report_write(f, fmt, g), 0);
	fclose(f);
}

START_TEST(test_table)
{
	struct rl_generate g;
	char buf[2048];

	four_tokens(&g);
	written(RL_FMT_TABLE, &g, buf, sizeof(buf));
	ck_assert_str_eq(buf,
	                 "generate: batch 2, prompt 10 tokens, 4 output tokens (decode at contexts "
	                 "10 to 12)\n"
	                 "                                    expected      roofline\n"
	                 "  prefill (time to first token)      1000.00        500.00 us\n"
	                 "  per output token (mean)             100.00         50.00 us\n"
	                 "  total                              1300.00        650.00 us\n"
	                 "  throughput                          6153.8       12307.7 tokens/s\n");
	/* one token: the prefill alone, no time per output token */
	g.spec.tokens = 1;
	g.steps = g.evaluated = 0;
	g.first_context = g.last_context = 0;
	g.per_token.expected_us = g.per_token.roofline_us = NAN;
	written(RL_FMT_TABLE, &g, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "1 output token (the prefill's; no decode step)\n"));
	ck_assert_ptr_nonnull(strstr(buf,
	                             "  per output token (mean)                  -             -"
	                             " us\n"));
}
END_TEST

START_TEST(test_md_note)
{
	struct rl_generate g;
	char buf[2048];

	four_tokens(&g);
	/* 3 steps, 2 evaluated, error 1.5e-5: 0.0015 % */
	g.evaluated = 2;
	g.error = 1.5e-5;
	written(RL_FMT_MD, &g, buf, sizeof(buf));
	ck_assert_str_eq(buf,
	                 "Generate: batch 2, prompt 10 tokens, 4 output tokens (decode at contexts "
	                 "10 to 12)\n\n"
	                 "| | expected | roofline |\n|---|---:|---:|\n"
	                 "| prefill (time to first token), us | 1000.00 | 500.00 |\n"
	                 "| per output token (mean), us | 100.00 | 50.00 |\n"
	                 "| total, us | 1300.00 | 650.00 |\n"
	                 "| tokens/s | 6153.8 | 12307.7 |\n"
	                 "\nnote: 3 decode steps, 2 of them evaluated, the others integrated over "
	                 "blocks of contexts (estimated error 0.0015 %)\n");
}
END_TEST

START_TEST(test_json)
{
	struct rl_generate g;
	char buf[2048];
	FILE *f;

	four_tokens(&g);
	written(RL_FMT_JSON, &g, buf, sizeof(buf));
	ck_assert_str_eq(
	    buf, "{\"generate\":{\"batch\":2,\"seq\":10,\"tokens\":4,\"prefill_us\":1000.000,"
	         "\"prefill_roofline_us\":500.000,\"per_token_us\":100.000,"
	         "\"per_token_roofline_us\":50.000,\"total_us\":1300.000,"
	         "\"total_roofline_us\":650.000,\"tokens_per_s\":6153.846,"
	         "\"tokens_per_s_roofline\":12307.692,\"steps_evaluated\":3,"
	         "\"error_estimate\":0}}\n");
	g.steps = 0;
	written(RL_FMT_JSON, &g, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "\"per_token_us\":null,\"per_token_roofline_us\":null,"));
	/* csv is no format of this block */
	f = fmemopen(buf, sizeof(buf), "w");
	ck_assert_int_eq(rl_generate_report_write(f, RL_FMT_CSV, &g), RL_ERR_ARG);
	fclose(f);
}
END_TEST

Suite *suite_generate_report(void)
{
	Suite *s = suite_create("generate_report");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_md_note);
	tcase_add_test(tc, test_json);
	suite_add_tcase(s, tc);
	return s;
}
