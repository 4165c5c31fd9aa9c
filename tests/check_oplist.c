/* check_oplist.c - the op list reader: syntax, defaults, and every kind of
 * bad input with its message and line. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "family.h"
#include "impl.h"
#include "kind.h"
#include "oplist.h"
#include "symbols.h"

static int read_text(const char *text, struct rl_oplist *l, struct rl_errlist *errs)
{
	FILE *f = test_stream(text);
	int rc;

	rl_errlist_init(errs);
	rc = rl_oplist_read(f, "ops.csv", l, errs);
	fclose(f);
	return rc;
}

START_TEST(test_syntax)
{
	/* BOM, CRLF, comments (also indented), blank lines, header case and
	 * order, RFC 4180 quotes with a comma, a doubled quote and a newline */
	const char *text =
		"\xEF\xBB\xBF# an op list\r\n"
		"\r\n"
		"DType,NAME,Kind,Shape,Note\r\n"
		"  # indented comment, with a comma\r\n"
		"bf16,\"proj, q\",matmul,4096x768x768,\"say \"\"hi\"\"\"\r\n"
		"\r\n"
		",\"multi\nline\",pointwise,10,\r\n"
		"fp32,last,copy,5,no newline at the end";
	struct rl_oplist l;
	struct rl_errlist errs;

	ck_assert_int_eq(read_text(text, &l, &errs), 0);
	ck_assert_uint_eq(l.n, 3);
	ck_assert_uint_eq(l.nextra, 1);
	ck_assert_str_eq(l.extra_names[0], "Note");
	ck_assert_str_eq(l.ops[0].name, "proj, q");
	ck_assert_int_eq(l.ops[0].kind, RL_KIND_MATMUL);
	ck_assert_int_eq(l.ops[0].dtype, RL_BF16);
	ck_assert_int_eq(l.ops[0].ndims, 3);
	ck_assert_uint_eq(l.ops[0].dims[0], 4096);
	ck_assert_str_eq(l.ops[0].extra[0], "say \"hi\"");
	ck_assert_uint_eq(l.ops[0].line, 5);
	/* empty cells take the defaults: fp32, count 1, launches 1 */
	ck_assert_str_eq(l.ops[1].name, "multi\nline");
	ck_assert_int_eq(l.ops[1].dtype, RL_FP32);
	ck_assert_uint_eq(l.ops[1].count, 1);
	ck_assert_uint_eq(l.ops[1].launches, 1);
	ck_assert_uint_eq(l.ops[1].inputs, 1);
	ck_assert_str_eq(l.ops[1].extra[0], "");
	ck_assert_uint_eq(l.ops[1].line, 7);
	/* the record after a two-line field is on line 9 */
	ck_assert_uint_eq(l.ops[2].line, 9);
	ck_assert_str_eq(l.ops[2].extra[0], "no newline at the end");
	ck_assert_int_eq(l.has_measured, 0);
	rl_oplist_release(&l);
}
END_TEST

/* issue 15: the collectives' columns; nodes defaults to 1 */
START_TEST(test_collective_columns)
{
	const char *text = "name,kind,dtype,shape,ranks,Nodes\n"
	                   "ar,allreduce,bf16,4x1024,16,2\n"
	                   "ag,allgather,fp32,1024,8,\n";
	struct rl_oplist l;
	struct rl_errlist errs;

	ck_assert_int_eq(read_text(text, &l, &errs), 0);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_int_eq(l.ops[0].kind, RL_KIND_ALLREDUCE);
	ck_assert_uint_eq(l.ops[0].ranks, 16);
	ck_assert_uint_eq(l.ops[0].nodes, 2);
	ck_assert(l.ops[0].has & RL_HAS_RANKS);
	ck_assert(l.ops[0].has & RL_HAS_NODES);
	ck_assert_int_eq(l.ops[1].kind, RL_KIND_ALLGATHER);
	ck_assert_uint_eq(l.ops[1].nodes, 1);
	ck_assert(!(l.ops[1].has & RL_HAS_NODES));
	ck_assert_int_eq(rl_kind_is_collective(l.ops[1].kind), 1);
	ck_assert_int_eq(rl_kind_is_collective(RL_KIND_COPY), 0);
	rl_oplist_release(&l);
	/* on another kind, an error; above 2^24, an error */
	ck_assert_int_eq(read_text("name,kind,shape,nodes\nm,copy,8,2\n", &l, &errs),
	                 RL_ERR_PARSE);
	ck_assert_str_eq(errs.msg[0],
	                 "ops.csv:2: column 'nodes': only collective ops take it, not copy");
	rl_oplist_release(&l);
	ck_assert_int_ne(read_text("name,kind,shape,ranks\nm,allreduce,8,16777217\n", &l, &errs),
	                 0);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "column 'ranks': 16777217 is above the maximum"));
	rl_oplist_release(&l);
}
END_TEST

/* issue 15, item 4: overlap, a flag of the collectives (default 0) */
START_TEST(test_overlap_column)
{
	struct rl_oplist l;
	struct rl_errlist errs;

	ck_assert_int_eq(read_text("name,kind,shape,ranks,overlap\n"
	                           "g,allreduce,1024,8,1\n"
	                           "t,allreduce,1024,8,\n"
	                           "z,allreduce,1024,8,0\n",
	                           &l, &errs),
	                 0);
	ck_assert_uint_eq(l.n, 3);
	ck_assert_int_eq(l.ops[0].overlap, 1);
	ck_assert_int_eq(l.ops[1].overlap, 0);
	ck_assert_int_eq(l.ops[2].overlap, 0);
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,shape,overlap\nm,matmul,8x8x8,1\n", &l, &errs),
	                 RL_ERR_PARSE);
	ck_assert_str_eq(errs.msg[0],
	                 "ops.csv:2: column 'overlap': only collective ops take it, not matmul");
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,shape,ranks,overlap\ng,allreduce,8,2,2\n", &l, &errs),
	                 RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "ops.csv:2: column 'overlap'"));
	rl_oplist_release(&l);
}
END_TEST

/* window, attention's sliding window: an integer, empty or 0 for none */
START_TEST(test_window_column)
{
	struct rl_oplist l;
	struct rl_errlist errs;

	ck_assert_int_eq(read_text("name,kind,dtype,shape,causal,window\n"
	                           "w,attention,bf16,1x8x4096x128,1,1024\n"
	                           "e,attention,bf16,1x8x4096x128,1,\n"
	                           "z,attention,bf16,1x8x4096x128,1,0\n",
	                           &l, &errs),
	                 0);
	ck_assert_uint_eq(l.n, 3);
	ck_assert_uint_eq(l.ops[0].window, 1024);
	ck_assert_uint_eq(l.ops[1].window, 0);
	ck_assert_uint_eq(l.ops[2].window, 0);
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,shape,window\nm,matmul,8x8x8,1024\n", &l, &errs),
	                 RL_ERR_PARSE);
	ck_assert_str_eq(errs.msg[0],
	                 "ops.csv:2: column 'window': only attention ops take it, not matmul");
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,shape,window\na,attention,1x8x64x64,-4\n", &l, &errs),
	                 RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "ops.csv:2: column 'window': '-4'"));
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "(expected an integer)"));
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,shape,window\na,attention,1x8x64x64,1k\n", &l, &errs),
	                 RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "ops.csv:2: column 'window': '1k'"));
	rl_oplist_release(&l);
}
END_TEST

/* component, the block components a row stands for in run order with the
 * facts it adds, and model_type, whose code runs them (impl.h's and family.h's
 * names: indices worked out from their tables' order) */
