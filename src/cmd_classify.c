/* cmd_classify.c - "roofline classify": op list + device -> per-op verdicts. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "cli.h"
#include "component.h"
#include "impl.h"
#include "json.h"
#include "oplist.h"
#include "pipeline.h"
#include "svg.h"
#include "sweep.h"
#include "sweep_oplist.h"
#include "sweep_report.h"
#include "symbols.h"

static int usage(void)
{
	return rl_cli_help(RL_CMD_CLASSIFY,
	                   "Usage: roofline classify [OPTIONS] OPS.csv\n"
	                   "\n"
	                   "Predict, for each op of an op list (CSV, docs/oplist-format.md; '-' reads\n"
	                   "standard input), whether its time goes to compute, memory bandwidth or\n"
	                   "overhead, its best possible time, and what to do about it.\n",
	                   "Exit status: 0 success, 1 bad input, 2 usage error.\n");
}

struct classify {
	const char *input;
	struct rl_pipeline_model model;
	struct rl_pipeline_sinks sinks;
	rl_pipeline *pl; /* begun at the header */
	struct rl_errlist *errs;
	struct rl_sweep_spec sweep; /* --sweep; n 0: none */
	const char *items;          /* --items-per-step */
	rl_component *comp;         /* --impl: the component rows' kernels */
};

/* How many unknown column names the warning lists. */
#define EXTRA_SHOWN 20

static int on_header(const struct rl_ops_header *h, void *user)
{
	struct classify *c = user;
	struct rl_pipeline_columns cols;
	size_t i;

	/* the first names only: a header of 100,000 columns is one line, not
	 * 100,000 names */
	if (h->nextra > 0) {
		char *line = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&line, &len);

		/* one message, so that rl_cli_error escapes the names */
		if (m != NULL) {
			fprintf(m, "%s: warning: unknown column%s carried through:", h->name,
			        h->nextra == 1 ? "" : "s");
			for (i = 0; i < h->nextra && i < EXTRA_SHOWN; i++)
				fprintf(m, "%s '%s'", i ? "," : "", h->extra_names[i]);
			if (h->nextra > EXTRA_SHOWN)
				fprintf(m, " and %zu more", h->nextra - EXTRA_SHOWN);
			if (fclose(m) == 0)
				rl_cli_error("%s", line);
		}
		free(line);
	}
	cols.input = c->input;
	cols.nextra = h->nextra;
	cols.extra_names = h->extra_names;
	cols.has_measured = h->has_measured;
	cols.has_host = h->has_host;
	cols.has_phase = h->has_phase;
	if (rl_component_columns(c->comp, h->nextra) < 0)
		return RL_ERR_NOMEM;
	return rl_pipeline_begin(&c->model, &c->sinks, &cols, &c->pl);
}

static int to_pipeline(const struct rl_op *op, void *user)
{
	struct classify *c = user;
	struct rl_err e;
	int rc = rl_pipeline_op(c->pl, op, &e);

	if (rc < 0 && e.code < 0)
		rl_errlist_add(c->errs, &e);
	return rc;
}

/* A row, or the kernels --impl puts in place of its components. */
static int on_op(const struct rl_op *op, void *user)
{
	struct classify *c = user;

	return rl_component_op(c->comp, op, to_pipeline, c, c->errs);
}

