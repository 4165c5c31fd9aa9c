/* generate.c - a generation's times: the prefill, then the decode steps
 * (see generate.h). */
#include "config.h"

#include "generate.h"

#include <math.h>

int rl_generate_check(const struct rl_generate_spec *s, struct rl_err *err)
{
	uint64_t steps, last;

	if (s->batch < 1 || s->seq < 1 || s->tokens < 1 || s->max_context < 1)
		return rl_err_set(err, RL_ERR_RANGE,
		                  "--generate: the batch, the prompt and the output tokens must be at "
		                  "least 1");
	steps = s->tokens - 1;
	if (steps == 0 || (s->seq <= s->max_context && steps - 1 <= s->max_context - s->seq))
		return 0;
	last = s->seq + (steps - 1);
	if (s->seq > s->max_context)
		return rl_err_set(err, RL_ERR_RANGE,
		                  "--generate %llu at --seq %llu: the first decode step's context "
		                  "%llu passes the largest context %llu (only --generate 1, the "
		                  "prefill, at this --seq)",
		                  (unsigned long long)s->tokens, (unsigned long long)s->seq,
		                  (unsigned long long)s->seq, (unsigned long long)s->max_context);
	return rl_err_set(err, RL_ERR_RANGE,
	                  "--generate %llu at --seq %llu: the last decode step's context %llu "
	                  "passes the largest context %llu (at most --generate %llu at this --seq)",
	                  (unsigned long long)s->tokens, (unsigned long long)s->seq,
	                  (unsigned long long)last, (unsigned long long)s->max_context,
	                  (unsigned long long)(s->max_context - s->seq + 2));
}

/* ---- the generation ------------------------------------------------------- */

static double per_s(double tokens, double us)
{
	return us > 0 ? tokens / us * 1e6 : 0;
}

int rl_generate_run(const struct rl_generate_spec *spec, rl_generate_step_fn step, void *user,
                    struct rl_generate *g, struct rl_err *err)
{
	double tok;
	uint64_t c;
	int rc = rl_generate_check(spec, err);

	if (rc < 0)
		return rc;
	g->spec = *spec;
	g->steps = spec->tokens - 1;
	g->first_context = g->steps > 0 ? spec->seq : 0;
	g->last_context = g->steps > 0 ? spec->seq + g->steps - 1 : 0;
	g->decode.expected_us = g->decode.roofline_us = 0;
	rc = step(user, 1, spec->seq, &g->prefill);
	if (rc < 0)
		return rc;
	for (c = g->first_context; g->steps > 0 && c <= g->last_context; c++) {
		struct rl_generate_times t;

		rc = step(user, 0, c, &t);
		if (rc < 0)
			return rc;
		g->decode.expected_us += t.expected_us;
		g->decode.roofline_us += t.roofline_us;
	}
	g->total.expected_us = g->prefill.expected_us + g->decode.expected_us;
	g->total.roofline_us = g->prefill.roofline_us + g->decode.roofline_us;
	g->per_token.expected_us = g->steps > 0 ? g->decode.expected_us / (double)g->steps : NAN;
	g->per_token.roofline_us = g->steps > 0 ? g->decode.roofline_us / (double)g->steps : NAN;
	tok = (double)spec->batch * (double)spec->tokens;
	g->tokens_per_s = per_s(tok, g->total.expected_us);
	g->tokens_per_s_roofline = per_s(tok, g->total.roofline_us);
	return 0;
}
