/* check_formulas.c - FLOPs and bytes per kind, worked out by hand. */
#include "config.h"

#include <string.h>

#include "check.h"
#include "formulas.h"
#include "num.h"

/* One case: an op written as the CSV cells would give it, and the FLOPs and
 * bytes computed by hand (arithmetic in the comment). */
static const struct {
	const char *what;
	enum rl_kind kind;
	enum rl_dtype dtype;
	const char *shape;
	const char *kernel; /* conv2d */
	uint64_t stride, padding, groups, inputs;
	int causal;
	double fpe; /* < 0: not given */
	double flops, bytes;
} cases[] = {
	/* N = 1048576; bytes = (1 + 1) x N x 4 */
	{"pointwise fp32", RL_KIND_POINTWISE, RL_FP32, "1024x1024", NULL, 1, 0, 1, 1, 0, -1,
	 1048576, 8388608},
	/* two inputs: 3 x 1000 x 2 bytes; 3 FLOPs per element */
	{"pointwise 2 inputs", RL_KIND_POINTWISE, RL_BF16, "1000", NULL, 1, 0, 1, 2, 0, 3,
	 3000, 6000},
	/* 2^28 fp32 elements, x*2 repeated 64 times: 64 x 2^28; 8 x 2^28 bytes */
	{"repeat 64", RL_KIND_POINTWISE, RL_FP32, "268435456", NULL, 1, 0, 1, 1, 0, 64,
	 17179869184.0, 2147483648.0},
	/* (131072 + 32) x 4 bytes; one add per input element */
	{"reduction", RL_KIND_REDUCTION, RL_FP32, "32x4096", NULL, 1, 0, 1, 1, 0, -1,
	 131072, 524416},
	/* 5 FLOPs x 1024; 2 x 1024 x 2 bytes */
	{"softmax", RL_KIND_SOFTMAX, RL_FP16, "8x128", NULL, 1, 0, 1, 1, 0, -1, 5120, 4096},
	/* 8 x 3145728; (2 x 3145728 + 2 x 768) x 2 */
	{"layernorm", RL_KIND_LAYERNORM, RL_BF16, "4096x768", NULL, 1, 0, 1, 1, 0, -1,
	 25165824, 12585984},
	/* copy: 2 x 100 x 1 bytes, no FLOPs even if asked */
	{"copy", RL_KIND_COPY, RL_INT8, "10x10", NULL, 1, 0, 1, 1, 0, 5, 0, 200},
	/* BERT query projection: 2 x 4096 x 768 x 768; 2 x (4096x768 + 768x768 + 4096x768) */
	{"matmul", RL_KIND_MATMUL, RL_BF16, "4096x768x768", NULL, 1, 0, 1, 1, 0, -1,
	 4831838208.0, 13762560},
	/* B=2 M=3 N=4 K=5: 2 x 2x3x4x5 = 240; 4 x 2 x (15 + 20 + 12) = 376 */
	{"batched matmul", RL_KIND_MATMUL, RL_FP32, "2x3x4x5", NULL, 1, 0, 1, 1, 0, -1, 240,
	 376},
	/* blog: 8192^3 bf16: 2 x 8192^3; 2 x 3 x 8192^2 */
	{"matmul 8192^3", RL_KIND_MATMUL, RL_BF16, "8192x8192x8192", NULL, 1, 0, 1, 1, 0, -1,
	 1099511627776.0, 402653184},
	/* BERT attention: 4 x 32 x 12 x 128 x 128 x 64; 2 x 32 x 12 x (2x128x64 + 2x128x64) */
	{"attention", RL_KIND_ATTENTION, RL_BF16, "32x12x128x64", NULL, 1, 0, 1, 1, 0, -1,
	 1610612736, 25165824},
	/* Llama-2 prefill, causal: 4 x 32 x 2048^2 x 128 / 2 */
	{"attention causal", RL_KIND_ATTENTION, RL_BF16, "1x32x2048x128", NULL, 1, 0, 1, 1, 1,
	 -1, 34359738368.0, 67108864},
	/* causal decode: one query at the end of 2048 keys keeps 1 - 1/4096 of
	 * the work: 33554432 x 4095/4096 */
	{"attention causal decode", RL_KIND_ATTENTION, RL_BF16, "1x32x1x2048x128", NULL, 1, 0, 1, 1,
	 1, -1, 33546240, 33570816},
	/* decode over a 2048 cache: 4 x 32 x 1 x 2048 x 128; 2 x 32 x (2x128 + 2x2048x128) */
	{"attention decode", RL_KIND_ATTENTION, RL_BF16, "1x32x1x2048x128", NULL, 1, 0, 1, 1, 0,
	 -1, 33554432, 33570816},
	/* ResNet-50 layer1 3x3: Ho = Wo = 56; 2 x 64 x 64 x 64 x 9 x 56 x 56;
	 * 2 x (64x64x56x56 + 64x64x9 + 64x64x56x56) */
	{"conv2d 3x3", RL_KIND_CONV2D, RL_BF16, "64x64x56x56", "64x3x3", 1, 1, 1, 1, 0, -1,
	 14797504512.0, 51453952},
	/* ResNet-50 stem: Ho = (224 + 6 - 7) / 2 + 1 = 112; 2 x 64 x 64 x 3 x 49 x 112^2;
	 * 2 x (64x3x224x224 + 64x3x7x7 + 64x64x112x112) */
	{"conv2d stem", RL_KIND_CONV2D, RL_BF16, "64x3x224x224", "64x7x7", 2, 3, 1, 1, 0, -1,
	 15105785856.0, 122046848},
	/* ResNet-50 downsample, 1x1 at stride 2: Ho = Wo = (56 - 1) / 2 + 1 = 28,
	 * and only the 28 x 28 pixels the filter covers are read:
	 * 2 x 64 x 512 x 28^2 x 256; 2 x (64x256x28x28 + 512x256 + 64x512x28x28) */
	{"conv2d downsample", RL_KIND_CONV2D, RL_BF16, "64x256x56x56", "512x1x1", 2, 0, 1, 1, 0, -1,
	 13153337344.0, 77332480},
	/* depthwise 3x3, 32 groups: 2 x 32 x 1 x 9 x 100; 4 x (3200 + 288 + 3200) */
	{"conv2d depthwise", RL_KIND_CONV2D, RL_FP32, "1x32x10x10", "32x3x3", 1, 1, 32, 1, 0, -1,
	 57600, 26752},
	/* GPT-2's token embedding at batch 8 x 1024 tokens, rows of 768 bf16:
	 * 8192 rows of 1536 B read and written (2 x 12582912) and 8192 int64
	 * indices read (65536 B); no FLOPs */
	{"embedding", RL_KIND_EMBEDDING, RL_BF16, "8x1024x768", NULL, 1, 0, 1, 1, 0, -1, 0,
	 25231360},
};

