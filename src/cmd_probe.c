/* cmd_probe.c - "roofline probe" (the live GPU's specs, cross-checked against
 * the database) and "roofline devices" (the CUDA devices present). */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cuda.h"
#include "num.h"
#include "probe.h"
#include "probe_report.h"

static int usage(void)
{
	return rl_cli_help(RL_CMD_PROBE,
	                   "Usage: roofline probe [OPTIONS]\n"
	                   "\n"
	                   "Query a CUDA GPU, derive its device entry (peaks per pipe from the SM count,\n"
	                   "clocks and per-architecture rates; bandwidth from memory clock and bus width)\n"
	                   "and cross-check it against the matching entry of the database, flagging\n"
	                   "every value more than 5 % apart.\n",
	                   "Exit status: 0 success, 1 no CUDA support, driver, device or a CUDA error,\n"
	                   "2 usage error.\n");
}

static int devices_usage(void)
{
	return rl_cli_help(RL_CMD_DEVICES,
	                   "Usage: roofline devices [OPTIONS]\n"
	                   "\n"
	                   "List the CUDA devices of this machine: index, name, compute capability, SMs,\n"
	                   "memory and PCI bus id.\n",
	                   "Exit status: 0 success, 1 no CUDA support, driver or device, 2 usage error.\n");
}

/* "roofline 0.1.0 on 2026-11-29" */
static void stamp(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;
	char date[16] = "?";

	if (gmtime_r(&t, &tm) != NULL)
		strftime(date, sizeof(date), "%Y-%m-%d", &tm);
	snprintf(buf, n, "roofline probe %s on %s", PACKAGE_VERSION, date);
}

int cmd_probe(int argc, char **argv)
{
	struct rl_cli_getopt go;
	const char *attrs = NULL, *hwdb = NULL, *output = NULL;
	enum rl_probe_format fmt = RL_PROBE_TABLE;
	struct rl_probe_info pi;
	struct rl_gpu gpu;
	struct rl_device dev;
	struct rl_xcheck x;
	struct rl_outfiles outs;
	struct rl_outfile *out;
	struct rl_err err;
	char origin[512], st[64];
	rl_hwdb *db;
	uint64_t index = 0;
	int opt, rc;

	rl_cli_getopt(RL_CMD_PROBE, &go);
	while ((opt = getopt_long(argc, argv, go.shortopts, go.longopts, NULL)) != -1) {
		switch (opt) {
		case RL_OPT_DEVICE:
			if (rl_parse_u64(optarg, &index, &err) < 0 || index > INT_MAX)
				return rl_cli_usage("probe", "--device: expected a device index, got '%s'",
				                    optarg);
			break;
		case RL_OPT_ATTRS: attrs = optarg; break;
		case RL_OPT_HWDB: hwdb = optarg; break;
		case 'o': output = optarg; break;
		case 'f':
			if (rl_probe_format_parse(optarg, &fmt) < 0)
				return rl_cli_usage("probe", "unknown format '%s' (expected table, json, "
				                    "hwdb or attrs)", optarg);
			break;
		default: return rl_cli_option_other("probe", opt, usage, argv);
		}
	}
	if (optind != argc)
		return rl_cli_usage("probe", "unexpected argument '%s'", argv[optind]);
	/* checked and opened before anything is read */
	rl_outfiles_init(&outs);
	rl_outfiles_input(&outs, "--attrs", attrs);
	out = rl_outfiles_add(&outs, "-o", output);
	if ((rc = rl_cli_outputs_open(&outs)) != 0)
		return rc;

	if (attrs != NULL) {
		rc = rl_gpu_load(attrs, &gpu, &err);
		snprintf(origin, sizeof(origin), "the attribute set %s", attrs);
	} else {
		rc = rl_cuda_query((int)index, &gpu, &err);
		snprintf(origin, sizeof(origin), "a CUDA device query");
	}
	if (rc < 0) {
		rl_cli_error("%s", err.msg);
		rl_outfiles_release(&outs);
		return RL_EXIT_FAIL;
	}
	db = rl_cli_open_hwdb(hwdb);
	if (db == NULL) {
		rl_outfiles_release(&outs);
		return RL_EXIT_FAIL;
	}
	if (rl_cli_derive(db, &gpu, &dev, &x) < 0) {
		rl_hwdb_free(db);
		rl_outfiles_release(&outs);
		return RL_EXIT_FAIL;
	}
	stamp(st, sizeof(st));
	memset(&pi, 0, sizeof(pi));
	pi.gpu = &gpu;
	pi.dev = &dev;
	pi.arch = rl_arch_find(gpu.cc_major, gpu.cc_minor, gpu.name, &pi.arch_assumed);
	pi.x = &x;
	pi.origin = origin;
	pi.stamp = st;
	rc = rl_probe_write(out->f, fmt, &pi);
	if (rc < 0)
		rl_cli_error("%s", rl_strerror(rc));
	else
		rc = rl_cli_outputs_commit(&outs);
	rl_outfiles_release(&outs);
	if (rc == 0 && fmt != RL_PROBE_TABLE && fmt != RL_PROBE_JSON) {
		size_t i;

		for (i = 0; i < x.nwarnings; i++)
			rl_cli_error("warning: %s", x.warning[i]);
	}
	rl_device_release(&dev);
	rl_hwdb_free(db);
	return rc < 0 ? RL_EXIT_FAIL : RL_EXIT_OK;
}

int cmd_devices(int argc, char **argv)
{
	struct rl_cli_getopt go;
	struct rl_err err;
	int opt, n, i;

	rl_cli_getopt(RL_CMD_DEVICES, &go);
	while ((opt = getopt_long(argc, argv, go.shortopts, go.longopts, NULL)) != -1) {
		switch (opt) {
		default: return rl_cli_option_other("devices", opt, devices_usage, argv);
		}
	}
	if (optind != argc)
		return rl_cli_usage("devices", "unexpected argument '%s'", argv[optind]);
	if (rl_cuda_device_count(&n, &err) < 0) {
		rl_cli_error("%s", err.msg);
		return RL_EXIT_FAIL;
	}
	printf("%-3s %-32s %4s %5s %9s  %s\n", "dev", "name", "cc", "SMs", "memory", "PCI bus");
	for (i = 0; i < n; i++) {
		struct rl_gpu g;

		if (rl_cuda_query(i, &g, &err) < 0) {
			rl_cli_error("%s", err.msg);
			return RL_EXIT_FAIL;
		}
		printf("%-3d %-32s %2d.%d %5d %5.1f GiB  %s\n", i, g.name, g.cc_major, g.cc_minor,
		       g.sm_count, (double)g.total_mem_bytes / (1024.0 * 1024 * 1024), g.pci_bus_id);
	}
	return RL_EXIT_OK;
}
