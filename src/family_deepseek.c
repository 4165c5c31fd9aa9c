/* family_deepseek.c - deepseek_v2 (DeepSeek-V2, -V2-Lite), and the reader
 * and block deepseek_v3 shares (family_deepseek_v3.c): multi-head latent attention (modelops.c's mla(): q_lora_rank,
 * kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim; DeepSeek-AI
 * 2024, arXiv:2405.04434, section 2.1) and DeepSeekMoE: n_routed_experts
 * of moe_intermediate_size, num_experts_per_tok a token, n_shared_experts
 * shared experts (one gated MLP of n_shared x moe_intermediate_size over
 * every token, no gate), group-limited routing over n_group groups of
 * which topk_group are kept (a group_topk row), RMSNorm before attention
 * and the MLP. A layer's MLP is the MoE from layer first_k_dense_replace
 * on, where layer_idx % moe_layer_freq is 0 (DeepSeek's own modeling code
 * and vLLM's; transformers' ignores moe_layer_freq, 1 in every published
 * config), else dense of intermediate_size. deepseek_v3's
 * num_nextn_predict_layers multi-token-prediction modules are held in
 * memory (rl_modelops_mtp_weights). */
#include "config.h"

#include "family.h"

int rl_family_read_deepseek(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	uint64_t first = 0, freq, shared = 0, i;
	int rc;

	rc = rl_hfconfig_size(r, "hidden_size", 0, &c->hidden);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "intermediate_size", 0, &c->intermediate);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "moe_intermediate_size", 0, &c->expert_intermediate);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "num_attention_heads", 0, &c->heads);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "num_hidden_layers", 0, &c->layers);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "vocab_size", 0, &c->vocab);
	/* null in DeepSeek-V2-Lite: one q_proj */
	if (rc == 0 && rl_hfconfig_has(r, "q_lora_rank"))
		rc = rl_hfconfig_size(r, "q_lora_rank", 0, &c->q_lora);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "kv_lora_rank", 0, &c->kv_lora);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "qk_nope_head_dim", 0, &c->qk_nope);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "qk_rope_head_dim", 0, &c->qk_rope);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "v_head_dim", 0, &c->v_head_dim);
	if (rc == 0)
		rc = rl_family_read_experts(r, c, "n_routed_experts");
	if (rc == 0 && rl_hfconfig_has(r, "n_shared_experts"))
		rc = rl_hfconfig_size(r, "n_shared_experts", 0, &shared);
	if (rc == 0 && rl_hfconfig_has(r, "first_k_dense_replace"))
		rc = rl_hfconfig_size(r, "first_k_dense_replace", 0, &first);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "moe_layer_freq", 1, &freq);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "n_group", 1, &c->groups);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "topk_group", 1, &c->topk_groups);
	if (rc == 0)
		rc = rl_hfconfig_bool(r, "norm_topk_prob", 0, &c->norm_topk);
	if (rc == 0)
		rc = rl_hfconfig_bool(r, "tie_word_embeddings", 0, &c->tie_embeddings);
	if (rc == 0 && rl_hfconfig_has(r, "num_nextn_predict_layers"))
		rc = rl_hfconfig_size(r, "num_nextn_predict_layers", 0, &c->mtp_layers);
	if (rc < 0)
		return rc;
	if (c->experts % c->groups != 0 || c->topk_groups > c->groups)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'n_group': %llu groups of the %llu experts, %llu kept "
		                  "(topk_group): the groups must divide the experts and be at "
		                  "least topk_group",
		                  r->name, (unsigned long long)c->groups,
		                  (unsigned long long)c->experts, (unsigned long long)c->topk_groups);
	if (shared > RL_HFCONFIG_MAX / c->expert_intermediate)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'n_shared_experts': %llu x moe_intermediate_size passes "
		                  "16777216",
		                  r->name, (unsigned long long)shared);
	c->shared_intermediate = shared * c->expert_intermediate;
	/* multi-head: every head its own K and V in the naive form; the
	 * queries' and keys' head dim is the two parts' */
	c->kv_heads = c->heads;
	c->head_dim = c->qk_nope + c->qk_rope;
	if (first > 0 || freq > 1) {
		if (rl_hfconfig_layered(r, first > 0 ? "first_k_dense_replace" : "moe_layer_freq",
		                        c) < 0)
			return RL_ERR_PARSE;
		for (i = 0; i < c->layers; i++)
			if (i < first || i % freq != 0)
				rl_hfconfig_mark(c, i, RL_LAYER_DENSE);
	}
	return 0;
}

void rl_family_deepseek_block(const struct rl_hfconfig *c, struct rl_block *b)
{
	rl_family_llama_block(c, b);
	b->attn = RL_ATTN_MLA;
	b->qkv_bias = 0;
}

static const char *const deepseek_types[] = {"deepseek_v2", NULL};

const char *const rl_family_deepseek_keys[] = {"hidden_size",
                                            "intermediate_size",
                                            "moe_intermediate_size",
                                            "num_attention_heads",
                                            "num_hidden_layers",
                                            "vocab_size",
                                            "q_lora_rank",
                                            "kv_lora_rank",
                                            "qk_nope_head_dim",
                                            "qk_rope_head_dim",
                                            "v_head_dim",
                                            "n_routed_experts",
                                            "num_experts_per_tok",
                                            "n_shared_experts",
                                            "first_k_dense_replace",
                                            "moe_layer_freq",
                                            "n_group",
                                            "topk_group",
                                            "norm_topk_prob",
                                            "tie_word_embeddings",
                                            "num_nextn_predict_layers",
                                            NULL};

const struct rl_family rl_family_deepseek = {
	.name = "deepseek",
	.model_types = deepseek_types,
	.keys = rl_family_deepseek_keys,
	.sizes = {"hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_LLAMA,
	.phases = RL_FAMILY_DECODE | RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP | RL_FAMILY_EP,
	.read = rl_family_read_deepseek,
	.block = rl_family_deepseek_block,
};

