/* parallel.c - parallel layouts: placement, checks, bubble, gradient
 * buckets (see parallel.h, docs/parallel.md). */
#include "config.h"

#include "parallel.h"

#include <string.h>

#include "family.h"

static uint64_t one(uint64_t v)
{
	return v ? v : 1;
}

int rl_parallel_active(const struct rl_parallel *p)
{
	return one(p->tp) > 1 || one(p->pp) > 1 || one(p->dp) > 1 || one(p->ep) > 1;
}

int rl_parallel_check_model(const struct rl_parallel *p, const struct rl_hfconfig *c,
                            struct rl_err *err)
{
	uint64_t tp = one(p->tp), pp = one(p->pp), dp = one(p->dp), ep = one(p->ep);

	/* the degrees the family takes (family.h); expert parallelism is
	 * decided by the experts, below */
	static const struct {
		unsigned bit;
		const char *opt, *what;
	} takes[] = {{RL_FAMILY_TP, "tp", "tensor"},
	             {RL_FAMILY_PP, "pp", "pipeline"},
	             {RL_FAMILY_DP, "dp", "data"}};
	const uint64_t degree[] = {tp, pp, dp};
	unsigned layouts = rl_family_of(c)->layouts;
	size_t i;

	for (i = 0; i < sizeof(takes) / sizeof(takes[0]); i++)
		if (degree[i] > 1 && !(layouts & takes[i].bit))
			return rl_err_set(err, RL_ERR_ARG,
			                  "--%s %llu: model_type %s takes no %s parallelism",
			                  takes[i].opt, (unsigned long long)degree[i],
			                  c->model_type, takes[i].what);

	if (c->heads % tp != 0)
		return rl_err_set(
		    err, RL_ERR_ARG, "--tp %llu does not divide the %llu attention heads of %s",
		    (unsigned long long)tp, (unsigned long long)c->heads, c->model_type);
	if (c->hidden % tp != 0 || c->intermediate % tp != 0)
		return rl_err_set(err, RL_ERR_ARG,
		                  "--tp %llu does not divide the hidden size %llu and the "
		                  "intermediate size %llu of %s",
		                  (unsigned long long)tp, (unsigned long long)c->hidden,
		                  (unsigned long long)c->intermediate, c->model_type);
	/* fewer KV heads than GPUs: each KV head is replicated on tp / Hkv
	 * GPUs (vLLM, TensorRT-LLM), which needs Hkv to divide tp */
	if (c->kv_heads % tp != 0 && tp % c->kv_heads != 0)
		return rl_err_set(err, RL_ERR_ARG,
		                  "--tp %llu neither divides the %llu key-value heads nor is a "
		                  "multiple of them (replicated heads)",
		                  (unsigned long long)tp, (unsigned long long)c->kv_heads);
	if (pp > c->layers)
		return rl_err_set(err, RL_ERR_ARG, "--pp %llu is more than the %llu layers of %s",
		                  (unsigned long long)pp, (unsigned long long)c->layers,
		                  c->model_type);
	if (ep > 1 && c->experts == 0) {
		char moe[128];

		rl_family_names(moe, sizeof(moe), RL_FAMILY_EP, 0);
		return rl_err_set(err, RL_ERR_ARG,
		                  "--ep %llu: model_type %s has no experts (expert parallelism is "
		                  "for MoE models: %s)",
		                  (unsigned long long)ep, c->model_type, moe);
	}
	if (ep > 1 && c->experts % ep != 0)
		return rl_err_set(err, RL_ERR_ARG, "--ep %llu does not divide the %llu experts",
		                  (unsigned long long)ep, (unsigned long long)c->experts);
	if (dp % ep != 0)
		return rl_err_set(err, RL_ERR_ARG,
		                  "--ep %llu does not divide --dp %llu (the expert-parallel group "
		                  "is part of the data-parallel one)",
		                  (unsigned long long)ep, (unsigned long long)dp);
	return 0;
}

uint64_t rl_parallel_span(uint64_t start, uint64_t stride, uint64_t ranks, uint64_t gpus_per_node,
                          int *even)
{
	uint64_t i, nodes = 0, last = 0, run = 0, first_run = 0;

	*even = 1;
	if (gpus_per_node == 0)
		return ranks > 0;
	for (i = 0; i < ranks; i++) {
		uint64_t node = (start + i * stride) / gpus_per_node;

		if (nodes == 0 || node != last) {
			if (nodes == 1)
				first_run = run;
			else if (nodes > 1 && run != first_run)
				*even = 0;
			nodes++;
			last = node;
			run = 0;
		}
		run++;
	}
	if (nodes > 1 && run != first_run)
		*even = 0;
	return nodes;
}

