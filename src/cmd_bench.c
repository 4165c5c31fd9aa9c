/* cmd_bench.c - "roofline bench" (measure the GPU's roofs), "roofline
 * calibrate" (a device file with the measured roofs) and "roofline validate"
 * (the model's verdicts against the GPU, op by op). Each can work from a
 * recording (--from FILE) instead of the GPU, so that what was measured on
 * one machine can be reported, calibrated and validated on any other. */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "json.h"
#include "bench_report.h"
#include "calibrate.h"
#include "calsystem.h"
#include "hwsystem.h"
#include "cli.h"
#include "cuda.h"
#include "gpubench.h"
#include "num.h"
#include "synth.h"
#include "validate.h"

static int bench_usage(void)
{
	printf("Usage: roofline bench [OPTIONS]\n"
	       "\n"
	       "Measure the roofs of a CUDA GPU with microbenchmarks: device-memory bandwidth\n"
	       "(copy, read, write, triad), L2 bandwidth, the vector pipes (FP32 FMA and\n"
	       "multiply-only, FP64, FP16 and BF16 packed), cos and exp, tensor-core GEMMs\n"
	       "per dtype through cuBLASLt, the four launch overheads, and the intensity\n"
	       "sweep (r dependent multiplies per element, r = 1..1024) with its knee. Each\n"
	       "figure is set beside the reference device's (the database entry that matches\n"
	       "the GPU, or --hw), each sweep beside the model's curve.\n"
	       "\n"
	       "Options:\n"
	       "      --device N     CUDA device index (default 0)\n"
	       "      --quick        fewer repetitions and smaller sizes: a smoke run\n"
	       "      --only LIST    run only these groups, comma-separated: memory, pipes\n"
	       "                     (vector and special), gemm, launch, sweep; or\n"
	       "                     collectives (not run by default): NCCL all-reduce,\n"
	       "                     all-gather, reduce-scatter, all-to-all and send/recv\n"
	       "                     across the GPUs, 8 B to 4 GiB, algbw and busbw as\n"
	       "                     nccl-tests reports them, each result checked\n"
	       "      --gpus N       collectives on devices 0 to N - 1 (default: all)\n"
	       "      --from FILE    report a recording (bench -f json) instead of measuring\n"
	       "      --hw ID|FILE   reference device (default: the entry matching the GPU)\n"
	       "      --hwdb DIR     device database directory\n"
	       "  -f, --format FMT   table (default), csv (one row per measurement), json\n"
	       "                     (the recording: every sample, for --from) or\n"
	       "                     sweep[:DTYPE] (the fp32, bf16 or fp16 sweep as an op list\n"
	       "                     with measured_us, for plot --sweep; default fp32)\n"
	       "  -o, --output FILE  write to FILE (whole or not at all)\n"
	       "  -h, --help         show this help and exit\n"
	       "  -V, --version      show the version and exit\n"
	       "\n"
	       "Exit status: 0 success, 1 no CUDA support, a CUDA error, a failed result\n"
	       "check or a bad recording, 2 usage error.\n");
	return RL_EXIT_OK;
}

static int calibrate_usage(void)
{
	printf("Usage: roofline calibrate -o FILE [OPTIONS]\n"
	       "\n"
	       "Run the benchmarks of 'roofline bench' and write a device file whose roofs\n"
	       "are the measured ones (median of the samples; memory bandwidth from the copy\n"
	       "kernel, tensor peaks from the best GEMM shape per dtype; min_kernel_us stays\n"
	       "the datasheet's), each with its method as source and the datasheet\n"
	       "figure kept beside it as datasheet.KEY. 'classify --hw FILE' then predicts\n"
	       "with the measured roofs; --roofs datasheet with the datasheet's.\n"
	       "\n"
	       "Options:\n"
	       "  -o, --output FILE  the device file to write (whole or not at all)\n"
	       "      --device N     CUDA device index (default 0)\n"
	       "      --quick        a smoke run (its file says so)\n"
	       "      --from FILE    calibrate from a recording (bench -f json)\n"
	       "      --record FILE  also write the recording the roofs come from\n"
	       "      --hw ID|FILE   the datasheet entry (default: the one matching the GPU;\n"
	       "                     the probe's derivation when none matches)\n"
	       "      --id ID        the new device's id (default: the datasheet's + -measured)\n"
	       "      --collectives  measure the NCCL collectives instead (bench --only\n"
	       "                     collectives) and write a system file: all-reduce's bus\n"
	       "                     bandwidth and latency as intra_bandwidth_gbs and\n"
	       "                     intra_latency_us, every kind's as nccl.KIND_busbw_gbs,\n"
	       "                     the system's figures beside them (--hw SYSTEM needed;\n"
	       "                     a recording of collectives given to --from does the same)\n"
	       "      --gpus N       the collectives on devices 0 to N - 1 (default: all)\n"
	       "      --hwdb DIR     device database directory\n"
	       "  -h, --help         show this help and exit\n"
	       "  -V, --version      show the version and exit\n"
	       "\n"
	       "Exit status: 0 success, 1 no CUDA support, a CUDA error, a failed result\n"
	       "check or a bad recording, 2 usage error.\n");
	return RL_EXIT_OK;
}

