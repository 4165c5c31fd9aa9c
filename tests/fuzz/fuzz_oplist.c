/* fuzz_oplist.c - the op list reader (oplist.c with libcsv) on any bytes.
 *
 * The input is read twice: streamed through rl_ops_read with two names bound
 * (so symbolic shapes such as BxS are reached), and whole into an rl_oplist,
 * whose ops are then scaled as --scale does (symbols.c). */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
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
	return 0;
}
