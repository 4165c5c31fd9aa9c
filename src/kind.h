/* kind.h - the op kinds in one list, and what is data about each.
 *
 * RL_KIND_MAP lists every kind once, in the order of enum rl_kind; the enum,
 * the names and the table rl_kind_info() returns are all generated from it
 * (as libuv's UV_HANDLE_TYPE_MAP). What is not data about a kind (its kernel
 * model in expected.c, its backward in train.c) is a switch over every kind
 * with no default, so that -Wswitch-enum names each decision a new kind
 * still needs (HACKING.md, "Adding an op kind").
 */
#ifndef RL_KIND_H
#define RL_KIND_H

/* How a kind's bytes (and shape) are derived (formulas.h). */
enum rl_kind_bytes {
	RL_BYTES_INPUTS,     /* 'inputs' tensors of N read, N written (pointwise) */
	RL_BYTES_STREAM,     /* N read, N written (copy, softmax) */
	RL_BYTES_ROW_REDUCE, /* N read, N / last written (reduction over the last dim) */
	RL_BYTES_ROW_AFFINE, /* N and weight and bias of last read, N written (layernorm) */
	RL_BYTES_MATMUL,     /* A and B read, C written */
	RL_BYTES_CONV2D,     /* input and filter read, output written */
	RL_BYTES_ATTENTION,  /* Q, K, V read, O written (fused attention) */
	RL_BYTES_GATHER,     /* the rows picked and their int64 indices read, the rows written */
	RL_BYTES_BUS,        /* bus bytes over the interconnect (collective.h) */
	RL_BYTES_GIVEN,      /* none: flops and bytes are given (custom, fused) */
};

/* What a kind reads besides its activations (memfit.h, training). */
enum rl_kind_weights {
	RL_WEIGHTS_NONE,
	RL_WEIGHTS_MATRIX, /* matmul's B, conv2d's filter: weight_dtype, weight_group */
	RL_WEIGHTS_KV,     /* attention's K and V: kv_dtype (a KV cache) */
};

/* Optional op-list columns a kind takes (rl_kind_info's columns); a value
 * on any other kind is an error (oplist.c). */
enum {
	RL_KCOL_CONV2D = 1 << 0,     /* kernel, stride, padding, groups */
	RL_KCOL_ATTENTION = 1 << 1,  /* causal, kv_heads, window, v_head_dim, kv_shared, kv_cached,
	                              * mask, mask_shape */
	RL_KCOL_WEIGHTS = 1 << 2,    /* weight_dtype, weight_group, weight_count, trainable */
	RL_KCOL_INPUTS = 1 << 3,     /* inputs */
	RL_KCOL_PERM = 1 << 4,       /* perm */
	RL_KCOL_GROUPED = 1 << 5,    /* grouped, layout */
	RL_KCOL_COLLECTIVE = 1 << 6, /* ranks, nodes, overlap */
	RL_KCOL_FPE = 1 << 7,        /* flops_per_element */
	RL_KCOL_STRIDED = 1 << 8,    /* strided */
	RL_KCOL_PARAMS = 1 << 9,     /* params */
	RL_KCOL_KV = 1 << 10,        /* kv_dtype: attention's cache, or the cache a
	                              * copy writes (an implementation's update) */
	RL_KCOL_VECTOR = 1 << 11,    /* vector_bytes */
};
#define RL_KCOL_BITS 12

/* Every kind but the collectives holds weights of its own in memory (an
 * embedding table, a norm's weight, a bias): the 'params' column. */
#define RL_KCOL_P RL_KCOL_PARAMS

/* The op-list columns that RL_KCOL_* bit BIT stands for, as the header
 * names them (docs/oplist-format.md), NULL-terminated; an empty list for a
 * value that is not one bit of them. */
const char *const *rl_kind_column_names(unsigned bit);

