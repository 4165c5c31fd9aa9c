/* kind_report.h - the writer of the op kinds an op list takes (roofline
 * kinds): each kind's keyword, shape, default FLOPs per element, pipe,
 * weights, flags and optional columns, read from the registry (kind.h).
 *
 * Layer 3: formats the rows of RL_KIND_MAP; computes nothing new.
 */
#ifndef RL_KIND_REPORT_H
#define RL_KIND_REPORT_H

#include <stdio.h>

#include "kind.h"
#include "report.h"

/* The optional op-list columns of the RL_KCOL_* bits COLS, in the bits'
 * order and each bit's columns in the order docs/oplist-format.md lists
 * them (RL_KCOL_WEIGHTS: "weight_dtype weight_group weight_count
 * trainable"), joined by SEP, into BUF of N bytes (NUL-terminated; only the
 * names that fit whole when N is too small). "" for none. Returns BUF. */
char *rl_kind_report_columns(unsigned cols, const char *sep, char *buf, size_t n);

/* Writes every kind an op list accepts (RL_KIND_MAP's, in its order; not
 * the output-only fused) to OUT as FMT:
 * - RL_FMT_TABLE: a heading and one aligned line per kind: kind, dims
 *   ("3-4"), shape form ("-" for any), default flops_per_element (where
 *   the kind takes the column, else "-": its FLOPs are a formula's), pipe
 *   (tensor for the matrix products, else vector), weights, kv_cache,
 *   fusable, collective ("yes"/"no"), and the columns last, space-separated
 *   ("-" for none);
 * - RL_FMT_CSV: the header "kind,min_dims,max_dims,shape_form,
 *   flops_per_element,pipe,weights,kv_cache,fusable,collective,columns",
 *   flags 0 or 1, an empty shape_form for any and flops_per_element where
 *   the kind does not take it, the columns space-separated;
 * - RL_FMT_JSON: one line {"kinds":[{...},...]} with the csv's fields,
 *   flags as booleans, shape_form and flops_per_element null where the
 *   csv's are empty, columns an array of names.
 * Returns 0, or RL_ERR_ARG for a format that is none of these (md),
 * RL_ERR_NOMEM when the JSON generator cannot be made. */
int rl_kind_report_write(FILE *out, enum rl_format fmt);

#endif
