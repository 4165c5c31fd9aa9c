/* fuzz_model.c - roofline model's library path (hfconfig.c, modelops.c,
 * modelstep.c, the pipeline, generate.c) on any bytes, with its options
 * varied. The first OPT_BYTES bytes choose the options within the ranges the
 * command accepts (phase, batch, seq, context, the three dtypes, the expert
 * imbalance, --train and its options, a tp/pp/dp/ep layout, its
 * micro-batches, --virtual-stages, --tp-comm-overlap, --sp and --zero, --generate N,
 * --max-batch, the format and --timeline; or roofline search over the
 * layout's GPUs);
 * the rest is the config.json. A config that reads is built and run
 * through the pipeline as the command runs it (report, what-if, memory fit
 * to /dev/null), or generated from (rl_generate_run), or searched for its
 * largest batch (rl_memfit_max_batch): every time and memory figure must be
 * finite and not negative, a step the builder takes must read back and run,
 * a refusal must be the builder's one message, and N output tokens must be
 * the prefill and N - 1 decode steps. The device, runtime, efficiency
 * profile and system come from the source tree's hwdb (RL_FUZZ_HWDB), read
 * once. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "effprof.h"
#include "fuzz.h"
#include "generate.h"
#include "hfconfig.h"
#include "hwdb.h"
#include "hwsystem.h"
#include "modelops.h"
#include "modelstep.h"
#include "search.h"
#include "parallel.h"
#include "pipeline.h"
#include "train.h"

#define OPT_BYTES 16

/* Generated tokens at most: every decode step is a run of the pipeline;
 * one input in 16 takes the blocked path (past RL_GENERATE_EXACT steps,
 * at most RL_GENERATE_MAX_EVALS of them run). */
#define MAX_EXACT_TOKENS 24

static struct {
	int ready;
	rl_hwdb *db;
	const struct rl_device *dev;
	const struct rl_runtime *rt;
	struct rl_effprof eff;
	int has_eff;
	struct rl_net net;
	double host_kind_us[RL_HOST_KEY_COUNT]; /* as the model indexes it (model.h) */
	FILE *null;
} hw;

static void setup(void)
{
	struct rl_err e;
	const struct rl_hwsystem *sys;
	int k;

	if (hw.ready)
		return;
	if (rl_hwdb_open(RL_FUZZ_HWDB, &hw.db, &e) < 0) {
		fprintf(stderr, "fuzz_model: %s\n", e.msg);
		abort();
	}
	sys = rl_hwdb_find_system(hw.db, "hgx-h100-8", &e);
	hw.dev = rl_hwdb_find_device(hw.db, "h100-sxm", &e);
	hw.rt = rl_hwdb_find_runtime(hw.db, "eager", &e);
	if (sys == NULL || hw.dev == NULL || hw.rt == NULL)
		abort();
	rl_hwsystem_net(sys, &hw.net);
	hw.net.max_nodes = 4; /* the system is one node; let layouts span more */
	hw.has_eff = rl_effprof_pick(rl_hwdb_dir(hw.db), hw.dev, &hw.eff, &e) > 0;
	for (k = 0; k < RL_HOST_KEY_COUNT; k++)
		hw.host_kind_us[k] = rl_runtime_host_us(hw.rt, k);
	hw.null = fopen("/dev/null", "w");
	if (hw.null == NULL)
		abort();
	hw.ready = 1;
}

/* A size from 1 to 2^24 on a log scale: 2^(x mod 25) scaled by the next
 * byte's share, so that both small and largest sizes come often. */
static uint64_t size_of(uint8_t a, uint8_t b)
{
	unsigned sh = a % 25;
	uint64_t base = (uint64_t)1 << sh, v = base + (base * b) / 256;

	return v < 1 ? 1 : v > RL_MODELOPS_MAX_SIZE ? RL_MODELOPS_MAX_SIZE : v;
}

static const uint64_t degrees[] = {1, 1, 2, 4, 8, 3, 16, 1};

static void check_finite(double v)
{
	if (!isfinite(v) || v < 0)
		abort();
}

static void check_errors(const struct rl_errlist *errs)
{
	/* a failed step says why: one message at least, each one line */
	size_t i;

	for (i = 0; i < errs->kept; i++)
		if (errs->msg[i][0] == '\0' || strchr(errs->msg[i], '\n') != NULL)
			abort();
}

