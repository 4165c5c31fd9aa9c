/* whatif_report.h - writers for the what-if analyses of classify: the fusion
 * groups of the op list and the proposed ones (fusion.h), and the
 * batch-scaling report (scale.h).
 *
 * They format what the model produced and compute nothing new beyond sums
 * and differences. The FILE stays the caller's.
 */
#ifndef RL_WHATIF_REPORT_H
#define RL_WHATIF_REPORT_H

#include <stdio.h>

#include "fusion.h"
#include "hwdb.h"
#include "scale.h"

/* Writes, after a table (MD 0) or markdown (MD 1) report whose predicted
 * total is TOTAL_US, the groups of the list (if any) and, when S suggested,
 * the proposals: per group its members, count, time of one occurrence
 * unfused and fused, and the count-weighted time saved; the ten largest
 * savings, then the sum over all. Returns 0 or RL_ERR_IO. */
int rl_whatif_fusion(FILE *out, const struct rl_fuse_stream *s, double total_us, int md);

/* The batch-scaling report (--scale): CSV 0 a table of at most 80 columns
 * with a summary, CSV 1 one csv line per op and no summary. LABEL names the
 * factors ("B x2"). Times are the expected ones (expected_us; the roofline's
 * with BEST_CASE, which the table's header says). Each returns 0 or
 * RL_ERR_IO. */
int rl_scale_report_begin(FILE *out, int csv, const struct rl_device *dev, const char *runtime,
                          double host_overhead_us, const double *host_kind_us, const char *label,
                          int best_case);
int rl_scale_report_row(FILE *out, int csv, const struct rl_op *op, const struct rl_pred *base,
                        const struct rl_pred *scaled, enum rl_scale_verdict v);
int rl_scale_report_end(FILE *out, int csv, const struct rl_scale_sum *s, const char *label);

#endif
