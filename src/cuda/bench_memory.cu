/* bench_memory.cu - device-memory and L2 bandwidth (rl_gpubench_memory,
 * gpubench.h): copy, memcpy, read, write and triad, on a large array and on a
 * working set inside the L2; timing and checks from harness.h.
 */
#include "config.h"

#include "harness.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

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

/* One tile per block ("one-shot"): block j moves float4s [j T U, (j + 1) T U),
 * thread t the U at t + k T, as many blocks as tiles. Blocks are issued in
 * address order and retire as they finish, so the chip works in a narrow
 * window that slides once over the arrays; a grid-stride loop keeps a fixed
 * grid whose threads drift apart over the whole array. On an H200 the tiles
 * reach 4.24 TB/s for a copy and 4.51 for a write against 3.86 and 4.32 for
 * the grid-stride loop, the figures of PyTorch's vectorized_elementwise_kernel
 * (128 threads, one tile per block): relu 4.26, x * 2 4.25, fill_ 4.66 TB/s
 * (bench/tuning/oneshot.cu, docs/measurements/h200-issue12-2026-12-01/).
 * The L2 entries, several passes per launch, keep the grid-stride loop.
 * Elements past the last whole float4 are done by block 0. */
#define TILE_THREADS 128
#define COPY_TILE_U 1
#define WRITE_TILE_U 4
#define TRIAD_TILE_U 2

static unsigned tile_grid(size_t n, int u)
{
	size_t per = (size_t)TILE_THREADS * u, g = (n / 4 + per - 1) / per;

	return g > 0 ? (unsigned)g : 1u;
}

template <int U>
__global__ void __launch_bounds__(TILE_THREADS)
	k_copy_tile(const float *__restrict__ a, float *__restrict__ b, size_t n)
{
	const float4 *a4 = reinterpret_cast<const float4 *>(a);
	float4 *b4 = reinterpret_cast<float4 *>(b);
	const size_t n4 = n / 4, base = (size_t)blockIdx.x * TILE_THREADS * U + threadIdx.x;
	float4 v[U];

#pragma unroll
	for (int u = 0; u < U; u++)
		if (base + (size_t)u * TILE_THREADS < n4)
			v[u] = __ldcg(a4 + base + (size_t)u * TILE_THREADS);
#pragma unroll
	for (int u = 0; u < U; u++)
		if (base + (size_t)u * TILE_THREADS < n4)
			b4[base + (size_t)u * TILE_THREADS] = v[u];
	if (blockIdx.x == 0)
		for (size_t i = 4 * n4 + threadIdx.x; i < n; i += TILE_THREADS)
			b[i] = __ldcg(a + i);
}

template <int U>
__global__ void __launch_bounds__(TILE_THREADS) k_write_tile(float *__restrict__ a, size_t n, float k, float c)
{
	float4 *a4 = reinterpret_cast<float4 *>(a);
	const size_t n4 = n / 4, base = (size_t)blockIdx.x * TILE_THREADS * U + threadIdx.x;

#pragma unroll
	for (int u = 0; u < U; u++) {
		size_t i = base + (size_t)u * TILE_THREADS, e = 4 * i;

		if (i < n4)
			a4[i] = make_float4(write_value(e, k, c), write_value(e + 1, k, c),
			                    write_value(e + 2, k, c), write_value(e + 3, k, c));
	}
	if (blockIdx.x == 0)
		for (size_t i = 4 * n4 + threadIdx.x; i < n; i += TILE_THREADS)
			a[i] = write_value(i, k, c);
}

