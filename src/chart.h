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

#include "err.h"
#include "hwdb.h"
#include "model.h"
#include "op.h"
#include "sweep.h"

/* One axis: data values LO..HI drawn from pixel PX_LO to PX_HI (PX_HI may be
 * below PX_LO: SVG's y grows downwards). LOG: logarithmic (LO > 0). */
struct rl_chart_axis {
	int log;
	double lo, hi;
	double px_lo, px_hi;
};

/* The pixel coordinate of V on A. On a log axis V must be > 0. */
double rl_chart_axis_px(const struct rl_chart_axis *a, double v);

/* The most decades a fitted log axis spans (1e-300 .. 1e300 would be 600). */
#define RL_CHART_MAX_DECADES 40

/* Sets A to the smallest whole-decade log range holding MIN..MAX: lo =
 * 10^floor(log10 MIN), hi = 10^ceil(log10 MAX), at least one decade, within
 * 1e-300 .. 1e300 and at most RL_CHART_MAX_DECADES (the top kept). A bound
 * that is not finite and > 0 takes the other's value; with neither, A gets
 * 1 .. 10 and RL_ERR_RANGE is returned, else 0. Never leaves lo >= hi or a
 * bound that is not finite. The pixel range is left as it was. */
int rl_chart_axis_fit(struct rl_chart_axis *a, double min, double max);

/* The number of decade lines of the log axis A: lo, 10 lo, ... up to hi,
 * at most RL_CHART_MAX_DECADES + 1 whatever A holds, so loops over them end. */
int rl_chart_axis_decades(const struct rl_chart_axis *a);

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
	double predicted_flops; /* FLOP/s the prediction achieves: flops / t_us,
	                         * host overhead and launch floor included, so
	                         * below the roof for an overhead-bound op; 0
	                         * without FLOPs */
	double peak_flops;      /* the op's roof */
	double t_us;            /* predicted, one occurrence */
	double expected_us;     /* expected (model.h), one occurrence */
	double expected_flops;  /* FLOP/s at the expected time: flops /
	                         * expected_us, at most the roof; 0 without FLOPs */
	enum rl_bound expected_bound;
	double total_us;        /* count x expected_us (the roofline's t_us with
	                         * --best-case) */
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
	int best_case;               /* --best-case: no expected points */
	const double *host_kind_us;  /* NULL, or per op kind (RL_KIND_COUNT) */
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

/* The share of C's total time that US is, 0 .. 1; 0 when either is not a
 * finite positive number. */
double rl_chart_share(const rl_chart *c, double us);

/* PT's measured FLOP/s, flops / measured_us; 0 when not measured, or when
 * that is not a finite positive number. */
double rl_chart_measured_flops(const struct rl_chart_point *pt);

/* Canvas and plot area of the roofline chart, in pixels. */
#define RL_CHART_WIDTH 960
#define RL_CHART_HEIGHT 600
#define RL_PLOT_X0 110 /* left edge of the plot area */
#define RL_PLOT_X1 750 /* right edge; the legend is to its right */
#define RL_PLOT_Y0 70  /* top */
#define RL_PLOT_Y1 520 /* bottom */

/* The roofline chart's layout. */
struct rl_chart_layout {
	struct rl_chart_axis x;   /* arithmetic intensity, FLOP/byte, log */
	struct rl_chart_axis y;   /* FLOP/s, log */
	double bandwidth;   /* bytes/s: the memory roof is y = bandwidth x x */
	size_t nroofs;
	struct rl_chart_roof roof[RL_CHART_MAX_ROOFS]; /* highest peak first */
	size_t plotted;     /* ops with a point: FLOPs > 0 and bytes > 0 */
	size_t copies;      /* ops without FLOPs (copies): no point on log axes */
	double copies_us;   /* their total_us */
	size_t no_bytes;    /* ops with FLOPs but no bytes: infinite intensity */
};

/* The roofs the ops of C use, one per (pipe, fma) pair, highest peak first;
 * a chart without an op that has FLOPs gets the device's fp32 vector FMA roof
 * so that the chart still shows a ridge. Returns the number of roofs. */
size_t rl_chart_roofs(const rl_chart *c, struct rl_chart_roof *roof);

/* Lays out C's roofline chart: the x axis spans whole decades from the
 * lowest plotted intensity (and a tenth of the lowest ridge) to ten times the
 * highest intensity or ridge, so the roofs' labels sit right of the points;
 * the y axis from the lowest predicted or measured FLOP/s (and where the
 * memory roof enters the plot) to the highest peak. Any chart, even one
 * without ops, gets finite axes. */
