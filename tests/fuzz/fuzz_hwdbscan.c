/* fuzz_hwdbscan.c - the database directory scan (hwdb.c's rl_hwdb_open,
 * effprof.c's rl_effprof_pick) over a directory the input describes.
 *
 * The input is a list of entries, each a header line and, for a file, the
 * lines up to the next header as its content:
 *
 *     @@ K NAME [TARGET]
 *
 * K is the kind: f a regular file, e an empty file, u a file of mode 000
 * (readable anyway when the fuzzer runs as root), p a fifo, d a directory,
 * l a symbolic link to TARGET (another entry, itself, or nothing), s a
 * socket; any other letter is a file. NAME and TARGET keep only
 * [A-Za-z0-9._-] (no '/': everything stays in the directory), at most 96
 * bytes; bytes before the first header are ignored, and so is an entry
 * whose name is taken. Each run builds the entries in a fresh directory,
 * opens it as the program does (the database, then a device lookup and an
 * efficiency profile per device, the systems' GPUs), and removes it. No
 * input may block (a fifo in the scan blocked every command, issue 21: a
 * scan over 2 s aborts), crash or leak. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "effprof.h"
#include "fuzz.h"
#include "hwdb.h"
#include "hwsystem.h"

#define MAX_ENTRIES 64
#define MAX_NAME    96

/* The directory the runs build in: tmpfs when there is one. */
static const char *base_dir(void)
{
	const char *t = getenv("TMPDIR");

	if (t != NULL && *t != '\0')
		return t;
	return access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
}

/* Copies the name at P (up to END, a blank or a newline) into OUT, keeping
 * the bytes a name may have; returns the end of what was read. */
static const char *take_name(const char *p, const char *end, char *out)
{
	size_t n = 0;

	while (p < end && *p == ' ')
		p++;
	for (; p < end && *p != ' ' && *p != '\n'; p++) {
		char c = *p;

		if (n < MAX_NAME && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		                     (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
			out[n++] = c;
	}
	out[n] = '\0';
	return p;
}

static int bad_name(const char *s)
{
	return *s == '\0' || strcmp(s, ".") == 0 || strcmp(s, "..") == 0;
}

static void write_file(int dfd, const char *name, const char *data, size_t n, mode_t mode)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0)
		return; /* the name is taken */
	while (n > 0) {
		ssize_t w = write(fd, data, n);

		if (w <= 0)
			abort();
		data += w;
		n -= (size_t)w;
	}
	if (mode != 0600 && fchmod(fd, mode) < 0)
		abort();
	close(fd);
}

/* A listening-less unix socket bound at DIR/NAME (a socket in the
 * database is one more thing a scan must not open). */
static void make_socket(const char *dir, const char *name)
{
	struct sockaddr_un a;
	int s;

	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	if ((size_t)snprintf(a.sun_path, sizeof(a.sun_path), "%s/%s", dir, name) >=
	    sizeof(a.sun_path))
		return;
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return;
	(void)bind(s, (const struct sockaddr *)&a, sizeof(a));
	close(s);
}

/* Builds the entries of DATA in DIR. */
static void build(const char *dir, const char *data, size_t size)
{
	const char *p = data, *end = data + size;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), count = 0;

	if (dfd < 0)
		abort();
	/* the first header */
	while (p < end && !(end - p >= 3 && memcmp(p, "@@ ", 3) == 0 && (p == data || p[-1] == '\n'))) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		p = nl != NULL ? nl + 1 : end;
	}
	while (p < end && count++ < MAX_ENTRIES) {
		char name[MAX_NAME + 1], target[MAX_NAME + 1], kind;
		const char *body, *next, *nl;

		p += 3;
		kind = p < end ? *p++ : 'f';
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		p = take_name(p, nl, name);
		take_name(p, nl, target);
		body = nl < end ? nl + 1 : end;
		/* the content runs to the next line starting "@@ " */
		for (next = body; next < end; next = nl + 1) {
			if (end - next >= 3 && memcmp(next, "@@ ", 3) == 0)
				break;
			nl = memchr(next, '\n', (size_t)(end - next));
			if (nl == NULL) {
				next = end;
				break;
			}
		}
		p = next;
		if (bad_name(name))
			continue;
		switch (kind) {
		case 'e':
			write_file(dfd, name, "", 0, 0600);
			break;
		case 'u':
			write_file(dfd, name, body, (size_t)(next - body), 0);
			break;
		case 'p':
			(void)mkfifoat(dfd, name, 0600);
			break;
		case 'd':
			(void)mkdirat(dfd, name, 0700);
			break;
		case 'l':
			(void)symlinkat(bad_name(target) ? "nowhere" : target, dfd, name);
			break;
		case 's':
			make_socket(dir, name);
			break;
		default:
			write_file(dfd, name, body, (size_t)(next - body), 0600);
			break;
		}
	}
	close(dfd);
}

