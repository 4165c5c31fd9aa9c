/* kind_report.c - the op kinds an op list takes, as a table, csv or json
 * (roofline kinds), every figure read from the kind registry (kind.h). */
#include "config.h"

#include <string.h>
#include <yajl/yajl_gen.h>

#include "err.h"
#include "json.h"
#include "kind_report.h"


char *rl_kind_report_columns(unsigned cols, const char *sep, char *buf, size_t n)
{
	size_t i, j, at = 0;

	if (n == 0)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < RL_KCOL_BITS; i++) {
		const char *const *names = rl_kind_column_names(1u << i);

		if (!(cols & (1u << i)))
			continue;
		for (j = 0; names[j] != NULL; j++) {
			int w = snprintf(buf + at, n - at, "%s%s", at > 0 ? sep : "",
			                 names[j]);

			if (w < 0 || (size_t)w >= n - at) {
				buf[at] = '\0'; /* the names that fit, none cut */
				return buf;
			}
			at += (size_t)w;
		}
	}
	return buf;
}

static const char *pipe_name(const struct rl_kind_info *k)
{
	return (k->flags & RL_KF_MATRIX) ? "tensor" : "vector";
}

/* The default flops_per_element of K as text into BUF, where K takes the
 * column (the value when it is not given); "" for the kinds whose FLOPs
 * come from a formula of their own, where the default means nothing. */
static const char *fpe_text(const struct rl_kind_info *k, char *buf, size_t n)
{
	buf[0] = '\0';
	if (!(k->columns & RL_KCOL_FPE))
		return buf;
	snprintf(buf, n, "%g", k->default_fpe);
	return buf;
}

static const char *yes(int b)
{
	return b ? "yes" : "no";
}

/* The widths fit the longest values: "reducescatter", "indices x row width
 * (NxD, BxSxD)"; the columns come last, as hw list's aliases, since their
 * width varies. */
static void write_table(FILE *out)
{
	char cols[256], dims[16], fpe[32];
	int i;

	fprintf(out, "%-13s %-4s %-32s %10s %-6s %-7s %-8s %-7s %-10s %s\n", "kind", "dims",
	        "shape", "flops/elem", "pipe", "weights", "kv_cache", "fusable", "collective",
	        "columns");
	for (i = 0; i < RL_KIND_FUSED; i++) {
		const struct rl_kind_info *k = rl_kind_info((enum rl_kind)i);

		snprintf(dims, sizeof(dims), "%d-%d", k->min_dims, k->max_dims);
		rl_kind_report_columns(k->columns, " ", cols, sizeof(cols));
		fpe_text(k, fpe, sizeof(fpe));
		fprintf(out, "%-13s %-4s %-32s %10s %-6s %-7s %-8s %-7s %-10s %s\n", k->name, dims,
		        k->shape_form != NULL ? k->shape_form : "-", fpe[0] != '\0' ? fpe : "-",
		        pipe_name(k), yes(k->weights == RL_WEIGHTS_MATRIX),
		        yes(k->weights == RL_WEIGHTS_KV), yes(k->flags & RL_KF_FUSABLE),
		        yes(k->flags & RL_KF_COLLECTIVE), cols[0] != '\0' ? cols : "-");
	}
}

static void write_csv(FILE *out)
{
	char cols[256], fpe[32];
	int i;

	fputs("kind,min_dims,max_dims,shape_form,flops_per_element,pipe,weights,kv_cache,"
	      "fusable,collective,columns\n",
	      out);
	for (i = 0; i < RL_KIND_FUSED; i++) {
		const struct rl_kind_info *k = rl_kind_info((enum rl_kind)i);

		fprintf(out, "%s,%d,%d,", k->name, k->min_dims, k->max_dims);
		rl_csv_field(out, k->shape_form != NULL ? k->shape_form : "");
		fprintf(out, ",%s,%s,%d,%d,%d,%d,%s\n", fpe_text(k, fpe, sizeof(fpe)), pipe_name(k),
		        k->weights == RL_WEIGHTS_MATRIX, k->weights == RL_WEIGHTS_KV,
		        (k->flags & RL_KF_FUSABLE) != 0, (k->flags & RL_KF_COLLECTIVE) != 0,
		        rl_kind_report_columns(k->columns, " ", cols, sizeof(cols)));
	}
}

static void json_bool(yajl_gen g, const char *key, int b)
{
	rl_json_str(g, key);
	yajl_gen_bool(g, b);
}

static int write_json(FILE *out)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	size_t c, j;
	int i;

	if (g == NULL)
		return RL_ERR_NOMEM;
	yajl_gen_map_open(g);
	rl_json_str(g, "kinds");
	yajl_gen_array_open(g);
	for (i = 0; i < RL_KIND_FUSED; i++) {
		const struct rl_kind_info *k = rl_kind_info((enum rl_kind)i);

		yajl_gen_map_open(g);
		rl_json_kv(g, "kind", k->name);
		rl_json_ku(g, "min_dims", (uint64_t)k->min_dims);
		rl_json_ku(g, "max_dims", (uint64_t)k->max_dims);
		rl_json_kv(g, "shape_form", k->shape_form);
		if (k->columns & RL_KCOL_FPE) {
			rl_json_kn(g, "flops_per_element", k->default_fpe);
		} else {
			rl_json_str(g, "flops_per_element");
			yajl_gen_null(g);
		}
		rl_json_kv(g, "pipe", pipe_name(k));
		json_bool(g, "weights", k->weights == RL_WEIGHTS_MATRIX);
		json_bool(g, "kv_cache", k->weights == RL_WEIGHTS_KV);
		json_bool(g, "fusable", (k->flags & RL_KF_FUSABLE) != 0);
		json_bool(g, "collective", (k->flags & RL_KF_COLLECTIVE) != 0);
		rl_json_str(g, "columns");
		yajl_gen_array_open(g);
		for (c = 0; c < RL_KCOL_BITS; c++)
			if (k->columns & (1u << c))
				for (j = 0; rl_kind_column_names(1u << c)[j] != NULL; j++)
					rl_json_str(g, rl_kind_column_names(1u << c)[j]);
		yajl_gen_array_close(g);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
	rl_json_flush(g, out);
	fputc('\n', out);
	yajl_gen_free(g);
	return 0;
}

int rl_kind_report_write(FILE *out, enum rl_format fmt)
{
	switch (fmt) {
	case RL_FMT_TABLE:
		write_table(out);
		return 0;
	case RL_FMT_CSV:
		write_csv(out);
		return 0;
	case RL_FMT_JSON:
		return write_json(out);
	case RL_FMT_MD:
	case RL_FMT_HTML:
		return RL_ERR_ARG;
	}
	return RL_ERR_ARG;
}
