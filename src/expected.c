/* expected.c - the expected-time model (see expected.h). */
#include "config.h"

#include "expected.h"

void rl_expected_roofline(struct rl_pred *p)
{
	p->expected_gpu_us = p->t_gpu_us;
	p->expected_us = p->t_us;
	p->expected_bound = p->bound;
	p->expected_note = NULL;
}

void rl_expected(const struct rl_op *op, const struct rl_model_ctx *ctx, struct rl_pred *p)
{
	(void)op;
	(void)ctx;
	rl_expected_roofline(p);
}
