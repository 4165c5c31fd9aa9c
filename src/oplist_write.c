/* oplist_write.c - writing op list v1 (see oplist_write.h): the cells of a
 * record, each formatted in one place, and the lines they make. */
#include "config.h"

#include "oplist_write.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"

static const char *const opcol_names[RL_OPCOL_N] = {
	[RL_OPCOL_NAME] = "name",
	[RL_OPCOL_KIND] = "kind",
	[RL_OPCOL_DTYPE] = "dtype",
	[RL_OPCOL_SHAPE] = "shape",
	[RL_OPCOL_KERNEL] = "kernel",
	[RL_OPCOL_STRIDE] = "stride",
	[RL_OPCOL_PADDING] = "padding",
	[RL_OPCOL_GROUPS] = "groups",
	[RL_OPCOL_CAUSAL] = "causal",
	[RL_OPCOL_INPUTS] = "inputs",
	[RL_OPCOL_FPE] = "flops_per_element",
	[RL_OPCOL_FLOPS] = "flops",
	[RL_OPCOL_BYTES] = "bytes",
	[RL_OPCOL_FMA] = "fma",
	[RL_OPCOL_LAUNCHES] = "launches",
	[RL_OPCOL_MEASURED] = "measured_us",
	[RL_OPCOL_HOST] = "host_us",
	[RL_OPCOL_HOST_COST] = "host_overhead_us",
	[RL_OPCOL_KV_HEADS] = "kv_heads",
	[RL_OPCOL_WEIGHT_DTYPE] = "weight_dtype",
	[RL_OPCOL_KV_DTYPE] = "kv_dtype",
	[RL_OPCOL_COUNT] = "count",
	[RL_OPCOL_WEIGHT_COUNT] = "weight_count",
	[RL_OPCOL_RANKS] = "ranks",
	[RL_OPCOL_NODES] = "nodes",
	[RL_OPCOL_PHASE] = "phase",
	[RL_OPCOL_GROUPED] = "grouped",
	[RL_OPCOL_LAYOUT] = "layout",
	[RL_OPCOL_LIVE_BYTES] = "live_bytes",
	[RL_OPCOL_STRIDED] = "strided",
	[RL_OPCOL_VECTOR_BYTES] = "vector_bytes",
	[RL_OPCOL_WEIGHT_GROUP] = "weight_group",
	[RL_OPCOL_PARAMS] = "params",
	[RL_OPCOL_WINDOW] = "window",
	[RL_OPCOL_V_HEAD_DIM] = "v_head_dim",
	[RL_OPCOL_KV_SHARED] = "kv_shared",
	[RL_OPCOL_KV_CACHED] = "kv_cached",
	[RL_OPCOL_FRESH] = "fresh",
	[RL_OPCOL_OVERLAP] = "overlap",
};

const char *rl_opcol_name(enum rl_opcol c)
{
	return (unsigned)c < RL_OPCOL_N ? opcol_names[c] : "";
}

void rl_oprow_init(struct rl_oprow *r)
{
	size_t i;

	for (i = 0; i < RL_OPCOL_N; i++)
		r->cell[i] = "";
}

void rl_oprow_text(struct rl_oprow *r, enum rl_opcol c, const char *s)
{
	r->cell[c] = s != NULL ? s : "";
}

static void slot_printf(struct rl_oprow *r, enum rl_opcol c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void slot_printf(struct rl_oprow *r, enum rl_opcol c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->slot[c], RL_OPCELL_MAX, fmt, ap);
	va_end(ap);
	r->cell[c] = r->slot[c];
}

void rl_oprow_u64(struct rl_oprow *r, enum rl_opcol c, uint64_t v)
{
	slot_printf(r, c, "%" PRIu64, v);
}

