/* cmd_report.c - "roofline report": a profiler trace, imported and
 * classified in one step, with the measured step against its roofline. */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cache.h"
#include "chart.h"
#include "formulas.h"
#include "import.h"
#include "model.h"
#include "num.h"
#include "report.h"
#include "step.h"
#include "summary.h"
#include "svg.h"
#include "timeline.h"

static int usage(void)
{
	printf("Usage: roofline report [OPTIONS] TRACE.json[.gz]\n"
	       "\n"
	       "Import a PyTorch profiler trace (as 'roofline import') and classify its ops\n"
	       "(as 'roofline classify'), each with its measured GPU time against its\n"
	       "roofline; then the step: GPU busy time and idle gaps, the share of the step\n"
	       "that is overhead, time per op kind measured against the roofline, and the ten\n"
	       "ops with the most recoverable time, with advice.\n"
	       "\n"
	       "Options:\n"
	       RL_HELP_HW
	       "                            (default: the GPU the trace's deviceProperties\n"
	       "                            name, matched in the database)\n"
	       RL_HELP_ROOFS
	       RL_HELP_MODEL
	       "  -f, --format FMT          table (default), csv, json or md\n"
	       "      --wide                table: show every column, names uncut\n"
	       "      --timeline            simulate the step on the host and the GPU for every\n"
	       "                            runtime profile, beside the trace's measured step\n"
	       "                            (table, json, md; docs/timeline.md)\n"
	       "      --l2                  predict L2-resident ops with their input read from\n"
	       "                            the L2 (l2_bandwidth_gbs; docs/oplist-format.md)\n"
	       "      --svg FILE            also draw the roofline chart, with each op's\n"
	       "                            measured point (as roofline plot)\n"
	       "  -o, --output FILE         write to FILE (whole or not at all) instead of\n"
	       "                            standard output\n"
	       "  -h, --help                show this help and exit\n"
	       "  -V, --version             show the version and exit\n"
	       "\n"
	       "Exit status: 0 success, 1 bad input, 2 usage error.\n");
	return RL_EXIT_OK;
}

/* --hw, else the trace's device, else $ROOFLINE_HW when the trace names none. */
static const struct rl_device *trace_device(rl_hwdb *db, const char *hw,
                                            const struct rl_import *imp,
                                            struct rl_device *owned)
{
	const struct rl_device *d;
	const char *env = getenv("ROOFLINE_HW");
	struct rl_gpu g;
	char why[256];

