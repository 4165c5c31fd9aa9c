/* hwsystem.c - reading system files (see hwsystem.h). */
#include "config.h"

#include "hwsystem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvfile.h"

/* A numeric key: its name, its range and whether it must be an integer. */
static const struct {
	const char *name;
	double lo, hi;
	int integer;
	const char *unit;
} num_keys[RL_SYS_NUM_COUNT] = {
    [RL_SYS_GPUS_PER_NODE] = {"gpus_per_node", 1, 1e6, 1, ""},
    [RL_SYS_INTRA_BANDWIDTH_GBS] = {"intra_bandwidth_gbs", 1e-3, 1e7, 0, "GB/s"},
    [RL_SYS_INTRA_LATENCY_US] = {"intra_latency_us", 0, 1e6, 0, "us"},
    [RL_SYS_NODES] = {"nodes", 1, 1e9, 1, ""},
    [RL_SYS_NETWORK_BANDWIDTH_GBS] = {"network_bandwidth_gbs", 1e-3, 1e7, 0, "GB/s"},
    [RL_SYS_INTER_LATENCY_US] = {"inter_latency_us", 0, 1e6, 0, "us"},
};

#define NCCL       "nccl."
#define DATASHEET  "datasheet."
#define PUBLISHED  "published."
#define NCCL_BUSBW "_busbw_gbs"
#define NCCL_BYTES "_bytes"

static const char *const fabric_names[] = {
    [RL_FABRIC_NVLINK] = "nvlink",
    [RL_FABRIC_NVSWITCH] = "nvswitch",
    [RL_FABRIC_PCIE] = "pcie",
};

/* A number with its source, in [LO, HI] (an integer when INTEGER), into *V
 * (takes SRC). */
static int set_number(struct rl_kvfile *kv, struct rl_hwval *v, const char *key, const char *val,
                      char *src, double lo, double hi, int integer, const char *unit,
                      struct rl_err *err)
{
	int rc = rl_hwval_set(kv, v, key, val, src, err);

	if (rc == 0 && !(v->value >= lo && v->value <= hi))
		rc = rl_err_set(err, RL_ERR_PARSE,
		                "%s:%zu: key '%s': %s%s%s is outside the sensible range %g..%g%s%s",
		                kv->path, kv->lineno, key, val, *unit ? " " : "", unit, lo, hi,
		                *unit ? " " : "", unit);
	else if (rc == 0 && integer && v->value != floor(v->value))
		rc = rl_err_set(err, RL_ERR_PARSE, "%s:%zu: key '%s': %s is not a whole number",
		                kv->path, kv->lineno, key, val);
	return rc;
}

/* The collective K of a key "nccl.KIND_SUFFIX", or -1. */
static int nccl_kind(const char *key, const char *suffix)
{
	size_t n = strlen(key), m = strlen(suffix), p = sizeof(NCCL) - 1;
	char kind[32];
	enum rl_kind k;

	if (strncmp(key, NCCL, p) != 0 || n <= p + m || strcmp(key + n - m, suffix) != 0 ||
	    n - p - m >= sizeof(kind))
		return -1;
	memcpy(kind, key + p, n - p - m);
	kind[n - p - m] = '\0';
	if (rl_kind_parse(kind, &k) < 0 || !rl_kind_is_collective(k))
		return -1;
	return (int)k - RL_KIND_ALLREDUCE;
}

