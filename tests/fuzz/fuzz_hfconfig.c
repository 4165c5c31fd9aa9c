/* fuzz_hfconfig.c - Hugging Face config.json files (hfconfig.c,
 * rl_hfconfig_read) on any bytes. A config that reads is built into the op
 * list of a decode and a prefill step (modelops.c), as roofline model does;
 * an encoder's decode is an error. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz.h"
#include "hfconfig.h"
#include "modelops.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rl_modelops_opts o = {.phase = RL_PHASE_DECODE,
	                             .batch = 3,
	                             .seq = 7,
	                             .context = 11,
	                             .dtype = RL_BF16,
	                             .weight_dtype = RL_INT4,
	                             .kv_dtype = RL_FP8E4M3,
	                             .expert_imbalance = 1.0};
	struct rl_modelops_row rows[RL_MODELOPS_MAX];
	struct rl_hfconfig c;
	struct rl_err e;
	char path[32];
	int fd = fuzz_memfile(data, size, path), n;

	if (rl_hfconfig_read(path, &c, &e) == 0) {
		n = rl_modelops_build(&c, &o, rows, &e);
		/* an encoder (bert, vit) has no decode step: an error */
		if (c.encoder ? n != RL_ERR_ARG : n < 1 || n > RL_MODELOPS_MAX)
			abort();
		o.phase = RL_PHASE_PREFILL;
		n = rl_modelops_build(&c, &o, rows, &e);
		if (n < 1 || n > RL_MODELOPS_MAX)
			abort();
	}
	close(fd);
	return 0;
}
