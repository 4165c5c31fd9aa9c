/* svg.c - the roofline and sweep charts as SVG 1.1 (see svg.h).
 *
 * Plain SVG that browsers and librsvg render alike: no CSS, no scripts, no
 * external fonts; every op's point carries a <title> tooltip with its
 * numbers. Text widths are estimated from the font's advance widths, which is
 * enough to keep labels from overlapping each other and the plot's edges.
 */
#include "config.h"

#include "svg.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "fmt.h"

#define FONT "DejaVu Sans, Verdana, Arial, sans-serif"
#define LABELS 6       /* the longest ops (distinct spots) get a label */
#define NAME_MAX_CHARS 28
#define LEGEND_X 772

static const char *const bound_colour[RL_BOUND_COUNT] = {
	[RL_BOUND_COMPUTE] = "#d62728",
	[RL_BOUND_MEMORY] = "#1f77b4",
	[RL_BOUND_OVERHEAD] = "#8c6d31",
	[RL_BOUND_NETWORK] = "#2ca02c",
};

/* Nonzero when a point of C is network-bound (a collective), by either
 * verdict: the legend names the network bound only then. */
static int has_network(const rl_chart *c)
{
	size_t i;

	for (i = 0; i < rl_chart_count(c); i++) {
		const struct rl_chart_point *pt = rl_chart_point(c, i);

		if (pt->bound == RL_BOUND_NETWORK || pt->expected_bound == RL_BOUND_NETWORK)
			return 1;
	}
	return 0;
}

/* --- XML text --------------------------------------------------------- */

/* Decodes one UTF-8 sequence at S: returns its length and sets *CP, or
 * returns 1 with *CP = -1 for a byte that starts no valid sequence. */
static size_t utf8_next(const unsigned char *s, long *cp)
{
	size_t n, i;
	long c, min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f, min = 0x80;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f, min = 0x800;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07, min = 0x10000;
	else {
		*cp = -1;
		return 1;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*cp = -1;
			return 1;
		}
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) {
		*cp = -1;
		return 1;
	}
	*cp = c;
	return n;
}

size_t rl_svg_text_len(const char *s, size_t max_chars)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;
	long cp;

	while (*p) {
		p += utf8_next(p, &cp);
		n++;
	}
	return max_chars > 0 && n > max_chars ? max_chars : n;
}

void rl_svg_text(FILE *out, const char *s, size_t max_chars)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = rl_svg_text_len(s, 0), k = 0, n;
	int cut = max_chars > 0 && len > max_chars;
	long cp;

	while (*p) {
		if (cut && k == max_chars - 1) {
			fputs("\xe2\x80\xa6", out); /* U+2026 ellipsis */
			return;
		}
		n = utf8_next(p, &cp);
		/* XML 1.0 allows no C0 control but tab, LF and CR, and SVG folds
		 * those into spaces anyway; HTML (html.h writes with this) also
		 * takes no C1 control and no noncharacter without a parse error. */
		if (cp < 0 || (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) == 0xfffe)
			fputs("\xef\xbf\xbd", out);
		else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
			fputc(' ', out);
		else if (cp == '&')
			fputs("&amp;", out);
		else if (cp == '<')
			fputs("&lt;", out);
		else if (cp == '>')
			fputs("&gt;", out);
		else if (cp == '"')
			fputs("&quot;", out);
		else if (cp == '\'')
			fputs("&apos;", out);
		else
			fwrite(p, 1, n, out);
		p += n;
		k++;
	}
}

/* --- numbers and units ------------------------------------------------ */

/* V with an SI prefix and UNIT: "989.4 TFLOP/s", "3.35 TB/s". */
static void fmt_si(char *buf, size_t len, double v, const char *unit)
{
	rl_fmt_si(buf, len, v, 4, unit);
}

/* A time in microseconds: "250 us", "1.5 ms", "2 s". */
static void fmt_time(char *buf, size_t len, double us)
{
	if (us >= 1e6)
		snprintf(buf, len, "%.4g s", us / 1e6);
	else if (us >= 1e3)
		snprintf(buf, len, "%.4g ms", us / 1e3);
	else
		snprintf(buf, len, "%.4g us", us);
}

static void fmt_flops(char *buf, size_t len, double v)
{
	fmt_si(buf, len, v, "FLOP/s");
}

static void fmt_bytes_per_s(char *buf, size_t len, double v)
{
	fmt_si(buf, len, v, "B/s");
}

/* An intensity tick: 0.01, 0.1, 1, 10 ... plainly, 1e-5 and 1e5 beyond. */
static void fmt_plain(char *buf, size_t len, double v)
{
	double e = log10(v);

	if (e >= -4 && e <= 4)
		snprintf(buf, len, "%g", v);
	else
		snprintf(buf, len, "1e%d", (int)lround(e));
}

typedef void (*fmt_fn)(char *buf, size_t len, double v);

/* --- placing labels --------------------------------------------------- */

struct box {
	double x0, y0, x1, y1;
};

#define MAX_BOXES 256

struct boxes {
	struct box b[MAX_BOXES];
	size_t n;
};

static void boxes_add(struct boxes *bs, struct box b)
{
	if (bs->n < MAX_BOXES)
		bs->b[bs->n++] = b;
}

static double overlap(struct box a, struct box b)
{
	double w = fmin(a.x1, b.x1) - fmax(a.x0, b.x0);
	double h = fmin(a.y1, b.y1) - fmax(a.y0, b.y0);

	return w > 0 && h > 0 ? w * h : 0;
}

/* The estimated width in pixels of S at 11 px, cut to MAX_CHARS as
 * rl_svg_text cuts it: DejaVu Sans advance widths, rounded up. */
static double text_w(const char *s, size_t max_chars)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0, limit = rl_svg_text_len(s, max_chars);
	double w = 0;
	long cp;

	while (*p && n < limit) {
		p += utf8_next(p, &cp);
		n++;
		if (cp < 0 || cp >= 0x80)
			w += 11;
		else if (strchr("iljI.,:;'|!", (int)cp))
			w += 3.5;
		else if (strchr("ftr -()[]", (int)cp))
			w += 4.6;
		else if (strchr("mwMW%", (int)cp))
			w += 11;
		else if (cp >= 'A' && cp <= 'Z')
			w += 8.3;
		else
			w += 7.2;
	}
	return w;
}

/* The box of a text W pixels wide at 11 px, at X (anchored as ANCHOR:
 * 0 start, 1 middle, 2 end) on baseline Y. */
static struct box text_box(double x, double y, double w, int anchor)
{
	struct box b;

	b.x0 = (anchor == 0 ? x : anchor == 1 ? x - w / 2 : x - w) - 3;
	b.x1 = b.x0 + w + 6;
	b.y0 = y - 10;
	b.y1 = y + 3;
	return b;
}

static const char *anchor_name(int anchor)
{
	return anchor == 0 ? "start" : anchor == 1 ? "middle" : "end";
}

/* --- shared pieces ------------------------------------------------------ */

/* The document's start; EMBED: an element inside an HTML page (no XML
 * declaration). */
