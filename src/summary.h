/* summary.h - model-level totals of a classified op list.
 *
 * Accumulates, op by op, the count-weighted expected time (model.h's
 * expected_us: the roofline's with --best-case) beside the roofline's, the
 * expected time per expected bound, total FLOPs and bytes, measured time
 * where given, and the ops that take the most expected time. Fed in file
 * order, it needs no array of ops, so a million-op list is summarised in
 * constant memory, but for two numbers per op that has a measured time (the
 * errors, whose median and p90 need them all). Names of the top ops are
 * copied (owned).
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
	enum rl_bound bound;          /* the roofline's */
	enum rl_bound expected_bound;
	double total_us;    /* count x expected_us: the rank */
	double roofline_us; /* count x t_us */
};

/* The error of the expected time and of the roofline against measured
 * times: |t - measured| / measured over ops (each row once, whatever its
 * count), as fractions. */
struct rl_summary_err {
	size_t ops;             /* rows with a measured time > 0 (and >= the floor) */
	double expected_median, expected_p90; /* of |expected_gpu_us - measured| / measured */
	double roofline_median, roofline_p90; /* of |t_gpu_us - measured| / measured */
};

struct rl_summary {
	size_t ops;                  /* rows */
	uint64_t occurrences;        /* sum of count, exact (at most 2^64 - 1) */
	double total_us;             /* sum of count x expected_us */
	double gpu_us;               /* sum of count x expected_gpu_us */
	double roofline_us;          /* sum of count x t_us */
	double roofline_gpu_us;      /* sum of count x t_gpu_us */
	double bound_us[RL_BOUND_COUNT];  /* count x expected_us by expected_bound */
	size_t bound_ops[RL_BOUND_COUNT]; /* ops by expected_bound */
	double roofline_bound_us[RL_BOUND_COUNT];  /* count x t_us by bound */
	size_t roofline_bound_ops[RL_BOUND_COUNT]; /* ops by bound */
	size_t bound_differs;        /* ops whose expected_bound is not their bound */
	double phase_us[RL_PHASE_COUNT];  /* count x expected_us by phase */
	double phase_roofline_us[RL_PHASE_COUNT]; /* count x t_us by phase */
	double phase_flops[RL_PHASE_COUNT];       /* count x FLOPs by phase */
	double phase_bytes[RL_PHASE_COUNT];       /* count x bytes by phase */
	size_t phase_ops[RL_PHASE_COUNT];
	double flops, bytes;         /* count-weighted */
	double kernels;              /* sum of count x expected_kernels: the
	                              * kernels launched by one pass of the list
	                              * (a model's step) */
	double comm_us;              /* count x expected_us of the collectives */
	double comm_overlap_us;      /* of which overlap=1 (op.h) */
	size_t comm_ops;             /* collective rows */
	double measured_us;          /* sum of count x measured_us over ops that have it */
	double roofline_of_measured_us; /* sum of count x t_gpu_us over the same ops */
	double expected_of_measured_us; /* sum of count x expected_gpu_us over them */
	size_t measured_ops;
	/* per op with a measured time > 0: measured_us, and the errors of the
	 * expected and the roofline GPU time (owned; rl_summary_err reads them) */
	double *err_measured_us, *err_expected, *err_roofline;
	size_t nerr, caperr;
	size_t fallbacks;            /* ops whose pipe fell back */
	size_t l2_ops;               /* ops found L2-resident (l2.h) */
	double l2_saved_us;          /* sum of count x l2_saved_us: what --l2 saves */
	size_t ntop;
	struct rl_summary_top top[RL_SUMMARY_TOP]; /* longest first */
};

void rl_summary_init(struct rl_summary *s);
void rl_summary_release(struct rl_summary *s);

/* The median and p90 error of the ops with a measured time of at least
 * MIN_MEASURED_US (0: all) into *OUT (zeros when none). Returns 0 or
 * RL_ERR_NOMEM. */
int rl_summary_err(const struct rl_summary *s, double min_measured_us,
                   struct rl_summary_err *out);

/* Adds one op and its prediction. Returns 0, RL_ERR_NOMEM, or RL_ERR_RANGE
 * when the op's count would carry the total of occurrences past 2^64 - 1:
 * then ERR (NULL allowed) says so, without a location, and S is unchanged. */
int rl_summary_add(struct rl_summary *s, const struct rl_op *op, const struct rl_pred *p,
                   struct rl_err *err);

#endif
