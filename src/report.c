/* report.c - table, csv, json and md writers, and the dispatch to the html
 * page (report_html.c; see report.h). */
#include "config.h"

#include "report.h"

#include <csv.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>

#include "column.h"
#include "fmt.h"
#include "json.h"
#include "report_html.h"
#include "timeline_report.h"

/* The default table fits 80 columns: names are cut to this width. */
#define NAME_W 18

/* The errors against measured times are given over every op measured, and
 * over the ops measured at this many microseconds or more (the issue's
 * goals are on ops of 20 us or more: below, launch latency dominates). */
#define ERR_FLOOR_US 20.0

/* After the expected bound of an op whose roofline bound differs. */
#define DIFF_MARK "*"

/* After the name of an L2-resident op in table and md output. */
#define L2_MARK "^"

/* The most distinct quantised-path notes a table's footnote lists. */
#define RL_REPORT_QNOTES 8

struct layout_cell;

/* json: a key is written as a copy of this many bytes (its ,"name": is at
 * most 40, check_column) */
#define KEY_COPY 40

struct rl_report {
	FILE *out;
	enum rl_format fmt;
	struct rl_report_info info;
	/* distinct fallbacks seen (asked-for pipe, used pipe), for the footnote */
	enum rl_pipe fb_wanted[RL_PIPE_COUNT], fb_used[RL_PIPE_COUNT];
	size_t nfb;
	size_t bound_differs; /* rows marked DIFF_MARK */
	/* distinct notes of quantised paths (rl_pred.expected_assumed) and
	 * their ops, for the footnote */
	const char *qnote[RL_REPORT_QNOTES];
	size_t qnote_ops[RL_REPORT_QNOTES], nq;
	int has_measured; /* info.has_measured, info.has_host */
	int has_host;
	/* csv's and json's columns (column.h), in their order, and the
	 * lengths of their names */
	enum rl_col cols[RL_COL_COUNT];
	size_t ncols;
	/* json: each column's key as a row writes it after another, ,"name": */
	char keys[RL_COL_COUNT * 40 + KEY_COPY];
	size_t key_off[RL_COL_COUNT], key_len[RL_COL_COUNT];
	/* the static strings of RL_COLF_STATIC columns seen (by address): their
	 * length, and whether csv and json write them as they are */
	struct str_memo {
		const char *s;
		size_t len;
		int csv_plain, json_plain;
	} memo[64];
	size_t json_rows; /* rows written, for the comma before the next */
	/* the table's or md's cells, from its layout */
	const struct layout_cell *cells[RL_COL_COUNT];
	size_t ncells;
	char *line; /* the csv, table or md rows being built */
	size_t line_len, line_cap;
	int oom;
	struct rl_json_writer *jw;
	yajl_gen g; /* jw's generator */
	rl_html_report *html;
};

int rl_format_parse(const char *s, enum rl_format *out)
{
	static const char *const names[] = {"table", "csv", "json", "md", "html"};
	int i;

	for (i = 0; i < 5; i++) {
		if (strcmp(s, names[i]) == 0) {
			*out = (enum rl_format)i;
			return 0;
		}
	}
	return RL_ERR_ARG;
}

/* RFC 4180 quoting, plus blanks at either end (readers trim them). */
static int needs_quotes(const char *s)
{
	const char *p;

	if (*s == ' ' || *s == '\t')
		return 1;
	for (p = s; *p != '\0'; p++)
		if (*p == ',' || *p == '"' || *p == '\r' || *p == '\n')
			return 1;
	return p > s && (p[-1] == ' ' || p[-1] == '\t');
}

void rl_csv_field(FILE *out, const char *s)
{
	if (needs_quotes(s))
		csv_fwrite(out, s, strlen(s));
	else
		fputs(s, out);
}

static void fmt_intensity(char *buf, size_t len, double v)
{
	if (isinf(v))
		snprintf(buf, len, "inf");
	else if (v < 1e4)
		rl_fmt_fixed(buf, v, 2);
	else
		snprintf(buf, len, "%.3g", v);
}

static int has_measured(const rl_report *r)
{
	return r->has_measured;
}

/* Rows are built in memory (csv's, the table's, md's) and written in large
 * blocks: stdio's per-call cost dominated a million-row write, and the
 * kernel's cost per write its 4 KiB blocks (docs/performance.md). */
#define SPILL_BYTES (1u << 16)

static int line_reserve(rl_report *r, size_t more)
{
	if (r->line_len + more > r->line_cap) {
		size_t cap = r->line_cap ? r->line_cap : 256;
		char *grown;

		while (cap < r->line_len + more)
			cap *= 2;
		grown = realloc(r->line, cap);
		if (grown == NULL)
			return RL_ERR_NOMEM;
		r->line = grown;
		r->line_cap = cap;
	}
	return 0;
}

static inline void line_put(rl_report *r, const char *s, size_t n)
{
	if (r->line_len + n <= r->line_cap || line_reserve(r, n) == 0) {
		memcpy(r->line + r->line_len, s, n);
		r->line_len += n;
	} else {
		r->oom = 1;
	}
}

/* Appends S as a csv field, quoted by libcsv's csv_write when it needs
 * quotes. */
static void line_str(rl_report *r, const char *s)
{
	size_t n = strlen(s);

	if (!needs_quotes(s)) {
		line_put(r, s, n);
		return;
	}
	n = csv_write(NULL, 0, s, n);
	if (line_reserve(r, n) < 0) {
		r->oom = 1;
		return;
	}
	r->line_len += csv_write(r->line + r->line_len, n, s, strlen(s));
}

/* Moves the rows built so far to the stream. */
static void line_flush(rl_report *r)
{
	if (r->line_len > 0)
		fwrite(r->line, 1, r->line_len, r->out);
	r->line_len = 0;
}

/* After a row: the rows to the stream once there are SPILL_BYTES of them. */
static void line_spill(rl_report *r)
{
	if (r->line_len >= SPILL_BYTES)
		line_flush(r);
}

/* ---- table and md ---- */

static void wrap(FILE *out, const char *text, const char *first, const char *rest);
static void cut_name(char *buf, size_t len, const char *name, int w, char mark);
static void text_head(rl_report *r);

/* Expected times: the table's time and bound columns are the expected
 * ones (headed exp_us, exp_bound), and with measured times the ratios
 * measured / expected and measured / roofline replace roof%. With
 * --best-case, the roofline's columns as they always were. */
static int expected_cols(const rl_report *r)
{
	return !r->info.best_case;
}

static void table_begin(rl_report *r)
{
	const struct rl_device *d = r->info.dev;
	int x = expected_cols(r);

	if (r->fmt == RL_FMT_MD) {
		char host[64];

		rl_fmt_host(host, sizeof(host), r->info.host_overhead_us, r->info.host_kind_us);
		fprintf(r->out, "Device: %s (`%s`), runtime `%s` (%s host overhead per launch%s)%s\n\n",
		        d->name, d->id, r->info.runtime, host,
		        r->info.host_kind_us != NULL && strchr(host, '-') ? " by op kind" : "",
		        x ? "" : "; best case (roofline bounds)");
		if (r->info.expected_source != NULL)
			fprintf(r->out, "%s\n\n", r->info.expected_source);
		if (r->info.interconnect != NULL)
			fprintf(r->out, "%s\n\n", r->info.interconnect);
		text_head(r);
		return;
	}
	{
		char line[512], host[64];

		rl_fmt_host(host, sizeof(host), r->info.host_overhead_us, r->info.host_kind_us);
		snprintf(line, sizeof(line), "%s (%s), %s runtime: %s per launch%s", d->name, d->id,
		         r->info.runtime, host, strchr(host, '-') ? " by op kind" : "");
		wrap(r->out, line, "", "  ");
		if (!x)
			fputs("best case (roofline bounds): every time is the roofline's lower bound\n",
			      r->out);
		if (r->info.expected_source != NULL)
			wrap(r->out, r->info.expected_source, "", "  ");
		if (r->info.interconnect != NULL)
			wrap(r->out, r->info.interconnect, "", "  ");
	}
	text_head(r);
}

/* Copies NAME cut to W display columns (UTF-8 aware), with '~' marking a
 * cut; with MARK, cut to W - 1 columns and followed by MARK. */
static void cut_name(char *buf, size_t len, const char *name, int w, char mark)
{
	size_t i = 0, o = 0;
	int cols = 0, room = mark ? w - 1 : w;

	while (name[i] != '\0' && o + 5 < len) {
		size_t n = 1;

		while ((name[i + n] & 0xC0) == 0x80)
			n++;
		if (cols == room - 1 && name[i + n] != '\0') {
			buf[o++] = '~';
			cols++;
			break;
		}
		memcpy(buf + o, name + i, n);
		o += n;
		i += n;
		cols++;
	}
	if (mark && o + 2 < len)
		buf[o++] = mark, cols++;
	buf[o] = '\0';
	/* pad to W columns: printf's width counts bytes, not characters */
	while (cols++ < w && o + 1 < len)
		buf[o++] = ' ', buf[o] = '\0';
}

/* The kind in the table's 9 columns: a longer name (reducescatter) cut
 * with the table's mark, "reducesc~". */
static const char *table_kind(enum rl_kind k, char *buf, size_t len)
{
	const char *name = rl_kind_name(k);

	if (strlen(name) <= 9 || len < 10)
		return name;
	snprintf(buf, len, "%.8s~", name);
	return buf;
}

/* ---- the columns (column.h) ---- */

/* A cell of a table or md layout: a column of rl_columns, its heading, its
 * width (negative: left-aligned; md: its alignment only), how it is
 * written (RL_STYLE_DEFAULT: the column's style) and when the layout has it
 * (NEED_*: every bit must hold). */
#define NEED_X 0x1u      /* expected times (not --best-case) */
#define NEED_BEST 0x2u   /* --best-case */
#define NEED_MEAS 0x4u   /* the list has measured times */
#define NEED_NOMEAS 0x8u /* it has none */

struct layout_cell {
	enum rl_col id;
	const char *head;
	int width;
	enum rl_col_style style;
	unsigned need;
};

