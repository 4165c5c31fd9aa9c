/* check_hwdb.c - the device database: loading, look-up, and the data itself
 * cross-checked against the formula peak = SMs x lanes x 2 x clock. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "effprof.h"
#include "kvfile.h"

static rl_hwdb *db;

static void setup(void)
{
	struct rl_err err = {0, ""};

	ck_assert_msg(rl_hwdb_open(RL_TEST_HWDB, &db, &err) == 0, "%s", err.msg);
}

static void teardown(void)
{
	rl_hwdb_free(db);
}

START_TEST(test_required_devices)
{
	static const char *const ids[] = {
		"v100-sxm2", "a100-sxm4-40gb", "a100-sxm4-80gb", "a100-pcie-80gb", "a10",
		"h100-sxm", "h100-pcie", "h100-nvl", "h200-sxm", "l4", "l40", "l40s", "rtx-4090",
		"rtx-3090", "t4"};
	size_t i;

	ck_assert_uint_ge(rl_hwdb_device_count(db), 14);
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		struct rl_err err = {0, ""};
		const struct rl_device *d = rl_hwdb_find_device(db, ids[i], &err);

		ck_assert_msg(d != NULL, "%s", err.msg);
		ck_assert_str_eq(d->id, ids[i]);
	}
	for (i = 0; i < rl_hwdb_device_count(db); i++) {
		const struct rl_device *d = rl_hwdb_device(db, i);
		const char *base = strrchr(d->path, '/') + 1;

		/* the file is named after its id */
		ck_assert_int_eq(strncmp(base, d->id, strlen(d->id)), 0);
		ck_assert_str_eq(base + strlen(d->id), ".device");
	}
}
END_TEST

START_TEST(test_aliases)
{
	struct rl_err err = {0, ""};
	const struct rl_device *d;

	d = rl_hwdb_find_device(db, "h200", &err);
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->id, "h200-sxm");
	d = rl_hwdb_find_device(db, "H100-SXM", &err);
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->id, "h100-sxm");
	ck_assert_ptr_null(rl_hwdb_find_device(db, "h300", &err));
	ck_assert_int_eq(err.code, RL_ERR_NOTFOUND);
	ck_assert_msg(strstr(err.msg, "h100") != NULL || strstr(err.msg, "h200") != NULL,
	              "no close ids in '%s'", err.msg);
}
END_TEST

/* Datasheet values, dense: a table entry that drifts or a sparse figure
 * slipping in fails here. */
static const struct {
	const char *id;
	enum rl_hw_key key;
	double want;
} datasheet[] = {
	{"a100-sxm4-40gb", (enum rl_hw_key)RL_PIPE_FP32_VECTOR, 19.5},
	{"a100-sxm4-40gb", (enum rl_hw_key)RL_PIPE_BF16_TENSOR, 312},
	{"a100-sxm4-40gb", RL_HW_MEM_BANDWIDTH_GBS, 1555},
	{"h100-sxm", (enum rl_hw_key)RL_PIPE_BF16_TENSOR, 989.4},
	{"h100-sxm", (enum rl_hw_key)RL_PIPE_FP8_TENSOR, 1978.9},
	{"h100-sxm", RL_HW_MEM_BANDWIDTH_GBS, 3350},
	{"h100-sxm", RL_HW_TENSOR_CLOCK_MHZ, 1830},
	{"h200-sxm", RL_HW_MEM_BANDWIDTH_GBS, 4800},
	{"h200-sxm", (enum rl_hw_key)RL_PIPE_BF16_TENSOR, 989.4},
	{"h100-pcie", RL_HW_SM_COUNT, 114},
	{"v100-sxm2", (enum rl_hw_key)RL_PIPE_FP16_TENSOR, 125},
	{"t4", (enum rl_hw_key)RL_PIPE_FP32_VECTOR, 8.1},
	/* measured, not datasheet: the median of gpu-benches gpu-l2-cache rows
	 * with 4 MB to half the L2 of data, worked out from the result files
	 * (h200.txt: 26 rows, middle two 9916.7 and 9920.3; h100_pcie.txt: 21
	 * rows, the 11th 6946.6; a100_80.txt: 21 rows, the 11th 5405.0) */
	{"h200-sxm", RL_HW_L2_BANDWIDTH_GBS, 9918.5},
	{"h100-pcie", RL_HW_L2_BANDWIDTH_GBS, 6946.6},
	{"a100-sxm4-80gb", RL_HW_L2_BANDWIDTH_GBS, 5405},
	{"a100-pcie-80gb", RL_HW_L2_BANDWIDTH_GBS, 5405},
};

