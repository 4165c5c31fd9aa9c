/* synth.cu - synthetic operators run on the GPU for "roofline validate"
 * (synth.h): a kernel per op kind that moves the bytes and does the FLOPs an
 * op-list row describes, cuBLASLt for matrix products (gemm.h), a check of
 * sampled outputs against a host reference, and the op's time per launch,
 * on the GPU (CUDA graph replays) and on the host clock (launch loops).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include "gemm.h"
#include "gpuutil.h"
#include "synth.h"

extern "C" {
#include "bench.h"
}

#define BLOCK                    256                  /* threads per block, every kernel */
#define SYNTH_WORKSPACE          ((size_t)32 << 20)   /* cuBLASLt workspace */
#define SYNTH_REPS               7
#define SYNTH_SAMPLES            64                   /* checked outputs (32 at least) */
#define SYNTH_HOST_TERMS         ((uint64_t)1 << 26)  /* host reference work limit */
#define SYNTH_MEM_MARGIN         ((uint64_t)64 << 20) /* left free for the runtime */
#define LN_EPS                   1e-5                 /* layernorm's epsilon (PyTorch's default) */

/* Kernel launch shapes by row length (bytes of one row): reductions of
 * rows up to WARP_ROW_BYTES get a group of lanes each (a warp at most),
 * longer ones a block each, or several blocks each (chunks of
 * CHUNK_MIN_BYTES at least) when the rows are too few to fill the GPU.
 * Softmax and layernorm: a warp per row up to NORM_WARP_ROW_BYTES, a block
 * per row beyond; the block keeps the row in registers when it is whole
 * 16-byte vectors, NORM_REG_VECS per thread at most, else in shared memory
 * up to NORM_CACHE_COLS columns and NORM_CACHE_BYTES, and reads it twice
 * beyond.
 *
 * Register budgets: without a blocks-per-SM hint, ptxas 13.0 spilled a few
 * bytes in some fp64 instantiations on some architectures; the hints on the
 * normalisations (2 blocks: 128 registers) leave them spill-free on compute
 * capabilities 7.5 to 12.0. The register-resident ones ask for 4 blocks
 * (64 registers), enough rows in flight to keep the memory busy. */
#define WARP_ROW_BYTES      16384
#define CHUNK_MIN_BYTES     16384
#define NORM_WARP_ROW_BYTES 4096
#define NORM_REG_VECS       4
#define NORM_CACHE_COLS     16384
#define NORM_CACHE_BYTES    65536

/* ---- element types -------------------------------------------------- */

/* The value a pointwise op with no inputs starts element E from: k / 128
 * for k in 1..128, exact in every type here. */
__host__ __device__ __forceinline__ float index_value(uint64_t e)
{
	return (float)((e & 127) + 1) * (1.0f / 128);
}

/* Per type: P, the packed type the math runs on (two halves for fp16 and
 * bf16, so that they use the packed pipes), PER elements per P; A, the
 * accumulator type of reductions and normalisations. Every multiply and FMA
 * rounds once, to T's precision, so that the host can replay them. */
template <typename T> struct ty;

template <> struct ty<double> {
	typedef double P;
	typedef double A;
	enum { PER = 1 };
	static __host__ __device__ __forceinline__ P cst(double x)
	{
		return x;
	}
	static __device__ __forceinline__ P mul(P a, P b)
	{
		return __dmul_rn(a, b);
	}
	static __device__ __forceinline__ P fma(P a, P b, P c)
	{
		return __fma_rn(a, b, c);
	}
	static __device__ __forceinline__ P at(uint64_t e)
	{
		return index_value(e);
	}
	static __device__ __forceinline__ double from_float(float x)
	{
		return x;
	}
	static __device__ __forceinline__ P splat(double x)
	{
		return x;
	}
	static __device__ __forceinline__ double low(P p)
	{
		return p;
	}
	static __device__ __forceinline__ A acc(double x)
	{
		return x;
	}
	static __device__ __forceinline__ double out(A a)
	{
		return a;
	}
	static __device__ __forceinline__ A amul(A a, A b)
	{
		return __dmul_rn(a, b);
	}
	static __device__ __forceinline__ A aexp(A a)
	{
		return exp(a);
	}
	static __device__ __forceinline__ A arsqrt(A a)
	{
		return rsqrt(a);
	}
	/* 1 / A for A >= 1 (a softmax sum): two Newton steps from the float
	 * reciprocal (2^-23 -> 2^-46 -> 2^-92), no out-of-line slow path. */
	static __device__ __forceinline__ A arcp(A a)
	{
		double y = (double)__frcp_rn((float)a);

		y = __fma_rn(y, __fma_rn(-a, y, 1.0), y);
		return __fma_rn(y, __fma_rn(-a, y, 1.0), y);
	}
};

template <> struct ty<float> {
	typedef float P;
	typedef float A;
	enum { PER = 1 };
	static __host__ __device__ __forceinline__ P cst(double x)
	{
		return (float)x;
	}
	static __device__ __forceinline__ P mul(P a, P b)
	{
		return __fmul_rn(a, b);
	}
	static __device__ __forceinline__ P fma(P a, P b, P c)
	{
		return __fmaf_rn(a, b, c);
	}
	static __device__ __forceinline__ P at(uint64_t e)
	{
		return index_value(e);
	}
	static __device__ __forceinline__ float from_float(float x)
	{
		return x;
	}
	static __device__ __forceinline__ P splat(float x)
	{
		return x;
	}
	static __device__ __forceinline__ float low(P p)
	{
		return p;
	}
	static __device__ __forceinline__ A acc(float x)
	{
		return x;
	}
	static __device__ __forceinline__ float out(A a)
	{
		return a;
	}
	static __device__ __forceinline__ A amul(A a, A b)
	{
		return __fmul_rn(a, b);
	}
	static __device__ __forceinline__ A aexp(A a)
	{
		return expf(a);
	}
	static __device__ __forceinline__ A arsqrt(A a)
	{
		return rsqrtf(a);
	}
	static __device__ __forceinline__ A arcp(A a)
	{
		return 1.0f / a;
	}
};

template <> struct ty<__half> {
	typedef __half2 P;
	typedef float A;
	enum { PER = 2 };
	static __host__ __device__ __forceinline__ P cst(double x)
	{
		return __float2half2_rn((float)x);
	}
	static __device__ __forceinline__ P mul(P a, P b)
	{
		return __hmul2(a, b);
	}
	static __device__ __forceinline__ P fma(P a, P b, P c)
	{
		return __hfma2(a, b, c);
	}
	static __device__ __forceinline__ P at(uint64_t e)
	{
		return __floats2half2_rn(index_value(e), index_value(e + 1));
	}
	static __device__ __forceinline__ __half from_float(float x)
	{
		return __float2half_rn(x);
	}
	static __device__ __forceinline__ P splat(__half x)
	{
		return __half2half2(x);
	}
	static __device__ __forceinline__ __half low(P p)
	{
		return __low2half(p);
	}
	static __device__ __forceinline__ A acc(__half x)
	{
		return __half2float(x);
	}
	static __device__ __forceinline__ __half out(A a)
	{
		return __float2half_rn(a);
	}
	static __device__ __forceinline__ A amul(A a, A b)
	{
		return __fmul_rn(a, b);
	}
	static __device__ __forceinline__ A aexp(A a)
	{
		return expf(a);
	}
	static __device__ __forceinline__ A arsqrt(A a)
	{
		return rsqrtf(a);
	}
	static __device__ __forceinline__ A arcp(A a)
	{
		return 1.0f / a;
	}
};

template <> struct ty<__nv_bfloat16> {
	typedef __nv_bfloat162 P;
	typedef float A;
	enum { PER = 2 };
	static __host__ __device__ __forceinline__ P cst(double x)
	{
		return __float2bfloat162_rn((float)x);
	}
	/* Packed bf16 math needs sm_80; older GPUs do it in float and round
	 * (exact for a multiply, one extra rounding for an FMA). */
	static __device__ __forceinline__ P mul(P a, P b)
	{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
		float2 x = __bfloat1622float2(a), y = __bfloat1622float2(b);
		return __floats2bfloat162_rn(__fmul_rn(x.x, y.x), __fmul_rn(x.y, y.y));
#else
		return __hmul2(a, b);
#endif
	}
	static __device__ __forceinline__ P fma(P a, P b, P c)
	{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
		float2 x = __bfloat1622float2(a), y = __bfloat1622float2(b),
		       z = __bfloat1622float2(c);
		return __floats2bfloat162_rn(__fmaf_rn(x.x, y.x, z.x), __fmaf_rn(x.y, y.y, z.y));
#else
		return __hfma2(a, b, c);
#endif
	}
	static __device__ __forceinline__ P at(uint64_t e)
	{
		return __floats2bfloat162_rn(index_value(e), index_value(e + 1));
	}
	static __device__ __forceinline__ __nv_bfloat16 from_float(float x)
	{
		return __float2bfloat16_rn(x);
	}
	static __device__ __forceinline__ P splat(__nv_bfloat16 x)
	{
		return __bfloat162bfloat162(x);
	}
	static __device__ __forceinline__ __nv_bfloat16 low(P p)
	{
		return __low2bfloat16(p);
	}
	static __device__ __forceinline__ A acc(__nv_bfloat16 x)
	{
		return __bfloat162float(x);
	}
	static __device__ __forceinline__ __nv_bfloat16 out(A a)
	{
		return __float2bfloat16_rn(a);
	}
	static __device__ __forceinline__ A amul(A a, A b)
	{
		return __fmul_rn(a, b);
	}
	static __device__ __forceinline__ A aexp(A a)
	{
		return expf(a);
	}
	static __device__ __forceinline__ A arsqrt(A a)
	{
		return rsqrtf(a);
	}
	static __device__ __forceinline__ A arcp(A a)
	{
		return 1.0f / a;
	}
};

/* 16-byte vectors to and from arrays (memcpy compiles to register moves). */
template <typename X, int N> __device__ __forceinline__ void unpack(uint4 r, X (&x)[N])
{
	static_assert(sizeof(X) * N == 16, "a 16-byte vector");
	memcpy(x, &r, 16);
}
template <typename X, int N> __device__ __forceinline__ uint4 pack(const X (&x)[N])
{
	uint4 r;

	static_assert(sizeof(X) * N == 16, "a 16-byte vector");
	memcpy(&r, x, 16);
	return r;
}

