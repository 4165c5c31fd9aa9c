/* hwdb.c - reading device and runtime files, and looking devices up (see hwdb.h). */
#include "config.h"

#include "hwdb.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "num.h"

/* Documentation order of the numeric keys (docs/hwdb-format.md). */
static const struct {
	enum rl_hw_key key;
	const char *name;
} num_keys[] = {
	{RL_HW_COMPUTE_CAPABILITY, "compute_capability"},
	{RL_HW_SM_COUNT, "sm_count"},
	{RL_HW_BOOST_CLOCK_MHZ, "boost_clock_mhz"},
	{RL_HW_TENSOR_CLOCK_MHZ, "tensor_clock_mhz"},
	{RL_HW_MEMORY_GIB, "memory_gib"},
	{RL_HW_MEM_BANDWIDTH_GBS, "mem_bandwidth_gbs"},
	{RL_HW_L2_MIB, "l2_mib"},
	{(enum rl_hw_key)RL_PIPE_FP64_VECTOR, "fp64_vector_tflops"},
	{(enum rl_hw_key)RL_PIPE_FP64_TENSOR, "fp64_tensor_tflops"},
	{(enum rl_hw_key)RL_PIPE_FP32_VECTOR, "fp32_vector_tflops"},
	{(enum rl_hw_key)RL_PIPE_FP16_VECTOR, "fp16_vector_tflops"},
	{(enum rl_hw_key)RL_PIPE_BF16_VECTOR, "bf16_vector_tflops"},
	{(enum rl_hw_key)RL_PIPE_TF32_TENSOR, "tf32_tensor_tflops"},
	{(enum rl_hw_key)RL_PIPE_FP16_TENSOR, "fp16_tensor_tflops"},
	{(enum rl_hw_key)RL_PIPE_BF16_TENSOR, "bf16_tensor_tflops"},
	{(enum rl_hw_key)RL_PIPE_FP8_TENSOR, "fp8_tensor_tflops"},
	{(enum rl_hw_key)RL_PIPE_INT8_TENSOR, "int8_tensor_tops"},
	{RL_HW_MIN_KERNEL_US, "min_kernel_us"},
};
#define N_NUM_KEYS (sizeof(num_keys) / sizeof(num_keys[0]))

const char *rl_hw_key_name(enum rl_hw_key k)
{
	size_t i;

	for (i = 0; i < N_NUM_KEYS; i++)
		if (num_keys[i].key == k)
			return num_keys[i].name;
	return "?";
}

/* ---- the "key = value ; source" line format ---- */

#define MAX_LABELS 16

struct kvfile {
	const char *path;
	FILE *f;
	char *line;
	size_t cap;
	size_t lineno;
	char *label[MAX_LABELS];
	char *label_text[MAX_LABELS];
	int nlabels;
};

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

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p != NULL)
		memcpy(p, s, n);
	return p;
}

/* The label of KV that starts at P and ends in ':' (or, at the start of the
 * source, at the end, ',' or ':'), or -1. */
static int label_at(const struct kvfile *kv, const char *p, int at_start)
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
static char *expand_source(const struct kvfile *kv, const char *src)
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

static void kv_close(struct kvfile *kv)
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

