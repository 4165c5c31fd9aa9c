/* oplist.c - reading op list v1 with libcsv (see oplist.h).
 *
 * libcsv handles RFC 4180 quoting but knows nothing of lines, comments or the
 * BOM, and reports errors only as byte offsets. So the input is cut into
 * physical lines here: each line is checked (length, NUL bytes), comment and
 * blank lines are dropped while outside a quoted field, and the rest is fed to
 * libcsv one line at a time, which tells the record callback which line it
 * is on. Quote parity is tracked to know whether a line starts a record.
 */
#include "config.h"

#include "oplist.h"

#include <csv.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "family.h"
#include "formulas.h"
#include "impl.h"
#include "num.h"
#include "symbols.h"

/* A line longer than this is not an op list (and would make us buffer it). */
#define MAX_LINE (1u << 20)

enum col {
	COL_NAME, COL_KIND, COL_DTYPE, COL_SHAPE, COL_KERNEL, COL_STRIDE,
	COL_PADDING, COL_GROUPS, COL_CAUSAL, COL_INPUTS, COL_FPE, COL_FLOPS,
	COL_BYTES, COL_UNIT, COL_LAUNCHES, COL_COUNT, COL_MEASURED, COL_FMA,
	COL_FUSE,
	COL_HOST,
	COL_KV_HEADS,
	COL_WEIGHT_DTYPE,
	COL_KV_DTYPE,
	COL_WEIGHT_GROUP,
	COL_WEIGHT_COUNT,
	COL_PHASE,
	COL_TRAINABLE,
	COL_RANKS,
	COL_NODES,
	COL_OVERLAP,
	COL_PERM,
	COL_GROUPED,
	COL_LAYOUT,
	COL_LIVE_BYTES,
	COL_HOST_COST,
	COL_STRIDED,
	COL_VECTOR_BYTES,
	COL_PARAMS,
	COL_WINDOW,
	COL_V_HEAD_DIM,
	COL_KV_SHARED,
	COL_KV_CACHED,
	COL_MASK,
	COL_MASK_SHAPE,
	COL_FRESH,
	COL_COMPONENT,
	COL_MODEL_TYPE,
	COL_KNOWN,
	COL_EXTRA = COL_KNOWN /* any other column */
};

static const char *const col_names[COL_KNOWN] = {
	"name", "kind", "dtype", "shape", "kernel", "stride", "padding", "groups",
	"causal", "inputs", "flops_per_element", "flops", "bytes", "unit",
	"launches", "count", "measured_us", "fma", "fuse", "host_us",
	"kv_heads", "weight_dtype", "kv_dtype", "weight_group", "weight_count",
	"phase", "trainable",
	"ranks", "nodes", "overlap", "perm", "grouped", "layout", "live_bytes", "host_overhead_us",
	"strided", "vector_bytes", "params", "window", "v_head_dim", "kv_shared",
	"kv_cached", "mask", "mask_shape", "fresh", "component", "model_type",
};

struct reader {
	const char *name;
	const struct rl_ops_sink *sink;
	struct rl_errlist *errs;
	int stop;           /* a sink failed or a fatal error: feed nothing more */
	int sink_rc;
	size_t lineno;      /* current physical line */
	size_t rec_line;    /* line where the current record started */
	size_t rec_bytes;   /* of the current record, over its lines */

	/* current record: fields packed into buf, NUL-separated */
	char *buf;
	size_t len, cap;
	size_t *off;
	size_t nfields, offcap;
	int field_oom;

	/* header */
	int have_header;
	size_t ncols;
	enum col *col;         /* per column: what it is */
	size_t *extra_index;   /* per extra column: its column number */
	char **extra_names;
	size_t nextra;
	const char **extra_vals;
	struct rl_ops_header hdr; /* handed to the sink; lives as long as the reader */
	uint32_t names_used; /* bit per --set name: a shape or count used it */
};

