/* trace.c - streaming a Kineto Chrome trace into compact records (see trace.h).
 *
 * yajl calls back per token; a small stack of contexts says where the token
 * is (top-level map, traceEvents, one event, its args, Input Dims ...), and
 * anything not needed is skipped by counting brackets. An event's fields may
 * come in any order ("args" before "cat"), so each event is gathered in a
 * scratch record and only kept, or dropped, when its map closes.
 */
#include "config.h"

#include "trace.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "gzread.h"
#include "json.h"

/* ---- string pool ---- */

static uint32_t hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static int pool_grow_hash(struct rl_trace *t)
{
	size_t cap = t->hash_cap ? 2 * t->hash_cap : 1024, i;
	uint32_t *h = calloc(cap, sizeof(*h));

	if (h == NULL)
		return RL_ERR_NOMEM;
	for (i = 0; i < t->nstr; i++) {
		const char *s = t->pool + t->str_off[i];
		size_t j = hash_bytes(s, strlen(s)) & (cap - 1);

		while (h[j] != 0)
			j = (j + 1) & (cap - 1);
		h[j] = (uint32_t)i + 1;
	}
	free(t->hash);
	t->hash = h;
	t->hash_cap = cap;
	return 0;
}

/* Interns the N bytes at S (no NUL inside) and stores its id in *ID. */
static int intern(struct rl_trace *t, const char *s, size_t n, uint32_t *id)
{
	size_t j;
	uint32_t h;

	if (2 * (t->nstr + 1) > t->hash_cap && pool_grow_hash(t) < 0)
		return RL_ERR_NOMEM;
	h = hash_bytes(s, n);
	for (j = h & (t->hash_cap - 1); t->hash[j] != 0; j = (j + 1) & (t->hash_cap - 1)) {
		const char *c = t->pool + t->str_off[t->hash[j] - 1];

		if (strncmp(c, s, n) == 0 && c[n] == '\0') {
			*id = t->hash[j] - 1;
			return 0;
		}
	}
	if (t->nstr >= UINT32_MAX - 1)
		return RL_ERR_NOMEM;
	if (t->nstr == t->str_cap) {
		size_t cap = t->str_cap ? 2 * t->str_cap : 256;
		size_t *o = realloc(t->str_off, cap * sizeof(*o));

		if (o == NULL)
			return RL_ERR_NOMEM;
		t->str_off = o;
		t->str_cap = cap;
	}
	if (t->pool_len + n + 1 > t->pool_cap) {
		size_t cap = t->pool_cap ? t->pool_cap : 4096;
		char *p;

		while (cap < t->pool_len + n + 1)
			cap *= 2;
		p = realloc(t->pool, cap);
		if (p == NULL)
			return RL_ERR_NOMEM;
		t->pool = p;
		t->pool_cap = cap;
	}
	memcpy(t->pool + t->pool_len, s, n);
	t->pool[t->pool_len + n] = '\0';
	t->str_off[t->nstr] = t->pool_len;
	t->pool_len += n + 1;
	t->hash[j] = (uint32_t)t->nstr + 1;
	*id = (uint32_t)t->nstr++;
	return 0;
}

const char *rl_trace_str(const struct rl_trace *t, uint32_t id)
{
	return t->pool + t->str_off[id];
}

/* ---- varint arena for op inputs ---- */

static int arena_reserve(struct rl_trace *t, size_t more)
{
	if (t->arena_len + more > t->arena_cap) {
		size_t cap = t->arena_cap ? t->arena_cap : 65536;
		unsigned char *a;

		while (cap < t->arena_len + more)
			cap *= 2;
		a = realloc(t->arena, cap);
		if (a == NULL)
			return RL_ERR_NOMEM;
		t->arena = a;
		t->arena_cap = cap;
	}
	return 0;
}

