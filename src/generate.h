/* generate.h - a generation's times: the prefill, then the decode steps over
 * a growing context (roofline model --generate).
 *
 * Layer 2: arithmetic over a step function the caller supplies (the command
 * runs each step through the pipeline); no I/O. N output tokens are the
 * prefill, which yields the first, and N - 1 decode steps at contexts seq to
 * seq + N - 2, the convention of vLLM's, TensorRT-LLM's and gpt-fast's
 * benchmarks: total = prefill + the decode steps; tokens/s = batch x N /
 * total; the time per output token is the decode steps' mean (TPOT, vLLM's
 * benchmark_serving: (total - TTFT) / (N - 1)), not defined for N = 1 (the
 * prefill alone).
 *
 * Up to RL_GENERATE_EXACT decode steps, every step is evaluated. Beyond, the
 * step time is integrated over blocks of contexts: a step's time is a
 * piecewise smooth function of its context (attention's KV read grows
 * linearly; tiles, waves and the host-overhead floor make kinks and small
 * jumps), so the sum over a block [a, b) is taken as the trapezoid of its
 * ends, (b - a)(f(a) + f(b)) / 2 - (f(b) - f(a)) / 2, which is exact where f
 * is linear on the block. Each block's error is estimated as |fine - coarse|
 * (the trapezoid against the two trapezoids of its halves, split near the
 * middle at a point within a quarter of the length either side, by a hash
 * of the block's ends, so that the samples do not keep one phase of a
 * periodic staircase): three times the fine sum's error on a quadratic
 * piece, at least its error on a block with one jump in it. Starting from
 * RL_GENERATE_BLOCKS equal blocks, the block of the largest estimate is
 * split, until the estimates sum to at most RL_GENERATE_TOL of the decode
 * total (expected and roofline each) or RL_GENERATE_MAX_EVALS decode steps
 * have been evaluated; the result carries the estimate. A bump narrower than
 * a block and between its samples is not seen: no sampling sees it. Past
 * the budget (a step function no block count resolves) the estimate says
 * how far the sum may be off.
 */
#ifndef RL_GENERATE_H
#define RL_GENERATE_H

#include <stdint.h>

#include "err.h"

#define RL_GENERATE_EXACT     4096u  /* decode steps evaluated one by one */
#define RL_GENERATE_BLOCKS    64u    /* the first blocks beyond */
#define RL_GENERATE_MAX_EVALS 4096u  /* decode steps evaluated at most, beyond */
#define RL_GENERATE_TOL       1e-5   /* the estimated error sought, relative */

/* One step's times, expected and roofline (us). */
struct rl_generate_times {
	double expected_us, roofline_us;
};

/* One step: the prefill of the prompt (PREFILL 1; CONTEXT is the seq), or
 * the decode step at CONTEXT. Sets *T and returns 0, or returns a negative
 * status, its errors reported by the callback's own means. */
typedef int (*rl_generate_step_fn)(void *user, int prefill, uint64_t context,
                                   struct rl_generate_times *t);

/* What to generate. */
struct rl_generate_spec {
	uint64_t batch;       /* sequences, >= 1 */
	uint64_t seq;         /* prompt tokens per sequence, >= 1 */
	uint64_t tokens;      /* output tokens N per sequence, >= 1 */
	uint64_t max_context; /* the largest context a decode step may have */
};

struct rl_generate {
	struct rl_generate_spec spec;
	uint64_t steps;         /* decode steps: N - 1 */
	uint64_t first_context; /* of the decode steps: seq ... */
	uint64_t last_context;  /* ... seq + N - 2 (both 0 when steps is 0) */
	uint64_t evaluated;     /* decode steps evaluated: steps when exact */
	double error;           /* the estimated error of the decode sum over
	                         * its value, the larger of expected and
	                         * roofline (0: every step evaluated) */
	struct rl_generate_times prefill;   /* the time to first token */
	struct rl_generate_times decode;    /* the decode steps' sum */
	struct rl_generate_times total;     /* prefill + decode */
	struct rl_generate_times per_token; /* decode / steps; NaN when steps is 0 */
	double tokens_per_s;          /* batch x N / total (0 for a total of 0) */
	double tokens_per_s_roofline; /* the same over the roofline total */
};

/* The context of the last decode step of SPEC within SPEC->max_context:
 * 0, or RL_ERR_RANGE with a message naming --generate, --seq, the last
 * context and the cap (and the largest N at this seq). Also RL_ERR_RANGE
 * for a size of 0. */
int rl_generate_check(const struct rl_generate_spec *spec, struct rl_err *err);

/* Runs SPEC (rl_generate_check first) with STEP: the prefill, then the
 * decode steps, every one or by blocks (above), into *G. Returns 0,
 * RL_ERR_RANGE (ERR filled), RL_ERR_NOMEM, or the first negative status of
 * STEP. */
int rl_generate_run(const struct rl_generate_spec *spec, rl_generate_step_fn step, void *user,
                    struct rl_generate *g, struct rl_err *err);

#endif
