/* family_olmo2.c - olmo2 (OLMo 2): the Llama block with its norms moved
 * onto the sub-blocks' outputs (post_attention_layernorm on attention's,
 * post_feedforward_layernorm on the MLP's, each before its residual add;
 * no norm before either) and q_norm and k_norm, RMSNorms over all the
 * query heads at once (H D) and all the key heads (Hkv D) after the
 * projection (Olmo2Attention in transformers' modeling_olmo2.py). */
#include "config.h"

#include "family.h"

static int read_olmo2(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	return rl_family_read_llama(r, c, 0);
}

static const struct rl_block_names olmo2_names = {
	.norm1 = "post_attn_norm",
	.qkv = "qkv_proj",
	.qkv_bias = "qkv_bias",
	.o_proj = "o_proj",
	.post_attn_norm = "post_attn_norm",
	.norm2 = "post_mlp_norm",
	.up = "gate_up",
	.act = "silu",
	.down = "down_proj",
	.mlp_allreduce = "mlp_allreduce",
	.post_mlp_norm = "post_mlp_norm",
	.mlp_residual = "mlp_residual",
	.final_norm = "final_norm",
};

static void olmo2_block(const struct rl_hfconfig *c, struct rl_block *b)
{
	rl_family_llama_block(c, b);
	b->names = &olmo2_names;
	b->norm = RL_NORM_BRANCH;
	b->qk_norm = RL_QKNORM_FULL;
}

static const char *const olmo2_types[] = {"olmo2", NULL};

const struct rl_family rl_family_olmo2 = {
	.name = "olmo2",
	.model_types = olmo2_types,
	.keys = rl_family_llama_keys, /* read by rl_family_read_llama */
	.sizes = {"hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_LLAMA,
	.phases = RL_FAMILY_DECODE | RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP,
	.read = read_olmo2,
	.block = olmo2_block,
};
