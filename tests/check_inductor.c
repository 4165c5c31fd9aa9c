/* check_inductor.c - torch.compile's programs in traces (inductor.h): the
 * kernels' names, their rows from the arguments a trace recorded, the
 * compiled regions made transparent and the CUDA graphs' replays
 * attributed to the calls captured. The traces are tests/data/compile's,
 * recorded on the H200 by bench/traces/record.py; every number below is
 * worked by hand from the trace's own arguments (quoted at each test) or
 * counted in the trace by a separate script (python's json module over
 * the gzipped file: the events' names, durations and correlation ids). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "formulas.h"
#include "import.h"
#include "inductor.h"
#include "trace.h"

#define COMPILE_DATA RL_TEST_DATA "/compile/"

static void read_trace(const char *file, struct rl_trace *t)
{
	struct rl_err e;

	ck_assert_msg(rl_trace_read(file, t, &e) == 0, "%s", e.msg);
}

/* The inputs of the first cpu_op named NAME in T. */
static int inputs_of(const struct rl_trace *t, const char *name, struct rl_trace_input *in, int max)
{
	size_t i;

	for (i = 0; i < t->nops; i++)
		if (strcmp(rl_trace_str(t, t->ops[i].name), name) == 0)
			return rl_trace_op_inputs(t, &t->ops[i], in, max);
	ck_abort_msg("no cpu_op %s", name);
	return 0;
}

START_TEST(test_names)
{
	struct rl_inductor_kernel k;
	const char *why = NULL;

	/* RMSNorm fused with the embedding: add, mean, mul, pow, rsqrt */
	ck_assert_int_eq(rl_inductor_kernel("triton_red_fused__to_copy_add_embedding_mean_mul_pow_rsqrt_0",
	                                    &k, &why), 0);
	ck_assert_int_eq(k.kind, RL_KIND_LAYERNORM);
	ck_assert_double_eq(k.fpe, 5);
	/* SiLU and the product: mul 1, silu 4 */
	ck_assert_int_eq(rl_inductor_kernel("triton_poi_fused__unsafe_view_mul_silu_9", &k, &why), 0);
	ck_assert_int_eq(k.kind, RL_KIND_POINTWISE);
	ck_assert_double_eq(k.fpe, 5);
	/* a softmax: amax, exp, sub, sum, div */
	ck_assert_int_eq(rl_inductor_kernel("triton_per_fused__softmax_amax_div_exp_sub_sum_3", &k, &why),
	                 0);
	ck_assert_int_eq(k.kind, RL_KIND_SOFTMAX);
	ck_assert_double_eq(k.fpe, 5);
	/* a plain sum (a persistent reduction): reduction */
	ck_assert_int_eq(rl_inductor_kernel("triton_per_fused_sum_7", &k, &why), 0);
	ck_assert_int_eq(k.kind, RL_KIND_REDUCTION);
	/* LayerNorm's var_mean and rsqrt: a norm */
	ck_assert_int_eq(rl_inductor_kernel("triton_per_fused_add_native_layer_norm_1", &k, &why), 0);
	ck_assert_int_eq(k.kind, RL_KIND_LAYERNORM);
	/* a pointwise kernel that applies a norm's statistics is pointwise */
	ck_assert_int_eq(rl_inductor_kernel("triton_poi_fused_add_mean_mul_rsqrt_2", &k, &why), 0);
	ck_assert_int_eq(k.kind, RL_KIND_POINTWISE);
	ck_assert_int_eq(rl_inductor_kernel("triton_tem_fused_mm_0", &k, &why), 0);
	ck_assert_int_eq(k.kind, RL_KIND_MATMUL);
	/* unreadable names say why */
	ck_assert_int_eq(rl_inductor_kernel("triton_foo_fused_add_0", &k, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "poi, red, per, tem"));
	ck_assert_int_eq(rl_inductor_kernel("triton_poi_add_0", &k, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "fused"));
	ck_assert_int_eq(rl_inductor_kernel("aten::mm", &k, &why), -1);
	ck_assert(!rl_inductor_is_kernel("aten::mm"));
	/* the wrappers and the host parts */
	ck_assert(rl_inductor_wrapper("Torch-Compiled Region: 0/0"));
	ck_assert(rl_inductor_wrapper("CompiledFunction"));
	ck_assert(rl_inductor_wrapper("CUDAGraphNode.record (dynamo_timed)"));
	ck_assert(!rl_inductor_wrapper("aten::mm"));
	ck_assert_int_eq(rl_inductor_host_part("TorchDynamo Cache Lookup"), RL_INDUCTOR_CACHE_LOOKUP);
	ck_assert_int_eq(rl_inductor_host_part("Pregraph bytecode"), RL_INDUCTOR_PROLOGUE);
	ck_assert_int_eq(rl_inductor_host_part("AOTDispatcher Runtime Wrapper Prologue"),
	                 RL_INDUCTOR_PROLOGUE);
	ck_assert_int_eq(rl_inductor_host_part("aten::mm"), RL_INDUCTOR_NOT_HOST);
	ck_assert(rl_inductor_region("Torch-Compiled Region: 0/0"));
	ck_assert(!rl_inductor_region("CompiledFunction"));
	ck_assert(rl_inductor_graph_launch("cudaGraphLaunch"));
	ck_assert_int_eq(rl_inductor_capture("cudaStreamBeginCapture"), RL_CAPTURE_BEGIN);
	ck_assert_int_eq(rl_inductor_capture("cudaStreamEndCapture"), RL_CAPTURE_END);
	ck_assert_int_eq(rl_inductor_capture("cudaLaunchKernel"), RL_CAPTURE_NONE);
}
END_TEST

