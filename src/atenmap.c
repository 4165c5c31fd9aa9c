/* atenmap.c - the ATen op table and its shape rules (see atenmap.h).
 *
 * Each table row (src/aten.def, which contrib/torch_oplist.py reads too)
 * names an op, the kind it becomes, a rule (how the shape is read from the
 * inputs) and up to two small parameters of the rule: which input holds the
 * first matrix, which "Concrete Inputs" slot holds a dim or the causal flag,
 * and so on. Argument positions follow the ATen schemas
 * (native_functions.yaml); docs/trace-import.md repeats them.
 */
#include "config.h"

#include "atenmap.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formulas.h"
#include "num.h"
#include "train.h"

enum rule {
	R_MM,        /* A[M,K] at in[a], B[K,N] at in[a+1] -> MxNxK */
	R_BMM,       /* A[B,M,K], B[B,K,N] from in[a] -> BxMxNxK */
	R_MATMUL,    /* torch.matmul's broadcasting rules */
	R_LINEAR,    /* x[...,K], W[N,K] -> (prod ...)xNxK */
	R_MV,        /* A[M,K] at in[a], x[K] -> Mx1xK */
	R_DOT,       /* x[K], y[K] -> 1x1xK */
	R_CONV,      /* input, weight; a: layout of the concrete args (CONV_*) */
	R_SDPA,      /* q, k as [B,H,S,D]; a: slot of is_causal */
	R_SDPA_BSHD, /* q, k as [B,S,H,D]; a: slot of is_causal (or mask type) */
	R_NORM,      /* normalised over the trailing dims named in slot a */
	R_GROUPNORM, /* a: slot of num_groups */
	R_BATCHNORM, /* a pointwise row; a: slot of training (-1: eval) */
	R_INSTNORM,  /* per (sample, channel) over the spatial dims */
	R_SOFTMAX,   /* a: slot of dim */
	R_REDUCE,    /* a: slot of dim(s); b: 1 when a single int dim is allowed */
	R_POINTWISE, /* broadcast of the tensor inputs */
	R_FILL,      /* writes in[0]'s shape, reads nothing */
	R_COPY,      /* copy of in[a]'s shape; dtype conversions counted */
	R_TO,        /* to / _to_copy: in[0] converted to the dtype in slot a */
	R_EMBEDDING, /* weight[V,D], indices[...] -> (numel indices)xD rows */
	R_INDEX_SELECT, /* self, dim slot 1, index in[2] */
	R_GATHER,    /* output has index in[2]'s shape */
	R_INDEX,     /* self[indices]: index tensors in the list in[1] */
	R_SCATTER,   /* writes in[a]'s shape into self */
	R_CAT,       /* list in[0] joined along slot 1's dim */
	R_STACK,     /* list in[0] stacked */
	R_FOREACH,   /* pointwise over lists of tensors */
	R_FOREACH_FILL, /* writes list in[0] */
	R_FOREACH_NORM, /* one norm per tensor of list in[0] */
	R_ADAM,      /* fused Adam(W) step: params, grads, exp_avg, exp_avg_sq */
	R_GROUPED_MM, /* _grouped_mm: the rows of A split among B's groups */
	R_ARANGE,    /* writes the count its concrete start, end, step give */
	R_DIFF,      /* differences along slot 2's dim, with prepend and append */
	R_SCAN,      /* a: slot of dim, b: slot of the output dtype */
	R_TOPK,      /* k at slot 1, dim at slot 2 */
	R_SORT,      /* dim at slot 1 (or 2: sort.stable); a: 1 for argsort */
	R_HISTC,     /* bins at slot 1 */
	R_SCALAR,    /* one element to the host (is_nonzero, item) */
	/* backward ops: the forward op's shape, the work of the backward
	 * rules of train.h (docs/oplist-format.md, "Training steps") */
	R_NORM_BWD,  /* a: the input x; b: slot of normalized_shape (0: batch norm) */
	R_SOFTMAX_BWD, /* y at in[1], dim at slot 2 */
	R_CONV_BWD,  /* convolution_backward: grad, input, weight, ..., output_mask */
	R_SDPA_BWD,  /* grad_out, q, k, v, ...; a: slot of is_causal */
	R_EMBED_BWD, /* grad [..., D], indices, num_weights at slot 2 */
	R_SELECT_BWD, /* grad, input_sizes at slot 1 */
	R_POOL,      /* max_pool2d: kernel, stride, padding at slots 1-3; a: writes indices */
	R_POOL_BWD,  /* grad, self, kernel, stride, padding, dilation, ceil, indices */
	R_AVGPOOL,   /* adaptive_avg_pool2d: output_size at slot 1 */
	R_NLL,       /* self [N, C], target [N] */
	R_NLL_BWD,   /* grad_output, self [N, C], target [N] */
	R_NEW,       /* a fill of the size at slot a; b: slot of the dtype, or -1 */
};

/* The conv layouts (a of a conv row) and their argument slots: aten.def's
 * ATEN_CONV lines. */
#define ATEN(name, kind, rule, fpe, a, b)
#define ATEN_TRACE(name, kind, rule, fpe, a, b)
#define ATEN_CONV(layout, stride, padding, dilation, groups, transposed) layout,
enum conv_layout {
#include "aten.def"
};
#undef ATEN_CONV
#define ATEN_CONV(layout, stride, padding, dilation, groups, transposed) \
	[layout] = {stride, padding, dilation, groups, transposed},
static const int conv_slots[][5] = {
#include "aten.def"
};
#undef ATEN_CONV
#undef ATEN_TRACE
#undef ATEN

struct entry {
	const char *name; /* without the "aten::" prefix */
	enum rl_kind kind;
	enum rule rule;
	double fpe;       /* flops_per_element; 0 = the kind's default */
	int a, b;
};

/* The table, one row per op of aten.def (ATEN_TRACE: ops that
 * contrib/torch_oplist.py, which reads the same file, leaves as custom rows;
 * here they map like the others). */
static const struct entry table[] = {
#define ATEN(name, kind, rule, fpe, a, b) {#name, RL_KIND_##kind, R_##rule, fpe, a, b},
#define ATEN_TRACE(name, kind, rule, fpe, a, b) {#name, RL_KIND_##kind, R_##rule, fpe, a, b},
#define ATEN_CONV(layout, stride, padding, dilation, groups, transposed)
#include "aten.def"
#undef ATEN_CONV
#undef ATEN_TRACE
#undef ATEN
};

/* Fused ops whose children are recorded as ops of their own, each with its
 * kernels: the import makes a row of each child (rl_aten_composite). */
static const char *const composite[] = {
	"_native_multi_head_attention",   /* nn.MultiheadAttention's fast path */
	"_transformer_encoder_layer_fwd", /* nn.TransformerEncoderLayer's */
	"cross_entropy_loss",             /* log_softmax, then nll_loss_nd */
	"nll_loss_nd",                    /* nll_loss */
	"nll_loss",                       /* autocast's cast to fp32, nll_loss_forward */
};

/* The autograd engine's wrappers (torch/csrc/autograd/engine.cpp and
 * function.h record them): each evaluation of a node, the node (named after
 * its C++ class, "MmBackward0", "ScaledDotProductCudnnAttentionBackward0")
 * and the leaf's gradient accumulation. */
#define EVALUATE "autograd::engine::evaluate_function: "
static const char *const autograd_composite[] = {
	"torch::autograd::AccumulateGrad",
	"torch::autograd::CopySlices",
	"torch::autograd::GraphRoot",
};

static const struct {
	const char *name;
	int dtype; /* enum rl_dtype, or -1: no dtype of ours */
	unsigned size;
} types[] = {
	{"c10::BFloat16", RL_BF16, 2}, {"c10::Half", RL_FP16, 2},
	{"float", RL_FP32, 4},         {"double", RL_FP64, 8},
	{"c10::Float8_e4m3fn", RL_FP8E4M3, 1}, {"c10::Float8_e4m3fnuz", RL_FP8E4M3, 1},
	{"c10::Float8_e5m2", RL_FP8E5M2, 1},   {"c10::Float8_e5m2fnuz", RL_FP8E5M2, 1},
	{"long int", RL_INT64, 8},     {"long", RL_INT64, 8},
	{"int64_t", RL_INT64, 8},      {"int", RL_INT32, 4},
	{"unsigned int", RL_INT32, 4}, {"signed char", RL_INT8, 1},
	{"unsigned char", RL_INT8, 1}, {"bool", RL_INT8, 1},
	{"short", -1, 2},              {"unsigned short", -1, 2},
	{"c10::complex<c10::Half>", -1, 4}, {"c10::complex<float>", -1, 8},
	{"c10::complex<double>", -1, 16},
};

int rl_aten_dtype(const char *type, enum rl_dtype *out, unsigned *size)
{
	size_t i;

	*size = 0;
	if (type == NULL)
		return -1;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (strcmp(type, types[i].name) == 0) {
			*size = types[i].size;
			if (types[i].dtype < 0)
				return -1;
			*out = (enum rl_dtype)types[i].dtype;
			return 0;
		}
	}
	return -1;
}

