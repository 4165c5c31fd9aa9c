/* calibrate.h - measured roofs from a benchmark recording, and the device
 * file that carries them (roofline calibrate).
 *
 * Each roof the model uses is taken from one benchmark of the recording:
 * the median of its samples (a sustained figure, not the luckiest run):
 *   mem_bandwidth_gbs   "copy" (memory): bytes read + written per second,
 *                       the traffic of the elementwise ops that are memory-bound
 *   l2_bandwidth_gbs    "read" (l2)
 *   fp32/fp64/fp16/bf16_vector_tflops   the "*-fma" vector benchmarks
 *   *_tensor_tflops     the best GEMM shape of the dtype (cuBLASLt)
 * A roof whose benchmark is missing (not run, or its check failed) keeps the
 * datasheet's value. So does min_kernel_us, the launch floor, always: the
 * "graph-node" figure of bench is the spacing of back-to-back kernels in a
 * CUDA graph (0.68 us on the H200), not a floor under every kernel's GPU time
 * (traces show kernels of 0.64 us); its source says so. The calibrated
 * device is a copy of the datasheet entry whose measured keys carry the
 * measurement (source "measured by roofline bench VERSION on DATE: METHOD")
 * and "datasheet.KEY" beside them.
 */
#ifndef RL_CALIBRATE_H
#define RL_CALIBRATE_H

#include "bench.h"
#include "hwdb.h"

struct rl_calib {
	int present[RL_HW_NUM_COUNT];
	double value[RL_HW_NUM_COUNT];                 /* in the key's unit */
	const struct rl_bench_entry *from[RL_HW_NUM_COUNT];
	/* The first entry (with a passing check) whose figure is not a finite
	 * number above 0: a broken recording, refused by rl_calibrate. */
	const struct rl_bench_entry *bad;
	enum rl_hw_key bad_key;
	double bad_value;
};

/* The measured roofs of B (see above). An entry whose figure is infinite,
 * NaN or not above 0 becomes no roof; the first such is kept in C->bad. */
void rl_calib_roofs(const struct rl_bench *b, struct rl_calib *c);

/* Writes into *OUT (released by the caller) the device DATASHEET with C's
 * roofs measured by B, id ID and name "<datasheet name> (measured)". Returns
 * 0, RL_ERR_ARG (no roof measured), RL_ERR_RANGE (C->bad is set: a figure
 * that is infinite, NaN or not above 0, or a measured roof outside the
 * ranges of rl_hw_check_range; the message names the entry) or
 * RL_ERR_NOMEM. */
int rl_calibrate(const struct rl_bench *b, const struct rl_calib *c,
                 const struct rl_device *datasheet, const char *id, struct rl_device *out,
                 struct rl_err *err);

/* The comment block for the calibrated file: the GPU, when and how it was
 * measured, the launch figures (which belong to a runtime, not the device),
 * and the datasheet entry it came from. Returns a malloc'ed string or NULL. */
char *rl_calibrate_header(const struct rl_bench *b, const struct rl_device *datasheet);

#endif
