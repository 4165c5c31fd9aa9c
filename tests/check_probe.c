/* check_probe.c - the probe: attribute sets, per-architecture rates, the
 * derived entry against datasheets, the match and cross-check, and writing a
 * device file. Expected figures are the vendors' datasheet numbers (dense
 * tensor figures: half the "with sparsity" ones), typed in here. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "xcheck.h"
#include "gpu.h"
#include "probe.h"
#include "probe_report.h"

static void load_attrs(const char *name, struct rl_gpu *g)
{
	char path[1024];
	struct rl_err err;

	snprintf(path, sizeof(path), "%s/gpu/%s.attrs", RL_TEST_DATA, name);
	err.msg[0] = '\0';
	ck_assert_msg(rl_gpu_load(path, g, &err) == 0, "loading %s: %s", path, err.msg);
}

static void derive(const struct rl_gpu *g, struct rl_device *d, int *assumed)
{
	struct rl_err err;
	const struct rl_arch *a;

	err.msg[0] = '\0';
	ck_assert_msg(rl_probe_derive(g, NULL, d, &a, assumed, &err) == 0, "%s", err.msg);
	ck_assert_ptr_nonnull(a);
}

#define KEY(pipe) ((enum rl_hw_key)(pipe))

/* Within 2 % of the datasheet. */
static void near(const struct rl_device *d, enum rl_hw_key k, double want, const char *what)
{
	double got = d->num[k].value;

	ck_assert_msg(d->num[k].present, "%s: %s missing", what, rl_hw_key_name(k));
	ck_assert_msg(got > 0.98 * want && got < 1.02 * want, "%s: %s = %g, datasheet %g", what,
	              rl_hw_key_name(k), got, want);
}

static const struct datasheet {
	const char *attrs;
	enum rl_hw_key key;
	double value;
} datasheets[] = {
	/* NVIDIA H200 product page, H200 SXM; H100 whitepaper v1.03 for the
	 * figures the page rounds. 141 GB is binary: 144 GiB x 6016/6144. */
	{"h200", RL_HW_SM_COUNT, 132},
	{"h200", RL_HW_MEM_BANDWIDTH_GBS, 4800},
	{"h200", RL_HW_MEMORY_GIB, 141},
	{"h200", KEY(RL_PIPE_FP64_VECTOR), 33.5},
	{"h200", KEY(RL_PIPE_FP64_TENSOR), 66.9},
	{"h200", KEY(RL_PIPE_FP32_VECTOR), 66.9},
	{"h200", KEY(RL_PIPE_FP16_VECTOR), 133.8},
	{"h200", KEY(RL_PIPE_TF32_TENSOR), 989.0 / 2},
	{"h200", KEY(RL_PIPE_BF16_TENSOR), 1979.0 / 2},
	{"h200", KEY(RL_PIPE_FP16_TENSOR), 1979.0 / 2},
	{"h200", KEY(RL_PIPE_FP8_TENSOR), 3958.0 / 2},
	{"h200", KEY(RL_PIPE_INT8_TENSOR), 3958.0 / 2},
	{"h200", RL_HW_TENSOR_CLOCK_MHZ, 1830},
	/* NVIDIA A100 datasheet, A100 40GB SXM column. */
	{"a100-sxm4-40gb", RL_HW_SM_COUNT, 108},
	{"a100-sxm4-40gb", RL_HW_MEM_BANDWIDTH_GBS, 1555},
	{"a100-sxm4-40gb", RL_HW_MEMORY_GIB, 40},
	{"a100-sxm4-40gb", RL_HW_L2_MIB, 40},
	{"a100-sxm4-40gb", KEY(RL_PIPE_FP64_VECTOR), 9.7},
	{"a100-sxm4-40gb", KEY(RL_PIPE_FP64_TENSOR), 19.5},
	{"a100-sxm4-40gb", KEY(RL_PIPE_FP32_VECTOR), 19.5},
	{"a100-sxm4-40gb", KEY(RL_PIPE_FP16_VECTOR), 78},
	{"a100-sxm4-40gb", KEY(RL_PIPE_BF16_VECTOR), 39},
	{"a100-sxm4-40gb", KEY(RL_PIPE_TF32_TENSOR), 312.0 / 2},
	{"a100-sxm4-40gb", KEY(RL_PIPE_BF16_TENSOR), 624.0 / 2},
	{"a100-sxm4-40gb", KEY(RL_PIPE_FP16_TENSOR), 624.0 / 2},
	{"a100-sxm4-40gb", KEY(RL_PIPE_INT8_TENSOR), 1248.0 / 2},
	/* NVIDIA V100 datasheet, SXM2 column; Volta whitepaper (6 MB L2). */
	{"v100-sxm2-16gb", RL_HW_SM_COUNT, 80},
	{"v100-sxm2-16gb", RL_HW_MEM_BANDWIDTH_GBS, 900},
	{"v100-sxm2-16gb", RL_HW_MEMORY_GIB, 16},
	{"v100-sxm2-16gb", RL_HW_L2_MIB, 6},
	{"v100-sxm2-16gb", KEY(RL_PIPE_FP64_VECTOR), 7.8},
	{"v100-sxm2-16gb", KEY(RL_PIPE_FP32_VECTOR), 15.7},
	{"v100-sxm2-16gb", KEY(RL_PIPE_FP16_TENSOR), 125},
};

