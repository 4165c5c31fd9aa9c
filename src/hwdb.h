/* hwdb.h - the device database: GPUs and runtime profiles, read from hwdb/.
 *
 * A device file (ID.device) and a runtime file (NAME.runtime) are small
 * commented "key = value ; source" texts (docs/hwdb-format.md). Every number
 * keeps its source text, so that "roofline hw show" can say where it came
 * from. Strings in a loaded struct are owned by it and freed by its _release;
 * pointers returned by rl_hwdb accessors are borrowed and valid until
 * rl_hwdb_free().
 */
#ifndef RL_HWDB_H
#define RL_HWDB_H

#include <stddef.h>
#include <stdio.h>

#include "dtype.h"
#include "err.h"
#include "op.h"

/* Numeric device keys. The first RL_PIPE_COUNT entries are the pipes' peaks,
 * in the order of enum rl_pipe, so a pipe indexes its own key. */
enum rl_hw_key {
	RL_HW_COMPUTE_CAPABILITY = RL_PIPE_COUNT,
	RL_HW_SM_COUNT,
	RL_HW_BOOST_CLOCK_MHZ,
	RL_HW_TENSOR_CLOCK_MHZ,
	RL_HW_MEMORY_GIB,
	RL_HW_MEM_BANDWIDTH_GBS,
	RL_HW_L2_MIB,
	RL_HW_L2_BANDWIDTH_GBS,
	RL_HW_MIN_KERNEL_US,
	RL_HW_MEM_READ_BANDWIDTH_GBS,  /* optional: a read-only stream's bandwidth */
	RL_HW_MEM_WRITE_BANDWIDTH_GBS, /* optional: a write-only stream's */
	RL_HW_NVLINK_BANDWIDTH_GBS,    /* optional: NVLink per GPU, per direction */
	RL_HW_PCIE_BANDWIDTH_GBS,      /* optional: the host link, per direction */
	RL_HW_NUM_COUNT
};

struct rl_hwval {
	int present;
	double value;
	char *text;   /* the value as written */
	char *source; /* with source labels expanded */
};

struct rl_kvfile;

/* From a line of KV (kvfile.h) whose key is KEY: a non-negative number with
 * its mandatory source into *V, which takes SRC (also on error). A key given
 * twice, a bad number or a missing source is an error "PATH:LINE: key ...".
 * For the files of hwdb/: devices, runtimes and efficiency profiles. */
int rl_hwval_set(struct rl_kvfile *kv, struct rl_hwval *v, const char *key, const char *val,
                 char *src, struct rl_err *err);

/* The same for a text value into *SLOT (malloc'ed); SRC is freed. */
int rl_kv_set_string(struct rl_kvfile *kv, char **slot, const char *key, const char *val,
                     char *src, struct rl_err *err);

struct rl_device {
	char *id, *aliases, *name, *vendor, *arch;
	char *path; /* the file it was read from */
	struct rl_hwval num[RL_HW_NUM_COUNT];
	/* "datasheet.KEY" of a calibrated file (roofline calibrate): the
	 * datasheet figure kept beside the measured one in num[KEY]. */
	struct rl_hwval datasheet[RL_HW_NUM_COUNT];
};

/* Which roofs a calibrated device predicts with. */
enum rl_roofs {
	RL_ROOFS_MEASURED,  /* num[], as the file has them */
	RL_ROOFS_DATASHEET, /* datasheet.KEY wherever the file has one */
};

struct rl_runtime {
	char *id, *name;
	char *path;
	struct rl_hwval host_overhead_us; /* the default of every kind */
	/* "host_overhead_us.KEY": the host cost of an op of that kind or path
	 * (enum rl_host_key, op.h), where the profile knows it (present); else
	 * a path's kind's, else the default */
	struct rl_hwval host_kind_us[RL_HOST_KEY_COUNT];
	/* "host_extra_us.KEY" (a profile fitted from a trace, hostfit.h): the
	 * host time one call of that kind adds, past host_overhead_us.KEY, when
	 * it runs at input shapes the process has not run before (a library's
	 * plan or cache for the new shape); present where the trace showed it */
	struct rl_hwval host_extra_us[RL_HOST_KEY_COUNT];
	/* "compiled": 1 when the stack's kernels are torch.compile's (inductor's
	 * code), which runs a one-row weight-only int8 GEMM as one fused
	 * dequantising GEMV (expected.c); absent or 0: eager PyTorch's kernels */
	struct rl_hwval compiled;
};

