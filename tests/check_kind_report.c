/* check_kind_report.c - the writer of the op kinds (kind_report.c): the
 * lines of matmul, attention, pointwise, allreduce and copy in each format,
 * written out by hand from docs/oplist-format.md (the kind keyword, "Shape
 * per kind", "Default formulas" and the "used by" of "Columns"), and the
 * columns each RL_KCOL_* bit stands for. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "kind_report.h"

static void written(enum rl_format fmt, char *buf, size_t n)
{
	FILE *f = fmemopen(buf, n, "w");

	ck_assert_ptr_nonnull(f);
	memset(buf, 0, n);
	ck_assert_int_eq(rl_kind_report_write(f, fmt), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_uint_lt(strlen(buf), n - 1); /* nothing cut off */
}

/* The line of BUF that starts with PREFIX (a kind's name and a separator),
 * copied to LINE, or "". */
static const char *line_of(const char *buf, const char *prefix, char *line, size_t n)
{
	const char *p = buf;
	size_t len = strlen(prefix);

	line[0] = '\0';
	while (*p != '\0') {
		const char *e = strchr(p, '\n');
		size_t l = e != NULL ? (size_t)(e - p) : strlen(p);

		if (strncmp(p, prefix, len) == 0 && l < n) {
			memcpy(line, p, l);
			line[l] = '\0';
			break;
		}
		p += l + (e != NULL);
	}
	return line;
}

static size_t lines(const char *buf)
{
	size_t n = 0;

	for (; *buf != '\0'; buf++)
		n += *buf == '\n';
	return n;
}

START_TEST(test_columns)
{
	char buf[256];

	ck_assert_str_eq(rl_kind_report_columns(0, " ", buf, sizeof(buf)), "");
	ck_assert_str_eq(rl_kind_report_columns(RL_KCOL_CONV2D, ",", buf, sizeof(buf)),
	                 "kernel,stride,padding,groups");
	ck_assert_str_eq(rl_kind_report_columns(RL_KCOL_ATTENTION, " ", buf, sizeof(buf)),
	                 "causal kv_heads window v_head_dim kv_shared kv_cached mask mask_shape");
	ck_assert_str_eq(rl_kind_report_columns(RL_KCOL_KV, " ", buf, sizeof(buf)), "kv_dtype");
	ck_assert_str_eq(rl_kind_report_columns(RL_KCOL_COLLECTIVE, " ", buf, sizeof(buf)),
	                 "ranks nodes overlap");
	ck_assert_str_eq(
	    rl_kind_report_columns(RL_KCOL_INPUTS | RL_KCOL_FPE, " ", buf, sizeof(buf)),
	    "inputs flops_per_element");
	ck_assert_str_eq(rl_kind_report_columns(RL_KCOL_PERM, " ", buf, sizeof(buf)), "perm");
	ck_assert_str_eq(rl_kind_report_columns(RL_KCOL_STRIDED, " ", buf, sizeof(buf)), "strided");
	/* too small a buffer: the names that fit whole */
	ck_assert_str_eq(rl_kind_report_columns(RL_KCOL_WEIGHTS, " ", buf, 20), "weight_dtype");
}
END_TEST

START_TEST(test_table)
{
	char buf[8192], line[512];

	written(RL_FMT_TABLE, buf, sizeof(buf));
	/* a heading and the 16 kinds of docs/oplist-format.md; fused is output only */
	ck_assert_uint_eq(lines(buf), 17);
	ck_assert_str_eq(line_of(buf, "kind ", line, sizeof(line)),
	                 "kind          dims shape                            flops/elem pipe   "
	                 "weights kv_cache fusable collective columns");
	ck_assert_str_eq(line_of(buf, "matmul ", line, sizeof(line)),
	                 "matmul        3-4  MxNxK or BxMxNxK                          - tensor "
	                 "yes     no       no      no         weight_dtype weight_group "
	                 "weight_count trainable grouped layout params");
	ck_assert_str_eq(line_of(buf, "attention ", line, sizeof(line)),
	                 "attention     4-5  BxHxSxD or BxHxSqxSkxD                    - tensor "
	                 "no      yes      no      no         causal kv_heads window "
	                 "v_head_dim kv_shared kv_cached mask mask_shape params kv_dtype");
	ck_assert_str_eq(line_of(buf, "pointwise ", line, sizeof(line)),
	                 "pointwise     1-6  -                                         1 vector "
	                 "no      no       yes     no         inputs flops_per_element strided params vector_bytes");
	ck_assert_str_eq(line_of(buf, "allreduce ", line, sizeof(line)),
	                 "allreduce     1-6  -                                         - vector "
	                 "no      no       no      yes        ranks nodes overlap");
	ck_assert_str_eq(line_of(buf, "copy ", line, sizeof(line)),
	                 "copy          1-6  -                                         - vector "
	                 "no      no       no      no         perm strided params kv_dtype");
	/* the other defaults of flops_per_element: softmax 5, layernorm 8 */
	ck_assert_str_eq(line_of(buf, "softmax ", line, sizeof(line)),
	                 "softmax       1-6  -                                         5 vector "
	                 "no      no       yes     no         flops_per_element params");
	ck_assert_str_eq(line_of(buf, "layernorm ", line, sizeof(line)),
	                 "layernorm     1-6  -                                         8 vector "
	                 "no      no       yes     no         flops_per_element params");
	ck_assert_str_eq(line_of(buf, "fused", line, sizeof(line)), "");
}
END_TEST

