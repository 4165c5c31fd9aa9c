/* timeline.h - the host and the GPU of one step, op by op, per runtime.
 *
 * Simulates an op list in file order on two clocks: the host issues each
 * kernel after paying the runtime's host overhead, and the GPU runs it once it
 * is issued and the previous kernel has finished, so the host runs ahead while
 * the GPU is the slower side and the GPU idles while the host is. Several
 * runtimes (eager, graph, cpp) are simulated side by side in one pass, in
 * constant memory: a run of identical kernels (an op's count x launches) is
 * advanced in closed form. The result is the predicted step time, GPU busy and
 * idle time and GPU-Util (the kernel-busy share of the step) per runtime, with
 * room for a measured step beside them (report on an imported trace).
 * Collectives run on a third clock, the communication stream: a collective
 * with overlap=1 (a gradient all-reduce) runs there beside the compute
 * kernels after the ops before it, and nothing waits for it until the next
 * blocking collective or the end of the step; any other collective blocks:
 * the compute stream waits for the communication stream, then for it. The
 * lanes say how much communication was hidden and how much exposed.
 * docs/timeline.md has the model. Pure functions: no I/O.
 */
#ifndef RL_TIMELINE_H
#define RL_TIMELINE_H

#include <stddef.h>

#include "hwdb.h"
#include "model.h"
#include "op.h"

/* How a runtime issues kernels. */
enum rl_tl_mode {
	RL_TL_STREAM, /* one host call per kernel (eager, cpp): the host runs ahead */
	RL_TL_GRAPH,  /* the whole step is one CUDA graph launch, issued up front */
	RL_TL_RECORDED, /* as a stream, but each op's host time is the one its
	                 * trace recorded (host_us, spread over its launches);
	                 * ops without it cost host_overhead_us per launch */
};

/* One runtime's lane: its host cost and its two clocks. Times in us from the
 * start of the step. */
struct rl_tl_lane {
	char *runtime; /* runtime id (owned) */
	enum rl_tl_mode mode;
	int selected;            /* 1 for the runtime the report is for */
	double host_overhead_us; /* host cost per kernel (graph: per node) */
	double host_kind_us[RL_HOST_KEY_COUNT]; /* the same for a kernel of each
	                                         * host key (op kind or path,
	                                         * op.h): the runtime's costs,
	                                         * else host_overhead_us */
	double kernels;          /* kernels issued so far */
	double host_us;          /* host clock: when the last kernel was issued */
	double gpu_end_us;       /* GPU clock: when the last kernel ends */
	double busy_us;          /* sum of kernel times on the compute stream
	                          * (a blocking collective's among them) */
	double comm_us;          /* sum of collective times, both kinds */
	double overlap_us;       /* of which overlap=1 (not in busy_us) */
	double comm_end_us;      /* communication stream clock (graph: from the
	                          * start of the GPU's work) */
	double stall_us;         /* the compute stream waiting for overlapped
	                          * collectives before a blocking one */
	/* set by rl_timeline_finish: */
	double step_us; /* max(host, GPU end, communication end) */
	double idle_us; /* step - busy */
	double util;    /* busy / step, 0 to 1 (0 for an empty step) */
	double exposed_us; /* communication the step waits for: the blocking
	                    * collectives, the stalls and the overlapped tail
	                    * past the last compute */
	double hidden_us;  /* comm_us - exposed_us: under compute */
};

/* What a trace measured for the same step, to print beside the prediction. */
struct rl_tl_measured {
	int present;
	double step_us;     /* wall time of one step */
	double gpu_busy_us; /* time at least one kernel ran */
};

struct rl_timeline {
	size_t nlanes;
	struct rl_tl_lane *lanes;
	struct rl_tl_measured measured;
};

void rl_timeline_init(struct rl_timeline *tl);
void rl_timeline_release(struct rl_timeline *tl);

/* The mode of runtime ID: RL_TL_GRAPH for "graph", else RL_TL_STREAM. */
enum rl_tl_mode rl_tl_mode_of(const char *id);

/* Adds a lane for runtime ID (copied) at HOST_OVERHEAD_US per kernel of
 * every kind (rl_tl_lane_kinds sets them apart), in MODE. SELECTED nonzero
 * marks it as the report's own runtime. Lanes keep the order they were added
 * in. Returns 0 or RL_ERR_NOMEM. */
int rl_timeline_add_runtime(struct rl_timeline *tl, const char *id, double host_overhead_us,
                            enum rl_tl_mode mode, int selected);

/* The id of the RL_TL_RECORDED lane. */
#define RL_TL_RECORDED_ID "recorded"

/* Sets LANE's host cost per kernel of each host key to KIND_US[key]
 * (RL_HOST_KEY_COUNT values; NULL leaves them); a fusion group's kernel costs
 * what a pointwise one does. */
void rl_tl_lane_kinds(struct rl_tl_lane *lane, const double *kind_us);

/* Adds a lane per runtime profile of DB, in database order, and one for
 * SELECTED last when it is not one of DB's (a --runtime FILE); SELECTED is
 * the report's own runtime and costs SELECTED_HOST_US per kernel,
 * SELECTED_KIND_US[kind] per kernel of each op kind (NULL: SELECTED_HOST_US
 * for all; --host-overhead-us may override its profile), the others their
 * profile's figures, per kind (rl_runtime_host_us). Returns 0 or
 * RL_ERR_NOMEM. */
int rl_timeline_add_runtimes(struct rl_timeline *tl, const rl_hwdb *db,
                             const struct rl_runtime *selected, double selected_host_us,
                             const double *selected_kind_us);

/* Advances LANE by N identical kernels of GPU_US each (N >= 0, not
 * necessarily whole: a count is a double). Exact, in closed form: see
 * docs/timeline.md. */
void rl_tl_lane_run(struct rl_tl_lane *lane, double n, double gpu_us);

/* Advances LANE by N identical collective kernels of GPU_US each, at the
 * lane's host cost of KIND: with OVERLAP on the communication stream
 * (after the compute before them and the collectives before them), else
 * blocking the compute stream (docs/timeline.md). */
void rl_tl_lane_comm(struct rl_tl_lane *lane, double n, double gpu_us, enum rl_kind kind,
                     int overlap);

/* Advances every lane by one op: count x launches kernels, each taking
 * t_gpu_us / launches on the GPU (P from rl_predict; its GPU side does not
 * depend on the runtime) and the lane's host cost of OP's kind; a
 * collective as rl_tl_lane_comm. */
void rl_timeline_add_op(struct rl_timeline *tl, const struct rl_op *op, const struct rl_pred *p);

/* Closes the step: sets every lane's step_us, idle_us and util. */
void rl_timeline_finish(struct rl_timeline *tl);

/* Records a measured step of STEP_US with the GPU busy for GPU_BUSY_US, for
 * the writers to print beside the prediction. Returns 0, or RL_ERR_RANGE when
 * a value is negative or not finite, or busy exceeds the step. */
int rl_timeline_set_measured(struct rl_timeline *tl, double step_us, double gpu_busy_us);

/* The lane of the graph runtime, or NULL. */
const struct rl_tl_lane *rl_timeline_graph_lane(const struct rl_timeline *tl);

#endif
