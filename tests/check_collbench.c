/* check_collbench.c - recorded collectives: algbw and busbw of an entry by
 * nccl-tests' definitions (the bus factors of collective.c), the per-kind
 * summary calibrate keeps, the recording's ranks in JSON and the reader's
 * refusals, and the calibrated system file (calsystem.c) written and read
 * back. Every expected figure is worked out by hand in the comments. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "calsystem.h"
#include "check.h"
#include "collbench.h"
#include "hwsystem.h"

#define GIB 1073741824.0

static void gpu_h100(struct rl_gpu *g)
{
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "NVIDIA H100 80GB HBM3");
	g->cc_major = 9;
	g->sm_count = 132;
	g->clock_khz = 1980000;
}

static void add(struct rl_bench *b, const char *kind, const char *placement, double bytes,
                int ranks, const double *us, size_t n)
{
	struct rl_bench_entry e;

	memset(&e, 0, sizeof(e));
	e.group = RL_BENCH_COLLECTIVE;
	snprintf(e.name, sizeof(e.name), "%s", kind);
	snprintf(e.dtype, sizeof(e.dtype), "fp32");
	snprintf(e.shape, sizeof(e.shape), "%s", placement);
	e.bytes = bytes;
	e.ranks = ranks;
	e.check = 1;
	snprintf(e.method, sizeof(e.method), "by hand");
	ck_assert_int_eq(rl_bench_add(b, &e, us, n, NULL), 0);
}

static void add1(struct rl_bench *b, const char *kind, const char *placement, double bytes,
                 int ranks, double us)
{
	add(b, kind, placement, bytes, ranks, &us, 1);
}

START_TEST(figures_by_hand)
{
	struct rl_bench b;
	struct rl_collfig f;
	const double us[] = {4100, 3900, 4000};

	rl_bench_init(&b);
	add(&b, "allreduce", "out-of-place", GIB, 8, us, 3);
	add1(&b, "allgather", "out-of-place", GIB, 4, 2000);
	add1(&b, "allreduce", "out-of-place", GIB, 1, 500);
	add1(&b, "sendrecv", "out-of-place", GIB, 1, 500);
	/* median 4000 us: algbw 2^30 / 4 ms = 268.435456 GB/s; x 2 x 7/8 */
	ck_assert_int_eq(rl_collbench_figures(&b.e[0], &f), 0);
	ck_assert_int_eq(f.kind, RL_KIND_ALLREDUCE);
	ck_assert_double_eq_tol(f.median_us, 4000, 1e-9);
	ck_assert_double_eq_tol(f.algbw_gbs, 268.435456, 1e-9);
	ck_assert_double_eq_tol(f.factor, 1.75, 1e-12);
	ck_assert_double_eq_tol(f.busbw_gbs, 469.762048, 1e-9);
	/* 4 ranks of all-gather: factor 3/4; 2^30 / 2 ms = 536.870912 */
	ck_assert_int_eq(rl_collbench_figures(&b.e[1], &f), 0);
	ck_assert_double_eq_tol(f.busbw_gbs, 402.653184, 1e-9);
	/* one rank: all-reduce's factor 0 (busbw undefined), send/recv's 1 */
	ck_assert_int_eq(rl_collbench_figures(&b.e[2], &f), 0);
	ck_assert_double_eq_tol(f.algbw_gbs, 2147.483648, 1e-9);
	ck_assert_double_eq(f.factor, 0);
	ck_assert_double_eq(f.busbw_gbs, 0);
	ck_assert_int_eq(rl_collbench_figures(&b.e[3], &f), 0);
	ck_assert_double_eq_tol(f.busbw_gbs, 2147.483648, 1e-9);
	/* not a collective entry */
	b.e[3].group = RL_BENCH_MEMORY;
	ck_assert_int_eq(rl_collbench_figures(&b.e[3], &f), RL_ERR_PARSE);
	b.e[3].group = RL_BENCH_COLLECTIVE;
	snprintf(b.e[3].name, sizeof(b.e[3].name), "matmul");
	ck_assert_int_eq(rl_collbench_figures(&b.e[3], &f), RL_ERR_PARSE);
	rl_bench_release(&b);
}
END_TEST

/* All-reduce on 8 ranks: 8 B in 20 us, 1 KiB in 18, 4 KiB in place in 19,
 * 8 KiB in 17 (above 4 KiB: no latency), 1 GiB out of place in 4000 us and
 * in place in 3800 (the higher busbw: 2^30 / 3.8 ms x 1.75 =
 * 494.486366 GB/s), and a failed 2 GiB that does not count. */
