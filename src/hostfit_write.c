/* hostfit_write.c - a host fit as a runtime profile file (see
 * hostfit_write.h, docs/calibrate.md "From a trace"). */
#include "config.h"

#include "hostfit_write.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

/* S with control bytes as '?' and ';' as ',' (a source's separator), into
 * BUF of N bytes. */
static const char *clean(const char *s, char *buf, size_t n)
{
	size_t i;

	if (s == NULL)
		s = "";
	for (i = 0; s[i] != '\0' && i + 1 < n; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i] == ';' ? ',' : s[i];
	buf[i] = '\0';
	return buf;
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The names of kind K's ops, "aten::linear 15, aten::matmul 1", into BUF. */
static void kind_ops(const struct rl_hostfit *fit, int k, char *buf, size_t n)
{
	size_t i, used = 0, shown = 0;

	buf[0] = '\0';
	for (i = 0; i < fit->nnames && used + 1 < n; i++) {
		const struct rl_hostfit_name *nm = &fit->names[i];
		char c[160];

		if (nm->kind != k)
			continue;
		if (shown == 4) {
			snprintf(buf + used, n - used, ", ...");
			return;
		}
		used += (size_t)snprintf(buf + used, n - used, "%s%s %zu", shown ? ", " : "",
		                         clean(nm->name, c, sizeof(c)), nm->calls);
		shown++;
	}
}

int rl_hostfit_write(FILE *f, const struct rl_hostfit *fit, const struct rl_hostfit_origin *o)
{
	char tr[1024], id[256], name[512], line[1024], ops[512];
	const char *p;
	size_t i;
	int k;

	clean(o->trace, tr, sizeof(tr));
	fprintf(f, "# Host costs per kernel launch, fitted from a profiled step by roofline %s\n"
	           "# (calibrate --from-trace) on %s, from %s.\n",
	        o->version, o->when, tr);
	fprintf(f, "# The stack, GPU and CPU as the trace records them:\n");
	for (p = o->stack; p != NULL && *p != '\0';) {
		size_t len = strcspn(p, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) - 1 ? len : sizeof(line) - 1), p);
		fprintf(f, "#   %s\n", clean(line, line, sizeof(line)));
		p += len + (p[len] == '\n');
	}
	fprintf(f,
	        "# Method (docs/calibrate.md, \"From a trace\"): each top-level CPU op (the outermost\n"
	        "# op of its thread) is charged its own time and the host gap before it (Python,\n"
	        "# module calls); an op that launches no kernel (a view) passes its charge on to\n"
	        "# the next op that does. host_overhead_us.KIND is the time charged to the ops of\n"
	        "# that kind over their kernels, so that the step's kernels sum to its host span.\n"
	        "# A call at input shapes the step had not run before whose own CPU time is over\n"
	        "# %g x its op's median and %g us above it is a per-call extra: the excess is kept\n"
	        "# apart as host_extra_us.KIND (per such call) and is not in host_overhead_us.KIND\n"
	        "# (not for the call of the trace's first launch: the profiler's start is in it).\n",
	        RL_HOSTFIT_EXTRA_RATIO, RL_HOSTFIT_EXTRA_MIN_US);
	fprintf(f,
	        "# The step: %zu top-level calls on %zu thread%s, %zu of them launching %llu GPU "
	        "activities;\n"
	        "# host span %.2f us from the first call's start to the last call's end, %.2f us "
	        "of the\n# profiler's own spans (\"overhead\" events) left out.\n",
	        fit->calls, o->threads, plural(o->threads, "", "s"), fit->launching,
	        (unsigned long long)fit->kernels, fit->span_us, fit->skipped_us);
	if (o->compiled != NULL && o->compiled->regions > 0)
		fprintf(f,
		        "# torch.compile: %zu region%s, whose ops are the calls; left out with the\n"
		        "# profiler's spans, its host side besides the launches: Dynamo's cache lookup\n"
		        "# (its guards) %.2f us and the prologue (the bytecode before the graph, AOT's\n"
		        "# runtime wrapper) %.2f us, %.2f us per region.\n",
		        o->compiled->regions, plural(o->compiled->regions, "", "s"),
		        o->compiled->cache_lookup_us, o->compiled->prologue_us,
		        (o->compiled->cache_lookup_us + o->compiled->prologue_us) /
		            (double)o->compiled->regions);
	if (o->step_us > 0)
		fprintf(f,
		        "# Every figure is scaled by %.4f = %.2f / %.2f: the step's wall time measured\n"
		        "# without the profiler (--step-us) over the profiled host span, which the\n"
		        "# profiler's recording of each op inflates.\n",
		        fit->scale, o->step_us, fit->span_us);
	else
		fprintf(f, "# The figures are the profiled ones: the profiler's recording of each op is "
		           "in them\n# (--step-us, the step's wall time without it, scales it out).\n");
	if (o->unlinked > 0 || o->orphans > 0)
		fprintf(f, "# %zu GPU activities without their launch call in the trace (not charged); "
		           "%zu launch calls\n# outside any CPU op (a call of their own, kind custom).\n",
		        o->unlinked, o->orphans);
	fprintf(f, "# Per ATen op (us after the scale; charged: extras left out; median and max: "
	           "own CPU time per call):\n");
	fprintf(f, "#   %-40s %-10s %5s %7s %11s %10s %10s %10s %6s\n", "op", "kind", "calls",
	        "kernels", "charged_us", "us/kernel", "median_us", "max_us", "extras");
	for (i = 0; i < fit->nnames; i++) {
		const struct rl_hostfit_name *nm = &fit->names[i];

		fprintf(f, "#   %-40s %-10s %5zu %7llu %11.2f %10.2f %10.2f %10.2f %6zu\n",
		        clean(nm->name, name, sizeof(name)), rl_kind_name((enum rl_kind)nm->kind),
		        nm->calls, (unsigned long long)nm->kernels, nm->charged_us,
		        nm->kernels > 0 ? nm->charged_us / (double)nm->kernels : 0, nm->median_us,
		        nm->max_us, nm->extra_calls);
	}
	if (fit->nextras > 0) {
		fprintf(f, "# Per-call extras (the call's rank among the step's top-level calls):\n");
		for (i = 0; i < fit->nextras; i++) {
			const struct rl_hostfit_extra *e = &fit->extras[i];

			fprintf(f, "#   call %zu, %s (%s): %.2f us of CPU against its median %.2f: "
			           "%.2f us extra\n",
			        e->call + 1, clean(e->name, name, sizeof(name)),
			        rl_kind_name((enum rl_kind)e->kind), e->own_us, e->median_us, e->extra_us);
		}
	} else {
		fprintf(f, "# Per-call extras: none (no call at new shapes was that far above its "
		           "op's median).\n");
	}
	fprintf(f, "source t = %s, one profiled step, fitted by roofline %s calibrate "
	           "--from-trace on %s\n\n",
	        tr, o->version, o->when);
	fprintf(f, "id               = %s\n", clean(o->id, id, sizeof(id)));
	fprintf(f, "name             = %s\n", clean(o->name, name, sizeof(name)));
	fprintf(f, "host_overhead_us = %.2f ; t: the step's host time less extras over its %llu "
	           "kernels (the default of a kind the step did not run)\n",
	        fit->host_us, (unsigned long long)fit->kernels);
	for (k = 0; k < (int)RL_KIND_COUNT; k++) {
		const struct rl_hostfit_kind *kk = &fit->kind[k];
		char key[64];

		if (kk->kernels == 0 || k == RL_KIND_FUSED) /* fused: no key (atenmap gives none) */
			continue;
		kind_ops(fit, k, ops, sizeof(ops));
		snprintf(key, sizeof(key), "host_overhead_us.%s", rl_kind_name((enum rl_kind)k));
		fprintf(f, "%-26s = %.2f ; t: %.2f us charged to %zu call%s (%s) over %llu kernel%s\n",
		        key, kk->host_us, kk->charged_us, kk->calls, plural(kk->calls, "", "s"), ops,
		        (unsigned long long)kk->kernels, plural(kk->kernels, "", "s"));
	}
	for (k = 0; k < (int)RL_KIND_COUNT; k++) {
		const struct rl_hostfit_kind *kk = &fit->kind[k];
		char key[64];

		if (kk->extra_calls == 0)
			continue;
		snprintf(key, sizeof(key), "host_extra_us.%s", rl_kind_name((enum rl_kind)k));
		fprintf(f, "%-26s = %.2f ; t: the mean of %zu call%s at new shapes, %.2f us above "
		           "their ops' medians in all\n",
		        key, kk->extra_us / (double)kk->extra_calls, kk->extra_calls,
		        plural(kk->extra_calls, "", "s"), kk->extra_us);
	}
	return ferror(f) ? RL_ERR_IO : 0;
}

