/* import.c - joining a trace's GPU activities to its CPU ops (see import.h).
 *
 * CPU ops are sorted by (thread, start, longest first), so that on each
 * thread an op's enclosing ops come before it; one pass with a stack gives
 * every op its parent. A launch call's innermost enclosing op is then the
 * last op of its thread that starts at or before the call, or the nearest
 * ancestor of that op whose interval holds the call: intervals on one thread
 * nest. Correlation ids are looked up in an open-addressing hash table.
 */
#include "config.h"

#include "import.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "atenmap.h"
#include "formulas.h"
#include "inductor.h"
#include "ncclmap.h"
#include "oplist_write.h"

#define NONE SIZE_MAX
#define MAX_INPUTS 32

struct sorted_op {
	uint32_t thread;
	int64_t ts, end;
	size_t idx; /* into t->ops */
};

static int cmp_sorted(const void *a, const void *b)
{
	const struct sorted_op *x = a, *y = b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1; /* the longer one encloses */
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* A row in the making: the outermost op (or an orphan launch) and its work. */
struct row {
	int64_t ts;
	size_t op;     /* index into t->ops, or NONE for an orphan launch */
	size_t sorted; /* the op's index in the sorted order, or NONE */
	size_t inner;  /* the op whose inputs give the shape (index into t->ops) */
	size_t launch; /* the orphan's launch index */
	int64_t gpu_ns;
	uint64_t launches;
	int nccl;        /* the row of an NCCL kernel: a collective */
	uint32_t kernel; /* nccl: the first kernel's name (string id) */
	size_t comm;     /* nccl: the op with its c10d record (index into t->ops), or NONE */
	size_t kcomm;    /* nccl, without comm: the first kernel with a record (t->gpu), or NONE */
	int replay;      /* kernels a CUDA graph replayed (cudaGraphLaunch): no host
	                  * time of their own; op NONE: not attributed (kernel names it) */
};

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->op != y->op)
		return x->op < y->op ? -1 : 1;
	return x->launch < y->launch ? -1 : x->launch > y->launch;
}

/* A sum of durations (each >= 0), saturated: a trace may hold many
 * kernels of up to 2^62 ns each (trace.h), absurd but not undefined. */