void rl_oprow_dims(struct rl_oprow *r, enum rl_opcol c, const uint64_t *d, int n)
{
	size_t at = 0;
	int i;

	r->slot[c][0] = '\0';
	for (i = 0; i < n && i < RL_MAX_DIMS; i++)
		at += (size_t)snprintf(r->slot[c] + at, RL_OPCELL_MAX - at, "%s%" PRIu64,
		                       i ? "x" : "", d[i]);
	r->cell[c] = r->slot[c];
}

void rl_oprow_exact(struct rl_oprow *r, enum rl_opcol c, double v)
{
	if (v == (double)(int64_t)v && v < 9007199254740992.0)
		slot_printf(r, c, "%" PRId64, (int64_t)v);
	else
		slot_printf(r, c, "%.17g", v);
}

void rl_oprow_g(struct rl_oprow *r, enum rl_opcol c, double v)
{
	slot_printf(r, c, "%g", v);
}

void rl_oprow_sig(struct rl_oprow *r, enum rl_opcol c, double v, int sig)
{
	slot_printf(r, c, "%.*g", sig, v);
}

void rl_oprow_fixed(struct rl_oprow *r, enum rl_opcol c, double v, int decimals)
{
	slot_printf(r, c, "%.*f", decimals, v);
}

void rl_oprow_from_op(struct rl_oprow *r, const struct rl_op *op)
{
	rl_oprow_init(r);
	rl_oprow_text(r, RL_OPCOL_NAME, op->name);
	rl_oprow_text(r, RL_OPCOL_KIND, rl_kind_name(op->kind));
	rl_oprow_text(r, RL_OPCOL_DTYPE, rl_dtype_name(op->dtype));
	if (op->has & RL_HAS_SHAPE)
		rl_oprow_dims(r, RL_OPCOL_SHAPE, op->dims, op->ndims);
	/* the columns of one kind only (the reader refuses them on others):
	 * the kind's row of the registry (kind.h) says which */
	if (rl_kind_info(op->kind)->columns & RL_KCOL_CONV2D) {
		rl_oprow_dims(r, RL_OPCOL_KERNEL, op->kernel, 3);
		rl_oprow_u64(r, RL_OPCOL_STRIDE, op->stride);
		rl_oprow_u64(r, RL_OPCOL_PADDING, op->padding);
		rl_oprow_u64(r, RL_OPCOL_GROUPS, op->groups);
	}
	if (rl_kind_info(op->kind)->columns & RL_KCOL_ATTENTION) {
		rl_oprow_text(r, RL_OPCOL_CAUSAL, op->causal ? "1" : "0");
		if (op->kv_heads > 0)
			rl_oprow_u64(r, RL_OPCOL_KV_HEADS, op->kv_heads);
		if (op->window > 0)
			rl_oprow_u64(r, RL_OPCOL_WINDOW, op->window);
		if (op->v_head_dim > 0)
			rl_oprow_u64(r, RL_OPCOL_V_HEAD_DIM, op->v_head_dim);
		if (op->kv_shared)
			rl_oprow_text(r, RL_OPCOL_KV_SHARED, "1");
		if (op->kv_rebuilt)
			rl_oprow_text(r, RL_OPCOL_KV_CACHED, "0");
	}
	if (rl_kind_info(op->kind)->columns & RL_KCOL_INPUTS)
		rl_oprow_u64(r, RL_OPCOL_INPUTS, op->inputs);
	if (op->has & RL_HAS_FPE)
		rl_oprow_g(r, RL_OPCOL_FPE, op->flops_per_element);
	if (op->has & RL_HAS_FLOPS)
		rl_oprow_exact(r, RL_OPCOL_FLOPS, op->flops);
	if (op->has & RL_HAS_BYTES)
		rl_oprow_exact(r, RL_OPCOL_BYTES, op->bytes);
	if (op->has & RL_HAS_FMA)
		rl_oprow_text(r, RL_OPCOL_FMA, op->fma ? "1" : "0");
	rl_oprow_u64(r, RL_OPCOL_LAUNCHES, op->launches);
	if (op->has & RL_HAS_MEASURED)
		rl_oprow_fixed(r, RL_OPCOL_MEASURED, op->measured_us, 3);
	if (op->has & RL_HAS_HOST)
		rl_oprow_fixed(r, RL_OPCOL_HOST, op->host_us, 3);
	if (op->has & RL_HAS_HOST_COST)
		rl_oprow_g(r, RL_OPCOL_HOST_COST, op->host_overhead_us);
	if (op->has & RL_HAS_WEIGHT_DTYPE)
		rl_oprow_text(r, RL_OPCOL_WEIGHT_DTYPE, rl_dtype_name(op->weight_dtype));
	if (op->has & RL_HAS_KV_DTYPE)
		rl_oprow_text(r, RL_OPCOL_KV_DTYPE, rl_dtype_name(op->kv_dtype));
	rl_oprow_u64(r, RL_OPCOL_COUNT, op->count);
	if (op->fresh)
		rl_oprow_u64(r, RL_OPCOL_FRESH, op->fresh);
	if (op->has & RL_HAS_RANKS) {
		rl_oprow_u64(r, RL_OPCOL_RANKS, op->ranks);
		rl_oprow_u64(r, RL_OPCOL_NODES, op->nodes);
	}
	if (op->overlap)
		rl_oprow_text(r, RL_OPCOL_OVERLAP, "1");
	rl_oprow_text(r, RL_OPCOL_PHASE, rl_phase_name(op->phase));
	if (op->grouped)
		rl_oprow_text(r, RL_OPCOL_GROUPED, "1");
	if (op->linear)
		rl_oprow_text(r, RL_OPCOL_LAYOUT, "linear");
	if (op->live_bytes > 0)
		rl_oprow_g(r, RL_OPCOL_LIVE_BYTES, op->live_bytes);
	if (op->strided)
		rl_oprow_u64(r, RL_OPCOL_STRIDED, (uint64_t)op->strided);
	if (op->vector_bytes)
		rl_oprow_u64(r, RL_OPCOL_VECTOR_BYTES, op->vector_bytes);
	if (op->weight_group)
		rl_oprow_u64(r, RL_OPCOL_WEIGHT_GROUP, op->weight_group);
	if (op->params)
		rl_oprow_u64(r, RL_OPCOL_PARAMS, op->params);
}

