/* archtab.h - what one SM of each NVIDIA architecture does per clock.
 *
 * A device query gives SM count and clocks but no peak: the peak of a pipe
 * is SMs x (FLOP per clock per SM of the architecture) x clock. This table
 * holds those per-SM rates (dense; an FMA counts 2 FLOP), per compute
 * capability, with the source of each row. GA10x and Ada GeForce cards run
 * FP16/BF16/TF32/FP8 tensor math with FP32 accumulation at half the rate of
 * their data-center siblings, so those architectures have two rows.
 */
#ifndef RL_ARCHTAB_H
#define RL_ARCHTAB_H

#include "dtype.h"

struct rl_arch {
	const char *arch;           /* the hwdb "arch" value: "hopper" */
	const char *chip;           /* "GH100 (H100, H200)" */
	int cc_major, cc_minor;     /* the first compute capability of the row */
	int cc_minor_last;          /* the row covers cc_major.cc_minor..cc_minor_last */
	int geforce;                /* -1 any card, 0 not GeForce, 1 GeForce/TITAN */
	unsigned flop_per_clk_sm[RL_PIPE_COUNT]; /* 0: no such pipe */
	/* Tensor figures assume a clock below the boost clock on Hopper and
	 * Blackwell: tensor clock = boost x tensor_clock_ratio (1 elsewhere). FP64
	 * tensor math runs at the boost clock. */
	double tensor_clock_ratio;
	const char *tensor_clock_source;
	double min_kernel_us;       /* shortest kernel, from the nearest measurement */
	const char *min_kernel_source;
	const char *cite;           /* the rates' source, short: "H100 whitepaper v1.03" */
	const char *source;         /* where the per-SM rates come from, in full */
};

/* The row for compute capability MAJOR.MINOR on a card named NAME (the
 * GeForce rows are chosen by "GeForce" or "TITAN" in the name). When no row
 * covers it, returns the newest row older than it and sets *ASSUMED to 1;
 * NULL when it predates the table (Volta, 7.0). */
const struct rl_arch *rl_arch_find(int major, int minor, const char *name, int *assumed);

#endif