static void make_op(struct rl_op *op, size_t i)
{
	int n;

	rl_op_init(op);
	op->kind = cases[i].kind;
	op->dtype = cases[i].dtype;
	ck_assert_int_eq(rl_parse_dims(cases[i].shape, op->dims, RL_MAX_DIMS, &op->ndims, NULL), 0);
	op->has |= RL_HAS_SHAPE;
	if (cases[i].kernel) {
		ck_assert_int_eq(rl_parse_dims(cases[i].kernel, op->kernel, 3, &n, NULL), 0);
		op->has |= RL_HAS_KERNEL;
	}
	op->stride = cases[i].stride;
	op->padding = cases[i].padding;
	op->groups = cases[i].groups;
	op->inputs = cases[i].inputs;
	op->causal = cases[i].causal;
	if (cases[i].fpe >= 0) {
		op->flops_per_element = cases[i].fpe;
		op->has |= RL_HAS_FPE;
	}
}

START_TEST(test_formula)
{
	struct rl_op op;
	struct rl_err err = {0, ""};
	double flops = -1, bytes = -1;

	make_op(&op, _i);
	ck_assert_msg(rl_op_work(&op, &flops, &bytes, &err) == 0, "%s: %s", cases[_i].what,
	              err.msg);
	ck_assert_msg(flops == cases[_i].flops, "%s: flops %.17g, want %.17g", cases[_i].what,
	              flops, cases[_i].flops);
	ck_assert_msg(bytes == cases[_i].bytes, "%s: bytes %.17g, want %.17g", cases[_i].what,
	              bytes, cases[_i].bytes);
}
END_TEST

/* Bytes read and written of each case above, by hand: the inputs of the
 * formula are read, the output written (the two add up to the case's bytes). */
static const struct {
	double read, written;
} rw[] = {
	{4194304, 4194304},         /* 1048576 x 4 each */
	{4000, 2000},               /* 2 inputs x 1000 x 2; 1000 x 2 */
	{1073741824, 1073741824},   /* 2^28 x 4 each */
	{524288, 128},              /* 131072 x 4; 32 sums x 4 */
	{2048, 2048},               /* 1024 x 2 each */
	{6294528, 6291456},         /* (3145728 + 2 x 768) x 2; 3145728 x 2 */
	{100, 100},                 /* int8 */
	{7471104, 6291456},         /* 2 x (4096x768 + 768x768); 2 x 4096x768 */
	{280, 96},                  /* 4 x (2x3x5 + 2x5x4); 4 x 2x3x4 */
	{268435456, 134217728},     /* 2 x 2 x 8192^2; 2 x 8192^2 */
	{18874368, 6291456},        /* Q, K, V: 3 x 2 x 3145728; O */
	{50331648, 16777216},       /* 3 x 2 x 32x2048x128; O */
	{33562624, 8192},           /* 2 x (32x128 + 2 x 32x2048x128); 2 x 32x128 */
	{33562624, 8192},           /* the same without the mask */
	{25763840, 25690112},       /* 2 x (12845056 + 64x64x9); 2 x 64x64x56x56 */
	{19286400, 102760448},      /* 2 x (64x3x224x224 + 64x3x49); 2 x 64x64x112x112 */
	{25952256, 51380224},       /* 2 x (64x256x28x28 + 512x256); 2 x 64x512x28x28 */
	{13952, 12800},             /* 4 x (3200 + 32x1x9); 4 x 32x10x10 */
	{12648448, 12582912},       /* 8192 x 768 x 2 + 8192 x 8; 8192 x 768 x 2 */
};

START_TEST(test_read_written)
{
	struct rl_op op;
	struct rl_err err = {0, ""};
	double read = -1, written = -1, out = -1;

	ck_assert_uint_eq(ARRAY_SIZE(rw), ARRAY_SIZE(cases));
	make_op(&op, _i);
	ck_assert_msg(rl_op_rw(&op, &read, &written, &err) == 1, "%s: %s", cases[_i].what, err.msg);
	ck_assert_msg(read == rw[_i].read && written == rw[_i].written,
	              "%s: read %.17g written %.17g, want %.17g %.17g", cases[_i].what, read,
	              written, rw[_i].read, rw[_i].written);
	ck_assert_int_eq(rl_op_output_bytes(&op, &out, &err), 0);
	ck_assert_double_eq(out, rw[_i].written);
}
END_TEST

/* Bytes given: the split is not known; all of them count as read. */
START_TEST(test_read_written_unknown)
{
	struct rl_op op;
	struct rl_err err = {0, ""};
	double read = -1, written = -1;

	make_op(&op, 7); /* the matmul, its bytes given */
	op.bytes = 1000;
	op.has |= RL_HAS_BYTES;
	ck_assert_int_eq(rl_op_rw(&op, &read, &written, &err), 0);
	ck_assert_double_eq(read, 1000);
	ck_assert_double_eq(written, 0);
	ck_assert_int_eq(rl_op_output_bytes(&op, &read, &err), RL_ERR_PARSE);

	make_op(&op, 7); /* FLOPs given, bytes from the formula: known */
	op.flops = 5;
	op.has |= RL_HAS_FLOPS;
	ck_assert_int_eq(rl_op_rw(&op, &read, &written, &err), 1);
	ck_assert_double_eq(written, 6291456);

	rl_op_init(&op); /* custom */
	op.flops = 10;
	op.bytes = 20;
	op.has = RL_HAS_FLOPS | RL_HAS_BYTES;
	ck_assert_int_eq(rl_op_rw(&op, &read, &written, &err), 0);
	ck_assert_double_eq(read, 20);
	ck_assert_double_eq(written, 0);

	rl_op_init(&op); /* an invalid op: rl_op_work's error */
	op.kind = RL_KIND_POINTWISE;
	ck_assert_int_eq(rl_op_rw(&op, &read, &written, &err), RL_ERR_PARSE);
}
END_TEST

START_TEST(test_explicit_overrides)
{
	struct rl_op op;
	double flops, bytes;

	make_op(&op, 7); /* the matmul */
	op.flops = 1e12;
	op.has |= RL_HAS_FLOPS;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, NULL), 0);
	ck_assert_double_eq(flops, 1e12);
	ck_assert_double_eq(bytes, 13762560); /* still the formula */

	rl_op_init(&op); /* custom: both explicit, no shape needed */
	op.flops = 10;
	op.bytes = 20;
	op.has = RL_HAS_FLOPS | RL_HAS_BYTES;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, NULL), 0);
	ck_assert_double_eq(flops, 10);
	ck_assert_double_eq(bytes, 20);
}
END_TEST

