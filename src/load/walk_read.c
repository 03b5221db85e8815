// SPDX-License-Identifier: MIT
/*
 * walk_read.c - reading the files of a /proc tree for the walk (walk.h):
 * whole files, symlinks' targets, and the listings of fd/ and fdinfo/.
 *
 * On the live /proc all of a pid's files are read back to back into one
 * buffer allocated up front: reading does not allocate, so even
 * /proc/self keeps still between two of its files.  A tree somebody wrote
 * does not change, and is read with uf_read beneath it instead.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../util/readfile.h"
#include "../util/vec.h"
#include "walk.h"

/* The longest symlink target a tree's link may hold (PATH_MAX, as readlink of /proc gives). */
#define LINK_LIMIT 4096

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
	const struct mt_node *node;
	char *text;
	int fd, rc;

	*off = a->used;
	*len = 0;
	if (w->mem) {
		rc = ld_mem_file(w->mem, rel, UF_LIMIT_DEFAULT, &node);
		if (rc)
			return rc;
		if (node->len > a->cap - a->used)
			return -ENOBUFS;
		memcpy(a->buf + a->used, node->data, node->len);
		a->used += node->len;
		*len = node->len;
		return 0;
	}
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

/* A symlink member's target into the arena, as uf_readlink gives one (-ENOLINK: not a symlink). */
static int mem_readlink(struct walk *w, const char *rel, size_t *off, size_t *len)
{
	struct arena *a = &w->arena;
	const struct mt_node *node;
	int rc = ld_mem_find(w->mem, rel, &node);

	if (rc)
		return rc;
	if (node->type != 'l')
		return -ENOLINK;
	if (node->len >= LINK_LIMIT)
		return -ENAMETOOLONG;
	if (node->len > a->cap - a->used)
		return -ENOBUFS;
	memcpy(a->buf + a->used, node->data, node->len);
	a->used += node->len;
	*off = a->used - node->len;
	*len = node->len;
	return 0;
}

int ld_walk_peek(struct walk *w, const char *rel, const char **data, size_t *len)
{
	const struct mt_node *node;
	int rc = ld_mem_file(w->mem, rel, UF_LIMIT_DEFAULT, &node);

	*data = NULL;
	*len = 0;
	if (rc)
		return rc;
	*data = node->data;
	*len = node->len;
	return 0;
}

int ld_walk_readlink(struct walk *w, const char *rel, size_t *off, size_t *len)
{
	struct arena *a = &w->arena;
	long n;

	*off = a->used;
	*len = 0;
	if (a->cap - a->used < 4096)
		return -ENOBUFS;
	if (w->mem)
		return mem_readlink(w, rel, off, len);
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
	size_t dl = strlen(w->dir), rl = strlen(rel), sep = dl && w->dir[dl - 1] != '/';

	/* built for every file a walk parses: no printf */
	if (dl + sep + rl >= n) {
		snprintf(buf, n, "%s%s%s", w->dir, sep ? "/" : "", rel);
		return;
	}
	memcpy(buf, w->dir, dl);
	buf[dl] = '/';
	memcpy(buf + dl + sep, rel, rl + 1);
}

int ld_walk_error(struct walk *w, const char *rel, int rc)
{
	char path[4200];

	ld_walk_path(w, rel, path, sizeof(path));
	snprintf(w->err, w->errlen, "%s: %s", path, strerror(-rc));
	return rc;
}

void ld_walk_open_coll(struct walk *w, struct listing *l, const char *rel)
{
	l->node = NULL;
	if (w->mem) {
		l->fd = -1;
		l->rc = ld_mem_find(w->mem, rel, &l->node);
		if (!l->rc && l->node->type != 'd')
			l->rc = l->node->type == 'l' ? -ELOOP : -ENOTDIR;
		return;
	}
	l->fd = uf_open(w->dirfd, rel, w->uf_flags, O_DIRECTORY);
	l->rc = l->fd < 0 ? l->fd : 0;
}

void ld_walk_close_coll(struct listing *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	l->node = NULL;
}

/* An fd number as fs/proc/fd.c names it: decimal, no sign, no leading zero; -1 otherwise. */
static long fd_name(const char *s)
{
	long v = 0;

	if (!*s || (*s == '0' && s[1]))
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > INT32_MAX / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v;
}

