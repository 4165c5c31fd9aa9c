/* expected.c - the expected-time model (see expected.h).
 *
 * Every term is a principle with its source; the numbers it needs beyond
 * the device's datasheet come from the efficiency profile (effprof.h), fitted
 * on measurements (docs/expected.md). Rates are the device's datasheet
 * figures (a calibrated file keeps them as datasheet.KEY), so that every
 * entry of one GPU (its datasheet file, a calibrated file, the live probe)
 * gets the same expected times, and another GPU gets its own specs with the
 * fitted residue of the nearest measured one.
 *
 * Times in microseconds, bandwidths in bytes/us, rates in FLOP/us.
 */
#include "config.h"

#include "expected.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "effprof.h"

void rl_expected_roofline(struct rl_pred *p)
{
	p->expected_gpu_us = p->t_gpu_us;
	p->expected_us = p->t_us;
	p->expected_bound = p->bound;
	p->expected_note = NULL;
}

/* What one kernel's model found: its work terms (compute side, memory
 * side), how many kernels it takes, and what limits it beyond the roofline. */
struct est {
	double t_compute, t_memory;
	double kernels;
	const char *note;
};

struct env {
	const struct rl_device *d;
	const struct rl_effprof *ep;
	double sms;
	double bw;          /* datasheet memory bandwidth, bytes/us */
	double clock_scale; /* the device's clock over the profile's */
};

static double ep(const struct env *e, int k)
{
	return e->ep->num[k].value;
}

/* The datasheet figure of key K of D (a calibrated file keeps it beside the
 * measured one). */
static double datasheet(const struct rl_device *d, int k)
{
	return d->datasheet[k].present ? d->datasheet[k].value : d->num[k].value;
}

/* The datasheet peak of pipe P in FLOP/us; vector work that is not FMA runs
 * at half of it (model.c). */
static double peak(const struct env *e, enum rl_pipe p, int fma)
{
	double v;

	if (p == RL_PIPE_NONE || !e->d->num[p].present)
		return 0;
	v = datasheet(e->d, p) * 1e6;
	return !rl_pipe_is_tensor(p) && !fma ? v / 2 : v;
}

static double elements(const struct rl_op *op)
{
	double n = 1;
	int i;

	for (i = 0; i < op->ndims; i++)
		n *= (double)op->dims[i];
	return n;
}

/* The largest power of two of bytes, up to 16, dividing X bytes. */
static int align_bytes(uint64_t x)
{
	int a = 16;

	while (a > 1 && x % (uint64_t)a != 0)
		a /= 2;
	return a;
}

/* Elementwise math in PyTorch runs in fp32 for half types (opmath_t of
 * Half and BFloat16 is float: aten/src/ATen/OpMathType.h), so the compute
 * side of a vector kernel is the fp32 pipe's for those. */
static enum rl_pipe opmath_pipe(const struct rl_pred *p)
{
	if (p->pipe == RL_PIPE_FP16_VECTOR || p->pipe == RL_PIPE_BF16_VECTOR)
		return RL_PIPE_FP32_VECTOR;
	return p->pipe;
}

/* ---- memory-bound elementwise kernels ---------------------------------- */

/* A kernel that streams its bytes once: the latency (in est.kernels) plus
 * the bytes at the fraction EFF of the datasheet bandwidth that library
 * kernels reach, or the math at its pipe's peak. */
static struct est streaming(const struct env *e, const struct rl_pred *p, double eff)
{
	struct est s = {0, 0, 1, NULL};
	double pk = peak(e, opmath_pipe(p), p->fma);

	s.t_memory = p->bytes / (e->bw * eff);
	s.t_compute = pk > 0 ? p->flops / pk : 0;
	return s;
}

/* ---- row kernels: softmax, layer norm, reductions ------------------------ */

/* Which kernel PyTorch (2.11) runs for a softmax over rows of LAST elements
 * of ES bytes: aten/src/ATen/native/cuda/SoftMax.cu dispatch_softmax_forward
 * (a warp per row when last <= 2048 and the row is at most 8 KiB; a block per
 * row in registers while ceil(last / 1024) < 10, pytorch PR 144679; in shared
 * memory when the row fits the 48 KiB a block gets by default and is 16-byte
 * aligned; else max, sum and write passes). */
