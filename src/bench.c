/* bench.c - benchmark recordings and the statistics over them (see bench.h). */
#include "config.h"

#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const group_names[RL_BENCH_GROUP_COUNT] = {
	"memory", "l2", "vector", "special", "gemm", "launch", "sweep", "collective",
};

const char *rl_bench_group_name(enum rl_bench_group g)
{
	return (unsigned)g < RL_BENCH_GROUP_COUNT ? group_names[g] : "?";
}

int rl_bench_group_parse(const char *s, enum rl_bench_group *out)
{
	int g;

	for (g = 0; g < RL_BENCH_GROUP_COUNT; g++)
		if (strcmp(s, group_names[g]) == 0) {
			*out = (enum rl_bench_group)g;
			return 0;
		}
	return RL_ERR_PARSE;
}

void rl_bench_init(struct rl_bench *b)
{
	memset(b, 0, sizeof(*b));
}

void rl_bench_release(struct rl_bench *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		free(b->e[i].us);
	free(b->e);
	rl_bench_init(b);
}

int rl_bench_add(struct rl_bench *b, const struct rl_bench_entry *e, const double *us,
                 size_t n, struct rl_err *err)
{
	struct rl_bench_entry *slot;
	size_t i;

	if (n == 0)
		return rl_err_set(err, RL_ERR_ARG, "bench entry '%s': no samples", e->name);
	for (i = 0; i < n; i++)
		if (!isfinite(us[i]) || us[i] <= 0)
			return rl_err_set(err, RL_ERR_ARG,
			                  "bench entry '%s': sample %zu is %g us (expected a "
			                  "positive time)",
			                  e->name, i + 1, us[i]);
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		struct rl_bench_entry *p = realloc(b->e, cap * sizeof(*p));

		if (p == NULL)
			return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
		b->e = p;
		b->cap = cap;
	}
	slot = &b->e[b->n];
	*slot = *e;
	slot->name[RL_BENCH_NAME_MAX - 1] = '\0';
	slot->dtype[RL_BENCH_DTYPE_MAX - 1] = '\0';
	slot->shape[RL_BENCH_SHAPE_MAX - 1] = '\0';
	slot->method[RL_BENCH_METHOD_MAX - 1] = '\0';
	slot->n = n;
	slot->us = malloc(n * sizeof(double));
	if (slot->us == NULL)
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	memcpy(slot->us, us, n * sizeof(double));
	b->n++;
	return 0;
}

const struct rl_bench_entry *rl_bench_find(const struct rl_bench *b,
                                           enum rl_bench_group group, const char *name,
                                           const char *dtype, const char *shape)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		const struct rl_bench_entry *e = &b->e[i];

		if (e->group != group || strcmp(e->name, name) != 0)
			continue;
		if (dtype != NULL && dtype[0] != '\0' && strcmp(e->dtype, dtype) != 0)
			continue;
		if (shape != NULL && strcmp(e->shape, shape) != 0)
			continue;
		return e;
	}
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double rl_quantile(const double *x, size_t n, double q)
{
	double *s, h, v;
	size_t lo;

	if (n == 1)
		return x[0];
	s = malloc(n * sizeof(double));
	if (s == NULL)
		return NAN;
	memcpy(s, x, n * sizeof(double));
	qsort(s, n, sizeof(double), cmp_double);
	q = q < 0 ? 0 : q > 1 ? 1 : q;
	h = (double)(n - 1) * q;
	lo = (size_t)floor(h);
	v = lo + 1 < n ? s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]) : s[lo];
	free(s);
	return v;
}

void rl_bench_stats(const struct rl_bench_entry *e, struct rl_bench_stats *s)
{
	memset(s, 0, sizeof(*s));
	if (e->n == 0)
		return;
	s->median_us = rl_quantile(e->us, e->n, 0.5);
	s->best_us = rl_quantile(e->us, e->n, 0.0);
	s->p90_us = rl_quantile(e->us, e->n, 0.9);
	s->worst_us = rl_quantile(e->us, e->n, 1.0);
	s->spread = (s->p90_us - s->best_us) / s->median_us;
	if (e->bytes > 0) {
		s->gbs_median = e->bytes / s->median_us / 1e3;
		s->gbs_best = e->bytes / s->best_us / 1e3;
	}
	if (e->flops > 0) {
		s->tflops_median = e->flops / s->median_us / 1e6;
		s->tflops_best = e->flops / s->best_us / 1e6;
	}
}

static int cmp_repeat(const void *a, const void *b)
{
	const struct rl_bench_entry *x = *(const struct rl_bench_entry *const *)a;
	const struct rl_bench_entry *y = *(const struct rl_bench_entry *const *)b;

	return (x->repeat > y->repeat) - (x->repeat < y->repeat);
}

int rl_bench_sweep(const struct rl_bench *b, const char *dtype, struct rl_sweep *s,
                   struct rl_err *err)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	snprintf(s->dtype, sizeof(s->dtype), "%s", dtype);
	for (i = 0; i < b->n && s->n < RL_SWEEP_MAX; i++) {
		const struct rl_bench_entry *e = &b->e[i];

		if (e->group == RL_BENCH_SWEEP && strcmp(e->dtype, dtype) == 0 && e->repeat > 0 &&
		    e->bytes > 0 && e->flops > 0)
			s->pt[s->n++] = e;
	}
	if (s->n == 0)
		return rl_err_set(err, RL_ERR_NOTFOUND, "the recording has no %s sweep", dtype);
	qsort(s->pt, s->n, sizeof(s->pt[0]), cmp_repeat);
	for (i = 0; i < s->n; i++) {
		double t = rl_quantile(s->pt[i]->us, s->pt[i]->n, 0.5) * 1e-6;

		s->bytes_per_s = fmax(s->bytes_per_s, s->pt[i]->bytes / t);
		s->flops_per_s = fmax(s->flops_per_s, s->pt[i]->flops / t);
	}
	/* Every point moves the same elements: bytes / (flops / repeat) is the
	 * bytes per element, one multiply per repeat. */
	s->elem_bytes = s->pt[0]->bytes / (s->pt[0]->flops / s->pt[0]->repeat);
	s->knee_intensity = s->flops_per_s / s->bytes_per_s;
	s->knee_repeat = s->knee_intensity * s->elem_bytes;
	return 0;
}
