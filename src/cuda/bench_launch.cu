/* bench_launch.cu - launch overhead (rl_gpubench_launch, gpubench.h):
 * enqueue, round trip, back-to-back and graph-node costs.
 */
#include "config.h"

#include "harness.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

/* ==== launch overhead ==================================================== */

static double host_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

__global__ void k_empty(void)
{
}

/* Holds the stream until the host sets *FLAG (host-mapped memory), or gives
 * up after TIMEOUT clock64 cycles and says so in *TIMED_OUT: a lost flag must
 * not hang the GPU. */
__global__ void k_spin(const volatile int *flag, long long timeout, int *timed_out)
{
	const long long t0 = clock64();

	while (*flag == 0)
		if (clock64() - t0 > timeout) {
			*timed_out = 1;
			return;
		}
}

static int launch_enqueue(struct gpu *g, struct rl_bench *b, int quick, struct rl_err *err)
{
	struct rl_bench_entry e;
	double us[SAMPLES_MAX], t0;
	const int ns = quick ? SAMPLES_QUICK : SAMPLES_FULL, n = quick ? 1000 : 5000;
	int rc = 0, i, j;

	entry_init(&e, RL_BENCH_LAUNCH, "enqueue", "");
	for (j = 0; j < 200; j++)
		k_empty<<<1, 32, 0, g->s>>>();
	RL_CU(cudaGetLastError());
	RL_CU(cudaStreamSynchronize(g->s));
	for (i = 0; i < ns; i++) {
		t0 = host_us();
		for (j = 0; j < n; j++)
			k_empty<<<1, 32, 0, g->s>>>();
		us[i] = (host_us() - t0) / n;
		RL_CU(cudaGetLastError());
		RL_CU(cudaStreamSynchronize(g->s));
	}
	rl_nvml_sample(g->dev, &e.sm_clock_mhz, &e.temp_c);
	snprintf(e.method, sizeof(e.method),
	         "host CLOCK_MONOTONIC around %d back-to-back launches of an empty kernel "
	         "<<<1, 32>>> on a non-blocking stream, no synchronize inside (one after each "
	         "sample, untimed); per launch; %d samples after 200 warm-up launches",
	         n, ns);
	rc = rl_bench_add(b, &e, us, ns, err);
out:
	return rc;
}

static int launch_roundtrip(struct gpu *g, struct rl_bench *b, int quick, struct rl_err *err)
{
	struct rl_bench_entry e;
	double us[SAMPLES_MAX], t0;
	const int ns = quick ? SAMPLES_QUICK : SAMPLES_FULL, n = quick ? 200 : 1000;
	int rc = 0, i, j;

	entry_init(&e, RL_BENCH_LAUNCH, "roundtrip", "");
	for (j = 0; j < 50; j++) {
		k_empty<<<1, 32, 0, g->s>>>();
		RL_CU(cudaStreamSynchronize(g->s));
	}
	RL_CU(cudaGetLastError());
	for (i = 0; i < ns; i++) {
		t0 = host_us();
		for (j = 0; j < n; j++) {
			k_empty<<<1, 32, 0, g->s>>>();
			RL_CU(cudaStreamSynchronize(g->s));
		}
		us[i] = (host_us() - t0) / n;
		RL_CU(cudaGetLastError());
	}
	rl_nvml_sample(g->dev, &e.sm_clock_mhz, &e.temp_c);
	snprintf(e.method, sizeof(e.method),
	         "host CLOCK_MONOTONIC around %d x (launch of an empty kernel <<<1, 32>>> + "
	         "cudaStreamSynchronize) on a non-blocking stream; per launch; %d samples after "
	         "50 warm-up round trips",
	         n, ns);
	rc = rl_bench_add(b, &e, us, ns, err);
out:
	return rc;
}

static int launch_back_to_back(struct gpu *g, struct rl_bench *b, int quick,
                               struct rl_err *err)
{
	struct rl_bench_entry e;
	double us[SAMPLES_MAX];
	const int ns = quick ? SAMPLES_QUICK : SAMPLES_FULL;
	volatile int *flag_h = NULL;
	int *flag_d = NULL, *timed_out_d = NULL, timed_out = 0;
	int rc = 0, i, j, n = 500;
	float ms = 0;
	/* 1 s at the highest SM clock (longer when the clock is lower). */
	const long long timeout = (long long)g->clock_khz * 1000;

