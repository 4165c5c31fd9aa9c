/* formulas.c - FLOP and byte counts per operator kind (see formulas.h).
 *
 * Element counts are checked in 64-bit integers, so that a shape whose tensor
 * could not exist is an error instead of a silently wrapped number; the FLOP
 * and byte totals are then formed in double precision.
 */
#include "config.h"

#include "formulas.h"

#include "collective.h"
#include "num.h"

#include <string.h>

double rl_default_flops_per_element(enum rl_kind k)
{
	return rl_kind_info(k)->default_fpe;
}

/* The product of N factors, or RL_ERR_RANGE when it overflows 64 bits. */
static int product(const uint64_t *f, int n, uint64_t *out)
{
	uint64_t p = 1;
	int i;

	for (i = 0; i < n; i++)
		if (rl_mul_u64(p, f[i], &p) < 0)
			return RL_ERR_RANGE;
	*out = p;
	return 0;
}

static int overflow(struct rl_err *err, const char *what)
{
	return rl_err_set(err, RL_ERR_RANGE,
	                  "shape: the %s has more than 2^64 elements", what);
}

/* Checks OP's number of dims against its kind's shape form (kind.h). */
static int want_dims(const struct rl_op *op, struct rl_err *err)
{
	const struct rl_kind_info *ki = rl_kind_info(op->kind);

	if (op->ndims >= ki->min_dims && op->ndims <= ki->max_dims)
		return 0;
	return rl_err_set(err, RL_ERR_PARSE,
	                  "shape: %s expects %s, got %d dimension%s",
	                  ki->name, ki->shape_form, op->ndims,
	                  op->ndims == 1 ? "" : "s");
}

/* Elementwise kinds (byte rules inputs, stream, row_reduce, row_affine:
 * pointwise, copy, softmax, reduction, layernorm). */
static int elementwise(const struct rl_op *op, double es, double *flops,
                       double *bytes, struct rl_err *err)
{
	const struct rl_kind_info *ki = rl_kind_info(op->kind);
	uint64_t n;
	double fpe, last = (double)op->dims[op->ndims - 1];

	if (product(op->dims, op->ndims, &n) < 0)
		return overflow(err, "tensor");
	/* a kind without the column (copy) keeps its default */
	fpe = (op->has & RL_HAS_FPE) && (ki->columns & RL_KCOL_FPE) ? op->flops_per_element
	                                                            : ki->default_fpe;
	*flops = (double)n * fpe;
	switch (ki->bytes) {
	case RL_BYTES_INPUTS:
		/* inputs tensors of the output's size read, one written; inputs + 1
		 * would wrap to 0 (a free op) at 2^64 - 1 */
		if (op->inputs == UINT64_MAX)
			return rl_err_set(err, RL_ERR_RANGE,
			                  "column 'inputs': %llu inputs: inputs + 1 overflows 64 bits",
			                  (unsigned long long)op->inputs);
		*bytes = ((double)op->inputs + 1) * (double)n * es;
		break;
	case RL_BYTES_STREAM: /* copy, softmax: one tensor read, one written */
		*bytes = 2.0 * (double)n * es;
		break;
	case RL_BYTES_ROW_REDUCE:
		/* reduce over the last dim: input read, n / last outputs written */
		*bytes = ((double)n + (double)n / last) * es;
		break;
	case RL_BYTES_ROW_AFFINE: /* layernorm: input read, output written, weight and bias */
		*bytes = (2.0 * (double)n + 2.0 * last) * es;
		break;
	case RL_BYTES_MATMUL:
	case RL_BYTES_CONV2D:
	case RL_BYTES_ATTENTION:
	case RL_BYTES_GATHER:
	case RL_BYTES_BUS:
	case RL_BYTES_GIVEN: /* not elementwise: rl_op_work() does not call this */
		break;
	}
	return 0;
}

/* Bytes per element of the weights (matmul's B, conv2d's filter): the
 * weight_dtype when given, else the op's ES. */
static double weight_es(const struct rl_op *op, double es)
{
	return (op->has & RL_HAS_WEIGHT_DTYPE) ? rl_dtype_bytes(op->weight_dtype) : es;
}

/* A group-wise scale: one fp16 scale (2 bytes) per weight_group weights,
 * the groups running along the reduction of length RED, which they must
 * divide (WHAT names it). */
#define SCALE_BYTES 2.0

