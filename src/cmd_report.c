/* cmd_report.c - "roofline report": a profiler trace, imported and
 * classified in one step, with the measured step against its roofline. */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "cli.h"
#include "hostcalls.h"
#include "hostfit.h"
#include "hostfit_write.h"
#include "import.h"
#include "pipeline.h"
#include "step.h"
#include "svg.h"
#include "trace.h"

static int usage(void)
{
	return rl_cli_help(RL_CMD_REPORT,
	                   "Usage: roofline report [OPTIONS] TRACE.json[.gz]\n"
	                   "\n"
	                   "Import a PyTorch profiler trace (as 'roofline import') and classify its ops\n"
	                   "(as 'roofline classify'), each with its measured GPU time against its\n"
	                   "roofline; then the step: GPU busy time and idle gaps, the share of the step\n"
	                   "that is overhead, time per op kind measured against the roofline, and the ten\n"
	                   "ops with the most recoverable time, with advice.\n",
	                   "Exit status: 0 success, 1 bad input, 2 usage error.\n");
}

/* Without --hw: the trace's device, else $ROOFLINE_HW when the trace names
 * none. */
static const struct rl_device *trace_device(rl_hwdb *db, const struct rl_import *imp,
                                            struct rl_device *owned)
{
	const struct rl_device *d;
	const char *env = getenv("ROOFLINE_HW");
	struct rl_gpu g;
	char why[256];

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
	struct rl_cli_getopt go;
	const char *output = NULL, *svg = NULL, *input;
	struct rl_cli_model_opts m;
	struct rl_pipeline_model model;
	struct rl_pipeline_sinks sinks;
	struct rl_pipeline_columns cols;
	struct rl_chart_info chart_info;
	struct rl_import imp;
	struct rl_trace trace;
	struct rl_hostcalls hc;
	struct rl_hostfit fit;
	char *appendix = NULL;
	size_t appendix_len = 0;
	struct rl_err e, he;
	struct rl_step step;
	struct rl_outfiles outs;
	struct rl_outfile *out, *svg_out = NULL;
	rl_pipeline *pl = NULL;
	int opt, rc = 0, status = RL_EXIT_FAIL;
	size_t i;

	memset(&sinks, 0, sizeof(sinks));
	memset(&imp, 0, sizeof(imp));
	memset(&trace, 0, sizeof(trace));
	memset(&hc, 0, sizeof(hc));
	rl_hostfit_init(&fit);
	rl_outfiles_init(&outs);
	rl_cli_model_init(&m, "report", "eager");
	rl_step_init(&step);
	sinks.fmt = RL_FMT_TABLE;
	rl_cli_getopt(RL_CMD_REPORT, &go);
	while ((opt = getopt_long(argc, argv, go.shortopts, go.longopts, NULL)) != -1) {
		switch (opt) {
		RL_CLI_MODEL_CASES:
			if (rl_cli_model_option(&m, opt, optarg) != 0)
				return RL_EXIT_USAGE;
			break;
		case RL_OPT_WIDE: sinks.wide = 1; break;
		case RL_OPT_TIMELINE: sinks.timeline = 1; break;
		case RL_OPT_L2: sinks.l2 = 1; break;
		case RL_OPT_SVG: svg = optarg; break;
		case 'o': output = optarg; break;
		case 'f':
			if (rl_format_parse(optarg, &sinks.fmt) < 0)
				return rl_cli_usage("report", "unknown format '%s' (expected table, csv, json, md or html)",
				                    optarg);
			break;
		default: return rl_cli_option_other("report", opt, usage, argv);
		}
	}
	if (optind != argc - 1)
		return rl_cli_usage("report", optind == argc ? "no trace given"
		                                              : "more than one trace given");
	input = argv[optind];
	if (sinks.timeline && sinks.fmt == RL_FMT_CSV)
		return rl_cli_usage("report", "--timeline needs --format table, json or md "
		                              "(csv has one row per op and no summary)");
	/* what is read and written, checked and opened before anything is
	 * read */
	rl_outfiles_input(&outs, "the trace", input);
	rl_cli_model_inputs(&m, &outs);
	out = rl_outfiles_add(&outs, "-o", output);
	if (svg != NULL)
		svg_out = rl_outfiles_add(&outs, "--svg", svg);
	if ((rc = rl_cli_outputs_open(&outs)) != 0)
		return rc;

