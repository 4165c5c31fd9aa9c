/* bench_report.c - "roofline bench" output: the measurements against a
 * reference device, the intensity sweeps against the model's curve, and the
 * roofs a calibration would keep (see bench_report.h).
 */
#include "config.h"

#include "bench_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "calibrate.h"
#include "collbench.h"
#include "err.h"
#include "model.h"
#include "oplist_write.h"
#include "report.h"

/* The reference figure of an entry on device D: GB/s, TFLOPS or us, in the
 * unit the entry's figure has; 0 when D has none. */
double rl_bench_reference(const struct rl_bench_entry *e, const struct rl_device *d)
{
	static const struct {
		const char *name;
		enum rl_pipe pipe;
		double scale; /* 0.5: work that is not multiply-add pairs (model.h) */
	} vec[] = {
		{"fp32-fma", RL_PIPE_FP32_VECTOR, 1}, {"fp32-mul", RL_PIPE_FP32_VECTOR, 0.5},
		{"fp64-fma", RL_PIPE_FP64_VECTOR, 1}, {"fp16-fma", RL_PIPE_FP16_VECTOR, 1},
		{"bf16-fma", RL_PIPE_BF16_VECTOR, 1},
	};
	static const struct {
		const char *dtype;
		enum rl_pipe pipe;
	} gemm[] = {
		{"fp64", RL_PIPE_FP64_TENSOR}, {"tf32", RL_PIPE_TF32_TENSOR},
		{"fp16", RL_PIPE_FP16_TENSOR}, {"bf16", RL_PIPE_BF16_TENSOR},
		{"fp8e4m3", RL_PIPE_FP8_TENSOR}, {"int8", RL_PIPE_INT8_TENSOR},
		{"fp32", RL_PIPE_FP32_VECTOR},
	};
	size_t i;

	if (d == NULL)
		return 0;
	switch (e->group) {
	case RL_BENCH_MEMORY:
		return d->num[RL_HW_MEM_BANDWIDTH_GBS].value;
	case RL_BENCH_L2:
		return d->num[RL_HW_L2_BANDWIDTH_GBS].present ? d->num[RL_HW_L2_BANDWIDTH_GBS].value : 0;
	case RL_BENCH_VECTOR:
		for (i = 0; i < sizeof(vec) / sizeof(vec[0]); i++)
			if (strcmp(e->name, vec[i].name) == 0)
				return rl_device_peak_flops(d, vec[i].pipe) / 1e12 * vec[i].scale;
		return 0;
	case RL_BENCH_GEMM:
		for (i = 0; i < sizeof(gemm) / sizeof(gemm[0]); i++)
			if (strcmp(e->dtype, gemm[i].dtype) == 0)
				return rl_device_peak_flops(d, gemm[i].pipe) / 1e12;
		return 0;
	/* No launch figure has a reference: min_kernel_us is the floor under a
	 * kernel's GPU time, which none of the four measures (graph-node is the
	 * spacing of back-to-back kernels, 0.68 us on the H200 against a 0.50 us
	 * floor), so a percentage of it would flag a sound measurement. */
	case RL_BENCH_LAUNCH:
	/* The special functions are not a pipe's peak; a sweep point is judged
	 * against the model's curve (rl_bench_knee); a collective against the
	 * network (collbench.h). */
	case RL_BENCH_SPECIAL:
	case RL_BENCH_SWEEP:
	case RL_BENCH_COLLECTIVE:
	case RL_BENCH_GROUP_COUNT:
		return 0;
	}
	return 0;
}

/* The figure an entry is judged by: GB/s for memory and L2, TFLOPS for
 * the arithmetic groups, us for launches. */
static const char *figure_unit(const struct rl_bench_entry *e)
{
	switch (e->group) {
	case RL_BENCH_MEMORY:
	case RL_BENCH_L2: return "GB/s";
	case RL_BENCH_LAUNCH: return "us";
	case RL_BENCH_SPECIAL: return "Tcall/s";
	case RL_BENCH_GEMM: return strcmp(e->dtype, "int8") == 0 ? "TOPS" : "TFLOPS";
	case RL_BENCH_VECTOR:
	case RL_BENCH_SWEEP:
	case RL_BENCH_COLLECTIVE:
	case RL_BENCH_GROUP_COUNT: return "TFLOPS";
	}
	return "TFLOPS";
}

