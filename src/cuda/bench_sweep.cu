/* bench_sweep.cu - the repeat-multiply intensity sweep
 * (rl_gpubench_sweep, gpubench.h); timing and checks from harness.h.
 */
#include "config.h"

#include "harness.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

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
