/* hostcalls.h - a trace's host timeline as the calls of hostfit.h: the
 * outermost CPU op of each thread, with the kernels it launched and the kind
 * atenmap.h gives it, and the profiler's own spans.
 *
 * The join is import.h's: a GPU activity's correlation id gives its launch
 * call, the call's thread and start the outermost CPU op around it. The
 * kind and the shapes are read from the innermost op of the outermost op's
 * name in its chain of children (autocast's double record), as the import
 * reads them, so that a call's kind is the kind of the row `report` makes of
 * it (but for the fused ops that import splits into parts: charged here to
 * the whole op's kind). A launch outside any CPU op is a call of its own,
 * named after the launch, of kind custom. A compiled region's wrappers
 * (inductor.h) are not calls: the ops in them are, a Triton kernel's launch
 * of the kind the import gives it; Dynamo's cache lookup and the region's
 * prologue are left out of every call's charge (skips) and counted apart.
 * Names are borrowed from the trace.
 */
#ifndef RL_HOSTCALLS_H
#define RL_HOSTCALLS_H

#include <stddef.h>

#include "err.h"
#include "hostfit.h"
#include "step.h"
#include "trace.h"

struct rl_hostcalls {
	struct rl_hostfit_call *calls; /* in order of start */
	size_t n;
	struct rl_hostfit_skip *skips; /* the trace's "overhead" spans */
	size_t nskips;
	size_t threads;      /* threads with a top-level call */
	size_t gpu;          /* GPU activities charged to a call */
	size_t unlinked;     /* GPU activities whose launch call is not in the trace */
	size_t orphans;      /* launch calls outside any CPU op */
	/* torch.compile (inductor.h): the regions, which are not calls (what
	 * runs in them is), and their host side besides the launches, Dynamo's
	 * cache lookup and the prologue, left out of the charges as skips
	 * (rl_inductor_host's figures; no graph's) */
	struct rl_step_compiled compiled;
};

/* Builds *HC (caller-owned, released with rl_hostcalls_release, also after a
 * failure) from T. Returns 0, RL_ERR_PARSE ("PATH: no CPU ops in the trace
 * ..." when T records none, "PATH: no GPU kernels ..." when it has no GPU
 * activity), or RL_ERR_NOMEM. */
int rl_hostcalls_build(const struct rl_trace *t, struct rl_hostcalls *hc, struct rl_err *err);

void rl_hostcalls_release(struct rl_hostcalls *hc);

/* What T records of the stack, the GPU and the CPU it ran on, as lines
 * "what: value\n" into BUF (N bytes, cut to fit): the PyTorch version (a
 * top-level key naming torch, else "not recorded"), the CUDA runtime, driver
 * and CUPTI versions, each device of deviceProperties, the members of
 * distributedInfo (backend, rank, world_size, nccl_version), that the CPU
 * is unknown (Kineto records none), then the trace's other top-level
 * scalars (rl_trace_meta). */
void rl_hostcalls_stack(const struct rl_trace *t, char *buf, size_t n);

#endif
