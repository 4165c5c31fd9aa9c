/* collbench.h - the figures of a recording's collectives (roofline bench
 * --only collectives): algorithm and bus bandwidth per entry, and per kind
 * the bus bandwidth at the largest size and the latency of the smallest.
 *
 * The method is nccl-tests' (NVIDIA/nccl-tests doc/PERFORMANCE.md): an
 * entry's bytes are nccl-tests' size S of the op (collective.h; for
 * all-gather the gathered output), its samples the time of one op, so
 *     algbw = S / t,    busbw = algbw x f(kind, ranks)
 * with f the bus factor of rl_collective_bus_factor: 2(n-1)/n for
 * all-reduce, (n-1)/n for all-gather, reduce-scatter and all-to-all, 1 for
 * send/recv. On one rank f is 0 for all but send/recv: the bus bandwidth is
 * undefined there (nothing crosses a link), and only algbw is a figure.
 * Pure functions over a recording (bench.h): no I/O.
 */
#ifndef RL_COLLBENCH_H
#define RL_COLLBENCH_H

#include "bench.h"
#include "err.h"
#include "op.h"

/* The largest size whose time counts as the latency of a collective: at
 * 4 KiB and below, S x f / B is under 0.02 us on any NVLink (450 GB/s)
 * and under 0.3 us on PCIe 4 (32 GB/s), against 5-30 us of fixed cost. */
#define RL_COLLBENCH_LATENCY_BYTES 4096.0

/* One entry's figures, from the median of its samples. */
struct rl_collfig {
	enum rl_kind kind;
	double factor; /* the bus factor f; 0: busbw undefined */
	double median_us;
	double algbw_gbs; /* S / median, GB/s */
	double busbw_gbs; /* algbw x f; 0 when f is 0 */
};

/* The figures of collective entry E into *F. Returns 0, or RL_ERR_PARSE
 * when E is no collective entry (not in the collective group, a name that is
 * no collective kind, ranks below 1). */
int rl_collbench_figures(const struct rl_bench_entry *e, struct rl_collfig *f);

/* Per kind: what calibrate keeps. */
struct rl_collsum {
	enum rl_kind kind;
	int ranks;
	size_t sizes;                          /* entries of the kind (both placements) */
	const struct rl_bench_entry *largest;  /* the largest size, the placement of
	                                        * the higher bus bandwidth (a tie:
	                                        * the first) */
	double bytes, algbw_gbs, busbw_gbs;    /* of LARGEST */
	const struct rl_bench_entry *smallest; /* the least median time at or below
	                                        * RL_COLLBENCH_LATENCY_BYTES; NULL:
	                                        * none that small */
	double latency_us;                     /* its median time; 0 without */
};

/* The summary of kind K in B into *S (only entries whose check did not
 * fail). Returns 0, RL_ERR_NOTFOUND (no such entry; message in ERR) or
 * RL_ERR_PARSE (entries of K on different rank counts). */
int rl_collbench_summary(const struct rl_bench *b, enum rl_kind k, struct rl_collsum *s,
                         struct rl_err *err);

#endif