START_TEST(test_component_columns)
{
	struct rl_oplist l;
	struct rl_errlist errs;

	ck_assert_int_eq(read_text("name,kind,dtype,shape,component,model_type\n"
	                           "a,attention,bf16,1x8x1x64x64,rotary+cache+attention:sliding,llama\n"
	                           "n,layernorm,bf16,8x64,norm:final,mistral\n"
	                           "p,pointwise,bf16,8,,\n",
	                           &l, &errs),
	                 0);
	ck_assert_uint_eq(l.n, 3);
	ck_assert_uint_eq(l.ops[0].comps[0], RL_IMPL_ROTARY + 1);
	ck_assert_uint_eq(l.ops[0].comps[1], RL_IMPL_CACHE + 1);
	ck_assert_uint_eq(l.ops[0].comps[2], RL_IMPL_ATTENTION + 1);
	ck_assert_uint_eq(l.ops[0].comps[3], 0);
	ck_assert_uint_eq(l.ops[0].comp_facts, RL_IMPL_IF_SLIDING);
	ck_assert_int_eq(l.ops[0].family, rl_family_index("llama") + 1);
	ck_assert_uint_eq(l.ops[1].comps[0], RL_IMPL_NORM + 1);
	ck_assert_uint_eq(l.ops[1].comp_facts, RL_IMPL_IF_FINAL);
	/* mistral is a model_type of the llama family */
	ck_assert_int_eq(l.ops[1].family, l.ops[0].family);
	ck_assert_uint_eq(l.ops[2].comps[0], 0);
	ck_assert_int_eq(l.ops[2].family, 0);
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,shape,component,model_type\na,copy,8,norm:,llama\n", &l,
	                           &errs),
	                 RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "ops.csv:2: column 'component': 'norm:' has an empty fact after ':'"));
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,shape,component,model_type\na,copy,8,+norm,llama\n", &l,
	                           &errs),
	                 RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "'+norm' is not a list of components"));
	rl_oplist_release(&l);
}
END_TEST

/* mask (none, float, bool) and mask_shape, the attn_mask's dims
 * right-aligned to [B, H, Sq, Sk] (not given: all 0, the formulas'
 * default [B, 1, Sq, Sk]): attention's only; a shape needs a mask, and
 * each size is the scores' or 1 */
START_TEST(test_mask_columns)
{
	struct rl_oplist l;
	struct rl_errlist errs;

	ck_assert_int_eq(read_text("name,kind,dtype,shape,mask,mask_shape\n"
	                           "f,attention,bf16,8x16x1024x128,float,8x1x1024x1024\n"
	                           "b,attention,bf16,8x16x1024x128,Bool,\n"
	                           "k,attention,bf16,8x16x1024x128,float,1024\n"
	                           "n,attention,bf16,8x16x1024x128,none,\n",
	                           &l, &errs),
	                 0);
	ck_assert_uint_eq(l.n, 4);
	ck_assert_int_eq(l.ops[0].mask, RL_MASK_FLOAT);
	ck_assert_uint_eq(l.ops[0].mask_dims[0], 8);
	ck_assert_uint_eq(l.ops[0].mask_dims[1], 1);
	ck_assert_uint_eq(l.ops[0].mask_dims[3], 1024);
	ck_assert_int_eq(l.ops[1].mask, RL_MASK_BOOL);
	ck_assert_uint_eq(l.ops[1].mask_dims[3], 0);
	/* one dim: the keys, [1, 1, 1, Sk] */
	ck_assert_uint_eq(l.ops[2].mask_dims[0], 1);
	ck_assert_uint_eq(l.ops[2].mask_dims[2], 1);
	ck_assert_uint_eq(l.ops[2].mask_dims[3], 1024);
	ck_assert_int_eq(l.ops[3].mask, RL_MASK_NONE);
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,shape,mask\nm,matmul,8x8x8,float\n", &l, &errs),
	                 RL_ERR_PARSE);
	ck_assert_str_eq(errs.msg[0], "ops.csv:2: column 'mask': only attention ops take it, not matmul");
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,shape,mask\na,attention,1x8x64x64,fp8\n", &l, &errs),
	                 RL_ERR_PARSE);
	ck_assert_str_eq(errs.msg[0], "ops.csv:2: column 'mask': unknown mask 'fp8' (expected none, "
	                              "float or bool)");
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,shape,mask_shape\na,attention,1x8x64x64,1x1x64x64\n",
	                           &l, &errs),
	                 RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "column 'mask_shape': needs a mask"));
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,shape,mask,mask_shape\n"
	                           "a,attention,1x8x64x64,bool,1x2x64x64\n",
	                           &l, &errs),
	                 RL_ERR_PARSE);
	ck_assert_str_eq(errs.msg[0], "ops.csv:2: column 'mask_shape': 2 heads where the scores have "
	                              "8 (each size is the scores' or 1, broadcast)");
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,shape,mask,mask_shape\n"
	                           "a,attention,1x8x64x64,bool,1x1x1x64x64\n",
	                           &l, &errs),
	                 RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "has 5 dims (at most 4"));
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,shape,causal,mask\na,attention,1x8x64x64,1,float\n",
	                           &l, &errs),
	                 RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "an explicit mask with causal = 1"));
	rl_oplist_release(&l);
}
END_TEST

/* v_head_dim, V's and O's head dim (empty or 0: the shape's D), and
 * kv_shared, V as K's first v_head_dim channels (0 or 1): attention's
 * only; with kv_shared V cannot be wider than K */
START_TEST(test_mla_columns)
{
	struct rl_oplist l;
	struct rl_errlist errs;

	ck_assert_int_eq(read_text("name,kind,dtype,shape,kv_heads,v_head_dim,kv_shared\n"
	                           "a,attention,bf16,64x16x1x4096x576,1,512,1\n"
	                           "p,attention,bf16,1x16x2048x192,,128,\n"
	                           "e,attention,bf16,1x16x2048x192,,,\n"
	                           "z,attention,bf16,1x16x2048x192,,0,0\n"
	                           "k,attention,bf16,1x16x2048x192,,,1\n"
	                           "d,attention,bf16,1x16x2048x192,,192,1\n",
	                           &l, &errs),
	                 0);
	ck_assert_uint_eq(l.n, 6);
	ck_assert_uint_eq(l.ops[0].v_head_dim, 512);
	ck_assert_int_eq(l.ops[0].kv_shared, 1);
	ck_assert_uint_eq(l.ops[1].v_head_dim, 128);
	ck_assert_int_eq(l.ops[1].kv_shared, 0);
	ck_assert_uint_eq(l.ops[2].v_head_dim, 0);
	ck_assert_int_eq(l.ops[2].kv_shared, 0);
	ck_assert_uint_eq(l.ops[3].v_head_dim, 0);
	ck_assert_int_eq(l.ops[3].kv_shared, 0);
	ck_assert_uint_eq(l.ops[4].v_head_dim, 0); /* V = K entirely */
	ck_assert_int_eq(l.ops[4].kv_shared, 1);
	ck_assert_uint_eq(l.ops[5].v_head_dim, 192);
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,shape,v_head_dim\nm,matmul,8x8x8,128\n", &l, &errs),
	                 RL_ERR_PARSE);
	ck_assert_str_eq(errs.msg[0],
	                 "ops.csv:2: column 'v_head_dim': only attention ops take it, not matmul");
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,shape,kv_shared\nm,matmul,8x8x8,1\n", &l, &errs),
	                 RL_ERR_PARSE);
	ck_assert_str_eq(errs.msg[0],
	                 "ops.csv:2: column 'kv_shared': only attention ops take it, not matmul");
	rl_oplist_release(&l);
	ck_assert_int_eq(
	        read_text("name,kind,shape,v_head_dim\na,attention,1x8x64x64,-4\n", &l, &errs),
	        RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "ops.csv:2: column 'v_head_dim': '-4'"));
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "(expected an integer)"));
	rl_oplist_release(&l);
	ck_assert_int_eq(
	        read_text("name,kind,shape,v_head_dim\na,attention,1x8x64x64,128.5\n", &l, &errs),
	        RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "ops.csv:2: column 'v_head_dim': '128.5'"));
	rl_oplist_release(&l);
	ck_assert_int_eq(
	        read_text("name,kind,shape,kv_shared\na,attention,1x8x64x64,2\n", &l, &errs),
	        RL_ERR_PARSE);
	ck_assert_str_eq(errs.msg[0], "ops.csv:2: column 'kv_shared': '2' is not 0 or 1");
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,dtype,shape,kv_heads,v_head_dim,kv_shared\n"
	                           "ok,attention,bf16,64x16x1x4096x576,1,512,1\n"
	                           "wide,attention,bf16,64x16x1x4096x576,1,640,1\n",
	                           &l, &errs),
	                 RL_ERR_PARSE);
	ck_assert_str_eq(errs.msg[0],
	                 "ops.csv:3: column 'v_head_dim': 640 is above K's head dim 576 (the "
	                 "shape's D): with kv_shared = 1, V is K's first v_head_dim channels");
	rl_oplist_release(&l);
	/* a V of its own may be wider than K */
	ck_assert_int_eq(read_text("name,kind,dtype,shape,v_head_dim\n"
	                           "w,attention,bf16,1x8x64x64,128\n",
	                           &l, &errs),
	                 0);
	ck_assert_uint_eq(l.ops[0].v_head_dim, 128);
	rl_oplist_release(&l);
}
END_TEST

