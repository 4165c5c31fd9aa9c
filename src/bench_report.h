/* bench_report.h - writing a benchmark recording for people (table), for
 * spreadsheets (csv, one row per measurement) and for tools (json: the
 * recording itself, bench.h), against a reference device: each figure
 * beside the roof the reference gives it, each sweep beside the curve the
 * model predicts on the reference, and the knees compared.
 */
#ifndef RL_BENCH_REPORT_H
#define RL_BENCH_REPORT_H

#include <stdio.h>

#include "bench.h"
#include "hwdb.h"

enum rl_bench_format {
	RL_BENCH_FMT_TABLE,
	RL_BENCH_FMT_CSV,
	RL_BENCH_FMT_JSON,
	RL_BENCH_FMT_SWEEP, /* one sweep as an op list with measured_us, for plot --sweep */
};

/* The reference figure of E on D in the unit of E's figure (GB/s for memory
 * and L2, TFLOPS for vector pipes, the multiply-only pipe at half the FMA
 * peak as the model rates it, and GEMMs by dtype); 0 when D is NULL or has
 * none, as for every launch figure. */
double rl_bench_reference(const struct rl_bench_entry *e, const struct rl_device *d);

/* The measured and the predicted knee of a sweep. */
struct rl_knee {
	double measured_repeat, measured_intensity;   /* from the sweep's roofs */
	double predicted_repeat, predicted_intensity; /* the model's ridge on the device,
	                                               * vector pipe without FMA */
	double log2_ratio;                            /* log2(measured / predicted) repeat */
	int within_2x;                                /* |log2_ratio| <= 1 */
};

/* Compares sweep S with the model on D. Returns 0, or RL_ERR_ARG when D is
 * NULL or has no pipe for the sweep's dtype (K then holds the measured side
 * only). */
int rl_bench_knee(const struct rl_sweep *s, const struct rl_device *d, struct rl_knee *k);

/* Writes B in FMT to F; REF may be NULL (no reference columns). SWEEP is
 * the dtype of the sweep RL_BENCH_FMT_SWEEP writes. Returns 0, RL_ERR_IO, or
 * RL_ERR_NOTFOUND (B has no sweep of that dtype; message in ERR). */
int rl_bench_report(FILE *f, const struct rl_bench *b, const struct rl_device *ref,
                    enum rl_bench_format fmt, const char *sweep, struct rl_err *err);

#endif
