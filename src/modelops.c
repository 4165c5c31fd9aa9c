/* modelops.c - the op list of one step of a transformer (see modelops.h). */
#include "config.h"

#include "modelops.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The rows so far and the layout they are one GPU's share of (every
 * degree 1 without one). */
struct build {
	struct rl_modelops_row *rows;
	int n;
	uint64_t tp, ep;
	uint64_t layers;                     /* this GPU's: the last pipeline stage's */
	int first;                           /* the stage holds the embedding (pp 1) */
	const struct rl_parallel_place *par; /* NULL: one GPU */
};

static struct rl_modelops_row *add(struct build *b, const char *name, const char *kind,
                                   uint64_t count)
{
	struct rl_modelops_row *r = &b->rows[b->n++];

	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->kind = kind;
	r->count = count;
	return r;
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
	return r;
}

static void pointwise(struct build *b, const char *name, uint64_t t, uint64_t n, unsigned inputs,
                      uint64_t count)
{
	struct rl_modelops_row *r = add(b, name, "pointwise", count);

	dims2(r, t, n);
	r->inputs = inputs;
}

/* A collective of T x N elements per rank over group G (none when the
 * group is one GPU). */
static void collective(struct build *b, const char *name, const char *kind, uint64_t t, uint64_t n,
                       const struct rl_parallel_group *g, uint64_t count)
{
	struct rl_modelops_row *r;

	if (g->ranks < 2)
		return;
	r = add(b, name, kind, count);
	dims2(r, t, n);
	r->ranks = g->ranks;
	r->nodes = g->nodes;
}

/* The tensor-parallel all-reduce of the T x hidden output of a
 * row-parallel linear (Shoeybi et al. 2019, section 3: the "g" operator):
 * two per layer. */
static void tp_allreduce(struct build *b, const char *name, uint64_t t, uint64_t hidden)
{
	if (b->par != NULL)
		collective(b, name, "allreduce", t, hidden, &b->par->tp, b->layers);
}

/* The last pipeline stage receives its input, T x hidden, from the stage
 * before (Narayanan et al. 2021, section 2.2). */
