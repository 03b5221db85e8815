// SPDX-License-Identifier: MIT
/*
 * preload_fs.c - stat, access, readlink and the other calls on a path or on
 * one of our descriptors (preload.c): attributes from the snapshot, the rest
 * through the mount.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "preload_int.h"

/* ------------------------------------------------------------------ */
/* stat                                                                 */

EXPORT int fstat(int fd, struct stat *sb)
{
	struct pl_desc *d;
	int rc;

	if (!pl_fd_ours(fd)) {
		pl_ready();
		return real_fstat(fd, sb);
	}
	d = pl_desc_of(fd);
	if (!d)
		return errno = EBADF, -1;
	rc = plb_stat(d->path, true, sb);
	if (rc == PLB_PASS)
		return real_stat(d->path, sb);
	return rc ? (errno = -rc, -1) : 0;
}

EXPORT int fstat64(int fd, struct stat64 *sb)
{
	return fstat(fd, (struct stat *)sb);
}

/* The path @path names from @dirfd, for a call the kernel makes: one of ours is named by its path. */
static const char *real_path(int dirfd, const char *path, char *buf)
{
	struct pl_desc *d = pl_desc_of(dirfd);

	if (!d || !path || path[0] == '/')
		return path;
	if (!*path)
		return d->path;
	snprintf(buf, PL_PATH_MAX, "%s/%s", d->path, path);
	return buf;
}

static int do_fstatat(int dirfd, const char *path, struct stat *sb, int flags)
{
	char abs[PL_PATH_MAX];
	int rc;

	if ((flags & AT_EMPTY_PATH) && path && !*path)
		return fstat(dirfd, sb);
	if (!pl_our_path(dirfd, path, abs)) {
		if (pl_fd_ours(dirfd))
			return real_fstatat(AT_FDCWD, real_path(dirfd, path, abs), sb, flags);
		return real_fstatat(dirfd, path, sb, flags);
	}
	rc = plb_stat(abs, !(flags & AT_SYMLINK_NOFOLLOW), sb);
	if (rc == PLB_PASS)
		return real_fstatat(AT_FDCWD, abs, sb, flags);
	return rc ? (errno = -rc, -1) : 0;
}

EXPORT int fstatat(int dirfd, const char *path, struct stat *sb, int flags)
{
	pl_ready();
	return do_fstatat(dirfd, path, sb, flags);
}

EXPORT int fstatat64(int dirfd, const char *path, struct stat64 *sb, int flags)
{
	return fstatat(dirfd, path, (struct stat *)sb, flags);
}

EXPORT int stat(const char *path, struct stat *sb)
{
	pl_ready();
	return do_fstatat(AT_FDCWD, path, sb, 0);
}

EXPORT int stat64(const char *path, struct stat64 *sb)
{
	return stat(path, (struct stat *)sb);
}

EXPORT int lstat(const char *path, struct stat *sb)
{
	pl_ready();
	return do_fstatat(AT_FDCWD, path, sb, AT_SYMLINK_NOFOLLOW);
}

EXPORT int lstat64(const char *path, struct stat64 *sb)
{
	return lstat(path, (struct stat *)sb);
}

static struct statx_timestamp stx_time(struct timespec ts)
{
	return (struct statx_timestamp){ .tv_sec = ts.tv_sec, .tv_nsec = (uint32_t)ts.tv_nsec };
}

/* statx as the kernel fills it for a FUSE file from the same attributes. */
static void to_statx(const struct stat *st, struct statx *sx)
{
	memset(sx, 0, sizeof(*sx));
	sx->stx_mask = STATX_BASIC_STATS;
	sx->stx_blksize = (uint32_t)st->st_blksize;
	sx->stx_nlink = (uint32_t)st->st_nlink;
	sx->stx_uid = st->st_uid;
	sx->stx_gid = st->st_gid;
	sx->stx_mode = (uint16_t)st->st_mode;
	sx->stx_ino = st->st_ino;
	sx->stx_size = (uint64_t)st->st_size;
	sx->stx_blocks = (uint64_t)st->st_blocks;
	sx->stx_atime = stx_time(st->st_atim);
	sx->stx_ctime = stx_time(st->st_ctim);
	sx->stx_mtime = stx_time(st->st_mtim);
	sx->stx_dev_major = major(st->st_dev);
	sx->stx_dev_minor = minor(st->st_dev);
}