START_TEST(test_all_columns)
{
	const char *text =
		"name,kind,dtype,shape,kernel,stride,padding,groups,causal,inputs,"
		"flops_per_element,flops,bytes,unit,launches,count,measured_us,fma\n"
		"c,conv2d,fp16,8x3x32x32,16x3x3,2,1,1,,,,,,tensor,2,12,40.5,\n"
		"a,attention,bf16,1x8x128x64,,,,,1,,,,,,,,,\n"
		"p,pointwise,fp8,100,,,,,,3,7,,,vector,,,,1\n"
		"x,custom,int8,,,,,,,,,1e9,2.5e8,,,,,\n";
	const char *gqa = "name,kind,shape,KV_Heads\ng,attention,64x32x1x2048x128,8\n"
	                  "m,attention,1x8x8x8,\n";
	struct rl_oplist l;
	struct rl_errlist errs;

	ck_assert_int_eq(read_text(text, &l, &errs), 0);
	ck_assert_uint_eq(l.n, 4);
	ck_assert_int_eq(l.has_measured, 1);
	ck_assert_uint_eq(l.ops[0].kernel[0], 16);
	ck_assert_uint_eq(l.ops[0].stride, 2);
	ck_assert_uint_eq(l.ops[0].padding, 1);
	ck_assert_int_eq(l.ops[0].unit, RL_UNIT_TENSOR);
	ck_assert_uint_eq(l.ops[0].launches, 2);
	ck_assert_uint_eq(l.ops[0].count, 12);
	ck_assert_double_eq(l.ops[0].measured_us, 40.5);
	ck_assert(l.ops[0].has & RL_HAS_MEASURED);
	ck_assert_int_eq(l.ops[1].causal, 1);
	ck_assert_int_eq(l.ops[2].dtype, RL_FP8E4M3);
	ck_assert_uint_eq(l.ops[2].inputs, 3);
	ck_assert_double_eq(l.ops[2].flops_per_element, 7);
	ck_assert_int_eq(l.ops[2].fma, 1);
	ck_assert(!(l.ops[1].has & RL_HAS_MEASURED));
	ck_assert_double_eq(l.ops[3].flops, 1e9);
	ck_assert_double_eq(l.ops[3].bytes, 2.5e8);
	ck_assert_uint_eq(l.ops[1].kv_heads, 0); /* not given: the query heads */
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text(gqa, &l, &errs), 0);
	ck_assert_uint_eq(l.ops[0].kv_heads, 8);
	ck_assert_uint_eq(l.ops[1].kv_heads, 0);
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,dtype,shape,weight_dtype,weight_group,kv_dtype\n"
	                           "w,matmul,bf16,1x4096x4096,INT4,128,\n"
	                           "c,conv2d,fp16,1x64x8x8,fp4,,\n"
	                           "a,attention,bf16,1x8x1x64x64,,,fp8\n"
	                           "p,matmul,bf16,8x8x8,,,\n",
	                           &l, &errs),
	                 RL_ERR_PARSE); /* the conv2d lacks its kernel */
	rl_oplist_release(&l);
	ck_assert_int_eq(read_text("name,kind,dtype,shape,kernel,weight_dtype,weight_group,kv_dtype\n"
	                           "w,matmul,bf16,1x4096x4096,,INT4,128,\n"
	                           "c,conv2d,fp16,1x64x8x8,64x3x3,fp4,,\n"
	                           "a,attention,bf16,1x8x1x64x64,,,,fp8\n"
	                           "p,matmul,bf16,8x8x8,,,,\n",
	                           &l, &errs),
	                 0);
	ck_assert_int_eq(l.ops[0].weight_dtype, RL_INT4);
	ck_assert(l.ops[0].has & RL_HAS_WEIGHT_DTYPE);
	ck_assert_uint_eq(l.ops[0].weight_group, 128);
	ck_assert_int_eq(l.ops[1].weight_dtype, RL_FP4);
	ck_assert_uint_eq(l.ops[1].weight_group, 0);
	ck_assert_int_eq(l.ops[2].kv_dtype, RL_FP8E4M3);
	ck_assert(l.ops[2].has & RL_HAS_KV_DTYPE);
	ck_assert(!(l.ops[3].has & (RL_HAS_WEIGHT_DTYPE | RL_HAS_KV_DTYPE)));
	rl_oplist_release(&l);
	/* weight_count: given on the expert row, 0 (the count) elsewhere */
	ck_assert_int_eq(read_text("name,kind,dtype,shape,count,weight_count\n"
	                           "e,matmul,bf16,1x28672x4096,64,256\n"
	                           "p,matmul,bf16,8x8x8,32,\n",
	                           &l, &errs),
	                 0);
	ck_assert_uint_eq(l.ops[0].count, 64);
	ck_assert_uint_eq(l.ops[0].weight_count, 256);
	ck_assert_uint_eq(l.ops[1].weight_count, 0);
	rl_oplist_release(&l);
}
END_TEST

