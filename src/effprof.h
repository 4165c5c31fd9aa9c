/* effprof.h - efficiency profiles: what first principles leave over.
 *
 * The expected-time model (expected.h) is built from tiles and waves, passes
 * over the data, rows per SM and kernel latency. What those leave unexplained
 * (the fraction of a roof that a library's kernels reach, the rate of a
 * row-per-warp softmax, the latency of a kernel timed with a cold L2) is
 * fitted on measurements of one GPU and one library stack, and kept here as
 * data: a "*.efficiency" file in hwdb/ (format: docs/hwdb-format.md), every
 * number with its source. A profile names the GPU it was measured on by the
 * figures that tell GPUs apart (compute capability, SM count, memory size);
 * a device with the same three is that GPU, any other gets the profile of the
 * nearest measured GPU (rl_effprof_pick).
 */
#ifndef RL_EFFPROF_H
#define RL_EFFPROF_H

#include <stddef.h>

#include "err.h"
#include "hwdb.h"

/* The row kernels: one row (the last dim) per warp or per block. */
enum rl_ep_path {
	RL_EP_SOFTMAX_WARP,   /* a row per warp, in registers: last <= 1024 */
	RL_EP_SOFTMAX_WARP2,  /* the same, two passes per lane: 1024 < last <= 2048 */
	RL_EP_SOFTMAX_REG,    /* a row per block in registers: 2048 < last <= 9216 */
	RL_EP_SOFTMAX_SMEM,   /* a row per block cached in shared memory */
	RL_EP_SOFTMAX_BLOCK,  /* a row per block, max, sum and write passes */
	RL_EP_LAYERNORM_VEC,  /* one vectorised kernel: last % 4 == 0 */
	RL_EP_LAYERNORM_SPLIT, /* moments kernel + normalise kernel */
	RL_EP_REDUCTION_NARROW, /* last <= 32 */
	RL_EP_REDUCTION_SHORT,  /* 32 < last <= 128 */
	RL_EP_REDUCTION_WIDE,   /* last > 128: vectorised loads */
	RL_EP_PATH_COUNT
};

/* One row kernel path (at the profile's clock): SLOTS rows resident per SM,
 * ROW_US of fixed time per wave of rows, SM_RATE elements per us per SM when
 * rows fill it, ROW_RATE elements per us of one row alone (the latency-bound
 * speed of one warp or block). */
enum rl_ep_row {
	RL_EP_ROW_SLOTS,
	RL_EP_ROW_US,
	RL_EP_ROW_SM_RATE,
	RL_EP_ROW_RATE,
	RL_EP_ROW_COUNT
};