static int64_t add_ns(int64_t a, int64_t b)
{
	return b > INT64_MAX - a ? INT64_MAX : a + b;
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/* The trace's most common floating-point dtype among typed tensor inputs:
 * what a list of tensors (whose element type the trace omits) most likely
 * holds. fp32 when there is none. */
static enum rl_dtype common_dtype(const struct rl_trace *t)
{
	size_t count[RL_DTYPE_COUNT] = {0}, i;
	struct rl_trace_input in[MAX_INPUTS];
	enum rl_dtype best = RL_FP32;
	int k, n;

	for (i = 0; i < t->nops; i++) {
		n = rl_trace_op_inputs(t, &t->ops[i], in, MAX_INPUTS);
		for (k = 0; k < n; k++) {
			enum rl_dtype d;
			unsigned size;

			if (in[k].has_dims && in[k].nlist == 0 &&
			    rl_aten_dtype(in[k].type, &d, &size) == 0 && d != RL_INT8 &&
			    d != RL_INT32 && d != RL_INT64)
				count[d]++;
		}
	}
	for (k = 0; k < RL_DTYPE_COUNT; k++)
		if (count[k] > count[best])
			best = (enum rl_dtype)k;
	return best;
}

/* "aten::addmm" -> "addmm#12": ATen's prefix dropped, the row number added
 * so that every row of a step has its own name. */
static char *row_name(const char *name, size_t row)
{
	size_t n;
	char *s;

	if (strncmp(name, "aten::", 6) == 0 && name[6] != '\0')
		name += 6;
	if (*name == '\0')
		name = "op";
	n = strlen(name) + 24;
	s = malloc(n);
	if (s != NULL)
		snprintf(s, n, "%s#%zu", name, row);
	return s;
}

static int note_custom(struct rl_import *imp, const char *name)
{
	size_t i;

	imp->custom++;
	for (i = 0; i < imp->ncustom_names; i++) {
		if (strcmp(imp->custom_names[i].name, name) == 0) {
			imp->custom_names[i].count++;
			return 0;
		}
	}
	if (i == RL_IMPORT_CUSTOM_NAMES)
		return 0;
	if ((imp->custom_names[i].name = strdup(name)) == NULL)
		return RL_ERR_NOMEM;
	imp->custom_names[i].count = 1;
	imp->ncustom_names++;
	return 0;
}

/* The name of the GPU that ran the work: the deviceProperties entry whose id
 * the activities carry (the only entry when they carry none). */
static int pick_device(const struct rl_trace *t, struct rl_import *imp)
{
	const char *name = NULL;
	size_t i, j;

	if (t->ndevices == 1 && (t->ngpu == 0 || t->gpu[0].device < 0 ||
	                         t->gpu[0].device == t->devices[0].id))
		name = t->devices[0].name;
	for (i = 0; name == NULL && i < t->ngpu; i++) {
		for (j = 0; j < t->ndevices; j++) {
			if (t->devices[j].id != t->gpu[i].device)
				continue;
			if (name != NULL && strcmp(name, t->devices[j].name) != 0)
				imp->device_ambiguous = 1;
			else
				name = t->devices[j].name;
		}
	}
	for (; name != NULL && i < t->ngpu; i++)
		for (j = 0; j < t->ndevices; j++)
			if (t->devices[j].id == t->gpu[i].device &&
			    strcmp(name, t->devices[j].name) != 0)
				imp->device_ambiguous = 1;
	if (name == NULL && t->ndevices > 0) {
		/* activities name no device of the list: any entry will do if
		 * all entries agree */
		name = t->devices[0].name;
		for (j = 1; j < t->ndevices; j++)
			if (strcmp(name, t->devices[j].name) != 0)
				imp->device_ambiguous = 1;
	}
	if (name == NULL)
		return 0;
	for (j = 0; j < t->ndevices; j++)
		if (strcmp(name, t->devices[j].name) == 0) {
			imp->device_sms = t->devices[j].num_sms;
			imp->device_mem_bytes = t->devices[j].total_mem_bytes;
			break;
		}
	imp->device = strdup(name);
	return imp->device == NULL ? RL_ERR_NOMEM : 0;
}

/* The row's measured time, launches and phase, and its name from NAME. */
static int finish_op(struct rl_import *imp, const struct row *r, size_t rowno, enum rl_phase phase,
                     const char *name, struct rl_op *op)
{
	if ((imp->names[rowno] = row_name(name, rowno + 1)) == NULL)
		return RL_ERR_NOMEM;
	op->name = imp->names[rowno];
	op->phase = phase;
	op->launches = r->launches;
	if (r->gpu_ns > 0) {
		op->measured_us = (double)r->gpu_ns / 1000;
		op->has |= RL_HAS_MEASURED;
	}
	return 0;
}

/* Fills the row of an NCCL kernel (ncclmap.h): a collective of the c10d
 * record's kind, size, dtype and group, named after the c10d op that issued
 * it ("c10d::allreduce_#12"), else the record's collective name, else the
 * kernel's; or a custom row without work, counted with the reason. */
static int make_collective(const struct rl_trace *t, struct rl_import *imp, const struct row *r,
                           size_t rowno, enum rl_phase phase, struct rl_op *op)
{
	const struct rl_trace_comm *c = r->comm != NONE    ? rl_trace_op_comm(t, r->comm)
	                                : r->kcomm != NONE ? rl_trace_gpu_comm(t, r->kcomm)
	                                                   : NULL;
	const char *kname = rl_trace_str(t, r->kernel), *coll = NULL, *dtype = NULL, *why = NULL;
	struct rl_nccl_kernel k;
	char name[160];
	int mapped;

	rl_nccl_kernel(kname, &k);
	if (c != NULL) {
		coll = rl_trace_str(t, c->name);
		dtype = c->dtype ? rl_trace_str(t, c->dtype - 1) : NULL;
	}
	mapped = rl_nccl_map(&k, c, coll, dtype, op, &why);
	if (mapped) {
		double f, b;

		if (rl_op_work(op, &f, &b, NULL) < 0) {
			rl_op_init(op);
			rl_nccl_map(NULL, NULL, NULL, NULL, op, NULL);
			mapped = 0;
			why = "size out of range";
		}
	}
	/* the kernel's name without its parameter list */
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(kname, "("), kname);
	imp->nccl[rowno].algorithm = k.algorithm;
	imp->nccl[rowno].protocol = k.protocol;
	imp->collectives++;
	if (!mapped) {
		char note[256];

		snprintf(note, sizeof(note), "%s (%s)", name, why ? why : "not mapped");
		if (note_custom(imp, note) < 0)
			return RL_ERR_NOMEM;
	}
	if (r->op != NONE) {
		const struct rl_trace_op *o = &t->ops[r->op];
		const char *oname = rl_trace_str(t, o->name);

		if (strncmp(oname, "c10d::", 6) == 0)
			snprintf(name, sizeof(name), "%s", oname);
		else if (c != NULL)
			snprintf(name, sizeof(name), "%s", coll);
		if (o->dur_ns > 0) {
			op->host_us = (double)o->dur_ns / 1000;
			op->has |= RL_HAS_HOST;
		}
	} else if (t->launches[r->launch].dur_ns > 0) {
		op->host_us = (double)t->launches[r->launch].dur_ns / 1000;
		op->has |= RL_HAS_HOST;
	}
	return finish_op(imp, r, rowno, phase, name, op);
}

/* Fills one row's op. */
/* The offset calculations per element of the loop kernel KNAME runs
 * (op.h's strided): 1 for PyTorch's unvectorised elementwise loops
 * (elementwise_kernel over strided or broadcast operands,
 * unrolled_elementwise_kernel for a dynamic cast), 2 for a cat of strided
 * inputs (CatArrayBatchedCopy without _vectorized), 0 for any other. */
static int kernel_loop(const char *kname)
{
	if (strstr(kname, "at::native::elementwise_kernel<") != NULL ||
	    strstr(kname, "at::native::unrolled_elementwise_kernel<") != NULL)
		return 1;
	return strstr(kname, "::CatArrayBatchedCopy<") != NULL ? 2 : 0;
}

