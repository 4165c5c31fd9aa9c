/* check_hwsystem.c - system files: the shipped ones read back with the figures
 * their sources give, bad files refused with file, line and key, and the
 * database's checks across files (the GPU is a device, no name means both a
 * system and a device). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "hwsystem.h"

static void load_system(const char *id, struct rl_hwsystem *s)
{
	char path[1024];
	struct rl_err err = {0, ""};

	snprintf(path, sizeof(path), "%s/%s.system", RL_TEST_HWDB, id);
	ck_assert_msg(rl_hwsystem_load(path, s, &err) == 0, "%s", err.msg);
}

START_TEST(test_hgx_h100)
{
	struct rl_hwsystem s;
	struct rl_net net;
	double busbw, bytes;

	load_system("hgx-h100-8", &s);
	ck_assert_str_eq(s.id, "hgx-h100-8");
	ck_assert_str_eq(s.gpu, "h100-sxm");
	ck_assert_int_eq(s.fabric, RL_FABRIC_NVSWITCH);
	/* the H100 product page: NVLink 900 GB/s both ways; eight 400 Gb/s
	 * ConnectX-7, one per GPU: 50 GB/s */
	rl_hwsystem_net(&s, &net);
	ck_assert_str_eq(net.name, "hgx-h100-8");
	ck_assert_uint_eq(net.gpus_per_node, 8);
	ck_assert_double_eq(net.intra_gbs, 450);
	ck_assert_double_eq(net.inter_gbs, 50);
	/* NCCL's model: 6.6 + 14 x 0.6 us; two network hops of 2.7 us */
	ck_assert_double_eq_tol(net.intra_latency_us, 15.0, 1e-9);
	ck_assert_double_eq_tol(net.inter_latency_us, 5.4, 1e-9);
	ck_assert_uint_eq(net.max_nodes, 0);
	ck_assert_int_eq(rl_hwsystem_nccl(&s, RL_KIND_ALLREDUCE, &busbw, &bytes), 1);
	ck_assert_int_eq(rl_hwsystem_nccl(&s, RL_KIND_ALLGATHER, &busbw, &bytes), 0);
	ck_assert_ptr_nonnull(strstr(s.num[RL_SYS_INTRA_BANDWIDTH_GBS].source,
	                             "https://www.nvidia.com/en-us/data-center/h100/"));
	rl_hwsystem_release(&s);
	rl_hwsystem_release(&s); /* released twice: a no-op */
}
END_TEST

START_TEST(test_pcie_box)
{
	struct rl_hwsystem s;
	struct rl_net net;

	/* the L40S datasheet: PCIe Gen4 x16, 64 GB/s both ways; no network */
	load_system("l40s-pcie-8", &s);
	ck_assert_int_eq(s.fabric, RL_FABRIC_PCIE);
	rl_hwsystem_net(&s, &net);
	ck_assert_double_eq(net.intra_gbs, 32);
	ck_assert_double_eq(net.inter_gbs, 0);
	rl_hwsystem_release(&s);
	load_system("dgx-a100-8", &s);
	rl_hwsystem_net(&s, &net);
	/* A100: NVLink 600 GB/s both ways; ConnectX-6 200 Gb/s per GPU */
	ck_assert_double_eq(net.intra_gbs, 300);
	ck_assert_double_eq(net.inter_gbs, 25);
	rl_hwsystem_release(&s);
}
END_TEST

#define HEAD "source s = made up\nid = x\nname = X\ngpu = tiny\n"
#define BODY HEAD "fabric = nvlink\ngpus_per_node = 8 ; s\nintra_bandwidth_gbs = 450 ; s\n"
#define GOOD BODY "intra_latency_us = 10 ; s\n"

static const struct {
	const char *text;
	const char *msg;
} bad_systems[] = {
    {"id = x\nname = X\nfabric = nvlink\n", "missing key 'gpu'"},
    {HEAD "fabric = infiniband\n", ":5: key 'fabric': unknown fabric 'infiniband' (expected "
                                   "nvlink, nvswitch or pcie)"},
    {BODY, "missing key 'intra_latency_us'"},
    {GOOD "network_bandwidth_gbs = 50 ; s\n",
     "key 'network_bandwidth_gbs' needs 'inter_latency_us'"},
    {GOOD "inter_latency_us = 5 ; s\n", "key 'inter_latency_us' needs 'network_bandwidth_gbs'"},
    {GOOD "nccl.allreduce_busbw_gbs = 466 ; s\n",
     "key 'nccl.allreduce_busbw_gbs' needs 'nccl.allreduce_bytes'"},
    {GOOD "nccl.matmul_busbw_gbs = 466 ; s\n", ":9: unknown key 'nccl.matmul_busbw_gbs'"},
    {HEAD "gpus_per_node = 2.5 ; s\n", ":5: key 'gpus_per_node': 2.5 is not a whole number"},
    {HEAD "intra_bandwidth_gbs = 0 ; s\n",
     ":5: key 'intra_bandwidth_gbs': 0 GB/s is outside the sensible range 0.001..1e+07 GB/s"},
    {HEAD "intra_bandwidth_gbs = 450\n",
     ":5: key 'intra_bandwidth_gbs': a number needs its source"},
    {HEAD "nvlink_gbs = 450 ; s\n", ":5: unknown key 'nvlink_gbs'"},
    {HEAD "gpu = tiny\n", ":5: key 'gpu' given twice"},
    {GOOD "nodes = 4 ; s\n", "key 'nodes' is 4, but there is no network between them"},
};

