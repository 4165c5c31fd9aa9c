/* check_archtab.c - the per-SM rates of each architecture, against the
 * datasheets: SMs x rate x clock must give the published dense TFLOPS
 * (A100: 108 SMs at 1410 MHz, A100 whitepaper table 1; H100 SXM5: 132 SMs,
 * boost 1980 MHz, tensor figures at 1830, H100 whitepaper v1.03 table 3;
 * RTX 3090: 82 SMs at 1695 MHz and RTX A6000: 84 at 1800, GA102 whitepaper
 * appendix), and the row choice: GeForce by name, the newest older row for
 * a compute capability past the table, none before Volta. */
#include "config.h"

#include <string.h>

#include "archtab.h"
#include "check.h"

/* SMS x the row's rate for PIPE x CLOCK_MHZ (x the tensor clock ratio for
 * the tensor pipes but fp64's), in TFLOPS */
static double tflops(const struct rl_arch *a, enum rl_pipe pipe, double sms, double clock_mhz)
{
	double ratio = rl_pipe_is_tensor(pipe) && pipe != RL_PIPE_FP64_TENSOR ? a->tensor_clock_ratio
	                                                                       : 1.0;

	return sms * a->flop_per_clk_sm[pipe] * clock_mhz * 1e6 * ratio / 1e12;
}

static void near(double got, double want)
{
	/* datasheets round to 3-4 digits */
	ck_assert_msg(got > want * 0.995 && got < want * 1.005, "%g TFLOPS, datasheet %g", got, want);
}

START_TEST(test_a100)
{
	int assumed = -1;
	const struct rl_arch *a = rl_arch_find(8, 0, "NVIDIA A100-SXM4-80GB", &assumed);

	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(assumed, 0);
	ck_assert_str_eq(a->arch, "ampere");
	near(tflops(a, RL_PIPE_FP64_VECTOR, 108, 1410), 9.7);
	near(tflops(a, RL_PIPE_FP64_TENSOR, 108, 1410), 19.5);
	near(tflops(a, RL_PIPE_FP32_VECTOR, 108, 1410), 19.5);
	near(tflops(a, RL_PIPE_FP16_VECTOR, 108, 1410), 78);
	near(tflops(a, RL_PIPE_BF16_VECTOR, 108, 1410), 39);
	near(tflops(a, RL_PIPE_TF32_TENSOR, 108, 1410), 156);
	near(tflops(a, RL_PIPE_FP16_TENSOR, 108, 1410), 312);
	near(tflops(a, RL_PIPE_BF16_TENSOR, 108, 1410), 312);
	near(tflops(a, RL_PIPE_INT8_TENSOR, 108, 1410), 624);
	ck_assert_uint_eq(a->flop_per_clk_sm[RL_PIPE_FP8_TENSOR], 0); /* no FP8 on Ampere */
}
END_TEST

START_TEST(test_h100)
{
	int assumed = -1;
	const struct rl_arch *a = rl_arch_find(9, 0, "NVIDIA H100 80GB HBM3", &assumed);

	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(assumed, 0);
	ck_assert_str_eq(a->arch, "hopper");
	/* the tensor figures at 1830 MHz of a 1980 MHz boost clock */
	ck_assert_double_eq_tol(a->tensor_clock_ratio * 1980, 1830, 1e-9);
	near(tflops(a, RL_PIPE_FP64_VECTOR, 132, 1980), 33.5);
	near(tflops(a, RL_PIPE_FP64_TENSOR, 132, 1980), 66.9);
	near(tflops(a, RL_PIPE_FP32_VECTOR, 132, 1980), 66.9);
	near(tflops(a, RL_PIPE_TF32_TENSOR, 132, 1980), 494.7);
	near(tflops(a, RL_PIPE_BF16_TENSOR, 132, 1980), 989.4);
	near(tflops(a, RL_PIPE_FP16_TENSOR, 132, 1980), 989.4);
	near(tflops(a, RL_PIPE_FP8_TENSOR, 132, 1980), 1978.9);
	near(tflops(a, RL_PIPE_INT8_TENSOR, 132, 1980), 1978.9);
	ck_assert_ptr_nonnull(a->source);
	ck_assert_ptr_nonnull(a->cite);
}
END_TEST

/* GA10x: a GeForce card runs FP16 tensor math with FP32 accumulation at
 * half the rate of the data-center card of the same chip */
START_TEST(test_geforce)
{
	int assumed = -1;
	const struct rl_arch *gf = rl_arch_find(8, 6, "NVIDIA GeForce RTX 3090", &assumed);
	const struct rl_arch *dc = rl_arch_find(8, 6, "NVIDIA RTX A6000", &assumed);

	ck_assert_ptr_nonnull(gf);
	ck_assert_ptr_nonnull(dc);
	ck_assert_int_eq(gf->geforce, 1);
	ck_assert_int_eq(dc->geforce, 0);
	near(tflops(gf, RL_PIPE_FP16_TENSOR, 82, 1695), 71);
	near(tflops(gf, RL_PIPE_INT8_TENSOR, 82, 1695), 284);
	near(tflops(gf, RL_PIPE_FP32_VECTOR, 82, 1695), 35.6);
	near(tflops(dc, RL_PIPE_FP16_TENSOR, 84, 1800), 154.8);
	near(tflops(dc, RL_PIPE_FP32_VECTOR, 84, 1800), 38.7);
	/* "TITAN" counts as GeForce */
	ck_assert_ptr_eq(rl_arch_find(8, 6, "NVIDIA TITAN RTX-like", &assumed), gf);
}
END_TEST

START_TEST(test_rows)
{
	int assumed = -1;
	const struct rl_arch *h = rl_arch_find(9, 0, "H200", &assumed);
	const struct rl_arch *b = rl_arch_find(10, 0, "NVIDIA B200", &assumed);

	/* a capability past a row's: the newest older row, marked assumed */
	ck_assert_ptr_eq(rl_arch_find(9, 5, "x", &assumed), h);
	ck_assert_int_eq(assumed, 1);
	ck_assert_str_eq(b->arch, "blackwell");
	ck_assert_ptr_eq(rl_arch_find(12, 0, "NVIDIA GeForce RTX 5090", &assumed), b);
	ck_assert_int_eq(assumed, 1);
	/* 10.3 is in Blackwell's row (10.0 .. 10.3) */
	ck_assert_ptr_eq(rl_arch_find(10, 3, "x", &assumed), b);
	ck_assert_int_eq(assumed, 0);
	/* Volta is the first row; Pascal has none */
	ck_assert_str_eq(rl_arch_find(7, 0, "Tesla V100-SXM2-16GB", &assumed)->arch, "volta");
	ck_assert_ptr_null(rl_arch_find(6, 1, "Tesla P40", &assumed));
	ck_assert_int_eq(assumed, 0);
}
END_TEST

Suite *suite_archtab(void)
{
	Suite *s = suite_create("archtab");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_a100);
	tcase_add_test(tc, test_h100);
	tcase_add_test(tc, test_geforce);
	tcase_add_test(tc, test_rows);
	suite_add_tcase(s, tc);
	return s;
}
