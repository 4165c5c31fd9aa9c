/* err.c - status strings and the error record (see err.h). */
#include "config.h"

#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *rl_strerror(int code)
{
	switch (code) {
	case RL_OK: return "success";
	case RL_ERR_NOMEM: return "out of memory";
	case RL_ERR_IO: return "input/output error";
	case RL_ERR_PARSE: return "malformed input";
	case RL_ERR_ARG: return "invalid argument";
	case RL_ERR_NOTFOUND: return "not found";
	case RL_ERR_RANGE: return "number out of range";
	case RL_ERR_UNSUPPORTED: return "not supported by this build";
	case RL_ERR_DEVICE: return "GPU or CUDA runtime failure";
	}
	return "unknown error";
}

int rl_err_set(struct rl_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

void rl_err_clear(struct rl_err *err)
{
	if (err == NULL)
		return;
	err->code = RL_OK;
	err->msg[0] = '\0';
}

/* The length of the valid UTF-8 sequence of two to four bytes at P, or 0
 * (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF). */
static size_t utf8_seq(const unsigned char *p)
{
	unsigned char c = p[0];
	size_t n, i;
	unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range */

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

size_t rl_err_escape(char *buf, size_t n, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = 0, w = 0;
	int full = n == 0;

	while (*p != '\0') {
		size_t k = *p < 0x80 ? (*p >= 0x20 && *p != 0x7f) : utf8_seq(p), m;
		const char *out = (const char *)p;
		char esc[5];

		/* U+0080..U+009F, the C1 controls, are C2 80..C2 9F */
		if (k == 2 && p[0] == 0xc2 && p[1] <= 0x9f)
			k = 0;
		m = k;
		if (k == 0) {
			snprintf(esc, sizeof(esc), "\\x%02x", *p);
			out = esc;
			m = 4;
		}
		/* a whole character or escape, or nothing more */
		if (!full && w + m < n) {
			memcpy(buf + w, out, m);
			w += m;
		} else {
			full = 1;
		}
		len += m;
		p += k ? k : 1;
	}
	if (n > 0)
		buf[w] = '\0';
	return len;
}

void rl_errlist_init(struct rl_errlist *list)
{
	list->count = 0;
	list->kept = 0;
}

int rl_errlist_add(struct rl_errlist *list, const struct rl_err *err)
{
	list->count++;
	if (list->kept < RL_ERRLIST_MAX) {
		memcpy(list->msg[list->kept], err->msg, sizeof(list->msg[0]));
		list->kept++;
	}
	return list->kept >= RL_ERRLIST_MAX;
}

int rl_errlist_vaddf(struct rl_errlist *list, int code, const char *fmt, va_list ap)
{
	struct rl_err e;

	e.code = code;
	vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
	rl_errlist_add(list, &e);
	return code;
}

int rl_errlist_addf(struct rl_errlist *list, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rl_errlist_vaddf(list, code, fmt, ap);
	va_end(ap);
	return code;
}
