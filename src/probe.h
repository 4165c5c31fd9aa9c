/* probe.h - from a GPU's attribute set to a complete device entry.
 *
 * Pure arithmetic on a struct rl_gpu (a live query or a recorded one): the
 * counts and sizes the runtime reports directly, the memory bandwidth
 * 2 x memory clock x bus width / 8, and each pipe's peak as SMs x per-SM rate
 * (archtab.h) x clock, with the tensor clock below the boost clock where the
 * architecture's datasheets say so. Every value's source says "probe:
 * <attribute> = <value>" or "derived: <formula>".
 */
#ifndef RL_PROBE_H
#define RL_PROBE_H

#include "archtab.h"
#include "err.h"
#include "gpu.h"
#include "hwdb.h"

/* Derives the device entry of G into *OUT (caller-owned, released with
 * rl_device_release). LIKE, when not NULL, is the database entry the GPU
 * matched: a device query cannot see the shortest kernel time, so
 * min_kernel_us is taken from it (else from the architecture's nearest
 * measurement). *ARCH (may be NULL) receives the rate table row used and
 * *ASSUMED whether that row is only the nearest older architecture.
 * Returns 0, RL_ERR_UNSUPPORTED (older than Volta) or RL_ERR_NOMEM. */
int rl_probe_derive(const struct rl_gpu *g, const struct rl_device *like,
                    struct rl_device *out, const struct rl_arch **arch, int *assumed,
                    struct rl_err *err);

#endif
