/* impl.c - reading implementation files (see impl.h). */
#include "config.h"

#include "impl.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "family.h"
#include "hwdb.h"
#include "kvfile.h"
#include "symbols.h"

static const char *const comp_names[] = {
#define RL_IMPL_COMP_NAME(id, name, row) name,
	RL_IMPL_COMP_MAP(RL_IMPL_COMP_NAME)
#undef RL_IMPL_COMP_NAME
};

static const unsigned char comp_rows[] = {
#define RL_IMPL_COMP_ROW(id, name, row) row,
	RL_IMPL_COMP_MAP(RL_IMPL_COMP_ROW)
#undef RL_IMPL_COMP_ROW
};

static const char *const if_names[RL_IMPL_IF_COUNT] = {
	"prefill", "decode", "train", "rms", "gated", "bias", "causal", "final", "sliding",
	"batched", "radix", "windowed", "mqa", "norm_topk",
};

static const char *const sym_names[] = {
#define RL_IMPL_SYM_NAME(id, text) #id,
	RL_IMPL_SYM_MAP(RL_IMPL_SYM_NAME)
#undef RL_IMPL_SYM_NAME
};

static const char *const sym_texts[] = {
#define RL_IMPL_SYM_TEXT(id, text) text,
	RL_IMPL_SYM_MAP(RL_IMPL_SYM_TEXT)
#undef RL_IMPL_SYM_TEXT
};

const char *rl_impl_comp_name(enum rl_impl_comp c)
{
	return c >= 0 && c < RL_IMPL_COMP_COUNT ? comp_names[c] : "?";
}

int rl_impl_comp_has_row(enum rl_impl_comp c)
{
	return c >= 0 && c < RL_IMPL_COMP_COUNT && comp_rows[c];
}

int rl_impl_comp_parse(const char *name, enum rl_impl_comp *c)
{
	int i;

	for (i = 0; i < RL_IMPL_COMP_COUNT; i++)
		if (strcmp(comp_names[i], name) == 0) {
			*c = (enum rl_impl_comp)i;
			return 0;
		}
	return -1;
}

/* "a, b, ... or z" of the N names of NAMES into BUF (LEN bytes). */
static const char *list_names(char *buf, size_t len, const char *const *names, int n)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		                         i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
	return buf;
}

const char *rl_impl_comp_expected(void)
{
	static char buf[256];

	return buf[0] ? buf : list_names(buf, sizeof(buf), comp_names, RL_IMPL_COMP_COUNT);
}

unsigned rl_impl_if_parse(const char *name)
{
	int i;

	for (i = 0; i < RL_IMPL_IF_COUNT; i++)
		if (strcmp(if_names[i], name) == 0)
			return 1u << i;
	return 0;
}

const char *rl_impl_if_expected(void)
{
	static char buf[256];

	return buf[0] ? buf : list_names(buf, sizeof(buf), if_names, RL_IMPL_IF_COUNT);
}

const char *rl_impl_sym_name(enum rl_impl_sym s)
{
	return s >= 0 && s < RL_IMPL_SYM_COUNT ? sym_names[s] : "?";
}

const char *rl_impl_sym_text(enum rl_impl_sym s)
{
	return s >= 0 && s < RL_IMPL_SYM_COUNT ? sym_texts[s] : "?";
}

int rl_impl_bind(struct rl_symbols *s, const uint64_t *v, struct rl_err *err)
{
	char spec[RL_IMPL_SYM_COUNT * 32];
	size_t used = 0;
	int i;

	for (i = 0; i < RL_IMPL_SYM_COUNT; i++)
		used += (size_t)snprintf(spec + used, sizeof(spec) - used, "%s%s=%llu", i ? "," : "",
		                         sym_names[i], (unsigned long long)(v[i] ? v[i] : 1));
	rl_symbols_init(s);
	return rl_symbols_set(s, spec, err);
}

void rl_impl_rebind(struct rl_symbols *s, enum rl_impl_sym sym, uint64_t v)
{
	/* rl_impl_bind binds the names in RL_IMPL_SYM_MAP's order */
	s->value[sym] = v ? v : 1;
}

