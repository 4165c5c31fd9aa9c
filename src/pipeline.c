/* pipeline.c - the classify pipeline (see pipeline.h). */
#include "config.h"

#include "pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "l2.h"
#include "memfit.h"
#include "model.h"
#include "symbols.h"
#include "whatif_report.h"

struct rl_pipeline {
	struct rl_model_ctx ctx;
	const struct rl_runtime *rt;
	struct rl_pipeline_sinks sinks;
	char *input;
	/* the extra columns' names, owned: the reader that named them may be
	 * gone when the last fusion group is flushed (issue 11, bug 1) */
	size_t nextra;
	char **extra_names;
	const char **blank_extra; /* the extra cells of a fused group: empty */
	rl_report *rep;
	struct rl_summary sum;
	struct rl_memfit mem; /* the step's memory, op by op (before fusion) */
	struct rl_timeline tl;
	struct rl_l2 l2; /* L2 residency, kernel by kernel */
	struct rl_fuse_stream fs;
	/* scale: a second fusion stream at the scaled size, whose kernels pair
	 * up with the first one's (at most 2 waiting: a group and an op) */
	struct rl_fuse_stream fs2;
	struct rl_scale_sum ssum;
	struct {
		struct rl_op op;
		struct rl_pred p;
		char *name;
	} wait[2];
	size_t nwait;
	/* where a kernel reports its error during rl_pipeline_op and _end: the
	 * caller's record, or no_err; located says the kernel located it */
	struct rl_err *err;
	struct rl_err no_err;
	int located;
	/* a training step (train.h): the backward ops of each forward op,
	 * kept until the last forward op; group[i] is the first backward op
	 * of forward op i */
	int train;
	struct rl_train_opts topts;
	struct rl_train_params params;
	struct rl_train_mem tmem;
	struct rl_train_op *bwd;
	size_t nbwd, capbwd;
	size_t *group;
	size_t ngroup, capgroup;
	int seen_op;
	/* data parallel: the gradient bytes of each forward op (gbytes[i]
	 * of group i), reduced in buckets during backward */
	const struct rl_parallel_place *par;
	double *gbytes;
	size_t capgbytes;
	/* ZeRO-3: each group's weights (count-weighted), the occurrences of
	 * its forward op, its weights' dtype: gathered again for backward */
	double *gparams;
	size_t capgparams;
	uint64_t *gcount;
	size_t capgcount;
	enum rl_dtype *gwdtype;
	size_t capgwdtype;
	enum rl_dtype gdtype; /* the gradients' */
	struct rl_parallel_ddp ddp;
};

static int locate(const rl_pipeline *pl, const struct rl_op *op, struct rl_err *err,
                  const char *prefix);

/* One kernel after fusion: judged for L2 residency, then into every sink.
 * A kernel the summary refuses (its count would carry the total of
 * occurrences past 2^64 - 1) goes into no sink; its error is located at
 * the kernel's line (a group's: its first op's), which may be an op before
 * the one being fed. */
static int on_kernel(const struct rl_fuse_row *row, void *user)
{
	rl_pipeline *pl = user;
	struct rl_op op = *row->op;
	struct rl_pred p = *row->p;
	int rc;

	if (op.extra == NULL)
		op.extra = pl->blank_extra;
	rl_l2_kernel(&pl->l2, &pl->ctx, &op, row->out_bytes, &p);
	rc = rl_summary_add(&pl->sum, &op, &p, pl->err);
	if (rc < 0 && pl->err->code < 0) {
		pl->located = 1;
		return locate(pl, &op, pl->err, "");
	}
	if (rc == 0 && pl->sinks.step != NULL)
		rc = rl_step_add(pl->sinks.step, &op, &p);
	if (rc == 0 && pl->sinks.timeline)
		rl_timeline_add_op(&pl->tl, &op, &p);
	if (rc == 0 && pl->rep != NULL)
		rc = rl_report_row(pl->rep, &op, &p);
	if (rc == 0 && pl->sinks.chart != NULL)
		rc = rl_chart_add(pl->sinks.chart, &op, &p);
	return rc;
}

