/* inductor.c - torch.compile's programs as a profiler trace records them. */
#include "inductor.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "atenmap.h"

/* The fused ATen ops of a kernel's name that do arithmetic, with the FLOPs
 * per element each costs (one per add, multiply or compare; the
 * transcendentals as one each, as the GPU's special-function unit runs
 * them; silu x * sigmoid(x) and sigmoid as exp, add and divide; gelu's erf
 * form as torch's decomposition writes it, 0.5 * x * (1 + erf(x / sqrt 2)):
 * five). Views, casts, copies, index arithmetic (arange, slice, cat) and
 * gathers (embedding, index) cost none. Names are matched as whole '_'
 * separated words of the name. */
static const struct {
	const char *word;
	double flops;
} arith[] = {
	{"add", 1},   {"sub", 1},     {"rsub", 1},    {"mul", 1},     {"div", 1},
	{"neg", 1},   {"pow", 1},     {"rsqrt", 1},   {"sqrt", 1},    {"exp", 1},
	{"exp2", 1},  {"log", 1},     {"tanh", 1},    {"erf", 1},     {"sin", 1},
	{"cos", 1},   {"abs", 1},     {"reciprocal", 1}, {"sigmoid", 3}, {"silu", 4},
	{"gelu", 5},  {"relu", 1},    {"hardtanh", 1}, {"clamp", 1},  {"maximum", 1},
	{"minimum", 1}, {"where", 1}, {"mean", 1},    {"sum", 1},     {"amax", 1},
	{"amin", 1},  {"max", 1},     {"min", 1},     {"var", 3},     {"lt", 1},
	{"gt", 1},    {"le", 1},      {"ge", 1},      {"eq", 1},      {"ne", 1},
	{"sign", 1},  {"lerp", 2},    {"addcmul", 2}, {"addcdiv", 2}, {"softplus", 3},
};

int rl_inductor_is_kernel(const char *name)
{
	return strncmp(name, "triton_", 7) == 0;
}

/* 1 when WORD (of length N) is in the '_'-separated words of S. */
static int has_word(const char *s, const char *word)
{
	size_t n = strlen(word);
	const char *p = s;

	while ((p = strstr(p, word)) != NULL) {
		if ((p == s || p[-1] == '_') && (p[n] == '_' || p[n] == '\0'))
			return 1;
		p += n;
	}
	return 0;
}

int rl_inductor_kernel(const char *name, struct rl_inductor_kernel *k, const char **why)
{
	const char *ops, *p, *w;
	int reduction;

	k->kind = RL_KIND_CUSTOM;
	k->fpe = 0;
	if (!rl_inductor_is_kernel(name)) {
		*why = "not an Inductor kernel's name";
		return -1;
	}
	p = name + 7;
	if (strncmp(p, "poi_", 4) == 0)
		k->kind = RL_KIND_POINTWISE, reduction = 0;
	else if (strncmp(p, "red_", 4) == 0 || strncmp(p, "per_", 4) == 0)
		k->kind = RL_KIND_REDUCTION, reduction = 1;
	else if (strncmp(p, "tem_", 4) == 0)
		k->kind = RL_KIND_MATMUL, reduction = 0;
	else {
		*why = "an Inductor kernel of a kind other than poi, red, per, tem";
		return -1;
	}
	if (strncmp(p + 4, "fused_", 6) != 0) {
		*why = "an Inductor kernel's name without its fused ops";
		return -1;
	}
	ops = p + 10;
	/* the words of the ops, up to the kernel's number */
	for (w = ops; *w != '\0';) {
		size_t n = strcspn(w, "_"), j;

		for (j = 0; j < sizeof(arith) / sizeof(arith[0]); j++)
			if (strlen(arith[j].word) == n && strncmp(w, arith[j].word, n) == 0) {
				k->fpe += arith[j].flops;
				break;
			}
		w += n;
		while (*w == '_')
			w++;
	}
	if (k->fpe == 0 && k->kind != RL_KIND_MATMUL)
		k->fpe = reduction ? 1 : 0;
	if (reduction) {
		/* a norm: the row's moments and rsqrt (RMSNorm: pow, mean,
		 * rsqrt; LayerNorm: var_mean or native_layer_norm); a softmax:
		 * amax, exp and sum (or the op itself) */
		if (strstr(ops, "layer_norm") != NULL || strstr(ops, "group_norm") != NULL ||
		    strstr(ops, "batch_norm") != NULL ||
		    (has_word(ops, "rsqrt") && (has_word(ops, "mean") || has_word(ops, "var"))))
			k->kind = RL_KIND_LAYERNORM;
		else if (strstr(ops, "softmax") != NULL ||
		         (has_word(ops, "amax") && has_word(ops, "exp") && has_word(ops, "sum")))
			k->kind = RL_KIND_SOFTMAX;
	}
	return 0;
}

