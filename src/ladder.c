/* ladder.c - a model step under each implementation (see ladder.h). */
#include "config.h"

#include "ladder.h"

#include <stdlib.h>
#include <string.h>

#include "memfit.h"
#include "modelops.h"
#include "pipeline.h"
#include "summary.h"

static int by_step(const void *a, const void *b)
{
	const struct rl_ladder_rung *x = a, *y = b;

	return x->step_us < y->step_us ? 1 : x->step_us > y->step_us ? -1 : 0;
}

void rl_ladder_sort(struct rl_ladder_rung *rungs, size_t n)
{
	qsort(rungs, n, sizeof(*rungs), by_step);
}

int rl_ladder_run(const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                  const struct rl_impl *impl, struct rl_ladder_rung *rung,
                  struct rl_errlist *errs)
{
	struct rl_modelops_row *rows = malloc(RL_MODELOPS_MAX * sizeof(*rows));
	struct rl_modelstep st = *s;
	struct rl_modelops_opts o = *mo;
	double tokens = (double)mo->batch * (mo->phase == RL_PHASE_PREFILL ? (double)mo->seq : 1);
	const struct rl_summary *sum;
	rl_pipeline *pl = NULL;
	struct rl_err e;
	int rc, nr;

	if (rows == NULL) {
		rl_err_set(&e, RL_ERR_NOMEM, "out of memory");
		rl_errlist_add(errs, &e);
		return RL_ERR_NOMEM;
	}
	st.sinks = NULL;
	o.impl = impl;
	if ((nr = rl_modelops_build(s->cfg, &o, rows, &e)) < 0) {
		rl_errlist_add(errs, &e);
		free(rows);
		return nr;
	}
	if ((rc = rl_modelstep_run(&st, &o, &pl, errs)) == 0) {
		sum = rl_pipeline_summary(pl);
		memset(rung, 0, sizeof(*rung));
		rung->impl = impl;
		rung->kernels = sum->kernels;
		rung->gpu_us = sum->gpu_us;
		rung->step_us = sum->total_us;
		rung->bytes = sum->bytes;
		rung->cache_bytes = rl_modelops_comp_bytes(rows, nr, &o, RL_IMPL_CACHE);
		rung->tokens_per_s = sum->total_us > 0 ? tokens / (sum->total_us * 1e-6) : 0;
		rung->memory_bytes = rl_memfit_total_bytes(rl_pipeline_memfit(pl));
	}
	rl_pipeline_free(pl);
	free(rows);
	return rc;
}
