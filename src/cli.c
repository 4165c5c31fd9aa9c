/* cli.c - helpers shared by the subcommands (see cli.h). */
#include "config.h"

#include "cli.h"

#include "bench.h"
#include "cuda.h"
#include "dtype.h"
#include "gpubench.h"
#include "num.h"
#include "probe.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void rl_cli_warn_sink(const char *msg, void *user)
{
	(void)user;
	rl_cli_error("%s", msg);
}

void rl_cli_memfit_warning(const struct rl_memfit *m, const struct rl_device *dev)
{
	if (!rl_memfit_fits(m, dev))
		rl_cli_error("warning: the step needs %.2f GiB, over the device's %g GiB",
		             rl_memfit_total_bytes(m) / RL_MEMFIT_GIB,
		             rl_memfit_device_bytes(dev) / RL_MEMFIT_GIB);
}

/* Prints the message of FMT and AP on stderr after "roofline: ", its control
 * bytes and anything not UTF-8 escaped (rl_err_escape): messages quote data
 * files and arguments, and a terminal must not run what they hold. */
static void print_escaped(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

static void print_escaped(const char *fmt, va_list ap)
{
	char small[1024], esc_small[1024];
	char *msg = small, *esc = esc_small;
	va_list again;
	int n;
	size_t m;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small) && (msg = malloc((size_t)n + 1)) != NULL)
		vsnprintf(msg, (size_t)n + 1, fmt, again);
	va_end(again);
	if (n < 0 || msg == NULL) {
		msg = small; /* what fitted */
		small[sizeof(small) - 1] = '\0';
	}
	m = rl_err_escape(esc, sizeof(esc_small), msg);
	if (m >= sizeof(esc_small) && (esc = malloc(m + 1)) != NULL)
		rl_err_escape(esc, m + 1, msg);
	if (esc == NULL)
		esc = esc_small;
	fprintf(stderr, "roofline: %s", esc);
	if (esc != esc_small)
		free(esc);
	if (msg != small)
		free(msg);
}

void rl_cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	print_escaped(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int rl_cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	print_escaped(fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'roofline %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
	return RL_EXIT_USAGE;
}

int rl_cli_version(void)
{
	printf("roofline %s\n", PACKAGE_VERSION);
	return RL_EXIT_OK;
}

const char *rl_cli_hwdb_dir(const char *flag)
{
	static char self[PATH_MAX];
	const char *env = getenv("ROOFLINE_HWDB");
	ssize_t n;

	if (flag != NULL)
		return flag;
	if (env != NULL && *env != '\0')
		return env;
	/* Running uninstalled from the build tree: use the source tree's data,
	 * so "./roofline classify ..." works right after "make". */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		char *slash;

		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash != NULL) {
			*slash = '\0';
			if (strcmp(self, RL_BUILD_DIR) == 0)
				return RL_SOURCE_HWDB;
		}
	}
	return RL_INSTALLED_HWDB;
}

const char *rl_cli_cuda_plugin(void)
{
	static char self[PATH_MAX];
	const char *env = getenv("ROOFLINE_CUDA_PLUGIN");
	ssize_t n;
	char *slash;

	if (env != NULL && *env != '\0')
		return env;
	/* As for the database: the plugin "make" built beside this binary. */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash != NULL) {
			*slash = '\0';
			if (strcmp(self, RL_BUILD_DIR) == 0)
				return RL_BUILD_DIR "/src/roofline-cuda.so";
		}
	}
	return RL_INSTALLED_CUDA_PLUGIN;
}

