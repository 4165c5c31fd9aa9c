/* gpubench.h - the CUDA microbenchmarks behind "roofline bench".
 *
 * Built into the CUDA plugin from src/cuda/ (bench_memory.cu: memory and L2;
 * bench_pipes.cu: vector pipes and special functions; bench_sweep.cu: the
 * intensity sweep; bench_launch.cu: launch overhead; gemm.cu: cuBLASLt matrix
 * products) when configure found the CUDA Toolkit (RL_HAVE_CUDA), and
 * reached through cudaload.c; where the plugin cannot be loaded, or without
 * CUDA, each function fails with RL_ERR_UNSUPPORTED.
 *
 * Each function runs its benchmarks on CUDA device DEV and appends one
 * rl_bench_entry per measurement to B (bench.h), with the per-unit sample
 * times, the bytes and FLOPs of one unit, whether the result was verified,
 * and the SM clock and temperature when NVML is there to read them. Inputs
 * are random, never zeros; results are checked; timing uses CUDA events
 * around many launches after a warm-up (launch figures use the host clock
 * where the figure is a host cost). QUICK selects fewer repetitions and
 * smaller sizes (a smoke run, not a calibration). A CUDA error is
 * RL_ERR_DEVICE with the CUDA error string; a failed verification is not an
 * error (the entry's check is -1) so that the report can show it.
 */
#ifndef RL_GPUBENCH_H
#define RL_GPUBENCH_H

#ifdef __cplusplus
extern "C" {
#endif

#include "bench.h"
#include "err.h"

/* Device-memory bandwidth (RL_BENCH_MEMORY: copy, memcpy, read, write, triad) and L2
 * bandwidth (RL_BENCH_L2: the same names on a working set inside the L2). */
int rl_gpubench_memory(int dev, int quick, struct rl_bench *b, struct rl_err *err);

/* CUDA-core pipes (RL_BENCH_VECTOR: fp32-fma, fp32-mul, fp64-fma, fp16-fma,
 * bf16-fma) and special functions (RL_BENCH_SPECIAL: cos, exp). */
int rl_gpubench_pipes(int dev, int quick, struct rl_bench *b, struct rl_err *err);

/* The intensity sweep (RL_BENCH_SWEEP, name "sweep"): for dtypes fp32, bf16
 * and fp16 and repeat r = 1, 2, 4, ..., 1024, one pass over a large array
 * doing r dependent multiplies per element (flops = elements x r, bytes =
 * elements x element size x 2). */
int rl_gpubench_sweep(int dev, int quick, struct rl_bench *b, struct rl_err *err);

/* Launch overhead (RL_BENCH_LAUNCH), per launch: "enqueue" (host time of an
 * empty-kernel launch, many back to back, one synchronize), "roundtrip"
 * (launch + synchronize), "back-to-back" (device time per tiny kernel in a
 * full stream), "graph-node" (per node of a replayed CUDA graph). */
int rl_gpubench_launch(int dev, int quick, struct rl_bench *b, struct rl_err *err);

/* Tensor-core GEMM ceilings through cuBLASLt (RL_BENCH_GEMM, name "gemm",
 * dtype fp16, bf16, tf32, fp8e4m3 (compute capability 8.9 and later), int8,
 * fp64, fp32; shape "MxNxK"), random inputs, L2 flushed between runs, a
 * sample of outputs checked against a host reference. */
int rl_gpubench_gemm(int dev, int quick, struct rl_bench *b, struct rl_err *err);

/* NCCL collectives across GPUS GPUs of the machine (0: all; devices 0 to
 * GPUS - 1) in one process (RL_BENCH_COLLECTIVE, bench_coll.cu): allreduce,
 * allgather, reducescatter (in-place and out-of-place), alltoall and sendrecv
 * (a ring; out-of-place), fp32, nccl-tests' size S doubling from 8 bytes to
 * 4 GiB (QUICK: every 16th, to 2 GiB; both capped by the memory of the first
 * GPU), each size's output checked element by element first. NCCL is loaded
 * at run time (libnccl.so.2, or $ROOFLINE_NCCL): without it RL_ERR_UNSUPPORTED
 * "NCCL not found (...)"; more GPUS than the machine has: RL_ERR_ARG. */
int rl_gpubench_collectives(int gpus, int quick, struct rl_bench *b, struct rl_err *err);

/* Loads NCCL (as above) and gives its version (ncclGetVersion: 22807 for
 * 2.28.7). Needs no GPU. Returns 0 or RL_ERR_UNSUPPORTED with the reason. */
int rl_gpubench_nccl_version(int *version, struct rl_err *err);

#ifdef __cplusplus
}
#endif

#endif
