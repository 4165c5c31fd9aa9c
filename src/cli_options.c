/* cli_options.c - the one table of the commands' options: each option's
 * long and short name, its argument, its help and the commands that take
 * it, from which getopt_long's arrays and every command's --help are made
 * (cli.h). */
#include "config.h"

#include <string.h>

#include "cli.h"

#define PREDICT \
	(RL_CMD_CLASSIFY | RL_CMD_MODEL | RL_CMD_PLOT | RL_CMD_REPORT | RL_CMD_VALIDATE | RL_CMD_SEARCH)
/* the step of a config: model's, and search's */
#define STEP (RL_CMD_MODEL | RL_CMD_SEARCH)
#define GPU (RL_CMD_PROBE | RL_CMD_BENCH | RL_CMD_CALIBRATE | RL_CMD_VALIDATE)
#define ALL ((1u << RL_CMD_COUNT) - 1)

/* In the order of every command's --help. A help of NULL lists the option on
 * one line with the next row's, which holds their help. */
const struct rl_cli_opt rl_cli_options[] = {
	/* the step of a config (model) */
	{"phase", 0, RL_OPT_PHASE, "PHASE", STEP,
	 "decode (default: one token per sequence) or\n"
	 "prefill (the prompt; the encoders' default)"},
	{"batch", 0, RL_OPT_BATCH, "N", STEP,
	 "sequences (default 1)"},
	{"seq", 0, RL_OPT_SEQ, "N", STEP,
	 "prompt tokens per sequence (default 512)"},
	{"context", 0, RL_OPT_CONTEXT, "N", STEP,
	 "KV length at decode (default: --seq)"},
	{"dtype", 0, RL_OPT_DTYPE, "T", STEP,
	 "activations (default bf16)"},
	{"weight-dtype", 0, RL_OPT_WEIGHT_DTYPE, "T", STEP,
	 "weights, e.g. int4 (default: --dtype)"},
	{"weight-group", 0, RL_OPT_WEIGHT_GROUP, "N", STEP,
	 "group-quantised weights: one fp16 scale per N\n"
	 "weights along each matmul's K (gpt-fast int4:\n"
	 "32 to 256), in the memory fit and the bytes"},
	{"kv-dtype", 0, RL_OPT_KV_DTYPE, "T", STEP,
	 "KV cache, e.g. fp8 (default: --dtype)"},
	{"families", 0, RL_OPT_FAMILIES, NULL, RL_CMD_MODEL,
	 "list the model families (their model_types,\n"
	 "phases, parallel layouts and keys) and exit;\n"
	 "no config.json (-f table, csv or json)"},
	{"max-batch", 0, RL_OPT_MAX_BATCH, NULL, RL_CMD_MODEL,
	 "print the largest batch whose step fits the\n"
	 "device's memory (at most 16777216), its step\n"
	 "time and memory"},
	{"generate", 0, RL_OPT_GENERATE, "N", RL_CMD_MODEL,
	 "N output tokens: the prefill of --seq tokens\n"
	 "(the first), then N - 1 decode steps, the\n"
	 "context growing from --seq: time to first\n"
	 "token, time per output token, total, tokens/s"},
	{"impl", 0, RL_OPT_IMPL, "NAME", RL_CMD_MODEL,
	 "the software stack whose kernels the step is:\n"
	 "fused (default: a serving engine's fused\n"
	 "kernels), hf (transformers eager), compiled\n"
	 "(torch.compile, static cache), a .impl file,\n"
	 "NAME:CHOICE=VALUE,... for its choices, or all:\n"
	 "one row per implementation (docs/impl.md)"},
	{"expert-imbalance", 0, RL_OPT_EXPERT_IMBALANCE, "X", STEP,
	 "MoE (mixtral): the busiest expert's tokens over\n"
	 "the mean, >= 1 (default 1: uniform routing)"},
	{"mla", 0, RL_OPT_MLA, "FORM", RL_CMD_MODEL,
	 "deepseek's latent attention: absorb (default:\n"
	 "the latent cached, the up-projections absorbed)\n"
	 "or naive (K and V expanded per head and cached)"},
	{"sweep", 0, RL_OPT_SWEEP, "NAME=V1,V2,...", RL_CMD_MODEL,
	 "one step per value of batch, seq or context:\n"
	 "step time, tokens/s, time share per bound,\n"
	 "memory and whether it fits (docs/sweep.md)"},
	{"tp", 0, RL_OPT_TP, "N", RL_CMD_MODEL, NULL},
	{"pp", 0, RL_OPT_PP, "N", RL_CMD_MODEL, NULL},
	{"dp", 0, RL_OPT_DP, "N", RL_CMD_MODEL, NULL},
	{"ep", 0, RL_OPT_EP, "N", RL_CMD_MODEL,
	 "tensor, pipeline, data and expert parallel\n"
	 "degrees (default 1): the op list is one GPU's\n"
	 "share with its collectives, on the system of\n"
	 "--hw (docs/parallel.md)"},
	{"microbatches", 0, RL_OPT_MICROBATCHES, "M", RL_CMD_MODEL,
	 "pipeline micro-batches (default: pp, or the\n"
	 "largest divisor of batch / dp below it)"},
	{"virtual-stages", 0, RL_OPT_VIRTUAL_STAGES, "V", RL_CMD_MODEL,
	 "model chunks per GPU: the interleaved 1F1B\n"
	 "schedule (bubble / V, V sends a micro-batch;\n"
	 "needs --pp, pp x V dividing the layers and\n"
	 "micro-batches a multiple of pp)"},
	{"tp-comm-overlap", 0, RL_OPT_TP_COMM_OVERLAP, NULL, RL_CMD_MODEL,
	 "the tensor-parallel all-reduces on the\n"
	 "communication stream beside the compute\n"
	 "(overlap=1; --timeline shows what is hidden)"},
	{"sp", 0, RL_OPT_SP, NULL, RL_CMD_MODEL,
	 "sequence parallelism (with --tp): the norms'\n"
	 "and residuals' tokens split over tp, reduce-\n"
	 "scatter and all-gather for each all-reduce"},
	{"zero", 0, RL_OPT_ZERO, "STAGE", RL_CMD_MODEL,
	 "--train with --dp: ZeRO's stage, 1 (optimizer\n"
	 "state sharded over dp), 2 (and gradients), 3\n"
	 "(and weights, FSDP); 0: none (default)"},
	{"timeline", 0, RL_OPT_TIMELINE, NULL, RL_CMD_MODEL,
	 "simulate the step on the host, the GPU and\n"
	 "the communication stream (docs/timeline.md)"},

	/* the GPU and the recordings */
	{"device", 0, RL_OPT_DEVICE, "N", GPU,
	 "CUDA device index (default 0)"},
	{"attrs", 0, RL_OPT_ATTRS, "FILE", RL_CMD_PROBE,
	 "derive from a recorded attribute set (--format attrs) instead of querying a GPU"},
	{"quick", 0, RL_OPT_QUICK, NULL, RL_CMD_BENCH,
	 "fewer repetitions and smaller sizes: a smoke run"},
	{"quick", 0, RL_OPT_QUICK, NULL, RL_CMD_CALIBRATE,
	 "a smoke run (its file says so)"},
	{"only", 0, RL_OPT_ONLY, "LIST", RL_CMD_BENCH,
	 "run only these groups, comma-separated: memory, pipes (vector and special), gemm, launch, sweep; or collectives (not run by default): NCCL all-reduce, all-gather, reduce-scatter, all-to-all and send/recv across the GPUs, 8 B to 4 GiB, algbw and busbw as nccl-tests reports them, each result checked"},
	{"collectives", 0, RL_OPT_COLLECTIVES, NULL, RL_CMD_CALIBRATE,
	 "measure the NCCL collectives instead (bench --only collectives) and write a system file: all-reduce's bus bandwidth and latency as intra_bandwidth_gbs and intra_latency_us, every kind's as nccl.KIND_busbw_gbs, the system's figures beside them (--hw SYSTEM needed; a recording of collectives given to --from does the same)"},
	{"gpus", 0, RL_OPT_GPUS, "N", RL_CMD_BENCH | RL_CMD_CALIBRATE,
	 "collectives on devices 0 to N - 1 (default: all)"},
	{"gpus", 0, RL_OPT_GPUS, "N", RL_CMD_SEARCH,
	 "the GPUs every layout uses: tp x pp x dp = N\n"
	 "(on --hw's system: its nodes of gpus_per_node)"},
	{"top", 0, RL_OPT_TOP, "N", RL_CMD_SEARCH,
	 "the layouts printed, the best first (default 5)"},
	{"from", 0, RL_OPT_FROM, "FILE", RL_CMD_BENCH,
	 "report a recording (bench -f json) instead of measuring"},
	{"from", 0, RL_OPT_FROM, "FILE", RL_CMD_CALIBRATE,
	 "calibrate from a recording (bench -f json)"},
	{"from", 0, RL_OPT_FROM, "FILE", RL_CMD_VALIDATE,
	 "report a recording (validate -f json) instead"},
	{"record", 0, RL_OPT_RECORD, "FILE", RL_CMD_CALIBRATE,
	 "also write the recording the roofs come from"},
	{"list", 0, RL_OPT_LIST, NULL, RL_CMD_VALIDATE,
	 "print the built-in op list and exit"},
	{"tp", 0, RL_OPT_TP, "N", RL_CMD_VALIDATE,
	 "a tensor-parallel transformer layer on N GPUs\n"
	 "(N >= 2; refused on a machine with fewer GPUs;\n"
	 "the run itself is not written yet: issue 16)"},
	{"id", 0, RL_OPT_ID, "ID", RL_CMD_CALIBRATE,
	 "the new device's id (default: the datasheet's + -measured)"},
	{"from-trace", 0, RL_OPT_FROM_TRACE, "TRACE", RL_CMD_CALIBRATE,
	 "fit a runtime profile (host cost per launch, per\n"
	 "op kind) from a PyTorch profiler trace of one step,\n"
	 ".json or .json.gz; -o NAME.runtime, else standard\n"
	 "output; --id names it (default: NAME, or fitted)"},
	{"step-us", 0, RL_OPT_STEP_US, "US", RL_CMD_CALIBRATE,
	 "with --from-trace: the step's wall time measured\n"
	 "without the profiler; the fit is scaled to it"},

	/* the device and the runtime (rl_cli_model_option) */
	{"hw", 0, RL_OPT_HW, "ID|FILE|live",
	 RL_CMD_CLASSIFY | RL_CMD_MODEL | RL_CMD_PLOT | RL_CMD_SEARCH,
	 "device: an id or alias of the database, a .device\n"
	 "file, or live[:N] for the CUDA GPU of this machine;\n"
	 "or a system (hw systems) or FILE.system: its GPU,\n"
	 "and its interconnect for collectives\n"
	 "(default $ROOFLINE_HW, else h100-sxm)"},
	{"hw", 0, RL_OPT_HW, "ID|FILE|live", RL_CMD_REPORT,
	 "device: an id or alias of the database, a .device\n"
	 "file, or live[:N] for the CUDA GPU of this machine;\n"
	 "or a system (hw systems) or FILE.system: its GPU,\n"
	 "and its interconnect for collectives\n"
	 "(default: the GPU the trace's deviceProperties\n"
	 "name, matched in the database)"},
	{"hw", 0, RL_OPT_HW, "ID|FILE", RL_CMD_VALIDATE,
	 "device to predict on (default: the entry matching\n"
	 "the GPU)"},
	{"hw", 0, RL_OPT_HW, "ID|FILE", RL_CMD_BENCH,
	 "reference device (default: the entry matching the GPU)"},
	{"hw", 0, RL_OPT_HW, "ID|FILE", RL_CMD_CALIBRATE,
	 "the datasheet entry (default: the one matching the GPU; the probe's derivation when none matches)"},
	{"roofs", 0, RL_OPT_ROOFS, "WHICH", PREDICT,
	 "measured or datasheet: which roofs a calibrated\n"
	 "device file (roofline calibrate) predicts with"},
	{"hwdb", 0, RL_OPT_HWDB, "DIR", PREDICT | GPU | RL_CMD_HW,
	 "device database directory (default $ROOFLINE_HWDB,\n"
	 "else the build tree's or the installed hwdb/)"},
	{"runtime", 0, RL_OPT_RUNTIME, "NAME", PREDICT & ~RL_CMD_VALIDATE,
	 "host-side runtime profile: eager, graph, cpp\n"
	 "(default eager)"},
	{"runtime", 0, RL_OPT_RUNTIME, "NAME", RL_CMD_VALIDATE,
	 "host-side runtime profile (default cpp: the\n"
	 "synthetic ops are launched from C)"},
	{"host-overhead-us", 0, RL_OPT_HOST_OVERHEAD, "X", PREDICT,
	 "host cost per kernel launch in microseconds,\n"
	 "overriding the runtime profile for every op kind"},
	{"best-case", 0, RL_OPT_BEST_CASE, NULL, PREDICT,
	 "the pure roofline (a lower bound) everywhere,\n"
	 "instead of expected times"},
	{"efficiency", 0, RL_OPT_EFFICIENCY, "FILE", PREDICT,
	 "efficiency profile of the expected times (default:\n"
	 "the GPU's own in the hwdb, else the nearest one's)"},

	/* a training step (rl_cli_train_option) */
	{"train", 0, RL_OPT_TRAIN, NULL, RL_CMD_CLASSIFY | STEP,
	 "a training step: each forward op's backward ops\n"
	 "(in reverse order) and the optimizer step, with\n"
	 "gradients, optimizer state and saved activations\n"
	 "in the memory fit (docs/oplist-format.md)"},
	{"optimizer", 0, RL_OPT_OPTIMIZER, "NAME", RL_CMD_CLASSIFY | STEP,
	 "adamw (default), adam, sgd (with momentum) or none"},
	{"fused-optimizer", 0, RL_OPT_FUSED_OPTIMIZER, NULL, RL_CMD_CLASSIFY | STEP,
	 "one fused kernel (fused=True) instead of PyTorch's\n"
	 "default foreach passes"},
	{"state-dtype", 0, RL_OPT_STATE_DTYPE, "T", RL_CMD_CLASSIFY | STEP,
	 "the optimizer state's dtype (default fp32)"},
	{"autocast", 0, RL_OPT_AUTOCAST, NULL, RL_CMD_CLASSIFY | STEP,
	 "weights and gradients kept in fp32, the ops in\n"
	 "their dtype (torch.autocast): each weight cast\n"
	 "in forward, each weight gradient in backward"},
	{"master-weights", 0, RL_OPT_MASTER_WEIGHTS, NULL, RL_CMD_CLASSIFY | STEP,
	 "an fp32 master copy of the 16-bit weights, which\n"
	 "the optimizer updates and copies back"},
	{"recompute", 0, RL_OPT_RECOMPUTE, NULL, RL_CMD_CLASSIFY | RL_CMD_MODEL,
	 "activation recomputation: the repeated blocks\n"
	 "(rows with count > 1) run forward again"},
	{"grad-accum", 0, RL_OPT_GRAD_ACCUM, "N", RL_CMD_CLASSIFY | RL_CMD_MODEL,
	 "micro-batches per optimizer step (default 1)"},
	{"weight-decay", 0, RL_OPT_WEIGHT_DECAY, NULL, RL_CMD_CLASSIFY | STEP,
	 "L2 weight decay of SGD or Adam (weight_decay > 0):\n"
	 "one more foreach pass, g + wd p"},
	{"impl", 0, RL_OPT_IMPL, "NAME", RL_CMD_CLASSIFY,
	 "an implementation (model --impl): fused (default),\n"
	 "hf or a .impl file; with --train, one whose\n"
	 "autograd key is 1 (hf) adds what PyTorch's eager\n"
	 "autograd launches beside the backward (bias\n"
	 "gradients, accumulations, casts, q/k/v gradient\n"
	 "copies, the loss's fp32 fill)"},

	/* the names of an op list (classify, plot) */
	{"set", 0, RL_OPT_SET, "NAME=N,...", RL_CMD_CLASSIFY | RL_CMD_PLOT,
	 "bind the names that shapes use (Bx4096) to sizes"},
	{"scale", 0, RL_OPT_SCALE, "NAME=K,...", RL_CMD_CLASSIFY,
	 "table, csv: predict each op and the list with\n"
	 "NAME's size times K too, and report the ratio"},
	{"sweep", 0, RL_OPT_SWEEP, "NAME=V1,V2,...", RL_CMD_CLASSIFY,
	 "one row per value of a --set name: step time,\n"
	 "time share per bound, memory, fits (the list\n"
	 "read again per value; table, csv, json, md)"},
	{"items-per-step", 0, RL_OPT_ITEMS_PER_STEP, "EXPR", RL_CMD_CLASSIFY,
	 "with --sweep: items per step, an expression over\n"
	 "the names (B, B*197), for an items/s column"},
	{"sweep", 0, RL_OPT_SWEEP, NULL, RL_CMD_PLOT,
	 "the sweep chart: x is each op's flops_per_element\n"
	 "when every op gives one, else its position"},
	{"sweep-table", 0, RL_OPT_SWEEP_TABLE, NULL, RL_CMD_PLOT,
	 "draw a sweep's csv instead (roofline model or\n"
	 "classify --sweep ... -f csv; '-' reads standard\n"
	 "input): throughput and step time against the\n"
	 "swept value, the knee and where memory runs out"},

	/* what is written */
	{"format", 'f', 'f', "FMT", RL_CMD_CLASSIFY | RL_CMD_REPORT,
	 "table (default), csv, json, md or html\n"
	 "(one self-contained page, docs/html.md)"},
	{"format", 'f', 'f', "FMT", RL_CMD_MODEL,
	 "table (default), csv, json, md, html (one\n"
	 "self-contained page, docs/html.md), or oplist\n"
	 "(the op list, for classify)"},
	{"format", 'f', 'f', "FMT", RL_CMD_HW,
	 "table (default), csv or json; 'show --format csv' writes rows key,value,source"},
	{"format", 'f', 'f', "FMT", RL_CMD_PROBE,
	 "table (default: derived beside database), json, hwdb (a device file for --hw FILE) or attrs (the raw attributes)"},
	{"format", 'f', 'f', "FMT", RL_CMD_BENCH,
	 "table (default), csv (one row per measurement), json (the recording: every sample, for --from) or sweep[:DTYPE] (the fp32, bf16 or fp16 sweep as an op list with measured_us, for plot --sweep; default fp32)"},
	{"format", 'f', 'f', "FMT", RL_CMD_VALIDATE,
	 "table (default), csv, md or json (the recording)"},
	{"format", 'f', 'f', "FMT", RL_CMD_SEARCH,
	 "table (default), csv, json or html (docs/html.md)"},
	{"format", 'f', 'f', "FMT", RL_CMD_KINDS,
	 "table (default), csv or json"},
	{"timeline", 0, RL_OPT_TIMELINE, NULL, RL_CMD_CLASSIFY,
	 "simulate one step on the host and the GPU for\n"
	 "every runtime profile: step time, GPU idle time,\n"
	 "GPU-Util (table, json, md; docs/timeline.md)"},
	{"timeline", 0, RL_OPT_TIMELINE, NULL, RL_CMD_REPORT,
	 "simulate the step on the host and the GPU for every\n"
	 "runtime profile, beside the trace's measured step\n"
	 "(table, json, md; docs/timeline.md)"},
	{"l2", 0, RL_OPT_L2, NULL, RL_CMD_REPORT,
	 "predict L2-resident ops with their input read from\n"
	 "the L2 (l2_bandwidth_gbs; docs/oplist-format.md)"},
	{"l2", 0, RL_OPT_L2, NULL, RL_CMD_CLASSIFY,
	 "predict L2-resident ops (marked ^) with their\n"
	 "input read from the L2 at l2_bandwidth_gbs"},
	{"wide", 0, RL_OPT_WIDE, NULL, RL_CMD_CLASSIFY | RL_CMD_MODEL | RL_CMD_REPORT,
	 "table: show every column, names uncut"},
	{"suggest-fusion", 0, RL_OPT_SUGGEST_FUSION, NULL, RL_CMD_CLASSIFY,
	 "table, md: propose fusing runs of memory- or\n"
	 "overhead-bound pointwise, softmax and layernorm\n"
	 "ops, with the time saved"},
	{"output", 'o', 'o', "FILE",
	 RL_CMD_CLASSIFY | RL_CMD_MODEL | RL_CMD_PLOT | RL_CMD_IMPORT | RL_CMD_REPORT |
	     RL_CMD_PROBE | RL_CMD_BENCH | RL_CMD_VALIDATE | RL_CMD_KINDS | RL_CMD_SEARCH,
	 "write to FILE (whole or not at all) instead of standard output"},
	{"output", 'o', 'o', "FILE", RL_CMD_CALIBRATE,
	 "the device file to write (whole or not at all)"},
	{"svg", 0, RL_OPT_SVG, "FILE", RL_CMD_CLASSIFY,
	 "also draw the roofline chart (as roofline plot)\n"
	 "into FILE, whole or not at all"},
	{"svg", 0, RL_OPT_SVG, "FILE", RL_CMD_REPORT,
	 "also draw the roofline chart, with each op's\n"
	 "measured point (as roofline plot)"},
	{"help", 'h', 'h', NULL, ALL,
	 "show this help and exit"},
	{"version", 'V', 'V', NULL, ALL,
	 "show the version and exit"},
};
const size_t rl_cli_noptions = sizeof(rl_cli_options) / sizeof(rl_cli_options[0]);

