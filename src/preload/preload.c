// SPDX-License-Identifier: MIT
/*
 * preload.c - the in-process transport: a library `uprocfs run --preload`
 * puts into the command's dynamically linked programs (LD_PRELOAD), which
 * answers their C library calls on /proc and /sys paths from the machine
 * mapped into the process (backend.h), so ps or top read a file with no
 * syscall at all.  Everything else, and every path the backend passes on,
 * goes to the real call, and so to the FUSE mount; statically linked
 * programs never see this library and use the mount too.
 *
 * A served file gets a real descriptor (a duplicate of /dev/null: select,
 * poll and close work on it) whose reads, seeks and stats are answered here
 * from the text rendered at open; a read at offset 0 after a seek back
 * renders it again, as the kernel's seq_file does.  Directories opened with
 * opendir are answered from the table; a directory descriptor (open with
 * O_DIRECTORY, dirfd) is real and remembered by path for openat and fstatat.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"

#define EXPORT __attribute__((visibility("default")))
#define PATH_MAX_PL 4096

/* ------------------------------------------------------------------ */
/* The real calls                                                       */

#define REAL(name) static __typeof__(name) *real_##name
REAL(open); REAL(openat); REAL(read); REAL(pread); REAL(lseek); REAL(close); REAL(fstat); REAL(stat);
REAL(lstat); REAL(fstatat); REAL(readlink); REAL(readlinkat); REAL(access); REAL(faccessat); REAL(opendir);
REAL(fdopendir); REAL(readdir); REAL(closedir); REAL(dirfd); REAL(rewinddir); REAL(fopen); REAL(fdopen);

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static bool serving;
static int devnull = -1;

static void init(void)
{
#define BIND(name) real_##name = (__typeof__(real_##name))dlsym(RTLD_NEXT, #name)
	BIND(open); BIND(openat); BIND(read); BIND(pread); BIND(lseek); BIND(close); BIND(fstat); BIND(stat);
	BIND(lstat); BIND(fstatat); BIND(readlink); BIND(readlinkat); BIND(access); BIND(faccessat);
	BIND(opendir); BIND(fdopendir); BIND(readdir); BIND(closedir); BIND(dirfd); BIND(rewinddir);
	BIND(fopen); BIND(fdopen);
#undef BIND
	devnull = real_open("/dev/null", O_RDONLY | O_CLOEXEC);
	serving = devnull >= 0 && plb_init();
}

static bool ready(void)
{
	pthread_once(&init_once, init);
	return serving;
}

/* ------------------------------------------------------------------ */
/* Descriptors                                                          */

/* What a descriptor of ours is: a served file, or a real directory of a served tree. */
struct fdstate {
	bool file;
	bool fresh;           /* the text was rendered by open: the first read at 0 takes it as is */
	char *text;
	size_t len;
	off_t pos;
	char *path;           /* the file's or directory's absolute path */
};

/*
 * Descriptor states in chunks of 1024, allocated when first needed and
 * never moved: every read() looks here, from any thread, without a lock.
 */
#define CHUNK_BITS 10
#define NCHUNKS 1024 /* 1M descriptors */

static pthread_mutex_t fds_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fdstate **chunks[NCHUNKS];

static struct fdstate *state_of(int fd)
{
	struct fdstate **c;

	if (fd < 0 || (fd >> CHUNK_BITS) >= NCHUNKS)
		return NULL;
	c = __atomic_load_n(&chunks[fd >> CHUNK_BITS], __ATOMIC_ACQUIRE);
	return c ? __atomic_load_n(&c[fd & ((1 << CHUNK_BITS) - 1)], __ATOMIC_ACQUIRE) : NULL;
}

