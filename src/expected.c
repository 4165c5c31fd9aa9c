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
#include "formulas.h"

void rl_expected_roofline(struct rl_pred *p)
{
	p->expected_gpu_us = p->t_gpu_us;
	p->expected_us = p->t_us;
	p->expected_bound = p->bound;
	p->expected_note = NULL;
	p->expected_assumed = 0;
}

/* What one kernel's model found: its work terms (compute side, memory
 * side), how many kernels it takes, and what limits it beyond the roofline. */
struct est {
	double t_compute, t_memory;
	double kernels;
	const char *note;
	double latency; /* each kernel's fixed time; 0: latency_us */
	int assumed;    /* the kernel is assumed, not the measured one (the note
	                 * says which): rl_pred.expected_assumed */
};

struct env {
	const struct rl_device *d;
	const struct rl_effprof *ep;
	int compiled;       /* the runtime's kernels are torch.compile's */
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
	struct est s = {0, 0, 1, NULL, 0, 0};
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

	/* The warp softmax keeps a row in registers padded to the next power of
	 * two, 32 lanes x WARP_ITERATIONS (PersistentSoftmax.cuh, log2_elements
	 * and WARP_ITERATIONS): its lanes work on the padding too, so a row of 49
	 * costs what one of 64 does, 100 what 128 does (rows of 49, 64 and 100:
	 * 0.139, 0.137 and 0.215 ns per row, h200-issue26-2026-12-02). */
	if (path == RL_EP_SOFTMAX_WARP || path == RL_EP_SOFTMAX_WARP2)
		last = pow(2, ceil(log2(last)));

	/* A wide row reduction's block is 512 threads: 32 lanes along the row
	 * and 16 rows (Reduce.cuh setReduceConfig: block.x the lanes, block.y
	 * the outputs). It splits the row over several blocks only when each
	 * thread would take at least 16 x the block's rows values (its
	 * values_per_thread test); else the block walks its rows alone, so
	 * with few rows the busiest SM holds a whole block of them, not
	 * rows / SMs (fp32 [16, 4096], RMSNorm's mean in transformers: 9.4 us,
	 * one block, tests/data/impl/trace_hf_llama3_8b_l2_decode_b16_c1024).
	 * Its rate is a load rate: the profile's, fitted on bf16, per 2 bytes. */
	int wide = path == RL_EP_REDUCTION_WIDE;
	double block_rows = fmin(rows, 16), busiest = ceil(rows / e->sms), es_scale = 1;

