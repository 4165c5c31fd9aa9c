/* sweep.c - one step at each value of one size (see sweep.h). */
#include "config.h"

#include "sweep.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

/* ---- the value list ----------------------------------------------------- */

static int name_char(char c, int first)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

int rl_sweep_parse(const char *spec, struct rl_sweep_spec *sw, struct rl_err *err)
{
	const char *eq = strchr(spec, '='), *p;
	size_t nlen, i;

	memset(sw, 0, sizeof(*sw));
	if (eq == NULL)
		return rl_err_set(err, RL_ERR_PARSE,
		                  "--sweep: '%s' is not NAME=V1,V2,... (e.g. batch=1,8,64)", spec);
	nlen = (size_t)(eq - spec);
	for (i = 0; i < nlen; i++)
		if (!name_char(spec[i], i == 0))
			break;
	if (nlen == 0 || i < nlen || nlen >= RL_SWEEP_NAME_LEN)
		return rl_err_set(err, RL_ERR_PARSE,
		                  "--sweep: '%.*s' is not a name (letters, digits and '_', at most "
		                  "%d characters)",
		                  (int)(nlen > 64 ? 64 : nlen), spec, RL_SWEEP_NAME_LEN - 1);
	memcpy(sw->name, spec, nlen);
	sw->name[nlen] = '\0';
	if (eq[1] == '\0')
		return rl_err_set(err, RL_ERR_PARSE, "--sweep %s: no values (e.g. %s=1,8,64)",
		                  sw->name, sw->name);
	for (p = eq + 1;;) {
		const char *comma = strchr(p, ',');
		size_t vlen = comma != NULL ? (size_t)(comma - p) : strlen(p);
		char val[32];
		uint64_t v;
		struct rl_err e;
		int rc;

		if (sw->n == RL_SWEEP_MAX_VALUES)
			return rl_err_set(err, RL_ERR_RANGE, "--sweep %s: more than %d values",
			                  sw->name, RL_SWEEP_MAX_VALUES);
		if (vlen == 0)
			return rl_err_set(err, RL_ERR_PARSE, "--sweep %s: value %zu is empty",
			                  sw->name, sw->n + 1);
		if (vlen >= sizeof(val))
			return rl_err_set(
			    err, RL_ERR_RANGE,
			    "--sweep %s: value %zu '%.*s...' is more than %zu characters", sw->name,
			    sw->n + 1, 16, p, sizeof(val) - 1);
		memcpy(val, p, vlen);
		val[vlen] = '\0';
		rc = rl_parse_u64(val, &v, &e);
		if (rc == 0 && v == 0)
			rc = rl_err_set(&e, RL_ERR_RANGE, "0 is below the minimum 1");
		if (rc < 0)
			return rl_err_set(err, rc, "--sweep %s: value %zu '%s': %s", sw->name,
			                  sw->n + 1, val, e.msg);
		if (sw->n > 0 && v <= sw->value[sw->n - 1])
			return rl_err_set(
			    err, RL_ERR_PARSE,
			    "--sweep %s: value %zu (%llu) is not above the one before "
			    "(%llu): the values must increase",
			    sw->name, sw->n + 1, (unsigned long long)v,
			    (unsigned long long)sw->value[sw->n - 1]);
		sw->value[sw->n++] = v;
		if (comma == NULL)
			return 0;
		p = comma + 1;
	}
}

/* ---- rows ---------------------------------------------------------------- */

void rl_sweep_table_init(struct rl_sweep_table *t, const char *name, const char *items,
                         const struct rl_device *dev)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	snprintf(t->items, sizeof(t->items), "%s", items != NULL ? items : "");
	t->device_bytes = rl_memfit_device_bytes(dev);
}