static int check_group(const struct rl_op *op, uint64_t red, const char *what,
                       struct rl_err *err)
{
	if (op->weight_group == 0 || red % op->weight_group == 0)
		return 0;
	return rl_err_set(err, RL_ERR_PARSE,
	                  "column 'weight_group': %llu does not divide the %s %llu (the groups run "
	                  "along the reduction)",
	                  (unsigned long long)op->weight_group, what, (unsigned long long)red);
}

/* The bytes of W_EL weights, scales included. */
static double weight_bytes(const struct rl_op *op, double es, double w_el)
{
	double b = weight_es(op, es) * w_el;

	if (op->weight_group > 0)
		b += SCALE_BYTES * (w_el / (double)op->weight_group);
	return b;
}

static int matmul(const struct rl_op *op, double es, double *flops,
                  double *bytes, struct rl_err *err)
{
	const uint64_t *d = op->dims;
	uint64_t b = 1, m, n, k, a_el, b_el, c_el;
	int rc = want_dims(op, err);

	if (rc < 0)
		return rc;
	if (op->ndims == 4)
		b = *d++;
	m = d[0], n = d[1], k = d[2];
	if (product((uint64_t[]){b, m, k}, 3, &a_el) < 0 ||
	    product((uint64_t[]){b, k, n}, 3, &b_el) < 0 ||
	    product((uint64_t[]){b, m, n}, 3, &c_el) < 0)
		return overflow(err, "matmul operand");
	rc = check_group(op, k, "K", err);
	if (rc < 0)
		return rc;
	*flops = 2.0 * (double)c_el * (double)k;
	*bytes = es * ((double)a_el + (double)c_el) + weight_bytes(op, es, (double)b_el);
	return 0;
}

/* Attention's key length Sk: BxHxSxD or BxHxSqxSkxD. */
static uint64_t attention_sk(const struct rl_op *op)
{
	return op->dims[op->ndims == 5 ? 3 : 2];
}

int rl_attention_windowed(const struct rl_op *op)
{
	return op->window > 0 && op->window < attention_sk(op);
}

/* Causal: query p (p = Sk - Sq .. Sk - 1) sees min(p + 1, W) keys, so the
 * sum is that of min(j, W) over j = p + 1 = a .. Sk, a = Sk - Sq + 1 (1
 * when Sq >= Sk: a query before the first key sees none). Split at W
 * (W < Sk here): the j up to W see j keys each, the arithmetic series
 * (a + W)(W - a + 1) / 2 when a <= W; the j above W see W each, W (Sk -
 * max(a, W + 1) + 1). At prefill (Sq = Sk, a = 1): W (W + 1) / 2 + (Sk -
 * W) W. Each term is a product of exact integers, not the difference of
 * two large sums, so the count is exact while they stay below 2^53. Without
 * a mask (a decode row: the queries at the end, each over the last keys):
 * Sq x W. */
double rl_attention_window_scores(const struct rl_op *op)
{
	uint64_t sq = op->dims[2], sk = attention_sk(op), w = op->window, a;
	double s = 0;

	if (!op->causal)
		return (double)sq * (double)w;
	a = sq >= sk ? 1 : sk - sq + 1;
	if (a <= w)
		s = ((double)a + (double)w) * (double)(w - a + 1) / 2;
	return s + (double)w * (double)(sk - (a > w ? a : w + 1) + 1);
}

void rl_attention_kv_tokens(const struct rl_op *op, uint64_t *read, uint64_t *held)
{
	uint64_t sq = op->dims[2], sk = attention_sk(op), w = op->window;

	*read = *held = sk;
	if (!rl_attention_windowed(op))
		return;
	/* the cache keeps the last W tokens (Mistral 7B's rolling buffer) */
	*held = w;
	/* read: the causal queries at p = Sk - Sq .. Sk - 1 see p - W + 1 .. p
	 * between them, Sq + W - 1 keys (all Sk when that is more; W < Sk, so
	 * Sk - (W - 1) cannot wrap); without a mask, the last W */
	if (!op->causal)
		*read = w;
	else if (sq < sk - (w - 1))
		*read = sq + w - 1;
}

uint64_t rl_attention_v_dim(const struct rl_op *op)
{
	return op->v_head_dim ? op->v_head_dim : op->dims[op->ndims - 1];
}

/* K's D channels a token and KV head, and V's Dv unless V is K's first Dv
 * (kv_shared: DeepSeek-V2's absorbed MLA caches one latent vector a token,
 * c_KV of kv_lora_rank channels and the shared rotary key, and reads V as
 * c_KV: arXiv:2405.04434, sections 2.1.2 and 2.1.3). With Dv = D this is
 * 2 D, so every count below is today's: a product times 2 D rounds as the
 * same product times 2 and then D. */
