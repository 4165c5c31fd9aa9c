/* family.h - the model families `roofline model` reads, in one table.
 *
 * A family is one structure (struct rl_family, one file src/family_NAME.c
 * each): the model_type strings it takes, the config.json keys it reads
 * (its reader fills struct rl_hfconfig), how it maps a config to the
 * shared block description (struct rl_block) that the one builder
 * (modelops.c) turns into op rows, and its rules for phases and parallel
 * layouts. The families are registered in one array (family.c), as
 * libsigrok registers its output modules; docs/model.md has the recipe for
 * adding one.
 */
#ifndef RL_FAMILY_H
#define RL_FAMILY_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "hfconfig.h"

/* ---- the block description: what the builder builds ----
 *
 * One transformer layer (repeated num_hidden_layers times, count = layers)
 * and what is around it. Each field is one decision of the builder; a new
 * architecture adds a value to an enum or a flag here and its rows in
 * modelops.c, once, for every family that sets it. */

/* What turns the input into T x hidden activations. */
enum rl_block_embed {
	RL_EMBED_TOKENS,          /* embed: a copy of the token rows (llama) */
	RL_EMBED_TOKENS_POS,      /* embed and pos_embed, an add (gpt2) */
	RL_EMBED_TOKENS_POS_TYPE, /* embed, embed_add of word + position + token
	                           * type (3 inputs) and embed_norm (bert) */
	RL_EMBED_PATCHES,         /* patch_embed (a conv2d over the image) and
	                           * pos_embed (vit) */
};

/* Where each sub-block's norm sits. */
enum rl_block_norm {
	RL_NORM_PRE,  /* before attention and before the MLP, and a final
	               * norm after the last layer (llama, gpt2, vit) */
	RL_NORM_POST, /* after each residual add, no final norm (bert) */
	RL_NORM_SANDWICH, /* before each sub-block and on its output before
	                   * the residual add, and a final norm (gemma2,
	                   * gemma3: four a layer) */
	RL_NORM_BRANCH,   /* on each sub-block's output before the residual
	                   * add only, and a final norm (olmo2) */
};

/* A norm of the queries and keys before attention. */
enum rl_block_qknorm {
	RL_QKNORM_NONE,
	RL_QKNORM_HEAD, /* RMSNorm over each head's head_dim: q_norm
	                 * (T x H x D) and k_norm (T x Hkv x D) (qwen3) */
	RL_QKNORM_FULL, /* RMSNorm over all the heads at once: q_norm
	                 * (T x H D) and k_norm (T x Hkv D) (olmo2) */
};

/* The feed-forward sub-block. */
enum rl_block_mlp {
	RL_MLP_GATED, /* up N = 2 x intermediate (gate and up fused), the
	               * activation, the mul, down (llama) */
	RL_MLP_PLAIN, /* up N = intermediate, the activation, down (gpt2) */
	RL_MLP_MOE,   /* the gated MLP as routed experts (mixtral; modelops.h) */
};

/* The attention's projections and cache. */
enum rl_block_attn {
	RL_ATTN_GQA, /* one qkv matmul, a K and V cache per KV head (llama) */
	RL_ATTN_MLA, /* DeepSeek's multi-head latent attention (modelops.h):
	              * q through q_lora_rank, K and V from one latent of
	              * kv_lora_rank and a shared rotary key */
};

/* What follows the last layer (after the final norm). */
enum rl_block_head {
	RL_HEAD_LM,     /* lm_head, and the loss in training (decoders) */
	RL_HEAD_POOLER, /* pooler and pooler_tanh on the first token (encoders) */
};

/* The row names of a family's layer, by role: the names its users know
 * from the model's code (gpt2's c_attn, bert's attn_out). A role the
 * block does not have may be NULL. */
