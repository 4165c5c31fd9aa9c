/* impl.h - an implementation: the kernels a software stack launches for
 * each component of a transformer block (hwdb/NAME.impl).
 *
 * `roofline model` builds a step from the block description of the
 * config's family (family.h); the builder's own rows are the fused ideal
 * (a serving engine's kernels). An implementation file names, per block
 * component (the norm, the rotary embedding, the KV-cache update, the MLP,
 * ...), the kernels another stack launches in its place, with shapes as
 * expressions of the step's sizes (B, T, H, ...; docs/hwdb-format.md,
 * "Implementations"). A component the file does not name for a family
 * keeps the builder's rows, so `fused.impl` names none.
 *
 * Layer 3 reader: the file is parsed and checked here (kvfile.h syntax);
 * modelops.c evaluates the kernels for a step. Nothing here computes
 * physics.
 */
#ifndef RL_IMPL_H
#define RL_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "kind.h"

/* The block components an implementation may name, in the order a step
 * runs them: the key of each kernel line, and whether the builder's own
 * list (the fused ideal) gives the component a row (0: it is fused into
 * another's, as the rotary embedding and the cache update are into
 * attention's, or absent, as sampling). */
#define RL_IMPL_COMP_MAP(XX)                                                                      \
	XX(EMBED, "embed", 1)         /* the token (and position) embedding */                    \
	XX(ROPE, "rope", 0)           /* the step's rotary table (cos, sin), once a step */       \
	XX(MASK, "mask", 0)           /* the step's attention mask and position ids */            \
	XX(NORM, "norm", 1)           /* each norm of a layer, and the final norm */              \
	XX(QKV, "qkv", 1)             /* the q, k, v projections */                               \
	XX(QKV_BIAS, "qkv_bias", 1)   /* their bias */                                            \
	XX(QK_NORM, "qk_norm", 1)     /* the per-head norm of q and k (qwen3) */                  \
	XX(ROTARY, "rotary", 0)       /* the rotary embedding applied to q and k */               \
	XX(CACHE, "cache", 0)         /* the KV-cache update */                                   \
	XX(ATTENTION, "attention", 1) /* attention over the cache */                              \
	XX(O_PROJ, "o_proj", 1)       /* the attention's output projection */                     \
	XX(RESIDUAL, "residual", 1)   /* each residual add */                                     \
	XX(MLP, "mlp", 1)             /* the dense MLP: up (and gate), activation, down */        \
	XX(ROUTER, "router", 1)       /* MoE: the router, top-k and the routing weights */        \
	XX(EXPERTS, "experts", 1)     /* MoE: the experts and the combine */                      \
	XX(LOGITS, "logits", 1)       /* the lm_head */                                           \
	XX(SAMPLE, "sample", 0)       /* picking the next token from the logits */

enum rl_impl_comp {
#define RL_IMPL_COMP_ENUM(id, name, row) RL_IMPL_##id,
	RL_IMPL_COMP_MAP(RL_IMPL_COMP_ENUM)
#undef RL_IMPL_COMP_ENUM
	RL_IMPL_COMP_COUNT
};

/* The component's key ("norm"). */
const char *rl_impl_comp_name(enum rl_impl_comp c);

/* Whether the builder's own list gives component C a row (the map's third
 * column). */
int rl_impl_comp_has_row(enum rl_impl_comp c);

/* The component whose key is NAME into *C: 0, or -1 for no component. */
int rl_impl_comp_parse(const char *name, enum rl_impl_comp *c);

/* Every component's key, as "embed, rope, ... or sample", for messages. */
const char *rl_impl_comp_expected(void);

/* The conditions a kernel line may carry (if=NAME, if=!NAME): facts of
 * the step and of the family's block. */
enum rl_impl_if {
	RL_IMPL_IF_PREFILL = 1u << 0, /* "prefill": a prefill step (an encoder's forward) */
	RL_IMPL_IF_DECODE = 1u << 1,  /* "decode": a decode step over a KV cache */
	RL_IMPL_IF_TRAIN = 1u << 2,   /* "train": a training step's forward */
	RL_IMPL_IF_RMS = 1u << 3,     /* "rms": RMSNorm (else LayerNorm) */
	RL_IMPL_IF_GATED = 1u << 4,   /* "gated": the gated MLP (else plain) */
	RL_IMPL_IF_BIAS = 1u << 5,    /* "bias": the q, k, v projections carry a bias */
	RL_IMPL_IF_CAUSAL = 1u << 6,  /* "causal": a decoder (else an encoder) */
	RL_IMPL_IF_FINAL = 1u << 7,   /* "final": the final norm after the last layer */
	RL_IMPL_IF_SLIDING = 1u << 8, /* "sliding": the sliding-window layers' cache */
	RL_IMPL_IF_BATCHED = 1u << 9, /* "batched": more than one sequence (B > 1) */
	RL_IMPL_IF_RADIX = 1u << 10,  /* "radix": MoE, over 4096 routed rows (T K):
	                               * aten::sort takes cub's radix sort */
	RL_IMPL_IF_WINDOWED = 1u << 11, /* "windowed": the sliding window is shorter
	                                 * than the keys (W < C): its mask is more
	                                 * than causal */
	RL_IMPL_IF_MQA = 1u << 12,    /* "mqa": one key-value head a GPU (KVH = 1) */
	RL_IMPL_IF_NORM_TOPK = 1u << 13, /* "norm_topk": an MoE whose k routing weights
	                                  * are renormalised to sum to 1
	                                  * (norm_topk_prob; mixtral always) */
};
#define RL_IMPL_IF_COUNT 14

