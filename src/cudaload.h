/* cudaload.h - where the CUDA plugin is, and loading it on first use.
 *
 * The GPU functions of cuda.h, gpubench.h and synth.h live in the plugin
 * roofline-cuda.so (cuda_plugin.h says why). In the library they are
 * forwarders (cudaload.c) that load the plugin the first time one of them is
 * called, with RTLD_NOW | RTLD_LOCAL: every symbol resolves then or the load
 * fails, and nothing of cudart or cuBLASLt becomes visible to the program.
 * When it cannot be loaded, each of them fails with RL_ERR_UNSUPPORTED and
 * one message naming the plugin and dlerror()'s reason; in a build without
 * CUDA, with "this build has no CUDA support". Not thread-safe: the first
 * GPU call must not race another (the CLI is single-threaded).
 */
#ifndef RL_CUDALOAD_H
#define RL_CUDALOAD_H

#include "cuda_plugin.h"
#include "err.h"

/* Sets the plugin's path (copied; NULL forgets it). The library does not
 * guess: the program decides (roofline: $ROOFLINE_CUDA_PLUGIN, else the build
 * tree's src/roofline-cuda.so when run from there, else the installed one).
 * Takes effect at the next load; a plugin already loaded stays. Costs no
 * system call: nothing is opened until a GPU function is called. A path
 * longer than PATH_MAX is kept as the error the next load returns. */
void rl_cudaload_set_path(const char *path);

/* The plugin's table, loading it first if need be; NULL with ERR set
 * (RL_ERR_UNSUPPORTED) when there is no path, the plugin cannot be loaded,
 * lacks the entry point or is from an incompatible build. A failure is
 * remembered: later calls return it again without retrying. */
const struct rl_cuda_plugin *rl_cudaload_get(struct rl_err *err);

#endif
