/* fuzz_output.c - a command's outputs (outfile.h) on scenarios decoded from
 * the bytes, in a private directory: one to three outputs, each to a new
 * file, an existing one, a read-only one, a symbolic link, a dangling link,
 * a directory, a fifo with a reader (who may leave before the commit),
 * /dev/null, /dev/full, a pipe, a file behind a descriptor opened with or
 * without O_APPEND, a closed or read-only descriptor, or the path of the
 * first output again; maybe an input that is one of them (by name, hard
 * link or symbolic link); data of some size written in chunks; then a
 * commit or a drop, or, in a child, a terminating signal mid-write.
 *
 * The harness knows what must happen and aborts when it does not: open
 * refuses exactly the scenarios it must (a target that cannot be written,
 * an output that is an input or another output); the commit fails exactly
 * when a stream cannot take its bytes; after a commit every target holds
 * its data (a file: exactly it; a descriptor: at its offset or appended; a
 * pipe or fifo: exactly it), after a failure or a drop every file holds
 * what it held before and every stream not yet delivered got nothing; a
 * signal kills the child with no file changed; never a *.tmp.* file left
 * in the directory, never a descriptor left open. */
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

#include "fuzz.h"
#include "outfile.h"

enum kind {
	K_NEW,
	K_EXISTING,
	K_READ_ONLY,
	K_SYMLINK,
	K_DANGLING,
	K_DIRECTORY,
	K_FIFO,      /* a reader that stays */
	K_FIFO_GONE, /* a reader that leaves before the commit */
	K_DEV_NULL,
	K_DEV_FULL,
	K_PIPE_FD,   /* /dev/fd/N of a pipe's write end */
	K_APPEND_FD, /* /proc/self/fd/N of a file opened with O_APPEND */
	K_OFFSET_FD, /* /dev/fd/N of a file opened without, at an offset */
	K_CLOSED_FD,
	K_READ_FD,   /* a descriptor open for reading only */
	K_SAME,      /* the path of output 0 again */
	K_COUNT
};

#define MAX_OUT 3
#define MAX_DATA 12288 /* three to one fifo stay within a pipe's 64 KiB */

struct out {
	enum kind kind, as;     /* as: what it writes to (K_SAME: output 0's kind) */
	char path[256];         /* given to rl_outfiles_add */
	char file[256];         /* the regular file that holds the bytes, if any */
	char old[64];           /* what that file held before */
	size_t old_len, off;    /* K_OFFSET_FD: where the descriptor stood */
	unsigned char data[MAX_DATA];
	size_t len, chunk;
	int fd;                 /* a descriptor the harness holds: the pipe's or
	                         * fifo's read end, a file's descriptor */
	int wfd;                /* the pipe's write end */
	int stream;             /* delivered in phase 2 */
	int owner;              /* index of the output whose target this is */
};

static char dir[64];

/* The bytes, read one at a time; zeros past the end. */
struct input {
	const uint8_t *p;
	size_t n, i;
};

static unsigned byte(struct input *in)
{
	return in->i < in->n ? in->p[in->i++] : 0;
}

static void put(const char *path, const char *text, size_t n, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);

	if (fd < 0 || write(fd, text, n) != (ssize_t)n || close(fd) != 0)
		abort();
	chmod(path, mode);
}

/* Whether PATH holds exactly the N bytes of WANT. */
static int holds(const char *path, const void *want, size_t n)
{
	char buf[MAX_DATA + 128];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got;

	if (fd < 0)
		return 0;
	got = read(fd, buf, sizeof(buf));
	close(fd);
	return got == (ssize_t)n && memcmp(buf, want, n) == 0;
}

/* What is waiting in the pipe or fifo FD (non-blocking): exactly WANT. */
static int drained(int fd, const void *want, size_t n)
{
	static char buf[MAX_OUT * MAX_DATA + 1];
	size_t have = 0;
	ssize_t got;

	while (have < sizeof(buf) && (got = read(fd, buf + have, sizeof(buf) - have)) > 0)
		have += (size_t)got;
	return have == n && memcmp(buf, want, n) == 0;
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		abort();
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the directory's own */
}

/* Entries of DIR named *.tmp.*; with CLEAN, every entry removed. */
static int sweep(int clean)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];
	int tmp = 0;

	if (d == NULL)
		abort();
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		tmp += strstr(e->d_name, ".tmp.") != NULL;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (clean && unlink(path) != 0)
			rmdir(path);
	}
	closedir(d);
	return tmp;
}

static void fail(const char *what, size_t i)
{
	fprintf(stderr, "fuzz_output: %s (output %zu)\n", what, i);
	abort();
}

