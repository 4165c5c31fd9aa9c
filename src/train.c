/* train.c - a training step from a forward op list (see train.h). */
#include "config.h"

#include "train.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "formulas.h"

#define MAX_TIMES 9007199254740992.0 /* 2^53: counts stay exact in a double */

/* multi_tensor_apply (ATen/native/cuda/MultiTensorApply.cuh): a launch
 * takes at most depth_to_max_tensors[depth - 1] tensors and 320 blocks of
 * kChunkSize = 65536 elements each, depth being the tensor lists the kernel
 * walks (Adam's fused kernel: params, grads, m, v). */
static const double max_tensors[5] = {110, 64, 48, 36, 30};
#define MAX_BLOCKS 320.0
#define CHUNK 65536.0

void rl_train_opts_init(struct rl_train_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->optimizer = RL_OPT_ADAMW;
	o->state_dtype = RL_FP32;
	o->grad_accum = 1;
	o->microbatches = 1;
	o->in_flight = 1;
	o->shards = 1;
}

static const char *const opt_names[] = {"adamw", "adam", "sgd", "none"};

int rl_optimizer_parse(const char *s, enum rl_optimizer *out)
{
	size_t i;

	for (i = 0; i < sizeof(opt_names) / sizeof(opt_names[0]); i++) {
		if (strcasecmp(s, opt_names[i]) == 0) {
			*out = (enum rl_optimizer)i;
			return 0;
		}
	}
	return RL_ERR_PARSE;
}

const char *rl_optimizer_name(enum rl_optimizer o)
{
	return opt_names[o];
}

static double elems(const struct rl_op *op)
{
	double n = 1;
	int i;

	for (i = 0; i < op->ndims; i++)
		n *= (double)op->dims[i];
	return n;
}

static double weight_es(const struct rl_op *op)
{
	return rl_dtype_bytes((op->has & RL_HAS_WEIGHT_DTYPE) ? op->weight_dtype : op->dtype);
}

/* The row's weight sets: weight_count where given (0: none, a matmul of
 * two activations), else count. */
static double weight_sets(const struct rl_op *op)
{
	return op->weight_count || (op->has & RL_HAS_WEIGHT_COUNT) ? (double)op->weight_count
	                                                           : (double)op->count;
}

/* A copy of FWD as an op of the expansion: no measurement, no carried
 * columns, no fusion group, phase PHASE, count times grad_accum. */
static int clone(const struct rl_train_opts *o, const struct rl_op *fwd, const char *suffix,
                 enum rl_phase phase, struct rl_train_op *t, struct rl_err *err)
{
	double n = (double)fwd->count * (double)o->grad_accum;

	if (n > MAX_TIMES)
		return rl_err_set(err, RL_ERR_RANGE,
		                  "count %llu x --grad-accum %llu is above 2^53",
		                  (unsigned long long)fwd->count, (unsigned long long)o->grad_accum);
	t->op = *fwd;
	t->op.name = NULL;
	t->op.has &= ~(unsigned)(RL_HAS_MEASURED | RL_HAS_HOST | RL_HAS_WEIGHT_COUNT);
	t->op.measured_us = 0;
	t->op.host_us = 0;
	t->op.extra = NULL;
	t->op.fuse = NULL;
	t->op.phase = phase;
	t->op.count = (uint64_t)n;
	t->op.weight_count = 0;
	snprintf(t->name, sizeof(t->name), "%s%s%s", fwd->name, suffix[0] ? "." : "", suffix);
	return 0;
}

/* Sets T's FLOPs and bytes explicitly. */
static void given(struct rl_train_op *t, double flops, double bytes)
{
	t->op.flops = flops;
	t->op.bytes = bytes;
	t->op.has |= RL_HAS_FLOPS | RL_HAS_BYTES;
}

/* Eager autograd: a row of its own (no carried shape symbols, columns or
 * kernel fields of FWD), kind KIND, FWD's dtype, line and count. */
static int fresh(const struct rl_train_opts *o, const struct rl_op *fwd, const char *suffix,
                 enum rl_kind kind, struct rl_train_op *t, struct rl_err *err)
{
	int rc = clone(o, fwd, suffix, RL_PHASE_BACKWARD, t, err);
	uint64_t count = t->op.count;

	if (rc < 0)
		return rc;
	rl_op_init(&t->op);
	t->op.kind = kind;
	t->op.dtype = fwd->dtype;
	t->op.line = fwd->line;
	t->op.phase = RL_PHASE_BACKWARD;
	t->op.count = count;
	t->op.has = RL_HAS_SHAPE;
	return 0;
}

/* Under eager autograd, a trainable row's linear layer carries a bias:
 * a 2-D matmul MxNxK (nn.Linear's default bias=True; a batched 4-D matmul
 * is bmm, which has none) whose shape the formulas derive. */
