/* check_oplist_write.c - the op list writer: each cell's formatting and
 * quoting, the lines it makes, and that the reader takes them back. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "oplist.h"
#include "oplist_write.h"

/* What F (an open_memstream) holds, as a string to free. */
static char *written(FILE *f, char **buf)
{
	ck_assert_int_eq(fclose(f), 0);
	return *buf;
}

START_TEST(test_row_cells)
{
	static const enum rl_opcol cols[] = {RL_OPCOL_NAME, RL_OPCOL_KIND, RL_OPCOL_DTYPE,
	                                     RL_OPCOL_SHAPE, RL_OPCOL_INPUTS, RL_OPCOL_COUNT};
	struct rl_oprow r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const uint64_t d[] = {2, 4096};

	ck_assert_ptr_nonnull(f);
	rl_oplist_write_header(f, cols, ARRAY_SIZE(cols));
	/* a name with a comma is quoted; inputs left empty (the default 1) */
	rl_oprow_init(&r);
	rl_oprow_text(&r, RL_OPCOL_NAME, "proj, q");
	rl_oprow_text(&r, RL_OPCOL_KIND, "pointwise");
	rl_oprow_text(&r, RL_OPCOL_DTYPE, "bf16");
	rl_oprow_dims(&r, RL_OPCOL_SHAPE, d, 2);
	rl_oprow_u64(&r, RL_OPCOL_COUNT, 32);
	rl_oplist_write_row(f, cols, ARRAY_SIZE(cols), &r);
	/* a quote is doubled; a leading '#' and a trailing space are quoted,
	 * so that the reader sees neither a comment nor a trimmed cell */
	rl_oprow_text(&r, RL_OPCOL_NAME, "say \"hi\"");
	rl_oprow_text(&r, RL_OPCOL_KIND, "#kind");
	rl_oprow_text(&r, RL_OPCOL_DTYPE, "fp32 ");
	rl_oprow_text(&r, RL_OPCOL_SHAPE, NULL);
	rl_oprow_u64(&r, RL_OPCOL_INPUTS, 3);
	rl_oplist_write_row(f, cols, ARRAY_SIZE(cols), &r);
	ck_assert_str_eq(written(f, &buf), "name,kind,dtype,shape,inputs,count\n"
	                                   "\"proj, q\",pointwise,bf16,2x4096,,32\n"
	                                   "\"say \"\"hi\"\"\",\"#kind\",\"fp32 \",,3,32\n");
	free(buf);
}
END_TEST

START_TEST(test_numbers)
{
	struct rl_oprow r;

	rl_oprow_init(&r);
	/* exact integers in full, below 2^53 */
	rl_oprow_exact(&r, RL_OPCOL_FLOPS, 1073741824.0);
	ck_assert_str_eq(r.cell[RL_OPCOL_FLOPS], "1073741824");
	rl_oprow_exact(&r, RL_OPCOL_FLOPS, 0);
	ck_assert_str_eq(r.cell[RL_OPCOL_FLOPS], "0");
	/* 2^53 + 2 and 0.1 take 17 digits: they read back as the same double */
	rl_oprow_exact(&r, RL_OPCOL_BYTES, 9007199254740994.0);
	ck_assert_str_eq(r.cell[RL_OPCOL_BYTES], "9007199254740994");
	ck_assert_double_eq(strtod(r.cell[RL_OPCOL_BYTES], NULL), 9007199254740994.0);
	rl_oprow_exact(&r, RL_OPCOL_BYTES, 0.1);
	ck_assert_str_eq(r.cell[RL_OPCOL_BYTES], "0.10000000000000001");
	rl_oprow_g(&r, RL_OPCOL_FPE, 14);
	ck_assert_str_eq(r.cell[RL_OPCOL_FPE], "14");
	rl_oprow_g(&r, RL_OPCOL_FPE, 0.5);
	ck_assert_str_eq(r.cell[RL_OPCOL_FPE], "0.5");
	rl_oprow_fixed(&r, RL_OPCOL_MEASURED, 12.34567, 3);
	ck_assert_str_eq(r.cell[RL_OPCOL_MEASURED], "12.346");
	rl_oprow_fixed(&r, RL_OPCOL_SHAPE, 268435456.0, 0);
	ck_assert_str_eq(r.cell[RL_OPCOL_SHAPE], "268435456");
	rl_oprow_sig(&r, RL_OPCOL_MEASURED, 1234.5678, 6);
	ck_assert_str_eq(r.cell[RL_OPCOL_MEASURED], "1234.57");
	/* six dims of 2^64 - 1 fit a cell */
	{
		const uint64_t d[RL_MAX_DIMS] = {UINT64_MAX, UINT64_MAX, UINT64_MAX,
		                                 UINT64_MAX, UINT64_MAX, UINT64_MAX};

		rl_oprow_dims(&r, RL_OPCOL_SHAPE, d, RL_MAX_DIMS);
		ck_assert_uint_eq(strlen(r.cell[RL_OPCOL_SHAPE]), 6 * 20 + 5);
	}
	rl_oprow_dims(&r, RL_OPCOL_SHAPE, NULL, 0);
	ck_assert_str_eq(r.cell[RL_OPCOL_SHAPE], "");
}
END_TEST

