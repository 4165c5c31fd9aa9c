/* modelops.c - the op list of one step of a transformer (see modelops.h). */
#include "config.h"

#include "modelops.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "family.h"
#include "formulas.h"
#include "impl.h"
#include "num.h"
#include "op.h"
#include "symbols.h"

/* The rows so far and the layout they are one GPU's share of (every
 * degree 1 without one). */
struct build {
	struct rl_modelops_row *rows;
	int n;
	uint64_t tp, ep;
	uint64_t layers;                     /* this GPU's: the last pipeline stage's */
	int first;                           /* the stage holds the embedding (pp 1) */
	const struct rl_parallel_place *par; /* NULL: one GPU */
	int wrapped;                         /* a size product passed 2^64 - 1 ... */
	int wrap_row;                        /* ... building this row */
	/* an implementation's kernels in place of the components it names */
	const struct rl_impl *impl;          /* NULL: the builder's rows */
	int family;                          /* the config's index in rl_families */
	unsigned have;                       /* RL_IMPL_IF_* facts of the step */
	struct rl_symbols sym;               /* the step's sizes, by name */
	struct rl_err err;                   /* the first evaluation error */
	int failed;
	struct rl_modelops_row spare;        /* written past the last row (failed) */
	/* weights besides the matmuls' (hold): the next row to carry them */
	uint64_t pending;                    /* elements not yet on a row */
	int hold_from;                       /* the first row that may carry them */
	uint64_t group;                      /* weight_group of the weighted matmuls */
	int conv1d;                          /* the block's weights held [K, N] (rl_block) */
	uint64_t normw;                      /* one norm's weights: H, or 2 H with a bias */
	unsigned residual_fpe;               /* the residual adds' flops_per_element */
};

/* The row can carry params: a row of the step's dtype (a weight is not an
 * implementation's fp32 intermediate, nor in a checkpoint's quantised
 * format) that is not a collective. */
static int carries(const struct rl_modelops_row *r)
{
	enum rl_kind k;

	return r->dtype == NULL && r->weight_dtype == NULL && rl_kind_parse(r->kind, &k) == 0 &&
	       !rl_kind_is_collective(k);
}

/* Puts the held weights on the first row since they were held that can
 * carry them (every row before the next one added is complete). */
static void settle(struct build *b)
{
	int i;

	for (i = b->hold_from; b->pending && i < b->n; i++)
		if (carries(&b->rows[i])) {
			b->rows[i].params += b->pending;
			b->pending = 0;
		}
}

/* ELEMS weights that the rows built next hold besides a matmul's B (an
 * embedding table, a norm's weight and bias, a bias vector): whichever
 * kernels the component becomes (an implementation's, or none: fused into
 * the next component's), the memory fit counts them once. */
static void hold(struct build *b, uint64_t elems)
{
	if (elems == 0)
		return;
	settle(b); /* the weights held before: on the rows built since */
	if (b->pending == 0)
		b->hold_from = b->n;
	b->pending = b->pending > UINT64_MAX - elems ? UINT64_MAX : b->pending + elems;
}

/* The held weights left when the step ends: on its last row that can carry
 * them. */
static void settle_last(struct build *b)
{
	int i;

	settle(b);
	for (i = b->n - 1; b->pending && i >= 0; i--)
		if (carries(&b->rows[i])) {
			b->rows[i].params += b->pending;
			b->pending = 0;
		}
}

/* A * B, or UINT64_MAX with the row being built marked when the product
 * passes 64 bits (the step is then refused: check_rows). */
static uint64_t mul(struct build *b, uint64_t x, uint64_t y)
{
	uint64_t p;

	if (rl_mul_u64(x, y, &p) == 0)
		return p;
	if (!b->wrapped) {
		b->wrapped = 1;
		b->wrap_row = b->n;
	}
	return UINT64_MAX;
}

static struct rl_modelops_row *add(struct build *b, const char *name, const char *kind,
                                   uint64_t count)
{
	struct rl_modelops_row *r = &b->spare;

	settle(b);
	/* an implementation's kernels can pass the rows there are: the step
	 * is refused, naming the file, the rows after it unwritten */
	if (b->n < RL_MODELOPS_MAX)
		r = &b->rows[b->n++];
	else if (!b->failed) {
		b->failed = 1;
		rl_err_set(&b->err, RL_ERR_RANGE, "%s: more than %d rows in a step",
		           b->impl != NULL ? b->impl->path : "the model", RL_MODELOPS_MAX);
	}

	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->kind = kind;
	r->count = count;
	return r;
}

/* The rows of the implementation's kernels for component C, each run
 * COUNT times a step (times its own count), with the facts EXTRA beside
 * the step's; 0 when the implementation does not name C for this family
 * (the caller builds its own rows). */
static int impl_rows(struct build *b, enum rl_impl_comp c, uint64_t count, unsigned extra)
{
	const struct rl_impl *im = b->impl;
	size_t i;

	if (im == NULL || !rl_impl_names(im, c, b->family))
		return 0;
	for (i = 0; i < im->nk && !b->failed; i++) {
		const struct rl_impl_kernel *k = &im->k[i];
		struct rl_modelops_row *r, kr;

		if (k->comp != c || k->none || !rl_impl_applies(im, k, b->family, b->have | extra))
			continue;
		if (rl_modelops_kernel_row(k, &b->sym, count, &kr, &b->err) < 0) {
			b->failed = 1;
			return 1;
		}
		/* a count that comes to 0 at this step: the kernel runs no time */
		if (kr.count == 0)
			continue;
		r = add(b, k->name, kr.kind, 1);
		*r = kr;
		/* a product past 2^64 - 1: too_large names this row */
		if ((r->count == UINT64_MAX || r->params == UINT64_MAX) && !b->wrapped) {
			b->wrapped = 1;
			b->wrap_row = b->n - 1;
		}
		if (k->weights)
			r->weight_group = b->group;
	}
	return 1;
}

/* X Y, or UINT64_MAX past 2^64 - 1. */
static uint64_t mul_sat(uint64_t x, uint64_t y)
{
	uint64_t p;

	return rl_mul_u64(x, y, &p) == 0 ? p : UINT64_MAX;
}

int rl_modelops_kernel_row(const struct rl_impl_kernel *k, const struct rl_symbols *sym,
                           uint64_t count, struct rl_modelops_row *r, struct rl_err *err)
{
	uint64_t dims[RL_MAX_DIMS], v;
	size_t used = 0;
	int nd, d;

	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", k->name);
	r->kind = rl_kind_name(k->kind);
	r->comp = (unsigned char)(k->comp + 1);
	v = 1;
	if (k->count[0] && rl_symbols_eval(sym, k->count, "count", &v, NULL, err) < 0)
		return err->code;
	r->count = mul_sat(count, v);
	if (rl_symbols_dims_used(sym, k->shape, dims, NULL, RL_MAX_DIMS, &nd, NULL, err) < 0)
		return err->code;
	for (d = 0; d < nd && used < sizeof(r->shape); d++)
		used += (size_t)snprintf(r->shape + used, sizeof(r->shape) - used, "%s%llu",
		                         d ? "x" : "", (unsigned long long)dims[d]);
	if (k->dtype >= 0)
		r->dtype = rl_dtype_name((enum rl_dtype)k->dtype);
	r->inputs = k->inputs;
	r->fpe = k->fpe;
	r->host_us = k->host_us;
	r->weights = k->weights;
	r->linear = k->weights && !k->conv1d;
	r->activations = k->kind == RL_KIND_MATMUL && !k->weights;
	r->grouped = k->grouped;
	r->strided = k->strided;
	r->causal = k->causal;
	r->kv = k->kv;
	if (k->kv_heads[0] && rl_symbols_eval(sym, k->kv_heads, "kv_heads", &r->kv_heads, NULL,
	                                      err) < 0)
		return err->code;
	if (k->live[0] && rl_symbols_eval(sym, k->live, "live", &r->live, NULL, err) < 0)
		return err->code;
	if (k->bytes[0] && rl_symbols_eval(sym, k->bytes, "bytes", &r->bytes, NULL, err) < 0)
		return err->code;
	if (k->params[0]) {
		if (rl_symbols_eval(sym, k->params, "params", &v, NULL, err) < 0)
			return err->code;
		r->params = mul_sat(r->count, v);
	}
	return 0;
}

static void dims2(struct rl_modelops_row *r, uint64_t a, uint64_t b)
{
	snprintf(r->shape, sizeof(r->shape), "%llux%llu", (unsigned long long)a,
	         (unsigned long long)b);
}

static struct rl_modelops_row *matmul(struct build *b, const char *name, uint64_t m, uint64_t n,
                                      uint64_t k, uint64_t count)
{
	struct rl_modelops_row *r = add(b, name, "matmul", count);

	snprintf(r->shape, sizeof(r->shape), "%llux%llux%llu", (unsigned long long)m,
	         (unsigned long long)n, (unsigned long long)k);
	r->weights = 1;
	r->linear = !b->conv1d;
	r->weight_group = b->group;
	return r;
}

static void pointwise(struct build *b, const char *name, uint64_t t, uint64_t n, unsigned inputs,
                      uint64_t count)
{
	struct rl_modelops_row *r = add(b, name, "pointwise", count);

	dims2(r, t, n);
	r->inputs = inputs;
}

