/* gpubench.cu - the CUDA microbenchmarks behind "roofline bench" (see
 * gpubench.h): device-memory and L2 bandwidth, the CUDA-core pipes and special
 * functions, the repeat-multiply intensity sweep, and launch overhead.
 *
 * Every throughput kernel reads random data (rl_cu_fill_random), keeps its
 * work alive (results stored, or consumed by a store behind a condition that
 * is false for a value only known at run time), and is verified afterwards
 * by something other than itself: a simple checking kernel that counts
 * mismatches over every element, and a sample of elements recomputed on the
 * host from rl_cu_random_value. Timing: warm-up launches, then samples of L
 * back-to-back launches between two CUDA events, L chosen so that a sample
 * lasts about 2 ms; the recorded time is the sample over L.
 */
#include "config.h"

#include "gpubench.h"
#include "gpuutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define THREADS 256          /* threads per block, every kernel */
#define SAMPLES_FULL 15
#define SAMPLES_QUICK 5
#define SAMPLES_MAX 15
#define SAMPLE_TARGET_US 2000.0 /* one sample of L launches lasts at least this */
#define MAX_LAUNCHES 100000
#define CHECK_MAX 256       /* elements a host check gathers at most */
#define MIB (1024.0 * 1024.0)

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

static void gpu_close(struct gpu *g)
{
	/* Cleanup after a failure: errors here would only hide the first. */
	cudaFree(g->idx_d);
	cudaFree(g->val_d);
	cudaFree(g->bad_d);
	cudaFree(g->sum_d);
	if (g->e0 != NULL)
		cudaEventDestroy(g->e0);
	if (g->e1 != NULL)
		cudaEventDestroy(g->e1);
	if (g->s != NULL)
		cudaStreamDestroy(g->s);
	memset(g, 0, sizeof(*g));
}

static int gpu_open(int dev, struct gpu *g, struct rl_err *err)
{
	int rc = 0, major = 0, minor = 0;

	memset(g, 0, sizeof(*g));
	g->dev = dev;
	RL_CU(cudaSetDevice(dev));
	RL_CU(cudaDeviceGetAttribute(&g->sms, cudaDevAttrMultiProcessorCount, dev));
	RL_CU(cudaDeviceGetAttribute(&g->l2_bytes, cudaDevAttrL2CacheSize, dev));
	RL_CU(cudaDeviceGetAttribute(&g->threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor,
	                             dev));
	RL_CU(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
	RL_CU(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
	RL_CU(cudaDeviceGetAttribute(&g->clock_khz, cudaDevAttrClockRate, dev));
	g->cc = 10 * major + minor;
	if (g->sms < 1 || g->threads_per_sm < THREADS) {
		rc = rl_err_set(err, RL_ERR_DEVICE,
		                "device %d: %d multiprocessors of %d threads: nothing to benchmark",
		                dev, g->sms, g->threads_per_sm);
		goto out;
	}
	if (g->l2_bytes < 1 << 20)
		g->l2_bytes = 1 << 20; /* sizes below are multiples of it */
	if (g->clock_khz < 100000)
		g->clock_khz = 2000000;
	RL_CU(cudaStreamCreateWithFlags(&g->s, cudaStreamNonBlocking));
	RL_CU(cudaEventCreate(&g->e0));
	RL_CU(cudaEventCreate(&g->e1));
	RL_CU(cudaMalloc(&g->idx_d, CHECK_MAX * sizeof(size_t)));
	RL_CU(cudaMalloc(&g->val_d, CHECK_MAX * sizeof(unsigned long long)));
	RL_CU(cudaMalloc(&g->bad_d, sizeof(unsigned long long)));
	RL_CU(cudaMalloc(&g->sum_d, sizeof(double)));
	return 0;
out:
	gpu_close(g);
	return rc;
}

/* Blocks of THREADS resident on one SM for KERNEL (at least 1). */
template <typename K> static cudaError_t resident_blocks(K kernel, int *nb)
{
	cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(nb, kernel, THREADS, 0);

	if (e == cudaSuccess && *nb < 1)
		e = cudaErrorInvalidConfiguration;
	return e;
}

/* The largest element count, halving from WANT down to no less than MIN,
 * whose ARRAYS arrays of ELEM bytes fit in free device memory with a margin;
 * MIN when none does (the allocation will then say so). */
static size_t fit_elems(size_t want, size_t min, size_t elem, int arrays)
{
	size_t free_b = 0, total_b = 0;
	const size_t margin = (size_t)512 << 20;

	if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess)
		return want;
	while (want / 2 >= min && want * elem * arrays + margin > free_b)
		want /= 2;
	return want;
}

/* ---- timing ------------------------------------------------------------ */

/* Two warm-up launches, then two timed ones; *NL = launches for a sample of
 * at least SAMPLE_TARGET_US, clamped to [1, MAX_LAUNCHES]. Then about
 * WARMUP_US more of them, untimed, so that the clocks have left idle before
 * the first sample. LAUNCH enqueues one kernel on g->s and returns
 * cudaGetLastError(). */
#define WARMUP_US 10000.0

template <typename F>
static int pick_launches(struct gpu *g, F &launch, int *nl, struct rl_err *err)
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
static int time_launches(struct gpu *g, F &launch, int ns, int nl, double *us,
                         struct rl_bench_entry *e, struct rl_err *err)
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

static void entry_init(struct rl_bench_entry *e, enum rl_bench_group group, const char *name,
                       const char *dtype)
{
	memset(e, 0, sizeof(*e));
	e->group = group;
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->dtype, sizeof(e->dtype), "%s", dtype);
}

/* ---- checking helpers -------------------------------------------------- */

template <typename U>
__global__ void k_gather(const U *__restrict__ src, const size_t *__restrict__ idx,
                         U *__restrict__ dst, int m)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x;

	if (k < m)
		dst[k] = src[idx[k]];
}

/* Copies the M (<= CHECK_MAX) elements of ELEM bytes (2, 4 or 8) at indices
 * IDX of device array SRC to host array DST. */
static int gather(struct gpu *g, const void *src, size_t elem, const size_t *idx, int m,
                  void *dst, struct rl_err *err)
{
	int rc = 0;

	if (m < 1 || m > CHECK_MAX || (elem != 2 && elem != 4 && elem != 8))
		return rl_err_set(err, RL_ERR_ARG, "gather: %d elements of %zu bytes", m, elem);
	RL_CU(cudaMemcpyAsync(g->idx_d, idx, m * sizeof(size_t), cudaMemcpyHostToDevice, g->s));
	if (elem == 2)
		k_gather<<<1, CHECK_MAX, 0, g->s>>>((const unsigned short *)src, g->idx_d,
		                                    (unsigned short *)g->val_d, m);
	else if (elem == 4)
		k_gather<<<1, CHECK_MAX, 0, g->s>>>((const unsigned *)src, g->idx_d,
		                                    (unsigned *)g->val_d, m);
	else
		k_gather<<<1, CHECK_MAX, 0, g->s>>>((const unsigned long long *)src, g->idx_d,
		                                    g->val_d, m);
	RL_CU(cudaGetLastError());
	RL_CU(cudaMemcpyAsync(dst, g->val_d, m * elem, cudaMemcpyDeviceToHost, g->s));
	RL_CU(cudaStreamSynchronize(g->s));
out:
	return rc;
}

/* M indices into [0, N): both ends, the middle, and the rest spread at random. */
static void pick_indices(size_t n, uint64_t seed, size_t *idx, int m)
{
	int k;

	for (k = 0; k < m; k++) {
		size_t i;

		if (k == 0)
			i = 0;
		else if (k == 1)
			i = n - 1;
		else if (k == 2)
			i = n / 2;
		else if (k == 3)
			i = n > 1 ? n - 2 : 0;
		else
			i = (size_t)rl_cu_random_value(seed, (size_t)k, 0.0, (double)n);
		idx[k] = i < n ? i : n - 1;
	}
}

static int bad_reset(struct gpu *g, struct rl_err *err)
{
	int rc = 0;

	RL_CU(cudaMemsetAsync(g->bad_d, 0, sizeof(unsigned long long), g->s));
out:
	return rc;
}

static int bad_read(struct gpu *g, unsigned long long *bad, struct rl_err *err)
{
	int rc = 0;

	RL_CU(cudaGetLastError());
	RL_CU(cudaMemcpyAsync(bad, g->bad_d, sizeof(*bad), cudaMemcpyDeviceToHost, g->s));
	RL_CU(cudaStreamSynchronize(g->s));
out:
	return rc;
}

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
static double param(uint64_t seed, size_t k, double lo, double hi, enum rl_dtype t)
{
	return rl_cu_round(rl_cu_random_value(seed, k, lo, hi), t);
}

/* ==== memory and L2 ====================================================== */

/* Each thread streams float4s with a grid-stride loop, U independent 16-byte
 * loads issued before the first is used (2048 threads x 4 x 16 B = 128 KiB in
 * flight per SM, over the ~48 KiB an H200 needs: CUB's per-SM bytes-in-flight
 * table). Loads are ld.global.cg (cached in L2 only): with several passes per
 * launch over an L2-sized working set, an L1 hit would otherwise measure L1.
 * Elements past the last whole float4 are done one by one. */
#define MEM_U 4

template <int U>
__global__ void __launch_bounds__(THREADS)
	k_copy(const float *__restrict__ a, float *__restrict__ b, size_t n, int passes)
{
	const float4 *a4 = reinterpret_cast<const float4 *>(a);
	float4 *b4 = reinterpret_cast<float4 *>(b);
	const size_t n4 = n / 4, stride = (size_t)gridDim.x * blockDim.x;
	const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	for (int p = 0; p < passes; p++) {
		size_t i = t;

		for (; i + (U - 1) * stride < n4; i += U * stride) {
			float4 v[U];
#pragma unroll
			for (int u = 0; u < U; u++)
				v[u] = __ldcg(a4 + i + u * stride);
#pragma unroll
			for (int u = 0; u < U; u++)
				b4[i + u * stride] = v[u];
		}
		for (; i < n4; i += stride)
			b4[i] = __ldcg(a4 + i);
		for (i = 4 * n4 + t; i < n; i += stride)
			b[i] = __ldcg(a + i);
	}
}

