// tma.cu - device-to-device copy bandwidth on Hopper (sm_90): TMA bulk copy
// (cp.async.bulk 1D, global->smem->global) vs a float4 copy kernel vs
// cudaMemcpyAsync.  Standalone experiment.
//
// Build: nvcc -O3 -gencode=arch=compute_90,code=sm_90 -o .devbin/tma bench/tuning/tma.cu
// Run:   .devbin/tma
//
// Each line: best / median GB/s over 7 samples of 10 copies (after 3 warm-up
// copies), counting bytes read + written (2 x 1 GiB per copy), and the number
// of 32-bit words of the output that differ from the input.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(call)                                                               \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d: %s -> %s\n", __FILE__, __LINE__, #call,          \
              cudaGetErrorString(e_));                                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static const size_t N = 268435456;  // floats per array (1 GiB)
static const size_t BYTES = N * sizeof(float);
static const int WARMUP = 3, SAMPLES = 7, REPS = 10;

// ---------------------------------------------------------------- PTX helpers
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
// arrive (count 1) and add `bytes` to the expected transaction count
__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  uint32_t done;
  do {
    asm volatile(
        "{\n\t.reg .pred p;\n\t"
        "mbarrier.try_wait.parity.shared.b64 p, [%1], %2;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}
__device__ __forceinline__ void fence_proxy_async() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
// global -> shared, completion signalled on mbarrier `bar` (bytes % 16 == 0)
__device__ __forceinline__ void bulk_load(uint32_t dst_smem, const void* src, uint32_t bytes,
                                          uint32_t bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
      ::"r"(dst_smem), "l"(__cvta_generic_to_global(src)), "r"(bytes), "r"(bar)
      : "memory");
}
// shared -> global, tracked by bulk async-groups
__device__ __forceinline__ void bulk_store(void* dst, uint32_t src_smem, uint32_t bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
               ::"l"(__cvta_generic_to_global(dst)), "r"(src_smem), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void bulk_commit() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
template <int N_>
__device__ __forceinline__ void bulk_wait_read() {  // <= N_ groups still reading smem
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N_) : "memory");
}
__device__ __forceinline__ void bulk_wait_all() {  // all bulk stores complete
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// ---------------------------------------------------------------- kernels
// Persistent TMA copy. One elected thread per CTA runs a STAGES-deep ring of
// `chunk`-byte shared buffers.  Chunks of this CTA: grid-strided (blockIdx.x +
// k*gridDim.x) or, if contig, one contiguous range.  At step k it waits for
// load k, issues store k, then waits until store k-1 has finished reading its
// buffer (wait_group.read 1) and refills that buffer with load k-1+STAGES.  So
// up to STAGES-1 loads and 2 stores are in flight.
template <int STAGES>
__global__ void __launch_bounds__(32) tma_copy(const char* __restrict__ src,
                                               char* __restrict__ dst, size_t nbytes,
                                               uint32_t chunk, int contig, int fence) {
  extern __shared__ __align__(128) unsigned char sbuf[];
  __shared__ __align__(8) uint64_t bar[STAGES];
  if (threadIdx.x != 0) return;  // single elected issuing thread

  const size_t nchunks = (nbytes + chunk - 1) / chunk;
  const size_t G = gridDim.x, b = blockIdx.x;
  size_t first, step, my_n;
  if (contig) {
    first = b * nchunks / G;
    my_n = (b + 1) * nchunks / G - first;
    step = 1;
  } else {
    first = b;
    my_n = b < nchunks ? (nchunks - 1 - b) / G + 1 : 0;
    step = G;
  }

  for (int s = 0; s < STAGES; ++s) mbar_init(smem_u32(&bar[s]), 1);
  fence_proxy_async();  // make the initialised barriers visible to the async proxy

  auto load = [&](size_t k) {
    const int s = static_cast<int>(k % STAGES);
    const size_t off = (first + k * step) * chunk;
    const uint32_t n = static_cast<uint32_t>(min(static_cast<size_t>(chunk), nbytes - off));
    const uint32_t bs = smem_u32(&bar[s]);
    mbar_expect_tx(bs, n);
    bulk_load(smem_u32(sbuf + static_cast<size_t>(s) * chunk), src + off, n, bs);
  };

  for (size_t k = 0; k < my_n && k < static_cast<size_t>(STAGES); ++k) load(k);
  for (size_t k = 0; k < my_n; ++k) {
    const int s = static_cast<int>(k % STAGES);
    mbar_wait(smem_u32(&bar[s]), static_cast<uint32_t>((k / STAGES) & 1));
    if (fence) fence_proxy_async();
    const size_t off = (first + k * step) * chunk;
    const uint32_t n = static_cast<uint32_t>(min(static_cast<size_t>(chunk), nbytes - off));
    bulk_store(dst + off, smem_u32(sbuf + static_cast<size_t>(s) * chunk), n);
    bulk_commit();
    if (k >= 1 && k - 1 + STAGES < my_n) {
      bulk_wait_read<1>();  // store k-1 has finished reading buffer (k-1)%STAGES
      load(k - 1 + STAGES);
    }
  }
  bulk_wait_all();
}

// Plain float4 grid-stride copy, 4 independent 16-byte loads in flight per thread.
__global__ void __launch_bounds__(256) f4_copy(const float4* __restrict__ src,
                                               float4* __restrict__ dst, size_t n4) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    float4 a = src[i], b = src[i + stride], c = src[i + 2 * stride], d = src[i + 3 * stride];
    dst[i] = a; dst[i + stride] = b; dst[i + 2 * stride] = c; dst[i + 3 * stride] = d;
  }
  for (; i < n4; i += stride) dst[i] = src[i];
}