/* The Llama-3-8B prefill (batch 1, 1024 tokens): the arguments as the
 * trace records them. */
START_TEST(test_rows_llama)
{
	struct rl_trace t;
	struct rl_trace_input in[32];
	struct rl_op op;
	const char *why = NULL;
	int n;

	read_trace(COMPILE_DATA "trace_compiled_llama3_8b_l2_prefill_b1_s1024.json.gz", &t);
	/* Input Dims [[1, 1024, 14336], [1024, 14336], []], Input Strides
	 * [[14680064, 14336, 1], [14336, 1], []], bf16, bf16, xnumel
	 * 14680064: two tensors of 14680064 bf16 elements, the last one the
	 * whole space (no update in place): 2 x 14680064 x 2 = 58720256 B;
	 * FLOPs 5 per element */
	n = inputs_of(&t, "triton_poi_fused__unsafe_view_mul_silu_9", in, 32);
	ck_assert_int_eq(n, 3);
	ck_assert(in[0].has_strides);
	ck_assert_uint_eq(in[0].strides[0], 14680064);
	ck_assert_uint_eq(in[0].strides[1], 14336);
	ck_assert_uint_eq(in[0].strides[2], 1);
	ck_assert(!in[2].has_strides || in[2].nd == 0);
	rl_op_init(&op);
	ck_assert_int_eq(rl_inductor_map("triton_poi_fused__unsafe_view_mul_silu_9", in, n, RL_BF16,
	                                 &op, &why), 1);
	ck_assert_int_eq(op.kind, RL_KIND_POINTWISE);
	ck_assert_int_eq(op.dtype, RL_BF16);
	ck_assert_int_eq(op.ndims, 1);
	ck_assert_uint_eq(op.dims[0], 14680064);
	ck_assert_double_eq(op.bytes, 58720256);
	ck_assert_double_eq(op.flops, 5.0 * 14680064);
	/* the embedding's gather and the first RMSNorm: ids [1, 1024] int64
	 * (8192 B), the table [128256, 4096] read at the 1024 rows gathered
	 * (1024 x 4096 x 2 = 8388608 B, not the 1 GB table), the weight [4096]
	 * (8192 B), the output [1, 1024, 4096] (8388608 B): 16793600 B over
	 * 1024 rows of 4096 */
	n = inputs_of(&t, "triton_red_fused__to_copy_add_embedding_mean_mul_pow_rsqrt_0", in, 32);
	rl_op_init(&op);
	ck_assert_int_eq(rl_inductor_map("triton_red_fused__to_copy_add_embedding_mean_mul_pow_rsqrt_0",
	                                 in, n, RL_BF16, &op, &why), 1);
	ck_assert_int_eq(op.kind, RL_KIND_LAYERNORM);
	ck_assert_int_eq(op.ndims, 2);
	ck_assert_uint_eq(op.dims[0], 1024);
	ck_assert_uint_eq(op.dims[1], 4096);
	ck_assert_double_eq(op.bytes, 16793600);
	ck_assert_double_eq(op.flops, 5.0 * 1024 * 4096);
	rl_trace_release(&t);
}
END_TEST

/* resnet50's first batch norm and ReLU, in place on the convolution's
 * output: [32, 64, 112, 112] channels-last (strides [802816, 1, 7168, 64])
 * and four [64] vectors, xnumel 25690112. The last argument addresses less
 * than the space, so the first is read and written: 2 x 25690112 x 2 + 4 x
 * 64 x 2 = 102760960 B (the kernel's source: in_out_ptr0). */