/* The sum of the block's VALUEs, in thread 0. */
__device__ float block_sum(float v)
{
	__shared__ float warp_sums[THREADS / 32];
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	for (int o = 16; o > 0; o /= 2)
		v += __shfl_down_sync(0xffffffffu, v, o);
	if (lane == 0)
		warp_sums[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = lane < THREADS / 32 ? warp_sums[lane] : 0.0f;
		for (int o = 16; o > 0; o /= 2)
			v += __shfl_down_sync(0xffffffffu, v, o);
	}
	return v;
}

/* Sum reduction: 4 x U float accumulators per thread (few additions each, so
 * the float sum stays within 1e-6 of the exact one), block sums to
 * PARTIAL[blockIdx.x]. PASSES passes add the array PASSES times. */
template <int U>
__global__ void __launch_bounds__(THREADS)
	k_read(const float *__restrict__ a, size_t n, int passes, float *__restrict__ partial)
{
	const float4 *a4 = reinterpret_cast<const float4 *>(a);
	const size_t n4 = n / 4, stride = (size_t)gridDim.x * blockDim.x;
	const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	float4 acc[U];
	float s;

#pragma unroll
	for (int u = 0; u < U; u++)
		acc[u] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
	for (int p = 0; p < passes; p++) {
		size_t i = t;

		for (; i + (U - 1) * stride < n4; i += U * stride) {
			float4 v[U];
#pragma unroll
			for (int u = 0; u < U; u++)
				v[u] = __ldcg(a4 + i + u * stride);
#pragma unroll
			for (int u = 0; u < U; u++) {
				acc[u].x += v[u].x;
				acc[u].y += v[u].y;
				acc[u].z += v[u].z;
				acc[u].w += v[u].w;
			}
		}
		for (; i < n4; i += stride) {
			float4 v = __ldcg(a4 + i);

			acc[0].x += v.x;
			acc[0].y += v.y;
			acc[0].z += v.z;
			acc[0].w += v.w;
		}
		for (i = 4 * n4 + t; i < n; i += stride)
			acc[0].x += __ldcg(a + i);
	}
	s = 0.0f;
#pragma unroll
	for (int u = 0; u < U; u++)
		s += (acc[u].x + acc[u].y) + (acc[u].z + acc[u].w);
	s = block_sum(s);
	if (threadIdx.x == 0)
		partial[blockIdx.x] = s;
}

/* What the write kernel stores at element E: cheap to make from the index
 * and two run-time constants, and different at every index. */
__device__ __forceinline__ float write_value(size_t e, float k, float c)
{
	return __fmaf_rn(__uint2float_rn((unsigned)e), k, c);
}