static int has_bias(const struct rl_train_opts *o, const struct rl_op *fwd)
{
	return o->autograd && fwd->kind == RL_KIND_MATMUL && fwd->ndims == 3 &&
	       (fwd->has & RL_HAS_SHAPE) && !(fwd->has & (RL_HAS_FLOPS | RL_HAS_BYTES));
}

/* A pointwise row that joins k >= 2 tensors: an add or a product of them
 * does at most k - 1 operations per element; a row doing more (training
 * batch norm, inputs 2 and 7 FLOPs per element) reads one tensor twice. */
static int joins(const struct rl_op *fwd)
{
	return fwd->inputs >= 2 &&
	       (!(fwd->has & RL_HAS_FPE) || fwd->flops_per_element <= (double)(fwd->inputs - 1));
}

void rl_train_autocast(const struct rl_train_opts *o, struct rl_op *op)
{
	if (o->autocast && (rl_kind_info(op->kind)->flags & RL_KF_AUTOCAST_FP32) &&
	    (op->dtype == RL_FP16 || op->dtype == RL_BF16))
		op->dtype = RL_FP32;
}

int rl_train_forward(const struct rl_train_opts *o, const struct rl_op *fwd,
                     struct rl_train_op *out)
{
	struct rl_work wk = {0};

	/* the two fields it reads: an op the formulas refuse still has them */
	wk.weight_elems = rl_op_weight_elems(fwd);
	wk.es = rl_dtype_bytes(fwd->dtype);
	return rl_train_forward_work(o, fwd, &wk, out);
}

int rl_train_forward_work(const struct rl_train_opts *o, const struct rl_op *fwd,
                          const struct rl_work *wk, struct rl_train_op *out)
{
	double w = wk->weight_elems;

	if (!o->autocast || w <= 0 || (fwd->has & (RL_HAS_FLOPS | RL_HAS_BYTES)))
		return 0;
	if (clone(o, fwd, "cast", RL_PHASE_FORWARD, out, NULL) < 0)
		return 0; /* the forward op itself reports the count */
	/* the fp32 weights read, the copy in the op's dtype written */
	out->op.kind = RL_KIND_COPY;
	out->op.ndims = 1;
	out->op.dims[0] = (uint64_t)w;
	out->op.has &= ~(unsigned)(RL_HAS_KERNEL | RL_HAS_WEIGHT_DTYPE | RL_HAS_FPE);
	given(out, 0, w * (4.0 + wk->es));
	if (has_bias(o, fwd)) { /* autocast casts addmm's bias too: its own copy_ */
		double nb = (double)fwd->dims[1];

		out->op.dims[0] = (uint64_t)(w + nb);
		out->op.launches = 2 * fwd->launches;
		given(out, 0, (w + nb) * (4.0 + wk->es));
	}
	return 1;
}

int rl_train_backward(const struct rl_train_opts *o, const struct rl_op *fwd, int first,
                      struct rl_train_op *out, struct rl_err *err)
{
	struct rl_work w;
	int rc = rl_op_derive(fwd, &w, err);

	return rc < 0 ? rc : rl_train_backward_work(o, fwd, &w, first, out, err);
}

int rl_train_backward_work(const struct rl_train_opts *o, const struct rl_op *fwd,
                           const struct rl_work *w, int first, struct rl_train_op *out,
                           struct rl_err *err)
{
	double flops = w->flops, es = w->es, n = w->elems;
	int k = 0, rc, given_work = (fwd->has & (RL_HAS_FLOPS | RL_HAS_BYTES)) != 0 ||
	                            fwd->kind == RL_KIND_CUSTOM || !(fwd->has & RL_HAS_SHAPE);