/* Each bad input: the first message must contain MSG (location included). */
static const struct {
	const char *what;
	const char *text;
	const char *msg;
} bad[] = {
	{"empty file", "", "ops.csv: no header"},
	{"only comments", "# nothing\n\n# here\n", "ops.csv: no header"},
	{"no name column", "kind,dtype\npointwise,fp32\n", "ops.csv:1: header: no 'name' column"},
	{"data before header", "a,pointwise,fp32,10\n", "no 'name' column"},
	{"duplicate column", "name,kind,Kind\na,copy,copy\n",
	 "ops.csv:1: header: duplicate column 'Kind' (columns 2 and 3)"},
	{"empty column name", "name,,kind\n", "column 2 has no name"},
	{"unknown kind", "name,kind,shape\na,gemm,4\n",
	 "ops.csv:2: column 'kind': unknown kind 'gemm' (expected one of pointwise"},
	{"unknown dtype", "name,kind,dtype,shape\n\n# c\nop,pointwise,fp9,4\n",
	 "ops.csv:4: column 'dtype': unknown dtype 'fp9' (expected one of fp64"},
	{"unknown unit", "name,kind,shape,unit\na,matmul,2x2x2,sfu\n", "unknown unit 'sfu'"},
	{"non-numeric count", "name,kind,shape,count\na,copy,4,many\n",
	 "ops.csv:2: column 'count': 'many' is not a non-negative integer"},
	{"zero count", "name,kind,shape,count\na,copy,4,0\n", "column 'count': 0 is below the minimum 1"},
	{"fractional launches", "name,kind,shape,launches\na,copy,4,1.5\n", "column 'launches'"},
	{"negative flops", "name,kind,flops,bytes\na,custom,-5,10\n",
	 "ops.csv:2: column 'flops': '-5' is negative"},
	{"nan bytes", "name,kind,flops,bytes\na,custom,5,nan\n", "column 'bytes': 'nan' is not a number"},
	{"infinite flops", "name,kind,flops,bytes\na,custom,inf,1\n", "column 'flops': 'inf'"},
	{"huge exponent", "name,kind,flops,bytes\na,custom,1e999,1\n", "too large"},
	{"zero measured", "name,kind,shape,measured_us\na,copy,4,0\n", "measured_us': must be above 0"},
	{"bad causal", "name,kind,shape,causal\na,attention,1x1x8x8,2\n", "'2' is not 0 or 1"},
	{"extra field", "name,kind,shape\na,pointwise,4,4\n", "ops.csv:2: 4 fields, but the header has 3"},
	{"shape with letters", "name,kind,shape\na,pointwise,axb\n", "column 'shape'"},
	{"wrong dims for kind", "name,kind,dtype,shape\nmm,matmul,bf16,4096x4096\n",
	 "ops.csv:2: shape: matmul expects MxNxK or BxMxNxK, got 2 dimensions"},
	{"zero dim", "name,kind,shape\na,pointwise,8x0\n", "ops.csv:2: column 'shape': shape '8x0' has a zero dimension"},
	{"overflow", "name,kind,shape\na,pointwise,4294967296x4294967296\n", "more than 2^64 elements"},
	{"dim too large", "name,kind,shape\na,pointwise,99999999999999999999\n", "too large"},
	{"custom without bytes", "name,kind,flops\nc,custom,100\n",
	 "ops.csv:2: a custom op needs both 'flops' and 'bytes'"},
	{"default kind is custom", "name,shape\nc,4\n", "custom op needs both"},
	{"kernel on matmul", "name,kind,shape,kernel\na,matmul,2x2x2,3x3x3\n",
	 "ops.csv:2: column 'kernel': only conv2d ops take it, not matmul"},
	{"stride on pointwise", "name,kind,shape,stride\na,pointwise,4,2\n", "column 'stride': only conv2d"},
	{"causal on matmul", "name,causal,kind,shape\na,1,matmul,2x2x2\n", "column 'causal': only attention"},
	{"inputs on copy", "name,kind,shape,inputs\na,copy,4,2\n", "column 'inputs': only pointwise"},
	{"flops_per_element on matmul", "name,kind,shape,flops_per_element\na,matmul,2x2x2,3\n",
	 "column 'flops_per_element': only pointwise, reduction"},
	{"bare CR", "name,kind,shape\ra,copy,4\r", "ops.csv:1: bare CR line ending"},
	{"kernel with 2 dims", "name,kind,shape,kernel\na,conv2d,1x3x8x8,3x3\n", "expected KxRxS"},
	{"zero stride", "name,kind,shape,kernel,stride\na,conv2d,1x3x8x8,4x3x3,0\n", "below the minimum 1"},
	{"ragged row", "name,kind,shape\na,copy\n", "ops.csv:2: 2 fields, but the header has 3"},
	{"empty name", "name,kind,shape\n,copy,4\n", "column 'name': empty"},
	{"unterminated quote", "name,kind,shape\n\"a,copy,4\nb,copy,4\n",
	 "ops.csv:3: unterminated quoted field (the quote opens on line 2)"},
	{"quote inside a field", "name,kind,shape\na\"b,copy,4\n", "ops.csv:2: malformed CSV"},
	{"binary without NUL", "\x7f" "ELF\x02\x01\x01\x03\x04", "ops.csv:1: header: no 'name' column"},
	{"invalid utf-8", "name,kind,shape\n\xff\xfe,copy,4\n", "ops.csv:2: column 1: invalid UTF-8"},
	{"overlong utf-8", "name,kind,shape\n\xc0\xaf,copy,4\n", "invalid UTF-8"},
	/* issue 11, bugs 4 and 12: bounds that keep every total finite and exact */
	{"inputs 2^64-1", "name,kind,shape,inputs\na,pointwise,4,18446744073709551615\n",
	 "ops.csv:2: column 'inputs': 18446744073709551615 is above the maximum 65536"},
	{"count 2^64-1", "name,kind,shape,count\na,copy,4,18446744073709551615\n",
	 "ops.csv:2: column 'count': 18446744073709551615 is above the maximum 9007199254740992 "
	 "(2^53"},
	{"count 2^53+1", "name,kind,shape,count\na,copy,4,9007199254740993\n",
	 "column 'count': 9007199254740993 is above the maximum 9007199254740992"},
	{"launches 2^60", "name,kind,shape,launches\na,copy,4,1152921504606846976\n",
	 "column 'launches': 1152921504606846976 is above the maximum"},
	{"flops 1e308", "name,kind,flops,bytes\na,custom,1e308,1\n",
	 "ops.csv:2: column 'flops': 1e308 is above the maximum 1e+30"},
	{"bytes 1e31", "name,kind,flops,bytes\na,custom,1,1e31\n",
	 "column 'bytes': 1e31 is above the maximum 1e+30"},
	{"flops_per_element 1e300", "name,kind,shape,flops_per_element\na,pointwise,4,1e300\n",
	 "column 'flops_per_element': 1e300 is above the maximum 1e+06"},
	{"measured 1e-300", "name,kind,shape,measured_us\na,copy,4,1e-300\n",
	 "ops.csv:2: column 'measured_us': 1e-300 is below the minimum 0.001"},
	{"measured 1e13", "name,kind,shape,measured_us\na,copy,4,1e13\n",
	 "column 'measured_us': 1e13 is above the maximum 1e+12"},
	{"host_us 1e25", "name,kind,shape,host_us\na,copy,4,1e25\n",
	 "column 'host_us': 1e25 is above the maximum 1e+06"},
	/* issue 13: kv_heads */
	{"kv_heads on matmul", "name,kind,shape,kv_heads\na,matmul,2x2x2,1\n",
	 "ops.csv:2: column 'kv_heads': only attention ops take it, not matmul"},
	{"kv_heads not dividing", "name,kind,shape,kv_heads\na,attention,64x32x1x2048x128,12\n",
	 "ops.csv:2: column 'kv_heads': 12 does not divide the query heads 32"},
	{"kv_heads zero", "name,kind,shape,kv_heads\na,attention,1x8x8x8,0\n",
	 "ops.csv:2: column 'kv_heads': 0 is below the minimum 1"},
	/* issue 13: weight_dtype, kv_dtype, weight_group, int4 and fp4 */
	{"int4 as an op's dtype", "name,kind,dtype,shape\na,matmul,int4,2x2x2\n",
	 "ops.csv:2: column 'dtype': int4 stores weights and KV caches only"},
	{"weight_dtype on attention", "name,kind,shape,weight_dtype\na,attention,1x8x8x8,int4\n",
	 "ops.csv:2: column 'weight_dtype': only matmul and conv2d ops take it, not attention"},
	{"kv_dtype on matmul", "name,kind,shape,kv_dtype\na,matmul,2x2x2,fp8\n",
	 "ops.csv:2: column 'kv_dtype': only attention and copy ops take it, not matmul"},
	{"unknown weight_dtype", "name,kind,shape,weight_dtype\na,matmul,2x2x2,int3\n",
	 "ops.csv:2: column 'weight_dtype': unknown dtype 'int3' (expected one of fp64"},
	{"weight_group without weight_dtype", "name,kind,shape,weight_group\na,matmul,2x2x256,128\n",
	 "ops.csv:2: column 'weight_group': needs a weight_dtype"},
	{"weight_group not dividing K",
	 "name,kind,dtype,shape,weight_dtype,weight_group\na,matmul,bf16,1x4096x4000,int4,128\n",
	 "ops.csv:2: column 'weight_group': 128 does not divide the K 4000"},
	{"weight_group zero", "name,kind,shape,weight_dtype,weight_group\na,matmul,2x2x2,int4,0\n",
	 "column 'weight_group': 0 is below the minimum 1"},
	/* issue 13: weight_count, the resident weight sets of an MoE row */
	{"weight_count on attention", "name,kind,shape,weight_count\na,attention,1x8x8x8,4\n",
	 "ops.csv:2: column 'weight_count': only matmul and conv2d ops take it, not attention"},
	/* issue 23: fresh, the calls at new shapes, at most the count */
	{"fresh above count", "name,kind,shape,count,fresh\na,copy,4,2,3\n",
	 "ops.csv:2: column 'fresh': 3 calls at new shapes of a row of count 2 (at most its count)"},
	{"fresh negative", "name,kind,shape,fresh\na,copy,4,-1\n", "ops.csv:2: column 'fresh': "},
	/* 0 written as 0 is none (a matmul of two activations); an
	 * expression of 0 is a mistake */
	{"weight_count zero by an expression", "name,kind,shape,weight_count\na,matmul,2x2x2,2-2\n",
	 "ops.csv:2: column 'weight_count': 2-2 = 0 is below the minimum 1"},
	{"weight_count unbound name", "name,kind,shape,weight_count\na,matmul,2x2x2,E*L\n",
	 "ops.csv:2: column 'weight_count': "},
	/* issue 26: perm (a permuted copy) and grouped (a grouped GEMM) */
	{"perm on pointwise", "name,kind,shape,perm\na,pointwise,4x5,1x0\n",
	 "ops.csv:2: column 'perm': only copy ops take it, not pointwise"},
	{"perm repeating a dim", "name,kind,shape,perm\na,copy,4x5x6,0x2x2\n",
	 "ops.csv:2: column 'perm': '0x2x2' is not a permutation of 0 to 2"},
	{"perm of the wrong length", "name,kind,shape,perm\na,copy,4x5x6,1x0\n",
	 "ops.csv:2: column 'perm': '1x0' has 2 dims, the shape 3"},
	{"perm past the dims", "name,kind,shape,perm\na,copy,4x5x6,0x1x3\n",
	 "ops.csv:2: column 'perm': '0x1x3' is not a permutation of 0 to 2"},
	{"perm not dims", "name,kind,shape,perm\na,copy,4x5,1,0\n",
	 "ops.csv:2: 5 fields"},
	{"perm with a trailing x", "name,kind,shape,perm\na,copy,4x5,1x0x\n",
	 "ops.csv:2: column 'perm': '1x0x' is not a permutation of dims"},
	{"grouped on copy", "name,kind,shape,grouped\na,copy,4x5,1\n",
	 "ops.csv:2: column 'grouped': only matmul ops take it, not copy"},
	{"grouped without a batch", "name,kind,shape,grouped\na,matmul,32x64x64,1\n",
	 "ops.csv:2: column 'grouped': needs a shape BxMxNxK"},
	{"grouped not a flag", "name,kind,shape,grouped\na,matmul,8x32x64x64,2\n",
	 "ops.csv:2: column 'grouped'"},
	{"conv2d padding 2^62",
	 "name,kind,shape,kernel,padding\nc,conv2d,1x3x8x8,4x3x3,4611686018427387904\n",
	 "ops.csv:2: conv2d: the padded input overflows"},
};

