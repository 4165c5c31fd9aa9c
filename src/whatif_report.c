/* whatif_report.c - the fusion section of classify's table and md output
 * (see whatif_report.h). */
#include "config.h"

#include "whatif_report.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "fmt.h"

#define SHOW 10     /* groups listed per section */
#define LABEL_W 28  /* the label column, so a line fits 80 columns */

static double saved_us(const struct rl_fuse_whatif *w)
{
	return (double)w->count * (w->unfused_us - w->fused_us);
}

/* "first..last" (or the group name), cut to LABEL_W columns with '~'. */
static void label(char *buf, size_t len, const struct rl_fuse_whatif *w)
{
	size_t i = 0, o = 0;
	int cols = 0;
	char full[512];

	snprintf(full, sizeof(full), "%s%s%s", w->first, w->last ? ".." : "",
	         w->last ? w->last : "");
	while (full[i] != '\0' && o + 5 < len) {
		size_t n = 1;

		while ((full[i + n] & 0xC0) == 0x80)
			n++;
		if (cols == LABEL_W - 1 && full[i + n] != '\0') {
			buf[o++] = '~';
			break;
		}
		memcpy(buf + o, full + i, n);
		o += n, i += n, cols++;
	}
	buf[o] = '\0';
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
			fprintf(out, "%s`%s`: %zu ops, count %llu: %s us unfused, %s us fused, "
			        "saves %s us\n", item, name, w->nops, (unsigned long long)w->count,
			        a, b, c);
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
		fprintf(out, "%sfusion groups (column 'fuse'): %zu, saving %s us of %s us "
		        "unfused\n", md ? "\n" : "\n", s->ngroups, a, b);
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
			fprintf(out, "\nfusion suggestions: %zu run%s, saving %s us: %s us predicted "
			        "fused\n", s->nproposals, s->nproposals == 1 ? "" : "s", a, b);
		if (s->nproposals > 0)
			section(out, s->proposals, s->nproposals, md);
	}
	return ferror(out) ? RL_ERR_IO : 0;
}