	if (o->recompute && fwd->count > 1) {
		if ((rc = clone(o, fwd, "recompute", RL_PHASE_BACKWARD, &out[k++], err)) < 0)
			return rc;
	}
	switch (fwd->kind) {
	case RL_KIND_MATMUL: {
		int b = fwd->ndims == 4;
		uint64_t M = fwd->dims[b], N = fwd->dims[b + 1], K = fwd->dims[b + 2];

		if (!first || fwd->count > 1) { /* dA = dC B^T: M x K over N */
			if ((rc = clone(o, fwd, "dgrad", RL_PHASE_BACKWARD, &out[k], err)) < 0)
				return rc;
			if (!given_work) {
				out[k].op.dims[b + 1] = K;
				out[k].op.dims[b + 2] = N;
				out[k].op.weight_group = 0; /* its groups ran along K */
			}
			k++;
		}
		if (!fwd->frozen) { /* dB = A^T dC: K x N over M, activations both */
			if ((rc = clone(o, fwd, "wgrad", RL_PHASE_BACKWARD, &out[k], err)) < 0)
				return rc;
			if (!given_work) {
				out[k].op.dims[b] = K;
				out[k].op.dims[b + 1] = N;
				out[k].op.dims[b + 2] = M;
				out[k].op.has &= ~(unsigned)RL_HAS_WEIGHT_DTYPE;
				out[k].op.weight_group = 0;
			}
			k++;
		}
		if (!fwd->frozen && has_bias(o, fwd)) {
			/* addmm's bias gradient (derivatives.yaml: self:
			 * maybe_multiply(grad, beta)) is dY, [M, N]; the engine sums
			 * it to the bias's shape [N] (validate_outputs: at::sum_to),
			 * a reduction over the M rows */
			if ((rc = fresh(o, fwd, "bias_grad", RL_KIND_REDUCTION, &out[k], err)) < 0)
				return rc;
			out[k].op.ndims = 2;
			out[k].op.dims[0] = N;
			out[k].op.dims[1] = M;
			out[k].op.dim_sym[0] = fwd->dim_sym[1];
			out[k].op.dim_sym[1] = fwd->dim_sym[0];
			k++;
			if (o->autocast) { /* ToCopyBackward0 of the bias's cast */
				if ((rc = fresh(o, fwd, "bias_grad_cast", RL_KIND_COPY, &out[k],
				                err)) < 0)
					return rc;
				out[k].op.ndims = 1;
				out[k].op.dims[0] = N;
				given(&out[k], 0, (double)N * (es + 4.0));
				k++;
			}
		}
		break;
	}
	case RL_KIND_CONV2D:
		/* the data gradient reads dY and W and writes dX, the weight
		 * gradient reads X and dY and writes dW: each the forward's
		 * FLOPs over the forward's three tensors */
		if (!first || fwd->count > 1) {
			if ((rc = clone(o, fwd, "dgrad", RL_PHASE_BACKWARD, &out[k++], err)) < 0)
				return rc;
		}
		if (!fwd->frozen) {
			if ((rc = clone(o, fwd, "wgrad", RL_PHASE_BACKWARD, &out[k], err)) < 0)
				return rc;
			out[k++].op.has &= ~(unsigned)RL_HAS_WEIGHT_DTYPE;
		}
		break;
	case RL_KIND_ATTENTION:
		if ((rc = clone(o, fwd, "bwd", RL_PHASE_BACKWARD, &out[k], err)) < 0)
			return rc;
		if (!given_work) {
			/* FlashAttention-2 (Dao 2023, section 3.1.2): the backward
			 * pass recomputes S = Q K^T and runs dV = P^T dO, dP = dO
			 * V^T, dQ = dS K, dK = dS^T Q: five GEMMs to the forward's
			 * two. It reads Q, K, V, O, dO and writes dQ, dK, dV. With
			 * V and O of Dv channels (v_head_dim, formulas.h) S, dQ and
			 * dK cost 2 x scores x D each, dV and dP 2 x scores x Dv,
			 * against the forward's 2 x scores x (D + Dv): (3 D + 2 Dv)
			 * / (D + Dv) of it, 2.5 when Dv = D. Q and dQ have D
			 * channels a query, O and dO Dv; K and dK D a key, V and dV
			 * Dv; with kv_shared V is K's first Dv channels, so it is
			 * read with K and dV is added into dK's (one gradient of
			 * K's shape, written once): D a key, read and written. */
			const uint64_t *d = fwd->dims;
			double hd = (double)d[fwd->ndims - 1], dv = (double)rl_attention_v_dim(fwd);
			double q = (double)d[0] * (double)d[1] * (double)d[2] * hd;
			double qo = (double)d[0] * (double)d[1] * (double)d[2] * (hd + dv);
			double kvc = (double)d[0] * (double)(fwd->kv_heads ? fwd->kv_heads : d[1]) *
			             (double)d[fwd->ndims == 5 ? 3 : 2] *
			             rl_attention_kv_channels(fwd);
			double kes = (fwd->has & RL_HAS_KV_DTYPE) ? rl_dtype_bytes(fwd->kv_dtype) : es;

			given(&out[k], (3.0 * hd + 2.0 * dv) / (hd + dv) * flops,
			      2.0 * qo * es + 2.0 * kvc * kes);
			out[k].op.has &= ~(unsigned)RL_HAS_KV_DTYPE;
			if (o->autograd) {
				/* dQ, dK and dV leave the kernel as [B, H, S, D] and
				 * reach the projections as [B, S, H x D]: a view's
				 * backward (transpose, then view or reshape) of a
				 * non-contiguous gradient copies it (ViewBackward0's
				 * reshape), split's backward is a cat (SplitBackward0),
				 * a select's copies it into its slice (SelectBackward0):
				 * Q + K + V elements read and written (V's Dv channels;
				 * none of its own with kv_shared, its gradient in K's) */
				if ((rc = fresh(o, fwd, "qkv_grad", RL_KIND_COPY, &out[k + 1],
				                err)) < 0)
					return rc;
				out[k + 1].op.dtype = fwd->dtype;
				out[k + 1].op.ndims = 1;
				out[k + 1].op.dims[0] = (uint64_t)(q + kvc);
				k++;
			}
		}
		k++;
		break;
	case RL_KIND_LAYERNORM:
		/* layer_norm_kernel.cu: the input gradient's kernel and
		 * GammaBetaBackward each read x and dy; dx is written */
		if ((rc = clone(o, fwd, "bwd", RL_PHASE_BACKWARD, &out[k], err)) < 0)
			return rc;
		if (!given_work) {
			given(&out[k], 2.0 * flops, 5.0 * n * es);
			out[k].op.launches = fwd->launches * 2;
		}
		k++;
		break;
	case RL_KIND_SOFTMAX: /* dx = y (dy - sum(dy y)): y, dy read, dx written */
		if ((rc = clone(o, fwd, "bwd", RL_PHASE_BACKWARD, &out[k], err)) < 0)
			return rc;
		if (!given_work)
			given(&out[k], flops, 3.0 * n * es);
		k++;
		if (o->autograd && o->autocast && !given_work &&
		    (fwd->dtype == RL_FP16 || fwd->dtype == RL_BF16)) {
			/* a 16-bit softmax under autocast is cross_entropy's
			 * log_softmax (autocast runs a model's own softmax in
			 * fp32): nll_loss, on autocast's fp32 list, takes its
			 * output cast to fp32, and nll_loss_backward zeroes that
			 * fp32 gradient of all N log-probabilities before it
			 * scatters the picked ones (LossNLL.cpp: grad_input.zero_()) */
			if ((rc = fresh(o, fwd, "loss_grad_fill", RL_KIND_POINTWISE, &out[k],
			                err)) < 0)
				return rc;
			out[k].op.dtype = RL_FP32;
			out[k].op.ndims = fwd->ndims;
			memcpy(out[k].op.dims, fwd->dims, sizeof(fwd->dims));
			memcpy(out[k].op.dim_sym, fwd->dim_sym, sizeof(fwd->dim_sym));
			out[k].op.inputs = 0;
			given(&out[k], 0, 4.0 * n);
			k++;
		}
		break;
	case RL_KIND_POINTWISE: /* dy and the inputs read, a gradient per input */
		if (fwd->inputs == 0 && !given_work)
			break; /* a fill: nothing flows back */
		if ((rc = clone(o, fwd, "bwd", RL_PHASE_BACKWARD, &out[k], err)) < 0)
			return rc;
		if (!given_work) {
			double in = (double)fwd->inputs;

			given(&out[k], in * flops, (1.0 + 2.0 * in) * n * es);
		}
		k++;
		if (o->autograd && joins(fwd) && !given_work) {
			/* k inputs joined: in an op list, a chain, k - 1 of them
			 * are tensors forked earlier (a residual, a GELU's x) that
			 * feed another op too, and the engine adds the two
			 * gradients of each (InputBuffer::add: add_) */
			double j = (double)(fwd->inputs - 1);

			if ((rc = fresh(o, fwd, "accumulate", RL_KIND_POINTWISE, &out[k], err)) < 0)
				return rc;
			out[k].op.ndims = fwd->ndims;
			memcpy(out[k].op.dims, fwd->dims, sizeof(fwd->dims));
			memcpy(out[k].op.dim_sym, fwd->dim_sym, sizeof(fwd->dim_sym));
			out[k].op.inputs = 2;
			out[k].op.launches = (uint64_t)j * fwd->launches;
			given(&out[k], j * n, j * 3.0 * n * es);
			k++;
			if (o->autocast && fwd->dtype == RL_FP32) {
				/* under autocast an fp32 join adds a 16-bit branch
				 * (a GEMM's output) to the fp32 stream: the engine
				 * casts the branch's gradient to its input's dtype
				 * (validate_outputs), fp32 read, 2 bytes written */
				rc = fresh(o, fwd, "grad_cast", RL_KIND_COPY, &out[k], err);
				if (rc < 0)
					return rc;
				out[k].op.dtype = RL_BF16; /* fp16 alike: 2 bytes */
				out[k].op.ndims = fwd->ndims;
				memcpy(out[k].op.dims, fwd->dims, sizeof(fwd->dims));
				memcpy(out[k].op.dim_sym, fwd->dim_sym, sizeof(fwd->dim_sym));
				given(&out[k], 0, n * 6.0);
				k++;
			}
		}
		break;
	case RL_KIND_REDUCTION: /* dy broadcast over the reduced dimension */
		if ((rc = clone(o, fwd, "bwd", RL_PHASE_BACKWARD, &out[k], err)) < 0)
			return rc;
		if (!given_work) {
			out[k].op.kind = RL_KIND_POINTWISE;
			out[k].op.has &= ~(unsigned)RL_HAS_FPE;
			given(&out[k], 0, (n / (double)fwd->dims[fwd->ndims - 1] + n) * es);
		}
		k++;
		break;
	case RL_KIND_COPY: /* the rows scattered back: as forward */
	case RL_KIND_EMBEDDING: /* embedding_dense_backward: dy's rows added into
	                         * the table's gradient at the indices */
	case RL_KIND_ALLGATHER:
	case RL_KIND_REDUCESCATTER:
		/* conjugates (Korthikanti et al. 2022, section 4.2.2): an
		 * all-gather's gradient is reduce-scattered back to the shards, a
		 * reduce-scatter's all-gathered; each rank's input is the
		 * gathered tensor, or the shard (the bus bytes are the same) */
		if ((rc = clone(o, fwd, "bwd", RL_PHASE_BACKWARD, &out[k], err)) < 0)
			return rc;
		if (fwd->ranks > 1 && fwd->ndims > 0) {
			struct rl_op *b = &out[k].op;

			if (fwd->kind == RL_KIND_ALLGATHER && b->dims[0] <= UINT64_MAX / fwd->ranks) {
				b->kind = RL_KIND_REDUCESCATTER;
				b->dims[0] *= fwd->ranks;
			} else if (fwd->kind == RL_KIND_REDUCESCATTER) {
				b->kind = RL_KIND_ALLGATHER;
				b->dims[0] = (b->dims[0] + fwd->ranks - 1) / fwd->ranks;
			}
		}
		k++;
		break;
	case RL_KIND_CUSTOM:
	case RL_KIND_ALLREDUCE:
	case RL_KIND_ALLTOALL:
	case RL_KIND_BROADCAST:
	case RL_KIND_SENDRECV:
	case RL_KIND_FUSED:
		if ((rc = clone(o, fwd, "bwd", RL_PHASE_BACKWARD, &out[k++], err)) < 0)
			return rc;
		break;
	}
	/* autocast: each weight gradient cast to fp32 (ToCopyBackward) */
	if (o->autocast && !fwd->frozen && !given_work &&
	    rl_kind_info(fwd->kind)->weights == RL_WEIGHTS_MATRIX) {
		double we = w->weight_elems;

		if ((rc = clone(o, fwd, "wgrad_cast", RL_PHASE_BACKWARD, &out[k], err)) < 0)
			return rc;
		out[k].op.kind = RL_KIND_COPY;
		out[k].op.ndims = 1;
		out[k].op.dims[0] = (uint64_t)we;
		out[k].op.has &= ~(unsigned)(RL_HAS_KERNEL | RL_HAS_WEIGHT_DTYPE | RL_HAS_FPE);
		given(&out[k], 0, we * (es + 4.0));
		k++;
	}
	return k;
}

