/* search_report.c - roofline search's table, csv, json and html (see
 * search_report.h). */
#include "config.h"

#include "search_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_gen.h>

#include "fmt.h"
#include "html.h"
#include "json.h"
#include "memfit.h"

static const char *const head[] = {
	"rank",         "tp",          "pp",        "dp",          "ep",
	"microbatches", "micro_batch", "virtual_stages", "tp_comm_overlap", "sp", "recompute", "zero",
	"step_us",      "gpu_step_us", "tokens_per_s", "bubble_pct", "comm_us",
	"exposed_comm_us", "memory_bytes", "fits"};
#define NHEAD (sizeof(head) / sizeof(head[0]))

static uint64_t v_of(const struct rl_search_row *w)
{
	return w->lay.vstages > 1 ? w->lay.vstages : 1;
}

/* Row W (rank RANK) as csv's cells, or html's (each in a cell). */
static void cells(FILE *out, const struct rl_search_row *w, size_t rank, int html)
{
	const char *sep = html ? "<td>" : ",";
	char n[8][32];

	rl_fmt_num(n[0], w->step_us);
	rl_fmt_num(n[1], w->gpu_step_us);
	rl_fmt_num(n[2], w->tokens_per_s);
	rl_fmt_num(n[3], w->bubble * 100);
	rl_fmt_num(n[4], w->comm_us);
	rl_fmt_num(n[5], w->exposed_us);
	fprintf(out,
	        "%s%zu%s%llu%s%llu%s%llu%s%llu%s%llu%s%llu%s%llu%s%d%s%d%s%d%s%d"
	        "%s%s%s%s%s%s%s%s%s%s%s%s%s%.0f%s%s",
	        html ? "<td>" : "", rank, sep, (unsigned long long)w->lay.tp, sep,
	        (unsigned long long)w->lay.pp, sep, (unsigned long long)w->lay.dp, sep,
	        (unsigned long long)w->lay.ep, sep, (unsigned long long)w->lay.microbatches, sep,
	        (unsigned long long)w->micro_batch, sep, (unsigned long long)v_of(w), sep,
	        w->lay.tp_comm_overlap, sep, w->lay.sp, sep, w->recompute, sep, w->lay.zero, sep, n[0],
	        sep, n[1], sep,
	        n[2], sep, n[3],
	        sep, n[4], sep, n[5], sep, w->memory_bytes, sep, w->fits ? "yes" : "no");
}

/* Why W loses to the best B: the step's difference and where it comes
 * from (the bubble, the exposed collectives, the rest of one GPU's step),
 * largest first; memory when it needs more. */
static void why(FILE *out, const struct rl_search_row *b, const struct rl_search_row *w,
                size_t rank)
{
	struct part {
		const char *what;
		double us;
	} p[3];
	size_t i, j;

	/* the step = one GPU's (compute and its exposed collectives) x the
	 * pipeline's factor: the bubble's part is the step less one GPU's */
	p[0].what = "pipeline bubble";
	p[0].us = (w->step_us - w->gpu_step_us) - (b->step_us - b->gpu_step_us);
	p[1].what = "exposed communication";
	p[1].us = w->exposed_us - b->exposed_us;
	p[2].what = "compute and memory time of one GPU";
	p[2].us = (w->gpu_step_us - w->exposed_us) - (b->gpu_step_us - b->exposed_us);
	for (i = 0; i < 3; i++)
		for (j = i + 1; j < 3; j++)
			if (fabs(p[j].us) > fabs(p[i].us)) {
				struct part t = p[i];

				p[i] = p[j];
				p[j] = t;
			}
	fprintf(out, "#%zu: %+.0f us (%+.1f %%)", rank, w->step_us - b->step_us,
	        b->step_us > 0 ? (w->step_us / b->step_us - 1) * 100 : 0);
	for (i = 0; i < 3; i++)
		if (fabs(p[i].us) >= 0.5)
			fprintf(out, "; %s %+.0f us", p[i].what, p[i].us);
	if (w->bubble != b->bubble)
		fprintf(out, " (bubble %.1f %% against %.1f %%)", w->bubble * 100, b->bubble * 100);
	if (w->memory_bytes > b->memory_bytes * 1.005)
		fprintf(out, "; %.2f GiB a GPU against %.2f", w->memory_bytes / RL_MEMFIT_GIB,
		        b->memory_bytes / RL_MEMFIT_GIB);
	fputc('\n', out);
}

