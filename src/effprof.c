/* effprof.c - efficiency profiles (see effprof.h). */
#include "config.h"

#include "effprof.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvfile.h"
#include "num.h"

/* A key, its accepted range, and what it means (docs/hwdb-format.md). */
struct key {
	const char *name;
	double lo, hi;
};

static const struct key keys[RL_EP_ROW_FIRST] = {
	[RL_EP_LATENCY_US] = {"latency_us", 0, 100},
	[RL_EP_MEM_ELEMENTWISE] = {"mem.elementwise", 0.01, 1.5},
	[RL_EP_MEM_REDUCTION] = {"mem.reduction", 0.01, 1.5},
	[RL_EP_MEM_GEMM] = {"mem.gemm", 0.01, 1.5},
	[RL_EP_MEM_ATTENTION] = {"mem.attention", 0.01, 1.5},
	[RL_EP_MEM_CONV] = {"mem.conv", 0.01, 1.5},
	[RL_EP_GEMM_LARGE] = {"gemm.large", 0.01, 1.5},
	[RL_EP_GEMM_MEDIUM] = {"gemm.medium", 0.01, 1.5},
	[RL_EP_GEMM_SMALL] = {"gemm.small", 0.01, 1.5},
	[RL_EP_GEMM_THIN] = {"gemm.thin", 0.01, 1.5},
	[RL_EP_GEMM_EPILOGUE] = {"gemm.epilogue", 0, 1},
	[RL_EP_GEMM_ALIGN8] = {"gemm.align8", 0.001, 1.5},
	[RL_EP_GEMM_ALIGN4] = {"gemm.align4", 0.001, 1.5},
	[RL_EP_GEMM_ALIGN2] = {"gemm.align2", 0.001, 1.5},
	[RL_EP_GEMM_VECTOR] = {"gemm.vector", 0.01, 1.5},
	[RL_EP_ATTN_D64] = {"attention.d64", 0.01, 1.5},
	[RL_EP_ATTN_D128] = {"attention.d128", 0.01, 1.5},
	[RL_EP_ATTN_CAUSAL] = {"attention.causal", 0.01, 1.5},
	[RL_EP_ATTN_S_HALF] = {"attention.s_half", 0, 1e6},
	[RL_EP_ATTN_DECODE_CTA_GBS] = {"attention.decode_cta_gbs", 0.01, 1e6},
	[RL_EP_ATTN_DECODE_US] = {"attention.decode_us", 0, 1000},
	[RL_EP_CONV] = {"conv.implicit_gemm", 0.01, 1.5},
	[RL_EP_CONV_UNALIGNED] = {"conv.unaligned", 0.001, 1.5},
	[RL_EP_COPY_PERM_ELEMS] = {"copy.perm.sm_elems_per_us", 0.01, 1e9},
	[RL_EP_COPY_PERM_SECTORS] = {"copy.perm.sm_sectors_per_us", 0.01, 1e9},
	[RL_EP_COPY_STRIDED_US] = {"copy.strided.latency_us", 0, 100},
	[RL_EP_DW_TAPS] = {"conv.depthwise.sm_taps_per_us", 0.01, 1e12},
	[RL_EP_DW_PIXELS] = {"conv.depthwise.sm_pixels_per_us", 0.01, 1e12},
	[RL_EP_DW_STAGE_US] = {"conv.depthwise.stage_us", 0, 100},
	[RL_EP_DW_TAP_US] = {"conv.depthwise.tap_us", 0, 10},
	[RL_EP_CONV_GROUPED] = {"conv.grouped", 0.001, 1.5},
	[RL_EP_GEMM_TF32] = {"gemm.tf32", 0, 2},
	[RL_EP_GEMM_INT8] = {"gemm.int8", 0, 2},
	[RL_EP_GEMM_FP8] = {"gemm.fp8", 0, 2},
	[RL_EP_MEM_GROUPED] = {"mem.grouped_gemm", 0.01, 1.5},
	[RL_EP_GEMM_INT4] = {"gemm.int4_tinygemm", 0, 1.5},
	[RL_EP_MEM_INT4] = {"mem.int4_tinygemm", 0.01, 1.5},
	[RL_EP_ATTN_VECTOR] = {"attention.vector", 0.01, 1.5},
	[RL_EP_GEMM_LATENCY_US] = {"gemm.latency_us", 0, 100},
	[RL_EP_ATTN_DECODE_SPLIT_US] = {"attention.decode_split_us", 0, 1000},
	[RL_EP_GEMM_ALIGN2_LINEAR] = {"gemm.align2_linear", 0.001, 1.5},
	[RL_EP_MEM_NARROW] = {"mem.narrow", 0.01, 1.5},
	[RL_EP_MEM_INT8_GEMV] = {"mem.int8_gemv", 0.01, 1.5},
	[RL_EP_INT8_GEMV_US] = {"gemm.int8_gemv_us", 0, 100},
	[RL_EP_MEM_ATTN_MASK] = {"mem.attention_mask", 0.01, 10},
};