/* The numeric device keys in documentation order (docs/hwdb-format.md):
 * I from 0 to RL_HW_NUM_COUNT - 1. */
enum rl_hw_key rl_hw_key_at(size_t i);

/* The key name of a numeric device key ("mem_bandwidth_gbs"). */
const char *rl_hw_key_name(enum rl_hw_key k);

/* Checks a value V of key K against the physically sensible range of that
 * key (docs/hwdb-format.md, "Ranges"): a figure outside it is a typo or a
 * broken measurement, and would turn totals into inf or NaN. 0 is accepted
 * for a pipe's peak (the pipe is absent). Returns 0, or RL_ERR_RANGE with a
 * message "V UNIT is outside LO..HI" (no key name, no location). */
int rl_hw_check_range(enum rl_hw_key k, double v, struct rl_err *err);

/* The largest host overhead per launch accepted, from a runtime file or
 * --host-overhead-us: one second, far above any host cost (a few us). */
#define RL_HOST_OVERHEAD_US_MAX 1e6

/* Checks a host overhead per launch (us): 0 to RL_HOST_OVERHEAD_US_MAX.
 * Returns 0 or RL_ERR_RANGE with a message as rl_hw_check_range. */
int rl_host_overhead_check(double us, struct rl_err *err);

/* Visits every device key in documentation order, string keys included: for
 * each, calls FN with the key name, its value text (NULL when absent) and its
 * source (NULL for string keys). A key with a datasheet figure beside it is
 * followed by "datasheet.KEY". Used by writers of "hw show". */
void rl_device_each(const struct rl_device *d,
                    void (*fn)(const char *key, const char *value,
                               const char *source, void *user),
                    void *user);

/* Reads the device file PATH into *D (caller-owned, released with
 * rl_device_release). Unknown keys, numbers without a source, bad numbers and
 * missing required keys are errors with "PATH:LINE: ..." messages. Returns 0,
 * RL_ERR_IO or RL_ERR_PARSE. */
int rl_device_load(const char *path, struct rl_device *d, struct rl_err *err);
void rl_device_release(struct rl_device *d);

/* Deep-copies SRC into *DST (released with rl_device_release). Returns 0 or
 * RL_ERR_NOMEM. */
int rl_device_copy(struct rl_device *dst, const struct rl_device *src, struct rl_err *err);

/* Nonzero when D keeps datasheet figures beside measured ones (a file
 * written by roofline calibrate). */
int rl_device_calibrated(const struct rl_device *d);

/* Makes D predict with the roofs WHICH names: RL_ROOFS_DATASHEET swaps each
 * measured value for its datasheet figure (and keeps the measured one in
 * datasheet[]), and drops a measured mem_read_bandwidth_gbs or
 * mem_write_bandwidth_gbs that has no datasheet figure (a datasheet gives one
 * bandwidth: mem_bandwidth_gbs then applies to every access mix);
 * RL_ROOFS_MEASURED leaves D as it is. Either way, a device
 * that is not calibrated is an error (RL_ERR_ARG, the message says so), as
 * the choice means nothing for it. */
int rl_device_roofs(struct rl_device *d, enum rl_roofs which, struct rl_err *err);

/* Parses "measured" or "datasheet"; 0 or RL_ERR_ARG. */
int rl_roofs_parse(const char *s, enum rl_roofs *out);

/* Writes D to F as a device file (docs/hwdb-format.md) that rl_device_load
 * reads back: HEADER (may be NULL; several lines allowed) as '#' comment
 * lines, then every key D has, each number with its source. Returns 0 or
 * RL_ERR_IO. */
