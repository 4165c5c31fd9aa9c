/* check_fusion.c - the fusion what-if: output bytes per kind, the byte
 * accounting of a fused group, and the grouping and proposals of the stream.
 *
 * Devices: A100 SXM4 40GB (1555 GB/s, 312 TFLOPS bf16 tensor, 39 bf16 and
 * 19.5 fp32 vector, FMA; half that for other work), eager runtime 6.6 us. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "check.h"
#include "formulas.h"
#include "fusion.h"
#include "model.h"
#include "num.h"

static struct rl_device a100;
static struct rl_model_ctx ctx;

static void setup(void)
{
	test_load_device("a100-sxm4-40gb", &a100);
	ctx.dev = &a100;
	ctx.host_overhead_us = 6.6;
	ctx.best_case = 1; /* roofline times, worked out by hand */
}

static void teardown(void)
{
	rl_device_release(&a100);
}

static void mkop(struct rl_op *op, const char *name, enum rl_kind k, enum rl_dtype t,
                 const char *shape)
{
	rl_op_init(op);
	op->name = name;
	op->kind = k;
	op->dtype = t;
	ck_assert_int_eq(rl_parse_dims(shape, op->dims, RL_MAX_DIMS, &op->ndims, NULL), 0);
	op->has |= RL_HAS_SHAPE;
}

static void predict(const struct rl_op *op, struct rl_pred *p)
{
	struct rl_err err = {0, ""};

	ck_assert_msg(rl_predict(op, &ctx, p, &err) == 0, "%s", err.msg);
}

START_TEST(test_output_bytes)
{
	static const struct {
		enum rl_kind kind;
		enum rl_dtype dtype;
		const char *shape;
		double out;
	} cases[] = {
	    {RL_KIND_POINTWISE, RL_FP32, "8x16", 8 * 16 * 4},
	    {RL_KIND_COPY, RL_BF16, "8x16", 8 * 16 * 2},
	    {RL_KIND_REDUCTION, RL_FP32, "8x16", 8 * 4}, /* one per row */
	    {RL_KIND_SOFTMAX, RL_FP16, "4x8x16", 4 * 8 * 16 * 2},
	    {RL_KIND_LAYERNORM, RL_BF16, "8x16", 8 * 16 * 2},    /* not weight, bias */
	    {RL_KIND_MATMUL, RL_BF16, "32x64x128", 32 * 64 * 2}, /* C[M,N] */
	    {RL_KIND_MATMUL, RL_BF16, "3x32x64x128", 3 * 32 * 64 * 2},
	    {RL_KIND_ATTENTION, RL_BF16, "2x4x16x8", 2 * 4 * 16 * 8 * 2},
	    {RL_KIND_ATTENTION, RL_BF16, "2x4x1x512x8", 2 * 4 * 1 * 8 * 2}, /* O[B,H,Sq,D] */
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct rl_op op;
		double out = -1;

		mkop(&op, "x", cases[i].kind, cases[i].dtype, cases[i].shape);
		ck_assert_int_eq(rl_op_output_bytes(&op, &out, NULL), 0);
		ck_assert_msg(out == cases[i].out, "case %zu: %g, expected %g", i, out,
		              cases[i].out);
	}
}
END_TEST

START_TEST(test_output_bytes_conv_and_explicit)
{
	struct rl_op op;
	struct rl_err e = {0, ""};
	double out;

	/* 32x64x56x56, 128 3x3 filters, stride 2, padding 1: Ho = Wo =
	 * floor((56 + 2 - 3) / 2) + 1 = 28; out = 32 x 128 x 28 x 28 x 2 B */
	mkop(&op, "c", RL_KIND_CONV2D, RL_FP16, "32x64x56x56");
	op.kernel[0] = 128, op.kernel[1] = 3, op.kernel[2] = 3;
	op.stride = 2, op.padding = 1;
	op.has |= RL_HAS_KERNEL;
	ck_assert_int_eq(rl_op_output_bytes(&op, &out, NULL), 0);
	ck_assert_double_eq(out, 32.0 * 128 * 28 * 28 * 2);

	op.has |= RL_HAS_BYTES;
	op.bytes = 1000;
	ck_assert_int_eq(rl_op_output_bytes(&op, &out, &e), RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(e.msg, "not known apart"));
}
END_TEST

/* The blog's x.cos().cos() on 2^28 fp32: fused, 2 x 2^28 x 4 B moved instead
 * of 4 x 2^28 x 4, so half the time (1381.02 us against 2762.04 us). */
