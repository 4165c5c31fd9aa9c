/* family.c - the one table of model families (see family.h): lookup by
 * model_type and the list of known names for messages and help. A family
 * is added here by one row, in the order messages list it. */
#include "config.h"

#include "family.h"

#include <stdio.h>
#include <string.h>

extern const struct rl_family rl_family_llama, rl_family_mixtral, rl_family_qwen2, rl_family_qwen3,
	rl_family_qwen2_moe, rl_family_qwen3_moe, rl_family_gemma2, rl_family_gemma3, rl_family_phi3,
	rl_family_olmo2, rl_family_granite, rl_family_falcon, rl_family_deepseek, rl_family_deepseek_v3,
	rl_family_gpt_oss,
	rl_family_gpt2,
	rl_family_bert, rl_family_vit;

const struct rl_family *const rl_families[] = {
	&rl_family_llama,
	&rl_family_mixtral,
	&rl_family_qwen2,
	&rl_family_qwen3,
	&rl_family_qwen2_moe,
	&rl_family_qwen3_moe,
	&rl_family_gemma2,
	&rl_family_gemma3,
	&rl_family_phi3,
	&rl_family_olmo2,
	&rl_family_granite,
	&rl_family_falcon,
	&rl_family_deepseek,
	&rl_family_deepseek_v3,
	&rl_family_gpt_oss,
	&rl_family_gpt2,
	&rl_family_bert,
	&rl_family_vit,
	NULL,
};

const struct rl_family *rl_family_find(const char *model_type)
{
	size_t i, j;

	for (i = 0; rl_families[i] != NULL; i++)
		for (j = 0; rl_families[i]->model_types[j] != NULL; j++)
			if (strcmp(rl_families[i]->model_types[j], model_type) == 0)
				return rl_families[i];
	return NULL;
}

int rl_family_index(const char *name)
{
	const struct rl_family *f = rl_family_find(name);
	int i;

	for (i = 0; rl_families[i] != NULL; i++)
		if (strcmp(rl_families[i]->name, name) == 0 || rl_families[i] == f)
			return i;
	return -1;
}

const struct rl_family *rl_family_of(const struct rl_hfconfig *c)
{
	const struct rl_family *f;
	size_t i;

	if (c->fam != NULL)
		return c->fam;
	if ((f = rl_family_find(c->model_type)) != NULL)
		return f;
	for (i = 0; rl_families[i] != NULL; i++)
		if (rl_families[i]->tag == c->family)
			return rl_families[i];
	return rl_families[0];
}

void rl_family_block(const struct rl_hfconfig *c, struct rl_block *b)
{
	memset(b, 0, sizeof(*b));
	rl_family_of(c)->block(c, b);
}

static int wanted(const struct rl_family *f, unsigned has, unsigned lacks)
{
	unsigned bits = f->phases | f->layouts;

	return (bits & has) == has && (bits & lacks) == 0;
}

int rl_family_names(char *buf, size_t len, unsigned has, unsigned lacks)
{
	size_t i, j, used = 0;
	int n = 0, total = 0;

	for (i = 0; rl_families[i] != NULL; i++)
		if (wanted(rl_families[i], has, lacks))
			for (j = 0; rl_families[i]->model_types[j] != NULL; j++)
				total++;
	if (len > 0)
		buf[0] = '\0';
	for (i = 0; rl_families[i] != NULL; i++) {
		if (!wanted(rl_families[i], has, lacks))
			continue;
		for (j = 0; rl_families[i]->model_types[j] != NULL; j++) {
			n++;
			if (used < len)
				used += (size_t)snprintf(buf + used, len - used, "%s%s",
				                         n == 1       ? ""
				                         : n == total ? " or "
				                                      : ", ",
				                         rl_families[i]->model_types[j]);
		}
	}
	return n;
}
