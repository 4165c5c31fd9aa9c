/* cuda.c - the live device query through the CUDA runtime (see cuda.h), in
 * the CUDA plugin; the library's cudaload.c forwards rl_cuda_* here.
 *
 * CUDA 13 removed clockRate and memoryClockRate from cudaDeviceProp (CUDA 13.0
 * release notes, "changes to cudaDeviceProp"), so every number but the name and
 * the memory size comes from cudaDeviceGetAttribute, which both 12 and 13 have.
 */
#include "config.h"

#include "cuda.h"

#include <stddef.h>
#include <string.h>

#include <cuda_runtime_api.h>

static int fail(struct rl_err *err, const char *what, cudaError_t e)
{
	const char *hint = "";

	if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice)
		hint = ": is there an NVIDIA GPU and driver on this machine?";
	return rl_err_set(err, RL_ERR_DEVICE, "%s: %s (%s)%s", what, cudaGetErrorString(e),
	                  cudaGetErrorName(e), hint);
}

int rl_cuda_device_count(int *n, struct rl_err *err)
{
	cudaError_t e = cudaGetDeviceCount(n);

	if (e != cudaSuccess) {
		*n = 0;
		return fail(err, "cudaGetDeviceCount", e);
	}
	if (*n == 0)
		return rl_err_set(err, RL_ERR_DEVICE, "cudaGetDeviceCount: no CUDA device");
	return 0;
}

int rl_cuda_query(int dev, struct rl_gpu *g, struct rl_err *err)
{
	static const struct {
		enum cudaDeviceAttr attr;
		size_t off;
		const char *name;
	} attrs[] = {
		{cudaDevAttrComputeCapabilityMajor, offsetof(struct rl_gpu, cc_major),
		 "cudaDevAttrComputeCapabilityMajor"},
		{cudaDevAttrComputeCapabilityMinor, offsetof(struct rl_gpu, cc_minor),
		 "cudaDevAttrComputeCapabilityMinor"},
		{cudaDevAttrMultiProcessorCount, offsetof(struct rl_gpu, sm_count),
		 "cudaDevAttrMultiProcessorCount"},
		{cudaDevAttrClockRate, offsetof(struct rl_gpu, clock_khz), "cudaDevAttrClockRate"},
		{cudaDevAttrMemoryClockRate, offsetof(struct rl_gpu, memory_clock_khz),
		 "cudaDevAttrMemoryClockRate"},
		{cudaDevAttrGlobalMemoryBusWidth, offsetof(struct rl_gpu, bus_width_bits),
		 "cudaDevAttrGlobalMemoryBusWidth"},
		{cudaDevAttrL2CacheSize, offsetof(struct rl_gpu, l2_bytes), "cudaDevAttrL2CacheSize"},
		{cudaDevAttrEccEnabled, offsetof(struct rl_gpu, ecc), "cudaDevAttrEccEnabled"},
		{cudaDevAttrIntegrated, offsetof(struct rl_gpu, integrated), "cudaDevAttrIntegrated"},
		{cudaDevAttrIsMultiGpuBoard, offsetof(struct rl_gpu, multi_gpu_board),
		 "cudaDevAttrIsMultiGpuBoard"},
		{cudaDevAttrMaxSharedMemoryPerMultiprocessor,
		 offsetof(struct rl_gpu, smem_per_sm_bytes),
		 "cudaDevAttrMaxSharedMemoryPerMultiprocessor"},
		{cudaDevAttrMaxThreadsPerMultiProcessor, offsetof(struct rl_gpu, threads_per_sm),
		 "cudaDevAttrMaxThreadsPerMultiProcessor"},
	};
	struct cudaDeviceProp prop;
	cudaError_t e;
	size_t i;
	int n, rc;

	memset(g, 0, sizeof(*g));
	rc = rl_cuda_device_count(&n, err);
	if (rc < 0)
		return rc;
	if (dev < 0 || dev >= n)
		return rl_err_set(err, RL_ERR_ARG, "no CUDA device %d (this machine has %d: 0 to %d)",
		                  dev, n, n - 1);
	e = cudaGetDeviceProperties(&prop, dev);
	if (e != cudaSuccess)
		return fail(err, "cudaGetDeviceProperties", e);
	g->device = dev;
	_Static_assert(sizeof(prop.name) >= RL_GPU_NAME_MAX, "cudaDeviceProp.name shrank");
	memcpy(g->name, prop.name, sizeof(g->name) - 1);
	g->total_mem_bytes = prop.totalGlobalMem;
	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		int v;

		e = cudaDeviceGetAttribute(&v, attrs[i].attr, dev);
		if (e != cudaSuccess)
			return fail(err, attrs[i].name, e);
		memcpy((char *)g + attrs[i].off, &v, sizeof(v));
	}
	if (cudaDeviceGetPCIBusId(g->pci_bus_id, (int)sizeof(g->pci_bus_id), dev) != cudaSuccess)
		g->pci_bus_id[0] = '\0';
	e = cudaDriverGetVersion(&g->driver_version);
	if (e != cudaSuccess)
		return fail(err, "cudaDriverGetVersion", e);
	e = cudaRuntimeGetVersion(&g->runtime_version);
	if (e != cudaSuccess)
		return fail(err, "cudaRuntimeGetVersion", e);
	return 0;
}
