/* family_falcon.c - falcon (Falcon 7B, 40B, 180B): LayerNorm, GELU's plain
 * MLP (dense_h_to_4h of ffn_hidden_size, default 4 x hidden_size, and
 * dense_4h_to_h), attention and the MLP side by side on the same input
 * with one residual add of both (parallel_attn, or
 * new_decoder_architecture), the lm_head tied to the embedding
 * (transformers' modeling_falcon.py, FalconDecoderLayer). The key-value
 * heads: num_kv_heads with new_decoder_architecture (grouped), else one
 * (multi_query) or every head. One norm feeds both sub-blocks
 * (input_layernorm), but two (ln_attn, ln_mlp) with
 * new_decoder_architecture unless num_ln_in_parallel_attn is 1; without
 * parallel_attn the block is sequential, post_attention_layernorm before
 * the MLP. A bias on every linear when bias. */
#include "config.h"

#include "family.h"

static int read_falcon(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	int rc, mq, arch, par, bias;
	uint64_t lns, kvh;

	rc = rl_hfconfig_size(r, "hidden_size", 0, &c->hidden);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "num_attention_heads", 0, &c->heads);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "num_hidden_layers", 0, &c->layers);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "vocab_size", 0, &c->vocab);
	if (rc == 0)
		rc = rl_hfconfig_bool(r, "multi_query", 1, &mq);
	if (rc == 0)
		rc = rl_hfconfig_bool(r, "new_decoder_architecture", 0, &arch);
	if (rc == 0)
		rc = rl_hfconfig_bool(r, "parallel_attn", 1, &par);
	if (rc == 0)
		rc = rl_hfconfig_bool(r, "bias", 0, &bias);
	if (rc == 0)
		rc = rl_hfconfig_bool(r, "tie_word_embeddings", 1, &c->tie_embeddings);
	if (rc == 0 && c->hidden > RL_HFCONFIG_MAX / 4 && !rl_hfconfig_has(r, "ffn_hidden_size"))
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'ffn_hidden_size' is missing and 4 x hidden_size passes "
		                  "16777216",
		                  r->name);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "ffn_hidden_size", 4 * c->hidden, &c->intermediate);
	if (rc == 0)
		rc = rl_hfconfig_mha(r, "num_attention_heads", c);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "num_kv_heads", c->heads, &kvh);
	if (rc == 0)
		c->kv_heads = arch ? kvh : mq ? 1 : c->heads;
	if (rc == 0)
		rc = rl_hfconfig_size(r, "num_ln_in_parallel_attn", arch ? 2 : 1, &lns);
	if (rc < 0)
		return rc;
	if (c->heads % c->kv_heads != 0)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'num_kv_heads': %llu does not divide "
		                  "num_attention_heads %llu",
		                  r->name, (unsigned long long)c->kv_heads,
		                  (unsigned long long)c->heads);
	c->attention_bias = c->mlp_bias = bias;
	c->parallel = par || arch;
	c->shared_norm = lns == 1;
	return 0;
}

static const struct rl_block_names falcon_names = {
	.norm1 = "input_layernorm",
	.qkv = "query_key_value",
	.qkv_bias = "query_key_value_bias",
	.o_proj = "dense",
	.o_bias = "dense_bias",
	.norm2 = "post_attention_layernorm",
	.up = "dense_h_to_4h",
	.up_bias = "dense_h_to_4h_bias",
	.act = "gelu",
	.down = "dense_4h_to_h",
	.mlp_allreduce = "mlp_allreduce",
	.down_bias = "dense_4h_to_h_bias",
	.mlp_residual = "mlp_residual",
	.final_norm = "ln_f",
};

/* new_decoder_architecture's two norms */
static const struct rl_block_names falcon_two_norms = {
	.norm1 = "ln_attn",
	.qkv = "query_key_value",
	.qkv_bias = "query_key_value_bias",
	.o_proj = "dense",
	.o_bias = "dense_bias",
	.norm2 = "ln_mlp",
	.up = "dense_h_to_4h",
	.up_bias = "dense_h_to_4h_bias",
	.act = "gelu",
	.down = "dense_4h_to_h",
	.mlp_allreduce = "mlp_allreduce",
	.down_bias = "dense_4h_to_h_bias",
	.mlp_residual = "mlp_residual",
	.final_norm = "ln_f",
};

static void falcon_block(const struct rl_hfconfig *c, struct rl_block *b)
{
	b->names = c->parallel && !c->shared_norm ? &falcon_two_norms : &falcon_names;
	b->embed = RL_EMBED_TOKENS;
	b->norm = RL_NORM_PRE;
	b->norm_bias = 1;
	b->qkv_bias = b->o_bias = b->mlp_bias = c->mlp_bias;
	b->decoder = 1;
	b->gqa = 1;
	b->mlp = RL_MLP_PLAIN;
	b->act_fpe = 14; /* GELU, as import maps aten::gelu */
	b->head = RL_HEAD_LM;
	b->tied = c->tie_embeddings;
	b->parallel = c->parallel;
	b->shared_norm = c->shared_norm;
}

static const char *const falcon_types[] = {"falcon", NULL};

static const char *const falcon_keys[] = {"hidden_size",
                                          "num_attention_heads",
                                          "num_hidden_layers",
                                          "vocab_size",
                                          "multi_query",
                                          "new_decoder_architecture",
                                          "parallel_attn",
                                          "bias",
                                          "tie_word_embeddings",
                                          "ffn_hidden_size",
                                          "num_kv_heads",
                                          "num_ln_in_parallel_attn",
                                          NULL};

const struct rl_family rl_family_falcon = {
	.name = "falcon",
	.model_types = falcon_types,
	.keys = falcon_keys,
	.sizes = {"hidden_size", "ffn_hidden_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_LLAMA,
	.phases = RL_FAMILY_DECODE | RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP,
	.read = read_falcon,
	.block = falcon_block,
};
