/* parallel.h - a parallel layout: how one step of a model is split over GPUs.
 *
 * Megatron-style tensor (tp), pipeline (pp), data (dp) and expert (ep)
 * parallelism (docs/parallel.md has every rule with its source): the GPUs
 * are tp x pp x dp, numbered with tp fastest, then dp, then pp (Megatron-LM's
 * default order), and node n holds GPUs n x gpus_per_node onwards, so a
 * tensor-parallel group sits inside a node and the data- and
 * pipeline-parallel groups stride across nodes. The expert-parallel group is
 * ep consecutive members of a data-parallel group (Megatron-Core: ep divides
 * dp). This module places the groups (the ranks and nodes of their
 * collectives), checks a layout against a model and a system, gives the
 * pipeline's bubble, and cuts the data-parallel gradient all-reduce into
 * buckets as PyTorch's DistributedDataParallel does. The sharded op list
 * itself is modelops.c's. Pure functions: no I/O.
 */
#ifndef RL_PARALLEL_H
#define RL_PARALLEL_H

#include <stdint.h>

#include "err.h"
#include "hfconfig.h"
#include "hwsystem.h"

/* The largest degree of one kind of parallelism, and of their product. */
#define RL_PARALLEL_MAX 65536u

/* DistributedDataParallel's bucket_cap_mb default: 25 MiB. */
#define RL_PARALLEL_BUCKET_BYTES (25.0 * 1048576.0)

/* A layout as given. */
struct rl_parallel {
	uint64_t tp, pp, dp, ep; /* each >= 1 (0 reads as 1) */
	uint64_t microbatches;   /* pipeline micro-batches per step; 0: the
	                          * default (rl_parallel_place) */
	double bucket_bytes;     /* the gradient all-reduce's bucket; 0: 25 MiB */
	uint64_t vstages;        /* model chunks per GPU, the interleaved
	                          * schedule (--virtual-stages); 0 reads as 1 */
	int tp_comm_overlap;     /* the tensor-parallel all-reduces on the
	                          * communication stream beside the compute
	                          * (--tp-comm-overlap: overlap=1) */
	int sp;                  /* sequence parallelism (--sp, Korthikanti et
	                          * al. 2022): the tensor-parallel group splits
	                          * the tokens of the norms, residuals and
	                          * dropouts; reduce-scatter and all-gather in
	                          * place of each all-reduce */
	int zero;                /* ZeRO's stage over the data-parallel group
	                          * (--zero, a training step): 1 shards the
	                          * optimizer state and master weights, 2 the
	                          * gradients too, 3 the weights too; 0: none
	                          * (DDP) */
};

/* The GPUs of one group and the nodes they span (a collective's ranks and
 * nodes columns). */
struct rl_parallel_group {
	uint64_t ranks, nodes;
};

/* A layout placed on a system. */
struct rl_parallel_place {
	struct rl_parallel lay; /* as given, microbatches and bucket resolved */
	uint64_t gpus;          /* tp x pp x dp */
	uint64_t nodes;         /* the nodes they fill */
	uint64_t gpus_per_node; /* the system's; 0: one node of any size */
	struct rl_parallel_group tp, pp, dp, ep;
	struct rl_parallel_group link; /* the send/recv between the last two
	                                * stages: 2 ranks on 1 or 2 nodes */
	uint64_t batch;                /* sequences per data-parallel replica */
	uint64_t micro_batch;          /* sequences per micro-batch: batch / m */
	uint64_t stage_layers;         /* layers per pipeline stage: ceil(L / pp) */
	double bubble;                 /* (pp - 1) / (v m + pp - 1) */
	double in_flight;              /* micro-batches whose activations the first
	                                * stage holds at once (1F1B; fractional with
	                                * v chunks): rl_parallel_in_flight */
};

/* Whether P splits anything (a degree above 1). */
int rl_parallel_active(const struct rl_parallel *p);

/* Checks P against model C: tp divides the attention heads, the hidden
 * size and the intermediate size, and the key-value heads or is a multiple
 * of them (replicated KV heads); pp at most the layers; ep divides the
 * experts (an MoE model only) and dp. Returns 0 or RL_ERR_ARG naming the
 * option and the numbers. */
int rl_parallel_check_model(const struct rl_parallel *p, const struct rl_hfconfig *c,
                            struct rl_err *err);

/* Places P for a step of BATCH sequences and a model of LAYERS layers on
 * NET (NULL: no interconnect) into *OUT: dp divides BATCH; the default
 * micro-batch count is the largest divisor of the replica's batch that is
 * at most pp (pp itself when it divides), a given one must divide it; a
 * tensor-parallel group must fit in a node (tp divides gpus_per_node); each
 * group's GPUs must sit evenly on its nodes; the GPUs must fit the system's
 * nodes; a layout with communication (tp, pp or ep above 1, or dp in
 * training: TRAIN) needs NET. Returns 0, or RL_ERR_ARG / RL_ERR_RANGE with
 * ERR naming the option. */
int rl_parallel_place(const struct rl_parallel *p, uint64_t batch, uint64_t layers, int train,
                      const struct rl_net *net, struct rl_parallel_place *out, struct rl_err *err);

/* The nodes that RANKS GPUs numbered START, START + STRIDE, ... span with
 * GPUS_PER_NODE GPUs per node (0: all on one); *EVEN set to whether every
 * node holds as many of them. */
uint64_t rl_parallel_span(uint64_t start, uint64_t stride, uint64_t ranks, uint64_t gpus_per_node,
                          int *even);

/* The pipeline bubble of PP stages, M micro-batches and V model chunks per
 * GPU: GPipe's and 1F1B's (pp - 1) / (m + pp - 1) of the step (Narayanan et
 * al. 2021, section 2.2.1); the interleaved schedule's chunks of 1 / V of a
 * stage divide the bubble's time by V (section 2.2.2): (pp - 1) / (v m + pp
 * - 1). 0 for pp 1. */
double rl_parallel_bubble(uint64_t pp, uint64_t m, uint64_t v);

/* The micro-batches (in units of a whole stage's layers) whose saved
 * activations the first of PP stages holds at once under 1F1B with M
 * micro-batches and V model chunks per GPU: Megatron-LM's warm-up forwards
 * on rank 0 and the steady state's one more (megatron/core/
 * pipeline_parallel/schedules.py: pp - 1 + 1 without interleaving; 2 (pp -
 * 1) + (v - 1) pp + 1 chunks of 1 / v with it), at most all of them:
 * min(m, pp) for v = 1, min(m, pp + (pp - 1) / v) with chunks. 1 for pp 1
 * (gradient accumulation: one micro-batch at a time). */
double rl_parallel_in_flight(uint64_t pp, uint64_t m, uint64_t v);

/* DistributedDataParallel's gradient buckets during backward: gradients
 * fill a bucket in the order they are produced, and a bucket is reduced as
 * soon as it is full (Li et al. 2020, "PyTorch Distributed", VLDB: gradient
 * bucketing, and overlapping computation with communication); the last,
 * partly full, after the last gradient. */
struct rl_parallel_ddp {
	double bucket_bytes;
	double pending_bytes; /* produced, not yet in a full bucket */
};

void rl_parallel_ddp_init(struct rl_parallel_ddp *d, double bucket_bytes);

/* BYTES more gradients are produced: returns the buckets that are now
 * full (0 or more), each bucket_bytes. */
uint64_t rl_parallel_ddp_add(struct rl_parallel_ddp *d, double bytes);

/* The end of backward: the bytes of the last bucket (0: none), emptied. */
double rl_parallel_ddp_flush(struct rl_parallel_ddp *d);

#endif
