/* check_effprof.c - efficiency profiles: the installed H200 profile loads
 * with every key and a source for each, names the GPU it was measured on by
 * the H200's datasheet figures (compute capability 9.0, 132 SMs, 141 GB,
 * 1980 MHz boost), and a profile that lacks a key is refused naming it.
 * The model's use of the numbers is check_expected.c's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "effprof.h"
#include "err.h"

#define H200 RL_TEST_HWDB "/h200-pytorch.efficiency"

START_TEST(test_installed)
{
	struct rl_effprof ep;
	struct rl_err err = {0};
	int i;

	ck_assert_msg(rl_effprof_load(H200, &ep, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(ep.id, "h200-pytorch");
	ck_assert_double_eq(ep.ref[RL_EP_REF_CC].value, 9.0);
	ck_assert_double_eq(ep.ref[RL_EP_REF_SMS].value, 132);
	ck_assert_double_eq(ep.ref[RL_EP_REF_MEMORY_GIB].value, 141);
	ck_assert_double_eq(ep.ref[RL_EP_REF_CLOCK_MHZ].value, 1980);
	for (i = 0; i < RL_EP_KEY_COUNT; i++) {
		ck_assert_msg(ep.num[i].present, "%s missing", rl_effprof_key(i));
		ck_assert_msg(ep.num[i].source != NULL && ep.num[i].source[0] != '\0',
		              "%s has no source", rl_effprof_key(i));
	}
	/* fractions of a roof are fractions */
	ck_assert_double_gt(ep.num[RL_EP_GEMM_LARGE].value, 0);
	ck_assert_double_le(ep.num[RL_EP_GEMM_LARGE].value, 1);
	ck_assert_double_gt(ep.num[RL_EP_MEM_ELEMENTWISE].value, 0);
	ck_assert_double_le(ep.num[RL_EP_MEM_ELEMENTWISE].value, 1);
	rl_effprof_release(&ep);
}
END_TEST

/* the key names of docs/hwdb-format.md ("Efficiency profiles"), each once */
START_TEST(test_keys)
{
	int i, j;

	ck_assert_str_eq(rl_effprof_key(RL_EP_LATENCY_US), "latency_us");
	ck_assert_str_eq(rl_effprof_key(RL_EP_GEMM_LARGE), "gemm.large");
	ck_assert_str_eq(rl_effprof_ref_key(RL_EP_REF_SMS), "gpu.sm_count");
	ck_assert_str_eq(rl_effprof_ref_key(RL_EP_REF_CC), "gpu.compute_capability");
	for (i = 0; i < RL_EP_KEY_COUNT; i++) {
		ck_assert_ptr_nonnull(rl_effprof_key(i));
		for (j = 0; j < i; j++)
			ck_assert_str_ne(rl_effprof_key(i), rl_effprof_key(j));
	}
}
END_TEST

START_TEST(test_missing_key)
{
	char path[] = "/tmp/check_effprof.XXXXXX", line[1024];
	struct rl_effprof ep;
	struct rl_err err = {0};
	FILE *in = fopen(H200, "r"), *out;
	int fd = mkstemp(path);

	ck_assert_ptr_nonnull(in);
	ck_assert_int_ge(fd, 0);
	out = fdopen(fd, "w");
	while (fgets(line, sizeof(line), in) != NULL)
		if (strncmp(line, "gemm.large ", 11) != 0)
			fputs(line, out);
	fclose(in);
	fclose(out);
	ck_assert_int_lt(rl_effprof_load(path, &ep, &err), 0);
	ck_assert_msg(strstr(err.msg, "gemm.large") != NULL, "%s", err.msg);
	rl_effprof_release(&ep);
	unlink(path);
}
END_TEST

Suite *suite_effprof(void)
{
	Suite *s = suite_create("effprof");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_installed);
	tcase_add_test(tc, test_keys);
	tcase_add_test(tc, test_missing_key);
	suite_add_tcase(s, tc);
	return s;
}