void rl_train_params_init(struct rl_train_params *p)
{
	memset(p, 0, sizeof(*p));
	p->dtype = RL_FP32;
}

/* The weights a row holds besides its kind's (params: an embedding table,
 * a norm's weight, a bias), as SETS tensors (one per occurrence): trained
 * as the matmuls' are. */
static void params_add(struct rl_train_params *p, const struct rl_op *fwd, double sets)
{
	double w = (double)fwd->params;

	p->params += w;
	p->tensors += sets;
	p->chunks += ceil(w / sets / CHUNK) * sets;
	p->param_bytes += w * weight_es(fwd);
}

int rl_train_params_add(struct rl_train_params *p, const struct rl_op *fwd, struct rl_err *err)
{
	double w = rl_op_weight_elems(fwd), sets = weight_sets(fwd);

	if (fwd->phase != RL_PHASE_FORWARD)
		return 0;
	if (fwd->params > 0 && !fwd->frozen)
		params_add(p, fwd, sets);
	if (w <= 0)
		return 0;
	if (fwd->frozen) {
		p->frozen += w * sets;
		return 0;
	}
	if ((fwd->has & RL_HAS_WEIGHT_DTYPE) &&
	    (fwd->weight_dtype == RL_INT4 || fwd->weight_dtype == RL_FP4))
		return rl_err_set(err, RL_ERR_PARSE,
		                  "%s weights train frozen only (trainable=0): a gradient step "
		                  "needs weights it can update",
		                  rl_dtype_name(fwd->weight_dtype));
	p->params += w * sets;
	p->tensors += sets;
	p->chunks += ceil(w / CHUNK) * sets;
	p->param_bytes += w * sets * weight_es(fwd);
	return 0;
}