static void add_error(struct reader *r, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add_error(struct reader *r, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	/* A full list keeps counting, so the caller can say how many more. */
	rl_errlist_vaddf(r->errs, code, fmt, ap);
	va_end(ap);
}

/* libcsv's end-of-field callback: copy the field (only valid during the call). */
static void on_field(void *data, size_t n, void *user)
{
	struct reader *r = user;

	if (r->field_oom)
		return;
	if (r->nfields == r->offcap) {
		size_t cap = r->offcap ? 2 * r->offcap : 32;
		size_t *grown = realloc(r->off, cap * sizeof(*grown));

		if (grown == NULL) {
			r->field_oom = 1;
			return;
		}
		r->off = grown;
		r->offcap = cap;
	}
	if (r->len + n + 1 > r->cap) {
		size_t cap = r->cap ? r->cap : 256;
		char *grown;

		while (cap < r->len + n + 1)
			cap *= 2;
		grown = realloc(r->buf, cap);
		if (grown == NULL) {
			r->field_oom = 1;
			return;
		}
		r->buf = grown;
		r->cap = cap;
	}
	r->off[r->nfields++] = r->len;
	if (n > 0)
		memcpy(r->buf + r->len, data, n);
	r->buf[r->len + n] = '\0';
	r->len += n + 1;
}

static const char *field(const struct reader *r, size_t i)
{
	return r->buf + r->off[i];
}

/* Strict UTF-8 check: no overlongs, no surrogates, nothing above U+10FFFF. */
static int valid_utf8(const unsigned char *s)
{
	while (*s) {
		unsigned c = *s;
		int n;
		unsigned cp, min;

		if (c < 0x80) {
			s++;
			continue;
		}
		if ((c & 0xE0) == 0xC0) n = 1, cp = c & 0x1F, min = 0x80;
		else if ((c & 0xF0) == 0xE0) n = 2, cp = c & 0x0F, min = 0x800;
		else if ((c & 0xF8) == 0xF0) n = 3, cp = c & 0x07, min = 0x10000;
		else return 0;
		s++;
		while (n-- > 0) {
			if ((*s & 0xC0) != 0x80)
				return 0;
			cp = (cp << 6) | (*s++ & 0x3F);
		}
		if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return 0;
	}
	return 1;
}

struct named_column {
	const char *name;
	size_t i;
};

/* Orders columns by name (case-insensitive), then by number. */
static int cmp_column(const void *a, const void *b)
{
	const struct named_column *x = a, *y = b;
	int c = strcasecmp(x->name, y->name);

	return c != 0 ? c : (x->i > y->i) - (x->i < y->i);
}

/* Finds the first column (in file order) whose name an earlier column has:
 * sorting the columns by name puts equal names side by side, so this takes
 * O(n log n), not the O(n^2) of comparing every pair (100,000 columns took
 * 21 s). Returns 1 with the pair in *FIRST and *SECOND, 0 when every name is
 * unique, RL_ERR_NOMEM when out of memory. */
static int find_duplicate(const struct reader *r, size_t *first, size_t *second)
{
	struct named_column *c = malloc(r->ncols * sizeof(*c));
	size_t k;
	int found = 0;

	if (c == NULL)
		return RL_ERR_NOMEM;
	for (k = 0; k < r->ncols; k++) {
		c[k].name = field(r, k);
		c[k].i = k;
	}
	qsort(c, r->ncols, sizeof(*c), cmp_column);
	for (k = 1; k < r->ncols; k++) {
		/* only the first two of a run of equal names */
		if (strcasecmp(c[k - 1].name, c[k].name) != 0 ||
		    (k >= 2 && strcasecmp(c[k - 2].name, c[k].name) == 0))
			continue;
		if (!found || c[k].i < *second) {
			*first = c[k - 1].i;
			*second = c[k].i;
			found = 1;
		}
	}
	free(c);
	return found;
}

static int do_header(struct reader *r)
{
	struct rl_ops_header *h = &r->hdr;
	size_t i, j, dup1 = 0, dup2 = 0;
	int have_name = 0, have_measured = 0, have_host = 0, have_phase = 0, dup;

	r->ncols = r->nfields;
	r->col = calloc(r->ncols, sizeof(*r->col));
	r->extra_index = calloc(r->ncols, sizeof(*r->extra_index));
	r->extra_names = calloc(r->ncols, sizeof(*r->extra_names));
	r->extra_vals = calloc(r->ncols, sizeof(*r->extra_vals));
	if (!r->col || !r->extra_index || !r->extra_names || !r->extra_vals)
		return RL_ERR_NOMEM;
	for (i = 0; i < r->ncols; i++) {
		const char *name = field(r, i);

		if (!valid_utf8((const unsigned char *)name)) {
			add_error(r, RL_ERR_PARSE, "%s:%zu: header: column %zu: invalid UTF-8",
			          r->name, r->rec_line, i + 1);
			return RL_ERR_PARSE;
		}
		if (*name == '\0') {
			add_error(r, RL_ERR_PARSE, "%s:%zu: header: column %zu has no name",
			          r->name, r->rec_line, i + 1);
			return RL_ERR_PARSE;
		}
	}
	dup = find_duplicate(r, &dup1, &dup2);
	if (dup < 0)
		return RL_ERR_NOMEM;
	if (dup > 0) {
		add_error(r, RL_ERR_PARSE, "%s:%zu: header: duplicate column '%s' (columns %zu and %zu)",
		          r->name, r->rec_line, field(r, dup2), dup1 + 1, dup2 + 1);
		return RL_ERR_PARSE;
	}
	for (i = 0; i < r->ncols; i++) {
		const char *name = field(r, i);

		r->col[i] = COL_EXTRA;
		for (j = 0; j < COL_KNOWN; j++)
			if (strcasecmp(name, col_names[j]) == 0)
				r->col[i] = (enum col)j;
		if (r->col[i] == COL_NAME)
			have_name = 1;
		if (r->col[i] == COL_MEASURED)
			have_measured = 1;
		if (r->col[i] == COL_HOST)
			have_host = 1;
		if (r->col[i] == COL_PHASE)
			have_phase = 1;
		if (r->col[i] == COL_EXTRA) {
			r->extra_names[r->nextra] = strdup(name);
			if (r->extra_names[r->nextra] == NULL)
				return RL_ERR_NOMEM;
			r->extra_index[r->nextra++] = i;
		}
	}
	if (!have_name) {
		add_error(r, RL_ERR_PARSE,
		          "%s:%zu: header: no 'name' column (the first non-comment line must be "
		          "the header, e.g. name,kind,dtype,shape)",
		          r->name, r->rec_line);
		return RL_ERR_PARSE;
	}
	r->have_header = 1;
	h->name = r->name;
	h->nextra = r->nextra;
	h->extra_names = (const char *const *)r->extra_names;
	h->has_measured = have_measured;
	h->has_host = have_host;
	h->has_phase = have_phase;
	return r->sink->header ? r->sink->header(h, r->sink->user) : 0;
}

/* Upper bounds on cells, so that no total can overflow to inf or lose
 * exactness (docs/oplist-format.md, "Ranges"). Counts and launches are
 * summed in double precision, exact up to 2^53. */
#define MAX_TIMES (1ull << 53)
#define MAX_TIMES_WHY "2^53, where double precision stops counting exactly"
/* A pointwise kernel's inputs are pointers in its parameter block (at most
 * 32 KiB): a few thousand at most. */
#define MAX_INPUTS 65536
/* FLOPs or bytes of one op: 1e30 is 10,000 times the largest training runs. */
#define MAX_WORK 1e30
#define MAX_FPE 1e6
/* Times in us: 1 ns is below any kernel; 1e12 us is 11 days. */
#define MIN_MEASURED_US 1e-3
#define MAX_MEASURED_US 1e12
/* GPUs in a collective: 2^24 is a hundred times the largest clusters. */
#define MAX_RANKS (1ull << 24)
#define MAX_RANKS_WHY "2^24 GPUs, a hundred times the largest clusters"
/* vector_bytes: a thread's bytes per access (docs/oplist-format.md) */
#define MAX_VECTOR_BYTES 1024
#define MAX_VECTOR_BYTES_WHY "a thread's bytes per access of an operand"

/* strided: offset calculations per element (docs/oplist-format.md) */
#define MAX_STRIDED 2
#define MAX_STRIDED_WHY "1: PyTorch's elementwise loop, 2: a cat of strided inputs"
/* Host time per op: at most one second, as a runtime's host_overhead_us. */
#define MAX_HOST_US 1e6

/* Parses an integer cell into *OUT, at least MIN and at most MAX (WHY says
 * why, or NULL). The cell helpers return 0, or the status (RL_ERR_PARSE,
 * RL_ERR_RANGE) of the error they recorded. */
static int cell_u64(struct reader *r, const char *col, const char *s, uint64_t min,
                    uint64_t max, const char *why, uint64_t *out)
{
	struct rl_err e;

	if (rl_parse_u64(s, out, &e) < 0) {
		add_error(r, RL_ERR_PARSE, "%s:%zu: column '%s': %s (expected an integer)",
		          r->name, r->rec_line, col, e.msg);
		return RL_ERR_PARSE;
	}
	if (*out < min) {
		add_error(r, RL_ERR_PARSE, "%s:%zu: column '%s': %s is below the minimum %llu",
		          r->name, r->rec_line, col, s, (unsigned long long)min);
		return RL_ERR_PARSE;
	}
	if (*out > max) {
		add_error(r, RL_ERR_RANGE, "%s:%zu: column '%s': %s is above the maximum %llu%s%s%s",
		          r->name, r->rec_line, col, s, (unsigned long long)max, why ? " (" : "",
		          why ? why : "", why ? ")" : "");
		return RL_ERR_RANGE;
	}
	return 0;
}

/* count: an integer, or an expression over --set names (L, 2*L) with the
 * same bounds. */
static int cell_count(struct reader *r, const char *col, const char *s, uint64_t *out)
{
	struct rl_err e;
	uint32_t used = 0;
	int rc;

	if (s[strspn(s, "0123456789")] == '\0')
		return cell_u64(r, col, s, 1, MAX_TIMES, MAX_TIMES_WHY, out);
	rc = rl_symbols_eval(r->sink->names, s, "count", out, &used, &e);
	if (rc < 0 && strpbrk(s, "+-*/()") == NULL) { /* one word: not a number first */
		add_error(r, rc, "%s:%zu: column '%s': '%s' is not a non-negative integer, nor an "
		          "expression: %s", r->name, r->rec_line, col, s, e.msg);
		return rc;
	}
	if (rc < 0) {
		add_error(r, rc, "%s:%zu: column '%s': %s", r->name, r->rec_line, col, e.msg);
		return rc;
	}
	r->names_used |= used;
	if (*out < 1) {
		add_error(r, RL_ERR_PARSE, "%s:%zu: column '%s': %s = %llu is below the minimum 1",
		          r->name, r->rec_line, col, s, (unsigned long long)*out);
		return RL_ERR_PARSE;
	}
	if (*out > MAX_TIMES) {
		add_error(r, RL_ERR_RANGE, "%s:%zu: column '%s': %s = %llu is above the maximum %llu (%s)",
		          r->name, r->rec_line, col, s, (unsigned long long)*out,
		          (unsigned long long)MAX_TIMES, MAX_TIMES_WHY);
		return RL_ERR_RANGE;
	}
	return 0;
}

static int cell_bool(struct reader *r, const char *col, const char *s, int *out)
{
	if (strcmp(s, "0") == 0 || strcmp(s, "1") == 0) {
		*out = s[0] == '1';
		return 0;
	}
	add_error(r, RL_ERR_PARSE, "%s:%zu: column '%s': '%s' is not 0 or 1", r->name,
	          r->rec_line, col, s);
	return RL_ERR_PARSE;
}

/* Whether LIST, items joined by SEP, has an empty item (none at all, SEP
 * first, last or twice). */
static int empty_item(const char *list, char sep)
{
	char two[3] = {sep, sep, '\0'};
	size_t n = strlen(list);

	return n == 0 || list[0] == sep || list[n - 1] == sep || strstr(list, two) != NULL;
}

/* The component cell S, "NAME[+NAME...][:FACT[,FACT...]]": the block
 * components the row stands for, in the order they run, and the facts
 * (impl.h's conditions) it adds to the step's, into OP. */
static int cell_component(struct reader *r, const char *s, struct rl_op *op)
{
	char buf[256], *facts, *save = NULL, *t;
	int n = 0;

	if (strlen(s) >= sizeof(buf)) {
		add_error(r, RL_ERR_PARSE, "%s:%zu: column 'component': longer than %zu bytes",
		          r->name, r->rec_line, sizeof(buf) - 1);
		return RL_ERR_PARSE;
	}
	memcpy(buf, s, strlen(s) + 1);
	facts = strchr(buf, ':');
	if (facts != NULL)
		*facts++ = '\0';
	if (empty_item(buf, '+')) {
		add_error(r, RL_ERR_PARSE,
		          "%s:%zu: column 'component': '%s' is not a list of components joined by '+' "
		          "(expected %s)",
		          r->name, r->rec_line, s, rl_impl_comp_expected());
		return RL_ERR_PARSE;
	}
	for (t = strtok_r(buf, "+", &save); t != NULL; t = strtok_r(NULL, "+", &save)) {
		enum rl_impl_comp c;

		if (rl_impl_comp_parse(t, &c) < 0) {
			add_error(r, RL_ERR_PARSE,
			          "%s:%zu: column 'component': unknown component '%s' (expected %s)",
			          r->name, r->rec_line, t, rl_impl_comp_expected());
			return RL_ERR_PARSE;
		}
		if (n == RL_OP_MAX_COMPS) {
			add_error(r, RL_ERR_PARSE,
			          "%s:%zu: column 'component': more than %d components in '%s'",
			          r->name, r->rec_line, RL_OP_MAX_COMPS, s);
			return RL_ERR_PARSE;
		}
		op->comps[n++] = (unsigned char)(c + 1);
	}
	if (facts == NULL)
		return 0;
	if (empty_item(facts, ',')) {
		add_error(r, RL_ERR_PARSE,
		          "%s:%zu: column 'component': '%s' has an empty fact after ':' (expected "
		          "conditions joined by ',': %s)",
		          r->name, r->rec_line, s, rl_impl_if_expected());
		return RL_ERR_PARSE;
	}
	save = NULL;
	for (t = strtok_r(facts, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save)) {
		unsigned bit = rl_impl_if_parse(t);

		if (bit == 0) {
			add_error(r, RL_ERR_PARSE,
			          "%s:%zu: column 'component': unknown fact '%s' (expected %s)",
			          r->name, r->rec_line, t, rl_impl_if_expected());
			return RL_ERR_PARSE;
		}
		op->comp_facts |= bit;
	}
	return 0;
}

/* Parses a number cell into *OUT, at most MAX. */
static int cell_number(struct reader *r, const char *col, const char *s, double max,
                       double *out)
{
	struct rl_err e;

	if (rl_parse_nonneg(s, out, &e) < 0) {
		add_error(r, RL_ERR_PARSE,
		          "%s:%zu: column '%s': %s (expected a finite number >= 0)", r->name,
		          r->rec_line, col, e.msg);
		return RL_ERR_PARSE;
	}
	if (*out > max) {
		add_error(r, RL_ERR_RANGE, "%s:%zu: column '%s': %s is above the maximum %g",
		          r->name, r->rec_line, col, s, max);
		return RL_ERR_RANGE;
	}
	return 0;
}

/* Columns that only some kinds use (their RL_KCOL_* bit in the kind's
 * row, kind.h): a value on another kind is an error, since it would
 * otherwise be silently ignored. */
static int check_kind_columns(struct reader *r, enum rl_kind k, uint64_t given)
{
	static const struct {
		enum col col;
		unsigned kcol; /* RL_KCOL_* */
		const char *which;
	} rules[] = {
		{COL_KERNEL, RL_KCOL_CONV2D, "conv2d"},
		{COL_STRIDE, RL_KCOL_CONV2D, "conv2d"},
		{COL_PADDING, RL_KCOL_CONV2D, "conv2d"},
		{COL_GROUPS, RL_KCOL_CONV2D, "conv2d"},
		{COL_CAUSAL, RL_KCOL_ATTENTION, "attention"},
		{COL_KV_HEADS, RL_KCOL_ATTENTION, "attention"},
		{COL_KV_DTYPE, RL_KCOL_KV, "attention and copy"},
		{COL_WINDOW, RL_KCOL_ATTENTION, "attention"},
		{COL_V_HEAD_DIM, RL_KCOL_ATTENTION, "attention"},
		{COL_KV_SHARED, RL_KCOL_ATTENTION, "attention"},
		{COL_KV_CACHED, RL_KCOL_ATTENTION, "attention"},
		{COL_MASK, RL_KCOL_ATTENTION, "attention"},
		{COL_MASK_SHAPE, RL_KCOL_ATTENTION, "attention"},
		{COL_WEIGHT_DTYPE, RL_KCOL_WEIGHTS, "matmul and conv2d"},
		{COL_WEIGHT_GROUP, RL_KCOL_WEIGHTS, "matmul and conv2d"},
		{COL_WEIGHT_COUNT, RL_KCOL_WEIGHTS, "matmul and conv2d"},
		{COL_TRAINABLE, RL_KCOL_WEIGHTS, "matmul and conv2d"},
		{COL_INPUTS, RL_KCOL_INPUTS, "pointwise"},
		{COL_PERM, RL_KCOL_PERM, "copy"},
		{COL_GROUPED, RL_KCOL_GROUPED, "matmul"},
		{COL_LAYOUT, RL_KCOL_GROUPED, "matmul"},
		{COL_STRIDED, RL_KCOL_STRIDED, "pointwise and copy"},
		{COL_VECTOR_BYTES, RL_KCOL_VECTOR, "pointwise"},
		{COL_PARAMS, RL_KCOL_PARAMS, "non-collective"},
		{COL_RANKS, RL_KCOL_COLLECTIVE, "collective"},
		{COL_NODES, RL_KCOL_COLLECTIVE, "collective"},
		{COL_OVERLAP, RL_KCOL_COLLECTIVE, "collective"},
		{COL_FPE, RL_KCOL_FPE, "pointwise, reduction, softmax and layernorm"},
	};
	unsigned cols = rl_kind_info(k)->columns;
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if ((given & ((uint64_t)1 << rules[i].col)) && !(cols & rules[i].kcol)) {
			add_error(r, RL_ERR_PARSE, "%s:%zu: column '%s': only %s ops take it, not %s",
			          r->name, r->rec_line, col_names[rules[i].col], rules[i].which,
			          rl_kind_name(k));
			return RL_ERR_PARSE;
		}
	}
	return 0;
}