static enum rl_ep_path softmax_path(uint64_t last, size_t es)
{
	if (last <= 2048 && last * es <= 8192)
		return last <= 1024 ? RL_EP_SOFTMAX_WARP : RL_EP_SOFTMAX_WARP2;
	if ((last + 1023) / 1024 < 10)
		return RL_EP_SOFTMAX_REG;
	if (last * es <= 48 * 1024 && (last * es) % 16 == 0)
		return RL_EP_SOFTMAX_SMEM;
	return RL_EP_SOFTMAX_BLOCK;
}

/* Layer norm (and RMS norm): one vectorised kernel when the row is a
 * multiple of 4 elements (aten/src/ATen/native/cuda/layer_norm_kernel.cu,
 * can_vectorize and LayerNormKernelImplInternal), else a moments kernel and
 * a normalising kernel. */
static enum rl_ep_path layernorm_path(uint64_t last)
{
	return last % 4 == 0 && last <= (1u << 24) ? RL_EP_LAYERNORM_VEC : RL_EP_LAYERNORM_SPLIT;
}

/* Reductions over the last dim (aten/src/ATen/native/cuda/Reduce.cuh,
 * setReduceConfig): up to 32 lanes share a row, so rows shorter than a warp
 * leave lanes idle; 4-wide loads only when the row is over 128 elements. */
static enum rl_ep_path reduction_path(uint64_t last)
{
	if (last <= 32)
		return RL_EP_REDUCTION_NARROW;
	return last <= 128 ? RL_EP_REDUCTION_SHORT : RL_EP_REDUCTION_WIDE;
}

/* ROWS rows of LAST elements on path P. Rows run SLOTS at a time per SM,
 * each wave paying the path's fixed time; the elements go at the SM's rate
 * over the busiest SM's rows (ceil(rows / SMs) of them: too few rows leave
 * SMs idle), but no row faster than one alone can go. A reduction with too
 * few rows to fill the SMs splits each row over several blocks and adds
 * their partial results (Reduce.cuh: a global reduction when the values
 * per thread are many): pieces of at least 16384 elements. The bytes at the
 * memory side, whichever is longer. */
static struct est rows_kernel(const struct env *e, const struct rl_op *op,
                              const struct rl_pred *p, enum rl_ep_path path, double mem_eff)
{
	struct est s = streaming(e, p, mem_eff);
	double last = (double)op->dims[op->ndims - 1];
	double rows = elements(op) / last;
	double per_sm = fmax(1, floor(ep(e, RL_EP_ROW(path, RL_EP_ROW_SLOTS))));
	double t_rows;

	if (path >= RL_EP_REDUCTION_NARROW && rows < 4 * e->sms) {
		double pieces = fmax(1, fmin(floor(last / 16384), ceil(4 * e->sms / rows)));

		rows *= pieces;
		last /= pieces;
	}
	t_rows = ceil(rows / (e->sms * per_sm)) * ep(e, RL_EP_ROW(path, RL_EP_ROW_US)) +
	         fmax(ceil(rows / e->sms) * last / ep(e, RL_EP_ROW(path, RL_EP_ROW_SM_RATE)),
	              last / ep(e, RL_EP_ROW(path, RL_EP_ROW_RATE)));
	s.t_compute = fmax(s.t_compute, t_rows / e->clock_scale);
	if (path == RL_EP_LAYERNORM_SPLIT) {
		s.kernels = 2;
		s.note = "row not a multiple of 4 elements: the two-kernel layer norm";
	} else if (path == RL_EP_SOFTMAX_BLOCK) {
		s.note = "row too long to stay on chip: softmax reads it three times";
	} else if (rows < e->sms) {
		s.note = "too few rows to fill the SMs";
	} else if (path == RL_EP_REDUCTION_NARROW) {
		s.note = "rows shorter than a warp: idle lanes";
	}
	return s;
}

/* ---- GEMM: tiles, waves, split-K, alignment ------------------------------ */

