/* cmd_hw.c - "roofline hw": list and show the device database. */
#include "config.h"

#include <getopt.h>
#include <string.h>
#include <yajl/yajl_gen.h>

#include "cli.h"
#include "hwsystem.h"
#include "json.h"
#include "model.h"
#include "report.h"

static int usage(void)
{
	return rl_cli_help(RL_CMD_HW,
	                   "Usage: roofline hw list [OPTIONS]\n"
	                   "       roofline hw show [OPTIONS] ID|FILE\n"
	                   "       roofline hw systems [OPTIONS]\n"
	                   "       roofline hw runtimes [OPTIONS]\n"
	                   "\n"
	                   "List the devices and systems of the database (csv: the devices; 'hw systems'\n"
	                   "lists the systems alone), show one device or system with the source of every\n"
	                   "figure, or list the runtime profiles (host cost per kernel launch: the\n"
	                   "default, then each op kind that has its own).\n",
	                   NULL);
}

static const char *val(const struct rl_device *d, enum rl_hw_key k, char *buf, size_t n)
{
	if (!d->num[k].present)
		return "-";
	snprintf(buf, n, "%s", d->num[k].text);
	return buf;
}

/* One row per device. The table keeps the datasheet figures first and the
 * aliases last (their width varies); memory is in GiB, as the key: the alias
 * a100 is the 40 GiB card, a100-80gb the other one. */
static void list_devices(const rl_hwdb *db, enum rl_format fmt)
{
	static const enum rl_hw_key cols[] = {
		RL_HW_SM_COUNT, RL_HW_MEMORY_GIB, RL_HW_MEM_BANDWIDTH_GBS,
		(enum rl_hw_key)RL_PIPE_FP32_VECTOR, (enum rl_hw_key)RL_PIPE_BF16_TENSOR,
		(enum rl_hw_key)RL_PIPE_FP8_TENSOR};
	enum { NCOLS = sizeof(cols) / sizeof(cols[0]) };
	size_t i, k;
	char b[NCOLS][32];
	const char *v[NCOLS];

	if (fmt == RL_FMT_CSV)
		puts("id,name,aliases,sm_count,memory_gib,mem_bandwidth_gbs,fp32_vector_tflops,"
		     "bf16_tensor_tflops,fp8_tensor_tflops");
	else
		printf("%-17s %-30s %4s %4s %7s %7s %7s %7s  %s\n", "id", "name", "SMs", "GiB",
		       "GB/s", "fp32 TF", "bf16 TF", "fp8 TF", "aliases");
	for (i = 0; i < rl_hwdb_device_count(db); i++) {
		const struct rl_device *d = rl_hwdb_device(db, i);

		for (k = 0; k < NCOLS; k++)
			v[k] = val(d, cols[k], b[k], sizeof(b[k])); /* "-" when absent */
		if (fmt == RL_FMT_CSV) {
			rl_csv_field(stdout, d->id);
			putchar(',');
			rl_csv_field(stdout, d->name);
			putchar(',');
			rl_csv_field(stdout, d->aliases ? d->aliases : "");
			for (k = 0; k < NCOLS; k++)
				printf(",%s", d->num[cols[k]].present ? v[k] : "");
			putchar('\n');
		} else {
			printf("%-17s %-30.30s %4s %4s %7s %7s %7s %7s  %s\n", d->id, d->name, v[0],
			       v[1], v[2], v[3], v[4], v[5], d->aliases ? d->aliases : "-");
		}
	}
}

/* A system's figure K, or "-". */
static const char *sysval(const struct rl_hwsystem *s, enum rl_sys_key k)
{
	return s->num[k].present ? s->num[k].text : "-";
}

/* One row per system: its GPU, the fabric inside a node and its bandwidth
 * per GPU and direction, the network per GPU, the latencies. */
