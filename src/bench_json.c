/* bench_json.c - the JSON form of a benchmark recording (see bench.h).
 *
 * Written with yajl_gen; read back with yajl's tree parser, since a
 * recording is small (a few hundred entries) and read whole. Sample times
 * are written with 7 significant digits, more than their precision (CUDA
 * events resolve about 0.5 us, and a sample averages many launches).
 */
#include "config.h"

#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

#include "bench_json.h"
#include "json.h"
#include "num.h"

#define FORMAT "roofline-bench-1"

yajl_gen rl_bench_json_recording(const char *format, const char *version, const char *date,
                           const struct rl_gpu *gpu)
{
	yajl_gen g = yajl_gen_alloc(NULL);

	if (g == NULL)
		return NULL;
	yajl_gen_config(g, yajl_gen_beautify, 1);
	yajl_gen_config(g, yajl_gen_indent_string, " ");
	yajl_gen_map_open(g);
	rl_json_kv(g, "format", format);
	rl_json_kv(g, "roofline_version", version);
	rl_json_kv(g, "date", date);
	rl_bench_json_gpu(g, gpu);
	return g;
}

/* Counts (bytes, FLOPs, repeats) exactly: integers below 2^53 in full;
 * null for what is not finite (never inf, which is not JSON). */
static void kcount(yajl_gen g, const char *key, double v)
{
	char buf[40];
	int n;

	rl_json_str(g, key);
	if (!isfinite(v)) {
		yajl_gen_null(g);
		return;
	}
	n = snprintf(buf, sizeof(buf), "%.17g", v);
	yajl_gen_number(g, buf, (size_t)n);
}

void rl_bench_json_gpu(yajl_gen g, const struct rl_gpu *gpu)
{
	size_t i, n;
	const struct rl_gpu_field *f = rl_gpu_fields(&n);

	rl_json_str(g, "gpu");
	yajl_gen_map_open(g);
	for (i = 0; i < n; i++) {
		char buf[RL_GPU_NAME_MAX];

		rl_json_str(g, f[i].key);
		if (rl_gpu_get(gpu, i, buf, sizeof(buf)))
			yajl_gen_number(g, buf, strlen(buf));
		else
			rl_json_str(g, buf);
	}
	yajl_gen_map_close(g);
}

static void write_entry(yajl_gen g, const struct rl_bench_entry *e)
{
	struct rl_bench_stats s;
	size_t i;

	rl_bench_stats(e, &s);
	yajl_gen_map_open(g);
	rl_json_kv(g, "group", rl_bench_group_name(e->group));
	rl_json_kv(g, "name", e->name);
	rl_json_kv(g, "dtype", e->dtype);
	rl_json_kv(g, "shape", e->shape);
	kcount(g, "repeat", e->repeat);
	kcount(g, "bytes", e->bytes);
	kcount(g, "flops", e->flops);
	/* only a collective's: recordings without it read as before */
	if (e->group == RL_BENCH_COLLECTIVE) {
		rl_json_str(g, "ranks");
		yajl_gen_integer(g, e->ranks);
	}
	rl_json_str(g, "check");
	yajl_gen_integer(g, e->check);
	rl_json_k7(g, "sm_clock_mhz", e->sm_clock_mhz);
	rl_json_k7(g, "temp_c", e->temp_c);
	rl_json_kv(g, "method", e->method);
	rl_json_str(g, "samples_us");
	yajl_gen_array_open(g);
	for (i = 0; i < e->n; i++)
		rl_json_num7(g, e->us[i]);
	yajl_gen_array_close(g);
	/* Derived, for readers; rl_bench_read recomputes them. */
	rl_json_str(g, "derived");
	yajl_gen_map_open(g);
	rl_json_k7(g, "median_us", s.median_us);
	rl_json_k7(g, "best_us", s.best_us);
	rl_json_k7(g, "p90_us", s.p90_us);
	if (e->bytes > 0) {
		rl_json_k7(g, "gbs_median", s.gbs_median);
		rl_json_k7(g, "gbs_best", s.gbs_best);
	}
	if (e->flops > 0) {
		rl_json_k7(g, "tflops_median", s.tflops_median);
		rl_json_k7(g, "tflops_best", s.tflops_best);
	}
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
}

int rl_bench_write_json(FILE *f, const struct rl_bench *b)
{
	yajl_gen g = rl_bench_json_recording(FORMAT, b->version, b->date, &b->gpu);
	size_t i;

	if (g == NULL)
		return RL_ERR_NOMEM;
	rl_json_str(g, "quick");
	yajl_gen_bool(g, b->quick);
	rl_json_str(g, "entries");
	yajl_gen_array_open(g);
	for (i = 0; i < b->n; i++) {
		write_entry(g, &b->e[i]);
		rl_json_flush(g, f);
	}
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
	rl_json_flush(g, f);
	fputc('\n', f);
	yajl_gen_free(g);
	return ferror(f) ? RL_ERR_IO : 0;
}