START_TEST(test_from_op)
{
	struct rl_op op;
	struct rl_oprow r;

	/* a conv2d: its kernel, stride, padding and groups, the defaults too */
	rl_op_init(&op);
	op.name = "conv1";
	op.kind = RL_KIND_CONV2D;
	op.dtype = RL_BF16;
	op.has = RL_HAS_SHAPE | RL_HAS_KERNEL;
	op.ndims = 4;
	op.dims[0] = 8, op.dims[1] = 3, op.dims[2] = 224, op.dims[3] = 224;
	op.kernel[0] = 64, op.kernel[1] = 7, op.kernel[2] = 7;
	op.stride = 2;
	op.padding = 3;
	rl_oprow_from_op(&r, &op);
	ck_assert_str_eq(r.cell[RL_OPCOL_NAME], "conv1");
	ck_assert_str_eq(r.cell[RL_OPCOL_KIND], "conv2d");
	ck_assert_str_eq(r.cell[RL_OPCOL_DTYPE], "bf16");
	ck_assert_str_eq(r.cell[RL_OPCOL_SHAPE], "8x3x224x224");
	ck_assert_str_eq(r.cell[RL_OPCOL_KERNEL], "64x7x7");
	ck_assert_str_eq(r.cell[RL_OPCOL_STRIDE], "2");
	ck_assert_str_eq(r.cell[RL_OPCOL_PADDING], "3");
	ck_assert_str_eq(r.cell[RL_OPCOL_GROUPS], "1");
	ck_assert_str_eq(r.cell[RL_OPCOL_COUNT], "1");
	/* not an attention: no causal, no window, no v_head_dim or kv_shared;
	 * nothing measured */
	ck_assert_str_eq(r.cell[RL_OPCOL_CAUSAL], "");
	ck_assert_str_eq(r.cell[RL_OPCOL_WINDOW], "");
	ck_assert_str_eq(r.cell[RL_OPCOL_V_HEAD_DIM], "");
	ck_assert_str_eq(r.cell[RL_OPCOL_KV_SHARED], "");
	ck_assert_str_eq(r.cell[RL_OPCOL_MEASURED], "");
	ck_assert_str_eq(r.cell[RL_OPCOL_INPUTS], "");
	ck_assert_str_eq(r.cell[RL_OPCOL_PHASE], "forward");

	/* an attention of 8 KV heads, not causal, measured; a collective */
	rl_op_init(&op);
	op.name = "sdpa";
	op.kind = RL_KIND_ATTENTION;
	op.kv_heads = 8;
	op.measured_us = 41.0;
	op.has = RL_HAS_MEASURED;
	rl_oprow_from_op(&r, &op);
	ck_assert_str_eq(r.cell[RL_OPCOL_CAUSAL], "0");
	ck_assert_str_eq(r.cell[RL_OPCOL_KV_HEADS], "8");
	ck_assert_str_eq(r.cell[RL_OPCOL_MEASURED], "41.000");
	ck_assert_str_eq(r.cell[RL_OPCOL_KERNEL], "");
	ck_assert_str_eq(r.cell[RL_OPCOL_SHAPE], "");
	ck_assert_str_eq(r.cell[RL_OPCOL_WINDOW], ""); /* no window */
	op.window = 4096;
	rl_oprow_from_op(&r, &op);
	ck_assert_str_eq(r.cell[RL_OPCOL_WINDOW], "4096");
	/* v_head_dim and kv_shared when set (0: D, and V a tensor of its own) */
	ck_assert_str_eq(r.cell[RL_OPCOL_V_HEAD_DIM], "");
	ck_assert_str_eq(r.cell[RL_OPCOL_KV_SHARED], "");
	op.v_head_dim = 512;
	op.kv_shared = 1;
	rl_oprow_from_op(&r, &op);
	ck_assert_str_eq(r.cell[RL_OPCOL_V_HEAD_DIM], "512");
	ck_assert_str_eq(r.cell[RL_OPCOL_KV_SHARED], "1");
	ck_assert_str_eq(rl_opcol_name(RL_OPCOL_V_HEAD_DIM), "v_head_dim");
	ck_assert_str_eq(rl_opcol_name(RL_OPCOL_KV_SHARED), "kv_shared");
	/* appended after the last column before them: the order is a contract */
	ck_assert_int_eq(RL_OPCOL_V_HEAD_DIM, RL_OPCOL_WINDOW + 1);
	ck_assert_int_eq(RL_OPCOL_KV_SHARED, RL_OPCOL_WINDOW + 2);
	ck_assert_int_eq(RL_OPCOL_KV_CACHED, RL_OPCOL_KV_SHARED + 1);
	ck_assert_str_eq(rl_opcol_name(RL_OPCOL_KV_CACHED), "kv_cached");
	ck_assert_str_eq(rl_opcol_name(RL_OPCOL_FRESH), "fresh");
	ck_assert_str_eq(rl_opcol_name(RL_OPCOL_OVERLAP), "overlap");
	ck_assert_int_eq(RL_OPCOL_OVERLAP, RL_OPCOL_FRESH + 1);
	ck_assert_int_eq(RL_OPCOL_N, RL_OPCOL_OVERLAP + 1);
	rl_op_init(&op);
	op.name = "ar";
	op.kind = RL_KIND_ALLREDUCE;
	op.ranks = 16;
	op.nodes = 2;
	op.has = RL_HAS_RANKS | RL_HAS_NODES;
	op.phase = RL_PHASE_BACKWARD;
	rl_oprow_from_op(&r, &op);
	ck_assert_str_eq(r.cell[RL_OPCOL_RANKS], "16");
	ck_assert_str_eq(r.cell[RL_OPCOL_NODES], "2");
	ck_assert_str_eq(r.cell[RL_OPCOL_PHASE], "backward");
	ck_assert_str_eq(r.cell[RL_OPCOL_OVERLAP], ""); /* blocking: the default */
	op.overlap = 1;
	rl_oprow_from_op(&r, &op);
	ck_assert_str_eq(r.cell[RL_OPCOL_OVERLAP], "1");
}
END_TEST

