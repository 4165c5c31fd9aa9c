/* hostfit.h - a runtime profile's host costs fitted from the host timeline
 * of one profiled step (roofline calibrate --from-trace, docs/calibrate.md).
 *
 * The step's host time is walked call by call: each top-level call (the
 * outermost CPU op of its thread) is charged its own time plus the host gap
 * before it (Python, module calls); a call that launches no kernel (a view,
 * a reshape) passes its charge on to the next call that does, the time after
 * the last one goes to that last one. So every microsecond of the step's host
 * span, from the first call's start to the last call's end less the
 * profiler's own spans, is charged to exactly one kernel-launching call.
 * Per op kind the fitted cost per launch is the kind's charged time over its
 * kernels; the sum over the step's kernels gives back the span. A call at
 * input shapes the step has not run before whose own CPU time is far above
 * its op's median (RL_HOSTFIT_EXTRA_RATIO times and RL_HOSTFIT_EXTRA_MIN_US
 * more) is a per-call extra: the excess is kept apart (host_extra_us.KIND,
 * per such call), the rest charged as usual; but the call holding the
 * trace's first launch (first_launch), whose excess is the profiler's
 * start. Pure: no I/O.
 */
#ifndef RL_HOSTFIT_H
#define RL_HOSTFIT_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "kind.h"

/* One top-level host call of the step. */
struct rl_hostfit_call {
	const char *name;   /* the op's name, "aten::linear" (borrowed) */
	int kind;           /* enum rl_kind of what it launched; -1 when it launched nothing */
	uint64_t kernels;   /* GPU activities it launched (kernels, memsets, memcpys) */
	int64_t start_ns, end_ns; /* end >= start */
	uint64_t shape;     /* its input shapes, hashed: equal shapes, equal values */
	int first_launch;   /* it holds the trace's first launch call, which the
	                     * profiler's start slows (CUPTI: 400-450 us in the
	                     * cudaLaunchKernel of tests/data's hf traces) */
};

/* A span of the profiler's own work on the host: not the step's time. */
struct rl_hostfit_skip {
	int64_t start_ns, end_ns;
};

#define RL_HOSTFIT_EXTRA_RATIO 2.0
#define RL_HOSTFIT_EXTRA_MIN_US 20.0

/* A host pathology (report's advice): a call at input shapes its op had not
 * run before in the step, of a kind other than custom (whose calls have
 * nothing in common), whose own CPU time per kernel launched is over
 * RL_HOSTFIT_OUTLIER_RATIO times its kind's median and
 * RL_HOSTFIT_OUTLIER_MIN_US above it; the call with the first launch
 * (first_launch) is left out. */
#define RL_HOSTFIT_OUTLIER_RATIO 5.0
#define RL_HOSTFIT_OUTLIER_MIN_US 100.0

struct rl_hostfit_kind {
	size_t calls;
	uint64_t kernels;
	double charged_us;  /* host time charged to its calls, extras excluded */
	double host_us;     /* charged_us / kernels: the fitted cost per launch */
	size_t extra_calls;
	double extra_us;    /* summed extras of its calls */
	double median_us;   /* median own CPU time of its calls per kernel */
};

/* Per op name: the calls that launched kernels. */
struct rl_hostfit_name {
	const char *name;   /* borrowed from the calls */
	int kind;           /* of its first call */
	size_t calls;
	uint64_t kernels;
	double charged_us;  /* extras excluded */
	double median_us;   /* median own CPU time of a call (end - start, less skips) */
	double max_us;
	size_t extra_calls;
	double extra_us;
};

/* A call whose excess was kept apart (median_us: its op's per call), or an
 * outlier (median_us: its kind's per kernel; extra_us: own_us less that
 * for each of its kernels). */
struct rl_hostfit_extra {
	size_t call;        /* index into the calls given */
	const char *name;
	int kind;
	double own_us, median_us, extra_us; /* extra_us = own_us - median_us */
	int new_shape;      /* the first call of its op at its input shapes */
};

struct rl_hostfit {
	double span_us;      /* first call's start to last call's end, skips removed */
	double skipped_us;   /* the profiler's spans inside it */
	double scale;        /* applied to every cost (rl_hostfit_run's STEP_US) */
	size_t calls, launching;
	uint64_t kernels;
	double host_us;      /* span_us x scale less extras, per kernel: the default */
	struct rl_hostfit_kind kind[RL_KIND_COUNT];
	struct rl_hostfit_name *names; /* owned; most charged first */
	size_t nnames;
	struct rl_hostfit_extra *extras; /* owned; in call order */
	size_t nextras;
	struct rl_hostfit_extra *outliers; /* owned; in call order */
	size_t noutliers;
};

/* Fits *FIT (caller-owned, released with rl_hostfit_release, also after a
 * failure) from the N calls CALLS (any order: sorted by start, copied) and
 * the NSKIP profiler spans SKIP. STEP_US > 0 is the step's wall time
 * measured without the profiler: every cost is then scaled by STEP_US /
 * span_us (the profiler's own inflation of the host time removed in
 * proportion); 0 keeps the profiled times (scale 1). Times in the record are
 * us, after the scale. Returns 0, RL_ERR_ARG (no call launched a kernel;
 * a span of 0; a kind out of range), or RL_ERR_NOMEM. */
int rl_hostfit_run(const struct rl_hostfit_call *calls, size_t n,
                   const struct rl_hostfit_skip *skip, size_t nskip, double step_us,
                   struct rl_hostfit *fit, struct rl_err *err);

void rl_hostfit_init(struct rl_hostfit *fit);
void rl_hostfit_release(struct rl_hostfit *fit);

#endif