/* The 'perm' cell S of OP (after its shape): the input's dims in the
 * output's order, joined by 'x' (x.permute(0, 2, 1, 3) is 0x2x1x3), each of
 * 0 to ndims - 1 once. */
static int parse_perm(struct reader *r, const char *s, struct rl_op *op)
{
	unsigned seen = 0;
	const char *c = s;
	int n = 0, i;

	for (;;) {
		if (*c < '0' || *c > '9' || (c[1] >= '0' && c[1] <= '9') || n == RL_MAX_DIMS)
			break;
		op->perm[n++] = (unsigned char)(*c - '0');
		c++;
		if (*c == '\0') {
			c = NULL;
			break;
		}
		if (*c++ != 'x')
			break;
	}
	if (c != NULL) {
		add_error(r, RL_ERR_PARSE,
		          "%s:%zu: column 'perm': '%s' is not a permutation of dims (expected the "
		          "input's dims in the output's order, e.g. 0x2x1x3)",
		          r->name, r->rec_line, s);
		return RL_ERR_PARSE;
	}
	if (!(op->has & RL_HAS_SHAPE) || n != op->ndims) {
		add_error(r, RL_ERR_PARSE, "%s:%zu: column 'perm': '%s' has %d dims, the shape %d",
		          r->name, r->rec_line, s, n, op->ndims);
		return RL_ERR_PARSE;
	}
	for (i = 0; i < n; i++) {
		if (op->perm[i] >= n || (seen & (1u << op->perm[i]))) {
			add_error(r, RL_ERR_PARSE,
			          "%s:%zu: column 'perm': '%s' is not a permutation of 0 to %d",
			          r->name, r->rec_line, s, n - 1);
			return RL_ERR_PARSE;
		}
		seen |= 1u << op->perm[i];
	}
	op->nperm = n;
	return 0;
}

