/* check_memfit.c - the memory a step needs (memfit.c), on small hand-made
 * ops whose bytes are worked out by hand below. */
#include "config.h"

#include <math.h>

#include "check.h"
#include "memfit.h"
#include "op.h"

#define GIB 1073741824.0

/* matmul M=16, N=4096, K=1024, bf16: B is K x N = 4,194,304 weights x 2 B
 * = 8,388,608 B; A 16 x 1024 x 2 = 32,768 B and C 16 x 4096 x 2 =
 * 131,072 B: 163,840 B of activations. */
START_TEST(matmul_weights)
{
	struct rl_op op;
	double w, kv, act;

	test_op_shape(&op, RL_KIND_MATMUL, RL_BF16, 3, (uint64_t[]){16, 4096, 1024});
	ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &kv, &act, NULL), 0);
	ck_assert_double_eq_tol(w, 8388608.0, 1e-6);
	ck_assert_double_eq_tol(kv, 0.0, 1e-9);
	ck_assert_double_eq_tol(act, 163840.0, 1e-6);
}
END_TEST

/* The same weights in int4 with an fp16 scale per 128: 4,194,304 x 0.5 =
 * 2,097,152 B + 4,194,304 / 128 x 2 = 65,536 B = 2,162,688 B. */
START_TEST(matmul_int4_groups)
{
	struct rl_op op;
	double w, kv, act;

	test_op_shape(&op, RL_KIND_MATMUL, RL_BF16, 3, (uint64_t[]){16, 4096, 1024});
	op.has |= RL_HAS_WEIGHT_DTYPE;
	op.weight_dtype = RL_INT4;
	op.weight_group = 128;
	ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &kv, &act, NULL), 0);
	ck_assert_double_eq_tol(w, 2162688.0, 1e-6);
	ck_assert_double_eq_tol(act, 163840.0, 1e-6);
}
END_TEST

/* Decode attention B=4, H=32, Sq=1, Sk=2048, D=128, 8 KV heads, bf16:
 * K and V 2 x 4 x 8 x 2048 x 128 x 2 B = 33,554,432 B (32 MiB); in fp8
 * half that; Q and O 4 x 32 x 1 x 128 x 2 = 32,768 B each. */
START_TEST(attention_kv)
{
	struct rl_op op;
	double w, kv, act;

	test_op_shape(&op, RL_KIND_ATTENTION, RL_BF16, 5, (uint64_t[]){4, 32, 1, 2048, 128});
	op.kv_heads = 8;
	ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &kv, &act, NULL), 0);
	ck_assert_double_eq_tol(w, 0.0, 1e-9);
	ck_assert_double_eq_tol(kv, 33554432.0, 1e-6);
	ck_assert_double_eq_tol(act, 65536.0, 1e-6);
	op.has |= RL_HAS_KV_DTYPE;
	op.kv_dtype = RL_FP8E4M3;
	ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &kv, &act, NULL), 0);
	ck_assert_double_eq_tol(kv, 16777216.0, 1e-6);
}
END_TEST

/* A sliding layer's cache is a ring buffer of its window (Mistral 7B's
 * rolling buffer cache): the decode row above over a context C = 2048 with
 * window W = 512 holds min(C, W) = 512 tokens of K and V, 2 x 4 x 8 x 512
 * x 128 x 2 B = 8,388,608 B, and reads those, so the activations are Q and
 * O still; W = 4096 > C holds all 2048 (33,554,432 B). A prefill of 4096
 * tokens (1x8x4096x128, causal, W = 1024) holds 1024: 2 x 8 x 1024 x 128 x
 * 2 = 4,194,304 B, while its kernel reads all 4096 keys: the other 3072
 * are live activations, Q and O 2 x 8,388,608 and K and V 2 x 8 x 3072 x
 * 128 x 2 = 12,582,912, 29,360,128 B in all. */