static const struct {
	const char *what;
	enum rl_kind kind;
	const char *shape;
	const char *kernel;
	uint64_t stride, padding, groups;
	int rc;
	const char *msg; /* a substring of the message */
} bad[] = {
	{"matmul with 2 dims", RL_KIND_MATMUL, "64x64", NULL, 1, 0, 1, RL_ERR_PARSE, "MxNxK"},
	{"embedding with 1 dim", RL_KIND_EMBEDDING, "50257", NULL, 1, 0, 1, RL_ERR_PARSE,
	 "embedding expects indices x row width (NxD, BxSxD), got 1 dimension"},
	{"matmul with 5 dims", RL_KIND_MATMUL, "2x2x2x2x2", NULL, 1, 0, 1, RL_ERR_PARSE, "got 5"},
	{"attention with 3 dims", RL_KIND_ATTENTION, "1x2x3", NULL, 1, 0, 1, RL_ERR_PARSE,
	 "BxHxSxD"},
	{"conv2d with 3 dims", RL_KIND_CONV2D, "1x3x224", "64x3x3", 1, 0, 1, RL_ERR_PARSE,
	 "NxCxHxW"},
	{"conv2d without kernel", RL_KIND_CONV2D, "1x3x224x224", NULL, 1, 0, 1, RL_ERR_PARSE,
	 "kernel"},
	{"conv2d bad groups", RL_KIND_CONV2D, "1x6x8x8", "4x3x3", 1, 1, 4, RL_ERR_PARSE,
	 "groups"},
	{"conv2d filter too big", RL_KIND_CONV2D, "1x3x4x4", "8x7x7", 1, 0, 1, RL_ERR_PARSE,
	 "does not fit"},
	/* 2^32 x (2^32 + 1) elements */
	{"pointwise overflow", RL_KIND_POINTWISE, "4294967296x4294967297", NULL, 1, 0, 1,
	 RL_ERR_RANGE, "2^64"},
	{"matmul overflow", RL_KIND_MATMUL, "4294967296x4294967296x2", NULL, 1, 0, 1,
	 RL_ERR_RANGE, "2^64"},
	{"attention overflow", RL_KIND_ATTENTION, "65536x65536x65536x65536", NULL, 1, 0, 1,
	 RL_ERR_RANGE, "2^64"},
	/* issue 11: padding 2^62 wrapped h + 2 * padding and was reported as a
	 * filter that does not fit */
	{"conv2d padding overflow", RL_KIND_CONV2D, "1x3x8x8", "4x3x3", 1, 1ull << 62, 1,
	 RL_ERR_RANGE, "conv2d: the padded input overflows"},
	{"conv2d height overflow", RL_KIND_CONV2D, "1x1x4294967296x1", "1x1x1", 1, 0, 1,
	 RL_ERR_RANGE, "overflows"},
};

/* Issue 11, bug 4: inputs = 2^64 - 1 made (inputs + 1) wrap to 0, so the op
 * moved 0 bytes and was predicted free. */
START_TEST(test_pointwise_inputs_overflow)
{
	struct rl_op op;
	struct rl_err err = {0, ""};
	double flops, bytes;

	rl_op_init(&op);
	op.kind = RL_KIND_POINTWISE;
	ck_assert_int_eq(rl_parse_dims("4", op.dims, RL_MAX_DIMS, &op.ndims, NULL), 0);
	op.has |= RL_HAS_SHAPE;
	op.inputs = UINT64_MAX;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), RL_ERR_RANGE);
	ck_assert_msg(strstr(err.msg, "column 'inputs': 18446744073709551615 inputs: inputs + 1 "
	                              "overflows") != NULL,
	              "%s", err.msg);
	/* 2^61 - 1 inputs read + 1 written, 4 fp32 elements each: 16 x 2^61 bytes */
	op.inputs = (1ull << 61) - 1;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), 0);
	ck_assert_double_eq(bytes, 16.0 * 2305843009213693952.0);
}
END_TEST

START_TEST(test_bad)
{
	struct rl_op op;
	struct rl_err err = {0, ""};
	double flops, bytes;
	int n;

	rl_op_init(&op);
	op.kind = bad[_i].kind;
	ck_assert_int_eq(rl_parse_dims(bad[_i].shape, op.dims, RL_MAX_DIMS, &op.ndims, NULL), 0);
	op.has |= RL_HAS_SHAPE;
	if (bad[_i].kernel) {
		ck_assert_int_eq(rl_parse_dims(bad[_i].kernel, op.kernel, 3, &n, NULL), 0);
		op.has |= RL_HAS_KERNEL;
	}
	op.stride = bad[_i].stride;
	op.padding = bad[_i].padding;
	op.groups = bad[_i].groups;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), bad[_i].rc);
	ck_assert_msg(strstr(err.msg, bad[_i].msg) != NULL, "%s: '%s' lacks '%s'", bad[_i].what,
	              err.msg, bad[_i].msg);
}
END_TEST

/* Issue 13: grouped-query attention. The decode row of the goal:
 * batch 64, 32 query heads, 8 KV heads, one query over 2048 keys, head dim
 * 128, bf16. Q = O = 64x32x1x128 = 262,144 elements; K = V = 64x8x2048x128
 * = 134,217,728 (536,870,912 without kv_heads: 4x more). */
START_TEST(test_attention_kv_heads)
{
	struct rl_op op;
	struct rl_err err = {0, ""};
	double flops = -1, bytes = -1, read = -1, written = -1;

	rl_op_init(&op);
	op.kind = RL_KIND_ATTENTION;
	op.dtype = RL_BF16;
	ck_assert_int_eq(rl_parse_dims("64x32x1x2048x128", op.dims, RL_MAX_DIMS, &op.ndims, NULL), 0);
	op.has |= RL_HAS_SHAPE;
	/* without kv_heads: 2 x (2 x 262144 + 2 x 536870912) */
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), 0);
	ck_assert_double_eq(bytes, 2148532224.0);
	ck_assert_double_eq(flops, 2147483648.0); /* 4 x 64x32 x 1 x 2048 x 128 */
	/* kv_heads 8: 2 x (2 x 262144 + 2 x 134217728); the same FLOPs */
	op.kv_heads = 8;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), 0);
	ck_assert_double_eq(bytes, 537919488.0);
	ck_assert_double_eq(flops, 2147483648.0);
	/* the KV bytes, 2 x 2 x K: 2147483648 -> 536870912, 4x fewer */
	ck_assert_double_eq(2148532224.0 - 2.0 * 2 * 262144, 4 * (537919488.0 - 2.0 * 2 * 262144));
	/* read: 2 x (262144 + 2 x 134217728); written: O, 2 x 262144 */
	ck_assert_int_eq(rl_op_rw(&op, &read, &written, &err), 1);
	ck_assert_double_eq(read, 537395200.0);
	ck_assert_double_eq(written, 524288.0);
	/* kv_heads = H is the default */
	op.kv_heads = 32;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), 0);
	ck_assert_double_eq(bytes, 2148532224.0);
	/* it must divide H (12 does not divide 32; 64 > 32 does not either) */
	op.kv_heads = 12;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), RL_ERR_PARSE);
	ck_assert_str_eq(err.msg, "column 'kv_heads': 12 does not divide the query heads 32");
	op.kv_heads = 64;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), RL_ERR_PARSE);
	/* 4-dim prefill form, MQA (one KV head): B=2 H=4 S=8 D=16, fp32:
	 * Q = O = 2x4x8x16 = 1024, K = V = 2x1x8x16 = 256; 4 x (2x1024 + 2x256) */
	ck_assert_int_eq(rl_parse_dims("2x4x8x16", op.dims, RL_MAX_DIMS, &op.ndims, NULL), 0);
	op.dtype = RL_FP32;
	op.kv_heads = 1;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), 0);
	ck_assert_double_eq(bytes, 10240.0);
	ck_assert_double_eq(flops, 32768.0); /* 4 x 2x4 x 8 x 8 x 16 */
}
END_TEST