/* Whether @p names no file: statx takes NULL or "" with AT_EMPTY_PATH (its prototype says nonnull). */
static bool no_path(const char *p)
{
	return !p || !*p;
}

EXPORT int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *sx)
{
	char abs[PL_PATH_MAX];
	struct stat st;
	int rc;

	pl_ready();
	if ((flags & AT_EMPTY_PATH) && no_path(path) && pl_fd_ours(dirfd)) {
		struct pl_desc *d = pl_desc_of(dirfd);

		if (!d)
			return errno = EBADF, -1;
		rc = plb_stat(d->path, true, &st);
		if (rc == PLB_PASS)
			return real_statx(AT_FDCWD, d->path, flags & ~AT_EMPTY_PATH, mask, sx);
	} else if (!pl_our_path(dirfd, path, abs)) {
		if (pl_fd_ours(dirfd))
			return real_statx(AT_FDCWD, real_path(dirfd, path, abs), flags, mask, sx);
		return real_statx(dirfd, path, flags, mask, sx);
	} else {
		rc = plb_stat(abs, !(flags & AT_SYMLINK_NOFOLLOW), &st);
		if (rc == PLB_PASS)
			return real_statx(AT_FDCWD, abs, flags, mask, sx);
	}
	if (rc)
		return errno = -rc, -1;
	to_statx(&st, sx);
	return 0;
}

/* ------------------------------------------------------------------ */
/* access, readlink                                                     */

static int do_faccessat(int dirfd, const char *path, int mode, int flags)
{
	char abs[PL_PATH_MAX];
	int rc;

	if (!pl_our_path(dirfd, path, abs)) {
		if (pl_fd_ours(dirfd))
			return real_faccessat(AT_FDCWD, real_path(dirfd, path, abs), mode, flags);
		return real_faccessat(dirfd, path, mode, flags);
	}
	rc = plb_access(abs, mode, !(flags & AT_SYMLINK_NOFOLLOW));
	if (rc == PLB_PASS)
		return real_faccessat(AT_FDCWD, abs, mode, flags);
	return rc ? (errno = -rc, -1) : 0;
}

EXPORT int access(const char *path, int mode)
{
	pl_ready();
	return do_faccessat(AT_FDCWD, path, mode, 0);
}

EXPORT int faccessat(int dirfd, const char *path, int mode, int flags)
{
	pl_ready();
	return do_faccessat(dirfd, path, mode, flags);
}

static ssize_t do_readlinkat(int dirfd, const char *path, char *buf, size_t size)
{
	char abs[PL_PATH_MAX];
	size_t len;
	int rc;

	if (!pl_our_path(dirfd, path, abs)) {
		if (pl_fd_ours(dirfd))
			return real_readlinkat(AT_FDCWD, real_path(dirfd, path, abs), buf, size);
		return real_readlinkat(dirfd, path, buf, size);
	}
	rc = plb_readlink(abs, buf, size, &len);
	if (rc == PLB_PASS)
		return real_readlinkat(AT_FDCWD, abs, buf, size);
	return rc ? (errno = -rc, -1) : (ssize_t)len;
}

EXPORT ssize_t readlink(const char *path, char *buf, size_t size)
{
	pl_ready();
	return do_readlinkat(AT_FDCWD, path, buf, size);
}

EXPORT ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t size)
{
	pl_ready();
	return do_readlinkat(dirfd, path, buf, size);
}

/* ------------------------------------------------------------------ */
/* Other calls on one of our descriptors                                */

EXPORT int fchdir(int fd)
{
	int rfd, rc;

	if (!pl_fd_ours(fd)) {
		pl_ready();
		return real_fchdir(fd);
	}
	rfd = pl_materialise(fd);
	if (rfd < 0)
		return -1;
	rc = real_fchdir(rfd);
	real_close(rfd);
	return rc;
}