void rl_cli_getopt(unsigned cmd, struct rl_cli_getopt *g)
{
	size_t i, n = 0, s = 0;

	optind = 1; /* from the first argument after the command's name */
	opterr = 0; /* the command says what is wrong */
	g->shortopts[s++] = ':';
	for (i = 0; i < rl_cli_noptions; i++) {
		const struct rl_cli_opt *o = &rl_cli_options[i];

		if (!(o->cmds & cmd) || n + 1 >= RL_CLI_OPTS_MAX)
			continue;
		g->longopts[n].name = o->name;
		g->longopts[n].has_arg = o->arg != NULL ? required_argument : no_argument;
		g->longopts[n].flag = NULL;
		g->longopts[n].val = o->val;
		n++;
		if (o->short_name != 0 && s + 3 < sizeof(g->shortopts)) {
			g->shortopts[s++] = o->short_name;
			if (o->arg != NULL)
				g->shortopts[s++] = ':';
		}
	}
	memset(&g->longopts[n], 0, sizeof(g->longopts[n]));
	g->shortopts[s] = '\0';
}

#define HELP_COLUMN 28 /* where the help text starts */
#define HELP_WIDTH  79 /* the longest line */

/* Writes TEXT with the cursor at column AT, its words wrapped at WIDTH,
 * each further line from column INDENT, '\n' a forced break; then a
 * newline. */
