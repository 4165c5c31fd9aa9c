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
#include "modelops.h"
#include "outfile.h"
#include "pipeline.h"

enum { RL_EXIT_OK = 0, RL_EXIT_FAIL = 1, RL_EXIT_USAGE = 2 };

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
 * --hw and --hwdb) parses the same way: getopt_long values RL_OPT_*, rows of
 * the option table (rl_cli_options) handled by the cases RL_CLI_MODEL_CASES
 * with rl_cli_model_option. */
enum {
	RL_OPT_HW = 0x100,
	RL_OPT_ROOFS,
	RL_OPT_HWDB,
	RL_OPT_RUNTIME,
	RL_OPT_HOST_OVERHEAD,
	RL_OPT_EFFICIENCY,
	RL_OPT_BEST_CASE,
};
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
	const char *runtime;  /* --runtime: an id, or a file */
	int overridden;       /* --host-overhead-us was given */
	double host_overhead_us; /* its value, else the runtime's once resolved */
	double host_kind_us[RL_HOST_KEY_COUNT]; /* resolved: per host key (op
	                                         * kind or path, op.h), the
	                                         * runtime's (rl_runtime_host_us),
	                                         * or every one --host-overhead-us */
	double host_extra_us[RL_HOST_KEY_COUNT]; /* resolved: the runtime's
	                                          * host_extra_us.KEY (0 where it
	                                          * has none, and under
	                                          * --host-overhead-us) */
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
	const struct rl_runtime *rt; /* in db, or owned_rt */
	struct rl_runtime owned_rt;  /* --runtime FILE (a '/' or .runtime) */
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
 * values RL_OPT_TRAIN..., rows of the option table handled by the cases
 * RL_CLI_TRAIN_CASES with rl_cli_train_option. */
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

/* rl_cli_import, the trace read kept in *KEEP (the caller releases it with
 * rl_trace_release; released here on failure) unless KEEP is NULL. */
struct rl_trace;
int rl_cli_import_keep(const char *path, struct rl_import *imp, struct rl_trace *keep);

/* ---- the option table (cli_options.c) ----
 *
 * Every option of every command is a row of rl_cli_options: its long name,
 * its short letter, getopt_long's value (the letter, else an RL_OPT_*), its
 * argument's name in the help (NULL: it takes none), the commands that take
 * it (RL_CMD_* bits) and its help. A command makes its getopt_long arrays
 * from the table (rl_cli_getopt) and prints its options' help from it
 * (rl_cli_help), so that its --help lists what it accepts and nothing else.
 * An option whose meaning differs between commands (--format, --hw, --from)
 * has a row per meaning; no command takes two rows of one name. */
enum {
	RL_CMD_CLASSIFY = 1u << 0,
	RL_CMD_MODEL = 1u << 1,
	RL_CMD_PLOT = 1u << 2,
	RL_CMD_HW = 1u << 3,
	RL_CMD_PROBE = 1u << 4,
	RL_CMD_DEVICES = 1u << 5,
	RL_CMD_IMPORT = 1u << 6,
	RL_CMD_REPORT = 1u << 7,
	RL_CMD_BENCH = 1u << 8,
	RL_CMD_CALIBRATE = 1u << 9,
	RL_CMD_VALIDATE = 1u << 10,
	RL_CMD_KINDS = 1u << 11,
	RL_CMD_SEARCH = 1u << 12,
};
#define RL_CMD_COUNT 13

/* getopt_long's values of the options without a short letter, beyond the
 * model's (RL_OPT_HW...) and training's (RL_OPT_TRAIN...) */
enum {
	RL_OPT_DEVICE = 0x180,
	RL_OPT_ATTRS,
	RL_OPT_QUICK,
	RL_OPT_ONLY,
	RL_OPT_COLLECTIVES,
	RL_OPT_GPUS,
	RL_OPT_FROM,
	RL_OPT_RECORD,
	RL_OPT_LIST,
	RL_OPT_ID,
	RL_OPT_PHASE,
	RL_OPT_BATCH,
	RL_OPT_SEQ,
	RL_OPT_CONTEXT,
	RL_OPT_DTYPE,
	RL_OPT_WEIGHT_DTYPE,
	RL_OPT_WEIGHT_GROUP,
	RL_OPT_KV_DTYPE,
	RL_OPT_MAX_BATCH,
	RL_OPT_GENERATE,
	RL_OPT_EXPERT_IMBALANCE,
	RL_OPT_MLA,
	RL_OPT_FAMILIES,
	RL_OPT_IMPL,
	RL_OPT_TP, /* RL_OPT_TP ... RL_OPT_MICROBATCHES in this order */
	RL_OPT_PP,
	RL_OPT_DP,
	RL_OPT_EP,
	RL_OPT_MICROBATCHES,
	RL_OPT_VIRTUAL_STAGES,
	RL_OPT_TP_COMM_OVERLAP,
	RL_OPT_TOP,
	RL_OPT_ZERO,
	RL_OPT_SP,
	RL_OPT_TIMELINE,
	RL_OPT_SET,
	RL_OPT_SCALE,
	RL_OPT_SWEEP,
	RL_OPT_ITEMS_PER_STEP,
	RL_OPT_SWEEP_TABLE,
	RL_OPT_L2,
	RL_OPT_WIDE,
	RL_OPT_SUGGEST_FUSION,
	RL_OPT_SVG,
	RL_OPT_FROM_TRACE,
	RL_OPT_STEP_US,
};

