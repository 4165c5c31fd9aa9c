/* step.c - the measured step against its roofline (see step.h). */
#include "config.h"

#include "step.h"

#include <stdlib.h>
#include <string.h>

void rl_step_init(struct rl_step *s)
{
	memset(s, 0, sizeof(*s));
}

void rl_step_release(struct rl_step *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->ntop; i++)
		free(s->top[i].name);
	memset(s, 0, sizeof(*s));
}

static int cmp_interval(const void *a, const void *b)
{
	const struct rl_interval *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return (x->end_ns > y->end_ns) - (x->end_ns < y->end_ns);
}

void rl_step_timeline(struct rl_step *s, struct rl_interval *iv, size_t n)
{
	int64_t start, end, busy = 0, longest = 0;
	size_t i;

	s->activities = n;
	if (n == 0)
		return;
	qsort(iv, n, sizeof(*iv), cmp_interval);
	/* merge overlapping activities (several streams) into busy stretches */
	start = iv[0].start_ns;
	end = iv[0].end_ns;
	s->span_us = 0;
	for (i = 1; i < n; i++) {
		if (iv[i].start_ns > end) {
			busy += end - start;
			if (iv[i].start_ns - end > longest)
				longest = iv[i].start_ns - end;
			s->gaps++;
			start = iv[i].start_ns;
		}
		if (iv[i].end_ns > end)
			end = iv[i].end_ns;
	}
	busy += end - start;
	s->span_us = (double)(end - iv[0].start_ns) / 1000;
	s->busy_us = (double)busy / 1000;
	s->idle_us = s->span_us - s->busy_us;
	s->longest_gap_us = (double)longest / 1000;
}

const char *rl_step_advice(const struct rl_op *op, const struct rl_pred *p)
{
	if (op->kind == RL_KIND_CUSTOM)
		return "not mapped to a kind: its roofline counts only its input bytes; see "
		       "docs/trace-import.md";
	if (op->launches > 1 && p->bound != RL_BOUND_COMPUTE)
		return "several kernels for one op: fuse them (torch.compile) or pick a fused "
		       "implementation";
	/* the op already runs slower than its roofline: say how to close the
	 * gap before how to move the roof */
	switch (p->bound) {
	case RL_BOUND_COMPUTE:
		if (p->unit == RL_UNIT_TENSOR)
			return "below the tensor-core peak: dims in multiples of 64 and a tuned "
			       "kernel (torch.compile mode=max-autotune) close the gap; beyond it, fp8";
		return rl_op_advice(op, p);
	case RL_BOUND_MEMORY:
		if (op->kind == RL_KIND_MATMUL)
			return "below the memory roof, streaming its weights: batch more rows per "
			       "weight read, or quantize the weights (fusing does not cut its traffic)";
		return "below the memory roof: fuse with its neighbours (torch.compile) so "
		       "fewer bytes move, or use a smaller dtype";
	case RL_BOUND_NETWORK:
		return "below the interconnect's bandwidth: larger buckets (DDP's "
		       "bucket_cap_mb) amortise the latency; compare the NCCL algorithm and "
		       "protocol (nccl_algo) with nccl-tests on the same system";
	case RL_BOUND_OVERHEAD: break;
	}
	return "too small to fill the GPU: fuse it into its neighbours or give each "
		       "launch more work (a larger batch)";
}

static void add_kind(struct rl_step_kind *k, const struct rl_op *op, const struct rl_pred *p)
{
	k->ops++;
	k->launches += op->launches;
	if (op->has & RL_HAS_MEASURED) {
		k->measured_us += op->measured_us;
		k->roofline_us += p->t_gpu_us;
		k->expected_us += p->expected_gpu_us;
	}
	if (op->has & RL_HAS_HOST)
		k->host_us += op->host_us;
}

int rl_step_add(struct rl_step *s, const struct rl_op *op, const struct rl_pred *p)
{
	double gain;
	size_t i, k;
	char *name;

	add_kind(&s->kind[op->kind], op, p);
	add_kind(&s->phase[op->phase], op, p);
	add_kind(&s->all, op, p);
	if (!(op->has & RL_HAS_MEASURED))
		return 0;
	/* recoverable: down to what a tuned library kernel takes */
	gain = op->measured_us - p->expected_gpu_us;
	if (gain <= 0)
		return 0;
	/* insertion into a short sorted list; ties keep trace order */
	for (k = 0; k < s->ntop; k++)
		if (gain > s->top[k].measured_us - s->top[k].expected_us)
			break;
	if (k == RL_STEP_TOP)
		return 0;
	if ((name = strdup(op->name)) == NULL)
		return RL_ERR_NOMEM;
	if (s->ntop == RL_STEP_TOP)
		free(s->top[--s->ntop].name);
	for (i = s->ntop; i > k; i--)
		s->top[i] = s->top[i - 1];
	s->top[k] = (struct rl_step_top){.name = name,
	                                 .kind = op->kind,
	                                 .bound = p->bound,
	                                 .expected_bound = p->expected_bound,
	                                 .measured_us = op->measured_us,
	                                 .roofline_us = p->t_gpu_us,
	                                 .expected_us = p->expected_gpu_us,
	                                 .advice = rl_step_advice(op, p)};
	s->ntop++;
	return 0;
}
