/* generate_report.c - a generation's times as a block (table, md) or a json
 * object (roofline model --generate). */
#include "config.h"

#include <math.h>

#include "generate_report.h"

/* A time of the block in WIDTH columns, or "-" where it is not defined
 * (the time per output token of the prefill alone). */
static void gen_time(FILE *out, int width, double v)
{
	if (isnan(v))
		fprintf(out, "%*s", width, "-");
	else
		fprintf(out, "%*.2f", width, v);
}

static void write_json(FILE *out, const struct rl_generate *g)
{
	const struct rl_generate_spec *sp = &g->spec;

	fprintf(out,
	        "{\"generate\":{\"batch\":%llu,\"seq\":%llu,\"tokens\":%llu,"
	        "\"prefill_us\":%.3f,\"prefill_roofline_us\":%.3f,",
	        (unsigned long long)sp->batch, (unsigned long long)sp->seq,
	        (unsigned long long)sp->tokens, g->prefill.expected_us, g->prefill.roofline_us);
	if (g->steps > 0)
		fprintf(out, "\"per_token_us\":%.3f,\"per_token_roofline_us\":%.3f,",
		        g->per_token.expected_us, g->per_token.roofline_us);
	else
		fputs("\"per_token_us\":null,\"per_token_roofline_us\":null,", out);
	fprintf(out,
	        "\"total_us\":%.3f,\"total_roofline_us\":%.3f,"
	        "\"tokens_per_s\":%.3f,\"tokens_per_s_roofline\":%.3f,"
	        "\"steps_evaluated\":%llu,\"error_estimate\":%.3g}}\n",
	        g->total.expected_us, g->total.roofline_us, g->tokens_per_s,
	        g->tokens_per_s_roofline, (unsigned long long)g->evaluated, g->error);
}

int rl_generate_report_write(FILE *out, enum rl_format fmt, const struct rl_generate *g)
{
	const struct rl_generate_spec *sp = &g->spec;
	char range[96];

	if (fmt == RL_FMT_JSON) {
		write_json(out, g);
		return 0;
	}
	if (fmt != RL_FMT_TABLE && fmt != RL_FMT_MD)
		return RL_ERR_ARG;
	if (g->steps > 0)
		snprintf(range, sizeof(range), "decode at contexts %llu to %llu",
		         (unsigned long long)g->first_context, (unsigned long long)g->last_context);
	else
		snprintf(range, sizeof(range), "the prefill's; no decode step");
	if (fmt == RL_FMT_MD) {
		fprintf(out,
		        "Generate: batch %llu, prompt %llu tokens, %llu output token%s (%s)\n\n"
		        "| | expected | roofline |\n|---|---:|---:|\n"
		        "| prefill (time to first token), us | %.2f | %.2f |\n"
		        "| per output token (mean), us | ",
		        (unsigned long long)sp->batch, (unsigned long long)sp->seq,
		        (unsigned long long)sp->tokens, sp->tokens == 1 ? "" : "s", range,
		        g->prefill.expected_us, g->prefill.roofline_us);
		gen_time(out, 0, g->per_token.expected_us);
		fputs(" | ", out);
		gen_time(out, 0, g->per_token.roofline_us);
		fprintf(out,
		        " |\n"
		        "| total, us | %.2f | %.2f |\n"
		        "| tokens/s | %.1f | %.1f |\n",
		        g->total.expected_us, g->total.roofline_us, g->tokens_per_s,
		        g->tokens_per_s_roofline);
	} else {
		fprintf(out,
		        "generate: batch %llu, prompt %llu tokens, %llu output token%s (%s)\n"
		        "                                    expected      roofline\n"
		        "  prefill (time to first token) %12.2f  %12.2f us\n"
		        "  per output token (mean)       ",
		        (unsigned long long)sp->batch, (unsigned long long)sp->seq,
		        (unsigned long long)sp->tokens, sp->tokens == 1 ? "" : "s", range,
		        g->prefill.expected_us, g->prefill.roofline_us);
		gen_time(out, 12, g->per_token.expected_us);
		fputs("  ", out);
		gen_time(out, 12, g->per_token.roofline_us);
		fprintf(out,
		        " us\n"
		        "  total                         %12.2f  %12.2f us\n"
		        "  throughput                    %12.1f  %12.1f tokens/s\n",
		        g->total.expected_us, g->total.roofline_us, g->tokens_per_s,
		        g->tokens_per_s_roofline);
	}
	if (g->evaluated < g->steps)
		fprintf(
		    out,
		    "%s%snote: %llu decode steps, %llu of them evaluated, the others integrated "
		    "over blocks of contexts (estimated error %.2g %%)\n",
		    fmt == RL_FMT_MD ? "\n" : "", fmt == RL_FMT_MD ? "" : "  ",
		    (unsigned long long)g->steps, (unsigned long long)g->evaluated, g->error * 100);
	return 0;
}