static int is_float(enum rl_dtype t)
{
	return t != RL_INT8 && t != RL_INT32 && t != RL_INT64;
}

/* A tensor input: dims recorded, not a list, and a tensor type (or no type
 * recorded at all, in traces without "Input type"). */
static const struct rl_trace_input *tensor(const struct rl_trace_input *in, int n, int i)
{
	const char *t;

	if (i < 0 || i >= n || !in[i].has_dims || in[i].nlist > 0)
		return NULL;
	t = in[i].type;
	if (t != NULL && (*t == '\0' || strcmp(t, "Scalar") == 0 || strcmp(t, "ScalarList") == 0 ||
	                  strcmp(t, "TensorList") == 0 || strcmp(t, "GenericList") == 0))
		return NULL;
	return &in[i];
}

static uint64_t numel(const uint64_t *dims, int nd)
{
	uint64_t n = 1;
	int i;

	for (i = 0; i < nd; i++)
		if (rl_mul_u64(n, dims[i], &n) < 0)
			return 0; /* treated like an empty tensor: not mapped */
	return n;
}

/* Element size of a tensor input (the fallback's for an unknown type). */
static unsigned elem_size(const struct rl_trace_input *x, enum rl_dtype fallback)
{
	enum rl_dtype t;
	unsigned size;

	if (rl_aten_dtype(x->type, &t, &size) < 0 && size == 0)
		return (unsigned)rl_dtype_size(fallback);
	return size;
}

/* The op's dtype: the first floating-point tensor input's, else the first
 * tensor input's, else FALLBACK. -1 when that input has a type without a
 * dtype of ours (complex, short). */
static int op_dtype(const struct rl_trace_input *in, int n, enum rl_dtype fallback,
                    enum rl_dtype *out)
{
	int i, first = -1;
	enum rl_dtype t;
	unsigned size;

	for (i = 0; i < n; i++) {
		if (tensor(in, n, i) == NULL || in[i].type == NULL)
			continue;
		if (rl_aten_dtype(in[i].type, &t, &size) < 0) {
			if (size > 0 && first < 0)
				return -1;
			continue;
		}
		if (is_float(t)) {
			*out = t;
			return 0;
		}
		if (first < 0)
			first = i;
	}
	if (first >= 0)
		rl_aten_dtype(in[first].type, out, &size);
	else
		*out = fallback;
	return 0;
}

/* Sets OP's shape to DIMS, folding leading dims when there are more than the
 * format allows and giving a 0-dim tensor the shape 1. -1 for an empty
 * tensor (a zero dim), which no formula takes. */
static int set_shape(struct rl_op *op, const uint64_t *dims, int nd)
{
	int i, skip = nd > RL_MAX_DIMS ? nd - RL_MAX_DIMS : 0;
	uint64_t lead = 1;

	for (i = 0; i < nd; i++)
		if (dims[i] == 0)
			return -1;
	if (nd == 0) {
		op->ndims = 1;
		op->dims[0] = 1;
		op->has |= RL_HAS_SHAPE;
		return 0;
	}
	for (i = 0; i <= skip; i++)
		if (rl_mul_u64(lead, dims[i], &lead) < 0)
			return -1;
	op->ndims = nd - skip;
	op->dims[0] = lead;
	for (i = 1; i < op->ndims; i++)
		op->dims[i] = dims[skip + i];
	op->has |= RL_HAS_SHAPE;
	return 0;
}

/* OP's shape as [N / L, L] (just [L] when N = L): the form of the kinds that
 * work along the last dim (reduction, softmax, layernorm). */
static int set_rows(struct rl_op *op, uint64_t n, uint64_t l)
{
	uint64_t d[2];

	if (n == 0 || l == 0 || n % l != 0)
		return -1;
	d[0] = n / l;
	d[1] = l;
	return n == l ? set_shape(op, d + 1, 1) : set_shape(op, d, 2);
}

/* Parses a concrete argument as an integer ("3", "-1"). */
static int conc_int(const struct rl_trace_input *in, int n, int i, long long *out)
{
	char *end;

	if (i < 0 || i >= n || in[i].concrete == NULL || in[i].concrete[0] == '\0')
		return -1;
	errno = 0;
	*out = strtoll(in[i].concrete, &end, 10);
	return *end == '\0' && errno == 0 ? 0 : -1;
}

/* Parses "[1, 2]" (or a bare "2") into up to MAX integers; returns the
 * count, or -1 when the argument is not such a list. */
static int conc_list(const struct rl_trace_input *in, int n, int i, long long *v, int max)
{
	const char *s;
	char *end;
	int k = 0;

	if (i < 0 || i >= n || in[i].concrete == NULL)
		return -1;
	s = in[i].concrete;
	if (*s != '[') {
		long long x;

		if (conc_int(in, n, i, &x) < 0)
			return -1;
		v[0] = x;
		return 1;
	}
	s++;
	while (*s == ' ')
		s++;
	if (*s == ']')
		return s[1] == '\0' ? 0 : -1;
	for (;;) {
		if (k == max)
			return -1;
		errno = 0;
		v[k++] = strtoll(s, &end, 10);
		if (end == s || errno != 0)
			return -1;
		s = end;
		while (*s == ' ')
			s++;
		if (*s == ']')
			return s[1] == '\0' ? k : -1;
		if (*s++ != ',')
			return -1;
		while (*s == ' ')
			s++;
	}
}

static int conc_true(const struct rl_trace_input *in, int n, int i)
{
	return i >= 0 && i < n && in[i].concrete != NULL && strcmp(in[i].concrete, "True") == 0;
}

/* A dim argument (may be negative) as an index into ND dims, or -1. */
static int norm_dim(long long d, int nd)
{
	if (d < 0)
		d += nd;
	return d >= 0 && d < nd ? (int)d : -1;
}

/* ---- rules ---- */

static int matmul_shape(struct rl_op *op, uint64_t b, uint64_t m, uint64_t nn, uint64_t k)
{
	uint64_t d[4] = {b, m, nn, k};

	return b == 1 ? set_shape(op, d + 1, 3) : set_shape(op, d, 4);
}

static int do_mm(const struct entry *e, const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *a = tensor(in, n, e->a), *b = tensor(in, n, e->a + 1);

	if (!a || !b || a->nd != 2 || b->nd != 2 || a->dims[1] != b->dims[0])
		return -1;
	/* B a transposed view of an [N, K] matrix (strides 1 and K: a Linear's
	 * weight as torch.compile passes it, W.permute(1, 0)): cuBLAS's TN
	 * kernels, as F.linear runs */
	if (b->has_strides && b->strides[0] == 1 && b->dims[1] > 1 && b->strides[1] >= b->dims[0])
		op->linear = 1;
	return matmul_shape(op, 1, a->dims[0], b->dims[1], a->dims[1]);
}

static int do_bmm(const struct entry *e, const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *a = tensor(in, n, e->a), *b = tensor(in, n, e->a + 1);

	if (!a || !b || a->nd != 3 || b->nd != 3 || a->dims[0] != b->dims[0] ||
	    a->dims[2] != b->dims[1])
		return -1;
	return matmul_shape(op, a->dims[0], a->dims[1], b->dims[2], a->dims[2]);
}

/* torch.matmul: 1-D operands get a dim of 1, a 2-D right operand folds the
 * left one's batch dims into M, otherwise the batch dims broadcast. */
static int do_matmul(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *a = tensor(in, n, 0), *b = tensor(in, n, 1);
	uint64_t m, k, nn, batch = 1, ba, bb;
	int i;

	if (!a || !b || a->nd < 1 || b->nd < 1)
		return -1;
	k = a->dims[a->nd - 1];
	if ((b->nd == 1 ? b->dims[0] : b->dims[b->nd - 2]) != k)
		return -1;
	nn = b->nd == 1 ? 1 : b->dims[b->nd - 1];
	if (b->nd <= 2) {
		m = numel(a->dims, a->nd - 1);
		return m == 0 ? -1 : matmul_shape(op, 1, m, nn, k);
	}
	m = a->nd == 1 ? 1 : a->dims[a->nd - 2];
	for (i = 0; i < (a->nd > b->nd ? a->nd : b->nd) - 2; i++) {
		int ia = a->nd - 3 - i, ib = b->nd - 3 - i;

		ba = ia >= 0 ? a->dims[ia] : 1;
		bb = ib >= 0 ? b->dims[ib] : 1;
		if (ba != bb && ba != 1 && bb != 1)
			return -1;
		if (rl_mul_u64(batch, ba > bb ? ba : bb, &batch) < 0)
			return -1;
	}
	return matmul_shape(op, batch, m, nn, k);
}

static int do_linear(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0), *w = tensor(in, n, 1);
	uint64_t m;

	if (!x || !w || x->nd < 1 || w->nd != 2 || x->dims[x->nd - 1] != w->dims[1])
		return -1;
	m = numel(x->dims, x->nd - 1);
	op->linear = 1; /* W as nn.Linear holds it, [N, K] */
	return m == 0 ? -1 : matmul_shape(op, 1, m, w->dims[0], w->dims[1]);
}

