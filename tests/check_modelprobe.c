/* check_modelprobe.c - a model step run at other sizes (modelprobe.c):
 * --max-batch's answer against a device whose memory is set, by hand from
 * two steps' memory, between batch 300 and 301; --generate's sum against
 * every step run here; --sweep's rows against the steps at each value. The
 * steps are a small Llama's through rl_modelstep_run, the route classify
 * takes with model's -f oplist. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "memfit.h"
#include "modelprobe.h"

static const char *tiny =
    "{\"model_type\": \"llama\", \"hidden_size\": 256, \"intermediate_size\": 512, "
    "\"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"num_hidden_layers\": 2, "
    "\"vocab_size\": 1000}";

struct fixture {
	struct rl_device dev;
	struct rl_runtime rt;
	struct rl_hfconfig cfg;
	struct rl_pipeline_model pm;
	struct rl_modelstep st;
	struct rl_modelops_opts mo;
	struct rl_errlist errs;
};

static void fixture_init(struct fixture *f)
{
	struct rl_err e;

	memset(f, 0, sizeof(*f));
	test_load_device("h100-sxm", &f->dev);
	ck_assert_int_eq(rl_hfconfig_parse(tiny, "tiny.json", &f->cfg, &e), 0);
	f->rt.id = "eager";
	f->pm.dev = &f->dev;
	f->pm.rt = &f->rt;
	f->pm.host_overhead_us = test_runtime_overhead("eager");
	f->st.config = "tiny.json";
	f->st.input = "tiny.json (op list)";
	f->st.cfg = &f->cfg;
	f->st.model = &f->pm;
	f->mo.phase = RL_PHASE_DECODE;
	f->mo.batch = 1;
	f->mo.seq = 512;
	f->mo.context = 512;
	f->mo.dtype = f->mo.weight_dtype = f->mo.kv_dtype = RL_BF16;
	f->mo.expert_imbalance = 1;
	rl_errlist_init(&f->errs);
}

/* The step MO at BATCH, run directly: its memory (bytes), expected and
 * roofline time (us). */
static double step_at(struct fixture *f, uint64_t batch, int phase, uint64_t ctx, double *us,
                      double *roof_us)
{
	struct rl_modelops_opts mo = f->mo;
	rl_pipeline *pl;
	double bytes;

	mo.batch = batch;
	mo.phase = phase;
	mo.context = ctx;
	ck_assert_int_eq(rl_modelstep_run(&f->st, &mo, &pl, &f->errs), 0);
	bytes = rl_memfit_total_bytes(rl_pipeline_memfit(pl));
	if (us != NULL)
		*us = rl_pipeline_summary(pl)->total_us;
	if (roof_us != NULL)
		*roof_us = rl_pipeline_summary(pl)->roofline_us;
	rl_pipeline_free(pl);
	return bytes;
}

static void set_memory(struct rl_device *d, double bytes)
{
	d->num[RL_HW_MEMORY_GIB].present = 1;
	d->num[RL_HW_MEMORY_GIB].value = bytes / RL_MEMFIT_GIB;
}

/* At decode the memory is the weights plus a part per sequence (its KV
 * cache and activations): M(b) = W + b k, with k = M(2) - M(1). A device of
 * W + 300.5 k holds batch 300 and not 301. */
