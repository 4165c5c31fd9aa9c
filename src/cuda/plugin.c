/* plugin.c - the CUDA plugin's entry point: the table of its GPU functions
 * (cuda_plugin.h). The only symbol roofline-cuda.so exports; the build gives
 * everything else hidden visibility.
 */
#include "config.h"

#include "cuda_plugin.h"

#include "cuda.h"
#include "gpubench.h"
#include "synth.h"

__attribute__((visibility("default"))) const struct rl_cuda_plugin *rl_cuda_plugin(void);

const struct rl_cuda_plugin *rl_cuda_plugin(void)
{
	static const struct rl_cuda_plugin table = {
	    .abi = RL_CUDA_PLUGIN_ABI,
	    .size = sizeof(struct rl_cuda_plugin),
	    .device_count = rl_cuda_device_count,
	    .query = rl_cuda_query,
	    .bench_memory = rl_gpubench_memory,
	    .bench_pipes = rl_gpubench_pipes,
	    .bench_sweep = rl_gpubench_sweep,
	    .bench_launch = rl_gpubench_launch,
	    .bench_gemm = rl_gpubench_gemm,
	    .bench_collectives = rl_gpubench_collectives,
	    .nccl_version = rl_gpubench_nccl_version,
	    .synth_open = rl_synth_open,
	    .synth_close = rl_synth_close,
	    .synth_run = rl_synth_run,
	};

	return &table;
}
