/* component.c - an op list's component rows as an implementation's kernels
 * (see component.h). */
#include "config.h"

#include "component.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modelops.h"
#include "modelstep.h"
#include "num.h"

struct rl_component {
	const struct rl_impl *im; /* NULL: every row is its own op */
	const char *input;
	/* the list's names and the sizes that follow from them, at the step's
	 * context C and at C + 1 (a row whose kernels change with it is fresh) */
	struct rl_symbols sym, next;
	unsigned have;            /* the step's facts (RL_IMPL_IF_*) */
	uint64_t held;            /* weights (params) of rows replaced, waiting
	                           * for a kernel that can carry them */
	uint32_t used;            /* names of the list that size the kernels */
	rl_ops_rows *rd;
	/* the run of consecutive rows naming the same components, held until
	 * it ends: its first row, with the run's params and fresh calls */
	int pending;
	struct rl_op first;
	char name[256];
	const char *why;          /* a column the run's rows cannot carry, or NULL */
	size_t nextra;            /* the list's carried columns */
	char **extra;             /* the first row's carried cells, copied */
};

/* Copies the carried cells of OP (C->nextra of them) into C's. */
static int keep_extra(rl_component *c, const struct rl_op *op)
{
	size_t i;

	for (i = 0; i < c->nextra; i++) {
		free(c->extra[i]);
		c->extra[i] = strdup(op->extra != NULL && op->extra[i] != NULL ? op->extra[i] : "");
		if (c->extra[i] == NULL)
			return RL_ERR_NOMEM;
	}
	return 0;
}

int rl_component_columns(rl_component *c, size_t nextra)
{
	if (c == NULL || c->im == NULL || nextra == 0)
		return 0;
	c->extra = calloc(nextra, sizeof(*c->extra));
	if (c->extra == NULL)
		return RL_ERR_NOMEM;
	c->nextra = nextra;
	return 0;
}

/* Whether S binds NAME, and its value into *V. */
static int lookup(const struct rl_symbols *s, const char *name, uint64_t *v)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->name[i], name) == 0) {
			*v = s->value[i];
			return 1;
		}
	return 0;
}

/* Binds NAME to V in S unless the list did. */
static int follow(struct rl_symbols *s, const char *name, uint64_t v, struct rl_err *err)
{
	char spec[RL_SYMBOL_LEN + 24];
	uint64_t had;

	if (lookup(s, name, &had))
		return 0;
	snprintf(spec, sizeof(spec), "%s=%llu", name, (unsigned long long)(v ? v : 1));
	return rl_symbols_set(s, spec, err);
}

/* The sizes of S that follow from the list's (modelops.c's bind, one GPU,
 * no expert imbalance), with the context one token longer when NEXT; the
 * step's facts into *HAVE. */