static void list_systems(const rl_hwdb *db, enum rl_format fmt, int heading)
{
	size_t i;

	if (fmt == RL_FMT_CSV)
		puts("id,name,gpu,gpus_per_node,fabric,intra_bandwidth_gbs,intra_latency_us,"
		     "network_bandwidth_gbs,inter_latency_us,nodes");
	else if (heading)
		printf("\nsystems (--hw takes their ids; GB/s per GPU and direction):\n"
		       "%-13s %-36s %-14s %4s %-8s %6s %6s %6s %6s\n",
		       "id", "name", "gpu", "GPUs", "fabric", "GB/s", "lat_us", "net", "net_us");
	for (i = 0; i < rl_hwdb_system_count(db); i++) {
		const struct rl_hwsystem *s = rl_hwdb_system(db, i);

		if (fmt == RL_FMT_CSV) {
			rl_csv_field(stdout, s->id);
			putchar(',');
			rl_csv_field(stdout, s->name);
			putchar(',');
			rl_csv_field(stdout, s->gpu);
			printf(",%s,%s,%s,%s,%s,%s,%s\n", s->num[RL_SYS_GPUS_PER_NODE].text,
			       s->fabric_name, s->num[RL_SYS_INTRA_BANDWIDTH_GBS].text,
			       s->num[RL_SYS_INTRA_LATENCY_US].text,
			       s->num[RL_SYS_NETWORK_BANDWIDTH_GBS].present
			               ? s->num[RL_SYS_NETWORK_BANDWIDTH_GBS].text
			               : "",
			       s->num[RL_SYS_INTER_LATENCY_US].present
			               ? s->num[RL_SYS_INTER_LATENCY_US].text
			               : "",
			       s->num[RL_SYS_NODES].present ? s->num[RL_SYS_NODES].text : "");
		} else {
			printf("%-13s %-36.36s %-14s %4s %-8s %6s %6s %6s %6s\n", s->id, s->name,
			       s->gpu, sysval(s, RL_SYS_GPUS_PER_NODE), s->fabric_name,
			       sysval(s, RL_SYS_INTRA_BANDWIDTH_GBS), sysval(s, RL_SYS_INTRA_LATENCY_US),
			       sysval(s, RL_SYS_NETWORK_BANDWIDTH_GBS),
			       sysval(s, RL_SYS_INTER_LATENCY_US));
		}
	}
}

struct show {
	enum rl_format fmt;
	yajl_gen g;
};

static void show_key(const char *key, const char *value, const char *source, void *user)
{
	struct show *s = user;

	if (value == NULL)
		return;
	if (s->fmt == RL_FMT_CSV) {
		rl_csv_field(stdout, key);
		putchar(',');
		rl_csv_field(stdout, value);
		putchar(',');
		rl_csv_field(stdout, source ? source : "");
		putchar('\n');
	} else if (s->fmt == RL_FMT_JSON) {
		rl_json_str(s->g, key);
		yajl_gen_map_open(s->g);
		rl_json_kv(s->g, "value", value);
		if (source != NULL)
			rl_json_kv(s->g, "source", source);
		yajl_gen_map_close(s->g);
	} else {
		printf("%-20s %-26s %s\n", key, value, source ? source : "");
	}
}

static void json_print(void *ctx, const char *str, size_t len)
{
	fwrite(str, 1, len, ctx);
}

/* Where each pipe's roof meets the memory roof: an op with a lower
 * arithmetic intensity is memory-bound on that pipe. */
static void show_ridges(const struct rl_device *d)
{
	int p;

	printf("\nridge points, FLOP/byte (peak / %s GB/s):\n",
	       d->num[RL_HW_MEM_BANDWIDTH_GBS].text);
	for (p = 0; p < RL_PIPE_COUNT; p++) {
		if (!d->num[p].present)
			continue;
		if (rl_pipe_is_tensor((enum rl_pipe)p))
			printf("  %-12s %8.1f\n", rl_pipe_label((enum rl_pipe)p),
			       rl_model_ridge(d, (enum rl_pipe)p, 1));
		else
			printf("  %-12s %8.1f  (%.1f for work that is not fused multiply-adds)\n",
			       rl_pipe_label((enum rl_pipe)p), rl_model_ridge(d, (enum rl_pipe)p, 1),
			       rl_model_ridge(d, (enum rl_pipe)p, 0));
	}
}

/* The head of "hw show" in S's format: csv's header line, or json's
 * generator and its opening brace. Returns 0, or -1 when out of memory. */
static int show_begin(struct show *s)
{
	if (s->fmt == RL_FMT_CSV)
		puts("key,value,source");
	if (s->fmt == RL_FMT_JSON) {
		s->g = yajl_gen_alloc(NULL);
		if (s->g == NULL)
			return -1;
		yajl_gen_config(s->g, yajl_gen_print_callback, json_print, stdout);
		yajl_gen_map_open(s->g);
	}
	return 0;
}

