/* fuzz_sweep.c - a --sweep value list and a sweep's csv (sweep.c) on any
 * bytes. The first line is a --sweep spec (rl_sweep_parse); the rest is a
 * sweep's csv, read as plot --sweep-table reads it (rl_sweep_read_csv), then
 * laid out and drawn (chart.c, svg.c) and written in every format
 * (sweep_report.c), all to /dev/null. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "svg.h"
#include "sweep.h"
#include "sweep_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rl_sweep_table t;
	struct rl_sweep_spec sw;
	struct rl_err e;
	const uint8_t *nl = memchr(data, '\n', size);
	size_t first = nl != NULL ? (size_t)(nl - data) : size;
	char *spec = malloc(first + 1);
	FILE *f, *null;

	if (spec == NULL)
		return 0;
	memcpy(spec, data, first);
	spec[first] = '\0';
	rl_sweep_parse(spec, &sw, &e);
	free(spec);
	if (nl == NULL || size - first - 1 == 0)
		return 0;
	f = fmemopen((void *)(nl + 1), size - first - 1, "r");
	if (f == NULL)
		return 0;
	if (rl_sweep_read_csv(f, "fuzz.csv", &t, &e) == 0) {
		null = fopen("/dev/null", "w");
		if (null != NULL) {
			int fmt;

			rl_svg_sweep_table(null, &t, "fuzz.csv");
			for (fmt = RL_FMT_TABLE; fmt <= RL_FMT_MD; fmt++)
				rl_sweep_report_write(null, (enum rl_format)fmt, &t);
			fclose(null);
		}
	}
	fclose(f);
	return 0;
}
