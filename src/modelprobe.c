/* modelprobe.c - a model step run at other sizes through a pipeline without
 * output: --max-batch's search, --generate's steps and --sweep's rows. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "memfit.h"
#include "modelprobe.h"
#include "sweep_report.h"

/* One step at MO of S, without output: *PL (the previous one freed) holds
 * its summary and memory after. */
static int probe(const struct rl_modelstep *s, const struct rl_modelops_opts *mo, rl_pipeline **pl,
                 struct rl_errlist *errs)
{
	struct rl_modelstep st = *s;

	st.sinks = NULL;
	rl_pipeline_free(*pl);
	*pl = NULL;
	return rl_modelstep_run(&st, mo, pl, errs);
}

int rl_modelprobe_modes_check(const struct rl_modelprobe_modes *m,
                              const struct rl_modelops_opts *mo, struct rl_err *err)
{
	const char *w = rl_dtype_name(mo->weight_dtype);

	if (m->max_batch && m->oplist)
		return rl_err_set(err, RL_ERR_ARG, "--max-batch writes one line, not an op list");
	if (m->pipeline && (m->max_batch || m->generate))
		return rl_err_set(err, RL_ERR_ARG,
		                  "%s takes each GPU's whole step: not with --pp, "
		                  "--microbatches or --virtual-stages (tp, dp and ep are fine)",
		                  m->max_batch ? "--max-batch" : "--generate");
	if (m->timeline && (m->oplist || m->max_batch || m->generate || m->csv))
		return rl_err_set(err, RL_ERR_ARG, "--timeline needs --format table, json or md");
	if (m->train && (m->generate || m->context || (m->phase && mo->phase != RL_PHASE_PREFILL)))
		return rl_err_set(err, RL_ERR_ARG,
		                  "--train: a training step runs over --batch x "
		                  "--seq tokens: not with %s",
		                  m->generate  ? "--generate"
		                  : m->context ? "--context"
		                               : "--phase decode");
	if (m->train && rl_dtype_storage_only(mo->weight_dtype))
		return rl_err_set(err, RL_ERR_ARG,
		                  "--train: %s weights train frozen only: a gradient "
		                  "step needs weights it can update (not "
		                  "--weight-dtype %s)",
		                  w, w);
	if (m->generate && (m->oplist || m->max_batch || m->csv))
		return rl_err_set(err, RL_ERR_ARG,
		                  "--generate writes a block (table, md) or an "
		                  "object (json): not with %s",
		                  m->oplist      ? "-f oplist"
		                  : m->max_batch ? "--max-batch"
		                                 : "-f csv");
	if (m->html && (m->max_batch || m->generate))
		return rl_err_set(err, RL_ERR_ARG,
		                  "%s writes no html page (-f table, md or json)",
		                  m->max_batch ? "--max-batch" : "--generate");
	if (m->sweep && (m->oplist || m->max_batch || m->generate))
		return rl_err_set(err, RL_ERR_ARG, "--sweep writes one row per value: not with %s",
		                  m->oplist      ? "-f oplist"
		                  : m->max_batch ? "--max-batch"
		                                 : "--generate");
	if (m->generate && (m->context || mo->phase != RL_PHASE_DECODE))
		return rl_err_set(err, RL_ERR_ARG,
		                  "--generate runs prefill then decode from --seq: "
		                  "not with --phase prefill or --context");
	if (m->generate) {
		struct rl_generate_spec spec = {mo->batch, mo->seq, m->generate,
		                                RL_MODELOPS_MAX_SIZE};

		if (rl_generate_check(&spec, err) < 0)
			return RL_ERR_ARG;
	}
	return 0;
}

/* ---- --max-batch ---- */

struct fit {
	const struct rl_modelstep *s;
	struct rl_modelops_opts mo;
	rl_pipeline *pl;
	struct rl_errlist *errs;
	/* a layout: placed again for each batch, the step's model beside it */
	struct rl_parallel lay;
	int has_lay;
	uint64_t dp;
	struct rl_parallel_place place;
	struct rl_pipeline_model pm;
	struct rl_modelstep st;
	struct rl_err *err;
};

/* Sets W's step to BATCH sequences a replica (the whole step's batch: dp
 * of them); 0 or the placement's status (ERR). */