/* A collective of T x N elements per rank over group G: its row, or NULL
 * (none when the group is one GPU). */
static struct rl_modelops_row *collective(struct build *b, const char *name, const char *kind,
                                          uint64_t t, uint64_t n,
                                          const struct rl_parallel_group *g, uint64_t count)
{
	struct rl_modelops_row *r;

	if (g->ranks < 2)
		return NULL;
	r = add(b, name, kind, count);
	dims2(r, t, n);
	r->ranks = g->ranks;
	r->nodes = g->nodes;
	return r;
}

/* The tensor-parallel all-reduce of the T x hidden output of a
 * row-parallel linear (Shoeybi et al. 2019, section 3: the "g" operator):
 * two per layer. With --tp-comm-overlap it runs on the communication
 * stream beside the compute after it (overlap=1), as Megatron-LM's
 * --tp-comm-overlap pipelines it in chunks with the GEMMs around it
 * (Transformer Engine's userbuffers): hidden as far as that compute lasts,
 * never below either (docs/parallel.md). */
static void tp_allreduce(struct build *b, const char *name, uint64_t t, uint64_t hidden,
                         uint64_t count)
{
	struct rl_modelops_row *r;

	if (b->par == NULL)
		return;
	/* sequence parallel: reduce-scattered over the tokens instead, the
	 * same bus bytes as the all-reduce's first half (Korthikanti et al.
	 * 2022, section 4.2.2: the "g-bar" operator) */
	r = collective(b, name, b->par->lay.sp ? "reducescatter" : "allreduce", t, hidden,
	               &b->par->tp, count);
	if (r != NULL)
		r->overlap = b->par->lay.tp_comm_overlap;
}

/* Sequence parallel: the T / tp x hidden tokens of each GPU all-gathered
 * before a column-parallel linear (the "g" operator of section 4.2.2),
 * beside the compute with --tp-comm-overlap as the reduce-scatter. */
static void sp_allgather(struct build *b, const char *name, uint64_t ts, uint64_t hidden,
                         uint64_t count)
{
	struct rl_modelops_row *r;

	if (b->par == NULL || !b->par->lay.sp)
		return;
	r = collective(b, name, "allgather", ts, hidden, &b->par->tp, count);
	if (r != NULL)
		r->overlap = b->par->lay.tp_comm_overlap;
}

/* The last pipeline stage receives its input, T x hidden, from the stage
 * before (Narayanan et al. 2021, section 2.2); with v model chunks a GPU
 * each chunk receives its own, v times a micro-batch (section 2.2.2). */
static void stage_recv(struct build *b, uint64_t t, uint64_t hidden)
{
	if (b->par != NULL && !b->first)
		collective(b, "stage_recv", "sendrecv", t, hidden, &b->par->link,
		           b->par->lay.vstages > 1 ? b->par->lay.vstages : 1);
}

/* The logits: of each sequence's last token at inference; of every token
 * in training, then the loss, cross-entropy as a softmax over the
 * vocabulary (log_softmax and its gather) per token. Tensor parallel: the
 * vocabulary split over the GPUs (padded up to a multiple of tp, as
 * Megatron-LM pads it); at inference the logits all-gathered, in training
 * the vocab-parallel cross-entropy's three all-reduces of one number per
 * token (the maximum, the target's logit, the sum of exponentials). */
static void lm_head(struct build *b, const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                    uint64_t T)
{
	struct rl_modelops_row *r;
	uint64_t V = (c->vocab + b->tp - 1) / b->tp, rows = o->train ? T : o->batch;

	/* an implementation's logits: the rows of its last kernel (hf keeps
	 * every token's at a prefill, logits=all) */
	if (impl_rows(b, RL_IMPL_LOGITS, 1, 0)) {
		uint64_t m = b->n > 0 ? strtoull(b->rows[b->n - 1].shape, NULL, 10) : 0;

		if (m > 0)
			rows = m;
	} else {
		matmul(b, "lm_head", rows, V, c->hidden, 1)->linear = 1; /* nn.Linear, tied or not */
	}
	/* gemma2's final-logit soft-capping, cap x tanh(logits / cap): a
	 * division, the tanh and a multiply an element (3 FLOPs) */
	if (c->softcap_logits > 0) {
		pointwise(b, "logit_softcap", rows, V, 1, 1);
		b->rows[b->n - 1].fpe = 3;
	}
	if (!o->train) {
		if (b->par != NULL)
			collective(b, "lm_head_allgather", "allgather", rows, V, &b->par->tp, 1);
		impl_rows(b, RL_IMPL_SAMPLE, 1, 0);
		return;
	}
	r = add(b, "loss", "softmax", 1);
	snprintf(r->shape, sizeof(r->shape), "%llux%llu", (unsigned long long)T,
	         (unsigned long long)V);
	if (b->par != NULL && b->par->tp.ranks > 1) {
		r = add(b, "loss_allreduce", "allreduce", 3);
		snprintf(r->shape, sizeof(r->shape), "%llu", (unsigned long long)T);
		r->ranks = b->par->tp.ranks;
		r->nodes = b->par->tp.nodes;
	}
}

/* The attention row NAME of COUNT layers of a decoder (causal at prefill,
 * one query over the context at decode), its heads split over the
 * tensor-parallel GPUs, of head dim D, each query seeing at most WINDOW
 * keys (0: all). */
static struct rl_modelops_row *attention(struct build *b, const struct rl_hfconfig *c,
                                         const struct rl_modelops_opts *o, const char *name,
                                         uint64_t count, uint64_t window, uint64_t d)
{
	struct rl_modelops_row *r = add(b, name, "attention", count);
	uint64_t heads = c->heads / b->tp;

	if (o->phase == RL_PHASE_PREFILL) {
		snprintf(r->shape, sizeof(r->shape), "%llux%llux%llux%llu",
		         (unsigned long long)o->batch, (unsigned long long)heads,
		         (unsigned long long)o->seq, (unsigned long long)d);
		r->causal = 1;
	} else {
		snprintf(r->shape, sizeof(r->shape), "%llux%llux1x%llux%llu",
		         (unsigned long long)o->batch, (unsigned long long)heads,
		         (unsigned long long)o->context, (unsigned long long)d);
	}
	r->kv = 1;
	r->window = window;
	return r;
}

static void layernorm(struct build *b, const char *name, uint64_t t, uint64_t n, uint64_t count)
{
	dims2(add(b, name, "layernorm", count), t, n);
}

/* A norm of each layer: the implementation's kernels, else one
 * layernorm row. */
static void norm(struct build *b, const char *name, uint64_t t, uint64_t n, uint64_t count)
{
	hold(b, mul(b, count, b->normw));
	if (!impl_rows(b, RL_IMPL_NORM, count, 0))
		layernorm(b, name, t, n, count);
}

/* A residual add of each layer of INPUTS (2; 3: parallel attention and
 * MLP), a multiply-add with a residual multiplier (granite: 2 FLOPs an
 * element). */
static void residual(struct build *b, const char *name, uint64_t t, uint64_t n, uint64_t count,
                     unsigned inputs)
{
	if (impl_rows(b, RL_IMPL_RESIDUAL, count, 0))
		return;
	pointwise(b, name, t, n, inputs, count);
	if (b->residual_fpe)
		b->rows[b->n - 1].fpe = b->residual_fpe;
}

double rl_modelops_experts_touched(uint64_t experts, uint64_t k, uint64_t tokens)
{
	double e = (double)experts;

	return e * (1.0 - pow(1.0 - (double)k / e, (double)tokens));
}

/* The experts T tokens touch, *ET (the ep GPUs' tokens pooled), the
 * tokens of the busiest, *M, and this GPU's share of the touched, *EL. */
static void moe_sizes(struct build *b, const struct rl_hfconfig *c,
                      const struct rl_modelops_opts *o, uint64_t T, uint64_t *et, uint64_t *m,
                      uint64_t *el)
{
	uint64_t E = c->experts, k = c->experts_per_tok, Tp, Et, M, El;
	double x = o->expert_imbalance >= 1.0 ? o->expert_imbalance : 1.0, mean;

	/* the ep GPUs' tokens pooled */
	Tp = mul(b, T, b->ep);
	Et = (uint64_t)llround(rl_modelops_experts_touched(E, k, Tp));
	if (Et < 1)
		Et = 1;
	if (Et > E)
		Et = E;
	/* the busiest expert's tokens: the mean Tp k / E' scaled by the
	 * imbalance, rounded up (at most Tp: an expert sees a token once) */
	mean = x * (double)mul(b, Tp, k) / (double)Et;
	M = mean >= (double)Tp ? Tp : (uint64_t)ceil(mean - 1e-9);
	if (M < 1)
		M = 1;
	/* this GPU's share of the touched experts */
	El = (uint64_t)llround((double)Et / (double)b->ep);
	if (El < 1)
		El = 1;
	*et = Et;
	*m = M;
	*el = El;
}

/* The sparse MoE block in place of the MLP (see modelops.h). Expert
 * parallel: the ep GPUs of the group pool their tokens (ep x T) and each
 * holds E / ep experts; the routed tokens go to their experts' GPUs and
 * back by two all-to-alls (dispatch and combine, Megatron-Core's
 * alltoall dispatcher). Tensor parallel: each expert's intermediate split
 * as the MLP's, and the combined output all-reduced. */