	if (path >= RL_EP_REDUCTION_NARROW && rows < 4 * e->sms &&
	    (!wide || last / 32 >= 16 * block_rows)) {
		double pieces = fmax(1, fmin(floor(last / 16384), ceil(4 * e->sms / rows)));

		rows *= pieces;
		last /= pieces;
		busiest = ceil(rows / e->sms);
	} else if (wide && rows < 16 * e->sms && last / 32 < 16 * block_rows) {
		busiest = block_rows * ceil(ceil(rows / 16) / e->sms);
	}
	if (wide)
		es_scale = (double)rl_dtype_size(op->dtype) / 2;
	t_rows = ceil(rows / (e->sms * per_sm)) * ep(e, RL_EP_ROW(path, RL_EP_ROW_US)) +
	         fmax(busiest * last * es_scale / ep(e, RL_EP_ROW(path, RL_EP_ROW_SM_RATE)),
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

/* ---- permuted copies ------------------------------------------------------ */

/* The 32-byte sectors of the input that one warp's 32 consecutive output
 * elements read, for a copy of OP's shape (the input's) into the order of
 * its perm: the output's dim j is the input's dim perm[j]. */
static double perm_sectors_per_warp(const struct rl_op *op, size_t es)
{
	double in_stride[RL_MAX_DIMS], sectors[32];
	double n = elements(op), lanes = fmin(32, n);
	int i, j, k, count = 0;

	in_stride[op->ndims - 1] = 1;
	for (i = op->ndims - 2; i >= 0; i--)
		in_stride[i] = in_stride[i + 1] * (double)op->dims[i + 1];
	for (i = 0; i < (int)lanes; i++) {
		double rest = i, off = 0, sector;

		for (j = op->nperm - 1; j >= 0; j--) {
			double size = (double)op->dims[op->perm[j]];

			off += fmod(rest, size) * in_stride[op->perm[j]];
			rest = floor(rest / size);
		}
		sector = floor(off * (double)es / 32);
		for (k = 0; k < count && sectors[k] != sector; k++)
			;
		if (k == count)
			sectors[count++] = sector;
	}
	return count;
}

/* Whether OP's perm keeps the order of the dims longer than 1 (a copy of
 * contiguous memory: PyTorch's memcpy path). */
static int perm_is_identity(const struct rl_op *op)
{
	int j, last = -1;

	for (j = 0; j < op->nperm; j++) {
		if (op->dims[op->perm[j]] == 1)
			continue;
		if (op->perm[j] < last)
			return 0;
		last = op->perm[j];
	}
	return 1;
}

/* x.permute(...).contiguous(), x.t().contiguous(): PyTorch copies with its
 * generic elementwise kernel, one element per thread at a time through an
 * offset calculator, no shared-memory tiling (aten/src/ATen/native/cuda/
 * Copy.cu copy_kernel_cuda -> gpu_kernel, CUDALoops.cuh elementwise_kernel;
 * elementwise_kernel<128, 4> and <128, 2> in the H200 profiles of
 * docs/measurements/h200-issue26-2026-12-02). The writes are coalesced; the
 * reads gather: a warp's 32 output elements touch as many 32-byte sectors of
 * the input as their offsets fall in (perm_sectors_per_warp), 32 for a
 * transpose, 2 for a bf16 copy that keeps the last dim. The kernel's time is
 * the largest of its elements at the offset calculator's rate, its gathered
 * sectors at the load path's rate (both per SM, at the profile's clock) and
 * its bytes at the streaming fraction. */
static struct est permuted_copy(const struct env *e, const struct rl_op *op,
                                const struct rl_pred *p)
{
	struct est s = streaming(e, p, ep(e, RL_EP_MEM_ELEMENTWISE));
	double n = elements(op);
	double sectors = n / 32 * perm_sectors_per_warp(op, rl_dtype_size(op->dtype));

	if (perm_is_identity(op))
		return s;
	s.t_compute = fmax(n / ep(e, RL_EP_COPY_PERM_ELEMS), sectors / ep(e, RL_EP_COPY_PERM_SECTORS)) /
	              (e->sms * e->clock_scale);
	if (s.t_compute > s.t_memory)
		s.note = "permuted copy: an element per thread through an offset calculator, "
		         "the reads gathered";
	return s;
}

/* A pointwise op or a copy whose operands PyTorch cannot stream with vector
 * loads: strided or broadcast operands (TensorIterator cannot collapse them
 * to one contiguous dim: elementwise_kernel<128, 4> for 2-byte outputs, <128,
 * 2> for wider ones, through an offset calculator, CUDALoops.cuh
 * launch_legacy_kernel), a widening cast (unrolled_elementwise_kernel, its
 * loads dynamically cast), a cat of strided inputs (CatArrayBatchedCopy
 * without _vectorized, Shape.cu, which computes an input's and the output's
 * offsets for each element). An element per thread at a time, the same loop
 * as a permuted copy's: OP->strided offset calculations per element at the
 * permuted copy's rate (issue 26's fit, not moved), and a fixed time over a
 * vectorised kernel's, a thread's items running one after another
 * (copy.strided.latency_us). On the H200 traces of issue 23 these kernels
 * ran 300 to 340 G elements/s at 33 M elements (2,300 to 2,600 per us per
 * SM, 2,862 fitted on the permuted copies) where the vectorised ones
 * streamed at the bandwidth, and 2.0 us at a few thousand elements against
 * 1.1 us. */
static struct est strided_loop(const struct env *e, const struct rl_op *op,
                               const struct rl_pred *p)
{
	struct est s = streaming(e, p, ep(e, RL_EP_MEM_ELEMENTWISE));
	double t = elements(op) * op->strided / ep(e, RL_EP_COPY_PERM_ELEMS) /
	           (e->sms * e->clock_scale);

	s.t_compute = fmax(s.t_compute, t) + ep(e, RL_EP_COPY_STRIDED_US);
	if (t + ep(e, RL_EP_COPY_STRIDED_US) > s.t_memory)
		s.note = op->strided > 1 ? "unvectorised cat: two offset calculations per element"
		                         : "unvectorised loop: an element per thread through an "
		                           "offset calculator (strided, broadcast or cast operands)";
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
	case THIN: break;
	}
	return ep(e, RL_EP_GEMM_THIN);
}

/* One GEMM problem and the best tile found for it so far. */
struct gemm_search {
	const struct env *e;
	double batch, m, n, k, c_bytes, epi, fallback;
	int grouped; /* one grouped kernel over the batch: no split over K */
	double rate[THIN + 1]; /* FLOP/us of one CTA slot, by tile class */
	double best;
	struct est s;
};

/* Tries a TM x TN tile (rows x columns of C) on G's problem: its tiles over
 * the SMs (one CTA per SM for tiles of 128 x 96 and up, two below), split
 * over K when too few tiles fill the SMs and K is over 1024 (each split at
 * least 256 deep, partial sums written and read in fp32; the H200 profiles
 * show no split-K kernel at K = 768 or 1024, GPT-2's decode and 1024^3,
 * and one at 1234: docs/measurements/h200-issue12-2026-12-01, issue 23's
 * traces; the fallback kernels as well: odd-gemm's 777 x 999 x 1234 and
 * Qwen1.5-MoE's 8 x 60 x 2048 router end in splitKreduce), waves of
 * tiles at the tile
 * class's fraction of the peak, then the output written (the share the
 * epilogue does not hide). A split product adds a second kernel, the
 * reduction of the partial sums (cublasLt splitKreduce). */
static void tile_try(struct gemm_search *g, double tm, double tn)
{
	enum tile_class c = tile_class(tm, tn);
	double slots = g->e->sms * (c == LARGE || c == MEDIUM ? 1 : 2);
	double nt = g->batch * ceil(g->m / tm) * ceil(g->n / tn);
	double split = 1, units, waves, t_main, extra = 0, t;

	if (nt < slots && g->k > 1024 && !g->grouped)
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

/* Whether cuBLAS runs an unaligned M x N product on its GEMV kernels
 * (gemv2T at M = 1, gemmSN at 4: GPT-2's decode lm_head) rather than the
 * fallback's CUTLASS tiles, 64 x 64 at the least, which take over from 8
 * rows (M of 8 and 32 padded to 64: granite's and GPT-2's decode lm_head,
 * issue 24's traces; docs/measurements/h200-issue24-align-2026-12-04). */
static int unaligned_gemv(double m, double n)
{
	return fmin(m, n) < 8;
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
 * as the fast kernels' are, and no GEMV tiles. */
static struct est gemm(const struct env *e, double batch, double m, double n, double k,
                       double es, double pk, double mem_bytes, double mem_eff, double fallback,
                       int grouped)
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
	g.grouped = grouped;
	for (c = LARGE; c <= THIN; c++)
		g.rate[c] = pk / (e->sms * (c == LARGE || c == MEDIUM ? 1 : 2)) *
		            tile_eff(e, (enum tile_class)c) *
		            (fallback > 0 ? fallback / ep(e, RL_EP_GEMM_LARGE) : 1);
	g.best = HUGE_VAL;
	g.s.t_compute = HUGE_VAL;
	g.s.kernels = 1;
	g.s.t_memory = mem_bytes / (e->bw * mem_eff);
	/* the fallback kernels are CUTLASS's fixed tiles (256 x 128, 128 x
	 * 256, 256 x 64, 128 x 128, 128 x 64, 64 x 64 in the H200's align1 and
	 * align2 kernel names, docs/measurements/h200-issue24-align-2026-12-04):
	 * no 192 x 192, no widths in steps of 16 */
	for (i = 0; i < sizeof(standard) / sizeof(standard[0]); i++) {
		if (fallback > 0 && standard[i][0] == 192)
			continue;
		tile_try(&g, standard[i][0], standard[i][1]);
		if (standard[i][0] != standard[i][1])
			tile_try(&g, standard[i][1], standard[i][0]);
	}
	/* the widths in steps of 16 matter when 256 x 128 tiles leave the last
	 * of their waves more than a tenth empty over all (a few waves):
	 * otherwise they change the time by less, and a million ops stay fast */
	if (fallback <= 0 && (wave_loss(&g, 256, 128) > 0.1 || wave_loss(&g, 128, 256) > 0.1))
		for (i = 0; i < sizeof(sides) / sizeof(sides[0]); i++)
			for (w = 64; w <= 256; w += 16) {
				tile_try(&g, sides[i], w);
				tile_try(&g, w, sides[i]);
			}
	/* the thin tiles are for a side under 128 (GEMVs, decode): the H200
	 * profiles show cuBLAS picking them only there; unaligned, only where
	 * its GEMV kernels run (unaligned_gemv) */
	if ((m < 128 || n < 128) && !grouped && (fallback <= 0 || unaligned_gemv(m, n)))
		for (i = 0; i < sizeof(thin) / sizeof(thin[0]); i++) {
			tile_try(&g, thin[i][0], thin[i][1]);
			tile_try(&g, thin[i][1], thin[i][0]);
		}
	return g.s;
}

/* The fallback kernels cuBLAS runs when N or K (the contiguous dims of
 * row-major operands) is not a multiple of 16 bytes (NVIDIA, Matrix
 * Multiplication Background User's Guide, "Tensor Core Requirements"; on
 * the H200 cutlass_75/80 "align1"/"align2" kernels replace nvjet), A
 * bytes aligned. Of 2 bytes (bf16's odd N: CUTLASS's align1 kernels, one
 * element a load) the layout matters: F.linear's TN kernels run at about
 * 0.7 of torch.mm's NN ones (100 against 140 TFLOP/s at 4096 x 4095 x
 * 4096, docs/measurements/h200-issue24-align-2026-12-04), where the
 * CUTLASS tiles run (not unaligned_gemv's GEMV kernels, which take either
 * layout alike). Of 4 and 8 bytes both layouts run the same align2
 * kernels. */
static double align_eff(const struct env *e, int a, int linear, double m, double n)
{
	if (a >= 8)
		return ep(e, RL_EP_GEMM_ALIGN8);
	if (a >= 4)
		return ep(e, RL_EP_GEMM_ALIGN4);
	return linear && !unaligned_gemv(m, n) ? ep(e, RL_EP_GEMM_ALIGN2_LINEAR)
	                                       : ep(e, RL_EP_GEMM_ALIGN2);
}

/* What the profile measured of a tensor pipe's GEMMs beyond bf16 and fp16:
 * a factor on the tile efficiencies (the kernels differ: tf32 runs
 * sm90_xmma_gemm_..._tf32 and, small, cutlass_80 s1688gemm; int8, through
 * torch._int_mm, CUTLASS's sm80 i16832gemm_s8 kernels, mma.sync and no
 * wgmma; fp8 e4m3, through torch._scaled_mm, nvjet_sm90_qqtst; all in
 * docs/measurements/h200-issue26-2026-12-02). 0: not measured. */
static double dtype_factor(const struct env *e, const struct rl_op *op)
{
	switch (op->dtype) {
	case RL_TF32: return ep(e, RL_EP_GEMM_TF32);
	case RL_INT8: return ep(e, RL_EP_GEMM_INT8);
	case RL_FP8E4M3: return ep(e, RL_EP_GEMM_FP8);
	case RL_FP8E5M2: return 0; /* no e5m2 GEMM measured */
	case RL_FP64:
	case RL_FP32:
	case RL_FP16:
	case RL_BF16:
	case RL_INT32:
	case RL_INT64:
	case RL_INT4:
	case RL_FP4:
	case RL_MXFP4: return 1;
	}
	return 1;
}

/* int4 weights under bf16 activations: PyTorch's tinygemm kernel
 * (torch._weight_int4pack_mm, aten/src/ATen/native/cuda/int4mm.cu,
 * tinygemm_m16n8k16_chunk_kernel) dequantises each weight tile in
 * registers and then runs its m16n8k16 MMAs, one after the other within a
 * warp: the weight stream (at its own fraction of the bandwidth) and the MMAs
 * (at their fraction of the bf16 peak) add. On the H200 the MMA side is
 * about 29 TFLOP/s, from 16 rows up linear in M (1024 x 4096 x 4096: 1181
 * us), and one row streams the weights at about 1.8 TB/s. */
static struct est tinygemm(const struct env *e, const struct rl_pred *p)
{
	struct est s = {0, 0, 1, NULL, 0, 0};

	s.t_memory = p->bytes / (e->bw * ep(e, RL_EP_MEM_INT4));
	s.t_compute = s.t_memory + p->flops / (peak(e, RL_PIPE_BF16_TENSOR, 1) * ep(e, RL_EP_GEMM_INT4));
	s.note = "int4 weight-only, assumed PyTorch's tinygemm (torch._weight_int4pack_mm): the "
	         "weights dequantised, then the MMAs, in series";
	/* tinygemm is what torch._weight_int4pack_mm runs, not what every int4
	 * stack does (Marlin-style kernels stay near the weight stream at
	 * batches where tinygemm is compute-bound): said */
	s.assumed = 1;
	return s;
}

/* int8 weights under bf16 or fp16 activations, as gpt-fast (model.py,
 * WeightOnlyInt8Linear) and torchao's int8_weight_only write them:
 * F.linear(x, w.to(x.dtype)) * scales. Eagerly that is three kernels in
 * series: the widening cast of the weights (unrolled_elementwise_kernel, an
 * element per thread through an offset calculator: strided_loop's rate),
 * the bf16 GEMM over the cast weights (read at 2 bytes each), and the
 * scales' multiply over the output. On the H200 the cast is most of it
 * (4096 x 11008: 146 us of kernels against the weights' 9 us at the
 * bandwidth, docs/measurements/h200-issue26-wo-2026-12-04). Under
 * torch.compile with coordinate-descent tuning (gpt-fast's generate.py) a
 * one-row mm is decomposed into a multiply and a sum
 * (torch/_inductor/decomposition.py, mm), so the cast fuses into one
 * reduction kernel that streams the int8 weights once: its fraction of
 * the bandwidth and its fixed time (gemm.int8_gemv_us, 8.3 us on the H200:
 * 12.4 us at 4096 x 4096) are the profile's. Above one row inductor keeps
 * the cast apart; that path ran eagerly in the measurement (dynamo's
 * recompile limit), so it is taken as eager's, and said. */
static struct est int8_weights(const struct env *e, const struct rl_op *op,
                               const struct rl_pred *p, double batch, double es, double pk)
{
	const uint64_t *d = op->ndims == 4 ? op->dims + 1 : op->dims;
	double m = (double)d[0], n = (double)d[1], k = (double)d[2];
	double w = batch * n * k, cast, mul, lat;
	struct est s = {0, 0, 1, NULL, 0, 0}, g;

	if (e->compiled && m == 1 && batch == 1) {
		s.t_memory = p->bytes / (e->bw * ep(e, RL_EP_MEM_INT8_GEMV));
		s.t_compute = p->flops / fmax(peak(e, RL_PIPE_FP32_VECTOR, 1), 1);
		s.latency = ep(e, RL_EP_INT8_GEMV_US);
		s.note = "int8 weight-only under torch.compile: one fused dequantising GEMV (the "
		         "one-row mm as a multiply and a sum, the cast fused in)";
		return s;
	}
	/* the cast: w int8 elements read, w of ES bytes written */
	cast = fmax(w * (1 + es) / (e->bw * ep(e, RL_EP_MEM_ELEMENTWISE)),
	            w / ep(e, RL_EP_COPY_PERM_ELEMS) / (e->sms * e->clock_scale)) +
	       ep(e, RL_EP_COPY_STRIDED_US);
	g = gemm(e, batch, m, n, k, es, pk, p->bytes + w * (es - 1), ep(e, RL_EP_MEM_GEMM), 0, 0);
	/* the scales' multiply: the output read and written, the scales read */
	mul = (2 * batch * m * n + n) * es / (e->bw * ep(e, RL_EP_MEM_ELEMENTWISE));
	/* cuBLAS's GEMV tiles start slower than an elementwise kernel (matmul) */
	lat = m < 128 || n < 128 ? g.kernels * (ep(e, RL_EP_GEMM_LATENCY_US) - ep(e, RL_EP_LATENCY_US))
	                         : 0;
	s.t_memory = w * (1 + es) / (e->bw * ep(e, RL_EP_MEM_ELEMENTWISE)) + g.t_memory + mul;
	s.t_compute = cast + fmax(g.t_compute, g.t_memory) + lat + mul;
	s.kernels = 2 + g.kernels;
	s.note = e->compiled ? "int8 weight-only under torch.compile above one row: not measured, "
	                       "taken as eager's cast, GEMM and multiply"
	                     : "int8 weight-only: the weights cast to the activations' dtype (an "
	                       "unvectorised widening copy), then the GEMM and the scales' multiply";
	s.assumed = e->compiled;
	return s;
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
	if ((op->has & RL_HAS_WEIGHT_DTYPE) && op->weight_dtype == RL_INT4)
		return tinygemm(e, p);
	if ((op->has & RL_HAS_WEIGHT_DTYPE) && op->weight_dtype == RL_INT8 &&
	    (op->dtype == RL_BF16 || op->dtype == RL_FP16))
		return int8_weights(e, op, p, batch, es, pk);
	pk *= dtype_factor(e, op);
	/* one output column has no row stride to align: N of 1 runs the
	 * nvjet GEMV (qwen2_moe's shared_expert_gate, 8 x 1 x 2048, in 5.5 us) */
	a = d[1] == 1 ? 16 : align_bytes(d[1] * (uint64_t)es);
	if (align_bytes(d[2] * (uint64_t)es) < a)
		a = align_bytes(d[2] * (uint64_t)es);
	/* A grouped GEMM (torch._grouped_mm: at::cuda::detail::
	 * prepare_grouped_gemm_data, then CUTLASS 3's grouped kernel, two
	 * kernels): the experts' tiles in one launch, no split over K nor GEMV
	 * tiles, and its weight stream slower than cuBLAS's batched kernel (8
	 * experts x 32 tokens x 28672 x 4096: 673 us against bmm's 428). */
	if (op->grouped) {
		s = gemm(e, batch, (double)d[0], (double)d[1], (double)d[2], es, pk, p->bytes,
		         ep(e, RL_EP_MEM_GROUPED), 0, 1);
		s.kernels = 2;
		if (s.t_memory >= s.t_compute)
			s.note = "grouped GEMM: the experts' weights streamed by CUTLASS's grouped kernel";
		return s;
	}
	s = gemm(e, batch, (double)d[0], (double)d[1], (double)d[2], es, pk, p->bytes,
	         ep(e, RL_EP_MEM_GEMM),
	         a < 16 ? align_eff(e, a, op->linear, (double)d[0], (double)d[1]) : 0, 0);
	if (a < 16)
		s.note = "N or K not a multiple of 16 bytes: a slow fallback GEMM kernel";
	else if (d[0] < 128 || d[1] < 128)
		/* cuBLAS's GEMV kernels (the thin nvjet_sm90_tst tiles of a side
		 * under 128, and split-K's reduction) each take longer to start
		 * and drain than an elementwise kernel: the TMA descriptors
		 * fetched, a cluster launched, the K loop's pipeline filled
		 * before the first MMA, the output stored; what a GEMV of a few
		 * MB shows (docs/measurements/h200-issue23-gemv-2026-12-04: 0.5
		 * MB in 4.9 us, a split one's two kernels 4.8 us over its
		 * stream). The larger tiles' start is in their fitted
		 * efficiencies (gemm.large, medium, small). */
		s.latency = ep(e, RL_EP_GEMM_LATENCY_US);
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
	 * channels to feed a tensor core. cuDNN's kernel on the H200
	 * (conv2d_c1_k1_nhwc_specialized, channels-last) stages an input tile
	 * with its halo in shared memory and computes the outputs tap by tap on
	 * the CUDA cores: the taps (outputs x R x S) at one rate per SM and the
	 * staged input pixels, ((Ho - 1) x stride + R) x ((Wo - 1) x stride + S)
	 * per plane, at another (docs/measurements/h200-issue26-2026-12-02:
	 * ConvNeXt's 7x7 and MobileNet's 3x3 at 5 to 12 TFLOP/s, a sixth of the
	 * fp32 pipe at most). Small ones do not go below a floor that grows with
	 * the filter, not with the outputs (4 x 768 x 7 x 7 in 12.7 us, 8 x 1024
	 * x 7 x 7 at 3x3 in 5.7: docs/measurements/h200-issue26-fresh-2026-12-02):
	 * each CTA stages its tile (a round trip to memory and a barrier) before
	 * it takes the taps one after another, an accumulation that a few
	 * outputs per thread cannot hide; in series with the rates above, since
	 * the CTAs run in lockstep phases. */
	if (op->groups > 1 && op->groups == d[1] && op->kernel[0] == d[1]) {
		double planes = (double)d[0] * c, r = (double)op->kernel[1], t = (double)op->kernel[2];
		double hp = (ho - 1) * (double)op->stride + r, wp = (wo - 1) * (double)op->stride + t;

		s = streaming(e, p, ep(e, RL_EP_MEM_CONV));
		s.t_compute =
		    planes *
		        (ho * wo * r * t / ep(e, RL_EP_DW_TAPS) +
		         hp * wp / ep(e, RL_EP_DW_PIXELS)) /
		        (e->sms * e->clock_scale) +
		    (ep(e, RL_EP_DW_STAGE_US) + r * t * ep(e, RL_EP_DW_TAP_US)) / e->clock_scale;
		s.note = "depthwise convolution: a stencil on the CUDA cores, tap by tap";
		return s;
	}
	if (!rl_pipe_is_tensor(p->pipe)) {
		s = streaming(e, p, ep(e, RL_EP_MEM_GEMM));
		s.t_compute = pk > 0 ? p->flops / (pk * ep(e, RL_EP_GEMM_VECTOR)) : 0;
		return s;
	}
	/* Grouped (ResNeXt's 32 groups): cuDNN runs each group as its own
	 * implicit GEMM with tiles of at least 32 output channels and K steps of
	 * 32 (sm80/sm90_xmma_fprop_implicit_gemm_..._tilesize64x64x64, 128x32x32,
	 * 256x64x32 in the H200 profiles): a group of K / g channels fills a
	 * tile of ceil(K / g / 32) x 32, its reduction (C / g) x R x S is padded
	 * to a multiple of 32, and those padded GEMMs run at the grouped kernels'
	 * fraction of the GEMM model. */
	if (op->groups > 1) {
		double kp = ceil(k / g / 32) * 32, rp = ceil(c / g * (double)op->kernel[1] *
		                                             (double)op->kernel[2] / 32) * 32;

		s = gemm(e, g, (double)d[0] * ho * wo, kp, rp, es, pk * ep(e, RL_EP_CONV_GROUPED), p->bytes,
		         ep(e, RL_EP_MEM_GEMM), 0, 1);
		if (kp > k / g || s.t_compute > s.t_memory)
			s.note = "grouped convolution: each group's GEMM padded to whole tiles";
		return s;
	}
	/* channels-last: the GEMM's K runs over C (contiguous), its N over K */
	if (align_bytes((uint64_t)(c / g * es)) < 16 || align_bytes((uint64_t)(k / g * es)) < 16) {
		s = streaming(e, p, ep(e, RL_EP_MEM_GEMM));
		s.t_compute = p->flops / (pk * ep(e, RL_EP_CONV_UNALIGNED));
		s.note = "channels not a multiple of 16 bytes: the input is padded, a slow kernel";
		return s;
	}
	s = gemm(e, 1, (double)d[0] * ho * wo, k, c * (double)op->kernel[1] * (double)op->kernel[2],
	         es, pk * ep(e, RL_EP_CONV), p->bytes, ep(e, RL_EP_MEM_GEMM), 0, 0);
	return s;
}

/* ---- attention ------------------------------------------------------------ */

/* The splits of the keys cuDNN's decode kernel takes for UNITS (batch, KV
 * head) pairs over SK keys, as its grids in the H200 profiles of issue 23
 * show (x: splits, y: KV heads, z: batch; docs/measurements/
 * h200-issue23-2026-12-02): none from 128 pairs up; else the most that keep
 * 256 CTAs and 128 keys a split, a power of two up to 16. A split kernel is
 * followed by a combine kernel over the splits' partial results. */
static double decode_splits(double units, double sk)
{
	double s = 1;

	if (units >= 128)
		return 1;
	while (s < 16 && units * s * 2 <= 256 && s * 2 <= ceil(sk / 128))
		s *= 2;
	return s;
}

/* An explicit attn_mask at prefill (docs/oplist-format.md, "Attention
 * masks"). SDPA hands a float mask to cuDNN's kernel as a bias, a bool
 * one first turned into a float mask of the query's dtype, 0 where it
 * keeps a score and -inf elsewhere (aten/src/ATen/native/transformers/
 * attention.cpp, convert_boolean_attn_mask: at::where over the mask, a
 * pointwise kernel reading a byte and writing es an element of the
 * mask's own shape). The kernel reads the bias tile by tile beside each
 * score tile, so every (batch, head) reads its Sq x Sk of it, a mask
 * broadcast over the heads once a head (from L2 after the first), and
 * those loads do not overlap the MMAs: they add to the kernel's time at
 * mem.attention_mask of the datasheet bandwidth. On the H200 a float
 * [8, 1, 1024, 1024] mask took cuDNN's bf16 kernel from the 128 us the
 * model gives unmasked to 219.2 us, and the fp32 memory-efficient kernel
 * (fmha_cutlassF_f32) from 1028.6 us measured unmasked to 1200.8: 0.61 and
 * 0.65 of 4800 GB/s over their tiles, one rate for two kernels
 * (docs/measurements/h200-issue26-fresh-2026-12-02; the profile's source
 * mask). */
static void attention_mask(const struct env *e, const struct rl_op *op, double es, struct est *s)
{
	const uint64_t *d = op->dims;
	double sk = (double)(op->ndims == 5 ? d[3] : d[2]);
	double tiles = (double)d[0] * (double)d[1] * (double)d[2] * sk * es;

	s->t_compute += tiles / (e->bw * ep(e, RL_EP_MEM_ATTN_MASK));
	if (op->mask == RL_MASK_BOOL) {
		uint64_t m[4];
		double n;

		rl_attention_mask_dims(op, m);
		n = (double)m[0] * (double)m[1] * (double)m[2] * (double)m[3];
		s->t_compute += n * (1 + es) / (e->bw * ep(e, RL_EP_MEM_ELEMENTWISE));
		s->kernels += 1;
		s->note = "a bool mask: turned into a float one (a kernel), then read tile by tile "
		          "each head";
	} else
		s->note = "a float mask: read tile by tile each head, beside the scores";
}

/* Flash attention: the score and value products at the rate the kernel
 * reaches for its head dim (interpolated between 64 and 128), rising with
 * the key length as the per-tile prologue amortises (rate x Sk / (Sk +
 * s_half)); a causal mask halves the average keys per query and costs the
 * masked tiles' imbalance, a sliding window (formulas.h) brings them down to
 * the mean its FLOPs count. The kernel computes whole tiles of 64 queries x
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

	/* fp32: no flash kernel; SDPA picks the memory-efficient one
	 * (fmha_cutlassF_f32_aligned_64x64_rf_sm80 on the H200), on the CUDA
	 * cores */
	if (!rl_pipe_is_tensor(p->pipe) || pk <= 0) {
		s.t_compute = pk > 0 ? p->flops / (pk * ep(e, RL_EP_ATTN_VECTOR)) : 0;
		if (sq > 16 && op->mask != RL_MASK_NONE)
			attention_mask(e, op, (double)rl_dtype_size(op->dtype), &s);
		return s;
	}
	/* The rate by the head dim of Q and K, D (the shape's), not V's and
	 * O's Dv (v_head_dim): the profile's rates were measured with Dv = D,
	 * and no measurement says how a smaller PV product moves them. Dv
	 * and kv_shared reach the time through P's FLOPs and bytes, the
	 * formulas' (formulas.h), which count PV at Dv and V's bytes once. */
	f = fmin(fmax((hd - 64) / 64, 0), 1);
	eff = (1 - f) * ep(e, RL_EP_ATTN_D64) + f * ep(e, RL_EP_ATTN_D128);
	s_eff = op->causal ? sk / 2 : sk;
	if (rl_attention_windowed(op)) /* the mean keys a query sees, as the FLOPs count them */
		s_eff = rl_attention_window_scores(op) / sq;
	eff *= s_eff / (s_eff + ep(e, RL_EP_ATTN_S_HALF));
	if (op->causal)
		eff *= ep(e, RL_EP_ATTN_CAUSAL);
	if (sq <= 16) {
		/* cuDNN's decode kernel (sdpa_sm80_flash_fprop_wmma_f16 16x128x128
		 * on the H200): a CTA per (batch, KV head) and split of the keys,
		 * each streaming its share of K and V; a CTA's rate is bounded (too
		 * few bytes in flight: Little's law), so fewer CTAs than SMs leave
		 * bandwidth unused, and each kernel pays a fixed time (its pipeline
		 * filled, the softmax and output written). Splits and their combine
		 * kernel (cudnn::fusion::lean_reduction_kernel): decode_splits. */
		double kvh = op->kv_heads ? (double)op->kv_heads : (double)d[1];
		uint64_t read, held;
		double units = (double)d[0] * kvh, splits;

		rl_attention_kv_tokens(op, &read, &held); /* the keys streamed: a window's */
		splits = decode_splits(units, (double)read);

		s.t_memory = fmax(s.t_memory, p->bytes / (fmin(units * splits, e->sms) *
		                                           ep(e, RL_EP_ATTN_DECODE_CTA_GBS) * 1e3)) +
		             ep(e, RL_EP_ATTN_DECODE_US);
		/* a split adds the combine: a kernel that waits for the last
		 * split and reads every split's partial output and softmax
		 * statistics (docs/measurements/h200-issue23-decode-attn-
		 * 2026-12-04: fewer than 128 pairs ran 2 to 4 us over the
		 * unsplit line) */
		if (splits > 1) {
			s.kernels = 2;
			s.t_memory += ep(e, RL_EP_ATTN_DECODE_SPLIT_US);
		}
	}
	s.t_compute = p->flops / (pk * eff);
	if (sq > 16)
		s.t_compute *= ceil(sq / 64) * 64 / sq * (ceil(sk / 128) * 128 / sk);
	if (sq <= 16)
		s.note = "decode: a stream over the KV cache";
	else if (op->mask != RL_MASK_NONE)
		attention_mask(e, op, (double)rl_dtype_size(op->dtype), &s);
	return s;
}

/* ---- the model ------------------------------------------------------------ */

/* The bandwidth fraction of an elementwise stream: a vectorised kernel's
 * (PyTorch's loops load 16 bytes per thread, aten/src/ATen/native/cuda/
 * MemoryAccess.cuh, vec_size), or, for a pointwise kernel whose threads move
 * fewer bytes per access (vector_bytes: a Triton kernel of XBLOCK 512 over
 * 8 warps loads 2 bf16 elements, 4 bytes, per thread), the narrow
 * accesses' fraction: a quarter of the bytes in flight per load
 * instruction, measured on the kernels of the compiled traces
 * (mem.narrow). */
static double elementwise_eff(const struct env *e, const struct rl_op *op)
{
	if (op->kind == RL_KIND_POINTWISE && op->vector_bytes > 0 && op->vector_bytes < 16)
		return ep(e, RL_EP_MEM_NARROW);
	return ep(e, RL_EP_MEM_ELEMENTWISE);
}

static struct est estimate(const struct env *e, const struct rl_op *op, const struct rl_pred *p)
{
	size_t es = rl_dtype_size(op->dtype);
	uint64_t last;

