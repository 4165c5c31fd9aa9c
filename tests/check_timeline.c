/* check_timeline.c - the host/GPU step simulation: hand-worked steps, the
 * closed form for a run of kernels against a kernel-by-kernel simulation
 * written here independently, graph against stream, and the writers. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include "check.h"
#include "timeline.h"
#include "timeline_report.h"

#define EPS 1e-9

/* A lane alone, for driving rl_tl_lane_run directly. */
static struct rl_tl_lane lane(enum rl_tl_mode mode, double host_us)
{
	struct rl_tl_lane l;
	size_t k;

	memset(&l, 0, sizeof(l));
	l.mode = mode;
	l.host_overhead_us = host_us;
	for (k = 0; k < RL_HOST_KEY_COUNT; k++) /* a collective's (rl_tl_lane_comm) */
		l.host_kind_us[k] = host_us;
	return l;
}

static void finish(struct rl_tl_lane *l)
{
	struct rl_timeline tl;

	rl_timeline_init(&tl);
	tl.nlanes = 1;
	tl.lanes = l;
	rl_timeline_finish(&tl);
}

/* Three ops, 5 us of host time each, 2, 10 and 1 us on the GPU.
 *   kernel 1: issued at 5, GPU free: runs 5-7       (GPU idle 0-5)
 *   kernel 2: issued at 10, GPU free: runs 10-20    (GPU idle 7-10)
 *   kernel 3: issued at 15, GPU busy: runs 20-21    (host waits for nothing)
 * host ends at 15, GPU at 21: step 21, busy 2 + 10 + 1 = 13, idle 5 + 3 = 8,
 * GPU-Util 13 / 21 = 61.905 %. */
START_TEST(test_three_ops)
{
	struct rl_tl_lane l = lane(RL_TL_STREAM, 5);

	rl_tl_lane_run(&l, 1, 2);
	ck_assert_double_eq_tol(l.gpu_end_us, 7, EPS);
	rl_tl_lane_run(&l, 1, 10);
	ck_assert_double_eq_tol(l.gpu_end_us, 20, EPS);
	rl_tl_lane_run(&l, 1, 1);
	finish(&l);
	ck_assert_double_eq_tol(l.host_us, 15, EPS);
	ck_assert_double_eq_tol(l.step_us, 21, EPS);
	ck_assert_double_eq_tol(l.busy_us, 13, EPS);
	ck_assert_double_eq_tol(l.idle_us, 8, EPS);
	ck_assert_double_eq_tol(l.util, 13.0 / 21, EPS);
	ck_assert_double_eq_tol(l.kernels, 3, EPS);
}
END_TEST

/* The same three ops as one CUDA graph at 0.05 us per node: the host pays
 * 3 x 0.05 = 0.15 us, then the kernels run back to back for 13 us: step
 * 13.15, idle 0.15, GPU-Util 13 / 13.15 = 98.859 %. At 5 us per node the
 * graph would cost 15 + 13 = 28 us: a graph only pays off when it is cheap
 * to launch. */
START_TEST(test_three_ops_graph)
{
	struct rl_tl_lane g = lane(RL_TL_GRAPH, 0.05), slow = lane(RL_TL_GRAPH, 5);
	double gpu[] = {2, 10, 1};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gpu); i++) {
		rl_tl_lane_run(&g, 1, gpu[i]);
		rl_tl_lane_run(&slow, 1, gpu[i]);
	}
	finish(&g);
	finish(&slow);
	ck_assert_double_eq_tol(g.step_us, 13.15, EPS);
	ck_assert_double_eq_tol(g.idle_us, 0.15, EPS);
	ck_assert_double_eq_tol(g.util, 13 / 13.15, EPS);
	ck_assert_double_eq_tol(slow.step_us, 28, EPS);
	ck_assert_double_eq_tol(slow.idle_us, 15, EPS);
}
END_TEST

/* A host-bound run, then a GPU-bound one, 5 us of host time per kernel:
 *   4 kernels of 1 us: kernel k issued at 5k, runs 5k to 5k + 1; GPU ends at
 *   21, host at 20.
 *   3 kernels of 10 us: issued at 25, 30, 35; run 25-35, 35-45, 45-55.
 * step 55, busy 4 + 30 = 34, idle 21. */
