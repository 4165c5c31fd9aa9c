// placeholder, replaced by the real implementation in this change series
#include "config.h"
#include "gpubench.h"
extern "C" int rl_gpubench_gemm(int, int, struct rl_bench *, struct rl_err *err) { return rl_err_set(err, RL_ERR_UNSUPPORTED, "gemm: not written yet"); }