/* ---- reductions within a warp and a block ----------------------------- */

template <typename A> __device__ __forceinline__ A warp_sum(A v)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}

template <typename A> __device__ __forceinline__ A warp_max(A v)
{
	for (int o = 16; o > 0; o >>= 1)
		v = max(v, __shfl_xor_sync(0xffffffffu, v, o));
	return v;
}

/* The block's sum (MAX: maximum) in every thread. RED is BLOCK / 32 entries
 * of shared memory; ends with a barrier so RED can be used again. */
template <bool MAX, typename A> __device__ __forceinline__ A block_reduce(A v, A *red)
{
	const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

	v = MAX ? warp_max(v) : warp_sum(v);
	if (lane == 0)
		red[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = lane < BLOCK / 32 ? red[lane] : MAX ? red[0] : (A)0;
		v = MAX ? warp_max(v) : warp_sum(v);
		if (lane == 0)
			red[0] = v;
	}
	__syncthreads();
	v = red[0];
	__syncthreads();
	return v;
}

/* A group of threads working on one row: a warp, or the whole block. */
template <bool WARP, typename A> struct group {
	A *red;
	__device__ __forceinline__ A sum(A v)
	{
		return WARP ? warp_sum(v) : block_reduce<false>(v, red);
	}
	__device__ __forceinline__ A max(A v)
	{
		return WARP ? warp_max(v) : block_reduce<true>(v, red);
	}
	__device__ __forceinline__ void sync()
	{
		if (WARP)
			__syncwarp();
		else
			__syncthreads();
	}
};

/* ---- pointwise and copy --------------------------------------------- */

struct pw_args {
	const void *in[RL_SYNTH_MAX_INPUTS];
	void *out;
	uint64_t elems;
	int nin;  /* input tensors, 0..8 */
	int nmul; /* dependent multiplies by C after the inputs' product */
	int nfma; /* then dependent FMAs acc = acc x FA + FB */
	/* C, FA and FB as ty<T>::P, converted on the host: ptxas 13.0 spreads
	 * packed half multiplies over both half pipes (HMUL2 and HFMA2.MMA)
	 * when the multiplier is a kernel parameter's bits, but keeps them all
	 * on one (half rate) when the kernel converts it from a double; an
	 * explicit FMA with a -0 addend is folded back into the multiply. */
	uint64_t k[3];
};

/* The dependent chain of one or more independent values: a 32-step body
 * (one compare per 32 x N operations), kept rolled around it so that the
 * loop stays small in the instruction cache. */
template <typename M, int N>
__device__ __forceinline__ void chain(typename M::P (&acc)[N], int nmul, int nfma, typename M::P c,
                                      typename M::P fa, typename M::P fb)
{
	int i;

#pragma unroll 1
	for (i = 0; i + 32 <= nmul; i += 32) {
#pragma unroll
		for (int r = 0; r < 32; r++)
#pragma unroll
			for (int j = 0; j < N; j++)
				acc[j] = M::mul(acc[j], c);
	}
#pragma unroll 1
	for (; i < nmul; i++)
#pragma unroll
		for (int j = 0; j < N; j++)
			acc[j] = M::mul(acc[j], c);
#pragma unroll 1
	for (i = 0; i + 32 <= nfma; i += 32) {
#pragma unroll
		for (int r = 0; r < 32; r++)
#pragma unroll
			for (int j = 0; j < N; j++)
				acc[j] = M::fma(acc[j], fa, fb);
	}
#pragma unroll 1
	for (; i < nfma; i++)
#pragma unroll
		for (int j = 0; j < N; j++)
			acc[j] = M::fma(acc[j], fa, fb);
}

/* 16-byte vectors per thread per step of pw_kernel: four for the packed
 * types (16 independent chains, as in gpubench's sweep, which reaches the
 * two-pipe rate), two for fp32 and fp64 (enough for their roofs). */
template <typename T> struct pw_step {
	enum { U = ty<T>::PER == 2 ? 4 : 2 };
};

/* out[i] = chain(in_0[i] x ... x in_{nin-1}[i]): each thread takes U
 * 16-byte vectors per step of a grid-stride loop (U x 16 / sizeof(P)
 * independent chains), block 0 the elements past the last whole vector. */
template <typename T> __global__ void __launch_bounds__(BLOCK) pw_kernel(const pw_args a)
{
	typedef ty<T> M;
	typedef typename M::P P;
	enum { VEC = 16 / sizeof(T), NP = 16 / sizeof(P), U = pw_step<T>::U };
	P c, fa, fb;
	const uint64_t nvec = a.elems / VEC, done = nvec * VEC;
	const uint64_t nth = (uint64_t)gridDim.x * BLOCK;
	const uint64_t tid = (uint64_t)blockIdx.x * BLOCK + threadIdx.x;

	memcpy(&c, &a.k[0], sizeof(P));
	memcpy(&fa, &a.k[1], sizeof(P));
	memcpy(&fb, &a.k[2], sizeof(P));
	for (uint64_t v0 = tid; v0 < nvec; v0 += U * nth) {
		P acc[U * NP];

		if (a.nin == 0) {
#pragma unroll
			for (int u = 0; u < U; u++)
#pragma unroll
				for (int p = 0; p < NP; p++)
					acc[u * NP + p] = M::at((v0 + u * nth) * VEC + p * M::PER);
		}
#pragma unroll
		for (int k = 0; k < RL_SYNTH_MAX_INPUTS; k++) {
			uint4 raw[U];

			if (k >= a.nin)
				break;
#pragma unroll
			for (int u = 0; u < U; u++)
				raw[u] = v0 + u * nth < nvec
				             ? ((const uint4 *)a.in[k])[v0 + u * nth]
				             : make_uint4(0, 0, 0, 0);
#pragma unroll
			for (int u = 0; u < U; u++) {
				P x[NP];

				unpack(raw[u], x);
#pragma unroll
				for (int p = 0; p < NP; p++)
					acc[u * NP + p] =
					    k == 0 ? x[p] : M::mul(acc[u * NP + p], x[p]);
			}
		}
		chain<M>(acc, a.nmul, a.nfma, c, fa, fb);
#pragma unroll
		for (int u = 0; u < U; u++) {
			P y[NP];

#pragma unroll
			for (int p = 0; p < NP; p++)
				y[p] = acc[u * NP + p];
			if (v0 + u * nth < nvec)
				((uint4 *)a.out)[v0 + u * nth] = pack(y);
		}
	}
	if (blockIdx.x == 0 && threadIdx.x < a.elems - done) {
		const uint64_t e = done + threadIdx.x;
		P acc[1];

		acc[0] = M::splat(M::from_float(index_value(e)));
		/* Unrolled: a run-time index into the parameters would copy them to
		 * local memory. */
#pragma unroll
		for (int k = 0; k < RL_SYNTH_MAX_INPUTS; k++) {
			if (k >= a.nin)
				break;
			P x = M::splat(((const T *)a.in[k])[e]);

			acc[0] = k == 0 ? x : M::mul(acc[0], x);
		}
		chain<M>(acc, a.nmul, a.nfma, c, fa, fb);
		((T *)a.out)[e] = M::low(acc[0]);
	}
}

/* out = in over NVEC 16-byte vectors, 4 per thread per step, then TAIL
 * bytes. */
__global__ void __launch_bounds__(BLOCK)
    copy_kernel(const uint4 *in, uint4 *out, uint64_t nvec, const unsigned char *tin,
                unsigned char *tout, unsigned tail)
{
	enum { U = 4 };
	const uint64_t nth = (uint64_t)gridDim.x * BLOCK;
	const uint64_t tid = (uint64_t)blockIdx.x * BLOCK + threadIdx.x;

	for (uint64_t v0 = tid; v0 < nvec; v0 += U * nth) {
		uint4 r[U];

#pragma unroll
		for (int u = 0; u < U; u++)
			if (v0 + u * nth < nvec)
				r[u] = in[v0 + u * nth];
#pragma unroll
		for (int u = 0; u < U; u++)
			if (v0 + u * nth < nvec)
				out[v0 + u * nth] = r[u];
	}
	if (blockIdx.x == 0 && threadIdx.x < tail)
		tout[threadIdx.x] = tin[threadIdx.x];
}

/* ---- reductions ------------------------------------------------------ */

/* One input element's contribution: to the accumulator type, then NMUL
 * dependent multiplies by C (the FLOPs past the add). */
template <typename T>
__device__ __forceinline__ typename ty<T>::A term(T x, int nmul, typename ty<T>::A c)
{
	typename ty<T>::A v = ty<T>::acc(x);

#pragma unroll 4
	for (int i = 0; i < nmul; i++)
		v = ty<T>::amul(v, c);
	return v;
}

/* The same for the elements of a 16-byte vector, summed in order. */
template <typename T>
__device__ __forceinline__ typename ty<T>::A vterms(uint4 r, int nmul, typename ty<T>::A c)
{
	typedef typename ty<T>::A A;
	enum { VEC = 16 / sizeof(T) };
	T x[VEC];
	A v[VEC], s = 0;

	unpack(r, x);
#pragma unroll
	for (int e = 0; e < VEC; e++)
		v[e] = ty<T>::acc(x[e]);
#pragma unroll 4
	for (int i = 0; i < nmul; i++)
#pragma unroll
		for (int e = 0; e < VEC; e++)
			v[e] = ty<T>::amul(v[e], c);
#pragma unroll
	for (int e = 0; e < VEC; e++)
		s += v[e];
	return s;
}

/* This lane's part of the sum of X[0..N) among NL lanes: the elements
 * before the first 16-byte boundary one at a time, then whole vectors (4 in
 * flight per lane), then the rest one at a time. X must be T-aligned; I,
 * the index type, holds N (32 bits save registers where rows are short). */