/* The RL_IMPL_IF_* bit of the condition NAME ("sliding"), or 0. */
unsigned rl_impl_if_parse(const char *name);

/* Every condition's name, as "prefill, decode, ... or mqa", for messages. */
const char *rl_impl_if_expected(void);

/* The names a kernel's expressions use, bound for each step by the
 * builder (modelops.c): one GPU's share under a parallel layout. */
#define RL_IMPL_SYM_MAP(XX)                                                                       \
	XX(B, "the sequences of the batch")                                                       \
	XX(S, "the tokens of each sequence in this step: --seq at prefill, 1 at decode")          \
	XX(T, "the tokens of the step: B x S")                                                    \
	XX(C, "the keys attention reads: --seq at prefill, the context at decode")                \
	XX(H, "hidden_size")                                                                      \
	XX(I, "intermediate_size")                                                                \
	XX(NH, "the query heads")                                                                 \
	XX(KVH, "the key-value heads")                                                            \
	XX(D, "head_dim")                                                                         \
	XX(V, "vocab_size")                                                                       \
	XX(E, "the experts (MoE)")                                                                \
	XX(K, "the experts each token picks (MoE)")                                               \
	XX(ET, "the experts the step's tokens touch (MoE: E (1 - (1 - K/E)^T))")                  \
	XX(EM, "the tokens of the busiest expert (MoE)")                                          \
	XX(EI, "each routed expert's intermediate: moe_intermediate_size, else I (MoE)")          \
	XX(W, "the keys a sliding layer's cache holds: min(C, sliding_window); C without one")    \
	XX(R, "the logits' rows: B, or T in training")                                          \
	XX(N, "the features a norm normalises: hidden_size; MLA's q_lora_rank, kv_lora_rank")     \
	XX(LR, "MLA: kv_lora_rank, the latent a token's cache holds")                             \
	XX(DN, "MLA: qk_nope_head_dim")                                                           \
	XX(DR, "MLA: qk_rope_head_dim")                                                           \
	XX(DV, "v_head_dim (MLA), else head_dim")                                                 \
	XX(SI, "the shared experts' intermediate (MoE: all of them together)")                   \
	XX(G, "the groups of experts a router ranks first: n_group (MoE; 1 without)")

enum rl_impl_sym {
#define RL_IMPL_SYM_ENUM(id, text) RL_IMPL_SYM_##id,
	RL_IMPL_SYM_MAP(RL_IMPL_SYM_ENUM)
#undef RL_IMPL_SYM_ENUM
	RL_IMPL_SYM_COUNT
};

struct rl_symbols;

/* Binds V[RL_IMPL_SYM_COUNT] (a 0 binds as 1: a size the step lacks) to
 * the names of RL_IMPL_SYM_MAP in *S (initialised here). Returns 0 or
 * rl_symbols_set's status. */
int rl_impl_bind(struct rl_symbols *s, const uint64_t *v, struct rl_err *err);

/* Binds symbol SYM of *S (bound by rl_impl_bind) to V (a 0 as 1): the
 * builder's norm of another width (MLA's latent norms, N). */
void rl_impl_rebind(struct rl_symbols *s, enum rl_impl_sym sym, uint64_t v);

/* The name of symbol S ("KVH") and what it stands for. */
const char *rl_impl_sym_name(enum rl_impl_sym s);
const char *rl_impl_sym_text(enum rl_impl_sym s);

#define RL_IMPL_NAME_LEN  24  /* a kernel's row name + 1 */
#define RL_IMPL_EXPR_LEN  96  /* a shape or an expression + 1 */
#define RL_IMPL_MAX_CHOICES 8
#define RL_IMPL_MAX_VALUES  6 /* values of one choice */
#define RL_IMPL_CHOICE_LEN 16

