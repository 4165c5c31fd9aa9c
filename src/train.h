/* train.h - a training step from a forward op list: each forward op's
 * backward ops, activation recomputation, the optimizer step, and what the
 * step holds in memory beyond inference (docs/oplist-format.md, "Training
 * steps", which gives every rule with its source).
 *
 * Backward rules (per forward op; the op list has no graph, so each op is
 * taken to need the gradient of its input, but the list's first op when it
 * occurs once: it reads the model's input):
 * - matmul [B]xMxNxK: grad-input [B]xMxKxN (dC x B^T) and grad-weight
 *   [B]xKxNxM (A^T x dC), the latter not for a frozen row (trainable=0):
 *   exactly twice the forward FLOPs;
 * - conv2d: its data gradient and its weight gradient, each the forward's
 *   FLOPs over the same three tensors (dY and W to dX; X and dY to dW);
 * - attention: the flash backward, 2.5 x the forward's FLOPs (five GEMMs
 *   to the forward's two) over Q, K, V, O and dO read and dQ, dK, dV written;
 * - layernorm: two kernels, the input gradient and the weight gradient,
 *   each reading x and dy: 5 x N elements;
 * - softmax: dy and y read, dx written: 3 x N;
 * - pointwise with k inputs: dy and the k inputs read, k gradients written;
 * - reduction: dy broadcast to the input's size;
 * - copy: the same bytes (an embedding's gradient scatters its rows back);
 * - custom: the same FLOPs and bytes as forward (nothing more is known).
 *
 * Eager autograd (O->autograd; docs/oplist-format.md, "Eager autograd"),
 * rows added to the ones above, each from the forward row alone:
 * - a trainable 2-D matmul MxNxK is a linear layer with its bias
 *   (nn.Linear's default): "NAME.bias_grad", a reduction NxM (dY summed
 *   over the M rows: the engine's sum_to of addmm's broadcast bias), and
 *   under autocast "NAME.bias_grad_cast", a copy of N elements (es read,
 *   4 written); its forward cast (rl_train_forward) casts the bias too;
 * - attention: "NAME.qkv_grad", a copy of Q + K + V elements (dQ, dK, dV
 *   leave the kernel as [B, H, S, D] and reach the projection as
 *   [B, S, H x D]: the copy of a view's non-contiguous gradient, or
 *   split's cat);
 * - pointwise with k >= 2 inputs: "NAME.accumulate", k - 1 kernels adding
 *   two gradients (k - 1 of its inputs were forked from tensors that feed
 *   another op too: the engine's InputBuffer accumulation, add_), each N
 *   FLOPs and 3 x N elements; under autocast an fp32 one adds a 16-bit
 *   branch to the fp32 stream: "NAME.grad_cast", the branch's gradient
 *   cast to 16 bits (N x (4 + 2) bytes);
 * - under autocast, a 16-bit softmax is cross_entropy's log_softmax:
 *   "NAME.loss_grad_fill", nll_loss_backward zeroing the fp32 gradient of
 *   the N log-probabilities (4 x N bytes written, no FLOPs).
 * Pure: no I/O.
 */
#ifndef RL_TRAIN_H
#define RL_TRAIN_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "formulas.h"
#include "op.h"

enum rl_optimizer {
	RL_OPT_ADAMW, /* Adam with decoupled weight decay: m and v */
	RL_OPT_ADAM,  /* Adam (no weight decay): m and v */
	RL_OPT_SGD,   /* SGD with momentum: one buffer */
	RL_OPT_NONE,  /* gradients only */
};