static void svg_begin(FILE *out, int w, int h, const struct rl_chart_info *info,
                      const char *what, int embed)
{
	if (!embed)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
	        "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"%s\" font-size=\"11\">\n",
	        w, h, w, h, FONT);
	fprintf(out, "<title>%s: ", what);
	rl_svg_text(out, info->dev->name, 0);
	fputs(" (", out);
	rl_svg_text(out, info->dev->id, 0);
	fputs("), ", out);
	rl_svg_text(out, info->runtime, 0);
	fputs(" runtime</title>\n", out);
	fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
	fprintf(out, "<text x=\"%d\" y=\"28\" font-size=\"16\" font-weight=\"bold\">%s: ",
	        RL_PLOT_X0, what);
	rl_svg_text(out, info->dev->name, 0);
	fputs(" (", out);
	rl_svg_text(out, info->dev->id, 0);
	fputs("), ", out);
	rl_svg_text(out, info->runtime, 0);
	fputs(" runtime</text>\n", out);
}

/* The subtitle: the op list, its size and the runtime's cost per launch. */
static void subtitle(FILE *out, const rl_chart *c)
{
	const struct rl_chart_info *info = rl_chart_info(c);
	char t[64], host[64];

	if (isfinite(rl_chart_total_us(c)))
		fmt_time(t, sizeof(t), rl_chart_total_us(c));
	else
		snprintf(t, sizeof(t), "a time too large to print");
	fprintf(out, "<text x=\"%d\" y=\"48\" font-size=\"12\" fill=\"#444444\">", RL_PLOT_X0);
	if (info->source != NULL) {
		const char *slash = strrchr(info->source, '/');

		/* the file's name, not where it was: the same list, the same chart */
		rl_svg_text(out, slash != NULL && slash[1] != '\0' ? slash + 1 : info->source, 60);
		fputs(": ", out);
	}
	rl_fmt_host(host, sizeof(host), info->host_overhead_us, info->host_kind_us);
	fprintf(out, "%zu op%s, %s %s in all; host overhead %s per launch%s</text>\n",
	        rl_chart_count(c), rl_chart_count(c) == 1 ? "" : "s", t,
	        info->best_case ? "predicted (best case)" : "expected", host,
	        strchr(host, '-') ? " by op kind" : "");
}

/* Decade grid lines (with 2..9 minor lines on a log axis) and tick labels of
 * a horizontal axis X over the band Y0..Y1. */
static void x_axis(FILE *out, const struct rl_chart_axis *x, double y0, double y1, fmt_fn fmt,
                   const double *ticks, size_t nticks)
{
	char buf[64];
	size_t i;

	if (x->log && ticks == NULL) {
		int m, k, nd = rl_chart_axis_decades(x);

		for (k = 0; k < nd; k++) {
			double d = x->lo * pow(10, k);

			for (m = 2; m <= 9 && d * m < x->hi; m++) {
				double px = rl_chart_axis_px(x, d * m);

				fprintf(out,
				        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				        "stroke=\"#f0f0f0\"/>\n",
				        px, y0, px, y1);
			}
			fprintf(out,
			        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			        "stroke=\"#d0d0d0\"/>\n",
			        rl_chart_axis_px(x, d), y0, rl_chart_axis_px(x, d), y1);
			fmt(buf, sizeof(buf), d);
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			        rl_chart_axis_px(x, d), y1 + 16, buf);
		}
		return;
	}
	for (i = 0; i < nticks; i++) {
		double px = rl_chart_axis_px(x, ticks[i]);

		fprintf(out,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d0d0d0\"/>\n",
		        px, y0, px, y1);
		fmt(buf, sizeof(buf), ticks[i]);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", px,
		        y1 + 16, buf);
	}
}

/* Decade grid lines and labels of a vertical log axis Y over X0..X1. */
static void y_axis(FILE *out, const struct rl_chart_axis *y, double x0, double x1, fmt_fn fmt)
{
	char buf[64];
	int m, k, nd = rl_chart_axis_decades(y);

	for (k = 0; k < nd; k++) {
		double d = y->lo * pow(10, k);

		for (m = 2; m <= 9 && d * m < y->hi; m++) {
			double py = rl_chart_axis_px(y, d * m);

			fprintf(out,
			        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			        "stroke=\"#f0f0f0\"/>\n",
			        x0, py, x1, py);
		}
		fprintf(out,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d0d0d0\"/>\n",
		        x0, rl_chart_axis_px(y, d), x1, rl_chart_axis_px(y, d));
		fmt(buf, sizeof(buf), d);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", x0 - 6,
		        rl_chart_axis_px(y, d) + 4, buf);
	}
}

static void frame(FILE *out, double x0, double y0, double x1, double y1)
{
	fprintf(out,
	        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
	        "stroke=\"#333333\"/>\n",
	        x0, y0, x1 - x0, y1 - y0);
}

/* A roof's name: "bf16 tensor", "fp32 vector" or "fp32 vector, no FMA". */
static void roof_name(char *buf, size_t len, const struct rl_chart_roof *r)
{
	snprintf(buf, len, "%s%s", rl_pipe_label(r->pipe),
	         !rl_pipe_is_tensor(r->pipe) && !r->fma ? ", no FMA" : "");
}

/* A hollow diamond of half-width R at (X, Y) in COLOUR: an expected point. */
static void diamond(FILE *out, double x, double y, double r, const char *colour)
{
	fprintf(out,
	        "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"none\" "
	        "stroke=\"%s\" stroke-width=\"1.5\"",
	        x, y - r, x + r, y, x, y + r, x - r, y, colour);
}

/* The legend's entry of the expected points at Y; returns the next free y. */
static double legend_expected(FILE *out, double y)
{
	fprintf(out,
	        "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#555555\" "
	        "stroke-width=\"0.8\"/>\n",
	        LEGEND_X + 6, y - 14, LEGEND_X + 6, y - 4);
	diamond(out, LEGEND_X + 6, y - 4, 4.5, "#555555");
	fputs("/>\n", out);
	fprintf(out, "<text x=\"%d\" y=\"%.1f\">expected</text>\n", LEGEND_X + 18, y);
	return y + 18;
}

/* The legend's bound entries at (LEGEND_X, Y); returns the next free y. */
static double legend_bounds(FILE *out, double y, int measured, int network)
{
	enum rl_bound b;

	fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-weight=\"bold\">bound</text>\n", LEGEND_X, y);
	y += 18;
	for (b = 0; b < RL_BOUND_COUNT; b++) {
		if (b == RL_BOUND_NETWORK && !network)
			continue;
		fprintf(out,
		        "<circle cx=\"%d\" cy=\"%.1f\" r=\"5\" fill=\"%s\" fill-opacity=\"0.55\" "
		        "stroke=\"%s\"/>\n",
		        LEGEND_X + 6, y - 4, bound_colour[b], bound_colour[b]);
		fprintf(out, "<text x=\"%d\" y=\"%.1f\">%s</text>\n", LEGEND_X + 18, y,
		        rl_bound_name(b));
		y += 18;
	}
	if (measured) {
		fprintf(out,
		        "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#555555\" "
		        "stroke-dasharray=\"3,2\"/>\n",
		        LEGEND_X + 6, y - 14, LEGEND_X + 6, y - 4);
		fprintf(out,
		        "<circle cx=\"%d\" cy=\"%.1f\" r=\"3.5\" fill=\"#ffffff\" stroke=\"#555555\" "
		        "stroke-width=\"1.5\"/>\n",
		        LEGEND_X + 6, y - 4);
		fprintf(out, "<text x=\"%d\" y=\"%.1f\">measured</text>\n",
		        LEGEND_X + 18, y);
		y += 18;
	}
	return y;
}

