/* search_report.h - writing roofline search (search.h): table, csv, json
 * and html. One row per layout kept, the best first: its degrees (tp, pp,
 * dp, ep), micro-batches and their size, the interleaved chunks, the
 * tensor-parallel overlap and recomputation, the step, tokens/s, the
 * pipeline's bubble, the collectives' time and what of it the step waits
 * for, the memory a GPU needs and whether it fits; then (table, html) why
 * each of the others loses to the best. csv's columns:
 *   rank,tp,pp,dp,ep,microbatches,micro_batch,virtual_stages,
 *   tp_comm_overlap,recompute,step_us,gpu_step_us,tokens_per_s,bubble_pct,
 *   comm_us,exposed_comm_us,memory_bytes,fits
 * The writers borrow the result and compute nothing but the differences
 * they print.
 */
#ifndef RL_SEARCH_REPORT_H
#define RL_SEARCH_REPORT_H

#include <stdio.h>

#include "hwdb.h"
#include "report.h"
#include "search.h"

/* What was searched, for the header (borrowed). */
struct rl_search_info {
	const char *config;      /* the config's path */
	const char *step;        /* the step in words: "train, batch 64, seq 4096" */
	const char *system;      /* --hw as given (the system), or NULL */
	const struct rl_device *dev;
	const char *runtime;
	uint64_t gpus;
};

/* Writes R to OUT as FMT (table, csv, json, html; md is not written).
 * Returns 0, RL_ERR_ARG for md, RL_ERR_NOMEM or RL_ERR_IO. */
int rl_search_report_write(FILE *out, enum rl_format fmt, const struct rl_search_info *info,
                           const struct rl_search_result *r);

#endif
