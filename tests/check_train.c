/* check_train.c - a training step from forward ops (train.c): backward
 * rules, optimizer bytes and launches, training memory; every figure worked
 * out by hand below. */
#include "config.h"

#include <math.h>

#include "check.h"
#include "formulas.h"
#include "op.h"
#include "train.h"

static double flops_of(struct rl_train_op *t)
{
	double f, b;

	t->op.name = t->name;
	ck_assert_int_eq(rl_op_work(&t->op, &f, &b, NULL), 0);
	return f;
}

static double bytes_of(struct rl_train_op *t)
{
	double f, b;

	t->op.name = t->name;
	ck_assert_int_eq(rl_op_work(&t->op, &f, &b, NULL), 0);
	return b;
}

/* matmul M=512, N=4096, K=1024: forward 2 x 512 x 4096 x 1024 =
 * 4,294,967,296 FLOPs. grad-input 512 x 1024 over 4096 and grad-weight
 * 1024 x 4096 over 512: the same each, so backward is exactly 2x forward. */
START_TEST(matmul_backward)
{
	struct rl_train_opts o;
	struct rl_train_op out[RL_TRAIN_MAX_BWD];
	struct rl_op op;

	rl_train_opts_init(&o);
	test_op_shape(&op, RL_KIND_MATMUL, RL_BF16, 3, (uint64_t[]){512, 4096, 1024});
	op.name = "fc";
	op.count = 3;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 2);
	ck_assert_str_eq(out[0].name, "fc.dgrad");
	ck_assert_uint_eq(out[0].op.dims[0], 512);
	ck_assert_uint_eq(out[0].op.dims[1], 1024);
	ck_assert_uint_eq(out[0].op.dims[2], 4096);
	ck_assert_str_eq(out[1].name, "fc.wgrad");
	ck_assert_uint_eq(out[1].op.dims[0], 1024);
	ck_assert_uint_eq(out[1].op.dims[1], 4096);
	ck_assert_uint_eq(out[1].op.dims[2], 512);
	ck_assert_double_eq(flops_of(&out[0]), 4294967296.0);
	ck_assert_double_eq(flops_of(&out[1]), 4294967296.0);
	ck_assert_int_eq(out[0].op.phase, RL_PHASE_BACKWARD);
	ck_assert_uint_eq(out[1].op.count, 3);
	/* frozen: no weight gradient; the list's first op (count 1): no input
	 * gradient */
	op.frozen = 1;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 1);
	ck_assert_str_eq(out[0].name, "fc.dgrad");
	op.frozen = 0;
	op.count = 1;
	ck_assert_int_eq(rl_train_backward(&o, &op, 1, out, NULL), 1);
	ck_assert_str_eq(out[0].name, "fc.wgrad");
	/* --grad-accum 4: every backward op 4 times */
	o.grad_accum = 4;
	op.count = 3;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 2);
	ck_assert_uint_eq(out[0].op.count, 12);
}
END_TEST

/* attention B=2, H=16, S=1024, D=64, kv_heads 4, causal, bf16: forward
 * 4 x 2 x 16 x 1024 x 1024 x 64 / 2 = 4,294,967,296 FLOPs; backward 2.5x =
 * 10,737,418,240. Q: 2 x 16 x 1024 x 64 = 2,097,152 elements, K: 2 x 4 x
 * 1024 x 64 = 524,288: bytes 2 x (4 x 2,097,152 + 4 x 524,288) =
 * 20,971,520. */
START_TEST(attention_backward)
{
	struct rl_train_opts o;
	struct rl_train_op out[RL_TRAIN_MAX_BWD];
	struct rl_op op;

	rl_train_opts_init(&o);
	test_op_shape(&op, RL_KIND_ATTENTION, RL_BF16, 4, (uint64_t[]){2, 16, 1024, 64});
	op.kv_heads = 4;
	op.causal = 1;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 1);
	ck_assert_double_eq(flops_of(&out[0]), 10737418240.0);
	ck_assert_double_eq(bytes_of(&out[0]), 20971520.0);
}
END_TEST