/* The legend's line styles of the roofline chart; returns the next free y. */
static double legend_roofs(FILE *out, double y)
{
	fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-weight=\"bold\">roofs</text>\n", LEGEND_X,
	        y);
	y += 18;
	fprintf(out,
	        "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000000\" "
	        "stroke-width=\"2\"/>\n",
	        LEGEND_X, y - 4, LEGEND_X + 14, y - 4);
	fprintf(out, "<text x=\"%d\" y=\"%.1f\">memory, tensor pipe</text>\n", LEGEND_X + 18, y);
	y += 18;
	fprintf(out,
	        "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000000\" "
	        "stroke-width=\"1.5\" stroke-dasharray=\"6,3\"/>\n",
	        LEGEND_X, y - 4, LEGEND_X + 14, y - 4);
	fprintf(out, "<text x=\"%d\" y=\"%.1f\">vector pipe</text>\n", LEGEND_X + 18, y);
	y += 18;
	fprintf(out,
	        "<rect x=\"%d\" y=\"%.1f\" width=\"7\" height=\"7\" fill=\"#ffffff\" "
	        "stroke=\"#000000\" stroke-width=\"1.5\"/>\n",
	        LEGEND_X + 3, y - 8);
	fprintf(out, "<text x=\"%d\" y=\"%.1f\">ridge point (FLOP/B)</text>\n", LEGEND_X + 18, y);
	return y + 26;
}

/* Lines of small grey legend text from Y on; returns the next free y. */
static double legend_notes(FILE *out, double y, const char *const *lines, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (lines[i] == NULL)
			continue;
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" fill=\"#555555\">", LEGEND_X, y);
		rl_svg_text(out, lines[i], 0);
		fputs("</text>\n", out);
		y += 15;
	}
	return y;
}

/* --- the roofline chart ---------------------------------------------- */

static const rl_chart *sort_chart; /* qsort has no user pointer */

/* Longest total time first; file order breaks ties. */
static int by_total_desc(const void *a, const void *b)
{
	const struct rl_chart_point *x = rl_chart_point(sort_chart, *(const size_t *)a);
	const struct rl_chart_point *y = rl_chart_point(sort_chart, *(const size_t *)b);

	if (x->total_us != y->total_us)
		return x->total_us > y->total_us ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* As chart.c decides: both coordinates finite and positive. */
static int is_plotted(const struct rl_chart_point *pt)
{
	return pt->flops > 0 && pt->bytes > 0 && isfinite(pt->intensity) &&
	       pt->predicted_flops > 0 && isfinite(pt->predicted_flops);
}

static void tooltip(FILE *out, const struct rl_chart_point *pt, double share, int expected)
{
	char f[64], a[64], t[64];

	fmt_flops(f, sizeof(f), pt->predicted_flops);
	fmt_flops(a, sizeof(a), pt->attainable_flops);
	fmt_time(t, sizeof(t), pt->t_us);
	fputs("<title>", out);
	rl_svg_text(out, pt->name, 0);
	fprintf(out, ": %.3g FLOP/B, %s predicted", pt->intensity, f);
	/* below the roof only when overhead dominates */
	if (pt->predicted_flops < pt->attainable_flops * 0.9995)
		fprintf(out, " (roof %s)", a);
	fprintf(out, ", %s, %s-bound, %.1f %% of the time", t, rl_bound_name(pt->bound),
	        share * 100);
	if (expected) {
		fmt_flops(f, sizeof(f), pt->expected_flops);
		fmt_time(t, sizeof(t), pt->expected_us);
		fprintf(out, "; expected %s, %s, %s-bound", t, f, rl_bound_name(pt->expected_bound));
	}
	if (rl_chart_measured_flops(pt) > 0) {
		fmt_flops(f, sizeof(f), rl_chart_measured_flops(pt));
		fmt_time(t, sizeof(t), pt->measured_us);
		fprintf(out, "; measured %s, %s", t, f);
	}
	fputs("</title>", out);
}

/* The memory roof from the left edge to the highest ridge, each pipe's roof
 * from its ridge to the right edge, and each ridge marked and labelled. */
static void draw_roofs(FILE *out, const rl_chart *c, const struct rl_chart_layout *l,
                       struct boxes *bs)
{
	double top_ridge = l->roof[0].ridge, x0, y0, x1, y1, angle;
	char name[96], peak[64], bw[64];
	size_t i;

	for (i = 1; i < l->nroofs; i++)
		top_ridge = fmax(top_ridge, l->roof[i].ridge);
	/* where the memory roof enters the plot: the left edge or the bottom */
	x0 = fmax(l->x.lo, l->y.lo / l->bandwidth);
	x1 = top_ridge;
	fprintf(out,
	        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\" "
	        "stroke-width=\"2\"/>\n",
	        rl_chart_axis_px(&l->x, x0), rl_chart_axis_px(&l->y, l->bandwidth * x0),
	        rl_chart_axis_px(&l->x, x1), rl_chart_axis_px(&l->y, l->bandwidth * x1));
	/* its label, along the line, where it covers the fewest points */
	x0 = rl_chart_axis_px(&l->x, x0);
	y0 = rl_chart_axis_px(&l->y, l->bandwidth * fmax(l->x.lo, l->y.lo / l->bandwidth));
	x1 = rl_chart_axis_px(&l->x, x1);
	y1 = rl_chart_axis_px(&l->y, l->bandwidth * top_ridge);
	angle = atan2(y1 - y0, x1 - x0) * 180 / 3.14159265358979;
	fmt_bytes_per_s(bw, sizeof(bw), l->bandwidth);
	snprintf(name, sizeof(name), "memory %s", bw);
	{
		double len = hypot(x1 - x0, y1 - y0), ux = (x1 - x0) / len, uy = (y1 - y0) / len;
		double w = text_w(name, 0) * 12 / 11, best_cost = HUGE_VAL, best = 0.08, f, d;
		size_t k;

		for (f = 0.08; f + w / len < 0.95; f += 0.06) {
			double cost = 0;

			for (d = 0; d <= w; d += 8)
				for (k = 0; k < rl_chart_count(c); k++) {
					const struct rl_chart_point *pt = rl_chart_point(c, k);
					double sx = x0 + (f * len + d) * ux + 8 * uy;
					double sy = y0 + (f * len + d) * uy - 8 * ux;

					if (is_plotted(pt) &&
					    hypot(rl_chart_axis_px(&l->x, pt->intensity) - sx,
					          rl_chart_axis_px(&l->y, pt->predicted_flops) - sy) <
					            rl_chart_radius(rl_chart_share(c, pt->total_us)) + 7)
						cost++;
				}
			if (cost < best_cost) {
				best_cost = cost;
				best = f;
			}
		}
		for (d = 0; d <= w; d += 8) {
			double sx = x0 + (best * len + d) * ux + 8 * uy;
			double sy = y0 + (best * len + d) * uy - 8 * ux;

			boxes_add(bs, (struct box){sx - 6, sy - 6, sx + 6, sy + 6});
		}
		fprintf(out,
		        "<text x=\"%.1f\" y=\"%.1f\" transform=\"rotate(%.2f %.1f %.1f)\" "
		        "font-size=\"12\">%s</text>\n",
		        x0 + best * len * ux + 5 * uy, y0 + best * len * uy - 5 * ux, angle,
		        x0 + best * len * ux + 5 * uy, y0 + best * len * uy - 5 * ux, name);
	}

	for (i = 0; i < l->nroofs; i++) {
		const struct rl_chart_roof *r = &l->roof[i];
		double rx = rl_chart_axis_px(&l->x, r->ridge), ry = rl_chart_axis_px(&l->y, r->peak_flops);
		double ly = ry - 5;
		struct box b;
		char text[160];
		size_t j;

		roof_name(name, sizeof(name), r);
		fmt_flops(peak, sizeof(peak), r->peak_flops);
		snprintf(text, sizeof(text), "%s %s", name, peak);
		fprintf(out,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000000\" "
		        "stroke-width=\"%s\"%s/>\n",
		        rx, ry, RL_PLOT_X1, ry, rl_pipe_is_tensor(r->pipe) ? "2" : "1.5",
		        rl_pipe_is_tensor(r->pipe) ? "" : " stroke-dasharray=\"6,3\"");
		/* the ridge: a dotted drop to the axis, and its intensity */
		fprintf(out,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888888\" "
		        "stroke-dasharray=\"2,3\"/>\n",
		        rx, ry, rx, RL_PLOT_Y1);
		fprintf(out,
		        "<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\" fill=\"#ffffff\" "
		        "stroke=\"#000000\" stroke-width=\"1.5\"><title>ridge of ",
		        rx - 3.5, ry - 3.5);
		rl_svg_text(out, text, 0);
		fprintf(out, ": %.3g FLOP/B</title></rect>\n", r->ridge);
		fprintf(out,
		        "<text x=\"%.1f\" y=\"%d\" transform=\"rotate(-90 %.1f %d)\" "
		        "fill=\"#555555\">ridge %.3g</text>\n",
		        rx - 4, RL_PLOT_Y1 - 6, rx - 4, RL_PLOT_Y1 - 6, r->ridge);
		boxes_add(bs, (struct box){rx - 16, RL_PLOT_Y1 - 80, rx, RL_PLOT_Y1});
		boxes_add(bs, (struct box){rx - 8, ry - 8, rx + 8, ry + 8});
		/* the roof's label above its line at the right edge, or below it
		 * when a higher roof's label is in the way */
		b = text_box(RL_PLOT_X1 - 6, ly, text_w(text, 0), 2);
		for (j = 0; j < bs->n; j++)
			if (overlap(b, bs->b[j]) > 0)
				break;
		if (j < bs->n) {
			ly = ry + 14;
			b = text_box(RL_PLOT_X1 - 6, ly, text_w(text, 0), 2);
		}
		boxes_add(bs, b);
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		        RL_PLOT_X1 - 6, ly, text);
	}
}