START_TEST(test_datasheet_values)
{
	const struct rl_device *d = rl_hwdb_find_device(db, datasheet[_i].id, NULL);

	ck_assert_ptr_nonnull(d);
	ck_assert_msg(d->num[datasheet[_i].key].present, "%s lacks %s", datasheet[_i].id,
	              rl_hw_key_name(datasheet[_i].key));
	ck_assert_double_eq_tol(d->num[datasheet[_i].key].value, datasheet[_i].want, 1e-9);
}
END_TEST

/* FP32 lanes per SM by architecture (CUDA C Programming Guide, arithmetic
 * instruction throughput: 64 on Volta, Turing and GA100; 128 on GA10x, Ada,
 * Hopper and Blackwell). */
static int fp32_lanes(const struct rl_device *d)
{
	double cc = d->num[RL_HW_COMPUTE_CAPABILITY].value;

	if (cc == 7.0 || cc == 7.5 || cc == 8.0)
		return 64;
	return 128;
}

START_TEST(test_fp32_formula)
{
	size_t i;

	for (i = 0; i < rl_hwdb_device_count(db); i++) {
		const struct rl_device *d = rl_hwdb_device(db, i);
		double want;

		if (!d->num[RL_HW_COMPUTE_CAPABILITY].present || !d->num[RL_HW_BOOST_CLOCK_MHZ].present)
			continue; /* NVIDIA only */
		want = d->num[RL_HW_SM_COUNT].value * fp32_lanes(d) * 2 *
		       d->num[RL_HW_BOOST_CLOCK_MHZ].value * 1e6 / 1e12;
		if (d->datasheet[RL_PIPE_FP32_VECTOR].present) {
			/* calibrated: the datasheet figure beside follows the formula,
			 * and no measurement beats it */
			ck_assert_msg(fabs(d->datasheet[RL_PIPE_FP32_VECTOR].value / want - 1) < 0.03,
			              "%s: datasheet fp32 %.1f TFLOPS, formula %.1f", d->id,
			              d->datasheet[RL_PIPE_FP32_VECTOR].value, want);
			ck_assert_msg(d->num[RL_PIPE_FP32_VECTOR].value <= want,
			              "%s: measured fp32 %.1f TFLOPS above the formula's %.1f", d->id,
			              d->num[RL_PIPE_FP32_VECTOR].value, want);
			continue;
		}
		ck_assert_msg(fabs(d->num[RL_PIPE_FP32_VECTOR].value / want - 1) < 0.03,
		              "%s: fp32 %.1f TFLOPS, formula %.1f", d->id,
		              d->num[RL_PIPE_FP32_VECTOR].value, want);
	}
}
END_TEST

/* An L2 bandwidth is a measurement: only the devices with a published one
 * have it, and an L2 is faster than the memory behind it, by less than an
 * order of magnitude on every GPU measured (gpu-benches: 2.0x to 3.5x). */
START_TEST(test_l2_bandwidth)
{
	static const char *const without[] = {"h100-sxm", "b200", "a100-sxm4-40gb", "l40s", "t4"};
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(without); i++) {
		const struct rl_device *d = rl_hwdb_find_device(db, without[i], NULL);

		ck_assert_ptr_nonnull(d);
		ck_assert_msg(!d->num[RL_HW_L2_BANDWIDTH_GBS].present, "%s has l2_bandwidth_gbs",
		              d->id);
	}
	for (i = 0; i < rl_hwdb_device_count(db); i++) {
		const struct rl_device *d = rl_hwdb_device(db, i);
		double l2 = d->num[RL_HW_L2_BANDWIDTH_GBS].value;
		double mem = d->num[RL_HW_MEM_BANDWIDTH_GBS].value;

		if (!d->num[RL_HW_L2_BANDWIDTH_GBS].present)
			continue;
		n++;
		ck_assert_msg(l2 > mem && l2 < 10 * mem, "%s: L2 %g GB/s, memory %g GB/s", d->id,
		              l2, mem);
		/* a published measurement, or this project's own (calibrate) */
		ck_assert_msg(strstr(d->num[RL_HW_L2_BANDWIDTH_GBS].source, "gpu-l2-cache") != NULL ||
		                  strncmp(d->num[RL_HW_L2_BANDWIDTH_GBS].source,
		                          "measured by roofline bench", 26) == 0,
		              "%s: l2_bandwidth_gbs source '%s'", d->id,
		              d->num[RL_HW_L2_BANDWIDTH_GBS].source);
	}
	ck_assert_uint_eq(n, 5); /* 4 published, and h200-sxm-measured */
}
END_TEST

