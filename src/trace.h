/* trace.h - reading a PyTorch profiler trace (Kineto's Chrome trace JSON).
 *
 * The trace is streamed through yajl's callback parser from a plain or
 * gzipped file (gzread.h): the document is never held in memory. Only what
 * the CPU-op-to-kernel join needs is kept, in compact records: CPU ops (name,
 * thread, start, duration, encoded input arguments), runtime launch calls
 * (correlation id, thread, start) and GPU activities (kernels, memsets,
 * memcpys: correlation id, start, duration), user annotations (name, thread,
 * span), the collective metadata of c10d's record_param_comms ops (rl_trace_comm),
 * plus the deviceProperties names.
 * Strings are interned; ids index rl_trace_str. Times are integer
 * nanoseconds, read exactly from the decimal microseconds of the file.
 * Numbers are read as raw text (integers beyond 64 bits are fine where they
 * are not needed) and strings are not checked for UTF-8; names that reach
 * output have invalid bytes replaced by '?'. Everything is owned by the
 * struct rl_trace and freed by rl_trace_release.
 */
#ifndef RL_TRACE_H
#define RL_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

enum rl_gpu_kind { RL_GPU_KERNEL, RL_GPU_MEMSET, RL_GPU_MEMCPY, RL_GPU_KIND_COUNT };

/* A cpu_op event: one ATen (or other dispatcher) op on a CPU thread. */
struct rl_trace_op {
	uint32_t name;   /* string id */
	uint32_t thread; /* id of the (pid, tid) pair */
	int64_t ts_ns, dur_ns;
	uint64_t args;   /* offset of the encoded inputs (rl_trace_op_inputs) */
};

/* A runtime or driver call that has a correlation id (cudaLaunchKernel,
 * cuLaunchKernelEx, cudaMemsetAsync, ...). */
struct rl_trace_launch {
	uint64_t corr;
	uint32_t thread;
	uint32_t name;
	int64_t ts_ns, dur_ns;
};

/* A GPU activity: a kernel, memset or memcpy. */
struct rl_trace_gpu {
	uint64_t corr;
	int64_t ts_ns, dur_ns;
	int32_t device; /* args.device, -1 when absent */
	uint32_t name;  /* string id of the event's name ("" when absent): the
	                 * kernel's, e.g. "ncclDevKernel_AllReduce_Sum_f32_RING_LL" */
	uint8_t kind;   /* enum rl_gpu_kind */
};

/* The collective a CPU op describes: PyTorch's c10d records each collective
 * as a cpu_op "record_param_comms" whose args name it and its buffers
 * (torch/csrc/profiler/util.h, kCommsName ...: "Collective name", "dtype",
 * "In msg nelems", "Out msg nelems", "Group size"). Kept for every cpu_op
 * whose args have a "Collective name" string, and for every kernel that has
 * them too (Kineto copies them from the record onto the NCCL kernels it
 * launched, libkineto's output_json.cpp). */
struct rl_trace_comm {
	size_t op;            /* index into ops, or into gpu (kernel_comms) */
	uint32_t name;        /* string id of "Collective name" ("allreduce", "_allgather_base" ...) */
	uint32_t dtype;       /* string id + 1 of "dtype" ("Float", "BFloat16" ...); 0: absent */
	int64_t in_nelems;    /* "In msg nelems": elements of this rank's input; -1: absent */
	int64_t out_nelems;   /* "Out msg nelems"; -1: absent */
	int64_t group_size;   /* "Group size": ranks taking part; -1: absent */
};

/* A user_annotation event: a named span a program marked on a CPU thread
 * (torch.profiler.record_function; torch.optim marks each step
 * "Optimizer.step#AdamW.step"). Kept apart from the CPU ops: it says which
 * part of a step an op belongs to, never becomes a row. */
struct rl_trace_mark {
	uint32_t name;   /* string id */
	uint32_t thread; /* id of the (pid, tid) pair */
	int64_t ts_ns, dur_ns;
};

/* A scalar member of the trace's top-level object other than traceEvents
 * and deviceProperties: what the profiler wrote about the run
 * ("cuda_runtime_version": "13000", "schemaVersion": "1"; a version
 * string where PyTorch adds one), and the scalar members of a top-level
 * object as "OBJECT.KEY" ("distributedInfo.rank": "0"). Arrays, and
 * objects deeper down, are not kept. */
struct rl_trace_meta {
	uint32_t key, value; /* string ids: the key, the value's text */
};

/* At most this many are kept; the rest are dropped. */
#define RL_TRACE_MAX_META 64

struct rl_trace_device {
	long long id;
	char *name;
	long long num_sms;          /* numSms, 0 when absent */
	long long total_mem_bytes;  /* totalGlobalMem, 0 when absent */
};

/* Events that were dropped, with the first one's reason and byte offset;
 * GPU activities (kernels, memsets, memcpys) among them counted apart. */
struct rl_trace_skips {
	size_t count;
	char first[RL_ERR_MSG_MAX]; /* "byte 1234: cpu_op event without 'dur'" */
	size_t gpu;
	char first_gpu[RL_ERR_MSG_MAX];
};

