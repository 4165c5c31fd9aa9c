/* whatif_report.c - the fusion section of classify's table and md output,
 * and the batch-scaling report (see whatif_report.h). */
#include "config.h"

#include "whatif_report.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "fmt.h"
#include "report.h"

#define SHOW    10 /* groups listed per section */
#define LABEL_W 28 /* the label column, so a line fits 80 columns */

static double saved_us(const struct rl_fuse_whatif *w)
{
	return (double)w->count * (w->unfused_us - w->fused_us);
}

/* Copies S cut to W display columns (UTF-8 aware), '~' marking a cut. */
static void cut(char *buf, size_t len, const char *s, int w)
{
	size_t i = 0, o = 0;
	int cols = 0;

	while (s[i] != '\0' && o + 5 < len) {
		size_t n = 1;

		while ((s[i + n] & 0xC0) == 0x80)
			n++;
		if (cols == w - 1 && s[i + n] != '\0') {
			buf[o++] = '~';
			break;
		}
		memcpy(buf + o, s + i, n);
		o += n, i += n, cols++;
	}
	buf[o] = '\0';
}

/* "first..last" (or the group name), cut to LABEL_W columns. */
static void label(char *buf, size_t len, const struct rl_fuse_whatif *w)
{
	char full[512];

	snprintf(full, sizeof(full), "%s%s%s", w->first, w->last ? ".." : "",
	         w->last ? w->last : "");
	cut(buf, len, full, LABEL_W);
}

static void us(char *buf, double v)
{
	rl_fmt_fixed(buf, v, 2);
}

/* Lists the SHOW largest savings of V[0..N), ties in list order. */
static void section(FILE *out, const struct rl_fuse_whatif *v, size_t n, int md)
{
	size_t shown[SHOW], nshown = 0, i, k;
	const char *item = md ? "- " : "  ";

	for (i = 0; i < n; i++) {
		for (k = nshown; k > 0 && saved_us(&v[i]) > saved_us(&v[shown[k - 1]]); k--)
			if (k < SHOW)
				shown[k] = shown[k - 1];
		if (k < SHOW) {
			shown[k] = i;
			if (nshown < SHOW)
				nshown++;
		}
	}
	if (!md)
		fprintf(out, "  %-*s %4s %6s %11s %9s %9s\n", LABEL_W + 4, "ops", "n", "count",
		        "unfused_us", "fused_us", "saved_us");
	for (i = 0; i < nshown; i++) {
		const struct rl_fuse_whatif *w = &v[shown[i]];
		char name[4 * LABEL_W + 8], a[32], b[32], c[32];

		label(name, sizeof(name), w);
		us(a, w->unfused_us);
		us(b, w->fused_us);
		us(c, saved_us(w));
		if (md)
			fprintf(out,
			        "%s`%s`: %zu op%s, count %llu: %s us unfused, %s us fused, "
			        "saves %s us\n",
			        item, name, w->nops, w->nops == 1 ? "" : "s",
			        (unsigned long long)w->count, a, b, c);
		else
			fprintf(out, "  %2zu. %-*s %4zu %6llu %11s %9s %9s\n", i + 1, LABEL_W, name,
			        w->nops, (unsigned long long)w->count, a, b, c);
	}
	if (n > nshown)
		fprintf(out, "%s(%zu more)\n", item, n - nshown);
}

static double sum_saved(const struct rl_fuse_whatif *v, size_t n)
{
	double t = 0;
	size_t i;

	for (i = 0; i < n; i++)
		t += saved_us(&v[i]);
	return t;
}

int rl_whatif_fusion(FILE *out, const struct rl_fuse_stream *s, double total_us, int md)
{
	char a[32], b[32];

	if (s->ngroups > 0) {
		double saved = sum_saved(s->groups, s->ngroups);

		us(a, saved);
		us(b, total_us + saved);
		fprintf(out,
		        "%sfusion groups (column 'fuse'): %zu, saving %s us of %s us "
		        "unfused\n",
		        md ? "\n" : "\n", s->ngroups, a, b);
		section(out, s->groups, s->ngroups, md);
	}
	if (s->suggest) {
		double saved = sum_saved(s->proposals, s->nproposals);

		us(a, saved);
		us(b, total_us - saved);
		if (s->nproposals == 0)
			fprintf(out, "\nfusion suggestions: none (no run of two or more memory- or "
			             "overhead-bound\npointwise, softmax or layernorm ops)\n");
		else
			fprintf(out,
			        "\nfusion suggestions: %zu run%s, saving %s us: %s us predicted "
			        "fused\n",
			        s->nproposals, s->nproposals == 1 ? "" : "s", a, b);
		if (s->nproposals > 0)
			section(out, s->proposals, s->nproposals, md);
	}
	return ferror(out) ? RL_ERR_IO : 0;
}

/* ---- batch scaling ---- */

static void fmt_ai(char *buf, double v)
{
	if (v >= 1e4)
		snprintf(buf, 32, "%.3g", v);
	else
		rl_fmt_fixed(buf, v, 2);
}