static void wrap(FILE *out, const char *text, int at, int indent, int width)
{
	const char *p = text;

	while (*p != '\0') {
		size_t n = strcspn(p, " \n");

		if (at > indent && at + 1 + (int)n > width) {
			fprintf(out, "\n%*s", indent, "");
			at = indent;
		} else if (at > indent) {
			fputc(' ', out);
			at++;
		}
		fprintf(out, "%.*s", (int)n, p);
		at += (int)n;
		p += n;
		if (*p == '\n') {
			fprintf(out, "\n%*s", indent, "");
			at = indent;
			p++;
		} else if (*p == ' ') {
			p++;
		}
	}
	fputc('\n', out);
}

void rl_cli_print_wrapped(FILE *out, const char *text, int width)
{
	wrap(out, text, 0, 0, width);
}

void rl_cli_help_options(FILE *out, unsigned cmd)
{
	size_t i;
	int at = 0;

	for (i = 0; i < rl_cli_noptions; i++) {
		const struct rl_cli_opt *o = &rl_cli_options[i];
		int n;

		if (!(o->cmds & cmd))
			continue;
		if (at == 0)
			n = o->short_name != 0 ? fprintf(out, "  -%c, ", o->short_name)
			                       : fprintf(out, "      ");
		else
			n = fprintf(out, ", ");
		n += fprintf(out, "--%s%s%s", o->name, o->arg != NULL ? " " : "",
		             o->arg != NULL ? o->arg : "");
		at += n;
		if (o->help == NULL)
			continue; /* listed with the next */
		if (at + 2 <= HELP_COLUMN) {
			fprintf(out, "%*s", HELP_COLUMN - at, "");
			at = HELP_COLUMN;
		} else if (i > 0 && rl_cli_options[i - 1].help == NULL) {
			fprintf(out, "\n%*s", HELP_COLUMN, "");
			at = HELP_COLUMN;
		} else {
			fputs("  ", out);
			at += 2;
		}
		/* the first word starts the text, wherever the cursor is */
		{
			size_t w = strcspn(o->help, " \n");

			fprintf(out, "%.*s", (int)w, o->help);
			at += (int)w;
			if (o->help[w] == '\n') {
				fprintf(out, "\n%*s", HELP_COLUMN, "");
				at = HELP_COLUMN;
			}
			if (o->help[w] != '\0')
				wrap(out, o->help + w + 1, at, HELP_COLUMN, HELP_WIDTH);
			else
				fputc('\n', out);
		}
		at = 0;
	}
}

int rl_cli_help(unsigned cmd, const char *usage, const char *tail)
{
	fputs(usage, stdout);
	fputs("\nOptions:\n", stdout);
	rl_cli_help_options(stdout, cmd);
	if (tail != NULL && *tail != '\0')
		printf("\n%s", tail);
	return RL_EXIT_OK;
}

const char *rl_cli_option_name(int val)
{
	size_t i;

	for (i = 0; i < rl_cli_noptions; i++)
		if (rl_cli_options[i].val == val)
			return rl_cli_options[i].name;
	return "?";
}

int rl_cli_option_other(const char *cmd, int opt, int (*usage)(void), char **argv)
{
	switch (opt) {
	case 'h': return usage();
	case 'V': return rl_cli_version();
	case ':': return rl_cli_usage(cmd, "option '%s' needs a value", argv[optind - 1]);
	default: return rl_cli_usage(cmd, "unknown option '%s'", argv[optind - 1]);
	}
}