static int validate_usage(void)
{
	printf("Usage: roofline validate [OPTIONS] [OPS.csv]\n"
	       "\n"
	       "Run synthetic ops on the GPU (the built-in set, or each row of OPS.csv that a\n"
	       "synthetic kernel can do: pointwise, copy, reduction, softmax, layernorm,\n"
	       "matmul) and set each measured time beside the model's prediction: the error,\n"
	       "the predicted and the measured bound, then median and 90th-percentile error\n"
	       "and the confusion matrix of the bounds. Measured bound: overhead when the\n"
	       "per-op wall time of a back-to-back launch loop exceeds 1.5x the kernel's own\n"
	       "GPU time; else compute or memory by which roof the op came closer to.\n"
	       "\n"
	       "Options:\n"
	       "      --device N            CUDA device index (default 0)\n"
	       "      --from FILE           report a recording (validate -f json) instead\n"
	       "      --list                print the built-in op list and exit\n"
	       "      --tp N                a tensor-parallel transformer layer on N GPUs\n"
	       "                            (N >= 2; refused on a machine with fewer GPUs;\n"
	       "                            the run itself is not written yet: issue 16)\n"
	       "      --hw ID|FILE          device to predict on (default: the entry matching\n"
	       "                            the GPU)\n"
	       "      --roofs WHICH         measured or datasheet roofs of a calibrated --hw\n"
	       "      --hwdb DIR            device database directory\n"
	       "      --runtime NAME        host-side runtime profile (default cpp: the\n"
	       "                            synthetic ops are launched from C)\n"
	       "      --host-overhead-us X  host cost per kernel launch in microseconds\n"
	       "  -f, --format FMT         table (default), csv, md or json (the recording)\n"
	       "  -o, --output FILE        write to FILE (whole or not at all)\n"
	       "  -h, --help               show this help and exit\n"
	       "  -V, --version            show the version and exit\n"
	       "\n"
	       "Exit status: 0 success, 1 no CUDA support, a CUDA error, a failed result\n"
	       "check, a bad op list or recording, 2 usage error.\n");
	return RL_EXIT_OK;
}

static void now_iso(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL || strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, n, "?");
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int parse_device(const char *cmd, const char *s, int *dev)
{
	struct rl_err err;
	uint64_t v;

	if (rl_parse_u64(s, &v, &err) < 0 || v > INT_MAX)
		return rl_cli_usage(cmd, "--device: expected a device index, got '%s'", s);
	*dev = (int)v;
	return 0;
}

/* The groups of a bench run, in the order they run. */
static const struct {
	const char *name;
	int (*fn)(int dev, int quick, struct rl_bench *b, struct rl_err *err);
} groups[] = {
	{"memory", rl_gpubench_memory}, {"pipes", rl_gpubench_pipes},
	{"gemm", rl_gpubench_gemm},     {"launch", rl_gpubench_launch},
	{"sweep", rl_gpubench_sweep},
	/* across the machine's GPUs (--gpus): rl_gpubench_collectives */
	{"collectives", NULL},
};
#define N_GROUPS (sizeof(groups) / sizeof(groups[0]))
#define COLLECTIVES (1u << (N_GROUPS - 1))
/* What a run without --only measures: every group of one GPU. */
#define DEFAULT_MASK (((1u << N_GROUPS) - 1) & ~COLLECTIVES)

/* --gpus N of command CMD: 1 to 64 into *GPUS; 0, or a printed usage error
 * (RL_EXIT_USAGE). */
