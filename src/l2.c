/* l2.c - L2 residency and the L2 memory roof (see l2.h). */
#include "config.h"

#include "l2.h"

#include "expected.h"

#include <math.h>

int rl_l2_resident(double capacity, double prev_out, double bytes, double out_bytes, uint64_t count,
                   uint64_t launches)
{
	/* The list places only a row's first occurrence: it follows the row
	 * above. Its later ones follow that row again (a layer loop) or the
	 * row itself (a repeated op), which the list does not say; and one
	 * prediction stands for every occurrence of a row. So only a kernel
	 * that runs once is judged. */
	if (count != 1 || launches != 1)
		return 0;
	if (capacity <= 0 || prev_out <= 0 || out_bytes < 0)
		return 0;
	/* The previous output can be an input only if this kernel reads at
	 * least as many bytes. Both must fit at once: the previous output
	 * counts twice when it is an input, a margin that the measured L2
	 * plateaus call for (gpu-benches gpu-l2-cache: bandwidth falls from
	 * about 70 % of the L2 size on, e.g. 28 of 40 MB on an A100). */
	return prev_out <= bytes - out_bytes && bytes + prev_out <= capacity;
}

double rl_l2_memory_us(double bytes, double l2_bytes, double l2_bw, double mem_bw)
{
	/* Hierarchical roofline: every level of the memory hierarchy is a roof,
	 * time >= that level's traffic / its bandwidth (C. Yang, T. Kurth,
	 * S. Williams, "Hierarchical Roofline analysis for GPUs: Accelerating
	 * performance optimization for the NERSC-9 Perlmutter system",
	 * Concurrency Computat Pract Exper 32(20), e5547, 2020,
	 * doi:10.1002/cpe.5547). On NVIDIA GPUs every global load and store
	 * goes through the L2; only its misses reach device memory. */
	return fmax(bytes / l2_bw, (bytes - l2_bytes) / mem_bw) * 1e6;
}

void rl_l2_init(struct rl_l2 *t, const struct rl_device *d, int predict)
{
	const struct rl_hwval *cap = &d->num[RL_HW_L2_MIB];
	const struct rl_hwval *bw = &d->num[RL_HW_L2_BANDWIDTH_GBS];

	t->capacity = cap->present ? cap->value * 1024 * 1024 : 0;
	t->bandwidth = bw->present ? bw->value * 1e9 : 0;
	t->predict = predict;
	t->prev_out = -1;
}

void rl_l2_kernel(struct rl_l2 *t, const struct rl_model_ctx *ctx, const struct rl_op *op,
                  double out_bytes, struct rl_pred *p)
{
	double prev = t->prev_out, t_dram_us, t_gpu_dram_us, e_gpu_dram_us, kernels;
	const char *note;

	t->prev_out = out_bytes;
	if (!rl_l2_resident(t->capacity, prev, p->bytes, out_bytes, op->count, op->launches))
		return;
	p->l2_resident = 1;
	p->l2_bytes = prev;
	if (!t->predict || t->bandwidth <= 0)
		return;
	t_dram_us = p->t_us;
	t_gpu_dram_us = p->t_gpu_us;
	e_gpu_dram_us = p->expected_gpu_us;
	note = p->expected_note;
	/* The L2 roof is only applied to resident kernels, so it must not make
	 * one slower than the others' DRAM-only roof (an L2 file slower than
	 * the memory would). */
	p->t_memory_us =
	    fmin(p->t_memory_us, rl_l2_memory_us(p->bytes, prev, t->bandwidth, p->bandwidth));
	kernels = p->expected_kernels;
	rl_pred_times_host(p, ctx, p->t_overhead_us, 1); /* the host's cost as predicted */
	p->expected_kernels = kernels; /* the L2 changes their speed, not their number */
	rl_expected_l2(ctx, p, e_gpu_dram_us, t_gpu_dram_us, note);
	if (p->flops > 0)
		p->attainable_flops = fmin(p->peak_flops, p->flops / (p->t_memory_us * 1e-6));
	if (p->roofline_pct > 0 && t_gpu_dram_us > 0)
		p->roofline_pct *= p->t_gpu_us / t_gpu_dram_us;
	p->l2_saved_us = t_dram_us - p->t_us;
}
