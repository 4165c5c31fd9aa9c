/* json.c - JSON writing helpers (see json.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
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