/* The default table: 80 columns. */
static const struct layout_cell narrow_layout[] = {
	{RL_COL_NAME, "name", -NAME_W, RL_STYLE_NAME_CUT, 0},
	{RL_COL_KIND, "kind", -9, RL_STYLE_KIND9, 0},
	{RL_COL_DTYPE, "dtype", -8, RL_STYLE_DTYPE_FB, 0},
	{RL_COL_OP_COUNT, "count", 5, RL_STYLE_COUNT5, NEED_NOMEAS},
	{RL_COL_INTENSITY, "FLOP/B", 7, RL_STYLE_DEFAULT, NEED_NOMEAS},
	{RL_COL_INTENSITY, "FLOP/B", 7, RL_STYLE_DEFAULT, NEED_MEAS | NEED_BEST},
	{RL_COL_EXPECTED, "exp_us", 9, RL_STYLE_DEFAULT, NEED_X},
	{RL_COL_T, "t_us", 9, RL_STYLE_DEFAULT, NEED_BEST},
	{RL_COL_EXPECTED_BOUND, "exp_bound", -9, RL_STYLE_BOUND_DIFF, NEED_X},
	{RL_COL_BOUND, "bound", -8, RL_STYLE_DEFAULT, NEED_BEST},
	{RL_COL_ATTAINABLE_TFLOPS, "TFLOP/s", 7, RL_STYLE_DEFAULT, NEED_NOMEAS},
	{RL_COL_MEASURED, "meas_us", 8, RL_STYLE_DEFAULT, NEED_MEAS | NEED_X},
	{RL_COL_MEASURED, "meas_us", 9, RL_STYLE_DEFAULT, NEED_MEAS | NEED_BEST},
	{RL_COL_MEASURED_OVER_EXPECTED, "m/exp", 5, RL_STYLE_DEFAULT, NEED_MEAS | NEED_X},
	{RL_COL_MEASURED_OVER_ROOFLINE, "m/roof", 6, RL_STYLE_DEFAULT, NEED_MEAS | NEED_X},
	{RL_COL_ROOFLINE_PCT, "roof%", 5, RL_STYLE_DEFAULT, NEED_MEAS | NEED_BEST},
};

/* --wide: every column, no truncation. */
static const struct layout_cell wide_layout[] = {
	{RL_COL_NAME, "name", -32, RL_STYLE_NAME_L2, 0},
	{RL_COL_KIND, "kind", -9, RL_STYLE_KIND9, 0},
	{RL_COL_DTYPE, "dtype", -8, RL_STYLE_DTYPE_FB, 0},
	{RL_COL_OP_COUNT, "count", 6, RL_STYLE_DEFAULT, 0},
	{RL_COL_FLOPS, "GFLOP", 10, RL_STYLE_GIGA4, 0},
	{RL_COL_BYTES, "MB", 10, RL_STYLE_MEGA4, 0},
	{RL_COL_INTENSITY, "FLOP/B", 8, RL_STYLE_DEFAULT, 0},
	{RL_COL_UNIT, "unit", -6, RL_STYLE_DEFAULT, 0},
	{RL_COL_T_COMPUTE, "t_comp_us", 10, RL_STYLE_DEFAULT, 0},
	{RL_COL_T_MEMORY, "t_mem_us", 10, RL_STYLE_DEFAULT, 0},
	{RL_COL_T_OVERHEAD, "t_ovh_us", 10, RL_STYLE_DEFAULT, 0},
	{RL_COL_T_GPU, "t_gpu_us", 10, RL_STYLE_DEFAULT, 0},
	{RL_COL_T, "t_us", 10, RL_STYLE_DEFAULT, 0},
	{RL_COL_BOUND, "bound", -8, RL_STYLE_DEFAULT, 0},
	{RL_COL_ATTAINABLE_TFLOPS, "TFLOP/s", 8, RL_STYLE_DEFAULT, 0},
	{RL_COL_EXPECTED_GPU, "exp_gpu_us", 10, RL_STYLE_DEFAULT, NEED_X},
	{RL_COL_EXPECTED, "exp_us", 10, RL_STYLE_DEFAULT, NEED_X},
	{RL_COL_EXPECTED_BOUND, "exp_bound", -9, RL_STYLE_BOUND_DIFF, NEED_X},
	{RL_COL_MEASURED, "meas_us", 10, RL_STYLE_DEFAULT, NEED_MEAS},
	{RL_COL_ROOFLINE_PCT, "roof%", 7, RL_STYLE_DEFAULT, NEED_MEAS},
	{RL_COL_MEASURED_OVER_EXPECTED, "m/exp", 6, RL_STYLE_DEFAULT, NEED_MEAS | NEED_X},
	{RL_COL_MEASURED_OVER_ROOFLINE, "m/roof", 6, RL_STYLE_DEFAULT, NEED_MEAS | NEED_X},
};

/* md: the widths give the alignment only. */
static const struct layout_cell md_layout[] = {
	{RL_COL_NAME, "name", -1, RL_STYLE_NAME_MD, 0},
	{RL_COL_KIND, "kind", -1, RL_STYLE_DEFAULT, 0},
	{RL_COL_DTYPE, "dtype", -1, RL_STYLE_DTYPE_FB, 0},
	{RL_COL_OP_COUNT, "count", 1, RL_STYLE_DEFAULT, 0},
	{RL_COL_INTENSITY, "FLOP/B", 1, RL_STYLE_DEFAULT, 0},
	{RL_COL_EXPECTED, "expected_us", 1, RL_STYLE_DEFAULT, NEED_X},
	{RL_COL_T, "t_us", 1, RL_STYLE_DEFAULT, NEED_BEST},
	{RL_COL_EXPECTED_BOUND, "expected bound", -1, RL_STYLE_BOUND_DIFF, NEED_X},
	{RL_COL_BOUND, "bound", -1, RL_STYLE_DEFAULT, NEED_BEST},
	{RL_COL_ATTAINABLE_TFLOPS, "TFLOP/s", 1, RL_STYLE_DEFAULT, 0},
	{RL_COL_MEASURED, "measured_us", 1, RL_STYLE_DEFAULT, NEED_MEAS},
	{RL_COL_MEASURED_OVER_EXPECTED, "measured / expected", 1, RL_STYLE_DEFAULT,
	 NEED_MEAS | NEED_X},
	{RL_COL_MEASURED_OVER_ROOFLINE, "measured / roofline", 1, RL_STYLE_DEFAULT,
	 NEED_MEAS | NEED_X},
	{RL_COL_ROOFLINE_PCT, "roofline %", 1, RL_STYLE_DEFAULT, NEED_MEAS | NEED_BEST},
};

/* Whether the list has column C at all (csv's header). */
static int col_listed(const rl_report *r, const struct rl_column *c)
{
	switch (c->when) {
	case RL_COLW_ALWAYS: return 1;
	case RL_COLW_MEASURED: return r->has_measured;
	case RL_COLW_HOST: return r->has_host;
	case RL_COLW_PHASE: return r->info.has_phase;
	}
	return 0;
}

/* Picks the report's columns: csv's in their csv order, json's in the
 * table's, the table's or md's from their layout. */
static void pick_columns(rl_report *r)
{
	const struct layout_cell *lay = NULL;
	size_t i, n = 0;
	unsigned have;

	switch (r->fmt) {
	case RL_FMT_CSV:
	case RL_FMT_HTML:
		for (i = 0; i < RL_COL_COUNT; i++) {
			const struct rl_column *c = &rl_columns[i];

			if ((c->formats & RL_COLF_CSV) && col_listed(r, c))
				r->cols[c->csv_pos - 1] = (enum rl_col)i, n++;
		}
		/* the positions of the conditions that do not hold leave holes */
		r->ncols = 0;
		for (i = 0; i < RL_COL_COUNT && r->ncols < n; i++)
			if (r->cols[i] != RL_COL_COUNT)
				r->cols[r->ncols++] = r->cols[i];
		/* html: then its own, in the table's order */
		for (i = 0; r->fmt == RL_FMT_HTML && i < RL_COL_COUNT; i++)
			if (rl_columns[i].formats & RL_COLF_HTML)
				r->cols[r->ncols++] = (enum rl_col)i;
		return;
	case RL_FMT_JSON:
		for (i = 0; i < RL_COL_COUNT; i++)
			if (rl_columns[i].formats & RL_COLF_JSON) {
				/* the names need no escapes (check_column) */
				size_t at = r->ncols ? r->key_off[r->ncols - 1] + r->key_len[r->ncols - 1] : 0;
				int kn = snprintf(r->keys + at, sizeof(r->keys) - at, ",\"%s\":",
				                  rl_columns[i].name);

				r->key_off[r->ncols] = at;
				r->key_len[r->ncols] = (size_t)kn;
				r->cols[r->ncols++] = (enum rl_col)i;
			}
		return;
	case RL_FMT_MD:
		lay = md_layout;
		n = sizeof(md_layout) / sizeof(md_layout[0]);
		break;
	case RL_FMT_TABLE:
		lay = r->info.wide ? wide_layout : narrow_layout;
		n = r->info.wide ? sizeof(wide_layout) / sizeof(wide_layout[0])
		                 : sizeof(narrow_layout) / sizeof(narrow_layout[0]);
		break;
	}
	have = (expected_cols(r) ? NEED_X : NEED_BEST) |
	       (has_measured(r) ? NEED_MEAS : NEED_NOMEAS);
	for (i = 0; i < n; i++)
		if ((lay[i].need & have) == lay[i].need)
			r->cells[r->ncells++] = &lay[i];
}

/* What csv and json make of the static string S: kept by its address, so
 * that the kind, bound and advice of a million rows are measured once. */
static const struct str_memo *memo_get(rl_report *r, const char *s)
{
	/* Fibonacci hashing of the address: static strings lie a few bytes
	 * apart, so the low bits alone would share slots */
	struct str_memo *m = &r->memo[((uint64_t)(uintptr_t)s * 0x9E3779B97F4A7C15u) >> 58];
	const char *c;

	if (m->s == s)
		return m;
	m->s = s;
	m->len = strlen(s);
	m->csv_plain = !needs_quotes(s);
	m->json_plain = 1;
	for (c = s; *c != '\0'; c++)
		if ((unsigned char)*c < 0x20 || *c == '"' || *c == '\\')
			m->json_plain = 0;
	return m;
}

