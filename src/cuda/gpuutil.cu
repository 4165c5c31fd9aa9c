/* gpuutil.cu - what the CUDA sources share (see gpuutil.h): CUDA errors as
 * rl_err, reproducible random device data the host can recompute element by
 * element, and NVML clock and temperature readings loaded with dlopen.
 */
#include "config.h"

#include "gpuutil.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

extern "C" int rl_cu_fail(struct rl_err *err, const char *what, cudaError_t e)
{
	return rl_err_set(err, RL_ERR_DEVICE, "%s: %s (%s)", what, cudaGetErrorString(e),
	                  cudaGetErrorName(e));
}

/* ---- random data ------------------------------------------------------- */

/* splitmix64's finalizer (Steele, Lea, Flood, "Fast splittable pseudorandom
 * number generators", OOPSLA 2014) over seed + (i + 1) x the golden-ratio
 * increment: element i of a stream is a pure function of (seed, i), so any
 * thread, and the host, computes it without state. */
__host__ __device__ static inline uint64_t mix64(uint64_t seed, uint64_t i)
{
	uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* u in [0, 1) from the top 53 bits (exact in a double), then one fma: IEEE
 * fma rounds once on the GPU and in the host's libm alike, so the two sides
 * agree to the bit (a separate multiply and add could be contracted on one
 * side only). */
__host__ __device__ static inline double random_value(uint64_t seed, uint64_t i, double lo,
                                                      double hi)
{
	double u = (double)(mix64(seed, i) >> 11) * 0x1.0p-53;

	return fma(u, hi - lo, lo);
}

__host__ __device__ static inline double floor_clamp(double v, double lo, double hi)
{
	v = floor(v);
	return v < lo ? lo : v > hi ? hi : v;
}

/* Storing a double as T: round to nearest even, directly from the double (one
 * rounding, no detour through float), fp8 saturating to the largest finite
 * value, integers floored and clamped. */
template <typename T> struct store_as;
template <> struct store_as<double> {
	__host__ __device__ static double cvt(double v)
	{
		return v;
	}
};
template <> struct store_as<float> {
	__host__ __device__ static float cvt(double v)
	{
		return (float)v;
	}
};
template <> struct store_as<__half> {
	__host__ __device__ static __half cvt(double v)
	{
		return __double2half(v);
	}
};
template <> struct store_as<__nv_bfloat16> {
	__host__ __device__ static __nv_bfloat16 cvt(double v)
	{
		return __double2bfloat16(v);
	}
};
template <> struct store_as<__nv_fp8_e4m3> {
	__host__ __device__ static __nv_fp8_e4m3 cvt(double v)
	{
		return __nv_fp8_e4m3(v);
	}
};
template <> struct store_as<__nv_fp8_e5m2> {
	__host__ __device__ static __nv_fp8_e5m2 cvt(double v)
	{
		return __nv_fp8_e5m2(v);
	}
};
template <> struct store_as<int8_t> {
	__host__ __device__ static int8_t cvt(double v)
	{
		return (int8_t)floor_clamp(v, -128.0, 127.0);
	}
};
template <> struct store_as<int32_t> {
	__host__ __device__ static int32_t cvt(double v)
	{
		return (int32_t)floor_clamp(v, -2147483648.0, 2147483647.0);
	}
};

template <typename T>
__global__ void fill_kernel(T *p, size_t n, uint64_t seed, double lo, double hi)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		p[i] = store_as<T>::cvt(random_value(seed, i, lo, hi));
}

template <typename T>
static cudaError_t fill(void *p, size_t n, uint64_t seed, double lo, double hi,
                        cudaStream_t stream)
{
	const unsigned threads = 256;
	size_t blocks = (n + threads - 1) / threads;

	/* A grid-stride loop covers the rest; 16384 blocks of 256 fill any
	 * GPU CUDA 13 runs on several times over. */
	if (blocks > 16384)
		blocks = 16384;
	fill_kernel<T><<<(unsigned)blocks, threads, 0, stream>>>((T *)p, n, seed, lo, hi);
	return cudaGetLastError();
}

