/* dtype.h - data types, their sizes, and the compute pipes that do their math.
 *
 * A pipe is one roof of the roofline: a kind of arithmetic unit fed with one
 * data type (FP32 on CUDA cores, BF16 on tensor cores, ...). Each pipe has one
 * hwdb key holding its dense peak. This file only names things; which pipe an
 * op lands on, and the fallbacks, are decided in model.c.
 */
#ifndef RL_DTYPE_H
#define RL_DTYPE_H

#include <stddef.h>

enum rl_dtype {
	RL_FP64,
	RL_FP32,
	RL_TF32, /* fp32 storage, TF32 tensor math */
	RL_FP16,
	RL_BF16,
	RL_FP8E4M3,
	RL_FP8E5M2,
	RL_INT8,
	RL_INT32,
	RL_INT64,
	RL_INT4, /* half a byte: weights and KV caches only (not an op's dtype) */
	RL_FP4,  /* e2m1, half a byte: likewise */
	RL_MXFP4, /* OCP microscaling MXFP4: blocks of 32 e2m1 sharing one e8m0
	           * scale, 17 bytes per 32 elements (4.25 bits): likewise */
};

/* The counts stand outside their enums, so that a switch over every value
 * need not name them (-Wswitch-enum). */
#define RL_DTYPE_COUNT (RL_MXFP4 + 1)

enum rl_unit {
	RL_UNIT_AUTO = 0, /* not given: the model chooses */
	RL_UNIT_TENSOR,
	RL_UNIT_VECTOR,
};

enum rl_pipe {
	RL_PIPE_NONE = -1,
	RL_PIPE_FP64_VECTOR = 0,
	RL_PIPE_FP64_TENSOR,
	RL_PIPE_FP32_VECTOR,
	RL_PIPE_FP16_VECTOR,
	RL_PIPE_BF16_VECTOR,
	RL_PIPE_TF32_TENSOR,
	RL_PIPE_FP16_TENSOR,
	RL_PIPE_BF16_TENSOR,
	RL_PIPE_FP8_TENSOR,
	RL_PIPE_INT8_TENSOR,
};

#define RL_PIPE_COUNT (RL_PIPE_INT8_TENSOR + 1)

/* Canonical name ("bf16") of a dtype. */
const char *rl_dtype_name(enum rl_dtype t);

/* Bytes per element in device memory (tf32 is stored as fp32: 4). The
 * half-byte types (int4, fp4) give 1, the byte a lone element takes: sizes
 * of tensors use rl_dtype_bytes. */
size_t rl_dtype_size(enum rl_dtype t);

/* Bytes per element of a tensor in device memory: 0.5 for int4 and fp4
 * (two elements packed in a byte), 17 / 32 for mxfp4 (its block scales
 * counted), else rl_dtype_size. */
double rl_dtype_bytes(enum rl_dtype t);

/* Nonzero for a type that only stores weights or KV caches (int4, fp4): no
 * pipe computes in it, so it is not an op's dtype. */
int rl_dtype_storage_only(enum rl_dtype t);

/* Looks NAME up case-insensitively, accepting the alias "fp8" for fp8e4m3.
 * Returns 0 and sets *OUT, or RL_ERR_PARSE when NAME is not a dtype. */
int rl_dtype_parse(const char *name, enum rl_dtype *out);

/* The list of accepted dtype names, for error messages. */
const char *rl_dtype_expected(void);

/* "tensor" or "vector" ("auto" for RL_UNIT_AUTO). */
const char *rl_unit_name(enum rl_unit u);

/* The hwdb key holding the pipe's peak ("bf16_tensor_tflops"). */
const char *rl_pipe_key(enum rl_pipe p);

/* A short label for the pipe ("bf16 tensor"). */
const char *rl_pipe_label(enum rl_pipe p);

/* Nonzero when P is a tensor-core pipe. */
int rl_pipe_is_tensor(enum rl_pipe p);

#endif
