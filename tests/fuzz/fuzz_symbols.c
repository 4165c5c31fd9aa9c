/* fuzz_symbols.c - --set and --scale specs and shape expressions (symbols.c)
 * on any bytes. The first line is a --set spec, the second a --scale spec,
 * every further line a shape such as "Bx4096" (parsed, then scaled). */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "op.h"
#include "symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rl_symbols s;
	struct rl_err e;
	char *text = malloc(size + 1), *line, *next, label[256];
	int nline = 0;

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	rl_symbols_init(&s);
	for (line = text; line != NULL; line = next, nline++) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (nline == 0) {
			rl_symbols_set(&s, line, &e);
		} else if (nline == 1) {
			rl_symbols_scale(&s, line, &e);
			rl_symbols_scale_label(&s, label, sizeof(label));
		} else {
			struct rl_op op, scaled;
			int n = 0, depends = 0;

			rl_op_init(&op);
			op.name = "fuzz";
			if (rl_symbols_dims(&s, line, op.dims, op.dim_sym, RL_MAX_DIMS, &n, &e) == 0) {
				op.ndims = n;
				op.has |= RL_HAS_SHAPE;
				rl_symbols_apply(&s, &op, &scaled, &depends, &e);
			}
		}
	}
	free(text);
	return 0;
}
