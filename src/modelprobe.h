/* modelprobe.h - one model step run again and again at other sizes: the
 * largest batch that fits (roofline model --max-batch), a generation
 * (--generate) and a sweep (--sweep).
 *
 * Layer 4: each probe is a step of modelstep.c through a pipeline without
 * output (struct rl_modelstep's sinks NULL), read for its summary and
 * memory; the arithmetic over the steps is memfit.c's search, generate.c's
 * sum and sweep.c's rows. Prints nothing: errors of a step go to ERRS (the
 * first is the cause, as rl_modelstep_run says), the probe's own to ERR.
 */
#ifndef RL_MODELPROBE_H
#define RL_MODELPROBE_H

#include <stdint.h>
#include <stdio.h>

#include "generate.h"
#include "modelstep.h"
#include "report.h"
#include "sweep.h"

/* What roofline model is asked to do, beside the step's sizes: the probes
 * and the outputs they exclude. */
struct rl_modelprobe_modes {
	int max_batch;     /* --max-batch */
	uint64_t generate; /* --generate N; 0: not given */
	size_t sweep;      /* --sweep's values; 0: not given */
	int oplist;        /* -f oplist */
	int csv;           /* -f csv */
	int timeline;      /* --timeline */
	int parallel;      /* --tp, --pp, --dp, --ep or --microbatches given */
	int train;         /* --train */
	int context;       /* --context given */
	int phase;         /* --phase given (its value in the step's phase) */
	int html;          /* -f html */
	int pipeline;      /* --pp above 1, --microbatches or --virtual-stages */
};

/* Whether MODES combine for step MO (its phase, weight dtype, batch and seq
 * as given): 0, or RL_ERR_ARG with ERR the first conflict, naming the
 * options ("--max-batch writes one line, not an op list"; --generate past
 * the largest context: rl_generate_check's). */
int rl_modelprobe_modes_check(const struct rl_modelprobe_modes *modes,
                              const struct rl_modelops_opts *mo, struct rl_err *err);

/* --max-batch's answer. */
struct rl_modelprobe_max_batch {
	uint64_t batch;      /* the largest batch that fits, 0 when batch 1 does
	                      * not; at most RL_MODELOPS_MAX_SIZE */
	int capped;          /* batch is RL_MODELOPS_MAX_SIZE: the search, not
	                      * the memory, stopped there */
	int more;            /* capped, and the memory would allow one more:
	                      * the step's memory x (B + 1) / B fits (the
	                      * weights stay, the rest grows at most in
	                      * proportion) */
	double step_us;      /* the step at batch (1 when none fits): expected */
	double roofline_us;  /* and roofline, us */
	double memory_bytes; /* its memory (memfit.h) */
	double device_bytes; /* the device's */
};

/* The largest batch from 1 to RL_MODELOPS_MAX_SIZE whose step MO (its batch
 * replaced) of S fits S->model->dev's memory (rl_memfit_max_batch), and the
 * step at that batch, into *R. With a layout (MO->par, without stages: tp,
 * dp, ep), the batch is the whole step's, a multiple of dp: each candidate
 * is dp x the sequences of one replica, the layout placed again for it on
 * S->model's interconnect, and the memory is one GPU's. Returns 0;
 * RL_ERR_ARG (ERR: the device gives no memory_gib); RL_ERR_RANGE (ERR:
 * batch 1, or dp, does not fit, R filled for it); or a step's negative
 * status (ERRS). */
int rl_modelprobe_max_batch(const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                            struct rl_modelprobe_max_batch *r, struct rl_errlist *errs,
                            struct rl_err *err);

/* Writes R as one line: "max batch B[ (the largest batch searched[; memory
 * would allow more])]: step X us expected, Y us roofline; memory M of D
 * GiB". */
void rl_modelprobe_max_batch_write(FILE *out, const struct rl_modelprobe_max_batch *r);

/* A warning (e.g. rl_ops_sink.warn's): MSG, without a prefix. */
typedef void (*rl_modelprobe_warn_fn)(const char *msg, void *user);

/* --generate TOKENS: the prefill of MO->seq tokens at MO->batch, then the
 * TOKENS - 1 decode steps at contexts seq to seq + TOKENS - 2
 * (rl_generate_run over steps of S), into *G. First the prefill and the last
 * decode step (the largest memory of all) are run, and WARN (NULL: none) is
 * called for each that does not fit: "warning: --generate: the prefill needs
 * X GiB, over the device's Y GiB" ("the last decode step"). Returns 0,
 * RL_ERR_RANGE (ERR: the spec, rl_generate_check), or a step's negative
 * status (ERRS). */
int rl_modelprobe_generate(const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                           uint64_t tokens, rl_modelprobe_warn_fn warn, void *user,
                           struct rl_generate *g, struct rl_errlist *errs, struct rl_err *err);

/* Which size of the step a sweep sets. */
enum rl_modelprobe_size {
	RL_MODELPROBE_BATCH,
	RL_MODELPROBE_SEQ,     /* the prompt; at decode the context follows it */
	RL_MODELPROBE_CONTEXT, /* the decode step's KV length */
};

/* --sweep ARG (sweep.h's rl_sweep_parse): NAME batch, seq or context, each
 * value at most RL_MODELOPS_MAX_SIZE. Returns 0, or RL_ERR_PARSE /
 * RL_ERR_RANGE with ERR saying why (naming --sweep). */
int rl_modelprobe_sweep_parse(const char *arg, struct rl_sweep_spec *sw, struct rl_err *err);

/* The size that --sweep NAME sets in step MO of CFG (CTX_GIVEN: --context
 * was given) into *WHICH: batch; seq at prefill, or at decode without
 * --context (the context following it), not for vit (its tokens come from
 * the image); context at decode. Returns 0, or RL_ERR_ARG with ERR saying
 * why NAME does not apply ("--sweep context: the prefill step has no
 * context: sweep seq"). */
int rl_modelprobe_sweep_size(const char *name, const struct rl_hfconfig *cfg,
                             const struct rl_modelops_opts *mo, int ctx_given,
                             enum rl_modelprobe_size *which, struct rl_err *err);

/* --sweep: the step MO of S at every value of SW, the size WHICH set to it
 * (the command checks that it applies to the step), into a table written to
 * OUT as FMT (sweep_report.h), titled with the config, the phase, the sizes
 * not swept, the device and S->model->rt's id. Tokens per step: batch at
 * decode, batch x seq at prefill. Returns 0, RL_ERR_NOMEM, RL_ERR_IO (the
 * writer), or a step's negative status (ERRS). */
int rl_modelprobe_sweep(const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                        const struct rl_sweep_spec *sw, enum rl_modelprobe_size which,
                        enum rl_format fmt, FILE *out, struct rl_errlist *errs);

#endif