/* Sliding-window attention (window W): query p (p = Sk - Sq + i) sees
 * min(p + 1, W) keys when causal, min(Sk, W) without a mask; the kernel
 * reads min(Sk, Sq + W - 1) keys (causal) or min(Sk, W), the cache holds
 * min(Sk, W) tokens (kv_bytes). Each case worked out by hand; bf16 but the
 * last (fp32), D = 128 but the last (16). */
static const struct {
	const char *what, *shape;
	int causal;
	uint64_t kv_heads, window;
	double flops, read, written, kv_bytes;
} window_cases[] = {
	/* prefill B=1 H=8 S=4096, W=1024: sum_{p=0}^{4095} min(p + 1, 1024) =
	 * 1024 x 1025 / 2 + (4096 - 1024) x 1024 = 524,800 + 3,145,728 =
	 * 3,670,528 scores a head; FLOPs 4 x 128 x 8 x 3,670,528. Every key
	 * is read (Sq + W - 1 > Sk): Q 8 x 4096 x 128 x 2 = 8,388,608 and K, V
	 * 2 x 8 x 4096 x 128 x 2 = 16,777,216; O written 8,388,608; held
	 * 1024 tokens: 2 x 8 x 1024 x 128 x 2 = 4,194,304 */
	{"prefill", "1x8x4096x128", 1, 0, 1024, 15034482688.0, 8388608.0 + 16777216.0, 8388608.0,
	 4194304.0},
	/* decode 1x8x1x8192x128, W=4096, 2 KV heads, no mask: one query over
	 * 4096 keys: 4 x 128 x 8 x 4096 = 16,777,216; Q 8 x 128 x 2 = 2048, K
	 * and V read and held 2 x 2 x 4096 x 128 x 2 = 4,194,304 */
	{"decode", "1x8x1x8192x128", 0, 2, 4096, 16777216.0, 2048.0 + 4194304.0, 2048.0,
	 4194304.0},
	/* the same with the causal flag: min(8191 + 1, 4096) keys, 1 + 4095
	 * read: the same counts */
	{"causal decode", "1x8x1x8192x128", 1, 2, 4096, 16777216.0, 2048.0 + 4194304.0, 2048.0,
	 4194304.0},
	/* a chunk: Sq=512 at the end of Sk=4096, W=1024: the first query is at
	 * p = 3584 >= W - 1, so each sees 1024 keys: 512 x 1024 = 524,288 a
	 * head, FLOPs 4096 x 524,288; keys read 512 + 1023 = 1535: K, V 2 x 8
	 * x 1535 x 128 x 2 = 6,287,360, Q and O 8 x 512 x 128 x 2 =
	 * 1,048,576 each; held 1024 */
	{"chunk", "1x8x512x4096x128", 1, 0, 1024, 2147483648.0, 1048576.0 + 6287360.0, 1048576.0,
	 4194304.0},
	/* a chunk across the window's edge: Sq=512 of Sk=1280, W=1024: j = p +
	 * 1 from 769 to 1280; 769..1024 see j keys, (769 + 1024) x 256 / 2 =
	 * 229,504; 1025..1280 see 1024, 256 x 1024 = 262,144: 491,648 a head,
	 * FLOPs 4096 x 491,648 = 2,013,790,208; keys read min(1280, 1535) =
	 * 1280: K, V 2 x 8 x 1280 x 128 x 2 = 5,242,880 */
	{"chunk across W", "1x8x512x1280x128", 1, 0, 1024, 2013790208.0, 1048576.0 + 5242880.0,
	 1048576.0, 4194304.0},
	/* more queries than keys (Sq=8, Sk=4, W=2, fp32, D=16): the 4 queries
	 * before the first key see none, then min(j, 2) for j = 1..4: 1 + 2 +
	 * 2 + 2 = 7, FLOPs 4 x 16 x 7 = 448; every key read: Q 8 x 16 x 4 =
	 * 512, K and V 2 x 4 x 16 x 4 = 512; held 2: 2 x 2 x 16 x 4 = 256 */
	{"Sq > Sk", "1x1x8x4x16", 1, 0, 2, 448.0, 512.0 + 512.0, 512.0, 256.0},
};

static void window_op(struct rl_op *op, size_t i)
{
	rl_op_init(op);
	op->kind = RL_KIND_ATTENTION;
	op->dtype = window_cases[i].what[0] == 'S' ? RL_FP32 : RL_BF16;
	ck_assert_int_eq(rl_parse_dims(window_cases[i].shape, op->dims, RL_MAX_DIMS, &op->ndims, NULL),
	                 0);
	op->has |= RL_HAS_SHAPE;
	op->causal = window_cases[i].causal;
	op->kv_heads = window_cases[i].kv_heads;
	op->window = window_cases[i].window;
}

START_TEST(test_attention_window)
{
	struct rl_op op;
	struct rl_work w;
	struct rl_err err = {0, ""};

	window_op(&op, _i);
	ck_assert_int_eq(rl_attention_windowed(&op), 1);
	ck_assert_msg(rl_op_derive(&op, &w, &err) == 0, "%s: %s", window_cases[_i].what, err.msg);
	ck_assert_msg(w.flops == window_cases[_i].flops, "%s: flops %.17g", window_cases[_i].what,
	              w.flops);
	ck_assert_msg(w.bytes_read == window_cases[_i].read, "%s: read %.17g", window_cases[_i].what,
	              w.bytes_read);
	ck_assert_double_eq(w.bytes_written, window_cases[_i].written);
	ck_assert_double_eq(w.bytes, window_cases[_i].read + window_cases[_i].written);
	ck_assert_msg(w.kv_bytes == window_cases[_i].kv_bytes, "%s: kv %.17g", window_cases[_i].what,
	              w.kv_bytes);
}
END_TEST

/* A window of Sk or more changes nothing: the prefill of 4096 (causal:
 * 4 x 8 x 4096^2 x 128 / 2 = 34,359,738,368 FLOPs) and the decode over
 * 8192 (4 x 8 x 8192 x 128 = 33,554,432) with windows of Sk and 2^64 - 1
 * give what no window gives. An fp8 KV cache converts the keys read:
 * the decode's 2 x 2 x 4096 x 128 = 2,097,152, against 4,194,304 over the
 * whole cache. */
START_TEST(test_attention_window_wide)
{
	static const uint64_t wide[] = {0, 4096, 8192, UINT64_MAX};
	struct rl_op op;
	struct rl_work none, w;
	struct rl_err err = {0, ""};
	size_t c, i;

	for (c = 0; c < 2; c++) {
		window_op(&op, c);
		for (i = 0; i < ARRAY_SIZE(wide); i++) {
			if (wide[i] != 0 && wide[i] < (c == 0 ? 4096 : 8192))
				continue;
			op.window = wide[i];
			ck_assert_int_eq(rl_attention_windowed(&op), 0);
			ck_assert_int_eq(rl_op_derive(&op, &w, &err), 0);
			if (i == 0)
				none = w;
			ck_assert_double_eq(w.flops, c == 0 ? 34359738368.0 : 33554432.0);
			ck_assert_double_eq(w.flops, none.flops);
			ck_assert_double_eq(w.bytes_read, none.bytes_read);
			ck_assert_double_eq(w.bytes_written, none.bytes_written);
			ck_assert_double_eq(w.kv_bytes, none.kv_bytes);
		}
	}
	window_op(&op, 1);
	op.has |= RL_HAS_KV_DTYPE;
	op.kv_dtype = RL_FP8E4M3;
	ck_assert_double_eq(rl_op_dequant_flops(&op), 2097152.0);
	op.window = 0;
	ck_assert_double_eq(rl_op_dequant_flops(&op), 4194304.0);
}
END_TEST

