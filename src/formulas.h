/* formulas.h - FLOPs and compulsory bytes of an operator from kind, shape, dtype.
 *
 * The counts are the work an op cannot avoid: every input read once, every
 * output written once, no re-reads (a lower bound on traffic, as in Horace He's
 * "Making Deep Learning Go Brrrr From First Principles"). One fused
 * multiply-add counts as 2 FLOPs. Explicit flops/bytes on the op override the
 * formula. Pure functions: no I/O, no globals.
 */
#ifndef RL_FORMULAS_H
#define RL_FORMULAS_H

#include "err.h"
#include "op.h"

/* Default FLOPs per input element when flops_per_element is not given:
 * pointwise 1, reduction 1 (one add), softmax 5 (max, subtract, exp, sum,
 * divide), layernorm 8 (mean, variance, normalise, scale, shift). */
double rl_default_flops_per_element(enum rl_kind k);

/* Computes the FLOPs and bytes of one occurrence of OP into *FLOPS and *BYTES.
 * Also validates what the formulas need: the number of dims for the kind,
 * conv2d geometry, element counts that fit in 64 bits, flops and bytes given
 * for custom ops. Returns 0, or RL_ERR_PARSE / RL_ERR_RANGE with a message
 * (without location) in ERR. */
int rl_op_work(const struct rl_op *op, double *flops, double *bytes, struct rl_err *err);

/* Attention under a sliding window (the op list's 'window', W): each query
 * attends only to the W most recent keys up to and including its own
 * position (Longformer, Beltagy et al. 2020; Mistral 7B, Jiang et al. 2023,
 * section 2, "Sliding Window Attention"), the queries aligned to the end of
 * the keys as for a causal mask. OP is an attention row whose shape passed
 * rl_op_work(). */

/* Nonzero when OP's window is below its key length Sk, so that it changes
 * anything: a window of 0 (none) or of Sk or more is no window, and every
 * count is then the unwindowed one. */
int rl_attention_windowed(const struct rl_op *op);

/* The scores one (batch, query head) of OP computes under its window: the
 * sum over its Sq queries of the keys each sees, min(p + 1, W) for the
 * query at position p = Sk - Sq + i with a causal mask, min(Sk, W)
 * without. Only for an OP that rl_attention_windowed() takes. */
double rl_attention_window_scores(const struct rl_op *op);

/* The tokens of K and V per (batch, KV head) of OP: *READ, those its fused
 * kernel reads, min(Sk, Sq + W - 1) with a causal mask and min(Sk, W)
 * without; *HELD, those its layer keeps in memory, min(Sk, W) (a ring
 * buffer: Mistral 7B's "Rolling Buffer Cache", transformers' sliding cache
 * layers). Both Sk without a window. */
void rl_attention_kv_tokens(const struct rl_op *op, uint64_t *read, uint64_t *held);

/* Attention whose V and output O have a head dim Dv of their own (the op
 * list's 'v_head_dim'), and whose V may be part of K ('kv_shared'):
 * DeepSeek's multi-head latent attention (DeepSeek-AI 2024, "DeepSeek-V2",
 * arXiv:2405.04434, section 2.1). Q and K keep the shape's D; QK^T costs
 * 2 x scores x D, PV 2 x scores x Dv; Q is read and O written at H heads,
 * K (D) and V (Dv) read at kv_heads over the keys read, and held over the
 * keys held. With kv_shared = 1 V is the first Dv channels of K (the
 * absorbed form's latent cache: c_KV and the rotary key in one vector a
 * token), so its channels are neither read nor held again. OP is an
 * attention row. */

/* Dv: OP's v_head_dim, or the shape's D when that is 0. */
uint64_t rl_attention_v_dim(const struct rl_op *op);

/* The channels K and V hold between them per token and KV head of OP: D +
 * Dv, or D alone with kv_shared = 1. */
double rl_attention_kv_channels(const struct rl_op *op);

/* An explicit attn_mask (the op list's 'mask' and 'mask_shape'): a tensor
 * broadcast to the scores [B, H, Sq, Sk], added to them (float, the op's
 * dtype) or selecting them (bool, a byte an element). Its elements are
 * read once at least: its bytes are part of the op's reads. OP is an
 * attention row. */

/* The mask's [B, H, Sq, Sk] in DIMS: each the scores' size or 1 where it is
 * broadcast; [B, 1, Sq, Sk] (a padding or document mask shared by the
 * heads, as transformers builds its 4-D mask) when mask_shape was not
 * given. All 0 when OP has no mask. */
