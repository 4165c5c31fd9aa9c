/* fuzz_validate.c - validate recordings (rl_validation_read in
 * validate_report.c: JSON with the op list inside as CSV) on any bytes. */
#include <unistd.h>

#include "fuzz.h"
#include "validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rl_validation v;
	struct rl_errlist errs;
	struct rl_err e;
	char path[32];
	int fd = fuzz_memfile(data, size, path);

	rl_errlist_init(&errs);
	rl_validation_read(path, &v, &errs, &e);
	rl_validation_release(&v);
	close(fd);
	return 0;
}