/* Appends V as LEB128; the caller reserved 10 bytes. */
static void put_varint(struct rl_trace *t, uint64_t v)
{
	while (v >= 0x80) {
		t->arena[t->arena_len++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	t->arena[t->arena_len++] = (unsigned char)v;
}

static uint64_t get_varint(const unsigned char **p)
{
	uint64_t v = 0;
	int shift = 0;

	while (**p & 0x80) {
		v |= (uint64_t)(**p & 0x7F) << shift;
		shift += 7;
		(*p)++;
	}
	v |= (uint64_t)**p << shift;
	(*p)++;
	return v;
}

enum { TAG_NONE = 0, TAG_TENSOR = 1, TAG_LIST = 2 };

int rl_trace_list_next(const unsigned char **pos, uint64_t *dims, int *nd)
{
	uint64_t n = get_varint(pos), i;
	int ok = n <= RL_TRACE_MAX_DIMS;

	for (i = 0; i < n; i++) {
		uint64_t d = get_varint(pos);

		if (ok)
			dims[i] = d;
	}
	*nd = ok ? (int)n : 0;
	return ok ? 0 : -1;
}

int rl_trace_op_inputs(const struct rl_trace *t, const struct rl_trace_op *op,
                       struct rl_trace_input *in, int max)
{
	const unsigned char *p = t->arena + op->args;
	uint64_t n = get_varint(&p), i;
	int got = 0;

	for (i = 0; i < n; i++) {
		struct rl_trace_input tmp, *x = got < max ? &in[got] : &tmp;
		uint64_t type = get_varint(&p), conc = get_varint(&p), tag = get_varint(&p);

		memset(x, 0, sizeof(*x));
		x->type = type ? rl_trace_str(t, (uint32_t)(type - 1)) : NULL;
		x->concrete = conc ? rl_trace_str(t, (uint32_t)(conc - 1)) : NULL;
		if (tag == TAG_TENSOR) {
			x->has_dims = rl_trace_list_next(&p, x->dims, &x->nd) == 0;
		} else if (tag == TAG_LIST) {
			uint64_t k = get_varint(&p), j;
			uint64_t dims[RL_TRACE_MAX_DIMS];
			int nd;

			x->has_dims = 1;
			x->nlist = (size_t)k;
			x->list = p;
			for (j = 0; j < k; j++)
				rl_trace_list_next(&p, dims, &nd);
		}
		if (got < max)
			got++;
	}
	/* the strides, where they match the dims: 1 a contiguous tensor's */
	n = get_varint(&p);
	for (i = 0; i < n; i++) {
		uint64_t code = get_varint(&p), j, v;
		int mine = (int)i < got && in[i].has_dims && in[i].nlist == 0;

		if (code == 1 && mine) {
			uint64_t st = 1;
			int d;

			for (d = in[i].nd; d-- > 0;) {
				in[i].strides[d] = st;
				st *= in[i].dims[d] ? in[i].dims[d] : 1;
			}
			in[i].has_strides = 1;
			continue;
		}
		for (j = 0; code >= 2 && j < code - 2; j++) {
			v = get_varint(&p);
			if (mine && j < RL_TRACE_MAX_DIMS)
				in[i].strides[j] = v;
		}
		if (mine && code >= 2 && (uint64_t)in[i].nd == code - 2)
			in[i].has_strides = 1;
	}
	return got;
}

void rl_trace_op_launch(const struct rl_trace *t, const struct rl_trace_op *op,
                        const char **kwargs, unsigned *num_warps)
{
	const unsigned char *p = t->arena + op->args;
	uint64_t n = get_varint(&p), i, kw;

	for (i = 0; i < n; i++) { /* the inputs: type, concrete, tag and dims */
		uint64_t tag;
		uint64_t dims[RL_TRACE_MAX_DIMS];
		int nd;

		get_varint(&p);
		get_varint(&p);
		tag = get_varint(&p);
		if (tag == TAG_TENSOR) {
			rl_trace_list_next(&p, dims, &nd);
		} else if (tag == TAG_LIST) {
			uint64_t k = get_varint(&p), j;

			for (j = 0; j < k; j++)
				rl_trace_list_next(&p, dims, &nd);
		}
	}
	n = get_varint(&p);
	for (i = 0; i < n; i++) { /* the strides */
		uint64_t code = get_varint(&p), j;

		for (j = 0; code >= 2 && j < code - 2; j++)
			get_varint(&p);
	}
	kw = get_varint(&p);
	*kwargs = kw ? rl_trace_str(t, (uint32_t)(kw - 1)) : NULL;
	*num_warps = (unsigned)get_varint(&p);
}

/* ---- the parser ---- */

enum where {
	W_TOP, W_ROOT, W_EVENTS, W_EVENT, W_ARGS, W_DIMS, W_TYPES, W_CONCRETE,
	W_DEVPROPS, W_DEVICE, W_DONE,
	W_META, /* a top-level object of other metadata (distributedInfo) */
};

enum key {
	K_OTHER, K_TRACE_EVENTS, K_DEVICE_PROPERTIES, /* top level */
	K_PH, K_CAT, K_NAME, K_PID, K_TID, K_TS, K_DUR, K_ARGS, /* event */
	K_CORRELATION, K_DEVICE, K_INPUT_DIMS, K_INPUT_STRIDES, K_INPUT_TYPE, K_CONCRETE, /* args */
	K_COMM_NAME, K_COMM_DTYPE, K_IN_NELEMS, K_OUT_NELEMS, K_GROUP_SIZE, /* args, c10d */
	K_KERNEL_KWARGS, K_NUM_WARPS, /* args, a Triton kernel's launch (inductor.h) */
	K_ID, K_NUM_SMS, K_TOTAL_MEM, /* deviceProperties */
};

#define MAX_DEPTH 16
#define TOK_OPEN UINT64_MAX
#define TOK_CLOSE (UINT64_MAX - 1)
#define TOK_BAD (UINT64_MAX - 2)

/* One event being gathered: text fields point into buf. */
struct scratch {
	char *buf;
	size_t len, cap;
	size_t name, cat, ph, pid, tid, ts, dur, corr, device; /* offset + 1, 0 = absent */
	size_t comm, comm_dtype, in_nelems, out_nelems, group_size; /* record_param_comms */
	size_t kwargs, num_warps; /* a Triton launch's kernel_kwargs and num_warps */
	uint64_t *tok; /* Input Dims as tokens: TOK_OPEN, TOK_CLOSE, numbers */
	size_t ntok, tokcap;
	int dims_bad;
	uint64_t *stok; /* Input Strides, the same way */
	size_t nstok, stokcap;
	int strides_bad;
	uint32_t *types, *conc; /* interned ids + 1; 0 = not a string */
	size_t ntypes, nconc, typecap, conccap;
	unsigned long long offset; /* where the event starts */
};

struct parser {
	struct rl_trace *t;
	struct rl_err *err;
	yajl_handle h;
	unsigned long long base; /* bytes fed before the current chunk */
	enum where stack[MAX_DEPTH];
	int depth;
	long skip;    /* >0: inside a skipped container */
	int level;    /* arrays and objects open, skipped ones too */
	/* the token being read, for the length cap (check_tokens) */
	int tok_in_str, tok_esc;
	size_t tok_len;
	enum key key; /* the key whose value comes next */
	int dims_depth;
	int strides; /* in W_DIMS: reading Input Strides, not Input Dims */
	int saw_events, saw_value;
	int failed;   /* err is set */
	struct scratch ev;
	struct rl_trace_device dev; /* being gathered */
	int dev_has_id;
	uint32_t root_key; /* string id + 1 of the top-level key read last; 0: none */
	uint32_t meta_key; /* in W_META: string id + 1 of "OBJECT.KEY" read last */
};

static unsigned long long offset_now(const struct parser *p)
{
	return p->base + yajl_get_bytes_consumed(p->h);
}

/* Records an error at byte BACK bytes before the parser's position (the
 * start of the token just read, when its length is known). */
static int fail_back(struct parser *p, int code, size_t back, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail_back(struct parser *p, int code, size_t back, const char *fmt, ...)
{
	char msg[RL_ERR_MSG_MAX - 64];
	unsigned long long at = offset_now(p);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (code == RL_ERR_NOMEM)
		rl_err_set(p->err, code, "out of memory");
	else
		rl_err_set(p->err, code, "%s: byte %llu: %s", p->t->name, at >= back ? at - back : 0,
		           msg);
	p->failed = 1;
	return 0; /* tells yajl to stop */
}

#define fail(p, code, ...) fail_back(p, code, 0, __VA_ARGS__)

/* Counts a dropped event; GPU says it was a GPU activity (a kernel, memset
 * or memcpy), which are counted apart so that a trace whose every kernel
 * was dropped can say why. */
static void skip_event(struct parser *p, int gpu, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void skip_event(struct parser *p, int gpu, const char *fmt, ...)
{
	struct rl_trace_skips *s = &p->t->skipped;
	char msg[RL_ERR_MSG_MAX - 64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s->count++ == 0)
		snprintf(s->first, sizeof(s->first), "byte %llu: %s", p->ev.offset, msg);
	if (gpu && s->gpu++ == 0)
		snprintf(s->first_gpu, sizeof(s->first_gpu), "byte %llu: %s", p->ev.offset, msg);
}

static int push(struct parser *p, enum where w)
{
	if (p->depth == MAX_DEPTH)
		return fail(p, RL_ERR_PARSE, "nested too deeply");
	p->stack[p->depth++] = w;
	return 1;
}

static enum where here(const struct parser *p)
{
	return p->depth ? p->stack[p->depth - 1] : (p->saw_value ? W_DONE : W_TOP);
}

/* Copies N bytes into the scratch buffer; returns offset + 1, or 0 on OOM. */
static size_t keep_text(struct scratch *s, const char *v, size_t n)
{
	size_t at;

	if (s->len + n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap : 1024;
		char *b;

		while (cap < s->len + n + 1)
			cap *= 2;
		b = realloc(s->buf, cap);
		if (b == NULL)
			return 0;
		s->buf = b;
		s->cap = cap;
	}
	at = s->len;
	memcpy(s->buf + at, v, n);
	s->buf[at + n] = '\0';
	s->len += n + 1;
	return at + 1;
}

static const char *text(const struct scratch *s, size_t field)
{
	return field ? s->buf + field - 1 : NULL;
}

/* Appends V to the dims' tokens, or to the strides' while they are read. */
static int push_tok(struct parser *p, uint64_t v)
{
	struct scratch *s = &p->ev;
	uint64_t **tok = p->strides ? &s->stok : &s->tok;
	size_t *n = p->strides ? &s->nstok : &s->ntok, *cap = p->strides ? &s->stokcap : &s->tokcap;

	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		uint64_t *g = realloc(*tok, c * sizeof(*g));

		if (g == NULL)
			return fail(p, RL_ERR_NOMEM, "out of memory");
		*tok = g;
		*cap = c;
	}
	(*tok)[(*n)++] = v;
	return 1;
}

/* The bad flag of the token list being read. */
static void tok_bad(struct parser *p)
{
	if (p->strides)
		p->ev.strides_bad = 1;
	else
		p->ev.dims_bad = 1;
}

static int push_id(struct parser *p, uint32_t **v, size_t *n, size_t *cap, uint32_t id)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 16;
		uint32_t *g = realloc(*v, c * sizeof(*g));

		if (g == NULL)
			return fail(p, RL_ERR_NOMEM, "out of memory");
		*v = g;
		*cap = c;
	}
	(*v)[(*n)++] = id;
	return 1;
}

/* Strict unsigned decimal (what ids and dims are). */
static int parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n == 0)
		return -1;
	for (i = 0; i < n; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* Microseconds as written by Kineto ("5079722220576.828", "1694039994139246",
 * "-0.5") to integer nanoseconds, exactly when there are at most 3
 * decimals, rounded otherwise; exponents go through strtod. Returns 0, -1
 * for text that is not a number, or -2 for a time of 2^62 ns (146 years)
 * or more either way: within that bound a start plus a duration, or the
 * difference of two times, cannot overflow 64 bits. */
static int parse_ns(const char *s, int64_t *out)
{
	const char *c = s;
	int neg = 0, frac = 0;
	uint64_t v = 0;

	if (*c == '-')
		neg = 1, c++;
	if (*c < '0' || *c > '9')
		return -1;
	for (; *c >= '0' && *c <= '9'; c++) {
		if (v > (uint64_t)(INT64_MAX / 1000 - 9) / 10) {
			while (*c >= '0' && *c <= '9')
				c++;
			v = UINT64_MAX;
			break;
		}
		v = v * 10 + (uint64_t)(*c - '0');
	}
	if (v != UINT64_MAX)
		v *= 1000;
	if (*c == '.') {
		uint64_t scale = 100;

		c++;
		if (*c < '0' || *c > '9')
			return -1;
		for (; *c >= '0' && *c <= '9'; c++, frac++) {
			if (v == UINT64_MAX)
				continue;
			if (frac < 3)
				v += (uint64_t)(*c - '0') * scale, scale /= 10;
			else if (frac == 3 && *c >= '5')
				v++;
		}
	}
	if (*c == 'e' || *c == 'E') {
		char *end;
		double d;

		errno = 0;
		d = strtod(s, &end) * 1000;
		if (*end != '\0')
			return -1;
		if (!isfinite(d) || fabs(d) >= RL_TRACE_MAX_NS)
			return -2;
		if (errno == ERANGE)
			d = 0; /* underflow: 1e-400 us is 0 ns */
		*out = (int64_t)llround(d);
		return 0;
	}
	if (*c != '\0')
		return -1;
	if (v >= (uint64_t)RL_TRACE_MAX_NS)
		return -2;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* Output names must be UTF-8 without control characters: replace the rest
 * by '?'. Returns the length (the string is changed in place). */
static size_t clean_name(char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		size_t len = 0, k;
		unsigned cp = 0, min = 0;

		if (c >= 0x20 && c < 0x7F) {
			i++;
			continue;
		}
		if ((c & 0xE0) == 0xC0) len = 2, cp = c & 0x1F, min = 0x80;
		else if ((c & 0xF0) == 0xE0) len = 3, cp = c & 0x0F, min = 0x800;
		else if ((c & 0xF8) == 0xF0) len = 4, cp = c & 0x07, min = 0x10000;
		if (len == 0 || i + len > n) {
			s[i++] = '?';
			continue;
		}
		for (k = 1; k < len; k++) {
			if (((unsigned char)s[i + k] & 0xC0) != 0x80)
				break;
			cp = (cp << 6) | ((unsigned char)s[i + k] & 0x3F);
		}
		if (k < len || cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
			s[i++] = '?';
			continue;
		}
		i += len;
	}
	return n;
}

static int intern_name(struct parser *p, const char *s, uint32_t *id)
{
	size_t n = strlen(s);
	char *copy = malloc(n + 1);
	int rc;

	if (copy == NULL)
		return RL_ERR_NOMEM;
	memcpy(copy, s, n + 1);
	rc = intern(p->t, copy, clean_name(copy, n), id);
	free(copy);
	return rc;
}

/* intern_name of the N bytes at V (not NUL-terminated; cut at a NUL). */
static int intern_text(struct parser *p, const char *v, size_t n, uint32_t *id)
{
	char *copy = malloc(n + 1);
	int rc;

	if (copy == NULL)
		return RL_ERR_NOMEM;
	memcpy(copy, v, n);
	copy[n] = '\0';
	rc = intern(p->t, copy, clean_name(copy, strlen(copy)), id);
	free(copy);
	return rc;
}

static int grow(void **v, size_t *cap, size_t n, size_t size)
{
	if (n == *cap) {
		size_t c = *cap ? 2 * *cap : 1024;
		void *g = realloc(*v, c * size);

		if (g == NULL)
			return -1;
		*v = g;
		*cap = c;
	}
	return 0;
}

static int thread_id(struct parser *p, uint32_t *id)
{
	const struct scratch *s = &p->ev;
	const char *pid = text(s, s->pid), *tid = text(s, s->tid);
	char key[256];

	snprintf(key, sizeof(key), "%s\x1f%s", pid ? pid : "", tid ? tid : "");
	return intern(p->t, key, strlen(key), id);
}

/* The items of a token list [ item item ... ] (Input Dims, Input
 * Strides) into *N; -1 for a bare number in the outer list. */
static int count_items(const uint64_t *tok, size_t ntok, size_t *n)
{
	size_t i;
	int d = 0;

	*n = 0;
	for (i = 0; i < ntok; i++) {
		if (tok[i] == TOK_OPEN) {
			if (++d == 2)
				(*n)++;
		} else if (tok[i] == TOK_CLOSE) {
			d--;
		} else if (d == 1) {
			return -1;
		}
	}
	return 0;
}

/* Appends a Triton launch's kernel_kwargs (its string id + 1, 0: none)
 * and num_warps (0: none or not a count below 2^16) after the strides. */
static int encode_launch(struct parser *p)
{
	struct rl_trace *t = p->t;
	const struct scratch *s = &p->ev;
	const char *kw = text(s, s->kwargs), *nw = text(s, s->num_warps);
	uint32_t id = 0;
	uint64_t w = 0;

	if (kw != NULL && intern(t, kw, strlen(kw), &id) < 0)
		return RL_ERR_NOMEM;
	if (nw == NULL || parse_u64(nw, strlen(nw), &w) < 0 || w >= 65536)
		w = 0;
	if (arena_reserve(t, 20) < 0)
		return RL_ERR_NOMEM;
	put_varint(t, kw != NULL ? (uint64_t)id + 1 : 0);
	put_varint(t, w);
	return 0;
}

/* The dims of the next item of the Input Dims tokens at *TI (a tensor's:
 * DIMS[0..*ND), returns 1; a list's or none: 0), *TI moved past it. */
static int next_dims(const struct scratch *s, size_t *ti, const uint64_t **dims, size_t *nd)
{
	size_t i = *ti, j;

	if (i >= s->ntok || s->tok[i] != TOK_OPEN)
		return 0;
	i++;
	if (i < s->ntok && s->tok[i] == TOK_OPEN) { /* a list: past its tensors */
		while (i < s->ntok && s->tok[i] == TOK_OPEN) {
			while (i < s->ntok && s->tok[i] != TOK_CLOSE)
				i++;
			i++;
		}
		*ti = i + 1;
		return 0;
	}
	for (j = i; j < s->ntok && s->tok[j] != TOK_CLOSE; j++)
		;
	*dims = s->tok + i;
	*nd = j - i;
	*ti = j + 1;
	return 1;
}

/* 1 when STRIDES[0..ND) are those of a contiguous tensor of DIMS. */
static int contiguous(const uint64_t *dims, const uint64_t *strides, size_t nd)
{
	uint64_t want = 1;
	size_t d;

	for (d = nd; d-- > 0;) {
		if (strides[d] != want)
			return 0;
		if (dims[d] != 0 && want > UINT64_MAX / dims[d])
			return 0;
		want *= dims[d] ? dims[d] : 1;
	}
	return 1;
}

/* Appends the Input Strides after the inputs: their number, then per item
 * 0 (not a tensor's: a scalar's [], a list's, malformed), 1 (a contiguous
 * tensor's, the strides its dims give: most, in one byte) or 2 + its
 * number of dims and the strides. */
static int encode_strides(struct parser *p)
{
	struct rl_trace *t = p->t;
	struct scratch *s = &p->ev;
	size_t nitems = 0, i, k, ti = 1; /* ti: the dims' cursor, after the outer TOK_OPEN */
	int ok = !s->strides_bad && s->nstok >= 2 && s->stok[0] == TOK_OPEN, dims_ok;

	if (ok && count_items(s->stok, s->nstok, &nitems) < 0)
		nitems = 0;
	if (arena_reserve(t, 10) < 0)
		return RL_ERR_NOMEM;
	put_varint(t, nitems);
	dims_ok = !s->dims_bad && s->ntok >= 2 && s->tok[0] == TOK_OPEN;
	for (i = 1, k = 0; k < nitems; k++) {
		size_t j, nd = 0, dn = 0;
		const uint64_t *dims = NULL;
		int list = 0, has = dims_ok && next_dims(s, &ti, &dims, &dn);

		i++; /* the item's TOK_OPEN */
		for (j = i; j < s->nstok && s->stok[j] != TOK_CLOSE; j++) {
			if (s->stok[j] == TOK_OPEN) {
				list = 1;
				while (j < s->nstok && s->stok[j] != TOK_CLOSE)
					j++;
				continue;
			}
			nd++;
		}
		if (list) {
			/* past the list's tensors to the item's own TOK_CLOSE */
			while (i < s->nstok && s->stok[i] == TOK_OPEN) {
				while (i < s->nstok && s->stok[i] != TOK_CLOSE)
					i++;
				i++;
			}
			if (arena_reserve(t, 10) < 0)
				return RL_ERR_NOMEM;
			put_varint(t, 0);
			i++;
			continue;
		}
		if (arena_reserve(t, 10 * (nd + 2)) < 0)
			return RL_ERR_NOMEM;
		if (has && dn == nd && contiguous(dims, s->stok + i, nd)) {
			put_varint(t, 1);
			i += nd + 1;
			continue;
		}
		put_varint(t, nd + 2);
		for (j = i; j < s->nstok && s->stok[j] != TOK_CLOSE; j++)
			put_varint(t, s->stok[j]);
		i = j + 1;
	}
	return encode_launch(p);
}

/* Encodes the gathered inputs into the arena; stores the offset in *AT. */
static int encode_inputs(struct parser *p, uint64_t *at)
{
	struct rl_trace *t = p->t;
	struct scratch *s = &p->ev;
	size_t nin = 0, k = 0, item = 0;
	int dims_ok = !s->dims_bad && s->ntok >= 2 && s->tok[0] == TOK_OPEN;

	if (dims_ok && count_items(s->tok, s->ntok, &nin) < 0)
		dims_ok = 0, nin = 0;
	if (s->ntypes > nin)
		nin = s->ntypes;
	if (s->nconc > nin)
		nin = s->nconc;
	if (arena_reserve(t, 10) < 0)
		return RL_ERR_NOMEM;
	*at = t->arena_len;
	put_varint(t, nin);
	k = 1; /* token cursor, after the outer TOK_OPEN */
	for (item = 0; item < nin; item++) {
		if (arena_reserve(t, 40) < 0)
			return RL_ERR_NOMEM;
		put_varint(t, item < s->ntypes ? s->types[item] : 0);
		put_varint(t, item < s->nconc ? s->conc[item] : 0);
		if (!dims_ok || k >= s->ntok || s->tok[k] != TOK_OPEN) {
			put_varint(t, TAG_NONE);
			continue;
		}
		k++; /* the item's TOK_OPEN */
		if (k < s->ntok && s->tok[k] == TOK_OPEN) {
			/* a list of tensors: count them, then encode each */
			size_t j, ntensors = 0;

			for (j = k; j < s->ntok && s->tok[j] == TOK_OPEN; ntensors++) {
				while (j < s->ntok && s->tok[j] != TOK_CLOSE)
					j++;
				j++;
			}
			put_varint(t, TAG_LIST);
			put_varint(t, ntensors);
			while (k < s->ntok && s->tok[k] == TOK_OPEN) {
				size_t nd = 0;

				for (j = k + 1; j < s->ntok && s->tok[j] != TOK_CLOSE; j++)
					nd++;
				if (arena_reserve(t, 10 * (nd + 1)) < 0)
					return RL_ERR_NOMEM;
				put_varint(t, nd);
				for (j = k + 1; j < s->ntok && s->tok[j] != TOK_CLOSE; j++)
					put_varint(t, s->tok[j]);
				k = j + 1;
			}
			k++; /* the item's TOK_CLOSE */
		} else {
			size_t j, nd = 0;

			for (j = k; j < s->ntok && s->tok[j] != TOK_CLOSE; j++)
				nd++;
			if (arena_reserve(t, 10 * (nd + 2)) < 0)
				return RL_ERR_NOMEM;
			put_varint(t, TAG_TENSOR);
			put_varint(t, nd);
			for (j = k; j < s->ntok && s->tok[j] != TOK_CLOSE; j++)
				put_varint(t, s->tok[j]);
			k = j + 1;
		}
	}
	return encode_strides(p);
}

/* A count of the collective metadata: a non-negative integer, else -1. */
static int64_t comm_count(const struct scratch *s, size_t field)
{
	const char *v = text(s, field);
	uint64_t x;

	return v != NULL && parse_u64(v, strlen(v), &x) == 0 && x <= INT64_MAX ? (int64_t)x : -1;
}

/* Keeps the collective metadata of the cpu_op about to become t->ops[nops]
 * (KERNEL 0) or of the kernel about to become t->gpu[ngpu] (KERNEL 1). */
static int keep_comm(struct parser *p, int kernel)
{
	struct rl_trace *t = p->t;
	struct scratch *s = &p->ev;
	struct rl_trace_comm **v = kernel ? &t->kernel_comms : &t->comms;
	size_t *n = kernel ? &t->nkernel_comms : &t->ncomms;
	struct rl_trace_comm *c;

	if (grow((void **)v, kernel ? &t->kernel_comms_cap : &t->comms_cap, *n, sizeof(**v)) < 0)
		return RL_ERR_NOMEM;
	c = &(*v)[*n];
	c->op = kernel ? t->ngpu : t->nops;
	c->dtype = 0;
	if (intern_name(p, text(s, s->comm), &c->name) < 0)
		return RL_ERR_NOMEM;
	if (s->comm_dtype) {
		if (intern_name(p, text(s, s->comm_dtype), &c->dtype) < 0)
			return RL_ERR_NOMEM;
		c->dtype++;
	}
	c->in_nelems = comm_count(s, s->in_nelems);
	c->out_nelems = comm_count(s, s->out_nelems);
	c->group_size = comm_count(s, s->group_size);
	(*n)++;
	return 0;
}

static const struct rl_trace_comm *find_comm(const struct rl_trace_comm *v, size_t n, size_t at)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].op < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].op == at ? &v[lo] : NULL;
}

