// placeholder, replaced by the real implementation in this change series
#include "config.h"
#include "synth.h"
#include <stddef.h>
extern "C" {
rl_synth_ctx *rl_synth_open(int, struct rl_err *err) { rl_err_set(err, RL_ERR_UNSUPPORTED, "synth: not written yet"); return NULL; }
void rl_synth_close(rl_synth_ctx *) {}
int rl_synth_supported(const struct rl_synth *, struct rl_err *err) { rl_err_set(err, RL_ERR_UNSUPPORTED, "synth: not written yet"); return 0; }
int rl_synth_run(rl_synth_ctx *, const struct rl_synth *, struct rl_synth_result *, struct rl_err *err) { return rl_err_set(err, RL_ERR_UNSUPPORTED, "synth: not written yet"); }
}
