/* symbols.c - names in shapes, bound and scaled (see symbols.h). */
#include "config.h"

#include "symbols.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "num.h"

void rl_symbols_init(struct rl_symbols *s)
{
	memset(s, 0, sizeof(*s));
}

static int is_name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z' && c != 'x') || c == '_';
}

/* A name is one or more name characters. */
static int valid_name(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (!is_name_char(s[i]))
			return 0;
	return 1;
}

static int find(const struct rl_symbols *s, const char *name, size_t n)
{
	size_t i;

	for (i = 0; s != NULL && i < s->n; i++)
		if (strlen(s->name[i]) == n && memcmp(s->name[i], name, n) == 0)
			return (int)i;
	return -1;
}

/* Walks "A=1,B=2": calls FN per pair with the name (not terminated) and the
 * value parsed as an integer >= 1. */
static int each_pair(struct rl_symbols *s, const char *spec, const char *opt,
                     int (*fn)(struct rl_symbols *, const char *, size_t, uint64_t,
                               struct rl_err *),
                     struct rl_err *err)
{
	const char *p = spec;

	for (;;) {
		const char *eq = strchr(p, '='), *comma = strchr(p, ',');
		size_t vlen;
		char val[32];
		uint64_t v;
		struct rl_err e;
		int rc;

		if (comma == NULL)
			comma = p + strlen(p);
		if (eq == NULL || eq > comma)
			return rl_err_set(err, RL_ERR_PARSE,
			                  "%s: '%.*s' is not NAME=VALUE (e.g. B=32)", opt,
			                  (int)(comma - p), p);
		if (!valid_name(p, (size_t)(eq - p)) || eq - p >= RL_SYMBOL_LEN)
			return rl_err_set(
			    err, RL_ERR_PARSE,
			    "%s: '%.*s' is not a name (letters and '_', no lower-case 'x', "
			    "at most %d)",
			    opt, (int)(eq - p), p, RL_SYMBOL_LEN - 1);
		vlen = (size_t)(comma - eq - 1);
		if (vlen >= sizeof(val)) /* cut, "000...07" would read as 0 */
			return rl_err_set(err, RL_ERR_RANGE, "%s: %.*s: '%.*s' is more than %zu characters",
			                  opt, (int)(eq - p), p, (int)vlen, eq + 1, sizeof(val) - 1);
		memcpy(val, eq + 1, vlen);
		val[vlen] = '\0';
		rc = rl_parse_u64(val, &v, &e);
		if (rc == 0 && v == 0)
			rc = rl_err_set(&e, RL_ERR_RANGE, "0 is below the minimum 1");
		if (rc < 0)
			return rl_err_set(err, rc, "%s: %.*s: %s", opt, (int)(eq - p), p, e.msg);
		rc = fn(s, p, (size_t)(eq - p), v, err);
		if (rc < 0)
			return rc;
		if (*comma == '\0')
			return 0;
		p = comma + 1;
	}
}

static int bind(struct rl_symbols *s, const char *name, size_t n, uint64_t v, struct rl_err *err)
{
	if (find(s, name, n) >= 0)
		return rl_err_set(err, RL_ERR_PARSE, "--set: %.*s is given twice", (int)n, name);
	if (s->n == RL_SYMBOLS_MAX)
		return rl_err_set(err, RL_ERR_RANGE, "--set: more than %d names", RL_SYMBOLS_MAX);
	memcpy(s->name[s->n], name, n);
	s->name[s->n][n] = '\0';
	s->value[s->n] = v;
	s->scale[s->n] = 1;
	s->n++;
	return 0;
}

static int set_scale(struct rl_symbols *s, const char *name, size_t n, uint64_t v,
                     struct rl_err *err)
{
	int i = find(s, name, n);

	if (i < 0)
		return rl_err_set(err, RL_ERR_PARSE,
		                  "--scale: %.*s is not bound (give its size with --set %.*s=N)",
		                  (int)n, name, (int)n, name);
	s->scale[i] = v;
	return 0;
}

int rl_symbols_set(struct rl_symbols *s, const char *spec, struct rl_err *err)
{
	return each_pair(s, spec, "--set", bind, err);
}

int rl_symbols_scale(struct rl_symbols *s, const char *spec, struct rl_err *err)
{
	return each_pair(s, spec, "--scale", set_scale, err);
}

void rl_symbols_scale_label(const struct rl_symbols *s, char *buf, size_t len)
{
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < s->n && o < len; i++) {
		if (s->scale[i] == 1)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s x%llu", o ? ", " : "", s->name[i],
		                      (unsigned long long)s->scale[i]);
	}
}

/* ---- integer expressions ------------------------------------------------ */

/* A value and how it depends on the names: SYM 0 a constant, 1 + i the name
 * i times or over constants, RL_SYM_MIXED anything else. */
struct val {
	uint64_t v;
	unsigned sym;
};

