/* hfconfig.c - the architecture numbers of a Hugging Face config.json
 * (see hfconfig.h). Read whole with yajl's tree parser: a config is a few
 * dozen keys. */
#include "config.h"

#include "hfconfig.h"

#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_tree.h>

#include "json.h"

struct rd {
	const char *name;
	yajl_val root;
	struct rl_err *err;
};

static int bad(const struct rd *r, const char *key, const char *what)
{
	return rl_err_set(r->err, RL_ERR_PARSE, "%s: key '%s': expected %s", r->name, key, what);
}

/* The member KEY, or NULL when absent or null (as transformers writes an
 * unset optional value). */
static yajl_val member(const struct rd *r, const char *key)
{
	yajl_val v = rl_json_member(r->root, key);

	return v != NULL && YAJL_IS_NULL(v) ? NULL : v;
}

/* A size from 1 to RL_HFCONFIG_MAX; absent: DEF, or an error when DEF is 0. */
static int get_size(const struct rd *r, const char *key, uint64_t def, uint64_t *out)
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

/* true or false; absent: DEF. */
static int get_bool(const struct rd *r, const char *key, int def, int *out)
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

/* HEADS must divide HIDDEN (the head dim); KEY names the heads' key. */
static int head_dim(const struct rd *r, const char *key, struct rl_hfconfig *c)
{
	if (c->hidden % c->heads != 0)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key '%s': %llu does not divide the hidden size %llu", r->name,
		                  key, (unsigned long long)c->heads, (unsigned long long)c->hidden);
	c->head_dim = c->hidden / c->heads;
	c->kv_heads = c->heads;
	return 0;
}

/* gpt2: n_embd, n_head, n_layer, n_inner (absent or null: 4 x n_embd),
 * vocab_size, n_positions; MHA, the lm_head tied to wte. */
static int read_gpt2(const struct rd *r, struct rl_hfconfig *c)
{
	int rc;

	c->family = RL_HF_GPT2;
	c->tie_embeddings = 1;
	c->attention_bias = 1;
	rc = get_size(r, "n_embd", 0, &c->hidden);
	if (rc == 0)
		rc = get_size(r, "n_head", 0, &c->heads);
	if (rc == 0)
		rc = get_size(r, "n_layer", 0, &c->layers);
	if (rc == 0)
		rc = get_size(r, "vocab_size", 0, &c->vocab);
	if (rc == 0)
		rc = get_size(r, "n_positions", 0, &c->positions);
	if (rc == 0 && c->hidden > RL_HFCONFIG_MAX / 4 && member(r, "n_inner") == NULL)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'n_inner' is missing and 4 x n_embd passes 16777216",
		                  r->name);
	if (rc == 0)
		rc = get_size(r, "n_inner", 4 * c->hidden, &c->intermediate);
	if (rc == 0)
		rc = head_dim(r, "n_head", c);
	return rc;
}

/* bert and vit: the encoder's keys (vit has no vocab_size, and an image). */
static int read_encoder(const struct rd *r, struct rl_hfconfig *c, int vit)
{
	uint64_t side;
	int rc;

	c->family = vit ? RL_HF_VIT : RL_HF_BERT;
	c->encoder = 1;
	c->attention_bias = 1;
	rc = get_size(r, "hidden_size", 0, &c->hidden);
	if (rc == 0)
		rc = get_size(r, "num_attention_heads", 0, &c->heads);
	if (rc == 0)
		rc = get_size(r, "num_hidden_layers", 0, &c->layers);
	if (rc == 0)
		rc = get_size(r, "intermediate_size", 0, &c->intermediate);
	if (rc == 0 && !vit)
		rc = get_size(r, "vocab_size", 0, &c->vocab);
	if (rc == 0 && vit)
		rc = get_size(r, "image_size", 0, &c->image);
	if (rc == 0 && vit)
		rc = get_size(r, "patch_size", 0, &c->patch);
	if (rc == 0 && vit)
		rc = get_size(r, "num_channels", 3, &c->channels);
	if (rc == 0)
		rc = head_dim(r, "num_attention_heads", c);
	if (rc < 0 || !vit)
		return rc;
	if (c->image % c->patch != 0)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'patch_size': %llu does not divide image_size %llu",
		                  r->name, (unsigned long long)c->patch,
		                  (unsigned long long)c->image);
	side = c->image / c->patch;
	if (side > 4095)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'image_size': (image_size / patch_size)^2 + 1 tokens "
		                  "pass 16777216",
		                  r->name);
	c->tokens = side * side + 1;
	return 0;
}

