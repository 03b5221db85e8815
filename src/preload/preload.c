// SPDX-License-Identifier: MIT
/*
 * preload.c - the in-process transport: a library `uprocfs run --preload`
 * puts into the command's dynamically linked programs (LD_PRELOAD), which
 * answers their C library calls on /proc from a snapshot of the machine
 * mapped into the process (backend.h), so ps or top open, read and close a
 * file with no syscall at all.  Everything else, and every path the backend
 * passes on, goes to the real call, and so to the FUSE mount; statically
 * linked programs never see this library and use the mount too.
 *
 * This file: start-up, our descriptors, open, read, seek, close, fcntl and
 * dup.  preload_fs.c: stat, access, readlink; preload_dir.c: directories;
 * preload_stdio.c: fopen and friends.
 *
 * A read at offset 0 after the first renders the file again, from the
 * newest snapshot, as the kernel's seq_file (and the FUSE mount) do: top
 * reads /proc/stat again after lseek 0.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <unistd.h>

#include "preload_int.h"

#define PL_DEFINE_REAL(name) __typeof__(name) *real_##name;
PL_REALS(PL_DEFINE_REAL)
#undef PL_DEFINE_REAL

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static bool serving;

/* ------------------------------------------------------------------ */
/* Our descriptors                                                      */

struct fdent {
	struct pl_desc *d;
	int fdflags;
};

/*
 * Entries in chunks of 1024, allocated when first needed and never moved:
 * a read() looks here from any thread without a lock.
 */
#define CHUNK_BITS 10
#define CHUNK_LEN (1 << CHUNK_BITS)
#define NCHUNKS 1024

static pthread_mutex_t fds_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fdent **chunks[NCHUNKS];
static unsigned int first_free; /* no free index below this */

static struct fdent *ent_of(int fd)
{
	unsigned int i = (unsigned int)fd - PL_FD_BASE;
	struct fdent **c;

	if (fd < PL_FD_BASE || (i >> CHUNK_BITS) >= NCHUNKS)
		return NULL;
	c = __atomic_load_n(&chunks[i >> CHUNK_BITS], __ATOMIC_ACQUIRE);
	return c ? __atomic_load_n(&c[i & (CHUNK_LEN - 1)], __ATOMIC_ACQUIRE) : NULL;
}

struct pl_desc *pl_desc_of(int fd)
{
	struct fdent *e = ent_of(fd);

	return e ? e->d : NULL;
}

int pl_fd_new(struct pl_desc *d, bool cloexec)
{
	struct fdent *e = malloc(sizeof(*e));

	if (!e)
		return errno = ENOMEM, -1;
	e->d = d;
	e->fdflags = cloexec ? FD_CLOEXEC : 0;
	pthread_mutex_lock(&fds_lock);
	for (unsigned int i = first_free; i < (unsigned int)NCHUNKS * CHUNK_LEN; i++) {
		struct fdent **c = chunks[i >> CHUNK_BITS];

		if (!c) {
			c = calloc(CHUNK_LEN, sizeof(*c));
			if (!c)
				break;
			__atomic_store_n(&chunks[i >> CHUNK_BITS], c, __ATOMIC_RELEASE);
		}
		if (c[i & (CHUNK_LEN - 1)])
			continue;
		__atomic_store_n(&c[i & (CHUNK_LEN - 1)], e, __ATOMIC_RELEASE);
		first_free = i + 1;
		pthread_mutex_unlock(&fds_lock);
		return PL_FD_BASE + (int)i;
	}
	pthread_mutex_unlock(&fds_lock);
	free(e);
	return errno = EMFILE, -1;
}

int pl_fd_close(int fd)
{
	unsigned int i = (unsigned int)fd - PL_FD_BASE;
	struct fdent *e;

	pthread_mutex_lock(&fds_lock);
	e = ent_of(fd);
	if (e) {
		__atomic_store_n(&chunks[i >> CHUNK_BITS][i & (CHUNK_LEN - 1)], NULL, __ATOMIC_RELEASE);
		if (i < first_free)
			first_free = i;
	}
	pthread_mutex_unlock(&fds_lock);
	if (!e)
		return errno = EBADF, -1;
	/* another thread may still be inside a read of it: the kernel's fget would hold it too (rare) */
	pl_desc_put(e->d);
	free(e);
	return 0;
}

int pl_fd_getflags(int fd)
{
	struct fdent *e = ent_of(fd);

	return e ? e->fdflags : -1;
}

void pl_fd_setflags(int fd, int flags)
{
	struct fdent *e = ent_of(fd);

	if (e)
		e->fdflags = flags & FD_CLOEXEC;
}

struct pl_desc *pl_desc_new(const char *path, int flags, struct plb_file *f)
{
	struct pl_desc *d = calloc(1, sizeof(*d));

