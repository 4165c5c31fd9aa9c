/* check_import.c - the CPU-op-to-kernel join, the ATen mapping and the step
 * view, on the hand-built trace-nested.json and on the two real fixtures.
 * Fixture numbers come from tests/trace-facts.py (python, independent of
 * this code), run once: see the comments at each value. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atenmap.h"
#include "check.h"
#include "formulas.h"
#include "import.h"
#include "ncclmap.h"
#include "step.h"
#include "trace.h"

static void import_file(const char *file, struct rl_import *imp)
{
	char path[1024];
	struct rl_trace t;
	struct rl_err e;

	snprintf(path, sizeof(path), "%s/%s", RL_TEST_DATA, file);
	ck_assert_msg(rl_trace_read(path, &t, &e) == 0, "%s", e.msg);
	ck_assert_msg(rl_import_trace(&t, imp, &e) == 0, "%s", e.msg);
	rl_trace_release(&t);
}

static void check_dims(const struct rl_op *op, int n, const uint64_t *want)
{
	int i;

	ck_assert_int_eq(op->ndims, n);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(op->dims[i], want[i]);
}

static double flops_of(const struct rl_op *op)
{
	double f, b;

	ck_assert_int_eq(rl_op_work(op, &f, &b, NULL), 0);
	return f;
}

START_TEST(test_nested)
{
	struct rl_import imp;
	struct rl_step st;

	import_file("trace-nested.json", &imp);
	/* linear (thread 1, with t and addmm inside: the launch and the memset
	 * call sit in addmm, folded into linear), relu (thread 2, starting
	 * inside linear's time but on another thread), add, and the launch at
	 * 300 us outside any op; the kernel of correlation 12 has no launch */
	ck_assert_uint_eq(imp.n, 4);
	ck_assert_str_eq(imp.ops[0].name, "linear#1");
	ck_assert_int_eq(imp.ops[0].kind, RL_KIND_MATMUL);
	check_dims(&imp.ops[0], 3, (const uint64_t[]){4, 16, 8});
	ck_assert_uint_eq(imp.ops[0].launches, 2);
	ck_assert_double_eq_tol(imp.ops[0].measured_us, 3.5 + 0.5, 1e-9);
	ck_assert_double_eq_tol(imp.ops[0].host_us, 50, 1e-9);
	ck_assert_str_eq(imp.ops[1].name, "relu#2");
	ck_assert_int_eq(imp.ops[1].dtype, RL_FP32);
	ck_assert_double_eq_tol(imp.ops[1].measured_us, 1, 1e-9);
	ck_assert_str_eq(imp.ops[2].name, "add#3");
	ck_assert_uint_eq(imp.ops[2].inputs, 2);
	ck_assert_double_eq_tol(imp.ops[2].measured_us, 1.25, 1e-9);
	ck_assert_str_eq(imp.ops[3].name, "cudaLaunchKernel#4");
	ck_assert_int_eq(imp.ops[3].kind, RL_KIND_CUSTOM);
	ck_assert_double_eq_tol(imp.ops[3].measured_us, 2, 1e-9);
	ck_assert_double_eq_tol(imp.ops[3].host_us, 5, 1e-9);
	ck_assert_uint_eq(imp.orphans, 1);
	ck_assert_uint_eq(imp.unlinked, 1);
	ck_assert_int_eq(imp.unlinked_ns, 4000);
	ck_assert_str_eq(imp.device, "NVIDIA H200");
	/* activities 120-123.5, 124-124.5, 130-131, 210-211.25, 305-307,
	 * 400-404: 284 us from first to last, 12.25 busy, 5 gaps (0.5, 5.5,
	 * 79, 93.75, 93), the longest 211.25 -> 305 */
	rl_step_init(&st);
	rl_step_timeline(&st, imp.gpu, imp.ngpu);
	ck_assert_double_eq_tol(st.span_us, 284, 1e-9);
	ck_assert_double_eq_tol(st.busy_us, 12.25, 1e-9);
	ck_assert_uint_eq(st.gaps, 5);
	ck_assert_double_eq_tol(st.longest_gap_us, 93.75, 1e-9);
	rl_step_release(&st);
	rl_import_release(&imp);
}
END_TEST

START_TEST(test_bert)
{
	struct rl_import imp;
	struct rl_step st;
	double measured = 0, host = 0;
	size_t i, matmul = 0, launches = 0;

	import_file("trace_bert_base_fwd_b32_s128_bf16.json.gz", &imp);
	/* trace-facts.py: 153 rows, 73 of them aten::linear (6 per layer x 12,
	 * and the pooler), 154 kernels and 24 memsets = 178 activities,
	 * 1906.799 + 19.135 = 1925.934 us; host_us of the rows 6852.931 */
	ck_assert_uint_eq(imp.n, 153);
	for (i = 0; i < imp.n; i++) {
		matmul += imp.ops[i].kind == RL_KIND_MATMUL;
		measured += imp.ops[i].measured_us;
		host += imp.ops[i].host_us;
		launches += imp.ops[i].launches;
	}
	ck_assert_uint_eq(matmul, 73);
	ck_assert_uint_eq(launches, 178);
	ck_assert_uint_eq(imp.gpu_by_kind[RL_GPU_KERNEL], 154);
	ck_assert_uint_eq(imp.gpu_by_kind[RL_GPU_MEMSET], 24);
	ck_assert_double_eq_tol(measured, 1925.934, 1e-6);
	ck_assert_double_eq_tol(host, 6852.931, 1e-6);
	ck_assert_uint_eq(imp.custom, 0);
	ck_assert_uint_eq(imp.unlinked, 0);
	/* row 8: linear [[32, 128, 768], [768, 768], [768]] -> 4096x768x768,
	 * 2 x 4096 x 768 x 768 = 4,831,838,208 FLOPs; 10.400 us, host 137.330 */
	ck_assert_str_eq(imp.ops[7].name, "linear#8");
	check_dims(&imp.ops[7], 3, (const uint64_t[]){4096, 768, 768});
	ck_assert_double_eq(flops_of(&imp.ops[7]), 4831838208.0);
	ck_assert_double_eq_tol(imp.ops[7].measured_us, 10.4, 1e-9);
	ck_assert_double_eq_tol(imp.ops[7].host_us, 137.33, 1e-9);
	/* row 11: sdpa on q, k, v [32, 12, 128, 64], is_causal False, 2 kernels */
	ck_assert_int_eq(imp.ops[10].kind, RL_KIND_ATTENTION);
	check_dims(&imp.ops[10], 4, (const uint64_t[]){32, 12, 128, 64});
	ck_assert_int_eq(imp.ops[10].causal, 0);
	ck_assert_uint_eq(imp.ops[10].launches, 2);
	ck_assert_double_eq_tol(imp.ops[10].measured_us, 10.016, 1e-9);
	/* row 6: add [32, 128, 768] + [1, 128, 768] (position embeddings,
	 * broadcast): (3145728 + 98304 + 3145728) x 2 B = 12,779,520 bytes */
	ck_assert_int_eq(imp.ops[5].kind, RL_KIND_POINTWISE);
	ck_assert(imp.ops[5].has & RL_HAS_BYTES);
	ck_assert_double_eq(imp.ops[5].bytes, 12779520.0);
	/* trace-facts.py: span 10039.932 us, busy 1925.934, 177 gaps, the
	 * longest 331.999 us */
	rl_step_init(&st);
	rl_step_timeline(&st, imp.gpu, imp.ngpu);
	ck_assert_double_eq_tol(st.span_us, 10039.932, 1e-6);
	ck_assert_double_eq_tol(st.busy_us, 1925.934, 1e-6);
	ck_assert_uint_eq(st.gaps, 177);
	ck_assert_double_eq_tol(st.longest_gap_us, 331.999, 1e-6);
	rl_step_release(&st);
	rl_import_release(&imp);
}
END_TEST

START_TEST(test_gpt2)
{
	struct rl_import imp;
	double measured = 0;
	size_t i, matmul = 0;

	import_file("trace_gpt2_fwd_b1_s1_bf16.json.gz", &imp);
	/* trace-facts.py: 235 rows, 48 addmm and 1 linear (the LM head), one
	 * aten::arange(1) (int64, one value), 574.583 us of kernels */
	ck_assert_uint_eq(imp.n, 235);
	for (i = 0; i < imp.n; i++) {
		matmul += imp.ops[i].kind == RL_KIND_MATMUL;
		measured += imp.ops[i].measured_us;
	}
	ck_assert_uint_eq(matmul, 49);
	ck_assert_double_eq_tol(measured, 574.583, 1e-6);
	ck_assert_uint_eq(imp.custom, 0);
	ck_assert_int_eq(imp.ops[1].kind, RL_KIND_POINTWISE);
	ck_assert_int_eq(imp.ops[1].dtype, RL_INT64);
	check_dims(&imp.ops[1], 1, (const uint64_t[]){1});
	/* row 7: addmm(bias [2304], x [1, 768], W [768, 2304]): M 1, N 2304,
	 * K 768: 2 x 1 x 2304 x 768 = 3,538,944 FLOPs */
	ck_assert_str_eq(imp.ops[6].name, "addmm#7");
	check_dims(&imp.ops[6], 3, (const uint64_t[]){1, 2304, 768});
	ck_assert_double_eq(flops_of(&imp.ops[6]), 3538944.0);
	/* row 8: cat([[0], [1, 12, 1, 64]], -2): the empty tensor drops out;
	 * the list's dtype is not recorded: the trace's common dtype, bf16 */
	ck_assert_int_eq(imp.ops[7].kind, RL_KIND_COPY);
	check_dims(&imp.ops[7], 4, (const uint64_t[]){1, 12, 1, 64});
	ck_assert_int_eq(imp.ops[7].dtype, RL_BF16);
	rl_import_release(&imp);
}
END_TEST