/* MLA at prefill, DeepSeek-V2-Lite's 1x16x2048x192, causal, V and O of
 * Dv = 128, bf16: forward 2 x 16 x 2,097,152 x (192 + 128) =
 * 21,474,836,480 FLOPs (2,097,152 = 2048^2 / 2 scores a head). Backward:
 * S = Q K^T, dQ = dS K and dK = dS^T Q at D, dV = P^T dO and dP = dO V^T
 * at Dv: 2 x 16 x 2,097,152 x (3 x 192 + 2 x 128) = 67,108,864 x 832 =
 * 55,834,574,848 (2.6x). Bytes: Q and dQ 32,768 query rows x 192, O and
 * dO x 128: 32,768 x 640 x 2 = 41,943,040; K, dK 32,768 keys x 192, V,
 * dV x 128: the same, 83,886,080 in all (100,663,296 with Dv = D: 4 x
 * 6,291,456 x 2 x 2). With kv_shared (V the first 128 of K's 192, dV added
 * into dK): K read and dK written, 32,768 x 384 x 2 = 25,165,824, so
 * 67,108,864. Saved: Q and O 32,768 x 320 x 2 = 20,971,520, K and V the
 * same, the log-sum-exp 16 x 2048 x 4 = 131,072: 42,074,112; kv_shared K
 * alone, 12,582,912: 33,685,504. Under eager autograd the gradients copied
 * are Q + K + V, 6,291,456 + 32,768 x 320 = 16,777,216 elements (kv_shared:
 * 12,582,912). */
START_TEST(attention_mla_backward)
{
	struct rl_train_opts o;
	struct rl_train_op out[RL_TRAIN_MAX_BWD];
	struct rl_op op;
	double f, b;

	rl_train_opts_init(&o);
	test_op_shape(&op, RL_KIND_ATTENTION, RL_BF16, 4, (uint64_t[]){1, 16, 2048, 192});
	op.causal = 1;
	op.v_head_dim = 128;
	ck_assert_int_eq(rl_op_work(&op, &f, &b, NULL), 0);
	ck_assert_double_eq(f, 21474836480.0);
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 1);
	ck_assert_double_eq_tol(flops_of(&out[0]), 55834574848.0, 1e-3);
	ck_assert_double_eq(bytes_of(&out[0]), 83886080.0);
	ck_assert_double_eq(rl_train_saved_bytes(&op), 42074112.0);
	op.kv_shared = 1;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 1);
	ck_assert_double_eq(bytes_of(&out[0]), 67108864.0);
	ck_assert_double_eq(rl_train_saved_bytes(&op), 33685504.0);
	o.autograd = 1;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 2);
	ck_assert_uint_eq(out[1].op.dims[0], 12582912);
	op.kv_shared = 0;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 2);
	ck_assert_uint_eq(out[1].op.dims[0], 16777216);
	/* Dv = D: today's 2.5x and 4 x Q + 4 x K, bit for bit */
	o.autograd = 0;
	op.v_head_dim = 192;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 1);
	ck_assert_double_eq(flops_of(&out[0]), 2.5 * 25769803776.0);
	ck_assert_double_eq(bytes_of(&out[0]), 100663296.0);
}
END_TEST

/* Elementwise and row ops on 1024 x 4096 bf16 (4,194,304 elements,
 * 8,388,608 B): layernorm backward 5 x 8 MiB in 2 kernels; softmax 3 x;
 * pointwise with 2 inputs (1 + 2 x 2) x; a reduction over the last dim
 * (1024 out) 4096 x 1024 + 1024 elements x 2 B; conv2d two clones. */
START_TEST(row_ops_backward)
{
	struct rl_train_opts o;
	struct rl_train_op out[RL_TRAIN_MAX_BWD];
	struct rl_op op;

	rl_train_opts_init(&o);
	test_op_shape(&op, RL_KIND_LAYERNORM, RL_BF16, 2, (uint64_t[]){1024, 4096});
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 1);
	ck_assert_double_eq(bytes_of(&out[0]), 5 * 8388608.0);
	ck_assert_uint_eq(out[0].op.launches, 2);
	op.kind = RL_KIND_SOFTMAX;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 1);
	ck_assert_double_eq(bytes_of(&out[0]), 3 * 8388608.0);
	op.kind = RL_KIND_POINTWISE;
	op.inputs = 2;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 1);
	ck_assert_double_eq(bytes_of(&out[0]), 5 * 8388608.0);
	op.inputs = 0; /* a fill: nothing flows back */
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 0);
	op.kind = RL_KIND_REDUCTION;
	op.inputs = 1;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 1);
	ck_assert_int_eq(out[0].op.kind, RL_KIND_POINTWISE);
	ck_assert_double_eq(bytes_of(&out[0]), (4194304.0 + 1024.0) * 2);
	test_op_shape(&op, RL_KIND_CONV2D, RL_BF16, 4, (uint64_t[]){8, 64, 56, 56});
	op.kernel[0] = 64;
	op.kernel[1] = op.kernel[2] = 3;
	op.padding = 1;
	op.has |= RL_HAS_KERNEL;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 2);
	ck_assert_str_eq(out[0].name, "op.dgrad");
	ck_assert_str_eq(out[1].name, "op.wgrad");
	/* 2 x 8 x 56 x 56 x 64 x 64 x 9 = 1,849,688,064 each */
	ck_assert_double_eq(flops_of(&out[0]), 1849688064.0);
	ck_assert_double_eq(flops_of(&out[1]), 1849688064.0);
}
END_TEST

