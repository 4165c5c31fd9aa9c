/* fusion.c - fused groups as one kernel, and fusion proposals (see fusion.h). */
#include "config.h"

#include "fusion.h"

#include "expected.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formulas.h"

void rl_fusion_init(struct rl_fusion *g)
{
	memset(g, 0, sizeof(*g));
}

int rl_fusion_add(struct rl_fusion *g, const struct rl_op *op, const struct rl_pred *p,
                  struct rl_err *err)
{
	struct rl_err e;
	double out, in;

	if (g->nops > 0 && op->count != g->count)
		return rl_err_set(err, RL_ERR_PARSE,
		                  "column 'fuse': count %llu differs from the group's %llu "
		                  "(a fused kernel runs its ops together)",
		                  (unsigned long long)op->count, (unsigned long long)g->count);
	e.msg[0] = '\0';
	if (rl_op_output_known(op, &e) < 0)
		return rl_err_set(err, RL_ERR_PARSE, "column 'fuse': '%s' cannot be fused: %s",
		                  op->name, e.msg);
	out = p->bytes_written; /* the model's split (rl_op_output_bytes) */
	in = p->bytes - out;
	if (g->nops == 0) {
		g->count = op->count;
		g->dtype = op->dtype;
		g->reads = in;
	} else {
		/* The predecessor's output stays on chip; only reads beyond it
		 * (another operand, weights) come from memory. */
		g->reads += fmax(0, in - g->out_bytes);
	}
	g->out_bytes = out;
	g->flops += p->flops;
	g->t_compute_us += p->t_compute_us;
	g->unfused_us += p->expected_us;
	g->fallback |= p->fallback;
	if (g->nops == 0 || p->t_compute_us > g->slowest.t_compute_us)
		g->slowest = *p;
	g->nops++;
	return 0;
}

void rl_fusion_predict(const struct rl_fusion *g, const struct rl_model_ctx *ctx, struct rl_pred *p)
{
	*p = g->slowest;
	p->flops = g->flops;
	p->bytes = g->reads + g->out_bytes;
	p->intensity = p->bytes > 0 ? p->flops / p->bytes : (p->flops > 0 ? HUGE_VAL : 0);
	p->fallback = g->fallback;
	/* every op of a group has its split known (rl_op_output_bytes) */
	p->bytes_read = g->reads;
	p->bytes_written = g->out_bytes;
	p->rw_known = 1;
	p->bandwidth = rl_model_bandwidth(ctx->dev, g->reads, g->out_bytes, 1);
	if (g->t_compute_us > 0)
		p->peak_flops = g->flops / (g->t_compute_us * 1e-6);
	p->ridge = p->peak_flops / p->bandwidth;
	p->attainable_flops = p->flops > 0 ? fmin(p->peak_flops, p->intensity * p->bandwidth) : 0;
	p->t_compute_us = g->t_compute_us;
	p->t_memory_us = p->bytes / p->bandwidth * 1e6;
	rl_pred_times(p, ctx, RL_KIND_FUSED, 1); /* an elementwise kernel */
	rl_expected_fused(ctx, p);
	p->roofline_pct = 0;
}

/* ---- the stream ---- */

void rl_fuse_stream_init(struct rl_fuse_stream *s, const struct rl_model_ctx *ctx, int suggest,
                         int (*emit)(const struct rl_fuse_row *, void *), void *user)
{
	memset(s, 0, sizeof(*s));
	s->ctx = ctx;
	s->emit = emit;
	s->user = user;
	s->suggest = suggest;
	rl_fusion_init(&s->g);
	rl_fusion_init(&s->run);
}

static int push(struct rl_fuse_whatif **v, size_t *n, size_t *cap, const char *first,
                const char *last, size_t line, const struct rl_fusion *g, double fused_us)
{
	struct rl_fuse_whatif *w;

	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 8;
		struct rl_fuse_whatif *grown = realloc(*v, c * sizeof(*grown));

		if (grown == NULL)
			return RL_ERR_NOMEM;
		*v = grown;
		*cap = c;
	}
	w = &(*v)[*n];
	memset(w, 0, sizeof(*w));
	w->first = strdup(first);
	w->last = last ? strdup(last) : NULL;
	if (w->first == NULL || (last && w->last == NULL)) {
		free(w->first);
		free(w->last);
		return RL_ERR_NOMEM;
	}
	w->line = line;
	w->nops = g->nops;
	w->count = g->count;
	w->unfused_us = g->unfused_us;
	w->fused_us = fused_us;
	(*n)++;
	return 0;
}