static int remember(int fd, struct fdstate *st)
{
	struct fdstate **c;

	if (fd < 0 || (fd >> CHUNK_BITS) >= NCHUNKS)
		return -EMFILE;
	pthread_mutex_lock(&fds_lock);
	c = chunks[fd >> CHUNK_BITS];
	if (!c) {
		c = calloc(1u << CHUNK_BITS, sizeof(*c));
		if (!c) {
			pthread_mutex_unlock(&fds_lock);
			return -ENOMEM;
		}
		__atomic_store_n(&chunks[fd >> CHUNK_BITS], c, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&c[fd & ((1 << CHUNK_BITS) - 1)], st, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&fds_lock);
	return 0;
}

/* Drop what we know of @fd (called under fds_lock). */
static void forget(int fd)
{
	struct fdstate *st = state_of(fd);

	if (!st)
		return;
	__atomic_store_n(&chunks[fd >> CHUNK_BITS][fd & ((1 << CHUNK_BITS) - 1)], NULL, __ATOMIC_RELEASE);
	free(st->text);
	free(st->path);
	free(st);
}

/* ------------------------------------------------------------------ */
/* Paths                                                                */

/* Collapse "//", "/./" and "dir/.." of an absolute path into @out; false if it does not fit. */
static bool normalise(const char *in, char *out, size_t size)
{
	size_t at = 0;

	for (const char *p = in; *p;) {
		const char *end;
		size_t len;

		while (*p == '/')
			p++;
		end = strchrnul(p, '/');
		len = (size_t)(end - p);
		if (len == 1 && p[0] == '.') {
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (at > 0 && out[at - 1] != '/')
				at--;
			if (at > 0)
				at--;
		} else if (len) {
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

/*
 * The absolute path @path names relative to @dirfd, if it may be one of
 * ours (under /proc or /sys).  Relative paths count only against a
 * directory descriptor we remember; the current directory is the kernel's.
 */
static bool our_path(int dirfd, const char *path, char *out)
{
	char joined[PATH_MAX_PL];

	if (!path || !ready())
		return false;
	if (path[0] == '/') {
		if (!plb_candidate(path))
			return false;
		return normalise(path, out, PATH_MAX_PL) && plb_candidate(out);
	}
	{
		struct fdstate *st = dirfd == AT_FDCWD ? NULL : state_of(dirfd);

		if (!st || st->file || snprintf(joined, sizeof(joined), "%s/%s", st->path, path) >= (int)sizeof(joined))
			return false;
	}
	return normalise(joined, out, PATH_MAX_PL) && plb_candidate(out);
}

/* ------------------------------------------------------------------ */
/* open                                                                 */

/* Open served file @path: a duplicate of /dev/null that stands for it.  A descriptor, or -1 with errno. */
static int open_served(const char *path, int flags)
{
	struct fdstate *st = calloc(1, sizeof(*st));
	int rc, fd;

	if (!st)
		return errno = ENOMEM, -1;
	if ((flags & O_ACCMODE) != O_RDONLY) {
		free(st);
		return errno = EROFS, -1; /* the served tree is read only */
	}
	rc = plb_render(path, &st->text, &st->len);
	if (rc) {
		free(st);
		return errno = -rc, -1;
	}
	fd = fcntl(devnull, (flags & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
	st->file = true;
	st->fresh = true;
	st->path = strdup(path);
	if (fd < 0 || !st->path || remember(fd, st)) {
		int e = fd < 0 ? errno : ENOMEM;

		if (fd >= 0)
			real_close(fd);
		free(st->text);
		free(st->path);
		free(st);
		return errno = e, -1;
	}
	return fd;
}

/* After a real open of a directory under a served tree: remember its path for openat. */
static int track_dir(int fd, const char *path)
{
	struct fdstate *st;
	struct stat sb;

	if (fd < 0 || real_fstat(fd, &sb) || !S_ISDIR(sb.st_mode))
		return fd;
	st = calloc(1, sizeof(*st));
	if (st && (st->path = strdup(path)) && !remember(fd, st))
		return fd;
	if (st)
		free(st->path);
	free(st);
	return fd;
}

static int do_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	char abs[PATH_MAX_PL];
	struct stat sb;
	int rc;

	if (!our_path(dirfd, path, abs))
		return real_openat(dirfd, path, flags, mode);
	rc = plb_stat(abs, !(flags & O_NOFOLLOW), &sb);
	if (rc == PLB_PASS || (rc == 0 && S_ISDIR(sb.st_mode)))
		return track_dir(real_openat(dirfd, path, flags, mode), abs);
	if (rc)
		return errno = -rc, -1;
	if (flags & O_DIRECTORY)
		return errno = ENOTDIR, -1;
	return open_served(abs, flags);
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & (O_CREAT | __O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

EXPORT int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	ready();
	return do_openat(AT_FDCWD, path, flags, mode);
}

EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	ready();
	return do_openat(dirfd, path, flags, mode);
}

EXPORT int open64(const char *path, int flags, ...) __attribute__((alias("open")));
EXPORT int openat64(int dirfd, const char *path, int flags, ...) __attribute__((alias("openat")));

EXPORT int __open_2(const char *path, int flags)
{
	ready();
	return do_openat(AT_FDCWD, path, flags, 0);
}

EXPORT int __open64_2(const char *path, int flags) __attribute__((alias("__open_2")));

EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
	ready();
	return do_openat(dirfd, path, flags, 0);
}

EXPORT int __openat64_2(int dirfd, const char *path, int flags) __attribute__((alias("__openat_2")));

/* ------------------------------------------------------------------ */
/* read, seek, close, fstat                                             */

/* Copy from served file @st at @off; a read at 0 that is not the first renders the file anew. */
static ssize_t read_served(struct fdstate *st, void *buf, size_t n, off_t off)
{
	if (off == 0 && !st->fresh) {
		char *text;
		size_t len;
		int rc = plb_render(st->path, &text, &len);

		if (rc == 0) {
			free(st->text);
			st->text = text;
			st->len = len;
		} else if (rc < 0) {
			return errno = -rc, -1;
		}
	}
	st->fresh = false;
	if ((size_t)off >= st->len)
		return 0;
	if (n > st->len - (size_t)off)
		n = st->len - (size_t)off;
	memcpy(buf, st->text + off, n);
	return (ssize_t)n;
}

EXPORT ssize_t read(int fd, void *buf, size_t n)
{
	struct fdstate *st = state_of(fd);
	ssize_t got;

	if (!st || !st->file) {
		ready();
		return real_read(fd, buf, n);
	}
	got = read_served(st, buf, n, st->pos);
	if (got > 0)
		st->pos += got;
	return got;
}

EXPORT ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
	(void)buflen;
	return read(fd, buf, n);
}

EXPORT ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	struct fdstate *st = state_of(fd);

	if (!st || !st->file) {
		ready();
		return real_pread(fd, buf, n, off);
	}
	if (off < 0)
		return errno = EINVAL, -1;
	return read_served(st, buf, n, off);
}

EXPORT ssize_t pread64(int fd, void *buf, size_t n, off_t off) __attribute__((alias("pread")));

EXPORT off_t lseek(int fd, off_t off, int whence)
{
	struct fdstate *st = state_of(fd);
	off_t to;

	if (!st || !st->file) {
		ready();
		return real_lseek(fd, off, whence);
	}
	/* seq_lseek: SEEK_SET and SEEK_CUR only */
	if (whence == SEEK_SET)
		to = off;
	else if (whence == SEEK_CUR)
		to = st->pos + off;
	else
		return errno = EINVAL, -1;
	if (to < 0)
		return errno = EINVAL, -1;
	st->pos = to;
	return to;
}

EXPORT off_t lseek64(int fd, off_t off, int whence) __attribute__((alias("lseek")));

EXPORT int close(int fd)
{
	ready();
	if (state_of(fd)) {
		pthread_mutex_lock(&fds_lock);
		forget(fd);
		pthread_mutex_unlock(&fds_lock);
	}
	return real_close(fd);
}

EXPORT int fstat(int fd, struct stat *sb)
{
	struct fdstate *st = state_of(fd);
	int rc;

	if (!st || !st->file) {
		ready();
		return real_fstat(fd, sb);
	}
	rc = plb_stat(st->path, true, sb);
	if (rc == PLB_PASS)
		return real_fstat(fd, sb);
	return rc ? (errno = -rc, -1) : 0;
}

EXPORT int fstat64(int fd, struct stat *sb) __attribute__((alias("fstat")));

/* ------------------------------------------------------------------ */
/* stat, access, readlink                                               */

static int do_fstatat(int dirfd, const char *path, struct stat *sb, int flags)
{
	char abs[PATH_MAX_PL];
	int rc;

	if ((flags & AT_EMPTY_PATH) && path && !*path)
		return fstat(dirfd, sb);
	if (!our_path(dirfd, path, abs))
		return real_fstatat(dirfd, path, sb, flags);
	rc = plb_stat(abs, !(flags & AT_SYMLINK_NOFOLLOW), sb);
	if (rc == PLB_PASS)
		return real_fstatat(dirfd, path, sb, flags);
	return rc ? (errno = -rc, -1) : 0;
}

EXPORT int fstatat(int dirfd, const char *path, struct stat *sb, int flags)
{
	ready();
	return do_fstatat(dirfd, path, sb, flags);
}

EXPORT int fstatat64(int dirfd, const char *path, struct stat *sb, int flags) __attribute__((alias("fstatat")));

EXPORT int stat(const char *path, struct stat *sb)
{
	ready();
	return do_fstatat(AT_FDCWD, path, sb, 0);
}

EXPORT int stat64(const char *path, struct stat *sb) __attribute__((alias("stat")));

EXPORT int lstat(const char *path, struct stat *sb)
{
	ready();
	return do_fstatat(AT_FDCWD, path, sb, AT_SYMLINK_NOFOLLOW);
}

EXPORT int lstat64(const char *path, struct stat *sb) __attribute__((alias("lstat")));

static int do_faccessat(int dirfd, const char *path, int mode, int flags)
{
	char abs[PATH_MAX_PL];
	struct stat sb;
	int rc;

	if (!our_path(dirfd, path, abs))
		return real_faccessat(dirfd, path, mode, flags);
	rc = plb_stat(abs, !(flags & AT_SYMLINK_NOFOLLOW), &sb);
	if (rc == PLB_PASS)
		return real_faccessat(dirfd, path, mode, flags);
	if (rc)
		return errno = -rc, -1;
	if (mode & W_OK)
		return errno = EROFS, -1;
	return 0; /* existence; read and search rights are checked when the file is opened */
}

EXPORT int access(const char *path, int mode)
{
	ready();
	return do_faccessat(AT_FDCWD, path, mode, 0);
}

EXPORT int faccessat(int dirfd, const char *path, int mode, int flags)
{
	ready();
	return do_faccessat(dirfd, path, mode, flags);
}

static ssize_t do_readlinkat(int dirfd, const char *path, char *buf, size_t size)
{
	char abs[PATH_MAX_PL];
	size_t len;
	int rc;

	if (!our_path(dirfd, path, abs))
		return real_readlinkat(dirfd, path, buf, size);
	rc = plb_readlink(abs, buf, size, &len);
	if (rc == PLB_PASS)
		return real_readlinkat(dirfd, path, buf, size);
	return rc ? (errno = -rc, -1) : (ssize_t)len;
}

EXPORT ssize_t readlink(const char *path, char *buf, size_t size)
{
	ready();
	return do_readlinkat(AT_FDCWD, path, buf, size);
}

EXPORT ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t size)
{
	ready();
	return do_readlinkat(dirfd, path, buf, size);
}

/* ------------------------------------------------------------------ */
/* Directories                                                          */

/* A served directory stream: our entries, and a real descriptor of the directory for dirfd(). */
struct pldir {
	struct pldir *next;
	struct plb_dirent *ents;
	size_t n, pos;
	int fd;
	struct dirent out;
};

static pthread_mutex_t dirs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pldir *dirs;

static struct pldir *ours(DIR *d)
{
	struct pldir *p;

	pthread_mutex_lock(&dirs_lock);
	for (p = dirs; p && (DIR *)p != d; p = p->next)
		;
	pthread_mutex_unlock(&dirs_lock);
	return p;
}

/* A served directory stream over @path, with @fd (real, or -1) for dirfd(); NULL with errno, or PASS. */
static DIR *open_dir(const char *path, int fd, bool *pass)
{
	struct pldir *p = calloc(1, sizeof(*p));
	int rc;

	*pass = false;
	if (!p)
		return errno = ENOMEM, NULL;
	rc = plb_list(path, &p->ents, &p->n);
	if (rc) {
		free(p);
		*pass = rc == PLB_PASS;
		return errno = rc < 0 ? -rc : errno, NULL;
	}
	p->fd = fd;
	pthread_mutex_lock(&dirs_lock);
	p->next = dirs;
	dirs = p;
	pthread_mutex_unlock(&dirs_lock);
	return (DIR *)p;
}

EXPORT DIR *opendir(const char *path)
{
	char abs[PATH_MAX_PL];
	bool pass;
	DIR *d;
	int fd;

	if (!our_path(AT_FDCWD, path, abs))
		return real_opendir(path);
	/* the real directory, for dirfd() and openat: the mount knows it too */
	fd = track_dir(real_open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), abs);
	d = open_dir(abs, fd, &pass);
	if (!d && fd >= 0)
		close(fd);
	return pass ? real_opendir(path) : d;
}

