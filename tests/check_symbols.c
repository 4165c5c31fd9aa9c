/* check_symbols.c - names in shapes (--set), scaling (--scale) and the
 * verdicts of the batch-scaling what-if. */
#include "config.h"

#include <string.h>

#include "check.h"
#include "scale.h"
#include "symbols.h"

START_TEST(test_set)
{
	static const struct {
		const char *spec, *msg; /* msg NULL: accepted */
	} cases[] = {
	    {"B=32,S=128", NULL},
	    {"H_kv=8", NULL},
	    {"B=0", "--set: B: 0 is below the minimum 1"},
	    {"B=-1", "--set: B: '-1' is not a non-negative integer"},
	    {"B=1.5", "--set: B: '1.5' is not a non-negative integer"},
	    {"B", "--set: 'B' is not NAME=VALUE (e.g. B=32)"},
	    {"B=3,B=4", "--set: B is given twice"},
	    {"max=3",
	     "--set: 'max' is not a name (letters and '_', no lower-case 'x', at most 31)"},
	    {"B2=3", "--set: 'B2' is not a name (letters and '_', no lower-case 'x', at most 31)"},
	    {"=3", "--set: '' is not a name (letters and '_', no lower-case 'x', at most 31)"},
	    /* 34 characters: once cut to 31 (all zeros), read as 0 */
	    {"B=0000000000000000000000000000000007",
	     "--set: B: '0000000000000000000000000000000007' is more than 31 characters"},
	    {"B=0000000000000000000000000000007", NULL}, /* 31 characters */
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct rl_symbols s;
		struct rl_err e = {0, ""};
		int rc;

		rl_symbols_init(&s);
		rc = rl_symbols_set(&s, cases[i].spec, &e);
		if (cases[i].msg == NULL)
			ck_assert_msg(rc == 0, "%s: %s", cases[i].spec, e.msg);
		else
			ck_assert_str_eq(e.msg, cases[i].msg);
	}
}
END_TEST

START_TEST(test_dims)
{
	struct rl_symbols s;
	uint64_t d[RL_MAX_DIMS];
	unsigned char sym[RL_MAX_DIMS];
	struct rl_err e = {0, ""};
	int n;

	rl_symbols_init(&s);
	ck_assert_int_eq(rl_symbols_set(&s, "B=32,S=128,D=64", NULL), 0);
	ck_assert_int_eq(rl_symbols_dims(&s, "Bx4096", d, sym, RL_MAX_DIMS, &n, &e), 0);
	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(d[0], 32);
	ck_assert_uint_eq(d[1], 4096);
	ck_assert_int_eq(sym[0], 1); /* B is the first name */
	ck_assert_int_eq(sym[1], 0);
	ck_assert_int_eq(rl_symbols_dims(&s, "Bx12xSxD", d, sym, RL_MAX_DIMS, &n, &e), 0);
	ck_assert_int_eq(n, 4);
	ck_assert_uint_eq(d[2], 128);
	ck_assert_int_eq(sym[2], 2);
	ck_assert_int_eq(sym[3], 3);

	ck_assert_int_eq(rl_symbols_dims(&s, "BxHxSxD", d, sym, RL_MAX_DIMS, &n, &e), RL_ERR_PARSE);
	ck_assert_str_eq(e.msg, "name 'H' in shape 'BxHxSxD' is not bound (give its size with "
	                        "--set H=N)");
	ck_assert_int_eq(rl_symbols_dims(NULL, "Bx8", d, sym, RL_MAX_DIMS, &n, &e), RL_ERR_PARSE);
	ck_assert_int_eq(rl_symbols_dims(&s, "Bx0", d, sym, RL_MAX_DIMS, &n, &e), RL_ERR_RANGE);
	ck_assert_int_eq(rl_symbols_dims(&s, "Bx", d, sym, RL_MAX_DIMS, &n, &e), RL_ERR_PARSE);
	ck_assert_int_eq(rl_symbols_dims(&s, "B2x8", d, sym, RL_MAX_DIMS, &n, &e), RL_ERR_PARSE);
	ck_assert_int_eq(rl_symbols_dims(&s, "Bx8 ", d, sym, RL_MAX_DIMS, &n, &e), RL_ERR_PARSE);
	/* numbers only: the strict parser, unchanged */
	ck_assert_int_eq(rl_symbols_dims(&s, "8x8", d, sym, RL_MAX_DIMS, &n, &e), 0);
	ck_assert_int_eq(sym[0] + sym[1], 0);
	ck_assert_int_eq(rl_symbols_dims(&s, "8X8", d, sym, RL_MAX_DIMS, &n, &e), RL_ERR_PARSE);
}
END_TEST

