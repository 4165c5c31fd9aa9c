/* chart.c - chart geometry: axes, roofs, ridge points (see chart.h). */
#include "config.h"

#include "chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

struct rl_chart {
	struct rl_chart_info info;
	struct rl_chart_point *pt;
	size_t n, cap;
	double total_us;
};

double rl_chart_axis_px(const struct rl_chart_axis *a, double v)
{
	double f;

	if (a->log)
		f = (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
	else
		f = (v - a->lo) / (a->hi - a->lo);
	return a->px_lo + f * (a->px_hi - a->px_lo);
}

/* Whole-decade exponents a log axis may take: 10^-300 .. 10^300 keep every
 * product the charts form (x 2.5, x 10) finite. */
#define MIN_EXP (-300)
#define MAX_EXP 300

static int usable(double v)
{
	return v > 0 && isfinite(v);
}

int rl_chart_axis_fit(struct rl_chart_axis *a, double min, double max)
{
	double lo, hi;
	int rc = 0;

	if (!usable(min))
		min = max;
	if (!usable(max))
		max = min;
	if (!usable(min)) {
		min = 1;
		max = 10;
		rc = RL_ERR_RANGE;
	}
	if (min > max) {
		double t = min;

		min = max;
		max = t;
	}
	lo = fmax(floor(log10(min)), MIN_EXP);
	hi = fmin(ceil(log10(max)), MAX_EXP);
	if (lo > MAX_EXP - 1)
		lo = MAX_EXP - 1;
	if (hi <= lo)
		hi = lo + 1;
	if (hi - lo > RL_CHART_MAX_DECADES)
		lo = hi - RL_CHART_MAX_DECADES;
	a->log = 1;
	a->lo = pow(10, lo);
	a->hi = pow(10, hi);
	return rc;
}

int rl_chart_axis_decades(const struct rl_chart_axis *a)
{
	double n;

	if (!usable(a->lo) || !usable(a->hi) || a->hi < a->lo)
		return 1;
	/* the tolerance keeps hi = 10^k itself when lo x 10^k rounds above it */
	n = floor(log10(a->hi / a->lo) + 1e-4) + 1;
	if (!(n >= 1))
		return 1;
	return n > RL_CHART_MAX_DECADES + 1 ? RL_CHART_MAX_DECADES + 1 : (int)n;
}

int rl_chart_new(const struct rl_chart_info *info, rl_chart **out)
{
	rl_chart *c = calloc(1, sizeof(*c));

	*out = c;
	if (c == NULL)
		return RL_ERR_NOMEM;
	c->info = *info;
	return 0;
}

int rl_chart_add(rl_chart *c, const struct rl_op *op, const struct rl_pred *p)
{
	struct rl_chart_point *pt;

	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		struct rl_chart_point *np = realloc(c->pt, cap * sizeof(*np));

		if (np == NULL)
			return RL_ERR_NOMEM;
		c->pt = np;
		c->cap = cap;
	}
	pt = &c->pt[c->n];
	memset(pt, 0, sizeof(*pt));
	pt->name = strdup(op->name);
	if (pt->name == NULL)
		return RL_ERR_NOMEM;
	pt->index = c->n;
	pt->bound = p->bound;
	pt->pipe = p->pipe;
	pt->fma = rl_pipe_is_tensor(p->pipe) ? 1 : p->fma;
	pt->flops = p->flops;
	pt->bytes = p->bytes;
	pt->intensity = p->intensity;
	pt->attainable_flops = p->attainable_flops;
	/* the time includes the host overhead and the launch floor: an
	 * overhead-bound op achieves less than its roof */
	pt->predicted_flops = p->flops > 0 && p->t_us > 0
	                          ? fmin(p->attainable_flops, p->flops / (p->t_us * 1e-6))
	                          : p->attainable_flops;
	pt->peak_flops = p->peak_flops;
	pt->t_us = p->t_us;
	/* the expected point: same intensity, the FLOP/s of the expected time */
	pt->expected_us = p->expected_us;
	pt->expected_bound = p->expected_bound;
	pt->expected_flops = p->flops > 0 && p->expected_us > 0
	                         ? fmin(p->attainable_flops, p->flops / (p->expected_us * 1e-6))
	                         : 0;
	pt->total_us = (double)op->count * p->expected_us;
	if ((op->has & RL_HAS_MEASURED) && op->measured_us > 0)
		pt->measured_us = op->measured_us;
	if (op->has & RL_HAS_FPE) {
		pt->has_fpe = 1;
		pt->flops_per_element = op->flops_per_element;
	}
	c->total_us += pt->total_us;
	c->n++;
	return 0;
}