template <int U>
__global__ void __launch_bounds__(THREADS) k_write(float *__restrict__ a, size_t n, float k, float c)
{
	float4 *a4 = reinterpret_cast<float4 *>(a);
	const size_t n4 = n / 4, stride = (size_t)gridDim.x * blockDim.x;
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	for (; i + (U - 1) * stride < n4; i += U * stride) {
#pragma unroll
		for (int u = 0; u < U; u++) {
			size_t e = 4 * (i + u * stride);

			a4[i + u * stride] = make_float4(write_value(e, k, c), write_value(e + 1, k, c),
			                                 write_value(e + 2, k, c),
			                                 write_value(e + 3, k, c));
		}
	}
	for (; i < n4; i += stride) {
		size_t e = 4 * i;

		a4[i] = make_float4(write_value(e, k, c), write_value(e + 1, k, c),
		                    write_value(e + 2, k, c), write_value(e + 3, k, c));
	}
	for (i = 4 * n4 + (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		a[i] = write_value(i, k, c);
}

__device__ __forceinline__ float4 triad4(float4 b, float4 c, float s)
{
	return make_float4(__fmaf_rn(s, c.x, b.x), __fmaf_rn(s, c.y, b.y), __fmaf_rn(s, c.z, b.z),
	                   __fmaf_rn(s, c.w, b.w));
}

/* a = b + s * c, one rounding (fma), as the checking kernel computes it. */
template <int U>
__global__ void __launch_bounds__(THREADS)
	k_triad(float *__restrict__ a, const float *__restrict__ b, const float *__restrict__ c,
	        size_t n, float s)
{
	float4 *a4 = reinterpret_cast<float4 *>(a);
	const float4 *b4 = reinterpret_cast<const float4 *>(b);
	const float4 *c4 = reinterpret_cast<const float4 *>(c);
	const size_t n4 = n / 4, stride = (size_t)gridDim.x * blockDim.x;
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	for (; i + (U - 1) * stride < n4; i += U * stride) {
		float4 vb[U], vc[U];
#pragma unroll
		for (int u = 0; u < U; u++) {
			vb[u] = __ldcg(b4 + i + u * stride);
			vc[u] = __ldcg(c4 + i + u * stride);
		}
#pragma unroll
		for (int u = 0; u < U; u++)
			a4[i + u * stride] = triad4(vb[u], vc[u], s);
	}
	for (; i < n4; i += stride)
		a4[i] = triad4(__ldcg(b4 + i), __ldcg(c4 + i), s);
	for (i = 4 * n4 + (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		a[i] = __fmaf_rn(s, __ldcg(c + i), __ldcg(b + i));
}

/* The checking kernels: one element per step of a plain grid-stride loop,
 * mismatches counted into *BAD. */
__global__ void k_check_equal(const unsigned *__restrict__ x, const unsigned *__restrict__ y,
                              size_t n, unsigned long long *bad)
{
	unsigned long long cnt = 0;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		cnt += x[i] != y[i];
	if (cnt != 0)
		atomicAdd(bad, cnt);
}

__global__ void k_check_write(const float *__restrict__ a, size_t n, float k, float c,
                              unsigned long long *bad)
{
	unsigned long long cnt = 0;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		cnt += __float_as_uint(a[i]) != __float_as_uint(write_value(i, k, c));
	if (cnt != 0)
		atomicAdd(bad, cnt);
}

__global__ void k_check_triad(const float *__restrict__ a, const float *__restrict__ b,
                              const float *__restrict__ c, size_t n, float s,
                              unsigned long long *bad)
{
	unsigned long long cnt = 0;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		cnt += __float_as_uint(a[i]) != __float_as_uint(__fmaf_rn(s, c[i], b[i]));
	if (cnt != 0)
		atomicAdd(bad, cnt);
}

/* The reference sum for the read kernel, in double precision. */
__global__ void k_sum_double(const float *__restrict__ a, size_t n, double *sum)
{
	double v = 0;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		v += a[i];
	for (int o = 16; o > 0; o /= 2)
		v += __shfl_down_sync(0xffffffffu, v, o);
	if (threadIdx.x % 32 == 0)
		atomicAdd(sum, v);
}

/* Integer-valued floats, for a read whose float sum must come out exact. */
__global__ void k_floor(float *a, size_t n)
{
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		a[i] = floorf(a[i]);
}

static unsigned check_grid(const struct gpu *g)
{
	return (unsigned)g->sms * 8;
}

/* The seeds and ranges of the memory arrays. */
#define SEED_A 0x6d656d2d61ull
#define SEED_B 0x6d656d2d62ull
#define SEED_C 0x6d656d2d63ull
#define SEED_PARAM 0x6d656d2d70ull
#define A_LO 0.5 /* read sums A: positive, so the relative error means something */
#define A_HI 1.5

struct memctx {
	struct gpu *g;
	struct rl_bench *b;
	enum rl_bench_group group;
	int ns;        /* samples */
	int nl;        /* launches per sample; 0: picked for SAMPLE_TARGET_US */
	int passes;    /* passes over the working set per launch */
	float *a, *bb, *c, *partial;
	size_t n;      /* elements per array */
	size_t cap;    /* elements allocated per array */
	int partial_n; /* floats in partial */
	const char *size_note; /* "1024 MiB arrays" */
};

/* Host check of M sampled elements of the fp32 array P against the fill of
 * SEED in [LO, HI). Returns 0 or an error; *OK cleared on a mismatch. */
static int host_check_fill(struct memctx *m, const float *p, size_t n, uint64_t seed, double lo,
                           double hi, int *ok, struct rl_err *err)
{
	size_t idx[64];
	uint32_t v[64];
	int rc, k;

	pick_indices(n, seed ^ 0x5eedull, idx, 64);
	rc = gather(m->g, p, 4, idx, 64, v, err);
	if (rc != 0)
		return rc;
	for (k = 0; k < 64; k++)
		if ((double)bits_float(v[k]) != rl_cu_round(rl_cu_random_value(seed, idx[k], lo, hi),
		                                             RL_FP32))
			*ok = 0;
	return 0;
}

static void mem_method(struct memctx *m, struct rl_bench_entry *e, const char *what,
                       const char *access, int grid, int nb, int nl, const char *check)
{
	char passes[40] = "";

	if (m->passes > 1)
		snprintf(passes, sizeof(passes), ", %d passes/launch", m->passes);
	snprintf(e->method, sizeof(e->method),
	         "%s; %s; grid %dx%d blocks of %d, grid-stride; %s%s; %d samples x %d launches, "
	         "CUDA events; check: %s",
	         what, access, grid / nb, nb, THREADS, m->size_note, passes, m->ns, nl, check);
}

/* After a timed copy of A into BB (the copy kernel, memcpy): BB equals A
 * everywhere (a kernel) and holds A's fill (64 samples against the host);
 * sets E's check and shape. */
static int check_copy(struct memctx *m, struct rl_bench_entry *e, struct rl_err *err)
{
	struct gpu *g = m->g;
	unsigned long long bad = 0;
	int rc = 0, ok = 1;

	RL_CU(cudaStreamSynchronize(g->s));
	if ((rc = bad_reset(g, err)) != 0)
		goto out;
	k_check_equal<<<check_grid(g), THREADS, 0, g->s>>>((const unsigned *)m->bb,
	                                                  (const unsigned *)m->a, m->n, g->bad_d);
	if ((rc = bad_read(g, &bad, err)) != 0)
		goto out;
	if ((rc = host_check_fill(m, m->bb, m->n, SEED_A, A_LO, A_HI, &ok, err)) != 0)
		goto out;
	e->check = bad == 0 && ok ? 1 : -1;
	snprintf(e->shape, sizeof(e->shape), "%zu", m->n);
out:
	return rc;
}

static int mem_copy(struct memctx *m, struct rl_err *err)
{
	struct gpu *g = m->g;
	struct rl_bench_entry e;
	double us[SAMPLES_MAX];
	int rc = 0, nb = 0, grid = 0, nl = 0;
	auto launch = [&]() -> cudaError_t {
		k_copy<MEM_U><<<grid, THREADS, 0, g->s>>>(m->a, m->bb, m->n, m->passes);
		return cudaGetLastError();
	};

	entry_init(&e, m->group, "copy", "fp32");
	RL_CU(resident_blocks(k_copy<MEM_U>, &nb));
	grid = g->sms * nb;
	RL_CU(rl_cu_fill_random(m->bb, m->n, RL_FP32, SEED_B, -1.0, 1.0, g->s));
	rc = pick_launches(g, launch, &nl, err);
	if (rc != 0)
		goto out;
	if (m->nl > 0)
		nl = m->nl;
	rc = time_launches(g, launch, m->ns, nl, us, &e, err);
	if (rc != 0)
		goto out;
	if ((rc = check_copy(m, &e, err)) != 0)
		goto out;
	e.bytes = 2.0 * 4.0 * (double)m->n * m->passes;
	mem_method(m, &e, "b[i] = a[i], bytes read + written", "float4 ld.cg, 4 in flight/thread",
	           grid, nb, nl, "b == a everywhere (kernel), 64 samples vs host fill");
	rc = rl_bench_add(m->b, &e, us, m->ns, err);
out:
	return rc;
}

/* The driver's device-to-device copy (cudaMemcpyAsync), which frameworks
 * call for a contiguous copy: beside the copy kernel, since on Hopper it
 * reaches more of the HBM bandwidth than an SM copy loop does
 * (docs/measurements/h200-bench-2026-11-29/tuning.txt). */
static int mem_memcpy(struct memctx *m, struct rl_err *err)
{
	struct gpu *g = m->g;
	struct rl_bench_entry e;
	double us[SAMPLES_MAX];
	int rc = 0, nl = 0;
	auto launch = [&]() -> cudaError_t {
		return cudaMemcpyAsync(m->bb, m->a, m->n * 4, cudaMemcpyDeviceToDevice, g->s);
	};

	entry_init(&e, m->group, "memcpy", "fp32");
	RL_CU(rl_cu_fill_random(m->bb, m->n, RL_FP32, SEED_B, -1.0, 1.0, g->s));
	rc = pick_launches(g, launch, &nl, err);
	if (rc != 0)
		goto out;
	rc = time_launches(g, launch, m->ns, nl, us, &e, err);
	if (rc != 0)
		goto out;
	if ((rc = check_copy(m, &e, err)) != 0)
		goto out;
	e.bytes = 2.0 * 4.0 * (double)m->n;
	snprintf(e.method, sizeof(e.method),
	         "cudaMemcpyAsync device to device, bytes read + written; %s; %d samples x %d "
	         "copies, CUDA events; check: b == a everywhere (kernel), 64 samples vs host fill",
	         m->size_note, m->ns, nl);
	rc = rl_bench_add(m->b, &e, us, m->ns, err);
out:
	return rc;
}

/* One read launch's sum (the block partial sums added in double) and the
 * double-precision reference sum of the same array, PASSES times. */
static int read_sums(struct memctx *m, int grid, double *got, double *ref, struct rl_err *err)
{
	struct gpu *g = m->g;
	float part[8192];
	int rc = 0, i;

	RL_CU(cudaMemcpyAsync(part, m->partial, grid * sizeof(float), cudaMemcpyDeviceToHost, g->s));
	RL_CU(cudaMemsetAsync(g->sum_d, 0, sizeof(double), g->s));
	k_sum_double<<<check_grid(g), THREADS, 0, g->s>>>(m->a, m->n, g->sum_d);
	RL_CU(cudaGetLastError());
	RL_CU(cudaMemcpyAsync(ref, g->sum_d, sizeof(double), cudaMemcpyDeviceToHost, g->s));
	RL_CU(cudaStreamSynchronize(g->s));
	*got = 0;
	for (i = 0; i < grid; i++)
		*got += part[i];
	*ref *= m->passes;
out:
	return rc;
}

/* The read is checked twice. First, before timing, on integers 1..4 stored
 * as floats, where every float partial sum stays under 2^24 and so is exact:
 * the kernel's sum must equal the reference exactly, which catches a single
 * element skipped or read twice. Then the timed run, on random data, within
 * 1e-5 (float accumulation error) of the reference. */
static int mem_read(struct memctx *m, struct rl_err *err)
{
	struct gpu *g = m->g;
	struct rl_bench_entry e;
	double us[SAMPLES_MAX], ref = 0, got = 0;
	int rc = 0, nb = 0, grid = 0, nl = 0, ok = 1, exact = 0;
	auto launch = [&]() -> cudaError_t {
		k_read<MEM_U><<<grid, THREADS, 0, g->s>>>(m->a, m->n, m->passes, m->partial);
		return cudaGetLastError();
	};

	entry_init(&e, m->group, "read", "fp32");
	RL_CU(resident_blocks(k_read<MEM_U>, &nb));
	grid = g->sms * nb;
	if (grid > m->partial_n || grid > 8192) {
		rc = rl_err_set(err, RL_ERR_RANGE, "read: grid of %d blocks over the %d partial sums",
		                grid, m->partial_n);
		goto out;
	}
	if (4.0 * (double)m->n * m->passes / grid < 0x1p24 / 4) {
		exact = 1;
		RL_CU(rl_cu_fill_random(m->a, m->n, RL_FP32, SEED_A + 1, 1.0, 5.0, g->s));
		k_floor<<<check_grid(g), THREADS, 0, g->s>>>(m->a, m->n);
		RL_CU(launch());
		if ((rc = read_sums(m, grid, &got, &ref, err)) != 0)
			goto out;
		if (!(got == ref) || !(ref >= (double)m->n * m->passes))
			ok = 0;
	}
	RL_CU(rl_cu_fill_random(m->a, m->n, RL_FP32, SEED_A, A_LO, A_HI, g->s));
	rc = pick_launches(g, launch, &nl, err);
	if (rc != 0)
		goto out;
	if (m->nl > 0)
		nl = m->nl;
	rc = time_launches(g, launch, m->ns, nl, us, &e, err);
	if (rc != 0)
		goto out;
	if ((rc = read_sums(m, grid, &got, &ref, err)) != 0)
		goto out;
	if (!(fabs(got - ref) <= 1e-5 * fabs(ref)) || !(ref > 0))
		ok = 0;
	if ((rc = host_check_fill(m, m->a, m->n, SEED_A, A_LO, A_HI, &ok, err)) != 0)
		goto out;
	e.check = ok ? 1 : -1;
	snprintf(e.shape, sizeof(e.shape), "%zu", m->n);
	e.bytes = 4.0 * (double)m->n * m->passes;
	mem_method(m, &e, "sum of a[i], block partial sums", "float4 ld.cg, 4 in flight/thread",
	           grid, nb, nl,
	           exact ? "exact on integer data, then within 1e-5 of a double sum kernel"
	                 : "within 1e-5 of a double-precision sum kernel");
	rc = rl_bench_add(m->b, &e, us, m->ns, err);
out:
	return rc;
}

static int mem_write(struct memctx *m, struct rl_err *err)
{
	struct gpu *g = m->g;
	struct rl_bench_entry e;
	double us[SAMPLES_MAX];
	unsigned long long bad = 0;
	size_t idx[64];
	uint32_t v[64];
	float k, c;
	int rc = 0, nb = 0, grid = 0, nl = 0, ok = 1, i;
	auto launch = [&]() -> cudaError_t {
		k_write<MEM_U><<<grid, THREADS, 0, g->s>>>(m->bb, m->n, k, c);
		return cudaGetLastError();
	};

	entry_init(&e, m->group, "write", "fp32");
	k = (float)param(SEED_PARAM, 0, 1e-6, 2e-6, RL_FP32);
	c = (float)param(SEED_PARAM, 1, 1.0, 2.0, RL_FP32);
	RL_CU(resident_blocks(k_write<MEM_U>, &nb));
	grid = g->sms * nb;
	/* Poison: random data, which the written values do not match. */
	RL_CU(rl_cu_fill_random(m->bb, m->n, RL_FP32, SEED_B, -1.0, 1.0, g->s));
	rc = pick_launches(g, launch, &nl, err);
	if (rc != 0)
		goto out;
	if (m->nl > 0)
		nl = m->nl;
	rc = time_launches(g, launch, m->ns, nl, us, &e, err);
	if (rc != 0)
		goto out;
	if ((rc = bad_reset(g, err)) != 0)
		goto out;
	k_check_write<<<check_grid(g), THREADS, 0, g->s>>>(m->bb, m->n, k, c, g->bad_d);
	if ((rc = bad_read(g, &bad, err)) != 0)
		goto out;
	pick_indices(m->n, 0x77ull, idx, 64);
	if ((rc = gather(g, m->bb, 4, idx, 64, v, err)) != 0)
		goto out;
	for (i = 0; i < 64; i++)
		if (v[i] != float_bits(fmaf((float)(uint32_t)idx[i], k, c)))
			ok = 0;
	e.check = bad == 0 && ok ? 1 : -1;
	snprintf(e.shape, sizeof(e.shape), "%zu", m->n);
	e.bytes = 4.0 * (double)m->n;
	mem_method(m, &e, "a[i] = fma(float(i), k, c)", "float4 stores, 4 per thread per step",
	           grid, nb, nl, "every element (kernel), 64 host samples, bitwise");
	rc = rl_bench_add(m->b, &e, us, m->ns, err);
out:
	return rc;
}

static int mem_triad(struct memctx *m, struct rl_err *err)
{
	struct gpu *g = m->g;
	struct rl_bench_entry e;
	double us[SAMPLES_MAX];
	unsigned long long bad = 0;
	size_t idx[64];
	uint32_t va[64], vb[64], vc[64];
	float s;
	int rc = 0, nb = 0, grid = 0, nl = 0, ok = 1, i;
	auto launch = [&]() -> cudaError_t {
		k_triad<MEM_U><<<grid, THREADS, 0, g->s>>>(m->a, m->bb, m->c, m->n, s);
		return cudaGetLastError();
	};

	entry_init(&e, m->group, "triad", "fp32");
	s = (float)param(SEED_PARAM, 2, 0.5, 1.5, RL_FP32);
	RL_CU(resident_blocks(k_triad<MEM_U>, &nb));
	grid = g->sms * nb;
	RL_CU(rl_cu_fill_random(m->bb, m->n, RL_FP32, SEED_B, -1.0, 1.0, g->s));
	RL_CU(rl_cu_fill_random(m->c, m->n, RL_FP32, SEED_C, -1.0, 1.0, g->s));
	rc = pick_launches(g, launch, &nl, err);
	if (rc != 0)
		goto out;
	if (m->nl > 0)
		nl = m->nl;
	rc = time_launches(g, launch, m->ns, nl, us, &e, err);
	if (rc != 0)
		goto out;
	if ((rc = bad_reset(g, err)) != 0)
		goto out;
	k_check_triad<<<check_grid(g), THREADS, 0, g->s>>>(m->a, m->bb, m->c, m->n, s, g->bad_d);
	if ((rc = bad_read(g, &bad, err)) != 0)
		goto out;
	pick_indices(m->n, 0x78ull, idx, 64);
	if ((rc = gather(g, m->a, 4, idx, 64, va, err)) != 0 ||
	    (rc = gather(g, m->bb, 4, idx, 64, vb, err)) != 0 ||
	    (rc = gather(g, m->c, 4, idx, 64, vc, err)) != 0)
		goto out;
	for (i = 0; i < 64; i++) {
		float hb = (float)rl_cu_random_value(SEED_B, idx[i], -1.0, 1.0);
		float hc = (float)rl_cu_random_value(SEED_C, idx[i], -1.0, 1.0);

		if (vb[i] != float_bits(hb) || vc[i] != float_bits(hc) ||
		    va[i] != float_bits(fmaf(s, hc, hb)))
			ok = 0;
	}
	e.check = bad == 0 && ok ? 1 : -1;
	snprintf(e.shape, sizeof(e.shape), "%zu", m->n);
	e.bytes = 3.0 * 4.0 * (double)m->n;
	mem_method(m, &e, "a[i] = fma(s, c[i], b[i]), 2 reads + 1 write",
	           "float4 ld.cg, 2x4 in flight/thread", grid, nb, nl,
	           "every element (kernel), 64 host samples, bitwise");
	rc = rl_bench_add(m->b, &e, us, m->ns, err);
out:
	return rc;
}

extern "C" int rl_gpubench_memory(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	struct gpu g;
	struct memctx m;
	char note[64];
	size_t l2, want, min, ws;
	int rc, nb_read = 0;

	memset(&m, 0, sizeof(m));
	rc = gpu_open(dev, &g, err);
	if (rc != 0)
		return rc;
	m.g = &g;
	m.b = b;
	m.ns = quick ? SAMPLES_QUICK : SAMPLES_FULL;
	l2 = (size_t)g.l2_bytes;

	/* Device memory: arrays of max(8 x L2, 1 GiB) (quick: 4 x L2), whole
	 * multiples of 1 MiB, halved while three do not fit. */
	want = quick ? 4 * l2 : (8 * l2 > ((size_t)1 << 30) ? 8 * l2 : (size_t)1 << 30);
	want = (want + ((size_t)1 << 20) - 1) / ((size_t)1 << 20) * ((size_t)1 << 20) / 4;
	min = 2 * l2 / 4;
	m.cap = fit_elems(want, min, 4, 3);
	RL_CU(cudaMalloc(&m.a, m.cap * 4));
	RL_CU(cudaMalloc(&m.bb, m.cap * 4));
	RL_CU(cudaMalloc(&m.c, m.cap * 4));
	RL_CU(resident_blocks(k_read<MEM_U>, &nb_read));
	m.partial_n = g.sms * nb_read;
	RL_CU(cudaMalloc(&m.partial, m.partial_n * sizeof(float)));

	m.group = RL_BENCH_MEMORY;
	m.n = m.cap;
	m.passes = 1;
	m.nl = 0;
	snprintf(note, sizeof(note), "%.0f MiB arrays", (double)m.n * 4 / MIB);
	m.size_note = note;
	RL_CU(rl_cu_fill_random(m.a, m.n, RL_FP32, SEED_A, A_LO, A_HI, g.s));
	if ((rc = mem_copy(&m, err)) != 0 || (rc = mem_memcpy(&m, err)) != 0 ||
	    (rc = mem_read(&m, err)) != 0 ||
	    (rc = mem_write(&m, err)) != 0 || (rc = mem_triad(&m, err)) != 0)
		goto out;

	/* L2: a working set of a third of the L2 (both arrays together for
	 * copy), read PASSES times per launch so that a launch moves about
	 * 512 MiB and lasts far longer than the gap between launches. */
	m.group = RL_BENCH_L2;
	m.nl = quick ? 50 : 200;
	ws = l2 / 3;
	m.n = ws / 4 / 1024 * 1024;
	m.passes = (int)((512.0 * MIB) / (double)ws + 0.5);
	if (m.passes < 1)
		m.passes = 1;
	snprintf(note, sizeof(note), "%.1f MiB working set, L2 %.1f MiB", (double)m.n * 4 / MIB,
	         (double)l2 / MIB);
	/* mem_read leaves A holding the fill of SEED_A, which copy checks. */
	if ((rc = mem_read(&m, err)) != 0)
		goto out;
	m.n = ws / 8 / 1024 * 1024;
	snprintf(note, sizeof(note), "2 x %.1f MiB working set, L2 %.1f MiB",
	         (double)m.n * 4 / MIB, (double)l2 / MIB);
	if ((rc = mem_copy(&m, err)) != 0)
		goto out;
out:
	cudaFree(m.a);
	cudaFree(m.bb);
	cudaFree(m.c);
	cudaFree(m.partial);
	gpu_close(&g);
	return rc;
}

/* ==== CUDA-core pipes and special functions ============================= */

/* Each thread runs ILP independent dependent chains x = op(x) for ITERS
 * steps, unrolled CHUNK steps at a time (one loop branch per CHUNK x ILP
 * operations). Inputs come from memory; the chains are stored when
 * STORE_ALL (the checking launch) or when the XOR of their bits equals
 * IMPOSSIBLE, a run-time value they never produce, so nothing folds away. */
#define ILP 8
#define PIPE_WAVES 16

template <typename T> __device__ __forceinline__ unsigned long long bits_of(T x)
{
	if constexpr (sizeof(T) == 8) {
		unsigned long long u;

		memcpy(&u, &x, 8);
		return u;
	} else {
		unsigned u;

		static_assert(sizeof(T) == 4, "4- or 8-byte words");
		memcpy(&u, &x, 4);
		return u;
	}
}

template <class Op, int ITERS, int CHUNK>
__global__ void __launch_bounds__(THREADS)
	k_pipe(const typename Op::T *__restrict__ in, typename Op::T *__restrict__ out, Op op,
	       int store_all, unsigned long long impossible)
{
	typedef typename Op::T T;
	static_assert(ITERS % CHUNK == 0, "ITERS a multiple of CHUNK");
	const size_t nt = (size_t)gridDim.x * blockDim.x;
	const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	unsigned long long h = 0;
	T x[ILP];

#pragma unroll
	for (int j = 0; j < ILP; j++)
		x[j] = in[j * nt + t];
#pragma unroll 1
	for (int k = 0; k < ITERS / CHUNK; k++) {
#pragma unroll
		for (int m = 0; m < CHUNK; m++) {
#pragma unroll
			for (int j = 0; j < ILP; j++)
				x[j] = op(x[j]);
		}
	}
#pragma unroll
	for (int j = 0; j < ILP; j++)
		h ^= bits_of(x[j]);
	if (store_all || h == impossible) {
#pragma unroll
		for (int j = 0; j < ILP; j++)
			out[j * nt + t] = x[j];
	}
}

/* The operations. T: the word in memory; LANES elements of LANE_T per word;
 * FLOPS per operation on a word; host(): one step of one lane, recomputed
 * on the host in double; TOL: 0 for a bit-exact comparison, else the
 * relative tolerance after the whole chain. */
static double lane_f32(uint64_t w, int)
{
	return bits_float((uint32_t)w);
}

static double lane_f64(uint64_t w, int)
{
	double d;

	memcpy(&d, &w, sizeof(d));
	return d;
}

static double lane_f16(uint64_t w, int l)
{
	__half_raw r;

	r.x = (unsigned short)(w >> (16 * l));
	return (double)__half2float(__half(r));
}

static double lane_bf16(uint64_t w, int l)
{
	__nv_bfloat16_raw r;

	r.x = (unsigned short)(w >> (16 * l));
	return (double)__bfloat162float(__nv_bfloat16(r));
}

struct op_fma32 {
	typedef float T;
	static constexpr int lanes = 1, flops = 2;
	static constexpr enum rl_dtype lane_t = RL_FP32;
	float a, b;
	__device__ __forceinline__ T operator()(T x) const
	{
		return fmaf(x, a, b);
	}
	double host(double x) const
	{
		return fmaf((float)x, a, b);
	}
	static double lane(uint64_t w, int l)
	{
		return lane_f32(w, l);
	}
	static constexpr double tol = 0;
};

struct op_mul32 {
	typedef float T;
	static constexpr int lanes = 1, flops = 1;
	static constexpr enum rl_dtype lane_t = RL_FP32;
	float a;
	__device__ __forceinline__ T operator()(T x) const
	{
		return x * a;
	}
	double host(double x) const
	{
		return (float)x * a;
	}
	static double lane(uint64_t w, int l)
	{
		return lane_f32(w, l);
	}
	static constexpr double tol = 0;
};

struct op_fma64 {
	typedef double T;
	static constexpr int lanes = 1, flops = 2;
	static constexpr enum rl_dtype lane_t = RL_FP64;
	double a, b;
	__device__ __forceinline__ T operator()(T x) const
	{
		return fma(x, a, b);
	}
	double host(double x) const
	{
		return fma(x, a, b);
	}
	static double lane(uint64_t w, int l)
	{
		return lane_f64(w, l);
	}
	static constexpr double tol = 0;
};

/* Packed half precision: one HFMA2 does two FMAs. On the host, x * a is
 * exact in double (11 x 11 significant bits) and so is the sum with b for
 * the magnitudes used, so rounding once to half reproduces the GPU. */
struct op_hfma2 {
	typedef __half2 T;
	static constexpr int lanes = 2, flops = 4;
	static constexpr enum rl_dtype lane_t = RL_FP16;
	__half2 a2, b2;
	double a, b;
	__device__ __forceinline__ T operator()(T x) const
	{
		return __hfma2(x, a2, b2);
	}
	double host(double x) const
	{
		return rl_cu_round(fma(x, a, b), RL_FP16);
	}
	static double lane(uint64_t w, int l)
	{
		return lane_f16(w, l);
	}
	static constexpr double tol = 0;
};

struct op_bfma2 {
	typedef __nv_bfloat162 T;
	static constexpr int lanes = 2, flops = 4;
	static constexpr enum rl_dtype lane_t = RL_BF16;
	__nv_bfloat162 a2, b2;
	double a, b;
	__device__ __forceinline__ T operator()(T x) const
	{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
		/* No bf16 arithmetic before sm_80 (the entry is skipped there at
		 * run time): a float emulation, so that the kernel compiles. */
		float2 xf = __bfloat1622float2(x), af = __bfloat1622float2(a2),
		       bf = __bfloat1622float2(b2);

		return __floats2bfloat162_rn(fmaf(xf.x, af.x, bf.x), fmaf(xf.y, af.y, bf.y));
#else
		return __hfma2(x, a2, b2);
#endif
	}
	double host(double x) const
	{
		return rl_cu_round(fma(x, a, b), RL_BF16);
	}
	static double lane(uint64_t w, int l)
	{
		return lane_bf16(w, l);
	}
	static constexpr double tol = 0;
};

/* Special functions: x = cos(x) and x = exp(-x) are contractions (|f'| < 1
 * at their fixed points 0.739 and 0.567), so rounding differences between
 * the GPU and the host's double chain stay bounded instead of growing. The
 * chains settle on the fixed point, so the check confirms the values, not
 * the iteration count. */
struct op_cos {
	typedef float T;
	static constexpr int lanes = 1, flops = 1;
	static constexpr enum rl_dtype lane_t = RL_FP32;
	__device__ __forceinline__ T operator()(T x) const
	{
		return cosf(x);
	}
	double host(double x) const
	{
		return cos(x);
	}
	static double lane(uint64_t w, int l)
	{
		return lane_f32(w, l);
	}
	static constexpr double tol = 1e-5;
};

struct op_cos_fast {
	typedef float T;
	static constexpr int lanes = 1, flops = 1;
	static constexpr enum rl_dtype lane_t = RL_FP32;
	__device__ __forceinline__ T operator()(T x) const
	{
		return __cosf(x);
	}
	double host(double x) const
	{
		return cos(x);
	}
	static double lane(uint64_t w, int l)
	{
		return lane_f32(w, l);
	}
	static constexpr double tol = 1e-3;
};

struct op_exp {
	typedef float T;
	static constexpr int lanes = 1, flops = 1;
	static constexpr enum rl_dtype lane_t = RL_FP32;
	__device__ __forceinline__ T operator()(T x) const
	{
		return expf(-x);
	}
	double host(double x) const
	{
		return exp(-x);
	}
	static double lane(uint64_t w, int l)
	{
		return lane_f32(w, l);
	}
	static constexpr double tol = 1e-5;
};

struct op_exp_fast {
	typedef float T;
	static constexpr int lanes = 1, flops = 1;
	static constexpr enum rl_dtype lane_t = RL_FP32;
	__device__ __forceinline__ T operator()(T x) const
	{
		return __expf(-x);
	}
	double host(double x) const
	{
		return exp(-x);
	}
	static double lane(uint64_t w, int l)
	{
		return lane_f32(w, l);
	}
	static constexpr double tol = 1e-3;
};

struct pipectx {
	struct gpu *g;
	struct rl_bench *b;
	int ns;
	void *in, *out;   /* max_words words of up to 8 bytes each */
	size_t max_words;
};

#define PIPE_CHECK_THREADS 32 /* sampled threads, x ILP chains each */

template <class Op, int ITERS, int CHUNK>
static int pipe_entry(struct pipectx *p, enum rl_bench_group group, const char *name,
                      const char *dtype, const char *what, const Op &op, uint64_t seed,
                      double lo, double hi, struct rl_err *err)
{
	typedef typename Op::T T;
	struct gpu *g = p->g;
	struct rl_bench_entry e;
	double us[SAMPLES_MAX];
	size_t nt = 0, tid[PIPE_CHECK_THREADS], idx[PIPE_CHECK_THREADS * ILP];
	uint64_t words[PIPE_CHECK_THREADS * ILP];
	int rc = 0, nb = 0, grid = 0, nl = 0, ok = 1, i, k, l, it;
	const unsigned long long impossible = ~0ull;
	auto launch = [&]() -> cudaError_t {
		k_pipe<Op, ITERS, CHUNK><<<grid, THREADS, 0, g->s>>>((const T *)p->in, (T *)p->out, op,
		                                                      0, impossible);
		return cudaGetLastError();
	};

	static_assert(sizeof(T) <= 8, "words of up to 8 bytes");
	entry_init(&e, group, name, dtype);
	RL_CU(resident_blocks(k_pipe<Op, ITERS, CHUNK>, &nb));
	grid = g->sms * nb * PIPE_WAVES;
	nt = (size_t)grid * THREADS;
	if (nt * ILP > p->max_words) {
		rc = rl_err_set(err, RL_ERR_RANGE, "%s: %zu threads over the buffers", name, nt);
		goto out;
	}
	RL_CU(rl_cu_fill_random(p->in, nt * ILP * Op::lanes, Op::lane_t, seed, lo, hi, g->s));
	rc = pick_launches(g, launch, &nl, err);
	if (rc != 0)
		goto out;
	rc = time_launches(g, launch, p->ns, nl, us, &e, err);
	if (rc != 0)
		goto out;

	/* The checking launch: the same kernel and grid, storing every chain. */
	RL_CU(rl_cu_fill_random(p->out, nt * ILP * Op::lanes, Op::lane_t, seed + 1, lo, hi, g->s));
	k_pipe<Op, ITERS, CHUNK><<<grid, THREADS, 0, g->s>>>((const T *)p->in, (T *)p->out, op, 1,
	                                                      impossible);
	RL_CU(cudaGetLastError());
	pick_indices(nt, seed ^ 0x7069ull, tid, PIPE_CHECK_THREADS);
	for (i = 0; i < PIPE_CHECK_THREADS; i++)
		for (k = 0; k < ILP; k++)
			idx[i * ILP + k] = k * nt + tid[i];
	memset(words, 0, sizeof(words));
	if ((rc = gather(g, p->out, sizeof(T), idx, PIPE_CHECK_THREADS * ILP, words, err)) != 0)
		goto out;
	for (i = 0; i < PIPE_CHECK_THREADS * ILP; i++) {
		uint64_t w = 0;

		/* gather packed the words at sizeof(T) strides */
		memcpy(&w, (const char *)words + i * sizeof(T), sizeof(T));
		for (l = 0; l < Op::lanes; l++) {
			size_t el = idx[i] * Op::lanes + l;
			double x = rl_cu_round(rl_cu_random_value(seed, el, lo, hi), Op::lane_t);
			double d = Op::lane(w, l);

			for (it = 0; it < ITERS; it++)
				x = op.host(x);
			if (Op::tol == 0 ? !(d == x) : !(fabs(d - x) <= Op::tol * fabs(x)))
				ok = 0;
		}
	}
	e.check = ok ? 1 : -1;
	e.flops = (double)nt * ILP * ITERS * Op::flops;
	snprintf(e.method, sizeof(e.method),
	         "%s; %d independent chains x %d dependent steps per thread (unrolled by %d), "
	         "grid %dx%d blocks of %d (%d waves); %d samples x %d launches, CUDA events; "
	         "check: %d chains of a store-all launch vs host%s",
	         what, ILP, ITERS, CHUNK, g->sms * PIPE_WAVES, nb, THREADS, PIPE_WAVES, p->ns, nl,
	         PIPE_CHECK_THREADS * ILP, Op::tol == 0 ? ", bitwise" : " within a tolerance");
	rc = rl_bench_add(p->b, &e, us, p->ns, err);
out:
	return rc;
}

#define SEED_PIPE 0x70697065ull

extern "C" int rl_gpubench_pipes(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	struct gpu g;
	struct pipectx p;
	op_fma32 f32;
	op_mul32 m32;
	op_fma64 f64;
	op_hfma2 h16;
	op_bfma2 hb16;
	int rc;

	memset(&p, 0, sizeof(p));
	rc = gpu_open(dev, &g, err);
	if (rc != 0)
		return rc;
	p.g = &g;
	p.b = b;
	p.ns = quick ? SAMPLES_QUICK : SAMPLES_FULL;
	/* The most threads any grid below has: every SM full, PIPE_WAVES times. */
	p.max_words = (size_t)g.sms * g.threads_per_sm * PIPE_WAVES * ILP;
	RL_CU(cudaMalloc(&p.in, p.max_words * 8));
	RL_CU(cudaMalloc(&p.out, p.max_words * 8));

	/* Multipliers just under 1 in magnitude and negative, small addends:
	 * the chains alternate in sign and decay slowly (|a|^1024 > 0.3 for
	 * fp32), so values stay in range and keep changing; a != 1 exactly. */
	f32.a = (float)param(SEED_PIPE, 0, -0.9999, -0.999, RL_FP32);
	f32.b = (float)param(SEED_PIPE, 1, -0.01, 0.01, RL_FP32);
	rc = pipe_entry<op_fma32, 1024, 64>(&p, RL_BENCH_VECTOR, "fp32-fma", "fp32",
	                                    "x = fmaf(x, a, b) (FFMA)", f32, SEED_PIPE + 10, -1.0,
	                                    1.0, err);
	if (rc != 0)
		goto out;
	m32.a = (float)param(SEED_PIPE, 2, 0.9999, 0.99999, RL_FP32);
	rc = pipe_entry<op_mul32, 1024, 64>(&p, RL_BENCH_VECTOR, "fp32-mul", "fp32",
	                                    "x = x * a (FMUL, 1 FLOP)", m32, SEED_PIPE + 20, -1.0,
	                                    1.0, err);
	if (rc != 0)
		goto out;
	f64.a = param(SEED_PIPE, 3, -0.9999, -0.999, RL_FP64);
	f64.b = param(SEED_PIPE, 4, -0.01, 0.01, RL_FP64);
	rc = pipe_entry<op_fma64, 1024, 64>(&p, RL_BENCH_VECTOR, "fp64-fma", "fp64",
	                                    "x = fma(x, a, b) (DFMA)", f64, SEED_PIPE + 30, -1.0,
	                                    1.0, err);
	if (rc != 0)
		goto out;
	/* Half: a in [-0.999, -0.99) is -(1 - k 2^-11) (fp16), -0.99609 or
	 * -0.99219 (bf16): the chains oscillate towards b / (1 - a), |b| <
	 * 0.01, within the normal range of both types. */
	h16.a = param(SEED_PIPE, 5, -0.999, -0.99, RL_FP16);
	h16.b = param(SEED_PIPE, 6, -0.01, 0.01, RL_FP16);
	h16.a2 = __halves2half2(__double2half(h16.a), __double2half(h16.a));
	h16.b2 = __halves2half2(__double2half(h16.b), __double2half(h16.b));
	rc = pipe_entry<op_hfma2, 1024, 64>(&p, RL_BENCH_VECTOR, "fp16-fma", "fp16",
	                                    "x = __hfma2(x, a, b) on __half2 (HFMA2, 4 FLOPs)", h16,
	                                    SEED_PIPE + 40, -1.0, 1.0, err);
	if (rc != 0)
		goto out;
	if (g.cc >= 80) {
		hb16.a = param(SEED_PIPE, 7, -0.998, -0.99, RL_BF16);
		hb16.b = param(SEED_PIPE, 8, -0.01, 0.01, RL_BF16);
		hb16.a2 = __halves2bfloat162(__double2bfloat16(hb16.a), __double2bfloat16(hb16.a));
		hb16.b2 = __halves2bfloat162(__double2bfloat16(hb16.b), __double2bfloat16(hb16.b));
		rc = pipe_entry<op_bfma2, 1024, 64>(
			&p, RL_BENCH_VECTOR, "bf16-fma", "bf16",
			"x = __hfma2(x, a, b) on __nv_bfloat162 (HFMA2.BF16, 4 FLOPs)", hb16,
			SEED_PIPE + 50, -1.0, 1.0, err);
		if (rc != 0)
			goto out;
	}

	/* Special functions, one FLOP per evaluation. The accurate cosf
	 * carries a Payne-Hanek branch for |x| > 105615 that these inputs never
	 * take; a short unroll keeps its inlined copies few. */
	rc = pipe_entry<op_cos, 256, 2>(&p, RL_BENCH_SPECIAL, "cos", "fp32",
	                                "x = cosf(x) (libdevice, accurate)", op_cos(),
	                                SEED_PIPE + 60, -1.0, 1.0, err);
	if (rc != 0)
		goto out;
	rc = pipe_entry<op_exp, 256, 16>(&p, RL_BENCH_SPECIAL, "exp", "fp32",
	                                 "x = expf(-x) (libdevice, accurate)", op_exp(),
	                                 SEED_PIPE + 70, 0.0, 1.0, err);
	if (rc != 0)
		goto out;
	rc = pipe_entry<op_cos_fast, 1024, 32>(&p, RL_BENCH_SPECIAL, "cos-fast", "fp32",
	                                       "x = __cosf(x) (MUFU.COS)", op_cos_fast(),
	                                       SEED_PIPE + 80, -1.0, 1.0, err);
	if (rc != 0)
		goto out;
	rc = pipe_entry<op_exp_fast, 1024, 32>(&p, RL_BENCH_SPECIAL, "exp-fast", "fp32",
	                                       "x = __expf(-x) (FMUL + MUFU.EX2)", op_exp_fast(),
	                                       SEED_PIPE + 90, 0.0, 1.0, err);
out:
	cudaFree(p.in);
	cudaFree(p.out);
	gpu_close(&g);
	return rc;
}

/* ==== the intensity sweep =============================================== */

/* Read x[i], multiply it R times by c (dependent), write out[i]. Each thread
 * moves SWEEP_V 16-byte vectors per step of a grid-stride loop, all loaded
 * before the first multiply: 4 x SWEEP_V independent chains of words (a
 * float, or a packed pair of halves multiplied by one HMUL2). R is unrolled
 * whole up to 32 and in 32-step chunks beyond, so the loop branch costs
 * under 1% while the code stays small enough for the instruction cache. */
#define SWEEP_V 4

struct sw_fp32 {
	typedef float W; /* a word of a 16-byte vector */
	typedef float S; /* one element */
	static constexpr int per_word = 1;
	static constexpr enum rl_dtype t = RL_FP32;
	__device__ __forceinline__ static W mul(W x, W c)
	{
		return __fmul_rn(x, c);
	}
	__device__ __forceinline__ static S muls(S x, W c)
	{
		return __fmul_rn(x, c);
	}
	__device__ __forceinline__ static unsigned sbits(S x)
	{
		return __float_as_uint(x);
	}
	static W word(double c)
	{
		return (float)c;
	}
};

struct sw_fp16 {
	typedef __half2 W;
	typedef __half S;
	static constexpr int per_word = 2;
	static constexpr enum rl_dtype t = RL_FP16;
	__device__ __forceinline__ static W mul(W x, W c)
	{
		return __hmul2(x, c);
	}
	__device__ __forceinline__ static S muls(S x, W c)
	{
		return __hmul(x, __low2half(c));
	}
	__device__ __forceinline__ static unsigned sbits(S x)
	{
		return __half_as_ushort(x);
	}
	static W word(double c)
	{
		return __halves2half2(__double2half(c), __double2half(c));
	}
};

struct sw_bf16 {
	typedef __nv_bfloat162 W;
	typedef __nv_bfloat16 S;
	static constexpr int per_word = 2;
	static constexpr enum rl_dtype t = RL_BF16;
	__device__ __forceinline__ static W mul(W x, W c)
	{
		return __hmul2(x, c);
	}
	__device__ __forceinline__ static S muls(S x, W c)
	{
		return __hmul(x, __low2bfloat16(c));
	}
	__device__ __forceinline__ static unsigned sbits(S x)
	{
		return __bfloat16_as_ushort(x);
	}
	static W word(double c)
	{
		return __halves2bfloat162(__double2bfloat16(c), __double2bfloat16(c));
	}
};

template <typename W> __device__ __forceinline__ W word_of(unsigned u)
{
	W w;

	static_assert(sizeof(W) == 4, "4-byte words");
	memcpy(&w, &u, 4);
	return w;
}

template <typename W> __device__ __forceinline__ unsigned bits_word(W w)
{
	unsigned u;

	memcpy(&u, &w, 4);
	return u;
}

template <class Tr, int R, int NV>
__device__ __forceinline__ void sweep_vectors(const uint4 *__restrict__ in, uint4 *__restrict__ out,
                                              size_t i, size_t stride, typename Tr::W c)
{
	typedef typename Tr::W W;
	constexpr int RC = R < 32 ? R : 32;
	static_assert(R % RC == 0, "R a power of two");
	W w[NV][4];

#pragma unroll
	for (int u = 0; u < NV; u++) {
		uint4 v = __ldcg(in + i + u * stride);

		w[u][0] = word_of<W>(v.x);
		w[u][1] = word_of<W>(v.y);
		w[u][2] = word_of<W>(v.z);
		w[u][3] = word_of<W>(v.w);
	}
#pragma unroll 1
	for (int k = 0; k < R / RC; k++) {
#pragma unroll
		for (int r = 0; r < RC; r++) {
#pragma unroll
			for (int u = 0; u < NV; u++) {
#pragma unroll
				for (int l = 0; l < 4; l++)
					w[u][l] = Tr::mul(w[u][l], c);
			}
		}
	}
#pragma unroll
	for (int u = 0; u < NV; u++)
		out[i + u * stride] = make_uint4(bits_word(w[u][0]), bits_word(w[u][1]),
		                                 bits_word(w[u][2]), bits_word(w[u][3]));
}

template <class Tr, int R>
__global__ void __launch_bounds__(THREADS)
	k_sweep(const typename Tr::S *__restrict__ x, typename Tr::S *__restrict__ y, size_t n,
	        typename Tr::W c)
{
	typedef typename Tr::S S;
	constexpr size_t per_vec = 4 * Tr::per_word;
	const uint4 *in = reinterpret_cast<const uint4 *>(x);
	uint4 *out = reinterpret_cast<uint4 *>(y);
	const size_t nv = n / per_vec, stride = (size_t)gridDim.x * blockDim.x;
	const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t i = t;

	for (; i + (SWEEP_V - 1) * stride < nv; i += SWEEP_V * stride)
		sweep_vectors<Tr, R, SWEEP_V>(in, out, i, stride, c);
	for (; i < nv; i += stride)
		sweep_vectors<Tr, R, 1>(in, out, i, stride, c);
	for (i = nv * per_vec + t; i < n; i += stride) {
		S v = x[i];

		for (int r = 0; r < R; r++)
			v = Tr::muls(v, c);
		y[i] = v;
	}
}

/* The check: every element recomputed one multiply at a time. */
template <class Tr>
__global__ void k_sweep_check(const typename Tr::S *__restrict__ x,
                              const typename Tr::S *__restrict__ y, size_t n, int r,
                              typename Tr::W c, unsigned long long *bad)
{
	unsigned long long cnt = 0;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x) {
		typename Tr::S v = x[i];

		for (int k = 0; k < r; k++)
			v = Tr::muls(v, c);
		cnt += Tr::sbits(v) != Tr::sbits(y[i]);
	}
	if (cnt != 0)
		atomicAdd(bad, cnt);
}

struct sweepctx {
	struct gpu *g;
	struct rl_bench *b;
	int ns;
	void *x, *y;
	size_t n;
	double c;   /* the multiplier, already rounded to the dtype */
	uint64_t seed;
	double lo, hi;
};

#define SWEEP_CHECK 64

template <class Tr, int R> static int sweep_point(struct sweepctx *w, struct rl_err *err)
{
	typedef typename Tr::S S;
	struct gpu *g = w->g;
	struct rl_bench_entry e;
	double us[SAMPLES_MAX];
	unsigned long long bad = 0;
	size_t idx[SWEEP_CHECK];
	uint32_t v[SWEEP_CHECK];
	const typename Tr::W c = Tr::word(w->c);
	const size_t esize = sizeof(S);
	int rc = 0, nb = 0, grid = 0, nl = 0, ok = 1, i, r;
	auto launch = [&]() -> cudaError_t {
		k_sweep<Tr, R><<<grid, THREADS, 0, g->s>>>((const S *)w->x, (S *)w->y, w->n, c);
		return cudaGetLastError();
	};

	entry_init(&e, RL_BENCH_SWEEP, "sweep", rl_dtype_name(Tr::t));
	RL_CU(resident_blocks(k_sweep<Tr, R>, &nb));
	grid = g->sms * nb;
	/* Poison the output: an element the kernel skips fails the check. */
	RL_CU(rl_cu_fill_random(w->y, w->n, Tr::t, w->seed + 1, w->lo, w->hi, g->s));
	rc = pick_launches(g, launch, &nl, err);
	if (rc != 0)
		goto out;
	rc = time_launches(g, launch, w->ns, nl, us, &e, err);
	if (rc != 0)
		goto out;
	if ((rc = bad_reset(g, err)) != 0)
		goto out;
	k_sweep_check<Tr><<<check_grid(g), THREADS, 0, g->s>>>((const S *)w->x, (const S *)w->y,
	                                                      w->n, R, c, g->bad_d);
	if ((rc = bad_read(g, &bad, err)) != 0)
		goto out;
	pick_indices(w->n, w->seed ^ (uint64_t)R, idx, SWEEP_CHECK);
	memset(v, 0, sizeof(v));
	if ((rc = gather(g, w->y, esize, idx, SWEEP_CHECK, v, err)) != 0)
		goto out;
	for (i = 0; i < SWEEP_CHECK; i++) {
		/* x * c is exact in double (24 x 24 bits at most), so rounding
		 * it to the dtype is the GPU's one rounding. */
		double hx = rl_cu_round(rl_cu_random_value(w->seed, idx[i], w->lo, w->hi), Tr::t);
		uint32_t bits = 0;
		double d;

		for (r = 0; r < R; r++)
			hx = rl_cu_round(hx * w->c, Tr::t);
		memcpy(&bits, (const char *)v + i * esize, esize);
		d = Tr::t == RL_FP32 ? (double)bits_float(bits)
		                     : Tr::t == RL_FP16 ? lane_f16(bits, 0) : lane_bf16(bits, 0);
		if (!(d == hx))
			ok = 0;
	}
	e.check = bad == 0 && ok ? 1 : -1;
	snprintf(e.shape, sizeof(e.shape), "%zu", w->n);
	e.repeat = R;
	e.flops = (double)w->n * R;
	e.bytes = (double)w->n * esize * 2;
	snprintf(e.method, sizeof(e.method),
	         "y[i] = x[i] * c^%d, %d dependent %s per element, c = %.8g; 16-byte "
	         "ld.global.cg/st, %d vectors in flight per thread, grid %dx%d blocks of %d "
	         "(grid-stride); %d samples x %d launches, CUDA events; check: every element "
	         "(kernel) + 64 host samples, bitwise",
	         R, R, Tr::per_word == 2 ? "packed HMUL2" : "FMUL", w->c, SWEEP_V, g->sms, nb,
	         THREADS, w->ns, nl);
	rc = rl_bench_add(w->b, &e, us, w->ns, err);
out:
	return rc;
}

template <class Tr> static int sweep_repeat(struct sweepctx *w, int r, struct rl_err *err)
{
	switch (r) {
	case 1:
		return sweep_point<Tr, 1>(w, err);
	case 2:
		return sweep_point<Tr, 2>(w, err);
	case 4:
		return sweep_point<Tr, 4>(w, err);
	case 8:
		return sweep_point<Tr, 8>(w, err);
	case 16:
		return sweep_point<Tr, 16>(w, err);
	case 32:
		return sweep_point<Tr, 32>(w, err);
	case 64:
		return sweep_point<Tr, 64>(w, err);
	case 128:
		return sweep_point<Tr, 128>(w, err);
	case 256:
		return sweep_point<Tr, 256>(w, err);
	case 512:
		return sweep_point<Tr, 512>(w, err);
	case 1024:
		return sweep_point<Tr, 1024>(w, err);
	}
	return rl_err_set(err, RL_ERR_ARG, "sweep: no kernel for repeat %d", r);
}

template <class Tr>
static int sweep_dtype(struct sweepctx *w, int quick, double c_lo, double c_hi,
                       struct rl_err *err)
{
	static const int full[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
	static const int fast[] = {1, 4, 16, 64, 256, 1024};
	const int *rs = quick ? fast : full;
	int nr = quick ? (int)(sizeof(fast) / sizeof(fast[0])) : (int)(sizeof(full) / sizeof(full[0]));
	int rc = 0, i;

	w->seed = 0x7377656570ull + (uint64_t)Tr::t;
	w->lo = 0.5;
	w->hi = 2.0;
	w->c = param(w->seed, 99, c_lo, c_hi, Tr::t);
	RL_CU(rl_cu_fill_random(w->x, w->n, Tr::t, w->seed, w->lo, w->hi, w->g->s));
	for (i = 0; i < nr; i++)
		if ((rc = sweep_repeat<Tr>(w, rs[i], err)) != 0)
			break;
out:
	return rc;
}

extern "C" int rl_gpubench_sweep(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	struct gpu g;
	struct sweepctx w;
	size_t want, min;
	int rc;

	memset(&w, 0, sizeof(w));
	rc = gpu_open(dev, &g, err);
	if (rc != 0)
		return rc;
	w.g = &g;
	w.b = b;
	w.ns = quick ? SAMPLES_QUICK : SAMPLES_FULL;
	/* Full: 2^28 elements (1 GiB of fp32); quick: 2 x L2 elements, so that
	 * even the 2-byte arrays are 4 x L2. Halved while in + out of fp32 do
	 * not fit. */
	min = ((size_t)g.l2_bytes * 2 + ((size_t)1 << 20) - 1) >> 20 << 20;
	want = quick ? min : (size_t)1 << 28;
	if (want < min)
		want = min;
	w.n = fit_elems(want, min / 2, 4, 2);
	RL_CU(cudaMalloc(&w.x, w.n * 4));
	RL_CU(cudaMalloc(&w.y, w.n * 4));

	/* c just under 1, not 1: after 1024 multiplies the values keep their
	 * range (fp32: c^1024 > 0.35; fp16: 1 - k 2^-11, c^1024 > 0.13;
	 * bf16: 0.99609375, c^1024 = 0.018, inside bf16's range). */
	if ((rc = sweep_dtype<sw_fp32>(&w, quick, 0.999, 0.9999, err)) != 0)
		goto out;
	if (g.cc >= 80 && (rc = sweep_dtype<sw_bf16>(&w, quick, 0.995, 0.997, err)) != 0)
		goto out;
	if ((rc = sweep_dtype<sw_fp16>(&w, quick, 0.998, 0.9995, err)) != 0)
		goto out;
out:
	cudaFree(w.x);
	cudaFree(w.y);
	gpu_close(&g);
	return rc;
}

/* ==== launch overhead ==================================================== */

static double host_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

__global__ void k_empty(void)
{
}

/* Holds the stream until the host sets *FLAG (host-mapped memory), or gives
 * up after TIMEOUT clock64 cycles and says so in *TIMED_OUT: a lost flag must
 * not hang the GPU. */
__global__ void k_spin(const volatile int *flag, long long timeout, int *timed_out)
{
	const long long t0 = clock64();

	while (*flag == 0)
		if (clock64() - t0 > timeout) {
			*timed_out = 1;
			return;
		}
}

static int launch_enqueue(struct gpu *g, struct rl_bench *b, int quick, struct rl_err *err)
{
	struct rl_bench_entry e;
	double us[SAMPLES_MAX], t0;
	const int ns = quick ? SAMPLES_QUICK : SAMPLES_FULL, n = quick ? 1000 : 5000;
	int rc = 0, i, j;

	entry_init(&e, RL_BENCH_LAUNCH, "enqueue", "");
	for (j = 0; j < 200; j++)
		k_empty<<<1, 32, 0, g->s>>>();
	RL_CU(cudaGetLastError());
	RL_CU(cudaStreamSynchronize(g->s));
	for (i = 0; i < ns; i++) {
		t0 = host_us();
		for (j = 0; j < n; j++)
			k_empty<<<1, 32, 0, g->s>>>();
		us[i] = (host_us() - t0) / n;
		RL_CU(cudaGetLastError());
		RL_CU(cudaStreamSynchronize(g->s));
	}
	rl_nvml_sample(g->dev, &e.sm_clock_mhz, &e.temp_c);
	snprintf(e.method, sizeof(e.method),
	         "host CLOCK_MONOTONIC around %d back-to-back launches of an empty kernel "
	         "<<<1, 32>>> on a non-blocking stream, no synchronize inside (one after each "
	         "sample, untimed); per launch; %d samples after 200 warm-up launches",
	         n, ns);
	rc = rl_bench_add(b, &e, us, ns, err);
out:
	return rc;
}

static int launch_roundtrip(struct gpu *g, struct rl_bench *b, int quick, struct rl_err *err)
{
	struct rl_bench_entry e;
	double us[SAMPLES_MAX], t0;
	const int ns = quick ? SAMPLES_QUICK : SAMPLES_FULL, n = quick ? 200 : 1000;
	int rc = 0, i, j;

	entry_init(&e, RL_BENCH_LAUNCH, "roundtrip", "");
	for (j = 0; j < 50; j++) {
		k_empty<<<1, 32, 0, g->s>>>();
		RL_CU(cudaStreamSynchronize(g->s));
	}
	RL_CU(cudaGetLastError());
	for (i = 0; i < ns; i++) {
		t0 = host_us();
		for (j = 0; j < n; j++) {
			k_empty<<<1, 32, 0, g->s>>>();
			RL_CU(cudaStreamSynchronize(g->s));
		}
		us[i] = (host_us() - t0) / n;
		RL_CU(cudaGetLastError());
	}
	rl_nvml_sample(g->dev, &e.sm_clock_mhz, &e.temp_c);
	snprintf(e.method, sizeof(e.method),
	         "host CLOCK_MONOTONIC around %d x (launch of an empty kernel <<<1, 32>>> + "
	         "cudaStreamSynchronize) on a non-blocking stream; per launch; %d samples after "
	         "50 warm-up round trips",
	         n, ns);
	rc = rl_bench_add(b, &e, us, ns, err);
out:
	return rc;
}

static int launch_back_to_back(struct gpu *g, struct rl_bench *b, int quick,
                               struct rl_err *err)
{
	struct rl_bench_entry e;
	double us[SAMPLES_MAX];
	const int ns = quick ? SAMPLES_QUICK : SAMPLES_FULL;
	volatile int *flag_h = NULL;
	int *flag_d = NULL, *timed_out_d = NULL, timed_out = 0;
	int rc = 0, i, j, n = 500;
	float ms = 0;
	/* 1 s at the highest SM clock (longer when the clock is lower). */
	const long long timeout = (long long)g->clock_khz * 1000;

	entry_init(&e, RL_BENCH_LAUNCH, "back-to-back", "");
	RL_CU(cudaHostAlloc((void **)&flag_h, sizeof(int), cudaHostAllocMapped));
	RL_CU(cudaHostGetDevicePointer((void **)&flag_d, (void *)flag_h, 0));
	RL_CU(cudaMalloc(&timed_out_d, sizeof(int)));
	for (j = 0; j < 200; j++)
		k_empty<<<1, 32, 0, g->s>>>();
	RL_CU(cudaGetLastError());
	RL_CU(cudaStreamSynchronize(g->s));
	for (i = 0; i < ns; i++) {
		*flag_h = 0;
		RL_CU(cudaMemsetAsync(timed_out_d, 0, sizeof(int), g->s));
		k_spin<<<1, 1, 0, g->s>>>(flag_d, timeout, timed_out_d);
		RL_CU(cudaGetLastError());
		RL_CU(cudaEventRecord(g->e0, g->s));
		for (j = 0; j < n; j++)
			k_empty<<<1, 32, 0, g->s>>>();
		RL_CU(cudaGetLastError());
		RL_CU(cudaEventRecord(g->e1, g->s));
		__sync_synchronize();
		*flag_h = 1;
		__sync_synchronize();
		RL_CU(cudaEventSynchronize(g->e1));
		RL_CU(cudaMemcpyAsync(&timed_out, timed_out_d, sizeof(int), cudaMemcpyDeviceToHost,
		                      g->s));
		RL_CU(cudaStreamSynchronize(g->s));
		if (timed_out) {
			/* The spin ended before the host had queued everything
			 * (a stream that takes fewer launches while blocked?):
			 * start again with fewer. */
			if (n <= 32) {
				rc = rl_err_set(err, RL_ERR_DEVICE,
				                "back-to-back: the stream-blocking kernel timed out "
				                "with only %d launches queued behind it",
				                n);
				goto out;
			}
			n /= 2;
			i = -1;
			continue;
		}
		RL_CU(cudaEventElapsedTime(&ms, g->e0, g->e1));
		us[i] = (double)ms * 1e3 / n;
	}
	rl_nvml_sample(g->dev, &e.sm_clock_mhz, &e.temp_c);
	snprintf(e.method, sizeof(e.method),
	         "CUDA events around %d empty kernels <<<1, 32>>> queued behind a kernel spinning on "
	         "a host-mapped flag, released once all were queued (device time per kernel in a "
	         "full stream, no host enqueue cost); per kernel; %d samples",
	         n, ns);
	rc = rl_bench_add(b, &e, us, ns, err);
out:
	if (flag_h != NULL) {
		/* Release a spin kernel still waiting after an error. */
		*flag_h = 1;
		cudaStreamSynchronize(g->s);
		cudaFreeHost((void *)flag_h);
	}
	cudaFree(timed_out_d);
	return rc;
}

static int launch_graph(struct gpu *g, struct rl_bench *b, int quick, struct rl_err *err)
{
	struct rl_bench_entry e;
	double us[SAMPLES_MAX];
	const int ns = quick ? SAMPLES_QUICK : SAMPLES_FULL, n = 500;
	cudaGraph_t graph = NULL;
	cudaGraphExec_t exec = NULL;
	int rc = 0, i, j, capturing = 0;
	float ms = 0;

	entry_init(&e, RL_BENCH_LAUNCH, "graph-node", "");
	RL_CU(cudaStreamBeginCapture(g->s, cudaStreamCaptureModeThreadLocal));
	capturing = 1;
	for (j = 0; j < n; j++)
		k_empty<<<1, 32, 0, g->s>>>();
	RL_CU(cudaGetLastError());
	capturing = 0;
	RL_CU(cudaStreamEndCapture(g->s, &graph));
	RL_CU(cudaGraphInstantiate(&exec, graph, 0));
	for (j = 0; j < 3; j++)
		RL_CU(cudaGraphLaunch(exec, g->s));
	RL_CU(cudaStreamSynchronize(g->s));
	for (i = 0; i < ns; i++) {
		RL_CU(cudaEventRecord(g->e0, g->s));
		RL_CU(cudaGraphLaunch(exec, g->s));
		RL_CU(cudaEventRecord(g->e1, g->s));
		RL_CU(cudaEventSynchronize(g->e1));
		RL_CU(cudaEventElapsedTime(&ms, g->e0, g->e1));
		us[i] = (double)ms * 1e3 / n;
	}
	rl_nvml_sample(g->dev, &e.sm_clock_mhz, &e.temp_c);
	snprintf(e.method, sizeof(e.method),
	         "CUDA events around one replay of a graph of %d empty-kernel nodes <<<1, 32>>> "
	         "(stream capture, instantiated once, 3 warm-up replays); per node; %d samples",
	         n, ns);
	rc = rl_bench_add(b, &e, us, ns, err);
out:
	if (capturing) {
		cudaGraph_t partial = NULL;

		if (cudaStreamEndCapture(g->s, &partial) == cudaSuccess && partial != NULL)
			cudaGraphDestroy(partial);
		cudaGetLastError(); /* the capture's own failure is reported already */
	}
	if (exec != NULL)
		cudaGraphExecDestroy(exec);
	if (graph != NULL)
		cudaGraphDestroy(graph);
	return rc;
}

extern "C" int rl_gpubench_launch(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	struct gpu g;
	int rc;

	rc = gpu_open(dev, &g, err);
	if (rc != 0)
		return rc;
	if ((rc = launch_enqueue(&g, b, quick, err)) == 0 &&
	    (rc = launch_roundtrip(&g, b, quick, err)) == 0 &&
	    (rc = launch_back_to_back(&g, b, quick, err)) == 0)
		rc = launch_graph(&g, b, quick, err);
	gpu_close(&g);
	return rc;
}
