/* check_parallel.c - parallel layouts: where the groups sit, the checks, the
 * pipeline bubble, DDP's buckets, and one GPU's op list of Llama-3-70B
 * (issue 15's goal: tp 8 holds 1/8 of the weights, with two all-reduces per
 * layer), every figure worked out by hand from the architecture. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "modelops.h"
#include "parallel.h"

/* An HGX node of 8 GPUs; two of them with a network. */
static const struct rl_net hgx = {"hgx", 450, 0, 15, 0, 8, 1};
static const struct rl_net two = {"two", 450, 25, 10, 5, 8, 2};
static const struct rl_net nonet = {"nonet", 450, 0, 15, 0, 8, 0};
static const struct rl_net node16 = {"node16", 450, 0, 15, 0, 16, 1};

/* Llama-3-70B (its config.json): hidden 8192, 80 layers, 64 query heads
 * and 8 KV heads of 128, MLP 28672, vocabulary 128256. */
static struct rl_hfconfig llama70b(void)
{
	struct rl_hfconfig c;

	memset(&c, 0, sizeof(c));
	strcpy(c.model_type, "llama");
	c.family = RL_HF_LLAMA;
	c.hidden = 8192;
	c.intermediate = 28672;
	c.heads = 64;
	c.kv_heads = 8;
	c.layers = 80;
	c.vocab = 128256;
	c.head_dim = 128;
	return c;
}

START_TEST(test_span)
{
	int even;

	/* ranks 0..7 on nodes of 8: one node */
	ck_assert_uint_eq(rl_parallel_span(0, 1, 8, 8, &even), 1);
	ck_assert_int_eq(even, 1);
	/* ranks 0 and 8: two nodes, one each */
	ck_assert_uint_eq(rl_parallel_span(0, 8, 2, 8, &even), 2);
	ck_assert_int_eq(even, 1);
	/* ranks 0, 2, ..., 10: four on node 0, two on node 1 */
	ck_assert_uint_eq(rl_parallel_span(0, 2, 6, 8, &even), 2);
	ck_assert_int_eq(even, 0);
	/* ranks 0, 4, ..., 28: two on each of four nodes */
	ck_assert_uint_eq(rl_parallel_span(0, 4, 8, 8, &even), 4);
	ck_assert_int_eq(even, 1);
	/* no node size: one node */
	ck_assert_uint_eq(rl_parallel_span(0, 1, 64, 0, &even), 1);
	ck_assert_int_eq(even, 1);
}
END_TEST

START_TEST(test_bubble)
{
	/* (pp - 1) / (m + pp - 1) */
	ck_assert_double_eq_tol(rl_parallel_bubble(4, 4, 1), 3.0 / 7, 1e-12);
	ck_assert_double_eq_tol(rl_parallel_bubble(8, 32, 1), 7.0 / 39, 1e-12);
	ck_assert_double_eq_tol(rl_parallel_bubble(2, 1, 1), 0.5, 1e-12);
	ck_assert_double_eq(rl_parallel_bubble(1, 8, 1), 0);
	/* interleaved, v chunks: (pp - 1) / (v m + pp - 1); 0 reads as 1 */
	ck_assert_double_eq_tol(rl_parallel_bubble(4, 8, 2), 3.0 / 19, 1e-12);
	ck_assert_double_eq_tol(rl_parallel_bubble(8, 32, 4), 7.0 / 135, 1e-12);
	ck_assert_double_eq_tol(rl_parallel_bubble(4, 4, 0), 3.0 / 7, 1e-12);
}
END_TEST

/* The first stage's micro-batches in flight (Megatron-LM's warm-up on rank
 * 0 plus one): min(m, pp) without chunks; with v chunks (2 (pp - 1) + (v -
 * 1) pp + 1) / v, at most m: pp 4, v 2: (6 + 4 + 1) / 2 = 5.5; pp 8, v 4:
 * (14 + 24 + 1) / 4 = 9.75; pp 4, v 2, m 4: 8 chunk passes in all, 4. */