void rl_chart_free(rl_chart *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->n; i++)
		free(c->pt[i].name);
	free(c->pt);
	free(c);
}

const struct rl_chart_info *rl_chart_info(const rl_chart *c)
{
	return &c->info;
}

size_t rl_chart_count(const rl_chart *c)
{
	return c->n;
}

const struct rl_chart_point *rl_chart_point(const rl_chart *c, size_t i)
{
	return &c->pt[i];
}

double rl_chart_total_us(const rl_chart *c)
{
	return c->total_us;
}

double rl_chart_share(const rl_chart *c, double us)
{
	double s = us / c->total_us;

	return usable(c->total_us) && usable(us) && s > 0 ? fmin(s, 1) : 0;
}

double rl_chart_measured_flops(const struct rl_chart_point *pt)
{
	double v = pt->measured_us > 0 ? pt->flops / (pt->measured_us * 1e-6) : 0;

	return usable(v) ? v : 0;
}

static int roof_cmp(const void *a, const void *b)
{
	const struct rl_chart_roof *x = a, *y = b;

	if (x->peak_flops != y->peak_flops)
		return x->peak_flops > y->peak_flops ? -1 : 1;
	if (x->pipe != y->pipe)
		return x->pipe < y->pipe ? -1 : 1;
	return y->fma - x->fma;
}

size_t rl_chart_roofs(const rl_chart *c, struct rl_chart_roof *roof)
{
	double bw = rl_device_bandwidth_bytes_per_s(c->info.dev);
	size_t i, j, n = 0;

	for (i = 0; i < c->n; i++) {
		const struct rl_chart_point *pt = &c->pt[i];

		/* An op without FLOPs (a copy) uses no pipe. */
		if (pt->flops <= 0 || pt->pipe == RL_PIPE_NONE)
			continue;
		for (j = 0; j < n; j++)
			if (roof[j].pipe == pt->pipe && roof[j].fma == pt->fma)
				break;
		if (j < n)
			continue;
		roof[n].pipe = pt->pipe;
		roof[n].fma = pt->fma;
		roof[n].peak_flops = pt->peak_flops;
		roof[n].ridge = pt->peak_flops / bw;
		n++;
	}
	if (n == 0) {
		roof[0].pipe = RL_PIPE_FP32_VECTOR;
		roof[0].fma = 1;
		roof[0].peak_flops = rl_device_peak_flops(c->info.dev, RL_PIPE_FP32_VECTOR);
		roof[0].ridge = roof[0].peak_flops / bw;
		n = 1;
	}
	qsort(roof, n, sizeof(*roof), roof_cmp);
	return n;
}

/* A point is plotted when both coordinates are finite and positive. */
static int plotted(const struct rl_chart_point *pt)
{
	return pt->flops > 0 && pt->bytes > 0 && usable(pt->intensity) &&
	       usable(pt->predicted_flops);
}

void rl_chart_layout(const rl_chart *c, struct rl_chart_layout *l)
{
	double xmin = HUGE_VAL, xmax = 0, ymin = HUGE_VAL, ymax;
	size_t i;

	memset(l, 0, sizeof(*l));
	l->bandwidth = rl_device_bandwidth_bytes_per_s(c->info.dev);
	l->nroofs = rl_chart_roofs(c, l->roof);
	for (i = 0; i < l->nroofs; i++) {
		xmin = fmin(xmin, l->roof[i].ridge / 10);
		xmax = fmax(xmax, l->roof[i].ridge);
	}
	for (i = 0; i < c->n; i++) {
		const struct rl_chart_point *pt = &c->pt[i];

		if (!(pt->flops > 0)) {
			l->copies++;
			l->copies_us += pt->total_us;
		} else if (!(pt->bytes > 0)) {
			l->no_bytes++;
		}
		if (!plotted(pt))
			continue;
		l->plotted++;
		xmin = fmin(xmin, pt->intensity);
		xmax = fmax(xmax, pt->intensity);
		ymin = fmin(ymin, pt->predicted_flops);
		if (rl_chart_measured_flops(pt) > 0)
			ymin = fmin(ymin, rl_chart_measured_flops(pt));
		if (!c->info.best_case && usable(pt->expected_flops))
			ymin = fmin(ymin, pt->expected_flops);
	}
	l->x.px_lo = RL_PLOT_X0;
	l->x.px_hi = RL_PLOT_X1;
	rl_chart_axis_fit(&l->x, xmin, fmin(xmax, 1e299) * 10);

	/* The memory roof enters at the left edge; the top roof gets 0.4 of a
	 * decade of headroom for its label. Measured points above the roofs
	 * (a model error) still fit. */
	ymin = fmin(ymin, l->bandwidth * l->x.lo);
	ymax = l->roof[0].peak_flops;
	for (i = 0; i < c->n; i++)
		if (plotted(&c->pt[i]))
			ymax = fmax(ymax, rl_chart_measured_flops(&c->pt[i]));
	rl_chart_axis_fit(&l->y, ymin, ymax);
	if (usable(ymax * 2.5) && ymax * 2.5 > l->y.lo)
		l->y.hi = ymax * 2.5;
	l->y.px_lo = RL_PLOT_Y1;
	l->y.px_hi = RL_PLOT_Y0;
}

