/* cmd_calibrate.c - "roofline calibrate": a device file with the measured
 * roofs (or a system file with the measured collectives), from the GPU or
 * from a recording (--from FILE). */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "calibrate.h"
#include "calsystem.h"
#include "cli.h"
#include "hostcalls.h"
#include "hostfit.h"
#include "hostfit_write.h"
#include "num.h"
#include "trace.h"

static int calibrate_usage(void)
{
	return rl_cli_help(RL_CMD_CALIBRATE,
	                   "Usage: roofline calibrate -o FILE [OPTIONS]\n"
	                   "       roofline calibrate --from-trace TRACE [-o NAME.runtime] [OPTIONS]\n"
	                   "\n"
	                   "Run the benchmarks of 'roofline bench' and write a device file whose roofs\n"
	                   "are the measured ones (median of the samples; memory bandwidth from the copy\n"
	                   "kernel, tensor peaks from the best GEMM shape per dtype; min_kernel_us stays\n"
	                   "the datasheet's), each with its method as source and the datasheet\n"
	                   "figure kept beside it as datasheet.KEY. 'classify --hw FILE' then predicts\n"
	                   "with the measured roofs; --roofs datasheet with the datasheet's.\n"
	                   "\n"
	                   "With --from-trace, fit a runtime profile instead: the host time of the\n"
	                   "profiled step charged to the kernels its ATen ops launch, per op kind, the\n"
	                   "per-call extras of new input shapes apart (docs/calibrate.md); '--runtime\n"
	                   "NAME.runtime' then predicts with it.\n",
	                   "Exit status: 0 success, 1 no CUDA support, a CUDA error, a failed result\n"
	                   "check or a bad recording, 2 usage error.\n");
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

/* Nonzero when ID can be a runtime's id (letters, digits, '-', '_', '.'). */
static int bad_id(const char *id)
{
	return *id == '\0' || strpbrk(id, " \t=;#/") != NULL;
}

/* calibrate --from-trace: the runtime profile fitted from TRACE, written to
 * OUTPUT (NULL or "-": standard output) whole or not at all. Returns the
 * exit status. */
static int calibrate_trace(const char *trace, const char *output, const char *id,
                           double step_us)
{
	struct rl_outfiles outs;
	struct rl_outfile *out;
	struct rl_trace t;
	struct rl_hostcalls hc;
	struct rl_hostfit fit;
	struct rl_hostfit_origin o;
	struct rl_err err;
	char idbuf[256], name[512], when[32], stack[4096];
	const char *base;
	int rc, status = RL_EXIT_FAIL;

	if (output != NULL && strcmp(output, "-") == 0)
		output = NULL;
	if (id == NULL && output != NULL) {
		size_t n;

		base = strrchr(output, '/') != NULL ? strrchr(output, '/') + 1 : output;
		n = strlen(base);
		if (n > 8 && strcmp(base + n - 8, ".runtime") == 0)
			n -= 8;
		snprintf(idbuf, sizeof(idbuf), "%.*s", (int)n, base);
		if (bad_id(idbuf))
			return rl_cli_usage("calibrate", "-o: '%s' gives no runtime id (letters, "
			                    "digits, '-', '_' and '.'): give --id", output);
		id = idbuf;
	}
	if (id == NULL)
		id = "fitted";
	memset(&t, 0, sizeof(t));
	memset(&hc, 0, sizeof(hc));
	rl_hostfit_init(&fit);
	rl_outfiles_init(&outs);
	rl_outfiles_input(&outs, "--from-trace", trace);
	out = rl_outfiles_add(&outs, "-o", output);
	if ((rc = rl_cli_outputs_open(&outs)) != 0)
		return rc;
	if (rl_trace_read(trace, &t, &err) < 0 || rl_hostcalls_build(&t, &hc, &err) < 0) {
		rl_cli_error("%s", err.msg);
		goto done;
	}
	if (rl_hostfit_run(hc.calls, hc.n, hc.skips, hc.nskips, step_us, &fit, &err) < 0) {
		rl_cli_error("%s: %s", trace, err.msg);
		goto done;
	}
	base = strrchr(trace, '/') != NULL ? strrchr(trace, '/') + 1 : trace;
	snprintf(name, sizeof(name), "host costs fitted from %s (calibrate --from-trace)", base);
	rl_cli_now_iso(when, sizeof(when));
	rl_hostcalls_stack(&t, stack, sizeof(stack));
	memset(&o, 0, sizeof(o));
	o.id = id;
	o.name = name;
	o.trace = trace;
	o.when = when;
	o.version = PACKAGE_VERSION;
	o.stack = stack;
	o.step_us = step_us;
	o.threads = hc.threads;
	o.unlinked = hc.unlinked;
	o.orphans = hc.orphans;
	o.compiled = &hc.compiled;
	if (rl_hostfit_write(out->f, &fit, &o) < 0) {
		rl_cli_error("%s: cannot write the runtime file", output != NULL ? output : "stdout");
		goto done;
	}
	if (rl_cli_outputs_commit(&outs) < 0)
		goto done;
	if (output != NULL) {
		size_t k;

		printf("%s: %s\n", output, name);
		printf("%-12s %8s %8s %10s\n", "kind", "calls", "kernels", "us/launch");
		for (k = 0; k < RL_KIND_COUNT; k++)
			if (fit.kind[k].kernels > 0)
				printf("%-12s %8zu %8llu %10.2f\n", rl_kind_name((enum rl_kind)k),
				       fit.kind[k].calls, (unsigned long long)fit.kind[k].kernels,
				       fit.kind[k].host_us);
		printf("%-12s %8zu %8llu %10.2f\n", "all", fit.launching,
		       (unsigned long long)fit.kernels, fit.host_us);
		printf("host span %.2f us%s, %zu per-call extra%s\n", fit.span_us * fit.scale,
		       step_us > 0 ? " (--step-us)" : "", fit.nextras, fit.nextras == 1 ? "" : "s");
		if (hc.compiled.regions > 0)
			printf("torch.compile: %zu region%s, left out: Dynamo's cache lookup %.2f us, "
			       "the prologue %.2f us\n",
			       hc.compiled.regions, hc.compiled.regions == 1 ? "" : "s",
			       hc.compiled.cache_lookup_us, hc.compiled.prologue_us);
	}
	status = RL_EXIT_OK;
done:
	rl_outfiles_release(&outs);
	rl_hostfit_release(&fit);
	rl_hostcalls_release(&hc);
	rl_trace_release(&t);
	return status;
}

int cmd_calibrate(int argc, char **argv)
{
	struct rl_cli_getopt go;
	const char *from = NULL, *record = NULL, *id = NULL, *from_trace = NULL;
	double step_us = 0;
	struct rl_err perr;
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
	double t0 = rl_cli_seconds();

	rl_cli_model_init(&m, "calibrate", NULL);
	rl_cli_getopt(RL_CMD_CALIBRATE, &go);
	while ((opt = getopt_long(argc, argv, go.shortopts, go.longopts, NULL)) != -1) {
		switch (opt) {
		case RL_OPT_DEVICE:
			if (rl_cli_device_index("calibrate", optarg, &dev) != 0)
				return RL_EXIT_USAGE;
			break;
		case RL_OPT_QUICK: quick = 1; break;
		case RL_OPT_FROM: from = optarg; break;
		case RL_OPT_RECORD: record = optarg; break;
		case RL_OPT_HW:
		case RL_OPT_HWDB: rl_cli_model_option(&m, opt, optarg); break;
		case RL_OPT_ID: id = optarg; break;
		case RL_OPT_FROM_TRACE: from_trace = optarg; break;
		case RL_OPT_STEP_US:
			if (rl_parse_nonneg(optarg, &step_us, &perr) < 0 || !(step_us > 0) ||
			    step_us > 1e12)
				return rl_cli_usage("calibrate", "--step-us: expected a time in us above 0, "
				                    "got '%s'", optarg);
			break;
		case 'o': output = optarg; break;
		case RL_OPT_COLLECTIVES: collectives = 1; break;
		case RL_OPT_GPUS:
			if (rl_cli_gpus_opt("calibrate", optarg, &gpus) != 0)
				return RL_EXIT_USAGE;
			collectives = 1;
			break;
		default: return rl_cli_option_other("calibrate", opt, calibrate_usage, argv);
		}
	}
	if (optind != argc)
		return rl_cli_usage("calibrate", "unexpected argument '%s'", argv[optind]);
	if (step_us > 0 && from_trace == NULL)
		return rl_cli_usage("calibrate", "--step-us goes with --from-trace");
	if (from_trace != NULL) {
		if (from != NULL || quick || record != NULL || collectives || m.hw != NULL)
			return rl_cli_usage("calibrate", "--from-trace fits a runtime from a trace: "
			                    "--from, --quick, --record, --collectives, --gpus and --hw "
			                    "calibrate a device");
		if (id != NULL && bad_id(id))
			return rl_cli_usage("calibrate", "--id: '%s' is not a runtime id (letters, "
			                    "digits, '-', '_' and '.')", id);
		return calibrate_trace(from_trace, output, id, step_us);
	}
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
	} else if (rl_cli_bench_run(dev, gpus, quick, collectives ? RL_CLI_BENCH_COLLECTIVES : RL_CLI_BENCH_DEFAULT, &b) < 0) {
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
	if (rl_cli_bench_failed(&b) > 0)
		rl_cli_error("warning: the failed measurements keep their datasheet roofs");
	ds = rl_cli_reference(m.db, m.hw, &b.gpu, &m.owned);
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
			fprintf(stderr, "roofline: calibrate: %.1f s in all\n", rl_cli_seconds() - t0);
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