static void figures(const struct rl_bench_entry *e, const struct rl_bench_stats *s, double *med,
                    double *best)
{
	*med = *best = 0; /* a group past the enum's (none is read) */
	switch (e->group) {
	case RL_BENCH_MEMORY:
	case RL_BENCH_L2: *med = s->gbs_median, *best = s->gbs_best; break;
	case RL_BENCH_LAUNCH: *med = s->median_us, *best = s->best_us; break;
	case RL_BENCH_VECTOR:
	case RL_BENCH_SPECIAL:
	case RL_BENCH_GEMM:
	case RL_BENCH_SWEEP:
	case RL_BENCH_COLLECTIVE:
	case RL_BENCH_GROUP_COUNT: *med = s->tflops_median, *best = s->tflops_best; break;
	}
}

static const char *check_word(int check)
{
	return check > 0 ? "ok" : check < 0 ? "FAILED" : "-";
}

/* The model's prediction of one sweep point on D: a pointwise op of the
 * point's elements with REPEAT multiplies each (no FMA), GPU time only.
 * Returns 0, RL_ERR_ARG (no such dtype, or a size out of range) or the
 * status of rl_predict. */
static int predict_point(const struct rl_bench_entry *e, const struct rl_device *d,
                         struct rl_pred *p)
{
	struct rl_model_ctx ctx = {.dev = d};
	struct rl_op op;
	struct rl_err err;
	double elems = e->flops / e->repeat;

	rl_op_init(&op);
	op.name = "sweep";
	op.kind = RL_KIND_POINTWISE;
	if (rl_dtype_parse(e->dtype, &op.dtype) < 0 || elems < 1 || elems > 1e18)
		return RL_ERR_ARG;
	op.has = RL_HAS_SHAPE | RL_HAS_FPE | RL_HAS_FMA;
	op.ndims = 1;
	op.dims[0] = (uint64_t)llround(elems);
	op.inputs = 1;
	op.flops_per_element = e->repeat;
	op.fma = 0;
	return rl_predict(&op, &ctx, p, &err);
}

int rl_bench_knee(const struct rl_sweep *s, const struct rl_device *d, struct rl_knee *k)
{
	struct rl_pred p;

	memset(k, 0, sizeof(*k));
	k->measured_repeat = s->knee_repeat;
	k->measured_intensity = s->knee_intensity;
	if (d == NULL || s->n == 0 || predict_point(s->pt[0], d, &p) < 0 || p.ridge <= 0)
		return RL_ERR_ARG;
	k->predicted_intensity = p.ridge;
	k->predicted_repeat = p.ridge * s->elem_bytes;
	k->log2_ratio = log2(k->measured_repeat / k->predicted_repeat);
	k->within_2x = fabs(k->log2_ratio) <= 1;
	return 0;
}

static void table_header(FILE *f, const struct rl_bench *b, const struct rl_device *ref)
{
	fprintf(f, "%s: %d SMs, %d MHz, compute capability %d.%d, CUDA %d.%d, driver %d.%d\n",
	        b->gpu.name, b->gpu.sm_count, b->gpu.clock_khz / 1000, b->gpu.cc_major,
	        b->gpu.cc_minor, b->gpu.runtime_version / 1000, b->gpu.runtime_version % 1000 / 10,
	        b->gpu.driver_version / 1000, b->gpu.driver_version % 1000 / 10);
	fprintf(f, "measured %s by roofline %s%s", b->date, b->version,
	        b->quick ? " (--quick: a smoke run, not a calibration)" : "");
	if (ref != NULL)
		fprintf(f, "; reference: %s (%s)", ref->id, ref->name);
	fprintf(f, "\n\n");
}

