// SPDX-License-Identifier: MIT
/*
 * walk_read.c - reading the files of a /proc tree for the walk (walk.h).
 *
 * On the live /proc all of a pid's files are read back to back into one
 * buffer allocated up front: reading does not allocate, so even
 * /proc/self keeps still between two of its files.  A tree somebody wrote
 * does not change, and is read with uf_read beneath it instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/readfile.h"
#include "walk.h"

/* Pages are touched up front so that filling them later changes no RSS. */
int ld_arena_grow(struct arena *a, size_t cap)
{
	char *n;

	if (cap > ARENA_MAX)
		return -EFBIG;
	n = realloc(a->buf, cap);
	if (!n)
		return -ENOMEM;
	memset(n, 0, cap);
	a->buf = n;
	a->cap = cap;
	a->used = 0;
	return 0;
}

/* @fd's bytes into the arena, with no allocation: 0, -ENOBUFS when full, or -errno. */
static int read_fd(struct arena *a, int fd)
{
	for (;;) {
		ssize_t n;

		if (a->used == a->cap)
			return -ENOBUFS;
		n = read(fd, a->buf + a->used, a->cap - a->used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		a->used += (size_t)n;
	}
}

/*
 * Read @rel into the arena at *@off: 0, -ENOBUFS when it does not fit, or
 * -errno.  The live /proc is read straight into the arena; a written tree
 * through uf_read, which refuses what a /proc tree never holds (symlinks,
 * FIFOs, devices, huge files) and which may allocate, since such a tree
 * does not change while it is read.
 */
int ld_walk_read(struct walk *w, const char *rel, size_t *off, size_t *len)
{
	struct arena *a = &w->arena;
	char *text;
	int fd, rc;

	*off = a->used;
	*len = 0;
	if (w->uf_flags) {
		rc = uf_read(w->dirfd, rel, w->uf_flags, UF_LIMIT_DEFAULT, &text, len);
		if (rc)
			return rc;
		if (*len <= a->cap - a->used) {
			memcpy(a->buf + a->used, text, *len);
			a->used += *len;
		} else {
			rc = -ENOBUFS;
		}
		free(text);
		return rc;
	}
	fd = uf_open(w->dirfd, rel, 0, O_NOCTTY);
	if (fd < 0)
		return fd;
	rc = read_fd(a, fd);
	close(fd);
	*len = a->used - *off;
	return rc;
}

int ld_walk_readlink(struct walk *w, const char *rel, size_t *off, size_t *len)
{
	struct arena *a = &w->arena;
	long n;

	*off = a->used;
	*len = 0;
	if (a->cap - a->used < 4096)
		return -ENOBUFS;
	n = uf_readlink(w->dirfd, rel, w->uf_flags, a->buf + a->used, a->cap - a->used);
	if (n == -ENAMETOOLONG && a->cap - a->used < (size_t)1 << 16)
		return -ENOBUFS;
	if (n < 0)
		return (int)n;
	a->used += (size_t)n;
	*len = (size_t)n;
	return 0;
}

void ld_walk_path(const struct walk *w, const char *rel, char *buf, size_t n)
{
	size_t dl = strlen(w->dir);

	snprintf(buf, n, "%s%s%s", w->dir, dl && w->dir[dl - 1] == '/' ? "" : "/", rel);
}

int ld_walk_error(struct walk *w, const char *rel, int rc)
{
	char path[4200];

	ld_walk_path(w, rel, path, sizeof(path));
	snprintf(w->err, w->errlen, "%s: %s", path, strerror(-rc));
	return rc;
}
