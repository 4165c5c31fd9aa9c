/* fuzz_bench.c - bench recordings (bench_json.c, rl_bench_read) on any bytes.
 * A recording that reads is derived from as "bench --from" does (statistics
 * per entry, the sweeps) and written again. */
#include <stdio.h>
#include <unistd.h>

#include "bench.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const dtypes[] = {"fp32", "fp16", "bf16", "fp64"};
	struct rl_bench b;
	struct rl_err e;
	char path[32];
	int fd = fuzz_memfile(data, size, path);

	if (rl_bench_read(path, &b, &e) == 0) {
		struct rl_bench_stats st;
		struct rl_sweep sw;
		FILE *out = fopen("/dev/null", "w");
		size_t i;

		for (i = 0; i < b.n; i++)
			rl_bench_stats(&b.e[i], &st);
		for (i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++)
			rl_bench_sweep(&b, dtypes[i], &sw, &e);
		if (out != NULL) {
			rl_bench_write_json(out, &b);
			fclose(out);
		}
	}
	rl_bench_release(&b);
	close(fd);
	return 0;
}