static void table_entries(FILE *f, const struct rl_bench *b, const struct rl_device *ref)
{
	size_t i, n = 0;

	for (i = 0; i < b->n; i++)
		n += b->e[i].group != RL_BENCH_SWEEP && b->e[i].group != RL_BENCH_COLLECTIVE;
	if (n == 0)
		return;
	fprintf(f, "%-7s %-12s %-7s %-15s %10s %10s %-7s %6s %10s %6s %-6s %5s %4s\n", "group",
	        "benchmark", "dtype", "shape", "median", "best", "unit", "spread", "reference", "%",
	        "check", "MHz", "C");
	for (i = 0; i < b->n; i++) {
		const struct rl_bench_entry *e = &b->e[i];
		struct rl_bench_stats s;
		double med, best, r;
		char pct[16] = "", refs[24] = "", mhz[16] = "", temp[16] = "";

		if (e->group == RL_BENCH_SWEEP || e->group == RL_BENCH_COLLECTIVE)
			continue;
		rl_bench_stats(e, &s);
		figures(e, &s, &med, &best);
		r = rl_bench_reference(e, ref);
		if (r > 0) {
			snprintf(refs, sizeof(refs), "%.5g", r);
			snprintf(pct, sizeof(pct), "%.1f", 100 * med / r);
		}
		if (e->sm_clock_mhz > 0)
			snprintf(mhz, sizeof(mhz), "%.0f", e->sm_clock_mhz);
		if (e->temp_c > 0)
			snprintf(temp, sizeof(temp), "%.0f", e->temp_c);
		fprintf(f, "%-7s %-12s %-7s %-15s %10.5g %10.5g %-7s %5.1f%% %10s %6s %-6s %5s %4s\n",
		        rl_bench_group_name(e->group), e->name, e->dtype, e->shape, med, best,
		        figure_unit(e), 100 * s.spread, refs, pct, check_word(e->check), mhz, temp);
	}
}

static void table_sweep(FILE *f, const struct rl_bench *b, const struct rl_device *ref)
{
	static const char *const dtypes[] = {"fp32", "bf16", "fp16"};
	size_t t, i;

	for (t = 0; t < sizeof(dtypes) / sizeof(dtypes[0]); t++) {
		struct rl_sweep s;
		struct rl_knee k;

		if (rl_bench_sweep(b, dtypes[t], &s, NULL) < 0)
			continue;
		fprintf(f, "\nintensity sweep, %s: %.0f elements, r dependent multiplies per element, "
		           "%.0f bytes per element (read + write)%s%s\n",
		        s.dtype, s.pt[0]->flops / s.pt[0]->repeat, s.elem_bytes,
		        ref != NULL ? "; predicted on " : "", ref != NULL ? ref->id : "");
		fprintf(f, "%6s %10s %8s %10s %10s %12s %12s %-8s %-6s\n", "r", "FLOP/B", "GB/s",
		        "TFLOPS", "median us", "predicted us", "pred TFLOPS", "bound", "check");
		for (i = 0; i < s.n; i++) {
			const struct rl_bench_entry *e = s.pt[i];
			struct rl_pred p;
			double t_us = rl_quantile(e->us, e->n, 0.5);
			char pus[24] = "", ptf[24] = "";
			const char *bound = "";

			if (ref != NULL && predict_point(e, ref, &p) == 0) {
				snprintf(pus, sizeof(pus), "%.5g", p.t_gpu_us);
				snprintf(ptf, sizeof(ptf), "%.4g", e->flops / p.t_gpu_us / 1e6);
				bound = rl_bound_name(p.bound);
			}
			fprintf(f, "%6.0f %10.4g %8.0f %10.4g %10.5g %12s %12s %-8s %-6s\n", e->repeat,
			        e->flops / e->bytes, e->bytes / t_us / 1e3, e->flops / t_us / 1e6, t_us,
			        pus, ptf, bound, check_word(e->check));
		}
		fprintf(f, "measured knee: r = %.0f (%.3g FLOP/byte: %.4g TFLOPS over %.0f GB/s)",
		        s.knee_repeat, s.knee_intensity, s.flops_per_s / 1e12, s.bytes_per_s / 1e9);
		if (rl_bench_knee(&s, ref, &k) == 0)
			fprintf(f, "; predicted r = %.0f (%.3g FLOP/byte): %s one power of two "
			           "(measured / predicted = %.2f)",
			        k.predicted_repeat, k.predicted_intensity,
			        k.within_2x ? "within" : "NOT within", exp2(k.log2_ratio));
		fputc('\n', f);
	}
}

/* The collectives: per entry nccl-tests' columns (size, time, algbw,
 * busbw), then per kind what calibrate keeps. */
