/* summary.h - model-level totals of a classified op list.
 *
 * Accumulates, op by op, the count-weighted time, the time per bound, total
 * FLOPs and bytes, measured time where given, and the ops that take the most
 * time. Fed in file order, it needs no array of ops, so a million-op list is
 * summarised in constant memory. Names of the top ops are copied (owned).
 */
#ifndef RL_SUMMARY_H
#define RL_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#include "model.h"

#define RL_SUMMARY_TOP 5

struct rl_summary_top {
	char *name;
	size_t line;
	enum rl_bound bound;
	double total_us; /* count x t_us */
};

struct rl_summary {
	size_t ops;                  /* rows */
	uint64_t occurrences;        /* sum of count, exact (at most 2^64 - 1) */
	double total_us;             /* sum of count x t_us */
	double gpu_us;               /* sum of count x t_gpu_us */
	double bound_us[RL_BOUND_COUNT];
	size_t bound_ops[RL_BOUND_COUNT];
	double flops, bytes;         /* count-weighted */
	double measured_us;          /* sum of count x measured_us over ops that have it */
	double roofline_of_measured_us; /* sum of count x t_gpu_us over the same ops */
	size_t measured_ops;
	size_t fallbacks;            /* ops whose pipe fell back */
	size_t l2_ops;               /* ops found L2-resident (l2.h) */
	double l2_saved_us;          /* sum of count x l2_saved_us: what --l2 saves */
	size_t ntop;
	struct rl_summary_top top[RL_SUMMARY_TOP]; /* longest first */
};

void rl_summary_init(struct rl_summary *s);
void rl_summary_release(struct rl_summary *s);

/* Adds one op and its prediction. Returns 0, RL_ERR_NOMEM, or RL_ERR_RANGE
 * when the op's count would carry the total of occurrences past 2^64 - 1:
 * then ERR (NULL allowed) says so, without a location, and S is unchanged. */
int rl_summary_add(struct rl_summary *s, const struct rl_op *op, const struct rl_pred *p,
                   struct rl_err *err);

#endif