START_TEST(test_in_flight)
{
	ck_assert_double_eq(rl_parallel_in_flight(4, 8, 1), 4);
	ck_assert_double_eq(rl_parallel_in_flight(4, 2, 1), 2);
	ck_assert_double_eq(rl_parallel_in_flight(1, 8, 1), 1);
	ck_assert_double_eq(rl_parallel_in_flight(4, 8, 2), 5.5);
	ck_assert_double_eq(rl_parallel_in_flight(8, 64, 4), 9.75);
	ck_assert_double_eq(rl_parallel_in_flight(4, 4, 2), 4);
}
END_TEST

START_TEST(test_place)
{
	struct rl_parallel lay = {8, 1, 1, 1, 0, 0, 0, 0, 0, 0};
	struct rl_parallel_place p;
	struct rl_err e;

	ck_assert_int_eq(rl_parallel_place(&lay, 1, 80, 0, &hgx, &p, &e), 0);
	ck_assert_uint_eq(p.gpus, 8);
	ck_assert_uint_eq(p.nodes, 1);
	ck_assert_uint_eq(p.tp.ranks, 8);
	ck_assert_uint_eq(p.tp.nodes, 1);
	ck_assert_uint_eq(p.lay.microbatches, 1);
	ck_assert_uint_eq(p.stage_layers, 80);
	ck_assert_double_eq(p.lay.bucket_bytes, 26214400);

	/* tp 8, dp 2 on two nodes: the dp pair is GPU 0 and GPU 8 */
	lay.dp = 2;
	ck_assert_int_eq(rl_parallel_place(&lay, 4, 80, 1, &two, &p, &e), 0);
	ck_assert_uint_eq(p.gpus, 16);
	ck_assert_uint_eq(p.nodes, 2);
	ck_assert_uint_eq(p.dp.ranks, 2);
	ck_assert_uint_eq(p.dp.nodes, 2);
	ck_assert_uint_eq(p.batch, 2);

	/* tp 2, pp 4, batch 8: stages on GPUs 0, 2, 4, 6 of one node; the
	 * default micro-batches are pp = 4, of 2 sequences; 20 layers each */
	lay = (struct rl_parallel){2, 4, 1, 1, 0, 0, 0, 0, 0, 0};
	ck_assert_int_eq(rl_parallel_place(&lay, 8, 80, 0, &hgx, &p, &e), 0);
	ck_assert_uint_eq(p.pp.ranks, 4);
	ck_assert_uint_eq(p.pp.nodes, 1);
	ck_assert_uint_eq(p.link.ranks, 2);
	ck_assert_uint_eq(p.link.nodes, 1);
	ck_assert_uint_eq(p.lay.microbatches, 4);
	ck_assert_uint_eq(p.micro_batch, 2);
	ck_assert_uint_eq(p.stage_layers, 20);
	ck_assert_double_eq_tol(p.bubble, 3.0 / 7, 1e-12);
	/* batch 6: the largest divisor at most 4 is 3; batch 1: 1 */
	ck_assert_int_eq(rl_parallel_place(&lay, 6, 80, 0, &hgx, &p, &e), 0);
	ck_assert_uint_eq(p.lay.microbatches, 3);
	ck_assert_int_eq(rl_parallel_place(&lay, 1, 80, 0, &hgx, &p, &e), 0);
	ck_assert_uint_eq(p.lay.microbatches, 1);
	/* 79 layers over 4 stages: the last holds ceil(79 / 4) = 20 */
	ck_assert_int_eq(rl_parallel_place(&lay, 8, 79, 0, &hgx, &p, &e), 0);
	ck_assert_uint_eq(p.stage_layers, 20);
	/* interleaved, 2 chunks a GPU: 8 micro-batches, bubble 3 / 19, 5.5 in
	 * flight on the first stage; 80 layers in 8 chunks of 10 */
	lay.vstages = 2;
	lay.microbatches = 8;
	ck_assert_int_eq(rl_parallel_place(&lay, 8, 80, 0, &hgx, &p, &e), 0);
	ck_assert_uint_eq(p.lay.vstages, 2);
	ck_assert_double_eq_tol(p.bubble, 3.0 / 19, 1e-12);
	ck_assert_double_eq(p.in_flight, 5.5);
	/* 79 layers: pp x v = 8 does not divide them */
	ck_assert_int_eq(rl_parallel_place(&lay, 8, 79, 0, &hgx, &p, &e), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(e.msg, "pp x v = 8 does not divide the 79 layers"));
	/* 6 micro-batches are not a multiple of pp 4 */
	lay.microbatches = 6;
	ck_assert_int_eq(rl_parallel_place(&lay, 12, 80, 0, &hgx, &p, &e), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(e.msg, "6 micro-batches are not a multiple of --pp 4"));
	/* no stages to interleave */
	lay = (struct rl_parallel){2, 1, 1, 1, 0, 0, 0, 0, 0, 0};
	lay.vstages = 2;
	ck_assert_int_eq(rl_parallel_place(&lay, 8, 80, 0, &hgx, &p, &e), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(e.msg, "needs --pp above 1"));
	lay = (struct rl_parallel){2, 4, 1, 1, 0, 0, 0, 0, 0, 0};

	/* tp 8, pp 2 on two nodes: the last two stages are GPUs 0 and 8 */
	lay = (struct rl_parallel){8, 2, 1, 1, 0, 0, 0, 0, 0, 0};
	ck_assert_int_eq(rl_parallel_place(&lay, 2, 80, 0, &two, &p, &e), 0);
	ck_assert_uint_eq(p.link.nodes, 2);
	ck_assert_uint_eq(p.pp.nodes, 2);

	/* the expert group: 4 consecutive members of the dp group of 8 (tp 2:
	 * GPUs 0, 2, 4, 6): one node */
	lay = (struct rl_parallel){2, 1, 8, 4, 0, 0, 0, 0, 0, 0};
	ck_assert_int_eq(rl_parallel_place(&lay, 8, 32, 0, &two, &p, &e), 0);
	ck_assert_uint_eq(p.ep.ranks, 4);
	ck_assert_uint_eq(p.ep.nodes, 1);
	ck_assert_uint_eq(p.dp.nodes, 2);

	/* at inference dp only divides the batch: no interconnect needed */
	lay = (struct rl_parallel){1, 1, 4, 1, 0, 0, 0, 0, 0, 0};
	ck_assert_int_eq(rl_parallel_place(&lay, 8, 80, 0, NULL, &p, &e), 0);
	ck_assert_uint_eq(p.batch, 2);
}
END_TEST

