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
	/* ZeRO-3 holds 1 / N_d of the weights between their uses (the layer
	 * being gathered is not counted: docs/parallel.md, "ZeRO") */
	if (t->weight_share > 0 && t->weight_share < 1)
		m->weight_bytes *= t->weight_share;
}

/* rl_memfit_op_bytes() from the formulas' record W of OP. */
static void op_bytes(const struct rl_op *op, const struct rl_work *w, double *weights, double *kv,
                     double *act)
{
	*weights = 0;
	*kv = 0;
	*act = 0;
	if (rl_kind_is_collective(op->kind)) {
		/* its input and output buffers, not the bus bytes: an allgather's
		 * output is ranks x its input, a reducescatter's 1 / ranks */
		double in = w->es;
		int i;

		for (i = 0; i < op->ndims; i++)
			in *= (double)op->dims[i];
		*act = in + rl_collective_out_bytes(op->kind, op->ranks, in);
		return;
	}
	*act = w->bytes_read + w->bytes_written + op->live_bytes;
	if (!w->rw_known || !(op->has & RL_HAS_SHAPE))
		return;
	/* the formulas count the weights (matmul's B, conv2d's filter, scales
	 * included) and attention's K and V apart (formulas.h) */
	*weights = w->weight_bytes;
	*kv = w->kv_bytes;
	*act -= *weights + *kv;
	if (*act < 0)
		*act = 0;
}

int rl_memfit_op_bytes(const struct rl_op *op, double *weights, double *kv, double *act,
                       struct rl_err *err)
{
	struct rl_work w;
	int rc = rl_op_derive(op, &w, err);

	*weights = 0;
	*kv = 0;
	*act = 0;
	if (rc < 0)
		return rc;
	op_bytes(op, &w, weights, kv, act);
	return 0;
}

int rl_memfit_add(struct rl_memfit *m, const struct rl_op *op, struct rl_err *err)
{
	struct rl_work w;
	int rc = rl_op_derive(op, &w, err);

	return rc < 0 ? rc : rl_memfit_add_work(m, op, &w, err);
}

int rl_memfit_add_work(struct rl_memfit *m, const struct rl_op *op, const struct rl_work *wk,
                       struct rl_err *err)
{
	double w, kv, act, n = (double)op->count;

	(void)err;
	op_bytes(op, wk, &w, &kv, &act);
	if (op->phase != RL_PHASE_FORWARD)
		return 0;
	/* the weights held in memory: an MoE expert row runs on the experts
	 * the batch touches (count) while every expert stays resident */
	m->weight_bytes +=
	    (op->weight_count || (op->has & RL_HAS_WEIGHT_COUNT) ? (double)op->weight_count : n) * w;
	/* and what the row holds besides (params: the row's as a whole) */
	m->weight_bytes += wk->params_bytes;
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
