/* model.h - the roofline model: where one operator's time goes.
 *
 * For each op: FLOPs and bytes (formulas.h), the pipe that does its math and
 * that pipe's peak, and three candidate times. t_compute = flops / peak;
 * t_memory = bytes / bandwidth; t_overhead = launches x host overhead of the
 * runtime for the op's kind (a runtime profile may give each kind its own
 * host cost: a matmul dispatches more host work than an add).
 *
 * The memory roof by access mix. A device may give, beside
 * mem_bandwidth_gbs, the bandwidth of a read-only stream
 * (mem_read_bandwidth_gbs) and of a write-only one (mem_write_bandwidth_gbs).
 * Reading and writing are separately measured limits: a kernel that mixes
 * them can at best overlap the two streams, each at its own rate, so an op
 * that reads R bytes and writes W takes at least
 *     t_memory = R / BW_read + W / BW_write,
 * the harmonic combination of the two rates weighted by the op's mix, and
 * its bandwidth is (R + W) / t_memory. That combination is at or above every
 * mixed kernel measured, so the roofline stays a bound (H200: read 4572,
 * write 4315 GB/s give a copy (1 read, 1 write) 4440 GB/s, at or above
 * PyTorch's relu at 4240 and this project's copy kernel at 3889; two reads
 * and one write 4484, above PyTorch's add at 4350), whereas one copy
 * bandwidth for every mix predicted an fp32 add slower than it runs. A
 * direction the device lacks falls back to mem_bandwidth_gbs; an op whose
 * split is not known (bytes given) moves its bytes at mem_bandwidth_gbs, as
 * does every op on a device with neither key. The ridge of the op follows
 * its bandwidth; rl_model_ridge stays the device's, at mem_bandwidth_gbs. The GPU cannot finish a kernel faster than min_kernel_us, so
 * t_gpu = max(t_compute, t_memory, launches x min_kernel_us), and because the
 * host runs ahead asynchronously, t = max(t_gpu, t_overhead). The op is bound
 * by the largest of compute, memory and overhead (launch floor included).
 * Ties: overhead wins a tie with either (the op's own work hides under the
 * host or launch time, so no kernel tuning would help), and memory wins a tie
 * with compute.
 *
 * Collectives (collective.h) have a fourth roof, the interconnect: no FLOPs
 * and no device-memory traffic are counted for them (NCCL's kernels stream
 * their buffers through device memory at several times the link's rate, so
 * that traffic hides under the link's), and
 * t_network = latency + bus bytes / bus bandwidth of ctx->net, with the
 * intra-node and inter-node parts kept apart. t_gpu = max(t_network, launch
 * floor), and the op is network-bound unless the host or the launch floor
 * take longer (overhead wins a tie, as above). A collective without an
 * interconnect in ctx->net is an error.
 * Pure functions: no I/O, no globals.
 */
#ifndef RL_MODEL_H
#define RL_MODEL_H

#include "collective.h"
#include "err.h"
#include "formulas.h"
#include "hwdb.h"
#include "op.h"

enum rl_bound {
	RL_BOUND_COMPUTE,
	RL_BOUND_MEMORY,
	RL_BOUND_OVERHEAD,
	RL_BOUND_NETWORK, /* a collective, on the interconnect */
};

#define RL_BOUND_COUNT (RL_BOUND_NETWORK + 1) /* outside: for -Wswitch-enum */

/* What the model needs besides the op: the device and the host cost. */
struct rl_effprof;