static int fit_batch(struct fit *w, uint64_t batch)
{
	w->mo.batch = batch * w->dp;
	if (!w->has_lay)
		return 0;
	if (rl_parallel_place(&w->lay, w->mo.batch, w->s->cfg->layers, w->mo.train, w->pm.net,
	                      &w->place, w->err) < 0)
		return RL_ERR_ARG;
	w->mo.par = &w->place;
	return 0;
}

static int fit_step(void *user, uint64_t batch, int *fits)
{
	struct fit *w = user;
	int rc;

	if ((rc = fit_batch(w, batch)) < 0)
		return rc;
	rc = probe(&w->st, &w->mo, &w->pl, w->errs);
	if (rc < 0)
		return rc;
	*fits = rl_memfit_fits(rl_pipeline_memfit(w->pl), w->s->model->dev);
	return 0;
}

int rl_modelprobe_max_batch(const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                            struct rl_modelprobe_max_batch *r, struct rl_errlist *errs,
                            struct rl_err *err)
{
	const struct rl_device *dev = s->model->dev;
	struct fit w;
	const struct rl_summary *sum;
	uint64_t b;
	int rc;

	memset(r, 0, sizeof(*r));
	memset(&w, 0, sizeof(w));
	w.s = s;
	w.mo = *mo;
	w.errs = errs;
	w.err = err;
	w.dp = 1;
	w.pm = *s->model;
	w.st = *s;
	w.st.model = &w.pm;
	if (mo->par != NULL) {
		w.has_lay = 1;
		w.lay = mo->par->lay;
		w.lay.microbatches = 0; /* the default, for each batch */
		w.dp = mo->par->lay.dp > 0 ? mo->par->lay.dp : 1;
		w.pm.parallel = &w.place;
	}
	r->device_bytes = rl_memfit_device_bytes(dev);
	if (r->device_bytes <= 0)
		return rl_err_set(err, RL_ERR_ARG, "--max-batch: %s gives no memory_gib", dev->id);
	rc = rl_memfit_max_batch(fit_step, &w, RL_MODELOPS_MAX_SIZE / w.dp, &b);
	if (rc < 0)
		goto out;
	/* the step of the answer (one sequence a replica when none fits) */
	if ((rc = fit_batch(&w, b > 0 ? b : 1)) < 0)
		goto out;
	rc = probe(&w.st, &w.mo, &w.pl, errs);
	if (rc < 0)
		goto out;
	sum = rl_pipeline_summary(w.pl);
	r->batch = b * w.dp;
	r->step_us = sum->total_us;
	r->roofline_us = sum->roofline_us;
	r->memory_bytes = rl_memfit_total_bytes(rl_pipeline_memfit(w.pl));
	r->capped = b == RL_MODELOPS_MAX_SIZE / w.dp;
	r->more = r->capped && r->memory_bytes * ((double)b + 1) / (double)b <= r->device_bytes;
	if (b == 0)
		rc = rl_err_set(err, RL_ERR_RANGE,
		                "--max-batch: batch %llu needs %.2f GiB, over the device's %g GiB",
		                (unsigned long long)w.dp, r->memory_bytes / RL_MEMFIT_GIB,
		                r->device_bytes / RL_MEMFIT_GIB);
out:
	rl_pipeline_free(w.pl);
	return rc;
}

void rl_modelprobe_max_batch_write(FILE *out, const struct rl_modelprobe_max_batch *r)
{
	fprintf(out,
	        "max batch %llu%s%s%s: step %.2f us expected, %.2f us roofline; memory %.2f "
	        "of %g GiB\n",
	        (unsigned long long)r->batch, r->capped ? " (the largest batch searched" : "",
	        r->more ? "; memory would allow more" : "", r->capped ? ")" : "", r->step_us,
	        r->roofline_us, r->memory_bytes / RL_MEMFIT_GIB, r->device_bytes / RL_MEMFIT_GIB);
}

/* ---- --generate ---- */

struct gen {
	const struct rl_modelstep *s;
	struct rl_modelops_opts mo;
	rl_pipeline *pl;
	struct rl_errlist *errs;
};

static int gen_step(void *user, int prefill, uint64_t context, struct rl_generate_times *t)
{
	struct gen *w = user;
	const struct rl_summary *sum;
	int rc;

	w->mo.phase = prefill ? RL_PHASE_PREFILL : RL_PHASE_DECODE;
	w->mo.context = prefill ? w->mo.seq : context;
	rc = probe(w->s, &w->mo, &w->pl, w->errs);
	if (rc < 0)
		return rc;
	sum = rl_pipeline_summary(w->pl);
	t->expected_us = sum->total_us;
	t->roofline_us = sum->roofline_us;
	return 0;
}