double rl_attention_kv_channels(const struct rl_op *op)
{
	return (double)op->dims[op->ndims - 1] +
	       (op->kv_shared ? 0.0 : (double)rl_attention_v_dim(op));
}

void rl_attention_mask_dims(const struct rl_op *op, uint64_t dims[4])
{
	const uint64_t *d = op->dims;
	int i;

	for (i = 0; i < 4; i++)
		dims[i] = 0;
	if (op->mask == RL_MASK_NONE)
		return;
	if (op->mask_dims[3] != 0) {
		for (i = 0; i < 4; i++)
			dims[i] = op->mask_dims[i];
		return;
	}
	dims[0] = d[0];
	dims[1] = 1;
	dims[2] = d[2];
	dims[3] = attention_sk(op);
}

double rl_attention_mask_bytes(const struct rl_op *op)
{
	uint64_t m[4];

	if (op->mask == RL_MASK_NONE)
		return 0;
	rl_attention_mask_dims(op, m);
	return (double)m[0] * (double)m[1] * (double)m[2] * (double)m[3] *
	       (op->mask == RL_MASK_BOOL ? 1.0 : rl_dtype_bytes(op->dtype));
}

/* A mask's shape against the scores it is added to: each size the scores'
 * or 1 (broadcast), right-aligned as PyTorch broadcasts. */
static int mask_check(const struct rl_op *op, uint64_t sq, uint64_t sk, struct rl_err *err)
{
	static const char *const axis[4] = {"batch", "heads", "queries", "keys"};
	uint64_t want[4], m[4];
	int i;

	if (op->mask == RL_MASK_NONE)
		return 0;
	if (op->causal)
		return rl_err_set(err, RL_ERR_PARSE,
		                  "column 'mask': an explicit mask with causal = 1 (SDPA refuses both; "
		                  "give one)");
	want[0] = op->dims[0];
	want[1] = op->dims[1];
	want[2] = sq;
	want[3] = sk;
	rl_attention_mask_dims(op, m);
	for (i = 0; i < 4; i++)
		if (m[i] != 1 && m[i] != want[i])
			return rl_err_set(err, RL_ERR_PARSE,
			                  "column 'mask_shape': %llu %s where the scores have %llu (each "
			                  "size is the scores' or 1, broadcast)",
			                  (unsigned long long)m[i], axis[i], (unsigned long long)want[i]);
	return 0;
}

