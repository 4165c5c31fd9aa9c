/* timeline.c - the host/GPU step simulation (see timeline.h, docs/timeline.md). */
#include "config.h"

#include "timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

void rl_timeline_init(struct rl_timeline *tl)
{
	memset(tl, 0, sizeof(*tl));
}

void rl_timeline_release(struct rl_timeline *tl)
{
	size_t i;

	if (tl == NULL)
		return;
	for (i = 0; i < tl->nlanes; i++)
		free(tl->lanes[i].runtime);
	free(tl->lanes);
	rl_timeline_init(tl);
}

enum rl_tl_mode rl_tl_mode_of(const char *id)
{
	return strcmp(id, "graph") == 0 ? RL_TL_GRAPH : RL_TL_STREAM;
}

int rl_timeline_add_runtime(struct rl_timeline *tl, const char *id, double host_overhead_us,
                            enum rl_tl_mode mode, int selected)
{
	struct rl_tl_lane *lanes, *l;
	char *name = strdup(id);
	size_t k;

	lanes = name ? realloc(tl->lanes, (tl->nlanes + 1) * sizeof(*lanes)) : NULL;
	if (lanes == NULL) {
		free(name);
		return RL_ERR_NOMEM;
	}
	tl->lanes = lanes;
	l = &lanes[tl->nlanes++];
	memset(l, 0, sizeof(*l));
	l->runtime = name;
	l->mode = mode;
	l->host_overhead_us = host_overhead_us;
	for (k = 0; k < RL_HOST_KEY_COUNT; k++)
		l->host_kind_us[k] = host_overhead_us;
	l->selected = selected != 0;
	return 0;
}

void rl_tl_lane_kinds(struct rl_tl_lane *l, const double *kind_us)
{
	size_t k;

	for (k = 0; kind_us != NULL && k < RL_HOST_KEY_COUNT; k++)
		l->host_kind_us[k] = kind_us[k];
	if (kind_us != NULL)
		l->host_kind_us[RL_KIND_FUSED] = kind_us[RL_KIND_POINTWISE];
}

int rl_timeline_add_runtimes(struct rl_timeline *tl, const rl_hwdb *db,
                             const struct rl_runtime *selected, double selected_host_us,
                             const double *selected_kind_us)
{
	double kind_us[RL_HOST_KEY_COUNT];
	size_t i;
	int k;

	for (i = 0; i < rl_hwdb_runtime_count(db); i++) {
		const struct rl_runtime *r = rl_hwdb_runtime(db, i);
		int rc = rl_timeline_add_runtime(tl, r->id,
		                                 r == selected ? selected_host_us
		                                               : r->host_overhead_us.value,
		                                 rl_tl_mode_of(r->id), r == selected);

		if (rc < 0)
			return rc;
		for (k = 0; k < RL_HOST_KEY_COUNT; k++)
			kind_us[k] = rl_runtime_host_us(r, k);
		rl_tl_lane_kinds(&tl->lanes[tl->nlanes - 1],
		                 r == selected ? selected_kind_us : kind_us);
	}
	/* a profile read from a file (--runtime FILE), not one of DB's: last */
	for (i = 0; selected != NULL && i < rl_hwdb_runtime_count(db); i++)
		if (rl_hwdb_runtime(db, i) == selected)
			return 0;
	if (selected != NULL) {
		int rc = rl_timeline_add_runtime(tl, selected->id, selected_host_us,
		                                 rl_tl_mode_of(selected->id), 1);

		if (rc < 0)
			return rc;
		rl_tl_lane_kinds(&tl->lanes[tl->nlanes - 1], selected_kind_us);
	}
	return 0;
}

/* rl_tl_lane_run with a host cost of H per kernel. */
static void lane_run(struct rl_tl_lane *l, double n, double g, double h)
{
	double h0 = l->host_us;

	if (n <= 0)
		return;
	l->kernels += n;
	l->host_us += n * h;
	l->busy_us += n * g;
	if (l->mode == RL_TL_GRAPH) {
		/* One graph launch: the host pays for every node before the GPU
		 * starts, then the nodes run back to back (and wait for the
		 * communication stream where a blocking collective does). */
		l->gpu_end_us = l->host_us + l->busy_us + l->stall_us;
		return;
	}
	/* Kernel k of the run (k = 1..n) is issued at I_k = h0 + k h and ends at
	 * E_k = max(I_k, E_(k-1)) + g. Unrolled, E_n = max(E_0 + n g,
	 * max over k of I_k + (n - k + 1) g); the second term is linear in k, so
	 * its maximum is at k = 1 (h0 + h + n g: the GPU is the slower side) or
	 * k = n (h0 + n h + g: the host is). */
	l->gpu_end_us = fmax(l->gpu_end_us + n * g, fmax(h0 + h + n * g, h0 + n * h + g));
}

void rl_tl_lane_run(struct rl_tl_lane *l, double n, double g)
{
	lane_run(l, n, g, l->host_overhead_us);
}

/* The compute stream waits for the communication stream before a kernel
 * issued at host cost H: WAIT is how long it stalls. */