int rl_modelprobe_generate(const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                           uint64_t tokens, rl_modelprobe_warn_fn warn, void *user,
                           struct rl_generate *g, struct rl_errlist *errs, struct rl_err *err)
{
	struct rl_generate_spec spec = {mo->batch, mo->seq, tokens, RL_MODELOPS_MAX_SIZE};
	struct gen w = {s, *mo, NULL, errs};
	int i, rc;

	rc = rl_generate_check(&spec, err);
	if (rc < 0)
		return rc;
	/* the memory: the prefill's (its activations) and the last decode
	 * step's (the largest KV cache) bound every step's; checked first, so
	 * that a step too large also fails before the others */
	for (i = 0; i < (tokens > 1 ? 2 : 1); i++) {
		const struct rl_memfit *m;

		w.mo.phase = i == 0 ? RL_PHASE_PREFILL : RL_PHASE_DECODE;
		w.mo.context = i == 0 ? mo->seq : mo->seq + tokens - 2;
		rc = probe(s, &w.mo, &w.pl, errs);
		if (rc < 0)
			goto out;
		m = rl_pipeline_memfit(w.pl);
		if (!rl_memfit_fits(m, s->model->dev) && warn != NULL) {
			char msg[256];

			snprintf(
			    msg, sizeof(msg),
			    "warning: --generate: the %s needs %.2f GiB, over the device's %g GiB",
			    i == 0 ? "prefill" : "last decode step",
			    rl_memfit_total_bytes(m) / RL_MEMFIT_GIB,
			    rl_memfit_device_bytes(s->model->dev) / RL_MEMFIT_GIB);
			warn(msg, user);
		}
	}
	w.mo = *mo;
	rc = rl_generate_run(&spec, gen_step, &w, g, err);
out:
	rl_pipeline_free(w.pl);
	return rc;
}

/* ---- --sweep ---- */

struct sweep {
	const struct rl_modelstep *s;
	struct rl_modelops_opts mo;
	uint64_t *field;
	int ctx_follows;
	rl_pipeline *pl;
	struct rl_errlist *errs;
	/* a layout: each step one GPU's share, placed again for each batch
	 * when the batch is swept (its micro-batches the default) */
	struct rl_parallel lay;
	int has_lay;
	struct rl_parallel_place place;
	struct rl_pipeline_model pm;
	struct rl_modelstep st;
};

static int sweep_step(void *user, uint64_t v, const struct rl_summary **sum,
                      const struct rl_memfit **m, double *items)
{
	struct sweep *w = user;
	int rc;

	*w->field = v;
	if (w->ctx_follows)
		w->mo.context = w->mo.seq;
	if (w->has_lay && w->field == &w->mo.batch) {
		struct rl_err e;

		if (rl_parallel_place(&w->lay, v, w->s->cfg->layers, w->mo.train, w->pm.net, &w->place,
		                      &e) < 0) {
			struct rl_err located;

			rl_err_set(&located, e.code, "--sweep batch=%llu: %s", (unsigned long long)v,
			           e.msg);
			rl_errlist_add(w->errs, &located);
			return e.code;
		}
		w->mo.par = &w->place;
	}
	rc = probe(&w->st, &w->mo, &w->pl, w->errs);
	if (rc < 0)
		return rc;
	*sum = rl_pipeline_summary(w->pl);
	*m = rl_pipeline_memfit(w->pl);
	*items = (double)w->mo.batch * (w->mo.phase == RL_PHASE_PREFILL ? (double)w->mo.seq : 1.0);
	return 0;
}

int rl_modelprobe_sweep_parse(const char *arg, struct rl_sweep_spec *sw, struct rl_err *err)
{
	size_t i;
	int rc = rl_sweep_parse(arg, sw, err);

	if (rc < 0)
		return rc;
	if (strcmp(sw->name, "batch") != 0 && strcmp(sw->name, "seq") != 0 &&
	    strcmp(sw->name, "context") != 0)
		return rl_err_set(err, RL_ERR_PARSE,
		                  "--sweep: unknown name '%s' (expected batch, seq or context)",
		                  sw->name);
	for (i = 0; i < sw->n; i++)
		if (sw->value[i] > RL_MODELOPS_MAX_SIZE)
			return rl_err_set(err, RL_ERR_RANGE,
			                  "--sweep %s: %llu is past the largest size %u", sw->name,
			                  (unsigned long long)sw->value[i], RL_MODELOPS_MAX_SIZE);
	return 0;
}