START_TEST(test_recorded_sets_match_datasheets)
{
	const struct datasheet *ds = &datasheets[_i];
	struct rl_gpu g;
	struct rl_device d;
	int assumed;

	load_attrs(ds->attrs, &g);
	derive(&g, &d, &assumed);
	ck_assert_int_eq(assumed, 0);
	near(&d, ds->key, ds->value, ds->attrs);
	rl_device_release(&d);
}
END_TEST

START_TEST(test_absent_pipes)
{
	struct rl_gpu g;
	struct rl_device d;
	int assumed;

	/* Volta has no BF16, TF32 or INT8 tensor math; A100 no FP8. */
	load_attrs("v100-sxm2-16gb", &g);
	derive(&g, &d, &assumed);
	ck_assert(!d.num[RL_PIPE_BF16_TENSOR].present);
	ck_assert(!d.num[RL_PIPE_TF32_TENSOR].present);
	ck_assert(!d.num[RL_PIPE_INT8_TENSOR].present);
	ck_assert(!d.num[RL_PIPE_BF16_VECTOR].present);
	rl_device_release(&d);
	load_attrs("a100-sxm4-40gb", &g);
	derive(&g, &d, &assumed);
	ck_assert(!d.num[RL_PIPE_FP8_TENSOR].present);
	ck_assert_str_eq(d.arch, "ampere");
	ck_assert_str_eq(d.id, "a100-sxm4-40gb-probe");
	rl_device_release(&d);
}
END_TEST

/* Cards without a recording: name, compute capability, SMs and boost clock as
 * the runtime reports them, against one published peak each. */
static const struct card {
	const char *name;
	int major, minor, sms, mhz;
	enum rl_pipe pipe;
	double tflops;
} cards[] = {
	{"Tesla T4", 7, 5, 40, 1590, RL_PIPE_FP16_TENSOR, 65},      /* T4 datasheet */
	{"Tesla T4", 7, 5, 40, 1590, RL_PIPE_INT8_TENSOR, 130},
	{"Tesla T4", 7, 5, 40, 1590, RL_PIPE_FP32_VECTOR, 8.1},
	{"NVIDIA A10", 8, 6, 72, 1695, RL_PIPE_BF16_TENSOR, 125},   /* A10 datasheet */
	{"NVIDIA A10", 8, 6, 72, 1695, RL_PIPE_TF32_TENSOR, 62.5},
	{"NVIDIA A10", 8, 6, 72, 1695, RL_PIPE_FP32_VECTOR, 31.2},
	{"NVIDIA GeForce RTX 3090", 8, 6, 82, 1695, RL_PIPE_FP16_TENSOR, 71}, /* GA102 wp */
	{"NVIDIA GeForce RTX 3090", 8, 6, 82, 1695, RL_PIPE_INT8_TENSOR, 284},
	{"NVIDIA GeForce RTX 3090", 8, 6, 82, 1695, RL_PIPE_FP32_VECTOR, 35.6},
	{"NVIDIA L4", 8, 9, 58, 2040, RL_PIPE_FP16_TENSOR, 242.0 / 2}, /* L4 datasheet */
	{"NVIDIA L4", 8, 9, 58, 2040, RL_PIPE_FP8_TENSOR, 485.0 / 2},
	{"NVIDIA L4", 8, 9, 58, 2040, RL_PIPE_FP32_VECTOR, 30.3},
	{"NVIDIA L40S", 8, 9, 142, 2520, RL_PIPE_BF16_TENSOR, 362.05}, /* L40S datasheet */
	{"NVIDIA L40S", 8, 9, 142, 2520, RL_PIPE_FP8_TENSOR, 1466.0 / 2},
	{"NVIDIA L40S", 8, 9, 142, 2520, RL_PIPE_FP32_VECTOR, 91.6},
	{"NVIDIA GeForce RTX 4090", 8, 9, 128, 2520, RL_PIPE_FP16_TENSOR, 165.2}, /* Ada wp */
	{"NVIDIA GeForce RTX 4090", 8, 9, 128, 2520, RL_PIPE_FP8_TENSOR, 330.3},
	{"NVIDIA GeForce RTX 4090", 8, 9, 128, 2520, RL_PIPE_INT8_TENSOR, 660.6},
	{"NVIDIA GeForce RTX 4090", 8, 9, 128, 2520, RL_PIPE_FP32_VECTOR, 82.6},
	{"NVIDIA H100 PCIe", 9, 0, 114, 1755, RL_PIPE_BF16_TENSOR, 1513.0 / 2}, /* H100 page */
	{"NVIDIA H100 PCIe", 9, 0, 114, 1755, RL_PIPE_FP8_TENSOR, 3026.0 / 2},
	{"NVIDIA H100 PCIe", 9, 0, 114, 1755, RL_PIPE_FP32_VECTOR, 51.2},
	{"NVIDIA B200", 10, 0, 148, 1965, RL_PIPE_BF16_TENSOR, 4500.0 / 2}, /* HGX B200 */
	{"NVIDIA B200", 10, 0, 148, 1965, RL_PIPE_FP8_TENSOR, 9000.0 / 2},
	{"NVIDIA B200", 10, 0, 148, 1965, RL_PIPE_FP32_VECTOR, 75},
};

