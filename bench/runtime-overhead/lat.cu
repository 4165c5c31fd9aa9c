// Launch-overhead microbenchmark behind the numbers in hwdb/cpp.runtime and
// hwdb/graph.runtime (docs/measurements/h200-launch-overhead-2026-11-29.txt).
// Build and run on a GPU machine: nvcc -O2 -o lat lat.cu && ./lat
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do{cudaError_t e=(x); if(e!=cudaSuccess){printf("ERR %s line %d: %s\n",#x,__LINE__,cudaGetErrorString(e)); exit(1);}}while(0)
__global__ void empty_k(){}
__global__ void scale_k(double* __restrict__ a, const double* __restrict__ b, int n){int i=blockIdx.x*blockDim.x+threadIdx.x; if(i<n) a[i]=1.25*b[i];}
static double now(){return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();}
static double med(std::vector<double> v){std::sort(v.begin(),v.end()); return v[v.size()/2];}
int main(){
  int d=0; cudaDeviceProp p; CK(cudaGetDeviceProperties(&p,d));
  int sms,clk,mclk,bus,l2,maj,min;
  cudaDeviceGetAttribute(&sms,cudaDevAttrMultiProcessorCount,d); cudaDeviceGetAttribute(&clk,cudaDevAttrClockRate,d);
  cudaDeviceGetAttribute(&mclk,cudaDevAttrMemoryClockRate,d); cudaDeviceGetAttribute(&bus,cudaDevAttrGlobalMemoryBusWidth,d);
  cudaDeviceGetAttribute(&l2,cudaDevAttrL2CacheSize,d); cudaDeviceGetAttribute(&maj,cudaDevAttrComputeCapabilityMajor,d); cudaDeviceGetAttribute(&min,cudaDevAttrComputeCapabilityMinor,d);
  int drv,rt; cudaDriverGetVersion(&drv); cudaRuntimeGetVersion(&rt);
  printf("name=%s cc=%d.%d sms=%d clock_khz=%d memclk_khz=%d bus_bits=%d l2_bytes=%d total_mem_bytes=%zu (%.3f GiB) driver=%d runtime=%d\n",p.name,maj,min,sms,clk,mclk,bus,l2,p.totalGlobalMem,p.totalGlobalMem/1073741824.0,drv,rt);
  printf("derived_peak_bw_GBs=%.1f\n",2.0*mclk*1e3*bus/8/1e9);
  cudaStream_t s; CK(cudaStreamCreateWithFlags(&s,cudaStreamNonBlocking));
  const int n=4096; double *a,*b; CK(cudaMalloc(&a,n*8)); CK(cudaMalloc(&b,n*8)); CK(cudaMemset(b,0,n*8));
  for(int i=0;i<1000;i++){empty_k<<<1,1,0,s>>>(); scale_k<<<(n+255)/256,256,0,s>>>(a,b,n);} CK(cudaStreamSynchronize(s));
  const int N=20000; std::vector<double> enq,tot,senq,stot,rt1;
  for(int r=0;r<7;r++){
    double t0=now(); for(int i=0;i<N;i++) empty_k<<<1,1,0,s>>>(); double t1=now(); CK(cudaStreamSynchronize(s)); double t2=now();
    enq.push_back((t1-t0)/N*1e6); tot.push_back((t2-t0)/N*1e6);
    t0=now(); for(int i=0;i<N;i++) scale_k<<<(n+255)/256,256,0,s>>>(a,b,n); t1=now(); CK(cudaStreamSynchronize(s)); t2=now();
    senq.push_back((t1-t0)/N*1e6); stot.push_back((t2-t0)/N*1e6);
    t0=now(); for(int i=0;i<2000;i++){empty_k<<<1,1,0,s>>>(); cudaStreamSynchronize(s);} t1=now(); rt1.push_back((t1-t0)/2000*1e6);
  }
  CK(cudaGetLastError());
  printf("stream empty<<<1,1>>>: host enqueue %.3f us/launch, end-to-end %.3f us/kernel (median of 7 x %d)\n",med(enq),med(tot),N);
  printf("stream scale(4096 doubles, 64 KiB traffic, 16 blocks): host enqueue %.3f us/launch, end-to-end %.3f us/kernel\n",med(senq),med(stot));
  printf("launch+sync round trip empty: %.3f us\n",med(rt1));
  // CUDA graphs
  for(int kind=0;kind<2;kind++){
    const int G=2000; cudaGraph_t g; cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(s,cudaStreamCaptureModeGlobal));
    for(int i=0;i<G;i++){ if(kind==0) empty_k<<<1,1,0,s>>>(); else scale_k<<<(n+255)/256,256,0,s>>>(a,b,n);} 
    CK(cudaStreamEndCapture(s,&g)); CK(cudaGraphInstantiate(&ge,g,0));
    CK(cudaGraphLaunch(ge,s)); CK(cudaStreamSynchronize(s));
    cudaEvent_t e0,e1; cudaEventCreate(&e0); cudaEventCreate(&e1); std::vector<double> v,hv;
    for(int r=0;r<15;r++){double t0=now(); cudaEventRecord(e0,s); CK(cudaGraphLaunch(ge,s)); double t1=now(); cudaEventRecord(e1,s); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms,e0,e1); v.push_back(ms*1e3/G); hv.push_back((t1-t0)*1e6);} 
    printf("graph %s x%d: %.3f us/node (event-timed median of 15 replays); host cudaGraphLaunch %.1f us\n",kind?"scale":"empty",G,med(v),med(hv));
  }
  return 0;
}
