/* family_gemma2.c - gemma2 (Gemma 2): grouped-query attention of head_dim
 * 256 with its logits soft-capped (attn_logit_softcapping), layers that
 * alternate a sliding window of sliding_window keys with full attention
 * (layer_types; without it the even layers slide, Gemma2Config's
 * default), RMSNorm before and after each sub-block (input_layernorm,
 * post_attention_layernorm, pre_feedforward_layernorm,
 * post_feedforward_layernorm: four a layer), the gated MLP with GELU's tanh
 * form (GeGLU), the token embedding scaled by sqrt(hidden_size) and tied
 * to the lm_head, whose logits are soft-capped (final_logit_softcapping):
 * transformers' modeling_gemma2.py. The reader is shared with gemma3. */
#include "config.h"

#include "family.h"

#include <math.h>

int rl_family_read_gemma(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c,
                         uint64_t pattern)
{
	uint64_t i;
	int rc = rl_family_read_llama(r, c, 0), typed;

	/* Gemma ties the lm_head to the embedding unless told otherwise */
	if (rc == 0 && !rl_hfconfig_has(r, "tie_word_embeddings"))
		c->tie_embeddings = 1;
	if (rc == 0)
		rc = rl_hfconfig_size(r, "sliding_window", 0, &c->window);
	if (rc == 0)
		rc = rl_hfconfig_number(r, "attn_logit_softcapping", 0, &c->softcap_attn);
	if (rc == 0)
		rc = rl_hfconfig_number(r, "final_logit_softcapping", 0, &c->softcap_logits);
	if (rc < 0)
		return rc;
	/* Gemma's embedding: the rows times sqrt(hidden_size) */
	c->embed_mult = sqrt((double)c->hidden);
	if ((typed = rl_hfconfig_layer_types(r, c)) < 0)
		return typed;
	if (typed)
		return 0;
	/* no layer_types: layer i slides unless (i + 1) is a multiple of the
	 * pattern (2: gemma2's alternation; gemma3's sliding_window_pattern) */
	if (rl_hfconfig_layered(r, "sliding_window", c) < 0)
		return RL_ERR_PARSE;
	for (i = 0; i < c->layers; i++)
		rl_hfconfig_mark(c, i, (i + 1) % pattern != 0 ? RL_LAYER_SLIDING : 0);
	return 0;
}

static int read_gemma2(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	return rl_family_read_gemma(r, c, 2);
}

static const struct rl_block_names gemma_names = {
	.norm1 = "attn_norm",
	.qkv = "qkv_proj",
	.qkv_bias = "qkv_bias",
	.o_proj = "o_proj",
	.post_attn_norm = "post_attn_norm",
	.norm2 = "mlp_norm",
	.up = "gate_up",
	.act = "gelu_tanh",
	.down = "down_proj",
	.mlp_allreduce = "mlp_allreduce",
	.post_mlp_norm = "post_mlp_norm",
	.mlp_residual = "mlp_residual",
	.final_norm = "final_norm",
};

void rl_family_gemma_block(const struct rl_hfconfig *c, struct rl_block *b)
{
	rl_family_llama_block(c, b);
	b->names = &gemma_names;
	b->norm = RL_NORM_SANDWICH;
	b->act_fpe = 14; /* gelu_pytorch_tanh: GELU's tanh form */
}

static const char *const gemma2_types[] = {"gemma2", NULL};

static const char *const gemma2_keys[] = {
	RL_FAMILY_LLAMA_KEYS,
	"sliding_window",
	"attn_logit_softcapping",
	"final_logit_softcapping",
	"layer_types",
	NULL};

const struct rl_family rl_family_gemma2 = {
	.name = "gemma2",
	.model_types = gemma2_types,
	.keys = gemma2_keys,
	.sizes = {"hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_LLAMA,
	.phases = RL_FAMILY_DECODE | RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP,
	.read = read_gemma2,
	.block = rl_family_gemma_block,
};