struct rl_train_opts {
	enum rl_optimizer optimizer;
	int fused;                 /* 1: one fused kernel per launch group
	                            * (fused=True); 0: PyTorch's foreach passes */
	enum rl_dtype state_dtype; /* the optimizer's state, fp32 by default */
	int autocast;              /* weights and gradients kept in fp32, the ops
	                            * computing in their dtype (torch.autocast):
	                            * each weight is cast in forward, each weight
	                            * gradient back in backward */
	int master;                /* an fp32 master copy of 16-bit weights that
	                            * the optimizer updates and copies back */
	int recompute;             /* activation recomputation (checkpointing) */
	int weight_decay;          /* L2 weight decay (SGD's and Adam's
	                            * weight_decay > 0): the foreach step first
	                            * adds wd x p to the gradient, a pass of its
	                            * own; AdamW's decoupled decay is always
	                            * there */
	uint64_t grad_accum;       /* micro-batches per optimizer step, >= 1 */
	/* a pipeline's micro-batches: the op list's counts hold each row once
	 * per micro-batch (microbatches, >= 1), of which in_flight (>= 1) have
	 * their activations saved at once: 1F1B's min(m, pp) on the first
	 * stage (Narayanan et al. 2021, section 2.2.1), 1 without stages */
	uint64_t microbatches;
	double in_flight;
	/* ZeRO (parallel.h's zero): the stage and the data-parallel ranks the
	 * state is sharded over; 0 and 1 without */
	int zero;
	uint64_t shards;
	int autograd;              /* eager autograd (classify --impl hf): the
	                            * backward gains the kernels PyTorch's eager
	                            * autograd launches beside the ideal ones
	                            * (the rules below, "Eager autograd") */
};

void rl_train_opts_init(struct rl_train_opts *o);

/* Parses "adamw", "adam", "sgd", "none"; 0 or RL_ERR_PARSE. */
int rl_optimizer_parse(const char *s, enum rl_optimizer *out);
const char *rl_optimizer_name(enum rl_optimizer o);

/* An op made by the expansion, with room for its name. */
struct rl_train_op {
	struct rl_op op; /* op.name is NULL: use name */
	char name[80];
};

#define RL_TRAIN_MAX_BWD 6 /* ops one forward op expands to, at most */
#define RL_TRAIN_MAX_OPT 11

/* Under autocast (O->autocast), an op on torch.amp's CUDA fp32 list
 * computes in fp32 whatever its inputs' dtype (aten/src/ATen/autocast_mode.cpp:
 * layer_norm, native_layer_norm, group_norm): a layernorm row in fp16 or
 * bf16 becomes fp32, forward and backward. Other rows keep their dtype. */
void rl_train_autocast(const struct rl_train_opts *o, struct rl_op *op);

/* The ops that run with forward op FWD in a training step, into OUT (at
 * most 1): with autocast, the cast of its fp32 weights to its dtype before
 * it (a matmul or conv2d: "NAME.cast", a copy of phase forward; with
 * autograd, a 2-D matmul's bias of N elements is cast too, a second
 * kernel of the row). Returns how many. */
int rl_train_forward(const struct rl_train_opts *o, const struct rl_op *fwd,
                     struct rl_train_op *out);

/* rl_train_forward() from the formulas' record W of FWD (rl_op_derive()). */
int rl_train_forward_work(const struct rl_train_opts *o, const struct rl_op *fwd,
                          const struct rl_work *w, struct rl_train_op *out);

/* The backward ops (and, with recompute, the recomputed forward op first)
 * of one forward op FWD into OUT, in the order they run; FIRST: FWD is the
 * list's first op. The ops keep FWD's line, dtype and count (times
 * grad_accum) and have phase backward. Returns how many (0 to
 * RL_TRAIN_MAX_BWD), or RL_ERR_PARSE / RL_ERR_RANGE for an op the rules
 * cannot take (ERR says why; no location). */
int rl_train_backward(const struct rl_train_opts *o, const struct rl_op *fwd, int first,
                      struct rl_train_op *out, struct rl_err *err);

/* rl_train_backward() from the formulas' record W of FWD (rl_op_derive()),
 * read instead of deriving FWD again. Returns as rl_train_backward(). */
int rl_train_backward_work(const struct rl_train_opts *o, const struct rl_op *fwd,
                           const struct rl_work *w, int first, struct rl_train_op *out,
                           struct rl_err *err);

