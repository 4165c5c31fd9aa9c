/* family_gemma3.c - gemma3_text, and gemma3's text model (its text_config):
 * gemma2's block (four RMSNorms a layer, GeGLU, the embedding scaled by
 * sqrt(hidden_size) and tied) with q_norm and k_norm over each head (as
 * qwen3's), no soft-capping of the attention logits, and local (sliding)
 * and global layers in its ratio: layer_types, or without it every layer
 * but each sliding_window_pattern-th (default 6: five local to one global,
 * Gemma 3 Technical Report, section 2.2). Its two rope bases
 * (rope_local_base_freq for the local layers, rope_theta for the global)
 * change no step's work. The vision tower of a multimodal gemma3 config
 * is not read: the steps are the text model's. */
#include "config.h"

#include "family.h"

static int read_gemma3(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	struct rl_hfconfig_rd text;
	uint64_t pattern;
	int rc;

	/* a multimodal config (model_type gemma3) holds the text model's keys
	 * in text_config */
	if ((rc = rl_hfconfig_sub(r, "text_config", &text)) < 0)
		return rc;
	if (rc == 1)
		r = &text;
	rc = rl_hfconfig_size(r, "sliding_window_pattern", 6, &pattern);
	return rc == 0 ? rl_family_read_gemma(r, c, pattern) : rc;
}

static void gemma3_block(const struct rl_hfconfig *c, struct rl_block *b)
{
	rl_family_gemma_block(c, b);
	b->qk_norm = RL_QKNORM_HEAD;
}

static const char *const gemma3_types[] = {"gemma3_text", "gemma3", NULL};

static const char *const gemma3_keys[] = {
	"sliding_window_pattern",
	RL_FAMILY_LLAMA_KEYS,
	"sliding_window",
	"attn_logit_softcapping",
	"final_logit_softcapping",
	"layer_types",
	NULL};

const struct rl_family rl_family_gemma3 = {
	.name = "gemma3",
	.model_types = gemma3_types,
	.keys = gemma3_keys,
	.sizes = {"hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_LLAMA,
	.phases = RL_FAMILY_DECODE | RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP,
	.read = read_gemma3,
	.block = gemma3_block,
};