START_TEST(test_phases)
{
	struct rl_tl_lane l = lane(RL_TL_STREAM, 5);

	rl_tl_lane_run(&l, 4, 1);
	ck_assert_double_eq_tol(l.host_us, 20, EPS);
	ck_assert_double_eq_tol(l.gpu_end_us, 21, EPS);
	rl_tl_lane_run(&l, 3, 10);
	finish(&l);
	ck_assert_double_eq_tol(l.host_us, 35, EPS);
	ck_assert_double_eq_tol(l.step_us, 55, EPS);
	ck_assert_double_eq_tol(l.busy_us, 34, EPS);
	ck_assert_double_eq_tol(l.idle_us, 21, EPS);
}
END_TEST

/* Communication on its own stream (issue 15, item 4), host 1 us a kernel:
 *   compute 100: issued at 1, runs 1-101
 *   overlapped all-reduce 50: issued at 2, starts when the compute before
 *     it is done, 101-151, beside
 *   compute 2 x 100: issued at 3 and 4, runs 101-301
 * step 301: the 50 us hidden, none exposed. */
START_TEST(test_comm_hidden)
{
	struct rl_tl_lane l = lane(RL_TL_STREAM, 1);

	rl_tl_lane_run(&l, 1, 100);
	rl_tl_lane_comm(&l, 1, 50, RL_KIND_ALLREDUCE, 1);
	ck_assert_double_eq_tol(l.comm_end_us, 151, EPS);
	ck_assert_double_eq_tol(l.gpu_end_us, 101, EPS);
	rl_tl_lane_run(&l, 2, 100);
	finish(&l);
	ck_assert_double_eq_tol(l.step_us, 301, EPS);
	ck_assert_double_eq_tol(l.busy_us, 300, EPS);
	ck_assert_double_eq_tol(l.comm_us, 50, EPS);
	ck_assert_double_eq_tol(l.hidden_us, 50, EPS);
	ck_assert_double_eq_tol(l.exposed_us, 0, EPS);
	ck_assert_double_eq_tol(l.stall_us, 0, EPS);
	ck_assert_double_eq_tol(l.kernels, 4, EPS);
}
END_TEST

/* The same with a 300 us all-reduce (101-401), then a blocking all-reduce
 * of 20 issued at 5: the compute stream waits for the stream to drain
 * (301-401: a 100 us stall), then runs it, 401-421. Step 421; 320 us of
 * communication: 20 blocking + 100 stalled exposed, 200 hidden. */
START_TEST(test_comm_stall)
{
	struct rl_tl_lane l = lane(RL_TL_STREAM, 1);

	rl_tl_lane_run(&l, 1, 100);
	rl_tl_lane_comm(&l, 1, 300, RL_KIND_ALLREDUCE, 1);
	rl_tl_lane_run(&l, 2, 100);
	ck_assert_double_eq_tol(l.gpu_end_us, 301, EPS);
	rl_tl_lane_comm(&l, 1, 20, RL_KIND_ALLREDUCE, 0);
	finish(&l);
	ck_assert_double_eq_tol(l.stall_us, 100, EPS);
	ck_assert_double_eq_tol(l.step_us, 421, EPS);
	ck_assert_double_eq_tol(l.busy_us, 320, EPS); /* the blocking one's 20 */
	ck_assert_double_eq_tol(l.idle_us, 101, EPS);
	ck_assert_double_eq_tol(l.comm_us, 320, EPS);
	ck_assert_double_eq_tol(l.overlap_us, 300, EPS);
	ck_assert_double_eq_tol(l.exposed_us, 120, EPS);
	ck_assert_double_eq_tol(l.hidden_us, 200, EPS);
}
END_TEST

/* An overlapped all-reduce with nothing after it: compute 1-101, the
 * all-reduce 101-401 ends the step, all 300 exposed. */
