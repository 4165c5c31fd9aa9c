/* calibrate.c - measured roofs and the calibrated device file (see calibrate.h). */
#include "config.h"

#include "calibrate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Which benchmark gives which key: group, name, dtype ("" any), and the
 * figure (GB/s, TFLOPS or us). */
enum fig { GBS, TFLOPS, US };

static const struct {
	enum rl_hw_key key;
	enum rl_bench_group group;
	const char *name;
	const char *dtype;
	enum fig fig;
} map[] = {
	{RL_HW_MEM_BANDWIDTH_GBS, RL_BENCH_MEMORY, "copy", "", GBS},
	/* the memory roof by access mix (model.h): a read-only and a
	 * write-only stream */
	{RL_HW_MEM_READ_BANDWIDTH_GBS, RL_BENCH_MEMORY, "read", "", GBS},
	{RL_HW_MEM_WRITE_BANDWIDTH_GBS, RL_BENCH_MEMORY, "write", "", GBS},
	{RL_HW_L2_BANDWIDTH_GBS, RL_BENCH_L2, "read", "", GBS},
	{(enum rl_hw_key)RL_PIPE_FP64_VECTOR, RL_BENCH_VECTOR, "fp64-fma", "", TFLOPS},
	{(enum rl_hw_key)RL_PIPE_FP32_VECTOR, RL_BENCH_VECTOR, "fp32-fma", "", TFLOPS},
	{(enum rl_hw_key)RL_PIPE_FP16_VECTOR, RL_BENCH_VECTOR, "fp16-fma", "", TFLOPS},
	{(enum rl_hw_key)RL_PIPE_BF16_VECTOR, RL_BENCH_VECTOR, "bf16-fma", "", TFLOPS},
	{(enum rl_hw_key)RL_PIPE_FP64_TENSOR, RL_BENCH_GEMM, "gemm", "fp64", TFLOPS},
	{(enum rl_hw_key)RL_PIPE_TF32_TENSOR, RL_BENCH_GEMM, "gemm", "tf32", TFLOPS},
	{(enum rl_hw_key)RL_PIPE_FP16_TENSOR, RL_BENCH_GEMM, "gemm", "fp16", TFLOPS},
	{(enum rl_hw_key)RL_PIPE_BF16_TENSOR, RL_BENCH_GEMM, "gemm", "bf16", TFLOPS},
	{(enum rl_hw_key)RL_PIPE_FP8_TENSOR, RL_BENCH_GEMM, "gemm", "fp8e4m3", TFLOPS},
	{(enum rl_hw_key)RL_PIPE_INT8_TENSOR, RL_BENCH_GEMM, "gemm", "int8", TFLOPS},
	/* no min_kernel_us: see keep_floor */
};
#define NMAP (sizeof(map) / sizeof(map[0]))

static enum fig fig_of(enum rl_hw_key k)
{
	size_t i;

	for (i = 0; i < NMAP; i++)
		if (map[i].key == k)
			return map[i].fig;
	return GBS;
}

static double figure(const struct rl_bench_entry *e, enum fig f)
{
	struct rl_bench_stats s;

	rl_bench_stats(e, &s);
	return f == GBS ? s.gbs_median : f == TFLOPS ? s.tflops_median : s.median_us;
}

void rl_calib_roofs(const struct rl_bench *b, struct rl_calib *c)
{
	size_t i, j;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < NMAP; i++) {
		const struct rl_bench_entry *best = NULL;
		double bv = 0;

		/* Several entries (GEMM shapes) may match: the best median wins,
		 * the lowest for a time, the highest for a rate. */
		for (j = 0; j < b->n; j++) {
			const struct rl_bench_entry *e = &b->e[j];
			double v;

			if (e->group != map[i].group || strcmp(e->name, map[i].name) != 0 ||
			    (map[i].dtype[0] != '\0' && strcmp(e->dtype, map[i].dtype) != 0) ||
			    e->check < 0)
				continue;
			v = figure(e, map[i].fig);
			if (!isfinite(v) || v <= 0) {
				if (c->bad == NULL) {
					c->bad = e;
					c->bad_key = map[i].key;
					c->bad_value = v;
				}
				continue;
			}
			if (best == NULL || (map[i].fig == US ? v < bv : v > bv)) {
				best = e;
				bv = v;
			}
		}
		if (best != NULL) {
			c->present[map[i].key] = 1;
			c->value[map[i].key] = bv;
			c->from[map[i].key] = best;
		}
	}
}

