/* cuda.h - the live device query through the CUDA runtime.
 *
 * Defined in the CUDA plugin (src/cuda/cuda.c) when configure found the CUDA
 * Toolkit (RL_HAVE_CUDA), and reached through cudaload.c, which loads the
 * plugin on the first call; where it cannot be loaded, or the build has no
 * CUDA, every function fails with RL_ERR_UNSUPPORTED and a message saying
 * so, and the rest of the program is unchanged. Errors carry the
 * CUDA error string ("cudaGetDeviceCount: CUDA driver version is
 * insufficient for CUDA runtime version").
 */
#ifndef RL_CUDA_H
#define RL_CUDA_H

#include "err.h"
#include "gpu.h"

/* Nonzero when this build has the CUDA parts (cudaload.c; the plugin itself
 * need not be loadable). */
int rl_cuda_built(void);

/* The number of CUDA devices in *N. No driver or no device is an error
 * (RL_ERR_DEVICE), as the caller asked for a GPU. */
int rl_cuda_device_count(int *n, struct rl_err *err);

/* Queries device DEV into *G. An index out of range is RL_ERR_ARG. */
int rl_cuda_query(int dev, struct rl_gpu *g, struct rl_err *err);

#endif
