/* fuzz_trace.c - profiler traces, plain or gzipped, on any bytes: the
 * streaming reader (trace.c through gzread.c, which takes gzip by its magic
 * bytes and anything else as plain text), then the join (import.c, with the
 * op table of atenmap.c, torch.compile's kernels and graphs of inductor.c,
 * the NCCL kernels of ncclmap.c, their rows spread
 * over nodes of 4 GPUs) and the op list writer; then the host fit of
 * calibrate --from-trace (hostcalls.c, hostfit.c, hostfit_write.c: the
 * runtime file, its stack lines, report's advice). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "hostcalls.h"
#include "hostfit.h"
#include "hostfit_write.h"
#include "import.h"
#include "trace.h"

/* The host fit of T, written to /dev/null: aborts on a figure that is not
 * finite or is negative. */
static void fuzz_hostfit(const struct rl_trace *t, const char *path)
{
	struct rl_hostcalls hc;
	struct rl_hostfit fit;
	struct rl_err e;
	char stack[4096];

	if (rl_hostcalls_build(t, &hc, &e) == 0 &&
	    rl_hostfit_run(hc.calls, hc.n, hc.skips, hc.nskips, 0, &fit, &e) == 0) {
		struct rl_hostfit_origin o;
		FILE *out = fopen("/dev/null", "w");
		size_t k;

		if (!(fit.span_us > 0) || !(fit.host_us >= 0) || !(fit.host_us < 1e300))
			__builtin_trap();
		for (k = 0; k < RL_KIND_COUNT; k++)
			if (!(fit.kind[k].host_us >= 0) || !(fit.kind[k].extra_us >= 0))
				__builtin_trap();
		rl_hostcalls_stack(t, stack, sizeof(stack));
		memset(&o, 0, sizeof(o));
		o.id = "fuzz";
		o.name = "fuzz";
		o.trace = path;
		o.when = "now";
		o.version = "fuzz";
		o.stack = stack;
		if (out != NULL) {
			rl_hostfit_write(out, &fit, &o);
			rl_hostfit_write_advice(out, &fit, 0);
			fclose(out);
		}
		rl_hostfit_release(&fit);
	}
	rl_hostcalls_release(&hc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rl_trace t;
	struct rl_import imp;
	struct rl_err e;
	char path[32];
	int fd = fuzz_memfile(data, size, path);

	if (rl_trace_read(path, &t, &e) == 0) {
		memset(&imp, 0, sizeof(imp));
		if (rl_import_trace(&t, &imp, &e) == 0) {
			FILE *out;

			rl_import_spread(&imp, 4);
			out = fopen("/dev/null", "w");
			if (out != NULL) {
				rl_import_write(out, &imp, path);
				fclose(out);
			}
		}
		rl_import_release(&imp);
		fuzz_hostfit(&t, path);
	}
	rl_trace_release(&t);
	close(fd);
	return 0;
}
