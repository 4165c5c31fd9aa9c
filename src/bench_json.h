/* bench_json.h - the JSON pieces the recordings (bench, validate) share
 * (bench_json.c): a recording's opening and the device's attribute set as a
 * JSON object, written and read back. The generic helpers are in json.h. */
#ifndef RL_BENCH_JSON_H
#define RL_BENCH_JSON_H

#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

#include "err.h"
#include "gpu.h"

/* A new pretty-printing generator with the opening of a recording written:
 * "{", "format", "roofline_version", "date" and "gpu". NULL when out of
 * memory. */
yajl_gen rl_bench_json_recording(const char *format, const char *version, const char *date,
                                 const struct rl_gpu *gpu);

/* Writes "gpu": {attributes...} (a key and its object) to G. */
void rl_bench_json_gpu(yajl_gen g, const struct rl_gpu *gpu);

/* Reads the object V (NULL: missing) written by rl_bench_json_gpu into *GPU;
 * errors name PATH and "gpu.ATTRIBUTE". */
int rl_bench_json_read_gpu(yajl_val v, const char *path, struct rl_gpu *gpu, struct rl_err *err);

#endif
