/* cuda_plugin.h - the interface between the program and its CUDA plugin.
 *
 * Why a plugin: cuBLASLt and the CUDA runtime cost ~200 MB of resident memory
 * and 0.1-1.5 s to map and relocate, and a binary linked against them does
 * not start where they are not installed. Only bench, calibrate, validate,
 * probe, devices and --hw live use the GPU, so every CUDA source (src/cuda/)
 * is linked into one shared object, roofline-cuda.so, that the library
 * (cudaload.c) dlopen()s the first time one of those commands calls a GPU
 * function. A GPU helper program run by the CLI would have done as well for
 * isolation, but would have needed a wire format for struct rl_bench and the
 * synthetic ops; dlopen keeps today's C calls and costs one lookup.
 *
 * The plugin defines the GPU functions of cuda.h, gpubench.h and synth.h
 * and exports only rl_cuda_plugin(), which returns a table of them. cudaload.c
 * defines the same names in the library as forwarders through that table, so
 * callers do not know which build they run in; a binary holds one set or the
 * other, never both. The plugin carries its own copies of the plain-C
 * library files it calls (err.c, num.c, dtype.c, bench.c, gemm_host.c,
 * synth.c: compiled with -fPIC into it), so it needs nothing from the
 * program: the executable exports no symbols, and the plugin is built with
 * hidden visibility and -Bsymbolic, so neither side can bind the other's
 * copy by accident.
 *
 * A plugin from another build may be loaded (ROOFLINE_CUDA_PLUGIN), so the
 * table starts with RL_CUDA_PLUGIN_ABI and its size: bump the ABI whenever a
 * struct the table's functions take (rl_gpu, rl_bench, rl_synth, rl_err)
 * or the table itself changes.
 */
#ifndef RL_CUDA_PLUGIN_H
#define RL_CUDA_PLUGIN_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>

#include "bench.h"
#include "err.h"
#include "gpu.h"
#include "synth.h"

#define RL_CUDA_PLUGIN_ABI 2

/* The plugin's file name, installed in $(pkglibdir) and built in src/. */
#define RL_CUDA_PLUGIN_NAME "roofline-cuda.so"

/* The one symbol the plugin exports. */
#define RL_CUDA_PLUGIN_SYMBOL "rl_cuda_plugin"

struct rl_cuda_plugin {
	int abi;     /* RL_CUDA_PLUGIN_ABI of the plugin's build */
	size_t size; /* sizeof(struct rl_cuda_plugin) of the plugin's build */
	/* cuda.h */
	int (*device_count)(int *n, struct rl_err *err);
	int (*query)(int dev, struct rl_gpu *g, struct rl_err *err);
	/* gpubench.h */
	int (*bench_memory)(int dev, int quick, struct rl_bench *b, struct rl_err *err);
	int (*bench_pipes)(int dev, int quick, struct rl_bench *b, struct rl_err *err);
	int (*bench_sweep)(int dev, int quick, struct rl_bench *b, struct rl_err *err);
	int (*bench_launch)(int dev, int quick, struct rl_bench *b, struct rl_err *err);
	int (*bench_gemm)(int dev, int quick, struct rl_bench *b, struct rl_err *err);
	int (*bench_collectives)(int gpus, int quick, struct rl_bench *b, struct rl_err *err);
	int (*nccl_version)(int *version, struct rl_err *err);
	/* synth.h */
	rl_synth_ctx *(*synth_open)(int dev, struct rl_err *err);
	void (*synth_close)(rl_synth_ctx *c);
	int (*synth_run)(rl_synth_ctx *c, const struct rl_synth *s, struct rl_synth_result *r,
	                 struct rl_err *err);
};

/* The plugin's entry point: its table, static, never NULL. */
typedef const struct rl_cuda_plugin *rl_cuda_plugin_fn(void);

#ifdef __cplusplus
}
#endif

#endif