START_TEST(test_bad_input)
{
	struct rl_oplist l;
	struct rl_errlist errs;
	int rc = read_text(bad[_i].text, &l, &errs);

	ck_assert_msg(rc == RL_ERR_PARSE, "%s: rc %d", bad[_i].what, rc);
	ck_assert_uint_ge(errs.count, 1);
	ck_assert_msg(strstr(errs.msg[0], bad[_i].msg) != NULL, "%s: '%s' lacks '%s'", bad[_i].what,
	              errs.msg[0], bad[_i].msg);
	rl_oplist_release(&l);
}
END_TEST

/* A NUL in the middle of a file, after good rows */
START_TEST(test_nul_mid_file)
{
	static const char text[] = "name,kind,shape\na,copy,4\nb,co\0py,4\n";
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");
	struct rl_oplist l;
	struct rl_errlist errs;

	rl_errlist_init(&errs);
	ck_assert_int_eq(rl_oplist_read(f, "ops.csv", &l, &errs), RL_ERR_PARSE);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "ops.csv:3: NUL byte"));
	rl_oplist_release(&l);
}
END_TEST

START_TEST(test_huge_line)
{
	size_t n = (1u << 20) + 100, i;
	char *text = malloc(n + 32);
	struct rl_oplist l;
	struct rl_errlist errs;

	strcpy(text, "name,kind,shape\n");
	for (i = strlen(text); i < n; i++)
		text[i] = 'a';
	text[n] = '\0';
	ck_assert_int_eq(read_text(text, &l, &errs), RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "ops.csv:2: line longer than 1048576 bytes"));
	rl_oplist_release(&l);
	free(text);
}
END_TEST

/* A quoted field over many short lines is one record, capped as a line is
 * (1 MiB): "y\n" 600,000 times after the quote on line 2 goes past it on
 * line 524,289: 3 bytes on line 2 and 2 on each after make 1,048,577 there
 * (issue 21). */
START_TEST(test_huge_record)
{
	size_t lines = 600000, i, n;
	char *text = malloc(32 + 2 * lines);
	struct rl_oplist l;
	struct rl_errlist errs;

	ck_assert_ptr_nonnull(text);
	n = (size_t)sprintf(text, "name,kind,shape\n\"");
	for (i = 0; i < lines; i++, n += 2)
		memcpy(text + n, "y\n", 2);
	text[n] = '\0';
	ck_assert_int_eq(read_text(text, &l, &errs), RL_ERR_PARSE);
	ck_assert_uint_eq(errs.count, 1);
	ck_assert_str_eq(errs.msg[0], "ops.csv:524289: a record longer than 1048576 bytes (its "
	                              "quoted field opens on line 2): not an op list");
	rl_oplist_release(&l);
	free(text);
}
END_TEST

/* Issue 11, bug 8: the duplicate check compared every pair of columns, so a
 * header of 100,000 distinct columns took 21 s. Such a header is accepted
 * (all but 'name' are extra columns) and a duplicate among them is named
 * with both column numbers: the first repeated name in file order. */