double rl_parallel_bubble(uint64_t pp, uint64_t m, uint64_t v)
{
	double vm = (double)(v ? v : 1) * (double)m;

	if (pp <= 1 || m == 0)
		return 0;
	return (double)(pp - 1) / (vm + (double)(pp - 1));
}

double rl_parallel_in_flight(uint64_t pp, uint64_t m, uint64_t v)
{
	double chunks, total;

	v = v ? v : 1;
	if (pp <= 1 || m == 0)
		return 1;
	chunks = v == 1 ? (double)pp : 2.0 * (double)(pp - 1) + (double)(v - 1) * (double)pp + 1;
	total = (double)m * (double)v;
	return (chunks < total ? chunks : total) / (double)v;
}

/* Places group NAME of RANKS GPUs from START by STRIDE into *G. */
static int group(const char *name, uint64_t start, uint64_t stride, uint64_t ranks, uint64_t gpn,
                 struct rl_parallel_group *g, struct rl_err *err)
{
	int even;

	g->ranks = ranks;
	g->nodes = rl_parallel_span(start, stride, ranks, gpn, &even);
	if (!even)
		return rl_err_set(
		    err, RL_ERR_ARG,
		    "--%s %llu: the group's GPUs sit unevenly on its %llu nodes of %llu "
		    "GPUs (choose degrees that fill the nodes evenly)",
		    name, (unsigned long long)ranks, (unsigned long long)g->nodes,
		    (unsigned long long)gpn);
	return 0;
}