int rl_device_write(FILE *f, const struct rl_device *d, const char *header);

/* The dense peak of pipe P in FLOP/s (OP/s for int8), or 0 when D lacks it. */
double rl_device_peak_flops(const struct rl_device *d, enum rl_pipe p);

/* Peak device-memory bandwidth in bytes/s. */
double rl_device_bandwidth_bytes_per_s(const struct rl_device *d);

/* The host cost per launched kernel (us) of an op of host key K (an op kind,
 * or a path of one: enum rl_host_key, op.h) under RT: its
 * host_overhead_us.K where the profile has one, else a path's kind's, else
 * host_overhead_us. A fusion group (RL_KIND_FUSED) is one elementwise
 * kernel: pointwise's. */
double rl_runtime_host_us(const struct rl_runtime *rt, int k);

/* The host time (us) one call of host key K adds under RT when it runs at
 * input shapes new to the process (an op list's fresh calls): its
 * host_extra_us.K, else a path's kind's, else 0. */
double rl_runtime_extra_us(const struct rl_runtime *rt, int k);

/* 1 when RT's kernels are torch.compile's (its "compiled" key), else 0 (RT
 * NULL included). */
int rl_runtime_compiled(const struct rl_runtime *rt);

/* Reads the runtime profile PATH into *RT: id, name, host_overhead_us
 * (required) and host_overhead_us.KIND and host_extra_us.KIND for any op
 * kind (rl_kind_name: not "fused"), each checked as rl_host_overhead_check, and
 * compiled (0 or 1). An unknown key or kind
 * is an error naming it. Returns 0, RL_ERR_IO or RL_ERR_PARSE. */
int rl_runtime_load(const char *path, struct rl_runtime *rt, struct rl_err *err);
void rl_runtime_release(struct rl_runtime *rt);

/* A loaded database directory. */
typedef struct rl_hwdb rl_hwdb;

struct rl_hwsystem;

/* Loads every *.device, *.runtime and *.system file of DIR (hwsystem.h),
 * sorted by id. A file that fails to load fails the whole open (the
 * database must be trustworthy), and so does a system whose gpu is not a
 * device of DIR or whose id is also a device's name. Returns 0, RL_ERR_IO,
 * RL_ERR_PARSE or RL_ERR_NOMEM. */
int rl_hwdb_open(const char *dir, rl_hwdb **out, struct rl_err *err);
void rl_hwdb_free(rl_hwdb *db);

const char *rl_hwdb_dir(const rl_hwdb *db);
size_t rl_hwdb_device_count(const rl_hwdb *db);
const struct rl_device *rl_hwdb_device(const rl_hwdb *db, size_t i);
size_t rl_hwdb_runtime_count(const rl_hwdb *db);
const struct rl_runtime *rl_hwdb_runtime(const rl_hwdb *db, size_t i);

/* Finds a device by id or alias, case-insensitively. On a miss, returns NULL
 * and sets ERR (RL_ERR_NOTFOUND) to a message naming the closest ids. */
const struct rl_device *rl_hwdb_find_device(const rl_hwdb *db, const char *name,
                                            struct rl_err *err);

size_t rl_hwdb_system_count(const rl_hwdb *db);
const struct rl_hwsystem *rl_hwdb_system(const rl_hwdb *db, size_t i);

/* Finds a system by id, case-insensitively; NULL when none (ERR set to
 * RL_ERR_NOTFOUND, a message naming the systems). */
const struct rl_hwsystem *rl_hwdb_find_system(const rl_hwdb *db, const char *name,
                                              struct rl_err *err);

/* The device of system S's GPUs (rl_hwdb_open checked that there is one). */
const struct rl_device *rl_hwdb_system_gpu(const rl_hwdb *db, const struct rl_hwsystem *s);

/* Finds a runtime profile by id; on a miss, as rl_hwdb_find_device. */
const struct rl_runtime *rl_hwdb_find_runtime(const rl_hwdb *db, const char *name,
                                              struct rl_err *err);

#endif