/* scale: a kernel at the base size waits for its scaled twin. */
static int on_kernel_base(const struct rl_fuse_row *row, void *user)
{
	rl_pipeline *pl = user;

	if (pl->nwait == 2)
		return RL_ERR_ARG; /* not reached: the streams emit in step */
	pl->wait[pl->nwait].op = *row->op;
	pl->wait[pl->nwait].p = *row->p;
	pl->wait[pl->nwait].name = strdup(row->op->name);
	if (pl->wait[pl->nwait].name == NULL)
		return RL_ERR_NOMEM;
	pl->wait[pl->nwait].op.name = pl->wait[pl->nwait].name;
	pl->wait[pl->nwait].op.extra = NULL; /* the scaling report shows none */
	pl->nwait++;
	return 0;
}

static int on_kernel_scaled(const struct rl_fuse_row *row, void *user)
{
	rl_pipeline *pl = user;
	enum rl_scale_verdict v;
	int rc = 0;

	if (pl->nwait == 0)
		return RL_ERR_ARG; /* not reached */
	v = rl_scale_verdict(&pl->wait[0].p, row->p);
	rl_scale_sum_add(&pl->ssum, (double)row->op->count, &pl->wait[0].p, row->p, v);
	if (pl->sinks.out != NULL)
		rc = rl_scale_report_row(pl->sinks.out, pl->sinks.fmt == RL_FMT_CSV,
		                         &pl->wait[0].op, &pl->wait[0].p, row->p, v);
	free(pl->wait[0].name);
	pl->wait[0] = pl->wait[1];
	pl->nwait--;
	return rc;
}

static char *dup_or_null(const char *s)
{
	return s != NULL ? strdup(s) : NULL;
}

static int copy_columns(rl_pipeline *pl, const struct rl_pipeline_columns *cols)
{
	size_t i;

	pl->input = dup_or_null(cols->input != NULL ? cols->input : "-");
	if (pl->input == NULL)
		return RL_ERR_NOMEM;
	if (cols->nextra == 0)
		return 0;
	pl->extra_names = calloc(cols->nextra, sizeof(*pl->extra_names));
	pl->blank_extra = calloc(cols->nextra, sizeof(*pl->blank_extra));
	if (pl->extra_names == NULL || pl->blank_extra == NULL)
		return RL_ERR_NOMEM;
	for (; pl->nextra < cols->nextra; pl->nextra++) {
		pl->extra_names[pl->nextra] = strdup(cols->extra_names[pl->nextra]);
		if (pl->extra_names[pl->nextra] == NULL)
			return RL_ERR_NOMEM;
		pl->blank_extra[pl->nextra] = "";
	}
	for (i = 0; i < pl->nextra; i++)
		pl->blank_extra[i] = "";
	return 0;
}