START_TEST(test_every_number_has_a_source)
{
	size_t i, k;

	for (i = 0; i < rl_hwdb_device_count(db); i++) {
		const struct rl_device *d = rl_hwdb_device(db, i);

		for (k = 0; k < RL_HW_NUM_COUNT; k++)
			if (d->num[k].present)
				ck_assert_msg(d->num[k].source && strlen(d->num[k].source) > 10,
				              "%s: %s has no real source", d->id,
				              rl_hw_key_name((enum rl_hw_key)k));
	}
	/* labels are expanded: the H100 bandwidth cites the product page */
	{
		const struct rl_device *d = rl_hwdb_find_device(db, "h100-sxm", NULL);

		ck_assert_ptr_nonnull(strstr(d->num[RL_HW_MEM_BANDWIDTH_GBS].source, "nvidia.com"));
	}
}
END_TEST

START_TEST(test_runtimes)
{
	const struct rl_runtime *eager = rl_hwdb_find_runtime(db, "eager", NULL);
	const struct rl_runtime *graph = rl_hwdb_find_runtime(db, "graph", NULL);
	const struct rl_runtime *cpp = rl_hwdb_find_runtime(db, "cpp", NULL);
	struct rl_err err = {0, ""};

	ck_assert_ptr_nonnull(eager);
	ck_assert_ptr_nonnull(graph);
	ck_assert_ptr_nonnull(cpp);
	/* a graph replay costs the host less per kernel than a C++ launch, which
	 * costs less than Python + PyTorch dispatch */
	ck_assert_double_lt(graph->host_overhead_us.value, cpp->host_overhead_us.value);
	ck_assert_double_lt(cpp->host_overhead_us.value, eager->host_overhead_us.value);
	ck_assert_ptr_null(rl_hwdb_find_runtime(db, "jax", &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "eager"));
}
END_TEST

/* Bad device files, written to a temporary file. */
static const struct {
	const char *text;
	const char *msg;
} bad_files[] = {
	{"id = x\nname = X\nsm_count = 10\n", "needs its source"},
	{"id = x\nname = X\nsm_count = 10 ; s\nbogus_key = 1 ; s\n", "unknown key 'bogus_key'"},
	{"id = x\nname = X\nsm_count = -10 ; s\n", "negative"},
	{"id = x\nname = X\nsm_count = nan ; s\n", "not a number"},
	{"id = x\nname = X\nsm_count = 10 ; s\nsm_count = 11 ; s\n", "given twice"},
	{"id = x\nname = X\nl2_bandwidth_gbs = 9000\n", "key 'l2_bandwidth_gbs': a number needs its source"},
	{"id = x\nname = X\nl2_bandwidth_gbs = -1 ; s\n", "key 'l2_bandwidth_gbs': "},
	{"id = x\nname = X\nsm_count = 10 ; s\n", "mem_bandwidth_gbs' is required"},
	{"name = X\n", "missing key 'id'"},
	{"id = x\nthis line has no equals sign\n", "expected 'key = value'"},
	/* issue 11, bug 12: figures outside the ranges of docs/hwdb-format.md */
	{"id = x\nname = X\nsm_count = 10 ; s\nmem_bandwidth_gbs = 1e308 ; s\n",
	 ":4: key 'mem_bandwidth_gbs': 1e+308 GB/s is outside the sensible range 0.001..1e+07 GB/s"},
	{"id = x\nname = X\nmem_bandwidth_gbs = 1e-300 ; s\n",
	 ":3: key 'mem_bandwidth_gbs': 1e-300 GB/s is outside"},
	{"id = x\nname = X\nfp32_vector_tflops = 2e7 ; s\n",
	 "key 'fp32_vector_tflops': 2e+07 TFLOPS is outside the sensible range 1e-06..1e+07 TFLOPS"},
	{"id = x\nname = X\nbf16_tensor_tflops = 1e-7 ; s\n", "key 'bf16_tensor_tflops': 1e-07 TFLOPS"},
	{"id = x\nname = X\nmin_kernel_us = 1e-300 ; s\n", "key 'min_kernel_us': 1e-300 us is outside"},
	{"id = x\nname = X\nsm_count = 0.5 ; s\n", "key 'sm_count': 0.5 SMs is outside"},
	{"id = x\nname = X\nl2_bandwidth_gbs = 1e9 ; s\n", "key 'l2_bandwidth_gbs': 1e+09 GB/s"},
	{"id = x\nname = X\ndatasheet.mem_bandwidth_gbs = 1e30 ; s\n",
	 "key 'datasheet.mem_bandwidth_gbs': 1e+30 GB/s"},
	/* issue 12: the read-only and write-only bandwidths, as mem_bandwidth_gbs */
	{"id = x\nname = X\nmem_read_bandwidth_gbs = 2e7 ; s\n",
	 ":3: key 'mem_read_bandwidth_gbs': 2e+07 GB/s is outside the sensible range 0.001..1e+07 GB/s"},
	{"id = x\nname = X\nmem_write_bandwidth_gbs = 0 ; s\n",
	 ":3: key 'mem_write_bandwidth_gbs': 0 GB/s is outside the sensible range"},
	{"id = x\nname = X\nmem_write_bandwidth_gbs = 100\n",
	 "key 'mem_write_bandwidth_gbs': a number needs its source"},
	{"id = x\nname = X\ndatasheet.mem_read_bandwidth_gbs = 1e-4 ; s\n",
	 "key 'datasheet.mem_read_bandwidth_gbs': 0.0001 GB/s is outside"},
	{"id = x\nname = X\nsm_count = 10 ; s\nmem_bandwidth_gbs = 100 ; s\n"
	 "fp32_vector_tflops = 1 ; s\nmin_kernel_us = 1 ; s\ndatasheet.mem_read_bandwidth_gbs = 1 ; s\n",
	 "key 'datasheet.mem_read_bandwidth_gbs' is the datasheet figure kept beside a measured "
	 "'mem_read_bandwidth_gbs', which is missing"},
};