static void moe(struct build *b, const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                const struct rl_block *blk, uint64_t T, uint64_t L)
{
	const char *wdt = c->expert_dtype && !o->weight_dtype_given
	                          ? rl_dtype_name((enum rl_dtype)(c->expert_dtype - 1))
	                          : NULL;
	uint64_t E = c->experts, k = c->experts_per_tok, H = c->hidden;
	uint64_t I = (c->expert_intermediate ? c->expert_intermediate : c->intermediate) / b->tp;
	uint64_t Is = c->shared_intermediate / b->tp, Tk, Et, El, M;
	struct rl_modelops_row *r;

	moe_sizes(b, c, o, T, &Et, &M, &El);
	matmul(b, "router", T, E, H, L);
	/* group-limited routing (deepseek's n_group, topk_group): each group's
	 * score over its experts' first, then the top k of the groups kept */
	if (c->groups > 1)
		dims2(add(b, "group_topk", "reduction", L), T, E);
	dims2(add(b, "topk", "reduction", L), T, E);
	r = add(b, "gather", "copy", L);
	snprintf(r->shape, sizeof(r->shape), "%llux%llux%llu", (unsigned long long)T,
	         (unsigned long long)k, (unsigned long long)H);
	Tk = mul(b, T, k);
	if (b->par != NULL)
		collective(b, "expert_dispatch", "alltoall", Tk, H, &b->par->ep, L);
	/* every expert's weights stay resident: weight_count L x E / ep, in
	 * the checkpoint's dtype (gpt_oss's mxfp4) unless --weight-dtype says;
	 * gpt_oss's biases (the router's, each expert's two) in the GEMMs'
	 * epilogues */
	if (blk->moe_bias)
		hold(b, mul(b, L, E + E / b->ep * (2 * I + H)));
	r = matmul(b, "expert_gate_up", M, 2 * I, H, L * El);
	r->weight_count = L * (E / b->ep);
	r->weight_dtype = wdt;
	if (wdt != NULL) /* the checkpoint's format carries its own scales */
		r->weight_group = 0;
	pointwise(b, "expert_silu", Tk, I, 1, L);
	pointwise(b, "expert_mul", Tk, I, 2, L);
	r = matmul(b, "expert_down", M, H, I, L * El);
	r->weight_count = L * (E / b->ep);
	r->weight_dtype = wdt;
	if (wdt != NULL)
		r->weight_group = 0;
	if (b->par != NULL)
		collective(b, "expert_combine", "alltoall", Tk, H, &b->par->ep, L);
	/* the shared experts, one gated MLP over every token (qwen2_moe,
	 * deepseek), replicated over the ep GPUs, split over tp as the MLP;
	 * qwen2_moe scales its output by sigmoid(x . g), g of H weights */
	if (Is) {
		matmul(b, "shared_gate_up", T, 2 * Is, H, L);
		pointwise(b, "shared_silu", T, Is, 1, L);
		pointwise(b, "shared_mul", T, Is, 2, L);
		matmul(b, "shared_down", T, H, Is, L);
		if (c->shared_gate) {
			matmul(b, "shared_gate", T, 1, H, L);
			pointwise(b, "shared_scale", T, H, 2, L);
		}
	}
	r = add(b, "combine_weight", "pointwise", L);
	snprintf(r->shape, sizeof(r->shape), "%llux%llux%llu", (unsigned long long)T,
	         (unsigned long long)k, (unsigned long long)H);
	r->inputs = 2;
	/* the sum over the k routed outputs, and the shared experts' */
	r = add(b, "combine_sum", "reduction", L);
	snprintf(r->shape, sizeof(r->shape), "%llux%llux%llu", (unsigned long long)T,
	         (unsigned long long)H, (unsigned long long)(k + (Is ? 1 : 0)));
	tp_allreduce(b, "moe_allreduce", T, H, L);
}

/* With micro-batches, every row runs once per micro-batch (count x m) while
 * the weights are held once (weight_count). */
static void per_microbatch(struct build *b)
{
	uint64_t m = b->par != NULL ? b->par->lay.microbatches : 1;
	int i;

	if (m <= 1)
		return;
	for (i = 0; i < b->n; i++) {
		struct rl_modelops_row *r = &b->rows[i];

		if (r->weights && r->weight_count == 0)
			r->weight_count = r->count;
		if (rl_mul_u64(r->count, m, &r->count) < 0)
			r->count = UINT64_MAX; /* past the reader's bound: check_rows */
	}
}

/* The embedding rows of the first pipeline stage (see family.h's enum
 * rl_block_embed). */
static void embedding(struct build *b, const struct rl_hfconfig *c,
                      const struct rl_modelops_opts *o, const struct rl_block *k, uint64_t T)
{
	struct rl_modelops_row *r;
	uint64_t H = c->hidden;

	if (k->embed == RL_EMBED_PATCHES) {
		r = add(b, "patch_embed", "conv2d", 1);
		snprintf(r->shape, sizeof(r->shape), "%llux%llux%llux%llu",
		         (unsigned long long)o->batch, (unsigned long long)c->channels,
		         (unsigned long long)c->image, (unsigned long long)c->image);
		snprintf(r->kernel, sizeof(r->kernel), "%llux%llux%llu", (unsigned long long)H,
		         (unsigned long long)c->patch, (unsigned long long)c->patch);
		r->stride = c->patch;
		r->weights = 1;
		pointwise(b, "pos_embed", T, H, 2, 1);
		return;
	}
	dims2(add(b, "embed", "copy", 1), T, H);
	if (k->embed == RL_EMBED_TOKENS_POS)
		pointwise(b, "pos_embed", T, H, 2, 1);
	if (k->embed == RL_EMBED_TOKENS_POS_TYPE) {
		pointwise(b, "embed_add", T, H, 3, 1);
		layernorm(b, "embed_norm", T, H, 1);
	}
}

/* The weights of the embedding besides a conv2d's filter (see
 * rl_modelops_weights): the token table (vocabulary-parallel, V / tp
 * rows, as Megatron-LM's VocabParallelEmbedding; none when tied, the
 * lm_head's weight being the table), gpt2's position table, bert's
 * embed_norm, vit's patch bias, class token and positions. */
static uint64_t embed_weights(struct build *b, const struct rl_hfconfig *c,
                              const struct rl_block *k)
{
	uint64_t H = c->hidden, V = (c->vocab + b->tp - 1) / b->tp;

	switch (k->embed) {
	case RL_EMBED_PATCHES: return mul(b, c->tokens + 2, H);
	case RL_EMBED_TOKENS: return k->tied ? 0 : mul(b, V, H);
	case RL_EMBED_TOKENS_POS: return mul(b, (k->tied ? 0 : V) + c->positions, H);
	case RL_EMBED_TOKENS_POS_TYPE:
		return mul(b, (k->tied ? 0 : V) + c->positions + c->token_types, H) + b->normw;
	}
	return 0;
}

/* The facts and sizes an implementation's kernels read (impl.h), for a
 * step of S tokens a sequence, T in all, KVH key-value heads a GPU. */
static int bind(struct build *b, const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                const struct rl_block *k, uint64_t S, uint64_t T, uint64_t kvh)
{
	uint64_t v[RL_IMPL_SYM_COUNT] = {0}, et = 0, em = 0, el;
	int prefill = o->phase == RL_PHASE_PREFILL || !k->decoder, i;

	for (i = 0; rl_families[i] != NULL; i++)
		if (rl_families[i] == rl_family_of(c))
			b->family = i;
	b->have = (prefill ? RL_IMPL_IF_PREFILL : RL_IMPL_IF_DECODE) |
	          (o->train ? RL_IMPL_IF_TRAIN : 0) | (k->norm_bias ? 0 : RL_IMPL_IF_RMS) |
	          (k->mlp == RL_MLP_PLAIN ? 0 : RL_IMPL_IF_GATED) |
	          (k->qkv_bias ? RL_IMPL_IF_BIAS : 0) | (k->decoder ? RL_IMPL_IF_CAUSAL : 0) |
	          (o->batch > 1 ? RL_IMPL_IF_BATCHED : 0);
	if (k->mlp == RL_MLP_MOE)
		moe_sizes(b, c, o, T, &et, &em, &el);
	/* PyTorch sorts up to 4096 keys in one kernel (Sort.h,
	 * should_use_small_sort), more by cub's radix sort */
	if (k->mlp == RL_MLP_MOE && T * c->experts_per_tok > 4096)
		b->have |= RL_IMPL_IF_RADIX;
	if (c->norm_topk)
		b->have |= RL_IMPL_IF_NORM_TOPK;
	v[RL_IMPL_SYM_B] = o->batch;
	v[RL_IMPL_SYM_S] = prefill ? S : 1;
	v[RL_IMPL_SYM_T] = T;
	v[RL_IMPL_SYM_C] = prefill ? S : o->context;
	v[RL_IMPL_SYM_W] = c->window && c->window < v[RL_IMPL_SYM_C] ? c->window : v[RL_IMPL_SYM_C];
	if (c->window && c->window < v[RL_IMPL_SYM_C])
		b->have |= RL_IMPL_IF_WINDOWED;
	if (kvh == 1)
		b->have |= RL_IMPL_IF_MQA;
	v[RL_IMPL_SYM_H] = c->hidden;
	v[RL_IMPL_SYM_I] = c->intermediate / b->tp;
	v[RL_IMPL_SYM_NH] = c->heads / b->tp;
	v[RL_IMPL_SYM_KVH] = kvh;
	v[RL_IMPL_SYM_D] = c->head_dim;
	v[RL_IMPL_SYM_V] = (c->vocab + b->tp - 1) / b->tp;
	v[RL_IMPL_SYM_E] = c->experts;
	v[RL_IMPL_SYM_K] = c->experts_per_tok;
	v[RL_IMPL_SYM_ET] = et;
	v[RL_IMPL_SYM_EM] = em;
	v[RL_IMPL_SYM_EI] = (c->expert_intermediate ? c->expert_intermediate : c->intermediate) / b->tp;
	v[RL_IMPL_SYM_R] = o->train ? T : o->batch;
	v[RL_IMPL_SYM_N] = c->hidden;
	v[RL_IMPL_SYM_LR] = c->kv_lora;
	v[RL_IMPL_SYM_DN] = c->qk_nope;
	v[RL_IMPL_SYM_DR] = c->qk_rope;
	v[RL_IMPL_SYM_DV] = c->v_head_dim ? c->v_head_dim : c->head_dim;
	v[RL_IMPL_SYM_SI] = c->shared_intermediate / b->tp;
	v[RL_IMPL_SYM_G] = c->groups;
	if (rl_impl_bind(&b->sym, v, &b->err) < 0) {
		b->failed = 1;
		return RL_ERR_RANGE;
	}
	return 0;
}