static int attention(const struct rl_op *op, double es, double *flops,
                     double *bytes, struct rl_err *err)
{
	const uint64_t *d = op->dims;
	uint64_t bh, q_el, o_el, k_el, v_el, scores;
	uint64_t sq, sk, hd, dv, kvh, kv_read, kv_held;
	double kes = (op->has & RL_HAS_KV_DTYPE) ? rl_dtype_bytes(op->kv_dtype) : es;
	int rc = want_dims(op, err);

	if (rc < 0)
		return rc;
	sq = d[2];
	sk = op->ndims == 5 ? d[3] : d[2];
	hd = d[op->ndims - 1];
	/* Q and K have D channels a head, V and O Dv (formulas.h) */
	dv = rl_attention_v_dim(op);
	/* Grouped-query attention: K and V have kv_heads heads, each shared by
	 * H / kv_heads query heads. */
	kvh = op->kv_heads ? op->kv_heads : d[1];
	if (d[1] % kvh != 0)
		return rl_err_set(err, RL_ERR_PARSE,
		                  "column 'kv_heads': %llu does not divide the query heads %llu",
		                  (unsigned long long)kvh, (unsigned long long)d[1]);
	rc = mask_check(op, sq, sk, err);
	if (rc < 0)
		return rc;
	if (op->kv_shared && dv > hd)
		return rl_err_set(err, RL_ERR_PARSE,
		                  "column 'v_head_dim': %llu is above K's head dim %llu (the "
		                  "shape's D): with kv_shared = 1, V is K's first v_head_dim "
		                  "channels",
		                  (unsigned long long)dv, (unsigned long long)hd);
	if (rl_mul_u64(d[0], d[1], &bh) < 0 ||
	    product((uint64_t[]){bh, sq, hd}, 3, &q_el) < 0 ||
	    product((uint64_t[]){bh, sq, dv}, 3, &o_el) < 0 ||
	    product((uint64_t[]){d[0], kvh, sk, hd}, 4, &k_el) < 0 ||
	    product((uint64_t[]){d[0], kvh, sk, dv}, 4, &v_el) < 0 ||
	    product((uint64_t[]){bh, sq, sk}, 3, &scores) < 0)
		return overflow(err, "attention tensor");
	/* QK^T and PV: two matmuls per head, of 2 * Sq * Sk * D and 2 * Sq * Sk
	 * * Dv FLOPs (4 * Sq * Sk * D when Dv = D, the products rounding alike). */
	*flops = 2.0 * (double)scores * ((double)hd + (double)dv);
	/* A causal mask skips the scores above the diagonal. With the queries
	 * aligned to the end of the keys (a KV cache), the kept share is
	 * 1 - Sq / (2 Sk): one half when Sq = Sk (the convention of the
	 * FlashAttention papers' FLOP counts), nearly all for one decode token.
	 * A sliding window keeps only the scores of each query's window, its
	 * exact count in place of the share. */
	if (rl_attention_windowed(op))
		*flops = 2.0 * (double)bh * ((double)hd + (double)dv) *
		         rl_attention_window_scores(op);
	else if (op->causal)
		*flops *= sq <= sk ? 1.0 - (double)sq / (2.0 * (double)sk) : 0.5;
	/* Fused (flash) attention: read Q, K, V, write O; the scores stay on chip.
	 * Q [B, H, Sq, D] read and O [B, H, Sq, Dv] written; K [B, kv_heads,
	 * Sk, D] and V [.., Dv] read, V not again when it is K's first channels
	 * (kv_shared); a window reads only the keys its queries see (no more
	 * elements than K and V themselves: no overflow). */
	rl_attention_kv_tokens(op, &kv_read, &kv_held);
	(void)product((uint64_t[]){d[0], kvh, kv_read, hd}, 4, &k_el);
	(void)product((uint64_t[]){d[0], kvh, kv_read, dv}, 4, &v_el);
	*bytes = es * ((double)q_el + (double)o_el) +
	         kes * ((double)k_el + (op->kv_shared ? 0.0 : (double)v_el)) +
	         rl_attention_mask_bytes(op);
	return 0;
}

/* The input pixels a convolution reads along one axis of SIZE: all of them,
 * but for a filter of FILT that strides past its own size (a 1x1 filter at
 * stride 2, a ResNet downsample), which covers only OUT x FILT of them: the
 * others never move. */
static uint64_t conv_covered(uint64_t size, uint64_t out, uint64_t filt, uint64_t stride)
{
	return stride > filt && out * filt < size ? out * filt : size;
}

static int conv2d(const struct rl_op *op, double es, double *flops,
                  double *bytes, struct rl_err *err)
{
	const uint64_t *d = op->dims;
	uint64_t n = d[0], c = d[1], h = d[2], w = d[3];
	uint64_t k = op->kernel[0], r = op->kernel[1], s = op->kernel[2];
	uint64_t g = op->groups, ho, wo, in_el, f_el, out_el;
	int rc = want_dims(op, err);

	if (rc < 0)
		return rc;
	if (op->stride == 0 || op->groups == 0)
		return rl_err_set(err, RL_ERR_PARSE, "conv2d: stride and groups must be at least 1");
	if (!(op->has & RL_HAS_KERNEL))
		return rl_err_set(err, RL_ERR_PARSE,
		                  "column 'kernel': conv2d needs KxRxS (output channels x filter h x filter w)");
	if (c % g != 0 || k % g != 0)
		return rl_err_set(err, RL_ERR_PARSE,
		                  "column 'groups': %llu does not divide both input channels %llu and output channels %llu",
		                  (unsigned long long)g, (unsigned long long)c,
		                  (unsigned long long)k);
	/* Below 2^32 each, h + 2 * padding cannot wrap. */
	if (h > UINT32_MAX || w > UINT32_MAX || op->padding > UINT32_MAX)
		return rl_err_set(err, RL_ERR_RANGE,
		                  "conv2d: the padded input overflows: height %llu, width %llu and "
		                  "padding %llu must each be below 2^32",
		                  (unsigned long long)h, (unsigned long long)w,
		                  (unsigned long long)op->padding);
	if (h + 2 * op->padding < r || w + 2 * op->padding < s)
		return rl_err_set(err, RL_ERR_PARSE,
		                  "column 'kernel': a %llux%llu filter does not fit a %llux%llu input with padding %llu",
		                  (unsigned long long)r, (unsigned long long)s,
		                  (unsigned long long)h, (unsigned long long)w,
		                  (unsigned long long)op->padding);
	/* Output size of a strided, padded convolution (dilation 1). */
	ho = (h + 2 * op->padding - r) / op->stride + 1;
	wo = (w + 2 * op->padding - s) / op->stride + 1;
	if (product((uint64_t[]){n, c, conv_covered(h, ho, r, op->stride),
	                         conv_covered(w, wo, s, op->stride)},
	            4, &in_el) < 0)
		return overflow(err, "conv2d input");
	if (product((uint64_t[]){k, c / g, r, s}, 4, &f_el) < 0)
		return overflow(err, "conv2d filter");
	if (product((uint64_t[]){n, k, ho, wo}, 4, &out_el) < 0)
		return overflow(err, "conv2d output");
	rc = check_group(op, (c / g) * r * s, "filter's reduction (C / groups) x R x S", err);
	if (rc < 0)
		return rc;
	/* Each output element is a dot product of length (C/groups) * R * S. */
	*flops = 2.0 * (double)out_el * (double)(c / g) * (double)r * (double)s;
	*bytes = es * ((double)in_el + (double)out_el) + weight_bytes(op, es, (double)f_el);
	return 0;
}

