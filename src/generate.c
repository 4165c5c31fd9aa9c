/* generate.c - a generation's times: the prefill, then the decode steps,
 * every one or integrated over blocks of contexts (see generate.h). */
#include "config.h"

#include "generate.h"

#include <math.h>
#include <stdlib.h>

int rl_generate_check(const struct rl_generate_spec *s, struct rl_err *err)
{
	uint64_t steps, last;

	if (s->batch < 1 || s->seq < 1 || s->tokens < 1 || s->max_context < 1)
		return rl_err_set(err, RL_ERR_RANGE,
		                  "--generate: the batch, the prompt and the output tokens must be at "
		                  "least 1");
	steps = s->tokens - 1;
	if (steps == 0 || (s->seq <= s->max_context && steps - 1 <= s->max_context - s->seq))
		return 0;
	last = s->seq + (steps - 1);
	if (s->seq > s->max_context)
		return rl_err_set(err, RL_ERR_RANGE,
		                  "--generate %llu at --seq %llu: the first decode step's context "
		                  "%llu passes the largest context %llu (only --generate 1, the "
		                  "prefill, at this --seq)",
		                  (unsigned long long)s->tokens, (unsigned long long)s->seq,
		                  (unsigned long long)s->seq, (unsigned long long)s->max_context);
	return rl_err_set(err, RL_ERR_RANGE,
	                  "--generate %llu at --seq %llu: the last decode step's context %llu "
	                  "passes the largest context %llu (at most --generate %llu at this --seq)",
	                  (unsigned long long)s->tokens, (unsigned long long)s->seq,
	                  (unsigned long long)last, (unsigned long long)s->max_context,
	                  (unsigned long long)(s->max_context - s->seq + 2));
}

/* ---- the decode steps by blocks ------------------------------------------ */

/* The contexts [a, b) of a block, its ends and midpoint m evaluated; fine:
 * the sum of its halves' trapezoids, e: |fine - coarse|; x expected, r
 * roofline. */
struct block {
	uint64_t a, b, m;
	struct rl_generate_times fa, fb, fm;
	double fine_x, fine_r, e_x, e_r, key;
};

struct blocks {
	rl_generate_step_fn step;
	void *user;
	uint64_t evaluated;
	double scale_x, scale_r; /* the first estimate of the totals: the keys' units */
	struct block *heap;      /* a max-heap by key */
	size_t n;
	double done_x, done_r;   /* blocks of one context: exact */
	double fine_x, fine_r, e_x, e_r; /* over the heap */
};

/* sum over c in [a, b) of f, f linear from FA at a to FB at b */
static double trap(uint64_t a, uint64_t b, double fa, double fb)
{
	return (double)(b - a) * (fa + fb) / 2 - (fb - fa) / 2;
}

static int eval(struct blocks *bl, uint64_t c, struct rl_generate_times *t)
{
	bl->evaluated++;
	return bl->step(bl->user, 0, c, t);
}

