/* ncclmap.c - NCCL kernels and c10d records to collective rows (see
 * ncclmap.h). */
#include "config.h"

#include "ncclmap.h"

#include <string.h>

/* A token of a kernel's name: [S, S + N). */
static int tok_is(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && memcmp(s, word, n) == 0;
}

int rl_nccl_kernel(const char *name, struct rl_nccl_kernel *k)
{
	static const struct {
		const char *name;
		enum rl_kind kind;
	} colls[] = {
	    {"AllReduce", RL_KIND_ALLREDUCE},
	    {"AllGather", RL_KIND_ALLGATHER},
	    {"ReduceScatter", RL_KIND_REDUCESCATTER},
	    {"AllToAll", RL_KIND_ALLTOALL},
	    {"Broadcast", RL_KIND_BROADCAST},
	    {"SendRecv", RL_KIND_SENDRECV},
	    {"Reduce", RL_KIND_CUSTOM},
	};
	/* NCCL's src/device/generate.py (ncclDevKernel_<coll>_<redop>_<type>_
	 * <algo>_<proto>) and, before 2.19, src/collectives/device/common.h
	 * (ncclKernel_<coll>_<algo>_<proto>_<redop>_<type>) */
	static const char *const algos[] = {"RING", "TREE", "PAT", "NVLS", "COLLNET"};
	struct rl_nccl_kernel tmp;
	const char *p, *end;
	int first = 1;
	size_t i;

	if (k == NULL)
		k = &tmp;
	if (strncmp(name, "ncclDevKernel_", 14) == 0)
		p = name + 14;
	else if (strncmp(name, "ncclKernel_", 11) == 0)
		p = name + 11;
	else
		return 0;
	k->kind = RL_KIND_CUSTOM;
	k->coll = k->algorithm = k->protocol = "";
	end = strchr(p, '(');
	if (end == NULL)
		end = p + strlen(p);
	while (p < end) {
		const char *q = memchr(p, '_', (size_t)(end - p));
		size_t n = q ? (size_t)(q - p) : (size_t)(end - p);
		const char *next = q ? q + 1 : end;

		if (first) {
			for (i = 0; i < sizeof(colls) / sizeof(colls[0]); i++)
				if (tok_is(p, n, colls[i].name)) {
					k->kind = colls[i].kind;
					k->coll = colls[i].name;
				}
			first = 0;
		} else if (tok_is(p, n, "LL") || tok_is(p, n, "LL128") || tok_is(p, n, "SIMPLE")) {
			k->protocol = n == 2 ? "LL" : n == 5 ? "LL128" : "SIMPLE";
		} else if (tok_is(p, n, "NVLS") && strncmp(next, "TREE", 4) == 0 &&
		           (next + 4 == end || next[4] == '_')) {
			k->algorithm = "NVLS_TREE";
			next = next + 4 == end ? end : next + 5;
		} else if (tok_is(p, n, "COLLNET") && strncmp(next, "DIRECT", 6) == 0) {
			k->algorithm = "COLLNET_DIRECT";
			next = next + 6 >= end ? end : next + 7;
		} else if (tok_is(p, n, "COLLNET") && strncmp(next, "CHAIN", 5) == 0) {
			k->algorithm = "COLLNET_CHAIN";
			next = next + 5 >= end ? end : next + 6;
		} else {
			for (i = 0; i < sizeof(algos) / sizeof(algos[0]); i++)
				if (tok_is(p, n, algos[i]))
					k->algorithm = algos[i];
		}
		p = next;
	}
	return 1;
}

/* Lowercase NAME without underscores into BUF (truncated). */
static void squash(const char *name, char *buf, size_t size)
{
	size_t n = 0;

	for (; *name && n + 1 < size; name++)
		if (*name != '_')
			buf[n++] = (char)(*name >= 'A' && *name <= 'Z' ? *name - 'A' + 'a' : *name);
	buf[n] = '\0';
}

enum rl_kind rl_nccl_coll_kind(const char *name)
{
	char s[64];

