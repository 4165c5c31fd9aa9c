/* hwdb.c - reading device and runtime files, and looking devices up (see hwdb.h). */
#include "config.h"

#include "hwdb.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hwsystem.h"
#include "kvfile.h"
#include "num.h"

/* Documentation order of the numeric keys (docs/hwdb-format.md). */
static const struct {
	enum rl_hw_key key;
	const char *name;
} num_keys[] = {
	{RL_HW_COMPUTE_CAPABILITY, "compute_capability"},
	{RL_HW_SM_COUNT, "sm_count"},
	{RL_HW_BOOST_CLOCK_MHZ, "boost_clock_mhz"},
	{RL_HW_TENSOR_CLOCK_MHZ, "tensor_clock_mhz"},
	{RL_HW_MEMORY_GIB, "memory_gib"},
	{RL_HW_MEM_BANDWIDTH_GBS, "mem_bandwidth_gbs"},
	{RL_HW_MEM_READ_BANDWIDTH_GBS, "mem_read_bandwidth_gbs"},
	{RL_HW_MEM_WRITE_BANDWIDTH_GBS, "mem_write_bandwidth_gbs"},
	{RL_HW_L2_MIB, "l2_mib"},
	{RL_HW_L2_BANDWIDTH_GBS, "l2_bandwidth_gbs"},
	{(enum rl_hw_key)RL_PIPE_FP64_VECTOR, "fp64_vector_tflops"},
	{(enum rl_hw_key)RL_PIPE_FP64_TENSOR, "fp64_tensor_tflops"},
	{(enum rl_hw_key)RL_PIPE_FP32_VECTOR, "fp32_vector_tflops"},
	{(enum rl_hw_key)RL_PIPE_FP16_VECTOR, "fp16_vector_tflops"},
	{(enum rl_hw_key)RL_PIPE_BF16_VECTOR, "bf16_vector_tflops"},
	{(enum rl_hw_key)RL_PIPE_TF32_TENSOR, "tf32_tensor_tflops"},
	{(enum rl_hw_key)RL_PIPE_FP16_TENSOR, "fp16_tensor_tflops"},
	{(enum rl_hw_key)RL_PIPE_BF16_TENSOR, "bf16_tensor_tflops"},
	{(enum rl_hw_key)RL_PIPE_FP8_TENSOR, "fp8_tensor_tflops"},
	{(enum rl_hw_key)RL_PIPE_INT8_TENSOR, "int8_tensor_tops"},
	{RL_HW_MIN_KERNEL_US, "min_kernel_us"},
	{RL_HW_NVLINK_BANDWIDTH_GBS, "nvlink_bandwidth_gbs"},
	{RL_HW_PCIE_BANDWIDTH_GBS, "pcie_bandwidth_gbs"},
};
#define N_NUM_KEYS (sizeof(num_keys) / sizeof(num_keys[0]))

/* The prefix of a datasheet figure kept beside a measured one. */
#define DATASHEET "datasheet."

enum rl_hw_key rl_hw_key_at(size_t i)
{
	return num_keys[i].key;
}

const char *rl_hw_key_name(enum rl_hw_key k)
{
	size_t i;

	for (i = 0; i < N_NUM_KEYS; i++)
		if (num_keys[i].key == k)
			return num_keys[i].name;
	return "?";
}

/* Physically sensible ranges (docs/hwdb-format.md, "Ranges"): several orders
 * of magnitude around today's GPUs on both sides, so that no real device is
 * refused, yet no figure can overflow a time or a share to inf or NaN: times
 * are at most bytes / (1e-3 GB/s) or flops / (1e-6 TFLOPS). */
