/* hfconfig.c - the architecture numbers of a Hugging Face config.json
 * (see hfconfig.h): the document, its model_type and the primitives the
 * family readers (family_*.c) take their keys with. Read whole with yajl's
 * tree parser: a config is a few dozen keys. */
#include "config.h"

#include "hfconfig.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_tree.h>

#include "family.h"
#include "json.h"

static int bad(const struct rl_hfconfig_rd *r, const char *key, const char *what)
{
	return rl_err_set(r->err, RL_ERR_PARSE, "%s: key '%s': expected %s", r->name, key, what);
}

/* The member KEY, or NULL when absent or null (as transformers writes an
 * unset optional value). */
static yajl_val member(const struct rl_hfconfig_rd *r, const char *key)
{
	yajl_val v = rl_json_member((yajl_val)r->root, key);

	return v != NULL && YAJL_IS_NULL(v) ? NULL : v;
}

int rl_hfconfig_has(const struct rl_hfconfig_rd *r, const char *key)
{
	return member(r, key) != NULL;
}

int rl_hfconfig_size(const struct rl_hfconfig_rd *r, const char *key, uint64_t def,
                     uint64_t *out)
{
	yajl_val v = member(r, key);

	if (v == NULL) {
		if (def == 0)
			return rl_err_set(r->err, RL_ERR_PARSE, "%s: key '%s' is missing", r->name,
			                  key);
		*out = def;
		return 0;
	}
	if (!YAJL_IS_INTEGER(v) || YAJL_GET_INTEGER(v) < 1 ||
	    YAJL_GET_INTEGER(v) > (long long)RL_HFCONFIG_MAX)
		return bad(r, key, "an integer from 1 to 16777216");
	*out = (uint64_t)YAJL_GET_INTEGER(v);
	return 0;
}

int rl_hfconfig_bool(const struct rl_hfconfig_rd *r, const char *key, int def, int *out)
{
	yajl_val v = member(r, key);

	if (v == NULL) {
		*out = def;
		return 0;
	}
	if (!YAJL_IS_TRUE(v) && !YAJL_IS_FALSE(v))
		return bad(r, key, "true or false");
	*out = YAJL_IS_TRUE(v);
	return 0;
}

int rl_hfconfig_number(const struct rl_hfconfig_rd *r, const char *key, double def, double *out)
{
	yajl_val v = member(r, key);

	if (v == NULL) {
		*out = def;
		return 0;
	}
	if (!YAJL_IS_NUMBER(v) || !isfinite(YAJL_GET_DOUBLE(v)) || YAJL_GET_DOUBLE(v) <= 0)
		return bad(r, key, "a positive number");
	*out = YAJL_GET_DOUBLE(v);
	return 0;
}

void rl_hfconfig_mark(struct rl_hfconfig *c, uint64_t i, unsigned bits)
{
	uint64_t j;

	if (!c->layered) {
		for (j = 0; j < c->layers && j < RL_HFCONFIG_LAYERS; j++)
			c->layer[j] = (unsigned char)c->layer_all;
		c->layered = 1;
	}
	if (i < RL_HFCONFIG_LAYERS)
		c->layer[i] |= (unsigned char)bits;
}

int rl_hfconfig_layered(const struct rl_hfconfig_rd *r, const char *key,
                        const struct rl_hfconfig *c)
{
	if (c->layers <= RL_HFCONFIG_LAYERS)
		return 0;
	return rl_err_set(r->err, RL_ERR_PARSE,
	                  "%s: key '%s': layers that differ need at most %u of them "
	                  "(num_hidden_layers is %llu)",
	                  r->name, key, RL_HFCONFIG_LAYERS, (unsigned long long)c->layers);
}

int rl_hfconfig_layer_types(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	yajl_val v = member(r, "layer_types");
	size_t i;

	if (v == NULL)
		return 0;
	if (!YAJL_IS_ARRAY(v) || v->u.array.len != c->layers)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'layer_types': expected an array of %llu strings (one a "
		                  "layer)",
		                  r->name, (unsigned long long)c->layers);
	if (rl_hfconfig_layered(r, "layer_types", c) < 0)
		return RL_ERR_PARSE;
	for (i = 0; i < v->u.array.len; i++) {
		yajl_val t = v->u.array.values[i];

		if (YAJL_IS_STRING(t) && strcmp(t->u.string, "sliding_attention") == 0)
			rl_hfconfig_mark(c, i, RL_LAYER_SLIDING);
		else if (YAJL_IS_STRING(t) && strcmp(t->u.string, "full_attention") == 0)
			rl_hfconfig_mark(c, i, 0);
		else
			return rl_err_set(r->err, RL_ERR_PARSE,
			                  "%s: key 'layer_types': element %zu: expected "
			                  "\"sliding_attention\" or \"full_attention\"",
			                  r->name, i);
	}
	return 1;
}