static int gpus_opt(const char *cmd, const char *arg, int *gpus)
{
	struct rl_err e;
	uint64_t v;

	if (rl_parse_u64(arg, &v, &e) < 0 || v < 1 || v > 64)
		return rl_cli_usage(cmd, "--gpus: expected a number of GPUs (1 to 64), got '%s'",
		                    arg);
	*gpus = (int)v;
	return 0;
}

/* Parses --only into the bit set *MASK. */
static int parse_only(const char *cmd, const char *list, unsigned *mask)
{
	const char *p = list;

	*mask = 0;
	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < N_GROUPS; i++)
			if (strlen(groups[i].name) == n && strncmp(p, groups[i].name, n) == 0)
				break;
		if (i == N_GROUPS)
			return rl_cli_usage(cmd, "--only: unknown group '%.*s' (expected memory, pipes, "
			                    "gemm, launch, sweep or collectives)", (int)n, p);
		*mask |= 1u << i;
		p += n + (p[n] == ',');
	}
	return *mask == 0 ? rl_cli_usage(cmd, "--only: no group given") : 0;
}

/* Runs the groups of MASK on DEV into *B; progress on stderr. Returns 0, or
 * -1 after printing the error (the rl_cli_* convention, cli.h: a status for
 * the exit code, not an RL_ERR_*). */
static int run_bench(int dev, int gpus, int quick, unsigned mask, struct rl_bench *b)
{
	struct rl_err err;
	size_t i;
	double t0 = seconds();
	int version;

	rl_bench_init(b);
	snprintf(b->version, sizeof(b->version), "%s", PACKAGE_VERSION);
	now_iso(b->date, sizeof(b->date));
	b->quick = quick;
	/* NCCL first: where it is missing, one line says so, GPU or not */
	if ((mask & COLLECTIVES) && rl_gpubench_nccl_version(&version, &err) < 0) {
		rl_cli_error("bench --only collectives: %s", err.msg);
		return -1;
	}
	if (rl_cuda_query(dev, &b->gpu, &err) < 0) {
		rl_cli_error("%s", err.msg);
		return -1;
	}
	for (i = 0; i < N_GROUPS; i++) {
		double t = seconds();
		size_t before = b->n;

		if (!(mask & (1u << i)))
			continue;
		if (groups[i].fn != NULL)
			fprintf(stderr, "roofline: bench: %s on %s (device %d)...\n", groups[i].name,
			        b->gpu.name, dev);
		else if (gpus == 0)
			fprintf(stderr, "roofline: bench: collectives on %s (every GPU)...\n",
			        b->gpu.name);
		else
			fprintf(stderr, "roofline: bench: collectives on %s (devices 0 to %d)...\n",
			        b->gpu.name, gpus - 1);
		if ((groups[i].fn != NULL ? groups[i].fn(dev, quick, b, &err)
		                          : rl_gpubench_collectives(gpus, quick, b, &err)) < 0) {
			rl_cli_error("bench %s: %s", groups[i].name, err.msg);
			return -1;
		}
		fprintf(stderr, "roofline: bench: %s: %zu measurement%s in %.1f s\n",
		        groups[i].name, b->n - before, b->n - before == 1 ? "" : "s",
		        seconds() - t);
	}
	fprintf(stderr, "roofline: bench: done in %.1f s\n", seconds() - t0);
	return 0;
}

/* Number of entries whose result check failed; each is named on stderr. */
static size_t failed_checks(const struct rl_bench *b)
{
	size_t i, n = 0;

	for (i = 0; i < b->n; i++)
		if (b->e[i].check < 0) {
			rl_cli_error("bench: %s %s %s %s: the result check FAILED",
			             rl_bench_group_name(b->e[i].group), b->e[i].name, b->e[i].dtype,
			             b->e[i].shape);
			n++;
		}
	return n;
}

/* The reference device: --hw SPEC, else the database entry matching G, else
 * the probe's derivation of G (into *OWNED). NULL on error (printed). */
static const struct rl_device *reference(rl_hwdb *db, const char *spec, const struct rl_gpu *g,
                                         struct rl_device *owned)
{
	struct rl_xcheck x;
	char why[256];
	const struct rl_device *d;

