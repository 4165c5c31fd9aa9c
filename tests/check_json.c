/* check_json.c - the JSON helpers: rl_json_parse's nesting cap, counted by
 * a scan that must skip brackets inside strings; numbers that are not
 * finite written as null. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "json.h"

/* N arrays around "1", as TEXT spells it: "[[1]]" for 2. */
static char *nested(size_t n, const char *open, const char *close)
{
	size_t lo = strlen(open), lc = strlen(close), i;
	char *s = malloc(n * (lo + lc) + 2), *p = s;

	ck_assert_ptr_nonnull(s);
	for (i = 0; i < n; i++, p += lo)
		memcpy(p, open, lo);
	*p++ = '1';
	for (i = 0; i < n; i++, p += lc)
		memcpy(p, close, lc);
	*p = '\0';
	return s;
}

/* 64 levels parse; the 65th bracket, at column 65, is refused. */
START_TEST(test_depth_cap)
{
	struct rl_err err;
	char *s = nested(RL_JSON_MAX_DEPTH, "[", "]");
	yajl_val v = rl_json_parse(s, "a.json", &err);

	ck_assert_int_eq(RL_JSON_MAX_DEPTH, 64);
	ck_assert_ptr_nonnull(v);
	yajl_tree_free(v);
	free(s);
	s = nested(RL_JSON_MAX_DEPTH + 1, "[", "]");
	ck_assert_ptr_null(rl_json_parse(s, "a.json", &err));
	ck_assert_int_eq(err.code, RL_ERR_PARSE);
	ck_assert_str_eq(err.msg, "a.json:1:65: nesting deeper than 64 levels");
	free(s);
	/* objects count as arrays do: {"k": is 5 bytes, the 65th '{' at 321 */
	s = nested(65, "{\"k\":", "}");
	ck_assert_ptr_null(rl_json_parse(s, "b.json", &err));
	ck_assert_str_eq(err.msg, "b.json:1:321: nesting deeper than 64 levels");
	free(s);
}
END_TEST

/* 400,000 levels (the 800 KB that crashed yajl_tree_free): one
 * message at once, no tree built. */
START_TEST(test_depth_huge)
{
	struct rl_err err;
	char *s = nested(400000, "[", "]");

	ck_assert_ptr_null(rl_json_parse(s, "deep.json", &err));
	ck_assert_str_eq(err.msg, "deep.json:1:65: nesting deeper than 64 levels");
	free(s);
}
END_TEST

/* Brackets inside strings, escaped quotes among them, do not count; lines
 * and columns count from 1, the column in bytes. */
START_TEST(test_depth_strings)
{
	struct rl_err err;
	char *brackets = nested(100, "[", "{"), *s;
	size_t n = strlen(brackets) + 64;
	yajl_val v;

	s = malloc(n);
	ck_assert_ptr_nonnull(s);
	snprintf(s, n, "{\"a\\\"[\": \"\\\\\", \"b\": \"%s\"}", brackets);
	v = rl_json_parse(s, "s.json", &err);
	ck_assert_msg(v != NULL, "%s", err.msg);
	yajl_tree_free(v);
	free(s);
	free(brackets);
	/* 63 levels on line 1, then line 2: "  [[" puts the 65th at column 4 */
	s = malloc(256);
	ck_assert_ptr_nonnull(s);
	memset(s, '[', 63);
	strcpy(s + 63, "\n  [[1]]");
	ck_assert_ptr_null(rl_json_parse(s, "l.json", &err));
	ck_assert_str_eq(err.msg, "l.json:2:4: nesting deeper than 64 levels");
	free(s);
}
END_TEST

/* Malformed text: yajl's reason, its first line only. */
START_TEST(test_not_json)
{
	struct rl_err err;

	ck_assert_ptr_null(rl_json_parse("{\"a\": }", "x.json", &err));
	ck_assert_int_eq(err.code, RL_ERR_PARSE);
	ck_assert(strncmp(err.msg, "x.json: not JSON (", 18) == 0);
	ck_assert_ptr_null(strchr(err.msg, '\n'));
}
END_TEST

/* The writers never write inf or nan, which are not JSON: null instead. */
START_TEST(test_no_inf)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	const unsigned char *buf;
	size_t len;

	ck_assert_ptr_nonnull(g);
	yajl_gen_map_open(g);
	rl_json_k7(g, "a", HUGE_VAL);
	rl_json_k7(g, "b", NAN);
	rl_json_k7(g, "c", 1.5);
	rl_json_kn(g, "d", -HUGE_VAL);
	yajl_gen_map_close(g);
	ck_assert_int_eq(yajl_gen_get_buf(g, &buf, &len), yajl_gen_status_ok);
	ck_assert_str_eq((const char *)buf, "{\"a\":null,\"b\":null,\"c\":1.5,\"d\":null}");
	yajl_gen_free(g);
}
END_TEST

Suite *suite_json(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_depth_cap);
	tcase_add_test(tc, test_depth_huge);
	tcase_add_test(tc, test_depth_strings);
	tcase_add_test(tc, test_not_json);
	tcase_add_test(tc, test_no_inf);
	suite_add_tcase(s, tc);
	return s;
}