static int begin(rl_pipeline *pl, const struct rl_pipeline_model *m,
                 const struct rl_pipeline_columns *cols)
{
	const struct rl_pipeline_sinks *s = &pl->sinks;
	struct rl_report_info info;
	int rc = copy_columns(pl, cols);

	if (rc < 0)
		return rc;
	if (s->timeline && m->db != NULL &&
	    rl_timeline_add_runtimes(&pl->tl, m->db, m->rt, m->host_overhead_us,
	                             m->host_kind_us) < 0)
		return RL_ERR_NOMEM;
	/* ops with a recorded host time (an imported trace): one more lane, the
	 * step with those host times and the kernels at their expected time */
	if (s->timeline && cols->has_host &&
	    rl_timeline_add_runtime(&pl->tl, RL_TL_RECORDED_ID, m->host_overhead_us, RL_TL_RECORDED,
	                            0) < 0)
		return RL_ERR_NOMEM;
	if (s->timeline && cols->has_host) /* ops without host_us: per kind */
		rl_tl_lane_kinds(&pl->tl.lanes[pl->tl.nlanes - 1], m->host_kind_us);
	rl_fuse_stream_init(&pl->fs, &pl->ctx, s->suggest,
	                    s->scale != NULL ? on_kernel_base : on_kernel, pl);
	rl_fuse_stream_init(&pl->fs2, &pl->ctx, 0, on_kernel_scaled, pl);
	if (s->out == NULL)
		return 0;
	if (s->scale != NULL)
		return rl_scale_report_begin(s->out, s->fmt == RL_FMT_CSV, m->dev, m->rt->id,
		                             m->host_overhead_us, m->host_kind_us, s->scale_label,
		                             m->best_case);
	memset(&info, 0, sizeof(info));
	info.dev = m->dev;
	info.source = cols->input;
	info.runtime = m->rt->id;
	info.host_overhead_us = m->host_overhead_us;
	info.host_kind_us = m->host_kind_us;
	info.nextra = pl->nextra;
	info.extra_names = (const char *const *)pl->extra_names;
	info.has_measured = cols->has_measured;
	info.has_host = cols->has_host;
	info.has_phase = cols->has_phase || m->train != NULL;
	info.wide = s->wide;
	info.l2 = s->l2;
	info.timeline = s->timeline ? &pl->tl : NULL;
	info.step = s->step;
	info.best_case = m->best_case;
	info.expected_source = m->best_case ? NULL : m->expected_source;
	info.interconnect = m->interconnect;
	info.parallel = m->parallel;
	info.impl = m->impl;
	info.appendix = s->appendix;
	info.mem = s->memfit && s->step == NULL ? &pl->mem : NULL;
	return rl_report_begin(s->out, s->fmt, &info, &pl->rep);
}

int rl_pipeline_begin(const struct rl_pipeline_model *m, const struct rl_pipeline_sinks *sinks,
                      const struct rl_pipeline_columns *cols, rl_pipeline **out)
{
	rl_pipeline *pl = calloc(1, sizeof(*pl));
	int rc;

	*out = NULL;
	if (pl == NULL)
		return RL_ERR_NOMEM;
	pl->ctx.dev = m->dev;
	pl->ctx.host_overhead_us = m->host_overhead_us;
	pl->ctx.host_kind_us = m->host_kind_us;
	pl->ctx.host_extra_us = m->host_extra_us;
	pl->ctx.eff = m->eff;
	pl->ctx.best_case = m->best_case;
	pl->ctx.compiled = rl_runtime_compiled(m->rt);
	pl->ctx.net = m->net;
	pl->rt = m->rt;
	if (m->train != NULL) {
		pl->train = 1;
		pl->topts = *m->train;
		if (m->parallel != NULL && m->parallel->lay.microbatches > 1) {
			pl->topts.microbatches = m->parallel->lay.microbatches;
			pl->topts.in_flight = m->parallel->in_flight;
		}
		if (m->parallel != NULL && m->parallel->lay.zero > 0 && m->parallel->dp.ranks > 1) {
			pl->topts.zero = m->parallel->lay.zero;
			pl->topts.shards = m->parallel->dp.ranks;
		}
		rl_train_params_init(&pl->params);
		rl_train_mem_init(&pl->tmem);
		if (m->parallel != NULL && m->parallel->dp.ranks > 1) {
			pl->par = m->parallel;
			rl_parallel_ddp_init(&pl->ddp, m->parallel->lay.bucket_bytes);
		}
	}
	pl->sinks = *sinks;
	pl->err = &pl->no_err;
	rl_summary_init(&pl->sum);
	rl_memfit_init(&pl->mem);
	rl_timeline_init(&pl->tl);
	rl_l2_init(&pl->l2, m->dev, sinks->l2);
	rl_scale_sum_init(&pl->ssum);
	rc = begin(pl, m, cols);
	if (rc < 0) {
		rl_pipeline_free(pl);
		return rc;
	}
	*out = pl;
	return 0;
}

/* ERR, whose message has no location yet, located at OP: "INPUT:LINE: ", or
 * "INPUT: NAME: " for an op that is not a line of a file (a trace's). */
