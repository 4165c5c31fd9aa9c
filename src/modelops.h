/* modelops.h - the op list of one step of a transformer (roofline model).
 *
 * Layer 3 builder: a config (hfconfig.h) and the step's options -> op
 * rows, no I/O. The rows come from the block description of the config's
 * family (family.h: struct rl_block; docs/model.md): the builder decides on
 * its fields, never on a model_type. What the families' blocks make:
 *
 * The Llama block (llama, mistral, qwen2, qwen3), per layer:
 * attn_norm, qkv_proj (one fused matmul, N = (H + 2 Hkv) D), qkv_bias
 * (with attention_bias), attention (kv_heads = Hkv), o_proj, attn_residual,
 * mlp_norm, gate_up (N = 2 x intermediate), silu, mul, down_proj,
 * mlp_residual; each one row with count = num_hidden_layers; qwen3 adds
 * q_norm (T x H x D) and k_norm (T x Hkv x D) after qkv_proj, layernorms
 * over each head's head_dim. Around them:
 * embed (a copy of tokens x hidden), final_norm and lm_head (the last token
 * of each sequence: M = batch, in both phases).
 *
 * The GPT-2 block (gpt2), per layer: ln_1, c_attn (N = 3 x n_embd), its
 * bias, attention (MHA), attn_proj and its bias, attn_residual, ln_2, c_fc
 * (N = n_inner), its bias, gelu (flops_per_element 14: the tanh form, as
 * import maps aten::gelu), mlp_proj and its bias, mlp_residual; around them
 * embed, pos_embed (the add of the position row), ln_f and lm_head (tied
 * to the token embedding, read as a weight all the same). A bias is a
 * pointwise add of two inputs, as qwen2's qkv_bias.
 *
 * The encoders (bert, vit; prefill only: decode is an error naming the
 * model_type), per layer: qkv (one fused matmul, N = 3 x hidden), its bias,
 * attention (not causal, B x H x S x D), attn_out and its bias,
 * attn_residual, ffn_in (N = intermediate) and its bias, gelu (14 FLOPs),
 * ffn_out and its bias, ffn_residual, with two layernorms: after each
 * residual in bert (attn_norm, ffn_norm), before each block in vit (ln_1,
 * ln_2). Around them, bert: embed (the word row's copy), embed_add (word +
 * position + token type: three inputs), embed_norm; vit: patch_embed (a
 * conv2d B x channels x image x image, kernel hidden x patch x patch,
 * stride patch) and pos_embed (the class token and position add over
 * (image / patch)^2 + 1 tokens), then ln_f; both end with the pooler (a
 * hidden x hidden matmul on the first token of each sequence) and its
 * tanh. vit's tokens per image replace --seq.
 *
 * The MoE block (mixtral: the Llama block, E = num_local_experts, k =
 * num_experts_per_tok) replaces gate_up, silu, mul and down_proj with:
 * router (a T x E x hidden matmul), topk (a reduction over the E scores of
 * each token: T x E), gather (a copy of the routed tokens: T x k x hidden),
 * expert_gate_up and expert_down (matmuls, count layers x E': the E'
 * experts the batch touches, each over M tokens), expert_silu and
 * expert_mul (over the T k routed tokens), combine_weight (the router
 * weight times each expert's output: pointwise, 2 inputs, T x k x hidden)
 * and combine_sum (the sum over k: a reduction, T x hidden x k). With
 * uniform routing E' = E (1 - (1 - k/E)^T) (rounded to the nearest whole
 * expert, 1 to E), so only E' experts' weights are read; every touched
 * expert is modelled as the busiest, M = ceil(X T k / E') tokens (at most
 * T) for --expert-imbalance X: the step waits for it. The expert rows'
 * weight_count is layers x E: all experts stay in memory (the memory fit).
 *
 * Tokens T: B x S at prefill (attention BxHxSxD, causal), B at decode
 * (attention BxHx1xCxD over the context C).
 *
 * With a parallel layout (parallel.h; docs/parallel.md) the rows are one
 * GPU's share, Megatron-style: tensor parallel (tp), the q/k/v and
 * gate/up (c_attn, c_fc, qkv, ffn_in) linears column-parallel (N / tp),
 * o_proj and down_proj (attn_proj, mlp_proj, attn_out, ffn_out)
 * row-parallel (K / tp), each followed by an allreduce of the T x hidden
 * output over the tp group (attn_allreduce, mlp_allreduce: two per layer),
 * the attention heads H / tp and the key-value heads Hkv / tp (at least 1:
 * replicated when tp > Hkv), the lm_head vocabulary-parallel (V / tp,
 * rounded up) with its logits all-gathered at inference (the vocab-parallel
 * loss's three all-reduces of T numbers in training); norms, residuals and
 * the router are replicated. Pipeline parallel (pp): the list is the last
 * stage's, ceil(L / pp) layers, the final norm and lm_head, with a sendrecv
 * of T x hidden (stage_recv) from the stage before and no embedding. Data
 * parallel (dp): each replica runs batch / dp sequences. Micro-batches m:
 * rows of batch / dp / m sequences, count x m, weight_count the weights
 * held once. Expert parallel (ep, mixtral): E / ep experts per GPU over the
 * tokens of the ep GPUs pooled, with an alltoall of the T x k routed
 * tokens before the experts (expert_dispatch) and after (expert_combine).
 * Collective rows carry ranks and nodes from the placement.
 */
