/* sweep_oplist.c - an op list swept over one of its names (see
 * sweep_oplist.h). */
#include "config.h"

#include "sweep_oplist.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oplist.h"
#include "pipeline.h"
#include "symbols.h"

/* ---- an op list swept over one of its names ------------------------------ */

#define MAX_WARNINGS 8

struct oplist_run {
	const struct rl_sweep_oplist *l;
	const struct rl_pipeline_model *m;
	struct rl_pipeline_sinks sinks;
	struct rl_symbols names; /* L's names and the swept one, last */
	size_t sym;              /* the swept name's index */
	rl_pipeline *pl;
	struct rl_errlist *errs;
	int first;
	/* the first value's warnings, held until the swept name is known used */
	size_t nwarn;
	char warn[MAX_WARNINGS][RL_ERR_MSG_MAX];
};

static int on_header(const struct rl_ops_header *h, void *user)
{
	struct oplist_run *r = user;
	struct rl_pipeline_columns cols;

	memset(&cols, 0, sizeof(cols));
	cols.input = r->l->name;
	cols.nextra = h->nextra;
	cols.extra_names = h->extra_names;
	cols.has_measured = h->has_measured;
	cols.has_host = h->has_host;
	return rl_pipeline_begin(r->m, &r->sinks, &cols, &r->pl);
}

static int on_op(const struct rl_op *op, void *user)
{
	struct oplist_run *r = user;
	struct rl_err e;
	int rc = rl_pipeline_op(r->pl, op, &e);

	if (rc < 0 && e.code < 0)
		rl_errlist_add(r->errs, &e);
	return rc;
}

static void hold_warning(const char *msg, void *user)
{
	struct oplist_run *r = user;

	if (r->nwarn < MAX_WARNINGS)
		snprintf(r->warn[r->nwarn++], RL_ERR_MSG_MAX, "%s", msg);
}

static int oplist_step(void *user, uint64_t value, const struct rl_summary **s,
                       const struct rl_memfit **m, double *items)
{
	struct oplist_run *r = user;
	struct rl_ops_sink sink;
	struct rl_err e;
	uint32_t used = 0;
	uint64_t n;
	FILE *f;
	int rc;
	size_t i;

	rl_pipeline_free(r->pl);
	r->pl = NULL;
	r->names.value[r->sym] = value;
	memset(&sink, 0, sizeof(sink));
	sink.header = on_header;
	sink.op = on_op;
	sink.user = r;
	sink.names = &r->names;
	sink.warn = r->first ? hold_warning : NULL;
	f = fmemopen((void *)r->l->text, r->l->len, "r");
	if (f == NULL)
		return rl_errlist_addf(r->errs, RL_ERR_NOMEM, "%s: out of memory", r->l->name);
	rc = rl_ops_read_used(f, r->l->name, &sink, r->errs, &used);
	fclose(f);
	if (rc == 0 && r->pl == NULL)
		rc = RL_ERR_PARSE;
	if (rc == 0) {
		rc = rl_pipeline_end(r->pl, &e);
		if (rc < 0 && e.code < 0)
			rl_errlist_add(r->errs, &e);
	}
	if (rc < 0)
		return rc;
	if (r->first) {
		r->first = 0;
		if (!(used & ((uint32_t)1 << r->sym)))
			return rl_errlist_addf(
			    r->errs, RL_ERR_ARG,
			    "--sweep %s: no shape or count of %s uses the name '%s'",
			    r->names.name[r->sym], r->l->name, r->names.name[r->sym]);
		for (i = 0; i < r->nwarn && r->l->warn != NULL; i++)
			r->l->warn(r->warn[i], r->l->user);
	}
	*items = 0;
	if (r->l->items_expr != NULL) {
		if (rl_symbols_eval(&r->names, r->l->items_expr, "--items-per-step", &n, NULL, &e) <
		    0)
			return rl_errlist_addf(r->errs, e.code, "%s", e.msg);
		*items = (double)n;
	}
	*s = rl_pipeline_summary(r->pl);
	*m = rl_pipeline_memfit(r->pl);
	return 0;
}

int rl_sweep_oplist_run(const struct rl_sweep_spec *sw, const struct rl_sweep_oplist *l,
                        const struct rl_pipeline_model *m, struct rl_sweep_table *t,
                        struct rl_errlist *errs)
{
	struct oplist_run *r = calloc(1, sizeof(*r));
	char spec[RL_SWEEP_NAME_LEN + 4];
	struct rl_err e;
	int rc;

	rl_sweep_table_init(t, sw->name, l->items_expr != NULL ? "items" : NULL, m->dev);
	if (r == NULL)
		return rl_errlist_addf(errs, RL_ERR_NOMEM, "%s: out of memory", l->name);
	r->l = l;
	r->m = m;
	r->errs = errs;
	r->first = 1;
	if (l->names != NULL)
		r->names = *l->names;
	else
		rl_symbols_init(&r->names);
	/* bound as --set binds it: the same rules for the name */
	snprintf(spec, sizeof(spec), "%s=1", sw->name);
	rc = rl_symbols_set(&r->names, spec, &e);
	if (rc < 0) {
		free(r);
		return rl_errlist_addf(errs, rc, "--sweep %s: %s", sw->name, e.msg);
	}
	r->sym = r->names.n - 1;
	rc = rl_sweep_run(sw, oplist_step, r, m->dev, t);
	rl_pipeline_free(r->pl);
	free(r);
	return rc;
}
