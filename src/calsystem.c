/* calsystem.c - the calibrated system file (see calsystem.h). */
#include "config.h"

#include "calsystem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collbench.h"

static char *dup_or_null(const char *s, int *bad)
{
	char *d = s != NULL ? strdup(s) : NULL;

	*bad |= s != NULL && d == NULL;
	return d;
}

static void copy_val(struct rl_hwval *to, const struct rl_hwval *from, int *bad)
{
	*to = *from;
	to->text = dup_or_null(from->text, bad);
	to->source = dup_or_null(from->source, bad);
}

/* A copy of S (every string its own). */
static int copy_system(struct rl_hwsystem *to, const struct rl_hwsystem *s)
{
	int bad = 0, i;

	memset(to, 0, sizeof(*to));
	to->id = dup_or_null(s->id, &bad);
	to->name = dup_or_null(s->name, &bad);
	to->gpu = dup_or_null(s->gpu, &bad);
	to->fabric_name = dup_or_null(s->fabric_name, &bad);
	to->network = dup_or_null(s->network, &bad);
	to->fabric = s->fabric;
	for (i = 0; i < RL_SYS_NUM_COUNT; i++) {
		copy_val(&to->num[i], &s->num[i], &bad);
		copy_val(&to->datasheet[i], &s->datasheet[i], &bad);
	}
	for (i = 0; i < RL_SYS_NCCL_COUNT; i++) {
		copy_val(&to->nccl_busbw[i], &s->nccl_busbw[i], &bad);
		copy_val(&to->nccl_bytes[i], &s->nccl_bytes[i], &bad);
		copy_val(&to->published_busbw[i], &s->published_busbw[i], &bad);
		copy_val(&to->published_bytes[i], &s->published_bytes[i], &bad);
	}
	return bad ? RL_ERR_NOMEM : 0;
}

/* Sets *V to VALUE (DIGITS significant digits; 0: a whole number) with
 * SOURCE (taken). When
 * KEEP is not NULL and holds nothing yet, V's old figure moves there first
 * (a calibrated file calibrated again keeps the first datasheet figure). */
static int put(struct rl_hwval *v, struct rl_hwval *keep, double value, int digits, char *source)
{
	char text[48];

	if (source == NULL)
		return RL_ERR_NOMEM;
	if (keep != NULL && !keep->present && v->present) {
		*keep = *v;
		memset(v, 0, sizeof(*v));
	}
	free(v->text);
	free(v->source);
	if (digits > 0)
		snprintf(text, sizeof(text), "%.*g", digits, value);
	else
		snprintf(text, sizeof(text), "%.0f", value);
	v->present = 1;
	v->value = strtod(text, NULL);
	v->text = strdup(text);
	v->source = source;
	return v->text == NULL ? RL_ERR_NOMEM : 0;
}

static char *source_of(const struct rl_bench *b, const struct rl_bench_entry *e, const char *what)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
	         "measured by roofline bench %s on %.10s: %s of %s %s, S = %.0f bytes, on %d "
	         "GPUs; median of %zu sample%s; %s",
	         b->version, b->date, what, e->name, e->shape, e->bytes, e->ranks, e->n,
	         e->n == 1 ? "" : "s", e->method);
	return strdup(buf);
}

int rl_calsystem(const struct rl_bench *b, const struct rl_hwsystem *sys, const char *id,
                 struct rl_hwsystem *out, struct rl_err *err)
{
	struct rl_collsum s;
	char name[512];
	int k, found = 0, rc;

