/* gzread.c - plain or gzip input through zlib's inflate (see gzread.h).
 *
 * zlib's gzread would do, but it ignores whatever follows the last gzip
 * member ("trailing garbage"), so a damaged or concatenated-with-junk file
 * reads as if it were whole. Here each member must be followed by another
 * member or by the end of the file. Input that does not start with the gzip
 * magic bytes is passed through as it is.
 */
#include "config.h"

#include "gzread.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* zlib's default 8 KiB buffers cost a call per 8 KiB; 128 KiB is the size
 * that stops mattering for a 100 MB trace. */
#define IN_SIZE (128 * 1024)

struct rl_gz {
	FILE *f;
	char *name;
	unsigned long long offset;     /* uncompressed bytes delivered */
	unsigned long long raw_offset; /* file bytes consumed by inflate */
	int gzip;                      /* the input starts with the gzip magic bytes */
	int in_member;                 /* inside a gzip member (inflate not at its end) */
	int eof;                       /* fread has seen the end of the file */
	int zinit;                     /* strm was initialised */
	z_stream strm;
	unsigned char in[IN_SIZE];
};

/* Reads more file bytes after the unread ones; returns how many arrived, 0 at
 * the end of the file, -1 on a read error. */
static long fill(rl_gz *gz)
{
	size_t keep = gz->strm.avail_in, got;

	if (gz->eof)
		return 0;
	if (keep > 0 && gz->strm.next_in != gz->in)
		memmove(gz->in, gz->strm.next_in, keep);
	got = fread(gz->in + keep, 1, IN_SIZE - keep, gz->f);
	if (got == 0) {
		if (ferror(gz->f))
			return -1;
		gz->eof = 1;
	}
	gz->strm.next_in = gz->in;
	gz->strm.avail_in = (uInt)(keep + got);
	return (long)got;
}

int rl_gz_open(const char *path, rl_gz **out, struct rl_err *err)
{
	int stdin_ = strcmp(path, "-") == 0;
	rl_gz *gz = calloc(1, sizeof(*gz));
	int e;

	if (gz == NULL || (gz->name = strdup(stdin_ ? "<stdin>" : path)) == NULL) {
		free(gz);
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	}
	errno = 0;
	if (stdin_) {
		int fd = dup(0);

		gz->f = fd >= 0 ? fdopen(fd, "rb") : NULL;
		if (gz->f == NULL && fd >= 0)
			close(fd);
	} else {
		gz->f = fopen(path, "rb");
	}
	if (gz->f == NULL) {
		e = errno;
		rl_gz_close(gz);
		return rl_err_set(err, RL_ERR_IO, "cannot open '%s': %s", path,
		                  strerror(e ? e : EIO));
	}
	gz->strm.next_in = gz->in;
	/* the magic bytes decide, as for zlib's gzread */
	while (gz->strm.avail_in < 2 && !gz->eof) {
		if (fill(gz) < 0) {
			e = errno;
			rl_gz_close(gz);
			return rl_err_set(err, RL_ERR_IO, "cannot read '%s': %s", path,
			                  strerror(e ? e : EIO));
		}
	}
	gz->gzip = gz->strm.avail_in >= 2 && gz->in[0] == 0x1f && gz->in[1] == 0x8b;
	if (gz->gzip) {
		/* 15 + 16: a gzip wrapper, the largest window */
		if (inflateInit2(&gz->strm, 15 + 16) != Z_OK) {
			rl_gz_close(gz);
			return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
		}
		gz->zinit = 1;
		gz->in_member = 1;
	}
	*out = gz;
	return 0;
}

static long read_error(rl_gz *gz, struct rl_err *err)
{
	return rl_err_set(err, RL_ERR_IO, "cannot read '%s': %s", gz->name,
	                  strerror(errno ? errno : EIO));
}

/* Plain input: what is buffered, then straight from the file. */
static long read_plain(rl_gz *gz, unsigned char *buf, size_t n, struct rl_err *err)
{
	size_t got;

	if (gz->strm.avail_in > 0) {
		got = n < gz->strm.avail_in ? n : gz->strm.avail_in;
		memcpy(buf, gz->strm.next_in, got);
		gz->strm.next_in += got;
		gz->strm.avail_in -= (uInt)got;
	} else {
		got = fread(buf, 1, n, gz->f);
		if (got == 0 && ferror(gz->f))
			return read_error(gz, err);
	}
	gz->offset += got;
	return (long)got;
}

long rl_gz_read(rl_gz *gz, void *buf, size_t n, struct rl_err *err)
{
	z_stream *s = &gz->strm;

	if (n > (1u << 30))
		n = 1u << 30;
	errno = 0;
	if (!gz->gzip)
		return read_plain(gz, buf, n, err);
	s->next_out = buf;
	s->avail_out = (uInt)n;
	while (s->avail_out > 0) {
		unsigned avail_before;
		int zrc;

		if (s->avail_in == 0 || (!gz->in_member && s->avail_in < 2 && !gz->eof)) {
			if (fill(gz) < 0)
				return read_error(gz, err);
			if (s->avail_in == 0) {
				if (gz->in_member)
					return rl_err_set(
					    err, RL_ERR_PARSE,
					    "%s: byte %llu: truncated gzip data (the file "
					    "ends inside the compressed stream)",
					    gz->name, gz->offset + (n - s->avail_out));
				break; /* the end, after a whole member */
			}
		}
		if (!gz->in_member) {
			/* after a member: another member, or nothing */
			if (s->avail_in < 2 || s->next_in[0] != 0x1f || s->next_in[1] != 0x8b)
				return rl_err_set(
				    err, RL_ERR_PARSE,
				    "%s: byte %llu of the file: data after the end of the "
				    "gzip stream (trailing garbage: the file is damaged)",
				    gz->name, gz->raw_offset);
			if (inflateReset(s) != Z_OK)
				return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
			gz->in_member = 1;
		}
		avail_before = s->avail_in;
		zrc = inflate(s, Z_NO_FLUSH);
		gz->raw_offset += avail_before - s->avail_in;
		if (zrc == Z_STREAM_END) {
			gz->in_member = 0;
		} else if (zrc == Z_MEM_ERROR) {
			return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
		} else if (zrc != Z_OK && zrc != Z_BUF_ERROR) {
			return rl_err_set(
			    err, RL_ERR_PARSE, "%s: byte %llu: damaged gzip data (%s)", gz->name,
			    gz->offset + (n - s->avail_out), s->msg ? s->msg : "inflate failed");
		}
	}
	gz->offset += n - s->avail_out;
	if (gz->offset > RL_GZ_RATIO_FROM && gz->offset / RL_GZ_MAX_RATIO > gz->raw_offset)
		return rl_err_set(err, RL_ERR_PARSE,
		                  "%s: byte %llu: %llu bytes of the file inflate to more than %d "
		                  "times as many (a trace inflates 8 to 17 times: not a trace)",
		                  gz->name, gz->offset, gz->raw_offset, RL_GZ_MAX_RATIO);
	return (long)(n - s->avail_out);
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
	if (gz->zinit)
		inflateEnd(&gz->strm);
	if (gz->f != NULL)
		fclose(gz->f);
	free(gz->name);
	free(gz);
}
