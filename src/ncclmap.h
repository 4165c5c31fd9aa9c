/* ncclmap.h - from an NCCL kernel in a profiler trace to a collective row.
 *
 * NCCL names its kernels after the collective, the algorithm and the
 * protocol: "ncclDevKernel_AllReduce_Sum_f32_RING_LL" (NCCL 2.19 and later),
 * "ncclKernel_AllReduce_RING_LL_Sum_float" (before), "ncclDevKernel_SendRecv".
 * PyTorch's c10d records each collective it issues as a CPU op
 * "record_param_comms" whose arguments give its name, element counts, dtype
 * and group size (trace.h, rl_trace_comm). The row takes its kind from the
 * record's collective name, else the kernel's; ranks from "Group size";
 * shape from "In msg nelems" (the elements of each rank's input buffer, the
 * convention of collective.h); dtype from "dtype"; nodes 1 (a trace does not
 * say how its ranks are spread over nodes). docs/trace-import.md,
 * "Collectives", lists the names. Pure functions, no I/O.
 */
#ifndef RL_NCCLMAP_H
#define RL_NCCLMAP_H

#include "op.h"
#include "trace.h"

/* What an NCCL kernel's name says. Fields are short static strings, "" when
 * the name does not give them. */
struct rl_nccl_kernel {
	enum rl_kind kind;     /* RL_KIND_ALLREDUCE ..., RL_KIND_CUSTOM for a
	                        * collective without a kind of ours (Reduce) */
	const char *coll;      /* "AllReduce", "SendRecv", "Reduce" ... */
	const char *algorithm; /* "RING", "TREE", "NVLS", "NVLS_TREE", "COLLNET_DIRECT",
	                        * "COLLNET_CHAIN", "PAT" */
	const char *protocol;  /* "LL", "LL128", "SIMPLE" */
};

/* 1 when NAME is an NCCL kernel's ("ncclDevKernel_..." or "ncclKernel_..."),
 * with *K filled (K may be NULL); 0 otherwise. */
int rl_nccl_kernel(const char *name, struct rl_nccl_kernel *k);

/* The kind of a c10d collective name ("allreduce", "_allgather_base",
 * "reduce_scatter_tensor_coalesced", "all_to_all", "broadcast", "send" ...),
 * or RL_KIND_CUSTOM for one without a kind of ours ("reduce", "barrier",
 * "gather"). */
enum rl_kind rl_nccl_coll_kind(const char *name);

/* The dtype of a c10d "dtype" string (c10's ScalarType names: "Float" fp32,
 * "BFloat16" bf16, "Half" fp16, "Double" fp64, "Long" int64, "Int" int32,
 * "Char", "Byte", "Bool" int8, "Float8_e4m3fn(uz)" fp8e4m3,
 * "Float8_e5m2(fnuz)" fp8e5m2). Returns 0 and sets *OUT, or -1. */
int rl_nccl_dtype(const char *name, enum rl_dtype *out);

/* Fills OP (already rl_op_init'ed) for the NCCL kernel K and the c10d record
 * C (NULL when the trace has none), whose strings are COLL_NAME and DTYPE
 * (NULL when absent). Returns 1 when OP became a collective row (kind,
 * dtype, shape, ranks, nodes 1), 0 when it became a custom row with no
 * FLOPs and no bytes: the kind, the size, the dtype or a group of 2 or more
 * ranks is not recorded; *WHY then says which ("size not recorded", ...). */
int rl_nccl_map(const struct rl_nccl_kernel *k, const struct rl_trace_comm *c,
                const char *coll_name, const char *dtype, struct rl_op *op, const char **why);

#endif