/* 1 when the kernel's fused ops make values rather than read them (an
 * iota, a constant fill, random numbers). */
static int makes_values(const char *name)
{
	static const char *const words[] = {"arange", "full", "zeros", "ones", "new_ones",
	                                    "scalar_tensor", "rand", "randn", "empty", "iota",
	                                    "bernoulli", "zeros_like", "ones_like"};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (has_word(name, words[i]))
			return 1;
	return 0;
}

/* Elements a tensor argument addresses: its dims but those of stride 0 (a
 * broadcast), or all of them when no strides are recorded. */
static double addressed(const struct rl_trace_input *x)
{
	double e = 1;
	int d;

	for (d = 0; d < x->nd; d++)
		if (!x->has_strides || x->strides[d] != 0 || x->dims[d] <= 1)
			e *= (double)x->dims[d];
	return e;
}

/* The integer value of a scalar argument, or 0. */
static uint64_t scalar_size(const struct rl_trace_input *x)
{
	char *end;
	unsigned long long v;

	if (x->has_dims && x->nd > 0)
		return 0;
	if (x->type == NULL || strcmp(x->type, "Scalar") != 0 || x->concrete == NULL ||
	    x->concrete[0] < '0' || x->concrete[0] > '9')
		return 0;
	v = strtoull(x->concrete, &end, 10);
	return *end == '\0' ? (uint64_t)v : 0;
}

/* A template GEMM: the first two tensors of 2 dims, A M x K and B K x N. */
static int template_gemm(const struct rl_trace_input *in, int n, enum rl_dtype dt,
                         struct rl_op *op, const char **why)
{
	const struct rl_trace_input *m[2] = {NULL, NULL};
	int i, got = 0;

	for (i = 0; i < n && got < 2; i++)
		if (in[i].has_dims && in[i].nlist == 0 && in[i].nd == 2)
			m[got++] = &in[i];
	if (got < 2 || m[0]->dims[1] != m[1]->dims[0] || m[0]->dims[0] == 0 ||
	    m[1]->dims[1] == 0 || m[0]->dims[1] == 0) {
		*why = "a template kernel without two matrices of matching sizes";
		return 0;
	}
	op->kind = RL_KIND_MATMUL;
	op->dtype = dt;
	op->ndims = 3;
	op->dims[0] = m[0]->dims[0];
	op->dims[1] = m[1]->dims[1];
	op->dims[2] = m[0]->dims[1];
	op->has |= RL_HAS_SHAPE;
	return 1;
}

int rl_inductor_map(const char *name, const struct rl_trace_input *in, int n,
                    enum rl_dtype fallback, struct rl_op *op, const char **why)
{
	struct rl_inductor_kernel k;
	uint64_t sizes[4];
	int i, nsizes = 0;
	double space = 1, bytes = 0, largest = -1, first_bytes = 0;
	int ntensors = 0, first_full = 0, last_full = 0;
	enum rl_dtype dt = fallback;