static void sift_up(struct blocks *bl, size_t i)
{
	while (i > 0 && bl->heap[(i - 1) / 2].key < bl->heap[i].key) {
		struct block t = bl->heap[i];

		bl->heap[i] = bl->heap[(i - 1) / 2];
		bl->heap[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void sift_down(struct blocks *bl, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, top = i;
		struct block t;

		if (l < bl->n && bl->heap[l].key > bl->heap[top].key)
			top = l;
		if (r < bl->n && bl->heap[r].key > bl->heap[top].key)
			top = r;
		if (top == i)
			return;
		t = bl->heap[i];
		bl->heap[i] = bl->heap[top];
		bl->heap[top] = t;
		i = top;
	}
}

static double key(const struct blocks *bl, const struct block *k)
{
	double x = k->e_x / bl->scale_x, r = k->e_r / bl->scale_r;

	return x > r ? x : r;
}

/* The point where [A, B) is split: its middle moved by up to a quarter of
 * its length, by a hash of A and B, so that the samples do not keep one
 * phase of a periodic step (tiles of 64 or 128 keys) across the blocks. */
static uint64_t split_point(uint64_t a, uint64_t b)
{
	uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full);
	uint64_t len = b - a, q = len / 4, m;

	h ^= h >> 29;
	m = a + len / 2 - q + (q > 0 ? h % (2 * q + 1) : 0);
	return m > a && m < b ? m : a + len / 2;
}

/* Adds the block [A, B) with its ends' times: exact for one context, else
 * its midpoint evaluated and the block on the heap. */
static int add_block(struct blocks *bl, uint64_t a, uint64_t b, struct rl_generate_times fa,
                     struct rl_generate_times fb)
{
	struct block *k;
	int rc;

	if (b - a == 1) {
		bl->done_x += fa.expected_us;
		bl->done_r += fa.roofline_us;
		return 0;
	}
	k = &bl->heap[bl->n];
	k->a = a;
	k->b = b;
	k->m = split_point(a, b);
	k->fa = fa;
	k->fb = fb;
	rc = eval(bl, k->m, &k->fm);
	if (rc < 0)
		return rc;
	k->fine_x = trap(a, k->m, fa.expected_us, k->fm.expected_us) +
	            trap(k->m, b, k->fm.expected_us, fb.expected_us);
	k->fine_r = trap(a, k->m, fa.roofline_us, k->fm.roofline_us) +
	            trap(k->m, b, k->fm.roofline_us, fb.roofline_us);
	k->e_x = fabs(k->fine_x - trap(a, b, fa.expected_us, fb.expected_us));
	k->e_r = fabs(k->fine_r - trap(a, b, fa.roofline_us, fb.roofline_us));
	k->key = key(bl, k);
	bl->fine_x += k->fine_x;
	bl->fine_r += k->fine_r;
	bl->e_x += k->e_x;
	bl->e_r += k->e_r;
	bl->n++;
	sift_up(bl, bl->n - 1);
	return 0;
}

/* The decode steps at contexts LO to HI by blocks into G->decode,
 * G->evaluated and G->error. */
static int by_blocks(rl_generate_step_fn step, void *user, uint64_t lo, uint64_t hi,
                     struct rl_generate *g)
{
	struct blocks bl = {step, user, 0, 1, 1, NULL, 0, 0, 0, 0, 0, 0, 0};
	struct rl_generate_times prev, next, last;
	uint64_t span = hi - lo, a, i;
	size_t j;
	int rc;

	bl.heap = malloc((RL_GENERATE_MAX_EVALS + RL_GENERATE_BLOCKS + 2) * sizeof(*bl.heap));
	if (bl.heap == NULL)
		return RL_ERR_NOMEM;
	rc = eval(&bl, lo, &prev);
	a = lo;
	for (i = 1; rc == 0 && i <= RL_GENERATE_BLOCKS; i++) {
		uint64_t b = lo + span * i / RL_GENERATE_BLOCKS;

		rc = eval(&bl, b, &next);
		if (rc == 0)
			rc = add_block(&bl, a, b, prev, next);
		a = b;
		prev = next;
	}
	last = prev; /* at hi */
	/* the keys in units of the first estimate */
	if (rc == 0) {
		double x = bl.done_x + bl.fine_x + last.expected_us;
		double r = bl.done_r + bl.fine_r + last.roofline_us;

		bl.scale_x = x > 0 ? x : 1;
		bl.scale_r = r > 0 ? r : 1;
		for (j = 0; j < bl.n; j++)
			bl.heap[j].key = key(&bl, &bl.heap[j]);
		for (j = bl.n / 2 + 1; j-- > 0;)
			sift_down(&bl, j);
	}
	while (rc == 0 && bl.n > 0 && bl.evaluated + 2 <= RL_GENERATE_MAX_EVALS) {
		struct block k = bl.heap[0];
		double x = bl.done_x + bl.fine_x + last.expected_us;
		double r = bl.done_r + bl.fine_r + last.roofline_us;

		if (bl.e_x <= RL_GENERATE_TOL * fabs(x) && bl.e_r <= RL_GENERATE_TOL * fabs(r))
			break;
		bl.heap[0] = bl.heap[--bl.n];
		sift_down(&bl, 0);
		bl.fine_x -= k.fine_x;
		bl.fine_r -= k.fine_r;
		bl.e_x -= k.e_x;
		bl.e_r -= k.e_r;
		rc = add_block(&bl, k.a, k.m, k.fa, k.fm);
		if (rc == 0)
			rc = add_block(&bl, k.m, k.b, k.fm, k.fb);
	}
	if (rc == 0) {
		/* summed again, so that the running sums' rounding does not stay */
		double x = bl.done_x + last.expected_us, r = bl.done_r + last.roofline_us;
		double ex = 0, er = 0;

		for (j = 0; j < bl.n; j++) {
			x += bl.heap[j].fine_x;
			r += bl.heap[j].fine_r;
			ex += bl.heap[j].e_x;
			er += bl.heap[j].e_r;
		}
		g->decode.expected_us = x;
		g->decode.roofline_us = r;
		g->evaluated = bl.evaluated;
		ex = x > 0 ? ex / x : 0;
		er = r > 0 ? er / r : 0;
		g->error = ex > er ? ex : er;
	}
	free(bl.heap);
	return rc;
}

/* ---- the generation ------------------------------------------------------- */

static double per_s(double tokens, double us)
{
	return us > 0 ? tokens / us * 1e6 : 0;
}

int rl_generate_run(const struct rl_generate_spec *spec, rl_generate_step_fn step, void *user,
                    struct rl_generate *g, struct rl_err *err)
{
	double tok;
	uint64_t c;
	int rc = rl_generate_check(spec, err);

	if (rc < 0)
		return rc;
	g->spec = *spec;
	g->steps = spec->tokens - 1;
	g->first_context = g->steps > 0 ? spec->seq : 0;
	g->last_context = g->steps > 0 ? spec->seq + g->steps - 1 : 0;
	g->evaluated = 0;
	g->error = 0;
	g->decode.expected_us = g->decode.roofline_us = 0;
	rc = step(user, 1, spec->seq, &g->prefill);
	if (rc < 0)
		return rc;
	if (g->steps > RL_GENERATE_EXACT) {
		rc = by_blocks(step, user, g->first_context, g->last_context, g);
		if (rc < 0)
			return rc;
	} else {
		for (c = g->first_context; g->steps > 0 && c <= g->last_context; c++) {
			struct rl_generate_times t;

			rc = step(user, 0, c, &t);
			if (rc < 0)
				return rc;
			g->decode.expected_us += t.expected_us;
			g->decode.roofline_us += t.roofline_us;
		}
		g->evaluated = g->steps;
	}
	g->total.expected_us = g->prefill.expected_us + g->decode.expected_us;
	g->total.roofline_us = g->prefill.roofline_us + g->decode.roofline_us;
	g->per_token.expected_us = g->steps > 0 ? g->decode.expected_us / (double)g->steps : NAN;
	g->per_token.roofline_us = g->steps > 0 ? g->decode.roofline_us / (double)g->steps : NAN;
	tok = (double)spec->batch * (double)spec->tokens;
	g->tokens_per_s = per_s(tok, g->total.expected_us);
	g->tokens_per_s_roofline = per_s(tok, g->total.roofline_us);
	return 0;
}
