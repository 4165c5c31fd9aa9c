/* modelstep.h - one step of a Hugging Face config, as op list records:
 * written as text or handed to the pipeline (roofline model).
 *
 * Layer 4: the rows of modelops.c become op list v1 cells (oplist_write.h),
 * written as the text of "roofline model -f oplist", or turned into ops by
 * the reader's record step (rl_ops_row) and fed to a pipeline without any
 * text between: the same cells, the same checks, so that a step that model
 * predicts is exactly what classify makes of its -f oplist. Prints nothing.
 */
#ifndef RL_MODELSTEP_H
#define RL_MODELSTEP_H

#include <stdio.h>

#include "err.h"
#include "hfconfig.h"
#include "modelops.h"
#include "oplist.h"
#include "pipeline.h"

/* Writes ROWS (N of them, from rl_modelops_build with O) to F as op list
 * v1: a comment line naming CONFIG and the step (with O->train, that the
 * list is a training step's forward, for classify --train), the header,
 * one line per row (row i on line i + 3). */
void rl_modelstep_write(FILE *f, const char *config, const struct rl_modelops_opts *o,
                        const struct rl_modelops_row *rows, int n);

/* Rows made one at a time (classify --impl's components, component.h): a
 * reader over every column step_cells may fill, naming INPUT in messages
 * (borrowed). Returns 0 with *OUT (rl_ops_rows_free), or as
 * rl_ops_rows_new. */
int rl_modelstep_rows_new(const char *input, rl_ops_rows **out, struct rl_errlist *errs);

/* Row R, of a step of O's dtypes, as *OP through RD (from
 * rl_modelstep_rows_new): named NAME (NULL: R's name), on line LINE in
 * messages, with the reader's checks. Returns as rl_ops_row. */
int rl_modelstep_row_op(rl_ops_rows *rd, size_t line, const struct rl_modelops_row *r,
                        const struct rl_modelops_opts *o, const char *name, struct rl_op *op,
                        struct rl_errlist *errs);

/* What a step runs on. Borrowed: must outlive the calls. */
struct rl_modelstep {
	const char *config;                    /* the config's name in the list's
	                                        * comment line */
	const char *input;                     /* the list's name in messages, e.g.
	                                        * "CONFIG (op list)": its line N is
	                                        * line N of -f oplist */
	const struct rl_hfconfig *cfg;
	const struct rl_pipeline_model *model;
	const struct rl_pipeline_sinks *sinks; /* NULL: no sink (no output) */
};

/* Builds step MO of S->cfg and feeds its ops (row i as line i + 3 of
 * S->input) through a new pipeline on S->model and S->sinks, up to
 * rl_pipeline_end. Returns 0 with *PL the pipeline
 * (summary and memory fit complete; free it with rl_pipeline_free), or a
 * negative status with *PL NULL: the build's error (rl_modelops_build), the
 * reader's or the pipeline's in ERRS (the first of them is the cause), or
 * RL_ERR_NOMEM with ERRS possibly empty. */
int rl_modelstep_run(const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                     rl_pipeline **pl, struct rl_errlist *errs);

#endif