START_TEST(test_rows_inplace)
{
	struct rl_trace t;
	struct rl_trace_input in[32];
	struct rl_op op;
	const char *why = NULL;
	const char *name = "triton_poi_fused__native_batch_norm_legit_no_training_relu_0";
	int n;

	read_trace(COMPILE_DATA "trace_compiled_resnet50_fwd_b32.json.gz", &t);
	n = inputs_of(&t, name, in, 32);
	ck_assert_uint_eq(in[0].strides[1], 1);
	ck_assert_uint_eq(in[0].strides[3], 64);
	rl_op_init(&op);
	ck_assert_int_eq(rl_inductor_map(name, in, n, RL_BF16, &op, &why), 1);
	ck_assert_double_eq(op.bytes, 102760960);
	ck_assert_double_eq(op.flops, 25690112); /* relu */
	/* its launch: kernel_kwargs "XBLOCK=512", num_warps 8: 512 elements
	 * over 256 threads, 2 bf16 each, 4 bytes a thread access */
	{
		const char *kw = NULL;
		unsigned w = 0;
		size_t i;

		for (i = 0; i < t.nops; i++)
			if (strcmp(rl_trace_str(&t, t.ops[i].name), name) == 0)
				break;
		rl_trace_op_launch(&t, &t.ops[i], &kw, &w);
		ck_assert_str_eq(kw, "XBLOCK=512");
		ck_assert_uint_eq(w, 8);
		rl_inductor_launch(kw, w, &op);
		ck_assert_uint_eq(op.vector_bytes, 4);
	}
	/* XBLOCK 1024 over 4 warps: 8 bf16, 16 bytes; 2-D tiles: not set */
	op.vector_bytes = 0;
	rl_inductor_launch("XBLOCK=1024", 4, &op);
	ck_assert_uint_eq(op.vector_bytes, 16);
	op.vector_bytes = 0;
	rl_inductor_launch("YBLOCK=64,XBLOCK=64", 8, &op);
	ck_assert_uint_eq(op.vector_bytes, 0);
	rl_inductor_launch("XBLOCK=1024", 0, &op);
	ck_assert_uint_eq(op.vector_bytes, 0);
	/* a block past the op list's bound of 1024 bytes a thread is cut to it */
	rl_inductor_launch("XBLOCK=99999999999999999999", 1, &op);
	ck_assert_uint_eq(op.vector_bytes, 0); /* not a number below 2^64 */
	rl_inductor_launch("XBLOCK=1048576", 1, &op);
	ck_assert_uint_eq(op.vector_bytes, 1024);
	rl_trace_release(&t);
}
END_TEST

/* Hand-made arguments: a broadcast, a template GEMM, no sizes. */
START_TEST(test_rows_made)
{
	struct rl_trace_input in[4];
	struct rl_op op;
	const char *why = NULL;

	memset(in, 0, sizeof(in));
	/* x [8, 1024] fp32, a bias [8, 1024] broadcast along dim 0 (stride 0:
	 * 1024 elements), out [8, 1024]: 3 x ... = (8192 + 1024 + 8192) x 4 */
	in[0].type = in[1].type = in[2].type = "float";
	in[0].has_dims = in[1].has_dims = in[2].has_dims = 1;
	in[0].nd = in[1].nd = in[2].nd = 2;
	in[0].dims[0] = in[1].dims[0] = in[2].dims[0] = 8;
	in[0].dims[1] = in[1].dims[1] = in[2].dims[1] = 1024;
	in[0].has_strides = in[1].has_strides = in[2].has_strides = 1;
	in[0].strides[0] = in[2].strides[0] = 1024;
	in[1].strides[0] = 0;
	in[0].strides[1] = in[1].strides[1] = in[2].strides[1] = 1;
	in[3].type = "Scalar";
	in[3].concrete = "8192";
	in[3].has_dims = 1;
	rl_op_init(&op);
	ck_assert_int_eq(rl_inductor_map("triton_poi_fused_add_0", in, 4, RL_BF16, &op, &why), 1);
	ck_assert_int_eq(op.dtype, RL_FP32);
	ck_assert_double_eq(op.bytes, (8192 + 1024 + 8192) * 4.0);
	ck_assert_double_eq(op.flops, 8192);
	/* a template GEMM: A [128, 256], B [256, 512], C [128, 512] */
	in[0].dims[0] = 128, in[0].dims[1] = 256;
	in[1].dims[0] = 256, in[1].dims[1] = 512;
	in[2].dims[0] = 128, in[2].dims[1] = 512;
	rl_op_init(&op);
	ck_assert_int_eq(rl_inductor_map("triton_tem_fused_mm_0", in, 3, RL_BF16, &op, &why), 1);
	ck_assert_int_eq(op.kind, RL_KIND_MATMUL);
	ck_assert_uint_eq(op.dims[0], 128);
	ck_assert_uint_eq(op.dims[1], 512);
	ck_assert_uint_eq(op.dims[2], 256);
	/* no size argument: custom, and why */
	rl_op_init(&op);
	ck_assert_int_eq(rl_inductor_map("triton_poi_fused_add_0", in, 3, RL_BF16, &op, &why), 0);
	ck_assert_int_eq(op.kind, RL_KIND_CUSTOM);
	ck_assert_ptr_nonnull(strstr(why, "xnumel"));
	/* sizes past 2^53 elements: custom, and why */
	in[3].concrete = "99999999999";
	in[3].type = "Scalar";
	{
		struct rl_trace_input big[5];

		memcpy(big, in, sizeof(in));
		big[4] = in[3];
		rl_op_init(&op);
		ck_assert_int_eq(rl_inductor_map("triton_poi_fused_add_0", big, 5, RL_BF16, &op, &why),
		                 0);
		ck_assert_ptr_nonnull(strstr(why, "2^53"));
	}
	/* a template without two matching matrices */
	in[1].dims[0] = 100;
	rl_op_init(&op);
	ck_assert_int_eq(rl_inductor_map("triton_tem_fused_mm_0", in, 3, RL_BF16, &op, &why), 0);
	ck_assert_ptr_nonnull(strstr(why, "two matrices"));
}
END_TEST

