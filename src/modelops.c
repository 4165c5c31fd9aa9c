/* modelops.c - the op list of one step of a transformer (see modelops.h). */
#include "config.h"

#include "modelops.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct build {
	struct rl_modelops_row *rows;
	int n;
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

/* The logits: of each sequence's last token at inference; of every token
 * in training, then the loss, cross-entropy as a softmax over the
 * vocabulary (log_softmax and its gather) per token. */
static void lm_head(struct build *b, const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                    uint64_t T)
{
	struct rl_modelops_row *r;

	matmul(b, "lm_head", o->train ? T : o->batch, c->vocab, c->hidden, 1);
	if (!o->train)
		return;
	r = add(b, "loss", "softmax", 1);
	snprintf(r->shape, sizeof(r->shape), "%llux%llu", (unsigned long long)T,
	         (unsigned long long)c->vocab);
}

static void pointwise(struct build *b, const char *name, uint64_t t, uint64_t n, unsigned inputs,
                      uint64_t count)
{
	struct rl_modelops_row *r = add(b, name, "pointwise", count);

	dims2(r, t, n);
	r->inputs = inputs;
}

/* The attention row of a decoder (causal at prefill, one query over the
 * context at decode). */
static struct rl_modelops_row *attention(struct build *b, const struct rl_hfconfig *c,
                                         const struct rl_modelops_opts *o)
{
	struct rl_modelops_row *r = add(b, "attention", "attention", c->layers);

	if (o->phase == RL_PHASE_PREFILL) {
		snprintf(r->shape, sizeof(r->shape), "%llux%llux%llux%llu",
		         (unsigned long long)o->batch, (unsigned long long)c->heads,
		         (unsigned long long)o->seq, (unsigned long long)c->head_dim);
		r->causal = 1;
	} else {
		snprintf(r->shape, sizeof(r->shape), "%llux%llux1x%llux%llu",
		         (unsigned long long)o->batch, (unsigned long long)c->heads,
		         (unsigned long long)o->context, (unsigned long long)c->head_dim);
	}
	r->kv = 1;
	return r;
}

static void layernorm(struct build *b, const char *name, uint64_t t, uint64_t n, uint64_t count)
{
	dims2(add(b, name, "layernorm", count), t, n);
}

/* The GPT-2 block (see modelops.h). */
static int build_gpt2(const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                      struct build *b, uint64_t T)
{
	uint64_t L = c->layers, H = c->hidden, I = c->intermediate;

	dims2(add(b, "embed", "copy", 1), T, H);
	pointwise(b, "pos_embed", T, H, 2, 1);
	layernorm(b, "ln_1", T, H, L);
	matmul(b, "c_attn", T, 3 * H, H, L);
	pointwise(b, "c_attn_bias", T, 3 * H, 2, L);
	attention(b, c, o);
	matmul(b, "attn_proj", T, H, H, L);
	pointwise(b, "attn_proj_bias", T, H, 2, L);
	pointwise(b, "attn_residual", T, H, 2, L);
	layernorm(b, "ln_2", T, H, L);
	matmul(b, "c_fc", T, I, H, L);
	pointwise(b, "c_fc_bias", T, I, 2, L);
	pointwise(b, "gelu", T, I, 1, L);
	b->rows[b->n - 1].fpe = 14;
	matmul(b, "mlp_proj", T, H, I, L);
	pointwise(b, "mlp_proj_bias", T, H, 2, L);
	pointwise(b, "mlp_residual", T, H, 2, L);
	layernorm(b, "ln_f", T, H, 1);
	lm_head(b, c, o, T);
	return b->n;
}

