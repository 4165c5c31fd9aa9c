/* check_outfile.c - a command's outputs (outfile.h): each kind of target
 * written as the shell would (a file replaced whole, a descriptor at its
 * offset or appended to, a device in place), refused where it must be
 * (read-only, a directory, an input, two outputs to one place, a closed
 * descriptor), committed together or not at all, and no temporary file
 * left by a failure, a write past the file size limit or a signal. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "outfile.h"

static char dir[64];

static void make_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/check-outfile.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

/* DIR/NAME */
static const char *at(const char *name)
{
	static char path[2][512];
	static int i;

	i = !i;
	snprintf(path[i], sizeof(path[i]), "%s/%s", dir, name);
	return path[i];
}

static void put(const char *name, const char *text, mode_t mode)
{
	FILE *f = fopen(at(name), "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(at(name), mode), 0);
}

/* The content of DIR/NAME (static), or "<none>". */
static const char *get(const char *name)
{
	static char buf[4096];
	FILE *f = fopen(at(name), "r");
	size_t n;

	if (f == NULL)
		return "<none>";
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Entries of DIR whose name holds ".tmp.": temporary files left over. */
static int temporaries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL)
		if (strstr(e->d_name, ".tmp.") != NULL)
			n++;
	closedir(d);
	return n;
}

static void remove_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			if (rmdir(at(e->d_name)) != 0)
				unlink(at(e->d_name));
		}
	closedir(d);
	rmdir(dir);
}

/* ---- one output to each kind of target ---- */

enum setup { NEW, EXISTING, READ_ONLY, SYMLINK, DANGLING, DIRECTORY, NO_DIR, DEV_NULL, DEV_FULL };

static const struct target_case {
	const char *what;
	enum setup setup;
	int commit;            /* 1: commit, 0: release without */
	int open_rc, commit_rc;
	const char *msg;       /* in the error, when one */
	const char *content;   /* of out.txt after (or the symlink's target) */
	mode_t mode;           /* of the file after, 0: not checked */
} target_cases[] = {
	{"a new file", NEW, 1, 0, 0, NULL, "new\n", 0},
	{"a file that exists keeps its mode", EXISTING, 1, 0, 0, NULL, "new\n", 0640},
	{"dropped: the old file stays", EXISTING, 0, 0, 0, NULL, "old\n", 0640},
	{"a read-only file is refused", READ_ONLY, 1, RL_ERR_IO, 0, "not writable (mode 0444)",
	 "old\n", 0444},
	{"a symbolic link: its file replaced", SYMLINK, 1, 0, 0, NULL, "new\n", 0},
	{"a dangling link", DANGLING, 1, RL_ERR_IO, 0, "a symbolic link to a missing file",
	 "<none>", 0},
	{"a directory", DIRECTORY, 1, RL_ERR_IO, 0, "Is a directory", NULL, 0},
	{"a missing directory", NO_DIR, 1, RL_ERR_IO, 0, "No such file or directory", NULL, 0},
	{"/dev/null", DEV_NULL, 1, 0, 0, NULL, NULL, 0},
	{"/dev/full", DEV_FULL, 1, 0, RL_ERR_IO, "cannot write '/dev/full': No space left", NULL,
	 0},
};