template <typename T, typename I>
__device__ __forceinline__ typename ty<T>::A range_sum(const T *x, I n, unsigned lane, unsigned nl,
                                                       int nmul, typename ty<T>::A c)
{
	typedef typename ty<T>::A A;
	enum { VEC = 16 / sizeof(T) };
	I head = (I)(((16 - ((uintptr_t)x & 15)) & 15) / sizeof(T)), nv, done, i;
	const uint4 *xv;
	A s = 0;

	if (head > n)
		head = n;
	nv = (n - head) / VEC;
	done = head + nv * VEC;
	xv = (const uint4 *)(x + head);
	/* Loops, not tests: there may be fewer lanes than a vector's elements. */
	for (i = lane; i < head; i += nl)
		s += term(x[i], nmul, c);
	for (i = lane; i + 3 * (I)nl < nv; i += 4 * (I)nl) {
		uint4 r[4];

#pragma unroll
		for (int u = 0; u < 4; u++)
			r[u] = xv[i + u * nl];
#pragma unroll
		for (int u = 0; u < 4; u++)
			s += vterms<T>(r[u], nmul, c);
	}
	/* The last 1 to 3 also loaded before any is used: one at a time, the
	 * lanes that have them held up a group (rows of 63 fp32 took 1.4x
	 * the time of rows of 64). */
	if (i < nv) {
		uint4 r[3];

#pragma unroll
		for (int u = 0; u < 3; u++)
			r[u] = i + u * (I)nl < nv ? xv[i + u * nl] : make_uint4(0, 0, 0, 0);
#pragma unroll
		for (int u = 0; u < 3; u++)
			if (i + u * (I)nl < nv)
				s += vterms<T>(r[u], nmul, c);
	}
	for (i = done + lane; i < n; i += nl)
		s += term(x[i], nmul, c);
	return s;
}

struct red_args {
	const void *in;
	void *out;
	uint64_t rows, cols;
	int nmul;
	double c;
	/* rows */
	unsigned lanes; /* per row, a power of two up to 32 */
	/* split rows */
	uint64_t splits, chunk;
	void *partial;   /* rows x splits accumulators */
	unsigned *count; /* rows arrival counters, zero between launches */
};

/* Rows up to WARP_ROW_BYTES: LANES lanes per row (about four 16-byte
 * vectors each, loaded straight from device memory, all before the first
 * add), a shuffle sum among them; grid-stride over the block's BLOCK / LANES
 * rows. No shared-memory staging: a block copying a tile then summing it
 * left the memory idle between the two (53% of the roof at 64 fp32
 * columns). */
template <typename T> __global__ void __launch_bounds__(BLOCK) red_row_kernel(const red_args a)
{
	typedef typename ty<T>::A A;
	const T *in = (const T *)a.in;
	T *out = (T *)a.out;
	const unsigned g = a.lanes, lane = threadIdx.x % g;
	const uint64_t per_block = BLOCK / g, step = (uint64_t)gridDim.x * per_block;

	/* Every lane runs the same number of rounds, so the shuffles see full
	 * warps; rows past the end add nothing. */
	for (uint64_t r0 = (uint64_t)blockIdx.x * per_block; r0 < a.rows; r0 += step) {
		const uint64_t r = r0 + threadIdx.x / g;
		A s = 0;

		if (r < a.rows)
			s = range_sum(in + r * a.cols, (unsigned)a.cols, lane, g, a.nmul, (A)a.c);
		for (unsigned o = g / 2; o > 0; o >>= 1)
			s += __shfl_xor_sync(0xffffffffu, s, o, g);
		if (r < a.rows && lane == 0)
			out[r] = ty<T>::out(s);
	}
}

/* Long rows: work item w is chunk w % splits of row w / splits, summed by a
 * block. With one split the block writes the row's result; with more, each
 * block leaves its partial sum and the last of a row to arrive (counted
 * atomically, after a fence) adds the partials in order, writes the result
 * and resets the counter for the next launch. */
template <typename T> __global__ void __launch_bounds__(BLOCK) red_chunk_kernel(const red_args a)
{
	typedef typename ty<T>::A A;
	__shared__ A red[BLOCK / 32];
	__shared__ int last;
	const T *in = (const T *)a.in;
	T *out = (T *)a.out;
	A *partial = (A *)a.partial;
	const uint64_t items = a.rows * a.splits;

	for (uint64_t w = blockIdx.x; w < items; w += gridDim.x) {
		const uint64_t r = w / a.splits, sp = w % a.splits, beg = sp * a.chunk;
		const uint64_t end = beg + a.chunk < a.cols ? beg + a.chunk : a.cols;
		A s =
		    range_sum(in + r * a.cols + beg, end - beg, threadIdx.x, BLOCK, a.nmul, (A)a.c);

		s = block_reduce<false>(s, red);
		if (a.splits == 1) {
			if (threadIdx.x == 0)
				out[r] = ty<T>::out(s);
			continue;
		}
		if (threadIdx.x == 0) {
			partial[w] = s;
			__threadfence();
			last = atomicAdd(&a.count[r], 1u) == a.splits - 1;
		}
		__syncthreads();
		if (last) {
			A t = 0;

			__threadfence();
			/* Each thread adds a fixed set of partials, so the result does
			 * not depend on the order the blocks arrived in. */
			for (uint64_t i = threadIdx.x; i < a.splits; i += BLOCK)
				t += __ldcg(&partial[r * a.splits + i]);
			t = block_reduce<false>(t, red);
			if (threadIdx.x == 0) {
				out[r] = ty<T>::out(t);
				a.count[r] = 0;
			}
		}
		__syncthreads();
	}
}

/* The verification's reference for rows too long to sum on the host: the
 * same terms summed in double (with their absolute values), by a simple
 * strided loop and double atomics, for the NR rows listed in ROWS. */
template <typename T>
__global__ void __launch_bounds__(BLOCK)
    red_ref_kernel(const T *in, uint64_t cols, const uint64_t *rows, int nmul, double c,
                   double *sum, double *mag)
{
	__shared__ double red[BLOCK / 32];
	const T *x = in + rows[blockIdx.y] * cols;
	double s = 0, m = 0;

	for (uint64_t i = (uint64_t)blockIdx.x * BLOCK + threadIdx.x; i < cols;
	     i += (uint64_t)gridDim.x * BLOCK) {
		double v = term(x[i], nmul, (typename ty<T>::A)c);

		s += v;
		m += fabs(v);
	}
	s = block_reduce<false>(s, red);
	m = block_reduce<false>(m, red);
	if (threadIdx.x == 0) {
		atomicAdd(&sum[blockIdx.y], s);
		atomicAdd(&mag[blockIdx.y], m);
	}
}

/* ---- softmax and layernorm -------------------------------------------- */

/* Calls F(i, x) for each element of X[0..N) that is this lane's among NL,
 * reading 16-byte vectors (4 in flight) where X allows; with a SLOT (shared
 * memory, 16-byte aligned), also copies the elements there, a vector at a
 * time when the row is aligned. */
template <typename T, typename F>
__device__ __forceinline__ void row_read(const T *x, uint64_t n, unsigned lane, unsigned nl,
                                         T *slot, F &&f)
{
	enum { VEC = 16 / sizeof(T) };
	uint64_t head = ((16 - ((uintptr_t)x & 15)) & 15) / sizeof(T), nv, done, i;
	const uint4 *xv;

	if (head > n)
		head = n;
	nv = (n - head) / VEC;
	done = head + nv * VEC;
	xv = (const uint4 *)(x + head);
	if (lane < head) {
		if (slot)
			slot[lane] = x[lane];
		f(lane, x[lane]);
	}
	for (i = lane; i < nv;) {
		uint4 r[4];
		int k = 0;

		/* Up to 4 vectors loaded before any is used. */
#pragma unroll
		for (int u = 0; u < 4; u++)
			if (i + u * (uint64_t)nl < nv) {
				r[u] = xv[i + u * nl];
				k = u + 1;
			}
#pragma unroll
		for (int u = 0; u < 4; u++) {
			T t[VEC];
			const uint64_t i0 = head + (i + u * nl) * VEC;

			if (u >= k)
				break;
			unpack(r[u], t);
			if (slot) {
				if (head == 0) {
					*(uint4 *)(slot + i0) = r[u];
				} else {
#pragma unroll
					for (int e = 0; e < VEC; e++)
						slot[i0 + e] = t[e];
				}
			}
#pragma unroll
			for (int e = 0; e < VEC; e++)
				f(i0 + e, t[e]);
		}
		i += 4 * (uint64_t)nl;
	}
	if (lane < n - done) {
		if (slot)
			slot[done + lane] = x[done + lane];
		f(done + lane, x[done + lane]);
	}
}

/* Writes Y[0..N) = G(i, x[i]) for this lane's elements, with 16-byte
 * stores (and loads of X, when READ) where Y allows; X and Y have the same
 * alignment (rows at the same offset of 256-byte-aligned buffers). G.one
 * makes one output, G.vec VEC consecutive ones. */
template <bool READ, typename T, typename G>
__device__ __forceinline__ void row_write(const T *x, T *y, uint64_t n, unsigned lane, unsigned nl,
                                          G &g)
{
	typedef typename ty<T>::A A;
	enum { VEC = 16 / sizeof(T) };
	uint64_t head = ((16 - ((uintptr_t)y & 15)) & 15) / sizeof(T), nv, done, i;

	if (head > n)
		head = n;
	nv = (n - head) / VEC;
	done = head + nv * VEC;
	if (lane < head)
		y[lane] = ty<T>::out(g.one(lane, READ ? x[lane] : T()));
	/* Two vectors in flight, one for fp64: its inlined exp() twice over
	 * made ptxas 13.0 spill. */
	for (i = lane; sizeof(T) < 8 && i + (uint64_t)nl < nv; i += 2 * (uint64_t)nl) {
		T t[2][VEC], o[2][VEC];
		A v[VEC];

#pragma unroll
		for (int u = 0; u < 2; u++)
			if (READ)
				unpack(((const uint4 *)(x + head))[i + u * nl], t[u]);
#pragma unroll
		for (int u = 0; u < 2; u++) {
			g.vec(head + (i + u * nl) * VEC, t[u], v);
#pragma unroll
			for (int e = 0; e < VEC; e++)
				o[u][e] = ty<T>::out(v[e]);
			((uint4 *)(y + head))[i + u * nl] = pack(o[u]);
		}
	}
	for (; i < nv; i += nl) {
		T t[VEC], o[VEC];
		A v[VEC];

		if (READ)
			unpack(((const uint4 *)(x + head))[i], t);
		g.vec(head + i * VEC, t, v);
#pragma unroll
		for (int e = 0; e < VEC; e++)
			o[e] = ty<T>::out(v[e]);
		((uint4 *)(y + head))[i] = pack(o);
	}
	if (lane < n - done)
		y[done + lane] = ty<T>::out(g.one(done + lane, READ ? x[done + lane] : T()));
}