/* The optimizer's bytes per parameter:
 * - AdamW foreach over fp32 weights, gradients and state: the passes read
 *   and write 4 w + 2 g + 14 s = 16 + 8 + 56 = 80 B (addcmul_(v, g, g)
 *   reads g once); Adam (no weight decay pass) 80 - 8 = 72 B;
 * - fused AdamW: weight, gradient, m, v read, weight, m, v written:
 *   2 x 4 + 4 + 4 x 4 = 28 B;
 * - fused AdamW over bf16 weights with an fp32 master copy: 2 x 4 + 2 +
 *   16 + the copy back (4 + 2) = 32 B;
 * - SGD with momentum, foreach: 2 w + g + 5 s = 8 + 4 + 20 = 32 B; fused:
 *   2 w + g + 2 s = 20 B;
 * - none: 0. */
START_TEST(optimizer_bytes)
{
	struct rl_train_opts o;

	rl_train_opts_init(&o);
	ck_assert_double_eq(rl_train_optimizer_bytes_per_param(&o, RL_FP32), 80);
	o.optimizer = RL_OPT_ADAM;
	ck_assert_double_eq(rl_train_optimizer_bytes_per_param(&o, RL_FP32), 72);
	o.optimizer = RL_OPT_ADAMW;
	o.fused = 1;
	ck_assert_double_eq(rl_train_optimizer_bytes_per_param(&o, RL_FP32), 28);
	o.master = 1;
	ck_assert_double_eq(rl_train_optimizer_bytes_per_param(&o, RL_BF16), 32);
	o.master = 0;
	o.optimizer = RL_OPT_SGD;
	ck_assert_double_eq(rl_train_optimizer_bytes_per_param(&o, RL_FP32), 20);
	o.fused = 0;
	ck_assert_double_eq(rl_train_optimizer_bytes_per_param(&o, RL_FP32), 32);
	/* L2 weight decay, g' = g + wd p: p and g read, g' written, 3 x 4
	 * more; the fused kernel folds it in; AdamW's decay is decoupled and
	 * always counted; Adam gains the same pass */
	o.weight_decay = 1;
	ck_assert_double_eq(rl_train_optimizer_bytes_per_param(&o, RL_FP32), 44);
	o.fused = 1;
	ck_assert_double_eq(rl_train_optimizer_bytes_per_param(&o, RL_FP32), 20);
	o.fused = 0;
	o.optimizer = RL_OPT_ADAMW;
	ck_assert_double_eq(rl_train_optimizer_bytes_per_param(&o, RL_FP32), 80);
	o.optimizer = RL_OPT_ADAM;
	ck_assert_double_eq(rl_train_optimizer_bytes_per_param(&o, RL_FP32), 84);
	o.weight_decay = 0;
	o.optimizer = RL_OPT_NONE;
	ck_assert_double_eq(rl_train_optimizer_bytes_per_param(&o, RL_FP32), 0);
}
END_TEST

/* Two fp32 matmuls 1024 x 1024 x 1024, count 4 and 2 (6 weight tensors of
 * 1,048,576 = 16 chunks of 65536 each): P = 6,291,456 parameters, 96
 * chunks. Fused AdamW, 4 lists: ceil(6 / 36) = 1, ceil(96 / 320) = 1: one
 * launch of 28 x P = 176,160,768 B. The foreach passes add up to 80 x P.
 * A frozen row adds no parameter; int4 weights train frozen only. */