static void hgx_recording(struct rl_bench *b)
{
	rl_bench_init(b);
	snprintf(b->version, sizeof(b->version), "0.1.0");
	snprintf(b->date, sizeof(b->date), "2026-12-01T20:00:00Z");
	gpu_h100(&b->gpu);
	add1(b, "allreduce", "out-of-place", 8, 8, 20);
	add1(b, "allreduce", "out-of-place", 1024, 8, 18);
	add1(b, "allreduce", "in-place", 4096, 8, 19);
	add1(b, "allreduce", "out-of-place", 8192, 8, 17);
	add1(b, "allreduce", "out-of-place", GIB, 8, 4000);
	add1(b, "allreduce", "in-place", GIB, 8, 3800);
	add1(b, "allreduce", "out-of-place", 2 * GIB, 8, 1);
	b->e[b->n - 1].check = -1;
}

START_TEST(summary_by_hand)
{
	struct rl_bench b;
	struct rl_collsum s;
	struct rl_err err;

	hgx_recording(&b);
	ck_assert_int_eq(rl_collbench_summary(&b, RL_KIND_ALLREDUCE, &s, &err), 0);
	ck_assert_int_eq(s.ranks, 8);
	ck_assert_uint_eq(s.sizes, 6);
	ck_assert_double_eq(s.bytes, GIB);
	ck_assert_str_eq(s.largest->shape, "in-place");
	ck_assert_double_eq_tol(s.busbw_gbs, 494.486366, 1e-6);
	ck_assert_double_eq_tol(s.algbw_gbs, 282.563638, 1e-6);
	ck_assert_ptr_nonnull(s.smallest);
	ck_assert_double_eq(s.smallest->bytes, 1024);
	ck_assert_double_eq(s.latency_us, 18);
	ck_assert_int_eq(rl_collbench_summary(&b, RL_KIND_ALLGATHER, &s, &err), RL_ERR_NOTFOUND);
	/* one kind on two rank counts */
	add1(&b, "allreduce", "out-of-place", 16, 4, 10);
	ck_assert_int_eq(rl_collbench_summary(&b, RL_KIND_ALLREDUCE, &s, &err), RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, "on 8 and 4 ranks"));
	rl_bench_release(&b);
}
END_TEST

