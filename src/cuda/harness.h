/* harness.h - what the four benchmark families of gpubench.h share (C++,
 * nvcc only): the device with its stream, events and check scratch, the
 * timing loop (warm-up, then samples of back-to-back launches between two
 * CUDA events, with the NVML clock and temperature read after), and the
 * checking helpers (gathering sampled elements, counting mismatches).
 *
 * Every throughput kernel reads random data (rl_cu_fill_random), keeps its
 * work alive (results stored, or consumed by a store behind a condition that
 * is false for a value only known at run time), and is verified afterwards
 * by something other than itself: a simple checking kernel that counts
 * mismatches over every element, and a sample of elements recomputed on the
 * host from rl_cu_random_value. Timing: warm-up launches, then samples of L
 * back-to-back launches between two CUDA events, L chosen so that a sample
 * lasts about 2 ms; the recorded time is the sample over L.
 *
 * The families: bench_memory.cu, bench_pipes.cu, bench_sweep.cu,
 * bench_launch.cu (harness.cu holds the functions declared here). These
 * names are internal to the CUDA plugin, which exports none of them.
 */
#ifndef RL_HARNESS_H
#define RL_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>

#include "gpubench.h"
#include "gpuutil.h"

#define THREADS 256          /* threads per block, every kernel */
#define SAMPLES_FULL 15
#define SAMPLES_QUICK 5
#define SAMPLES_MAX 15
#define SAMPLE_TARGET_US 2000.0 /* one sample of L launches lasts at least this */
#define MAX_LAUNCHES 100000
#define CHECK_MAX 256       /* elements a host check gathers at most */
#define MIB (1024.0 * 1024.0)
#define WARMUP_US 10000.0 /* untimed launches after pick_launches' estimate */

/* ---- the device, its stream and events, and scratch for checks --------- */

struct gpu {
	int dev;
	int sms, l2_bytes, threads_per_sm, cc, clock_khz;
	cudaStream_t s;
	cudaEvent_t e0, e1;
	size_t *idx_d;                /* CHECK_MAX indices for k_gather */
	unsigned long long *val_d;    /* CHECK_MAX gathered elements, 8 bytes each */
	unsigned long long *bad_d;    /* mismatch counter of the checking kernels */
	double *sum_d;                /* the double-precision reduction */
};

/* Opens device DEV: its attributes, a stream, two events and the check
 * scratch. Returns 0 or RL_ERR_DEVICE; on failure G is closed. */
int gpu_open(int dev, struct gpu *g, struct rl_err *err);
void gpu_close(struct gpu *g);

/* Blocks of THREADS resident on one SM for KERNEL (at least 1). */
template <typename K> cudaError_t resident_blocks(K kernel, int *nb)
{
	cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(nb, kernel, THREADS, 0);

	if (e == cudaSuccess && *nb < 1)
		e = cudaErrorInvalidConfiguration;
	return e;
}

/* The largest element count, halving from WANT down to no less than MIN,
 * whose ARRAYS arrays of ELEM bytes fit in free device memory with a margin;
 * MIN when none does (the allocation will then say so). */
size_t fit_elems(size_t want, size_t min, size_t elem, int arrays);

/* Grid of the checking kernels: 8 blocks per SM. */
unsigned check_grid(const struct gpu *g);

/* ---- timing ------------------------------------------------------------ */

/* Two warm-up launches, then two timed ones; *NL = launches for a sample of
 * at least SAMPLE_TARGET_US, clamped to [1, MAX_LAUNCHES]. Then about
 * WARMUP_US more of them, untimed, so that the clocks have left idle before
 * the first sample. LAUNCH enqueues one kernel on g->s and returns
 * cudaGetLastError(). */
template <typename F>
int pick_launches(struct gpu *g, F &launch, int *nl, struct rl_err *err)
{
	int rc = 0, i, more;
	float ms = 0;
	double t, l;

	RL_CU(launch());
	RL_CU(launch());
	RL_CU(cudaEventRecord(g->e0, g->s));
	RL_CU(launch());
	RL_CU(launch());
	RL_CU(cudaEventRecord(g->e1, g->s));
	RL_CU(cudaEventSynchronize(g->e1));
	RL_CU(cudaEventElapsedTime(&ms, g->e0, g->e1));
	t = (double)ms * 1e3 / 2;
	l = t > 0 ? ceil(SAMPLE_TARGET_US / t) : MAX_LAUNCHES;
	*nl = l < 1 ? 1 : l > MAX_LAUNCHES ? MAX_LAUNCHES : (int)l;
	more = (int)(WARMUP_US / SAMPLE_TARGET_US * *nl);
	for (i = 0; i < more; i++)
		RL_CU(launch());
out:
	return rc;
}

/* NS samples of NL back-to-back launches between two events; US[i] is the
 * sample's time over NL, microseconds. Then the SM clock and temperature
 * into E, while the GPU is still warm from the run. */
template <typename F>
int time_launches(struct gpu *g, F &launch, int ns, int nl, double *us, struct rl_bench_entry *e,
                  struct rl_err *err)
{
	int rc = 0, i, j;
	float ms = 0;

	for (i = 0; i < ns; i++) {
		RL_CU(cudaEventRecord(g->e0, g->s));
		for (j = 0; j < nl; j++)
			RL_CU(launch());
		RL_CU(cudaEventRecord(g->e1, g->s));
		RL_CU(cudaEventSynchronize(g->e1));
		RL_CU(cudaEventElapsedTime(&ms, g->e0, g->e1));
		us[i] = (double)ms * 1e3 / nl;
	}
	rl_nvml_sample(g->dev, &e->sm_clock_mhz, &e->temp_c);
out:
	return rc;
}

/* Clears E and sets its group, name and dtype. */
void entry_init(struct rl_bench_entry *e, enum rl_bench_group group, const char *name,
                const char *dtype);

/* ---- checking helpers -------------------------------------------------- */

/* Copies the M (<= CHECK_MAX) elements of ELEM bytes (2, 4 or 8) at indices
 * IDX of device array SRC to host array DST. */
int gather(struct gpu *g, const void *src, size_t elem, const size_t *idx, int m, void *dst,
           struct rl_err *err);

/* M indices into [0, N): both ends, the middle, and the rest spread at random. */
void pick_indices(size_t n, uint64_t seed, size_t *idx, int m);

/* Zero the mismatch counter on g->s; read it back after the checking kernel
 * (waits for g->s). */
int bad_reset(struct gpu *g, struct rl_err *err);
int bad_read(struct gpu *g, unsigned long long *bad, struct rl_err *err);

static inline float bits_float(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

static inline uint32_t float_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

/* A random parameter in [LO, HI) rounded to T, from stream SEED, draw K. */
double param(uint64_t seed, size_t k, double lo, double hi, enum rl_dtype t);

/* Lane L of a word W copied back from the device, as a double: the word is
 * one fp32 or fp64 (L ignored), or packed fp16 or bf16 pairs (L = 0, 1). */
double lane_f32(uint64_t w, int l);
double lane_f64(uint64_t w, int l);
double lane_f16(uint64_t w, int l);
double lane_bf16(uint64_t w, int l);

#endif