/* A batched matmul NAME of COUNT layers: G x M x N x K, G distinct weight
 * matrices of K x N (a per-head projection). */
static void bmm(struct build *b, const char *name, uint64_t g, uint64_t m, uint64_t n, uint64_t k,
                uint64_t count)
{
	struct rl_modelops_row *r = add(b, name, "matmul", count);

	snprintf(r->shape, sizeof(r->shape), "%llux%llux%llux%llu", (unsigned long long)g,
	         (unsigned long long)m, (unsigned long long)n, (unsigned long long)k);
	r->weights = 1;
	r->weight_group = b->group;
}

/* MLA's norm NAME of the latent (N features): the implementation's norm
 * kernels at that width, else one layernorm row. */
static void latent_norm(struct build *b, const struct rl_hfconfig *c, const char *name,
                        uint64_t T, uint64_t n, uint64_t L)
{
	hold(b, mul(b, L, n));
	rl_impl_rebind(&b->sym, RL_IMPL_SYM_N, n);
	if (!impl_rows(b, RL_IMPL_NORM, L, 0))
		layernorm(b, name, T, n, L);
	rl_impl_rebind(&b->sym, RL_IMPL_SYM_N, c->hidden);
}

/* DeepSeek's multi-head latent attention, up to o_proj (DeepSeek-AI 2024,
 * arXiv:2405.04434, section 2.1; DeepSeek-V3's inference/model.py, MLA):
 * the queries through a rank q_lora_rank (q_a_proj, its RMSNorm q_a_norm,
 * q_b_proj; without it one q_proj) to H heads of qk_nope + qk_rope; the new
 * tokens' latent c_KV of kv_lora_rank and the one rotary key shared by the
 * heads (kv_a_proj, N = kv_lora + qk_rope) and the latent's RMSNorm
 * (kv_a_norm). Then, attn_impl "absorb" (the default): the latent is the
 * cache, kv_lora + qk_rope a token and layer; W^UK is absorbed into each
 * head's query (q_absorb: H x T x kv_lora x qk_nope) and attention runs
 * over the latent as one KV head of D = kv_lora + qk_rope whose first
 * kv_lora channels are V (kv_shared, v_head_dim kv_lora), the output taken
 * back to v_head_dim per head by W^UV (v_absorb: H x T x v_head_dim x
 * kv_lora). "naive": kv_b_proj expands the new tokens' K (qk_nope) and V
 * (v_head_dim) per head, cached so, and attention is multi-head with D =
 * qk_nope + qk_rope and v_head_dim. Tensor parallel: the heads split
 * (q_b_proj, kv_b_proj column-parallel, the absorbed matmuls' heads), the
 * down-projections and the latent replicated. */
static void mla(struct build *b, const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                uint64_t T, uint64_t L)
{
	uint64_t H = c->hidden, NH = c->heads / b->tp, dn = c->qk_nope, dr = c->qk_rope;
	uint64_t dv = c->v_head_dim, r = c->kv_lora, qk = dn + dr;
	struct rl_modelops_row *a;

	if (c->q_lora) {
		matmul(b, "q_a_proj", T, c->q_lora, H, L);
		latent_norm(b, c, "q_a_norm", T, c->q_lora, L);
		matmul(b, "q_b_proj", T, NH * qk, c->q_lora, L);
	} else {
		matmul(b, "q_proj", T, NH * qk, H, L);
	}
	matmul(b, "kv_a_proj", T, r + dr, H, L);
	latent_norm(b, c, "kv_a_norm", T, r, L);
	/* an implementation that names MLA's cache (transformers: the latent
	 * cached, kv_b_proj over the whole cache each step, K and V assembled
	 * for every head): its rotary and cache kernels, then attention over
	 * those K and V (activations: the cache is what its kernels write) */
	if (b->impl != NULL && rl_impl_names(b->impl, RL_IMPL_CACHE, b->family)) {
		impl_rows(b, RL_IMPL_ROTARY, L, 0);
		impl_rows(b, RL_IMPL_CACHE, L, 0);
		a = attention(b, c, o, "attention", L, 0, qk);
		a->v_head_dim = dv;
		a->kv = 0;
		a->kv_rebuilt = 1;
		return;
	}
	if (o->mla_naive) {
		matmul(b, "kv_b_proj", T, NH * (dn + dv), r, L);
		a = attention(b, c, o, "attention", L, 0, qk);
		a->v_head_dim = dv;
		return;
	}
	bmm(b, "q_absorb", NH, T, r, dn, L);
	a = attention(b, c, o, "attention", L, 0, r + dr);
	a->kv_heads = 1;
	a->v_head_dim = r;
	a->kv_shared = 1;
	bmm(b, "v_absorb", NH, T, dv, r, L);
}

/* The q and k norms after the qkv projection (K->qk_norm): over each
 * head's D (T x H x D, T x Hkv x D: qwen3, a weight of D each) or over all
 * the heads at once (T x H D, T x Hkv D: olmo2, a weight of H D and Hkv D;
 * split over tp GPUs the heads are first all-gathered, as vLLM's Olmo2
 * attention does, since each norm needs every head's sum of squares). */
static void qk_norm(struct build *b, const struct rl_hfconfig *c, const struct rl_block *k,
                    uint64_t T, uint64_t kvh, uint64_t L)
{
	uint64_t D = c->head_dim, NH = c->heads / b->tp;
	struct rl_modelops_row *r;

	if (k->qk_norm == RL_QKNORM_NONE)
		return;
	hold(b, mul(b, L, k->qk_norm == RL_QKNORM_HEAD ? 2 * D : (c->heads + c->kv_heads) * D));
	if (impl_rows(b, RL_IMPL_QK_NORM, L, 0))
		return;
	if (k->qk_norm == RL_QKNORM_HEAD) {
		r = add(b, "q_norm", "layernorm", L);
		snprintf(r->shape, sizeof(r->shape), "%llux%llux%llu", (unsigned long long)T,
		         (unsigned long long)NH, (unsigned long long)D);
		r = add(b, "k_norm", "layernorm", L);
		snprintf(r->shape, sizeof(r->shape), "%llux%llux%llu", (unsigned long long)T,
		         (unsigned long long)kvh, (unsigned long long)D);
		return;
	}
	if (b->par != NULL)
		collective(b, "qk_allgather", "allgather", T, (NH + kvh) * D, &b->par->tp, L);
	dims2(add(b, "q_norm", "layernorm", L), T, c->heads * D);
	dims2(add(b, "k_norm", "layernorm", L), T, c->kv_heads * D);
}

/* The dense MLP of COUNT layers (an MoE model's dense layers: gated, of
 * intermediate_size): the implementation's kernels, else up (with its
 * bias), the activation, the gate's mul, down, its all-reduce and bias. */
static void mlp(struct build *b, const struct rl_hfconfig *c, const struct rl_block *k,
                uint64_t T, uint64_t count)
{
	const struct rl_block_names *nm = k->names;
	uint64_t H = c->hidden, I = c->intermediate / b->tp;
	uint64_t up = k->mlp == RL_MLP_PLAIN ? I : 2 * I;

	/* the biases: up's (this GPU's columns) and down's (whole) */
	if (k->mlp_bias)
		hold(b, mul(b, count, up + H));
	if (impl_rows(b, RL_IMPL_MLP, count, 0)) {
		tp_allreduce(b, nm->mlp_allreduce, T, H, count);
		return;
	}
	matmul(b, nm->up, T, up, H, count);
	if (k->mlp_bias)
		pointwise(b, nm->up_bias, T, up, 2, count);
	pointwise(b, nm->act, T, I, 1, count);
	b->rows[b->n - 1].fpe = k->act_fpe;
	if (k->mlp != RL_MLP_PLAIN)
		pointwise(b, "mul", T, I, 2, count);
	matmul(b, nm->down, T, H, I, count);
	tp_allreduce(b, nm->mlp_allreduce, T, H, count);
	if (k->mlp_bias)
		pointwise(b, nm->down_bias, T, H, 2, count);
}