START_TEST(test_place_errors)
{
	static const struct {
		struct rl_parallel lay;
		uint64_t batch;
		int train;
		const struct rl_net *net;
		const char *msg;
	} cases[] = {
	    {{16, 1, 1, 1, 0, 0, 0, 0, 0, 0}, 1, 0, &hgx, "must sit in one node"},
	    {{3, 1, 1, 1, 0, 0, 0, 0, 0, 0}, 1, 0, &hgx, "must sit in one node"},
	    {{1, 1, 3, 1, 0, 0, 0, 0, 0, 0}, 4, 0, &hgx, "--dp 3 does not divide --batch 4"},
	    {{1, 2, 1, 1, 3, 0, 0, 0, 0, 0}, 4, 0, &hgx, "--microbatches 3 does not divide"},
	    {{2, 1, 1, 1, 0, 0, 0, 0, 0, 0}, 1, 0, NULL, "--tp 2: the device has no interconnect"},
	    {{1, 1, 2, 1, 0, 0, 0, 0, 0, 0}, 2, 1, NULL, "--dp 2: the device has no interconnect"},
	    {{8, 1, 2, 1, 0, 0, 0, 0, 0, 0}, 2, 0, &nonet, "no network between nodes"},
	    {{8, 1, 2, 1, 0, 0, 0, 0, 0, 0}, 2, 0, &hgx, "need 2 nodes of 8 GPUs; hgx has 1"},
	    {{8, 1, 4, 1, 0, 0, 0, 0, 0, 0}, 4, 0, &two, "need 4 nodes of 8 GPUs; two has 2"},
	    {{2, 1, 6, 1, 0, 0, 0, 0, 0, 0}, 6, 0, &two, "--dp 6: the group's GPUs sit unevenly"},
	};
	struct rl_parallel_place p;
	struct rl_err e;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		e.msg[0] = '\0';
		ck_assert_int_lt(rl_parallel_place(&cases[i].lay, cases[i].batch, 80,
		                                   cases[i].train, cases[i].net, &p, &e),
		                 0);
		ck_assert_msg(strstr(e.msg, cases[i].msg) != NULL, "case %zu: '%s' lacks '%s'", i,
		              e.msg, cases[i].msg);
	}
}
END_TEST