const struct rl_trace_comm *rl_trace_op_comm(const struct rl_trace *t, size_t op)
{
	return find_comm(t->comms, t->ncomms, op);
}

const struct rl_trace_comm *rl_trace_gpu_comm(const struct rl_trace *t, size_t i)
{
	return find_comm(t->kernel_comms, t->nkernel_comms, i);
}

static int is_cat(const char *cat, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(cat, *list) == 0)
			return 1;
	return 0;
}

/* A user_annotation span (or, OVERHEAD, a span of the profiler's own
 * work): kept when it has a name, a start and a duration; otherwise dropped
 * without a word (it only labels the ops it spans). */
static int finish_mark(struct parser *p, int overhead)
{
	struct rl_trace *t = p->t;
	struct scratch *s = &p->ev;
	const char *name = text(s, s->name);
	struct rl_trace_mark **v = overhead ? &t->overheads : &t->marks, *m;
	size_t *n = overhead ? &t->noverheads : &t->nmarks;
	int64_t ts, dur;

	if (name == NULL || !s->ts || !s->dur || parse_ns(text(s, s->ts), &ts) != 0 ||
	    parse_ns(text(s, s->dur), &dur) != 0 || dur < 0)
		return 1;
	if (grow((void **)v, overhead ? &t->overheads_cap : &t->marks_cap, *n, sizeof(**v)) < 0)
		return fail(p, RL_ERR_NOMEM, "out of memory");
	m = &(*v)[*n];
	m->ts_ns = ts;
	m->dur_ns = dur;
	if (intern_name(p, name, &m->name) < 0 || thread_id(p, &m->thread) < 0)
		return fail(p, RL_ERR_NOMEM, "out of memory");
	(*n)++;
	return 1;
}