/* ---- csv ---- */

static void csv_begin(rl_report *r)
{
	size_t i;

	for (i = 0; i < r->ncols; i++)
		fprintf(r->out, "%s%s", i ? "," : "", rl_columns[r->cols[i]].name);
	for (i = 0; i < r->info.nextra; i++) {
		fputc(',', r->out);
		rl_csv_field(r->out, r->info.extra_names[i]);
	}
	fputc('\n', r->out);
}

/* A csv row is built in memory after the rows before it and written in
 * large blocks (line_spill): stdio's per-call cost dominated a million-row
 * write, and the kernel's per-write cost its 4 KiB blocks. */
static void csv_row(rl_report *r, const struct rl_col_row *row)
{
	char b[32];
	size_t i;

	for (i = 0; i < r->ncols; i++) {
		const struct rl_column *c = &rl_columns[r->cols[i]];
		union rl_col_val v;

		if (i > 0)
			line_put(r, ",", 1);
		if (!c->get(row, &v))
			continue;
		switch (c->type) {
		case RL_COL_STR:
			if (c->formats & RL_COLF_STATIC) {
				const struct str_memo *m = memo_get(r, v.s);

				if (m->csv_plain) {
					line_put(r, v.s, m->len);
					break;
				}
			}
			line_str(r, v.s);
			break;
		case RL_COL_NUM:
			/* formatted in place: a number is at most 32 bytes */
			if (line_reserve(r, 32) == 0)
				r->line_len += rl_fmt_num(r->line + r->line_len, v.n);
			else
				r->oom = 1;
			break;
		case RL_COL_U64: line_put(r, b, rl_fmt_u64(b, v.u)); break;
		case RL_COL_BOOL: line_put(r, v.b ? "1" : "0", 1); break;
		}
	}
	for (i = 0; i < r->info.nextra; i++) {
		line_put(r, ",", 1);
		line_str(r, row->op->extra[i]);
	}
	line_put(r, "\n", 1);
	line_spill(r);
}

/* The text of CELL for ROW into BUF (LEN bytes, at least 4 * NAME_W + 8),
 * or borrowed; *SUFFIX gets a mark that follows it ("" for none). */
static const char *cell_text(const rl_report *r, const struct layout_cell *cell,
                             const struct rl_col_row *row, char *buf, size_t len,
                             const char **suffix)
{
	const struct rl_column *c = &rl_columns[cell->id];
	enum rl_col_style st = cell->style != RL_STYLE_DEFAULT ? cell->style : c->style;
	const struct rl_pred *p = row->p;
	union rl_col_val v;

	*suffix = "";
	if (!c->get(row, &v))
		return "-";
	switch (st) {
	case RL_STYLE_DEFAULT:
	case RL_STYLE_TEXT:
		switch (c->type) {
		case RL_COL_STR: return v.s;
		case RL_COL_NUM: rl_fmt_num(buf, v.n); return buf;
		case RL_COL_U64: rl_fmt_u64(buf, v.u); return buf;
		case RL_COL_BOOL: return v.b ? "1" : "0";
		}
		return "";
	case RL_STYLE_US: rl_fmt_us(buf, len, v.n); return buf;
	case RL_STYLE_FIXED2: rl_fmt_fixed(buf, v.n, 2); return buf;
	case RL_STYLE_FIXED0: rl_fmt_fixed(buf, v.n, 0); return buf;
	case RL_STYLE_INTENSITY: fmt_intensity(buf, len, v.n); return buf;
	case RL_STYLE_RATIO:
		if (v.n < 1e4)
			rl_fmt_fixed(buf, v.n, 2);
		else
			snprintf(buf, len, "%.3g", v.n);
		return buf;
	case RL_STYLE_NAME_CUT:
		cut_name(buf, len, v.s, cell->width < 0 ? -cell->width : cell->width,
		         p->l2_resident ? L2_MARK[0] : 0);
		return buf;
	case RL_STYLE_NAME_L2:
	case RL_STYLE_NAME_MD: /* escaped by md_cell */
		*suffix = p->l2_resident ? L2_MARK : "";
		return v.s;
	case RL_STYLE_KIND9: return table_kind(row->op->kind, buf, len);
	case RL_STYLE_DTYPE_FB: *suffix = p->fallback ? "*" : ""; return v.s;
	case RL_STYLE_BOUND_DIFF:
		*suffix = expected_cols(r) && p->expected_bound != p->bound ? DIFF_MARK : "";
		return v.s;
	case RL_STYLE_COUNT5:
		/* 5 wide: 12345, 123k, 123M, 1e+12 */
		if (v.u < 100000)
			rl_fmt_u64(buf, v.u);
		else if (v.u < 100000000)
			snprintf(buf, len, "%lluk", (unsigned long long)(v.u / 1000));
		else if (v.u < 100000000000ULL)
			snprintf(buf, len, "%lluM", (unsigned long long)(v.u / 1000000));
		else
			snprintf(buf, len, "%.0e", (double)v.u);
		return buf;
	case RL_STYLE_GIGA4: snprintf(buf, len, "%.4g", v.n / 1e9); return buf;
	case RL_STYLE_MEGA4: snprintf(buf, len, "%.4g", v.n / 1e6); return buf;
	}
	return "";
}

/* Appends S then SUFFIX padded to |WIDTH| bytes (negative: left-aligned),
 * after a blank unless FIRST. */
static void line_cell(rl_report *r, const char *s, const char *suffix, int width, int first)
{
	static const char blanks[] = "                                ";
	size_t n = strlen(s), m = strlen(suffix);
	size_t w = (size_t)(width < 0 ? -width : width);
	size_t pad = n + m < w ? w - n - m : 0;

	if (!first)
		line_put(r, " ", 1);
	if (width > 0)
		line_put(r, blanks, pad);
	line_put(r, s, n);
	line_put(r, suffix, m);
	if (width < 0)
		line_put(r, blanks, pad);
}

/* A table or md row from the report's layout. */
static void text_row(rl_report *r, const struct rl_col_row *row)
{
	char buf[4 * NAME_W + 8];
	size_t i;

	if (r->fmt == RL_FMT_MD)
		line_put(r, "| ", 2);
	for (i = 0; i < r->ncells; i++) {
		const struct layout_cell *cell = r->cells[i];
		const char *suffix, *s = cell_text(r, cell, row, buf, sizeof(buf), &suffix);

		if (r->fmt != RL_FMT_MD) {
			line_cell(r, s, suffix, cell->width, i == 0);
			continue;
		}
		if (i > 0)
			line_put(r, " | ", 3);
		if (cell->style == RL_STYLE_NAME_MD) {
			/* a '|' inside a name would end the cell */
			const char *c;

			for (c = s; *c; c++)
				line_put(r, *c == '|' ? "\\|" : c, *c == '|' ? 2 : 1);
		} else {
			line_put(r, s, strlen(s));
		}
		line_put(r, suffix, strlen(suffix));
	}
	line_put(r, r->fmt == RL_FMT_MD ? " |\n" : "\n", r->fmt == RL_FMT_MD ? 3 : 1);
	line_spill(r);
}

/* The layout's headings: the table's padded as its cells, md's with the
 * alignment row. */
static void text_head(rl_report *r)
{
	size_t i;

	r->line_len = 0;
	if (r->fmt == RL_FMT_MD)
		line_put(r, "| ", 2);
	for (i = 0; i < r->ncells; i++) {
		if (r->fmt != RL_FMT_MD)
			line_cell(r, r->cells[i]->head, "", r->cells[i]->width, i == 0);
		else
			line_put(r, i ? " | " : "", i ? 3 : 0), line_put(r, r->cells[i]->head, strlen(r->cells[i]->head));
	}
	if (r->fmt == RL_FMT_MD) {
		line_put(r, " |\n|", 4);
		for (i = 0; i < r->ncells; i++)
			line_put(r, r->cells[i]->width < 0 ? "---|" : "--:|", 4);
	}
	line_put(r, "\n", 1);
	fwrite(r->line, 1, r->line_len, r->out);
	r->line_len = 0;
}


/* Writes TEXT word-wrapped to 80 columns, the first line after FIRST and the
 * others after REST. */
static void wrap(FILE *out, const char *text, const char *first, const char *rest)
{
	const char *indent = first;

	while (*text != '\0') {
		size_t room = 79 - strlen(indent), n = strlen(text);

		if (n > room) {
			n = room;
			while (n > 0 && text[n] != ' ')
				n--;
			if (n == 0)
				n = room;
		}
		fprintf(out, "%s%.*s\n", indent, (int)n, text);
		text += n;
		while (*text == ' ')
			text++;
		indent = rest;
	}
}

/* A training step's time per phase, measured beside expected and roofline,
 * in the form of the per-kind block. */
static void step_phases(rl_report *r, const struct rl_step *st, int md, int x)
{
	char a[32], b[32], e[32];
	int k;

	if (md)
		fprintf(r->out,
		        "\n**Time per phase** (measured GPU time against the %sroofline)\n\n"
		        "| phase | ops | launches | measured_us |%s roofline_us | roof %% |\n"
		        "|---|--:|--:|--:|%s--:|--:|\n",
		        x ? "expected time and the " : "", x ? " expected_us |" : "",
		        x ? "--:|" : "");
	else
		fprintf(r->out,
		        "time per phase (measured GPU time against the %sroofline):\n"
		        "  %-9s %5s %8s %11s%s %11s %5s\n",
		        x ? "expected time and the " : "", "phase", "ops", "launches",
		        "measured_us", x ? " expected_us" : "", "roofline_us", "roof%");
	for (k = 0; k < RL_PHASE_COUNT; k++) {
		const struct rl_step_kind *y = &st->phase[k];
		char pct[16];

		if (y->ops == 0)
			continue;
		rl_fmt_us(a, sizeof(a), y->measured_us);
		rl_fmt_us(b, sizeof(b), y->roofline_us);
		rl_fmt_us(e, sizeof(e), y->expected_us);
		if (y->measured_us > 0)
			snprintf(pct, sizeof(pct), "%.0f", y->roofline_us / y->measured_us * 100);
		else
			snprintf(pct, sizeof(pct), "-");
		if (md)
			fprintf(r->out, "| %s | %zu | %llu | %s |%s%s%s %s | %s |\n",
			        rl_phase_name((enum rl_phase)k), y->ops,
			        (unsigned long long)y->launches, a, x ? " " : "", x ? e : "",
			        x ? " |" : "", b, pct);
		else if (x)
			fprintf(r->out, "  %-9s %5zu %8llu %11s %11s %11s %5s\n",
			        rl_phase_name((enum rl_phase)k), y->ops,
			        (unsigned long long)y->launches, a, e, b, pct);
		else
			fprintf(r->out, "  %-9s %5zu %8llu %11s %11s %5s\n",
			        rl_phase_name((enum rl_phase)k), y->ops,
			        (unsigned long long)y->launches, a, b, pct);
	}
}