START_TEST(test_comm_tail)
{
	struct rl_tl_lane l = lane(RL_TL_STREAM, 1);

	rl_tl_lane_run(&l, 1, 100);
	rl_tl_lane_comm(&l, 1, 300, RL_KIND_ALLREDUCE, 1);
	finish(&l);
	ck_assert_double_eq_tol(l.step_us, 401, EPS);
	ck_assert_double_eq_tol(l.exposed_us, 300, EPS);
	ck_assert_double_eq_tol(l.hidden_us, 0, EPS);
}
END_TEST

/* In a graph (0.5 us a node, 4 nodes: 2 us of host first): compute 0-100
 * after the launch, the all-reduce 100-150 beside compute 100-300. Step
 * 2 + 300 = 302, the 50 hidden. With a 300 us all-reduce (100-400) and a
 * blocking one of 20 after: a 100 us stall, step 2.5 + 420. */
START_TEST(test_comm_graph)
{
	struct rl_tl_lane l = lane(RL_TL_GRAPH, 0.5);

	rl_tl_lane_run(&l, 1, 100);
	rl_tl_lane_comm(&l, 1, 50, RL_KIND_ALLREDUCE, 1);
	rl_tl_lane_run(&l, 2, 100);
	finish(&l);
	ck_assert_double_eq_tol(l.step_us, 302, EPS);
	ck_assert_double_eq_tol(l.hidden_us, 50, EPS);
	ck_assert_double_eq_tol(l.exposed_us, 0, EPS);

	l = lane(RL_TL_GRAPH, 0.5);
	rl_tl_lane_run(&l, 1, 100);
	rl_tl_lane_comm(&l, 1, 300, RL_KIND_ALLREDUCE, 1);
	rl_tl_lane_run(&l, 2, 100);
	rl_tl_lane_comm(&l, 1, 20, RL_KIND_ALLREDUCE, 0);
	finish(&l);
	ck_assert_double_eq_tol(l.stall_us, 100, EPS);
	ck_assert_double_eq_tol(l.step_us, 422.5, EPS);
	ck_assert_double_eq_tol(l.exposed_us, 120, EPS);
	ck_assert_double_eq_tol(l.hidden_us, 200, EPS);
}
END_TEST

static struct rl_op tl_op(enum rl_kind k, enum rl_phase phase, int overlap)
{
	struct rl_op op;

	rl_op_init(&op);
	op.name = "x";
	op.kind = k;
	op.phase = phase;
	op.overlap = overlap;
	return op;
}

/* Through rl_timeline_add_op: a backward op of 100, its gradients'
 * all-reduce of 300 (overlap=1: 101-401), then the optimizer (10), which
 * needs the reduced gradients: it waits 401 - 101 = 300 and runs 401-411. */
START_TEST(test_optimizer_waits)
{
	struct rl_timeline tl;
	struct rl_op op;
	struct rl_pred p;
	const struct rl_tl_lane *l;

	rl_timeline_init(&tl);
	ck_assert_int_eq(rl_timeline_add_runtime(&tl, "cpp", 1, RL_TL_STREAM, 1), 0);
	memset(&p, 0, sizeof(p));
	op = tl_op(RL_KIND_MATMUL, RL_PHASE_BACKWARD, 0);
	p.expected_gpu_us = 100;
	rl_timeline_add_op(&tl, &op, &p);
	op = tl_op(RL_KIND_ALLREDUCE, RL_PHASE_BACKWARD, 1);
	p.expected_gpu_us = 300;
	rl_timeline_add_op(&tl, &op, &p);
	op = tl_op(RL_KIND_POINTWISE, RL_PHASE_OPTIMIZER, 0);
	p.expected_gpu_us = 10;
	rl_timeline_add_op(&tl, &op, &p);
	rl_timeline_finish(&tl);
	l = &tl.lanes[0];
	ck_assert_double_eq_tol(l->stall_us, 300, EPS);
	ck_assert_double_eq_tol(l->step_us, 411, EPS);
	ck_assert_double_eq_tol(l->exposed_us, 300, EPS);
	ck_assert_double_eq_tol(l->hidden_us, 0, EPS);
	rl_timeline_release(&tl);
}
END_TEST

