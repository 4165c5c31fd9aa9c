/* check_err.c - the error record's helpers: escaping data bytes before a
 * message reaches a terminal (rl_err_escape). */
#include "config.h"

#include <string.h>

#include "check.h"
#include "err.h"

/* Each input and its escaped form, written out by hand from RFC 3629's
 * table of valid sequences and ECMA-48's control codes. */
static const struct {
	const char *in, *want;
} esc_cases[] = {
    {"", ""},
    {"unknown key 'tflops'", "unknown key 'tflops'"},
    /* C0 controls and DEL: the "clear screen" of the issue */
    {"'\x01\x02\x1b[2J'", "'\\x01\\x02\\x1b[2J'"},
    {"a\nb\tc\rd", "a\\x0ab\\x09c\\x0dd"},
    {"\x7f", "\\x7f"},
    /* a backslash is text */
    {"C:\\dir", "C:\\dir"},
    /* valid UTF-8 stays: e acute, micro sign (U+00B5, after C1), euro, an emoji */
    {"caf\xc3\xa9 \xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80",
     "caf\xc3\xa9 \xc2\xb5s \xe2\x82\xac \xf0\x9f\x98\x80"},
    /* C1 controls: CSI as a lone byte (not UTF-8) and as U+009B in UTF-8 */
    {"\x9b" "2J", "\\x9b" "2J"},
    {"\xc2\x9b" "2J", "\\xc2\\x9b" "2J"},
    {"\xc2\x80", "\\xc2\\x80"},
    /* overlong '/', a surrogate, past U+10FFFF, 0xff */
    {"\xc0\xaf", "\\xc0\\xaf"},
    {"\xe0\x80\xaf", "\\xe0\\x80\\xaf"},
    {"\xed\xa0\x80", "\\xed\\xa0\\x80"},
    {"\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"},
    {"\xff", "\\xff"},
    /* cut sequences: at the end, and before an ASCII byte */
    {"\xe2\x82", "\\xe2\\x82"},
    {"\xe2\x82" "A", "\\xe2\\x82" "A"},
};

START_TEST(test_escape)
{
	char buf[128];
	size_t n = rl_err_escape(buf, sizeof(buf), esc_cases[_i].in);

	ck_assert_str_eq(buf, esc_cases[_i].want);
	ck_assert_uint_eq(n, strlen(esc_cases[_i].want));
	ck_assert_uint_eq(rl_err_escape(NULL, 0, esc_cases[_i].in), n);
}
END_TEST

/* A short buffer takes whole characters and escapes only, and the length
 * returned is the whole text's ("ab" + "\x01" + "cd" = 8). */
START_TEST(test_escape_cut)
{
	char buf[8];

	ck_assert_uint_eq(rl_err_escape(buf, 6, "ab\x01" "cd"), 8);
	ck_assert_str_eq(buf, "ab");
	ck_assert_uint_eq(rl_err_escape(buf, 7, "ab\x01" "cd"), 8);
	ck_assert_str_eq(buf, "ab\\x01");
	ck_assert_uint_eq(rl_err_escape(buf, 8, "ab\x01" "cd"), 8);
	ck_assert_str_eq(buf, "ab\\x01c");
	ck_assert_uint_eq(rl_err_escape(buf, 2, "\xc3\xa9"), 2);
	ck_assert_str_eq(buf, "");
	ck_assert_uint_eq(rl_err_escape(buf, 1, "x"), 1);
	ck_assert_str_eq(buf, "");
}
END_TEST

Suite *suite_err(void)
{
	Suite *s = suite_create("err");
	TCase *tc = tcase_create("escape");

	tcase_add_loop_test(tc, test_escape, 0, ARRAY_SIZE(esc_cases));
	tcase_add_test(tc, test_escape_cut);
	suite_add_tcase(s, tc);
	return s;
}