struct expr {
	const struct rl_symbols *s;
	const char *p, *end;  /* the expression being read */
	const char *text;     /* the whole cell, for messages */
	const char *what;     /* "shape" or "count" */
	uint32_t used;        /* names seen */
	struct rl_err *err;
	int rc;               /* the first error's status, 0 while none */
};

static int expr_fail(struct expr *x, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int expr_fail(struct expr *x, int code, const char *fmt, ...)
{
	va_list ap;

	if (x->rc == 0) {
		x->rc = code;
		if (x->err != NULL) {
			x->err->code = code;
			va_start(ap, fmt);
			vsnprintf(x->err->msg, sizeof(x->err->msg), fmt, ap);
			va_end(ap);
		}
	}
	return code;
}

static int expr_syntax(struct expr *x)
{
	if (strcmp(x->what, "shape") == 0)
		return expr_fail(x, RL_ERR_PARSE,
		                 "shape '%s' is not dimensions or names joined by 'x' (e.g. Bx4096, "
		                 "B*197x768)",
		                 x->text);
	return expr_fail(x, RL_ERR_PARSE,
	                 "%s '%s' is not an integer expression (numbers and --set names with "
	                 "+ - * / and parentheses, e.g. L or 2*L)",
	                 x->what, x->text);
}

static unsigned combine_sym(unsigned a, unsigned b, char op)
{
	if (a == 0 && b == 0)
		return 0;
	if (op == '*' && (a == 0 || b == 0))
		return a | b;
	if (op == '/' && b == 0)
		return a;
	return RL_SYM_MIXED;
}

static int parse_sum(struct expr *x, struct val *out, int depth);

static int parse_factor(struct expr *x, struct val *out, int depth)
{
	const char *q = x->p;

	if (q < x->end && *q == '(') {
		if (depth > 64)
			return expr_fail(x, RL_ERR_PARSE, "%s '%s': parentheses nested too deep",
			                 x->what, x->text);
		x->p++;
		if (parse_sum(x, out, depth + 1) < 0)
			return x->rc;
		if (x->p >= x->end || *x->p != ')')
			return expr_syntax(x);
		x->p++;
		return 0;
	}
	if (q < x->end && *q >= '0' && *q <= '9') {
		char buf[32];
		size_t len;
		int rc;

		while (q < x->end && *q >= '0' && *q <= '9')
			q++;
		len = (size_t)(q - x->p);
		if (len >= sizeof(buf))
			return expr_fail(x, RL_ERR_RANGE, "%s '%s': %.*s is too large", x->what,
			                 x->text, (int)len, x->p);
		memcpy(buf, x->p, len);
		buf[len] = '\0';
		rc = rl_parse_u64(buf, &out->v, NULL);
		if (rc < 0)
			return expr_fail(x, RL_ERR_RANGE, "%s '%s': %s is too large", x->what,
			                 x->text, buf);
		out->sym = 0;
		x->p = q;
		return 0;
	}
	if (q < x->end && is_name_char(*q)) {
		int i;

		while (q < x->end && is_name_char(*q))
			q++;
		i = find(x->s, x->p, (size_t)(q - x->p));
		if (i < 0)
			return expr_fail(x, RL_ERR_PARSE,
			                 "name '%.*s' in %s '%s' is not bound (give its size with "
			                 "--set %.*s=N)",
			                 (int)(q - x->p), x->p, x->what, x->text, (int)(q - x->p),
			                 x->p);
		out->v = x->s->value[i];
		out->sym = (unsigned)i + 1;
		x->used |= (uint32_t)1 << i;
		x->p = q;
		return 0;
	}
	return expr_syntax(x);
}

static int parse_product(struct expr *x, struct val *out, int depth)
{
	if (parse_factor(x, out, depth) < 0)
		return x->rc;
	while (x->p < x->end && (*x->p == '*' || *x->p == '/')) {
		char op = *x->p++;
		struct val r;

		if (parse_factor(x, &r, depth) < 0)
			return x->rc;
		if (op == '*') {
			if (rl_mul_u64(out->v, r.v, &out->v) < 0)
				return expr_fail(x, RL_ERR_RANGE, "%s '%s': the expression passes 2^64 - 1",
				                 x->what, x->text);
		} else {
			if (r.v == 0)
				return expr_fail(x, RL_ERR_RANGE, "%s '%s': division by zero", x->what,
				                 x->text);
			if (out->v % r.v != 0)
				return expr_fail(x, RL_ERR_RANGE,
				                 "%s '%s': %llu / %llu is not a whole number (the division "
				                 "must be exact)",
				                 x->what, x->text, (unsigned long long)out->v,
				                 (unsigned long long)r.v);
			out->v /= r.v;
		}
		out->sym = combine_sym(out->sym, r.sym, op);
	}
	return 0;
}

static int parse_sum(struct expr *x, struct val *out, int depth)
{
	if (parse_product(x, out, depth) < 0)
		return x->rc;
	while (x->p < x->end && (*x->p == '+' || *x->p == '-')) {
		char op = *x->p++;
		struct val r;

		if (parse_product(x, &r, depth) < 0)
			return x->rc;
		if (op == '+') {
			if (out->v > UINT64_MAX - r.v)
				return expr_fail(x, RL_ERR_RANGE, "%s '%s': the expression passes 2^64 - 1",
				                 x->what, x->text);
			out->v += r.v;
		} else {
			if (r.v > out->v)
				return expr_fail(x, RL_ERR_RANGE,
				                 "%s '%s': %llu - %llu is below 0", x->what, x->text,
				                 (unsigned long long)out->v, (unsigned long long)r.v);
			out->v -= r.v;
		}
		out->sym = combine_sym(out->sym, r.sym, op);
	}
	return 0;
}

/* Evaluates [P, END) as a whole expression. */
static int eval_span(struct expr *x, const char *p, const char *end, struct val *out)
{
	x->p = p;
	x->end = end;
	if (parse_sum(x, out, 0) < 0)
		return x->rc;
	if (x->p != x->end)
		return expr_syntax(x);
	return 0;
}

static int has_expr_char(const char *t)
{
	for (; *t != '\0'; t++) {
		char c = *t;

		if ((c >= '0' && c <= '9') || c == 'x') /* the usual shape: skip fast */
			continue;
		if (is_name_char(c) || c == '+' || c == '-' || c == '*' || c == '/' || c == '(' ||
		    c == ')')
			return 1;
	}
	return 0;
}

int rl_symbols_dims_used(const struct rl_symbols *s, const char *text, uint64_t *dims,
                         unsigned char *sym, int max, int *n, uint32_t *used,
                         struct rl_err *err)
{
	const char *p = text;
	struct expr x = {s, NULL, NULL, text, "shape", 0, err, 0};
	int k = 0;

	if (used != NULL)
		*used = 0;
	if (!has_expr_char(text)) { /* numbers only: the strict parser and its messages */
		if (sym != NULL)
			memset(sym, 0, (size_t)max);
		return rl_parse_dims(text, dims, max, n, err);
	}
	for (p = text;;) {
		const char *sep = strchr(p, 'x');
		const char *end = sep ? sep : p + strlen(p);
		struct val v;

		if (k == max)
			return rl_err_set(err, RL_ERR_PARSE,
			                  "shape '%s' has more than %d dimensions", text, max);
		if (eval_span(&x, p, end, &v) < 0)
			return x.rc;
		if (v.v == 0)
			return rl_err_set(err, RL_ERR_RANGE, "shape '%s' has a zero dimension", text);
		dims[k] = v.v;
		if (sym != NULL)
			sym[k] = (unsigned char)v.sym;
		k++;
		if (sep == NULL)
			break;
		p = sep + 1;
	}
	*n = k;
	if (used != NULL)
		*used = x.used;
	return 0;
}

int rl_symbols_dims(const struct rl_symbols *s, const char *text, uint64_t *dims,
                    unsigned char *sym, int max, int *n, struct rl_err *err)
{
	return rl_symbols_dims_used(s, text, dims, sym, max, n, NULL, err);
}

int rl_symbols_eval(const struct rl_symbols *s, const char *text, const char *what,
                    uint64_t *out, uint32_t *used, struct rl_err *err)
{
	struct expr x = {s, NULL, NULL, text, what, 0, err, 0};
	struct val v;

	if (used != NULL)
		*used = 0;
	if (eval_span(&x, text, text + strlen(text), &v) < 0)
		return x.rc;
	*out = v.v;
	if (used != NULL)
		*used = x.used;
	return 0;
}

int rl_symbols_apply(const struct rl_symbols *s, const struct rl_op *op, struct rl_op *out,
                     int *depends, struct rl_err *err)
{
	int i, changed = 0;

	*out = *op;
	for (i = 0; i < op->ndims; i++) {
		unsigned j = op->dim_sym[i];

		if (j == RL_SYM_MIXED && s != NULL) {
			size_t k;

			for (k = 0; k < s->n; k++)
				if (s->scale[k] != 1)
					return rl_err_set(err, RL_ERR_RANGE,
					                  "shape: dimension %d is an expression of names that "
					                  "--scale cannot follow (only a name times or over "
					                  "numbers scales: B*197, not B+1 or B*S)",
					                  i + 1);
			continue;
		}
		if (j == 0 || s == NULL || j > s->n || s->scale[j - 1] == 1)
			continue;
		if (rl_mul_u64(op->dims[i], s->scale[j - 1], &out->dims[i]) < 0)
			return rl_err_set(err, RL_ERR_RANGE, "shape: %s x%llu overflows 64 bits",
			                  s->name[j - 1], (unsigned long long)s->scale[j - 1]);
		changed = 1;
	}
	if (depends != NULL)
		*depends = changed;
	return 0;
}
