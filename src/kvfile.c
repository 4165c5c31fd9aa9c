/* kvfile.c - reading "key = value ; source" lines (see kvfile.h). */
#include "config.h"

#include "kvfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	memset(kv, 0, sizeof(*kv));
	kv->path = path;
	kv->f = fopen(path, "r");
	if (kv->f == NULL)
		return rl_err_set(err, RL_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
	return 0;
}

/* Reads the next "key = value [; source]" line. Returns 1 with *KEY, *VAL and
 * *SRC (NULL when none; malloc'ed, the caller frees) set, 0 at the end, or a
 * negative status. "source LABEL = TEXT" lines are consumed here. */
int rl_kv_next(struct rl_kvfile *kv, char **key, char **val, char **src,
                   struct rl_err *err)
{
	ssize_t n;

	while ((n = getline(&kv->line, &kv->cap, kv->f)) >= 0) {
		char *s, *eq, *semi;

		kv->lineno++;
		if ((size_t)n != strlen(kv->line))
			return rl_err_set(err, RL_ERR_PARSE, "%s:%zu: NUL byte in a text file",
			                  kv->path, kv->lineno);
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
	if (ferror(kv->f))
		return rl_err_set(err, RL_ERR_IO, "cannot read '%s': %s", kv->path,
		                  strerror(errno));
	return 0;
}

