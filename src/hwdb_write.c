/* hwdb_write.c - writing a device file (see rl_device_write in hwdb.h). */
#include "config.h"

#include "hwdb.h"

#include "kvfile.h"

#include <stdio.h>

static void write_key(const char *key, const char *value, const char *source, void *user)
{
	FILE *f = user;

	rl_kv_write_line(f, key, value, source, 19, 7);
}

int rl_device_write(FILE *f, const struct rl_device *d, const char *header)
{
	rl_kv_write_header(f, header);
	rl_device_each(d, write_key, f);
	return ferror(f) ? RL_ERR_IO : 0;
}