/* Checks the combinations of flags; returns 0 or a usage error. */
static int check_flags(const struct classify *c, const char *scale, const char *svg)
{
	enum rl_format fmt = c->sinks.fmt;

	if (c->sinks.timeline && fmt == RL_FMT_CSV)
		return rl_cli_usage("classify", "--timeline needs --format table, json or md "
		                                "(csv has one row per op and no summary)");
	if (c->sinks.suggest && (fmt == RL_FMT_CSV || fmt == RL_FMT_JSON || fmt == RL_FMT_HTML))
		return rl_cli_usage("classify", "--suggest-fusion writes table or md output");
	if (c->sweep.n > 0 &&
	    (scale != NULL || svg != NULL || c->sinks.timeline || c->sinks.suggest || c->sinks.l2))
		return rl_cli_usage("classify", "--sweep writes one row per value: not with %s",
		                    scale != NULL       ? "--scale"
		                    : svg != NULL       ? "--svg"
		                    : c->sinks.timeline ? "--timeline"
		                    : c->sinks.suggest  ? "--suggest-fusion"
		                                        : "--l2");
	if (c->items != NULL && c->sweep.n == 0)
		return rl_cli_usage("classify", "--items-per-step needs --sweep");
	if (scale == NULL)
		return 0;
	if (fmt == RL_FMT_JSON || fmt == RL_FMT_MD || fmt == RL_FMT_HTML)
		return rl_cli_usage("classify", "--scale writes table or csv output");
	if (c->sinks.suggest)
		return rl_cli_usage("classify", "--scale and --suggest-fusion do not combine");
	if (c->sinks.timeline || svg != NULL)
		return rl_cli_usage("classify", "--scale combines with neither --timeline "
		                                "nor --svg");
	if (c->sinks.l2)
		return rl_cli_usage("classify", "--scale and --l2 do not combine");
	return 0;
}

/* After a list read whole: the warnings that csv and json cannot carry. */
static void warnings(const struct classify *c, const struct rl_device *dev)
{
	const struct rl_summary *sum = rl_pipeline_summary(c->pl);
	enum rl_format fmt = c->sinks.fmt;

	if (c->sinks.l2 && (fmt == RL_FMT_CSV || fmt == RL_FMT_JSON) && sum->l2_ops > 0 &&
	    !dev->num[RL_HW_L2_BANDWIDTH_GBS].present)
		rl_cli_error("warning: --l2: %s has no l2_bandwidth_gbs: its %zu L2-resident "
		             "op%s are predicted at memory bandwidth",
		             dev->id, sum->l2_ops, sum->l2_ops == 1 ? "" : "s");
	if (fmt == RL_FMT_CSV && sum->fallbacks > 0)
		rl_cli_error("warning: %zu op%s rated on a fallback pipe: the device lacks the "
		             "dtype's own (see --format json, \"pipe\")",
		             sum->fallbacks, sum->fallbacks == 1 ? "" : "s");
}

/* --sweep: the list read into memory once, then once per value with the
 * swept name bound (sweep.h), one row per value to OUT, the output of OUTS
 * (open; released here). Returns the exit status. */
static int sweep(struct classify *c, struct rl_cli_model_opts *m, const struct rl_symbols *syms,
                 struct rl_outfiles *outs, FILE *out)
{
	struct rl_sweep_oplist l;
	struct rl_pipeline_model pm;
	struct rl_sweep_table *t = NULL;
	struct rl_err e;
	char *text = NULL, title[512];
	int rc, status = RL_EXIT_FAIL;

	if (rl_cli_model_resolve(m) < 0)
		goto out;
	rl_cli_pipeline_model(m, &pm);
	text = rl_json_slurp(c->input, "an op list", &e);
	t = malloc(sizeof(*t));
	if (text == NULL || t == NULL) {
		rl_cli_error("%s", text == NULL ? e.msg : "out of memory");
		goto out;
	}
	memset(&l, 0, sizeof(l));
	l.name = strcmp(c->input, "-") == 0 ? "<stdin>" : c->input;
	l.text = text;
	l.len = strlen(text);
	l.names = syms;
	l.items_expr = c->items;
	l.warn = rl_cli_warn_sink;
	rc = rl_sweep_oplist_run(&c->sweep, &l, &pm, t, c->errs);
	if (rc < 0) {
		rl_cli_read_errors(c->errs, l.name, rc);
		goto out;
	}
	snprintf(title, sizeof(title), "%s; %s, %s runtime", l.name, m->dev->id, m->rt->id);
	t->title = title;
	if (rl_sweep_report_write(out, c->sinks.fmt, t) == 0 && rl_cli_outputs_commit(outs) == 0)
		status = RL_EXIT_OK;
out:
	rl_outfiles_release(outs);
	free(t);
	free(text);
	rl_cli_model_release(m);
	return status;
}