static void counts(FILE *out, const struct rl_search_result *r, const struct rl_device *dev)
{
	double cap = rl_memfit_device_bytes(dev);

	fprintf(out, "%zu layouts: %zu refused by their checks, %zu tried, %zu of them over ", r->layouts,
	        r->refused, r->tried, r->unfit);
	if (cap > 0)
		fprintf(out, "the %g GiB a GPU has\n", cap / RL_MEMFIT_GIB);
	else
		fprintf(out, "the device's memory (%s gives none: every step fits)\n", dev->id);
}

static void write_table(FILE *out, const struct rl_search_info *in,
                        const struct rl_search_result *r)
{
	size_t i;

	fprintf(out, "search: %s, %s, %llu GPUs of %s (%s), %s runtime\n", in->config, in->step,
	        (unsigned long long)in->gpus, in->system ? in->system : in->dev->id, in->dev->id,
	        in->runtime);
	counts(out, r, in->dev);
	fprintf(out, "%4s %3s %3s %4s %3s %4s %4s %2s %3s %3s %3s %4s %13s %12s %6s %11s %11s %8s %4s\n",
	        "rank", "tp", "pp", "dp", "ep", "m", "mb", "v", "ovl", "sp", "rec", "zero", "step_us",
	        "tokens/s", "bubble", "comm_us", "exposed_us", "mem_GiB", "fits");
	for (i = 0; i < r->n; i++) {
		const struct rl_search_row *w = &r->rows[i];
		char s[32], c[32], x[32];

		rl_fmt_us(s, sizeof(s), w->step_us);
		rl_fmt_us(c, sizeof(c), w->comm_us);
		rl_fmt_us(x, sizeof(x), w->exposed_us);
		fprintf(out,
		        "%4zu %3llu %3llu %4llu %3llu %4llu %4llu %2llu %3s %3s %3s %4d %13s %12.1f %5.1f%% "
		        "%11s %11s %8.2f %4s\n",
		        i + 1, (unsigned long long)w->lay.tp, (unsigned long long)w->lay.pp,
		        (unsigned long long)w->lay.dp, (unsigned long long)w->lay.ep,
		        (unsigned long long)w->lay.microbatches, (unsigned long long)w->micro_batch,
		        (unsigned long long)v_of(w), w->lay.tp_comm_overlap ? "yes" : "no",
		        w->lay.sp ? "yes" : "no", w->recompute ? "yes" : "no", w->lay.zero, s,
		        w->tokens_per_s, w->bubble * 100, c, x,
		        w->memory_bytes / RL_MEMFIT_GIB, w->fits ? "yes" : "no");
	}
	if (r->n > 1 && r->rows[0].fits) {
		fputs("why the others lose to #1:\n", out);
		for (i = 1; i < r->n; i++) {
			fputs("  ", out);
			why(out, &r->rows[0], &r->rows[i], i + 1);
		}
	} else if (!r->rows[0].fits) {
		fputs("no layout fits: these need the least memory\n", out);
	}
}

static void write_csv(FILE *out, const struct rl_search_result *r)
{
	size_t i;

	for (i = 0; i < NHEAD; i++)
		fprintf(out, "%s%s", i ? "," : "", head[i]);
	fputc('\n', out);
	for (i = 0; i < r->n; i++) {
		cells(out, &r->rows[i], i + 1, 0);
		fputc('\n', out);
	}
}