EXPORT DIR *fdopendir(int fd)
{
	struct fdstate *st = state_of(fd);
	bool pass;
	DIR *d;

	if (!st || st->file) {
		ready();
		return real_fdopendir(fd);
	}
	d = open_dir(st->path, fd, &pass);
	return pass ? real_fdopendir(fd) : d;
}

EXPORT struct dirent *readdir(DIR *d)
{
	struct pldir *p = ours(d);
	const struct plb_dirent *e;

	if (!p) {
		ready();
		return real_readdir(d);
	}
	if (p->pos >= p->n)
		return NULL;
	e = &p->ents[p->pos++];
	p->out.d_ino = e->ino;
	p->out.d_off = (off_t)p->pos;
	p->out.d_reclen = sizeof(p->out);
	p->out.d_type = e->type;
	snprintf(p->out.d_name, sizeof(p->out.d_name), "%s", e->name);
	return &p->out;
}

EXPORT struct dirent *readdir64(DIR *d) __attribute__((alias("readdir")));

EXPORT int closedir(DIR *d)
{
	struct pldir *p = ours(d), **pp;

	if (!p) {
		ready();
		return real_closedir(d);
	}
	pthread_mutex_lock(&dirs_lock);
	for (pp = &dirs; *pp != p; pp = &(*pp)->next)
		;
	*pp = p->next;
	pthread_mutex_unlock(&dirs_lock);
	if (p->fd >= 0)
		close(p->fd);
	free(p->ents);
	free(p);
	return 0;
}