START_TEST(optimizer_ops)
{
	struct rl_train_opts o;
	struct rl_train_params p;
	struct rl_train_op out[RL_TRAIN_MAX_OPT];
	struct rl_op a, b;
	struct rl_err err;
	double sum = 0;
	int i, n;

	rl_train_opts_init(&o);
	rl_train_params_init(&p);
	test_op_shape(&a, RL_KIND_MATMUL, RL_FP32, 3, (uint64_t[]){1024, 1024, 1024});
	a.count = 4;
	b = a;
	b.count = 2;
	ck_assert_int_eq(rl_train_params_add(&p, &a, NULL), 0);
	ck_assert_int_eq(rl_train_params_add(&p, &b, NULL), 0);
	b.frozen = 1;
	ck_assert_int_eq(rl_train_params_add(&p, &b, NULL), 0);
	ck_assert_double_eq(p.params, 6291456.0);
	ck_assert_double_eq(p.frozen, 2097152.0);
	ck_assert_double_eq(p.tensors, 6);
	ck_assert_double_eq(p.chunks, 96);
	o.fused = 1;
	ck_assert_int_eq(rl_train_optimizer(&o, &p, out), 1);
	ck_assert_uint_eq(out[0].op.launches, 1);
	ck_assert_double_eq(bytes_of(&out[0]), 28 * 6291456.0);
	ck_assert_int_eq(out[0].op.phase, RL_PHASE_OPTIMIZER);
	o.fused = 0;
	n = rl_train_optimizer(&o, &p, out);
	ck_assert_int_eq(n, 8);
	for (i = 0; i < n; i++)
		sum += bytes_of(&out[i]);
	ck_assert_double_eq(sum, 80 * 6291456.0);
	b.frozen = 0;
	b.weight_dtype = RL_INT4;
	b.has |= RL_HAS_WEIGHT_DTYPE;
	ck_assert_int_eq(rl_train_params_add(&p, &b, &err), RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, "int4 weights train frozen only"));
	b.frozen = 1;
	ck_assert_int_eq(rl_train_params_add(&p, &b, NULL), 0);
}
END_TEST

/* Training memory of a two-layer block (count 2: a layernorm 2048 x 1024
 * and a matmul 2048 x 4096 x 1024, bf16) and an lm_head (count 1, 2048 x
 * 8192 x 1024):
 * - parameters 2 x 4,194,304 + 8,388,608 = 16,777,216: bf16 gradients
 *   33,554,432 B; AdamW fp32 state 2 x 4 x P = 134,217,728 B;
 * - saved: the layernorm's x 4 MiB + its row stats 2048 x 8 = 16,384 B,
 *   the matmul's A 4 MiB, per layer; the lm_head's A 4 MiB:
 *   2 x (4,194,304 + 16,384 + 4,194,304) + 4,194,304 = 21,004,288 B;
 * - with recomputation, the block keeps its first input per layer
 *   (2 x 4 MiB), one layer live again (8,404,992 B) and the lm_head's
 *   4 MiB: 8,388,608 + 8,404,992 + 4,194,304 = 20,987,904 B;
 * - autocast: the weights held in fp32, 4 x P - 2 x P = 33,554,432 B more,
 *   and fp32 gradients 67,108,864 B. */
START_TEST(training_memory)
{
	struct rl_train_opts o;
	struct rl_train_params p;
	struct rl_train_mem m;
	struct rl_op ln, mm, head;

	test_op_shape(&ln, RL_KIND_LAYERNORM, RL_BF16, 2, (uint64_t[]){2048, 1024});
	ln.count = 2;
	test_op_shape(&mm, RL_KIND_MATMUL, RL_BF16, 3, (uint64_t[]){2048, 4096, 1024});
	mm.count = 2;
	test_op_shape(&head, RL_KIND_MATMUL, RL_BF16, 3, (uint64_t[]){2048, 8192, 1024});
	for (int rec = 0; rec < 2; rec++) {
		rl_train_opts_init(&o);
		o.recompute = rec;
		rl_train_params_init(&p);
		rl_train_mem_init(&m);
		ck_assert_int_eq(rl_train_params_add(&p, &ln, NULL), 0);
		ck_assert_int_eq(rl_train_params_add(&p, &mm, NULL), 0);
		ck_assert_int_eq(rl_train_params_add(&p, &head, NULL), 0);
		ck_assert_int_eq(rl_train_mem_add(&m, &o, &ln, NULL), 0);
		ck_assert_int_eq(rl_train_mem_add(&m, &o, &mm, NULL), 0);
		ck_assert_int_eq(rl_train_mem_add(&m, &o, &head, NULL), 0);
		rl_train_mem_end(&m, &o, &p);
		ck_assert_double_eq(p.params, 16777216.0);
		ck_assert_double_eq(m.gradients, 33554432.0);
		ck_assert_double_eq(m.optimizer, 134217728.0);
		ck_assert_double_eq(m.master, 0);
		ck_assert_double_eq(m.saved, rec ? 20987904.0 : 21004288.0);
	}
	o.recompute = 0;
	o.autocast = 1;
	rl_train_mem_end(&m, &o, &p);
	ck_assert_double_eq(m.master, 33554432.0);
	ck_assert_double_eq(m.gradients, 67108864.0);
}
END_TEST