static int write_json(FILE *out, const struct rl_search_info *in, const struct rl_search_result *r)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	size_t i;

	if (g == NULL)
		return RL_ERR_NOMEM;
	yajl_gen_map_open(g);
	rl_json_str(g, "search");
	yajl_gen_map_open(g);
	rl_json_kv(g, "config", in->config);
	rl_json_kv(g, "step", in->step);
	rl_json_kv(g, "system", in->system);
	rl_json_kv(g, "device", in->dev->id);
	rl_json_kv(g, "runtime", in->runtime);
	rl_json_ku(g, "gpus", in->gpus);
	rl_json_ku(g, "layouts", r->layouts);
	rl_json_ku(g, "refused", r->refused);
	rl_json_ku(g, "tried", r->tried);
	rl_json_ku(g, "over_memory", r->unfit);
	rl_json_ku(g, "tokens_per_step", r->tokens);
	rl_json_str(g, "rows");
	yajl_gen_array_open(g);
	for (i = 0; i < r->n; i++) {
		const struct rl_search_row *w = &r->rows[i];

		yajl_gen_map_open(g);
		rl_json_ku(g, "rank", i + 1);
		rl_json_ku(g, "tp", w->lay.tp);
		rl_json_ku(g, "pp", w->lay.pp);
		rl_json_ku(g, "dp", w->lay.dp);
		rl_json_ku(g, "ep", w->lay.ep);
		rl_json_ku(g, "microbatches", w->lay.microbatches);
		rl_json_ku(g, "micro_batch", w->micro_batch);
		rl_json_ku(g, "virtual_stages", v_of(w));
		rl_json_str(g, "tp_comm_overlap");
		yajl_gen_bool(g, w->lay.tp_comm_overlap);
		rl_json_str(g, "sp");
		yajl_gen_bool(g, w->lay.sp);
		rl_json_str(g, "recompute");
		yajl_gen_bool(g, w->recompute);
		rl_json_ku(g, "zero", (uint64_t)w->lay.zero);
		rl_json_kn(g, "step_us", w->step_us);
		rl_json_kn(g, "gpu_step_us", w->gpu_step_us);
		rl_json_kn(g, "tokens_per_s", w->tokens_per_s);
		rl_json_kn(g, "bubble", w->bubble);
		rl_json_kn(g, "comm_us", w->comm_us);
		rl_json_kn(g, "exposed_comm_us", w->exposed_us);
		rl_json_kn(g, "memory_bytes", w->memory_bytes);
		rl_json_str(g, "fits");
		yajl_gen_bool(g, w->fits);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
	rl_json_flush(g, out);
	fputc('\n', out);
	yajl_gen_free(g);
	return 0;
}

/* html's chart: a bar per layout kept, its step, the bubble's part of it
 * lighter, on one linear axis. */
static void bars(FILE *out, const struct rl_search_result *r)
{
	double most = 0;
	size_t i;
	int h = 44 + (int)r->n * 30;

	for (i = 0; i < r->n; i++)
		if (r->rows[i].step_us > most)
			most = r->rows[i].step_us;
	fprintf(out,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"960\" height=\"%d\" "
	        "viewBox=\"0 0 960 %d\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\" "
	        "font-size=\"12\">\n<title>Step time per layout</title>\n"
	        "<rect width=\"960\" height=\"%d\" fill=\"#ffffff\"/>\n"
	        "<text x=\"200\" y=\"20\" font-weight=\"bold\">step time, us (lighter: the "
	        "pipeline bubble's part)</text>\n",
	        h, h, h);
	for (i = 0; i < r->n; i++) {
		const struct rl_search_row *w = &r->rows[i];
		double y = 32 + (double)i * 30;
		double ws = most > 0 ? w->step_us / most * 640 : 0;
		double wg = most > 0 ? w->gpu_step_us / most * 640 : 0;

		fprintf(out,
		        "<text x=\"192\" y=\"%.1f\" text-anchor=\"end\">#%zu tp %llu pp %llu dp %llu%s</text>\n"
		        "<rect x=\"200\" y=\"%.1f\" width=\"%.1f\" height=\"20\" fill=\"#9ecae1\"/>"
		        "<rect x=\"200\" y=\"%.1f\" width=\"%.1f\" height=\"20\" fill=\"%s\"/>"
		        "<text x=\"%.1f\" y=\"%.1f\">%.0f us</text>\n",
		        y + 14, i + 1, (unsigned long long)w->lay.tp, (unsigned long long)w->lay.pp,
		        (unsigned long long)w->lay.dp, w->fits ? "" : " (no fit)", y, ws, y, wg,
		        w->fits ? "#1f77b4" : "#aaaaaa", ws + 206, y + 14, w->step_us);
	}
	fputs("</svg>\n", out);
}

