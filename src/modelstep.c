/* modelstep.c - one step of a Hugging Face config, as op list records:
 * written as text or handed to the pipeline (see modelstep.h). */
#include "config.h"

#include "modelstep.h"

#include <stdlib.h>
#include <string.h>

#include "oplist.h"
#include "oplist_write.h"

/* The columns of ROWS: the kernel and stride where a row is a conv2d with
 * one, flops_per_element where a row gives one (the Llama block's list is
 * unchanged), weight_count where a row's differs from its count (0: a matmul of two
 * activations), ranks and
 * nodes with a layout's collectives. Returns their number (at most
 * RL_OPCOL_N). */
static size_t step_columns(const struct rl_modelops_row *rows, int n, enum rl_opcol *cols)
{
	int i, fpe = 0, conv = 0, wc = 0, coll = 0, bytes = 0, host = 0, grouped = 0, strided = 0;
	int linear = 0, live = 0;
	int params = 0, group = 0, window = 0, mla = 0, rebuilt = 0, fresh = 0, overlap = 0;
	size_t k = 0;

	for (i = 0; i < n; i++) {
		if (rows[i].weight_count || rows[i].activations)
			wc = 1;
		if (rows[i].fpe)
			fpe = 1;
		if (rows[i].kernel[0])
			conv = 1;
		if (rows[i].ranks)
			coll = 1;
		if (rows[i].overlap)
			overlap = 1;
		if (rows[i].bytes)
			bytes = 1;
		if (rows[i].host_us > 0)
			host = 1;
		if (rows[i].grouped)
			grouped = 1;
		if (rows[i].linear)
			linear = 1;
		if (rows[i].live)
			live = 1;
		if (rows[i].strided)
			strided = 1;
		if (rows[i].params)
			params = 1;
		if (rows[i].weight_group)
			group = 1;
		if (rows[i].window)
			window = 1;
		if (rows[i].v_head_dim)
			mla = 1;
		if (rows[i].kv_rebuilt)
			rebuilt = 1;
		if (rows[i].fresh)
			fresh = 1;
	}
	cols[k++] = RL_OPCOL_NAME;
	cols[k++] = RL_OPCOL_KIND;
	cols[k++] = RL_OPCOL_DTYPE;
	cols[k++] = RL_OPCOL_SHAPE;
	if (conv) {
		cols[k++] = RL_OPCOL_KERNEL;
		cols[k++] = RL_OPCOL_STRIDE;
	}
	cols[k++] = RL_OPCOL_INPUTS;
	if (fpe)
		cols[k++] = RL_OPCOL_FPE;
	if (bytes)
		cols[k++] = RL_OPCOL_BYTES;
	if (host)
		cols[k++] = RL_OPCOL_HOST_COST;
	if (grouped)
		cols[k++] = RL_OPCOL_GROUPED;
	if (linear)
		cols[k++] = RL_OPCOL_LAYOUT;
	if (live)
		cols[k++] = RL_OPCOL_LIVE_BYTES;
	if (strided)
		cols[k++] = RL_OPCOL_STRIDED;
	cols[k++] = RL_OPCOL_CAUSAL;
	cols[k++] = RL_OPCOL_KV_HEADS;
	if (window)
		cols[k++] = RL_OPCOL_WINDOW;
	if (mla) {
		cols[k++] = RL_OPCOL_V_HEAD_DIM;
		cols[k++] = RL_OPCOL_KV_SHARED;
	}
	if (rebuilt)
		cols[k++] = RL_OPCOL_KV_CACHED;
	cols[k++] = RL_OPCOL_WEIGHT_DTYPE;
	if (group)
		cols[k++] = RL_OPCOL_WEIGHT_GROUP;
	cols[k++] = RL_OPCOL_KV_DTYPE;
	cols[k++] = RL_OPCOL_COUNT;
	if (fresh)
		cols[k++] = RL_OPCOL_FRESH;
	if (wc)
		cols[k++] = RL_OPCOL_WEIGHT_COUNT;
	if (coll) {
		cols[k++] = RL_OPCOL_RANKS;
		cols[k++] = RL_OPCOL_NODES;
	}
	if (overlap)
		cols[k++] = RL_OPCOL_OVERLAP;
	if (params)
		cols[k++] = RL_OPCOL_PARAMS;
	return k;
}

