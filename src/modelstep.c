/* modelstep.c - one step of a Hugging Face config, as op list text and
 * through the pipeline (see modelstep.h). */
#include "config.h"

#include "modelstep.h"

#include <stdlib.h>
#include <string.h>

#include "oplist.h"

void rl_modelstep_write(FILE *f, const char *config, const struct rl_modelops_opts *o,
                        const struct rl_modelops_row *rows, int n)
{
	int i, fpe = 0, conv = 0, wc = 0, coll = 0;

	for (i = 0; i < n; i++) {
		if (rows[i].weight_count)
			wc = 1;
		if (rows[i].fpe)
			fpe = 1;
		if (rows[i].kernel[0])
			conv = 1;
	}
	for (i = 0; i < n; i++)
		if (rows[i].ranks)
			coll = 1;
	fprintf(f, "# roofline model %s: %s, batch %llu, ", config,
	        o->phase == RL_PHASE_PREFILL ? "prefill" : "decode",
	        (unsigned long long)o->batch);
	if (o->phase == RL_PHASE_PREFILL)
		fprintf(f, "seq %llu", (unsigned long long)o->seq);
	else
		fprintf(f, "context %llu", (unsigned long long)o->context);
	if (o->par != NULL)
		fprintf(f, "; one GPU of tp %llu, pp %llu, dp %llu, ep %llu, micro-batches %llu",
		        (unsigned long long)o->par->lay.tp, (unsigned long long)o->par->lay.pp,
		        (unsigned long long)o->par->lay.dp, (unsigned long long)o->par->lay.ep,
		        (unsigned long long)o->par->lay.microbatches);
	fputc('\n', f);
	/* flops_per_element only where a row gives one (the Llama block's list
	 * is unchanged); ranks and nodes with a layout's collectives */
	fprintf(f, "name,kind,dtype,shape,%sinputs,%scausal,kv_heads,weight_dtype,kv_dtype,count%s%s\n",
	        conv ? "kernel,stride," : "", fpe ? "flops_per_element," : "",
	        wc ? ",weight_count" : "", coll ? ",ranks,nodes" : "");
	for (i = 0; i < n; i++) {
		const struct rl_modelops_row *r = &rows[i];

		fprintf(f, "%s,%s,%s,%s,", r->name, r->kind, rl_dtype_name(o->dtype), r->shape);
		if (conv && r->kernel[0])
			fprintf(f, "%s,%llu,", r->kernel, (unsigned long long)r->stride);
		else if (conv)
			fputs(",,", f);
		if (r->inputs)
			fprintf(f, "%u", r->inputs);
		if (fpe && r->fpe)
			fprintf(f, ",%u", r->fpe);
		else if (fpe)
			fputc(',', f);
		fprintf(f, ",%s,", r->causal ? "1" : "");
		if (r->kv_heads)
			fprintf(f, "%llu", (unsigned long long)r->kv_heads);
		fprintf(f, ",%s,%s,%llu", r->weights ? rl_dtype_name(o->weight_dtype) : "",
		        r->kv ? rl_dtype_name(o->kv_dtype) : "", (unsigned long long)r->count);
		if (wc && r->weight_count)
			fprintf(f, ",%llu", (unsigned long long)r->weight_count);
		else if (wc)
			fputc(',', f);
		if (coll && r->ranks)
			fprintf(f, ",%llu,%llu", (unsigned long long)r->ranks,
			        (unsigned long long)r->nodes);
		else if (coll)
			fputs(",,", f);
		fputc('\n', f);
	}
}

struct run {
	const struct rl_modelstep *s;
	rl_pipeline *pl;
	struct rl_errlist *errs;
};

static int on_header(const struct rl_ops_header *h, void *user)
{
	struct run *r = user;
	struct rl_pipeline_columns cols;
	struct rl_pipeline_sinks none;

	memset(&cols, 0, sizeof(cols));
	memset(&none, 0, sizeof(none));
	cols.input = r->s->input;
	cols.nextra = h->nextra;
	cols.extra_names = h->extra_names;
	return rl_pipeline_begin(r->s->model, r->s->sinks != NULL ? r->s->sinks : &none, &cols,
	                         &r->pl);
}

/* A pipeline error stops the reader: the list is generated, so the first
 * error is the cause and any later one its echo. */
static int on_op(const struct rl_op *op, void *user)
{
	struct run *r = user;
	struct rl_err e;
	int rc = rl_pipeline_op(r->pl, op, &e);

	if (rc < 0 && e.code < 0)
		rl_errlist_add(r->errs, &e);
	return rc;
}

int rl_modelstep_run(const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                     rl_pipeline **pl, struct rl_errlist *errs)
{
	struct rl_modelops_row rows[RL_MODELOPS_MAX];
	struct run r = {s, NULL, errs};
	struct rl_ops_sink sink = {on_header, on_op, &r, NULL, NULL};
	struct rl_err e;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int n, rc;

	*pl = NULL;
	n = rl_modelops_build(s->cfg, mo, rows, &e);
	if (n < 0) {
		rl_errlist_add(errs, &e);
		return n;
	}
	f = open_memstream(&text, &len);
	if (f == NULL)
		return RL_ERR_NOMEM;
	rl_modelstep_write(f, s->config, mo, rows, n);
	if (fclose(f) != 0) {
		free(text);
		return RL_ERR_NOMEM;
	}
	f = fmemopen(text, len, "r");
	if (f == NULL) {
		free(text);
		return RL_ERR_NOMEM;
	}
	rc = rl_ops_read(f, s->input, &sink, errs);
	if (rc == 0 && r.pl == NULL)
		rc = RL_ERR_PARSE;
	if (rc == 0) {
		e.code = 0;
		rc = rl_pipeline_end(r.pl, &e);
		if (rc < 0 && e.code < 0)
			rl_errlist_add(errs, &e);
	}
	fclose(f);
	free(text);
	if (rc < 0) {
		rl_pipeline_free(r.pl);
		return rc;
	}
	*pl = r.pl;
	return 0;
}