enum tile_class { LARGE, MEDIUM, SMALL, THIN };

/* The class of a TM x TN tile, by its area: 256 x 128 and up are large;
 * 128 x 96 up to 128 x 240 medium; down to 64 x 64 small; GEMV tiles thin. */
static enum tile_class tile_class(double tm, double tn)
{
	double area = tm * tn;

	if (area >= 32768)
		return LARGE;
	if (area >= 12288)
		return MEDIUM;
	return area >= 4096 ? SMALL : THIN;
}

static double tile_eff(const struct env *e, enum tile_class c)
{
	switch (c) {
	case LARGE: return ep(e, RL_EP_GEMM_LARGE);
	case MEDIUM: return ep(e, RL_EP_GEMM_MEDIUM);
	case SMALL: return ep(e, RL_EP_GEMM_SMALL);
	default: return ep(e, RL_EP_GEMM_THIN);
	}
}

/* One GEMM problem and the best tile found for it so far. */
struct gemm_search {
	const struct env *e;
	double batch, m, n, k, c_bytes, epi, fallback;
	double rate[THIN + 1]; /* FLOP/us of one CTA slot, by tile class */
	double best;
	struct est s;
};

/* Tries a TM x TN tile (rows x columns of C) on G's problem: its tiles over
 * the SMs (one CTA per SM for tiles of 128 x 96 and up, two below), split
 * over K when too few tiles fill the SMs (each split at least 256 deep,
 * partial sums written and read in fp32), waves of tiles at the tile
 * class's fraction of the peak, then the output written (the share the
 * epilogue does not hide). A split product adds a second kernel, the
 * reduction of the partial sums (cublasLt splitKreduce). */
static void tile_try(struct gemm_search *g, double tm, double tn)
{
	enum tile_class c = tile_class(tm, tn);
	double slots = g->e->sms * (c == LARGE || c == MEDIUM ? 1 : 2);
	double nt = g->batch * ceil(g->m / tm) * ceil(g->n / tn);
	double split = 1, units, waves, t_main, extra = 0, t;

	if (nt < slots && g->fallback <= 0)
		split = fmax(1, fmin(fmin(floor(slots / nt), floor(g->k / 256)), 16));
	units = nt * split;
	waves = ceil(units / slots);
	t_main = waves * 2 * tm * tn * (g->k / split) / g->rate[c];
	if (t_main >= g->best)
		return; /* the epilogue only adds to it */
	if (split > 1)
		extra = 2 * split * g->batch * g->m * g->n * 4;
	t = t_main + g->epi * (g->c_bytes + extra);
	t = fmax(t, g->s.t_memory + extra / g->e->bw);
	if (t >= g->best)
		return;
	g->best = t;
	g->s.t_compute = t_main + g->epi * (g->c_bytes + extra);
	g->s.kernels = split > 1 ? 2 : 1;
	g->s.note = units < slots / 2 && g->s.t_compute > g->s.t_memory
	                    ? "too few tiles to fill the SMs"
	                    : (waves < 8 && waves * slots - units > slots / 4 &&
	                                   g->s.t_compute > g->s.t_memory
	                           ? "wave quantisation: the last wave of tiles is part-empty"
	                           : NULL);
}

/* The share of G's slots that TM x TN tiles leave idle over their waves:
 * ceil(w) / w - 1 for w waves. */
static double wave_loss(const struct gemm_search *g, double tm, double tn)
{
	double w = g->batch * ceil(g->m / tm) * ceil(g->n / tn) / g->e->sms;

	return w > 0 ? ceil(w) / w - 1 : 0;
}

/* BATCH independent products C[M,N] = A[M,K] B[K,N] of ES-byte elements
 * on a pipe of PK FLOP/us, over the tiles cuBLAS has on Hopper: one side of
 * 128 or 256 and the other any multiple of 16 from 64 to 256, and 64 x 64,
 * 64 x 128, 64 x 256 (the nvjet_sm90_tst_TMxTN kernels of the H200 profiles
 * in docs/measurements/h200-issue12-2026-12-01: 256x128, 144x128, 112x128,
 * 128x240, 256x160, 192x192 ...), which lets the heuristic fill the last
 * wave, and for a side under 128 the thin GEMV tiles (64x8 to 256x16). The
 * library's heuristic is taken to find the best of them. FALLBACK > 0: the
 * fallback kernels (cutlass_75/80 ..._align1/2 on the H200), their large
 * tiles at that fraction of the peak and the smaller ones as much below it
 * as the fast kernels' are, and no split over K. */