double rl_chart_radius(double share)
{
	double r = 24 * sqrt(share > 0 ? share : 0);

	return r < 2.5 ? 2.5 : r;
}

double rl_chart_sweep_value(const struct rl_chart_point *pt, enum rl_chart_sweep_panel p,
                            int measured)
{
	/* the expected time: the roofline's with --best-case */
	double us = measured ? pt->measured_us : pt->expected_us, v = 0;

	if (!(us > 0))
		return 0;
	switch (p) {
	case RL_SWEEP_TIME: v = us; break;
	case RL_SWEEP_FLOPS: v = pt->flops / (us * 1e-6); break;
	case RL_SWEEP_BW: v = pt->bytes / (us * 1e-6); break;
	}
	return usable(v) ? v : 0;
}

double rl_chart_sweep_x(const struct rl_chart_sweep *s, const struct rl_chart_point *pt)
{
	return s->by_fpe ? pt->flops_per_element : (double)(pt->index + 1);
}

static void sweep_x(const rl_chart *c, struct rl_chart_sweep *s)
{
	size_t i, k;

	s->by_fpe = c->n > 0;
	for (i = 0; i < c->n; i++)
		if (!c->pt[i].has_fpe || !usable(c->pt[i].flops_per_element))
			s->by_fpe = 0;
	s->x.px_lo = RL_PLOT_X0;
	s->x.px_hi = RL_PLOT_X1;
	if (s->by_fpe) {
		double lo = HUGE_VAL, hi = 0;

		for (i = 0; i < c->n; i++) {
			double v = c->pt[i].flops_per_element;

			lo = fmin(lo, v);
			hi = fmax(hi, v);
			for (k = 0; k < s->nticks && s->tick[k] != v; k++)
				;
			if (k == s->nticks && s->nticks <= 16)
				s->tick[s->nticks++] = v;
		}
		/* too many distinct values: decades instead */
		if (s->nticks > 16)
			s->nticks = 0;
		s->x.log = 1;
		s->x.lo = lo / 1.414;
		s->x.hi = hi * 1.414;
		/* one value, or values too close or too far apart for a log axis
		 * of finite pixels: whole decades around them */
		if (!usable(s->x.lo) || !usable(s->x.hi) || !(s->x.hi / s->x.lo > 1.01) ||
		    log10(s->x.hi / s->x.lo) > RL_CHART_MAX_DECADES)
			rl_chart_axis_fit(&s->x, lo, hi);
	} else {
		size_t step = c->n <= RL_SWEEP_MAX_TICKS ? 1 : (c->n + 9) / 10;

		s->x.log = 0;
		s->x.lo = 0.5;
		s->x.hi = (double)c->n + 0.5;
		for (i = 1; i <= c->n && s->nticks < RL_SWEEP_MAX_TICKS; i += step)
			s->tick[s->nticks++] = (double)i;
	}
}