EXPORT int isatty(int fd)
{
	if (!pl_fd_ours(fd)) {
		pl_ready();
		return real_isatty(fd);
	}
	errno = pl_desc_of(fd) ? ENOTTY : EBADF;
	return 0;
}

EXPORT int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!pl_fd_ours(fd)) {
		pl_ready();
		return real_ioctl(fd, req, arg);
	}
	return errno = pl_desc_of(fd) ? ENOTTY : EBADF, -1;
}

EXPORT int fstatfs(int fd, struct statfs *sb)
{
	int rfd, rc;

	if (!pl_fd_ours(fd)) {
		pl_ready();
		return real_fstatfs(fd, sb);
	}
	rfd = pl_materialise(fd);
	if (rfd < 0)
		return -1;
	rc = real_fstatfs(rfd, sb);
	real_close(rfd);
	return rc;
}

EXPORT int fstatfs64(int fd, struct statfs64 *sb)
{
	return fstatfs(fd, (struct statfs *)sb);
}

EXPORT int fstatvfs(int fd, struct statvfs *sb)
{
	int rfd, rc;

	if (!pl_fd_ours(fd)) {
		pl_ready();
		return real_fstatvfs(fd, sb);
	}
	rfd = pl_materialise(fd);
	if (rfd < 0)
		return -1;
	rc = real_fstatvfs(rfd, sb);
	real_close(rfd);
	return rc;
}

EXPORT int fstatvfs64(int fd, struct statvfs64 *sb)
{
	return fstatvfs(fd, (struct statvfs *)sb);
}

/* Copy from one of ours into a real descriptor, through read and write. */
static ssize_t copy_out(int in, off_t *off, int out, size_t len)
{
	char buf[65536];
	ssize_t got = 0;

	while ((size_t)got < len) {
		size_t want = len - (size_t)got < sizeof(buf) ? len - (size_t)got : sizeof(buf);
		ssize_t n = off ? pread(in, buf, want, *off) : read(in, buf, want);

		if (n <= 0)
			return got ? got : n;
		if (write(out, buf, (size_t)n) != n)
			return got ? got : -1;
		if (off)
			*off += n;
		got += n;
	}
	return got;
}

EXPORT ssize_t copy_file_range(int in, off_t *in_off, int out, off_t *out_off, size_t len, unsigned int flags)
{
	if (!pl_fd_ours(in) && !pl_fd_ours(out)) {
		pl_ready();
		return real_copy_file_range(in, in_off, out, out_off, len, flags);
	}
	return errno = pl_fd_ours(out) ? EBADF : EXDEV, -1; /* callers fall back to read and write */
}

EXPORT ssize_t sendfile(int out, int in, off_t *off, size_t len)
{
	if (!pl_fd_ours(in) && !pl_fd_ours(out)) {
		pl_ready();
		return real_sendfile(out, in, off, len);
	}
	if (pl_fd_ours(out) || !pl_desc_of(in))
		return errno = EBADF, -1;
	return copy_out(in, off, out, len);
}

EXPORT ssize_t sendfile64(int out, int in, off_t *off, size_t len) __attribute__((alias("sendfile")));

/* ------------------------------------------------------------------ */
/* Credentials: the backend looks at them again                          */

#define CRED_CALL(name, params, args)                                                                           \
	EXPORT int name params                                                                                  \
	{                                                                                                       \
		int rc;                                                                                         \
		pl_ready();                                                                                     \
		rc = real_##name args;                                                                          \
		plb_creds_changed();                                                                            \
		return rc;                                                                                      \
	}

CRED_CALL(setuid, (uid_t u), (u))
CRED_CALL(setgid, (gid_t g), (g))
CRED_CALL(seteuid, (uid_t u), (u))
CRED_CALL(setegid, (gid_t g), (g))
CRED_CALL(setreuid, (uid_t r, uid_t e), (r, e))
CRED_CALL(setregid, (gid_t r, gid_t e), (r, e))
CRED_CALL(setresuid, (uid_t r, uid_t e, uid_t s), (r, e, s))
CRED_CALL(setresgid, (gid_t r, gid_t e, gid_t s), (r, e, s))
CRED_CALL(setfsuid, (uid_t u), (u))
CRED_CALL(setfsgid, (gid_t g), (g))