static int kv_open(struct kvfile *kv, const char *path, struct rl_err *err)
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
static int kv_next(struct kvfile *kv, char **key, char **val, char **src,
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

			if (kv->nlabels == MAX_LABELS)
				return rl_err_set(err, RL_ERR_PARSE, "%s:%zu: more than %d sources",
				                  kv->path, kv->lineno, MAX_LABELS);
			kv->label[kv->nlabels] = xstrdup(label);
			kv->label_text[kv->nlabels] = xstrdup(*val);
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

/* Parses a numeric value with its mandatory source into *V (takes SRC). */
static int set_number(struct kvfile *kv, struct rl_hwval *v, const char *key,
                      const char *val, char *src, struct rl_err *err)
{
	struct rl_err e;

	if (v->present) {
		free(src);
		return rl_err_set(err, RL_ERR_PARSE, "%s:%zu: key '%s' given twice",
		                  kv->path, kv->lineno, key);
	}
	if (rl_parse_nonneg(val, &v->value, &e) < 0) {
		free(src);
		return rl_err_set(err, RL_ERR_PARSE, "%s:%zu: key '%s': %s", kv->path,
		                  kv->lineno, key, e.msg);
	}
	if (src == NULL || *src == '\0') {
		free(src);
		return rl_err_set(err, RL_ERR_PARSE,
		                  "%s:%zu: key '%s': a number needs its source after ' ; '",
		                  kv->path, kv->lineno, key);
	}
	v->text = xstrdup(val);
	v->source = src;
	v->present = 1;
	if (v->text == NULL)
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	return 0;
}

static int set_string(struct kvfile *kv, char **slot, const char *key,
                      const char *val, char *src, struct rl_err *err)
{
	free(src);
	if (*slot != NULL)
		return rl_err_set(err, RL_ERR_PARSE, "%s:%zu: key '%s' given twice",
		                  kv->path, kv->lineno, key);
	if (*val == '\0')
		return rl_err_set(err, RL_ERR_PARSE, "%s:%zu: key '%s' has no value",
		                  kv->path, kv->lineno, key);
	*slot = xstrdup(val);
	return *slot == NULL ? rl_err_set(err, RL_ERR_NOMEM, "out of memory") : 0;
}

static const char *const device_string_keys[] = {"id", "aliases", "name", "vendor", "arch"};

static char **device_string_slot(struct rl_device *d, size_t i)
{
	char **slots[] = {&d->id, &d->aliases, &d->name, &d->vendor, &d->arch};

	return slots[i];
}

int rl_device_load(const char *path, struct rl_device *d, struct rl_err *err)
{
	static const enum rl_hw_key required[] = {
		RL_HW_SM_COUNT, RL_HW_MEM_BANDWIDTH_GBS,
		(enum rl_hw_key)RL_PIPE_FP32_VECTOR, RL_HW_MIN_KERNEL_US};
	struct kvfile kv;
	char *key, *val, *src;
	size_t i;
	int rc;

	memset(d, 0, sizeof(*d));
	rc = kv_open(&kv, path, err);
	if (rc < 0)
		return rc;
	while ((rc = kv_next(&kv, &key, &val, &src, err)) > 0) {
		for (i = 0; i < 5; i++)
			if (strcmp(key, device_string_keys[i]) == 0)
				break;
		if (i < 5) {
			rc = set_string(&kv, device_string_slot(d, i), key, val, src, err);
		} else {
			for (i = 0; i < N_NUM_KEYS; i++)
				if (strcmp(key, num_keys[i].name) == 0)
					break;
			if (i == N_NUM_KEYS) {
				free(src);
				rc = rl_err_set(err, RL_ERR_PARSE, "%s:%zu: unknown key '%s'",
				                path, kv.lineno, key);
			} else {
				rc = set_number(&kv, &d->num[num_keys[i].key], key, val, src, err);
			}
		}
		if (rc < 0)
			break;
	}
	kv_close(&kv);
	if (rc == 0 && (d->id == NULL || d->name == NULL))
		rc = rl_err_set(err, RL_ERR_PARSE, "%s: missing key '%s'", path,
		                d->id == NULL ? "id" : "name");
	for (i = 0; rc == 0 && i < sizeof(required) / sizeof(required[0]); i++)
		if (!d->num[required[i]].present || d->num[required[i]].value <= 0)
			rc = rl_err_set(err, RL_ERR_PARSE, "%s: key '%s' is required and must be above 0",
			                path, rl_hw_key_name(required[i]));
	if (rc == 0)
		d->path = xstrdup(path);
	if (rc < 0)
		rl_device_release(d);
	return rc;
}

void rl_device_release(struct rl_device *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < 5; i++)
		free(*device_string_slot(d, i));
	free(d->path);
	for (i = 0; i < RL_HW_NUM_COUNT; i++) {
		free(d->num[i].text);
		free(d->num[i].source);
	}
	memset(d, 0, sizeof(*d));
}