/* One pass of multi_tensor_apply over DEPTH lists: the launches it needs. */
static double launches(const struct rl_train_params *p, int depth)
{
	double t = ceil(p->tensors / max_tensors[depth - 1]), b = ceil(p->chunks / MAX_BLOCKS);

	return fmax(1, fmax(t, b));
}

/* The per-pass table of an optimizer: W, G and S multiply the weights',
 * gradients' and state's bytes; FLOPs per parameter; lists walked. */
struct pass {
	const char *name;
	double w, g, s, flops;
	int depth;
};

/* Fused kernels (ATen/native/cuda/fused_adam_impl.cu, FusedSgdKernel.cu):
 * each element's weight, gradient and state read once and written once. */
static const struct pass adam_fused[] = {{"fused_adam", 2, 1, 4, 12, 4}};
static const struct pass sgd_fused[] = {{"fused_sgd", 2, 1, 2, 3, 3}};
/* PyTorch's foreach Adam(W) (torch/optim/adam.py, _multi_tensor_adam, as a
 * PyTorch 2.11 AdamW step records them: docs/oplist-format.md) */
static const struct pass adamw_foreach[] = {
	{"foreach_mul_weight_decay", 2, 0, 0, 1, 1}, /* params *= 1 - lr wd */
	{"foreach_lerp_m", 0, 1, 2, 2, 2},           /* m += (1 - b1)(g - m) */
	{"foreach_mul_v", 0, 0, 2, 1, 1},            /* v *= b2 */
	/* v += (1 - b2) g g: addcmul_(v, g, g) walks g twice, but reads it from
	 * memory once (the second load hits the cache): the recorded step's
	 * kernel moves 3 x P x 4 bytes in 271 us, 4 x would be 4.83 TB/s, more
	 * than the H200's 4.8 */
	{"foreach_addcmul_v", 0, 1, 2, 2, 3},
	{"foreach_sqrt", 0, 0, 2, 1, 2},             /* d = sqrt(v) */
	{"foreach_div", 0, 0, 2, 1, 1},              /* d /= sqrt(1 - b2^t) */
	{"foreach_add_eps", 0, 0, 2, 1, 1},          /* d += eps */
	{"foreach_addcdiv", 2, 0, 2, 2, 3},          /* params -= step m / d */
};
/* PyTorch's foreach SGD with momentum (torch/optim/sgd.py, _multi_tensor_sgd,
 * as recorded: buf *= momentum, buf += g, params -= lr buf) */
