/* hfconfig.h - the architecture numbers of a Hugging Face config.json.
 *
 * Layer 3 reader: a config.json (a transformer's "config" as the
 * transformers library writes it) -> struct rl_hfconfig. Its model_type
 * picks the family (family.h: one table, one file per family), whose
 * reader takes the keys; docs/model.md lists each family's keys. Any
 * other model_type (the message names the known ones, from the table), a
 * missing key or a value of the wrong type is one error naming it.
 */
#ifndef RL_HFCONFIG_H
#define RL_HFCONFIG_H

#include <stdint.h>

#include "err.h"

/* The largest size a key may give (hidden_size, vocab_size, ...). */
#define RL_HFCONFIG_MAX 16777216u /* 2^24 */

/* A coarse tag of the family, kept for callers that tell the four
 * original blocks apart; the block itself comes from the family table
 * (family.h: rl_family_of, rl_family_block). */
enum rl_hf_family { RL_HF_LLAMA, RL_HF_GPT2, RL_HF_BERT, RL_HF_VIT };

struct rl_family;

struct rl_hfconfig {
	const char *name;      /* the NAME given to rl_hfconfig_parse (the path
	                        * or "<stdin>" of rl_hfconfig_read), for the
	                        * messages of what is built from it; borrowed:
	                        * the caller's string must outlive its use */
	char model_type[32];   /* "llama", "mistral", "qwen2", "gpt2", "bert", ... */
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
	uint64_t positions;    /* gpt2: n_positions; bert: max_position_embeddings
	                        * (0 for the others) */
	uint64_t token_types;  /* bert: type_vocab_size (0 for the others) */
	int encoder;           /* a family without decode (bert, vit): prefill
	                        * only, attention not causal */
	uint64_t image;        /* vit: image_size */
	uint64_t patch;        /* vit: patch_size (divides image_size) */
	uint64_t channels;     /* vit: num_channels (default 3) */
	uint64_t tokens;       /* vit: (image / patch)^2 + 1 (at most 2^24) */
	uint64_t experts;      /* mixtral: num_local_experts (0: no MoE) */
	uint64_t experts_per_tok; /* mixtral: num_experts_per_tok (<= experts) */
	const struct rl_family *fam; /* the family that read it (NULL in a
	                        * config built by hand: rl_family_of looks it
	                        * up by model_type) */
};

/* Parses TEXT (a NUL-terminated JSON document), naming it NAME in
 * messages ("NAME: key 'x': expected ..."). Returns 0, or RL_ERR_PARSE with
 * ERR filled. */
int rl_hfconfig_parse(const char *text, const char *name, struct rl_hfconfig *cfg,
                      struct rl_err *err);

/* As rl_hfconfig_parse on the file PATH ("-": standard input). */
int rl_hfconfig_read(const char *path, struct rl_hfconfig *cfg, struct rl_err *err);

/* ---- for the family readers (family_*.c) ---- */

/* The document being read: its NAME for messages, its parsed root (a yajl
 * tree, opaque here) and the caller's error record. */
struct rl_hfconfig_rd {
	const char *name;
	void *root; /* a yajl_val */
	struct rl_err *err;
};

/* A size from 1 to RL_HFCONFIG_MAX at KEY into OUT; absent or null: DEF,
 * or an error naming KEY when DEF is 0. Returns 0 or RL_ERR_PARSE. */
int rl_hfconfig_size(const struct rl_hfconfig_rd *r, const char *key, uint64_t def,
                     uint64_t *out);

/* true or false at KEY into OUT; absent or null: DEF. Returns 0 or
 * RL_ERR_PARSE. */
int rl_hfconfig_bool(const struct rl_hfconfig_rd *r, const char *key, int def, int *out);

/* 1 when KEY is present and not null, else 0. */
int rl_hfconfig_has(const struct rl_hfconfig_rd *r, const char *key);

/* C's head_dim = hidden / heads and kv_heads = heads (multi-head
 * attention); RL_ERR_PARSE naming KEY (the heads' key) when the heads do
 * not divide the hidden size. */
int rl_hfconfig_mha(const struct rl_hfconfig_rd *r, const char *key, struct rl_hfconfig *c);

#endif
