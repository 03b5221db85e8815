// SPDX-License-Identifier: MIT
/*
 * walk_mem.c - a /proc tree held in memory (an archive read whole), indexed
 * for the walk: one node per member, each directory's entries sorted by
 * name, so that a path is found in a few binary searches and a directory is
 * listed in order.
 *
 * The members come from somebody else's archive: a path must stay beneath
 * the root (no "", "." or ".." component, no leading '/'), may appear only
 * once, and nothing lies beneath a file or a symlink.  Symlinks are text,
 * never followed: a path through one is -ELOOP, as uf_read says of a tree
 * on disk.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "walk.h"

#define PATH_LIMIT 4096

/* The length of the first component of @p (up to '/' or the end). */
static size_t comp_len(const char *p)
{
	const char *slash = strchr(p, '/');

	return slash ? (size_t)(slash - p) : strlen(p);
}

/* Whether @path is a clean relative path: components neither empty, "." nor "..", none longer than NAME_MAX. */
static bool clean_path(const char *path)
{
	const char *p = path;

	if (!*p || strlen(p) >= PATH_LIMIT)
		return false;
	for (;;) {
		size_t n = comp_len(p);

		if (!n || n > NAME_MAX || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		if (!p[n])
			return true;
		p += n + 1;
	}
}

/* Compare @a[0..alen) with the NUL-terminated @b, as strcmp would order them. */
static int name_cmp_n(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c ? c : (alen > blen) - (alen < blen);
}

/* The entry @name[0..len) of directory @d, by binary search; its index, or -1 (*@at: where it would go). */
static long kid_index(const struct mt_node *d, const char *name, size_t len, size_t *at)
{
	size_t lo = 0, hi = d->nkids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = name_cmp_n(name, len, d->kids[mid].name);

		if (!c)
			return (long)mid;
		if (c > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (at)
		*at = lo;
	return -1;
}

/* The directory entry @name[0..len) of @d, made (as a directory) when missing; NULL on ENOMEM. */
static struct mt_node *kid_make(struct mt_node *d, const char *name, size_t len)
{
	size_t at = 0;
	long i = kid_index(d, name, len, &at);
	char *copy;

	if (i >= 0)
		return &d->kids[i];
	if (d->nkids == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 4;
		struct mt_node *n = realloc(d->kids, cap * sizeof(*n));

		if (!n)
			return NULL;
		d->kids = n;
		d->cap = cap;
	}
	copy = strndup(name, len);
	if (!copy)
		return NULL;
	memmove(&d->kids[at + 1], &d->kids[at], (d->nkids - at) * sizeof(d->kids[0]));
	d->nkids++;
	/* made for its entries: no member of its own (yet) */
	d->kids[at] = (struct mt_node){ .name = copy, .type = 'd', .mode = 0555, .order = SIZE_MAX };
	return &d->kids[at];
}

/* By path, so that a directory's entries mostly arrive in name order (appended, not inserted). */
static int member_cmp(const void *a, const void *b, void *base)
{
	const struct mach_tree_member *m = base;

	return strcmp(m[*(const size_t *)a].path, m[*(const size_t *)b].path);
}

/* Enter member @m (index @order) under @root. */
static int enter(struct mt_node *root, const struct mach_tree_member *m, size_t order, char *err, size_t errlen)
{
	struct mt_node *d = root;
	const char *p = m->path;

	for (;;) {
		size_t n = comp_len(p);
		struct mt_node *k;

		if (d->type != 'd') {
			snprintf(err, errlen, "member \"%s\": beneath a %s", m->path,
				 d->type == 'l' ? "symlink" : "file");
			return -EINVAL;
		}
		k = kid_make(d, p, n);
		if (!k)
			return -ENOMEM;
		if (p[n]) {
			d = k;
			p += n + 1;
			continue;
		}
		/* a directory may be named again, and a file or link's parents before it */
		if (k->type == 'd' && m->type == 'd') {
			k->mode = m->mode;
			k->mtime_ns = m->mtime_ns;
			return 0;
		}
		if (k->order != SIZE_MAX || k->type != 'd' || k->nkids) {
			snprintf(err, errlen, "member \"%s\": given twice", m->path);
			return -EINVAL;
		}
		k->type = m->type;
		k->mode = m->mode;
		k->mtime_ns = m->mtime_ns;
		k->order = order;
		k->data = m->data;
		k->len = m->len;
		return 0;
	}
}

int ld_mem_build(const struct mach_tree_member *m, size_t n, struct mt_node *root, char *err, size_t errlen)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	int rc = 0;

	*root = (struct mt_node){ .name = "", .type = 'd', .mode = 0555 };
	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		idx[i] = i;
		if (!m[i].path || !clean_path(m[i].path) || (m[i].type != 'f' && m[i].type != 'd' && m[i].type != 'l') ||
		    (m[i].len && !m[i].data)) {
			snprintf(err, errlen, "member \"%s\": not a file, directory or symlink beneath the root",
				 m[i].path ? m[i].path : "(null)");
			free(idx);
			return -EINVAL;
		}
	}
	qsort_r(idx, n, sizeof(*idx), member_cmp, (void *)m);
	for (size_t i = 0; i < n && !rc; i++)
		rc = enter(root, &m[idx[i]], idx[i], err, errlen);
	free(idx);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (rc)
		ld_mem_free(root);
	return rc;
}

static void node_free(struct mt_node *d)
{
	for (size_t i = 0; i < d->nkids; i++) {
		node_free(&d->kids[i]);
		free((char *)d->kids[i].name);
	}
	free(d->kids);
	d->kids = NULL;
	d->nkids = d->cap = 0;
}

void ld_mem_free(struct mt_node *root)
{
	node_free(root);
}

int ld_mem_find(const struct mt_node *root, const char *rel, const struct mt_node **out)
{
	const struct mt_node *d = root;
	const char *p = rel;

	*out = NULL;
	if (!strcmp(p, ".") || !*p) {
		*out = root;
		return 0;
	}
	for (;;) {
		size_t n = comp_len(p);
		long i;

		if (d->type == 'l')
			return -ELOOP;
		if (d->type != 'd')
			return -ENOTDIR;
		i = kid_index(d, p, n, NULL);
		if (i < 0)
			return -ENOENT;
		d = &d->kids[i];
		if (!p[n])
			break;
		p += n + 1;
	}
	*out = d;
	return 0;
}

int ld_mem_file(const struct mt_node *root, const char *rel, size_t limit, const struct mt_node **out)
{
	int rc = ld_mem_find(root, rel, out);

	if (rc)
		return rc;
	if ((*out)->type == 'd')
		return -EISDIR;
	if ((*out)->type == 'l')
		return -ELOOP;
	return (*out)->len > limit ? -EFBIG : 0;
}