/* Fused transformer ops: each part a row with its own kernels. trace-mha.json
 * (hand-written): an _native_multi_head_attention at 100-190 us holding
 * linear -> addmm (kernel 1 us), scaled_dot_product_attention (2 us) and
 * linear (4 us), plus a memset (8 us) launched by the MHA itself; then an
 * _transformer_encoder_layer_fwd at 300-500 holding another MHA (16, 32 and
 * 64 us) and a layer_norm (128 us). x is [2, 5, 8]: 10 tokens, 8 wide, 2
 * heads of 4. */
START_TEST(test_composite)
{
	struct rl_import imp;
	static const char *const names[] = {
		"_native_multi_head_attention#1", "linear#2", "scaled_dot_product_attention#3",
		"linear#4", "linear#5", "scaled_dot_product_attention#6", "linear#7",
		"layer_norm#8",
	};
	static const double us[] = {8, 1, 2, 4, 16, 32, 64, 128};
	size_t i;

	import_file("trace-mha.json", &imp);
	ck_assert_uint_eq(imp.n, 8);
	for (i = 0; i < imp.n; i++) {
		ck_assert_str_eq(imp.ops[i].name, names[i]);
		ck_assert_uint_eq(imp.ops[i].launches, 1);
		ck_assert_double_eq_tol(imp.ops[i].measured_us, us[i], 1e-9);
	}
	/* the memset the MHA launched itself: a custom row (the one left) */
	ck_assert_int_eq(imp.ops[0].kind, RL_KIND_CUSTOM);
	ck_assert_uint_eq(imp.custom, 1);
	/* in-projection: 2 x 10 x 24 x 8 = 3840 FLOPs; attention 4 x 2 x 2 x
	 * 5 x 5 x 4 = 1600; out-projection 2 x 10 x 8 x 8 = 1280 */
	ck_assert_double_eq(flops_of(&imp.ops[1]), 3840);
	ck_assert_int_eq(imp.ops[2].kind, RL_KIND_ATTENTION);
	ck_assert_double_eq(flops_of(&imp.ops[2]), 1600);
	ck_assert_uint_eq(imp.ops[2].kv_heads, 0);
	ck_assert_double_eq(flops_of(&imp.ops[3]), 1280);
	/* inside the encoder layer, the MHA is split too: its parts and the
	 * layer norm are rows, neither fused op is */
	ck_assert_double_eq(flops_of(&imp.ops[4]), 3840);
	ck_assert_int_eq(imp.ops[7].kind, RL_KIND_LAYERNORM);
	/* host_us: each part's own CPU time */
	ck_assert_double_eq_tol(imp.ops[1].host_us, 20, 1e-9);
	ck_assert_double_eq_tol(imp.ops[2].host_us, 25, 1e-9);
	ck_assert_int_eq(rl_aten_composite("aten::_native_multi_head_attention"), 1);
	ck_assert_int_eq(rl_aten_composite("aten::_transformer_encoder_layer_fwd"), 1);
	ck_assert_int_eq(rl_aten_composite("aten::linear"), 0);
	ck_assert_int_eq(rl_aten_composite("_native_multi_head_attention"), 0);
	rl_import_release(&imp);
}
END_TEST

/* ---- the mapping table on hand-made inputs ---- */

static struct rl_trace_input T(const char *type, int nd, const uint64_t *d)
{
	struct rl_trace_input x;

	memset(&x, 0, sizeof(x));
	x.type = type;
	x.concrete = "";
	x.has_dims = 1;
	x.nd = nd;
	memcpy(x.dims, d, (size_t)nd * sizeof(*d));
	return x;
}

static struct rl_trace_input S(const char *concrete)
{
	struct rl_trace_input x;

	memset(&x, 0, sizeof(x));
	x.type = "Scalar";
	x.concrete = concrete;
	x.has_dims = 1;
	return x;
}

static int map(const char *name, struct rl_trace_input *in, int n, struct rl_op *op)
{
	rl_op_init(op);
	return rl_aten_map(name, in, n, RL_FP32, op);
}

START_TEST(test_map_conv)
{
	/* docs/oplist-format.md's worked conv2d: 32x64x56x56, 128x3x3, stride
	 * 2, padding 1, fp16: 3,699,376,128 FLOPs */
	struct rl_trace_input in[7] = {
		T("c10::Half", 4, (const uint64_t[]){32, 64, 56, 56}),
		T("c10::Half", 4, (const uint64_t[]){128, 64, 3, 3}),
		S(""), S("[2, 2]"), S("[1, 1]"), S("[1, 1]"), S("1"),
	};
	struct rl_op op;

	in[2].type = "";
	ck_assert_int_eq(map("aten::conv2d", in, 7, &op), 1);
	ck_assert_int_eq(op.kind, RL_KIND_CONV2D);
	ck_assert_int_eq(op.dtype, RL_FP16);
	ck_assert_uint_eq(op.kernel[0], 128);
	ck_assert_uint_eq(op.stride, 2);
	ck_assert_uint_eq(op.padding, 1);
	ck_assert_double_eq(flops_of(&op), 3699376128.0);
	/* dilation 2 is not a conv2d row: custom, bytes of the inputs */
	in[5] = S("[2, 2]");
	ck_assert_int_eq(map("aten::conv2d", in, 7, &op), 0);
	ck_assert_int_eq(op.kind, RL_KIND_CUSTOM);
	ck_assert_double_eq(op.bytes, (32.0 * 64 * 56 * 56 + 128 * 64 * 3 * 3) * 2);
}
END_TEST

START_TEST(test_map_attention)
{
	struct rl_trace_input q = T("c10::BFloat16", 4, (const uint64_t[]){2, 8, 1024, 64});
	struct rl_trace_input in[6] = {q, q, q, S(""), S("0."), S("True")};
	struct rl_trace_input fl[9] = {
		T("c10::BFloat16", 4, (const uint64_t[]){2, 1024, 8, 64}),
		T("c10::BFloat16", 4, (const uint64_t[]){2, 4096, 8, 64}),
		T("c10::BFloat16", 4, (const uint64_t[]){2, 4096, 8, 64}),
		S(""), S(""), S("1024"), S("4096"), S("0."), S("False"),
	};
	struct rl_op op;

	ck_assert_int_eq(map("aten::scaled_dot_product_attention", in, 6, &op), 1);
	check_dims(&op, 4, (const uint64_t[]){2, 8, 1024, 64});
	ck_assert_int_eq(op.causal, 1);
	/* flash forward takes [B, S, H, D]; Sq 1024 and Sk 4096 differ */
	ck_assert_int_eq(map("aten::_flash_attention_forward", fl, 9, &op), 1);
	check_dims(&op, 5, (const uint64_t[]){2, 8, 1024, 4096, 64});
	ck_assert_int_eq(op.causal, 0);
}
END_TEST

START_TEST(test_map_shapes)
{
	struct rl_op op;
	struct rl_trace_input mm[2] = {
		T("float", 4, (const uint64_t[]){8, 1, 64, 32}),
		T("float", 3, (const uint64_t[]){4, 32, 16}),
	};
	struct rl_trace_input ln[3] = {
		T("c10::BFloat16", 4, (const uint64_t[]){2, 3, 4, 8}), S("[4, 8]"),
		T("c10::BFloat16", 2, (const uint64_t[]){4, 8}),
	};
	struct rl_trace_input sm[3] = {
		T("c10::Half", 3, (const uint64_t[]){2, 5, 7}), S("1"), S("False"),
	};
	struct rl_trace_input red[4] = {
		T("float", 2, (const uint64_t[]){8, 128}), S("[-1]"), S("False"), S(""),
	};
	struct rl_trace_input am[3] = {
		T("long int", 2, (const uint64_t[]){3, 4}), S("0"), S("False"),
	};
	struct rl_trace_input foo[1] = {T("float", 2, (const uint64_t[]){10, 10})};

	/* matmul broadcasts batch dims 8x1 and 4: 32 problems of 64x16x32 */
	ck_assert_int_eq(map("aten::matmul", mm, 2, &op), 1);
	check_dims(&op, 4, (const uint64_t[]){32, 64, 16, 32});
	/* layer_norm over the last two dims: 6 rows of 32 */
	ck_assert_int_eq(map("aten::layer_norm", ln, 3, &op), 1);
	ck_assert_int_eq(op.kind, RL_KIND_LAYERNORM);
	check_dims(&op, 2, (const uint64_t[]){6, 32});
	/* softmax over dim 1 of 2x5x7: 14 rows of 5 */
	ck_assert_int_eq(map("aten::_softmax", sm, 3, &op), 1);
	check_dims(&op, 2, (const uint64_t[]){14, 5});
	/* sum over the last dim; with no dim, over everything */
	ck_assert_int_eq(map("aten::sum", red, 4, &op), 1);
	check_dims(&op, 2, (const uint64_t[]){8, 128});
	red[1] = S("");
	ck_assert_int_eq(map("aten::sum", red, 2, &op), 1);
	check_dims(&op, 1, (const uint64_t[]){1024});
	/* argmax(dim=0) of 3x4: 4 rows of 3; int64 */
	ck_assert_int_eq(map("aten::argmax", am, 3, &op), 1);
	check_dims(&op, 2, (const uint64_t[]){4, 3});
	ck_assert_int_eq(op.dtype, RL_INT64);
	/* an op of no formula: custom, the bytes of its input */
	ck_assert_int_eq(map("aten::foo", foo, 1, &op), 0);
	ck_assert_int_eq(op.kind, RL_KIND_CUSTOM);
	ck_assert_double_eq(op.flops, 0);
	ck_assert_double_eq(op.bytes, 400);
}
END_TEST

