/* bench_coll.cu - NCCL collectives across the GPUs of one machine
 * (rl_gpubench_collectives, gpubench.h), by the method of nccl-tests
 * (NVIDIA/nccl-tests doc/PERFORMANCE.md): one process drives every GPU
 * (ncclCommInitAll, one stream per GPU, each op of all ranks inside one
 * ncclGroupStart/End), warm-up ops, then samples of back-to-back ops between
 * CUDA events on every stream, the slowest rank's time over the ops the
 * sample's time per op; in-place and out-of-place; sizes S (nccl-tests'
 * size: the buffer of each rank, all-gather's gathered output) doubling from
 * 8 bytes to 4 GiB. Every size's result is checked first: each rank's input
 * holds rank-dependent small integers in fp32, so that every sum is exact,
 * and a kernel compares each element of each rank's output with the value
 * it must hold.
 *
 * NCCL is loaded at run time with dlopen (libnccl.so.2, or the file
 * $ROOFLINE_NCCL names), so that the plugin, and every other command, runs
 * where NCCL is not installed; the function types come from nccl.h, found
 * by configure (RL_HAVE_NCCL_H). A build without the header says so.
 */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "gpubench.h"
#include "gpuutil.h"

#ifdef RL_HAVE_NCCL_H

#include <nccl.h>

#define NCCL_DEFAULT     "libnccl.so.2"
#define MAX_RANKS        64
#define SAMPLES_FULL     10
#define SAMPLES_QUICK    5
#define WARMUP           5
#define SAMPLE_TARGET_US 1000.0 /* one sample of L ops lasts at least this */
#define MAX_OPS          1000
#define S_MIN            8.0
#define S_MAX            4294967296.0 /* 4 GiB */
#define FILL_MOD         97           /* inputs: rank + 1 + (index mod 97), exact in fp32 sums */

/* The NCCL functions used, with the types nccl.h gives them. */
static struct {
	void *h;
	decltype(&ncclGetVersion) GetVersion;
	decltype(&ncclGetErrorString) GetErrorString;
	decltype(&ncclCommInitAll) CommInitAll;
	decltype(&ncclCommDestroy) CommDestroy;
	decltype(&ncclGroupStart) GroupStart;
	decltype(&ncclGroupEnd) GroupEnd;
	decltype(&ncclAllReduce) AllReduce;
	decltype(&ncclAllGather) AllGather;
	decltype(&ncclReduceScatter) ReduceScatter;
	decltype(&ncclSend) Send;
	decltype(&ncclRecv) Recv;
} nc;
static char nccl_err[512];

/* Loads NCCL once; a failure is remembered with its reason. */
static int nccl_load(struct rl_err *err)
{
	const char *path = getenv("ROOFLINE_NCCL");
	void *h;

	if (nc.h != NULL)
		return 0;
	if (nccl_err[0] != '\0')
		return rl_err_set(err, RL_ERR_UNSUPPORTED, "%s", nccl_err);
	if (path == NULL || *path == '\0')
		path = NCCL_DEFAULT;
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		const char *why = dlerror();

		snprintf(nccl_err, sizeof(nccl_err),
		         "NCCL not found (%s): %s; install NCCL 2 (libnccl2, or pip's nvidia-nccl) "
		         "or name the library in ROOFLINE_NCCL",
		         path, why != NULL ? why : "unknown error");
		return rl_err_set(err, RL_ERR_UNSUPPORTED, "%s", nccl_err);
	}
#define SYM(name)                                                                                  \
	do {                                                                                       \
		*(void **)&nc.name = dlsym(h, "nccl" #name);                                       \
		if (nc.name == NULL) {                                                             \
			snprintf(nccl_err, sizeof(nccl_err),                                       \
			         "NCCL not usable (%s): no symbol nccl" #name " (NCCL 2.7 or "     \
			         "later is needed)",                                               \
			         path);                                                            \
			dlclose(h);                                                                \
			return rl_err_set(err, RL_ERR_UNSUPPORTED, "%s", nccl_err);                \
		}                                                                                  \
	} while (0)
	SYM(GetVersion);
	SYM(GetErrorString);
	SYM(CommInitAll);
	SYM(CommDestroy);
	SYM(GroupStart);
	SYM(GroupEnd);
	SYM(AllReduce);
	SYM(AllGather);
	SYM(ReduceScatter);
	SYM(Send);
	SYM(Recv);
#undef SYM
	nc.h = h;
	return 0;
}

