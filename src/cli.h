/* cli.h - what the subcommands share: the command table entry, exit codes,
 * finding the device database, choosing a device and runtime, and opening
 * and committing a command's outputs (outfile.h) with their errors printed. Only the program (not the library) links this.
 */
#ifndef RL_CLI_H
#define RL_CLI_H

#include <getopt.h>
#include <stdio.h>

#include "effprof.h"
#include "xcheck.h"
#include "gpu.h"
#include "hwdb.h"
#include "memfit.h"
#include "outfile.h"
#include "pipeline.h"

enum { RL_EXIT_OK = 0, RL_EXIT_FAIL = 1, RL_EXIT_USAGE = 2 };

/* --help lines of the options every predicting command (classify, plot,
 * report) takes the same way. */
#define RL_HELP_HW \
	"      --hw ID|FILE|live     device: an id or alias of the database, a .device\n" \
	"                            file, or live[:N] for the CUDA GPU of this machine;\n" \
	"                            or a system (hw systems) or FILE.system: its GPU,\n" \
	"                            and its interconnect for collectives\n"
#define RL_HELP_ROOFS \
	"      --roofs WHICH         measured or datasheet: which roofs a calibrated\n" \
	"                            device file (roofline calibrate) predicts with\n"
#define RL_HELP_MODEL \
	"      --hwdb DIR            device database directory (default $ROOFLINE_HWDB,\n" \
	"                            else the build tree's or the installed hwdb/)\n" \
	"      --runtime NAME        host-side runtime profile: eager, graph, cpp\n" \
	"                            (default eager)\n" \
	"      --host-overhead-us X  host cost per kernel launch in microseconds,\n" \
	"                            overriding the runtime profile for every op kind\n" \
	"      --best-case           the pure roofline (a lower bound) everywhere,\n" \
	"                            instead of expected times\n" \
	"      --efficiency FILE     efficiency profile of the expected times (default:\n" \
	"                            the GPU's own in the hwdb, else the nearest one's)\n"

struct rl_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

/* Prints "roofline: <message>" on stderr, the message's control bytes and
 * bytes that are not UTF-8 written as \xNN (rl_err_escape). */
void rl_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* When M does not fit DEV's memory (memfit.h): "roofline: warning: the step
 * needs T GiB, over the device's M GiB" on stderr. */
void rl_cli_memfit_warning(const struct rl_memfit *m, const struct rl_device *dev);

/* An op list reader's warn (rl_ops_sink.warn): MSG on stderr after
 * "roofline: ". */
void rl_cli_warn_sink(const char *msg, void *user);

/* Prints a usage error (escaped as rl_cli_error does) and the hint to run
 * CMD --help; returns RL_EXIT_USAGE. */
int rl_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "roofline VERSION" on stdout; returns RL_EXIT_OK. */
int rl_cli_version(void);

/* The database directory: FLAG (--hwdb) if given, else $ROOFLINE_HWDB, else
 * the source tree's hwdb/ when this binary is the one in the build tree,
 * else the installed $(pkgdatadir)/hwdb. */
const char *rl_cli_hwdb_dir(const char *flag);

/* The CUDA plugin (roofline-cuda.so, cuda_plugin.h): $ROOFLINE_CUDA_PLUGIN
 * if set, else the build tree's src/roofline-cuda.so when this binary is the
 * one in the build tree, else the installed $(pkglibdir)/roofline-cuda.so. */
const char *rl_cli_cuda_plugin(void);

/* Opens the database at rl_cli_hwdb_dir(FLAG); prints the error and returns
 * NULL on failure. */
rl_hwdb *rl_cli_open_hwdb(const char *flag);

/* The options that choose what ops are predicted on, which every
 * predicting command (classify, plot, report, validate; calibrate takes
 * --hw and --hwdb) parses the same way: getopt_long values RL_OPT_*, listed
 * by RL_CLI_MODEL_LONGOPTS and handled by the cases RL_CLI_MODEL_CASES with
 * rl_cli_model_option. */
enum {
	RL_OPT_HW = 0x100,
	RL_OPT_ROOFS,
	RL_OPT_HWDB,
	RL_OPT_RUNTIME,
	RL_OPT_HOST_OVERHEAD,
	RL_OPT_EFFICIENCY,
	RL_OPT_BEST_CASE,
};
#define RL_CLI_MODEL_LONGOPTS \
	{"hw", required_argument, NULL, RL_OPT_HW}, \
	{"roofs", required_argument, NULL, RL_OPT_ROOFS}, \
	{"hwdb", required_argument, NULL, RL_OPT_HWDB}, \
	{"runtime", required_argument, NULL, RL_OPT_RUNTIME}, \
	{"host-overhead-us", required_argument, NULL, RL_OPT_HOST_OVERHEAD}, \
	{"efficiency", required_argument, NULL, RL_OPT_EFFICIENCY}, \
	{"best-case", no_argument, NULL, RL_OPT_BEST_CASE}
