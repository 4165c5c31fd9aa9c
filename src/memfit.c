/* memfit.c - the device memory one step needs (see memfit.h). */
#include "config.h"

#include "memfit.h"

#include "collective.h"
#include "formulas.h"
#include "train.h"

void rl_memfit_init(struct rl_memfit *m)
{
	m->weight_bytes = 0;
	m->kv_bytes = 0;
	m->activation_bytes = 0;
	m->activation_line = 0;
	m->train = 0;
	m->gradient_bytes = 0;
	m->optimizer_bytes = 0;
	m->master_bytes = 0;
	m->saved_bytes = 0;
}

void rl_memfit_train(struct rl_memfit *m, const struct rl_train_mem *t)
{
	m->train = 1;
	m->kv_bytes = 0; /* no cache in training: K and V are saved activations */
	m->gradient_bytes = t->gradients;
	m->optimizer_bytes = t->optimizer;
	m->master_bytes = t->master;
	m->saved_bytes = t->saved;
}

/* Weight elements' bytes at the op's weight dtype, with one fp16 scale
 * (2 bytes) per weight_group elements, as formulas.c counts them. */
static double weights_of(const struct rl_op *op, double el)
{
	double es = (op->has & RL_HAS_WEIGHT_DTYPE) ? rl_dtype_bytes(op->weight_dtype)
	                                            : rl_dtype_bytes(op->dtype);
	double b = es * el;

	if (op->weight_group > 0)
		b += 2.0 * (el / (double)op->weight_group);
	return b;
}

int rl_memfit_op_bytes(const struct rl_op *op, double *weights, double *kv, double *act,
                       struct rl_err *err)
{
	const uint64_t *d = op->dims;
	double read = 0, written = 0;
	int known = rl_op_rw(op, &read, &written, err);

	*weights = 0;
	*kv = 0;
	*act = 0;
	if (known < 0)
		return known;
	if (rl_kind_is_collective(op->kind)) {
		/* its input and output buffers, not the bus bytes: an allgather's
		 * output is ranks x its input, a reducescatter's 1 / ranks */
		double in = rl_dtype_bytes(op->dtype);
		int i;

		for (i = 0; i < op->ndims; i++)
			in *= (double)d[i];
		*act = in + rl_collective_out_bytes(op->kind, op->ranks, in);
		return 0;
	}
	*act = read + written;
	if (known == 0 || !(op->has & RL_HAS_SHAPE))
		return 0;
	switch (rl_kind_info(op->kind)->bytes) {
	case RL_BYTES_MATMUL: { /* B[B, K, N] of MxNxK or BxMxNxK */
		double b = op->ndims == 4 ? (double)*d++ : 1;

		*weights = weights_of(op, b * (double)d[2] * (double)d[1]);
		break;
	}
	case RL_BYTES_CONV2D: /* the filter [K, C / groups, R, S] */
		*weights = weights_of(op, (double)op->kernel[0] * (double)(d[1] / op->groups) *
		                              (double)op->kernel[1] * (double)op->kernel[2]);
		break;
	case RL_BYTES_ATTENTION: { /* K and V [B, kv_heads, Sk, D] */
		double es = (op->has & RL_HAS_KV_DTYPE) ? rl_dtype_bytes(op->kv_dtype)
		                                        : rl_dtype_bytes(op->dtype);

		*kv = es * 2.0 * (double)d[0] * (double)(op->kv_heads ? op->kv_heads : d[1]) *
		      (double)d[op->ndims == 5 ? 3 : 2] * (double)d[op->ndims - 1];
		break;
	}
	case RL_BYTES_INPUTS:
	case RL_BYTES_STREAM:
	case RL_BYTES_ROW_REDUCE:
	case RL_BYTES_ROW_AFFINE:
	case RL_BYTES_BUS:
	case RL_BYTES_GIVEN:
		break; /* activations only */
	}
	*act -= *weights + *kv;
	if (*act < 0)
		*act = 0;
	return 0;
}

int rl_memfit_add(struct rl_memfit *m, const struct rl_op *op, struct rl_err *err)
{
	double w, kv, act, n = (double)op->count;
	int rc = rl_memfit_op_bytes(op, &w, &kv, &act, err);

	if (rc < 0)
		return rc;
	if (op->phase != RL_PHASE_FORWARD)
		return 0;
	/* the weights held in memory: an MoE expert row runs on the experts
	 * the batch touches (count) while every expert stays resident */
	m->weight_bytes += (op->weight_count ? (double)op->weight_count : n) * w;
	m->kv_bytes += n * kv;
	if (act > m->activation_bytes) {
		m->activation_bytes = act;
		m->activation_line = op->line;
	}
	return 0;
}

double rl_memfit_total_bytes(const struct rl_memfit *m)
{
	return m->weight_bytes + m->kv_bytes + m->activation_bytes + m->gradient_bytes +
	       m->optimizer_bytes + m->master_bytes + m->saved_bytes;
}

double rl_memfit_device_bytes(const struct rl_device *dev)
{
	if (dev == NULL || !dev->num[RL_HW_MEMORY_GIB].present)
		return 0;
	return dev->num[RL_HW_MEMORY_GIB].value * RL_MEMFIT_GIB;
}

int rl_memfit_fits(const struct rl_memfit *m, const struct rl_device *dev)
{
	double cap = rl_memfit_device_bytes(dev);

	return cap <= 0 || rl_memfit_total_bytes(m) <= cap;
}

int rl_memfit_max_batch(rl_memfit_batch_fn fits, void *user, uint64_t max, uint64_t *batch)
{
	uint64_t lo, hi;
	int ok = 0, rc;

	*batch = 0;
	if (max < 1)
		return 0;
	rc = fits(user, 1, &ok);
	if (rc < 0 || !ok)
		return rc;
	/* lo fits; hi does not, or is past MAX */
	lo = 1;
	hi = 2;
	while (hi <= max) {
		rc = fits(user, hi, &ok);
		if (rc < 0)
			return rc;
		if (!ok)
			break;
		lo = hi;
		hi = hi > max / 2 ? max + 1 : hi * 2;
	}
	if (hi > max)
		hi = max + 1;
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		rc = fits(user, mid, &ok);
		if (rc < 0)
			return rc;
		if (ok)
			lo = mid;
		else
			hi = mid;
	}
	*batch = lo;
	return 0;
}
