/* sweep.h - one step predicted at each value of one size: a sweep
 * (roofline model --sweep batch=1,8,64; classify --sweep B=1,2,4).
 *
 * A sweep is a name and a list of increasing integers (rl_sweep_parse).
 * Each value gives one row (rl_sweep_row): the step's expected time and its
 * best case (the roofline, summary.h), items per second where an item is
 * defined (tokens for model, --items-per-step for classify), the expected
 * time's share per bound, the memory the step needs (memfit.h) and whether
 * it fits the device. The knee is the first value whose largest share is
 * compute right after a value whose largest share was memory; out of memory
 * is the first value that does not fit. A table is written by
 * sweep_report.h and read back from its csv (rl_sweep_read_csv) to be drawn
 * (chart.h, svg.h). The record and its csv reader sit low (layer 2, as
 * hwdb.h's records do) so that the chart can draw a table; an op list swept
 * through the pipeline is sweep_oplist.h. Nothing here prints.
 */
#ifndef RL_SWEEP_H
#define RL_SWEEP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "err.h"
#include "hwdb.h"
#include "memfit.h"
#include "model.h"
#include "summary.h"

#define RL_SWEEP_MAX_VALUES 256
#define RL_SWEEP_NAME_LEN   32 /* longest name + 1 */

struct rl_sweep_spec {
	char name[RL_SWEEP_NAME_LEN];
	size_t n;
	uint64_t value[RL_SWEEP_MAX_VALUES];
};

/* Parses SPEC, "NAME=V1,V2,...": NAME letters, digits and '_' (not first a
 * digit), values integers from 1, strictly increasing, at most
 * RL_SWEEP_MAX_VALUES. Returns 0, or RL_ERR_PARSE / RL_ERR_RANGE with one
 * message naming the bad part ("--sweep batch: value 2 is empty"). */
int rl_sweep_parse(const char *spec, struct rl_sweep_spec *sw, struct rl_err *err);

struct rl_sweep_row {
	uint64_t value;
	double step_us;               /* expected: sum of count x expected_us (the
	                               * roofline's with --best-case) */
	double roofline_us;           /* the best case: sum of count x t_us */
	double items;                 /* per step (tokens...); 0: no throughput */
	double share[RL_BOUND_COUNT]; /* of step_us by expected bound, 0..1 */
	double weight_bytes, kv_bytes, activation_bytes; /* memfit.h */
	double memory_bytes;                             /* their sum */
	int fits; /* 1: within the device's memory (or it gives none) */
};

struct rl_sweep_table {
	char name[RL_SWEEP_NAME_LEN]; /* the swept name */
	char items[16];               /* what an item is ("tokens", "items"); "": none */
	const char *title;            /* NULL, or a line saying what was swept (borrowed) */
	double device_bytes;          /* the device's memory; 0: not given */
	size_t n;
	struct rl_sweep_row row[RL_SWEEP_MAX_VALUES];
};

/* Empties T for a sweep of NAME whose items are ITEMS (NULL: none) on DEV
 * (NULL: memory not known). */
void rl_sweep_table_init(struct rl_sweep_table *t, const char *name, const char *items,
                         const struct rl_device *dev);

/* Fills R for VALUE from a step's summary S and memory M on DEV, ITEMS per
 * step (0: none). */
void rl_sweep_row_fill(struct rl_sweep_row *r, uint64_t value, double items,
                       const struct rl_summary *s, const struct rl_memfit *m,
                       const struct rl_device *dev);

/* Items per second at the expected step time (ROOFLINE 0) or at the best
 * case (1); 0 without items or without a time. */
double rl_sweep_row_per_s(const struct rl_sweep_row *r, int roofline);

/* The bound with the largest share of R's time (the first on a tie, in the
 * order compute, memory, overhead). */
enum rl_bound rl_sweep_row_bound(const struct rl_sweep_row *r);

/* The index of the knee (the first row whose largest share is compute right
 * after a row whose largest share was memory), or -1. */
int rl_sweep_knee(const struct rl_sweep_table *t);

/* The index of the first row that does not fit, or -1. */
int rl_sweep_oom(const struct rl_sweep_table *t);

/* One step at VALUE: sets *S and *M (borrowed until the next call) and
 * *ITEMS (0: none). Returns 0 or a negative status, its errors reported by
 * the callback's own means. */
typedef int (*rl_sweep_step_fn)(void *user, uint64_t value, const struct rl_summary **s,
                                const struct rl_memfit **m, double *items);

/* Runs STEP at every value of SW in order into T (rl_sweep_table_init done
 * by the caller). Returns 0 or the first negative status of STEP. */
int rl_sweep_run(const struct rl_sweep_spec *sw, rl_sweep_step_fn step, void *user,
                 const struct rl_device *dev, struct rl_sweep_table *t);

/* The longest row rl_sweep_read_csv reads, in bytes (a quoted field's
 * newlines included): a sweep's row is 11 numbers, under 300 bytes; the
 * cap is that of device files (RL_KV_LINE_MAX), so that no input makes the
 * reader buffer without bound. */
#define RL_SWEEP_LINE_MAX 65536

/* Reads a sweep's csv (sweep_report.h) from F, NAME in messages, into T:
 * the first column is the swept value (its header the name); step_us,
 * compute_pct, memory_pct, overhead_pct and fits (yes or no) are needed;
 * roofline_us, a throughput column ITEMS_per_s and memory_bytes,
 * device_bytes are read when present, other columns ignored. Values are
 * increasing integers from 1; the rest finite numbers >= 0. A NUL byte or
 * a row longer than RL_SWEEP_LINE_MAX is refused as soon as it is read.
 * Returns 0, or
 * RL_ERR_PARSE / RL_ERR_RANGE / RL_ERR_IO with ERR located at the line and
 * column ("sweep.csv:3: column 'step_us': ..."). */
int rl_sweep_read_csv(FILE *f, const char *name, struct rl_sweep_table *t, struct rl_err *err);

#endif