/* Kernel by kernel, the definition: kernel i starts at max(its issue time,
 * the end of kernel i - 1). */
struct naive {
	double host, gpu_end, busy;
};

static void naive_run(struct naive *s, double h, unsigned n, double g)
{
	unsigned k;

	for (k = 0; k < n; k++) {
		s->host += h;
		s->gpu_end = fmax(s->host, s->gpu_end) + g;
		s->busy += g;
	}
}

/* Runs of (count, GPU us) that mix host- and GPU-bound stretches. */
static const struct {
	unsigned n;
	double g;
} runs[] = {
    {1, 2},     {7, 0.5}, {3, 40},  {1, 3},    {12, 3}, {5, 6.6}, {1, 0.01},
    {20, 1.26}, {2, 100}, {9, 2.9}, {30, 0.1}, {4, 7},  {1, 0},   {6, 0},
};

static const double hosts[] = {0, 0.05, 3, 6.6, 50};

START_TEST(test_closed_form_equals_stepwise)
{
	double h = hosts[_i];
	struct rl_tl_lane l = lane(RL_TL_STREAM, h);
	struct naive s = {0, 0, 0};
	double sum_max = 0;
	size_t r;

	for (r = 0; r < ARRAY_SIZE(runs); r++) {
		rl_tl_lane_run(&l, runs[r].n, runs[r].g);
		naive_run(&s, h, runs[r].n, runs[r].g);
		ck_assert_msg(fabs(l.gpu_end_us - s.gpu_end) < 1e-9 * fmax(1, s.gpu_end),
		              "host %g, after run %zu: closed form %.12g, stepwise %.12g", h, r,
		              l.gpu_end_us, s.gpu_end);
		ck_assert_double_eq_tol(l.host_us, s.host, 1e-9 * fmax(1, s.host));
		ck_assert_double_eq_tol(l.busy_us, s.busy, 1e-9 * fmax(1, s.busy));
		/* Bounds of docs/timeline.md: max(host, busy) <= step <= the sum
		 * of max(h, g) per kernel (the summary's total) + h. */
		sum_max += runs[r].n * fmax(h, runs[r].g);
		ck_assert(s.gpu_end >= fmax(s.host, s.busy) - 1e-9);
		ck_assert(fmax(s.host, s.gpu_end) <= sum_max + h + 1e-9);
	}
}
END_TEST

/* An op of count 3 with 2 launches and t_gpu 8 us is 6 kernels of 4 us. At
 * 1 us of host time each, kernel k is issued at k; kernel 1 runs 1-5 and the
 * GPU stays busy from then on: it ends at 1 + 6 x 4 = 25, the host at 6.
 * step 25, busy 24, idle 1. */
START_TEST(test_count_and_launches)
{
	struct rl_timeline tl;
	struct rl_op op;
	struct rl_pred p;

	rl_timeline_init(&tl);
	ck_assert_int_eq(rl_timeline_add_runtime(&tl, "x", 1, RL_TL_STREAM, 1), 0);
	rl_op_init(&op);
	op.count = 3;
	op.launches = 2;
	memset(&p, 0, sizeof(p));
	p.expected_gpu_us = 8;
	rl_timeline_add_op(&tl, &op, &p);
	rl_timeline_finish(&tl);
	ck_assert_double_eq_tol(tl.lanes[0].kernels, 6, EPS);
	ck_assert_double_eq_tol(tl.lanes[0].host_us, 6, EPS);
	ck_assert_double_eq_tol(tl.lanes[0].step_us, 25, EPS);
	ck_assert_double_eq_tol(tl.lanes[0].busy_us, 24, EPS);
	ck_assert_double_eq_tol(tl.lanes[0].idle_us, 1, EPS);
	rl_timeline_release(&tl);
}
END_TEST

/* The recorded lane takes each op's host_us, spread over its launches, and
 * the lane's own cost for ops without one. Op A: host_us 10, 2 launches,
 * t_gpu 4 (2 per kernel); op B: no host_us (3 us), t_gpu 1.
 *   A1 issued at 5, runs 5-7; A2 issued at 10, runs 10-12;
 *   B issued at 13, runs 13-14: step 14, busy 5, idle 9, GPU-Util 5/14.
 * An eager lane at 3 us beside it: issued 3, 6, 9; runs 3-5, 6-8, 9-10. */