#define RL_CLI_MODEL_CASES \
	case RL_OPT_HW: \
	case RL_OPT_ROOFS: \
	case RL_OPT_HWDB: \
	case RL_OPT_RUNTIME: \
	case RL_OPT_HOST_OVERHEAD: \
	case RL_OPT_EFFICIENCY: \
	case RL_OPT_BEST_CASE

/* The options as given, then what they resolve to. Initialise with
 * rl_cli_model_init; rl_cli_model_release accepts it in any state after
 * that, resolved or not. */
struct rl_cli_model_opts {
	const char *cmd;      /* the command, for usage errors */
	const char *hw;       /* --hw: NULL chooses $ROOFLINE_HW, else h100-sxm */
	const char *roofs;    /* --roofs: NULL, "measured" or "datasheet" */
	const char *hwdb;     /* --hwdb: NULL searches (rl_cli_hwdb_dir) */
	const char *runtime;  /* --runtime */
	int overridden;       /* --host-overhead-us was given */
	double host_overhead_us; /* its value, else the runtime's once resolved */
	double host_kind_us[RL_HOST_KEY_COUNT]; /* resolved: per host key (op
	                                         * kind or path, op.h), the
	                                         * runtime's (rl_runtime_host_us),
	                                         * or every one --host-overhead-us */
	const char *efficiency; /* --efficiency FILE: the expected times' profile */
	/* resolved: the efficiency profile of the expected times (effprof.h),
	 * valid when eff_match is not RL_EP_NONE, and a line saying where the
	 * expected times come from */
	struct rl_effprof eff;
	int eff_match;
	char eff_note[384]; \
	int best_case;        /* --best-case: expected times are the roofline's */
	/* resolved */
	rl_hwdb *db;
	const struct rl_device *dev; /* in db, or owned */
	struct rl_device owned;      /* a device file or a probed GPU */
	const struct rl_runtime *rt; /* in db */
	const struct rl_hwsystem *sys; /* in db, or owned_sys: --hw named a
	                                * system, whose GPU is dev */
	struct rl_hwsystem owned_sys;  /* --hw FILE.system */
	struct rl_net net;           /* the interconnect of collectives: the
	                              * system's, or dev's NVLink */
	int has_net;                 /* net is set */
	char net_note[320];          /* with sys: the line naming it */
};

/* Sets O to no option given for command CMD, whose runtime profile is
 * RUNTIME unless --runtime says otherwise. */
void rl_cli_model_init(struct rl_cli_model_opts *o, const char *cmd, const char *runtime);

/* Takes option OPT (an RL_OPT_* value) with its value ARG: returns 0, or
 * prints the usage error (a bad --roofs or --host-overhead-us value) and
 * returns RL_EXIT_USAGE. */
int rl_cli_model_option(struct rl_cli_model_opts *o, int opt, const char *arg);

/* Opens the database (unless open), chooses the device (unless the command
 * set o->dev itself, e.g. from a trace), applies --roofs and finds the
 * runtime profile, setting host_overhead_us to its cost unless overridden.
 * Returns 0, or prints the error and returns -1. */
int rl_cli_model_resolve(struct rl_cli_model_opts *o);

/* Opens the database only (the first step of rl_cli_model_resolve), for a
 * command that needs it to choose the device. Returns 0 or -1 (printed). */
int rl_cli_model_open_db(struct rl_cli_model_opts *o);

/* Finds the runtime profile (unless found), opening the database if need
 * be, and sets host_overhead_us and host_kind_us to its costs unless
 * overridden (--host-overhead-us sets every kind's): the last
 * step of rl_cli_model_resolve, for a command that checks it early.
 * Returns 0 or -1 (printed). */
int rl_cli_model_runtime(struct rl_cli_model_opts *o);

/* The pipeline's model (pipeline.h) from resolved options O: the device,
 * the runtime and its host costs, the efficiency profile and the line that
 * names it, the database, --best-case. Borrowed from O. */
void rl_cli_pipeline_model(const struct rl_cli_model_opts *o, struct rl_pipeline_model *pm);

/* Releases what resolving opened and owns. */
void rl_cli_model_release(struct rl_cli_model_opts *o);

/* The training-step options of classify and model (train.h): getopt_long
 * values RL_OPT_TRAIN..., listed by RL_CLI_TRAIN_LONGOPTS and handled by
 * the cases RL_CLI_TRAIN_CASES with rl_cli_train_option. */