/* A runtime's host overhead is at most one second per launch (bug 3 of issue
 * 11 came from 1e25 us). */
static const struct {
	const char *value;
	int ok;
} host_overheads[] = {
	{"0", 1}, {"0.05", 1}, {"1e6", 1}, {"1000001", 0}, {"1e25", 0},
};

/* Writes TEXT to a new temporary file whose name goes to PATH (at least 32
 * bytes); the caller unlinks it. */
static void write_temp(char *path, const char *text)
{
	int fd;
	size_t n = strlen(text);

	strcpy(path, "/tmp/roofline-check-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, n), (ssize_t)n);
	close(fd);
}

START_TEST(test_bad_device_file)
{
	char path[32];
	struct rl_device d;
	struct rl_err err = {0, ""};

	write_temp(path, bad_files[_i].text);
	ck_assert_int_eq(rl_device_load(path, &d, &err), RL_ERR_PARSE);
	unlink(path);
	ck_assert_msg(strstr(err.msg, bad_files[_i].msg) != NULL, "'%s' lacks '%s'", err.msg,
	              bad_files[_i].msg);
	ck_assert_ptr_nonnull(strstr(err.msg, path));
}
END_TEST

START_TEST(test_runtime_host_overhead_range)
{
	char path[32], text[256];
	struct rl_runtime rt;
	struct rl_err err = {0, ""};
	int rc;

	snprintf(text, sizeof(text), "id = r\nname = R\nhost_overhead_us = %s ; s\n",
	         host_overheads[_i].value);
	write_temp(path, text);
	rc = rl_runtime_load(path, &rt, &err);
	unlink(path);
	if (host_overheads[_i].ok) {
		ck_assert_msg(rc == 0, "%s", err.msg);
		rl_runtime_release(&rt);
	} else {
		ck_assert_int_eq(rc, RL_ERR_PARSE);
		ck_assert_msg(strstr(err.msg, ":3: key 'host_overhead_us': ") != NULL &&
		                      strstr(err.msg, "is outside the sensible range 0..1e+06 us") != NULL,
		              "%s", err.msg);
	}
}
END_TEST

/* Issue 12: the read and write bandwidths load with their sources, and
 * --roofs datasheet drops a measured one that has no datasheet figure (the
 * datasheet's one bandwidth then applies to every mix). */
START_TEST(test_read_write_bandwidth)
{
	static const char text[] =
		"id = x\nname = X\nsm_count = 10 ; s\nmem_bandwidth_gbs = 100 ; m\n"
		"datasheet.mem_bandwidth_gbs = 120 ; ds\nmem_read_bandwidth_gbs = 110.5 ; r\n"
		"mem_write_bandwidth_gbs = 90 ; w\ndatasheet.mem_write_bandwidth_gbs = 95 ; wds\n"
		"fp32_vector_tflops = 1 ; s\nmin_kernel_us = 1 ; s\n";
	char path[32];
	struct rl_device d;
	struct rl_err err = {0, ""};

	write_temp(path, text);
	ck_assert_msg(rl_device_load(path, &d, &err) == 0, "%s", err.msg);
	unlink(path);
	ck_assert_int_eq(d.num[RL_HW_MEM_READ_BANDWIDTH_GBS].present, 1);
	ck_assert_double_eq(d.num[RL_HW_MEM_READ_BANDWIDTH_GBS].value, 110.5);
	ck_assert_str_eq(d.num[RL_HW_MEM_READ_BANDWIDTH_GBS].source, "r");
	ck_assert_double_eq(d.num[RL_HW_MEM_WRITE_BANDWIDTH_GBS].value, 90);
	ck_assert_double_eq(d.datasheet[RL_HW_MEM_WRITE_BANDWIDTH_GBS].value, 95);
	ck_assert_str_eq(rl_hw_key_name(RL_HW_MEM_READ_BANDWIDTH_GBS), "mem_read_bandwidth_gbs");
	ck_assert_str_eq(rl_hw_key_name(RL_HW_MEM_WRITE_BANDWIDTH_GBS), "mem_write_bandwidth_gbs");
	ck_assert_int_eq(rl_device_roofs(&d, RL_ROOFS_DATASHEET, &err), 0);
	ck_assert_double_eq(d.num[RL_HW_MEM_BANDWIDTH_GBS].value, 120);
	ck_assert_int_eq(d.num[RL_HW_MEM_READ_BANDWIDTH_GBS].present, 0); /* measured only */
	ck_assert_double_eq(d.num[RL_HW_MEM_WRITE_BANDWIDTH_GBS].value, 95);
	rl_device_release(&d);
}
END_TEST

/* Issue 12: a runtime's host cost per op kind, the default for the others. */
START_TEST(test_runtime_per_kind)
{
	static const char text[] = "id = r\nname = R\nhost_overhead_us = 6.6 ; m\n"
	                           "host_overhead_us.matmul = 13 ; mm\n"
	                           "host_overhead_us.attention = 18.5 ; sdpa\n"
	                           "host_overhead_us.custom = 0 ; c\n";
	char path[32];
	struct rl_runtime rt;
	struct rl_err err = {0, ""};

	write_temp(path, text);
	ck_assert_msg(rl_runtime_load(path, &rt, &err) == 0, "%s", err.msg);
	unlink(path);
	ck_assert_double_eq(rl_runtime_host_us(&rt, RL_KIND_MATMUL), 13);
	ck_assert_double_eq(rl_runtime_host_us(&rt, RL_KIND_ATTENTION), 18.5);
	ck_assert_double_eq(rl_runtime_host_us(&rt, RL_KIND_CUSTOM), 0);
	ck_assert_double_eq(rl_runtime_host_us(&rt, RL_KIND_POINTWISE), 6.6); /* the default */
	ck_assert_double_eq(rl_runtime_host_us(&rt, RL_KIND_FUSED), 6.6);
	ck_assert_str_eq(rt.host_kind_us[RL_KIND_MATMUL].source, "mm");
	ck_assert_str_eq(rt.host_kind_us[RL_KIND_MATMUL].text, "13");
	ck_assert_int_eq(rt.host_kind_us[RL_KIND_SOFTMAX].present, 0);
	/* a path without its own key costs its kind's */
	ck_assert_double_eq(rl_runtime_host_us(&rt, RL_HOST_MATMUL_FP8), 13);
	rl_runtime_release(&rt);
}
END_TEST

/* A runtime whose kernels are torch.compile's (compiled = 1): absent, 0 and
 * a NULL runtime are eager's. */
START_TEST(test_runtime_compiled)
{
	static const char *const texts[] = {
	        "id = r\nname = R\nhost_overhead_us = 0.05 ; m\ncompiled = 1 ; i\n",
	        "id = r\nname = R\nhost_overhead_us = 0.05 ; m\ncompiled = 0 ; i\n",
	        "id = r\nname = R\nhost_overhead_us = 0.05 ; m\n",
	};
	static const int want[] = {1, 0, 0};
	char path[32];
	struct rl_runtime rt;
	struct rl_err err = {0, ""};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		write_temp(path, texts[i]);
		ck_assert_msg(rl_runtime_load(path, &rt, &err) == 0, "%s", err.msg);
		unlink(path);
		ck_assert_int_eq(rl_runtime_compiled(&rt), want[i]);
		rl_runtime_release(&rt);
	}
	ck_assert_int_eq(rl_runtime_compiled(NULL), 0);
}
END_TEST