START_TEST(attention_window_kv)
{
	struct rl_op op;
	double w, kv, act;

	test_op_shape(&op, RL_KIND_ATTENTION, RL_BF16, 5, (uint64_t[]){4, 32, 1, 2048, 128});
	op.kv_heads = 8;
	op.window = 512;
	ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &kv, &act, NULL), 0);
	ck_assert_double_eq_tol(kv, 8388608.0, 1e-6);
	ck_assert_double_eq_tol(act, 65536.0, 1e-6);
	op.window = 4096;
	ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &kv, &act, NULL), 0);
	ck_assert_double_eq_tol(kv, 33554432.0, 1e-6);
	ck_assert_double_eq_tol(act, 65536.0, 1e-6);
	test_op_shape(&op, RL_KIND_ATTENTION, RL_BF16, 4, (uint64_t[]){1, 8, 4096, 128});
	op.causal = 1;
	op.window = 1024;
	ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &kv, &act, NULL), 0);
	ck_assert_double_eq_tol(kv, 4194304.0, 1e-6);
	ck_assert_double_eq_tol(act, 29360128.0, 1e-6);
}
END_TEST

/* An absorbed MLA decode (DeepSeek-V2, arXiv:2405.04434, section 2.1.2:
 * the cache is c_KV and the rotary key, one 576-channel latent a token):
 * 64 sequences x 16 heads over 4096 keys, one KV head, V its first 512
 * channels (kv_shared). The cache held is K's alone, 64 x 4096 x 576 x 2 B
 * = 301,989,888 B (fp8: 150,994,944); the activations Q 64 x 16 x 576 x 2
 * = 1,179,648 and O 64 x 16 x 512 x 2 = 1,048,576, 2,228,224 B. With V a
 * tensor of its own, V's 64 x 4096 x 512 x 2 = 268,435,456 more are held
 * (570,425,344), the activations the same. 27 layers (V2-Lite) hold 27 x
 * 301,989,888 = 8,153,726,976 B. */
START_TEST(attention_mla_kv)
{
	struct rl_op op;
	struct rl_memfit m;
	double w, kv, act;

	test_op_shape(&op, RL_KIND_ATTENTION, RL_BF16, 5, (uint64_t[]){64, 16, 1, 4096, 576});
	op.kv_heads = 1;
	op.v_head_dim = 512;
	op.kv_shared = 1;
	ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &kv, &act, NULL), 0);
	ck_assert_double_eq(w, 0.0);
	ck_assert_double_eq(kv, 301989888.0);
	ck_assert_double_eq(act, 2228224.0);
	op.count = 27;
	rl_memfit_init(&m);
	ck_assert_int_eq(rl_memfit_add(&m, &op, NULL), 0);
	ck_assert_double_eq(m.kv_bytes, 8153726976.0);
	ck_assert_double_eq(m.activation_bytes, 2228224.0);
	op.kv_shared = 0;
	ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &kv, &act, NULL), 0);
	ck_assert_double_eq(kv, 570425344.0);
	ck_assert_double_eq(act, 2228224.0);
	op.kv_shared = 1;
	op.has |= RL_HAS_KV_DTYPE;
	op.kv_dtype = RL_FP8E4M3;
	ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &kv, &act, NULL), 0);
	ck_assert_double_eq(kv, 150994944.0);
}
END_TEST

/* conv2d 1x64x56x56, 256 filters 1x1, stride 1, fp16: filter 256 x 64 x 2
 * = 32,768 B; input 64 x 56 x 56 x 2 = 401,408 B, output 256 x 56 x 56 x
 * 2 = 1,605,632 B: 2,007,040 B of activations. */
START_TEST(conv2d_filter)
{
	struct rl_op op;
	double w, kv, act;

	test_op_shape(&op, RL_KIND_CONV2D, RL_FP16, 4, (uint64_t[]){1, 64, 56, 56});
	op.has |= RL_HAS_KERNEL;
	op.kernel[0] = 256;
	op.kernel[1] = 1;
	op.kernel[2] = 1;
	ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &kv, &act, NULL), 0);
	ck_assert_double_eq_tol(w, 32768.0, 1e-6);
	ck_assert_double_eq_tol(act, 2007040.0, 1e-6);
}
END_TEST

static void set_mem(struct rl_device *d, double gib)
{
	d->num[RL_HW_MEMORY_GIB].present = 1;
	d->num[RL_HW_MEMORY_GIB].value = gib;
}