rl_hwdb *rl_cli_open_hwdb(const char *flag)
{
	struct rl_err err;
	rl_hwdb *db;

	if (rl_hwdb_open(rl_cli_hwdb_dir(flag), &db, &err) < 0) {
		rl_cli_error("%s", err.msg);
		return NULL;
	}
	return db;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

void rl_cli_read_errors(const struct rl_errlist *errs, const char *input, int rc)
{
	size_t i;

	for (i = 0; i < errs->kept; i++)
		rl_cli_error("%s", errs->msg[i]);
	if (errs->count > errs->kept)
		rl_cli_error("%zu more error%s not shown", errs->count - errs->kept,
		             errs->count - errs->kept == 1 ? "" : "s");
	if (errs->count == 0)
		rl_cli_error("%s: %s", input, rl_strerror(rc));
}

int rl_cli_derive(rl_hwdb *db, const struct rl_gpu *g, struct rl_device *dev,
                  struct rl_xcheck *x)
{
	struct rl_err err;
	char why[256];

	if (rl_probe_derive(g, rl_xcheck_match(db, g, why, sizeof(why)), dev, NULL, NULL,
	                    &err) < 0) {
		rl_cli_error("%s", err.msg);
		return -1;
	}
	rl_xcheck_run(db, g, dev, x);
	return 0;
}

/* --hw live[:N]: the probed device, with the entry it matched said on stderr. */
static const struct rl_device *live_device(rl_hwdb *db, const char *spec,
                                           struct rl_device *owned)
{
	struct rl_err err;
	struct rl_gpu g;
	struct rl_xcheck x;
	uint64_t index = 0;
	size_t i;

	if (spec[4] == ':' && rl_parse_u64(spec + 5, &index, &err) < 0) {
		rl_cli_error("--hw %s: expected live or live:N (a CUDA device index)", spec);
		return NULL;
	}
	if (index > INT_MAX) {
		rl_cli_error("--hw %s: no CUDA device %s", spec, spec + 5);
		return NULL;
	}
	if (rl_cuda_query((int)index, &g, &err) < 0) {
		rl_cli_error("--hw %s: %s", spec, err.msg);
		return NULL;
	}
	if (rl_cli_derive(db, &g, owned, &x) < 0)
		return NULL;
	if (x.entry != NULL)
		rl_cli_error("--hw %s: %s (CUDA device %d) matches hwdb entry %s; %zu value%s "
		             "differ%s by more than 5 %% (roofline probe shows them)",
		             spec, g.name, g.device, x.entry->id, x.nflagged,
		             x.nflagged == 1 ? "" : "s", x.nflagged == 1 ? "s" : "");
	else
		rl_cli_error("--hw %s: %s (CUDA device %d) matches no hwdb entry (%s)", spec,
		             g.name, g.device, x.why);
	for (i = 0; i < x.nwarnings; i++)
		rl_cli_error("--hw %s: warning: %s", spec, x.warning[i]);
	return owned;
}

const struct rl_device *rl_cli_device(rl_hwdb *db, const char *spec,
                                      struct rl_device *owned)
{
	struct rl_err err;
	const struct rl_device *d;

	if (spec == NULL)
		spec = getenv("ROOFLINE_HW");
	if (spec == NULL || *spec == '\0')
		spec = "h100-sxm";
	if (strcmp(spec, "live") == 0 || strncmp(spec, "live:", 5) == 0)
		return live_device(db, spec, owned);
	if (strchr(spec, '/') != NULL || ends_with(spec, ".device")) {
		if (rl_device_load(spec, owned, &err) < 0) {
			rl_cli_error("%s", err.msg);
			return NULL;
		}
		return owned;
	}
	d = rl_hwdb_find_device(db, spec, &err);
	if (d == NULL) {
		struct rl_err e2;
		const struct rl_hwsystem *sys = rl_hwdb_find_system(db, spec, &e2);

		if (sys != NULL)
			return rl_hwdb_system_gpu(db, sys);
		if (rl_hwdb_system_count(db) > 0) /* --hw takes either */
			rl_cli_error("%s; nor a system: %s", err.msg, e2.msg);
		else
			rl_cli_error("%s", err.msg);
	}
	return d;
}

const struct rl_device *rl_cli_system_file(rl_hwdb *db, const char *path,
                                           struct rl_hwsystem *owned)
{
	struct rl_err err;
	const struct rl_device *d;

	if (rl_hwsystem_load(path, owned, &err) < 0) {
		rl_cli_error("%s", err.msg);
		return NULL;
	}
	d = rl_hwdb_find_device(db, owned->gpu, &err);
	if (d == NULL)
		rl_cli_error("%s: key 'gpu': %s", path, err.msg);
	return d;
}

/* The --hw SPEC (or $ROOFLINE_HW), or NULL. */
static const char *hw_spec(const char *spec)
{
	if (spec == NULL)
		spec = getenv("ROOFLINE_HW");
	return spec == NULL || *spec == '\0' ? NULL : spec;
}

/* The system the --hw SPEC names, or NULL (a device, a file, live). */
static const struct rl_hwsystem *cli_system(rl_hwdb *db, const char *spec)
{
	struct rl_err err;

	spec = hw_spec(spec);
	return spec == NULL ? NULL : rl_hwdb_find_system(db, spec, &err);
}

/* D predicting with the roofs ROOFS names ("measured" or "datasheet",
 * hwdb.h rl_device_roofs), copied into *OWNED unless D is *OWNED already.
 * NULL on error (printed). */
static const struct rl_device *with_roofs(const struct rl_device *d, const char *roofs,
                                          struct rl_device *owned)
{
	struct rl_device copy;
	struct rl_err err;
	enum rl_roofs which;

	if (rl_roofs_parse(roofs, &which) < 0) {
		rl_cli_error("--roofs: expected measured or datasheet, got '%s'", roofs);
		return NULL;
	}
	if (d != owned) {
		if (rl_device_copy(&copy, d, &err) < 0) {
			rl_cli_error("%s", err.msg);
			return NULL;
		}
		rl_device_release(owned);
		*owned = copy;
	}
	if (rl_device_roofs(owned, which, &err) < 0) {
		rl_cli_error("%s", err.msg);
		return NULL;
	}
	return owned;
}

void rl_cli_model_init(struct rl_cli_model_opts *o, const char *cmd, const char *runtime)
{
	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->runtime = runtime;
}

int rl_cli_model_option(struct rl_cli_model_opts *o, int opt, const char *arg)
{
	struct rl_err err;
	enum rl_roofs r;

	switch (opt) {
	case RL_OPT_HW: o->hw = arg; break;
	case RL_OPT_HWDB: o->hwdb = arg; break;
	case RL_OPT_RUNTIME: o->runtime = arg; break;
	case RL_OPT_EFFICIENCY: o->efficiency = arg; break;
	case RL_OPT_ROOFS:
		if (rl_roofs_parse(arg, &r) < 0)
			return rl_cli_usage(o->cmd, "--roofs: expected measured or datasheet, got '%s'",
			                    arg);
		o->roofs = arg;
		break;
	case RL_OPT_HOST_OVERHEAD:
		if (rl_parse_nonneg(arg, &o->host_overhead_us, &err) < 0 ||
		    rl_host_overhead_check(o->host_overhead_us, &err) < 0)
			return rl_cli_usage(o->cmd, "--host-overhead-us: %s", err.msg);
		o->overridden = 1;
		break;
	case RL_OPT_BEST_CASE: o->best_case = 1; break;
	default: return rl_cli_usage(o->cmd, "unknown option");
	}
	return 0;
}

int rl_cli_model_open_db(struct rl_cli_model_opts *o)
{
	if (o->db == NULL)
		o->db = rl_cli_open_hwdb(o->hwdb);
	return o->db != NULL ? 0 : -1;
}

/* The efficiency profile of the expected times: --efficiency's file, else
 * the device's own in the database, else the nearest measured GPU's. */
static int model_profile(struct rl_cli_model_opts *o)
{
	struct rl_err err;
	const struct rl_device *d = o->dev;
	const char *name = d->name != NULL ? d->name : d->id;

	if (o->eff_match != RL_EP_NONE)
		return 0;
	if (o->efficiency != NULL) {
		if (rl_effprof_load(o->efficiency, &o->eff, &err) < 0) {
			rl_cli_error("%s", err.msg);
			return -1;
		}
		o->eff_match = RL_EP_NEAREST;
	} else {
		int rc = rl_effprof_pick(rl_hwdb_dir(o->db), d, &o->eff, &err);

		if (rc < 0) {
			rl_cli_error("%s", err.msg);
			return -1;
		}
		o->eff_match = rc;
	}
	if (o->eff_match == RL_EP_NONE)
		snprintf(o->eff_note, sizeof(o->eff_note),
		         "expected times: no efficiency profile in %s, so they are the roofline's",
		         rl_hwdb_dir(o->db));
	else if (o->efficiency == NULL && o->eff_match == RL_EP_SAME_GPU)
		snprintf(o->eff_note, sizeof(o->eff_note),
		         "expected times: efficiency profile %s (%s), measured on this GPU (%s)",
		         o->eff.id, o->eff.stack, o->eff.gpu);
	else
		snprintf(o->eff_note, sizeof(o->eff_note),
		         "expected times: %s's specs with the residue of efficiency profile %s (%s), "
		         "measured on %s%s",
		         name, o->eff.id, o->eff.stack, o->eff.gpu,
		         o->efficiency != NULL ? " (--efficiency)" : ", the nearest measured GPU");
	return 0;
}

int rl_cli_model_resolve(struct rl_cli_model_opts *o)
{
	if (rl_cli_model_open_db(o) < 0)
		return -1;
	if (o->dev == NULL && hw_spec(o->hw) != NULL && ends_with(hw_spec(o->hw), ".system")) {
		o->dev = rl_cli_system_file(o->db, hw_spec(o->hw), &o->owned_sys);
		if (o->dev == NULL)
			return -1;
		o->sys = &o->owned_sys;
	}
	if (o->dev == NULL) {
		o->sys = cli_system(o->db, o->hw);
		o->dev = rl_cli_device(o->db, o->hw, &o->owned);
	}
	if (o->dev != NULL && o->roofs != NULL)
		o->dev = with_roofs(o->dev, o->roofs, &o->owned);
	if (o->dev == NULL)
		return -1;
	/* collectives run on the system's interconnect, else on the device's
	 * NVLink (hwsystem.h) */
	if (o->sys != NULL) {
		rl_hwsystem_net(o->sys, &o->net);
		o->has_net = 1;
		snprintf(o->net_note, sizeof(o->net_note),
		         "collectives: system %s, %llu GPUs per node on %s at %g GB/s per GPU "
		         "and direction, %s%g us latency",
		         o->sys->id, (unsigned long long)o->net.gpus_per_node, o->sys->fabric_name,
		         o->net.intra_gbs, o->net.inter_gbs > 0 ? "" : "no network between nodes, ",
		         o->net.intra_latency_us);
		if (o->net.inter_gbs > 0)
			snprintf(o->net_note + strlen(o->net_note),
			         sizeof(o->net_note) - strlen(o->net_note),
			         "; between nodes %g GB/s per GPU, %g us more", o->net.inter_gbs,
			         o->net.inter_latency_us);
	} else {
		o->has_net = rl_hwsystem_device_net(o->dev, &o->net);
	}
	if (rl_cli_model_runtime(o) < 0)
		return -1;
	return model_profile(o);
}

/* --runtime names a file rather than an id of the database: a value with
 * a '/' or ending in .runtime (calibrate --from-trace writes one). */
static int runtime_is_file(const char *r)
{
	return r != NULL && (strchr(r, '/') != NULL || ends_with(r, ".runtime"));
}

int rl_cli_model_runtime(struct rl_cli_model_opts *o)
{
	struct rl_err err;
	int k;

	if (o->rt != NULL)
		return 0;
	if (rl_cli_model_open_db(o) < 0)
		return -1;
	if (runtime_is_file(o->runtime))
		o->rt = rl_runtime_load(o->runtime, &o->owned_rt, &err) == 0 ? &o->owned_rt : NULL;
	else
		o->rt = rl_hwdb_find_runtime(o->db, o->runtime, &err);
	if (o->rt == NULL) {
		rl_cli_error("%s", err.msg);
		return -1;
	}
	if (!o->overridden)
		o->host_overhead_us = o->rt->host_overhead_us.value;
	for (k = 0; k < RL_HOST_KEY_COUNT; k++) {
		o->host_kind_us[k] =
		    o->overridden ? o->host_overhead_us : rl_runtime_host_us(o->rt, k);
		o->host_extra_us[k] = o->overridden ? 0 : rl_runtime_extra_us(o->rt, k);
	}
	return 0;
}

void rl_cli_pipeline_model(const struct rl_cli_model_opts *o, struct rl_pipeline_model *pm)
{
	pm->dev = o->dev;
	pm->rt = o->rt;
	pm->host_overhead_us = o->host_overhead_us;
	pm->host_kind_us = o->host_kind_us;
	pm->host_extra_us = o->host_extra_us;
	pm->eff = o->eff_match != RL_EP_NONE ? &o->eff : NULL;
	pm->expected_source = o->eff_note;
	pm->db = o->db;
	pm->best_case = o->best_case;
	pm->net = o->has_net ? &o->net : NULL;
	pm->interconnect = o->sys != NULL ? o->net_note : NULL;
}

void rl_cli_model_release(struct rl_cli_model_opts *o)
{
	if (o->eff_match != RL_EP_NONE)
		rl_effprof_release(&o->eff);
	o->eff_match = RL_EP_NONE;
	rl_device_release(&o->owned);
	rl_hwsystem_release(&o->owned_sys);
	rl_runtime_release(&o->owned_rt);
	rl_hwdb_free(o->db);
	o->db = NULL;
	o->dev = NULL;
	o->rt = NULL;
	o->sys = NULL;
	o->has_net = 0;
}

/* ---- outputs (outfile.h) ---- */

void rl_cli_hw_input(struct rl_outfiles *outs, const char *what, const char *hw)
{
	/* as rl_cli_device and rl_cli_model_resolve tell a file from an id */
	if (hw != NULL && (strchr(hw, '/') != NULL || ends_with(hw, ".device") ||
	                   ends_with(hw, ".system")))
		rl_outfiles_input(outs, what, hw);
}

void rl_cli_model_inputs(const struct rl_cli_model_opts *o, struct rl_outfiles *outs)
{
	rl_cli_hw_input(outs, o->hw != NULL ? "--hw" : "$ROOFLINE_HW", hw_spec(o->hw));
	rl_outfiles_input(outs, "--efficiency", o->efficiency);
	rl_outfiles_input(outs, "--runtime", runtime_is_file(o->runtime) ? o->runtime : NULL);
}

int rl_cli_outputs_open(struct rl_outfiles *outs)
{
	struct rl_err err;
	int rc = rl_outfiles_open(outs, &err);

	if (rc == 0)
		return RL_EXIT_OK;
	rl_cli_error("%s", err.msg);
	return rc == RL_ERR_ARG ? RL_EXIT_USAGE : RL_EXIT_FAIL;
}

void rl_cli_run_errors(struct rl_outfiles *outs, const struct rl_errlist *errs,
                       const char *input, int rc)
{
	if (rc == RL_ERR_IO && errs->count == 0 && rl_outfiles_failed(outs))
		rl_cli_outputs_commit(outs); /* fails, naming the output */
	else
		rl_cli_read_errors(errs, input, rc);
}

int rl_cli_outputs_commit(struct rl_outfiles *outs)
{
	struct rl_err err;

	if (rl_outfiles_commit(outs, &err) == 0)
		return 0;
	rl_cli_error("%s", err.msg);
	return -1;
}

void rl_cli_train_init(struct rl_cli_train_opts *o)
{
	o->train = 0;
	o->other = NULL;
	rl_train_opts_init(&o->t);
}

int rl_cli_train_option(struct rl_cli_train_opts *o, const char *cmd, int opt, const char *arg)
{
	static const char *const names[] = {
		"--train", "--optimizer", "--fused-optimizer", "--state-dtype",
		"--autocast", "--master-weights", "--recompute", "--grad-accum",
		"--weight-decay",
	};
	struct rl_err e;

	if (opt != RL_OPT_TRAIN && o->other == NULL)
		o->other = names[opt - RL_OPT_TRAIN];
	switch (opt) {
	case RL_OPT_TRAIN: o->train = 1; break;
	case RL_OPT_OPTIMIZER:
		if (rl_optimizer_parse(arg, &o->t.optimizer) < 0)
			return rl_cli_usage(cmd, "--optimizer: unknown optimizer '%s' (expected adamw, "
			                         "adam, sgd or none)", arg);
		break;
	case RL_OPT_FUSED_OPTIMIZER: o->t.fused = 1; break;
	case RL_OPT_STATE_DTYPE:
		if (rl_dtype_parse(arg, &o->t.state_dtype) < 0 ||
		    rl_dtype_storage_only(o->t.state_dtype))
			return rl_cli_usage(cmd, "--state-dtype: '%s' is not a dtype the optimizer "
			                         "keeps its state in (expected one of %s, not int4 "
			                         "or fp4)", arg, rl_dtype_expected());
		break;
	case RL_OPT_AUTOCAST: o->t.autocast = 1; break;
	case RL_OPT_MASTER_WEIGHTS: o->t.master = 1; break;
	case RL_OPT_RECOMPUTE: o->t.recompute = 1; break;
	case RL_OPT_WEIGHT_DECAY: o->t.weight_decay = 1; break;
	case RL_OPT_GRAD_ACCUM:
		if (rl_parse_u64(arg, &o->t.grad_accum, &e) < 0 || o->t.grad_accum < 1 ||
		    o->t.grad_accum > 65536)
			return rl_cli_usage(cmd, "--grad-accum: '%s' is not an integer from 1 to 65536",
			                    arg);
		break;
	}
	return 0;
}

int rl_cli_train_check(const struct rl_cli_train_opts *o, const char *cmd)
{
	if (!o->train && o->other != NULL)
		return rl_cli_usage(cmd, "%s describes a training step: give --train too", o->other);
	if (o->t.autocast && o->t.master)
		return rl_cli_usage(cmd, "--autocast and --master-weights: autocast keeps the "
		                         "weights in fp32 already (give one)");
	return 0;
}

/* ---- bench, calibrate and validate: the GPU commands ---- */

void rl_cli_now_iso(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL || strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, n, "?");
}