/* The event's map has closed: keep what the join needs, or count a skip. */
static int finish_event(struct parser *p)
{
	static const char *const launch_cats[] = {
		"cuda_runtime", "cuda_driver", "xpu_runtime", "xpu_driver",
		"privateuse1_runtime", "privateuse1_driver", NULL,
	};
	struct rl_trace *t = p->t;
	struct scratch *s = &p->ev;
	const char *cat = text(s, s->cat), *ph = text(s, s->ph), *name = text(s, s->name);
	int64_t ts = 0, dur = 0;
	int have_ts, have_dur, ts_rc, dur_rc;
	int gpu_kind = -1;
	uint64_t corr = 0;

	if (cat == NULL || ph == NULL || strcmp(ph, "X") != 0)
		return 1; /* metadata, flows, instants, counters */
	if (strcmp(cat, "user_annotation") == 0 || strcmp(cat, "overhead") == 0)
		return finish_mark(p, cat[0] == 'o');
	if (strcmp(cat, "kernel") == 0)
		gpu_kind = RL_GPU_KERNEL;
	else if (strcmp(cat, "gpu_memset") == 0)
		gpu_kind = RL_GPU_MEMSET;
	else if (strcmp(cat, "gpu_memcpy") == 0)
		gpu_kind = RL_GPU_MEMCPY;
	else if (strcmp(cat, "cpu_op") != 0 && !is_cat(cat, launch_cats))
		return 1;

	ts_rc = s->ts ? parse_ns(text(s, s->ts), &ts) : -1;
	dur_rc = s->dur ? parse_ns(text(s, s->dur), &dur) : -1;
	have_ts = ts_rc == 0;
	have_dur = dur_rc == 0 && dur >= 0;
	if (!have_ts || (!have_dur && strcmp(cat, "cpu_op") == 0) ||
	    (!have_dur && gpu_kind >= 0)) {
		const char *what = !have_ts ? "ts" : "dur";
		const char *v = text(s, !have_ts ? s->ts : s->dur);
		int rc = !have_ts ? ts_rc : dur_rc;

		if (v == NULL)
			skip_event(p, gpu_kind >= 0, "%s event without '%s'", cat, what);
		else if (rc == -2)
			skip_event(p, gpu_kind >= 0,
			           "%s event: '%s' out of range: '%.40s' (more than 2^62 ns, 146 years)",
			           cat, what, v);
		else if (rc == 0)
			skip_event(p, gpu_kind >= 0, "%s event: 'dur' below 0: '%.40s'", cat, v);
		else
			skip_event(p, gpu_kind >= 0,
			           "%s event: '%s' is not a time in microseconds: '%.40s'", cat, what, v);
		return 1;
	}
	if (!have_dur)
		dur = 0;
	if (strcmp(cat, "cpu_op") == 0) {
		struct rl_trace_op *op;

		if (name == NULL) {
			skip_event(p, 0, "cpu_op event without 'name'");
			return 1;
		}
		if (grow((void **)&t->ops, &t->ops_cap, t->nops, sizeof(*t->ops)) < 0)
			return fail(p, RL_ERR_NOMEM, "out of memory");
		op = &t->ops[t->nops];
		op->ts_ns = ts;
		op->dur_ns = dur;
		if (intern_name(p, name, &op->name) < 0 || thread_id(p, &op->thread) < 0 ||
		    encode_inputs(p, &op->args) < 0)
			return fail(p, RL_ERR_NOMEM, "out of memory");
		if (s->comm != 0 && keep_comm(p, 0) < 0)
			return fail(p, RL_ERR_NOMEM, "out of memory");
		t->nops++;
		return 1;
	}
	if (s->corr == 0 || parse_u64(text(s, s->corr), strlen(text(s, s->corr)), &corr) < 0) {
		if (gpu_kind >= 0 || s->corr != 0)
			skip_event(p, gpu_kind >= 0,
			           "%s event without a 'correlation' id in its args%s", cat,
			           s->corr ? " (not an integer below 2^64)" : "");
		return 1; /* runtime calls such as cudaGetErrorString have none */
	}
	if (gpu_kind >= 0) {
		struct rl_trace_gpu *g;
		uint64_t dev = 0;
		const char *dv = text(s, s->device);

		if (grow((void **)&t->gpu, &t->gpu_cap, t->ngpu, sizeof(*t->gpu)) < 0)
			return fail(p, RL_ERR_NOMEM, "out of memory");
		if (s->comm != 0 && gpu_kind == RL_GPU_KERNEL && keep_comm(p, 1) < 0)
			return fail(p, RL_ERR_NOMEM, "out of memory");
		g = &t->gpu[t->ngpu++];
		g->corr = corr;
		g->ts_ns = ts;
		g->dur_ns = dur;
		g->kind = (uint8_t)gpu_kind;
		if (intern_name(p, name ? name : "", &g->name) < 0)
			return fail(p, RL_ERR_NOMEM, "out of memory");
		g->device = dv && parse_u64(dv, strlen(dv), &dev) == 0 && dev < INT32_MAX
		                    ? (int32_t)dev
		                    : -1;
	} else {
		struct rl_trace_launch *l;

		if (grow((void **)&t->launches, &t->launches_cap, t->nlaunches,
		         sizeof(*t->launches)) < 0)
			return fail(p, RL_ERR_NOMEM, "out of memory");
		l = &t->launches[t->nlaunches];
		l->corr = corr;
		l->ts_ns = ts;
		l->dur_ns = dur;
		if (intern_name(p, name ? name : "", &l->name) < 0 || thread_id(p, &l->thread) < 0)
			return fail(p, RL_ERR_NOMEM, "out of memory");
		t->nlaunches++;
	}
	return 1;
}