/* One kernel of a component: a row of the op list. */
struct rl_impl_kernel {
	enum rl_impl_comp comp;
	int none;                      /* "-": the component launches nothing */
	char name[RL_IMPL_NAME_LEN];
	enum rl_kind kind;
	int dtype;                     /* an enum rl_dtype, or -1: the step's */
	char shape[RL_IMPL_EXPR_LEN];  /* dims over the step's names */
	char count[RL_IMPL_EXPR_LEN];  /* "": 1; else per component use */
	char bytes[RL_IMPL_EXPR_LEN];  /* "": the formula's; else the bytes */
	char live[RL_IMPL_EXPR_LEN];   /* "": none; else the bytes other tensors
	                                * hold alive while it runs (live_bytes) */
	char kv_heads[RL_IMPL_EXPR_LEN]; /* attention: "" or an expression */
	char params[RL_IMPL_EXPR_LEN];   /* "": none; else weights held per use
	                                  * besides the row's own (params) */
	unsigned inputs;               /* pointwise: 0 is the default */
	unsigned fpe;                  /* flops_per_element: 0 is the default */
	double host_us;                /* host=US: the host's cost per launch in
	                                * place of the runtime's (0: the runtime's) */
	int weights;                   /* matmul: reads the weights */
	int conv1d;                    /* matmul with weights: held [K, N], as HF's
	                                * Conv1D holds them (torch.addmm); else
	                                * nn.Linear's [N, K] (F.linear) */
	int grouped;                   /* matmul BxMxNxK: one grouped GEMM */
	unsigned strided;              /* pointwise, copy: offset calculations per
	                                * element (op.h); 0: a vectorised stream */
	int causal;                    /* attention */
	int kv;                        /* attention: reads the KV cache */
	unsigned need, refuse;         /* RL_IMPL_IF_* bits that must hold, must not */
	uint32_t families;             /* bit i: rl_families[i]; 0: every family */
	int choice, value;             /* the choice (index) and value it needs; -1: none */
	size_t line;
	char *source;
};

/* A decision the stack takes by shape or version, with its values (the
 * first is the default) and what each means. */
struct rl_impl_choice {
	char name[RL_IMPL_CHOICE_LEN];
	int nvalues;
	char value[RL_IMPL_MAX_VALUES][RL_IMPL_CHOICE_LEN];
	char *source;
	int chosen; /* the value in use: 0 unless rl_impl_choose changed it */
};

struct rl_impl {
	char *id, *name;   /* "hf"; a line for people */
	char *stack;       /* the stack and versions it was read from */
	char *trace;       /* the recordings it was read from */
	char *runtime;     /* the runtime profile id it runs with by default */
	char *path;
	int autograd;      /* training: the backward as eager autograd runs it */
	struct rl_impl_kernel *k;
	size_t nk;
	struct rl_impl_choice choice[RL_IMPL_MAX_CHOICES];
	int nchoices;
	int names[RL_IMPL_COMP_COUNT]; /* the components with a kernel line */
};

/* Reads the implementation file PATH into *IM (released with
 * rl_impl_release, also after a failure). Every kernel line needs a source;
 * an unknown component, kind, dtype, condition, family, choice or option
 * is an error naming it, at "PATH:LINE". Returns 0, RL_ERR_IO or
 * RL_ERR_PARSE. */
int rl_impl_load(const char *path, struct rl_impl *im, struct rl_err *err);
void rl_impl_release(struct rl_impl *im);

/* The implementation NAME: a path (a name with '/' or ending in ".impl"),
 * else the file of DIR whose id is NAME. Its choices may follow after ':'
 * as CHOICE=VALUE,... ("hf:cache=static"). Returns 0, RL_ERR_IO,
 * RL_ERR_PARSE or RL_ERR_ARG (an unknown name: the message lists the
 * ids of DIR). */
int rl_impl_find(const char *dir, const char *name, struct rl_impl *im, struct rl_err *err);

/* Every implementation file of DIR, sorted by path, into *OUT (*N of them,
 * malloc'ed; release each with rl_impl_release, then free *OUT); the
 * fused ideal built in when DIR has none of that id. Returns 0, RL_ERR_IO,
 * RL_ERR_PARSE or RL_ERR_NOMEM. */
int rl_impl_all(const char *dir, struct rl_impl **out, size_t *n, struct rl_err *err);

/* Sets IM's choices from SPEC, "CHOICE=VALUE,..." (NULL or "": none).
 * Returns 0 or RL_ERR_ARG naming the choice or value and the known ones. */
int rl_impl_choose(struct rl_impl *im, const char *spec, struct rl_err *err);

/* The ids of DIR's implementation files, sorted, as "a, b or c", into BUF
 * (LEN bytes). Returns how many, or a negative status. */
int rl_impl_ids(const char *dir, char *buf, size_t len, struct rl_err *err);

/* Whether IM names component C for the family at index FAMILY of
 * rl_families (a line that applies to it, whatever its conditions). */
int rl_impl_names(const struct rl_impl *im, enum rl_impl_comp c, int family);

/* Whether kernel K of IM applies to the family at index FAMILY under the
 * facts HAVE (RL_IMPL_IF_* bits) and IM's choices. */
int rl_impl_applies(const struct rl_impl *im, const struct rl_impl_kernel *k, int family,
                    unsigned have);

/* "cache=dynamic, logits=all": IM's choices as chosen, into BUF. */
void rl_impl_choices_text(const struct rl_impl *im, char *buf, size_t len);

#endif
