/* model.c - per-op roofs, times and bound (see model.h). */
#include "config.h"

#include "model.h"

#include <math.h>

#include "expected.h"
#include "formulas.h"

/* Fallback chains: the first pipe the device has wins. A tensor op in a dtype
 * the device's tensor cores lack runs where a framework would run it: fp8 is
 * upcast to fp16, everything else lands on the CUDA cores. Every chain ends
 * in fp32 vector, which every device file must have. */
static const enum rl_pipe tensor_chain[RL_DTYPE_COUNT][4] = {
	[RL_FP64] = {RL_PIPE_FP64_TENSOR, RL_PIPE_FP64_VECTOR, RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_FP32] = {RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_TF32] = {RL_PIPE_TF32_TENSOR, RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_FP16] = {RL_PIPE_FP16_TENSOR, RL_PIPE_FP16_VECTOR, RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_BF16] = {RL_PIPE_BF16_TENSOR, RL_PIPE_BF16_VECTOR, RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_FP8E4M3] = {RL_PIPE_FP8_TENSOR, RL_PIPE_FP16_TENSOR, RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_FP8E5M2] = {RL_PIPE_FP8_TENSOR, RL_PIPE_FP16_TENSOR, RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_INT8] = {RL_PIPE_INT8_TENSOR, RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_INT32] = {RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_INT64] = {RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	/* storage only (op lists refuse them as an op's dtype) */
	[RL_INT4] = {RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_FP4] = {RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_MXFP4] = {RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
};

/* Vector math: half types have packed pipes; fp8 is converted to fp16 for
 * arithmetic; integer ops are rated against the fp32 lanes (an approximation:
 * the integer and fp32 pipes have the same width on Volta and later). */
static const enum rl_pipe vector_chain[RL_DTYPE_COUNT][3] = {
	[RL_FP64] = {RL_PIPE_FP64_VECTOR, RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_FP32] = {RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_TF32] = {RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_FP16] = {RL_PIPE_FP16_VECTOR, RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_BF16] = {RL_PIPE_BF16_VECTOR, RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_FP8E4M3] = {RL_PIPE_FP16_VECTOR, RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_FP8E5M2] = {RL_PIPE_FP16_VECTOR, RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_INT8] = {RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_INT32] = {RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_INT64] = {RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_INT4] = {RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_FP4] = {RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
	[RL_MXFP4] = {RL_PIPE_FP32_VECTOR, RL_PIPE_NONE},
};

static enum rl_pipe first_present(const struct rl_device *d, const enum rl_pipe *chain)
{
	for (; *chain != RL_PIPE_NONE; chain++)
		if (d->num[*chain].present && d->num[*chain].value > 0)
			return *chain;
	return RL_PIPE_NONE;
}

enum rl_pipe rl_model_pipe(const struct rl_device *d, enum rl_kind kind,
                           enum rl_dtype t, enum rl_unit u, enum rl_pipe *wanted)
{
	/* Not given: matrix products follow the tensor chain, which ends on the
	 * CUDA cores where the device (or the dtype: fp32) has no tensor pipe;
	 * everything else is vector work. */
	if (u == RL_UNIT_AUTO)
		u = rl_kind_is_matrix(kind) ? RL_UNIT_TENSOR : RL_UNIT_VECTOR;
	if (u == RL_UNIT_TENSOR) {
		*wanted = tensor_chain[t][0];
		return first_present(d, tensor_chain[t]);
	}
	*wanted = vector_chain[t][0];
	return first_present(d, vector_chain[t]);
}

/* Vector work that is not multiply-add pairs runs at half the FMA peak. */
static double pipe_peak(const struct rl_device *d, enum rl_pipe p, int fma)
{
	double peak = rl_device_peak_flops(d, p);

	return !rl_pipe_is_tensor(p) && !fma ? peak / 2 : peak;
}

double rl_model_ridge(const struct rl_device *d, enum rl_pipe p, int fma)
{
	return pipe_peak(d, p, fma) / rl_device_bandwidth_bytes_per_s(d);
}

double rl_model_bandwidth(const struct rl_device *d, double read, double written, int known)
{
	const struct rl_hwval *r = &d->num[RL_HW_MEM_READ_BANDWIDTH_GBS];
	const struct rl_hwval *w = &d->num[RL_HW_MEM_WRITE_BANDWIDTH_GBS];
	double bw = rl_device_bandwidth_bytes_per_s(d), t;

	if (!known || (!r->present && !w->present) || read + written <= 0)
		return bw;
	/* model.h: the two streams at best overlap, each at its own rate */
	t = read / (r->present ? r->value * 1e9 : bw) + written / (w->present ? w->value * 1e9 : bw);
	return (read + written) / t;
}

/* V[K] of a per-host-key array (NULL or K out of range: DFLT); a fusion
 * group (RL_KIND_FUSED) is one elementwise kernel: pointwise's. */
static double host_key_value(const double *v, int k, double dflt)
{
	if (k == RL_KIND_FUSED)
		k = RL_KIND_POINTWISE;
	return v != NULL && k >= 0 && k < RL_HOST_KEY_COUNT ? v[k] : dflt;
}

/* An occurrence's share of the host time the row's fresh calls add: each
 * of them (op.h) pays the runtime's extra for its host key, spread over the
 * row's count so that the row's total carries them once a step. */
static double fresh_us(const struct rl_op *op, const struct rl_model_ctx *ctx)
{
	if (op->fresh == 0 || op->count == 0)
		return 0;
	return (double)op->fresh * host_key_value(ctx->host_extra_us, rl_op_host_key(op), 0) /
	       (double)op->count;
}

double rl_model_host_us(const struct rl_model_ctx *ctx, int k)
{
	return host_key_value(ctx->host_kind_us, k, ctx->host_overhead_us);
}

void rl_pred_times(struct rl_pred *p, const struct rl_model_ctx *ctx, int kind, double launches)
{
	rl_pred_times_host(p, ctx, launches * rl_model_host_us(ctx, kind), launches);
}

void rl_pred_times_host(struct rl_pred *p, const struct rl_model_ctx *ctx, double host_us,
                        double launches)
{
	double t_ovh;

	p->t_overhead_us = host_us;
	p->t_launch_us = launches * ctx->dev->num[RL_HW_MIN_KERNEL_US].value;
	p->expected_kernels = launches;
	p->t_gpu_us = fmax(fmax(fmax(p->t_compute_us, p->t_memory_us), p->t_network_us),
	                   p->t_launch_us);
	p->t_us = fmax(p->t_gpu_us, p->t_overhead_us);

	/* Launch floor and host overhead are both time not spent on the op's
	 * own work: together they are the overhead side of the verdict. */
	t_ovh = fmax(p->t_overhead_us, p->t_launch_us);
	if (t_ovh >= p->t_compute_us && t_ovh >= p->t_memory_us && t_ovh >= p->t_network_us)
		p->bound = RL_BOUND_OVERHEAD;
	else if (p->t_network_us > p->t_compute_us && p->t_network_us > p->t_memory_us)
		p->bound = RL_BOUND_NETWORK;
	else if (p->t_compute_us > p->t_memory_us)
		p->bound = RL_BOUND_COMPUTE;
	else
		p->bound = RL_BOUND_MEMORY;
	rl_expected_roofline(p);
}

/* A collective's roofs (model.h): its bytes on the interconnect, none on
 * the pipes or in device memory. */
static int predict_collective(const struct rl_op *op, const struct rl_model_ctx *ctx,
                              struct rl_pred *p, struct rl_err *err)
{
	struct rl_coll_time t;
	double in_bytes;
	int rc, i;

	if (ctx->net == NULL)
		return rl_err_set(err, RL_ERR_ARG,
		                  "%s is a collective, and device %s has no interconnect: give a "
		                  "system with --hw (e.g. hgx-h100-8; 'roofline hw list' lists them) "
		                  "or a device with nvlink_bandwidth_gbs",
		                  rl_kind_name(op->kind), ctx->dev->id);
	in_bytes = rl_dtype_bytes(op->dtype);
	for (i = 0; i < op->ndims; i++)
		in_bytes *= (double)op->dims[i];
	rc = rl_collective_time(op->kind, op->ranks, op->nodes, in_bytes, ctx->net, &t, err);
	if (rc < 0)
		return rc;
	p->bytes = t.intra_bytes + t.inter_bytes;
	p->bytes_read = p->bytes;
	p->bytes_written = 0;
	p->intensity = 0;
	p->t_compute_us = p->t_memory_us = 0;
	p->t_network_us = t.t_us;
	p->t_net_intra_us = t.intra_us;
	p->t_net_inter_us = t.inter_us;
	p->t_net_latency_us = t.latency_us;
	p->bandwidth = t.t_us > t.latency_us ? p->bytes / ((t.t_us - t.latency_us) * 1e-6)
	                                     : ctx->net->intra_gbs * 1e9;
	p->peak_flops = p->ridge = p->attainable_flops = 0;
	return 0;
}

int rl_predict(const struct rl_op *op, const struct rl_model_ctx *ctx,
               struct rl_pred *p, struct rl_err *err)
{
	struct rl_work w;
	int rc = rl_op_derive(op, &w, err);

	return rc < 0 ? rc : rl_predict_work(op, &w, ctx, p, err);
}

int rl_predict_work(const struct rl_op *op, const struct rl_work *w,
                    const struct rl_model_ctx *ctx, struct rl_pred *p, struct rl_err *err)
{
	const struct rl_device *d = ctx->dev;
	double launches = (double)op->launches;
	double peak;
	int rc;

	p->flops = w->flops;
	p->bytes = w->bytes;
	p->bytes_read = w->bytes_read;
	p->bytes_written = w->bytes_written;
	p->rw_known = w->rw_known;
	p->intensity = p->bytes > 0 ? p->flops / p->bytes : (p->flops > 0 ? HUGE_VAL : 0);
	p->pipe = rl_model_pipe(d, op->kind, op->dtype, op->unit, &p->wanted);
	p->unit = rl_pipe_is_tensor(p->pipe) ? RL_UNIT_TENSOR : RL_UNIT_VECTOR;
	/* An op without FLOPs (a copy) never uses its pipe: no fallback. */
	p->fallback = p->flops > 0 && (p->pipe != p->wanted ||
	                               (op->unit == RL_UNIT_TENSOR && p->unit != RL_UNIT_TENSOR));
	p->fma = (op->has & RL_HAS_FMA) ? op->fma : rl_kind_is_matrix(op->kind);
	/* Datasheet vector peaks count an FMA as 2 FLOPs. Work that is not
	 * multiply-add pairs (x * 2, cos, max) retires one FLOP per lane per
	 * cycle: half the peak (A100: 19.5 TFLOPS FMA, 9.75 plain; Horace He,
	 * "Making Deep Learning Go Brrrr", footnote on non-FMA compute). Tensor
	 * cores only do multiply-adds. */
	peak = pipe_peak(d, p->pipe, p->fma);
	p->peak_flops = peak;
	p->bandwidth = rl_model_bandwidth(d, p->bytes_read, p->bytes_written, p->rw_known);
	p->ridge = peak / p->bandwidth;
	p->attainable_flops = p->flops > 0 ? fmin(peak, p->intensity * p->bandwidth) : 0;

	p->t_compute_us = peak > 0 ? p->flops / peak * 1e6 : 0;
	{
		/* Weights or a KV cache stored in another dtype are converted to
		 * the op's dtype on the CUDA cores (docs/oplist-format.md): one
		 * plain FLOP per element, added to the pipe's time and kept out of
		 * the op's FLOPs. No device has a pipe for a pair of dtypes. */
		double deq = w->dequant_flops;
		enum rl_pipe vw, vp;

		if (deq > 0) {
			vp = rl_model_pipe(d, RL_KIND_POINTWISE, op->dtype, RL_UNIT_VECTOR, &vw);
			if (pipe_peak(d, vp, 0) > 0)
				p->t_compute_us += deq / pipe_peak(d, vp, 0) * 1e6;
		}
	}
	p->t_memory_us = p->bytes / p->bandwidth * 1e6;
	p->t_network_us = p->t_net_intra_us = p->t_net_inter_us = p->t_net_latency_us = 0;
	if (rl_kind_is_collective(op->kind)) {
		rc = predict_collective(op, ctx, p, err);
		if (rc < 0)
			return rc;
	}
	rl_pred_times_host(p, ctx,
	                   launches * ((op->has & RL_HAS_HOST_COST)
	                                       ? op->host_overhead_us
	                                       : rl_model_host_us(ctx, rl_op_host_key(op))) +
	                           fresh_us(op, ctx),
	                   launches);
	/* Bounded inputs (op list, device files) keep this finite; a caller
	 * that builds ops by hand still gets an error, never an inf total. */
	if (!isfinite(p->t_us * (double)op->count) || !isfinite(p->flops * (double)op->count) ||
	    !isfinite(p->bytes * (double)op->count))
		return rl_err_set(err, RL_ERR_RANGE,
		                  "the op's time, FLOPs or bytes times its count %llu overflow a double",
		                  (unsigned long long)op->count);
	p->roofline_pct = (op->has & RL_HAS_MEASURED) && op->measured_us > 0
	                          ? p->t_gpu_us / op->measured_us * 100
	                          : 0;
	p->l2_resident = 0;
	p->l2_bytes = p->l2_saved_us = 0;
	rl_expected(op, ctx, p);
	return 0;
}

const char *rl_bound_name(enum rl_bound b)
{
	switch (b) {
	case RL_BOUND_COMPUTE: return "compute";
	case RL_BOUND_MEMORY: return "memory";
	case RL_BOUND_NETWORK: return "network";
	case RL_BOUND_OVERHEAD: break;
	}
	return "overhead";
}

const char *rl_bound_advice(enum rl_bound b)
{
	switch (b) {
	case RL_BOUND_COMPUTE:
		return "compute-bound: use tensor cores (bf16/fp16/tf32) and lower precision (fp8); "
		       "beyond that, fewer FLOPs or a faster GPU";
	case RL_BOUND_MEMORY:
		/* Fusion cuts the traffic of intermediates only: a matrix product
		 * that streams its weights for a few rows (a GEMV at batch 1) moves
		 * the same bytes fused or not. */
		return "memory-bound: fuse neighbouring elementwise ops so intermediates stay on "
		       "chip (torch.compile); a matrix product that reads its weights for a few rows "
		       "(batch 1 decode) needs more rows per weight read (batching) or smaller "
		       "weights (quantisation); smaller dtypes help both";
	case RL_BOUND_NETWORK:
		return "network-bound: the collectives wait on the interconnect: fewer or smaller "
		       "collectives (a smaller dtype, fewer ranks across nodes), or overlap them with "
		       "compute";
	case RL_BOUND_OVERHEAD: break;
	}
	return "overhead-bound: capture CUDA graphs, compile (torch.compile), drop Python from "
	       "the loop, or raise the batch size: the GPU waits on the host";
}

const char *rl_op_advice(const struct rl_op *op, const struct rl_pred *p)
{
	switch (p->bound) {
	case RL_BOUND_NETWORK:
		if (p->t_net_inter_us > p->t_net_intra_us)
			return "network-bound between nodes: keep this collective inside a node";
		return "network-bound: overlap it with compute, or send fewer bytes";
	case RL_BOUND_OVERHEAD:
		if (p->t_launch_us > p->t_overhead_us)
			return "launch-bound: merge kernels (fuse) or batch more work per launch";
		return "host-bound: CUDA graphs or torch.compile, or a larger batch";
	case RL_BOUND_COMPUTE:
		if (p->unit == RL_UNIT_VECTOR && rl_kind_is_matrix(op->kind))
			return "matrix product on CUDA cores: use a tensor-core dtype (tf32, bf16)";
		if (p->unit == RL_UNIT_VECTOR)
			return "vector-compute-bound: cut FLOPs per element or use packed half math";
		return "tensor-core-bound: lower precision (fp8) or fewer FLOPs";
	case RL_BOUND_MEMORY:
		if (rl_kind_is_matrix(op->kind))
			return "weight-bound: batch more rows per weight read, or quantize the weights "
			       "(fusing does not cut its traffic)";
		return "fuse with neighbouring ops so intermediates stay on chip";
	}
	return "";
}