static void reset_event(struct parser *p)
{
	struct scratch *s = &p->ev;

	s->len = 0;
	s->name = s->cat = s->ph = s->pid = s->tid = s->ts = s->dur = s->corr = s->device = 0;
	s->comm = s->comm_dtype = s->in_nelems = s->out_nelems = s->group_size = 0;
	s->kwargs = s->num_warps = 0;
	s->ntok = s->nstok = s->ntypes = s->nconc = 0;
	s->dims_bad = s->strides_bad = 0;
	s->offset = offset_now(p) - 1; /* yajl has consumed the '{' */
}

/* Keeps the top-level scalar KEY (string id + 1; 0: none) = the N bytes
 * at V, while there are fewer than RL_TRACE_MAX_META. */
static int add_meta(struct parser *p, uint32_t key, const char *v, size_t n)
{
	struct rl_trace *t = p->t;
	uint32_t id;

	if (key == 0 || t->nmeta >= RL_TRACE_MAX_META)
		return 1;
	if (intern_text(p, v, n, &id) < 0 ||
	    grow((void **)&t->meta, &t->meta_cap, t->nmeta, sizeof(*t->meta)) < 0)
		return fail(p, RL_ERR_NOMEM, "out of memory");
	t->meta[t->nmeta].key = key - 1;
	t->meta[t->nmeta++].value = id;
	return 1;
}