	if (hw != NULL)
		return rl_cli_device(db, hw, owned);
	if (imp->device_ambiguous) {
		rl_cli_error("the trace ran on GPUs of different names: choose one with --hw");
		return NULL;
	}
	if (imp->device == NULL) {
		if (env != NULL && *env != '\0')
			return rl_cli_device(db, env, owned);
		rl_cli_error("the trace names no device (no deviceProperties): choose one with --hw");
		return NULL;
	}
	/* The probe's match: by name, then SM count and memory size, which
	 * deviceProperties records too (numSms, totalGlobalMem). */
	memset(&g, 0, sizeof(g));
	snprintf(g.name, sizeof(g.name), "%s", imp->device);
	g.sm_count = imp->device_sms > 0 && imp->device_sms < INT_MAX ? (int)imp->device_sms : 0;
	g.total_mem_bytes = (uint64_t)imp->device_mem_bytes;
	d = rl_xcheck_match(db, &g, why, sizeof(why));
	if (d == NULL)
		rl_cli_error("the trace's device '%s' is not in the database (%s): choose one with "
		             "--hw ('roofline hw list' lists them)", imp->device, why);
	return d;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"hw", required_argument, NULL, 'd'},
		{"roofs", required_argument, NULL, 'Q'},
		{"hwdb", required_argument, NULL, 'D'},
		{"runtime", required_argument, NULL, 'r'},
		{"host-overhead-us", required_argument, NULL, 'H'},
		{"format", required_argument, NULL, 'f'},
		{"wide", no_argument, NULL, 'w'},
		{"timeline", no_argument, NULL, 't'},
		{"l2", no_argument, NULL, 'L'},
		{"svg", required_argument, NULL, 'G'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *hw = NULL, *roofs = NULL, *hwdb = NULL, *runtime = "eager", *output = NULL;
	const char *overhead = NULL, *svg = NULL;
	struct rl_model_ctx ctx;
	struct rl_timeline tl;
	struct rl_l2 l2;
	struct rl_chart_info chart_info;
	rl_chart *chart = NULL;
	struct rl_out svg_out;
	int timeline = 0;
	struct rl_report_info info;
	enum rl_format fmt = RL_FMT_TABLE;
	struct rl_device owned;
	struct rl_import imp;
	struct rl_summary sum;
	struct rl_step step;
	struct rl_out out;
	rl_report *rep = NULL;
	rl_hwdb *db;
	const struct rl_runtime *rt = NULL;
	int opt, rc = 0, status = RL_EXIT_OK;
	size_t i;

	memset(&ctx, 0, sizeof(ctx));
	memset(&info, 0, sizeof(info));
	memset(&owned, 0, sizeof(owned));
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":f:o:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd': hw = optarg; break;
		case 'Q':
			if (rl_cli_roofs_option("report", optarg, &roofs) != 0)
				return RL_EXIT_USAGE;
			break;
		case 'D': hwdb = optarg; break;
		case 'r': runtime = optarg; break;
		case 'H': overhead = optarg; break;
		case 'w': info.wide = 1; break;
		case 't': timeline = 1; break;
		case 'L': info.l2 = 1; break;
		case 'G': svg = optarg; break;
		case 'o': output = optarg; break;
		case 'f':
			if (rl_format_parse(optarg, &fmt) < 0)
				return rl_cli_usage("report", "unknown format '%s' (expected table, csv, json or md)",
				                    optarg);
			break;
		case 'h': return usage();
		case 'V': return rl_cli_version();
		case ':': return rl_cli_usage("report", "option '%s' needs a value", argv[optind - 1]);
		default: return rl_cli_usage("report", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return rl_cli_usage("report", optind == argc ? "no trace given"
		                                              : "more than one trace given");
	if (overhead != NULL) {
		struct rl_err e;

		if (rl_parse_nonneg(overhead, &ctx.host_overhead_us, &e) < 0)
			return rl_cli_usage("report", "--host-overhead-us: %s", e.msg);
	}
	if (timeline && fmt == RL_FMT_CSV)
		return rl_cli_usage("report", "--timeline needs --format table, json or md "
		                              "(csv has one row per op and no summary)");

	db = rl_cli_open_hwdb(hwdb);
	if (db == NULL)
		return RL_EXIT_FAIL;
	if (rl_cli_import(argv[optind], &imp) < 0) {
		rl_hwdb_free(db);
		return RL_EXIT_FAIL;
	}
	ctx.dev = trace_device(db, hw, &imp, &owned);
	if (ctx.dev != NULL)
		ctx.dev = rl_cli_roofs(ctx.dev, roofs, &owned);
	if (ctx.dev != NULL)
		rt = rl_cli_runtime(db, runtime, overhead != NULL, &ctx.host_overhead_us);
	rl_timeline_init(&tl);
	memset(&chart_info, 0, sizeof(chart_info));
	chart_info.dev = ctx.dev;
	chart_info.runtime = rt != NULL ? rt->id : NULL;
	chart_info.host_overhead_us = ctx.host_overhead_us;
	chart_info.source = argv[optind];
	if (rt == NULL ||
	    (timeline && rl_timeline_add_runtimes(&tl, db, rt, ctx.host_overhead_us) < 0) ||
	    (timeline && rl_timeline_add_runtime(&tl, RL_TL_RECORDED_ID, ctx.host_overhead_us,
	                                         RL_TL_RECORDED, 0) < 0) ||
	    (svg != NULL && rl_chart_new(&chart_info, &chart) < 0) ||
	    (svg != NULL && rl_out_open(&svg_out, svg) < 0) || rl_out_open(&out, output) < 0) {
		if (rt != NULL && chart == NULL && svg != NULL)
			rl_cli_error("%s", rl_strerror(RL_ERR_NOMEM));
		rl_chart_free(chart);
		rl_timeline_release(&tl);
		rl_import_release(&imp);
		rl_device_release(&owned);
		rl_hwdb_free(db);
		return RL_EXIT_FAIL;
	}
	info.dev = ctx.dev;
	info.runtime = rt->id;
	info.host_overhead_us = ctx.host_overhead_us;
	info.has_measured = 1;
	info.has_host = 1;
	info.step = &step;
	if (timeline)
		info.timeline = &tl;
	rl_summary_init(&sum);
	rl_step_init(&step);
	rl_step_timeline(&step, imp.gpu, imp.ngpu);

	if (fmt == RL_FMT_TABLE || fmt == RL_FMT_MD)
		fprintf(out.f, "%s%zu ops in the trace, run on %s\n%s", fmt == RL_FMT_MD ? "Trace: " : "",
		        imp.n, imp.device ? imp.device : "a device it does not name",
		        fmt == RL_FMT_MD ? "\n" : "");
	rl_l2_init(&l2, ctx.dev, info.l2);
	rc = rl_report_begin(out.f, fmt, &info, &rep);
	for (i = 0; rc == 0 && i < imp.n; i++) {
		struct rl_pred p;
		struct rl_err e;
		double out_bytes;

		rc = rl_predict(&imp.ops[i], &ctx, &p, &e);
		/* L2 residency as in classify: kernels in trace order, each
		 * outermost op as one (cache.h); a custom op's output is unknown */
		if (rc == 0) {
			if (rl_op_output_bytes(&imp.ops[i], &out_bytes, &e) < 0)
				out_bytes = -1;
			rl_l2_kernel(&l2, &ctx, &imp.ops[i], out_bytes, &p);
		}
		if (rc == 0)
			rc = rl_summary_add(&sum, &imp.ops[i], &p);
		if (rc == 0)
			rc = rl_step_add(&step, &imp.ops[i], &p);
		if (rc == 0 && timeline)
			rl_timeline_add_op(&tl, &imp.ops[i], &p);
		if (rc == 0 && chart != NULL)
			rc = rl_chart_add(chart, &imp.ops[i], &p);
		if (rc == 0)
			rc = rl_report_row(rep, &imp.ops[i], &p);
	}
	if (timeline) {
		rl_timeline_finish(&tl);
		/* the trace's step: first GPU activity to last, and its busy union */
		if (rc == 0)
			rc = rl_timeline_set_measured(&tl, step.span_us, step.busy_us);
	}
	if (rc == 0)
		rc = rl_report_end(rep, &sum);
	if (rc == 0 && chart != NULL)
		rc = rl_svg_roofline(svg_out.f, chart);
	if (rc < 0) {
		rl_cli_error("%s: %s", argv[optind], rl_strerror(rc));
		rl_out_abort(&out);
		if (chart != NULL)
			rl_out_abort(&svg_out);
		status = RL_EXIT_FAIL;
	} else if (rl_out_commit(&out) < 0) {
		if (chart != NULL)
			rl_out_abort(&svg_out);
		status = RL_EXIT_FAIL;
	} else if (chart != NULL && rl_out_commit(&svg_out) < 0) {
		status = RL_EXIT_FAIL;
	}
	rl_report_free(rep);
	rl_chart_free(chart);
	rl_timeline_release(&tl);
	rl_summary_release(&sum);
	rl_step_release(&step);
	rl_import_release(&imp);
	rl_device_release(&owned);
	rl_hwdb_free(db);
	return status;
}