extern "C" int rl_gpubench_nccl_version(int *version, struct rl_err *err)
{
	ncclResult_t r;

	*version = 0;
	if (nccl_load(err) < 0)
		return err->code;
	r = nc.GetVersion(version);
	if (r != ncclSuccess)
		return rl_err_set(err, RL_ERR_DEVICE, "ncclGetVersion: %s", nc.GetErrorString(r));
	return 0;
}

/* Evaluates an NCCL call; on failure sets ERR and jumps to "out". */
#define RL_NC(call)                                                                                \
	do {                                                                                       \
		ncclResult_t rl_nc_r_ = (call);                                                    \
		if (rl_nc_r_ != ncclSuccess) {                                                     \
			rc = rl_err_set(err, RL_ERR_DEVICE, "%s: %s", #call,                       \
			                nc.GetErrorString(rl_nc_r_));                              \
			goto out;                                                                  \
		}                                                                                  \
	} while (0)

/* The kinds measured, in the order of enum rl_kind's collectives. */
enum ck { AR, AG, RS, A2A, SR, NKIND };
static const char *const kind_name[NKIND] = {"allreduce", "allgather", "reducescatter", "alltoall",
                                             "sendrecv"};

struct ctx {
	int n;
	int dev[MAX_RANKS];
	ncclComm_t comm[MAX_RANKS];
	cudaStream_t s[MAX_RANKS];
	cudaEvent_t e0[MAX_RANKS], e1[MAX_RANKS];
	float *send[MAX_RANKS], *recv[MAX_RANKS];
	unsigned long long *bad[MAX_RANKS];
	size_t cap; /* bytes of each buffer */
};

/* Input element I of rank R. */
__device__ __host__ static inline float fill_value(int r, size_t i)
{
	return (float)(r + 1 + (int)(i % FILL_MOD));
}

__global__ void k_fill(float *p, size_t count, int r, size_t base)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
	     i += (size_t)gridDim.x * blockDim.x)
		p[i] = fill_value(r, base + i);
}

/* Counts the elements of OUT (COUNT of them: rank R's output of kind K on
 * N ranks, C elements per rank's chunk) that differ from what they must be. */
__global__ void k_check(const float *out, size_t count, int k, int n, int r, size_t c,
                        unsigned long long *bad)
{
	const float tri = (float)n * (float)(n + 1) / 2;
	unsigned long long nbad = 0;

	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
	     i += (size_t)gridDim.x * blockDim.x) {
		float want;

		switch (k) {
		case AR:
			want = tri + (float)n * (float)(i % FILL_MOD);
			break;
		case AG:
			want = fill_value((int)(i / c), i % c);
			break;
		case RS:
			want = tri + (float)n * (float)((r * c + i) % FILL_MOD);
			break;
		case A2A:
			want = fill_value((int)(i / c), r * c + i % c);
			break;
		default:
			want = fill_value((r + n - 1) % n, i);
			break;
		}
		nbad += out[i] != want;
	}
	if (nbad > 0)
		atomicAdd(bad, nbad);
}

static void grid(size_t count, int *blocks)
{
	size_t b = (count + 255) / 256;

	*blocks = b > 4096 ? 4096 : b < 1 ? 1 : (int)b;
}

/* One op of kind K of S bytes on every rank (all in one group), in place or
 * not. C: elements of a rank's chunk (all-gather's input, reduce-scatter's
 * output, all-to-all's per-peer block; the whole buffer otherwise). */
