/* kvfile.h - the "key = value ; source" line format of hwdb/ and of recorded
 * GPU attribute sets.
 *
 * One "key = value" per line; '#' starts a comment line; " ;" (a semicolon
 * after a blank) starts the value's source; "source LABEL = TEXT" defines a
 * label that later sources expand ("ds: p. 3" -> "<TEXT>: p. 3").
 * docs/hwdb-format.md is the contract. The reader only splits lines: what
 * keys mean, and which need a source, is its callers' business.
 */
#ifndef RL_KVFILE_H
#define RL_KVFILE_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"

#define RL_KV_MAX_LABELS 16
/* The longest line read, in bytes: a device file's lines are under 200. */
#define RL_KV_LINE_MAX 65536

struct rl_kvfile {
	const char *path;
	FILE *f;
	char *line;
	size_t cap;
	size_t lineno; /* of the line last returned */
	char *label[RL_KV_MAX_LABELS];
	char *label_text[RL_KV_MAX_LABELS];
	int nlabels;
};

/* Opens PATH for reading: a regular file or a pipe (a device node such as
 * /dev/zero, or a directory, is refused). The open never blocks: a fifo
 * with no writer reads as an empty file. Returns 0 or RL_ERR_IO. Close with
 * rl_kv_close, also after a failure. */
int rl_kv_open(struct rl_kvfile *kv, const char *path, struct rl_err *err);
void rl_kv_close(struct rl_kvfile *kv);

/* Whether NAME, an entry of the directory DIR that a scan (the database's,
 * the efficiency profiles') found, is a file to read: 1 with "DIR/NAME" in
 * *PATH (malloc'ed, the caller frees) for a regular file or a link to one
 * (and for an entry stat cannot look at for another reason, whose open
 * will say why); 0 (*PATH NULL) for anything else, which the scan skips
 * without a word: a fifo, socket, device node or directory, a dangling or
 * looping link (docs/hwdb-format.md). RL_ERR_NOMEM. Nothing is opened, so
 * nothing blocks. */
int rl_kv_scan_entry(const char *dir, const char *name, char **path, struct rl_err *err);

/* Reads the next "key = value [; source]" line. Returns 1 with *KEY and *VAL
 * (borrowed, valid until the next call) and *SRC (NULL when none, else
 * malloc'ed with labels expanded: the caller frees it), 0 at the end of the
 * file, or a negative status with "PATH:LINE: ..." in ERR (RL_ERR_PARSE for
 * a NUL byte or a line longer than RL_KV_LINE_MAX bytes). */
int rl_kv_next(struct rl_kvfile *kv, char **key, char **val, char **src,
               struct rl_err *err);

/* Writes HEADER (NULL: none; several lines allowed) to F as '#' comment
 * lines, then a blank line. */
void rl_kv_write_header(FILE *f, const char *header);

/* Writes "KEY = VALUE ; SOURCE" to F (without "; SOURCE" when SOURCE is
 * NULL; nothing when VALUE is NULL), KEY padded to KEYW columns and, before
 * a source, VALUE to VALW. */
void rl_kv_write_line(FILE *f, const char *key, const char *value, const char *source, int keyw,
                      int valw);

#endif
