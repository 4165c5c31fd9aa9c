/* component.h - an op list's rows that name block components, as the
 * kernels an implementation launches for them (classify --impl).
 *
 * A row of an op list may say which components of a transformer block it
 * stands for (column 'component': "norm", "rotary+cache+attention", with
 * facts after ':' such as "attention:sliding") and whose code runs them
 * (column 'model_type'). Read as it is, the row is its own op.
 * Under an implementation that names those components for that family,
 * the row is replaced by the implementation's kernels, their shapes
 * evaluated over the names the list is sized by (--set B=8,S=1,C=4096,
 * H=4096,...: the sizes of impl.h's RL_IMPL_SYM_MAP, with T, R, N, DV, W,
 * EI, ET and EM following from the others as model binds them), and the
 * step's facts (prefill or decode, batched, windowed, mqa, radix) following
 * from the same sizes. So an op list written by hand, or by model
 * -f oplist and marked up, is predicted as that stack runs it
 * (docs/oplist-format.md, "Components").
 *
 * Layer 4: the kernels become rows by modelops.c's rule
 * (rl_modelops_kernel_row) and ops by modelstep.c's cells and the reader's
 * record step, so that a component row expands exactly as model builds the
 * same component. Prints nothing.
 */
#ifndef RL_COMPONENT_H
#define RL_COMPONENT_H

#include <stdint.h>

#include "err.h"
#include "impl.h"
#include "op.h"
#include "symbols.h"

typedef struct rl_component rl_component;

/* Expands component rows under IM (borrowed; NULL or one naming no
 * kernel: every row is its own op) over the names NAMES (borrowed: the
 * list's --set), for a training step's forward with TRAIN; INPUT names the
 * list in messages. Returns 0 with *OUT (rl_component_free), or a negative
 * status with ERR filled (RL_ERR_RANGE: the derived sizes do not fit
 * beside NAMES; RL_ERR_NOMEM). */
int rl_component_new(const struct rl_impl *im, const struct rl_symbols *names, int train,
                     const char *input, rl_component **out, struct rl_err *err);

/* The bits (1 << i) of the names of NAMES that size an implementation's
 * kernels (impl.h's symbols), for the reader's unused-name warning; 0
 * without an implementation of kernels. */
uint32_t rl_component_names_used(const rl_component *c);

/* Hands OP to EMIT (with USER): as it is when it names no component the
 * implementation names for its family; else the implementation's kernels
 * in its place, in order, each named "ROW.KERNEL" on OP's line, count
 * OP's times the kernel's, OP's dtypes, phase, trainable and carried
 * cells, OP's params with the first. Consecutive rows naming the same
 * components (and family, facts and count: the gate_up, silu, mul and
 * down_proj of a fused MLP) are one occurrence: held until the run ends,
 * then its kernels once, with the run's params; a component the
 * implementation does not name stays in the first row, emitted after the
 * kernels. Returns 0,
 * EMIT's negative status, or a negative status with the error in ERRS
 * ("ops.csv:5: column 'component': hf's norm kernel norm_pow
 * (hwdb/hf-transformers.impl:174): ...": a name the kernel needs that
 * --set does not bind, a row with measured or explicit times to split). */
int rl_component_op(rl_component *c, const struct rl_op *op,
                    int (*emit)(const struct rl_op *op, void *user), void *user,
                    struct rl_errlist *errs);

/* The list's carried columns (rl_ops_header.nextra), from the sink's
 * header: the cells a held row keeps. Returns 0 or RL_ERR_NOMEM. */
int rl_component_columns(rl_component *c, size_t nextra);

/* At the end of the list: the kernels of the run still held. Returns as
 * rl_component_op. */
int rl_component_end(rl_component *c, int (*emit)(const struct rl_op *op, void *user),
                     void *user, struct rl_errlist *errs);

void rl_component_free(rl_component *c);

#endif
