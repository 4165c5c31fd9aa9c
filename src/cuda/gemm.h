/* gemm.h - cuBLASLt matrix products shared by the GEMM benchmark (gemm.cu)
 * and the synthetic matmul of "roofline validate" (synth.cu). C++, nvcc only.
 *
 * Convention, for every dtype: column-major storage, BATCH independent
 * products C[m,n] = A[m,k] B[k,n], the batches packed one after the other
 * (strided batch, strides m k, k n and m n elements). B is always k x n with
 * leading dimension k, C always m x n with leading dimension m. A is m x k
 * with leading dimension m ("NN") except for fp8e4m3 and int8, whose tensor
 * core kernels in cuBLASLt take only the "TN" form: there A is stored as its
 * transpose, k x m with leading dimension k, and the product is described
 * with CUBLASLT_MATMUL_DESC_TRANSA = CUBLAS_OP_T. rl_gemm_a_index and
 * friends give the storage index of each element, so that host references
 * agree with what cuBLASLt reads.
 *
 * dtype    A, B      C (= D)   compute                        scale
 * fp16     16F       16F       CUBLAS_COMPUTE_32F             32F
 * bf16     16BF      16BF      CUBLAS_COMPUTE_32F             32F
 * tf32     32F       32F       CUBLAS_COMPUTE_32F_FAST_TF32   32F
 * fp32     32F       32F       CUBLAS_COMPUTE_32F             32F
 * fp64     64F       64F       CUBLAS_COMPUTE_64F             64F
 * fp8e4m3  8F_E4M3   16BF      CUBLAS_COMPUTE_32F             32F   (TN, cc >= 8.9)
 * int8     8I        32I       CUBLAS_COMPUTE_32I             32I   (TN)
 * alpha 1, beta 0, no epilogue, fp8 scale pointers unset (1).
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
}

/* One matrix-product problem. */
struct rl_gemm_shape {
	enum rl_dtype dtype; /* fp16, bf16, tf32, fp32, fp64, fp8e4m3, int8 */
	uint64_t batch, m, n, k;
};

/* Nonzero when T is one of the dtypes above. */
int rl_gemm_dtype_ok(enum rl_dtype t);

/* The dtype of A and B as stored (tf32: fp32) and of C (fp8e4m3: bf16,
 * int8: int32); what rl_cu_fill_random and rl_cu_round are given. */
enum rl_dtype rl_gemm_in_type(enum rl_dtype t);
enum rl_dtype rl_gemm_out_type(enum rl_dtype t);

/* Lowest compute capability (major x 10 + minor) cuBLASLt needs for T:
 * 89 for fp8e4m3, 80 for bf16 and tf32, 75 for int8, 0 otherwise. */
int rl_gemm_min_cc(enum rl_dtype t);

/* The compute type's name ("CUBLAS_COMPUTE_32F_FAST_TF32") for reports. */
const char *rl_gemm_compute_name(enum rl_dtype t);

/* Nonzero when A is stored transposed (TN: fp8e4m3, int8). */
int rl_gemm_a_transposed(enum rl_dtype t);

/* The range the inputs are drawn from: [-4, 4) integers for int8, U[-1, 1)
 * otherwise. */
void rl_gemm_input_range(enum rl_dtype t, double *lo, double *hi);

/* Element counts of A, B and C over all batches, and their bytes as stored.
 * Returns 0, or -1 when a count or byte size overflows 64 bits or a
 * dimension is 0. */
int rl_gemm_elems(const struct rl_gemm_shape *s, uint64_t *a, uint64_t *b, uint64_t *c);
int rl_gemm_bytes(const struct rl_gemm_shape *s, uint64_t *a, uint64_t *b, uint64_t *c);

/* Storage indices (elements from the buffer's start) of A[i,l], B[l,j] and
 * C[i,j] of batch BI. */
uint64_t rl_gemm_a_index(const struct rl_gemm_shape *s, uint64_t bi, uint64_t i, uint64_t l);
uint64_t rl_gemm_b_index(const struct rl_gemm_shape *s, uint64_t bi, uint64_t l, uint64_t j);
uint64_t rl_gemm_c_index(const struct rl_gemm_shape *s, uint64_t bi, uint64_t i, uint64_t j);

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

/* "fp16 1x4096x4096x4096"-style description for messages. */
void rl_gemm_describe(const struct rl_gemm_shape *s, char *buf, size_t len);

#endif
