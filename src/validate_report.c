/* validate_report.c - the validation report, and the JSON recording of a
 * validation run (see validate.h). */
#include "config.h"

#include "validate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_json.h"
#include "json.h"
#include "num.h"
#include "report.h"

#define FORMAT "roofline-validate-1"

static const char *bound_or_empty(const struct rl_vop *o, int predicted)
{
	if (!o->measured)
		return "";
	return rl_bound_name(predicted ? o->pred.bound : o->empirical);
}

/* The bounds a validation measures: compute, memory and overhead.
 * Validation runs single-GPU ops, never a collective, so the network bound
 * has no row or column in its confusion matrix. */
#define VBOUNDS (RL_BOUND_OVERHEAD + 1)

static void summary_json(yajl_gen g, const struct rl_vsummary *s)
{
	static const char *const b[] = {"compute", "memory", "overhead"};
	int i, j;

	rl_json_str(g, "summary");
	yajl_gen_map_open(g);
	rl_json_kn(g, "ops", (double)s->n);
	rl_json_kn(g, "measured", (double)s->measured);
	rl_json_kn(g, "skipped", (double)s->skipped);
	rl_json_kn(g, "failed_checks", (double)s->failed_checks);
	rl_json_k7(g, "median_abs_error", s->median_err);
	rl_json_k7(g, "p90_abs_error", s->p90_err);
	rl_json_kn(g, "long_ops", (double)s->n_long);
	rl_json_k7(g, "long_median_abs_error", s->median_err_long);
	rl_json_k7(g, "long_p90_abs_error", s->p90_err_long);
	rl_json_k7(g, "bound_agreement", s->agreement);
	rl_json_str(g, "confusion");
	yajl_gen_map_open(g);
	for (i = 0; i < VBOUNDS; i++) {
		rl_json_str(g, b[i]);
		yajl_gen_map_open(g);
		for (j = 0; j < VBOUNDS; j++)
			rl_json_kn(g, b[j], (double)s->confusion[i][j]);
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
}

int rl_validation_write_json(FILE *f, const struct rl_validation *v, const char *device_id)
{
	yajl_gen g = rl_bench_json_recording(FORMAT, v->version, v->date, &v->gpu);
	struct rl_vsummary s;
	size_t i;

	if (g == NULL)
		return RL_ERR_NOMEM;
	rl_json_kv(g, "ops_csv", v->csv);
	rl_json_kv(g, "predicted_on", device_id);
	rl_json_str(g, "results");
	yajl_gen_array_open(g);
	for (i = 0; i < v->list.n; i++) {
		const struct rl_vop *o = &v->v[i];

		yajl_gen_map_open(g);
		rl_json_kv(g, "name", o->op->name);
		if (!o->measured) {
			rl_json_kv(g, "skipped", o->runnable ? "not measured" : o->why);
		} else {
			rl_json_k7(g, "gpu_us", o->m.gpu_us);
			rl_json_k7(g, "wall_us", o->m.wall_us);
			rl_json_str(g, "check");
			yajl_gen_integer(g, o->m.check);
			rl_json_str(g, "launches");
			yajl_gen_integer(g, o->m.launches);
			/* derived, for readers; validate --from recomputes them */
			rl_json_str(g, "derived");
			yajl_gen_map_open(g);
			rl_json_k7(g, "predicted_us", o->pred.t_us);
			rl_json_k7(g, "error", o->err);
			rl_json_kv(g, "predicted_bound", rl_bound_name(o->pred.bound));
			rl_json_kv(g, "measured_bound", rl_bound_name(o->empirical));
			rl_json_k7(g, "compute_fraction", o->compute_frac);
			rl_json_k7(g, "memory_fraction", o->memory_frac);
			yajl_gen_map_close(g);
		}
		yajl_gen_map_close(g);
		rl_json_flush(g, f);
	}
	yajl_gen_array_close(g);
	rl_validate_summary(v, &s);
	summary_json(g, &s);
	yajl_gen_map_close(g);
	rl_json_flush(g, f);
	fputc('\n', f);
	yajl_gen_free(g);
	return ferror(f) ? RL_ERR_IO : 0;
}

static int bad(struct rl_err *err, const char *path, const char *where, const char *what)
{
	return rl_err_set(err, RL_ERR_PARSE, "%s: %s: expected %s", path, where, what);
}

/* The time KEY of the result O (results[I]) into *OUT: from RL_BENCH_MIN_US
 * to RL_BENCH_MAX_US, as a bench recording's samples (bench.h says why). */
static int get_time(struct rl_err *err, const char *path, yajl_val o, size_t i, const char *key,
                    double *out)
{
	yajl_val v = rl_json_member(o, key);
	struct rl_err e;

	if (v != NULL && YAJL_IS_NUMBER(v) && rl_parse_nonneg(v->u.number.r, out, &e) == 0 &&
	    *out >= RL_BENCH_MIN_US && *out <= RL_BENCH_MAX_US)
		return 0;
	return rl_err_set(err, RL_ERR_PARSE, "%s: results[%zu].%s: expected %s%s%.40s", path, i, key,
	                  RL_BENCH_TIME_RANGE, v != NULL && YAJL_IS_NUMBER(v) ? ", not " : "",
	                  v != NULL && YAJL_IS_NUMBER(v) ? v->u.number.r : "");
}

int rl_validation_read(const char *path, struct rl_validation *v, struct rl_errlist *errs,
                       struct rl_err *err)
{
	char where[64];
	char *text;
	yajl_val root, x, res;
	size_t i;
	int rc = 0;

	memset(v, 0, sizeof(*v));
	text = rl_json_slurp(path, "a validate recording", err);
	if (text == NULL)
		return err->code;
	root = rl_json_parse(text, path, err);
	free(text);
	if (root == NULL)
		return RL_ERR_PARSE;
	x = YAJL_IS_OBJECT(root) ? rl_json_member(root, "format") : NULL;
	if (x == NULL || !YAJL_IS_STRING(x) || strcmp(x->u.string, FORMAT) != 0) {
		rc = bad(err, path, "format", "\"" FORMAT "\" (a file written by roofline validate -f json)");
		goto out;
	}
	{
		/* rl_validation_init clears V: read the stamp aside first */
		char version[16], date[32], name[300];
		struct rl_gpu gpu;

#define STR(key, dst)                                                                        \
	do {                                                                                 \
		yajl_val s_ = rl_json_member(root, key);                                     \
		if (s_ == NULL || !YAJL_IS_STRING(s_) || strlen(s_->u.string) >= sizeof(dst)) { \
			rc = bad(err, path, key, "a short string");                          \
			goto out;                                                            \
		}                                                                            \
		strcpy(dst, s_->u.string);                                                   \
	} while (0)
		STR("roofline_version", version);
		STR("date", date);
#undef STR
		rc = rl_bench_json_read_gpu(rl_json_member(root, "gpu"), path, &gpu, err);
		if (rc < 0)
			goto out;
		x = rl_json_member(root, "ops_csv");
		if (x == NULL || !YAJL_IS_STRING(x)) {
			rc = bad(err, path, "ops_csv", "the op list as a string");
			goto out;
		}
		snprintf(name, sizeof(name), "%s:ops_csv", path);
		rc = rl_validation_init(v, x->u.string, name, 0, errs);
		if (rc < 0) {
			rl_err_set(err, rc, "%s: ops_csv: not a valid op list", path);
			goto out;
		}
		memcpy(v->version, version, sizeof(version));
		memcpy(v->date, date, sizeof(date));
		v->gpu = gpu;
	}
	res = rl_json_member(root, "results");
	if (res == NULL || !YAJL_IS_ARRAY(res) || res->u.array.len != v->list.n) {
		char what[64];

		snprintf(what, sizeof(what), "an array of %zu result%s, one per op", v->list.n,
		         v->list.n == 1 ? "" : "s");
		rc = bad(err, path, "results", what);
		goto out;
	}
	for (i = 0; i < v->list.n; i++) {
		yajl_val o = res->u.array.values[i], n, c, l, sk;
		struct rl_vop *op = &v->v[i];

		snprintf(where, sizeof(where), "results[%zu]", i);
		if (!YAJL_IS_OBJECT(o)) {
			rc = bad(err, path, where, "an object");
			goto out;
		}
		n = rl_json_member(o, "name");
		if (n == NULL || !YAJL_IS_STRING(n) || strcmp(n->u.string, op->op->name) != 0) {
			char what[160];

			snprintf(what, sizeof(what), "name \"%.100s\" (the op of that row)", op->op->name);
			rc = bad(err, path, where, what);
			goto out;
		}
		sk = rl_json_member(o, "skipped");
		if (sk != NULL) {
			if (!YAJL_IS_STRING(sk)) {
				rc = bad(err, path, where, "skipped: a reason");
				goto out;
			}
			op->runnable = 0;
			snprintf(op->why, sizeof(op->why), "%s", sk->u.string);
			continue;
		}
		c = rl_json_member(o, "check");
		l = rl_json_member(o, "launches");
		if ((rc = get_time(err, path, o, i, "gpu_us", &op->m.gpu_us)) < 0 ||
		    (rc = get_time(err, path, o, i, "wall_us", &op->m.wall_us)) < 0)
			goto out;
		if (c == NULL || !YAJL_IS_INTEGER(c) || YAJL_GET_INTEGER(c) < -1 ||
		    YAJL_GET_INTEGER(c) > 1) {
			snprintf(where, sizeof(where), "results[%zu].check", i);
			rc = bad(err, path, where, "-1, 0 or 1");
			goto out;
		}
		if (l == NULL || !YAJL_IS_INTEGER(l) || YAJL_GET_INTEGER(l) < 1 ||
		    YAJL_GET_INTEGER(l) > 1000000) {
			snprintf(where, sizeof(where), "results[%zu].launches", i);
			rc = bad(err, path, where, "an integer from 1 to 1000000");
			goto out;
		}
		op->m.check = (int)YAJL_GET_INTEGER(c);
		op->m.launches = (int)YAJL_GET_INTEGER(l);
		op->runnable = 1;
		op->measured = 1;
	}
out:
	yajl_tree_free(root);
	return rc;
}

/* --- the report ------------------------------------------------------- */

static void shape_text(const struct rl_op *op, char *buf, size_t n)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < op->ndims && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%llu", i ? "x" : "",
		                        (unsigned long long)op->dims[i]);
}

