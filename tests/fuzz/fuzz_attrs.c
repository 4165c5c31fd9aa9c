/* fuzz_attrs.c - recorded GPU attribute sets (gpu.c rl_gpu_load over
 * kvfile.c) on any bytes. A set that loads is written back with rl_gpu_write
 * and must load again unchanged ("probe --format attrs" then "--attrs"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "gpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rl_gpu g, back;
	struct rl_err e;
	char path[32], path2[32];
	int fd = fuzz_memfile(data, size, path);

	if (rl_gpu_load(path, &g, &e) == 0) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		int fd2;

		if (f == NULL)
			abort();
		rl_gpu_write(f, &g, "round trip");
		fclose(f);
		fd2 = fuzz_memfile((const uint8_t *)buf, len, path2);
		if (rl_gpu_load(path2, &back, &e) < 0 || memcmp(&g, &back, sizeof(g)) != 0) {
			fprintf(stderr, "attributes do not read back: %s\n--\n%s--\n", e.msg, buf);
			abort();
		}
		close(fd2);
		free(buf);
	}
	close(fd);
	return 0;
}
