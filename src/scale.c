/* scale.c - verdicts and totals of the batch-scaling what-if (see scale.h). */
#include "config.h"

#include "scale.h"

#include <string.h>

enum rl_scale_verdict rl_scale_verdict(const struct rl_pred *base, const struct rl_pred *scaled)
{
	if (scaled->flops == base->flops && scaled->bytes == base->bytes)
		return RL_SCALE_FIXED;
	if (base->expected_bound == RL_BOUND_OVERHEAD &&
	    scaled->expected_us < RL_SCALE_FLAT * base->expected_us)
		return RL_SCALE_OVERHEAD;
	if (scaled->intensity > RL_SCALE_FLAT * base->intensity)
		return RL_SCALE_INTENSITY;
	return RL_SCALE_LINEAR;
}

const char *rl_scale_verdict_name(enum rl_scale_verdict v)
{
	static const char *const names[RL_SCALE_COUNT] = {"fixed", "overhead", "intensity",
	                                                  "linear"};

	return names[v];
}

void rl_scale_sum_init(struct rl_scale_sum *s)
{
	memset(s, 0, sizeof(*s));
}

void rl_scale_sum_add(struct rl_scale_sum *s, double count, const struct rl_pred *base,
                      const struct rl_pred *scaled, enum rl_scale_verdict v)
{
	s->ops++;
	s->base_us += count * base->expected_us;
	s->scaled_us += count * scaled->expected_us;
	s->base_by[v] += count * base->expected_us;
	s->scaled_by[v] += count * scaled->expected_us;
	s->ops_by[v]++;
}