	/* torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp names them in its
	 * RECORD_PARAM_COMMS calls: allreduce, allreduce_coalesced, broadcast,
	 * _broadcast_oop, allgather, _allgather_base,
	 * allgather_into_tensor_coalesced, reduce_scatter, _reduce_scatter_base,
	 * reduce_scatter_tensor_coalesced, all_to_all, all_to_allv, send, recv,
	 * reduce, barrier, gather, scatter */
	squash(name, s, sizeof(s));
	if (strstr(s, "allreduce"))
		return RL_KIND_ALLREDUCE;
	if (strstr(s, "allgather"))
		return RL_KIND_ALLGATHER;
	if (strstr(s, "reducescatter"))
		return RL_KIND_REDUCESCATTER;
	if (strstr(s, "alltoall"))
		return RL_KIND_ALLTOALL;
	if (strstr(s, "broadcast"))
		return RL_KIND_BROADCAST;
	if (strncmp(s, "send", 4) == 0 || strncmp(s, "recv", 4) == 0)
		return RL_KIND_SENDRECV;
	return RL_KIND_CUSTOM;
}

int rl_nccl_dtype(const char *name, enum rl_dtype *out)
{
	static const struct {
		const char *name;
		enum rl_dtype dtype;
	} map[] = {
	    /* c10/core/ScalarType.h, toString */
	    {"Float", RL_FP32},
	    {"BFloat16", RL_BF16},
	    {"Half", RL_FP16},
	    {"Double", RL_FP64},
	    {"Long", RL_INT64},
	    {"Int", RL_INT32},
	    {"Char", RL_INT8},
	    {"Byte", RL_INT8},
	    {"Bool", RL_INT8},
	    {"Float8_e4m3fn", RL_FP8E4M3},
	    {"Float8_e4m3fnuz", RL_FP8E4M3},
	    {"Float8_e5m2", RL_FP8E5M2},
	    {"Float8_e5m2fnuz", RL_FP8E5M2},
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(name, map[i].name) == 0) {
			*out = map[i].dtype;
			return 0;
		}
	return -1;
}

/* OP as a custom row without work: the kernel's time is kept, nothing is
 * predicted for it. */
static int custom(struct rl_op *op, const char **why, const char *reason)
{
	op->kind = RL_KIND_CUSTOM;
	op->has &= ~(unsigned)(RL_HAS_SHAPE | RL_HAS_RANKS | RL_HAS_NODES);
	op->ndims = 0;
	op->flops = 0;
	op->bytes = 0;
	op->has |= RL_HAS_FLOPS | RL_HAS_BYTES;
	if (why != NULL)
		*why = reason;
	return 0;
}

int rl_nccl_map(const struct rl_nccl_kernel *k, const struct rl_trace_comm *c,
                const char *coll_name, const char *dtype, struct rl_op *op, const char **why)
{
	enum rl_kind kind = coll_name != NULL ? rl_nccl_coll_kind(coll_name) : RL_KIND_CUSTOM;
	enum rl_dtype dt = RL_FP32;
	int64_t elems;

	if (why != NULL)
		*why = NULL;
	/* the record names what the program asked for (an all_to_all that NCCL
	 * runs as SendRecv kernels); a record without a kind of ours (a
	 * barrier, an allreduce of one element) takes the kernel's */
	if (kind == RL_KIND_CUSTOM && k != NULL)
		kind = k->kind;
	op->dtype = dtype != NULL && rl_nccl_dtype(dtype, &dt) == 0 ? dt : RL_FP32;
	if (kind == RL_KIND_CUSTOM)
		return custom(op, why, "no collective kind of ours");
	if (c == NULL)
		return custom(op, why, "size not recorded");
	elems = c->in_nelems;
	if (kind == RL_KIND_SENDRECV && elems <= 0)
		elems = c->out_nelems; /* a recv: its buffer is the output */
	if (elems <= 0)
		return custom(op, why, "size not recorded");
	if (dtype == NULL || rl_nccl_dtype(dtype, &dt) < 0)
		return custom(op, why, "dtype not recorded");
	if (c->group_size < 2)
		return custom(
		    op, why, c->group_size < 0 ? "group size not recorded" : "a group of one rank");
	op->kind = kind;
	op->dtype = dt;
	op->ndims = 1;
	op->dims[0] = (uint64_t)elems;
	op->ranks = (uint64_t)c->group_size;
	op->nodes = 1;
	op->has |= RL_HAS_SHAPE | RL_HAS_RANKS;
	return 1;
}