/* Flags of a kind (rl_kind_info's flags). */
enum {
	RL_KF_MATRIX = 1 << 0,        /* a matrix product: the tensor pipe, FMAs */
	RL_KF_FUSABLE = 1 << 1,       /* --suggest-fusion may put it in a run */
	RL_KF_COLLECTIVE = 1 << 2,    /* crosses the interconnect (collective.h) */
	RL_KF_OUTPUT_ONLY = 1 << 3,   /* never read from an op list (fused) */
	RL_KF_AUTOCAST_FP32 = 1 << 4, /* autocast runs it in fp32 from fp16 and bf16
	                               * (torch.amp's fp32 list: layer_norm) */
};

/* XX(ENUM, name, min_dims, max_dims, shape form, default FLOPs per element,
 *    byte rule, weights, flags, columns). Shape form NULL: any 1 to
 *    RL_MAX_DIMS dims, or none needed. Default FLOPs per element: pointwise 1,
 *    reduction 1 (one add), softmax 5 (max, subtract, exp, sum, divide),
 *    layernorm 8 (mean, variance, normalise, scale, shift). These are the
 *    kinds an op list takes, in the order rl_kind_expected() lists them; a
 *    new kind goes before custom (the host keys past RL_KIND_COUNT are
 *    looked up by name: op.h, docs/hwdb-format.md). A collective's shape is
 *    the elements of each rank's input buffer; its bytes cross the
 *    interconnect (docs/oplist-format.md, "Collectives"). */
#define RL_KIND_MAP(XX)                                                                            \
	XX(POINTWISE, "pointwise", 1, 6, NULL, 1.0, RL_BYTES_INPUTS, RL_WEIGHTS_NONE,              \
	   RL_KF_FUSABLE, RL_KCOL_INPUTS | RL_KCOL_FPE | RL_KCOL_STRIDED | RL_KCOL_P | RL_KCOL_VECTOR)                          \
	XX(REDUCTION, "reduction", 1, 6, NULL, 1.0, RL_BYTES_ROW_REDUCE, RL_WEIGHTS_NONE, 0,       \
	   RL_KCOL_FPE | RL_KCOL_P)                                                                            \
	XX(SOFTMAX, "softmax", 1, 6, NULL, 5.0, RL_BYTES_STREAM, RL_WEIGHTS_NONE, RL_KF_FUSABLE,   \
	   RL_KCOL_FPE | RL_KCOL_P)                                                                            \
	XX(LAYERNORM, "layernorm", 1, 6, NULL, 8.0, RL_BYTES_ROW_AFFINE, RL_WEIGHTS_NONE,          \
	   RL_KF_FUSABLE | RL_KF_AUTOCAST_FP32, RL_KCOL_FPE | RL_KCOL_P)                                       \
	XX(MATMUL, "matmul", 3, 4, "MxNxK or BxMxNxK", 1.0, RL_BYTES_MATMUL, RL_WEIGHTS_MATRIX,    \
	   RL_KF_MATRIX, RL_KCOL_WEIGHTS | RL_KCOL_GROUPED | RL_KCOL_P)                                        \
	XX(CONV2D, "conv2d", 4, 4, "input NxCxHxW", 1.0, RL_BYTES_CONV2D, RL_WEIGHTS_MATRIX,       \
	   RL_KF_MATRIX, RL_KCOL_CONV2D | RL_KCOL_WEIGHTS | RL_KCOL_P)                                         \
	XX(ATTENTION, "attention", 4, 5, "BxHxSxD or BxHxSqxSkxD", 1.0, RL_BYTES_ATTENTION,        \
	   RL_WEIGHTS_KV, RL_KF_MATRIX, RL_KCOL_ATTENTION | RL_KCOL_KV | RL_KCOL_P)                                         \
	XX(COPY, "copy", 1, 6, NULL, 0.0, RL_BYTES_STREAM, RL_WEIGHTS_NONE, 0,                     \
	   RL_KCOL_PERM | RL_KCOL_STRIDED | RL_KCOL_P | RL_KCOL_KV)                                                         \
	XX(EMBEDDING, "embedding", 2, 6, "indices x row width (NxD, BxSxD)", 0.0, RL_BYTES_GATHER, \
	   RL_WEIGHTS_NONE, 0, RL_KCOL_P)                                                          \
	XX(ALLREDUCE, "allreduce", 1, 6, NULL, 0.0, RL_BYTES_BUS, RL_WEIGHTS_NONE,                 \
	   RL_KF_COLLECTIVE, RL_KCOL_COLLECTIVE)                                                   \
	XX(ALLGATHER, "allgather", 1, 6, NULL, 0.0, RL_BYTES_BUS, RL_WEIGHTS_NONE,                 \
	   RL_KF_COLLECTIVE, RL_KCOL_COLLECTIVE)                                                   \
	XX(REDUCESCATTER, "reducescatter", 1, 6, NULL, 0.0, RL_BYTES_BUS, RL_WEIGHTS_NONE,         \
	   RL_KF_COLLECTIVE, RL_KCOL_COLLECTIVE)                                                   \
	XX(ALLTOALL, "alltoall", 1, 6, NULL, 0.0, RL_BYTES_BUS, RL_WEIGHTS_NONE, RL_KF_COLLECTIVE, \
	   RL_KCOL_COLLECTIVE)                                                                     \
	XX(BROADCAST, "broadcast", 1, 6, NULL, 0.0, RL_BYTES_BUS, RL_WEIGHTS_NONE,                 \
	   RL_KF_COLLECTIVE, RL_KCOL_COLLECTIVE)                                                   \
	XX(SENDRECV, "sendrecv", 1, 6, NULL, 0.0, RL_BYTES_BUS, RL_WEIGHTS_NONE, RL_KF_COLLECTIVE, \
	   RL_KCOL_COLLECTIVE)                                                                     \
	XX(CUSTOM, "custom", 0, 6, NULL, 1.0, RL_BYTES_GIVEN, RL_WEIGHTS_NONE, 0, RL_KCOL_P)