/* Multi-head latent attention (DeepSeek-V2, arXiv:2405.04434, section 2.1):
 * V and O with a head dim Dv of their own (v_head_dim), V as K's first Dv
 * channels (kv_shared). FLOPs 2 x scores x (D + Dv); bytes Q (D) and O (Dv)
 * at H heads, K (D) and V (Dv, none with kv_shared) at kv_heads, bf16 (2
 * bytes); held: K and V over the keys. */
static const struct {
	const char *what;
	const char *shape;
	int causal;
	uint64_t kv_heads, v_head_dim;
	int kv_shared;
	double flops, read, written, kv_bytes;
} mla_cases[] = {
	/* (a) DeepSeek-V2-Lite prefill, 1x16x2048x192 causal, Dv 128: the
	 * causal rule keeps 1 - Sq / (2 Sk) = 1/2 of Sq Sk = 2048 x 2048 / 2
	 * = 2,097,152 scores a head; FLOPs 2 x 16 x 2,097,152 x (192 + 128) =
	 * 67,108,864 x 320 = 21,474,836,480. Q 16 x 2048 x 192 x 2 =
	 * 12,582,912, K the same (kv_heads = heads), V 16 x 2048 x 128 x 2 =
	 * 8,388,608: read 33,554,432; O 16 x 2048 x 128 x 2 = 8,388,608
	 * written; held K + V = 20,971,520 */
	{"v2-lite prefill", "1x16x2048x192", 1, 0, 128, 0, 21474836480.0, 33554432.0, 8388608.0,
	 20971520.0},
	/* (b) the absorbed decode, 64 sequences x 16 heads, one query over 4096
	 * keys, D = 576 (kv_lora_rank 512 + rope 64), one KV head, Dv = 512,
	 * kv_shared: FLOPs 2 x 64 x 16 x 4096 x (576 + 512) = 8,388,608 x 1088
	 * = 9,126,805,504; Q 64 x 16 x 576 x 2 = 1,179,648 and K 64 x 1 x
	 * 4096 x 576 x 2 = 301,989,888 read (V nothing more): 303,169,536; O
	 * 64 x 16 x 512 x 2 = 1,048,576 written; held K's 64 x 4096 x 576 x 2
	 * = 301,989,888 */
	{"absorbed decode", "64x16x1x4096x576", 0, 1, 512, 1, 9126805504.0, 303169536.0, 1048576.0,
	 301989888.0},
	/* (c) the same with V a tensor of its own: V's 64 x 4096 x 512 x 2 =
	 * 268,435,456 more read (571,604,992) and held (570,425,344) */
	{"latent decode, V apart", "64x16x1x4096x576", 0, 1, 512, 0, 9126805504.0, 571604992.0,
	 1048576.0, 570425344.0},
	/* kv_shared without v_head_dim: V is all of K (Dv = D). (a)'s row:
	 * FLOPs 4 x 16 x 2,097,152 x 192 = 25,769,803,776; Q and K read 2 x
	 * 12,582,912, O 12,582,912 written, K alone held */
	{"kv_shared, Dv = D", "1x16x2048x192", 1, 0, 0, 1, 25769803776.0, 25165824.0, 12582912.0,
	 12582912.0},
	/* kv_shared with Dv = D given: the same */
	{"kv_shared, Dv = D given", "1x16x2048x192", 1, 0, 192, 1, 25769803776.0, 25165824.0,
	 12582912.0, 12582912.0},
	/* Dv above D without kv_shared (V wider than K): 1x2x8x8x64, Dv 128,
	 * fp32 by the name (4 bytes), no mask: 2 x 2 x 64 x (64 + 128) =
	 * 49,152 FLOPs; Q and K 2 x 8 x 64 x 4 = 4096 each, V 8192: read
	 * 16,384; O 8192; held 12,288 */
	{"V wider, fp32", "1x2x8x8x64", 0, 0, 128, 0, 49152.0, 16384.0, 8192.0, 12288.0},
};

static void mla_op(struct rl_op *op, size_t i)
{
	rl_op_init(op);
	op->kind = RL_KIND_ATTENTION;
	op->dtype = strstr(mla_cases[i].what, "fp32") ? RL_FP32 : RL_BF16;
	ck_assert_int_eq(rl_parse_dims(mla_cases[i].shape, op->dims, RL_MAX_DIMS, &op->ndims, NULL),
	                 0);
	op->has |= RL_HAS_SHAPE;
	op->causal = mla_cases[i].causal;
	op->kv_heads = mla_cases[i].kv_heads;
	op->v_head_dim = mla_cases[i].v_head_dim;
	op->kv_shared = mla_cases[i].kv_shared;
}

START_TEST(test_attention_mla)
{
	struct rl_op op;
	struct rl_work w;
	struct rl_err err = {0, ""};
	double out;

	mla_op(&op, _i);
	ck_assert_msg(rl_op_derive(&op, &w, &err) == 0, "%s: %s", mla_cases[_i].what, err.msg);
	ck_assert_msg(w.flops == mla_cases[_i].flops, "%s: flops %.17g", mla_cases[_i].what,
	              w.flops);
	ck_assert_msg(w.bytes_read == mla_cases[_i].read, "%s: read %.17g", mla_cases[_i].what,
	              w.bytes_read);
	ck_assert_msg(w.bytes_written == mla_cases[_i].written, "%s: written %.17g",
	              mla_cases[_i].what, w.bytes_written);
	ck_assert_double_eq(w.bytes, mla_cases[_i].read + mla_cases[_i].written);
	ck_assert_msg(w.kv_bytes == mla_cases[_i].kv_bytes, "%s: kv %.17g", mla_cases[_i].what,
	              w.kv_bytes);
	ck_assert_int_eq(rl_op_output_bytes(&op, &out, &err), 0);
	ck_assert_double_eq(out, mla_cases[_i].written);
}
END_TEST

/* Without the new columns, or with v_head_dim = D and kv_shared = 0, a row
 * gives today's counts, bit for bit: (a)'s prefill 4 x 16 x 2048^2 x 192 /
 * 2 = 25,769,803,776 FLOPs, Q, K and V read 3 x 12,582,912 = 37,748,736,
 * O 12,582,912 written, K and V held 25,165,824; the absorbed decode's
 * shape with one KV head 4 x 64 x 16 x 4096 x 576 = 9,663,676,416 FLOPs,
 * Q 1,179,648 + K and V 2 x 301,989,888 read, O 1,179,648; a windowed
 * fp8-cache decode (test_attention_window_wide's) and a chunk. With an
 * fp8 KV cache the conversions are K's and V's elements read: the
 * decode's 2 x 64 x 4096 x 576 = 301,989,888 without v_head_dim, 64 x
 * 4096 x (576 + 512) = 285,212,672 with Dv = 512, and K's 150,994,944
 * alone with kv_shared. */
