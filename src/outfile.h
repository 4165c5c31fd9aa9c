/* outfile.h - a command's outputs, written whole and together or not at all,
 * and the inputs they must not overwrite.
 *
 * A command declares, after parsing its options and before reading
 * anything, the files it reads (rl_outfiles_input) and the outputs it
 * writes (rl_outfiles_add: -o, --svg, --record), opens them all at once
 * (rl_outfiles_open), writes each output's stream, then commits them
 * together (rl_outfiles_commit) or drops them (rl_outfiles_release).
 *
 * Where an output goes, by what its path names:
 *   - NULL or "-": standard output. "/dev/stdin", "/dev/stdout",
 *     "/dev/stderr", "/dev/fd/N", "/proc/self/fd/N": that descriptor as the
 *     caller set it up, written through a duplicate of it, so that a file
 *     opened with >> is appended to and one opened with > is written at its
 *     offset; nothing is truncated or renamed.
 *   - A character or block device, a fifo, a socket: opened as it is, in
 *     place, without truncation (a fifo waits for its reader, as the shell's
 *     > does).
 *   - A regular file or a new name: a temporary file beside it
 *     (NAME.tmp.XXXXXX) renamed over it at the commit. A symbolic link is
 *     followed (the file it names is replaced, the link stays); a dangling
 *     link, a directory and a read-only file are refused; a replaced file
 *     keeps its mode (and its owner where we may).
 * The first two kinds are streams: what the command writes is spooled to an
 * unlinked temporary file and copied to them at the commit, so that they
 * too get nothing from a command that fails.
 *
 * The commit: every output flushed and each temporary file synced; if any
 * failed, nothing is delivered. Then the streams are copied, in the order
 * they were added, then the temporary files renamed. A stream copied before
 * a later one failed cannot be taken back; no file is renamed unless every
 * stream was delivered.
 *
 * Once outputs have been opened, every signal whose default action ends
 * the process (HUP, INT, QUIT, TERM, PIPE, ALRM, XFSZ, ... and the
 * real-time ones; KILL cannot be caught) removes the temporary files not
 * yet renamed, then ends the process as it would have. A signal that is
 * ignored or handled by someone else (a sanitizer's SIGSEGV) is left as it
 * is. The SIGXFSZ the kernel sends when a write passes the file size limit
 * (ulimit -f) does not end the process: the write fails with EFBIG and the
 * commit says so.
 */
#ifndef RL_OUTFILE_H
#define RL_OUTFILE_H

#include <stdio.h>
#include <sys/types.h>

#include "err.h"

#define RL_OUTFILES_MAX 4    /* outputs of one command */
#define RL_OUTFILES_INPUTS 8 /* inputs they are checked against */

/* One output. The command reads F (after rl_outfiles_open) and sets
 * nothing; the rest is outfile.c's. */
struct rl_outfile {
	FILE *f;          /* where the command writes, once open */
	const char *what; /* the option that named it, for messages: "-o" */
	const char *path; /* as given; NULL or "-": standard output */
	int kind;         /* 0 until probed, then a file or a stream */
	int std_fd;       /* a stream to a descriptor: its number, else -1 */
	int fd;           /* a stream's destination (a duplicate, or the device) */
	int wfd;          /* what F writes to: the temporary file, or the spool */
	FILE *spool;      /* a stream: the unlinked temporary holding its bytes */
	int errnum;       /* the first write error on wfd, 0 while none */
	char *target;     /* a file: its path, symbolic links resolved */
	char *tmp_path;   /* a file: the temporary beside it, until renamed */
	char *buf;        /* F's buffer */
	int slot;         /* the signal handler's record of tmp_path, or -1 */
	int exists;       /* a file: it exists (st_* are its) */
	int regular;      /* the file or the stream's destination is a regular file */
	dev_t st_dev;
	ino_t st_ino;
	mode_t st_mode;
	uid_t st_uid;
	gid_t st_gid;
};

struct rl_outfiles {
	size_t n;                              /* outputs added */
	struct rl_outfile out[RL_OUTFILES_MAX];
	size_t nin;                            /* inputs declared */
	struct {
		const char *what; /* "the op list", "--efficiency" */
		const char *path;
	} in[RL_OUTFILES_INPUTS];
	int overflow; /* more outputs or inputs than fit: a programming error */
	int open;     /* rl_outfiles_open succeeded and nothing is committed yet */
};

/* Sets S to no inputs and no outputs. */
void rl_outfiles_init(struct rl_outfiles *s);

/* Declares that the command reads PATH, which WHAT names in messages ("the
 * op list", "--efficiency"). NULL and "-" (standard input) are not paths
 * and are not checked. */
void rl_outfiles_input(struct rl_outfiles *s, const char *what, const char *path);

/* Declares an output to PATH (NULL or "-": standard output), named by the
 * option WHAT ("-o", "--svg") in messages. Returns the output, whose f is
 * set by rl_outfiles_open; the pointer stays valid while S lives. */
struct rl_outfile *rl_outfiles_add(struct rl_outfiles *s, const char *what, const char *path);

/* Checks and opens every output of S. RL_ERR_ARG: an output that is one
 * of the inputs (the same path, or the same regular file), or two outputs
 * to the same file or descriptor. RL_ERR_IO: one that cannot be written (a
 * closed descriptor, a directory, a read-only file, a dangling link, a
 * directory that is missing or not writable). On error nothing is left
 * open or created. Returns 0 or the negative status, with ERR set. */
int rl_outfiles_open(struct rl_outfiles *s, struct rl_err *err);

/* Delivers every output of S, or none (see above). Returns 0, or
 * RL_ERR_IO with ERR naming the output that failed and why (a write past
 * the file size limit says so). Either way S is closed after: release it. */
int rl_outfiles_commit(struct rl_outfiles *s, struct rl_err *err);

/* Whether a write to one of S's outputs has failed already (a full disk,
 * the file size limit, a closed pipe): then a run that stopped with
 * RL_ERR_IO stopped for that output, and rl_outfiles_commit names it. */
int rl_outfiles_failed(const struct rl_outfiles *s);

/* Closes S, removing every temporary file not renamed: what was not
 * committed is dropped and the old targets stay as they were. Accepts S
 * in any state after rl_outfiles_init. */
void rl_outfiles_release(struct rl_outfiles *s);

/* For a program's start, before it opens anything: standard input, output
 * and error that the caller closed are held by /dev/null, opened the wrong
 * way round (output read-only), so that no file the program opens takes
 * their descriptors and writing to them still fails; rl_outfiles_open
 * then calls them closed. */
void rl_outfiles_guard_stdio(void);

/* Whether standard output can be written: 0, or RL_ERR_IO with ERR saying
 * it is closed, for a command that prints to it directly. */
int rl_outfiles_stdout_ok(struct rl_err *err);

#endif
