/* xcheck.c - matching a probed GPU to the database (see xcheck.h). */
#include "config.h"

#include "xcheck.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_TOKENS 16
#define TOKEN_MAX 32

struct tokens {
	char t[MAX_TOKENS][TOKEN_MAX];
	int n;
};

/* Adds the lower-case alphanumeric words of S to TK, leaving out vendor and
 * brand words and, for a MIG slice, the profile after "MIG". */
static void tokenize(const char *s, struct tokens *tk)
{
	static const char *const skip[] = {"nvidia", "tesla", "geforce", "quadro"};
	char w[TOKEN_MAX];
	size_t n, i;

	while (*s != '\0' && tk->n < MAX_TOKENS) {
		while (*s != '\0' && !isalnum((unsigned char)*s))
			s++;
		for (n = 0; isalnum((unsigned char)*s); s++)
			if (n < TOKEN_MAX - 1)
				w[n++] = (char)tolower((unsigned char)*s);
		w[n] = '\0';
		if (n == 0)
			break;
		if (strcmp(w, "mig") == 0)
			return;
		for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
			if (strcmp(w, skip[i]) == 0)
				break;
		if (i == sizeof(skip) / sizeof(skip[0]))
			strcpy(tk->t[tk->n++], w);
	}
}

static int has_token(const struct tokens *tk, const char *w)
{
	int i;

	for (i = 0; i < tk->n; i++)
		if (strcmp(tk->t[i], w) == 0)
			return 1;
	return 0;
}

/* The model word of a GPU name: its first word with a digit ("h100" in
 * "NVIDIA H100 80GB HBM3", "4090" in "NVIDIA GeForce RTX 4090"). */
static const char *model_token(const struct tokens *tk)
{
	int i;
	const char *p;

	for (i = 0; i < tk->n; i++)
		for (p = tk->t[i]; *p != '\0'; p++)
			if (isdigit((unsigned char)*p))
				return tk->t[i];
	return NULL;
}

static double gib(const struct rl_gpu *g)
{
	return (double)g->total_mem_bytes / (1024.0 * 1024 * 1024);
}

const struct rl_device *rl_xcheck_match(const rl_hwdb *db, const struct rl_gpu *g, char *why,
                                        size_t whylen)
{
	const struct rl_device *best = NULL;
	struct tokens gt = {0};
	const char *model;
	int best_score = -1, mig = rl_gpu_is_mig(g), i;
	size_t k;

	tokenize(g->name, &gt);
	model = model_token(&gt);
	if (model == NULL) {
		snprintf(why, whylen, "no model number in the name '%s'", g->name);
		return NULL;
	}
	for (k = 0; k < rl_hwdb_device_count(db); k++) {
		const struct rl_device *d = rl_hwdb_device(db, k);
		struct tokens dt = {0};
		int score = 0;

		/* A calibrated file measured one card: the datasheet entry is
		 * the match, whatever measured copies sit beside it. */
		if (rl_device_calibrated(d))
			continue;
		tokenize(d->id, &dt);
		tokenize(d->name, &dt);
		if (d->aliases != NULL)
			tokenize(d->aliases, &dt);
		if (!has_token(&dt, model))
			continue;
		for (i = 0; i < gt.n; i++)
			score += has_token(&dt, gt.t[i]);
		/* A MIG slice has fewer SMs and less memory than its card. */
		if (!mig && d->num[RL_HW_SM_COUNT].value == g->sm_count)
			score += 4;
		if (!mig && d->num[RL_HW_MEMORY_GIB].present &&
		    fabs(gib(g) / d->num[RL_HW_MEMORY_GIB].value - 1) < 0.10)
			score += 2;
		if (score > best_score) {
			best = d;
			best_score = score;
		}
	}
	if (best == NULL)
		snprintf(why, whylen, "no entry names a '%s'", model);
	else if (mig)
		snprintf(why, whylen, "name '%s' (a MIG slice: SMs and memory not compared)", model);
	else
		snprintf(why, whylen, "name '%s', %d SMs (entry: %.0f), %.1f GiB of memory (entry: %g)",
		         model, g->sm_count, best->num[RL_HW_SM_COUNT].value, gib(g),
		         best->num[RL_HW_MEMORY_GIB].value);
	return best;
}

void rl_xcheck_run(const rl_hwdb *db, const struct rl_gpu *g, const struct rl_device *probed,
                   struct rl_xcheck *x)
{
	const struct rl_device *e;
	size_t i;

	memset(x, 0, sizeof(*x));
	e = x->entry = rl_xcheck_match(db, g, x->why, sizeof(x->why));
	if (rl_gpu_is_mig(g))
		snprintf(x->warning[x->nwarnings++], sizeof(x->warning[0]),
		         "'%s' is a MIG slice: its %d SMs and %.1f GiB are a part of the card, and "
		         "memory bandwidth is shared with the other slices", g->name, g->sm_count,
		         gib(g));
	if (e == NULL)
		return;
	if (e->num[RL_HW_BOOST_CLOCK_MHZ].present &&
	    g->clock_khz / 1e3 < e->num[RL_HW_BOOST_CLOCK_MHZ].value * (1 - 0.005))
		snprintf(x->warning[x->nwarnings++], sizeof(x->warning[0]),
		         "the maximum SM clock, %d MHz, is below the datasheet's %g MHz: a lower "
		         "SKU, a power cap or a locked clock; peaks scale down with it",
		         g->clock_khz / 1000, e->num[RL_HW_BOOST_CLOCK_MHZ].value);
	for (i = 0; i < RL_HW_NUM_COUNT; i++) {
		struct rl_xcheck_row *r = &x->rows[x->nrows];
		enum rl_hw_key k = rl_hw_key_at(i);

		r->key = k;
		r->in_probe = probed->num[k].present;
		r->in_hwdb = e->num[k].present;
		/* no attribute gives a cache bandwidth, nor the read-only and
		 * write-only ones, nor the links' (NVLink, PCIe): only a
		 * benchmark or a datasheet gives them, so the probe
		 * never has them and their absence is no difference */
		if (!r->in_probe && (!r->in_hwdb || k == RL_HW_L2_BANDWIDTH_GBS ||
		                     k == RL_HW_MEM_READ_BANDWIDTH_GBS ||
		                     k == RL_HW_MEM_WRITE_BANDWIDTH_GBS ||
		                     k == RL_HW_NVLINK_BANDWIDTH_GBS ||
		                     k == RL_HW_PCIE_BANDWIDTH_GBS))
			continue;
		r->probe = probed->num[k].value;
		r->hwdb = e->num[k].value;
		if (r->in_probe && r->in_hwdb && r->hwdb > 0) {
			r->rel_diff = (r->probe - r->hwdb) / r->hwdb;
			r->flagged = fabs(r->rel_diff) > RL_XCHECK_TOLERANCE;
		} else {
			r->flagged = 1;
		}
		x->nflagged += (size_t)r->flagged;
		x->nrows++;
	}
}
