/* probe_report.h - writers for "roofline probe": the derived entry beside
 * the database's (table, json), the entry alone as a device file (hwdb), and
 * the raw attribute set (attrs). They format; they compute nothing new.
 */
#ifndef RL_PROBE_REPORT_H
#define RL_PROBE_REPORT_H

#include <stdio.h>

#include "archtab.h"
#include "xcheck.h"
#include "gpu.h"
#include "hwdb.h"

enum rl_probe_format { RL_PROBE_TABLE, RL_PROBE_JSON, RL_PROBE_HWDB, RL_PROBE_ATTRS };

/* Parses "table", "json", "hwdb" or "attrs"; returns 0 or RL_ERR_ARG. */
int rl_probe_format_parse(const char *s, enum rl_probe_format *out);

struct rl_probe_info {
	const struct rl_gpu *gpu;
	const struct rl_device *dev;  /* derived from gpu */
	const struct rl_arch *arch;
	int arch_assumed;
	const struct rl_xcheck *x;
	const char *origin;           /* "a CUDA device query" or "the attribute set FILE" */
	const char *stamp;            /* "roofline 0.1.0 on 2026-11-29" */
};

/* Writes PI to F in FMT. Returns 0, RL_ERR_IO or RL_ERR_NOMEM. */
int rl_probe_write(FILE *f, enum rl_probe_format fmt, const struct rl_probe_info *pi);

#endif