/* A compiled program's host side (step.h): per region, Dynamo's cache
 * lookup before it, the prologue in it, the CUDA graph's launch, and the
 * rest of the region's host time (the kernels' launchers, the extern
 * kernels' ATen calls); the replays and how many of their kernels were
 * attributed to the ops captured. Nothing for an eager trace. */
static void compiled_text(rl_report *r, const struct rl_step_compiled *c)
{
	const char *li = r->fmt == RL_FMT_MD ? "- " : "  ";
	char a[32], b[32], d[32], e[32], f[32];
	double n = c->regions > 0 ? (double)c->regions : 1;

	if (c->regions > 0) {
		double rest = c->region_us - c->prologue_us - c->graph_launch_us;

		rl_fmt_us(a, sizeof(a), (c->region_us + c->cache_lookup_us) / n);
		rl_fmt_us(b, sizeof(b), c->cache_lookup_us / n);
		rl_fmt_us(d, sizeof(d), c->prologue_us / n);
		rl_fmt_us(e, sizeof(e), c->graph_launch_us / n);
		rl_fmt_us(f, sizeof(f), rest > 0 ? rest / n : 0);
		fprintf(r->out,
		        "%scompiled: %zu torch.compile region%s, host %s us each: Dynamo's cache lookup %s, "
		        "prologue %s, graph launch %s, kernel launches and the rest %s\n",
		        li, c->regions, c->regions == 1 ? "" : "s", a, b, d, e, f);
	}
	if (c->graph_launches > 0) {
		rl_fmt_us(a, sizeof(a), c->graph_launch_us / (double)c->graph_launches);
		fprintf(r->out,
		        "%sCUDA graphs: %zu replay%s of %zu activities, %zu attributed to the ops "
		        "captured; cudaGraphLaunch %s us on the host per replay\n",
		        li, c->graph_launches, c->graph_launches == 1 ? "" : "s", c->graph_kernels,
		        c->graph_attributed, a);
	}
}

/* The model-level view of a measured step (report): table and md. With
 * expected times (X), each kind's expected time beside its roofline, and
 * the recoverable time is measured - expected, the roofline's gap beside. */
static void step_text(rl_report *r, const struct rl_step *st)
{
	int md = r->fmt == RL_FMT_MD, x = expected_cols(r);
	char a[32], b[32], c[32], d[32], e[32], g[32];
	size_t i;
	int k;

	rl_fmt_us(a, sizeof(a), st->span_us);
	fprintf(r->out, "%s %s us from the first GPU activity to the last (%zu %s)\n%s",
	        md ? "**Step:**" : "step:", a, st->activities,
	        st->activities == 1 ? "activity" : "activities", md ? "\n" : "");
	rl_fmt_us(a, sizeof(a), st->busy_us);
	rl_fmt_us(b, sizeof(b), st->idle_us);
	rl_fmt_us(c, sizeof(c), st->longest_gap_us);
	fprintf(r->out, "%sGPU busy  %10s us  %5.1f %%\n", md ? "- " : "  ", a,
	        st->span_us > 0 ? st->busy_us / st->span_us * 100 : 0);
	fprintf(r->out, "%sGPU idle  %10s us  %5.1f %%  in %zu gap%s, the longest %s us\n",
	        md ? "- " : "  ", b, st->span_us > 0 ? st->idle_us / st->span_us * 100 : 0,
	        st->gaps, st->gaps == 1 ? "" : "s", c);
	fprintf(r->out, "%soverhead: the GPU waited on the host for %.1f %% of the step\n",
	        md ? "- " : "  ", st->span_us > 0 ? st->idle_us / st->span_us * 100 : 0);
	compiled_text(r, &st->compiled);
	if (md && x)
		fputs("\n**Time per kind** (measured GPU time against the expected time and the "
		      "roofline)\n\n"
		      "| kind | ops | launches | measured_us | expected_us | roofline_us | roof % | host_us |\n"
		      "|---|--:|--:|--:|--:|--:|--:|--:|\n",
		      r->out);
	else if (md)
		fputs("\n**Time per kind** (measured GPU time against the roofline)\n\n"
		      "| kind | ops | launches | measured_us | roofline_us | roof % | host_us |\n"
		      "|---|--:|--:|--:|--:|--:|--:|\n",
		      r->out);
	else if (x)
		fprintf(r->out, "time per kind (measured GPU time against the expected time and the "
		                "roofline):\n  %-9s %5s %8s %11s %11s %11s %5s %10s\n",
		        "kind", "ops", "launches", "measured_us", "expected_us", "roofline_us", "roof%",
		        "host_us");
	else
		fprintf(r->out, "time per kind (measured GPU time against the roofline):\n"
		                "  %-10s %5s %8s %12s %12s %6s %11s\n",
		        "kind", "ops", "launches", "measured_us", "roofline_us", "roof%", "host_us");
	for (k = 0; k <= RL_KIND_COUNT; k++) {
		const struct rl_step_kind *y = k < RL_KIND_COUNT ? &st->kind[k] : &st->all;
		const char *name = k < RL_KIND_COUNT ? rl_kind_name((enum rl_kind)k) : "all";
		char pct[16];

		if (y->ops == 0)
			continue;
		rl_fmt_us(a, sizeof(a), y->measured_us);
		rl_fmt_us(b, sizeof(b), y->roofline_us);
		rl_fmt_us(c, sizeof(c), y->host_us);
		rl_fmt_us(e, sizeof(e), y->expected_us);
		if (y->measured_us > 0)
			snprintf(pct, sizeof(pct), "%.0f", y->roofline_us / y->measured_us * 100);
		else
			snprintf(pct, sizeof(pct), "-");
		if (md && x)
			fprintf(r->out, "| %s | %zu | %llu | %s | %s | %s | %s | %s |\n", name, y->ops,
			        (unsigned long long)y->launches, a, e, b, pct, c);
		else if (md)
			fprintf(r->out, "| %s | %zu | %llu | %s | %s | %s | %s |\n", name, y->ops,
			        (unsigned long long)y->launches, a, b, pct, c);
		else if (x)
			fprintf(r->out, "  %-9s %5zu %8llu %11s %11s %11s %5s %10s\n", name, y->ops,
			        (unsigned long long)y->launches, a, e, b, pct, c);
		else
			fprintf(r->out, "  %-10s %5zu %8llu %12s %12s %6s %11s\n", name, y->ops,
			        (unsigned long long)y->launches, a, b, pct, c);
	}
	if (st->phase[RL_PHASE_BACKWARD].ops + st->phase[RL_PHASE_OPTIMIZER].ops > 0)
		step_phases(r, st, md, x);
	if (x)
		fprintf(r->out,
		        md ? "\n**Top %zu op%s by recoverable time** (measured - expected; the gap "
		             "to the roofline beside it)\n"
		           : "top %zu op%s by recoverable time (measured - expected; to_roof: to "
		             "the roofline):\n",
		        st->ntop, st->ntop == 1 ? "" : "s");
	else
		fprintf(r->out,
		        md ? "\n**Top %zu op%s by recoverable time** (measured - roofline)\n"
		           : "top %zu op%s by recoverable time (measured - roofline):\n",
		        st->ntop, st->ntop == 1 ? "" : "s");
	if (md && x)
		fputs("\n| # | name | measured_us | expected_us | recoverable_us | roofline_us | "
		      "to roofline_us | expected bound | advice |\n"
		      "|--:|---|--:|--:|--:|--:|--:|---|---|\n",
		      r->out);
	else if (md)
		fputs("\n| # | name | measured_us | roofline_us | recoverable_us | bound | advice |\n"
		      "|--:|---|--:|--:|--:|---|---|\n",
		      r->out);
	else if (x)
		fprintf(r->out, "  %3s %-18s %9s %9s %11s %9s %s\n", "#", "name", "measured",
		        "expected", "recoverable", "to_roof", "exp_bound");
	else
		fprintf(r->out, "  %3s %-24s %10s %10s %11s %s\n", "#", "name", "measured",
		        "roofline", "recoverable", "bound");
	for (i = 0; i < st->ntop; i++) {
		const struct rl_step_top *y = &st->top[i];
		char name[4 * 24 + 8];

		rl_fmt_us(a, sizeof(a), y->measured_us);
		rl_fmt_us(b, sizeof(b), y->roofline_us);
		rl_fmt_us(d, sizeof(d), y->measured_us - (x ? y->expected_us : y->roofline_us));
		rl_fmt_us(e, sizeof(e), y->expected_us);
		rl_fmt_us(g, sizeof(g), y->measured_us - y->roofline_us);
		if (md && x) {
			fprintf(r->out, "| %zu | %s | %s | %s | %s | %s | %s | %s | %s |\n", i + 1, y->name,
			        a, e, d, b, g, rl_bound_name(y->expected_bound), y->advice);
			continue;
		}
		if (md) {
			fprintf(r->out, "| %zu | %s | %s | %s | %s | %s | %s |\n", i + 1, y->name, a, b,
			        d, rl_bound_name(y->bound), y->advice);
			continue;
		}
		if (x) {
			cut_name(name, sizeof(name), y->name, 18, 0);
			fprintf(r->out, "  %2zu. %s %9s %9s %11s %9s %s\n", i + 1, name, a, e, d, g,
			        rl_bound_name(y->expected_bound));
		} else {
			cut_name(name, sizeof(name), y->name, 24, 0);
			fprintf(r->out, "  %2zu. %s %10s %10s %11s %s\n", i + 1, name, a, b, d,
			        rl_bound_name(y->bound));
		}
		wrap(r->out, y->advice, "       ", "         ");
	}
}