START_TEST(test_recorded_host)
{
	struct rl_timeline tl;
	struct rl_op op;
	struct rl_pred p;

	rl_timeline_init(&tl);
	ck_assert_int_eq(rl_timeline_add_runtime(&tl, RL_TL_RECORDED_ID, 3, RL_TL_RECORDED, 0), 0);
	ck_assert_int_eq(rl_timeline_add_runtime(&tl, "eager", 3, RL_TL_STREAM, 1), 0);
	rl_op_init(&op);
	memset(&p, 0, sizeof(p));
	op.launches = 2;
	op.host_us = 10;
	op.has |= RL_HAS_HOST;
	p.expected_gpu_us = 4;
	rl_timeline_add_op(&tl, &op, &p);
	rl_op_init(&op);
	p.expected_gpu_us = 1;
	rl_timeline_add_op(&tl, &op, &p);
	rl_timeline_finish(&tl);
	ck_assert_double_eq_tol(tl.lanes[0].host_us, 13, EPS);
	ck_assert_double_eq_tol(tl.lanes[0].step_us, 14, EPS);
	ck_assert_double_eq_tol(tl.lanes[0].busy_us, 5, EPS);
	ck_assert_double_eq_tol(tl.lanes[0].idle_us, 9, EPS);
	ck_assert_double_eq_tol(tl.lanes[0].util, 5.0 / 14, EPS);
	ck_assert_double_eq_tol(tl.lanes[1].step_us, 10, EPS);
	rl_timeline_release(&tl);
}
END_TEST

/* Lanes are simulated side by side on the same ops. Ten kernels of 2 us and
 * one of 20 us:
 *   eager, 6.6 us: the host issues the tenth small kernel at 66, it ends at
 *     68; the big one is issued at 72.6 and ends at 92.6. busy 40, idle 52.6.
 *   graph, 0.05 us per node: 11 x 0.05 = 0.55 us of host, then 40 us. */
START_TEST(test_lanes_side_by_side)
{
	struct rl_timeline tl;
	struct rl_op op;
	struct rl_pred p;

	rl_timeline_init(&tl);
	ck_assert_int_eq(rl_timeline_add_runtime(&tl, "eager", 6.6, RL_TL_STREAM, 1), 0);
	ck_assert_int_eq(rl_timeline_add_runtime(&tl, "graph", 0.05, rl_tl_mode_of("graph"), 0), 0);
	ck_assert_int_eq(rl_tl_mode_of("cpp"), RL_TL_STREAM);
	ck_assert_ptr_eq(rl_timeline_graph_lane(&tl), &tl.lanes[1]);
	rl_op_init(&op);
	memset(&p, 0, sizeof(p));
	op.count = 10;
	p.expected_gpu_us = 2;
	rl_timeline_add_op(&tl, &op, &p);
	op.count = 1;
	p.expected_gpu_us = 20;
	rl_timeline_add_op(&tl, &op, &p);
	rl_timeline_finish(&tl);
	ck_assert_double_eq_tol(tl.lanes[0].step_us, 92.6, EPS);
	ck_assert_double_eq_tol(tl.lanes[0].idle_us, 52.6, EPS);
	ck_assert_double_eq_tol(tl.lanes[1].step_us, 40.55, EPS);
	ck_assert_double_eq_tol(tl.lanes[1].idle_us, 0.55, EPS);
	ck_assert_int_eq(tl.lanes[0].selected, 1);
	ck_assert_int_eq(tl.lanes[1].selected, 0);
	rl_timeline_release(&tl);
}
END_TEST

/* Issue 12: each lane's host cost follows the op's kind. The runtimes of
 * tests/data/hwdb-kinds: eager 5 us per kernel, 12 for a matmul; graph 0.05
 * whatever the kind. A matmul and then a pointwise op, 1 us of GPU each:
 *   eager: the matmul issued at 12 runs 12-13, the add issued at 12 + 5 = 17
 *     runs 17-18: a step of 18 us, 16 of them idle;
 *   graph: 2 x 0.05 us of host, then 2 us of kernels: 2.1 us.
 * With the eager lane's cost overridden to 3 us for every kind (the
 * selected runtime with --host-overhead-us 3): 3-4, 6-7, a step of 7 us. */
