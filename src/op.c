/* op.c - defaults of an operator, its host keys and phase names (see op.h). */
#include "config.h"

#include "op.h"

#include <string.h>
#include <strings.h>

#include "err.h"

void rl_op_init(struct rl_op *op)
{
	memset(op, 0, sizeof(*op));
	op->name = "";
	op->kind = RL_KIND_CUSTOM;
	op->dtype = RL_FP32;
	op->unit = RL_UNIT_AUTO;
	op->stride = 1;
	op->padding = 0;
	op->groups = 1;
	op->inputs = 1;
	op->launches = 1;
	op->count = 1;
	op->nodes = 1;
}

/* The names of the host keys past the kinds (enum rl_host_key). */
static const char *const host_path_names[RL_HOST_KEY_COUNT - RL_KIND_COUNT] = {
	[RL_HOST_MATMUL_FP8 - RL_KIND_COUNT] = "matmul.fp8",
};

int rl_op_host_key(const struct rl_op *op)
{
	if (op->kind == RL_KIND_MATMUL && (op->dtype == RL_FP8E4M3 || op->dtype == RL_FP8E5M2))
		return RL_HOST_MATMUL_FP8;
	return (int)op->kind;
}

enum rl_kind rl_host_key_kind(int key)
{
	return key == RL_HOST_MATMUL_FP8 ? RL_KIND_MATMUL : (enum rl_kind)key;
}

const char *rl_host_key_name(int key)
{
	if (key >= 0 && key < RL_KIND_COUNT)
		return rl_kind_name((enum rl_kind)key);
	if (key >= RL_KIND_COUNT && key < RL_HOST_KEY_COUNT)
		return host_path_names[key - RL_KIND_COUNT];
	return NULL;
}

int rl_host_key_parse(const char *name, int *out)
{
	enum rl_kind k;
	int i;

	for (i = RL_KIND_COUNT; i < RL_HOST_KEY_COUNT; i++)
		if (strcmp(name, host_path_names[i - RL_KIND_COUNT]) == 0) {
			*out = i;
			return 0;
		}
	if (rl_kind_parse(name, &k) < 0)
		return RL_ERR_PARSE;
	*out = (int)k;
	return 0;
}

static const char *const phase_names[RL_PHASE_COUNT] = {
	[RL_PHASE_FORWARD] = "forward",
	[RL_PHASE_BACKWARD] = "backward",
	[RL_PHASE_OPTIMIZER] = "optimizer",
};

const char *rl_phase_name(enum rl_phase p)
{
	return phase_names[p];
}

int rl_phase_parse(const char *name, enum rl_phase *out)
{
	int i;

	for (i = 0; i < RL_PHASE_COUNT; i++) {
		if (strcasecmp(name, phase_names[i]) == 0) {
			*out = (enum rl_phase)i;
			return 0;
		}
	}
	return RL_ERR_PARSE;
}