static const char *const path_names[RL_EP_PATH_COUNT] = {
	[RL_EP_SOFTMAX_WARP] = "softmax.warp",
	[RL_EP_SOFTMAX_WARP2] = "softmax.warp2",
	[RL_EP_SOFTMAX_REG] = "softmax.reg",
	[RL_EP_SOFTMAX_SMEM] = "softmax.smem",
	[RL_EP_SOFTMAX_BLOCK] = "softmax.block",
	[RL_EP_LAYERNORM_VEC] = "layernorm.vec",
	[RL_EP_LAYERNORM_SPLIT] = "layernorm.split",
	[RL_EP_REDUCTION_NARROW] = "reduction.narrow",
	[RL_EP_REDUCTION_SHORT] = "reduction.short",
	[RL_EP_REDUCTION_WIDE] = "reduction.wide",
};

static const struct key row_keys[RL_EP_ROW_COUNT] = {
	[RL_EP_ROW_SLOTS] = {"slots_per_sm", 0.01, 1000},
	[RL_EP_ROW_US] = {"row_us", 0, 1000},
	[RL_EP_ROW_SM_RATE] = {"sm_elems_per_us", 0.01, 1e9},
	[RL_EP_ROW_RATE] = {"row_elems_per_us", 0.01, 1e9},
};

static const struct key ref_keys[RL_EP_REF_COUNT] = {
	[RL_EP_REF_CC] = {"gpu.compute_capability", 1, 20},
	[RL_EP_REF_SMS] = {"gpu.sm_count", 1, 100000},
	[RL_EP_REF_MEMORY_GIB] = {"gpu.memory_gib", 0.1, 1e6},
	[RL_EP_REF_CLOCK_MHZ] = {"gpu.boost_clock_mhz", 1, 1e5},
};

/* Row keys are "PATH.VALUE": built once into this table. */
static char row_names[RL_EP_PATH_COUNT * RL_EP_ROW_COUNT][48];

const char *rl_effprof_key(int i)
{
	if (i < 0 || i >= RL_EP_KEY_COUNT)
		return "";
	if (i < RL_EP_ROW_FIRST)
		return keys[i].name;
	i -= RL_EP_ROW_FIRST;
	if (row_names[i][0] == '\0')
		snprintf(row_names[i], sizeof(row_names[i]), "%s.%s",
		         path_names[i / RL_EP_ROW_COUNT], row_keys[i % RL_EP_ROW_COUNT].name);
	return row_names[i];
}

const char *rl_effprof_ref_key(int i)
{
	return i >= 0 && i < RL_EP_REF_COUNT ? ref_keys[i].name : "";
}

static struct key key_of(int i)
{
	struct key k;

	if (i < RL_EP_ROW_FIRST)
		return keys[i];
	k = row_keys[(i - RL_EP_ROW_FIRST) % RL_EP_ROW_COUNT];
	k.name = rl_effprof_key(i);
	return k;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p != NULL)
		memcpy(p, s, n);
	return p;
}

/* A number with its source, within [LO, HI], into *V (takes SRC). */
static int set_number(struct rl_kvfile *kv, struct rl_hwval *v, const char *key, const char *val,
                      char *src, double lo, double hi, struct rl_err *err)
{
	int rc = rl_hwval_set(kv, v, key, val, src, err);

	if (rc == 0 && (v->value < lo || v->value > hi))
		rc = rl_err_set(err, RL_ERR_RANGE, "%s:%zu: key '%s': %s is outside %g to %g",
		                kv->path, kv->lineno, key, val, lo, hi);
	return rc;
}

static int take(struct rl_kvfile *kv, struct rl_effprof *ep, const char *key, const char *val,
                char *src, struct rl_err *err)
{
	int i;

	if (strcmp(key, "id") == 0)
		return rl_kv_set_string(kv, &ep->id, key, val, src, err);
	if (strcmp(key, "name") == 0)
		return rl_kv_set_string(kv, &ep->name, key, val, src, err);
	if (strcmp(key, "gpu") == 0)
		return rl_kv_set_string(kv, &ep->gpu, key, val, src, err);
	if (strcmp(key, "stack") == 0)
		return rl_kv_set_string(kv, &ep->stack, key, val, src, err);
	for (i = 0; i < RL_EP_REF_COUNT; i++)
		if (strcmp(key, ref_keys[i].name) == 0)
			return set_number(kv, &ep->ref[i], key, val, src, ref_keys[i].lo,
			                  ref_keys[i].hi, err);
	for (i = 0; i < RL_EP_KEY_COUNT; i++) {
		struct key k = key_of(i);

		if (strcmp(key, k.name) == 0)
			return set_number(kv, &ep->num[i], key, val, src, k.lo, k.hi, err);
	}
	free(src);
	return rl_err_set(err, RL_ERR_PARSE, "%s:%zu: unknown key '%s'", kv->path, kv->lineno, key);
}