__global__ void fill(uint32_t* p, size_t n, uint32_t seed) {
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    uint64_t h = (i + seed) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 32;
    p[i] = (static_cast<uint32_t>(h) & 0x007FFFFFu) | 0x3F800000u;  // float in [1,2)
  }
}

__global__ void count_mismatch(const uint32_t* a, const uint32_t* b, size_t n,
                               unsigned long long* cnt) {
  unsigned long long c = 0;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    c += a[i] != b[i];
  for (int o = 16; o > 0; o >>= 1) c += __shfl_xor_sync(0xffffffffu, c, o);
  if ((threadIdx.x & 31) == 0 && c) atomicAdd(cnt, c);
}

// ---------------------------------------------------------------- host side
static float* g_src;
static float* g_dst;
static unsigned long long* g_cnt;
static int g_sms;

static unsigned long long verify() {
  CK(cudaMemset(g_cnt, 0, sizeof(*g_cnt)));
  count_mismatch<<<g_sms * 8, 256>>>(reinterpret_cast<const uint32_t*>(g_src),
                                     reinterpret_cast<const uint32_t*>(g_dst), N, g_cnt);
  CK(cudaGetLastError());
  unsigned long long h = 0;
  CK(cudaMemcpy(&h, g_cnt, sizeof(h), cudaMemcpyDeviceToHost));
  return h;
}

// Clears dst, times `launch` (one copy of BYTES), verifies, prints one line.
template <class F>
static void bench(const char* name, F launch) {
  CK(cudaMemset(g_dst, 0, BYTES));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int i = 0; i < WARMUP; ++i) launch();
  CK(cudaDeviceSynchronize());
  float gbs[SAMPLES];
  for (int s = 0; s < SAMPLES; ++s) {
    CK(cudaEventRecord(e0));
    for (int i = 0; i < REPS; ++i) launch();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0.f;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    gbs[s] = static_cast<float>(2.0 * BYTES * REPS / (ms * 1e-3) / 1e9);
  }
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  std::sort(gbs, gbs + SAMPLES);
  printf("%-44s best %7.1f GB/s  median %7.1f GB/s  mismatches %llu\n", name,
         gbs[SAMPLES - 1], gbs[SAMPLES / 2], verify());
  fflush(stdout);
}

typedef void (*tma_kernel_t)(const char*, char*, size_t, uint32_t, int, int);

static void bench_tma(int stages, int chunk_kib, int ctas_per_sm, int contig, int fence) {
  tma_kernel_t k = stages == 2 ? tma_copy<2> : stages == 4 ? tma_copy<4> : tma_copy<8>;
  const uint32_t chunk = static_cast<uint32_t>(chunk_kib) * 1024u;
  const size_t smem = static_cast<size_t>(stages) * chunk;
  char name[128];
  snprintf(name, sizeof(name), "tma %dx%2dKiB %d CTA/SM %s%s", stages, chunk_kib, ctas_per_sm,
           contig ? "contig" : "stride", fence ? "" : " nofence");
  cudaDeviceProp p;
  int dev = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaGetDeviceProperties(&p, dev));
  if (smem > p.sharedMemPerBlockOptin) {
    printf("%-44s skipped: %zu B smem > %zu B per block\n", name, smem, p.sharedMemPerBlockOptin);
    return;
  }
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  CK(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout,
                          cudaSharedmemCarveoutMaxShared));
  int occ = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, k, 32, smem));
  if (occ < ctas_per_sm) {
    printf("%-44s skipped: only %d CTA/SM fit with %zu B smem\n", name, occ, smem);
    return;
  }
  const int grid = g_sms * ctas_per_sm;
  bench(name, [&] {
    k<<<grid, 32, smem>>>(reinterpret_cast<const char*>(g_src), reinterpret_cast<char*>(g_dst),
                          BYTES, chunk, contig, fence);
    CK(cudaGetLastError());
  });
}

int main() {
  int dev = 0;
  CK(cudaGetDevice(&dev));
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, dev));
  g_sms = p.multiProcessorCount;
  printf("device %s, sm_%d%d, %d SMs, smem/SM %zu B, smem/block optin %zu B\n", p.name, p.major,
         p.minor, g_sms, p.sharedMemPerMultiprocessor, p.sharedMemPerBlockOptin);
  if (p.major < 9) {
    fprintf(stderr, "needs sm_90 or newer\n");
    return 1;
  }
  CK(cudaMalloc(&g_src, BYTES));
  CK(cudaMalloc(&g_dst, BYTES));
  CK(cudaMalloc(&g_cnt, sizeof(*g_cnt)));
  fill<<<g_sms * 8, 256>>>(reinterpret_cast<uint32_t*>(g_src), N, 12345u);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  bench("cudaMemcpyAsync D2D", [&] {
    CK(cudaMemcpyAsync(g_dst, g_src, BYTES, cudaMemcpyDeviceToDevice));
  });
  bench("float4 copy, 4 in flight, grid SMs x 8 x 256", [&] {
    f4_copy<<<g_sms * 8, 256>>>(reinterpret_cast<const float4*>(g_src),
                                reinterpret_cast<float4*>(g_dst), N / 4);
    CK(cudaGetLastError());
  });

  const int stages[] = {2, 4, 8}, chunks[] = {16, 32, 64};
  for (int ctas = 1; ctas <= 2; ++ctas)
    for (int contig = 0; contig <= 1; ++contig)
      for (int s : stages)
        for (int c : chunks) bench_tma(s, c, ctas, contig, 1);
  bench_tma(4, 32, 1, 0, 0);  // same without the per-chunk proxy fence
  bench_tma(4, 16, 2, 0, 0);

  CK(cudaFree(g_src));
  CK(cudaFree(g_dst));
  CK(cudaFree(g_cnt));
  return 0;
}