static const struct {
	double lo, hi;
	const char *unit;
} ranges[RL_HW_NUM_COUNT] = {
	[RL_PIPE_FP64_VECTOR] = {1e-6, 1e7, "TFLOPS"},
	[RL_PIPE_FP64_TENSOR] = {1e-6, 1e7, "TFLOPS"},
	[RL_PIPE_FP32_VECTOR] = {1e-6, 1e7, "TFLOPS"},
	[RL_PIPE_FP16_VECTOR] = {1e-6, 1e7, "TFLOPS"},
	[RL_PIPE_BF16_VECTOR] = {1e-6, 1e7, "TFLOPS"},
	[RL_PIPE_TF32_TENSOR] = {1e-6, 1e7, "TFLOPS"},
	[RL_PIPE_FP16_TENSOR] = {1e-6, 1e7, "TFLOPS"},
	[RL_PIPE_BF16_TENSOR] = {1e-6, 1e7, "TFLOPS"},
	[RL_PIPE_FP8_TENSOR] = {1e-6, 1e7, "TFLOPS"},
	[RL_PIPE_INT8_TENSOR] = {1e-6, 1e7, "TOPS"},
	[RL_HW_COMPUTE_CAPABILITY] = {1, 100, ""},
	[RL_HW_SM_COUNT] = {1, 1e6, "SMs"},
	[RL_HW_BOOST_CLOCK_MHZ] = {1, 1e5, "MHz"},
	[RL_HW_TENSOR_CLOCK_MHZ] = {1, 1e5, "MHz"},
	[RL_HW_MEMORY_GIB] = {1e-3, 1e6, "GiB"},
	[RL_HW_MEM_BANDWIDTH_GBS] = {1e-3, 1e7, "GB/s"},
	[RL_HW_MEM_READ_BANDWIDTH_GBS] = {1e-3, 1e7, "GB/s"},
	[RL_HW_MEM_WRITE_BANDWIDTH_GBS] = {1e-3, 1e7, "GB/s"},
	[RL_HW_L2_MIB] = {1e-3, 1e6, "MiB"},
	[RL_HW_L2_BANDWIDTH_GBS] = {1e-3, 1e7, "GB/s"},
	[RL_HW_MIN_KERNEL_US] = {1e-3, 1e6, "us"},
	[RL_HW_NVLINK_BANDWIDTH_GBS] = {1e-3, 1e7, "GB/s"},
	[RL_HW_PCIE_BANDWIDTH_GBS] = {1e-3, 1e7, "GB/s"},
};

static int out_of_range(double v, double lo, double hi, const char *unit, struct rl_err *err)
{
	return rl_err_set(err, RL_ERR_RANGE, "%g%s%s is outside the sensible range %g..%g%s%s", v,
	                  *unit ? " " : "", unit, lo, hi, *unit ? " " : "", unit);
}

int rl_hw_check_range(enum rl_hw_key k, double v, struct rl_err *err)
{
	double lo, hi;

	if ((unsigned)k >= RL_HW_NUM_COUNT)
		return rl_err_set(err, RL_ERR_RANGE, "unknown key");
	lo = ranges[k].lo;
	hi = ranges[k].hi;
	if ((int)k < RL_PIPE_COUNT && v == 0)
		return 0; /* an absent pipe */
	if (v >= lo && v <= hi) /* false for NaN */
		return 0;
	return out_of_range(v, lo, hi, ranges[k].unit, err);
}

int rl_host_overhead_check(double us, struct rl_err *err)
{
	if (us >= 0 && us <= RL_HOST_OVERHEAD_US_MAX)
		return 0;
	return out_of_range(us, 0, RL_HOST_OVERHEAD_US_MAX, "us", err);
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p != NULL)
		memcpy(p, s, n);
	return p;
}

int rl_hwval_set(struct rl_kvfile *kv, struct rl_hwval *v, const char *key, const char *val,
                 char *src, struct rl_err *err)
{
	struct rl_err e;

	if (v->present) {
		free(src);
		return rl_err_set(err, RL_ERR_PARSE, "%s:%zu: key '%s' given twice",
		                  kv->path, kv->lineno, key);
	}
	if (rl_parse_nonneg(val, &v->value, &e) < 0) {
		free(src);
		return rl_err_set(err, RL_ERR_PARSE, "%s:%zu: key '%s': %s", kv->path,
		                  kv->lineno, key, e.msg);
	}
	if (src == NULL || *src == '\0') {
		free(src);
		return rl_err_set(err, RL_ERR_PARSE,
		                  "%s:%zu: key '%s': a number needs its source after ' ; '",
		                  kv->path, kv->lineno, key);
	}
	v->text = xstrdup(val);
	v->source = src;
	v->present = 1;
	if (v->text == NULL)
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	return 0;
}

int rl_kv_set_string(struct rl_kvfile *kv, char **slot, const char *key, const char *val,
                     char *src, struct rl_err *err)
{
	free(src);
	if (*slot != NULL)
		return rl_err_set(err, RL_ERR_PARSE, "%s:%zu: key '%s' given twice",
		                  kv->path, kv->lineno, key);
	if (*val == '\0')
		return rl_err_set(err, RL_ERR_PARSE, "%s:%zu: key '%s' has no value",
		                  kv->path, kv->lineno, key);
	*slot = xstrdup(val);
	return *slot == NULL ? rl_err_set(err, RL_ERR_NOMEM, "out of memory") : 0;
}