int cmd_classify(int argc, char **argv)
{
	struct rl_cli_getopt go;
	const char *output = NULL, *scale = NULL, *svg = NULL, *impl_name = NULL;
	struct rl_cli_model_opts m;
	struct rl_cli_train_opts tr;
	struct classify c;
	struct rl_symbols syms;
	struct rl_chart_info chart_info;
	struct rl_errlist errs;
	struct rl_outfiles outs;
	struct rl_outfile *out, *svg_out = NULL;
	struct rl_ops_sink sink = {on_header, on_op, &c, &syms, rl_cli_warn_sink, 0};
	char scale_label[256];
	struct rl_impl im;
	int opt, rc, status = RL_EXIT_FAIL, have_impl = 0;

	memset(&c, 0, sizeof(c));
	rl_outfiles_init(&outs);
	rl_cli_model_init(&m, "classify", "eager");
	rl_cli_train_init(&tr);
	rl_symbols_init(&syms);
	rl_errlist_init(&errs);
	c.sinks.fmt = RL_FMT_TABLE;
	c.errs = &errs;
	rl_cli_getopt(RL_CMD_CLASSIFY, &go);
	while ((opt = getopt_long(argc, argv, go.shortopts, go.longopts, NULL)) != -1) {
		switch (opt) {
		RL_CLI_MODEL_CASES:
			if (rl_cli_model_option(&m, opt, optarg) != 0)
				return RL_EXIT_USAGE;
			break;
		RL_CLI_TRAIN_CASES:
			if (rl_cli_train_option(&tr, "classify", opt, optarg) != 0)
				return RL_EXIT_USAGE;
			break;
		case RL_OPT_TIMELINE: c.sinks.timeline = 1; break;
		case RL_OPT_WIDE: c.sinks.wide = 1; break;
		case RL_OPT_L2: c.sinks.l2 = 1; break;
		case RL_OPT_SUGGEST_FUSION: c.sinks.suggest = 1; break;
		case RL_OPT_SCALE: scale = optarg; break;
		case RL_OPT_SET: {
			struct rl_err e;

			if (rl_symbols_set(&syms, optarg, &e) < 0)
				return rl_cli_usage("classify", "%s", e.msg);
			break;
		}
		case RL_OPT_SWEEP: {
			struct rl_err e;

			if (rl_sweep_parse(optarg, &c.sweep, &e) < 0)
				return rl_cli_usage("classify", "%s", e.msg);
			break;
		}
		case RL_OPT_ITEMS_PER_STEP: c.items = optarg; break;
		case RL_OPT_IMPL: impl_name = optarg; break;
		case 'o': output = optarg; break;
		case RL_OPT_SVG: svg = optarg; break;
		case 'f':
			if (rl_format_parse(optarg, &c.sinks.fmt) < 0)
				return rl_cli_usage("classify", "unknown format '%s' (expected table, csv, json, md or html)",
				                    optarg);
			break;
		default: return rl_cli_option_other("classify", opt, usage, argv);
		}
	}
	if (optind != argc - 1)
		return rl_cli_usage("classify", optind == argc ? "no op list given"
		                                                : "more than one op list given");
	c.input = argv[optind];
	if (check_flags(&c, scale, svg) != 0 || rl_cli_train_check(&tr, "classify") != 0)
		return RL_EXIT_USAGE;
	/* the implementation: its kernels in place of the components the
	 * list's rows name (component.h), and its training rules (its
	 * autograd key) */
	if (impl_name != NULL) {
		struct rl_err e;

		size_t nk;

		if (rl_impl_find(rl_cli_hwdb_dir(m.hwdb), impl_name, &im, &e) < 0) {
			rl_impl_release(&im);
			return rl_cli_usage("classify", "%s", e.msg);
		}
		tr.t.autograd = im.autograd;
		nk = im.nk;
		rl_impl_release(&im);
		if (c.sweep.n > 0 && nk > 0)
			return rl_cli_usage("classify", "--sweep reads the list as it is: not with "
			                                "--impl %s (model --sweep builds %s's step "
			                                "per value)",
			                    impl_name, impl_name);
	}
	if (tr.train && scale != NULL)
		return rl_cli_usage("classify", "--train and --scale: scale a training step "
		                                "with --set instead");
	if (scale != NULL) {
		struct rl_err e;

		/* --set may come after --scale: scale factors are read last */
		if (rl_symbols_scale(&syms, scale, &e) < 0)
			return rl_cli_usage("classify", "%s", e.msg);
		rl_symbols_scale_label(&syms, scale_label, sizeof(scale_label));
		if (scale_label[0] == '\0')
			snprintf(scale_label, sizeof(scale_label), "every factor 1");
		c.sinks.scale = &syms;
		c.sinks.scale_label = scale_label;
	}
	if (c.sweep.n > 0) {
		size_t i;

		for (i = 0; i < syms.n; i++)
			if (strcmp(syms.name[i], c.sweep.name) == 0)
				return rl_cli_usage("classify", "--sweep %s: %s is bound by --set too",
				                    c.sweep.name, c.sweep.name);
	}
	/* what is read and written, checked and opened before anything is
	 * read */
	rl_outfiles_input(&outs, "the op list", c.input);
	rl_cli_model_inputs(&m, &outs);
	out = rl_outfiles_add(&outs, "-o", output);
	if (svg != NULL)
		svg_out = rl_outfiles_add(&outs, "--svg", svg);
	if ((rc = rl_cli_outputs_open(&outs)) != 0)
		return rc;
	if (c.sweep.n > 0)
		return sweep(&c, &m, &syms, &outs, out->f);
	c.sinks.whatif = scale == NULL;
	c.sinks.memfit = scale == NULL;

	/* From here on, every exit goes through out: */
	if (rl_cli_model_resolve(&m) < 0)
		goto out;
	rl_cli_pipeline_model(&m, &c.model);
	c.model.train = tr.train ? &tr.t : NULL;
	c.sinks.out = out->f;
	if (svg != NULL) {
		memset(&chart_info, 0, sizeof(chart_info));
		chart_info.dev = m.dev;
		chart_info.runtime = m.rt->id;
		chart_info.host_overhead_us = m.host_overhead_us;
		chart_info.host_kind_us = m.host_kind_us;
		chart_info.best_case = m.best_case;
		chart_info.source = strcmp(c.input, "-") == 0 ? "<stdin>" : c.input;
		if (rl_chart_new(&chart_info, &c.sinks.chart) < 0) {
			rl_cli_error("%s", rl_strerror(RL_ERR_NOMEM));
			goto out;
		}
	}
	if (impl_name != NULL) {
		struct rl_err e;

		have_impl = 1;
		if (rl_impl_find(rl_cli_hwdb_dir(m.hwdb), impl_name, &im, &e) < 0 ||
		    rl_component_new(&im, &syms, tr.train, strcmp(c.input, "-") == 0 ? "<stdin>" : c.input,
		                     &c.comp, &e) < 0) {
			rl_cli_error("%s", e.msg);
			goto out;
		}
		sink.names_sized = rl_component_names_used(c.comp);
		c.model.impl = im.id; /* the total line's kernels a step, json's impl */
	}
	rc = rl_ops_read_path(c.input, &sink, &errs);
	if (rc == 0 && c.pl == NULL)
		rc = RL_ERR_PARSE; /* not reached: a list without a header is an error */
	if (rc == 0) {
		rc = rl_component_end(c.comp, to_pipeline, &c, &errs);
		if (rc == 0 && errs.count > 0)
			rc = RL_ERR_PARSE;
	}
	if (rc == 0) {
		struct rl_err e;

		rc = rl_pipeline_end(c.pl, &e);
		if (rc < 0 && e.code < 0)
			rl_errlist_add(&errs, &e);
	}
	if (rc == 0 && c.sinks.chart != NULL)
		rc = rl_svg_roofline(svg_out->f, c.sinks.chart);
	if (rc < 0) {
		rl_cli_run_errors(&outs, &errs, c.input, rc);
		goto out;
	}
	warnings(&c, m.dev);
	if (c.sinks.memfit)
		rl_cli_memfit_warning(rl_pipeline_memfit(c.pl), m.dev);
	if (rl_cli_outputs_commit(&outs) == 0)
		status = RL_EXIT_OK;
out:
	rl_outfiles_release(&outs);
	rl_component_free(c.comp);
	if (have_impl)
		rl_impl_release(&im);
	rl_pipeline_free(c.pl);
	rl_chart_free(c.sinks.chart);
	rl_cli_model_release(&m);
	return status;
}
