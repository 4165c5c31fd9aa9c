/* cmd_model.c - "roofline model": a Hugging Face config.json -> the op list
 * of one step, written (-f oplist) or classified as classify does. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dtype.h"
#include "family.h"
#include "generate_report.h"
#include "impl.h"
#include "ladder.h"
#include "hfconfig.h"
#include "modelops.h"
#include "modelprobe.h"
#include "modelstep.h"
#include "num.h"
#include "parallel.h"
#include "pipeline.h"

static int usage(void)
{
	char types[256], enc[128], text[640];

	/* the model_types from the family table (family.c) */
	rl_family_names(types, sizeof(types), 0, 0);
	rl_family_names(enc, sizeof(enc), 0, RL_FAMILY_DECODE);
	snprintf(text, sizeof(text),
	         "Build the op list of one step (prefill or decode) of a transformer from "
	         "its Hugging Face config.json (model_type %s; %s: encoders, prefill only), "
	         "and predict it as classify does, or write it (-f oplist).",
	         types, enc);
	printf("Usage: roofline model [OPTIONS] CONFIG.json\n\n");
	rl_cli_print_wrapped(stdout, text, 72);
	return rl_cli_help(RL_CMD_MODEL, "", "Exit status: 0 success, 1 bad input, 2 usage error.\n");
}

/* The errors of a step: the first only, the cause (the op list is
 * generated: a later error would be its echo), or RL_ERR_NOMEM's. */
static void step_errors(const struct rl_errlist *errs, const char *input, int rc)
{
	if (errs->kept > 0)
		rl_cli_error("%s", errs->msg[0]);
	else
		rl_cli_error("%s: %s", input, rl_strerror(rc));
}

/* --sweep, else --generate, else --max-batch over step MO of S, written to OUT.
 * Returns 0 or a negative status, its errors printed. */
static int probe_run(const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                     uint64_t gen, const struct rl_sweep_spec *sw, int ctx_given,
                     enum rl_format fmt, FILE *out)
{
	struct rl_modelprobe_max_batch mb;
	struct rl_generate g;
	struct rl_errlist errs;
	struct rl_err e;
	enum rl_modelprobe_size which;
	int rc;

	rl_errlist_init(&errs);
	e.msg[0] = '\0';
	if (sw->n) {
		rc = rl_modelprobe_sweep_size(sw->name, s->cfg, mo, ctx_given, &which, &e);
		if (rc == 0)
			rc = rl_modelprobe_sweep(s, mo, sw, which, fmt, out, &errs);
	} else if (gen) {
		rc = rl_modelprobe_generate(s, mo, gen, rl_cli_warn_sink, NULL, &g, &errs, &e);
		if (rc == 0)
			rc = rl_generate_report_write(out, fmt, &g);
	} else {
		rc = rl_modelprobe_max_batch(s, mo, &mb, &errs, &e);
		if (rc == 0)
			rl_modelprobe_max_batch_write(out, &mb);
	}
	if (rc < 0 && (errs.count > 0 || rc == RL_ERR_NOMEM))
		step_errors(&errs, s->input, rc);
	else if (rc < 0 && e.msg[0] != '\0')
		rl_cli_error("%s", e.msg);
	return rc;
}

/* The step MO in a few words: "decode, batch 1, context 512, bf16". */
static void step_name(char *buf, size_t len, const struct rl_modelops_opts *mo)
{
	if (mo->phase == RL_PHASE_DECODE)
		snprintf(buf, len, "decode, batch %llu, context %llu, %s",
		         (unsigned long long)mo->batch, (unsigned long long)mo->context,
		         rl_dtype_name(mo->dtype));
	else
		snprintf(buf, len, "%s, batch %llu, seq %llu, %s", mo->train ? "train" : "prefill",
		         (unsigned long long)mo->batch, (unsigned long long)mo->seq,
		         rl_dtype_name(mo->dtype));
}