/* 32 layers of the matmul: 32 x 8 MiB = 0.25 GiB of weights; 32 of the
 * attention: 32 x 32 MiB = 1 GiB of KV; activations the largest op's once:
 * a custom op of 1e6 bytes beats the matmul's 163,840 B. Total 1.25 GiB +
 * 1e6 B: over a 1.25 GiB device by 1e6 B, within a 1.26 GiB one. */
START_TEST(step_totals)
{
	struct rl_memfit m;
	struct rl_device dev = {0};
	struct rl_op mm, at, cu;

	test_op_shape(&mm, RL_KIND_MATMUL, RL_BF16, 3, (uint64_t[]){16, 4096, 1024});
	mm.count = 32;
	mm.line = 2;
	test_op_shape(&at, RL_KIND_ATTENTION, RL_BF16, 5, (uint64_t[]){4, 32, 1, 2048, 128});
	at.kv_heads = 8;
	at.count = 32;
	at.line = 3;
	rl_op_init(&cu);
	cu.name = "c";
	cu.kind = RL_KIND_CUSTOM;
	cu.has |= RL_HAS_FLOPS | RL_HAS_BYTES;
	cu.flops = 1;
	cu.bytes = 1e6;
	cu.line = 4;
	rl_memfit_init(&m);
	ck_assert_int_eq(rl_memfit_add(&m, &mm, NULL), 0);
	ck_assert_double_eq_tol(m.activation_bytes, 163840.0, 1e-6);
	ck_assert_int_eq(m.activation_line, 2);
	ck_assert_int_eq(rl_memfit_add(&m, &at, NULL), 0);
	ck_assert_int_eq(rl_memfit_add(&m, &cu, NULL), 0);
	ck_assert_double_eq_tol(m.weight_bytes, 0.25 * GIB, 1e-3);
	ck_assert_double_eq_tol(m.kv_bytes, 1.0 * GIB, 1e-3);
	ck_assert_double_eq_tol(m.activation_bytes, 1e6, 1e-6);
	ck_assert_int_eq(m.activation_line, 4);
	ck_assert_double_eq_tol(rl_memfit_total_bytes(&m), 1.25 * GIB + 1e6, 1e-3);
	set_mem(&dev, 1.25);
	ck_assert_double_eq_tol(rl_memfit_device_bytes(&dev), 1.25 * GIB, 1e-3);
	ck_assert_int_eq(rl_memfit_fits(&m, &dev), 0);
	set_mem(&dev, 1.26); /* 0.01 GiB = 10.7e6 B of room */
	ck_assert_int_eq(rl_memfit_fits(&m, &dev), 1);
}
END_TEST

/* An MoE expert row run on 2 of 8 experts in 32 layers (count 64) with
 * every expert resident (weight_count 256): 256 x 8 MiB = 2 GiB of weights,
 * not the 0.5 GiB that the touched experts are. */
START_TEST(weight_count_resident)
{
	struct rl_memfit m;
	struct rl_op op;

	test_op_shape(&op, RL_KIND_MATMUL, RL_BF16, 3, (uint64_t[]){16, 4096, 1024});
	op.count = 64;
	op.weight_count = 256;
	rl_memfit_init(&m);
	ck_assert_int_eq(rl_memfit_add(&m, &op, NULL), 0);
	ck_assert_double_eq_tol(m.weight_bytes, 2.0 * GIB, 1e-3);
	op.weight_count = 0; /* not given: the count */
	rl_memfit_init(&m);
	ck_assert_int_eq(rl_memfit_add(&m, &op, NULL), 0);
	ck_assert_double_eq_tol(m.weight_bytes, 0.5 * GIB, 1e-3);
	op.has |= RL_HAS_WEIGHT_COUNT; /* weight_count=0: two activations */
	rl_memfit_init(&m);
	ck_assert_int_eq(rl_memfit_add(&m, &op, NULL), 0);
	ck_assert_double_eq_tol(m.weight_bytes, 0.0, 1e-9);
}
END_TEST

/* The caches an implementation writes with copies (issue 24, transformers'
 * MLA): a copy with kv_dtype holds its output, DeepSeek-V2-Lite's latent
 * of one layer at batch 8 on 4096 tokens, 8 x 1 x 4096 x 512 x 2 B =
 * 33,554,432 B (fp8: half); a copy without, nothing. The attention over the
 * K and V rebuilt from it (kv_cached=0, 8 x 16 x 1 x 4096 x 192, Dv 128)
 * holds none, where a cached one would hold 8 x 16 x 4096 x (192 + 128) x
 * 2 B = 335,544,320 B. */