#ifndef RL_MODELOPS_H
#define RL_MODELOPS_H

#include <stddef.h>
#include <stdint.h>

#include "dtype.h"
#include "err.h"
#include "hfconfig.h"
#include "parallel.h"

struct rl_impl;
struct rl_impl_kernel;
struct rl_symbols;

enum rl_modelops_phase { RL_PHASE_DECODE, RL_PHASE_PREFILL };

struct rl_modelops_opts {
	enum rl_modelops_phase phase;
	uint64_t batch;             /* sequences, >= 1 */
	uint64_t seq;               /* prompt tokens per sequence (prefill), >= 1 */
	uint64_t context;           /* KV length at decode, >= 1 */
	enum rl_dtype dtype;        /* activations (not int4 or fp4) */
	enum rl_dtype weight_dtype; /* the weights of every matmul */
	int weight_dtype_given;     /* weight_dtype was chosen (--weight-dtype):
	                             * it overrides the checkpoint's own (a
	                             * config's quantization_config) */
	uint64_t weight_group;      /* their elements per fp16 scale (group
	                             * quantisation, --weight-group); 0: none */
	enum rl_dtype kv_dtype;     /* the KV cache */
	double expert_imbalance;    /* MoE: the busiest expert's tokens over the
	                             * mean (>= 1; 0 reads as 1) */
	int mla_naive;              /* MLA (deepseek): DeepSeek's attn_impl "naive"
	                             * (K and V expanded per head, cached so) in
	                             * place of "absorb" (the latent cached, the
	                             * up-projections absorbed: the default) */
	int train;                  /* a training step's forward: the lm_head on
	                             * every token and the loss (a softmax over
	                             * the vocabulary per token) */
	const struct rl_parallel_place *par; /* one GPU's share of this layout
	                             * (placed for this batch); NULL: one GPU */
	const struct rl_impl *impl; /* the stack whose kernels the components
	                             * it names are (impl.h); NULL: the fused
	                             * ideal, the builder's own rows */
};

/* One row of op list v1 (docs/oplist-format.md). A zero field is an empty
 * cell (the column's default). */
struct rl_modelops_row {
	char name[24];
	const char *kind; /* "matmul", "pointwise", ... */
	const char *dtype; /* NULL: the step's dtype; else a dtype name */
	unsigned char comp; /* 0: the builder's; else 1 + the implementation's
	                     * component (impl.h) the row is a kernel of */
	char shape[96];
	unsigned inputs;   /* pointwise */
	int causal;        /* attention */
	uint64_t kv_heads; /* attention */
	int weights;       /* matmul: carries weight_dtype */
	int grouped;       /* matmul BxMxNxK: one grouped GEMM (grouped) */
	int linear;        /* matmul: B is nn.Linear's [N, K] weight (layout) */
	unsigned strided;  /* pointwise, copy: offset calculations per element */
	int kv;            /* attention: carries kv_dtype */
	uint64_t window;   /* attention: the sliding window's keys (0: none) */
	uint64_t v_head_dim; /* attention: V's and O's head dim (0: D) */
	int kv_shared;     /* attention: V is the first v_head_dim channels of K */
	int kv_rebuilt;    /* attention: K and V rebuilt this step, no cache held
	                    * (kv_cached=0: an implementation's MLA) */
	const char *weight_dtype; /* matmul with weights: NULL, the step's; else
	                   * the checkpoint's (gpt_oss's mxfp4 experts) */
	unsigned fpe;      /* pointwise: flops_per_element (0: the default) */
	char kernel[32];   /* conv2d: KxRxS ("": no kernel column) */
	uint64_t stride;   /* conv2d */
	uint64_t count;
	uint64_t weight_count; /* matmul: weight sets resident (0: count) */
	uint64_t fresh;        /* calls a step at input shapes new to the process
	                        * (op.h): 1 on a decode step's rows whose shape
	                        * follows the context */
	int activations;       /* matmul: both operands activations (an
	                        * implementation's GEMM of scores): no weights
	                        * held, weight_count=0 */
	uint64_t ranks, nodes; /* collectives: the group's GPUs and nodes */
	int overlap;           /* collectives: on the communication stream beside
	                        * the compute after it (overlap=1) */
	double host_us;        /* 0: the runtime's; else the host's cost per launch
	                        * (host_overhead_us: an implementation's eager
	                        * loop around a graph) */
	uint64_t live;         /* bytes other tensors hold alive while it runs
	                        * (live_bytes; 0: none) */
	uint64_t bytes;        /* 0: the formula's; else the bytes of one occurrence
	                        * (an implementation's cast: read in one dtype,
	                        * written in another) */
	uint64_t params;       /* the weights the row holds besides a matmul's B
	                        * (the token table, norms, biases), elements, the
	                        * row's as a whole (op.h) */
	uint64_t weight_group; /* matmul with weights: elements per fp16 scale */
};