struct gen {
	struct rl_modelstep st;
	struct rl_modelops_opts mo;
	struct rl_errlist *errs;
};

/* --max-batch's probe: the step at BATCH through the pipeline */
static int fit_step(void *user, uint64_t batch, int *fits)
{
	struct gen *w = user;
	rl_pipeline *pl;
	int rc;

	w->mo.batch = batch;
	rc = rl_modelstep_run(&w->st, &w->mo, &pl, w->errs);
	if (rc < 0)
		return rc;
	check_finite(rl_memfit_total_bytes(rl_pipeline_memfit(pl)));
	*fits = rl_memfit_fits(rl_pipeline_memfit(pl), hw.dev);
	rl_pipeline_free(pl);
	return 0;
}

static int gen_step(void *user, int prefill, uint64_t context, struct rl_generate_times *t)
{
	struct gen *w = user;
	rl_pipeline *pl;
	int rc;

	w->mo.phase = prefill ? RL_PHASE_PREFILL : RL_PHASE_DECODE;
	w->mo.context = prefill ? w->mo.seq : context;
	rc = rl_modelstep_run(&w->st, &w->mo, &pl, w->errs);
	if (rc < 0)
		return rc;
	t->expected_us = rl_pipeline_summary(pl)->total_us;
	t->roofline_us = rl_pipeline_summary(pl)->roofline_us;
	check_finite(t->expected_us);
	check_finite(t->roofline_us);
	check_finite(rl_memfit_total_bytes(rl_pipeline_memfit(pl)));
	rl_pipeline_free(pl);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rl_modelops_opts mo;
	struct rl_pipeline_model pm;
	struct rl_pipeline_sinks sinks;
	struct rl_train_opts tr;
	struct rl_parallel lay;
	struct rl_parallel_place place;
	struct rl_modelstep st;
	struct rl_modelops_row rows[RL_MODELOPS_MAX];
	struct rl_hfconfig cfg;
	struct rl_errlist errs;
	struct rl_err e;
	rl_pipeline *pl = NULL;
	const uint8_t *o = data;
	uint64_t tokens = 0;
	int maxb = 0;
	char *text;
	int rc, layout, train, prefill;

	if (size < OPT_BYTES)
		return 0;
	setup();
	text = malloc(size - OPT_BYTES + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data + OPT_BYTES, size - OPT_BYTES);
	text[size - OPT_BYTES] = '\0';
	rc = rl_hfconfig_parse(text, "fuzz.json", &cfg, &e);
	if (rc < 0) {
		free(text);
		return 0;
	}

	/* the options */
	memset(&mo, 0, sizeof(mo));
	prefill = o[0] & 1;
	train = (o[0] >> 1) & 1;
	layout = ((o[0] >> 2) & 3) == 3;
	mo.phase = prefill || train || cfg.encoder ? RL_PHASE_PREFILL : RL_PHASE_DECODE;
	mo.batch = size_of(o[1], o[2]);
	mo.seq = size_of(o[3], o[4]);
	mo.context = o[5] & 0x80 ? size_of(o[5], o[6]) : mo.seq;
	mo.dtype = (enum rl_dtype)(o[7] % RL_DTYPE_COUNT);
	if (rl_dtype_storage_only(mo.dtype))
		mo.dtype = RL_BF16;
	mo.weight_dtype = (enum rl_dtype)((o[7] >> 4) % RL_DTYPE_COUNT);
	mo.kv_dtype = (enum rl_dtype)(o[8] % RL_DTYPE_COUNT);
	mo.expert_imbalance = 1.0 + (double)(o[8] >> 4) * (o[9] & 1 ? 1000.0 : 0.25);
	if (cfg.family == RL_HF_VIT)
		mo.seq = mo.context = cfg.tokens;
	rl_train_opts_init(&tr);
	mo.train = train;
	if (train) {
		tr.optimizer = (enum rl_optimizer)((o[9] >> 1) % 4);
		tr.fused = (o[9] >> 3) & 1;
		tr.autocast = (o[9] >> 4) & 1;
		tr.master = !tr.autocast && ((o[9] >> 5) & 1);
		tr.recompute = (o[9] >> 6) & 1;
		tr.weight_decay = (o[9] >> 7) & 1;
		tr.state_dtype = (enum rl_dtype)(o[10] % RL_DTYPE_COUNT);
		if (rl_dtype_storage_only(tr.state_dtype))
			tr.state_dtype = RL_FP32;
		tr.grad_accum = 1 + (o[10] >> 4);
		/* int4 or fp4 weights train frozen only: the command's usage
		 * error, before the step is built (the builder refuses it too, with
		 * RL_ERR_ARG: tests/cli_model_limits.sh) */
		if (rl_dtype_storage_only(mo.weight_dtype))
			goto out;
	}
	memset(&lay, 0, sizeof(lay));
	if (layout) {
		lay.tp = degrees[o[11] & 7];
		lay.pp = degrees[(o[11] >> 3) & 7];
		lay.dp = degrees[o[12] & 7];
		lay.ep = degrees[(o[12] >> 3) & 7];
		lay.microbatches = (o[12] >> 6) == 3 ? 0 : degrees[o[12] >> 6];
		lay.vstages = 1 + (o[11] >> 6);
		lay.tp_comm_overlap = (o[15] >> 5) & 1;
		lay.sp = (o[14] >> 2) & 1;
		lay.zero = o[14] & 3;
	}
	/* --generate: decode of a decoder from --seq, one GPU, no training */
	if (!layout && !train && !prefill && !cfg.encoder && (o[13] & 1)) {
		tokens = 1 + (o[13] >> 1) % MAX_EXACT_TOKENS;
		if ((o[13] >> 1) % 16 == 15)
			tokens = RL_GENERATE_EXACT + 2 + (uint64_t)o[14] * 997;
	}

	/* --max-batch: one GPU's whole step */
	maxb = !layout && tokens == 0 && (o[13] & 3) == 2;

	memset(&pm, 0, sizeof(pm));
	pm.dev = hw.dev;
	pm.rt = hw.rt;
	pm.host_overhead_us = hw.rt->host_overhead_us.value;
	pm.host_kind_us = hw.host_kind_us;
	pm.eff = hw.has_eff ? &hw.eff : NULL;
	pm.db = hw.db;
	pm.best_case = (o[15] >> 3) & 1;
	pm.net = &hw.net;
	pm.train = train ? &tr : NULL;
	memset(&sinks, 0, sizeof(sinks));
	st.config = "fuzz.json";
	st.input = "fuzz.json (op list)";
	st.cfg = &cfg;
	st.model = &pm;
	st.sinks = NULL;
	rl_errlist_init(&errs);

	/* roofline search over as many GPUs as the layout's (at most 16): a
	 * quarter of the layouts. It tries each layout as the command's model
	 * would; what it keeps must be ranked and counted (search.h) */
	if (layout && (o[14] >> 6) == 3 && lay.tp * lay.pp * lay.dp <= 16) {
		struct rl_search_spec spec = {lay.tp * lay.pp * lay.dp, 3};
		struct rl_search_result res;
		size_t i;

		rc = rl_search_run(&st, &mo, &hw.net, &spec, &res, &errs, &e);
		if (rc < 0) {
			check_errors(&errs);
			/* no layout to try: the search's one message; a step's
			 * failure: the builder's refusal, with its message */
			if (rc != RL_ERR_NOMEM && errs.count == 0 &&
			    (e.msg[0] == '\0' || strchr(e.msg, '\n') != NULL))
				abort();
			rl_search_result_release(&res);
			goto out;
		}
		if (res.layouts != res.refused + res.tried || res.unfit > res.tried || res.n == 0 ||
		    res.n > spec.top || res.n > res.tried)
			abort();
		for (i = 0; i < res.n; i++) {
			const struct rl_search_row *r = &res.rows[i];

			check_finite(r->step_us);
			check_finite(r->memory_bytes);
			check_finite(r->tokens_per_s);
			if (r->lay.tp * r->lay.pp * r->lay.dp != spec.gpus || r->step_us < r->gpu_step_us ||
			    (i > 0 && r->fits && !res.rows[i - 1].fits) ||
			    (i > 0 && r->fits && r->step_us < res.rows[i - 1].step_us))
				abort();
		}
		rl_search_result_release(&res);
		goto out;
	}
	if (layout) {
		if (rl_parallel_check_model(&lay, &cfg, &e) < 0 ||
		    rl_parallel_place(&lay, mo.batch, cfg.layers, train, &hw.net, &place, &e) < 0)
			goto out; /* the command's error */
		mo.par = &place;
		pm.parallel = &place;
	}
	if (tokens > 0) {
		struct rl_generate_spec spec = {mo.batch, mo.seq, tokens, RL_MODELOPS_MAX_SIZE};
		struct gen w = {st, mo, &errs};
		struct rl_generate g;

		if (rl_generate_check(&spec, &e) < 0)
			goto out; /* a usage error */
		rc = rl_generate_run(&spec, gen_step, &w, &g, &e);
		if (rc < 0) {
			if (rc != RL_ERR_NOMEM && errs.count == 0)
				abort(); /* a failure without a message */
			check_errors(&errs);
			/* the builder's refusal, one message, and only then */
			if (rc != RL_ERR_NOMEM && (errs.count != 1 || rc != RL_ERR_RANGE))
				abort();
			goto out;
		}
		check_finite(g.total.expected_us);
		check_finite(g.total.roofline_us);
		check_finite(g.tokens_per_s);
		check_finite(g.tokens_per_s_roofline);
		/* N output tokens: the prefill and N - 1 decode steps (item 16) */
		if (g.steps != tokens - 1 ||
		    g.total.expected_us != g.prefill.expected_us + g.decode.expected_us ||
		    (g.total.expected_us > 0 &&
		     fabs(g.tokens_per_s * g.total.expected_us / 1e6 -
		          (double)mo.batch * (double)tokens) >
		         1e-9 * (double)mo.batch * (double)tokens))
			abort();
		if (g.steps > 0) {
			check_finite(g.per_token.expected_us);
			check_finite(g.per_token.roofline_us);
		} else if (!isnan(g.per_token.expected_us)) {
			abort();
		}
		if (g.evaluated > g.steps || !(g.error >= 0) ||
		    (g.steps > RL_GENERATE_EXACT && g.evaluated > RL_GENERATE_MAX_EVALS))
			abort();
		goto out;
	}
	if (maxb) {
		struct gen w = {st, mo, &errs};
		uint64_t b;

		rc = rl_memfit_max_batch(fit_step, &w, RL_MODELOPS_MAX_SIZE, &b);
		if (rc < 0) {
			if (rc != RL_ERR_NOMEM && (errs.count != 1 || rc != RL_ERR_RANGE))
				abort();
			goto out;
		}
		if (b > RL_MODELOPS_MAX_SIZE)
			abort();
		goto out;
	}
	/* the step as the command predicts it: the report and the what-if to
	 * /dev/null in one of the formats, the memory fit, the timeline */
	sinks.out = hw.null;
	sinks.fmt = (enum rl_format)(o[15] & 3);
	if (sinks.fmt == RL_FMT_CSV && ((o[15] >> 6) & 1))
		sinks.fmt = RL_FMT_HTML; /* the page: csv's cells, escaped */
	sinks.wide = (o[15] >> 2) & 1;
	sinks.whatif = 1;
	sinks.memfit = 1;
	sinks.timeline = sinks.fmt != RL_FMT_CSV && ((o[15] >> 4) & 1);
	st.sinks = &sinks;
	/* a step the builder takes reads back and runs: its refusals are the
	 * builder's, one message naming the config's keys, never the
	 * generated list's (issue 21, item 15) */
	if (rl_modelops_build(&cfg, &mo, rows, &e) < 0) {
		if (e.msg[0] == '\0' || strchr(e.msg, '\n') != NULL)
			abort();
		goto out;
	}
	rc = rl_modelstep_run(&st, &mo, &pl, &errs);
	if (rc < 0 && rc != RL_ERR_NOMEM) {
		fprintf(stderr, "fuzz_model: the built step failed: %s\n",
		        errs.kept > 0 ? errs.msg[0] : "(no message)");
		abort();
	}
	if (rc < 0)
		goto out;
	check_finite(rl_pipeline_summary(pl)->total_us);
	check_finite(rl_pipeline_summary(pl)->roofline_us);
	check_finite(rl_memfit_total_bytes(rl_pipeline_memfit(pl)));
out:
	rl_pipeline_free(pl);
	free(text);
	return 0;
}