static void stage_recv(struct build *b, uint64_t t, uint64_t hidden)
{
	if (b->par != NULL && !b->first)
		collective(b, "stage_recv", "sendrecv", t, hidden, &b->par->link, 1);
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
	uint64_t V = (c->vocab + b->tp - 1) / b->tp;

	matmul(b, "lm_head", o->train ? T : o->batch, V, c->hidden, 1);
	if (!o->train) {
		if (b->par != NULL)
			collective(b, "lm_head_allgather", "allgather", o->batch, V, &b->par->tp,
			           1);
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

/* The attention row of a decoder (causal at prefill, one query over the
 * context at decode), its heads split over the tensor-parallel GPUs. */
static struct rl_modelops_row *attention(struct build *b, const struct rl_hfconfig *c,
                                         const struct rl_modelops_opts *o)
{
	struct rl_modelops_row *r = add(b, "attention", "attention", b->layers);
	uint64_t heads = c->heads / b->tp;

	if (o->phase == RL_PHASE_PREFILL) {
		snprintf(r->shape, sizeof(r->shape), "%llux%llux%llux%llu",
		         (unsigned long long)o->batch, (unsigned long long)heads,
		         (unsigned long long)o->seq, (unsigned long long)c->head_dim);
		r->causal = 1;
	} else {
		snprintf(r->shape, sizeof(r->shape), "%llux%llux1x%llux%llu",
		         (unsigned long long)o->batch, (unsigned long long)heads,
		         (unsigned long long)o->context, (unsigned long long)c->head_dim);
	}
	r->kv = 1;
	return r;
}

static void layernorm(struct build *b, const char *name, uint64_t t, uint64_t n, uint64_t count)
{
	dims2(add(b, name, "layernorm", count), t, n);
}

/* The GPT-2 block (see modelops.h). Tensor parallel: c_attn and c_fc
 * column-parallel (N / tp, with their biases), attn_proj and mlp_proj
 * row-parallel (K / tp) and each followed by its all-reduce, then the bias
 * on the whole output. */
static int build_gpt2(const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                      struct build *b, uint64_t T)
{
	uint64_t L = b->layers, H = c->hidden, I = c->intermediate / b->tp, Hs = H / b->tp;

	if (b->first) {
		dims2(add(b, "embed", "copy", 1), T, H);
		pointwise(b, "pos_embed", T, H, 2, 1);
	}
	stage_recv(b, T, H);
	layernorm(b, "ln_1", T, H, L);
	matmul(b, "c_attn", T, 3 * Hs, H, L);
	pointwise(b, "c_attn_bias", T, 3 * Hs, 2, L);
	attention(b, c, o);
	matmul(b, "attn_proj", T, H, Hs, L);
	tp_allreduce(b, "attn_allreduce", T, H);
	pointwise(b, "attn_proj_bias", T, H, 2, L);
	pointwise(b, "attn_residual", T, H, 2, L);
	layernorm(b, "ln_2", T, H, L);
	matmul(b, "c_fc", T, I, H, L);
	pointwise(b, "c_fc_bias", T, I, 2, L);
	pointwise(b, "gelu", T, I, 1, L);
	b->rows[b->n - 1].fpe = 14;
	matmul(b, "mlp_proj", T, H, I, L);
	tp_allreduce(b, "mlp_allreduce", T, H);
	pointwise(b, "mlp_proj_bias", T, H, 2, L);
	pointwise(b, "mlp_residual", T, H, 2, L);
	layernorm(b, "ln_f", T, H, 1);
	lm_head(b, c, o, T);
	return b->n;
}

/* The bert and vit encoders (see modelops.h); S tokens per sequence. Tensor
 * parallel as GPT-2's block; the pooler is replicated. */
static int build_encoder(const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                         struct build *b, uint64_t S)
{
	uint64_t L = b->layers, H = c->hidden, I = c->intermediate / b->tp, T = o->batch * S;
	uint64_t Hs = H / b->tp;
	int vit = c->family == RL_HF_VIT;
	struct rl_modelops_row *r;

	if (vit && b->first) {
		r = add(b, "patch_embed", "conv2d", 1);
		snprintf(r->shape, sizeof(r->shape), "%llux%llux%llux%llu",
		         (unsigned long long)o->batch, (unsigned long long)c->channels,
		         (unsigned long long)c->image, (unsigned long long)c->image);
		snprintf(r->kernel, sizeof(r->kernel), "%llux%llux%llu", (unsigned long long)H,
		         (unsigned long long)c->patch, (unsigned long long)c->patch);
		r->stride = c->patch;
		r->weights = 1;
		pointwise(b, "pos_embed", T, H, 2, 1);
	} else if (b->first) {
		dims2(add(b, "embed", "copy", 1), T, H);
		pointwise(b, "embed_add", T, H, 3, 1);
		layernorm(b, "embed_norm", T, H, 1);
	}
	stage_recv(b, T, H);
	if (vit)
		layernorm(b, "ln_1", T, H, L);
	matmul(b, "qkv", T, 3 * Hs, H, L);
	pointwise(b, "qkv_bias", T, 3 * Hs, 2, L);
	r = add(b, "attention", "attention", L);
	snprintf(r->shape, sizeof(r->shape), "%llux%llux%llux%llu", (unsigned long long)o->batch,
	         (unsigned long long)(c->heads / b->tp), (unsigned long long)S,
	         (unsigned long long)c->head_dim);
	matmul(b, "attn_out", T, H, Hs, L);
	tp_allreduce(b, "attn_allreduce", T, H);
	pointwise(b, "attn_out_bias", T, H, 2, L);
	pointwise(b, "attn_residual", T, H, 2, L);
	layernorm(b, vit ? "ln_2" : "attn_norm", T, H, L);
	matmul(b, "ffn_in", T, I, H, L);
	pointwise(b, "ffn_in_bias", T, I, 2, L);
	pointwise(b, "gelu", T, I, 1, L);
	b->rows[b->n - 1].fpe = 14;
	matmul(b, "ffn_out", T, H, I, L);
	tp_allreduce(b, "ffn_allreduce", T, H);
	pointwise(b, "ffn_out_bias", T, H, 2, L);
	pointwise(b, "ffn_residual", T, H, 2, L);
	if (!vit)
		layernorm(b, "ffn_norm", T, H, L);
	else
		layernorm(b, "ln_f", T, H, 1);
	matmul(b, "pooler", o->batch, H, H, 1);
	pointwise(b, "pooler_tanh", o->batch, H, 1, 1);
	return b->n;
}

double rl_modelops_experts_touched(uint64_t experts, uint64_t k, uint64_t tokens)
{
	double e = (double)experts;

	return e * (1.0 - pow(1.0 - (double)k / e, (double)tokens));
}

/* The sparse MoE block in place of the MLP (see modelops.h). Expert
 * parallel: the ep GPUs of the group pool their tokens (ep x T) and each
 * holds E / ep experts; the routed tokens go to their experts' GPUs and
 * back by two all-to-alls (dispatch and combine, Megatron-Core's
 * alltoall dispatcher). Tensor parallel: each expert's intermediate split
 * as the MLP's, and the combined output all-reduced. */
static void moe(struct build *b, const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                uint64_t T)
{
	uint64_t L = b->layers, E = c->experts, k = c->experts_per_tok, H = c->hidden;
	uint64_t I = c->intermediate / b->tp, Tp = T * b->ep, Et, El, M;
	double x = o->expert_imbalance >= 1.0 ? o->expert_imbalance : 1.0;
	struct rl_modelops_row *r;

	Et = (uint64_t)llround(rl_modelops_experts_touched(E, k, Tp));
	if (Et < 1)
		Et = 1;
	if (Et > E)
		Et = E;
	/* the busiest expert's tokens: the mean Tp k / E' scaled by the
	 * imbalance, rounded up (at most Tp: an expert sees a token once) */
	M = (uint64_t)ceil(x * (double)(Tp * k) / (double)Et - 1e-9);
	if (M < 1)
		M = 1;
	if (M > Tp)
		M = Tp;
	/* this GPU's share of the touched experts */
	El = (uint64_t)llround((double)Et / (double)b->ep);
	if (El < 1)
		El = 1;
	matmul(b, "router", T, E, H, L);
	dims2(add(b, "topk", "reduction", L), T, E);
	r = add(b, "gather", "copy", L);
	snprintf(r->shape, sizeof(r->shape), "%llux%llux%llu", (unsigned long long)T,
	         (unsigned long long)k, (unsigned long long)H);
	if (b->par != NULL)
		collective(b, "expert_dispatch", "alltoall", T * k, H, &b->par->ep, L);
	/* every expert's weights stay resident: weight_count L x E / ep */
	matmul(b, "expert_gate_up", M, 2 * I, H, L * El)->weight_count = L * (E / b->ep);
	pointwise(b, "expert_silu", T * k, I, 1, L);
	pointwise(b, "expert_mul", T * k, I, 2, L);
	matmul(b, "expert_down", M, H, I, L * El)->weight_count = L * (E / b->ep);
	if (b->par != NULL)
		collective(b, "expert_combine", "alltoall", T * k, H, &b->par->ep, L);
	r = add(b, "combine_weight", "pointwise", L);
	snprintf(r->shape, sizeof(r->shape), "%llux%llux%llu", (unsigned long long)T,
	         (unsigned long long)k, (unsigned long long)H);
	r->inputs = 2;
	r = add(b, "combine_sum", "reduction", L);
	snprintf(r->shape, sizeof(r->shape), "%llux%llux%llu", (unsigned long long)T,
	         (unsigned long long)H, (unsigned long long)k);
	tp_allreduce(b, "moe_allreduce", T, H);
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
		r->count *= m;
	}
}

static int build(const struct rl_hfconfig *c, const struct rl_modelops_opts *o, struct build *b)
{
	struct rl_modelops_row *r;
	uint64_t L = b->layers, T, kvh, qkv;
	int prefill = o->phase == RL_PHASE_PREFILL;

	if (c->family == RL_HF_VIT)
		return build_encoder(c, o, b, c->tokens);
	if (c->family == RL_HF_BERT)
		return build_encoder(c, o, b, o->seq);
	T = prefill ? o->batch * o->seq : o->batch;
	if (c->family == RL_HF_GPT2)
		return build_gpt2(c, o, b, T);

	/* fewer KV heads than GPUs: one per GPU, replicated tp / Hkv times */
	kvh = c->kv_heads >= b->tp ? c->kv_heads / b->tp : 1;
	qkv = (c->heads / b->tp + 2 * kvh) * c->head_dim;
	if (b->first) {
		r = add(b, "embed", "copy", 1);
		dims2(r, T, c->hidden);
	}
	stage_recv(b, T, c->hidden);
	r = add(b, "attn_norm", "layernorm", L);
	dims2(r, T, c->hidden);
	matmul(b, "qkv_proj", T, qkv, c->hidden, L);
	if (c->attention_bias)
		pointwise(b, "qkv_bias", T, qkv, 2, L);
	attention(b, c, o)->kv_heads = kvh;
	matmul(b, "o_proj", T, c->hidden, c->heads / b->tp * c->head_dim, L);
	tp_allreduce(b, "attn_allreduce", T, c->hidden);
	pointwise(b, "attn_residual", T, c->hidden, 2, L);
	r = add(b, "mlp_norm", "layernorm", L);
	dims2(r, T, c->hidden);
	if (c->experts > 0)
		moe(b, c, o, T);
	else {
		uint64_t I = c->intermediate / b->tp;

		matmul(b, "gate_up", T, 2 * I, c->hidden, L);
		pointwise(b, "silu", T, I, 1, L);
		pointwise(b, "mul", T, I, 2, L);
		matmul(b, "down_proj", T, c->hidden, I, L);
		tp_allreduce(b, "mlp_allreduce", T, c->hidden);
	}
	pointwise(b, "mlp_residual", T, c->hidden, 2, L);
	r = add(b, "final_norm", "layernorm", 1);
	dims2(r, T, c->hidden);
	lm_head(b, c, o, T);
	return b->n;
}

int rl_modelops_build(const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                      struct rl_modelops_row *rows, struct rl_err *err)
{
	struct build b;
	struct rl_modelops_opts mo = *o;
	const struct rl_parallel_place *par = o->par;
	int n;

	/* every size is at most 2^24 (hfconfig's keys and the options): no
	 * product of three wraps */
	if (o->batch > RL_MODELOPS_MAX_SIZE || o->seq > RL_MODELOPS_MAX_SIZE ||
	    o->context > RL_MODELOPS_MAX_SIZE || o->batch == 0 || o->seq == 0 || o->context == 0)
		return rl_err_set(err, RL_ERR_RANGE, "batch, seq and context must be from 1 to %u",
		                  RL_MODELOPS_MAX_SIZE);
	if (c->encoder && o->phase != RL_PHASE_PREFILL)
		return rl_err_set(err, RL_ERR_ARG,
		                  "model_type %s is an encoder: --phase decode does not apply "
		                  "(prefill only)",
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
	n = build(c, &mo, &b);
	if (n >= 0)
		per_microbatch(&b);
	return n;
}
