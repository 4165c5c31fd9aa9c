/* check_impl.c - implementation files (impl.c): reading them, their
 * conditions and choices, the sizes they are evaluated over, and the rows a
 * step gets from them (modelops.c), against values worked out by hand. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "family.h"
#include "hfconfig.h"
#include "impl.h"
#include "modelops.h"
#include "symbols.h"

/* Writes TEXT to a new temporary file; its path into PATH (64 bytes). */
static void write_tmp(char *path, const char *text)
{
	FILE *f;
	int fd;

	strcpy(path, "/tmp/check_impl.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static int load_text(const char *text, struct rl_impl *im, struct rl_err *e)
{
	char path[64];
	int rc;

	write_tmp(path, text);
	rc = rl_impl_load(path, im, e);
	unlink(path);
	return rc;
}

static const char *const two_norms =
	"id = t\n"
	"name = a test\n"
	"stack = none\n"
	"choice.cast = fp32 none ; s\n"
	"norm = up copy fp32 TxH bytes=6*T*H cast=fp32 family=llama ; s\n"
	"norm = scale pointwise model TxH ; s\n"
	"cache = k_cat copy model BxKVHxCxD if=decode ; s\n"
	"qkv_bias = - ; s\n";

START_TEST(test_load)
{
	struct rl_impl im;
	struct rl_err e;

	ck_assert_msg(load_text(two_norms, &im, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(im.id, "t");
	ck_assert_uint_eq(im.nk, 4);
	ck_assert_int_eq(im.nchoices, 1);
	ck_assert_int_eq(im.choice[0].nvalues, 2);
	ck_assert_str_eq(im.k[0].name, "up");
	ck_assert_int_eq(im.k[0].kind, RL_KIND_COPY);
	ck_assert_int_eq(im.k[0].dtype, RL_FP32);
	ck_assert_str_eq(im.k[0].bytes, "6*T*H");
	ck_assert_int_eq(im.k[0].choice, 0);
	ck_assert_int_eq(im.k[1].dtype, -1); /* model: the step's */
	ck_assert_uint_eq(im.k[2].need, RL_IMPL_IF_DECODE);
	ck_assert_int_eq(im.k[3].none, 1);
	ck_assert_int_eq(im.names[RL_IMPL_NORM], 1);
	ck_assert_int_eq(im.names[RL_IMPL_MLP], 0);
	rl_impl_release(&im);
}
END_TEST

START_TEST(test_applies)
{
	int llama = -1, gpt2 = -1, i;
	struct rl_impl im;
	struct rl_err e;

	for (i = 0; rl_families[i] != NULL; i++) {
		if (strcmp(rl_families[i]->name, "llama") == 0)
			llama = i;
		if (strcmp(rl_families[i]->name, "gpt2") == 0)
			gpt2 = i;
	}
	ck_assert_msg(load_text(two_norms, &im, &e) == 0, "%s", e.msg);
	/* a component named for a family: any of its lines is for it */
	ck_assert_int_eq(rl_impl_names(&im, RL_IMPL_NORM, llama), 1);
	ck_assert_int_eq(rl_impl_names(&im, RL_IMPL_NORM, gpt2), 1); /* "scale" is every family's */
	ck_assert_int_eq(rl_impl_names(&im, RL_IMPL_ROTARY, llama), 0);
	ck_assert_int_eq(rl_impl_applies(&im, &im.k[0], llama, 0), 1);
	ck_assert_int_eq(rl_impl_applies(&im, &im.k[0], gpt2, 0), 0);
	ck_assert_int_eq(rl_impl_applies(&im, &im.k[2], llama, RL_IMPL_IF_PREFILL), 0);
	ck_assert_int_eq(rl_impl_applies(&im, &im.k[2], llama, RL_IMPL_IF_DECODE), 1);
	/* a choice: the line for cast=fp32 goes with cast=none */
	ck_assert_int_eq(rl_impl_choose(&im, "cast=none", &e), 0);
	ck_assert_int_eq(rl_impl_applies(&im, &im.k[0], llama, 0), 0);
	ck_assert_int_eq(rl_impl_choose(&im, "cast=other", &e), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(e.msg, "expected fp32, none"));
	ck_assert_int_eq(rl_impl_choose(&im, "nope=1", &e), RL_ERR_ARG);
	rl_impl_release(&im);
}
END_TEST

START_TEST(test_bad)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{"id = x\nname = x\nstack = x\nnorm = a pointwise model TxH\n", ":4: the norm kernel line has no source"},
		{"id = x\nname = x\nstack = x\nnorms = a pointwise model TxH ; s\n", ":4: unknown key 'norms'"},
		{"id = x\nname = x\nstack = x\nnorm = a warp model TxH ; s\n", ":4: unknown kind 'warp'"},
		{"id = x\nname = x\nstack = x\nnorm = a pointwise fp33 TxH ; s\n", ":4: unknown dtype 'fp33'"},
		{"id = x\nname = x\nstack = x\nnorm = a pointwise model TxQ ; s\n", ":4: shape:"},
		{"id = x\nname = x\nstack = x\nnorm = a pointwise model TxH if=odd ; s\n", ":4: unknown condition 'odd'"},
		{"id = x\nname = x\nstack = x\nnorm = a pointwise model TxH family=x ; s\n", ":4: unknown family 'x'"},
		{"id = x\nname = x\nstack = x\nnorm = a pointwise model TxH cast=a ; s\n", ":4: unknown option 'cast'"},
		{"id = x\nname = x\nstack = x\nnorm = a pointwise model ; s\n", ":4: a kernel line is"},
		{"id = x\nname = x\nstack = x\nnorm = a pointwise model TxH host=0 ; s\n", ":4: host '0'"},
		{"id = x\nname = x\nnorm = a pointwise model TxH ; s\n", "needs 'id', 'name' and 'stack'"},
		{"id = x\nname = x\nstack = x\nautograd = 2\n", ":4: autograd '2'"},
		{"id = x\nname = x\nstack = x\nqkv = a matmul model TxHxH conv1d ; s\n",
		 ":4: conv1d: says how the weights are held, and the kernel reads none"},
		{"id = x\nname = x\nstack = x\nnorm = a pointwise model TxH conv1d ; s\n",
		 ":4: weights and conv1d: not an option of a pointwise kernel"},
		{"id = x\nname = x\nstack = x\nnorm = a pointwise model TxH live=Q ; s\n", ":4: live"},
	};
	struct rl_impl im;
	struct rl_err e;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(load_text(bad[i].text, &im, &e), RL_ERR_PARSE);
		ck_assert_msg(strstr(e.msg, bad[i].msg) != NULL, "%zu: '%s' lacks '%s'", i, e.msg,
		              bad[i].msg);
	}
}
END_TEST

START_TEST(test_bind)
{
	uint64_t v[RL_IMPL_SYM_COUNT] = {0}, d[6], out;
	struct rl_symbols s;
	struct rl_err e;
	int n;

	v[RL_IMPL_SYM_B] = 16;
	v[RL_IMPL_SYM_KVH] = 8;
	v[RL_IMPL_SYM_C] = 1024;
	v[RL_IMPL_SYM_D] = 128;
	ck_assert_int_eq(rl_impl_bind(&s, v, &e), 0);
	ck_assert_int_eq(rl_symbols_dims_used(&s, "BxKVHxCxD/2", d, NULL, 6, &n, NULL, &e), 0);
	ck_assert_int_eq(n, 4);
	ck_assert_uint_eq(d[0], 16);
	ck_assert_uint_eq(d[3], 64);
	/* a size the step lacks is bound as 1 */
	ck_assert_int_eq(rl_symbols_eval(&s, "E*K", "count", &out, NULL, &e), 0);
	ck_assert_uint_eq(out, 1);
	ck_assert_str_eq(rl_impl_sym_name(RL_IMPL_SYM_KVH), "KVH");
}
END_TEST

/* The hf file's rows of a Llama-3-8B decode step of 2 layers, batch 16,
 * context 1024, by hand (modeling_llama.py): 62 rows (40 a layer, 22 for
 * the step; tests/cli_impl.sh counts them too), the DynamicCache's two
 * torch.cat of 16 x 8 x 1024 x 128 bf16 a layer: 2 x 2 x 16 x 8 x 1024 x
 * 128 x 2 B read and written = 4 x 67,108,864 = 268,435,456 B a step. */
START_TEST(test_hf_rows)
{
	struct rl_modelops_row *rows = malloc(RL_MODELOPS_MAX * sizeof(*rows));
	struct rl_modelops_opts o;
	struct rl_hfconfig c;
	struct rl_impl im;
	struct rl_err e;
	char path[256];
	int n, i, kcat = -1;

	snprintf(path, sizeof(path), "%s/../tests/data/impl/llama3-8b-l2.json", RL_EXAMPLES);
	ck_assert_msg(rl_hfconfig_read(path, &c, &e) == 0, "%s", e.msg);
	ck_assert_msg(rl_impl_find(RL_TEST_HWDB, "hf", &im, &e) == 0, "%s", e.msg);
	memset(&o, 0, sizeof(o));
	o.phase = RL_PHASE_DECODE;
	o.batch = 16;
	o.seq = 1024;
	o.context = 1024;
	o.dtype = o.weight_dtype = o.kv_dtype = RL_BF16;
	o.impl = &im;
	n = rl_modelops_build(&c, &o, rows, &e);
	ck_assert_msg(n == 62, "%d rows: %s", n, n < 0 ? e.msg : "");
	for (i = 0; i < n; i++)
		if (strcmp(rows[i].name, "k_cat") == 0)
			kcat = i;
	ck_assert_int_ge(kcat, 0);
	ck_assert_str_eq(rows[kcat].shape, "16x8x1024x128");
	ck_assert_uint_eq(rows[kcat].count, 2);
	ck_assert_double_eq_tol(rl_modelops_comp_bytes(rows, n, &o, RL_IMPL_CACHE), 268435456.0,
	                        0.5);
	/* the fused ideal has no cache row */
	o.impl = NULL;
	n = rl_modelops_build(&c, &o, rows, &e);
	ck_assert_int_gt(n, 0);
	ck_assert_double_eq(rl_modelops_comp_bytes(rows, n, &o, RL_IMPL_CACHE), 0);
	rl_impl_release(&im);
	free(rows);
}
END_TEST

START_TEST(test_find)
{
	struct rl_impl im;
	struct rl_err e;
	char ids[128];

	ck_assert_int_eq(rl_impl_ids(RL_TEST_HWDB, ids, sizeof(ids), &e), 3);
	ck_assert_str_eq(ids, "fused, hf or compiled");
	ck_assert_int_eq(rl_impl_find(RL_TEST_HWDB, "nosuch", &im, &e), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(e.msg, "expected fused, hf or compiled"));
	/* hf's runtime is the fitted file beside it */
	ck_assert_int_eq(rl_impl_find(RL_TEST_HWDB, "hf:logits=last", &im, &e), 0);
	ck_assert_ptr_nonnull(strstr(im.runtime, "hwdb/fitted/hf.runtime"));
	ck_assert_int_eq(im.choice[0].chosen, 1);
	ck_assert_int_eq(im.autograd, 1);
	rl_impl_release(&im);
	/* the default needs no directory */
	ck_assert_int_eq(rl_impl_find("/nonexistent", "fused", &im, &e), 0);
	ck_assert_str_eq(im.id, "fused");
	ck_assert_uint_eq(im.nk, 0);
	rl_impl_release(&im);
}
END_TEST

Suite *suite_impl(void)
{
	Suite *s = suite_create("impl");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_load);
	tcase_add_test(tc, test_applies);
	tcase_add_test(tc, test_bad);
	tcase_add_test(tc, test_bind);
	tcase_add_test(tc, test_hf_rows);
	tcase_add_test(tc, test_find);
	suite_add_tcase(s, tc);
	return s;
}