/* Issue 26: a path of a kind with its own host cost (torch._scaled_mm), its
 * name, and the kind it refines. */
START_TEST(test_runtime_host_path)
{
	static const char text[] = "id = r\nname = R\nhost_overhead_us = 6.6 ; m\n"
	                           "host_overhead_us.matmul.fp8 = 43.25 ; q\n";
	char path[32];
	struct rl_runtime rt;
	struct rl_err err = {0, ""};
	struct rl_op op;
	int k = -1;

	write_temp(path, text);
	ck_assert_msg(rl_runtime_load(path, &rt, &err) == 0, "%s", err.msg);
	unlink(path);
	ck_assert_double_eq(rl_runtime_host_us(&rt, RL_HOST_MATMUL_FP8), 43.25);
	ck_assert_double_eq(rl_runtime_host_us(&rt, RL_KIND_MATMUL), 6.6); /* the default */
	ck_assert_str_eq(rt.host_kind_us[RL_HOST_MATMUL_FP8].source, "q");
	rl_runtime_release(&rt);

	ck_assert_str_eq(rl_host_key_name(RL_HOST_MATMUL_FP8), "matmul.fp8");
	ck_assert_str_eq(rl_host_key_name(RL_KIND_SOFTMAX), "softmax");
	ck_assert_ptr_null(rl_host_key_name(RL_HOST_KEY_COUNT));
	ck_assert_int_eq(rl_host_key_parse("matmul.fp8", &k), 0);
	ck_assert_int_eq(k, RL_HOST_MATMUL_FP8);
	ck_assert_int_eq(rl_host_key_parse("matmul.fp4", &k), RL_ERR_PARSE);
	ck_assert_int_eq(rl_host_key_kind(RL_HOST_MATMUL_FP8), RL_KIND_MATMUL);
	rl_op_init(&op);
	op.kind = RL_KIND_MATMUL;
	op.dtype = RL_FP8E5M2;
	ck_assert_int_eq(rl_op_host_key(&op), RL_HOST_MATMUL_FP8);
	op.dtype = RL_INT8; /* torch._int_mm: matmul's */
	ck_assert_int_eq(rl_op_host_key(&op), RL_KIND_MATMUL);
	op.kind = RL_KIND_CONV2D;
	op.dtype = RL_FP8E4M3;
	ck_assert_int_eq(rl_op_host_key(&op), RL_KIND_CONV2D);
}
END_TEST