	if (spec != NULL)
		return rl_cli_device(db, spec, owned);
	d = rl_xcheck_match(db, g, why, sizeof(why));
	if (d != NULL)
		return d;
	rl_cli_error("warning: %s matches no database entry (%s); the reference is the "
	             "probe's derivation", g->name, why);
	return rl_cli_derive(db, g, owned, &x) < 0 ? NULL : owned;
}

int cmd_bench(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"device", required_argument, NULL, 'd'}, {"quick", no_argument, NULL, 'q'},
		{"only", required_argument, NULL, 'O'},   {"from", required_argument, NULL, 'F'},
		{"hw", required_argument, NULL, 'w'},     {"hwdb", required_argument, NULL, 'D'},
		{"format", required_argument, NULL, 'f'}, {"output", required_argument, NULL, 'o'},
		{"gpus", required_argument, NULL, 'G'},
		{"help", no_argument, NULL, 'h'},         {"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
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
	unsigned mask = DEFAULT_MASK;
	int opt, dev = 0, quick = 0, rc, status = RL_EXIT_OK;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":f:o:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			if (parse_device("bench", optarg, &dev) != 0)
				return RL_EXIT_USAGE;
			break;
		case 'q': quick = 1; break;
		case 'O':
			if (parse_only("bench", optarg, &mask) != 0)
				return RL_EXIT_USAGE;
			break;
		case 'G':
			if (gpus_opt("bench", optarg, &gpus) != 0)
				return RL_EXIT_USAGE;
			gpus_given = 1;
			break;
		case 'F': from = optarg; break;
		case 'w': hw = optarg; break;
		case 'D': hwdb = optarg; break;
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
		case 'h': return bench_usage();
		case 'V': return rl_cli_version();
		case ':': return rl_cli_usage("bench", "option '%s' needs a value", argv[optind - 1]);
		default: return rl_cli_usage("bench", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc)
		return rl_cli_usage("bench", "unexpected argument '%s'", argv[optind]);
	if (from != NULL && (quick || gpus_given || mask != DEFAULT_MASK))
		return rl_cli_usage("bench", "--quick, --only and --gpus measure; --from reports a "
		                    "recording");
	if (gpus_given && !(mask & COLLECTIVES))
		return rl_cli_usage("bench", "--gpus is for --only collectives (every other group "
		                    "runs on one GPU: --device)");
	if ((mask & COLLECTIVES) && dev != 0)
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
	} else if (run_bench(dev, gpus, quick, mask, &b) < 0) {
		rl_bench_release(&b);
		rl_outfiles_release(&outs);
		return RL_EXIT_FAIL;
	}
	if (fmt == RL_BENCH_FMT_TABLE || fmt == RL_BENCH_FMT_CSV) {
		db = rl_cli_open_hwdb(hwdb);
		ref = db != NULL ? reference(db, hw, &b.gpu, &owned) : NULL;
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
	if (status == RL_EXIT_OK && failed_checks(&b) > 0)
		status = RL_EXIT_FAIL;
	rl_device_release(&owned);
	rl_hwdb_free(db);
	rl_bench_release(&b);
	return status;
}


static void print_calibration(const struct rl_device *cal, const char *path)
{
	size_t i;

	printf("%s: %s\n", path, cal->name);
	printf("%-23s %10s %10s %7s\n", "key", "measured", "datasheet", "ratio");
	for (i = 0; i < RL_HW_NUM_COUNT; i++) {
		enum rl_hw_key k = rl_hw_key_at(i);
		const struct rl_hwval *m = &cal->num[k], *d = &cal->datasheet[k];

		if (!m->present || (!d->present && strncmp(m->source, "measured by roofline", 20) != 0))
			continue;
		if (d->present && d->value > 0)
			printf("%-23s %10s %10s %6.1f%%\n", rl_hw_key_name(k), m->text, d->text,
			       100 * m->value / d->value);
		else
			printf("%-23s %10s %10s\n", rl_hw_key_name(k), m->text, "-");
	}
}

static int has_collectives(const struct rl_bench *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (b->e[i].group == RL_BENCH_COLLECTIVE)
			return 1;
	return 0;
}

static void print_system_key(const char *key, const struct rl_hwval *m, const struct rl_hwval *d)
{
	if (!m->present)
		return;
	if (d->present && d->value > 0)
		printf("%-28s %10s %10s %6.1f%%\n", key, m->text, d->text, 100 * m->value / d->value);
	else
		printf("%-28s %10s %10s\n", key, m->text, "-");
}