/* A scalar value (number, string, bool or null) as text. IS_STR: a string. */
static int on_scalar(struct parser *p, const char *v, size_t n, int is_str)
{
	struct scratch *s = &p->ev;
	size_t *field = NULL;

	if (p->skip > 0)
		return 1;
	switch (here(p)) {
	case W_TOP:
		p->saw_value = 1;
		return fail_back(p, RL_ERR_PARSE, n + 2 * is_str,
		                 "not a PyTorch profiler trace: the JSON is a single value, not an object");
	case W_ROOT:
		if (p->key == K_TRACE_EVENTS || p->key == K_DEVICE_PROPERTIES)
			return fail(p, RL_ERR_PARSE, "not a PyTorch profiler trace: '%s' is not an array",
			            p->key == K_TRACE_EVENTS ? "traceEvents" : "deviceProperties");
		return add_meta(p, p->root_key, v, n);
	case W_META:
		return add_meta(p, p->meta_key, v, n);
	case W_EVENTS:
		return fail_back(p, RL_ERR_PARSE, n + 2 * is_str, "traceEvents item %zu is not an object",
		                 p->t->events + 1);
	case W_EVENT:
		switch (p->key) {
		case K_PH: field = &s->ph; break;
		case K_CAT: field = &s->cat; break;
		case K_NAME: field = &s->name; break;
		case K_PID: field = &s->pid; break;
		case K_TID: field = &s->tid; break;
		case K_TS: field = is_str ? NULL : &s->ts; break;
		case K_DUR: field = is_str ? NULL : &s->dur; break;
		case K_OTHER:
		case K_TRACE_EVENTS:
		case K_DEVICE_PROPERTIES:
		case K_ARGS:
		case K_CORRELATION:
		case K_DEVICE:
		case K_INPUT_DIMS:
		case K_INPUT_STRIDES:
		case K_INPUT_TYPE:
		case K_CONCRETE:
		case K_COMM_NAME:
		case K_COMM_DTYPE:
		case K_IN_NELEMS:
		case K_OUT_NELEMS:
		case K_GROUP_SIZE:
		case K_KERNEL_KWARGS:
		case K_NUM_WARPS:
		case K_ID:
		case K_NUM_SMS:
		case K_TOTAL_MEM: break;
		}
		break;
	case W_ARGS:
		if (p->key == K_CORRELATION && !is_str)
			field = &s->corr;
		else if (p->key == K_DEVICE && !is_str)
			field = &s->device;
		else if (p->key == K_COMM_NAME && is_str)
			field = &s->comm;
		else if (p->key == K_COMM_DTYPE && is_str)
			field = &s->comm_dtype;
		else if (p->key == K_IN_NELEMS && !is_str)
			field = &s->in_nelems;
		else if (p->key == K_OUT_NELEMS && !is_str)
			field = &s->out_nelems;
		else if (p->key == K_GROUP_SIZE && !is_str)
			field = &s->group_size;
		else if (p->key == K_KERNEL_KWARGS && is_str)
			field = &s->kwargs;
		else if (p->key == K_NUM_WARPS && !is_str)
			field = &s->num_warps;
		break;
	case W_DIMS: {
		uint64_t d;

		if (is_str || parse_u64(v, n, &d) < 0 || d >= TOK_BAD)
			tok_bad(p);
		else
			return push_tok(p, d);
		return 1;
	}
	case W_TYPES:
	case W_CONCRETE: {
		uint32_t id;
		int types = here(p) == W_TYPES;

		if (intern(p->t, v, strnlen(v, n), &id) < 0)
			return fail(p, RL_ERR_NOMEM, "out of memory");
		return types ? push_id(p, &s->types, &s->ntypes, &s->typecap, id + 1)
		             : push_id(p, &s->conc, &s->nconc, &s->conccap, id + 1);
	}
	case W_DEVICE:
		if (p->key == K_NAME && is_str) {
			free(p->dev.name);
			p->dev.name = strndup(v, n);
			if (p->dev.name == NULL)
				return fail(p, RL_ERR_NOMEM, "out of memory");
			clean_name(p->dev.name, strlen(p->dev.name));
		} else if ((p->key == K_ID || p->key == K_NUM_SMS || p->key == K_TOTAL_MEM) &&
		           !is_str) {
			char b[32];
			long long x;

			snprintf(b, sizeof(b), "%.*s", (int)(n < 31 ? n : 31), v);
			x = strtoll(b, NULL, 10);
			if (p->key == K_ID) {
				p->dev.id = x;
				p->dev_has_id = 1;
			} else if (p->key == K_NUM_SMS) {
				p->dev.num_sms = x > 0 ? x : 0;
			} else {
				p->dev.total_mem_bytes = x > 0 ? x : 0;
			}
		}
		return 1;
	case W_DEVPROPS:
	case W_DONE:
		return 1;
	}
	if (field != NULL && (*field = keep_text(s, v, n)) == 0)
		return fail(p, RL_ERR_NOMEM, "out of memory");
	return 1;
}

static int cb_null(void *ctx)
{
	return on_scalar(ctx, "null", 4, 0);
}

static int cb_bool(void *ctx, int b)
{
	return on_scalar(ctx, b ? "true" : "false", b ? 4 : 5, 0);
}

static int cb_number(void *ctx, const char *v, size_t n)
{
	return on_scalar(ctx, v, n, 0);
}

static int cb_string(void *ctx, const unsigned char *v, size_t n)
{
	return on_scalar(ctx, (const char *)v, n, 1);
}

static int key_is(const unsigned char *k, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(k, s, n) == 0;
}

