/* ladder_report.c - writing roofline model --impl all: table, csv, json, md,
 * html (see ladder.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "html.h"
#include "json.h"
#include "ladder.h"
#include "memfit.h"

/* What the step from rung A down to rung B buys, in the terms of "Making
 * Deep Learning Go Brrrr": fewer kernels take host time off the step
 * (overhead), fusion takes memory traffic off the GPU, and a static cache
 * drops the copy of the KV cache that grows with the context. */
struct gain {
	double kernels, host_us, bytes, gpu_us, cache_bytes;
};

static struct gain gain(const struct rl_ladder_rung *a, const struct rl_ladder_rung *b)
{
	struct gain g;

	g.kernels = a->kernels - b->kernels;
	/* the host's share of a step: what the GPU waits on it */
	g.host_us = (a->step_us - a->gpu_us) - (b->step_us - b->gpu_us);
	g.bytes = a->bytes - b->bytes;
	g.gpu_us = a->gpu_us - b->gpu_us;
	g.cache_bytes = a->cache_bytes - b->cache_bytes;
	return g;
}

static void why(FILE *out, const char *lead, const struct rl_ladder_rung *a,
                const struct rl_ladder_rung *b)
{
	struct gain g = gain(a, b);

	fprintf(out, "%s%s -> %s: %.0f us less a step (%.2fx)\n", lead, a->impl->id, b->impl->id,
	        a->step_us - b->step_us, b->step_us > 0 ? a->step_us / b->step_us : 0);
	if (fabs(g.kernels) >= 0.5)
		fprintf(out,
		        "%s  overhead: %.0f %s kernels a step, %.0f us %s of the host's time the "
		        "GPU waits on\n",
		        lead, fabs(g.kernels), g.kernels > 0 ? "fewer" : "more", fabs(g.host_us),
		        g.host_us >= 0 ? "less" : "more");
	if (fabs(g.bytes) >= 1)
		fprintf(out, "%s  memory: %.3g GB %s traffic%s, %.0f us %s GPU time\n", lead,
		        fabs(g.bytes) / 1e9, g.bytes > 0 ? "less" : "more",
		        g.bytes > 0 ? " (fusion keeps intermediates on chip)" : "", fabs(g.gpu_us),
		        g.gpu_us >= 0 ? "less" : "more");
	if (g.cache_bytes >= 1)
		fprintf(out,
		        "%s  of which %.3g GB the KV-cache update's copy, which grows with the "
		        "context (a static or paged cache writes the new token in place)\n",
		        lead, g.cache_bytes / 1e9);
}

static void write_text(FILE *out, const struct rl_ladder_rung *r, size_t n, int md)
{
	size_t i;

	if (md) {
		fputs("| impl | kernels a step | GPU us | step us | tokens/s | memory GiB | stack |\n"
		      "|---|---:|---:|---:|---:|---:|---|\n", out);
		for (i = 0; i < n; i++)
			fprintf(out, "| %s | %.0f | %.2f | %.2f | %.1f | %.2f | %s |\n", r[i].impl->id,
			        r[i].kernels, r[i].gpu_us, r[i].step_us, r[i].tokens_per_s,
			        r[i].memory_bytes / RL_MEMFIT_GIB, r[i].impl->stack);
		fputs("\n", out);
	} else {
		fprintf(out, "%-10s %8s %12s %12s %12s %10s  %s\n", "impl", "kernels", "GPU us",
		        "step us", "tokens/s", "mem GiB", "stack");
		for (i = 0; i < n; i++)
			fprintf(out, "%-10s %8.0f %12.2f %12.2f %12.1f %10.2f  %s\n", r[i].impl->id,
			        r[i].kernels, r[i].gpu_us, r[i].step_us, r[i].tokens_per_s,
			        r[i].memory_bytes / RL_MEMFIT_GIB, r[i].impl->stack);
	}
	if (n > 1)
		fputs(md ? "**Down the ladder:**\n\n" : "down the ladder:\n", out);
	for (i = 0; i + 1 < n; i++)
		why(out, md ? "- " : "  ", &r[i], &r[i + 1]);
}

static const char *const csv_head[] = {"impl", "kernels", "gpu_us", "step_us", "tokens_per_s",
                                       "memory_bytes", "bytes", "cache_bytes"};

