/* hwdb_write.c - writing a device file (see rl_device_write in hwdb.h). */
#include "config.h"

#include "hwdb.h"

#include <stdio.h>
#include <string.h>

static void write_key(const char *key, const char *value, const char *source, void *user)
{
	FILE *f = user;

	if (value == NULL)
		return;
	if (source != NULL)
		fprintf(f, "%-19s = %-7s ; %s\n", key, value, source);
	else
		fprintf(f, "%-19s = %s\n", key, value);
}

int rl_device_write(FILE *f, const struct rl_device *d, const char *header)
{
	const char *p = header;

	while (p != NULL && *p != '\0') {
		size_t n = strcspn(p, "\n");

		fprintf(f, "# %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	if (header != NULL)
		fputc('\n', f);
	rl_device_each(d, write_key, f);
	return ferror(f) ? RL_ERR_IO : 0;
}
