/* family_granite.c - granite (IBM Granite 3): the Llama block with four
 * scalar multipliers (GraniteModel in transformers' modeling_granite.py):
 * embedding_multiplier on the token rows, residual_multiplier on each
 * sub-block's output before its residual add (the add becomes a
 * multiply-add: 2 FLOPs an element), attention_multiplier in place of
 * 1 / sqrt(head_dim) (no work of its own), logits_scaling dividing the
 * logits (in the lm_head's epilogue, no row); a bias on the MLP's linears
 * when mlp_bias. */
#include "config.h"

#include "family.h"

static int read_granite(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	double attn;
	int rc = rl_family_read_llama(r, c, 0), bias;

	if (rc == 0)
		rc = rl_hfconfig_bool(r, "mlp_bias", 0, &bias);
	if (rc == 0)
		rc = rl_hfconfig_number(r, "embedding_multiplier", 0, &c->embed_mult);
	if (rc == 0)
		rc = rl_hfconfig_number(r, "residual_multiplier", 0, &c->residual_mult);
	if (rc == 0)
		rc = rl_hfconfig_number(r, "attention_multiplier", 0, &attn);
	if (rc == 0)
		rc = rl_hfconfig_number(r, "logits_scaling", 0, &c->logits_div);
	c->mlp_bias = rc == 0 && bias;
	return rc;
}

static const struct rl_block_names granite_names = {
	.norm1 = "attn_norm",
	.qkv = "qkv_proj",
	.qkv_bias = "qkv_bias",
	.o_proj = "o_proj",
	.norm2 = "mlp_norm",
	.up = "gate_up",
	.up_bias = "gate_up_bias",
	.act = "silu",
	.down = "down_proj",
	.mlp_allreduce = "mlp_allreduce",
	.down_bias = "down_proj_bias",
	.mlp_residual = "mlp_residual",
	.final_norm = "final_norm",
};

static void granite_block(const struct rl_hfconfig *c, struct rl_block *b)
{
	rl_family_llama_block(c, b);
	b->names = &granite_names;
	b->mlp_bias = c->mlp_bias;
}

static const char *const granite_types[] = {"granite", NULL};

static const char *const granite_keys[] = {
	RL_FAMILY_LLAMA_KEYS,
	"mlp_bias",
	"embedding_multiplier",
	"residual_multiplier",
	"attention_multiplier",
	"logits_scaling",
	NULL};

const struct rl_family rl_family_granite = {
	.name = "granite",
	.model_types = granite_types,
	.keys = granite_keys,
	.sizes = {"hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_LLAMA,
	.phases = RL_FAMILY_DECODE | RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP,
	.read = read_granite,
	.block = granite_block,
};