static double bytes_of(const struct rl_op *op)
{
	double f, b;

	ck_assert_int_eq(rl_op_work(op, &f, &b, NULL), 0);
	return b;
}

/* Grouped-query attention: K and V with fewer heads than Q. The issue's
 * decode row, batch 64, 32 query heads, 8 KV heads, context 2048, head dim
 * 128, bf16: Q and O 2 x 64 x 32 x 1 x 128 x 2 B = 1,048,576 B, K and V
 * 2 x 64 x 8 x 2048 x 128 x 2 B = 536,870,912 B (4x fewer than with 32
 * heads: 2,147,483,648). */
START_TEST(test_map_gqa)
{
	struct rl_trace_input sd[8] = {
		T("c10::BFloat16", 4, (const uint64_t[]){64, 32, 1, 128}),
		T("c10::BFloat16", 4, (const uint64_t[]){64, 8, 2048, 128}),
		T("c10::BFloat16", 4, (const uint64_t[]){64, 8, 2048, 128}),
		S(""), S("0."), S("False"), S(""), S("True"),
	};
	struct rl_trace_input fl[9] = {
		T("c10::BFloat16", 4, (const uint64_t[]){2, 1024, 32, 64}),
		T("c10::BFloat16", 4, (const uint64_t[]){2, 1024, 8, 64}),
		T("c10::BFloat16", 4, (const uint64_t[]){2, 1024, 8, 64}),
		S(""), S(""), S("1024"), S("1024"), S("0."), S("True"),
	};
	struct rl_op op;

	sd[3].type = "";
	ck_assert_int_eq(map("aten::scaled_dot_product_attention", sd, 8, &op), 1);
	check_dims(&op, 5, (const uint64_t[]){64, 32, 1, 2048, 128});
	ck_assert_uint_eq(op.kv_heads, 8);
	ck_assert_double_eq(bytes_of(&op), 1048576.0 + 536870912.0);
	op.kv_heads = 0;
	ck_assert_double_eq(bytes_of(&op), 1048576.0 + 2147483648.0);
	/* the cuDNN and flash kernels under SDPA: [B, S, H, D] for flash */
	ck_assert_int_eq(map("aten::_cudnn_attention_forward", sd, 8, &op), 1);
	ck_assert_uint_eq(op.kv_heads, 8);
	ck_assert_int_eq(map("aten::_flash_attention_forward", fl, 9, &op), 1);
	check_dims(&op, 4, (const uint64_t[]){2, 32, 1024, 64});
	ck_assert_uint_eq(op.kv_heads, 8);
	ck_assert_int_eq(op.causal, 1);
	/* 12 KV heads do not divide 32 query heads: no attention of ours */
	sd[1].dims[1] = sd[2].dims[1] = 12;
	ck_assert_int_eq(map("aten::scaled_dot_product_attention", sd, 8, &op), 0);
	/* as many heads as Q: kv_heads stays empty */
	sd[1].dims[1] = sd[2].dims[1] = 32;
	ck_assert_int_eq(map("aten::scaled_dot_product_attention", sd, 8, &op), 1);
	ck_assert_uint_eq(op.kv_heads, 0);
}
END_TEST

/* Mixture-of-experts routing and expert GEMMs, as transformers 5 records
 * them for Mixtral (shapes from tests/data/trace_mixtral_*). */
START_TEST(test_map_moe)
{
	struct rl_op op;
	/* gate_up of 2 routed rows: [2, 4096] x [8, 4096, 28672], offs [8] */
	struct rl_trace_input gm[5] = {
		T("c10::BFloat16", 2, (const uint64_t[]){2, 4096}),
		T("c10::BFloat16", 3, (const uint64_t[]){8, 4096, 28672}),
		T("int", 1, (const uint64_t[]){8}), S(""), S(""),
	};
	struct rl_trace_input gb[2] = {
		T("c10::BFloat16", 3, (const uint64_t[]){8, 16, 64}),
		T("c10::BFloat16", 3, (const uint64_t[]){8, 64, 32}),
	};
	struct rl_trace_input gk[3] = {
		T("c10::BFloat16", 2, (const uint64_t[]){16, 256}),
		T("c10::BFloat16", 2, (const uint64_t[]){256, 32}),
		T("int", 1, (const uint64_t[]){4}),
	};
	struct rl_trace_input tk[5] = {
		T("float", 2, (const uint64_t[]){256, 8}), S("2"), S("-1"), S("True"), S("True"),
	};
	struct rl_trace_input so[3] = {T("long int", 1, (const uint64_t[]){512}), S("-1"), S("False")};
	struct rl_trace_input ss[4] = {
		T("long int", 1, (const uint64_t[]){512}), S("False"), S("-1"), S("False"),
	};
	struct rl_trace_input hi[4] = {T("int", 1, (const uint64_t[]){512}), S("8"), S("0"), S("7")};
	struct rl_trace_input cs[3] = {T("bool", 2, (const uint64_t[]){1, 256}), S("-1"), S("")};
	struct rl_trace_input ci[3] = {T("int", 1, (const uint64_t[]){8}), S("0"), S("3")};
	struct rl_trace_input df[5] = {
		T("long int", 2, (const uint64_t[]){1, 256}), S("1"), S("-1"),
		T("long int", 2, (const uint64_t[]){1, 1}), S(""),
	};
	struct rl_trace_input ix[2] = {T("c10::BFloat16", 2, (const uint64_t[]){256, 4096}), S("")};
	struct rl_trace_input nz[1] = {T("bool", 0, (const uint64_t[]){1})};
	struct rl_trace_input fd[2] = {
		T("long int", 1, (const uint64_t[]){512}), T("long int", 0, (const uint64_t[]){1}),
	};

	/* 2 rows meet at most 2 of the 8 experts: FLOPs 2 x 2 x 28672 x 4096 =
	 * 469,762,048; bytes 2 x (2 x 4096 + 2 x 28672) + 2 x 2 x 4096 x 28672
	 * = 131,072 + 469,762,048 */
	ck_assert_int_eq(map("aten::_grouped_mm", gm, 5, &op), 1);
	ck_assert_int_eq(op.kind, RL_KIND_MATMUL);
	check_dims(&op, 3, (const uint64_t[]){2, 28672, 4096});
	ck_assert_double_eq(flops_of(&op), 469762048.0);
	ck_assert_double_eq(bytes_of(&op), 469893120.0);
	/* 128 rows: all 8 experts, 2 x (128 x 4096 + 128 x 28672) + 2 x 8 x
	 * 4096 x 28672 = 8,388,608 + 1,879,048,192 */
	gm[0].dims[0] = 128;
	ck_assert_int_eq(map("aten::_grouped_mm", gm, 5, &op), 1);
	ck_assert_double_eq(bytes_of(&op), 1887436800.0);
	/* 3-D x 3-D: one GEMM per group */
	ck_assert_int_eq(map("aten::_grouped_mm", gb, 2, &op), 1);
	check_dims(&op, 4, (const uint64_t[]){8, 16, 32, 64});
	/* 2-D x 2-D, K split in 4 groups: 4 outputs of 16 x 32; bytes 2 x (16
	 * x 256 + 4 x 16 x 32) + 2 x 256 x 32 = 12,288 + 16,384 */
	ck_assert_int_eq(map("aten::_grouped_mm", gk, 3, &op), 1);
	check_dims(&op, 3, (const uint64_t[]){16, 32, 256});
	ck_assert_double_eq(bytes_of(&op), 28672.0);
	/* 3-D x 2-D, N split in 8 groups: A[8, 16, 64] x B[64, 256], one
	 * output of 16 x 256; FLOPs 2 x 16 x 256 x 64 = 524,288; bytes 2 x (8
	 * x 16 x 64 + 16 x 256) + 2 x 64 x 256 = 24,576 + 32,768 */
	gk[0] = gb[0];
	gk[1] = T("c10::BFloat16", 2, (const uint64_t[]){64, 256});
	gk[2] = T("int", 1, (const uint64_t[]){8});
	ck_assert_int_eq(map("aten::_grouped_mm", gk, 3, &op), 1);
	check_dims(&op, 3, (const uint64_t[]){16, 256, 64});
	ck_assert_double_eq(flops_of(&op), 524288.0);
	ck_assert_double_eq(bytes_of(&op), 57344.0);
	/* topk 2 of 8 per row: 2048 x 4 B read, 256 x 2 x (4 + 8) B written */
	ck_assert_int_eq(map("aten::topk", tk, 5, &op), 1);
	ck_assert_int_eq(op.kind, RL_KIND_REDUCTION);
	check_dims(&op, 2, (const uint64_t[]){256, 8});
	ck_assert_double_eq(bytes_of(&op), 8192.0 + 6144.0);
	/* sort of 512 int64: 512 x (8 + 8 + 8) B, 512 x 9 comparisons; the
	 * stable overload (dim at 2) alike; argsort writes no values */
	ck_assert_int_eq(map("aten::sort", so, 3, &op), 1);
	check_dims(&op, 1, (const uint64_t[]){512});
	ck_assert_double_eq(bytes_of(&op), 12288.0);
	ck_assert_double_eq(flops_of(&op), 4608.0);
	ck_assert_int_eq(map("aten::sort", ss, 4, &op), 1);
	ck_assert_double_eq(flops_of(&op), 4608.0);
	ck_assert_int_eq(map("aten::argsort", so, 3, &op), 1);
	ck_assert_double_eq(bytes_of(&op), 8192.0);
	/* histc of 512 int32 into 8 bins: 2048 + 32 B */
	ck_assert_int_eq(map("aten::histc", hi, 4, &op), 1);
	ck_assert_double_eq(bytes_of(&op), 2080.0);
	/* cumsum of 256 bools: int64 out, 256 x (1 + 8) B; of 8 int32 with
	 * dtype 3 (int32): 8 x (4 + 4) */
	ck_assert_int_eq(map("aten::cumsum", cs, 3, &op), 1);
	check_dims(&op, 1, (const uint64_t[]){256});
	ck_assert_double_eq(bytes_of(&op), 2304.0);
	ck_assert_int_eq(map("aten::cumsum", ci, 3, &op), 1);
	ck_assert_double_eq(bytes_of(&op), 64.0);
	/* diff with prepend [1, 1]: 257 elements, 256 differences; 257 x 8 B
	 * read, 256 x 8 written */
	ck_assert_int_eq(map("aten::diff", df, 5, &op), 1);
	ck_assert_int_eq(op.kind, RL_KIND_POINTWISE);
	check_dims(&op, 2, (const uint64_t[]){1, 256});
	ck_assert_double_eq(bytes_of(&op), 4104.0);
	/* index with its indices unrecorded: self's size */
	ck_assert_int_eq(map("aten::index", ix, 2, &op), 1);
	ck_assert_int_eq(op.kind, RL_KIND_COPY);
	check_dims(&op, 2, (const uint64_t[]){256, 4096});
	/* is_nonzero: one element to the host */
	ck_assert_int_eq(map("aten::is_nonzero", nz, 1, &op), 1);
	check_dims(&op, 1, (const uint64_t[]){1});
	ck_assert_double_eq(bytes_of(&op), 2.0);
	/* floor_divide by a 0-dim tensor: one input of the output's size */
	ck_assert_int_eq(map("aten::floor_divide", fd, 2, &op), 1);
	check_dims(&op, 1, (const uint64_t[]){512});
	ck_assert_uint_eq(op.inputs, 1);
}
END_TEST

