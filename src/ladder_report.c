/* ladder_report.c - writing roofline model --impl all (see ladder.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>

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

static void write_csv(FILE *out, const struct rl_ladder_rung *r, size_t n)
{
	size_t i;

	fputs("impl,kernels,gpu_us,step_us,tokens_per_s,memory_bytes,bytes,cache_bytes\n", out);
	for (i = 0; i < n; i++)
		fprintf(out, "%s,%.0f,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", r[i].impl->id, r[i].kernels,
		        r[i].gpu_us, r[i].step_us, r[i].tokens_per_s, r[i].memory_bytes, r[i].bytes,
		        r[i].cache_bytes);
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
	}
	return rc == 0 && ferror(out) ? RL_ERR_IO : rc;
}
