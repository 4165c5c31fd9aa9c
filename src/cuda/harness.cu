/* harness.cu - the shared part of the benchmark families (harness.h). */
#include "config.h"

#include "harness.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

void gpu_close(struct gpu *g)
{
	/* Cleanup after a failure: errors here would only hide the first. */
	cudaFree(g->idx_d);
	cudaFree(g->val_d);
	cudaFree(g->bad_d);
	cudaFree(g->sum_d);
	if (g->e0 != NULL)
		cudaEventDestroy(g->e0);
	if (g->e1 != NULL)
		cudaEventDestroy(g->e1);
	if (g->s != NULL)
		cudaStreamDestroy(g->s);
	memset(g, 0, sizeof(*g));
}

int gpu_open(int dev, struct gpu *g, struct rl_err *err)
{
	int rc = 0, major = 0, minor = 0;

	memset(g, 0, sizeof(*g));
	g->dev = dev;
	RL_CU(cudaSetDevice(dev));
	RL_CU(cudaDeviceGetAttribute(&g->sms, cudaDevAttrMultiProcessorCount, dev));
	RL_CU(cudaDeviceGetAttribute(&g->l2_bytes, cudaDevAttrL2CacheSize, dev));
	RL_CU(cudaDeviceGetAttribute(&g->threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor,
	                             dev));
	RL_CU(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
	RL_CU(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
	RL_CU(cudaDeviceGetAttribute(&g->clock_khz, cudaDevAttrClockRate, dev));
	g->cc = 10 * major + minor;
	if (g->sms < 1 || g->threads_per_sm < THREADS) {
		rc = rl_err_set(err, RL_ERR_DEVICE,
		                "device %d: %d multiprocessors of %d threads: nothing to benchmark",
		                dev, g->sms, g->threads_per_sm);
		goto out;
	}
	if (g->l2_bytes < 1 << 20)
		g->l2_bytes = 1 << 20; /* sizes below are multiples of it */
	if (g->clock_khz < 100000)
		g->clock_khz = 2000000;
	RL_CU(cudaStreamCreateWithFlags(&g->s, cudaStreamNonBlocking));
	RL_CU(cudaEventCreate(&g->e0));
	RL_CU(cudaEventCreate(&g->e1));
	RL_CU(cudaMalloc(&g->idx_d, CHECK_MAX * sizeof(size_t)));
	RL_CU(cudaMalloc(&g->val_d, CHECK_MAX * sizeof(unsigned long long)));
	RL_CU(cudaMalloc(&g->bad_d, sizeof(unsigned long long)));
	RL_CU(cudaMalloc(&g->sum_d, sizeof(double)));
	return 0;
out:
	gpu_close(g);
	return rc;
}

/* The largest element count, halving from WANT down to no less than MIN,
 * whose ARRAYS arrays of ELEM bytes fit in free device memory with a margin;
 * MIN when none does (the allocation will then say so). */
size_t fit_elems(size_t want, size_t min, size_t elem, int arrays)
{
	size_t free_b = 0, total_b = 0;
	const size_t margin = (size_t)512 << 20;

	if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess)
		return want;
	while (want / 2 >= min && want * elem * arrays + margin > free_b)
		want /= 2;
	return want;
}

unsigned check_grid(const struct gpu *g)
{
	return (unsigned)g->sms * 8;
}

void entry_init(struct rl_bench_entry *e, enum rl_bench_group group, const char *name,
                       const char *dtype)
{
	memset(e, 0, sizeof(*e));
	e->group = group;
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->dtype, sizeof(e->dtype), "%s", dtype);
}

/* ---- checking helpers -------------------------------------------------- */

template <typename U>
__global__ void k_gather(const U *__restrict__ src, const size_t *__restrict__ idx,
                         U *__restrict__ dst, int m)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x;

	if (k < m)
		dst[k] = src[idx[k]];
}

/* Copies the M (<= CHECK_MAX) elements of ELEM bytes (2, 4 or 8) at indices
 * IDX of device array SRC to host array DST. */
int gather(struct gpu *g, const void *src, size_t elem, const size_t *idx, int m,
                  void *dst, struct rl_err *err)
{
	int rc = 0;

	if (m < 1 || m > CHECK_MAX || (elem != 2 && elem != 4 && elem != 8))
		return rl_err_set(err, RL_ERR_ARG, "gather: %d elements of %zu bytes", m, elem);
	RL_CU(cudaMemcpyAsync(g->idx_d, idx, m * sizeof(size_t), cudaMemcpyHostToDevice, g->s));
	if (elem == 2)
		k_gather<<<1, CHECK_MAX, 0, g->s>>>((const unsigned short *)src, g->idx_d,
		                                    (unsigned short *)g->val_d, m);
	else if (elem == 4)
		k_gather<<<1, CHECK_MAX, 0, g->s>>>((const unsigned *)src, g->idx_d,
		                                    (unsigned *)g->val_d, m);
	else
		k_gather<<<1, CHECK_MAX, 0, g->s>>>((const unsigned long long *)src, g->idx_d,
		                                    g->val_d, m);
	RL_CU(cudaGetLastError());
	RL_CU(cudaMemcpyAsync(dst, g->val_d, m * elem, cudaMemcpyDeviceToHost, g->s));
	RL_CU(cudaStreamSynchronize(g->s));
out:
	return rc;
}

/* M indices into [0, N): both ends, the middle, and the rest spread at random. */
void pick_indices(size_t n, uint64_t seed, size_t *idx, int m)
{
	int k;

	for (k = 0; k < m; k++) {
		size_t i;

		if (k == 0)
			i = 0;
		else if (k == 1)
			i = n - 1;
		else if (k == 2)
			i = n / 2;
		else if (k == 3)
			i = n > 1 ? n - 2 : 0;
		else
			i = (size_t)rl_cu_random_value(seed, (size_t)k, 0.0, (double)n);
		idx[k] = i < n ? i : n - 1;
	}
}

int bad_reset(struct gpu *g, struct rl_err *err)
{
	int rc = 0;

	RL_CU(cudaMemsetAsync(g->bad_d, 0, sizeof(unsigned long long), g->s));
out:
	return rc;
}

int bad_read(struct gpu *g, unsigned long long *bad, struct rl_err *err)
{
	int rc = 0;

	RL_CU(cudaGetLastError());
	RL_CU(cudaMemcpyAsync(bad, g->bad_d, sizeof(*bad), cudaMemcpyDeviceToHost, g->s));
	RL_CU(cudaStreamSynchronize(g->s));
out:
	return rc;
}

/* A random parameter in [LO, HI) rounded to T, from stream SEED, draw K. */
double param(uint64_t seed, size_t k, double lo, double hi, enum rl_dtype t)
{
	return rl_cu_round(rl_cu_random_value(seed, k, lo, hi), t);
}

double lane_f32(uint64_t w, int)
{
	return bits_float((uint32_t)w);
}

double lane_f64(uint64_t w, int)
{
	double d;

	memcpy(&d, &w, sizeof(d));
	return d;
}

double lane_f16(uint64_t w, int l)
{
	__half_raw r;

	r.x = (unsigned short)(w >> (16 * l));
	return (double)__half2float(__half(r));
}

double lane_bf16(uint64_t w, int l)
{
	__nv_bfloat16_raw r;

	r.x = (unsigned short)(w >> (16 * l));
	return (double)__bfloat162float(__nv_bfloat16(r));
}