static int do_mv(const struct entry *e, const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *a = tensor(in, n, e->a), *x = tensor(in, n, e->a + 1);

	if (!a || !x || a->nd != 2 || x->nd != 1 || a->dims[1] != x->dims[0])
		return -1;
	return matmul_shape(op, 1, a->dims[0], 1, a->dims[1]);
}

static int do_dot(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *a = tensor(in, n, 0), *b = tensor(in, n, 1);

	if (!a || !b || a->nd != 1 || b->nd != 1 || a->dims[0] != b->dims[0])
		return -1;
	return matmul_shape(op, 1, 1, 1, a->dims[0]);
}

/* Equal values on both axes, as conv2d rows need: "[2, 2]" or "2". */
static int conc_square(const struct rl_trace_input *in, int n, int i, long long def,
                       long long *out)
{
	long long v[3];
	int k;

	if (i < 0 || i >= n || in[i].concrete == NULL || in[i].concrete[0] == '\0') {
		*out = def;
		return 0;
	}
	k = conc_list(in, n, i, v, 3);
	if (k == 1 || (k == 2 && v[0] == v[1])) {
		*out = v[0];
		return 0;
	}
	return -1;
}

static int do_conv(const struct entry *e, const struct rl_trace_input *in, int n, struct rl_op *op)
{
	/* stride, padding, dilation, groups, transposed (aten.def's ATEN_CONV) */
	const int *s = conv_slots[e->a];
	const struct rl_trace_input *x = tensor(in, n, 0), *w = tensor(in, n, 1);
	long long stride, pad, dil, groups = 1;
	const char *pads;

	if (!x || !w || x->nd != 4 || w->nd != 4 || conc_true(in, n, s[4]))
		return -1;
	if (conc_square(in, n, s[0], 1, &stride) < 0 || conc_square(in, n, s[2], 1, &dil) < 0 ||
	    dil != 1 || stride < 1)
		return -1;
	pads = s[1] < n ? in[s[1]].concrete : NULL;
	if (pads != NULL && strcmp(pads, "valid") == 0)
		pad = 0;
	else if (pads != NULL && strcmp(pads, "same") == 0)
		pad = stride == 1 && w->dims[2] == w->dims[3] && (w->dims[2] & 1)
		              ? (long long)(w->dims[2] / 2)
		              : -1;
	else if (conc_square(in, n, s[1], 0, &pad) < 0)
		return -1;
	if (pad < 0 || (s[3] < n && in[s[3]].concrete != NULL && in[s[3]].concrete[0] != '\0' &&
	                (conc_int(in, n, s[3], &groups) < 0 || groups < 1)))
		return -1;
	if (x->dims[1] != w->dims[1] * (uint64_t)groups)
		return -1;
	if (set_shape(op, x->dims, 4) < 0)
		return -1;
	op->kernel[0] = w->dims[0];
	op->kernel[1] = w->dims[2];
	op->kernel[2] = w->dims[3];
	op->has |= RL_HAS_KERNEL;
	op->stride = (uint64_t)stride;
	op->padding = (uint64_t)pad;
	op->groups = (uint64_t)groups;
	return 0;
}

static int do_sdpa(const struct entry *e, const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *q = tensor(in, n, 0), *k = tensor(in, n, 1);
	int bshd = e->rule == R_SDPA_BSHD;
	uint64_t b, h, hk, sq, sk, d, dims[5];
	long long mask;

	if (!q || !k || q->nd != 4 || k->nd != 4 || q->dims[0] != k->dims[0] ||
	    q->dims[3] != k->dims[3])
		return -1;
	b = q->dims[0];
	h = bshd ? q->dims[2] : q->dims[1];
	sq = bshd ? q->dims[1] : q->dims[2];
	sk = bshd ? k->dims[1] : k->dims[2];
	d = q->dims[3];
	/* Grouped-query attention (SDPA's enable_gqa, the flash and cuDNN
	 * kernels under it): K and V have fewer heads than Q, each shared by
	 * H / Hk query heads. */
	hk = bshd ? k->dims[2] : k->dims[1];
	if (hk == 0 || hk > h || h % hk != 0)
		return -1;
	op->kv_heads = hk == h ? 0 : hk;
	dims[0] = b, dims[1] = h, dims[2] = sq, dims[3] = sk, dims[4] = d;
	if (sq == sk) {
		dims[3] = d;
		if (set_shape(op, dims, 4) < 0)
			return -1;
	} else if (set_shape(op, dims, 5) < 0) {
		return -1;
	}
	/* _efficient_attention_forward takes a mask type: 1 and 2 are causal */
	if (e->rule == R_SDPA_BSHD && strcmp(e->name, "_efficient_attention_forward") == 0)
		op->causal = conc_int(in, n, e->a, &mask) == 0 && (mask == 1 || mask == 2);
	else
		op->causal = conc_true(in, n, e->a);
	return 0;
}

/* layer_norm and rms_norm: normalised over the trailing dims given in slot
 * A ("[768]"), as rows of that many elements. */
static int do_norm(const struct entry *e, const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0);
	long long shape[RL_TRACE_MAX_DIMS];
	int k, i;
	uint64_t l = 1;

	if (!x || x->nd < 1)
		return -1;
	k = conc_list(in, n, e->a, shape, RL_TRACE_MAX_DIMS);
	if (k < 1 || k > x->nd)
		k = 1;
	for (i = 0; i < k; i++)
		if (rl_mul_u64(l, x->dims[x->nd - k + i], &l) < 0)
			return -1;
	if (k == 1)
		return set_shape(op, x->dims, x->nd);
	return set_rows(op, numel(x->dims, x->nd), l);
}

static int do_groupnorm(const struct entry *e, const struct rl_trace_input *in, int n,
                        struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0);
	long long g;
	uint64_t total;

	if (!x || x->nd < 2 || conc_int(in, n, e->a, &g) < 0 || g < 1 ||
	    x->dims[1] % (uint64_t)g != 0)
		return -1;
	total = numel(x->dims, x->nd);
	/* rows of one group: (C / G) x H x W elements, N x G of them */
	return set_rows(op, total, total / (x->dims[0] * (uint64_t)g));
}

/* Batch norm: per-channel statistics over N and the spatial dims, which
 * PyTorch's kernels split over N x H x W (not one block per channel, as a
 * layernorm row of C rows would be predicted): a pointwise row of the
 * input's shape. In training (the flag at slot A) x is read twice, for the
 * statistics and to normalise, and y written: inputs 2, 7 FLOPs per element
 * (sum and sum of squares; (x - mean) x invstd x gamma + beta); in eval, y
 * = a x + b from the running statistics: inputs 1, 2 FLOPs. */
static int do_batchnorm_pw(const struct entry *e, const struct rl_trace_input *in, int n,
                           struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0);
	int train = e->a >= 0 && conc_true(in, n, e->a);

	if (!x || x->nd < 2 || set_shape(op, x->dims, x->nd) < 0)
		return -1;
	op->kind = RL_KIND_POINTWISE;
	op->inputs = train ? 2 : 1;
	op->flops_per_element = train ? 7 : 2;
	op->has |= RL_HAS_FPE;
	return 0;
}

static int do_batchnorm(const struct rl_trace_input *in, int n, struct rl_op *op, int inst)
{
	const struct rl_trace_input *x = tensor(in, n, 0);
	uint64_t total;

	if (!x || x->nd < 2)
		return -1;
	total = numel(x->dims, x->nd);
	/* batch norm: C rows of N x spatial; instance norm: N x C rows of spatial */
	return set_rows(op, total, inst ? total / (x->dims[0] * x->dims[1]) : total / x->dims[1]);
}

static int do_softmax(const struct entry *e, const struct rl_trace_input *in, int n,
                      struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0);
	long long d;
	int dim;

	if (!x || x->nd < 1)
		return -1;
	if (conc_int(in, n, e->a, &d) < 0 || (dim = norm_dim(d, x->nd)) < 0)
		dim = x->nd - 1;
	if (dim == x->nd - 1)
		return set_shape(op, x->dims, x->nd);
	return set_rows(op, numel(x->dims, x->nd), x->dims[dim]);
}

/* The reduced dims come as a list ("[1]", "[-1, -2]"), as a single int where
 * the schema takes one (max.dim, argmax), or not at all (everything). */
static int do_reduce(const struct entry *e, const struct rl_trace_input *in, int n,
                     struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0);
	long long v[RL_TRACE_MAX_DIMS];
	uint64_t total, l = 1;
	int k = -1, i, seen = 0;

	if (!x)
		return -1;
	total = numel(x->dims, x->nd);
	if (e->a < n && in[e->a].concrete != NULL &&
	    (in[e->a].concrete[0] == '[' || e->b))
		k = conc_list(in, n, e->a, v, RL_TRACE_MAX_DIMS);
	if (k <= 0 || x->nd == 0)
		return set_rows(op, total, total);
	for (i = 0; i < k; i++) {
		int d = norm_dim(v[i], x->nd);

		if (d < 0 || (seen & (1 << d)))
			return -1;
		seen |= 1 << d;
		if (rl_mul_u64(l, x->dims[d], &l) < 0)
			return -1;
	}
	return set_rows(op, total, l);
}