/* An embedding's indices are int64 (torch.nn.Embedding, F.embedding and
 * index_select take LongTensor indices). */
#define INDEX_BYTES 8.0

/* An embedding lookup (torch.nn.functional.embedding): N indices (the
 * product of all dims but the last) pick N rows of D elements (the last
 * dim) of a table: the N rows and the indices are read, the N rows written,
 * no FLOPs; the table's other rows never move, so its size does not enter. */
static int gather(const struct rl_op *op, double es, double *flops, double *bytes,
                  struct rl_err *err)
{
	uint64_t n, idx;
	int rc = want_dims(op, err);

	if (rc < 0)
		return rc;
	if (product(op->dims, op->ndims, &n) < 0 || product(op->dims, op->ndims - 1, &idx) < 0)
		return overflow(err, "embedding output");
	*flops = 0;
	*bytes = 2.0 * (double)n * es + INDEX_BYTES * (double)idx;
	return 0;
}

/* A collective: no FLOPs (the reduction's adds are negligible,
 * collective.h); its bytes are the bus bytes each rank sends, nccl-tests'
 * size times the bus factor (collective.h), which cross the interconnect. */
static int collective(const struct rl_op *op, double es, double *flops, double *bytes,
                      struct rl_err *err)
{
	uint64_t n;
	int rc = rl_collective_check(op, err);

	if (rc < 0)
		return rc;
	if (op->has & (RL_HAS_FLOPS | RL_HAS_BYTES))
		return rl_err_set(err, RL_ERR_PARSE,
		                  "column '%s': a collective's bytes follow from its shape, dtype and "
		                  "ranks, and it has no FLOPs",
		                  (op->has & RL_HAS_BYTES) ? "bytes" : "flops");
	if (product(op->dims, op->ndims, &n) < 0)
		return overflow(err, "buffer");
	*flops = 0;
	*bytes = rl_collective_algo_bytes(op->kind, op->ranks, (double)n * es) *
	         rl_collective_bus_factor(op->kind, op->ranks);
	return 0;
}

/* The formula of a shaped op of kind KI's byte rule. */
static int shaped(const struct rl_op *op, const struct rl_kind_info *ki, double es,
                  double *flops, double *bytes, struct rl_err *err)
{
	switch (ki->bytes) {
	case RL_BYTES_MATMUL: return matmul(op, es, flops, bytes, err);
	case RL_BYTES_ATTENTION: return attention(op, es, flops, bytes, err);
	case RL_BYTES_CONV2D: return conv2d(op, es, flops, bytes, err);
	case RL_BYTES_GATHER: return gather(op, es, flops, bytes, err);
	case RL_BYTES_INPUTS:
	case RL_BYTES_STREAM:
	case RL_BYTES_ROW_REDUCE:
	case RL_BYTES_ROW_AFFINE: return elementwise(op, es, flops, bytes, err);
	case RL_BYTES_BUS: return collective(op, es, flops, bytes, err);
	case RL_BYTES_GIVEN: break; /* no formula: rl_op_work() does not call this */
	}
	return 0;
}

