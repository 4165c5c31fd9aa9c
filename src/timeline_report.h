/* timeline_report.h - writers for a simulated step (timeline.h): one row per
 * runtime side by side, then the measured step when there is one.
 *
 * The table and md forms follow a classify or report summary; the json form
 * is a value that a json writer embeds under its "timeline" key. There is no
 * csv form: csv output is one row per op and carries no summary. The writers
 * borrow the timeline (finished with rl_timeline_finish) and compute nothing
 * but the differences and shares they print.
 */
#ifndef RL_TIMELINE_REPORT_H
#define RL_TIMELINE_REPORT_H

#include <stdio.h>

#include <yajl/yajl_gen.h>

#include "timeline.h"

/* Writes TL to OUT as a table (MD 0) or a markdown section (MD 1), starting
 * with a blank line. Returns 0 or RL_ERR_IO. */
int rl_timeline_write(FILE *out, int md, const struct rl_timeline *tl);

/* Generates TL as one JSON object on G: {"runtimes": {ID: {...}, ...}} and,
 * when a measurement is present, "measured": {...}. */
void rl_timeline_json(yajl_gen g, const struct rl_timeline *tl);

#endif
