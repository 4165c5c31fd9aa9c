/* summary.c - running totals of a classified op list (see summary.h). */
#include "config.h"

#include "summary.h"

#include <stdlib.h>
#include <string.h>

void rl_summary_init(struct rl_summary *s)
{
	memset(s, 0, sizeof(*s));
}

void rl_summary_release(struct rl_summary *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->ntop; i++)
		free(s->top[i].name);
	memset(s, 0, sizeof(*s));
}

int rl_summary_add(struct rl_summary *s, const struct rl_op *op, const struct rl_pred *p,
                   struct rl_err *err)
{
	double n = (double)op->count;
	double t = n * p->t_us;
	size_t i, k;
	char *name;

	/* counted in integers: a double stops counting exactly at 2^53 */
	if (op->count > UINT64_MAX - s->occurrences)
		return rl_err_set(err, RL_ERR_RANGE,
		                  "column 'count': the total of occurrences passes 2^64 - 1 "
		                  "(%llu before this op, %llu in it)",
		                  (unsigned long long)s->occurrences,
		                  (unsigned long long)op->count);
	s->ops++;
	s->occurrences += op->count;
	s->total_us += t;
	s->gpu_us += n * p->t_gpu_us;
	s->bound_us[p->bound] += t;
	s->bound_ops[p->bound]++;
	s->flops += n * p->flops;
	s->bytes += n * p->bytes;
	s->fallbacks += p->fallback != 0;
	s->l2_ops += p->l2_resident != 0;
	s->l2_saved_us += n * p->l2_saved_us;
	if (op->has & RL_HAS_MEASURED) {
		s->measured_ops++;
		s->measured_us += n * op->measured_us;
		s->roofline_of_measured_us += n * p->t_gpu_us;
	}

	/* Insertion into a short sorted list; ties keep file order. */
	for (k = 0; k < s->ntop; k++)
		if (t > s->top[k].total_us)
			break;
	if (k == RL_SUMMARY_TOP)
		return 0;
	name = strdup(op->name);
	if (name == NULL)
		return RL_ERR_NOMEM;
	if (s->ntop == RL_SUMMARY_TOP)
		free(s->top[--s->ntop].name);
	for (i = s->ntop; i > k; i--)
		s->top[i] = s->top[i - 1];
	s->top[k] = (struct rl_summary_top){name, op->line, p->bound, t};
	s->ntop++;
	return 0;
}
