/* sweep_report.h - writers for a sweep (sweep.h): table, csv, json, md, html.
 *
 * One row per swept value: the value, the expected step time and the best
 * case, items per step and per second where the table has items, the
 * expected time's share per bound, the memory the step needs and whether it
 * fits; then (table, md) the knee and the first value out of memory, which
 * json carries as "knee" and "out_of_memory" and csv leaves to its reader
 * (rl_sweep_read_csv, roofline plot --sweep-table). The csv's columns:
 *   NAME,step_us,roofline_us[,ITEMS_per_step,ITEMS_per_s,ITEMS_per_s_roofline],
 *   compute_pct,memory_pct,overhead_pct,weight_bytes,kv_bytes,
 *   activation_bytes,memory_bytes,device_bytes,fits
 * html is a page (html.h) of the table's notes, the chart of plot
 * --sweep-table and the csv's cells as a sortable table.
 * Machine formats (csv, json) carry no banner. The writers borrow the table
 * and compute nothing but the shares and rates they print.
 */
#ifndef RL_SWEEP_REPORT_H
#define RL_SWEEP_REPORT_H

#include <stdio.h>

#include "report.h"
#include "sweep.h"

/* Writes T to OUT as FMT. Returns 0, RL_ERR_NOMEM or RL_ERR_IO. */
int rl_sweep_report_write(FILE *out, enum rl_format fmt, const struct rl_sweep_table *t);

#endif
