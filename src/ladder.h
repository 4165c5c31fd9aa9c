/* ladder.h - one step of a model under each implementation (roofline model
 * --impl all): kernels, GPU time, step time, tokens/s and memory per
 * implementation, and what each step down the ladder buys.
 *
 * Layer 4: each rung is the step of modelstep.c built for one
 * implementation (impl.h) through a pipeline without output, read for its
 * summary and memory; ladder_report.c writes them. Prints nothing.
 */
#ifndef RL_LADDER_H
#define RL_LADDER_H

#include <stddef.h>
#include <stdio.h>

#include "impl.h"
#include "modelstep.h"
#include "report.h"

struct rl_ladder_rung {
	const struct rl_impl *impl;
	double kernels;      /* a step's launches */
	double gpu_us;       /* the kernels' expected time, summed */
	double step_us;      /* the step: each op's longer of GPU and host time */
	double bytes;        /* memory traffic */
	double cache_bytes;  /* of which the KV-cache update's (component cache) */
	double tokens_per_s; /* the step's tokens (batch at decode, batch x seq at
	                      * prefill) over step_us */
	double memory_bytes; /* weights, KV cache and activations (memfit.h) */
};

/* The step MO of S under implementation IMPL (S's model: its runtime)
 * into *RUNG. Returns 0 or a step's negative status (ERRS). */
int rl_ladder_run(const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                  const struct rl_impl *impl, struct rl_ladder_rung *rung,
                  struct rl_errlist *errs);

/* Sorts RUNGS (N) by step time, the longest first: each step down the
 * ladder is faster. */
void rl_ladder_sort(struct rl_ladder_rung *rungs, size_t n);

/* Writes RUNGS (N) as FMT (table, md, csv, json): one row per
 * implementation, then each step down the ladder and why it is faster.
 * Returns 0 or RL_ERR_IO. */
int rl_ladder_write(FILE *out, enum rl_format fmt, const struct rl_ladder_rung *rungs, size_t n);

/* Writes RUNGS (N) as an html page (html.h): each step down the ladder, a
 * chart of each implementation's step and GPU time, and the csv's cells as
 * a sortable table. CONFIG names the model's config, STEP the step (NULL:
 * not said), DEV the device (NULL: not said). Returns 0, RL_ERR_NOMEM or
 * RL_ERR_IO. */
int rl_ladder_write_html(FILE *out, const struct rl_ladder_rung *rungs, size_t n,
                         const char *config, const char *step, const struct rl_device *dev);

#endif