static const char *const device_string_keys[] = {"id", "aliases", "name", "vendor", "arch"};

static char **device_string_slot(struct rl_device *d, size_t i)
{
	char **slots[] = {&d->id, &d->aliases, &d->name, &d->vendor, &d->arch};

	return slots[i];
}

int rl_device_load(const char *path, struct rl_device *d, struct rl_err *err)
{
	static const enum rl_hw_key required[] = {
		RL_HW_SM_COUNT, RL_HW_MEM_BANDWIDTH_GBS,
		(enum rl_hw_key)RL_PIPE_FP32_VECTOR, RL_HW_MIN_KERNEL_US};
	struct rl_kvfile kv;
	char *key, *val, *src;
	size_t i;
	int rc;

	memset(d, 0, sizeof(*d));
	rc = rl_kv_open(&kv, path, err);
	if (rc < 0)
		return rc;
	while ((rc = rl_kv_next(&kv, &key, &val, &src, err)) > 0) {
		for (i = 0; i < 5; i++)
			if (strcmp(key, device_string_keys[i]) == 0)
				break;
		if (i < 5) {
			rc = rl_kv_set_string(&kv, device_string_slot(d, i), key, val, src, err);
		} else {
			int ds = strncmp(key, DATASHEET, sizeof(DATASHEET) - 1) == 0;
			const char *name = ds ? key + sizeof(DATASHEET) - 1 : key;

			for (i = 0; i < N_NUM_KEYS; i++)
				if (strcmp(name, num_keys[i].name) == 0)
					break;
			if (i == N_NUM_KEYS) {
				free(src);
				rc = rl_err_set(err, RL_ERR_PARSE, "%s:%zu: unknown key '%s'",
				                path, kv.lineno, key);
			} else {
				struct rl_hwval *v = ds ? d->datasheet : d->num;

				struct rl_err e;

				rc = rl_hwval_set(&kv, &v[num_keys[i].key], key, val, src, err);
				if (rc == 0 &&
				    rl_hw_check_range(num_keys[i].key, v[num_keys[i].key].value, &e) < 0)
					rc = rl_err_set(err, RL_ERR_PARSE, "%s:%zu: key '%s': %s", path,
					                kv.lineno, key, e.msg);
			}
		}
		if (rc < 0)
			break;
	}
	rl_kv_close(&kv);
	if (rc == 0 && (d->id == NULL || d->name == NULL))
		rc = rl_err_set(err, RL_ERR_PARSE, "%s: missing key '%s'", path,
		                d->id == NULL ? "id" : "name");
	for (i = 0; rc == 0 && i < N_NUM_KEYS; i++)
		if (d->datasheet[num_keys[i].key].present && !d->num[num_keys[i].key].present)
			rc = rl_err_set(err, RL_ERR_PARSE,
			                "%s: key '%s%s' is the datasheet figure kept beside a "
			                "measured '%s', which is missing",
			                path, DATASHEET, num_keys[i].name, num_keys[i].name);
	for (i = 0; rc == 0 && i < sizeof(required) / sizeof(required[0]); i++)
		if (!d->num[required[i]].present || d->num[required[i]].value <= 0)
			rc = rl_err_set(err, RL_ERR_PARSE, "%s: key '%s' is required and must be above 0",
			                path, rl_hw_key_name(required[i]));
	if (rc == 0)
		d->path = xstrdup(path);
	if (rc < 0)
		rl_device_release(d);
	return rc;
}

void rl_device_release(struct rl_device *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < 5; i++)
		free(*device_string_slot(d, i));
	free(d->path);
	for (i = 0; i < RL_HW_NUM_COUNT; i++) {
		free(d->num[i].text);
		free(d->num[i].source);
		free(d->datasheet[i].text);
		free(d->datasheet[i].source);
	}
	memset(d, 0, sizeof(*d));
}

static int copy_val(struct rl_hwval *dst, const struct rl_hwval *src)
{
	*dst = *src;
	if (!src->present)
		return 0;
	dst->text = xstrdup(src->text);
	dst->source = xstrdup(src->source);
	return dst->text == NULL || dst->source == NULL ? RL_ERR_NOMEM : 0;
}