START_TEST(test_scale_apply)
{
	struct rl_symbols s;
	struct rl_op op, big;
	struct rl_err e = {0, ""};
	char label[64];
	int dep;

	rl_symbols_init(&s);
	ck_assert_int_eq(rl_symbols_set(&s, "B=32,S=128", NULL), 0);
	ck_assert_int_eq(rl_symbols_scale(&s, "Q=2", &e), RL_ERR_PARSE);
	ck_assert_str_eq(e.msg, "--scale: Q is not bound (give its size with --set Q=N)");
	ck_assert_int_eq(rl_symbols_scale(&s, "B=2", &e), 0);
	rl_symbols_scale_label(&s, label, sizeof(label));
	ck_assert_str_eq(label, "B x2");

	rl_op_init(&op);
	ck_assert_int_eq(
	    rl_symbols_dims(&s, "BxSx768", op.dims, op.dim_sym, RL_MAX_DIMS, &op.ndims, NULL), 0);
	ck_assert_int_eq(rl_symbols_apply(&s, &op, &big, &dep, NULL), 0);
	ck_assert_int_eq(dep, 1);
	ck_assert_uint_eq(big.dims[0], 64);  /* 32 x 2 */
	ck_assert_uint_eq(big.dims[1], 128); /* S not scaled */
	ck_assert_uint_eq(big.dims[2], 768);

	ck_assert_int_eq(
	    rl_symbols_dims(&s, "Sx768", op.dims, op.dim_sym, RL_MAX_DIMS, &op.ndims, NULL), 0);
	ck_assert_int_eq(rl_symbols_apply(&s, &op, &big, &dep, NULL), 0);
	ck_assert_int_eq(dep, 0);

	/* 2^63 x 2 does not fit in 64 bits */
	rl_symbols_init(&s);
	ck_assert_int_eq(rl_symbols_set(&s, "B=9223372036854775808", NULL), 0);
	ck_assert_int_eq(rl_symbols_scale(&s, "B=2", NULL), 0);
	ck_assert_int_eq(
	    rl_symbols_dims(&s, "B", op.dims, op.dim_sym, RL_MAX_DIMS, &op.ndims, NULL), 0);
	ck_assert_int_eq(rl_symbols_apply(&s, &op, &big, NULL, &e), RL_ERR_RANGE);
}
END_TEST

/* Verdicts on hand-made predictions: only flops, bytes, intensity, bound and
 * t_us matter. */
START_TEST(test_verdicts)
{
	static const struct {
		double f0, b0, t0;
		enum rl_bound bd0;
		double f1, b1, t1;
		enum rl_scale_verdict want;
	} cases[] = {
	    /* same work: fixed, whatever the times */
	    {100, 100, 5, RL_BOUND_MEMORY, 100, 100, 5, RL_SCALE_FIXED},
	    /* overhead-bound, doubled work, 6.6 -> 6.6 us: overhead */
	    {100, 100, 6.6, RL_BOUND_OVERHEAD, 200, 200, 6.6, RL_SCALE_OVERHEAD},
	    /* overhead-bound but 6.6 -> 7.5 us (x1.14, not flat): intensity
	     * unchanged, so linear */
	    {100, 100, 6.6, RL_BOUND_OVERHEAD, 200, 200, 7.5, RL_SCALE_LINEAR},
	    /* weight-bound matmul: flops x2, bytes x1.004: intensity x1.99 */
	    {268435456, 33685504, 10.06, RL_BOUND_MEMORY, 536870912, 33816576, 10.09,
	     RL_SCALE_INTENSITY},
	    /* memory-bound pointwise: both x2 */
	    {100, 600, 20, RL_BOUND_MEMORY, 200, 1200, 40, RL_SCALE_LINEAR},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct rl_pred a, b;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		a.flops = cases[i].f0, a.bytes = cases[i].b0, a.expected_us = cases[i].t0;
		a.intensity = a.flops / a.bytes, a.expected_bound = cases[i].bd0;
		b.flops = cases[i].f1, b.bytes = cases[i].b1, b.expected_us = cases[i].t1;
		b.intensity = b.flops / b.bytes;
		/* the verdict reads the expected times: roofline ones that say
		 * otherwise (overhead-bound, flat) are ignored */
		a.t_us = b.t_us = 6.6, a.bound = b.bound = RL_BOUND_OVERHEAD;
		if (cases[i].want == RL_SCALE_OVERHEAD)
			a.t_us = b.t_us = 1, a.bound = b.bound = RL_BOUND_MEMORY;
		ck_assert_msg(rl_scale_verdict(&a, &b) == cases[i].want, "case %zu: %s", i,
		              rl_scale_verdict_name(rl_scale_verdict(&a, &b)));
	}
}
END_TEST

