/* check_kvfile.c - the "key = value ; source" line format of hwdb/ and the
 * attrs files (docs/hwdb-format.md): splitting, sources and their labels,
 * comments, the errors with their line numbers, what opens, and the writer.
 * Expected strings follow the format's rules as the page states them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "err.h"
#include "kvfile.h"

/* TEXT in a new temporary file; its name in PATH (size 64). */
static void tmpfile_with(char *path, const char *text)
{
	int fd;

	strcpy(path, "/tmp/check_kvfile.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

START_TEST(test_lines)
{
	char path[64], *key, *val, *src;
	struct rl_kvfile kv;
	struct rl_err err = {0};

	tmpfile_with(path, "# a comment\n"
	                   "\n"
	                   "source ds = H200 datasheet\n"
	                   "  name   =  NVIDIA H200  \n"
	                   "mem_gbs = 4800 ; ds: p. 2\n"
	                   "note = a;b ; wp\n"
	                   "l2 = 50 ; ds, measured\n");
	ck_assert_int_eq(rl_kv_open(&kv, path, &err), 0);
	/* blanks around key and value trimmed; no source */
	ck_assert_int_eq(rl_kv_next(&kv, &key, &val, &src, &err), 1);
	ck_assert_str_eq(key, "name");
	ck_assert_str_eq(val, "NVIDIA H200");
	ck_assert_ptr_null(src);
	ck_assert_uint_eq(kv.lineno, 4);
	/* the label "ds" expands before its ':' */
	ck_assert_int_eq(rl_kv_next(&kv, &key, &val, &src, &err), 1);
	ck_assert_str_eq(key, "mem_gbs");
	ck_assert_str_eq(val, "4800");
	ck_assert_str_eq(src, "H200 datasheet: p. 2");
	free(src);
	/* a ';' with no blank before it is part of the value; "wp" is no label */
	ck_assert_int_eq(rl_kv_next(&kv, &key, &val, &src, &err), 1);
	ck_assert_str_eq(val, "a;b");
	ck_assert_str_eq(src, "wp");
	free(src);
	/* a label alone at the start, before ',' */
	ck_assert_int_eq(rl_kv_next(&kv, &key, &val, &src, &err), 1);
	ck_assert_str_eq(src, "H200 datasheet, measured");
	free(src);
	ck_assert_int_eq(rl_kv_next(&kv, &key, &val, &src, &err), 0);
	rl_kv_close(&kv);
	unlink(path);
}
END_TEST

START_TEST(test_errors)
{
	char path[64], *key, *val, *src;
	struct rl_kvfile kv;
	struct rl_err err = {0};

	tmpfile_with(path, "a = 1\nno equals sign\n");
	ck_assert_int_eq(rl_kv_open(&kv, path, &err), 0);
	ck_assert_int_eq(rl_kv_next(&kv, &key, &val, &src, &err), 1);
	ck_assert_int_eq(rl_kv_next(&kv, &key, &val, &src, &err), RL_ERR_PARSE);
	/* PATH:LINE: first */
	ck_assert_ptr_nonnull(strstr(err.msg, ":2: expected 'key = value'"));
	ck_assert_int_eq(strncmp(err.msg, path, strlen(path)), 0);
	rl_kv_close(&kv);
	unlink(path);

	tmpfile_with(path, " = 3\n");
	ck_assert_int_eq(rl_kv_open(&kv, path, &err), 0);
	ck_assert_int_eq(rl_kv_next(&kv, &key, &val, &src, &err), RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, ":1: empty key"));
	rl_kv_close(&kv);
	unlink(path);

	/* a NUL byte: not a text file */
	tmpfile_with(path, "a = 1\n");
	{
		FILE *f = fopen(path, "a");

		fputc('b', f), fputc('\0', f), fputs(" = 2\n", f);
		fclose(f);
	}
	ck_assert_int_eq(rl_kv_open(&kv, path, &err), 0);
	ck_assert_int_eq(rl_kv_next(&kv, &key, &val, &src, &err), 1);
	ck_assert_int_eq(rl_kv_next(&kv, &key, &val, &src, &err), RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, ":2: NUL byte"));
	rl_kv_close(&kv);
	unlink(path);
}
END_TEST

START_TEST(test_open)
{
	struct rl_kvfile kv;
	struct rl_err err = {0};

	ck_assert_int_eq(rl_kv_open(&kv, "/nonexistent/x.device", &err), RL_ERR_IO);
	ck_assert_ptr_nonnull(strstr(err.msg, "cannot open '/nonexistent/x.device'"));
	rl_kv_close(&kv);
	/* a directory and a device node never end as a file: refused */
	ck_assert_int_eq(rl_kv_open(&kv, "/tmp", &err), RL_ERR_IO);
	ck_assert_ptr_nonnull(strstr(err.msg, "is a directory"));
	rl_kv_close(&kv);
	ck_assert_int_eq(rl_kv_open(&kv, "/dev/zero", &err), RL_ERR_IO);
	ck_assert_ptr_nonnull(strstr(err.msg, "not a regular file"));
	rl_kv_close(&kv);
}
END_TEST

START_TEST(test_scan_entry)
{
	char path[64], *dir, *p = NULL;
	struct rl_err err = {0};

	tmpfile_with(path, "a = 1\n");
	dir = strdup(path);
	*strrchr(dir, '/') = '\0';
	ck_assert_int_eq(rl_kv_scan_entry(dir, strrchr(path, '/') + 1, &p, &err), 1);
	ck_assert_str_eq(p, path);
	free(p);
	/* no such entry, a directory: skipped, *PATH NULL */
	ck_assert_int_eq(rl_kv_scan_entry(dir, "check_kvfile.none", &p, &err), 0);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(rl_kv_scan_entry("/", "tmp", &p, &err), 0);
	ck_assert_ptr_null(p);
	free(dir);
	unlink(path);
}
END_TEST

START_TEST(test_write)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	rl_kv_write_header(f, "line one\nline two");
	rl_kv_write_line(f, "mem_gbs", "4800", "ds: p. 2", 8, 5);
	rl_kv_write_line(f, "name", "H200", NULL, 8, 5);
	rl_kv_write_line(f, "skipped", NULL, "x", 8, 5);
	rl_kv_write_header(f, NULL);
	fclose(f);
	ck_assert_str_eq(buf, "# line one\n"
	                      "# line two\n"
	                      "\n"
	                      "mem_gbs  = 4800  ; ds: p. 2\n"
	                      "name     = H200\n");
	free(buf);
}
END_TEST

Suite *suite_kvfile(void)
{
	Suite *s = suite_create("kvfile");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_lines);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_open);
	tcase_add_test(tc, test_scan_entry);
	tcase_add_test(tc, test_write);
	suite_add_tcase(s, tc);
	return s;
}
