/* report_html.h - the html page of a classified op list, a model's step or
 * a trace (report.h's html format): the header, the summary, the roofline
 * chart, the simulated step's timeline, a trace's time per kind, the op
 * table and the table format's summary as text, in one self-contained page
 * (html.h). It streams as the other formats do: the op table's rows are
 * written as they come, and what needs the whole list (the summary, the
 * chart, the timeline) after them, placed above the table by the page's
 * style. report.c drives it; docs/html.md has the page.
 */
#ifndef RL_REPORT_HTML_H
#define RL_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "column.h"
#include "report.h"

typedef struct rl_html_report rl_html_report;

/* Starts the page on OUT: its head and header, and the op table's head
 * with the NCOLS columns COLS (copied) and INFO's extra columns. INFO is
 * borrowed until rl_html_report_free. Returns 0 or RL_ERR_NOMEM. */
int rl_html_report_begin(FILE *out, const struct rl_report_info *info, const enum rl_col *cols,
                         size_t ncols, rl_html_report **out_rep);

/* Writes ROW's table row (each cell the text csv writes, html.h) and keeps
 * its point for the chart and, with a timeline, its spans on the selected
 * runtime's lanes, read from the lane the caller has advanced by this op.
 * Returns 0, RL_ERR_NOMEM or RL_ERR_IO. */
int rl_html_report_row(rl_html_report *h, const struct rl_col_row *row);

/* Closes the op table and writes the summary of S, the chart, the
 * timeline, a trace's per-kind tables and TEXT (LEN bytes: the summary as
 * the table format writes it), and ends the page. Returns 0, RL_ERR_NOMEM
 * or RL_ERR_IO. */
int rl_html_report_end(rl_html_report *h, const struct rl_summary *s, const char *text,
                       size_t len);

void rl_html_report_free(rl_html_report *h);

#endif