/* The system file of a recording of collectives: against the system --hw
 * names (an id of the database or FILE.system), to OUT, the output OUTPUT
 * of OUTS, which it commits (and the recording with it). Returns the exit
 * status. */
static int calibrate_system(const struct rl_bench *b, rl_hwdb *db, const char *hw,
                            const char *id, const char *output, struct rl_outfiles *outs,
                            FILE *out)
{
	const struct rl_hwsystem *sys;
	struct rl_hwsystem owned, cal;
	struct rl_err err;
	char idbuf[256], *header = NULL;
	int status = RL_EXIT_FAIL;
	size_t n;
	int k;

	memset(&owned, 0, sizeof(owned));
	memset(&cal, 0, sizeof(cal));
	if (hw == NULL || *hw == '\0') {
		rl_cli_error("calibrate: a recording of collectives calibrates a system: give "
		             "--hw SYSTEM ('roofline hw systems' lists them) or --hw FILE.system");
		return RL_EXIT_FAIL;
	}
	n = strlen(hw);
	if (n > 7 && strcmp(hw + n - 7, ".system") == 0) {
		if (rl_hwsystem_load(hw, &owned, &err) < 0) {
			rl_cli_error("%s", err.msg);
			return RL_EXIT_FAIL;
		}
		sys = &owned;
	} else if ((sys = rl_hwdb_find_system(db, hw, &err)) == NULL) {
		rl_cli_error("calibrate: %s (a recording of collectives calibrates a system)",
		             err.msg);
		return RL_EXIT_FAIL;
	}
	snprintf(idbuf, sizeof(idbuf), "%s-measured", sys->id);
	if (rl_calsystem(b, sys, id != NULL ? id : idbuf, &cal, &err) < 0) {
		rl_cli_error("calibrate: %s", err.msg);
		goto done;
	}
	header = rl_calsystem_header(b, sys);
	if (header == NULL) {
		rl_cli_error("out of memory");
		goto done;
	}
	if (rl_hwsystem_write(out, &cal, header) < 0) {
		rl_cli_error("%s: cannot write the system file", output);
		goto done;
	}
	if (rl_cli_outputs_commit(outs) < 0)
		goto done;
	printf("%s: %s\n", output, cal.name);
	printf("%-28s %10s %10s %7s\n", "key", "measured", "datasheet", "ratio");
	print_system_key("intra_bandwidth_gbs", &cal.num[RL_SYS_INTRA_BANDWIDTH_GBS],
	                 &cal.datasheet[RL_SYS_INTRA_BANDWIDTH_GBS]);
	print_system_key("intra_latency_us", &cal.num[RL_SYS_INTRA_LATENCY_US],
	                 &cal.datasheet[RL_SYS_INTRA_LATENCY_US]);
	for (k = 0; k < RL_SYS_NCCL_COUNT; k++) {
		char key[64];

		snprintf(key, sizeof(key), "nccl.%s_busbw_gbs",
		         rl_kind_name((enum rl_kind)(RL_KIND_ALLREDUCE + k)));
		print_system_key(key, &cal.nccl_busbw[k], &cal.published_busbw[k]);
	}
	status = RL_EXIT_OK;
done:
	free(header);
	rl_hwsystem_release(&cal);
	rl_hwsystem_release(&owned);
	return status;
}

