/* outfile.c - a command's outputs, written whole and together or not at all,
 * and the inputs they must not overwrite (outfile.h). */
#include "config.h"

#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { KIND_FILE = 1, KIND_STREAM = 2 };

/* A large stdio buffer: the output of a million-op list is over 100 MB. */
#define OUT_BUFFER (1 << 20)

/* ---- signals ----
 *
 * The temporary files not yet renamed, for the handler: fixed buffers, since
 * a handler may only call async-signal-safe functions (unlink, signal,
 * raise). A slot's path is written before it is marked set. */
#define PENDING_MAX 16
static char pending[PENDING_MAX][PATH_MAX];
static volatile sig_atomic_t pending_set[PENDING_MAX];

/* Standard descriptors that were closed at the start, one bit each
 * (rl_outfiles_guard_stdio). */
static int stdio_closed;

/* The signals whose default action ends the process, less KILL and STOP
 * (which cannot be caught) and the real-time ones (fatal_set adds SIGRTMIN
 * to SIGRTMAX). The first five come from an instruction that faulted:
 * blocking them is pointless. */
static const int fatal_signals[] = {
	SIGILL, SIGTRAP, SIGBUS, SIGFPE, SIGSEGV,
	SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM,
	SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGSYS,
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
#ifdef SIGIO
	SIGIO,
#elif defined(SIGPOLL)
	SIGPOLL,
#endif
#ifdef SIGPWR
	SIGPWR,
#endif
};
#define N_FATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))
#define N_SYNCHRONOUS 5
#ifndef NSIG
#define NSIG 65 /* Linux's */
#endif

/* The fatal signals into SET: all of them, or (ASYNC) those another
 * process or the kernel sends. */
static void fatal_set(sigset_t *set, int async)
{
	size_t i;
	int s;

	sigemptyset(set);
	for (i = async ? N_SYNCHRONOUS : 0; i < N_FATAL; i++)
		sigaddset(set, fatal_signals[i]);
#if defined(SIGRTMIN) && defined(SIGRTMAX)
	for (s = SIGRTMIN; s <= SIGRTMAX; s++)
		sigaddset(set, s);
#else
	(void)s;
#endif
}

static void on_fatal_signal(int sig, siginfo_t *si, void *ctx)
{
	int i, saved = errno;

	(void)ctx;
	/* The kernel sends SIGXFSZ for a write past the file size limit as if
	 * the process had sent it to itself (SI_USER, its own pid); the write
	 * fails with EFBIG, which the commit reports, so carry on. */
	if (sig == SIGXFSZ && si != NULL && si->si_code == SI_USER && si->si_pid == getpid()) {
		errno = saved;
		return;
	}
	for (i = 0; i < PENDING_MAX; i++)
		if (pending_set[i])
			unlink(pending[i]);
	/* die of it: blocked while we run, it is delivered when we return */
	signal(sig, SIG_DFL);
	raise(sig);
	errno = saved;
}

/* Installs the handler for every fatal signal whose action is the default
 * one now: a signal ignored (nohup) stays ignored, and one that a sanitizer
 * or the caller handles stays theirs. Checked at every open, so that the
 * handler follows what the caller set in between. */
static void install_handlers(void)
{
	struct sigaction sa, old;
	sigset_t all;
	int s;

	fatal_set(&all, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fatal_signal;
	sa.sa_flags = SA_SIGINFO;
	sa.sa_mask = all; /* no second handler inside the first */
	for (s = 1; s < NSIG; s++) {
		if (sigismember(&all, s) != 1 || sigaction(s, NULL, &old) != 0)
			continue;
		if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
			sigaction(s, &sa, NULL);
	}
}

/* Remembers PATH for the handler; returns its slot, or -1 when too long or
 * every slot is taken. Called with the signals blocked. */
static int pending_add(const char *path)
{
	int i;

	if (strlen(path) >= PATH_MAX)
		return -1;
	for (i = 0; i < PENDING_MAX; i++)
		if (!pending_set[i]) {
			strcpy(pending[i], path);
			pending_set[i] = 1;
			return i;
		}
	return -1;
}

static void pending_remove(int slot)
{
	if (slot >= 0 && slot < PENDING_MAX)
		pending_set[slot] = 0;
}

/* ---- standard descriptors ---- */

void rl_outfiles_guard_stdio(void)
{
	int fd, g;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		/* the lowest free descriptor: FD itself, as those below are open */
		g = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (g < 0)
			continue;
		if (g != fd) {
			dup2(g, fd);
			close(g);
		}
		stdio_closed |= 1 << fd;
	}
}

