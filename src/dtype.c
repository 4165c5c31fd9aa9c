/* dtype.c - names and sizes of data types and pipes (see dtype.h). */
#include "config.h"

#include "dtype.h"

#include <strings.h>

#include "err.h"

static const struct {
	const char *name;
	size_t size;
	double bytes;
} dtypes[RL_DTYPE_COUNT] = {
	[RL_FP64] = {"fp64", 8, 8},    [RL_FP32] = {"fp32", 4, 4},
	[RL_TF32] = {"tf32", 4, 4},    [RL_FP16] = {"fp16", 2, 2},
	[RL_BF16] = {"bf16", 2, 2},    [RL_FP8E4M3] = {"fp8e4m3", 1, 1},
	[RL_FP8E5M2] = {"fp8e5m2", 1, 1}, [RL_INT8] = {"int8", 1, 1},
	[RL_INT32] = {"int32", 4, 4},  [RL_INT64] = {"int64", 8, 8},
	[RL_INT4] = {"int4", 1, 0.5},  [RL_FP4] = {"fp4", 1, 0.5},
	/* OCP Microscaling Formats (MX) v1.0, section 5: MXFP4, k = 32
	 * elements of FP4 (E2M1) and one E8M0 scale: (32 x 4 + 8) / 32 bits */
	[RL_MXFP4] = {"mxfp4", 1, 17.0 / 32.0},
};

static const struct {
	const char *key;
	const char *label;
	int tensor;
} pipes[RL_PIPE_COUNT] = {
	[RL_PIPE_FP64_VECTOR] = {"fp64_vector_tflops", "fp64 vector", 0},
	[RL_PIPE_FP64_TENSOR] = {"fp64_tensor_tflops", "fp64 tensor", 1},
	[RL_PIPE_FP32_VECTOR] = {"fp32_vector_tflops", "fp32 vector", 0},
	[RL_PIPE_FP16_VECTOR] = {"fp16_vector_tflops", "fp16 vector", 0},
	[RL_PIPE_BF16_VECTOR] = {"bf16_vector_tflops", "bf16 vector", 0},
	[RL_PIPE_TF32_TENSOR] = {"tf32_tensor_tflops", "tf32 tensor", 1},
	[RL_PIPE_FP16_TENSOR] = {"fp16_tensor_tflops", "fp16 tensor", 1},
	[RL_PIPE_BF16_TENSOR] = {"bf16_tensor_tflops", "bf16 tensor", 1},
	[RL_PIPE_FP8_TENSOR] = {"fp8_tensor_tflops", "fp8 tensor", 1},
	[RL_PIPE_INT8_TENSOR] = {"int8_tensor_tops", "int8 tensor", 1},
};

const char *rl_dtype_name(enum rl_dtype t)
{
	return dtypes[t].name;
}

size_t rl_dtype_size(enum rl_dtype t)
{
	return dtypes[t].size;
}

double rl_dtype_bytes(enum rl_dtype t)
{
	return dtypes[t].bytes;
}

int rl_dtype_storage_only(enum rl_dtype t)
{
	return t == RL_INT4 || t == RL_FP4 || t == RL_MXFP4;
}

int rl_dtype_parse(const char *name, enum rl_dtype *out)
{
	int i;

	if (strcasecmp(name, "fp8") == 0) {
		*out = RL_FP8E4M3;
		return 0;
	}
	for (i = 0; i < RL_DTYPE_COUNT; i++) {
		if ((name[0] | 0x20) == dtypes[i].name[0] && strcasecmp(name, dtypes[i].name) == 0) {
			*out = (enum rl_dtype)i;
			return 0;
		}
	}
	return RL_ERR_PARSE;
}

const char *rl_dtype_expected(void)
{
	return "fp64, fp32, tf32, fp16, bf16, fp8, fp8e4m3, fp8e5m2, int8, int32, int64, "
	       "int4, fp4, mxfp4 (int4, fp4 and mxfp4: weight_dtype and kv_dtype only)";
}

const char *rl_unit_name(enum rl_unit u)
{
	switch (u) {
	case RL_UNIT_TENSOR: return "tensor";
	case RL_UNIT_VECTOR: return "vector";
	case RL_UNIT_AUTO: break;
	}
	return "auto";
}

const char *rl_pipe_key(enum rl_pipe p)
{
	return p == RL_PIPE_NONE ? "none" : pipes[p].key;
}

const char *rl_pipe_label(enum rl_pipe p)
{
	return p == RL_PIPE_NONE ? "none" : pipes[p].label;
}

int rl_pipe_is_tensor(enum rl_pipe p)
{
	return p != RL_PIPE_NONE && pipes[p].tensor;
}
