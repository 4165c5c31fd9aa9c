/* sweep_report.c - a sweep's table, csv, json, md and html (see sweep_report.h). */
#include "config.h"

#include "sweep_report.h"

#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_gen.h>

#include "fmt.h"
#include "html.h"
#include "json.h"
#include "svg.h"

static const char *const share_col[RL_BOUND_COUNT] = {"compute_pct", "memory_pct", "overhead_pct",
                                                     "network_pct"};

/* The lines after the rows (table, md): the knee and where memory runs out. */
static void notes(FILE *out, const struct rl_sweep_table *t, const char *item)
{
	int k = rl_sweep_knee(t), o = rl_sweep_oom(t);
	double most = 0;
	size_t i;

	if (k >= 0)
		fprintf(out, "%sknee: compute-bound from %s %llu (memory-bound at %llu)\n", item,
		        t->name, (unsigned long long)t->row[k].value,
		        (unsigned long long)t->row[k - 1].value);
	else
		fprintf(out, "%sknee: none (no step turns from memory- to compute-bound)\n", item);
	for (i = 0; i < t->n; i++)
		if (t->row[i].memory_bytes > most)
			most = t->row[i].memory_bytes;
	if (t->device_bytes <= 0)
		fprintf(out, "%smemory: the device gives no memory_gib (at most %.2f GiB needed)\n",
		        item, most / RL_MEMFIT_GIB);
	else if (o >= 0)
		fprintf(out,
		        "%sout of memory: from %s %llu (%.2f GiB needed, %g GiB on the device)\n",
		        item, t->name, (unsigned long long)t->row[o].value,
		        t->row[o].memory_bytes / RL_MEMFIT_GIB, t->device_bytes / RL_MEMFIT_GIB);
	else
		fprintf(out, "%smemory: every step fits (at most %.2f of %g GiB)\n", item,
		        most / RL_MEMFIT_GIB, t->device_bytes / RL_MEMFIT_GIB);
}

static void write_table(FILE *out, const struct rl_sweep_table *t)
{
	char step[32], roof[32], rate[32], head[32];
	size_t i;
	int b;

	if (t->title != NULL)
		fprintf(out, "sweep of %s: %s\n", t->name, t->title);
	snprintf(head, sizeof(head), "%s/s", t->items);
	fprintf(out, "%10s %12s %12s", t->name, "step_us", "roofline_us");
	if (t->items[0])
		fprintf(out, " %14s", head);
	fprintf(out, " %8s %8s %8s %8s %11s %4s\n", "compute", "memory", "overhead", "network",
	        "memory_GiB", "fits");
	for (i = 0; i < t->n; i++) {
		const struct rl_sweep_row *r = &t->row[i];

		rl_fmt_us(step, sizeof(step), r->step_us);
		rl_fmt_us(roof, sizeof(roof), r->roofline_us);
		fprintf(out, "%10llu %12s %12s", (unsigned long long)r->value, step, roof);
		if (t->items[0]) {
			snprintf(rate, sizeof(rate), "%.1f", rl_sweep_row_per_s(r, 0));
			fprintf(out, " %14s", rate);
		}
		for (b = 0; b < RL_BOUND_COUNT; b++)
			fprintf(out, " %7.1f%%", 100 * r->share[b]);
		fprintf(out, " %11.2f %4s\n", r->memory_bytes / RL_MEMFIT_GIB,
		        r->fits ? "yes" : "no");
	}
	fputc('\n', out);
	notes(out, t, "");
}

static void write_md(FILE *out, const struct rl_sweep_table *t)
{
	char step[32], roof[32];
	size_t i;
	int b;

	if (t->title != NULL)
		fprintf(out, "Sweep of `%s`: %s\n\n", t->name, t->title);
	fprintf(out, "| %s | step_us | roofline_us |", t->name);
	if (t->items[0])
		fprintf(out, " %s/s |", t->items);
	fputs(" compute | memory | overhead | network | memory_GiB | fits |\n|--:|--:|--:|", out);
	if (t->items[0])
		fputs("--:|", out);
	fputs("--:|--:|--:|--:|--:|---|\n", out);
	for (i = 0; i < t->n; i++) {
		const struct rl_sweep_row *r = &t->row[i];

		rl_fmt_us(step, sizeof(step), r->step_us);
		rl_fmt_us(roof, sizeof(roof), r->roofline_us);
		fprintf(out, "| %llu | %s | %s |", (unsigned long long)r->value, step, roof);
		if (t->items[0])
			fprintf(out, " %.1f |", rl_sweep_row_per_s(r, 0));
		for (b = 0; b < RL_BOUND_COUNT; b++)
			fprintf(out, " %.1f %% |", 100 * r->share[b]);
		fprintf(out, " %.2f | %s |\n", r->memory_bytes / RL_MEMFIT_GIB,
		        r->fits ? "yes" : "no");
	}
	fputc('\n', out);
	notes(out, t, "- ");
}

