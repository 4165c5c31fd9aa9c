/* summary.c - running totals of a classified op list (see summary.h). */
#include "config.h"

#include "summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

void rl_summary_init(struct rl_summary *s)
{
	memset(s, 0, sizeof(*s));
}

void rl_summary_release(struct rl_summary *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->ntop; i++)
		free(s->top[i].name);
	free(s->err_measured_us);
	free(s->err_expected);
	free(s->err_roofline);
	memset(s, 0, sizeof(*s));
}

/* Keeps OP's measured time and the two errors for rl_summary_err. */
static int keep_error(struct rl_summary *s, double measured_us, const struct rl_pred *p)
{
	if (s->nerr == s->caperr) {
		size_t cap = s->caperr ? 2 * s->caperr : 64;
		double *m = realloc(s->err_measured_us, cap * sizeof(double));

		if (m == NULL)
			return RL_ERR_NOMEM;
		s->err_measured_us = m;
		m = realloc(s->err_expected, cap * sizeof(double));
		if (m == NULL)
			return RL_ERR_NOMEM;
		s->err_expected = m;
		m = realloc(s->err_roofline, cap * sizeof(double));
		if (m == NULL)
			return RL_ERR_NOMEM;
		s->err_roofline = m;
		s->caperr = cap;
	}
	s->err_measured_us[s->nerr] = measured_us;
	s->err_expected[s->nerr] = fabs(p->expected_gpu_us - measured_us) / measured_us;
	s->err_roofline[s->nerr] = fabs(p->t_gpu_us - measured_us) / measured_us;
	s->nerr++;
	return 0;
}

int rl_summary_err(const struct rl_summary *s, double min_measured_us, struct rl_summary_err *out)
{
	double *e, *r;
	size_t i, n = 0;

	memset(out, 0, sizeof(*out));
	if (s->nerr == 0)
		return 0;
	e = malloc(s->nerr * sizeof(double));
	r = malloc(s->nerr * sizeof(double));
	if (e == NULL || r == NULL) {
		free(e);
		free(r);
		return RL_ERR_NOMEM;
	}
	for (i = 0; i < s->nerr; i++) {
		if (s->err_measured_us[i] < min_measured_us)
			continue;
		e[n] = s->err_expected[i];
		r[n++] = s->err_roofline[i];
	}
	out->ops = n;
	if (n > 0) {
		/* rl_quantile (bench.h): linear between order statistics */
		out->expected_median = rl_quantile(e, n, 0.5);
		out->expected_p90 = rl_quantile(e, n, 0.9);
		out->roofline_median = rl_quantile(r, n, 0.5);
		out->roofline_p90 = rl_quantile(r, n, 0.9);
	}
	free(e);
	free(r);
	if (isnan(out->expected_median) || isnan(out->expected_p90) ||
	    isnan(out->roofline_median) || isnan(out->roofline_p90))
		return RL_ERR_NOMEM;
	return 0;
}

int rl_summary_add(struct rl_summary *s, const struct rl_op *op, const struct rl_pred *p,
                   struct rl_err *err)
{
	double n = (double)op->count;
	double t = n * p->expected_us;
	size_t i, k;
	char *name;

	/* counted in integers: a double stops counting exactly at 2^53 */
	if (op->count > UINT64_MAX - s->occurrences)
		return rl_err_set(err, RL_ERR_RANGE,
		                  "column 'count': the total of occurrences passes 2^64 - 1 "
		                  "(%llu before this op, %llu in it)",
		                  (unsigned long long)s->occurrences,
		                  (unsigned long long)op->count);
	if ((op->has & RL_HAS_MEASURED) && op->measured_us > 0 &&
	    keep_error(s, op->measured_us, p) < 0)
		return RL_ERR_NOMEM;
	s->ops++;
	s->occurrences += op->count;
	s->total_us += t;
	s->gpu_us += n * p->expected_gpu_us;
	s->roofline_us += n * p->t_us;
	s->roofline_gpu_us += n * p->t_gpu_us;
	s->bound_us[p->expected_bound] += t;
	s->bound_ops[p->expected_bound]++;
	s->roofline_bound_us[p->bound] += n * p->t_us;
	s->roofline_bound_ops[p->bound]++;
	s->bound_differs += p->expected_bound != p->bound;
	s->phase_us[op->phase] += t;
	s->phase_roofline_us[op->phase] += n * p->t_us;
	s->phase_flops[op->phase] += n * p->flops;
	s->phase_bytes[op->phase] += n * p->bytes;
	s->phase_ops[op->phase]++;
	if (rl_kind_is_collective(op->kind)) {
		s->comm_us += t;
		s->comm_overlap_us += op->overlap ? t : 0;
		s->comm_ops++;
	}
	s->flops += n * p->flops;
	s->kernels += n * p->expected_kernels;
	s->bytes += n * p->bytes;
	s->fallbacks += p->fallback != 0;
	s->l2_ops += p->l2_resident != 0;
	s->l2_saved_us += n * p->l2_saved_us;
	if (op->has & RL_HAS_MEASURED) {
		s->measured_ops++;
		s->measured_us += n * op->measured_us;
		s->roofline_of_measured_us += n * p->t_gpu_us;
		s->expected_of_measured_us += n * p->expected_gpu_us;
	}

	/* Insertion into a short sorted list; ties keep file order. */
	for (k = 0; k < s->ntop; k++)
		if (t > s->top[k].total_us)
			break;
	if (k == RL_SUMMARY_TOP)
		return 0;
	name = strdup(op->name);
	if (name == NULL)
		return RL_ERR_NOMEM;
	if (s->ntop == RL_SUMMARY_TOP)
		free(s->top[--s->ntop].name);
	for (i = s->ntop; i > k; i--)
		s->top[i] = s->top[i - 1];
	s->top[k] =
	    (struct rl_summary_top){name, op->line, p->bound, p->expected_bound, t, n * p->t_us};
	s->ntop++;
	return 0;
}