int rl_effprof_load(const char *path, struct rl_effprof *ep, struct rl_err *err)
{
	struct rl_kvfile kv;
	char *key, *val, *src;
	int rc, i;

	memset(ep, 0, sizeof(*ep));
	rc = rl_kv_open(&kv, path, err);
	while (rc == 0 && (rc = rl_kv_next(&kv, &key, &val, &src, err)) > 0)
		rc = take(&kv, ep, key, val, src, err);
	rl_kv_close(&kv);
	if (rc == 0 && (ep->id == NULL || ep->name == NULL || ep->gpu == NULL || ep->stack == NULL))
		rc = rl_err_set(err, RL_ERR_PARSE,
		                "%s: an efficiency profile needs 'id', 'name', 'gpu' and 'stack'", path);
	for (i = 0; rc == 0 && i < RL_EP_REF_COUNT; i++)
		if (!ep->ref[i].present)
			rc = rl_err_set(err, RL_ERR_PARSE, "%s: key '%s' is missing", path,
			                ref_keys[i].name);
	for (i = 0; rc == 0 && i < RL_EP_KEY_COUNT; i++)
		if (!ep->num[i].present)
			rc = rl_err_set(err, RL_ERR_PARSE, "%s: key '%s' is missing", path,
			                rl_effprof_key(i));
	if (rc == 0 && (ep->path = xstrdup(path)) == NULL)
		rc = rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	if (rc < 0)
		rl_effprof_release(ep);
	return rc;
}

void rl_effprof_release(struct rl_effprof *ep)
{
	int i;

	if (ep == NULL)
		return;
	free(ep->id);
	free(ep->name);
	free(ep->gpu);
	free(ep->stack);
	free(ep->path);
	for (i = 0; i < RL_EP_REF_COUNT; i++) {
		free(ep->ref[i].text);
		free(ep->ref[i].source);
	}
	for (i = 0; i < RL_EP_KEY_COUNT; i++) {
		free(ep->num[i].text);
		free(ep->num[i].source);
	}
	memset(ep, 0, sizeof(*ep));
}

/* How far profile EP's GPU is from D: 0 for the same GPU; a different
 * compute capability major counts more than any SM count or memory size. */
static double distance(const struct rl_effprof *ep, const struct rl_device *d)
{
	double cc = d->num[RL_HW_COMPUTE_CAPABILITY].value, sms = d->num[RL_HW_SM_COUNT].value;
	double mem = d->num[RL_HW_MEMORY_GIB].value;
	double dist = 0;

	if (floor(cc) != floor(ep->ref[RL_EP_REF_CC].value))
		dist += 100;
	dist += fabs(cc - ep->ref[RL_EP_REF_CC].value);
	dist += fabs(log(fmax(sms, 1) / ep->ref[RL_EP_REF_SMS].value));
	dist += fabs(log(fmax(mem, 0.1) / ep->ref[RL_EP_REF_MEMORY_GIB].value));
	return dist;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n > m && strcmp(s + n - m, suf) == 0;
}

int rl_effprof_pick(const char *dir, const struct rl_device *d, struct rl_effprof *ep,
                    struct rl_err *err)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	struct rl_effprof cand;
	double best = HUGE_VAL;
	int rc = 0, found = 0;

	if (dp == NULL)
		return rl_err_set(err, RL_ERR_IO, "cannot open device database '%s': %s", dir,
		                  strerror(errno));
	while (rc == 0 && (de = readdir(dp)) != NULL) {
		char *path;
		double dist;

		if (!has_suffix(de->d_name, ".efficiency"))
			continue;
		/* a fifo, directory or dangling link of that name is skipped */
		rc = rl_kv_scan_entry(dir, de->d_name, &path, err);
		if (rc <= 0)
			continue;
		rc = rl_effprof_load(path, &cand, err);
		free(path);
		if (rc < 0)
			break;
		dist = distance(&cand, d);
		/* ties: the first id in byte order, whatever readdir's order */
		if (dist < best || (dist == best && strcmp(cand.id, ep->id) < 0)) {
			if (found)
				rl_effprof_release(ep);
			*ep = cand;
			best = dist;
			found = 1;
		} else {
			rl_effprof_release(&cand);
		}
	}
	closedir(dp);
	if (rc < 0) {
		if (found)
			rl_effprof_release(ep);
		return rc;
	}
	if (!found)
		return RL_EP_NONE;
	/* the same GPU: the same compute capability, SM count and memory size
	 * (an H100 SXM and an H200 share the first two) */
	return fabs(d->num[RL_HW_COMPUTE_CAPABILITY].value - ep->ref[RL_EP_REF_CC].value) < 0.05 &&
	                       fabs(d->num[RL_HW_SM_COUNT].value - ep->ref[RL_EP_REF_SMS].value) < 0.5 &&
	                       fabs(d->num[RL_HW_MEMORY_GIB].value / ep->ref[RL_EP_REF_MEMORY_GIB].value -
	                            1) < 0.03
	               ? RL_EP_SAME_GPU
	               : RL_EP_NEAREST;
}