/* The csv's cells, which html's table repeats: each cell after SEP, html's
 * in a cell of its own ("<td>"). */
struct cells {
	FILE *out;
	int html;
	int first;
};

static void cell_open(struct cells *c)
{
	if (c->html)
		fputs(c->html == 2 ? "<th class=\"num\">" : "<td>", c->out);
	else if (!c->first)
		fputc(',', c->out);
	c->first = 0;
}

static void cell_close(struct cells *c)
{
	if (c->html)
		fputs(c->html == 2 ? "</th>" : "</td>", c->out);
}

static void cell_str(struct cells *c, const char *s)
{
	cell_open(c);
	if (c->html)
		rl_html_text(c->out, s);
	else
		rl_csv_field(c->out, s);
	cell_close(c);
}

static void cell_num(struct cells *c, double v)
{
	char buf[32];

	cell_open(c);
	rl_fmt_num(buf, v);
	fputs(buf, c->out);
	cell_close(c);
}

/* Bytes in full: %.6g would cut 15,009,316,864 to 1.50093e+10. */
static void cell_bytes(struct cells *c, double v)
{
	cell_open(c);
	if (v >= 0)
		fprintf(c->out, "%.0f", v);
	cell_close(c);
}

/* The header: HTML 2 (headings) or 0 (csv). */
static void head_cells(FILE *out, const struct rl_sweep_table *t, int html)
{
	static const char *const tail[] = {"weight_bytes", "kv_bytes", "activation_bytes",
	                                   "memory_bytes", "device_bytes", "fits"};
	struct cells c = {out, html, 1};
	char name[64];
	size_t i;
	int b;

	cell_str(&c, t->name);
	cell_str(&c, "step_us");
	cell_str(&c, "roofline_us");
	if (t->items[0]) {
		snprintf(name, sizeof(name), "%s_per_step", t->items);
		cell_str(&c, name);
		snprintf(name, sizeof(name), "%s_per_s", t->items);
		cell_str(&c, name);
		snprintf(name, sizeof(name), "%s_per_s_roofline", t->items);
		cell_str(&c, name);
	}
	for (b = 0; b < RL_BOUND_COUNT; b++)
		cell_str(&c, share_col[b]);
	for (i = 0; i < sizeof(tail) / sizeof(tail[0]); i++) {
		if (html && i + 1 == sizeof(tail) / sizeof(tail[0]))
			c.html = 3; /* text: not a number */
		if (c.html == 3) {
			fputs("<th>", out);
			rl_html_text(out, tail[i]);
			fputs("</th>", out);
		} else {
			cell_str(&c, tail[i]);
		}
	}
}

static void row_cells(FILE *out, const struct rl_sweep_table *t, const struct rl_sweep_row *r,
                      int html)
{
	struct cells c = {out, html, 1};
	char v[32];
	int b;

	rl_fmt_u64(v, r->value);
	cell_str(&c, v);
	cell_num(&c, r->step_us);
	cell_num(&c, r->roofline_us);
	if (t->items[0]) {
		cell_num(&c, r->items);
		cell_num(&c, rl_sweep_row_per_s(r, 0));
		cell_num(&c, rl_sweep_row_per_s(r, 1));
	}
	for (b = 0; b < RL_BOUND_COUNT; b++)
		cell_num(&c, 100 * r->share[b]);
	cell_bytes(&c, r->weight_bytes);
	cell_bytes(&c, r->kv_bytes);
	cell_bytes(&c, r->activation_bytes);
	cell_bytes(&c, r->memory_bytes);
	cell_bytes(&c, t->device_bytes > 0 ? t->device_bytes : -1);
	cell_str(&c, r->fits ? "yes" : "no");
}

static void write_csv(FILE *out, const struct rl_sweep_table *t)
{
	size_t i;

	head_cells(out, t, 0);
	fputc('\n', out);
	for (i = 0; i < t->n; i++) {
		row_cells(out, t, &t->row[i], 0);
		fputc('\n', out);
	}
}