void rl_chart_layout(const rl_chart *c, struct rl_chart_layout *l);

/* The sweep chart: three panels against one x axis. */
enum rl_chart_sweep_panel {
	RL_SWEEP_TIME,  /* predicted time per op, us */
	RL_SWEEP_FLOPS, /* achieved FLOP/s: flops / time */
	RL_SWEEP_BW,    /* achieved bandwidth: bytes / time, bytes/s */
};

#define RL_SWEEP_PANELS (RL_SWEEP_BW + 1)

#define RL_SWEEP_HEIGHT 760
#define RL_SWEEP_PANEL_TOP 80
#define RL_SWEEP_PANEL_H 170
#define RL_SWEEP_PANEL_GAP 50
#define RL_SWEEP_MAX_TICKS 20

struct rl_chart_sweep {
	int by_fpe;          /* 1: x is flops_per_element (every op gives one
	                      * above 0), log axis; 0: the op's position from 1,
	                      * linear axis */
	struct rl_chart_axis x;
	size_t nticks;       /* x ticks; 0 on a log axis: decade lines */
	double tick[RL_SWEEP_MAX_TICKS];
	struct rl_chart_axis y[RL_SWEEP_PANELS];
	size_t points[RL_SWEEP_PANELS]; /* ops with a predicted value > 0 */
	double bandwidth;    /* bytes/s, the bandwidth panel's reference */
	size_t nroofs;       /* the FLOP/s panel's references */
	struct rl_chart_roof roof[RL_CHART_MAX_ROOFS];
};

/* The value of panel P for PT, predicted (MEASURED 0, from expected_us: the
 * roofline's t_us with --best-case) or measured
 * (from measured_us); 0 when there is none (no time, or no FLOPs on the
 * FLOP/s panel). */
double rl_chart_sweep_value(const struct rl_chart_point *pt, enum rl_chart_sweep_panel p,
                            int measured);

/* The x value of PT on S's axis: its flops_per_element or its position. */
double rl_chart_sweep_x(const struct rl_chart_sweep *s, const struct rl_chart_point *pt);

/* Lays out C's sweep chart. x: flops_per_element padded by a factor of
 * 1.414 each side, with a tick at each distinct value (decades beyond 16), or
 * the position on 0.5 .. n + 0.5 with a tick at every op (up to 20 ops) or
 * at every ceil(n / 10)th. Each panel's y axis spans whole decades over its
 * values, predicted and measured, and its references (the roofs, the
 * bandwidth), with room above: hi at least twice the highest. A panel without
 * values is fitted to its references (1 .. 10 us for time). Returns 0, or
 * RL_ERR_RANGE for a chart without ops (message in ERR: "no ops to plot"). */
int rl_chart_sweep_layout(const rl_chart *c, struct rl_chart_sweep *s, struct rl_err *err);

/* The sweep table's chart (roofline plot --sweep-table): a sweep
 * (sweep.h) read back from its csv, throughput above and step time below,
 * against the swept value. */
#define RL_SWEEPTAB_HEIGHT    640
#define RL_SWEEPTAB_PANEL_TOP 80
#define RL_SWEEPTAB_PANEL_H   200
#define RL_SWEEPTAB_PANEL_GAP 80

struct rl_chart_sweeptab {
	struct rl_chart_axis x; /* the swept value: log when the values span 8x
	                         * or more, else linear */
	size_t nticks;          /* a tick at each value (every k-th beyond 20) */
	double tick[RL_SWEEP_MAX_TICKS];
	struct rl_chart_axis rate; /* items/s, log: the upper panel */
	struct rl_chart_axis time; /* step time in us, log: the lower panel */
	int has_rate;              /* the table has items (else the upper panel
	                            * says so) */
	int knee, oom;             /* rl_sweep_knee, rl_sweep_oom: row or -1 */
};

/* Lays out T's chart: x padded by a factor 1.414 each side (log) or 5 % of
 * the span (linear; half a unit around a single value); each panel's y axis
 * spans whole decades over its values, expected and best case, with room
 * above (hi at least twice the highest). Returns 0, or RL_ERR_RANGE for a
 * table without rows (ERR: "no rows to plot"). */
int rl_chart_sweeptab_layout(const struct rl_sweep_table *t, struct rl_chart_sweeptab *l,
                             struct rl_err *err);

/* Point area in proportion to the op's share of the total time:
 * radius = 24 px x sqrt(share), at least 2.5 px. */
double rl_chart_radius(double share);

#endif