/* The output is the tensor inputs broadcast together. Inputs of the
 * output's size and dtype are counted by the formula's "inputs"; when others
 * take part (broadcast operands, a bool mask, mixed dtypes), the row gives
 * explicit bytes instead: every input read once, the output written once.
 * One-element tensors next to larger ones are scalars and not counted. */
static int do_pointwise(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	uint64_t out[RL_TRACE_MAX_DIMS], N, es = rl_dtype_size(op->dtype);
	int nd = -1, i, j, inputs = 0, exact = 1;
	double bytes = 0;

	for (i = 0; i < n; i++)
		if (tensor(in, n, i) != NULL && in[i].nd > nd)
			nd = in[i].nd;
	if (nd < 0)
		return -1;
	for (j = 0; j < nd; j++)
		out[j] = 1;
	for (i = 0; i < n; i++) {
		const struct rl_trace_input *x = tensor(in, n, i);

		for (j = 0; x != NULL && j < x->nd; j++) {
			uint64_t *o = &out[nd - x->nd + j], d = x->dims[j];

			if (*o == 1)
				*o = d;
			else if (d != 1 && d != *o)
				return -1;
		}
	}
	if ((N = numel(out, nd)) == 0)
		return -1;
	for (i = 0; i < n; i++) {
		const struct rl_trace_input *x = tensor(in, n, i);
		uint64_t k;

		if (x == NULL || (k = numel(x->dims, x->nd)) == 0 || (k == 1 && N > 1))
			continue;
		if (k == N && elem_size(x, op->dtype) == es)
			inputs++;
		else
			exact = 0;
		bytes += (double)k * elem_size(x, op->dtype);
	}
	if (set_shape(op, out, nd) < 0)
		return -1;
	op->inputs = (uint64_t)inputs;
	if (!exact) {
		op->bytes = bytes + (double)N * (double)es;
		op->has |= RL_HAS_BYTES;
	}
	return 0;
}

static int do_fill(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0);

	if (!x || set_shape(op, x->dims, x->nd) < 0)
		return -1;
	op->inputs = 0;
	op->flops_per_element = 0;
	op->has |= RL_HAS_FPE;
	return 0;
}

/* A copy between dtypes reads one size and writes the other: give bytes. */
static void convert_bytes(struct rl_op *op, uint64_t n, unsigned dst)
{
	unsigned src = (unsigned)rl_dtype_size(op->dtype);

	if (dst != 0 && dst != src) {
		op->bytes = (double)n * (src + dst);
		op->has |= RL_HAS_BYTES;
	}
}

static int do_copy(const struct entry *e, const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *src = tensor(in, n, e->a), *dst = tensor(in, n, 0);
	enum rl_dtype t;
	unsigned size;

	if (!src || set_shape(op, src->dims, src->nd) < 0)
		return -1;
	if (rl_aten_dtype(src->type, &t, &size) == 0)
		op->dtype = t;
	if (e->a != 0 && dst != NULL)
		convert_bytes(op, numel(src->dims, src->nd), elem_size(dst, op->dtype));
	return 0;
}

/* c10::ScalarType codes, as "Concrete Inputs" record a dtype argument. */
static unsigned scalar_type_size(long long code)
{
	static const unsigned size[] = {
		1, 1, 2, 4, 8, 2, 4, 8, 4, 8, 16, 1, 1, 1, 4, 2, /* uint8 .. bfloat16 */
		1, 1, 1, 1, 1, 2, 8, 1, 1, 1, 1, /* quint4x2 .. float8_e4m3fnuz */
	};

	return code >= 0 && code < (long long)(sizeof(size) / sizeof(size[0])) ? size[code] : 0;
}

static int do_to(const struct entry *e, const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0), *other = tensor(in, n, 1);
	long long code;
	unsigned dst = 0;

	if (!x || set_shape(op, x->dims, x->nd) < 0)
		return -1;
	if (other != NULL) /* to(other): the other tensor's dtype */
		dst = elem_size(other, op->dtype);
	else if (conc_int(in, n, e->a, &code) == 0 || conc_int(in, n, e->a + 1, &code) == 0)
		dst = scalar_type_size(code);
	convert_bytes(op, numel(x->dims, x->nd), dst);
	return 0;
}

static int do_embedding(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *w = tensor(in, n, 0), *idx = tensor(in, n, 1);
	uint64_t d[2];

	if (!w || !idx || w->nd != 2)
		return -1;
	d[0] = numel(idx->dims, idx->nd);
	d[1] = w->dims[1];
	return set_shape(op, d, 2);
}

static int do_index_select(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0), *idx = tensor(in, n, 2);
	uint64_t d[RL_TRACE_MAX_DIMS];
	long long dim;
	int i;

	if (!x || !idx || x->nd < 1 || conc_int(in, n, 1, &dim) < 0 ||
	    (i = norm_dim(dim, x->nd)) < 0)
		return -1;
	memcpy(d, x->dims, sizeof(d));
	d[i] = numel(idx->dims, idx->nd);
	return set_shape(op, d, x->nd);
}

static int do_shape_of(const struct rl_trace_input *x, struct rl_op *op)
{
	return x == NULL ? -1 : set_shape(op, x->dims, x->nd);
}

/* self[i0, i1, ...] with integer index tensors: the first index's shape,
 * then self's dims not indexed. (A boolean mask selects an unknown number
 * of elements; it is counted as if it were an index of that shape.) */
static int do_index(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0);
	const unsigned char *pos;
	uint64_t first[RL_TRACE_MAX_DIMS], d[RL_TRACE_MAX_DIMS], dims[RL_TRACE_MAX_DIMS];
	int nd, fnd = -1, k, i;
	size_t j;

	if (!x || n < 2)
		return -1;
	/* an optional-tensor list (Tensor?[]) is recorded without its tensors'
	 * dims: the gathered size is unknown, counted as self's */
	if (in[1].nlist == 0 && tensor(in, n, 1) == NULL)
		return set_shape(op, x->dims, x->nd);
	if (in[1].nlist == 0 || in[1].nlist > (size_t)x->nd)
		return -1;
	pos = in[1].list;
	for (j = 0; j < in[1].nlist; j++)
		if (rl_trace_list_next(&pos, d, &nd) == 0 && fnd < 0 && nd > 0)
			memcpy(first, d, sizeof(d)), fnd = nd;
	if (fnd < 0)
		return -1;
	k = 0;
	for (i = 0; i < fnd; i++)
		dims[k++] = first[i];
	for (i = (int)in[1].nlist; i < x->nd && k < RL_TRACE_MAX_DIMS; i++)
		dims[k++] = x->dims[i];
	return set_shape(op, dims, k);
}

/* Sum of the elements of the list input X; FIRST and *FND (when not NULL)
 * get the first non-empty tensor's dims. */
static uint64_t list_numel(const struct rl_trace_input *x, uint64_t *first, int *fnd)
{
	const unsigned char *pos = x->list;
	uint64_t d[RL_TRACE_MAX_DIMS], total = 0;
	size_t j;
	int nd;

	if (fnd)
		*fnd = -1;
	for (j = 0; j < x->nlist; j++) {
		uint64_t k;

		if (rl_trace_list_next(&pos, d, &nd) < 0)
			return 0;
		k = numel(d, nd);
		if (fnd && *fnd < 0 && k > 0)
			memcpy(first, d, sizeof(d)), *fnd = nd;
		total += k;
	}
	return total;
}

/* cat: the first non-empty tensor's shape with the joined dim summed (when
 * the tensors agree); stack: the tensors' shape with a leading count. */
static int do_cat(const struct entry *e, const struct rl_trace_input *in, int n, struct rl_op *op)
{
	uint64_t first[RL_TRACE_MAX_DIMS], total;
	int fnd;
	long long dim = 0;

	if (n < 1 || in[0].nlist == 0)
		return -1;
	total = list_numel(&in[0], first, &fnd);
	if (total == 0 || fnd < 0)
		return -1;
	if (e->rule == R_STACK) {
		uint64_t d[RL_TRACE_MAX_DIMS + 1];

		d[0] = in[0].nlist;
		memcpy(d + 1, first, (size_t)fnd * sizeof(*first));
		if (numel(d, fnd + 1) == total)
			return set_shape(op, d, fnd + 1);
	} else {
		int i;

		if (conc_int(in, n, 1, &dim) < 0)
			dim = 0; /* the schema's default */
		i = norm_dim(dim, fnd);
		uint64_t rest = i < 0 ? 0 : numel(first, fnd) / first[i];

		if (i >= 0 && rest > 0 && total % rest == 0) {
			first[i] = total / rest;
			return set_shape(op, first, fnd);
		}
	}
	return set_shape(op, &total, 1);
}

/* _foreach_*: every list argument holds N elements in all; the op reads each
 * list once and writes one. */
/* A tensor list recorded without its tensors' dims (PyTorch 2.11 records
 * "[]" for every TensorList argument). */
static int unrecorded_list(const struct rl_trace_input *x)
{
	return x->nlist == 0 && x->type != NULL && strcmp(x->type, "TensorList") == 0;
}