/* Grouped-query attention up to o_proj: the one qkv matmul (N = (H + 2
 * Hkv) D, this GPU's heads), its bias, the q/k norms, an implementation's
 * rotary and cache update, then attention: the full layers' and the
 * sliding layers' (LSW of the L, window keys) in a decoder, an encoder's
 * over its S tokens. */
static void gqa(struct build *b, const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                const struct rl_block *k, uint64_t T, uint64_t S, uint64_t L, uint64_t Lsw)
{
	const struct rl_block_names *nm = k->names;
	/* fewer KV heads than GPUs: one per GPU, replicated tp / Hkv times */
	uint64_t kvh = c->kv_heads >= b->tp ? c->kv_heads / b->tp : 1;
	uint64_t H = c->hidden, qkv = (c->heads / b->tp + 2 * kvh) * c->head_dim;
	struct rl_modelops_row *r;

	if (!impl_rows(b, RL_IMPL_QKV, L, 0))
		matmul(b, nm->qkv, T, qkv, H, L);
	if (k->qkv_bias)
		hold(b, mul(b, L, qkv));
	if (k->qkv_bias && !impl_rows(b, RL_IMPL_QKV_BIAS, L, 0))
		pointwise(b, nm->qkv_bias, T, qkv, 2, L);
	qk_norm(b, c, k, T, kvh, L);
	/* the cache: the full layers' and the sliding layers' (their window) */
	if (k->decoder) {
		impl_rows(b, RL_IMPL_ROTARY, L, 0);
		if (L > Lsw)
			impl_rows(b, RL_IMPL_CACHE, L - Lsw, 0);
		if (Lsw)
			impl_rows(b, RL_IMPL_CACHE, Lsw, RL_IMPL_IF_SLIDING);
	}
	/* gpt_oss's sinks: a logit per head, this GPU's heads */
	if (k->sinks)
		hold(b, mul(b, L, c->heads / b->tp));
	if (b->impl != NULL && rl_impl_names(b->impl, RL_IMPL_ATTENTION, b->family)) {
		/* the implementation's attention: the full layers', then the
		 * sliding layers' (their lines' condition sliding) */
		if (L > Lsw)
			impl_rows(b, RL_IMPL_ATTENTION, L - Lsw, 0);
		if (Lsw)
			impl_rows(b, RL_IMPL_ATTENTION, Lsw, RL_IMPL_IF_SLIDING);
	} else if (k->decoder) {
		/* the full layers', then the sliding layers' (window keys) */
		if (L > Lsw && (r = attention(b, c, o, "attention", L - Lsw, 0, c->head_dim)) &&
		    k->gqa)
			r->kv_heads = kvh;
		if (Lsw &&
		    (r = attention(b, c, o, "sliding_attention", Lsw, c->window, c->head_dim)) &&
		    k->gqa)
			r->kv_heads = kvh;
	} else {
		r = add(b, "attention", "attention", L);
		snprintf(r->shape, sizeof(r->shape), "%llux%llux%llux%llu",
		         (unsigned long long)o->batch, (unsigned long long)(c->heads / b->tp),
		         (unsigned long long)S, (unsigned long long)c->head_dim);
	}
}

/* The step's rows from the block description K of C (family.h), one GPU's
 * share: the embedding, the layer (count = this stage's layers), the
 * final norm and the head. Tensor parallel: the qkv and the MLP's first
 * matmul column-parallel (N / tp, with their biases), o_proj and the MLP's
 * second row-parallel (K / tp), each followed by its all-reduce, then the
 * bias on the whole output; norms, residuals and the pooler replicated. */
static int build(const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                 const struct rl_block *k, struct build *b)
{
	const struct rl_block_names *nm = k->names;
	uint64_t L = b->layers, H = c->hidden, T, Ts, S, kvh, Lsw, Lm;
	int prefill = o->phase == RL_PHASE_PREFILL || !k->decoder, pre, post, impl_o;

	/* an encoder's tokens per sequence: the config's (vit) or --seq */
	S = k->tokens ? k->tokens : o->seq;
	T = prefill ? o->batch * S : o->batch;
	/* sequence parallel: each GPU of the tensor-parallel group holds T /
	 * tp of the tokens outside the attention and the MLP (Korthikanti et
	 * al. 2022, section 4.2.2) */
	Ts = b->par != NULL && b->par->lay.sp ? T / b->tp : T; /* rl_modelops_build's checks */
	/* the KV heads a GPU (gqa's): the implementation's sizes */
	kvh = c->kv_heads >= b->tp ? c->kv_heads / b->tp : 1;
	if (b->impl != NULL && bind(b, c, o, k, S, T, kvh) < 0)
		return RL_ERR_RANGE;
	b->normw = k->norm_bias ? 2 * H : H;
	b->residual_fpe = c->residual_mult > 0 ? 2 : 0;
	/* this stage's layers are the model's last L: how many of them slide,
	 * how many are MoE layers */
	Lsw = c->window ? rl_hfconfig_layers(c, RL_LAYER_SLIDING, c->layers - L, c->layers) : 0;
	Lm = k->mlp == RL_MLP_MOE ? L - rl_hfconfig_layers(c, RL_LAYER_DENSE, c->layers - L, c->layers)
	                          : 0;
	if (b->first)
		hold(b, embed_weights(b, c, k));
	if (b->first && !impl_rows(b, RL_IMPL_EMBED, 1, 0))
		embedding(b, c, o, k, T);
	impl_rows(b, RL_IMPL_MASK, 1, 0);
	impl_rows(b, RL_IMPL_ROPE, 1, 0);
	stage_recv(b, Ts, H);
	pre = k->norm == RL_NORM_PRE || k->norm == RL_NORM_SANDWICH;
	post = k->norm == RL_NORM_SANDWICH || k->norm == RL_NORM_BRANCH;
	if (pre)
		norm(b, nm->norm1, Ts, H, L);
	sp_allgather(b, "attn_allgather", Ts, H, L);
	if (k->attn == RL_ATTN_MLA)
		mla(b, c, o, T, L);
	else
		gqa(b, c, o, k, T, S, L, Lsw);
	if (k->o_bias)
		hold(b, mul(b, L, H));
	impl_o = impl_rows(b, RL_IMPL_O_PROJ, L, 0);
	if (!impl_o)
		matmul(b, nm->o_proj, T, H,
		       c->heads / b->tp * (c->v_head_dim ? c->v_head_dim : c->head_dim), L);
	/* side by side: one all-reduce of both outputs (down_proj's
	 * epilogue adds attention's partial sum), one residual add */
	if (!k->parallel)
		tp_allreduce(b, "attn_allreduce", T, H, L);
	if (k->o_bias && !impl_o)
		pointwise(b, nm->o_bias, Ts, H, 2, L);
	if (!k->parallel) {
		if (post)
			norm(b, nm->post_attn_norm, Ts, H, L);
		residual(b, "attn_residual", Ts, H, L, 2);
	}
	if (k->norm == RL_NORM_POST)
		norm(b, nm->norm1, Ts, H, L);
	else if (pre && !(k->parallel && k->shared_norm))
		norm(b, nm->norm2, Ts, H, L);
	if (!k->parallel)
		sp_allgather(b, "mlp_allgather", Ts, H, L);
	/* the MoE layers', then the dense MLP layers' (an MoE model's first
	 * layers, or those its config names) */
	if (Lm) {
		int routed = impl_rows(b, RL_IMPL_ROUTER, Lm, 0);

		if (impl_rows(b, RL_IMPL_EXPERTS, Lm, 0) || routed)
			tp_allreduce(b, "moe_allreduce", T, H, Lm);
		else
			moe(b, c, o, k, T, Lm);
	}
	if (L > Lm)
		mlp(b, c, k, T, L - Lm);
	if (post)
		norm(b, nm->post_mlp_norm, Ts, H, L);
	residual(b, nm->mlp_residual, Ts, H, L, k->parallel ? 3 : 2);
	if (k->norm == RL_NORM_POST) {
		norm(b, nm->norm2, Ts, H, L);
	} else {
		/* the final norm's weights, and the MTP modules' (held, not run) */
		hold(b, b->normw + (uint64_t)rl_modelops_mtp_weights(c));
		if (!impl_rows(b, RL_IMPL_NORM, 1, RL_IMPL_IF_FINAL))
			layernorm(b, nm->final_norm, Ts, H, 1);
	}
	/* the head takes every token: gathered once more */
	sp_allgather(b, "head_allgather", Ts, H, 1);
	if (k->head == RL_HEAD_LM) {
		lm_head(b, c, o, T);
	} else {
		hold(b, H); /* the pooler's bias */
		matmul(b, "pooler", o->batch, H, H, 1);
		pointwise(b, "pooler_tanh", o->batch, H, 1, 1);
	}
	settle_last(b);
	return b->n;
}