void rl_sweep_row_fill(struct rl_sweep_row *r, uint64_t value, double items,
                       const struct rl_summary *s, const struct rl_memfit *m,
                       const struct rl_device *dev)
{
	int b;

	memset(r, 0, sizeof(*r));
	r->value = value;
	r->step_us = s->total_us;
	r->roofline_us = s->roofline_us;
	r->items = items;
	for (b = 0; b < RL_BOUND_COUNT; b++)
		r->share[b] = s->total_us > 0 ? s->bound_us[b] / s->total_us : 0;
	r->weight_bytes = m->weight_bytes;
	r->kv_bytes = m->kv_bytes;
	r->activation_bytes = m->activation_bytes;
	r->memory_bytes = rl_memfit_total_bytes(m);
	r->fits = rl_memfit_fits(m, dev);
}

double rl_sweep_row_per_s(const struct rl_sweep_row *r, int roofline)
{
	double us = roofline ? r->roofline_us : r->step_us;

	return r->items > 0 && us > 0 ? r->items / us * 1e6 : 0;
}

enum rl_bound rl_sweep_row_bound(const struct rl_sweep_row *r)
{
	enum rl_bound best = RL_BOUND_COMPUTE;
	int b;

	for (b = 1; b < RL_BOUND_COUNT; b++)
		if (r->share[b] > r->share[best])
			best = (enum rl_bound)b;
	return best;
}

int rl_sweep_knee(const struct rl_sweep_table *t)
{
	size_t i;

	for (i = 1; i < t->n; i++)
		if (rl_sweep_row_bound(&t->row[i]) == RL_BOUND_COMPUTE &&
		    rl_sweep_row_bound(&t->row[i - 1]) == RL_BOUND_MEMORY)
			return (int)i;
	return -1;
}

int rl_sweep_oom(const struct rl_sweep_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!t->row[i].fits)
			return (int)i;
	return -1;
}

int rl_sweep_run(const struct rl_sweep_spec *sw, rl_sweep_step_fn step, void *user,
                 const struct rl_device *dev, struct rl_sweep_table *t)
{
	size_t i;

	t->n = 0;
	for (i = 0; i < sw->n; i++) {
		const struct rl_summary *s = NULL;
		const struct rl_memfit *m = NULL;
		double items = 0;
		int rc = step(user, sw->value[i], &s, &m, &items);

		if (rc < 0)
			return rc;
		rl_sweep_row_fill(&t->row[i], sw->value[i], items, s, m, dev);
		t->n = i + 1;
	}
	return 0;
}

/* ---- the csv, read back -------------------------------------------------- */

enum col {
	C_VALUE,
	C_STEP,
	C_ROOF,
	C_PER_STEP,
	C_COMPUTE,
	C_MEMORY,
	C_OVERHEAD,
	C_NETWORK,
	C_MEM_BYTES,
	C_DEV_BYTES,
	C_FITS,
	C_COUNT
};

static const char *const col_name[C_COUNT] = {
    NULL,         "step_us",      "roofline_us",  NULL,           "compute_pct",
    "memory_pct", "overhead_pct", "network_pct", "memory_bytes", "device_bytes", "fits",
};

#define MAX_COLS 64

struct csv_reader {
	const char *name;
	struct rl_sweep_table *t;
	struct rl_err *err;
	int rc;
	size_t line;  /* of the record being read */
	size_t field; /* in the record */
	size_t bytes; /* read since the last record ended */
	int header_done;
	int col[MAX_COLS]; /* enum col of each column, -1: ignored */
	size_t ncols;
	int have[C_COUNT];
	struct rl_sweep_row cur;
};

