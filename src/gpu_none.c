/* gpu_none.c - the CUDA parts' entry points in a build without CUDA: each
 * fails with RL_ERR_UNSUPPORTED (gpubench.h, synth.h). With CUDA, the .cu
 * files define them and this file is empty.
 */
#include "config.h"

#include "gpubench.h"
#include "synth.h"

#ifndef RL_HAVE_CUDA

#include <stddef.h>

static int unsupported(struct rl_err *err)
{
	return rl_err_set(err, RL_ERR_UNSUPPORTED,
	                  "this build has no CUDA support (configure found no CUDA Toolkit; "
	                  "rebuild with ./configure --with-cuda[=PREFIX])");
}

int rl_gpubench_memory(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	(void)dev, (void)quick, (void)b;
	return unsupported(err);
}

int rl_gpubench_pipes(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	(void)dev, (void)quick, (void)b;
	return unsupported(err);
}

int rl_gpubench_sweep(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	(void)dev, (void)quick, (void)b;
	return unsupported(err);
}

int rl_gpubench_launch(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	(void)dev, (void)quick, (void)b;
	return unsupported(err);
}

int rl_gpubench_gemm(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	(void)dev, (void)quick, (void)b;
	return unsupported(err);
}

rl_synth_ctx *rl_synth_open(int dev, struct rl_err *err)
{
	(void)dev;
	unsupported(err);
	return NULL;
}

void rl_synth_close(rl_synth_ctx *c)
{
	(void)c;
}

int rl_synth_supported(const struct rl_synth *s, struct rl_err *err)
{
	(void)s;
	unsupported(err);
	return 0;
}

int rl_synth_run(rl_synth_ctx *c, const struct rl_synth *s, struct rl_synth_result *r,
                 struct rl_err *err)
{
	(void)c, (void)s, (void)r;
	return unsupported(err);
}

#else

/* ISO C wants at least one declaration in a translation unit. */
typedef int rl_gpu_none_unused;

#endif
