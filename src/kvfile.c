/* kvfile.c - reading "key = value ; source" lines (see kvfile.h). */
#include "config.h"

#include "kvfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}


/* The label of KV that starts at P and ends in ':' (or, at the start of the
 * source, at the end, ',' or ':'), or -1. */
static int label_at(const struct rl_kvfile *kv, const char *p, int at_start)
{
	int i;

	for (i = 0; i < kv->nlabels; i++) {
		size_t n = strlen(kv->label[i]);

		if (strncmp(p, kv->label[i], n) == 0 &&
		    (p[n] == ':' || (at_start && (p[n] == '\0' || p[n] == ','))))
			return i;
	}
	return -1;
}

/* Expands source labels: "ds: p. 3, wp: table 2" becomes "<text of ds>: p. 3,
 * <text of wp>: table 2". A label counts at the start of the source or of a
 * word, followed by ':' (at the start also alone or before ','). Returns a
 * malloc'ed string or NULL. */
static char *expand_source(const struct rl_kvfile *kv, const char *src)
{
	size_t cap = strlen(src) + 1, len = 0, i;
	char *out;
	const char *p;

	for (p = src; *p != '\0'; p++) {
		int at_word = p == src || p[-1] == ' ' || p[-1] == '(';
		int l = at_word ? label_at(kv, p, p == src) : -1;

		if (l >= 0)
			cap += strlen(kv->label_text[l]);
	}
	out = malloc(cap);
	if (out == NULL)
		return NULL;
	for (p = src; *p != '\0';) {
		int at_word = p == src || p[-1] == ' ' || p[-1] == '(';
		int l = at_word ? label_at(kv, p, p == src) : -1;

		if (l >= 0) {
			i = strlen(kv->label_text[l]);
			memcpy(out + len, kv->label_text[l], i);
			len += i;
			p += strlen(kv->label[l]);
		} else {
			out[len++] = *p++;
		}
	}
	out[len] = '\0';
	return out;
}

void rl_kv_close(struct rl_kvfile *kv)
{
	int i;

	if (kv->f != NULL)
		fclose(kv->f);
	free(kv->line);
	for (i = 0; i < kv->nlabels; i++) {
		free(kv->label[i]);
		free(kv->label_text[i]);
	}
}

int rl_kv_open(struct rl_kvfile *kv, const char *path, struct rl_err *err)
{
	struct stat st;
	int fd, e;

	memset(kv, 0, sizeof(*kv));
	kv->path = path;
	/* O_NONBLOCK: opening a fifo that no one writes would wait for a
	 * writer forever (a fifo named x.device in the database blocked every
	 * command, issue 21); this way it opens at once, and with no writer
	 * it reads as empty. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return rl_err_set(err, RL_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
	/* A device node such as /dev/zero or /dev/urandom never ends: only
	 * regular files and pipes (a shell's <(...)) are read. */
	if (fstat(fd, &st) < 0) {
		e = errno;
		close(fd);
		return rl_err_set(err, RL_ERR_IO, "cannot read '%s': %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		close(fd);
		return rl_err_set(err, RL_ERR_IO, "cannot read '%s': %s", path,
		                  S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
	}
	/* reads wait for a pipe's writer, as they would have */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0 ||
	    (kv->f = fdopen(fd, "r")) == NULL) {
		e = errno;
		close(fd);
		return rl_err_set(err, RL_ERR_IO, "cannot read '%s': %s", path, strerror(e));
	}
	return 0;
}

int rl_kv_scan_entry(const char *dir, const char *name, char **path, struct rl_err *err)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	struct stat st;

	*path = malloc(len);
	if (*path == NULL)
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	snprintf(*path, len, "%s/%s", dir, name);
	/* stat, not lstat: a link to a file is the file */
	if (stat(*path, &st) == 0 ? S_ISREG(st.st_mode) : errno != ENOENT && errno != ELOOP)
		return 1; /* an error other than a dangling link is rl_kv_open's to say */
	free(*path);
	*path = NULL;
	return 0;
}

/* Reads one line into kv->line (without its newline), at most
 * RL_KV_LINE_MAX bytes. Returns 1, 0 at the end of the file, or a negative
 * status: a NUL byte or an overlong line is refused as soon as it is seen,
 * so that no input makes the reader grow without bound. */