static void summary_text(FILE *f, const struct rl_vsummary *s, int md)
{
	static const char *const b[] = {"compute", "memory", "overhead"};
	int i, j;

	fprintf(f, "\n%s%zu op%s: %zu measured, %zu skipped, %zu failed their check\n",
	        md ? "**Summary.** " : "", s->n, s->n == 1 ? "" : "s", s->measured, s->skipped,
	        s->failed_checks);
	fprintf(f, "|error| over all measured ops: median %.1f %%, p90 %.1f %%\n",
	        100 * s->median_err, 100 * s->p90_err);
	fprintf(f, "|error| over the %zu op%s of %g us or more: median %.1f %%, p90 %.1f %%\n",
	        s->n_long, s->n_long == 1 ? "" : "s", RL_VALIDATE_LONG_US, 100 * s->median_err_long,
	        100 * s->p90_err_long);
	fprintf(f, "bound agreement: %zu of %zu = %.1f %%\n\n", s->agree, s->measured,
	        100 * s->agreement);
	if (md) {
		fprintf(f, "| predicted \\ measured | compute | memory | overhead |\n|---|---|---|---|\n");
		for (i = 0; i < VBOUNDS; i++)
			fprintf(f, "| %s | %zu | %zu | %zu |\n", b[i], s->confusion[i][0],
			        s->confusion[i][1], s->confusion[i][2]);
		return;
	}
	fprintf(f, "confusion (rows: predicted bound, columns: measured bound)\n");
	fprintf(f, "%-10s %8s %8s %8s\n", "", b[0], b[1], b[2]);
	for (i = 0; i < VBOUNDS; i++) {
		fprintf(f, "%-10s", b[i]);
		for (j = 0; j < VBOUNDS; j++)
			fprintf(f, " %8zu", s->confusion[i][j]);
		fputc('\n', f);
	}
}

