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

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* The largest size a key may give (hidden_size, vocab_size, ...). */
#define RL_HFCONFIG_MAX 16777216u /* 2^24 */

/* The most layers a config may have whose layers differ (rl_hfconfig.layer:
 * alternating sliding-window and full attention, dense and MoE layers). */
#define RL_HFCONFIG_LAYERS 1024u

/* What a layer is, beside the block every layer shares (rl_hfconfig.layer). */
#define RL_LAYER_SLIDING 1u /* attention over the last rl_hfconfig.window keys */
#define RL_LAYER_DENSE   2u /* an MoE model's layer with a dense MLP */

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
	uint64_t expert_intermediate; /* each routed expert's intermediate
	                        * (moe_intermediate_size; 0: intermediate) */
	uint64_t shared_intermediate; /* the shared experts' intermediate, all of
	                        * them as one gated MLP (qwen2_moe's
	                        * shared_expert_intermediate_size, deepseek's
	                        * n_shared_experts x moe_intermediate_size; 0: none) */
	int shared_gate;       /* qwen2_moe: a sigmoid gate (H -> 1) on the
	                        * shared expert's output */
	int norm_topk;         /* norm_topk_prob: the k routing weights
	                        * renormalised to sum to 1 */
	uint64_t window;       /* sliding_window: the keys a sliding layer's
	                        * query sees, itself included (0: none) */
	double softcap_attn;   /* attn_logit_softcapping (gemma2; 0: none) */
	double softcap_logits; /* final_logit_softcapping (0: none) */
	double embed_mult;     /* the embedding's scale: gemma's sqrt(hidden),
	                        * granite's embedding_multiplier (0: none) */
	double residual_mult;  /* granite: residual_multiplier (0: none) */
	double logits_div;     /* granite: logits_scaling (0: none) */
	int mlp_bias;          /* granite: a bias on the MLP's linears */
	uint64_t q_lora;       /* deepseek: q_lora_rank (0: one q_proj) */
	uint64_t kv_lora;      /* deepseek: kv_lora_rank, the latent's width */
	uint64_t qk_nope, qk_rope; /* deepseek: qk_nope_head_dim, qk_rope_head_dim
	                        * (head_dim is their sum) */
	uint64_t v_head_dim;   /* deepseek: v_head_dim (0: head_dim) */
	uint64_t groups, topk_groups; /* deepseek: n_group, topk_group (1: none) */
	uint64_t mtp_layers;   /* deepseek_v3: num_nextn_predict_layers */
	int expert_dtype;      /* gpt_oss: the experts' weights as the checkpoint
	                        * stores them, 1 + enum rl_dtype (mxfp4, from
	                        * quantization_config); 0: the step's */
	int parallel;          /* attention and the MLP read the same input and
	                        * one residual adds both (falcon's parallel_attn) */
	int shared_norm;       /* with parallel: one norm feeds both (falcon-7b);
	                        * else one each (falcon-40b's ln_attn, ln_mlp) */
	unsigned layer_all;    /* RL_LAYER_* of every layer, when layered is 0 */
	int layered;           /* layer[] holds each layer's (layers at most
	                        * RL_HFCONFIG_LAYERS) */
	unsigned char layer[RL_HFCONFIG_LAYERS]; /* RL_LAYER_* of layer i */
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

/* A number (integer or not) at KEY into OUT; absent or null: DEF. Returns 0
 * or RL_ERR_PARSE (not a number, or not finite and positive). */
int rl_hfconfig_number(const struct rl_hfconfig_rd *r, const char *key, double def, double *out);

/* Marks layer I of C with BITS (RL_LAYER_*), C->layered from then on: the
 * reader has checked C->layers against RL_HFCONFIG_LAYERS
 * (rl_hfconfig_layered). */
void rl_hfconfig_mark(struct rl_hfconfig *c, uint64_t i, unsigned bits);

/* 0 when C's layers may differ one from the next (C->layers at most
 * RL_HFCONFIG_LAYERS), else RL_ERR_PARSE naming KEY (the key that makes
 * them differ). */
int rl_hfconfig_layered(const struct rl_hfconfig_rd *r, const char *key,
                        const struct rl_hfconfig *c);

/* layer_types, when present: an array of C->layers strings, each
 * "sliding_attention" or "full_attention" (as transformers writes it);
 * the sliding ones marked RL_LAYER_SLIDING. Returns 1 when read, 0 when
 * absent, or RL_ERR_PARSE. */
int rl_hfconfig_layer_types(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c);

/* An array of layer indices at KEY (each below C->layers), each marked with
 * BITS: qwen2_moe's mlp_only_layers. Absent or null: none. Returns 0 or
 * RL_ERR_PARSE. */
int rl_hfconfig_layer_list(const struct rl_hfconfig_rd *r, const char *key, unsigned bits,
                           struct rl_hfconfig *c);

/* The object at KEY as a document of its own in SUB (the same name and
 * error record): gemma3's text_config. Returns 1 when there is one, 0 when
 * KEY is absent, RL_ERR_PARSE when it is not an object. */
int rl_hfconfig_sub(const struct rl_hfconfig_rd *r, const char *key, struct rl_hfconfig_rd *sub);

/* The string at KEY into BUF (LEN bytes, truncated to fit). Returns 1 when
 * there is one, 0 when absent or null, RL_ERR_PARSE when not a string. */
int rl_hfconfig_string(const struct rl_hfconfig_rd *r, const char *key, char *buf, size_t len);

/* How many of the layers LO to HI - 1 of C have every bit of BITS. */
uint64_t rl_hfconfig_layers(const struct rl_hfconfig *c, unsigned bits, uint64_t lo, uint64_t hi);

/* C's head_dim = hidden / heads and kv_heads = heads (multi-head
 * attention); RL_ERR_PARSE naming KEY (the heads' key) when the heads do
 * not divide the hidden size. */
int rl_hfconfig_mha(const struct rl_hfconfig_rd *r, const char *key, struct rl_hfconfig *c);

#endif
