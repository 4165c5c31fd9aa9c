/* cmd_classify.c - "roofline classify": op list + device -> per-op verdicts. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "chart.h"
#include "cli.h"
#include "fusion.h"
#include "model.h"
#include "num.h"
#include "oplist.h"
#include "report.h"
#include "scaling.h"
#include "summary.h"
#include "svg.h"
#include "timeline.h"
#include "symbols.h"
#include "whatif_report.h"

static int usage(void)
{
	printf("Usage: roofline classify [OPTIONS] OPS.csv\n"
	       "\n"
	       "Predict, for each op of an op list (CSV, docs/oplist-format.md; '-' reads\n"
	       "standard input), whether its time goes to compute, memory bandwidth or\n"
	       "overhead, its best possible time, and what to do about it.\n"
	       "\n"
	       "Options:\n"
	       RL_HELP_HW
	       "                            (default $ROOFLINE_HW, else h100-sxm)\n"
	       RL_HELP_ROOFS
	       RL_HELP_MODEL
	       "      --set NAME=N,...      bind the names that shapes use (Bx4096) to sizes\n"
	       "      --scale NAME=K,...    table, csv: predict each op and the list with\n"
	       "                            NAME's size times K too, and report the ratio\n"
	       "  -f, --format FMT          table (default), csv, json or md\n"
	       "      --timeline            simulate one step on the host and the GPU for\n"
	       "                            every runtime profile: step time, GPU idle time,\n"
	       "                            GPU-Util (table, json, md; docs/timeline.md)\n"
	       "      --l2                  predict L2-resident ops (marked ^) with their\n"
	       "                            input read from the L2 at l2_bandwidth_gbs\n"
	       "      --wide                table: show every column, names uncut\n"
	       "      --suggest-fusion      table, md: propose fusing runs of memory- or\n"
	       "                            overhead-bound pointwise, softmax and layernorm\n"
	       "                            ops, with the time saved\n"
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
	struct rl_timeline tl;
	int timeline;
	const char *input;
	rl_chart *chart; /* --svg */
	struct rl_fuse_stream fs;
	struct rl_l2 l2; /* L2 residency, kernel by kernel */
	struct rl_errlist *errs;
	const char **blank_extra; /* the extra cells of a fused group: empty */
	/* --scale: a second fusion stream at the scaled size, whose kernels
	 * pair up with the first one's (at most 2 waiting: a group and an op) */
	struct rl_symbols syms;
	char scale_label[256];
	int scaling;
	struct rl_fuse_stream fs2;
	struct rl_scale_sum ssum;
	struct {
		struct rl_op op;
		struct rl_pred p;
		char *name;
	} wait[2];
	size_t nwait;
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
		c->blank_extra = calloc(h->nextra, sizeof(*c->blank_extra));
		if (c->blank_extra == NULL)
			return RL_ERR_NOMEM;
		for (i = 0; i < h->nextra; i++)
			c->blank_extra[i] = "";
	}
	c->info.nextra = h->nextra;
	c->info.extra_names = h->extra_names;
	c->info.has_measured = h->has_measured;
	c->info.has_host = h->has_host;
	/* ops with a recorded host time (an imported trace): one more lane, the
	 * step with those host times and the kernels at their roofline */
	if (c->timeline && h->has_host &&
	    rl_timeline_add_runtime(&c->tl, RL_TL_RECORDED_ID, c->ctx.host_overhead_us,
	                            RL_TL_RECORDED, 0) < 0)
		return RL_ERR_NOMEM;
	if (c->scaling)
		return rl_scale_report_begin(c->out, c->fmt == RL_FMT_CSV, c->ctx.dev, c->info.runtime,
		                             c->ctx.host_overhead_us, c->scale_label);
	return rl_report_begin(c->out, c->fmt, &c->info, &c->rep);
}