enum rl_kind {
#define RL_KIND_ENUM(e, name, lo, hi, form, fpe, bytes, weights, flags, cols) RL_KIND_##e,
	RL_KIND_MAP(RL_KIND_ENUM)
#undef RL_KIND_ENUM
	/* output only, after the kinds of an op list: a fusion group predicted
	 * as one kernel (fusion.h); its row is kind.c's */
	RL_KIND_FUSED
};

/* The number of kinds: outside enum rl_kind, so that a switch over every
 * kind need not name it. */
#define RL_KIND_COUNT (RL_KIND_FUSED + 1)

/* What is data about one kind (one row of RL_KIND_MAP). */
struct rl_kind_info {
	const char *name;       /* keyword of the op list's 'kind' column */
	int min_dims, max_dims; /* of the 'shape' column */
	const char *shape_form; /* the dims the formulas name ("MxNxK or BxMxNxK"), or NULL */
	double default_fpe;     /* FLOPs per element when flops_per_element is not given */
	enum rl_kind_bytes bytes;
	enum rl_kind_weights weights;
	unsigned flags;   /* RL_KF_* */
	unsigned columns; /* RL_KCOL_*: the optional columns it takes */
};

/* The row of kind K (a valid enum rl_kind). */
const struct rl_kind_info *rl_kind_info(enum rl_kind k);

/* Canonical name of a kind ("matmul"). */
const char *rl_kind_name(enum rl_kind k);

/* Looks NAME up case-insensitively; returns 0 and sets *OUT, or
 * RL_ERR_PARSE. The output-only kind "fused" is not accepted. */
int rl_kind_parse(const char *name, enum rl_kind *out);

/* The list of kind names an op list accepts, for error messages
 * ("pointwise, reduction, ..., custom"); a static string. */
const char *rl_kind_expected(void);

/* Nonzero for the collective kinds (allreduce ... sendrecv). */
int rl_kind_is_collective(enum rl_kind k);

/* Nonzero for the matrix products (matmul, conv2d, attention): the tensor
 * pipe when the unit is not given, FLOPs that are multiply-adds. */
int rl_kind_is_matrix(enum rl_kind k);

#endif