static int cb_key(void *ctx, const unsigned char *k, size_t n)
{
	struct parser *p = ctx;

	if (p->skip > 0)
		return 1;
	p->key = K_OTHER;
	switch (here(p)) {
	case W_ROOT:
		p->root_key = 0;
		if (key_is(k, n, "traceEvents"))
			p->key = K_TRACE_EVENTS;
		else if (key_is(k, n, "deviceProperties"))
			p->key = K_DEVICE_PROPERTIES;
		else if (p->t->nmeta < RL_TRACE_MAX_META) {
			uint32_t id;

			if (intern_text(p, (const char *)k, n, &id) < 0)
				return fail(p, RL_ERR_NOMEM, "out of memory");
			p->root_key = id + 1;
		}
		break;
	case W_EVENT:
		if (n == 2 && k[0] == 'p' && k[1] == 'h') p->key = K_PH;
		else if (n == 2 && k[0] == 't' && k[1] == 's') p->key = K_TS;
		else if (key_is(k, n, "cat")) p->key = K_CAT;
		else if (key_is(k, n, "name")) p->key = K_NAME;
		else if (key_is(k, n, "pid")) p->key = K_PID;
		else if (key_is(k, n, "tid")) p->key = K_TID;
		else if (key_is(k, n, "dur")) p->key = K_DUR;
		else if (key_is(k, n, "args")) p->key = K_ARGS;
		break;
	case W_ARGS:
		if (key_is(k, n, "correlation")) p->key = K_CORRELATION;
		else if (key_is(k, n, "device")) p->key = K_DEVICE;
		else if (key_is(k, n, "Input Dims")) p->key = K_INPUT_DIMS;
		else if (key_is(k, n, "Input Strides")) p->key = K_INPUT_STRIDES;
		else if (key_is(k, n, "Input type")) p->key = K_INPUT_TYPE;
		else if (key_is(k, n, "Concrete Inputs")) p->key = K_CONCRETE;
		else if (key_is(k, n, "Collective name")) p->key = K_COMM_NAME;
		else if (key_is(k, n, "dtype")) p->key = K_COMM_DTYPE;
		else if (key_is(k, n, "In msg nelems")) p->key = K_IN_NELEMS;
		else if (key_is(k, n, "Out msg nelems")) p->key = K_OUT_NELEMS;
		else if (key_is(k, n, "Group size")) p->key = K_GROUP_SIZE;
		else if (key_is(k, n, "kernel_kwargs")) p->key = K_KERNEL_KWARGS;
		else if (key_is(k, n, "num_warps")) p->key = K_NUM_WARPS;
		break;
	case W_META:
		p->meta_key = 0;
		if (p->t->nmeta < RL_TRACE_MAX_META && p->root_key != 0) {
			const char *obj = rl_trace_str(p->t, p->root_key - 1);
			size_t m = strlen(obj);
			char *full = malloc(m + n + 2);
			uint32_t id;
			int rc;

			if (full == NULL)
				return fail(p, RL_ERR_NOMEM, "out of memory");
			memcpy(full, obj, m);
			full[m] = '.';
			memcpy(full + m + 1, k, n);
			rc = intern_text(p, full, m + 1 + n, &id);
			free(full);
			if (rc < 0)
				return fail(p, RL_ERR_NOMEM, "out of memory");
			p->meta_key = id + 1;
		}
		break;
	case W_DEVICE:
		if (key_is(k, n, "name")) p->key = K_NAME;
		else if (key_is(k, n, "id")) p->key = K_ID;
		else if (key_is(k, n, "numSms")) p->key = K_NUM_SMS;
		else if (key_is(k, n, "totalGlobalMem")) p->key = K_TOTAL_MEM;
		break;
	case W_TOP:
	case W_EVENTS:
	case W_DIMS:
	case W_TYPES:
	case W_CONCRETE:
	case W_DEVPROPS:
	case W_DONE:
		break;
	}
	return 1;
}

/* Counts a container opening: past RL_JSON_MAX_DEPTH the trace is refused,
 * as the tree readers refuse it (json.h). yajl keeps a byte per open
 * container: a gzipped trace of 200 million '[' (194 KB) had it grow to
 * 200 MB before the end of the file said it was truncated. */
static int open_level(struct parser *p)
{
	if (++p->level > RL_JSON_MAX_DEPTH)
		return fail_back(p, RL_ERR_PARSE, 1, "nesting deeper than %d levels",
		                 RL_JSON_MAX_DEPTH);
	return 1;
}

static int cb_start_map(void *ctx)
{
	struct parser *p = ctx;

	if (!open_level(p))
		return 0;
	if (p->skip > 0) {
		p->skip++;
		return 1;
	}
	switch (here(p)) {
	case W_TOP:
		p->saw_value = 1;
		return push(p, W_ROOT);
	case W_ROOT:
		if (p->key == K_TRACE_EVENTS || p->key == K_DEVICE_PROPERTIES)
			return fail(p, RL_ERR_PARSE, "not a PyTorch profiler trace: '%s' is not an array",
			            p->key == K_TRACE_EVENTS ? "traceEvents" : "deviceProperties");
		if (p->root_key != 0)
			return push(p, W_META);
		break;
	case W_EVENTS:
		reset_event(p);
		return push(p, W_EVENT);
	case W_EVENT:
		if (p->key == K_ARGS)
			return push(p, W_ARGS);
		break;
	case W_DEVPROPS:
		memset(&p->dev, 0, sizeof(p->dev));
		p->dev_has_id = 0;
		return push(p, W_DEVICE);
	case W_DIMS:
		tok_bad(p);
		break;
	case W_TYPES:
	case W_CONCRETE:
		on_scalar(p, "", 0, 1); /* keep the slot */
		break;
	case W_ARGS:
	case W_DEVICE:
	case W_META:
	case W_DONE:
		break;
	}
	p->skip = 1;
	return 1;
}

static int cb_start_array(void *ctx)
{
	struct parser *p = ctx;

	if (!open_level(p))
		return 0;
	if (p->skip > 0) {
		p->skip++;
		return 1;
	}
	switch (here(p)) {
	case W_TOP:
		/* the Chrome trace "JSON array format": just the events */
		p->saw_value = 1;
		p->saw_events = 1;
		return push(p, W_EVENTS);
	case W_ROOT:
		if (p->key == K_TRACE_EVENTS) {
			p->saw_events = 1;
			return push(p, W_EVENTS);
		}
		if (p->key == K_DEVICE_PROPERTIES)
			return push(p, W_DEVPROPS);
		break;
	case W_EVENTS:
		return fail_back(p, RL_ERR_PARSE, 1, "traceEvents item %zu is not an object",
		                 p->t->events + 1);
	case W_ARGS:
		if (p->key == K_INPUT_DIMS || p->key == K_INPUT_STRIDES) {
			p->strides = p->key == K_INPUT_STRIDES;
			if (p->strides)
				p->ev.nstok = 0;
			else
				p->ev.ntok = 0;
			p->dims_depth = 1;
			if (!push_tok(p, TOK_OPEN))
				return 0;
			return push(p, W_DIMS);
		}
		if (p->key == K_INPUT_TYPE) {
			p->ev.ntypes = 0;
			return push(p, W_TYPES);
		}
		if (p->key == K_CONCRETE) {
			p->ev.nconc = 0;
			return push(p, W_CONCRETE);
		}
		break;
	case W_DIMS:
		if (++p->dims_depth > 3) {
			tok_bad(p);
			p->dims_depth--;
			break;
		}
		return push_tok(p, TOK_OPEN);
	case W_TYPES:
	case W_CONCRETE:
		on_scalar(p, "", 0, 1);
		break;
	case W_EVENT:
	case W_DEVPROPS:
	case W_DEVICE:
	case W_META:
	case W_DONE:
		break;
	}
	p->skip = 1;
	return 1;
}