START_TEST(test_host_per_kind)
{
	struct rl_timeline tl;
	struct rl_op mm, add;
	struct rl_pred p;
	struct rl_err err;
	rl_hwdb *db;
	const struct rl_runtime *eager, *graph;

	ck_assert_msg(rl_hwdb_open(RL_TEST_DATA "/hwdb-kinds", &db, &err) == 0, "%s", err.msg);
	eager = rl_hwdb_find_runtime(db, "eager", &err);
	graph = rl_hwdb_find_runtime(db, "graph", &err);
	ck_assert_ptr_nonnull(eager);
	ck_assert_ptr_nonnull(graph);
	rl_op_init(&mm);
	mm.kind = RL_KIND_MATMUL;
	rl_op_init(&add);
	add.kind = RL_KIND_POINTWISE;
	memset(&p, 0, sizeof(p));
	p.t_gpu_us = p.expected_gpu_us = 1;

	rl_timeline_init(&tl);
	ck_assert_int_eq(rl_timeline_add_runtimes(&tl, db, graph, 0.05, NULL), 0);
	ck_assert_uint_eq(tl.nlanes, 2);
	ck_assert_str_eq(tl.lanes[0].runtime, "eager");
	rl_timeline_add_op(&tl, &mm, &p);
	rl_timeline_add_op(&tl, &add, &p);
	rl_timeline_finish(&tl);
	ck_assert_double_eq_tol(tl.lanes[0].host_us, 17, EPS);
	ck_assert_double_eq_tol(tl.lanes[0].step_us, 18, EPS);
	ck_assert_double_eq_tol(tl.lanes[0].idle_us, 16, EPS);
	ck_assert_double_eq_tol(tl.lanes[1].step_us, 2.1, EPS);
	rl_timeline_release(&tl);

	rl_timeline_init(&tl);
	ck_assert_int_eq(rl_timeline_add_runtimes(&tl, db, eager, 3, NULL), 0);
	rl_timeline_add_op(&tl, &mm, &p);
	rl_timeline_add_op(&tl, &add, &p);
	rl_timeline_finish(&tl);
	ck_assert_double_eq_tol(tl.lanes[0].step_us, 7, EPS);
	rl_timeline_release(&tl);

	/* a fusion group's kernel pays what a pointwise one does: 5 us */
	rl_timeline_init(&tl);
	ck_assert_int_eq(rl_timeline_add_runtimes(&tl, db, graph, 0.05, NULL), 0);
	add.kind = RL_KIND_FUSED;
	rl_timeline_add_op(&tl, &add, &p);
	rl_timeline_finish(&tl);
	ck_assert_double_eq_tol(tl.lanes[0].step_us, 6, EPS);
	rl_timeline_release(&tl);
	rl_hwdb_free(db);
}
END_TEST

/* An empty step has no GPU-Util (0, not a division by zero). */
START_TEST(test_empty_step)
{
	struct rl_timeline tl;

	rl_timeline_init(&tl);
	ck_assert_int_eq(rl_timeline_add_runtime(&tl, "eager", 6.6, RL_TL_STREAM, 1), 0);
	rl_timeline_finish(&tl);
	ck_assert_double_eq_tol(tl.lanes[0].step_us, 0, EPS);
	ck_assert_double_eq_tol(tl.lanes[0].util, 0, EPS);
	rl_timeline_release(&tl);
	rl_timeline_release(NULL);
}
END_TEST

START_TEST(test_measured_range)
{
	struct rl_timeline tl;

	rl_timeline_init(&tl);
	ck_assert_int_eq(rl_timeline_set_measured(&tl, 10, 11), RL_ERR_RANGE);
	ck_assert_int_eq(rl_timeline_set_measured(&tl, -1, 0), RL_ERR_RANGE);
	ck_assert_int_eq(rl_timeline_set_measured(&tl, NAN, 0), RL_ERR_RANGE);
	ck_assert_int_eq(tl.measured.present, 0);
	ck_assert_int_eq(rl_timeline_set_measured(&tl, 10000, 1900), 0);
	ck_assert_int_eq(tl.measured.present, 1);
	rl_timeline_release(&tl);
}
END_TEST