int rl_parallel_place(const struct rl_parallel *p, uint64_t batch, uint64_t layers, int train,
                      const struct rl_net *net, struct rl_parallel_place *out, struct rl_err *err)
{
	uint64_t tp = one(p->tp), pp = one(p->pp), dp = one(p->dp), ep = one(p->ep), m, gpn;
	uint64_t v = one(p->vstages);
	int rc;

	memset(out, 0, sizeof(*out));
	if (tp > RL_PARALLEL_MAX || pp > RL_PARALLEL_MAX || dp > RL_PARALLEL_MAX ||
	    tp * pp > RL_PARALLEL_MAX || tp * pp * dp > RL_PARALLEL_MAX)
		return rl_err_set(err, RL_ERR_RANGE, "tp x pp x dp is more than %u GPUs",
		                  RL_PARALLEL_MAX);
	out->lay = *p;
	out->lay.tp = tp;
	out->lay.pp = pp;
	out->lay.dp = dp;
	out->lay.ep = ep;
	out->lay.vstages = v;
	out->gpus = tp * pp * dp;
	if (p->tp_comm_overlap && tp <= 1)
		return rl_err_set(err, RL_ERR_ARG,
		                  "--tp-comm-overlap: there is no tensor-parallel communication to "
		                  "overlap without --tp above 1");
	if (p->sp && tp <= 1)
		return rl_err_set(err, RL_ERR_ARG,
		                  "--sp: sequence parallelism splits the tokens over the "
		                  "tensor-parallel group: it needs --tp above 1");
	/* ZeRO shards a training step's state over the data-parallel ranks
	 * (Rajbhandari et al. 2020, section 5) */
	if (p->zero < 0 || p->zero > 3)
		return rl_err_set(err, RL_ERR_ARG, "--zero %d: the stages are 0 to 3", p->zero);
	if (p->zero > 0 && (!train || dp <= 1))
		return rl_err_set(err, RL_ERR_ARG,
		                  "--zero %d: ZeRO shards a training step's state over the "
		                  "data-parallel ranks: it needs --train and --dp above 1",
		                  p->zero);
	/* the interleaved schedule (Megatron-LM's checks, megatron/training/
	 * arguments.py): v chunks of L / (pp v) layers on each GPU, and the
	 * micro-batches run in groups of pp */
	if (v > 1 && pp <= 1)
		return rl_err_set(err, RL_ERR_ARG,
		                  "--virtual-stages %llu: the interleaved schedule needs --pp above 1",
		                  (unsigned long long)v);
	if (v > RL_PARALLEL_MAX || (v > 1 && layers % (pp * v) != 0))
		return rl_err_set(err, RL_ERR_ARG,
		                  "--virtual-stages %llu: pp x v = %llu does not divide the %llu "
		                  "layers (each GPU holds v chunks of layers / (pp x v) layers)",
		                  (unsigned long long)v, (unsigned long long)(pp * v),
		                  (unsigned long long)layers);
	if (batch % dp != 0)
		return rl_err_set(err, RL_ERR_ARG,
		                  "--dp %llu does not divide --batch %llu (each replica runs "
		                  "batch / dp sequences)",
		                  (unsigned long long)dp, (unsigned long long)batch);
	out->batch = batch / dp;
	if (p->microbatches == 0) {
		for (m = pp < out->batch ? pp : out->batch; out->batch % m != 0; m--)
			;
	} else {
		m = p->microbatches;
		if (out->batch % m != 0)
			return rl_err_set(
			    err, RL_ERR_ARG,
			    "--microbatches %llu does not divide the %llu sequences of "
			    "each data-parallel replica",
			    (unsigned long long)m, (unsigned long long)out->batch);
	}
	if (v > 1 && m % pp != 0)
		return rl_err_set(err, RL_ERR_ARG,
		                  "--virtual-stages %llu: the interleaved schedule runs the "
		                  "micro-batches in groups of pp: %llu micro-batches are not a "
		                  "multiple of --pp %llu",
		                  (unsigned long long)v, (unsigned long long)m, (unsigned long long)pp);
	out->lay.microbatches = m;
	out->micro_batch = out->batch / m;
	out->lay.bucket_bytes = p->bucket_bytes > 0 ? p->bucket_bytes : RL_PARALLEL_BUCKET_BYTES;
	out->stage_layers = (layers + pp - 1) / pp;
	out->bubble = rl_parallel_bubble(pp, m, v);
	out->in_flight = rl_parallel_in_flight(pp, m, v);
	if (net == NULL && (tp > 1 || pp > 1 || ep > 1 || (train && dp > 1)))
		return rl_err_set(err, RL_ERR_ARG,
		                  "--%s %llu: the device has no interconnect (no "
		                  "nvlink_bandwidth_gbs): give a system with --hw (roofline hw "
		                  "systems), e.g. --hw hgx-h100-8",
		                  tp > 1   ? "tp"
		                  : pp > 1 ? "pp"
		                  : ep > 1 ? "ep"
		                           : "dp",
		                  (unsigned long long)(tp > 1   ? tp
		                                       : pp > 1 ? pp
		                                       : ep > 1 ? ep
		                                                : dp));
	gpn = net != NULL ? net->gpus_per_node : 0;
	out->gpus_per_node = gpn;
	/* tensor parallelism all-reduces twice a layer: Megatron keeps it on
	 * the NVLink of one node (Narayanan et al. 2021, section 3.3) */
	if (gpn > 0 && tp > 1 && gpn % tp != 0)
		return rl_err_set(err, RL_ERR_ARG,
		                  "--tp %llu: a tensor-parallel group must sit in one node of %s "
		                  "(%llu GPUs): tp must divide it",
		                  (unsigned long long)tp, net->name, (unsigned long long)gpn);
	out->nodes = gpn > 0 ? (out->gpus + gpn - 1) / gpn : 1;
	if (net != NULL && net->max_nodes > 0 && out->nodes > net->max_nodes)
		return rl_err_set(
		    err, RL_ERR_RANGE,
		    "tp x pp x dp = %llu GPUs need %llu nodes of %llu GPUs; %s has %llu",
		    (unsigned long long)out->gpus, (unsigned long long)out->nodes,
		    (unsigned long long)gpn, net->name, (unsigned long long)net->max_nodes);
	if (net != NULL && out->nodes > 1 && !(net->inter_gbs > 0))
		return rl_err_set(err, RL_ERR_ARG,
		                  "tp x pp x dp = %llu GPUs span %llu nodes and %s has no network "
		                  "between nodes",
		                  (unsigned long long)out->gpus, (unsigned long long)out->nodes,
		                  net->name);
	/* ranks: tp fastest, then dp, then pp; rank 0's groups stand for all */
	if ((rc = group("tp", 0, 1, tp, gpn, &out->tp, err)) < 0 ||
	    (rc = group("dp", 0, tp, dp, gpn, &out->dp, err)) < 0 ||
	    (rc = group("pp", 0, tp * dp, pp, gpn, &out->pp, err)) < 0 ||
	    (rc = group("ep", 0, tp, ep, gpn, &out->ep, err)) < 0)
		return rc;
	if (pp > 1) {
		int even;

		out->link.ranks = 2;
		out->link.nodes = rl_parallel_span((pp - 2) * tp * dp, tp * dp, 2, gpn, &even);
	}
	return 0;
}

void rl_parallel_ddp_init(struct rl_parallel_ddp *d, double bucket_bytes)
{
	d->bucket_bytes = bucket_bytes > 0 ? bucket_bytes : RL_PARALLEL_BUCKET_BYTES;
	d->pending_bytes = 0;
}

uint64_t rl_parallel_ddp_add(struct rl_parallel_ddp *d, double bytes)
{
	double full;

	if (!(bytes > 0))
		return 0;
	d->pending_bytes += bytes;
	full = (double)(uint64_t)(d->pending_bytes / d->bucket_bytes);
	d->pending_bytes -= full * d->bucket_bytes;
	return (uint64_t)full;
}

double rl_parallel_ddp_flush(struct rl_parallel_ddp *d)
{
	double rest = d->pending_bytes;

	d->pending_bytes = 0;
	return rest;
}