static int locate(const rl_pipeline *pl, const struct rl_op *op, struct rl_err *err,
                  const char *prefix)
{
	char msg[sizeof(err->msg)];

	snprintf(msg, sizeof(msg), "%s", err->msg);
	if (op->line == 0) /* not from a file's line: a trace's op, by its name */
		return rl_err_set(err, err->code, "%s: %s: %s%s", pl->input, op->name, prefix, msg);
	return rl_err_set(err, err->code, "%s:%zu: %s%s", pl->input, op->line, prefix, msg);
}

/* scale: the op at the scaled size, into the second stream. */
static int scaled_op(rl_pipeline *pl, const struct rl_op *op, struct rl_err *err)
{
	char prefix[300];
	struct rl_op op2;
	struct rl_pred p2;
	int rc;

	rc = rl_symbols_apply(pl->sinks.scale, op, &op2, NULL, err);
	if (rc == 0)
		rc = rl_predict(&op2, &pl->ctx, &p2, err);
	if (rc == 0)
		rc = rl_fuse_stream_op(&pl->fs2, &op2, &p2, err);
	if (rc < 0 && err->code < 0) {
		snprintf(prefix, sizeof(prefix), "at %s: ", pl->sinks.scale_label);
		return locate(pl, op, err, prefix);
	}
	return rc;
}

/* One op into the model, the memory fit and the fusion stream, with the
 * formulas' record W of it (NULL: derived here, once for all three). */
static int feed_work(rl_pipeline *pl, const struct rl_op *op, const struct rl_work *w,
                     struct rl_err *err)
{
	struct rl_work own;
	struct rl_pred p;
	int rc = 0;

	rl_err_clear(err);
	pl->err = err;
	pl->located = 0;
	if (w == NULL) {
		rc = rl_op_derive(op, &own, err);
		w = &own;
	}
	if (rc == 0)
		rc = rl_predict_work(op, w, &pl->ctx, &p, err);
	if (rc == 0)
		rc = rl_memfit_add_work(&pl->mem, op, w, err);
	if (rc == 0)
		rc = rl_fuse_stream_op(&pl->fs, op, &p, err);
	pl->err = &pl->no_err;
	if (rc < 0 && err->code < 0 && !pl->located)
		return locate(pl, op, err, "");
	if (rc == 0 && pl->sinks.scale != NULL)
		rc = scaled_op(pl, op, err);
	return rc;
}

static int feed(rl_pipeline *pl, const struct rl_op *op, struct rl_err *err)
{
	return feed_work(pl, op, NULL, err);
}

/* An op of the expansion, named. */
static int feed_train(rl_pipeline *pl, struct rl_train_op *t, struct rl_err *err)
{
	t->op.name = t->name;
	return feed(pl, &t->op, err);
}

static int grow(void **a, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 64;
	void *g;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	g = realloc(*a, c * size);
	if (g == NULL)
		return RL_ERR_NOMEM;
	*a = g;
	*cap = c;
	return 0;
}

/* A collective over the data-parallel group: COUNT of KIND on ELEMENTS
 * (each rank's input, op list v1) of DTYPE, in PHASE, beside the compute
 * (OVERLAP) or not. */
static int dp_collective(rl_pipeline *pl, const char *name, enum rl_kind kind,
                         enum rl_dtype dtype, uint64_t count, double elements, int overlap,
                         enum rl_phase phase, struct rl_err *err)
{
	struct rl_train_op t;

	if (count == 0 || !(elements >= 1))
		return 0;
	memset(&t, 0, sizeof(t));
	rl_op_init(&t.op);
	snprintf(t.name, sizeof(t.name), "%s", name);
	t.op.kind = kind;
	t.op.dtype = dtype;
	t.op.has = RL_HAS_SHAPE | RL_HAS_RANKS | RL_HAS_NODES;
	t.op.ndims = 1;
	t.op.dims[0] = (uint64_t)elements;
	t.op.ranks = pl->par->dp.ranks;
	t.op.nodes = pl->par->dp.nodes;
	t.op.overlap = overlap;
	t.op.count = count;
	t.op.phase = phase;
	return feed_train(pl, &t, err);
}