START_TEST(test_max_batch)
{
	struct fixture f;
	struct rl_modelprobe_max_batch r;
	struct rl_err e;
	double m1, m2, k, w, us, roof;
	char line[256];
	FILE *mem;

	fixture_init(&f);
	m1 = step_at(&f, 1, RL_PHASE_DECODE, 512, NULL, NULL);
	m2 = step_at(&f, 2, RL_PHASE_DECODE, 512, NULL, NULL);
	k = m2 - m1;
	w = m1 - k;
	ck_assert_double_gt(k, 0);
	/* linear: the step at 300 is W + 300 k */
	ck_assert_double_eq_tol(step_at(&f, 300, RL_PHASE_DECODE, 512, &us, &roof), w + 300 * k,
	                        1e-6 * m1);
	set_memory(&f.dev, w + 300.5 * k);
	ck_assert_int_eq(rl_modelprobe_max_batch(&f.st, &f.mo, &r, &f.errs, &e), 0);
	ck_assert_uint_eq(r.batch, 300);
	ck_assert_int_eq(r.capped, 0);
	ck_assert_int_eq(r.more, 0);
	ck_assert_double_eq_tol(r.memory_bytes, w + 300 * k, 1e-6 * m1);
	ck_assert_double_eq_tol(r.device_bytes, w + 300.5 * k, 1e-3);
	ck_assert_double_eq_tol(r.step_us, us, 1e-9);
	ck_assert_double_eq_tol(r.roofline_us, roof, 1e-9);
	/* the line: memory in GiB of 2^30 bytes */
	mem = fmemopen(line, sizeof(line), "w");
	rl_modelprobe_max_batch_write(mem, &r);
	fclose(mem);
	ck_assert_ptr_nonnull(strstr(line, "max batch 300: step "));
	ck_assert_ptr_nonnull(strstr(line, " us roofline; memory "));

	/* batch 1 does not fit: a device of W + k / 2 */
	set_memory(&f.dev, w + 0.5 * k);
	ck_assert_int_eq(rl_modelprobe_max_batch(&f.st, &f.mo, &r, &f.errs, &e), RL_ERR_RANGE);
	ck_assert_uint_eq(r.batch, 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "--max-batch: batch 1 needs "));
	/* every batch fits: the search stops at the cap, and the memory
	 * (W + 2^24 k, about 1.3 x 10^11 bytes here) would allow more */
	set_memory(&f.dev, 1e15);
	ck_assert_int_eq(rl_modelprobe_max_batch(&f.st, &f.mo, &r, &f.errs, &e), 0);
	ck_assert_uint_eq(r.batch, RL_MODELOPS_MAX_SIZE);
	ck_assert_int_eq(r.capped, 1);
	ck_assert_int_eq(r.more, 1);
	mem = fmemopen(line, sizeof(line), "w");
	rl_modelprobe_max_batch_write(mem, &r);
	fclose(mem);
	ck_assert_ptr_nonnull(strstr(line, "max batch 16777216 (the largest batch searched; "
	                                   "memory would allow more): step "));
	/* no memory given */
	f.dev.num[RL_HW_MEMORY_GIB].present = 0;
	ck_assert_int_eq(rl_modelprobe_max_batch(&f.st, &f.mo, &r, &f.errs, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "--max-batch: h100-sxm gives no memory_gib");
	ck_assert_uint_eq(f.errs.count, 0);
	rl_device_release(&f.dev);
}
END_TEST

struct warned {
	int n;
	char msg[2][256];
};

static void warn(const char *msg, void *user)
{
	struct warned *w = user;

	if (w->n < 2)
		snprintf(w->msg[w->n], sizeof(w->msg[0]), "%s", msg);
	w->n++;
}

/* 5 output tokens from a 100-token prompt at batch 4: the prefill, then
 * decode at contexts 100, 101, 102, 103, each run here; tokens/s = 4 x 5 /
 * total. A device smaller than both steps: two warnings. */
START_TEST(test_generate)
{
	struct fixture f;
	struct rl_generate g;
	struct warned wd;
	struct rl_err e;
	double pre, pre_r, x = 0, r = 0, us, roof;
	uint64_t c;

	fixture_init(&f);
	f.mo.batch = 4;
	f.mo.seq = 100;
	step_at(&f, 4, RL_PHASE_PREFILL, 100, &pre, &pre_r);
	for (c = 100; c <= 103; c++) {
		step_at(&f, 4, RL_PHASE_DECODE, c, &us, &roof);
		x += us;
		r += roof;
	}
	memset(&wd, 0, sizeof(wd));
	ck_assert_int_eq(rl_modelprobe_generate(&f.st, &f.mo, 5, warn, &wd, &g, &f.errs, &e), 0);
	ck_assert_int_eq(wd.n, 0);
	ck_assert_uint_eq(g.steps, 4);
	ck_assert_uint_eq(g.first_context, 100);
	ck_assert_uint_eq(g.last_context, 103);
	ck_assert_double_eq_tol(g.prefill.expected_us, pre, 1e-9);
	ck_assert_double_eq_tol(g.prefill.roofline_us, pre_r, 1e-9);
	ck_assert_double_eq_tol(g.decode.expected_us, x, 1e-9);
	ck_assert_double_eq_tol(g.decode.roofline_us, r, 1e-9);
	ck_assert_double_eq_tol(g.per_token.expected_us, x / 4, 1e-9);
	ck_assert_double_eq_tol(g.tokens_per_s, 20 / ((pre + x) * 1e-6), 1e-6);

	set_memory(&f.dev, 1000);
	ck_assert_int_eq(rl_modelprobe_generate(&f.st, &f.mo, 5, warn, &wd, &g, &f.errs, &e), 0);
	ck_assert_int_eq(wd.n, 2);
	ck_assert_ptr_nonnull(strstr(wd.msg[0], "warning: --generate: the prefill needs "));
	ck_assert_ptr_nonnull(strstr(wd.msg[0], " GiB, over the device's 9.31323e-07 GiB"));
	ck_assert_ptr_nonnull(strstr(wd.msg[1], "warning: --generate: the last decode step needs"));
	/* a spec past the largest context */
	f.mo.seq = RL_MODELOPS_MAX_SIZE;
	ck_assert_int_eq(rl_modelprobe_generate(&f.st, &f.mo, 3, NULL, NULL, &g, &f.errs, &e),
	                 RL_ERR_RANGE);
	rl_device_release(&f.dev);
}
END_TEST

