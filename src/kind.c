/* kind.c - the table of op kinds generated from RL_KIND_MAP, and their names
 * (see kind.h). */
#include "config.h"

#include "kind.h"

#include <string.h>
#include <strings.h>

#include "err.h"

/* Rows in enum order: RL_KIND_MAP's, then the output-only fused (kept from
 * clang-format, which cannot see the rows the macro expands to). */
/* clang-format off */
static const struct rl_kind_info kinds[RL_KIND_COUNT] = {
#define RL_KIND_ROW(e, nm, lo, hi, form, fpe, by, w, fl, cols)                                     \
	[RL_KIND_##e] = {.name = nm, .min_dims = lo, .max_dims = hi, .shape_form = form,          \
	                 .default_fpe = fpe, .bytes = by, .weights = w, .flags = fl, .columns = cols},
	RL_KIND_MAP(RL_KIND_ROW)
#undef RL_KIND_ROW
	/* a fusion group (fusion.h): its FLOPs and bytes are its members' */
	[RL_KIND_FUSED] = {.name = "fused", .min_dims = 0, .max_dims = 6, .default_fpe = 1.0,
	                   .bytes = RL_BYTES_GIVEN, .weights = RL_WEIGHTS_NONE,
	                   .flags = RL_KF_OUTPUT_ONLY},
};
/* clang-format on */

/* The names of the op list's kinds joined at compile time, less the first
 * ", ". */
#define RL_KIND_LISTED(e, nm, lo, hi, form, fpe, by, w, fl, cols) ", " nm
static const char listed[] = RL_KIND_MAP(RL_KIND_LISTED);
#undef RL_KIND_LISTED

const struct rl_kind_info *rl_kind_info(enum rl_kind k)
{
	return &kinds[k];
}

const char *rl_kind_name(enum rl_kind k)
{
	return kinds[k].name;
}

int rl_kind_parse(const char *name, enum rl_kind *out)
{
	int i;

	for (i = 0; i < RL_KIND_FUSED; i++) {
		/* first letters differ for most names: skip strcasecmp for them */
		if ((name[0] | 0x20) == kinds[i].name[0] && strcasecmp(name, kinds[i].name) == 0) {
			*out = (enum rl_kind)i;
			return 0;
		}
	}
	return RL_ERR_PARSE;
}

const char *rl_kind_expected(void)
{
	return listed + 2;
}

int rl_kind_is_collective(enum rl_kind k)
{
	return (kinds[k].flags & RL_KF_COLLECTIVE) != 0;
}

int rl_kind_is_matrix(enum rl_kind k)
{
	return (kinds[k].flags & RL_KF_MATRIX) != 0;
}

const char *const *rl_kind_column_names(unsigned bit)
{
	/* in the bits' order (kind.h) */
	static const char *const names[RL_KCOL_BITS + 1][9] = {
		{"kernel", "stride", "padding", "groups", NULL},
		{"causal", "kv_heads", "window", "v_head_dim", "kv_shared", "kv_cached", "mask",
		 "mask_shape", NULL},
		{"weight_dtype", "weight_group", "weight_count", "trainable", NULL},
		{"inputs", NULL},
		{"perm", NULL},
		{"grouped", "layout", NULL},
		{"ranks", "nodes", "overlap", NULL},
		{"flops_per_element", NULL},
		{"strided", NULL},
		{"params", NULL},
		{"kv_dtype", NULL},
		{"vector_bytes", NULL},
		{NULL},
	};
	unsigned i;

	for (i = 0; i < RL_KCOL_BITS; i++)
		if (bit == 1u << i)
			return names[i];
	return names[RL_KCOL_BITS];
}