/* The median and p90 error of the expected time and of the roofline
 * against the measured times: over every op measured, and over those
 * measured at ERR_FLOOR_US or more. Nothing without measured times. */
static void error_text(rl_report *r, const struct rl_summary *s)
{
	static const double floors[] = {0, ERR_FLOOR_US};
	int md = r->fmt == RL_FMT_MD, i;

	if (s->nerr == 0)
		return;
	if (md)
		fputs("\n**Error against measured GPU times** (|t - measured| / measured, per "
		      "op)\n\n| ops | n | expected median | expected p90 | roofline median | "
		      "roofline p90 |\n|---|--:|--:|--:|--:|--:|\n",
		      r->out);
	else
		fprintf(r->out, "error against measured GPU times (|t - measured| / measured, per op):\n"
		                "  %-14s %5s %15s %7s %15s %7s\n",
		        "ops", "n", "expected median", "p90", "roofline median", "p90");
	for (i = 0; i < 2; i++) {
		struct rl_summary_err e;
		char label[32], em[16], ep[16], rm[16], rp[16];

		if (rl_summary_err(s, floors[i], &e) < 0)
			return;
		snprintf(label, sizeof(label), i == 0 ? "all" : ">= %.0f us", floors[i]);
		if (e.ops > 0) {
			snprintf(em, sizeof(em), "%.1f %%", e.expected_median * 100);
			snprintf(ep, sizeof(ep), "%.1f %%", e.expected_p90 * 100);
			snprintf(rm, sizeof(rm), "%.1f %%", e.roofline_median * 100);
			snprintf(rp, sizeof(rp), "%.1f %%", e.roofline_p90 * 100);
		} else {
			snprintf(em, sizeof(em), "-");
			snprintf(ep, sizeof(ep), "-");
			snprintf(rm, sizeof(rm), "-");
			snprintf(rp, sizeof(rp), "-");
		}
		if (md)
			fprintf(r->out, "| %s | %zu | %s | %s | %s | %s |\n", label, e.ops, em, ep, rm, rp);
		else
			fprintf(r->out, "  %-14s %5zu %15s %7s %15s %7s\n", label, e.ops, em, ep, rm, rp);
	}
}

/* The footnote of the L2-resident ops (l2.h): how many, and what --l2
 * made of them. Nothing when none is resident and --l2 was not given. */
static void l2_note(rl_report *r, const struct rl_summary *s)
{
	const struct rl_hwval *cap = &r->info.dev->num[RL_HW_L2_MIB];
	const struct rl_hwval *bw = &r->info.dev->num[RL_HW_L2_BANDWIDTH_GBS];
	const char *ops = s->l2_ops == 1 ? "op" : "ops";
	char line[512], t[32];

	if (s->l2_ops == 0 && !r->info.l2)
		return;
	if (!cap->present) {
		snprintf(line, sizeof(line), "--l2: the device has no l2_mib: no op is L2-resident");
	} else if (s->l2_ops == 0) {
		snprintf(line, sizeof(line), "--l2: no op is L2-resident (%s MiB L2)", cap->text);
	} else if (r->info.l2 && bw->present) {
		rl_fmt_us(t, sizeof(t), s->l2_saved_us);
		snprintf(line, sizeof(line),
		         "^ L2-resident (%zu %s): the previous kernel's output read from the %s MiB "
		         "L2 at %s GB/s, the rest from memory (--l2): %s us saved",
		         s->l2_ops, ops, cap->text, bw->text, t);
	} else {
		snprintf(line, sizeof(line),
		         "^ L2-resident (%zu %s): reads the previous kernel's output, still in the "
		         "%s MiB L2; predicted at memory bandwidth (%s)",
		         s->l2_ops, ops, cap->text,
		         r->info.l2 ? "the device has no l2_bandwidth_gbs" : "--l2 reads it from the L2");
	}
	wrap(r->out, line, "", "  ");
}

/* The memory the step needs (memfit.h), in GiB (2^30 bytes). */
static void memory_line(rl_report *r, int md)
{
	const struct rl_memfit *m = r->info.mem;
	double cap = rl_memfit_device_bytes(r->info.dev);
	char line[512], tail[160];

	if (cap > 0)
		snprintf(tail, sizeof(tail), " of %g GiB: %s", cap / RL_MEMFIT_GIB,
		         rl_memfit_fits(m, r->info.dev) ? "fits" : "does not fit");
	else
		snprintf(tail, sizeof(tail), " GiB (%s gives no memory_gib)", r->info.dev->id);
	if (m->train)
		snprintf(line, sizeof(line),
		         "memory: %.2f GiB weights + %.2f GiB KV cache + %.2f GiB activations + "
		         "%.2f GiB gradients + %.2f GiB optimizer state + %.2f GiB master weights + "
		         "%.2f GiB saved activations = %.2f%s",
		         m->weight_bytes / RL_MEMFIT_GIB, m->kv_bytes / RL_MEMFIT_GIB,
		         m->activation_bytes / RL_MEMFIT_GIB, m->gradient_bytes / RL_MEMFIT_GIB,
		         m->optimizer_bytes / RL_MEMFIT_GIB, m->master_bytes / RL_MEMFIT_GIB,
		         m->saved_bytes / RL_MEMFIT_GIB, rl_memfit_total_bytes(m) / RL_MEMFIT_GIB, tail);
	else
		snprintf(line, sizeof(line),
		         "memory: %.2f GiB weights + %.2f GiB KV cache + %.2f GiB activations = %.2f%s",
		         m->weight_bytes / RL_MEMFIT_GIB, m->kv_bytes / RL_MEMFIT_GIB,
		         m->activation_bytes / RL_MEMFIT_GIB, rl_memfit_total_bytes(m) / RL_MEMFIT_GIB,
		         tail);
	if (md)
		fputc('\n', r->out);
	wrap(r->out, line, "", "  ");
}

/* The collectives' share of the step, and what the layout makes of it:
 * the GPUs and their groups, the pipeline's bubble, the per-GPU step. */
static void parallel_lines(rl_report *r, const struct rl_summary *s, int md)
{
	const struct rl_parallel_place *p = r->info.parallel;
	char line[640], t[32], c[32], o[32];

	if (s->comm_us > 0) {
		rl_fmt_us(c, sizeof(c), s->comm_us);
		rl_fmt_us(o, sizeof(o), s->comm_overlap_us);
		snprintf(line, sizeof(line),
		         "communication: %s us in %zu collective row%s, %.1f %% of the total; %s us "
		         "of it may overlap compute (overlap=1: --timeline shows what is hidden)",
		         c, s->comm_ops, s->comm_ops == 1 ? "" : "s",
		         s->total_us > 0 ? s->comm_us / s->total_us * 100 : 0, o);
		if (md)
			fputc('\n', r->out);
		wrap(r->out, line, "", "  ");
	}
	if (p == NULL)
		return;
	rl_fmt_us(t, sizeof(t), s->total_us);
	snprintf(line, sizeof(line),
	         "parallel: tp %llu x pp %llu x dp %llu = %llu GPUs on %llu node%s (ep %llu); "
	         "groups (ranks/nodes): tp %llu/%llu, pp %llu/%llu, dp %llu/%llu, ep %llu/%llu; "
	         "this op list is one GPU's: %s us%s",
	         (unsigned long long)p->lay.tp, (unsigned long long)p->lay.pp,
	         (unsigned long long)p->lay.dp, (unsigned long long)p->gpus,
	         (unsigned long long)p->nodes, p->nodes == 1 ? "" : "s",
	         (unsigned long long)p->lay.ep, (unsigned long long)p->tp.ranks,
	         (unsigned long long)p->tp.nodes, (unsigned long long)p->pp.ranks,
	         (unsigned long long)p->pp.nodes, (unsigned long long)p->dp.ranks,
	         (unsigned long long)p->dp.nodes, (unsigned long long)p->ep.ranks,
	         (unsigned long long)p->ep.nodes, t,
	         r->info.mem == NULL                                     ? ""
	         : rl_memfit_fits(r->info.mem, r->info.dev)              ? ", its memory fits"
	         : rl_memfit_device_bytes(r->info.dev) > 0 ? ", its memory does not fit"
	                                                   : "");
	if (md)
		fputc('\n', r->out);
	wrap(r->out, line, "", "  ");
	if (p->lay.pp > 1) {
		/* v model chunks a GPU (the interleaved schedule): its terms */
		int iv = p->lay.vstages > 1;
		double vm = (double)p->lay.microbatches * (double)(iv ? p->lay.vstages : 1);
		char chunks[64] = "";

		if (iv)
			snprintf(chunks, sizeof(chunks), " in %llu interleaved chunks",
			         (unsigned long long)p->lay.vstages);
		rl_fmt_us(c, sizeof(c), s->total_us * (vm + (double)p->lay.pp - 1) / vm);
		snprintf(line, sizeof(line),
		         "pipeline: %llu stages of %llu layers%s, %llu micro-batch%s of %llu "
		         "sequence%s: bubble (pp - 1) / (%sm + pp - 1) = %.1f %%, step %s us "
		         "(the last stage's %s us x (%sm + pp - 1) / %s)",
		         (unsigned long long)p->lay.pp, (unsigned long long)p->stage_layers, chunks,
		         (unsigned long long)p->lay.microbatches,
		         p->lay.microbatches == 1 ? "" : "es", (unsigned long long)p->micro_batch,
		         p->micro_batch == 1 ? "" : "s", iv ? "v " : "", p->bubble * 100, c, t,
		         iv ? "v " : "", iv ? "(v m)" : "m");
		if (md)
			fputc('\n', r->out);
		wrap(r->out, line, "", "  ");
	}
}