/* The three-op step of test_three_ops in eager (5 us) and as a graph
 * (0.05 us per node), with a measured step of 40 us, 10 of them busy. */
static void three_op_timeline(struct rl_timeline *tl)
{
	double gpu[] = {2, 10, 1};
	size_t i, k;

	rl_timeline_init(tl);
	ck_assert_int_eq(rl_timeline_add_runtime(tl, "eager", 5, RL_TL_STREAM, 1), 0);
	ck_assert_int_eq(rl_timeline_add_runtime(tl, "graph", 0.05, RL_TL_GRAPH, 0), 0);
	for (i = 0; i < ARRAY_SIZE(gpu); i++)
		for (k = 0; k < tl->nlanes; k++)
			rl_tl_lane_run(&tl->lanes[k], 1, gpu[i]);
	rl_timeline_finish(tl);
	ck_assert_int_eq(rl_timeline_set_measured(tl, 40, 10), 0);
}

static char *write_text(int md, int *rc)
{
	struct rl_timeline tl;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	three_op_timeline(&tl);
	*rc = rl_timeline_write(out, md, &tl);
	fclose(out);
	rl_timeline_release(&tl);
	return buf;
}

/* Rows carry the hand-worked figures: eager 21 / 13 / 8 us, 61.9 %; graph
 * 13.15 / 13 / 0.15 us, 98.9 %; measured 40 / 10 / 30 us, 25.0 %; and the
 * graph saves (13.15 - 21) / 21 = -37.4 %. Every line fits 80 columns. */
START_TEST(test_write_table)
{
	int rc;
	char *t = write_text(0, &rc), *line, *save = NULL;

	ck_assert_int_eq(rc, 0);
	ck_assert_msg(strstr(t, "\neager           5.00 us        21.00        13.00         8.00"
	                        "    61.9 %\n") != NULL,
	              "%s", t);
	ck_assert_msg(strstr(t, "\ngraph           0.05 us        13.15        13.00         0.15"
	                        "    98.9 %\n") != NULL,
	              "%s", t);
	ck_assert_msg(strstr(t, "\nmeasured              -        40.00        10.00        30.00"
	                        "    25.0 %\n") != NULL,
	              "%s", t);
	ck_assert_msg(strstr(t, "as one CUDA graph: 13.15 us per step instead of 21.00 us in eager "
	                        "(-37.4 %)\n") != NULL,
	              "%s", t);
	for (line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		ck_assert_msg(strlen(line) <= 80, "over 80 columns: %s", line);
	free(t);

	t = write_text(1, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_msg(strstr(t, "\n| eager | 5.00 us | 21.00 | 13.00 | 8.00 | 61.9 % |\n") != NULL,
	              "%s", t);
	ck_assert_msg(strstr(t, "\n| measured | - | 40.00 | 10.00 | 30.00 | 25.0 % |\n") != NULL,
	              "%s", t);
	free(t);
}
END_TEST

/* Bug 3 of issue 11: the host column of a runtime costing 1e25 us per
 * launch overran its 32-byte buffer. Past a second it is scientific like
 * the other times: 1e25 -> "1.000e+25 us"; the step is 3 x 1e25 us of host
 * time plus one GPU kernel's end, 3.000e+25. Any double keeps the row
 * whole. */
START_TEST(test_write_huge_host)
{
	static const double host[] = {1e25, 1e300, DBL_MAX, -DBL_MAX, 1e6};
	static const char *const want[] = {"1.000e+25 us", "1.000e+300 us", "1.798e+308 us", " us ",
	                                   "1.000e+06 us"};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(host); i++) {
		struct rl_timeline tl;
		char *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);

		rl_timeline_init(&tl);
		ck_assert_int_eq(rl_timeline_add_runtime(&tl, "eager", host[i], RL_TL_STREAM, 1),
		                 0);
		rl_tl_lane_run(&tl.lanes[0], 3, 1);
		rl_timeline_finish(&tl);
		ck_assert_int_eq(rl_timeline_write(out, 0, &tl), 0);
		fclose(out);
		ck_assert_msg(strstr(buf, want[i]) != NULL, "host %g: %s", host[i], buf);
		if (i == 0)
			ck_assert_msg(strstr(buf, " 3.000e+25 ") != NULL, "%s", buf);
		free(buf);
		rl_timeline_release(&tl);
	}
}
END_TEST