int cmd_calibrate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"device", required_argument, NULL, 'd'}, {"quick", no_argument, NULL, 'q'},
		{"from", required_argument, NULL, 'F'},   {"record", required_argument, NULL, 'R'},
		{"hw", required_argument, NULL, RL_OPT_HW}, {"id", required_argument, NULL, 'I'},
		{"hwdb", required_argument, NULL, RL_OPT_HWDB}, {"output", required_argument, NULL, 'o'},
		{"collectives", no_argument, NULL, 'C'},  {"gpus", required_argument, NULL, 'G'},
		{"help", no_argument, NULL, 'h'},         {"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *from = NULL, *record = NULL, *id = NULL;
	int collectives = 0, gpus = 0;
	const char *output = NULL;
	struct rl_cli_model_opts m;
	struct rl_bench b;
	struct rl_calib c;
	struct rl_device cal;
	const struct rl_device *ds;
	struct rl_err err;
	struct rl_outfiles outs;
	struct rl_outfile *out, *rec = NULL;
	char idbuf[256], *header;
	int opt, rc, dev = 0, quick = 0, status = RL_EXIT_FAIL;
	double t0 = seconds();

	rl_cli_model_init(&m, "calibrate", NULL);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			if (parse_device("calibrate", optarg, &dev) != 0)
				return RL_EXIT_USAGE;
			break;
		case 'q': quick = 1; break;
		case 'F': from = optarg; break;
		case 'R': record = optarg; break;
		case RL_OPT_HW:
		case RL_OPT_HWDB: rl_cli_model_option(&m, opt, optarg); break;
		case 'I': id = optarg; break;
		case 'o': output = optarg; break;
		case 'C': collectives = 1; break;
		case 'G':
			if (gpus_opt("calibrate", optarg, &gpus) != 0)
				return RL_EXIT_USAGE;
			collectives = 1;
			break;
		case 'h': return calibrate_usage();
		case 'V': return rl_cli_version();
		case ':': return rl_cli_usage("calibrate", "option '%s' needs a value", argv[optind - 1]);
		default: return rl_cli_usage("calibrate", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc)
		return rl_cli_usage("calibrate", "unexpected argument '%s'", argv[optind]);
	if (output == NULL || strcmp(output, "-") == 0)
		return rl_cli_usage("calibrate", "-o FILE is required (the device file to write)");
	if (from != NULL && (quick || record != NULL || collectives))
		return rl_cli_usage("calibrate", "--quick, --record, --collectives and --gpus "
		                    "measure; --from reads a recording");
	if (id != NULL && (*id == '\0' || strpbrk(id, " \t=;#/") != NULL))
		return rl_cli_usage("calibrate", "--id: '%s' is not a device id (letters, digits, "
		                    "'-', '_' and '.')", id);

	if (collectives && m.hw == NULL)
		return rl_cli_usage("calibrate", "--collectives calibrates a system: give --hw "
		                    "SYSTEM ('roofline hw systems' lists them) or --hw FILE.system");
	/* both outputs checked and opened before anything is read or measured,
	 * and committed together */
	rl_outfiles_init(&outs);
	rl_outfiles_input(&outs, "--from", from);
	rl_cli_model_inputs(&m, &outs);
	out = rl_outfiles_add(&outs, "-o", output);
	if (record != NULL)
		rec = rl_outfiles_add(&outs, "--record", record);
	if ((rc = rl_cli_outputs_open(&outs)) != 0)
		return rc;
	if (rl_cli_model_open_db(&m) < 0) {
		rl_outfiles_release(&outs);
		return RL_EXIT_FAIL;
	}
	memset(&cal, 0, sizeof(cal));
	if (from != NULL) {
		if (rl_bench_read(from, &b, &err) < 0) {
			rl_cli_error("%s", err.msg);
			goto done;
		}
	} else if (run_bench(dev, gpus, quick, collectives ? COLLECTIVES : DEFAULT_MASK, &b) < 0) {
		goto done;
	}
	if (rec != NULL && rl_bench_write_json(rec->f, &b) < 0) {
		rl_cli_error("%s: cannot write the recording", record);
		goto done;
	}
	if (has_collectives(&b)) {
		status = calibrate_system(&b, m.db, m.hw, id, output, &outs, out->f);
		goto done;
	}
	if (failed_checks(&b) > 0)
		rl_cli_error("warning: the failed measurements keep their datasheet roofs");
	ds = reference(m.db, m.hw, &b.gpu, &m.owned);
	if (ds == NULL)
		goto done;
	snprintf(idbuf, sizeof(idbuf), "%s-measured", ds->id);
	rl_calib_roofs(&b, &c);
	if (rl_calibrate(&b, &c, ds, id != NULL ? id : idbuf, &cal, &err) < 0) {
		rl_cli_error("%s", err.msg);
		goto done;
	}
	header = rl_calibrate_header(&b, ds);
	if (header == NULL) {
		rl_cli_error("out of memory");
		goto done;
	}
	if (rl_device_write(out->f, &cal, header) < 0) {
		rl_cli_error("%s: cannot write the device file", output);
	} else if (rl_cli_outputs_commit(&outs) == 0) {
		print_calibration(&cal, output);
		if (from == NULL)
			fprintf(stderr, "roofline: calibrate: %.1f s in all\n", seconds() - t0);
		status = RL_EXIT_OK;
	}
	free(header);
done:
	rl_outfiles_release(&outs);
	rl_device_release(&cal);
	rl_bench_release(&b);
	rl_cli_model_release(&m);
	return status;
}