static void lane_sync(struct rl_tl_lane *l, double h)
{
	double wait;

	if (l->mode == RL_TL_GRAPH) {
		wait = fmax(l->comm_end_us - (l->busy_us + l->stall_us), 0);
	} else {
		wait = fmax(l->comm_end_us - fmax(l->gpu_end_us, l->host_us + h), 0);
		l->gpu_end_us = fmax(l->gpu_end_us, l->comm_end_us);
	}
	l->stall_us += wait;
}

/* A collective: N kernels of G, host cost H each. */
static void lane_comm(struct rl_tl_lane *l, double n, double g, double h, int overlap)
{
	int graph = l->mode == RL_TL_GRAPH;
	double h0 = l->host_us;

	if (n <= 0)
		return;
	l->comm_us += n * g;
	if (!overlap) {
		/* The op after it needs its result: it runs on the compute
		 * stream's path, once the communication stream has finished
		 * what it holds (one NCCL stream runs its collectives in
		 * order). In a graph the clocks count from the GPU's start. */
		lane_sync(l, h);
		lane_run(l, n, g, h);
		l->comm_end_us = graph ? l->busy_us + l->stall_us : l->gpu_end_us;
		return;
	}
	/* On the communication stream: it starts once the compute before it
	 * has produced its input (the gradients) and the stream is free, and
	 * no compute waits for it. The run in closed form as lane_run's. */
	l->kernels += n;
	l->host_us += n * h;
	l->overlap_us += n * g;
	if (graph) {
		l->comm_end_us = fmax(l->comm_end_us, l->busy_us + l->stall_us) + n * g;
		l->gpu_end_us = l->host_us + l->busy_us + l->stall_us;
		return;
	}
	l->comm_end_us =
	    fmax(fmax(l->comm_end_us, l->gpu_end_us) + n * g, fmax(h0 + h + n * g, h0 + n * h + g));
}

void rl_tl_lane_comm(struct rl_tl_lane *l, double n, double g, enum rl_kind kind, int overlap)
{
	lane_comm(l, n, g, l->host_kind_us[kind], overlap);
}

void rl_timeline_add_op(struct rl_timeline *tl, const struct rl_op *op, const struct rl_pred *p)
{
	double launches = (double)op->launches;
	double n = (double)op->count * launches;
	size_t i;

	/* expected_gpu_us (the roofline's t_gpu_us with --best-case) covers the
	 * op's launches together (launch floor included): each kernel gets an
	 * equal share. */
	for (i = 0; i < tl->nlanes; i++) {
		struct rl_tl_lane *l = &tl->lanes[i];
		double h = l->host_kind_us[rl_op_host_key(op)];

		if (l->mode == RL_TL_RECORDED && (op->has & RL_HAS_HOST))
			h = op->host_us / launches;
		if (rl_kind_is_collective(op->kind)) {
			lane_comm(l, n, p->expected_gpu_us / launches, h, op->overlap);
			continue;
		}
		/* the optimizer updates the reduced gradients: DDP waits for its
		 * last bucket at the end of backward */
		if (op->phase == RL_PHASE_OPTIMIZER)
			lane_sync(l, h);
		lane_run(l, n, p->expected_gpu_us / launches, h);
	}
}

void rl_timeline_finish(struct rl_timeline *tl)
{
	size_t i;

	for (i = 0; i < tl->nlanes; i++) {
		struct rl_tl_lane *l = &tl->lanes[i];

		double comm_end = l->comm_end_us, tail;

		if (l->mode == RL_TL_GRAPH && l->comm_us > 0) {
			l->gpu_end_us = l->host_us + l->busy_us + l->stall_us;
			comm_end += l->host_us;
		}
		l->step_us = fmax(fmax(l->host_us, l->gpu_end_us), comm_end);
		l->idle_us = fmax(l->step_us - l->busy_us, 0);
		l->util = l->step_us > 0 ? l->busy_us / l->step_us : 0;
		/* the overlapped collectives still running when the rest ends */
		tail = fmax(comm_end - fmax(l->host_us, l->gpu_end_us), 0);
		l->exposed_us = fmin(l->comm_us - l->overlap_us + l->stall_us + tail, l->comm_us);
		l->hidden_us = l->comm_us - l->exposed_us;
	}
}

int rl_timeline_set_measured(struct rl_timeline *tl, double step_us, double gpu_busy_us)
{
	if (!isfinite(step_us) || !isfinite(gpu_busy_us) || step_us < 0 || gpu_busy_us < 0 ||
	    gpu_busy_us > step_us)
		return RL_ERR_RANGE;
	tl->measured.present = 1;
	tl->measured.step_us = step_us;
	tl->measured.gpu_busy_us = gpu_busy_us;
	return 0;
}

const struct rl_tl_lane *rl_timeline_graph_lane(const struct rl_timeline *tl)
{
	size_t i;

	for (i = 0; i < tl->nlanes; i++)
		if (tl->lanes[i].mode == RL_TL_GRAPH)
			return &tl->lanes[i];
	return NULL;
}
