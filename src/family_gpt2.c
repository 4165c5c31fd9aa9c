/* family_gpt2.c - gpt2: n_embd, n_head, n_layer, n_inner (absent or null:
 * 4 x n_embd), vocab_size, n_positions; LayerNorm before attention and the
 * MLP, multi-head attention, biases on every linear, the GELU MLP, the
 * lm_head tied to the token embedding. */
#include "config.h"

#include "family.h"

static int read_gpt2(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	int rc;

	c->tie_embeddings = 1;
	c->attention_bias = 1;
	rc = rl_hfconfig_size(r, "n_embd", 0, &c->hidden);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "n_head", 0, &c->heads);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "n_layer", 0, &c->layers);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "vocab_size", 0, &c->vocab);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "n_positions", 0, &c->positions);
	if (rc == 0 && c->hidden > RL_HFCONFIG_MAX / 4 && !rl_hfconfig_has(r, "n_inner"))
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'n_inner' is missing and 4 x n_embd passes 16777216",
		                  r->name);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "n_inner", 4 * c->hidden, &c->intermediate);
	if (rc == 0)
		rc = rl_hfconfig_mha(r, "n_head", c);
	return rc;
}

static const struct rl_block_names gpt2_names = {
	.norm1 = "ln_1",
	.qkv = "c_attn",
	.qkv_bias = "c_attn_bias",
	.o_proj = "attn_proj",
	.o_bias = "attn_proj_bias",
	.norm2 = "ln_2",
	.up = "c_fc",
	.up_bias = "c_fc_bias",
	.act = "gelu",
	.down = "mlp_proj",
	.mlp_allreduce = "mlp_allreduce",
	.down_bias = "mlp_proj_bias",
	.mlp_residual = "mlp_residual",
	.final_norm = "ln_f",
};

static void gpt2_block(const struct rl_hfconfig *c, struct rl_block *b)
{
	(void)c;
	b->names = &gpt2_names;
	b->embed = RL_EMBED_TOKENS_POS;
	b->norm = RL_NORM_PRE;
	b->norm_bias = 1;
	b->qkv_bias = b->o_bias = b->mlp_bias = 1;
	b->decoder = 1;
	b->mlp = RL_MLP_PLAIN;
	b->act_fpe = 14; /* the tanh form, as import maps aten::gelu */
	b->head = RL_HEAD_LM;
	b->tied = 1;
	b->conv1d = 1;
}

static const char *const gpt2_types[] = {"gpt2", NULL};

static const char *const gpt2_keys[] = {"n_embd",      "n_head",  "n_layer", "vocab_size",
                                        "n_positions", "n_inner", NULL};

const struct rl_family rl_family_gpt2 = {
	.name = "gpt2",
	.model_types = gpt2_types,
	.keys = gpt2_keys,
	.sizes = {"n_embd", "n_inner", "n_head", "n_layer"},
	.tag = RL_HF_GPT2,
	.phases = RL_FAMILY_DECODE | RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP,
	.read = read_gpt2,
	.block = gpt2_block,
};
