/* main.c - the roofline program: global options and the subcommand table. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cudaload.h"

static const struct rl_cmd commands[] = {
	{"classify", cmd_classify, "predict each op's time and bound from an op list"},
	{"model", cmd_model, "build and predict one step of a transformer from its config.json"},
	{"search", cmd_search, "rank every parallel layout of a model's step on a system"},
	{"plot", cmd_plot, "draw an op list as an SVG roofline chart, or a sweep"},
	{"hw", cmd_hw, "list and show devices and runtime profiles of the database"},
	{"kinds", cmd_kinds, "list the op kinds an op list takes, with their shapes and columns"},
	{"probe", cmd_probe, "query the CUDA GPU, derive its entry, cross-check the database"},
	{"devices", cmd_devices, "list the CUDA devices of this machine"},
	{"import", cmd_import, "turn a PyTorch profiler trace into an op list"},
	{"report", cmd_report, "each op of a trace against its roofline, and the step"},
	{"bench", cmd_bench, "measure the GPU's roofs with CUDA microbenchmarks"},
	{"calibrate", cmd_calibrate, "write a device file with the measured roofs"},
	{"validate", cmd_validate, "run synthetic ops on the GPU against the model's verdicts"},
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static int usage(void)
{
	size_t i;

	printf("Usage: roofline [--help] [--version] COMMAND [ARGS]\n"
	       "\n"
	       "A static roofline and cost calculator for deep-learning operators on GPUs:\n"
	       "for each op, is the time going to compute, to memory bandwidth, or to\n"
	       "overhead, and how fast could it be at best?\n"
	       "\n"
	       "Commands:\n");
	for (i = 0; i < N_COMMANDS; i++)
		printf("  %-10s %s\n", commands[i].name, commands[i].summary);
	printf("\n"
	       "Options:\n"
	       "  -h, --help     show this help and exit\n"
	       "  -V, --version  show the version and exit\n"
	       "\n"
	       "Run 'roofline COMMAND --help' for a command's options.\n"
	       "Exit status: 0 success, 1 bad data or a runtime failure, 2 usage error.\n"
	       "Environment: ROOFLINE_HW (default device), ROOFLINE_HWDB (database directory),\n"
	       "ROOFLINE_CUDA_PLUGIN (the CUDA plugin, roofline-cuda.so).\n");
	return RL_EXIT_OK;
}

static int run(int argc, char **argv)
{
	size_t i;

	if (argc < 2)
		return rl_cli_usage(NULL, "no command given");
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
		return usage();
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0)
		return rl_cli_version();
	if (strcmp(argv[1], "help") == 0 && argc == 2)
		return usage();
	/* Only a path: the plugin is loaded by the first GPU call, if any. */
	rl_cudaload_set_path(rl_cli_cuda_plugin());
	for (i = 0; i < N_COMMANDS; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	if (argv[1][0] == '-')
		return rl_cli_usage(NULL, "unknown option '%s'", argv[1]);
	return rl_cli_usage(NULL, "unknown command '%s'", argv[1]);
}

int main(int argc, char **argv)
{
	struct rl_err err;
	int status, e;

	/* before anything is opened: no file may take a closed descriptor 1
	 * and receive what was meant for standard output */
	rl_outfiles_guard_stdio();
	status = run(argc, argv);
	/* what was printed to standard output directly (help, tables) must
	 * have got there too; the commands' outputs went through outfile.c */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		e = errno;
		if (rl_outfiles_stdout_ok(&err) < 0)
			rl_cli_error("%s", err.msg);
		else
			rl_cli_error("cannot write standard output: %s", strerror(e));
		if (status == RL_EXIT_OK)
			status = RL_EXIT_FAIL;
	}
	return status;
}