/* The elements of each unrecorded list of a multi-tensor op, from the step's
 * parameters: torch.optim's lists hold the parameters, their gradients or
 * their state, each as many elements as the parameters, but the step
 * counters, one per parameter tensor, which _foreach_add_(state_steps, 1)
 * increments (torch/optim/adam.py: the fused and capturable paths keep them
 * on the GPU). 0 when the parameters are not known. */
static uint64_t param_list(const struct entry *e, const struct rl_trace_input *in, int n,
                           const struct rl_aten_params *pp, struct rl_op *op)
{
	int step = strcmp(e->name, "_foreach_add_") == 0 && n == 2 && in[1].type != NULL &&
	           strcmp(in[1].type, "Scalar") == 0 && in[1].concrete != NULL &&
	           strcmp(in[1].concrete, "1") == 0;
	double v;

	if (pp == NULL || !(pp->elems >= 1))
		return 0;
	v = step ? pp->tensors : pp->elems;
	if (!(v >= 1 && v < 9007199254740992.0))
		return 0;
	op->dtype = pp->dtype;
	return (uint64_t)v;
}

static int do_foreach(const struct entry *e, const struct rl_trace_input *in, int n,
                      const struct rl_aten_params *pp, struct rl_op *op)
{
	uint64_t total = 0;
	int i, lists = 0, recorded;

	for (i = 0; i < n; i++)
		lists += unrecorded_list(&in[i]);
	if (lists > 0 && (total = param_list(e, in, n, pp, op)) == 0)
		lists = 0;
	/* torch.optim's one multi-tensor op over a repeated list is Adam's
	 * addcmul_(exp_avg_sq, grad, grad): g is read from memory once (the
	 * recorded GPT-2 step moves 3 lists in 271 us; 4 would be 4.83 TB/s,
	 * beyond the H200's 4.8) */
	if (lists == 3 && strncmp(e->name, "_foreach_addcmul", 16) == 0)
		lists = 2;
	recorded = total == 0;
	for (i = 0; recorded && i < n; i++) {
		uint64_t k;

		if (in[i].nlist == 0)
			continue;
		k = list_numel(&in[i], NULL, NULL);
		if (total == 0)
			total = k;
		if (k == total && k > 0)
			lists++;
	}
	if (total == 0 || set_shape(op, &total, 1) < 0)
		return -1;
	if (e->rule == R_FOREACH_FILL) {
		op->inputs = 0;
		op->flops_per_element = 0;
		op->has |= RL_HAS_FPE;
	} else if (e->kind == RL_KIND_POINTWISE) {
		op->inputs = (uint64_t)lists;
	}
	return 0;
}

/* _fused_adam(w)_(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs,
 * state_steps, ...): reads the four (five with amsgrad) lists, writes params
 * and both moments. */
static int do_adam(const struct entry *e, const struct rl_trace_input *in, int n,
                   const struct rl_aten_params *pp, struct rl_op *op)
{
	uint64_t total;
	int reads = 4;

	if (n >= 4 && unrecorded_list(&in[0])) {
		/* lists without dims: the step's parameters; amsgrad (slot 11)
		 * adds max_exp_avg_sqs */
		if ((total = param_list(e, in, n, pp, op)) == 0)
			return -1;
		reads = conc_true(in, n, 11) ? 5 : 4;
	} else if (n < 4 || in[0].nlist == 0 || (total = list_numel(&in[0], NULL, NULL)) == 0) {
		return -1;
	} else if (n > 4 && in[4].nlist > 0) {
		reads = 5;
	}
	if (set_shape(op, &total, 1) < 0)
		return -1;
	op->inputs = (uint64_t)reads;
	op->bytes = (double)total * (double)rl_dtype_size(op->dtype) * (reads + 3);
	op->has |= RL_HAS_BYTES;
	return 0;
}

/* c10::ScalarType codes of the dtypes that have one of ours. */
static int scalar_type_dtype(long long code, enum rl_dtype *out)
{
	switch (code) {
	case 0: case 1: case 11: *out = RL_INT8; return 0; /* uint8, int8, bool */
	case 3: *out = RL_INT32; return 0;
	case 4: *out = RL_INT64; return 0;
	case 5: *out = RL_FP16; return 0;
	case 6: *out = RL_FP32; return 0;
	case 7: *out = RL_FP64; return 0;
	case 15: *out = RL_BF16; return 0;
	}
	return -1;
}

/* A concrete argument that may be left out ("" or absent): 0 when absent
 * (*OUT untouched), -1 when present but not an integer. */
static int conc_opt_int(const struct rl_trace_input *in, int n, int i, long long *out)
{
	if (i >= n || in[i].concrete == NULL || in[i].concrete[0] == '\0')
		return 0;
	return conc_int(in, n, i, out);
}

/* _grouped_mm(self, mat2, offs, bias, out_dtype), the grouped GEMM of a
 * mixture of experts. A[T, K] x B[G, K, N] (offs splitting A's T rows among
 * the G groups): each row meets one group's matrix, 2 T N K FLOPs, the row
 * written as one T x N x K GEMM; its bytes read A, write C and read the
 * weights of at most min(G, T) groups (a group without rows is skipped, and T
 * rows reach at most T groups; with T well above G, all of them).
 * A[M, K] x B[K, N] with offs splitting K: G outputs [M, N]; A[G, M, K] x
 * B[K, N] with offs splitting N: one output [M, N]; A[G, M, K] x B[G, K, N]:
 * one GEMM per group. */
static int do_grouped_mm(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *a = tensor(in, n, 0), *b = tensor(in, n, 1);
	const struct rl_trace_input *offs = tensor(in, n, 2);
	double es, wes;
	uint64_t t, k, nn, g;

	if (!a || !b)
		return -1;
	if (a->nd == 3 && b->nd == 3) {
		if (a->dims[0] != b->dims[0] || a->dims[2] != b->dims[1])
			return -1;
		return matmul_shape(op, a->dims[0], a->dims[1], b->dims[2], a->dims[2]);
	}
	es = elem_size(a, op->dtype);
	wes = elem_size(b, op->dtype);
	if (a->nd == 2 && b->nd == 3) {
		t = a->dims[0], k = a->dims[1], g = b->dims[0], nn = b->dims[2];
		if (b->dims[1] != k || matmul_shape(op, 1, t, nn, k) < 0)
			return -1;
		op->bytes = es * ((double)t * (double)k + (double)t * (double)nn) +
		            wes * (double)(g < t ? g : t) * (double)k * (double)nn;
	} else if (a->nd == 2 && b->nd == 2) {
		if (a->dims[1] != b->dims[0] || !offs || offs->nd != 1)
			return -1;
		t = a->dims[0], k = a->dims[1], g = offs->dims[0], nn = b->dims[1];
		if (matmul_shape(op, 1, t, nn, k) < 0)
			return -1;
		op->bytes = es * ((double)t * (double)k + (double)g * (double)t * (double)nn) +
		            wes * (double)k * (double)nn;
	} else if (a->nd == 3 && b->nd == 2) {
		/* A[G, M, K] x B[K, N] with offs splitting N: one [M, N] output */
		if (a->dims[2] != b->dims[0])
			return -1;
		g = a->dims[0], t = a->dims[1], k = a->dims[2], nn = b->dims[1];
		if (matmul_shape(op, 1, t, nn, k) < 0)
			return -1;
		op->bytes = es * ((double)g * (double)t * (double)k + (double)t * (double)nn) +
		            wes * (double)k * (double)nn;
	} else {
		return -1;
	}
	op->has |= RL_HAS_BYTES;
	return 0;
}

/* arange(end, dtype, layout, device, pin_memory), arange.start(start, end,
 * dtype, ...), arange.start_step(start, end, step, dtype, ...) and the out
 * forms (end, out), (start, end, step, out), told apart by their number of
 * inputs: ceil((end - start) / step) values written, start + i x step each
 * (2 FLOPs). The dtype: the out tensor's, else the dtype argument's, else
 * int64 for integer arguments and fp32 (torch's default) otherwise. */
static int do_arange(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	static const struct {
		int n, nums, dtype, out;
	} forms[] = {{5, 1, 1, -1}, {6, 2, 2, -1}, {7, 3, 3, -1}, {2, 1, -1, 1}, {4, 3, -1, 3}};
	const struct rl_trace_input *out = NULL;
	double v[3] = {0, 0, 1}, start = 0, end, step = 1, count;
	int i, f, integral = 1;
	long long code;
	enum rl_dtype t;
	unsigned size;
	uint64_t c;

	for (f = 0; f < (int)(sizeof(forms) / sizeof(forms[0])) && forms[f].n != n; f++)
		;
	if (f == (int)(sizeof(forms) / sizeof(forms[0])))
		return -1;
	for (i = 0; i < forms[f].nums; i++) {
		char *rest;

		if (in[i].concrete == NULL || in[i].concrete[0] == '\0')
			return -1;
		errno = 0;
		v[i] = strtod(in[i].concrete, &rest);
		if (*rest != '\0' || errno != 0 || !isfinite(v[i]))
			return -1;
		if (v[i] != floor(v[i]))
			integral = 0;
	}
	end = v[0];
	if (forms[f].nums > 1)
		start = v[0], end = v[1];
	if (forms[f].nums == 3)
		step = v[2];
	if (step == 0)
		return -1;
	count = ceil((end - start) / step);
	if (!(count >= 1 && count < 9007199254740992.0))
		return -1;
	c = (uint64_t)count;
	if (forms[f].out >= 0)
		out = tensor(in, n, forms[f].out);
	if (out != NULL && rl_aten_dtype(out->type, &t, &size) == 0)
		op->dtype = t;
	else if (forms[f].dtype >= 0 && conc_int(in, n, forms[f].dtype, &code) == 0 &&
	         scalar_type_dtype(code, &t) == 0)
		op->dtype = t;
	else
		op->dtype = integral ? RL_INT64 : RL_FP32;
	if (set_shape(op, &c, 1) < 0)
		return -1;
	op->inputs = 0;
	return 0;
}