START_TEST(test_csv)
{
	char buf[8192], line[512];

	written(RL_FMT_CSV, buf, sizeof(buf));
	ck_assert_uint_eq(lines(buf), 17);
	ck_assert_str_eq(line_of(buf, "kind,", line, sizeof(line)),
	                 "kind,min_dims,max_dims,shape_form,flops_per_element,pipe,weights,"
	                 "kv_cache,fusable,collective,columns");
	ck_assert_str_eq(line_of(buf, "matmul,", line, sizeof(line)),
	                 "matmul,3,4,MxNxK or BxMxNxK,,tensor,1,0,0,0,weight_dtype weight_group "
	                 "weight_count trainable grouped layout params");
	ck_assert_str_eq(line_of(buf, "attention,", line, sizeof(line)),
	                 "attention,4,5,BxHxSxD or BxHxSqxSkxD,,tensor,0,1,0,0,causal kv_heads "
	                 "window v_head_dim kv_shared kv_cached mask mask_shape params kv_dtype");
	ck_assert_str_eq(line_of(buf, "pointwise,", line, sizeof(line)),
	                 "pointwise,1,6,,1,vector,0,0,1,0,inputs flops_per_element strided params vector_bytes");
	ck_assert_str_eq(line_of(buf, "allreduce,", line, sizeof(line)),
	                 "allreduce,1,6,,,vector,0,0,0,1,ranks nodes overlap");
	ck_assert_str_eq(line_of(buf, "copy,", line, sizeof(line)),
	                 "copy,1,6,,,vector,0,0,0,0,perm strided params kv_dtype");
	/* a shape form with a comma is quoted */
	ck_assert_str_eq(line_of(buf, "embedding,", line, sizeof(line)),
	                 "embedding,2,6,\"indices x row width (NxD, BxSxD)\",,vector,0,0,0,0,params");
	ck_assert_str_eq(line_of(buf, "custom,", line, sizeof(line)),
	                 "custom,0,6,,,vector,0,0,0,0,params");
}
END_TEST

START_TEST(test_json)
{
	char buf[8192];
	FILE *f;

	written(RL_FMT_JSON, buf, sizeof(buf));
	ck_assert_uint_eq(lines(buf), 1);
	ck_assert_ptr_nonnull(strstr(buf, "{\"kinds\":[{\"kind\":\"pointwise\",\"min_dims\":1,"
	                                  "\"max_dims\":6,\"shape_form\":null,"
	                                  "\"flops_per_element\":1,\"pipe\":\"vector\","
	                                  "\"weights\":false,\"kv_cache\":false,\"fusable\":true,"
	                                  "\"collective\":false,"
	                                  "\"columns\":[\"inputs\",\"flops_per_element\",\"strided\",\"params\",\"vector_bytes\"]}"));
	ck_assert_ptr_nonnull(strstr(buf, "{\"kind\":\"matmul\",\"min_dims\":3,\"max_dims\":4,"
	                                  "\"shape_form\":\"MxNxK or BxMxNxK\","
	                                  "\"flops_per_element\":null,\"pipe\":\"tensor\","
	                                  "\"weights\":true,\"kv_cache\":false,\"fusable\":false,"
	                                  "\"collective\":false,\"columns\":[\"weight_dtype\","
	                                  "\"weight_group\",\"weight_count\",\"trainable\","
	                                  "\"grouped\",\"layout\",\"params\"]}"));
	ck_assert_ptr_nonnull(strstr(buf, "{\"kind\":\"attention\",\"min_dims\":4,\"max_dims\":5,"
	                                  "\"shape_form\":\"BxHxSxD or BxHxSqxSkxD\","
	                                  "\"flops_per_element\":null,\"pipe\":\"tensor\","
	                                  "\"weights\":false,\"kv_cache\":true,"
	                                  "\"fusable\":false,\"collective\":false,"
	                                  "\"columns\":[\"causal\",\"kv_heads\",\"window\","
	                                  "\"v_head_dim\",\"kv_shared\",\"kv_cached\",\"mask\",\"mask_shape\",\"params\",\"kv_dtype\"]}"));
	ck_assert_ptr_nonnull(strstr(buf, "{\"kind\":\"allreduce\",\"min_dims\":1,\"max_dims\":6,"
	                                  "\"shape_form\":null,\"flops_per_element\":null,"
	                                  "\"pipe\":\"vector\",\"weights\":false,"
	                                  "\"kv_cache\":false,\"fusable\":false,"
	                                  "\"collective\":true,"
	                                  "\"columns\":[\"ranks\",\"nodes\",\"overlap\"]}"));
	ck_assert_ptr_nonnull(strstr(buf, "{\"kind\":\"copy\",\"min_dims\":1,\"max_dims\":6,"
	                                  "\"shape_form\":null,\"flops_per_element\":null,"
	                                  "\"pipe\":\"vector\",\"weights\":false,"
	                                  "\"kv_cache\":false,\"fusable\":false,"
	                                  "\"collective\":false,\"columns\":[\"perm\",\"strided\",\"params\","
	                                  "\"kv_dtype\"]}"));
	ck_assert_ptr_nonnull(strstr(buf, "\"columns\":[\"params\"]}]}\n")); /* custom, the last */
	ck_assert_ptr_null(strstr(buf, "\"fused\""));
	/* md is no format of this list */
	f = fmemopen(buf, sizeof(buf), "w");
	ck_assert_int_eq(rl_kind_report_write(f, RL_FMT_MD), RL_ERR_ARG);
	fclose(f);
}
END_TEST

Suite *suite_kind_report(void)
{
	Suite *s = suite_create("kind_report");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_columns);
	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_csv);
	tcase_add_test(tc, test_json);
	suite_add_tcase(s, tc);
	return s;
}