static ncclResult_t enqueue(struct ctx *x, int k, int inplace, size_t c)
{
	ncclResult_t r = nc.GroupStart(), r2;
	int i, q;

	for (i = 0; i < x->n && r == ncclSuccess; i++) {
		float *sb = x->send[i], *rb = x->recv[i];

		switch (k) {
		case AR:
			r = nc.AllReduce(inplace ? rb : sb, rb, c, ncclFloat32, ncclSum, x->comm[i],
			                 x->s[i]);
			break;
		case AG:
			r = nc.AllGather(inplace ? rb + (size_t)i * c : sb, rb, c, ncclFloat32,
			                 x->comm[i], x->s[i]);
			break;
		case RS:
			r = nc.ReduceScatter(inplace ? rb : sb, inplace ? rb + (size_t)i * c : rb,
			                     c, ncclFloat32, ncclSum, x->comm[i], x->s[i]);
			break;
		case A2A:
			for (q = 0; q < x->n && r == ncclSuccess; q++) {
				r = nc.Send(sb + (size_t)q * c, c, ncclFloat32, q, x->comm[i],
				            x->s[i]);
				if (r == ncclSuccess)
					r = nc.Recv(rb + (size_t)q * c, c, ncclFloat32, q,
					            x->comm[i], x->s[i]);
			}
			break;
		default:
			r = nc.Send(sb, c, ncclFloat32, (i + 1) % x->n, x->comm[i], x->s[i]);
			if (r == ncclSuccess)
				r = nc.Recv(rb, c, ncclFloat32, (i + x->n - 1) % x->n, x->comm[i],
				            x->s[i]);
			break;
		}
	}
	r2 = nc.GroupEnd();
	return r != ncclSuccess ? r : r2;
}

static int sync_all(struct ctx *x, struct rl_err *err)
{
	int rc = 0, i;

	for (i = 0; i < x->n; i++) {
		RL_CU(cudaSetDevice(x->dev[i]));
		RL_CU(cudaStreamSynchronize(x->s[i]));
	}
out:
	return rc;
}

/* Fills the inputs of kind K (chunk C) on every rank, poisons the outputs
 * (0xff bytes: NaN, which equals nothing), runs one op and counts the wrong
 * elements over all ranks into *NBAD. */
static int check_op(struct ctx *x, int k, int inplace, size_t c, unsigned long long *nbad,
                    struct rl_err *err)
{
	int rc = 0, i, blocks;
	const int n = x->n;

	*nbad = 0;
	for (i = 0; i < n; i++) {
		/* the input and its elements */
		size_t in_n = k == A2A || k == RS ? (size_t)n * c : c;
		float *in =
		    inplace ? (k == AG ? x->recv[i] + (size_t)i * c : x->recv[i]) : x->send[i];

		RL_CU(cudaSetDevice(x->dev[i]));
		RL_CU(cudaMemsetAsync(x->recv[i], 0xff, x->cap, x->s[i]));
		RL_CU(cudaMemsetAsync(x->bad[i], 0, sizeof(*x->bad[i]), x->s[i]));
		grid(in_n, &blocks);
		k_fill<<<blocks, 256, 0, x->s[i]>>>(in, in_n, i, 0);
		RL_CU(cudaGetLastError());
	}
	RL_NC(enqueue(x, k, inplace, c));
	for (i = 0; i < n; i++) {
		size_t out_n = k == AG || k == A2A ? (size_t)n * c : c;
		const float *out = inplace && k == RS ? x->recv[i] + (size_t)i * c : x->recv[i];

		RL_CU(cudaSetDevice(x->dev[i]));
		grid(out_n, &blocks);
		k_check<<<blocks, 256, 0, x->s[i]>>>(out, out_n, k, n, i, c, x->bad[i]);
		RL_CU(cudaGetLastError());
	}
	rc = sync_all(x, err);
	for (i = 0; i < n && rc == 0; i++) {
		unsigned long long b = 0;

		RL_CU(cudaSetDevice(x->dev[i]));
		RL_CU(cudaMemcpy(&b, x->bad[i], sizeof(b), cudaMemcpyDeviceToHost));
		*nbad += b;
	}
out:
	return rc;
}

