/* gzread.h - reading a plain or gzip-compressed file in chunks.
 *
 * Profiler traces come as "trace.json" or "trace.json.gz"; zlib's gzread
 * reads both the same way, so the trace reader has one input path. Offsets
 * and sizes are of the uncompressed data. An rl_gz owns its zlib stream and
 * is freed with rl_gz_close.
 */
#ifndef RL_GZREAD_H
#define RL_GZREAD_H

#include <stddef.h>

#include "err.h"

typedef struct rl_gz rl_gz;

/* A gzip stream that inflates more than RL_GZ_MAX_RATIO times, past its
 * first RL_GZ_RATIO_FROM bytes, is refused: the profiler traces of
 * tests/data inflate 8 to 17 times, and deflate's limit is about 1032, which
 * a file of one repeated byte reaches (2 MB of gzip gave 2 GB of blanks that
 * took a minute to read, issue 21). */
#define RL_GZ_MAX_RATIO  200
#define RL_GZ_RATIO_FROM (64ull << 20)

/* Opens PATH ("-" reads standard input, named "<stdin>"). Returns 0, or
 * RL_ERR_IO with "cannot open 'PATH': reason" in ERR, or RL_ERR_NOMEM. */
int rl_gz_open(const char *path, rl_gz **out, struct rl_err *err);

/* Reads up to N uncompressed bytes into BUF. Returns the number read, 0 at the
 * end of the data, or a negative status with a message in ERR: RL_ERR_PARSE
 * for a damaged or truncated gzip stream ("PATH: byte OFFSET: truncated gzip
 * data") or one that inflates past RL_GZ_MAX_RATIO, RL_ERR_IO for a read
 * error. */
long rl_gz_read(rl_gz *gz, void *buf, size_t n, struct rl_err *err);

/* Uncompressed bytes delivered so far. */
unsigned long long rl_gz_offset(const rl_gz *gz);

/* The name used in messages: the path, or "<stdin>". Borrowed from the rl_gz. */
const char *rl_gz_name(const rl_gz *gz);

/* Closes GZ (NULL allowed). */
void rl_gz_close(rl_gz *gz);

#endif
