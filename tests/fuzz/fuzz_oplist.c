/* fuzz_oplist.c - the op list reader (oplist.c with libcsv) on any bytes.
 *
 * The input is read three times: streamed through rl_ops_read with two names
 * bound (so symbolic shapes such as BxS are reached), whole into an
 * rl_oplist, whose ops are then scaled as --scale does (symbols.c), and
 * streamed through classify --impl hf's component expansion (component.c,
 * over the source tree's hwdb/hf-transformers.impl), sized by the
 * implementation's names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "component.h"
#include "fuzz.h"
#include "impl.h"
#include "oplist.h"
#include "symbols.h"

struct seen {
	const struct rl_ops_header *h;
	size_t bytes;
};

/* Touch every string the reader hands out, so that ASan sees a dangling
 * one (the header stays valid until rl_ops_read returns). */
static int on_header(const struct rl_ops_header *h, void *user)
{
	struct seen *s = user;
	size_t i;

	s->h = h;
	s->bytes += strlen(h->name);
	for (i = 0; i < h->nextra; i++)
		s->bytes += strlen(h->extra_names[i]);
	return 0;
}

static int on_op(const struct rl_op *op, void *user)
{
	struct seen *s = user;
	size_t i;

	s->bytes += strlen(op->name) + (op->fuse ? strlen(op->fuse) : 0);
	for (i = 0; i < s->h->nextra; i++)
		s->bytes += strlen(s->h->extra_names[i]) + (op->extra[i] ? strlen(op->extra[i]) : 0);
	return 0;
}

/* The kernels component.c emits: every string touched. */
static int on_kernel(const struct rl_op *op, void *user)
{
	size_t *bytes = user;

	*bytes += strlen(op->name) + (size_t)op->count;
	return 0;
}

static int on_component(const struct rl_op *op, void *user)
{
	rl_component *c = user;
	struct rl_errlist errs;
	size_t bytes = 0;

	rl_errlist_init(&errs);
	return rl_component_op(c, op, on_kernel, &bytes, &errs);
}

static int on_component_header(const struct rl_ops_header *h, void *user)
{
	return rl_component_columns(user, h->nextra);
}

/* The op list streamed through the expansion of its component rows. */
static void expand(const uint8_t *data, size_t size)
{
	static struct rl_impl im;
	static int loaded;
	struct rl_symbols names;
	struct rl_ops_sink sink;
	struct rl_errlist errs;
	rl_component *c = NULL;
	struct rl_err e;
	size_t bytes = 0;
	FILE *f;

	if (!loaded) {
		if (rl_impl_load(RL_FUZZ_HWDB "/hf-transformers.impl", &im, &e) < 0)
			__builtin_trap();
		loaded = 1;
	}
	rl_symbols_init(&names);
	if (rl_symbols_set(&names, "B=2,S=1,C=9,H=64,I=96,NH=4,KVH=2,D=16,V=100,E=4,K=2,L=2",
	                   &e) < 0 ||
	    rl_component_new(&im, &names, 0, "fuzz.csv", &c, &e) < 0)
		__builtin_trap();
	f = fmemopen((void *)data, size, "r");
	if (f != NULL) {
		memset(&sink, 0, sizeof(sink));
		sink.header = on_component_header;
		sink.op = on_component;
		sink.user = c;
		sink.names = &names;
		sink.names_sized = rl_component_names_used(c);
		rl_errlist_init(&errs);
		if (rl_ops_read(f, "fuzz.csv", &sink, &errs) == 0)
			(void)rl_component_end(c, on_kernel, &bytes, &errs);
		fclose(f);
	}
	rl_component_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rl_symbols names;
	struct rl_ops_sink sink;
	struct rl_errlist errs;
	struct rl_oplist list;
	struct rl_err e;
	struct seen seen = {NULL, 0};
	size_t i;
	FILE *f;

	if (size == 0)
		return 0; /* fmemopen refuses an empty buffer */
	rl_symbols_init(&names);
	if (rl_symbols_set(&names, "B=2,S=3,H_kv=1000000007", &e) < 0 ||
	    rl_symbols_scale(&names, "B=4,S=65536", &e) < 0)
		__builtin_trap();

	f = fmemopen((void *)data, size, "r");
	if (f == NULL)
		return 0;
	memset(&sink, 0, sizeof(sink));
	sink.header = on_header;
	sink.op = on_op;
	sink.user = &seen;
	sink.names = &names;
	rl_errlist_init(&errs);
	rl_ops_read(f, "fuzz.csv", &sink, &errs);
	fclose(f);

	f = fmemopen((void *)data, size, "r");
	if (f == NULL)
		return 0;
	rl_errlist_init(&errs);
	if (rl_oplist_read(f, "fuzz.csv", &list, &errs) == 0) {
		for (i = 0; i < list.n; i++) {
			struct rl_op scaled;

			rl_symbols_apply(&names, &list.ops[i], &scaled, NULL, &e);
		}
	}
	rl_oplist_release(&list);
	fclose(f);
	expand(data, size);
	return 0;
}