/* The cells of row R of step O: a zero field is an empty cell. */
static void step_cells(const struct rl_modelops_row *r, const struct rl_modelops_opts *o,
                       struct rl_oprow *c)
{
	rl_oprow_init(c);
	rl_oprow_text(c, RL_OPCOL_NAME, r->name);
	rl_oprow_text(c, RL_OPCOL_KIND, r->kind);
	rl_oprow_text(c, RL_OPCOL_DTYPE, r->dtype != NULL ? r->dtype : rl_dtype_name(o->dtype));
	rl_oprow_text(c, RL_OPCOL_SHAPE, r->shape);
	if (r->kernel[0]) {
		rl_oprow_text(c, RL_OPCOL_KERNEL, r->kernel);
		rl_oprow_u64(c, RL_OPCOL_STRIDE, r->stride);
	}
	if (r->inputs)
		rl_oprow_u64(c, RL_OPCOL_INPUTS, r->inputs);
	if (r->fpe)
		rl_oprow_u64(c, RL_OPCOL_FPE, r->fpe);
	if (r->bytes)
		rl_oprow_u64(c, RL_OPCOL_BYTES, r->bytes);
	if (r->host_us > 0)
		rl_oprow_g(c, RL_OPCOL_HOST_COST, r->host_us);
	if (r->grouped)
		rl_oprow_text(c, RL_OPCOL_GROUPED, "1");
	if (r->linear)
		rl_oprow_text(c, RL_OPCOL_LAYOUT, "linear");
	if (r->live)
		rl_oprow_u64(c, RL_OPCOL_LIVE_BYTES, r->live);
	if (r->strided)
		rl_oprow_u64(c, RL_OPCOL_STRIDED, r->strided);
	if (r->causal)
		rl_oprow_text(c, RL_OPCOL_CAUSAL, "1");
	if (r->kv_heads)
		rl_oprow_u64(c, RL_OPCOL_KV_HEADS, r->kv_heads);
	if (r->window)
		rl_oprow_u64(c, RL_OPCOL_WINDOW, r->window);
	if (r->v_head_dim)
		rl_oprow_u64(c, RL_OPCOL_V_HEAD_DIM, r->v_head_dim);
	if (r->kv_shared)
		rl_oprow_text(c, RL_OPCOL_KV_SHARED, "1");
	if (r->kv_rebuilt)
		rl_oprow_text(c, RL_OPCOL_KV_CACHED, "0");
	if (r->weights)
		rl_oprow_text(c, RL_OPCOL_WEIGHT_DTYPE,
		              r->weight_dtype != NULL ? r->weight_dtype : rl_dtype_name(o->weight_dtype));
	if (r->weight_group)
		rl_oprow_u64(c, RL_OPCOL_WEIGHT_GROUP, r->weight_group);
	if (r->kv)
		rl_oprow_text(c, RL_OPCOL_KV_DTYPE, rl_dtype_name(o->kv_dtype));
	rl_oprow_u64(c, RL_OPCOL_COUNT, r->count);
	if (r->fresh)
		rl_oprow_u64(c, RL_OPCOL_FRESH, r->fresh);
	if (r->weight_count || r->activations)
		rl_oprow_u64(c, RL_OPCOL_WEIGHT_COUNT, r->activations ? 0 : r->weight_count);
	if (r->ranks) {
		rl_oprow_u64(c, RL_OPCOL_RANKS, r->ranks);
		rl_oprow_u64(c, RL_OPCOL_NODES, r->nodes);
	}
	if (r->overlap)
		rl_oprow_text(c, RL_OPCOL_OVERLAP, "1");
	if (r->params)
		rl_oprow_u64(c, RL_OPCOL_PARAMS, r->params);
}

void rl_modelstep_write(FILE *f, const char *config, const struct rl_modelops_opts *o,
                        const struct rl_modelops_row *rows, int n)
{
	enum rl_opcol cols[RL_OPCOL_N];
	size_t ncols = step_columns(rows, n, cols);
	struct rl_oprow c;
	char step[160], par[200] = "";
	int i;

	if (o->phase == RL_PHASE_PREFILL)
		snprintf(step, sizeof(step), "prefill, batch %llu, seq %llu",
		         (unsigned long long)o->batch, (unsigned long long)o->seq);
	else
		snprintf(step, sizeof(step), "decode, batch %llu, context %llu",
		         (unsigned long long)o->batch, (unsigned long long)o->context);
	if (o->par != NULL)
		snprintf(par, sizeof(par),
		         "; one GPU of tp %llu, pp %llu, dp %llu, ep %llu, micro-batches %llu",
		         (unsigned long long)o->par->lay.tp, (unsigned long long)o->par->lay.pp,
		         (unsigned long long)o->par->lay.dp, (unsigned long long)o->par->lay.ep,
		         (unsigned long long)o->par->lay.microbatches);
	/* one comment line whatever the step: row i stays on line i + 3 */
	rl_oplist_write_comment(f, "roofline model %s: %s%s%s", config, step, par,
	                        o->train ? "; a training step's forward: classify it with --train "
	                                   "(and the step's other training options)"
	                                 : "");
	rl_oplist_write_header(f, cols, ncols);
	for (i = 0; i < n; i++) {
		step_cells(&rows[i], o, &c);
		rl_oplist_write_row(f, cols, ncols, &c);
	}
}

