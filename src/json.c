/* json.c - JSON writing helpers (see json.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "json.h"

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

void rl_json_flush(yajl_gen g, FILE *out)
{
	const unsigned char *buf;
	size_t len;

	if (yajl_gen_get_buf(g, &buf, &len) == yajl_gen_status_ok) {
		fwrite(buf, 1, len, out);
		yajl_gen_clear(g);
	}
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
