/* memfit.h - the device memory one step needs, and whether it fits.
 *
 * Fed op by op, as the summary is, it adds up first-principles figures for
 * inference (docs/oplist-format.md, "Memory fit"):
 * - weights: the second operand of every matmul (B[B, K, N] at its
 *   weight_dtype, group scales included) and every conv2d filter, times the
 *   op's count (a row with count L stands for L layers' distinct weights),
 *   or its weight_count where given (an MoE expert row counts the
 *   experts the step runs; every expert's weights stay in memory);
 * - KV cache: K and V of every attention row ([B, kv_heads, Sk, D] at its
 *   kv_dtype), times the count;
 * - activations: the largest single op's other inputs and output (its bytes
 *   less its weights or K and V), once: the live tensors of the biggest op.
 * Not counted: framework workspace, the CUDA context, allocator
 * fragmentation, optimiser state and saved activations of training. An op
 * whose bytes were given (explicit 'bytes', custom) adds those bytes as
 * activations only. Pure: no I/O.
 */
#ifndef RL_MEMFIT_H
#define RL_MEMFIT_H

#include "err.h"
#include "formulas.h"
#include "hwdb.h"
#include "op.h"

#define RL_MEMFIT_GIB 1073741824.0 /* 2^30 bytes: memory_gib is binary */

struct rl_memfit {
	double weight_bytes;     /* count-weighted */
	double kv_bytes;         /* count-weighted */
	double activation_bytes; /* the largest op's, once */
	size_t activation_line;  /* that op's line (0: none, or not from a file) */
	/* a training step (train.h, rl_memfit_train): 0 for inference */
	int train;
	double gradient_bytes, optimizer_bytes, master_bytes, saved_bytes;
};

struct rl_train_mem;

void rl_memfit_init(struct rl_memfit *m);

/* The weight bytes (*WEIGHTS) and K and V bytes (*KV) of one occurrence of
 * OP, and its other bytes (*ACT: inputs and output less those). Returns 0 or
 * the status of rl_op_rw() for an invalid op (ERR says why). */
int rl_memfit_op_bytes(const struct rl_op *op, double *weights, double *kv, double *act,
                       struct rl_err *err);

/* Adds OP, a forward op (ops of other phases hold nothing more). Returns 0
 * or as rl_memfit_op_bytes (M unchanged). */
int rl_memfit_add(struct rl_memfit *m, const struct rl_op *op, struct rl_err *err);

/* rl_memfit_add() from the formulas' record W of OP (rl_op_derive()), read
 * instead of deriving OP again. Returns 0. */
int rl_memfit_add_work(struct rl_memfit *m, const struct rl_op *op, const struct rl_work *w,
                       struct rl_err *err);

/* Adds a training step's gradients, optimizer state, master weights and
 * saved activations (complete: rl_train_mem_end done). */
void rl_memfit_train(struct rl_memfit *m, const struct rl_train_mem *t);

/* Weights + KV cache + activations (+ a training step's parts), in bytes. */
double rl_memfit_total_bytes(const struct rl_memfit *m);

/* The device's memory in bytes (memory_gib x 2^30), 0 when it has none. */
double rl_memfit_device_bytes(const struct rl_device *dev);

/* 1 when the total fits DEV's memory (or DEV gives none), else 0. */
int rl_memfit_fits(const struct rl_memfit *m, const struct rl_device *dev);

/* Whether the step of BATCH sequences fits: sets *FITS (1 or 0) and returns
 * 0, or returns a negative status, its errors reported by the callback's
 * own means. */
typedef int (*rl_memfit_batch_fn)(void *user, uint64_t batch, int *fits);

/* The largest batch from 1 to MAX whose step fits (model --max-batch), by
 * FITS: doubling from 1, then bisecting between the last batch that fit
 * and the first that did not (the memory a step needs grows with its
 * batch), some 2 log2(MAX) calls. Returns 0 with *BATCH that batch,
 * 0 when batch 1 does not fit, MAX when MAX fits (the search, not the
 * memory, stopped there); or FITS's first negative status. */
int rl_memfit_max_batch(rl_memfit_batch_fn fits, void *user, uint64_t max, uint64_t *batch);

#endif
