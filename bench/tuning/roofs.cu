// roofs.cu - tuning experiment behind the copy (src/cuda/bench_memory.cu) and FP32
// FMA (src/cuda/bench_pipes.cu) kernels
// (docs/measurements/h200-bench-2026-11-29/tuning.txt): variants of a
// device-memory copy and of an FFMA chain, timed with CUDA events on one GPU.
// Build: nvcc -O3 -arch=sm_90 -o roofs roofs.cu
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

template <int U, int HINT>
__global__ void copy_k(const float4 *__restrict__ a, float4 *__restrict__ b, size_t n4)
{
	size_t stride = (size_t)gridDim.x * blockDim.x, i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	for (; i + (U - 1) * stride < n4; i += U * stride) {
		float4 v[U];
#pragma unroll
		for (int u = 0; u < U; u++) {
			if (HINT == 0) v[u] = __ldcg(a + i + u * stride);
			else if (HINT == 1) v[u] = __ldcs(a + i + u * stride);
			else {
				const float4 *p = a + i + u * stride;
				asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
				             : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z), "=f"(v[u].w) : "l"(p));
			}
		}
#pragma unroll
		for (int u = 0; u < U; u++) {
			if (HINT == 0) b[i + u * stride] = v[u];
			else __stcs(b + i + u * stride, v[u]);
		}
	}
	for (; i < n4; i += stride) b[i] = a[i];
}

// contiguous: each block owns a contiguous slice, threads stride within it
template <int U>
__global__ void copy_slice(const float4 *__restrict__ a, float4 *__restrict__ b, size_t n4)
{
	size_t per = (n4 + gridDim.x - 1) / gridDim.x, lo = blockIdx.x * per, hi = lo + per < n4 ? lo + per : n4;
	size_t i = lo + threadIdx.x, st = blockDim.x;
	for (; i + (U - 1) * st < hi; i += U * st) {
		float4 v[U];
#pragma unroll
		for (int u = 0; u < U; u++) v[u] = __ldcs(a + i + u * st);
#pragma unroll
		for (int u = 0; u < U; u++) __stcs(b + i + u * st, v[u]);
	}
	for (; i < hi; i += st) b[i] = a[i];
}

template <int ILP, int IMM>
__global__ void ffma_k(const float *in, float *out, float a, float bb, int iters)
{
	size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x, nt = (size_t)gridDim.x * blockDim.x;
	float x[ILP];
#pragma unroll
	for (int j = 0; j < ILP; j++) x[j] = in[j * nt + t];
	for (int k = 0; k < iters; k++) {
#pragma unroll
		for (int m = 0; m < 64; m++)
#pragma unroll
			for (int j = 0; j < ILP; j++) x[j] = IMM ? fmaf(x[j], a, 0.5f) : fmaf(x[j], a, bb);
	}
	float h = 0;
#pragma unroll
	for (int j = 0; j < ILP; j++) h += x[j];
	if (h == 12345.678f) out[t] = h;
}

template <class F>
static float timeit(F f, int reps)
{
	cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
	for (int i = 0; i < 3; i++) f();
	float best = 1e30f;
	for (int s = 0; s < 7; s++) {
		cudaEventRecord(e0); for (int i = 0; i < reps; i++) f(); cudaEventRecord(e1); cudaEventSynchronize(e1);
		float ms; cudaEventElapsedTime(&ms, e0, e1); ms /= reps; if (ms < best) best = ms;
	}
	return best;
}

int main()
{
	int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
	size_t n = 1ull << 28, n4 = n / 4; // 1 GiB per array
	float *a, *b; CK(cudaMalloc(&a, n * 4)); CK(cudaMalloc(&b, n * 4));
	CK(cudaMemset(a, 1, n * 4)); CK(cudaMemset(b, 2, n * 4));
	double bytes = 2.0 * n * 4;
#define C(NAME, KER, BLK, NB) { int g = sms * (NB); float ms = timeit([&]{ KER<<<g, BLK>>>((const float4 *)a, (float4 *)b, n4); }, 10); \
	printf("copy %-28s blk %4d x %2d/SM  %7.1f GB/s\n", NAME, BLK, NB, bytes / ms / 1e6); }
	C("ldcg U4 (current)", (copy_k<4, 0>), 256, 8);
	C("ldcg U8", (copy_k<8, 0>), 256, 8);
	C("ldcs/stcs U4", (copy_k<4, 1>), 256, 8);
	C("ldcs/stcs U8", (copy_k<8, 1>), 256, 8);
	C("L2::256B/stcs U4", (copy_k<4, 2>), 256, 8);
	C("L2::256B/stcs U8", (copy_k<8, 2>), 256, 8);
	C("ldcs/stcs U4", (copy_k<4, 1>), 512, 4);
	C("ldcs/stcs U4", (copy_k<4, 1>), 1024, 2);
	C("ldcs/stcs U2", (copy_k<2, 1>), 1024, 2);
	C("slice U4", (copy_slice<4>), 512, 4);
	C("slice U8", (copy_slice<8>), 1024, 2);
	C("slice U4 many", (copy_slice<4>), 256, 32);
	{ float ms = timeit([&]{ cudaMemcpyAsync(b, a, n * 4, cudaMemcpyDeviceToDevice); }, 10);
	  printf("copy %-28s                %7.1f GB/s\n", "cudaMemcpyAsync D2D", bytes / ms / 1e6); }
	{ float ms = timeit([&]{ cudaMemsetAsync(b, 0, n * 4); }, 10);
	  printf("memset (write only)                          %7.1f GB/s\n", n * 4.0 / ms / 1e6); }
	float *in, *out; CK(cudaMalloc(&in, 1ull << 30)); CK(cudaMalloc(&out, 1ull << 30)); cudaMemset(in, 0, 1ull << 30);
#define F(ILP, IMM, BLK, W) { int g = sms * (2048 / BLK) * W; int it = 16; \
	float ms = timeit([&]{ ffma_k<ILP, IMM><<<g, BLK>>>(in, out, 0.9999f, 0.001f, it); }, 10); \
	double fl = 2.0 * g * BLK * ILP * 64.0 * it; printf("ffma ILP %2d imm %d blk %4d waves %d  %6.2f TFLOPS\n", ILP, IMM, BLK, W, fl / ms / 1e9); }
	F(8, 0, 256, 4); F(8, 1, 256, 4); F(4, 1, 256, 4); F(16, 1, 256, 4); F(8, 1, 512, 4); F(8, 1, 256, 16); F(8, 0, 256, 16); F(4, 0, 256, 16);
	int clk; cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0); printf("clock %d kHz\n", clk);
	return 0;
}
