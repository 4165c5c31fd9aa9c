/* family_qwen3_moe.c - qwen3_moe (Qwen3-30B-A3B, Qwen3-235B-A22B): the qwen3
 * block (q_norm and k_norm over each head, no bias on q, k, v) with a
 * sparse MoE of num_experts experts of moe_intermediate_size, k =
 * num_experts_per_tok, no shared expert, the k routing weights
 * renormalised when norm_topk_prob (Qwen3MoeSparseMoeBlock in
 * transformers' modeling_qwen3_moe.py); decoder_sparse_step and
 * mlp_only_layers as qwen2_moe's. */
#include "config.h"

#include "family.h"

static int read_qwen3_moe(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	return rl_family_read_qwen_moe(r, c, 0);
}

static void qwen3_moe_block(const struct rl_hfconfig *c, struct rl_block *b)
{
	rl_family_llama_block(c, b);
	b->qk_norm = RL_QKNORM_HEAD;
}

static const char *const qwen3_moe_types[] = {"qwen3_moe", NULL};

static const char *const qwen3_moe_keys[] = {
	RL_FAMILY_LLAMA_KEYS,
	"num_experts",
	"num_experts_per_tok",
	"moe_intermediate_size",
	"norm_topk_prob",
	"decoder_sparse_step",
	"mlp_only_layers",
	NULL};

const struct rl_family rl_family_qwen3_moe = {
	.name = "qwen3_moe",
	.model_types = qwen3_moe_types,
	.keys = qwen3_moe_keys,
	.sizes = {"hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_LLAMA,
	.phases = RL_FAMILY_DECODE | RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP | RL_FAMILY_EP,
	.read = read_qwen3_moe,
	.block = qwen3_moe_block,
};
