/* cmd_classify.c - "roofline classify": op list + device -> per-op verdicts. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "cli.h"
#include "model.h"
#include "num.h"
#include "oplist.h"
#include "report.h"
#include "summary.h"
#include "svg.h"

static int usage(void)
{
	printf("Usage: roofline classify [OPTIONS] OPS.csv\n"
	       "\n"
	       "Predict, for each op of an op list (CSV, docs/oplist-format.md; '-' reads\n"
	       "standard input), whether its time goes to compute, memory bandwidth or\n"
	       "overhead, its best possible time, and what to do about it.\n"
	       "\n"
	       "Options:\n"
	       "      --hw ID|FILE          device: an id or alias of the database, or a\n"
	       "                            .device file (default $ROOFLINE_HW, else h100-sxm)\n"
	       "      --hwdb DIR            device database directory (default $ROOFLINE_HWDB,\n"
	       "                            else the build tree's or the installed hwdb/)\n"
	       "      --runtime NAME        host-side runtime profile: eager, graph, cpp\n"
	       "                            (default eager)\n"
	       "      --host-overhead-us X  host cost per kernel launch in microseconds,\n"
	       "                            overriding the runtime profile\n"
	       "  -f, --format FMT          table (default), csv, json or md\n"
	       "      --wide                table: show every column, names uncut\n"
	       "  -o, --output FILE         write to FILE (whole or not at all) instead of\n"
	       "                            standard output\n"
	       "      --svg FILE            also draw the roofline chart (as roofline plot)\n"
	       "                            into FILE, whole or not at all\n"
	       "  -h, --help                show this help and exit\n"
	       "  -V, --version             show the version and exit\n"
	       "\n"
	       "Exit status: 0 success, 1 bad input, 2 usage error.\n");
	return RL_EXIT_OK;
}

struct classify {
	struct rl_model_ctx ctx;
	struct rl_report_info info;
	enum rl_format fmt;
	FILE *out;
	rl_report *rep;
	struct rl_summary sum;
	const char *input;
	rl_chart *chart; /* --svg */
};

static int on_header(const struct rl_ops_header *h, void *user)
{
	struct classify *c = user;
	size_t i;

	if (h->nextra > 0) {
		fprintf(stderr, "roofline: %s: warning: unknown column%s carried through:",
		        h->name, h->nextra == 1 ? "" : "s");
		for (i = 0; i < h->nextra; i++)
			fprintf(stderr, "%s '%s'", i ? "," : "", h->extra_names[i]);
		fputc('\n', stderr);
	}
	c->info.ops = h;
	return rl_report_begin(c->out, c->fmt, &c->info, &c->rep);
}

static int on_op(const struct rl_op *op, void *user)
{
	struct classify *c = user;
	struct rl_pred p;
	int rc;

	/* The reader has validated the op, so prediction cannot fail here. */
	rc = rl_predict(op, &c->ctx, &p, NULL);
	if (rc == 0)
		rc = rl_summary_add(&c->sum, op, &p);
	if (rc == 0)
		rc = rl_report_row(c->rep, op, &p);
	if (rc == 0 && c->chart != NULL)
		rc = rl_chart_add(c->chart, op, &p);
	return rc;
}

