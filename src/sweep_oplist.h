/* sweep_oplist.h - an op list swept over one of its names (classify
 * --sweep): the list, held in memory, read again through the pipeline at
 * every value with the name bound (sweep.h has the rows). Layer 4: it drives
 * the reader and the pipeline; it prints nothing.
 */
#ifndef RL_SWEEP_OPLIST_H
#define RL_SWEEP_OPLIST_H

#include <stddef.h>

#include "sweep.h"

struct rl_pipeline_model;
struct rl_symbols;
struct rl_errlist;

/* An op list swept over one of its names (classify --sweep). */
struct rl_sweep_oplist {
	const char *name; /* the list's name in messages */
	const char *text; /* op list v1, read again for every value */
	size_t len;
	const struct rl_symbols *names;            /* --set names (may be NULL); must not
	                                            * bind the swept name */
	const char *items_expr;                    /* NULL, or an integer expression over the names
	                                            * (symbols.h), the swept one included: items per
	                                            * step ("B", "B*197") */
	void (*warn)(const char *msg, void *user); /* the reader's warnings, of
	                                            * the first value only */
	void *user;
};

/* Reads L at every value of SW, the swept name bound to it, through a
 * pipeline on M without output, into T (initialised here, items "items"
 * when L->items_expr is given). Returns 0, RL_ERR_NOMEM, or the reader's
 * or pipeline's status with the errors in ERRS: among them a swept name
 * that no shape or count of the list uses (RL_ERR_ARG), and a bad
 * items_expr. */
int rl_sweep_oplist_run(const struct rl_sweep_spec *sw, const struct rl_sweep_oplist *l,
                        const struct rl_pipeline_model *m, struct rl_sweep_table *t,
                        struct rl_errlist *errs);

#endif
