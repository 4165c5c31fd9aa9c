/* cmd_import.c - "roofline import": a PyTorch profiler trace -> op list v1. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "import.h"
#include "trace.h"

static int usage(void)
{
	return rl_cli_help(RL_CMD_IMPORT,
	                   "Usage: roofline import [OPTIONS] TRACE.json[.gz]\n"
	                   "\n"
	                   "Read a PyTorch profiler trace (torch.profiler's export_chrome_trace, plain or\n"
	                   "gzipped; '-' reads standard input) and write an op list (CSV,\n"
	                   "docs/oplist-format.md): one row per outermost op that launched GPU work, with\n"
	                   "kind, dtype and shape from its recorded inputs, measured_us (its GPU time),\n"
	                   "launches and host_us (its CPU time). 'roofline classify' reads it back;\n"
	                   "docs/trace-import.md lists the ops it maps.\n",
	                   "Exit status: 0 success, 1 bad input, 2 usage error.\n");
}

int rl_cli_import(const char *path, struct rl_import *imp)
{
	return rl_cli_import_keep(path, imp, NULL);
}

int rl_cli_import_keep(const char *path, struct rl_import *imp, struct rl_trace *keep)
{
	struct rl_trace t;
	struct rl_err e;
	size_t i;

	memset(imp, 0, sizeof(*imp));
	if (rl_trace_read(path, &t, &e) < 0 || rl_import_trace(&t, imp, &e) < 0) {
		rl_cli_error("%s", e.msg);
		rl_trace_release(&t);
		rl_import_release(imp);
		return -1;
	}
	if (t.skipped.count > 0)
		rl_cli_error("%s: warning: %zu event%s skipped (the first at %s)", t.name,
		             t.skipped.count, t.skipped.count == 1 ? "" : "s", t.skipped.first);
	if (imp->unlinked > 0)
		rl_cli_error("%s: warning: %zu GPU activit%s (%.3f us) without a launch call in the "
		             "trace: left out of the ops",
		             t.name, imp->unlinked, imp->unlinked == 1 ? "y" : "ies",
		             (double)imp->unlinked_ns / 1000);
	if (imp->orphans > 0)
		rl_cli_error("%s: warning: %zu launch call%s outside any CPU op: %s named after "
		             "the call",
		             t.name, imp->orphans, imp->orphans == 1 ? "" : "s",
		             imp->orphans == 1 ? "a row" : "rows");
	if (imp->custom > 0) {
		char list[512];
		size_t used = 0;

		list[0] = '\0';
		for (i = 0; i < imp->ncustom_names; i++)
			used += (size_t)snprintf(list + used, used < sizeof(list) ? sizeof(list) - used : 0,
			                         "%s%s (%zu)", i ? ", " : "", imp->custom_names[i].name,
			                         imp->custom_names[i].count);
		rl_cli_error("%s: warning: %zu op%s kept as custom (no formula for the op, or its "
		             "shapes are not recorded): %s%s",
		             t.name, imp->custom, imp->custom == 1 ? "" : "s", list,
		             imp->ncustom_names == RL_IMPORT_CUSTOM_NAMES ? ", ..." : "");
	}
	if (keep != NULL)
		*keep = t;
	else
		rl_trace_release(&t);
	return 0;
}

int cmd_import(int argc, char **argv)
{
	struct rl_cli_getopt go;
	const char *output = NULL;
	struct rl_import imp;
	struct rl_outfiles outs;
	struct rl_outfile *out;
	int opt, rc, status = RL_EXIT_OK;

	rl_cli_getopt(RL_CMD_IMPORT, &go);
	while ((opt = getopt_long(argc, argv, go.shortopts, go.longopts, NULL)) != -1) {
		switch (opt) {
		case 'o': output = optarg; break;
		default: return rl_cli_option_other("import", opt, usage, argv);
		}
	}
	if (optind != argc - 1)
		return rl_cli_usage("import", optind == argc ? "no trace given"
		                                              : "more than one trace given");
	/* checked and opened before the trace is read */
	rl_outfiles_init(&outs);
	rl_outfiles_input(&outs, "the trace", argv[optind]);
	out = rl_outfiles_add(&outs, "-o", output);
	if ((rc = rl_cli_outputs_open(&outs)) != 0)
		return rc;
	if (rl_cli_import(argv[optind], &imp) < 0) {
		rl_outfiles_release(&outs);
		return RL_EXIT_FAIL;
	}
	if (rl_import_write(out->f, &imp, argv[optind]) < 0) {
		rl_cli_error("cannot write the op list");
		status = RL_EXIT_FAIL;
	} else if (rl_cli_outputs_commit(&outs) < 0) {
		status = RL_EXIT_FAIL;
	}
	rl_outfiles_release(&outs);
	rl_import_release(&imp);
	return status;
}
