/* hostfit_write.h - a host fit (hostfit.h) written as a runtime profile
 * (docs/hwdb-format.md, "Runtime profile keys") that rl_runtime_load reads
 * back: the stack and CPU it came from, the method, every op name's figures
 * as comments, and a source on every number.
 */
#ifndef RL_HOSTFIT_WRITE_H
#define RL_HOSTFIT_WRITE_H

#include <stdio.h>

#include "hostfit.h"
#include "step.h"

/* Where a fit came from, for the file's header and sources. */
struct rl_hostfit_origin {
	const char *id, *name; /* the profile's id and one-line name */
	const char *trace;     /* the trace's path as given */
	const char *when;      /* the date of the fit, "2026-12-02T08:00:00Z" */
	const char *version;   /* roofline's */
	const char *stack;     /* lines "what: value" of the stack, GPU and CPU
	                        * the trace records (rl_hostcalls_stack) */
	double step_us;        /* --step-us, or 0 */
	size_t threads, unlinked, orphans; /* rl_hostcalls' counts */
	const struct rl_step_compiled *compiled; /* torch.compile's regions and
	                        * their host side left out (rl_hostcalls'), or NULL */
};

/* Writes FIT as a runtime profile to F. Text from the origin that reaches
 * the file has control bytes and " ;" turned into '?' and ' ,' so that
 * every line reads back. Returns 0 or RL_ERR_IO. */
int rl_hostfit_write(FILE *f, const struct rl_hostfit *fit, const struct rl_hostfit_origin *o);

/* Report's advice on FIT's outliers (hostfit.h, RL_HOSTFIT_OUTLIER_*):
 * a block naming each call, its CPU time against its kind's median and
 * what it likely is; nothing when there is none. MD: as markdown. Returns 0
 * or RL_ERR_IO. */
int rl_hostfit_write_advice(FILE *f, const struct rl_hostfit *fit, int md);

#endif
