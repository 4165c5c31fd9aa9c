/* cmd_classify.c - "roofline classify": op list + device -> per-op verdicts. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "model.h"
#include "num.h"
#include "oplist.h"
#include "report.h"
#include "summary.h"
#include "timeline.h"

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
	       "      --timeline            simulate one step on the host and the GPU for\n"
	       "                            every runtime profile: step time, GPU idle time,\n"
	       "                            GPU-Util (table, json, md; docs/timeline.md)\n"
	       "      --wide                table: show every column, names uncut\n"
	       "  -o, --output FILE         write to FILE (whole or not at all) instead of\n"
	       "                            standard output\n"
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
	if (rc == 0 && c->timeline)
		rl_timeline_add_op(&c->tl, op, &p);
	if (rc == 0)
		rc = rl_report_row(c->rep, op, &p);
	return rc;
}

/* One timeline lane per runtime profile of DB, in its order; the report's
 * own runtime RT at HOST_US (which --host-overhead-us may have set). */
static int add_lanes(struct rl_timeline *tl, const rl_hwdb *db, const struct rl_runtime *rt,
                     double host_us)
{
	size_t i;

	for (i = 0; i < rl_hwdb_runtime_count(db); i++) {
		const struct rl_runtime *r = rl_hwdb_runtime(db, i);
		int rc = rl_timeline_add_runtime(tl, r->id,
		                                 r == rt ? host_us : r->host_overhead_us.value,
		                                 rl_tl_mode_of(r->id), r == rt);

		if (rc < 0)
			return rc;
	}
	return 0;
}

int cmd_classify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"hw", required_argument, NULL, 'd'},
		{"hwdb", required_argument, NULL, 'D'},
		{"runtime", required_argument, NULL, 'r'},
		{"host-overhead-us", required_argument, NULL, 'H'},
		{"format", required_argument, NULL, 'f'},
		{"timeline", no_argument, NULL, 't'},
		{"wide", no_argument, NULL, 'w'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *hw = NULL, *hwdb = NULL, *runtime = "eager", *output = NULL;
	const char *overhead = NULL;
	struct classify c;
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
		case 't': c.timeline = 1; break;
		case 'w': c.info.wide = 1; break;
		case 'o': output = optarg; break;
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
	rl_timeline_init(&c.tl);
	if (c.timeline && add_lanes(&c.tl, db, rt, c.ctx.host_overhead_us) < 0) {
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
	rl_summary_init(&c.sum);
	rl_errlist_init(&errs);
	rc = rl_ops_read_path(c.input, &sink, &errs);
	rl_timeline_finish(&c.tl);
	if (rc == 0)
		rc = rl_report_end(c.rep, &c.sum);
	if (rc < 0) {
		for (i = 0; i < errs.kept; i++)
			rl_cli_error("%s", errs.msg[i]);
		if (errs.count > errs.kept)
			rl_cli_error("%zu more errors not shown", errs.count - errs.kept);
		if (errs.count == 0)
			rl_cli_error("%s: %s", c.input, rl_strerror(rc));
		rl_out_abort(&out);
		status = RL_EXIT_FAIL;
	} else {
		if (c.fmt == RL_FMT_CSV && c.sum.fallbacks > 0)
			rl_cli_error("warning: %zu op%s rated on a fallback pipe: the device lacks the "
			             "dtype's own (see --format json, \"pipe\")",
			             c.sum.fallbacks, c.sum.fallbacks == 1 ? "" : "s");
		if (rl_out_commit(&out) < 0)
			status = RL_EXIT_FAIL;
	}
	rl_report_free(c.rep);
	rl_summary_release(&c.sum);
	rl_timeline_release(&c.tl);
	rl_device_release(&owned);
	rl_hwdb_free(db);
	return status;
}