/* --impl all: step MO of S under every implementation of the database,
 * each with its runtime profile (M's, when --runtime was given), written
 * to OUT as FMT. Returns 0 or a negative status, its errors printed. */
static int ladder(struct rl_cli_model_opts *m, struct rl_pipeline_model *pm,
                  const struct rl_modelstep *s, const struct rl_modelops_opts *mo,
                  int runtime_given, enum rl_format fmt, FILE *out)
{
	const char *cmd_runtime = m->runtime;
	struct rl_ladder_rung *rungs = NULL;
	struct rl_impl *impls = NULL;
	struct rl_errlist errs;
	struct rl_err e;
	size_t n = 0, i;
	int rc;

	rl_errlist_init(&errs);
	if ((rc = rl_impl_all(rl_cli_hwdb_dir(m->hwdb), &impls, &n, &e)) < 0) {
		rl_cli_error("%s", e.msg);
		return rc;
	}
	if ((rungs = calloc(n, sizeof(*rungs))) == NULL)
		rc = RL_ERR_NOMEM;
	for (i = 0; rc == 0 && i < n; i++) {
		if (!runtime_given) {
			m->runtime = impls[i].runtime != NULL ? impls[i].runtime : cmd_runtime;
			m->rt = NULL;
		}
		if (rl_cli_model_runtime(m) < 0) {
			rc = RL_ERR_ARG;
			break;
		}
		rl_cli_pipeline_model(m, pm);
		rc = rl_ladder_run(s, mo, &impls[i], &rungs[i], &errs);
		if (rc < 0)
			step_errors(&errs, s->input, rc);
	}
	if (rc == RL_ERR_NOMEM && errs.count == 0)
		rl_cli_error("out of memory");
	if (rc == 0) {
		rl_ladder_sort(rungs, n);
		if (fmt == RL_FMT_HTML) {
			char step[160];

			step_name(step, sizeof(step), mo);
			rc = rl_ladder_write_html(out, rungs, n, s->config, step, m->dev);
		} else {
			rc = rl_ladder_write(out, fmt, rungs, n);
		}
	}
	for (i = 0; i < n; i++)
		rl_impl_release(&impls[i]);
	free(impls);
	free(rungs);
	return rc;
}

/* BITS's phases or layouts (RL_FAMILY_*) as "decode train" or "tp pp dp
 * ep" into BUF; SEP between them. */
static const char *family_bits(char *buf, size_t len, unsigned bits, int layouts, const char *sep)
{
	static const struct {
		unsigned bit;
		const char *name;
	} phases[] = {{RL_FAMILY_DECODE, "decode"}, {RL_FAMILY_TRAIN, "train"}},
	  lays[] = {{RL_FAMILY_TP, "tp"}, {RL_FAMILY_PP, "pp"}, {RL_FAMILY_DP, "dp"},
	            {RL_FAMILY_EP, "ep"}};
	size_t i, n = layouts ? 4 : 2, used = 0;

	buf[0] = '\0';
	if (!layouts) /* every family runs a prefill */
		used += (size_t)snprintf(buf, len, "prefill");
	for (i = 0; i < n && used < len; i++)
		if (bits & (layouts ? lays[i].bit : phases[i].bit))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? sep : "",
			                         layouts ? lays[i].name : phases[i].name);
	return buf;
}

/* --families: the one table (family.c), a row a family: its name, its
 * model_types, phases, layouts and how many keys it reads, as `hw list`
 * lists the devices. */
