/* search.c - every parallel layout of a step, ranked (see search.h). */
#include "config.h"

#include "search.h"

#include <stdlib.h>
#include <string.h>

#include "memfit.h"
#include "pipeline.h"
#include "timeline.h"

void rl_search_result_init(struct rl_search_result *r)
{
	memset(r, 0, sizeof(*r));
}

void rl_search_result_release(struct rl_search_result *r)
{
	free(r->rows);
	rl_search_result_init(r);
}

/* The divisors of N up to MAX into D (at most CAP of them), ascending;
 * returns how many. */
static size_t divisors(uint64_t n, uint64_t max, uint64_t *d, size_t cap)
{
	size_t k = 0;
	uint64_t i;

	for (i = 1; i <= n && i <= max && k < cap; i++)
		if (n % i == 0)
			d[k++] = i;
	return k;
}

/* A better row: one that fits before one that does not; then the shorter
 * step; then less memory; then the fewer GPUs a group spans (smaller tp,
 * pp), so that equal steps keep a stable order. */
static int better(const struct rl_search_row *a, const struct rl_search_row *b)
{
	if (a->fits != b->fits)
		return a->fits;
	if (!a->fits)
		return a->memory_bytes < b->memory_bytes;
	if (a->step_us != b->step_us)
		return a->step_us < b->step_us;
	if (a->memory_bytes != b->memory_bytes)
		return a->memory_bytes < b->memory_bytes;
	if (a->lay.tp != b->lay.tp)
		return a->lay.tp < b->lay.tp;
	return a->lay.pp < b->lay.pp;
}

/* Keeps ROW among OUT's best SPEC->top, in order. */
static void keep(struct rl_search_result *out, size_t top, const struct rl_search_row *row)
{
	size_t i;

	if (out->n == top && !better(row, &out->rows[top - 1]))
		return;
	i = out->n < top ? out->n++ : top - 1;
	while (i > 0 && better(row, &out->rows[i - 1])) {
		out->rows[i] = out->rows[i - 1];
		i--;
	}
	out->rows[i] = *row;
}

struct ctx {
	const struct rl_modelstep *s;
	struct rl_modelops_opts mo;
	struct rl_pipeline_model pm;
	struct rl_train_opts train;
	struct rl_pipeline_sinks sinks;
	const struct rl_net *net;
	struct rl_search_result *out;
	size_t top;
	struct rl_errlist *errs;
};

/* The selected runtime's lane of PL's timeline (the pipeline adds every
 * runtime of the database, the model's own marked). */
static const struct rl_tl_lane *selected_lane(const rl_pipeline *pl)
{
	const struct rl_timeline *tl = rl_pipeline_timeline(pl);
	size_t i;

	for (i = 0; i < tl->nlanes; i++)
		if (tl->lanes[i].selected)
			return &tl->lanes[i];
	return NULL;
}

/* Places LAY and predicts its step; a layout its checks refuse counts as
 * refused. Returns 0 or a step's negative status. */
static int try_layout(struct ctx *c, const struct rl_parallel *lay, int recompute)
{
	struct rl_parallel_place place;
	struct rl_modelstep st = *c->s;
	struct rl_search_row row;
	const struct rl_summary *sum;
	const struct rl_tl_lane *lane;
	rl_pipeline *pl = NULL;
	struct rl_err e;
	double vm;
	int rc;

	c->out->layouts++;
	if (rl_parallel_check_model(lay, c->s->cfg, &e) < 0 ||
	    rl_parallel_place(lay, c->mo.batch, c->s->cfg->layers, c->mo.train, c->net, &place,
	                      &e) < 0) {
		c->out->refused++;
		return 0;
	}
	c->mo.par = &place;
	c->pm.parallel = &place;
	c->train.recompute = recompute;
	st.model = &c->pm;
	st.sinks = &c->sinks;
	rc = rl_modelstep_run(&st, &c->mo, &pl, c->errs);
	/* the builder's refusal of the layout (sequence parallelism over a
	 * micro-batch's tokens tp does not divide, or with an implementation
	 * other than the fused one): refused as the layout's checks refuse */
	if (rc == RL_ERR_ARG && c->errs->count == 1) {
		rl_errlist_init(c->errs);
		c->out->refused++;
		return 0;
	}
	if (rc < 0)
		return rc;
	c->out->tried++;
	sum = rl_pipeline_summary(pl);
	lane = selected_lane(pl);
	memset(&row, 0, sizeof(row));
	row.lay = place.lay;
	row.recompute = recompute;
	row.micro_batch = place.micro_batch;
	row.gpu_step_us = lane != NULL ? lane->step_us : sum->total_us;
	row.comm_us = sum->comm_us;
	row.exposed_us = lane != NULL ? lane->exposed_us : sum->comm_us;
	row.bubble = place.bubble;
	vm = (double)place.lay.microbatches * (double)(place.lay.vstages > 1 ? place.lay.vstages : 1);
	row.step_us = place.lay.pp > 1 ? row.gpu_step_us * (vm + (double)place.lay.pp - 1) / vm
	                               : row.gpu_step_us;
	row.memory_bytes = rl_memfit_total_bytes(rl_pipeline_memfit(pl));
	row.fits = rl_memfit_fits(rl_pipeline_memfit(pl), c->pm.dev);
	row.tokens_per_s = row.step_us > 0 ? (double)c->out->tokens / (row.step_us * 1e-6) : 0;
	if (!row.fits)
		c->out->unfit++;
	keep(c->out, c->top, &row);
	rl_pipeline_free(pl);
	return 0;
}