static void table_collectives(FILE *f, const struct rl_bench *b)
{
	enum rl_kind k;
	size_t i, n = 0, undefined = 0;

	for (i = 0; i < b->n; i++)
		n += b->e[i].group == RL_BENCH_COLLECTIVE;
	if (n == 0)
		return;
	fprintf(f, "\ncollectives (nccl-tests' method: algbw = S / time, busbw = algbw x bus "
	           "factor)\n");
	fprintf(f, "%-14s %5s %-12s %-5s %13s %11s %10s %10s %6s %-6s\n", "collective", "ranks",
	        "placement", "dtype", "S bytes", "median us", "algbw GB/s", "busbw GB/s", "factor",
	        "check");
	for (i = 0; i < b->n; i++) {
		const struct rl_bench_entry *e = &b->e[i];
		struct rl_collfig c;
		char bus[24] = "-";

		if (e->group != RL_BENCH_COLLECTIVE || rl_collbench_figures(e, &c) < 0)
			continue;
		if (c.factor > 0)
			snprintf(bus, sizeof(bus), "%.5g", c.busbw_gbs);
		else
			undefined++;
		fprintf(f, "%-14s %5d %-12s %-5s %13.0f %11.5g %10.5g %10s %6.4g %-6s\n", e->name,
		        e->ranks, e->shape, e->dtype, e->bytes, c.median_us, c.algbw_gbs, bus, c.factor,
		        check_word(e->check));
	}
	if (undefined > 0)
		fprintf(f, "busbw '-': undefined on one rank (the bus factor (n-1)/n is 0: nothing "
		           "crosses a link); algbw is the figure there. In place on one rank the\n"
		           "output is the input: NCCL launches nothing, and the time is the host's "
		           "call\n");
	for (k = RL_KIND_ALLREDUCE; k <= RL_KIND_SENDRECV; k++) {
		struct rl_collsum s;

		if (rl_collbench_summary(b, k, &s, NULL) < 0)
			continue;
		fprintf(f, "%s on %d rank%s: ", rl_kind_name(k), s.ranks, s.ranks == 1 ? "" : "s");
		if (s.busbw_gbs > 0)
			fprintf(f, "busbw %.5g GB/s", s.busbw_gbs);
		else
			fprintf(f, "algbw %.5g GB/s (busbw undefined)", s.algbw_gbs);
		fprintf(f, " at S = %.0f bytes (%s)", s.bytes, s.largest->shape);
		if (s.smallest != NULL)
			fprintf(f, "; latency %.4g us (S = %.0f, %s)", s.latency_us, s.smallest->bytes,
			        s.smallest->shape);
		fputc('\n', f);
	}
}

static void table_roofs(FILE *f, const struct rl_bench *b, const struct rl_device *ref)
{
	struct rl_calib c;
	size_t i;

	rl_calib_roofs(b, &c);
	for (i = 0; i < RL_HW_NUM_COUNT && !c.present[i]; i++)
		;
	if (i == RL_HW_NUM_COUNT)
		return;
	fprintf(f, "\nroofs a calibration keeps (medians)%s\n",
	        ref != NULL ? ", against the reference" : "");
	for (i = 0; i < RL_HW_NUM_COUNT; i++) {
		enum rl_hw_key k = rl_hw_key_at(i);

		if (!c.present[k])
			continue;
		fprintf(f, "  %-20s %10.5g", rl_hw_key_name(k), c.value[k]);
		if (ref != NULL && ref->num[k].present && ref->num[k].value > 0)
			fprintf(f, "   %10s  %5.1f %%", ref->num[k].text,
			        100 * c.value[k] / ref->num[k].value);
		fprintf(f, "   (%s %s%s%s%s%s)\n", rl_bench_group_name(c.from[k]->group),
		        c.from[k]->name, c.from[k]->dtype[0] ? " " : "", c.from[k]->dtype,
		        c.from[k]->group == RL_BENCH_GEMM ? " " : "",
		        c.from[k]->group == RL_BENCH_GEMM ? c.from[k]->shape : "");
	}
}