struct rl_block_names {
	const char *norm1;         /* attention's norm */
	const char *qkv;           /* the fused q, k, v projection */
	const char *qkv_bias;      /* with qkv_bias */
	const char *o_proj;        /* attention's output projection */
	const char *o_bias;        /* with o_bias */
	const char *norm2;         /* the MLP's norm */
	const char *up;            /* the MLP's first matmul */
	const char *up_bias;       /* with mlp_bias */
	const char *act;           /* the activation */
	const char *down;          /* the MLP's second matmul */
	const char *mlp_allreduce; /* its tensor-parallel all-reduce */
	const char *down_bias;     /* with mlp_bias */
	const char *mlp_residual;
	const char *final_norm; /* RL_NORM_PRE: after the last layer */
	const char *post_attn_norm; /* RL_NORM_SANDWICH, _BRANCH: on attention's
	                             * output */
	const char *post_mlp_norm;  /* and on the MLP's */
};

struct rl_block {
	const struct rl_block_names *names;
	enum rl_block_embed embed;
	enum rl_block_norm norm;
	int norm_bias; /* LayerNorm (weight and bias), else RMSNorm
	                * (weight): the weight count */
	int qkv_bias;  /* a bias add after the qkv matmul */
	int o_bias;    /* after o_proj (after its all-reduce) */
	int mlp_bias;  /* after up and after down */
	enum rl_block_qknorm qk_norm;
	int decoder; /* causal attention over a KV cache: decode steps */
	int gqa;     /* the family reads num_key_value_heads and
	              * head_dim: attention rows carry kv_heads */
	enum rl_block_mlp mlp;
	unsigned act_fpe; /* the activation's flops_per_element (0: the
	                   * pointwise default, SiLU; 14: GELU's tanh form) */
	enum rl_block_head head;
	int tied;        /* the lm_head is the token embedding (counted
	                  * once in the weights) */
	int conv1d;      /* the block's projections hold their weights [K, N]
	                  * (HF's Conv1D, torch.addmm: gpt2), else nn.Linear's
	                  * [N, K] (F.linear) */
	uint64_t tokens; /* tokens per sequence fixed by the config (vit:
	                  * its patches); 0: --seq */
	enum rl_block_attn attn;
	int sinks;       /* a learned logit per head joins each query's softmax
	                  * (gpt_oss): H weights a layer, no row */
	int moe_bias;    /* a bias on the router and on each expert's two
	                  * matmuls (gpt_oss), in their epilogues: weights, no
	                  * row */
	int parallel;    /* attention and the MLP side by side on the same
	                  * input, one residual add of both (falcon) */
	int shared_norm; /* with parallel: one norm feeds both (else one each) */
};

/* ---- the family ---- */

/* The phases a family runs (rl_family.phases; bits apart from the
 * layouts' so that rl_family_names can ask for both). */
#define RL_FAMILY_DECODE 0x100u /* decode steps (a KV cache); prefill always */
#define RL_FAMILY_TRAIN  0x200u /* a training step's forward */

/* The parallel degrees a family may take past 1 (rl_family.layouts). */
#define RL_FAMILY_TP 1u
#define RL_FAMILY_PP 2u
#define RL_FAMILY_DP 4u
#define RL_FAMILY_EP 8u /* expert parallel: MoE families */

/* The config keys behind the sizes a too-large message names. */
struct rl_family_keys {
	const char *hidden, *intermediate, *heads, *layers;
};

struct rl_family {
	const char *name;               /* the file's: family_NAME.c */
	const char *const *model_types; /* the model_type strings, NULL-ended */
	const char *const *keys;        /* every key the reader reads, in
	                                 * its order, NULL-ended (docs, tests) */
	struct rl_family_keys sizes;    /* the keys of hidden, intermediate,
	                                 * heads and layers, for messages */
	enum rl_hf_family tag;          /* the coarse tag rl_hfconfig.family
	                                 * keeps for its callers */
	unsigned phases;                /* RL_FAMILY_DECODE | RL_FAMILY_TRAIN */
	unsigned layouts;               /* RL_FAMILY_TP | ... */
	/* Reads R's keys into C (model_type already set; every other field
	 * 0). Returns 0, or RL_ERR_PARSE with R's error filled naming the
	 * key. */
	int (*read)(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c);
	/* Fills B from C (read by this family). */
	void (*block)(const struct rl_hfconfig *c, struct rl_block *b);
};

/* The families, in the order messages list them: a NULL-ended array. */
extern const struct rl_family *const rl_families[];

