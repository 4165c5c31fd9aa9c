/* report.h - writers for classified op lists: table, csv, json, md, html.
 *
 * Writers format what the model produced and compute nothing new. They stream:
 * begin (header), one row per op, end (summary), so output for a million ops
 * needs no array. Machine formats (csv, json) carry no banner. The writer
 * borrows everything it is given; the FILE stays the caller's.
 */
#ifndef RL_REPORT_H
#define RL_REPORT_H

#include <stdio.h>

#include "hwdb.h"
#include "model.h"
#include "op.h"
#include "step.h"
#include "memfit.h"
#include "parallel.h"
#include "summary.h"
#include "timeline.h"

enum rl_format { RL_FMT_TABLE, RL_FMT_CSV, RL_FMT_JSON, RL_FMT_MD, RL_FMT_HTML };

/* Parses "table", "csv", "json", "md" or "html"; returns 0 or RL_ERR_ARG.
 * A command that has no html output refuses RL_FMT_HTML itself. */
int rl_format_parse(const char *s, enum rl_format *out);

struct rl_report_info {
	const struct rl_device *dev;
	const char *source;           /* NULL, or the op list's or trace's name
	                               * (html: its header and title) */
	const char *runtime;          /* runtime profile id */
	double host_overhead_us;
	const double *host_kind_us;   /* NULL, or per op kind (RL_KIND_COUNT) */
	size_t nextra;                /* columns the op list carries through: */
	const char *const *extra_names; /* their names, borrowed until the last
	                                 * rl_report_row; each op's extra[] holds
	                                 * NEXTRA cells */
	int has_measured;             /* the list has the measured_us column */
	int has_host;                 /* the list has the host_us column */
	int has_phase;                /* ops carry a phase (a training step): csv's
	                               * and json's per-op 'phase' */
	int wide;                     /* table: every column, no truncation */
	int l2;                       /* --l2: L2-resident ops were predicted
	                               * from the L2 (l2.h) */
	const struct rl_timeline *timeline; /* NULL, or a step simulated by the
	                                     * caller, finished before rl_report_end,
	                                     * which writes it after the summary
	                                     * (table, md, json; not csv) */
	const struct rl_step *step;   /* report: the measured step, complete by
	                               * rl_report_end; in table and md it replaces
	                               * the summary, in json it is added */
	int best_case;                /* --best-case: table and md show the
	                               * roofline's time and bound, and say so */
	const char *expected_source;  /* NULL, or where expected times come from
	                               * (a header line; json: "expected_source") */
	const char *interconnect;     /* NULL, or the system collectives run on
	                               * (a header line; json: "interconnect") */
	const struct rl_memfit *mem;  /* NULL, or the memory the step needs,
	                               * complete by rl_report_end: a line of the
	                               * table's and md's summary, json's "memory" */
	const char *impl;             /* NULL, or the implementation (impl.h) a
	                               * model's step was built for: the total
	                               * line adds the kernels a step launches
	                               * and its name, json's summary "impl" */
	const char *appendix;         /* html: NULL, or the text a command adds
	                               * after the table's report (a section) */
	const struct rl_parallel_place *parallel; /* NULL, or the layout the op
	                               * list is one GPU's share of: lines of the
	                               * summary, json's "parallel" */
};

typedef struct rl_report rl_report;

/* Starts a report on OUT. Returns 0 or RL_ERR_NOMEM. */
int rl_report_begin(FILE *out, enum rl_format fmt, const struct rl_report_info *info,
                    rl_report **rep);

/* Writes one op. Returns 0, or RL_ERR_IO / RL_ERR_NOMEM. */
int rl_report_row(rl_report *rep, const struct rl_op *op, const struct rl_pred *p);

/* Writes the summary and closes the report structure (not the FILE).
 * Returns 0 or RL_ERR_IO. */
int rl_report_end(rl_report *rep, const struct rl_summary *s);

void rl_report_free(rl_report *rep);

/* Writes S as a CSV field to OUT, quoting it only when it needs quotes. */
void rl_csv_field(FILE *out, const char *s);

#endif