struct rl_cli_opt {
	const char *name;  /* long name, without "--" */
	char short_name;   /* its letter, or 0 */
	int val;           /* getopt_long's value: the letter, else an RL_OPT_* */
	const char *arg;   /* the argument's name in the help, NULL: none */
	unsigned cmds;     /* RL_CMD_* bits of the commands that take it */
	const char *help;  /* one paragraph, wrapped by rl_cli_help ('\n' breaks
	                    * it); NULL: listed on one line with the next row,
	                    * whose help it shares */
};

extern const struct rl_cli_opt rl_cli_options[];
extern const size_t rl_cli_noptions;

#define RL_CLI_OPTS_MAX 64

/* getopt_long's arrays of one command. */
struct rl_cli_getopt {
	struct option longopts[RL_CLI_OPTS_MAX]; /* ended by a row of zeros */
	char shortopts[32]; /* ":" (a missing value returns ':'), then the
	                     * letters */
};

/* Fills G with the options of command CMD (an RL_CMD_* bit) and readies
 * getopt_long for a command's arguments: optind 1, opterr 0 (the command
 * prints its errors). */
void rl_cli_getopt(unsigned cmd, struct rl_cli_getopt *g);

/* What getopt_long's value OPT for command CMD is when it is none of the
 * command's own: -h prints USAGE, -V the version (RL_EXIT_OK); ':' (a value
 * missing) and any other a usage error (printed; RL_EXIT_USAGE). Every
 * command's "default:" case, so that they all answer alike. */
int rl_cli_option_other(const char *cmd, int opt, int (*usage)(void), char **argv);

/* Writes the options of CMD to OUT, in the table's order: "  -f, --format
 * FMT" or "      --hw ID|FILE|live", the help from column 28, wrapped at
 * 79. */
void rl_cli_help_options(FILE *out, unsigned cmd);

/* TEXT (words between single spaces) to OUT in lines of at most WIDTH
 * columns, broken at spaces, and a newline: the help's paragraphs made from
 * a table (model's families), wrapped as the options' help is. */
void rl_cli_print_wrapped(FILE *out, const char *text, int width);

/* The long name (without "--") of the option whose getopt_long value is
 * VAL, "?" for none. */
const char *rl_cli_option_name(int val);

/* The step of a config before model's and search's options: decode, batch
 * 1, seq 512, bf16, uniform expert routing; the rest zero. */
void rl_cli_step_init(struct rl_modelops_opts *mo);

/* After the options: a training step is a prefill (TRAIN); the context
 * follows --seq, the weights' and the KV cache's dtype --dtype, unless
 * given (CONTEXT_GIVEN, WDT_GIVEN, KVDT_GIVEN). */
void rl_cli_step_settle(struct rl_modelops_opts *mo, int train, int context_given, int wdt_given,
                        int kvdt_given);

/* Option OPT of command CMD with value ARG, an integer from 1 to MAX, into
 * *OUT: 0, or the usage error printed and RL_EXIT_USAGE. */
int rl_cli_size_option(const char *cmd, int opt, const char *arg, uint64_t max, uint64_t *out);

/* Dtype option OPT of command CMD with value ARG into *OUT (--dtype, of the
 * activations, takes no storage-only type): 0, or the usage error printed
 * and RL_EXIT_USAGE. */
int rl_cli_dtype_option(const char *cmd, int opt, const char *arg, enum rl_dtype *out);

/* --help of CMD on standard output: USAGE (the usage lines and what the
 * command does, ending in a newline), "Options:" and the options, then an
 * empty line and TAIL (the exit status; NULL or "": none). Returns
 * RL_EXIT_OK. */
int rl_cli_help(unsigned cmd, const char *usage, const char *tail);

int cmd_classify(int argc, char **argv);
int cmd_hw(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_kinds(int argc, char **argv);
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
int cmd_search(int argc, char **argv);

#endif