static void card_gpu(const struct card *c, struct rl_gpu *g)
{
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", c->name);
	g->cc_major = c->major;
	g->cc_minor = c->minor;
	g->sm_count = c->sms;
	g->clock_khz = c->mhz * 1000;
}

START_TEST(test_rate_table_against_datasheets)
{
	const struct card *c = &cards[_i];
	struct rl_gpu g;
	struct rl_device d;
	int assumed;

	card_gpu(c, &g);
	derive(&g, &d, &assumed);
	ck_assert_int_eq(assumed, 0);
	near(&d, KEY(c->pipe), c->tflops, c->name);
	rl_device_release(&d);
}
END_TEST

START_TEST(test_unknown_architectures)
{
	struct card newer = {"NVIDIA GeForce RTX 5090", 12, 0, 170, 2407, RL_PIPE_FP32_VECTOR, 0};
	struct card older = {"Tesla P100-SXM2-16GB", 6, 0, 56, 1480, RL_PIPE_FP32_VECTOR, 0};
	struct rl_gpu g;
	struct rl_device d;
	struct rl_err err;
	int assumed;

	/* Newer than the table: the newest older row, said to be assumed. */
	card_gpu(&newer, &g);
	derive(&g, &d, &assumed);
	ck_assert_int_eq(assumed, 1);
	ck_assert_str_eq(d.arch, "blackwell");
	rl_device_release(&d);
	/* Older than Volta: refused. */
	card_gpu(&older, &g);
	ck_assert_int_eq(rl_probe_derive(&g, NULL, &d, NULL, NULL, &err), RL_ERR_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.msg, "6.0"));
}
END_TEST

static rl_hwdb *open_db(void)
{
	rl_hwdb *db;
	struct rl_err err;

	ck_assert_msg(rl_hwdb_open(RL_TEST_HWDB, &db, &err) == 0, "%s", err.msg);
	return db;
}

static const struct match_case {
	const char *name;
	int sms;
	double gib;
	const char *want; /* NULL: no entry */
} matches[] = {
	{"NVIDIA H200", 132, 139.8, "h200-sxm"},
	{"NVIDIA A100-SXM4-40GB", 108, 39.5, "a100-sxm4-40gb"},
	{"NVIDIA A100-SXM4-80GB", 108, 79.2, "a100-sxm4-80gb"},
	{"NVIDIA A100 80GB PCIe", 108, 79.2, "a100-pcie-80gb"},
	{"Tesla V100-SXM2-16GB", 80, 15.8, "v100-sxm2"},
	{"NVIDIA H100 80GB HBM3", 132, 79.1, "h100-sxm"},
	{"NVIDIA H100 PCIe", 114, 79.1, "h100-pcie"},
	{"NVIDIA H100 NVL", 132, 93.1, "h100-nvl"},
	{"NVIDIA A10", 72, 22.1, "a10"},
	{"NVIDIA GeForce RTX 4090", 128, 23.6, "rtx-4090"},
	{"NVIDIA L40S", 142, 44.4, "l40s"},
	{"NVIDIA L40", 142, 44.4, "l40"}, /* not the L40S: same SMs and memory */
	{"NVIDIA H100 80GB HBM3 MIG 1g.10gb", 16, 9.5, "h100-sxm"},
	{"NVIDIA Jetson AGX Orin", 16, 30, NULL},
	{"NVIDIA A800 80GB PCIe", 108, 79.2, NULL},
};

