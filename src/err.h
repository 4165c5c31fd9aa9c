/* err.h - status codes and the caller-owned error record.
 *
 * Library functions return 0 on success or a negative enum rl_status, and fill
 * a struct rl_err the caller owns with a message saying what failed first and
 * where ("ops.csv:12: column 'dtype': unknown dtype 'fp9' (...)"). The library
 * never prints and never exits; the CLI prints "roofline: <message>".
 */
#ifndef RL_ERR_H
#define RL_ERR_H

#include <stdarg.h>
#include <stddef.h>

enum rl_status {
	RL_OK = 0,
	RL_ERR_NOMEM = -1,    /* an allocation failed */
	RL_ERR_IO = -2,       /* a file could not be opened, read or written */
	RL_ERR_PARSE = -3,    /* malformed input */
	RL_ERR_ARG = -4,      /* an invalid argument or option value */
	RL_ERR_NOTFOUND = -5, /* a device, runtime or file that does not exist */
	RL_ERR_RANGE = -6,    /* a number out of range or a size that overflows */
	RL_ERR_UNSUPPORTED = -7, /* this build lacks the part asked for (CUDA) */
	RL_ERR_DEVICE = -8,   /* the GPU, its driver or its runtime failed */
};

#define RL_ERR_MSG_MAX 512

struct rl_err {
	int code;                 /* an enum rl_status, 0 when nothing failed */
	char msg[RL_ERR_MSG_MAX]; /* human-readable, no trailing newline */
};

/* Returns a static description of status code CODE; never free it. */
const char *rl_strerror(int code);

/* Records CODE and a printf-style message in ERR (which may be NULL) and
 * returns CODE, so that "return rl_err_set(err, RL_ERR_PARSE, ...)" reads well.
 * Messages longer than RL_ERR_MSG_MAX - 1 bytes are truncated. */
int rl_err_set(struct rl_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Clears ERR (NULL allowed). */
void rl_err_clear(struct rl_err *err);

/* Copies the text S into BUF (N bytes, N >= 1; BUF NULL when N is 0) with
 * every byte that could drive a terminal written as "\xNN": bytes below
 * 0x20 (newline and tab too), DEL (0x7f), bytes that are not part of a valid
 * UTF-8 sequence (so a lone C1 control such as 0x9b, CSI, is caught), and
 * the C1 controls U+0080..U+009F encoded in UTF-8. Valid UTF-8 text, a
 * backslash included, is kept as it is. Messages quote data files
 * ("unknown key '\x01\x1b[2J'"); the CLI passes every message through
 * this before printing it. The text is cut at a whole character or escape
 * when BUF is short, and always NUL-terminated. Returns the length the
 * whole escaped text has, as snprintf does. */
size_t rl_err_escape(char *buf, size_t n, const char *s);

/* A bounded list of errors, so that one run of a reader can report several
 * problems at once. Messages past RL_ERRLIST_MAX are counted, not kept. */
#define RL_ERRLIST_MAX 20

struct rl_errlist {
	size_t count;   /* errors seen, including those not kept */
	size_t kept;    /* messages stored in msg[] */
	char msg[RL_ERRLIST_MAX][RL_ERR_MSG_MAX];
};

void rl_errlist_init(struct rl_errlist *list);

/* Appends the message of ERR to LIST. Returns nonzero when LIST is full, so a
 * reader knows to stop. */
int rl_errlist_add(struct rl_errlist *list, const struct rl_err *err);

/* Appends a message formatted from FMT to LIST; returns CODE, so that
 * "return rl_errlist_addf(list, RL_ERR_PARSE, ...)" reads well. */
int rl_errlist_addf(struct rl_errlist *list, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same with the arguments in AP. */
int rl_errlist_vaddf(struct rl_errlist *list, int code, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#endif