START_TEST(test_check_model)
{
	struct rl_hfconfig c = llama70b();
	struct rl_parallel lay = {8, 1, 1, 1, 0, 0, 0, 0, 0, 0};
	struct rl_err e;

	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), 0);
	/* 16 GPUs, 8 KV heads: each replicated twice */
	lay.tp = 16;
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), 0);
	lay.tp = 3; /* 64 heads */
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(e.msg, "--tp 3 does not divide the 64 attention heads"));
	c.heads = 96; /* 96 heads, 8 KV heads: tp 12 neither divides 8 nor is a multiple */
	c.hidden = 96 * 128;
	c.intermediate = 12 * 2048;
	lay.tp = 12;
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(e.msg, "key-value heads"));
	c = llama70b();
	lay = (struct rl_parallel){1, 81, 1, 1, 0, 0, 0, 0, 0, 0};
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(e.msg, "--pp 81 is more than the 80 layers"));
	lay = (struct rl_parallel){1, 1, 2, 2, 0, 0, 0, 0, 0, 0};
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(e.msg, "has no experts"));
	c.experts = 8;
	c.experts_per_tok = 2;
	lay.ep = 3;
	lay.dp = 3;
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(e.msg, "--ep 3 does not divide the 8 experts"));
	lay.ep = 4;
	lay.dp = 2;
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(e.msg, "--ep 4 does not divide --dp 2"));
}
END_TEST

START_TEST(test_ddp_buckets)
{
	struct rl_parallel_ddp d;

	rl_parallel_ddp_init(&d, 100);
	ck_assert_uint_eq(rl_parallel_ddp_add(&d, 30), 0);
	ck_assert_uint_eq(rl_parallel_ddp_add(&d, 80), 1);  /* 110: one, 10 left */
	ck_assert_uint_eq(rl_parallel_ddp_add(&d, 250), 2); /* 260: two, 60 left */
	ck_assert_uint_eq(rl_parallel_ddp_add(&d, 0), 0);
	ck_assert_double_eq_tol(rl_parallel_ddp_flush(&d), 60, 1e-9);
	ck_assert_double_eq(rl_parallel_ddp_flush(&d), 0);
	rl_parallel_ddp_init(&d, 0); /* DDP's default, 25 MiB */
	ck_assert_double_eq(d.bucket_bytes, 25 * 1048576.0);
}
END_TEST

/* The product of a row's shape "AxBx...". */
static double shape_elems(const char *s)
{
	double v = 1;
	char *end;

	for (;;) {
		v *= (double)strtoull(s, &end, 10);
		if (*end != 'x')
			return v;
		s = end + 1;
	}
}

static const struct rl_modelops_row *row(const struct rl_modelops_row *rows, int n,
                                         const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	return NULL;
}