/* Removes everything build made in DIR, and DIR. */
static void clean(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (d == NULL)
		abort();
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd(d), de->d_name, 0) < 0 &&
		    (errno != EISDIR || unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) < 0))
			abort();
	}
	closedir(d);
	if (rmdir(dir) < 0)
		abort();
}

/* An H200-like device, for the profile pick when the database does not
 * open. */
static void model_device(struct rl_device *d)
{
	memset(d, 0, sizeof(*d));
	d->num[RL_HW_SM_COUNT].present = 1;
	d->num[RL_HW_SM_COUNT].value = 132;
	d->num[RL_HW_COMPUTE_CAPABILITY].present = 1;
	d->num[RL_HW_COMPUTE_CAPABILITY].value = 9.0;
	d->num[RL_HW_MEMORY_GIB].present = 1;
	d->num[RL_HW_MEMORY_GIB].value = 141;
}

static void pick(const char *dir, const struct rl_device *d)
{
	struct rl_effprof ep;
	struct rl_err e;
	int rc = rl_effprof_pick(dir, d, &ep, &e);

	if (rc == RL_EP_SAME_GPU || rc == RL_EP_NEAREST) {
		if (ep.id == NULL || ep.path == NULL)
			abort();
		rl_effprof_release(&ep);
	}
}

/* What the commands do with an open database: find each device by its id
 * (the one found must be a device of the database), pick its profile, find
 * each runtime and system by id, each system's GPU, and a name that is not
 * there (the "did you mean" search). */
static void use(const char *dir, rl_hwdb *db)
{
	struct rl_err e;
	size_t i;

	for (i = 0; i < rl_hwdb_device_count(db); i++) {
		const struct rl_device *d = rl_hwdb_device(db, i);

		if (rl_hwdb_find_device(db, d->id, &e) == NULL)
			abort();
		pick(dir, d);
	}
	for (i = 0; i < rl_hwdb_runtime_count(db); i++)
		if (rl_hwdb_find_runtime(db, rl_hwdb_runtime(db, i)->id, &e) == NULL)
			abort();
	for (i = 0; i < rl_hwdb_system_count(db); i++) {
		const struct rl_hwsystem *s = rl_hwdb_system(db, i);

		if (rl_hwdb_find_system(db, s->id, &e) != s || rl_hwdb_system_gpu(db, s) == NULL)
			abort();
	}
	(void)rl_hwdb_find_device(db, "no-such-gpu-in-the-fuzz-db", &e);
	(void)rl_hwdb_find_runtime(db, "no-such-runtime", &e);
	(void)rl_hwdb_find_system(db, "no-such-system", &e);
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[256];
	rl_hwdb *db = NULL;
	struct rl_err e;
	double t0, took;

	snprintf(dir, sizeof(dir), "%s/roofline-fuzz-XXXXXX", base_dir());
	if (mkdtemp(dir) == NULL)
		abort();
	build(dir, (const char *)data, size);
	t0 = seconds();
	if (rl_hwdb_open(dir, &db, &e) == 0) {
		use(dir, db);
		rl_hwdb_free(db);
	} else {
		struct rl_device d;

		model_device(&d);
		pick(dir, &d);
	}
	/* A scan of 64 entries takes milliseconds. One that blocks (an open of
	 * a fifo waits for a writer) is woken by libFuzzer's timer, whose
	 * signal makes the open fail with EINTR after half the -timeout, so it
	 * would pass for an error: the time says what happened. */
	took = seconds() - t0;
	if (took > 2.0) {
		fprintf(stderr, "the scan took %.1f s: something blocked\n", took);
		abort();
	}
	clean(dir);
	return 0;
}