int rl_scale_report_begin(FILE *out, int csv, const struct rl_device *dev, const char *runtime,
                          double host_overhead_us, const double *host_kind_us, const char *label,
                          int best_case)
{
	char host[64];

	rl_fmt_host(host, sizeof(host), host_overhead_us, host_kind_us);
	if (csv)
		fputs("name,kind,dtype,count,t_us,t_scaled_us,ratio,intensity,intensity_scaled,"
		      "bound,bound_scaled,verdict\n",
		      out);
	else
		fprintf(
		    out,
		    "%s (%s), %s runtime: %s per launch%s\n%sscaled: %s\n"
		    "%-18s %10s %10s %6s %8s %8s %s\n",
		    dev->name, dev->id, runtime, host, strchr(host, '-') ? " by op kind" : "",
		    best_case ? "best case (roofline bounds): every time is the roofline's lower "
		                "bound\n"
		              : "",
		    label, "name", best_case ? "t_us" : "exp_us",
		    best_case ? "t_scaled" : "exp_scaled", "ratio", "FLOP/B", "scaled", "verdict");
	return ferror(out) ? RL_ERR_IO : 0;
}

int rl_scale_report_row(FILE *out, int csv, const struct rl_op *op, const struct rl_pred *base,
                        const struct rl_pred *scaled, enum rl_scale_verdict v)
{
	double ratio = base->expected_us > 0 ? scaled->expected_us / base->expected_us : 1;
	char a[32], b[32], r[32], i1[32], i2[32];

	if (csv) {
		rl_csv_field(out, op->name);
		fprintf(out, ",%s,%s,%llu,", rl_kind_name(op->kind), rl_dtype_name(op->dtype),
		        (unsigned long long)op->count);
		rl_fmt_num(a, base->expected_us);
		rl_fmt_num(b, scaled->expected_us);
		rl_fmt_num(r, ratio);
		rl_fmt_num(i1, base->intensity);
		rl_fmt_num(i2, scaled->intensity);
		fprintf(out, "%s,%s,%s,%s,%s,%s,%s,%s\n", a, b, r, i1, i2,
		        rl_bound_name(base->expected_bound), rl_bound_name(scaled->expected_bound),
		        rl_scale_verdict_name(v));
	} else {
		char name[4 * 18 + 8];

		cut(name, sizeof(name), op->name, 18);
		us(a, base->expected_us);
		us(b, scaled->expected_us);
		rl_fmt_fixed(r, ratio, 2);
		fmt_ai(i1, base->intensity);
		fmt_ai(i2, scaled->intensity);
		fprintf(out, "%-18s %10s %10s %6s %8s %8s %s\n", name, a, b, r, i1, i2,
		        rl_scale_verdict_name(v));
	}
	return ferror(out) ? RL_ERR_IO : 0;
}

int rl_scale_report_end(FILE *out, int csv, const struct rl_scale_sum *s, const char *label)
{
	double ratio = s->base_us > 0 ? s->scaled_us / s->base_us : 1;
	char a[32], b[32], r[32];
	int k;

	if (csv)
		return ferror(out) ? RL_ERR_IO : 0;
	us(a, s->base_us);
	us(b, s->scaled_us);
	rl_fmt_fixed(r, ratio, 2);
	fprintf(out, "\ntotal: %s us -> %s us with %s: ratio %s\n", a, b, label, r);
	fputs("time by verdict (at the base size -> scaled):\n", out);
	for (k = 0; k < RL_SCALE_COUNT; k++) {
		if (s->ops_by[k] == 0)
			continue;
		us(a, s->base_by[k]);
		us(b, s->scaled_by[k]);
		rl_fmt_fixed(r, s->base_by[k] > 0 ? s->scaled_by[k] / s->base_by[k] : 1, 2);
		fprintf(out, "  %-9s %5.1f %%  (%zu op%s)  %s -> %s us, ratio %s\n",
		        rl_scale_verdict_name((enum rl_scale_verdict)k),
		        s->base_us > 0 ? 100 * s->base_by[k] / s->base_us : 0, s->ops_by[k],
		        s->ops_by[k] == 1 ? "" : "s", a, b, r);
	}
	if (ratio < RL_SCALE_FLAT &&
	    s->base_by[RL_SCALE_OVERHEAD] >= s->base_by[RL_SCALE_INTENSITY])
		fputs(
		    "under 1.1: overhead-bound. The GPU waits on the host; the larger size\n"
		    "  costs almost nothing: raise the batch, or cut the overhead (CUDA graphs)\n",
		    out);
	else if (ratio < RL_SCALE_FLAT)
		fputs("under 1.1, but not from overhead: the larger size raises arithmetic\n"
		      "  intensity (weights read once serve more rows)\n",
		      out);
	else
		fputs("1.1 or more: the time follows the work (compute or memory traffic)\n", out);
	return ferror(out) ? RL_ERR_IO : 0;
}
