/* fuzz_trace.c - profiler traces, plain or gzipped, on any bytes: the
 * streaming reader (trace.c through gzread.c, which takes gzip by its magic
 * bytes and anything else as plain text), then the join (import.c, with the
 * op table of atenmap.c, the NCCL kernels of ncclmap.c, their rows spread
 * over nodes of 4 GPUs) and the op list writer. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "import.h"
#include "trace.h"

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
	}
	rl_trace_release(&t);
	close(fd);
	return 0;
}
