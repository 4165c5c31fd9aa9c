/* fusion.h - the fusion what-if: consecutive ops predicted as one kernel.
 *
 * A fused kernel keeps its intermediate tensors on chip and launches once.
 * With in_i = bytes_i - out_i the reads of member i and out_i its output
 * (rl_op_output_bytes), the compulsory traffic of a group of n ops is
 *
 *   bytes = in_1 + sum over i = 2..n of max(0, in_i - out_(i-1)) + out_n
 *
 * the first op's inputs, whatever a later op reads besides the tensor its
 * predecessor produced (a residual add's second operand, a layernorm's weight
 * and bias), and the last op's output; the intermediates are dropped. FLOPs
 * add up, and so do the compute times, each member's math on its own pipe;
 * launches = 1. The model side is pure; rl_fuse_stream drives it over an op
 * list read in order, in constant memory per group, and proposes groups
 * (--suggest-fusion) for runs of ops that fusion helps.
 */
#ifndef RL_FUSION_H
#define RL_FUSION_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "model.h"
#include "op.h"

/* A group being accumulated; all figures are for one occurrence. */
struct rl_fusion {
	size_t nops;
	uint64_t count;      /* every member's count */
	enum rl_dtype dtype; /* the first member's */
	double flops;
	double reads;           /* bytes read from memory so far */
	double out_bytes;       /* output of the last member */
	double t_compute_us;    /* sum over the members */
	double unfused_us;      /* sum of the members' expected_us */
	struct rl_pred slowest; /* prediction of the member with most compute */
	int fallback;           /* some member's pipe fell back */
};

void rl_fusion_init(struct rl_fusion *g);

/* Adds OP, predicted as P (rl_predict(): its output is P's bytes_written),
 * to G. Returns 0, or RL_ERR_PARSE with a message
 * (without location) when OP cannot join: its bytes were given explicitly
 * (so its reads and writes are not known apart), or its count differs from
 * the group's. */
int rl_fusion_add(struct rl_fusion *g, const struct rl_op *op, const struct rl_pred *p,
                  struct rl_err *err);

/* Predicts G (at least one op added) as one kernel on CTX into *P: flops
 * and bytes as above, t_compute_us the members' sum, one launch. The pipe,
 * unit and ridge are those of the member with the most compute time;
 * peak_flops is the group's effective rate, flops / t_compute. */
void rl_fusion_predict(const struct rl_fusion *g, const struct rl_model_ctx *ctx,
                       struct rl_pred *p);

/* One kernel of the fused op list: an op of the list, or a group standing
 * in for its members (kind RL_KIND_FUSED, named after the group, with
 * explicit flops and bytes, extra NULL). */
struct rl_fuse_row {
	const struct rl_op *op;
	const struct rl_pred *p;
	size_t nops;       /* members: 1 for a plain op */
	double unfused_us; /* one occurrence: the members' expected_us summed */
	double out_bytes;  /* the kernel's output; < 0 when unknown */
};

/* A group of the list, or a proposed one, for the what-if report. */
struct rl_fuse_whatif {
	char *first, *last; /* first and last member (first: the group name
	                     * for a group of the list); owned */
	size_t line;        /* the first member's */
	size_t nops;
	uint64_t count;
	double unfused_us, fused_us; /* one occurrence */
};

struct rl_fuse_stream {
	const struct rl_model_ctx *ctx;
	int (*emit)(const struct rl_fuse_row *row, void *user);
	void *user;
	/* the open group of the list */
	char *name;
	size_t line;
	struct rl_fusion g;
	/* the open candidate run, with --suggest-fusion */
	int suggest;
	struct rl_fusion run;
	char *run_first, *run_last;
	size_t run_line;
	/* what the report shows: the list's groups, the proposals */
	struct rl_fuse_whatif *groups, *proposals;
	size_t ngroups, nproposals, capgroups, capproposals;
};

/* Starts a stream on CTX that calls EMIT once per kernel, in list order. With
 * SUGGEST, runs of two or more consecutive ops that are pointwise, softmax
 * or layernorm, not compute-bound, in no group of the list, with formula
 * bytes and one count, are predicted fused and kept as proposals when that
 * saves time. */
void rl_fuse_stream_init(struct rl_fuse_stream *s, const struct rl_model_ctx *ctx, int suggest,
                         int (*emit)(const struct rl_fuse_row *, void *), void *user);

/* Feeds OP, predicted as P. Returns 0, the negative status EMIT returned,
 * RL_ERR_NOMEM, or RL_ERR_PARSE (message without location in ERR: the op
 * cannot join its group). */
int rl_fuse_stream_op(struct rl_fuse_stream *s, const struct rl_op *op, const struct rl_pred *p,
                      struct rl_err *err);

/* Emits the open group and closes the open run. Returns as rl_fuse_stream_op. */
int rl_fuse_stream_end(struct rl_fuse_stream *s, struct rl_err *err);

void rl_fuse_stream_release(struct rl_fuse_stream *s);

#endif