void rl_device_each(const struct rl_device *d,
                    void (*fn)(const char *key, const char *value,
                               const char *source, void *user),
                    void *user)
{
	size_t i;

	for (i = 0; i < 5; i++)
		fn(device_string_keys[i], *device_string_slot((struct rl_device *)d, i),
		   NULL, user);
	for (i = 0; i < N_NUM_KEYS; i++) {
		const struct rl_hwval *v = &d->num[num_keys[i].key];

		fn(num_keys[i].name, v->present ? v->text : NULL,
		   v->present ? v->source : NULL, user);
	}
}

double rl_device_peak_flops(const struct rl_device *d, enum rl_pipe p)
{
	if (p == RL_PIPE_NONE || !d->num[p].present)
		return 0;
	return d->num[p].value * 1e12;
}

double rl_device_bandwidth_bytes_per_s(const struct rl_device *d)
{
	return d->num[RL_HW_MEM_BANDWIDTH_GBS].value * 1e9;
}

int rl_runtime_load(const char *path, struct rl_runtime *rt, struct rl_err *err)
{
	struct kvfile kv;
	char *key, *val, *src;
	int rc;

	memset(rt, 0, sizeof(*rt));
	rc = kv_open(&kv, path, err);
	if (rc < 0)
		return rc;
	while ((rc = kv_next(&kv, &key, &val, &src, err)) > 0) {
		if (strcmp(key, "id") == 0)
			rc = set_string(&kv, &rt->id, key, val, src, err);
		else if (strcmp(key, "name") == 0)
			rc = set_string(&kv, &rt->name, key, val, src, err);
		else if (strcmp(key, "host_overhead_us") == 0)
			rc = set_number(&kv, &rt->host_overhead_us, key, val, src, err);
		else {
			free(src);
			rc = rl_err_set(err, RL_ERR_PARSE, "%s:%zu: unknown key '%s'", path,
			                kv.lineno, key);
		}
		if (rc < 0)
			break;
	}
	kv_close(&kv);
	if (rc == 0 && (rt->id == NULL || rt->name == NULL || !rt->host_overhead_us.present))
		rc = rl_err_set(err, RL_ERR_PARSE, "%s: a runtime needs 'id', 'name' and 'host_overhead_us'",
		                path);
	if (rc == 0)
		rt->path = xstrdup(path);
	if (rc < 0)
		rl_runtime_release(rt);
	return rc;
}

void rl_runtime_release(struct rl_runtime *rt)
{
	if (rt == NULL)
		return;
	free(rt->id);
	free(rt->name);
	free(rt->path);
	free(rt->host_overhead_us.text);
	free(rt->host_overhead_us.source);
	memset(rt, 0, sizeof(*rt));
}

/* ---- the database directory ---- */

struct rl_hwdb {
	char *dir;
	struct rl_device *dev;
	size_t ndev;
	struct rl_runtime *rt;
	size_t nrt;
};

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && strcmp(s + n - m, suffix) == 0;
}

static int cmp_device(const void *a, const void *b)
{
	return strcmp(((const struct rl_device *)a)->id, ((const struct rl_device *)b)->id);
}

static int cmp_runtime(const void *a, const void *b)
{
	return strcmp(((const struct rl_runtime *)a)->id, ((const struct rl_runtime *)b)->id);
}

