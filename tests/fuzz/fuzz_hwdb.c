/* fuzz_hwdb.c - device, runtime, efficiency and system files (hwdb.c,
 * effprof.c and hwsystem.c over kvfile.c) on any bytes.
 *
 * The input is loaded as a device file, a runtime file and an efficiency
 * profile. A device that loads is written back (hwdb_write.c) and must load
 * again with the same numbers: the writer's promise that "hw show"/calibrate
 * output reads back. A profile that loads drives the expected-time model
 * over ops of every kind on an H200-like device: every expected time must be
 * finite and at least the roofline's, whatever numbers the ranges let
 * through. A system that loads carries every collective, on one node and on
 * two: each time is finite and at least the latency, or an error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "effprof.h"
#include "fuzz.h"
#include "hwdb.h"
#include "hwsystem.h"
#include "model.h"

static void round_trip(const struct rl_device *d)
{
	char *buf = NULL, path[32];
	size_t len = 0, i;
	struct rl_device back;
	struct rl_err e;
	FILE *f = open_memstream(&buf, &len);
	int fd;

	if (f == NULL)
		return;
	if (rl_device_write(f, d, "round trip") < 0) {
		fclose(f);
		free(buf);
		return;
	}
	fclose(f);
	fd = fuzz_memfile((const uint8_t *)buf, len, path);
	if (rl_device_load(path, &back, &e) < 0) {
		fprintf(stderr, "a written device does not load again: %s\n--\n%s--\n", e.msg, buf);
		abort();
	}
	for (i = 0; i < RL_HW_NUM_COUNT; i++) {
		const struct rl_hwval *a = &d->num[i], *b = &back.num[i];

		if (a->present != b->present ||
		    (a->present && a->value != b->value && !(isnan(a->value) && isnan(b->value)))) {
			fprintf(stderr, "key %s: %g written, %g read back\n",
			        rl_hw_key_name((enum rl_hw_key)i), a->value, b->value);
			abort();
		}
	}
	rl_device_release(&back);
	close(fd);
	free(buf);
}

/* An H200-like device, built here so that the harness reads no file. */
static void model_device(struct rl_device *d)
{
	static const struct {
		int key;
		double v;
	} v[] = {
		{RL_HW_SM_COUNT, 132},          {RL_HW_MEM_BANDWIDTH_GBS, 4800},
		{RL_HW_BOOST_CLOCK_MHZ, 1980},  {RL_HW_MIN_KERNEL_US, 0.5},
		{RL_PIPE_FP32_VECTOR, 66.9},    {RL_PIPE_BF16_VECTOR, 133.8},
		{RL_PIPE_BF16_TENSOR, 989.4},   {RL_PIPE_TF32_TENSOR, 494.7},
		{RL_HW_COMPUTE_CAPABILITY, 9.0}, {RL_HW_MEMORY_GIB, 141},
	};
	size_t i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		d->num[v[i].key].present = 1;
		d->num[v[i].key].value = v[i].v;
	}
}

static void model_ops(const struct rl_effprof *ep)
{
	static const struct {
		enum rl_kind kind;
		enum rl_dtype t;
		int n;
		uint64_t d[5];
	} ops[] = {
		{RL_KIND_POINTWISE, RL_BF16, 1, {1 << 20}},
		{RL_KIND_COPY, RL_FP32, 1, {3}},
		{RL_KIND_REDUCTION, RL_BF16, 2, {1, 1 << 27}},
		{RL_KIND_REDUCTION, RL_BF16, 2, {1 << 20, 8}},
		{RL_KIND_SOFTMAX, RL_BF16, 2, {64, 1025}},
		{RL_KIND_SOFTMAX, RL_FP32, 2, {3, 131072}},
		{RL_KIND_LAYERNORM, RL_BF16, 2, {128, 65536}},
		{RL_KIND_LAYERNORM, RL_BF16, 2, {7, 1026}},
		{RL_KIND_MATMUL, RL_BF16, 3, {777, 999, 1234}},
		{RL_KIND_MATMUL, RL_BF16, 3, {1, 8192, 8192}},
		{RL_KIND_MATMUL, RL_BF16, 4, {8, 4096, 4096, 4096}},
		{RL_KIND_MATMUL, RL_FP32, 3, {512, 512, 512}},
		{RL_KIND_ATTENTION, RL_BF16, 4, {1, 12, 197, 64}},
		{RL_KIND_ATTENTION, RL_BF16, 5, {4, 32, 1, 8192, 128}},
	};
	struct rl_device d;
	struct rl_model_ctx ctx;
	size_t i;

	model_device(&d);
	memset(&ctx, 0, sizeof(ctx));
	ctx.dev = &d;
	ctx.host_overhead_us = 6.6;
	ctx.eff = ep;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		struct rl_op op;
		struct rl_pred p;
		struct rl_err e;

		rl_op_init(&op);
		op.kind = ops[i].kind;
		op.dtype = ops[i].t;
		op.ndims = ops[i].n;
		op.has |= RL_HAS_SHAPE;
		memcpy(op.dims, ops[i].d, sizeof(ops[i].d));
		op.causal = (int)(i & 1);
		if (rl_predict(&op, &ctx, &p, &e) < 0)
			continue;
		if (!isfinite(p.expected_gpu_us) || p.expected_gpu_us < p.t_gpu_us ||
		    p.expected_us < p.expected_gpu_us) {
			fprintf(stderr, "op %zu: expected %g us against the roofline's %g\n", i,
			        p.expected_gpu_us, p.t_gpu_us);
			abort();
		}
	}
}

