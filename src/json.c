/* json.c - JSON helpers: writing with yajl_gen, reading a whole file for
 * yajl's tree parser (see json.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "json.h"

/* The largest file rl_json_slurp reads. */
#define MAX_FILE (64u << 20)

void rl_json_str(yajl_gen g, const char *s)
{
	yajl_gen_string(g, (const unsigned char *)s, strlen(s));
}

void rl_json_num(yajl_gen g, double v)
{
	char b[64];

	if (!isfinite(v)) {
		yajl_gen_null(g);
		return;
	}
	rl_fmt_num(b, v);
	yajl_gen_number(g, b, strlen(b));
}

void rl_json_kv(yajl_gen g, const char *key, const char *v)
{
	rl_json_str(g, key);
	if (v == NULL)
		yajl_gen_null(g);
	else
		rl_json_str(g, v);
}

void rl_json_kn(yajl_gen g, const char *key, double v)
{
	rl_json_str(g, key);
	rl_json_num(g, v);
}

void rl_json_ku(yajl_gen g, const char *key, uint64_t v)
{
	char b[32];

	rl_json_str(g, key);
	yajl_gen_number(g, b, rl_fmt_u64(b, v));
}

void rl_json_flush(yajl_gen g, FILE *out)
{
	const unsigned char *buf;
	size_t len;

	if (yajl_gen_get_buf(g, &buf, &len) == yajl_gen_status_ok) {
		fwrite(buf, 1, len, out);
		yajl_gen_clear(g);
	}
}

void rl_json_num7(yajl_gen g, double v)
{
	char buf[32];
	int n;

	/* "%g" writes inf and nan, which are not JSON */
	if (!isfinite(v)) {
		yajl_gen_null(g);
		return;
	}
	n = snprintf(buf, sizeof(buf), "%.7g", v);
	yajl_gen_number(g, buf, (size_t)n);
}

void rl_json_k7(yajl_gen g, const char *key, double v)
{
	rl_json_str(g, key);
	rl_json_num7(g, v);
}

yajl_val rl_json_member(yajl_val obj, const char *key)
{
	size_t i;

	for (i = 0; i < obj->u.object.len; i++)
		if (strcmp(obj->u.object.keys[i], key) == 0)
			return obj->u.object.values[i];
	return NULL;
}

/* Where TEXT first nests deeper than RL_JSON_MAX_DEPTH: its line and
 * column (of bytes, from 1) in *LINE and *COL, and 1; 0 when it does not.
 * Brackets inside strings do not count; anything else malformed is left to
 * yajl. */
static int too_deep(const char *text, size_t *line, size_t *col)
{
	const char *p, *bol = text;
	size_t depth = 0, ln = 1;
	int in_str = 0;

	for (p = text; *p != '\0'; p++) {
		if (*p == '\n') {
			ln++;
			bol = p + 1;
		} else if (in_str) {
			if (*p == '\\' && p[1] != '\0')
				p++; /* an escaped quote or backslash (never a newline) */
			else if (*p == '"')
				in_str = 0;
		} else if (*p == '"') {
			in_str = 1;
		} else if (*p == '[' || *p == '{') {
			if (++depth > RL_JSON_MAX_DEPTH) {
				*line = ln;
				*col = (size_t)(p - bol) + 1;
				return 1;
			}
		} else if ((*p == ']' || *p == '}') && depth > 0) {
			depth--;
		}
	}
	return 0;
}

yajl_val rl_json_parse(const char *text, const char *name, struct rl_err *err)
{
	char ebuf[256];
	size_t line, col;
	yajl_val root;

	if (too_deep(text, &line, &col)) {
		rl_err_set(err, RL_ERR_PARSE, "%s:%zu:%zu: nesting deeper than %d levels", name, line,
		           col, RL_JSON_MAX_DEPTH);
		return NULL;
	}
	ebuf[0] = '\0';
	root = yajl_tree_parse(text, ebuf, sizeof(ebuf));
	if (root == NULL) {
		ebuf[strcspn(ebuf, "\n")] = '\0';
		rl_err_set(err, RL_ERR_PARSE, "%s: not JSON (%s)", name, ebuf);
	}
	return root;
}

char *rl_json_slurp(const char *path, const char *what, struct rl_err *err)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (f == NULL) {
		rl_err_set(err, RL_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;

		if (cap - n < 65536) {
			char *p;

			cap = cap ? 2 * cap : 1 << 16;
			if (cap > MAX_FILE + 65536u) {
				rl_err_set(err, RL_ERR_PARSE, "%s: larger than %u MiB: not %s",
				           path, MAX_FILE >> 20, what);
				goto fail;
			}
			p = realloc(buf, cap + 1);
			if (p == NULL) {
				rl_err_set(err, RL_ERR_NOMEM, "out of memory");
				goto fail;
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		rl_err_set(err, RL_ERR_IO, "cannot read '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (memchr(buf, '\0', n) != NULL) {
		rl_err_set(err, RL_ERR_PARSE, "%s: NUL byte: not %s", path, what);
		goto fail;
	}
	buf[n] = '\0';
	if (f != stdin)
		fclose(f);
	return buf;
fail:
	free(buf);
	if (f != stdin)
		fclose(f);
	return NULL;
}

void rl_json_writer_flush(struct rl_json_writer *w)
{
	fwrite(w->buf, 1, w->len, w->out);
	w->len = 0;
}

static void writer_print(void *ctx, const char *s, size_t len)
{
	struct rl_json_writer *w = ctx;

	/* most tokens are a byte or two (quotes, colons, commas) */
	if (len <= 2 && w->len + 2 <= sizeof(w->buf)) {
		if (len > 0)
			w->buf[w->len] = s[0];
		if (len == 2)
			w->buf[w->len + 1] = s[1];
		w->len += len;
		return;
	}
	if (len > sizeof(w->buf) - w->len) {
		rl_json_writer_flush(w);
		if (len > sizeof(w->buf)) {
			fwrite(s, 1, len, w->out);
			return;
		}
	}
	memcpy(w->buf + w->len, s, len);
	w->len += len;
}

struct rl_json_writer *rl_json_writer_new(FILE *out)
{
	struct rl_json_writer *w = malloc(sizeof(*w));

	if (w == NULL)
		return NULL;
	w->out = out;
	w->len = 0;
	w->g = yajl_gen_alloc(NULL);
	if (w->g == NULL) {
		free(w);
		return NULL;
	}
	yajl_gen_config(w->g, yajl_gen_print_callback, writer_print, w);
	return w;
}

void rl_json_writer_free(struct rl_json_writer *w)
{
	if (w == NULL)
		return;
	yajl_gen_free(w->g);
	free(w);
}