/* Nonzero when NAME is the id of D or one of its comma-separated aliases. */
static int matches_name(const struct rl_device *d, const char *name)
{
	const char *p = d->aliases;

	if (strcasecmp(d->id, name) == 0)
		return 1;
	while (p != NULL && *p != '\0') {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		while (len > 0 && isspace((unsigned char)*p))
			p++, len--;
		while (len > 0 && isspace((unsigned char)p[len - 1]))
			len--;
		if (len == strlen(name) && strncasecmp(p, name, len) == 0)
			return 1;
		p = e ? e + 1 : NULL;
	}
	return 0;
}

/* Makes room for one more element after the N in *ARR. */
static int grow(void **arr, size_t n, size_t size, struct rl_err *err)
{
	void *p = realloc(*arr, (n + 1) * size);

	if (p == NULL)
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	*arr = p;
	return 0;
}

int rl_hwdb_open(const char *dir, rl_hwdb **out, struct rl_err *err)
{
	rl_hwdb *db = calloc(1, sizeof(*db));
	DIR *dp;
	struct dirent *de;
	int rc = 0;
	size_t i, j;

	if (db == NULL)
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	db->dir = xstrdup(dir);
	dp = opendir(dir);
	if (dp == NULL) {
		rc = rl_err_set(err, RL_ERR_IO, "cannot open device database '%s': %s", dir,
		                strerror(errno));
		rl_hwdb_free(db);
		return rc;
	}
	while (rc == 0 && (de = readdir(dp)) != NULL) {
		int is_dev = has_suffix(de->d_name, ".device");
		int is_rt = has_suffix(de->d_name, ".runtime");
		size_t len;
		char *path;

		if (!is_dev && !is_rt)
			continue;
		len = strlen(dir) + strlen(de->d_name) + 2;
		path = malloc(len);
		if (path == NULL) {
			rc = rl_err_set(err, RL_ERR_NOMEM, "out of memory");
			break;
		}
		snprintf(path, len, "%s/%s", dir, de->d_name);
		if (is_dev) {
			rc = grow((void **)&db->dev, db->ndev, sizeof(*db->dev), err);
			if (rc == 0 && (rc = rl_device_load(path, &db->dev[db->ndev], err)) == 0)
				db->ndev++;
		} else {
			rc = grow((void **)&db->rt, db->nrt, sizeof(*db->rt), err);
			if (rc == 0 && (rc = rl_runtime_load(path, &db->rt[db->nrt], err)) == 0)
				db->nrt++;
		}
		free(path);
	}
	closedir(dp);
	if (rc == 0 && db->ndev > 0)
		qsort(db->dev, db->ndev, sizeof(*db->dev), cmp_device);
	if (rc == 0 && db->nrt > 0)
		qsort(db->rt, db->nrt, sizeof(*db->rt), cmp_runtime);
	/* An id or alias naming two devices would make look-ups ambiguous. */
	for (i = 0; rc == 0 && i < db->ndev; i++)
		for (j = 0; rc == 0 && j < db->ndev; j++)
			if (i != j && matches_name(&db->dev[j], db->dev[i].id))
				rc = rl_err_set(err, RL_ERR_PARSE,
				                "%s: id '%s' is also a name of %s", db->dev[i].path,
				                db->dev[i].id, db->dev[j].path);
	if (rc < 0) {
		rl_hwdb_free(db);
		return rc;
	}
	*out = db;
	return 0;
}

void rl_hwdb_free(rl_hwdb *db)
{
	size_t i;

	if (db == NULL)
		return;
	for (i = 0; i < db->ndev; i++)
		rl_device_release(&db->dev[i]);
	for (i = 0; i < db->nrt; i++)
		rl_runtime_release(&db->rt[i]);
	free(db->dev);
	free(db->rt);
	free(db->dir);
	free(db);
}

const char *rl_hwdb_dir(const rl_hwdb *db) { return db->dir; }
size_t rl_hwdb_device_count(const rl_hwdb *db) { return db->ndev; }
const struct rl_device *rl_hwdb_device(const rl_hwdb *db, size_t i) { return &db->dev[i]; }
size_t rl_hwdb_runtime_count(const rl_hwdb *db) { return db->nrt; }
const struct rl_runtime *rl_hwdb_runtime(const rl_hwdb *db, size_t i) { return &db->rt[i]; }

