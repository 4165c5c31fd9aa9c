/* step.h - one measured step of a trace against its roofline.
 *
 * The model-level view of "roofline report": from the GPU activities, how
 * long the step lasted (first activity start to last end), how much of it
 * the GPU was busy (the union of the activities' intervals) and how it sat
 * idle in between (the gaps: time the GPU waited on the host, the overhead
 * share of the step); from the ops, measured GPU time against the roofline
 * (t_gpu) and the expected time (expected_gpu_us) per op kind, and the ops
 * with the most recoverable time (measured minus expected: what a tuned
 * library kernel gives; the gap to the roofline beside it) with advice for
 * each. Pure: fed intervals and predicted
 * ops, it does no I/O. Names of the top ops are copied (owned).
 */
#ifndef RL_STEP_H
#define RL_STEP_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "op.h"

struct rl_interval {
	int64_t start_ns, end_ns;
};

#define RL_STEP_TOP 10

struct rl_step_kind {
	size_t ops;
	uint64_t launches;
	double measured_us; /* GPU time of the ops that have one */
	double roofline_us; /* sum of t_gpu_us over the same ops */
	double expected_us; /* sum of expected_gpu_us over the same ops */
	double host_us;
};

struct rl_step_top {
	char *name;
	enum rl_kind kind;
	enum rl_bound bound;
	enum rl_bound expected_bound;
	double measured_us, roofline_us;
	double expected_us; /* expected_gpu_us: measured - expected is the rank */
	const char *advice; /* static */
};

/* A compiled program's host side as the trace recorded it (rl_import's,
 * from inductor.h's rl_inductor_host and the replays the join finds):
 * torch.compile's regions and what Dynamo and AOT autograd spend
 * around the kernels' launches, and the CUDA graphs replayed. */
struct rl_step_compiled {
	size_t regions;         /* "Torch-Compiled Region" calls */
	double region_us;       /* their host time in all */
	double cache_lookup_us; /* Dynamo's cache lookup and guards, before each region */
	double prologue_us;     /* in the regions: the bytecode before the graph, AOT's wrapper */
	size_t graph_launches;  /* cudaGraphLaunch calls that replayed activities */
	size_t graph_kernels;   /* the activities they replayed */
	size_t graph_attributed; /* of them, attributed to the ops captured */
	double graph_launch_us; /* cudaGraphLaunch's host time in all */
};

struct rl_step {
	size_t activities;
	double span_us;        /* first GPU activity start to last end */
	double busy_us;        /* union of the activities' intervals */
	double idle_us;        /* span_us - busy_us */
	size_t gaps;           /* idle stretches between activities */
	double longest_gap_us;
	struct rl_step_kind kind[RL_KIND_COUNT];
	struct rl_step_kind phase[RL_PHASE_COUNT]; /* a training step's forward,
	                                            * backward and optimizer */
	struct rl_step_kind all;
	size_t ntop;
	struct rl_step_top top[RL_STEP_TOP]; /* most recoverable first */
	struct rl_step_compiled compiled; /* zero for an eager trace */
};

void rl_step_init(struct rl_step *s);
void rl_step_release(struct rl_step *s);

/* Sets the timeline fields from the N intervals IV (sorted in place). */
void rl_step_timeline(struct rl_step *s, struct rl_interval *iv, size_t n);

/* Adds one op (count 1) and its prediction. Returns 0 or RL_ERR_NOMEM. */
int rl_step_add(struct rl_step *s, const struct rl_op *op, const struct rl_pred *p);

/* Advice for an op measured slower than its roofline (static string). */
const char *rl_step_advice(const struct rl_op *op, const struct rl_pred *p);

#endif
