/* hostcalls.c - a trace's top-level host calls for the host fit (see
 * hostcalls.h). CPU ops are sorted by (thread, start, longest first), as
 * import.c sorts them: an op not nested in the current top-level op of its
 * thread starts a new one. A launch call is joined to the top-level op of its
 * thread whose interval holds its start (binary search). */
#include "config.h"

#include "hostcalls.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atenmap.h"
#include "formulas.h"
#include "inductor.h"

#define NONE SIZE_MAX
#define MAX_INPUTS 32

struct sorted {
	uint32_t thread;
	int64_t ts, end;
	size_t idx;
};

static int cmp_sorted(const void *a, const void *b)
{
	const struct sorted *x = a, *y = b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cmp_call(const void *a, const void *b)
{
	const struct rl_hostfit_call *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->end_ns > y->end_ns ? -1 : x->end_ns < y->end_ns;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n-- > 0)
		h = (h ^ *c++) * 1099511628211ULL;
	return h;
}

/* The shapes and types of IN[0..N), hashed. */
static uint64_t shape_hash(const struct rl_trace_input *in, int n)
{
	uint64_t h = 14695981039346656037ULL;
	int i;

	for (i = 0; i < n; i++) {
		h = fnv(h, &in[i].nd, sizeof(in[i].nd));
		h = fnv(h, &in[i].has_dims, sizeof(in[i].has_dims));
		if (in[i].has_dims)
			h = fnv(h, in[i].dims, (size_t)in[i].nd * sizeof(in[i].dims[0]));
		if (in[i].type != NULL)
			h = fnv(h, in[i].type, strlen(in[i].type) + 1);
		h = fnv(h, &in[i].nlist, sizeof(in[i].nlist));
	}
	return h;
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

void rl_hostcalls_release(struct rl_hostcalls *hc)
{
	if (hc == NULL)
		return;
	free(hc->calls);
	free(hc->skips);
	memset(hc, 0, sizeof(*hc));
}

/* The call of top-level op S[TOP]: its name, times and the kind and shapes
 * of its innermost op of the same name (S[INNER]). */
static void make_call(const struct rl_trace *t, const struct sorted *s, size_t top,
                      size_t inner, struct rl_hostfit_call *c)
{
	struct rl_trace_input in[MAX_INPUTS];
	const struct rl_trace_op *o = &t->ops[s[top].idx];
	const char *name = rl_trace_str(t, o->name);
	int n = rl_trace_op_inputs(t, &t->ops[s[inner].idx], in, MAX_INPUTS);
	struct rl_op op;
	double f, b;

	rl_op_init(&op);
	if (rl_inductor_is_kernel(name)) {
		const char *why;

		if (rl_inductor_map(name, in, n, RL_BF16, &op, &why) &&
		    rl_op_work(&op, &f, &b, NULL) < 0) {
			rl_op_init(&op);
			rl_aten_custom(in, n, RL_BF16, &op);
		}
	} else if (rl_aten_map(name, in, n, RL_BF16, &op) && rl_op_work(&op, &f, &b, NULL) < 0) {
		rl_op_init(&op);
		rl_aten_custom(in, n, RL_BF16, &op);
	}
	c->name = name;
	c->kind = (int)op.kind; /* -1 after the join if it launched nothing */
	c->kernels = 0;
	c->start_ns = s[top].ts;
	c->end_ns = s[top].end;
	c->shape = shape_hash(in, n);
	c->first_launch = 0;
}

int rl_hostcalls_build(const struct rl_trace *t, struct rl_hostcalls *hc, struct rl_err *err)
{
	struct sorted *s = NULL;
	size_t *tops = NULL, *hash = NULL, *orphan = NULL;
	size_t i, ntop = 0, hcap = 1, nc = 0, first = NONE, first_call = NONE;
	int rc = RL_ERR_NOMEM;

	memset(hc, 0, sizeof(*hc));
	if (t->nops == 0)
		return rl_err_set(err, RL_ERR_PARSE,
		                  "%s: no CPU ops in the trace: the host time cannot be charged to "
		                  "the ops that launch the kernels (record it with "
		                  "activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA])",
		                  t->name);
	if (t->ngpu == 0)
		return rl_err_set(err, RL_ERR_PARSE,
		                  "%s: no GPU kernels in the trace (record it with "
		                  "activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA])",
		                  t->name);
	s = malloc(t->nops * sizeof(*s));
	tops = malloc(t->nops * sizeof(*tops));
	while (hcap < 2 * (t->nlaunches + 1))
		hcap *= 2;
	hash = malloc(hcap * sizeof(*hash));
	orphan = malloc((t->nlaunches + 1) * sizeof(*orphan));
	hc->calls = malloc((t->nops + t->nlaunches) * sizeof(*hc->calls));
	hc->skips = malloc((t->noverheads + t->nops + 1) * sizeof(*hc->skips));
	if (s == NULL || tops == NULL || hash == NULL || orphan == NULL || hc->calls == NULL ||
	    hc->skips == NULL)
		goto out;
	for (i = 0; i < t->nops; i++) {
		s[i].thread = t->ops[i].thread;
		s[i].ts = t->ops[i].ts_ns;
		s[i].end = t->ops[i].ts_ns + t->ops[i].dur_ns;
		s[i].idx = i;
	}
	qsort(s, t->nops, sizeof(*s), cmp_sorted);
	rl_inductor_host(t, &hc->compiled);
	/* the top-level ops, thread by thread, each with its call */
	for (i = 0; i < t->nops; i++) {
		size_t top = ntop > 0 ? tops[ntop - 1] : NONE, inner, j;
		const char *name = rl_trace_str(t, t->ops[s[i].idx].name);

		if (top != NONE && s[top].thread == s[i].thread && s[i].ts >= s[top].ts &&
		    s[i].end <= s[top].end)
			continue;
		if (rl_inductor_wrapper(name))
			continue;
		if (rl_inductor_host_part(name) != RL_INDUCTOR_NOT_HOST) {
			hc->skips[hc->nskips].start_ns = s[i].ts;
			hc->skips[hc->nskips++].end_ns = s[i].end;
			continue;
		}
		if (top == NONE || s[top].thread != s[i].thread)
			hc->threads++;
		tops[ntop++] = i;
		for (inner = i, j = i + 1; j < t->nops && s[j].thread == s[i].thread &&
		                           s[j].ts >= s[inner].ts && s[j].end <= s[inner].end;
		     j++)
			if (t->ops[s[j].idx].name == t->ops[s[i].idx].name)
				inner = j;
			else
				break;
		make_call(t, s, i, inner, &hc->calls[nc++]);
	}
	/* correlation ids of the launches */
	for (i = 0; i < hcap; i++)
		hash[i] = NONE;
	for (i = 0; i < t->nlaunches; i++) {
		size_t j = mix(t->launches[i].corr) & (hcap - 1);

		while (hash[j] != NONE && t->launches[hash[j]].corr != t->launches[i].corr)
			j = (j + 1) & (hcap - 1);
		if (hash[j] == NONE)
			hash[j] = i;
		orphan[i] = NONE;
	}
	for (i = 0; i < t->ngpu; i++) {
		const struct rl_trace_gpu *g = &t->gpu[i];
		const struct rl_trace_launch *l;
		size_t j = mix(g->corr) & (hcap - 1), lo = 0, hi = ntop, li;

		while (hash[j] != NONE && t->launches[hash[j]].corr != g->corr)
			j = (j + 1) & (hcap - 1);
		if ((li = hash[j]) == NONE) {
			hc->unlinked++;
			continue;
		}
		l = &t->launches[li];
		/* the last top-level op at or before (thread, start) */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			const struct sorted *m = &s[tops[mid]];

			if (m->thread < l->thread || (m->thread == l->thread && m->ts <= l->ts_ns))
				lo = mid + 1;
			else
				hi = mid;
		}
		hc->gpu++;
		if (first == NONE || l->ts_ns < t->launches[first].ts_ns)
			first = li;
		if (lo > 0 && s[tops[lo - 1]].thread == l->thread && s[tops[lo - 1]].end > l->ts_ns) {
			hc->calls[lo - 1].kernels++;
			if (first == li)
				first_call = lo - 1;
			continue;
		}
		if (orphan[li] == NONE) { /* a launch outside any op: a call of its own */
			struct rl_hostfit_call *c = &hc->calls[nc];

			orphan[li] = nc++;
			hc->orphans++;
			c->name = rl_trace_str(t, l->name);
			c->kind = RL_KIND_CUSTOM;
			c->kernels = 0;
			c->start_ns = l->ts_ns;
			c->end_ns = l->ts_ns + (l->dur_ns > 0 ? l->dur_ns : 0);
			c->shape = 0;
			c->first_launch = 0;
		}
		hc->calls[orphan[li]].kernels++;
		if (first == li)
			first_call = orphan[li];
	}
	if (first_call != NONE)
		hc->calls[first_call].first_launch = 1;
	for (i = 0; i < nc; i++)
		if (hc->calls[i].kernels == 0)
			hc->calls[i].kind = -1;
	qsort(hc->calls, nc, sizeof(*hc->calls), cmp_call);
	hc->n = nc;
	for (i = 0; i < t->noverheads; i++) {
		hc->skips[hc->nskips].start_ns = t->overheads[i].ts_ns;
		hc->skips[hc->nskips++].end_ns = t->overheads[i].ts_ns + t->overheads[i].dur_ns;
	}
	rc = 0;
out:
	free(s);
	free(tops);
	free(hash);
	free(orphan);
	if (rc < 0) {
		rl_hostcalls_release(hc);
		rl_err_set(err, rc, "out of memory");
	}
	return rc;
}

