/* column.h - the per-op output columns of the op-list report: one table of
 * every column (its name, type, getter, the formats that carry it and how the
 * table and md format it), in the way tmux's format_table[] lists its
 * variables. report.c writes the csv and json rows by walking the table and
 * the table and md rows through layouts (lists of column ids) over it.
 */
#ifndef RL_COLUMN_H
#define RL_COLUMN_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "op.h"

/* Every column, in json's key order. A new column is an id here and a row of
 * rl_columns in column.c (HACKING.md, "Adding an output column"). */
enum rl_col {
	RL_COL_NAME,
	RL_COL_KIND,
	RL_COL_DTYPE,
	RL_COL_PHASE,
	RL_COL_OP_COUNT, /* "count": occurrences */
	RL_COL_FLOPS,
	RL_COL_BYTES,
	RL_COL_INTENSITY,
	RL_COL_UNIT,
	RL_COL_PIPE,
	RL_COL_FALLBACK,
	RL_COL_PEAK_TFLOPS,
	RL_COL_RIDGE,
	RL_COL_BANDWIDTH,
	RL_COL_T_COMPUTE,
	RL_COL_T_MEMORY,
	RL_COL_T_OVERHEAD,
	RL_COL_T_LAUNCH,
	RL_COL_T_GPU,
	RL_COL_T,
	RL_COL_BOUND,
	RL_COL_RANKS,
	RL_COL_NODES,
	RL_COL_T_NETWORK,
	RL_COL_T_NET_INTRA,
	RL_COL_T_NET_INTER,
	RL_COL_T_NET_LATENCY,
	RL_COL_ATTAINABLE_TFLOPS,
	RL_COL_L2_RESIDENT,
	RL_COL_L2_BYTES,
	RL_COL_L2_SAVED,
	RL_COL_EXPECTED_GPU,
	RL_COL_EXPECTED,
	RL_COL_EXPECTED_BOUND,
	RL_COL_EXPECTED_NOTE,
	RL_COL_ADVICE,
	RL_COL_MEASURED,
	RL_COL_ROOFLINE_PCT,
	RL_COL_MEASURED_OVER_EXPECTED,
	RL_COL_MEASURED_OVER_ROOFLINE,
	RL_COL_HOST,
	RL_COL_LINE,
	RL_COL_EXPECTED_KERNELS, /* json only: after the others, where its
	                          * objects have always ended */
	RL_COL_COUNT /* the number of columns */
};

/* What a getter yields; csv and json each write it their way (a bool is
 * 1/0 in csv, true/false in json; a non-finite number "inf" in csv, null in
 * json). */
enum rl_col_type { RL_COL_STR, RL_COL_NUM, RL_COL_U64, RL_COL_BOOL };

union rl_col_val {
	const char *s; /* borrowed from the op or a static string */
	double n;
	uint64_t u;
	int b;
};

/* The op a getter reads, and what of the report it needs. */
struct rl_col_row {
	const struct rl_op *op;
	const struct rl_pred *p;
	int has_phase; /* the report's ops carry a phase */
	int l2;        /* --l2: l2_saved_us is a figure of the prediction */
};

/* Which formats carry a column. Table and md carry the columns their layouts
 * (report.c) name. */
#define RL_COLF_CSV 0x1u
#define RL_COLF_JSON 0x2u
/* html's op table: csv's columns, then these (html.h) */
#define RL_COLF_HTML 0x8u
/* Not a format: the getter's string has static storage (a kind's, a bound's
 * name, an advice), so that a writer may keep its encoding by address. */
#define RL_COLF_STATIC 0x4u

/* When csv has the column at all: always, or when the op list has measured
 * times, host times, phases (its header is fixed before the first op). Json
 * has a key where the op has a value. */
enum rl_col_when { RL_COLW_ALWAYS, RL_COLW_MEASURED, RL_COLW_HOST, RL_COLW_PHASE };

/* How the table and md write a value ("-" where the op has none): as it is,
 * microseconds (rl_fmt_us), two or no decimals, an intensity, a ratio; the
 * op's name cut to the column's width with the L2 mark, followed by the L2
 * mark, or escaped for md with the mark; the kind cut to 9 columns; the
 * dtype with the fallback mark; the expected bound with the mark of a
 * roofline bound that differs; a count in 5 columns (123k); GFLOP or MB to
 * 4 significant digits. */
enum rl_col_style {
	RL_STYLE_DEFAULT, /* in a layout: the column's own style */
	RL_STYLE_TEXT,
	RL_STYLE_US,
	RL_STYLE_FIXED2,
	RL_STYLE_FIXED0,
	RL_STYLE_INTENSITY,
	RL_STYLE_RATIO,
	RL_STYLE_NAME_CUT,
	RL_STYLE_NAME_L2,
	RL_STYLE_NAME_MD,
	RL_STYLE_KIND9,
	RL_STYLE_DTYPE_FB,
	RL_STYLE_BOUND_DIFF,
	RL_STYLE_COUNT5,
	RL_STYLE_GIGA4,
	RL_STYLE_MEGA4
};

struct rl_column {
	const char *name;       /* csv header and json key */
	enum rl_col_type type;
	unsigned formats;       /* RL_COLF_* */
	int csv_pos;            /* its place among csv's columns, from 1; 0 when
	                         * csv does not carry it */
	enum rl_col_when when;  /* csv: the list-level condition */
	enum rl_col_style style; /* table and md, unless a layout says */
	/* Sets *V from ROW; returns 1, or 0 when the op has no value (csv: an
	 * empty cell; json: no key; table: "-"). */
	int (*get)(const struct rl_col_row *row, union rl_col_val *v);
	const char *doc;        /* one line for docs and --help: what it is, units */
};

/* The table, indexed by enum rl_col. */
extern const struct rl_column rl_columns[RL_COL_COUNT];

/* The text csv writes for column C of ROW, before quoting: a string the
 * op or a static holds, or the number written into BUF (at least 32
 * bytes); NULL when the op has no value (csv's empty cell). */
const char *rl_column_text(const struct rl_column *c, const struct rl_col_row *row, char *buf);

/* The column named NAME (csv header, json key), or -1. */
int rl_column_find(const char *name);

#endif