/* The bert and vit encoders (see modelops.h); S tokens per sequence. */
static int build_encoder(const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                         struct build *b, uint64_t S)
{
	uint64_t L = c->layers, H = c->hidden, I = c->intermediate, T = o->batch * S;
	int vit = c->family == RL_HF_VIT;
	struct rl_modelops_row *r;

	if (vit) {
		r = add(b, "patch_embed", "conv2d", 1);
		snprintf(r->shape, sizeof(r->shape), "%llux%llux%llux%llu",
		         (unsigned long long)o->batch, (unsigned long long)c->channels,
		         (unsigned long long)c->image, (unsigned long long)c->image);
		snprintf(r->kernel, sizeof(r->kernel), "%llux%llux%llu", (unsigned long long)H,
		         (unsigned long long)c->patch, (unsigned long long)c->patch);
		r->stride = c->patch;
		r->weights = 1;
		pointwise(b, "pos_embed", T, H, 2, 1);
	} else {
		dims2(add(b, "embed", "copy", 1), T, H);
		pointwise(b, "embed_add", T, H, 3, 1);
		layernorm(b, "embed_norm", T, H, 1);
	}
	if (vit)
		layernorm(b, "ln_1", T, H, L);
	matmul(b, "qkv", T, 3 * H, H, L);
	pointwise(b, "qkv_bias", T, 3 * H, 2, L);
	r = add(b, "attention", "attention", L);
	snprintf(r->shape, sizeof(r->shape), "%llux%llux%llux%llu", (unsigned long long)o->batch,
	         (unsigned long long)c->heads, (unsigned long long)S,
	         (unsigned long long)c->head_dim);
	matmul(b, "attn_out", T, H, H, L);
	pointwise(b, "attn_out_bias", T, H, 2, L);
	pointwise(b, "attn_residual", T, H, 2, L);
	layernorm(b, vit ? "ln_2" : "attn_norm", T, H, L);
	matmul(b, "ffn_in", T, I, H, L);
	pointwise(b, "ffn_in_bias", T, I, 2, L);
	pointwise(b, "gelu", T, I, 1, L);
	b->rows[b->n - 1].fpe = 14;
	matmul(b, "ffn_out", T, H, I, L);
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

/* The sparse MoE block in place of the MLP (see modelops.h). */
static void moe(struct build *b, const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                uint64_t T)
{
	uint64_t L = c->layers, E = c->experts, k = c->experts_per_tok, H = c->hidden;
	uint64_t I = c->intermediate, Et, M;
	double x = o->expert_imbalance >= 1.0 ? o->expert_imbalance : 1.0;
	struct rl_modelops_row *r;

	Et = (uint64_t)llround(rl_modelops_experts_touched(E, k, T));
	if (Et < 1)
		Et = 1;
	if (Et > E)
		Et = E;
	/* the busiest expert's tokens: the mean T k / E' scaled by the
	 * imbalance, rounded up (at most T: an expert sees a token once) */
	M = (uint64_t)ceil(x * (double)(T * k) / (double)Et - 1e-9);
	if (M < 1)
		M = 1;
	if (M > T)
		M = T;
	matmul(b, "router", T, E, H, L);
	dims2(add(b, "topk", "reduction", L), T, E);
	r = add(b, "gather", "copy", L);
	snprintf(r->shape, sizeof(r->shape), "%llux%llux%llu", (unsigned long long)T,
	         (unsigned long long)k, (unsigned long long)H);
	/* every expert's weights stay resident: weight_count L x E */
	matmul(b, "expert_gate_up", M, 2 * I, H, L * Et)->weight_count = L * E;
	pointwise(b, "expert_silu", T * k, I, 1, L);
	pointwise(b, "expert_mul", T * k, I, 2, L);
	matmul(b, "expert_down", M, H, I, L * Et)->weight_count = L * E;
	r = add(b, "combine_weight", "pointwise", L);
	snprintf(r->shape, sizeof(r->shape), "%llux%llux%llu", (unsigned long long)T,
	         (unsigned long long)k, (unsigned long long)H);
	r->inputs = 2;
	r = add(b, "combine_sum", "reduction", L);
	snprintf(r->shape, sizeof(r->shape), "%llux%llux%llu", (unsigned long long)T,
	         (unsigned long long)H, (unsigned long long)k);
}

int rl_modelops_build(const struct rl_hfconfig *c, const struct rl_modelops_opts *o,
                      struct rl_modelops_row *rows, struct rl_err *err)
{
	struct build b = {rows, 0};
	struct rl_modelops_row *r;
	uint64_t L = c->layers, T, qkv = (c->heads + 2 * c->kv_heads) * c->head_dim;
	int prefill = o->phase == RL_PHASE_PREFILL;

	/* every size is at most 2^24 (hfconfig's keys and the options): no
	 * product of three wraps */
	if (o->batch > RL_MODELOPS_MAX_SIZE || o->seq > RL_MODELOPS_MAX_SIZE ||
	    o->context > RL_MODELOPS_MAX_SIZE || o->batch == 0 || o->seq == 0 || o->context == 0)
		return rl_err_set(err, RL_ERR_RANGE, "batch, seq and context must be from 1 to %u",
		                  RL_MODELOPS_MAX_SIZE);
	if (c->encoder && !prefill)
		return rl_err_set(err, RL_ERR_ARG,
		                  "model_type %s is an encoder: --phase decode does not apply "
		                  "(prefill only)",
		                  c->model_type);
	if (c->family == RL_HF_VIT)
		return build_encoder(c, o, &b, c->tokens);
	if (c->family == RL_HF_BERT)
		return build_encoder(c, o, &b, o->seq);
	T = prefill ? o->batch * o->seq : o->batch;
	if (c->family == RL_HF_GPT2)
		return build_gpt2(c, o, &b, T);

	r = add(&b, "embed", "copy", 1);
	dims2(r, T, c->hidden);
	r = add(&b, "attn_norm", "layernorm", L);
	dims2(r, T, c->hidden);
	matmul(&b, "qkv_proj", T, qkv, c->hidden, L);
	if (c->attention_bias)
		pointwise(&b, "qkv_bias", T, qkv, 2, L);
	r = add(&b, "attention", "attention", L);
	if (prefill) {
		snprintf(r->shape, sizeof(r->shape), "%llux%llux%llux%llu",
		         (unsigned long long)o->batch, (unsigned long long)c->heads,
		         (unsigned long long)o->seq, (unsigned long long)c->head_dim);
		r->causal = 1;
	} else {
		snprintf(r->shape, sizeof(r->shape), "%llux%llux1x%llux%llu",
		         (unsigned long long)o->batch, (unsigned long long)c->heads,
		         (unsigned long long)o->context, (unsigned long long)c->head_dim);
	}
	r->kv_heads = c->kv_heads;
	r->kv = 1;
	matmul(&b, "o_proj", T, c->hidden, c->heads * c->head_dim, L);
	pointwise(&b, "attn_residual", T, c->hidden, 2, L);
	r = add(&b, "mlp_norm", "layernorm", L);
	dims2(r, T, c->hidden);
	if (c->experts > 0)
		moe(&b, c, o, T);
	else {
		matmul(&b, "gate_up", T, 2 * c->intermediate, c->hidden, L);
		pointwise(&b, "silu", T, c->intermediate, 1, L);
		pointwise(&b, "mul", T, c->intermediate, 2, L);
		matmul(&b, "down_proj", T, c->hidden, c->intermediate, L);
	}
	pointwise(&b, "mlp_residual", T, c->hidden, 2, L);
	r = add(&b, "final_norm", "layernorm", 1);
	dims2(r, T, c->hidden);
	lm_head(&b, c, o, T);
	return b.n;
}