void rl_impl_release(struct rl_impl *im)
{
	size_t i;
	int c;

	if (im == NULL)
		return;
	free(im->id);
	free(im->name);
	free(im->stack);
	free(im->trace);
	free(im->runtime);
	free(im->path);
	for (i = 0; i < im->nk; i++)
		free(im->k[i].source);
	free(im->k);
	for (c = 0; c < im->nchoices; c++)
		free(im->choice[c].source);
	memset(im, 0, sizeof(*im));
}

/* ---- one kernel line ---- */

struct line {
	struct rl_kvfile *kv;
	struct rl_err *err;
};

static int bad(const struct line *l, const char *what, const char *tok, const char *expected)
{
	return rl_err_set(l->err, RL_ERR_PARSE, "%s:%zu: %s '%s' (expected %s)", l->kv->path,
	                  l->kv->lineno, what, tok, expected);
}

/* Checks an expression by evaluating it with every name bound to 1024. */
static int check_expr(const struct line *l, const char *what, const char *text, int dims)
{
	uint64_t v[RL_IMPL_SYM_COUNT], d[8], one;
	struct rl_symbols s;
	struct rl_err e;
	int i, n;

	for (i = 0; i < RL_IMPL_SYM_COUNT; i++)
		v[i] = 1024;
	if (rl_impl_bind(&s, v, &e) < 0)
		return rl_err_set(l->err, e.code, "%s", e.msg);
	if ((dims ? rl_symbols_dims_used(&s, text, d, NULL, 6, &n, NULL, &e)
	          : rl_symbols_eval(&s, text, what, &one, NULL, &e)) < 0)
		return rl_err_set(l->err, RL_ERR_PARSE, "%s:%zu: %s: %s", l->kv->path,
		                  l->kv->lineno, what, e.msg);
	return 0;
}

static int copy_field(const struct line *l, char *dst, size_t len, const char *what,
                      const char *val)
{
	if (strlen(val) >= len || *val == '\0')
		return rl_err_set(l->err, RL_ERR_PARSE, "%s:%zu: %s '%s' is empty or longer than %zu bytes",
		                  l->kv->path, l->kv->lineno, what, val, len - 1);
	memcpy(dst, val, strlen(val) + 1);
	return 0;
}

static int family_index(const char *name)
{
	int i;

	for (i = 0; rl_families[i] != NULL; i++)
		if (strcmp(rl_families[i]->name, name) == 0)
			return i;
	return -1;
}

static int parse_families(const struct line *l, struct rl_impl_kernel *k, char *val)
{
	char *save = NULL, *t;

	for (t = strtok_r(val, "|", &save); t != NULL; t = strtok_r(NULL, "|", &save)) {
		int f = family_index(t);

		if (f < 0 || f >= 32) {
			char names[256] = "";
			size_t used = 0;
			int i;

			for (i = 0; rl_families[i] != NULL && used < sizeof(names); i++)
				used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
				                         i ? ", " : "", rl_families[i]->name);
			return bad(l, "unknown family", t, names);
		}
		k->families |= 1u << f;
	}
	return 0;
}

static int parse_if(const struct line *l, struct rl_impl_kernel *k, const char *val)
{
	int neg = *val == '!';
	unsigned bit = rl_impl_if_parse(val + neg);
	char expected[320];

	if (bit != 0) {
		if (neg)
			k->refuse |= bit;
		else
			k->need |= bit;
		return 0;
	}
	snprintf(expected, sizeof(expected), "%s, or one of them after '!'",
	         rl_impl_if_expected());
	return bad(l, "unknown condition", val, expected);
}

static int find_choice(const struct rl_impl *im, const char *name)
{
	int c;

	for (c = 0; c < im->nchoices; c++)
		if (strcmp(im->choice[c].name, name) == 0)
			return c;
	return -1;
}

static int find_value(const struct rl_impl_choice *ch, const char *v)
{
	int i;

	for (i = 0; i < ch->nvalues; i++)
		if (strcmp(ch->value[i], v) == 0)
			return i;
	return -1;
}