/* Labels the longest ops, one label per spot ("attn.query +3" when more ops
 * share it), each where it overlaps least with the plot's edge, the other
 * labels and the other big points. */
static void draw_labels(FILE *out, const rl_chart *c, const struct rl_chart_layout *l,
                        const size_t *order, size_t n, struct boxes *bs)
{
	struct {
		double x, y, r;
		size_t first, more;
	} spot[LABELS];
	size_t nspots = 0, i, j, k;
	size_t nobst;

	for (i = 0; i < n && nspots < LABELS; i++) {
		const struct rl_chart_point *pt = rl_chart_point(c, order[i]);
		double x, y;

		if (!is_plotted(pt) || pt->total_us <= 0)
			continue;
		x = rl_chart_axis_px(&l->x, pt->intensity);
		y = rl_chart_axis_px(&l->y, pt->predicted_flops);
		for (j = 0; j < nspots; j++)
			if (fabs(spot[j].x - x) < 1 && fabs(spot[j].y - y) < 1)
				break;
		if (j < nspots)
			continue;
		spot[nspots].x = x;
		spot[nspots].y = y;
		spot[nspots].r = rl_chart_radius(rl_chart_share(c, pt->total_us));
		spot[nspots].first = order[i];
		spot[nspots].more = 0;
		for (k = 0; k < n; k++) {
			const struct rl_chart_point *q = rl_chart_point(c, k);

			if (k != order[i] && is_plotted(q) &&
			    fabs(rl_chart_axis_px(&l->x, q->intensity) - x) < 1 &&
			    fabs(rl_chart_axis_px(&l->y, q->predicted_flops) - y) < 1)
				spot[nspots].more++;
		}
		nspots++;
	}
	/* the big points are obstacles for every label but their own */
	nobst = bs->n;
	for (j = 0; j < nspots; j++)
		boxes_add(bs, (struct box){spot[j].x - spot[j].r, spot[j].y - spot[j].r,
		                           spot[j].x + spot[j].r, spot[j].y + spot[j].r});
	for (j = 0; j < nspots; j++) {
		const struct rl_chart_point *pt = rl_chart_point(c, spot[j].first);
		double x = spot[j].x, y = spot[j].y, r = spot[j].r;
		/* candidates: right, left, above, below, then further out with a
		 * leader line */
		const struct {
			double dx, dy;
			int anchor;
		} cand[] = {
			{r + 4, 4, 0},           {-r - 4, 4, 2},          {0, -r - 5, 1},
			{0, r + 14, 1},          {r + 8, -r - 12, 0},     {r + 8, r + 18, 0},
			{-r - 8, -r - 12, 2},    {-r - 8, r + 18, 2},     {r + 16, -r - 30, 0},
			{r + 16, r + 36, 0},     {-r - 16, -r - 30, 2},   {-r - 16, r + 36, 2},
		};
		char more[32] = "";
		double len;
		size_t best = 0, c2;
		double best_cost = HUGE_VAL;
		struct box b;

		if (spot[j].more > 0)
			snprintf(more, sizeof(more), " +%zu", spot[j].more);
		len = text_w(pt->name, NAME_MAX_CHARS) + text_w(more, 0);
		for (c2 = 0; c2 < sizeof(cand) / sizeof(cand[0]); c2++) {
			double cost = 0;

			b = text_box(x + cand[c2].dx, y + cand[c2].dy, len, cand[c2].anchor);
			if (b.x0 < RL_PLOT_X0 + 2 || b.x1 > RL_PLOT_X1 - 2 || b.y0 < RL_PLOT_Y0 + 2 ||
			    b.y1 > RL_PLOT_Y1 - 2)
				cost += 1e6;
			for (k = 0; k < bs->n; k++)
				if (k != nobst + j)
					cost += overlap(b, bs->b[k]);
			/* prefer the near places a little */
			cost += (double)c2 * 0.5;
			if (cost < best_cost) {
				best_cost = cost;
				best = c2;
			}
		}
		b = text_box(x + cand[best].dx, y + cand[best].dy, len, cand[best].anchor);
		boxes_add(bs, b);
		if (best >= 4) {
			double ax = cand[best].anchor == 0 ? b.x0 : b.x1, ay = (b.y0 + b.y1) / 2;
			double d = hypot(ax - x, ay - y);

			fprintf(out,
			        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			        "stroke=\"#777777\" stroke-width=\"0.8\"/>\n",
			        x + (ax - x) * r / d, y + (ay - y) * r / d, ax, ay);
		}
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x + cand[best].dx,
		        y + cand[best].dy, anchor_name(cand[best].anchor));
		rl_svg_text(out, pt->name, NAME_MAX_CHARS);
		fprintf(out, "%s</text>\n", more);
	}
}