/* diff(self, n, dim, prepend, append): self, with prepend and append joined
 * to it along dim, less n elements there; n subtractions per output element.
 * Bytes: every input read once, the output written once. */
static int do_diff(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0), *more[2];
	uint64_t out[RL_TRACE_MAX_DIMS], len;
	long long order = 1, d = -1;
	double bytes;
	int dim, i;

	if (!x || x->nd < 1 || conc_opt_int(in, n, 1, &order) < 0 ||
	    conc_opt_int(in, n, 2, &d) < 0 || order < 1 || (dim = norm_dim(d, x->nd)) < 0)
		return -1;
	len = x->dims[dim];
	bytes = (double)numel(x->dims, x->nd) * elem_size(x, op->dtype);
	more[0] = tensor(in, n, 3), more[1] = tensor(in, n, 4);
	for (i = 0; i < 2; i++) {
		const struct rl_trace_input *p = more[i];

		if (p == NULL)
			continue;
		if (p->nd == x->nd)
			len += p->dims[dim];
		else if (numel(p->dims, p->nd) == 1) /* a scalar, one element along dim */
			len += 1;
		else
			return -1;
		bytes += (double)numel(p->dims, p->nd) * elem_size(p, op->dtype);
	}
	if (len <= (uint64_t)order)
		return -1;
	memcpy(out, x->dims, sizeof(out));
	out[dim] = len - (uint64_t)order;
	if (set_shape(op, out, x->nd) < 0)
		return -1;
	op->inputs = 1;
	op->flops_per_element = (double)order;
	op->has |= RL_HAS_FPE;
	op->bytes = bytes + (double)numel(out, x->nd) * rl_dtype_size(op->dtype);
	op->has |= RL_HAS_BYTES;
	return 0;
}

/* The length of dim D (slot value, may be negative) of X, 1 for a 0-dim
 * tensor; 0 when D is out of range. */
static uint64_t dim_len(const struct rl_trace_input *x, long long d)
{
	int i;

	if (x->nd == 0)
		return d == 0 || d == -1 ? 1 : 0;
	i = norm_dim(d, x->nd);
	return i < 0 ? 0 : x->dims[i];
}

/* cumsum(self, dim, dtype), cumprod: a scan along dim, rows of that dim's
 * length (the form of a reduction), one add per element; every element read
 * and one written per element, at the dtype argument's size, else 8 bytes
 * for integer and bool inputs (torch gives them int64), else the input's. */
static int do_scan(const struct entry *e, const struct rl_trace_input *in, int n,
                   struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0);
	long long d, code;
	uint64_t total, l;
	unsigned es, out_es;

	if (!x || conc_int(in, n, e->a, &d) < 0 || (l = dim_len(x, d)) == 0)
		return -1;
	total = numel(x->dims, x->nd);
	if (set_rows(op, total, l) < 0)
		return -1;
	es = elem_size(x, op->dtype);
	if (conc_int(in, n, e->b, &code) == 0 && scalar_type_size(code) > 0)
		out_es = scalar_type_size(code);
	else
		out_es = is_float(op->dtype) ? es : 8;
	op->bytes = (double)total * (es + out_es);
	op->has |= RL_HAS_BYTES;
	return 0;
}

/* topk(self, k, dim, largest, sorted): rows along dim; every element read
 * once (one comparison each), k values and k int64 indices written per
 * row. */
static int do_topk(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0);
	long long k, d = -1;
	uint64_t total, l;
	unsigned es;

	if (!x || conc_int(in, n, 1, &k) < 0 || k < 0 || conc_opt_int(in, n, 2, &d) < 0 ||
	    (l = dim_len(x, d)) == 0 || (uint64_t)k > l)
		return -1;
	total = numel(x->dims, x->nd);
	if (set_rows(op, total, l) < 0)
		return -1;
	es = elem_size(x, op->dtype);
	op->bytes = (double)total * es + (double)(total / l) * (double)k * (es + 8);
	op->has |= RL_HAS_BYTES;
	return 0;
}

/* sort(self, dim, descending), sort.stable(self, stable, dim, descending)
 * and argsort (A = 1) alike: rows along dim; every element read, its value
 * (not for argsort) and int64 index written; FLOPs ceil(log2 L) comparisons
 * per element, the least a comparison sort of L elements makes. */
static int do_sort(const struct entry *e, const struct rl_trace_input *in, int n,
                   struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0);
	long long d = -1;
	uint64_t total, l;
	unsigned es;
	int levels = 0;

	if (!x)
		return -1;
	if (conc_int(in, n, 1, &d) < 0 && conc_int(in, n, 2, &d) < 0)
		d = -1; /* sort.stable's dim is at 2; both absent: the default */
	if ((l = dim_len(x, d)) == 0)
		return -1;
	total = numel(x->dims, x->nd);
	if (set_rows(op, total, l) < 0)
		return -1;
	while (levels < 64 && ((l - 1) >> levels) != 0) /* ceil(log2 l): the bits of l - 1 */
		levels++;
	es = elem_size(x, op->dtype);
	op->bytes = (double)total * (es + (e->a ? 0 : es) + 8);
	op->flops = (double)total * levels;
	op->has |= RL_HAS_BYTES | RL_HAS_FLOPS;
	return 0;
}

/* histc(self, bins, min, max): every element read once and counted into
 * one of the bins: a reduction of all elements with BINS outputs. */
static int do_histc(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0);
	long long bins = 100;
	uint64_t total;
	unsigned es;

	if (!x || conc_opt_int(in, n, 1, &bins) < 0 || bins < 1)
		return -1;
	total = numel(x->dims, x->nd);
	if (set_rows(op, total, total) < 0)
		return -1;
	es = elem_size(x, op->dtype);
	op->bytes = (double)total * es + (double)bins * es;
	op->has |= RL_HAS_BYTES;
	return 0;
}

/* is_nonzero, item, _local_scalar_dense: one element copied to the host. */
static int do_scalar(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0);
	uint64_t one = 1;

	if (!x || numel(x->dims, x->nd) != 1)
		return -1;
	return set_shape(op, &one, 1);
}

/* ---- training: the loss, pooling, backward ops ---- */

/* The backward rule of train.h applied to the forward op FWD (its shape,
 * dtype, flops and bytes as the forward mapping gives them): OP becomes the
 * rule's one backward op, so that a trace and a static --train expansion
 * count a step alike. -1 when the rule gives no single op. */
static int train_rule(struct rl_op *fwd, struct rl_op *op)
{
	struct rl_train_opts o;
	struct rl_train_op out[RL_TRAIN_MAX_BWD];
	struct rl_err err;
	int k;

	rl_train_opts_init(&o);
	fwd->name = "op";
	fwd->count = 1;
	k = rl_train_backward(&o, fwd, 0, out, &err);
	if (k != 1)
		return -1;
	*op = out[0].op;
	op->name = NULL;
	op->phase = RL_PHASE_FORWARD; /* the import sets it from the trace */
	return 0;
}

/* native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd,
 * weight, bias, output_mask): the forward layer norm over the input x at
 * slot A, then the layernorm rule (the input gradient and the weight
 * gradient, each reading x and dy); native_batch_norm_backward(grad_out,
 * input, ...) and cudnn_batch_norm_backward(input, grad_output, ...): the
 * training batch norm's pointwise row, then the pointwise rule (dy and x
 * twice read, dx, dgamma and dbeta written: 5 x N elements). */
static int do_norm_bwd(const struct entry *e, const struct rl_trace_input *in, int n,
                       struct rl_op *op)
{
	static const struct entry ln = {"native_layer_norm", RL_KIND_LAYERNORM, R_NORM, 0, 1, 0};
	static const struct entry bn = {"batch_norm", RL_KIND_POINTWISE, R_BATCHNORM, 0, -1, 0};
	const struct rl_trace_input *x = tensor(in, n, e->a);
	struct rl_op fwd = *op;
	enum rl_dtype t;
	unsigned size;