/* The 'mask_shape' cell S of OP: the attn_mask's dims as the shape's are
 * written (numbers or names, 'x'-joined), 1 to 4 of them, right-aligned to
 * the scores' [B, H, Sq, Sk] as PyTorch broadcasts (Sq x Sk is [1, 1, Sq,
 * Sk]). The sizes are checked against the shape by the formulas
 * (formulas.h); a shape needs a mask. */
static int parse_mask_shape(struct reader *r, const char *s, struct rl_op *op)
{
	uint64_t dims[RL_MAX_DIMS];
	unsigned char sym[RL_MAX_DIMS];
	uint32_t used = 0;
	struct rl_err e;
	int n, i;

	if (op->mask == RL_MASK_NONE) {
		add_error(r, RL_ERR_PARSE,
		          "%s:%zu: column 'mask_shape': needs a mask (float or bool) to be the "
		          "shape of",
		          r->name, r->rec_line);
		return RL_ERR_PARSE;
	}
	if (rl_symbols_dims_used(r->sink->names, s, dims, sym, RL_MAX_DIMS, &n, &used, &e) < 0) {
		add_error(r, RL_ERR_PARSE, "%s:%zu: column 'mask_shape': %s", r->name, r->rec_line,
		          e.msg);
		return RL_ERR_PARSE;
	}
	if (n > 4) {
		add_error(r, RL_ERR_PARSE,
		          "%s:%zu: column 'mask_shape': '%s' has %d dims (at most 4: batch, heads, "
		          "queries, keys)",
		          r->name, r->rec_line, s, n);
		return RL_ERR_PARSE;
	}
	r->names_used |= used;
	for (i = 0; i < 4; i++)
		op->mask_dims[i] = i < 4 - n ? 1 : dims[i - (4 - n)];
	return 0;
}

/* Fills OP from the current record. Returns 0, or the status (RL_ERR_PARSE,
 * RL_ERR_RANGE) of the error it recorded. */