static const char *fd_name(int fd, char *buf, size_t n)
{
	static const char *const names[] = {"standard input", "standard output", "standard error"};

	if (fd >= 0 && fd <= 2)
		return names[fd];
	snprintf(buf, n, "descriptor %d", fd);
	return buf;
}

/* How O is named in messages: "standard output" (no path given), or
 * "-o 'PATH'". */
static const char *out_name(const struct rl_outfile *o, char *buf, size_t n)
{
	if (o->path == NULL)
		return "standard output";
	snprintf(buf, n, "%s '%s'", o->what, o->path);
	return buf;
}

/* Whether descriptor FD can take O's output: 0, or RL_ERR_IO. */
static int check_fd(const struct rl_outfile *o, int fd, struct rl_err *err)
{
	int fl = fcntl(fd, F_GETFL);
	int closed = fl < 0 || (fd <= 2 && (stdio_closed & (1 << fd)));
	char name[RL_ERR_MSG_MAX] = "", b[64];

	if (!closed && (fl & O_ACCMODE) != O_RDONLY)
		return 0;
	if (o->path != NULL && strcmp(o->path, "-") != 0)
		snprintf(name, sizeof(name), "%s '%s': ", o->what, o->path);
	return rl_err_set(err, RL_ERR_IO, "%s%s %s", name, fd_name(fd, b, sizeof(b)),
	                  closed ? "is closed" : "is not open for writing");
}

int rl_outfiles_stdout_ok(struct rl_err *err)
{
	struct rl_outfile o;

	memset(&o, 0, sizeof(o));
	return check_fd(&o, 1, err);
}

/* ---- declaring ---- */

void rl_outfiles_init(struct rl_outfiles *s)
{
	memset(s, 0, sizeof(*s));
}

void rl_outfiles_input(struct rl_outfiles *s, const char *what, const char *path)
{
	if (path == NULL || strcmp(path, "-") == 0)
		return;
	if (s->nin == RL_OUTFILES_INPUTS) {
		s->overflow = 1;
		return;
	}
	s->in[s->nin].what = what;
	s->in[s->nin].path = path;
	s->nin++;
}

struct rl_outfile *rl_outfiles_add(struct rl_outfiles *s, const char *what, const char *path)
{
	struct rl_outfile *o;

	if (s->n == RL_OUTFILES_MAX) {
		s->overflow = 1;
		return NULL;
	}
	o = &s->out[s->n++];
	memset(o, 0, sizeof(*o));
	o->what = what;
	o->path = path;
	o->std_fd = o->fd = o->wfd = o->slot = -1;
	return o;
}

/* ---- opening ---- */

/* The descriptor PATH names ("/dev/stdout", "/dev/fd/N",
 * "/proc/self/fd/N"), or -1. */
static int path_fd(const char *path)
{
	static const char *const std[] = {"/dev/stdin", "/dev/stdout", "/dev/stderr"};
	static const char *const dirs[] = {"/dev/fd/", "/proc/self/fd/"};
	size_t i, n;
	long v = 0;
	const char *p;

	for (i = 0; i < 3; i++)
		if (strcmp(path, std[i]) == 0)
			return (int)i;
	for (i = 0; i < 2; i++) {
		n = strlen(dirs[i]);
		if (strncmp(path, dirs[i], n) != 0 || path[n] == '\0')
			continue;
		for (p = path + n; *p >= '0' && *p <= '9' && v <= INT_MAX / 10; p++)
			v = v * 10 + (*p - '0');
		if (*p == '\0' && v <= INT_MAX)
			return (int)v;
	}
	return -1;
}