/* Data parallel: COUNT buckets of BYTES of gradients all-reduced over the
 * data-parallel group on the communication stream (parallel.h); under
 * ZeRO, reduce-scattered instead: each rank keeps the reduced shard of the
 * state it holds (Rajbhandari et al. 2020, section 7.2). */
static int grad_allreduce(rl_pipeline *pl, uint64_t count, double bytes, struct rl_err *err)
{
	double es = rl_dtype_bytes(pl->gdtype);

	if (!(bytes >= es))
		return 0;
	if (pl->topts.zero > 0)
		return dp_collective(pl, "grad_reducescatter", RL_KIND_REDUCESCATTER, pl->gdtype, count,
		                     bytes / es, 1, RL_PHASE_BACKWARD, err);
	return dp_collective(pl, "grad_allreduce", RL_KIND_ALLREDUCE, pl->gdtype, count, bytes / es,
	                     1, RL_PHASE_BACKWARD, err);
}

/* ZeRO-3: each rank's shard of ELEMENTS weights of DTYPE gathered before
 * the COUNT occurrences that use them in PHASE, beside the compute (the
 * prefetch of the next layer's while this one runs). */
static int param_allgather(rl_pipeline *pl, uint64_t count, double elements, enum rl_dtype dtype,
                           enum rl_phase phase, struct rl_err *err)
{
	double shard = ceil(elements / (double)pl->topts.shards);

	return dp_collective(pl, "param_allgather", RL_KIND_ALLGATHER, dtype, count, shard, 1, phase,
	                     err);
}

/* The dtype OP's weights are held in: fp32 under autocast, else its
 * weight dtype or its dtype. */
static enum rl_dtype weight_dtype(const struct rl_train_opts *o, const struct rl_op *op)
{
	return o->autocast ? RL_FP32 : (op->has & RL_HAS_WEIGHT_DTYPE) ? op->weight_dtype : op->dtype;
}

/* A training step's forward op: its casts, itself (count x grad_accum),
 * and its backward ops kept for the end. */
static int train_op(rl_pipeline *pl, const struct rl_op *op, struct rl_err *err)
{
	struct rl_train_op pre, bwd[RL_TRAIN_MAX_BWD];
	struct rl_op fwd = *op;
	struct rl_work w;
	double pparams = pl->params.params;
	int n, i, rc;

	if (op->phase != RL_PHASE_FORWARD) {
		rl_err_set(err, RL_ERR_PARSE,
		           "column 'phase': %s: --train expands a forward op list, and this row "
		           "is already part of a training step",
		           rl_phase_name(op->phase));
		return locate(pl, op, err, "");
	}
	rl_train_autocast(&pl->topts, &fwd);
	/* the formulas' record of the forward op, read by its backward rules,
	 * its saved activations, its casts and its own prediction (its count
	 * changes below, the record is per occurrence) */
	n = rl_op_derive(&fwd, &w, err);
	if (n >= 0)
		n = rl_train_backward_work(&pl->topts, &fwd, &w, !pl->seen_op, bwd, err);
	if (n >= 0)
		n = rl_train_params_add(&pl->params, &fwd, err) < 0 ? RL_ERR_PARSE : n;
	if (n >= 0)
		rl_train_mem_add_work(&pl->tmem, &pl->topts, &fwd, &w);
	if (n < 0)
		return locate(pl, op, err, "");
	pl->seen_op = 1;
	if (rl_train_forward_work(&pl->topts, &fwd, &w, &pre) == 1 &&
	    (rc = feed_train(pl, &pre, err)) < 0)
		return rc;
	if ((double)op->count * (double)pl->topts.grad_accum > 9007199254740992.0) {
		rl_err_set(err, RL_ERR_RANGE, "count %llu x --grad-accum %llu is above 2^53",
		           (unsigned long long)op->count, (unsigned long long)pl->topts.grad_accum);
		return locate(pl, op, err, "");
	}
	fwd.count = op->count * pl->topts.grad_accum;
	if (pl->par != NULL && pl->topts.zero >= 3 && pl->params.params > pparams &&
	    (rc = param_allgather(pl, fwd.count, (pl->params.params - pparams) / (double)op->count,
	                          weight_dtype(&pl->topts, op), RL_PHASE_FORWARD, err)) < 0)
		return rc;
	if ((rc = feed_work(pl, &fwd, &w, err)) < 0)
		return rc;
	if (grow((void **)&pl->bwd, &pl->capbwd, pl->nbwd + (size_t)n, sizeof(*pl->bwd)) < 0 ||
	    grow((void **)&pl->group, &pl->capgroup, pl->ngroup + 1, sizeof(*pl->group)) < 0 ||
	    (pl->par != NULL &&
	     (grow((void **)&pl->gbytes, &pl->capgbytes, pl->ngroup + 1, sizeof(*pl->gbytes)) < 0 ||
	      grow((void **)&pl->gparams, &pl->capgparams, pl->ngroup + 1, sizeof(*pl->gparams)) < 0 ||
	      grow((void **)&pl->gcount, &pl->capgcount, pl->ngroup + 1, sizeof(*pl->gcount)) < 0 ||
	      grow((void **)&pl->gwdtype, &pl->capgwdtype, pl->ngroup + 1, sizeof(*pl->gwdtype)) <
	          0))) {
		rl_err_clear(err);
		return RL_ERR_NOMEM;
	}
	if (pl->par != NULL) {
		/* its gradients: one per trainable weight, in the weights' dtype
		 * (fp32 under autocast: the weights are) */
		double g = pl->params.params - pparams;

		if (g > 0)
			pl->gdtype = weight_dtype(&pl->topts, op);
		pl->gbytes[pl->ngroup] = g * rl_dtype_bytes(pl->gdtype);
		pl->gparams[pl->ngroup] = g;
		pl->gcount[pl->ngroup] = fwd.count;
		pl->gwdtype[pl->ngroup] = weight_dtype(&pl->topts, op);
	}
	pl->group[pl->ngroup++] = pl->nbwd;
	for (i = 0; i < n; i++)
		pl->bwd[pl->nbwd++] = bwd[i];
	return 0;
}