static int do_row(struct reader *r, struct rl_op *op)
{
	const char *kernel = NULL, *perm = NULL, *mask_shape = NULL;
	uint64_t given = 0; /* bit per enum col: a non-empty cell */
	size_t i;
	int rc;

	rl_op_init(op);
	op->line = r->rec_line;
	if (r->nfields != r->ncols) {
		add_error(r, RL_ERR_PARSE, "%s:%zu: %zu field%s, but the header has %zu columns",
		          r->name, r->rec_line, r->nfields, r->nfields == 1 ? "" : "s",
		          r->ncols);
		return RL_ERR_PARSE;
	}
	for (i = 0; i < r->ncols; i++) {
		const char *s = field(r, i);
		const char *cn = r->col[i] == COL_EXTRA ? field(r, i) : col_names[r->col[i]];

		rc = 0;

		/* Text that reaches the output must be UTF-8; other cells are
		 * parsed strictly, which rejects any stray byte. */
		if ((r->col[i] == COL_NAME || r->col[i] == COL_EXTRA || r->col[i] == COL_FUSE) &&
		    !valid_utf8((const unsigned char *)s)) {
			add_error(r, RL_ERR_PARSE, "%s:%zu: column %zu: invalid UTF-8", r->name,
			          r->rec_line, i + 1);
			return RL_ERR_PARSE;
		}
		if (*s == '\0' && r->col[i] != COL_NAME)
			continue; /* empty cell: the default */
		if (r->col[i] != COL_EXTRA)
			given |= (uint64_t)1 << r->col[i];
		switch (r->col[i]) {
		case COL_NAME:
			if (*s == '\0') {
				add_error(r, RL_ERR_PARSE, "%s:%zu: column 'name': empty (every op needs a name)",
				          r->name, r->rec_line);
				return RL_ERR_PARSE;
			}
			op->name = s;
			break;
		case COL_KIND:
			if (rl_kind_parse(s, &op->kind) < 0) {
				add_error(r, RL_ERR_PARSE, "%s:%zu: column 'kind': unknown kind '%s' (expected one of %s)",
				          r->name, r->rec_line, s, rl_kind_expected());
				return RL_ERR_PARSE;
			}
			break;
		case COL_DTYPE:
			if (rl_dtype_parse(s, &op->dtype) < 0) {
				add_error(r, RL_ERR_PARSE, "%s:%zu: column 'dtype': unknown dtype '%s' (expected one of %s)",
				          r->name, r->rec_line, s, rl_dtype_expected());
				return RL_ERR_PARSE;
			}
			if (rl_dtype_storage_only(op->dtype)) {
				add_error(r, RL_ERR_PARSE,
				          "%s:%zu: column 'dtype': %s stores weights and KV caches only (give "
				          "it in weight_dtype or kv_dtype; the op computes in its dtype)",
				          r->name, r->rec_line, rl_dtype_name(op->dtype));
				return RL_ERR_PARSE;
			}
			break;
		case COL_WEIGHT_DTYPE:
		case COL_KV_DTYPE: {
			enum rl_dtype t;

			if (rl_dtype_parse(s, &t) < 0) {
				add_error(r, RL_ERR_PARSE, "%s:%zu: column '%s': unknown dtype '%s' (expected one of %s)",
				          r->name, r->rec_line, cn, s, rl_dtype_expected());
				return RL_ERR_PARSE;
			}
			if (r->col[i] == COL_WEIGHT_DTYPE) {
				op->weight_dtype = t;
				op->has |= RL_HAS_WEIGHT_DTYPE;
			} else {
				op->kv_dtype = t;
				op->has |= RL_HAS_KV_DTYPE;
			}
			break;
		}
		case COL_WEIGHT_GROUP:
			rc = cell_u64(r, cn, s, 1, UINT64_MAX, NULL, &op->weight_group);
			break;
		case COL_UNIT:
			if (strcasecmp(s, "tensor") == 0)
				op->unit = RL_UNIT_TENSOR;
			else if (strcasecmp(s, "vector") == 0)
				op->unit = RL_UNIT_VECTOR;
			else {
				add_error(r, RL_ERR_PARSE, "%s:%zu: column 'unit': unknown unit '%s' (expected tensor or vector)",
				          r->name, r->rec_line, s);
				return RL_ERR_PARSE;
			}
			break;
		case COL_SHAPE: {
			struct rl_err e;
			uint32_t used = 0;

			if (rl_symbols_dims_used(r->sink->names, s, op->dims, op->dim_sym, RL_MAX_DIMS,
			                         &op->ndims, &used, &e) < 0) {
				add_error(r, RL_ERR_PARSE, "%s:%zu: column 'shape': %s", r->name,
				          r->rec_line, e.msg);
				return RL_ERR_PARSE;
			}
			op->has |= RL_HAS_SHAPE;
			r->names_used |= used;
			break;
		}
		case COL_KERNEL:
			kernel = s;
			break;
		case COL_STRIDE: rc = cell_u64(r, cn, s, 1, UINT64_MAX, NULL, &op->stride); break;
		case COL_PADDING: rc = cell_u64(r, cn, s, 0, UINT64_MAX, NULL, &op->padding); break;
		case COL_GROUPS: rc = cell_u64(r, cn, s, 1, UINT64_MAX, NULL, &op->groups); break;
		case COL_INPUTS:
			rc = cell_u64(r, cn, s, 0, MAX_INPUTS,
			              "a kernel's parameters hold a few thousand pointers", &op->inputs);
			break;
		case COL_LAUNCHES:
			rc = cell_u64(r, cn, s, 1, MAX_TIMES, MAX_TIMES_WHY, &op->launches);
			break;
		case COL_COUNT: rc = cell_count(r, cn, s, &op->count); break;
		case COL_FRESH:
			rc = cell_u64(r, cn, s, 0, MAX_TIMES, MAX_TIMES_WHY, &op->fresh);
			break;
		case COL_COMPONENT: rc = cell_component(r, s, op); break;
		case COL_MODEL_TYPE: {
			int f = rl_family_index(s);

			if (f < 0) {
				char names[512];

				rl_family_names(names, sizeof(names), 0, 0);
				add_error(r, RL_ERR_PARSE,
				          "%s:%zu: column 'model_type': unknown model_type '%s' "
				          "(expected %s)",
				          r->name, r->rec_line, s, names);
				return RL_ERR_PARSE;
			}
			op->family = f + 1;
			break;
		}
		case COL_WEIGHT_COUNT:
			/* 0: a matmul of two activations (attention's scores
			 * as a GEMM) holds no weights */
			if (strcmp(s, "0") == 0)
				op->weight_count = 0;
			else
				rc = cell_count(r, cn, s, &op->weight_count);
			op->has |= RL_HAS_WEIGHT_COUNT;
			break;
		case COL_TRAINABLE: {
			int t = 1;

			rc = cell_bool(r, cn, s, &t);
			op->frozen = !t;
			break;
		}
		case COL_PHASE:
			if (rl_phase_parse(s, &op->phase) < 0) {
				add_error(r, RL_ERR_PARSE, "%s:%zu: column 'phase': unknown phase '%s' "
				          "(expected forward, backward or optimizer)",
				          r->name, r->rec_line, s);
				return RL_ERR_PARSE;
			}
			break;
		case COL_RANKS:
			/* 0 and 1 pass here: rl_op_work says why a collective needs 2 */
			rc = cell_u64(r, cn, s, 0, MAX_RANKS, MAX_RANKS_WHY, &op->ranks);
			op->has |= RL_HAS_RANKS;
			break;
		case COL_NODES:
			rc = cell_u64(r, cn, s, 1, MAX_RANKS, MAX_RANKS_WHY, &op->nodes);
			op->has |= RL_HAS_NODES;
			break;
		case COL_OVERLAP: rc = cell_bool(r, cn, s, &op->overlap); break;
		case COL_PERM: perm = s; break;
		case COL_GROUPED: rc = cell_bool(r, cn, s, &op->grouped); break;
		case COL_LAYOUT:
			if (strcmp(s, "linear") == 0 || strcmp(s, "mm") == 0)
				op->linear = s[0] == 'l';
			else {
				add_error(r, RL_ERR_PARSE,
				          "%s:%zu: column 'layout': '%s' is not linear (B as "
				          "nn.Linear's [N, K] weight) or mm (B as [K, N])",
				          r->name, r->rec_line, s);
				rc = RL_ERR_PARSE;
			}
			break;
		case COL_STRIDED: {
			uint64_t v;

			rc = cell_u64(r, cn, s, 0, MAX_STRIDED, MAX_STRIDED_WHY, &v);
			op->strided = (int)v;
			break;
		}
		case COL_VECTOR_BYTES:
			rc = cell_u64(r, cn, s, 1, MAX_VECTOR_BYTES, MAX_VECTOR_BYTES_WHY,
			              &op->vector_bytes);
			break;
		case COL_PARAMS:
			rc = cell_u64(r, cn, s, 0, MAX_TIMES, MAX_TIMES_WHY, &op->params);
			break;
		case COL_CAUSAL: rc = cell_bool(r, cn, s, &op->causal); break;
		case COL_KV_HEADS: rc = cell_u64(r, cn, s, 1, UINT64_MAX, NULL, &op->kv_heads); break;
		/* 0 is no window, as an empty cell; one of Sk or more changes
		 * nothing (formulas.h) */
		case COL_WINDOW: rc = cell_u64(r, cn, s, 0, UINT64_MAX, NULL, &op->window); break;
		/* 0 is the shape's D, as an empty cell; kv_shared's bound (at
		 * most D) and the sizes are the formulas' (formulas.h) */
		case COL_V_HEAD_DIM:
			rc = cell_u64(r, cn, s, 0, UINT64_MAX, NULL, &op->v_head_dim);
			break;
		case COL_KV_SHARED: rc = cell_bool(r, cn, s, &op->kv_shared); break;
		case COL_KV_CACHED: {
			int cached = 1;

			rc = cell_bool(r, cn, s, &cached);
			op->kv_rebuilt = !cached;
			break;
		}
		case COL_MASK:
			if (strcasecmp(s, "float") == 0)
				op->mask = RL_MASK_FLOAT;
			else if (strcasecmp(s, "bool") == 0)
				op->mask = RL_MASK_BOOL;
			else if (strcasecmp(s, "none") != 0) {
				add_error(r, RL_ERR_PARSE,
				          "%s:%zu: column 'mask': unknown mask '%s' (expected none, float "
				          "or bool)",
				          r->name, r->rec_line, s);
				rc = RL_ERR_PARSE;
			}
			break;
		case COL_MASK_SHAPE: mask_shape = s; break;
		case COL_FMA:
			rc = cell_bool(r, cn, s, &op->fma);
			op->has |= RL_HAS_FMA;
			break;
		case COL_FPE:
			rc = cell_number(r, cn, s, MAX_FPE, &op->flops_per_element);
			op->has |= RL_HAS_FPE;
			break;
		case COL_FLOPS:
			rc = cell_number(r, cn, s, MAX_WORK, &op->flops);
			op->has |= RL_HAS_FLOPS;
			break;
		case COL_BYTES:
			rc = cell_number(r, cn, s, MAX_WORK, &op->bytes);
			op->has |= RL_HAS_BYTES;
			break;
		case COL_LIVE_BYTES: rc = cell_number(r, cn, s, MAX_WORK, &op->live_bytes); break;
		case COL_MEASURED:
			rc = cell_number(r, cn, s, MAX_MEASURED_US, &op->measured_us);
			if (rc == 0 && op->measured_us <= 0) {
				add_error(r, RL_ERR_PARSE, "%s:%zu: column 'measured_us': must be above 0",
				          r->name, r->rec_line);
				rc = RL_ERR_PARSE;
			} else if (rc == 0 && op->measured_us < MIN_MEASURED_US) {
				add_error(r, RL_ERR_RANGE,
				          "%s:%zu: column 'measured_us': %s is below the minimum %g (1 ns: "
				          "no kernel is shorter)",
				          r->name, r->rec_line, s, MIN_MEASURED_US);
				rc = RL_ERR_RANGE;
			}
			op->has |= RL_HAS_MEASURED;
			break;
		case COL_FUSE:
			op->fuse = s;
			break;
		case COL_HOST_COST:
			rc = cell_number(r, cn, s, MAX_HOST_US, &op->host_overhead_us);
			op->has |= RL_HAS_HOST_COST;
			break;
		case COL_HOST:
			rc = cell_number(r, cn, s, MAX_HOST_US, &op->host_us);
			if (rc == 0 && op->host_us <= 0) {
				add_error(r, RL_ERR_PARSE, "%s:%zu: column 'host_us': must be above 0",
				          r->name, r->rec_line);
				rc = RL_ERR_PARSE;
			}
			op->has |= RL_HAS_HOST;
			break;
		case COL_EXTRA:
			break;
		}
		if (rc < 0)
			return rc;
	}
	rc = check_kind_columns(r, op->kind, given);
	if (rc < 0)
		return rc;
	if ((given & ((uint64_t)1 << COL_WEIGHT_GROUP)) && !(given & ((uint64_t)1 << COL_WEIGHT_DTYPE))) {
		add_error(r, RL_ERR_PARSE,
		          "%s:%zu: column 'weight_group': needs a weight_dtype (the scales belong to "
		          "quantised weights)",
		          r->name, r->rec_line);
		return RL_ERR_PARSE;
	}
	if (kernel != NULL) {
		struct rl_err e;
		int n;

		if (rl_parse_dims(kernel, op->kernel, 3, &n, &e) < 0 || n != 3) {
			add_error(r, RL_ERR_PARSE, "%s:%zu: column 'kernel': %s (expected KxRxS, e.g. 64x3x3)",
			          r->name, r->rec_line,
			          n != 3 && e.code == 0 ? "wrong number of dimensions" : e.msg);
			return RL_ERR_PARSE;
		}
		op->has |= RL_HAS_KERNEL;
	}
	if (perm != NULL && parse_perm(r, perm, op) < 0)
		return RL_ERR_PARSE;
	if (mask_shape != NULL && parse_mask_shape(r, mask_shape, op) < 0)
		return RL_ERR_PARSE;
	if (op->fresh > op->count) {
		add_error(r, RL_ERR_PARSE,
		          "%s:%zu: column 'fresh': %llu calls at new shapes of a row of count %llu "
		          "(at most its count)",
		          r->name, r->rec_line, (unsigned long long)op->fresh,
		          (unsigned long long)op->count);
		return RL_ERR_PARSE;
	}
	if ((op->comps[0] != 0) != (op->family != 0)) {
		add_error(r, RL_ERR_PARSE,
		          op->comps[0] ? "%s:%zu: column 'component': needs a 'model_type' (the model "
		                         "whose code runs the component, as --impl expands it)"
		                       : "%s:%zu: column 'model_type': names whose code runs the "
		                         "row's component: it needs a 'component'",
		          r->name, r->rec_line);
		return RL_ERR_PARSE;
	}
	if (op->grouped && op->ndims != 4) {
		add_error(r, RL_ERR_PARSE,
		          "%s:%zu: column 'grouped': needs a shape BxMxNxK (B groups of M rows each)",
		          r->name, r->rec_line);
		return RL_ERR_PARSE;
	}
	for (i = 0; i < r->nextra; i++)
		r->extra_vals[i] = field(r, r->extra_index[i]);
	op->extra = r->extra_vals;
	{
		/* The formulas validate the shape for the kind and catch sizes
		 * that overflow; the numbers themselves are discarded here. */
		struct rl_err e;
		double f, b;

		e.code = 0;
		rc = rl_op_work(op, &f, &b, &e);
		if (rc < 0) {
			add_error(r, e.code, "%s:%zu: %s", r->name, r->rec_line, e.msg);
			return rc;
		}
	}
	return 0;
}