/* Levenshtein distance, case-insensitive, of two short ids. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[64];

	if (la >= 63 || lb >= 63)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			size_t best = diag + cost;

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* How far NAME is from the names in the comma-separated list NAMES (NULL
 * allowed): the smallest edit distance, with a substring counting as 1. */
static size_t name_distance(const char *name, const char *names)
{
	size_t best = (size_t)-1;
	const char *p = names;

	while (p != NULL && *p != '\0') {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char one[64];
		size_t d;

		while (len > 0 && isspace((unsigned char)*p))
			p++, len--;
		while (len > 0 && isspace((unsigned char)p[len - 1]))
			len--;
		if (len > 0 && len < sizeof(one)) {
			memcpy(one, p, len);
			one[len] = '\0';
			d = distance(name, one);
			if (strcasestr(one, name) != NULL || strcasestr(name, one) != NULL)
				d = d < 1 ? d : 1;
			if (d < best)
				best = d;
		}
		p = e ? e + 1 : NULL;
	}
	return best;
}

/* Fills MSG with the (up to) three entries closest to NAME, given each
 * entry's distance DIST[i] and id IDS[i]. */
static void closest(const size_t *dist, const char *const *ids, size_t n, char *msg,
                    size_t len)
{
	size_t best[3] = {(size_t)-1, (size_t)-1, (size_t)-1};
	size_t pick[3] = {0, 0, 0};
	size_t i, k, used = 0;

	for (i = 0; i < n; i++) {
		for (k = 0; k < 3; k++) {
			if (dist[i] < best[k]) {
				memmove(&best[k + 1], &best[k], (2 - k) * sizeof(best[0]));
				memmove(&pick[k + 1], &pick[k], (2 - k) * sizeof(pick[0]));
				best[k] = dist[i];
				pick[k] = i;
				break;
			}
		}
	}
	msg[0] = '\0';
	for (k = 0; k < 3 && k < n; k++)
		used += (size_t)snprintf(msg + used, used < len ? len - used : 0, "%s%s",
		                         k ? ", " : "", ids[pick[k]]);
}

const struct rl_device *rl_hwdb_find_device(const rl_hwdb *db, const char *name,
                                            struct rl_err *err)
{
	const char *ids[256] = {NULL};
	size_t dist[256];
	char near[256];
	size_t i;

	for (i = 0; i < db->ndev; i++)
		if (matches_name(&db->dev[i], name))
			return &db->dev[i];
	for (i = 0; i < db->ndev && i < 256; i++) {
		size_t a = name_distance(name, db->dev[i].aliases);

		ids[i] = db->dev[i].id;
		dist[i] = name_distance(name, db->dev[i].id);
		if (a < dist[i])
			dist[i] = a;
	}
	closest(dist, ids, i, near, sizeof(near));
	rl_err_set(err, RL_ERR_NOTFOUND,
	           "unknown device '%s' in '%s' (closest: %s; 'roofline hw list' lists all)",
	           name, db->dir, i ? near : "none, the database is empty");
	return NULL;
}

/* ---- matching the name a GPU reports ---- */

/* Splits S into lower-case alphanumeric words, dropping vendor and brand
 * words; returns how many (at most MAX) were stored in W (each < 32 bytes). */
static int words(const char *s, char w[][32], int max)
{
	static const char *const brand[] = {"nvidia", "amd", "tesla", "geforce", "instinct",
	                                    "radeon", "intel"};
	int n = 0;

	while (*s != '\0' && n < max) {
		char word[32];
		size_t len = 0, j;
		int drop = 0;

		while (*s != '\0' && !isalnum((unsigned char)*s))
			s++;
		while (isalnum((unsigned char)*s)) {
			if (len < sizeof(word) - 1)
				word[len++] = (char)tolower((unsigned char)*s);
			s++;
		}
		if (len == 0)
			continue;
		word[len] = '\0';
		for (j = 0; j < sizeof(brand) / sizeof(brand[0]); j++)
			drop |= strcmp(word, brand[j]) == 0;
		if (!drop)
			memcpy(w[n++], word, len + 1);
	}
	return n;
}