/* Writes TEXT to a new file under DIR named NAME; returns its path in PATH. */
static void write_file(char *path, size_t len, const char *dir, const char *name, const char *text)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fputs(text, f) >= 0, 1);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_bad_system)
{
	char dir[] = "/tmp/roofline-check-XXXXXX", path[256];
	struct rl_hwsystem s;
	struct rl_err err = {0, ""};

	ck_assert_ptr_nonnull(mkdtemp(dir));
	write_file(path, sizeof(path), dir, "x.system", bad_systems[_i].text);
	ck_assert_int_eq(rl_hwsystem_load(path, &s, &err), RL_ERR_PARSE);
	unlink(path);
	rmdir(dir);
	ck_assert_msg(strstr(err.msg, bad_systems[_i].msg) != NULL, "'%s' lacks '%s'", err.msg,
	              bad_systems[_i].msg);
	ck_assert_ptr_nonnull(strstr(err.msg, path));
}
END_TEST

/* A database of tiny.device and one system file TEXT. */
static const struct {
	const char *text;
	const char *msg; /* NULL: it opens */
} dbs[] = {
    {GOOD, NULL},
    {"source s = made up\nid = x\nname = X\ngpu = huge\nfabric = nvlink\n"
     "gpus_per_node = 8 ; s\nintra_bandwidth_gbs = 450 ; s\nintra_latency_us = 10 ; s\n",
     "x.system: key 'gpu': 'huge' is not a device of"},
    {"source s = made up\nid = tiny\nname = X\ngpu = tiny\nfabric = nvlink\n"
     "gpus_per_node = 8 ; s\nintra_bandwidth_gbs = 450 ; s\nintra_latency_us = 10 ; s\n",
     "x.system: id 'tiny' is also a name of"},
    {HEAD "fabric = pcie\n", "x.system: missing key 'gpus_per_node'"},
};

START_TEST(test_database)
{
	char dir[] = "/tmp/roofline-check-XXXXXX", dev[256], sys[256], src[1024];
	struct rl_err err = {0, ""};
	rl_hwdb *db = NULL;
	FILE *f;
	char buf[4096];
	size_t n;
	int rc;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(src, sizeof(src), "%s/tiny.device", RL_TEST_DATA);
	f = fopen(src, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	write_file(dev, sizeof(dev), dir, "tiny.device", buf);
	write_file(sys, sizeof(sys), dir, "x.system", dbs[_i].text);
	rc = rl_hwdb_open(dir, &db, &err);
	unlink(sys);
	unlink(dev);
	rmdir(dir);
	if (dbs[_i].msg == NULL) {
		const struct rl_hwsystem *s;

		ck_assert_msg(rc == 0, "%s", err.msg);
		ck_assert_uint_eq(rl_hwdb_system_count(db), 1);
		s = rl_hwdb_find_system(db, "X", &err); /* ids are case-insensitive */
		ck_assert_ptr_nonnull(s);
		ck_assert_str_eq(rl_hwdb_system_gpu(db, s)->id, "tiny");
		ck_assert_ptr_null(rl_hwdb_find_system(db, "y", &err));
		ck_assert_str_eq(err.msg, "unknown system 'y' (known: x)");
		rl_hwdb_free(db);
		return;
	}
	ck_assert_int_eq(rc, RL_ERR_PARSE);
	ck_assert_msg(strstr(err.msg, dbs[_i].msg) != NULL, "'%s' lacks '%s'", err.msg,
	              dbs[_i].msg);
}
END_TEST

/* Every shipped system: its GPU is a device, and every number has a source
 * (the loader refuses one without). */
START_TEST(test_shipped)
{
	static const char *const ids[] = {"hgx-h100-8", "hgx-h200-8", "dgx-a100-8", "l40s-pcie-8"};
	struct rl_err err = {0, ""};
	rl_hwdb *db;
	size_t i;

	ck_assert_msg(rl_hwdb_open(RL_TEST_HWDB, &db, &err) == 0, "%s", err.msg);
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		const struct rl_hwsystem *s = rl_hwdb_find_system(db, ids[i], &err);

		ck_assert_msg(s != NULL, "%s", err.msg);
		ck_assert_ptr_nonnull(rl_hwdb_system_gpu(db, s));
		/* the file is named after its id */
		ck_assert_ptr_nonnull(strstr(s->path, ids[i]));
	}
	rl_hwdb_free(db);
}
END_TEST

Suite *suite_hwsystem(void)
{
	Suite *s = suite_create("hwsystem");
	TCase *tc = tcase_create("hwsystem");

	tcase_add_test(tc, test_hgx_h100);
	tcase_add_test(tc, test_pcie_box);
	tcase_add_loop_test(tc, test_bad_system, 0, ARRAY_SIZE(bad_systems));
	tcase_add_loop_test(tc, test_database, 0, ARRAY_SIZE(dbs));
	tcase_add_test(tc, test_shipped);
	suite_add_tcase(s, tc);
	return s;
}
