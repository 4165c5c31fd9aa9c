/* symbols.c - names in shapes, bound and scaled (see symbols.h). */
#include "config.h"

#include "symbols.h"

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

int rl_symbols_dims(const struct rl_symbols *s, const char *text, uint64_t *dims,
                    unsigned char *sym, int max, int *n, struct rl_err *err)
{
	const char *p = text;
	int k = 0;

	for (p = text; *p != '\0'; p++)
		if (is_name_char(*p))
			break;
	if (*p == '\0') { /* numbers only: the strict parser and its messages */
		if (sym != NULL)
			memset(sym, 0, (size_t)max);
		return rl_parse_dims(text, dims, max, n, err);
	}
	for (p = text;;) {
		const char *x = strchr(p, 'x');
		size_t len = x ? (size_t)(x - p) : strlen(p);
		int i;

		if (k == max)
			return rl_err_set(err, RL_ERR_PARSE,
			                  "shape '%s' has more than %d dimensions", text, max);
		if (valid_name(p, len)) {
			i = find(s, p, len);
			if (i < 0)
				return rl_err_set(
				    err, RL_ERR_PARSE,
				    "name '%.*s' in shape '%s' is not bound (give its size "
				    "with --set %.*s=N)",
				    (int)len, p, text, (int)len, p);
			dims[k] = s->value[i];
			if (sym != NULL)
				sym[k] = (unsigned char)(i + 1);
		} else {
			char buf[32];
			uint64_t one = 0;
			int rc;

			if (len == 0 || len >= sizeof(buf))
				return rl_err_set(
				    err, RL_ERR_PARSE,
				    "shape '%s' is not dimensions or names joined by 'x' "
				    "(e.g. Bx4096)",
				    text);
			memcpy(buf, p, len);
			buf[len] = '\0';
			rc = rl_parse_u64(buf, &one, NULL);
			if (rc == RL_ERR_RANGE)
				return rl_err_set(err, rc, "shape '%s': dimension %s is too large",
				                  text, buf);
			if (rc < 0)
				return rl_err_set(
				    err, RL_ERR_PARSE,
				    "shape '%s' is not dimensions or names joined by 'x' "
				    "(e.g. Bx4096)",
				    text);
			if (one == 0)
				return rl_err_set(err, RL_ERR_RANGE,
				                  "shape '%s' has a zero dimension", text);
			dims[k] = one;
			if (sym != NULL)
				sym[k] = 0;
		}
		k++;
		if (x == NULL)
			break;
		p = x + 1;
	}
	*n = k;
	return 0;
}

int rl_symbols_apply(const struct rl_symbols *s, const struct rl_op *op, struct rl_op *out,
                     int *depends, struct rl_err *err)
{
	int i, changed = 0;

	*out = *op;
	for (i = 0; i < op->ndims; i++) {
		unsigned j = op->dim_sym[i];

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