/* arange's overloads, told apart by their number of inputs */
START_TEST(test_map_arange)
{
	struct rl_op op;
	struct rl_trace_input e5[5] = {S("256"), S(""), S(""), S(""), S("False")};
	struct rl_trace_input st7[7] = {S("0"), S("1"), S("0.25"), S(""), S(""), S(""), S("")};
	struct rl_trace_input so4[4] = {
		S("0"), S("512"), S("1"), T("long int", 1, (const uint64_t[]){0}),
	};
	struct rl_trace_input dt5[5] = {S("512"), S("6"), S("0"), S(""), S("")};

	/* arange(256): 256 int64 values written, nothing read */
	ck_assert_int_eq(map("aten::arange", e5, 5, &op), 1);
	ck_assert_int_eq(op.kind, RL_KIND_POINTWISE);
	ck_assert_int_eq(op.dtype, RL_INT64);
	check_dims(&op, 1, (const uint64_t[]){256});
	ck_assert_double_eq(bytes_of(&op), 256.0 * 8);
	ck_assert_double_eq(flops_of(&op), 512.0);
	/* arange(0, 1, 0.25): 4 fp32 values */
	ck_assert_int_eq(map("aten::arange", st7, 7, &op), 1);
	ck_assert_int_eq(op.dtype, RL_FP32);
	check_dims(&op, 1, (const uint64_t[]){4});
	/* arange.start_out(0, 512, 1, out): the out tensor's int64 */
	ck_assert_int_eq(map("aten::arange", so4, 4, &op), 1);
	ck_assert_int_eq(op.dtype, RL_INT64);
	check_dims(&op, 1, (const uint64_t[]){512});
	/* arange(512, dtype=6): ScalarType 6 is fp32 */
	ck_assert_int_eq(map("aten::arange", dt5, 5, &op), 1);
	ck_assert_int_eq(op.dtype, RL_FP32);
	/* a step of 0, or an end before the start: custom */
	st7[2] = S("0");
	ck_assert_int_eq(map("aten::arange", st7, 7, &op), 0);
	st7[2] = S("1"), st7[1] = S("-3");
	ck_assert_int_eq(map("aten::arange", st7, 7, &op), 0);
}
END_TEST

START_TEST(test_dtypes)
{
	static const struct {
		const char *type;
		int ok;
		enum rl_dtype t;
		unsigned size;
	} cases[] = {
		{"c10::BFloat16", 1, RL_BF16, 2}, {"c10::Half", 1, RL_FP16, 2},
		{"float", 1, RL_FP32, 4},         {"double", 1, RL_FP64, 8},
		{"long int", 1, RL_INT64, 8},     {"long", 1, RL_INT64, 8},
		{"int", 1, RL_INT32, 4},          {"bool", 1, RL_INT8, 1},
		{"unsigned char", 1, RL_INT8, 1}, {"c10::Float8_e4m3fn", 1, RL_FP8E4M3, 1},
		{"short", 0, RL_FP32, 2},         {"Scalar", 0, RL_FP32, 0},
		{"TensorList", 0, RL_FP32, 0},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		enum rl_dtype t = RL_FP32;
		unsigned size;

		ck_assert_int_eq(rl_aten_dtype(cases[i].type, &t, &size), cases[i].ok ? 0 : -1);
		ck_assert_uint_eq(size, cases[i].size);
		if (cases[i].ok)
			ck_assert_int_eq(t, cases[i].t);
	}
}
END_TEST

/* Intervals are closed at both ends: a launch call at the very first or the
 * very last microsecond of an op is inside it, and an op that ends when its
 * parent ends is nested in it. relu holds 100-150 us; t (100-110) starts
 * with it and mul (120-150) ends with it. The launches at 100 (relu's and
 * t's start), at 130 (inside mul) and at 150 (relu's and mul's end) all
 * belong to relu: one row, 3 launches, 1 + 2 + 4 us of kernels. Any of the
 * join's '<=' made '<' leaves a launch outside or splits off a row. */
