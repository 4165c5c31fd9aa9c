/* xcheck.h - which database entry a probed GPU is, and where the two
 * disagree.
 *
 * The match goes by name (the model token, "h200" in "NVIDIA H200", must be
 * one of the entry's id, alias or name tokens), then SM count and memory
 * size pick among the entries that share it (H100 SXM, PCIe and NVL). The
 * comparison flags every number that differs by more than RL_XCHECK_TOLERANCE.
 * l2_bandwidth_gbs, which no device attribute gives, is compared only when
 * the probed entry has it.
 */
#ifndef RL_XCHECK_H
#define RL_XCHECK_H

#include <stddef.h>

#include "gpu.h"
#include "hwdb.h"

#define RL_XCHECK_TOLERANCE 0.05
#define RL_XCHECK_MAX_WARNINGS 4

struct rl_xcheck_row {
	enum rl_hw_key key;
	int in_probe, in_hwdb;
	double probe, hwdb;
	double rel_diff; /* (probe - hwdb) / hwdb, when both are present */
	int flagged;     /* |rel_diff| > RL_XCHECK_TOLERANCE, or present on one side only */
};

struct rl_xcheck {
	const struct rl_device *entry; /* the matched entry, NULL when none */
	char why[256];                 /* how it matched, or why nothing did */
	struct rl_xcheck_row rows[RL_HW_NUM_COUNT];
	size_t nrows;
	size_t nflagged;
	char warning[RL_XCHECK_MAX_WARNINGS][640]; /* MIG slice, clocks below datasheet */
	size_t nwarnings;
};

/* Finds the entry of DB that G is, or NULL; says how in WHY (WHYLEN bytes). */
const struct rl_device *rl_xcheck_match(const rl_hwdb *db, const struct rl_gpu *g, char *why,
                                        size_t whylen);

/* Fills *X: the match of G in DB (may be NULL: then only the warnings that
 * need no entry) and, when there is one, the comparison of every numeric
 * key of PROBED (G's derived entry) with it. */
void rl_xcheck_run(const rl_hwdb *db, const struct rl_gpu *g, const struct rl_device *probed,
                   struct rl_xcheck *x);

#endif