static void json_parallel(rl_report *r, const struct rl_summary *s)
{
	const struct rl_parallel_place *p = r->info.parallel;
	yajl_gen g = r->g;

	if (s->comm_us > 0) {
		rl_json_str(g, "communication");
		yajl_gen_map_open(g);
		rl_json_kn(g, "ops", (double)s->comm_ops);
		rl_json_kn(g, "expected_us", s->comm_us);
		rl_json_kn(g, "overlap_us", s->comm_overlap_us);
		rl_json_kn(g, "share", s->total_us > 0 ? s->comm_us / s->total_us : 0);
		yajl_gen_map_close(g);
	}
	if (p == NULL)
		return;
	rl_json_str(g, "parallel");
	yajl_gen_map_open(g);
	rl_json_ku(g, "tp", p->lay.tp);
	rl_json_ku(g, "pp", p->lay.pp);
	rl_json_ku(g, "dp", p->lay.dp);
	rl_json_ku(g, "ep", p->lay.ep);
	rl_json_ku(g, "microbatches", p->lay.microbatches);
	rl_json_ku(g, "gpus", p->gpus);
	rl_json_ku(g, "nodes", p->nodes);
	rl_json_ku(g, "stage_layers", p->stage_layers);
	rl_json_kn(g, "bubble", p->bubble);
	rl_json_kn(g, "gpu_us", s->total_us);
	rl_json_ku(g, "virtual_stages", p->lay.vstages);
	rl_json_kn(g, "step_us",
	           s->total_us * ((double)p->lay.microbatches * (double)p->lay.vstages +
	                          (double)p->lay.pp - 1) /
	                   ((double)p->lay.microbatches * (double)p->lay.vstages));
	yajl_gen_map_close(g);
}

static void table_end(rl_report *r, const struct rl_summary *s)
{
	const char *item = r->fmt == RL_FMT_MD ? "- " : "  ";
	int md = r->fmt == RL_FMT_MD, x = expected_cols(r);
	char t[32], f[32], b[32], line[512], k_text[96] = "";
	size_t i;
	int k;

	fputc('\n', r->out);
	for (i = 0; i < r->nfb; i++) {
		/* an op that asked for tensor math in fp32 wanted the fp32 vector
		 * pipe itself: say "tensor" then */
		if (r->fb_wanted[i] == r->fb_used[i])
			fprintf(r->out, "* unit tensor: this dtype has no tensor-core math; rated on %s\n",
			        rl_pipe_label(r->fb_used[i]));
		else
			fprintf(r->out, "* no %s pipe on this device: rated on %s\n",
			        rl_pipe_label(r->fb_wanted[i]), rl_pipe_label(r->fb_used[i]));
	}
	if (r->bound_differs > 0)
		fprintf(r->out, "%s the roofline bound differs (--best-case shows it)\n", DIFF_MARK);
	l2_note(r, s);
	/* a quantised path's kernel, or its lack of one, as json's
	 * expected_note says it */
	for (i = 0; x && i < r->nq; i++) {
		snprintf(line, sizeof(line), "expected, %zu op%s: %s", r->qnote_ops[i],
		         r->qnote_ops[i] == 1 ? "" : "s", r->qnote[i]);
		wrap(r->out, line, "", "  ");
	}
	if (r->info.step != NULL) {
		step_text(r, r->info.step);
		error_text(r, s);
		if (r->info.timeline != NULL)
			rl_timeline_write(r->out, md, r->info.timeline);
		return;
	}
	rl_fmt_us(t, sizeof(t), s->total_us);
	rl_fmt_si(f, sizeof(f), s->flops, 3, "FLOP");
	rl_fmt_si(b, sizeof(b), s->bytes, 3, "B");
	if (r->info.impl != NULL)
		snprintf(k_text, sizeof(k_text), "; %.0f kernels a step, --impl %s", s->kernels,
		         r->info.impl);
	snprintf(line, sizeof(line), "%s%s us %s for %zu op%s (%llu occurrence%s%s), %s, %s",
	         md ? "**Total:** " : "total: ", t, x ? "expected" : "predicted", s->ops,
	         s->ops == 1 ? "" : "s", (unsigned long long)s->occurrences,
	         s->occurrences == 1 ? "" : "s", k_text, f, b);
	if (md)
		fputc('\n', r->out);
	fprintf(r->out, "%s\n", line);
	if (x) {
		/* the best case beside the expected total */
		rl_fmt_us(t, sizeof(t), s->roofline_us);
		fprintf(r->out, "%sroofline bound: %s us (--best-case)\n", md ? "\n" : "  ", t);
	}
	if (r->info.mem != NULL)
		memory_line(r, md);
	parallel_lines(r, s, md);
	if (x)
		fputs(md ? "\n**Time by expected bound:**\n\n" : "time by expected bound:\n", r->out);
	else
		fputs(md ? "\n**Time by bound (best case: roofline bounds):**\n\n"
		         : "time by bound (best case: roofline bounds):\n",
		      r->out);
	for (k = 0; k < RL_BOUND_COUNT; k++)
		if (s->bound_ops[k] > 0)
			fprintf(r->out, "%s%-9s %5.1f %%  (%zu op%s)\n", item,
			        rl_bound_name((enum rl_bound)k),
			        s->total_us > 0 ? s->bound_us[k] / s->total_us * 100 : 0,
			        s->bound_ops[k], s->bound_ops[k] == 1 ? "" : "s");
	if (s->phase_ops[RL_PHASE_BACKWARD] + s->phase_ops[RL_PHASE_OPTIMIZER] > 0) {
		fputs(md ? "\n**Time by phase:**\n\n" : "time by phase:\n", r->out);
		for (k = 0; k < RL_PHASE_COUNT; k++) {
			double v = x ? s->phase_us[k] : s->phase_roofline_us[k];
			double tot = x ? s->total_us : s->roofline_us;

			rl_fmt_us(t, sizeof(t), v);
			rl_fmt_si(f, sizeof(f), s->phase_flops[k], 3, "FLOP");
			rl_fmt_si(b, sizeof(b), s->phase_bytes[k], 3, "B");
			fprintf(r->out, "%s%-9s %10s us %5.1f %%  %s, %s (%zu op%s)\n", item,
			        rl_phase_name((enum rl_phase)k), t, tot > 0 ? v / tot * 100 : 0, f, b,
			        s->phase_ops[k], s->phase_ops[k] == 1 ? "" : "s");
		}
	}
	if (s->measured_ops > 0 && x) {
		rl_fmt_us(t, sizeof(t), s->measured_us);
		snprintf(line, sizeof(line),
		         "measured GPU time %s us over %zu op%s: expected %.0f %%, roofline %.0f %% of it",
		         t, s->measured_ops, s->measured_ops == 1 ? "" : "s",
		         s->expected_of_measured_us / s->measured_us * 100,
		         s->roofline_of_measured_us / s->measured_us * 100);
		if (md)
			fputc('\n', r->out);
		wrap(r->out, line, "", "  ");
	} else if (s->measured_ops > 0) {
		rl_fmt_us(t, sizeof(t), s->measured_us);
		fprintf(r->out,
		        "%smeasured GPU time %s us over %zu op%s; %s roofline is %.0f %% of it\n",
		        md ? "\n" : "", t, s->measured_ops,
		        s->measured_ops == 1 ? "" : "s", s->measured_ops == 1 ? "its" : "their",
		        s->roofline_of_measured_us / s->measured_us * 100);
	}
	if (x)
		fputs(md ? "\n**Top ops by expected time:**\n\n" : "top ops by expected time:\n", r->out);
	else
		fputs(md ? "\n**Top ops by time:**\n\n" : "top ops by time:\n", r->out);
	for (i = 0; i < s->ntop; i++) {
		char name[4 * 32 + 8];

		if (md)
			snprintf(name, sizeof(name), "%s", s->top[i].name);
		else
			cut_name(name, sizeof(name), s->top[i].name, 32, 0);
		rl_fmt_us(t, sizeof(t), s->top[i].total_us);
		fprintf(r->out, "%s%zu. %s %10s us  %5.1f %%  %s\n", md ? "" : "  ", i + 1, name, t,
		        s->total_us > 0 ? s->top[i].total_us / s->total_us * 100 : 0,
		        rl_bound_name(x ? s->top[i].expected_bound : s->top[i].bound));
	}
	fputs(md ? "\n**Advice:**\n\n" : "advice:\n", r->out);
	for (k = 0; k < RL_BOUND_COUNT; k++) {
		if (s->bound_ops[k] == 0)
			continue;
		if (md)
			fprintf(r->out, "- %s\n", rl_bound_advice((enum rl_bound)k));
		else
			wrap(r->out, rl_bound_advice((enum rl_bound)k), "  ", "    ");
	}
	error_text(r, s);
	if (r->info.timeline != NULL)
		rl_timeline_write(r->out, md, r->info.timeline);
}

/* ---- json ---- */

/* The writer buffers the text; it is moved to the stream once per op, so
 * that a late error finds the stream up to date. */
static void json_flush(rl_report *r)
{
	rl_json_writer_flush(r->jw);
}

static int json_begin(rl_report *r)
{
	const struct rl_device *d = r->info.dev;

	r->jw = rl_json_writer_new(r->out);
	if (r->jw == NULL)
		return RL_ERR_NOMEM;
	r->g = r->jw->g;
	yajl_gen_map_open(r->g);
	rl_json_str(r->g, "device");
	yajl_gen_map_open(r->g);
	rl_json_kv(r->g, "id", d->id);
	rl_json_kv(r->g, "name", d->name);
	rl_json_kn(r->g, "mem_bandwidth_gbs", d->num[RL_HW_MEM_BANDWIDTH_GBS].value);
	rl_json_kn(r->g, "min_kernel_us", d->num[RL_HW_MIN_KERNEL_US].value);
	if (d->num[RL_HW_L2_MIB].present)
		rl_json_kn(r->g, "l2_mib", d->num[RL_HW_L2_MIB].value);
	if (d->num[RL_HW_L2_BANDWIDTH_GBS].present)
		rl_json_kn(r->g, "l2_bandwidth_gbs", d->num[RL_HW_L2_BANDWIDTH_GBS].value);
	yajl_gen_map_close(r->g);
	rl_json_str(r->g, "runtime");
	yajl_gen_map_open(r->g);
	rl_json_kv(r->g, "id", r->info.runtime);
	rl_json_kn(r->g, "host_overhead_us", r->info.host_overhead_us);
	yajl_gen_map_close(r->g);
	rl_json_str(r->g, "best_case");
	yajl_gen_bool(r->g, r->info.best_case);
	if (r->info.expected_source != NULL)
		rl_json_kv(r->g, "expected_source", r->info.expected_source);
	if (r->info.interconnect != NULL)
		rl_json_kv(r->g, "interconnect", r->info.interconnect);
	rl_json_str(r->g, "ops");
	yajl_gen_array_open(r->g);
	return 0;
}