static char *wide_header(size_t ncols, const char *tail)
{
	char *text = malloc(ncols * 12 + strlen(tail) + 64);
	size_t used = 0, i;

	ck_assert_ptr_nonnull(text);
	used += (size_t)sprintf(text, "name");
	for (i = 1; i < ncols; i++)
		used += (size_t)sprintf(text + used, ",c%zu", i);
	sprintf(text + used, "%s", tail);
	return text;
}

START_TEST(test_wide_header)
{
	struct rl_oplist l;
	struct rl_errlist errs;
	char *text = wide_header(100000, "\n");

	ck_assert_int_eq(read_text(text, &l, &errs), 0);
	ck_assert_uint_eq(l.nextra, 99999);
	ck_assert_str_eq(l.extra_names[99998], "c99999");
	rl_oplist_release(&l);
	free(text);

	/* c5 again as column 100,001, C7 as column 100,002, c5 once more */
	text = wide_header(100000, ",c5,C7,c5\n");
	ck_assert_int_eq(read_text(text, &l, &errs), RL_ERR_PARSE);
	ck_assert_msg(strstr(errs.msg[0], "ops.csv:1: header: duplicate column 'c5' (columns 6 and "
	                                  "100001)") != NULL,
	              "%s", errs.msg[0]);
	rl_oplist_release(&l);
	free(text);
	/* the later of two pairs comes first when it closes first */
	ck_assert_int_eq(read_text("name,a,b,B,A\n", &l, &errs), RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "duplicate column 'B' (columns 3 and 4)"));
	rl_oplist_release(&l);
}
END_TEST

/* Issue 11 made a name bound with --set that no shape uses an error; issue
 * 13 makes it a warning (one --set may serve several lists), handed to the
 * sink's warn after the rows, naming it. A name in a count is used. */
struct warned {
	size_t n;
	char msg[4][RL_ERR_MSG_MAX];
};

static void on_warn(const char *msg, void *user)
{
	struct warned *w = user;

	if (w->n < 4)
		snprintf(w->msg[w->n], sizeof(w->msg[0]), "%s", msg);
	w->n++;
}

START_TEST(test_unused_name)
{
	static const char text[] = "name,kind,shape,count\na,copy,Bx4,\nb,copy,BxS,L\n";
	struct rl_symbols syms;
	struct warned w = {0, {""}};
	struct rl_ops_sink sink = {NULL, NULL, &w, &syms, on_warn, 0};
	struct rl_errlist errs;
	struct rl_err e;
	FILE *f;

	rl_symbols_init(&syms);
	ck_assert_int_eq(rl_symbols_set(&syms, "B=2,S=3,L=12", &e), 0);
	f = test_stream(text);
	rl_errlist_init(&errs);
	ck_assert_int_eq(rl_ops_read(f, "ops.csv", &sink, &errs), 0);
	fclose(f);
	ck_assert_uint_eq(w.n, 0);

	rl_symbols_init(&syms);
	ck_assert_int_eq(rl_symbols_set(&syms, "B=2,S=3,Q=5,L=12,SEQ=7", &e), 0);
	f = test_stream(text);
	rl_errlist_init(&errs);
	ck_assert_int_eq(rl_ops_read(f, "ops.csv", &sink, &errs), 0);
	fclose(f);
	ck_assert_uint_eq(errs.count, 0);
	ck_assert_uint_eq(w.n, 2);
	ck_assert_str_eq(w.msg[0],
	                 "ops.csv: warning: --set Q=5: no shape or count of the list uses the name 'Q'");
	ck_assert_str_eq(w.msg[1], "ops.csv: warning: --set SEQ=7: no shape or count of the list "
	                           "uses the name 'SEQ'");
	/* without a warn, nothing: the reader never prints */
	sink.warn = NULL;
	f = test_stream(text);
	rl_errlist_init(&errs);
	ck_assert_int_eq(rl_ops_read(f, "ops.csv", &sink, &errs), 0);
	fclose(f);
}
END_TEST

/* Issue 13: integer expressions in shapes and count. */
struct kept {
	size_t n;
	struct rl_op ops[4];
};

static int keep_op(const struct rl_op *op, void *user)
{
	struct kept *k = user;

	if (k->n < 4)
		k->ops[k->n] = *op;
	k->n++;
	return 0;
}

/* Reads TEXT with the names of SPEC bound; the first error in *MSG. */
static int read_with(const char *spec, const char *text, struct kept *k, char *msg)
{
	struct rl_symbols syms;
	struct rl_ops_sink sink = {NULL, keep_op, k, &syms, NULL, 0};
	struct rl_errlist errs;
	struct rl_err e;
	FILE *f = test_stream(text);
	int rc;

	k->n = 0;
	rl_symbols_init(&syms);
	ck_assert_int_eq(rl_symbols_set(&syms, spec, &e), 0);
	rl_errlist_init(&errs);
	rc = rl_ops_read(f, "ops.csv", &sink, &errs);
	fclose(f);
	msg[0] = '\0';
	if (errs.count > 0)
		snprintf(msg, RL_ERR_MSG_MAX, "%s", errs.msg[0]);
	return rc;
}

START_TEST(test_expressions)
{
	/* B=8 L=12 H=12 S=255 D=64 (names 1 to 5) */
	static const char spec[] = "B=8,L=12,H=12,S=255,D=64";
	static const char text[] = "name,kind,dtype,shape,count\n"
	                           "fc1,matmul,bf16,B*197x3072x768,L\n"
	                           "attn,attention,bf16,BxHx(S+1)/2xD,2*L-1\n"
	                           "c,copy,fp32,1024/B/4,(L)\n"
	                           "n,copy,fp32,6*7,3+4*2\n";
	static const struct {
		const char *row, *msg;
	} wrong[] = {
		{"a,copy,fp32,4,N*2", "ops.csv:2: column 'count': name 'N' in count 'N*2' is not bound "
		                      "(give its size with --set N=N)"},
		{"a,copy,fp32,Q*2,1", "ops.csv:2: column 'shape': name 'Q' in shape 'Q*2' is not bound"},
		/* 255 / 2 = 127.5 */
		{"a,copy,fp32,S/2,1", "ops.csv:2: column 'shape': shape 'S/2': 255 / 2 is not a whole "
		                      "number (the division must be exact)"},
		{"a,copy,fp32,4,L/5", "ops.csv:2: column 'count': count 'L/5': 12 / 5 is not a whole "
		                      "number"},
		{"a,copy,fp32,4,L-13", "ops.csv:2: column 'count': count 'L-13': 12 - 13 is below 0"},
		{"a,copy,fp32,4,L-12", "ops.csv:2: column 'count': L-12 = 0 is below the minimum 1"},
		{"a,copy,fp32,B-8x4,1", "ops.csv:2: column 'shape': shape 'B-8x4' has a zero dimension"},
		/* 2^53 + 1 occurrences; 4294967296 x 4294967296 = 2^64 */
		{"a,copy,fp32,4,9007199254740992+1",
		 "column 'count': 9007199254740992+1 = 9007199254740993 is above the maximum "
		 "9007199254740992"},
		{"a,copy,fp32,4294967296*4294967296,1",
		 "column 'shape': shape '4294967296*4294967296': the expression passes 2^64 - 1"},
		{"a,copy,fp32,18446744073709551615+B,1", "the expression passes 2^64 - 1"},
		{"a,copy,fp32,B/0,1", "shape 'B/0': division by zero"},
		{"a,copy,fp32,(B+1,1", "shape '(B+1' is not dimensions or names joined by 'x'"},
		{"a,copy,fp32,B**2,1", "shape 'B**2' is not dimensions"},
		{"a,copy,fp32,4,L+", "column 'count': count 'L+' is not an integer expression"},
	};
	struct kept k;
	char msg[RL_ERR_MSG_MAX], row[256];
	size_t i;

	ck_assert_int_eq(read_with(spec, text, &k, msg), 0);
	ck_assert_uint_eq(k.n, 4);
	/* B*197 = 1576, proportional to B (name 1): --scale follows it */
	ck_assert_uint_eq(k.ops[0].dims[0], 1576);
	ck_assert_uint_eq(k.ops[0].dim_sym[0], 1);
	ck_assert_uint_eq(k.ops[0].dims[1], 3072);
	ck_assert_uint_eq(k.ops[0].dim_sym[1], 0);
	ck_assert_uint_eq(k.ops[0].count, 12);
	/* (255 + 1) / 2 = 128, not proportional to one name */
	ck_assert_uint_eq(k.ops[1].ndims, 4);
	ck_assert_uint_eq(k.ops[1].dims[0], 8);
	ck_assert_uint_eq(k.ops[1].dims[1], 12);
	ck_assert_uint_eq(k.ops[1].dims[2], 128);
	ck_assert_uint_eq(k.ops[1].dim_sym[2], RL_SYM_MIXED);
	ck_assert_uint_eq(k.ops[1].dims[3], 64);
	ck_assert_uint_eq(k.ops[1].dim_sym[3], 5);
	ck_assert_uint_eq(k.ops[1].count, 23); /* 2 x 12 - 1 */
	/* 1024 / 8 / 4 = 32 (left to right), not proportional to B */
	ck_assert_uint_eq(k.ops[2].dims[0], 32);
	ck_assert_uint_eq(k.ops[2].dim_sym[0], RL_SYM_MIXED);
	ck_assert_uint_eq(k.ops[2].count, 12);
	/* numbers only: 6 x 7 = 42; 3 + 4 x 2 = 11 (* before +) */
	ck_assert_uint_eq(k.ops[3].dims[0], 42);
	ck_assert_uint_eq(k.ops[3].dim_sym[0], 0);
	ck_assert_uint_eq(k.ops[3].count, 11);

	for (i = 0; i < ARRAY_SIZE(wrong); i++) {
		snprintf(row, sizeof(row), "name,kind,dtype,shape,count\n%s\n", wrong[i].row);
		ck_assert_msg(read_with(spec, row, &k, msg) < 0, "%s: accepted", wrong[i].row);
		ck_assert_msg(strstr(msg, wrong[i].msg) != NULL, "%s: '%s' lacks '%s'", wrong[i].row, msg,
		              wrong[i].msg);
	}
}
END_TEST