START_TEST(copy_writes_cache)
{
	struct rl_op op;
	double w, kv, act;

	test_op_shape(&op, RL_KIND_COPY, RL_BF16, 4, (uint64_t[]){8, 1, 4096, 512});
	ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &kv, &act, NULL), 0);
	ck_assert_double_eq_tol(kv, 0.0, 1e-9);
	op.has |= RL_HAS_KV_DTYPE;
	op.kv_dtype = RL_BF16;
	ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &kv, &act, NULL), 0);
	ck_assert_double_eq_tol(kv, 33554432.0, 1e-6);
	op.kv_dtype = RL_FP8E4M3;
	ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &kv, &act, NULL), 0);
	ck_assert_double_eq_tol(kv, 16777216.0, 1e-6);
	test_op_shape(&op, RL_KIND_ATTENTION, RL_BF16, 5, (uint64_t[]){8, 16, 1, 4096, 192});
	op.v_head_dim = 128;
	ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &kv, &act, NULL), 0);
	ck_assert_double_eq_tol(kv, 335544320.0, 1e-6);
	op.kv_rebuilt = 1;
	ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &kv, &act, NULL), 0);
	ck_assert_double_eq_tol(kv, 0.0, 1e-9);
}
END_TEST

/* params: the weights a row holds besides its kind's, the row's as a whole.
 * Llama-3-8B's token table on its embed row (a copy of 16 x 4096): 128256
 * x 4096 = 525,336,576 weights x 2 B (bf16) = 1,050,673,152 B, whatever the
 * count; 32 layers' RMSNorm weights on a layernorm row of count 32: 32 x
 * 4096 x 2 B = 262,144 B, held once (not 32 x); the same norms in an fp32
 * op: 4 B each. The activations are the ops' own (16 x 4096 x 2 B in and
 * out: 262,144 B). */
START_TEST(params_held_once)
{
	struct rl_memfit m;
	struct rl_op op;

	rl_memfit_init(&m);
	test_op_shape(&op, RL_KIND_COPY, RL_BF16, 2, (uint64_t[]){16, 4096});
	op.params = 128256ull * 4096;
	ck_assert_int_eq(rl_memfit_add(&m, &op, NULL), 0);
	ck_assert_double_eq_tol(m.weight_bytes, 1050673152.0, 1e-3);
	ck_assert_double_eq_tol(m.activation_bytes, 262144.0, 1e-6);
	test_op_shape(&op, RL_KIND_LAYERNORM, RL_BF16, 2, (uint64_t[]){16, 4096});
	op.count = 32;
	op.params = 32 * 4096;
	ck_assert_int_eq(rl_memfit_add(&m, &op, NULL), 0);
	ck_assert_double_eq_tol(m.weight_bytes, 1050673152.0 + 262144.0, 1e-3);
	op.dtype = RL_FP32;
	rl_memfit_init(&m);
	ck_assert_int_eq(rl_memfit_add(&m, &op, NULL), 0);
	ck_assert_double_eq_tol(m.weight_bytes, 524288.0, 1e-3);
	/* a backward op holds nothing more */
	op.phase = RL_PHASE_BACKWARD;
	rl_memfit_init(&m);
	ck_assert_int_eq(rl_memfit_add(&m, &op, NULL), 0);
	ck_assert_double_eq_tol(m.weight_bytes, 0.0, 1e-9);
}
END_TEST

/* An invalid op (a matmul of two dims) is refused and M is unchanged. */
START_TEST(invalid_op)
{
	struct rl_memfit m;
	struct rl_err err;
	struct rl_op op;

	test_op_shape(&op, RL_KIND_MATMUL, RL_BF16, 2, (uint64_t[]){16, 4096});
	rl_memfit_init(&m);
	ck_assert_int_lt(rl_memfit_add(&m, &op, &err), 0);
	ck_assert_int_lt(err.code, 0);
	ck_assert_double_eq_tol(rl_memfit_total_bytes(&m), 0.0, 1e-9);
}
END_TEST