static int make_op(const struct rl_trace *t, struct rl_import *imp, const struct row *r,
                   size_t rowno, enum rl_phase phase, struct rl_op *op)
{
	struct rl_trace_input in[MAX_INPUTS];
	const char *name;
	int n = 0, mapped, noted = 0;

	rl_op_init(op);
	if (r->nccl)
		return make_collective(t, imp, r, rowno, phase, op);
	if (r->op != NONE) {
		const struct rl_trace_op *o = &t->ops[r->op];

		name = rl_trace_str(t, o->name);
		n = rl_trace_op_inputs(t, &t->ops[r->inner], in, MAX_INPUTS);
		if (rl_inductor_is_kernel(name)) {
			const char *why = NULL, *kwargs;
			char note[300];
			unsigned warps;

			mapped = rl_inductor_map(name, in, n, imp->fallback, op, &why);
			rl_trace_op_launch(t, o, &kwargs, &warps);
			if (mapped)
				rl_inductor_launch(kwargs, warps, op);
			if (!mapped) {
				/* the warning says why; the row is counted once */
				snprintf(note, sizeof(note), "%.200s (%s)", name, why);
				if (note_custom(imp, note) < 0)
					return RL_ERR_NOMEM;
				noted = 1;
			}
		} else {
			mapped = rl_aten_map_params(name, in, n, imp->fallback, &imp->params, op);
		}
		if (mapped) {
			/* the formulas have the last word on a shape */
			double f, b;

			if (rl_op_work(op, &f, &b, NULL) < 0) {
				rl_op_init(op);
				rl_aten_custom(in, n, imp->fallback, op);
				mapped = 0;
			}
		}
		if (!mapped && !noted && note_custom(imp, name) < 0)
			return RL_ERR_NOMEM;
		/* the trace names the kernel: a one-kernel pointwise op or copy
		 * that ran an unvectorised loop is predicted as one */
		if (mapped && r->launches == 1 && op->nperm == 0 &&
		    (op->kind == RL_KIND_POINTWISE || op->kind == RL_KIND_COPY))
			op->strided = kernel_loop(rl_trace_str(t, r->kernel));
		/* a replayed kernel's host cost is the graph launch's */
		if (o->dur_ns > 0 && !r->replay) {
			op->host_us = (double)o->dur_ns / 1000;
			op->has |= RL_HAS_HOST;
		}
	} else if (r->replay) {
		/* a CUDA graph replay whose capture the trace does not hold: the
		 * kernel's own row, named after it, with its measured time */
		const char *kname = rl_trace_str(t, r->kernel);
		char kbuf[160];

		snprintf(kbuf, sizeof(kbuf), "%.*s", (int)strcspn(kname, "("), kname);
		rl_aten_custom(in, 0, imp->fallback, op);
		if (note_custom(imp, "kernels of CUDA graph replays whose capture the trace does "
		                     "not hold (profile the call that captures the graph)") < 0)
			return RL_ERR_NOMEM;
		op->host_overhead_us = 0;
		op->has |= RL_HAS_HOST_COST;
		return finish_op(imp, r, rowno, phase, kbuf, op);
	} else {
		const struct rl_trace_launch *l = &t->launches[r->launch];

		name = rl_trace_str(t, l->name);
		rl_aten_custom(in, 0, imp->fallback, op);
		if (l->dur_ns > 0) {
			op->host_us = (double)l->dur_ns / 1000;
			op->has |= RL_HAS_HOST;
		}
	}
	if (r->replay) {
		/* no launch of its own: the graph's launch is the host's cost,
		 * reported with the step (step.h) */
		op->host_overhead_us = 0;
		op->has |= RL_HAS_HOST_COST;
	}
	return finish_op(imp, r, rowno, phase, name, op);
}

/* One AccumulateGrad op: when it ran, its gradient's elements and dtype. */
struct grad {
	int64_t ts;
	double elems;
	int dtype; /* enum rl_dtype, or -1 when not known */
};

