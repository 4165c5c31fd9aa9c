/* op.h - one operator as read from an op list, before any physics.
 *
 * A struct rl_op records what the user wrote: kind, dtype, shape, explicit
 * numbers, and where it came from (line). Flags say which optional columns
 * were given, so "empty cell = default" is resolved later by formulas.c and
 * model.c. Strings are borrowed from whoever produced the op (the reader keeps
 * them valid until the op callback returns; an rl_oplist until it is freed).
 */
#ifndef RL_OP_H
#define RL_OP_H

#include <stddef.h>
#include <stdint.h>

#include "dtype.h"
#include "kind.h"

#define RL_MAX_DIMS 6
/* Block components one row may name (column 'component': "rotary+cache+attention"). */
#define RL_OP_MAX_COMPS 4


/* Which part of a training step an op belongs to (column 'phase';
 * docs/oplist-format.md, "Training steps"). An inference list is all
 * forward. */
enum rl_phase {
	RL_PHASE_FORWARD,
	RL_PHASE_BACKWARD,
	RL_PHASE_OPTIMIZER,
	RL_PHASE_COUNT
};

/* An attention row's explicit attn_mask (column 'mask'): none, an additive
 * mask of the op's dtype (SDPA's float mask, added to the scores), or a
 * bool mask (True keeps the score), which SDPA turns into a float one
 * before its kernel (docs/oplist-format.md, "Attention masks"). */
enum rl_mask {
	RL_MASK_NONE,
	RL_MASK_FLOAT,
	RL_MASK_BOOL
};

/* Which optional columns an op gave (bits of rl_op.has). */
enum {
	RL_HAS_SHAPE = 1 << 0,
	RL_HAS_KERNEL = 1 << 1,
	RL_HAS_FPE = 1 << 2, /* flops_per_element */
	RL_HAS_FLOPS = 1 << 3,
	RL_HAS_BYTES = 1 << 4,
	RL_HAS_MEASURED = 1 << 5,
	RL_HAS_FMA = 1 << 6,
	RL_HAS_HOST = 1 << 7,
	RL_HAS_WEIGHT_DTYPE = 1 << 8, /* weight_dtype (matmul, conv2d) */
	RL_HAS_KV_DTYPE = 1 << 9,     /* kv_dtype (attention) */
	RL_HAS_RANKS = 1 << 10,       /* ranks (collectives) */
	RL_HAS_NODES = 1 << 11,       /* nodes (collectives) */
	RL_HAS_HOST_COST = 1 << 12,   /* host_overhead_us */
	RL_HAS_WEIGHT_COUNT = 1 << 13, /* weight_count (0: both operands
	                                * activations, no weights held) */
};