/* Copies (ops without FLOPs) have intensity 0, which a log axis cannot
 * show: the legend gives them a grey square of their own, their number and
 * their share of the time, and names the first few in its tooltip. */
static void legend_copies(FILE *out, double y, const rl_chart *c,
                          const struct rl_chart_layout *l)
{
	size_t i, named = 0;
	char line[96];

	fprintf(out,
	        "<rect x=\"%d\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"#bbbbbb\" "
	        "stroke=\"#555555\"><title>",
	        LEGEND_X + 2, y - 9);
	for (i = 0; i < rl_chart_count(c) && named < 5; i++) {
		const struct rl_chart_point *pt = rl_chart_point(c, i);

		if (pt->flops > 0)
			continue;
		if (named++ > 0)
			fputs(", ", out);
		rl_svg_text(out, pt->name, NAME_MAX_CHARS);
	}
	fprintf(out, "%s</title></rect>\n", l->copies > named ? ", ..." : "");
	if (has_network(c)) /* collectives have no FLOPs either */
		snprintf(line, sizeof(line), "%zu op%s without FLOPs: not", l->copies,
		         l->copies == 1 ? "" : "s");
	else
		snprintf(line, sizeof(line), "%zu cop%s (no FLOPs): not", l->copies,
		         l->copies == 1 ? "y" : "ies");
	fprintf(out, "<text x=\"%d\" y=\"%.1f\">%s</text>\n", LEGEND_X + 18, y, line);
	fprintf(out, "<text x=\"%d\" y=\"%.1f\">on the log axes,</text>\n", LEGEND_X + 18,
	        y + 15);
	snprintf(line, sizeof(line), "%.1f %% of the time",
	         rl_chart_share(c, l->copies_us) * 100);
	fprintf(out, "<text x=\"%d\" y=\"%.1f\">%s</text>\n", LEGEND_X + 18, y + 30, line);
}

/* Ends the start tag of PT's mark: with EMBED, the row it stands for. */
static void data_op(FILE *out, const struct rl_chart_point *pt, int embed)
{
	if (embed)
		fprintf(out, " data-op=\"%zu\"", pt->index);
	fputc('>', out);
}

const char *rl_svg_bound_colour(enum rl_bound b)
{
	return (unsigned)b < RL_BOUND_COUNT ? bound_colour[b] : "#000000";
}

/* The roofline chart; EMBED: inside an HTML page, each op's marks naming
 * its row (data-op, from 0). */
static int roofline(FILE *out, const rl_chart *c, int embed)
{
	const struct rl_chart_info *info = rl_chart_info(c);
	struct rl_chart_layout l;
	struct boxes *bs;
	size_t n = rl_chart_count(c), i, nmeasured = 0;
	size_t *order;
	char note1[96];
	const char *notes[10];
	double y;

	bs = calloc(1, sizeof(*bs));
	order = malloc((n ? n : 1) * sizeof(*order));
	if (bs == NULL || order == NULL) {
		free(bs);
		free(order);
		return RL_ERR_NOMEM;
	}
	for (i = 0; i < n; i++) {
		order[i] = i;
		if (is_plotted(rl_chart_point(c, i)) && rl_chart_measured_flops(rl_chart_point(c, i)) > 0)
			nmeasured++;
	}
	sort_chart = c;
	qsort(order, n, sizeof(*order), by_total_desc);
	rl_chart_layout(c, &l);

	svg_begin(out, RL_CHART_WIDTH, RL_CHART_HEIGHT, info, "Roofline", embed);
	subtitle(out, c);
	y_axis(out, &l.y, RL_PLOT_X0, RL_PLOT_X1, fmt_flops);
	x_axis(out, &l.x, RL_PLOT_Y0, RL_PLOT_Y1, fmt_plain, NULL, 0);
	frame(out, RL_PLOT_X0, RL_PLOT_Y0, RL_PLOT_X1, RL_PLOT_Y1);
	fprintf(out,
	        "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">arithmetic "
	        "intensity (FLOP/byte)</text>\n",
	        (RL_PLOT_X0 + RL_PLOT_X1) / 2.0, RL_PLOT_Y1 + 40);
	fprintf(out,
	        "<text x=\"18\" y=\"%.1f\" transform=\"rotate(-90 18 %.1f)\" text-anchor=\"middle\" "
	        "font-size=\"12\">FLOP/s</text>\n",
	        (RL_PLOT_Y0 + RL_PLOT_Y1) / 2.0, (RL_PLOT_Y0 + RL_PLOT_Y1) / 2.0);

	fprintf(out,
	        "<defs><clipPath id=\"plot\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>"
	        "</clipPath></defs>\n",
	        RL_PLOT_X0, RL_PLOT_Y0, RL_PLOT_X1 - RL_PLOT_X0, RL_PLOT_Y1 - RL_PLOT_Y0);
	fputs("<g clip-path=\"url(#plot)\">\n", out);
	draw_roofs(out, c, &l, bs);
	fputs("</g>\n", out);

	/* biggest first, so that small points stay visible on top */
	fputs("<g stroke-width=\"1\">\n", out);
	for (i = 0; i < n; i++) {
		const struct rl_chart_point *pt = rl_chart_point(c, order[i]);
		double share = rl_chart_share(c, pt->total_us);

		if (!is_plotted(pt))
			continue;
		fprintf(out,
		        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" fill-opacity=\"0.55\" "
		        "stroke=\"%s\"",
		        rl_chart_axis_px(&l.x, pt->intensity), rl_chart_axis_px(&l.y, pt->predicted_flops),
		        rl_chart_radius(share), bound_colour[pt->bound], bound_colour[pt->bound]);
		data_op(out, pt, embed);
		tooltip(out, pt, share, !info->best_case);
		fputs("</circle>\n", out);
	}
	/* the expected point: a hollow diamond in its expected bound's colour,
	 * joined by a thin line to the roofline's point above it */
	for (i = 0; !info->best_case && i < n; i++) {
		const struct rl_chart_point *pt = rl_chart_point(c, order[i]);
		double x, y0, y1;

		if (!is_plotted(pt) || !(pt->expected_flops > 0) || !isfinite(pt->expected_flops))
			continue;
		x = rl_chart_axis_px(&l.x, pt->intensity);
		y0 = rl_chart_axis_px(&l.y, pt->predicted_flops);
		y1 = rl_chart_axis_px(&l.y, pt->expected_flops);
		fprintf(out,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		        "stroke-width=\"0.8\"/>\n",
		        x, y0, x, y1, bound_colour[pt->expected_bound]);
		diamond(out, x, y1, 4.5, bound_colour[pt->expected_bound]);
		data_op(out, pt, embed);
		/* embedded, the page names the op of a mark without a tooltip */
		if (!embed)
			tooltip(out, pt, rl_chart_share(c, pt->total_us), 1);
		fputs("</polygon>\n", out);
	}
	for (i = 0; i < n; i++) {
		const struct rl_chart_point *pt = rl_chart_point(c, order[i]);
		double x, y0, y1;

		if (!is_plotted(pt) || rl_chart_measured_flops(pt) <= 0)
			continue;
		x = rl_chart_axis_px(&l.x, pt->intensity);
		y0 = rl_chart_axis_px(&l.y, pt->predicted_flops);
		y1 = rl_chart_axis_px(&l.y, rl_chart_measured_flops(pt));
		fprintf(out,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		        "stroke-width=\"1.5\" stroke-dasharray=\"3,2\"/>\n",
		        x, y0, x, y1, bound_colour[pt->bound]);
		fprintf(out,
		        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#ffffff\" stroke=\"%s\" "
		        "stroke-width=\"1.5\"",
		        x, y1, bound_colour[pt->bound]);
		data_op(out, pt, embed);
		if (!embed)
			tooltip(out, pt, rl_chart_share(c, pt->total_us), !info->best_case);
		fputs("</circle>\n", out);
	}
	fputs("</g>\n", out);
	draw_labels(out, c, &l, order, n, bs);

	y = legend_bounds(out, RL_PLOT_Y0 + 10, nmeasured > 0, has_network(c));
	if (!info->best_case)
		y = legend_expected(out, y);
	y = legend_roofs(out, y + 8);
	i = 0;
	notes[i++] = nmeasured > 0 ? "measured: flops / measured_us" : NULL;
	notes[i++] = info->best_case ? "point: roofline FLOP/s, flops / t" : "disc: roofline (best case)";
	notes[i++] = info->best_case ? "(below the roof when" : "FLOP/s, flops / t; diamond:";
	notes[i++] = info->best_case ? "overhead-bound)" : "expected, flops / expected_us";
	notes[i++] = "area: share of the predicted";
	notes[i++] = info->best_case ? "time (count x t)" : "time (count x expected_us)";
	notes[i++] = "labels: the longest ops; +N:";
	notes[i++] = "N more ops at the same spot";
	if (l.no_bytes > 0) {
		snprintf(note1, sizeof(note1), "%zu op%s with FLOPs but no", l.no_bytes,
		         l.no_bytes == 1 ? "" : "s");
		notes[i++] = note1;
		notes[i++] = "bytes: not shown";
	}
	y = legend_notes(out, y, notes, i);
	if (l.copies > 0)
		legend_copies(out, y + 8, c, &l);
	fputs("</svg>\n", out);
	free(bs);
	free(order);
	return ferror(out) ? RL_ERR_IO : 0;
}