/* One layer's attention weights (block K of C): the projections, their
 * biases, the q/k norms; MLA's down- and up-projections and its two norms. */
static double attn_weights(const struct rl_hfconfig *c, const struct rl_block *k)
{
	double H = (double)c->hidden, D = (double)c->head_dim, NH = (double)c->heads;
	double qkv = (NH + 2.0 * (double)c->kv_heads) * D, w;

	if (k->attn == RL_ATTN_MLA) {
		double ql = (double)c->q_lora, r = (double)c->kv_lora, dr = (double)c->qk_rope;
		double dv = (double)c->v_head_dim;

		w = c->q_lora ? H * ql + ql + ql * NH * D : H * NH * D; /* the queries */
		w += H * (r + dr) + r;                                  /* kv_a_proj, kv_a_norm */
		w += r * NH * ((double)c->qk_nope + dv);                /* kv_b_proj */
		return w + NH * dv * H;                                 /* o_proj */
	}
	w = H * qkv + NH * D * H;
	if (k->sinks)
		w += NH;
	if (k->qkv_bias)
		w += qkv;
	if (k->o_bias)
		w += H;
	if (k->qk_norm == RL_QKNORM_HEAD)
		w += 2.0 * D; /* q_norm and k_norm: one weight per head_dim each */
	if (k->qk_norm == RL_QKNORM_FULL)
		w += (NH + (double)c->kv_heads) * D; /* over all the heads */
	return w;
}

/* One MoE layer's MLP weights: every expert and its router row, the shared
 * experts and their gate. */
static double moe_weights(const struct rl_hfconfig *c, const struct rl_block *k)
{
	double H = (double)c->hidden, E = (double)c->experts;
	double Ie = (double)(c->expert_intermediate ? c->expert_intermediate : c->intermediate);

	return E * (3.0 * H * Ie + H) + 3.0 * H * (double)c->shared_intermediate +
	       (c->shared_gate ? H : 0.0) + (k->moe_bias ? E + E * (2.0 * Ie + H) : 0.0);
}

double rl_modelops_weights(const struct rl_hfconfig *c)
{
	struct rl_block k;
	double H = (double)c->hidden, I = (double)c->intermediate, norm, w = 0, dense, mlp;

	rl_family_block(c, &k);
	norm = k.norm_bias ? 2.0 * H : H;
	dense = k.mlp == RL_MLP_MOE ? (double)rl_hfconfig_layers(c, RL_LAYER_DENSE, 0, c->layers)
	                            : (double)c->layers;
	/* the embedding */
	if (k.embed == RL_EMBED_PATCHES)
		w += H * (double)c->channels * (double)c->patch * (double)c->patch + H /* bias */ +
		     H /* the class token */ + (double)c->tokens * H;
	else
		w += (double)c->vocab * H;
	if (k.embed == RL_EMBED_TOKENS_POS)
		w += (double)c->positions * H;
	if (k.embed == RL_EMBED_TOKENS_POS_TYPE)
		w += ((double)c->positions + (double)c->token_types) * H + norm; /* embed_norm */
	/* each layer: its norms (two; four in a sandwich; one shared by
	 * attention and the MLP side by side), attention */
	w += (double)c->layers *
	     ((k.norm == RL_NORM_SANDWICH ? 4.0 : k.parallel && k.shared_norm ? 1.0 : 2.0) * norm +
	      attn_weights(c, &k));
	/* the MLP of the dense layers, the MoE of the others */
	if (k.mlp == RL_MLP_PLAIN)
		mlp = 2.0 * H * I + (k.mlp_bias ? I + H : 0.0);
	else
		mlp = 3.0 * H * I + (k.mlp_bias ? 2.0 * I + H : 0.0);
	w += dense * mlp;
	if (k.mlp == RL_MLP_MOE)
		w += ((double)c->layers - dense) * moe_weights(c, &k);
	if (k.norm != RL_NORM_POST)
		w += norm; /* the final norm */
	if (k.head == RL_HEAD_LM)
		w += k.tied ? 0.0 : (double)c->vocab * H;
	else
		w += H * H + H; /* the pooler */
	return w;
}

double rl_modelops_mtp_weights(const struct rl_hfconfig *c)
{
	struct rl_block k;
	double H = (double)c->hidden;

	if (c->mtp_layers == 0)
		return 0;
	rl_family_block(c, &k);
	/* enorm, hnorm, eh_proj (2 H -> H), one MoE decoder layer (its two
	 * norms, attention, the MoE), the shared head's norm; the embedding and
	 * the head are the model's */
	return (double)c->mtp_layers *
	       (2.0 * H + 2.0 * H * H + 2.0 * H + attn_weights(c, &k) + moe_weights(c, &k) + H);
}

/* ---- a step too large: which keys and options made it so ----
 *
 * Every row's element counts must fit 64 bits (formulas.c) and its count
 * the reader's 2^53. A row past them is refused here, before any op list
 * is written, in one message naming the config's keys and the options its
 * sizes come from: the op-list reader would report every row of the
 * generated list that the keys make too large, at lines the user never
 * wrote. */

enum {
	S_HIDDEN = 1 << 0,
	S_INTER = 1 << 1,
	S_HEADS = 1 << 2,
	S_KVH = 1 << 3,
	S_HDIM = 1 << 4,
	S_VOCAB = 1 << 5,
	S_EXPERTS = 1 << 6,
	S_TOPK = 1 << 7,
	S_IMAGE = 1 << 8,
	S_PATCH = 1 << 9,
	S_CHAN = 1 << 10,
	S_LAYERS = 1 << 11,
	S_BATCH = 1 << 12,
	S_SEQ = 1 << 13,    /* the prompt's tokens (vit: the image's) */
	S_CONTEXT = 1 << 14,
	S_EP = 1 << 15,
	S_MB = 1 << 16,
	S_SHARED = 1 << 17, /* the shared experts' intermediate */
	S_EINTER = 1 << 18, /* each routed expert's (intermediate_size when not given) */
	S_WINDOW = 1 << 19,
	S_QLORA = 1 << 20,
	S_KVLORA = 1 << 21,
	/* resolved by the step */
	S_TOK = 1 << 22,    /* the tokens: batch, x seq at prefill */
	S_LEN = 1 << 23,    /* attention's keys: seq at prefill, context at decode */
	S_LOGITS = 1 << 24, /* the lm_head's rows: batch, every token in training */
};

