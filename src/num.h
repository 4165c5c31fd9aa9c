/* num.h - strict number parsing and overflow-checked arithmetic.
 *
 * Input numbers come from CSV cells and hwdb files typed by people, so parsing
 * is strict: the whole string must be a number, no blanks, no hex, no "nan" or
 * "inf", no sign where none makes sense. Errors say what was expected; the
 * caller prefixes the location.
 */
#ifndef RL_NUM_H
#define RL_NUM_H

#include <stdint.h>

#include "err.h"

/* Parses S as an unsigned decimal integer (digits only) into *OUT.
 * Returns 0, or RL_ERR_PARSE (not an integer) or RL_ERR_RANGE (above 2^64-1),
 * with a message in ERR that quotes S. */
int rl_parse_u64(const char *s, uint64_t *out, struct rl_err *err);

/* Parses S as a finite, non-negative decimal number ("12", "0.5", "2.1e12")
 * into *OUT. Rejects signs other than a leading '+', hex, nan, inf and values
 * that overflow a double. Returns 0, RL_ERR_PARSE or RL_ERR_RANGE. */
int rl_parse_nonneg(const char *s, double *out, struct rl_err *err);

/* Stores A * B in *OUT; returns RL_ERR_RANGE instead when the product does
 * not fit in 64 bits. */
int rl_mul_u64(uint64_t a, uint64_t b, uint64_t *out);

/* Parses "AxBxC" (1 to MAX dims, each >= 1) into DIMS and *N. Returns 0, or
 * RL_ERR_PARSE / RL_ERR_RANGE with a message quoting S. */
int rl_parse_dims(const char *s, uint64_t *dims, int max, int *n, struct rl_err *err);

#endif
