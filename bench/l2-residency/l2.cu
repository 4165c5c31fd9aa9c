// L2-residency check behind docs/measurements/h200-l2-residency-2026-11-29.txt:
// how much faster a pointwise kernel runs when its input is the output the
// kernel before it just wrote (still in the L2) than when that input was
// evicted. fp32 tensors of 4 to 32 MiB; "unary" y = f(x) reads one tensor,
// "binary" y = a + b two (only a is the previous output). Eviction: a 512 MiB
// read, so no dirty lines are left to write back in the timed kernel.
// Build and run on a GPU machine: nvcc -O2 -o l2 l2.cu && ./l2
#include <cstdio>
#include <vector>
#include <algorithm>
#define K(n) for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
__global__ void unary(const float *x, float *y, size_t n) { K(n) y[i] = x[i] * 1.0001f + .5f; }
__global__ void binary(const float *a, const float *b, float *y, size_t n) { K(n) y[i] = a[i] + b[i]; }
__global__ void evict(const float *p, size_t n, float *o) { float s = 0; K(n) s += p[i]; if (s == 123.f) *o = s; }
int main() {
  int sms, G, B = 256; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0); G = sms * 16;
  size_t F = 128 << 20; float *fl, *o; cudaMalloc(&fl, F * 4); cudaMemset(fl, 0, F * 4); cudaMalloc(&o, 4);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  printf("MiB kind    evicted_us  resident_us  saved_us  (median of 101, event-timed)\n");
  for (size_t m : {4, 8, 16, 32}) {
    size_t n = (m << 20) / 4; float *x, *y, *z, *w;
    cudaMalloc(&x, n * 4); cudaMalloc(&y, n * 4); cudaMalloc(&z, n * 4); cudaMalloc(&w, n * 4);
    cudaMemset(x, 0, n * 4); cudaMemset(w, 0, n * 4);
    for (int k = 0; k < 2; k++) {
      double med[2];
      for (int res = 0; res < 2; res++) {
        std::vector<float> t;
        for (int r = 0; r < 101; r++) {
          // the producer writes y; evicted: then the L2 is flushed
          if (res) { evict<<<G, B>>>(fl, F, o); unary<<<G, B>>>(x, y, n); }
          else { unary<<<G, B>>>(x, y, n); evict<<<G, B>>>(fl, F, o); }
          cudaEventRecord(e0);
          if (k == 0) unary<<<G, B>>>(y, z, n); else binary<<<G, B>>>(y, w, z, n);
          cudaEventRecord(e1); cudaEventSynchronize(e1);
          float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms * 1e3f);
        }
        std::sort(t.begin(), t.end()); med[res] = t[t.size() / 2];
      }
      printf("%3zu %-7s %10.2f %12.2f %9.2f\n", m, k ? "binary" : "unary", med[0], med[1], med[0] - med[1]);
    }
    cudaFree(x); cudaFree(y); cudaFree(z); cudaFree(w);
  }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