/* A sweep of batch 1, 8, 64 at decode: each row the step at that batch,
 * its tokens batch x 1; of seq at prefill batch 2: tokens 2 x seq. Read back
 * from the csv the writer made. */
START_TEST(test_sweep)
{
	struct fixture f;
	struct rl_sweep_spec sw;
	struct rl_sweep_table *t = malloc(sizeof(*t));
	struct rl_err e;
	char *buf = NULL;
	size_t len = 0, i;
	double us, roof, bytes;
	FILE *mem;

	fixture_init(&f);
	ck_assert_int_eq(rl_sweep_parse("batch=1,8,64", &sw, &e), 0);
	mem = open_memstream(&buf, &len);
	ck_assert_int_eq(
	    rl_modelprobe_sweep(&f.st, &f.mo, &sw, RL_MODELPROBE_BATCH, RL_FMT_CSV, mem, &f.errs),
	    0);
	fclose(mem);
	mem = fmemopen(buf, len, "r");
	ck_assert_int_eq(rl_sweep_read_csv(mem, "sweep.csv", t, &e), 0);
	fclose(mem);
	ck_assert_uint_eq(t->n, 3);
	for (i = 0; i < 3; i++) {
		bytes = step_at(&f, sw.value[i], RL_PHASE_DECODE, 512, &us, &roof);
		ck_assert_uint_eq(t->row[i].value, sw.value[i]);
		ck_assert_double_eq_tol(t->row[i].step_us, us, 1e-3 * us);
		ck_assert_double_eq_tol(t->row[i].roofline_us, roof, 1e-3 * roof);
		ck_assert_double_eq_tol(t->row[i].memory_bytes, bytes, 1e-3 * bytes);
		/* tokens/s at decode: batch tokens per step */
		ck_assert_double_eq_tol(rl_sweep_row_per_s(&t->row[i], 0),
		                        (double)sw.value[i] / (us * 1e-6),
		                        1e-3 * (double)sw.value[i] / (us * 1e-6));
	}
	free(buf);
	buf = NULL;
	/* seq at prefill, batch 2 */
	ck_assert_int_eq(rl_sweep_parse("seq=16,32", &sw, &e), 0);
	f.mo.phase = RL_PHASE_PREFILL;
	f.mo.batch = 2;
	mem = open_memstream(&buf, &len);
	ck_assert_int_eq(
	    rl_modelprobe_sweep(&f.st, &f.mo, &sw, RL_MODELPROBE_SEQ, RL_FMT_CSV, mem, &f.errs), 0);
	fclose(mem);
	mem = fmemopen(buf, len, "r");
	ck_assert_int_eq(rl_sweep_read_csv(mem, "sweep.csv", t, &e), 0);
	fclose(mem);
	for (i = 0; i < 2; i++) {
		f.mo.seq = sw.value[i];
		step_at(&f, 2, RL_PHASE_PREFILL, sw.value[i], &us, &roof);
		ck_assert_double_eq_tol(t->row[i].step_us, us, 1e-3 * us);
		ck_assert_double_eq_tol(rl_sweep_row_per_s(&t->row[i], 0),
		                        2.0 * (double)sw.value[i] / (us * 1e-6),
		                        1e-3 * 2.0 * (double)sw.value[i] / (us * 1e-6));
	}
	free(buf);
	free(t);
	rl_device_release(&f.dev);
}
END_TEST

/* The modes that exclude each other, each conflict's message naming the
 * options; the sizes a sweep may set. */