/* Whether every word of WANT is among the words of D's id, aliases and name. */
static int has_words(const struct rl_device *d, char want[][32], int n, int first_only)
{
	char have[48][32];
	int nh = 0, i, j;

	nh += words(d->id, have + nh, 48 - nh);
	nh += words(d->aliases ? d->aliases : "", have + nh, 48 - nh);
	nh += words(d->name, have + nh, 48 - nh);
	for (i = 0; i < (first_only ? 1 : n); i++) {
		int found = 0;

		for (j = 0; j < nh && !found; j++)
			found = strcmp(want[i], have[j]) == 0;
		if (!found)
			return 0;
	}
	return 1;
}

/* Whether WANT's words joined by '-' are D's id or one of its aliases. */
static int exact_id(const struct rl_device *d, char want[][32], int n)
{
	char joined[256] = "";
	size_t used = 0;
	int i;

	for (i = 0; i < n; i++)
		used += (size_t)snprintf(joined + used, used < sizeof(joined) ? sizeof(joined) - used : 0,
		                         "%s%s", i ? "-" : "", want[i]);
	return matches_name(d, joined);
}

const struct rl_device *rl_hwdb_match_device(const rl_hwdb *db, const char *reported,
                                             struct rl_err *err)
{
	char want[16][32], list[256];
	const struct rl_device *hit[64];
	size_t i, nhit = 0, used = 0;
	int n = words(reported, want, 16), pass;

	for (pass = 0; n > 0 && pass < 2 && nhit == 0; pass++)
		for (i = 0; i < db->ndev && nhit < 64; i++)
			if (has_words(&db->dev[i], want, n, pass == 1))
				hit[nhit++] = &db->dev[i];
	if (nhit > 1) {
		/* "h200" is both a word of h200-sxm's name and its alias */
		const struct rl_device *exact = NULL;
		size_t nexact = 0;

		for (i = 0; i < nhit; i++)
			if (exact_id(hit[i], want, n))
				exact = hit[i], nexact++;
		if (nexact == 1)
			return exact;
	}
	if (nhit == 1)
		return hit[0];
	if (nhit == 0)
		return rl_err_set(err, RL_ERR_NOTFOUND,
		                  "the trace's device '%s' is not in the database '%s': choose one "
		                  "with --hw ('roofline hw list' lists them)",
		                  reported, db->dir),
		       NULL;
	list[0] = '\0';
	for (i = 0; i < nhit; i++)
		used += (size_t)snprintf(list + used, used < sizeof(list) ? sizeof(list) - used : 0,
		                         "%s%s", i ? ", " : "", hit[i]->id);
	rl_err_set(err, RL_ERR_ARG,
	           "the trace's device '%s' matches several devices of the database (%s): "
	           "choose one with --hw",
	           reported, list);
	return NULL;
}

const struct rl_runtime *rl_hwdb_find_runtime(const rl_hwdb *db, const char *name,
                                              struct rl_err *err)
{
	char known[256];
	size_t i, used = 0;

	for (i = 0; i < db->nrt; i++)
		if (strcasecmp(db->rt[i].id, name) == 0)
			return &db->rt[i];
	known[0] = '\0';
	for (i = 0; i < db->nrt; i++)
		used += (size_t)snprintf(known + used, used < sizeof(known) ? sizeof(known) - used : 0,
		                         "%s%s", i ? ", " : "", db->rt[i].id);
	rl_err_set(err, RL_ERR_NOTFOUND, "unknown runtime '%s' (known: %s)", name,
	           db->nrt ? known : "none");
	return NULL;
}