static double measured_of(const struct rl_import *imp, int custom)
{
	double s = 0;
	size_t i;

	for (i = 0; i < imp->n; i++)
		if ((imp->ops[i].kind == RL_KIND_CUSTOM) == custom)
			s += imp->ops[i].measured_us;
	return s;
}

/* The default mode: the region is transparent, every kernel a row. The
 * trace: 42 GPU activities (35 kernels, 7 memsets), 2795.614 us of kernel
 * time; the cache lookup 216.0 us, the region 4415.025 us, its prologue
 * (Pregraph bytecode, AOTDispatcher Runtime Wrapper Prologue) 47.896 us. */
START_TEST(test_import_default)
{
	struct rl_trace t;
	struct rl_import imp;
	struct rl_err e;
	size_t i, silu = 0;

	read_trace(COMPILE_DATA "trace_compiled_llama3_8b_l2_prefill_b1_s1024.json.gz", &t);
	ck_assert_int_eq(rl_import_trace(&t, &imp, &e), 0);
	ck_assert_uint_eq(imp.custom, 0);
	ck_assert_uint_eq(imp.ngpu, 42);
	ck_assert(measured_of(&imp, 0) >= 2795.614);
	ck_assert_uint_eq(imp.compiled.regions, 1);
	ck_assert_double_eq_tol(imp.compiled.cache_lookup_us, 216.0, 1e-9);
	ck_assert_double_eq_tol(imp.compiled.region_us, 4415.025, 1e-9);
	ck_assert_double_eq_tol(imp.compiled.prologue_us, 47.896, 1e-9);
	ck_assert_uint_eq(imp.compiled.graph_launches, 0);
	for (i = 0; i < imp.n; i++)
		if (strstr(imp.ops[i].name, "silu") != NULL) {
			/* the kernels' durations: 20.0 and 19.936 us */
			ck_assert(fabs(imp.ops[i].measured_us - (silu ? 19.936 : 20.0)) < 1e-9);
			ck_assert_uint_eq(imp.ops[i].vector_bytes, 16); /* XBLOCK=1024, 4 warps */
			ck_assert(imp.ops[i].has & RL_HAS_HOST);
			silu++;
		}
	ck_assert_uint_eq(silu, 2);
	rl_import_release(&imp);
	rl_trace_release(&t);
}
END_TEST

/* reduce-overhead with the capture: three calls, each replaying the graph
 * of 42 activities (the capture's 42 calls in order), 126 in all, all
 * attributed; besides them 3 copies of the inputs and 2 fills: 131
 * activities. Rows: the 35 of the default mode per replay, and the 5: 110.
 * cudaGraphLaunch: 195.666 + 149.321 + 105.446 = 450.433 us. */
