/* fuzz_impl.c - implementation files (impl.c over kvfile.c and the shape
 * expressions of symbols.c) on any bytes, and the steps built from one.
 *
 * The first OPT_BYTES bytes choose a step (the model, prefill, decode or a
 * training forward, the batch and the sequence or context, within a few
 * thousand) and a choice spec; the rest is loaded as a NAME.impl file. A
 * file that does not load must say why in one line. One that loads has its
 * choice applied (a refusal is one line too), then drives the model builder
 * over the chosen config: the step is built (a refusal is one message,
 * naming the file or the config) and run through the pipeline as `model
 * --impl` runs it; every time, kernel count and memory figure must be
 * finite and not negative. The device, runtime and efficiency profile come
 * from the source tree's hwdb (RL_FUZZ_HWDB), the configs from its examples
 * and tests/data/impl (RL_FUZZ_SRC), read once. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "effprof.h"
#include "fuzz.h"
#include "hfconfig.h"
#include "hwdb.h"
#include "impl.h"
#include "modelops.h"
#include "modelstep.h"
#include "pipeline.h"
#include "train.h"

#define OPT_BYTES 4

static const char *const configs[] = {
	"tests/data/impl/llama3-8b-l2.json",
	"tests/data/impl/qwen3-8b-l2.json",
	"tests/data/impl/mixtral-8x7b-l2.json",
	"examples/gpt2.json",
	"tests/data/impl/falcon-7b-l2.json",
	"tests/data/impl/deepseek-v2-lite-l2.json",
	"tests/data/impl/gpt-oss-20b-l2.json",
	"tests/data/impl/deepseek-v3-l2.json",
};
#define NCONFIGS (sizeof(configs) / sizeof(configs[0]))

static const char *const specs[] = {"x", "x:logits=all", "x:logits=last", "x:nosuch=1"};

static struct {
	int ready;
	rl_hwdb *db;
	const struct rl_device *dev;
	const struct rl_runtime *rt;
	struct rl_effprof eff;
	int has_eff;
	double host_kind_us[RL_HOST_KEY_COUNT];
	struct rl_hfconfig cfg[NCONFIGS];
	FILE *null;
} hw;

static char *slurp(const char *rel)
{
	char path[4096];
	FILE *f;
	long n;
	char *s;

	snprintf(path, sizeof(path), "%s/%s", RL_FUZZ_SRC, rel);
	f = fopen(path, "rb");
	if (f == NULL || fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0)
		abort();
	s = malloc((size_t)n + 1);
	if (s == NULL || fread(s, 1, (size_t)n, f) != (size_t)n)
		abort();
	s[n] = '\0';
	fclose(f);
	return s;
}

static void setup(void)
{
	struct rl_err e;
	size_t i;
	int k;

	if (hw.ready)
		return;
	if (rl_hwdb_open(RL_FUZZ_HWDB, &hw.db, &e) < 0) {
		fprintf(stderr, "fuzz_impl: %s\n", e.msg);
		abort();
	}
	hw.dev = rl_hwdb_find_device(hw.db, "h200-sxm", &e);
	hw.rt = rl_hwdb_find_runtime(hw.db, "eager", &e);
	if (hw.dev == NULL || hw.rt == NULL)
		abort();
	hw.has_eff = rl_effprof_pick(rl_hwdb_dir(hw.db), hw.dev, &hw.eff, &e) > 0;
	for (k = 0; k < RL_HOST_KEY_COUNT; k++)
		hw.host_kind_us[k] = rl_runtime_host_us(hw.rt, k);
	for (i = 0; i < NCONFIGS; i++) {
		char *text = slurp(configs[i]);

		if (rl_hfconfig_parse(text, configs[i], &hw.cfg[i], &e) < 0) {
			fprintf(stderr, "fuzz_impl: %s\n", e.msg);
			abort();
		}
		free(text);
	}
	hw.null = fopen("/dev/null", "w");
	if (hw.null == NULL)
		abort();
	hw.ready = 1;
}

static void one_line(const char *msg)
{
	if (msg[0] == '\0' || strchr(msg, '\n') != NULL) {
		fprintf(stderr, "fuzz_impl: a message of %s lines\n", msg[0] ? "several" : "no");
		abort();
	}
}

static void check_finite(double v)
{
	if (!isfinite(v) || v < 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct rl_hfconfig *cfg;
	struct rl_modelops_opts mo;
	struct rl_modelops_row rows[RL_MODELOPS_MAX];
	struct rl_pipeline_model pm;
	struct rl_pipeline_sinks sinks;
	struct rl_train_opts tr;
	struct rl_modelstep st;
	struct rl_errlist errs;
	struct rl_impl im;
	struct rl_err e;
	rl_pipeline *pl = NULL;
	char path[32], choices[256];
	int fd, n, c, rc;

	if (size < OPT_BYTES)
		return 0;
	setup();
	fd = fuzz_memfile(data + OPT_BYTES, size - OPT_BYTES, path);
	rc = rl_impl_load(path, &im, &e);
	close(fd);
	if (rc < 0) {
		one_line(e.msg);
		return 0;
	}
	rl_impl_choices_text(&im, choices, sizeof(choices));
	if ((data[0] >> 6) != 0 && rl_impl_choose(&im, specs[data[0] >> 6], &e) < 0) {
		one_line(e.msg);
		goto out;
	}
	cfg = &hw.cfg[data[0] % NCONFIGS];
	for (c = 0; c < RL_IMPL_COMP_COUNT; c++)
		n = rl_impl_names(&im, (enum rl_impl_comp)c, cfg->family), (void)n;

	memset(&mo, 0, sizeof(mo));
	mo.phase = (data[0] >> 2) & 1 ? RL_PHASE_PREFILL : RL_PHASE_DECODE;
	mo.train = ((data[0] >> 2) & 3) == 3;
	if (mo.train)
		mo.phase = RL_PHASE_PREFILL;
	mo.batch = 1 + data[1] % 64;
	mo.seq = 1 + (uint64_t)data[2] * 16;
	mo.context = 1 + (uint64_t)data[3] * 32;
	mo.dtype = RL_BF16;
	mo.weight_dtype = RL_BF16;
	mo.kv_dtype = RL_BF16;
	mo.impl = &im;
	if (rl_modelops_build(cfg, &mo, rows, &e) < 0) {
		one_line(e.msg);
		goto out;
	}
	rl_train_opts_init(&tr);
	memset(&pm, 0, sizeof(pm));
	pm.dev = hw.dev;
	pm.rt = hw.rt;
	pm.host_overhead_us = hw.rt->host_overhead_us.value;
	pm.host_kind_us = hw.host_kind_us;
	pm.eff = hw.has_eff ? &hw.eff : NULL;
	pm.db = hw.db;
	pm.train = mo.train ? &tr : NULL;
	pm.impl = im.id;
	memset(&sinks, 0, sizeof(sinks));
	sinks.out = hw.null;
	sinks.fmt = (enum rl_format)((data[1] >> 6) & 3);
	sinks.memfit = 1;
	st.config = cfg->name;
	st.input = "fuzz.impl (op list)";
	st.cfg = cfg;
	st.model = &pm;
	st.sinks = &sinks;
	rl_errlist_init(&errs);
	rc = rl_modelstep_run(&st, &mo, &pl, &errs);
	if (rc < 0 && rc != RL_ERR_NOMEM) {
		/* a step the builder took must read back: its rows are the
		 * file's, refused by the builder above if at all */
		fprintf(stderr, "fuzz_impl: the built step failed: %s\n",
		        errs.kept > 0 ? errs.msg[0] : "(no message)");
		abort();
	}
	if (rc == 0) {
		check_finite(rl_pipeline_summary(pl)->total_us);
		check_finite(rl_pipeline_summary(pl)->roofline_us);
		check_finite(rl_pipeline_summary(pl)->kernels);
		check_finite(rl_memfit_total_bytes(rl_pipeline_memfit(pl)));
	}
out:
	rl_pipeline_free(pl);
	rl_impl_release(&im);
	return 0;
}