static const struct pass sgd_foreach[] = {
	{"foreach_mul_buf", 0, 0, 2, 1, 1},
	{"foreach_add_buf", 0, 1, 2, 1, 2},
	{"foreach_add_params", 2, 0, 1, 1, 2},
};

/* L2 weight decay of foreach SGD and Adam (torch/optim/sgd.py and adam.py:
 * grads = torch._foreach_add(grads, params, alpha=weight_decay)): p and g
 * read, a new gradient list written. The fused kernels fold it in. */
static const struct pass l2_decay = {"foreach_add_weight_decay", 1, 2, 0, 2, 2};

static int has_l2(const struct rl_train_opts *o)
{
	return o->weight_decay && !o->fused &&
	       (o->optimizer == RL_OPT_SGD || o->optimizer == RL_OPT_ADAM);
}

static const struct pass *passes(const struct rl_train_opts *o, size_t *n)
{
	switch (o->optimizer) {
	case RL_OPT_ADAMW:
	case RL_OPT_ADAM:
		if (o->fused) {
			*n = 1;
			return adam_fused;
		}
		/* Adam's default weight decay is 0: no first pass */
		*n = 8 - (o->optimizer == RL_OPT_ADAM);
		return adamw_foreach + (o->optimizer == RL_OPT_ADAM);
	case RL_OPT_SGD:
		*n = o->fused ? 1 : 3;
		return o->fused ? sgd_fused : sgd_foreach;
	case RL_OPT_NONE: break;
	}
	*n = 0;
	return NULL;
}

/* Bytes per parameter of the weights the optimizer updates and of the
 * gradients it reads: fp32 under autocast or with a master copy. */
static void wg_bytes(const struct rl_train_opts *o, double es, double *w, double *g)
{
	*w = (o->autocast || o->master) ? 4.0 : es;
	*g = o->autocast ? 4.0 : es;
}

int rl_train_optimizer(const struct rl_train_opts *o, const struct rl_train_params *p,
                       struct rl_train_op *out)
{
	size_t i, n;
	const struct pass *ps = passes(o, &n);
	double es = p->params > 0 ? p->param_bytes / p->params : 4.0;
	double s = rl_dtype_bytes(o->state_dtype), w, g;
	int k = 0;