int rl_chart_sweep_layout(const rl_chart *c, struct rl_chart_sweep *s, struct rl_err *err)
{
	int p, m;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (c->n == 0)
		return rl_err_set(err, RL_ERR_RANGE, "no ops to plot");
	sweep_x(c, s);
	s->bandwidth = rl_device_bandwidth_bytes_per_s(c->info.dev);
	s->nroofs = rl_chart_roofs(c, s->roof);
	for (p = 0; p < RL_SWEEP_PANELS; p++) {
		double y0 = RL_SWEEP_PANEL_TOP + p * (RL_SWEEP_PANEL_H + RL_SWEEP_PANEL_GAP);
		double lo = HUGE_VAL, hi = 0, ref = 0, v;
		struct rl_chart_axis *y = &s->y[p];

		for (i = 0; i < c->n; i++)
			for (m = 0; m < 2; m++)
				if ((v = rl_chart_sweep_value(&c->pt[i], (enum rl_chart_sweep_panel)p,
				                              m)) > 0) {
					lo = fmin(lo, v);
					hi = fmax(hi, v);
					s->points[p] += !m;
				}
		if (p == RL_SWEEP_FLOPS)
			for (i = 0; i < s->nroofs; i++)
				ref = fmax(ref, s->roof[i].peak_flops);
		if (p == RL_SWEEP_BW)
			ref = s->bandwidth;
		if (p == RL_SWEEP_TIME && lo == HUGE_VAL)
			lo = 1, hi = 10;
		/* a panel without values spans its references */
		if (lo == HUGE_VAL)
			lo = ref;
		hi = fmax(hi, ref);
		rl_chart_axis_fit(y, lo, hi);
		if (usable(hi * 2))
			y->hi = fmax(y->hi, hi * 2);
		y->px_lo = y0 + RL_SWEEP_PANEL_H;
		y->px_hi = y0;
	}
	return 0;
}

/* ---- the sweep table's chart -------------------------------------------- */

/* Fits A to the positive values of V[0..N) and W[0..N) (W may be NULL) and
 * puts it on pixels Y0 (top) .. Y0 + RL_SWEEPTAB_PANEL_H. */
static void sweeptab_y(struct rl_chart_axis *a, const double *v, const double *w, size_t n,
                       double y0)
{
	double lo = HUGE_VAL, hi = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (usable(v[i]))
			lo = fmin(lo, v[i]), hi = fmax(hi, v[i]);
		if (w != NULL && usable(w[i]))
			lo = fmin(lo, w[i]), hi = fmax(hi, w[i]);
	}
	rl_chart_axis_fit(a, lo, hi);
	if (usable(hi * 2))
		a->hi = fmax(a->hi, hi * 2);
	a->px_lo = y0 + RL_SWEEPTAB_PANEL_H;
	a->px_hi = y0;
}

int rl_chart_sweeptab_layout(const struct rl_sweep_table *t, struct rl_chart_sweeptab *l,
                             struct rl_err *err)
{
	double step[RL_SWEEP_MAX_VALUES], roof[RL_SWEEP_MAX_VALUES];
	double rate[RL_SWEEP_MAX_VALUES], rate_roof[RL_SWEEP_MAX_VALUES];
	double lo, hi;
	size_t i, every;

	memset(l, 0, sizeof(*l));
	l->knee = l->oom = -1;
	if (t->n == 0)
		return rl_err_set(err, RL_ERR_RANGE, "no rows to plot");
	for (i = 0; i < t->n; i++) {
		step[i] = t->row[i].step_us;
		roof[i] = t->row[i].roofline_us;
		rate[i] = rl_sweep_row_per_s(&t->row[i], 0);
		rate_roof[i] = rl_sweep_row_per_s(&t->row[i], 1);
		if (rate[i] > 0 || rate_roof[i] > 0)
			l->has_rate = 1;
	}
	lo = (double)t->row[0].value;
	hi = (double)t->row[t->n - 1].value;
	l->x.px_lo = RL_PLOT_X0;
	l->x.px_hi = RL_PLOT_X1;
	if (hi / lo >= 8) {
		l->x.log = 1;
		l->x.lo = lo / 1.414;
		l->x.hi = hi * 1.414;
	} else {
		double pad = hi > lo ? (hi - lo) * 0.05 : 0.5;

		l->x.lo = lo - pad;
		l->x.hi = hi + pad;
	}
	every = t->n <= RL_SWEEP_MAX_TICKS ? 1 : (t->n + 9) / 10;
	for (i = 0; i < t->n; i += every)
		l->tick[l->nticks++] = (double)t->row[i].value;
	sweeptab_y(&l->rate, rate, rate_roof, t->n, RL_SWEEPTAB_PANEL_TOP);
	sweeptab_y(&l->time, step, roof, t->n,
	           RL_SWEEPTAB_PANEL_TOP + RL_SWEEPTAB_PANEL_H + RL_SWEEPTAB_PANEL_GAP);
	l->knee = rl_sweep_knee(t);
	l->oom = rl_sweep_oom(t);
	return 0;
}
