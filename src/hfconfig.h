/* hfconfig.h - the architecture numbers of a Hugging Face config.json.
 *
 * Layer 3 reader: a config.json (a transformer's "config" as the
 * transformers library writes it) -> struct rl_hfconfig. Families: llama
 * (Llama 2 and 3), mistral and qwen2 (the Llama block; qwen2 with a bias on
 * the q, k and v projections), and gpt2 (n_embd, n_head, n_layer, n_inner
 * (default 4 x n_embd), vocab_size, n_positions; the lm_head tied to the
 * token embedding), bert (hidden_size, num_attention_heads,
 * num_hidden_layers, intermediate_size, vocab_size; an encoder) and vit
 * (bert's keys but vocab_size, and image_size, patch_size, num_channels).
 * mixtral is the Llama block with a sparse MoE in place of the MLP
 * (num_local_experts E, num_experts_per_tok k, k <= E).
 * Any other model_type, a missing key or a
 * value of the wrong type is one error naming it.
 */
#ifndef RL_HFCONFIG_H
#define RL_HFCONFIG_H

#include <stdint.h>

#include "err.h"

/* The largest size a key may give (hidden_size, vocab_size, ...). */
#define RL_HFCONFIG_MAX 16777216u /* 2^24 */

/* The block a model_type builds (modelops.c). */
enum rl_hf_family { RL_HF_LLAMA, RL_HF_GPT2, RL_HF_BERT, RL_HF_VIT };

struct rl_hfconfig {
	const char *name;      /* the NAME given to rl_hfconfig_parse (the path
	                        * or "<stdin>" of rl_hfconfig_read), for the
	                        * messages of what is built from it; borrowed:
	                        * the caller's string must outlive its use */
	char model_type[32];   /* "llama", "mistral", "qwen2", "gpt2", "bert", "vit" */
	enum rl_hf_family family;
	uint64_t hidden;       /* hidden_size */
	uint64_t intermediate; /* intermediate_size */
	uint64_t heads;        /* num_attention_heads */
	uint64_t kv_heads;     /* num_key_value_heads (default: heads) */
	uint64_t layers;       /* num_hidden_layers */
	uint64_t vocab;        /* vocab_size */
	uint64_t head_dim;     /* head_dim (default: hidden / heads) */
	int tie_embeddings;    /* tie_word_embeddings (default false) */
	int attention_bias;    /* a bias on q, k, v: qwen2 always; llama's
	                        * attention_bias (default false) */
	uint64_t positions;    /* gpt2: n_positions (0 for the others) */
	int encoder;           /* bert, vit: prefill only, attention not causal */
	uint64_t image;        /* vit: image_size */
	uint64_t patch;        /* vit: patch_size (divides image_size) */
	uint64_t channels;     /* vit: num_channels (default 3) */
	uint64_t tokens;       /* vit: (image / patch)^2 + 1 (at most 2^24) */
	uint64_t experts;      /* mixtral: num_local_experts (0: no MoE) */
	uint64_t experts_per_tok; /* mixtral: num_experts_per_tok (<= experts) */
};

/* Parses TEXT (a NUL-terminated JSON document), naming it NAME in
 * messages ("NAME: key 'x': expected ..."). Returns 0, or RL_ERR_PARSE with
 * ERR filled. */
int rl_hfconfig_parse(const char *text, const char *name, struct rl_hfconfig *cfg,
                      struct rl_err *err);

/* As rl_hfconfig_parse on the file PATH ("-": standard input). */
int rl_hfconfig_read(const char *path, struct rl_hfconfig *cfg, struct rl_err *err);

#endif