/* Times L ops of kind K: the slowest rank's event time over L, in us. */
static int time_ops(struct ctx *x, int k, int inplace, size_t c, int l, double *us,
                    struct rl_err *err)
{
	int rc = 0, i, j;
	float ms, worst = 0;

	for (i = 0; i < x->n; i++) {
		RL_CU(cudaSetDevice(x->dev[i]));
		RL_CU(cudaEventRecord(x->e0[i], x->s[i]));
	}
	for (j = 0; j < l; j++)
		RL_NC(enqueue(x, k, inplace, c));
	for (i = 0; i < x->n; i++) {
		RL_CU(cudaSetDevice(x->dev[i]));
		RL_CU(cudaEventRecord(x->e1[i], x->s[i]));
	}
	for (i = 0; i < x->n; i++) {
		RL_CU(cudaSetDevice(x->dev[i]));
		RL_CU(cudaEventSynchronize(x->e1[i]));
		RL_CU(cudaEventElapsedTime(&ms, x->e0[i], x->e1[i]));
		if (ms > worst)
			worst = ms;
	}
	*us = (double)worst * 1e3 / l;
out:
	return rc;
}

/* Measures kind K at S bytes, in place or not, into B. */
static int measure(struct ctx *x, int k, int inplace, double s, int quick, int version,
                   struct rl_bench *b, struct rl_err *err)
{
	struct rl_bench_entry e;
	double us[SAMPLES_FULL], est = 1;
	const int ns = quick ? SAMPLES_QUICK : SAMPLES_FULL;
	const size_t elems = (size_t)(s / sizeof(float));
	/* a rank's chunk: all-gather's input, reduce-scatter's output and
	 * all-to-all's block per peer are S / n */
	const size_t c = k == AG || k == RS || k == A2A ? elems / (size_t)x->n : elems;
	unsigned long long nbad;
	int rc, i, l;

	memset(&e, 0, sizeof(e));
	e.group = RL_BENCH_COLLECTIVE;
	snprintf(e.name, sizeof(e.name), "%s", kind_name[k]);
	snprintf(e.dtype, sizeof(e.dtype), "fp32");
	snprintf(e.shape, sizeof(e.shape), "%s", inplace ? "in-place" : "out-of-place");
	e.bytes = s;
	e.ranks = x->n;
	rc = check_op(x, k, inplace, c, &nbad, err);
	if (rc < 0)
		return rc;
	e.check = nbad == 0 ? 1 : -1;
	for (i = 0; i < (quick ? 2 : WARMUP); i++)
		if ((rc = time_ops(x, k, inplace, c, 1, &est, err)) < 0)
			return rc;
	l = (int)(SAMPLE_TARGET_US / est) + 1;
	l = l > MAX_OPS ? MAX_OPS : l;
	for (i = 0; i < ns; i++)
		if ((rc = time_ops(x, k, inplace, c, l, &us[i], err)) < 0)
			return rc;
	rl_nvml_sample(x->dev[0], &e.sm_clock_mhz, &e.temp_c);
	snprintf(e.method, sizeof(e.method),
	         "NCCL %d.%d.%d, ncclCommInitAll over %d GPU%s, one stream each, every rank's op "
	         "in one group; %d warm-up ops, %d samples of %d back-to-back ops between CUDA "
	         "events, the slowest rank's time per op; fp32%s; %llu wrong elements of %s",
	         version / 10000, version / 100 % 100, version % 100, x->n, x->n == 1 ? "" : "s",
	         quick ? 2 : WARMUP, ns, l, k == AR || k == RS ? " sum" : "", nbad,
	         "rank-dependent integer inputs, every output element checked on the device");
	return rl_bench_add(b, &e, us, (size_t)ns, err);
}