static int op_work(const struct rl_op *op, double *flops, double *bytes, struct rl_err *err)
{
	const struct rl_kind_info *ki = rl_kind_info(op->kind);
	double es = rl_dtype_bytes(op->dtype);
	double f = 0, b = 0;
	int need_formula = (op->has & (RL_HAS_FLOPS | RL_HAS_BYTES)) !=
	                   (RL_HAS_FLOPS | RL_HAS_BYTES);
	int rc = 0;

	if (ki->bytes == RL_BYTES_GIVEN) {
		if (need_formula)
			return rl_err_set(err, RL_ERR_PARSE, "a %s op needs both 'flops' and 'bytes'",
			                  ki->name);
	} else if (ki->bytes == RL_BYTES_BUS) {
		if (!(op->has & RL_HAS_SHAPE))
			return rl_err_set(err, RL_ERR_PARSE,
			                  "column 'shape': %s needs a shape (the elements of each "
			                  "rank's buffer)",
			                  ki->name);
		rc = shaped(op, ki, es, &f, &b, err);
		if (rc < 0)
			return rc;
	} else if (!(op->has & RL_HAS_SHAPE)) {
		if (need_formula)
			return rl_err_set(err, RL_ERR_PARSE,
			                  "column 'shape': %s needs a shape (or both 'flops' and 'bytes')",
			                  ki->name);
	} else {
		rc = shaped(op, ki, es, &f, &b, err);
		if (rc < 0)
			return rc;
	}
	*flops = (op->has & RL_HAS_FLOPS) ? op->flops : f;
	*bytes = (op->has & RL_HAS_BYTES) ? op->bytes : b;
	return 0;
}

int rl_op_work(const struct rl_op *op, double *flops, double *bytes, struct rl_err *err)
{
	return op_work(op, flops, bytes, err);
}

/* The bytes OP reads and writes, from its shape (validated by rl_op_work):
 * the inputs of the formulas are read, the output is written. */
static void split(const struct rl_op *op, double *read, double *written)
{
	const uint64_t *d = op->dims;
	double es = rl_dtype_bytes(op->dtype), n = 1, in = 0, w = 0; /* w: weight or KV bytes */
	int i;

	switch (rl_kind_info(op->kind)->bytes) {
	case RL_BYTES_MATMUL: { /* A[B, M, K] and B[B, K, N] read, C[B, M, N] written */
		double b = op->ndims == 4 ? (double)*d++ : 1;
		double m = (double)d[0], nn = (double)d[1], k = (double)d[2];

		in = b * m * k;
		w = weight_bytes(op, es, b * k * nn);
		n = b * m * nn;
		break;
	}
	case RL_BYTES_ATTENTION: { /* Q, K, V read, O[B, H, Sq, Dv] written */
		double bh = (double)d[0] * (double)d[1], hd = (double)d[op->ndims - 1];
		double bkv = (double)d[0] * (double)(op->kv_heads ? op->kv_heads : d[1]);
		uint64_t keys, held;

		rl_attention_kv_tokens(op, &keys, &held); /* those read, as rl_op_work's */
		n = bh * (double)d[2] * (double)rl_attention_v_dim(op);
		in = bh * (double)d[2] * hd;
		w = ((op->has & RL_HAS_KV_DTYPE) ? rl_dtype_bytes(op->kv_dtype) : es) * bkv *
		    (double)keys * rl_attention_kv_channels(op) +
		    rl_attention_mask_bytes(op); /* a mask, read */
		break;
	}
	case RL_BYTES_CONV2D: { /* input and filter read, output [N, K, Ho, Wo] written */
		uint64_t ho = (d[2] + 2 * op->padding - op->kernel[1]) / op->stride + 1;
		uint64_t wo = (d[3] + 2 * op->padding - op->kernel[2]) / op->stride + 1;

		in = (double)d[0] * (double)d[1] *
		         (double)conv_covered(d[2], ho, op->kernel[1], op->stride) *
		         (double)conv_covered(d[3], wo, op->kernel[2], op->stride);
		w = weight_bytes(op, es,
		                 (double)op->kernel[0] * (double)(d[1] / op->groups) *
		                         (double)op->kernel[1] * (double)op->kernel[2]);
		n = (double)d[0] * (double)op->kernel[0] * (double)ho * (double)wo;
		break;
	}
	case RL_BYTES_GATHER: { /* the rows and their indices read, the rows written */
		double idx = 1;

		for (i = 0; i < op->ndims - 1; i++)
			idx *= (double)d[i];
		n = idx * (double)d[op->ndims - 1];
		in = n;
		w = INDEX_BYTES * idx;
		break;
	}
	case RL_BYTES_INPUTS:
	case RL_BYTES_STREAM:
	case RL_BYTES_ROW_REDUCE:
	case RL_BYTES_ROW_AFFINE: {
		enum rl_kind_bytes rule = rl_kind_info(op->kind)->bytes;
		double last = (double)d[op->ndims - 1], all = 1;

		for (i = 0; i < op->ndims; i++)
			all *= (double)d[i];
		n = all;
		in = all; /* copy, softmax: one tensor read, one written */
		if (rule == RL_BYTES_INPUTS)
			in = (double)op->inputs * all;
		else if (rule == RL_BYTES_ROW_REDUCE)
			n = all / last; /* reduced over the last dim */
		else if (rule == RL_BYTES_ROW_AFFINE)
			in = all + 2.0 * last; /* x, weight and bias */
		break;
	}
	case RL_BYTES_BUS:
	case RL_BYTES_GIVEN: /* no split: rl_op_work_rw() does not call this */
		break;
	}
	*read = in * es + w;
	*written = n * es;
}