/* The end of a training step's forward pass: the backward ops, the last
 * forward op's first (with data parallelism, each full bucket of
 * gradients all-reduced after the ops that filled it, the last bucket
 * after the last), then the optimizer's. */
static int train_end(rl_pipeline *pl, struct rl_err *err)
{
	struct rl_train_op opt[RL_TRAIN_MAX_OPT];
	size_t g, i, end = pl->nbwd;
	int n, k, rc;

	for (g = pl->ngroup; g-- > 0;) {
		if (pl->par != NULL && pl->topts.zero >= 3 && pl->gparams[g] > 0 &&
		    (rc = param_allgather(pl, pl->gcount[g], pl->gparams[g] * (double)pl->topts.grad_accum /
		                                                 (double)pl->gcount[g],
		                          pl->gwdtype[g], RL_PHASE_BACKWARD, err)) < 0)
			return rc;
		for (i = pl->group[g]; i < end; i++)
			if ((rc = feed_train(pl, &pl->bwd[i], err)) < 0)
				return rc;
		end = pl->group[g];
		if (pl->par != NULL &&
		    (rc = grad_allreduce(pl, rl_parallel_ddp_add(&pl->ddp, pl->gbytes[g]),
		                         pl->ddp.bucket_bytes, err)) < 0)
			return rc;
	}
	if (pl->par != NULL &&
	    (rc = grad_allreduce(pl, 1, rl_parallel_ddp_flush(&pl->ddp), err)) < 0)
		return rc;
	/* ZeRO: each rank steps its shard of the state (section 5.1); stages
	 * 1 and 2 then all-gather the updated weights, stage 3 gathers them
	 * where they are used */
	{
		struct rl_train_params shard = pl->params;

		if (pl->topts.zero > 0) {
			double ranks = (double)pl->topts.shards;

			shard.params /= ranks;
			shard.param_bytes /= ranks;
			shard.chunks = ceil(shard.chunks / ranks);
		}
		n = rl_train_optimizer(&pl->topts, &shard, opt);
	}
	for (k = 0; k < n; k++)
		if ((rc = feed_train(pl, &opt[k], err)) < 0)
			return rc;
	if (pl->par != NULL && pl->topts.zero > 0 && pl->topts.zero < 3 && pl->params.params > 0 &&
	    (rc = dp_collective(pl, "param_allgather", RL_KIND_ALLGATHER, pl->gdtype, 1,
	                        ceil(pl->params.params / (double)pl->topts.shards), 0,
	                        RL_PHASE_OPTIMIZER, err)) < 0)
		return rc;
	rl_train_mem_end(&pl->tmem, &pl->topts, &pl->params);
	rl_memfit_train(&pl->mem, &pl->tmem);
	return 0;
}

