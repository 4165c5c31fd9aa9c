/* gpu.c - the attribute set of a GPU and its text form (see gpu.h). */
#include "config.h"

#include "gpu.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "kvfile.h"
#include "num.h"

enum field_type { F_STR, F_INT, F_U64 };

static const struct {
	struct rl_gpu_field f;
	enum field_type type;
	size_t off;
	size_t size; /* F_STR: the buffer's size */
} fields[] = {
	{{"name", "cudaDeviceProp.name"}, F_STR, offsetof(struct rl_gpu, name), RL_GPU_NAME_MAX},
	{{"pci_bus_id", "cudaDeviceGetPCIBusId"}, F_STR, offsetof(struct rl_gpu, pci_bus_id),
	 sizeof(((struct rl_gpu *)0)->pci_bus_id)},
	{{"device", "CUDA device index"}, F_INT, offsetof(struct rl_gpu, device), 0},
	{{"compute_capability_major", "cudaDevAttrComputeCapabilityMajor"}, F_INT,
	 offsetof(struct rl_gpu, cc_major), 0},
	{{"compute_capability_minor", "cudaDevAttrComputeCapabilityMinor"}, F_INT,
	 offsetof(struct rl_gpu, cc_minor), 0},
	{{"multiprocessor_count", "cudaDevAttrMultiProcessorCount"}, F_INT,
	 offsetof(struct rl_gpu, sm_count), 0},
	{{"clock_rate_khz", "cudaDevAttrClockRate"}, F_INT, offsetof(struct rl_gpu, clock_khz), 0},
	{{"memory_clock_rate_khz", "cudaDevAttrMemoryClockRate"}, F_INT,
	 offsetof(struct rl_gpu, memory_clock_khz), 0},
	{{"global_memory_bus_width", "cudaDevAttrGlobalMemoryBusWidth"}, F_INT,
	 offsetof(struct rl_gpu, bus_width_bits), 0},
	{{"total_global_mem", "cudaDeviceProp.totalGlobalMem"}, F_U64,
	 offsetof(struct rl_gpu, total_mem_bytes), 0},
	{{"l2_cache_size", "cudaDevAttrL2CacheSize"}, F_INT, offsetof(struct rl_gpu, l2_bytes), 0},
	{{"ecc_enabled", "cudaDevAttrEccEnabled"}, F_INT, offsetof(struct rl_gpu, ecc), 0},
	{{"integrated", "cudaDevAttrIntegrated"}, F_INT, offsetof(struct rl_gpu, integrated), 0},
	{{"is_multi_gpu_board", "cudaDevAttrIsMultiGpuBoard"}, F_INT,
	 offsetof(struct rl_gpu, multi_gpu_board), 0},
	{{"max_shared_memory_per_multiprocessor", "cudaDevAttrMaxSharedMemoryPerMultiprocessor"},
	 F_INT, offsetof(struct rl_gpu, smem_per_sm_bytes), 0},
	{{"max_threads_per_multiprocessor", "cudaDevAttrMaxThreadsPerMultiProcessor"}, F_INT,
	 offsetof(struct rl_gpu, threads_per_sm), 0},
	{{"driver_version", "cudaDriverGetVersion"}, F_INT, offsetof(struct rl_gpu, driver_version),
	 0},
	{{"runtime_version", "cudaRuntimeGetVersion"}, F_INT,
	 offsetof(struct rl_gpu, runtime_version), 0},
};
#define N_FIELDS (sizeof(fields) / sizeof(fields[0]))

const struct rl_gpu_field *rl_gpu_fields(size_t *n)
{
	static struct rl_gpu_field out[N_FIELDS];
	size_t i;

	for (i = 0; i < N_FIELDS; i++)
		out[i] = fields[i].f;
	*n = N_FIELDS;
	return out;
}

int rl_gpu_is_mig(const struct rl_gpu *g)
{
	return strstr(g->name, " MIG ") != NULL;
}