extern "C" int rl_gpubench_collectives(int gpus, int quick, struct rl_bench *b, struct rl_err *err)
{
	struct ctx x;
	int rc = 0, i, k, ndev = 0, version = 0, inplace;
	size_t freeb = 0, total = 0;
	double s, smax = S_MAX;
	int comms = 0;

	memset(&x, 0, sizeof(x));
	if ((rc = rl_gpubench_nccl_version(&version, err)) < 0)
		return rc;
	RL_CU(cudaGetDeviceCount(&ndev));
	if (gpus < 0 || gpus > ndev || gpus > MAX_RANKS)
		return rl_err_set(err, RL_ERR_ARG, "--gpus %d: this machine has %d GPU%s", gpus,
		                  ndev, ndev == 1 ? "" : "s");
	x.n = gpus == 0 ? (ndev > MAX_RANKS ? MAX_RANKS : ndev) : gpus;
	for (i = 0; i < x.n; i++)
		x.dev[i] = i;
	/* two buffers of S on each GPU, and room to spare for NCCL's own */
	RL_CU(cudaSetDevice(0));
	RL_CU(cudaMemGetInfo(&freeb, &total));
	while (smax > S_MIN && 2 * smax > 0.8 * (double)freeb)
		smax /= 2;
	if (quick && smax > 2147483648.0)
		smax = 2147483648.0;
	x.cap = (size_t)smax;
	RL_NC(nc.CommInitAll(x.comm, x.n, x.dev));
	comms = 1;
	for (i = 0; i < x.n; i++) {
		RL_CU(cudaSetDevice(x.dev[i]));
		RL_CU(cudaStreamCreateWithFlags(&x.s[i], cudaStreamNonBlocking));
		RL_CU(cudaEventCreate(&x.e0[i]));
		RL_CU(cudaEventCreate(&x.e1[i]));
		RL_CU(cudaMalloc((void **)&x.send[i], x.cap));
		RL_CU(cudaMalloc((void **)&x.recv[i], x.cap));
		RL_CU(cudaMalloc((void **)&x.bad[i], sizeof(*x.bad[i])));
	}
	for (k = 0; k < NKIND; k++)
		for (inplace = 0; inplace <= 1; inplace++) {
			/* all-to-all and send/recv: out of place only (nccl-tests
			 * runs both on their point-to-point ops, but a buffer sent
			 * and received into at once is a race) */
			if (inplace && (k == A2A || k == SR))
				continue;
			/* quick: every 16th size, 8 B to 2 GiB */
			for (s = S_MIN; s <= smax; s *= quick ? 16 : 2) {
				size_t elems = (size_t)(s / sizeof(float));

				if ((k == AG || k == RS || k == A2A) && elems % (size_t)x.n != 0)
					continue;
				if ((rc = measure(&x, k, inplace, s, quick, version, b, err)) < 0)
					goto out;
			}
		}
out:
	for (i = 0; i < x.n; i++) {
		cudaSetDevice(x.dev[i]);
		if (comms && x.comm[i] != NULL)
			nc.CommDestroy(x.comm[i]);
		cudaFree(x.send[i]);
		cudaFree(x.recv[i]);
		cudaFree(x.bad[i]);
		if (x.e0[i] != NULL)
			cudaEventDestroy(x.e0[i]);
		if (x.e1[i] != NULL)
			cudaEventDestroy(x.e1[i]);
		if (x.s[i] != NULL)
			cudaStreamDestroy(x.s[i]);
	}
	return rc;
}

#else /* !RL_HAVE_NCCL_H */

extern "C" int rl_gpubench_nccl_version(int *version, struct rl_err *err)
{
	*version = 0;
	return rl_err_set(err, RL_ERR_UNSUPPORTED,
	                  "this build has no NCCL support (configure found no nccl.h in the "
	                  "CUDA Toolkit; install NCCL's headers and rebuild)");
}

extern "C" int rl_gpubench_collectives(int gpus, int quick, struct rl_bench *b, struct rl_err *err)
{
	int v;

	(void)gpus;
	(void)quick;
	(void)b;
	return rl_gpubench_nccl_version(&v, err);
}

#endif
