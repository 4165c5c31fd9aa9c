/* family_llama.c - the Llama block (llama: Llama 2 and 3; mistral): RMSNorm
 * before attention and the MLP, grouped-query attention (one fused qkv
 * matmul, N = (H + 2 Hkv) D), the gated SiLU MLP, lm_head. Its reader and
 * block are shared by the families built on it (qwen2, mixtral, qwen3). */
#include "config.h"

#include "family.h"

int rl_family_read_llama(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c, int bias)
{
	int rc;

	rc = rl_hfconfig_size(r, "hidden_size", 0, &c->hidden);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "intermediate_size", 0, &c->intermediate);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "num_attention_heads", 0, &c->heads);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "num_key_value_heads", c->heads, &c->kv_heads);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "num_hidden_layers", 0, &c->layers);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "vocab_size", 0, &c->vocab);
	if (rc < 0)
		return rc;
	if (c->heads % c->kv_heads != 0)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'num_key_value_heads': %llu does not divide "
		                  "num_attention_heads %llu",
		                  r->name, (unsigned long long)c->kv_heads,
		                  (unsigned long long)c->heads);
	if (!rl_hfconfig_has(r, "head_dim") && c->hidden % c->heads != 0)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'head_dim' is missing and num_attention_heads %llu does "
		                  "not divide hidden_size %llu",
		                  r->name, (unsigned long long)c->heads,
		                  (unsigned long long)c->hidden);
	rc = rl_hfconfig_size(r, "head_dim", c->hidden / c->heads, &c->head_dim);
	if (rc == 0)
		rc = rl_hfconfig_bool(r, "tie_word_embeddings", 0, &c->tie_embeddings);
	if (rc == 0)
		rc = rl_hfconfig_bool(r, "attention_bias", bias, &c->attention_bias);
	return rc;
}

static const struct rl_block_names llama_names = {
	.norm1 = "attn_norm",
	.qkv = "qkv_proj",
	.qkv_bias = "qkv_bias",
	.o_proj = "o_proj",
	.norm2 = "mlp_norm",
	.up = "gate_up",
	.act = "silu",
	.down = "down_proj",
	.mlp_allreduce = "mlp_allreduce",
	.mlp_residual = "mlp_residual",
	.final_norm = "final_norm",
};

void rl_family_llama_block(const struct rl_hfconfig *c, struct rl_block *b)
{
	b->names = &llama_names;
	b->embed = RL_EMBED_TOKENS;
	b->norm = RL_NORM_PRE;
	b->qkv_bias = c->attention_bias;
	b->decoder = 1;
	b->gqa = 1;
	/* the experts are mixtral's keys (a config built by hand may give
	 * them to any of the Llama block's) */
	b->mlp = c->experts > 0 ? RL_MLP_MOE : RL_MLP_GATED;
	b->head = RL_HEAD_LM;
	b->tied = c->tie_embeddings;
}

static int read_llama(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	return rl_family_read_llama(r, c, 0);
}

static const char *const llama_types[] = {"llama", "mistral", NULL};

const char *const rl_family_llama_keys[] = {RL_FAMILY_LLAMA_KEYS, NULL};

const struct rl_family rl_family_llama = {
	.name = "llama",
	.model_types = llama_types,
	.keys = rl_family_llama_keys,
	.sizes = {"hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_LLAMA,
	.phases = RL_FAMILY_DECODE | RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP,
	.read = read_llama,
	.block = rl_family_llama_block,
};