static struct est gemm(const struct env *e, double batch, double m, double n, double k,
                       double es, double pk, double mem_bytes, double mem_eff, double fallback)
{
	static const int sides[] = {128, 256};
	static const int standard[][2] = {{256, 128}, {192, 192}, {128, 128}, {64, 64},
	                                  {64, 128}, {64, 256}};
	static const int thin[][2] = {{64, 32}, {64, 16}, {64, 8}, {128, 16}, {128, 8}, {256, 16}, {256, 8}};
	struct gemm_search g;
	size_t i;
	int c, w;

	memset(&g, 0, sizeof(g));
	g.e = e;
	g.batch = batch;
	g.m = m;
	g.n = n;
	g.k = k;
	g.c_bytes = batch * m * n * es;
	g.epi = ep(e, RL_EP_GEMM_EPILOGUE) / e->bw;
	g.fallback = fallback;
	for (c = LARGE; c <= THIN; c++)
		g.rate[c] = pk / (e->sms * (c == LARGE || c == MEDIUM ? 1 : 2)) *
		            tile_eff(e, (enum tile_class)c) *
		            (fallback > 0 ? fallback / ep(e, RL_EP_GEMM_LARGE) : 1);
	g.best = HUGE_VAL;
	g.s.t_compute = HUGE_VAL;
	g.s.kernels = 1;
	g.s.t_memory = mem_bytes / (e->bw * mem_eff);
	for (i = 0; i < sizeof(standard) / sizeof(standard[0]); i++) {
		tile_try(&g, standard[i][0], standard[i][1]);
		if (standard[i][0] != standard[i][1])
			tile_try(&g, standard[i][1], standard[i][0]);
	}
	/* the widths in steps of 16 matter when 256 x 128 tiles leave the last
	 * of their waves more than a tenth empty over all (a few waves):
	 * otherwise they change the time by less, and a million ops stay fast */
	if (wave_loss(&g, 256, 128) > 0.1 || wave_loss(&g, 128, 256) > 0.1)
		for (i = 0; i < sizeof(sides) / sizeof(sides[0]); i++)
			for (w = 64; w <= 256; w += 16) {
				tile_try(&g, sides[i], w);
				tile_try(&g, w, sides[i]);
			}
	/* the thin tiles are for a side under 128 (GEMVs, decode): the H200
	 * profiles show cuBLAS picking them only there */
	if (m < 128 || n < 128)
		for (i = 0; i < sizeof(thin) / sizeof(thin[0]); i++) {
			tile_try(&g, thin[i][0], thin[i][1]);
			tile_try(&g, thin[i][1], thin[i][0]);
		}
	return g.s;
}

/* The fallback kernels cuBLAS runs when N or K (the contiguous dims of
 * row-major operands) is not a multiple of 16 bytes (NVIDIA, Matrix
 * Multiplication Background User's Guide, "Tensor Core Requirements"; on
 * the H200 cutlass_75/80 "align1"/"align2" kernels replace nvjet). */
static double align_eff(const struct env *e, int a)
{
	if (a >= 8)
		return ep(e, RL_EP_GEMM_ALIGN8);
	return a >= 4 ? ep(e, RL_EP_GEMM_ALIGN4) : ep(e, RL_EP_GEMM_ALIGN2);
}

static struct est matmul(const struct env *e, const struct rl_op *op, const struct rl_pred *p)
{
	const uint64_t *d = op->dims;
	double es = (double)rl_dtype_size(op->dtype), batch = 1;
	double pk = peak(e, p->pipe, 1);
	int a;
	struct est s;

