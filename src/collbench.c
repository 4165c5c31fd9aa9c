/* collbench.c - algorithm and bus bandwidth of recorded collectives (see
 * collbench.h). */
#include "config.h"

#include "collbench.h"

#include <string.h>

#include "collective.h"

int rl_collbench_figures(const struct rl_bench_entry *e, struct rl_collfig *f)
{
	struct rl_bench_stats s;

	memset(f, 0, sizeof(*f));
	if (e->group != RL_BENCH_COLLECTIVE || rl_kind_parse(e->name, &f->kind) < 0 ||
	    !rl_kind_is_collective(f->kind) || e->ranks < 1)
		return RL_ERR_PARSE;
	rl_bench_stats(e, &s);
	f->factor = rl_collective_bus_factor(f->kind, (uint64_t)e->ranks);
	f->median_us = s.median_us;
	f->algbw_gbs = s.gbs_median;
	f->busbw_gbs = f->algbw_gbs * f->factor;
	return 0;
}

int rl_collbench_summary(const struct rl_bench *b, enum rl_kind k, struct rl_collsum *s,
                         struct rl_err *err)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->kind = k;
	for (i = 0; i < b->n; i++) {
		const struct rl_bench_entry *e = &b->e[i];
		struct rl_collfig f;

		if (e->check < 0 || rl_collbench_figures(e, &f) < 0 || f.kind != k)
			continue;
		if (s->sizes > 0 && e->ranks != s->ranks)
			return rl_err_set(err, RL_ERR_PARSE,
			                  "the recording's %s entries are on %d and %d ranks (one "
			                  "calibration per rank count)",
			                  rl_kind_name(k), s->ranks, e->ranks);
		s->ranks = e->ranks;
		s->sizes++;
		if (s->largest == NULL || e->bytes > s->bytes ||
		    (e->bytes == s->bytes && f.busbw_gbs > s->busbw_gbs)) {
			s->largest = e;
			s->bytes = e->bytes;
			s->algbw_gbs = f.algbw_gbs;
			s->busbw_gbs = f.busbw_gbs;
		}
		if (e->bytes <= RL_COLLBENCH_LATENCY_BYTES &&
		    (s->smallest == NULL || f.median_us < s->latency_us)) {
			s->smallest = e;
			s->latency_us = f.median_us;
		}
	}
	if (s->sizes == 0)
		return rl_err_set(err, RL_ERR_NOTFOUND,
		                  "the recording has no %s with a passing check", rl_kind_name(k));
	return 0;
}