static int parse_u(const struct line *l, const char *what, const char *v, unsigned max,
                   unsigned *out)
{
	char *end;
	unsigned long x = strtoul(v, &end, 10);

	if (*v < '0' || *v > '9' || *end != '\0' || x > max) {
		char range[48];

		snprintf(range, sizeof(range), "an integer from 0 to %u", max);
		return bad(l, what, v, range);
	}
	*out = (unsigned)x;
	return 0;
}

/* The options of K that its kind does not take: the op list's columns they
 * become would refuse the step's row (kind.h's RL_KCOL_* of each kind). */
static int check_options(const struct line *l, const struct rl_impl_kernel *k)
{
	static const struct {
		unsigned kcol;
		const char *option;
	} rules[] = {
		{RL_KCOL_INPUTS, "inputs="},       {RL_KCOL_FPE, "fpe="},
		{RL_KCOL_WEIGHTS, "weights and conv1d"}, {RL_KCOL_GROUPED, "grouped"},
		{RL_KCOL_STRIDED, "strided"},      {RL_KCOL_ATTENTION, "causal and kv_heads="},
		{RL_KCOL_PARAMS, "params="},       {RL_KCOL_KV, "kv"},
	};
	const struct rl_kind_info *ki = rl_kind_info(k->kind);
	unsigned cols = ki->columns;
	int given[] = {k->inputs != 0, k->fpe != 0, k->weights || k->conv1d, k->grouped, k->strided != 0,
	               k->causal || k->kv_heads[0], k->params[0] != '\0', k->kv};
	int nd = 1, depth = 0;
	const char *s;
	size_t i;

	/* the shape's dims: the 'x's outside parentheses (no size's name has
	 * one) */
	for (s = k->shape; *s; s++) {
		depth += *s == '(' ? 1 : *s == ')' ? -1 : 0;
		nd += *s == 'x' && depth == 0;
	}
	if (k->grouped && nd != 4)
		return rl_err_set(l->err, RL_ERR_PARSE,
		                  "%s:%zu: shape '%s': %d dims, where a grouped matmul takes BxMxNxK",
		                  l->kv->path, l->kv->lineno, k->shape, nd);
	if (k->conv1d && !k->weights && (cols & RL_KCOL_WEIGHTS))
		return rl_err_set(l->err, RL_ERR_PARSE,
		                  "%s:%zu: conv1d: says how the weights are held, and the kernel "
		                  "reads none (no 'weights')",
		                  l->kv->path, l->kv->lineno);
	if (nd < ki->min_dims || nd > ki->max_dims)
		return rl_err_set(l->err, RL_ERR_PARSE,
		                  "%s:%zu: shape '%s': %d dims, where a %s kernel takes %d to %d%s%s%s",
		                  l->kv->path, l->kv->lineno, k->shape, nd, ki->name, ki->min_dims,
		                  ki->max_dims, ki->shape_form ? " (" : "",
		                  ki->shape_form ? ki->shape_form : "", ki->shape_form ? ")" : "");

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (given[i] && !(cols & rules[i].kcol))
			return rl_err_set(l->err, RL_ERR_PARSE, "%s:%zu: %s: not an option of a %s kernel",
			                  l->kv->path, l->kv->lineno, rules[i].option,
			                  rl_kind_name(k->kind));
	return 0;
}