int rl_device_copy(struct rl_device *dst, const struct rl_device *src, struct rl_err *err)
{
	size_t i;
	int bad = 0;

	memset(dst, 0, sizeof(*dst));
	for (i = 0; i < 5; i++) {
		const char *s = *device_string_slot((struct rl_device *)src, i);

		if (s != NULL && (*device_string_slot(dst, i) = xstrdup(s)) == NULL)
			bad = 1;
	}
	if (src->path != NULL && (dst->path = xstrdup(src->path)) == NULL)
		bad = 1;
	for (i = 0; i < RL_HW_NUM_COUNT; i++) {
		bad |= copy_val(&dst->num[i], &src->num[i]) < 0;
		bad |= copy_val(&dst->datasheet[i], &src->datasheet[i]) < 0;
	}
	if (bad) {
		rl_device_release(dst);
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	}
	return 0;
}

int rl_device_calibrated(const struct rl_device *d)
{
	size_t i;

	for (i = 0; i < RL_HW_NUM_COUNT; i++)
		if (d->datasheet[i].present)
			return 1;
	return 0;
}

int rl_device_roofs(struct rl_device *d, enum rl_roofs which, struct rl_err *err)
{
	size_t i;

	if (!rl_device_calibrated(d))
		return rl_err_set(err, RL_ERR_ARG,
		                  "--roofs: device '%s' has datasheet roofs only (a device file "
		                  "written by 'roofline calibrate' has both)",
		                  d->id);
	for (i = 0; which == RL_ROOFS_DATASHEET && i < RL_HW_NUM_COUNT; i++) {
		if (d->datasheet[i].present) {
			struct rl_hwval t = d->num[i];

			d->num[i] = d->datasheet[i];
			d->datasheet[i] = t;
		} else if (i == RL_HW_MEM_READ_BANDWIDTH_GBS ||
		           i == RL_HW_MEM_WRITE_BANDWIDTH_GBS) {
			/* measured only: the datasheet's one bandwidth applies */
			free(d->num[i].text);
			free(d->num[i].source);
			memset(&d->num[i], 0, sizeof(d->num[i]));
		}
	}
	return 0;
}

int rl_roofs_parse(const char *s, enum rl_roofs *out)
{
	if (strcmp(s, "measured") == 0)
		*out = RL_ROOFS_MEASURED;
	else if (strcmp(s, "datasheet") == 0)
		*out = RL_ROOFS_DATASHEET;
	else
		return RL_ERR_ARG;
	return 0;
}

void rl_device_each(const struct rl_device *d,
                    void (*fn)(const char *key, const char *value,
                               const char *source, void *user),
                    void *user)
{
	size_t i;

	for (i = 0; i < 5; i++)
		fn(device_string_keys[i], *device_string_slot((struct rl_device *)d, i),
		   NULL, user);
	for (i = 0; i < N_NUM_KEYS; i++) {
		const struct rl_hwval *v = &d->num[num_keys[i].key];

		const struct rl_hwval *ds = &d->datasheet[num_keys[i].key];

		fn(num_keys[i].name, v->present ? v->text : NULL,
		   v->present ? v->source : NULL, user);
		if (ds->present) {
			char key[64];

			snprintf(key, sizeof(key), "%s%s", DATASHEET, num_keys[i].name);
			fn(key, ds->text, ds->source, user);
		}
	}
}

double rl_device_peak_flops(const struct rl_device *d, enum rl_pipe p)
{
	if (p == RL_PIPE_NONE || !d->num[p].present)
		return 0;
	return d->num[p].value * 1e12;
}

double rl_device_bandwidth_bytes_per_s(const struct rl_device *d)
{
	return d->num[RL_HW_MEM_BANDWIDTH_GBS].value * 1e9;
}

/* The prefix of a runtime's per-kind host cost. */
#define HOST_KIND "host_overhead_us."
#define HOST_EXTRA "host_extra_us."

/* The value of host key K among V[RL_HOST_KEY_COUNT] (a runtime's per-key
 * costs): its own where present, else a path's kind's; NULL where neither
 * is. A fusion group (RL_KIND_FUSED) is one elementwise kernel: pointwise's. */