static int take(struct rl_kvfile *kv, struct rl_hwsystem *s, const char *key, const char *val,
                char *src, struct rl_err *err)
{
	int i;

	if (strcmp(key, "id") == 0)
		return rl_kv_set_string(kv, &s->id, key, val, src, err);
	if (strcmp(key, "name") == 0)
		return rl_kv_set_string(kv, &s->name, key, val, src, err);
	if (strcmp(key, "gpu") == 0)
		return rl_kv_set_string(kv, &s->gpu, key, val, src, err);
	if (strcmp(key, "network") == 0)
		return rl_kv_set_string(kv, &s->network, key, val, src, err);
	if (strcmp(key, "fabric") == 0) {
		int rc = rl_kv_set_string(kv, &s->fabric_name, key, val, src, err);

		for (i = 0; rc == 0 && i < 3; i++)
			if (strcmp(val, fabric_names[i]) == 0) {
				s->fabric = (enum rl_fabric)i;
				return 0;
			}
		return rc < 0 ? rc
		              : rl_err_set(err, RL_ERR_PARSE,
		                           "%s:%zu: key 'fabric': unknown fabric '%s' (expected "
		                           "nvlink, nvswitch or pcie)",
		                           kv->path, kv->lineno, val);
	}
	for (i = 0; i < RL_SYS_NUM_COUNT; i++) {
		const char *k = key;
		struct rl_hwval *v = &s->num[i];

		if (strncmp(key, DATASHEET, sizeof(DATASHEET) - 1) == 0) {
			k = key + sizeof(DATASHEET) - 1;
			v = &s->datasheet[i];
		}
		if (strcmp(k, num_keys[i].name) == 0)
			return set_number(kv, v, key, val, src, num_keys[i].lo, num_keys[i].hi,
			                  num_keys[i].integer, num_keys[i].unit, err);
	}
	if ((i = nccl_kind(key, NCCL_BUSBW)) >= 0)
		return set_number(kv, &s->nccl_busbw[i], key, val, src, 1e-3, 1e7, 0, "GB/s", err);
	if ((i = nccl_kind(key, NCCL_BYTES)) >= 0)
		return set_number(kv, &s->nccl_bytes[i], key, val, src, 1, 1e18, 1, "", err);
	if (strncmp(key, PUBLISHED, sizeof(PUBLISHED) - 1) == 0) {
		const char *k = key + sizeof(PUBLISHED) - 1;

		if ((i = nccl_kind(k, NCCL_BUSBW)) >= 0)
			return set_number(kv, &s->published_busbw[i], key, val, src, 1e-3, 1e7, 0,
			                  "GB/s", err);
		if ((i = nccl_kind(k, NCCL_BYTES)) >= 0)
			return set_number(kv, &s->published_bytes[i], key, val, src, 1, 1e18, 1, "",
			                  err);
	}
	free(src);
	return rl_err_set(err, RL_ERR_PARSE,
	                  "%s:%zu: unknown key '%s' (docs/hwdb-format.md lists a system's keys)",
	                  kv->path, kv->lineno, key);
}