/* Emits the open group of the list, if any. */
static int flush_group(struct rl_fuse_stream *s)
{
	struct rl_op op;
	struct rl_pred p;
	struct rl_fuse_row row;
	int rc;

	if (s->name == NULL)
		return 0;
	rl_fusion_predict(&s->g, s->ctx, &p);
	rl_op_init(&op);
	op.name = s->name;
	op.kind = RL_KIND_FUSED;
	op.dtype = s->g.dtype;
	op.has = RL_HAS_FLOPS | RL_HAS_BYTES;
	op.flops = p.flops;
	op.bytes = p.bytes;
	op.count = s->g.count;
	op.line = s->line;
	op.fuse = s->name;
	op.extra = NULL;
	row = (struct rl_fuse_row){&op, &p, s->g.nops, s->g.unfused_us, s->g.out_bytes};
	rc = push(&s->groups, &s->ngroups, &s->capgroups, s->name, NULL, s->line, &s->g, p.expected_us);
	if (rc == 0)
		rc = s->emit(&row, s->user);
	free(s->name);
	s->name = NULL;
	rl_fusion_init(&s->g);
	return rc;
}

/* Closes the open candidate run: a proposal when it saves time. */
static int close_run(struct rl_fuse_stream *s)
{
	int rc = 0;

	if (s->run.nops >= 2) {
		struct rl_pred p;

		rl_fusion_predict(&s->run, s->ctx, &p);
		if (p.expected_us < s->run.unfused_us)
			rc = push(&s->proposals, &s->nproposals, &s->capproposals, s->run_first,
			          s->run_last, s->run_line, &s->run, p.expected_us);
	}
	free(s->run_first);
	free(s->run_last);
	s->run_first = s->run_last = NULL;
	rl_fusion_init(&s->run);
	return rc;
}

/* Ops that --suggest-fusion puts in runs: elementwise work that fusion
 * speeds up, i.e. memory traffic or launches, not math. */
static int candidate(const struct rl_op *op, const struct rl_pred *p)
{
	return op->fuse == NULL && !(op->has & RL_HAS_BYTES) &&
	       (rl_kind_info(op->kind)->flags & RL_KF_FUSABLE) &&
	       p->bound != RL_BOUND_COMPUTE;
}

static int suggest_op(struct rl_fuse_stream *s, const struct rl_op *op, const struct rl_pred *p)
{
	int rc;

	if (!candidate(op, p))
		return close_run(s);
	if (s->run.nops > 0 && op->count != s->run.count && (rc = close_run(s)) < 0)
		return rc;
	if (rl_fusion_add(&s->run, op, p, NULL) < 0)
		return close_run(s); /* not reached: candidates have formula bytes */
	if (s->run.nops == 1) {
		s->run_first = strdup(op->name);
		s->run_line = op->line;
		if (s->run_first == NULL)
			return RL_ERR_NOMEM;
	}
	free(s->run_last);
	s->run_last = strdup(op->name);
	return s->run_last == NULL ? RL_ERR_NOMEM : 0;
}

int rl_fuse_stream_op(struct rl_fuse_stream *s, const struct rl_op *op, const struct rl_pred *p,
                      struct rl_err *err)
{
	int rc;

	if (s->suggest && (rc = suggest_op(s, op, p)) < 0)
		return rc;
	if (op->fuse != NULL) {
		if (s->name != NULL && strcmp(s->name, op->fuse) != 0 && (rc = flush_group(s)) < 0)
			return rc;
		if (s->name == NULL) {
			s->name = strdup(op->fuse);
			s->line = op->line;
			if (s->name == NULL)
				return RL_ERR_NOMEM;
		}
		return rl_fusion_add(&s->g, op, p, err);
	}
	if ((rc = flush_group(s)) < 0)
		return rc;
	{
		struct rl_fuse_row row = {op, p, 1, p->expected_us, -1};

		if (rl_op_output_known(op, NULL) == 0)
			row.out_bytes = p->bytes_written;
		return s->emit(&row, s->user);
	}
}

int rl_fuse_stream_end(struct rl_fuse_stream *s, struct rl_err *err)
{
	int rc = flush_group(s);

	(void)err;
	if (rc == 0 && s->suggest)
		rc = close_run(s);
	return rc;
}

static void free_whatifs(struct rl_fuse_whatif *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].first);
		free(v[i].last);
	}
	free(v);
}

void rl_fuse_stream_release(struct rl_fuse_stream *s)
{
	if (s == NULL)
		return;
	free(s->name);
	free(s->run_first);
	free(s->run_last);
	free_whatifs(s->groups, s->ngroups);
	free_whatifs(s->proposals, s->nproposals);
	memset(s, 0, sizeof(*s));
}
