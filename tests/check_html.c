/* check_html.c - the html page's pieces (html.h): text escaped whatever it
 * holds, a text block kept line by line, a list made of lines, and a page
 * whose every element closes; and the cell text the op table shares with
 * csv (column.h). The whole pages are checked by tests/cli_html.sh. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "column.h"
#include "html.h"

/* What F wrote, as a string (owned by the caller). */
static char *written(void (*f)(FILE *, const char *, size_t), const char *in, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);

	ck_assert_ptr_nonnull(out);
	f(out, in, len);
	fclose(out);
	return buf;
}

static void text3(FILE *out, const char *s, size_t len)
{
	(void)len;
	rl_html_text(out, s);
}

static const struct {
	const char *in, *want;
} text_cases[] = {
    {"plain", "plain"},
    {"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
    {"a & b \"c\" 'd'", "a &amp; b &quot;c&quot; &apos;d&apos;"},
    /* control characters become blanks, a broken UTF-8 byte U+FFFD */
    {"tab\there\x01", "tab here "},
    {"\xc3\xbc ok", "\xc3\xbc ok"},
    {"bad \xff byte", "bad \xef\xbf\xbd byte"},
    /* a C1 control (U+0085) and noncharacters (U+FDD0, U+1FFFF): parse
     * errors in HTML */
    {"c1\xc2\x85.\xef\xb7\x90.\xf0\x9f\xbf\xbf", "c1 .\xef\xbf\xbd.\xef\xbf\xbd"},
};

START_TEST(test_text)
{
	char *got = written(text3, text_cases[_i].in, 0);

	ck_assert_str_eq(got, text_cases[_i].want);
	free(got);
}
END_TEST

/* A block longer than the writer's pieces (512 bytes), with a two-byte
 * character across the boundary: every line kept, nothing split. */
START_TEST(test_pre)
{
	char in[1200], want[1400];
	char *got;
	size_t i, n = 0, w = 0;

	for (i = 0; i < 511; i++)
		in[n++] = 'a';
	memcpy(in + n, "\xc3\xbc<\n", 4); /* u-umlaut at bytes 511-512 */
	n += 4;
	memcpy(in + n, "line 2 & more\n\nlast", 19);
	n += 19;
	in[n] = '\0';
	w += (size_t)sprintf(want, "<pre>");
	for (i = 0; i < 511; i++)
		want[w++] = 'a';
	w += (size_t)sprintf(want + w, "\xc3\xbc&lt;\nline 2 &amp; more\n\nlast</pre>\n");
	got = written(rl_html_pre, in, n);
	ck_assert_str_eq(got, want);
	free(got);
}
END_TEST

/* Lines as list items: leading blanks and dashes dropped, blank lines
 * skipped, the last line kept without its newline. */
START_TEST(test_lines)
{
	static const char in[] = "- knee: none\n\n  memory: fits <1 GiB>\nlast";
	char *got = written(rl_html_lines, in, sizeof(in) - 1);

	ck_assert_str_eq(got, "<ul class=\"lines\">\n<li>knee: none</li>\n"
	                      "<li>memory: fits &lt;1 GiB&gt;</li>\n<li>last</li>\n</ul>\n");
	free(got);
}
END_TEST

/* A page: one html, head and body, every section opened closed, the
 * header's list and main in order. */
START_TEST(test_page)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);
	const char *head, *body, *main_at, *end;

	ck_assert_ptr_nonnull(out);
	rl_html_begin(out, "a <title>", "#x{color:red}\n", "A & B");
	rl_html_meta(out, "device", "H200 <sxm>");
	rl_html_meta(out, "none", NULL);
	rl_html_main(out);
	rl_html_card(out, "time", "1.5 us", NULL);
	ck_assert_int_eq(rl_html_end(out), 0);
	fclose(out);
	ck_assert(strncmp(buf, "<!DOCTYPE html>\n<html lang=\"en\">", 32) == 0);
	ck_assert_ptr_nonnull(strstr(buf, "<title>a &lt;title&gt;</title>"));
	ck_assert_ptr_nonnull(strstr(buf, "#x{color:red}\n</style>"));
	ck_assert_ptr_nonnull(strstr(buf, "<h1>A &amp; B</h1>"));
	ck_assert_ptr_nonnull(strstr(buf, "<dt>device</dt><dd>H200 &lt;sxm&gt;</dd>"));
	ck_assert_ptr_null(strstr(buf, "<dt>none</dt>"));
	head = strstr(buf, "</head>");
	body = strstr(buf, "<body>");
	main_at = strstr(buf, "</header>\n<main>");
	end = strstr(buf, "</main>\n<script>");
	ck_assert(head != NULL && body > head && main_at > body && end > main_at);
	ck_assert_ptr_nonnull(strstr(buf, "</script>\n</body>\n</html>\n"));
	/* nothing is fetched: the only address is the SVG namespace */
	ck_assert_ptr_null(strstr(buf, "https://"));
	ck_assert_ptr_null(strstr(buf, " src="));
	free(buf);
}
END_TEST

/* The op table's cells are csv's: a number as %.6g (integers in full), a
 * bool 1/0, no value NULL. */
START_TEST(test_cell_text)
{
	struct rl_op op;
	struct rl_pred p;
	struct rl_col_row row = {&op, &p, 0, 0};
	char buf[32];

	memset(&op, 0, sizeof(op));
	memset(&p, 0, sizeof(p));
	op.name = "q_proj";
	op.count = 32;
	p.t_us = 12.3456789;
	p.l2_resident = 1;
	ck_assert_str_eq(rl_column_text(&rl_columns[RL_COL_NAME], &row, buf), "q_proj");
	ck_assert_str_eq(rl_column_text(&rl_columns[RL_COL_OP_COUNT], &row, buf), "32");
	ck_assert_str_eq(rl_column_text(&rl_columns[RL_COL_T], &row, buf), "12.3457");
	ck_assert_str_eq(rl_column_text(&rl_columns[RL_COL_L2_RESIDENT], &row, buf), "1");
	/* no measured time: csv's empty cell */
	ck_assert_ptr_null(rl_column_text(&rl_columns[RL_COL_MEASURED], &row, buf));
}
END_TEST

Suite *suite_html(void)
{
	Suite *s = suite_create("html");
	TCase *tc = tcase_create("html");

	tcase_add_loop_test(tc, test_text, 0, ARRAY_SIZE(text_cases));
	tcase_add_test(tc, test_pre);
	tcase_add_test(tc, test_lines);
	tcase_add_test(tc, test_page);
	tcase_add_test(tc, test_cell_text);
	suite_add_tcase(s, tc);
	return s;
}