/* VEC consecutive elements of a row kept in shared memory, as A: one
 * 16-byte load when I0 is vector-aligned. */
template <typename T>
__device__ __forceinline__ void slot_vec(const T *slot, uint64_t i0,
                                         typename ty<T>::A (&v)[16 / sizeof(T)])
{
	enum { VEC = 16 / sizeof(T) };
	T t[VEC];

	if (i0 % VEC == 0) {
		unpack(*(const uint4 *)(slot + i0), t);
	} else {
#pragma unroll
		for (int e = 0; e < VEC; e++)
			t[e] = slot[i0 + e];
	}
#pragma unroll
	for (int e = 0; e < VEC; e++)
		v[e] = ty<T>::acc(t[e]);
}

/* softmax output: exp(x - max) / sum, from shared memory (X unused) or from
 * the X read again. */
template <typename T, bool CACHED> struct softmax_out {
	typedef typename ty<T>::A A;
	enum { VEC = 16 / sizeof(T) };
	const T *slot;
	A m, inv;
	__device__ __forceinline__ A one(uint64_t i, T x)
	{
		return ty<T>::aexp(ty<T>::acc(CACHED ? slot[i] : x) - m) * inv;
	}
	__device__ __forceinline__ void vec(uint64_t i0, const T (&x)[VEC], A (&v)[VEC])
	{
		if (CACHED)
			slot_vec(slot, i0, v);
		else
#pragma unroll
			for (int e = 0; e < VEC; e++)
				v[e] = ty<T>::acc(x[e]);
#pragma unroll
		for (int e = 0; e < VEC; e++)
			v[e] = ty<T>::aexp(v[e] - m) * inv;
	}
};

/* layernorm output: (x - mean) rstd w + b; W and B are 256-byte aligned,
 * so a vector-aligned index reads them 16 bytes at a time. */
template <typename T, bool CACHED> struct layernorm_out {
	typedef typename ty<T>::A A;
	enum { VEC = 16 / sizeof(T) };
	const T *slot, *w, *b;
	A mean, rstd;
	__device__ __forceinline__ A one(uint64_t i, T x)
	{
		return (ty<T>::acc(CACHED ? slot[i] : x) - mean) * rstd * ty<T>::acc(w[i]) +
		       ty<T>::acc(b[i]);
	}
	__device__ __forceinline__ void vec(uint64_t i0, const T (&x)[VEC], A (&v)[VEC])
	{
		T tw[VEC], tb[VEC];

		if (CACHED)
			slot_vec(slot, i0, v);
		else
#pragma unroll
			for (int e = 0; e < VEC; e++)
				v[e] = ty<T>::acc(x[e]);
		if (i0 % VEC == 0) {
			unpack(__ldg((const uint4 *)(w + i0)), tw);
			unpack(__ldg((const uint4 *)(b + i0)), tb);
		} else {
#pragma unroll
			for (int e = 0; e < VEC; e++) {
				tw[e] = w[i0 + e];
				tb[e] = b[i0 + e];
			}
		}
#pragma unroll
		for (int e = 0; e < VEC; e++)
			v[e] = (v[e] - mean) * rstd * ty<T>::acc(tw[e]) + ty<T>::acc(tb[e]);
	}
};

struct norm_args {
	const void *in, *w, *b;
	void *out;
	uint64_t rows, cols;
	uint64_t slot_elems; /* shared memory per row, elements (CACHED) */
};

enum { NORM_SOFTMAX, NORM_LAYERNORM };

/* Softmax or layernorm over each row: a warp (WARP) or a block per row,
 * grid-stride over rows. CACHED keeps the row in shared memory after one
 * read; otherwise the row is read twice (statistics, then output). The
 * math is in A (float; double for fp64). */
template <typename T, int KIND, bool WARP, bool CACHED>
__global__ void __launch_bounds__(BLOCK, 2) norm_kernel(const norm_args a)
{
	typedef typename ty<T>::A A;
	extern __shared__ uint4 dyn_smem[];
	__shared__ A red[BLOCK / 32];
	group<WARP, A> g = {red};
	const unsigned lane = WARP ? threadIdx.x & 31 : threadIdx.x, nl = WARP ? 32 : BLOCK;
	const uint64_t first =
	    WARP ? (uint64_t)blockIdx.x * (BLOCK / 32) + threadIdx.x / 32 : (uint64_t)blockIdx.x;
	const uint64_t stride = WARP ? (uint64_t)gridDim.x * (BLOCK / 32) : (uint64_t)gridDim.x;
	T *slot = (T *)dyn_smem + (WARP ? (threadIdx.x / 32) * a.slot_elems : 0);
	const A n = (A)a.cols;

	for (uint64_t r = first; r < a.rows; r += stride) {
		const T *x = (const T *)a.in + r * a.cols;
		T *y = (T *)a.out + r * a.cols;

		if (KIND == NORM_SOFTMAX) {
			softmax_out<T, CACHED> o;
			A m = -INFINITY, s = 0;

			if (CACHED) {
				row_read(x, a.cols, lane, nl, slot,
				         [&](uint64_t, T v) { m = max(m, ty<T>::acc(v)); });
				g.sync();
				m = g.max(m);
				for (uint64_t i = lane; i < a.cols; i += nl)
					s += ty<T>::aexp(ty<T>::acc(slot[i]) - m);
			} else {
				/* Online: rescale the running sum when the maximum grows. */
				row_read(x, a.cols, lane, nl, (T *)NULL, [&](uint64_t, T v) {
					A t = ty<T>::acc(v);

					if (t > m) {
						s = s * ty<T>::aexp(m - t) + 1;
						m = t;
					} else {
						s += ty<T>::aexp(t - m);
					}
				});
				A mm = g.max(m);

				s = m == -INFINITY ? 0 : s * ty<T>::aexp(m - mm);
				m = mm;
			}
			s = g.sum(s);
			o.slot = slot;
			o.m = m;
			o.inv = ty<T>::arcp(s);
			row_write<!CACHED>(x, y, a.cols, lane, nl, o);
		} else {
			layernorm_out<T, CACHED> o;
			A s = 0, q = 0, mean, var;

			if (CACHED) {
				row_read(x, a.cols, lane, nl, slot,
				         [&](uint64_t, T v) { s += ty<T>::acc(v); });
				g.sync();
				mean = g.sum(s) / n;
				for (uint64_t i = lane; i < a.cols; i += nl) {
					A d = ty<T>::acc(slot[i]) - mean;

					q += d * d;
				}
				var = g.sum(q) / n;
			} else {
				row_read(x, a.cols, lane, nl, (T *)NULL, [&](uint64_t, T v) {
					A t = ty<T>::acc(v);

					s += t;
					q += t * t;
				});
				mean = g.sum(s) / n;
				var = g.sum(q) / n - mean * mean;
				var = var > 0 ? var : 0;
			}
			o.slot = slot;
			o.w = (const T *)a.w;
			o.b = (const T *)a.b;
			o.mean = mean;
			o.rstd = ty<T>::arsqrt(var + (A)LN_EPS);
			row_write<!CACHED>(x, y, a.cols, lane, nl, o);
		}
		/* The next row reuses the slot. */
		g.sync();
	}
}

/* Softmax or layernorm over rows of whole 16-byte vectors, at most K x
 * BLOCK of them: a block per row (grid-stride over rows), each thread
 * holding vectors threadIdx.x + k BLOCK (k < K) of the row in registers, as
 * A, from one 16-byte load each; the statistics by block reductions, then
 * one 16-byte store per vector. The row is read once and written once, and
 * no pass goes through shared memory. */
template <typename T, int KIND, int K>
__global__ void __launch_bounds__(BLOCK, 4) norm_reg_kernel(const norm_args a)
{
	typedef typename ty<T>::A A;
	enum { VEC = 16 / sizeof(T) };
	__shared__ A red[BLOCK / 32];
	const unsigned nv = (unsigned)(a.cols / VEC);
	const A n = (A)a.cols;

	for (uint64_t r = blockIdx.x; r < a.rows; r += gridDim.x) {
		const uint4 *x = (const uint4 *)((const T *)a.in + r * a.cols);
		uint4 *y = (uint4 *)((T *)a.out + r * a.cols);
		A v[K][VEC];

		/* Every load before any use. */
#pragma unroll
		for (int k = 0; k < K; k++) {
			const unsigned j = threadIdx.x + k * BLOCK;
			T t[VEC];

			unpack(j < nv ? x[j] : make_uint4(0, 0, 0, 0), t);
#pragma unroll
			for (int e = 0; e < VEC; e++)
				v[k][e] = ty<T>::acc(t[e]);
		}
		if (KIND == NORM_SOFTMAX) {
			A m = -INFINITY, s = 0, inv;

#pragma unroll
			for (int k = 0; k < K; k++)
				if (threadIdx.x + k * BLOCK < nv)
#pragma unroll
					for (int e = 0; e < VEC; e++)
						m = max(m, v[k][e]);
			m = block_reduce<true>(m, red);
			/* The exponentials stay in V for the output. */
#pragma unroll
			for (int k = 0; k < K; k++)
				if (threadIdx.x + k * BLOCK < nv)
#pragma unroll
					for (int e = 0; e < VEC; e++) {
						v[k][e] = ty<T>::aexp(v[k][e] - m);
						s += v[k][e];
					}
			s = block_reduce<false>(s, red);
			inv = ty<T>::arcp(s);
#pragma unroll
			for (int k = 0; k < K; k++) {
				const unsigned j = threadIdx.x + k * BLOCK;
				T o[VEC];

				if (j >= nv)
					continue;
#pragma unroll
				for (int e = 0; e < VEC; e++)
					o[e] = ty<T>::out(v[k][e] * inv);
				y[j] = pack(o);
			}
		} else {
			const uint4 *w = (const uint4 *)a.w, *b = (const uint4 *)a.b;
			A s = 0, q = 0, mean, rstd;

			/* Two passes over the registers, as the host's reference. */
#pragma unroll
			for (int k = 0; k < K; k++)
				if (threadIdx.x + k * BLOCK < nv)
#pragma unroll
					for (int e = 0; e < VEC; e++)
						s += v[k][e];
			mean = block_reduce<false>(s, red) / n;
#pragma unroll
			for (int k = 0; k < K; k++)
				if (threadIdx.x + k * BLOCK < nv)
#pragma unroll
					for (int e = 0; e < VEC; e++) {
						A d = v[k][e] - mean;

						q += d * d;
					}
			rstd = ty<T>::arsqrt(block_reduce<false>(q, red) / n + (A)LN_EPS);
#pragma unroll
			for (int k = 0; k < K; k++) {
				const unsigned j = threadIdx.x + k * BLOCK;
				T tw[VEC], tb[VEC], o[VEC];

				if (j >= nv)
					continue;
				/* Weight and bias: the same vectors for every row, from
				 * the L1 or L2 after the first. */
				unpack(__ldg(w + j), tw);
				unpack(__ldg(b + j), tb);
#pragma unroll
				for (int e = 0; e < VEC; e++)
					o[e] =
					    ty<T>::out((v[k][e] - mean) * rstd * ty<T>::acc(tw[e]) +
					               ty<T>::acc(tb[e]));
				y[j] = pack(o);
			}
		}
	}
}