int rl_hfconfig_layer_list(const struct rl_hfconfig_rd *r, const char *key, unsigned bits,
                           struct rl_hfconfig *c)
{
	yajl_val v = member(r, key);
	size_t i;

	if (v == NULL)
		return 0;
	if (!YAJL_IS_ARRAY(v))
		return bad(r, key, "an array of layer indices");
	if (v->u.array.len > 0 && rl_hfconfig_layered(r, key, c) < 0)
		return RL_ERR_PARSE;
	for (i = 0; i < v->u.array.len; i++) {
		yajl_val t = v->u.array.values[i];

		if (!YAJL_IS_INTEGER(t) || YAJL_GET_INTEGER(t) < 0 ||
		    (unsigned long long)YAJL_GET_INTEGER(t) >= c->layers)
			return rl_err_set(r->err, RL_ERR_PARSE,
			                  "%s: key '%s': element %zu: expected a layer index from 0 "
			                  "to %llu",
			                  r->name, key, i, (unsigned long long)c->layers - 1);
		rl_hfconfig_mark(c, (uint64_t)YAJL_GET_INTEGER(t), bits);
	}
	return 0;
}

int rl_hfconfig_string(const struct rl_hfconfig_rd *r, const char *key, char *buf, size_t len)
{
	yajl_val v = member(r, key);

	if (v == NULL)
		return 0;
	if (!YAJL_IS_STRING(v))
		return bad(r, key, "a string");
	snprintf(buf, len, "%s", v->u.string);
	return 1;
}

int rl_hfconfig_sub(const struct rl_hfconfig_rd *r, const char *key, struct rl_hfconfig_rd *sub)
{
	yajl_val v = member(r, key);

	if (v == NULL)
		return 0;
	if (!YAJL_IS_OBJECT(v))
		return bad(r, key, "an object");
	*sub = *r;
	sub->root = v;
	return 1;
}

uint64_t rl_hfconfig_layers(const struct rl_hfconfig *c, unsigned bits, uint64_t lo, uint64_t hi)
{
	uint64_t i, n = 0;

	if (hi > c->layers)
		hi = c->layers;
	if (lo >= hi)
		return 0;
	if (!c->layered)
		return (c->layer_all & bits) == bits ? hi - lo : 0;
	for (i = lo; i < hi && i < RL_HFCONFIG_LAYERS; i++)
		n += (c->layer[i] & bits) == bits;
	return n;
}

int rl_hfconfig_mha(const struct rl_hfconfig_rd *r, const char *key, struct rl_hfconfig *c)
{
	if (c->hidden % c->heads != 0)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key '%s': %llu does not divide the hidden size %llu", r->name,
		                  key, (unsigned long long)c->heads, (unsigned long long)c->hidden);
	c->head_dim = c->hidden / c->heads;
	c->kv_heads = c->heads;
	return 0;
}

static int read_root(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	const struct rl_family *f;
	char known[256];
	yajl_val v;

	if (!YAJL_IS_OBJECT((yajl_val)r->root))
		return rl_err_set(r->err, RL_ERR_PARSE, "%s: expected an object (a config.json)",
		                  r->name);
	v = member(r, "model_type");
	if (v == NULL)
		return rl_err_set(r->err, RL_ERR_PARSE, "%s: key 'model_type' is missing", r->name);
	if (!YAJL_IS_STRING(v))
		return bad(r, "model_type", "a string");
	f = rl_family_find(v->u.string);
	if (f == NULL) {
		rl_family_names(known, sizeof(known), 0, 0);
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'model_type': unsupported model type '%.40s' "
		                  "(expected %s)",
		                  r->name, v->u.string, known);
	}
	/* every model_type of the table fits (a test checks) */
	snprintf(c->model_type, sizeof(c->model_type), "%s", v->u.string);
	c->fam = f;
	c->family = f->tag;
	c->encoder = !(f->phases & RL_FAMILY_DECODE);
	return f->read(r, c);
}

int rl_hfconfig_parse(const char *text, const char *name, struct rl_hfconfig *cfg,
                      struct rl_err *err)
{
	struct rl_hfconfig_rd r = {name, NULL, err};
	yajl_val root;
	int rc;

	memset(cfg, 0, sizeof(*cfg));
	cfg->name = name;
	root = rl_json_parse(text, name, err);
	if (root == NULL)
		return RL_ERR_PARSE;
	r.root = root;
	rc = read_root(&r, cfg);
	yajl_tree_free(root);
	return rc;
}

int rl_hfconfig_read(const char *path, struct rl_hfconfig *cfg, struct rl_err *err)
{
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	char *text = rl_json_slurp(path, "a config.json", err);
	int rc;

	memset(cfg, 0, sizeof(*cfg));
	if (text == NULL)
		return err != NULL ? err->code : RL_ERR_IO;
	rc = rl_hfconfig_parse(text, name, cfg, err);
	free(text);
	return rc;
}