/* The tail of "hw show": json's closing brace and its line. */
static void show_end(struct show *s)
{
	if (s->fmt != RL_FMT_JSON)
		return;
	yajl_gen_map_close(s->g);
	yajl_gen_free(s->g);
	putchar('\n');
}

/* A system: its keys with their sources, then its GPU's id, and what the
 * model makes of a published nccl-tests size (the bus bandwidth its
 * all-reduce would reach there, beside the published one). */
static void show_system(const rl_hwdb *db, const struct rl_hwsystem *sys, enum rl_format fmt)
{
	struct show s = {fmt, NULL};
	struct rl_net net;
	int k;

	if (show_begin(&s) < 0)
		return;
	rl_hwsystem_each(sys, show_key, &s);
	show_end(&s);
	if (fmt != RL_FMT_TABLE)
		return;
	printf("\nGPU: %s (roofline hw show %s)\n", rl_hwdb_system_gpu(db, sys)->name, sys->gpu);
	rl_hwsystem_net(sys, &net);
	for (k = RL_KIND_ALLREDUCE; k <= RL_KIND_SENDRECV; k++) {
		double busbw, bytes, ranks = (double)net.gpus_per_node;
		struct rl_coll_time t;
		struct rl_err err;

		if (!rl_hwsystem_nccl(sys, (enum rl_kind)k, &busbw, &bytes))
			continue;
		if (rl_collective_time((enum rl_kind)k, net.gpus_per_node, 1,
		                       bytes / (k == RL_KIND_ALLGATHER ? ranks : 1), &net, &t,
		                       &err) < 0)
			continue;
		printf("%s of %s bytes on %s GPUs: model busbw %.1f GB/s (%.1f us), nccl-tests %s "
		       "GB/s\n",
		       rl_kind_name((enum rl_kind)k), sys->nccl_bytes[k - RL_KIND_ALLREDUCE].text,
		       sys->num[RL_SYS_GPUS_PER_NODE].text, t.bus_bytes / (t.t_us * 1e-6) / 1e9,
		       t.t_us, sys->nccl_busbw[k - RL_KIND_ALLREDUCE].text);
	}
}

static void show_device(const struct rl_device *d, enum rl_format fmt)
{
	struct show s = {fmt, NULL};

	if (show_begin(&s) < 0)
		return;
	rl_device_each(d, show_key, &s);
	if (fmt == RL_FMT_TABLE)
		show_ridges(d);
	if (fmt == RL_FMT_TABLE && (d->num[RL_HW_MEM_READ_BANDWIDTH_GBS].present ||
	                            d->num[RL_HW_MEM_WRITE_BANDWIDTH_GBS].present))
		printf("\nmemory roof by access mix (read / read bandwidth + written / write "
		       "bandwidth):\n  copy (1 read, 1 write) %.0f GB/s, add (2 reads, 1 write) "
		       "%.0f GB/s\n",
		       rl_model_bandwidth(d, 1, 1, 1) / 1e9, rl_model_bandwidth(d, 2, 1, 1) / 1e9);
	show_end(&s);
}

/* One csv row of runtime RT: its host cost V for KIND ("default": every
 * kind without its own). */
static void runtime_row(const struct rl_runtime *rt, const struct rl_hwval *v, const char *kind)
{
	printf("%s,%s,", rt->id, v->text);
	rl_csv_field(stdout, rt->name);
	putchar(',');
	rl_csv_field(stdout, v->source);
	printf(",%s\n", kind);
}

/* A row per runtime with its default host cost, then a row per op kind that
 * has its own (host_overhead_us.KIND). */
static void list_runtimes(const rl_hwdb *db, enum rl_format fmt)
{
	size_t i, k;

	if (fmt == RL_FMT_CSV)
		puts("id,host_overhead_us,name,source,kind");
	for (i = 0; i < rl_hwdb_runtime_count(db); i++) {
		const struct rl_runtime *rt = rl_hwdb_runtime(db, i);

		if (fmt == RL_FMT_CSV)
			runtime_row(rt, &rt->host_overhead_us, "default");
		else
			printf("%-8s %6s us  %s\n         source: %s\n", rt->id,
			       rt->host_overhead_us.text, rt->name, rt->host_overhead_us.source);
		if (fmt != RL_FMT_CSV && rl_runtime_compiled(rt))
			printf("         kernels: torch.compile's (compiled = %s)  source: %s\n",
			       rt->compiled.text, rt->compiled.source);
		for (k = 0; k < RL_HOST_KEY_COUNT; k++) {
			const struct rl_hwval *v = &rt->host_kind_us[k];

			if (!v->present)
				continue;
			if (fmt == RL_FMT_CSV)
				runtime_row(rt, v, rl_host_key_name((int)k));
			else
				printf("         %-9s %6s us  source: %s\n",
				       rl_host_key_name((int)k), v->text, v->source);
		}
	}
}