	if (p->params <= 0)
		return 0;
	wg_bytes(o, es, &w, &g);
	if (o->grad_accum > 1) {
		/* torch/csrc/autograd/functions/accumulate_grad.h: a leaf's
		 * gradient of a later micro-batch is added into .grad in place,
		 * one add_ per parameter tensor: .grad and the new gradient read,
		 * .grad written */
		struct rl_train_op *t = &out[k++];

		rl_op_init(&t->op);
		snprintf(t->name, sizeof(t->name), "accumulate_grad");
		t->op.kind = RL_KIND_POINTWISE;
		t->op.dtype = g == 4.0 ? RL_FP32 : p->dtype;
		t->op.phase = RL_PHASE_BACKWARD;
		t->op.count = o->grad_accum - 1;
		t->op.launches = (uint64_t)fmax(1, p->tensors);
		given(t, p->params, 3.0 * g * p->params);
	}
	for (i = 0; i < n + (size_t)has_l2(o); i++, k++) {
		struct rl_train_op *t = &out[k];
		const struct pass *q = has_l2(o) ? (i == 0 ? &l2_decay : &ps[i - 1]) : &ps[i];

		rl_op_init(&t->op);
		snprintf(t->name, sizeof(t->name), "%s.%s", rl_optimizer_name(o->optimizer),
		         q->name);
		t->op.kind = RL_KIND_POINTWISE;
		t->op.dtype = o->state_dtype;
		t->op.phase = RL_PHASE_OPTIMIZER;
		t->op.launches = (uint64_t)launches(p, q->depth);
		given(t, q->flops * p->params, (q->w * w + q->g * g + q->s * s) * p->params);
	}
	if (o->master && n > 0) { /* the updated fp32 weights copied back */
		struct rl_train_op *t = &out[k++];

		rl_op_init(&t->op);
		snprintf(t->name, sizeof(t->name), "%s.master_copy", rl_optimizer_name(o->optimizer));
		t->op.kind = RL_KIND_COPY;
		t->op.dtype = RL_FP32;
		t->op.phase = RL_PHASE_OPTIMIZER;
		t->op.launches = (uint64_t)launches(p, 2);
		given(t, 0, (4.0 + es) * p->params);
	}
	return k;
}

double rl_train_optimizer_bytes_per_param(const struct rl_train_opts *o, enum rl_dtype weight)
{
	size_t i, n;
	const struct pass *ps = passes(o, &n);
	double es = rl_dtype_bytes(weight), s = rl_dtype_bytes(o->state_dtype), w, g, b = 0;

	wg_bytes(o, es, &w, &g);
	for (i = 0; i < n; i++)
		b += ps[i].w * w + ps[i].g * g + ps[i].s * s;
	if (has_l2(o))
		b += l2_decay.w * w + l2_decay.g * g + l2_decay.s * s;
	if (o->master && n > 0)
		b += 4.0 + es;
	return b;
}

void rl_train_mem_init(struct rl_train_mem *m)
{
	memset(m, 0, sizeof(*m));
}

/* rl_train_saved_bytes() of FWD with ES bytes per element and N elements. */
static double saved_bytes(const struct rl_op *fwd, double es, double n)
{
	const uint64_t *d = fwd->dims;

	if (!(fwd->has & RL_HAS_SHAPE) || (fwd->has & (RL_HAS_FLOPS | RL_HAS_BYTES)))
		return 0;
	switch (fwd->kind) {
	case RL_KIND_MATMUL: { /* A, for the weight gradient */
		int b = fwd->ndims == 4;

		return (b ? (double)d[0] : 1) * (double)d[b] * (double)d[b + 2] * es;
	}
	case RL_KIND_CONV2D: return n * es; /* X */
	case RL_KIND_ATTENTION: {
		/* Q (D channels) and O (Dv), K (D) and V (Dv; with kv_shared part
		 * of K: formulas.h), and the log-sum-exp of each query row (fp32) */
		double sq = (double)d[2];
		double qo = (double)d[0] * (double)d[1] * sq *
		            ((double)d[fwd->ndims - 1] + (double)rl_attention_v_dim(fwd));
		double kv = (double)d[0] * (double)(fwd->kv_heads ? fwd->kv_heads : d[1]) *
		            (double)d[fwd->ndims == 5 ? 3 : 2] * rl_attention_kv_channels(fwd);
		double kes = (fwd->has & RL_HAS_KV_DTYPE) ? rl_dtype_bytes(fwd->kv_dtype) : es;

		return qo * es + kv * kes + (double)d[0] * (double)d[1] * sq * 4.0;
	}
	case RL_KIND_LAYERNORM: /* x, and the mean and 1/std of each row (fp32) */
		return n * es + n / (double)d[fwd->ndims - 1] * 8.0;
	case RL_KIND_SOFTMAX: return n * es; /* y */
	case RL_KIND_POINTWISE: return (double)fwd->inputs * n * es;
	case RL_KIND_EMBEDDING: /* the indices (int64), for the backward's scatter */
		return n / (double)d[fwd->ndims - 1] * 8.0;
	case RL_KIND_REDUCTION:
	case RL_KIND_COPY: /* indices */
	case RL_KIND_ALLREDUCE:
	case RL_KIND_ALLGATHER:
	case RL_KIND_REDUCESCATTER:
	case RL_KIND_ALLTOALL:
	case RL_KIND_BROADCAST:
	case RL_KIND_SENDRECV:
	case RL_KIND_CUSTOM:
	case RL_KIND_FUSED: return 0;
	}
	return 0;
}

double rl_train_saved_bytes(const struct rl_op *fwd)
{
	return saved_bytes(fwd, rl_dtype_bytes(fwd->dtype), elems(fwd));
}