	memset(out, 0, sizeof(*out));
	for (k = RL_KIND_ALLREDUCE; k <= RL_KIND_SENDRECV; k++) {
		if (rl_collbench_summary(b, (enum rl_kind)k, &s, NULL) < 0)
			continue;
		found++;
		if (s.ranks < 2)
			return rl_err_set(
			    err, RL_ERR_ARG,
			    "the recording's %s ran on one GPU: a bus bandwidth needs 2 "
			    "ranks or more (busbw is undefined for n = 1); no system "
			    "file written",
			    rl_kind_name((enum rl_kind)k));
		if (s.ranks > sys->num[RL_SYS_GPUS_PER_NODE].value)
			return rl_err_set(
			    err, RL_ERR_ARG,
			    "the recording's %s ran on %d GPUs, but %s has %s in a node",
			    rl_kind_name((enum rl_kind)k), s.ranks, sys->id,
			    sys->num[RL_SYS_GPUS_PER_NODE].text);
	}
	if (found == 0)
		return rl_err_set(err, RL_ERR_NOTFOUND,
		                  "the recording has no collective with a passing check (bench "
		                  "--only collectives records them)");
	if (copy_system(out, sys) < 0)
		goto nomem;
	snprintf(name, sizeof(name), "%s (measured)", sys->name);
	free(out->id);
	free(out->name);
	out->id = strdup(id);
	out->name = strdup(name);
	if (out->id == NULL || out->name == NULL)
		goto nomem;
	for (k = RL_KIND_ALLREDUCE; k <= RL_KIND_SENDRECV; k++) {
		int i = k - RL_KIND_ALLREDUCE;

		if (rl_collbench_summary(b, (enum rl_kind)k, &s, NULL) < 0)
			continue;
		if (!(s.busbw_gbs >= 1e-3 && s.busbw_gbs <= 1e7))
			return rl_err_set(
			    err, RL_ERR_RANGE,
			    "recording: %s at S = %.0f: a bus bandwidth of %g GB/s (a "
			    "broken recording: no system file written)",
			    rl_kind_name((enum rl_kind)k), s.bytes, s.busbw_gbs);
		if (k == RL_KIND_ALLREDUCE) {
			rc = put(&out->num[RL_SYS_INTRA_BANDWIDTH_GBS],
			         &out->datasheet[RL_SYS_INTRA_BANDWIDTH_GBS], s.busbw_gbs, 5,
			         source_of(b, s.largest, "the bus bandwidth (algbw x 2(n-1)/n)"));
			if (rc == 0 && s.smallest != NULL)
				rc = put(&out->num[RL_SYS_INTRA_LATENCY_US],
				         &out->datasheet[RL_SYS_INTRA_LATENCY_US], s.latency_us, 4,
				         source_of(
				             b, s.smallest,
				             "the least median time at 4 KiB and below, the time"));
			if (rc < 0)
				goto nomem;
		}
		/* a published figure of the kind moves beside the measured one */
		if (out->nccl_busbw[i].present && !out->published_busbw[i].present) {
			out->published_busbw[i] = out->nccl_busbw[i];
			out->published_bytes[i] = out->nccl_bytes[i];
			memset(&out->nccl_busbw[i], 0, sizeof(out->nccl_busbw[i]));
			memset(&out->nccl_bytes[i], 0, sizeof(out->nccl_bytes[i]));
		}
		rc = put(&out->nccl_busbw[i], NULL, s.busbw_gbs, 5,
		         source_of(b, s.largest, "the bus bandwidth (algbw x the bus factor)"));
		if (rc == 0)
			rc = put(&out->nccl_bytes[i], NULL, s.bytes, 0,
			         source_of(b, s.largest, "the size"));
		if (rc < 0)
			goto nomem;
	}
	return 0;
nomem:
	rl_hwsystem_release(out);
	return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
}

char *rl_calsystem_header(const struct rl_bench *b, const struct rl_hwsystem *sys)
{
	char buf[2048];
	int ranks = 0;
	size_t i;

	for (i = 0; i < b->n; i++)
		if (b->e[i].group == RL_BENCH_COLLECTIVE)
			ranks = b->e[i].ranks;
	snprintf(
	    buf, sizeof(buf),
	    "%s, calibrated: collectives measured by roofline bench %s on %s,\n"
	    "%d x %s, NCCL through roofline's collective benchmarks (nccl-tests' method).\n"
	    "intra_bandwidth_gbs is all-reduce's bus bandwidth at the largest size recorded,\n"
	    "intra_latency_us its least time at 4 KiB and below; nccl.KIND_* the bus bandwidth\n"
	    "of each kind recorded. What they replaced stays beside them as datasheet.KEY and\n"
	    "published.nccl.KIND_* (from the system file %s).%s",
	    sys->name, b->version, b->date, ranks, b->gpu.name, sys->id,
	    b->quick ? "\n--quick: a smoke run, not a calibration." : "");
	return strdup(buf);
}