void rl_attention_mask_dims(const struct rl_op *op, uint64_t dims[4]);

/* The mask's own bytes (its elements times 2 for a float mask of a 16-bit
 * dtype, 1 for bool), 0 without one. */
double rl_attention_mask_bytes(const struct rl_op *op);

/* Splits the bytes of one occurrence of OP into those it reads (*READ: the
 * inputs of the formulas) and those it writes (*WRITTEN: the output):
 * pointwise reads inputs x N x es; copy, softmax and reduction N x es;
 * layernorm (N + 2 x last) x es (x, weight, bias); matmul A and B; conv2d the
 * input and the filter; attention Q, K and V. What each writes is
 * rl_op_output_bytes(). *READ + *WRITTEN is rl_op_work()'s bytes. Returns 1
 * when the split is known, 0 when the op's bytes were given (explicit
 * 'bytes', a custom op): then *READ is those bytes and *WRITTEN 0; or the
 * status of rl_op_work() for an invalid op. */
int rl_op_rw(const struct rl_op *op, double *read, double *written, struct rl_err *err);

/* rl_op_work() and rl_op_rw() in one pass (the model's); returns as rl_op_rw. */
int rl_op_work_rw(const struct rl_op *op, double *flops, double *bytes, double *read,
                  double *written, struct rl_err *err);

/* The bytes of one occurrence of OP that are its output, written to memory:
 * the part of rl_op_work()'s bytes that a following op may read back. The
 * rest of the bytes are its reads. pointwise, copy, softmax, layernorm:
 * N x es; reduction: N / last x es; matmul: B x M x N x es; attention:
 * B x H x Sq x Dv x es (Dv: rl_attention_v_dim); conv2d: N x K x Ho x Wo x
 * es. Returns 0, or
 * RL_ERR_PARSE for an op whose split is unknown (explicit 'bytes', a custom
 * op), or the status of rl_op_work(). */
int rl_op_output_bytes(const struct rl_op *op, double *out, struct rl_err *err);

/* 0 when OP's output bytes are known apart from its reads (the checks of
 * rl_op_output_bytes() without its formulas), else RL_ERR_PARSE with the
 * reason in ERR (may be NULL). */
int rl_op_output_known(const struct rl_op *op, struct rl_err *err);

/* The FLOPs of converting OP's weights (matmul, conv2d: weight_dtype) or K
 * and V (attention: kv_dtype) to its dtype: one per element when that dtype
 * differs from the op's; 0 otherwise, and when the FLOPs were given or the
 * op has no shape (attention: the K and V channels it reads,
 * rl_attention_kv_channels, over the keys read). OP must have passed
 * rl_op_work(). Not part of the op's
 * FLOPs: the model adds their time on the CUDA cores (model.c). */
double rl_op_dequant_flops(const struct rl_op *op);

/* The weight elements of OP: matmul's B (B x N x K), conv2d's filter
 * (K x C / groups x R x S); 0 for other kinds and without a shape. */
double rl_op_weight_elems(const struct rl_op *op);

/* What the formulas derive of one occurrence of an op, computed once when the
 * op is admitted (rl_pipeline_op) and read by the model, the memory fit,
 * training and fusion instead of deriving it again. Bytes in bytes, FLOPs
 * with one FMA = 2. */
struct rl_work {
	double flops, bytes;   /* rl_op_work() */
	double bytes_read;     /* rl_op_rw(): the bytes when the split is not known */
	double bytes_written;  /* rl_op_rw(); with rw_known, rl_op_output_bytes() */
	int rw_known;          /* 1: the split is known (rl_op_rw() returned 1) */
	double dequant_flops;  /* rl_op_dequant_flops() */
	double es;             /* rl_dtype_bytes() of the op's dtype */
	double elems;          /* the product of the shape's dims (1 without dims) */
	double weight_elems;   /* matmul's B, conv2d's filter with a shape; else 0 */
	double weight_bytes;   /* those weights in memory at weight_dtype, scales
	                        * included (memfit.h); 0 unless rw_known */
	double kv_bytes;       /* attention: K and V at kv_dtype, the channels of
	                        * rl_attention_kv_channels() over the tokens held;
	                        * 0 unless rw_known */
	double params_bytes;   /* the op's params at weight_dtype (else its dtype):
	                        * the row's as a whole, not times count */
};

/* Fills *W for OP. Returns 0, or the status and message of rl_op_work() for
 * an invalid op (W then zero). */
int rl_op_derive(const struct rl_op *op, struct rl_work *w, struct rl_err *err);

#endif