/* The checks across keys, once the file is read. */
static int check(const char *path, const struct rl_hwsystem *s, struct rl_err *err)
{
	static const enum rl_sys_key required[] = {RL_SYS_GPUS_PER_NODE, RL_SYS_INTRA_BANDWIDTH_GBS,
	                                           RL_SYS_INTRA_LATENCY_US};
	const char *text[] = {s->id, s->name, s->gpu, s->fabric_name};
	const char *text_names[] = {"id", "name", "gpu", "fabric"};
	int net, lat;
	size_t i;

	for (i = 0; i < 4; i++)
		if (text[i] == NULL)
			return rl_err_set(err, RL_ERR_PARSE, "%s: missing key '%s'", path,
			                  text_names[i]);
	for (i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!s->num[required[i]].present)
			return rl_err_set(err, RL_ERR_PARSE, "%s: missing key '%s'", path,
			                  num_keys[required[i]].name);
	net = s->num[RL_SYS_NETWORK_BANDWIDTH_GBS].present;
	lat = s->num[RL_SYS_INTER_LATENCY_US].present;
	if (net != lat)
		return rl_err_set(
		    err, RL_ERR_PARSE, "%s: key '%s' needs '%s' (a network between nodes has both)",
		    path,
		    num_keys[net ? RL_SYS_NETWORK_BANDWIDTH_GBS : RL_SYS_INTER_LATENCY_US].name,
		    num_keys[net ? RL_SYS_INTER_LATENCY_US : RL_SYS_NETWORK_BANDWIDTH_GBS].name);
	if (s->num[RL_SYS_NODES].present && s->num[RL_SYS_NODES].value > 1 && !net)
		return rl_err_set(err, RL_ERR_PARSE,
		                  "%s: key 'nodes' is %s, but there is no network between them "
		                  "(network_bandwidth_gbs)",
		                  path, s->num[RL_SYS_NODES].text);
	for (i = 0; i < RL_SYS_NUM_COUNT; i++)
		if (s->datasheet[i].present && !s->num[i].present)
			return rl_err_set(err, RL_ERR_PARSE,
			                  "%s: key '" DATASHEET "%s' without '%s' (the figure kept "
			                  "beside a measured one)",
			                  path, num_keys[i].name, num_keys[i].name);
	for (i = 0; i < RL_SYS_NCCL_COUNT; i++)
		if (s->published_busbw[i].present != s->published_bytes[i].present)
			return rl_err_set(err, RL_ERR_PARSE,
			                  "%s: key '" PUBLISHED NCCL "%s%s' needs '" PUBLISHED NCCL
			                  "%s%s' (a bus bandwidth is measured at a size)",
			                  path, rl_kind_name((enum rl_kind)(RL_KIND_ALLREDUCE + i)),
			                  s->published_busbw[i].present ? NCCL_BUSBW : NCCL_BYTES,
			                  rl_kind_name((enum rl_kind)(RL_KIND_ALLREDUCE + i)),
			                  s->published_busbw[i].present ? NCCL_BYTES : NCCL_BUSBW);
	for (i = 0; i < RL_SYS_NCCL_COUNT; i++)
		if (s->nccl_busbw[i].present != s->nccl_bytes[i].present)
			return rl_err_set(err, RL_ERR_PARSE,
			                  "%s: key '" NCCL "%s%s' needs '" NCCL
			                  "%s%s' (a bus bandwidth "
			                  "is measured at a size)",
			                  path, rl_kind_name((enum rl_kind)(RL_KIND_ALLREDUCE + i)),
			                  s->nccl_busbw[i].present ? NCCL_BUSBW : NCCL_BYTES,
			                  rl_kind_name((enum rl_kind)(RL_KIND_ALLREDUCE + i)),
			                  s->nccl_busbw[i].present ? NCCL_BYTES : NCCL_BUSBW);
	return 0;
}

int rl_hwsystem_load(const char *path, struct rl_hwsystem *s, struct rl_err *err)
{
	struct rl_kvfile kv;
	char *key, *val, *src;
	int rc;

	memset(s, 0, sizeof(*s));
	rc = rl_kv_open(&kv, path, err);
	while (rc == 0 && (rc = rl_kv_next(&kv, &key, &val, &src, err)) > 0)
		rc = take(&kv, s, key, val, src, err);
	rl_kv_close(&kv);
	if (rc == 0)
		rc = check(path, s, err);
	if (rc == 0 && (s->path = strdup(path)) == NULL)
		rc = rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	if (rc < 0)
		rl_hwsystem_release(s);
	return rc;
}

static void release_val(struct rl_hwval *v)
{
	free(v->text);
	free(v->source);
}

void rl_hwsystem_release(struct rl_hwsystem *s)
{
	int i;

	if (s == NULL)
		return;
	free(s->id);
	free(s->name);
	free(s->gpu);
	free(s->fabric_name);
	free(s->network);
	free(s->path);
	for (i = 0; i < RL_SYS_NUM_COUNT; i++) {
		release_val(&s->num[i]);
		release_val(&s->datasheet[i]);
	}
	for (i = 0; i < RL_SYS_NCCL_COUNT; i++) {
		release_val(&s->nccl_busbw[i]);
		release_val(&s->nccl_bytes[i]);
		release_val(&s->published_busbw[i]);
		release_val(&s->published_bytes[i]);
	}
	memset(s, 0, sizeof(*s));
}