static int list_families(enum rl_format fmt)
{
	char ph[64], lay[64];
	size_t i, j, nk;

	if (fmt == RL_FMT_CSV)
		puts("family,model_types,phases,layouts,keys");
	else if (fmt == RL_FMT_JSON)
		fputs("{\"families\":[", stdout);
	else
		printf("%-11s %-26s %-22s %-12s %s\n", "family", "model_types", "phases", "layouts",
		       "keys");
	for (i = 0; rl_families[i] != NULL; i++) {
		const struct rl_family *f = rl_families[i];
		char types[128];
		size_t used = 0;

		for (nk = 0; f->keys[nk] != NULL; nk++)
			;
		types[0] = '\0';
		for (j = 0; f->model_types[j] != NULL && used < sizeof(types); j++) {
			const char *sep = fmt == RL_FMT_TABLE ? ", " : fmt == RL_FMT_CSV ? " " : ",";

			used += (size_t)snprintf(types + used, sizeof(types) - used,
			                         fmt == RL_FMT_JSON ? "%s\"%s\"" : "%s%s", j ? sep : "",
			                         f->model_types[j]);
		}
		family_bits(ph, sizeof(ph), f->phases, 0, fmt == RL_FMT_JSON ? "\",\"" : " ");
		family_bits(lay, sizeof(lay), f->layouts, 1, fmt == RL_FMT_JSON ? "\",\"" : " ");
		if (fmt == RL_FMT_CSV)
			printf("%s,%s,%s,%s,%zu\n", f->name, types, ph, lay, nk);
		else if (fmt == RL_FMT_JSON)
			printf("%s{\"family\":\"%s\",\"model_types\":[%s],\"phases\":[\"%s\"],"
			       "\"layouts\":[\"%s\"],\"keys\":%zu}",
			       i ? "," : "", f->name, types, ph, lay, nk);
		else
			printf("%-11s %-26s %-22s %-12s %zu\n", f->name, types, ph, lay, nk);
	}
	if (fmt == RL_FMT_JSON)
		puts("]}");
	return fflush(stdout) == 0 ? RL_EXIT_OK : RL_EXIT_FAIL;
}