int rl_op_output_known(const struct rl_op *op, struct rl_err *err)
{
	if (rl_kind_info(op->kind)->bytes == RL_BYTES_GIVEN || (op->has & RL_HAS_BYTES))
		return rl_err_set(err, RL_ERR_PARSE,
		                  "its bytes were given, so its reads and writes are not known apart");
	if (rl_kind_is_collective(op->kind))
		return rl_err_set(err, RL_ERR_PARSE,
		                  "a collective's bytes cross the interconnect, not device memory");
	return 0;
}

int rl_op_output_bytes(const struct rl_op *op, double *out, struct rl_err *err)
{
	double read, written;
	int rc = rl_op_output_known(op, err);

	if (rc < 0)
		return rc;
	rc = rl_op_rw(op, &read, &written, err);
	if (rc < 0)
		return rc;
	*out = written;
	return 0;
}

static int op_work_rw(const struct rl_op *op, double *flops, double *bytes, double *read,
                      double *written, struct rl_err *err)
{
	/* Validates the shape, so the products in split() cannot overflow. */
	int rc = op_work(op, flops, bytes, err);

	if (rc < 0)
		return rc;
	if (rl_kind_info(op->kind)->bytes == RL_BYTES_GIVEN || (op->has & RL_HAS_BYTES) ||
	    rl_kind_is_collective(op->kind)) {
		*read = *bytes;
		*written = 0;
		return 0;
	}
	split(op, read, written);
	return 1;
}

int rl_op_work_rw(const struct rl_op *op, double *flops, double *bytes, double *read,
                  double *written, struct rl_err *err)
{
	return op_work_rw(op, flops, bytes, read, written, err);
}

int rl_op_rw(const struct rl_op *op, double *read, double *written, struct rl_err *err)
{
	double f, b;

	return rl_op_work_rw(op, &f, &b, read, written, err);
}

static double dequant(const struct rl_op *op)
{
	const struct rl_kind_info *ki = rl_kind_info(op->kind);
	const uint64_t *d = op->dims;

	if (ki->bytes == RL_BYTES_GIVEN || !(op->has & RL_HAS_SHAPE) || (op->has & RL_HAS_FLOPS))
		return 0;
	switch (ki->bytes) {
	case RL_BYTES_MATMUL: { /* B[B, K, N] */
		double b = op->ndims == 4 ? (double)*d++ : 1;

		if (!(op->has & RL_HAS_WEIGHT_DTYPE) || op->weight_dtype == op->dtype)
			return 0;
		return b * (double)d[2] * (double)d[1];
	}
	case RL_BYTES_CONV2D: /* the filter [K, C / groups, R, S] */
		if (!(op->has & RL_HAS_WEIGHT_DTYPE) || op->weight_dtype == op->dtype)
			return 0;
		return (double)op->kernel[0] * (double)(d[1] / op->groups) * (double)op->kernel[1] *
		       (double)op->kernel[2];
	case RL_BYTES_ATTENTION: { /* K [B, kv_heads, Sk, D] and V [.., Dv]: those read */
		uint64_t read, held;

		if (!(op->has & RL_HAS_KV_DTYPE) || op->kv_dtype == op->dtype)
			return 0;
		rl_attention_kv_tokens(op, &read, &held);
		return (double)d[0] * (double)(op->kv_heads ? op->kv_heads : d[1]) * (double)read *
		       rl_attention_kv_channels(op);
	}
	case RL_BYTES_INPUTS:
	case RL_BYTES_STREAM:
	case RL_BYTES_ROW_REDUCE:
	case RL_BYTES_ROW_AFFINE:
	case RL_BYTES_GATHER:
	case RL_BYTES_BUS:
	case RL_BYTES_GIVEN: return 0; /* no weights in another dtype */
	}
	return 0;
}