	/* An attention row with its FLOPs and bytes given (a training step's
	 * flash backward, train.h: five GEMMs over the forward's tiles) keeps
	 * the attention model, which works from its shape and P's work. */
	if (op->kind == RL_KIND_ATTENTION && (op->has & RL_HAS_SHAPE) && op->ndims >= 4)
		return attention(e, op, p);
	/* An unvectorised loop is known by its elements, whatever its bytes. */
	if (op->strided > 0 && op->nperm == 0 && (op->has & RL_HAS_SHAPE) &&
	    (op->kind == RL_KIND_POINTWISE || op->kind == RL_KIND_COPY))
		return strided_loop(e, op, p);
	/* Other given FLOPs or bytes replace the formula's: nothing is known of
	 * the kernel beyond them. */
	if (op->kind == RL_KIND_CUSTOM || !(op->has & RL_HAS_SHAPE) ||
	    (op->has & (RL_HAS_FLOPS | RL_HAS_BYTES))) {
		struct est s = streaming(e, p, elementwise_eff(e, op));
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
	case RL_KIND_COPY:
		if (op->nperm > 0)
			return permuted_copy(e, op, p);
		return streaming(e, p, ep(e, RL_EP_MEM_ELEMENTWISE));
	case RL_KIND_POINTWISE:
		return streaming(e, p, elementwise_eff(e, op));
	case RL_KIND_EMBEDDING: /* whole rows of D elements: a copy's stream */
		return streaming(e, p, ep(e, RL_EP_MEM_ELEMENTWISE));
	case RL_KIND_ALLREDUCE:
	case RL_KIND_ALLGATHER:
	case RL_KIND_REDUCESCATTER:
	case RL_KIND_ALLTOALL:
	case RL_KIND_BROADCAST:
	case RL_KIND_SENDRECV:
		break; /* rl_expected() keeps a collective's bound */
	case RL_KIND_CUSTOM:
	case RL_KIND_FUSED:
		break; /* their FLOPs and bytes are given: above */
	}
	return streaming(e, p, ep(e, RL_EP_MEM_ELEMENTWISE));
}

/* The model's environment for CTX; 0 when there is no model to apply (best
 * case, no profile, a device without a bandwidth). */
static int env_init(struct env *e, const struct rl_model_ctx *ctx)
{
	if (ctx->best_case || ctx->eff == NULL)
		return 0;
	e->d = ctx->dev;
	e->ep = ctx->eff;
	e->compiled = ctx->compiled;
	e->sms = fmax(1, ctx->dev->num[RL_HW_SM_COUNT].value);
	e->bw = datasheet(ctx->dev, RL_HW_MEM_BANDWIDTH_GBS) * 1e3;
	e->clock_scale = ctx->dev->num[RL_HW_BOOST_CLOCK_MHZ].present
	                         ? datasheet(ctx->dev, RL_HW_BOOST_CLOCK_MHZ) /
	                                   ctx->eff->ref[RL_EP_REF_CLOCK_MHZ].value
	                         : 1;
	return e->bw > 0 && e->clock_scale > 0;
}

/* Sets P's expected times for an op of LAUNCHES kernels per occurrence (as
 * the roofline counts them: each pays the fixed latency, the work is the
 * op's), S's estimate of them. An op of one launch is the kernels S
 * expects (a split-K GEMM and its reduction, a decode attention and its
 * combine); one of more launches gives its kernels as recorded (import:
 * the kernels a trace ran for it, the split's reduction among them), so S's
 * count only raises it: never both multiplied. */
static void finish(const struct env *e, const struct rl_model_ctx *ctx, struct rl_pred *p,
                   const struct est *s, double work, double launches)
{
	double kernels = launches > 1 ? fmax(launches, s->kernels) : s->kernels;
	double fixed = kernels * (s->latency > 0 ? s->latency : ep(e, RL_EP_LATENCY_US)), stream;

	/* never below the bound: the roofline is what no kernel beats */
	p->expected_gpu_us = fmax(fixed + work, p->t_gpu_us);
	p->expected_kernels = kernels;
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
	stream = work + kernels * ctx->dev->num[RL_HW_MIN_KERNEL_US].value;
	if (p->t_overhead_us >= stream || fixed >= work)
		p->expected_bound = RL_BOUND_OVERHEAD;
	else
		p->expected_bound = p->t_compute_us > p->t_memory_us ? RL_BOUND_COMPUTE : RL_BOUND_MEMORY;
	if (p->expected_note == NULL && fixed >= work)
		p->expected_note = "kernel latency: too little work to fill the GPU";
}

/* SDPA's backend by dtype and head dim, and the backends the profile has not
 * measured (NULL: a measured one). PyTorch's select_sdp_backend tries its
 * backends in priority order, cuDNN first on sm90 with cuDNN above 9.15
 * (aten/src/ATen/native/transformers/cuda/sdp_utils.cpp@001f694:
 * check_prefer_cudnn_attention, priority_order), then flash, the
 * memory-efficient kernel and the math fallback. cuDNN and flash take fp16
 * and bf16 only (check_dtypes_low_precision, check_dtypes_flash_attention),
 * head dims up to 256 (check_head_dim_size_flash; cuDNN's limit is
 * check_cudnn_tensor_shapes', a multiple of 8); the memory-efficient kernel
 * takes fp32 too, any head dim that is a multiple of the GEMM alignment, 8
 * elements for half types and 4 for fp32 (check_head_dim_size_mem_efficient,
 * minimum_gemm_alignment); else the math path, a matmul, a softmax and a
 * matmul. On the H200 with PyTorch 2.11 and cuDNN 9.19 the profiles showed
 * cuDNN's sm90 kernel for bf16/fp16 at head dims 64 to 256, with or without
 * a float mask, fmha_cutlassF_bf16_aligned_32x128_gmem_sm80 at head dim 512
 * and fmha_cutlassF_f32 for fp32 (docs/measurements/h200-issue26-2026-12-02,
 * h200-issue26-fresh-2026-12-02). The attention model's rates are cuDNN's
 * (half types) and the fp32 memory-efficient kernel's; the others have no
 * measured rate. */
static const char *sdpa_unmeasured(const struct rl_op *op)
{
	/* the head dim of Q and K, D: what the backends' size checks and the
	 * profile's measurements go by (V's Dv, v_head_dim, was D in each) */
	uint64_t hd = op->dims[op->ndims - 1];
	int half = op->dtype == RL_BF16 || op->dtype == RL_FP16;

	if (half && hd % 8 == 0 && hd > 256)
		return "SDPA's memory-efficient backend (head dim over 256: no cuDNN or flash "
		       "kernel), not measured in the efficiency profile; expected = roofline";
	if ((half && hd % 8 != 0) || (op->dtype == RL_FP32 && hd % 4 != 0) ||
	    (!half && op->dtype != RL_FP32))
		return "SDPA's math backend (a matmul, a softmax and a matmul: no fused kernel for "
		       "this dtype or head dim), not measured in the efficiency profile; "
		       "expected = roofline";
	return NULL;
}

/* Why the profile has no measured kernel for OP's quantised dtypes, or NULL:
 * such an op gets the roofline as its expected time and this note, rather
 * than the efficiency of bf16's kernels, which does not carry to quantised
 * ones (issue 26: fp8 serving at 0.66 to 0.87, int8 and int4 weight-only
 * decode at 0.64 to 0.82 of published times with bf16's fractions). */
static const char *unmeasured(const struct env *e, const struct rl_op *op)
{
	int wq = (op->has & RL_HAS_WEIGHT_DTYPE) && op->weight_dtype != op->dtype;

	switch (op->kind) {
	case RL_KIND_MATMUL:
		if (wq && !(op->weight_dtype == RL_INT4 && op->dtype == RL_BF16) &&
		    !(op->weight_dtype == RL_INT8 && (op->dtype == RL_BF16 || op->dtype == RL_FP16)))
			return "no measured kernel for these weights: only int4 weights under bf16 "
			       "(tinygemm) and int8 weights under bf16 or fp16 are in the efficiency "
			       "profile; expected = roofline";
		if (wq && ep(e, RL_EP_GEMM_INT4) <= 0)
			return "no measured kernel for int4 weights in the efficiency profile; "
			       "expected = roofline";
		if (!wq && dtype_factor(e, op) <= 0)
			return op->dtype == RL_FP8E5M2
			               ? "no measured fp8e5m2 GEMM in the efficiency profile; expected = roofline"
			               : "no measured GEMM of this dtype in the efficiency profile; "
			                 "expected = roofline";
		break;
	case RL_KIND_CONV2D:
		if (wq || op->dtype == RL_INT8 || op->dtype == RL_FP8E4M3 || op->dtype == RL_FP8E5M2 ||
		    op->dtype == RL_TF32)
			return "no measured convolution of this dtype in the efficiency profile; "
			       "expected = roofline";
		break;
	case RL_KIND_ATTENTION:
		if (((op->has & RL_HAS_KV_DTYPE) && op->kv_dtype != op->dtype) ||
		    op->dtype == RL_FP8E4M3 || op->dtype == RL_FP8E5M2 || op->dtype == RL_INT8)
			return "no measured attention kernel for this dtype or KV cache in the "
			       "efficiency profile; expected = roofline";
		if ((op->has & RL_HAS_SHAPE) && op->ndims >= 4)
			return sdpa_unmeasured(op);
		break;
	case RL_KIND_POINTWISE:
	case RL_KIND_REDUCTION:
	case RL_KIND_SOFTMAX:
	case RL_KIND_LAYERNORM:
	case RL_KIND_COPY:
	case RL_KIND_EMBEDDING:
	case RL_KIND_ALLREDUCE:
	case RL_KIND_ALLGATHER:
	case RL_KIND_REDUCESCATTER:
	case RL_KIND_ALLTOALL:
	case RL_KIND_BROADCAST:
	case RL_KIND_SENDRECV:
	case RL_KIND_CUSTOM:
	case RL_KIND_FUSED:
		break; /* no rule of unmeasured dtypes for them */
	}
	return NULL;
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
	p->expected_note = unmeasured(&e, op);
	if (p->expected_note != NULL) {
		p->expected_assumed = 1;
		return;
	}
	s = estimate(&e, op, p);
	finish(&e, ctx, p, &s, fmax(s.t_compute, s.t_memory), (double)op->launches);
	p->expected_assumed = s.assumed;
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
	struct est s = {0, 0, 1, NULL, 0, 0};
	double fixed;

	if (!env_init(&e, ctx) || !(dram_t_gpu_us > 0))
		return;
	fixed = ep(&e, RL_EP_LATENCY_US);
	s.note = note;
	finish(&e, ctx, p, &s,
	       fmax(dram_expected_gpu_us - fixed, 0) * p->t_gpu_us / dram_t_gpu_us, 1);
}
