/* report_html.c - the html page of a classified op list (see report_html.h). */
#include "config.h"

#include "report_html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "fmt.h"
#include "html.h"
#include "kind.h"
#include "svg.h"

/* The timeline's drawing: x from 0 to TL_W over the step, a lane's bar
 * TL_BAR high in a lane TL_LANE high. */
#define TL_W 1000
#define TL_LANE 26
#define TL_BAR 20

/* The op table shows this many rows until the reader asks for every one:
 * a browser lays out a table of 2,000 rows of 28 cells in over a second
 * (docs/html.md), one of 100 in a fraction of it. */
#define SHOWN_ROWS 100

/* One op on the selected runtime's lanes: host issue, GPU, communication
 * stream (us from the start of the step; end <= start: none there). Its
 * kernels are drawn as one block ending where its last one ends. */
struct span {
	double h0, h1, g0, g1, c0, c1;
	enum rl_bound bound;
};

struct rl_html_report {
	FILE *out;
	struct rl_report_info info;
	enum rl_col cols[RL_COL_COUNT];
	size_t ncols;
	int x;          /* expected columns (not --best-case) */
	int col_bound;  /* positions (from 1) of the bound columns, 0: none */
	int col_xbound;
	rl_chart *chart;
	struct rl_chart_info chart_info;
	size_t rows;
	/* the timeline: the selected lane, its clocks after the last op */
	size_t lane;
	int has_lane;
	double host, gpu, busy, comm_end, overlap;
	struct span *spans;
	size_t nspans, cap;
	int oom;
};

static const char *base_name(const char *path)
{
	const char *s = path != NULL ? strrchr(path, '/') : NULL;

	return s != NULL && s[1] != '\0' ? s + 1 : path;
}

/* What the page is of: a trace, a model's step or an op list. */
static const char *what(const struct rl_report_info *info)
{
	return info->step != NULL ? "Trace" : info->impl != NULL ? "Model step" : "Op list";
}

/* The op table's per-column style: numbers right-aligned, the bound
 * columns' mark of a bound that differs; by position, so that a cell
 * needs no class. */
static void column_css(rl_html_report *h, char *css, size_t len)
{
	size_t i, at = 0;
	int any = 0;

	css[0] = '\0';
	for (i = 0; i < h->ncols && at + 64 < len; i++) {
		const struct rl_column *c = &rl_columns[h->cols[i]];

		if (c->type == RL_COL_STR)
			continue;
		at += (size_t)snprintf(css + at, len - at, "%s#op-table td:nth-child(%zu)",
		                       any ? "," : "", i + 1);
		any = 1;
	}
	if (any && at + 32 < len)
		at += (size_t)snprintf(css + at, len - at, "{text-align:right}\n");
	if (h->col_xbound > 0 && at + 96 < len)
		snprintf(css + at, len - at,
		         "#op-table tr.differs td:nth-child(%d)::after{content:\" *\";"
		         "color:var(--compute)}\n",
		         h->col_xbound);
}

