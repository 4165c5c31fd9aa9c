/* check_op.c - the op record: its defaults, the kind, phase and host-key
 * names of the op-list format (docs/oplist-format.md, "kind", "phase";
 * docs/hwdb-format.md, host_overhead_us.KEY). */
#include "config.h"

#include <string.h>

#include "check.h"
#include "err.h"
#include "op.h"

START_TEST(test_init)
{
	struct rl_op op;

	memset(&op, 0x5a, sizeof(op));
	rl_op_init(&op);
	/* an op with no optional column: a custom fp32 op, run once, one
	 * launch; conv2d's stride 1, padding 0, groups 1; pointwise's 1 input;
	 * a collective on one node */
	ck_assert_str_eq(op.name, "");
	ck_assert_int_eq(op.kind, RL_KIND_CUSTOM);
	ck_assert_int_eq(op.dtype, RL_FP32);
	ck_assert_int_eq(op.unit, RL_UNIT_AUTO);
	ck_assert_uint_eq(op.count, 1);
	ck_assert_uint_eq(op.launches, 1);
	ck_assert_int_eq(op.stride, 1);
	ck_assert_int_eq(op.padding, 0);
	ck_assert_int_eq(op.groups, 1);
	ck_assert_int_eq(op.inputs, 1);
	ck_assert_uint_eq(op.nodes, 1);
	ck_assert_int_eq(op.has, 0);
	ck_assert_int_eq(op.ndims, 0);
	ck_assert_ptr_null(op.fuse);
}
END_TEST

/* the keywords of the format, in the order of enum rl_kind */
static const char *const kinds[] = {
	"pointwise", "reduction", "softmax", "layernorm", "matmul", "conv2d", "attention",
	"copy", "embedding", "allreduce", "allgather", "reducescatter", "alltoall", "broadcast",
	"sendrecv", "custom",
};

START_TEST(test_kind_names)
{
	enum rl_kind k = RL_KIND_FUSED;

	ck_assert_str_eq(rl_kind_name((enum rl_kind)_i), kinds[_i]);
	ck_assert_int_eq(rl_kind_parse(kinds[_i], &k), 0);
	ck_assert_int_eq(k, _i);
	ck_assert_ptr_nonnull(strstr(rl_kind_expected(), kinds[_i]));
	/* allreduce ... sendrecv are the collectives */
	ck_assert_int_eq(rl_kind_is_collective(k), _i >= 9 && _i <= 14);
}
END_TEST

START_TEST(test_kind_parse)
{
	enum rl_kind k = RL_KIND_COPY;

	ck_assert_int_eq(rl_kind_parse("MatMul", &k), 0);
	ck_assert_int_eq(k, RL_KIND_MATMUL);
	ck_assert_int_eq(rl_kind_parse("ALLREDUCE", &k), 0);
	ck_assert_int_eq(k, RL_KIND_ALLREDUCE);
	/* "fused" is written, never read; unknown names are refused */
	k = RL_KIND_COPY;
	ck_assert_str_eq(rl_kind_name(RL_KIND_FUSED), "fused");
	ck_assert_int_eq(rl_kind_parse("fused", &k), RL_ERR_PARSE);
	ck_assert_int_eq(rl_kind_parse("matmull", &k), RL_ERR_PARSE);
	ck_assert_int_eq(rl_kind_parse("mat", &k), RL_ERR_PARSE);
	ck_assert_int_eq(rl_kind_parse("", &k), RL_ERR_PARSE);
	ck_assert_int_eq(k, RL_KIND_COPY);
	ck_assert_ptr_null(strstr(rl_kind_expected(), "fused"));
	ck_assert_int_eq(rl_kind_is_collective(RL_KIND_CUSTOM), 0);
	ck_assert_int_eq(rl_kind_is_collective(RL_KIND_FUSED), 0);
}
END_TEST

START_TEST(test_phases)
{
	enum rl_phase p = RL_PHASE_FORWARD;

	ck_assert_str_eq(rl_phase_name(RL_PHASE_FORWARD), "forward");
	ck_assert_str_eq(rl_phase_name(RL_PHASE_BACKWARD), "backward");
	ck_assert_str_eq(rl_phase_name(RL_PHASE_OPTIMIZER), "optimizer");
	ck_assert_int_eq(rl_phase_parse("Backward", &p), 0);
	ck_assert_int_eq(p, RL_PHASE_BACKWARD);
	ck_assert_int_eq(rl_phase_parse("optimizer", &p), 0);
	ck_assert_int_eq(p, RL_PHASE_OPTIMIZER);
	ck_assert_int_eq(rl_phase_parse("sideways", &p), RL_ERR_PARSE);
	ck_assert_int_eq(p, RL_PHASE_OPTIMIZER);
}
END_TEST

/* an fp8 matmul is torch._scaled_mm, whose host cost has a key of its own;
 * every other op is its kind's */
START_TEST(test_host_keys)
{
	struct rl_op op;
	int key = -1;

	rl_op_init(&op);
	op.kind = RL_KIND_MATMUL;
	op.dtype = RL_FP8E4M3;
	ck_assert_int_eq(rl_op_host_key(&op), RL_HOST_MATMUL_FP8);
	op.dtype = RL_FP8E5M2;
	ck_assert_int_eq(rl_op_host_key(&op), RL_HOST_MATMUL_FP8);
	op.dtype = RL_BF16;
	ck_assert_int_eq(rl_op_host_key(&op), RL_KIND_MATMUL);
	op.kind = RL_KIND_POINTWISE;
	op.dtype = RL_FP8E4M3;
	ck_assert_int_eq(rl_op_host_key(&op), RL_KIND_POINTWISE);

	ck_assert_str_eq(rl_host_key_name(RL_HOST_MATMUL_FP8), "matmul.fp8");
	ck_assert_str_eq(rl_host_key_name(RL_KIND_SOFTMAX), "softmax");
	ck_assert_ptr_null(rl_host_key_name(-1));
	ck_assert_ptr_null(rl_host_key_name(RL_HOST_KEY_COUNT));
	ck_assert_int_eq(rl_host_key_kind(RL_HOST_MATMUL_FP8), RL_KIND_MATMUL);
	ck_assert_int_eq(rl_host_key_kind(RL_KIND_COPY), RL_KIND_COPY);

	ck_assert_int_eq(rl_host_key_parse("matmul.fp8", &key), 0);
	ck_assert_int_eq(key, RL_HOST_MATMUL_FP8);
	ck_assert_int_eq(rl_host_key_parse("layernorm", &key), 0);
	ck_assert_int_eq(key, RL_KIND_LAYERNORM);
	ck_assert_int_eq(rl_host_key_parse("matmul.fp16", &key), RL_ERR_PARSE);
}
END_TEST

Suite *suite_op(void)
{
	Suite *s = suite_create("op");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_init);
	tcase_add_loop_test(tc, test_kind_names, 0, ARRAY_SIZE(kinds));
	tcase_add_test(tc, test_kind_parse);
	tcase_add_test(tc, test_phases);
	tcase_add_test(tc, test_host_keys);
	suite_add_tcase(s, tc);
	return s;
}
