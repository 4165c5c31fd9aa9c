/* oplist_write.h - the op list writer (op list v1, docs/oplist-format.md),
 * beside the reader of oplist.h.
 *
 * A record to write is a struct rl_oprow: one cell of text per column, ""
 * for an empty cell (the column's default). The setters below are the one
 * place that formats a field (integers, dims, counts, times); the writer is
 * the one place that quotes one. Which columns a list has, and in which
 * order, is the caller's: model, import and bench's sweeps each write their
 * own set (an array of enum rl_opcol). The same cells can be handed to the
 * reader's record step (rl_ops_row in oplist.h) instead of to a file, so a
 * list built in memory validates exactly as its text would.
 */
#ifndef RL_OPLIST_WRITE_H
#define RL_OPLIST_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "op.h"

/* The columns the writers emit, by their names in docs/oplist-format.md. */
enum rl_opcol {
	RL_OPCOL_NAME,
	RL_OPCOL_KIND,
	RL_OPCOL_DTYPE,
	RL_OPCOL_SHAPE,
	RL_OPCOL_KERNEL,
	RL_OPCOL_STRIDE,
	RL_OPCOL_PADDING,
	RL_OPCOL_GROUPS,
	RL_OPCOL_CAUSAL,
	RL_OPCOL_INPUTS,
	RL_OPCOL_FPE, /* flops_per_element */
	RL_OPCOL_FLOPS,
	RL_OPCOL_BYTES,
	RL_OPCOL_FMA,
	RL_OPCOL_LAUNCHES,
	RL_OPCOL_MEASURED, /* measured_us */
	RL_OPCOL_HOST,     /* host_us */
	RL_OPCOL_HOST_COST, /* host_overhead_us */
	RL_OPCOL_KV_HEADS,
	RL_OPCOL_WEIGHT_DTYPE,
	RL_OPCOL_KV_DTYPE,
	RL_OPCOL_COUNT,
	RL_OPCOL_WEIGHT_COUNT,
	RL_OPCOL_RANKS,
	RL_OPCOL_NODES,
	RL_OPCOL_PHASE,
	RL_OPCOL_GROUPED,
	RL_OPCOL_LAYOUT,
	RL_OPCOL_LIVE_BYTES,
	RL_OPCOL_STRIDED,
	RL_OPCOL_VECTOR_BYTES,
	RL_OPCOL_WEIGHT_GROUP,
	RL_OPCOL_PARAMS,
	RL_OPCOL_WINDOW,
	RL_OPCOL_V_HEAD_DIM,
	RL_OPCOL_KV_SHARED,
	RL_OPCOL_KV_CACHED,
	RL_OPCOL_FRESH,
	RL_OPCOL_OVERLAP,
	RL_OPCOL_N
};

/* The column's name in a header ("flops_per_element"); static. */
const char *rl_opcol_name(enum rl_opcol c);

/* Room for one formatted cell: dims of RL_MAX_DIMS 20-digit numbers. */
#define RL_OPCELL_MAX 160

/* One record as text. cell[c] is "" (empty: the default), a borrowed string
 * (rl_oprow_text: it must outlive the row's use) or the row's own slot. */
struct rl_oprow {
	const char *cell[RL_OPCOL_N];
	char slot[RL_OPCOL_N][RL_OPCELL_MAX];
};

/* Every cell empty. */
void rl_oprow_init(struct rl_oprow *r);

/* Cell C is S, borrowed (NULL: empty). */
void rl_oprow_text(struct rl_oprow *r, enum rl_opcol c, const char *s);
/* Cell C is V in decimal. */
void rl_oprow_u64(struct rl_oprow *r, enum rl_opcol c, uint64_t v);
/* Cell C is the N dims D joined by 'x' (4096x4096); empty when N is 0. */
void rl_oprow_dims(struct rl_oprow *r, enum rl_opcol c, const uint64_t *d, int n);
/* Cell C is V, which reads back as the same double: an exact integer below
 * 2^53 in full (1073741824), anything else with 17 significant digits. */
void rl_oprow_exact(struct rl_oprow *r, enum rl_opcol c, double v);
/* Cell C is V with %g (six significant digits: 14, 0.5). */
void rl_oprow_g(struct rl_oprow *r, enum rl_opcol c, double v);
/* Cell C is V with SIG significant digits (%.*g). */
void rl_oprow_sig(struct rl_oprow *r, enum rl_opcol c, double v, int sig);
/* Cell C is V with DECIMALS digits after the point (%.*f: a trace's times
 * in us to the ns take 3). */
void rl_oprow_fixed(struct rl_oprow *r, enum rl_opcol c, double v, int decimals);

/* The cells of OP: name, kind, dtype and every field OP carries, in the
 * columns of its kind: shape (RL_HAS_SHAPE); kernel, stride, padding and
 * groups on conv2d; causal (0 or 1), kv_heads, window and v_head_dim (each
 * when > 0) and kv_shared (1, when set) on attention; inputs on pointwise;
 * flops_per_element, flops, bytes (rl_oprow_exact), fma, measured_us and
 * host_us (rl_oprow_fixed, 3 decimals) where OP has them; launches and
 * count; ranks and nodes with RL_HAS_RANKS; weight_dtype and kv_dtype where
 * OP has them; phase. OP's name is borrowed. */
void rl_oprow_from_op(struct rl_oprow *r, const struct rl_op *op);

/* Writes "# TEXT\n", TEXT printf-formatted, a CR or LF in it written as
 * '?' (a name from the command line cannot end the comment). */
void rl_oplist_write_comment(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Writes the header line of the N columns COLS. */
void rl_oplist_write_header(FILE *f, const enum rl_opcol *cols, size_t n);

/* Writes R's cells of the N columns COLS as one line, each quoted where
 * RFC 4180 or the reader needs it: a comma, quote, CR or LF in it, a
 * leading '#', or a space or tab at either end ("a,b" is "\"a,b\"", a
 * quote doubled). */
void rl_oplist_write_row(FILE *f, const enum rl_opcol *cols, size_t n, const struct rl_oprow *r);

/* Fills CELLS[i] with R's cell of COLS[i] (N of them; borrowed from R), the
 * record that rl_oplist_write_row would write, for rl_ops_row. */
void rl_oprow_cells(const struct rl_oprow *r, const enum rl_opcol *cols, size_t n,
                    const char **cells);

#endif
