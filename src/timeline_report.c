/* timeline_report.c - table, md and json forms of a simulated step (see
 * timeline_report.h). */
#include "config.h"

#include "timeline_report.h"

#include <stdio.h>

#include "err.h"
#include "fmt.h"
#include "json.h"

/* One row: RUNTIME, HOST (already formatted), then the step's figures. */
/* The lowest (SIGN -1) or highest (SIGN 1) host cost of lane L's kinds. */
static double lo_kind(const struct rl_tl_lane *l, int sign)
{
	double v = l->host_kind_us[0];
	int k;

	for (k = 1; k < RL_KIND_COUNT; k++)
		if (sign * (l->host_kind_us[k] - v) > 0)
			v = l->host_kind_us[k];
	return v;
}

/* Whether lane L charges op kinds different host costs (and they print:
 * a cost past 1e6 us is refused by the runtime file's range). */
static int kinds_differ(const struct rl_tl_lane *l)
{
	return lo_kind(l, -1) != lo_kind(l, 1) && lo_kind(l, 1) < 1e5;
}

static void row(FILE *out, int md, const char *runtime, const char *host, double step_us,
                double busy_us, double idle_us, double util)
{
	char s[32], b[32], i[32];

	rl_fmt_us(s, sizeof(s), step_us);
	rl_fmt_us(b, sizeof(b), busy_us);
	rl_fmt_us(i, sizeof(i), idle_us);
	if (md)
		fprintf(out, "| %s | %s | %s | %s | %s | %.1f %% |\n", runtime, host, s, b, i,
		        util * 100);
	else
		fprintf(out, "%-10.10s %12s %12s %12s %12s %7.1f %%\n", runtime, host, s, b, i,
		        util * 100);
}

/* The collectives' stream: per runtime, their time, how much of it ran
 * beside compute (overlap=1), was hidden, exposed and stalled compute; only
 * when a lane has communication. */
static void comm_table(FILE *out, int md, const struct rl_timeline *tl)
{
	size_t k;

	for (k = 0; k < tl->nlanes && tl->lanes[k].comm_us <= 0; k++)
		;
	if (k == tl->nlanes)
		return;
	if (md)
		fputs("\n**Communication** (collectives on their own stream: overlap=1 rows run "
		      "beside compute, the others block it):\n\n"
		      "| runtime | comm_us | overlap_us | hidden_us | exposed_us | stall_us |\n"
		      "|---|---:|---:|---:|---:|---:|\n",
		      out);
	else
		fprintf(out,
		        "communication (its own stream: overlap=1 rows beside compute, the others "
		        "block it):\n%-10s %12s %12s %12s %12s %12s\n",
		        "runtime", "comm_us", "overlap_us", "hidden_us", "exposed_us", "stall_us");
	for (k = 0; k < tl->nlanes; k++) {
		const struct rl_tl_lane *l = &tl->lanes[k];
		char c[32], o[32], h[32], x[32], s[32];

		rl_fmt_us(c, sizeof(c), l->comm_us);
		rl_fmt_us(o, sizeof(o), l->overlap_us);
		rl_fmt_us(h, sizeof(h), l->hidden_us);
		rl_fmt_us(x, sizeof(x), l->exposed_us);
		rl_fmt_us(s, sizeof(s), l->stall_us);
		if (md)
			fprintf(out, "| %s | %s | %s | %s | %s | %s |\n", l->runtime, c, o, h, x,
			        s);
		else
			fprintf(out, "%-10.10s %12s %12s %12s %12s %12s\n", l->runtime, c, o, h, x,
			        s);
	}
}

