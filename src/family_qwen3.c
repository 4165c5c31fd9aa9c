/* family_qwen3.c - qwen3 (the dense Qwen3 models): the Llama block with an
 * RMSNorm over each head's head_dim on the queries and on the keys after
 * the projection (q_norm, k_norm: Qwen3Attention in transformers'
 * modeling_qwen3.py), head_dim given explicitly (128: not hidden / heads in
 * the small models), no bias on q, k, v unless attention_bias says so. */
#include "config.h"

#include "family.h"

static int read_qwen3(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	return rl_family_read_llama(r, c, 0);
}

static void qwen3_block(const struct rl_hfconfig *c, struct rl_block *b)
{
	rl_family_llama_block(c, b);
	b->qk_norm = RL_QKNORM_HEAD;
}

static const char *const qwen3_types[] = {"qwen3", NULL};

const struct rl_family rl_family_qwen3 = {
	.name = "qwen3",
	.model_types = qwen3_types,
	.keys = rl_family_llama_keys, /* read by rl_family_read_llama */
	.sizes = {"hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_LLAMA,
	.phases = RL_FAMILY_DECODE | RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP,
	.read = read_qwen3,
	.block = qwen3_block,
};