/* --- reading ----------------------------------------------------------- */

struct rd {
	const char *path;
	struct rl_err *err;
};

static int bad(struct rd *r, const char *where, const char *what)
{
	return rl_err_set(r->err, RL_ERR_PARSE, "%s: %s: expected %s", r->path, where, what);
}

/* A string member into BUF (size N). */
static int get_str(struct rd *r, yajl_val obj, const char *where, const char *key, char *buf,
                   size_t n)
{
	yajl_val v = rl_json_member(obj, key);
	char w[96];

	snprintf(w, sizeof(w), "%s.%s", where, key);
	if (v == NULL || !YAJL_IS_STRING(v))
		return bad(r, w, "a string");
	if (strlen(v->u.string) >= n) {
		char what[64];

		snprintf(what, sizeof(what), "a string of at most %zu bytes", n - 1);
		return bad(r, w, what);
	}
	strcpy(buf, v->u.string);
	return 0;
}

/* A number from 0 to MAX, parsed strictly from its text, a whole one when
 * WHOLE; WHAT says what was expected. */
static int get_num(struct rd *r, yajl_val obj, const char *where, const char *key, double max,
                   int whole, const char *what, double *out)
{
	yajl_val v = rl_json_member(obj, key);
	struct rl_err e;
	char w[96];

	snprintf(w, sizeof(w), "%s.%s", where, key);
	if (v == NULL || !YAJL_IS_NUMBER(v) || rl_parse_nonneg(v->u.number.r, out, &e) < 0 ||
	    *out > max || (whole && *out != floor(*out)))
		return bad(r, w, what);
	return 0;
}

/* A count: repeats, bytes, FLOPs. */
#define COUNT RL_BENCH_MAX_COUNT, 1, "a whole number from 0 to 2^53"

int rl_bench_json_read_gpu(yajl_val gpu, const char *path, struct rl_gpu *g, struct rl_err *err)
{
	struct rd rr = {path, err}, *r = &rr;
	size_t i, n;
	const struct rl_gpu_field *f = rl_gpu_fields(&n);

	if (gpu == NULL || !YAJL_IS_OBJECT(gpu))
		return bad(r, "gpu", "an object of device attributes");
	memset(g, 0, sizeof(*g));
	for (i = 0; i < n; i++) {
		yajl_val v = rl_json_member(gpu, f[i].key);
		const char *text = v == NULL ? NULL
		                   : YAJL_IS_STRING(v) ? v->u.string
		                   : YAJL_IS_NUMBER(v) ? v->u.number.r
		                                       : NULL;
		struct rl_err e;
		char w[96];

		snprintf(w, sizeof(w), "gpu.%s", f[i].key);
		if (text == NULL)
			return bad(r, w, "the attribute (a string or an integer)");
		if (rl_gpu_set(g, f[i].key, text, &e) < 0)
			return rl_err_set(r->err, RL_ERR_PARSE, "%s: %s: %s", r->path, w, e.msg);
	}
	if (g->sm_count <= 0 || g->clock_khz <= 0)
		return bad(r, "gpu", "multiprocessor_count and clock_rate_khz above 0");
	return 0;
}