START_TEST(test_import_capture)
{
	struct rl_trace t;
	struct rl_import imp;
	struct rl_err e;
	size_t i, silu = 0, replayed = 0;

	read_trace(COMPILE_DATA "trace_compiled_ro_llama3_8b_l2_prefill_b1_s1024_capture.json.gz",
	           &t);
	ck_assert_int_eq(rl_import_trace(&t, &imp, &e), 0);
	ck_assert_uint_eq(imp.ngpu, 131);
	ck_assert_uint_eq(imp.n, 110);
	ck_assert_uint_eq(imp.custom, 0);
	ck_assert_uint_eq(imp.compiled.graph_launches, 3);
	ck_assert_uint_eq(imp.compiled.graph_kernels, 126);
	ck_assert_uint_eq(imp.compiled.graph_attributed, 126);
	ck_assert_double_eq_tol(imp.compiled.graph_launch_us, 450.433, 1e-9);
	ck_assert_uint_eq(imp.compiled.regions, 3);
	for (i = 0; i < imp.n; i++) {
		const struct rl_op *o = &imp.ops[i];

		if (o->has & RL_HAS_HOST_COST) {
			ck_assert_double_eq(o->host_overhead_us, 0);
			ck_assert(!(o->has & RL_HAS_HOST));
			replayed++;
		}
		if (strstr(o->name, "silu") != NULL) {
			ck_assert_int_eq(o->kind, RL_KIND_POINTWISE);
			ck_assert_double_eq(o->bytes, 58720256);
			silu++;
		}
	}
	ck_assert_uint_eq(replayed, 105);
	ck_assert_uint_eq(silu, 6);
	rl_import_release(&imp);
	rl_trace_release(&t);
}
END_TEST

/* A replay whose capture the trace does not hold: one row per activity
 * (45), named after its kernel, custom, with its time; and the copy of the
 * inputs: 46 rows, 46 activities. */
START_TEST(test_import_replay_only)
{
	struct rl_trace t;
	struct rl_import imp;
	struct rl_err e;
	size_t i, named = 0;

	read_trace(COMPILE_DATA "trace_compiled_ro_qwen3_8b_l2_prefill_b2_s512.json.gz", &t);
	ck_assert_int_eq(rl_import_trace(&t, &imp, &e), 0);
	ck_assert_uint_eq(imp.ngpu, 46);
	ck_assert_uint_eq(imp.n, 46);
	ck_assert_uint_eq(imp.custom, 45);
	ck_assert_uint_eq(imp.compiled.graph_kernels, 45);
	ck_assert_uint_eq(imp.compiled.graph_attributed, 0);
	ck_assert_double_eq_tol(imp.compiled.graph_launch_us, 172.107, 1e-9);
	for (i = 0; i < imp.n; i++)
		if (strncmp(imp.ops[i].name, "triton_poi_fused__unsafe_view_mul_silu", 38) == 0)
			named++;
	ck_assert_uint_eq(named, 2);
	rl_import_release(&imp);
	rl_trace_release(&t);
}
END_TEST

/* A compiled training step: the forward under CompiledFunction, the
 * backward under CompiledFunctionBackward, AdamW's foreach ops eager. */
START_TEST(test_import_train)
{
	struct rl_trace t;
	struct rl_import imp;
	struct rl_err e;
	size_t i, ph[RL_PHASE_COUNT] = {0, 0, 0}, tri[RL_PHASE_COUNT] = {0, 0, 0};

	read_trace(COMPILE_DATA "trace_compiled_train_gpt2_l6_b8_s512_adamw_amp.json.gz", &t);
	ck_assert_int_eq(rl_import_trace(&t, &imp, &e), 0);
	ck_assert(imp.training);
	for (i = 0; i < imp.n; i++) {
		ph[imp.ops[i].phase]++;
		if (rl_inductor_is_kernel(imp.ops[i].name))
			tri[imp.ops[i].phase]++;
	}
	ck_assert_uint_gt(tri[RL_PHASE_FORWARD], 0);
	ck_assert_uint_gt(tri[RL_PHASE_BACKWARD], 0);
	ck_assert_uint_gt(ph[RL_PHASE_OPTIMIZER], 0);
	/* randint's kernel (the labels) is the one op without a formula */
	ck_assert_uint_eq(imp.custom, 1);
	rl_import_release(&imp);
	rl_trace_release(&t);
}
END_TEST

Suite *suite_inductor(void)
{
	Suite *s = suite_create("inductor");
	TCase *tc = tcase_create("compiled");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_rows_llama);
	tcase_add_test(tc, test_rows_inplace);
	tcase_add_test(tc, test_rows_made);
	tcase_add_test(tc, test_import_default);
	tcase_add_test(tc, test_import_capture);
	tcase_add_test(tc, test_import_replay_only);
	tcase_add_test(tc, test_import_train);
	suite_add_tcase(s, tc);
	return s;
}