/* A rung's csv cells, or html's: SEP between cells (csv), or each in a
 * cell of its own. */
static void rung_cells(FILE *out, const struct rl_ladder_rung *r, int html)
{
	const char *sep = html ? "</td><td>" : ",";

	if (html) {
		fputs("<td>", out);
		rl_html_text(out, r->impl->id);
	} else {
		fputs(r->impl->id, out);
	}
	fprintf(out, "%s%.0f%s%.6g%s%.6g%s%.6g%s%.6g%s%.6g%s%.6g", sep, r->kernels, sep, r->gpu_us,
	        sep, r->step_us, sep, r->tokens_per_s, sep, r->memory_bytes, sep, r->bytes, sep,
	        r->cache_bytes);
	fputs(html ? "</td>" : "\n", out);
}

static void write_csv(FILE *out, const struct rl_ladder_rung *r, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(csv_head) / sizeof(csv_head[0]); i++)
		fprintf(out, "%s%s", i ? "," : "", csv_head[i]);
	fputc('\n', out);
	for (i = 0; i < n; i++)
		rung_cells(out, &r[i], 0);
}

/* The chart: a bar per implementation, its step time, and inside it its
 * GPU time, on one linear axis. */
#define BAR_LEFT 120
#define BAR_RIGHT 840
#define BAR_ROW 34

static void bars(FILE *out, const struct rl_ladder_rung *r, size_t n)
{
	double most = 0;
	size_t i;
	int h = 44 + (int)n * BAR_ROW;

	for (i = 0; i < n; i++)
		if (r[i].step_us > most)
			most = r[i].step_us;
	fprintf(out,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"960\" height=\"%d\" "
	        "viewBox=\"0 0 960 %d\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\" "
	        "font-size=\"12\">\n<title>Step and GPU time per implementation</title>\n"
	        "<rect width=\"960\" height=\"%d\" fill=\"#ffffff\"/>\n"
	        "<text x=\"%d\" y=\"20\" font-weight=\"bold\">step time (bar) and the "
	        "kernels' GPU time (inner bar), us</text>\n",
	        h, h, h, BAR_LEFT);
	for (i = 0; i < n; i++) {
		double y = 34 + (double)i * BAR_ROW;
		double ws = most > 0 ? r[i].step_us / most * (BAR_RIGHT - BAR_LEFT) : 0;
		double wg = most > 0 ? r[i].gpu_us / most * (BAR_RIGHT - BAR_LEFT) : 0;

		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", BAR_LEFT - 8, y + 16);
		rl_html_text(out, r[i].impl->id);
		fprintf(out,
		        "</text>\n<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"24\" "
		        "fill=\"#9ecae1\"><title>",
		        BAR_LEFT, y, ws);
		rl_html_text(out, r[i].impl->id);
		fprintf(out,
		        ": step %.2f us, %.0f kernels</title></rect>\n<rect x=\"%d\" y=\"%.1f\" "
		        "width=\"%.1f\" height=\"12\" fill=\"#1f77b4\"><title>",
		        r[i].step_us, r[i].kernels, BAR_LEFT, y + 6, wg > ws ? ws : wg);
		rl_html_text(out, r[i].impl->id);
		fprintf(out, ": GPU %.2f us</title></rect>\n<text x=\"%.1f\" y=\"%.1f\">%.1f us</text>\n",
		        r[i].gpu_us, BAR_LEFT + ws + 6, y + 16, r[i].step_us);
	}
	fputs("</svg>\n", out);
}

