/* report.c - table, csv, json and md writers (see report.h). */
#include "config.h"

#include "report.h"

#include <csv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>

#include "fmt.h"
#include "json.h"
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
	char *line; /* the csv or table row being built */
	size_t line_len, line_cap;
	int oom;
	struct rl_json_writer *jw;
	yajl_gen g; /* jw's generator */
};

int rl_format_parse(const char *s, enum rl_format *out)
{
	static const char *const names[] = {"table", "csv", "json", "md"};
	int i;

	for (i = 0; i < 4; i++) {
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

/* ---- csv ---- */

static const char *const csv_cols[] = {
	"name", "kind", "dtype", "count", "flops", "bytes", "intensity", "unit",
	"t_compute_us", "t_memory_us", "t_overhead_us", "t_gpu_us", "t_us", "bound",
	"attainable_tflops",
};

static void csv_begin(rl_report *r)
{
	size_t i;

	for (i = 0; i < sizeof(csv_cols) / sizeof(csv_cols[0]); i++)
		fprintf(r->out, "%s%s", i ? "," : "", csv_cols[i]);
	if (has_measured(r))
		fputs(",measured_us,roofline_pct,measured_over_expected,measured_over_roofline",
		      r->out);
	if (r->has_host)
		fputs(",host_us", r->out);
	fputs(",l2_resident,expected_gpu_us,expected_us,expected_bound", r->out);
	if (r->info.has_phase)
		fputs(",phase", r->out);
	for (i = 0; i < r->info.nextra; i++) {
		fputc(',', r->out);
		rl_csv_field(r->out, r->info.extra_names[i]);
	}
	fputc('\n', r->out);
}

/* A csv row is built in memory and written with one fwrite: stdio's
 * per-call cost dominated a million-row write. */
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

/* Appends S as a csv field after a comma (FIRST: no comma), quoted by
 * libcsv's csv_write when it needs quotes. */
static void line_field(rl_report *r, const char *s, int first)
{
	size_t n = strlen(s);

	if (!first)
		line_put(r, ",", 1);
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

static void line_num(rl_report *r, double v)
{
	char b[64];

	line_put(r, ",", 1);
	line_put(r, b, rl_fmt_num(b, v));
}

/* Appends a blank and S padded to |WIDTH| (negative: left-aligned). */
static void line_col(rl_report *r, const char *s, int width)
{
	static const char blanks[] = "                                ";
	size_t n = strlen(s), w = (size_t)(width < 0 ? -width : width);
	size_t pad = n < w ? w - n : 0;

	line_put(r, " ", 1);
	if (width > 0)
		line_put(r, blanks, pad);
	line_put(r, s, n);
	if (width < 0)
		line_put(r, blanks, pad);
}

/* Appends NUM / DEN, or an empty field when DEN is not positive. */
static void line_ratio(rl_report *r, double num, double den)
{
	if (den > 0)
		line_num(r, num / den);
	else
		line_put(r, ",", 1);
}

static void csv_row(rl_report *r, const struct rl_op *op, const struct rl_pred *p)
{
	const double nums[] = {p->flops, p->bytes, p->intensity};
	const double times[] = {p->t_compute_us, p->t_memory_us, p->t_overhead_us,
	                        p->t_gpu_us, p->t_us};
	char b[32];
	size_t i;

	r->line_len = 0;
	line_field(r, op->name, 1);
	line_field(r, rl_kind_name(op->kind), 0);
	line_field(r, rl_dtype_name(op->dtype), 0);
	line_put(r, ",", 1);
	line_put(r, b, rl_fmt_u64(b, op->count));
	for (i = 0; i < 3; i++)
		line_num(r, nums[i]);
	line_field(r, rl_unit_name(p->unit), 0);
	for (i = 0; i < 5; i++)
		line_num(r, times[i]);
	line_field(r, rl_bound_name(p->bound), 0);
	line_num(r, p->attainable_flops / 1e12);
	if (has_measured(r)) {
		if (op->has & RL_HAS_MEASURED) {
			line_num(r, op->measured_us);
			line_num(r, p->roofline_pct);
			line_ratio(r, op->measured_us, p->expected_gpu_us);
			line_ratio(r, op->measured_us, p->t_gpu_us);
		} else {
			line_put(r, ",,,,", 4);
		}
	}
	if (r->has_host) {
		if (op->has & RL_HAS_HOST)
			line_num(r, op->host_us);
		else
			line_put(r, ",", 1);
	}
	line_put(r, p->l2_resident ? ",1" : ",0", 2);
	line_num(r, p->expected_gpu_us);
	line_num(r, p->expected_us);
	line_field(r, rl_bound_name(p->expected_bound), 0);
	if (r->info.has_phase)
		line_field(r, rl_phase_name(op->phase), 0);
	for (i = 0; i < r->info.nextra; i++)
		line_field(r, op->extra[i], 0);
	line_put(r, "\n", 1);
	fwrite(r->line, 1, r->line_len, r->out);
}

/* ---- table and md ---- */

static void wrap(FILE *out, const char *text, const char *first, const char *rest);
static void cut_name(char *buf, size_t len, const char *name, int w, char mark);

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
		fprintf(r->out, "| name | kind | dtype | count | FLOP/B | %s | %s | TFLOP/s",
		        x ? "expected_us" : "t_us", x ? "expected bound" : "bound");
		if (has_measured(r) && x)
			fputs(" | measured_us | measured / expected | measured / roofline |\n"
			      "|---|---|---|--:|--:|--:|---|--:|--:|--:|--:|\n",
			      r->out);
		else if (has_measured(r))
			fputs(" | measured_us | roofline % |\n|---|---|---|--:|--:|--:|---|--:|--:|--:|\n", r->out);
		else
			fputs(" |\n|---|---|---|--:|--:|--:|---|--:|\n", r->out);
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
	if (r->info.wide) {
		fprintf(r->out, "%-32s %-9s %-8s %6s %10s %10s %8s %-6s %10s %10s %10s %10s %10s %-8s %8s",
		        "name", "kind", "dtype", "count", "GFLOP", "MB", "FLOP/B", "unit", "t_comp_us",
		        "t_mem_us", "t_ovh_us", "t_gpu_us", "t_us", "bound", "TFLOP/s");
		if (x)
			fprintf(r->out, " %10s %10s %-9s", "exp_gpu_us", "exp_us", "exp_bound");
		if (has_measured(r))
			fprintf(r->out, " %10s %7s", "meas_us", "roof%");
		if (has_measured(r) && x)
			fprintf(r->out, " %6s %6s", "m/exp", "m/roof");
	} else if (has_measured(r) && x) {
		fprintf(r->out, "%-*s %-9s %-8s %9s %-9s %8s %5s %6s", NAME_W, "name", "kind",
		        "dtype", "exp_us", "exp_bound", "meas_us", "m/exp", "m/roof");
	} else if (has_measured(r)) {
		fprintf(r->out, "%-*s %-9s %-8s %7s %9s %-8s %9s %5s", NAME_W, "name", "kind",
		        "dtype", "FLOP/B", "t_us", "bound", "meas_us", "roof%");
	} else {
		fprintf(r->out, "%-*s %-9s %-8s %5s %7s %9s %-*s %7s", NAME_W, "name", "kind",
		        "dtype", "count", "FLOP/B", x ? "exp_us" : "t_us", x ? 9 : 8,
		        x ? "exp_bound" : "bound", "TFLOP/s");
	}
	fputc('\n', r->out);
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

/* A ratio for the table: "1.23", or "-" when DEN is not positive. */
static void fmt_ratio(char *buf, size_t len, double num, double den)
{
	if (den > 0 && num / den < 1e4)
		rl_fmt_fixed(buf, num / den, 2);
	else if (den > 0)
		snprintf(buf, len, "%.3g", num / den);
	else
		snprintf(buf, len, "-");
}

/* A then B into BUF of LEN bytes, cut to fit: snprintf's "%s%s" without its
 * cost, which a million rows feel. */
static void cat2(char *buf, size_t len, const char *a, const char *b)
{
	size_t n = 0;

	while (*a && n + 1 < len)
		buf[n++] = *a++;
	while (*b && n + 1 < len)
		buf[n++] = *b++;
	buf[n] = '\0';
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

static void table_row(rl_report *r, const struct rl_op *op, const struct rl_pred *p)
{
	char kb[16];
	char name[4 * NAME_W + 8], ai[32], t[32], dt[16], m[32], pct[32], tf[32];
	char bnd[32], rx[32], rr[32];
	int x = expected_cols(r);

	cat2(dt, sizeof(dt), rl_dtype_name(op->dtype), p->fallback ? "*" : "");
	fmt_intensity(ai, sizeof(ai), p->intensity);
	rl_fmt_us(t, sizeof(t), x ? p->expected_us : p->t_us);
	cat2(bnd, sizeof(bnd), rl_bound_name(x ? p->expected_bound : p->bound),
	     x && p->expected_bound != p->bound ? DIFF_MARK : "");
	rl_fmt_fixed(tf, p->attainable_flops / 1e12, 2);
	m[0] = pct[0] = '\0';
	if (op->has & RL_HAS_MEASURED) {
		rl_fmt_us(m, sizeof(m), op->measured_us);
		rl_fmt_fixed(pct, p->roofline_pct, 0);
		fmt_ratio(rx, sizeof(rx), op->measured_us, p->expected_gpu_us);
		fmt_ratio(rr, sizeof(rr), op->measured_us, p->t_gpu_us);
	} else {
		strcpy(m, "-");
		strcpy(pct, "-");
		strcpy(rx, "-");
		strcpy(rr, "-");
	}
	if (x && p->expected_bound != p->bound)
		r->bound_differs++;
	if (r->fmt == RL_FMT_MD) {
		fputs("| ", r->out);
		/* a '|' inside a name would end the cell */
		for (const char *c = op->name; *c; c++)
			fputs(*c == '|' ? "\\|" : (char[]){*c, 0}, r->out);
		if (p->l2_resident)
			fputs(L2_MARK, r->out);
		fprintf(r->out, " | %s | %s | %llu | %s | %s | %s | %s", rl_kind_name(op->kind), dt,
		        (unsigned long long)op->count, ai, t, bnd, tf);
		if (has_measured(r) && x)
			fprintf(r->out, " | %s | %s | %s", m, rx, rr);
		else if (has_measured(r))
			fprintf(r->out, " | %s | %s", m, pct);
		fputs(" |\n", r->out);
		return;
	}
	if (r->info.wide) {
		char c[32], mm[32], o[32], g[32], tt[32], eg[32];

		rl_fmt_us(c, sizeof(c), p->t_compute_us);
		rl_fmt_us(mm, sizeof(mm), p->t_memory_us);
		rl_fmt_us(o, sizeof(o), p->t_overhead_us);
		rl_fmt_us(g, sizeof(g), p->t_gpu_us);
		rl_fmt_us(tt, sizeof(tt), p->t_us);
		rl_fmt_us(eg, sizeof(eg), p->expected_gpu_us);
		fprintf(r->out, "%s%-*s %-9s %-8s %6llu %10.4g %10.4g %8s %-6s %10s %10s %10s %10s %10s %-8s %8s",
		        op->name, strlen(op->name) < 32 ? 32 - (int)strlen(op->name) : 0,
		        p->l2_resident ? L2_MARK : "",
		        table_kind(op->kind, kb, sizeof(kb)), dt, (unsigned long long)op->count,
		        p->flops / 1e9, p->bytes / 1e6, ai, rl_unit_name(p->unit), c, mm, o, g, tt,
		        rl_bound_name(p->bound), tf);
		if (x)
			fprintf(r->out, " %10s %10s %-9s", eg, t, bnd);
		if (has_measured(r))
			fprintf(r->out, " %10s %7s", m, pct);
		if (has_measured(r) && x)
			fprintf(r->out, " %6s %6s", rx, rr);
		fputc('\n', r->out);
		return;
	}
	cut_name(name, sizeof(name), op->name, NAME_W, p->l2_resident ? L2_MARK[0] : 0);
	/* the narrow table is built like a csv row: fixed columns, one fwrite */
	r->line_len = 0;
	line_put(r, name, strlen(name));
	line_col(r, table_kind(op->kind, kb, sizeof(kb)), -9);
	line_col(r, dt, -8);
	if (has_measured(r) && x) {
		line_col(r, t, 9);
		line_col(r, bnd, -9);
		line_col(r, m, 8);
		line_col(r, rx, 5);
		line_col(r, rr, 6);
	} else if (has_measured(r)) {
		line_col(r, ai, 7);
		line_col(r, t, 9);
		line_col(r, bnd, -8);
		line_col(r, m, 9);
		line_col(r, pct, 5);
	} else {
		char cnt[24];

		/* the count column is 5 wide: 12345, 123k, 123M, 1e+12 */
		if (op->count < 100000)
			rl_fmt_u64(cnt, op->count);
		else if (op->count < 100000000)
			snprintf(cnt, sizeof(cnt), "%lluk", (unsigned long long)(op->count / 1000));
		else if (op->count < 100000000000ULL)
			snprintf(cnt, sizeof(cnt), "%lluM", (unsigned long long)(op->count / 1000000));
		else
			snprintf(cnt, sizeof(cnt), "%.0e", (double)op->count);
		line_col(r, cnt, 5);
		line_col(r, ai, 7);
		line_col(r, t, 9);
		line_col(r, bnd, x ? -9 : -8);
		line_col(r, tf, 7);
	}
	line_put(r, "\n", 1);
	fwrite(r->line, 1, r->line_len, r->out);
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
		double m = (double)p->lay.microbatches;

		rl_fmt_us(c, sizeof(c), s->total_us * (m + (double)p->lay.pp - 1) / m);
		snprintf(line, sizeof(line),
		         "pipeline: %llu stages of %llu layers, %llu micro-batch%s of %llu "
		         "sequence%s: bubble (pp - 1) / (m + pp - 1) = %.1f %%, step %s us "
		         "(the last stage's %s us x (m + pp - 1) / m)",
		         (unsigned long long)p->lay.pp, (unsigned long long)p->stage_layers,
		         (unsigned long long)p->lay.microbatches,
		         p->lay.microbatches == 1 ? "" : "es", (unsigned long long)p->micro_batch,
		         p->micro_batch == 1 ? "" : "s", p->bubble * 100, c, t);
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
	rl_json_kn(g, "step_us", s->total_us * ((double)p->lay.microbatches +
	                                        (double)p->lay.pp - 1) /
	                             (double)p->lay.microbatches);
	yajl_gen_map_close(g);
}

static void table_end(rl_report *r, const struct rl_summary *s)
{
	const char *item = r->fmt == RL_FMT_MD ? "- " : "  ";
	int md = r->fmt == RL_FMT_MD, x = expected_cols(r);
	char t[32], f[32], b[32], line[512];
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
	snprintf(line, sizeof(line), "%s%s us %s for %zu op%s (%llu occurrence%s), %s, %s",
	         md ? "**Total:** " : "total: ", t, x ? "expected" : "predicted", s->ops,
	         s->ops == 1 ? "" : "s", (unsigned long long)s->occurrences,
	         s->occurrences == 1 ? "" : "s", f, b);
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

static void json_row(rl_report *r, const struct rl_op *op, const struct rl_pred *p)
{
	yajl_gen g = r->g;
	size_t i;

	yajl_gen_map_open(g);
	rl_json_kv(g, "name", op->name);
	rl_json_kv(g, "kind", rl_kind_name(op->kind));
	rl_json_kv(g, "dtype", rl_dtype_name(op->dtype));
	if (r->info.has_phase)
		rl_json_kv(g, "phase", rl_phase_name(op->phase));
	rl_json_ku(g, "count", op->count);
	rl_json_kn(g, "flops", p->flops);
	rl_json_kn(g, "bytes", p->bytes);
	rl_json_kn(g, "intensity", p->intensity);
	rl_json_kv(g, "unit", rl_unit_name(p->unit));
	rl_json_kv(g, "pipe", rl_pipe_key(p->pipe));
	rl_json_str(g, "fallback");
	yajl_gen_bool(g, p->fallback);
	rl_json_kn(g, "peak_tflops", p->peak_flops / 1e12);
	rl_json_kn(g, "ridge_flop_per_byte", p->ridge);
	rl_json_kn(g, "t_compute_us", p->t_compute_us);
	rl_json_kn(g, "t_memory_us", p->t_memory_us);
	rl_json_kn(g, "t_overhead_us", p->t_overhead_us);
	rl_json_kn(g, "t_launch_us", p->t_launch_us);
	rl_json_kn(g, "t_gpu_us", p->t_gpu_us);
	rl_json_kn(g, "t_us", p->t_us);
	rl_json_kv(g, "bound", rl_bound_name(p->bound));
	if (rl_kind_is_collective(op->kind)) {
		/* the interconnect's parts (collective.h) */
		rl_json_ku(g, "ranks", op->ranks);
		rl_json_ku(g, "nodes", op->nodes);
		rl_json_kn(g, "t_network_us", p->t_network_us);
		rl_json_kn(g, "t_net_intra_us", p->t_net_intra_us);
		rl_json_kn(g, "t_net_inter_us", p->t_net_inter_us);
		rl_json_kn(g, "t_net_latency_us", p->t_net_latency_us);
	}
	rl_json_kn(g, "attainable_tflops", p->attainable_flops / 1e12);
	rl_json_str(g, "l2_resident");
	yajl_gen_bool(g, p->l2_resident);
	if (p->l2_resident)
		rl_json_kn(g, "l2_bytes", p->l2_bytes);
	if (p->l2_resident && r->info.l2)
		rl_json_kn(g, "l2_saved_us", p->l2_saved_us);
	rl_json_kn(g, "expected_gpu_us", p->expected_gpu_us);
	rl_json_kn(g, "expected_us", p->expected_us);
	rl_json_kv(g, "expected_bound", rl_bound_name(p->expected_bound));
	if (p->expected_note != NULL)
		rl_json_kv(g, "expected_note", p->expected_note);
	rl_json_kv(g, "advice", rl_op_advice(op, p));
	if (op->has & RL_HAS_MEASURED) {
		rl_json_kn(g, "measured_us", op->measured_us);
		rl_json_kn(g, "roofline_pct", p->roofline_pct);
		if (p->expected_gpu_us > 0)
			rl_json_kn(g, "measured_over_expected", op->measured_us / p->expected_gpu_us);
		if (p->t_gpu_us > 0)
			rl_json_kn(g, "measured_over_roofline", op->measured_us / p->t_gpu_us);
	}
	if (op->has & RL_HAS_HOST)
		rl_json_kn(g, "host_us", op->host_us);
	if (op->line > 0)
		rl_json_kn(g, "line", (double)op->line);
	if (r->info.nextra > 0) {
		rl_json_str(g, "extra");
		yajl_gen_map_open(g);
		for (i = 0; i < r->info.nextra; i++)
			rl_json_kv(g, r->info.extra_names[i], op->extra[i]);
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
	json_flush(r);
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

	if (r == NULL)
		return RL_ERR_NOMEM;
	r->out = out;
	r->fmt = fmt;
	r->info = *info;
	r->has_measured = info->has_measured;
	r->has_host = info->has_host;
	*rep = r;
	switch (fmt) {
	case RL_FMT_CSV: csv_begin(r); break;
	case RL_FMT_JSON: return json_begin(r);
	default: table_begin(r); break;
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
	if (p->fallback)
		note_fallback(r, p);
	note_quantised(r, p);
	switch (r->fmt) {
	case RL_FMT_CSV: csv_row(r, op, p); break;
	case RL_FMT_JSON: json_row(r, op, p); break;
	default: table_row(r, op, p); break;
	}
	if (r->oom)
		return RL_ERR_NOMEM;
	return ferror(r->out) ? RL_ERR_IO : 0;
}

int rl_report_end(rl_report *r, const struct rl_summary *s)
{
	switch (r->fmt) {
	case RL_FMT_CSV: break;
	case RL_FMT_JSON: json_end(r, s); break;
	default: table_end(r, s); break;
	}
	return ferror(r->out) ? RL_ERR_IO : 0;
}

void rl_report_free(rl_report *r)
{
	if (r == NULL)
		return;
	rl_json_writer_free(r->jw);
	free(r->line);
	free(r);
}