double rl_cli_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int rl_cli_device_index(const char *cmd, const char *s, int *dev)
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
_Static_assert(N_GROUPS == RL_CLI_BENCH_GROUPS, "cli.h's RL_CLI_BENCH_GROUPS");

/* --gpus N of command CMD: 1 to 64 into *GPUS; 0, or a printed usage error
 * (RL_EXIT_USAGE). */
int rl_cli_gpus_opt(const char *cmd, const char *arg, int *gpus)
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
int rl_cli_bench_only(const char *cmd, const char *list, unsigned *mask)
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
int rl_cli_bench_run(int dev, int gpus, int quick, unsigned mask, struct rl_bench *b)
{
	struct rl_err err;
	size_t i;
	double t0 = rl_cli_seconds();
	int version;

	rl_bench_init(b);
	snprintf(b->version, sizeof(b->version), "%s", PACKAGE_VERSION);
	rl_cli_now_iso(b->date, sizeof(b->date));
	b->quick = quick;
	/* NCCL first: where it is missing, one line says so, GPU or not */
	if ((mask & RL_CLI_BENCH_COLLECTIVES) && rl_gpubench_nccl_version(&version, &err) < 0) {
		rl_cli_error("bench --only collectives: %s", err.msg);
		return -1;
	}
	if (rl_cuda_query(dev, &b->gpu, &err) < 0) {
		rl_cli_error("%s", err.msg);
		return -1;
	}
	for (i = 0; i < N_GROUPS; i++) {
		double t = rl_cli_seconds();
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
		        rl_cli_seconds() - t);
	}
	fprintf(stderr, "roofline: bench: done in %.1f s\n", rl_cli_seconds() - t0);
	return 0;
}