/* An option of a kernel line: NAME=VALUE or a flag. */
static int parse_option(const struct line *l, const struct rl_impl *im, struct rl_impl_kernel *k,
                        char *tok)
{
	char *eq = strchr(tok, '=');
	int c;

	if (eq == NULL) {
		if (strcmp(tok, "weights") == 0)
			k->weights = 1;
		else if (strcmp(tok, "causal") == 0)
			k->causal = 1;
		else if (strcmp(tok, "kv") == 0)
			k->kv = 1;
		else if (strcmp(tok, "grouped") == 0)
			k->grouped = 1;
		else if (strcmp(tok, "conv1d") == 0)
			k->conv1d = 1;
		else if (strcmp(tok, "strided") == 0)
			k->strided = 1;
		else
			return bad(l, "unknown option", tok,
			           "weights, conv1d, causal, kv, grouped, strided, inputs=, fpe=, host=, "
			           "count=, bytes=, live=, kv_heads=, params=, strided=, if=, family= or "
			           "CHOICE=VALUE");
		return 0;
	}
	*eq++ = '\0';
	if (strcmp(tok, "inputs") == 0)
		return parse_u(l, "inputs", eq, 65536, &k->inputs);
	if (strcmp(tok, "fpe") == 0)
		return parse_u(l, "fpe", eq, 1000000, &k->fpe);
	if (strcmp(tok, "strided") == 0)
		return parse_u(l, "strided", eq, 2, &k->strided);
	if (strcmp(tok, "host") == 0) {
		char *end;

		k->host_us = strtod(eq, &end);
		if (*eq < '0' || *eq > '9' || *end != '\0' || !(k->host_us > 0) ||
		    k->host_us > 1e6)
			return bad(l, "host", eq, "a host cost per launch in us, above 0 and at most 1e6");
		return 0;
	}
	if (strcmp(tok, "count") == 0)
		return copy_field(l, k->count, sizeof(k->count), "count", eq) < 0
		               ? RL_ERR_PARSE
		               : check_expr(l, "count", eq, 0);
	if (strcmp(tok, "bytes") == 0)
		return copy_field(l, k->bytes, sizeof(k->bytes), "bytes", eq) < 0
		               ? RL_ERR_PARSE
		               : check_expr(l, "bytes", eq, 0);
	if (strcmp(tok, "live") == 0)
		return copy_field(l, k->live, sizeof(k->live), "live", eq) < 0
		               ? RL_ERR_PARSE
		               : check_expr(l, "live", eq, 0);
	if (strcmp(tok, "kv_heads") == 0)
		return copy_field(l, k->kv_heads, sizeof(k->kv_heads), "kv_heads", eq) < 0
		               ? RL_ERR_PARSE
		               : check_expr(l, "kv_heads", eq, 0);
	if (strcmp(tok, "params") == 0)
		return copy_field(l, k->params, sizeof(k->params), "params", eq) < 0
		               ? RL_ERR_PARSE
		               : check_expr(l, "params", eq, 0);
	if (strcmp(tok, "if") == 0) {
		char *save = NULL, *t;

		for (t = strtok_r(eq, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save))
			if (parse_if(l, k, t) < 0)
				return RL_ERR_PARSE;
		return 0;
	}
	if (strcmp(tok, "family") == 0)
		return parse_families(l, k, eq);
	if ((c = find_choice(im, tok)) >= 0) {
		int v = find_value(&im->choice[c], eq);

		if (v < 0)
			return bad(l, "unknown value", eq, "a value its choice.NAME line lists");
		if (k->choice >= 0)
			return rl_err_set(l->err, RL_ERR_PARSE, "%s:%zu: a kernel line takes one choice",
			                  l->kv->path, l->kv->lineno);
		k->choice = c;
		k->value = v;
		return 0;
	}
	return bad(l, "unknown option", tok,
	           "inputs, fpe, host, count, bytes, live, kv_heads, if, family or a choice declared "
	           "above");
}

/* VAL of a kernel line of component C: "NAME KIND DTYPE SHAPE [OPTION...]"
 * or "- [OPTION...]". */