static int cb_end(void *ctx)
{
	struct parser *p = ctx;
	enum where w;

	p->level--;
	if (p->skip > 0) {
		p->skip--;
		return 1;
	}
	w = here(p);
	if (w == W_DIMS) {
		if (!push_tok(p, TOK_CLOSE))
			return 0;
		if (--p->dims_depth > 0)
			return 1;
		p->strides = 0;
	}
	p->depth--;
	switch (w) {
	case W_EVENT:
		p->t->events++;
		return finish_event(p);
	case W_EVENTS:
		break;
	case W_DEVICE: {
		struct rl_trace *t = p->t;

		if (p->dev.name == NULL)
			break;
		if (grow((void **)&t->devices, &t->devices_cap, t->ndevices, sizeof(*t->devices)) < 0) {
			free(p->dev.name);
			p->dev.name = NULL;
			return fail(p, RL_ERR_NOMEM, "out of memory");
		}
		if (!p->dev_has_id)
			p->dev.id = (long long)t->ndevices;
		t->devices[t->ndevices++] = p->dev;
		p->dev.name = NULL;
		break;
	}
	case W_TOP:
	case W_ROOT:
	case W_ARGS:
	case W_DIMS:
	case W_TYPES:
	case W_CONCRETE:
	case W_DEVPROPS:
	case W_META:
	case W_DONE:
		break;
	}
	p->key = K_OTHER;
	return 1;
}

static const yajl_callbacks callbacks = {
	cb_null, cb_bool, NULL, NULL, cb_number, cb_string,
	cb_start_map, cb_key, cb_end, cb_start_array, cb_end,
};

/* The longest string or other token a trace may hold, in bytes: kernel
 * names, the longest strings of real traces, are under 1 KB (810 bytes in
 * the test traces). yajl copies a token that spans chunks aside and lexes
 * it again from its start with each new chunk: a gzipped trace of one
 * 300 MB string (290 KB) kept import busy for over ten minutes. */
#define MAX_TOKEN (1u << 20)

/* Follows the tokens of the LEN bytes at C (which start at byte p->base)
 * and fails on one longer than MAX_TOKEN: in a string, every byte to the
 * closing quote; outside, a run of bytes that are not white space or
 * punctuation (a number, true, a stray word). What is malformed otherwise
 * is left to yajl. */
static int check_tokens(struct parser *p, const unsigned char *c, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char b = c[i];

		if (p->tok_in_str) {
			if (p->tok_esc)
				p->tok_esc = 0;
			else if (b == '\\')
				p->tok_esc = 1;
			else if (b == '"') {
				p->tok_in_str = 0;
				p->tok_len = 0;
				continue;
			}
		} else if (b == '"') {
			p->tok_in_str = 1;
			p->tok_len = 0;
			continue;
		} else if (strchr(" \t\r\n,:[]{}", b) != NULL) {
			p->tok_len = 0;
			continue;
		}
		if (++p->tok_len > MAX_TOKEN) {
			rl_err_set(p->err, RL_ERR_PARSE, "%s: byte %llu: a %s longer than %u bytes",
			           p->t->name, p->base + i, p->tok_in_str ? "string" : "token",
			           MAX_TOKEN);
			p->failed = 1;
			return -1;
		}
	}
	return 0;
}

/* yajl's message ("parse error: premature EOF\n ...") without its framing. */
static void yajl_message(yajl_handle h, char *buf, size_t len)
{
	unsigned char *m = yajl_get_error(h, 0, NULL, 0);
	const char *s = (const char *)m;

	if (strncmp(s, "parse error: ", 13) == 0)
		s += 13;
	snprintf(buf, len, "%s", s);
	buf[strcspn(buf, "\n")] = '\0';
	yajl_free_error(h, m);
}

int rl_trace_read(const char *path, struct rl_trace *t, struct rl_err *err)
{
	enum { CHUNK = 1 << 16 };
	static const unsigned char utf8_bom[3] = {0xEF, 0xBB, 0xBF};
	size_t bom = 0; /* bytes of the mark seen; 3: past it */
	unsigned char *chunk = NULL;
	struct parser p;
	rl_gz *gz = NULL;
	yajl_status st = yajl_status_ok;
	long got;
	int rc;

	memset(t, 0, sizeof(*t));
	memset(&p, 0, sizeof(p));
	p.t = t;
	p.err = err;
	rc = rl_gz_open(path, &gz, err);
	if (rc < 0)
		return rc;
	t->name = strdup(rl_gz_name(gz));
	p.h = yajl_alloc(&callbacks, NULL, &p);
	chunk = malloc(CHUNK);
	if (t->name == NULL || p.h == NULL || chunk == NULL) {
		rc = rl_err_set(err, RL_ERR_NOMEM, "out of memory");
		goto out;
	}
	yajl_config(p.h, yajl_dont_validate_strings, 1);
	while ((got = rl_gz_read(gz, chunk, CHUNK, err)) > 0) {
		const unsigned char *c = chunk;
		size_t len = (size_t)got;

		/* A UTF-8 byte-order mark (Windows editors write one) is not
		 * JSON: skip it, as the op list reader does. The bytes of a
		 * partial mark go to yajl, which refuses them. */
		while (bom < 3 && len > 0) {
			if (*c == utf8_bom[bom]) {
				c++, len--, bom++;
				p.base++;
				continue;
			}
			if (bom > 0) {
				p.base -= bom;
				st = yajl_parse(p.h, utf8_bom, bom);
				if (st == yajl_status_ok)
					p.base += bom;
			}
			bom = 3;
		}
		if (st == yajl_status_ok && len > 0 && check_tokens(&p, c, len) < 0)
			break;
		if (st == yajl_status_ok && len > 0)
			st = yajl_parse(p.h, c, len);
		if (st != yajl_status_ok)
			break;
		p.base += len;
	}
	if (got < 0) {
		rc = (int)got;
		goto out;
	}
	if (st == yajl_status_ok && !p.failed)
		st = yajl_complete_parse(p.h);
	t->bytes = rl_gz_offset(gz);
	if (p.failed) {
		rc = err ? err->code : RL_ERR_PARSE;
		goto out;
	}
	if (t->bytes == 0) {
		rc = rl_err_set(err, RL_ERR_PARSE, "%s: byte 0: empty file: not a PyTorch profiler trace",
		                t->name);
		goto out;
	}
	if (st != yajl_status_ok) {
		char msg[256];
		unsigned long long at = p.base + yajl_get_bytes_consumed(p.h);

		yajl_message(p.h, msg, sizeof(msg));
		if (strstr(msg, "premature EOF") != NULL)
			rc = rl_err_set(err, RL_ERR_PARSE,
			                "%s: byte %llu: the JSON ends early: the file is truncated",
			                t->name, t->bytes);
		else
			rc = rl_err_set(err, RL_ERR_PARSE, "%s: byte %llu: not valid JSON: %s",
			                t->name, at, msg);
		goto out;
	}
	if (!p.saw_events)
		rc = rl_err_set(err, RL_ERR_PARSE,
		                "%s: byte %llu: not a PyTorch profiler trace: no 'traceEvents' array "
		                "(expected the JSON of torch.profiler's export_chrome_trace)",
		                t->name, t->bytes);
	else
		rc = 0;
out:
	if (p.h != NULL)
		yajl_free(p.h);
	rl_gz_close(gz);
	free(chunk);
	free(p.ev.buf);
	free(p.ev.tok);
	free(p.ev.stok);
	free(p.ev.types);
	free(p.ev.conc);
	free(p.dev.name);
	return rc;
}

const char *rl_trace_meta(const struct rl_trace *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->nmeta; i++)
		if (strcmp(rl_trace_str(t, t->meta[i].key), key) == 0)
			return rl_trace_str(t, t->meta[i].value);
	return NULL;
}

void rl_trace_release(struct rl_trace *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->ndevices; i++)
		free(t->devices[i].name);
	free(t->devices);
	free(t->name);
	free(t->ops);
	free(t->launches);
	free(t->gpu);
	free(t->marks);
	free(t->overheads);
	free(t->meta);
	free(t->comms);
	free(t->kernel_comms);
	free(t->pool);
	free(t->str_off);
	free(t->hash);
	free(t->arena);
	memset(t, 0, sizeof(*t));
}