#define RL_HELP_TRAIN \
	"      --train               a training step: each forward op's backward ops\n" \
	"                            (in reverse order) and the optimizer step, with\n" \
	"                            gradients, optimizer state and saved activations\n" \
	"                            in the memory fit (docs/oplist-format.md)\n" \
	"      --optimizer NAME      adamw (default), adam, sgd (with momentum) or none\n" \
	"      --fused-optimizer     one fused kernel (fused=True) instead of PyTorch's\n" \
	"                            default foreach passes\n" \
	"      --state-dtype T       the optimizer state's dtype (default fp32)\n" \
	"      --autocast            weights and gradients kept in fp32, the ops in\n" \
	"                            their dtype (torch.autocast): each weight cast\n" \
	"                            in forward, each weight gradient in backward\n" \
	"      --master-weights      an fp32 master copy of the 16-bit weights, which\n" \
	"                            the optimizer updates and copies back\n" \
	"      --recompute           activation recomputation: the repeated blocks\n" \
	"                            (rows with count > 1) run forward again\n" \
	"      --grad-accum N        micro-batches per optimizer step (default 1)\n" \
	"      --weight-decay        L2 weight decay of SGD or Adam (weight_decay > 0):\n" \
	"                            one more foreach pass, g + wd p\n"
enum {
	RL_OPT_TRAIN = 0x140,
	RL_OPT_OPTIMIZER,
	RL_OPT_FUSED_OPTIMIZER,
	RL_OPT_STATE_DTYPE,
	RL_OPT_AUTOCAST,
	RL_OPT_MASTER_WEIGHTS,
	RL_OPT_RECOMPUTE,
	RL_OPT_GRAD_ACCUM,
	RL_OPT_WEIGHT_DECAY,
};
#define RL_CLI_TRAIN_LONGOPTS \
	{"train", no_argument, NULL, RL_OPT_TRAIN}, \
	{"optimizer", required_argument, NULL, RL_OPT_OPTIMIZER}, \
	{"fused-optimizer", no_argument, NULL, RL_OPT_FUSED_OPTIMIZER}, \
	{"state-dtype", required_argument, NULL, RL_OPT_STATE_DTYPE}, \
	{"autocast", no_argument, NULL, RL_OPT_AUTOCAST}, \
	{"master-weights", no_argument, NULL, RL_OPT_MASTER_WEIGHTS}, \
	{"recompute", no_argument, NULL, RL_OPT_RECOMPUTE}, \
	{"grad-accum", required_argument, NULL, RL_OPT_GRAD_ACCUM}, \
	{"weight-decay", no_argument, NULL, RL_OPT_WEIGHT_DECAY}
#define RL_CLI_TRAIN_CASES \
	case RL_OPT_TRAIN: \
	case RL_OPT_OPTIMIZER: \
	case RL_OPT_FUSED_OPTIMIZER: \
	case RL_OPT_STATE_DTYPE: \
	case RL_OPT_AUTOCAST: \
	case RL_OPT_MASTER_WEIGHTS: \
	case RL_OPT_RECOMPUTE: \
	case RL_OPT_GRAD_ACCUM: \
	case RL_OPT_WEIGHT_DECAY

struct rl_cli_train_opts {
	int train;        /* --train */
	const char *other; /* the first other training option given */
	struct rl_train_opts t;
};

void rl_cli_train_init(struct rl_cli_train_opts *o);

/* Takes option OPT with its value ARG for command CMD: returns 0, or prints
 * the usage error and returns RL_EXIT_USAGE. */
int rl_cli_train_option(struct rl_cli_train_opts *o, const char *cmd, int opt, const char *arg);

/* After the options: a training option without --train is a usage error
 * (printed; RL_EXIT_USAGE), else 0. */
int rl_cli_train_check(const struct rl_cli_train_opts *o, const char *cmd);
/* Loads the system file PATH (a name ending in ".system") into *OWNED and
 * finds its GPU in DB. NULL on error (printed), else the GPU. */
const struct rl_device *rl_cli_system_file(rl_hwdb *db, const char *path,
                                           struct rl_hwsystem *owned);

/* The device SPEC names: "live" or "live:N" the CUDA device 0 or N, probed
 * (the entry it matched is said on stderr); a file when it contains '/' or
 * ends in ".device"; else an id or alias in DB, or a system's id in DB (its
 * GPU) (or, SPEC NULL, $ROOFLINE_HW, else h100-sxm). A probed or loaded
 * device goes to *OWNED (released by the caller). NULL on error (printed). */
const struct rl_device *rl_cli_device(rl_hwdb *db, const char *spec,
                                      struct rl_device *owned);

/* Prints the errors of a failed read (the first RL_ERRLIST_MAX, then a count
 * of the rest), or, when ERRS holds none, INPUT with the status RC. */