/* The block of training_memory as a pipeline stage's list of m = 4
 * micro-batches (counts x 4: the layers 8, the head 4). One micro-batch
 * saves its layers' 2 x (4,194,304 + 16,384 + 4,194,304) = 16,809,984 B
 * and the head's 4,194,304. 1F1B with 2 micro-batches in flight on the
 * first stage: the larger of 2 x 16,809,984 = 33,619,968 (first stage)
 * and 16,809,984 + 4,194,304 = 21,004,288 (last); one in flight (gradient
 * accumulation): 21,004,288, one micro-batch's; all four (pp 4 = m): the
 * first stage's layers, 4 x 16,809,984 = 67,239,936, not GPipe's 4 x
 * 21,004,288 (the head is on the last stage, one in flight). A head of 2048 x 8192 x 16384
 * saves its A, 2048 x 16384 x 2 = 67,108,864 B: with 2 in flight the last
 * stage is the larger, 16,809,984 + 67,108,864 = 83,918,848. */
START_TEST(pipeline_memory)
{
	static const struct {
		uint64_t in_flight, head_k;
		double saved;
	} cases[] = {{2, 1024, 33619968.0}, {1, 1024, 21004288.0}, {4, 1024, 67239936.0},
	             {2, 16384, 83918848.0}};
	struct rl_train_opts o;
	struct rl_train_params p;
	struct rl_train_mem m;
	struct rl_op ln, mm, head;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		test_op_shape(&ln, RL_KIND_LAYERNORM, RL_BF16, 2, (uint64_t[]){2048, 1024});
		ln.count = 8;
		test_op_shape(&mm, RL_KIND_MATMUL, RL_BF16, 3, (uint64_t[]){2048, 4096, 1024});
		mm.count = 8;
		test_op_shape(&head, RL_KIND_MATMUL, RL_BF16, 3,
		              (uint64_t[]){2048, 8192, cases[i].head_k});
		head.count = 4;
		rl_train_opts_init(&o);
		o.microbatches = 4;
		o.in_flight = cases[i].in_flight;
		rl_train_params_init(&p);
		rl_train_mem_init(&m);
		ck_assert_int_eq(rl_train_mem_add(&m, &o, &ln, NULL), 0);
		ck_assert_int_eq(rl_train_mem_add(&m, &o, &mm, NULL), 0);
		ck_assert_int_eq(rl_train_mem_add(&m, &o, &head, NULL), 0);
		rl_train_mem_end(&m, &o, &p);
		ck_assert_msg(m.saved == cases[i].saved, "case %zu: %.0f", i, m.saved);
	}
}
END_TEST

/* autocast: a matmul's weights cast before it (1024 x 4096 fp32 read, bf16
 * written: 4,194,304 x 6 B) and its weight gradient cast back after the
 * grad-weight GEMM. */
START_TEST(autocast_casts)
{
	struct rl_train_opts o;
	struct rl_train_op pre, out[RL_TRAIN_MAX_BWD];
	struct rl_op op;

	rl_train_opts_init(&o);
	test_op_shape(&op, RL_KIND_MATMUL, RL_BF16, 3, (uint64_t[]){512, 4096, 1024});
	op.name = "fc";
	ck_assert_int_eq(rl_train_forward(&o, &op, &pre), 0);
	o.autocast = 1;
	ck_assert_int_eq(rl_train_forward(&o, &op, &pre), 1);
	ck_assert_str_eq(pre.name, "fc.cast");
	ck_assert_int_eq(pre.op.phase, RL_PHASE_FORWARD);
	ck_assert_double_eq(bytes_of(&pre), 4194304.0 * 6);
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 3);
	ck_assert_str_eq(out[2].name, "fc.wgrad_cast");
	ck_assert_double_eq(bytes_of(&out[2]), 4194304.0 * 6);
	o.recompute = 1; /* a count 1 row is not recomputed */
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 3);
	op.count = 2;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 4);
	ck_assert_str_eq(out[0].name, "fc.recompute");
}
END_TEST

/* Autocast's fp32 list: a bf16 layernorm of 64 x 1024 computes in fp32, its
 * backward reading x and dy twice and writing dx at 4 bytes: 5 x 65,536 x 4
 * = 1,310,720 B; without autocast it stays bf16 (655,360 B); other kinds
 * keep their dtype. */
START_TEST(autocast_fp32_ops)
{
	struct rl_train_opts o;
	struct rl_train_op out[RL_TRAIN_MAX_BWD];
	struct rl_op op, mm;

	rl_train_opts_init(&o);
	test_op_shape(&op, RL_KIND_LAYERNORM, RL_BF16, 2, (uint64_t[]){64, 1024});
	rl_train_autocast(&o, &op);
	ck_assert_int_eq(op.dtype, RL_BF16);
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 1);
	ck_assert_double_eq(bytes_of(&out[0]), 655360.0);
	o.autocast = 1;
	rl_train_autocast(&o, &op);
	ck_assert_int_eq(op.dtype, RL_FP32);
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 1);
	ck_assert_double_eq(bytes_of(&out[0]), 1310720.0);
	test_op_shape(&mm, RL_KIND_MATMUL, RL_BF16, 3, (uint64_t[]){64, 1024, 1024});
	rl_train_autocast(&o, &mm);
	ck_assert_int_eq(mm.dtype, RL_BF16);
}
END_TEST

