/* SPDX-License-Identifier: MIT */
/*
 * backend.h - what the in-process transport serves /proc from: the file
 * table and the renderers over a snapshot of the served machine mapped into
 * the reading process (snapshot.h), so that a file is found, checked and
 * rendered with no syscall.
 *
 * Every call takes an absolute, normalised path (no "..", no trailing
 * slash).  A return of PLB_PASS means "not ours": the caller makes the real
 * call, which reaches the FUSE mount.  Passed on are the run's own
 * processes (from the run's mirror_from up: they are real, the daemon
 * mirrors them), paths through a symlink (self/, cwd/...), readers the run's
 * mount would refuse (any but root with its capabilities: the mount has no
 * allow_other), mounts with hidepid or subset=pid, and whatever this process
 * cannot map.  The rest is answered as the FUSE mount answers it: the same
 * bytes, attributes, listings and errors, at the snapshot's served time.
 */
#ifndef UPROCFS_PRELOAD_BACKEND_H
#define UPROCFS_PRELOAD_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#define PLB_PASS 1

/** One directory entry, as getdents gives it. */
struct plb_dirent {
	char name[256];
	unsigned char type;   /* DT_DIR, DT_REG, DT_LNK */
	ino_t ino;
	off_t off;            /* the position after it (what the FUSE mount's d_off says) */
};

/** An opened node: a directory, or a file rendered whole at open. */
struct plb_file {
	bool dir;
	char *text;           /* malloc'd; NULL for a directory or a file whose reads fail */
	size_t len;
	int read_err;         /* reads fail with this errno (an access rule checked at read time) */
	bool whole_at_zero;   /* reads past offset 0 give nothing (numeric /proc/sys keys) */
};

/** Start the backend from the environment; false when there is nothing to serve from. */
bool plb_init(void);

/** Whether @path is under the tree the backend serves (/proc): worth normalising and asking. */
bool plb_candidate(const char *path);

/** The credentials of this process changed (set*id, capset): look again at the next call. */
void plb_creds_changed(void);

/** After fork, in the child: the process's id changed, and only this thread is left. */
void plb_after_fork_child(void);

/** stat(2) of @path (@follow: stat, else lstat).  0, -errno or PLB_PASS. */
int plb_stat(const char *path, bool follow, struct stat *st);

/** access(2) of @path: existence and @mode (R_OK, W_OK, X_OK).  0, -errno or PLB_PASS. */
int plb_access(const char *path, int mode, bool follow);

/**
 * open(2) of @path for reading (@follow unless O_NOFOLLOW): a directory, or
 * a file rendered whole.  0, -errno or PLB_PASS.
 */
int plb_open(const char *path, bool follow, struct plb_file *f);

/** readlink(2) of @path: the target's length in *@len (not NUL-terminated).  0, -errno or PLB_PASS. */
int plb_readlink(const char *path, char *buf, size_t size, size_t *len);

/** The entries of directory @path (with "." and ".."), malloc'd.  0, -errno or PLB_PASS. */
int plb_list(const char *path, struct plb_dirent **ents, size_t *n);

#endif