static void show_nothing(const char *key, const char *value, const char *source, void *user)
{
	(void)key;
	(void)source;
	*(size_t *)user += value != NULL ? strlen(value) : 0;
}

/* A system that loads is written back (rl_hwsystem_write, as calibrate
 * writes a calibrated one) and must load again with the same numbers. */
static void system_round_trip(const struct rl_hwsystem *s)
{
	char *buf = NULL, path[32];
	size_t len = 0;
	struct rl_hwsystem back;
	struct rl_err e;
	FILE *f = open_memstream(&buf, &len);
	int fd, i;

	if (f == NULL)
		return;
	if (rl_hwsystem_write(f, s, "round trip") < 0) {
		fclose(f);
		free(buf);
		return;
	}
	fclose(f);
	fd = fuzz_memfile((const uint8_t *)buf, len, path);
	if (rl_hwsystem_load(path, &back, &e) < 0) {
		fprintf(stderr, "a written system does not load again: %s\n--\n%s--\n", e.msg, buf);
		abort();
	}
	for (i = 0; i < RL_SYS_NUM_COUNT; i++)
		if (s->num[i].present != back.num[i].present ||
		    s->num[i].value != back.num[i].value ||
		    s->datasheet[i].present != back.datasheet[i].present ||
		    s->datasheet[i].value != back.datasheet[i].value) {
			fprintf(stderr, "key %s: %g written, %g read back\n",
			        rl_hwsystem_key_name((enum rl_sys_key)i), s->num[i].value,
			        back.num[i].value);
			abort();
		}
	for (i = 0; i < RL_SYS_NCCL_COUNT; i++)
		if (s->nccl_busbw[i].value != back.nccl_busbw[i].value ||
		    s->published_busbw[i].value != back.published_busbw[i].value) {
			fprintf(stderr, "nccl figure %d differs after the round trip\n", i);
			abort();
		}
	rl_hwsystem_release(&back);
	close(fd);
	free(buf);
}

/* Every collective of 1 GiB per rank on the system's interconnect: 8 ranks on
 * one node, 16 on two. */
static void system_ops(const struct rl_hwsystem *sys)
{
	struct rl_device d;
	struct rl_model_ctx ctx;
	struct rl_net net;
	size_t shown = 0;
	int k, nodes;

	rl_hwsystem_each(sys, show_nothing, &shown);
	rl_hwsystem_net(sys, &net);
	model_device(&d);
	memset(&ctx, 0, sizeof(ctx));
	ctx.dev = &d;
	ctx.host_overhead_us = 6.6;
	ctx.net = &net;
	for (k = RL_KIND_ALLREDUCE; k <= RL_KIND_SENDRECV; k++) {
		for (nodes = 1; nodes <= 2; nodes++) {
			struct rl_op op;
			struct rl_pred p;
			struct rl_err e;

			rl_op_init(&op);
			op.kind = (enum rl_kind)k;
			op.dtype = RL_BF16;
			op.ndims = 1;
			op.dims[0] = 1u << 29;
			op.has |= RL_HAS_SHAPE | RL_HAS_RANKS;
			op.ranks = 8 * (uint64_t)nodes;
			op.nodes = (uint64_t)nodes;
			if (rl_predict(&op, &ctx, &p, &e) < 0)
				continue;
			if (!isfinite(p.t_us) || p.t_network_us < p.t_net_latency_us ||
			    p.bound != RL_BOUND_NETWORK) {
				fprintf(stderr, "%s on %d nodes: %g us, latency %g, bound %s\n",
				        rl_kind_name(op.kind), nodes, p.t_network_us, p.t_net_latency_us,
				        rl_bound_name(p.bound));
				abort();
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rl_hwsystem sys;
	struct rl_effprof ep;
	struct rl_device d;
	struct rl_runtime rt;
	struct rl_err e;
	char path[32];
	double bw;
	int fd = fuzz_memfile(data, size, path);

	if (rl_device_load(path, &d, &e) == 0) {
		char show[64];

		rl_device_peak_flops(&d, RL_PIPE_COUNT - 1);
		snprintf(show, sizeof(show), "%g", rl_device_bandwidth_bytes_per_s(&d));
		/* the memory roof by access mix: finite and positive for any mix
		 * the ranges let through */
		bw = rl_model_bandwidth(&d, 3, 1, 1);
		if (!isfinite(bw) || bw <= 0) {
			fprintf(stderr, "bandwidth by mix %g\n", bw);
			abort();
		}
		round_trip(&d);
	}
	rl_device_release(&d);
	if (rl_runtime_load(path, &rt, &e) == 0) {
		int k;

		if (rt.id == NULL)
			abort();
		/* every kind's host cost: its own or the default, in range */
		for (k = 0; k < RL_KIND_COUNT; k++)
			if (rl_host_overhead_check(rl_runtime_host_us(&rt, (enum rl_kind)k), NULL) < 0)
				abort();
	}
	rl_runtime_release(&rt);
	if (rl_effprof_load(path, &ep, &e) == 0) {
		model_ops(&ep);
		rl_effprof_release(&ep);
	}
	if (rl_hwsystem_load(path, &sys, &e) == 0) {
		system_ops(&sys);
		system_round_trip(&sys);
		rl_hwsystem_release(&sys);
	}
	close(fd);
	return 0;
}