/* Times are read as integer nanoseconds of magnitude below this, 2^62 (146
 * years); an event with a time beyond it is skipped. */
#define RL_TRACE_MAX_NS 4611686018427387904.0

struct rl_trace {
	char *name; /* the input's name in messages */
	unsigned long long bytes; /* uncompressed size */
	size_t events;            /* items of traceEvents */
	struct rl_trace_op *ops;
	size_t nops;
	struct rl_trace_launch *launches;
	size_t nlaunches;
	struct rl_trace_gpu *gpu;
	size_t ngpu;
	struct rl_trace_device *devices;
	size_t ndevices;
	struct rl_trace_mark *marks;
	size_t nmarks;
	struct rl_trace_comm *comms; /* in order of op */
	size_t ncomms;
	struct rl_trace_comm *kernel_comms; /* the kernels', in order of gpu index */
	size_t nkernel_comms;
	/* The profiler's own work on the host ("overhead" events: Kineto's
	 * "Activity Buffer Request"), as spans; name, thread, ts, dur. */
	struct rl_trace_mark *overheads;
	size_t noverheads;
	struct rl_trace_meta *meta; /* in file order */
	size_t nmeta;
	struct rl_trace_skips skipped;

	/* internals: the string pool and the argument arena */
	char *pool;
	size_t pool_len, pool_cap;
	size_t *str_off;
	size_t nstr, str_cap;
	uint32_t *hash;
	size_t hash_cap;
	unsigned char *arena;
	size_t arena_len, arena_cap;
	size_t ops_cap, launches_cap, gpu_cap, devices_cap, marks_cap, comms_cap, kernel_comms_cap;
	size_t overheads_cap, meta_cap;
};

/* Reads the trace at PATH ("-": standard input) into *T (caller-owned,
 * released with rl_trace_release, also after a failure). Returns 0, or:
 * RL_ERR_IO (cannot open or read), RL_ERR_PARSE (not JSON, truncated, not a
 * trace, a traceEvents item that is not an object; the message says
 * "PATH: byte OFFSET: ..."), RL_ERR_NOMEM. Events that lack a needed field
 * are skipped and counted in T->skipped, not errors. */
int rl_trace_read(const char *path, struct rl_trace *t, struct rl_err *err);

void rl_trace_release(struct rl_trace *t);

/* The interned string ID (borrowed, valid until rl_trace_release). */
const char *rl_trace_str(const struct rl_trace *t, uint32_t id);

/* The value text of the top-level member KEY (borrowed), or NULL. */
const char *rl_trace_meta(const struct rl_trace *t, const char *key);

/* The collective metadata of T->ops[OP] (borrowed), or NULL when it has
 * none. */
const struct rl_trace_comm *rl_trace_op_comm(const struct rl_trace *t, size_t op);

/* The collective metadata of the kernel T->gpu[I] (borrowed), or NULL. */
const struct rl_trace_comm *rl_trace_gpu_comm(const struct rl_trace *t, size_t i);

/* One input of a CPU op, from args "Input Dims", "Input Strides", "Input
 * type" and "Concrete Inputs" at the same position. */
#define RL_TRACE_MAX_DIMS 8
struct rl_trace_input {
	const char *type;     /* "c10::BFloat16", "Scalar", "TensorList", "" ...; NULL if absent */
	const char *concrete; /* "1", "[2, 2]", "False", "" ...; NULL if absent */
	int has_dims;         /* a dims entry is recorded (a tensor or a list) */
	int nd;               /* tensor: number of dims (0 for a 0-dim tensor or a scalar) */
	uint64_t dims[RL_TRACE_MAX_DIMS];
	int has_strides;      /* "Input Strides" gives this tensor's strides, one per dim */
	uint64_t strides[RL_TRACE_MAX_DIMS]; /* elements; 0 on a broadcast dim */
	size_t nlist;         /* a list of tensors (TensorList): how many; 0 otherwise */
	const unsigned char *list; /* for rl_trace_list_next */
};

/* Decodes up to MAX inputs of OP into IN; returns how many (an op with more
 * has the rest ignored). Tensors with more than RL_TRACE_MAX_DIMS dims, and
 * malformed dims, come back with has_dims 0. */
int rl_trace_op_inputs(const struct rl_trace *t, const struct rl_trace_op *op,
                       struct rl_trace_input *in, int max);

/* A Triton kernel's launch as its cpu_op records it (inductor.h): *KWARGS
 * its "kernel_kwargs" ("XBLOCK=1024", "XBLOCK=1,R0_BLOCK=2048"; borrowed)
 * or NULL, *NUM_WARPS its "num_warps" or 0. */
void rl_trace_op_launch(const struct rl_trace *t, const struct rl_trace_op *op,
                        const char **kwargs, unsigned *num_warps);

/* Decodes the next tensor of a list input: *POS starts at IN->list. Fills
 * DIMS (RL_TRACE_MAX_DIMS) and *ND; returns 0, or -1 for a tensor with too
 * many dims (skip it). Call it IN->nlist times. */
int rl_trace_list_next(const unsigned char **pos, uint64_t *dims, int *nd);

#endif
