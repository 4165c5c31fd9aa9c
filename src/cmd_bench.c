/* cmd_bench.c - "roofline bench": measure the GPU's roofs with the CUDA
 * microbenchmarks, or report a recording of them (--from FILE), so that
 * what was measured on one machine can be reported on any other. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_report.h"
#include "cli.h"

static int bench_usage(void)
{
	return rl_cli_help(RL_CMD_BENCH,
	                   "Usage: roofline bench [OPTIONS]\n"
	                   "\n"
	                   "Measure the roofs of a CUDA GPU with microbenchmarks: device-memory bandwidth\n"
	                   "(copy, read, write, triad), L2 bandwidth, the vector pipes (FP32 FMA and\n"
	                   "multiply-only, FP64, FP16 and BF16 packed), cos and exp, tensor-core GEMMs\n"
	                   "per dtype through cuBLASLt, the four launch overheads, and the intensity\n"
	                   "sweep (r dependent multiplies per element, r = 1..1024) with its knee. Each\n"
	                   "figure is set beside the reference device's (the database entry that matches\n"
	                   "the GPU, or --hw), each sweep beside the model's curve.\n",
	                   "Exit status: 0 success, 1 no CUDA support, a CUDA error, a failed result\n"
	                   "check or a bad recording, 2 usage error.\n");
}

int cmd_bench(int argc, char **argv)
{
	struct rl_cli_getopt go;
	const char *from = NULL, *hw = NULL, *hwdb = NULL, *output = NULL, *sweep = "fp32";
	int gpus = 0, gpus_given = 0;
	enum rl_bench_format fmt = RL_BENCH_FMT_TABLE;
	struct rl_bench b;
	struct rl_device owned;
	const struct rl_device *ref = NULL;
	struct rl_err err;
	struct rl_outfiles outs;
	struct rl_outfile *out;
	rl_hwdb *db = NULL;
	unsigned mask = RL_CLI_BENCH_DEFAULT;
	int opt, dev = 0, quick = 0, rc, status = RL_EXIT_OK;

	rl_cli_getopt(RL_CMD_BENCH, &go);
	while ((opt = getopt_long(argc, argv, go.shortopts, go.longopts, NULL)) != -1) {
		switch (opt) {
		case RL_OPT_DEVICE:
			if (rl_cli_device_index("bench", optarg, &dev) != 0)
				return RL_EXIT_USAGE;
			break;
		case RL_OPT_QUICK: quick = 1; break;
		case RL_OPT_ONLY:
			if (rl_cli_bench_only("bench", optarg, &mask) != 0)
				return RL_EXIT_USAGE;
			break;
		case RL_OPT_GPUS:
			if (rl_cli_gpus_opt("bench", optarg, &gpus) != 0)
				return RL_EXIT_USAGE;
			gpus_given = 1;
			break;
		case RL_OPT_FROM: from = optarg; break;
		case RL_OPT_HW: hw = optarg; break;
		case RL_OPT_HWDB: hwdb = optarg; break;
		case 'o': output = optarg; break;
		case 'f':
			if (strcmp(optarg, "table") == 0)
				fmt = RL_BENCH_FMT_TABLE;
			else if (strcmp(optarg, "csv") == 0)
				fmt = RL_BENCH_FMT_CSV;
			else if (strcmp(optarg, "json") == 0)
				fmt = RL_BENCH_FMT_JSON;
			else if (strcmp(optarg, "sweep") == 0 || strncmp(optarg, "sweep:", 6) == 0) {
				fmt = RL_BENCH_FMT_SWEEP;
				sweep = optarg[5] == ':' ? optarg + 6 : "fp32";
			} else
				return rl_cli_usage("bench", "unknown format '%s' (expected table, csv, json "
				                    "or sweep[:DTYPE])", optarg);
			break;
		default: return rl_cli_option_other("bench", opt, bench_usage, argv);
		}
	}
	if (optind != argc)
		return rl_cli_usage("bench", "unexpected argument '%s'", argv[optind]);
	if (from != NULL && (quick || gpus_given || mask != RL_CLI_BENCH_DEFAULT))
		return rl_cli_usage("bench", "--quick, --only and --gpus measure; --from reports a "
		                    "recording");
	if (gpus_given && !(mask & RL_CLI_BENCH_COLLECTIVES))
		return rl_cli_usage("bench", "--gpus is for --only collectives (every other group "
		                    "runs on one GPU: --device)");
	if ((mask & RL_CLI_BENCH_COLLECTIVES) && dev != 0)
		return rl_cli_usage("bench", "--device: the collectives run on devices 0 to N - 1 "
		                    "(--gpus N)");
	/* checked and opened before anything is read or measured */
	rl_outfiles_init(&outs);
	rl_outfiles_input(&outs, "--from", from);
	rl_cli_hw_input(&outs, "--hw", hw);
	out = rl_outfiles_add(&outs, "-o", output);
	if ((rc = rl_cli_outputs_open(&outs)) != 0)
		return rc;

	memset(&owned, 0, sizeof(owned));
	if (from != NULL) {
		rc = rl_bench_read(from, &b, &err);
		if (rc < 0) {
			rl_cli_error("%s", err.msg);
			rl_bench_release(&b);
			rl_outfiles_release(&outs);
			return RL_EXIT_FAIL;
		}
	} else if (rl_cli_bench_run(dev, gpus, quick, mask, &b) < 0) {
		rl_bench_release(&b);
		rl_outfiles_release(&outs);
		return RL_EXIT_FAIL;
	}
	if (fmt == RL_BENCH_FMT_TABLE || fmt == RL_BENCH_FMT_CSV) {
		db = rl_cli_open_hwdb(hwdb);
		ref = db != NULL ? rl_cli_reference(db, hw, &b.gpu, &owned) : NULL;
		if (ref == NULL)
			status = RL_EXIT_FAIL;
	}
	if (status == RL_EXIT_OK) {
		rc = rl_bench_report(out->f, &b, ref, fmt, sweep, &err);
		if (rc < 0) {
			rl_cli_error("%s", rc == RL_ERR_NOTFOUND ? err.msg : rl_strerror(rc));
			status = RL_EXIT_FAIL;
		} else if (rl_cli_outputs_commit(&outs) < 0) {
			status = RL_EXIT_FAIL;
		}
	}
	rl_outfiles_release(&outs);
	if (status == RL_EXIT_OK && rl_cli_bench_failed(&b) > 0)
		status = RL_EXIT_FAIL;
	rl_device_release(&owned);
	rl_hwdb_free(db);
	rl_bench_release(&b);
	return status;
}