/* Every column step_cells may fill. */
static const enum rl_opcol every_col[] = {
	RL_OPCOL_NAME,         RL_OPCOL_KIND,       RL_OPCOL_DTYPE,        RL_OPCOL_SHAPE,
	RL_OPCOL_KERNEL,       RL_OPCOL_STRIDE,     RL_OPCOL_INPUTS,       RL_OPCOL_FPE,
	RL_OPCOL_BYTES,        RL_OPCOL_HOST_COST,  RL_OPCOL_GROUPED,      RL_OPCOL_LAYOUT,
	RL_OPCOL_LIVE_BYTES,   RL_OPCOL_STRIDED,
	RL_OPCOL_CAUSAL,       RL_OPCOL_KV_HEADS,   RL_OPCOL_WINDOW,       RL_OPCOL_V_HEAD_DIM,
	RL_OPCOL_KV_SHARED,    RL_OPCOL_KV_CACHED,  RL_OPCOL_WEIGHT_DTYPE, RL_OPCOL_WEIGHT_GROUP,
	RL_OPCOL_KV_DTYPE,     RL_OPCOL_COUNT,      RL_OPCOL_FRESH,        RL_OPCOL_WEIGHT_COUNT,
	RL_OPCOL_RANKS,        RL_OPCOL_NODES,      RL_OPCOL_PARAMS,
};
#define NEVERY (sizeof(every_col) / sizeof(every_col[0]))

int rl_modelstep_rows_new(const char *input, rl_ops_rows **out, struct rl_errlist *errs)
{
	const char *cells[NEVERY];
	size_t k;

	for (k = 0; k < NEVERY; k++)
		cells[k] = rl_opcol_name(every_col[k]);
	return rl_ops_rows_new(input, 1, cells, NEVERY, NULL, out, errs);
}

int rl_modelstep_row_op(rl_ops_rows *rd, size_t line, const struct rl_modelops_row *r,
                        const struct rl_modelops_opts *o, const char *name, struct rl_op *op,
                        struct rl_errlist *errs)
{
	const char *cells[NEVERY];
	struct rl_oprow c;

	step_cells(r, o, &c);
	if (name != NULL)
		rl_oprow_text(&c, RL_OPCOL_NAME, name);
	rl_oprow_cells(&c, every_col, NEVERY, cells);
	return rl_ops_row(rd, line, cells, NEVERY, op, errs);
}

/* The first line of a row in the text rl_modelstep_write writes: after the
 * comment and the header. */
#define FIRST_ROW_LINE 3

int rl_modelstep_run(const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                     rl_pipeline **pl, struct rl_errlist *errs)
{
	struct rl_modelops_row rows[RL_MODELOPS_MAX];
	enum rl_opcol cols[RL_OPCOL_N];
	const char *cells[RL_OPCOL_N];
	const struct rl_ops_header *h;
	struct rl_pipeline_columns pc;
	struct rl_pipeline_sinks none;
	struct rl_oprow c;
	rl_ops_rows *rd = NULL;
	struct rl_err e;
	struct rl_op op;
	size_t ncols, k;
	int n, i, rc;

	*pl = NULL;
	n = rl_modelops_build(s->cfg, mo, rows, &e);
	if (n < 0) {
		rl_errlist_add(errs, &e);
		return n;
	}
	ncols = step_columns(rows, n, cols);
	for (k = 0; k < ncols; k++)
		cells[k] = rl_opcol_name(cols[k]);
	rc = rl_ops_rows_new(s->input, FIRST_ROW_LINE - 1, cells, ncols, NULL, &rd, errs);
	if (rc < 0)
		return rc;
	h = rl_ops_rows_header(rd);
	memset(&pc, 0, sizeof(pc));
	memset(&none, 0, sizeof(none));
	pc.input = s->input;
	pc.nextra = h->nextra;
	pc.extra_names = h->extra_names;
	rc = rl_pipeline_begin(s->model, s->sinks != NULL ? s->sinks : &none, &pc, pl);
	/* As the reader: every row checked, none fed after the first error; a
	 * pipeline error stops the step (the rows are generated, so the first
	 * error is the cause and any later one its echo). */
	for (i = 0; rc == 0 && i < n; i++) {
		step_cells(&rows[i], mo, &c);
		rl_oprow_cells(&c, cols, ncols, cells);
		if (rl_ops_row(rd, (size_t)(FIRST_ROW_LINE + i), cells, ncols, &op, errs) < 0 ||
		    errs->count > 0)
			continue;
		e.code = 0;
		rc = rl_pipeline_op(*pl, &op, &e);
		if (rc < 0 && e.code < 0)
			rl_errlist_add(errs, &e);
	}
	if (rc == 0 && errs->count > 0)
		rc = RL_ERR_PARSE;
	if (rc == 0) {
		e.code = 0;
		rc = rl_pipeline_end(*pl, &e);
		if (rc < 0 && e.code < 0)
			rl_errlist_add(errs, &e);
	}
	rl_ops_rows_free(rd);
	if (rc < 0) {
		rl_pipeline_free(*pl);
		*pl = NULL;
	}
	return rc;
}