START_TEST(test_cos_cos)
{
	struct rl_op a, b;
	struct rl_pred pa, pb, pf;
	struct rl_fusion g;

	mkop(&a, "cos_1", RL_KIND_POINTWISE, RL_FP32, "268435456");
	mkop(&b, "cos_2", RL_KIND_POINTWISE, RL_FP32, "268435456");
	predict(&a, &pa);
	predict(&b, &pb);
	rl_fusion_init(&g);
	ck_assert_int_eq(rl_fusion_add(&g, &a, &pa, NULL), 0);
	ck_assert_int_eq(rl_fusion_add(&g, &b, &pb, NULL), 0);
	rl_fusion_predict(&g, &ctx, &pf);
	ck_assert_double_eq(pf.flops, 2.0 * 268435456);
	ck_assert_double_eq(pf.bytes, 8.0 * 268435456); /* read x, write y */
	ck_assert_double_eq_tol(pf.t_memory_us, 2147483648 / 1555e9 * 1e6, 1e-6); /* 1381.02 */
	ck_assert_double_eq_tol(pf.t_us, 1381.0184, 1e-3);
	ck_assert_double_eq_tol(g.unfused_us, 2762.0368, 1e-3);
	ck_assert_double_eq_tol(pf.t_overhead_us, 6.6, 1e-12); /* one launch */
	ck_assert_int_eq(pf.bound, RL_BOUND_MEMORY);
	/* non-FMA fp32: 9.75 TFLOPS; 2 x 2^28 / 9.75e12 = 55.0637 us */
	ck_assert_double_eq_tol(pf.t_compute_us, 55.0637, 1e-4);
}
END_TEST

/* matmul 4096x768x3072 -> residual add (2 inputs) -> layernorm, bf16:
 *   matmul reads 2 (4096 x 3072 + 3072 x 768) = 29,884,416, writes
 *     2 x 4096 x 768 = 6,291,456
 *   add reads 2 x 2 x 3,145,728 = 12,582,912, of which 6,291,456 is the
 *     matmul's output: 6,291,456 from memory (the residual)
 *   layernorm reads 2 x 3,145,728 + 2 x 2 x 768 = 6,294,528, of which
 *     6,291,456 is the add's output: 3,072 from memory (weight and bias);
 *     writes 6,291,456
 *   bytes = 29,884,416 + 6,291,456 + 3,072 + 6,291,456 = 42,470,400
 *   flops = 2 x 4096 x 768 x 3072 + 3,145,728 + 8 x 3,145,728 = 19,355,664,384
 *   t_compute = 19,327,352,832 / 312e12 + 3,145,728 / 19.5e12
 *             + 25,165,824 / 19.5e12 = 61.946644 + 0.161319 + 1.290555 us */
START_TEST(test_matmul_add_ln)
{
	struct rl_op op[3];
	struct rl_pred p[3], pf;
	struct rl_fusion g;
	int i;

	mkop(&op[0], "mm", RL_KIND_MATMUL, RL_BF16, "4096x768x3072");
	mkop(&op[1], "add", RL_KIND_POINTWISE, RL_BF16, "4096x768");
	op[1].inputs = 2;
	mkop(&op[2], "ln", RL_KIND_LAYERNORM, RL_BF16, "4096x768");
	rl_fusion_init(&g);
	for (i = 0; i < 3; i++) {
		predict(&op[i], &p[i]);
		ck_assert_int_eq(rl_fusion_add(&g, &op[i], &p[i], NULL), 0);
	}
	rl_fusion_predict(&g, &ctx, &pf);
	ck_assert_double_eq(pf.bytes, 42470400);
	ck_assert_double_eq(pf.flops, 19355664384.0);
	ck_assert_double_eq_tol(pf.t_compute_us, 61.946644 + 0.161319 + 1.290555, 1e-5);
	ck_assert_double_eq_tol(pf.t_memory_us, 42470400 / 1555e9 * 1e6, 1e-9);
	ck_assert_int_eq(pf.bound, RL_BOUND_COMPUTE);
	ck_assert_int_eq(pf.pipe, RL_PIPE_BF16_TENSOR); /* the matmul's */
	ck_assert_double_eq_tol(pf.t_us, pf.t_compute_us, 1e-12);
}
END_TEST

START_TEST(test_join_errors)
{
	struct rl_op a, b;
	struct rl_pred pa, pb;
	struct rl_fusion g;
	struct rl_err e = {0, ""};

	mkop(&a, "a", RL_KIND_POINTWISE, RL_FP32, "1024");
	mkop(&b, "b", RL_KIND_POINTWISE, RL_FP32, "1024");
	b.count = 12;
	predict(&a, &pa);
	predict(&b, &pb);
	rl_fusion_init(&g);
	ck_assert_int_eq(rl_fusion_add(&g, &a, &pa, NULL), 0);
	ck_assert_int_eq(rl_fusion_add(&g, &b, &pb, &e), RL_ERR_PARSE);
	ck_assert_str_eq(e.msg, "column 'fuse': count 12 differs from the group's 1 "
	                        "(a fused kernel runs its ops together)");
	b.count = 1;
	b.has |= RL_HAS_BYTES;
	b.bytes = 8192;
	ck_assert_int_eq(rl_fusion_add(&g, &b, &pb, &e), RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(e.msg, "'b' cannot be fused"));
}
END_TEST

