/* synth.h - synthetic operators run on the GPU for "roofline validate".
 *
 * A synthetic op does the work an op-list row describes (the same bytes to
 * and from device memory, the same FLOPs on the same pipe) with a kernel
 * written for the purpose, or cuBLASLt for a matrix product, so that the
 * model's prediction for the row can be compared with the GPU's own time.
 * validate.c turns op-list rows into specs; synth.c says which can run and
 * what they move; src/cuda/synth.cu runs them, in the CUDA plugin, through
 * cudaload.c (without CUDA, or where the plugin cannot be loaded,
 * rl_synth_open and rl_synth_run fail with RL_ERR_UNSUPPORTED).
 */
#ifndef RL_SYNTH_H
#define RL_SYNTH_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdint.h>

#include "dtype.h"
#include "err.h"

/* Input tensors of a pointwise op, at most. */
#define RL_SYNTH_MAX_INPUTS 8

enum rl_synth_kind {
	/* out[i] = f(in_0[i], ..., in_{inputs-1}[i]) for i < elems, doing
	 * flops_per_elem FLOPs per element: dependent multiplies (fma 0, one FLOP
	 * each) or fused multiply-adds (fma 1, two FLOPs each). inputs may be 0
	 * (the output is generated from the index). */
	RL_SYNTH_POINTWISE,
	/* out[i] = in[i] for i < elems. */
	RL_SYNTH_COPY,
	/* in is rows x cols (cols = the reduced last dim); out[r] = sum of row r,
	 * with flops_per_elem FLOPs per input element (the first one the add). */
	RL_SYNTH_REDUCTION,
	/* rows x cols in and out, normalised over each row: softmax (max,
	 * subtract, exp, sum, divide). */
	RL_SYNTH_SOFTMAX,
	/* rows x cols in and out, plus weight and bias of cols elements:
	 * layernorm. */
	RL_SYNTH_LAYERNORM,
	/* batch independent C[m,n] = A[m,k] B[k,n] through cuBLASLt. */
	RL_SYNTH_MATMUL,
};

struct rl_synth {
	enum rl_synth_kind kind;
	enum rl_dtype dtype;     /* fp32, fp16, bf16, fp64 for the elementwise kinds;
	                          * matmul: fp16, bf16, tf32, fp32, fp64, fp8e4m3, int8 */
	uint64_t elems;          /* pointwise, copy: output elements */
	uint64_t inputs;         /* pointwise: input tensors of elems elements */
	double flops_per_elem;   /* pointwise, reduction */
	int fma;                 /* pointwise: 1 for multiply-add chains */
	uint64_t rows, cols;     /* reduction, softmax, layernorm */
	uint64_t batch, m, n, k; /* matmul */
};

struct rl_synth_result {
	double gpu_us;    /* the kernel's own GPU time per launch: median over
	                   * replays of a CUDA graph of back-to-back launches,
	                   * event time / launches */
	double wall_us;   /* per-op wall time of a back-to-back launch loop:
	                   * host clock around many launches and one synchronize,
	                   * divided by the launches (median of several loops) */
	int check;        /* 1 verified, -1 wrong result */
	int launches;     /* kernels per loop used for both figures */
};

/* A GPU context for synthetic ops on device DEV (streams, cuBLASLt handle,
 * scratch). rl_synth_open returns NULL and sets ERR on failure. */
typedef struct rl_synth_ctx rl_synth_ctx;
rl_synth_ctx *rl_synth_open(int dev, struct rl_err *err);
void rl_synth_close(rl_synth_ctx *c);

/* Nonzero when S can be run (dtype and kind supported, memory fits); else 0
 * with the reason in ERR (RL_ERR_UNSUPPORTED). Host arithmetic (synth.c):
 * needs no GPU and does not load the CUDA plugin. */
int rl_synth_supported(const struct rl_synth *s, struct rl_err *err);

/* "pointwise", "copy", "reduction", "softmax", "layernorm", "matmul"; "?"
 * for another value. */
const char *rl_synth_kind_name(enum rl_synth_kind k);

/* The bytes of one buffer set of S in *BYTES: its inputs and its output, what
 * the model counts (pointwise: elems x (inputs + 1), copy: elems x 2,
 * reduction: rows x cols + rows, softmax: rows x cols x 2, layernorm: that
 * plus weight and bias of cols each, all times the dtype's size; matmul: A,
 * B and C as stored, gemm_host.h). Returns 0, or RL_ERR_RANGE when a size
 * overflows 64 bits (or a matmul dimension is 0). */
int rl_synth_bytes(const struct rl_synth *s, uint64_t *bytes);

/* FLOPs of one element (pointwise) or input element (reduction):
 * flops_per_elem rounded to the nearest integer, negative as 0, and at least
 * 1 for a reduction (its add). */
uint64_t rl_synth_flops_each(const struct rl_synth *s);

/* Buffer sets a run rotates among so that each launch reads from device
 * memory, not from the L2: a working set of SET_BYTES (rl_synth_bytes)
 * smaller than twice L2_BYTES gets ceil(2 x L2_BYTES / SET_BYTES) sets (the
 * others' traffic since its last use evicts it), at most RL_SYNTH_MAX_SETS;
 * a larger one, or a SET_BYTES of 0, gets 1. */
#define RL_SYNTH_MAX_SETS 64
int rl_synth_sets(uint64_t set_bytes, uint64_t l2_bytes);

/* Launches per timed loop, so that a loop lasts about RL_SYNTH_LOOP_US given
 * ONE_US, the time of one launch: ceil(RL_SYNTH_LOOP_US / ONE_US), ONE_US
 * taken as at least 1 us (a NaN too), clamped to [1, RL_SYNTH_MAX_LAUNCHES]. */
#define RL_SYNTH_LOOP_US 2000.0
#define RL_SYNTH_MAX_LAUNCHES 1000
int rl_synth_launches(double one_us);

/* Runs S: random inputs, a verified result, then the two timings. Working
 * sets smaller than twice the L2 rotate among enough buffer sets that every
 * launch reads from device memory, as the model assumes. Returns 0,
 * RL_ERR_UNSUPPORTED, RL_ERR_RANGE (does not fit in memory) or
 * RL_ERR_DEVICE. */
int rl_synth_run(rl_synth_ctx *c, const struct rl_synth *s, struct rl_synth_result *r,
                 struct rl_err *err);

#ifdef __cplusplus
}
#endif

#endif
