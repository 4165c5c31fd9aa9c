/* cmd_search.c - "roofline search": every parallel layout of a model's step
 * on a system, ranked by the step's time (search.h). */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dtype.h"
#include "hfconfig.h"
#include "modelops.h"
#include "modelstep.h"
#include "num.h"
#include "search.h"
#include "search_report.h"

static int usage(void)
{
	printf("Usage: roofline search [OPTIONS] CONFIG.json --hw SYSTEM --gpus N\n\n");
	rl_cli_print_wrapped(
	    stdout,
	    "Every parallel layout of one step of a Hugging Face config.json on N GPUs of a "
	    "system: tensor, pipeline, data and expert parallelism that divide the GPUs and the "
	    "model, the micro-batches (a training step: every divisor of a replica's sequences), "
	    "the interleaved schedule's chunks, the tensor-parallel all-reduces overlapped with "
	    "the GEMMs, and recomputation (a training step), each step predicted as roofline "
	    "model predicts it with those options; ranked by the step's time, the layouts whose "
	    "memory fits first. --batch is the whole step's (all replicas); a training step "
	    "(--train) runs over --batch x --seq tokens. docs/parallel.md, \"Search\".",
	    72);
	return rl_cli_help(RL_CMD_SEARCH, "", "Exit status: 0 success, 1 bad input, 2 usage error.\n");
}

