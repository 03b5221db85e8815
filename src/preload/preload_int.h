/* SPDX-License-Identifier: MIT */
/*
 * preload_int.h - what the parts of the interposition layer share: the real
 * C library calls, the table of descriptors the library stands for, and
 * the path rules.
 *
 * A served file or directory gets a descriptor number of its own, far above
 * any the kernel hands out (PL_FD_BASE and up): opening, reading, seeking
 * and closing it cost no syscall.  Every call that takes a descriptor looks
 * here first (one comparison for a real one); a call this library does not
 * know on such a descriptor fails with EBADF, as on a closed one; dup2 onto
 * a real number, fchdir and the like open the path through the mount first.
 */
#ifndef UPROCFS_PRELOAD_INT_H
#define UPROCFS_PRELOAD_INT_H

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/fsuid.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include "backend.h"

#define EXPORT __attribute__((visibility("default")))
#define PL_PATH_MAX 4096

/* Our descriptors: from here up.  The kernel's never get here (fs.nr_open is at most 2^30 - 64... checked at start). */
#define PL_FD_BASE (1 << 30)

/* The real calls, found with dlsym(RTLD_NEXT) at start. */
#define PL_REALS(X)                                                                                             \
	X(open) X(openat) X(read) X(pread) X(readv) X(lseek) X(close) X(fstat) X(stat) X(lstat) X(fstatat)      \
	X(statx) X(readlink) X(readlinkat) X(access) X(faccessat) X(opendir) X(fdopendir) X(readdir)           \
	X(closedir) X(dirfd) X(rewinddir) X(telldir) X(seekdir) X(fopen) X(fdopen) X(fileno) X(fcntl) X(dup)    \
	X(dup2) X(dup3) X(fchdir) X(isatty) X(ioctl) X(getdents64) X(fstatfs) X(fstatvfs) X(copy_file_range)    \
	X(sendfile) X(setuid) X(setgid) X(seteuid) X(setegid) X(setreuid) X(setregid) X(setresuid)             \
	X(setresgid) X(setfsuid) X(setfsgid)

#define PL_DECLARE_REAL(name) extern __typeof__(name) *real_##name;
PL_REALS(PL_DECLARE_REAL)
#undef PL_DECLARE_REAL

/** Bind the real calls and start the backend (once); whether /proc is served in this process. */
bool pl_ready(void);

/** What one of our descriptors stands for; dup'd descriptors share one. */
struct pl_desc {
	int refs;
	pthread_mutex_t lock;       /* position and text, between threads of one process */
	char *path;                 /* absolute, normalised */
	int flags;                  /* the open flags (F_GETFL) */
	struct plb_file f;          /* a directory, or a file's text as rendered at open or at the last read at 0 */
	off_t pos;
	bool fresh;                 /* the text came from open: the first read at 0 takes it as it is */
	/* directories: the listing getdents64 walks, made when first read */
	struct plb_dirent *ents;
	size_t nents, next;
	bool listed;
};

/** Our descriptor @fd's description, or NULL (a real descriptor, or none). */
struct pl_desc *pl_desc_of(int fd);

/** Whether @fd is in our range (ours or not open). */
static inline bool pl_fd_ours(int fd)
{
	return fd >= PL_FD_BASE;
}

/** A new descriptor for @d (whose reference it takes); -1 with errno EMFILE when none is left. */
int pl_fd_new(struct pl_desc *d, bool cloexec);

/** Drop our descriptor @fd: 0, or -1 with errno EBADF. */
int pl_fd_close(int fd);

/** The descriptor flags (FD_CLOEXEC) of @fd, set with pl_fd_setflags. */
int pl_fd_getflags(int fd);
void pl_fd_setflags(int fd, int flags);

/** A description of served node @path opened as @f (taken over); NULL with errno ENOMEM. */
struct pl_desc *pl_desc_new(const char *path, int flags, struct plb_file *f);

/** Drop a reference to @d. */
void pl_desc_put(struct pl_desc *d);

/**
 * The absolute normalised path @path names relative to @dirfd, if it is one
 * the backend may serve: under /proc, with no ".." and no trailing slash.
 * Relative paths count only against one of our directory descriptors.
 */
bool pl_our_path(int dirfd, const char *path, char *out);

/** A real descriptor opened through the mount for what our @fd stands for (dup2, fchdir); -1 with errno. */
int pl_materialise(int fd);

/** Open @path (absolute, ours) as one of our descriptors; PLB_PASS, or a descriptor or -1 with errno. */
int pl_open_served(const char *path, int flags);

/** Render @d's file again for a read at offset 0 (under d->lock). */
void pl_rerender(struct pl_desc *d);

#endif
