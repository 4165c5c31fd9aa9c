/* calsystem.h - a calibrated system file from a recording of collectives
 * (roofline calibrate --from a bench --only collectives recording, or after
 * measuring them).
 *
 * The system file the recording is set against (its datasheet figures: the
 * link rate, NCCL's modelled latency, published nccl-tests runs) is copied
 * and the measured figures take the keys the model reads, each with its
 * method as source and the figure it replaced beside it:
 *   intra_bandwidth_gbs   all-reduce's bus bandwidth at the largest size
 *                         recorded (collbench.h): the B of t = latency +
 *                         S x f / B (collective.h), so that the model gives
 *                         back the measured time at that size;
 *                         datasheet.intra_bandwidth_gbs keeps the line rate
 *   intra_latency_us      all-reduce's least median time at 4 KiB and
 *                         below; datasheet.intra_latency_us beside
 *   nccl.KIND_busbw_gbs   for every kind recorded: the bus bandwidth at its
 *   nccl.KIND_bytes       largest size; a published figure of that kind moves
 *                         to published.nccl.KIND_busbw_gbs / _bytes
 * A bus bandwidth needs two ranks or more (on one rank the bus factor is 0:
 * nothing crosses a link), so a one-GPU recording is refused.
 */
#ifndef RL_CALSYSTEM_H
#define RL_CALSYSTEM_H

#include "bench.h"
#include "err.h"
#include "hwsystem.h"

/* Writes into *OUT (released by the caller with rl_hwsystem_release) the
 * system SYS calibrated by B's collectives, id ID and name "<SYS's name>
 * (measured)". Returns 0, RL_ERR_NOTFOUND (B holds no collective with a
 * passing check), RL_ERR_ARG (one rank, or more ranks than SYS has GPUs in a
 * node), RL_ERR_RANGE (a figure outside a key's range) or RL_ERR_NOMEM. */
int rl_calsystem(const struct rl_bench *b, const struct rl_hwsystem *sys, const char *id,
                 struct rl_hwsystem *out, struct rl_err *err);

/* The comment block of the calibrated file: the GPUs, when and how they were
 * measured, which figures are measured and which kept. A malloc'ed string,
 * or NULL when out of memory. */
char *rl_calsystem_header(const struct rl_bench *b, const struct rl_hwsystem *sys);

#endif
