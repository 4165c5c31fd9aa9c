/* json.h - small helpers for writing JSON with yajl_gen: strings of known
 * length, numbers in the project's number format (fmt.h), and key/value
 * pairs, so writers read as a list of fields. */
#ifndef RL_JSON_H
#define RL_JSON_H

#include <stdio.h>

#include <yajl/yajl_gen.h>

/* A string (S not NULL). */
void rl_json_str(yajl_gen g, const char *s);

/* A number as rl_fmt_num writes it; null when V is not finite. */
void rl_json_num(yajl_gen g, double v);

/* A key and a string value; a NULL value is written as null. */
void rl_json_kv(yajl_gen g, const char *key, const char *v);

/* A key and a number value. */
void rl_json_kn(yajl_gen g, const char *key, double v);

/* Moves what G has buffered to OUT and clears it. */
void rl_json_flush(yajl_gen g, FILE *out);

/* A generator that prints into a buffer of its own, moved to OUT when it is
 * full and by rl_json_writer_flush. yajl's own buffer grows by one append per
 * token (a key, a colon, a comma); on a million-op report those appends were
 * 40 % of the time (callgrind, docs/performance.md). */
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