/* --grad-accum 4 over a 1024 x 1024 weight in 2 tensors (count 2): the
 * micro-batches 2 to 4 add their gradient into .grad, one add_ per tensor:
 * 3 x 4 x 2,097,152 = 25,165,824 B each (fp32 gradients under autocast),
 * count 3, phase backward; then AdamW's eight passes. */
START_TEST(grad_accum_accumulates)
{
	struct rl_train_opts o;
	struct rl_train_params p;
	struct rl_train_op out[RL_TRAIN_MAX_OPT];
	struct rl_op a;

	rl_train_opts_init(&o);
	rl_train_params_init(&p);
	test_op_shape(&a, RL_KIND_MATMUL, RL_BF16, 3, (uint64_t[]){1024, 1024, 1024});
	a.count = 2;
	ck_assert_int_eq(rl_train_params_add(&p, &a, NULL), 0);
	o.autocast = 1;
	ck_assert_int_eq(rl_train_optimizer(&o, &p, out), 8);
	o.grad_accum = 4;
	ck_assert_int_eq(rl_train_optimizer(&o, &p, out), 9);
	ck_assert_str_eq(out[0].name, "accumulate_grad");
	ck_assert_int_eq(out[0].op.phase, RL_PHASE_BACKWARD);
	ck_assert_uint_eq(out[0].op.count, 3);
	ck_assert_uint_eq(out[0].op.launches, 2);
	ck_assert_double_eq(bytes_of(&out[0]), 25165824.0);
	ck_assert_int_eq(out[1].op.phase, RL_PHASE_OPTIMIZER);
	o.optimizer = RL_OPT_NONE; /* gradients only: still accumulated */
	ck_assert_int_eq(rl_train_optimizer(&o, &p, out), 1);
}
END_TEST

/* The _work variants read the formulas' record instead of deriving the op
 * again: a record whose FLOPs, elements and dtype bytes are made up shows in
 * what they build. softmax's backward keeps the forward's FLOPs and moves
 * 3 N es (y, dy read, dx written): 3 x 10 x 8 = 240 B. Its saved output y is
 * N es = 80 B. A matmul's cast moves its weight elements x (4 + es). */
START_TEST(work_record_read)
{
	struct rl_train_opts o;
	struct rl_train_op out[RL_TRAIN_MAX_BWD];
	struct rl_train_mem m;
	struct rl_op op;
	struct rl_work w = {0};

	rl_train_opts_init(&o);
	test_op_shape(&op, RL_KIND_SOFTMAX, RL_BF16, 2, (uint64_t[]){1024, 4096});
	w.flops = 1234;
	w.elems = 10;
	w.es = 8;
	ck_assert_int_eq(rl_train_backward_work(&o, &op, &w, 0, out, NULL), 1);
	ck_assert_double_eq(out[0].op.flops, 1234);
	ck_assert_double_eq(out[0].op.bytes, 240);
	rl_train_mem_init(&m);
	rl_train_mem_add_work(&m, &o, &op, &w);
	ck_assert_double_eq(m.saved_full, 80);
	o.autocast = 1;
	test_op_shape(&op, RL_KIND_MATMUL, RL_BF16, 3, (uint64_t[]){16, 32, 64});
	w.weight_elems = 100;
	w.es = 2;
	ck_assert_int_eq(rl_train_forward_work(&o, &op, &w, out), 1);
	ck_assert_uint_eq(out[0].op.dims[0], 100);
	ck_assert_double_eq(out[0].op.bytes, 600);
}
END_TEST

/* Eager autograd (o.autograd, classify --impl hf), a linear layer: ViT-B/16's
 * mlp_3 at batch 32, M = 32 x 197 = 6304 tokens, N = 768, K = 3072, bf16,
 * under autocast, count 12. The bias gradient is dY [6304, 768] summed over
 * the tokens: a reduction 768x6304 (the import's row of the recorded
 * step's aten::sum of [[6304, 768]] over dim 0), 768 x 6304 = 4,841,472
 * FLOPs, (4,841,472 + 768) x 2 = 9,684,480 bytes; its cast to fp32 768 x
 * (2 + 4) = 4,608 bytes (the recording's ToCopyBackward0 of [768]: 4,608).
 * The forward cast casts weight and bias: (768 x 3072 + 768) x 6 =
 * 14,160,384 bytes in 2 kernels. */