static int set_field(size_t i, struct rl_gpu *g, const char *val, struct rl_err *err)
{
	char *p = (char *)g + fields[i].off;
	uint64_t u;
	int rc;

	if (fields[i].type == F_STR) {
		if (strlen(val) >= fields[i].size)
			return rl_err_set(err, RL_ERR_PARSE, "longer than %zu bytes",
			                  fields[i].size - 1);
		strcpy(p, val);
		return 0;
	}
	rc = rl_parse_u64(val, &u, err);
	if (rc < 0)
		return rc;
	if (fields[i].type == F_U64) {
		memcpy(p, &u, sizeof(u));
	} else {
		int v;

		if (u > 0x7fffffff)
			return rl_err_set(err, RL_ERR_RANGE, "'%s' is above 2147483647", val);
		v = (int)u;
		memcpy(p, &v, sizeof(v));
	}
	return 0;
}

int rl_gpu_get(const struct rl_gpu *g, size_t i, char *buf, size_t n)
{
	const char *p = (const char *)g + fields[i].off;
	int v;
	uint64_t u;

	switch (fields[i].type) {
	case F_STR: snprintf(buf, n, "%s", p); return 0;
	case F_INT: memcpy(&v, p, sizeof(v)); snprintf(buf, n, "%d", v); return 1;
	case F_U64: break;
	}
	memcpy(&u, p, sizeof(u));
	snprintf(buf, n, "%llu", (unsigned long long)u);
	return 1;
}

int rl_gpu_set(struct rl_gpu *g, const char *key, const char *val, struct rl_err *err)
{
	size_t i;

	for (i = 0; i < N_FIELDS; i++)
		if (strcmp(key, fields[i].f.key) == 0)
			return set_field(i, g, val, err);
	return rl_err_set(err, RL_ERR_PARSE, "unknown attribute '%s'", key);
}

int rl_gpu_load(const char *path, struct rl_gpu *g, struct rl_err *err)
{
	struct rl_kvfile kv;
	unsigned char seen[N_FIELDS] = {0};
	char *key, *val, *src;
	size_t i;
	int rc;

	memset(g, 0, sizeof(*g));
	rc = rl_kv_open(&kv, path, err);
	while (rc == 0 && (rc = rl_kv_next(&kv, &key, &val, &src, err)) > 0) {
		struct rl_err e;

		free(src);
		for (i = 0; i < N_FIELDS; i++)
			if (strcmp(key, fields[i].f.key) == 0)
				break;
		if (i == N_FIELDS)
			rc = rl_err_set(err, RL_ERR_PARSE, "%s:%zu: unknown attribute '%s'", path,
			                kv.lineno, key);
		else if (seen[i]++)
			rc = rl_err_set(err, RL_ERR_PARSE, "%s:%zu: attribute '%s' given twice", path,
			                kv.lineno, key);
		else if (set_field(i, g, val, &e) < 0)
			rc = rl_err_set(err, e.code, "%s:%zu: attribute '%s': %s", path, kv.lineno,
			                key, e.msg);
		else
			rc = 0;
	}
	rl_kv_close(&kv);
	for (i = 0; rc == 0 && i < N_FIELDS; i++)
		if (!seen[i])
			rc = rl_err_set(err, RL_ERR_PARSE, "%s: missing attribute '%s'", path,
			                fields[i].f.key);
	if (rc == 0 && (g->sm_count <= 0 || g->clock_khz <= 0))
		rc = rl_err_set(err, RL_ERR_PARSE, "%s: multiprocessor_count and clock_rate_khz "
		                "must be above 0", path);
	return rc;
}

int rl_gpu_write(FILE *f, const struct rl_gpu *g, const char *why)
{
	size_t i;

	if (why != NULL)
		fprintf(f, "# %s\n", why);
	for (i = 0; i < N_FIELDS; i++) {
		const char *p = (const char *)g + fields[i].off;
		int v;
		uint64_t u;

		fprintf(f, "%-37s = ", fields[i].f.key);
		switch (fields[i].type) {
		case F_STR: fprintf(f, "%s\n", p); break;
		case F_INT: memcpy(&v, p, sizeof(v)); fprintf(f, "%d\n", v); break;
		case F_U64: memcpy(&u, p, sizeof(u)); fprintf(f, "%llu\n", (unsigned long long)u); break;
		}
	}
	return ferror(f) ? RL_ERR_IO : 0;
}
