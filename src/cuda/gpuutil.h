/* gpuutil.h - what the CUDA sources share (C++, nvcc only): turning CUDA
 * errors into rl_err, random device data, and NVML readings of the clock
 * and temperature (NVML is loaded at run time with dlopen, so a machine
 * without it still runs the benchmarks, with those readings left at 0).
 */
#ifndef RL_GPUUTIL_H
#define RL_GPUUTIL_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

extern "C" {
#include "dtype.h"
#include "err.h"
}

extern "C" {

/* Sets ERR to RL_ERR_DEVICE, "WHAT: <CUDA error string> (<error name>)",
 * and returns RL_ERR_DEVICE. */
int rl_cu_fail(struct rl_err *err, const char *what, cudaError_t e);

/* Evaluates a CUDA call; on failure sets ERR via rl_cu_fail (the call's text
 * as WHAT) and jumps to the label "out" with rc set. Needs "int rc" and
 * "struct rl_err *err" in scope. */
#define RL_CU(call)                                                   \
	do {                                                          \
		cudaError_t rl_cu_e_ = (call);                        \
		if (rl_cu_e_ != cudaSuccess) {                        \
			rc = rl_cu_fail(err, #call, rl_cu_e_);        \
			goto out;                                     \
		}                                                     \
	} while (0)

/* Fills N elements of type T at device pointer P with uniform random values
 * in [LO, HI) (int8: integers in [LO, HI)), from a counter-based hash of
 * SEED and the index, so the same call gives the same data on any GPU and
 * the host can recompute element i with rl_cu_random_value. Asynchronous on
 * STREAM. T: fp64, fp32, tf32, fp16, bf16, fp8e4m3, int8. */
cudaError_t rl_cu_fill_random(void *p, size_t n, enum rl_dtype t, uint64_t seed, double lo,
                              double hi, cudaStream_t stream);

/* The value rl_cu_fill_random gives element I, as a double, before rounding
 * to T (the host rounds it the same way with rl_cu_round). */
double rl_cu_random_value(uint64_t seed, size_t i, double lo, double hi);

/* X rounded to T's precision as the fill stores it (round to nearest even),
 * returned as a double. */
double rl_cu_round(double x, enum rl_dtype t);

/* Reads the current SM clock (MHz) and temperature (degrees C) of CUDA
 * device DEV through NVML; leaves 0 in each it cannot read. */
void rl_nvml_sample(int dev, double *sm_clock_mhz, double *temp_c);

}

#endif