/* Reads the op list PATH (or the built-in one) as text. */
static char *read_text(const char *path)
{
	struct rl_err err;
	char *s;

	if (path == NULL)
		return strdup(rl_validate_builtin());
	s = rl_json_slurp(path, "an op list", &err);
	if (s == NULL)
		rl_cli_error("%s", err.msg);
	return s;
}

/* Runs every runnable op of V on DEV; progress on stderr. Returns 0, or -1
 * after printing the error (as run_bench). */
static int run_validation(int dev, struct rl_validation *v)
{
	struct rl_err err;
	rl_synth_ctx *ctx;
	size_t i;
	double t0 = seconds();

	if (rl_cuda_query(dev, &v->gpu, &err) < 0) {
		rl_cli_error("%s", err.msg);
		return -1;
	}
	snprintf(v->version, sizeof(v->version), "%s", PACKAGE_VERSION);
	now_iso(v->date, sizeof(v->date));
	ctx = rl_synth_open(dev, &err);
	if (ctx == NULL) {
		rl_cli_error("%s", err.msg);
		return -1;
	}
	for (i = 0; i < v->list.n; i++) {
		struct rl_vop *o = &v->v[i];
		int rc;

		if (!o->runnable)
			continue;
		rc = rl_synth_run(ctx, &o->spec, &o->m, &err);
		if (rc == RL_ERR_UNSUPPORTED || rc == RL_ERR_RANGE) {
			o->runnable = 0;
			snprintf(o->why, sizeof(o->why), "%s", err.msg);
			continue;
		}
		if (rc < 0) {
			rl_cli_error("validate: %s: %s", o->op->name, err.msg);
			rl_synth_close(ctx);
			return -1;
		}
		o->measured = 1;
	}
	rl_synth_close(ctx);
	fprintf(stderr, "roofline: validate: %zu op%s in %.1f s\n", v->list.n,
	        v->list.n == 1 ? "" : "s", seconds() - t0);
	return 0;
}

