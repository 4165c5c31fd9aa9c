/* whatif_report.h - writers for the what-if analyses of classify: the fusion
 * groups of the op list and the proposed ones (fusion.h).
 *
 * They format what the model produced and compute nothing new beyond sums
 * and differences. The FILE stays the caller's.
 */
#ifndef RL_WHATIF_REPORT_H
#define RL_WHATIF_REPORT_H

#include <stdio.h>

#include "fusion.h"

/* Writes, after a table (MD 0) or markdown (MD 1) report whose predicted
 * total is TOTAL_US, the groups of the list (if any) and, when S suggested,
 * the proposals: per group its members, count, time of one occurrence
 * unfused and fused, and the count-weighted time saved; the ten largest
 * savings, then the sum over all. Returns 0 or RL_ERR_IO. */
int rl_whatif_fusion(FILE *out, const struct rl_fuse_stream *s, double total_us, int md);

#endif