	if (op->ndims == 4)
		batch = (double)*d++;
	if (!rl_pipe_is_tensor(p->pipe)) {
		s = streaming(e, p, ep(e, RL_EP_MEM_GEMM));
		s.t_compute = pk > 0 ? p->flops / (pk * ep(e, RL_EP_GEMM_VECTOR)) : 0;
		return s;
	}
	a = align_bytes(d[1] * (uint64_t)es);
	if (align_bytes(d[2] * (uint64_t)es) < a)
		a = align_bytes(d[2] * (uint64_t)es);
	s = gemm(e, batch, (double)d[0], (double)d[1], (double)d[2], es, pk, p->bytes,
	         ep(e, RL_EP_MEM_GEMM), a < 16 ? align_eff(e, a) : 0);
	if (a < 16)
		s.note = "N or K not a multiple of 16 bytes: a slow fallback GEMM kernel";
	return s;
}

/* ---- convolution: implicit GEMM ------------------------------------------ */

static struct est conv2d(const struct env *e, const struct rl_op *op, const struct rl_pred *p)
{
	const uint64_t *d = op->dims;
	double es = (double)rl_dtype_size(op->dtype), g = (double)op->groups;
	double c = (double)d[1], k = (double)op->kernel[0];
	double ho = (double)((d[2] + 2 * op->padding - op->kernel[1]) / op->stride + 1);
	double wo = (double)((d[3] + 2 * op->padding - op->kernel[2]) / op->stride + 1);
	double pk = peak(e, p->pipe, 1);
	struct est s;

	/* Depthwise: a channel's filter over its own plane, no reduction over
	 * channels to feed a tensor core: a streaming kernel. */
	if (op->groups > 1 && op->groups == d[1] && op->kernel[0] == d[1]) {
		s = streaming(e, p, ep(e, RL_EP_MEM_CONV));
		s.note = "depthwise convolution: a memory-bound stencil";
		return s;
	}
	if (!rl_pipe_is_tensor(p->pipe)) {
		s = streaming(e, p, ep(e, RL_EP_MEM_GEMM));
		s.t_compute = pk > 0 ? p->flops / (pk * ep(e, RL_EP_GEMM_VECTOR)) : 0;
		return s;
	}
	/* channels-last: the GEMM's K runs over C (contiguous), its N over K */
	if (align_bytes((uint64_t)(c / g * es)) < 16 || align_bytes((uint64_t)(k / g * es)) < 16) {
		s = streaming(e, p, ep(e, RL_EP_MEM_GEMM));
		s.t_compute = p->flops / (pk * ep(e, RL_EP_CONV_UNALIGNED));
		s.note = "channels not a multiple of 16 bytes: the input is padded, a slow kernel";
		return s;
	}
	s = gemm(e, g, (double)d[0] * ho * wo, k / g, c / g * (double)op->kernel[1] * (double)op->kernel[2],
	         es, pk * ep(e, RL_EP_CONV), p->bytes, ep(e, RL_EP_MEM_GEMM), 0);
	return s;
}

/* ---- attention ------------------------------------------------------------ */

/* Flash attention: the score and value products at the rate the kernel
 * reaches for its head dim (interpolated between 64 and 128), rising with
 * the key length as the per-tile prologue amortises (rate x Sk / (Sk +
 * s_half)); a causal mask halves the average keys per query and costs the
 * masked tiles' imbalance. The kernel computes whole tiles of 64 queries x
 * 128 keys (cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_..._
 * 64x128x128 on the H200; FlashAttention-2/3 use 128 x 128 and 128 x 64):
 * a sequence of 197 tokens costs as much as one of 256. One query per
 * sequence (decode, Sq <= 16): a stream over the KV cache. */
static struct est attention(const struct env *e, const struct rl_op *op, const struct rl_pred *p)
{
	const uint64_t *d = op->dims;
	double sq = (double)d[2], sk = (double)(op->ndims == 5 ? d[3] : d[2]);
	double hd = (double)d[op->ndims - 1], f, eff, s_eff;
	double pk = peak(e, p->pipe, 1);
	struct est s = streaming(e, p, ep(e, RL_EP_MEM_ATTENTION));

