/* import.h - a profiler trace becomes an op list with measured times.
 *
 * Joins each GPU activity (kernel, memset, memcpy) to the runtime call that
 * launched it through their shared correlation id, that call to the innermost
 * CPU op on the same thread whose interval holds the call's start, and that
 * op to its outermost enclosing CPU op. Each outermost op that launched GPU
 * work becomes one row: kind, dtype and shape from its recorded inputs
 * (atenmap.h), measured_us the summed durations of its GPU activities,
 * launches their number, host_us the op's own duration. Nested ops are folded
 * into their outermost op, but for the fused transformer ops whose parts are
 * recorded nested in them (rl_aten_composite): each part becomes a row, and
 * what the fused op launched outside its parts a row of its own; the
 * autograd engine's wrappers of a training step split alike. A row's shape
 * is read from the innermost op of its name in a chain of first children
 * (autocast records an op twice, before and after casting its inputs). Each
 * row gets its phase: backward in an evaluation of the autograd engine,
 * optimizer in a user annotation "Optimizer.step#...", else
 * forward; torch.optim's tensor lists, recorded without dims, take the
 * parameters that AccumulateGrad's gradients give (one backward pass's: the
 * forward and optimizer rows part the passes). An NCCL kernel is a row of its
 * own, a collective (ncclmap.h) whose size comes from the c10d record
 * ("record_param_comms") it was launched in, named after the outermost c10d
 * op around it (c10d::allreduce_). (Kineto's "External id"
 * is not used: in some PyTorch versions it equals the correlation id and
 * links unrelated ops.)
 * The rows and their names belong to the struct rl_import.
 */
#ifndef RL_IMPORT_H
#define RL_IMPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "atenmap.h"
#include "err.h"
#include "op.h"
#include "step.h"
#include "trace.h"

/* The algorithm and protocol an NCCL kernel's name gives (ncclmap.h):
 * static strings, "" when the name gives none; NULL on rows of other work. */
struct rl_import_nccl {
	const char *algorithm, *protocol;
};

/* The first few distinct names of rows kept as custom, with counts. */
#define RL_IMPORT_CUSTOM_NAMES 6

struct rl_import {
	struct rl_op *ops;    /* rows, in order of start time */
	size_t n;
	char **names;         /* owned: ops[i].name */
	struct rl_interval *gpu; /* every GPU activity of the trace */
	size_t ngpu;
	size_t gpu_by_kind[RL_GPU_KIND_COUNT];
	int64_t gpu_ns;       /* summed durations of all GPU activities */
	size_t unlinked;      /* GPU activities whose launch call is not in the trace */
	int64_t unlinked_ns;
	size_t orphans;       /* launch calls outside any CPU op: rows named after the call */
	size_t custom;        /* rows the table could not map */
	size_t ncustom_names;
	struct {
		char *name;
		size_t count;
	} custom_names[RL_IMPORT_CUSTOM_NAMES];
	char *device;         /* deviceProperties name of the GPU that ran the work, or NULL */
	long long device_sms; /* its numSms and totalGlobalMem, 0 when not recorded */
	long long device_mem_bytes;
	int device_ambiguous; /* the work ran on GPUs of different names */
	enum rl_dtype fallback; /* the trace's most common floating-point dtype */
	struct rl_aten_params params; /* a training step's parameters (AccumulateGrad) */
	int training;                 /* some row is backward or optimizer */
	size_t collectives;           /* rows of NCCL kernels (ncclmap.h) */
	struct rl_import_nccl *nccl;  /* per row: its NCCL kernel's names (NULL on other rows) */
	/* torch.compile's regions and their host side, and the CUDA graphs
	 * replayed (inductor.h), as report's step gives them */
	struct rl_step_compiled compiled;
};

/* Builds the rows of T into *IMP (caller-owned; release with
 * rl_import_release, also after a failure). Returns 0, RL_ERR_PARSE when T
 * has no GPU activity ("PATH: no GPU kernels in the trace ..."), or
 * RL_ERR_NOMEM. */
int rl_import_trace(const struct rl_trace *t, struct rl_import *imp, struct rl_err *err);

/* A trace does not say how a c10d group's ranks are spread over nodes: its
 * collective rows have nodes 1. Given the GPUs per node of the system the
 * rows are predicted on, each row whose ranks fill more than one node and
 * are a multiple of GPUS_PER_NODE gets ranks / GPUS_PER_NODE nodes (16
 * ranks on 8-GPU nodes: 2). 0 changes nothing. */
void rl_import_spread(struct rl_import *imp, uint64_t gpus_per_node);

void rl_import_release(struct rl_import *imp);

/* Writes the rows as op list v1 (docs/oplist-format.md) to OUT, after
 * comment lines naming SOURCE and the device. Returns 0 or RL_ERR_IO. */
int rl_import_write(FILE *out, const struct rl_import *imp, const char *source);

#endif
