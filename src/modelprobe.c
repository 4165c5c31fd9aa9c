/* modelprobe.c - a model step run at other sizes through a pipeline without
 * output: --max-batch's search, --generate's steps and --sweep's rows. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "memfit.h"
#include "modelprobe.h"
#include "sweep_report.h"

/* One step at MO of S, without output: *PL (the previous one freed) holds
 * its summary and memory after. */
static int probe(const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                 rl_pipeline **pl, struct rl_errlist *errs)
{
	struct rl_modelstep st = *s;

	st.sinks = NULL;
	rl_pipeline_free(*pl);
	*pl = NULL;
	return rl_modelstep_run(&st, mo, pl, errs);
}

/* ---- --max-batch ---- */

struct fit {
	const struct rl_modelstep *s;
	struct rl_modelops_opts mo;
	rl_pipeline *pl;
	struct rl_errlist *errs;
};

static int fit_step(void *user, uint64_t batch, int *fits)
{
	struct fit *w = user;
	int rc;

	w->mo.batch = batch;
	rc = probe(w->s, &w->mo, &w->pl, w->errs);
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
	struct fit w = {s, *mo, NULL, errs};
	const struct rl_summary *sum;
	uint64_t b;
	int rc;

	memset(r, 0, sizeof(*r));
	r->device_bytes = rl_memfit_device_bytes(dev);
	if (r->device_bytes <= 0)
		return rl_err_set(err, RL_ERR_ARG, "--max-batch: %s gives no memory_gib", dev->id);
	rc = rl_memfit_max_batch(fit_step, &w, RL_MODELOPS_MAX_SIZE, &b);
	if (rc < 0)
		goto out;
	/* the step of the answer (batch 1 when none fits) */
	w.mo.batch = b > 0 ? b : 1;
	rc = probe(s, &w.mo, &w.pl, errs);
	if (rc < 0)
		goto out;
	sum = rl_pipeline_summary(w.pl);
	r->batch = b;
	r->step_us = sum->total_us;
	r->roofline_us = sum->roofline_us;
	r->memory_bytes = rl_memfit_total_bytes(rl_pipeline_memfit(w.pl));
	r->capped = b == RL_MODELOPS_MAX_SIZE;
	r->more = r->capped && r->memory_bytes * ((double)b + 1) / (double)b <= r->device_bytes;
	if (b == 0)
		rc = rl_err_set(err, RL_ERR_RANGE,
		                "--max-batch: batch 1 needs %.2f GiB, over the device's %g GiB",
		                r->memory_bytes / RL_MEMFIT_GIB, r->device_bytes / RL_MEMFIT_GIB);
out:
	rl_pipeline_free(w.pl);
	return rc;
}

void rl_modelprobe_max_batch_write(FILE *out, const struct rl_modelprobe_max_batch *r)
{
	fprintf(out, "max batch %llu%s%s%s: step %.2f us expected, %.2f us roofline; memory %.2f "
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

			snprintf(msg, sizeof(msg),
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
};

static int sweep_step(void *user, uint64_t v, const struct rl_summary **sum,
                      const struct rl_memfit **m, double *items)
{
	struct sweep *w = user;
	int rc;

	*w->field = v;
	if (w->ctx_follows)
		w->mo.context = w->mo.seq;
	rc = probe(w->s, &w->mo, &w->pl, w->errs);
	if (rc < 0)
		return rc;
	*sum = rl_pipeline_summary(w->pl);
	*m = rl_pipeline_memfit(w->pl);
	*items = (double)w->mo.batch * (w->mo.phase == RL_PHASE_PREFILL ? (double)w->mo.seq : 1.0);
	return 0;
}

int rl_modelprobe_sweep(const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                        const struct rl_sweep_spec *sw, enum rl_modelprobe_size which,
                        enum rl_format fmt, FILE *out, struct rl_errlist *errs)
{
	const char *phase = mo->phase == RL_PHASE_PREFILL ? "prefill" : "decode";
	const struct rl_device *dev = s->model->dev;
	struct rl_sweep_table *t = malloc(sizeof(*t));
	struct sweep w = {s, *mo, NULL, 0, NULL, errs};
	char title[512];
	int rc, n;

	if (t == NULL)
		return RL_ERR_NOMEM;
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
