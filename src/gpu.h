/* gpu.h - what the CUDA runtime says about one GPU: an attribute set.
 *
 * struct rl_gpu holds the raw values of a device query (cudaGetDeviceProperties
 * and cudaDeviceGetAttribute), in the runtime's own units (kHz, bits, bytes),
 * before any derivation. It has a text form, "attribute = value" lines, so a
 * query made on one machine can be recorded, committed as test data and
 * derived from again anywhere (roofline probe --format attrs / --attrs FILE).
 * The live query itself is in cuda.c; the derivation of peaks in probe.c.
 */
#ifndef RL_GPU_H
#define RL_GPU_H

#include <stdint.h>
#include <stdio.h>

#include "err.h"

#define RL_GPU_NAME_MAX 256

struct rl_gpu {
	char name[RL_GPU_NAME_MAX];   /* cudaDeviceProp.name, "NVIDIA H200" */
	char pci_bus_id[32];          /* cudaDeviceGetPCIBusId, may be empty */
	int device;                   /* the CUDA device index it was read from */
	int cc_major, cc_minor;       /* cudaDevAttrComputeCapabilityMajor/Minor */
	int sm_count;                 /* cudaDevAttrMultiProcessorCount */
	int clock_khz;                /* cudaDevAttrClockRate: maximum SM clock */
	int memory_clock_khz;         /* cudaDevAttrMemoryClockRate: peak */
	int bus_width_bits;           /* cudaDevAttrGlobalMemoryBusWidth */
	int l2_bytes;                 /* cudaDevAttrL2CacheSize */
	int ecc;                      /* cudaDevAttrEccEnabled */
	int integrated;               /* cudaDevAttrIntegrated */
	int multi_gpu_board;          /* cudaDevAttrIsMultiGpuBoard */
	int smem_per_sm_bytes;        /* cudaDevAttrMaxSharedMemoryPerMultiprocessor */
	int threads_per_sm;           /* cudaDevAttrMaxThreadsPerMultiProcessor */
	uint64_t total_mem_bytes;     /* cudaDeviceProp.totalGlobalMem */
	int driver_version;           /* cudaDriverGetVersion, 13000 = 13.0 */
	int runtime_version;          /* cudaRuntimeGetVersion */
};

/* The attribute names of the text form, in the order rl_gpu_write writes them,
 * with the CUDA attribute each one records (for sources and docs). */
struct rl_gpu_field {
	const char *key;       /* "multiprocessor_count" */
	const char *cuda_name; /* "cudaDevAttrMultiProcessorCount" */
};
const struct rl_gpu_field *rl_gpu_fields(size_t *n);

/* Field I (0 <= I < the count rl_gpu_fields gives) of G as text in BUF
 * (size N). Returns 1 when the field is a number, 0 when it is a string. */
int rl_gpu_get(const struct rl_gpu *g, size_t i, char *buf, size_t n);

/* Sets the field named KEY of G from its text VAL, strictly (decimal
 * integers for numbers). Returns 0, or RL_ERR_PARSE / RL_ERR_RANGE with a
 * message that names neither file nor key (the caller adds them). */
int rl_gpu_set(struct rl_gpu *g, const char *key, const char *val, struct rl_err *err);

/* Nonzero when the device is a MIG slice: the runtime names MIG instances
 * "<GPU name> MIG <profile>" ("NVIDIA H100 80GB HBM3 MIG 1g.10gb"). */
int rl_gpu_is_mig(const struct rl_gpu *g);

/* Reads the text form from PATH into *G. Every attribute must be present
 * exactly once; numbers are strict decimal integers. Errors name the file
 * and line. Returns 0, RL_ERR_IO or RL_ERR_PARSE. */
int rl_gpu_load(const char *path, struct rl_gpu *g, struct rl_err *err);

/* Writes G in the text form to F, headed by a comment line WHY (may be
 * NULL). Returns 0 or RL_ERR_IO. */
int rl_gpu_write(FILE *f, const struct rl_gpu *g, const char *why);

#endif