/* libcsv's end-of-record callback. */
static void on_record(int term, void *user)
{
	struct reader *r = user;
	struct rl_op op;

	(void)term;
	if (r->field_oom) {
		add_error(r, RL_ERR_NOMEM, "%s:%zu: out of memory", r->name, r->rec_line);
		r->stop = 1;
	} else if (r->stop) {
		;
	} else if (!r->have_header) {
		int rc = do_header(r);

		if (rc < 0) {
			if (rc != RL_ERR_PARSE)
				r->sink_rc = rc;
			r->stop = 1;
		}
	} else if (do_row(r, &op) == 0 && r->errs->count == 0 && r->sink->op) {
		int rc = r->sink->op(&op, r->sink->user);

		if (rc < 0) {
			r->sink_rc = rc;
			r->stop = 1;
		}
	}
	r->nfields = 0;
	r->len = 0;
}

static int blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

/* What csv_parse makes of a line without quotes, which starts a record
 * (feed_line): fields split at commas, blanks (space, tab) trimmed at both
 * ends as libcsv trims unquoted fields, the record ended by the line's LF,
 * CRLF or the end of the file. It skips libcsv's state machine, a call per
 * byte: 17 % of the instructions of a million-op classify (issue 22,
 * docs/performance.md); lines with quotes still go to libcsv. */