START_TEST(eager_linear_bias)
{
	struct rl_train_opts o;
	struct rl_train_op out[RL_TRAIN_MAX_BWD];
	struct rl_op op;

	rl_train_opts_init(&o);
	o.autocast = 1;
	test_op_shape(&op, RL_KIND_MATMUL, RL_BF16, 3, (uint64_t[]){6304, 768, 3072});
	op.name = "mlp_3";
	op.count = 12;
	/* off: the ideal backward, as before */
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 3);
	ck_assert_int_eq(rl_train_forward(&o, &op, out), 1);
	ck_assert_double_eq(out[0].op.bytes, 768.0 * 3072 * 6);
	ck_assert_uint_eq(out[0].op.launches, 1);
	o.autograd = 1;
	ck_assert_int_eq(rl_train_forward(&o, &op, out), 1);
	ck_assert_double_eq(out[0].op.bytes, 14160384.0);
	ck_assert_uint_eq(out[0].op.launches, 2);
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 5);
	ck_assert_str_eq(out[0].name, "mlp_3.dgrad");
	ck_assert_str_eq(out[1].name, "mlp_3.wgrad");
	ck_assert_str_eq(out[2].name, "mlp_3.bias_grad");
	ck_assert_int_eq(out[2].op.kind, RL_KIND_REDUCTION);
	ck_assert_int_eq(out[2].op.ndims, 2);
	ck_assert_uint_eq(out[2].op.dims[0], 768);
	ck_assert_uint_eq(out[2].op.dims[1], 6304);
	ck_assert_uint_eq(out[2].op.count, 12);
	ck_assert_int_eq(out[2].op.phase, RL_PHASE_BACKWARD);
	ck_assert_double_eq(flops_of(&out[2]), 4841472.0);
	ck_assert_double_eq(bytes_of(&out[2]), 9684480.0);
	ck_assert_str_eq(out[3].name, "mlp_3.bias_grad_cast");
	ck_assert_int_eq(out[3].op.kind, RL_KIND_COPY);
	ck_assert_double_eq(bytes_of(&out[3]), 4608.0);
	ck_assert_str_eq(out[4].name, "mlp_3.wgrad_cast");
	/* without autocast no cast; frozen: no bias gradient; a batched
	 * matmul (bmm) has no bias */
	o.autocast = 0;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 3);
	ck_assert_str_eq(out[2].name, "mlp_3.bias_grad");
	op.frozen = 1;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 1);
	test_op_shape(&op, RL_KIND_MATMUL, RL_BF16, 4, (uint64_t[]){8, 512, 64, 512});
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 2);
}
END_TEST

/* Eager autograd, attention: ViT-B/16's 32 x 12 x 197 x 64 bf16. Q, K, V
 * 4,841,472 elements each; their gradients copied into the projection's
 * layout: 14,524,416 elements read and written, 58,097,664 bytes (the
 * recording's three select_backward copies of [197, 32, 768], 9,682,944
 * bytes each way each). With kv_heads 4 of 16 (2 x 16 x 1024 x 64): Q
 * 2,097,152, K and V 524,288 each: 3,145,728 x 2 x 2 = 12,582,912 bytes. */
START_TEST(eager_attention_qkv)
{
	struct rl_train_opts o;
	struct rl_train_op out[RL_TRAIN_MAX_BWD];
	struct rl_op op;

	rl_train_opts_init(&o);
	o.autograd = 1;
	test_op_shape(&op, RL_KIND_ATTENTION, RL_BF16, 4, (uint64_t[]){32, 12, 197, 64});
	op.name = "attention";
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 2);
	ck_assert_str_eq(out[0].name, "attention.bwd");
	ck_assert_str_eq(out[1].name, "attention.qkv_grad");
	ck_assert_int_eq(out[1].op.kind, RL_KIND_COPY);
	ck_assert_uint_eq(out[1].op.dims[0], 14524416);
	ck_assert_double_eq(flops_of(&out[1]), 0);
	ck_assert_double_eq(bytes_of(&out[1]), 58097664.0);
	test_op_shape(&op, RL_KIND_ATTENTION, RL_BF16, 4, (uint64_t[]){2, 16, 1024, 64});
	op.kv_heads = 4;
	op.causal = 1;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 2);
	ck_assert_double_eq(bytes_of(&out[1]), 12582912.0);
}
END_TEST

/* Eager autograd, joins: ViT-B/16's residual add, 6304 x 768 fp32 of 2
 * inputs: one accumulation, 4,841,472 FLOPs, 3 x 4,841,472 x 4 =
 * 58,097,664 bytes (the recording's add_ of [32, 197, 768] fp32 under
 * NativeLayerNormBackward0: the import's row of it moves the same). 3
 * inputs: 2 kernels, twice that. A training
 * batch norm (inputs 2, 7 FLOPs per element) and a 1-input row join
 * nothing. */
