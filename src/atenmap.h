/* atenmap.h - from one profiled ATen op to an op-list row.
 *
 * A table maps ATen op names (aten::addmm, aten::layer_norm, ...) to an op
 * kind and a rule that reads the kind's shape (and conv2d's kernel, stride,
 * padding and groups, attention's causal flag) from the op's recorded input
 * dims, types and concrete arguments. docs/trace-import.md lists every name
 * and rule. The mapping only fills columns of op list v1; the FLOPs and bytes
 * stay the formulas' job (src/formulas.c), except where the formula's
 * assumptions do not hold (mixed dtypes, broadcast inputs, optimizer steps),
 * where explicit bytes are given. Pure functions, no I/O.
 */
#ifndef RL_ATENMAP_H
#define RL_ATENMAP_H

#include "dtype.h"
#include "op.h"
#include "trace.h"

/* The dtype of an "Input type" string ("c10::BFloat16" -> bf16, "float" ->
 * fp32, "long int" -> int64, "bool" -> int8 ...). Returns 0 and sets *OUT, or
 * -1 for a non-tensor type ("Scalar", "TensorList", "") or one without a
 * dtype of its own here (short, complex); *SIZE gets the element size in
 * bytes when known (0 otherwise). */
int rl_aten_dtype(const char *type, enum rl_dtype *out, unsigned *size);

/* Fills OP (already rl_op_init'ed) with the kind, dtype, shape and the kind's
 * columns for the CPU op NAME whose inputs are IN[0..N). FALLBACK is the
 * dtype used where the trace records none (lists of tensors). Returns 1 when
 * the op was mapped, 0 when it became a custom row: no FLOPs, and bytes from
 * the sizes of its recorded inputs (the trace records no outputs). */
int rl_aten_map(const char *name, const struct rl_trace_input *in, int n,
                enum rl_dtype fallback, struct rl_op *op);

/* The parameters of a training step, as its trace records them: one
 * torch::autograd::AccumulateGrad op per trainable parameter, with the
 * gradient's dims and dtype. torch.optim's multi-tensor ops record their
 * tensor lists without dims; their lists are taken to hold these. */
struct rl_aten_params {
	double elems;        /* parameter elements in all; 0: not known */
	double tensors;      /* parameter tensors */
	enum rl_dtype dtype; /* their dtype */
};

/* rl_aten_map, with PARAMS (NULL: none known) giving the size of tensor
 * lists recorded without dims: each list of an _foreach_ op or a fused
 * Adam(W) step holds PARAMS->elems elements of PARAMS->dtype, but the step
 * counters (_foreach_add_(list, 1) alone: one element per tensor). */
int rl_aten_map_params(const char *name, const struct rl_trace_input *in, int n,
                       enum rl_dtype fallback, const struct rl_aten_params *params,
                       struct rl_op *op);

/* Makes OP a custom row from its inputs, as rl_aten_map does for an op it
 * cannot map (used when a mapped row fails the formulas' checks). */
void rl_aten_custom(const struct rl_trace_input *in, int n, enum rl_dtype fallback,
                    struct rl_op *op);

/* 1 when the CPU op NAME is a fused op whose parts PyTorch records as ops of
 * their own, nested in it, each launching its own kernels
 * (aten::_native_multi_head_attention: the in-projection, the attention and
 * the out-projection; aten::_transformer_encoder_layer_fwd: that and the
 * norms, residual adds and feed-forward GEMMs), or a wrapper of the autograd
 * engine around the ATen ops of a backward step ("autograd::engine::
 * evaluate_function: MmBackward0", the node "MmBackward0" itself,
 * "torch::autograd::AccumulateGrad"), or the loss that calls its parts
 * (aten::cross_entropy_loss: log_softmax and nll_loss): the import makes a
 * row of each part instead of one of the whole. 0 otherwise. */
int rl_aten_composite(const char *name);

/* 1 when the CPU op NAME is the autograd engine's evaluation of a backward
 * node ("autograd::engine::evaluate_function: ..."): what runs in it is
 * backward. */
int rl_aten_backward_root(const char *name);

#endif