static int read_root(const struct rd *r, struct rl_hfconfig *c)
{
	yajl_val v;
	int rc;

	if (!YAJL_IS_OBJECT(r->root))
		return rl_err_set(r->err, RL_ERR_PARSE, "%s: expected an object (a config.json)",
		                  r->name);
	v = member(r, "model_type");
	if (v == NULL)
		return rl_err_set(r->err, RL_ERR_PARSE, "%s: key 'model_type' is missing", r->name);
	if (!YAJL_IS_STRING(v))
		return bad(r, "model_type", "a string");
	if (strcmp(v->u.string, "gpt2") == 0) {
		strcpy(c->model_type, v->u.string);
		return read_gpt2(r, c);
	}
	if (strcmp(v->u.string, "bert") == 0 || strcmp(v->u.string, "vit") == 0) {
		strcpy(c->model_type, v->u.string);
		return read_encoder(r, c, strcmp(v->u.string, "vit") == 0);
	}
	if (strcmp(v->u.string, "llama") != 0 && strcmp(v->u.string, "mistral") != 0 &&
	    strcmp(v->u.string, "qwen2") != 0 && strcmp(v->u.string, "mixtral") != 0)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'model_type': unsupported model type '%.40s' "
		                  "(expected llama, mistral, mixtral, qwen2, gpt2, bert or vit)",
		                  r->name, v->u.string);
	strcpy(c->model_type, v->u.string);
	c->family = RL_HF_LLAMA;
	rc = get_size(r, "hidden_size", 0, &c->hidden);
	if (rc == 0)
		rc = get_size(r, "intermediate_size", 0, &c->intermediate);
	if (rc == 0)
		rc = get_size(r, "num_attention_heads", 0, &c->heads);
	if (rc == 0)
		rc = get_size(r, "num_key_value_heads", c->heads, &c->kv_heads);
	if (rc == 0)
		rc = get_size(r, "num_hidden_layers", 0, &c->layers);
	if (rc == 0)
		rc = get_size(r, "vocab_size", 0, &c->vocab);
	if (rc < 0)
		return rc;
	if (c->heads % c->kv_heads != 0)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'num_key_value_heads': %llu does not divide "
		                  "num_attention_heads %llu",
		                  r->name, (unsigned long long)c->kv_heads,
		                  (unsigned long long)c->heads);
	if (member(r, "head_dim") == NULL && c->hidden % c->heads != 0)
		return rl_err_set(r->err, RL_ERR_PARSE,
		                  "%s: key 'head_dim' is missing and num_attention_heads %llu does "
		                  "not divide hidden_size %llu",
		                  r->name, (unsigned long long)c->heads,
		                  (unsigned long long)c->hidden);
	rc = get_size(r, "head_dim", c->hidden / c->heads, &c->head_dim);
	if (rc == 0)
		rc = get_bool(r, "tie_word_embeddings", 0, &c->tie_embeddings);
	if (rc == 0)
		rc = get_bool(r, "attention_bias", strcmp(c->model_type, "qwen2") == 0,
		              &c->attention_bias);
	if (rc == 0 && strcmp(c->model_type, "mixtral") == 0) {
		rc = get_size(r, "num_local_experts", 0, &c->experts);
		if (rc == 0)
			rc = get_size(r, "num_experts_per_tok", 0, &c->experts_per_tok);
		if (rc == 0 && c->experts_per_tok > c->experts)
			return rl_err_set(r->err, RL_ERR_PARSE,
			                  "%s: key 'num_experts_per_tok': %llu is more than "
			                  "num_local_experts %llu",
			                  r->name, (unsigned long long)c->experts_per_tok,
			                  (unsigned long long)c->experts);
	}
	return rc;
}

int rl_hfconfig_parse(const char *text, const char *name, struct rl_hfconfig *cfg,
                      struct rl_err *err)
{
	struct rd r = {name, NULL, err};
	int rc;

	memset(cfg, 0, sizeof(*cfg));
	cfg->name = name;
	r.root = rl_json_parse(text, name, err);
	if (r.root == NULL)
		return RL_ERR_PARSE;
	rc = read_root(&r, cfg);
	yajl_tree_free(r.root);
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