START_TEST(eager_accumulate)
{
	struct rl_train_opts o;
	struct rl_train_op out[RL_TRAIN_MAX_BWD];
	struct rl_op op;

	rl_train_opts_init(&o);
	o.autograd = 1;
	test_op_shape(&op, RL_KIND_POINTWISE, RL_FP32, 2, (uint64_t[]){6304, 768});
	op.name = "attn_residual";
	op.inputs = 2;
	op.count = 12;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 2);
	ck_assert_str_eq(out[0].name, "attn_residual.bwd");
	ck_assert_str_eq(out[1].name, "attn_residual.accumulate");
	ck_assert_uint_eq(out[1].op.launches, 1);
	ck_assert_uint_eq(out[1].op.count, 12);
	ck_assert_double_eq(flops_of(&out[1]), 4841472.0);
	ck_assert_double_eq(bytes_of(&out[1]), 58097664.0);
	/* under autocast the fp32 join's 16-bit branch gets its gradient
	 * cast: 4,841,472 x (4 + 2) = 29,048,832 bytes (the recording's
	 * AddBackward0 to of [32, 197, 768]: 29,048,832); a bf16 join (resnet's
	 * residual) casts nothing */
	o.autocast = 1;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 3);
	ck_assert_str_eq(out[2].name, "attn_residual.grad_cast");
	ck_assert_int_eq(out[2].op.kind, RL_KIND_COPY);
	ck_assert_double_eq(bytes_of(&out[2]), 29048832.0);
	op.dtype = RL_BF16;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 2);
	op.dtype = RL_FP32;
	o.autocast = 0;
	op.inputs = 3;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 2);
	ck_assert_uint_eq(out[1].op.launches, 2);
	ck_assert_double_eq(bytes_of(&out[1]), 2 * 58097664.0);
	op.inputs = 2;
	op.flops_per_element = 7;
	op.has |= RL_HAS_FPE;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 1);
	op.has &= ~(unsigned)RL_HAS_FPE;
	op.inputs = 1;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 1);
}
END_TEST

/* Eager autograd, the loss: GPT-2's log_softmax over 4096 tokens x 50257
 * in bf16 under autocast is cross_entropy's: nll_loss_backward zeroes the
 * fp32 gradient of its 205,852,672 log-probabilities, 4 x that =
 * 823,410,688 bytes, no FLOPs (the recording's fill_ of [4096, 50257]
 * float). Without autocast, or an fp32 softmax: no fill. */
START_TEST(eager_loss_fill)
{
	struct rl_train_opts o;
	struct rl_train_op out[RL_TRAIN_MAX_BWD];
	struct rl_op op;

	rl_train_opts_init(&o);
	o.autograd = 1;
	o.autocast = 1;
	test_op_shape(&op, RL_KIND_SOFTMAX, RL_BF16, 2, (uint64_t[]){4096, 50257});
	op.name = "log_softmax";
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 2);
	ck_assert_str_eq(out[1].name, "log_softmax.loss_grad_fill");
	ck_assert_int_eq(out[1].op.dtype, RL_FP32);
	ck_assert_double_eq(flops_of(&out[1]), 0);
	ck_assert_double_eq(bytes_of(&out[1]), 823410688.0);
	op.dtype = RL_FP32;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 1);
	op.dtype = RL_BF16;
	o.autocast = 0;
	ck_assert_int_eq(rl_train_backward(&o, &op, 0, out, NULL), 1);
}
END_TEST

Suite *suite_train(void)
{
	Suite *s = suite_create("train");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, matmul_backward);
	tcase_add_test(tc, work_record_read);
	tcase_add_test(tc, attention_backward);
	tcase_add_test(tc, attention_mla_backward);
	tcase_add_test(tc, row_ops_backward);
	tcase_add_test(tc, optimizer_bytes);
	tcase_add_test(tc, optimizer_ops);
	tcase_add_test(tc, training_memory);
	tcase_add_test(tc, pipeline_memory);
	tcase_add_test(tc, autocast_casts);
	tcase_add_test(tc, autocast_fp32_ops);
	tcase_add_test(tc, grad_accum_accumulates);
	tcase_add_test(tc, eager_linear_bias);
	tcase_add_test(tc, eager_attention_qkv);
	tcase_add_test(tc, eager_accumulate);
	tcase_add_test(tc, eager_loss_fill);
	suite_add_tcase(s, tc);
	return s;
}
