/* json.h - small JSON helpers: for writing with yajl_gen, strings, numbers
 * in the project's number format (fmt.h) and key/value pairs, so writers
 * read as a list of fields; for reading with yajl's tree parser, a whole
 * file as one string and an object's member by key. */
#ifndef RL_JSON_H
#define RL_JSON_H

#include <stdint.h>
#include <stdio.h>

#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

#include "err.h"

/* A string (S not NULL). */
void rl_json_str(yajl_gen g, const char *s);

/* A number as rl_fmt_num writes it; null when V is not finite. */
void rl_json_num(yajl_gen g, double v);

/* A key and a string value; a NULL value is written as null. */
void rl_json_kv(yajl_gen g, const char *key, const char *v);

/* A key and a number value. */
void rl_json_kn(yajl_gen g, const char *key, double v);

/* A key and an integer value, written in full (a count past 2^53, which
 * rl_json_kn would round). */
void rl_json_ku(yajl_gen g, const char *key, uint64_t v);

/* A measured value to 7 significant digits (more than a timing holds: CUDA
 * events resolve about 0.5 us), and the same after a key; null when V is
 * not finite. No helper here writes inf or nan, which are not JSON (a
 * recording with 'inf' could not be read back, issue 21). */
void rl_json_num7(yajl_gen g, double v);
void rl_json_k7(yajl_gen g, const char *key, double v);

/* Moves what G has buffered to OUT and clears it. */
void rl_json_flush(yajl_gen g, FILE *out);

/* The member KEY of the object OBJ, or NULL. */
yajl_val rl_json_member(yajl_val obj, const char *key);

/* The deepest nesting of arrays and objects rl_json_parse accepts. Bench
 * and validate recordings nest 4 levels (a recording, its entries, an
 * entry, its derived figures), Hugging Face configs 3 to 5 (a multimodal
 * model's text_config and its rope_scaling); 64 leaves room for any real
 * file. A cap is needed because yajl frees its tree by recursion: 400,000
 * nested arrays (800 KB) overflowed the stack (issue 21). */
#define RL_JSON_MAX_DEPTH 64

/* Parses TEXT (NUL-terminated), read from NAME (for messages), into a tree
 * of yajl values, freed with yajl_tree_free. The nesting depth is checked
 * first, by a scan that skips strings, so that no deeper tree is built:
 * "NAME:LINE:COL: nesting deeper than 64 levels" (the bracket that went
 * past the cap). Text yajl refuses gives "NAME: not JSON (yajl's reason)".
 * NULL on error, RL_ERR_PARSE in ERR. */
yajl_val rl_json_parse(const char *text, const char *name, struct rl_err *err);

/* Reads all of PATH ("-": standard input), at most 64 MiB, as a
 * NUL-terminated string (malloc'ed), refusing NUL bytes; WHAT names the
 * expected content in messages ("a bench recording"). NULL on error
 * (RL_ERR_IO, RL_ERR_PARSE or RL_ERR_NOMEM in ERR). */
char *rl_json_slurp(const char *path, const char *what, struct rl_err *err);

/* A generator that prints into a buffer of its own, moved to OUT when it is
 * full and by rl_json_writer_flush. yajl's own buffer grows by one call per
 * token (a quote, a colon, a comma), each checking its capacity: on the
 * op-list report that was 15 % of the instructions (callgrind,
 * docs/performance.md). */
struct rl_json_writer {
	yajl_gen g;
	FILE *out;
	size_t len;
	char buf[1 << 16];
};

/* A writer on OUT (not owned); NULL when out of memory. Free with
 * rl_json_writer_free, which accepts NULL and does not flush. */
struct rl_json_writer *rl_json_writer_new(FILE *out);

/* Moves the buffered text to W's stream. */
void rl_json_writer_flush(struct rl_json_writer *w);

void rl_json_writer_free(struct rl_json_writer *w);

#endif
