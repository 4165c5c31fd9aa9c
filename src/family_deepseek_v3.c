/* family_deepseek_v3.c - deepseek_v3 (DeepSeek-V3, -R1, Kimi K2): DeepSeek-V2's
 * keys, reader and block (family_deepseek.c: multi-head latent attention,
 * DeepSeekMoE with group-limited routing, the multi-token-prediction
 * modules held in memory). A family of its own because transformers runs it
 * from another modeling file (models/deepseek_v3: a cos/sin rotary table
 * applied to interleaved channels, the router's sigmoid scores with a bias
 * and group-limited top-k), whose kernels an implementation file names
 * apart (hwdb/hf-transformers.impl). */
#include "config.h"

#include "family.h"

/* V2's reader; norm_topk_prob defaults to true (DeepseekV3Config) */
static int read_deepseek_v3(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	int rc = rl_family_read_deepseek(r, c);

	if (rc == 0 && !rl_hfconfig_has(r, "norm_topk_prob"))
		c->norm_topk = 1;
	return rc;
}

static const char *const deepseek_v3_types[] = {"deepseek_v3", NULL};

const struct rl_family rl_family_deepseek_v3 = {
	.name = "deepseek_v3",
	.model_types = deepseek_v3_types,
	.keys = rl_family_deepseek_keys,
	.sizes = {"hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_LLAMA,
	.phases = RL_FAMILY_DECODE | RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP | RL_FAMILY_EP,
	.read = read_deepseek_v3,
	.block = rl_family_deepseek_block,
};
