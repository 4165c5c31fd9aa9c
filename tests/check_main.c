/* check_main.c - runs every suite; TAP on stdout for automake's tap-driver. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"

void test_load_device(const char *id, struct rl_device *d)
{
	char path[1024];
	struct rl_err err;

	snprintf(path, sizeof(path), "%s/%s.device", RL_TEST_HWDB, id);
	err.msg[0] = '\0';
	ck_assert_msg(rl_device_load(path, d, &err) == 0, "loading %s: %s", path, err.msg);
}

double test_runtime_overhead(const char *name)
{
	char path[1024];
	struct rl_err err;
	struct rl_runtime rt;
	double v;

	snprintf(path, sizeof(path), "%s/%s.runtime", RL_TEST_HWDB, name);
	ck_assert_msg(rl_runtime_load(path, &rt, &err) == 0, "loading %s: %s", path, err.msg);
	v = rt.host_overhead_us.value;
	rl_runtime_release(&rt);
	return v;
}

void test_op_shape(struct rl_op *op, enum rl_kind k, enum rl_dtype t, int n, const uint64_t *d)
{
	int i;

	rl_op_init(op);
	op->name = "op";
	op->kind = k;
	op->dtype = t;
	op->has |= RL_HAS_SHAPE;
	op->ndims = n;
	for (i = 0; i < n; i++)
		op->dims[i] = d[i];
}

FILE *test_stream(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	ck_assert_ptr_nonnull(f);
	return f;
}

int main(void)
{
	SRunner *sr = srunner_create(suite_num());
	int failed;

	srunner_add_suite(sr, suite_outfile());
	srunner_add_suite(sr, suite_err());
	srunner_add_suite(sr, suite_json());
	srunner_add_suite(sr, suite_kind());
	srunner_add_suite(sr, suite_formulas());
	srunner_add_suite(sr, suite_bench());
	srunner_add_suite(sr, suite_hwdb());
	srunner_add_suite(sr, suite_model());
	srunner_add_suite(sr, suite_oplist());
	srunner_add_suite(sr, suite_oplist_write());
	srunner_add_suite(sr, suite_modelstep());
	srunner_add_suite(sr, suite_report());
	srunner_add_suite(sr, suite_column());
	srunner_add_suite(sr, suite_probe());
	srunner_add_suite(sr, suite_timeline());
	srunner_add_suite(sr, suite_fusion());
	srunner_add_suite(sr, suite_symbols());
	srunner_add_suite(sr, suite_trace());
	srunner_add_suite(sr, suite_import());
	srunner_add_suite(sr, suite_inductor());
	srunner_add_suite(sr, suite_chart());
	srunner_add_suite(sr, suite_l2());
	srunner_add_suite(sr, suite_fmt());
	srunner_add_suite(sr, suite_html());
	srunner_add_suite(sr, suite_collective());
	srunner_add_suite(sr, suite_hwsystem());
	srunner_add_suite(sr, suite_pipeline());
	srunner_add_suite(sr, suite_synth());
	srunner_add_suite(sr, suite_hfconfig());
	srunner_add_suite(sr, suite_family());
	srunner_add_suite(sr, suite_impl());
	srunner_add_suite(sr, suite_generate());
	srunner_add_suite(sr, suite_generate_report());
	srunner_add_suite(sr, suite_kind_report());
	srunner_add_suite(sr, suite_modelprobe());
	srunner_add_suite(sr, suite_expected());
	srunner_add_suite(sr, suite_memfit());
	srunner_add_suite(sr, suite_train());
	srunner_add_suite(sr, suite_sweep());
	srunner_add_suite(sr, suite_parallel());
	srunner_add_suite(sr, suite_collbench());
	srunner_add_suite(sr, suite_dtype());
	srunner_add_suite(sr, suite_op());
	srunner_add_suite(sr, suite_kvfile());
	srunner_add_suite(sr, suite_archtab());
	srunner_add_suite(sr, suite_scale());
	srunner_add_suite(sr, suite_step());
	srunner_add_suite(sr, suite_hostfit());
	srunner_add_suite(sr, suite_summary());
	srunner_add_suite(sr, suite_effprof());
	srunner_add_suite(sr, suite_whatif_report());
	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