	/* From here on, every exit goes through out: */
	if (rl_cli_model_open_db(&m) < 0)
		goto out;
	if (rl_cli_import_keep(input, &imp, &trace) < 0)
		goto out;
	/* --hw is resolved as everywhere (a system id or file gives its GPU and
	 * its interconnect for the collectives); without it, the trace's GPU */
	if (m.hw == NULL && (m.dev = trace_device(m.db, &imp, &m.owned)) == NULL)
		goto out;
	if (rl_cli_model_resolve(&m) < 0)
		goto out;
	if (m.has_net)
		rl_import_spread(&imp, m.net.gpus_per_node);
	memset(&model, 0, sizeof(model));
	rl_cli_pipeline_model(&m, &model);
	if (svg != NULL) {
		memset(&chart_info, 0, sizeof(chart_info));
		chart_info.dev = m.dev;
		chart_info.runtime = m.rt->id;
		chart_info.host_overhead_us = m.host_overhead_us;
		chart_info.host_kind_us = m.host_kind_us;
		chart_info.best_case = m.best_case;
		chart_info.source = input;
		if (rl_chart_new(&chart_info, &sinks.chart) < 0) {
			rl_cli_error("%s", rl_strerror(RL_ERR_NOMEM));
			goto out;
		}
	}
	rl_step_timeline(&step, imp.gpu, imp.ngpu);
	step.compiled = imp.compiled;
	sinks.out = out->f;
	sinks.step = &step;
	memset(&cols, 0, sizeof(cols));
	cols.input = input;
	cols.has_measured = 1;
	cols.has_host = 1;
	cols.has_phase = imp.training;

	if (sinks.fmt == RL_FMT_TABLE || sinks.fmt == RL_FMT_MD)
		fprintf(out->f, "%s%zu op%s in the trace, run on %s\n%s",
		        sinks.fmt == RL_FMT_MD ? "Trace: " : "", imp.n, imp.n == 1 ? "" : "s",
		        imp.device ? imp.device : "a device it does not name",
		        sinks.fmt == RL_FMT_MD ? "\n" : "");
	/* html: the host pathologies as a section of the page, written before
	 * the page is (table and md: a block after the report, below) */
	if (sinks.fmt == RL_FMT_HTML && rl_hostcalls_build(&trace, &hc, &he) == 0 &&
	    rl_hostfit_run(hc.calls, hc.n, hc.skips, hc.nskips, 0, &fit, &he) == 0) {
		FILE *mem = open_memstream(&appendix, &appendix_len);
		int wrc = mem != NULL ? rl_hostfit_write_advice(mem, &fit, 0) : RL_ERR_NOMEM;

		if (mem != NULL && fclose(mem) != 0)
			wrc = RL_ERR_NOMEM;
		if (wrc < 0) {
			rl_cli_error("%s", rl_strerror(RL_ERR_NOMEM));
			goto out;
		}
		sinks.appendix = appendix;
	}
	rl_err_clear(&e);
	rc = rl_pipeline_begin(&model, &sinks, &cols, &pl);
	for (i = 0; rc == 0 && i < imp.n; i++)
		rc = rl_pipeline_op(pl, &imp.ops[i], &e);
	if (rc == 0)
		rc = rl_pipeline_end(pl, &e);
	/* the host pathologies of the trace (hostfit.h): table and md only, as
	 * a block after the report; none where the fit finds none */
	if (rc == 0 && (sinks.fmt == RL_FMT_TABLE || sinks.fmt == RL_FMT_MD) &&
	    rl_hostcalls_build(&trace, &hc, &he) == 0 &&
	    rl_hostfit_run(hc.calls, hc.n, hc.skips, hc.nskips, 0, &fit, &he) == 0)
		rc = rl_hostfit_write_advice(out->f, &fit, sinks.fmt == RL_FMT_MD);
	if (rc == 0 && sinks.chart != NULL)
		rc = rl_svg_roofline(svg_out->f, sinks.chart);
	if (rc == RL_ERR_IO && e.code >= 0 && rl_outfiles_failed(&outs))
		rl_cli_outputs_commit(&outs); /* fails, naming the output */
	else if (rc < 0 && e.code < 0) /* located at the op: its row in the import */
		rl_cli_error("%s", e.msg);
	else if (rc < 0)
		rl_cli_error("%s: %s", input, rl_strerror(rc));
	else if (rl_cli_outputs_commit(&outs) == 0)
		status = RL_EXIT_OK;
out:
	free(appendix);
	rl_outfiles_release(&outs);
	rl_pipeline_free(pl);
	rl_chart_free(sinks.chart);
	rl_step_release(&step);
	rl_import_release(&imp);
	rl_hostfit_release(&fit);
	rl_hostcalls_release(&hc);
	rl_trace_release(&trace);
	rl_cli_model_release(&m);
	return status;
}