int rl_svg_roofline(FILE *out, const rl_chart *c)
{
	return roofline(out, c, 0);
}

int rl_svg_roofline_html(FILE *out, const rl_chart *c)
{
	return roofline(out, c, 1);
}

int rl_svg_roofline_ops(FILE *out, const struct rl_chart_info *info, const struct rl_op *ops,
                        const struct rl_pred *preds, size_t n)
{
	rl_chart *c;
	size_t i;
	int rc = rl_chart_new(info, &c);

	for (i = 0; rc == 0 && i < n; i++)
		rc = rl_chart_add(c, &ops[i], &preds[i]);
	if (rc == 0)
		rc = rl_svg_roofline(out, c);
	rl_chart_free(c);
	return rc;
}

/* --- the sweep chart -------------------------------------------------- */

/* A reference line's label, above the line at Y = PY: at the right end, or
 * the left end, or below the line, whichever first keeps clear of the points
 * of panel P. */
static void ref_label(FILE *out, const rl_chart *c, const struct rl_chart_sweep *s, int p,
                      double py, const char *name, const char *value)
{
	double len = text_w(name, 0) + text_w(value, 0) + 4;
	size_t i, k;
	const struct {
		double x, dy;
		int anchor;
	} cand[] = {
		{RL_PLOT_X1 - 6, -7, 2}, {RL_PLOT_X0 + 6, -7, 0},
		{RL_PLOT_X1 - 6, 15, 2}, {RL_PLOT_X0 + 6, 15, 0},
	};
	struct box b;
	double v;
	int m;

	for (k = 0; k < sizeof(cand) / sizeof(cand[0]); k++) {
		b = text_box(cand[k].x, py + cand[k].dy, len, cand[k].anchor);
		for (i = 0; i < rl_chart_count(c); i++) {
			const struct rl_chart_point *pt = rl_chart_point(c, i);

			for (m = 0; m < 2; m++) {
				struct box pb;

				if ((v = rl_chart_sweep_value(pt, p, m)) <= 0)
					continue;
				pb.x0 = rl_chart_axis_px(&s->x, rl_chart_sweep_x(s, pt)) - 6;
				pb.x1 = pb.x0 + 12;
				pb.y0 = rl_chart_axis_px(&s->y[p], v) - 6;
				pb.y1 = pb.y0 + 12;
				if (overlap(b, pb) > 0)
					break;
			}
			if (m < 2)
				break;
		}
		if (i == rl_chart_count(c))
			break;
	}
	if (k == sizeof(cand) / sizeof(cand[0]))
		k = 0;
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s %s</text>\n", cand[k].x,
	        py + cand[k].dy, anchor_name(cand[k].anchor), name, value);
}

/* The key from the x ticks to the ops' names, for a sweep by position: one
 * line per tick from Y on, while they fit above the chart's foot. */
static void sweep_key(FILE *out, double y, const rl_chart *c, const struct rl_chart_sweep *s)
{
	size_t k;

	fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-weight=\"bold\">ops</text>\n", LEGEND_X, y);
	y += 16;
	for (k = 0; k < s->nticks && y < RL_SWEEP_HEIGHT - 30; k++, y += 14) {
		const struct rl_chart_point *pt = rl_chart_point(c, (size_t)s->tick[k] - 1);

		fprintf(out, "<text x=\"%d\" y=\"%.1f\"><tspan fill=\"#555555\">%zu</tspan> ",
		        LEGEND_X, y, pt->index + 1);
		rl_svg_text(out, pt->name, 24);
		fputs("</text>\n", out);
	}
	if (k < s->nticks)
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" fill=\"#555555\">(%zu more)</text>\n",
		        LEGEND_X, y, s->nticks - k);
}