/* Number of entries whose result check failed; each is named on stderr. */
size_t rl_cli_bench_failed(const struct rl_bench *b)
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
const struct rl_device *rl_cli_reference(rl_hwdb *db, const char *spec, const struct rl_gpu *g,
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

int rl_cli_size_option(const char *cmd, int opt, const char *arg, uint64_t max, uint64_t *out)
{
	struct rl_err e;

	if (rl_parse_u64(arg, out, &e) < 0 || *out < 1 || *out > max)
		return rl_cli_usage(cmd, "--%s: '%s' is not an integer from 1 to %llu",
		                    rl_cli_option_name(opt), arg, (unsigned long long)max);
	return 0;
}

int rl_cli_dtype_option(const char *cmd, int opt, const char *arg, enum rl_dtype *out)
{
	if (rl_dtype_parse(arg, out) < 0)
		return rl_cli_usage(cmd, "--%s: unknown dtype '%s' (expected %s)",
		                    rl_cli_option_name(opt), arg, rl_dtype_expected());
	if (opt == RL_OPT_DTYPE && rl_dtype_storage_only(*out))
		return rl_cli_usage(cmd, "--dtype: %s is a storage type only (give it to "
		                         "--weight-dtype or --kv-dtype)", arg);
	return 0;
}

void rl_cli_step_init(struct rl_modelops_opts *mo)
{
	memset(mo, 0, sizeof(*mo));
	mo->phase = RL_PHASE_DECODE;
	mo->batch = 1;
	mo->seq = 512;
	mo->dtype = RL_BF16;
	mo->expert_imbalance = 1.0;
}

void rl_cli_step_settle(struct rl_modelops_opts *mo, int train, int context_given, int wdt_given,
                        int kvdt_given)
{
	if (train) {
		mo->phase = RL_PHASE_PREFILL;
		mo->train = 1;
	}
	if (!context_given)
		mo->context = mo->seq;
	if (!wdt_given)
		mo->weight_dtype = mo->dtype;
	mo->weight_dtype_given = wdt_given;
	if (!kvdt_given)
		mo->kv_dtype = mo->dtype;
}