START_TEST(test_target)
{
	const struct target_case *c = &target_cases[_i];
	struct rl_outfiles s;
	struct rl_outfile *o;
	struct rl_err err;
	char path[512];
	struct stat st;
	int rc;

	make_dir();
	snprintf(path, sizeof(path), "%s", at("out.txt"));
	switch (c->setup) {
	case EXISTING: put("out.txt", "old\n", 0640); break;
	case READ_ONLY: put("out.txt", "old\n", 0444); break;
	case SYMLINK:
		put("real.txt", "old\n", 0644);
		ck_assert_int_eq(symlink("real.txt", at("out.txt")), 0);
		break;
	case DANGLING: ck_assert_int_eq(symlink("nowhere/x", at("out.txt")), 0); break;
	case DIRECTORY: ck_assert_int_eq(mkdir(at("out.txt"), 0755), 0); break;
	case NO_DIR: snprintf(path, sizeof(path), "%s", at("nodir/out.txt")); break;
	case DEV_NULL: snprintf(path, sizeof(path), "/dev/null"); break;
	case DEV_FULL: snprintf(path, sizeof(path), "/dev/full"); break;
	case NEW: break;
	}
	rl_outfiles_init(&s);
	o = rl_outfiles_add(&s, "-o", path);
	ck_assert_ptr_nonnull(o);
	rc = rl_outfiles_open(&s, &err);
	ck_assert_msg(rc == c->open_rc, "%s: open %d (%s)", c->what, rc, err.msg);
	if (rc == 0) {
		int device = c->setup == DEV_NULL || c->setup == DEV_FULL;

		ck_assert_int_ge(fputs("new\n", o->f), 0);
		/* a file's temporary beside it; a device's spool is unlinked */
		ck_assert_int_eq(temporaries(), device ? 0 : 1);
		rc = c->commit ? rl_outfiles_commit(&s, &err) : 0;
		ck_assert_msg(rc == c->commit_rc, "%s: commit %d (%s)", c->what, rc, err.msg);
	}
	rl_outfiles_release(&s);
	if (c->msg != NULL)
		ck_assert_msg(strstr(err.msg, c->msg) != NULL, "%s: '%s'", c->what, err.msg);
	if (c->content != NULL)
		ck_assert_str_eq(get(c->setup == SYMLINK ? "real.txt" : "out.txt"), c->content);
	if (c->setup == SYMLINK)
		ck_assert_int_eq(lstat(at("out.txt"), &st) == 0 && S_ISLNK(st.st_mode), 1);
	if (c->mode != 0) {
		ck_assert_int_eq(stat(at("out.txt"), &st), 0);
		ck_assert_uint_eq(st.st_mode & 07777, c->mode);
	}
	ck_assert_int_eq(temporaries(), 0);
	remove_dir();
}
END_TEST

/* ---- descriptors: written as the caller opened them ---- */

START_TEST(test_fd_append)
{
	struct rl_outfiles s;
	struct rl_outfile *o;
	struct rl_err err;
	struct stat before, after;
	char path[64];
	int fd;

	make_dir();
	put("log", "old\n", 0644);
	ck_assert_int_eq(stat(at("log"), &before), 0);
	fd = open(at("log"), O_WRONLY | O_APPEND); /* the shell's >> */
	ck_assert_int_ge(fd, 0);
	snprintf(path, sizeof(path), "/dev/fd/%d", fd);
	rl_outfiles_init(&s);
	o = rl_outfiles_add(&s, "-o", path);
	ck_assert_int_eq(rl_outfiles_open(&s, &err), 0);
	fputs("new\n", o->f);
	ck_assert_int_eq(rl_outfiles_commit(&s, &err), 0);
	rl_outfiles_release(&s);
	close(fd);
	ck_assert_str_eq(get("log"), "old\nnew\n");
	/* the same file, not one renamed over it */
	ck_assert_int_eq(stat(at("log"), &after), 0);
	ck_assert_uint_eq(after.st_ino, before.st_ino);
	remove_dir();
}
END_TEST

START_TEST(test_fd_offset)
{
	struct rl_outfiles s;
	struct rl_outfile *o;
	struct rl_err err;
	char path[64];
	int fd;

	make_dir();
	put("f", "0123456789", 0644);
	fd = open(at("f"), O_WRONLY); /* no O_TRUNC: the shell's 1<> */
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(lseek(fd, 4, SEEK_SET), 4);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rl_outfiles_init(&s);
	o = rl_outfiles_add(&s, "-o", path);
	ck_assert_int_eq(rl_outfiles_open(&s, &err), 0);
	fputs("ab", o->f);
	ck_assert_int_eq(rl_outfiles_commit(&s, &err), 0);
	rl_outfiles_release(&s);
	/* written at the offset, which moved on: nothing truncated */
	ck_assert_int_eq(lseek(fd, 0, SEEK_CUR), 6);
	close(fd);
	ck_assert_str_eq(get("f"), "0123ab6789");
	remove_dir();
}
END_TEST

