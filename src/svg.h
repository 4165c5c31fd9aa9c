/* svg.h - SVG 1.1 writers for the charts laid out by chart.h: the roofline
 * chart and the intensity sweep. The writers borrow the chart and the FILE,
 * and write the whole document or fail; they print nothing else.
 */
#ifndef RL_SVG_H
#define RL_SVG_H

#include <stddef.h>
#include <stdio.h>

#include "chart.h"
#include "model.h"
#include "op.h"

/* Writes S to OUT as XML character data, and HTML's (safe in attributes
 * too): & < > " ' as entities; control characters (C0, DEL, C1) as spaces;
 * bytes that are not valid UTF-8, and the noncharacters (U+FDD0..U+FDEF,
 * U+xFFFE and U+xFFFF), as U+FFFD. With MAX_CHARS > 0, a text of more
 * characters is cut to MAX_CHARS - 1 and ends in an ellipsis. */
void rl_svg_text(FILE *out, const char *s, size_t max_chars);

/* The number of characters (code points) rl_svg_text writes for S. */
size_t rl_svg_text_len(const char *s, size_t max_chars);

/* Writes C's roofline chart (chart.h, rl_chart_layout): the memory roof and
 * one roof per pipe used, ridge points marked, one point per op with FLOPs
 * and bytes at its predicted FLOP/s (flops / t_us: on its roof unless
 * overhead-bound, then below it), coloured by bound, its area the op's share
 * of the predicted time, the longest ops labelled; with measured_us, the
 * measured point (flops / measured time) joined to it; the copies (no
 * FLOPs) counted in the legend with their share of the time. Returns 0,
 * RL_ERR_NOMEM or RL_ERR_IO. */
int rl_svg_roofline(FILE *out, const rl_chart *c);

/* rl_svg_roofline as an element of an HTML page (html.h): no XML
 * declaration, and each op's marks (its point, expected and measured
 * points) carry data-op, the op's 0-based position in the chart; only the
 * roofline's point has a tooltip (the page's script names the others'). */
int rl_svg_roofline_html(FILE *out, const rl_chart *c);

/* The colour the charts give bound B ("#rrggbb"). */
const char *rl_svg_bound_colour(enum rl_bound b);

/* The same from arrays: OPS[i] predicted as PREDS[i], for callers that hold
 * a whole list (a report). Returns as rl_svg_roofline. */
int rl_svg_roofline_ops(FILE *out, const struct rl_chart_info *info, const struct rl_op *ops,
                        const struct rl_pred *preds, size_t n);

/* Writes C's sweep chart (chart.h, rl_chart_sweep_layout): three panels
 * against one x axis, the predicted time, achieved FLOP/s (flops / time) and
 * achieved bandwidth (bytes / time) of each op, in file order, with the roofs
 * and the memory bandwidth as reference lines and measured values where
 * given. x is the op's flops_per_element when every op gives one above 0 (log
 * axis), else the op's position in the list, from 1 (linear axis), with a key
 * from the ticks to the ops' names. A panel without values says why. Returns
 * 0, RL_ERR_RANGE for a chart without ops, RL_ERR_NOMEM or RL_ERR_IO. */
int rl_svg_sweep(FILE *out, const rl_chart *c);

/* Writes the chart of a sweep table T (chart.h, rl_chart_sweeptab_layout),
 * read from SOURCE (a path or "<stdin>"; NULL: not said): items/s above
 * and the step time below against the swept value, expected (solid, points
 * coloured by the bound with the largest share, hollow where the step does
 * not fit) and best case (dashed); a vertical line where the step turns
 * compute-bound (the knee, id "knee") and where memory runs out (id "oom",
 * the values from there shaded), each labelled, when there are such values.
 * Returns 0, RL_ERR_RANGE for a table without rows, or RL_ERR_IO. */
int rl_svg_sweep_table(FILE *out, const struct rl_sweep_table *t, const char *source);

/* rl_svg_sweep_table as an element of an HTML page: no XML declaration. */
int rl_svg_sweep_table_html(FILE *out, const struct rl_sweep_table *t, const char *source);

#endif