/* ---- host side: the context ------------------------------------------- */

struct rl_synth_ctx {
	int dev, cc, sms, smem_optin;
	size_t l2_bytes;
	cudaStream_t stream;
	cudaEvent_t e0, e1;
	cublasLtHandle_t lt;
	void *workspace;
};

extern "C" void rl_synth_close(rl_synth_ctx *c)
{
	if (c == NULL)
		return;
	if (cudaSetDevice(c->dev) == cudaSuccess && c->stream)
		(void)cudaStreamSynchronize(c->stream);
	if (c->lt)
		(void)cublasLtDestroy(c->lt);
	cudaFree(c->workspace);
	if (c->e0)
		cudaEventDestroy(c->e0);
	if (c->e1)
		cudaEventDestroy(c->e1);
	if (c->stream)
		cudaStreamDestroy(c->stream);
	(void)cudaGetLastError();
	free(c);
}

extern "C" rl_synth_ctx *rl_synth_open(int dev, struct rl_err *err)
{
	rl_synth_ctx *c = (rl_synth_ctx *)calloc(1, sizeof(*c));
	int major = 0, minor = 0, l2 = 0, rc = 0;
	cublasStatus_t st;

	if (c == NULL) {
		rl_err_set(err, RL_ERR_NOMEM, "out of memory");
		return NULL;
	}
	c->dev = dev;
	RL_CU(cudaSetDevice(dev));
	RL_CU(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
	RL_CU(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
	RL_CU(cudaDeviceGetAttribute(&c->sms, cudaDevAttrMultiProcessorCount, dev));
	RL_CU(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
	RL_CU(cudaDeviceGetAttribute(&c->smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
	c->cc = major * 10 + minor;
	c->l2_bytes = l2 > 0 ? (size_t)l2 : 0;
	if (c->sms < 1)
		c->sms = 1;
	RL_CU(cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking));
	RL_CU(cudaEventCreate(&c->e0));
	RL_CU(cudaEventCreate(&c->e1));
	RL_CU(cudaMalloc(&c->workspace, SYNTH_WORKSPACE));
	st = cublasLtCreate(&c->lt);
	if (st != CUBLAS_STATUS_SUCCESS) {
		c->lt = NULL;
		rc = rl_err_set(err, RL_ERR_DEVICE, "cublasLtCreate: %s (%s)",
		                cublasLtGetStatusString(st), cublasLtGetStatusName(st));
		goto out;
	}
out:
	if (rc < 0) {
		rl_synth_close(c);
		return NULL;
	}
	return c;
}

/* ---- host side: one run ------------------------------------------------ */

#define MAX_BUFS (RL_SYNTH_MAX_INPUTS + 1)

struct run {
	rl_synth_ctx *c;
	const struct rl_synth *s;
	int sets; /* buffer sets, used in turn */
	int nbuf; /* buffers per set; the last is the output */
	uint64_t buf_bytes[MAX_BUFS], buf_off[MAX_BUFS];
	uint64_t set_stride;  /* bytes from one set to the next */
	unsigned char *arena; /* sets x set_stride */
	uint64_t seed;        /* of set 0; set i: seed + 16 i */
	/* launch shape */
	int grid;
	size_t smem;
	const void *kernel; /* the kernel planned; NULL for matmul */
	pw_args pw;
	red_args red;
	norm_args norm;
	int red_kind;  /* 0 rows, 1 chunks */
	void *scratch; /* reduction partials and counters */
	struct rl_gemm_plan *plan;
};

static unsigned char *buf(const struct run *R, int set, int i)
{
	return R->arena + (uint64_t)set * R->set_stride + R->buf_off[i];
}

/* The dependent-chain constants: C, just under 1, for multiplies; FA and
 * FB for acc x FA + FB, whose fixed point is FB / (1 - FA) = 0.5, so that
 * long chains neither overflow nor vanish. All exact in their type. */
static void chain_consts(enum rl_dtype t, double *c, double *fa, double *fb)
{
	int bits = t == RL_FP64 ? 40 : t == RL_FP32 ? 20 : t == RL_FP16 ? 11 : 8;

	*c = 1 - ldexp(1, -bits);
	*fa = *c;
	*fb = ldexp(1, -bits - 1);
}

static void pw_counts(const struct rl_synth *s, int *nmul, int *nfma)
{
	uint64_t f = rl_synth_flops_each(s), combine = s->inputs > 1 ? s->inputs - 1 : 0;
	uint64_t rest = f > combine ? f - combine : 0;

	*nmul = (int)(s->fma ? rest % 2 : rest);
	*nfma = (int)(s->fma ? rest / 2 : 0);
}

/* Blocks of KERNEL resident per SM at BLOCK threads and SMEM bytes. */
static int resident(const void *kernel, size_t smem, int *blocks, struct rl_err *err)
{
	int rc = 0;

	RL_CU(cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, BLOCK, smem));
	if (*blocks < 1)
		rc = rl_err_set(
		    err, RL_ERR_DEVICE,
		    "a synthetic kernel cannot run with %d threads and %zu bytes of shared "
		    "memory per block on this GPU",
		    BLOCK, smem);
out:
	return rc;
}

/* A persistent grid (SMs x resident blocks), or fewer blocks when WORK
 * blocks cover the problem. */
static int grid_for(const struct run *R, const void *kernel, size_t smem, uint64_t work,
                    struct rl_err *err)
{
	int per_sm = 0, rc = resident(kernel, smem, &per_sm, err);
	uint64_t full;

	if (rc < 0)
		return rc;
	full = (uint64_t)per_sm * (uint64_t)R->c->sms;
	if (work < 1)
		work = 1;
	return (int)(work < full ? work : full);
}

/* Raises a kernel's dynamic shared-memory limit when it needs more than the
 * default 48 KiB. */
static int smem_limit(const void *kernel, size_t smem, struct rl_err *err)
{
	int rc = 0;

	if (smem > 48 * 1024)
		RL_CU(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
		                           (int)smem));
out:
	return rc;
}

template <typename T> static int plan_pointwise(struct run *R, struct rl_err *err)
{
	const struct rl_synth *s = R->s;
	typedef typename ty<T>::P P;
	const uint64_t vec = 16 / sizeof(T), nvec = s->elems / vec;
	double c, fa, fb;
	P pc[3];
	int g;

	memset(&R->pw, 0, sizeof(R->pw));
	R->pw.elems = s->elems;
	R->pw.nin = (int)s->inputs;
	pw_counts(s, &R->pw.nmul, &R->pw.nfma);
	chain_consts(s->dtype, &c, &fa, &fb);
	pc[0] = ty<T>::cst(c);
	pc[1] = ty<T>::cst(fa);
	pc[2] = ty<T>::cst(fb);
	for (int i = 0; i < 3; i++)
		memcpy(&R->pw.k[i], &pc[i], sizeof(P));
	R->kernel = (const void *)pw_kernel<T>;
	g = grid_for(R, R->kernel, 0,
	             ((nvec + pw_step<T>::U - 1) / pw_step<T>::U + BLOCK - 1) / BLOCK, err);
	if (g < 0)
		return g;
	R->grid = g;
	R->smem = 0;
	return 0;
}

static int plan_copy(struct run *R, struct rl_err *err)
{
	uint64_t nvec = R->s->elems * rl_dtype_size(R->s->dtype) / 16;
	int g =
	    grid_for(R, (const void *)copy_kernel, 0, ((nvec + 3) / 4 + BLOCK - 1) / BLOCK, err);

	if (g < 0)
		return g;
	R->kernel = (const void *)copy_kernel;
	R->grid = g;
	R->smem = 0;
	return 0;
}

template <typename T> static int plan_reduction(struct run *R, struct rl_err *err)
{
	typedef typename ty<T>::A A;
	const struct rl_synth *s = R->s;
	const uint64_t row_bytes = s->cols * sizeof(T), vec = 16 / sizeof(T);
	int g, rc = 0;

	memset(&R->red, 0, sizeof(R->red));
	R->red.rows = s->rows;
	R->red.cols = s->cols;
	R->red.nmul = (int)(rl_synth_flops_each(s) - 1);
	R->red.c = 1 - ldexp(1, s->dtype == RL_FP64 ? -40 : -20);
	R->red.splits = 1;
	R->smem = 0;
	if (row_bytes <= WARP_ROW_BYTES) {
		/* Lanes with four vectors each at least (one lane for rows under
		 * four vectors), a warp at most; a partial vector counts, as the
		 * row may start anywhere in one. */
		const uint64_t nv = (row_bytes + 15) / 16;
		unsigned lanes = 1;

		while (lanes < 32 && (uint64_t)lanes * 2 * 4 <= nv)
			lanes *= 2;
		R->red_kind = 0;
		R->red.lanes = lanes;
		R->kernel = (const void *)red_row_kernel<T>;
		g = grid_for(R, R->kernel, 0, (s->rows + BLOCK / lanes - 1) / (BLOCK / lanes), err);
	} else {
		/* A block per row, or, when the rows cannot fill the GPU (fewer
		 * than 4 per SM), each row split into chunks of at least
		 * CHUNK_MIN_BYTES over about a persistent grid's worth of blocks. */
		int per_sm = 0;
		uint64_t splits = 1, chunk, target, most;

		R->red_kind = 1;
		R->kernel = (const void *)red_chunk_kernel<T>;
		if ((rc = resident(R->kernel, 0, &per_sm, err)) < 0)
			return rc;
		target = (uint64_t)per_sm * (uint64_t)R->c->sms;
		if (s->rows < 4 * (uint64_t)R->c->sms) {
			most = (row_bytes + CHUNK_MIN_BYTES - 1) / CHUNK_MIN_BYTES;
			splits = (target + s->rows - 1) / s->rows;
			if (splits > most)
				splits = most;
			if (splits < 1)
				splits = 1;
		}
		chunk = (s->cols + splits - 1) / splits;
		chunk = (chunk + vec - 1) / vec * vec;
		splits = (s->cols + chunk - 1) / chunk;
		R->red.splits = splits;
		R->red.chunk = chunk;
		g = grid_for(R, R->kernel, 0, s->rows * splits, err);
		if (g >= 0 && splits > 1) {
			/* Partials, then the counters, which start at zero and are
			 * left at zero by every launch. */
			size_t pbytes = (size_t)(s->rows * splits * sizeof(A) + 255) / 256 * 256;

			RL_CU(cudaMalloc(&R->scratch, pbytes + s->rows * sizeof(unsigned)));
			RL_CU(cudaMemsetAsync(R->scratch, 0, pbytes + s->rows * sizeof(unsigned),
			                      R->c->stream));
			R->red.partial = R->scratch;
			R->red.count = (unsigned *)((unsigned char *)R->scratch + pbytes);
		}
	}
	if (g < 0)
		return g;
	R->grid = g;
	rc = smem_limit(R->kernel, R->smem, err);
out:
	return rc;
}

template <typename T, int KIND> static int plan_norm(struct run *R, struct rl_err *err)
{
	const struct rl_synth *s = R->s;
	const uint64_t row_bytes = s->cols * sizeof(T);
	const uint64_t slot_bytes = (row_bytes + 15) / 16 * 16;
	int g, rc;

	memset(&R->norm, 0, sizeof(R->norm));
	R->norm.rows = s->rows;
	R->norm.cols = s->cols;
	R->norm.slot_elems = slot_bytes / sizeof(T);
	if (row_bytes <= NORM_WARP_ROW_BYTES) {
		R->kernel = (const void *)norm_kernel<T, KIND, true, true>;
		R->smem = (BLOCK / 32) * slot_bytes;
	} else if (row_bytes % 16 == 0 && row_bytes / 16 <= NORM_REG_VECS * BLOCK) {
		R->kernel = row_bytes / 16 <= (NORM_REG_VECS / 2) * BLOCK
		                ? (const void *)norm_reg_kernel<T, KIND, NORM_REG_VECS / 2>
		                : (const void *)norm_reg_kernel<T, KIND, NORM_REG_VECS>;
		R->smem = 0;
	} else if (s->cols <= NORM_CACHE_COLS && slot_bytes <= NORM_CACHE_BYTES &&
	           slot_bytes + 1024 <= (uint64_t)R->c->smem_optin) {
		R->kernel = (const void *)norm_kernel<T, KIND, false, true>;
		R->smem = slot_bytes;
	} else {
		R->kernel = (const void *)norm_kernel<T, KIND, false, false>;
		R->smem = 0;
	}
	if ((rc = smem_limit(R->kernel, R->smem, err)) < 0)
		return rc;
	g = grid_for(R, R->kernel, R->smem,
	             row_bytes <= NORM_WARP_ROW_BYTES ? (s->rows + BLOCK / 32 - 1) / (BLOCK / 32)
	                                              : s->rows,
	             err);
	if (g < 0)
		return g;
	R->grid = g;
	return 0;
}

template <typename T> static int plan_t(struct run *R, struct rl_err *err)
{
	switch (R->s->kind) {
	case RL_SYNTH_POINTWISE:
		return plan_pointwise<T>(R, err);
	case RL_SYNTH_REDUCTION:
		return plan_reduction<T>(R, err);
	case RL_SYNTH_SOFTMAX:
		return plan_norm<T, NORM_SOFTMAX>(R, err);
	case RL_SYNTH_LAYERNORM:
		return plan_norm<T, NORM_LAYERNORM>(R, err);
	default:
		return 0;
	}
}

static int plan(struct run *R, struct rl_err *err)
{
	if (R->s->kind == RL_SYNTH_MATMUL) {
		struct rl_gemm_shape g = {R->s->dtype, R->s->batch, R->s->m, R->s->n, R->s->k};

		return rl_gemm_plan_new(R->c->lt, &g, R->c->cc, SYNTH_WORKSPACE, &R->plan, err);
	}
	if (R->s->kind == RL_SYNTH_COPY)
		return plan_copy(R, err);
	switch (R->s->dtype) {
	case RL_FP64:
		return plan_t<double>(R, err);
	case RL_FP32:
		return plan_t<float>(R, err);
	case RL_FP16:
		return plan_t<__half>(R, err);
	default:
		return plan_t<__nv_bfloat16>(R, err);
	}
}

/* Enqueues the op on buffer set SET. */
template <typename T> static cudaError_t launch_t(struct run *R, int set)
{
	cudaStream_t st = R->c->stream;
	int out = R->nbuf - 1;

	switch (R->s->kind) {
	case RL_SYNTH_POINTWISE: {
		pw_args a = R->pw;

		for (int k = 0; k < a.nin; k++)
			a.in[k] = buf(R, set, k);
		a.out = buf(R, set, out);
		pw_kernel<T><<<R->grid, BLOCK, 0, st>>>(a);
		break;
	}
	case RL_SYNTH_REDUCTION: {
		red_args a = R->red;

		a.in = buf(R, set, 0);
		a.out = buf(R, set, out);
		if (R->red_kind == 0)
			red_row_kernel<T><<<R->grid, BLOCK, 0, st>>>(a);
		else
			red_chunk_kernel<T><<<R->grid, BLOCK, 0, st>>>(a);
		break;
	}
	case RL_SYNTH_SOFTMAX:
	case RL_SYNTH_LAYERNORM: {
		norm_args a = R->norm;

		a.in = buf(R, set, 0);
		a.out = buf(R, set, out);
		if (R->s->kind == RL_SYNTH_LAYERNORM) {
			a.w = buf(R, set, 1);
			a.b = buf(R, set, 2);
		}
		/* The kernel planned (template arguments) with its shared memory. */
		void *args[] = {&a};

		return cudaLaunchKernel(R->kernel, dim3(R->grid), dim3(BLOCK), args, R->smem, st);
	}
	default:
		break;
	}
	return cudaGetLastError();
}

static int launch(struct run *R, int set, struct rl_err *err)
{
	cudaError_t e;

	switch (R->s->kind) {
	case RL_SYNTH_MATMUL:
		return rl_gemm_run(R->plan, buf(R, set, 0), buf(R, set, 1), buf(R, set, 2),
		                   R->c->workspace, R->c->stream, err);
	case RL_SYNTH_COPY: {
		uint64_t bytes = R->buf_bytes[0], nvec = bytes / 16;

		copy_kernel<<<R->grid, BLOCK, 0, R->c->stream>>>(
		    (const uint4 *)buf(R, set, 0), (uint4 *)buf(R, set, 1), nvec,
		    buf(R, set, 0) + nvec * 16, buf(R, set, 1) + nvec * 16, (unsigned)(bytes % 16));
		e = cudaGetLastError();
		break;
	}
	default:
		switch (R->s->dtype) {
		case RL_FP64:
			e = launch_t<double>(R, set);
			break;
		case RL_FP32:
			e = launch_t<float>(R, set);
			break;
		case RL_FP16:
			e = launch_t<__half>(R, set);
			break;
		default:
			e = launch_t<__nv_bfloat16>(R, set);
			break;
		}
	}
	if (e != cudaSuccess) {
		char what[64];

		snprintf(what, sizeof(what), "synthetic %s kernel launch", rl_synth_kind_name(R->s->kind));
		return rl_cu_fail(err, what, e);
	}
	return 0;
}

/* ---- host side: verification ------------------------------------------ */

/* The tolerance of a result, per unit of the magnitude of its terms. */
static double elem_tol(enum rl_dtype t)
{
	return t == RL_FP64 ? 1e-12 : t == RL_FP32 ? 1e-5 : 1e-2;
}

/* Half an ulp of T, relative; and T's smallest normal, a floor for results
 * that underflow (the device may flush what the host keeps). */
static double half_ulp(enum rl_dtype t)
{
	return ldexp(1, t == RL_FP64 ? -53 : t == RL_FP32 ? -24 : t == RL_FP16 ? -11 : -8);
}

static double tiny(enum rl_dtype t)
{
	return ldexp(1, t == RL_FP64 ? -1022 : t == RL_FP16 ? -14 : -126);
}

/* Input element I of buffer K of set 0, as the fill stored it. */
static double input(const struct run *R, int k, uint64_t i)
{
	return rl_cu_round(rl_cu_random_value(R->seed + (uint64_t)k, i, -1, 1), R->s->dtype);
}

/* X rounded to T as the device's arithmetic rounds it. */
static double round_t(double x, enum rl_dtype t)
{
	if (t == RL_FP64)
		return x;
	if (t == RL_FP32)
		return (float)x;
	return rl_cu_round(x, t);
}

/* N positions spread over 0..TOTAL-1, the first and the last included. */
static void spread(uint64_t *pos, uint64_t n, uint64_t total)
{
	for (uint64_t q = 0; q < n; q++) {
		pos[q] = n == 1 ? 0 : (uint64_t)((double)q / (double)(n - 1) * (double)(total - 1));
		if (pos[q] >= total || q == n - 1)
			pos[q] = total - 1;
	}
}

/* Copies element POS[q] (of SIZE bytes) of device buffer SRC to VAL[q], as
 * doubles, for q < N. */
static int fetch(const struct run *R, const unsigned char *src, enum rl_dtype t,
                 const uint64_t *pos, uint64_t n, double *val, struct rl_err *err)
{
	unsigned char raw[SYNTH_SAMPLES][8];
	size_t es = rl_dtype_size(t);
	int rc = 0;

	for (uint64_t q = 0; q < n; q++)
		RL_CU(cudaMemcpyAsync(raw[q], src + pos[q] * es, es, cudaMemcpyDeviceToHost,
		                      R->c->stream));
	RL_CU(cudaStreamSynchronize(R->c->stream));
	for (uint64_t q = 0; q < n; q++)
		val[q] = rl_gemm_value(t, raw[q]);
out:
	return rc;
}

/* One sample's verdict: |got - ref| <= tol x mag + half an ulp of |ref| +
 * the smallest normal; NaN fails. */
static int close_enough(double got, double ref, double mag, double tol, enum rl_dtype t)
{
	return fabs(got - ref) <= tol * mag + half_ulp(t) * fabs(ref) + tiny(t);
}

static int verify_pointwise(const struct run *R, int *check, struct rl_err *err)
{
	const struct rl_synth *s = R->s;
	const enum rl_dtype t = s->dtype;
	uint64_t pos[SYNTH_SAMPLES] = {0}, n = s->elems < SYNTH_SAMPLES ? s->elems : SYNTH_SAMPLES;
	double got[SYNTH_SAMPLES], c, fa, fb;
	int nmul, nfma, rc, ok = 1;

	spread(pos, n, s->elems);
	if ((rc = fetch(R, buf(R, 0, R->nbuf - 1), t, pos, n, got, err)) < 0)
		return rc;
	pw_counts(s, &nmul, &nfma);
	chain_consts(t, &c, &fa, &fb);
	for (uint64_t q = 0; q < n; q++) {
		double acc = s->inputs == 0 ? index_value(pos[q]) : input(R, 0, pos[q]);

		for (uint64_t k = 1; k < s->inputs; k++)
			acc = round_t(acc * input(R, (int)k, pos[q]), t);
		/* Exact replays: a product of two values of T is exact in double,
		 * and so is acc x fa + fb near the fixed point; fp32 FMAs go
		 * through fmaf, fp64 through fma. */
		for (int i = 0; i < nmul; i++)
			acc = round_t(acc * c, t);
		for (int i = 0; i < nfma; i++)
			acc = t == RL_FP64   ? fma(acc, fa, fb)
			      : t == RL_FP32 ? (double)fmaf((float)acc, (float)fa, (float)fb)
			                     : round_t(acc * fa + fb, t);
		if (!close_enough(got[q], acc, fabs(acc), elem_tol(t), t))
			ok = 0;
	}
	*check = ok ? 1 : -1;
	return 0;
}

static int verify_copy(const struct run *R, int *check, struct rl_err *err)
{
	const struct rl_synth *s = R->s;
	uint64_t pos[SYNTH_SAMPLES] = {0}, n = s->elems < SYNTH_SAMPLES ? s->elems : SYNTH_SAMPLES;
	double got[SYNTH_SAMPLES];
	int rc, ok = 1;

	spread(pos, n, s->elems);
	if ((rc = fetch(R, buf(R, 0, 1), s->dtype, pos, n, got, err)) < 0)
		return rc;
	for (uint64_t q = 0; q < n; q++)
		if (!(got[q] == input(R, 0, pos[q])))
			ok = 0;
	*check = ok ? 1 : -1;
	return 0;
}

/* A reduction term as the device computes it (float or double chain). */
static double red_term(const struct run *R, double x)
{
	if (R->s->dtype == RL_FP64) {
		for (int i = 0; i < R->red.nmul; i++)
			x *= R->red.c;
		return x;
	}
	float v = (float)x, c = (float)R->red.c;

	for (int i = 0; i < R->red.nmul; i++)
		v *= c;
	return v;
}

static int verify_reduction(struct run *R, int *check, struct rl_err *err)
{
	const struct rl_synth *s = R->s;
	uint64_t rows[SYNTH_SAMPLES] = {0}, n = s->rows < SYNTH_SAMPLES ? s->rows : SYNTH_SAMPLES;
	double got[SYNTH_SAMPLES], ref[SYNTH_SAMPLES], mag[SYNTH_SAMPLES];
	void *dev = NULL;
	int rc = 0, ok = 1;

	spread(rows, n, s->rows);
	if ((rc = fetch(R, buf(R, 0, 1), s->dtype, rows, n, got, err)) < 0)
		return rc;
	if (n * s->cols * (uint64_t)(1 + R->red.nmul / 8) <= SYNTH_HOST_TERMS) {
		for (uint64_t q = 0; q < n; q++) {
			ref[q] = mag[q] = 0;
			for (uint64_t j = 0; j < s->cols; j++) {
				double v = red_term(R, input(R, 0, rows[q] * s->cols + j));

				ref[q] += v;
				mag[q] += fabs(v);
			}
		}
	} else {
		/* Rows too long for the host: a plain device sum in double of the
		 * same terms, over the data as filled (a few inputs checked against
		 * the host's values first). */
		uint64_t *drows;
		double *dsum, *dmag, in[SYNTH_SAMPLES];
		unsigned bx = (unsigned)((s->cols + BLOCK * 64 - 1) / (BLOCK * 64));
		dim3 grid(bx < 1024 ? bx : 1024, (unsigned)n);

		if ((rc = fetch(R, buf(R, 0, 0), s->dtype, rows, n, in, err)) < 0)
			goto out;
		for (uint64_t q = 0; q < n; q++)
			if (!(in[q] == input(R, 0, rows[q])))
				ok = 0;
		RL_CU(cudaMalloc(&dev, n * (sizeof(uint64_t) + 2 * sizeof(double))));
		dsum = (double *)dev;
		dmag = dsum + n;
		drows = (uint64_t *)(dmag + n);
		RL_CU(cudaMemcpyAsync(drows, rows, n * sizeof(uint64_t), cudaMemcpyHostToDevice,
		                      R->c->stream));
		RL_CU(cudaMemsetAsync(dsum, 0, 2 * n * sizeof(double), R->c->stream));
		switch (s->dtype) {
		case RL_FP64:
			red_ref_kernel<double><<<grid, BLOCK, 0, R->c->stream>>>(
			    (const double *)buf(R, 0, 0), s->cols, drows, R->red.nmul, R->red.c,
			    dsum, dmag);
			break;
		case RL_FP32:
			red_ref_kernel<float><<<grid, BLOCK, 0, R->c->stream>>>(
			    (const float *)buf(R, 0, 0), s->cols, drows, R->red.nmul, R->red.c,
			    dsum, dmag);
			break;
		case RL_FP16:
			red_ref_kernel<__half><<<grid, BLOCK, 0, R->c->stream>>>(
			    (const __half *)buf(R, 0, 0), s->cols, drows, R->red.nmul, R->red.c,
			    dsum, dmag);
			break;
		default:
			red_ref_kernel<__nv_bfloat16><<<grid, BLOCK, 0, R->c->stream>>>(
			    (const __nv_bfloat16 *)buf(R, 0, 0), s->cols, drows, R->red.nmul,
			    R->red.c, dsum, dmag);
			break;
		}
		RL_CU(cudaGetLastError());
		RL_CU(cudaMemcpyAsync(ref, dsum, n * sizeof(double), cudaMemcpyDeviceToHost,
		                      R->c->stream));
		RL_CU(cudaMemcpyAsync(mag, dmag, n * sizeof(double), cudaMemcpyDeviceToHost,
		                      R->c->stream));
		RL_CU(cudaStreamSynchronize(R->c->stream));
	}
	for (uint64_t q = 0; q < n; q++)
		if (!close_enough(got[q], ref[q], mag[q], elem_tol(s->dtype), s->dtype))
			ok = 0;
	*check = ok ? 1 : -1;
out:
	cudaFree(dev);
	return rc;
}

static int verify_norm(const struct run *R, int *check, struct rl_err *err)
{
	const struct rl_synth *s = R->s;
	const enum rl_dtype t = s->dtype;
	uint64_t nr, nc, rows[SYNTH_SAMPLES] = {0}, cols[SYNTH_SAMPLES] = {0},
	                 pos[SYNTH_SAMPLES] = {0}, n = 0;
	double got[SYNTH_SAMPLES];
	/* float sums of a row lose about sqrt(length) roundings. */
	double tol = elem_tol(t) * (s->cols > 4096 ? sqrt((double)s->cols / 4096) : 1);
	int rc, ok = 1;

	/* A few whole rows (their statistics cost the host a pass each), a
	 * spread of columns in each: 64 samples, or every element when there
	 * are fewer; more rows when they are short, two when they are long. */
	nr = s->cols > ((uint64_t)1 << 20) ? 2 : 8;
	nr = nr < s->rows ? nr : s->rows;
	nc = (SYNTH_SAMPLES + nr - 1) / nr;
	nc = nc < s->cols ? nc : s->cols;
	if (nr * nc < SYNTH_SAMPLES) {
		nr = (SYNTH_SAMPLES + nc - 1) / nc;
		nr = nr < s->rows ? nr : s->rows;
	}
	if (nr * nc > SYNTH_SAMPLES)
		nc = SYNTH_SAMPLES / nr;
	spread(rows, nr, s->rows);
	spread(cols, nc, s->cols);
	for (uint64_t i = 0; i < nr; i++)
		for (uint64_t j = 0; j < nc; j++)
			pos[n++] = rows[i] * s->cols + cols[j];
	if ((rc = fetch(R, buf(R, 0, R->nbuf - 1), t, pos, n, got, err)) < 0)
		return rc;
	for (uint64_t i = 0; i < nr; i++) {
		const uint64_t base = rows[i] * s->cols;
		double a = -INFINITY, b = 0;

		/* Softmax: max then sum of exp; layernorm: mean then variance. */
		for (uint64_t j = 0; j < s->cols; j++) {
			double x = input(R, 0, base + j);

			if (s->kind == RL_SYNTH_SOFTMAX)
				a = x > a ? x : a;
			else
				b += x;
		}
		if (s->kind == RL_SYNTH_LAYERNORM)
			a = b / (double)s->cols;
		b = 0;
		for (uint64_t j = 0; j < s->cols; j++) {
			double x = input(R, 0, base + j);

			b += s->kind == RL_SYNTH_SOFTMAX ? exp(x - a) : (x - a) * (x - a);
		}
		for (uint64_t j = 0; j < nc; j++) {
			double x = input(R, 0, base + cols[j]), ref, mag;

			if (s->kind == RL_SYNTH_SOFTMAX) {
				ref = exp(x - a) / b;
				mag = ref;
			} else {
				double rstd = 1 / sqrt(b / (double)s->cols + LN_EPS);
				double w = input(R, 1, cols[j]), bb = input(R, 2, cols[j]);

				ref = (x - a) * rstd * w + bb;
				mag = fabs((x - a) * rstd * w) + fabs(bb);
			}
			if (!close_enough(got[i * nc + j], ref, mag, tol, t))
				ok = 0;
		}
	}
	*check = ok ? 1 : -1;
	return 0;
}

static int verify(struct run *R, int *check, struct rl_err *err)
{
	switch (R->s->kind) {
	case RL_SYNTH_POINTWISE:
		return verify_pointwise(R, check, err);
	case RL_SYNTH_COPY:
		return verify_copy(R, check, err);
	case RL_SYNTH_REDUCTION:
		return verify_reduction(R, check, err);
	case RL_SYNTH_SOFTMAX:
	case RL_SYNTH_LAYERNORM:
		return verify_norm(R, check, err);
	case RL_SYNTH_MATMUL: {
		struct rl_gemm_shape g = {R->s->dtype, R->s->batch, R->s->m, R->s->n, R->s->k};

		return rl_gemm_verify(&g, buf(R, 0, 2), R->seed, R->c->stream, check, NULL, err);
	}
	}
	return 0;
}

/* ---- host side: buffers and timing ------------------------------------- */

/* The buffers of one set: inputs, then the output. */
static void layout(struct run *R)
{
	const struct rl_synth *s = R->s;
	uint64_t es = rl_dtype_size(s->dtype), off = 0;

	switch (s->kind) {
	case RL_SYNTH_POINTWISE:
		R->nbuf = (int)s->inputs + 1;
		for (int k = 0; k < R->nbuf; k++)
			R->buf_bytes[k] = s->elems * es;
		break;
	case RL_SYNTH_COPY:
		R->nbuf = 2;
		R->buf_bytes[0] = R->buf_bytes[1] = s->elems * es;
		break;
	case RL_SYNTH_REDUCTION:
		R->nbuf = 2;
		R->buf_bytes[0] = s->rows * s->cols * es;
		R->buf_bytes[1] = s->rows * es;
		break;
	case RL_SYNTH_SOFTMAX:
		R->nbuf = 2;
		R->buf_bytes[0] = R->buf_bytes[1] = s->rows * s->cols * es;
		break;
	case RL_SYNTH_LAYERNORM:
		R->nbuf = 4;
		R->buf_bytes[0] = R->buf_bytes[3] = s->rows * s->cols * es;
		R->buf_bytes[1] = R->buf_bytes[2] = s->cols * es;
		break;
	case RL_SYNTH_MATMUL: {
		struct rl_gemm_shape g = {s->dtype, s->batch, s->m, s->n, s->k};

		R->nbuf = 3;
		(void)rl_gemm_bytes(&g, &R->buf_bytes[0], &R->buf_bytes[1], &R->buf_bytes[2]);
		break;
	}
	}
	for (int k = 0; k < R->nbuf; k++) {
		R->buf_off[k] = off;
		off += (R->buf_bytes[k] + 255) / 256 * 256;
	}
	R->set_stride = off;
}

/* Random inputs for every set (the seeds differ by set), the output of set
 * 0 poisoned so that an unwritten result fails the check. */
static int fill(struct run *R, struct rl_err *err)
{
	const struct rl_synth *s = R->s;
	int rc = 0;

	for (int set = 0; set < R->sets; set++) {
		uint64_t seed = R->seed + 16 * (uint64_t)set;

		if (s->kind == RL_SYNTH_MATMUL) {
			struct rl_gemm_shape g = {s->dtype, s->batch, s->m, s->n, s->k};

			RL_CU(rl_gemm_fill(&g, buf(R, set, 0), buf(R, set, 1), seed, R->c->stream));
			continue;
		}
		for (int k = 0; k < R->nbuf - 1; k++)
			RL_CU(rl_cu_fill_random(buf(R, set, k),
			                        R->buf_bytes[k] / rl_dtype_size(s->dtype), s->dtype,
			                        seed + (uint64_t)k, -1, 1, R->c->stream));
	}
	RL_CU(
	    cudaMemsetAsync(buf(R, 0, R->nbuf - 1), 0x7f, R->buf_bytes[R->nbuf - 1], R->c->stream));
out:
	return rc;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

/* The two timings of L launches (sets in turn): the GPU's own time from a
 * CUDA graph of the launches replayed between events, and the host's time
 * around plain launches and one synchronize. */
static int time_op(struct run *R, int L, double *gpu_us, double *wall_us, struct rl_err *err)
{
	cudaStream_t st = R->c->stream;
	cudaGraph_t graph = NULL;
	cudaGraphExec_t exec = NULL;
	double t[SYNTH_REPS];
	float ms = 0;
	int rc = 0, capturing = 0;

	RL_CU(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
	capturing = 1;
	for (int j = 0; j < L; j++)
		if ((rc = launch(R, j % R->sets, err)) < 0)
			goto out;
	capturing = 0;
	RL_CU(cudaStreamEndCapture(st, &graph));
	RL_CU(cudaGraphInstantiate(&exec, graph, 0));
	RL_CU(cudaGraphUpload(exec, st));
	RL_CU(cudaGraphLaunch(exec, st));
	for (int r = 0; r < SYNTH_REPS; r++) {
		RL_CU(cudaEventRecord(R->c->e0, st));
		RL_CU(cudaGraphLaunch(exec, st));
		RL_CU(cudaEventRecord(R->c->e1, st));
		RL_CU(cudaEventSynchronize(R->c->e1));
		RL_CU(cudaEventElapsedTime(&ms, R->c->e0, R->c->e1));
		t[r] = ms * 1e3 / L;
	}
	*gpu_us = rl_quantile(t, SYNTH_REPS, 0.5);

	RL_CU(cudaStreamSynchronize(st));
	for (int r = 0; r < SYNTH_REPS; r++) {
		double t0 = now_us();

		for (int j = 0; j < L; j++)
			if ((rc = launch(R, j % R->sets, err)) < 0)
				goto out;
		RL_CU(cudaStreamSynchronize(st));
		t[r] = (now_us() - t0) / L;
	}
	*wall_us = rl_quantile(t, SYNTH_REPS, 0.5);
out:
	if (capturing) {
		cudaGraph_t g = NULL;

		(void)cudaStreamEndCapture(st, &g);
		if (g)
			cudaGraphDestroy(g);
	}
	if (exec)
		cudaGraphExecDestroy(exec);
	if (graph)
		cudaGraphDestroy(graph);
	return rc;
}

static uint64_t seed_of(const struct rl_synth *s)
{
	/* Different ops get different data; the same op the same data. */
	uint64_t h = 0x73796e7468ull;
	uint64_t v[] = {(uint64_t)s->kind, (uint64_t)s->dtype, s->elems, s->inputs, s->rows,
	                s->cols,           s->batch,           s->m,     s->n,      s->k};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		h = (h ^ v[i]) * 0x100000001b3ull;
	return h & ~(uint64_t)0xfff;
}

extern "C" int rl_synth_run(rl_synth_ctx *c, const struct rl_synth *s, struct rl_synth_result *r,
                            struct rl_err *err)
{
	struct run R;
	uint64_t ws = 0, need;
	size_t free_b = 0, total_b = 0;
	float ms = 0;
	int rc = 0, check = -1, L;
	cudaError_t e;

	memset(r, 0, sizeof(*r));
	memset(&R, 0, sizeof(R));
	if (c == NULL)
		return rl_err_set(err, RL_ERR_ARG, "synthetic op: no GPU context");
	if (!rl_synth_supported(s, err))
		return RL_ERR_UNSUPPORTED;
	R.c = c;
	R.s = s;
	R.seed = seed_of(s);
	layout(&R);
	(void)rl_synth_bytes(s, &ws);
	R.sets = rl_synth_sets(ws, (uint64_t)c->l2_bytes);
	RL_CU(cudaSetDevice(c->dev));
	/* The kernel and its launch shape, or the cuBLASLt plan (which may say
	 * unsupported), before any large allocation. */
	if ((rc = plan(&R, err)) < 0)
		goto out;
	RL_CU(cudaMemGetInfo(&free_b, &total_b));
	need = (uint64_t)R.sets * R.set_stride;
	if (need + SYNTH_MEM_MARGIN > free_b) {
		rc = rl_err_set(
		    err, RL_ERR_RANGE,
		    "synthetic %s %s: needs %llu bytes of device memory (%d buffer set%s of "
		    "%llu bytes), %zu available",
		    rl_synth_kind_name(s->kind), rl_dtype_name(s->dtype), (unsigned long long)need, R.sets,
		    R.sets == 1 ? "" : "s", (unsigned long long)R.set_stride, free_b);
		goto out;
	}
	e = cudaMalloc((void **)&R.arena, (size_t)R.sets * R.set_stride);
	if (e == cudaErrorMemoryAllocation) {
		(void)cudaGetLastError();
		R.arena = NULL;
		rc = rl_err_set(
		    err, RL_ERR_RANGE,
		    "synthetic %s %s: %llu bytes of device memory could not be allocated "
		    "(%zu reported free)",
		    rl_synth_kind_name(s->kind), rl_dtype_name(s->dtype),
		    (unsigned long long)R.sets * R.set_stride, free_b);
		goto out;
	}
	RL_CU(e);
	if ((rc = fill(&R, err)) < 0)
		goto out;

	/* Once on set 0, checked; that also warms the kernel up. */
	if ((rc = launch(&R, 0, err)) < 0)
		goto out;
	RL_CU(cudaStreamSynchronize(c->stream));
	if ((rc = verify(&R, &check, err)) < 0)
		goto out;

	/* One timed launch sizes the loops to about SYNTH_LOOP_US. */
	RL_CU(cudaEventRecord(c->e0, c->stream));
	if ((rc = launch(&R, R.sets > 1 ? 1 : 0, err)) < 0)
		goto out;
	RL_CU(cudaEventRecord(c->e1, c->stream));
	RL_CU(cudaEventSynchronize(c->e1));
	RL_CU(cudaEventElapsedTime(&ms, c->e0, c->e1));
	L = rl_synth_launches(ms * 1e3);
	if ((rc = time_op(&R, L, &r->gpu_us, &r->wall_us, err)) < 0)
		goto out;
	r->launches = L;
	r->check = check;
out:
	if (c->stream)
		(void)cudaStreamSynchronize(c->stream);
	cudaFree(R.arena);
	cudaFree(R.scratch);
	rl_gemm_plan_free(R.plan);
	if (rc < 0)
		(void)cudaGetLastError();
	return rc;
}
