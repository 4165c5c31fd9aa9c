/* column.c - the table of the op-list report's per-op columns (see
 * column.h): one row per column with its getter. */
#include "config.h"

#include "column.h"

#include <string.h>

#include "dtype.h"
#include "fmt.h"

/* Getters: one line each, named after the column. */
#define GET(fn) static int fn(const struct rl_col_row *r, union rl_col_val *v)
#define PRED_NUM(fn, expr)                                                                        \
	GET(fn)                                                                                   \
	{                                                                                         \
		v->n = (expr);                                                                    \
		return 1;                                                                         \
	}

GET(get_name)
{
	v->s = r->op->name;
	return 1;
}

GET(get_kind)
{
	v->s = rl_kind_name(r->op->kind);
	return 1;
}

GET(get_dtype)
{
	v->s = rl_dtype_name(r->op->dtype);
	return 1;
}

GET(get_phase)
{
	v->s = rl_phase_name(r->op->phase);
	return r->has_phase;
}

GET(get_count)
{
	v->u = r->op->count;
	return 1;
}

PRED_NUM(get_flops, r->p->flops)
PRED_NUM(get_bytes, r->p->bytes)
PRED_NUM(get_intensity, r->p->intensity)

GET(get_unit)
{
	v->s = rl_unit_name(r->p->unit);
	return 1;
}

GET(get_pipe)
{
	v->s = rl_pipe_key(r->p->pipe);
	return 1;
}

GET(get_fallback)
{
	v->b = r->p->fallback;
	return 1;
}

PRED_NUM(get_peak_tflops, r->p->peak_flops / 1e12)
PRED_NUM(get_ridge, r->p->ridge)
PRED_NUM(get_bandwidth, r->p->bandwidth / 1e9)
PRED_NUM(get_t_compute, r->p->t_compute_us)
PRED_NUM(get_t_memory, r->p->t_memory_us)
PRED_NUM(get_t_overhead, r->p->t_overhead_us)
PRED_NUM(get_t_launch, r->p->t_launch_us)
PRED_NUM(get_t_gpu, r->p->t_gpu_us)
PRED_NUM(get_t, r->p->t_us)

GET(get_bound)
{
	v->s = rl_bound_name(r->p->bound);
	return 1;
}

/* the interconnect's parts (collective.h), collectives only */
GET(get_ranks)
{
	v->u = r->op->ranks;
	return rl_kind_is_collective(r->op->kind);
}

GET(get_nodes)
{
	v->u = r->op->nodes;
	return rl_kind_is_collective(r->op->kind);
}

#define NET_NUM(fn, field)                                                                        \
	GET(fn)                                                                                   \
	{                                                                                         \
		v->n = r->p->field;                                                               \
		return rl_kind_is_collective(r->op->kind);                                        \
	}

NET_NUM(get_t_network, t_network_us)
NET_NUM(get_t_net_intra, t_net_intra_us)
NET_NUM(get_t_net_inter, t_net_inter_us)
NET_NUM(get_t_net_latency, t_net_latency_us)

PRED_NUM(get_attainable, r->p->attainable_flops / 1e12)

GET(get_l2_resident)
{
	v->b = r->p->l2_resident;
	return 1;
}

GET(get_l2_bytes)
{
	v->n = r->p->l2_bytes;
	return r->p->l2_resident;
}

GET(get_l2_saved)
{
	v->n = r->p->l2_saved_us;
	return r->p->l2_resident && r->l2;
}

PRED_NUM(get_expected_gpu, r->p->expected_gpu_us)
PRED_NUM(get_expected_kernels, r->p->expected_kernels)
PRED_NUM(get_expected, r->p->expected_us)

GET(get_expected_bound)
{
	v->s = rl_bound_name(r->p->expected_bound);
	return 1;
}

GET(get_expected_note)
{
	v->s = r->p->expected_note;
	return v->s != NULL;
}

GET(get_advice)
{
	v->s = rl_op_advice(r->op, r->p);
	return 1;
}

GET(get_measured)
{
	v->n = r->op->measured_us;
	return (r->op->has & RL_HAS_MEASURED) != 0;
}