struct rl_op {
	const char *name;
	enum rl_kind kind;
	enum rl_dtype dtype;
	enum rl_unit unit;        /* RL_UNIT_AUTO when not given */
	unsigned has;             /* RL_HAS_* bits */
	int ndims;
	uint64_t dims[RL_MAX_DIMS];
	unsigned char dim_sym[RL_MAX_DIMS]; /* 1 + index in the rl_symbols a dim was
	                                     * bound from (symbols.h), 0: a number */
	uint64_t kernel[3];       /* conv2d: output channels K, filter R x S */
	uint64_t stride;          /* conv2d, default 1 */
	uint64_t padding;         /* conv2d, default 0 */
	uint64_t groups;          /* conv2d, default 1 */
	int causal;               /* attention: 1 halves the score work */
	uint64_t kv_heads;        /* attention: heads of K and V; 0: the query heads */
	enum rl_dtype weight_dtype; /* matmul, conv2d: B / the filter (RL_HAS_WEIGHT_DTYPE) */
	enum rl_dtype kv_dtype;   /* attention: K and V (RL_HAS_KV_DTYPE) */
	uint64_t window;          /* attention: a sliding window, the most recent
	                           * keys each query sees, its own included
	                           * (formulas.h); 0: no window */
	uint64_t v_head_dim;      /* attention: the head dim Dv of V and of the
	                           * output O where it differs from Q's and K's D
	                           * (the shape's last dim; DeepSeek's MLA: 192
	                           * and 128); 0: D (formulas.h) */
	int kv_shared;            /* attention: 1: V is the first Dv channels of
	                           * K, not a tensor of its own (MLA's latent
	                           * cache, absorbed): read and held once, as K */
	int kv_rebuilt;           /* attention: 1 (kv_cached=0): K and V are this
	                           * step's activations, rebuilt from a cache of
	                           * another form (transformers' MLA, from the
	                           * latent): no KV cache held by the row */
	enum rl_mask mask;        /* attention: an explicit attn_mask */
	uint64_t mask_dims[4];    /* attention, with a mask: its [B, H, Sq, Sk],
	                           * each the op's size or 1 where the mask is
	                           * broadcast (mask_shape, right-aligned; not
	                           * given: all 0, [B, 1, Sq, Sk], the sizes
	                           * of rl_attention_mask_dims, formulas.h) */
	uint64_t weight_group;    /* weight elements per fp16 scale; 0: no scales */
	int fma;                  /* 1: the FLOPs are fused multiply-adds */
	uint64_t inputs;          /* pointwise: input tensors of the output's size */
	double flops_per_element;
	double flops;             /* explicit FLOPs (one FMA = 2) */
	double bytes;             /* explicit bytes to and from device memory */
	uint64_t launches;        /* kernels per occurrence, default 1 */
	uint64_t count;           /* occurrences, default 1 */
	uint64_t fresh;           /* of them, the calls a step at input shapes new
	                           * to the process (the context grows: a decode
	                           * step's attention and cache update), each
	                           * adding the runtime's host_extra_us.KIND (a
	                           * library's plan for the new shape); 0 to count */
	enum rl_phase phase;      /* forward (the default), backward, optimizer */
	int frozen;               /* matmul, conv2d: 1 (trainable=0): no weight
	                           * gradient, no optimizer state */
	uint64_t weight_count;    /* matmul, conv2d: weight sets held in memory
	                           * (RL_HAS_WEIGHT_COUNT: 0 is none, a matmul of
	                           * two activations); not given: count (memfit.h) */
	uint64_t ranks;           /* collectives: GPUs taking part (RL_HAS_RANKS) */
	uint64_t nodes;           /* collectives: nodes they span, default 1 */
	int overlap;              /* collectives: 1 (overlap=1): on the
	                           * communication stream, no later op waits for
	                           * it (a gradient all-reduce); 0: the next op
	                           * needs its result (timeline.h) */
	double measured_us;       /* observed GPU time of one occurrence */
	double host_us;           /* observed host-side (CPU) time of one occurrence */
	double host_overhead_us;  /* the host's cost per launch in place of the
	                           * runtime profile's (RL_HAS_HOST_COST): an op a
	                           * stack runs outside the rest (the eager loop
	                           * around a CUDA graph) */
	size_t line;              /* line of the op list, 0 when not from a file */
	const char *const *extra; /* carried-through cells, one per extra column */
	const char *fuse;         /* fusion group (fusion.h), NULL when not given */
	int nperm;                /* copy: dims in perm, 0 when not given */
	unsigned char perm[RL_MAX_DIMS]; /* copy: the input's dim at each output
	                                  * dim (x.permute(...).contiguous()) */
	int grouped;              /* matmul BxMxNxK: 1 runs the B problems as one
	                           * grouped GEMM (torch._grouped_mm) */
	double live_bytes;        /* bytes other tensors hold alive while the op
	                           * runs (the memory fit's peak: _safe_softmax's
	                           * isneginf mask during its where); 0: none */
	int linear;               /* matmul: 1 when B is [N, K] as nn.Linear holds
	                           * its weight (F.linear: cuBLAS's TN kernels);
	                           * 0 when [K, N] (torch.mm: NN) */
	uint64_t vector_bytes;    /* pointwise: the bytes a thread moves per access
	                           * of an operand (a Triton kernel's XBLOCK over
	                           * its 32 x num_warps threads, times the element
	                           * size); below 16 its loads are not 128-bit
	                           * vectors (expected.c); 0: not given, a
	                           * vectorised stream */
	int strided;              /* pointwise, copy: the offset calculations each
	                           * element costs in PyTorch's unvectorised loop
	                           * (1: strided, broadcast or widening operands;
	                           * 2: a cat of strided inputs); 0: a vectorised
	                           * stream */
	unsigned char comps[RL_OP_MAX_COMPS]; /* component: 1 + each enum rl_impl_comp
	                           * (impl.h) the row stands for, in order; 0
	                           * ends; an implementation's kernels replace
	                           * the row under classify --impl (component.h) */
	unsigned comp_facts;      /* component: the RL_IMPL_IF_* facts it adds
	                           * after ':' ("attention:sliding") */
	int family;               /* model_type: 1 + the index in rl_families
	                           * (family.h) whose code runs the components;
	                           * 0: none */
	uint64_t params;          /* weight elements the row holds in memory
	                           * besides its kind's operands (an embedding
	                           * table, a norm's weight, a bias), for the row
	                           * as a whole: not times count (memfit.h) */
};

/* Sets OP to the defaults of an op with no optional column given. */
void rl_op_init(struct rl_op *op);

/* The keys of a runtime's host cost per op (host_overhead_us.KEY,
 * docs/hwdb-format.md): every op kind (its enum rl_kind value), then the
 * paths of a kind whose ATen entry point costs the host more than the
 * kind's: an fp8 matmul is torch._scaled_mm, which sets up its cuBLASLt
 * call on every call (43 us against torch.mm's 12.7 on the H200 host of
 * docs/measurements/h200-issue26-2026-12-02). A path's cost defaults to
 * its kind's. */
enum rl_host_key {
	RL_HOST_MATMUL_FP8 = RL_KIND_COUNT, /* "matmul.fp8" */
	RL_HOST_KEY_COUNT
};

/* The host key of OP: RL_HOST_MATMUL_FP8 for a matmul of an fp8 dtype,
 * else OP's kind. */
int rl_op_host_key(const struct rl_op *op);

/* The kind a host key refines (RL_KIND_MATMUL for RL_HOST_MATMUL_FP8; a
 * kind for itself). */
enum rl_kind rl_host_key_kind(int key);

/* A host key's name ("matmul", "matmul.fp8"), or NULL out of range. */
const char *rl_host_key_name(int key);

/* Looks NAME up ("softmax", "matmul.fp8"); returns 0 and sets *OUT, or
 * RL_ERR_PARSE. */
int rl_host_key_parse(const char *name, int *out);

/* Canonical name of a phase ("backward"). */
const char *rl_phase_name(enum rl_phase p);

/* Looks NAME up case-insensitively; returns 0 and sets *OUT, or
 * RL_ERR_PARSE. */
int rl_phase_parse(const char *name, enum rl_phase *out);

#endif