/* ---- the stream ---- */

struct seen {
	char names[8][16];
	size_t nops[8];
	double t_us[8];
	int n;
};

static int record(const struct rl_fuse_row *row, void *user)
{
	struct seen *s = user;

	ck_assert_int_lt(s->n, 8);
	snprintf(s->names[s->n], sizeof(s->names[0]), "%s", row->op->name);
	s->nops[s->n] = row->nops;
	s->t_us[s->n] = row->p->t_us;
	s->n++;
	return 0;
}

/* Small elementwise ops (4096 fp32: 32 KiB, 0.02 us of traffic) are all
 * overhead-bound at 6.6 us per launch: fusing n of them saves (n - 1) x 6.6. */
START_TEST(test_fuse_stream)
{
	static const struct {
		const char *name, *fuse;
		enum rl_kind kind;
		const char *shape;
	} list[] = {
	    {"a", "g", RL_KIND_POINTWISE, "4096"},          {"b", "g", RL_KIND_POINTWISE, "4096"},
	    {"c", NULL, RL_KIND_POINTWISE, "4096"}, /* run c, d, e */
	    {"d", NULL, RL_KIND_SOFTMAX, "4096"},           {"e", NULL, RL_KIND_LAYERNORM, "4096"},
	    {"mm", NULL, RL_KIND_MATMUL, "8192x8192x8192"}, /* compute-bound: ends it */
	    {"f", NULL, RL_KIND_POINTWISE, "4096"},         /* a run of one: nothing */
	    {"g2", "g", RL_KIND_POINTWISE, "4096"},         /* "g" again: a new group */
	};
	struct rl_fuse_stream fs;
	struct seen seen = {{{0}}, {0}, {0}, 0};
	size_t i;

	rl_fuse_stream_init(&fs, &ctx, 1, record, &seen);
	for (i = 0; i < ARRAY_SIZE(list); i++) {
		struct rl_op op;
		struct rl_pred p;

		mkop(&op, list[i].name, list[i].kind,
		     list[i].kind == RL_KIND_MATMUL ? RL_BF16 : RL_FP32, list[i].shape);
		op.fuse = list[i].fuse;
		predict(&op, &p);
		ck_assert_int_eq(rl_fuse_stream_op(&fs, &op, &p, NULL), 0);
	}
	ck_assert_int_eq(rl_fuse_stream_end(&fs, NULL), 0);

	ck_assert_int_eq(seen.n, 7);
	ck_assert_str_eq(seen.names[0], "g");
	ck_assert_int_eq(seen.nops[0], 2);
	ck_assert_double_eq_tol(seen.t_us[0], 6.6, 1e-12);
	ck_assert_str_eq(seen.names[1], "c");
	ck_assert_str_eq(seen.names[5], "f");
	ck_assert_str_eq(seen.names[6], "g");
	ck_assert_int_eq(seen.nops[6], 1);

	ck_assert_int_eq(fs.ngroups, 2);
	ck_assert_double_eq_tol(fs.groups[0].unfused_us, 13.2, 1e-12);
	ck_assert_double_eq_tol(fs.groups[0].fused_us, 6.6, 1e-12);
	ck_assert_int_eq(fs.nproposals, 1);
	ck_assert_str_eq(fs.proposals[0].first, "c");
	ck_assert_str_eq(fs.proposals[0].last, "e");
	ck_assert_int_eq(fs.proposals[0].nops, 3);
	ck_assert_double_eq_tol(fs.proposals[0].unfused_us, 19.8, 1e-12);
	ck_assert_double_eq_tol(fs.proposals[0].fused_us, 6.6, 1e-12);
	rl_fuse_stream_release(&fs);
}
END_TEST

Suite *suite_fusion(void)
{
	Suite *s = suite_create("fusion");
	TCase *tc = tcase_create("fusion");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_output_bytes);
	tcase_add_test(tc, test_output_bytes_conv_and_explicit);
	tcase_add_test(tc, test_cos_cos);
	tcase_add_test(tc, test_matmul_add_ln);
	tcase_add_test(tc, test_join_errors);
	tcase_add_test(tc, test_fuse_stream);
	suite_add_tcase(s, tc);
	return s;
}