/* PATH with its directory's symbolic links resolved, and the file's own
 * when it EXISTS: the same name for the same place, so that two outputs
 * or an output and an input can be compared. malloc'ed; NULL when out of
 * memory. */
static char *canonical(const char *path, int exists)
{
	const char *slash = strrchr(path, '/'), *base;
	char *dir, *real, *out;
	size_t n;

	if (exists && (real = realpath(path, NULL)) != NULL)
		return real;
	if (slash == NULL) {
		dir = strdup(".");
		base = path;
	} else {
		n = slash == path ? 1 : (size_t)(slash - path);
		dir = strndup(path, n);
		base = slash + 1;
	}
	if (dir == NULL)
		return NULL;
	real = realpath(dir, NULL);
	free(dir);
	if (real == NULL) /* no such directory: the open will say so */
		return strdup(path);
	n = strlen(real) + strlen(base) + 2;
	out = malloc(n);
	if (out != NULL)
		snprintf(out, n, "%s%s%s", real, strcmp(real, "/") == 0 ? "" : "/", base);
	free(real);
	return out;
}

static void set_identity(struct rl_outfile *o, const struct stat *st)
{
	o->regular = S_ISREG(st->st_mode);
	o->st_dev = st->st_dev;
	o->st_ino = st->st_ino;
	o->st_mode = st->st_mode;
	o->st_uid = st->st_uid;
	o->st_gid = st->st_gid;
}

/* Finds what O's path names (outfile.h), without opening it. Returns 0 or
 * RL_ERR_IO (a closed descriptor, a directory, a read-only file, a
 * dangling link) or RL_ERR_NOMEM. */
