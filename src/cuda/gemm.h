/* gemm.h - cuBLASLt matrix products shared by the GEMM benchmark (gemm.cu)
 * and the synthetic matmul of "roofline validate" (synth.cu). C++, nvcc only.
 *
 * The shapes, dtypes, storage layout and sizes (the host arithmetic, plain
 * C in the library, unit-tested) are in gemm_host.h; this header adds the
 * cuBLASLt plan, the run, the random fill and the verification.
 */
#ifndef RL_GEMM_H
#define RL_GEMM_H

#include <stddef.h>
#include <stdint.h>

#include <cublasLt.h>
#include <cuda_runtime_api.h>

extern "C" {
#include "dtype.h"
#include "err.h"
#include "gemm_host.h"
}

/* A cuBLASLt plan: descriptors, layouts and the heuristic's first algorithm
 * (what frameworks run) for a shape, a handle and a workspace size. */
struct rl_gemm_plan;

/* Creates the plan for S with handle LT on a device of compute capability
 * CC (major x 10 + minor), for workspaces of WORKSPACE_BYTES. Returns 0 and
 * *OUT, or RL_ERR_UNSUPPORTED (dtype not one of the above, a device too old
 * for it, a shape cuBLASLt's limits reject, no algorithm from the heuristic;
 * the message names dtype and shape), RL_ERR_RANGE (a size that overflows)
 * or RL_ERR_NOMEM / RL_ERR_DEVICE (a cuBLASLt failure, with its status
 * string). Free with rl_gemm_plan_free (NULL allowed). */
int rl_gemm_plan_new(cublasLtHandle_t lt, const struct rl_gemm_shape *s, int cc,
                     size_t workspace_bytes, struct rl_gemm_plan **out, struct rl_err *err);
void rl_gemm_plan_free(struct rl_gemm_plan *p);

/* The heuristic's workspace need for the chosen algorithm (bytes, at most
 * the plan's workspace size). */
size_t rl_gemm_plan_workspace(const struct rl_gemm_plan *p);

/* Enqueues C = A B on STREAM (graph-capturable). WORKSPACE is device memory
 * of at least the plan's workspace size. Returns 0 or RL_ERR_DEVICE. */
int rl_gemm_run(const struct rl_gemm_plan *p, const void *a, const void *b, void *c,
                void *workspace, cudaStream_t stream, struct rl_err *err);

/* Fills A and B (as laid out above, all batches) with random values from
 * seeds SEED (A) and SEED + 1 (B) in rl_gemm_input_range, asynchronously on
 * STREAM. */
cudaError_t rl_gemm_fill(const struct rl_gemm_shape *s, void *a, void *b, uint64_t seed,
                         cudaStream_t stream);

/* Checks up to 64 outputs of C (spread over batches, rows and columns, the
 * first and the last included) against a host dot product in double over
 * the inputs rl_gemm_fill(SEED) wrote: |c - ref| <= tol sum_k |a b| plus the
 * output type's rounding of |ref| (tol: fp64 1e-12, fp32 1e-5, tf32 2e-3,
 * fp16 and bf16 1e-2, fp8e4m3 6e-2, int8 0). Waits for STREAM. *CHECK is 1
 * when every sample passed, else -1; *WORST is the largest error over its
 * bound (may be NULL). Returns 0 or RL_ERR_DEVICE (a copy failed). */
int rl_gemm_verify(const struct rl_gemm_shape *s, const void *c, uint64_t seed, cudaStream_t stream,
                   int *check, double *worst, struct rl_err *err);

/* An element of type T (fp64, fp32, fp16, bf16, int32) as a device buffer
 * stores it, RAW copied back to the host, as a double. */
double rl_gemm_value(enum rl_dtype t, const void *raw);

#endif