int cmd_validate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"device", required_argument, NULL, 'd'},
		{"from", required_argument, NULL, 'F'},
		{"list", no_argument, NULL, 'l'},
		{"tp", required_argument, NULL, 'T'},
		RL_CLI_MODEL_LONGOPTS,
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *from = NULL, *output = NULL, *ops = NULL;
	enum rl_vformat fmt = RL_VFMT_TABLE;
	struct rl_cli_model_opts m;
	struct rl_validation v;
	struct rl_model_ctx ctx;
	struct rl_errlist errs;
	struct rl_err err;
	struct rl_outfiles outs;
	struct rl_outfile *out;
	size_t i;
	int opt, dev = 0, rc, status = RL_EXIT_FAIL, tp = 0;

	rl_cli_model_init(&m, "validate", "cpp");
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":f:o:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			if (parse_device("validate", optarg, &dev) != 0)
				return RL_EXIT_USAGE;
			break;
		case 'F': from = optarg; break;
		case 'l': fputs(rl_validate_builtin(), stdout); return RL_EXIT_OK;
		case 'T': {
			struct rl_err e;
			uint64_t n;

			if (rl_parse_u64(optarg, &n, &e) < 0 || n > 64)
				return rl_cli_usage("validate", "--tp: expected a number of GPUs, got "
				                    "'%s'", optarg);
			if (n < 2)
				return rl_cli_usage("validate", "--tp %s: tensor parallelism needs 2 GPUs "
				                    "or more", optarg);
			tp = (int)n;
			break;
		}
		RL_CLI_MODEL_CASES:
			if (rl_cli_model_option(&m, opt, optarg) != 0)
				return RL_EXIT_USAGE;
			break;
		case 'o': output = optarg; break;
		case 'f':
			if (strcmp(optarg, "table") == 0)
				fmt = RL_VFMT_TABLE;
			else if (strcmp(optarg, "csv") == 0)
				fmt = RL_VFMT_CSV;
			else if (strcmp(optarg, "md") == 0)
				fmt = RL_VFMT_MD;
			else if (strcmp(optarg, "json") == 0)
				fmt = RL_VFMT_JSON;
			else
				return rl_cli_usage("validate", "unknown format '%s' (expected table, csv, "
				                    "md or json)", optarg);
			break;
		case 'h': return validate_usage();
		case 'V': return rl_cli_version();
		case ':': return rl_cli_usage("validate", "option '%s' needs a value", argv[optind - 1]);
		default: return rl_cli_usage("validate", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		ops = argv[optind++];
	if (optind != argc)
		return rl_cli_usage("validate", "unexpected argument '%s'", argv[optind]);
	if (from != NULL && ops != NULL)
		return rl_cli_usage("validate", "--from replays a recording, which holds its op list");
	if (tp > 0) {
		int ngpu = 0;

		if (from != NULL || ops != NULL)
			return rl_cli_usage("validate", "--tp runs its own layers (no op list, no "
			                    "--from)");
		if (rl_cuda_device_count(&ngpu, &err) < 0) {
			rl_cli_error("validate --tp %d: %s", tp, err.msg);
			return RL_EXIT_FAIL;
		}
		if (ngpu < tp) {
			rl_cli_error("validate --tp %d: this machine has %d GPU%s; a tensor-parallel "
			             "layer needs %d (tp needs 2 GPUs or more)",
			             tp, ngpu, ngpu == 1 ? "" : "s", tp);
			return RL_EXIT_FAIL;
		}
		/* issue 16 item 3: the layers' run across the GPUs is not written
		 * yet; no machine with several GPUs could run it */
		rl_cli_error("validate --tp %d: the tensor-parallel layer's run across %d GPUs is "
		             "not implemented yet (issue 16); 'roofline model --tp %d' gives its "
		             "prediction",
		             tp, tp, tp);
		return RL_EXIT_FAIL;
	}
	/* checked and opened before anything is read or measured */
	rl_outfiles_init(&outs);
	rl_outfiles_input(&outs, "--from", from);
	rl_outfiles_input(&outs, "the op list", ops);
	rl_cli_model_inputs(&m, &outs);
	out = rl_outfiles_add(&outs, "-o", output);
	if ((rc = rl_cli_outputs_open(&outs)) != 0)
		return rc;
	memset(&ctx, 0, sizeof(ctx));
	rl_errlist_init(&errs);
	if (from != NULL) {
		rc = rl_validation_read(from, &v, &errs, &err);
		if (rc < 0) {
			if (errs.count > 0)
				rl_cli_read_errors(&errs, from, rc);
			rl_cli_error("%s", err.msg);
			goto done;
		}
	} else {
		char *text = read_text(ops);

		if (text == NULL) {
			memset(&v, 0, sizeof(v));
			goto done;
		}
		rc = rl_validation_init(&v, text, ops != NULL ? ops : "<built-in>", 1, &errs);
		free(text);
		if (rc < 0) {
			rl_cli_read_errors(&errs, ops != NULL ? ops : "<built-in>", rc);
			goto done;
		}
	}
	/* the runtime before the GPU runs, the device after: it may be the
	 * one the run found */
	if (rl_cli_model_runtime(&m) < 0)
		goto done;
	if (from == NULL && run_validation(dev, &v) < 0)
		goto done;
	m.dev = reference(m.db, m.hw, &v.gpu, &m.owned);
	if (m.dev == NULL || rl_cli_model_resolve(&m) < 0)
		goto done;
	ctx.dev = m.dev;
	ctx.host_overhead_us = m.host_overhead_us;
	ctx.host_kind_us = m.host_kind_us;
	ctx.eff = m.eff_match != RL_EP_NONE ? &m.eff : NULL;
	ctx.best_case = m.best_case;
	rl_validate_eval(&v, &ctx);
	rc = rl_validate_report(out->f, &v, ctx.dev->id, ctx.host_overhead_us, fmt);
	if (rc < 0) {
		rl_cli_error("%s", rl_strerror(rc));
		goto done;
	}
	if (rl_cli_outputs_commit(&outs) < 0)
		goto done;
	status = RL_EXIT_OK;
	for (i = 0; i < v.list.n; i++)
		if (v.v[i].measured && v.v[i].m.check < 0) {
			rl_cli_error("validate: %s: the synthetic op's result check FAILED",
			             v.v[i].op->name);
			status = RL_EXIT_FAIL;
		}
done:
	rl_outfiles_release(&outs);
	rl_validation_release(&v);
	rl_cli_model_release(&m);
	return status;
}
