/* probe_report.c - writing what the probe found (see probe_report.h). */
#include "config.h"

#include "probe_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "json.h"

int rl_probe_format_parse(const char *s, enum rl_probe_format *out)
{
	static const char *const names[] = {"table", "json", "hwdb", "attrs"};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum rl_probe_format)i;
			return 0;
		}
	return RL_ERR_ARG;
}

static void versions(char *buf, size_t n, const struct rl_gpu *g)
{
	snprintf(buf, n, "driver %d.%d, runtime %d.%d", g->driver_version / 1000,
	         g->driver_version % 1000 / 10, g->runtime_version / 1000,
	         g->runtime_version % 1000 / 10);
}

static int write_table(FILE *f, const struct rl_probe_info *pi)
{
	const struct rl_gpu *g = pi->gpu;
	const struct rl_xcheck *x = pi->x;
	char v[64];
	size_t i;

	versions(v, sizeof(v), g);
	fprintf(f, "%s (CUDA device %d%s%s), from %s\n", g->name, g->device,
	        g->pci_bus_id[0] ? ", PCI " : "", g->pci_bus_id, pi->origin);
	fprintf(f, "  compute capability %d.%d: %s, rates of %s%s\n", g->cc_major, g->cc_minor,
	        pi->arch->arch, pi->arch->chip, pi->arch_assumed ? " (assumed: newer than the table)" : "");
	fprintf(f, "  %s, ECC %s, %d SMs at up to %d MHz\n", v, g->ecc ? "on" : "off", g->sm_count,
	        g->clock_khz / 1000);
	for (i = 0; i < x->nwarnings; i++)
		fprintf(f, "  warning: %s\n", x->warning[i]);
	if (x->entry == NULL) {
		fprintf(f, "\nno hwdb entry matches (%s): the derived entry stands alone\n\n", x->why);
		fprintf(f, "%-20s %10s\n", "key", "probe");
		for (i = 0; i < RL_HW_NUM_COUNT; i++) {
			enum rl_hw_key k = rl_hw_key_at(i);

			if (pi->dev->num[k].present)
				fprintf(f, "%-20s %10s\n", rl_hw_key_name(k), pi->dev->num[k].text);
		}
		return ferror(f) ? RL_ERR_IO : 0;
	}
	fprintf(f, "\nmatches hwdb entry %s (%s)\n  by %s\n\n", x->entry->id, x->entry->name, x->why);
	fprintf(f, "%-20s %10s %10s %9s\n", "key", "probe", "hwdb", "diff");
	for (i = 0; i < x->nrows; i++) {
		const struct rl_xcheck_row *r = &x->rows[i];
		const struct rl_hwval *pv = &pi->dev->num[r->key], *hv = &x->entry->num[r->key];
		char diff[32];

		if (r->in_probe && r->in_hwdb)
			snprintf(diff, sizeof(diff), "%+.1f %%", 100 * r->rel_diff);
		else
			snprintf(diff, sizeof(diff), "%s", r->in_probe ? "new" : "missing");
		fprintf(f, "%-20s %10s %10s %9s%s\n", rl_hw_key_name(r->key),
		        r->in_probe ? pv->text : "-", r->in_hwdb ? hv->text : "-", diff,
		        r->flagged ? "  <- differs" : "");
	}
	if (x->nflagged == 0)
		fprintf(f, "\nevery value is within %.0f %% of the database\n",
		        100 * RL_XCHECK_TOLERANCE);
	else
		fprintf(f, "\n%zu value%s differ%s from the database by more than %.0f %%\n",
		        x->nflagged, x->nflagged == 1 ? "" : "s", x->nflagged == 1 ? "s" : "",
		        100 * RL_XCHECK_TOLERANCE);
	return ferror(f) ? RL_ERR_IO : 0;
}

