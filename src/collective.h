/* collective.h - the time of a collective on an interconnect (allreduce,
 * allgather, reducescatter, alltoall, broadcast, sendrecv).
 *
 * A collective's shape is the elements of each rank's input buffer; its
 * bytes cross the interconnect, not device memory. The traffic follows the
 * bus-bandwidth factors of nccl-tests (NVIDIA/nccl-tests doc/PERFORMANCE.md):
 * an op of nccl-tests size S (bytes) moves S x f over each rank's link in
 * each direction, f = 2(n-1)/n for allreduce, (n-1)/n for allgather,
 * reducescatter and alltoall, 1 for broadcast and sendrecv, so that a
 * measured "busbw" is directly comparable with the link bandwidth. S is the
 * input buffer, except for allgather, whose S is the gathered output
 * (n x the input). On one node:
 *     t = latency + S x f / B
 * with B the per-GPU bus bandwidth of the fabric (NVLink, PCIe) in one
 * direction. Across M nodes of G = n / M GPUs each (every GPU with its own
 * network port), the hierarchical algorithm runs an intra-node phase over G
 * ranks and an inter-node phase over M ranks on 1/G of the data (allreduce:
 * reduce-scatter in the node, allreduce between nodes, allgather in the
 * node); the two fabrics work at the same time on a pipelined stream of
 * chunks, so the bound is
 *     t = latency_intra + latency_inter + max(t_intra, t_inter)
 * (docs/oplist-format.md, "Collectives", has every kind's two parts). The
 * reduction's additions are not counted as FLOPs: one add per element
 * received, a few GFLOP/s against tens of TFLOP/s of vector math. Pure
 * functions: no I/O, no globals.
 */
#ifndef RL_COLLECTIVE_H
#define RL_COLLECTIVE_H

#include <stdint.h>

#include "err.h"
#include "hwsystem.h"
#include "op.h"

/* The parts of one collective's time. */
struct rl_coll_time {
	double algo_bytes;  /* nccl-tests' size S of the op */
	double bus_bytes;   /* S x the bus factor: what "busbw" counts */
	double intra_bytes; /* per GPU per direction over the node's fabric */
	double inter_bytes; /* per GPU per direction over the network */
	double intra_us;    /* intra_bytes / intra bandwidth */
	double inter_us;    /* inter_bytes / network bandwidth */
	double latency_us;
	double t_us; /* latency + max(intra_us, inter_us) */
};

/* nccl-tests' busbw / algbw factor of collective kind K on N ranks:
 * 2(N-1)/N, (N-1)/N or 1 (above); 0 for a kind that is not a collective. */
double rl_collective_bus_factor(enum rl_kind k, uint64_t n);

/* nccl-tests' size S (bytes) of collective kind K on N ranks whose input
 * buffer holds IN_BYTES: N x IN_BYTES for allgather, IN_BYTES otherwise. */
double rl_collective_algo_bytes(enum rl_kind k, uint64_t n, double in_bytes);

/* The bytes of the output buffer of collective kind K on N ranks whose
 * input buffer holds IN_BYTES (each rank's, in device memory): N x IN_BYTES
 * for allgather, IN_BYTES / N for reducescatter, IN_BYTES otherwise (and
 * for a kind that is not a collective). */
double rl_collective_out_bytes(enum rl_kind k, uint64_t n, double in_bytes);

/* Checks the ranks and nodes of collective OP: ranks given and at least 2,
 * nodes at least 1 and dividing ranks. Returns 0 or RL_ERR_PARSE with a
 * message naming the column (no location). */
int rl_collective_check(const struct rl_op *op, struct rl_err *err);

/* The time of collective kind K over RANKS ranks on NODES nodes, each rank
 * with an input buffer of IN_BYTES, on NET, into *T. Errors (RL_ERR_ARG,
 * message naming NET): more GPUs per node than NET has, nodes > 1 on an
 * interconnect without a network, more nodes than NET has, a bandwidth that
 * is 0. */
int rl_collective_time(enum rl_kind k, uint64_t ranks, uint64_t nodes, double in_bytes,
                       const struct rl_net *net, struct rl_coll_time *t, struct rl_err *err);

#endif