	if (!d || !(d->path = strdup(path))) {
		free(d);
		free(f->text);
		return errno = ENOMEM, NULL;
	}
	d->refs = 1;
	pthread_mutex_init(&d->lock, NULL);
	d->flags = flags & ~(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_CLOEXEC);
	d->f = *f;
	d->fresh = true;
	return d;
}

void pl_desc_put(struct pl_desc *d)
{
	if (__atomic_sub_fetch(&d->refs, 1, __ATOMIC_ACQ_REL))
		return;
	pthread_mutex_destroy(&d->lock);
	free(d->f.text);
	free(d->ents);
	free(d->path);
	free(d);
}

/* ------------------------------------------------------------------ */
/* Start-up, fork                                                       */

static void before_fork(void)
{
	pthread_mutex_lock(&fds_lock);
}

static void after_fork_parent(void)
{
	pthread_mutex_unlock(&fds_lock);
}

static void after_fork_child(void)
{
	pthread_mutex_init(&fds_lock, NULL);
	if (serving)
		plb_after_fork_child();
}

static void init(void)
{
	struct rlimit rl;

#define PL_BIND(name) real_##name = (__typeof__(real_##name))dlsym(RTLD_NEXT, #name);
	PL_REALS(PL_BIND)
#undef PL_BIND
	/* a process allowed descriptors in our range: it is left to the mount */
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_max >= (rlim_t)PL_FD_BASE)
		return;
	serving = plb_init();
	pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

bool pl_ready(void)
{
	pthread_once(&init_once, init);
	return serving;
}

/* ------------------------------------------------------------------ */
/* Paths                                                                */

/*
 * Collapse "//" and "/./" of absolute @in into @out; false for what we leave
 * to the kernel: "..", which depends on the symlinks before it, a trailing
 * slash, which a file refuses, and what does not fit.
 */
static bool normalise(const char *in, char *out, size_t size)
{
	size_t at = 0;

	for (const char *p = in; *p;) {
		const char *end;
		size_t len;

		while (*p == '/')
			p++;
		if (!*p)
			return p[-1] != '/' || at == 0 ? true : false;
		end = strchrnul(p, '/');
		len = (size_t)(end - p);
		if (len == 2 && p[0] == '.' && p[1] == '.')
			return false;
		if (!(len == 1 && p[0] == '.')) {
			if (at + 1 + len >= size)
				return false;
			out[at++] = '/';
			memcpy(out + at, p, len);
			at += len;
		}
		p = end;
	}
	if (!at)
		out[at++] = '/';
	out[at] = '\0';
	return true;
}

bool pl_our_path(int dirfd, const char *path, char *out)
{
	char joined[PL_PATH_MAX];

	if (!path || !pl_ready())
		return false;
	if (path[0] == '/') {
		if (!plb_candidate(path))
			return false;
		out[0] = '\0';
		return normalise(path, out, PL_PATH_MAX) && out[0] && plb_candidate(out);
	}
	{
		struct pl_desc *d = dirfd == AT_FDCWD ? NULL : pl_desc_of(dirfd);

		if (!d || !d->f.dir || !*path ||
		    snprintf(joined, sizeof(joined), "%s/%s", d->path, path) >= (int)sizeof(joined))
			return false;
	}
	return normalise(joined, out, PL_PATH_MAX) && plb_candidate(out);
}

/* ------------------------------------------------------------------ */
/* open                                                                 */

int pl_open_served(const char *path, int flags)
{
	struct plb_file f;
	struct pl_desc *d;
	int rc, fd;

	rc = plb_open(path, !(flags & O_NOFOLLOW), &f);
	if (rc)
		return rc == PLB_PASS ? PLB_PASS : (errno = -rc, -1);
	if ((flags & O_DIRECTORY) && !f.dir) {
		free(f.text);
		return errno = ENOTDIR, -1;
	}
	d = pl_desc_new(path, flags, &f);
	if (!d)
		return -1;
	fd = pl_fd_new(d, flags & O_CLOEXEC);
	if (fd < 0)
		pl_desc_put(d);
	return fd;
}

/*
 * Whether @flags ask for an unnamed temporary file.  O_TMPFILE includes
 * O_DIRECTORY's bit: testing any of its bits took every directory open for
 * one (and sent htop's opendir of /proc, and all below it, to the mount).
 */
static bool wants_tmpfile(int flags)
{
	return (flags & O_TMPFILE) == O_TMPFILE;
}