/* --scale: a kernel at the base size waits for its scaled twin. */
static int on_kernel_base(const struct rl_fuse_row *row, void *user)
{
	struct classify *c = user;

	if (c->nwait == 2)
		return RL_ERR_NOMEM; /* not reached: the streams emit in step */
	c->wait[c->nwait].op = *row->op;
	c->wait[c->nwait].p = *row->p;
	c->wait[c->nwait].name = strdup(row->op->name);
	if (c->wait[c->nwait].name == NULL)
		return RL_ERR_NOMEM;
	c->wait[c->nwait].op.name = c->wait[c->nwait].name;
	c->nwait++;
	return 0;
}

static int on_kernel_scaled(const struct rl_fuse_row *row, void *user)
{
	struct classify *c = user;
	enum rl_scale_verdict v;
	int rc;

	if (c->nwait == 0)
		return RL_ERR_NOMEM; /* not reached */
	v = rl_scale_verdict(&c->wait[0].p, row->p);
	rl_scale_sum_add(&c->ssum, (double)row->op->count, &c->wait[0].p, row->p, v);
	rc = rl_scale_report_row(c->out, c->fmt == RL_FMT_CSV, &c->wait[0].op, &c->wait[0].p,
	                         row->p, v);
	free(c->wait[0].name);
	c->wait[0] = c->wait[1];
	c->nwait--;
	return rc;
}

/* Files ERR at OP's line into the error list; returns its code. */
static int op_error(struct classify *c, const struct rl_op *op, const struct rl_err *e)
{
	struct rl_err located;

	rl_err_set(&located, e->code, "%s:%zu: %s", c->input, op->line, e->msg);
	rl_errlist_add(c->errs, &located);
	return e->code;
}

/* --scale: the op at the scaled size, into the second stream. */
static int scaled_op(struct classify *c, const struct rl_op *op)
{
	struct rl_op op2;
	struct rl_pred p2;
	struct rl_err e;
	int rc;

	e.code = 0;
	rc = rl_symbols_apply(&c->syms, op, &op2, NULL, &e);
	if (rc == 0)
		rc = rl_predict(&op2, &c->ctx, &p2, &e);
	if (rc == 0)
		rc = rl_fuse_stream_op(&c->fs2, &op2, &p2, &e);
	if (rc < 0 && e.code < 0) {
		char msg[sizeof(e.msg)];

		snprintf(msg, sizeof(msg), "%s", e.msg);
		rl_err_set(&e, e.code, "at %s: %s", c->scale_label, msg);
		return op_error(c, op, &e);
	}
	return rc;
}

/* One kernel after fusion: judged for L2 residency, into the summary and
 * the report. */
static int on_kernel(const struct rl_fuse_row *row, void *user)
{
	struct classify *c = user;
	struct rl_op op = *row->op;
	struct rl_pred p = *row->p;
	int rc;

	if (op.extra == NULL)
		op.extra = c->blank_extra;
	rl_l2_kernel(&c->l2, &c->ctx, &op, row->out_bytes, &p);
	rc = rl_summary_add(&c->sum, &op, &p);
	if (rc == 0 && c->timeline)
		rl_timeline_add_op(&c->tl, &op, &p);
	if (rc == 0)
		rc = rl_report_row(c->rep, &op, &p);
	if (rc == 0 && c->chart != NULL)
		rc = rl_chart_add(c->chart, &op, &p);
	return rc;
}

static int on_op(const struct rl_op *op, void *user)
{
	struct classify *c = user;
	struct rl_pred p;
	struct rl_err e;
	int rc;

	/* The reader has validated the op, so prediction cannot fail here. */
	rc = rl_predict(op, &c->ctx, &p, NULL);
	if (rc == 0)
		rc = rl_fuse_stream_op(&c->fs, op, &p, &e);
	if (rc == RL_ERR_PARSE)
		return op_error(c, op, &e);
	if (rc == 0 && c->scaling)
		rc = scaled_op(c, op);
	return rc;
}