double rl_op_dequant_flops(const struct rl_op *op)
{
	return dequant(op);
}

double rl_op_weight_elems(const struct rl_op *op)
{
	const uint64_t *d = op->dims;

	if (!(op->has & RL_HAS_SHAPE))
		return 0;
	switch (rl_kind_info(op->kind)->bytes) {
	case RL_BYTES_MATMUL:
		if (op->ndims >= 3) {
			double b = op->ndims == 4 ? (double)*d++ : 1;

			return b * (double)d[1] * (double)d[2];
		}
		break;
	case RL_BYTES_CONV2D:
		if (op->ndims == 4 && op->groups > 0)
			return (double)op->kernel[0] * (double)(d[1] / op->groups) *
			       (double)op->kernel[1] * (double)op->kernel[2];
		break;
	case RL_BYTES_INPUTS:
	case RL_BYTES_STREAM:
	case RL_BYTES_ROW_REDUCE:
	case RL_BYTES_ROW_AFFINE:
	case RL_BYTES_ATTENTION: /* K and V are activations (or a cache) */
	case RL_BYTES_GATHER:    /* the table's size is not in the shape */
	case RL_BYTES_BUS:
	case RL_BYTES_GIVEN: break;
	}
	return 0;
}

/* The weights (*W) and K and V (*KV) that OP holds in device memory (the
 * memory fit's), for an op whose split is known. */
static void resident(const struct rl_op *op, double es, double *w, double *kv)
{
	const uint64_t *d = op->dims;

	switch (rl_kind_info(op->kind)->bytes) {
	case RL_BYTES_MATMUL: { /* B[B, K, N] of MxNxK or BxMxNxK */
		double b = op->ndims == 4 ? (double)*d++ : 1;

		*w = weight_bytes(op, es, b * (double)d[2] * (double)d[1]);
		break;
	}
	case RL_BYTES_CONV2D: /* the filter [K, C / groups, R, S] */
		*w = weight_bytes(op, es,
		                  (double)op->kernel[0] * (double)(d[1] / op->groups) *
		                          (double)op->kernel[1] * (double)op->kernel[2]);
		break;
	case RL_BYTES_ATTENTION: { /* K [B, kv_heads, Sk, D] and V [.., Dv] */
		double kes = (op->has & RL_HAS_KV_DTYPE) ? rl_dtype_bytes(op->kv_dtype) : es;
		uint64_t read, held;

		/* those held: a sliding layer's cache keeps its window's; an
		 * absorbed MLA cache (kv_shared) K's channels alone */
		rl_attention_kv_tokens(op, &read, &held);
		if (op->kv_rebuilt)
			break; /* K and V are this step's activations */
		*kv = kes * (double)d[0] * (double)(op->kv_heads ? op->kv_heads : d[1]) *
		      (double)held * rl_attention_kv_channels(op);
		break;
	}
	case RL_BYTES_STREAM: /* a copy with kv_dtype writes the cache: its output */
		if (op->kind == RL_KIND_COPY && (op->has & RL_HAS_KV_DTYPE)) {
			double n = 1;
			int i;

			for (i = 0; i < op->ndims; i++)
				n *= (double)d[i];
			*kv = n * rl_dtype_bytes(op->kv_dtype);
		}
		break;
	case RL_BYTES_INPUTS:
	case RL_BYTES_ROW_REDUCE:
	case RL_BYTES_ROW_AFFINE:
	case RL_BYTES_GATHER: /* the table's size is not in the shape */
	case RL_BYTES_BUS:
	case RL_BYTES_GIVEN: break; /* activations only */
	}
}

int rl_op_derive(const struct rl_op *op, struct rl_work *w, struct rl_err *err)
{
	int i, rc;

	memset(w, 0, sizeof(*w));
	rc = op_work_rw(op, &w->flops, &w->bytes, &w->bytes_read, &w->bytes_written, err);
	if (rc < 0)
		return rc;
	w->rw_known = rc;
	w->es = rl_dtype_bytes(op->dtype);
	w->elems = 1;
	for (i = 0; i < op->ndims; i++)
		w->elems *= (double)op->dims[i];
	w->dequant_flops = dequant(op);
	w->weight_elems = rl_op_weight_elems(op);
	if (w->rw_known && (op->has & RL_HAS_SHAPE))
		resident(op, w->es, &w->weight_bytes, &w->kv_bytes);
	w->params_bytes = (double)op->params * weight_es(op, w->es);
	return 0;
}