/* FIG of a time T (us) of entry E. */
static double at(const struct rl_bench_entry *e, enum fig f, double t)
{
	return f == GBS ? e->bytes / t / 1e3 : f == TFLOPS ? e->flops / t / 1e6 : t;
}

static char *fmt_source(const struct rl_bench *b, const struct rl_bench_entry *e, enum fig f)
{
	static const char *const unit[] = {" GB/s", " TFLOPS", " us"};
	struct rl_bench_stats s;
	char buf[1024];

	rl_bench_stats(e, &s);
	snprintf(buf, sizeof(buf),
	         "measured by roofline bench %s on %.10s: %s %s%s%s%s%s: %s; median of %zu "
	         "samples (best %.5g%s, p90 %.5g%s)",
	         b->version, b->date, rl_bench_group_name(e->group), e->name,
	         e->dtype[0] ? " " : "", e->dtype, e->group == RL_BENCH_GEMM ? " " : "",
	         e->group == RL_BENCH_GEMM ? e->shape : "", e->method, e->n,
	         at(e, f, s.best_us), unit[f], at(e, f, s.p90_us), unit[f]);
	return strdup(buf);
}

static int set_text(char **slot, const char *s)
{
	free(*slot);
	*slot = s != NULL ? strdup(s) : NULL;
	return s != NULL && *slot == NULL ? RL_ERR_NOMEM : 0;
}

/* The launch floor is the datasheet entry's, not a measurement of bench:
 * min_kernel_us must be at or below the GPU time of every kernel, and
 * bench's graph-node figure (0.68 us on the H200) is the spacing of
 * back-to-back kernels in a CUDA graph, not the duration of one: profiler
 * traces show kernels shorter than that (GPT-2's arange: 0.64 us). So OUT
 * keeps DATASHEET's value (its datasheet.min_kernel_us, when DATASHEET is
 * itself a calibrated file from before), its source saying why. Returns 0
 * or RL_ERR_NOMEM. */
static int keep_floor(const struct rl_bench *b, const struct rl_device *datasheet,
                      struct rl_device *out)
{
	struct rl_hwval *v = &out->num[RL_HW_MIN_KERNEL_US];
	struct rl_hwval *ds = &out->datasheet[RL_HW_MIN_KERNEL_US];
	const struct rl_bench_entry *e =
	    rl_bench_find(b, RL_BENCH_LAUNCH, "graph-node", NULL, NULL);
	static const char keep[] = "kept by calibrate from the datasheet entry";
	char graph[96] = "";
	char *source;
	size_t n;

	if (ds->present) {
		free(v->text);
		free(v->source);
		*v = *ds;
		memset(ds, 0, sizeof(*ds));
	}
	if (!v->present || (v->source != NULL && strncmp(v->source, keep, strlen(keep)) == 0))
		return 0;
	if (e != NULL) {
		struct rl_bench_stats s;

		rl_bench_stats(e, &s);
		snprintf(graph, sizeof(graph), " (%.3g us here)", s.median_us);
	}
	n = strlen(keep) + strlen(datasheet->id) + strlen(graph) +
	    (v->source != NULL ? strlen(v->source) : 0) + 256;
	source = malloc(n);
	if (source == NULL)
		return RL_ERR_NOMEM;
	snprintf(source, n,
	         "%s %s: bench's graph-node figure%s is the spacing of back-to-back "
	         "kernels in a CUDA graph, not a floor under every kernel's GPU time; %s",
	         keep, datasheet->id, graph, v->source != NULL ? v->source : "no source");
	free(v->source);
	v->source = source;
	return 0;
}

int rl_calibrate(const struct rl_bench *b, const struct rl_calib *c,
                 const struct rl_device *datasheet, const char *id, struct rl_device *out,
                 struct rl_err *err)
{
	size_t k, nmeasured = 0;
	char name[512];
	int bad = 0;

	static const char *const unit[] = {"GB/s", "TFLOPS", "us"};