	if (!rl_pipe_is_tensor(p->pipe) || pk <= 0) {
		s.t_compute = pk > 0 ? p->flops / (pk * ep(e, RL_EP_GEMM_VECTOR)) : 0;
		return s;
	}
	f = fmin(fmax((hd - 64) / 64, 0), 1);
	eff = (1 - f) * ep(e, RL_EP_ATTN_D64) + f * ep(e, RL_EP_ATTN_D128);
	s_eff = op->causal ? sk / 2 : sk;
	eff *= s_eff / (s_eff + ep(e, RL_EP_ATTN_S_HALF));
	if (op->causal)
		eff *= ep(e, RL_EP_ATTN_CAUSAL);
	if (sq <= 16) {
		/* one CTA per (batch, head) streams that head's K and V: too few of
		 * them cannot keep enough bytes in flight (Little's law) */
		double ctas = fmin((double)d[0] * (double)d[1], e->sms * 4);

		s.t_memory = fmax(s.t_memory, p->bytes / (ctas * ep(e, RL_EP_ATTN_DECODE_CTA_GBS) * 1e3));
	}
	s.t_compute = p->flops / (pk * eff);
	if (sq > 16)
		s.t_compute *= ceil(sq / 64) * 64 / sq * (ceil(sk / 128) * 128 / sk);
	if (sq <= 16)
		s.note = "decode: a stream over the KV cache";
	return s;
}

/* ---- the model ------------------------------------------------------------ */

static struct est estimate(const struct env *e, const struct rl_op *op, const struct rl_pred *p)
{
	size_t es = rl_dtype_size(op->dtype);
	uint64_t last;

	/* An attention row with its FLOPs and bytes given (a training step's
	 * flash backward, train.h: five GEMMs over the forward's tiles) keeps
	 * the attention model, which works from its shape and P's work. */
	if (op->kind == RL_KIND_ATTENTION && (op->has & RL_HAS_SHAPE) && op->ndims >= 4)
		return attention(e, op, p);
	/* Other given FLOPs or bytes replace the formula's: nothing is known of
	 * the kernel beyond them. */
	if (op->kind == RL_KIND_CUSTOM || !(op->has & RL_HAS_SHAPE) ||
	    (op->has & (RL_HAS_FLOPS | RL_HAS_BYTES))) {
		struct est s = streaming(e, p, ep(e, RL_EP_MEM_ELEMENTWISE));
		double pk = peak(e, p->pipe, p->fma);

		s.t_compute = pk > 0 ? p->flops / (pk * (rl_pipe_is_tensor(p->pipe)
		                                                 ? ep(e, RL_EP_GEMM_LARGE)
		                                                 : 1))
		                     : 0;
		return s;
	}
	last = op->dims[op->ndims - 1];
	switch (op->kind) {
	case RL_KIND_MATMUL: return matmul(e, op, p);
	case RL_KIND_CONV2D: return conv2d(e, op, p);
	case RL_KIND_ATTENTION: return attention(e, op, p);
	case RL_KIND_SOFTMAX:
		return rows_kernel(e, op, p, softmax_path(last, es), ep(e, RL_EP_MEM_ELEMENTWISE));
	case RL_KIND_LAYERNORM: {
		/* the row is read twice, for its moments and to normalise it
		 * (layer_norm_kernel.cu: vectorized_layer_norm_kernel_impl's two
		 * loops; the split path's two kernels), and written once */
		struct est s = rows_kernel(e, op, p, layernorm_path(last), ep(e, RL_EP_MEM_ELEMENTWISE));

		s.t_memory *= 1.5;
		return s;
	}
	case RL_KIND_REDUCTION:
		return rows_kernel(e, op, p, reduction_path(last), ep(e, RL_EP_MEM_REDUCTION));
	default: /* pointwise, copy */
		return streaming(e, p, ep(e, RL_EP_MEM_ELEMENTWISE));
	}
}

/* The model's environment for CTX; 0 when there is no model to apply (best
 * case, no profile, a device without a bandwidth). */