static int read_entry(struct rd *r, yajl_val v, size_t idx, struct rl_bench *b)
{
	struct rl_bench_entry e;
	char where[48], group[16], w[96];
	yajl_val s, c;
	double *us = NULL, chk;
	size_t i;
	int rc;

	snprintf(where, sizeof(where), "entries[%zu]", idx);
	if (!YAJL_IS_OBJECT(v))
		return bad(r, where, "an object");
	memset(&e, 0, sizeof(e));
	rc = get_str(r, v, where, "group", group, sizeof(group));
	if (rc == 0 && rl_bench_group_parse(group, &e.group) < 0) {
		snprintf(w, sizeof(w), "%s.group", where);
		return bad(r, w, "memory, l2, vector, special, gemm, launch, sweep or collective");
	}
	if (rc == 0)
		rc = get_str(r, v, where, "name", e.name, sizeof(e.name));
	if (rc == 0)
		rc = get_str(r, v, where, "dtype", e.dtype, sizeof(e.dtype));
	if (rc == 0)
		rc = get_str(r, v, where, "shape", e.shape, sizeof(e.shape));
	if (rc == 0)
		rc = get_str(r, v, where, "method", e.method, sizeof(e.method));
	if (rc == 0)
		rc = get_num(r, v, where, "repeat", COUNT, &e.repeat);
	if (rc == 0)
		rc = get_num(r, v, where, "bytes", COUNT, &e.bytes);
	if (rc == 0)
		rc = get_num(r, v, where, "flops", COUNT, &e.flops);
	/* 0: unknown; no GPU clocks at 100 GHz or runs at 1000 C */
	if (rc == 0)
		rc = get_num(r, v, where, "sm_clock_mhz", 1e5, 0, "a clock in MHz from 0 to 100000",
		             &e.sm_clock_mhz);
	if (rc == 0)
		rc = get_num(r, v, where, "temp_c", 1e3, 0, "a temperature from 0 to 1000 C",
		             &e.temp_c);
	if (rc < 0)
		return rc;
	c = rl_json_member(v, "check");
	snprintf(w, sizeof(w), "%s.check", where);
	if (c == NULL || !YAJL_IS_INTEGER(c) || (chk = (double)YAJL_GET_INTEGER(c)) < -1 || chk > 1)
		return bad(r, w, "-1, 0 or 1");
	e.check = (int)chk;
	c = rl_json_member(v, "ranks");
	snprintf(w, sizeof(w), "%s.ranks", where);
	if (e.group == RL_BENCH_COLLECTIVE) {
		if (c == NULL || !YAJL_IS_INTEGER(c) || YAJL_GET_INTEGER(c) < 1 ||
		    YAJL_GET_INTEGER(c) > 1 << 20)
			return bad(r, w, "the GPUs of a collective (an integer, 1 to 1048576)");
		e.ranks = (int)YAJL_GET_INTEGER(c);
		if (strcmp(e.shape, "in-place") != 0 && strcmp(e.shape, "out-of-place") != 0) {
			snprintf(w, sizeof(w), "%s.shape", where);
			return bad(r, w, "\"in-place\" or \"out-of-place\" (a collective)");
		}
	} else if (c != NULL) {
		return bad(r, w, "no ranks outside a collective");
	}
	s = rl_json_member(v, "samples_us");
	snprintf(w, sizeof(w), "%s.samples_us", where);
	if (s == NULL || !YAJL_IS_ARRAY(s) || s->u.array.len == 0)
		return bad(r, w, "a non-empty array of times");
	us = malloc(s->u.array.len * sizeof(double));
	if (us == NULL)
		return rl_err_set(r->err, RL_ERR_NOMEM, "out of memory");
	for (i = 0; i < s->u.array.len; i++) {
		yajl_val x = s->u.array.values[i];
		struct rl_err e2;

		if (!YAJL_IS_NUMBER(x) || rl_parse_nonneg(x->u.number.r, &us[i], &e2) < 0 ||
		    us[i] < RL_BENCH_MIN_US || us[i] > RL_BENCH_MAX_US) {
			snprintf(w, sizeof(w), "%s.samples_us[%zu]", where, i);
			free(us);
			return rl_err_set(r->err, RL_ERR_PARSE, "%s: %s: expected %s%s%.40s", r->path, w,
			                  RL_BENCH_TIME_RANGE, YAJL_IS_NUMBER(x) ? ", not " : "",
			                  YAJL_IS_NUMBER(x) ? x->u.number.r : "");
		}
	}
	rc = rl_bench_add(b, &e, us, s->u.array.len, r->err);
	free(us);
	return rc;
}

int rl_bench_read(const char *path, struct rl_bench *b, struct rl_err *err)
{
	struct rd r = {path, err};
	char *text;
	yajl_val root, v;
	size_t i;
	int rc = 0;

	rl_bench_init(b);
	text = rl_json_slurp(path, "a bench recording", err);
	if (text == NULL)
		return err != NULL ? err->code : RL_ERR_IO;
	root = rl_json_parse(text, path, err);
	free(text);
	if (root == NULL)
		return RL_ERR_PARSE;
	if (!YAJL_IS_OBJECT(root)) {
		rc = bad(&r, "top level", "an object (a bench recording)");
		goto out;
	}
	v = rl_json_member(root, "format");
	if (v == NULL || !YAJL_IS_STRING(v) || strcmp(v->u.string, FORMAT) != 0) {
		rc = bad(&r, "format", "\"" FORMAT "\" (a file written by roofline bench -f json)");
		goto out;
	}
	rc = get_str(&r, root, "top level", "roofline_version", b->version, sizeof(b->version));
	if (rc == 0)
		rc = get_str(&r, root, "top level", "date", b->date, sizeof(b->date));
	if (rc < 0)
		goto out;
	v = rl_json_member(root, "quick");
	if (v == NULL || !(YAJL_IS_TRUE(v) || YAJL_IS_FALSE(v))) {
		rc = bad(&r, "quick", "true or false");
		goto out;
	}
	b->quick = YAJL_IS_TRUE(v);
	rc = rl_bench_json_read_gpu(rl_json_member(root, "gpu"), path, &b->gpu, err);
	if (rc < 0)
		goto out;
	v = rl_json_member(root, "entries");
	if (v == NULL || !YAJL_IS_ARRAY(v)) {
		rc = bad(&r, "entries", "an array");
		goto out;
	}
	for (i = 0; i < v->u.array.len && rc == 0; i++)
		rc = read_entry(&r, v->u.array.values[i], i, b);
out:
	yajl_tree_free(root);
	return rc;
}