/* The sizes each row's shape is made of, by row name (every family's). */
static const struct {
	const char *row;
	unsigned from;
} row_sources[] = {
	{"embed", S_HIDDEN | S_TOK},
	{"pos_embed", S_HIDDEN | S_TOK},
	{"embed_add", S_HIDDEN | S_TOK},
	{"embed_norm", S_HIDDEN | S_TOK},
	{"stage_recv", S_HIDDEN | S_TOK},
	{"attn_norm", S_HIDDEN | S_TOK},
	{"mlp_norm", S_HIDDEN | S_TOK},
	{"final_norm", S_HIDDEN | S_TOK},
	{"ln_1", S_HIDDEN | S_TOK},
	{"ln_2", S_HIDDEN | S_TOK},
	{"ln_f", S_HIDDEN | S_TOK},
	{"ffn_norm", S_HIDDEN | S_TOK},
	{"attn_residual", S_HIDDEN | S_TOK},
	{"mlp_residual", S_HIDDEN | S_TOK},
	{"ffn_residual", S_HIDDEN | S_TOK},
	{"attn_allreduce", S_HIDDEN | S_TOK},
	{"mlp_allreduce", S_HIDDEN | S_TOK},
	{"ffn_allreduce", S_HIDDEN | S_TOK},
	{"moe_allreduce", S_HIDDEN | S_TOK},
	{"qkv_proj", S_HIDDEN | S_HEADS | S_KVH | S_HDIM | S_TOK},
	{"qkv_bias", S_HEADS | S_KVH | S_HDIM | S_TOK},
	{"q_norm", S_HEADS | S_HDIM | S_TOK},
	{"k_norm", S_HEADS | S_KVH | S_HDIM | S_TOK},
	{"o_proj", S_HIDDEN | S_HEADS | S_HDIM | S_TOK},
	{"attention", S_HEADS | S_KVH | S_HDIM | S_BATCH | S_LEN},
	{"sliding_attention", S_HEADS | S_KVH | S_HDIM | S_BATCH | S_LEN | S_WINDOW},
	{"post_attn_norm", S_HIDDEN | S_TOK},
	{"post_mlp_norm", S_HIDDEN | S_TOK},
	{"input_layernorm", S_HIDDEN | S_TOK},
	{"ln_attn", S_HIDDEN | S_TOK},
	{"ln_mlp", S_HIDDEN | S_TOK},
	{"qk_allgather", S_HEADS | S_KVH | S_HDIM | S_TOK},
	{"query_key_value", S_HIDDEN | S_HEADS | S_KVH | S_HDIM | S_TOK},
	{"dense", S_HIDDEN | S_HEADS | S_HDIM | S_TOK},
	{"dense_h_to_4h", S_HIDDEN | S_INTER | S_TOK},
	{"dense_4h_to_h", S_HIDDEN | S_INTER | S_TOK},
	{"gate_up_proj", S_HIDDEN | S_INTER | S_TOK},
	{"gelu_tanh", S_INTER | S_TOK},
	{"logit_softcap", S_VOCAB | S_LOGITS},
	{"shared_gate_up", S_HIDDEN | S_SHARED | S_TOK},
	{"shared_down", S_HIDDEN | S_SHARED | S_TOK},
	{"shared_silu", S_SHARED | S_TOK},
	{"shared_mul", S_SHARED | S_TOK},
	{"shared_gate", S_HIDDEN | S_TOK},
	{"group_topk", S_EXPERTS | S_TOK},
	{"o_bias", S_HIDDEN | S_TOK},
	{"q_a_proj", S_HIDDEN | S_QLORA | S_TOK},
	{"q_a_norm", S_QLORA | S_TOK},
	{"q_b_proj", S_HEADS | S_HDIM | S_QLORA | S_TOK},
	{"q_proj", S_HIDDEN | S_HEADS | S_HDIM | S_TOK},
	{"kv_a_proj", S_HIDDEN | S_KVLORA | S_TOK},
	{"kv_a_norm", S_KVLORA | S_TOK},
	{"kv_b_proj", S_HEADS | S_KVLORA | S_TOK},
	{"q_absorb", S_HEADS | S_KVLORA | S_TOK},
	{"v_absorb", S_HEADS | S_KVLORA | S_TOK},
	{"shared_scale", S_HIDDEN | S_TOK},
	{"qkv", S_HIDDEN | S_TOK},
	{"c_attn", S_HIDDEN | S_TOK},
	{"c_attn_bias", S_HIDDEN | S_TOK},
	{"attn_proj", S_HIDDEN | S_TOK},
	{"attn_proj_bias", S_HIDDEN | S_TOK},
	{"attn_out", S_HIDDEN | S_TOK},
	{"attn_out_bias", S_HIDDEN | S_TOK},
	{"mlp_proj_bias", S_HIDDEN | S_TOK},
	{"ffn_out_bias", S_HIDDEN | S_TOK},
	{"gate_up", S_HIDDEN | S_INTER | S_TOK},
	{"down_proj", S_HIDDEN | S_INTER | S_TOK},
	{"c_fc", S_HIDDEN | S_INTER | S_TOK},
	{"mlp_proj", S_HIDDEN | S_INTER | S_TOK},
	{"ffn_in", S_HIDDEN | S_INTER | S_TOK},
	{"ffn_out", S_HIDDEN | S_INTER | S_TOK},
	{"silu", S_INTER | S_TOK},
	{"mul", S_INTER | S_TOK},
	{"gelu", S_INTER | S_TOK},
	{"c_fc_bias", S_INTER | S_TOK},
	{"ffn_in_bias", S_INTER | S_TOK},
	{"lm_head", S_HIDDEN | S_VOCAB | S_LOGITS},
	{"lm_head_allgather", S_VOCAB | S_LOGITS},
	{"loss", S_VOCAB | S_TOK},
	{"loss_allreduce", S_TOK},
	{"router", S_HIDDEN | S_EXPERTS | S_TOK},
	{"topk", S_EXPERTS | S_TOK},
	{"gather", S_HIDDEN | S_TOPK | S_TOK},
	{"expert_dispatch", S_HIDDEN | S_TOPK | S_TOK},
	{"expert_combine", S_HIDDEN | S_TOPK | S_TOK},
	{"combine_weight", S_HIDDEN | S_TOPK | S_TOK},
	{"combine_sum", S_HIDDEN | S_TOPK | S_TOK},
	{"expert_gate_up", S_HIDDEN | S_EINTER | S_EXPERTS | S_TOPK | S_TOK | S_EP},
	{"expert_down", S_HIDDEN | S_EINTER | S_EXPERTS | S_TOPK | S_TOK | S_EP},
	{"expert_silu", S_EINTER | S_TOPK | S_TOK},
	{"expert_mul", S_EINTER | S_TOPK | S_TOK},
	{"patch_embed", S_HIDDEN | S_BATCH | S_CHAN | S_IMAGE | S_PATCH},
	{"pooler", S_HIDDEN | S_BATCH},
	{"pooler_tanh", S_HIDDEN | S_BATCH},
};

int rl_modelops_row_known(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(row_sources) / sizeof(row_sources[0]); i++)
		if (strcmp(row_sources[i].row, name) == 0)
			return 1;
	return 0;
}

/* FROM's sizes resolved to the keys of C's family (its block K) and the
 * options of O. */
static unsigned resolve(unsigned from, const struct rl_hfconfig *c,
                        const struct rl_modelops_opts *o, const struct rl_block *k)
{
	int prefill = o->phase == RL_PHASE_PREFILL || !k->decoder;

	if (from & S_LOGITS)
		from |= o->train ? S_TOK : S_BATCH;
	if (from & S_TOK)
		from |= S_BATCH | (prefill ? S_SEQ : 0);
	if (from & S_LEN)
		from |= prefill ? S_SEQ : S_CONTEXT;
	/* a head_dim not given is hidden / heads */
	if ((from & S_HDIM) && (!k->gqa || c->head_dim == c->hidden / c->heads))
		from = (from & ~(unsigned)S_HDIM) | S_HIDDEN | S_HEADS;
	if (!k->gqa || c->kv_heads == c->heads)
		from &= ~(unsigned)S_KVH;
	if ((from & S_EINTER) && !c->expert_intermediate)
		from = (from & ~(unsigned)S_EINTER) | S_INTER;
	if ((from & S_SEQ) && k->tokens)
		from = (from & ~(unsigned)S_SEQ) | S_IMAGE | S_PATCH;
	return from & ((unsigned)S_TOK - 1);
}

/* Appends to BUF the sizes of FROM over 1 (a factor of 1 makes nothing too
 * large), "a, b and c"; returns how many. */
static int name_sources(char *buf, size_t len, unsigned from, const struct rl_hfconfig *c,
                        const struct rl_modelops_opts *o)
{
	const struct rl_family_keys *key = &rl_family_of(c)->sizes;
	const struct rl_parallel_place *par = o->par;
	const struct {
		unsigned bit;
		const char *name;
		uint64_t v;
	} s[] = {
		{S_HIDDEN, key->hidden, c->hidden},
		{S_INTER, key->intermediate, c->intermediate},
		{S_HEADS, key->heads, c->heads},
		{S_KVH, "num_key_value_heads", c->kv_heads},
		{S_HDIM, c->qk_rope ? "qk_nope_head_dim + qk_rope_head_dim" : "head_dim",
		 c->head_dim},
		{S_VOCAB, "vocab_size", c->vocab},
		{S_EXPERTS, "num_local_experts", c->experts},
		{S_TOPK, "num_experts_per_tok", c->experts_per_tok},
		{S_IMAGE, "image_size", c->image},
		{S_PATCH, "patch_size", c->patch},
		{S_CHAN, "num_channels", c->channels},
		{S_LAYERS, key->layers, c->layers},
		{S_BATCH, "--batch", o->batch},
		{S_SEQ, "--seq", o->seq},
		{S_CONTEXT, "context", o->context},
		{S_EP, "--ep", par != NULL ? par->lay.ep : 1},
		{S_MB, "--microbatches", par != NULL ? par->lay.microbatches : 1},
		{S_SHARED, "shared_expert_intermediate_size", c->shared_intermediate},
		{S_EINTER, "moe_intermediate_size", c->expert_intermediate},
		{S_WINDOW, "sliding_window", c->window},
		{S_QLORA, "q_lora_rank", c->q_lora},
		{S_KVLORA, "kv_lora_rank", c->kv_lora},
	};
	size_t i, used = strlen(buf);
	int n = 0, total = 0;

	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if ((from & s[i].bit) && s[i].v > 1)
			total++;
	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		if (!(from & s[i].bit) || s[i].v < 2)
			continue;
		n++;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s %llu",
			                         n == 1 ? "" : n == total ? " and " : ", ", s[i].name,
			                         (unsigned long long)s[i].v);
	}
	return n;
}

/* The largest count the reader takes (oplist.c: where double precision
 * stops counting exactly). */
#define MAX_COUNT (1ull << 53)

/* The message of row R, too large for WHY ("the matmul operand has more
 * than 2^64 elements"): what made it so, first. */
static int too_large(const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                     const struct rl_modelops_row *r, unsigned from, const char *why,
                     struct rl_err *err)
{
	struct rl_block k;
	char keys[320];
	size_t i;
	int n;

	rl_family_block(c, &k);
	keys[0] = '\0';
	for (i = 0; i < sizeof(row_sources) / sizeof(row_sources[0]); i++)
		if (strcmp(row_sources[i].row, r->name) == 0)
			from |= row_sources[i].from;
	n = name_sources(keys, sizeof(keys), resolve(from, c, o, &k), c, o);
	return rl_err_set(err, RL_ERR_RANGE, "%s: %s%s the step's %s (%s %s) too large: %s",
	                  c->name != NULL ? c->name : "config", keys,
	                  n == 0 ? "the sizes make" : n == 1 ? " makes" : " make", r->name, r->kind,
	                  r->shape, why);
}

