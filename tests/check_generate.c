/* check_generate.c - a generation's times (generate.c): N output tokens
 * as the prefill and N - 1 decode steps, every step evaluated or the steps
 * integrated over blocks of contexts. Synthetic step functions whose sums
 * are worked out here, in closed form or by a loop over every context, and
 * a real step (a small config through the pipeline, modelstep.c) against
 * the sum of its every step. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "generate.h"
#include "hfconfig.h"
#include "modelops.h"
#include "modelstep.h"
#include "pipeline.h"

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
	case KINK: return x < 300000 ? 300 : x / 1000;
	}
	return NAN; /* not a shape */
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
	ck_assert_uint_eq(g.evaluated, 4);
	ck_assert_double_eq(g.error, 0);
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

/* Item 12: past RL_GENERATE_EXACT steps, blocks. Every shape against the
 * sum of its every step (a loop here, up to 2^24 terms): within 1e-4 of it,
 * the estimate at least the error, at most RL_GENERATE_MAX_EVALS steps
 * evaluated. (Measured: errors up to 5e-6 of the sum against estimates of
 * up to 1e-5; without the jittered splits the staircase's samples kept one
 * phase of its period and its error, 6.8e-5 at N = 20,000, was 7 times
 * the estimate.) */
START_TEST(test_blocks)
{
	static const enum shape shapes[] = {LINEAR, QUADRATIC, SQRT, STAIRS, KINK};
	static const uint64_t tokens[] = {RL_GENERATE_EXACT + 2, 20000, 16777215};
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(shapes); i++)
		for (j = 0; j < ARRAY_SIZE(tokens); j++) {
			struct rl_generate_spec spec = {1, 2, tokens[j], 1u << 24};
			struct synth s = {shapes[i], 0, 0, 0, 0};
			struct rl_generate g;
			struct rl_err e;
			double x = 0, r = 0, err_x, err_r;
			uint64_t c;

			for (c = 2; c <= tokens[j]; c++) {
				x += synth_f(shapes[i], c);
				r += synth_f(shapes[i], c) / 2 + 10;
			}
			ck_assert_int_eq(rl_generate_run(&spec, synth_step, &s, &g, &e), 0);
			ck_assert_uint_eq(g.steps, tokens[j] - 1);
			ck_assert_uint_eq(s.first_ctx, 2);
			ck_assert_uint_eq(s.last_ctx, tokens[j]);
			ck_assert_uint_le(g.evaluated, RL_GENERATE_MAX_EVALS);
			ck_assert_uint_lt(g.evaluated, g.steps);
			ck_assert_uint_eq(s.calls, g.evaluated + 1);
			err_x = fabs(g.decode.expected_us - x) / x;
			err_r = fabs(g.decode.roofline_us - r) / r;
			ck_assert_msg(err_x <= 1e-4 && err_r <= 1e-4,
			              "shape %zu, N %llu: error %g, %g (estimate %g, %llu evaluated)",
			              i, (unsigned long long)tokens[j], err_x, err_r, g.error,
			              (unsigned long long)g.evaluated);
			/* the estimate the result carries is not below the error */
			ck_assert_double_le(err_x > err_r ? err_x : err_r, g.error + 1e-12);
			/* a linear step is summed exactly by its trapezoids */
			if (shapes[i] == LINEAR)
				ck_assert_double_le(err_x, 1e-12);
			ck_assert_double_eq(g.total.expected_us, 1000 + g.decode.expected_us);
			ck_assert_double_eq(g.per_token.expected_us,
			                    g.decode.expected_us / (double)g.steps);
		}
}
END_TEST

/* ---- a real step: a small config through the pipeline ---- */

struct real {
	struct rl_modelstep st;
	struct rl_modelops_opts mo;
	struct rl_errlist errs;
};

static int real_step(void *user, int prefill, uint64_t context, struct rl_generate_times *t)
{
	struct real *w = user;
	rl_pipeline *pl;
	int rc;

	w->mo.phase = prefill ? RL_PHASE_PREFILL : RL_PHASE_DECODE;
	w->mo.context = prefill ? w->mo.seq : context;
	rc = rl_modelstep_run(&w->st, &w->mo, &pl, &w->errs);
	if (rc < 0)
		return rc;
	t->expected_us = rl_pipeline_summary(pl)->total_us;
	t->roofline_us = rl_pipeline_summary(pl)->roofline_us;
	rl_pipeline_free(pl);
	return 0;
}

/* 20,000 output tokens of a 2-layer Llama (hidden 256, GQA 4 over 2) at
 * batch 8 from a 512-token prompt on the H100 SXM, eager runtime: the
 * blocked total within 0.1 % of the sum of all 19,999 decode steps, each
 * run through the pipeline here (the tolerance; the estimate the
 * result carries is checked to be at least the error it made). */
START_TEST(test_real_step)
{
	static const char *json =
		"{\"model_type\": \"llama\", \"hidden_size\": 256, \"intermediate_size\": 512, "
		"\"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"num_hidden_layers\": 2, "
		"\"vocab_size\": 1000}";
	struct rl_generate_spec spec = {8, 512, 20000, RL_MODELOPS_MAX_SIZE};
	struct rl_pipeline_model pm;
	struct rl_device dev;
	struct rl_hfconfig cfg;
	struct rl_generate g;
	struct rl_err e;
	struct real w;
	struct rl_generate_times t;
	double x = 0, r = 0, err_x, err_r;
	uint64_t c;

	test_load_device("h100-sxm", &dev);
	ck_assert_int_eq(rl_hfconfig_parse(json, "tiny.json", &cfg, &e), 0);
	memset(&pm, 0, sizeof(pm));
	pm.dev = &dev;
	pm.host_overhead_us = test_runtime_overhead("eager");
	memset(&w, 0, sizeof(w));
	w.st.config = "tiny.json";
	w.st.input = "tiny.json (op list)";
	w.st.cfg = &cfg;
	w.st.model = &pm;
	w.mo.batch = 8;
	w.mo.seq = 512;
	w.mo.dtype = w.mo.weight_dtype = w.mo.kv_dtype = RL_BF16;
	w.mo.expert_imbalance = 1;
	rl_errlist_init(&w.errs);
	for (c = 512; c <= 512 + 20000 - 2; c++) {
		ck_assert_int_eq(real_step(&w, 0, c, &t), 0);
		x += t.expected_us;
		r += t.roofline_us;
	}
	ck_assert_int_eq(rl_generate_run(&spec, real_step, &w, &g, &e), 0);
	ck_assert_uint_eq(g.steps, 19999);
	ck_assert_uint_lt(g.evaluated, 19999);
	err_x = fabs(g.decode.expected_us - x) / x;
	err_r = fabs(g.decode.roofline_us - r) / r;
	printf("# generate: 19999 decode steps, %llu evaluated: error %.3g expected, %.3g "
	       "roofline, estimate %.3g\n",
	       (unsigned long long)g.evaluated, err_x, err_r, g.error);
	ck_assert_double_le(err_x, 1e-3);
	ck_assert_double_le(err_r, 1e-3);
	ck_assert_double_ge(g.error, err_x > err_r ? err_x : err_r);
	rl_device_release(&dev);
}
END_TEST

Suite *suite_generate(void)
{
	Suite *s = suite_create("generate");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_tokens);
	tcase_add_test(tc, test_check);
	tcase_add_test(tc, test_blocks);
	tcase_add_test(tc, test_real_step);
	/* 20,000 steps through the pipeline, slow under sanitizers */
	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);
	return s;
}