/* An explicit attn_mask adds its own elements to the reads, once: bf16
 * 8x16x1024x128, Q K V O 4 x 8 x 16 x 1024 x 128 x 2 = 134,217,728 bytes
 * (Q K V read 100,663,296, O written 33,554,432); a float mask of the
 * default 8x1x1024x1024 2 bytes an element, 16,777,216; one a head
 * (8x16x1024x1024) 268,435,456; a key-padding mask 8x1x1x1024, 16,384; a
 * bool mask 8x1x1024x1024, a byte an element, 8,388,608. FLOPs unchanged:
 * 4 x 8 x 16 x 1024^2 x 128 = 68,719,476,736. */
START_TEST(test_attention_mask)
{
	static const struct {
		enum rl_mask mask;
		uint64_t dims[4]; /* 0s: the default */
		double mask_bytes;
	} mask_cases[] = {
		{RL_MASK_NONE, {0, 0, 0, 0}, 0},
		{RL_MASK_FLOAT, {0, 0, 0, 0}, 16777216.0},
		{RL_MASK_FLOAT, {8, 16, 1024, 1024}, 268435456.0},
		{RL_MASK_FLOAT, {8, 1, 1, 1024}, 16384.0},
		{RL_MASK_BOOL, {8, 1, 1024, 1024}, 8388608.0},
	};
	struct rl_op op;
	struct rl_work w;
	struct rl_err err = {0, ""};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mask_cases); i++) {
		rl_op_init(&op);
		op.kind = RL_KIND_ATTENTION;
		op.dtype = RL_BF16;
		ck_assert_int_eq(rl_parse_dims("8x16x1024x128", op.dims, RL_MAX_DIMS, &op.ndims, NULL), 0);
		op.has |= RL_HAS_SHAPE;
		op.mask = mask_cases[i].mask;
		memcpy(op.mask_dims, mask_cases[i].dims, sizeof(op.mask_dims));
		ck_assert_double_eq(rl_attention_mask_bytes(&op), mask_cases[i].mask_bytes);
		ck_assert_msg(rl_op_derive(&op, &w, &err) == 0, "%zu: %s", i, err.msg);
		ck_assert_double_eq(w.flops, 68719476736.0);
		ck_assert_double_eq(w.bytes, 134217728.0 + mask_cases[i].mask_bytes);
		ck_assert_double_eq(w.bytes_read, 100663296.0 + mask_cases[i].mask_bytes);
		ck_assert_double_eq(w.bytes_written, 33554432.0);
	}
}
END_TEST

START_TEST(test_attention_mla_identical)
{
	static const struct {
		const char *shape;
		int causal;
		uint64_t kv_heads, window;
		double flops, read, written;
	} today[] = {
		{"1x16x2048x192", 1, 0, 0, 25769803776.0, 37748736.0, 12582912.0},
		{"64x16x1x4096x576", 0, 1, 0, 9663676416.0, 1179648.0 + 2 * 301989888.0, 1179648.0},
		{"1x8x1x8192x128", 0, 2, 4096, 16777216.0, 2048.0 + 4194304.0, 2048.0},
		{"1x8x512x4096x128", 1, 0, 1024, 2147483648.0, 1048576.0 + 6287360.0, 1048576.0},
	};
	struct rl_op op;
	struct rl_work none, same;
	struct rl_err err = {0, ""};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(today); i++) {
		rl_op_init(&op);
		op.kind = RL_KIND_ATTENTION;
		op.dtype = RL_BF16;
		ck_assert_int_eq(
		        rl_parse_dims(today[i].shape, op.dims, RL_MAX_DIMS, &op.ndims, NULL), 0);
		op.has |= RL_HAS_SHAPE;
		op.causal = today[i].causal;
		op.kv_heads = today[i].kv_heads;
		op.window = today[i].window;
		ck_assert_int_eq(rl_op_derive(&op, &none, &err), 0);
		ck_assert_double_eq(none.flops, today[i].flops);
		ck_assert_double_eq(none.bytes_read, today[i].read);
		ck_assert_double_eq(none.bytes_written, today[i].written);
		op.v_head_dim = op.dims[op.ndims - 1];
		ck_assert_int_eq(rl_op_derive(&op, &same, &err), 0);
		ck_assert_int_eq(memcmp(&none, &same, sizeof(none)), 0);
		op.has |= RL_HAS_KV_DTYPE;
		op.kv_dtype = RL_FP8E4M3;
		op.v_head_dim = 0;
		ck_assert_int_eq(rl_op_derive(&op, &none, &err), 0);
		op.v_head_dim = op.dims[op.ndims - 1];
		ck_assert_int_eq(rl_op_derive(&op, &same, &err), 0);
		ck_assert_int_eq(memcmp(&none, &same, sizeof(none)), 0);
	}
	mla_op(&op, 2);
	op.has |= RL_HAS_KV_DTYPE;
	op.kv_dtype = RL_FP8E4M3;
	ck_assert_double_eq(rl_op_dequant_flops(&op), 285212672.0);
	op.kv_shared = 1;
	ck_assert_double_eq(rl_op_dequant_flops(&op), 150994944.0);
	op.v_head_dim = 0;
	op.kv_shared = 0;
	ck_assert_double_eq(rl_op_dequant_flops(&op), 301989888.0);
}
END_TEST

/* V inside K cannot be wider than K: kv_shared with v_head_dim 640 over
 * D = 576 is an error naming both; v_head_dim 2^62 overflows V. */
START_TEST(test_attention_mla_errors)
{
	struct rl_op op;
	struct rl_err err = {0, ""};
	double f, b;

	mla_op(&op, 1);
	op.v_head_dim = 640;
	ck_assert_int_eq(rl_op_work(&op, &f, &b, &err), RL_ERR_PARSE);
	ck_assert_str_eq(err.msg, "column 'v_head_dim': 640 is above K's head dim 576 (the shape's "
	                          "D): with kv_shared = 1, V is K's first v_head_dim channels");
	op.kv_shared = 0; /* a V of its own may be wider */
	ck_assert_int_eq(rl_op_work(&op, &f, &b, &err), 0);
	op.v_head_dim = (uint64_t)1 << 62;
	ck_assert_int_eq(rl_op_work(&op, &f, &b, &err), RL_ERR_RANGE);
	ck_assert_ptr_nonnull(strstr(err.msg, "attention tensor"));
}
END_TEST

/* Issue 13: weights and KV caches in their own dtype. The case: a
 * 4096x4096 int4 weight under bf16 activations, one row (decode), one fp16
 * scale per 128 weights: weights 4096 x 4096 / 2 + 4096 x 4096 / 128 x 2 =
 * 8,388,608 + 262,144 = 8,650,752 bytes; A and C 4096 x 2 = 8,192 each. */