static int cmp_grad(const void *a, const void *b)
{
	const struct grad *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* The parameters of a training step: one torch::autograd::AccumulateGrad
 * op per trainable parameter and backward pass, its first input the
 * gradient (the parameter's dims and dtype). A trace of several steps, or of
 * micro-batches, holds several backward passes: they are told apart by the
 * forward and optimizer rows between them (NB times STARTS, sorted), and
 * the largest pass gives the parameters. Returns 0 or RL_ERR_NOMEM. */
static int find_params(const struct rl_trace *t, struct rl_import *imp, const int64_t *starts,
                       size_t nb)
{
	struct rl_trace_input in[1];
	struct grad *g;
	size_t i, n = 0, pos = 0;
	double elems = 0, tensors = 0;
	int j, dtype = -1;

	imp->params.dtype = RL_FP32;
	if ((g = malloc((t->nops + 1) * sizeof(*g))) == NULL)
		return RL_ERR_NOMEM;
	for (i = 0; i < t->nops; i++) {
		enum rl_dtype d;
		unsigned size;
		double k = 1;

		if (strcmp(rl_trace_str(t, t->ops[i].name), "torch::autograd::AccumulateGrad") !=
		        0 ||
		    rl_trace_op_inputs(t, &t->ops[i], in, 1) < 1 || !in[0].has_dims ||
		    in[0].nlist > 0)
			continue;
		for (j = 0; j < in[0].nd; j++)
			k *= (double)in[0].dims[j];
		g[n].ts = t->ops[i].ts_ns;
		g[n].elems = k;
		g[n++].dtype = rl_aten_dtype(in[0].type, &d, &size) == 0 ? (int)d : -1;
	}
	qsort(g, n, sizeof(*g), cmp_grad);
	for (i = 0; i < n; i++) {
		/* a forward or optimizer row since the previous gradient ends
		 * its pass */
		int boundary = 0;

		while (pos < nb && starts[pos] <= g[i].ts) {
			boundary = i > 0 && starts[pos] > g[i - 1].ts;
			pos++;
		}
		if (boundary) {
			elems = tensors = 0;
		}
		elems += g[i].elems;
		tensors++;
		if (g[i].dtype >= 0)
			dtype = g[i].dtype;
		if (elems > imp->params.elems) {
			imp->params.elems = elems;
			imp->params.tensors = tensors;
			if (dtype >= 0)
				imp->params.dtype = (enum rl_dtype)dtype;
		}
	}
	free(g);
	return 0;
}

/* An optimizer's span: torch.optim marks each step and zero_grad
 * "Optimizer.step#AdamW.step" (torch/optim/optimizer.py,
 * profile_hook_step). */
static int is_optimizer_mark(const char *name)
{
	return strncmp(name, "Optimizer.", 10) == 0;
}

struct span {
	uint32_t thread;
	int64_t ts, end; /* end: the latest end of the spans up to this one
	                  * on its thread */
};

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* 1 when time TS on THREAD lies in one of the N spans (sorted, with the
 * running latest end). */
static int in_span(const struct span *sp, size_t n, uint32_t thread, int64_t ts)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sp[mid].thread < thread || (sp[mid].thread == thread && sp[mid].ts <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && sp[lo - 1].thread == thread && sp[lo - 1].end >= ts;
}

/* The innermost op around launch L (a sorted index, or NONE), looked up
 * once: the last op of the launch's thread starting at or before it, or
 * the nearest ancestor whose interval holds it. */
static size_t owner(const struct rl_trace *t, const struct sorted_op *s, const size_t *parent,
                    size_t *launch_op, size_t l)
{
	if (launch_op[l] == NONE - 1) {
		const struct rl_trace_launch *la = &t->launches[l];
		size_t lo = 0, hi = t->nops, k;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (s[mid].thread < la->thread ||
			    (s[mid].thread == la->thread && s[mid].ts <= la->ts_ns))
				lo = mid + 1;
			else
				hi = mid;
		}
		k = lo > 0 && s[lo - 1].thread == la->thread ? lo - 1 : NONE;
		while (k != NONE && !(s[k].ts <= la->ts_ns && la->ts_ns <= s[k].end))
			k = parent[k];
		launch_op[l] = k;
	}
	return launch_op[l];
}

/* A stream capture: the calls that added nodes to the graph, in order. */
struct capture {
	uint32_t thread;
	int64_t ts;   /* cudaStreamBeginCapture's start */
	size_t first; /* into the captured launches */
	size_t n;
};

static int cmp_launch_ts(const void *a, const void *b, void *ctx)
{
	const struct rl_trace *t = ctx;
	const struct rl_trace_launch *x = &t->launches[*(const size_t *)a],
	                             *y = &t->launches[*(const size_t *)b];

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Captures looked back at from a replay for one of its size: cudagraph
 * trees record a graph per compiled function and input shape, a few. */
#define MAX_CAPTURES_BACK 64

/* The latest capture of CAPS (sorted by thread, then start) on L's thread
 * that began before L and added N nodes, among the MAX_CAPTURES_BACK before
 * it; NONE when there is none. */
static size_t latest_capture(const struct capture *caps, size_t ncaps,
                             const struct rl_trace_launch *l, size_t n)
{
	size_t lo = 0, hi = ncaps, k;

	while (lo < hi) { /* the first capture after (thread, start) */
		size_t mid = lo + (hi - lo) / 2;

		if (caps[mid].thread < l->thread ||
		    (caps[mid].thread == l->thread && caps[mid].ts < l->ts_ns))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = 0; k < MAX_CAPTURES_BACK && lo > 0 && caps[lo - 1].thread == l->thread; k++, lo--)
		if (caps[lo - 1].n == n)
			return lo - 1;
	return NONE;
}

struct act_ctx {
	const struct rl_trace *t;
	const size_t *glaunch;
};

/* GPU activities by graph launch, then start. */
static int cmp_act(const void *a, const void *b, void *ctx)
{
	const struct act_ctx *c = ctx;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (c->glaunch[i] != c->glaunch[j])
		return c->glaunch[i] < c->glaunch[j] ? -1 : 1;
	if (c->t->gpu[i].ts_ns != c->t->gpu[j].ts_ns)
		return c->t->gpu[i].ts_ns < c->t->gpu[j].ts_ns ? -1 : 1;
	return i < j ? -1 : 1;
}

/* A runtime call that adds a node to a graph being captured: a kernel
 * launch, a memset, a memcpy. */
static int node_call(const char *name)
{
	return !rl_inductor_graph_launch(name) &&
	       (strstr(name, "LaunchKernel") != NULL || strstr(name, "Memset") != NULL ||
	        strstr(name, "Memcpy") != NULL || strstr(name, "LaunchCooperativeKernel") != NULL);
}

/* For every GPU activity of T that a CUDA graph replayed, the captured call
 * it replays (an index into t->launches), or NONE when the trace holds no
 * capture of that graph; NONE - 1 for every other activity. A replay of K
 * activities is the latest capture on its thread before it that added K
 * nodes, its activities in order of start the capture's calls in order.
 * *OUT is NULL when the trace replays no graph. */
static int replays(const struct rl_trace *t, const size_t *hash, size_t hcap, size_t **out,
                   struct rl_import *imp)
{
	size_t *by_ts = NULL, *of = NULL, *cap_launch = NULL, *act = NULL, *glaunch = NULL;
	struct capture *caps = NULL;
	size_t i, ncaps = 0, ncap_launch = 0, nact = 0;
	int rc = RL_ERR_NOMEM, any = 0;

	*out = NULL;
	for (i = 0; i < t->nlaunches && !any; i++)
		any = rl_inductor_graph_launch(rl_trace_str(t, t->launches[i].name));
	if (!any)
		return 0;
	by_ts = malloc((t->nlaunches + 1) * sizeof(*by_ts));
	cap_launch = malloc((t->nlaunches + 1) * sizeof(*cap_launch));
	caps = malloc((t->nlaunches + 1) * sizeof(*caps));
	of = malloc((t->ngpu + 1) * sizeof(*of));
	act = malloc((t->ngpu + 1) * sizeof(*act));
	glaunch = malloc((t->ngpu + 1) * sizeof(*glaunch));
	if (by_ts == NULL || cap_launch == NULL || caps == NULL || of == NULL || act == NULL ||
	    glaunch == NULL)
		goto out;
	/* the captures, thread by thread */
	for (i = 0; i < t->nlaunches; i++)
		by_ts[i] = i;
	qsort_r(by_ts, t->nlaunches, sizeof(*by_ts), cmp_launch_ts, (void *)t);
	{
		struct capture *open = NULL;

		for (i = 0; i < t->nlaunches; i++) {
			const struct rl_trace_launch *la = &t->launches[by_ts[i]];
			const char *name = rl_trace_str(t, la->name);
			enum rl_inductor_capture c = rl_inductor_capture(name);

			if (open != NULL && open->thread != la->thread)
				open = NULL; /* never ended on its thread */
			if (c == RL_CAPTURE_BEGIN) {
				open = &caps[ncaps++];
				open->thread = la->thread;
				open->ts = la->ts_ns;
				open->first = ncap_launch;
				open->n = 0;
			} else if (c == RL_CAPTURE_END) {
				open = NULL;
			} else if (open != NULL && node_call(name)) {
				cap_launch[ncap_launch++] = by_ts[i];
				open->n++;
			}
		}
	}
	/* each activity's graph launch; a launch's activities in order */
	for (i = 0; i < t->ngpu; i++) {
		size_t j = mix(t->gpu[i].corr) & (hcap - 1);

		of[i] = NONE - 1;
		while (hash[j] != NONE && t->launches[hash[j]].corr != t->gpu[i].corr)
			j = (j + 1) & (hcap - 1);
		if (hash[j] != NONE &&
		    rl_inductor_graph_launch(rl_trace_str(t, t->launches[hash[j]].name))) {
			glaunch[i] = hash[j];
			act[nact++] = i;
		}
	}
	{
		struct act_ctx ctx = {t, glaunch};
		size_t a = 0;

		qsort_r(act, nact, sizeof(*act), cmp_act, &ctx);
		while (a < nact) {
			size_t l = glaunch[act[a]], b = a, k, best;

			while (b < nact && glaunch[act[b]] == l)
				b++;
			best = latest_capture(caps, ncaps, &t->launches[l], b - a);
			imp->compiled.graph_launches++;
			imp->compiled.graph_kernels += b - a;
			if (best != NONE)
				imp->compiled.graph_attributed += b - a;
			for (k = a; k < b; k++)
				of[act[k]] = best == NONE ? NONE : cap_launch[caps[best].first + (k - a)];
			a = b;
		}
	}
	for (i = 0; i < t->nlaunches; i++)
		if (rl_inductor_graph_launch(rl_trace_str(t, t->launches[i].name)))
			imp->compiled.graph_launch_us += (double)t->launches[i].dur_ns / 1000;
	*out = of;
	of = NULL;
	rc = 0;
out:
	free(by_ts);
	free(cap_launch);
	free(caps);
	free(of);
	free(act);
	free(glaunch);
	return rc;
}

/* Where a graph launch's replayed activities go: the row of the captured
 * op last seen, and how many rows it has. */
struct replay_state {
	size_t root, row, n;
};

/* Adds the activity G, replayed by graph launch L from the captured call
 * CL (NONE: not known), to a row: the row of the captured call's root op,
 * one per run of the replay's activities from one op; else a row of its
 * own named after its kernel. */
static void replay_row(const struct rl_trace *t, const struct sorted_op *s, const size_t *parent,
                       const size_t *root, const size_t *inner, size_t *launch_op, size_t cl,
                       size_t l, const struct rl_trace_gpu *g, struct replay_state *st,
                       struct row *rows, size_t *nrows)
{
	size_t at = NONE, k;
	struct row *r;

	if (cl != NONE && (k = owner(t, s, parent, launch_op, cl)) != NONE)
		at = root[k];
	if (at != NONE && st[l].n > 0 && st[l].root == at) {
		r = &rows[st[l].row];
	} else {
		r = &rows[*nrows];
		st[l].root = at;
		st[l].row = (*nrows)++;
		r->op = at == NONE ? NONE : s[at].idx;
		r->sorted = at;
		r->inner = at == NONE ? NONE : s[inner[at]].idx;
		r->launch = l;
		r->ts = add_ns(t->launches[l].ts_ns, (int64_t)st[l].n++);
		r->gpu_ns = 0;
		r->launches = 0;
		r->nccl = 0;
		r->kernel = g->name;
		r->comm = r->kcomm = NONE;
		r->replay = 1;
	}
	r->gpu_ns = add_ns(r->gpu_ns, g->dur_ns);
	r->launches++;
}

/* The op that an NCCL kernel launched in sorted op K belongs to (a sorted
 * index): the outermost c10d op around K ("c10d::allreduce_", what the
 * program called), else the innermost op with a c10d record
 * ("record_param_comms"), else K. *COMM gets the innermost op with a record
 * (an index into t->ops), or NONE. */
static size_t nccl_op(const struct rl_trace *t, const struct sorted_op *s, const size_t *parent,
                      size_t k, size_t *comm)
{
	size_t a, c10d = NONE, rec = NONE;

	for (a = k; a != NONE; a = parent[a]) {
		if (rec == NONE && rl_trace_op_comm(t, s[a].idx) != NULL)
			rec = a;
		if (strncmp(rl_trace_str(t, t->ops[s[a].idx].name), "c10d::", 6) == 0)
			c10d = a;
	}
	*comm = rec == NONE ? NONE : s[rec].idx;
	return c10d != NONE ? c10d : rec != NONE ? rec : k;
}

int rl_import_trace(const struct rl_trace *t, struct rl_import *imp, struct rl_err *err)
{
	struct span *spans = NULL;
	unsigned char *bwd = NULL;
	size_t *inner = NULL, *top = NULL;
	size_t nspans = 0, nstarts = 0;
	enum rl_phase *phases = NULL;
	int64_t *starts = NULL;
	struct sorted_op *s = NULL;
	size_t *parent = NULL, *root = NULL, *hash = NULL, *launch_op = NULL, *row_of = NULL;
	size_t *replay_of = NULL;
	struct replay_state *replay_st = NULL;
	struct row *rows = NULL;
	size_t hcap, i, nrows = 0, nkeys;
	int rc = RL_ERR_NOMEM;

	memset(imp, 0, sizeof(*imp));
	if (t->ngpu == 0 && t->skipped.gpu > 0)
		return rl_err_set(err, RL_ERR_PARSE,
		                  "%s: no GPU kernels left in the trace: %zu GPU activit%s skipped "
		                  "(the first at %s)",
		                  t->name, t->skipped.gpu, t->skipped.gpu == 1 ? "y" : "ies",
		                  t->skipped.first_gpu);
	if (t->ngpu == 0)
		return rl_err_set(err, RL_ERR_PARSE,
		                  "%s: no GPU kernels in the trace (record it with "
		                  "activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA])",
		                  t->name);
	imp->fallback = common_dtype(t);
	if (pick_device(t, imp) < 0)
		goto out;

	/* the optimizer's spans, thread by thread */
	spans = malloc((t->nmarks + 1) * sizeof(*spans));
	if (spans == NULL)
		goto out;
	for (i = 0; i < t->nmarks; i++) {
		const struct rl_trace_mark *m = &t->marks[i];

		if (!is_optimizer_mark(rl_trace_str(t, m->name)))
			continue;
		spans[nspans].thread = m->thread;
		spans[nspans].ts = m->ts_ns;
		spans[nspans++].end = add_ns(m->ts_ns, m->dur_ns);
	}
	qsort(spans, nspans, sizeof(*spans), cmp_span);
	for (i = 1; i < nspans; i++)
		if (spans[i].thread == spans[i - 1].thread && spans[i - 1].end > spans[i].end)
			spans[i].end = spans[i - 1].end;

	/* nesting of the CPU ops, thread by thread */
	s = malloc((t->nops + 1) * sizeof(*s));
	parent = malloc((t->nops + 1) * sizeof(*parent));
	root = malloc((t->nops + 1) * sizeof(*root));
	bwd = malloc(t->nops + 1);
	inner = malloc((t->nops + 1) * sizeof(*inner));
	top = malloc((t->nops + 1) * sizeof(*top));
	if (s == NULL || parent == NULL || root == NULL || bwd == NULL || inner == NULL ||
	    top == NULL)
		goto out;
	for (i = 0; i < t->nops; i++) {
		s[i].thread = t->ops[i].thread;
		s[i].ts = t->ops[i].ts_ns;
		s[i].end = t->ops[i].ts_ns + t->ops[i].dur_ns;
		s[i].idx = i;
	}
	qsort(s, t->nops, sizeof(*s), cmp_sorted);
	{
		size_t *stack = root; /* borrowed as scratch until roots are set */
		size_t depth = 0;

		for (i = 0; i < t->nops; i++) {
			if (i > 0 && s[i].thread != s[i - 1].thread)
				depth = 0;
			while (depth > 0 && !(s[i].ts >= s[stack[depth - 1]].ts &&
			                      s[i].end <= s[stack[depth - 1]].end))
				depth--;
			parent[i] = depth > 0 ? stack[depth - 1] : NONE;
			stack[depth++] = i;
		}
		/* parents come first in sorted order, so one pass finds roots;
		 * the children of a composite root (a fused op recorded with its
		 * parts, rl_aten_composite) are roots themselves */
		for (i = 0; i < t->nops; i++) {
			size_t p = parent[i];
			const char *pname = p != NONE ? rl_trace_str(t, t->ops[s[p].idx].name) : NULL;
			int split = p != NONE && root[p] == p &&
			            (rl_aten_composite(pname) || rl_inductor_wrapper(pname));

			root[i] = p == NONE || split ? i : root[p];
		}
		/* autocast records an op twice, nested: as called, then with its
		 * inputs cast (aten::linear with fp32 inputs around aten::linear
		 * with bf16 ones). A root's shape and dtype are read from the
		 * innermost op of its name in a chain of first children. */
		for (i = 0; i < t->nops; i++)
			inner[i] = top[i] = i;
		for (i = 0; i < t->nops; i++) {
			size_t p = parent[i];

			if (p != NONE && inner[top[p]] == p &&
			    t->ops[s[p].idx].name == t->ops[s[i].idx].name) {
				top[i] = top[p];
				inner[top[p]] = i;
			}
		}
		/* backward: an op in an evaluation of the autograd engine (not
		 * every op of the thread it ran on: CUDA's engine runs on a device
		 * thread of its own, but a CPU backward runs on the caller's,
		 * beside the forward pass and the optimizer) */
		for (i = 0; i < t->nops; i++)
			bwd[i] = rl_aten_backward_root(rl_trace_str(t, t->ops[s[i].idx].name)) ||
			         (parent[i] != NONE && bwd[parent[i]]);
	}

	/* correlation id -> launch */
	for (hcap = 16; hcap < 2 * t->nlaunches + 2; hcap *= 2)
		;
	hash = malloc(hcap * sizeof(*hash));
	launch_op = malloc((t->nlaunches + 1) * sizeof(*launch_op));
	if (hash == NULL || launch_op == NULL)
		goto out;
	for (i = 0; i < hcap; i++)
		hash[i] = NONE;
	for (i = 0; i < t->nlaunches; i++) {
		size_t j = mix(t->launches[i].corr) & (hcap - 1);

		while (hash[j] != NONE && t->launches[hash[j]].corr != t->launches[i].corr)
			j = (j + 1) & (hcap - 1);
		if (hash[j] == NONE)
			hash[j] = i; /* a repeated id keeps its first launch */
		launch_op[i] = NONE - 1; /* not looked up yet */
	}

	/* rows: per sorted op (its root's row), per orphan launch, per op
	 * that issued NCCL kernels (a row of their own, apart from the
	 * copies a collective op may launch around them) */
	nkeys = 2 * t->nops + t->nlaunches;
	if (replays(t, hash, hcap, &replay_of, imp) < 0)
		goto out;
	/* a replayed activity may make a row of its own: room for them only in
	 * a trace that replays graphs */
	row_of = malloc((nkeys + 1) * sizeof(*row_of));
	rows = malloc((nkeys + (replay_of != NULL ? t->ngpu : 0) + 1) * sizeof(*rows));
	imp->gpu = malloc(t->ngpu * sizeof(*imp->gpu));
	if (replay_of != NULL)
		replay_st = calloc(t->nlaunches + 1, sizeof(*replay_st));
	if (row_of == NULL || rows == NULL || imp->gpu == NULL ||
	    (replay_of != NULL && replay_st == NULL))
		goto out;
	for (i = 0; i < nkeys; i++)
		row_of[i] = NONE;
	for (i = 0; i < t->ngpu; i++) {
		const struct rl_trace_gpu *g = &t->gpu[i];
		size_t j = mix(g->corr) & (hcap - 1), l, key, at, comm;
		int nccl;

		imp->gpu[imp->ngpu].start_ns = g->ts_ns;
		imp->gpu[imp->ngpu++].end_ns = g->ts_ns + g->dur_ns;
		imp->gpu_by_kind[g->kind]++;
		imp->gpu_ns = add_ns(imp->gpu_ns, g->dur_ns);
		while (hash[j] != NONE && t->launches[hash[j]].corr != g->corr)
			j = (j + 1) & (hcap - 1);
		if ((l = hash[j]) == NONE) {
			imp->unlinked++;
			imp->unlinked_ns = add_ns(imp->unlinked_ns, g->dur_ns);
			continue;
		}
		owner(t, s, parent, launch_op, l);
		if (replay_of != NULL && replay_of[i] != NONE - 1) {
			replay_row(t, s, parent, root, inner, launch_op, replay_of[i], l, g, replay_st,
			           rows, &nrows);
			continue;
		}
		nccl = g->kind == RL_GPU_KERNEL && rl_nccl_kernel(rl_trace_str(t, g->name), NULL);
		comm = NONE;
		if (launch_op[l] == NONE) {
			key = t->nops + l;
			at = NONE;
		} else if (nccl) {
			at = nccl_op(t, s, parent, launch_op[l], &comm);
			key = t->nops + t->nlaunches + at;
		} else {
			at = key = root[launch_op[l]];
		}
		if (row_of[key] == NONE) {
			struct row *r = &rows[nrows];

			row_of[key] = nrows++;
			r->op = at == NONE ? NONE : s[at].idx;
			r->sorted = at;
			r->inner = at == NONE ? NONE : nccl ? s[at].idx : s[inner[at]].idx;
			r->launch = l;
			r->ts = at == NONE ? t->launches[l].ts_ns : s[at].ts;
			r->gpu_ns = 0;
			r->launches = 0;
			r->nccl = nccl;
			r->kernel = g->name;
			r->comm = comm;
			r->kcomm = NONE;
			r->replay = 0;
			if (r->op == NONE && !nccl)
				imp->orphans++;
		}
		/* the record Kineto copied onto the kernel, where the join found
		 * none around its launch */
		if (nccl && rows[row_of[key]].comm == NONE && rows[row_of[key]].kcomm == NONE &&
		    rl_trace_gpu_comm(t, i) != NULL)
			rows[row_of[key]].kcomm = i;
		rows[row_of[key]].gpu_ns = add_ns(rows[row_of[key]].gpu_ns, g->dur_ns);
		rows[row_of[key]].launches++;
	}
	qsort(rows, nrows, sizeof(*rows), cmp_row);

	imp->ops = calloc(nrows + 1, sizeof(*imp->ops));
	imp->names = calloc(nrows + 1, sizeof(*imp->names));
	imp->nccl = calloc(nrows + 1, sizeof(*imp->nccl));
	phases = malloc((nrows + 1) * sizeof(*phases));
	starts = malloc((nrows + 1) * sizeof(*starts));
	if (imp->ops == NULL || imp->names == NULL || imp->nccl == NULL || phases == NULL ||
	    starts == NULL)
		goto out;
	/* each row's phase; the starts of the rows that are not backward
	 * (rows are in order of start) part the backward passes */
	for (i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		uint32_t thread =
		    r->op != NONE ? t->ops[r->op].thread : t->launches[r->launch].thread;

		phases[i] = RL_PHASE_FORWARD;
		if (r->sorted != NONE && bwd[r->sorted])
			phases[i] = RL_PHASE_BACKWARD;
		else if (in_span(spans, nspans, thread, r->ts))
			phases[i] = RL_PHASE_OPTIMIZER;
		if (phases[i] != RL_PHASE_FORWARD)
			imp->training = 1;
		if (phases[i] != RL_PHASE_BACKWARD)
			starts[nstarts++] = r->ts;
	}
	if (find_params(t, imp, starts, nstarts) < 0)
		goto out;
	rl_inductor_host(t, &imp->compiled);
	for (i = 0; i < nrows; i++) {
		if (make_op(t, imp, &rows[i], i, phases[i], &imp->ops[i]) < 0)
			goto out;
		imp->n++;
	}
	rc = 0;
out:
	if (rc < 0)
		rl_err_set(err, rc, "out of memory");
	free(s);
	free(spans);
	free(bwd);
	free(inner);
	free(top);
	free(phases);
	free(starts);
	free(parent);
	free(root);
	free(hash);
	free(launch_op);
	free(row_of);
	free(rows);
	free(replay_of);
	free(replay_st);
	return rc;
}

void rl_import_spread(struct rl_import *imp, uint64_t gpus_per_node)
{
	size_t i;

	if (gpus_per_node == 0)
		return;
	for (i = 0; i < imp->n; i++) {
		struct rl_op *op = &imp->ops[i];

		if (rl_kind_is_collective(op->kind) && (op->has & RL_HAS_RANKS) &&
		    !(op->has & RL_HAS_NODES) && op->ranks > gpus_per_node &&
		    op->ranks % gpus_per_node == 0) {
			op->nodes = op->ranks / gpus_per_node;
			op->has |= RL_HAS_NODES;
		}
	}
}

void rl_import_release(struct rl_import *imp)
{
	size_t i;

	if (imp == NULL)
		return;
	for (i = 0; i < imp->n; i++)
		free(imp->names[i]);
	for (i = 0; i < imp->ncustom_names; i++)
		free(imp->custom_names[i].name);
	free(imp->names);
	free(imp->ops);
	free(imp->nccl);
	free(imp->gpu);
	free(imp->device);
	memset(imp, 0, sizeof(*imp));
}

/* ---- writing op list v1 ---- */

/* " RING_LL (5 rows), TREE_LL128 (1 row)\n": the NCCL kernels' algorithms
 * and protocols, in order of first row, with their counts (the names are
 * static strings of ncclmap.c, few and compared by address). */
static void nccl_algos(FILE *out, const struct rl_import *imp)
{
	struct {
		const char *algorithm, *protocol;
		size_t rows;
	} seen[64];
	size_t i, j, n = 0;

	for (i = 0; i < imp->n; i++) {
		const struct rl_import_nccl *a = &imp->nccl[i];

		if (a->algorithm == NULL)
			continue;
		for (j = 0; j < n; j++)
			if (seen[j].algorithm == a->algorithm && seen[j].protocol == a->protocol)
				break;
		if (j == n && n == sizeof(seen) / sizeof(seen[0]))
			continue;
		if (j == n) {
			seen[n].algorithm = a->algorithm;
			seen[n].protocol = a->protocol;
			seen[n++].rows = 0;
		}
		seen[j].rows++;
	}
	for (j = 0; j < n; j++)
		fprintf(out, "%s %s%s%s (%zu row%s)", j > 0 ? "," : "",
		        *seen[j].algorithm ? seen[j].algorithm : "(none named)", *seen[j].protocol ? "_" : "",
		        seen[j].protocol, seen[j].rows, seen[j].rows == 1 ? "" : "s");
	fputc('\n', out);
}

/* The columns of an imported list: ranks and nodes with collectives, phase
 * in a training step, after these. */
static const enum rl_opcol import_cols[] = {
	RL_OPCOL_NAME, RL_OPCOL_KIND, RL_OPCOL_DTYPE, RL_OPCOL_SHAPE, RL_OPCOL_KERNEL,
	RL_OPCOL_STRIDE, RL_OPCOL_PADDING, RL_OPCOL_GROUPS, RL_OPCOL_CAUSAL, RL_OPCOL_INPUTS,
	RL_OPCOL_FPE, RL_OPCOL_FLOPS, RL_OPCOL_BYTES, RL_OPCOL_LAUNCHES, RL_OPCOL_MEASURED,
	RL_OPCOL_HOST, RL_OPCOL_KV_HEADS,
};

int rl_import_write(FILE *out, const struct rl_import *imp, const char *source)
{
	enum rl_opcol cols[RL_OPCOL_N];
	struct rl_oprow row;
	size_t i, ncols;

	fputs("# op list v1 (docs/oplist-format.md), written by roofline import from\n", out);
	rl_oplist_write_comment(out, "%s", source);
	rl_oplist_write_comment(out, "device: %s", imp->device ? imp->device : "(not recorded)");
	fputs("# one row per outermost CPU op that launched GPU work (per part of a fused\n"
	      "# transformer op); measured_us: its GPU time, launches: its GPU activities,\n"
	      "# host_us: the op's own CPU time, kv_heads: K and V heads (grouped-query)\n",
	      out);
	if (imp->collectives > 0) {
		fputs("# ranks: the c10d group's size; nodes: 1 (a trace does not say how the\n"
		      "# ranks are spread over nodes); the collective rows are NCCL kernels\n"
		      "# (docs/trace-import.md); their kernels' algorithm_protocol:\n#",
		      out);
		nccl_algos(out, imp);
	}
	if (imp->training)
		fputs("# phase: forward, backward (under the autograd engine) or optimizer\n"
		      "# (under torch.optim's Optimizer.step)\n",
		      out);
	for (ncols = 0; ncols < sizeof(import_cols) / sizeof(import_cols[0]); ncols++)
		cols[ncols] = import_cols[ncols];
	if (imp->collectives > 0) {
		cols[ncols++] = RL_OPCOL_RANKS;
		cols[ncols++] = RL_OPCOL_NODES;
	}
	if (imp->training)
		cols[ncols++] = RL_OPCOL_PHASE;
	for (i = 0; i < imp->n; i++)
		if (imp->ops[i].linear) {
			fputs("# layout: linear for aten::linear (the weight [N, K], cuBLAS's TN kernels)\n",
			      out);
			cols[ncols++] = RL_OPCOL_LAYOUT;
			break;
		}
	for (i = 0; i < imp->n; i++)
		if (imp->ops[i].strided) {
			fputs("# strided: from the kernel's name, 1 for PyTorch's unvectorised\n"
			      "# elementwise loop, 2 for a cat of strided inputs\n",
			      out);
			cols[ncols++] = RL_OPCOL_STRIDED;
			break;
		}
	for (i = 0; i < imp->n; i++)
		if (imp->ops[i].vector_bytes) {
			fputs("# vector_bytes: a Triton pointwise kernel's bytes per thread access\n"
			      "# (XBLOCK x the element size / (32 x num_warps); under 16: narrow loads)\n",
			      out);
			cols[ncols++] = RL_OPCOL_VECTOR_BYTES;
			break;
		}
	for (i = 0; i < imp->n; i++)
		if (imp->ops[i].has & RL_HAS_HOST_COST) {
			fputs("# host_overhead_us: 0 for the kernels a CUDA graph replayed (the\n"
			      "# graph's launch is the host's cost: roofline report's step)\n",
			      out);
			cols[ncols++] = RL_OPCOL_HOST_COST;
			break;
		}
	rl_oplist_write_header(out, cols, ncols);
	for (i = 0; i < imp->n; i++) {
		rl_oprow_from_op(&row, &imp->ops[i]);
		rl_oplist_write_row(out, cols, ncols, &row);
	}
	return ferror(out) ? RL_ERR_IO : 0;
}