START_TEST(test_modes_and_sweep_names)
{
	struct rl_modelops_opts mo;
	struct rl_modelprobe_modes md;
	struct rl_sweep_spec sw;
	struct rl_hfconfig cfg;
	enum rl_modelprobe_size which;
	struct rl_err e;

	memset(&mo, 0, sizeof(mo));
	mo.phase = RL_PHASE_DECODE;
	mo.batch = 1;
	mo.seq = 512;
	mo.dtype = mo.weight_dtype = mo.kv_dtype = RL_BF16;
	memset(&md, 0, sizeof(md));
	ck_assert_int_eq(rl_modelprobe_modes_check(&md, &mo, &e), 0);
	md.max_batch = md.oplist = 1;
	ck_assert_int_eq(rl_modelprobe_modes_check(&md, &mo, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "--max-batch writes one line, not an op list");
	memset(&md, 0, sizeof(md));
	md.generate = 8;
	md.parallel = 1; /* tp, dp, ep: each GPU's share of every step */
	ck_assert_int_eq(rl_modelprobe_modes_check(&md, &mo, &e), 0);
	md.pipeline = 1;
	ck_assert_int_eq(rl_modelprobe_modes_check(&md, &mo, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "--generate takes each GPU's whole step: not with --pp, "
	                        "--microbatches or --virtual-stages (tp, dp and ep are fine)");
	md.parallel = md.pipeline = 0;
	md.csv = 1;
	ck_assert_int_eq(rl_modelprobe_modes_check(&md, &mo, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "--generate writes a block (table, md) or an object (json): not "
	                        "with -f csv");
	md.csv = 0;
	md.train = 1;
	ck_assert_int_eq(rl_modelprobe_modes_check(&md, &mo, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "--train: a training step runs over --batch x --seq tokens: not "
	                        "with --generate");
	/* N = 16777216 - 512 + 2 = 16776706 tokens from a 512-token prompt:
	 * the last decode context 512 + N - 2 = 16777216, the largest; one more
	 * is past it */
	md.train = 0;
	md.generate = 16776706;
	ck_assert_int_eq(rl_modelprobe_modes_check(&md, &mo, &e), 0);
	md.generate = 16776707;
	ck_assert_int_eq(rl_modelprobe_modes_check(&md, &mo, &e), RL_ERR_ARG);
	memset(&md, 0, sizeof(md));
	md.train = 1;
	mo.weight_dtype = RL_INT4;
	ck_assert_int_eq(rl_modelprobe_modes_check(&md, &mo, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "--train: int4 weights train frozen only: a gradient step needs "
	                        "weights it can update (not --weight-dtype int4)");
	mo.weight_dtype = RL_BF16;

	ck_assert_int_eq(rl_modelprobe_sweep_parse("batch=1,8", &sw, &e), 0);
	ck_assert_int_eq(rl_modelprobe_sweep_parse("heads=1,2", &sw, &e), RL_ERR_PARSE);
	ck_assert_str_eq(e.msg, "--sweep: unknown name 'heads' (expected batch, seq or context)");
	ck_assert_int_eq(rl_modelprobe_sweep_parse("seq=1,16777217", &sw, &e), RL_ERR_RANGE);
	ck_assert_str_eq(e.msg, "--sweep seq: 16777217 is past the largest size 16777216");

	ck_assert_int_eq(rl_hfconfig_parse(tiny, "tiny.json", &cfg, &e), 0);
	ck_assert_int_eq(rl_modelprobe_sweep_size("seq", &cfg, &mo, 0, &which, &e), 0);
	ck_assert_int_eq(which, RL_MODELPROBE_SEQ);
	ck_assert_int_eq(rl_modelprobe_sweep_size("seq", &cfg, &mo, 1, &which, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "--sweep seq: the decode step's context is --context: sweep "
	                        "context");
	mo.phase = RL_PHASE_PREFILL;
	ck_assert_int_eq(rl_modelprobe_sweep_size("context", &cfg, &mo, 0, &which, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "--sweep context: the prefill step has no context: sweep seq");
	/* vit-b16: (224 / 16)^2 + 1 = 197 tokens per image, fixed by the family */
	cfg.tokens = 197;
	snprintf(cfg.model_type, sizeof(cfg.model_type), "vit");
	ck_assert_int_eq(rl_modelprobe_sweep_size("seq", &cfg, &mo, 0, &which, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "--sweep seq: model_type vit takes its tokens from the image");
	ck_assert_int_eq(rl_modelprobe_sweep_size("batch", &cfg, &mo, 0, &which, &e), 0);
	ck_assert_int_eq(which, RL_MODELPROBE_BATCH);
}
END_TEST

Suite *suite_modelprobe(void)
{
	Suite *s = suite_create("modelprobe");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_max_batch);
	tcase_add_test(tc, test_generate);
	tcase_add_test(tc, test_sweep);
	tcase_add_test(tc, test_modes_and_sweep_names);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}