int rl_search_run(const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                  const struct rl_net *net, const struct rl_search_spec *spec,
                  struct rl_search_result *out, struct rl_errlist *errs, struct rl_err *err)
{
	const struct rl_hfconfig *cfg = s->cfg;
	uint64_t tps[64], pps[64], eps[64], ms[256], vs[8];
	uint64_t per_node = net != NULL && net->gpus_per_node > 0 ? net->gpus_per_node : spec->gpus;
	size_t ntp, npp, nep, nm, nv, a, b, e, f, g;
	struct ctx c;
	int rc = 0, o, r, z, q;

	rl_search_result_init(out);
	if (spec->gpus == 0 || spec->top == 0)
		return rl_err_set(err, RL_ERR_ARG, "--gpus and --top take a number from 1");
	out->rows = calloc(spec->top, sizeof(*out->rows));
	if (out->rows == NULL)
		return RL_ERR_NOMEM;
	memset(&c, 0, sizeof(c));
	c.s = s;
	c.mo = *mo;
	c.pm = *s->model;
	if (s->model->train != NULL) {
		c.train = *s->model->train;
		c.pm.train = &c.train;
	}
	c.sinks.timeline = c.pm.db != NULL;
	c.net = net;
	c.out = out;
	c.top = spec->top;
	c.errs = errs;
	out->tokens = mo->batch * (mo->phase == RL_PHASE_DECODE && !mo->train ? 1 : mo->seq);

	/* a tensor-parallel group within a node; pp at most the layers */
	ntp = divisors(spec->gpus, per_node, tps, 64);
	for (a = 0; a < ntp && rc == 0; a++) {
		npp = divisors(spec->gpus / tps[a], cfg->layers, pps, 64);
		for (b = 0; b < npp && rc == 0; b++) {
			uint64_t dp = spec->gpus / tps[a] / pps[b];

			/* experts over the data-parallel ranks (an MoE model) */
			nep = cfg->experts > 0 ? divisors(dp, cfg->experts, eps, 64) : 0;
			if (nep == 0)
				eps[nep++] = 1;
			/* micro-batches: a training step's every divisor of the
			 * replica's sequences (gradient accumulation without
			 * stages); inference keeps the default */
			nm = 0;
			if (mo->train && mo->batch % dp == 0)
				nm = divisors(mo->batch / dp, 256, ms, 256);
			if (nm == 0)
				ms[nm++] = 0;
			/* the interleaved schedule's chunks: pp x v divides the
			 * layers (its other checks are parallel.c's) */
			nv = 0;
			for (g = 1; g <= 8; g++)
				if (g == 1 || (pps[b] > 1 && cfg->layers % (pps[b] * g) == 0))
					vs[nv++] = g;
			for (e = 0; e < nep && rc == 0; e++)
				for (f = 0; f < nm && rc == 0; f++)
					for (g = 0; g < nv && rc == 0; g++)
						for (o = 0; o <= (tps[a] > 1) && rc == 0; o++)
							for (r = 0; r <= (mo->train != 0) && rc == 0; r++)
							for (z = 0; z <= (mo->train && dp > 1 ? 3 : 0) && rc == 0; z++)
							for (q = 0; q <= (tps[a] > 1) && rc == 0; q++) {
								struct rl_parallel lay;

								if (out->layouts >= RL_SEARCH_MAX_LAYOUTS)
									return rl_err_set(err, RL_ERR_RANGE,
									                  "search: more than %d layouts",
									                  RL_SEARCH_MAX_LAYOUTS);
								memset(&lay, 0, sizeof(lay));
								lay.tp = tps[a];
								lay.pp = pps[b];
								lay.dp = dp;
								lay.ep = eps[e];
								lay.microbatches = ms[f];
								lay.vstages = vs[g];
								lay.tp_comm_overlap = o;
								lay.zero = z;
								lay.sp = q;
								rc = try_layout(&c, &lay, r);
							}
		}
	}
	if (rc < 0)
		return rc;
	if (out->tried == 0)
		return rl_err_set(err, RL_ERR_ARG,
		                  "search: none of the %zu layouts of %llu GPUs fits the model, the "
		                  "batch and the system's nodes (roofline model --tp/--pp/--dp says "
		                  "why of one)",
		                  out->layouts, (unsigned long long)spec->gpus);
	return 0;
}