/* Bad per-kind keys: an unknown kind (fused is no op kind of a list), the
 * range of host_overhead_us, a duplicate, and host_overhead_us still required. */
static const struct {
	const char *text;
	const char *msg;
} bad_runtimes[] = {
	{"id = r\nname = R\nhost_overhead_us = 5 ; s\nhost_overhead_us.gemm = 12 ; s\n",
	 ":4: unknown key 'host_overhead_us.gemm' (expected host_overhead_us.KIND, KIND one of "
	 "pointwise, reduction, softmax, layernorm, matmul, conv2d, attention, copy, "
	 "embedding, allreduce, allgather, reducescatter, alltoall, broadcast, sendrecv, custom, or "
	 "host_overhead_us.matmul.fp8)"},
	{"id = r\nname = R\nhost_overhead_us = 5 ; s\nhost_overhead_us.fused = 5 ; s\n",
	 "unknown key 'host_overhead_us.fused'"},
	{"id = r\nname = R\nhost_overhead_us = 5 ; s\nhost_overhead_us. = 5 ; s\n",
	 "unknown key 'host_overhead_us.'"},
	{"id = r\nname = R\nhost_overhead_us = 5 ; s\nhost_overhead_usmatmul = 5 ; s\n",
	 "unknown key 'host_overhead_usmatmul'"},
	{"id = r\nname = R\nhost_overhead_us = 5 ; s\nhost_overhead_us.matmul = 2e6 ; s\n",
	 ":4: key 'host_overhead_us.matmul': 2e+06 us is outside the sensible range 0..1e+06 us"},
	{"id = r\nname = R\nhost_overhead_us = 5 ; s\nhost_overhead_us.copy = -1 ; s\n",
	 "key 'host_overhead_us.copy': "},
	{"id = r\nname = R\nhost_overhead_us = 5 ; s\nhost_overhead_us.copy = 1\n",
	 "key 'host_overhead_us.copy': a number needs its source"},
	{"id = r\nname = R\nhost_overhead_us.copy = 1 ; s\nhost_overhead_us.copy = 2 ; s\n",
	 "key 'host_overhead_us.copy' given twice"},
	{"id = r\nname = R\nhost_overhead_us.matmul = 12 ; s\n",
	 "a runtime needs 'id', 'name' and 'host_overhead_us'"},
	{"id = r\nname = R\nhost_overhead_us = 5 ; s\ncompiled = 2 ; s\n",
	 ":4: key 'compiled': '2' is not 0 or 1"},
	{"id = r\nname = R\nhost_overhead_us = 5 ; s\ncompiled = 1\n",
	 "key 'compiled': a number needs its source"},
	{"id = r\nname = R\nhost_overhead_us = 5 ; s\ncompiled = yes ; s\n", "key 'compiled'"},
};