START_TEST(test_fd_refused)
{
	struct rl_outfiles s;
	struct rl_err err;
	char path[64];
	int fd = open("/dev/null", O_RDONLY);

	ck_assert_int_ge(fd, 0);
	snprintf(path, sizeof(path), "/dev/fd/%d", fd);
	rl_outfiles_init(&s);
	rl_outfiles_add(&s, "--svg", path);
	ck_assert_int_eq(rl_outfiles_open(&s, &err), RL_ERR_IO);
	ck_assert_ptr_nonnull(strstr(err.msg, "is not open for writing"));
	ck_assert_ptr_nonnull(strstr(err.msg, "--svg '/dev/fd/"));
	rl_outfiles_release(&s);
	close(fd);
	/* now closed */
	rl_outfiles_init(&s);
	rl_outfiles_add(&s, "--svg", path);
	ck_assert_int_eq(rl_outfiles_open(&s, &err), RL_ERR_IO);
	ck_assert_msg(strstr(err.msg, "is closed") != NULL, "%s", err.msg);
	rl_outfiles_release(&s);
}
END_TEST

/* Runs FN in a child of its own (it changes the process: descriptors,
 * limits, signals) and returns its wait status. */
static int in_child(void (*fn)(int), int arg)
{
	struct rlimit no_core = {0, 0};
	pid_t pid = fork();
	int st;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		setrlimit(RLIMIT_CORE, &no_core);
		fn(arg);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return st;
}

#define CHILD_CHECK(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
			_exit(1); \
		} \
	} while (0)

static void closed_stdout(int unused)
{
	struct rl_outfiles s;
	struct rl_err err;
	int fd;

	(void)unused;
	close(1);
	rl_outfiles_guard_stdio();
	/* no file opened after takes descriptor 1 */
	fd = open("/dev/null", O_WRONLY);
	CHILD_CHECK(fd > 2);
	close(fd);
	CHILD_CHECK(rl_outfiles_stdout_ok(&err) == RL_ERR_IO);
	CHILD_CHECK(strcmp(err.msg, "standard output is closed") == 0);
	rl_outfiles_init(&s);
	rl_outfiles_add(&s, "-o", NULL);
	CHILD_CHECK(rl_outfiles_open(&s, &err) == RL_ERR_IO);
	CHILD_CHECK(strcmp(err.msg, "standard output is closed") == 0);
	rl_outfiles_release(&s);
	rl_outfiles_init(&s);
	rl_outfiles_add(&s, "-o", "/dev/stdout");
	CHILD_CHECK(rl_outfiles_open(&s, &err) == RL_ERR_IO);
	CHILD_CHECK(strcmp(err.msg, "-o '/dev/stdout': standard output is closed") == 0);
	rl_outfiles_release(&s);
	/* writing to it still fails, as on a closed descriptor */
	CHILD_CHECK(write(1, "x", 1) < 0);
}

START_TEST(test_stdout_closed)
{
	int st = in_child(closed_stdout, 0);

	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %d", st);
}
END_TEST

/* ---- refused before anything is written ---- */