START_TEST(test_match)
{
	const struct match_case *m = &matches[_i];
	rl_hwdb *db = open_db();
	const struct rl_device *d;
	struct rl_gpu g;
	char why[256];

	memset(&g, 0, sizeof(g));
	snprintf(g.name, sizeof(g.name), "%s", m->name);
	g.sm_count = m->sms;
	g.total_mem_bytes = (uint64_t)(m->gib * 1024 * 1024 * 1024);
	d = rl_xcheck_match(db, &g, why, sizeof(why));
	if (m->want == NULL)
		ck_assert_msg(d == NULL, "%s matched %s", m->name, d ? d->id : "");
	else
		ck_assert_msg(d != NULL && strcmp(d->id, m->want) == 0, "%s: got %s, want %s (%s)",
		              m->name, d ? d->id : "none", m->want, why);
	rl_hwdb_free(db);
}
END_TEST

START_TEST(test_crosscheck_h200)
{
	rl_hwdb *db = open_db();
	struct rl_gpu g;
	struct rl_device d;
	struct rl_xcheck x;
	int assumed;

	/* The recorded H200 agrees with the datasheet entry everywhere. */
	load_attrs("h200", &g);
	derive(&g, &d, &assumed);
	rl_xcheck_run(db, &g, &d, &x);
	ck_assert_ptr_nonnull(x.entry);
	ck_assert_str_eq(x.entry->id, "h200-sxm");
	ck_assert_uint_eq(x.nflagged, 0);
	ck_assert_uint_eq(x.nwarnings, 0);
	/* 17 numeric keys on both sides, min_kernel_us included. */
	ck_assert_uint_eq(x.nrows, 18);
	rl_device_release(&d);

	/* A card capped at 1755 MHz: FP32 66.9 x 1755/1980 = 59.3 is 11 % low and
	 * flagged, and the clock gets a warning; bandwidth is unchanged. */
	g.clock_khz = 1755000;
	derive(&g, &d, &assumed);
	rl_xcheck_run(db, &g, &d, &x);
	ck_assert_uint_eq(x.nwarnings, 1);
	ck_assert_ptr_nonnull(strstr(x.warning[0], "1755 MHz"));
	for (size_t i = 0; i < x.nrows; i++) {
		if (x.rows[i].key == (enum rl_hw_key)RL_PIPE_FP32_VECTOR) {
			ck_assert(x.rows[i].flagged);
			ck_assert_double_eq_tol(x.rows[i].rel_diff, 1755.0 / 1980 * 66.91 / 66.9 - 1, 1e-3);
		}
		if (x.rows[i].key == RL_HW_MEM_BANDWIDTH_GBS)
			ck_assert(!x.rows[i].flagged);
	}
	rl_device_release(&d);

	/* A MIG slice: matched by name, warned about. */
	snprintf(g.name, sizeof(g.name), "NVIDIA H200 MIG 1g.18gb");
	g.clock_khz = 1980000;
	g.sm_count = 16;
	derive(&g, &d, &assumed);
	rl_xcheck_run(db, &g, &d, &x);
	ck_assert_str_eq(x.entry->id, "h200-sxm");
	ck_assert_uint_eq(x.nwarnings, 1);
	ck_assert_ptr_nonnull(strstr(x.warning[0], "MIG slice"));
	rl_device_release(&d);
	rl_hwdb_free(db);
}
END_TEST