int rl_validate_report(FILE *f, const struct rl_validation *v, const char *dev_id,
                       double host_us, enum rl_vformat fmt)
{
	struct rl_vsummary s;
	size_t i;
	int md = fmt == RL_VFMT_MD;

	if (fmt == RL_VFMT_JSON)
		return rl_validation_write_json(f, v, dev_id);
	if (fmt == RL_VFMT_CSV)
		fprintf(f, "name,kind,dtype,shape,predicted_us,measured_us,gpu_us,error,"
		           "predicted_bound,measured_bound,compute_fraction,memory_fraction,check,"
		           "launches,skipped\n");
	else if (md)
		fprintf(f, "Measured on %s (%s, roofline %s); predicted on %s, %.3g us of host "
		           "time per launch.\n\n"
		           "| op | kind | dtype | shape | predicted us | measured us | GPU us | error | "
		           "predicted | measured | compute %% | memory %% | check |\n"
		           "|---|---|---|---|---:|---:|---:|---:|---|---|---:|---:|---|\n",
		        v->gpu.name, v->date, v->version, dev_id, host_us);
	else
		fprintf(f, "measured on %s (%s, roofline %s); predicted on %s, %.3g us of host time "
		           "per launch\n\n"
		           "%-18s %-10s %-7s %-18s %10s %10s %10s %8s %-9s %-9s %6s %6s %-6s\n",
		        v->gpu.name, v->date, v->version, dev_id, host_us, "op", "kind", "dtype", "shape",
		        "pred us", "meas us", "gpu us", "error", "predicted", "measured", "comp%",
		        "mem%", "check");
	for (i = 0; i < v->list.n; i++) {
		const struct rl_vop *o = &v->v[i];
		char shape[128];
		const char *chk = !o->measured ? "" : o->m.check > 0 ? "ok" : o->m.check < 0 ? "FAILED" : "-";

		shape_text(o->op, shape, sizeof(shape));
		if (fmt == RL_VFMT_CSV) {
			rl_csv_field(f, o->op->name);
			fprintf(f, ",%s,%s,%s,", rl_kind_name(o->op->kind), rl_dtype_name(o->op->dtype),
			        shape);
			if (o->measured)
				fprintf(f, "%.9g,%.9g,%.9g,%.6g,%s,%s,%.6g,%.6g,%d,%d,\n", o->pred.t_us,
				        o->m.wall_us, o->m.gpu_us, o->err, bound_or_empty(o, 1),
				        bound_or_empty(o, 0), o->compute_frac, o->memory_frac, o->m.check,
				        o->m.launches);
			else {
				fputs(",,,,,,,,,,", f);
				rl_csv_field(f, o->runnable ? "not measured" : o->why);
				fputc('\n', f);
			}
			continue;
		}
		if (!o->measured) {
			fprintf(f, md ? "| %s | %s | %s | %s | skipped: %s |||||||||\n"
			              : "%-18s %-10s %-7s %-18s skipped: %s\n",
			        o->op->name, rl_kind_name(o->op->kind), rl_dtype_name(o->op->dtype), shape,
			        o->runnable ? "not measured" : o->why);
			continue;
		}
		fprintf(f, md ? "| %s | %s | %s | %s | %.4g | %.4g | %.4g | %+.1f%% | %s | %s | %.0f | %.0f | %s |\n"
		              : "%-18s %-10s %-7s %-18s %10.4g %10.4g %10.4g %+7.1f%% %-9s %-9s %6.0f %6.0f %-6s\n",
		        o->op->name, rl_kind_name(o->op->kind), rl_dtype_name(o->op->dtype), shape,
		        o->pred.t_us, o->m.wall_us, o->m.gpu_us, 100 * o->err, bound_or_empty(o, 1),
		        bound_or_empty(o, 0), 100 * o->compute_frac, 100 * o->memory_frac, chk);
	}
	if (fmt != RL_VFMT_CSV) {
		rl_validate_summary(v, &s);
		summary_text(f, &s, md);
	}
	return ferror(f) ? RL_ERR_IO : 0;
}
