/* family_qwen2.c - qwen2 (Qwen2, Qwen2.5): the Llama block with a bias on
 * the q, k and v projections (attention_bias true unless the config says
 * otherwise). */
#include "config.h"

#include "family.h"

static int read_qwen2(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	return rl_family_read_llama(r, c, 1);
}

static const char *const qwen2_types[] = {"qwen2", NULL};

const struct rl_family rl_family_qwen2 = {
	.name = "qwen2",
	.model_types = qwen2_types,
	.keys = rl_family_llama_keys, /* read by rl_family_read_llama */
	.sizes = {"hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_LLAMA,
	.phases = RL_FAMILY_DECODE | RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP,
	.read = read_qwen2,
	.block = rl_family_llama_block,
};
