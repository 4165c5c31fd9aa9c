/* sweep_report.c - a sweep's table, csv, json and md (see sweep_report.h). */
#include "config.h"

#include "sweep_report.h"

#include <string.h>

#include <yajl/yajl_gen.h>

#include "fmt.h"
#include "json.h"

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

static void csv_num(FILE *out, double v)
{
	char buf[32];

	fputc(',', out);
	rl_fmt_num(buf, v);
	fputs(buf, out);
}

/* Bytes in full: %.6g would cut 15,009,316,864 to 1.50093e+10. */
static void csv_bytes(FILE *out, double v)
{
	fprintf(out, ",%.0f", v);
}

static void write_csv(FILE *out, const struct rl_sweep_table *t)
{
	size_t i;
	int b;

	rl_csv_field(out, t->name);
	fputs(",step_us,roofline_us", out);
	if (t->items[0])
		fprintf(out, ",%s_per_step,%s_per_s,%s_per_s_roofline", t->items, t->items,
		        t->items);
	for (b = 0; b < RL_BOUND_COUNT; b++)
		fprintf(out, ",%s", share_col[b]);
	fputs(",weight_bytes,kv_bytes,activation_bytes,memory_bytes,device_bytes,fits\n", out);
	for (i = 0; i < t->n; i++) {
		const struct rl_sweep_row *r = &t->row[i];

		fprintf(out, "%llu", (unsigned long long)r->value);
		csv_num(out, r->step_us);
		csv_num(out, r->roofline_us);
		if (t->items[0]) {
			csv_num(out, r->items);
			csv_num(out, rl_sweep_row_per_s(r, 0));
			csv_num(out, rl_sweep_row_per_s(r, 1));
		}
		for (b = 0; b < RL_BOUND_COUNT; b++)
			csv_num(out, 100 * r->share[b]);
		csv_bytes(out, r->weight_bytes);
		csv_bytes(out, r->kv_bytes);
		csv_bytes(out, r->activation_bytes);
		csv_bytes(out, r->memory_bytes);
		if (t->device_bytes > 0)
			csv_bytes(out, t->device_bytes);
		else
			fputc(',', out);
		fprintf(out, ",%s\n", r->fits ? "yes" : "no");
	}
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
	}
	if (rc == 0 && ferror(out))
		rc = RL_ERR_IO;
	return rc;
}