static int inst_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* The fixed part of a getdents64 record. */
struct dirent64_hdr {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

int ld_walk_list_coll(struct listing *l)
{
	char buf[8192];
	size_t cap = 0;
	long n;

	if (l->node) {
		for (size_t i = 0; i < l->node->nkids; i++) {
			long v = fd_name(l->node->kids[i]->name);
			uint32_t *slot;

			if (v < 0)
				continue;
			slot = VEC_PUSH(l->insts, l->n, cap);
			if (!slot)
				return -ENOMEM;
			*slot = (uint32_t)v;
		}
		if (l->n)
			qsort(l->insts, l->n, sizeof(*l->insts), inst_cmp);
		return 0;
	}
	while ((n = syscall(SYS_getdents64, l->fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			const struct dirent64_hdr *d = (const struct dirent64_hdr *)(buf + off);
			long v = fd_name(d->d_name);
			uint32_t *slot;

			off += d->d_reclen;
			if (v < 0)
				continue;
			slot = VEC_PUSH(l->insts, l->n, cap);
			if (!slot)
				return -ENOMEM;
			*slot = (uint32_t)v;
		}
	}
	if (n < 0) {
		l->rc = -errno;
		return 0;
	}
	if (l->n) /* an empty directory has no array: qsort must not see NULL */
		qsort(l->insts, l->n, sizeof(*l->insts), inst_cmp);
	return 0;
}

/* "42" at @s: no sign, no leading zero, no more than an int holds. */
static bool id_name(const char *s, pid_t *id)
{
	long v = 0;

	if (*s < '1' || *s > '9')
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (*s - '0');
		if (v > INT32_MAX)
			return false;
	}
	*id = (pid_t)v;
	return true;
}

static int id_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* Append @name's id to *@ids when it is one; 0 or -ENOMEM. */
static int add_id(const char *name, pid_t **ids, size_t *n, size_t *cap)
{
	pid_t id, *slot;

	if (!id_name(name, &id))
		return 0;
	slot = VEC_PUSH(*ids, *n, *cap);
	if (!slot)
		return -ENOMEM;
	*slot = id;
	return 0;
}

/* The ids of directory @fd (closed here). */
static int fd_ids(int fd, pid_t **ids, size_t *n, size_t *cap)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	int rc = 0;

	if (!d) {
		rc = -errno;
		close(fd);
		return rc;
	}
	rewinddir(d); /* a dup()ed descriptor shares the offset of the one it copies */
	while (!rc && (de = readdir(d)))
		rc = add_id(de->d_name, ids, n, cap);
	closedir(d);
	return rc;
}

int ld_walk_list_ids(struct walk *w, const char *rel, pid_t **ids, size_t *n)
{
	const struct mt_node *node;
	size_t cap = 0;
	int rc;

	*ids = NULL;
	*n = 0;
	if (w->mem) {
		rc = ld_mem_find(w->mem, rel, &node);
		if (!rc && node->type != 'd')
			rc = node->type == 'l' ? -ELOOP : -ENOTDIR;
		for (size_t i = 0; !rc && i < node->nkids; i++)
			if (node->kids[i]->type == 'd')
				rc = add_id(node->kids[i]->name, ids, n, &cap);
	} else {
		int fd = strcmp(rel, ".") ? uf_open(w->dirfd, rel, w->uf_flags, O_DIRECTORY) : dup(w->dirfd);

		rc = fd < 0 ? (strcmp(rel, ".") ? fd : -errno) : fd_ids(fd, ids, n, &cap);
	}
	if (rc) {
		free(*ids);
		*ids = NULL;
		*n = 0;
	} else if (*n) {
		qsort(*ids, *n, sizeof(pid_t), id_cmp);
	}
	return rc;
}

int ld_walk_exists(struct walk *w, const char *rel)
{
	const struct mt_node *node;
	struct stat st;

	if (w->mem)
		return ld_mem_find(w->mem, rel, &node);
	return fstatat(w->dirfd, rel, &st, 0) ? -errno : 0;
}

int ld_walk_age(struct walk *w, const char *rel, int64_t *mtime_ns, size_t *order)
{
	const struct mt_node *node;
	struct stat st;
	int rc;

	*mtime_ns = 0;
	*order = 0;
	if (w->mem) {
		rc = ld_mem_find(w->mem, rel, &node);
		if (!rc) {
			*mtime_ns = node->mtime_ns;
			*order = node->order;
		}
		return rc;
	}
	if (fstatat(w->dirfd, rel, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	*mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	return 0;
}

int ld_walk_report(struct walk *w, const char *path, enum mach_load_status status, const char *reason,
		   const char *text, size_t len)
{
	return w->want_report ? ld_report_add(&w->rep, path, status, reason, text, len) : 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in directory @fd (closed here), sorted in byte order (ld_walk_free_names). */
int ld_walk_list_names(int fd, char ***out, size_t *n)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	size_t cap = 0;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (!d) {
		rc = -errno;
		close(fd);
		return rc;
	}
	while (!rc && (de = readdir(d))) {
		char **slot;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		slot = VEC_PUSH(*out, *n, cap);
		if (!slot || !(*slot = strdup(de->d_name)))
			rc = -ENOMEM;
		if (slot && rc)
			--*n;
	}
	closedir(d);
	if (!rc && *n)
		qsort(*out, *n, sizeof(**out), name_cmp);
	return rc;
}

void ld_walk_free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