GET(get_roofline_pct)
{
	v->n = r->p->roofline_pct;
	return (r->op->has & RL_HAS_MEASURED) != 0;
}

/* measured / expected and measured / roofline, where the time is positive */
GET(get_over_expected)
{
	v->n = r->op->measured_us / r->p->expected_gpu_us;
	return (r->op->has & RL_HAS_MEASURED) && r->p->expected_gpu_us > 0;
}

GET(get_over_roofline)
{
	v->n = r->op->measured_us / r->p->t_gpu_us;
	return (r->op->has & RL_HAS_MEASURED) && r->p->t_gpu_us > 0;
}

GET(get_host)
{
	v->n = r->op->host_us;
	return (r->op->has & RL_HAS_HOST) != 0;
}

GET(get_line)
{
	v->n = (double)r->op->line;
	return r->op->line > 0;
}

#define CSV RL_COLF_CSV
#define JSON RL_COLF_JSON
#define BOTH (RL_COLF_CSV | RL_COLF_JSON)
#define STATIC RL_COLF_STATIC
#define HTML RL_COLF_HTML

/* name, type, formats, csv position, csv condition, table style, getter,
 * doc; in json's key order. */
const struct rl_column rl_columns[RL_COL_COUNT] = {
	[RL_COL_NAME] = {"name", RL_COL_STR, BOTH, 1, RL_COLW_ALWAYS, RL_STYLE_TEXT, get_name,
	                 "the op's name"},
	[RL_COL_KIND] = {"kind", RL_COL_STR, BOTH | STATIC, 2, RL_COLW_ALWAYS, RL_STYLE_TEXT, get_kind,
	                 "op kind"},
	[RL_COL_DTYPE] = {"dtype", RL_COL_STR, BOTH | STATIC, 3, RL_COLW_ALWAYS, RL_STYLE_TEXT, get_dtype,
	                  "data type"},
	[RL_COL_PHASE] = {"phase", RL_COL_STR, BOTH | STATIC, 25, RL_COLW_PHASE, RL_STYLE_TEXT, get_phase,
	                  "forward, backward or optimizer (training steps)"},
	[RL_COL_OP_COUNT] = {"count", RL_COL_U64, BOTH, 4, RL_COLW_ALWAYS, RL_STYLE_TEXT,
	                     get_count, "occurrences"},
	[RL_COL_FLOPS] = {"flops", RL_COL_NUM, BOTH, 5, RL_COLW_ALWAYS, RL_STYLE_TEXT, get_flops,
	                  "FLOPs of one occurrence"},
	[RL_COL_BYTES] = {"bytes", RL_COL_NUM, BOTH, 6, RL_COLW_ALWAYS, RL_STYLE_TEXT, get_bytes,
	                  "bytes moved by one occurrence"},
	[RL_COL_INTENSITY] = {"intensity", RL_COL_NUM, BOTH, 7, RL_COLW_ALWAYS,
	                      RL_STYLE_INTENSITY, get_intensity, "FLOP/byte"},
	[RL_COL_UNIT] = {"unit", RL_COL_STR, BOTH | STATIC, 8, RL_COLW_ALWAYS, RL_STYLE_TEXT, get_unit,
	                 "tensor or vector unit"},
	[RL_COL_PIPE] = {"pipe", RL_COL_STR, JSON | STATIC, 0, RL_COLW_ALWAYS, RL_STYLE_TEXT, get_pipe,
	                 "the pipe whose peak is used"},
	[RL_COL_FALLBACK] = {"fallback", RL_COL_BOOL, JSON, 0, RL_COLW_ALWAYS, RL_STYLE_TEXT,
	                     get_fallback, "the device lacks the asked-for pipe"},
	[RL_COL_PEAK_TFLOPS] = {"peak_tflops", RL_COL_NUM, JSON, 0, RL_COLW_ALWAYS,
	                        RL_STYLE_FIXED2, get_peak_tflops, "the pipe's peak, TFLOP/s"},
	[RL_COL_RIDGE] = {"ridge_flop_per_byte", RL_COL_NUM, JSON, 0, RL_COLW_ALWAYS,
	                  RL_STYLE_FIXED2, get_ridge, "the ridge point, FLOP/byte"},
	[RL_COL_BANDWIDTH] = {"bandwidth_gbs", RL_COL_NUM, JSON, 0, RL_COLW_ALWAYS, RL_STYLE_FIXED2,
	                      get_bandwidth,
	                      "the memory bandwidth of its memory roof (the read and write mix), GB/s"},
	[RL_COL_T_COMPUTE] = {"t_compute_us", RL_COL_NUM, BOTH, 9, RL_COLW_ALWAYS, RL_STYLE_US,
	                      get_t_compute, "compute roof time, us"},
	[RL_COL_T_MEMORY] = {"t_memory_us", RL_COL_NUM, BOTH, 10, RL_COLW_ALWAYS, RL_STYLE_US,
	                     get_t_memory, "memory roof time, us"},
	[RL_COL_T_OVERHEAD] = {"t_overhead_us", RL_COL_NUM, BOTH, 11, RL_COLW_ALWAYS, RL_STYLE_US,
	                       get_t_overhead, "host overhead of the launches, us"},
	[RL_COL_T_LAUNCH] = {"t_launch_us", RL_COL_NUM, JSON, 0, RL_COLW_ALWAYS, RL_STYLE_US,
	                     get_t_launch, "launches x min_kernel_us, us"},
	[RL_COL_T_GPU] = {"t_gpu_us", RL_COL_NUM, BOTH, 12, RL_COLW_ALWAYS, RL_STYLE_US, get_t_gpu,
	                  "the roofline's GPU time, us"},
	[RL_COL_T] = {"t_us", RL_COL_NUM, BOTH, 13, RL_COLW_ALWAYS, RL_STYLE_US, get_t,
	              "the roofline's time, us"},
	[RL_COL_BOUND] = {"bound", RL_COL_STR, BOTH | STATIC, 14, RL_COLW_ALWAYS, RL_STYLE_TEXT, get_bound,
	                  "the roofline's bound"},
	[RL_COL_RANKS] = {"ranks", RL_COL_U64, JSON, 0, RL_COLW_ALWAYS, RL_STYLE_TEXT, get_ranks,
	                  "collectives: GPUs taking part"},
	[RL_COL_NODES] = {"nodes", RL_COL_U64, JSON, 0, RL_COLW_ALWAYS, RL_STYLE_TEXT, get_nodes,
	                  "collectives: nodes they span"},
	[RL_COL_T_NETWORK] = {"t_network_us", RL_COL_NUM, JSON, 0, RL_COLW_ALWAYS, RL_STYLE_US,
	                      get_t_network, "collectives: time on the interconnect, us"},
	[RL_COL_T_NET_INTRA] = {"t_net_intra_us", RL_COL_NUM, JSON, 0, RL_COLW_ALWAYS, RL_STYLE_US,
	                        get_t_net_intra, "collectives: the intra-node phase, us"},
	[RL_COL_T_NET_INTER] = {"t_net_inter_us", RL_COL_NUM, JSON, 0, RL_COLW_ALWAYS, RL_STYLE_US,
	                        get_t_net_inter, "collectives: the inter-node phase, us"},
	[RL_COL_T_NET_LATENCY] = {"t_net_latency_us", RL_COL_NUM, JSON, 0, RL_COLW_ALWAYS,
	                          RL_STYLE_US, get_t_net_latency, "collectives: latency, us"},
	[RL_COL_ATTAINABLE_TFLOPS] = {"attainable_tflops", RL_COL_NUM, BOTH, 15, RL_COLW_ALWAYS,
	                              RL_STYLE_FIXED2, get_attainable,
	                              "min(peak, intensity x bandwidth), TFLOP/s"},
	[RL_COL_L2_RESIDENT] = {"l2_resident", RL_COL_BOOL, BOTH, 21, RL_COLW_ALWAYS,
	                        RL_STYLE_TEXT, get_l2_resident,
	                        "reads the previous kernel's output from the L2"},
	[RL_COL_L2_BYTES] = {"l2_bytes", RL_COL_NUM, JSON, 0, RL_COLW_ALWAYS, RL_STYLE_TEXT,
	                     get_l2_bytes, "L2-resident ops: the bytes read from the L2"},
	[RL_COL_L2_SAVED] = {"l2_saved_us", RL_COL_NUM, JSON, 0, RL_COLW_ALWAYS, RL_STYLE_US,
	                     get_l2_saved, "--l2, L2-resident ops: time saved, us"},
	[RL_COL_EXPECTED_GPU] = {"expected_gpu_us", RL_COL_NUM, BOTH, 22, RL_COLW_ALWAYS,
	                         RL_STYLE_US, get_expected_gpu, "expected GPU time, us"},
	[RL_COL_EXPECTED_KERNELS] = {"expected_kernels", RL_COL_NUM, JSON, 0, RL_COLW_ALWAYS,
	                             RL_STYLE_TEXT, get_expected_kernels,
	                             "kernels one occurrence launches (a split-K GEMM's reduction "
	                             "counted)"},
	[RL_COL_EXPECTED] = {"expected_us", RL_COL_NUM, BOTH, 23, RL_COLW_ALWAYS, RL_STYLE_US,
	                     get_expected, "expected time, us"},
	[RL_COL_EXPECTED_BOUND] = {"expected_bound", RL_COL_STR, BOTH | STATIC, 24, RL_COLW_ALWAYS,
	                           RL_STYLE_TEXT, get_expected_bound, "the expected time's bound"},
	[RL_COL_EXPECTED_NOTE] = {"expected_note", RL_COL_STR, JSON | HTML | STATIC, 0, RL_COLW_ALWAYS,
	                          RL_STYLE_TEXT, get_expected_note,
	                          "what sets the expected time beyond the roofline"},
	[RL_COL_ADVICE] = {"advice", RL_COL_STR, JSON | HTML | STATIC, 0, RL_COLW_ALWAYS, RL_STYLE_TEXT,
	                   get_advice, "what would speed the op up"},
	[RL_COL_MEASURED] = {"measured_us", RL_COL_NUM, BOTH, 16, RL_COLW_MEASURED, RL_STYLE_US,
	                     get_measured, "measured GPU time of one occurrence, us"},
	[RL_COL_ROOFLINE_PCT] = {"roofline_pct", RL_COL_NUM, BOTH, 17, RL_COLW_MEASURED,
	                         RL_STYLE_FIXED0, get_roofline_pct,
	                         "t_gpu_us / measured_us x 100"},
	[RL_COL_MEASURED_OVER_EXPECTED] = {"measured_over_expected", RL_COL_NUM, BOTH, 18,
	                                   RL_COLW_MEASURED, RL_STYLE_RATIO, get_over_expected,
	                                   "measured_us / expected_gpu_us"},
	[RL_COL_MEASURED_OVER_ROOFLINE] = {"measured_over_roofline", RL_COL_NUM, BOTH, 19,
	                                   RL_COLW_MEASURED, RL_STYLE_RATIO, get_over_roofline,
	                                   "measured_us / t_gpu_us"},
	[RL_COL_HOST] = {"host_us", RL_COL_NUM, BOTH, 20, RL_COLW_HOST, RL_STYLE_US, get_host,
	                 "measured host time of one occurrence, us"},
	[RL_COL_LINE] = {"line", RL_COL_NUM, JSON, 0, RL_COLW_ALWAYS, RL_STYLE_TEXT, get_line,
	                 "the op list's line"},
};

int rl_column_find(const char *name)
{
	int i;

	for (i = 0; i < RL_COL_COUNT; i++)
		if (strcmp(rl_columns[i].name, name) == 0)
			return i;
	return -1;
}

const char *rl_column_text(const struct rl_column *c, const struct rl_col_row *row, char *buf)
{
	union rl_col_val v;

	if (!c->get(row, &v))
		return NULL;
	switch (c->type) {
	case RL_COL_STR: return v.s;
	case RL_COL_NUM: rl_fmt_num(buf, v.n); return buf;
	case RL_COL_U64: rl_fmt_u64(buf, v.u); return buf;
	case RL_COL_BOOL: return v.b ? "1" : "0";
	}
	return NULL;
}