	if (rl_inductor_kernel(name, &k, why) < 0) {
		rl_aten_custom(in, n, fallback, op);
		return 0;
	}
	for (i = 0; i < n; i++) {
		uint64_t v = scalar_size(&in[i]);

		if (v > 0 && nsizes < 4)
			sizes[nsizes++] = v;
	}
	/* the dtype of the largest floating-point tensor */
	for (i = 0; i < n; i++) {
		enum rl_dtype t;
		unsigned size;
		double e;

		if (!in[i].has_dims || in[i].nlist > 0 || rl_aten_dtype(in[i].type, &t, &size) < 0)
			continue;
		e = addressed(&in[i]);
		if ((t == RL_FP32 || t == RL_BF16 || t == RL_FP16 || t == RL_FP64 ||
		     t == RL_FP8E4M3 || t == RL_FP8E5M2) && e > largest) {
			largest = e;
			dt = t;
		}
	}
	if (k.kind == RL_KIND_MATMUL) {
		if (template_gemm(in, n, dt, op, why))
			return 1;
		rl_aten_custom(in, n, fallback, op);
		return 0;
	}
	if (nsizes == 0) {
		*why = "an Inductor kernel without its sizes (xnumel) recorded";
		rl_aten_custom(in, n, fallback, op);
		return 0;
	}
	for (i = 0; i < nsizes; i++)
		space *= (double)sizes[i];
	if (!(space <= 9007199254740992.0)) { /* 2^53: every size exact, and a dim */
		*why = "an Inductor kernel whose sizes multiply past 2^53 elements";
		rl_aten_custom(in, n, fallback, op);
		return 0;
	}
	for (i = 0; i < n; i++) {
		enum rl_dtype t;
		unsigned size = 0;
		double e, b;

		if (!in[i].has_dims || in[i].nlist > 0)
			continue;
		rl_aten_dtype(in[i].type, &t, &size);
		if (size == 0) /* a scalar */
			continue;
		e = addressed(&in[i]);
		b = (e < space ? e : space) * size;
		bytes += b;
		if (ntensors == 0) {
			first_bytes = b;
			first_full = e >= space;
		}
		last_full = e >= space;
		ntensors++;
	}
	/* The trace does not say which arguments are written. Inductor passes
	 * the buffers a kernel updates in place first (in_out_ptr), those it
	 * only reads next, those it only writes last (torch/_inductor/codegen/
	 * common.py, KernelArgs.python_argdefs), and a pointwise kernel writes
	 * a tensor of its whole iteration space: so when the last argument
	 * addresses less than that, the first, full-size one, is read and
	 * written (RMSNorm's residual stream, batch norm's ReLU on the
	 * convolution's output, SiLU on the gate's product). A kernel of one
	 * tensor argument updates it in place unless its ops make values
	 * (arange, full, ...). Against the kernels' sources on the recordings
	 * of tests/data/compile: this halves the byte error (21 -> 11 % of the
	 * bytes; docs/trace-import.md, "Compiled programs"). */
	if (ntensors == 1 && first_full && !makes_values(name))
		bytes += first_bytes;
	else if (k.kind == RL_KIND_POINTWISE && ntensors > 1 && first_full && !last_full)
		bytes += first_bytes;
	op->kind = k.kind;
	op->dtype = dt;
	if (k.kind == RL_KIND_POINTWISE || nsizes < 2) {
		op->ndims = 1;
		op->dims[0] = (uint64_t)space;
	} else {
		/* rows x the reduced extent: the last size is r0_numel */
		op->ndims = 2;
		op->dims[0] = (uint64_t)(space / (double)sizes[nsizes - 1]);
		op->dims[1] = sizes[nsizes - 1];
	}
	op->has |= RL_HAS_SHAPE | RL_HAS_BYTES | RL_HAS_FLOPS;
	op->bytes = bytes;
	op->flops = k.fpe * space;
	return 1;
}

/* The value of KEY=V in a kernel_kwargs string "XBLOCK=512,YBLOCK=1", or
 * 0 when it is absent or not a number. */