static int parse_kernel(const struct line *l, struct rl_impl *im, enum rl_impl_comp c,
                        char *val, char *src)
{
	struct rl_impl_kernel *k, *grown;
	char *save = NULL, *t;
	int field = 0;

	if (src == NULL)
		return rl_err_set(l->err, RL_ERR_PARSE,
		                  "%s:%zu: the %s kernel line has no source (' ; where it comes from')",
		                  l->kv->path, l->kv->lineno, comp_names[c]);
	grown = realloc(im->k, (im->nk + 1) * sizeof(*im->k));
	if (grown == NULL) {
		free(src);
		return rl_err_set(l->err, RL_ERR_NOMEM, "out of memory");
	}
	im->k = grown;
	k = &im->k[im->nk++];
	memset(k, 0, sizeof(*k));
	k->comp = c;
	k->choice = k->value = -1;
	k->dtype = -1;
	k->line = l->kv->lineno;
	k->source = src;
	for (t = strtok_r(val, " \t", &save); t != NULL; t = strtok_r(NULL, " \t", &save)) {
		if (field == 0 && strcmp(t, "-") == 0) {
			k->none = 1;
			field = 4;
			continue;
		}
		switch (field) {
		case 0:
			if (copy_field(l, k->name, sizeof(k->name), "name", t) < 0)
				return RL_ERR_PARSE;
			/* the name is an op list's: ASCII that needs no quoting */
			if (strspn(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") !=
			    strlen(t))
				return rl_err_set(l->err, RL_ERR_PARSE,
				                  "%s:%zu: a kernel's name is letters, digits, '_', '.' "
				                  "and '-' only",
				                  l->kv->path, l->kv->lineno);
			break;
		case 1:
			if (rl_kind_parse(t, &k->kind) < 0 || k->kind == RL_KIND_FUSED)
				return bad(l, "unknown kind", t, rl_kind_expected());
			break;
		case 2: {
			enum rl_dtype d;

			if (strcmp(t, "model") == 0)
				break;
			if (rl_dtype_parse(t, &d) < 0)
				return bad(l, "unknown dtype", t, "model (the step's) or a dtype name");
			k->dtype = (int)d;
			break;
		}
		case 3:
			if (copy_field(l, k->shape, sizeof(k->shape), "shape", t) < 0 ||
			    check_expr(l, "shape", t, 1) < 0)
				return RL_ERR_PARSE;
			break;
		default:
			if (parse_option(l, im, k, t) < 0)
				return RL_ERR_PARSE;
		}
		field++;
	}
	if (field < 4)
		return rl_err_set(l->err, RL_ERR_PARSE,
		                  "%s:%zu: a kernel line is 'NAME KIND DTYPE SHAPE [OPTION...]' or "
		                  "'- [OPTION...]'",
		                  l->kv->path, l->kv->lineno);
	if (!k->none && check_options(l, k) < 0)
		return RL_ERR_PARSE;
	im->names[c] = 1;
	return 0;
}

/* "choice.NAME = V1 V2 ...": the first value is the default. */
static int parse_choice(const struct line *l, struct rl_impl *im, const char *name, char *val,
                        char *src)
{
	struct rl_impl_choice *ch;
	char *save = NULL, *t;

	if (src == NULL)
		return rl_err_set(l->err, RL_ERR_PARSE, "%s:%zu: choice.%s has no source",
		                  l->kv->path, l->kv->lineno, name);
	if (im->nchoices == RL_IMPL_MAX_CHOICES || find_choice(im, name) >= 0 ||
	    strlen(name) >= RL_IMPL_CHOICE_LEN || *name == '\0') {
		free(src);
		return rl_err_set(l->err, RL_ERR_PARSE,
		                  "%s:%zu: choice '%s': given twice, too long or one too many (at most %d)",
		                  l->kv->path, l->kv->lineno, name, RL_IMPL_MAX_CHOICES);
	}
	ch = &im->choice[im->nchoices++];
	memset(ch, 0, sizeof(*ch));
	memcpy(ch->name, name, strlen(name) + 1);
	ch->source = src;
	for (t = strtok_r(val, " \t", &save); t != NULL; t = strtok_r(NULL, " \t", &save)) {
		if (ch->nvalues == RL_IMPL_MAX_VALUES || strlen(t) >= RL_IMPL_CHOICE_LEN ||
		    find_value(ch, t) >= 0)
			return rl_err_set(l->err, RL_ERR_PARSE,
			                  "%s:%zu: choice.%s: value '%s' given twice, too long, or more "
			                  "than %d values",
			                  l->kv->path, l->kv->lineno, name, t, RL_IMPL_MAX_VALUES);
		memcpy(ch->value[ch->nvalues++], t, strlen(t) + 1);
	}
	if (ch->nvalues == 0)
		return rl_err_set(l->err, RL_ERR_PARSE, "%s:%zu: choice.%s lists no values",
		                  l->kv->path, l->kv->lineno, name);
	return 0;
}

static int comp_of(const char *key)
{
	enum rl_impl_comp c;

	return rl_impl_comp_parse(key, &c) == 0 ? (int)c : -1;
}

/* A runtime given as a file ("fitted/hf.runtime": a '/' or the .runtime
 * ending, as --runtime takes one) and relative is the file's beside the
 * implementation file: kept in a subdirectory, it is no profile of the
 * database's own list. */
static int runtime_beside(struct rl_impl *im, struct rl_err *err)
{
	const char *r = im->runtime, *slash = strrchr(im->path, '/');
	size_t n = strlen(r), dir = slash != NULL ? (size_t)(slash - im->path) + 1 : 0;
	char *joined;

	if (r[0] == '/' || (strchr(r, '/') == NULL && (n < 8 || strcmp(r + n - 8, ".runtime") != 0)))
		return 0;
	if ((joined = malloc(dir + n + 1)) == NULL)
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	memcpy(joined, im->path, dir);
	memcpy(joined + dir, r, n + 1);
	free(im->runtime);
	im->runtime = joined;
	return 0;
}

int rl_impl_load(const char *path, struct rl_impl *im, struct rl_err *err)
{
	struct rl_kvfile kv;
	struct line l = {&kv, err};
	char *key, *val, *src;
	int rc, c;

	memset(im, 0, sizeof(*im));
	rc = rl_kv_open(&kv, path, err);
	if (rc < 0)
		return rc;
	while ((rc = rl_kv_next(&kv, &key, &val, &src, err)) > 0) {
		if (strcmp(key, "id") == 0)
			rc = rl_kv_set_string(&kv, &im->id, key, val, src, err);
		else if (strcmp(key, "name") == 0)
			rc = rl_kv_set_string(&kv, &im->name, key, val, src, err);
		else if (strcmp(key, "stack") == 0)
			rc = rl_kv_set_string(&kv, &im->stack, key, val, src, err);
		else if (strcmp(key, "trace") == 0)
			rc = rl_kv_set_string(&kv, &im->trace, key, val, src, err);
		else if (strcmp(key, "runtime") == 0)
			rc = rl_kv_set_string(&kv, &im->runtime, key, val, src, err);
		else if (strcmp(key, "autograd") == 0) {
			free(src);
			if (strcmp(val, "0") != 0 && strcmp(val, "1") != 0)
				rc = bad(&l, "autograd", val, "0 or 1");
			else
				im->autograd = *val == '1';
		} else if (strncmp(key, "choice.", 7) == 0)
			rc = parse_choice(&l, im, key + 7, val, src);
		else if ((c = comp_of(key)) >= 0)
			rc = parse_kernel(&l, im, (enum rl_impl_comp)c, val, src);
		else {
			free(src);
			rc = rl_err_set(err, RL_ERR_PARSE,
			                "%s:%zu: unknown key '%s' (expected id, name, stack, trace, "
			                "runtime, autograd, choice.NAME or a component: embed, rope, "
			                "mask, norm, qkv, qkv_bias, qk_norm, rotary, cache, attention, "
			                "o_proj, residual, mlp, router, experts, logits, sample)",
			                path, kv.lineno, key);
		}
		if (rc < 0)
			break;
	}
	rl_kv_close(&kv);
	if (rc == 0 && (im->id == NULL || im->name == NULL || im->stack == NULL))
		rc = rl_err_set(err, RL_ERR_PARSE,
		                "%s: an implementation needs 'id', 'name' and 'stack'", path);
	if (rc == 0 && (im->path = strdup(path)) == NULL)
		rc = rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	if (rc == 0 && im->runtime != NULL)
		rc = runtime_beside(im, err);
	if (rc < 0)
		rl_impl_release(im);
	return rc;
}

/* ---- finding one ---- */

static int is_impl_file(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && strcmp(name + n - 5, ".impl") == 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The paths of DIR's *.impl files, sorted (malloc'ed; *N of them). */
static int impl_paths(const char *dir, char ***out, size_t *n, struct rl_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **p = NULL, **grown, *path;
	size_t cap = 0;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (d == NULL)
		return rl_err_set(err, RL_ERR_IO, "%s: cannot open the database directory", dir);
	while ((e = readdir(d)) != NULL) {
		if (!is_impl_file(e->d_name))
			continue;
		if ((rc = rl_kv_scan_entry(dir, e->d_name, &path, err)) < 0)
			break;
		if (path == NULL)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 8;
			if ((grown = realloc(p, cap * sizeof(*p))) == NULL) {
				free(path);
				rc = rl_err_set(err, RL_ERR_NOMEM, "out of memory");
				break;
			}
			p = grown;
		}
		p[(*n)++] = path;
	}
	closedir(d);
	if (p != NULL)
		qsort(p, *n, sizeof(*p), cmp_str);
	*out = p;
	return rc < 0 ? rc : 0;
}

