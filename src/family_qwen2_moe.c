/* family_qwen2_moe.c - qwen2_moe (Qwen1.5-MoE, Qwen2-MoE): the qwen2 block
 * (a bias on q, k and v) with a sparse MoE of many small experts (num_experts
 * E of moe_intermediate_size each, num_experts_per_tok k) and a shared
 * expert (a gated MLP of shared_expert_intermediate_size over every token)
 * whose output is scaled by a sigmoid gate (shared_expert_gate, H -> 1):
 * Qwen2MoeSparseMoeBlock in transformers' modeling_qwen2_moe.py. A layer is
 * an MoE layer unless mlp_only_layers names it or (i + 1) is not a
 * multiple of decoder_sparse_step; the others have the dense MLP of
 * intermediate_size. The bias on q, k and v: qkv_bias (default true).
 * Its reader is shared with qwen3_moe. */
#include "config.h"

#include "family.h"

int rl_family_read_qwen_moe(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c, int bias)
{
	uint64_t step, i;
	int rc = rl_family_read_llama(r, c, bias);

	if (rc == 0)
		rc = rl_family_read_experts(r, c, "num_experts");
	if (rc == 0)
		rc = rl_hfconfig_size(r, "moe_intermediate_size", 0, &c->expert_intermediate);
	if (rc == 0)
		rc = rl_hfconfig_bool(r, "norm_topk_prob", 0, &c->norm_topk);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "decoder_sparse_step", 1, &step);
	if (rc == 0 && step > 1) {
		if (rl_hfconfig_layered(r, "decoder_sparse_step", c) < 0)
			return RL_ERR_PARSE;
		for (i = 0; i < c->layers; i++)
			if ((i + 1) % step != 0)
				rl_hfconfig_mark(c, i, RL_LAYER_DENSE);
	}
	if (rc == 0)
		rc = rl_hfconfig_layer_list(r, "mlp_only_layers", RL_LAYER_DENSE, c);
	return rc;
}

static int read_qwen2_moe(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	int rc = rl_family_read_qwen_moe(r, c, 1);

	/* Qwen2MoeConfig's own key for the q, k, v bias (default true) */
	if (rc == 0)
		rc = rl_hfconfig_bool(r, "qkv_bias", c->attention_bias, &c->attention_bias);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "shared_expert_intermediate_size", 0,
		                      &c->shared_intermediate);
	c->shared_gate = 1;
	return rc;
}

static const char *const qwen2_moe_types[] = {"qwen2_moe", NULL};

static const char *const qwen2_moe_keys[] = {
	RL_FAMILY_LLAMA_KEYS,
	"num_experts",
	"num_experts_per_tok",
	"moe_intermediate_size",
	"norm_topk_prob",
	"decoder_sparse_step",
	"mlp_only_layers",
	"qkv_bias",
	"shared_expert_intermediate_size",
	NULL};

const struct rl_family rl_family_qwen2_moe = {
	.name = "qwen2_moe",
	.model_types = qwen2_moe_types,
	.keys = qwen2_moe_keys,
	.sizes = {"hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_LLAMA,
	.phases = RL_FAMILY_DECODE | RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP | RL_FAMILY_EP,
	.read = read_qwen2_moe,
	.block = rl_family_llama_block, /* the MoE from its experts */
};
