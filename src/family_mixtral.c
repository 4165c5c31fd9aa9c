/* family_mixtral.c - mixtral: the Llama block with a sparse MoE in place of
 * the MLP (num_local_experts E, num_experts_per_tok k, k <= E; modelops.h
 * has its rows); the one family that takes expert parallelism. */
#include "config.h"

#include "family.h"

int rl_family_read_experts(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c, const char *key)
{
	int rc = rl_hfconfig_size(r, key, 0, &c->experts);

	if (rc == 0)
		rc = rl_hfconfig_size(r, "num_experts_per_tok", 0, &c->experts_per_tok);
	if (rc == 0 && c->experts_per_tok > c->experts)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'num_experts_per_tok': %llu is more than %s %llu", r->name,
		                  (unsigned long long)c->experts_per_tok, key,
		                  (unsigned long long)c->experts);
	return rc;
}

static int read_mixtral(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	int rc = rl_family_read_llama(r, c, 0);

	/* MixtralSparseMoeBlock renormalises its k routing weights always
	 * (modeling_mixtral.py: routing_weights /= routing_weights.sum(...)) */
	c->norm_topk = 1;
	return rc == 0 ? rl_family_read_experts(r, c, "num_local_experts") : rc;
}

static const char *const mixtral_types[] = {"mixtral", NULL};

static const char *const mixtral_keys[] = {
	RL_FAMILY_LLAMA_KEYS,
	"num_local_experts",
	"num_experts_per_tok",
	NULL};

const struct rl_family rl_family_mixtral = {
	.name = "mixtral",
	.model_types = mixtral_types,
	.keys = mixtral_keys,
	.sizes = {"hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_LLAMA,
	.phases = RL_FAMILY_DECODE | RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP | RL_FAMILY_EP,
	.read = read_mixtral,
	.block = rl_family_llama_block, /* the MoE from its experts */
};
