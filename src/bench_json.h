/* bench_json.h - the JSON pieces the recordings share (bench_json.c): the
 * device's attribute set as a JSON object, written and read back. */
#ifndef RL_BENCH_JSON_H
#define RL_BENCH_JSON_H

#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

#include "err.h"
#include "gpu.h"

/* A new pretty-printing generator with the opening of a recording written:
 * "{", "format", "roofline_version", "date" and "gpu". NULL when out of
 * memory. */
yajl_gen rl_json_recording(const char *format, const char *version, const char *date,
                           const struct rl_gpu *gpu);

/* A key and a measured value, to 7 significant digits (more than a timing
 * holds: CUDA events resolve about 0.5 us). */
void rl_json_k7(yajl_gen g, const char *key, double v);

/* Writes "gpu": {attributes...} (a key and its object) to G. */
void rl_json_gpu(yajl_gen g, const struct rl_gpu *gpu);

/* Reads the object V (NULL: missing) written by rl_json_gpu into *GPU;
 * errors name PATH and "gpu.ATTRIBUTE". */
int rl_json_read_gpu(yajl_val v, const char *path, struct rl_gpu *gpu, struct rl_err *err);

/* The member KEY of the object OBJ, or NULL. */
yajl_val rl_json_member(yajl_val obj, const char *key);

/* Reads all of PATH ("-": standard input), at most 64 MiB, as a
 * NUL-terminated string (malloc'ed), refusing NUL bytes; WHAT names the
 * expected content in messages ("a bench recording"). NULL on error. */
char *rl_json_slurp(const char *path, const char *what, struct rl_err *err);

#endif