/* The trainable parameters a list holds, accumulated op by op. */
struct rl_train_params {
	double params;      /* trainable weights, count-weighted */
	double frozen;      /* weights of frozen rows */
	double tensors;     /* weight tensors (occurrences of weight rows) */
	double chunks;      /* 65536-element chunks of multi_tensor_apply */
	double param_bytes; /* the trainable weights' bytes at their dtype */
	enum rl_dtype dtype; /* the largest weight dtype seen (the optimizer's
	                      * pipe); fp32 when none */
};

void rl_train_params_init(struct rl_train_params *p);

/* Adds FWD's weights (matmul, conv2d; weight_count, else count). A trainable
 * row with int4 or fp4 weights is an error: quantised weights train frozen
 * only (trainable=0). Returns 0 or RL_ERR_PARSE. */
int rl_train_params_add(struct rl_train_params *p, const struct rl_op *fwd, struct rl_err *err);

/* The optimizer step over P into OUT: with --grad-accum N > 1, first the
 * accumulation of micro-batches 2 to N's weight gradients into the
 * parameters' .grad (AccumulateGrad's add_, one kernel per parameter
 * tensor: phase backward, count N - 1); with autocast, the casts of each
 * weight gradient are part of backward (not here); then the fused kernel or
 * the foreach passes (with --weight-decay, SGD's and Adam's L2 pass first),
 * then the master copy's write-back. Each is a pointwise op with explicit
 * FLOPs and bytes and the launches of multi_tensor_apply. Returns how many
 * (0 with no parameters). */
int rl_train_optimizer(const struct rl_train_opts *o, const struct rl_train_params *p,
                       struct rl_train_op *out);

/* The bytes the optimizer moves per parameter (the sum of OUT's bytes over
 * P's parameters): what the tests work out by hand. */
double rl_train_optimizer_bytes_per_param(const struct rl_train_opts *o, enum rl_dtype weight);

/* The memory a training step holds beyond the inference memory fit
 * (memfit.h), accumulated op by op. */
struct rl_train_mem {
	double gradients;   /* one per trainable weight */
	double optimizer;   /* the optimizer's state */
	double master;      /* fp32 master weights (master) or the fp32 upgrade of
	                     * 16-bit weights (autocast) */
	double weight_share; /* the share of the weights one GPU holds: 1, or
	                      * 1 / shards under ZeRO-3 (rl_memfit_train) */
	double saved;       /* activations saved for backward */
	double saved_full;  /* the same without recomputation */
	double once_full;   /* of saved_full, the rows run once a micro-batch
	                     * (count <= microbatches: a stage's head, its loss,
	                     * its input), not once a layer */
	/* recomputation: a run of consecutive rows with the same count > 1 is
	 * a repeated block (a layer): only its first row's input is kept per
	 * occurrence, and one occurrence's activations are live again while
	 * it is recomputed */
	uint64_t run_count;
	double run_saved;   /* the current run's saved bytes, one occurrence */
	double run_max;     /* the largest run's */
	double outside;     /* saved bytes of rows outside runs */
	double checkpoints; /* the runs' first inputs, count-weighted */
};

void rl_train_mem_init(struct rl_train_mem *m);

/* Adds forward op FWD. Returns 0 or the status of rl_op_work(). */
int rl_train_mem_add(struct rl_train_mem *m, const struct rl_train_opts *o,
                     const struct rl_op *fwd, struct rl_err *err);

/* rl_train_mem_add() from the formulas' record W of FWD. */
void rl_train_mem_add_work(struct rl_train_mem *m, const struct rl_train_opts *o,
                           const struct rl_op *fwd, const struct rl_work *w);

/* Completes M from the parameters P: gradients, state, master. */
void rl_train_mem_end(struct rl_train_mem *m, const struct rl_train_opts *o,
                      const struct rl_train_params *p);

/* The bytes one occurrence of FWD saves for its backward (docs). */
double rl_train_saved_bytes(const struct rl_op *fwd);

#endif