int rl_pipeline_op(rl_pipeline *pl, const struct rl_op *op, struct rl_err *err)
{
	struct rl_err local;

	if (err == NULL)
		err = &local;
	rl_err_clear(err);
	if (pl->train)
		return train_op(pl, op, err);
	return feed(pl, op, err);
}

int rl_pipeline_end(rl_pipeline *pl, struct rl_err *err)
{
	const struct rl_pipeline_sinks *s = &pl->sinks;
	int md = s->fmt == RL_FMT_MD;
	int rc;

	/* err may be NULL: fusion's end fills nothing today; the last group's
	 * kernel reports through pl->err, located */
	if (pl->train) {
		struct rl_err local;

		rc = train_end(pl, err != NULL ? err : &local);
		if (rc < 0)
			return rc;
	}
	pl->err = err != NULL ? err : &pl->no_err;
	rl_err_clear(pl->err);
	rc = rl_fuse_stream_end(&pl->fs, err);
	if (rc == 0 && s->scale != NULL)
		rc = rl_fuse_stream_end(&pl->fs2, err);
	pl->err = &pl->no_err;
	/* after the last group: it is a kernel of the step too */
	rl_timeline_finish(&pl->tl);
	if (rc == 0 && s->timeline && s->step != NULL)
		rc = rl_timeline_set_measured(&pl->tl, s->step->span_us, s->step->busy_us);
	if (rc < 0 || s->out == NULL)
		return rc;
	if (s->scale != NULL)
		return rl_scale_report_end(s->out, s->fmt == RL_FMT_CSV, &pl->ssum, s->scale_label);
	rc = rl_report_end(pl->rep, &pl->sum);
	if (rc == 0 && s->whatif && (s->fmt == RL_FMT_TABLE || md))
		rc = rl_whatif_fusion(s->out, &pl->fs, pl->sum.total_us, md);
	return rc;
}

const struct rl_summary *rl_pipeline_summary(const rl_pipeline *pl)
{
	return &pl->sum;
}

const struct rl_memfit *rl_pipeline_memfit(const rl_pipeline *pl)
{
	return &pl->mem;
}

const struct rl_timeline *rl_pipeline_timeline(const rl_pipeline *pl)
{
	return &pl->tl;
}

const struct rl_fuse_stream *rl_pipeline_fusion(const rl_pipeline *pl)
{
	return &pl->fs;
}

const struct rl_scale_sum *rl_pipeline_scale_sum(const rl_pipeline *pl)
{
	return &pl->ssum;
}

void rl_pipeline_free(rl_pipeline *pl)
{
	size_t i;

	if (pl == NULL)
		return;
	free(pl->bwd);
	free(pl->group);
	free(pl->gbytes);
	free(pl->gparams);
	free(pl->gcount);
	free(pl->gwdtype);
	rl_report_free(pl->rep);
	rl_fuse_stream_release(&pl->fs);
	rl_fuse_stream_release(&pl->fs2);
	for (i = 0; i < pl->nwait; i++)
		free(pl->wait[i].name);
	for (i = 0; i < pl->nextra; i++)
		free(pl->extra_names[i]);
	free(pl->extra_names);
	free(pl->blank_extra);
	free(pl->input);
	rl_summary_release(&pl->sum);
	rl_timeline_release(&pl->tl);
	free(pl);
}