int rl_hostfit_write_advice(FILE *f, const struct rl_hostfit *fit, int md)
{
	char name[256];
	size_t i;

	if (fit->noutliers == 0)
		return 0;
	fprintf(f, "%shost: %zu call%s far above %s kind's CPU time per launch:\n", md ? "\n" : "",
	        fit->noutliers, plural(fit->noutliers, "", "s"),
	        fit->noutliers == 1 ? "its" : "their");
	for (i = 0; i < fit->noutliers; i++) {
		const struct rl_hostfit_extra *e = &fit->outliers[i];
		const char *k = rl_kind_name((enum rl_kind)e->kind), *in = md ? "  " : "    ";

		fprintf(f,
		        "%s%s (%s), call %zu of the step, the first at its input shapes:\n"
		        "%s%.1f us of CPU, %.1f x the %s median of %.1f us per kernel launched:\n"
		        "%sa library's plan or cache built for new shapes (cuDNN's SDPA plan on a\n"
		        "%snew KV length), or a wait on the GPU (a synchronize, a copy to the host)\n",
		        md ? "- " : "  ", clean(e->name, name, sizeof(name)), k, e->call + 1, in,
		        e->own_us, e->median_us > 0 ? e->own_us / e->median_us : 0, k, e->median_us,
		        in, in);
	}
	return ferror(f) ? RL_ERR_IO : 0;
}
