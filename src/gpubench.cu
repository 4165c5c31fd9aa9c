// placeholder, replaced by the real implementation in this change series
#include "config.h"
#include "gpubench.h"
#define NOT_YET(f) int f(int, int, struct rl_bench *, struct rl_err *err) { return rl_err_set(err, RL_ERR_UNSUPPORTED, #f ": not written yet"); }
extern "C" {
NOT_YET(rl_gpubench_memory)
NOT_YET(rl_gpubench_pipes)
NOT_YET(rl_gpubench_sweep)
NOT_YET(rl_gpubench_launch)
}