static int read_line(struct rl_kvfile *kv, struct rl_err *err)
{
	size_t n = 0;
	int c;

	while ((c = getc(kv->f)) != EOF && c != '\n') {
		if (c == '\0')
			return rl_err_set(err, RL_ERR_PARSE, "%s:%zu: NUL byte in a text file",
			                  kv->path, kv->lineno + 1);
		if (n == RL_KV_LINE_MAX)
			return rl_err_set(err, RL_ERR_PARSE,
			                  "%s:%zu: line longer than %d bytes (not a text file?)",
			                  kv->path, kv->lineno + 1, RL_KV_LINE_MAX);
		if (n + 1 >= kv->cap) {
			size_t cap = kv->cap ? 2 * kv->cap : 256;
			char *l = realloc(kv->line, cap);

			if (l == NULL)
				return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
			kv->line = l;
			kv->cap = cap;
		}
		kv->line[n++] = (char)c;
	}
	if (c == EOF && ferror(kv->f))
		return rl_err_set(err, RL_ERR_IO, "cannot read '%s': %s", kv->path,
		                  strerror(errno));
	if (c == EOF && n == 0)
		return 0;
	if (kv->line == NULL && (kv->line = malloc(kv->cap = 256)) == NULL)
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	kv->line[n] = '\0';
	kv->lineno++;
	return 1;
}

/* Reads the next "key = value [; source]" line. Returns 1 with *KEY, *VAL and
 * *SRC (NULL when none; malloc'ed, the caller frees) set, 0 at the end, or a
 * negative status. "source LABEL = TEXT" lines are consumed here. */
int rl_kv_next(struct rl_kvfile *kv, char **key, char **val, char **src,
                   struct rl_err *err)
{
	int rc;

	while ((rc = read_line(kv, err)) > 0) {
		char *s, *eq, *semi;

		s = trim(kv->line);
		if (*s == '\0' || *s == '#')
			continue;
		eq = strchr(s, '=');
		if (eq == NULL)
			return rl_err_set(err, RL_ERR_PARSE,
			                  "%s:%zu: expected 'key = value', got '%.60s'",
			                  kv->path, kv->lineno, s);
		*eq = '\0';
		*key = trim(s);
		s = eq + 1;
		/* The source starts at " ;" so that a ';' inside a word stays. */
		*src = NULL;
		for (semi = strchr(s, ';'); semi != NULL; semi = strchr(semi + 1, ';'))
			if (semi == s || isspace((unsigned char)semi[-1]))
				break;
		if (semi != NULL) {
			*semi = '\0';
			*src = trim(semi + 1);
		}
		*val = trim(s);
		if (strncmp(*key, "source", 6) == 0 && isspace((unsigned char)(*key)[6])) {
			char *label = trim(*key + 6);

			if (kv->nlabels == RL_KV_MAX_LABELS)
				return rl_err_set(err, RL_ERR_PARSE, "%s:%zu: more than %d sources",
				                  kv->path, kv->lineno, RL_KV_MAX_LABELS);
			kv->label[kv->nlabels] = strdup(label);
			kv->label_text[kv->nlabels] = strdup(*val);
			if (kv->label[kv->nlabels] == NULL || kv->label_text[kv->nlabels] == NULL)
				return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
			kv->nlabels++;
			continue;
		}
		if (**key == '\0')
			return rl_err_set(err, RL_ERR_PARSE, "%s:%zu: empty key", kv->path,
			                  kv->lineno);
		if (*src != NULL) {
			*src = expand_source(kv, *src);
			if (*src == NULL)
				return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
		}
		return 1;
	}
	return rc;
}

void rl_kv_write_header(FILE *f, const char *header)
{
	const char *p = header;

	while (p != NULL && *p != '\0') {
		size_t n = strcspn(p, "\n");

		fprintf(f, "# %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	if (header != NULL)
		fputc('\n', f);
}

void rl_kv_write_line(FILE *f, const char *key, const char *value, const char *source, int keyw,
                      int valw)
{
	if (value == NULL)
		return;
	if (source != NULL)
		fprintf(f, "%-*s = %-*s ; %s\n", keyw, key, valw, value, source);
	else
		fprintf(f, "%-*s = %s\n", keyw, key, value);
}