/* Sets up output I of kind K (and what it points to) in DIR. */
static void setup(struct out *o, size_t i, enum kind k, struct out *first, struct input *in)
{
	size_t j;

	o->kind = o->as = k;
	o->fd = o->wfd = -1;
	o->owner = (int)i;
	o->old_len = byte(in) % sizeof(o->old);
	for (j = 0; j < o->old_len; j++)
		o->old[j] = (char)('a' + (j + i) % 26);
	snprintf(o->path, sizeof(o->path), "%s/o%zu", dir, i);
	snprintf(o->file, sizeof(o->file), "%s/o%zu", dir, i);
	switch (k) {
	case K_NEW: break;
	case K_EXISTING: put(o->file, o->old, o->old_len, 0640); break;
	case K_READ_ONLY: put(o->file, o->old, o->old_len, 0444); break;
	case K_SYMLINK:
		snprintf(o->file, sizeof(o->file), "%s/r%zu", dir, i);
		put(o->file, o->old, o->old_len, 0644);
		if (symlink(o->file, o->path) != 0)
			abort();
		break;
	case K_DANGLING:
		if (symlink("missing/x", o->path) != 0)
			abort();
		break;
	case K_DIRECTORY:
		if (mkdir(o->path, 0755) != 0)
			abort();
		break;
	case K_FIFO:
	case K_FIFO_GONE:
		if (mkfifo(o->path, 0644) != 0 ||
		    (o->fd = open(o->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
			abort();
		break;
	case K_DEV_NULL: snprintf(o->path, sizeof(o->path), "/dev/null"); break;
	case K_DEV_FULL: snprintf(o->path, sizeof(o->path), "/dev/full"); break;
	case K_PIPE_FD: {
		int p[2];

		if (pipe(p) != 0 || fcntl(p[0], F_SETFL, O_NONBLOCK) != 0)
			abort();
		o->fd = p[0];
		o->wfd = p[1];
		snprintf(o->path, sizeof(o->path), "/dev/fd/%d", p[1]);
		break;
	}
	case K_APPEND_FD:
	case K_OFFSET_FD:
		snprintf(o->file, sizeof(o->file), "%s/a%zu", dir, i);
		put(o->file, o->old, o->old_len, 0644);
		o->fd = open(o->file, O_WRONLY | O_CLOEXEC | (k == K_APPEND_FD ? O_APPEND : 0));
		if (o->fd < 0)
			abort();
		if (k == K_OFFSET_FD) {
			o->off = byte(in) % (o->old_len + 1);
			if (lseek(o->fd, (off_t)o->off, SEEK_SET) != (off_t)o->off)
				abort();
		}
		snprintf(o->path, sizeof(o->path), "%s/%d",
		         k == K_APPEND_FD ? "/proc/self/fd" : "/dev/fd", o->fd);
		break;
	case K_CLOSED_FD: snprintf(o->path, sizeof(o->path), "/dev/fd/%d", 1000 + (int)i); break;
	case K_READ_FD:
		if ((o->fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0)
			abort();
		snprintf(o->path, sizeof(o->path), "/dev/fd/%d", o->fd);
		break;
	case K_SAME:
		/* output 0's target, seen through its path */
		snprintf(o->path, sizeof(o->path), "%s", first->path);
		o->as = first->kind;
		o->owner = 0;
		break;
	case K_COUNT: abort();
	}
	o->stream = o->as == K_FIFO || o->as == K_FIFO_GONE || o->as == K_DEV_NULL ||
	            o->as == K_DEV_FULL || o->as == K_PIPE_FD || o->as == K_APPEND_FD ||
	            o->as == K_OFFSET_FD;
}

/* Whether a target of kind K makes rl_outfiles_open fail as it probes. */
static int unwritable(enum kind k)
{
	return k == K_READ_ONLY || k == K_DANGLING || k == K_DIRECTORY || k == K_CLOSED_FD ||
	       k == K_READ_FD;
}

/* Whether two outputs to one target of kind K are refused: a file, or one
 * descriptor; devices and fifos take several. */
static int exclusive(enum kind k)
{
	return k == K_NEW || k == K_EXISTING || k == K_SYMLINK || k == K_PIPE_FD ||
	       k == K_APPEND_FD || k == K_OFFSET_FD;
}

/* A regular file that exists, and so has an inode an input can share. */
static int has_file(enum kind k)
{
	return k == K_EXISTING || k == K_SYMLINK || k == K_APPEND_FD || k == K_OFFSET_FD;
}

/* Opens S (*OPENED says whether it did), writes each output's data, and
 * (COMMIT) commits; returns the status of the step that failed, or 0. In a
 * child, SIG (not 0) ends the process half-way through the data. */
static int run(struct rl_outfiles *s, struct out *outs, size_t n, int commit, int sig,
               int *opened)
{
	static const char *const what[MAX_OUT] = {"-o", "--svg", "--record"};
	struct rl_outfile *f[MAX_OUT];
	struct rl_err err;
	size_t i, done;
	int rc;

	for (i = 0; i < n; i++)
		f[i] = rl_outfiles_add(s, what[i], outs[i].path);
	rc = rl_outfiles_open(s, &err);
	*opened = rc == 0;
	if (rc < 0)
		return rc;
	for (i = 0; i < n; i++)
		for (done = 0; done < outs[i].len; done += outs[i].chunk) {
			size_t k = outs[i].len - done < outs[i].chunk ? outs[i].len - done
			                                                : outs[i].chunk;

			if (sig != 0 && i == n - 1 && done >= outs[i].len / 2) {
				fflush(f[i]->f);
				raise(sig);
				_exit(3); /* not reached */
			}
			fwrite(outs[i].data + done, 1, k, f[i]->f);
		}
	if (sig != 0)
		raise(sig);
	/* the reader of a fifo that goes away before the commit */
	for (i = 0; i < n; i++)
		if (outs[i].kind == K_FIFO_GONE && outs[i].fd >= 0) {
			close(outs[i].fd);
			outs[i].fd = -1;
		}
	if (!commit)
		return 0;
	return rl_outfiles_commit(s, &err);
}

static const int signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGUSR1, SIGSEGV,
	SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGSYS,
#ifdef SIGIO
	SIGIO,
#endif
#ifdef SIGPWR
	SIGPWR,
#endif
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct out outs[MAX_OUT];
	struct input in = {data, size, 0};
	struct rl_outfiles s;
	unsigned flags = byte(&in);
	size_t n = 1 + flags % MAX_OUT, i, j, upto;
	int commit = (flags >> 2) & 1, has_input = (flags >> 3) & 1;
	int in_child = flags >> 4 == 15; /* rare: a fork costs ten runs or more */
	int fds = open_fds(), expect_open = 0, expect_commit = 0, first_bad = -1, rc, opened;
	char input[256];
	unsigned input_how;

	if (dir[0] == '\0') {
		snprintf(dir, sizeof(dir), "/dev/shm/fuzz-output.XXXXXX");
		if (access("/dev/shm", W_OK) != 0)
			snprintf(dir, sizeof(dir), "/tmp/fuzz-output.XXXXXX");
		if (mkdtemp(dir) == NULL)
			abort();
		/* a reader that leaves: EPIPE, as a command under nohup would see */
		signal(SIGPIPE, SIG_IGN);
	}
	memset(outs, 0, sizeof(outs));
	for (i = 0; i < n; i++) {
		enum kind k = (enum kind)(byte(&in) % K_COUNT);

		if (k == K_SAME && i == 0)
			k = K_NEW;
		setup(&outs[i], i, k, &outs[0], &in);
		outs[i].len = ((byte(&in) << 8) | byte(&in)) % (MAX_DATA + 1);
		outs[i].chunk = 1 + ((byte(&in) << 4) | (byte(&in) & 15)) % 4096;
		for (j = 0; j < outs[i].len; j++)
			outs[i].data[j] = (unsigned char)(j * 7 + i * 131 + (j >> 8));
	}
	/* the input: output K's path, a hard link to its file, a symbolic link
	 * to it, or a file of its own */
	if (has_input) {
		size_t k = byte(&in) % n;

		input_how = byte(&in) % 4;
		snprintf(input, sizeof(input), "%s/in", dir);
		if (input_how == 0) {
			snprintf(input, sizeof(input), "%s", outs[k].path);
		} else if (input_how == 1 && has_file(outs[k].as)) {
			if (link(outs[outs[k].owner].file, input) != 0)
				abort();
		} else if (input_how == 2) {
			if (symlink(outs[k].path, input) != 0)
				abort();
		} else {
			put(input, "input", 5, 0644);
		}
		/* the same: the same name for a file, or the same regular file */
		if ((input_how == 0 && (outs[k].as == K_NEW || has_file(outs[k].as))) ||
		    (input_how == 1 && has_file(outs[k].as)) ||
		    (input_how == 2 && has_file(outs[k].as)))
			expect_open = RL_ERR_ARG;
	}
	for (i = 0; i < n; i++)
		if (outs[i].kind == K_SAME && exclusive(outs[i].as))
			expect_open = RL_ERR_ARG;
	/* the library probes every output before it compares them */
	for (i = 0; i < n; i++)
		if (unwritable(outs[i].as))
			expect_open = RL_ERR_IO;
	/* which stream refuses its bytes first, at the commit */
	for (i = 0; i < n && first_bad < 0; i++)
		if ((outs[i].as == K_DEV_FULL || outs[i].as == K_FIFO_GONE) && outs[i].len > 0)
			first_bad = (int)i;
	expect_commit = first_bad >= 0 ? RL_ERR_IO : 0;

	rl_outfiles_init(&s);
	if (has_input)
		rl_outfiles_input(&s, "the input", input);
	if (in_child) {
		int sig = signals[byte(&in) % (sizeof(signals) / sizeof(signals[0]))], st;
		pid_t pid = fork();

		if (pid < 0)
			abort();
		if (pid == 0) {
			struct rlimit no_core = {0, 0};

			setrlimit(RLIMIT_CORE, &no_core);
			signal(sig, SIG_DFL);
			rc = run(&s, outs, n, 1, sig, &opened);
			_exit(rc == expect_open ? 0 : 1);
		}
		/* libFuzzer's SIGALRM (its -timeout) interrupts the wait */
		while (waitpid(pid, &st, 0) != pid)
			if (errno != EINTR)
				abort();
		if (expect_open != 0 ? !(WIFEXITED(st) && WEXITSTATUS(st) == 0)
		                     : !(WIFSIGNALED(st) && WTERMSIG(st) == sig))
			fail("the child did not end as it should", 0);
		rc = RL_ERR_IO; /* killed: nothing delivered */
		upto = 0;
	} else {
		rc = run(&s, outs, n, commit, 0, &opened);
		if ((opened ? 0 : rc) != expect_open)
			fail("open: not the status expected", 0);
		if (opened && commit && rc != expect_commit)
			fail("commit: not the status expected", 0);
		if (opened && !commit)
			rc = RL_ERR_IO; /* dropped: nothing delivered */
		/* the streams before the first that failed got their bytes */
		upto = rc == 0 ? n : opened && commit ? (size_t)first_bad : 0;
	}
	rl_outfiles_release(&s);

	/* every target as it must be */
	for (i = 0; i < n; i++) {
		struct out *o = &outs[i];
		int delivered = o->stream && i < upto;

		if (o->kind == K_SAME)
			continue; /* checked with its owner, output 0 */
		switch (o->kind) {
		case K_NEW:
			if (rc == 0 ? !holds(o->file, o->data, o->len) : access(o->file, F_OK) == 0)
				fail("a new file", i);
			break;
		case K_EXISTING:
		case K_SYMLINK:
		case K_READ_ONLY: {
			struct stat st;

			if (rc == 0 ? !holds(o->file, o->data, o->len)
			            : !holds(o->file, o->old, o->old_len))
				fail("a file", i);
			/* a replaced file keeps its mode; a link stays a link */
			if (o->kind == K_EXISTING &&
			    (stat(o->file, &st) != 0 || (st.st_mode & 07777) != 0640))
				fail("a file's mode", i);
			if (o->kind == K_SYMLINK &&
			    (lstat(o->path, &st) != 0 || !S_ISLNK(st.st_mode)))
				fail("a symbolic link", i);
			break;
		}
		case K_APPEND_FD:
		case K_OFFSET_FD: {
			char want[sizeof(o->old) + MAX_DATA];
			size_t at = o->kind == K_APPEND_FD ? o->old_len : o->off, len = o->old_len;

			memcpy(want, o->old, o->old_len);
			if (delivered) {
				memcpy(want + at, o->data, o->len);
				len = at + o->len > len ? at + o->len : len;
			}
			if (!holds(o->file, want, len))
				fail("a file behind a descriptor", i);
			break;
		}
		case K_PIPE_FD:
		case K_FIFO: {
			static unsigned char want[MAX_OUT * MAX_DATA];
			size_t len = 0;

			/* a fifo takes every output to its path, in order */
			for (j = 0; j < n; j++)
				if (outs[j].owner == (int)i &&
				    j < upto) {
					memcpy(want + len, outs[j].data, outs[j].len);
					len += outs[j].len;
				}
			if (!drained(o->fd, want, len))
				fail("a pipe or fifo", i);
			break;
		}
		default: break;
		}
	}
	if (sweep(0) != 0)
		fail("a temporary file left", 0);
	for (i = 0; i < n; i++) {
		if (outs[i].fd >= 0)
			close(outs[i].fd);
		if (outs[i].wfd >= 0)
			close(outs[i].wfd);
	}
	if (open_fds() != fds)
		fail("a descriptor left open", 0);
	sweep(1);
	return 0;
}