static const struct place_case {
	const char *what;
	const char *in;           /* an input, relative to DIR; NULL: none */
	const char *out1, *out2;  /* relative to DIR unless starting with '/' or '-' */
	int rc;
	const char *msg;
} place_cases[] = {
	{"an output that is the input", "ops.csv", "ops.csv", NULL, RL_ERR_ARG,
	 "is also an input (the op list '"},
	{"... by another name", "ops.csv", "./ops.csv", NULL, RL_ERR_ARG, ", the same file"},
	{"... through a hard link", "ops.csv", "hard.csv", NULL, RL_ERR_ARG, ", the same file"},
	{"... through a symbolic link", "ops.csv", "soft.csv", NULL, RL_ERR_ARG, ", the same file"},
	{"an input that is not there yet, named alike", "gone.csv", "gone.csv", NULL, RL_ERR_ARG,
	 "is also an input"},
	{"another file", "ops.csv", "out.csv", NULL, 0, NULL},
	{"two outputs, one name", NULL, "x", "x", RL_ERR_ARG, "are the same file"},
	{"two outputs, one new file by two names", NULL, "x", "sub/../x", RL_ERR_ARG,
	 "are the same file"},
	{"two outputs, one existing file by a link", NULL, "ops.csv", "soft.csv", RL_ERR_ARG,
	 "are the same file"},
	{"two outputs to standard output", NULL, "-", "/dev/stdout", RL_ERR_ARG,
	 "both write to standard output"},
	{"two outputs to /dev/null", NULL, "/dev/null", "/dev/null", 0, NULL},
	{"two files", NULL, "x", "y", 0, NULL},
};

START_TEST(test_places)
{
	const struct place_case *c = &place_cases[_i];
	struct rl_outfiles s;
	struct rl_err err;
	char p1[512], p2[512], pin[512];
	int rc;

	make_dir();
	put("ops.csv", "name,kind\n", 0644);
	ck_assert_int_eq(link(at("ops.csv"), at("hard.csv")), 0);
	ck_assert_int_eq(symlink("ops.csv", at("soft.csv")), 0);
	ck_assert_int_eq(mkdir(at("sub"), 0755), 0);
	snprintf(p1, sizeof(p1), "%s",
	         c->out1[0] == '/' || c->out1[0] == '-' ? c->out1 : at(c->out1));
	rl_outfiles_init(&s);
	if (c->in != NULL) {
		snprintf(pin, sizeof(pin), "%s", at(c->in));
		rl_outfiles_input(&s, "the op list", pin);
	}
	rl_outfiles_input(&s, "the trace", "-"); /* standard input: not a path */
	rl_outfiles_add(&s, "-o", p1);
	if (c->out2 != NULL) {
		snprintf(p2, sizeof(p2), "%s",
		         c->out2[0] == '/' || c->out2[0] == '-' ? c->out2 : at(c->out2));
		rl_outfiles_add(&s, "--svg", p2);
	}
	rc = rl_outfiles_open(&s, &err);
	ck_assert_msg(rc == c->rc, "%s: %d (%s)", c->what, rc, err.msg);
	if (c->msg != NULL)
		ck_assert_msg(strstr(err.msg, c->msg) != NULL, "%s: '%s'", c->what, err.msg);
	rl_outfiles_release(&s);
	/* refused or dropped: nothing created, the input untouched */
	ck_assert_int_eq(temporaries(), 0);
	ck_assert_str_eq(get("ops.csv"), "name,kind\n");
	ck_assert_str_eq(get("x"), "<none>");
	remove_dir();
}
END_TEST

START_TEST(test_input_behind_descriptor)
{
	struct rl_outfiles s;
	struct rl_err err;
	char path[64];
	int fd;

	/* "classify ops.csv -o /dev/stdout >>ops.csv" */
	make_dir();
	put("ops.csv", "name,kind\n", 0644);
	fd = open(at("ops.csv"), O_WRONLY | O_APPEND);
	ck_assert_int_ge(fd, 0);
	snprintf(path, sizeof(path), "/dev/fd/%d", fd);
	rl_outfiles_init(&s);
	rl_outfiles_input(&s, "the op list", at("ops.csv"));
	rl_outfiles_add(&s, "-o", path);
	ck_assert_int_eq(rl_outfiles_open(&s, &err), RL_ERR_ARG);
	ck_assert_ptr_nonnull(strstr(err.msg, ", the same file"));
	rl_outfiles_release(&s);
	close(fd);
	ck_assert_str_eq(get("ops.csv"), "name,kind\n");
	remove_dir();
}
END_TEST