static char *write_tmp(const char *text)
{
	static char path[64];
	int fd;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/check_collbench_XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

START_TEST(json_ranks)
{
	struct rl_bench b, r;
	struct rl_err err;
	char path[] = "/tmp/check_collbench_rt_XXXXXX";
	FILE *f;
	int fd;

	hgx_recording(&b);
	fd = mkstemp(path);
	f = fdopen(fd, "w");
	ck_assert_int_eq(rl_bench_write_json(f, &b), 0);
	fclose(f);
	ck_assert_msg(rl_bench_read(path, &r, &err) == 0, "%s", err.msg);
	remove(path);
	ck_assert_uint_eq(r.n, 7);
	ck_assert_int_eq(r.e[5].group, RL_BENCH_COLLECTIVE);
	ck_assert_int_eq(r.e[5].ranks, 8);
	ck_assert_str_eq(r.e[5].shape, "in-place");
	ck_assert_double_eq(r.e[5].bytes, GIB);
	ck_assert_int_eq(r.e[6].check, -1);
	rl_bench_release(&b);
	rl_bench_release(&r);
}
END_TEST

#define HEAD                                                                                       \
	"{\"format\": \"roofline-bench-1\", \"roofline_version\": \"0.1.0\", \"date\": \"d\", "    \
	"\"quick\": false, \"gpu\": {\"name\": \"g\", \"pci_bus_id\": \"0\", \"device\": 0, "      \
	"\"compute_capability_major\": 9, \"compute_capability_minor\": 0, "                       \
	"\"multiprocessor_count\": 132, \"clock_rate_khz\": 1980000, "                             \
	"\"memory_clock_rate_khz\": 1, \"global_memory_bus_width\": 1, \"total_global_mem\": 1, "  \
	"\"l2_cache_size\": 1, \"ecc_enabled\": 1, \"integrated\": 0, \"is_multi_gpu_board\": 0, " \
	"\"max_shared_memory_per_multiprocessor\": 1, \"max_threads_per_multiprocessor\": 1, "     \
	"\"driver_version\": 1, \"runtime_version\": 1}, \"entries\": [{"
#define ENTRY(group, shape)                                                                        \
	"\"group\": \"" group                                                                      \
	"\", \"name\": \"allreduce\", \"dtype\": \"fp32\", \"shape\": \"" shape                    \
	"\", \"repeat\": 0, \"bytes\": 8, \"flops\": 0, \"check\": 1, "                            \
	"\"sm_clock_mhz\": 0, \"temp_c\": 0, \"method\": \"m\", \"samples_us\": [5]"

START_TEST(json_refusals)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
	    {HEAD ENTRY("collective", "in-place") "}]}", "entries[0].ranks: expected the GPUs"},
	    {HEAD ENTRY("collective", "in-place") ", \"ranks\": 0}]}", "entries[0].ranks"},
	    {HEAD ENTRY("collective", "in-place") ", \"ranks\": 1.5}]}", "entries[0].ranks"},
	    {HEAD ENTRY("collective", "8x8") ", \"ranks\": 2}]}",
	     "entries[0].shape: expected \"in-place\""},
	    {HEAD ENTRY("memory", "") ", \"ranks\": 2}]}", "no ranks outside a collective"},
	    {HEAD ENTRY("collectives", "in-place") ", \"ranks\": 2}]}", "or collective"},
	};
	struct rl_bench r;
	struct rl_err err;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *p = write_tmp(cases[i].text);

		ck_assert_int_eq(rl_bench_read(p, &r, &err), RL_ERR_PARSE);
		ck_assert_msg(strstr(err.msg, cases[i].msg) != NULL, "case %zu: %s", i, err.msg);
		rl_bench_release(&r);
		remove(p);
	}
	/* the same entry with its ranks reads */
	{
		char *p = write_tmp(HEAD ENTRY("collective", "in-place") ", \"ranks\": 2}]}");

		ck_assert_msg(rl_bench_read(p, &r, &err) == 0, "%s", err.msg);
		ck_assert_int_eq(r.e[0].ranks, 2);
		rl_bench_release(&r);
		remove(p);
	}
}
END_TEST

static void load_system(const char *id, struct rl_hwsystem *s)
{
	char path[512];
	struct rl_err err;

	snprintf(path, sizeof(path), "%s/%s.system", RL_TEST_HWDB, id);
	ck_assert_msg(rl_hwsystem_load(path, s, &err) == 0, "%s", err.msg);
}

/* The calibrated system of hgx_recording on hgx-h100-8, written and read
 * back: all-reduce's 494.49 GB/s (5 digits of 494.486366) and 18 us take
 * intra_bandwidth_gbs and intra_latency_us, the system's 450 and 15.0 stay
 * beside them, nccl.allreduce_* is the measured 494.49 at 2^30 bytes and the
 * published Azure figure (466.35 at 2^30) moves to published.nccl.*. */
START_TEST(calibrated_system)
{
	struct rl_bench b;
	struct rl_hwsystem sys, cal, back;
	struct rl_net net;
	struct rl_err err;
	char path[] = "/tmp/check_collbench_sys_XXXXXX";
	FILE *f;
	int fd, i = RL_KIND_ALLREDUCE - RL_KIND_ALLREDUCE;

	hgx_recording(&b);
	load_system("hgx-h100-8", &sys);
	ck_assert_msg(rl_calsystem(&b, &sys, "hgx-h100-8-measured", &cal, &err) == 0, "%s",
	              err.msg);
	fd = mkstemp(path);
	f = fdopen(fd, "w");
	ck_assert_int_eq(rl_hwsystem_write(f, &cal, "a header\nof two lines"), 0);
	fclose(f);
	ck_assert_msg(rl_hwsystem_load(path, &back, &err) == 0, "%s", err.msg);
	remove(path);
	ck_assert_str_eq(back.id, "hgx-h100-8-measured");
	ck_assert_str_eq(back.name, "NVIDIA HGX H100 8-GPU (NVSwitch, 8 x 400G) (measured)");
	ck_assert_str_eq(back.gpu, "h100-sxm");
	ck_assert_str_eq(back.num[RL_SYS_INTRA_BANDWIDTH_GBS].text, "494.49");
	ck_assert_str_eq(back.datasheet[RL_SYS_INTRA_BANDWIDTH_GBS].text, "450");
	ck_assert_str_eq(back.num[RL_SYS_INTRA_LATENCY_US].text, "18");
	ck_assert_str_eq(back.datasheet[RL_SYS_INTRA_LATENCY_US].text, "15.0");
	ck_assert_str_eq(back.nccl_busbw[i].text, "494.49");
	ck_assert_double_eq(back.nccl_bytes[i].value, GIB);
	ck_assert_str_eq(back.published_busbw[i].text, "466.35");
	ck_assert_double_eq(back.published_bytes[i].value, GIB);
	ck_assert_ptr_nonnull(strstr(back.num[RL_SYS_INTRA_BANDWIDTH_GBS].source,
	                             "measured by roofline bench 0.1.0 on 2026-12-01"));
	ck_assert_ptr_nonnull(
	    strstr(back.datasheet[RL_SYS_INTRA_BANDWIDTH_GBS].source, "H100 product page"));
	/* the rest is the system's: 8 GPUs, the 50 GB/s network */
	ck_assert_double_eq(back.num[RL_SYS_GPUS_PER_NODE].value, 8);
	ck_assert_double_eq(back.num[RL_SYS_NETWORK_BANDWIDTH_GBS].value, 50);
	/* the model reads the measured figures */
	rl_hwsystem_net(&back, &net);
	ck_assert_double_eq_tol(net.intra_gbs, 494.49, 1e-9);
	ck_assert_double_eq_tol(net.intra_latency_us, 18, 1e-9);
	rl_hwsystem_release(&back);
	rl_hwsystem_release(&cal);
	rl_hwsystem_release(&sys);
	rl_bench_release(&b);
}
END_TEST