enum rl_ep_key {
	RL_EP_LATENCY_US,          /* a kernel's fixed GPU time, cold L2, event-timed */
	RL_EP_MEM_ELEMENTWISE,     /* fractions of the datasheet memory bandwidth */
	RL_EP_MEM_REDUCTION,
	RL_EP_MEM_GEMM,
	RL_EP_MEM_ATTENTION,
	RL_EP_MEM_CONV,
	RL_EP_GEMM_LARGE,          /* fractions of the datasheet tensor peak, by tile */
	RL_EP_GEMM_MEDIUM,
	RL_EP_GEMM_SMALL,
	RL_EP_GEMM_THIN,
	RL_EP_GEMM_EPILOGUE,       /* share of the output write not hidden */
	RL_EP_GEMM_ALIGN8,         /* fallback kernels: 8-byte aligned N and K */
	RL_EP_GEMM_ALIGN4,
	RL_EP_GEMM_ALIGN2,
	RL_EP_GEMM_VECTOR,         /* a matrix product on the CUDA cores */
	RL_EP_ATTN_D64,            /* flash attention, long sequences */
	RL_EP_ATTN_D128,
	RL_EP_ATTN_CAUSAL,
	RL_EP_ATTN_S_HALF,         /* key length at half the long-sequence rate */
	RL_EP_ATTN_DECODE_CTA_GBS, /* decode: GB/s one CTA streams, one per SM */
	RL_EP_ATTN_DECODE_US,      /* decode: a kernel's fixed time over latency_us */
	RL_EP_CONV,                /* implicit GEMM against the GEMM model */
	RL_EP_CONV_UNALIGNED,      /* channels not a multiple of 16 bytes */
	RL_EP_COPY_PERM_ELEMS,     /* permuted copy: elements per us per SM */
	RL_EP_COPY_PERM_SECTORS,   /* permuted copy: gathered sectors per us per SM */
	RL_EP_COPY_STRIDED_US,     /* unvectorised loop: its fixed time over latency_us */
	RL_EP_DW_TAPS,             /* depthwise conv: filter taps per us per SM */
	RL_EP_DW_PIXELS,           /* depthwise conv: input tile pixels per us per SM */
	RL_EP_DW_STAGE_US,         /* depthwise conv: a CTA's staging before its taps */
	RL_EP_DW_TAP_US,           /* depthwise conv: each tap of the serial chain */
	RL_EP_CONV_GROUPED,        /* grouped conv: of the GEMM model over padded tiles */
	RL_EP_GEMM_TF32,           /* tile efficiencies' factor by dtype; 0: not measured */
	RL_EP_GEMM_INT8,
	RL_EP_GEMM_FP8,
	RL_EP_MEM_GROUPED,         /* grouped GEMM: of the datasheet bandwidth */
	RL_EP_GEMM_INT4,           /* int4 weight-only (tinygemm): of the bf16 peak */
	RL_EP_MEM_INT4,            /* int4 weight-only: its weight stream's bandwidth */
	RL_EP_ATTN_VECTOR,         /* attention on the CUDA cores (fp32): of the fp32 peak */
	RL_EP_GEMM_LATENCY_US,     /* a cuBLAS GEMM kernel's fixed time, in place of latency_us */
	RL_EP_ATTN_DECODE_SPLIT_US, /* decode: a split's combine over its partials, beyond latency */
	RL_EP_GEMM_ALIGN2_LINEAR,  /* fallback kernels, 2-byte aligned, under F.linear's layout */
	RL_EP_MEM_NARROW,          /* a pointwise stream of under 16 bytes per thread access */
	RL_EP_MEM_INT8_GEMV,       /* int8 weight-only, compiled, one row: its stream's bandwidth */
	RL_EP_INT8_GEMV_US,        /* the same kernel's fixed time, in place of latency_us */
	RL_EP_MEM_ATTN_MASK,       /* an attention kernel's mask tiles, each (batch, head)'s:
	                            * of the datasheet bandwidth, in series with its MMAs */
	RL_EP_ROW_FIRST,           /* then RL_EP_PATH_COUNT x RL_EP_ROW_COUNT */
	RL_EP_KEY_COUNT = RL_EP_ROW_FIRST + RL_EP_PATH_COUNT * RL_EP_ROW_COUNT
};

/* The figures that identify the GPU a profile was measured on. */
enum rl_ep_ref {
	RL_EP_REF_CC,        /* compute capability */
	RL_EP_REF_SMS,
	RL_EP_REF_MEMORY_GIB,
	RL_EP_REF_CLOCK_MHZ, /* boost clock: row rates scale with it */
	RL_EP_REF_COUNT
};

struct rl_effprof {
	char *id, *name, *gpu, *stack, *path;
	struct rl_hwval ref[RL_EP_REF_COUNT];
	struct rl_hwval num[RL_EP_KEY_COUNT];
};

/* The index of row path P's value V in num[]. */
#define RL_EP_ROW(p, v) (RL_EP_ROW_FIRST + (p) * RL_EP_ROW_COUNT + (v))

/* The key name of num[I] ("gemm.eff.large"), of ref[I] ("gpu.sm_count"). */
const char *rl_effprof_key(int i);
const char *rl_effprof_ref_key(int i);

/* Loads PATH: every key is required, each number with its source and within
 * its range. Returns 0 or a negative status ("PATH:LINE: ..." in ERR). */
int rl_effprof_load(const char *path, struct rl_effprof *ep, struct rl_err *err);
void rl_effprof_release(struct rl_effprof *ep);

/* How a profile relates to a device. */
enum rl_ep_match { RL_EP_NONE, RL_EP_NEAREST, RL_EP_SAME_GPU };

/* Loads the "*.efficiency" profiles of DIR and keeps in *EP the one for D:
 * the profile of the same GPU (same compute capability, SM count and memory
 * size), else the nearest (same compute capability major first, then the
 * closest SM count and memory size). Returns RL_EP_SAME_GPU or RL_EP_NEAREST,
 * RL_EP_NONE when DIR has no profile (*EP untouched), or a negative status. */
int rl_effprof_pick(const char *dir, const struct rl_device *d, struct rl_effprof *ep,
                    struct rl_err *err);

#endif
