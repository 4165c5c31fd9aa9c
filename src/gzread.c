/* gzread.c - plain or gzip input through zlib's gz* functions (see gzread.h). */
#include "config.h"

#include "gzread.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

struct rl_gz {
	gzFile f;
	char *name;
	unsigned long long offset;
};

int rl_gz_open(const char *path, rl_gz **out, struct rl_err *err)
{
	int stdin_ = strcmp(path, "-") == 0;
	rl_gz *gz = calloc(1, sizeof(*gz));

	if (gz == NULL || (gz->name = strdup(stdin_ ? "<stdin>" : path)) == NULL) {
		free(gz);
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	}
	errno = 0;
	if (stdin_) {
		int fd = dup(0);

		gz->f = fd >= 0 ? gzdopen(fd, "rb") : NULL;
		if (gz->f == NULL && fd >= 0)
			close(fd);
	} else {
		gz->f = gzopen(path, "rb");
	}
	if (gz->f == NULL) {
		int e = errno;

		free(gz->name);
		free(gz);
		if (e == 0)
			return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
		return rl_err_set(err, RL_ERR_IO, "cannot open '%s': %s", path, strerror(e));
	}
	/* zlib's default 8 KiB buffers cost a call per 8 KiB; 128 KiB is the
	 * size that stops mattering for a 100 MB trace. */
	gzbuffer(gz->f, 128 * 1024);
	*out = gz;
	return 0;
}

long rl_gz_read(rl_gz *gz, void *buf, size_t n, struct rl_err *err)
{
	int got, zerr;
	const char *msg;

	if (n > (1u << 30))
		n = 1u << 30;
	errno = 0;
	got = gzread(gz->f, buf, (unsigned)n);
	if (got > 0) {
		gz->offset += (unsigned)got;
		return got;
	}
	msg = gzerror(gz->f, &zerr);
	/* zlib prefixes its message with the path */
	if (strncmp(msg, gz->name, strlen(gz->name)) == 0 && msg[strlen(gz->name)] == ':')
		msg += strlen(gz->name) + 1 + (msg[strlen(gz->name) + 1] == ' ');
	if (zerr == Z_OK || (got == 0 && zerr == Z_STREAM_END))
		return 0;
	if (zerr == Z_ERRNO)
		return rl_err_set(err, RL_ERR_IO, "cannot read '%s': %s", gz->name,
		                  strerror(errno ? errno : EIO));
	if (zerr == Z_BUF_ERROR)
		return rl_err_set(err, RL_ERR_PARSE, "%s: byte %llu: truncated gzip data (%s)",
		                  gz->name, gz->offset, msg);
	if (zerr == Z_MEM_ERROR)
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	return rl_err_set(err, RL_ERR_PARSE, "%s: byte %llu: damaged gzip data (%s)", gz->name,
	                  gz->offset, msg);
}

unsigned long long rl_gz_offset(const rl_gz *gz)
{
	return gz->offset;
}

const char *rl_gz_name(const rl_gz *gz)
{
	return gz->name;
}

void rl_gz_close(rl_gz *gz)
{
	if (gz == NULL)
		return;
	if (gz->f != NULL)
		gzclose(gz->f);
	free(gz->name);
	free(gz);
}