static int fail(struct csv_reader *c, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(struct csv_reader *c, int code, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->rc < 0)
		return c->rc;
	c->rc = code;
	if (c->err != NULL) {
		c->err->code = code;
		n = snprintf(c->err->msg, sizeof(c->err->msg), "%s:%zu: ", c->name, c->line);
		if (n < 0 || (size_t)n >= sizeof(c->err->msg))
			n = 0;
		va_start(ap, fmt);
		vsnprintf(c->err->msg + n, sizeof(c->err->msg) - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return code;
}

static void header_field(struct csv_reader *c, const char *s)
{
	size_t len = strlen(s), k;
	int which = -1;

	if (c->field >= MAX_COLS) {
		fail(c, RL_ERR_RANGE, "more than %d columns", MAX_COLS);
		return;
	}
	if (c->field == 0) {
		size_t i;

		for (i = 0; i < len; i++)
			if (!name_char(s[i], i == 0))
				break;
		if (len == 0 || i < len || len >= RL_SWEEP_NAME_LEN) {
			fail(c, RL_ERR_PARSE,
			     "column 1: '%.32s' is not the swept name (expected a header such as "
			     "batch,step_us,...)",
			     s);
			return;
		}
		snprintf(c->t->name, sizeof(c->t->name), "%s", s);
		which = C_VALUE;
	} else if (len > 9 && strcmp(s + len - 9, "_per_step") == 0) {
		if (len - 9 >= sizeof(c->t->items)) {
			fail(c, RL_ERR_PARSE, "column '%.32s': the item's name is too long", s);
			return;
		}
		snprintf(c->t->items, sizeof(c->t->items), "%.*s", (int)(len - 9), s);
		which = C_PER_STEP;
	} else {
		for (k = C_STEP; k < C_COUNT; k++)
			if (col_name[k] != NULL && strcmp(s, col_name[k]) == 0)
				which = (int)k;
	}
	if (which >= 0 && c->have[which]) {
		fail(c, RL_ERR_PARSE, "column '%.32s' is given twice", s);
		return;
	}
	if (which >= 0)
		c->have[which] = 1;
	c->col[c->field] = which;
}

static void data_field(struct csv_reader *c, const char *s)
{
	int which = c->field < c->ncols ? c->col[c->field] : -1;
	const char *cname;
	struct rl_err e;
	double v = 0;
	uint64_t u;

	if (c->field >= c->ncols) {
		fail(c, RL_ERR_PARSE, "more fields than the header's %zu", c->ncols);
		return;
	}
	if (which < 0)
		return;
	cname = which == C_VALUE      ? c->t->name
	        : which == C_PER_STEP ? "*_per_step"
	                              : col_name[which];
	if (which == C_VALUE) {
		if (rl_parse_u64(s, &u, &e) < 0 || u == 0) {
			fail(c, RL_ERR_PARSE, "column '%s': '%.32s' is not an integer from 1",
			     cname, s);
			return;
		}
		if (c->t->n > 0 && u <= c->t->row[c->t->n - 1].value) {
			fail(c, RL_ERR_PARSE,
			     "column '%s': %llu is not above the row before's %llu", cname,
			     (unsigned long long)u,
			     (unsigned long long)c->t->row[c->t->n - 1].value);
			return;
		}
		c->cur.value = u;
		return;
	}
	if (which == C_FITS) {
		if (strcmp(s, "yes") == 0)
			c->cur.fits = 1;
		else if (strcmp(s, "no") == 0)
			c->cur.fits = 0;
		else
			fail(c, RL_ERR_PARSE, "column 'fits': '%.32s' is not yes or no", s);
		return;
	}
	if (s[0] == '\0' && (which == C_DEV_BYTES || which == C_PER_STEP))
		return; /* not known */
	if (rl_parse_nonneg(s, &v, &e) < 0) {
		fail(c, RL_ERR_PARSE, "column '%s': %s", cname, e.msg);
		return;
	}
	switch (which) {
	case C_STEP:
		c->cur.step_us = v;
		break;
	case C_ROOF:
		c->cur.roofline_us = v;
		break;
	case C_PER_STEP:
		c->cur.items = v;
		break;
	case C_COMPUTE:
		c->cur.share[RL_BOUND_COMPUTE] = v / 100;
		break;
	case C_MEMORY:
		c->cur.share[RL_BOUND_MEMORY] = v / 100;
		break;
	case C_OVERHEAD:
		c->cur.share[RL_BOUND_OVERHEAD] = v / 100;
		break;
	case C_NETWORK:
		c->cur.share[RL_BOUND_NETWORK] = v / 100;
		break;
	case C_MEM_BYTES:
		c->cur.memory_bytes = v;
		break;
	case C_DEV_BYTES:
		c->t->device_bytes = v;
		break;
	default:
		break;
	}
}

static void csv_on_field(void *data, size_t len, void *user)
{
	struct csv_reader *c = user;
	const char *s = data != NULL ? data : "";

	if (c->rc < 0)
		return;
	(void)len; /* NUL bytes were refused as read */
	if (!c->header_done)
		header_field(c, s);
	else
		data_field(c, s);
	c->field++;
}

static void csv_on_record(int term, void *user)
{
	struct csv_reader *c = user;
	size_t k;

	(void)term;
	if (c->rc < 0)
		return;
	if (!c->header_done) {
		c->ncols = c->field;
		c->header_done = 1;
		for (k = C_STEP; k < C_COUNT; k++)
			if (col_name[k] != NULL && k != C_ROOF && k != C_MEM_BYTES &&
			    k != C_DEV_BYTES && k != C_NETWORK && !c->have[k]) {
				fail(c, RL_ERR_PARSE,
				     "no column '%s' (a sweep's csv: roofline model or "
				     "classify --sweep ... -f csv)",
				     col_name[k]);
				return;
			}
	} else if (c->field != c->ncols) {
		fail(c, RL_ERR_PARSE, "%zu fields, the header has %zu", c->field, c->ncols);
		return;
	} else if (c->t->n == RL_SWEEP_MAX_VALUES) {
		fail(c, RL_ERR_RANGE, "more than %d rows", RL_SWEEP_MAX_VALUES);
		return;
	} else {
		c->t->row[c->t->n++] = c->cur;
	}
	memset(&c->cur, 0, sizeof(c->cur));
	c->field = 0;
	c->bytes = 0;
}

int rl_sweep_read_csv(FILE *f, const char *name, struct rl_sweep_table *t, struct rl_err *err)
{
	struct csv_reader c;
	struct csv_parser p;
	char buf[4096];
	size_t got;

	rl_sweep_table_init(t, "", NULL, NULL);
	memset(&c, 0, sizeof(c));
	c.name = name;
	c.t = t;
	c.err = err;
	c.line = 1;
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL | CSV_EMPTY_IS_NULL) != 0)
		return rl_err_set(err, RL_ERR_NOMEM, "%s: out of memory", name);
	while (c.rc == 0 && (got = fread(buf, 1, sizeof(buf), f)) > 0) {
		size_t i, start = 0;

		/* fed line by line, so that messages name the line; a NUL byte
		 * or an overlong row is refused as soon as it is read, so that
		 * libcsv never buffers without bound (/dev/zero grew by 150 MB
		 * a second, issue 21) */
		for (i = 0; i < got && c.rc == 0; i++) {
			if (buf[i] == '\0') {
				fail(&c, RL_ERR_PARSE, "NUL byte: not a sweep's csv (a text file)");
				break;
			}
			if (++c.bytes > RL_SWEEP_LINE_MAX) {
				fail(&c, RL_ERR_PARSE, "a row longer than %d bytes: not a sweep's csv",
				     RL_SWEEP_LINE_MAX);
				break;
			}
			if (buf[i] != '\n')
				continue;
			if (csv_parse(&p, buf + start, i + 1 - start, csv_on_field, csv_on_record,
			              &c) != i + 1 - start)
				fail(&c, RL_ERR_PARSE, "malformed CSV (%s)",
				     csv_strerror(csv_error(&p)));
			start = i + 1;
			c.line++;
		}
		if (c.rc == 0 && start < got &&
		    csv_parse(&p, buf + start, got - start, csv_on_field, csv_on_record, &c) !=
		        got - start)
			fail(&c, RL_ERR_PARSE, "malformed CSV (%s)", csv_strerror(csv_error(&p)));
	}
	if (c.rc == 0 && ferror(f))
		fail(&c, RL_ERR_IO, "cannot read: %s", strerror(errno));
	if (c.rc == 0 && csv_fini(&p, csv_on_field, csv_on_record, &c) != 0)
		fail(&c, RL_ERR_PARSE, "malformed CSV at the end of the file");
	csv_free(&p);
	if (c.rc == 0 && !c.header_done)
		fail(&c, RL_ERR_PARSE, "empty: no header (expected a sweep's csv)");
	else if (c.rc == 0 && t->n == 0)
		fail(&c, RL_ERR_RANGE, "no rows to plot");
	return c.rc;
}