/* a family that fixes the tokens per sequence (vit's patches: cfg->tokens)
 * has no seq to sweep */
int rl_modelprobe_sweep_size(const char *name, const struct rl_hfconfig *cfg,
                             const struct rl_modelops_opts *mo, int ctx_given,
                             enum rl_modelprobe_size *which, struct rl_err *err)
{
	if (strcmp(name, "batch") == 0) {
		*which = RL_MODELPROBE_BATCH;
		return 0;
	}
	if (strcmp(name, "seq") == 0 && cfg->tokens == 0 &&
	    (mo->phase == RL_PHASE_PREFILL || !ctx_given)) {
		*which = RL_MODELPROBE_SEQ;
		return 0;
	}
	if (strcmp(name, "context") == 0 && mo->phase == RL_PHASE_DECODE) {
		*which = RL_MODELPROBE_CONTEXT;
		return 0;
	}
	if (strcmp(name, "seq") == 0 && cfg->tokens > 0)
		return rl_err_set(err, RL_ERR_ARG,
		                  "--sweep seq: model_type %s takes its tokens from the image",
		                  cfg->model_type);
	return rl_err_set(err, RL_ERR_ARG, "--sweep %s: %s", name,
	                  strcmp(name, "seq") == 0
	                      ? "the decode step's context is --context: sweep context"
	                  : strcmp(name, "context") == 0
	                      ? "the prefill step has no context: sweep seq"
	                      : "not a size of the step (expected batch, seq or context)");
}

int rl_modelprobe_sweep(const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                        const struct rl_sweep_spec *sw, enum rl_modelprobe_size which,
                        enum rl_format fmt, FILE *out, struct rl_errlist *errs)
{
	const char *phase = mo->phase == RL_PHASE_PREFILL ? "prefill" : "decode";
	const struct rl_device *dev = s->model->dev;
	struct rl_sweep_table *t = malloc(sizeof(*t));
	struct sweep w;
	char title[512];
	int rc, n;

	if (t == NULL)
		return RL_ERR_NOMEM;
	memset(&w, 0, sizeof(w));
	w.s = s;
	w.mo = *mo;
	w.errs = errs;
	w.pm = *s->model;
	w.st = *s;
	w.st.model = &w.pm;
	if (mo->par != NULL) {
		w.has_lay = 1;
		w.place = *mo->par;
		w.lay = mo->par->lay;
		w.lay.microbatches = 0;
		w.mo.par = &w.place;
		w.pm.parallel = &w.place;
	}
	w.field = which == RL_MODELPROBE_BATCH ? &w.mo.batch
	          : which == RL_MODELPROBE_SEQ ? &w.mo.seq
	                                       : &w.mo.context;
	w.ctx_follows = which == RL_MODELPROBE_SEQ && mo->phase == RL_PHASE_DECODE;
	/* what the step is, but for the swept size */
	n = snprintf(title, sizeof(title), "%s, %s", s->config, phase);
	if (w.field != &w.mo.batch)
		n += snprintf(title + n, sizeof(title) - (size_t)n, ", batch %llu",
		              (unsigned long long)mo->batch);
	if (w.field != &w.mo.seq && mo->phase == RL_PHASE_PREFILL)
		n += snprintf(title + n, sizeof(title) - (size_t)n, ", seq %llu",
		              (unsigned long long)mo->seq);
	if (w.ctx_follows)
		n += snprintf(title + n, sizeof(title) - (size_t)n, ", context = seq");
	if (w.field != &w.mo.context && !w.ctx_follows && mo->phase == RL_PHASE_DECODE)
		n += snprintf(title + n, sizeof(title) - (size_t)n, ", context %llu",
		              (unsigned long long)mo->context);
	snprintf(title + n, sizeof(title) - (size_t)n, "; %s, %s runtime", dev->id,
	         s->model->rt->id);
	rl_sweep_table_init(t, sw->name, "tokens", dev);
	t->title = title;
	rc = rl_sweep_run(sw, sweep_step, &w, dev, t);
	if (rc == 0)
		rc = rl_sweep_report_write(out, fmt, t);
	rl_pipeline_free(w.pl);
	free(t);
	return rc;
}
