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

double rl_axis_px(const struct rl_axis *a, double v)
{
	double f;

	if (a->log)
		f = (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
	else
		f = (v - a->lo) / (a->hi - a->lo);
	return a->px_lo + f * (a->px_hi - a->px_lo);
}

void rl_axis_fit_decades(struct rl_axis *a, double min, double max)
{
	double lo = floor(log10(min)), hi = ceil(log10(max));

	if (hi <= lo)
		hi = lo + 1;
	a->log = 1;
	a->lo = pow(10, lo);
	a->hi = pow(10, hi);
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
	pt->peak_flops = p->peak_flops;
	pt->t_us = p->t_us;
	pt->total_us = (double)op->count * p->t_us;
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
	return pt->flops > 0 && pt->bytes > 0;
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

		if (!plotted(pt))
			continue;
		l->plotted++;
		xmin = fmin(xmin, pt->intensity);
		xmax = fmax(xmax, pt->intensity);
		ymin = fmin(ymin, pt->attainable_flops);
		if (pt->measured_us > 0)
			ymin = fmin(ymin, pt->flops / (pt->measured_us * 1e-6));
	}
	l->x.px_lo = RL_PLOT_X0;
	l->x.px_hi = RL_PLOT_X1;
	rl_axis_fit_decades(&l->x, xmin, xmax * 10);

	/* The memory roof enters at the left edge; the top roof gets 0.4 of a
	 * decade of headroom for its label. Measured points above the roofs
	 * (a model error) still fit. */
	ymin = fmin(ymin, l->bandwidth * l->x.lo);
	ymax = l->roof[0].peak_flops;
	for (i = 0; i < c->n; i++)
		if (plotted(&c->pt[i]) && c->pt[i].measured_us > 0)
			ymax = fmax(ymax, c->pt[i].flops / (c->pt[i].measured_us * 1e-6));
	rl_axis_fit_decades(&l->y, ymin, ymax);
	l->y.hi = ymax * 2.5;
	l->y.px_lo = RL_PLOT_Y1;
	l->y.px_hi = RL_PLOT_Y0;
}

double rl_chart_radius(double share)
{
	double r = 24 * sqrt(share > 0 ? share : 0);

	return r < 2.5 ? 2.5 : r;
}