START_TEST(test_weight_dtype)
{
	struct rl_op op;
	struct rl_err err = {0, ""};
	double flops = -1, bytes = -1, read = -1, written = -1;
	int n;

	rl_op_init(&op);
	op.kind = RL_KIND_MATMUL;
	op.dtype = RL_BF16;
	ck_assert_int_eq(rl_parse_dims("1x4096x4096", op.dims, RL_MAX_DIMS, &op.ndims, NULL), 0);
	op.has |= RL_HAS_SHAPE | RL_HAS_WEIGHT_DTYPE;
	op.weight_dtype = RL_INT4;
	op.weight_group = 128;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), 0);
	ck_assert_double_eq(bytes, 8667136.0); /* 8192 + 8650752 + 8192 */
	ck_assert_double_eq(flops, 33554432.0); /* 2 x 4096 x 4096: unchanged */
	ck_assert_int_eq(rl_op_rw(&op, &read, &written, &err), 1);
	ck_assert_double_eq(read, 8658944.0); /* A and the weights */
	ck_assert_double_eq(written, 8192.0);
	/* dequantisation: one FLOP per weight, 4096 x 4096 */
	ck_assert_double_eq(rl_op_dequant_flops(&op), 16777216.0);
	/* no scales: 8192 + 8388608 + 8192 */
	op.weight_group = 0;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), 0);
	ck_assert_double_eq(bytes, 8404992.0);
	/* fp4 is half a byte too; fp8: 8192 + 16777216 + 8192 */
	op.weight_dtype = RL_FP4;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), 0);
	ck_assert_double_eq(bytes, 8404992.0);
	op.weight_dtype = RL_FP8E4M3;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), 0);
	ck_assert_double_eq(bytes, 16793600.0);
	/* the op's own dtype: nothing to convert */
	op.weight_dtype = RL_BF16;
	ck_assert_double_eq(rl_op_dequant_flops(&op), 0);
	/* FLOPs given: no formula, no conversion counted */
	op.weight_dtype = RL_INT4;
	op.flops = 1;
	op.has |= RL_HAS_FLOPS;
	ck_assert_double_eq(rl_op_dequant_flops(&op), 0);
	op.has &= ~(unsigned)RL_HAS_FLOPS;
	/* the groups run along K = 4096: 96 does not divide it */
	op.weight_group = 96;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), RL_ERR_PARSE);
	ck_assert_str_eq(err.msg, "column 'weight_group': 96 does not divide the K 4096 (the "
	                          "groups run along the reduction)");

	/* conv2d, fp16, int4 filter 64x64x3x3 = 36,864 weights, group 64 (C x R x S
	 * = 576 = 9 x 64): 36864 / 2 + 36864 / 64 x 2 = 18,432 + 1,152 = 19,584;
	 * input and output 64x64x56x56 = 12,845,056 x 2 bytes each */
	rl_op_init(&op);
	op.kind = RL_KIND_CONV2D;
	op.dtype = RL_FP16;
	ck_assert_int_eq(rl_parse_dims("64x64x56x56", op.dims, RL_MAX_DIMS, &op.ndims, NULL), 0);
	ck_assert_int_eq(rl_parse_dims("64x3x3", op.kernel, 3, &n, NULL), 0);
	op.has |= RL_HAS_SHAPE | RL_HAS_KERNEL | RL_HAS_WEIGHT_DTYPE;
	op.padding = 1;
	op.weight_dtype = RL_INT4;
	op.weight_group = 64;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), 0);
	ck_assert_double_eq(bytes, 51399808.0); /* 2 x 2 x 12845056 = 51380224, + 19584 */
	ck_assert_double_eq(rl_op_dequant_flops(&op), 36864.0);
	ck_assert_int_eq(rl_op_rw(&op, &read, &written, &err), 1);
	ck_assert_double_eq(read, 25709696.0); /* 25690112 + 19584 */
	ck_assert_double_eq(written, 25690112.0);
	op.weight_group = 100; /* 576 / 100 is not whole */
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, "does not divide the filter's reduction"));

	/* an fp8 KV cache under bf16 attention, the GQA decode row: Q and O
	 * 2 x 2 x 262,144 = 1,048,576 bytes; K and V 1 x 2 x 134,217,728 */
	rl_op_init(&op);
	op.kind = RL_KIND_ATTENTION;
	op.dtype = RL_BF16;
	ck_assert_int_eq(rl_parse_dims("64x32x1x2048x128", op.dims, RL_MAX_DIMS, &op.ndims, NULL), 0);
	op.has |= RL_HAS_SHAPE | RL_HAS_KV_DTYPE;
	op.kv_heads = 8;
	op.kv_dtype = RL_FP8E4M3;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), 0);
	ck_assert_double_eq(bytes, 269484032.0);
	ck_assert_double_eq(flops, 2147483648.0);
	ck_assert_double_eq(rl_op_dequant_flops(&op), 268435456.0);
	ck_assert_int_eq(rl_op_rw(&op, &read, &written, &err), 1);
	ck_assert_double_eq(read, 268959744.0); /* Q 524,288 + K and V */
	ck_assert_double_eq(written, 524288.0);
	/* int4 KV: K and V 0.5 x 2 x 134,217,728 */
	op.kv_dtype = RL_INT4;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), 0);
	ck_assert_double_eq(bytes, 135266304.0);
}
END_TEST

START_TEST(test_dtype_bytes)
{
	ck_assert_double_eq(rl_dtype_bytes(RL_INT4), 0.5);
	ck_assert_double_eq(rl_dtype_bytes(RL_FP4), 0.5);
	ck_assert_double_eq(rl_dtype_bytes(RL_BF16), 2);
	ck_assert_uint_eq(rl_dtype_size(RL_INT4), 1);
	ck_assert_uint_eq(rl_dtype_size(RL_FP32), 4);
	ck_assert(rl_dtype_storage_only(RL_FP4));
	ck_assert(!rl_dtype_storage_only(RL_INT8));
}
END_TEST

START_TEST(test_custom_needs_both)
{
	struct rl_op op;
	struct rl_err err = {0, ""};
	double flops, bytes;

	rl_op_init(&op);
	op.flops = 5;
	op.has = RL_HAS_FLOPS;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, "custom"));

	rl_op_init(&op); /* a pointwise op with neither shape nor numbers */
	op.kind = RL_KIND_POINTWISE;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &err), RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, "shape"));
}
END_TEST