static void write_temp(char *path, const char *text)
{
	int fd;

	strcpy(path, "/tmp/roofline-check-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

START_TEST(test_device_file_round_trip)
{
	struct rl_gpu g;
	struct rl_device d, back;
	struct rl_err err;
	char path[64];
	FILE *f;
	size_t i;
	int assumed;

	load_attrs("h200", &g);
	derive(&g, &d, &assumed);
	strcpy(path, "/tmp/roofline-check-XXXXXX");
	f = fdopen(mkstemp(path), "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(rl_device_write(f, &d, "a header\nof two lines"), 0);
	fclose(f);
	err.msg[0] = '\0';
	ck_assert_msg(rl_device_load(path, &back, &err) == 0, "%s", err.msg);
	unlink(path);
	ck_assert_str_eq(back.id, "h200-probe");
	ck_assert_str_eq(back.name, "NVIDIA H200");
	for (i = 0; i < RL_HW_NUM_COUNT; i++) {
		ck_assert_int_eq(back.num[i].present, d.num[i].present);
		if (d.num[i].present) {
			ck_assert_double_eq(back.num[i].value, d.num[i].value);
			ck_assert_str_eq(back.num[i].source, d.num[i].source);
		}
	}
	rl_device_release(&back);
	rl_device_release(&d);
}
END_TEST

static const struct bad_attrs {
	const char *text;
	const char *msg;
} bad_attrs[] = {
	{"name = X\nbogus = 1\n", ":2: unknown attribute 'bogus'"},
	{"name = X\nname = Y\n", ":2: attribute 'name' given twice"},
	{"multiprocessor_count = -1\n", ":1: attribute 'multiprocessor_count': "},
	{"multiprocessor_count = 1.5\n", ":1: attribute 'multiprocessor_count': "},
	{"multiprocessor_count = 4294967296\n", "above 2147483647"},
	{"name = X\n", "missing attribute 'pci_bus_id'"},
	{"just words\n", ":1: expected 'key = value'"},
};

START_TEST(test_bad_attrs)
{
	const struct bad_attrs *b = &bad_attrs[_i];
	struct rl_gpu g;
	struct rl_err err;
	char path[64];

	write_temp(path, b->text);
	err.msg[0] = '\0';
	ck_assert_int_lt(rl_gpu_load(path, &g, &err), 0);
	unlink(path);
	ck_assert_msg(strstr(err.msg, b->msg) != NULL, "got '%s', want '%s'", err.msg, b->msg);
}
END_TEST

START_TEST(test_mig_name)
{
	struct rl_gpu g;

	memset(&g, 0, sizeof(g));
	snprintf(g.name, sizeof(g.name), "NVIDIA H100 80GB HBM3 MIG 3g.40gb");
	ck_assert(rl_gpu_is_mig(&g));
	snprintf(g.name, sizeof(g.name), "NVIDIA H100 80GB HBM3");
	ck_assert(!rl_gpu_is_mig(&g));
}
END_TEST

/* Issue 11, bug 10: a name with no letter or digit gets the id "gpu-probe"
 * (10 bytes with its NUL), which overflowed a buffer of strlen + 7 bytes for
 * names of 0 to 2 bytes (seen under ASan or valgrind). */
static const char *const blank_names[] = {"", "-", "--", "NVIDIA ", "NVIDIA --", " ~ "};

START_TEST(test_id_of_a_name_without_letters)
{
	struct rl_gpu g;
	struct rl_device d;
	int assumed;

	load_attrs("h200", &g);
	snprintf(g.name, sizeof(g.name), "%s", blank_names[_i]);
	derive(&g, &d, &assumed);
	ck_assert_str_eq(d.id, "gpu-probe");
	rl_device_release(&d);
	snprintf(g.name, sizeof(g.name), "NVIDIA -H2- 00-");
	derive(&g, &d, &assumed);
	ck_assert_str_eq(d.id, "h2-00-probe");
	rl_device_release(&d);
}
END_TEST

/* probe --format: an unknown format is a bad argument (RL_ERR_ARG). */
START_TEST(test_format_parse)
{
	enum rl_probe_format f;

	ck_assert_int_eq(rl_probe_format_parse("xml", &f), RL_ERR_ARG);
	ck_assert_int_eq(rl_probe_format_parse("attrs", &f), 0);
	ck_assert_int_eq(f, RL_PROBE_ATTRS);
}
END_TEST

Suite *suite_probe(void)
{
	Suite *s = suite_create("probe");
	TCase *tc = tcase_create("probe");

	tcase_add_loop_test(tc, test_recorded_sets_match_datasheets, 0, (int)ARRAY_SIZE(datasheets));
	tcase_add_test(tc, test_absent_pipes);
	tcase_add_loop_test(tc, test_rate_table_against_datasheets, 0, (int)ARRAY_SIZE(cards));
	tcase_add_test(tc, test_unknown_architectures);
	tcase_add_loop_test(tc, test_match, 0, (int)ARRAY_SIZE(matches));
	tcase_add_test(tc, test_crosscheck_h200);
	tcase_add_test(tc, test_device_file_round_trip);
	tcase_add_loop_test(tc, test_bad_attrs, 0, (int)ARRAY_SIZE(bad_attrs));
	tcase_add_test(tc, test_mig_name);
	tcase_add_loop_test(tc, test_id_of_a_name_without_letters, 0, (int)ARRAY_SIZE(blank_names));
	tcase_add_test(tc, test_format_parse);
	suite_add_tcase(s, tc);
	return s;
}
