// oneshot.cu - why PyTorch's elementwise kernels beat the project's
// grid-stride copy on an H200 (issue 12, item 2): the same 1 GiB fp32 copy,
// read, write and triad, grid-stride (a fixed grid of 8 blocks per SM, as
// src/cuda/bench_memory.cu) against "one-shot" grids (one tile per block, as
// many blocks as tiles: PyTorch's vectorized_elementwise_kernel launches
// 128-thread blocks over N / (128 x 4 x 4) tiles), timed with CUDA events,
// median of 15. Build: nvcc -O3 -arch=sm_90 -o oneshot oneshot.cu
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

// grid-stride, as bench_memory.cu: U float4 loads in flight per thread
template <int U>
__global__ void copy_gs(const float4 *__restrict__ a, float4 *__restrict__ b, size_t n4)
{
	size_t stride = (size_t)gridDim.x * blockDim.x, i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	for (; i + (U - 1) * stride < n4; i += U * stride) {
		float4 v[U];
#pragma unroll
		for (int u = 0; u < U; u++) v[u] = __ldcg(a + i + u * stride);
#pragma unroll
		for (int u = 0; u < U; u++) b[i + u * stride] = v[u];
	}
	for (; i < n4; i += stride) b[i] = a[i];
}

// one-shot: block j copies float4s [j T U, (j + 1) T U), thread t the U at t + k T
template <int U, int LDG>
__global__ void copy_os(const float4 *__restrict__ a, float4 *__restrict__ b, size_t n4)
{
	size_t base = (size_t)blockIdx.x * blockDim.x * U + threadIdx.x;
	float4 v[U];
#pragma unroll
	for (int u = 0; u < U; u++) {
		size_t i = base + (size_t)u * blockDim.x;
		if (i < n4) v[u] = LDG ? __ldg(a + i) : __ldcg(a + i);
	}
#pragma unroll
	for (int u = 0; u < U; u++) {
		size_t i = base + (size_t)u * blockDim.x;
		if (i < n4) b[i] = v[u];
	}
}

template <int U>
__global__ void write_os(float4 *__restrict__ b, size_t n4, float c)
{
	size_t base = (size_t)blockIdx.x * blockDim.x * U + threadIdx.x;
#pragma unroll
	for (int u = 0; u < U; u++) {
		size_t i = base + (size_t)u * blockDim.x;
		if (i < n4) b[i] = make_float4(c, c, c, c);
	}
}

template <int U>
__global__ void read_os(const float4 *__restrict__ a, size_t n4, float *out)
{
	size_t base = (size_t)blockIdx.x * blockDim.x * U + threadIdx.x;
	float s = 0;
#pragma unroll
	for (int u = 0; u < U; u++) {
		size_t i = base + (size_t)u * blockDim.x;
		if (i < n4) { float4 v = __ldcg(a + i); s += v.x + v.y + v.z + v.w; }
	}
	if (s == 12345.678f) out[0] = s; // never true on the data: keeps the loads
}

template <int U>
__global__ void triad_os(float4 *__restrict__ a, const float4 *__restrict__ b, const float4 *__restrict__ c, size_t n4)
{
	size_t base = (size_t)blockIdx.x * blockDim.x * U + threadIdx.x;
	float4 vb[U], vc[U];
#pragma unroll
	for (int u = 0; u < U; u++) {
		size_t i = base + (size_t)u * blockDim.x;
		if (i < n4) { vb[u] = __ldcg(b + i); vc[u] = __ldcg(c + i); }
	}
#pragma unroll
	for (int u = 0; u < U; u++) {
		size_t i = base + (size_t)u * blockDim.x;
		if (i < n4) a[i] = make_float4(vb[u].x + 3 * vc[u].x, vb[u].y + 3 * vc[u].y, vb[u].z + 3 * vc[u].z, vb[u].w + 3 * vc[u].w);
	}
}

template <typename L>
static float time_med(L launch, int reps = 15)
{
	cudaEvent_t e0, e1;
	cudaEventCreate(&e0); cudaEventCreate(&e1);
	std::vector<float> t;
	launch(); launch();
	for (int r = 0; r < reps; r++) {
		cudaEventRecord(e0); launch(); cudaEventRecord(e1); cudaEventSynchronize(e1);
		float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms);
	}
	std::sort(t.begin(), t.end());
	return t[t.size() / 2];
}

int main()
{
	size_t n = (size_t)1 << 28, n4 = n / 4, bytes = n * 4;
	float4 *a, *b, *c; float *out;
	int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
	CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes)); CK(cudaMalloc(&c, bytes)); CK(cudaMalloc(&out, 4));
	CK(cudaMemset(a, 0, bytes)); CK(cudaMemset(b, 0, bytes)); CK(cudaMemset(c, 0, bytes));
	auto gbs = [&](float ms, double by) { return by / (ms * 1e-3) / 1e9; };
	float ms;
	ms = time_med([&] { copy_gs<4><<<sms * 8, 256>>>(a, b, n4); });
	printf("copy grid-stride U4 blk 256 x 8/SM (bench_memory.cu) %8.1f GB/s\n", gbs(ms, 2.0 * bytes));
#define OS(U, T, LDG) \
	ms = time_med([&] { copy_os<U, LDG><<<(unsigned)((n4 + (size_t)T * U - 1) / ((size_t)T * U)), T>>>(a, b, n4); }); \
	printf("copy one-shot U%d blk %4d %s %8.1f GB/s\n", U, T, LDG ? "ldg " : "ldcg", gbs(ms, 2.0 * bytes));
	OS(1, 128, 0) OS(2, 128, 0) OS(4, 128, 0) OS(8, 128, 0) OS(4, 128, 1) OS(4, 256, 0) OS(4, 512, 0) OS(2, 256, 0) OS(8, 256, 0)
	ms = time_med([&] { CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice)); return 0; });
	printf("copy cudaMemcpyAsync D2D                              %8.1f GB/s\n", gbs(ms, 2.0 * bytes));
	ms = time_med([&] { write_os<4><<<(unsigned)(n4 / 512), 128>>>(b, n4, 1.0f); });
	printf("write one-shot U4 blk 128                           %8.1f GB/s\n", gbs(ms, 1.0 * bytes));
	ms = time_med([&] { write_os<4><<<(unsigned)(n4 / 1024), 256>>>(b, n4, 1.0f); });
	printf("write one-shot U4 blk 256                           %8.1f GB/s\n", gbs(ms, 1.0 * bytes));
	ms = time_med([&] { read_os<4><<<(unsigned)(n4 / 512), 128>>>(a, n4, out); });
	printf("read one-shot U4 blk 128                            %8.1f GB/s\n", gbs(ms, 1.0 * bytes));
	ms = time_med([&] { read_os<8><<<(unsigned)(n4 / 1024), 128>>>(a, n4, out); });
	printf("read one-shot U8 blk 128                            %8.1f GB/s\n", gbs(ms, 1.0 * bytes));
	ms = time_med([&] { triad_os<4><<<(unsigned)(n4 / 512), 128>>>(a, b, c, n4); });
	printf("triad one-shot U4 blk 128 (2R+1W)                   %8.1f GB/s\n", gbs(ms, 3.0 * bytes));
	ms = time_med([&] { triad_os<2><<<(unsigned)(n4 / 256), 128>>>(a, b, c, n4); });
	printf("triad one-shot U2 blk 128 (2R+1W)                   %8.1f GB/s\n", gbs(ms, 3.0 * bytes));
	CK(cudaGetLastError());
	CK(cudaDeviceSynchronize());
	return 0;
}
