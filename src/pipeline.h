/* pipeline.h - the classify pipeline: an op stream in, every sink fed.
 *
 * One op at a time, as a reader or a builder produces them: predict it
 * (model.h), pass it through the fusion stream (fusion.h: groups of the
 * list become one kernel, runs are proposed with --suggest-fusion), and
 * hand each resulting kernel, judged for L2 residency (l2.h), to the
 * sinks: the summary, the simulated step (timeline.h), the measured step of
 * a trace (step.h), the report writer (report.h) and the chart (chart.h).
 * With a scale, every op is predicted a second time at the scaled size and
 * the pair goes to the batch-scaling report instead (scale.h).
 *
 * classify (op lists) and report (traces) share it; a command parses its
 * flags, opens its inputs and outputs, picks the sinks, and feeds ops. The
 * pipeline reads no file and prints nothing but the report it is given a
 * stream for; it needs no array of ops, so a million-op list streams in
 * constant memory (but for the chart, which keeps a point per kernel).
 */
#ifndef RL_PIPELINE_H
#define RL_PIPELINE_H

#include <stddef.h>
#include <stdio.h>

#include "chart.h"
#include "err.h"
#include "fusion.h"
#include "hwdb.h"
#include "memfit.h"
#include "parallel.h"
#include "op.h"
#include "report.h"
#include "scale.h"
#include "step.h"
#include "summary.h"
#include "timeline.h"
#include "train.h"

struct rl_symbols;

/* What the ops are predicted on. Borrowed: must outlive the pipeline. */
struct rl_pipeline_model {
	const struct rl_device *dev;
	const struct rl_runtime *rt; /* its id names the runtime in reports */
	double host_overhead_us;     /* per kernel launch: RT's, or overridden */
	const struct rl_effprof *eff; /* the expected times' profile; NULL: none */
	const double *host_kind_us;  /* [RL_HOST_KEY_COUNT]: per launch of each
	                              * host key (op.h); NULL: host_overhead_us for all */
	const double *host_extra_us; /* [RL_HOST_KEY_COUNT]: per fresh call of each
	                              * host key (op.h fresh); NULL: none */
	const rl_hwdb *db;           /* the runtime profiles the timeline
	                              * simulates; needed only with timeline */
	int best_case;               /* 1: expected times are the roofline's
	                              * (--best-case) */
	const char *expected_source; /* where expected times come from, for the
	                              * report's header; NULL: not said */
	const struct rl_train_opts *train; /* a training step (train.h): each
	                              * forward op is followed, after the last,
	                              * by its backward ops in reverse order, then
	                              * the optimizer; NULL: the list as it is */
	const struct rl_net *net;    /* the interconnect of collectives (a system
	                              * or the device's NVLink); NULL: none */
	const char *interconnect;    /* the system, for the report's header;
	                              * NULL: not said */
	const char *impl;            /* NULL, or the implementation a model's
	                              * step was built for (report.h) */
	const struct rl_parallel_place *parallel; /* the layout the ops are one
	                              * GPU's share of (parallel.h), for the
	                              * report; with train and dp > 1, the
	                              * gradient all-reduce's buckets join the
	                              * backward pass as the gradients are
	                              * produced (overlap=1); NULL: one GPU */
};

/* Where the kernels go. Every sink is optional; pointers are borrowed. */
struct rl_pipeline_sinks {
	FILE *out;                      /* the report (or the scaling report); NULL: none */
	enum rl_format fmt;             /* of the report: table, csv, json, md or html */
	int wide;                       /* table: every column, names uncut */
	int l2;                         /* predict L2-resident kernels from the L2 */
	int timeline;                   /* simulate one step per runtime profile of the
	                                 * model's db (plus the recorded host times when the
	                                 * columns have host_us), written after the summary */
	int suggest;                    /* propose fusion groups (--suggest-fusion) */
	int whatif;                     /* table, md: the fusion what-if after the report */
	rl_chart *chart;                /* each kernel is added to it */
	struct rl_step *step;           /* a trace's measured step (rl_step_timeline
	                                 * done by the caller): each kernel is added, and
	                                 * the report and the timeline show it */
	const struct rl_symbols *scale; /* scale factors (symbols.h): the report
	                                 * is the scaling report, table or csv */
	const char *scale_label;        /* "B x2", names the factors */
	const char *appendix;           /* html: NULL, or text the command writes after
	                                 * table and md reports (report's host advice),
	                                 * a section of the page; borrowed */
	int memfit;                     /* table, md, json: the memory the step needs
	                                 * (memfit.h) in the summary (not with a scale
	                                 * or a step) */
};

/* The op stream's columns, as the report shows them. Copied by begin. */
struct rl_pipeline_columns {
	const char *input; /* the stream's name in messages */
	size_t nextra;     /* columns carried through to csv, json */
	const char *const *extra_names;
	int has_measured; /* ops may carry measured_us */
	int has_host;     /* ops may carry host_us */
	int has_phase;    /* ops may carry a phase other than forward */
};

typedef struct rl_pipeline rl_pipeline;

/* Starts a pipeline: copies COLS, adds the timeline's lanes and begins the
 * report on SINKS->out. Returns 0, RL_ERR_NOMEM, or RL_ERR_IO (the report's
 * first lines could not be written); *OUT is NULL on failure. */
int rl_pipeline_begin(const struct rl_pipeline_model *m, const struct rl_pipeline_sinks *sinks,
                      const struct rl_pipeline_columns *cols, rl_pipeline **out);

/* Feeds one op (borrowed for the call only). Returns 0 or a negative status;
 * when ERR->code is then negative too, ERR holds a message located at the
 * op ("INPUT:LINE: ..."), else (RL_ERR_NOMEM, RL_ERR_IO) ERR->code is 0. An
 * op that cannot join its fusion group, or cannot be scaled, is
 * RL_ERR_PARSE or RL_ERR_RANGE; so is a kernel whose count would carry the
 * summary's total of occurrences past 2^64 - 1 (summary.h), located at the
 * kernel's line (a fusion group's: its first op's). Feeding may go on (to
 * collect more errors) but the output is then incomplete. */
int rl_pipeline_op(rl_pipeline *pl, const struct rl_op *op, struct rl_err *err);

/* Emits the last fusion group, finishes the timeline (and sets the measured
 * step on it), writes the summary and, with whatif, the fusion what-if.
 * Returns 0 or as rl_pipeline_op. */
int rl_pipeline_end(rl_pipeline *pl, struct rl_err *err);

/* What the pipeline has accumulated: complete after rl_pipeline_end. */
const struct rl_summary *rl_pipeline_summary(const rl_pipeline *pl);
const struct rl_timeline *rl_pipeline_timeline(const rl_pipeline *pl);
/* The memory the step needs (memfit.h): every forward op fed, before
 * fusion, and with a training step its gradients, optimizer state, master
 * weights and saved activations. */
const struct rl_memfit *rl_pipeline_memfit(const rl_pipeline *pl);
const struct rl_fuse_stream *rl_pipeline_fusion(const rl_pipeline *pl);
const struct rl_scale_sum *rl_pipeline_scale_sum(const rl_pipeline *pl); /* with a scale */

void rl_pipeline_free(rl_pipeline *pl);

#endif