static void csv(FILE *f, const struct rl_bench *b, const struct rl_device *ref)
{
	size_t i;

	fprintf(f, "group,benchmark,dtype,shape,repeat,bytes,flops,samples,median_us,best_us,"
	           "p90_us,gbs_median,tflops_median,reference,reference_pct,check,sm_clock_mhz,"
	           "temp_c,method\n");
	for (i = 0; i < b->n; i++) {
		const struct rl_bench_entry *e = &b->e[i];
		struct rl_bench_stats s;
		double med, best, r;

		rl_bench_stats(e, &s);
		figures(e, &s, &med, &best);
		r = e->group == RL_BENCH_SWEEP ? 0 : rl_bench_reference(e, ref);
		fprintf(f, "%s,%s,%s,%s,%.9g,%.17g,%.17g,%zu,%.9g,%.9g,%.9g,", rl_bench_group_name(e->group),
		        e->name, e->dtype, e->shape, e->repeat, e->bytes, e->flops, e->n, s.median_us,
		        s.best_us, s.p90_us);
		if (e->bytes > 0)
			fprintf(f, "%.9g", s.gbs_median);
		fputc(',', f);
		if (e->flops > 0)
			fprintf(f, "%.9g", s.tflops_median);
		fputc(',', f);
		if (r > 0)
			fprintf(f, "%.6g,%.4g", r, 100 * med / r);
		else
			fputc(',', f);
		fprintf(f, ",%d,%.0f,%.0f,", e->check, e->sm_clock_mhz, e->temp_c);
		rl_csv_field(f, e->method);
		fputc('\n', f);
	}
}

/* The sweep of DTYPE as an op list (docs/oplist-format.md): one pointwise
 * row per point, r multiplies per element without FMA, the median time as
 * measured_us. */
static int sweep_ops(FILE *f, const struct rl_bench *b, const char *dtype, struct rl_err *err)
{
	static const enum rl_opcol cols[] = {
		RL_OPCOL_NAME,   RL_OPCOL_KIND, RL_OPCOL_DTYPE, RL_OPCOL_SHAPE,
		RL_OPCOL_INPUTS, RL_OPCOL_FPE,  RL_OPCOL_FMA,   RL_OPCOL_MEASURED,
	};
	const size_t ncols = sizeof(cols) / sizeof(cols[0]);
	struct rl_sweep s;
	struct rl_oprow row;
	char name[RL_OPCELL_MAX];
	size_t i;
	int rc = rl_bench_sweep(b, dtype, &s, err);

	if (rc < 0)
		return rc;
	rl_oplist_write_comment(f, "intensity sweep of %s, measured by roofline bench %s on %s (%s)",
	                        b->gpu.name, b->version, b->date, dtype);
	rl_oplist_write_header(f, cols, ncols);
	for (i = 0; i < s.n; i++) {
		const struct rl_bench_entry *e = s.pt[i];

		rl_oprow_init(&row);
		snprintf(name, sizeof(name), "sweep-%s-r%.0f", dtype, e->repeat);
		rl_oprow_text(&row, RL_OPCOL_NAME, name);
		rl_oprow_text(&row, RL_OPCOL_KIND, "pointwise");
		rl_oprow_text(&row, RL_OPCOL_DTYPE, dtype);
		rl_oprow_fixed(&row, RL_OPCOL_SHAPE, e->flops / e->repeat, 0); /* the elements */
		rl_oprow_u64(&row, RL_OPCOL_INPUTS, 1);
		rl_oprow_fixed(&row, RL_OPCOL_FPE, e->repeat, 0);
		rl_oprow_u64(&row, RL_OPCOL_FMA, 0);
		rl_oprow_sig(&row, RL_OPCOL_MEASURED, rl_quantile(e->us, e->n, 0.5), 6);
		rl_oplist_write_row(f, cols, ncols, &row);
	}
	return 0;
}

int rl_bench_report(FILE *f, const struct rl_bench *b, const struct rl_device *ref,
                    enum rl_bench_format fmt, const char *sweep, struct rl_err *err)
{
	int rc;

	switch (fmt) {
	case RL_BENCH_FMT_SWEEP:
		rc = sweep_ops(f, b, sweep, err);
		if (rc < 0)
			return rc;
		break;
	case RL_BENCH_FMT_JSON: return rl_bench_write_json(f, b);
	case RL_BENCH_FMT_CSV: csv(f, b, ref); break;
	case RL_BENCH_FMT_TABLE:
		table_header(f, b, ref);
		table_entries(f, b, ref);
		table_sweep(f, b, ref);
		table_collectives(f, b);
		table_roofs(f, b, ref);
		break;
	}
	return ferror(f) ? RL_ERR_IO : 0;
}