START_TEST(calibrated_system_refusals)
{
	struct rl_bench b;
	struct rl_hwsystem sys, cal;
	struct rl_err err;

	load_system("hgx-h100-8", &sys);
	/* one GPU: busbw undefined */
	rl_bench_init(&b);
	add1(&b, "allreduce", "out-of-place", GIB, 1, 500);
	ck_assert_int_eq(rl_calsystem(&b, &sys, "x", &cal, &err), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(err.msg, "needs 2 ranks or more"));
	rl_hwsystem_release(&cal);
	rl_bench_release(&b);
	/* 16 ranks on a system of 8 GPUs a node */
	rl_bench_init(&b);
	add1(&b, "allgather", "out-of-place", GIB, 16, 500);
	ck_assert_int_eq(rl_calsystem(&b, &sys, "x", &cal, &err), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(err.msg, "ran on 16 GPUs, but hgx-h100-8 has 8"));
	rl_hwsystem_release(&cal);
	rl_bench_release(&b);
	/* no collective */
	rl_bench_init(&b);
	ck_assert_int_eq(rl_calsystem(&b, &sys, "x", &cal, &err), RL_ERR_NOTFOUND);
	rl_hwsystem_release(&cal);
	rl_bench_release(&b);
	rl_hwsystem_release(&sys);
}
END_TEST

/* A datasheet key needs its measured twin, a published figure its size. */
START_TEST(system_beside_keys)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
	    {"datasheet.network_bandwidth_gbs = 50 ; s\n", "without 'network_bandwidth_gbs'"},
	    {"published.nccl.allreduce_busbw_gbs = 466 ; s\n",
	     "needs 'published.nccl.allreduce_bytes'"},
	};
	struct rl_hwsystem s;
	struct rl_err err;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char text[512];
		char *p;

		snprintf(text, sizeof(text),
		         "id = t\nname = t\ngpu = h100-sxm\nfabric = nvswitch\n"
		         "gpus_per_node = 8 ; s\nintra_bandwidth_gbs = 450 ; s\n"
		         "intra_latency_us = 15 ; s\n%s",
		         cases[i].text);
		p = write_tmp(text);
		ck_assert_int_eq(rl_hwsystem_load(p, &s, &err), RL_ERR_PARSE);
		ck_assert_msg(strstr(err.msg, cases[i].msg) != NULL, "case %zu: %s", i, err.msg);
		remove(p);
	}
}
END_TEST

Suite *suite_collbench(void)
{
	Suite *s = suite_create("collbench");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, figures_by_hand);
	tcase_add_test(tc, summary_by_hand);
	tcase_add_test(tc, json_ranks);
	tcase_add_test(tc, json_refusals);
	tcase_add_test(tc, calibrated_system);
	tcase_add_test(tc, calibrated_system_refusals);
	tcase_add_test(tc, system_beside_keys);
	suite_add_tcase(s, tc);
	return s;
}