START_TEST(test_bad_runtime_per_kind)
{
	char path[32];
	struct rl_runtime rt;
	struct rl_err err = {0, ""};

	write_temp(path, bad_runtimes[_i].text);
	ck_assert_int_eq(rl_runtime_load(path, &rt, &err), RL_ERR_PARSE);
	unlink(path);
	ck_assert_msg(strstr(err.msg, bad_runtimes[_i].msg) != NULL, "'%s' lacks '%s'", err.msg,
	              bad_runtimes[_i].msg);
}
END_TEST

/* Source labels expand at the start and inside the source text. */
START_TEST(test_source_labels)
{
	static const char text[] =
		"source a = Alpha sheet\nsource b = Beta page\n"
		"id = x\nname = X\nsm_count = 10 ; a: p. 3, b: table 2 (b: again), ab: not a label\n"
		"mem_bandwidth_gbs = 100 ; a\nfp32_vector_tflops = 1 ; measured: by hand\n"
		"min_kernel_us = 1 ; a, b\n";
	char path[32];
	struct rl_device d;
	struct rl_err err = {0, ""};

	write_temp(path, text);
	ck_assert_msg(rl_device_load(path, &d, &err) == 0, "%s", err.msg);
	unlink(path);
	ck_assert_str_eq(d.num[RL_HW_SM_COUNT].source,
	                 "Alpha sheet: p. 3, Beta page: table 2 (Beta page: again), ab: not a label");
	ck_assert_str_eq(d.num[RL_HW_MEM_BANDWIDTH_GBS].source, "Alpha sheet");
	ck_assert_str_eq(d.num[RL_HW_MIN_KERNEL_US].source, "Alpha sheet, b");
	ck_assert_str_eq(d.num[RL_PIPE_FP32_VECTOR].source, "measured: by hand");
	rl_device_release(&d);
}
END_TEST

START_TEST(test_missing_dir)
{
	rl_hwdb *none = NULL;
	struct rl_err err = {0, ""};

	ck_assert_int_eq(rl_hwdb_open("/nonexistent/hwdb", &none, &err), RL_ERR_IO);
	ck_assert_ptr_null(none);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/hwdb"));
}
END_TEST

/* --roofs takes "measured" or "datasheet"; anything else is a bad argument
 * (RL_ERR_ARG), not the -1 that reads as RL_ERR_NOMEM. */
START_TEST(test_roofs_parse)
{
	enum rl_roofs r;

	ck_assert_int_eq(rl_roofs_parse("best", &r), RL_ERR_ARG);
	ck_assert_int_eq(rl_roofs_parse("datasheet", &r), 0);
	ck_assert_int_eq(r, RL_ROOFS_DATASHEET);
}
END_TEST

/* A line of RL_KV_LINE_MAX bytes is read; one byte more is refused with the
 * file and line, before the reader holds more than that (issue 11, 7). */