START_TEST(test_too_many)
{
	struct rl_outfiles s;
	struct rl_err err;
	int i;

	rl_outfiles_init(&s);
	for (i = 0; i < RL_OUTFILES_MAX; i++)
		ck_assert_ptr_nonnull(rl_outfiles_add(&s, "-o", "/dev/null"));
	ck_assert_ptr_null(rl_outfiles_add(&s, "-o", "/dev/null"));
	ck_assert_int_eq(rl_outfiles_open(&s, &err), RL_ERR_ARG);
	rl_outfiles_release(&s);
}
END_TEST

/* ---- committed together ---- */

START_TEST(test_together)
{
	struct rl_outfiles s;
	struct rl_outfile *a, *b;
	struct rl_err err;

	/* the table to a file, the chart to /dev/full: neither is delivered */
	make_dir();
	put("table", "old\n", 0644);
	rl_outfiles_init(&s);
	a = rl_outfiles_add(&s, "-o", at("table"));
	b = rl_outfiles_add(&s, "--svg", "/dev/full");
	ck_assert_int_eq(rl_outfiles_open(&s, &err), 0);
	fputs("new\n", a->f);
	fputs("<svg/>\n", b->f);
	ck_assert_int_eq(rl_outfiles_commit(&s, &err), RL_ERR_IO);
	ck_assert_ptr_nonnull(strstr(err.msg, "'/dev/full'"));
	rl_outfiles_release(&s);
	ck_assert_str_eq(get("table"), "old\n");
	ck_assert_int_eq(temporaries(), 0);
	/* both to files: both delivered */
	rl_outfiles_init(&s);
	a = rl_outfiles_add(&s, "-o", at("table"));
	b = rl_outfiles_add(&s, "--svg", at("chart"));
	ck_assert_int_eq(rl_outfiles_open(&s, &err), 0);
	fputs("new\n", a->f);
	fputs("<svg/>\n", b->f);
	ck_assert_int_eq(rl_outfiles_commit(&s, &err), 0);
	rl_outfiles_release(&s);
	ck_assert_str_eq(get("table"), "new\n");
	ck_assert_str_eq(get("chart"), "<svg/>\n");
	ck_assert_int_eq(temporaries(), 0);
	remove_dir();
}
END_TEST

START_TEST(test_stream_spooled)
{
	struct rl_outfiles s;
	struct rl_outfile *o;
	struct rl_err err;
	char path[64], buf[16];
	int p[2];
	ssize_t n;

	/* nothing reaches a pipe before the commit, all of it after */
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(fcntl(p[0], F_SETFL, O_NONBLOCK), 0);
	snprintf(path, sizeof(path), "/dev/fd/%d", p[1]);
	rl_outfiles_init(&s);
	o = rl_outfiles_add(&s, "-o", path);
	ck_assert_int_eq(rl_outfiles_open(&s, &err), 0);
	fputs("abc", o->f);
	fflush(o->f);
	ck_assert_int_eq(read(p[0], buf, sizeof(buf)), -1);
	ck_assert_int_eq(rl_outfiles_commit(&s, &err), 0);
	rl_outfiles_release(&s);
	n = read(p[0], buf, sizeof(buf));
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(memcmp(buf, "abc", 3), 0);
	close(p[0]);
	close(p[1]);
}
END_TEST

/* ---- the file size limit and signals ---- */

