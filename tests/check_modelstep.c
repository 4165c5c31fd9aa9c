/* check_modelstep.c - a config's step handed to the pipeline as records is
 * what the pipeline makes of the -f oplist text of it, and its errors name
 * the line of that text. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "modelstep.h"
#include "oplist.h"
#include "train.h"

/* A 2-layer Llama (hidden 256, GQA 4 over 2). */
static const char *tiny_json =
	"{\"model_type\": \"llama\", \"hidden_size\": 256, \"intermediate_size\": 512, "
	"\"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"num_hidden_layers\": 2, "
	"\"vocab_size\": 1000}";

struct text_run {
	const struct rl_pipeline_model *m;
	const struct rl_pipeline_sinks *sinks;
	rl_pipeline *pl;
	struct rl_errlist *errs;
};

static int text_header(const struct rl_ops_header *h, void *user)
{
	struct text_run *r = user;
	struct rl_pipeline_columns cols;

	memset(&cols, 0, sizeof(cols));
	cols.input = h->name;
	return rl_pipeline_begin(r->m, r->sinks, &cols, &r->pl);
}

static int text_op(const struct rl_op *op, void *user)
{
	struct text_run *r = user;
	struct rl_err e;
	int rc;

	e.code = 0;
	rc = rl_pipeline_op(r->pl, op, &e);
	if (rc < 0 && e.code < 0)
		rl_errlist_add(r->errs, &e);
	return rc;
}

/* The step as text (rl_modelstep_write), into *TEXT (to free). */
static char *step_text(const struct rl_hfconfig *cfg, const struct rl_modelops_opts *mo)
{
	struct rl_modelops_row rows[RL_MODELOPS_MAX];
	struct rl_err e;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int n = rl_modelops_build(cfg, mo, rows, &e);

	ck_assert_int_gt(n, 0);
	ck_assert_ptr_nonnull(f);
	rl_modelstep_write(f, "tiny.json", mo, rows, n);
	ck_assert_int_eq(fclose(f), 0);
	return text;
}

static void setup(struct rl_device *dev, struct rl_hfconfig *cfg, struct rl_pipeline_model *pm,
                  struct rl_modelops_opts *mo)
{
	struct rl_err e;

	test_load_device("h100-sxm", dev);
	ck_assert_int_eq(rl_hfconfig_parse(tiny_json, "tiny.json", cfg, &e), 0);
	memset(pm, 0, sizeof(*pm));
	pm->dev = dev;
	pm->host_overhead_us = test_runtime_overhead("eager");
	memset(mo, 0, sizeof(*mo));
	mo->batch = 4;
	mo->seq = 128;
	mo->context = 300;
	mo->dtype = mo->weight_dtype = mo->kv_dtype = RL_BF16;
}

/* Decode, prefill and a training step, straight and through the text:
 * the same summary and memory, to the last bit. */
