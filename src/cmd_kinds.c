/* cmd_kinds.c - "roofline kinds": the op kinds an op list's kind column
 * takes, written by kind_report.c from the kind registry (kind.h). */
#include "config.h"

#include <getopt.h>

#include "cli.h"
#include "kind_report.h"

static int usage(void)
{
	return rl_cli_help(
	    RL_CMD_KINDS,
	    "Usage: roofline kinds [OPTIONS]\n"
	    "\n"
	    "List the op kinds an op list's kind column takes (docs/oplist-format.md):\n"
	    "for each its shape, default flops_per_element, pipe (tensor or vector when\n"
	    "the unit is not given), whether it holds weights or a KV cache, whether\n"
	    "--suggest-fusion may fuse it, whether it is a collective, and the optional\n"
	    "columns it takes (any other kind's is an error).\n",
	    "Exit status: 0 success, 1 an output not written, 2 usage error.\n");
}

int cmd_kinds(int argc, char **argv)
{
	struct rl_cli_getopt go;
	const char *output = NULL;
	enum rl_format fmt = RL_FMT_TABLE;
	struct rl_outfiles outs;
	struct rl_outfile *out;
	int opt, rc, status = RL_EXIT_FAIL;

	rl_cli_getopt(RL_CMD_KINDS, &go);
	while ((opt = getopt_long(argc, argv, go.shortopts, go.longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (rl_format_parse(optarg, &fmt) < 0 || fmt == RL_FMT_MD || fmt == RL_FMT_HTML)
				return rl_cli_usage(
				    "kinds", "unknown format '%s' (expected table, csv or json)",
				    optarg);
			break;
		case 'o':
			output = optarg;
			break;
		default:
			return rl_cli_option_other("kinds", opt, usage, argv);
		}
	}
	if (optind != argc)
		return rl_cli_usage("kinds", "unexpected argument '%s'", argv[optind]);
	rl_outfiles_init(&outs);
	out = rl_outfiles_add(&outs, "-o", output);
	if ((rc = rl_cli_outputs_open(&outs)) != 0)
		return rc;
	if ((rc = rl_kind_report_write(out->f, fmt)) < 0)
		rl_cli_error("cannot write the kinds: %s", rl_strerror(rc));
	else if (rl_cli_outputs_commit(&outs) == 0)
		status = RL_EXIT_OK;
	rl_outfiles_release(&outs);
	return status;
}