/* The bytes of FWD's first input (ES bytes per element, N elements): a
 * repeated block's checkpoint. */
static double input_bytes(const struct rl_op *fwd, double es, double n)
{
	const uint64_t *d = fwd->dims;

	if (!(fwd->has & RL_HAS_SHAPE))
		return 0;
	switch (rl_kind_info(fwd->kind)->bytes) {
	case RL_BYTES_MATMUL: {
		int b = fwd->ndims == 4;

		return (b ? (double)d[0] : 1) * (double)d[b] * (double)d[b + 2] * es;
	}
	case RL_BYTES_ATTENTION:
		return (double)d[0] * (double)d[1] * (double)d[2] * (double)d[fwd->ndims - 1] * es;
	case RL_BYTES_GATHER: /* the indices (int64) */
		return n / (double)d[fwd->ndims - 1] * 8.0;
	case RL_BYTES_INPUTS:
	case RL_BYTES_STREAM:
	case RL_BYTES_ROW_REDUCE:
	case RL_BYTES_ROW_AFFINE:
	case RL_BYTES_CONV2D:
	case RL_BYTES_BUS:
	case RL_BYTES_GIVEN: break;
	}
	return n * es;
}

static void close_run(struct rl_train_mem *m)
{
	if (m->run_count > 0 && m->run_saved > m->run_max)
		m->run_max = m->run_saved;
	m->run_count = 0;
	m->run_saved = 0;
}

int rl_train_mem_add(struct rl_train_mem *m, const struct rl_train_opts *o,
                     const struct rl_op *fwd, struct rl_err *err)
{
	struct rl_work w;
	int rc = rl_op_derive(fwd, &w, err);

	if (rc < 0)
		return rc;
	rl_train_mem_add_work(m, o, fwd, &w);
	return 0;
}

void rl_train_mem_add_work(struct rl_train_mem *m, const struct rl_train_opts *o,
                          const struct rl_op *fwd, const struct rl_work *w)
{
	double saved;

	saved = saved_bytes(fwd, w->es, w->elems);
	m->saved_full += saved * (double)fwd->count;
	if (fwd->count <= o->microbatches)
		m->once_full += saved * (double)fwd->count;
	if (fwd->count > 1) {
		if (m->run_count != fwd->count) {
			close_run(m);
			m->run_count = fwd->count;
			m->checkpoints += input_bytes(fwd, w->es, w->elems) * (double)fwd->count;
		}
		m->run_saved += saved;
	} else {
		close_run(m);
		m->outside += saved;
	}
}

void rl_train_mem_end(struct rl_train_mem *m, const struct rl_train_opts *o,
                      const struct rl_train_params *p)
{
	double s = rl_dtype_bytes(o->state_dtype), states;
	double mb = (double)(o->microbatches > 1 ? o->microbatches : 1);
	double inflight = fmin(o->in_flight, mb);
	double full = m->saved_full, layers, once;

	close_run(m);
	/* The rows' counts hold every micro-batch; 1F1B keeps the activations
	 * of at most in_flight of them (Narayanan et al. 2021, section 2.2.1:
	 * stage s of pp holds pp - s, the first min(m, pp), the last one). The
	 * list is the last stage's: its layers' share of one micro-batch times
	 * in_flight is the first stage's, its layers' and head's share of one
	 * the last stage's; the larger is the peak. Recomputation keeps each
	 * layer's input for the micro-batches in flight, and one layer's
	 * working set live once whatever the count (with micro-batches every
	 * row is counted m times: none is outside a run). */
	if (mb > 1) {
		layers = (m->saved_full - m->once_full) / mb;
		once = m->once_full / mb;
		full = fmax(inflight * layers, layers + once);
	}
	m->saved = o->recompute ? m->checkpoints * inflight / mb + m->run_max + m->outside : full;
	m->gradients = o->autocast ? 4.0 * p->params : p->param_bytes;
	states = o->optimizer == RL_OPT_SGD ? 1 : o->optimizer == RL_OPT_NONE ? 0 : 2;
	m->optimizer = states * s * p->params;
	if (o->master)
		m->master = 4.0 * p->params;
	else if (o->autocast)
		m->master = 4.0 * p->params - p->param_bytes; /* the weights held in fp32 */
	else
		m->master = 0;
	/* ZeRO (Rajbhandari et al. 2020, section 5.1, Figure 1): stage 1 (P_os)
	 * keeps 1 / N_d of the optimizer state, the fp32 master weights among
	 * it; stage 2 (P_os+g) of the gradients too; stage 3 (P_os+g+p) of the
	 * weights too */
	m->weight_share = 1;
	if (o->zero >= 1 && o->shards > 1) {
		double n = (double)o->shards;

		m->optimizer /= n;
		m->master /= n;
		if (o->zero >= 2)
			m->gradients /= n;
		if (o->zero >= 3)
			m->weight_share = 1 / n;
	}
}