START_TEST(test_comment)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char big[2000];

	ck_assert_ptr_nonnull(f);
	rl_oplist_write_comment(f, "from %s, %d rows", "a\nb\rc", 3);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	rl_oplist_write_comment(f, "%s", big);
	written(f, &buf);
	ck_assert_int_eq(strncmp(buf, "# from a?b?c, 3 rows\n# xxx", 26), 0);
	/* a long comment is not cut */
	ck_assert_uint_eq(strlen(buf), 21 + 2 + 1999 + 1);
	free(buf);
}
END_TEST

/* Every column the writer knows is one the reader knows (no extra
 * columns), and what it writes of an op reads back as that op. */
START_TEST(test_reads_back)
{
	enum rl_opcol cols[RL_OPCOL_N];
	struct rl_op ops[4];
	struct rl_oprow r;
	struct rl_oplist l;
	struct rl_errlist errs;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < RL_OPCOL_N; i++)
		cols[i] = (enum rl_opcol)i;
	rl_op_init(&ops[0]);
	ops[0].name = "q, k";
	ops[0].kind = RL_KIND_MATMUL;
	ops[0].dtype = RL_BF16;
	ops[0].weight_dtype = RL_INT4;
	ops[0].has = RL_HAS_SHAPE | RL_HAS_WEIGHT_DTYPE | RL_HAS_FLOPS;
	ops[0].ndims = 3;
	ops[0].dims[0] = 2048, ops[0].dims[1] = 6144, ops[0].dims[2] = 4096;
	ops[0].flops = 0.1;
	ops[0].count = 32;
	rl_op_init(&ops[1]);
	ops[1].name = "silu";
	ops[1].kind = RL_KIND_POINTWISE;
	ops[1].has = RL_HAS_SHAPE | RL_HAS_FPE | RL_HAS_MEASURED | RL_HAS_HOST | RL_HAS_FMA;
	ops[1].ndims = 1;
	ops[1].dims[0] = 1000;
	ops[1].inputs = 2;
	ops[1].flops_per_element = 0.5;
	ops[1].measured_us = 3.25;
	ops[1].host_us = 7.5;
	ops[1].launches = 4;
	ops[1].phase = RL_PHASE_OPTIMIZER;
	rl_op_init(&ops[2]);
	ops[2].name = "#attn";
	ops[2].kind = RL_KIND_ATTENTION;
	ops[2].dtype = RL_FP16;
	ops[2].has = RL_HAS_SHAPE | RL_HAS_KV_DTYPE;
	ops[2].kv_dtype = RL_FP8E4M3;
	ops[2].ndims = 4;
	ops[2].dims[0] = 1, ops[2].dims[1] = 32, ops[2].dims[2] = 512, ops[2].dims[3] = 128;
	ops[2].causal = 1;
	ops[2].kv_heads = 8;
	ops[2].window = 256;
	/* DeepSeek-V3's absorbed decode: one latent of 576 a token, V its
	 * first 512 */
	rl_op_init(&ops[3]);
	ops[3].name = "mla";
	ops[3].kind = RL_KIND_ATTENTION;
	ops[3].dtype = RL_BF16;
	ops[3].has = RL_HAS_SHAPE;
	ops[3].ndims = 5;
	ops[3].dims[0] = 64, ops[3].dims[1] = 16, ops[3].dims[2] = 1, ops[3].dims[3] = 4096;
	ops[3].dims[4] = 576;
	ops[3].kv_heads = 1;
	ops[3].v_head_dim = 512;
	ops[3].kv_shared = 1;
	rl_oplist_write_header(f, cols, RL_OPCOL_N);
	for (i = 0; i < 4; i++) {
		rl_oprow_from_op(&r, &ops[i]);
		rl_oplist_write_row(f, cols, RL_OPCOL_N, &r);
	}
	ck_assert_int_eq(fclose(f), 0);
	f = test_stream(buf);
	rl_errlist_init(&errs);
	ck_assert_int_eq(rl_oplist_read(f, "w.csv", &l, &errs), 0);
	fclose(f);
	ck_assert_uint_eq(l.nextra, 0);
	ck_assert_uint_eq(l.n, 4);
	ck_assert_str_eq(l.ops[0].name, "q, k");
	ck_assert_int_eq(l.ops[0].weight_dtype, RL_INT4);
	ck_assert_uint_eq(l.ops[0].dims[1], 6144);
	ck_assert_double_eq(l.ops[0].flops, 0.1);
	ck_assert_uint_eq(l.ops[0].count, 32);
	ck_assert_uint_eq(l.ops[1].inputs, 2);
	ck_assert_double_eq(l.ops[1].flops_per_element, 0.5);
	ck_assert_double_eq(l.ops[1].measured_us, 3.25);
	ck_assert_double_eq(l.ops[1].host_us, 7.5);
	ck_assert_int_eq(l.ops[1].fma, 0);
	ck_assert_uint_eq(l.ops[1].launches, 4);
	ck_assert_int_eq(l.ops[1].phase, RL_PHASE_OPTIMIZER);
	ck_assert_str_eq(l.ops[2].name, "#attn");
	ck_assert_int_eq(l.ops[2].causal, 1);
	ck_assert_uint_eq(l.ops[2].kv_heads, 8);
	ck_assert_uint_eq(l.ops[2].window, 256);
	ck_assert_uint_eq(l.ops[0].window, 0);
	ck_assert_int_eq(l.ops[2].kv_dtype, RL_FP8E4M3);
	ck_assert_uint_eq(l.ops[2].line, 4);
	ck_assert_uint_eq(l.ops[2].v_head_dim, 0);
	ck_assert_int_eq(l.ops[2].kv_shared, 0);
	ck_assert_uint_eq(l.ops[3].v_head_dim, 512);
	ck_assert_int_eq(l.ops[3].kv_shared, 1);
	ck_assert_uint_eq(l.ops[3].kv_heads, 1);
	ck_assert_uint_eq(l.ops[3].dims[4], 576);
	rl_oplist_release(&l);
	free(buf);
}
END_TEST

Suite *suite_oplist_write(void)
{
	Suite *s = suite_create("oplist_write");
	TCase *tc = tcase_create("cells");

	tcase_add_test(tc, test_row_cells);
	tcase_add_test(tc, test_numbers);
	tcase_add_test(tc, test_from_op);
	tcase_add_test(tc, test_comment);
	tcase_add_test(tc, test_reads_back);
	suite_add_tcase(s, tc);
	return s;
}