START_TEST(test_text_and_records_agree)
{
	struct rl_pipeline_sinks none;
	struct rl_pipeline_model pm;
	struct rl_modelops_opts mo;
	struct rl_train_opts tr;
	struct rl_device dev;
	struct rl_hfconfig cfg;
	struct rl_errlist errs;
	struct rl_modelstep st;
	struct text_run tr_run;
	struct rl_ops_sink sink = {text_header, text_op, &tr_run, NULL, NULL, 0};
	const struct rl_summary *a, *b;
	const struct rl_memfit *ma, *mb;
	rl_pipeline *pl;
	char *text;
	FILE *f;

	setup(&dev, &cfg, &pm, &mo);
	rl_train_opts_init(&tr);
	memset(&none, 0, sizeof(none));
	st.config = "tiny.json";
	st.input = "tiny.json (op list)";
	st.cfg = &cfg;
	st.model = &pm;
	st.sinks = NULL;
	mo.phase = _i == 0 ? RL_PHASE_DECODE : RL_PHASE_PREFILL;
	if (_i == 2) {
		mo.train = 1;
		pm.train = &tr;
	}
	rl_errlist_init(&errs);
	ck_assert_int_eq(rl_modelstep_run(&st, &mo, &pl, &errs), 0);
	text = step_text(&cfg, &mo);
	memset(&tr_run, 0, sizeof(tr_run));
	tr_run.m = &pm;
	tr_run.sinks = &none;
	tr_run.errs = &errs;
	f = test_stream(text);
	ck_assert_int_eq(rl_ops_read(f, "tiny.json (op list)", &sink, &errs), 0);
	fclose(f);
	{
		struct rl_err e;

		ck_assert_int_eq(rl_pipeline_end(tr_run.pl, &e), 0);
	}
	a = rl_pipeline_summary(pl);
	b = rl_pipeline_summary(tr_run.pl);
	/* the Llama block without biases: 11 rows (count = layers), and embed,
	 * final_norm, lm_head; a training step more (the loss, the backward
	 * rows, the optimizer) */
	if (_i < 2)
		ck_assert_uint_eq(a->ops, 14);
	else
		ck_assert_uint_gt(a->ops, 2 * 14);
	ck_assert_uint_eq(a->ops, b->ops);
	ck_assert_uint_eq(a->occurrences, b->occurrences);
	ck_assert_double_eq(a->total_us, b->total_us);
	ck_assert_double_eq(a->roofline_us, b->roofline_us);
	ck_assert_double_gt(a->total_us, 0);
	ma = rl_pipeline_memfit(pl);
	mb = rl_pipeline_memfit(tr_run.pl);
	ck_assert_double_eq(ma->weight_bytes, mb->weight_bytes);
	ck_assert_double_eq(ma->kv_bytes, mb->kv_bytes);
	ck_assert_double_eq(ma->activation_bytes, mb->activation_bytes);
	ck_assert_uint_eq(ma->activation_line, mb->activation_line);
	ck_assert_double_eq(ma->saved_bytes, mb->saved_bytes);
	ck_assert_int_eq(ma->train, _i == 2);
	rl_pipeline_free(pl);
	rl_pipeline_free(tr_run.pl);
	free(text);
	rl_device_release(&dev);
}
END_TEST

/* A pipeline error names the row's line of -f oplist: int4 weights in a
 * training step fail at the first matmul, qkv_proj, the third row: line 5
 * (the comment, the header, embed, attn_norm before it). */
START_TEST(test_error_line)
{
	struct rl_pipeline_model pm;
	struct rl_modelops_opts mo;
	struct rl_train_opts tr;
	struct rl_device dev;
	struct rl_hfconfig cfg;
	struct rl_errlist errs;
	struct rl_modelstep st;
	rl_pipeline *pl = (rl_pipeline *)&st; /* set to NULL on failure */
	char *text, *line;
	int i;

	setup(&dev, &cfg, &pm, &mo);
	rl_train_opts_init(&tr);
	pm.train = &tr;
	mo.phase = RL_PHASE_PREFILL;
	mo.weight_dtype = RL_INT4;
	st.config = "tiny.json";
	st.input = "tiny.json (op list)";
	st.cfg = &cfg;
	st.model = &pm;
	st.sinks = NULL;
	rl_errlist_init(&errs);
	ck_assert_int_lt(rl_modelstep_run(&st, &mo, &pl, &errs), 0);
	ck_assert_ptr_null(pl);
	ck_assert_uint_eq(errs.count, 1);
	ck_assert_msg(strncmp(errs.msg[0], "tiny.json (op list):5: ", 23) == 0 &&
	                      strstr(errs.msg[0], "int4 weights train frozen only") != NULL,
	              "%s", errs.msg[0]);
	text = step_text(&cfg, &mo);
	for (line = text, i = 1; i < 5; i++)
		line = strchr(line, '\n') + 1;
	ck_assert_int_eq(strncmp(line, "qkv_proj,matmul,bf16,", 21), 0);
	free(text);
	rl_device_release(&dev);
}
END_TEST

Suite *suite_modelstep(void)
{
	Suite *s = suite_create("modelstep");
	TCase *tc = tcase_create("records");

	tcase_add_loop_test(tc, test_text_and_records_agree, 0, 3);
	tcase_add_test(tc, test_error_line);
	suite_add_tcase(s, tc);
	return s;
}