/* Issue 13: expressions in shapes. A dimension proportional to one name
 * (B*197, B/2) scales with it; any other use of names (B+1) refuses
 * --scale; numbers alone stay fixed. */
START_TEST(test_expr_scale)
{
	struct rl_symbols s;
	struct rl_op op, out;
	struct rl_err e = {0, ""};
	uint32_t used = 0;
	int depends = -1;

	rl_symbols_init(&s);
	ck_assert_int_eq(rl_symbols_set(&s, "B=8,S=128", NULL), 0);
	ck_assert_int_eq(rl_symbols_scale(&s, "B=2", NULL), 0);
	rl_op_init(&op);
	op.kind = RL_KIND_MATMUL;
	/* 8 x 197 = 1576; 8 / 2 x 3 = 12; 2 x 3 + 1 = 7 */
	ck_assert_int_eq(rl_symbols_dims_used(&s, "B*197xB/2*3x2*3+1", op.dims, op.dim_sym,
	                                      RL_MAX_DIMS, &op.ndims, &used, &e),
	                 0);
	ck_assert_int_eq(op.ndims, 3);
	ck_assert_uint_eq(op.dims[0], 1576);
	ck_assert_uint_eq(op.dims[1], 12);
	ck_assert_uint_eq(op.dims[2], 7);
	ck_assert_uint_eq(used, 1); /* B only */
	ck_assert_int_eq(rl_symbols_apply(&s, &op, &out, &depends, &e), 0);
	ck_assert_int_eq(depends, 1);
	ck_assert_uint_eq(out.dims[0], 3152); /* 16 x 197 */
	ck_assert_uint_eq(out.dims[1], 24);   /* 16 / 2 x 3 */
	ck_assert_uint_eq(out.dims[2], 7);
	/* S+1 depends on S other than in proportion */
	ck_assert_int_eq(rl_symbols_dims_used(&s, "Bx(S+1)", op.dims, op.dim_sym, RL_MAX_DIMS,
	                                      &op.ndims, &used, &e),
	                 0);
	ck_assert_uint_eq(op.dims[1], 129);
	ck_assert_uint_eq(used, 3); /* B and S */
	ck_assert_uint_eq(op.dim_sym[1], RL_SYM_MIXED);
	ck_assert_int_eq(rl_symbols_apply(&s, &op, &out, &depends, &e), RL_ERR_RANGE);
	ck_assert_ptr_nonnull(strstr(e.msg, "dimension 2 is an expression of names that --scale "
	                                    "cannot follow"));
	/* an expression of count */
	{
		uint64_t v = 0;

		ck_assert_int_eq(rl_symbols_eval(&s, "(B+S)/4*3", "count", &v, &used, &e), 0);
		ck_assert_uint_eq(v, 102); /* 136 / 4 x 3 */
		ck_assert_int_eq(rl_symbols_eval(&s, "B/3", "count", &v, &used, &e), RL_ERR_RANGE);
		ck_assert_str_eq(e.msg, "count 'B/3': 8 / 3 is not a whole number (the division must "
		                        "be exact)");
		ck_assert_int_eq(rl_symbols_eval(NULL, "L", "count", &v, &used, &e), RL_ERR_PARSE);
		ck_assert_str_eq(e.msg, "name 'L' in count 'L' is not bound (give its size with --set "
		                        "L=N)");
	}
}
END_TEST

Suite *suite_symbols(void)
{
	Suite *s = suite_create("symbols");
	TCase *tc = tcase_create("symbols");

	tcase_add_test(tc, test_set);
	tcase_add_test(tc, test_dims);
	tcase_add_test(tc, test_scale_apply);
	tcase_add_test(tc, test_verdicts);
	tcase_add_test(tc, test_expr_scale);
	suite_add_tcase(s, tc);
	return s;
}