static void free_paths(char **p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(p[i]);
	free(p);
}

int rl_impl_ids(const char *dir, char *buf, size_t len, struct rl_err *err)
{
	char **p;
	size_t n, i, used = 0;
	int rc, count = 0;

	buf[0] = '\0';
	if ((rc = impl_paths(dir, &p, &n, err)) < 0) {
		free_paths(p, n);
		return rc;
	}
	for (i = 0; i < n; i++) {
		struct rl_impl im;
		struct rl_err e;

		if (rl_impl_load(p[i], &im, &e) < 0)
			continue;
		count++;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
			                         count == 1 ? "" : i + 1 == n ? " or " : ", ", im.id);
		rl_impl_release(&im);
	}
	free_paths(p, n);
	return count;
}

/* The fused ideal without its file (a database directory of a test): it
 * names no component. */
static int fused(struct rl_impl *im, struct rl_err *err)
{
	im->id = strdup("fused");
	im->name = strdup("the fused ideal: a serving engine's fused kernels");
	im->stack = strdup("the builder's own rows (modelops.c)");
	im->path = strdup("fused");
	if (im->id == NULL || im->name == NULL || im->stack == NULL || im->path == NULL)
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	return 0;
}

int rl_impl_find(const char *dir, const char *name, struct rl_impl *im, struct rl_err *err)
{
	char base[256], ids[256], **p;
	const char *colon = strchr(name, ':');
	size_t blen = colon ? (size_t)(colon - name) : strlen(name), n, i;
	int rc;

	memset(im, 0, sizeof(*im));
	if (blen == 0 || blen >= sizeof(base))
		return rl_err_set(err, RL_ERR_ARG, "--impl '%s': expected NAME[:CHOICE=VALUE,...]",
		                  name);
	memcpy(base, name, blen);
	base[blen] = '\0';
	if (strchr(base, '/') != NULL || is_impl_file(base)) {
		if ((rc = rl_impl_load(base, im, err)) < 0)
			return rc;
	} else {
		if ((rc = impl_paths(dir, &p, &n, err)) < 0) {
			free_paths(p, n);
			/* the default needs no directory: the database's own error
			 * comes later, where it always came */
			return strcmp(base, "fused") == 0 && colon == NULL ? fused(im, err) : rc;
		}
		rc = 1;
		for (i = 0; i < n && rc > 0; i++) {
			struct rl_err e;

			if (rl_impl_load(p[i], im, &e) < 0) {
				rc = rl_err_set(err, e.code, "%s", e.msg);
				break;
			}
			if (strcmp(im->id, base) == 0)
				rc = 0;
			else
				rl_impl_release(im);
		}
		free_paths(p, n);
		if (rc < 0)
			return rc;
		if (rc > 0 && strcmp(base, "fused") == 0)
			rc = fused(im, err);
		if (rc > 0) {
			if (rl_impl_ids(dir, ids, sizeof(ids), err) < 0)
				return RL_ERR_IO;
			return rl_err_set(err, RL_ERR_ARG,
			                  "--impl %s: no implementation of that id in %s (expected %s, "
			                  "or the path of a .impl file)",
			                  base, dir, ids[0] ? ids : "a path: the directory has none");
		}
	}
	if (colon != NULL && (rc = rl_impl_choose(im, colon + 1, err)) < 0) {
		rl_impl_release(im);
		return rc;
	}
	return 0;
}