static const struct rl_hwval *runtime_key(const struct rl_hwval *v, int k)
{
	if (k == RL_KIND_FUSED)
		k = RL_KIND_POINTWISE;
	if (k >= 0 && k < RL_HOST_KEY_COUNT && v[k].present)
		return &v[k];
	if (k >= RL_KIND_COUNT && k < RL_HOST_KEY_COUNT) /* a path: its kind's */
		return runtime_key(v, (int)rl_host_key_kind(k));
	return NULL;
}

double rl_runtime_host_us(const struct rl_runtime *rt, int k)
{
	const struct rl_hwval *v = runtime_key(rt->host_kind_us, k);

	return v != NULL ? v->value : rt->host_overhead_us.value;
}

double rl_runtime_extra_us(const struct rl_runtime *rt, int k)
{
	const struct rl_hwval *v = runtime_key(rt->host_extra_us, k);

	return v != NULL ? v->value : 0;
}

int rl_runtime_compiled(const struct rl_runtime *rt)
{
	return rt != NULL && rt->compiled.present && rt->compiled.value != 0;
}

int rl_runtime_load(const char *path, struct rl_runtime *rt, struct rl_err *err)
{
	struct rl_kvfile kv;
	char *key, *val, *src;
	int rc;

	memset(rt, 0, sizeof(*rt));
	rc = rl_kv_open(&kv, path, err);
	if (rc < 0)
		return rc;
	while ((rc = rl_kv_next(&kv, &key, &val, &src, err)) > 0) {
		if (strcmp(key, "id") == 0)
			rc = rl_kv_set_string(&kv, &rt->id, key, val, src, err);
		else if (strcmp(key, "name") == 0)
			rc = rl_kv_set_string(&kv, &rt->name, key, val, src, err);
		else if (strcmp(key, "host_overhead_us") == 0 ||
		         strncmp(key, HOST_KIND, sizeof(HOST_KIND) - 1) == 0) {
			struct rl_hwval *v = &rt->host_overhead_us;
			struct rl_err e;
			int k;

			if (key[sizeof(HOST_KIND) - 2] == '.') /* host_overhead_us.KEY */
				v = rl_host_key_parse(key + sizeof(HOST_KIND) - 1, &k) == 0
				            ? &rt->host_kind_us[k]
				            : NULL;
			if (v == NULL) {
				free(src);
				rc = rl_err_set(err, RL_ERR_PARSE,
				                "%s:%zu: unknown key '%s' (expected host_overhead_us.KIND, "
				                "KIND one of %s, or host_overhead_us.matmul.fp8)",
				                path, kv.lineno, key, rl_kind_expected());
			} else {
				rc = rl_hwval_set(&kv, v, key, val, src, err);
				if (rc == 0 && rl_host_overhead_check(v->value, &e) < 0)
					rc = rl_err_set(err, RL_ERR_PARSE, "%s:%zu: key '%s': %s", path,
					                kv.lineno, key, e.msg);
			}
		}
		else if (strncmp(key, HOST_EXTRA, sizeof(HOST_EXTRA) - 1) == 0) {
			struct rl_err e;
			int k;

			if (rl_host_key_parse(key + sizeof(HOST_EXTRA) - 1, &k) < 0) {
				free(src);
				rc = rl_err_set(err, RL_ERR_PARSE,
				                "%s:%zu: unknown key '%s' (expected host_extra_us.KIND, KIND "
				                "one of %s)",
				                path, kv.lineno, key, rl_kind_expected());
			} else {
				rc = rl_hwval_set(&kv, &rt->host_extra_us[k], key, val, src, err);
				if (rc == 0 && rl_host_overhead_check(rt->host_extra_us[k].value, &e) < 0)
					rc = rl_err_set(err, RL_ERR_PARSE, "%s:%zu: key '%s': %s", path,
					                kv.lineno, key, e.msg);
			}
		}
		else if (strcmp(key, "compiled") == 0) {
			rc = rl_hwval_set(&kv, &rt->compiled, key, val, src, err);
			if (rc == 0 && rt->compiled.value != 0 && rt->compiled.value != 1)
				rc = rl_err_set(err, RL_ERR_PARSE,
				                "%s:%zu: key 'compiled': '%s' is not 0 or 1 (1: torch.compile's "
				                "kernels, 0: eager's)",
				                path, kv.lineno, val);
		}
		else {
			free(src);
			rc = rl_err_set(err, RL_ERR_PARSE, "%s:%zu: unknown key '%s'", path,
			                kv.lineno, key);
		}
		if (rc < 0)
			break;
	}
	rl_kv_close(&kv);
	if (rc == 0 && (rt->id == NULL || rt->name == NULL || !rt->host_overhead_us.present))
		rc = rl_err_set(err, RL_ERR_PARSE, "%s: a runtime needs 'id', 'name' and 'host_overhead_us'",
		                path);
	if (rc == 0)
		rt->path = xstrdup(path);
	if (rc < 0)
		rl_runtime_release(rt);
	return rc;
}