EXPORT int dirfd(DIR *d)
{
	struct pldir *p = ours(d);

	if (!p) {
		ready();
		return real_dirfd(d);
	}
	return p->fd >= 0 ? p->fd : (errno = ENOTSUP, -1);
}

EXPORT void rewinddir(DIR *d)
{
	struct pldir *p = ours(d);

	if (!p) {
		ready();
		real_rewinddir(d);
		return;
	}
	p->pos = 0;
}

/* ------------------------------------------------------------------ */
/* stdio                                                                */

static ssize_t cookie_read(void *c, char *buf, size_t n)
{
	return read((int)(intptr_t)c, buf, n);
}

static int cookie_seek(void *c, off64_t *off, int whence)
{
	off_t to = lseek((int)(intptr_t)c, *off, whence);

	if (to < 0)
		return -1;
	*off = to;
	return 0;
}

static int cookie_close(void *c)
{
	return close((int)(intptr_t)c);
}

/* A stdio stream over served descriptor @fd (stdio reads it through our read). */
static FILE *stream(int fd, const char *mode)
{
	cookie_io_functions_t io = { .read = cookie_read, .seek = cookie_seek, .close = cookie_close };
	FILE *f = fopencookie((void *)(intptr_t)fd, mode, io);

	if (!f)
		close(fd);
	return f;
}

EXPORT FILE *fdopen(int fd, const char *mode)
{
	struct fdstate *st = state_of(fd);

	if (!st || !st->file) {
		ready();
		return real_fdopen(fd, mode);
	}
	return stream(fd, mode);
}

EXPORT FILE *fopen(const char *path, const char *mode)
{
	char abs[PATH_MAX_PL];
	int fd;

	if (!our_path(AT_FDCWD, path, abs) || strpbrk(mode, "wa+"))
		return real_fopen(path, mode);
	fd = do_openat(AT_FDCWD, path, O_RDONLY | (strchr(mode, 'e') ? O_CLOEXEC : 0), 0);
	if (fd < 0)
		return NULL;
	return state_of(fd) && state_of(fd)->file ? stream(fd, mode) : real_fdopen(fd, mode);
}

EXPORT FILE *fopen64(const char *path, const char *mode) __attribute__((alias("fopen")));