/* Up to 20 errors are kept, all are counted, and no op reaches the list once
 * an error is seen. */
START_TEST(test_many_errors)
{
	char text[4096];
	size_t used, i;
	struct rl_oplist l;
	struct rl_errlist errs;

	used = (size_t)snprintf(text, sizeof(text), "name,kind,shape\nok,copy,4\n");
	for (i = 0; i < 25; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "b%zu,copy,x\n", i);
	used += (size_t)snprintf(text + used, sizeof(text) - used, "ok2,copy,4\n");
	ck_assert_int_eq(read_text(text, &l, &errs), RL_ERR_PARSE);
	ck_assert_uint_eq(errs.count, 25);
	ck_assert_uint_eq(errs.kept, 20);
	ck_assert_ptr_nonnull(strstr(errs.msg[0], "ops.csv:3:"));
	ck_assert_ptr_nonnull(strstr(errs.msg[19], "ops.csv:22:"));
	ck_assert_uint_eq(l.n, 1); /* "ok" came before the first error; "ok2" not */
	rl_oplist_release(&l);
}
END_TEST

START_TEST(test_examples_parse)
{
	static const char *const files[] = {
		"bert-base.csv", "blog-cos-cos.csv", "blog-repeat-multiply.csv",
		"llama2-7b-decode.csv", "llama2-7b-prefill.csv", "resnet50.csv"};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char path[1024];
		FILE *f;
		struct rl_oplist l;
		struct rl_errlist errs;

		snprintf(path, sizeof(path), "%s/%s", RL_EXAMPLES, files[i]);
		f = fopen(path, "r");
		ck_assert_msg(f != NULL, "%s", path);
		rl_errlist_init(&errs);
		ck_assert_msg(rl_oplist_read(f, path, &l, &errs) == 0, "%s", errs.msg[0]);
		ck_assert_uint_gt(l.n, 0);
		fclose(f);
		rl_oplist_release(&l);
	}
}
END_TEST

/* The reader's name lookups say what failed with a status, not a bare -1
 * (which is RL_ERR_NOMEM): an unknown name is malformed input. */
START_TEST(test_lookup_statuses)
{
	enum rl_dtype dt;
	enum rl_kind k;

	ck_assert_int_eq(rl_dtype_parse("fp9", &dt), RL_ERR_PARSE);
	ck_assert_int_eq(rl_dtype_parse("BF16", &dt), 0);
	ck_assert_int_eq(dt, RL_BF16);
	ck_assert_int_eq(rl_kind_parse("conv3d", &k), RL_ERR_PARSE);
	ck_assert_int_eq(rl_kind_parse("fused", &k), RL_ERR_PARSE);
	ck_assert_int_eq(rl_kind_parse("Softmax", &k), 0);
	ck_assert_int_eq(k, RL_KIND_SOFTMAX);
}
END_TEST

/* The record step on cells held in memory: the reader's defaults, checks
 * and messages, at the line the caller names. */
START_TEST(test_rows_in_memory)
{
	static const char *const head[] = {"name", "kind", "dtype", "shape", "inputs", "count"};
	static const char *const good[] = {"mul", "pointwise", "bf16", "2x4096", "", "32"};
	static const char *const dtype[] = {"mul", "pointwise", "fp9", "4", "", ""};
	static const char *const causal[] = {"mm", "matmul", "", "2x3x4", "2", ""};
	static const char *const shape[] = {"mm", "matmul", "", "2x3", "", ""};
	static const char *const dup[] = {"name", "kind", "Name"};
	struct rl_errlist errs;
	rl_ops_rows *rows;
	struct rl_op op;

	rl_errlist_init(&errs);
	ck_assert_int_eq(rl_ops_rows_new("cfg (op list)", 2, head, ARRAY_SIZE(head), NULL, &rows,
	                                 &errs),
	                 0);
	ck_assert_uint_eq(rl_ops_rows_header(rows)->nextra, 0);
	ck_assert_int_eq(rl_ops_row(rows, 3, good, ARRAY_SIZE(good), &op, &errs), 0);
	ck_assert_str_eq(op.name, "mul");
	ck_assert_int_eq(op.kind, RL_KIND_POINTWISE);
	ck_assert_int_eq(op.dtype, RL_BF16);
	ck_assert_int_eq(op.ndims, 2);
	ck_assert_uint_eq(op.dims[1], 4096);
	ck_assert_uint_eq(op.inputs, 1); /* the empty cell's default */
	ck_assert_uint_eq(op.count, 32);
	ck_assert_uint_eq(op.line, 3);
	ck_assert_uint_eq(errs.count, 0);
	ck_assert_int_eq(rl_ops_row(rows, 7, dtype, ARRAY_SIZE(dtype), &op, &errs), RL_ERR_PARSE);
	ck_assert_int_eq(strncmp(errs.msg[0],
	                         "cfg (op list):7: column 'dtype': unknown dtype 'fp9' (expected "
	                         "one of fp64",
	                         62),
	                 0);
	ck_assert_int_eq(rl_ops_row(rows, 8, causal, ARRAY_SIZE(causal), &op, &errs), RL_ERR_PARSE);
	ck_assert_str_eq(errs.msg[1],
	                 "cfg (op list):8: column 'inputs': only pointwise ops take it, not matmul");
	/* the formulas' check of the shape for the kind */
	ck_assert_int_eq(rl_ops_row(rows, 9, shape, ARRAY_SIZE(shape), &op, &errs), RL_ERR_PARSE);
	ck_assert_int_eq(strncmp(errs.msg[2], "cfg (op list):9: ", 17), 0);
	/* a record of the wrong width */
	ck_assert_int_eq(rl_ops_row(rows, 10, good, 3, &op, &errs), RL_ERR_PARSE);
	ck_assert_str_eq(errs.msg[3], "cfg (op list):10: 3 fields, but the header has 6 columns");
	ck_assert_uint_eq(errs.count, 4);
	rl_ops_rows_free(rows);
	rl_ops_rows_free(NULL);

	rl_errlist_init(&errs);
	ck_assert_int_eq(rl_ops_rows_new("x", 1, dup, ARRAY_SIZE(dup), NULL, &rows, &errs),
	                 RL_ERR_PARSE);
	ck_assert_ptr_null(rows);
	ck_assert_str_eq(errs.msg[0], "x:1: header: duplicate column 'Name' (columns 1 and 3)");
}
END_TEST

