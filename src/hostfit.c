/* hostfit.c - host costs per launch fitted from a step's host timeline (see
 * hostfit.h, docs/calibrate.md "From a trace"). */
#include "config.h"

#include "hostfit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rl_hostfit_init(struct rl_hostfit *fit)
{
	memset(fit, 0, sizeof(*fit));
}

void rl_hostfit_release(struct rl_hostfit *fit)
{
	if (fit == NULL)
		return;
	free(fit->names);
	free(fit->extras);
	free(fit->outliers);
	rl_hostfit_init(fit);
}

/* A call in the making: what the fit learns of it. */
struct item {
	const struct rl_hostfit_call *c;
	size_t idx;       /* in the caller's order */
	double own_us;    /* end - start, skips removed */
	double charge_us; /* gap before it plus its new time, and what views passed on */
	double extra_us;
	int first;        /* the first call of its name at its shapes */
};

static int cmp_start(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->c->start_ns != y->c->start_ns)
		return x->c->start_ns < y->c->start_ns ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cmp_skip(const void *a, const void *b)
{
	const struct rl_hostfit_skip *x = a, *y = b;

	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

/* Sorted by name, then shape, then start: the first of each (name, shape)
 * is the call that ran those shapes first. */
static int cmp_name_shape(const void *a, const void *b)
{
	const struct item *x = *(const struct item *const *)a, *y = *(const struct item *const *)b;
	int c = strcmp(x->c->name, y->c->name);

	if (c != 0)
		return c;
	if (x->c->shape != y->c->shape)
		return x->c->shape < y->c->shape ? -1 : 1;
	return cmp_start(x, y);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int cmp_name_charged(const void *a, const void *b)
{
	const struct rl_hostfit_name *x = a, *y = b;

	if (x->charged_us + x->extra_us != y->charged_us + y->extra_us)
		return x->charged_us + x->extra_us > y->charged_us + y->extra_us ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Nanoseconds of [A, B) inside the merged, sorted skips S[0..N). */
static int64_t skipped_ns(const struct rl_hostfit_skip *s, size_t n, int64_t a, int64_t b)
{
	size_t lo = 0, hi = n;
	int64_t sum = 0;

	while (lo < hi) { /* the first skip ending after A */
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].end_ns <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && s[lo].start_ns < b; lo++) {
		int64_t x = s[lo].start_ns > a ? s[lo].start_ns : a;
		int64_t y = s[lo].end_ns < b ? s[lo].end_ns : b;

		if (y > x)
			sum += y - x;
	}
	return sum;
}

/* SKIP sorted and merged into a new array *OUT of *NOUT spans. */
static int merge_skips(const struct rl_hostfit_skip *skip, size_t n,
                       struct rl_hostfit_skip **out, size_t *nout)
{
	struct rl_hostfit_skip *s;
	size_t i, m = 0;

	*out = NULL;
	*nout = 0;
	if (n == 0)
		return 0;
	if ((s = malloc(n * sizeof(*s))) == NULL)
		return RL_ERR_NOMEM;
	memcpy(s, skip, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_skip);
	for (i = 0; i < n; i++) {
		if (s[i].end_ns <= s[i].start_ns)
			continue;
		if (m > 0 && s[i].start_ns <= s[m - 1].end_ns) {
			if (s[i].end_ns > s[m - 1].end_ns)
				s[m - 1].end_ns = s[i].end_ns;
		} else {
			s[m++] = s[i];
		}
	}
	*out = s;
	*nout = m;
	return 0;
}

/* Walks the host timeline: each item's charge (the gap before it and its
 * time past what ran before it, skips removed), passed on from calls that
 * launch nothing to the next that does. Returns the span in us. */
static double charge_timeline(struct item *it, size_t n, const struct rl_hostfit_skip *s,
                              size_t ns, double *skipped_us)
{
	int64_t first = it[0].c->start_ns, cur = first;
	double pending = 0, span = 0;
	size_t i, last = SIZE_MAX;

	*skipped_us = 0;
	for (i = 0; i < n; i++) {
		const struct rl_hostfit_call *c = it[i].c;
		double t = 0;

		if (c->end_ns > cur) {
			int64_t sk = skipped_ns(s, ns, cur, c->end_ns);

			t = (double)(c->end_ns - cur - sk) / 1000;
			*skipped_us += (double)sk / 1000;
			cur = c->end_ns;
		}
		span += t;
		it[i].own_us =
		    (double)(c->end_ns - c->start_ns - skipped_ns(s, ns, c->start_ns, c->end_ns)) / 1000;
		if (c->kind >= 0 && c->kernels > 0) {
			it[i].charge_us = pending + t;
			pending = 0;
			last = i;
		} else {
			pending += t;
		}
	}
	if (last != SIZE_MAX)
		it[last].charge_us += pending;
	return span;
}

/* The names and the extras, from the launching items L[0..NL) (sorted by
 * name, shape, start). */
static int fit_names(struct item **l, size_t nl, struct rl_hostfit *fit, struct rl_err *err)
{
	double *own = NULL;
	size_t i, j, k, nn = 0, ne = 0;

	if ((own = malloc(nl * sizeof(*own))) == NULL ||
	    (fit->names = calloc(nl, sizeof(*fit->names))) == NULL ||
	    (fit->extras = calloc(nl, sizeof(*fit->extras))) == NULL) {
		free(own);
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	}
	for (i = 0; i < nl; i = j) {
		struct rl_hostfit_name *nm = &fit->names[nn++];
		double med;
		size_t m;

		for (j = i; j < nl && strcmp(l[j]->c->name, l[i]->c->name) == 0; j++)
			own[j - i] = l[j]->own_us;
		m = j - i;
		qsort(own, m, sizeof(*own), cmp_double);
		med = m % 2 ? own[m / 2] : (own[m / 2 - 1] + own[m / 2]) / 2;
		nm->name = l[i]->c->name;
		nm->median_us = med;
		nm->max_us = own[m - 1];
		nm->kind = l[i]->c->kind;
		for (k = i; k < j; k++) {
			struct item *x = l[k];
			int first = k == i || x->c->shape != l[k - 1]->c->shape;

			x->first = first;
			if (first && !x->c->first_launch && x->own_us > RL_HOSTFIT_EXTRA_RATIO * med &&
			    x->own_us - med > RL_HOSTFIT_EXTRA_MIN_US) {
				struct rl_hostfit_extra *e = &fit->extras[ne++];

				x->extra_us = fmin(x->own_us - med, x->charge_us);
				e->call = x->idx;
				e->name = nm->name;
				e->kind = x->c->kind;
				e->own_us = x->own_us;
				e->median_us = med;
				e->extra_us = x->extra_us;
				e->new_shape = 1;
			}
		}
	}
	free(own);
	fit->nnames = nn;
	fit->nextras = ne;
	return 0;
}

/* Each kind's median call, and the calls far above it (IT in start order,
 * NL of them launching). */
static int fit_outliers(const struct item *it, size_t n, size_t nl, struct rl_hostfit *fit,
                        struct rl_err *err)
{
	double *own = malloc((nl + 1) * sizeof(*own));
	size_t i, k, m, no = 0;

	if (own == NULL || (fit->outliers = calloc(nl, sizeof(*fit->outliers))) == NULL) {
		free(own);
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	}
	for (k = 0; k < RL_KIND_COUNT; k++) {
		for (i = 0, m = 0; i < n; i++)
			if (it[i].c->kind == (int)k && it[i].c->kernels > 0)
				own[m++] = it[i].own_us / (double)it[i].c->kernels;
		if (m == 0)
			continue;
		qsort(own, m, sizeof(*own), cmp_double);
		fit->kind[k].median_us = m % 2 ? own[m / 2] : (own[m / 2 - 1] + own[m / 2]) / 2;
	}
	free(own);
	for (i = 0; i < n; i++) {
		const struct item *x = &it[i];
		double med, per;

		if (x->c->kind < 0 || x->c->kind == RL_KIND_CUSTOM || x->c->kernels == 0 ||
		    !x->first || x->c->first_launch)
			continue;
		med = fit->kind[x->c->kind].median_us;
		per = x->own_us / (double)x->c->kernels;
		if (per > RL_HOSTFIT_OUTLIER_RATIO * med && per - med > RL_HOSTFIT_OUTLIER_MIN_US) {
			struct rl_hostfit_extra *e = &fit->outliers[no++];

			e->call = x->idx;
			e->name = x->c->name;
			e->kind = x->c->kind;
			e->own_us = x->own_us;
			e->median_us = med;
			e->extra_us = x->own_us - med * (double)x->c->kernels;
			e->new_shape = x->first;
		}
	}
	fit->noutliers = no;
	return 0;
}

static int cmp_extra(const void *a, const void *b)
{
	const struct rl_hostfit_extra *x = a, *y = b;

	return x->call < y->call ? -1 : x->call > y->call;
}

int rl_hostfit_run(const struct rl_hostfit_call *calls, size_t n,
                   const struct rl_hostfit_skip *skip, size_t nskip, double step_us,
                   struct rl_hostfit *fit, struct rl_err *err)
{
	struct item *it = NULL, **l = NULL;
	struct rl_hostfit_skip *s = NULL;
	size_t i, j, ns = 0, nl = 0;
	double span, sc, total = 0;
	int rc = 0;

	rl_hostfit_init(fit);
	for (i = 0; i < n; i++) {
		if (calls[i].kind >= (int)RL_KIND_COUNT || calls[i].end_ns < calls[i].start_ns ||
		    calls[i].name == NULL)
			return rl_err_set(err, RL_ERR_ARG, "host call %zu: kind, name or times out of range",
			                  i);
		nl += calls[i].kind >= 0 && calls[i].kernels > 0;
	}
	if (nl == 0)
		return rl_err_set(err, RL_ERR_ARG,
		                  "no CPU op in the trace launched a kernel: nothing to charge the "
		                  "host time to (a trace recorded without CPU ops, or without "
		                  "record_shapes' ops around its kernels)");
	if ((it = calloc(n, sizeof(*it))) == NULL || (l = malloc(nl * sizeof(*l))) == NULL ||
	    merge_skips(skip, nskip, &s, &ns) < 0) {
		rc = rl_err_set(err, RL_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		it[i].c = &calls[i];
		it[i].idx = i;
	}
	qsort(it, n, sizeof(*it), cmp_start);
	span = charge_timeline(it, n, s, ns, &fit->skipped_us);
	if (!(span > 0)) {
		rc = rl_err_set(err, RL_ERR_ARG, "the step's host span is 0 us: no host time to fit");
		goto out;
	}
	sc = step_us > 0 ? step_us / span : 1;
	for (i = 0, j = 0; i < n; i++)
		if (it[i].c->kind >= 0 && it[i].c->kernels > 0)
			l[j++] = &it[i];
	qsort(l, nl, sizeof(*l), cmp_name_shape);
	if ((rc = fit_names(l, nl, fit, err)) < 0 || (rc = fit_outliers(it, n, nl, fit, err)) < 0)
		goto out;
	/* the kinds and the names' totals, scaled */
	for (i = 0, j = 0; i < nl; i++) {
		struct item *x = l[i];
		struct rl_hostfit_kind *k = &fit->kind[x->c->kind];
		struct rl_hostfit_name *nm;

		if (i > 0 && strcmp(x->c->name, l[i - 1]->c->name) != 0)
			j++;
		nm = &fit->names[j];
		k->calls++;
		k->kernels += x->c->kernels;
		k->charged_us += (x->charge_us - x->extra_us) * sc;
		nm->calls++;
		nm->kernels += x->c->kernels;
		nm->charged_us += (x->charge_us - x->extra_us) * sc;
		if (x->extra_us > 0) {
			k->extra_calls++;
			k->extra_us += x->extra_us * sc;
			nm->extra_calls++;
			nm->extra_us += x->extra_us * sc;
		}
		fit->kernels += x->c->kernels;
		total += (x->charge_us - x->extra_us) * sc;
	}
	for (i = 0; i < RL_KIND_COUNT; i++)
		if (fit->kind[i].kernels > 0)
			fit->kind[i].host_us = fit->kind[i].charged_us / (double)fit->kind[i].kernels;
	for (i = 0; i < fit->nnames; i++) {
		fit->names[i].median_us *= sc;
		fit->names[i].max_us *= sc;
	}
	for (i = 0; i < RL_KIND_COUNT; i++)
		fit->kind[i].median_us *= sc;
	for (i = 0; i < fit->noutliers; i++) {
		fit->outliers[i].own_us *= sc;
		fit->outliers[i].median_us *= sc;
		fit->outliers[i].extra_us *= sc;
	}
	for (i = 0; i < fit->nextras; i++) {
		fit->extras[i].own_us *= sc;
		fit->extras[i].median_us *= sc;
		fit->extras[i].extra_us *= sc;
	}
	qsort(fit->names, fit->nnames, sizeof(*fit->names), cmp_name_charged);
	qsort(fit->extras, fit->nextras, sizeof(*fit->extras), cmp_extra);
	qsort(fit->outliers, fit->noutliers, sizeof(*fit->outliers), cmp_extra);
	fit->span_us = span;
	fit->scale = sc;
	fit->calls = n;
	fit->launching = nl;
	fit->host_us = total / (double)fit->kernels;
out:
	free(it);
	free(l);
	free(s);
	if (rc < 0)
		rl_hostfit_release(fit);
	return rc;
}
