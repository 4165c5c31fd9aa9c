/* search.h - every parallel layout of a model's step on a system, ranked
 * (roofline search): tensor, pipeline, data and expert parallelism that
 * divide the GPUs and the model, the micro-batches, the interleaved
 * schedule's chunks, the tensor-parallel all-reduces overlapped with the
 * GEMMs, sequence parallelism (with tp above 1), and, for a training step,
 * activation recomputation and ZeRO's stage (with dp above 1).
 *
 * Layer 4: each layout is placed (parallel.c, whose checks decide what is
 * a layout at all) and its step built and predicted as roofline model
 * builds it with those options (modelstep.c, through a pipeline without
 * output), read for the simulated step of the selected runtime (timeline.h,
 * so that overlapped collectives are hidden as far as the compute allows),
 * times the pipeline's (v m + pp - 1) / (v m), and for its memory against
 * the device's. Prints nothing; search_report.c writes the result.
 * docs/parallel.md, "Search".
 */
#ifndef RL_SEARCH_H
#define RL_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "hfconfig.h"
#include "modelops.h"
#include "modelstep.h"
#include "parallel.h"
#include "train.h"

/* What is searched. */
struct rl_search_spec {
	uint64_t gpus;  /* the GPUs every layout uses, tp x pp x dp */
	size_t top;     /* the layouts kept, best first (>= 1) */
};

/* One layout and its step. */
struct rl_search_row {
	struct rl_parallel lay; /* as placed: microbatches resolved */
	int recompute;          /* a training step's activation recomputation */
	uint64_t micro_batch;   /* sequences per micro-batch */
	double step_us;         /* the step: the simulated step of one GPU (the
	                         * last stage's) x (v m + pp - 1) / (v m) */
	double gpu_step_us;     /* that simulated step, before the pipeline's factor */
	double comm_us;         /* the collectives' time in it, all */
	double exposed_us;      /* of which the step waits for */
	double bubble;          /* (pp - 1) / (v m + pp - 1) */
	double memory_bytes;    /* what one GPU needs (memfit.h) */
	int fits;               /* within the device's memory */
	double tokens_per_s;    /* the step's tokens (all replicas) / step_us */
};

struct rl_search_result {
	size_t layouts;  /* candidates enumerated */
	size_t refused;  /* of them, refused by the layout's checks */
	size_t tried;    /* placed and predicted: layouts - refused */
	size_t unfit;    /* of those, over the device's memory */
	size_t n;        /* rows: the best `top` that fit, best first; when
	                  * none fits, the `top` that need the least memory */
	struct rl_search_row *rows; /* owned */
	uint64_t tokens; /* per step, all replicas */
};

void rl_search_result_init(struct rl_search_result *r);
void rl_search_result_release(struct rl_search_result *r);

/* The most candidates a search enumerates (a guard against a search that
 * would not end: the GPUs' divisors make far fewer for any real system). */
#define RL_SEARCH_MAX_LAYOUTS 200000

/* Searches the layouts of step MO of S (S->model's device, runtime and
 * database, and its train options for a training step, whose recompute
 * the search sets) on the interconnect NET (NULL: one node of any size)
 * for SPEC. MO's batch is the step's whole batch (sequences across the
 * data-parallel replicas); its par is ignored. Returns 0 with *OUT filled,
 * RL_ERR_ARG / RL_ERR_RANGE with ERR saying why no layout could be tried
 * (none divides the GPUs and the model; past RL_SEARCH_MAX_LAYOUTS), or
 * a step's negative status (ERRS, as rl_modelstep_run). */
int rl_search_run(const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                  const struct rl_net *net, const struct rl_search_spec *spec,
                  struct rl_search_result *out, struct rl_errlist *errs, struct rl_err *err);

#endif