static int env_init(struct env *e, const struct rl_model_ctx *ctx)
{
	if (ctx->best_case || ctx->eff == NULL)
		return 0;
	e->d = ctx->dev;
	e->ep = ctx->eff;
	e->sms = fmax(1, ctx->dev->num[RL_HW_SM_COUNT].value);
	e->bw = datasheet(ctx->dev, RL_HW_MEM_BANDWIDTH_GBS) * 1e3;
	e->clock_scale = ctx->dev->num[RL_HW_BOOST_CLOCK_MHZ].present
	                         ? datasheet(ctx->dev, RL_HW_BOOST_CLOCK_MHZ) /
	                                   ctx->eff->ref[RL_EP_REF_CLOCK_MHZ].value
	                         : 1;
	return e->bw > 0 && e->clock_scale > 0;
}

/* Sets P's expected times for S's kernels launched LAUNCHES times per
 * occurrence (an op whose work is done by that many kernels, as the
 * roofline counts it: each pays the fixed latency, the work is the op's). */
static void finish(const struct env *e, const struct rl_model_ctx *ctx, struct rl_pred *p,
                   const struct est *s, double work, double launches)
{
	double fixed = launches * s->kernels * ep(e, RL_EP_LATENCY_US), stream;

	/* never below the bound: the roofline is what no kernel beats */
	p->expected_gpu_us = fmax(fixed + work, p->t_gpu_us);
	p->expected_us = fmax(p->expected_gpu_us, p->t_overhead_us);
	p->expected_note = s->note;
	/* Overhead when the host's time or the kernels' fixed latency is at
	 * least their work (a tie goes to overhead, as for the roofline). The
	 * host is held against the GPU time of the kernels in a stream, their
	 * work plus the device's floor per kernel: back to back, a kernel's
	 * fixed latency (launch to first work, the drain) overlaps the previous
	 * one's, which an isolated, event-timed kernel does not show. Else the
	 * roofs decide compute or memory, as they do for the roofline and for the
	 * measured regime: the expected model moves time, not the resource a
	 * kernel would saturate. */
	stream = work + launches * s->kernels * ctx->dev->num[RL_HW_MIN_KERNEL_US].value;
	if (p->t_overhead_us >= stream || fixed >= work)
		p->expected_bound = RL_BOUND_OVERHEAD;
	else
		p->expected_bound = p->t_compute_us > p->t_memory_us ? RL_BOUND_COMPUTE : RL_BOUND_MEMORY;
	if (p->expected_note == NULL && fixed >= work)
		p->expected_note = "kernel latency: too little work to fill the GPU";
}

void rl_expected(const struct rl_op *op, const struct rl_model_ctx *ctx, struct rl_pred *p)
{
	struct env e;
	struct est s;

	rl_expected_roofline(p);
	/* A collective's expected time is its bound: no efficiency profile
	 * measures collectives yet (docs/expected.md). */
	if (rl_kind_is_collective(op->kind) || !env_init(&e, ctx))
		return;
	s = estimate(&e, op, p);
	finish(&e, ctx, p, &s, fmax(s.t_compute, s.t_memory), (double)op->launches);
}

void rl_expected_fused(const struct rl_model_ctx *ctx, struct rl_pred *p)
{
	struct env e;
	struct est s;

	rl_expected_roofline(p);
	if (!env_init(&e, ctx))
		return;
	s = streaming(&e, p, ep(&e, RL_EP_MEM_ELEMENTWISE));
	finish(&e, ctx, p, &s, fmax(s.t_compute, s.t_memory), 1);
}

void rl_expected_l2(const struct rl_model_ctx *ctx, struct rl_pred *p, double dram_expected_gpu_us,
                    double dram_t_gpu_us, const char *note)
{
	struct env e;
	struct est s = {0, 0, 1, NULL};
	double fixed;

	if (!env_init(&e, ctx) || !(dram_t_gpu_us > 0))
		return;
	fixed = ep(&e, RL_EP_LATENCY_US);
	s.note = note;
	finish(&e, ctx, p, &s,
	       fmax(dram_expected_gpu_us - fixed, 0) * p->t_gpu_us / dram_t_gpu_us, 1);
}
