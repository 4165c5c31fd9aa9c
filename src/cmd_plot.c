/* cmd_plot.c - "roofline plot": op list + device -> an SVG chart, the
 * roofline (default) or the intensity sweep (--sweep). */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "cli.h"
#include "model.h"
#include "num.h"
#include "oplist.h"
#include "svg.h"
#include "symbols.h"

static int usage(void)
{
	printf("Usage: roofline plot [OPTIONS] OPS.csv\n"
	       "\n"
	       "Draw an op list (CSV, docs/oplist-format.md; '-' reads standard input) as\n"
	       "an SVG chart: the roofline of the device, with one point per op at its\n"
	       "predicted FLOP/s, coloured by bound, its area its share of the time, and\n"
	       "the measured point where the list has measured_us. With --sweep, the\n"
	       "predicted time, FLOP/s and bytes/s of each op in file order instead.\n"
	       "\n"
	       "Options:\n"
	       RL_HELP_HW
	       "                            (default $ROOFLINE_HW, else h100-sxm)\n"
	       RL_HELP_ROOFS
	       RL_HELP_MODEL
	       "      --set NAME=N,...      bind the names that shapes use (Bx4096) to sizes\n"
	       "      --sweep               the sweep chart: x is each op's flops_per_element\n"
	       "                            when every op gives one, else its position\n"
	       "  -o, --output FILE         write to FILE (whole or not at all) instead of\n"
	       "                            standard output\n"
	       "  -h, --help                show this help and exit\n"
	       "  -V, --version             show the version and exit\n"
	       "\n"
	       "Exit status: 0 success, 1 bad input, 2 usage error.\n");
	return RL_EXIT_OK;
}

struct plot {
	struct rl_model_ctx ctx;
	rl_chart *chart;
};

static int on_op(const struct rl_op *op, void *user)
{
	struct plot *pl = user;
	struct rl_pred p;
	int rc;

	/* The reader has validated the op, so prediction cannot fail here. */
	rc = rl_predict(op, &pl->ctx, &p, NULL);
	if (rc == 0)
		rc = rl_chart_add(pl->chart, op, &p);
	return rc;
}

int cmd_plot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"hw", required_argument, NULL, 'd'},
		{"roofs", required_argument, NULL, 'Q'},
		{"hwdb", required_argument, NULL, 'D'},
		{"runtime", required_argument, NULL, 'r'},
		{"host-overhead-us", required_argument, NULL, 'H'},
		{"sweep", no_argument, NULL, 's'},
		{"set", required_argument, NULL, 'S'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *hw = NULL, *roofs = NULL, *hwdb = NULL, *runtime = "eager", *output = NULL;
	const char *overhead = NULL, *input;
	struct plot pl;
	struct rl_chart_info info;
	struct rl_device owned;
	struct rl_errlist errs;
	struct rl_out out;
	struct rl_symbols syms;
	struct rl_ops_sink sink = {NULL, on_op, &pl, &syms};
	const struct rl_runtime *rt = NULL;
	rl_hwdb *db;
	int opt, rc, sweep = 0, status = RL_EXIT_OK;

	memset(&pl, 0, sizeof(pl));
	memset(&owned, 0, sizeof(owned));
	rl_symbols_init(&syms);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd': hw = optarg; break;
		case 'Q':
			if (rl_cli_roofs_option("plot", optarg, &roofs) != 0)
				return RL_EXIT_USAGE;
			break;
		case 'D': hwdb = optarg; break;
		case 'r': runtime = optarg; break;
		case 'H': overhead = optarg; break;
		case 's': sweep = 1; break;
		case 'S': {
			struct rl_err e;

			if (rl_symbols_set(&syms, optarg, &e) < 0)
				return rl_cli_usage("plot", "%s", e.msg);
			break;
		}
		case 'o': output = optarg; break;
		case 'h': return usage();
		case 'V': return rl_cli_version();
		case ':': return rl_cli_usage("plot", "option '%s' needs a value", argv[optind - 1]);
		default: return rl_cli_usage("plot", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return rl_cli_usage("plot", optind == argc ? "no op list given"
		                                            : "more than one op list given");
	input = argv[optind];
	if (overhead != NULL) {
		struct rl_err e;

		if (rl_parse_nonneg(overhead, &pl.ctx.host_overhead_us, &e) < 0)
			return rl_cli_usage("plot", "--host-overhead-us: %s", e.msg);
	}

	db = rl_cli_open_hwdb(hwdb);
	if (db == NULL)
		return RL_EXIT_FAIL;
	pl.ctx.dev = rl_cli_device(db, hw, &owned);
	if (pl.ctx.dev != NULL)
		pl.ctx.dev = rl_cli_roofs(pl.ctx.dev, roofs, &owned);
	if (pl.ctx.dev != NULL)
		rt = rl_cli_runtime(db, runtime, overhead != NULL, &pl.ctx.host_overhead_us);
	if (rt == NULL) {
		rl_device_release(&owned);
		rl_hwdb_free(db);
		return RL_EXIT_FAIL;
	}
	memset(&info, 0, sizeof(info));
	info.dev = pl.ctx.dev;
	info.runtime = rt->id;
	info.host_overhead_us = pl.ctx.host_overhead_us;
	info.source = strcmp(input, "-") == 0 ? "<stdin>" : input;

	rc = rl_chart_new(&info, &pl.chart);
	if (rc < 0 || rl_out_open(&out, output) < 0) {
		if (rc < 0)
			rl_cli_error("%s", rl_strerror(rc));
		rl_chart_free(pl.chart);
		rl_device_release(&owned);
		rl_hwdb_free(db);
		return RL_EXIT_FAIL;
	}
	rl_errlist_init(&errs);
	rc = rl_ops_read_path(input, &sink, &errs);
	if (rc == 0 && rl_chart_count(pl.chart) == 0) {
		struct rl_err e;

		/* a header alone: no chart rather than empty axes */
		rc = rl_err_set(&e, RL_ERR_RANGE, "%s: no ops to plot", info.source);
		rl_errlist_add(&errs, &e);
	}
	if (rc == 0)
		rc = sweep ? rl_svg_sweep(out.f, pl.chart) : rl_svg_roofline(out.f, pl.chart);
	if (rc < 0) {
		rl_cli_read_errors(&errs, input, rc);
		rl_out_abort(&out);
		status = RL_EXIT_FAIL;
	} else if (rl_out_commit(&out) < 0) {
		status = RL_EXIT_FAIL;
	}
	rl_chart_free(pl.chart);
	rl_device_release(&owned);
	rl_hwdb_free(db);
	return status;
}