int rl_svg_sweep(FILE *out, const rl_chart *c)
{
	static const char *const title[RL_SWEEP_PANELS] = {
		"predicted time per op",
		"achieved FLOP/s (flops / time)",
		"achieved bandwidth (bytes / time)",
	};
	static const fmt_fn fmt[RL_SWEEP_PANELS] = {fmt_time, fmt_flops, fmt_bytes_per_s};
	const struct rl_chart_info *info = rl_chart_info(c);
	struct rl_chart_sweep s;
	size_t n = rl_chart_count(c), i, copies = 0;
	int p, m, any_measured = 0, rc;
	double ly;

	rc = rl_chart_sweep_layout(c, &s, NULL);
	if (rc < 0)
		return rc;
	for (i = 0; i < n; i++) {
		if (rl_chart_point(c, i)->measured_us > 0)
			any_measured = 1;
		if (!(rl_chart_point(c, i)->flops > 0))
			copies++;
	}

	svg_begin(out, RL_CHART_WIDTH, RL_SWEEP_HEIGHT, info, "Sweep", 0);
	subtitle(out, c);
	for (p = 0; p < RL_SWEEP_PANELS; p++) {
		const struct rl_chart_axis *y = &s.y[p];
		double y0 = y->px_hi, y1 = y->px_lo, v, px, py;
		char buf[64];
		int first;

		fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" font-weight=\"bold\">%s</text>\n",
		        RL_PLOT_X0, y0 - 8, title[p]);
		y_axis(out, y, RL_PLOT_X0, RL_PLOT_X1, fmt[p]);
		if (s.nticks > 0 || !s.x.log)
			x_axis(out, &s.x, y0, y1, fmt_plain, s.tick, s.nticks);
		else
			x_axis(out, &s.x, y0, y1, fmt_plain, NULL, 0);
		frame(out, RL_PLOT_X0, y0, RL_PLOT_X1, y1);

		/* reference lines: the roofs, or the memory bandwidth */
		for (i = 0; i < (p == RL_SWEEP_FLOPS ? s.nroofs : p == RL_SWEEP_BW ? 1 : 0); i++) {
			double ref = p == RL_SWEEP_FLOPS ? s.roof[i].peak_flops : s.bandwidth;
			char name[64];

			py = rl_chart_axis_px(y, ref);
			if (p == RL_SWEEP_FLOPS) {
				roof_name(name, sizeof(name), &s.roof[i]);
				fmt_flops(buf, sizeof(buf), ref);
			} else {
				snprintf(name, sizeof(name), "memory");
				fmt_bytes_per_s(buf, sizeof(buf), ref);
			}
			fprintf(out,
			        "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000000\" "
			        "stroke-dasharray=\"6,3\"/>\n",
			        RL_PLOT_X0, py, RL_PLOT_X1, py);
			ref_label(out, c, &s, p, py, name, buf);
		}
		/* an empty panel says why */
		if (s.points[p] == 0) {
			fprintf(out,
			        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#555555\">",
			        (RL_PLOT_X0 + RL_PLOT_X1) / 2.0, (y0 + y1) / 2 + 4);
			if (p == RL_SWEEP_FLOPS)
				fprintf(out, "no op with FLOPs to plot: %zu cop%s (no FLOPs)", copies,
				        copies == 1 ? "y" : "ies");
			else
				fputs(p == RL_SWEEP_TIME ? "no op with a predicted time"
				                         : "no op that moves bytes",
				      out);
			fputs("</text>\n", out);
		}
		/* predicted, then measured: a line through the ops in file order,
		 * a point per op */
		for (m = 0; m < 2; m++) {
			first = 1;
			for (i = 0; i < n; i++) {
				const struct rl_chart_point *pt = rl_chart_point(c, i);

				if ((v = rl_chart_sweep_value(pt, p, m)) <= 0)
					continue;
				fprintf(out, first ? "<polyline fill=\"none\" stroke=\"%s\" "
				                     "stroke-width=\"1.2\"%s points=\""
				                   : " ",
				        m ? "#555555" : "#999999", m ? " stroke-dasharray=\"3,2\"" : "");
				fprintf(out, "%.1f,%.1f", rl_chart_axis_px(&s.x, rl_chart_sweep_x(&s, pt)),
				        rl_chart_axis_px(y, v));
				first = 0;
			}
			if (!first)
				fputs("\"/>\n", out);
			for (i = 0; i < n; i++) {
				const struct rl_chart_point *pt = rl_chart_point(c, i);

				if ((v = rl_chart_sweep_value(pt, p, m)) <= 0)
					continue;
				px = rl_chart_axis_px(&s.x, rl_chart_sweep_x(&s, pt));
				py = rl_chart_axis_px(y, v);
				if (m)
					fprintf(out,
					        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#ffffff\" "
					        "stroke=\"%s\" stroke-width=\"1.5\">",
					        px, py, bound_colour[pt->expected_bound]);
				else /* the expected time's bound (the roofline's with
				      * --best-case), as the time plotted */
					fprintf(out,
					        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" "
					        "fill-opacity=\"0.8\" stroke=\"%s\">",
					        px, py, bound_colour[pt->expected_bound],
					        bound_colour[pt->expected_bound]);
				fmt[p](buf, sizeof(buf), v);
				fputs("<title>", out);
				rl_svg_text(out, pt->name, 0);
				fprintf(out, ": %s%s</title></circle>\n", m ? "measured " : "", buf);
			}
		}
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">%s</text>\n",
	        (RL_PLOT_X0 + RL_PLOT_X1) / 2.0, RL_SWEEP_HEIGHT - 12,
	        s.by_fpe ? "FLOPs per element (the flops_per_element column)"
	                 : "op, in file order");
	{
		const char *notes[] = {"ops in file order, joined", "by a line; dashed: the",
		                       "roofs and the memory", "bandwidth",
		                       any_measured ? "measured: from measured_us" : NULL};

		ly = legend_notes(out, legend_bounds(out, RL_SWEEP_PANEL_TOP + 10, any_measured, has_network(c)) + 8,
		                  notes, 5);
	}
	if (!s.by_fpe)
		sweep_key(out, ly + 10, c, &s);
	fputs("</svg>\n", out);
	return ferror(out) ? RL_ERR_IO : 0;
}

/* --- the sweep table's chart ------------------------------------------- */

static void fmt_rate(char *buf, size_t len, double v)
{
	fmt_si(buf, len, v, "/s");
}

/* A value of the swept size as a tick: in full. */
static void fmt_value(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.0f", v);
}

/* A line through the positive values V[i] at the rows' x, dashed when
 * DASHED. */
static void sweeptab_line(FILE *out, const struct rl_sweep_table *t,
                          const struct rl_chart_sweeptab *l, const struct rl_chart_axis *y,
                          const double *v, int dashed)
{
	size_t i;
	int first = 1;

	for (i = 0; i < t->n; i++) {
		if (!(v[i] > 0) || !isfinite(v[i]))
			continue;
		fprintf(out, first ? "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s "
		                     "points=\""
		                   : " ",
		        dashed ? "#777777" : "#333333", dashed ? " stroke-dasharray=\"6,3\"" : "");
		fprintf(out, "%.1f,%.1f", rl_chart_axis_px(&l->x, (double)t->row[i].value),
		        rl_chart_axis_px(y, v[i]));
		first = 0;
	}
	if (!first)
		fputs("\"/>\n", out);
}

/* A vertical marker at row I over both panels, with LABEL at its top. */
static void sweeptab_marker(FILE *out, const struct rl_sweep_table *t,
                            const struct rl_chart_sweeptab *l, int i, const char *id,
                            const char *colour, const char *label)
{
	double px = rl_chart_axis_px(&l->x, (double)t->row[i].value);
	double y0 = RL_SWEEPTAB_PANEL_TOP,
	       y1 = RL_SWEEPTAB_PANEL_TOP + 2 * RL_SWEEPTAB_PANEL_H + RL_SWEEPTAB_PANEL_GAP;
	int right = px > (RL_PLOT_X0 + RL_PLOT_X1) / 2.0;

	fprintf(out, "<g id=\"%s\">\n", id);
	if (strcmp(id, "oom") == 0) /* the values that do not fit, shaded */
		fprintf(out,
		        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
		        "fill-opacity=\"0.08\"/>\n",
		        px, y0, RL_PLOT_X1 - px, y1 - y0, colour);
	fprintf(out,
	        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
	        "stroke-width=\"1.5\" stroke-dasharray=\"4,3\"/>\n",
	        px, y0, px, y1, colour);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\">",
	        px + (right ? -4 : 4),
	        /* in the gap between the panels, below the upper one's ticks */
	        RL_SWEEPTAB_PANEL_TOP + RL_SWEEPTAB_PANEL_H +
	            (strcmp(id, "oom") == 0 ? 52.0 : 36.0),
	        right ? "end" : "start", colour);
	rl_svg_text(out, label, 0);
	fputs("</text>\n</g>\n", out);
}

