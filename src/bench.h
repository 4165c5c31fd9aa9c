/* bench.h - a benchmark recording: what "roofline bench" measured on one GPU.
 *
 * A recording is the device's attribute set (gpu.h), when and with what it was
 * measured, and a list of entries. An entry is one measurement (the copy
 * kernel, the FP32 FMA pipe, one GEMM shape, one point of the intensity
 * sweep): what one timed sample does (bytes moved, FLOPs done) and the sample
 * times. Everything derived (median, best, achieved GB/s and TFLOPS, the knee
 * of the sweep, the roofs a calibration keeps) is computed from the samples
 * here, on any machine, so a recording made on a GPU can be committed and
 * derived from again (bench_json.c reads and writes its JSON form).
 *
 * The GPU code (gpubench.h) fills a recording through rl_bench_add.
 */
#ifndef RL_BENCH_H
#define RL_BENCH_H

#include <stddef.h>

#include "err.h"
#include "gpu.h"

enum rl_bench_group {
	RL_BENCH_MEMORY,  /* device memory: copy, read, write, triad */
	RL_BENCH_L2,      /* the same kernels on a working set inside the L2 */
	RL_BENCH_VECTOR,  /* CUDA-core pipes: fp32-fma, fp32-mul, fp64-fma, ... */
	RL_BENCH_SPECIAL, /* special functions: cos, exp */
	RL_BENCH_GEMM,    /* cuBLASLt matrix products, one entry per dtype and shape */
	RL_BENCH_LAUNCH,  /* launch overhead: enqueue, roundtrip, back-to-back, graph-node */
	RL_BENCH_SWEEP,   /* the intensity sweep: one entry per dtype and repeat */
	RL_BENCH_COLLECTIVE, /* NCCL collectives across the GPUs: one entry per kind,
	                      * size and placement (collbench.h) */
	RL_BENCH_GROUP_COUNT
};

#define RL_BENCH_NAME_MAX 32
#define RL_BENCH_DTYPE_MAX 16
#define RL_BENCH_SHAPE_MAX 48
#define RL_BENCH_METHOD_MAX 320

/* The sample times a recording may hold, in microseconds. The floor is 1 ns:
 * a GPU clock cycle is 0.5 to 1 ns, CUDA events resolve 0.5 us, and the
 * shortest sample ever recorded (a launch) is 0.23 us; below it, a time is
 * not a measurement but a way to divide by almost nothing (1e-300 us gave
 * 'inf GB/s', issue 21). The ceiling is an hour: bench's longest sample,
 * a 4 GiB collective over PCIe, takes about a second. */
#define RL_BENCH_MIN_US 1e-3
#define RL_BENCH_MAX_US 3.6e9
/* What messages say was expected. */
#define RL_BENCH_TIME_RANGE "a time in microseconds from 0.001 (1 ns) to 3.6e9 (an hour)"

/* The largest count (repeat, bytes, FLOPs) a recording may hold: 2^53, the
 * integers a double keeps exactly (an 8k GEMM is 2^40 FLOPs, the largest
 * array 2^33 bytes). */
#define RL_BENCH_MAX_COUNT 9007199254740992.0

/* One measurement. The sample times are microseconds for one unit of work:
 * one kernel (or one GEMM, one sweep pass) for the throughput groups, one
 * launch for RL_BENCH_LAUNCH. BYTES and FLOPS are what one unit does. */
struct rl_bench_entry {
	enum rl_bench_group group;
	char name[RL_BENCH_NAME_MAX];     /* "copy", "fp32-fma", "gemm", "enqueue", "sweep" */
	char dtype[RL_BENCH_DTYPE_MAX];   /* "fp32", "bf16", ...; "" when none applies */
	char shape[RL_BENCH_SHAPE_MAX];   /* GEMM "MxNxK"; the array "268435456" elements;
	                                   * a collective "in-place" or "out-of-place"; "" */
	double repeat;                    /* sweep: dependent multiplies per element; else 0 */
	double bytes;                     /* device-memory (L2 for RL_BENCH_L2) bytes per unit;
	                                   * a copy counts its reads and its writes; a
	                                   * collective: nccl-tests' size S (collective.h) */
	int ranks;                        /* a collective: the GPUs taking part; else 0 */
	double flops;                     /* FLOPs (int8: OPs) per unit; an FMA counts 2 */
	int check;                        /* 1: the result was verified, 0: nothing to verify,
	                                   * -1: verification failed */
	double sm_clock_mhz;              /* SM clock read right after (NVML); 0 unknown */
	double temp_c;                    /* GPU temperature right after (NVML); 0 unknown */
	char method[RL_BENCH_METHOD_MAX]; /* one line: kernel, launch shape, repetitions */
	size_t n;                         /* samples */
	double *us;                       /* sample times in microseconds (owned) */
};