static int derive(struct rl_symbols *s, const struct rl_symbols *names, int train, int next,
                  unsigned *have, struct rl_err *err)
{
	uint64_t B = 0, S = 0, T = 0, C = 0, W = 0, v = 0, E = 0, K = 0, p;
	int hasB, hasS, hasC, hasW, rc = 0;

	*s = *names;
	hasB = lookup(s, "B", &B);
	hasS = lookup(s, "S", &S);
	hasC = lookup(s, "C", &C);
	hasW = lookup(s, "W", &W);
	if (hasB && hasS && rl_mul_u64(B, S, &p) == 0)
		rc |= follow(s, "T", p, err);
	if (!hasC && hasS) {
		C = S;
		hasC = 1;
		rc |= follow(s, "C", C, err);
	}
	if (next && hasC && C < UINT64_MAX) {
		size_t i;

		for (i = 0; i < s->n; i++)
			if (strcmp(s->name[i], "C") == 0)
				s->value[i] = C + 1;
		C++;
	}
	*have = 0;
	if (train)
		*have |= RL_IMPL_IF_TRAIN | RL_IMPL_IF_PREFILL;
	else if (hasC && hasS && C > S)
		*have |= RL_IMPL_IF_DECODE;
	else
		*have |= RL_IMPL_IF_PREFILL;
	if (hasB && B > 1)
		*have |= RL_IMPL_IF_BATCHED;
	if (hasW && hasC && W < C)
		*have |= RL_IMPL_IF_WINDOWED;
	if (hasC)
		rc |= follow(s, "W", C, err);
	if (lookup(s, "KVH", &v) && v == 1)
		*have |= RL_IMPL_IF_MQA;
	(void)lookup(s, "T", &T);
	if (lookup(s, "H", &v))
		rc |= follow(s, "N", v, err);
	if (lookup(s, "D", &v))
		rc |= follow(s, "DV", v, err);
	if (lookup(s, "I", &v))
		rc |= follow(s, "EI", v, err);
	/* the logits' rows: each sequence's last token, every token in training */
	if (train && T > 0)
		rc |= follow(s, "R", T, err);
	else if (!train && hasB)
		rc |= follow(s, "R", B, err);
	if (lookup(s, "E", &E) && lookup(s, "K", &K) && T > 0 && K <= E) {
		uint64_t et = (uint64_t)llround(rl_modelops_experts_touched(E, K, T)), tk, m;
		double mean;

		et = et < 1 ? 1 : et > E ? E : et;
		if (rl_mul_u64(T, K, &tk) == 0) {
			mean = (double)tk / (double)et;
			m = mean >= (double)T ? T : (uint64_t)ceil(mean - 1e-9);
			rc |= follow(s, "ET", et, err);
			rc |= follow(s, "EM", m ? m : 1, err);
			/* PyTorch sorts up to 4096 keys in one kernel (Sort.h) */
			if (tk > 4096)
				*have |= RL_IMPL_IF_RADIX;
		}
	}
	return rc < 0 ? RL_ERR_RANGE : 0;
}

int rl_component_new(const struct rl_impl *im, const struct rl_symbols *names, int train,
                     const char *input, rl_component **out, struct rl_err *err)
{
	struct rl_component *c = calloc(1, sizeof(*c));
	struct rl_symbols none;
	struct rl_errlist errs;
	unsigned have_next;
	size_t i;
	int s;

	*out = NULL;
	if (c == NULL)
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	rl_symbols_init(&none);
	if (names == NULL)
		names = &none;
	c->input = input;
	c->im = im != NULL && im->nk > 0 ? im : NULL;
	if (c->im != NULL) {
		if (derive(&c->sym, names, train, 0, &c->have, err) < 0 ||
		    derive(&c->next, names, train, 1, &have_next, err) < 0) {
			free(c);
			return rl_err_set(err, RL_ERR_RANGE,
			                  "--impl %s: the sizes that follow from --set (T, C, W, R, N, DV, "
			                  "EI, ET, EM) do not fit beside its %zu names: %s",
			                  im->id, names->n, err->msg);
		}
		for (i = 0; i < names->n && i < 32; i++)
			for (s = 0; s < RL_IMPL_SYM_COUNT; s++)
				if (strcmp(names->name[i], rl_impl_sym_name((enum rl_impl_sym)s)) == 0)
					c->used |= (uint32_t)1 << i;
		rl_errlist_init(&errs);
		if (rl_modelstep_rows_new(input, &c->rd, &errs) < 0) {
			free(c);
			return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
		}
	}
	*out = c;
	return 0;
}

uint32_t rl_component_names_used(const rl_component *c)
{
	return c != NULL ? c->used : 0;
}

void rl_component_free(rl_component *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->nextra; i++)
		free(c->extra[i]);
	free(c->extra);
	rl_ops_rows_free(c->rd);
	free(c);
}

/* The error of kernel K of component row OP. */
static int kernel_error(rl_component *c, const struct rl_op *op, const struct rl_impl_kernel *k,
                        const char *why, struct rl_errlist *errs)
{
	return rl_errlist_addf(errs, RL_ERR_PARSE,
	                       "%s:%zu: column 'component': %s's %s kernel %s (%s:%zu): %s",
	                       c->input, op->line, c->im->id, rl_impl_comp_name(k->comp), k->name,
	                       c->im->path, k->line, why);
}