static int write_html(FILE *out, const struct rl_search_info *in, const struct rl_search_result *r)
{
	char title[512], buf[256], *text = NULL;
	size_t i, len = 0;
	FILE *mem;

	snprintf(title, sizeof(title), "Search: %s on %llu GPUs", in->config,
	         (unsigned long long)in->gpus);
	rl_html_begin(out, title,
	              "#search-table td{text-align:right}\n",
	              title);
	snprintf(buf, sizeof(buf), "%s (%s)", in->dev->name, in->dev->id);
	rl_html_meta(out, "device", buf);
	rl_html_meta(out, "system", in->system);
	rl_html_meta(out, "runtime", in->runtime);
	rl_html_meta(out, "step", in->step);
	rl_html_main(out);
	fputs("<section id=\"summary\">\n<h2>Summary</h2>\n", out);
	if ((mem = open_memstream(&text, &len)) == NULL)
		return RL_ERR_NOMEM;
	counts(mem, r, in->dev);
	if (r->n > 1 && r->rows[0].fits)
		for (i = 1; i < r->n; i++)
			why(mem, &r->rows[0], &r->rows[i], i + 1);
	else if (!r->rows[0].fits)
		fputs("no layout fits: these need the least memory\n", mem);
	if (fclose(mem) != 0) {
		free(text);
		return RL_ERR_NOMEM;
	}
	rl_html_lines(out, text, len);
	free(text);
	fputs("</section>\n<section id=\"charts\" class=\"chart\">\n<h2>Chart</h2>\n", out);
	bars(out, r);
	fputs("</section>\n<section id=\"ops\">\n<h2>Layouts</h2>\n<p class=\"note\">Each cell is "
	      "the value csv writes. Click a heading to sort.</p>\n<div class=\"scroll\">\n"
	      "<table id=\"search-table\" class=\"sortable\">\n<thead><tr>",
	      out);
	for (i = 0; i < NHEAD; i++)
		fprintf(out, "<th%s>%s</th>", i + 1 < NHEAD ? " class=\"num\"" : "", head[i]);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (i = 0; i < r->n; i++) {
		fputs("<tr>", out);
		cells(out, &r->rows[i], i + 1, 1);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n</div>\n</section>\n", out);
	return rl_html_end(out);
}

int rl_search_report_write(FILE *out, enum rl_format fmt, const struct rl_search_info *info,
                           const struct rl_search_result *r)
{
	int rc = 0;

	if (r->n == 0)
		return RL_ERR_ARG;
	switch (fmt) {
	case RL_FMT_TABLE: write_table(out, info, r); break;
	case RL_FMT_CSV: write_csv(out, r); break;
	case RL_FMT_JSON: rc = write_json(out, info, r); break;
	case RL_FMT_HTML: rc = write_html(out, info, r); break;
	case RL_FMT_MD: return RL_ERR_ARG;
	}
	return rc == 0 && ferror(out) ? RL_ERR_IO : rc;
}