/* Issue 15's goal: Llama-3-70B decode, tp 8 on one HGX node. */
START_TEST(test_llama70b_tp8)
{
	struct rl_hfconfig c = llama70b();
	struct rl_parallel lay = {8, 1, 1, 1, 0, 0, 0, 0, 0, 0};
	struct rl_parallel_place p;
	struct rl_modelops_opts o;
	struct rl_modelops_row rows[RL_MODELOPS_MAX];
	struct rl_err e;
	double w = 0;
	int n, i, ar = 0;

	memset(&o, 0, sizeof(o));
	o.phase = RL_PHASE_DECODE;
	o.batch = 1;
	o.seq = o.context = 2048;
	o.dtype = o.weight_dtype = o.kv_dtype = RL_BF16;
	ck_assert_int_eq(rl_parallel_place(&lay, 1, 80, 0, &hgx, &p, &e), 0);
	o.par = &p;
	n = rl_modelops_build(&c, &o, rows, &e);
	ck_assert_int_gt(n, 0);
	for (i = 0; i < n; i++) {
		if (rows[i].weights)
			/* M x N x K: N x K weights, in weight_count sets */
			w += shape_elems(strchr(rows[i].shape, 'x') + 1) *
			     (double)(rows[i].weight_count ? rows[i].weight_count : rows[i].count);
		if (strcmp(rows[i].kind, "allreduce") == 0) {
			ar++;
			ck_assert_uint_eq(rows[i].count, 80); /* once a layer each */
			ck_assert_uint_eq(rows[i].ranks, 8);
			ck_assert_uint_eq(rows[i].nodes, 1);
			ck_assert_str_eq(rows[i].shape, "1x8192"); /* T x hidden */
		}
	}
	/* 80 x (8192 x (8192 + 2 x 1024) + 8192 x 8192 + 3 x 8192 x 28672) +
	 * 8192 x 128256 = 69,501,714,432 weights (tests/cli_memfit.sh); one
	 * GPU holds an eighth: 8,687,714,304 */
	ck_assert_double_eq(w, 69501714432.0 / 8);
	ck_assert_int_eq(ar, 2);
	/* q: 64 / 8 heads, k and v: 8 / 8 = 1 each, of 128: 1280 */
	ck_assert_str_eq(row(rows, n, "qkv_proj")->shape, "1x1280x8192");
	ck_assert_str_eq(row(rows, n, "o_proj")->shape, "1x8192x1024");
	ck_assert_str_eq(row(rows, n, "gate_up")->shape, "1x7168x8192");
	ck_assert_str_eq(row(rows, n, "down_proj")->shape, "1x8192x3584");
	ck_assert_str_eq(row(rows, n, "attention")->shape, "1x8x1x2048x128");
	ck_assert_uint_eq(row(rows, n, "attention")->kv_heads, 1);
	/* the vocabulary split: 128256 / 8 = 16032, the logits gathered */
	ck_assert_str_eq(row(rows, n, "lm_head")->shape, "1x16032x8192");
	ck_assert_str_eq(row(rows, n, "lm_head_allgather")->kind, "allgather");
	ck_assert_str_eq(row(rows, n, "lm_head_allgather")->shape, "1x16032");
	/* the all-reduces follow the row-parallel linears */
	ck_assert_str_eq(rows[row(rows, n, "o_proj") - rows + 1].name, "attn_allreduce");
	ck_assert_str_eq(rows[row(rows, n, "down_proj") - rows + 1].name, "mlp_allreduce");

	/* tp 16 (a node of 16) on 8 KV heads: one KV head per GPU, each
	 * replicated twice: q 4 heads, k and v 1 each: (4 + 2) x 128 = 768 */
	lay.tp = 16;
	ck_assert_int_eq(rl_parallel_place(&lay, 1, 80, 0, &node16, &p, &e), 0);
	n = rl_modelops_build(&c, &o, rows, &e);
	ck_assert_int_gt(n, 0);
	ck_assert_str_eq(row(rows, n, "qkv_proj")->shape, "1x768x8192");
	ck_assert_uint_eq(row(rows, n, "attention")->kv_heads, 1);
}
END_TEST

/* Pipeline: tp 2, pp 4, batch 8 at decode: the last stage's 20 layers, 4
 * micro-batches of 2 sequences, the stage's input received per
 * micro-batch, no embedding; the weights held once. */
