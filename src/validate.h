/* validate.h - checking the model's verdicts against the GPU, op by op.
 *
 * An op list (the built-in set, or the user's) becomes synthetic ops
 * (synth.h) that do each row's work; each is timed on the GPU, and the
 * measurement is set beside the model's prediction on a device:
 *   error      = (predicted t_us - measured wall) / measured wall
 *   empirical bound: overhead when the per-op wall time of a back-to-back
 *              launch loop exceeds 1.5 x the kernel's own GPU time;
 *              otherwise compute or memory by which is larger, the achieved
 *              FLOP/s over the op's compute roof (model.h: the pipe's peak,
 *              halved for vector work without FMA) or the achieved bytes/s
 *              over the memory roof.
 * A validation run is recorded (JSON: the op list as CSV text and the
 * measurements) so that its report can be derived again on any machine and
 * against any device file (validate --from FILE --hw ...).
 */
#ifndef RL_VALIDATE_H
#define RL_VALIDATE_H

#include <stdio.h>

#include "gpu.h"
#include "model.h"
#include "oplist.h"
#include "synth.h"

/* The overhead rule: wall / gpu above this is overhead-bound. */
#define RL_VALIDATE_OVERHEAD_RATIO 1.5
/* Ops whose measured time is at least this long enter the "long" error
 * statistics (the accuracy goal is stated for them). */
#define RL_VALIDATE_LONG_US 20.0

/* The built-in op list (CSV text, docs/validate.md describes it). */
const char *rl_validate_builtin(void);

/* One op of a validation. */
struct rl_vop {
	const struct rl_op *op;
	struct rl_synth spec;
	int runnable;             /* spec is valid */
	char why[RL_ERR_MSG_MAX];  /* why not runnable */
	int measured;             /* m holds a measurement */
	struct rl_synth_result m;
	/* from rl_validate_eval */
	struct rl_pred pred;
	double err;               /* (pred.t_us - m.wall_us) / m.wall_us */
	enum rl_bound empirical;
	double compute_frac;      /* achieved FLOP/s / compute roof */
	double memory_frac;       /* achieved bytes/s / memory roof */
};

/* The synthetic op of OP: 0, or RL_ERR_UNSUPPORTED with the reason in ERR
 * (a kind with no synthetic kernel, explicit flops or bytes, more launches
 * than one, a fuse group; with LIVE, also what rl_synth_supported refuses,
 * which needs the CUDA build). */
int rl_validate_spec(const struct rl_op *op, struct rl_synth *s, int live, struct rl_err *err);

/* A validation: the op list and one rl_vop per op. */
struct rl_validation {
	char version[16], date[32];
	struct rl_gpu gpu;
	char *csv;                /* the op list as read (owned) */
	struct rl_oplist list;
	struct rl_vop *v;         /* list.n entries */
};

/* Reads CSV (the op list text; NAME for messages) into *V with a spec per
 * op (LIVE as for rl_validate_spec). Errors of the op list are in ERRS.
 * Returns 0 or a negative status; release *V either way. */
int rl_validation_init(struct rl_validation *v, const char *csv, const char *name, int live,
                       struct rl_errlist *errs);
void rl_validation_release(struct rl_validation *v);

/* Predicts every measured op of V on CTX and evaluates it (above). */
void rl_validate_eval(struct rl_validation *v, const struct rl_model_ctx *ctx);

struct rl_vsummary {
	size_t n, measured, failed_checks, skipped;
	size_t n_long;                            /* measured ops >= RL_VALIDATE_LONG_US */
	double median_err, p90_err;               /* of |err|, measured ops */
	double median_err_long, p90_err_long;     /* of |err|, long ops */
	size_t confusion[RL_BOUND_COUNT][RL_BOUND_COUNT]; /* [predicted][measured] */
	size_t agree;
	double agreement;                         /* agree / measured */
};

void rl_validate_summary(const struct rl_validation *v, struct rl_vsummary *s);

/* JSON recording: writes V (ops CSV, measurements, and the evaluated
 * figures for readers); reads it back (evaluated figures ignored). */
int rl_validation_write_json(FILE *f, const struct rl_validation *v, const char *device_id);
int rl_validation_read(const char *path, struct rl_validation *v, struct rl_errlist *errs,
                       struct rl_err *err);

enum rl_vformat { RL_VFMT_TABLE, RL_VFMT_CSV, RL_VFMT_JSON, RL_VFMT_MD };

/* Writes the report of an evaluated V, predicted on device DEV_ID with
 * HOST_US of host cost per launch, in FMT. */
int rl_validate_report(FILE *f, const struct rl_validation *v, const char *dev_id,
                       double host_us, enum rl_vformat fmt);

#endif