int rl_html_report_begin(FILE *out, const struct rl_report_info *info, const enum rl_col *cols,
                         size_t ncols, rl_html_report **out_rep)
{
	rl_html_report *h = calloc(1, sizeof(*h));
	char title[512], css[4096], buf[128];
	size_t i;

	*out_rep = NULL;
	if (h == NULL)
		return RL_ERR_NOMEM;
	h->out = out;
	h->info = *info;
	h->ncols = ncols < RL_COL_COUNT ? ncols : RL_COL_COUNT;
	memcpy(h->cols, cols, h->ncols * sizeof(*cols));
	h->x = !info->best_case;
	for (i = 0; i < h->ncols; i++) {
		if (h->cols[i] == RL_COL_BOUND)
			h->col_bound = (int)i + 1;
		if (h->cols[i] == RL_COL_EXPECTED_BOUND && h->x)
			h->col_xbound = (int)i + 1;
	}
	h->chart_info.dev = info->dev;
	h->chart_info.runtime = info->runtime;
	h->chart_info.host_overhead_us = info->host_overhead_us;
	h->chart_info.source = info->source;
	h->chart_info.best_case = info->best_case;
	h->chart_info.host_kind_us = info->host_kind_us;
	if (rl_chart_new(&h->chart_info, &h->chart) < 0) {
		free(h);
		return RL_ERR_NOMEM;
	}
	if (info->timeline != NULL)
		for (i = 0; i < info->timeline->nlanes; i++)
			if (info->timeline->lanes[i].selected) {
				h->lane = i;
				h->has_lane = 1;
			}
	*out_rep = h;

	snprintf(title, sizeof(title), "%s%s%s on %s - roofline", what(info),
	         info->source ? ": " : "", info->source ? base_name(info->source) : "",
	         info->dev->id);
	column_css(h, css, sizeof(css));
	{
		char heading[512];

		snprintf(heading, sizeof(heading), "%s%s%s", what(info), info->source ? ": " : "",
		         info->source ? base_name(info->source) : "");
		rl_html_begin(out, title, css, heading);
	}
	snprintf(buf, sizeof(buf), "%s (%s)", info->dev->name, info->dev->id);
	rl_html_meta(out, "device", buf);
	rl_html_meta(out, "runtime", info->runtime);
	rl_fmt_us(buf, sizeof(buf), info->host_overhead_us);
	strncat(buf, " us", sizeof(buf) - strlen(buf) - 1);
	rl_html_meta(out, "host cost per launch", buf);
	rl_html_meta(out, "implementation", info->impl);
	{
		/* the source says what it is the source of */
		const char *src = info->expected_source;
		static const char lead[] = "expected times: ";

		if (src != NULL && strncmp(src, lead, sizeof(lead) - 1) == 0)
			src += sizeof(lead) - 1;
		rl_html_meta(out, "expected times", info->best_case ? "the roofline's (--best-case)" : src);
	}
	rl_html_meta(out, "interconnect", info->interconnect);
	rl_html_meta(out, "input", info->source);
	rl_html_main(out);

	fputs("<section id=\"ops\">\n<h2>Ops</h2>\n"
	      "<form id=\"filters\" class=\"filters\" hidden>"
	      "<label>kind <select name=\"kind\"><option value=\"\">all</option></select></label>"
	      "<label>bound <select name=\"bound\"><option value=\"\">all</option>",
	      out);
	for (i = 0; i < RL_BOUND_COUNT; i++)
		fprintf(out, "<option>%s</option>", rl_bound_name((enum rl_bound)i));
	fprintf(out,
	        "</select></label>"
	        "<label>name <input name=\"q\" type=\"search\" placeholder=\"part of a name\">"
	        "</label><span id=\"op-count\" class=\"count\"></span></form>\n"
	        "<p class=\"note\">Each cell is the value csv writes. Click a heading to sort; "
	        "the bound filter is the %s bound%s. A point of the chart selects its row.</p>\n"
	        "<input type=\"checkbox\" id=\"all-rows\"><label for=\"all-rows\"> show every "
	        "row (the first %d are shown)</label>\n"
	        "<div class=\"scroll\">\n<table id=\"op-table\" class=\"sortable\" "
	        "data-rows=\"%d\">\n<thead><tr>",
	        h->x ? "expected" : "roofline's",
	        h->x ? "; * marks an expected bound that is not the roofline's" : "", SHOWN_ROWS,
	        SHOWN_ROWS);
	for (i = 0; i < h->ncols; i++) {
		const struct rl_column *c = &rl_columns[h->cols[i]];

		fprintf(out, "<th data-col=\"%s\"%s title=\"", c->name,
		        c->type == RL_COL_STR ? "" : " class=\"num\"");
		rl_html_text(out, c->doc);
		fprintf(out, "\">%s</th>", c->name);
	}
	for (i = 0; i < info->nextra; i++) {
		fputs("<th data-col=\"", out);
		rl_html_text(out, info->extra_names[i]);
		fputs("\">", out);
		rl_html_text(out, info->extra_names[i]);
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	return ferror(out) ? RL_ERR_IO : 0;
}

/* The op's spans on the selected lane, from the lane's clocks before and
 * after it. */
static void keep_span(rl_html_report *h, enum rl_bound bound)
{
	const struct rl_tl_lane *l = &h->info.timeline->lanes[h->lane];
	struct span *sp;

	if (h->nspans == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 256;
		struct span *n = realloc(h->spans, cap * sizeof(*n));

		if (n == NULL) {
			h->oom = 1;
			return;
		}
		h->spans = n;
		h->cap = cap;
	}
	sp = &h->spans[h->nspans++];
	sp->h0 = h->host;
	sp->h1 = l->host_us;
	sp->g1 = l->gpu_end_us;
	sp->g0 = l->gpu_end_us - (l->busy_us - h->busy);
	sp->c1 = l->comm_end_us;
	sp->c0 = l->comm_end_us - (l->overlap_us - h->overlap);
	sp->bound = bound;
	h->host = l->host_us;
	h->gpu = l->gpu_end_us;
	h->busy = l->busy_us;
	h->comm_end = l->comm_end_us;
	h->overlap = l->overlap_us;
}

int rl_html_report_row(rl_html_report *h, const struct rl_col_row *row)
{
	const struct rl_pred *p = row->p;
	enum rl_bound b = h->x ? p->expected_bound : p->bound;
	char buf[32];
	size_t i;

	{
		int differs = h->x && p->expected_bound != p->bound, more = h->rows >= SHOWN_ROWS;

		fprintf(h->out, "<tr id=\"op-%zu\" data-op=\"%zu\" data-kind=\"%s\" data-bound=\"%s\"%s%s%s%s>",
		        h->rows, h->rows, rl_kind_name(row->op->kind), rl_bound_name(b),
		        differs || more ? " class=\"" : "", differs ? "differs" : "",
		        differs && more ? " " : "", more ? "more\"" : differs ? "\"" : "");
	}
	for (i = 0; i < h->ncols; i++) {
		const struct rl_column *c = &rl_columns[h->cols[i]];
		const char *s = rl_column_text(c, row, buf);

		/* a cell's end tag may be left out (HTML's optional tags): a
		 * row is a third shorter without them */
		if (s == NULL) {
			fputs("<td>", h->out);
			continue;
		}
		if ((int)i + 1 == h->col_bound || (int)i + 1 == h->col_xbound)
			fprintf(h->out, "<td class=\"bd-%s\">", s);
		else if (h->cols[i] == RL_COL_ADVICE || h->cols[i] == RL_COL_EXPECTED_NOTE)
			fputs("<td class=\"w\">", h->out);
		else
			fputs("<td>", h->out);
		rl_html_text(h->out, s);
	}
	for (i = 0; i < h->info.nextra; i++) {
		fputs("<td>", h->out);
		rl_html_text(h->out, row->op->extra[i]);
	}
	fputs("</tr>\n", h->out);
	h->rows++;
	if (rl_chart_add(h->chart, row->op, p) < 0)
		return RL_ERR_NOMEM;
	if (h->has_lane)
		keep_span(h, b);
	if (h->oom)
		return RL_ERR_NOMEM;
	return ferror(h->out) ? RL_ERR_IO : 0;
}

/* ---- the summary ---- */

static void card_us(FILE *out, const char *label, double us, const char *note)
{
	char v[48];

	rl_fmt_us(v, sizeof(v) - 4, us);
	strcat(v, " us");
	rl_html_card(out, label, v, note);
}

/* Time by bound: a bar of the shares and a table of both verdicts. */
static void bounds(FILE *out, const struct rl_summary *s, int x)
{
	double total = x ? s->total_us : s->roofline_us;
	char t[32], r[32];
	int k;

	fprintf(out, "<h3>Time by %s bound</h3>\n<div class=\"bar\" role=\"img\" "
	             "aria-label=\"share of the time by bound\">",
	        x ? "expected" : "roofline");
	for (k = 0; k < RL_BOUND_COUNT; k++) {
		double us = x ? s->bound_us[k] : s->roofline_bound_us[k];

		if (total > 0 && us > 0)
			fprintf(out, "<span class=\"bg-%s\" style=\"width:%.3f%%\" title=\"%s %.1f %%\">"
			             "</span>",
			        rl_bound_name((enum rl_bound)k), us / total * 100,
			        rl_bound_name((enum rl_bound)k), us / total * 100);
	}
	fputs("</div>\n<table class=\"sortable\">\n<thead><tr><th>bound</th>", out);
	if (x)
		fputs("<th class=\"num\">expected ops</th><th class=\"num\">expected_us</th>"
		      "<th class=\"num\">share %</th>",
		      out);
	fputs("<th class=\"num\">roofline ops</th><th class=\"num\">roofline us</th>"
	      "<th class=\"num\">share %</th><th>advice</th></tr></thead>\n<tbody>\n",
	      out);
	for (k = 0; k < RL_BOUND_COUNT; k++) {
		const char *name = rl_bound_name((enum rl_bound)k);

		if (s->bound_ops[k] == 0 && s->roofline_bound_ops[k] == 0)
			continue;
		rl_fmt_num(t, s->bound_us[k]);
		rl_fmt_num(r, s->roofline_bound_us[k]);
		fprintf(out, "<tr><td class=\"bd-%s\">%s</td>", name, name);
		if (x)
			fprintf(out, "<td class=\"n\">%zu</td><td class=\"n\">%s</td>"
			             "<td class=\"n\">%.1f</td>",
			        s->bound_ops[k], t, s->total_us > 0 ? s->bound_us[k] / s->total_us * 100 : 0);
		fprintf(out, "<td class=\"n\">%zu</td><td class=\"n\">%s</td><td class=\"n\">%.1f</td>"
		             "<td class=\"w\">",
		        s->roofline_bound_ops[k], r,
		        s->roofline_us > 0 ? s->roofline_bound_us[k] / s->roofline_us * 100 : 0);
		rl_html_text(out, rl_bound_advice((enum rl_bound)k));
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
}

/* The errors against the measured times, over every op measured and over
 * those of 20 us or more (report.c's floor). */
static int errors(FILE *out, const struct rl_summary *s, int x)
{
	static const double floors[] = {0, 20.0};
	size_t i;

	if (s->nerr == 0)
		return 0;
	fputs("<h3>Error against the measured times</h3>\n<table>\n<thead><tr><th>ops</th>"
	      "<th class=\"num\">n</th>",
	      out);
	if (x)
		fputs("<th class=\"num\">expected median %</th><th class=\"num\">expected p90 %</th>",
		      out);
	fputs("<th class=\"num\">roofline median %</th><th class=\"num\">roofline p90 %</th>"
	      "</tr></thead>\n<tbody>\n",
	      out);
	for (i = 0; i < 2; i++) {
		struct rl_summary_err e;

		if (rl_summary_err(s, floors[i], &e) < 0)
			return RL_ERR_NOMEM;
		if (e.ops == 0)
			continue;
		fprintf(out, "<tr><td>%s</td><td class=\"n\">%zu</td>",
		        i == 0 ? "every op measured" : "measured at 20 us or more", e.ops);
		if (x)
			fprintf(out, "<td class=\"n\">%.1f</td><td class=\"n\">%.1f</td>",
			        e.expected_median * 100, e.expected_p90 * 100);
		fprintf(out, "<td class=\"n\">%.1f</td><td class=\"n\">%.1f</td></tr>\n",
		        e.roofline_median * 100, e.roofline_p90 * 100);
	}
	fputs("</tbody></table>\n", out);
	return 0;
}

static int summary(rl_html_report *h, const struct rl_summary *s)
{
	FILE *out = h->out;
	const struct rl_report_info *info = &h->info;
	char v[96], note[256], f[32], b[32];

	fputs("<section id=\"summary\">\n<h2>Summary</h2>\n<div class=\"cards\">\n", out);
	rl_fmt_us(v, sizeof(v), s->roofline_us);
	snprintf(note, sizeof(note), "roofline %s us (best case)", v);
	card_us(out, h->x ? "expected time" : "time (best case)", h->x ? s->total_us : s->roofline_us,
	        h->x ? note : "the roofline's");
	rl_fmt_u64(v, s->ops);
	if (info->impl != NULL)
		snprintf(note, sizeof(note), "%llu occurrences; %.0f kernels a step",
		         (unsigned long long)s->occurrences, s->kernels);
	else
		snprintf(note, sizeof(note), "%llu occurrences", (unsigned long long)s->occurrences);
	rl_html_card(out, "ops", v, note);
	rl_fmt_si(f, sizeof(f), s->flops, 3, "FLOP");
	rl_fmt_si(b, sizeof(b), s->bytes, 3, "B");
	snprintf(note, sizeof(note), "%s moved", b);
	rl_html_card(out, "work", f, note);
	if (info->mem != NULL) {
		double cap = rl_memfit_device_bytes(info->dev);

		snprintf(v, sizeof(v), "%.2f GiB", rl_memfit_total_bytes(info->mem) / RL_MEMFIT_GIB);
		if (cap > 0)
			snprintf(note, sizeof(note), "of %g GiB: %s", cap / RL_MEMFIT_GIB,
			         rl_memfit_fits(info->mem, info->dev) ? "fits" : "does not fit");
		else
			snprintf(note, sizeof(note), "%s gives no memory_gib", info->dev->id);
		rl_html_card(out, "memory", v, note);
	}
	if (info->step != NULL) {
		const struct rl_step *st = info->step;

		snprintf(note, sizeof(note), "GPU busy %.1f %%, idle in %zu gaps",
		         st->span_us > 0 ? st->busy_us / st->span_us * 100 : 0, st->gaps);
		card_us(out, "measured step", st->span_us, note);
	}
	if (s->measured_ops > 0 && s->measured_us > 0) {
		if (h->x)
			snprintf(note, sizeof(note), "expected %.0f %%, roofline %.0f %% of it",
			         s->expected_of_measured_us / s->measured_us * 100,
			         s->roofline_of_measured_us / s->measured_us * 100);
		else
			snprintf(note, sizeof(note), "roofline %.0f %% of it",
			         s->roofline_of_measured_us / s->measured_us * 100);
		card_us(out, "measured GPU time", s->measured_us, note);
	}
	if (s->comm_ops > 0) {
		rl_fmt_us(v, sizeof(v), s->comm_overlap_us);
		snprintf(note, sizeof(note), "%zu collectives; %s us of it overlapped", s->comm_ops, v);
		card_us(out, "communication", s->comm_us, note);
	}
	fputs("</div>\n", out);
	bounds(out, s, h->x);
	if (errors(out, s, h->x) < 0)
		return RL_ERR_NOMEM;
	fputs("</section>\n", out);
	return 0;
}

/* ---- the timeline ---- */

/* An op's bar on a lane (its group sets the y); CLS: its colour, NULL for
 * the lane's. */
static void tl_rect(FILE *out, double t0, double t1, double step_us, const char *cls, size_t op)
{
	if (!(t1 > t0) || !(step_us > 0))
		return;
	fprintf(out, "<rect x=\"%.3f\" width=\"%.3f\" height=\"%d\"", t0 / step_us * TL_W,
	        (t1 - t0) / step_us * TL_W, TL_BAR);
	if (cls != NULL)
		fprintf(out, " class=\"%s\"", cls);
	fprintf(out, " data-op=\"%zu\"/>\n", op);
}

static void timeline_table(FILE *out, const struct rl_timeline *tl)
{
	size_t i;
	char s[32], b[32], idle[32], hc[32];

	fputs("<table class=\"sortable\">\n<thead><tr><th>runtime</th><th class=\"num\">host us "
	      "per kernel</th><th class=\"num\">kernels</th><th class=\"num\">step_us</th>"
	      "<th class=\"num\">gpu busy us</th><th class=\"num\">gpu idle us</th>"
	      "<th class=\"num\">GPU-Util %</th><th class=\"num\">exposed comm us</th></tr>"
	      "</thead>\n<tbody>\n",
	      out);
	for (i = 0; i < tl->nlanes; i++) {
		const struct rl_tl_lane *l = &tl->lanes[i];

		rl_fmt_num(s, l->step_us);
		rl_fmt_num(b, l->busy_us);
		rl_fmt_num(idle, l->idle_us);
		rl_fmt_num(hc, l->host_overhead_us);
		fprintf(out, "<tr%s><td>", l->selected ? " class=\"sel-rt\"" : "");
		rl_html_text(out, l->runtime);
		fprintf(out, "%s</td><td class=\"n\">%s</td><td class=\"n\">%.0f</td>"
		             "<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
		             "<td class=\"n\">%.1f</td>",
		        l->selected ? " (this report's)" : "", l->mode == RL_TL_RECORDED ? "" : hc,
		        l->kernels, s, b, idle, l->util * 100);
		rl_fmt_num(s, l->exposed_us);
		fprintf(out, "<td class=\"n\">%s</td></tr>\n", s);
	}
	if (tl->measured.present) {
		rl_fmt_num(s, tl->measured.step_us);
		rl_fmt_num(b, tl->measured.gpu_busy_us);
		rl_fmt_num(idle, tl->measured.step_us - tl->measured.gpu_busy_us);
		fprintf(out, "<tr><td>measured (the trace)</td><td class=\"n\"></td>"
		             "<td class=\"n\"></td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
		             "<td class=\"n\">%s</td><td class=\"n\">%.1f</td><td class=\"n\"></td>"
		             "</tr>\n",
		        s, b, idle,
		        tl->measured.step_us > 0 ? tl->measured.gpu_busy_us / tl->measured.step_us * 100
		                                 : 0);
	}
	fputs("</tbody></table>\n", out);
}

static void timeline(rl_html_report *h)
{
	FILE *out = h->out;
	const struct rl_timeline *tl = h->info.timeline;
	const struct rl_tl_lane *l;
	double step;
	size_t i;
	int comm = 0, nl, H;

	if (tl == NULL)
		return;
	fputs("<section id=\"timeline\">\n<h2>Timeline</h2>\n", out);
	if (!h->has_lane) {
		timeline_table(out, tl);
		fputs("</section>\n", out);
		return;
	}
	l = &tl->lanes[h->lane];
	step = l->step_us;
	for (i = 0; i < h->nspans; i++)
		if (h->spans[i].c1 > h->spans[i].c0)
			comm = 1;
	nl = comm ? 3 : 2;
	H = nl * TL_LANE;
	fputs("<p class=\"note\">The step as the ", out);
	rl_html_text(out, l->runtime);
	fputs(" runtime runs it: the host issuing each op's kernels, the GPU running them "
	      "(an op's kernels drawn as one block, ending where its last one ends)",
	      out);
	fputs(comm ? ", and the collectives that overlap on the communication stream" : "", out);
	fputs(". Scroll to zoom, drag to pan, double-click to see it whole.</p>\n<div class=\"tl\">"
	      "<div class=\"lanes\"><span>host</span><span>GPU</span>",
	      out);
	if (comm)
		fputs("<span>comm</span>", out);
	fprintf(out,
	        "</div>\n<svg class=\"tl\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
	        "preserveAspectRatio=\"none\" height=\"%d\" data-w=\"%d\" data-h=\"%d\" "
	        "data-us=\"%.17g\" data-axis=\"tl-axis\">\n"
	        "<style>.host{fill:#9aa3ad}.compute{fill:%s}.memory{fill:%s}.overhead{fill:%s}"
	        ".network{fill:%s}</style>\n",
	        TL_W, H, H, TL_W, H, step, rl_svg_bound_colour(RL_BOUND_COMPUTE),
	        rl_svg_bound_colour(RL_BOUND_MEMORY), rl_svg_bound_colour(RL_BOUND_OVERHEAD),
	        rl_svg_bound_colour(RL_BOUND_NETWORK));
	fputs("<g class=\"host\" transform=\"translate(0 3)\">\n", out);
	for (i = 0; i < h->nspans; i++)
		tl_rect(out, h->spans[i].h0, h->spans[i].h1, step, NULL, i);
	fprintf(out, "</g>\n<g transform=\"translate(0 %d)\">\n", TL_LANE + 3);
	for (i = 0; i < h->nspans; i++)
		tl_rect(out, h->spans[i].g0, h->spans[i].g1, step, rl_bound_name(h->spans[i].bound), i);
	fputs("</g>\n", out);
	if (comm) {
		fprintf(out, "<g class=\"network\" transform=\"translate(0 %d)\">\n", 2 * TL_LANE + 3);
		for (i = 0; i < h->nspans; i++)
			tl_rect(out, h->spans[i].c0, h->spans[i].c1, step, NULL, i);
		fputs("</g>\n", out);
	}
	fputs("</svg>\n<svg class=\"ax\" id=\"tl-axis\" xmlns=\"http://www.w3.org/2000/svg\" "
	      "height=\"22\" width=\"100%\" font-size=\"11\" fill=\"currentColor\">",
	      out);
	/* the axis without the script: five ticks over the whole step */
	for (i = 0; i <= 4; i++) {
		char t[32];

		rl_fmt_num(t, step * (double)i / 4);
		fprintf(out, "<text x=\"%zu%%\" y=\"17\" text-anchor=\"%s\">%s us</text>", i * 25,
		        i == 0 ? "start" : i == 4 ? "end" : "middle", t);
	}
	fputs("</svg>\n</div>\n", out);
	timeline_table(out, tl);
	fputs("</section>\n", out);
}

/* ---- a trace: time per kind and the most recoverable ops ---- */

static void kind_row(FILE *out, const char *name, const struct rl_step_kind *y, int x)
{
	char m[32], e[32], r[32], hs[32];

	rl_fmt_num(m, y->measured_us);
	rl_fmt_num(e, y->expected_us);
	rl_fmt_num(r, y->roofline_us);
	rl_fmt_num(hs, y->host_us);
	fprintf(out, "<tr><td>%s</td><td class=\"n\">%zu</td><td class=\"n\">%llu</td>"
	             "<td class=\"n\">%s</td>",
	        name, y->ops, (unsigned long long)y->launches, m);
	if (x)
		fprintf(out, "<td class=\"n\">%s</td>", e);
	fprintf(out, "<td class=\"n\">%s</td>", r);
	if (x && y->expected_us > 0)
		fprintf(out, "<td class=\"n\">%.3g</td>", y->measured_us / y->expected_us);
	else if (x)
		fputs("<td class=\"n\"></td>", out);
	if (y->measured_us > 0)
		fprintf(out, "<td class=\"n\">%.0f</td>", y->roofline_us / y->measured_us * 100);
	else
		fputs("<td class=\"n\"></td>", out);
	fprintf(out, "<td class=\"n\">%s</td></tr>\n", hs);
}

static void kinds(rl_html_report *h)
{
	FILE *out = h->out;
	const struct rl_step *st = h->info.step;
	size_t i;
	int k;

	if (st == NULL)
		return;
	fputs("<section id=\"kinds\">\n<h2>Measured against expected, per kind</h2>\n"
	      "<table class=\"sortable\">\n<thead><tr><th>kind</th><th class=\"num\">ops</th>"
	      "<th class=\"num\">launches</th><th class=\"num\">measured_us</th>",
	      out);
	if (h->x)
		fputs("<th class=\"num\">expected_us</th>", out);
	fputs("<th class=\"num\">roofline_us</th>", out);
	if (h->x)
		fputs("<th class=\"num\">measured / expected</th>", out);
	fputs("<th class=\"num\">roofline % of measured</th><th class=\"num\">host_us</th></tr>"
	      "</thead>\n<tbody>\n",
	      out);
	for (k = 0; k < RL_KIND_COUNT; k++)
		if (st->kind[k].ops > 0)
			kind_row(out, rl_kind_name((enum rl_kind)k), &st->kind[k], h->x);
	fputs("</tbody>\n<tfoot>", out);
	kind_row(out, "all", &st->all, h->x);
	fputs("</tfoot></table>\n", out);
	if (st->ntop == 0) {
		fputs("</section>\n", out);
		return;
	}
	fprintf(out, "<h3>Most recoverable time (measured - %s)</h3>\n<table class=\"sortable\">\n"
	             "<thead><tr><th class=\"num\">#</th><th>name</th><th>kind</th>"
	             "<th class=\"num\">measured_us</th><th class=\"num\">%s</th>"
	             "<th class=\"num\">recoverable_us</th><th>%s</th><th>advice</th></tr></thead>\n"
	             "<tbody>\n",
	        h->x ? "expected" : "roofline", h->x ? "expected_us" : "roofline_us",
	        h->x ? "expected bound" : "bound");
	for (i = 0; i < st->ntop; i++) {
		const struct rl_step_top *y = &st->top[i];
		double ref = h->x ? y->expected_us : y->roofline_us;
		enum rl_bound b = h->x ? y->expected_bound : y->bound;
		char m[32], e[32], r[32];

		rl_fmt_num(m, y->measured_us);
		rl_fmt_num(e, ref);
		rl_fmt_num(r, y->measured_us - ref);
		fprintf(out, "<tr><td class=\"n\">%zu</td><td class=\"w\">", i + 1);
		rl_html_text(out, y->name);
		fprintf(out, "</td><td>%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
		             "<td class=\"n\">%s</td><td class=\"bd-%s\">%s</td><td class=\"w\">",
		        rl_kind_name(y->kind), m, e, r, rl_bound_name(b), rl_bound_name(b));
		rl_html_text(out, y->advice);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table>\n</section>\n", out);
}

int rl_html_report_end(rl_html_report *h, const struct rl_summary *s, const char *text,
                       size_t len)
{
	FILE *out = h->out;
	int rc;

	fprintf(out, "</tbody>\n</table>\n</div>\n</section>\n");
	if ((rc = summary(h, s)) < 0)
		return rc;
	fputs("<section id=\"charts\" class=\"chart\">\n<h2>Roofline</h2>\n<p class=\"note\">"
	      "Hover a point for its op; click it to select its row.</p>\n",
	      out);
	if ((rc = rl_svg_roofline_html(out, h->chart)) < 0)
		return rc;
	fputs("</section>\n", out);
	timeline(h);
	kinds(h);
	if (h->info.appendix != NULL && h->info.appendix[0] != '\0') {
		fputs("<section id=\"host\">\n<h2>Host calls</h2>\n", out);
		rl_html_pre(out, h->info.appendix, strlen(h->info.appendix));
		fputs("</section>\n", out);
	}
	fputs("<section id=\"details\">\n<h2>As text</h2>\n<details><summary>The summary as "
	      "<code>-f table</code> writes it</summary>\n",
	      out);
	rl_html_pre(out, text, len);
	fputs("</details>\n</section>\n", out);
	return rl_html_end(out);
}

void rl_html_report_free(rl_html_report *h)
{
	if (h == NULL)
		return;
	rl_chart_free(h->chart);
	free(h->spans);
	free(h);
}