int rl_ladder_write_html(FILE *out, const struct rl_ladder_rung *r, size_t n, const char *config,
                         const char *step, const struct rl_device *dev)
{
	char title[512], *text = NULL;
	size_t i, len = 0;
	FILE *mem;

	snprintf(title, sizeof(title), "Implementations: %s", config);
	rl_html_begin(out, title, "#ladder td{text-align:right}#ladder td:first-child{text-align:left}\n",
	              title);
	if (dev != NULL) {
		char d[256];

		snprintf(d, sizeof(d), "%s (%s)", dev->name, dev->id);
		rl_html_meta(out, "device", d);
	}
	rl_html_meta(out, "step", step);
	rl_html_main(out);
	fputs("<section id=\"summary\">\n<h2>Down the ladder</h2>\n", out);
	if ((mem = open_memstream(&text, &len)) == NULL)
		return RL_ERR_NOMEM;
	for (i = 0; i + 1 < n; i++)
		why(mem, "", &r[i], &r[i + 1]);
	if (fclose(mem) != 0) {
		free(text);
		return RL_ERR_NOMEM;
	}
	rl_html_lines(out, text, len);
	free(text);
	fputs("</section>\n<section id=\"charts\" class=\"chart\">\n<h2>Chart</h2>\n", out);
	bars(out, r, n);
	fputs("</section>\n<section id=\"ops\">\n<h2>Implementations</h2>\n<p class=\"note\">"
	      "Each cell is the value csv writes. Click a heading to sort.</p>\n"
	      "<table id=\"ladder\" class=\"sortable\">\n<thead><tr>",
	      out);
	for (i = 0; i < sizeof(csv_head) / sizeof(csv_head[0]); i++)
		fprintf(out, "<th%s>%s</th>", i ? " class=\"num\"" : "", csv_head[i]);
	fputs("<th>stack</th></tr></thead>\n<tbody>\n", out);
	for (i = 0; i < n; i++) {
		fputs("<tr>", out);
		rung_cells(out, &r[i], 1);
		fputs("<td style=\"text-align:left\">", out);
		rl_html_text(out, r[i].impl->stack);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n</section>\n", out);
	return rl_html_end(out);
}

static int write_json(FILE *out, const struct rl_ladder_rung *r, size_t n)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	size_t i;

	if (g == NULL)
		return RL_ERR_NOMEM;
	yajl_gen_map_open(g);
	rl_json_str(g, "ladder");
	yajl_gen_array_open(g);
	for (i = 0; i < n; i++) {
		yajl_gen_map_open(g);
		rl_json_kv(g, "impl", r[i].impl->id);
		rl_json_kv(g, "name", r[i].impl->name);
		rl_json_kv(g, "stack", r[i].impl->stack);
		rl_json_kn(g, "kernels", r[i].kernels);
		rl_json_kn(g, "gpu_us", r[i].gpu_us);
		rl_json_kn(g, "step_us", r[i].step_us);
		rl_json_kn(g, "tokens_per_s", r[i].tokens_per_s);
		rl_json_kn(g, "memory_bytes", r[i].memory_bytes);
		rl_json_kn(g, "bytes", r[i].bytes);
		rl_json_kn(g, "cache_bytes", r[i].cache_bytes);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	rl_json_str(g, "steps");
	yajl_gen_array_open(g);
	for (i = 0; i + 1 < n; i++) {
		struct gain d = gain(&r[i], &r[i + 1]);

		yajl_gen_map_open(g);
		rl_json_kv(g, "from", r[i].impl->id);
		rl_json_kv(g, "to", r[i + 1].impl->id);
		rl_json_kn(g, "step_us_saved", r[i].step_us - r[i + 1].step_us);
		rl_json_kn(g, "kernels_saved", d.kernels);
		rl_json_kn(g, "host_us_saved", d.host_us);
		rl_json_kn(g, "bytes_saved", d.bytes);
		rl_json_kn(g, "gpu_us_saved", d.gpu_us);
		rl_json_kn(g, "cache_bytes_saved", d.cache_bytes);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
	rl_json_flush(g, out);
	fputc('\n', out);
	yajl_gen_free(g);
	return 0;
}

int rl_ladder_write(FILE *out, enum rl_format fmt, const struct rl_ladder_rung *rungs, size_t n)
{
	int rc = 0;

	switch (fmt) {
	case RL_FMT_TABLE: write_text(out, rungs, n, 0); break;
	case RL_FMT_MD: write_text(out, rungs, n, 1); break;
	case RL_FMT_CSV: write_csv(out, rungs, n); break;
	case RL_FMT_JSON: rc = write_json(out, rungs, n); break;
	case RL_FMT_HTML: rc = rl_ladder_write_html(out, rungs, n, "", NULL, NULL); break;
	}
	return rc == 0 && ferror(out) ? RL_ERR_IO : rc;
}