struct rl_bench {
	char version[16];       /* roofline version that measured */
	char date[32];          /* UTC, ISO 8601: "2026-11-29T10:02:11Z" */
	int quick;              /* 1: --quick (fewer repetitions, smaller sweep) */
	struct rl_gpu gpu;      /* the device's attributes (cuda.h query) */
	size_t n, cap;
	struct rl_bench_entry *e;
};

/* Summary statistics of an entry's samples. */
struct rl_bench_stats {
	double median_us, best_us, p90_us, worst_us;
	double spread;          /* (p90 - best) / median */
	double gbs_median;      /* bytes / median time, GB/s (0 without bytes) */
	double gbs_best;
	double tflops_median;   /* flops / median time, TFLOP/s (0 without flops) */
	double tflops_best;
};

/* Names of the groups ("memory", "l2", ...), and the reverse (0, or
 * RL_ERR_PARSE for a name that is no group). */
const char *rl_bench_group_name(enum rl_bench_group g);
int rl_bench_group_parse(const char *s, enum rl_bench_group *out);

void rl_bench_init(struct rl_bench *b);
void rl_bench_release(struct rl_bench *b);

/* Appends a copy of E (its n and us ignored) with the N sample times US.
 * Returns 0, RL_ERR_ARG (N is 0, a time not finite and positive) or
 * RL_ERR_NOMEM. */
int rl_bench_add(struct rl_bench *b, const struct rl_bench_entry *e, const double *us,
                 size_t n, struct rl_err *err);

/* The first entry of GROUP named NAME with DTYPE ("" or NULL: any) and
 * SHAPE (NULL: any), or NULL. */
const struct rl_bench_entry *rl_bench_find(const struct rl_bench *b,
                                           enum rl_bench_group group, const char *name,
                                           const char *dtype, const char *shape);

/* Quantile Q (0..1) of the N values X, linear interpolation between closest
 * ranks (Hyndman-Fan type 7, numpy's default). X need not be sorted. N > 0. */
double rl_quantile(const double *x, size_t n, double q);

/* Statistics of E's samples. */
void rl_bench_stats(const struct rl_bench_entry *e, struct rl_bench_stats *s);

/* The intensity sweep of DTYPE: its points sorted by repeat, with the
 * measured roofs (the best bytes/s of the memory-bound plateau and the best
 * FLOP/s reached) and the knee where the two asymptotes meet. */
#define RL_SWEEP_MAX 32
struct rl_sweep {
	char dtype[RL_BENCH_DTYPE_MAX];
	size_t n;
	const struct rl_bench_entry *pt[RL_SWEEP_MAX];
	double bytes_per_s;     /* max over points of bytes / median time */
	double flops_per_s;     /* max over points of flops / median time */
	double knee_intensity;  /* flops_per_s / bytes_per_s, FLOP/byte */
	double knee_repeat;     /* the same in multiplies per element:
	                         * knee_intensity x bytes per element / flops per repeat */
	double elem_bytes;      /* bytes moved per element (read + write) */
};

/* Collects the sweep of DTYPE from B into *S. Returns 0, or RL_ERR_NOTFOUND
 * (no sweep points of that dtype; message in ERR). */
int rl_bench_sweep(const struct rl_bench *b, const char *dtype, struct rl_sweep *s,
                   struct rl_err *err);

/* Writes B as one JSON document to F: the recording (attributes, entries
 * with their samples) and, per entry, the derived statistics for readers;
 * rl_bench_read reads it back. Returns 0 or RL_ERR_IO. */
int rl_bench_write_json(FILE *f, const struct rl_bench *b);

/* Reads a recording written by rl_bench_write_json from PATH ("-": standard
 * input) into *B (initialised here; released by the caller, also on error).
 * Derived statistics in the file are ignored and recomputed. Errors name
 * the file and the JSON path of the bad value ("bench.json: entries[3].
 * samples_us[2]: expected a positive number"). Returns 0, RL_ERR_IO,
 * RL_ERR_PARSE or RL_ERR_NOMEM. */
int rl_bench_read(const char *path, struct rl_bench *b, struct rl_err *err);

#endif