static double jnum(yajl_val root, const char **path)
{
	yajl_val v = yajl_tree_get(root, path, yajl_t_number);

	ck_assert_msg(v != NULL, "no number at %s/%s/%s", path[0], path[1] ? path[1] : "",
	              path[1] && path[2] ? path[2] : "");
	return YAJL_GET_DOUBLE(v);
}

START_TEST(test_write_json)
{
	struct rl_timeline tl;
	yajl_gen g = yajl_gen_alloc(NULL);
	const unsigned char *buf;
	size_t len;
	char *text, errbuf[256];
	yajl_val root, v;
	const char *step[] = {"runtimes", "eager", "step_us", NULL};
	const char *util[] = {"runtimes", "graph", "gpu_util", NULL};
	const char *idle[] = {"runtimes", "eager", "gpu_idle_us", NULL};
	const char *mode[] = {"runtimes", "graph", "mode", NULL};
	const char *sel[] = {"runtimes", "eager", "selected", NULL};
	const char *mstep[] = {"measured", "step_us", NULL};
	const char *mutil[] = {"measured", "gpu_util", NULL};

	three_op_timeline(&tl);
	rl_timeline_json(g, &tl);
	ck_assert_int_eq(yajl_gen_get_buf(g, &buf, &len), yajl_gen_status_ok);
	text = strndup((const char *)buf, len);
	root = yajl_tree_parse(text, errbuf, sizeof(errbuf));
	ck_assert_msg(root != NULL, "%s: %s", errbuf, text);
	ck_assert_double_eq_tol(jnum(root, step), 21, 1e-6);
	ck_assert_double_eq_tol(jnum(root, idle), 8, 1e-6);
	ck_assert_double_eq_tol(jnum(root, util), 13 / 13.15, 1e-5);
	ck_assert_double_eq_tol(jnum(root, mstep), 40, 1e-6);
	ck_assert_double_eq_tol(jnum(root, mutil), 0.25, 1e-6);
	v = yajl_tree_get(root, mode, yajl_t_string);
	ck_assert_str_eq(YAJL_GET_STRING(v), "graph");
	v = yajl_tree_get(root, sel, yajl_t_true);
	ck_assert_ptr_nonnull(v);
	yajl_tree_free(root);
	free(text);
	yajl_gen_free(g);
	rl_timeline_release(&tl);
}
END_TEST

Suite *suite_timeline(void)
{
	Suite *s = suite_create("timeline");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_three_ops);
	tcase_add_test(tc, test_three_ops_graph);
	tcase_add_test(tc, test_phases);
	tcase_add_loop_test(tc, test_closed_form_equals_stepwise, 0, (int)ARRAY_SIZE(hosts));
	tcase_add_test(tc, test_count_and_launches);
	tcase_add_test(tc, test_lanes_side_by_side);
	tcase_add_test(tc, test_recorded_host);
	tcase_add_test(tc, test_empty_step);
	tcase_add_test(tc, test_host_per_kind);
	tcase_add_test(tc, test_measured_range);
	tcase_add_test(tc, test_write_table);
	tcase_add_test(tc, test_write_huge_host);
	tcase_add_test(tc, test_write_json);
	tcase_add_test(tc, test_comm_hidden);
	tcase_add_test(tc, test_comm_stall);
	tcase_add_test(tc, test_comm_tail);
	tcase_add_test(tc, test_comm_graph);
	tcase_add_test(tc, test_optimizer_waits);
	suite_add_tcase(s, tc);
	return s;
}
