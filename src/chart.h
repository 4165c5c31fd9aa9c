/* chart.h - the geometry of the charts: what is drawn where, before any SVG.
 *
 * A chart collects classified ops (rl_chart_add copies what it needs, so a
 * streaming reader can feed it) and lays out the roofline chart: log-log
 * axes fitted to whole decades, one horizontal roof per pipe the ops use
 * (tensor pipes, vector pipes with and without FMA), the memory roof, and
 * each roof's ridge point. Pure: no I/O; svg.c draws what this computes.
 */
#ifndef RL_CHART_H
#define RL_CHART_H

#include <stddef.h>

#include "hwdb.h"
#include "model.h"
#include "op.h"

/* One axis: data values LO..HI drawn from pixel PX_LO to PX_HI (PX_HI may be
 * below PX_LO: SVG's y grows downwards). LOG: logarithmic (LO > 0). */
struct rl_axis {
	int log;
	double lo, hi;
	double px_lo, px_hi;
};

/* The pixel coordinate of V on A. On a log axis V must be > 0. */
double rl_axis_px(const struct rl_axis *a, double v);

/* Sets A to the smallest whole-decade log range holding MIN..MAX (both > 0):
 * lo = 10^floor(log10 MIN), hi = 10^ceil(log10 MAX), at least one decade.
 * The pixel range is left as it was. */
void rl_axis_fit_decades(struct rl_axis *a, double min, double max);

/* One roof: a pipe's peak, halved for non-FMA vector work as in the model. */
struct rl_chart_roof {
	enum rl_pipe pipe;
	int fma;            /* 1: full FMA peak (always 1 on a tensor pipe) */
	double peak_flops;  /* FLOP/s */
	double ridge;       /* peak / bandwidth, FLOP/byte */
};

#define RL_CHART_MAX_ROOFS (2 * RL_PIPE_COUNT)

/* One op as the charts need it (a copy: NAME is owned by the chart). */
struct rl_chart_point {
	char *name;
	size_t index;           /* 0-based position in the op list */
	enum rl_bound bound;
	enum rl_pipe pipe;
	int fma;                /* as the model rated it (rl_pred.fma) */
	double flops, bytes;    /* one occurrence */
	double intensity;       /* FLOP/byte; HUGE_VAL with no bytes */
	double attainable_flops; /* FLOP/s, on the roof */
	double peak_flops;      /* the op's roof */
	double t_us;            /* predicted, one occurrence */
	double total_us;        /* count x t_us */
	double measured_us;     /* one occurrence; 0 when not measured */
	double flops_per_element; /* the op list's column; 0 when not given */
	int has_fpe;
};

struct rl_chart_info {
	const struct rl_device *dev; /* borrowed */
	const char *runtime;         /* runtime profile id, borrowed */
	double host_overhead_us;
	const char *source;          /* the op list's path, or NULL; borrowed (the
	                              * chart names its last component) */
};

typedef struct rl_chart rl_chart;

/* A new, empty chart. INFO's pointers must outlive the chart. Returns 0 or
 * RL_ERR_NOMEM. */
int rl_chart_new(const struct rl_chart_info *info, rl_chart **out);

/* Adds one op and its prediction (copied). Returns 0 or RL_ERR_NOMEM. */
int rl_chart_add(rl_chart *c, const struct rl_op *op, const struct rl_pred *p);

void rl_chart_free(rl_chart *c);

const struct rl_chart_info *rl_chart_info(const rl_chart *c);
size_t rl_chart_count(const rl_chart *c);
const struct rl_chart_point *rl_chart_point(const rl_chart *c, size_t i);

/* Sum of total_us over all ops (the denominator of each op's share). */
double rl_chart_total_us(const rl_chart *c);

/* Canvas and plot area of the roofline chart, in pixels. */
#define RL_CHART_WIDTH 960
#define RL_CHART_HEIGHT 600
#define RL_PLOT_X0 110 /* left edge of the plot area */
#define RL_PLOT_X1 750 /* right edge; the legend is to its right */
#define RL_PLOT_Y0 70  /* top */
#define RL_PLOT_Y1 520 /* bottom */

/* The roofline chart's layout. */
struct rl_chart_layout {
	struct rl_axis x;   /* arithmetic intensity, FLOP/byte, log */
	struct rl_axis y;   /* FLOP/s, log */
	double bandwidth;   /* bytes/s: the memory roof is y = bandwidth x x */
	size_t nroofs;
	struct rl_chart_roof roof[RL_CHART_MAX_ROOFS]; /* highest peak first */
	size_t plotted;     /* ops with a point: FLOPs > 0 and bytes > 0 */
};

/* The roofs the ops of C use, one per (pipe, fma) pair, highest peak first;
 * a chart without an op that has FLOPs gets the device's fp32 vector FMA roof
 * so that the chart still shows a ridge. Returns the number of roofs. */
size_t rl_chart_roofs(const rl_chart *c, struct rl_chart_roof *roof);

/* Lays out C's roofline chart: the x axis spans whole decades from the
 * lowest plotted intensity (and a tenth of the lowest ridge) to ten times the
 * highest intensity or ridge, so the roofs' labels sit right of the points;
 * the y axis from the lowest attainable or measured FLOP/s (and where the
 * memory roof enters the plot) to the highest peak. */
void rl_chart_layout(const rl_chart *c, struct rl_chart_layout *l);

/* Point area in proportion to the op's share of the total time:
 * radius = 24 px x sqrt(share), at least 2.5 px. */
double rl_chart_radius(double share);

#endif