START_TEST(test_llama70b_pp4)
{
	struct rl_hfconfig c = llama70b();
	struct rl_parallel lay = {2, 4, 1, 1, 0, 0, 0, 0, 0, 0};
	struct rl_parallel_place p;
	struct rl_modelops_opts o;
	struct rl_modelops_row rows[RL_MODELOPS_MAX];
	const struct rl_modelops_row *r;
	struct rl_err e;
	int n;

	memset(&o, 0, sizeof(o));
	o.phase = RL_PHASE_DECODE;
	o.batch = 8;
	o.seq = o.context = 2048;
	o.dtype = o.weight_dtype = o.kv_dtype = RL_BF16;
	ck_assert_int_eq(rl_parallel_place(&lay, 8, 80, 0, &hgx, &p, &e), 0);
	o.par = &p;
	n = rl_modelops_build(&c, &o, rows, &e);
	ck_assert_int_gt(n, 0);
	ck_assert_ptr_null(row(rows, n, "embed"));
	r = row(rows, n, "stage_recv");
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->kind, "sendrecv");
	ck_assert_str_eq(r->shape, "2x8192");
	ck_assert_uint_eq(r->count, 4);
	ck_assert_uint_eq(r->ranks, 2);
	r = row(rows, n, "gate_up");
	ck_assert_str_eq(r->shape, "2x28672x8192"); /* 2 x 28672 / 2 */
	ck_assert_uint_eq(r->count, 80);            /* 20 layers x 4 */
	ck_assert_uint_eq(r->weight_count, 20);
	r = row(rows, n, "attention");
	ck_assert_str_eq(r->shape, "2x32x1x2048x128");
	ck_assert_uint_eq(r->kv_heads, 4);
	ck_assert_uint_eq(row(rows, n, "lm_head")->count, 4);
	ck_assert_uint_eq(row(rows, n, "lm_head")->weight_count, 1);
}
END_TEST

/* Mixtral-8x7B (E 8, k 2), prefill of 64 x 128 tokens, dp 8, ep 8: each
 * replica's T = 8 x 128 = 1024 tokens; the group pools 8 x 1024 = 8192
 * tokens, which touch all 8 experts, each over 8192 x 2 / 8 = 2048; one
 * expert per GPU; the dispatch and combine all-to-alls move T x k x hidden
 * = 2048 x 4096 per GPU. */
START_TEST(test_mixtral_ep8)
{
	struct rl_hfconfig c;
	struct rl_parallel lay = {1, 1, 8, 8, 0, 0, 0, 0, 0, 0};
	struct rl_parallel_place p;
	struct rl_modelops_opts o;
	struct rl_modelops_row rows[RL_MODELOPS_MAX];
	const struct rl_modelops_row *r;
	struct rl_err e;
	int n;

	memset(&c, 0, sizeof(c));
	strcpy(c.model_type, "mixtral");
	c.family = RL_HF_LLAMA;
	c.hidden = 4096;
	c.intermediate = 14336;
	c.heads = 32;
	c.kv_heads = 8;
	c.layers = 32;
	c.vocab = 32000;
	c.head_dim = 128;
	c.experts = 8;
	c.experts_per_tok = 2;
	memset(&o, 0, sizeof(o));
	o.phase = RL_PHASE_PREFILL;
	o.batch = 64;
	o.seq = o.context = 128;
	o.dtype = o.weight_dtype = o.kv_dtype = RL_BF16;
	ck_assert_int_eq(rl_parallel_place(&lay, 64, 32, 0, &hgx, &p, &e), 0);
	o.par = &p;
	n = rl_modelops_build(&c, &o, rows, &e);
	ck_assert_int_gt(n, 0);
	r = row(rows, n, "expert_gate_up");
	ck_assert_str_eq(r->shape, "2048x28672x4096");
	ck_assert_uint_eq(r->count, 32);        /* 32 layers x 1 expert */
	ck_assert_uint_eq(r->weight_count, 32); /* 32 layers x 8 / 8 */
	r = row(rows, n, "expert_dispatch");
	ck_assert_str_eq(r->kind, "alltoall");
	ck_assert_str_eq(r->shape, "2048x4096");
	ck_assert_uint_eq(r->ranks, 8);
	ck_assert_uint_eq(r->count, 32);
	ck_assert_ptr_nonnull(row(rows, n, "expert_combine"));
	ck_assert_str_eq(row(rows, n, "qkv_proj")->shape, "1024x6144x4096");
}
END_TEST

Suite *suite_parallel(void)
{
	Suite *s = suite_create("parallel");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_span);
	tcase_add_test(tc, test_bubble);
	tcase_add_test(tc, test_in_flight);
	tcase_add_test(tc, test_place);
	tcase_add_test(tc, test_place_errors);
	tcase_add_test(tc, test_check_model);
	tcase_add_test(tc, test_ddp_buckets);
	tcase_add_test(tc, test_llama70b_tp8);
	tcase_add_test(tc, test_llama70b_pp4);
	tcase_add_test(tc, test_mixtral_ep8);
	suite_add_tcase(s, tc);
	return s;
}