int cmd_classify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"hw", required_argument, NULL, 'd'},
		{"hwdb", required_argument, NULL, 'D'},
		{"runtime", required_argument, NULL, 'r'},
		{"host-overhead-us", required_argument, NULL, 'H'},
		{"format", required_argument, NULL, 'f'},
		{"wide", no_argument, NULL, 'w'},
		{"output", required_argument, NULL, 'o'},
		{"svg", required_argument, NULL, 'S'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *hw = NULL, *hwdb = NULL, *runtime = "eager", *output = NULL;
	const char *overhead = NULL, *svg = NULL;
	struct classify c;
	struct rl_chart_info chart_info;
	struct rl_out svg_out;
	struct rl_device owned;
	struct rl_errlist errs;
	struct rl_out out;
	struct rl_ops_sink sink = {on_header, on_op, &c};
	rl_hwdb *db;
	const struct rl_runtime *rt;
	int opt, rc, status = RL_EXIT_OK;
	size_t i;

	memset(&c, 0, sizeof(c));
	memset(&owned, 0, sizeof(owned));
	c.fmt = RL_FMT_TABLE;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":f:o:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd': hw = optarg; break;
		case 'D': hwdb = optarg; break;
		case 'r': runtime = optarg; break;
		case 'H': overhead = optarg; break;
		case 'w': c.info.wide = 1; break;
		case 'o': output = optarg; break;
		case 'S': svg = optarg; break;
		case 'f':
			if (rl_format_parse(optarg, &c.fmt) < 0)
				return rl_cli_usage("classify", "unknown format '%s' (expected table, csv, json or md)",
				                    optarg);
			break;
		case 'h': return usage();
		case 'V': return rl_cli_version();
		case ':': return rl_cli_usage("classify", "option '%s' needs a value", argv[optind - 1]);
		default: return rl_cli_usage("classify", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return rl_cli_usage("classify", optind == argc ? "no op list given"
		                                                : "more than one op list given");
	c.input = argv[optind];
	if (overhead != NULL) {
		struct rl_err e;

		if (rl_parse_nonneg(overhead, &c.ctx.host_overhead_us, &e) < 0)
			return rl_cli_usage("classify", "--host-overhead-us: %s", e.msg);
	}

	db = rl_cli_open_hwdb(hwdb);
	if (db == NULL)
		return RL_EXIT_FAIL;
	c.ctx.dev = rl_cli_device(db, hw, &owned);
	rt = NULL;
	if (c.ctx.dev != NULL) {
		struct rl_err e;

		rt = rl_hwdb_find_runtime(db, runtime, &e);
		if (rt == NULL)
			rl_cli_error("%s", e.msg);
	}
	if (rt == NULL) {
		rl_device_release(&owned);
		rl_hwdb_free(db);
		return RL_EXIT_FAIL;
	}
	if (overhead == NULL)
		c.ctx.host_overhead_us = rt->host_overhead_us.value;
	c.info.dev = c.ctx.dev;
	c.info.runtime = rt->id;
	c.info.host_overhead_us = c.ctx.host_overhead_us;

	if (rl_out_open(&out, output) < 0) {
		rl_device_release(&owned);
		rl_hwdb_free(db);
		return RL_EXIT_FAIL;
	}
	c.out = out.f;
	if (svg != NULL) {
		memset(&chart_info, 0, sizeof(chart_info));
		chart_info.dev = c.ctx.dev;
		chart_info.runtime = rt->id;
		chart_info.host_overhead_us = c.ctx.host_overhead_us;
		chart_info.source = strcmp(c.input, "-") == 0 ? "<stdin>" : c.input;
		if (rl_chart_new(&chart_info, &c.chart) < 0 || rl_out_open(&svg_out, svg) < 0) {
			rl_chart_free(c.chart);
			rl_out_abort(&out);
			rl_device_release(&owned);
			rl_hwdb_free(db);
			return RL_EXIT_FAIL;
		}
	}
	rl_summary_init(&c.sum);
	rl_errlist_init(&errs);
	rc = rl_ops_read_path(c.input, &sink, &errs);
	if (rc == 0)
		rc = rl_report_end(c.rep, &c.sum);
	if (rc == 0 && c.chart != NULL)
		rc = rl_svg_roofline(svg_out.f, c.chart);
	if (rc < 0) {
		for (i = 0; i < errs.kept; i++)
			rl_cli_error("%s", errs.msg[i]);
		if (errs.count > errs.kept)
			rl_cli_error("%zu more errors not shown", errs.count - errs.kept);
		if (errs.count == 0)
			rl_cli_error("%s: %s", c.input, rl_strerror(rc));
		rl_out_abort(&out);
		if (c.chart != NULL)
			rl_out_abort(&svg_out);
		status = RL_EXIT_FAIL;
	} else {
		if (c.fmt == RL_FMT_CSV && c.sum.fallbacks > 0)
			rl_cli_error("warning: %zu op%s rated on a fallback pipe: the device lacks the "
			             "dtype's own (see --format json, \"pipe\")",
			             c.sum.fallbacks, c.sum.fallbacks == 1 ? "" : "s");
		if (rl_out_commit(&out) < 0)
			status = RL_EXIT_FAIL;
		if (c.chart != NULL && rl_out_commit(&svg_out) < 0)
			status = RL_EXIT_FAIL;
	}
	rl_chart_free(c.chart);
	rl_report_free(c.rep);
	rl_summary_release(&c.sum);
	rl_device_release(&owned);
	rl_hwdb_free(db);
	return status;
}