/* Row R of step O as an op, as the reader makes it from the row's cells
 * (its shape, dtype, kernel, collective group; not its count). Returns 0,
 * or -1 for a row the reader would refuse (it names it). */
static int row_op(const struct rl_modelops_row *r, const struct rl_modelops_opts *o,
                  struct rl_op *op)
{
	struct rl_err e;

	rl_op_init(op);
	if (rl_kind_parse(r->kind, &op->kind) < 0 ||
	    rl_parse_dims(r->shape, op->dims, RL_MAX_DIMS, &op->ndims, &e) < 0)
		return -1;
	op->has |= RL_HAS_SHAPE;
	op->dtype = o->dtype;
	if (r->dtype != NULL && rl_dtype_parse(r->dtype, &op->dtype) < 0)
		return -1;
	op->causal = r->causal;
	op->kv_heads = r->kv_heads;
	op->window = r->window;
	op->v_head_dim = r->v_head_dim;
	op->kv_shared = r->kv_shared;
	if (r->inputs)
		op->inputs = r->inputs;
	if (r->kernel[0]) {
		int nk;

		if (rl_parse_dims(r->kernel, op->kernel, 3, &nk, &e) < 0 || nk != 3)
			return -1;
		op->has |= RL_HAS_KERNEL;
		op->stride = r->stride;
	}
	if (r->ranks) {
		op->ranks = r->ranks;
		op->nodes = r->nodes;
		op->has |= RL_HAS_RANKS | RL_HAS_NODES;
	}
	op->overlap = r->overlap;
	return 0;
}

double rl_modelops_comp_bytes(const struct rl_modelops_row *rows, int n,
                              const struct rl_modelops_opts *o, int comp)
{
	double total = 0, f, by;
	struct rl_err e;
	struct rl_op op;
	int i;

	for (i = 0; i < n; i++) {
		if (rows[i].comp != comp + 1 || row_op(&rows[i], o, &op) < 0)
			continue;
		if (rows[i].bytes)
			by = (double)rows[i].bytes;
		else if (rl_op_work(&op, &f, &by, &e) < 0)
			continue;
		total += (double)rows[i].count * by;
	}
	return total;
}

/* Checks ROWS (N) as the op-list reader will: element counts within 64
 * bits, counts within 2^53. */
static int check_rows(const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                      const struct build *b, struct rl_err *err)
{
	int i;

	if (b->wrapped)
		return too_large(c, o, &b->rows[b->wrap_row], 0, "a size passes 2^64 - 1", err);
	for (i = 0; i < b->n; i++) {
		const struct rl_modelops_row *r = &b->rows[i];
		struct rl_op op;
		struct rl_err e;
		double f, by;

		if (r->weight_group && rl_parse_dims(r->shape, op.dims, RL_MAX_DIMS, &op.ndims, &e) == 0 &&
		    op.ndims >= 3 && op.dims[op.ndims - 1] % r->weight_group != 0)
			return rl_err_set(err, RL_ERR_ARG,
			                  "%s: --weight-group %llu does not divide the K of the step's %s "
			                  "(matmul %s): the groups run along the reduction",
			                  c->name != NULL ? c->name : "config",
			                  (unsigned long long)r->weight_group, r->name, r->shape);
		if (r->count > MAX_COUNT || r->weight_count > MAX_COUNT)
			return too_large(c, o, r, S_LAYERS | S_EXPERTS | S_EP | S_MB,
			                 "it runs more than 2^53 times", err);
		if (row_op(r, o, &op) < 0)
			continue; /* the reader names it */
		e.code = 0;
		/* a shape error but a size's is the reader's to name, at its line */
		if (rl_op_work(&op, &f, &by, &e) == RL_ERR_RANGE)
			return too_large(c, o, r, 0,
			                 strncmp(e.msg, "shape: ", 7) == 0 ? e.msg + 7 : e.msg, err);
	}
	return 0;
}

static int build_step(const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                      struct rl_modelops_row *rows, struct rl_err *err)
{
	struct build b;
	struct rl_modelops_opts mo = *o;
	const struct rl_parallel_place *par = o->par;
	const struct rl_family *f = rl_family_of(c);
	struct rl_block k;
	int n;

	/* every size is at most 2^24 (hfconfig's keys and the options): no
	 * product of three wraps */
	if (o->batch > RL_MODELOPS_MAX_SIZE || o->seq > RL_MODELOPS_MAX_SIZE ||
	    o->context > RL_MODELOPS_MAX_SIZE || o->batch == 0 || o->seq == 0 || o->context == 0)
		return rl_err_set(err, RL_ERR_RANGE, "batch, seq and context must be from 1 to %u",
		                  RL_MODELOPS_MAX_SIZE);
	/* train.c refuses them at the first matmul, a line of the generated
	 * list */
	if (o->train && rl_dtype_storage_only(o->weight_dtype))
		return rl_err_set(err, RL_ERR_ARG,
		                  "%s weights train frozen only: a training step needs weights it "
		                  "can update",
		                  rl_dtype_name(o->weight_dtype));
	if (!(f->phases & RL_FAMILY_DECODE) && o->phase != RL_PHASE_PREFILL)
		return rl_err_set(err, RL_ERR_ARG,
		                  "model_type %s is an encoder: --phase decode does not apply "
		                  "(prefill only)",
		                  c->model_type);
	if (!(f->phases & RL_FAMILY_TRAIN) && o->train)
		return rl_err_set(err, RL_ERR_ARG, "model_type %s has no training step",
		                  c->model_type);
	memset(&b, 0, sizeof(b));
	b.rows = rows;
	b.tp = b.ep = 1;
	b.layers = c->layers;
	b.first = 1;
	if (par != NULL) {
		struct rl_parallel lay = par->lay;
		int rc;

		if ((rc = rl_parallel_check_model(&lay, c, err)) < 0)
			return rc;
		if (par->micro_batch < 1 || par->batch * lay.dp != o->batch)
			return rl_err_set(err, RL_ERR_ARG,
			                  "the layout was placed for another batch");
		b.par = par;
		b.tp = lay.tp;
		b.ep = lay.ep;
		b.layers = par->stage_layers;
		b.first = lay.pp == 1;
		mo.batch = par->micro_batch;
	}
	b.impl = o->impl;
	b.group = o->weight_group;
	rl_family_block(c, &k);
	b.conv1d = k.conv1d;
	if (par != NULL && par->lay.sp) {
		uint64_t S = k.tokens ? k.tokens : mo.seq;
		uint64_t T = mo.phase == RL_PHASE_PREFILL || !k.decoder ? mo.batch * S : mo.batch;

		if (o->impl != NULL && strcmp(o->impl->id, "fused") != 0)
			return rl_err_set(err, RL_ERR_ARG,
			                  "--sp: sequence parallelism is Megatron's fused block: not "
			                  "with --impl %s",
			                  o->impl->id);
		if (T % b.tp != 0)
			return rl_err_set(err, RL_ERR_ARG,
			                  "--sp: the step's %llu tokens (a micro-batch's) do not split "
			                  "over tp %llu",
			                  (unsigned long long)T, (unsigned long long)b.tp);
	}
	n = build(c, &mo, &k, &b);
	if (b.failed)
		return rl_err_set(err, b.err.code < 0 ? b.err.code : RL_ERR_RANGE, "%s%s%s",
		                  o->impl != NULL ? o->impl->path : "", o->impl != NULL ? ": " : "",
		                  b.err.msg);
	if (n < 0)
		return n;
	per_microbatch(&b);
	return check_rows(c, o, &b, err) < 0 ? RL_ERR_RANGE : n;
}

/* A decode step's rows whose shapes follow the context (attention over the
 * cache, the cache's update, a mask over the keys) run at input shapes new
 * to the process every step, since the context grows by a token a step:
 * the step built again one token later tells them apart, row by row. The
 * first of a row's calls at the new shape is fresh (a library's plan or
 * cache for it: host_extra_us); the row's other layers find it made. Only
 * under an implementation that names its kernels (PyTorch's libraries plan
 * per shape): the fused ideal's kernels take any length as it comes. */
static void mark_fresh(const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                       struct rl_modelops_row *rows, int n)
{
	struct rl_modelops_opts next = *o;
	struct rl_modelops_row *later;
	struct rl_err e;
	int i;

	if (o->phase != RL_PHASE_DECODE || o->train || o->context >= RL_MODELOPS_MAX_SIZE ||
	    o->impl == NULL || o->impl->nk == 0)
		return;
	later = malloc(sizeof(*later) * RL_MODELOPS_MAX);
	if (later == NULL)
		return;
	next.context = o->context + 1;
	if (build_step(c, &next, later, &e) == n)
		for (i = 0; i < n; i++)
			if (strcmp(rows[i].name, later[i].name) == 0 &&
			    strcmp(rows[i].shape, later[i].shape) != 0)
				rows[i].fresh = 1;
	free(later);
}

int rl_modelops_build(const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                      struct rl_modelops_row *rows, struct rl_err *err)
{
	int n = build_step(c, o, rows, err);

	if (n > 0)
		mark_fresh(c, o, rows, n);
	return n;
}