extern "C" cudaError_t rl_cu_fill_random(void *p, size_t n, enum rl_dtype t, uint64_t seed,
                                         double lo, double hi, cudaStream_t stream)
{
	if (n == 0)
		return cudaSuccess;
	if (p == NULL || !(lo <= hi) || !isfinite(lo) || !isfinite(hi))
		return cudaErrorInvalidValue;
	switch (t) {
	case RL_FP64:
		return fill<double>(p, n, seed, lo, hi, stream);
	case RL_FP32:
	case RL_TF32:
		return fill<float>(p, n, seed, lo, hi, stream);
	case RL_FP16:
		return fill<__half>(p, n, seed, lo, hi, stream);
	case RL_BF16:
		return fill<__nv_bfloat16>(p, n, seed, lo, hi, stream);
	case RL_FP8E4M3:
		return fill<__nv_fp8_e4m3>(p, n, seed, lo, hi, stream);
	case RL_FP8E5M2:
		return fill<__nv_fp8_e5m2>(p, n, seed, lo, hi, stream);
	case RL_INT8:
		return fill<int8_t>(p, n, seed, lo, hi, stream);
	case RL_INT32:
		return fill<int32_t>(p, n, seed, lo, hi, stream);
	default:
		return cudaErrorInvalidValue;
	}
}

extern "C" double rl_cu_random_value(uint64_t seed, size_t i, double lo, double hi)
{
	return random_value(seed, i, lo, hi);
}

extern "C" double rl_cu_round(double x, enum rl_dtype t)
{
	switch (t) {
	case RL_FP64:
		return x;
	case RL_FP32:
	case RL_TF32:
		return (double)store_as<float>::cvt(x);
	case RL_FP16:
		return (double)__half2float(store_as<__half>::cvt(x));
	case RL_BF16:
		return (double)__bfloat162float(store_as<__nv_bfloat16>::cvt(x));
	case RL_FP8E4M3:
		return (double)(float)store_as<__nv_fp8_e4m3>::cvt(x);
	case RL_FP8E5M2:
		return (double)(float)store_as<__nv_fp8_e5m2>::cvt(x);
	case RL_INT8:
		return (double)store_as<int8_t>::cvt(x);
	case RL_INT32:
		return (double)store_as<int32_t>::cvt(x);
	default:
		return x;
	}
}

/* ---- NVML -------------------------------------------------------------- */

/* The few NVML declarations used (nvml.h is not part of the toolkit): every
 * call returns nvmlReturn_t, an enum where 0 is NVML_SUCCESS; enums are passed
 * as int; a device handle is an opaque pointer. */
typedef int nvml_return;
typedef struct nvml_device_st *nvml_device;

enum {
	NVML_TEMPERATURE_GPU = 0,
	NVML_CLOCK_SM = 1,
};

static struct {
	int ok; /* library loaded and nvmlInit_v2 succeeded */
	nvml_return (*init)(void);
	nvml_return (*by_pci)(const char *bus_id, nvml_device *dev);
	nvml_return (*clock)(nvml_device dev, int type, unsigned int *mhz);
	nvml_return (*temp)(nvml_device dev, int sensor, unsigned int *celsius);
} nvml;

static pthread_once_t nvml_once = PTHREAD_ONCE_INIT;

template <typename F> static bool nvml_sym(void *lib, const char *name, F *fn)
{
	void *p = dlsym(lib, name);

	*fn = reinterpret_cast<F>(p);
	return p != NULL;
}

/* Loaded once and kept: dlclose and nvmlShutdown would only make the next
 * reading pay for initialisation again. */
static void nvml_load(void)
{
	void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);

	if (lib == NULL)
		return;
	if (!nvml_sym(lib, "nvmlInit_v2", &nvml.init) ||
	    !nvml_sym(lib, "nvmlDeviceGetHandleByPciBusId_v2", &nvml.by_pci) ||
	    !nvml_sym(lib, "nvmlDeviceGetClockInfo", &nvml.clock) ||
	    !nvml_sym(lib, "nvmlDeviceGetTemperature", &nvml.temp) || nvml.init() != 0) {
		dlclose(lib);
		return;
	}
	nvml.ok = 1;
}

extern "C" void rl_nvml_sample(int dev, double *sm_clock_mhz, double *temp_c)
{
	char bus_id[32];
	nvml_device h;
	unsigned int v;

	*sm_clock_mhz = 0;
	*temp_c = 0;
	if (pthread_once(&nvml_once, nvml_load) != 0 || !nvml.ok)
		return;
	/* CUDA and NVML number devices differently (CUDA_VISIBLE_DEVICES,
	 * CUDA_DEVICE_ORDER); the PCI bus id names the same board in both. */
	if (cudaDeviceGetPCIBusId(bus_id, (int)sizeof(bus_id), dev) != cudaSuccess)
		return;
	if (nvml.by_pci(bus_id, &h) != 0)
		return;
	if (nvml.clock(h, NVML_CLOCK_SM, &v) == 0)
		*sm_clock_mhz = v;
	if (nvml.temp(h, NVML_TEMPERATURE_GPU, &v) == 0)
		*temp_c = v;
}