	if (!x)
		return -1;
	if (rl_aten_dtype(x->type, &t, &size) == 0)
		fwd.dtype = t;
	if (e->b > 0 ? do_norm(&ln, in + e->a, n - e->a, &fwd) < 0
	             : do_batchnorm_pw(&bn, in + e->a, n - e->a, &fwd) < 0)
		return -1;
	if (e->b == 0) { /* the training form */
		fwd.inputs = 2;
		fwd.flops_per_element = 7;
	}
	return train_rule(&fwd, op);
}

/* _softmax_backward_data(grad_output, output, dim, input_dtype) and the
 * log-softmax one: the softmax rule over the output's shape. */
static int do_softmax_bwd(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	static const struct entry sm = {"_softmax", RL_KIND_SOFTMAX, R_SOFTMAX, 0, 1, 0};
	const struct rl_trace_input *y = tensor(in, n, 1);
	struct rl_op fwd = *op;
	enum rl_dtype t;
	unsigned size;

	if (!y || n < 3)
		return -1;
	if (rl_aten_dtype(y->type, &t, &size) == 0)
		fwd.dtype = t;
	if (do_softmax(&sm, in + 1, n - 1, &fwd) < 0)
		return -1;
	return train_rule(&fwd, op);
}

/* convolution_backward(grad_output, input, weight, bias_sizes, stride,
 * padding, dilation, transposed, output_padding, groups, output_mask): the
 * forward conv2d of input and weight; the data gradient (output_mask[0])
 * and the weight gradient (output_mask[1]) each the forward's FLOPs and
 * bytes (train.h's conv2d rule); the bias gradient, a reduction of dY, is
 * left out as the static rule leaves it. */
static int do_conv_bwd(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	static const struct entry cv = {
	    "convolution", RL_KIND_CONV2D, R_CONV, 0, CONV_CONVOLUTION, 0};
	struct rl_trace_input fin[9];
	const char *mask;
	double f, b;
	int parts;
	struct rl_err err;

	if (n < 11 || !tensor(in, n, 1) || !tensor(in, n, 2))
		return -1;
	/* convolution(input, weight, bias, stride, padding, dilation,
	 * transposed, output_padding, groups) */
	fin[0] = in[1], fin[1] = in[2], fin[2] = in[3];
	fin[3] = in[4], fin[4] = in[5], fin[5] = in[6];
	fin[6] = in[7], fin[7] = in[8], fin[8] = in[9];
	if (do_conv(&cv, fin, 9, op) < 0 || rl_op_work(op, &f, &b, &err) < 0)
		return -1;
	/* output_mask "[True, True, False]": the first two say which of
	 * the data and weight gradients are computed */
	mask = in[10].concrete;
	if (mask == NULL || mask[0] != '[')
		return -1;
	parts = strncmp(mask, "[True,", 6) == 0;
	if ((mask = strchr(mask, ',')) == NULL)
		return -1;
	parts += strncmp(mask, ", True", 6) == 0;
	if (parts == 0)
		return -1;
	op->flops = parts * f;
	op->bytes = parts * b;
	op->has |= RL_HAS_FLOPS | RL_HAS_BYTES;
	return 0;
}

/* The attention backwards (grad_out, query, key, value, ...): the forward
 * attention of q and k, then the flash backward rule. */
static int do_sdpa_bwd(const struct entry *e, const struct rl_trace_input *in, int n,
                       struct rl_op *op)
{
	struct entry fe = {
	    "scaled_dot_product_attention", RL_KIND_ATTENTION, R_SDPA, 0, e->a - 1, 0};
	struct rl_op fwd = *op;

	if (n < 4 || do_sdpa(&fe, in + 1, n - 1, &fwd) < 0)
		return -1;
	return train_rule(&fwd, op);
}

/* embedding_dense_backward(grad_output, indices, num_weights, padding_idx,
 * scale_grad_by_freq): the gradient of the V x D table zeroed, the
 * indices sorted and the T x D rows of dy added into it. Bytes: dy read,
 * the table written, the indices read and sorted (8 bytes each, read and
 * written twice), the rows added in. */
static int do_embed_bwd(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *g = tensor(in, n, 0), *idx = tensor(in, n, 1);
	long long v;
	uint64_t t, d[2];
	double es;

	if (!g || !idx || g->nd < 1 || conc_int(in, n, 2, &v) < 0 || v < 1)
		return -1;
	t = numel(idx->dims, idx->nd);
	d[0] = t;
	d[1] = g->dims[g->nd - 1];
	if (t == 0 || numel(g->dims, g->nd) != t * d[1] || set_shape(op, d, 2) < 0)
		return -1;
	es = elem_size(g, op->dtype);
	op->bytes = (double)v * (double)d[1] * es + 2.0 * (double)t * (double)d[1] * es +
	            4.0 * (double)t * 8.0;
	op->has |= RL_HAS_BYTES;
	return 0;
}

/* select_backward(grad, input_sizes, dim, index): a zero tensor of the
 * input's size written, the gradient copied into its slice. */
static int do_select_bwd(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *g = tensor(in, n, 0);
	long long sz[RL_TRACE_MAX_DIMS];
	uint64_t total = 1, gn;
	int k, i;
	double es;

	if (!g || (k = conc_list(in, n, 1, sz, RL_TRACE_MAX_DIMS)) < 1)
		return -1;
	for (i = 0; i < k; i++)
		if (sz[i] < 1 || rl_mul_u64(total, (uint64_t)sz[i], &total) < 0)
			return -1;
	gn = numel(g->dims, g->nd);
	if (gn == 0 || set_shape(op, &total, 1) < 0)
		return -1;
	es = elem_size(g, op->dtype);
	op->bytes = (double)total * es + 2.0 * (double)gn * es;
	op->has |= RL_HAS_BYTES;
	return 0;
}

/* The output size of a pooling window along one axis (ceil_mode off). */
static uint64_t pooled(uint64_t len, long long k, long long s, long long p)
{
	long long v = (long long)len + 2 * p - k;

	return k < 1 || s < 1 || p < 0 || v < 0 ? 0 : (uint64_t)(v / s + 1);
}

/* max_pool2d(self, kernel_size, stride, padding, dilation, ceil_mode) and
 * max_pool2d_with_indices (A = 1: int64 indices written too): a reduction
 * of kernel_size^2 elements per output element; the input read once (the
 * windows overlap in cache), the output written. */
static int do_pool(const struct entry *e, const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0);
	long long k, s, p;
	uint64_t ho, wo, out, kk;
	double es;

	if (!x || x->nd != 4 || conc_square(in, n, 1, -1, &k) < 0 || k < 1)
		return -1;
	if (n > 2 && in[2].concrete != NULL && strcmp(in[2].concrete, "[]") == 0)
		s = k; /* stride defaults to the kernel size */
	else if (conc_square(in, n, 2, k, &s) < 0)
		return -1;
	if (conc_square(in, n, 3, 0, &p) < 0 || (ho = pooled(x->dims[2], k, s, p)) == 0 ||
	    (wo = pooled(x->dims[3], k, s, p)) == 0)
		return -1;
	kk = (uint64_t)(k * k);
	out = x->dims[0] * x->dims[1] * ho * wo;
	if (set_rows(op, out * kk, kk) < 0)
		return -1;
	es = elem_size(x, op->dtype);
	op->flops = (double)out * (double)kk;
	op->bytes = (double)numel(x->dims, 4) * es + (double)out * (es + (e->a ? 8 : 0));
	op->has |= RL_HAS_FLOPS | RL_HAS_BYTES;
	return 0;
}

/* max_pool2d_with_indices_backward(grad_output, self, ..., indices): the
 * input's gradient zeroed, then dy scattered to the indices' places. */
static int do_pool_bwd(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *g = tensor(in, n, 0), *x = tensor(in, n, 1);
	double es;
	uint64_t gn;

	if (!g || !x || (gn = numel(g->dims, g->nd)) == 0 || set_shape(op, x->dims, x->nd) < 0)
		return -1;
	es = elem_size(x, op->dtype);
	op->bytes = (double)numel(x->dims, x->nd) * es + (double)gn * (2 * es + 8);
	op->has |= RL_HAS_BYTES;
	return 0;
}

/* adaptive_avg_pool2d(self, output_size): each output element the mean of
 * its H / oh x W / ow window; a reduction of the input to N x C x oh x ow. */
static int do_avgpool(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0);
	long long o[2];
	int k;
	uint64_t total, outs;

	if (!x || x->nd != 4 || (k = conc_list(in, n, 1, o, 2)) < 1)
		return -1;
	if (k == 1)
		o[1] = o[0];
	if (o[0] < 1 || o[1] < 1)
		return -1;
	total = numel(x->dims, 4);
	outs = x->dims[0] * x->dims[1] * (uint64_t)o[0] * (uint64_t)o[1];
	return outs == 0 || total % outs != 0 ? -1 : set_rows(op, total, total / outs);
}

/* nll_loss_forward(self [N, C], target [N], weight, reduction, ignore_index)
 * and the nll_loss wrappers: one log-probability picked per row by its
 * target and the N of them summed; N int64 targets and N values read. */