/* Emits the kernels of component COMP of row OP under FACTS; the weights
 * held (C->held) go with the first of the row's dtype (a norm's weight is
 * the module's, not its fp32 intermediate's: modelops.c's rule). */
static int kernels(rl_component *c, const struct rl_op *op, enum rl_impl_comp comp,
                   unsigned facts, const struct rl_modelops_opts *o,
                   int (*emit)(const struct rl_op *op, void *user), void *user,
                   struct rl_errlist *errs)
{
	const struct rl_impl *im = c->im;
	int family = op->family - 1, rc;
	size_t i;

	for (i = 0; i < im->nk; i++) {
		const struct rl_impl_kernel *k = &im->k[i];
		struct rl_modelops_row r, later;
		struct rl_err e;
		struct rl_op out;
		char name[256];

		if (k->comp != comp || k->none || !rl_impl_applies(im, k, family, facts))
			continue;
		if (rl_modelops_kernel_row(k, &c->sym, op->count, &r, &e) < 0)
			return kernel_error(c, op, k, e.msg, errs);
		if (r.count == 0)
			continue; /* a count that comes to 0 at these sizes: no launch */
		if (r.count == UINT64_MAX || r.params == UINT64_MAX)
			return kernel_error(c, op, k, "its count or params pass 2^64 - 1", errs);
		if (k->weights)
			r.weight_group = op->weight_group;
		if ((op->has & RL_HAS_HOST_COST) && r.host_us <= 0)
			r.host_us = op->host_overhead_us;
		/* a decode row whose kernel follows the context is called at a
		 * new shape each step (model --impl's mark_fresh) */
		if (op->fresh > 0 && (facts & RL_IMPL_IF_DECODE) &&
		    rl_modelops_kernel_row(k, &c->next, op->count, &later, &e) == 0 &&
		    (strcmp(r.shape, later.shape) != 0 || r.bytes != later.bytes))
			r.fresh = op->fresh < r.count ? op->fresh : r.count;
		if (c->held > 0 && k->dtype < 0) {
			r.params = r.params > UINT64_MAX - c->held ? UINT64_MAX : r.params + c->held;
			c->held = 0;
		}
		snprintf(name, sizeof(name), "%s.%s", op->name, k->name);
		rc = rl_modelstep_row_op(c->rd, op->line, &r, o, name, &out, errs);
		if (rc < 0)
			return rc;
		out.phase = op->phase;
		out.frozen = op->frozen;
		out.extra = op->extra;
		rc = emit(&out, user);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Emits OP, with the weights held (C->held) unless it is a collective. */
static int pass(rl_component *c, const struct rl_op *op,
                int (*emit)(const struct rl_op *op, void *user), void *user)
{
	struct rl_op with;

	if (c->held == 0 || rl_kind_is_collective(op->kind))
		return emit(op, user);
	with = *op;
	with.params = op->params > UINT64_MAX - c->held ? UINT64_MAX : op->params + c->held;
	c->held = 0;
	return emit(&with, user);
}

/* The kernels of the run held in C in place of its rows. */
static int flush(rl_component *c, int (*emit)(const struct rl_op *op, void *user), void *user,
                 struct rl_errlist *errs)
{
	const struct rl_op *op = &c->first;
	struct rl_modelops_opts o;
	struct rl_op rest;
	int i, unnamed = 0, rc;

	if (!c->pending)
		return 0;
	c->pending = 0;
	c->held = c->held > UINT64_MAX - op->params ? UINT64_MAX : c->held + op->params;
	if (c->why != NULL)
		return rl_errlist_addf(errs, RL_ERR_PARSE,
		                       "%s:%zu: column 'component': --impl %s puts its kernels in "
		                       "place of the row, which cannot then carry its own %s",
		                       c->input, op->line, c->im->id, c->why);
	memset(&o, 0, sizeof(o));
	o.dtype = op->dtype;
	o.weight_dtype = op->has & RL_HAS_WEIGHT_DTYPE ? op->weight_dtype : op->dtype;
	o.kv_dtype = op->has & RL_HAS_KV_DTYPE ? op->kv_dtype : op->dtype;
	for (i = 0; i < RL_OP_MAX_COMPS && op->comps[i]; i++) {
		enum rl_impl_comp comp = (enum rl_impl_comp)(op->comps[i] - 1);

		/* one the implementation does not name is the builder's: the
		 * row itself where the builder gives it one, else nothing */
		if (!rl_impl_names(c->im, comp, op->family - 1)) {
			if (rl_impl_comp_has_row(comp))
				unnamed = 1;
			continue;
		}
		rc = kernels(c, op, comp, c->have | op->comp_facts, &o, emit, user, errs);
		if (rc < 0)
			return rc;
	}
	if (!unnamed)
		return 0;
	/* a component of a row of its own the implementation does not name */
	rest = *op;
	rest.params = 0;
	return pass(c, &rest, emit, user);
}

/* Whether OP names what the run held in C names, at its count. */
static int same_run(const rl_component *c, const struct rl_op *op)
{
	return c->pending && memcmp(op->comps, c->first.comps, sizeof(op->comps)) == 0 &&
	       op->comp_facts == c->first.comp_facts && op->family == c->first.family &&
	       op->count == c->first.count;
}

/* The column of OP that a row replaced by kernels cannot carry, or NULL. */
static const char *own_times(const struct rl_op *op)
{
	return op->has & RL_HAS_MEASURED ? "measured_us"
	       : op->has & RL_HAS_HOST   ? "host_us"
	       : op->has & RL_HAS_FLOPS  ? "flops"
	       : op->has & RL_HAS_BYTES  ? "bytes"
	       : op->fuse != NULL        ? "fuse group"
	                                 : NULL;
}

int rl_component_op(rl_component *c, const struct rl_op *op,
                    int (*emit)(const struct rl_op *op, void *user), void *user,
                    struct rl_errlist *errs)
{
	int i, named = 0, rc;

	if (c == NULL || c->im == NULL)
		return emit(op, user);
	for (i = 0; i < RL_OP_MAX_COMPS && op->comps[i]; i++)
		if (rl_impl_names(c->im, (enum rl_impl_comp)(op->comps[i] - 1), op->family - 1))
			named = 1;
	if (named && same_run(c, op)) {
		/* one more row of the run: its weights and fresh calls join */
		c->first.params =
		    c->first.params > UINT64_MAX - op->params ? UINT64_MAX : c->first.params + op->params;
		if (op->fresh > c->first.fresh)
			c->first.fresh = op->fresh;
		if (c->why == NULL)
			c->why = own_times(op);
		return 0;
	}
	rc = flush(c, emit, user, errs);
	if (rc < 0 || !named)
		return rc < 0 ? rc : pass(c, op, emit, user);
	c->pending = 1;
	c->first = *op;
	snprintf(c->name, sizeof(c->name), "%s", op->name);
	c->first.name = c->name;
	/* the reader's cells live for one row */
	if (keep_extra(c, op) < 0)
		return rl_errlist_addf(errs, RL_ERR_NOMEM, "%s: out of memory", c->input);
	c->first.extra = (const char *const *)c->extra;
	c->first.fuse = NULL;
	c->why = own_times(op);
	return 0;
}

int rl_component_end(rl_component *c, int (*emit)(const struct rl_op *op, void *user),
                     void *user, struct rl_errlist *errs)
{
	int rc;

	if (c == NULL || c->im == NULL)
		return 0;
	rc = flush(c, emit, user, errs);
	if (rc == 0 && c->held > 0)
		return rl_errlist_addf(errs, RL_ERR_PARSE,
		                       "%s: column 'params': %llu weights of the last component rows "
		                       "have no kernel after them under --impl %s to be held with "
		                       "(its kernels for them are none): give them on a row of "
		                       "their own",
		                       c->input, (unsigned long long)c->held, c->im->id);
	return rc;
}