/* The family taking MODEL_TYPE, or NULL. */
const struct rl_family *rl_family_find(const char *model_type);

/* The index in rl_families of the family named NAME (its file's name, as
 * implementation files name it: "llama", "deepseek") or taking NAME as a
 * model_type ("mistral", "deepseek_v3"), or -1. */
int rl_family_index(const char *name);

/* The family of C: C->fam when the reader set it, else the one taking
 * C->model_type, else the first whose tag is C->family (a config built by
 * hand). Never NULL. */
const struct rl_family *rl_family_of(const struct rl_hfconfig *c);

/* C's block description into B. */
void rl_family_block(const struct rl_hfconfig *c, struct rl_block *b);

/* Writes into BUF (LEN bytes, NUL-terminated, truncated to fit) the
 * model_types of the families whose phases | layouts have every bit of HAS
 * and none of LACKS, in the table's order, as "a, b, c or d" (0, 0: every
 * model_type known). Returns how many it lists. */
int rl_family_names(char *buf, size_t len, unsigned has, unsigned lacks);

/* DeepSeek-V2's reader, block and keys (family_deepseek.c), which
 * deepseek_v3 shares (family_deepseek_v3.c). */
int rl_family_read_deepseek(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c);
void rl_family_deepseek_block(const struct rl_hfconfig *c, struct rl_block *b);
extern const char *const rl_family_deepseek_keys[];

/* The shared readers of the Llama block's keys (family_llama.c), for the
 * families built on it (mistral, qwen2, mixtral, qwen3): hidden_size,
 * intermediate_size, num_attention_heads, num_key_value_heads (default:
 * the heads), num_hidden_layers, vocab_size, head_dim (default: hidden /
 * heads), tie_word_embeddings (default false), attention_bias (default
 * BIAS). */
int rl_family_read_llama(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c, int bias);

/* bert's and vit's first keys (family_bert.c): hidden_size,
 * num_attention_heads, num_hidden_layers, intermediate_size; and a bias on
 * q, k and v. */
int rl_family_read_encoder(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c);

/* The Llama block (RMSNorm before attention and the MLP, GQA, the gated
 * SiLU MLP, lm_head), for the families built on it. */
void rl_family_llama_block(const struct rl_hfconfig *c, struct rl_block *b);

/* The experts (at KEY: num_local_experts, num_experts, n_routed_experts)
 * and num_experts_per_tok, at most the experts (family_mixtral.c): the MoE
 * families' shared keys. */
int rl_family_read_experts(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c, const char *key);

/* The keys rl_family_read_llama reads, in its order: the start of the keys
 * list of every family built on it. */
#define RL_FAMILY_LLAMA_KEYS                                                                       \
	"hidden_size", "intermediate_size", "num_attention_heads", "num_key_value_heads",          \
	        "num_hidden_layers", "vocab_size", "head_dim", "tie_word_embeddings", "attention_bias"

/* qwen2_moe's and qwen3_moe's reader (family_qwen2_moe.c): llama's keys
 * (attention_bias defaulting to BIAS), then num_experts,
 * num_experts_per_tok, moe_intermediate_size, norm_topk_prob,
 * decoder_sparse_step (1) and mlp_only_layers (the dense layers). */
int rl_family_read_qwen_moe(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c, int bias);

/* gemma2's and gemma3's reader (family_gemma2.c): llama's keys
 * (tie_word_embeddings defaulting to true), sliding_window, the
 * soft-capping values and layer_types; without layer_types, layer i slides
 * unless (i + 1) is a multiple of PATTERN. */
int rl_family_read_gemma(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c,
                         uint64_t pattern);

/* The Gemma block (family_gemma2.c): llama's with four RMSNorms a layer
 * (RL_NORM_SANDWICH) and GELU's tanh form in the gated MLP. */
void rl_family_gemma_block(const struct rl_hfconfig *c, struct rl_block *b);

/* The keys rl_family_read_llama reads, in its order, NULL-ended: the keys
 * of every family whose reader it is (llama, qwen2, qwen3). */
extern const char *const rl_family_llama_keys[];

#endif