int cmd_model(int argc, char **argv)
{
	struct rl_cli_getopt go;
	const char *output = NULL;
	struct rl_cli_model_opts m;
	struct rl_cli_train_opts tr;
	struct rl_modelops_opts mo;
	struct rl_modelops_row rows[RL_MODELOPS_MAX];
	struct rl_hfconfig cfg;
	struct rl_parallel lay;
	struct rl_parallel_place place;
	struct rl_pipeline_model pm;
	struct rl_pipeline_sinks sinks;
	rl_pipeline *pl = NULL;
	struct rl_errlist errs;
	struct rl_outfiles outs;
	struct rl_outfile *out;
	struct rl_err e;
	struct rl_sweep_spec sw;
	char *listname = NULL;
	const char *impl_name = "fused";
	struct rl_impl impl;
	int runtime_given = 0;
	uint64_t gen = 0;
	int phase_given = 0, seq_given = 0;
	int opt, rc, n, oplist = 0, wdt = 0, kvdt = 0, ctx = 0, maxb = 0, status = RL_EXIT_FAIL;
	int families = 0;
	/* where each size and dtype option goes, and the flag that it was given */
	const struct { int opt; uint64_t *v; int *given; } sizes[] = {
		{RL_OPT_BATCH, &mo.batch, NULL},     {RL_OPT_SEQ, &mo.seq, &seq_given},
		{RL_OPT_CONTEXT, &mo.context, &ctx}, {RL_OPT_GENERATE, &gen, NULL},
		{RL_OPT_TP, &lay.tp, NULL},          {RL_OPT_PP, &lay.pp, NULL},
		{RL_OPT_DP, &lay.dp, NULL},          {RL_OPT_EP, &lay.ep, NULL},
		{RL_OPT_MICROBATCHES, &lay.microbatches, NULL},
		{RL_OPT_VIRTUAL_STAGES, &lay.vstages, NULL},
		{RL_OPT_WEIGHT_GROUP, &mo.weight_group, NULL},
	};
	const struct { int opt; enum rl_dtype *v; int *given; } dtypes[] = {
		{RL_OPT_DTYPE, &mo.dtype, NULL},
		{RL_OPT_WEIGHT_DTYPE, &mo.weight_dtype, &wdt},
		{RL_OPT_KV_DTYPE, &mo.kv_dtype, &kvdt},
	};
	size_t i;

	memset(&pm, 0, sizeof(pm));
	memset(&impl, 0, sizeof(impl));
	memset(&sinks, 0, sizeof(sinks));
	rl_outfiles_init(&outs);
	memset(&sw, 0, sizeof(sw));
	memset(&lay, 0, sizeof(lay));
	rl_cli_model_init(&m, "model", "eager");
	rl_cli_train_init(&tr);
	rl_errlist_init(&errs);
	sinks.fmt = RL_FMT_TABLE;
	rl_cli_step_init(&mo);
	rl_cli_getopt(RL_CMD_MODEL, &go);
	while ((opt = getopt_long(argc, argv, go.shortopts, go.longopts, NULL)) != -1) {
		switch (opt) {
		RL_CLI_MODEL_CASES:
			if (rl_cli_model_option(&m, opt, optarg) != 0)
				return RL_EXIT_USAGE;
			runtime_given |= opt == RL_OPT_RUNTIME;
			break;
		case RL_OPT_IMPL: impl_name = optarg; break;
		case RL_OPT_TP_COMM_OVERLAP: lay.tp_comm_overlap = 1; break;
		case RL_OPT_SP: lay.sp = 1; break;
		case RL_OPT_ZERO:
			if (strlen(optarg) != 1 || optarg[0] < '0' || optarg[0] > '3')
				return rl_cli_usage("model", "--zero: '%s' is not a stage 0 to 3", optarg);
			lay.zero = optarg[0] - '0';
			break;
		case RL_OPT_PHASE:
			phase_given = 1;
			if (strcmp(optarg, "decode") == 0)
				mo.phase = RL_PHASE_DECODE;
			else if (strcmp(optarg, "prefill") == 0)
				mo.phase = RL_PHASE_PREFILL;
			else
				return rl_cli_usage("model", "--phase: unknown phase '%s' (expected "
				                             "prefill or decode)", optarg);
			break;
		case RL_OPT_BATCH: case RL_OPT_SEQ: case RL_OPT_CONTEXT: case RL_OPT_GENERATE:
		case RL_OPT_TP: case RL_OPT_PP: case RL_OPT_DP: case RL_OPT_EP:
		case RL_OPT_MICROBATCHES: case RL_OPT_VIRTUAL_STAGES: case RL_OPT_WEIGHT_GROUP:
			for (i = 0; sizes[i].opt != opt; i++)
				;
			if (rl_cli_size_option("model", opt, optarg, RL_MODELOPS_MAX_SIZE, sizes[i].v) != 0)
				return RL_EXIT_USAGE;
			if (sizes[i].given != NULL)
				*sizes[i].given = 1;
			break;
		case RL_OPT_DTYPE: case RL_OPT_WEIGHT_DTYPE: case RL_OPT_KV_DTYPE:
			for (i = 0; dtypes[i].opt != opt; i++)
				;
			if (rl_cli_dtype_option("model", opt, optarg, dtypes[i].v) != 0)
				return RL_EXIT_USAGE;
			if (dtypes[i].given != NULL)
				*dtypes[i].given = 1;
			break;
		case RL_OPT_MAX_BATCH: maxb = 1; break;
		case RL_OPT_FAMILIES: families = 1; break;
		case RL_OPT_EXPERT_IMBALANCE: {
			struct rl_err perr;

			if (rl_parse_nonneg(optarg, &mo.expert_imbalance, &perr) < 0 ||
			    !(mo.expert_imbalance >= 1.0) || mo.expert_imbalance > 1e6)
				return rl_cli_usage("model", "--expert-imbalance: '%s' is not a number "
				                             "from 1 to 1e6", optarg);
			break;
		}
		case RL_OPT_MLA:
			if (strcmp(optarg, "absorb") != 0 && strcmp(optarg, "naive") != 0)
				return rl_cli_usage("model", "--mla: '%s' is not absorb or naive",
				                    optarg);
			mo.mla_naive = strcmp(optarg, "naive") == 0;
			break;
		case RL_OPT_TIMELINE: sinks.timeline = 1; break;
		RL_CLI_TRAIN_CASES:
			if (rl_cli_train_option(&tr, "model", opt, optarg) != 0)
				return RL_EXIT_USAGE;
			break;
		case RL_OPT_SWEEP:
			if (rl_modelprobe_sweep_parse(optarg, &sw, &e) < 0)
				return rl_cli_usage("model", "%s", e.msg);
			break;
		case RL_OPT_WIDE: sinks.wide = 1; break;
		case 'o': output = optarg; break;
		case 'f':
			if (strcmp(optarg, "oplist") == 0)
				oplist = 1;
			else if (rl_format_parse(optarg, &sinks.fmt) < 0)
				return rl_cli_usage("model", "unknown format '%s' (expected table, csv, "
				                             "json, md, html or oplist)", optarg);
			break;
		default: return rl_cli_option_other("model", opt, usage, argv);
		}
	}
	if (families) {
		if (optind != argc || oplist || sinks.fmt == RL_FMT_MD || sinks.fmt == RL_FMT_HTML)
			return rl_cli_usage("model", "--families takes no config.json and -f table, "
			                             "csv or json");
		return list_families(sinks.fmt);
	}
	if (optind != argc - 1)
		return rl_cli_usage("model", optind == argc ? "no config.json given"
		                                             : "more than one config.json given");
	if (rl_cli_train_check(&tr, "model") != 0)
		return RL_EXIT_USAGE;
	{
		struct rl_modelprobe_modes md = {maxb, gen, sw.n, oplist, sinks.fmt == RL_FMT_CSV,
		                                 sinks.timeline, rl_parallel_active(&lay) ||
		                                 lay.microbatches != 0, tr.train, ctx, phase_given,
		                                 sinks.fmt == RL_FMT_HTML,
		                                 lay.pp > 1 || lay.microbatches != 0 || lay.vstages != 0};

		if (rl_modelprobe_modes_check(&md, &mo, &e) < 0)
			return rl_cli_usage("model", "%s", e.msg);
	}
	rl_cli_step_settle(&mo, tr.train, ctx, wdt, kvdt);
	/* what is read and written, checked and opened before anything is
	 * read */
	rl_outfiles_input(&outs, "the config", argv[optind]);
	rl_cli_model_inputs(&m, &outs);
	out = rl_outfiles_add(&outs, "-o", output);
	if ((rc = rl_cli_outputs_open(&outs)) != 0)
		return rc;

	/* From here on, every exit goes through out: */
	if (strcmp(impl_name, "all") == 0) {
		if (oplist || maxb || gen || sw.n || sinks.timeline) {
			rl_cli_error("--impl all writes one row per implementation: not with -f "
			             "oplist, --max-batch, --generate, --sweep or --timeline");
			status = RL_EXIT_USAGE;
			goto out;
		}
	} else if (rl_impl_find(rl_cli_hwdb_dir(m.hwdb), impl_name, &impl, &e) < 0) {
		rl_cli_error("%s", e.msg);
		goto out;
	} else {
		mo.impl = &impl;
		if (!runtime_given && impl.runtime != NULL)
			m.runtime = impl.runtime;
	}
	if (rl_hfconfig_read(argv[optind], &cfg, &e) < 0) {
		rl_cli_error("%s", e.msg);
		goto out;
	}
	/* an encoder (bert, vit) runs its prefill only; vit's tokens come from
	 * the image */
	if (cfg.encoder && gen) {
		rl_cli_error("--generate: model_type %s is an encoder (no decode steps)",
		             cfg.model_type);
		goto out;
	}
	if (cfg.encoder && !phase_given)
		mo.phase = RL_PHASE_PREFILL;
	if (cfg.tokens > 0) {
		if (seq_given) {
			rl_cli_error("--seq: model_type %s takes (image_size / patch_size)^2 + 1 = "
			             "%llu tokens per image",
			             cfg.model_type, (unsigned long long)cfg.tokens);
			goto out;
		}
		mo.seq = cfg.tokens;
	}
	/* a layout is placed on --hw's system, even for -f oplist (the
	 * collectives' ranks and nodes) */
	if (rl_parallel_active(&lay) || lay.microbatches || lay.vstages || lay.tp_comm_overlap ||
	    lay.zero || lay.sp) {
		/* --max-batch and a swept batch place the layout again for each
		 * batch: here its checks, at one sequence a replica */
		if (maxb || (sw.n > 0 && strcmp(sw.name, "batch") == 0))
			mo.batch = lay.dp > 0 ? lay.dp : 1;
		if (rl_cli_model_resolve(&m) < 0)
			goto out;
		if (rl_parallel_check_model(&lay, &cfg, &e) < 0 ||
		    rl_parallel_place(&lay, mo.batch, cfg.layers, tr.train, m.has_net ? &m.net : NULL,
		                      &place, &e) < 0) {
			rl_cli_error("%s", e.msg);
			goto out;
		}
		mo.par = &place;
	}
	n = rl_modelops_build(&cfg, &mo, rows, &e);
	if (n < 0) {
		rl_cli_error("%s", e.msg);
		goto out;
	}
	if (!oplist && mo.par == NULL && rl_cli_model_resolve(&m) < 0)
		goto out;
	if (oplist) {
		rl_modelstep_write(out->f, argv[optind], &mo, rows, n);
		if (rl_cli_outputs_commit(&outs) == 0)
			status = RL_EXIT_OK;
		goto out;
	}
	listname = malloc(strlen(argv[optind]) + sizeof(" (op list)"));
	if (listname == NULL) {
		rl_cli_error("out of memory");
		goto out;
	}
	sprintf(listname, "%s (op list)", argv[optind]);
	rl_cli_pipeline_model(&m, &pm);
	pm.train = tr.train ? &tr.t : NULL;
	if (mo.impl == NULL) {
		struct rl_modelstep st = {argv[optind], listname, &cfg, &pm, NULL};

		if (ladder(&m, &pm, &st, &mo, runtime_given, sinks.fmt, out->f) == 0 &&
		    rl_cli_outputs_commit(&outs) == 0)
			status = RL_EXIT_OK;
		goto out;
	}
	if (maxb || gen || sw.n) {
		struct rl_modelstep st = {argv[optind], listname, &cfg, &pm, NULL};

		/* --generate's steps: each GPU's share of the layout (--max-batch
		 * places it again per batch; a sweep keeps the rows' share) */
		if (gen)
			pm.parallel = mo.par;

		if (probe_run(&st, &mo, gen, &sw, ctx, sinks.fmt, out->f) == 0 &&
		    rl_cli_outputs_commit(&outs) == 0)
			status = RL_EXIT_OK;
		goto out;
	}
	pm.parallel = mo.par;
	pm.impl = impl.id;
	sinks.out = out->f;
	sinks.whatif = 1;
	sinks.memfit = 1;
	{
		struct rl_modelstep st = {argv[optind], listname, &cfg, &pm, &sinks};

		rc = rl_modelstep_run(&st, &mo, &pl, &errs);
	}
	if (rc == RL_ERR_IO && errs.count == 0 && rl_outfiles_failed(&outs)) {
		rl_cli_outputs_commit(&outs); /* fails, naming the output */
		goto out;
	}
	if (rc < 0) {
		step_errors(&errs, listname, rc);
		goto out;
	}
	rl_cli_memfit_warning(rl_pipeline_memfit(pl), m.dev);
	if (rl_cli_outputs_commit(&outs) == 0)
		status = RL_EXIT_OK;
out:
	free(listname);
	rl_impl_release(&impl);
	rl_outfiles_release(&outs);
	rl_pipeline_free(pl);
	rl_cli_model_release(&m);
	return status;
}
