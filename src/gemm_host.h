/* gemm_host.h - the host half of the GEMM module shared by the benchmark
 * (src/cuda/gemm.cu) and the synthetic matmul of "roofline validate": dtypes,
 * storage layout, element and byte counts. Plain C, in the library and
 * unit-tested (tests/check_bench.c); the CUDA plugin compiles gemm_host.c in
 * too, beside the cuBLASLt half (src/cuda/gemm.h).
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
#ifndef RL_GEMM_HOST_H
#define RL_GEMM_HOST_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>
#include <stdint.h>

#include "dtype.h"

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
 * Returns 0, or RL_ERR_RANGE when a count or byte size overflows 64 bits or
 * a dimension is 0. */
int rl_gemm_elems(const struct rl_gemm_shape *s, uint64_t *a, uint64_t *b, uint64_t *c);
int rl_gemm_bytes(const struct rl_gemm_shape *s, uint64_t *a, uint64_t *b, uint64_t *c);

/* Storage indices (elements from the buffer's start) of A[i,l], B[l,j] and
 * C[i,j] of batch BI. */
uint64_t rl_gemm_a_index(const struct rl_gemm_shape *s, uint64_t bi, uint64_t i, uint64_t l);
uint64_t rl_gemm_b_index(const struct rl_gemm_shape *s, uint64_t bi, uint64_t l, uint64_t j);
uint64_t rl_gemm_c_index(const struct rl_gemm_shape *s, uint64_t bi, uint64_t i, uint64_t j);

/* "fp16 1x4096x4096x4096"-style description for messages. */
void rl_gemm_describe(const struct rl_gemm_shape *s, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