void rl_oplist_write_comment(FILE *f, const char *fmt, ...)
{
	char small[512], *line = small;
	va_list ap;
	int n;
	char *s;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		char *big = malloc((size_t)n + 1);

		if (big != NULL) { /* else the comment is cut: it is only a comment */
			va_start(ap, fmt);
			vsnprintf(big, (size_t)n + 1, fmt, ap);
			va_end(ap);
			line = big;
		}
	}
	for (s = line; *s; s++)
		if (*s == '\n' || *s == '\r')
			*s = '?';
	fprintf(f, "# %s\n", line);
	if (line != small)
		free(line);
}

void rl_oplist_write_header(FILE *f, const enum rl_opcol *cols, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? "," : "", rl_opcol_name(cols[i]));
	fputc('\n', f);
}

/* A cell as the reader takes it back: quoted when it holds a separator or
 * a quote, or when the reader would see a comment line ('#') or libcsv
 * trim a space at either end. */
static void write_cell(FILE *f, const char *s)
{
	size_t n = strlen(s);

	if (strpbrk(s, ",\"\r\n") == NULL && s[0] != ' ' && s[0] != '\t' && s[0] != '#' &&
	    (n == 0 || (s[n - 1] != ' ' && s[n - 1] != '\t'))) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void rl_oplist_write_row(FILE *f, const enum rl_opcol *cols, size_t n, const struct rl_oprow *r)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		write_cell(f, r->cell[cols[i]]);
	}
	fputc('\n', f);
}

void rl_oprow_cells(const struct rl_oprow *r, const enum rl_opcol *cols, size_t n,
                    const char **cells)
{
	size_t i;

	for (i = 0; i < n; i++)
		cells[i] = r->cell[cols[i]];
}
