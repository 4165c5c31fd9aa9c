/* family_phi3.c - phi3 (Phi-3, Phi-3.5, Phi-4): the Llama block with q, k
 * and v in one projection (qkv_proj) and the MLP's gate and up in one
 * (gate_up_proj), as Phi3Attention and Phi3MLP hold them (transformers'
 * modeling_phi3.py), and, when sliding_window is given, a sliding window
 * of that many keys on every layer. */
#include "config.h"

#include "family.h"

static int read_phi3(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	int rc = rl_family_read_llama(r, c, 0);

	if (rc == 0 && rl_hfconfig_has(r, "sliding_window")) {
		rc = rl_hfconfig_size(r, "sliding_window", 0, &c->window);
		c->layer_all = RL_LAYER_SLIDING;
	}
	return rc;
}

static const struct rl_block_names phi3_names = {
	.norm1 = "attn_norm",
	.qkv = "qkv_proj",
	.qkv_bias = "qkv_bias",
	.o_proj = "o_proj",
	.norm2 = "mlp_norm",
	.up = "gate_up_proj",
	.act = "silu",
	.down = "down_proj",
	.mlp_allreduce = "mlp_allreduce",
	.mlp_residual = "mlp_residual",
	.final_norm = "final_norm",
};

static void phi3_block(const struct rl_hfconfig *c, struct rl_block *b)
{
	rl_family_llama_block(c, b);
	b->names = &phi3_names;
}

static const char *const phi3_types[] = {"phi3", NULL};

static const char *const phi3_keys[] = {
	RL_FAMILY_LLAMA_KEYS,
	"sliding_window",
	NULL};

const struct rl_family rl_family_phi3 = {
	.name = "phi3",
	.model_types = phi3_types,
	.keys = phi3_keys,
	.sizes = {"hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_LLAMA,
	.phases = RL_FAMILY_DECODE | RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP,
	.read = read_phi3,
	.block = phi3_block,
};