int cmd_classify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"hw", required_argument, NULL, 'd'},
		{"roofs", required_argument, NULL, 'Q'},
		{"hwdb", required_argument, NULL, 'D'},
		{"runtime", required_argument, NULL, 'r'},
		{"host-overhead-us", required_argument, NULL, 'H'},
		{"format", required_argument, NULL, 'f'},
		{"timeline", no_argument, NULL, 't'},
		{"wide", no_argument, NULL, 'w'},
		{"l2", no_argument, NULL, 'L'},
		{"suggest-fusion", no_argument, NULL, 'F'},
		{"set", required_argument, NULL, 'S'},
		{"scale", required_argument, NULL, 'K'},
		{"output", required_argument, NULL, 'o'},
		{"svg", required_argument, NULL, 'G'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *hw = NULL, *roofs = NULL, *hwdb = NULL, *runtime = "eager", *output = NULL;
	const char *overhead = NULL, *scale = NULL, *svg = NULL;
	struct classify c;
	struct rl_chart_info chart_info;
	struct rl_out svg_out;
	struct rl_device owned;
	struct rl_errlist errs;
	struct rl_out out;
	struct rl_ops_sink sink = {on_header, on_op, &c, NULL};
	rl_hwdb *db;
	const struct rl_runtime *rt;
	int opt, rc, status = RL_EXIT_OK, suggest = 0;
	size_t i;

	memset(&c, 0, sizeof(c));
	memset(&owned, 0, sizeof(owned));
	rl_symbols_init(&c.syms);
	c.fmt = RL_FMT_TABLE;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":f:o:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd': hw = optarg; break;
		case 'Q':
			if (rl_cli_roofs_option("classify", optarg, &roofs) != 0)
				return RL_EXIT_USAGE;
			break;
		case 'D': hwdb = optarg; break;
		case 'r': runtime = optarg; break;
		case 'H': overhead = optarg; break;
		case 't': c.timeline = 1; break;
		case 'w': c.info.wide = 1; break;
		case 'L': c.info.l2 = 1; break;
		case 'F': suggest = 1; break;
		case 'K': scale = optarg; break;
		case 'S': {
			struct rl_err e;

			if (rl_symbols_set(&c.syms, optarg, &e) < 0)
				return rl_cli_usage("classify", "%s", e.msg);
			break;
		}
		case 'o': output = optarg; break;
		case 'G': svg = optarg; break;
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
	if (c.timeline && c.fmt == RL_FMT_CSV)
		return rl_cli_usage("classify", "--timeline needs --format table, json or md "
		                                "(csv has one row per op and no summary)");
	c.input = argv[optind];
	if (suggest && (c.fmt == RL_FMT_CSV || c.fmt == RL_FMT_JSON))
		return rl_cli_usage("classify", "--suggest-fusion writes table or md output");
	if (scale != NULL) {
		struct rl_err e;

		/* --set may come after --scale: scale factors are read last */
		if (rl_symbols_scale(&c.syms, scale, &e) < 0)
			return rl_cli_usage("classify", "%s", e.msg);
		if (c.fmt == RL_FMT_JSON || c.fmt == RL_FMT_MD)
			return rl_cli_usage("classify", "--scale writes table or csv output");
		if (suggest)
			return rl_cli_usage("classify", "--scale and --suggest-fusion do not combine");
		if (c.timeline || svg != NULL)
			return rl_cli_usage("classify", "--scale combines with neither --timeline "
			                                "nor --svg");
		if (c.info.l2)
			return rl_cli_usage("classify", "--scale and --l2 do not combine");
		rl_symbols_scale_label(&c.syms, c.scale_label, sizeof(c.scale_label));
		if (c.scale_label[0] == '\0')
			snprintf(c.scale_label, sizeof(c.scale_label), "every factor 1");
		c.scaling = 1;
	}
	if (overhead != NULL) {
		struct rl_err e;

		if (rl_parse_nonneg(overhead, &c.ctx.host_overhead_us, &e) < 0)
			return rl_cli_usage("classify", "--host-overhead-us: %s", e.msg);
	}

	db = rl_cli_open_hwdb(hwdb);
	if (db == NULL)
		return RL_EXIT_FAIL;
	c.ctx.dev = rl_cli_device(db, hw, &owned);
	if (c.ctx.dev != NULL)
		c.ctx.dev = rl_cli_roofs(c.ctx.dev, roofs, &owned);
	rt = c.ctx.dev == NULL ? NULL : rl_cli_runtime(db, runtime, overhead != NULL,
	                                                &c.ctx.host_overhead_us);
	if (rt == NULL) {
		rl_device_release(&owned);
		rl_hwdb_free(db);
		return RL_EXIT_FAIL;
	}
	c.info.dev = c.ctx.dev;
	rl_l2_init(&c.l2, c.ctx.dev, c.info.l2);
	c.info.runtime = rt->id;
	c.info.host_overhead_us = c.ctx.host_overhead_us;
	rl_timeline_init(&c.tl);
	if (c.timeline && rl_timeline_add_runtimes(&c.tl, db, rt, c.ctx.host_overhead_us) < 0) {
		rl_cli_error("%s", rl_strerror(RL_ERR_NOMEM));
		rl_timeline_release(&c.tl);
		rl_device_release(&owned);
		rl_hwdb_free(db);
		return RL_EXIT_FAIL;
	}
	if (c.timeline)
		c.info.timeline = &c.tl;

	if (rl_out_open(&out, output) < 0) {
		rl_timeline_release(&c.tl);
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
	c.errs = &errs;
	sink.names = &c.syms;
	rl_fuse_stream_init(&c.fs, &c.ctx, suggest, c.scaling ? on_kernel_base : on_kernel, &c);
	rl_fuse_stream_init(&c.fs2, &c.ctx, 0, on_kernel_scaled, &c);
	rl_scale_sum_init(&c.ssum);
	rc = rl_ops_read_path(c.input, &sink, &errs);
	rl_timeline_finish(&c.tl);
	if (rc == 0)
		rc = rl_fuse_stream_end(&c.fs, NULL);
	if (rc == 0 && c.scaling)
		rc = rl_fuse_stream_end(&c.fs2, NULL);
	if (rc == 0 && c.scaling)
		rc = rl_scale_report_end(c.out, c.fmt == RL_FMT_CSV, &c.ssum, c.scale_label);
	else if (rc == 0)
		rc = rl_report_end(c.rep, &c.sum);
	if (rc == 0 && !c.scaling && (c.fmt == RL_FMT_TABLE || c.fmt == RL_FMT_MD))
		rc = rl_whatif_fusion(c.out, &c.fs, c.sum.total_us, c.fmt == RL_FMT_MD);
	if (rc == 0 && c.chart != NULL)
		rc = rl_svg_roofline(svg_out.f, c.chart);
	if (rc < 0) {
		rl_cli_read_errors(&errs, c.input, rc);
		rl_out_abort(&out);
		if (c.chart != NULL)
			rl_out_abort(&svg_out);
		status = RL_EXIT_FAIL;
	} else {
		if (c.info.l2 && (c.fmt == RL_FMT_CSV || c.fmt == RL_FMT_JSON) &&
		    c.sum.l2_ops > 0 && !c.ctx.dev->num[RL_HW_L2_BANDWIDTH_GBS].present)
			rl_cli_error("warning: --l2: %s has no l2_bandwidth_gbs: its %zu L2-resident "
			             "op%s are predicted at memory bandwidth",
			             c.ctx.dev->id, c.sum.l2_ops, c.sum.l2_ops == 1 ? "" : "s");
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
	rl_fuse_stream_release(&c.fs);
	rl_fuse_stream_release(&c.fs2);
	for (i = 0; i < c.nwait; i++)
		free(c.wait[i].name);
	free(c.blank_extra);
	rl_summary_release(&c.sum);
	rl_timeline_release(&c.tl);
	rl_device_release(&owned);
	rl_hwdb_free(db);
	return status;
}
