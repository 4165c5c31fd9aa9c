/* oplist.h - the op list reader (CSV, "op list format v1", docs/oplist-format.md).
 *
 * The reader streams: it calls a sink once with the header and then once per
 * valid op, so that a million-op list never has to sit in memory. It only
 * parses and validates; it computes no physics. Errors carry
 * "FILE:LINE: column 'X': ..." and up to RL_ERRLIST_MAX are collected in one
 * pass; after the first error the sink sees no further ops, so a caller never
 * acts on a partly bad list. rl_oplist keeps a whole list in memory for
 * callers that need random access (tests, small lists).
 */
#ifndef RL_OPLIST_H
#define RL_OPLIST_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"
#include "op.h"

struct rl_ops_header {
	const char *name;                /* the input's name in messages */
	size_t nextra;                   /* columns the format does not define */
	const char *const *extra_names;  /* carried through to csv and json output */
	int has_measured;                /* the measured_us column is present */
	int has_host;                    /* the host_us column is present */
	int has_phase;                   /* the phase column is present */
};

struct rl_symbols;

struct rl_ops_sink {
	/* Called once after the header line. H stays valid until rl_ops_read
	 * returns. A negative return stops reading and is returned by
	 * rl_ops_read. */
	int (*header)(const struct rl_ops_header *h, void *user);
	/* Called per valid op while no error has been seen. OP and its strings
	 * are valid only during the call. A negative return stops reading. */
	int (*op)(const struct rl_op *op, void *user);
	void *user;
	/* Names that shapes may use (symbols.h), bound as rows are read; NULL:
	 * none, and a name in a shape is an error. */
	const struct rl_symbols *names;
	/* Called with a warning ("ops.csv: warning: ..."), after the last row:
	 * a --set name that no shape or count uses. NULL: warnings dropped. */
	void (*warn)(const char *msg, void *user);
	/* Bits (1 << i) of names that size what the sink makes of the rows
	 * (classify --impl's kernels, component.h): not warned about. */
	uint32_t names_sized;
};

/* Reads an op list from F, naming it NAME in messages. Returns 0 when the
 * whole list was valid; RL_ERR_PARSE (or RL_ERR_IO) when ERRS holds at least
 * one error; or the negative status a sink callback returned. */
int rl_ops_read(FILE *f, const char *name, const struct rl_ops_sink *sink,
                struct rl_errlist *errs);

/* As rl_ops_read, and when USED is not NULL, sets *USED after the last row
 * to a bit (1 << i) per name i of SINK->names that a shape or count used
 * (a sweep checks that its name is used). */
int rl_ops_read_used(FILE *f, const char *name, const struct rl_ops_sink *sink,
                     struct rl_errlist *errs, uint32_t *used);

/* As rl_ops_read on the file PATH; "-" reads standard input. */
int rl_ops_read_path(const char *path, const struct rl_ops_sink *sink,
                     struct rl_errlist *errs);

/* ---- one record at a time ----
 * The reader's record step without the text: a list built in memory (the
 * model's rows, through oplist_write.h's cells) is validated by the same
 * code, with the same messages, as the text it would write. */
typedef struct rl_ops_rows rl_ops_rows;

/* Takes the N header cells COLS of the list NAME (named in messages; the
 * header on line LINE), with SYMBOLS as rl_ops_sink's names (NULL: none).
 * Returns 0 with *OUT (free with rl_ops_rows_free), or a negative status
 * with *OUT NULL: RL_ERR_PARSE (a header error in ERRS, as rl_ops_read
 * says it) or RL_ERR_NOMEM. NAME and SYMBOLS are borrowed. */
int rl_ops_rows_new(const char *name, size_t line, const char *const *cols, size_t n,
                    const struct rl_symbols *symbols, rl_ops_rows **out,
                    struct rl_errlist *errs);

/* The header as rl_ops_read hands it to its sink; valid while R lives. */
const struct rl_ops_header *rl_ops_rows_header(const rl_ops_rows *r);

/* Turns the N cells of the record on line LINE into *OP: the checks, the
 * defaults and the messages of rl_ops_read ("NAME:LINE: column 'X': ...").
 * Returns 0, or the negative status of the error added to ERRS (a record
 * the reader would refuse; RL_ERR_NOMEM). OP's strings point into R, valid
 * until the next call. */
int rl_ops_row(rl_ops_rows *r, size_t line, const char *const *cells, size_t n,
               struct rl_op *op, struct rl_errlist *errs);

void rl_ops_rows_free(rl_ops_rows *r);

/* A whole op list in memory. Strings belong to the list. */
struct rl_oplist {
	struct rl_op *ops;
	size_t n;
	size_t nextra;
	char **extra_names;
	int has_measured;
	int has_host;
	char **strings; /* every string the ops point to */
	size_t nstrings;
};

/* Reads all of F into *LIST (caller-owned; release with rl_oplist_release,
 * also after a failure). Returns as rl_ops_read. */
int rl_oplist_read(FILE *f, const char *name, struct rl_oplist *list,
                   struct rl_errlist *errs);
void rl_oplist_release(struct rl_oplist *list);

#endif