START_TEST(test_boundaries)
{
	static const char text[] =
		"{\"traceEvents\": [\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::relu\", \"pid\": 1, \"tid\": 1, "
		"\"ts\": 100, \"dur\": 50, \"args\": {\"Input Dims\": [[4, 8]], \"Input type\": [\"float\"]}},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::t\", \"pid\": 1, \"tid\": 1, "
		"\"ts\": 100, \"dur\": 10},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mul\", \"pid\": 1, \"tid\": 1, "
		"\"ts\": 120, \"dur\": 30},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": 100, \"dur\": 0.5, \"args\": {\"correlation\": 1}},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": 130, \"dur\": 0.5, \"args\": {\"correlation\": 3}},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": 150, \"dur\": 0.5, \"args\": {\"correlation\": 2}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k1\", \"pid\": 0, \"tid\": 7, "
		"\"ts\": 200, \"dur\": 1, \"args\": {\"correlation\": 1}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k2\", \"pid\": 0, \"tid\": 7, "
		"\"ts\": 210, \"dur\": 2, \"args\": {\"correlation\": 2}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k3\", \"pid\": 0, \"tid\": 7, "
		"\"ts\": 220, \"dur\": 4, \"args\": {\"correlation\": 3}}\n"
		"]}\n";
	char path[] = "/tmp/roofline-import-XXXXXX";
	struct rl_trace t;
	struct rl_import imp;
	struct rl_err e;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	ck_assert_msg(rl_trace_read(path, &t, &e) == 0, "%s", e.msg);
	unlink(path);
	ck_assert_msg(rl_import_trace(&t, &imp, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(imp.orphans, 0);
	ck_assert_uint_eq(imp.unlinked, 0);
	ck_assert_uint_eq(imp.n, 1);
	ck_assert_str_eq(imp.ops[0].name, "relu#1");
	ck_assert_uint_eq(imp.ops[0].launches, 3);
	ck_assert_double_eq_tol(imp.ops[0].measured_us, 7, 1e-9);
	ck_assert_double_eq_tol(imp.ops[0].host_us, 50, 1e-9);
	rl_import_release(&imp);
	rl_trace_release(&t);
}
END_TEST

/* Phases, all on one thread (as a CPU backward runs on the caller's): relu
 * before the backward pass is forward; the two mm under MmBackward0 under
 * the engine's evaluate_function are backward, each a row of its own; the
 * _foreach_add_ in torch.optim's "Optimizer.step#SGD.step" span is
 * optimizer, its list (recorded as []) the step's one parameter of 16 x 8
 * (AccumulateGrad's gradient): 128 fp32 elements read and written, 1024 B;
 * relu after the span is forward again (an annotation without 'dur' is
 * dropped). */
START_TEST(test_phases)
{
	static const char text[] =
		"{\"traceEvents\": [\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::relu\", \"pid\": 1, \"tid\": 1, "
		"\"ts\": 100, \"dur\": 10, \"args\": {\"Input Dims\": [[4, 8]], \"Input type\": [\"float\"]}},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"autograd::engine::evaluate_function: "
		"MmBackward0\", \"pid\": 1, \"tid\": 1, \"ts\": 200, \"dur\": 40},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"MmBackward0\", \"pid\": 1, \"tid\": 1, "
		"\"ts\": 201, \"dur\": 38},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, "
		"\"ts\": 202, \"dur\": 8, \"args\": {\"Input Dims\": [[4, 16], [16, 8]], "
		"\"Input type\": [\"float\", \"float\"]}},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, "
		"\"ts\": 220, \"dur\": 10, \"args\": {\"Input Dims\": [[16, 4], [4, 8]], "
		"\"Input type\": [\"float\", \"float\"]}},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"torch::autograd::AccumulateGrad\", "
		"\"pid\": 1, \"tid\": 1, \"ts\": 250, \"dur\": 2, \"args\": {\"Input Dims\": [[16, 8]], "
		"\"Input type\": [\"float\"]}},\n"
		"{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"Optimizer.step#SGD.step\", "
		"\"pid\": 1, \"tid\": 1, \"ts\": 300, \"dur\": 100},\n"
		"{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"Optimizer.step#SGD.step\", "
		"\"pid\": 1, \"tid\": 1, \"ts\": 500},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::_foreach_add_\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": 310, \"dur\": 10, \"args\": {\"Input Dims\": [[], []], "
		"\"Input type\": [\"TensorList\", \"Scalar\"], \"Concrete Inputs\": [\"\", \"0.1\"]}},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::relu\", \"pid\": 1, \"tid\": 1, "
		"\"ts\": 500, \"dur\": 10, \"args\": {\"Input Dims\": [[4, 8]], \"Input type\": [\"float\"]}},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": 105, \"dur\": 1, \"args\": {\"correlation\": 1}},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": 205, \"dur\": 1, \"args\": {\"correlation\": 2}},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": 225, \"dur\": 1, \"args\": {\"correlation\": 3}},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": 315, \"dur\": 1, \"args\": {\"correlation\": 4}},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": 505, \"dur\": 1, \"args\": {\"correlation\": 5}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
		"\"ts\": 600, \"dur\": 1, \"args\": {\"correlation\": 1}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
		"\"ts\": 610, \"dur\": 1, \"args\": {\"correlation\": 2}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
		"\"ts\": 620, \"dur\": 1, \"args\": {\"correlation\": 3}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
		"\"ts\": 630, \"dur\": 1, \"args\": {\"correlation\": 4}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
		"\"ts\": 640, \"dur\": 1, \"args\": {\"correlation\": 5}}\n"
		"]}\n";
	static const char *const names[] = {"relu#1", "mm#2", "mm#3", "_foreach_add_#4", "relu#5"};
	static const enum rl_phase phases[] = {RL_PHASE_FORWARD, RL_PHASE_BACKWARD,
	                                       RL_PHASE_BACKWARD, RL_PHASE_OPTIMIZER,
	                                       RL_PHASE_FORWARD};
	char path[] = "/tmp/roofline-import-XXXXXX";
	struct rl_trace t;
	struct rl_import imp;
	struct rl_err e;
	int fd = mkstemp(path), i;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	ck_assert_msg(rl_trace_read(path, &t, &e) == 0, "%s", e.msg);
	unlink(path);
	ck_assert_uint_eq(t.nmarks, 1);
	ck_assert_msg(rl_import_trace(&t, &imp, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(imp.n, 5);
	ck_assert_int_eq(imp.training, 1);
	ck_assert_uint_eq(imp.custom, 0);
	for (i = 0; i < 5; i++) {
		ck_assert_str_eq(imp.ops[i].name, names[i]);
		ck_assert_int_eq(imp.ops[i].phase, phases[i]);
	}
	ck_assert_double_eq(imp.params.elems, 128);
	ck_assert_double_eq(flops_of(&imp.ops[1]), 2 * 4 * 8 * 16);
	ck_assert_uint_eq(imp.ops[3].dims[0], 128);
	ck_assert_double_eq(bytes_of(&imp.ops[3]), 1024);
	rl_import_release(&imp);
	rl_trace_release(&t);
}
END_TEST

/* Two backward passes (two micro-batches, or two profiled steps), each
 * accumulating the gradients of the same two parameters (16 x 8 and 8):
 * the relu between them parts them, so the step's parameters are one
 * pass's 136 elements in 2 tensors, not 272 in 4: the _foreach_mul_ over
 * them moves 2 x 136 x 4 = 1088 bytes. */
START_TEST(test_params_passes)
{
	static const char text[] =
		"{\"traceEvents\": [\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"torch::autograd::AccumulateGrad\", "
		"\"pid\": 1, \"tid\": 2, \"ts\": 100, \"dur\": 2, \"args\": {\"Input Dims\": [[16, 8]], "
		"\"Input type\": [\"float\"]}},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"torch::autograd::AccumulateGrad\", "
		"\"pid\": 1, \"tid\": 2, \"ts\": 110, \"dur\": 2, \"args\": {\"Input Dims\": [[8]], "
		"\"Input type\": [\"float\"]}},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::relu\", \"pid\": 1, \"tid\": 1, "
		"\"ts\": 200, \"dur\": 10, \"args\": {\"Input Dims\": [[4, 8]], \"Input type\": [\"float\"]}},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"torch::autograd::AccumulateGrad\", "
		"\"pid\": 1, \"tid\": 2, \"ts\": 300, \"dur\": 2, \"args\": {\"Input Dims\": [[16, 8]], "
		"\"Input type\": [\"float\"]}},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"torch::autograd::AccumulateGrad\", "
		"\"pid\": 1, \"tid\": 2, \"ts\": 310, \"dur\": 2, \"args\": {\"Input Dims\": [[8]], "
		"\"Input type\": [\"float\"]}},\n"
		"{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"Optimizer.step#SGD.step\", "
		"\"pid\": 1, \"tid\": 1, \"ts\": 400, \"dur\": 100},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::_foreach_mul_\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": 410, \"dur\": 10, \"args\": {\"Input Dims\": [[], []], "
		"\"Input type\": [\"TensorList\", \"Scalar\"], \"Concrete Inputs\": [\"\", \"0.9\"]}},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": 205, \"dur\": 1, \"args\": {\"correlation\": 1}},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
		"\"tid\": 1, \"ts\": 415, \"dur\": 1, \"args\": {\"correlation\": 2}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
		"\"ts\": 600, \"dur\": 1, \"args\": {\"correlation\": 1}},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
		"\"ts\": 610, \"dur\": 1, \"args\": {\"correlation\": 2}}\n"
		"]}\n";
	char path[] = "/tmp/roofline-import-XXXXXX";
	struct rl_trace t;
	struct rl_import imp;
	struct rl_err e;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	ck_assert_msg(rl_trace_read(path, &t, &e) == 0, "%s", e.msg);
	unlink(path);
	ck_assert_msg(rl_import_trace(&t, &imp, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(imp.n, 2);
	ck_assert_double_eq(imp.params.elems, 136);
	ck_assert_double_eq(imp.params.tensors, 2);
	ck_assert_int_eq(imp.ops[1].phase, RL_PHASE_OPTIMIZER);
	ck_assert_double_eq(bytes_of(&imp.ops[1]), 1088);
	rl_import_release(&imp);
	rl_trace_release(&t);
}
END_TEST

/* A training step's wrappers and backward ops (docs/trace-import.md,
 * "Training steps"), worked by hand. */
START_TEST(test_map_training)
{
	struct rl_trace_input ln[8] = {
		T("float", 2, (const uint64_t[]){64, 1024}), T("float", 2, (const uint64_t[]){64, 1024}),
		S("[1024]"), T("float", 2, (const uint64_t[]){64, 1}),
		T("float", 2, (const uint64_t[]){64, 1}), T("float", 1, (const uint64_t[]){1024}),
		T("float", 1, (const uint64_t[]){1024}), S("[True, True, True]"),
	};
	/* convolution_backward(grad_output, input, weight, bias_sizes, stride,
	 * padding, dilation, transposed, output_padding, groups, output_mask)
	 * of docs/oplist-format.md's worked conv2d (3,699,376,128 FLOPs) */
	struct rl_trace_input cv[11] = {
		T("c10::Half", 4, (const uint64_t[]){32, 128, 28, 28}),
		T("c10::Half", 4, (const uint64_t[]){32, 64, 56, 56}),
		T("c10::Half", 4, (const uint64_t[]){128, 64, 3, 3}),
		S("[0]"), S("[2, 2]"), S("[1, 1]"), S("[1, 1]"), S("False"), S("[0, 0]"), S("1"),
		S("[False, True, False]"),
	};
	struct rl_trace_input lists[3] = {S(""), S(""), S("0.1")};
	struct rl_trace_input adam[12];
	struct rl_aten_params pp = {1000, 10, RL_FP32};
	struct rl_op op;
	int i;

	ck_assert_int_eq(rl_aten_composite("autograd::engine::evaluate_function: MmBackward0"), 1);
	ck_assert_int_eq(rl_aten_composite("MmBackward0"), 1);
	ck_assert_int_eq(rl_aten_composite("AsStridedBackward1"), 1);
	ck_assert_int_eq(rl_aten_composite("ScaledDotProductCudnnAttentionBackward0"), 1);
	ck_assert_int_eq(rl_aten_composite("torch::autograd::AccumulateGrad"), 1);
	ck_assert_int_eq(rl_aten_composite("aten::cross_entropy_loss"), 1);
	ck_assert_int_eq(rl_aten_composite("Backward0"), 0);
	ck_assert_int_eq(rl_aten_composite("MmBackward"), 0);
	ck_assert_int_eq(rl_aten_composite("MmBackward0x"), 0);
	ck_assert_int_eq(rl_aten_composite("aten::MmBackward0"), 0);
	ck_assert_int_eq(rl_aten_backward_root("autograd::engine::evaluate_function: X"), 1);
	ck_assert_int_eq(rl_aten_backward_root("MmBackward0"), 0);

	/* layer norm's backward over 64 rows of 1024 fp32: x and dy read
	 * twice, dx written: 5 x 65,536 x 4 = 1,310,720 B, two kernels */
	ck_assert_int_eq(map("aten::native_layer_norm_backward", ln, 8, &op), 1);
	ck_assert_int_eq(op.kind, RL_KIND_LAYERNORM);
	ck_assert_int_eq(op.dtype, RL_FP32);
	ck_assert_double_eq(bytes_of(&op), 1310720.0);
	/* the weight gradient only (a first layer): the forward's FLOPs; both */
	ck_assert_int_eq(map("aten::convolution_backward", cv, 11, &op), 1);
	ck_assert_int_eq(op.kind, RL_KIND_CONV2D);
	ck_assert_double_eq(flops_of(&op), 3699376128.0);
	cv[10] = S("[True, True, False]");
	ck_assert_int_eq(map("aten::convolution_backward", cv, 11, &op), 1);
	ck_assert_double_eq(flops_of(&op), 2 * 3699376128.0);
	cv[10] = S("[False, False, True]"); /* the bias alone: not this rule's */
	ck_assert_int_eq(map("aten::convolution_backward", cv, 11, &op), 0);

	/* batch_norm(input, weight, bias, running_mean, running_var, training,
	 * ...) of 2 x 4 x 8 x 8 bf16 (512 elements): in training x read twice
	 * and y written, 3 x 512 x 2 = 3072 B, 7 x 512 FLOPs; in eval 2 x 512 x
	 * 2 = 2048 B; its backward 5 x 512 x 2 = 5120 B, 2 x 7 x 512 FLOPs */
	{
		struct rl_trace_input bn[9] = {
			T("c10::BFloat16", 4, (const uint64_t[]){2, 4, 8, 8}),
			T("float", 1, (const uint64_t[]){4}), T("float", 1, (const uint64_t[]){4}),
			T("float", 1, (const uint64_t[]){4}), T("float", 1, (const uint64_t[]){4}),
			S("True"), S("0.1"), S("1e-05"), S("True"),
		};
		struct rl_trace_input bwd[10] = {
			T("c10::BFloat16", 4, (const uint64_t[]){2, 4, 8, 8}),
			T("c10::BFloat16", 4, (const uint64_t[]){2, 4, 8, 8}),
			T("float", 1, (const uint64_t[]){4}), T("float", 1, (const uint64_t[]){4}),
			T("float", 1, (const uint64_t[]){4}), T("float", 1, (const uint64_t[]){4}),
			T("float", 1, (const uint64_t[]){4}), S("True"), S("1e-05"),
			S("[True, True, True]"),
		};

		ck_assert_int_eq(map("aten::batch_norm", bn, 9, &op), 1);
		ck_assert_int_eq(op.kind, RL_KIND_POINTWISE);
		ck_assert_double_eq(bytes_of(&op), 3072.0);
		ck_assert_double_eq(flops_of(&op), 7 * 512.0);
		bn[5] = S("False");
		ck_assert_int_eq(map("aten::batch_norm", bn, 9, &op), 1);
		ck_assert_double_eq(bytes_of(&op), 2048.0);
		ck_assert_int_eq(map("aten::native_batch_norm_backward", bwd, 10, &op), 1);
		ck_assert_int_eq(op.kind, RL_KIND_POINTWISE);
		ck_assert_double_eq(bytes_of(&op), 5120.0);
		ck_assert_double_eq(flops_of(&op), 2 * 7 * 512.0);
	}

	/* new_zeros(self [64, 512] bf16, size [32768]): 32768 x 2 bytes
	 * written; zeros([16], dtype 3 = int32): 64 */
	{
		struct rl_trace_input nz[2] = {
			T("c10::BFloat16", 2, (const uint64_t[]){64, 512}), S("[32768]"),
		};
		struct rl_trace_input z[3] = {S("[16]"), S("3"), S("0")};

		z[0].type = "ScalarList";
		ck_assert_int_eq(map("aten::new_zeros", nz, 2, &op), 1);
		ck_assert_uint_eq(op.dims[0], 32768);
		ck_assert_double_eq(bytes_of(&op), 65536.0);
		ck_assert_int_eq(map("aten::zeros", z, 3, &op), 1);
		ck_assert_int_eq(op.dtype, RL_INT32);
		ck_assert_double_eq(bytes_of(&op), 64.0);
	}

	/* torch 2.11's lists without dims: the step's 1000 parameters in 10
	 * tensors. lerp_(m, g, w): 2 lists read, one written: 3 x 1000 x 4 */
	lists[0].type = lists[1].type = "TensorList";
	ck_assert_int_eq(map("aten::_foreach_lerp_", lists, 3, &op), 0); /* unknown */
	rl_op_init(&op);
	ck_assert_int_eq(rl_aten_map_params("aten::_foreach_lerp_", lists, 3, RL_BF16, &pp, &op), 1);
	ck_assert_uint_eq(op.dims[0], 1000);
	ck_assert_int_eq(op.dtype, RL_FP32);
	ck_assert_double_eq(bytes_of(&op), 12000.0);
	/* _foreach_add_(state_steps, 1): one counter per tensor, 2 x 10 x 4 */
	lists[1] = S("1");
	rl_op_init(&op);
	ck_assert_int_eq(rl_aten_map_params("aten::_foreach_add_", lists, 2, RL_BF16, &pp, &op), 1);
	ck_assert_uint_eq(op.dims[0], 10);
	ck_assert_double_eq(bytes_of(&op), 80.0);
	/* eps added to a list: all 1000 elements */
	lists[1] = S("1e-08");
	rl_op_init(&op);
	ck_assert_int_eq(rl_aten_map_params("aten::_foreach_add_", lists, 2, RL_BF16, &pp, &op), 1);
	ck_assert_uint_eq(op.dims[0], 1000);
	/* _fused_adamw_(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs,
	 * state_steps, lr, ..., amsgrad at 11): p, g, m, v read, p, m, v
	 * written: 7 x 1000 x 4 = 28,000 B; with amsgrad 8 x */
	for (i = 0; i < 12; i++)
		adam[i] = S("0.1");
	for (i = 0; i < 6; i++) {
		adam[i] = S("");
		adam[i].type = "TensorList";
	}
	adam[11] = S("False");
	rl_op_init(&op);
	ck_assert_int_eq(rl_aten_map_params("aten::_fused_adamw_", adam, 12, RL_BF16, &pp, &op), 1);
	ck_assert_double_eq(bytes_of(&op), 28000.0);
	adam[11] = S("True");
	rl_op_init(&op);
	ck_assert_int_eq(rl_aten_map_params("aten::_fused_adamw_", adam, 12, RL_BF16, &pp, &op), 1);
	ck_assert_double_eq(bytes_of(&op), 32000.0);
}
END_TEST

/* NCCL kernels, on the hand-made trace-nccl.json: each value below is read
 * off its events by eye, the bytes worked by hand from collective.h's
 * nccl-tests factors. */
START_TEST(test_nccl_rows)
{
	static const struct {
		const char *name;
		enum rl_kind kind;
		enum rl_dtype dtype;
		uint64_t elems, ranks; /* 0: a custom row */
		double measured_us, host_us, bytes;
		enum rl_phase phase;
		const char *algo, *proto;
	} want[] = {
		/* 2^20 bf16 per rank on 4 ranks: S = 4 x 2 MiB, x 3/4 */
		{"c10d::allgather_#1", RL_KIND_ALLGATHER, RL_BF16, 1048576, 4, 40.5, 50,
		 4 * 2097152.0 * 3 / 4, RL_PHASE_FORWARD, "RING", "LL"},
		/* the copy the same op launched beside its NCCL kernel */
		{"c10d::allgather_#2", RL_KIND_CUSTOM, RL_FP32, 0, 0, 3, 50, 0, RL_PHASE_FORWARD,
		 NULL, NULL},
		/* 25e6 fp32 on 8 ranks, in the engine: 1e8 B x 2 x 7/8 */
		{"c10d::allreduce_#3", RL_KIND_ALLREDUCE, RL_FP32, 25000000, 8, 250, 50, 175e6,
		 RL_PHASE_BACKWARD, "RING", "LL"},
		/* all_to_all run as SendRecv kernels: 65536 fp16 x 1/2 */
		{"c10d::alltoall_base_#4", RL_KIND_ALLTOALL, RL_FP16, 65536, 2, 10, 40, 65536,
		 RL_PHASE_FORWARD, "", ""},
		/* a record without metadata (PyTorch before 2.1) */
		{"ncclKernel_ReduceScatter_RING_SIMPLE_Sum_bf16#5", RL_KIND_CUSTOM, RL_FP32, 0, 0,
		 20, 20, 0, RL_PHASE_FORWARD, "RING", "SIMPLE"},
		/* a launch outside any op, the record on the kernel (as Kineto
		 * copies it there): 4096 bf16 x 1; the launch call's time as
		 * host_us */
		{"ncclDevKernel_Broadcast_RING_LL#6", RL_KIND_BROADCAST, RL_BF16, 4096, 8, 5, 3, 8192,
		 RL_PHASE_FORWARD, "RING", "LL"},
		/* Group size 1 */
		{"c10d::allreduce_#7", RL_KIND_CUSTOM, RL_FP32, 0, 0, 4, 30, 0, RL_PHASE_FORWARD,
		 "TREE", "LL128"},
		{"add#8", RL_KIND_POINTWISE, RL_FP32, 1024, 0, 2, 10, 3 * 4096.0, RL_PHASE_FORWARD,
		 NULL, NULL},
	};
	struct rl_import imp;
	size_t i;

	import_file("trace-nccl.json", &imp);
	ck_assert_uint_eq(imp.n, ARRAY_SIZE(want));
	ck_assert_uint_eq(imp.collectives, 6);
	ck_assert_uint_eq(imp.orphans, 0); /* the NCCL launch is a collective's row */
	ck_assert_int_eq(imp.training, 1);
	/* custom: the copy, and two NCCL kernels */
	ck_assert_uint_eq(imp.custom, 3);
	ck_assert_uint_eq(imp.ncustom_names, 3);
	ck_assert_str_eq(imp.custom_names[1].name,
	                 "ncclKernel_ReduceScatter_RING_SIMPLE_Sum_bf16 (size not recorded)");
	ck_assert_str_eq(imp.custom_names[2].name,
	                 "ncclDevKernel_AllReduce_Sum_f32_TREE_LL128 (a group of one rank)");
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const struct rl_op *op = &imp.ops[i];
		double f, b;

		ck_assert_str_eq(op->name, want[i].name);
		ck_assert_int_eq(op->kind, want[i].kind);
		ck_assert_int_eq(op->dtype, want[i].dtype);
		ck_assert_double_eq_tol(op->measured_us, want[i].measured_us, 1e-9);
		ck_assert_double_eq_tol(op->host_us, want[i].host_us, 1e-9);
		ck_assert_int_eq(op->phase, want[i].phase);
		ck_assert_uint_eq(op->launches, 1);
		ck_assert_int_eq(rl_op_work(op, &f, &b, NULL), 0);
		/* collectives have no FLOPs; the add one per element */
		ck_assert_double_eq(f, want[i].kind == RL_KIND_POINTWISE ? 1024 : 0);
		ck_assert_double_eq_tol(b, want[i].bytes, 1e-6);
		if (want[i].elems > 0)
			check_dims(op, 1, &want[i].elems);
		if (want[i].ranks > 0) {
			ck_assert_uint_eq(op->ranks, want[i].ranks);
			ck_assert_uint_eq(op->nodes, 1);
		} else {
			ck_assert(!(op->has & RL_HAS_RANKS));
		}
		if (want[i].algo == NULL) {
			ck_assert_ptr_null(imp.nccl[i].algorithm);
		} else {
			ck_assert_str_eq(imp.nccl[i].algorithm, want[i].algo);
			ck_assert_str_eq(imp.nccl[i].protocol, want[i].proto);
		}
	}
	/* on nodes of 3 GPUs nothing fills whole nodes; on nodes of 4 the
	 * allreduce of 8 ranks spans 2, the allgather of 4 one */
	rl_import_spread(&imp, 3);
	ck_assert_uint_eq(imp.ops[2].nodes, 1);
	rl_import_spread(&imp, 4);
	ck_assert_uint_eq(imp.ops[0].nodes, 1);
	ck_assert_uint_eq(imp.ops[2].nodes, 2);
	ck_assert_uint_eq(imp.ops[3].nodes, 1);
	rl_import_release(&imp);
}
END_TEST

/* The HTA fixture (tests/data/trace_ddp_a100_2ranks_hta.json.gz): one DDP
 * training step of ResNet-50 on 2 A100s. Its NCCL kernels, their durations
 * and their records' fields, joined by the kernels' own "External id" (not
 * the import's route) with python's json module:
 *   Broadcast 30.975 us, broadcast 53120 Float, Group size 2
 *   Broadcast  7.775 us, broadcast 53 Long
 *   AllReduce 3306.963 us, allreduce 2049000 Float, and 2424.415 / 7875584,
 *   2368.513 / 6563840, 2160.803 / 6637568, 1689.577 / 2431040.
 * The all-reduced gradients add up to 25,557,032 elements, ResNet-50's
 * published parameter count; the broadcast buffers are its batch norms'
 * running means and variances (2 x 26,560 channels) and the 53 layers'
 * num_batches_tracked. */
START_TEST(test_nccl_ddp)
{
	static const uint64_t ar_elems[] = {2049000, 7875584, 6563840, 6637568, 2431040};
	static const double ar_us[] = {3306.963, 2424.415, 2368.513, 2160.803, 1689.577};
	struct rl_import imp;
	size_t i, nb = 0, na = 0;
	double params = 0;

	import_file("trace_ddp_a100_2ranks_hta.json.gz", &imp);
	ck_assert_uint_eq(imp.collectives, 7);
	for (i = 0; i < imp.n; i++) {
		const struct rl_op *op = &imp.ops[i];
		double f, b;

		if (!rl_kind_is_collective(op->kind))
			continue;
		ck_assert_uint_eq(op->ranks, 2);
		ck_assert_uint_eq(op->nodes, 1);
		ck_assert_str_eq(imp.nccl[i].algorithm, "RING");
		ck_assert_str_eq(imp.nccl[i].protocol, "LL");
		ck_assert_int_eq(rl_op_work(op, &f, &b, NULL), 0);
		if (op->kind == RL_KIND_BROADCAST) {
			/* DDP's buffer sync in the forward pass */
			ck_assert_int_eq(op->phase, RL_PHASE_FORWARD);
			ck_assert_uint_lt(nb, 2);
			check_dims(op, 1, (const uint64_t[]){nb == 0 ? 53120 : 53});
			ck_assert_int_eq(op->dtype, nb == 0 ? RL_FP32 : RL_INT64);
			ck_assert_double_eq_tol(op->measured_us, nb == 0 ? 30.975 : 7.775, 1e-9);
			ck_assert_double_eq_tol(b, nb == 0 ? 53120 * 4.0 : 53 * 8.0, 1e-9);
			ck_assert_str_eq(op->name, nb == 0 ? "c10d::broadcast_#2" : "c10d::broadcast_#4");
			nb++;
		} else {
			/* the gradient buckets, reduced in the backward pass (the
			 * reducer's hook under AccumulateGrad); 2 ranks: bus factor 1 */
			ck_assert_int_eq(op->kind, RL_KIND_ALLREDUCE);
			ck_assert_int_eq(op->phase, RL_PHASE_BACKWARD);
			ck_assert_uint_lt(na, 5);
			ck_assert_int_eq(op->dtype, RL_FP32);
			check_dims(op, 1, &ar_elems[na]);
			ck_assert_double_eq_tol(op->measured_us, ar_us[na], 1e-9);
			ck_assert_double_eq_tol(b, 4.0 * (double)ar_elems[na], 1e-9);
			params += (double)op->dims[0];
			na++;
		}
	}
	ck_assert_uint_eq(nb, 2);
	ck_assert_uint_eq(na, 5);
	ck_assert_double_eq(params, 25557032);
	rl_import_release(&imp);
}
END_TEST

/* Kernel names of both NCCL generations, c10d's collective names and
 * dtypes (ncclmap.h), and the rows of records missing a field. */
START_TEST(test_nccl_names)
{
	static const struct {
		const char *name;
		int nccl;
		enum rl_kind kind;
		const char *algo, *proto;
	} kernels[] = {
		{"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 1,
		 RL_KIND_ALLREDUCE, "RING", "LL"},
		{"ncclDevKernel_AllReduce_Sum_bf16_NVLS_TREE_SIMPLE", 1, RL_KIND_ALLREDUCE,
		 "NVLS_TREE", "SIMPLE"},
		{"ncclDevKernel_AllReduce_Sum_bf16_NVLS_SIMPLE", 1, RL_KIND_ALLREDUCE, "NVLS", "SIMPLE"},
		{"ncclDevKernel_AllReduce_Sum_f16_COLLNET_DIRECT_SIMPLE", 1, RL_KIND_ALLREDUCE,
		 "COLLNET_DIRECT", "SIMPLE"},
		{"ncclDevKernel_AllReduce_Sum_f16_COLLNET_CHAIN_LL128", 1, RL_KIND_ALLREDUCE,
		 "COLLNET_CHAIN", "LL128"},
		{"ncclDevKernel_AllGather_RING_LL", 1, RL_KIND_ALLGATHER, "RING", "LL"},
		{"ncclDevKernel_AllGather_PAT_SIMPLE", 1, RL_KIND_ALLGATHER, "PAT", "SIMPLE"},
		{"ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL128", 1, RL_KIND_REDUCESCATTER, "RING",
		 "LL128"},
		{"ncclDevKernel_Broadcast_RING_LL", 1, RL_KIND_BROADCAST, "RING", "LL"},
		{"ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", 1, RL_KIND_SENDRECV, "",
		 ""},
		{"ncclDevKernel_Reduce_Sum_f32_RING_LL", 1, RL_KIND_CUSTOM, "RING", "LL"},
		{"ncclKernel_AllReduce_TREE_LL128_Sum_half(ncclDevComm*, unsigned long, ncclWork*)", 1,
		 RL_KIND_ALLREDUCE, "TREE", "LL128"},
		{"ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
		 1, RL_KIND_SENDRECV, "RING", "SIMPLE"},
		{"ncclKernel_", 1, RL_KIND_CUSTOM, "", ""},
		{"ncclDevKernel_Generic_1", 1, RL_KIND_CUSTOM, "", ""},
		{"ncclKernel", 0, RL_KIND_CUSTOM, NULL, NULL},
		{"void at::native::vectorized_elementwise_kernel<4>", 0, RL_KIND_CUSTOM, NULL, NULL},
		{"nccl_allreduce", 0, RL_KIND_CUSTOM, NULL, NULL},
	};
	static const struct {
		const char *name;
		enum rl_kind kind;
	} colls[] = {
		{"allreduce", RL_KIND_ALLREDUCE},
		{"allreduce_coalesced", RL_KIND_ALLREDUCE},
		{"allgather", RL_KIND_ALLGATHER},
		{"_allgather_base", RL_KIND_ALLGATHER},
		{"allgather_into_tensor_coalesced", RL_KIND_ALLGATHER},
		{"reduce_scatter", RL_KIND_REDUCESCATTER},
		{"_reduce_scatter_base", RL_KIND_REDUCESCATTER},
		{"reduce_scatter_tensor_coalesced", RL_KIND_REDUCESCATTER},
		{"all_to_all", RL_KIND_ALLTOALL},
		{"all_to_allv", RL_KIND_ALLTOALL},
		{"broadcast", RL_KIND_BROADCAST},
		{"_broadcast_oop", RL_KIND_BROADCAST},
		{"send", RL_KIND_SENDRECV},
		{"recv", RL_KIND_SENDRECV},
		{"reduce", RL_KIND_CUSTOM},
		{"barrier", RL_KIND_CUSTOM},
		{"gather", RL_KIND_CUSTOM},
		{"", RL_KIND_CUSTOM},
	};
	struct rl_nccl_kernel k;
	struct rl_trace_comm c;
	struct rl_op op;
	enum rl_dtype dt;
	const char *why;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kernels); i++) {
		ck_assert_msg(rl_nccl_kernel(kernels[i].name, &k) == kernels[i].nccl, "%s",
		              kernels[i].name);
		if (!kernels[i].nccl)
			continue;
		ck_assert_msg(k.kind == kernels[i].kind, "%s", kernels[i].name);
		ck_assert_str_eq(k.algorithm, kernels[i].algo);
		ck_assert_str_eq(k.protocol, kernels[i].proto);
	}
	for (i = 0; i < ARRAY_SIZE(colls); i++)
		ck_assert_msg(rl_nccl_coll_kind(colls[i].name) == colls[i].kind, "%s",
		              colls[i].name);
	ck_assert_int_eq(rl_nccl_dtype("BFloat16", &dt), 0);
	ck_assert_int_eq(dt, RL_BF16);
	ck_assert_int_eq(rl_nccl_dtype("Float8_e4m3fn", &dt), 0);
	ck_assert_int_eq(dt, RL_FP8E4M3);
	ck_assert_int_eq(rl_nccl_dtype("Byte", &dt), 0);
	ck_assert_int_eq(dt, RL_INT8);
	ck_assert_int_eq(rl_nccl_dtype("ComplexFloat", &dt), -1);
	ck_assert_int_eq(rl_nccl_dtype("float", &dt), -1);

	/* a recv: its buffer is the output; 1000 bf16 to the next rank */
	rl_nccl_kernel("ncclDevKernel_SendRecv", &k);
	memset(&c, 0, sizeof(c));
	c.in_nelems = 0;
	c.out_nelems = 1000;
	c.group_size = 2;
	rl_op_init(&op);
	ck_assert_int_eq(rl_nccl_map(&k, &c, "recv", "BFloat16", &op, &why), 1);
	ck_assert_int_eq(op.kind, RL_KIND_SENDRECV);
	ck_assert_uint_eq(op.dims[0], 1000);
	ck_assert_double_eq(bytes_of(&op), 2000);
	/* a barrier runs an allreduce kernel: the kernel's kind */
	rl_nccl_kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", &k);
	c.in_nelems = 1;
	c.out_nelems = 1;
	rl_op_init(&op);
	ck_assert_int_eq(rl_nccl_map(&k, &c, "barrier", "Float", &op, &why), 1);
	ck_assert_int_eq(op.kind, RL_KIND_ALLREDUCE);
	/* each missing field: a custom row, no work, the reason */
	rl_op_init(&op);
	ck_assert_int_eq(rl_nccl_map(&k, &c, "allreduce", NULL, &op, &why), 0);
	ck_assert_str_eq(why, "dtype not recorded");
	ck_assert_int_eq(op.kind, RL_KIND_CUSTOM);
	ck_assert_double_eq(bytes_of(&op), 0);
	c.group_size = -1;
	rl_op_init(&op);
	ck_assert_int_eq(rl_nccl_map(&k, &c, "allreduce", "Float", &op, &why), 0);
	ck_assert_str_eq(why, "group size not recorded");
	c.group_size = 2;
	c.in_nelems = -1;
	rl_op_init(&op);
	ck_assert_int_eq(rl_nccl_map(&k, &c, "allreduce", "Float", &op, &why), 0);
	ck_assert_str_eq(why, "size not recorded");
	rl_op_init(&op);
	ck_assert_int_eq(rl_nccl_map(&k, NULL, NULL, NULL, &op, &why), 0);
	ck_assert_str_eq(why, "size not recorded");
	rl_nccl_kernel("ncclDevKernel_Reduce_Sum_f32_RING_LL", &k);
	c.in_nelems = 10;
	rl_op_init(&op);
	ck_assert_int_eq(rl_nccl_map(&k, &c, "reduce", "Float", &op, &why), 0);
	ck_assert_str_eq(why, "no collective kind of ours");
}
END_TEST

Suite *suite_import(void)
{
	Suite *s = suite_create("import");
	TCase *tc = tcase_create("join");

	tcase_add_test(tc, test_nested);
	tcase_add_test(tc, test_bert);
	tcase_add_test(tc, test_gpt2);
	tcase_add_test(tc, test_boundaries);
	tcase_add_test(tc, test_composite);
	tcase_add_test(tc, test_nccl_rows);
	tcase_add_test(tc, test_nccl_ddp);
	suite_add_tcase(s, tc);
	tc = tcase_create("mapping");
	tcase_add_test(tc, test_map_conv);
	tcase_add_test(tc, test_map_attention);
	tcase_add_test(tc, test_map_shapes);
	tcase_add_test(tc, test_map_gqa);
	tcase_add_test(tc, test_map_moe);
	tcase_add_test(tc, test_map_arange);
	tcase_add_test(tc, test_map_training);
	tcase_add_test(tc, test_phases);
	tcase_add_test(tc, test_params_passes);
	tcase_add_test(tc, test_dtypes);
	tcase_add_test(tc, test_nccl_names);
	suite_add_tcase(s, tc);
	return s;
}