void rl_hwsystem_each(const struct rl_hwsystem *s,
                      void (*fn)(const char *key, const char *value, const char *source,
                                 void *user),
                      void *user)
{
	char key[64];
	int i;

	fn("id", s->id, NULL, user);
	fn("name", s->name, NULL, user);
	fn("gpu", s->gpu, NULL, user);
	fn("fabric", s->fabric_name, NULL, user);
	for (i = 0; i < RL_SYS_NUM_COUNT; i++) {
		if (i == RL_SYS_NETWORK_BANDWIDTH_GBS && s->network != NULL)
			fn("network", s->network, NULL, user);
		if (s->num[i].present)
			fn(num_keys[i].name, s->num[i].text, s->num[i].source, user);
		if (s->datasheet[i].present) {
			snprintf(key, sizeof(key), DATASHEET "%s", num_keys[i].name);
			fn(key, s->datasheet[i].text, s->datasheet[i].source, user);
		}
	}
	for (i = 0; i < RL_SYS_NCCL_COUNT; i++) {
		const char *k = rl_kind_name((enum rl_kind)(RL_KIND_ALLREDUCE + i));

		if (s->nccl_busbw[i].present) {
			snprintf(key, sizeof(key), NCCL "%s" NCCL_BUSBW, k);
			fn(key, s->nccl_busbw[i].text, s->nccl_busbw[i].source, user);
			snprintf(key, sizeof(key), NCCL "%s" NCCL_BYTES, k);
			fn(key, s->nccl_bytes[i].text, s->nccl_bytes[i].source, user);
		}
		if (s->published_busbw[i].present) {
			snprintf(key, sizeof(key), PUBLISHED NCCL "%s" NCCL_BUSBW, k);
			fn(key, s->published_busbw[i].text, s->published_busbw[i].source, user);
			snprintf(key, sizeof(key), PUBLISHED NCCL "%s" NCCL_BYTES, k);
			fn(key, s->published_bytes[i].text, s->published_bytes[i].source, user);
		}
	}
}

const char *rl_hwsystem_key_name(enum rl_sys_key k)
{
	return (unsigned)k < RL_SYS_NUM_COUNT ? num_keys[k].name : "?";
}

static void write_key(const char *key, const char *value, const char *source, void *user)
{
	FILE *f = user;

	rl_kv_write_line(f, key, value, source, 21, 10);
}

int rl_hwsystem_write(FILE *f, const struct rl_hwsystem *s, const char *header)
{
	rl_kv_write_header(f, header);
	rl_hwsystem_each(s, write_key, f);
	return ferror(f) ? RL_ERR_IO : 0;
}

void rl_hwsystem_net(const struct rl_hwsystem *s, struct rl_net *net)
{
	const struct rl_hwval *v = s->num;

	memset(net, 0, sizeof(*net));
	net->name = s->id;
	net->gpus_per_node = (uint64_t)v[RL_SYS_GPUS_PER_NODE].value;
	net->intra_gbs = v[RL_SYS_INTRA_BANDWIDTH_GBS].value;
	net->intra_latency_us = v[RL_SYS_INTRA_LATENCY_US].value;
	if (v[RL_SYS_NODES].present)
		net->max_nodes = (uint64_t)v[RL_SYS_NODES].value;
	if (v[RL_SYS_NETWORK_BANDWIDTH_GBS].present) {
		net->inter_gbs = v[RL_SYS_NETWORK_BANDWIDTH_GBS].value;
		net->inter_latency_us = v[RL_SYS_INTER_LATENCY_US].value;
	}
}

int rl_hwsystem_device_net(const struct rl_device *d, struct rl_net *net)
{
	const struct rl_hwval *v = &d->num[RL_HW_NVLINK_BANDWIDTH_GBS];

	if (!v->present || !(v->value > 0))
		return 0;
	memset(net, 0, sizeof(*net));
	net->name = d->id;
	net->intra_gbs = v->value;
	return 1;
}

int rl_hwsystem_nccl(const struct rl_hwsystem *s, enum rl_kind k, double *busbw_gbs, double *bytes)
{
	int i = (int)k - RL_KIND_ALLREDUCE;

	if (!rl_kind_is_collective(k) || !s->nccl_busbw[i].present)
		return 0;
	*busbw_gbs = s->nccl_busbw[i].value;
	*bytes = s->nccl_bytes[i].value;
	return 1;
}