/* The same record as text and as cells: the same op, the same message. */
START_TEST(test_rows_as_text)
{
	static const char *const head[] = {"name", "kind", "dtype", "shape", "kv_heads", "count"};
	static const char *const row[][6] = {
		{"sdpa", "attention", "bf16", "1x32x1x2048x128", "8", "32"},
		{"sdpa", "attention", "bf16", "1x32x1x2048x128", "12", "32"},
	};
	const char *text[] = {
		"# c\nname,kind,dtype,shape,kv_heads,count\nsdpa,attention,bf16,1x32x1x2048x128,8,32\n",
		"# c\nname,kind,dtype,shape,kv_heads,count\nsdpa,attention,bf16,1x32x1x2048x128,12,32\n",
	};
	size_t i;

	for (i = 0; i < 2; i++) {
		struct rl_errlist e1, e2;
		struct rl_oplist l;
		rl_ops_rows *rows;
		struct rl_op op;
		FILE *f = test_stream(text[i]);
		int rc1, rc2;

		rl_errlist_init(&e1);
		rl_errlist_init(&e2);
		rc1 = rl_oplist_read(f, "ops.csv", &l, &e1);
		fclose(f);
		ck_assert_int_eq(rl_ops_rows_new("ops.csv", 2, head, 6, NULL, &rows, &e2), 0);
		rc2 = rl_ops_row(rows, 3, row[i], 6, &op, &e2);
		ck_assert_int_eq(rc1, rc2);
		ck_assert_uint_eq(e1.count, e2.count);
		if (i == 0) {
			ck_assert_int_eq(rc2, 0);
			ck_assert_uint_eq(op.kv_heads, 8);
			ck_assert_int_eq(memcmp(&op.dims, &l.ops[0].dims, sizeof(op.dims)), 0);
			ck_assert_int_eq(op.ndims, 5);
			ck_assert_int_eq(op.ndims, l.ops[0].ndims);
			ck_assert_uint_eq(op.count, 32);
			ck_assert_uint_eq(op.line, l.ops[0].line);
		} else {
			ck_assert_str_eq(e2.msg[0], "ops.csv:3: column 'kv_heads': 12 does not divide "
			                            "the query heads 32");
			ck_assert_str_eq(e1.msg[0], e2.msg[0]);
		}
		rl_ops_rows_free(rows);
		rl_oplist_release(&l);
	}
}
END_TEST

/* The kind registry's column names (rl_kind_column_names, which roofline
 * kinds prints) are the columns the reader refuses on a kind without the
 * bit: each one on a custom row (which takes none of them) is named in the
 * error, so the registry's list and the reader's rules cannot drift. */
START_TEST(test_kind_column_names)
{
	unsigned bit;
	int named = 0;

	ck_assert_ptr_null(rl_kind_column_names(0)[0]);
	ck_assert_ptr_null(rl_kind_column_names(3)[0]);
	for (bit = 0; bit < RL_KCOL_BITS; bit++) {
		const char *const *names = rl_kind_column_names(1u << bit);
		int j;

		ck_assert_ptr_nonnull(names[0]);
		/* on custom, which takes no column but params; params on a
		 * collective */
		int coll = (rl_kind_info(RL_KIND_CUSTOM)->columns & (1u << bit)) != 0;

		for (j = 0; names[j] != NULL; j++) {
			char text[256], want[160];
			struct rl_oplist l;
			struct rl_errlist errs;

			if (coll)
				snprintf(text, sizeof(text),
				         "name,kind,dtype,shape,ranks,%s\nx,allreduce,bf16,8,2,1\n", names[j]);
			else
				snprintf(text, sizeof(text),
				         "name,kind,dtype,flops,bytes,%s\nx,custom,fp32,1,1,%s\n", names[j],
				         strstr(names[j], "dtype") != NULL      ? "bf16"
				         : strcmp(names[j], "layout") == 0 ? "linear"
				         : strcmp(names[j], "mask") == 0   ? "float"
				                                             : "1");
			snprintf(want, sizeof(want), "ops.csv:2: column '%s': only ", names[j]);
			ck_assert_int_lt(read_text(text, &l, &errs), 0);
			ck_assert_msg(strncmp(errs.msg[0], want, strlen(want)) == 0, "%s: %s", names[j],
			              errs.msg[0]);
			ck_assert_ptr_nonnull(strstr(errs.msg[0], coll ? "ops take it, not allreduce"
			                                              : "ops take it, not custom"));
			rl_oplist_release(&l);
			named++;
		}
	}
	ck_assert_int_eq(named, 28); /* the optional columns of docs/oplist-format.md */
}
END_TEST

Suite *suite_oplist(void)
{
	Suite *s = suite_create("oplist");
	TCase *good = tcase_create("syntax");
	TCase *errors = tcase_create("errors");
	/* 1 MiB in one record: libcsv grows its field 128 bytes at a time, and
	 * under AddressSanitizer every realloc copies (6 s, not 0.3) */
	TCase *bounds = tcase_create("bounds");

	tcase_set_timeout(bounds, 60);
	tcase_add_test(good, test_syntax);
	tcase_add_test(good, test_all_columns);
	tcase_add_test(good, test_collective_columns);
	tcase_add_test(good, test_kind_column_names);
	tcase_add_test(good, test_overlap_column);
	tcase_add_test(good, test_window_column);
	tcase_add_test(good, test_component_columns);
	tcase_add_test(good, test_mla_columns);
	tcase_add_test(good, test_mask_columns);
	tcase_add_test(good, test_examples_parse);
	tcase_add_loop_test(errors, test_bad_input, 0, ARRAY_SIZE(bad));
	tcase_add_test(errors, test_nul_mid_file);
	tcase_add_test(errors, test_huge_line);
	tcase_add_test(bounds, test_huge_record);
	tcase_add_test(errors, test_many_errors);
	tcase_add_test(errors, test_wide_header);
	tcase_add_test(errors, test_unused_name);
	tcase_add_test(good, test_expressions);
	tcase_add_test(errors, test_lookup_statuses);
	tcase_add_test(good, test_rows_in_memory);
	tcase_add_test(good, test_rows_as_text);
	suite_add_tcase(s, good);
	suite_add_tcase(s, errors);
	suite_add_tcase(s, bounds);
	return s;
}
