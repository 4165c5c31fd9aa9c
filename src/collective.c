/* collective.c - bus bytes and times of collectives (see collective.h). */
#include "config.h"

#include "collective.h"

#include <math.h>

double rl_collective_bus_factor(enum rl_kind k, uint64_t n)
{
	double dn = (double)n;

	/* nccl-tests src/all_reduce.cu, all_gather.cu, reduce_scatter.cu,
	 * alltoall.cu, broadcast.cu, sendrecv.cu (getBw), doc/PERFORMANCE.md */
	switch (k) {
	case RL_KIND_ALLREDUCE:
		return n > 0 ? 2.0 * (dn - 1) / dn : 0;
	case RL_KIND_ALLGATHER:
	case RL_KIND_REDUCESCATTER:
	case RL_KIND_ALLTOALL:
		return n > 0 ? (dn - 1) / dn : 0;
	case RL_KIND_BROADCAST:
	case RL_KIND_SENDRECV:
		return 1;
	case RL_KIND_POINTWISE:
	case RL_KIND_REDUCTION:
	case RL_KIND_SOFTMAX:
	case RL_KIND_LAYERNORM:
	case RL_KIND_MATMUL:
	case RL_KIND_CONV2D:
	case RL_KIND_ATTENTION:
	case RL_KIND_COPY:
	case RL_KIND_EMBEDDING:
	case RL_KIND_CUSTOM:
	case RL_KIND_FUSED:
		return 0; /* not a collective */
	}
	return 0;
}

double rl_collective_algo_bytes(enum rl_kind k, uint64_t n, double in_bytes)
{
	/* nccl-tests counts allgather by its output, the n shards gathered */
	return k == RL_KIND_ALLGATHER ? (double)n * in_bytes : in_bytes;
}

double rl_collective_out_bytes(enum rl_kind k, uint64_t n, double in_bytes)
{
	double r = (double)n;

	switch (k) {
	case RL_KIND_ALLGATHER: return r * in_bytes;
	case RL_KIND_REDUCESCATTER: return in_bytes / r;
	case RL_KIND_ALLREDUCE:
	case RL_KIND_ALLTOALL:
	case RL_KIND_BROADCAST:
	case RL_KIND_SENDRECV:
	case RL_KIND_POINTWISE:
	case RL_KIND_REDUCTION:
	case RL_KIND_SOFTMAX:
	case RL_KIND_LAYERNORM:
	case RL_KIND_MATMUL:
	case RL_KIND_CONV2D:
	case RL_KIND_ATTENTION:
	case RL_KIND_COPY:
	case RL_KIND_EMBEDDING:
	case RL_KIND_CUSTOM:
	case RL_KIND_FUSED: break;
	}
	return in_bytes;
}

int rl_collective_check(const struct rl_op *op, struct rl_err *err)
{
	if (!(op->has & RL_HAS_RANKS))
		return rl_err_set(
		    err, RL_ERR_PARSE,
		    "column 'ranks': %s needs the number of GPUs taking part (2 or more)",
		    rl_kind_name(op->kind));
	if (op->ranks < 2)
		return rl_err_set(
		    err, RL_ERR_PARSE,
		    "column 'ranks': %llu is below the minimum 2 (a collective on one GPU "
		    "moves nothing)",
		    (unsigned long long)op->ranks);
	if (op->nodes < 1 || op->nodes > op->ranks || op->ranks % op->nodes != 0)
		return rl_err_set(
		    err, RL_ERR_PARSE,
		    "column 'nodes': %llu does not divide ranks %llu (every node takes "
		    "the same number of GPUs)",
		    (unsigned long long)op->nodes, (unsigned long long)op->ranks);
	return 0;
}

/* Bytes per GPU per direction of the intra-node phase (G ranks) and of the
 * inter-node phase (M nodes) of kind K with nccl-tests size S and input IN
 * (docs/oplist-format.md, "Collectives"). With M = 1, intra is S x the bus
 * factor on G ranks and inter is 0; with G = 1, the reverse. */
static void phases(enum rl_kind k, double g, double m, double s, double in, double *intra,
                   double *inter)
{
	double n = g * m;

	switch (k) {
	case RL_KIND_ALLREDUCE: /* reduce-scatter in the node, allreduce of S / G
	                         * between nodes, allgather in the node */
		*intra = 2.0 * (g - 1) / g * s;
		*inter = 2.0 * (m - 1) / m * s / g;
		break;
	case RL_KIND_ALLGATHER:     /* S = n x in: the mirror of reducescatter */
	case RL_KIND_REDUCESCATTER: /* in the node over S, between nodes over S / G */
		*intra = (g - 1) / g * s;
		*inter = (m - 1) / m * s / g;
		break;
	case RL_KIND_ALLTOALL: /* a chunk S / n to every rank: G - 1 in the node,
	                        * n - G through the network */
		*intra = (g - 1) / n * s;
		*inter = (n - g) / n * s;
		break;
	case RL_KIND_BROADCAST: /* the buffer once into every GPU; between nodes
	                         * split over the G ports of a node */
		*intra = g > 1 ? s : 0;
		*inter = m > 1 ? s / g : 0;
		break;
	case RL_KIND_SENDRECV: /* one buffer to the next rank, on a node or across */
		*intra = m > 1 ? 0 : s;
		*inter = m > 1 ? in : 0;
		break;
	case RL_KIND_POINTWISE:
	case RL_KIND_REDUCTION:
	case RL_KIND_SOFTMAX:
	case RL_KIND_LAYERNORM:
	case RL_KIND_MATMUL:
	case RL_KIND_CONV2D:
	case RL_KIND_ATTENTION:
	case RL_KIND_COPY:
	case RL_KIND_EMBEDDING:
	case RL_KIND_CUSTOM:
	case RL_KIND_FUSED:
		*intra = *inter = 0; /* not a collective: rl_collective_time() refuses it */
		break;
	}
}

