/* symbols.h - symbolic sizes: names in shapes (Bx4096, BxHxSxD) bound to
 * numbers by --set, and scaled by --scale.
 *
 * A name is letters and underscores, without the lower-case 'x' that joins
 * dimensions (B, S, H_kv, SEQ). Binding happens as each row is read, so the
 * reader keeps streaming; each dimension remembers the name it came from
 * (rl_op.dim_sym), so that an op can be rebuilt at a scaled size later.
 */
#ifndef RL_SYMBOLS_H
#define RL_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "op.h"

#define RL_SYMBOLS_MAX 32
#define RL_SYMBOL_LEN  32 /* longest name + 1 */
/* rl_op.dim_sym of a dimension that an expression made from names in a way
 * --scale cannot follow (B+1, B*S): not proportional to one name. */
#define RL_SYM_MIXED 255

struct rl_symbols {
	size_t n;
	char name[RL_SYMBOLS_MAX][RL_SYMBOL_LEN];
	uint64_t value[RL_SYMBOLS_MAX];
	uint64_t scale[RL_SYMBOLS_MAX]; /* factor from --scale; 1 when none */
};

void rl_symbols_init(struct rl_symbols *s);

/* Binds the names of SPEC, "B=32,S=128" (integers >= 1). Returns 0, or
 * RL_ERR_PARSE / RL_ERR_RANGE with a message: a bad name, a bad value, a
 * name given twice, too many names. */
int rl_symbols_set(struct rl_symbols *s, const char *spec, struct rl_err *err);

/* Sets scale factors from SPEC, "B=2" (integers >= 1) for names already
 * bound. Returns 0, or RL_ERR_PARSE / RL_ERR_RANGE with a message. */
int rl_symbols_scale(struct rl_symbols *s, const char *spec, struct rl_err *err);

/* "B x2, S x2": the scale factors, for reports, into BUF. */
void rl_symbols_scale_label(const struct rl_symbols *s, char *buf, size_t len);

/* Parses TEXT, dimensions joined by 'x' where each is a positive integer or
 * a name bound in S (S may be NULL: no names), into DIMS and *N (1 to MAX),
 * recording in SYM (may be NULL) 1 + the index of each dimension's name, 0
 * for a number. Returns 0, or RL_ERR_PARSE / RL_ERR_RANGE with a message
 * quoting TEXT; an unbound name is named ("name 'B' is not bound"). */
int rl_symbols_dims(const struct rl_symbols *s, const char *text, uint64_t *dims,
                    unsigned char *sym, int max, int *n, struct rl_err *err);

/* As rl_symbols_dims, where each dimension may also be an integer expression
 * (+ - * / and parentheses over numbers and names: B*197, (S+1)/2), and
 * *USED (may be NULL) gets a bit (1 << index) per name the shape uses. SYM
 * records 1 + the index of the name when the dimension is that name times or
 * over numbers (B, 4*B, B/2), so that --scale multiplies it; RL_SYM_MIXED
 * when it depends on names otherwise (B+1, B*S). Division must be exact and
 * nothing may go below 0 or past 2^64 - 1: errors name the expression. */
int rl_symbols_dims_used(const struct rl_symbols *s, const char *text, uint64_t *dims,
                         unsigned char *sym, int max, int *n, uint32_t *used,
                         struct rl_err *err);

/* Evaluates TEXT, one integer expression as above (a cell such as count),
 * into *OUT; WHAT names the cell in messages ("count"). *USED as above. */
int rl_symbols_eval(const struct rl_symbols *s, const char *text, const char *what,
                    uint64_t *out, uint32_t *used, struct rl_err *err);

/* Copies OP into *OUT at the scaled size: each dimension bound from a name
 * is multiplied by that name's factor. Returns 0, or RL_ERR_RANGE when a
 * dimension overflows 64 bits. *DEPENDS (may be NULL) says whether any
 * dimension changed. */
int rl_symbols_apply(const struct rl_symbols *s, const struct rl_op *op, struct rl_op *out,
                     int *depends, struct rl_err *err);

#endif
