/* check_generate.c - a generation's times (generate.c): N output tokens
 * as the prefill and N - 1 decode steps. Synthetic step functions whose
 * sums are worked out here. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "generate.h"

/* ---- synthetic steps ---- */

enum shape { LINEAR, QUADRATIC, SQRT, STAIRS, KINK };

struct synth {
	enum shape shape;
	unsigned calls, prefills;
	uint64_t first_ctx, last_ctx; /* the decode contexts asked, lowest and highest */
};

/* expected f(c), roofline half of it plus 10 */
static double synth_f(enum shape s, uint64_t c)
{
	double x = (double)c;

	switch (s) {
	case LINEAR: return 100 + 2 * x;
	case QUADRATIC: return 50 + 1e-6 * x * x;
	case SQRT: return 10 + sqrt(x);
	/* a jump of 7 every 128 contexts (the KV tiles of a split-K kernel)
	 * on a slope */
	case STAIRS: return 40 + 7 * (double)((c + 127) / 128) + 0.01 * x;
	/* a floor, then linear: the launch overhead until the KV read passes it */
	default: return x < 300000 ? 300 : x / 1000;
	}
}

static int synth_step(void *user, int prefill, uint64_t context, struct rl_generate_times *t)
{
	struct synth *s = user;

	s->calls++;
	if (prefill) {
		s->prefills++;
		t->expected_us = 1000;
		t->roofline_us = 500;
		return 0;
	}
	if (s->first_ctx == 0 || context < s->first_ctx)
		s->first_ctx = context;
	if (context > s->last_ctx)
		s->last_ctx = context;
	t->expected_us = synth_f(s->shape, context);
	t->roofline_us = synth_f(s->shape, context) / 2 + 10;
	return 0;
}

/* Item 16: N output tokens are the prefill and N - 1 decode steps at
 * contexts seq to seq + N - 2. f(c) = 100 + 2c, seq 10, N 5: decode at 10,
 * 11, 12, 13: 4 x 100 + 2 x 46 = 492 us; total 1492; per output token
 * 492 / 4 = 123; batch 3: 15 tokens / 1492 us. Roofline: 50 + c + 10: 4 x
 * 60 + 46 = 286, total 786. */
START_TEST(test_tokens)
{
	struct rl_generate_spec spec = {3, 10, 5, 1u << 24};
	struct synth s = {LINEAR, 0, 0, 0, 0};
	struct rl_generate g;
	struct rl_err e;

	ck_assert_int_eq(rl_generate_run(&spec, synth_step, &s, &g, &e), 0);
	ck_assert_uint_eq(s.calls, 5);
	ck_assert_uint_eq(s.prefills, 1);
	ck_assert_uint_eq(s.first_ctx, 10);
	ck_assert_uint_eq(s.last_ctx, 13);
	ck_assert_uint_eq(g.steps, 4);
	ck_assert_uint_eq(g.first_context, 10);
	ck_assert_uint_eq(g.last_context, 13);
	ck_assert_double_eq(g.prefill.expected_us, 1000);
	ck_assert_double_eq(g.decode.expected_us, 492);
	ck_assert_double_eq(g.total.expected_us, 1492);
	ck_assert_double_eq(g.per_token.expected_us, 123);
	ck_assert_double_eq_tol(g.tokens_per_s, 15 / 1492e-6, 1e-6);
	ck_assert_double_eq(g.decode.roofline_us, 286);
	ck_assert_double_eq(g.total.roofline_us, 786);
	ck_assert_double_eq(g.per_token.roofline_us, 71.5);
	ck_assert_double_eq_tol(g.tokens_per_s_roofline, 15 / 786e-6, 1e-6);

	/* N = 1: the prefill alone, its token the only one; no time per output
	 * token */
	spec.tokens = 1;
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(rl_generate_run(&spec, synth_step, &s, &g, &e), 0);
	ck_assert_uint_eq(s.calls, 1);
	ck_assert_uint_eq(g.steps, 0);
	ck_assert_double_eq(g.total.expected_us, 1000);
	ck_assert(isnan(g.per_token.expected_us) && isnan(g.per_token.roofline_us));
	ck_assert_double_eq_tol(g.tokens_per_s, 3 / 1000e-6, 1e-6);

	/* N = 2: one decode step, at the prompt's length */
	spec.tokens = 2;
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(rl_generate_run(&spec, synth_step, &s, &g, &e), 0);
	ck_assert_uint_eq(s.first_ctx, 10);
	ck_assert_uint_eq(s.last_ctx, 10);
	ck_assert_double_eq(g.per_token.expected_us, 120);
}
END_TEST

/* The last context is seq + N - 2, at most max_context: refused before any
 * step, naming both and the largest N. */
START_TEST(test_check)
{
	struct rl_generate_spec spec = {1, 512, 16777216, 16777216};
	struct synth s = {LINEAR, 0, 0, 0, 0};
	struct rl_generate g;
	struct rl_err e;

	ck_assert_int_eq(rl_generate_run(&spec, synth_step, &s, &g, &e), RL_ERR_RANGE);
	ck_assert_uint_eq(s.calls, 0);
	ck_assert_str_eq(e.msg, "--generate 16777216 at --seq 512: the last decode step's context "
	                        "16777726 passes the largest context 16777216 (at most --generate "
	                        "16776706 at this --seq)");
	/* 512 + 16776706 - 2 = 2^24 */
	spec.tokens = 16776706;
	ck_assert_int_eq(rl_generate_check(&spec, &e), 0);
	spec.tokens = 16776707;
	ck_assert_int_eq(rl_generate_check(&spec, &e), RL_ERR_RANGE);
	/* a prompt past the cap: the prefill alone only */
	spec.seq = 16777217;
	spec.tokens = 2;
	ck_assert_int_eq(rl_generate_check(&spec, &e), RL_ERR_RANGE);
	ck_assert(strstr(e.msg, "only --generate 1") != NULL);
	spec.tokens = 1;
	ck_assert_int_eq(rl_generate_check(&spec, &e), 0);
	spec.tokens = 0;
	ck_assert_int_eq(rl_generate_check(&spec, &e), RL_ERR_RANGE);
}
END_TEST

Suite *suite_generate(void)
{
	Suite *s = suite_create("generate");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_tokens);
	tcase_add_test(tc, test_check);
	suite_add_tcase(s, tc);
	return s;
}