static int do_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	char abs[PL_PATH_MAX];
	int fd;

	/* writes, creation and O_PATH handles: the kernel's (a read-only mount) */
	if ((flags & (O_ACCMODE | O_CREAT | O_TRUNC | O_PATH)) || wants_tmpfile(flags) || !pl_our_path(dirfd, path, abs)) {
		if (pl_fd_ours(dirfd) && path && path[0] != '/') {
			/* relative to one of ours, but not served here: through the mount */
			struct pl_desc *d = pl_desc_of(dirfd);

			if (!d)
				return errno = EBADF, -1;
			if (snprintf(abs, sizeof(abs), "%s/%s", d->path, path) >= (int)sizeof(abs))
				return errno = ENAMETOOLONG, -1;
			return real_openat(AT_FDCWD, abs, flags, mode);
		}
		return real_openat(dirfd, path, flags, mode);
	}
	fd = pl_open_served(abs, flags);
	if (fd == PLB_PASS)
		return real_openat(AT_FDCWD, abs, flags, mode);
	return fd;
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & O_CREAT) || wants_tmpfile(flags) ? (mode_t)va_arg(ap, int) : 0;
}

EXPORT int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	pl_ready();
	return do_openat(AT_FDCWD, path, flags, mode);
}

EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	pl_ready();
	return do_openat(dirfd, path, flags, mode);
}

EXPORT int open64(const char *path, int flags, ...) __attribute__((alias("open")));
EXPORT int openat64(int dirfd, const char *path, int flags, ...) __attribute__((alias("openat")));

EXPORT int __open_2(const char *path, int flags)
{
	pl_ready();
	return do_openat(AT_FDCWD, path, flags, 0);
}

EXPORT int __open64_2(const char *path, int flags) __attribute__((alias("__open_2")));

EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
	pl_ready();
	return do_openat(dirfd, path, flags, 0);
}

EXPORT int __openat64_2(int dirfd, const char *path, int flags) __attribute__((alias("__openat_2")));

/* ------------------------------------------------------------------ */
/* read, seek, close                                                    */

void pl_rerender(struct pl_desc *d)
{
	struct plb_file f;
	int rc = plb_open(d->path, true, &f);

	if (rc == 0) {
		free(d->f.text);
		d->f = f;
	} else if (rc != PLB_PASS) {
		/* gone since it was opened: the end of the file, as the FUSE mount says */
		free(d->f.text);
		memset(&d->f, 0, sizeof(d->f));
	}
}

/* A read of our file @d at @off (under d->lock). */
static ssize_t read_file(struct pl_desc *d, void *buf, size_t n, off_t off)
{
	if (d->f.dir)
		return errno = EISDIR, -1;
	if (off == 0 && !d->fresh)
		pl_rerender(d);
	d->fresh = false;
	if (d->f.read_err)
		return errno = d->f.read_err, -1;
	if (off > 0 && d->f.whole_at_zero)
		return 0; /* the proc_dointvec family answers only a read from the start */
	if ((size_t)off >= d->f.len)
		return 0;
	if (n > d->f.len - (size_t)off)
		n = d->f.len - (size_t)off;
	memcpy(buf, d->f.text + off, n);
	return (ssize_t)n;
}

EXPORT ssize_t read(int fd, void *buf, size_t n)
{
	struct pl_desc *d;
	ssize_t got;

	if (!pl_fd_ours(fd)) {
		pl_ready();
		return real_read(fd, buf, n);
	}
	d = pl_desc_of(fd);
	if (!d)
		return errno = EBADF, -1;
	pthread_mutex_lock(&d->lock);
	got = read_file(d, buf, n, d->pos);
	if (got > 0)
		d->pos += got;
	pthread_mutex_unlock(&d->lock);
	return got;
}

EXPORT ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
	(void)buflen;
	return read(fd, buf, n);
}

EXPORT ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	struct pl_desc *d;
	ssize_t got;

	if (!pl_fd_ours(fd)) {
		pl_ready();
		return real_pread(fd, buf, n, off);
	}
	d = pl_desc_of(fd);
	if (!d)
		return errno = EBADF, -1;
	if (off < 0)
		return errno = EINVAL, -1;
	pthread_mutex_lock(&d->lock);
	got = read_file(d, buf, n, off);
	pthread_mutex_unlock(&d->lock);
	return got;
}

EXPORT ssize_t pread64(int fd, void *buf, size_t n, off_t off) __attribute__((alias("pread")));

EXPORT ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen)
{
	(void)buflen;
	return pread(fd, buf, n, off);
}

EXPORT ssize_t __pread64_chk(int fd, void *buf, size_t n, off_t off, size_t buflen)
	__attribute__((alias("__pread_chk")));

EXPORT ssize_t readv(int fd, const struct iovec *iov, int iovcnt)
{
	ssize_t total = 0;

	if (!pl_fd_ours(fd)) {
		pl_ready();
		return real_readv(fd, iov, iovcnt);
	}
	for (int i = 0; i < iovcnt; i++) {
		ssize_t got = read(fd, iov[i].iov_base, iov[i].iov_len);

		if (got < 0)
			return total ? total : -1;
		total += got;
		if ((size_t)got < iov[i].iov_len)
			break;
	}
	return total;
}

