// SPDX-License-Identifier: MIT
/*
 * preload_stdio.c - stdio streams over our descriptors (preload.c).
 *
 * The C library's own FILE reads its descriptor with an internal read that
 * no library can stand in for, so a served file opened with fopen (or one
 * of our descriptors given to fdopen) becomes a stream of functions
 * (fopencookie) that read through ours.  fileno of such a stream gives our
 * descriptor back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "preload_int.h"

/* Our streams and their descriptors: few are open at once. */
struct stream {
	struct stream *next;
	FILE *f;
	int fd;
};

static pthread_mutex_t streams_lock = PTHREAD_MUTEX_INITIALIZER;
static struct stream *streams;
static int nstreams;

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
	int fd = (int)(intptr_t)c;
	struct stream **pp, *s = NULL;

	pthread_mutex_lock(&streams_lock);
	for (pp = &streams; *pp; pp = &(*pp)->next)
		if ((*pp)->fd == fd) {
			s = *pp;
			*pp = s->next;
			__atomic_sub_fetch(&nstreams, 1, __ATOMIC_RELAXED);
			break;
		}
	pthread_mutex_unlock(&streams_lock);
	free(s);
	return close(fd);
}

/* A stream over our descriptor @fd (closed with it; on failure too). */
static FILE *stream_of(int fd, const char *mode)
{
	cookie_io_functions_t io = { .read = cookie_read, .seek = cookie_seek, .close = cookie_close };
	struct stream *s = malloc(sizeof(*s));
	FILE *f = s ? fopencookie((void *)(intptr_t)fd, mode, io) : NULL;

	if (!f) {
		free(s);
		close(fd);
		return NULL;
	}
	s->f = f;
	s->fd = fd;
	pthread_mutex_lock(&streams_lock);
	s->next = streams;
	streams = s;
	__atomic_add_fetch(&nstreams, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&streams_lock);
	return f;
}

EXPORT FILE *fdopen(int fd, const char *mode)
{
	if (!pl_fd_ours(fd)) {
		pl_ready();
		return real_fdopen(fd, mode);
	}
	if (!pl_desc_of(fd))
		return errno = EBADF, NULL;
	return stream_of(fd, mode);
}

EXPORT FILE *fopen(const char *path, const char *mode)
{
	char abs[PL_PATH_MAX];
	int fd;

	if (strpbrk(mode, "wa+") || !pl_our_path(AT_FDCWD, path, abs))
		return real_fopen(path, mode);
	fd = pl_open_served(abs, O_RDONLY | (strchr(mode, 'e') ? O_CLOEXEC : 0));
	if (fd == PLB_PASS)
		return real_fopen(path, mode);
	if (fd < 0)
		return NULL;
	return stream_of(fd, mode);
}

EXPORT FILE *fopen64(const char *path, const char *mode) __attribute__((alias("fopen")));

EXPORT int fileno(FILE *f)
{
	pl_ready();
	if (__atomic_load_n(&nstreams, __ATOMIC_RELAXED)) {
		int fd = -1;

		pthread_mutex_lock(&streams_lock);
		for (struct stream *s = streams; s; s = s->next)
			if (s->f == f)
				fd = s->fd;
		pthread_mutex_unlock(&streams_lock);
		if (fd >= 0)
			return fd;
	}
	return real_fileno(f);
}

EXPORT int fileno_unlocked(FILE *f) __attribute__((alias("fileno")));