/* NCCL's ring latency inside a node (src/graph/tuning.cc@5067397: the
 * base latency, 6.6 us for the LL protocol, l.151; plus one hop a step,
 * l.158-174; 2 (n - 1) steps for an all-reduce, n - 1 for the collectives
 * that pass each chunk once round the ring, l.289 and 393-412). A system's
 * intra_latency_us is that of an all-reduce over its whole node (its
 * gpus_per_node G): the hop is what it leaves of the base over 2 (G - 1)
 * steps (0.6 us on NVLink, 15.0 us at G = 8), and G ranks of kind K cost
 * base + steps(K, G) x hop. A system whose latency is the base or less, or
 * without gpus_per_node, keeps its figure for every collective. */
#define RL_NCCL_BASE_US 6.6

static double ring_steps(enum rl_kind k, uint64_t g)
{
	if (k == RL_KIND_ALLREDUCE)
		return 2.0 * (double)(g - 1);
	if (k == RL_KIND_SENDRECV)
		return 1;
	return (double)(g - 1); /* allgather, reducescatter, alltoall, broadcast */
}

static double intra_latency(const struct rl_net *net, enum rl_kind k, uint64_t g)
{
	double l = net->intra_latency_us, hop;
	uint64_t G = net->gpus_per_node;

	if (G < 2 || !(l > RL_NCCL_BASE_US))
		return l;
	hop = (l - RL_NCCL_BASE_US) / (2.0 * (double)(G - 1));
	return RL_NCCL_BASE_US + ring_steps(k, g) * hop;
}

int rl_collective_time(enum rl_kind k, uint64_t ranks, uint64_t nodes, double in_bytes,
                       const struct rl_net *net, struct rl_coll_time *t, struct rl_err *err)
{
	uint64_t g;

	if (!rl_kind_is_collective(k) || ranks < 2 || nodes < 1 || ranks % nodes != 0)
		return rl_err_set(err, RL_ERR_ARG, "not a collective on 2 or more ranks");
	g = ranks / nodes;
	if (net->gpus_per_node > 0 && g > net->gpus_per_node)
		return rl_err_set(
		    err, RL_ERR_ARG,
		    "%llu ranks on %llu node%s is %llu GPUs per node, but %s has %llu "
		    "(give nodes)",
		    (unsigned long long)ranks, (unsigned long long)nodes, nodes == 1 ? "" : "s",
		    (unsigned long long)g, net->name, (unsigned long long)net->gpus_per_node);
	if (nodes > 1 && !(net->inter_gbs > 0))
		return rl_err_set(err, RL_ERR_ARG,
		                  "%llu nodes, but %s has no network between nodes (a system file "
		                  "with network_bandwidth_gbs has one)",
		                  (unsigned long long)nodes, net->name);
	if (net->max_nodes > 0 && nodes > net->max_nodes)
		return rl_err_set(err, RL_ERR_ARG, "%llu nodes, but %s has %llu",
		                  (unsigned long long)nodes, net->name,
		                  (unsigned long long)net->max_nodes);
	if (g > 1 && !(net->intra_gbs > 0))
		return rl_err_set(err, RL_ERR_ARG, "%s has no bandwidth inside a node", net->name);
	t->algo_bytes = rl_collective_algo_bytes(k, ranks, in_bytes);
	t->bus_bytes = t->algo_bytes * rl_collective_bus_factor(k, ranks);
	phases(k, (double)g, (double)nodes, t->algo_bytes, in_bytes, &t->intra_bytes,
	       &t->inter_bytes);
	t->intra_us = t->intra_bytes > 0 ? t->intra_bytes / (net->intra_gbs * 1e9) * 1e6 : 0;
	t->inter_us = t->inter_bytes > 0 ? t->inter_bytes / (net->inter_gbs * 1e9) * 1e6 : 0;
	t->latency_us =
	    (g > 1 ? intra_latency(net, k, g) : 0) + (nodes > 1 ? net->inter_latency_us : 0);
	t->t_us = t->latency_us + fmax(t->intra_us, t->inter_us);
	return 0;
}