EXPORT off_t lseek(int fd, off_t off, int whence)
{
	struct pl_desc *d;
	off_t to;

	if (!pl_fd_ours(fd)) {
		pl_ready();
		return real_lseek(fd, off, whence);
	}
	d = pl_desc_of(fd);
	if (!d)
		return errno = EBADF, -1;
	pthread_mutex_lock(&d->lock);
	/* seq_lseek: SEEK_SET and SEEK_CUR; a directory's offset rewinds its listing at 0 */
	if (whence == SEEK_SET)
		to = off;
	else if (whence == SEEK_CUR)
		to = d->pos + off;
	else
		to = -1;
	if (to >= 0) {
		d->pos = to;
		if (d->f.dir && to == 0) {
			d->listed = false;
			d->next = 0;
		}
	}
	pthread_mutex_unlock(&d->lock);
	return to < 0 ? (errno = EINVAL, -1) : to;
}

EXPORT off_t lseek64(int fd, off_t off, int whence) __attribute__((alias("lseek")));

EXPORT int close(int fd)
{
	if (!pl_fd_ours(fd)) {
		pl_ready();
		return real_close(fd);
	}
	return pl_fd_close(fd);
}

/* ------------------------------------------------------------------ */
/* fcntl, dup                                                           */

int pl_materialise(int fd)
{
	struct pl_desc *d = pl_desc_of(fd);
	int rfd;

	if (!d)
		return errno = EBADF, -1;
	rfd = real_openat(AT_FDCWD, d->path, O_RDONLY | O_CLOEXEC | (d->f.dir ? O_DIRECTORY : 0));
	if (rfd >= 0 && !d->f.dir && d->pos)
		real_lseek(rfd, d->pos, SEEK_SET);
	return rfd;
}

/* A new descriptor of ours for what @fd stands for. */
static int dup_ours(int fd, bool cloexec)
{
	struct pl_desc *d = pl_desc_of(fd);
	int nfd;

	if (!d)
		return errno = EBADF, -1;
	__atomic_add_fetch(&d->refs, 1, __ATOMIC_ACQ_REL);
	nfd = pl_fd_new(d, cloexec);
	if (nfd < 0)
		pl_desc_put(d);
	return nfd;
}

EXPORT int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	long arg;
	struct pl_desc *d;

	va_start(ap, cmd);
	arg = va_arg(ap, long); /* every command's third argument fits a long or a pointer */
	va_end(ap);
	if (!pl_fd_ours(fd)) {
		pl_ready();
		return real_fcntl(fd, cmd, arg);
	}
	d = pl_desc_of(fd);
	if (!d)
		return errno = EBADF, -1;
	switch (cmd) {
	case F_GETFD:
		return pl_fd_getflags(fd);
	case F_SETFD:
		pl_fd_setflags(fd, (int)arg);
		return 0;
	case F_GETFL:
		return d->flags;
	case F_SETFL:
		d->flags = (d->flags & O_ACCMODE) | ((int)arg & ~O_ACCMODE);
		return 0;
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		return dup_ours(fd, cmd == F_DUPFD_CLOEXEC);
	default:
		return errno = EINVAL, -1;
	}
}

EXPORT int fcntl64(int fd, int cmd, ...) __attribute__((alias("fcntl")));

EXPORT int dup(int fd)
{
	if (!pl_fd_ours(fd)) {
		pl_ready();
		return real_dup(fd);
	}
	return dup_ours(fd, false);
}

/* dup2/dup3 from one of ours onto a real number: the mount opens it for real first. */
static int dup_onto(int fd, int nfd, int flags)
{
	int rfd, rc;

	if (pl_fd_ours(nfd)) {
		if (fd == nfd)
			return pl_desc_of(fd) ? nfd : (errno = EBADF, -1);
		return errno = EBADF, -1; /* our numbers are ours to give */
	}
	if (!pl_fd_ours(fd))
		return flags < 0 ? real_dup2(fd, nfd) : real_dup3(fd, nfd, flags);
	if (fd == nfd)
		return errno = EINVAL, -1;
	rfd = pl_materialise(fd);
	if (rfd < 0)
		return -1;
	rc = flags < 0 ? real_dup2(rfd, nfd) : real_dup3(rfd, nfd, flags);
	real_close(rfd);
	return rc;
}

EXPORT int dup2(int fd, int nfd)
{
	pl_ready();
	if (fd == nfd && !pl_fd_ours(fd))
		return real_dup2(fd, nfd);
	return dup_onto(fd, nfd, -1);
}

EXPORT int dup3(int fd, int nfd, int flags)
{
	pl_ready();
	return dup_onto(fd, nfd, flags);
}
