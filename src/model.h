/* model.h - the roofline model: where one operator's time goes.
 *
 * For each op: FLOPs and bytes (formulas.h), the pipe that does its math and
 * that pipe's peak, and three candidate times. t_compute = flops / peak;
 * t_memory = bytes / bandwidth; t_overhead = launches x host overhead of the
 * runtime. The GPU cannot finish a kernel faster than min_kernel_us, so
 * t_gpu = max(t_compute, t_memory, launches x min_kernel_us), and because the
 * host runs ahead asynchronously, t = max(t_gpu, t_overhead). The op is bound
 * by the largest of compute, memory and overhead (launch floor included).
 * Ties: overhead wins a tie with either (the op's own work hides under the
 * host or launch time, so no kernel tuning would help), and memory wins a tie
 * with compute.
 * Pure functions: no I/O, no globals.
 */
#ifndef RL_MODEL_H
#define RL_MODEL_H

#include "err.h"
#include "hwdb.h"
#include "op.h"

enum rl_bound {
	RL_BOUND_COMPUTE,
	RL_BOUND_MEMORY,
	RL_BOUND_OVERHEAD,
	RL_BOUND_COUNT
};

/* What the model needs besides the op: the device and the host cost. */
struct rl_effprof;

struct rl_model_ctx {
	const struct rl_device *dev;
	double host_overhead_us;     /* per launched kernel: the default */
	const double *host_kind_us;  /* [RL_KIND_COUNT]: per launched kernel of each
	                              * kind; NULL: host_overhead_us for every kind */
	const struct rl_effprof *eff; /* the efficiency profile of the expected
	                               * times (effprof.h); NULL: first principles
	                               * only */
	int best_case;                /* 1: expected times are the roofline's */
};

struct rl_pred {
	double flops;             /* one occurrence */
	double bytes;             /* one occurrence */
	double intensity;         /* flops / bytes, FLOP/byte; HUGE_VAL when bytes = 0 */
	enum rl_unit unit;        /* the unit that does the math */
	enum rl_pipe pipe;        /* the pipe whose peak is used */
	enum rl_pipe wanted;      /* the pipe the op asked for */
	int fallback;             /* 1 when the device lacks the asked-for pipe
	                           * (never for an op without FLOPs) */
	int fma;                  /* 1 when the FLOPs are fused multiply-adds */
	double peak_flops;        /* FLOP/s of the pipe, halved for non-FMA vector work */
	double bandwidth;         /* bytes/s */
	double ridge;             /* FLOP/byte where the pipe's roof meets the memory roof */
	double attainable_flops;  /* min(peak, intensity x bandwidth), FLOP/s */
	double t_compute_us;
	double t_memory_us;
	double t_overhead_us;     /* launches x host overhead */
	double t_launch_us;       /* launches x min_kernel_us */
	double t_gpu_us;
	double t_us;
	enum rl_bound bound;
	double roofline_pct;      /* t_gpu / measured x 100, 0 without a measurement */
	int l2_resident;          /* 1: its input is the previous kernel's output,
	                           * still in the L2 (l2.h); 0 from rl_predict */
	double l2_bytes;          /* of bytes, those read from the L2 when resident */
	double l2_saved_us;       /* t_us at DRAM bandwidth minus t_us; 0 unless
	                           * predicted with --l2 */
	double bytes_read;        /* of bytes, those read; bytes when the split
	                           * is not known (explicit bytes) */
	double bytes_written;     /* of bytes, those written (0 when not known) */
	/* Expected time (expected.h): what a good library kernel takes, cold L2.
	 * Equal to the roofline's with ctx->best_case. */
	double expected_gpu_us;
	double expected_us;       /* max(expected_gpu_us, t_overhead_us) */
	enum rl_bound expected_bound;
	const char *expected_note; /* what sets the expected time beyond the
	                            * roofline, or NULL (a static string) */
};

/* Predicts OP on CTX into *P. Returns 0, or the status of rl_op_work() for an
 * op whose shape is invalid (message in ERR). */
int rl_predict(const struct rl_op *op, const struct rl_model_ctx *ctx,
               struct rl_pred *p, struct rl_err *err);

/* Given P's t_compute_us and t_memory_us, sets the host and launch terms for
 * LAUNCHES kernels on CTX, t_gpu_us, t_us and the bound, as rl_predict does.
 * For predictions assembled elsewhere (a fused group, an L2-resident op). */
void rl_pred_times(struct rl_pred *p, const struct rl_model_ctx *ctx, double launches);

/* The pipe an op of dtype T on unit U would use on D, following the fallback
 * chain when D lacks the first choice; *WANTED gets the first choice. With
 * RL_UNIT_AUTO, matrix products (matmul, conv2d, attention) follow T's tensor
 * chain and every other kind its vector chain. Every chain ends in fp32 vector, so the result is RL_PIPE_NONE only for a device
 * without an fp32 vector peak, which rl_device_load refuses. */
enum rl_pipe rl_model_pipe(const struct rl_device *d, enum rl_kind kind,
                           enum rl_dtype t, enum rl_unit u, enum rl_pipe *wanted);

/* The ridge point of pipe P on D: the arithmetic intensity (FLOP/byte) at
 * which its roof meets the memory roof. FMA selects the full vector peak;
 * without it, vector pipes count at half. 0 when D lacks P. */
double rl_model_ridge(const struct rl_device *d, enum rl_pipe p, int fma);

/* "compute", "memory" or "overhead". */
const char *rl_bound_name(enum rl_bound b);

/* One line of advice for a bound, for the summary. */
const char *rl_bound_advice(enum rl_bound b);

/* A short piece of advice for one op, given its prediction. */
const char *rl_op_advice(const struct rl_op *op, const struct rl_pred *p);

#endif
