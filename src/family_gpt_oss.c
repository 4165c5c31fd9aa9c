/* family_gpt_oss.c - gpt_oss (gpt-oss-20b, gpt-oss-120b): grouped-query
 * attention with a bias on q, k, v and o (attention_bias), a learned sink
 * logit per head in each softmax, layers alternating a sliding window of
 * sliding_window keys and full attention (layer_types), and a MoE of
 * num_local_experts experts, num_experts_per_tok a token, with a bias on
 * the router and on each expert's matmuls (GptOssAttention, GptOssMLP in
 * transformers' modeling_gpt_oss.py; OpenAI 2025, "gpt-oss-120b &
 * gpt-oss-20b Model Card", arXiv:2508.10925, section 2.1). Its
 * quantization_config's quant_method "mxfp4" stores the experts' weights
 * as MXFP4 (32 fp4 values sharing an 8-bit scale, 4.25 bits a weight), the
 * rest in bf16 (modules_to_not_convert: attention, the router, the
 * embedding, the lm_head): the expert rows carry weight_dtype mxfp4 unless
 * --weight-dtype says otherwise. */
#include "config.h"

#include "family.h"

#include <string.h>

#include "dtype.h"

static int read_gpt_oss(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	struct rl_hfconfig_rd q;
	char method[32];
	uint64_t i;
	int rc = rl_family_read_llama(r, c, 1), typed;

	if (rc == 0)
		rc = rl_family_read_experts(r, c, "num_local_experts");
	if (rc == 0)
		rc = rl_hfconfig_size(r, "sliding_window", 0, &c->window);
	if (rc < 0)
		return rc;
	if ((typed = rl_hfconfig_layer_types(r, c)) < 0)
		return typed;
	/* without layer_types, GptOssConfig's default: the even layers slide */
	if (!typed && rl_hfconfig_layered(r, "sliding_window", c) < 0)
		return RL_ERR_PARSE;
	for (i = 0; !typed && i < c->layers; i++)
		rl_hfconfig_mark(c, i, i % 2 == 0 ? RL_LAYER_SLIDING : 0);
	if ((rc = rl_hfconfig_sub(r, "quantization_config", &q)) < 0)
		return rc;
	if (rc == 1 && (rc = rl_hfconfig_string(&q, "quant_method", method, sizeof(method))) < 0)
		return rc;
	if (rc == 1 && strcmp(method, "mxfp4") == 0)
		c->expert_dtype = 1 + RL_MXFP4;
	return 0;
}

static const struct rl_block_names gpt_oss_names = {
	.norm1 = "attn_norm",
	.qkv = "qkv_proj",
	.qkv_bias = "qkv_bias",
	.o_proj = "o_proj",
	.o_bias = "o_bias",
	.norm2 = "mlp_norm",
	.up = "gate_up",
	.act = "silu",
	.down = "down_proj",
	.mlp_allreduce = "mlp_allreduce",
	.mlp_residual = "mlp_residual",
	.final_norm = "final_norm",
};

static void gpt_oss_block(const struct rl_hfconfig *c, struct rl_block *b)
{
	rl_family_llama_block(c, b);
	b->names = &gpt_oss_names;
	b->o_bias = c->attention_bias;
	b->sinks = 1;
	b->moe_bias = 1;
}

static const char *const gpt_oss_types[] = {"gpt_oss", NULL};

static const char *const gpt_oss_keys[] = {
	RL_FAMILY_LLAMA_KEYS,
	"num_local_experts",
	"num_experts_per_tok",
	"sliding_window",
	"layer_types",
	"quantization_config",
	NULL};

const struct rl_family rl_family_gpt_oss = {
	.name = "gpt_oss",
	.model_types = gpt_oss_types,
	.keys = gpt_oss_keys,
	.sizes = {"hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_LLAMA,
	.phases = RL_FAMILY_DECODE | RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP | RL_FAMILY_EP,
	.read = read_gpt_oss,
	.block = gpt_oss_block,
};
