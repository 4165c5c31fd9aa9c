/* generate_report.h - the writer of a generation's times (roofline model
 * --generate): a block (table, md) or one object (json).
 *
 * Layer 3: formats what generate.c computed; computes nothing new.
 */
#ifndef RL_GENERATE_REPORT_H
#define RL_GENERATE_REPORT_H

#include <stdio.h>

#include "generate.h"
#include "report.h"

/* Writes G to OUT as FMT: RL_FMT_TABLE a block of the prefill (time to
 * first token), the mean time per output token ("-" without a decode
 * step), the total and the throughput, expected and roofline, in us and
 * tokens/s; RL_FMT_MD the same as a table; RL_FMT_JSON one line
 * {"generate":{...}}, per_token_us null without a decode step. Table and md
 * add a note when some decode steps were integrated, not evaluated (the
 * estimated error in %). Returns 0, or RL_ERR_ARG for a format that is none
 * of these (csv). */
int rl_generate_report_write(FILE *out, enum rl_format fmt, const struct rl_generate *g);

#endif