/* The op rows are written here, not through yajl: its generator was the
 * wall of a million-op json report (a call per token, a strlen per key;
 * docs/performance.md, issue 22). A row's keys are fixed, so each row goes
 * straight into the writer's buffer, byte for byte what yajl_gen writes as
 * configured in json.c (no beautify, '/' not escaped: yajl_string_encode's
 * escapes), while yajl keeps the document around the rows: it opened the
 * array and closes it, its state unchanged by the rows in between. */
static inline void jw_put(struct rl_json_writer *w, const char *s, size_t n)
{
	if (n > sizeof(w->buf) - w->len) {
		rl_json_writer_flush(w);
		if (n > sizeof(w->buf)) {
			fwrite(s, 1, n, w->out);
			return;
		}
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

/* S as a JSON string, escaped as yajl_string_encode does: the two-letter
 * escapes, other bytes below 0x20 as \u00XX (upper-case hex), the rest as
 * they are. */
static void jw_str(struct rl_json_writer *w, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	const char *run = s;

	jw_put(w, "\"", 1);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;
		const char *esc;
		char u[6];

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		switch (c) {
		case '\r': esc = "\\r"; break;
		case '\n': esc = "\\n"; break;
		case '\\': esc = "\\\\"; break;
		case '"': esc = "\\\""; break;
		case '\f': esc = "\\f"; break;
		case '\b': esc = "\\b"; break;
		case '\t': esc = "\\t"; break;
		default:
			memcpy(u, "\\u00", 4);
			u[4] = hex[c >> 4];
			u[5] = hex[c & 0xF];
			esc = NULL;
			break;
		}
		jw_put(w, run, (size_t)(s - run));
		if (esc != NULL)
			jw_put(w, esc, 2);
		else
			jw_put(w, u, 6);
		run = s + 1;
	}
	jw_put(w, run, (size_t)(s - run));
	jw_put(w, "\"", 1);
}

/* "KEY": */
static void jw_key(struct rl_json_writer *w, const char *key, int first)
{
	if (!first)
		jw_put(w, ",", 1);
	jw_str(w, key);
	jw_put(w, ":", 1);
}

static void json_row(rl_report *r, const struct rl_col_row *row)
{
	struct rl_json_writer *w = r->jw;
	char b[64];
	size_t i;
	int first = 1;

	if (r->json_rows++ > 0)
		jw_put(w, ",", 1);
	jw_put(w, "{", 1);
	for (i = 0; i < r->ncols; i++) {
		const struct rl_column *c = &rl_columns[r->cols[i]];
		union rl_col_val v;

		if (!c->get(row, &v))
			continue;
		if (sizeof(w->buf) - w->len >= KEY_COPY) {
			/* a copy of constant size, one or two stores, in place of
			 * memcpy's call; r->keys has KEY_COPY bytes of slack */
			memcpy(w->buf + w->len, r->keys + r->key_off[i] + first, KEY_COPY);
			w->len += r->key_len[i] - (size_t)first;
		} else {
			jw_put(w, r->keys + r->key_off[i] + first, r->key_len[i] - (size_t)first);
		}
		first = 0;
		switch (c->type) {
		case RL_COL_STR:
			if (v.s == NULL) {
				jw_put(w, "null", 4);
				break;
			}
			if (c->formats & RL_COLF_STATIC) {
				const struct str_memo *m = memo_get(r, v.s);

				if (m->json_plain) {
					jw_put(w, "\"", 1);
					jw_put(w, v.s, m->len);
					jw_put(w, "\"", 1);
					break;
				}
			}
			jw_str(w, v.s);
			break;
		case RL_COL_NUM:
			if (!isfinite(v.n)) {
				jw_put(w, "null", 4);
				break;
			}
			/* formatted in place: a number is at most 32 bytes */
			if (sizeof(w->buf) - w->len < 32)
				rl_json_writer_flush(w);
			w->len += rl_fmt_num(w->buf + w->len, v.n);
			break;
		case RL_COL_U64: jw_put(w, b, rl_fmt_u64(b, v.u)); break;
		case RL_COL_BOOL: jw_put(w, v.b ? "true" : "false", v.b ? 4 : 5); break;
		}
	}
	if (r->info.nextra > 0) {
		jw_key(w, "extra", first);
		jw_put(w, "{", 1);
		for (i = 0; i < r->info.nextra; i++) {
			jw_key(w, r->info.extra_names[i], i == 0);
			if (row->op->extra[i] == NULL)
				jw_put(w, "null", 4);
			else
				jw_str(w, row->op->extra[i]);
		}
		jw_put(w, "}", 1);
	}
	jw_put(w, "}", 1);
}

static void json_kind(yajl_gen g, const struct rl_step_kind *x)
{
	yajl_gen_map_open(g);
	rl_json_kn(g, "ops", (double)x->ops);
	rl_json_kn(g, "launches", (double)x->launches);
	rl_json_kn(g, "measured_us", x->measured_us);
	rl_json_kn(g, "roofline_us", x->roofline_us);
	rl_json_kn(g, "expected_us", x->expected_us);
	rl_json_kn(g, "host_us", x->host_us);
	yajl_gen_map_close(g);
}

static void json_step(yajl_gen g, const struct rl_step *st)
{
	size_t i;
	int k;

	rl_json_str(g, "step");
	yajl_gen_map_open(g);
	rl_json_kn(g, "activities", (double)st->activities);
	rl_json_kn(g, "span_us", st->span_us);
	rl_json_kn(g, "busy_us", st->busy_us);
	rl_json_kn(g, "idle_us", st->idle_us);
	rl_json_kn(g, "overhead_share", st->span_us > 0 ? st->idle_us / st->span_us : 0);
	rl_json_kn(g, "gaps", (double)st->gaps);
	rl_json_kn(g, "longest_gap_us", st->longest_gap_us);
	if (st->compiled.regions + st->compiled.graph_launches > 0) {
		const struct rl_step_compiled *c = &st->compiled;

		rl_json_str(g, "compiled");
		yajl_gen_map_open(g);
		rl_json_kn(g, "regions", (double)c->regions);
		rl_json_kn(g, "region_host_us", c->region_us);
		rl_json_kn(g, "cache_lookup_us", c->cache_lookup_us);
		rl_json_kn(g, "prologue_us", c->prologue_us);
		rl_json_kn(g, "graph_launches", (double)c->graph_launches);
		rl_json_kn(g, "graph_kernels", (double)c->graph_kernels);
		rl_json_kn(g, "graph_attributed", (double)c->graph_attributed);
		rl_json_kn(g, "graph_launch_us", c->graph_launch_us);
		yajl_gen_map_close(g);
	}
	rl_json_str(g, "kinds");
	yajl_gen_map_open(g);
	for (k = 0; k < RL_KIND_COUNT; k++) {
		if (st->kind[k].ops == 0)
			continue;
		rl_json_str(g, rl_kind_name((enum rl_kind)k));
		json_kind(g, &st->kind[k]);
	}
	yajl_gen_map_close(g);
	if (st->phase[RL_PHASE_BACKWARD].ops + st->phase[RL_PHASE_OPTIMIZER].ops > 0) {
		rl_json_str(g, "phases");
		yajl_gen_map_open(g);
		for (k = 0; k < RL_PHASE_COUNT; k++) {
			if (st->phase[k].ops == 0)
				continue;
			rl_json_str(g, rl_phase_name((enum rl_phase)k));
			json_kind(g, &st->phase[k]);
		}
		yajl_gen_map_close(g);
	}
	rl_json_str(g, "all");
	json_kind(g, &st->all);
	rl_json_str(g, "recoverable");
	yajl_gen_array_open(g);
	for (i = 0; i < st->ntop; i++) {
		yajl_gen_map_open(g);
		rl_json_kv(g, "name", st->top[i].name);
		rl_json_kv(g, "kind", rl_kind_name(st->top[i].kind));
		rl_json_kn(g, "measured_us", st->top[i].measured_us);
		rl_json_kn(g, "roofline_us", st->top[i].roofline_us);
		rl_json_kn(g, "expected_us", st->top[i].expected_us);
		/* recoverable: down to the expected time; the roofline's gap beside */
		rl_json_kn(g, "recoverable_us", st->top[i].measured_us - st->top[i].expected_us);
		rl_json_kn(g, "roofline_gap_us", st->top[i].measured_us - st->top[i].roofline_us);
		rl_json_kv(g, "bound", rl_bound_name(st->top[i].bound));
		rl_json_kv(g, "expected_bound", rl_bound_name(st->top[i].expected_bound));
		rl_json_kv(g, "advice", st->top[i].advice);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
}

static void json_shares(yajl_gen g, const char *key, const double *us, double total_us)
{
	int k;

	rl_json_str(g, key);
	yajl_gen_map_open(g);
	for (k = 0; k < RL_BOUND_COUNT; k++)
		rl_json_kn(g, rl_bound_name((enum rl_bound)k), total_us > 0 ? us[k] / total_us : 0);
	yajl_gen_map_close(g);
}

static void json_counts(yajl_gen g, const char *key, const size_t *n)
{
	int k;

	rl_json_str(g, key);
	yajl_gen_map_open(g);
	for (k = 0; k < RL_BOUND_COUNT; k++)
		rl_json_kn(g, rl_bound_name((enum rl_bound)k), (double)n[k]);
	yajl_gen_map_close(g);
}

/* The errors against measured times: over every op measured, and over ops
 * measured at ERR_FLOOR_US or more. */
static void json_errors(yajl_gen g, const struct rl_summary *s)
{
	static const char *const keys[] = {"error", "error_20us"};
	static const double floors[] = {0, ERR_FLOOR_US};
	struct rl_summary_err e;
	int i;

	for (i = 0; i < 2; i++) {
		if (rl_summary_err(s, floors[i], &e) < 0)
			continue;
		rl_json_str(g, keys[i]);
		yajl_gen_map_open(g);
		rl_json_kn(g, "ops", (double)e.ops);
		rl_json_kn(g, "expected_median", e.expected_median);
		rl_json_kn(g, "expected_p90", e.expected_p90);
		rl_json_kn(g, "roofline_median", e.roofline_median);
		rl_json_kn(g, "roofline_p90", e.roofline_p90);
		yajl_gen_map_close(g);
	}
}

static void json_end(rl_report *r, const struct rl_summary *s)
{
	yajl_gen g = r->g;
	size_t i;
	int k;

	yajl_gen_array_close(g);
	rl_json_str(g, "summary");
	yajl_gen_map_open(g);
	rl_json_kn(g, "ops", (double)s->ops);
	rl_json_ku(g, "occurrences", s->occurrences);
	/* unprefixed: the roofline's, as in the ops; expected_*: expected */
	rl_json_kn(g, "total_us", s->roofline_us);
	rl_json_kn(g, "gpu_us", s->roofline_gpu_us);
	rl_json_kn(g, "expected_us", s->total_us);
	rl_json_kn(g, "expected_gpu_us", s->gpu_us);
	rl_json_kn(g, "flops", s->flops);
	rl_json_kn(g, "bytes", s->bytes);
	rl_json_kn(g, "kernels", s->kernels);
	if (r->info.impl != NULL)
		rl_json_kv(g, "impl", r->info.impl);
	json_shares(g, "share", s->roofline_bound_us, s->roofline_us);
	json_counts(g, "ops_by_bound", s->roofline_bound_ops);
	json_shares(g, "expected_share", s->bound_us, s->total_us);
	json_counts(g, "expected_ops_by_bound", s->bound_ops);
	if (s->measured_ops > 0) {
		rl_json_kn(g, "measured_us", s->measured_us);
		rl_json_kn(g, "roofline_of_measured_us", s->roofline_of_measured_us);
		rl_json_kn(g, "expected_of_measured_us", s->expected_of_measured_us);
		json_errors(g, s);
	}
	rl_json_kn(g, "l2_resident_ops", (double)s->l2_ops);
	if (s->phase_ops[RL_PHASE_BACKWARD] + s->phase_ops[RL_PHASE_OPTIMIZER] > 0) {
		rl_json_str(g, "phases");
		yajl_gen_map_open(g);
		for (k = 0; k < RL_PHASE_COUNT; k++) {
			rl_json_str(g, rl_phase_name((enum rl_phase)k));
			yajl_gen_map_open(g);
			rl_json_kn(g, "ops", (double)s->phase_ops[k]);
			rl_json_kn(g, "expected_us", s->phase_us[k]);
			rl_json_kn(g, "roofline_us", s->phase_roofline_us[k]);
			rl_json_kn(g, "flops", s->phase_flops[k]);
			rl_json_kn(g, "bytes", s->phase_bytes[k]);
			yajl_gen_map_close(g);
		}
		yajl_gen_map_close(g);
	}
	json_parallel(r, s);
	if (r->info.mem != NULL) {
		const struct rl_memfit *m = r->info.mem;

		rl_json_str(g, "memory");
		yajl_gen_map_open(g);
		rl_json_kn(g, "weight_bytes", m->weight_bytes);
		rl_json_kn(g, "kv_bytes", m->kv_bytes);
		rl_json_kn(g, "activation_bytes", m->activation_bytes);
		if (m->train) {
			rl_json_kn(g, "gradient_bytes", m->gradient_bytes);
			rl_json_kn(g, "optimizer_bytes", m->optimizer_bytes);
			rl_json_kn(g, "master_bytes", m->master_bytes);
			rl_json_kn(g, "saved_activation_bytes", m->saved_bytes);
		}
		rl_json_kn(g, "total_bytes", rl_memfit_total_bytes(m));
		if (rl_memfit_device_bytes(r->info.dev) > 0) {
			rl_json_kn(g, "device_bytes", rl_memfit_device_bytes(r->info.dev));
			rl_json_str(g, "fits");
			yajl_gen_bool(g, rl_memfit_fits(m, r->info.dev));
		}
		yajl_gen_map_close(g);
	}
	if (r->info.l2)
		rl_json_kn(g, "l2_saved_us", s->l2_saved_us);
	rl_json_str(g, "top");
	yajl_gen_array_open(g);
	for (i = 0; i < s->ntop; i++) {
		yajl_gen_map_open(g);
		rl_json_kv(g, "name", s->top[i].name);
		rl_json_kn(g, "total_us", s->top[i].roofline_us);
		rl_json_kn(g, "expected_us", s->top[i].total_us);
		rl_json_kn(g, "share", s->total_us > 0 ? s->top[i].total_us / s->total_us : 0);
		rl_json_kv(g, "bound", rl_bound_name(s->top[i].bound));
		rl_json_kv(g, "expected_bound", rl_bound_name(s->top[i].expected_bound));
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	rl_json_str(g, "advice");
	yajl_gen_map_open(g);
	for (k = 0; k < RL_BOUND_COUNT; k++)
		if (s->bound_ops[k] > 0)
			rl_json_kv(g, rl_bound_name((enum rl_bound)k), rl_bound_advice((enum rl_bound)k));
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
	if (r->info.step != NULL)
		json_step(g, r->info.step);
	if (r->info.timeline != NULL) {
		rl_json_str(g, "timeline");
		rl_timeline_json(g, r->info.timeline);
	}
	yajl_gen_map_close(g);
	json_flush(r);
	fputc('\n', r->out);
}

/* ---- dispatch ---- */

int rl_report_begin(FILE *out, enum rl_format fmt, const struct rl_report_info *info,
                    rl_report **rep)
{
	rl_report *r = calloc(1, sizeof(*r));
	size_t i;

	if (r == NULL)
		return RL_ERR_NOMEM;
	r->out = out;
	r->fmt = fmt;
	r->info = *info;
	r->has_measured = info->has_measured;
	r->has_host = info->has_host;
	*rep = r;
	for (i = 0; i < RL_COL_COUNT; i++)
		r->cols[i] = RL_COL_COUNT;
	pick_columns(r);
	switch (fmt) {
	case RL_FMT_CSV: csv_begin(r); break;
	case RL_FMT_JSON: return json_begin(r);
	case RL_FMT_TABLE:
	case RL_FMT_MD: table_begin(r); break;
	case RL_FMT_HTML: return rl_html_report_begin(out, info, r->cols, r->ncols, &r->html);
	}
	return 0;
}

static void note_fallback(rl_report *r, const struct rl_pred *p)
{
	size_t i;

	for (i = 0; i < r->nfb; i++)
		if (r->fb_wanted[i] == p->wanted && r->fb_used[i] == p->pipe)
			return;
	if (r->nfb < RL_PIPE_COUNT) {
		r->fb_wanted[r->nfb] = p->wanted;
		r->fb_used[r->nfb++] = p->pipe;
	}
}

/* Counts P's quantised-path note (a static string: one pointer per note). */
static void note_quantised(rl_report *r, const struct rl_pred *p)
{
	size_t i;

	if (!p->expected_assumed || p->expected_note == NULL)
		return;
	for (i = 0; i < r->nq; i++)
		if (r->qnote[i] == p->expected_note) {
			r->qnote_ops[i]++;
			return;
		}
	if (r->nq < RL_REPORT_QNOTES) {
		r->qnote[r->nq] = p->expected_note;
		r->qnote_ops[r->nq++] = 1;
	}
}

int rl_report_row(rl_report *r, const struct rl_op *op, const struct rl_pred *p)
{
	const struct rl_col_row row = {op, p, r->info.has_phase, r->info.l2};

	if (p->fallback)
		note_fallback(r, p);
	note_quantised(r, p);
	switch (r->fmt) {
	case RL_FMT_CSV: csv_row(r, &row); break;
	case RL_FMT_JSON: json_row(r, &row); break;
	case RL_FMT_TABLE:
	case RL_FMT_MD:
		if (expected_cols(r) && p->expected_bound != p->bound)
			r->bound_differs++;
		text_row(r, &row);
		break;
	case RL_FMT_HTML: {
		int rc;

		if (expected_cols(r) && p->expected_bound != p->bound)
			r->bound_differs++;
		if ((rc = rl_html_report_row(r->html, &row)) < 0)
			return rc;
		break;
	}
	}
	if (r->oom)
		return RL_ERR_NOMEM;
	return ferror(r->out) ? RL_ERR_IO : 0;
}

/* html: the page's end, with the summary as the table writes it (its
 * footnotes, the step, the layout, the timeline) as text beside the
 * page's own sections. */
static int html_end(rl_report *r, const struct rl_summary *s)
{
	FILE *out = r->out, *mem;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if ((mem = open_memstream(&text, &len)) == NULL)
		return RL_ERR_NOMEM;
	r->out = mem;
	r->fmt = RL_FMT_TABLE;
	table_end(r, s);
	r->fmt = RL_FMT_HTML;
	r->out = out;
	if (fclose(mem) != 0) {
		free(text);
		return RL_ERR_NOMEM;
	}
	/* the table's summary opens with a blank line */
	rc = rl_html_report_end(r->html, s, text + (len > 0 && text[0] == '\n'),
	                        len - (len > 0 && text[0] == '\n'));
	free(text);
	return rc;
}

int rl_report_end(rl_report *r, const struct rl_summary *s)
{
	line_flush(r);
	switch (r->fmt) {
	case RL_FMT_CSV: break;
	case RL_FMT_JSON: json_end(r, s); break;
	case RL_FMT_TABLE:
	case RL_FMT_MD: table_end(r, s); break;
	case RL_FMT_HTML: return html_end(r, s);
	}
	return ferror(r->out) ? RL_ERR_IO : 0;
}

void rl_report_free(rl_report *r)
{
	if (r == NULL)
		return;
	rl_json_writer_free(r->jw);
	rl_html_report_free(r->html);
	free(r->line);
	free(r);
}