struct rl_model_ctx {
	const struct rl_device *dev;
	double host_overhead_us;     /* per launched kernel: the default */
	const double *host_kind_us;  /* [RL_HOST_KEY_COUNT]: per launched kernel
	                              * of each host key (op kind or path,
	                              * op.h); NULL: host_overhead_us for every
	                              * kind */
	const double *host_extra_us; /* [RL_HOST_KEY_COUNT]: the host time a
	                              * fresh call adds (op.h fresh: a runtime's
	                              * host_extra_us.KEY); NULL: none */
	const struct rl_effprof *eff; /* the efficiency profile of the expected
	                               * times (effprof.h); NULL: first principles
	                               * only */
	int best_case;                /* 1: expected times are the roofline's */
	int compiled;                 /* 1: the runtime's kernels are torch.compile's
	                               * (rl_runtime_compiled, hwdb.h) */
	const struct rl_net *net;     /* the interconnect of collectives; NULL:
	                               * none (a collective is then an error) */
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
	double expected_kernels;  /* kernels one occurrence launches: its
	                           * launches, times the kernels of the path the
	                           * expected model takes (a split-K GEMM's
	                           * reduction, a split layernorm: 2) */
	enum rl_bound expected_bound;
	const char *expected_note; /* what sets the expected time beyond the
	                            * roofline, or NULL (a static string) */
	int expected_assumed;      /* 1: expected_note says which kernel a
	                            * quantised path is assumed to run, or that
	                            * the profile measured none (expected = the
	                            * roofline); the table repeats it below */
	int rw_known;             /* 1: bytes_read and bytes_written are the
	                           * formulas' split (rl_op_rw); 0: not known */
	/* Collectives (0 for other ops): their time on the interconnect and its
	 * parts (collective.h); bytes is then the bus bytes each rank sends. */
	double t_network_us;      /* latency + max(intra, inter) */
	double t_net_intra_us;    /* the intra-node phase */
	double t_net_inter_us;    /* the inter-node phase */
	double t_net_latency_us;
};

/* Predicts OP on CTX into *P. Returns 0, or the status of rl_op_work() for an
 * op whose shape is invalid (message in ERR). */
int rl_predict(const struct rl_op *op, const struct rl_model_ctx *ctx,
               struct rl_pred *p, struct rl_err *err);

/* rl_predict() from the formulas' record W of OP (rl_op_derive()), which it
 * reads instead of deriving OP again. Returns as rl_predict(). */
int rl_predict_work(const struct rl_op *op, const struct rl_work *w,
                    const struct rl_model_ctx *ctx, struct rl_pred *p, struct rl_err *err);

/* Given P's t_compute_us and t_memory_us, sets the host and launch terms for
 * LAUNCHES kernels of host key KIND (an op kind, or rl_op_host_key's path)
 * on CTX (the host cost of that key: rl_model_host_us), t_gpu_us, t_us and
 * the bound, as rl_predict does. For
 * predictions assembled elsewhere (a fused group, an L2-resident op). */
void rl_pred_times(struct rl_pred *p, const struct rl_model_ctx *ctx, int kind, double launches);

/* As rl_pred_times with the host's time HOST_US (us, all LAUNCHES
 * together) given: an op's own host_overhead_us, or a time predicted
 * before. */
void rl_pred_times_host(struct rl_pred *p, const struct rl_model_ctx *ctx, double host_us,
                        double launches);

/* The host cost (us) of one launched kernel of host key K (op.h) on CTX:
 * ctx->host_kind_us[K], or ctx->host_overhead_us without the array. A
 * fusion group (RL_KIND_FUSED) is one elementwise kernel: pointwise's. */
double rl_model_host_us(const struct rl_model_ctx *ctx, int k);

/* The effective memory bandwidth (bytes/s) on D of a kernel that reads READ
 * bytes and writes WRITTEN: (READ + WRITTEN) / (READ / read bandwidth +
 * WRITTEN / write bandwidth), each direction at mem_read_bandwidth_gbs or
 * mem_write_bandwidth_gbs where D has it, else at mem_bandwidth_gbs. D's
 * mem_bandwidth_gbs when KNOWN is 0 (the split is not known), when D has
 * neither key, or for a kernel that moves no bytes. */
double rl_model_bandwidth(const struct rl_device *d, double read, double written, int known);

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

/* "compute", "memory", "overhead" or "network". */
const char *rl_bound_name(enum rl_bound b);

/* One line of advice for a bound, for the summary. */
const char *rl_bound_advice(enum rl_bound b);

/* A short piece of advice for one op, given its prediction. */
const char *rl_op_advice(const struct rl_op *op, const struct rl_pred *p);

#endif