#define RL_MODELOPS_MAX 160

/* The largest batch, seq and context. */
#define RL_MODELOPS_MAX_SIZE 16777216u /* 2^24 */

/* The bytes (count x each row's) of the rows of ROWS (N, of step O) that
 * are kernels of the implementation's component COMP (enum rl_impl_comp):
 * what that component moves a step. */
double rl_modelops_comp_bytes(const struct rl_modelops_row *rows, int n,
                              const struct rl_modelops_opts *o, int comp);

/* The row of kernel K of an implementation (impl.h), run COUNT times (times
 * its own count), its expressions evaluated over SYM: its name, kind,
 * dtype (NULL: the step's), shape, count, bytes, kv_heads and params, and
 * the component it belongs to. A product past 2^64 - 1 is UINT64_MAX; a
 * count of 0 (an expression that comes to 0 at the step's sizes) is a
 * kernel the step does not launch, which the callers leave out.
 * Returns 0, or the status of ERR (an expression over a name SYM does
 * not bind, a size out of range). */
int rl_modelops_kernel_row(const struct rl_impl_kernel *k, const struct rl_symbols *sym,
                           uint64_t count, struct rl_modelops_row *r, struct rl_err *err);

/* E (1 - (1 - k/E)^T): the distinct experts T tokens touch when each picks
 * k of E uniformly. */
double rl_modelops_experts_touched(uint64_t experts, uint64_t k, uint64_t tokens);

/* Fills ROWS (RL_MODELOPS_MAX of them) with the step's op list; returns the
 * number of rows, or RL_ERR_RANGE or RL_ERR_ARG with ERR filled.
 * RL_ERR_RANGE: a size of 0 or past 2^24, or a row the op-list reader would
 * refuse for its size (an element count past 2^64, a count past 2^53): one
 * message, CFG->name first, naming the keys and options the row's sizes
 * come from with their values ("config.json: hidden_size 16777216 and
 * head_dim 16777216 make the step's qkv_proj (matmul ...) too large: the
 * matmul operand has more than 2^64 elements"). RL_ERR_ARG: decode of an
 * encoder; a training step of int4 or fp4 weights (they train frozen only);
 * a layout the model does not divide (rl_parallel_check_model). */
int rl_modelops_build(const struct rl_hfconfig *cfg, const struct rl_modelops_opts *o,
                      struct rl_modelops_row *rows, struct rl_err *err);

/* Every weight of the model C describes (its parameter count), from its
 * block description (family.h), on one GPU: the embedding tables (the
 * token table; gpt2's positions; bert's positions and token types; vit's
 * patch filter, class token and positions), every layer's norms (RMSNorm a weight per channel, LayerNorm
 * a weight and a bias), q/k norms, projections and their biases, the MLP
 * or every expert and the router, the final norm, and the lm_head (once
 * when tied to the token table) or the pooler. A double: exact up to 2^53
 * weights. The memory fit's weights are the same count: the step's rows
 * hold them (their matmuls' B, and params, rl_modelops_row). */
double rl_modelops_weights(const struct rl_hfconfig *c);

/* The weights of C's multi-token-prediction modules (deepseek_v3's
 * num_nextn_predict_layers; 0 without): per module, DeepSeek-V3's enorm
 * and hnorm, eh_proj (2 hidden -> hidden), one MoE decoder layer and the
 * shared head's norm (the embedding and the output head are the main
 * model's). Not in rl_modelops_weights (the published count is the main
 * model's); the memory fit holds them (the step's final norm carries
 * them: a speculative decoder keeps them resident). */
double rl_modelops_mtp_weights(const struct rl_hfconfig *c);

/* 1 when NAME is a row the builder makes whose sizes it can name in a
 * message (every row should be: the tests check), else 0. */
int rl_modelops_row_known(const char *name);

#endif
