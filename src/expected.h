/* expected.h - expected time: what a good library kernel really takes.
 *
 * The roofline (model.h) is a bound: no kernel beats it. The expected time
 * is what a tuned library kernel (cuBLAS/cuBLASLt, cuDNN, PyTorch's own
 * kernels, flash attention) takes with a cold L2, from first principles
 * (tiles and waves, alignment, passes over the data, rows per SM, kernel
 * latency) and the residue those leave, fitted on measurements and kept as
 * data in an efficiency profile (effprof.h). Pure functions.
 */
#ifndef RL_EXPECTED_H
#define RL_EXPECTED_H

#include "model.h"
#include "op.h"

/* Sets P's expected_gpu_us, expected_us, expected_bound and expected_note
 * for OP on CTX, from P's roofline terms (rl_predict has set them). With
 * ctx->best_case the expected times are the roofline's. */
void rl_expected(const struct rl_op *op, const struct rl_model_ctx *ctx, struct rl_pred *p);

/* Sets P's expected times to its roofline times (a prediction assembled
 * outside rl_predict, before its own expected model is applied). */
void rl_expected_roofline(struct rl_pred *p);

/* A fusion group's kernel (fusion.h), P assembled by rl_fusion_predict: one
 * elementwise kernel over the group's reads and its last output. */
void rl_expected_fused(const struct rl_model_ctx *ctx, struct rl_pred *p);

/* An L2-resident kernel (l2.h): its expected work at DRAM
 * (DRAM_EXPECTED_GPU_US less the kernel latency) shrinks as its roofline
 * time did (from DRAM_T_GPU_US to P's t_gpu_us). NOTE: the expected note to
 * keep. */
void rl_expected_l2(const struct rl_model_ctx *ctx, struct rl_pred *p, double dram_expected_gpu_us,
                    double dram_t_gpu_us, const char *note);

#endif