int cmd_search(int argc, char **argv)
{
	struct rl_cli_getopt go;
	struct rl_cli_model_opts m;
	struct rl_cli_train_opts tr;
	struct rl_modelops_opts mo;
	struct rl_hfconfig cfg;
	struct rl_pipeline_model pm;
	struct rl_search_spec spec = {0, 5};
	struct rl_search_result res;
	struct rl_search_info info;
	struct rl_errlist errs;
	struct rl_outfiles outs;
	struct rl_outfile *out;
	struct rl_err e;
	enum rl_format fmt = RL_FMT_TABLE;
	const char *output = NULL;
	char listname[512], step[160];
	uint64_t top = 5;
	int opt, rc, status = RL_EXIT_FAIL, ctx = 0, wdt = 0, kvdt = 0, phase_given = 0;

	memset(&pm, 0, sizeof(pm));
	rl_outfiles_init(&outs);
	rl_search_result_init(&res);
	rl_cli_model_init(&m, "search", "eager");
	rl_cli_train_init(&tr);
	rl_errlist_init(&errs);
	rl_cli_step_init(&mo);
	rl_cli_getopt(RL_CMD_SEARCH, &go);
	while ((opt = getopt_long(argc, argv, go.shortopts, go.longopts, NULL)) != -1) {
		switch (opt) {
		RL_CLI_MODEL_CASES:
			if (rl_cli_model_option(&m, opt, optarg) != 0)
				return RL_EXIT_USAGE;
			break;
		RL_CLI_TRAIN_CASES:
			if (rl_cli_train_option(&tr, "search", opt, optarg) != 0)
				return RL_EXIT_USAGE;
			break;
		case RL_OPT_PHASE:
			phase_given = 1;
			if (strcmp(optarg, "decode") == 0)
				mo.phase = RL_PHASE_DECODE;
			else if (strcmp(optarg, "prefill") == 0)
				mo.phase = RL_PHASE_PREFILL;
			else
				return rl_cli_usage("search", "--phase: unknown phase '%s' (expected "
				                              "prefill or decode)", optarg);
			break;
		case RL_OPT_BATCH:
			if (rl_cli_size_option("search", opt, optarg, RL_MODELOPS_MAX_SIZE,
			                       &mo.batch) != 0)
				return RL_EXIT_USAGE;
			break;
		case RL_OPT_SEQ:
			if (rl_cli_size_option("search", opt, optarg, RL_MODELOPS_MAX_SIZE,
			                       &mo.seq) != 0)
				return RL_EXIT_USAGE;
			break;
		case RL_OPT_CONTEXT:
			if (rl_cli_size_option("search", opt, optarg, RL_MODELOPS_MAX_SIZE,
			                       &mo.context) != 0)
				return RL_EXIT_USAGE;
			ctx = 1;
			break;
		case RL_OPT_WEIGHT_GROUP:
			if (rl_cli_size_option("search", opt, optarg, RL_MODELOPS_MAX_SIZE,
			                       &mo.weight_group) != 0)
				return RL_EXIT_USAGE;
			break;
		case RL_OPT_GPUS:
			if (rl_cli_size_option("search", opt, optarg, 1u << 20,
			                       &spec.gpus) != 0)
				return RL_EXIT_USAGE;
			break;
		case RL_OPT_TOP:
			if (rl_cli_size_option("search", opt, optarg, 1000,
			                       &top) != 0)
				return RL_EXIT_USAGE;
			spec.top = (size_t)top;
			break;
		case RL_OPT_DTYPE:
			if (rl_cli_dtype_option("search", opt, optarg, &mo.dtype) != 0)
				return RL_EXIT_USAGE;
			break;
		case RL_OPT_WEIGHT_DTYPE:
			if (rl_cli_dtype_option("search", opt, optarg, &mo.weight_dtype) != 0)
				return RL_EXIT_USAGE;
			wdt = 1;
			break;
		case RL_OPT_KV_DTYPE:
			if (rl_cli_dtype_option("search", opt, optarg, &mo.kv_dtype) != 0)
				return RL_EXIT_USAGE;
			kvdt = 1;
			break;
		case RL_OPT_EXPERT_IMBALANCE: {
			struct rl_err perr;

			if (rl_parse_nonneg(optarg, &mo.expert_imbalance, &perr) < 0 ||
			    !(mo.expert_imbalance >= 1.0) || mo.expert_imbalance > 1e6)
				return rl_cli_usage("search", "--expert-imbalance: '%s' is not a number "
				                              "from 1 to 1e6", optarg);
			break;
		}
		case 'o': output = optarg; break;
		case 'f':
			if (rl_format_parse(optarg, &fmt) < 0 || fmt == RL_FMT_MD)
				return rl_cli_usage("search", "unknown format '%s' (expected table, csv, "
				                              "json or html)", optarg);
			break;
		default: return rl_cli_option_other("search", opt, usage, argv);
		}
	}
	if (optind != argc - 1)
		return rl_cli_usage("search", optind == argc ? "no config.json given"
		                                              : "more than one config.json given");
	if (spec.gpus == 0)
		return rl_cli_usage("search", "--gpus N: the GPUs to lay the step out on");
	if (rl_cli_train_check(&tr, "search") != 0)
		return RL_EXIT_USAGE;
	if (tr.train && (ctx || (phase_given && mo.phase != RL_PHASE_PREFILL)))
		return rl_cli_usage("search", "--train: a training step runs over --batch x --seq "
		                              "tokens: not with %s",
		                    ctx ? "--context" : "--phase decode");
	rl_cli_step_settle(&mo, tr.train, ctx, wdt, kvdt);
	rl_outfiles_input(&outs, "the config", argv[optind]);
	rl_cli_model_inputs(&m, &outs);
	out = rl_outfiles_add(&outs, "-o", output);
	if ((rc = rl_cli_outputs_open(&outs)) != 0)
		return rc;

	/* From here on, every exit goes through out: */
	if (rl_hfconfig_read(argv[optind], &cfg, &e) < 0) {
		rl_cli_error("%s", e.msg);
		goto out;
	}
	if (cfg.encoder && !phase_given)
		mo.phase = RL_PHASE_PREFILL;
	if (cfg.tokens > 0)
		mo.seq = mo.context = cfg.tokens;
	if (rl_cli_model_resolve(&m) < 0)
		goto out;
	if (!m.has_net && spec.gpus > 1) {
		rl_cli_error("--hw %s is one GPU: search lays a step out on a system's "
		             "(roofline hw systems)",
		             m.dev->id);
		goto out;
	}
	snprintf(listname, sizeof(listname), "%s (op list)", argv[optind]);
	rl_cli_pipeline_model(&m, &pm);
	pm.train = tr.train ? &tr.t : NULL;
	{
		struct rl_modelstep st = {argv[optind], listname, &cfg, &pm, NULL};

		rc = rl_search_run(&st, &mo, m.has_net ? &m.net : NULL, &spec, &res, &errs, &e);
	}
	if (rc < 0) {
		if (errs.kept > 0)
			rl_cli_error("%s", errs.msg[0]);
		else if (rc == RL_ERR_NOMEM)
			rl_cli_error("out of memory");
		else
			rl_cli_error("%s", e.msg);
		goto out;
	}
	if (mo.train)
		snprintf(step, sizeof(step), "train, batch %llu x seq %llu",
		         (unsigned long long)mo.batch, (unsigned long long)mo.seq);
	else if (mo.phase == RL_PHASE_PREFILL)
		snprintf(step, sizeof(step), "prefill, batch %llu, seq %llu",
		         (unsigned long long)mo.batch, (unsigned long long)mo.seq);
	else
		snprintf(step, sizeof(step), "decode, batch %llu, context %llu",
		         (unsigned long long)mo.batch, (unsigned long long)mo.context);
	memset(&info, 0, sizeof(info));
	info.config = argv[optind];
	info.step = step;
	info.system = m.has_net ? m.net.name : NULL;
	info.dev = m.dev;
	info.runtime = m.rt->id;
	info.gpus = spec.gpus;
	rc = rl_search_report_write(out->f, fmt, &info, &res);
	if (rc < 0 && rc != RL_ERR_IO)
		rl_cli_error("%s", rl_strerror(rc));
	else if (rl_cli_outputs_commit(&outs) == 0)
		status = RL_EXIT_OK;
out:
	rl_search_result_release(&res);
	rl_outfiles_release(&outs);
	rl_cli_model_release(&m);
	return status;
}