/* The sweep table's chart; EMBED: inside an HTML page (no XML declaration). */
static int sweep_table(FILE *out, const struct rl_sweep_table *t, const char *source, int embed)
{
	struct rl_chart_sweeptab l;
	double step[RL_SWEEP_MAX_VALUES], roof[RL_SWEEP_MAX_VALUES];
	double rate[RL_SWEEP_MAX_VALUES], rate_roof[RL_SWEEP_MAX_VALUES];
	char buf[160], item[64];
	double ly;
	size_t i;
	int p, rc;

	rc = rl_chart_sweeptab_layout(t, &l, NULL);
	if (rc < 0)
		return rc;
	for (i = 0; i < t->n; i++) {
		step[i] = t->row[i].step_us;
		roof[i] = t->row[i].roofline_us;
		rate[i] = rl_sweep_row_per_s(&t->row[i], 0);
		rate_roof[i] = rl_sweep_row_per_s(&t->row[i], 1);
	}
	snprintf(item, sizeof(item), "%s", t->items[0] ? t->items : "items");
	if (!embed)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
	        "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"%s\" font-size=\"11\">\n",
	        RL_CHART_WIDTH, RL_SWEEPTAB_HEIGHT, RL_CHART_WIDTH, RL_SWEEPTAB_HEIGHT, FONT);
	fputs("<title>Sweep of ", out);
	rl_svg_text(out, t->name, 0);
	fputs("</title>\n", out);
	fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", RL_CHART_WIDTH,
	        RL_SWEEPTAB_HEIGHT);
	fprintf(out, "<text x=\"%d\" y=\"28\" font-size=\"16\" font-weight=\"bold\">Sweep of ",
	        RL_PLOT_X0);
	rl_svg_text(out, t->name, 0);
	fputs("</text>\n", out);
	fprintf(out, "<text x=\"%d\" y=\"48\" font-size=\"12\" fill=\"#444444\">", RL_PLOT_X0);
	if (source != NULL) {
		const char *slash = strrchr(source, '/');

		rl_svg_text(out, slash != NULL && slash[1] != '\0' ? slash + 1 : source, 60);
		fputs(": ", out);
	}
	fprintf(out, "%zu value%s; throughput and step time against %s</text>\n", t->n,
	        t->n == 1 ? "" : "s", t->name);
	for (p = 0; p < 2; p++) {
		const struct rl_chart_axis *y = p == 0 ? &l.rate : &l.time;
		const double *v = p == 0 ? rate : step;
		double y0 = y->px_hi, y1 = y->px_lo;

		fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" font-weight=\"bold\">",
		        RL_PLOT_X0, y0 - 8);
		if (p == 0) {
			rl_svg_text(out, item, 0);
			fputs(" per second</text>\n", out);
		} else {
			fputs("step time</text>\n", out);
		}
		y_axis(out, y, RL_PLOT_X0, RL_PLOT_X1, p == 0 ? fmt_rate : fmt_time);
		x_axis(out, &l.x, y0, y1, fmt_value, l.tick, l.nticks);
		frame(out, RL_PLOT_X0, y0, RL_PLOT_X1, y1);
		if (p == 0 && !l.has_rate) {
			fprintf(out,
			        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#555555\">"
			        "no throughput: the table has no ITEMS_per_step column "
			        "(classify --items-per-step)</text>\n",
			        (RL_PLOT_X0 + RL_PLOT_X1) / 2.0, (y0 + y1) / 2 + 4);
			continue;
		}
		sweeptab_line(out, t, &l, y, p == 0 ? rate_roof : roof, 1);
		sweeptab_line(out, t, &l, y, v, 0);
		for (i = 0; i < t->n; i++) {
			const char *colour = bound_colour[rl_sweep_row_bound(&t->row[i])];
			char a[64];

			if (!(v[i] > 0) || !isfinite(v[i]))
				continue;
			fprintf(out,
			        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" "
			        "fill-opacity=\"%s\" stroke=\"%s\" stroke-width=\"1.5\">",
			        rl_chart_axis_px(&l.x, (double)t->row[i].value),
			        rl_chart_axis_px(y, v[i]), t->row[i].fits ? colour : "#ffffff",
			        t->row[i].fits ? "0.8" : "1", colour);
			(p == 0 ? fmt_rate : fmt_time)(a, sizeof(a), v[i]);
			fputs("<title>", out);
			rl_svg_text(out, t->name, 0);
			fprintf(out, " %llu: %s, %s-bound%s</title></circle>\n",
			        (unsigned long long)t->row[i].value, a,
			        rl_bound_name(rl_sweep_row_bound(&t->row[i])),
			        t->row[i].fits ? "" : ", does not fit");
		}
	}
	if (l.knee >= 0) {
		snprintf(buf, sizeof(buf), "compute-bound from %s=%llu", t->name,
		         (unsigned long long)t->row[l.knee].value);
		sweeptab_marker(out, t, &l, l.knee, "knee", bound_colour[RL_BOUND_COMPUTE], buf);
	}
	if (l.oom >= 0) {
		snprintf(buf, sizeof(buf), "out of memory from %s=%llu", t->name,
		         (unsigned long long)t->row[l.oom].value);
		sweeptab_marker(out, t, &l, l.oom, "oom", "#9467bd", buf);
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\">",
	        (RL_PLOT_X0 + RL_PLOT_X1) / 2.0, RL_SWEEPTAB_HEIGHT - 12);
	rl_svg_text(out, t->name, 0);
	fprintf(out, "%s</text>\n", l.x.log ? " (log scale)" : "");
	{
		int net = 0;
		size_t k;

		for (k = 0; k < t->n; k++)
			net |= t->row[k].share[RL_BOUND_NETWORK] > 0;
		ly = legend_bounds(out, RL_SWEEPTAB_PANEL_TOP + 10, 0, net) + 8;
	}
	{
		const char *notes[] = {"solid: expected; dashed:", "the best case (roofline)",
		                       "colour: the bound with the", "largest share of the step",
		                       "hollow: does not fit", "the device's memory"};

		legend_notes(out, ly, notes, 6);
	}
	fputs("</svg>\n", out);
	return ferror(out) ? RL_ERR_IO : 0;
}

int rl_svg_sweep_table(FILE *out, const struct rl_sweep_table *t, const char *source)
{
	return sweep_table(out, t, source, 0);
}

int rl_svg_sweep_table_html(FILE *out, const struct rl_sweep_table *t, const char *source)
{
	return sweep_table(out, t, source, 1);
}
