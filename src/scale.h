/* scale.h - the batch-scaling what-if: an op list predicted at its size
 * and at a scaled one (--scale B=2), and what the ratio says.
 *
 * Horace He's test for overhead: double the batch, and if the time grows by
 * much less than 2x (say under 1.1x) the GPU was waiting on the host. The
 * roofline tells that case apart from the other way a time can stay flat:
 * the work grows but its arithmetic intensity grows with it (a weight read
 * once now serves twice the rows). Pure functions.
 */
#ifndef RL_SCALE_H
#define RL_SCALE_H

#include <stddef.h>

#include "model.h"

/* t(scaled) / t below this counts as flat: the blog's rule of thumb. */
#define RL_SCALE_FLAT 1.1

enum rl_scale_verdict {
	RL_SCALE_FIXED,     /* flops and bytes do not change: no scaled name */
	RL_SCALE_OVERHEAD,  /* overhead-bound at the base size and flat: the
	                     * extra work hides under host or launch time */
	RL_SCALE_INTENSITY, /* intensity rose by more than RL_SCALE_FLAT: more
	                     * reuse per byte, not overhead */
	RL_SCALE_LINEAR,    /* the time follows the work */
	RL_SCALE_COUNT
};

/* The verdict for an op predicted as BASE at its size and SCALED at the
 * scaled size, in this order: fixed, overhead, intensity, linear. */
enum rl_scale_verdict rl_scale_verdict(const struct rl_pred *base, const struct rl_pred *scaled);

/* "fixed", "overhead", "intensity", "linear". */
const char *rl_scale_verdict_name(enum rl_scale_verdict v);

/* Count-weighted totals over a list. */
struct rl_scale_sum {
	size_t ops;
	double base_us, scaled_us;
	double base_by[RL_SCALE_COUNT], scaled_by[RL_SCALE_COUNT];
	size_t ops_by[RL_SCALE_COUNT];
};

void rl_scale_sum_init(struct rl_scale_sum *s);
void rl_scale_sum_add(struct rl_scale_sum *s, double count, const struct rl_pred *base,
                      const struct rl_pred *scaled, enum rl_scale_verdict v);

#endif