static void past_the_limit(int unused)
{
	struct rlimit lim = {100, 100};
	struct rl_outfiles s;
	struct rl_outfile *o;
	struct rl_err err;
	int i;

	(void)unused;
	signal(SIGXFSZ, SIG_DFL); /* as a shell leaves it */
	rl_outfiles_init(&s);
	o = rl_outfiles_add(&s, "-o", at("big"));
	CHILD_CHECK(rl_outfiles_open(&s, &err) == 0);
	CHILD_CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
	for (i = 0; i < 100; i++)
		fputs("0123456789\n", o->f);
	CHILD_CHECK(rl_outfiles_commit(&s, &err) == RL_ERR_IO);
	CHILD_CHECK(strstr(err.msg, "File too large") != NULL);
	CHILD_CHECK(strstr(err.msg, "ulimit -f") != NULL);
	rl_outfiles_release(&s);
}

START_TEST(test_file_size_limit)
{
	int st;

	make_dir();
	put("big", "old\n", 0644);
	st = in_child(past_the_limit, 0);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %d", st);
	ck_assert_str_eq(get("big"), "old\n");
	ck_assert_int_eq(temporaries(), 0);
	remove_dir();
}
END_TEST

static const int signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM,
	SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGSYS, SIGTRAP,
};

/* Opens an output over DIR/out, writes half of it, and is killed by SIG
 * (sent by itself, as another process would). */
static void killed_mid_write(int sig)
{
	struct rl_outfiles s;
	struct rl_outfile *o;
	struct rl_err err;

	signal(sig, SIG_DFL);
	rl_outfiles_init(&s);
	o = rl_outfiles_add(&s, "-o", at("out"));
	CHILD_CHECK(rl_outfiles_open(&s, &err) == 0);
	fputs("half of it", o->f);
	fflush(o->f);
	kill(getpid(), sig);
	/* SIGXFSZ from kill() by the process itself reads as the file size
	 * limit's: carried on; from another process it is not */
	if (sig == SIGXFSZ)
		raise(sig);
	_exit(3);
}

START_TEST(test_signal)
{
	int sig = signals[_i], st;

	make_dir();
	put("out", "old\n", 0644);
	st = in_child(killed_mid_write, sig);
	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == sig, "signal %d: status %d", sig, st);
	ck_assert_str_eq(get("out"), "old\n");
	ck_assert_int_eq(temporaries(), 0);
	remove_dir();
}
END_TEST

static void ignored(int sig)
{
	struct rl_outfiles s;
	struct rl_outfile *o;
	struct rl_err err;

	signal(sig, SIG_IGN); /* nohup */
	rl_outfiles_init(&s);
	o = rl_outfiles_add(&s, "-o", at("out"));
	CHILD_CHECK(rl_outfiles_open(&s, &err) == 0);
	fputs("new\n", o->f);
	raise(sig);
	CHILD_CHECK(rl_outfiles_commit(&s, &err) == 0);
	rl_outfiles_release(&s);
}

START_TEST(test_signal_ignored)
{
	int st;

	make_dir();
	put("out", "old\n", 0644);
	st = in_child(ignored, SIGHUP);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
	ck_assert_str_eq(get("out"), "new\n");
	ck_assert_int_eq(temporaries(), 0);
	remove_dir();
}
END_TEST

Suite *suite_outfile(void)
{
	Suite *s = suite_create("outfile");
	TCase *tc = tcase_create("outfile");

	tcase_add_loop_test(tc, test_target, 0, ARRAY_SIZE(target_cases));
	tcase_add_test(tc, test_fd_append);
	tcase_add_test(tc, test_fd_offset);
	tcase_add_test(tc, test_fd_refused);
	tcase_add_test(tc, test_stdout_closed);
	tcase_add_loop_test(tc, test_places, 0, ARRAY_SIZE(place_cases));
	tcase_add_test(tc, test_input_behind_descriptor);
	tcase_add_test(tc, test_too_many);
	tcase_add_test(tc, test_together);
	tcase_add_test(tc, test_stream_spooled);
	tcase_add_test(tc, test_file_size_limit);
	tcase_add_loop_test(tc, test_signal, 0, ARRAY_SIZE(signals));
	tcase_add_test(tc, test_signal_ignored);
	suite_add_tcase(s, tc);
	return s;
}