static int do_nll(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 0), *tg = tensor(in, n, 1);
	uint64_t rows;
	double es;

	if (!x || !tg || x->nd < 1 || x->nd > 2 || (rows = numel(tg->dims, tg->nd)) == 0 ||
	    (x->nd == 2 && x->dims[0] != rows))
		return -1;
	if (set_shape(op, &rows, 1) < 0)
		return -1;
	es = elem_size(x, op->dtype);
	op->bytes = (double)rows * (es + 8) + es;
	op->has |= RL_HAS_BYTES;
	return 0;
}

/* nll_loss_backward(grad_output, self [N, C], target [N], ...): the
 * gradient of self zeroed and -1/N written at each row's target. */
static int do_nll_bwd(const struct rl_trace_input *in, int n, struct rl_op *op)
{
	const struct rl_trace_input *x = tensor(in, n, 1), *tg = tensor(in, n, 2);
	uint64_t rows;
	double es;

	if (!x || !tg || (rows = numel(tg->dims, tg->nd)) == 0 || set_shape(op, x->dims, x->nd) < 0)
		return -1;
	es = elem_size(x, op->dtype);
	op->bytes = (double)numel(x->dims, x->nd) * es + (double)rows * (es + 8);
	op->has |= RL_HAS_BYTES;
	return 0;
}

/* zeros(size, dtype, ...), ones, and new_zeros(self, size, ...), new_ones:
 * a fill of the size its concrete list gives, in the dtype argument's
 * (c10::ScalarType code) or self's dtype. */
static int do_new(const struct entry *e, const struct rl_trace_input *in, int n, struct rl_op *op)
{
	long long sz[RL_TRACE_MAX_DIMS], code;
	uint64_t d[RL_TRACE_MAX_DIMS];
	enum rl_dtype t;
	int k, i;

	if ((k = conc_list(in, n, e->a, sz, RL_TRACE_MAX_DIMS)) < 0)
		return -1;
	for (i = 0; i < k; i++) {
		if (sz[i] < 1)
			return -1;
		d[i] = (uint64_t)sz[i];
	}
	if (e->b >= 0 && conc_int(in, n, e->b, &code) == 0 && scalar_type_dtype(code, &t) == 0)
		op->dtype = t;
	else if (e->b >= 0)
		op->dtype = RL_FP32; /* torch's default dtype */
	if (set_shape(op, d, k) < 0)
		return -1;
	op->inputs = 0;
	op->flops_per_element = 0;
	op->has |= RL_HAS_FPE;
	return 0;
}

static int apply(const struct entry *e, const struct rl_trace_input *in, int n,
                 const struct rl_aten_params *pp, struct rl_op *op)
{
	switch (e->rule) {
	case R_MM: return do_mm(e, in, n, op);
	case R_BMM: return do_bmm(e, in, n, op);
	case R_MATMUL: return do_matmul(in, n, op);
	case R_LINEAR: return do_linear(in, n, op);
	case R_MV: return do_mv(e, in, n, op);
	case R_DOT: return do_dot(in, n, op);
	case R_CONV: return do_conv(e, in, n, op);
	case R_SDPA:
	case R_SDPA_BSHD: return do_sdpa(e, in, n, op);
	case R_NORM: return do_norm(e, in, n, op);
	case R_GROUPNORM: return do_groupnorm(e, in, n, op);
	case R_BATCHNORM: return do_batchnorm_pw(e, in, n, op);
	case R_INSTNORM: return do_batchnorm(in, n, op, 1);
	case R_SOFTMAX: return do_softmax(e, in, n, op);
	case R_REDUCE: return do_reduce(e, in, n, op);
	case R_POINTWISE: return do_pointwise(in, n, op);
	case R_FILL: return do_fill(in, n, op);
	case R_COPY: return do_copy(e, in, n, op);
	case R_TO: return do_to(e, in, n, op);
	case R_EMBEDDING: return do_embedding(in, n, op);
	case R_INDEX_SELECT: return do_index_select(in, n, op);
	case R_GATHER: return do_shape_of(tensor(in, n, 2), op);
	case R_INDEX: return do_index(in, n, op);
	case R_SCATTER: return do_shape_of(tensor(in, n, e->a) ? tensor(in, n, e->a)
	                                                        : tensor(in, n, 2), op);
	case R_CAT:
	case R_STACK: return do_cat(e, in, n, op);
	case R_FOREACH:
	case R_FOREACH_FILL:
	case R_FOREACH_NORM: return do_foreach(e, in, n, pp, op);
	case R_ADAM: return do_adam(e, in, n, pp, op);
	case R_GROUPED_MM: return do_grouped_mm(in, n, op);
	case R_ARANGE: return do_arange(in, n, op);
	case R_DIFF: return do_diff(in, n, op);
	case R_SCAN: return do_scan(e, in, n, op);
	case R_TOPK: return do_topk(in, n, op);
	case R_SORT: return do_sort(e, in, n, op);
	case R_HISTC: return do_histc(in, n, op);
	case R_SCALAR: return do_scalar(in, n, op);
	case R_NORM_BWD: return do_norm_bwd(e, in, n, op);
	case R_SOFTMAX_BWD: return do_softmax_bwd(in, n, op);
	case R_CONV_BWD: return do_conv_bwd(in, n, op);
	case R_SDPA_BWD: return do_sdpa_bwd(e, in, n, op);
	case R_EMBED_BWD: return do_embed_bwd(in, n, op);
	case R_SELECT_BWD: return do_select_bwd(in, n, op);
	case R_POOL: return do_pool(e, in, n, op);
	case R_POOL_BWD: return do_pool_bwd(in, n, op);
	case R_AVGPOOL: return do_avgpool(in, n, op);
	case R_NLL: return do_nll(in, n, op);
	case R_NLL_BWD: return do_nll_bwd(in, n, op);
	case R_NEW: return do_new(e, in, n, op);
	}
	return -1;
}

void rl_aten_custom(const struct rl_trace_input *in, int n, enum rl_dtype fallback,
                    struct rl_op *op)
{
	double bytes = 0;
	enum rl_dtype t;
	int i;

	op->kind = RL_KIND_CUSTOM;
	op->has &= ~(unsigned)(RL_HAS_SHAPE | RL_HAS_KERNEL | RL_HAS_FPE);
	op->ndims = 0;
	op->stride = 1, op->padding = 0, op->groups = 1, op->causal = 0, op->inputs = 1;
	op->dtype = op_dtype(in, n, fallback, &t) == 0 ? t : fallback;
	for (i = 0; i < n; i++) {
		const struct rl_trace_input *x = tensor(in, n, i);

		if (x != NULL)
			bytes += (double)numel(x->dims, x->nd) * elem_size(x, fallback);
		else if (in[i].nlist > 0)
			bytes += (double)list_numel(&in[i], NULL, NULL) * rl_dtype_size(fallback);
	}
	op->flops = 0;
	op->bytes = bytes;
	op->has |= RL_HAS_FLOPS | RL_HAS_BYTES;
}

int rl_aten_map(const char *name, const struct rl_trace_input *in, int n,
                enum rl_dtype fallback, struct rl_op *op)
{
	return rl_aten_map_params(name, in, n, fallback, NULL, op);
}

int rl_aten_map_params(const char *name, const struct rl_trace_input *in, int n,
                       enum rl_dtype fallback, const struct rl_aten_params *params,
                       struct rl_op *op)
{
	const struct entry *e = NULL;
	size_t i;
	enum rl_dtype t;

	if (strncmp(name, "aten::", 6) == 0) {
		for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
			if (strcmp(name + 6, table[i].name) == 0) {
				e = &table[i];
				break;
			}
		}
	}
	if (e == NULL || op_dtype(in, n, fallback, &t) < 0) {
		rl_aten_custom(in, n, fallback, op);
		return 0;
	}
	op->kind = e->kind;
	op->dtype = t;
	if (e->fpe > 0) {
		op->flops_per_element = e->fpe;
		op->has |= RL_HAS_FPE;
	}
	if (apply(e, in, n, params, op) < 0) {
		rl_aten_custom(in, n, fallback, op);
		return 0;
	}
	return 1;
}

/* A node of the autograd graph: an identifier (no "::") ending in
 * "Backward" and a version number (MmBackward0, AsStridedBackward1). */
static int backward_node(const char *name)
{
	const char *b = NULL, *p;

	for (p = name; *p; p++) {
		if (!(*p == '_' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z')))
			return 0;
		if (strncmp(p, "Backward", 8) == 0)
			b = p;
	}
	if (b == NULL || b == name || b[8] == '\0')
		return 0;
	for (p = b + 8; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

int rl_aten_backward_root(const char *name)
{
	return strncmp(name, EVALUATE, sizeof(EVALUATE) - 1) == 0;
}

int rl_aten_composite(const char *name)
{
	size_t i;

	if (rl_aten_backward_root(name) || backward_node(name))
		return 1;
	for (i = 0; i < sizeof(autograd_composite) / sizeof(autograd_composite[0]); i++)
		if (strcmp(name, autograd_composite[i]) == 0)
			return 1;
	if (strncmp(name, "aten::", 6) != 0)
		return 0;
	for (i = 0; i < sizeof(composite) / sizeof(composite[0]); i++)
		if (strcmp(name + 6, composite[i]) == 0)
			return 1;
	return 0;
}
