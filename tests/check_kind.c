/* check_kind.c - the kind registry: names both ways, the list an op list
 * accepts, and rows of the table against what docs/oplist-format.md says of
 * each kind. */
#include "config.h"

#include <string.h>

#include "check.h"
#include "kind.h"

/* Every kind's keyword, in the order of enum rl_kind (docs/oplist-format.md). */
static const char *const names[] = {
    "pointwise", "reduction", "softmax",   "layernorm", "matmul",    "conv2d",
    "attention", "copy",      "embedding", "allreduce", "allgather", "reducescatter",
    "alltoall",  "broadcast", "sendrecv",  "custom",    "fused"};

START_TEST(test_names)
{
	enum rl_kind k;
	int i;

	ck_assert_int_eq(RL_KIND_COUNT, (int)ARRAY_SIZE(names));
	for (i = 0; i < RL_KIND_COUNT; i++)
		ck_assert_str_eq(rl_kind_name((enum rl_kind)i), names[i]);
	ck_assert_int_eq(rl_kind_parse("MatMul", &k), 0);
	ck_assert_int_eq(k, RL_KIND_MATMUL);
	ck_assert_int_eq(rl_kind_parse("sendrecv", &k), 0);
	ck_assert_int_eq(k, RL_KIND_SENDRECV);
	/* output only */
	ck_assert_int_eq(rl_kind_parse("fused", &k), RL_ERR_PARSE);
	ck_assert_int_eq(rl_kind_parse("gemm", &k), RL_ERR_PARSE);
	ck_assert_str_eq(
	    rl_kind_expected(),
	    "pointwise, reduction, softmax, layernorm, matmul, conv2d, attention, copy, "
	    "embedding, allreduce, allgather, reducescatter, alltoall, broadcast, sendrecv, "
	    "custom");
}
END_TEST

START_TEST(test_rows)
{
	const struct rl_kind_info *mm = rl_kind_info(RL_KIND_MATMUL);
	const struct rl_kind_info *ln = rl_kind_info(RL_KIND_LAYERNORM);
	const struct rl_kind_info *ar = rl_kind_info(RL_KIND_ALLREDUCE);
	int i, coll = 0, matrix = 0;

	/* MxNxK or BxMxNxK, the tensor pipe, B as its weights */
	ck_assert_int_eq(mm->min_dims, 3);
	ck_assert_int_eq(mm->max_dims, 4);
	ck_assert_int_eq(mm->bytes, RL_BYTES_MATMUL);
	ck_assert_int_eq(mm->weights, RL_WEIGHTS_MATRIX);
	ck_assert(mm->columns & RL_KCOL_WEIGHTS);
	ck_assert(!(mm->columns & RL_KCOL_FPE));
	/* layernorm: 8 FLOPs per element, fusable, flops_per_element allowed */
	ck_assert_double_eq(ln->default_fpe, 8);
	ck_assert(ln->flags & RL_KF_FUSABLE);
	ck_assert(ln->columns & RL_KCOL_FPE);
	ck_assert_double_eq(rl_kind_info(RL_KIND_SOFTMAX)->default_fpe, 5);
	ck_assert_double_eq(rl_kind_info(RL_KIND_COPY)->default_fpe, 0);
	ck_assert_int_eq(rl_kind_info(RL_KIND_ATTENTION)->max_dims, 5);
	/* embedding: a row gather, no FLOPs, no optional columns, vector pipe */
	ck_assert_int_eq(rl_kind_info(RL_KIND_EMBEDDING)->bytes, RL_BYTES_GATHER);
	ck_assert_double_eq(rl_kind_info(RL_KIND_EMBEDDING)->default_fpe, 0);
	ck_assert_uint_eq(rl_kind_info(RL_KIND_EMBEDDING)->columns, RL_KCOL_PARAMS); /* its table */
	ck_assert(!rl_kind_is_matrix(RL_KIND_EMBEDDING));
	ck_assert_str_eq(rl_kind_info(RL_KIND_CONV2D)->shape_form, "input NxCxHxW");
	/* a collective: no FLOPs, bus bytes, the ranks columns */
	ck_assert_double_eq(ar->default_fpe, 0);
	ck_assert_int_eq(ar->bytes, RL_BYTES_BUS);
	ck_assert(ar->columns & RL_KCOL_COLLECTIVE);
	ck_assert(rl_kind_info(RL_KIND_FUSED)->flags & RL_KF_OUTPUT_ONLY);
	/* six collectives (allreduce ... sendrecv), three matrix products */
	for (i = 0; i < RL_KIND_COUNT; i++) {
		coll += rl_kind_is_collective((enum rl_kind)i) != 0;
		matrix += rl_kind_is_matrix((enum rl_kind)i) != 0;
	}
	ck_assert_int_eq(coll, 6);
	ck_assert_int_eq(matrix, 3);
	ck_assert(rl_kind_is_collective(RL_KIND_SENDRECV));
	ck_assert(!rl_kind_is_collective(RL_KIND_CUSTOM));
	ck_assert(rl_kind_is_matrix(RL_KIND_CONV2D));
	ck_assert(!rl_kind_is_matrix(RL_KIND_POINTWISE));
}
END_TEST

Suite *suite_kind(void)
{
	Suite *s = suite_create("kind");
	TCase *tc = tcase_create("registry");

	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_rows);
	suite_add_tcase(s, tc);
	return s;
}