/* --max-batch's search (rl_memfit_max_batch) over a step of 1000 + 7 B
 * bytes: against 1000 + 7 x 300 bytes the largest batch is 300, found in
 * the doubling to 512 (10 calls) and the bisection between 256 and 512 (8
 * calls); against more than 1000 + 7 x 2^24 the cap itself (25 calls: the
 * search, not the memory, stopped); below 1007 none. */
struct search {
	double cap;
	unsigned calls;
	uint64_t fail_at; /* a callback error at this batch (0: none) */
};

static int search_fits(void *user, uint64_t b, int *fits)
{
	struct search *s = user;

	s->calls++;
	if (b == s->fail_at)
		return RL_ERR_RANGE;
	*fits = 1000 + 7 * (double)b <= s->cap;
	return 0;
}

START_TEST(max_batch_search)
{
	struct search s = {1000 + 7 * 300, 0, 0};
	uint64_t b;

	ck_assert_int_eq(rl_memfit_max_batch(search_fits, &s, 1u << 24, &b), 0);
	ck_assert_uint_eq(b, 300);
	ck_assert_uint_eq(s.calls, 18);
	/* everything fits: the cap, 1 and 2 ... 2^24 probed */
	s.cap = 1e30;
	s.calls = 0;
	ck_assert_int_eq(rl_memfit_max_batch(search_fits, &s, 1u << 24, &b), 0);
	ck_assert_uint_eq(b, 1u << 24);
	ck_assert_uint_eq(s.calls, 25);
	/* a cap that is no power of two: 1, 2, 4, then 5 */
	s.calls = 0;
	ck_assert_int_eq(rl_memfit_max_batch(search_fits, &s, 5, &b), 0);
	ck_assert_uint_eq(b, 5);
	ck_assert_uint_eq(s.calls, 4);
	s.cap = 1000 + 7 * 3;
	ck_assert_int_eq(rl_memfit_max_batch(search_fits, &s, 5, &b), 0);
	ck_assert_uint_eq(b, 3);
	/* batch 1 does not fit */
	s.cap = 1006;
	ck_assert_int_eq(rl_memfit_max_batch(search_fits, &s, 1u << 24, &b), 0);
	ck_assert_uint_eq(b, 0);
	/* the callback's error stops the search */
	s.cap = 1e30;
	s.fail_at = 64;
	ck_assert_int_eq(rl_memfit_max_batch(search_fits, &s, 1u << 24, &b), RL_ERR_RANGE);
}
END_TEST

/* rl_memfit_add_work() reads the record: a matmul whose record says 1000 B
 * of weights and 500 of activations (read + written 1500) holds 3 x 1000 B
 * of weights for count 3, and 500 B of activations. */
START_TEST(work_record_read)
{
	struct rl_memfit m;
	struct rl_op op;
	struct rl_work w = {0};

	test_op_shape(&op, RL_KIND_MATMUL, RL_BF16, 3, (uint64_t[]){16, 4096, 1024});
	op.count = 3;
	w.rw_known = 1;
	w.bytes_read = 1200;
	w.bytes_written = 300;
	w.weight_bytes = 1000;
	rl_memfit_init(&m);
	ck_assert_int_eq(rl_memfit_add_work(&m, &op, &w, NULL), 0);
	ck_assert_double_eq(m.weight_bytes, 3000);
	ck_assert_double_eq(m.activation_bytes, 500);
	ck_assert_double_eq(m.kv_bytes, 0);
}
END_TEST

Suite *suite_memfit(void)
{
	Suite *s = suite_create("memfit");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, matmul_weights);
	tcase_add_test(tc, work_record_read);
	tcase_add_test(tc, matmul_int4_groups);
	tcase_add_test(tc, attention_kv);
	tcase_add_test(tc, copy_writes_cache);
	tcase_add_test(tc, attention_window_kv);
	tcase_add_test(tc, attention_mla_kv);
	tcase_add_test(tc, conv2d_filter);
	tcase_add_test(tc, step_totals);
	tcase_add_test(tc, weight_count_resident);
	tcase_add_test(tc, params_held_once);
	tcase_add_test(tc, invalid_op);
	tcase_add_test(tc, max_batch_search);
	suite_add_tcase(s, tc);
	return s;
}