static uint64_t kwarg(const char *kwargs, const char *key)
{
	size_t n = strlen(key);
	const char *p = kwargs;

	while ((p = strstr(p, key)) != NULL) {
		if ((p == kwargs || p[-1] == ',') && p[n] == '=') {
			char *end;
			unsigned long long v;

			if (p[n + 1] < '0' || p[n + 1] > '9')
				return 0;
			errno = 0;
			v = strtoull(p + n + 1, &end, 10);
			return (*end == ',' || *end == '\0') && errno == 0 ? (uint64_t)v : 0;
		}
		p += n;
	}
	return 0;
}

void rl_inductor_launch(const char *kwargs, unsigned num_warps, struct rl_op *op)
{
	uint64_t x, y, z;
	double b;

	if (kwargs == NULL || num_warps == 0 || op->kind != RL_KIND_POINTWISE)
		return;
	x = kwarg(kwargs, "XBLOCK");
	y = kwarg(kwargs, "YBLOCK");
	z = kwarg(kwargs, "ZBLOCK");
	if (x == 0 || y > 1 || z > 1)
		return;
	b = (double)x * (double)rl_dtype_size(op->dtype) / (32.0 * num_warps);
	/* at most the op list's bound (docs/oplist-format.md): any figure of 16
	 * and up is a vectorised stream */
	op->vector_bytes = b < 1 ? 1 : b > 1024 ? 1024 : (uint64_t)b;
}

int rl_inductor_region(const char *name)
{
	return strncmp(name, "Torch-Compiled Region", 21) == 0;
}

int rl_inductor_wrapper(const char *name)
{
	static const char *const exact[] = {
		"CompiledFunction",
		"CompiledFunctionBackward",
		"CUDAGraphNode.record",
		"CUDAGraphNode.record (dynamo_timed)",
		"CUDAGraphNode.run",
	};
	size_t i;

	if (rl_inductor_region(name))
		return 1;
	for (i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (strcmp(name, exact[i]) == 0)
			return 1;
	return 0;
}

enum rl_inductor_host rl_inductor_host_part(const char *name)
{
	if (strcmp(name, "TorchDynamo Cache Lookup") == 0)
		return RL_INDUCTOR_CACHE_LOOKUP;
	if (strcmp(name, "Pregraph bytecode") == 0 ||
	    strncmp(name, "AOTDispatcher Runtime Wrapper", 29) == 0)
		return RL_INDUCTOR_PROLOGUE;
	return RL_INDUCTOR_NOT_HOST;
}

void rl_inductor_host(const struct rl_trace *t, struct rl_step_compiled *c)
{
	size_t i;

	for (i = 0; i < t->nops; i++) {
		const char *name = rl_trace_str(t, t->ops[i].name);
		double us = (double)t->ops[i].dur_ns / 1000;

		if (rl_inductor_region(name)) {
			c->regions++;
			c->region_us += us;
			continue;
		}
		switch (rl_inductor_host_part(name)) {
		case RL_INDUCTOR_CACHE_LOOKUP: c->cache_lookup_us += us; break;
		case RL_INDUCTOR_PROLOGUE: c->prologue_us += us; break;
		case RL_INDUCTOR_NOT_HOST: break;
		}
	}
}

int rl_inductor_graph_launch(const char *name)
{
	return strcmp(name, "cudaGraphLaunch") == 0 || strncmp(name, "cuGraphLaunch", 13) == 0 ||
	       strcmp(name, "cudaGraphLaunch_v10000") == 0;
}

enum rl_inductor_capture rl_inductor_capture(const char *name)
{
	if (strncmp(name, "cudaStreamBeginCapture", 22) == 0 ||
	    strncmp(name, "cuStreamBeginCapture", 20) == 0)
		return RL_CAPTURE_BEGIN;
	if (strncmp(name, "cudaStreamEndCapture", 20) == 0 ||
	    strncmp(name, "cuStreamEndCapture", 18) == 0)
		return RL_CAPTURE_END;
	return RL_CAPTURE_NONE;
}