	entry_init(&e, RL_BENCH_LAUNCH, "back-to-back", "");
	RL_CU(cudaHostAlloc((void **)&flag_h, sizeof(int), cudaHostAllocMapped));
	RL_CU(cudaHostGetDevicePointer((void **)&flag_d, (void *)flag_h, 0));
	RL_CU(cudaMalloc(&timed_out_d, sizeof(int)));
	for (j = 0; j < 200; j++)
		k_empty<<<1, 32, 0, g->s>>>();
	RL_CU(cudaGetLastError());
	RL_CU(cudaStreamSynchronize(g->s));
	for (i = 0; i < ns; i++) {
		*flag_h = 0;
		RL_CU(cudaMemsetAsync(timed_out_d, 0, sizeof(int), g->s));
		k_spin<<<1, 1, 0, g->s>>>(flag_d, timeout, timed_out_d);
		RL_CU(cudaGetLastError());
		RL_CU(cudaEventRecord(g->e0, g->s));
		for (j = 0; j < n; j++)
			k_empty<<<1, 32, 0, g->s>>>();
		RL_CU(cudaGetLastError());
		RL_CU(cudaEventRecord(g->e1, g->s));
		__sync_synchronize();
		*flag_h = 1;
		__sync_synchronize();
		RL_CU(cudaEventSynchronize(g->e1));
		RL_CU(cudaMemcpyAsync(&timed_out, timed_out_d, sizeof(int), cudaMemcpyDeviceToHost,
		                      g->s));
		RL_CU(cudaStreamSynchronize(g->s));
		if (timed_out) {
			/* The spin ended before the host had queued everything
			 * (a stream that takes fewer launches while blocked?):
			 * start again with fewer. */
			if (n <= 32) {
				rc = rl_err_set(err, RL_ERR_DEVICE,
				                "back-to-back: the stream-blocking kernel timed out "
				                "with only %d launches queued behind it",
				                n);
				goto out;
			}
			n /= 2;
			i = -1;
			continue;
		}
		RL_CU(cudaEventElapsedTime(&ms, g->e0, g->e1));
		us[i] = (double)ms * 1e3 / n;
	}
	rl_nvml_sample(g->dev, &e.sm_clock_mhz, &e.temp_c);
	snprintf(e.method, sizeof(e.method),
	         "CUDA events around %d empty kernels <<<1, 32>>> queued behind a kernel spinning on "
	         "a host-mapped flag, released once all were queued (device time per kernel in a "
	         "full stream, no host enqueue cost); per kernel; %d samples",
	         n, ns);
	rc = rl_bench_add(b, &e, us, ns, err);
out:
	if (flag_h != NULL) {
		/* Release a spin kernel still waiting after an error. */
		*flag_h = 1;
		cudaStreamSynchronize(g->s);
		cudaFreeHost((void *)flag_h);
	}
	cudaFree(timed_out_d);
	return rc;
}

static int launch_graph(struct gpu *g, struct rl_bench *b, int quick, struct rl_err *err)
{
	struct rl_bench_entry e;
	double us[SAMPLES_MAX];
	const int ns = quick ? SAMPLES_QUICK : SAMPLES_FULL, n = 500;
	cudaGraph_t graph = NULL;
	cudaGraphExec_t exec = NULL;
	int rc = 0, i, j, capturing = 0;
	float ms = 0;

	entry_init(&e, RL_BENCH_LAUNCH, "graph-node", "");
	RL_CU(cudaStreamBeginCapture(g->s, cudaStreamCaptureModeThreadLocal));
	capturing = 1;
	for (j = 0; j < n; j++)
		k_empty<<<1, 32, 0, g->s>>>();
	RL_CU(cudaGetLastError());
	capturing = 0;
	RL_CU(cudaStreamEndCapture(g->s, &graph));
	RL_CU(cudaGraphInstantiate(&exec, graph, 0));
	for (j = 0; j < 3; j++)
		RL_CU(cudaGraphLaunch(exec, g->s));
	RL_CU(cudaStreamSynchronize(g->s));
	for (i = 0; i < ns; i++) {
		RL_CU(cudaEventRecord(g->e0, g->s));
		RL_CU(cudaGraphLaunch(exec, g->s));
		RL_CU(cudaEventRecord(g->e1, g->s));
		RL_CU(cudaEventSynchronize(g->e1));
		RL_CU(cudaEventElapsedTime(&ms, g->e0, g->e1));
		us[i] = (double)ms * 1e3 / n;
	}
	rl_nvml_sample(g->dev, &e.sm_clock_mhz, &e.temp_c);
	snprintf(e.method, sizeof(e.method),
	         "CUDA events around one replay of a graph of %d empty-kernel nodes <<<1, 32>>> "
	         "(stream capture, instantiated once, 3 warm-up replays); per node; %d samples",
	         n, ns);
	rc = rl_bench_add(b, &e, us, ns, err);
out:
	if (capturing) {
		cudaGraph_t partial = NULL;

		if (cudaStreamEndCapture(g->s, &partial) == cudaSuccess && partial != NULL)
			cudaGraphDestroy(partial);
		cudaGetLastError(); /* the capture's own failure is reported already */
	}
	if (exec != NULL)
		cudaGraphExecDestroy(exec);
	if (graph != NULL)
		cudaGraphDestroy(graph);
	return rc;
}

extern "C" int rl_gpubench_launch(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	struct gpu g;
	int rc;

	rc = gpu_open(dev, &g, err);
	if (rc != 0)
		return rc;
	if ((rc = launch_enqueue(&g, b, quick, err)) == 0 &&
	    (rc = launch_roundtrip(&g, b, quick, err)) == 0 &&
	    (rc = launch_back_to_back(&g, b, quick, err)) == 0)
		rc = launch_graph(&g, b, quick, err);
	gpu_close(&g);
	return rc;
}