int rl_impl_all(const char *dir, struct rl_impl **out, size_t *n, struct rl_err *err)
{
	struct rl_impl *im;
	char **p;
	size_t np, i;
	int rc, has_fused = 0;

	*out = NULL;
	*n = 0;
	if ((rc = impl_paths(dir, &p, &np, err)) < 0) {
		free_paths(p, np);
		return rc;
	}
	if ((im = calloc(np + 1, sizeof(*im))) == NULL) {
		free_paths(p, np);
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	}
	for (i = 0; i < np && rc == 0; i++) {
		if ((rc = rl_impl_load(p[i], &im[*n], err)) == 0) {
			has_fused |= strcmp(im[*n].id, "fused") == 0;
			(*n)++;
		}
	}
	free_paths(p, np);
	if (rc == 0 && !has_fused && (rc = fused(&im[*n], err)) == 0)
		(*n)++;
	if (rc < 0) {
		for (i = 0; i <= *n && i <= np; i++)
			rl_impl_release(&im[i]);
		free(im);
		*n = 0;
		return rc;
	}
	*out = im;
	return 0;
}

int rl_impl_choose(struct rl_impl *im, const char *spec, struct rl_err *err)
{
	char buf[256], *save = NULL, *t;

	if (spec == NULL || *spec == '\0')
		return 0;
	if (strlen(spec) >= sizeof(buf))
		return rl_err_set(err, RL_ERR_ARG, "--impl %s: the choices are too long", im->id);
	memcpy(buf, spec, strlen(spec) + 1);
	for (t = strtok_r(buf, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '='), known[256] = "";
		size_t used = 0;
		int c, v, i;

		if (eq != NULL)
			*eq++ = '\0';
		c = find_choice(im, t);
		if (eq == NULL || c < 0) {
			for (i = 0; i < im->nchoices; i++)
				used += (size_t)snprintf(known + used, sizeof(known) - used, "%s%s",
				                         i ? ", " : "", im->choice[i].name);
			return rl_err_set(err, RL_ERR_ARG,
			                  "--impl %s: '%s' is not CHOICE=VALUE of a choice it has "
			                  "(%s)",
			                  im->id, t, im->nchoices ? known : "it has none");
		}
		if ((v = find_value(&im->choice[c], eq)) < 0) {
			for (i = 0; i < im->choice[c].nvalues; i++)
				used += (size_t)snprintf(known + used, sizeof(known) - used, "%s%s",
				                         i ? ", " : "", im->choice[c].value[i]);
			return rl_err_set(err, RL_ERR_ARG,
			                  "--impl %s: %s=%s: unknown value (expected %s)", im->id, t, eq,
			                  known);
		}
		im->choice[c].chosen = v;
	}
	return 0;
}

/* ---- which kernels apply ---- */

int rl_impl_names(const struct rl_impl *im, enum rl_impl_comp c, int family)
{
	size_t i;

	if (im == NULL || !im->names[c])
		return 0;
	for (i = 0; i < im->nk; i++)
		if (im->k[i].comp == c &&
		    (im->k[i].families == 0 || (family >= 0 && family < 32 &&
		                                (im->k[i].families >> family) & 1u)))
			return 1;
	return 0;
}

int rl_impl_applies(const struct rl_impl *im, const struct rl_impl_kernel *k, int family,
                    unsigned have)
{
	if (k->families != 0 && (family < 0 || family >= 32 || !((k->families >> family) & 1u)))
		return 0;
	if ((have & k->need) != k->need || (have & k->refuse) != 0)
		return 0;
	return k->choice < 0 || im->choice[k->choice].chosen == k->value;
}

void rl_impl_choices_text(const struct rl_impl *im, char *buf, size_t len)
{
	size_t used = 0;
	int c;

	buf[0] = '\0';
	for (c = 0; c < im->nchoices && used < len; c++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", c ? ", " : "",
		                         im->choice[c].name, im->choice[c].value[im->choice[c].chosen]);
}