void rl_runtime_release(struct rl_runtime *rt)
{
	size_t i;

	if (rt == NULL)
		return;
	free(rt->id);
	free(rt->name);
	free(rt->path);
	free(rt->host_overhead_us.text);
	free(rt->host_overhead_us.source);
	free(rt->compiled.text);
	free(rt->compiled.source);
	for (i = 0; i < RL_HOST_KEY_COUNT; i++) {
		free(rt->host_kind_us[i].text);
		free(rt->host_kind_us[i].source);
		free(rt->host_extra_us[i].text);
		free(rt->host_extra_us[i].source);
	}
	memset(rt, 0, sizeof(*rt));
}

/* ---- the database directory ---- */

struct rl_hwdb {
	char *dir;
	struct rl_device *dev;
	size_t ndev;
	struct rl_runtime *rt;
	size_t nrt;
	struct rl_hwsystem *sys;
	size_t nsys;
};

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && strcmp(s + n - m, suffix) == 0;
}

static int cmp_device(const void *a, const void *b)
{
	return strcmp(((const struct rl_device *)a)->id, ((const struct rl_device *)b)->id);
}

static int cmp_system(const void *a, const void *b)
{
	return strcmp(((const struct rl_hwsystem *)a)->id, ((const struct rl_hwsystem *)b)->id);
}

static int cmp_runtime(const void *a, const void *b)
{
	return strcmp(((const struct rl_runtime *)a)->id, ((const struct rl_runtime *)b)->id);
}

/* Nonzero when NAME is the id of D or one of its comma-separated aliases. */
static int matches_name(const struct rl_device *d, const char *name)
{
	const char *p = d->aliases;

	if (strcasecmp(d->id, name) == 0)
		return 1;
	while (p != NULL && *p != '\0') {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		while (len > 0 && isspace((unsigned char)*p))
			p++, len--;
		while (len > 0 && isspace((unsigned char)p[len - 1]))
			len--;
		if (len == strlen(name) && strncasecmp(p, name, len) == 0)
			return 1;
		p = e ? e + 1 : NULL;
	}
	return 0;
}

/* Makes room for one more element after the N in *ARR. */
static int grow(void **arr, size_t n, size_t size, struct rl_err *err)
{
	void *p = realloc(*arr, (n + 1) * size);

	if (p == NULL)
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	*arr = p;
	return 0;
}

