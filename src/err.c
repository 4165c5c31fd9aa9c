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
