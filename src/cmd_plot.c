/* cmd_plot.c - "roofline plot": op list + device -> an SVG chart, the
 * roofline (default) or the intensity sweep (--sweep). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "cli.h"
#include "model.h"
#include "oplist.h"
#include "svg.h"
#include "sweep.h"
#include "symbols.h"

static int usage(void)
{
	return rl_cli_help(RL_CMD_PLOT,
	                   "Usage: roofline plot [OPTIONS] OPS.csv\n"
	                   "\n"
	                   "Draw an op list (CSV, docs/oplist-format.md; '-' reads standard input) as\n"
	                   "an SVG chart: the roofline of the device, with one point per op at its\n"
	                   "predicted FLOP/s, coloured by bound, its area its share of the time, and\n"
	                   "the measured point where the list has measured_us. With --sweep, the\n"
	                   "predicted time, FLOP/s and bytes/s of each op in file order instead.\n",
	                   "Exit status: 0 success, 1 bad input, 2 usage error.\n");
}

struct plot {
	struct rl_model_ctx ctx;
	rl_chart *chart;
	struct rl_errlist *errs;
	const char *input;
};

static int on_op(const struct rl_op *op, void *user)
{
	struct plot *pl = user;
	struct rl_pred p;
	struct rl_err err = {0, ""};
	int rc;

	/* The reader has validated the op; prediction fails only for a
	 * collective without an interconnect (model.h). */
	rc = rl_predict(op, &pl->ctx, &p, &err);
	if (rc < 0 && pl->errs != NULL) {
		struct rl_err e;

		rl_err_set(&e, rc, "%s:%zu: %s", pl->input, op->line, err.msg);
		rl_errlist_add(pl->errs, &e);
	}
	if (rc == 0)
		rc = rl_chart_add(pl->chart, op, &p);
	return rc;
}

/* --sweep-table: the csv of a sweep (sweep.h) at INPUT, drawn to OUT, the
 * output of OUTS (open; released by the caller). No device: the table holds
 * what is drawn. Returns the exit status. */
static int sweep_table(const char *input, struct rl_outfiles *outs, FILE *out)
{
	const char *name = strcmp(input, "-") == 0 ? "<stdin>" : input;
	struct rl_sweep_table *t = malloc(sizeof(*t));
	struct rl_err e;
	FILE *f = NULL;
	int status = RL_EXIT_FAIL;

	if (t == NULL) {
		rl_cli_error("out of memory");
		return RL_EXIT_FAIL;
	}
	f = strcmp(input, "-") == 0 ? stdin : fopen(input, "r");
	if (f == NULL) {
		rl_cli_error("cannot open '%s': %s", input, strerror(errno));
		goto out;
	}
	if (rl_sweep_read_csv(f, name, t, &e) < 0) {
		rl_cli_error("%s", e.msg);
		goto out;
	}
	if (rl_svg_sweep_table(out, t, name) == 0 && rl_cli_outputs_commit(outs) == 0)
		status = RL_EXIT_OK;
out:
	if (f != NULL && f != stdin)
		fclose(f);
	free(t);
	return status;
}

int cmd_plot(int argc, char **argv)
{
	struct rl_cli_getopt go;
	const char *output = NULL, *input;
	struct rl_cli_model_opts m;
	struct plot pl;
	struct rl_chart_info info;
	struct rl_errlist errs;
	struct rl_outfiles outs;
	struct rl_outfile *out;
	struct rl_symbols syms;
	struct rl_ops_sink sink = {NULL, on_op, &pl, &syms, rl_cli_warn_sink, 0};
	int opt, rc, sweep = 0, table = 0, status = RL_EXIT_FAIL;

	memset(&pl, 0, sizeof(pl));
	rl_outfiles_init(&outs);
	rl_cli_model_init(&m, "plot", "eager");
	rl_symbols_init(&syms);
	rl_cli_getopt(RL_CMD_PLOT, &go);
	while ((opt = getopt_long(argc, argv, go.shortopts, go.longopts, NULL)) != -1) {
		switch (opt) {
		RL_CLI_MODEL_CASES:
			if (rl_cli_model_option(&m, opt, optarg) != 0)
				return RL_EXIT_USAGE;
			break;
		case RL_OPT_SWEEP: sweep = 1; break;
		case RL_OPT_SWEEP_TABLE: table = 1; break;
		case RL_OPT_SET: {
			struct rl_err e;

			if (rl_symbols_set(&syms, optarg, &e) < 0)
				return rl_cli_usage("plot", "%s", e.msg);
			break;
		}
		case 'o': output = optarg; break;
		default: return rl_cli_option_other("plot", opt, usage, argv);
		}
	}
	if (optind != argc - 1)
		return rl_cli_usage("plot", optind == argc ? "no op list given"
		                                            : "more than one op list given");
	input = argv[optind];
	if (table && sweep)
		return rl_cli_usage("plot", "--sweep (the intensity sweep of an op list) and "
		                            "--sweep-table (a sweep's csv) do not combine");
	/* what is read and written, checked and opened before anything is
	 * read */
	rl_outfiles_input(&outs, table ? "the sweep table" : "the op list", input);
	if (!table)
		rl_cli_model_inputs(&m, &outs);
	out = rl_outfiles_add(&outs, "-o", output);
	if ((rc = rl_cli_outputs_open(&outs)) != 0)
		return rc;
	if (table) {
		status = sweep_table(input, &outs, out->f);
		rl_outfiles_release(&outs);
		return status;
	}

	/* From here on, every exit goes through out: */
	if (rl_cli_model_resolve(&m) < 0)
		goto out;
	pl.ctx.dev = m.dev;
	pl.ctx.host_overhead_us = m.host_overhead_us;
	pl.ctx.host_kind_us = m.host_kind_us;
	pl.ctx.eff = m.eff_match != RL_EP_NONE ? &m.eff : NULL;
	pl.ctx.best_case = m.best_case;
	pl.ctx.compiled = rl_runtime_compiled(m.rt);
	pl.ctx.net = m.has_net ? &m.net : NULL;
	pl.errs = &errs;
	pl.input = strcmp(input, "-") == 0 ? "<stdin>" : input;
	memset(&info, 0, sizeof(info));
	info.dev = m.dev;
	info.runtime = m.rt->id;
	info.host_overhead_us = m.host_overhead_us;
	info.host_kind_us = m.host_kind_us;
	info.best_case = m.best_case;
	info.source = strcmp(input, "-") == 0 ? "<stdin>" : input;
	rc = rl_chart_new(&info, &pl.chart);
	if (rc < 0) {
		rl_cli_error("%s", rl_strerror(rc));
		goto out;
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
		rc = sweep ? rl_svg_sweep(out->f, pl.chart) : rl_svg_roofline(out->f, pl.chart);
	if (rc < 0)
		rl_cli_run_errors(&outs, &errs, input, rc);
	else if (rl_cli_outputs_commit(&outs) == 0)
		status = RL_EXIT_OK;
out:
	rl_outfiles_release(&outs);
	rl_chart_free(pl.chart);
	rl_cli_model_release(&m);
	return status;
}