static int probe(struct rl_outfile *o, struct rl_err *err)
{
	struct stat st, lst;
	int fd;

	if (o->path != NULL && *o->path == '\0')
		return rl_err_set(err, RL_ERR_IO, "%s: an empty file name", o->what);
	fd = o->path == NULL || strcmp(o->path, "-") == 0 ? 1 : path_fd(o->path);
	if (fd >= 0) {
		o->kind = KIND_STREAM;
		o->std_fd = fd;
		if (check_fd(o, fd, err) < 0)
			return RL_ERR_IO;
		if (fstat(fd, &st) == 0)
			set_identity(o, &st);
		return 0;
	}
	if (stat(o->path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return rl_err_set(err, RL_ERR_IO, "cannot write '%s': %s", o->path,
			                  strerror(EISDIR));
		set_identity(o, &st);
		if (!S_ISREG(st.st_mode)) { /* a device, a fifo, a socket */
			o->kind = KIND_STREAM;
			return 0;
		}
		o->exists = 1;
		if ((st.st_mode & 0222) == 0 || access(o->path, W_OK) != 0)
			return rl_err_set(err, RL_ERR_IO, "%s: not writable (mode %04o): make it "
			                  "writable or remove it first",
			                  o->path, (unsigned)(st.st_mode & 07777));
	} else if (errno != ENOENT) {
		return rl_err_set(err, RL_ERR_IO, "cannot write '%s': %s", o->path,
		                  strerror(errno));
	} else if (lstat(o->path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		return rl_err_set(err, RL_ERR_IO, "cannot write '%s': a symbolic link to a missing "
		                  "file (%s)", o->path, strerror(ENOENT));
	}
	o->kind = KIND_FILE;
	o->target = canonical(o->path, o->exists);
	return o->target != NULL ? 0 : rl_err_set(err, RL_ERR_NOMEM, "out of memory");
}

/* Whether outputs A and B go to one place: the same descriptor, the same
 * file name, or the same regular file. */
static int same_place(const struct rl_outfile *a, const struct rl_outfile *b)
{
	if (a->std_fd >= 0 && a->std_fd == b->std_fd)
		return 1;
	if (a->kind == KIND_FILE && b->kind == KIND_FILE && strcmp(a->target, b->target) == 0)
		return 1;
	return a->regular && b->regular && a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Refuses outputs A and B when they go to one place: 0 or RL_ERR_ARG. */
static int check_pair(const struct rl_outfile *a, const struct rl_outfile *b,
                      struct rl_err *err)
{
	char b1[RL_ERR_MSG_MAX], b2[RL_ERR_MSG_MAX], b3[64];

	if (!same_place(a, b))
		return 0;
	if (a->std_fd >= 0 && a->std_fd == b->std_fd)
		return rl_err_set(err, RL_ERR_ARG, "%s and %s both write to %s: give each output "
		                  "its own file", out_name(a, b1, sizeof(b1)),
		                  out_name(b, b2, sizeof(b2)), fd_name(a->std_fd, b3, sizeof(b3)));
	return rl_err_set(err, RL_ERR_ARG, "%s and %s are the same file: give each output its "
	                  "own file", out_name(a, b1, sizeof(b1)), out_name(b, b2, sizeof(b2)));
}

/* Refuses an output of S that is the input WHAT at PATH: the same name,
 * or the same regular file. Returns 0 or RL_ERR_ARG. */
static int check_input(const struct rl_outfiles *s, const char *what, const char *path,
                       struct rl_err *err)
{
	struct stat st;
	int regular = stat(path, &st) == 0 && S_ISREG(st.st_mode);
	char *canon = regular ? realpath(path, NULL) : NULL, b[RL_ERR_MSG_MAX];
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct rl_outfile *o = &s->out[i];
		int same_string = o->path != NULL && strcmp(o->path, path) == 0;
		int same_name = o->kind == KIND_FILE &&
		                (same_string || (canon != NULL && strcmp(canon, o->target) == 0));
		int same_file = regular && o->regular && o->st_dev == st.st_dev &&
		                o->st_ino == st.st_ino;

		if (same_name || same_file)
			break;
	}
	free(canon);
	if (i == s->n)
		return 0;
	return rl_err_set(err, RL_ERR_ARG, "%s is also an input (%s '%s'%s): write the output "
	                  "elsewhere", out_name(&s->out[i], b, sizeof(b)), what, path,
	                  s->out[i].path != NULL && strcmp(s->out[i].path, path) == 0
	                          ? ""
	                          : ", the same file");
}

/* Refuses two outputs to one place, and an output that is an input.
 * Returns 0 or RL_ERR_ARG. */
static int check_places(const struct rl_outfiles *s, struct rl_err *err)
{
	size_t i, j;

	for (i = 0; i < s->n; i++)
		for (j = i + 1; j < s->n; j++)
			if (check_pair(&s->out[i], &s->out[j], err) < 0)
				return RL_ERR_ARG;
	for (i = 0; i < s->nin; i++)
		if (check_input(s, s->in[i].what, s->in[i].path, err) < 0)
			return RL_ERR_ARG;
	return 0;
}

/* The stdio stream of an output: F writes through here into wfd, so that
 * the first error is kept with its errno, whatever the command writes
 * after it. */
static ssize_t cookie_write(void *cookie, const char *buf, size_t n)
{
	struct rl_outfile *o = cookie;
	size_t done = 0;

	while (done < n && o->errnum == 0) {
		ssize_t w = write(o->wfd, buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			o->errnum = w < 0 ? errno : EIO;
		else
			done += (size_t)w;
	}
	return (ssize_t)done; /* short: stdio sees an error */
}

/* Opens O, probed: a stream's destination and spool, or a file's
 * temporary beside it; then F. Returns 0 or RL_ERR_IO, RL_ERR_NOMEM. */
static int open_one(struct rl_outfile *o, struct rl_err *err)
{
	static const cookie_io_functions_t io = {NULL, cookie_write, NULL, NULL};
	char b[RL_ERR_MSG_MAX];

	if (o->kind == KIND_STREAM) {
		/* a duplicate shares the caller's offset and O_APPEND; a fifo's
		 * open waits for its reader, and a signal may interrupt it */
		do
			o->fd = o->std_fd >= 0 ? fcntl(o->std_fd, F_DUPFD_CLOEXEC, 3)
			                       : open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		while (o->fd < 0 && errno == EINTR);
		if (o->fd < 0)
			return rl_err_set(err, RL_ERR_IO, "cannot write %s: %s",
			                  o->std_fd >= 0 ? out_name(o, b, sizeof(b)) : o->path,
			                  strerror(errno));
		o->spool = tmpfile();
		if (o->spool == NULL)
			return rl_err_set(err, RL_ERR_IO, "cannot create a temporary file: %s",
			                  strerror(errno));
		o->wfd = fileno(o->spool);
	} else {
		size_t n = strlen(o->target) + sizeof(".tmp.XXXXXX");
		sigset_t async, old;
		mode_t mode;
		int e;

		if (o->exists) {
			mode = o->st_mode & 07777;
		} else {
			mode_t mask = umask(0);

			umask(mask);
			mode = 0666 & ~mask; /* what open() would give */
		}
		o->tmp_path = malloc(n);
		if (o->tmp_path == NULL)
			return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
		snprintf(o->tmp_path, n, "%s.tmp.XXXXXX", o->target);
		/* no signal between the file's creation and its record */
		fatal_set(&async, 1);
		sigprocmask(SIG_BLOCK, &async, &old);
		o->wfd = mkostemp(o->tmp_path, O_CLOEXEC);
		e = o->wfd < 0 ? errno : 0;
		if (o->wfd >= 0 && (o->slot = pending_add(o->tmp_path)) < 0) {
			unlink(o->tmp_path);
			close(o->wfd);
			o->wfd = -1;
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (o->wfd < 0) {
			free(o->tmp_path);
			o->tmp_path = NULL;
			return rl_err_set(err, RL_ERR_IO, "cannot create a temporary file beside "
			                  "'%s': %s", o->path,
			                  e != 0 ? strerror(e) : "too many outputs pending");
		}
		/* mkstemp creates mode 0600: give it the mode of the file it
		 * replaces, and its owner where we may (root) */
		fchmod(o->wfd, mode);
		if (o->exists && fchown(o->wfd, o->st_uid, o->st_gid) != 0) {
			/* not root: the file becomes ours, as with any editor */
		}
	}
	o->f = fopencookie(o, "w", io);
	if (o->f == NULL)
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	/* glibc ignores the size unless we hand it the buffer */
	if ((o->buf = malloc(OUT_BUFFER)) != NULL)
		setvbuf(o->f, o->buf, _IOFBF, OUT_BUFFER);
	return 0;
}

int rl_outfiles_open(struct rl_outfiles *s, struct rl_err *err)
{
	size_t i;
	int rc = 0;

	rl_err_clear(err);
	if (s->overflow)
		return rl_err_set(err, RL_ERR_ARG, "more than %d outputs or %d inputs",
		                  RL_OUTFILES_MAX, RL_OUTFILES_INPUTS);
	for (i = 0; rc == 0 && i < s->n; i++)
		rc = probe(&s->out[i], err);
	if (rc == 0)
		rc = check_places(s, err);
	if (rc == 0)
		install_handlers();
	for (i = 0; rc == 0 && i < s->n; i++)
		rc = open_one(&s->out[i], err);
	if (rc < 0) {
		rl_outfiles_release(s);
		return rc;
	}
	s->open = 1;
	return 0;
}

/* ---- committing ---- */

static int write_error(const struct rl_outfile *o, int e, struct rl_err *err)
{
	char b[RL_ERR_MSG_MAX];
	const char *name = o->path == NULL || strcmp(o->path, "-") == 0 ? "standard output" : b;

	snprintf(b, sizeof(b), "'%s'", o->path != NULL ? o->path : "");
	return rl_err_set(err, RL_ERR_IO, "cannot write %s: %s%s", name, strerror(e),
	                  e == EFBIG ? " (past the file size limit, ulimit -f)" : "");
}

/* Phase 1: O's bytes out of its buffer; a file's temporary synced and
 * closed. Returns 0 or RL_ERR_IO. */
static int finish(struct rl_outfile *o, struct rl_err *err)
{
	int e = 0;

	/* a short write sets errnum (cookie_write) */
	if (fflush(o->f) != 0 || o->errnum != 0)
		e = o->errnum != 0 ? o->errnum : EIO;
	fclose(o->f); /* no close function: nothing more can fail */
	o->f = NULL;
	if (e == 0 && o->kind == KIND_FILE) {
		if (fsync(o->wfd) != 0)
			e = errno;
		if (close(o->wfd) != 0 && e == 0)
			e = errno;
		o->wfd = -1;
	}
	return e != 0 ? write_error(o, e, err) : 0;
}

/* Writes N bytes of BUF to FD, waiting where it is non-blocking. Returns 0
 * or an errno. */
static int write_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd p = {fd, POLLOUT, 0};

			if (poll(&p, 1, -1) < 0 && errno != EINTR)
				return errno;
			continue;
		}
		if (w <= 0)
			return w < 0 ? errno : EIO;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Phase 2: a stream's spool copied to its destination. */
static int deliver(struct rl_outfile *o, struct rl_err *err)
{
	char buf[65536];
	ssize_t n;
	int e = 0;

	/* what the program printed itself comes first */
	if (o->std_fd == 1)
		fflush(stdout);
	if (lseek(o->wfd, 0, SEEK_SET) != 0)
		return rl_err_set(err, RL_ERR_IO, "cannot read back a temporary file: %s",
		                  strerror(errno));
	while (e == 0 && (n = read(o->wfd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return rl_err_set(err, RL_ERR_IO, "cannot read back a temporary file: %s",
			                  strerror(errno));
		e = write_all(o->fd, buf, (size_t)n);
	}
	return e != 0 ? write_error(o, e, err) : 0;
}

/* Phase 3: a file's temporary renamed over its target. */
static int rename_into_place(struct rl_outfile *o, struct rl_err *err)
{
	if (rename(o->tmp_path, o->target) != 0)
		return write_error(o, errno, err);
	free(o->tmp_path); /* renamed: nothing left to remove */
	o->tmp_path = NULL;
	pending_remove(o->slot);
	o->slot = -1;
	return 0;
}

int rl_outfiles_failed(const struct rl_outfiles *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->out[i].errnum != 0 || (s->out[i].f != NULL && ferror(s->out[i].f)))
			return 1;
	return 0;
}

int rl_outfiles_commit(struct rl_outfiles *s, struct rl_err *err)
{
	size_t i;
	int rc = 0;

	rl_err_clear(err);
	if (!s->open)
		return rl_err_set(err, RL_ERR_IO, "the outputs are not open");
	for (i = 0; rc == 0 && i < s->n; i++)
		rc = finish(&s->out[i], err);
	for (i = 0; rc == 0 && i < s->n; i++)
		if (s->out[i].kind == KIND_STREAM)
			rc = deliver(&s->out[i], err);
	for (i = 0; rc == 0 && i < s->n; i++)
		if (s->out[i].kind == KIND_FILE)
			rc = rename_into_place(&s->out[i], err);
	rl_outfiles_release(s);
	return rc;
}

void rl_outfiles_release(struct rl_outfiles *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct rl_outfile *o = &s->out[i];

		if (o->f != NULL) {
			o->errnum = ECANCELED; /* dropped: its buffer is not written */
			fclose(o->f);
		}
		o->f = NULL;
		if (o->spool != NULL)
			fclose(o->spool);
		else if (o->wfd >= 0)
			close(o->wfd);
		o->spool = NULL;
		o->wfd = -1;
		if (o->fd >= 0)
			close(o->fd);
		o->fd = -1;
		if (o->tmp_path != NULL) {
			unlink(o->tmp_path); /* then forgotten: no moment unrecorded */
			free(o->tmp_path);
			o->tmp_path = NULL;
		}
		pending_remove(o->slot);
		o->slot = -1;
		free(o->target);
		o->target = NULL;
		free(o->buf);
		o->buf = NULL;
	}
	s->open = 0;
}