/* Appends a printf'ed line to BUF (N bytes, *USED so far). */
static void add_line(char *buf, size_t n, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add_line(char *buf, size_t n, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*used + 1 >= n)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *used, n - *used, fmt, ap);
	va_end(ap);
	if (w > 0)
		*used += (size_t)w < n - *used ? (size_t)w : n - *used - 1;
}

#define DIST "distributedInfo."

void rl_hostcalls_stack(const struct rl_trace *t, char *buf, size_t n)
{
	static const char *const cuda[] = {"cuda_runtime_version", "cuda_driver_version",
	                                   "cupti_version"};
	size_t used = 0, i, j;
	int torch = 0;

	if (n == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < t->nmeta; i++) {
		const char *k = rl_trace_str(t, t->meta[i].key);

		if (strstr(k, "torch") != NULL || strstr(k, "Torch") != NULL) {
			add_line(buf, n, &used, "PyTorch: %s = %s\n", k, rl_trace_str(t, t->meta[i].value));
			torch = 1;
		}
	}
	if (!torch)
		add_line(buf, n, &used, "PyTorch: version not recorded in the trace\n");
	for (i = 0; i < sizeof(cuda) / sizeof(cuda[0]); i++) {
		const char *v = rl_trace_meta(t, cuda[i]);

		if (v != NULL)
			add_line(buf, n, &used, "%s: %s\n", cuda[i], v);
	}
	for (i = 0; i < t->ndevices; i++)
		add_line(buf, n, &used, "GPU %lld: %s, %lld SMs, %lld bytes\n", t->devices[i].id,
		         t->devices[i].name, t->devices[i].num_sms, t->devices[i].total_mem_bytes);
	if (t->ndevices == 0)
		add_line(buf, n, &used, "GPU: no deviceProperties in the trace\n");
	for (i = 0, j = 0; i < t->nmeta; i++) {
		const char *k = rl_trace_str(t, t->meta[i].key);

		if (strncmp(k, DIST, sizeof(DIST) - 1) == 0)
			add_line(buf, n, &used, "%s%s %s", j++ ? ", " : "distributed: ",
			         k + sizeof(DIST) - 1, rl_trace_str(t, t->meta[i].value));
	}
	if (j > 0)
		add_line(buf, n, &used, " (distributedInfo: this trace is one rank's)\n");
	else
		add_line(buf, n, &used, "distributed: no distributedInfo in the trace (one process)\n");
	add_line(buf, n, &used, "CPU: unknown (the trace does not record it)\n");
	for (i = 0; i < t->nmeta; i++) {
		const char *k = rl_trace_str(t, t->meta[i].key);
		int known = strstr(k, "torch") != NULL || strstr(k, "Torch") != NULL;

		for (j = 0; j < sizeof(cuda) / sizeof(cuda[0]); j++)
			known |= strcmp(k, cuda[j]) == 0;
		known |= strncmp(k, DIST, sizeof(DIST) - 1) == 0;
		if (!known)
			add_line(buf, n, &used, "%s: %s\n", k, rl_trace_str(t, t->meta[i].value));
	}
}