/* rl_op_derive(): the record of one op, every field worked out by hand. */
static const struct {
	const char *what;
	enum rl_kind kind;
	enum rl_dtype dtype;
	int ndims;
	uint64_t dims[5];
	int variant; /* 1: int4 weights in groups of 128; 2: kv_heads 4; 3: inputs 2; 4: 8 ranks */
	double flops, read, written, elems, weight_elems, weight_bytes, kv_bytes, dequant;
	int rw_known;
} derive_cases[] = {
	/* M 512, N 768, K 1024: 2 MNK; A 512 K + B K 768 read at 2 B, C written */
	{"matmul", RL_KIND_MATMUL, RL_BF16, 3, {512, 768, 1024}, 0, 805306368.0,
	 (524288.0 + 786432) * 2, 393216.0 * 2, 402653184, 786432, 1572864, 0, 0, 1},
	/* the same B in int4: 786432 / 2 B + one fp16 scale per 128 (12288 B);
	 * one conversion FLOP per weight */
	{"matmul int4", RL_KIND_MATMUL, RL_BF16, 3, {512, 768, 1024}, 1, 805306368.0,
	 524288.0 * 2 + 393216 + 12288, 393216.0 * 2, 402653184, 786432, 405504, 0, 786432, 1},
	/* 8x64x56x56, 128 3x3 filters, padding 1: out 8x128x56x56 = 3211264;
	 * 2 x out x 64 x 9 FLOPs; input 1605632 + filter 73728 read at 2 B */
	{"conv2d", RL_KIND_CONV2D, RL_FP16, 4, {8, 64, 56, 56}, 0, 3699376128.0,
	 (1605632.0 + 73728) * 2, 3211264.0 * 2, 1605632, 73728, 147456, 0, 0, 1},
	/* 2x16x1024x64, 4 KV heads: 4 x B H S S D; Q 2097152 + K, V 524288
	 * each read at 2 B; O written; K and V 2 x 524288 x 2 B */
	{"attention", RL_KIND_ATTENTION, RL_BF16, 4, {2, 16, 1024, 64}, 2, 8589934592.0,
	 (2097152.0 + 2 * 524288) * 2, 2097152.0 * 2, 2097152, 0, 0, 2097152, 0, 1},
	/* 1024x1024 fp32, 2 inputs: one FLOP per element, 2 N read, N written */
	{"pointwise", RL_KIND_POINTWISE, RL_FP32, 2, {1024, 1024}, 3, 1048576.0, 8388608.0,
	 4194304.0, 1048576, 0, 0, 0, 0, 1},
	/* 2^20 bf16 on 8 ranks: bus bytes 2^21 x 2 x 7 / 8, none in device
	 * memory's split */
	{"allreduce", RL_KIND_ALLREDUCE, RL_BF16, 1, {1048576}, 4, 0, 3670016.0, 0, 1048576, 0, 0,
	 0, 0, 0},
};

START_TEST(test_derive)
{
	struct rl_op op;
	struct rl_work w;
	struct rl_err err = {0, ""};
	int i;

	rl_op_init(&op);
	op.name = derive_cases[_i].what;
	op.kind = derive_cases[_i].kind;
	op.dtype = derive_cases[_i].dtype;
	op.ndims = derive_cases[_i].ndims;
	for (i = 0; i < op.ndims; i++)
		op.dims[i] = derive_cases[_i].dims[i];
	op.has = RL_HAS_SHAPE;
	if (derive_cases[_i].kind == RL_KIND_CONV2D) {
		op.kernel[0] = 128, op.kernel[1] = 3, op.kernel[2] = 3;
		op.padding = 1;
		op.has |= RL_HAS_KERNEL;
	}
	switch (derive_cases[_i].variant) {
	case 1:
		op.weight_dtype = RL_INT4;
		op.weight_group = 128;
		op.has |= RL_HAS_WEIGHT_DTYPE;
		break;
	case 2: op.kv_heads = 4; break;
	case 3: op.inputs = 2; break;
	case 4:
		op.ranks = 8;
		op.has |= RL_HAS_RANKS;
		break;
	default: break;
	}
	ck_assert_msg(rl_op_derive(&op, &w, &err) == 0, "%s: %s", op.name, err.msg);
	ck_assert_double_eq(w.flops, derive_cases[_i].flops);
	ck_assert_double_eq(w.bytes_read, derive_cases[_i].read);
	ck_assert_double_eq(w.bytes_written, derive_cases[_i].written);
	ck_assert_double_eq(w.bytes, derive_cases[_i].read + derive_cases[_i].written);
	ck_assert_int_eq(w.rw_known, derive_cases[_i].rw_known);
	ck_assert_double_eq(w.elems, derive_cases[_i].elems);
	ck_assert_double_eq(w.weight_elems, derive_cases[_i].weight_elems);
	ck_assert_double_eq(rl_op_weight_elems(&op), derive_cases[_i].weight_elems);
	ck_assert_double_eq(w.weight_bytes, derive_cases[_i].weight_bytes);
	ck_assert_double_eq(w.kv_bytes, derive_cases[_i].kv_bytes);
	ck_assert_double_eq(w.dequant_flops, derive_cases[_i].dequant);
	ck_assert_double_eq(w.es, derive_cases[_i].dtype == RL_FP32 ? 4 : 2);
}
END_TEST

/* An invalid op: the error of rl_op_work() and a zero record. */
START_TEST(test_derive_invalid)
{
	struct rl_op op;
	struct rl_work w;
	struct rl_err err = {0, ""};

	rl_op_init(&op);
	op.kind = RL_KIND_MATMUL;
	op.ndims = 2;
	op.dims[0] = op.dims[1] = 8;
	op.has = RL_HAS_SHAPE;
	ck_assert_int_eq(rl_op_derive(&op, &w, &err), RL_ERR_PARSE);
	ck_assert_str_eq(err.msg, "shape: matmul expects MxNxK or BxMxNxK, got 2 dimensions");
	ck_assert_double_eq(w.flops, 0);
	ck_assert_double_eq(w.bytes, 0);
	/* the output's bytes are known apart for a matmul, not for a custom op */
	op.ndims = 3;
	ck_assert_int_eq(rl_op_output_known(&op, NULL), 0);
	op.kind = RL_KIND_CUSTOM;
	ck_assert_int_eq(rl_op_output_known(&op, &err), RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, "not known apart"));
}
END_TEST

Suite *suite_formulas(void)
{
	Suite *s = suite_create("formulas");
	TCase *tc = tcase_create("counts");
	TCase *te = tcase_create("errors");

	tcase_add_loop_test(tc, test_formula, 0, ARRAY_SIZE(cases));
	tcase_add_test(tc, test_explicit_overrides);
	tcase_add_loop_test(tc, test_read_written, 0, ARRAY_SIZE(cases));
	tcase_add_test(tc, test_read_written_unknown);
	tcase_add_test(tc, test_attention_kv_heads);
	tcase_add_loop_test(tc, test_attention_window, 0, ARRAY_SIZE(window_cases));
	tcase_add_test(tc, test_attention_window_wide);
	tcase_add_loop_test(tc, test_attention_mla, 0, ARRAY_SIZE(mla_cases));
	tcase_add_test(tc, test_attention_mla_identical);
	tcase_add_test(tc, test_attention_mask);
	tcase_add_test(tc, test_attention_mla_errors);
	tcase_add_test(tc, test_weight_dtype);
	tcase_add_test(tc, test_dtype_bytes);
	tcase_add_loop_test(tc, test_derive, 0, ARRAY_SIZE(derive_cases));
	tcase_add_test(te, test_derive_invalid);
	tcase_add_loop_test(te, test_bad, 0, ARRAY_SIZE(bad));
	tcase_add_test(te, test_custom_needs_both);
	tcase_add_test(te, test_pointwise_inputs_overflow);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, te);
	return s;
}