int cmd_hw(int argc, char **argv)
{
	struct rl_cli_getopt go;
	const char *hwdb = NULL, *action;
	enum rl_format fmt = RL_FMT_TABLE;
	int opt, status = RL_EXIT_OK;
	rl_hwdb *db;

	rl_cli_getopt(RL_CMD_HW, &go);
	while ((opt = getopt_long(argc, argv, go.shortopts, go.longopts, NULL)) != -1) {
		switch (opt) {
		case RL_OPT_HWDB: hwdb = optarg; break;
		case 'f':
			if (rl_format_parse(optarg, &fmt) < 0 || fmt == RL_FMT_MD || fmt == RL_FMT_HTML)
				return rl_cli_usage("hw", "unknown format '%s' (expected table, csv or json)",
				                    optarg);
			break;
		default: return rl_cli_option_other("hw", opt, usage, argv);
		}
	}
	if (optind == argc)
		return rl_cli_usage("hw", "no action given (list, show or runtimes)");
	action = argv[optind++];
	if (strcmp(action, "show") == 0 ? optind != argc - 1 : optind != argc)
		return rl_cli_usage("hw", strcmp(action, "show") == 0
		                                  ? "'hw show' takes one device or system id, or a file"
		                                  : "unexpected argument '%s'",
		                    argv[optind < argc ? optind : argc - 1]);
	if (strcmp(action, "list") != 0 && strcmp(action, "show") != 0 &&
	    strcmp(action, "runtimes") != 0 && strcmp(action, "systems") != 0)
		return rl_cli_usage("hw",
		                    "unknown action '%s' (expected list, show, systems or runtimes)",
		                    action);
	if (fmt == RL_FMT_JSON && strcmp(action, "show") != 0)
		return rl_cli_usage("hw", "--format json is for 'hw show'");

	/* what it prints goes to standard output directly: say up front that
	 * it would be lost */
	{
		struct rl_err err;

		if (rl_outfiles_stdout_ok(&err) < 0) {
			rl_cli_error("%s", err.msg);
			return RL_EXIT_FAIL;
		}
	}
	db = rl_cli_open_hwdb(hwdb);
	if (db == NULL)
		return RL_EXIT_FAIL;
	if (strcmp(action, "list") == 0) {
		list_devices(db, fmt);
		if (fmt == RL_FMT_TABLE && rl_hwdb_system_count(db) > 0)
			list_systems(db, fmt, 1);
	} else if (strcmp(action, "systems") == 0) {
		list_systems(db, fmt, fmt == RL_FMT_TABLE);
	} else if (strcmp(action, "runtimes") == 0) {
		list_runtimes(db, fmt);
	} else {
		struct rl_device owned;
		const struct rl_device *d;

		struct rl_err err;
		struct rl_hwsystem owned_sys;
		const char *spec = argv[optind];
		size_t n = strlen(spec);
		const struct rl_hwsystem *sys = NULL;

		memset(&owned, 0, sizeof(owned));
		memset(&owned_sys, 0, sizeof(owned_sys));
		if (n > 7 && strcmp(spec + n - 7, ".system") == 0) {
			if (rl_cli_system_file(db, spec, &owned_sys) != NULL)
				sys = &owned_sys;
			else
				status = RL_EXIT_FAIL;
		} else if (strchr(spec, '/') == NULL) {
			sys = rl_hwdb_find_system(db, spec, &err);
		}
		d = sys != NULL || status != RL_EXIT_OK ? NULL : rl_cli_device(db, spec, &owned);
		if (sys != NULL)
			show_system(db, sys, fmt);
		else if (status != RL_EXIT_OK)
			;
		else if (d == NULL)
			status = RL_EXIT_FAIL;
		else
			show_device(d, fmt);
		rl_device_release(&owned);
		rl_hwsystem_release(&owned_sys);
	}
	rl_hwdb_free(db);
	if (fflush(stdout) != 0)
		status = RL_EXIT_FAIL;
	return status;
}
