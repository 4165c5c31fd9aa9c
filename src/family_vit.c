/* family_vit.c - vit: bert's first four keys (no vocab_size), image_size,
 * patch_size (divides image_size) and num_channels (default 3); an encoder
 * with LayerNorm before attention and the MLP, a patch embedding (a
 * conv2d) and (image / patch)^2 + 1 tokens per image in place of --seq. */
#include "config.h"

#include "family.h"

static int read_vit(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	uint64_t side;
	int rc = rl_family_read_encoder(r, c);

	if (rc == 0)
		rc = rl_hfconfig_size(r, "image_size", 0, &c->image);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "patch_size", 0, &c->patch);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "num_channels", 3, &c->channels);
	if (rc == 0)
		rc = rl_hfconfig_mha(r, "num_attention_heads", c);
	if (rc < 0)
		return rc;
	if (c->image % c->patch != 0)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'patch_size': %llu does not divide image_size %llu",
		                  r->name, (unsigned long long)c->patch,
		                  (unsigned long long)c->image);
	side = c->image / c->patch;
	if (side > 4095)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'image_size': (image_size / patch_size)^2 + 1 tokens "
		                  "pass 16777216",
		                  r->name);
	c->tokens = side * side + 1;
	return 0;
}

static const struct rl_block_names vit_names = {
	.norm1 = "ln_1",
	.qkv = "qkv",
	.qkv_bias = "qkv_bias",
	.o_proj = "attn_out",
	.o_bias = "attn_out_bias",
	.norm2 = "ln_2",
	.up = "ffn_in",
	.up_bias = "ffn_in_bias",
	.act = "gelu",
	.down = "ffn_out",
	.mlp_allreduce = "ffn_allreduce",
	.down_bias = "ffn_out_bias",
	.mlp_residual = "ffn_residual",
	.final_norm = "ln_f",
};

static void vit_block(const struct rl_hfconfig *c, struct rl_block *b)
{
	b->names = &vit_names;
	b->embed = RL_EMBED_PATCHES;
	b->norm = RL_NORM_PRE;
	b->norm_bias = 1;
	b->qkv_bias = b->o_bias = b->mlp_bias = 1;
	b->mlp = RL_MLP_PLAIN;
	b->act_fpe = 14;
	b->head = RL_HEAD_POOLER;
	b->tokens = c->tokens;
}

static const char *const vit_types[] = {"vit", NULL};

static const char *const vit_keys[] = {
	"hidden_size", "num_attention_heads", "num_hidden_layers", "intermediate_size",
	"image_size",  "patch_size",          "num_channels",      NULL};

const struct rl_family rl_family_vit = {
	.name = "vit",
	.model_types = vit_types,
	.keys = vit_keys,
	.sizes = {"hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_VIT,
	.phases = RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP,
	.read = read_vit,
	.block = vit_block,
};
