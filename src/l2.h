/* l2.h - L2 residency: which kernels find their input still in the L2,
 * and how fast they are when they do (classify --l2).
 *
 * The op list names no tensors, so residency is judged on sizes, kernel by
 * kernel in file order after fusion (docs/oplist-format.md, "L2
 * residency"). A kernel of `bytes` (one occurrence), `out` of them its
 * output, following a kernel that wrote `out_prev` bytes, is resident in an
 * L2 of C bytes (l2_mib x 2^20) when
 *
 *   out_prev > 0                 the previous kernel's output is known,
 *   out_prev <= bytes - out      it is at most what this kernel reads, so
 *                                it can be one of its inputs,
 *   bytes + out_prev <= C        this kernel's whole working set fits in
 *                                the L2 beside the previous output,
 *   count = 1 and launches = 1   one kernel, run once: the list does not say
 *                                what a row's later occurrences follow.
 *
 * With --l2, the out_prev bytes are L2 hits and the rest comes from device
 * memory (rl_l2_memory_us). Pure functions and a small state; no I/O.
 */
#ifndef RL_L2_H
#define RL_L2_H

#include <stdint.h>

#include "hwdb.h"
#include "model.h"
#include "op.h"

/* The residency rule above. CAPACITY: the L2 in bytes (0: the device gives
 * none, nothing is resident); PREV_OUT: the output of the previous kernel in
 * bytes (< 0: there is none, or it is not known); BYTES and OUT_BYTES: this
 * kernel's bytes and output of one occurrence (OUT_BYTES < 0: not known, so
 * its reads are not known either); COUNT and LAUNCHES: the row's. Returns 1
 * when resident, else 0. */
int rl_l2_resident(double capacity, double prev_out, double bytes, double out_bytes, uint64_t count,
                   uint64_t launches);

/* The memory time in us of BYTES of which L2_BYTES are L2 hits, with the L2
 * at L2_BW and device memory at MEM_BW bytes/s (both above 0). Each level of
 * the hierarchy is a roof: every access passes through the L2, the misses
 * also through device memory, so
 *
 *   t = max(bytes / l2_bw, (bytes - l2_bytes) / mem_bw)
 *
 * (the hierarchical roofline of Yang, Kurth and Williams). */
double rl_l2_memory_us(double bytes, double l2_bytes, double l2_bw, double mem_bw);

/* The state of a walk over the kernels of a list, in file order. */
struct rl_l2 {
	double capacity;  /* bytes: l2_mib x 2^20; 0 when the device has no l2_mib */
	double bandwidth; /* bytes/s: l2_bandwidth_gbs x 1e9; 0 when absent */
	int predict;      /* --l2: resident kernels are predicted from the L2 */
	double prev_out;  /* output of the previous kernel; < 0: none or unknown */
};

/* Starts a walk on device D; PREDICT as --l2. */
void rl_l2_init(struct rl_l2 *t, const struct rl_device *d, int predict);

/* Judges the next kernel, OP predicted as P on CTX with OUT_BYTES of output
 * (< 0 unknown), and remembers that output for the kernel after it. When
 * resident, sets P's l2_resident and l2_bytes (the previous output); with
 * predict and an L2 bandwidth, also its memory time (rl_l2_memory_us, never
 * above the DRAM-only time), t_gpu, t_us, bound, attainable FLOP/s,
 * roofline_pct and l2_saved_us. Without a bandwidth the times stay those of
 * device memory. */
void rl_l2_kernel(struct rl_l2 *t, const struct rl_model_ctx *ctx, const struct rl_op *op,
                  double out_bytes, struct rl_pred *p);

#endif