void rl_cli_read_errors(const struct rl_errlist *errs, const char *input, int rc);

/* Derives G's device entry into *DEV (released by the caller) and cross-checks
 * it against DB into *X; min_kernel_us comes from the matched entry. Prints
 * the error and returns -1 on failure. */
int rl_cli_derive(rl_hwdb *db, const struct rl_gpu *g, struct rl_device *dev,
                  struct rl_xcheck *x);

/* HW, the value of option WHAT (--hw), declared as an input of OUTS when
 * it names a file (a path, or a name ending in .device or .system). */
void rl_cli_hw_input(struct rl_outfiles *outs, const char *what, const char *hw);

/* The files the model options name (--hw FILE or $ROOFLINE_HW's file,
 * --efficiency FILE), declared as inputs of OUTS: no output may replace
 * them. */
void rl_cli_model_inputs(const struct rl_cli_model_opts *o, struct rl_outfiles *outs);

/* Opens OUTS (outfile.h: its inputs and outputs declared, nothing read
 * yet). Returns 0, or prints the error and returns the exit status:
 * RL_EXIT_USAGE for an output that is an input or another output,
 * RL_EXIT_FAIL for one that cannot be written (standard output closed). */
int rl_cli_outputs_open(struct rl_outfiles *outs);

/* Commits OUTS: every output delivered, or none. Returns 0, or -1 after
 * printing the error. */
int rl_cli_outputs_commit(struct rl_outfiles *outs);

/* The errors of a run that failed with RC reading INPUT into OUTS: when a
 * write to an output failed (RL_ERR_IO, no reader error), that output and
 * why, once (a full disk, ulimit -f); else ERRS as rl_cli_read_errors
 * prints them. */
void rl_cli_run_errors(struct rl_outfiles *outs, const struct rl_errlist *errs,
                       const char *input, int rc);

struct rl_import;

/* Reads and imports the trace PATH into *IMP (released by the caller with
 * rl_import_release), printing the warnings (skipped events, unlinked GPU
 * activities, rows kept as custom) on stderr. Prints the error and returns
 * -1 on failure. */
int rl_cli_import(const char *path, struct rl_import *imp);

int cmd_classify(int argc, char **argv);
int cmd_hw(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_report(int argc, char **argv);
/* ---- what bench, calibrate and validate share ---- */

/* The groups of a bench run (memory, pipes, gemm, launch, sweep,
 * collectives), bits of a mask in that order: collectives runs across the
 * machine's GPUs (--gpus); a run without --only measures every other. */
enum { RL_CLI_BENCH_GROUPS = 6 };
#define RL_CLI_BENCH_COLLECTIVES (1u << (RL_CLI_BENCH_GROUPS - 1))
#define RL_CLI_BENCH_DEFAULT (((1u << RL_CLI_BENCH_GROUPS) - 1) & ~RL_CLI_BENCH_COLLECTIVES)

struct rl_bench;

/* The time now in UTC as ISO 8601 ("2026-12-02T05:00:00Z") into BUF of N
 * bytes ("?" when it cannot be had). */
void rl_cli_now_iso(char *buf, size_t n);

/* A monotonic clock in seconds. */
double rl_cli_seconds(void);

/* --device S of command CMD: a CUDA device index into *DEV; 0, or a printed
 * usage error (RL_EXIT_USAGE). */
int rl_cli_device_index(const char *cmd, const char *s, int *dev);

/* --gpus N of command CMD: 1 to 64 into *GPUS; 0, or a printed usage error
 * (RL_EXIT_USAGE). */
int rl_cli_gpus_opt(const char *cmd, const char *arg, int *gpus);

/* --only LIST of command CMD: group names, comma-separated, into the bit set
 * *MASK; 0, or a printed usage error (RL_EXIT_USAGE). */
int rl_cli_bench_only(const char *cmd, const char *list, unsigned *mask);

/* Runs the groups of MASK on DEV (collectives on GPUS devices, 0 every one)
 * into *B, QUICK for the short run; progress on stderr. Returns 0, or -1
 * after printing the error. */
int rl_cli_bench_run(int dev, int gpus, int quick, unsigned mask, struct rl_bench *b);

/* Number of entries of B whose result check failed; each named on stderr. */
size_t rl_cli_bench_failed(const struct rl_bench *b);

/* The reference device: --hw SPEC, else the database entry matching G, else
 * the probe's derivation of G (into *OWNED, a warning on stderr). NULL on
 * error (printed). */
const struct rl_device *rl_cli_reference(rl_hwdb *db, const char *spec, const struct rl_gpu *g,
                                         struct rl_device *owned);

int cmd_bench(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_model(int argc, char **argv);

#endif