	if (c->bad != NULL) {
		const struct rl_bench_entry *e = c->bad;

		memset(out, 0, sizeof(*out));
		return rl_err_set(err, RL_ERR_RANGE,
		                  "recording: %s %s%s%s: %s = %g %s is not a finite figure above 0 "
		                  "(a broken recording: no device file written)",
		                  rl_bench_group_name(e->group), e->name, e->dtype[0] ? " " : "",
		                  e->dtype, rl_hw_key_name(c->bad_key), c->bad_value,
		                  unit[fig_of(c->bad_key)]);
	}
	if (rl_device_copy(out, datasheet, err) < 0)
		return RL_ERR_NOMEM;
	snprintf(name, sizeof(name), "%s (measured)", datasheet->name);
	bad |= set_text(&out->id, id) < 0;
	bad |= set_text(&out->name, name) < 0;
	bad |= set_text(&out->aliases, NULL) < 0;
	bad |= set_text(&out->path, NULL) < 0;
	for (k = 0; k < RL_HW_NUM_COUNT && !bad; k++) {
		struct rl_hwval *v = &out->num[k], *ds = &out->datasheet[k];
		char text[32];

		struct rl_err e;

		if (!c->present[k])
			continue;
		if (rl_hw_check_range((enum rl_hw_key)k, c->value[k], &e) < 0) {
			const struct rl_bench_entry *from = c->from[k];

			rl_device_release(out);
			return rl_err_set(err, RL_ERR_RANGE,
			                  "recording: %s %s%s%s: %s = %s (a broken recording: no "
			                  "device file written)",
			                  rl_bench_group_name(from->group), from->name,
			                  from->dtype[0] ? " " : "", from->dtype,
			                  rl_hw_key_name((enum rl_hw_key)k), e.msg);
		}
		nmeasured++;
		/* The datasheet figure goes beside, unless DATASHEET was itself
		 * calibrated and already keeps one there. */
		if (!ds->present && v->present) {
			*ds = *v;
			memset(v, 0, sizeof(*v));
		} else {
			free(v->text);
			free(v->source);
		}
		snprintf(text, sizeof(text), "%.5g", c->value[k]);
		v->present = 1;
		v->value = strtod(text, NULL);
		v->text = strdup(text);
		v->source = fmt_source(b, c->from[k], fig_of((enum rl_hw_key)k));
		bad |= v->text == NULL || v->source == NULL;
	}
	if (!bad && keep_floor(b, datasheet, out) < 0)
		bad = 1;
	if (bad) {
		rl_device_release(out);
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	}
	if (nmeasured == 0) {
		rl_device_release(out);
		return rl_err_set(err, RL_ERR_ARG,
		                  "the recording has no benchmark that gives a roof (memory, "
		                  "l2, vector or gemm) with a passing check");
	}
	return 0;
}

char *rl_calibrate_header(const struct rl_bench *b, const struct rl_device *datasheet)
{
	static const char *const launch[] = {"enqueue", "roundtrip", "back-to-back", "graph-node"};
	char buf[4096];
	size_t n = 0, i;

	n += (size_t)snprintf(buf + n, sizeof(buf) - n,
	                      "%s, calibrated: roofs measured by roofline bench %s on %s.\n"
	                      "GPU: %s, %d SMs at up to %d MHz, compute capability %d.%d, "
	                      "driver %d.%d, CUDA runtime %d.%d%s.\n"
	                      "Each measured key keeps the datasheet figure beside it as "
	                      "datasheet.KEY (from the device entry %s);\n"
	                      "classify --roofs datasheet predicts with those instead.\n",
	                      datasheet->name, b->version, b->date, b->gpu.name, b->gpu.sm_count,
	                      b->gpu.clock_khz / 1000, b->gpu.cc_major, b->gpu.cc_minor,
	                      b->gpu.driver_version / 1000, b->gpu.driver_version % 1000 / 10,
	                      b->gpu.runtime_version / 1000, b->gpu.runtime_version % 1000 / 10,
	                      b->quick ? " (--quick: a smoke run, not a calibration)" : "",
	                      datasheet->id);
	n += (size_t)snprintf(buf + n, sizeof(buf) - n,
	                      "Launch figures (host costs belong to a runtime: pass "
	                      "--host-overhead-us, or edit hwdb/cpp.runtime):");
	for (i = 0; i < sizeof(launch) / sizeof(launch[0]) && n < sizeof(buf); i++) {
		const struct rl_bench_entry *e = rl_bench_find(b, RL_BENCH_LAUNCH, launch[i], NULL, NULL);
		struct rl_bench_stats s;

		if (e == NULL)
			continue;
		rl_bench_stats(e, &s);
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\n  %-12s %.3g us per launch (median of %zu)",
		                      launch[i], s.median_us, e->n);
	}
	if (n < sizeof(buf))
		n += (size_t)snprintf(
		    buf + n, sizeof(buf) - n,
		    "\nmin_kernel_us stays the datasheet entry's: graph-node is the "
		    "spacing of graph nodes, not a floor under every kernel.");
	return n < sizeof(buf) ? strdup(buf) : NULL;
}
