/* fuzz_hwdb.c - device and runtime files (hwdb.c over kvfile.c) on any bytes.
 *
 * The input is loaded as a device file and as a runtime file. A device that
 * loads is written back (hwdb_write.c) and must load again with the same
 * numbers: the writer's promise that "hw show"/calibrate output reads back. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "hwdb.h"
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
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
	close(fd);
	return 0;
}