static void json_device(yajl_gen g, const struct rl_device *d)
{
	size_t i;

	yajl_gen_map_open(g);
	rl_json_kv(g, "id", d->id);
	rl_json_kv(g, "name", d->name);
	rl_json_kv(g, "vendor", d->vendor);
	rl_json_kv(g, "arch", d->arch);
	for (i = 0; i < RL_HW_NUM_COUNT; i++) {
		enum rl_hw_key k = rl_hw_key_at(i);

		if (!d->num[k].present)
			continue;
		rl_json_str(g, rl_hw_key_name(k));
		yajl_gen_map_open(g);
		rl_json_kn(g, "value", d->num[k].value);
		rl_json_kv(g, "source", d->num[k].source);
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
}

static int write_json(FILE *f, const struct rl_probe_info *pi)
{
	const struct rl_gpu *gpu = pi->gpu;
	const struct rl_xcheck *x = pi->x;
	yajl_gen g = yajl_gen_alloc(NULL);
	size_t i;

	if (g == NULL)
		return RL_ERR_NOMEM;
	yajl_gen_config(g, yajl_gen_beautify, 1);
	yajl_gen_map_open(g);
	rl_json_str(g, "gpu");
	yajl_gen_map_open(g);
	rl_json_kv(g, "name", gpu->name);
	rl_json_kv(g, "pci_bus_id", gpu->pci_bus_id);
	rl_json_kn(g, "device", gpu->device);
	rl_json_kn(g, "compute_capability_major", gpu->cc_major);
	rl_json_kn(g, "compute_capability_minor", gpu->cc_minor);
	rl_json_kn(g, "multiprocessor_count", gpu->sm_count);
	rl_json_kn(g, "clock_rate_khz", gpu->clock_khz);
	rl_json_kn(g, "memory_clock_rate_khz", gpu->memory_clock_khz);
	rl_json_kn(g, "global_memory_bus_width", gpu->bus_width_bits);
	rl_json_kn(g, "total_global_mem", (double)gpu->total_mem_bytes);
	rl_json_kn(g, "l2_cache_size", gpu->l2_bytes);
	rl_json_str(g, "ecc_enabled");
	yajl_gen_bool(g, gpu->ecc);
	rl_json_str(g, "mig");
	yajl_gen_bool(g, rl_gpu_is_mig(gpu));
	rl_json_kn(g, "driver_version", gpu->driver_version);
	rl_json_kn(g, "runtime_version", gpu->runtime_version);
	yajl_gen_map_close(g);
	rl_json_str(g, "rates");
	yajl_gen_map_open(g);
	rl_json_kv(g, "chip", pi->arch->chip);
	rl_json_str(g, "assumed");
	yajl_gen_bool(g, pi->arch_assumed);
	rl_json_kv(g, "source", pi->arch->source);
	yajl_gen_map_close(g);
	rl_json_str(g, "derived");
	json_device(g, pi->dev);
	rl_json_str(g, "match");
	if (x->entry == NULL) {
		yajl_gen_null(g);
	} else {
		yajl_gen_map_open(g);
		rl_json_kv(g, "id", x->entry->id);
		rl_json_kv(g, "name", x->entry->name);
		rl_json_kv(g, "why", x->why);
		rl_json_str(g, "compare");
		yajl_gen_array_open(g);
		for (i = 0; i < x->nrows; i++) {
			const struct rl_xcheck_row *r = &x->rows[i];

			yajl_gen_map_open(g);
			rl_json_kv(g, "key", rl_hw_key_name(r->key));
			rl_json_kn(g, "probe", r->in_probe ? r->probe : NAN);
			rl_json_kn(g, "hwdb", r->in_hwdb ? r->hwdb : NAN);
			rl_json_kn(g, "rel_diff", r->in_probe && r->in_hwdb ? r->rel_diff : NAN);
			rl_json_str(g, "flagged");
			yajl_gen_bool(g, r->flagged);
			yajl_gen_map_close(g);
		}
		yajl_gen_array_close(g);
		yajl_gen_map_close(g);
	}
	rl_json_str(g, "warnings");
	yajl_gen_array_open(g);
	for (i = 0; i < x->nwarnings; i++)
		rl_json_str(g, x->warning[i]);
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
	rl_json_flush(g, f);
	yajl_gen_free(g);
	return ferror(f) ? RL_ERR_IO : 0;
}

static int write_hwdb(FILE *f, const struct rl_probe_info *pi)
{
	const struct rl_gpu *g = pi->gpu;
	char header[2048], v[64];
	size_t n;

	versions(v, sizeof(v), g);
	n = (size_t)snprintf(header, sizeof(header),
	                     "%s: derived by %s from %s\n(CUDA device %d%s%s, %s, ECC %s%s).\n"
	                     "Per-SM rates of %s%s: %s.\n",
	                     g->name, pi->stamp, pi->origin, g->device,
	                     g->pci_bus_id[0] ? ", PCI " : "", g->pci_bus_id, v, g->ecc ? "on" : "off",
	                     rl_gpu_is_mig(g) ? ", a MIG slice" : "", pi->arch->chip,
	                     pi->arch_assumed ? " (assumed: this compute capability is newer)" : "",
	                     pi->arch->source);
	if (n < sizeof(header) && pi->x->entry != NULL)
		snprintf(header + n, sizeof(header) - n,
		         "Matches hwdb entry %s; 'roofline probe' shows the two side by side.",
		         pi->x->entry->id);
	return rl_device_write(f, pi->dev, header);
}

int rl_probe_write(FILE *f, enum rl_probe_format fmt, const struct rl_probe_info *pi)
{
	char why[640];

	switch (fmt) {
	case RL_PROBE_TABLE: return write_table(f, pi);
	case RL_PROBE_JSON: return write_json(f, pi);
	case RL_PROBE_HWDB: return write_hwdb(f, pi);
	case RL_PROBE_ATTRS:
		snprintf(why, sizeof(why), "CUDA attributes of %s, recorded by %s", pi->gpu->name,
		         pi->stamp);
		return rl_gpu_write(f, pi->gpu, why);
	}
	return RL_ERR_IO;
}