int rl_hwdb_open(const char *dir, rl_hwdb **out, struct rl_err *err)
{
	rl_hwdb *db = calloc(1, sizeof(*db));
	DIR *dp;
	struct dirent *de;
	int rc = 0;
	size_t i, j;

	if (db == NULL)
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	db->dir = xstrdup(dir);
	dp = opendir(dir);
	if (dp == NULL) {
		rc = rl_err_set(err, RL_ERR_IO, "cannot open device database '%s': %s", dir,
		                strerror(errno));
		rl_hwdb_free(db);
		return rc;
	}
	while (rc == 0 && (de = readdir(dp)) != NULL) {
		int is_dev = has_suffix(de->d_name, ".device");
		int is_rt = has_suffix(de->d_name, ".runtime");
		int is_sys = has_suffix(de->d_name, ".system");
		char *path;

		if (!is_dev && !is_rt && !is_sys)
			continue;
		/* a fifo, directory or dangling link of that name is skipped */
		rc = rl_kv_scan_entry(dir, de->d_name, &path, err);
		if (rc <= 0)
			continue;
		rc = 0;
		if (is_dev) {
			rc = grow((void **)&db->dev, db->ndev, sizeof(*db->dev), err);
			if (rc == 0 && (rc = rl_device_load(path, &db->dev[db->ndev], err)) == 0)
				db->ndev++;
		} else if (is_sys) {
			rc = grow((void **)&db->sys, db->nsys, sizeof(*db->sys), err);
			if (rc == 0 && (rc = rl_hwsystem_load(path, &db->sys[db->nsys], err)) == 0)
				db->nsys++;
		} else {
			rc = grow((void **)&db->rt, db->nrt, sizeof(*db->rt), err);
			if (rc == 0 && (rc = rl_runtime_load(path, &db->rt[db->nrt], err)) == 0)
				db->nrt++;
		}
		free(path);
	}
	closedir(dp);
	if (rc == 0 && db->ndev > 0)
		qsort(db->dev, db->ndev, sizeof(*db->dev), cmp_device);
	if (rc == 0 && db->nrt > 0)
		qsort(db->rt, db->nrt, sizeof(*db->rt), cmp_runtime);
	if (rc == 0 && db->nsys > 0)
		qsort(db->sys, db->nsys, sizeof(*db->sys), cmp_system);
	/* --hw takes a system or a device: one name must not mean both, and a
	 * system's GPU must be a device of the database. */
	for (i = 0; rc == 0 && i < db->nsys; i++) {
		for (j = 0; rc == 0 && j < db->ndev; j++)
			if (matches_name(&db->dev[j], db->sys[i].id))
				rc = rl_err_set(err, RL_ERR_PARSE, "%s: id '%s' is also a name of %s",
				                db->sys[i].path, db->sys[i].id, db->dev[j].path);
		for (j = 0; rc == 0 && j < i; j++)
			if (strcasecmp(db->sys[j].id, db->sys[i].id) == 0)
				rc = rl_err_set(err, RL_ERR_PARSE, "%s: id '%s' is also the id of %s",
				                db->sys[i].path, db->sys[i].id, db->sys[j].path);
		for (j = 0; rc == 0 && j < db->ndev && !matches_name(&db->dev[j], db->sys[i].gpu); j++)
			;
		if (rc == 0 && j == db->ndev)
			rc = rl_err_set(err, RL_ERR_PARSE,
			                "%s: key 'gpu': '%s' is not a device of %s ('roofline hw list' "
			                "lists them)",
			                db->sys[i].path, db->sys[i].gpu, dir);
	}
	/* An id or alias naming two devices would make look-ups ambiguous. */
	for (i = 0; rc == 0 && i < db->ndev; i++)
		for (j = 0; rc == 0 && j < db->ndev; j++)
			if (i != j && matches_name(&db->dev[j], db->dev[i].id))
				rc = rl_err_set(err, RL_ERR_PARSE,
				                "%s: id '%s' is also a name of %s", db->dev[i].path,
				                db->dev[i].id, db->dev[j].path);
	if (rc < 0) {
		rl_hwdb_free(db);
		return rc;
	}
	*out = db;
	return 0;
}

void rl_hwdb_free(rl_hwdb *db)
{
	size_t i;

	if (db == NULL)
		return;
	for (i = 0; i < db->ndev; i++)
		rl_device_release(&db->dev[i]);
	for (i = 0; i < db->nrt; i++)
		rl_runtime_release(&db->rt[i]);
	for (i = 0; i < db->nsys; i++)
		rl_hwsystem_release(&db->sys[i]);
	free(db->sys);
	free(db->dev);
	free(db->rt);
	free(db->dir);
	free(db);
}

const char *rl_hwdb_dir(const rl_hwdb *db) { return db->dir; }
size_t rl_hwdb_device_count(const rl_hwdb *db) { return db->ndev; }
const struct rl_device *rl_hwdb_device(const rl_hwdb *db, size_t i) { return &db->dev[i]; }
size_t rl_hwdb_runtime_count(const rl_hwdb *db) { return db->nrt; }
const struct rl_runtime *rl_hwdb_runtime(const rl_hwdb *db, size_t i) { return &db->rt[i]; }
size_t rl_hwdb_system_count(const rl_hwdb *db) { return db->nsys; }
const struct rl_hwsystem *rl_hwdb_system(const rl_hwdb *db, size_t i) { return &db->sys[i]; }

const struct rl_hwsystem *rl_hwdb_find_system(const rl_hwdb *db, const char *name,
                                              struct rl_err *err)
{
	char known[256];
	size_t i, used = 0;