static void split_line(struct reader *r, const char *s, size_t n)
{
	const char *end = s + n;

	if (end > s && end[-1] == '\n')
		end--;
	if (end > s && end[-1] == '\r')
		end--;
	for (;;) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		const char *fe = comma != NULL ? comma : end;

		while (s < fe && (*s == ' ' || *s == '\t'))
			s++;
		while (fe > s && (fe[-1] == ' ' || fe[-1] == '\t'))
			fe--;
		on_field((void *)s, (size_t)(fe - s), r);
		if (comma == NULL)
			break;
		s = comma + 1;
	}
	on_record('\n', r);
}

/* Handles one physical line (with its '\n', if any). */
static void feed_line(struct reader *r, struct csv_parser *p, const char *s, size_t n,
                      int *in_quote)
{
	size_t i, quotes = 0;
	const char *c;

	r->lineno++;
	if (r->lineno == 1 && n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		s += 3, n -= 3; /* UTF-8 byte order mark */
	if (memchr(s, '\0', n) != NULL) {
		add_error(r, RL_ERR_PARSE, "%s:%zu: NUL byte: this is binary data, not a CSV op list",
		          r->name, r->lineno);
		r->stop = 1;
		return;
	}
	/* CR only as part of CRLF (or ending the file): libcsv would take a bare
	 * CR as a line end that our line numbers and comments do not see. */
	for (c = memchr(s, '\r', n); c != NULL; c = memchr(c + 1, '\r', n - (size_t)(c + 1 - s))) {
		size_t at = (size_t)(c - s);

		if (!(at + 1 < n && s[at + 1] == '\n') && at + 1 != n) {
			add_error(r, RL_ERR_PARSE, "%s:%zu: bare CR line ending (use LF or CRLF)",
			          r->name, r->lineno);
			r->stop = 1;
			return;
		}
	}
	if (!*in_quote) {
		for (i = 0; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
			;
		if ((i < n && s[i] == '#') || blank(s, n))
			return; /* comment or blank line */
		r->rec_line = r->lineno;
		r->rec_bytes = 0;
	}
	/* a quoted field over many lines is one record that libcsv buffers
	 * whole: capped as a line is (300 MB of one grew the reader to 300 MB) */
	r->rec_bytes += n;
	if (r->rec_bytes > MAX_LINE) {
		add_error(r, RL_ERR_PARSE,
		          "%s:%zu: a record longer than %u bytes (its quoted field opens on line "
		          "%zu): not an op list",
		          r->name, r->lineno, MAX_LINE, r->rec_line);
		r->stop = 1;
		return;
	}
	for (c = memchr(s, '"', n); c != NULL; c = memchr(c + 1, '"', n - (size_t)(c + 1 - s)))
		quotes++;
	if (quotes == 0 && !*in_quote) {
		split_line(r, s, n);
		return;
	}
	if (quotes & 1)
		*in_quote = !*in_quote;
	if (csv_parse(p, s, n, on_field, on_record, r) != n) {
		add_error(r, RL_ERR_PARSE, "%s:%zu: malformed CSV: %s (a quote inside an unquoted "
		          "field, or text after a closing quote?)",
		          r->name, r->lineno, csv_strerror(csv_error(p)));
		r->stop = 1;
	}
}

/* A name bound with --set that no shape or count uses is likely a mistake
 * (a typo, or the wrong list): a warning at the end of the list (issue 13:
 * one --set may serve several lists), handed to the sink's warn. */
static void check_names_used(struct reader *r)
{
	const struct rl_symbols *names = r->sink->names;
	char msg[RL_ERR_MSG_MAX];
	size_t i;

	if (names == NULL || r->errs->count > 0 || r->sink->warn == NULL)
		return;
	for (i = 0; i < names->n && i < RL_SYMBOLS_MAX; i++)
		if (!((r->names_used | r->sink->names_sized) & ((uint32_t)1 << i))) {
			snprintf(msg, sizeof(msg),
			         "%s: warning: --set %s=%llu: no shape or count of the list uses the "
			         "name '%s'",
			         r->name, names->name[i], (unsigned long long)names->value[i],
			         names->name[i]);
			r->sink->warn(msg, r->sink->user);
		}
}

static void reader_free(struct reader *r)
{
	size_t i;

	free(r->buf);
	free(r->off);
	free(r->col);
	free(r->extra_index);
	for (i = 0; i < r->nextra; i++)
		free(r->extra_names[i]);
	free(r->extra_names);
	free(r->extra_vals);
}

int rl_ops_read(FILE *f, const char *name, const struct rl_ops_sink *sink,
                struct rl_errlist *errs)
{
	return rl_ops_read_used(f, name, sink, errs, NULL);
}

int rl_ops_read_used(FILE *f, const char *name, const struct rl_ops_sink *sink,
                     struct rl_errlist *errs, uint32_t *used)
{
	struct reader r;
	struct csv_parser p;
	char chunk[65536];
	char *line = NULL;
	size_t llen = 0, lcap = 0, got;
	int in_quote = 0, rc;

	memset(&r, 0, sizeof(r));
	r.name = name;
	r.sink = sink;
	r.errs = errs;
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		return RL_ERR_NOMEM;
	while (!r.stop && (got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		const char *s = chunk, *end = chunk + got;

		while (!r.stop && s < end) {
			const char *nl = memchr(s, '\n', (size_t)(end - s));
			size_t n = nl ? (size_t)(nl - s) + 1 : (size_t)(end - s);

			if (llen + n > MAX_LINE) {
				add_error(&r, RL_ERR_PARSE, "%s:%zu: line longer than %u bytes: not an op list",
				          name, r.lineno + 1, MAX_LINE);
				r.stop = 1;
				break;
			}
			if (nl != NULL && llen == 0) {
				feed_line(&r, &p, s, n, &in_quote); /* the common case: no copy */
			} else {
				if (llen + n > lcap) {
					char *grown;

					lcap = lcap ? lcap : 4096;
					while (lcap < llen + n)
						lcap *= 2;
					grown = realloc(line, lcap);
					if (grown == NULL) {
						add_error(&r, RL_ERR_NOMEM, "%s: out of memory", name);
						r.stop = 1;
						break;
					}
					line = grown;
				}
				memcpy(line + llen, s, n);
				llen += n;
				if (nl != NULL) {
					feed_line(&r, &p, line, llen, &in_quote);
					llen = 0;
				}
			}
			s += n;
		}
	}
	if (!r.stop && ferror(f))
		add_error(&r, RL_ERR_IO, "cannot read '%s': %s", name, strerror(errno));
	if (!r.stop && llen > 0)
		feed_line(&r, &p, line, llen, &in_quote); /* last line, no newline */
	if (!r.stop && in_quote)
		add_error(&r, RL_ERR_PARSE, "%s:%zu: unterminated quoted field (the quote opens on line %zu)",
		          name, r.lineno, r.rec_line);
	else if (!r.stop && csv_fini(&p, on_field, on_record, &r) != 0)
		add_error(&r, RL_ERR_PARSE, "%s:%zu: malformed CSV at the end of the file", name,
		          r.lineno);
	if (!r.stop && !r.have_header && errs->count == 0)
		add_error(&r, RL_ERR_PARSE,
		          "%s: no header: the file is empty or only comments (expected a line such as "
		          "name,kind,dtype,shape)",
		          name);
	if (!r.stop && r.have_header)
		check_names_used(&r);
	if (used != NULL)
		*used = r.names_used;
	csv_free(&p);
	free(line);
	rc = r.sink_rc;
	reader_free(&r);
	if (rc < 0)
		return rc;
	return errs->count > 0 ? RL_ERR_PARSE : 0;
}

int rl_ops_read_path(const char *path, const struct rl_ops_sink *sink,
                     struct rl_errlist *errs)
{
	FILE *f;
	int rc;

	if (strcmp(path, "-") == 0)
		return rl_ops_read(stdin, "<stdin>", sink, errs);
	f = fopen(path, "rb");
	if (f == NULL) {
		struct rl_err e;

		rl_err_set(&e, RL_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
		rl_errlist_add(errs, &e);
		return RL_ERR_IO;
	}
	rc = rl_ops_read(f, path, sink, errs);
	fclose(f);
	return rc;
}

/* ---- rl_ops_rows: the record step on cells held in memory ---- */

struct rl_ops_rows {
	struct reader r;
	struct rl_ops_sink sink; /* only its names */
};

/* Packs the N cells as libcsv's fields would be, for do_header and do_row. */
static int pack_cells(struct reader *r, const char *const *cells, size_t n)
{
	size_t i;

	r->nfields = 0;
	r->len = 0;
	for (i = 0; i < n; i++)
		on_field((void *)cells[i], strlen(cells[i]), r);
	if (r->field_oom) {
		add_error(r, RL_ERR_NOMEM, "%s:%zu: out of memory", r->name, r->rec_line);
		return RL_ERR_NOMEM;
	}
	return 0;
}

int rl_ops_rows_new(const char *name, size_t line, const char *const *cols, size_t n,
                    const struct rl_symbols *symbols, rl_ops_rows **out,
                    struct rl_errlist *errs)
{
	rl_ops_rows *rows = calloc(1, sizeof(*rows));
	int rc;

	*out = NULL;
	if (rows == NULL)
		return RL_ERR_NOMEM;
	rows->sink.names = symbols;
	rows->r.name = name;
	rows->r.sink = &rows->sink;
	rows->r.errs = errs;
	rows->r.rec_line = line;
	rc = pack_cells(&rows->r, cols, n);
	if (rc == 0)
		rc = do_header(&rows->r);
	if (rc < 0) {
		rl_ops_rows_free(rows);
		return rc;
	}
	*out = rows;
	return 0;
}

const struct rl_ops_header *rl_ops_rows_header(const rl_ops_rows *r)
{
	return &r->r.hdr;
}

int rl_ops_row(rl_ops_rows *rows, size_t line, const char *const *cells, size_t n,
               struct rl_op *op, struct rl_errlist *errs)
{
	struct reader *r = &rows->r;
	int rc;

	r->errs = errs;
	r->rec_line = line;
	rc = pack_cells(r, cells, n);
	return rc < 0 ? rc : do_row(r, op);
}

void rl_ops_rows_free(rl_ops_rows *r)
{
	if (r == NULL)
		return;
	reader_free(&r->r);
	free(r);
}

/* ---- rl_oplist: a sink that keeps everything ---- */

static char *keep(struct rl_oplist *l, const char *s)
{
	char *copy, **grown;

	if ((l->nstrings & (l->nstrings - 1)) == 0) {
		grown = realloc(l->strings, (l->nstrings ? 2 * l->nstrings : 1) * sizeof(*grown));
		if (grown == NULL)
			return NULL;
		l->strings = grown;
	}
	copy = strdup(s);
	if (copy != NULL)
		l->strings[l->nstrings++] = copy;
	return copy;
}

static int list_header(const struct rl_ops_header *h, void *user)
{
	struct rl_oplist *l = user;
	size_t i;

	l->has_measured = h->has_measured;
	l->has_host = h->has_host;
	l->extra_names = calloc(h->nextra + 1, sizeof(*l->extra_names));
	if (l->extra_names == NULL)
		return RL_ERR_NOMEM;
	for (i = 0; i < h->nextra; i++) {
		l->extra_names[i] = strdup(h->extra_names[i]);
		if (l->extra_names[i] == NULL)
			return RL_ERR_NOMEM;
		l->nextra++;
	}
	return 0;
}

static int list_op(const struct rl_op *op, void *user)
{
	struct rl_oplist *l = user;
	struct rl_op *o;
	const char **extra = NULL;
	size_t i;

	if ((l->n & (l->n - 1)) == 0) {
		struct rl_op *grown = realloc(l->ops, (l->n ? 2 * l->n : 1) * sizeof(*grown));

		if (grown == NULL)
			return RL_ERR_NOMEM;
		l->ops = grown;
	}
	o = &l->ops[l->n];
	*o = *op;
	o->name = keep(l, op->name);
	if (o->name == NULL)
		return RL_ERR_NOMEM;
	if (op->fuse != NULL && (o->fuse = keep(l, op->fuse)) == NULL)
		return RL_ERR_NOMEM;
	if (l->nextra > 0) {
		/* The array of extra cells is itself kept as a "string" block. */
		extra = calloc(l->nextra, sizeof(*extra));
		if (extra == NULL || keep(l, "") == NULL) {
			free(extra);
			return RL_ERR_NOMEM;
		}
		free(l->strings[l->nstrings - 1]);
		l->strings[l->nstrings - 1] = (char *)extra;
		for (i = 0; i < l->nextra; i++)
			if ((extra[i] = keep(l, op->extra[i])) == NULL)
				return RL_ERR_NOMEM;
	}
	o->extra = extra;
	l->n++;
	return 0;
}

int rl_oplist_read(FILE *f, const char *name, struct rl_oplist *list,
                   struct rl_errlist *errs)
{
	struct rl_ops_sink sink = {list_header, list_op, list, NULL, NULL, 0};

	memset(list, 0, sizeof(*list));
	return rl_ops_read(f, name, &sink, errs);
}

void rl_oplist_release(struct rl_oplist *list)
{
	size_t i;

	if (list == NULL)
		return;
	for (i = 0; i < list->nstrings; i++)
		free(list->strings[i]);
	for (i = 0; i < list->nextra; i++)
		free(list->extra_names[i]);
	free(list->strings);
	free(list->extra_names);
	free(list->ops);
	memset(list, 0, sizeof(*list));
}