int rl_timeline_write(FILE *out, int md, const struct rl_timeline *tl)
{
	const struct rl_tl_lane *graph = rl_timeline_graph_lane(tl), *sel = NULL;
	size_t k;

	if (md)
		fputs("\n**Timeline** (one step, ops in file order, the host running ahead of "
		      "the GPU):\n\n"
		      "| runtime | host/launch | step_us | gpu_busy_us | gpu_idle_us | GPU-Util |\n"
		      "|---|---:|---:|---:|---:|---:|\n",
		      out);
	else
		fprintf(out,
		        "\ntimeline (one step, ops in file order, the host running ahead of "
		        "the GPU):\n%-10s %12s %12s %12s %12s %9s\n",
		        "runtime", "host/launch", "step_us", "gpu_busy_us", "gpu_idle_us",
		        "GPU-Util");
	for (k = 0; k < tl->nlanes; k++) {
		const struct rl_tl_lane *l = &tl->lanes[k];
		char h[32], us[24];

		/* the host cost as the other times ("1.000e+25" past a second),
		 * cut to US: the column holds any double */
		if (l->mode == RL_TL_RECORDED) {
			snprintf(h, sizeof(h), "host_us");
		} else if (kinds_differ(l)) {
			/* per op kind: the range, one decimal to fit the column */
			snprintf(h, sizeof(h), "%.1f-%.1f us", lo_kind(l, -1), lo_kind(l, 1));
		} else {
			rl_fmt_us(us, sizeof(us), l->host_overhead_us);
			snprintf(h, sizeof(h), "%s us", us);
		}
		row(out, md, l->runtime, h, l->step_us, l->busy_us, l->idle_us, l->util);
		if (l->selected)
			sel = l;
	}
	if (tl->measured.present) {
		const struct rl_tl_measured *m = &tl->measured;

		row(out, md, "measured", "-", m->step_us, m->gpu_busy_us,
		    m->step_us - m->gpu_busy_us, m->step_us > 0 ? m->gpu_busy_us / m->step_us : 0);
	}
	comm_table(out, md, tl);
	/* "What CUDA graphs would save", against the report's own runtime. */
	if (graph != NULL && sel != NULL && sel != graph && sel->step_us > 0) {
		char g[32], s[32];

		rl_fmt_us(g, sizeof(g), graph->step_us);
		rl_fmt_us(s, sizeof(s), sel->step_us);
		fprintf(out,
		        "%sas one CUDA graph: %s us per step instead of %s us in %s (%+.1f %%)\n",
		        md ? "\n" : "", g, s, sel->runtime,
		        (graph->step_us - sel->step_us) / sel->step_us * 100);
	}
	return ferror(out) ? RL_ERR_IO : 0;
}

void rl_timeline_json(yajl_gen g, const struct rl_timeline *tl)
{
	size_t k;

	yajl_gen_map_open(g);
	rl_json_str(g, "runtimes");
	yajl_gen_map_open(g);
	for (k = 0; k < tl->nlanes; k++) {
		const struct rl_tl_lane *l = &tl->lanes[k];

		rl_json_str(g, l->runtime);
		yajl_gen_map_open(g);
		rl_json_kv(g, "mode", l->mode == RL_TL_GRAPH      ? "graph"
		                      : l->mode == RL_TL_RECORDED ? "recorded"
		                                                  : "stream");
		rl_json_str(g, "selected");
		yajl_gen_bool(g, l->selected);
		rl_json_kn(g, "host_overhead_us", l->host_overhead_us);
		rl_json_kn(g, "kernels", l->kernels);
		rl_json_kn(g, "host_us", l->host_us);
		rl_json_kn(g, "step_us", l->step_us);
		rl_json_kn(g, "gpu_busy_us", l->busy_us);
		rl_json_kn(g, "gpu_idle_us", l->idle_us);
		rl_json_kn(g, "gpu_util", l->util);
		if (l->comm_us > 0) {
			rl_json_kn(g, "comm_us", l->comm_us);
			rl_json_kn(g, "comm_overlap_us", l->overlap_us);
			rl_json_kn(g, "comm_hidden_us", l->hidden_us);
			rl_json_kn(g, "comm_exposed_us", l->exposed_us);
			rl_json_kn(g, "comm_stall_us", l->stall_us);
		}
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
	if (tl->measured.present) {
		const struct rl_tl_measured *m = &tl->measured;

		rl_json_str(g, "measured");
		yajl_gen_map_open(g);
		rl_json_kn(g, "step_us", m->step_us);
		rl_json_kn(g, "gpu_busy_us", m->gpu_busy_us);
		rl_json_kn(g, "gpu_idle_us", m->step_us - m->gpu_busy_us);
		rl_json_kn(g, "gpu_util", m->step_us > 0 ? m->gpu_busy_us / m->step_us : 0);
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
}