	for (i = 0; i < db->nsys; i++)
		if (strcasecmp(db->sys[i].id, name) == 0)
			return &db->sys[i];
	known[0] = '\0';
	for (i = 0; i < db->nsys; i++)
		used += (size_t)snprintf(known + used, used < sizeof(known) ? sizeof(known) - used : 0,
		                         "%s%s", i ? ", " : "", db->sys[i].id);
	rl_err_set(err, RL_ERR_NOTFOUND, "unknown system '%s' (known: %s)", name,
	           db->nsys ? known : "none");
	return NULL;
}

const struct rl_device *rl_hwdb_system_gpu(const rl_hwdb *db, const struct rl_hwsystem *s)
{
	size_t i;

	for (i = 0; i < db->ndev; i++)
		if (matches_name(&db->dev[i], s->gpu))
			return &db->dev[i];
	return NULL;
}

/* Levenshtein distance, case-insensitive, of two short ids. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[64];

	if (la >= 63 || lb >= 63)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			size_t best = diag + cost;

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* How far NAME is from the names in the comma-separated list NAMES (NULL
 * allowed): the smallest edit distance, with a substring counting as 1. */
static size_t name_distance(const char *name, const char *names)
{
	size_t best = (size_t)-1;
	const char *p = names;

	while (p != NULL && *p != '\0') {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char one[64];
		size_t d;

		while (len > 0 && isspace((unsigned char)*p))
			p++, len--;
		while (len > 0 && isspace((unsigned char)p[len - 1]))
			len--;
		if (len > 0 && len < sizeof(one)) {
			memcpy(one, p, len);
			one[len] = '\0';
			d = distance(name, one);
			if (strcasestr(one, name) != NULL || strcasestr(name, one) != NULL)
				d = d < 1 ? d : 1;
			if (d < best)
				best = d;
		}
		p = e ? e + 1 : NULL;
	}
	return best;
}

/* Fills MSG with the (up to) three entries closest to NAME, given each
 * entry's distance DIST[i] and id IDS[i]. */
static void closest(const size_t *dist, const char *const *ids, size_t n, char *msg,
                    size_t len)
{
	size_t best[3] = {(size_t)-1, (size_t)-1, (size_t)-1};
	size_t pick[3] = {0, 0, 0};
	size_t i, k, used = 0;

	for (i = 0; i < n; i++) {
		for (k = 0; k < 3; k++) {
			if (dist[i] < best[k]) {
				memmove(&best[k + 1], &best[k], (2 - k) * sizeof(best[0]));
				memmove(&pick[k + 1], &pick[k], (2 - k) * sizeof(pick[0]));
				best[k] = dist[i];
				pick[k] = i;
				break;
			}
		}
	}
	msg[0] = '\0';
	for (k = 0; k < 3 && k < n; k++)
		used += (size_t)snprintf(msg + used, used < len ? len - used : 0, "%s%s",
		                         k ? ", " : "", ids[pick[k]]);
}

const struct rl_device *rl_hwdb_find_device(const rl_hwdb *db, const char *name,
                                            struct rl_err *err)
{
	const char *ids[256] = {NULL};
	size_t dist[256];
	char near[256];
	size_t i;

	for (i = 0; i < db->ndev; i++)
		if (matches_name(&db->dev[i], name))
			return &db->dev[i];
	for (i = 0; i < db->ndev && i < 256; i++) {
		size_t a = name_distance(name, db->dev[i].aliases);

		ids[i] = db->dev[i].id;
		dist[i] = name_distance(name, db->dev[i].id);
		if (a < dist[i])
			dist[i] = a;
	}
	closest(dist, ids, i, near, sizeof(near));
	rl_err_set(err, RL_ERR_NOTFOUND,
	           "unknown device '%s' in '%s' (closest: %s; 'roofline hw list' lists all)",
	           name, db->dir, i ? near : "none, the database is empty");
	return NULL;
}

const struct rl_runtime *rl_hwdb_find_runtime(const rl_hwdb *db, const char *name,
                                              struct rl_err *err)
{
	char known[256];
	size_t i, used = 0;

	for (i = 0; i < db->nrt; i++)
		if (strcasecmp(db->rt[i].id, name) == 0)
			return &db->rt[i];
	known[0] = '\0';
	for (i = 0; i < db->nrt; i++)
		used += (size_t)snprintf(known + used, used < sizeof(known) ? sizeof(known) - used : 0,
		                         "%s%s", i ? ", " : "", db->rt[i].id);
	rl_err_set(err, RL_ERR_NOTFOUND, "unknown runtime '%s' (known: %s)", name,
	           db->nrt ? known : "none");
	return NULL;
}