template <int U>
__global__ void __launch_bounds__(TILE_THREADS)
	k_triad_tile(float *__restrict__ a, const float *__restrict__ b, const float *__restrict__ c,
	             size_t n, float s)
{
	float4 *a4 = reinterpret_cast<float4 *>(a);
	const float4 *b4 = reinterpret_cast<const float4 *>(b);
	const float4 *c4 = reinterpret_cast<const float4 *>(c);
	const size_t n4 = n / 4, base = (size_t)blockIdx.x * TILE_THREADS * U + threadIdx.x;
	float4 vb[U], vc[U];

#pragma unroll
	for (int u = 0; u < U; u++)
		if (base + (size_t)u * TILE_THREADS < n4) {
			vb[u] = __ldcg(b4 + base + (size_t)u * TILE_THREADS);
			vc[u] = __ldcg(c4 + base + (size_t)u * TILE_THREADS);
		}
#pragma unroll
	for (int u = 0; u < U; u++)
		if (base + (size_t)u * TILE_THREADS < n4)
			a4[base + (size_t)u * TILE_THREADS] = triad4(vb[u], vc[u], s);
	if (blockIdx.x == 0)
		for (size_t i = 4 * n4 + threadIdx.x; i < n; i += TILE_THREADS)
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

/* The method of a one-tile-per-block launch of GRID blocks, U float4s per
 * thread. */
static void tile_method(struct memctx *m, struct rl_bench_entry *e, const char *what,
                        const char *access, unsigned grid, int u, int nl, const char *check)
{
	snprintf(e->method, sizeof(e->method),
	         "%s; %s; one tile of %d x %d float4 per block, %u blocks of %d; %s; %d samples x %d "
	         "launches, CUDA events; check: %s",
	         what, access, TILE_THREADS, u, grid, TILE_THREADS, m->size_note, m->ns, nl, check);
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
	const int tiled = m->passes == 1;
	const unsigned tgrid = tile_grid(m->n, COPY_TILE_U);
	auto launch = [&]() -> cudaError_t {
		if (tiled)
			k_copy_tile<COPY_TILE_U><<<tgrid, TILE_THREADS, 0, g->s>>>(m->a, m->bb, m->n);
		else
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
	if (tiled)
		tile_method(m, &e, "b[i] = a[i], bytes read + written", "float4 ld.cg", tgrid,
		            COPY_TILE_U, nl, "b == a everywhere (kernel), 64 samples vs host fill");
	else
		mem_method(m, &e, "b[i] = a[i], bytes read + written",
		           "float4 ld.cg, 4 in flight/thread", grid, nb, nl,
		           "b == a everywhere (kernel), 64 samples vs host fill");
	rc = rl_bench_add(m->b, &e, us, m->ns, err);
out:
	return rc;
}

/* The driver's device-to-device copy (cudaMemcpyAsync), which frameworks
 * call for a contiguous copy: beside the copy kernel, since on Hopper it
 * reaches more of the HBM bandwidth than an SM copy loop does
 * (docs/measurements/h200-bench-2026-11-29/tuning-roofs.txt). */
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
	const int tiled = m->passes == 1;
	const unsigned tgrid = tile_grid(m->n, WRITE_TILE_U);
	auto launch = [&]() -> cudaError_t {
		if (tiled)
			k_write_tile<WRITE_TILE_U><<<tgrid, TILE_THREADS, 0, g->s>>>(m->bb, m->n, k, c);
		else
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
	if (tiled)
		tile_method(m, &e, "a[i] = fma(float(i), k, c)", "float4 stores", tgrid, WRITE_TILE_U,
		            nl, "every element (kernel), 64 host samples, bitwise");
	else
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
	const int tiled = m->passes == 1;
	const unsigned tgrid = tile_grid(m->n, TRIAD_TILE_U);
	auto launch = [&]() -> cudaError_t {
		if (tiled)
			k_triad_tile<TRIAD_TILE_U><<<tgrid, TILE_THREADS, 0, g->s>>>(m->a, m->bb, m->c, m->n, s);
		else
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
	if (tiled)
		tile_method(m, &e, "a[i] = fma(s, c[i], b[i]), 2 reads + 1 write", "float4 ld.cg", tgrid,
		            TRIAD_TILE_U, nl, "every element (kernel), 64 host samples, bitwise");
	else
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