/* The page: the sweep's chart, its table (csv's cells) and its notes. */
static int write_html(FILE *out, const struct rl_sweep_table *t)
{
	char title[160], *text = NULL;
	size_t i, len = 0;
	FILE *mem;
	int rc;

	snprintf(title, sizeof(title), "Sweep of %s", t->name);
	rl_html_begin(out, title, "#sweep-table td{text-align:right}\n", title);
	rl_html_meta(out, "step", t->title);
	rl_html_main(out);
	fputs("<section id=\"summary\">\n<h2>Summary</h2>\n", out);
	if ((mem = open_memstream(&text, &len)) == NULL)
		return RL_ERR_NOMEM;
	notes(mem, t, "");
	if (fclose(mem) != 0) {
		free(text);
		return RL_ERR_NOMEM;
	}
	rl_html_lines(out, text, len);
	free(text);
	fputs("</section>\n<section id=\"charts\" class=\"chart\">\n<h2>Chart</h2>\n", out);
	if ((rc = rl_svg_sweep_table_html(out, t, NULL)) < 0)
		return rc;
	fputs("</section>\n<section id=\"ops\">\n<h2>Rows</h2>\n<p class=\"note\">Each cell "
	      "is the value csv writes. Click a heading to sort.</p>\n<div class=\"scroll\">\n"
	      "<table id=\"sweep-table\" class=\"sortable\">\n<thead><tr>",
	      out);
	head_cells(out, t, 2);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (i = 0; i < t->n; i++) {
		fputs("<tr>", out);
		row_cells(out, t, &t->row[i], 1);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n</div>\n</section>\n", out);
	return rl_html_end(out);
}

/* The value at row index I, or null (I < 0). */
static void json_at(yajl_gen g, const struct rl_sweep_table *t, const char *key, int i)
{
	if (i >= 0) {
		rl_json_ku(g, key, t->row[i].value);
	} else {
		rl_json_str(g, key);
		yajl_gen_null(g);
	}
}

static int write_json(FILE *out, const struct rl_sweep_table *t)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	char key[48];
	size_t i;
	int b;

	if (g == NULL)
		return RL_ERR_NOMEM;
	yajl_gen_map_open(g);
	rl_json_str(g, "sweep");
	yajl_gen_map_open(g);
	rl_json_kv(g, "name", t->name);
	rl_json_kv(g, "title", t->title);
	rl_json_kv(g, "items", t->items[0] ? t->items : NULL);
	if (t->device_bytes > 0) {
		rl_json_kn(g, "device_bytes", t->device_bytes);
	} else {
		rl_json_str(g, "device_bytes");
		yajl_gen_null(g);
	}
	rl_json_str(g, "rows");
	yajl_gen_array_open(g);
	for (i = 0; i < t->n; i++) {
		const struct rl_sweep_row *r = &t->row[i];

		yajl_gen_map_open(g);
		rl_json_ku(g, "value", r->value);
		rl_json_kn(g, "step_us", r->step_us);
		rl_json_kn(g, "roofline_us", r->roofline_us);
		if (t->items[0]) {
			snprintf(key, sizeof(key), "%s_per_step", t->items);
			rl_json_kn(g, key, r->items);
			snprintf(key, sizeof(key), "%s_per_s", t->items);
			rl_json_kn(g, key, rl_sweep_row_per_s(r, 0));
			snprintf(key, sizeof(key), "%s_per_s_roofline", t->items);
			rl_json_kn(g, key, rl_sweep_row_per_s(r, 1));
		}
		rl_json_str(g, "share");
		yajl_gen_map_open(g);
		for (b = 0; b < RL_BOUND_COUNT; b++)
			rl_json_kn(g, rl_bound_name((enum rl_bound)b), r->share[b]);
		yajl_gen_map_close(g);
		rl_json_kv(g, "bound", rl_bound_name(rl_sweep_row_bound(r)));
		rl_json_str(g, "memory");
		yajl_gen_map_open(g);
		rl_json_kn(g, "weight_bytes", r->weight_bytes);
		rl_json_kn(g, "kv_bytes", r->kv_bytes);
		rl_json_kn(g, "activation_bytes", r->activation_bytes);
		rl_json_kn(g, "total_bytes", r->memory_bytes);
		yajl_gen_map_close(g);
		rl_json_str(g, "fits");
		yajl_gen_bool(g, r->fits);
		yajl_gen_map_close(g);
		rl_json_flush(g, out);
	}
	yajl_gen_array_close(g);
	json_at(g, t, "knee", rl_sweep_knee(t));
	json_at(g, t, "out_of_memory", rl_sweep_oom(t));
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
	rl_json_flush(g, out);
	fputc('\n', out);
	yajl_gen_free(g);
	return 0;
}

int rl_sweep_report_write(FILE *out, enum rl_format fmt, const struct rl_sweep_table *t)
{
	int rc = 0;

	switch (fmt) {
	case RL_FMT_TABLE:
		write_table(out, t);
		break;
	case RL_FMT_MD:
		write_md(out, t);
		break;
	case RL_FMT_CSV:
		write_csv(out, t);
		break;
	case RL_FMT_JSON:
		rc = write_json(out, t);
		break;
	case RL_FMT_HTML:
		rc = write_html(out, t);
		break;
	}
	if (rc == 0 && ferror(out))
		rc = RL_ERR_IO;
	return rc;
}