START_TEST(test_line_cap)
{
	static const char head[] = "id = x\nsm_count = 1 ; a\nmem_bandwidth_gbs = 1 ; a\n"
	                           "fp32_vector_tflops = 1 ; a\nmin_kernel_us = 1 ; a\n";
	size_t len = 65536; /* "name = " and the name: the whole line */
	char *text = malloc(sizeof(head) + len + 2), path[32];
	struct rl_device d;
	struct rl_err err = {0, ""};

	ck_assert_ptr_nonnull(text);
	memcpy(text, head, sizeof(head) - 1);
	memcpy(text + sizeof(head) - 1, "name = ", 7);
	memset(text + sizeof(head) - 1 + 7, 'n', len - 7);
	strcpy(text + sizeof(head) - 1 + len, "\n");
	write_temp(path, text);
	ck_assert_msg(rl_device_load(path, &d, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(strlen(d.name), len - 7);
	rl_device_release(&d);
	unlink(path);

	memset(text + sizeof(head) - 1 + 7, 'n', len - 6);
	strcpy(text + sizeof(head) - 1 + len + 1, "\n");
	write_temp(path, text);
	ck_assert_int_eq(rl_device_load(path, &d, &err), RL_ERR_PARSE);
	unlink(path);
	ck_assert_msg(strstr(err.msg, ":6: line longer than 65536 bytes") != NULL, "%s", err.msg);
	free(text);
}
END_TEST

/* /dev/zero never ends: refused at once, not read until memory runs out. */
START_TEST(test_endless_file)
{
	struct rl_device d;
	struct rl_runtime rt;
	struct rl_err err = {0, ""};

	ck_assert_int_eq(rl_device_load("/dev/zero", &d, &err), RL_ERR_IO);
	ck_assert_str_eq(err.msg, "cannot read '/dev/zero': not a regular file");
	ck_assert_int_eq(rl_runtime_load("/dev/zero", &rt, &err), RL_ERR_IO);
	ck_assert_int_eq(rl_device_load("/", &d, &err), RL_ERR_IO);
	ck_assert_str_eq(err.msg, "cannot read '/': is a directory");
}
END_TEST

/* A database directory with a device, and beside it a fifo, a directory and
 * a dangling link named like database files: the scan skips those three
 * without opening them (a fifo's open waited for a writer forever, issue
 * 21; Check's 4 s timeout fails a regression), and the efficiency scan, with
 * nothing but such entries, finds no profile. A fifo named on its own opens
 * at once and, with no writer, reads as an empty file. */
START_TEST(test_scan_skips_non_files)
{
	static const char dev[] = "id = x\nname = X\nsm_count = 1 ; a\nmem_bandwidth_gbs = 1 ; a\n"
	                          "fp32_vector_tflops = 1 ; a\nmin_kernel_us = 1 ; a\n";
	char dir[] = "/tmp/check_hwdb_scan_XXXXXX", path[256], *p;
	static const char *const names[] = {"fifo.device", "fifo.runtime", "fifo.system",
	                                    "fifo.efficiency", "dir.device", "dir.efficiency",
	                                    "dangling.device", "x.device"};
	struct rl_err err = {0, ""};
	struct rl_effprof ep;
	struct rl_device d;
	rl_hwdb *scan;
	FILE *f;
	size_t i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		ck_assert_int_eq(mkfifo(path, 0600), 0);
	}
	for (i = 4; i < 6; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		ck_assert_int_eq(mkdir(path, 0700), 0);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, names[6]);
	ck_assert_int_eq(symlink("nowhere.device", path), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, names[7]);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(dev, f);
	fclose(f);

	ck_assert_int_eq(rl_kv_scan_entry(dir, "x.device", &p, &err), 1);
	ck_assert_str_eq(p, path);
	free(p);
	for (i = 0; i < 7; i++) {
		ck_assert_int_eq(rl_kv_scan_entry(dir, names[i], &p, &err), 0);
		ck_assert_ptr_null(p);
	}
	ck_assert_msg(rl_hwdb_open(dir, &scan, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(rl_hwdb_device_count(scan), 1);
	ck_assert_uint_eq(rl_hwdb_runtime_count(scan), 0);
	ck_assert_uint_eq(rl_hwdb_system_count(scan), 0);
	ck_assert_int_eq(rl_effprof_pick(dir, rl_hwdb_device(scan, 0), &ep, &err), RL_EP_NONE);
	rl_hwdb_free(scan);

	snprintf(path, sizeof(path), "%s/fifo.device", dir);
	ck_assert_int_eq(rl_device_load(path, &d, &err), RL_ERR_PARSE);
	ck_assert_msg(strstr(err.msg, "fifo.device: missing key 'id'") != NULL, "%s", err.msg);

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		ck_assert_int_eq(i == 4 || i == 5 ? rmdir(path) : unlink(path), 0);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *suite_hwdb(void)
{
	Suite *s = suite_create("hwdb");
	TCase *data = tcase_create("data");
	TCase *errors = tcase_create("errors");

	tcase_add_checked_fixture(data, setup, teardown);
	tcase_add_test(data, test_required_devices);
	tcase_add_test(data, test_aliases);
	tcase_add_loop_test(data, test_datasheet_values, 0, ARRAY_SIZE(datasheet));
	tcase_add_test(data, test_fp32_formula);
	tcase_add_test(data, test_l2_bandwidth);
	tcase_add_test(data, test_every_number_has_a_source);
	tcase_add_test(data, test_runtimes);
	tcase_add_loop_test(errors, test_bad_device_file, 0, ARRAY_SIZE(bad_files));
	tcase_add_test(errors, test_missing_dir);
	tcase_add_loop_test(errors, test_runtime_host_overhead_range, 0, ARRAY_SIZE(host_overheads));
	tcase_add_test(errors, test_source_labels);
	tcase_add_test(errors, test_read_write_bandwidth);
	tcase_add_test(errors, test_runtime_per_kind);
	tcase_add_test(errors, test_runtime_host_path);
	tcase_add_test(errors, test_runtime_compiled);
	tcase_add_loop_test(errors, test_bad_runtime_per_kind, 0, ARRAY_SIZE(bad_runtimes));
	tcase_add_test(errors, test_roofs_parse);
	tcase_add_test(errors, test_line_cap);
	tcase_add_test(errors, test_endless_file);
	tcase_add_test(errors, test_scan_skips_non_files);
	suite_add_tcase(s, data);
	suite_add_tcase(s, errors);
	return s;
}
