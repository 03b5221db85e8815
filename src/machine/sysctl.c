// SPDX-License-Identifier: MIT
/*
 * sysctl.c - the /proc/sys tree of the model (mach_sysctl.h): numbered
 * nodes, each directory's children kept sorted by name as the kernel's
 * rbtree of ctl_table entries lists them (byte order, a prefix first).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uprocfs/machine.h"

struct mach_sysctl *mach_sysctl_new(void)
{
	struct mach_sysctl *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->cap = 64;
	t->nodes = calloc(t->cap, sizeof(*t->nodes));
	if (!t->nodes) {
		free(t);
		return NULL;
	}
	t->n = 1;
	t->nodes[0] = (struct mach_sysctl_node){ .name = NULL, .parent = 0, .mode = 0555, .kind = MACH_SYSCTL_DIR };
	return t;
}

static void clear_value(struct mach_sysctl_node *n)
{
	free(n->vals);
	free(n->str);
	n->vals = NULL;
	n->str = NULL;
	n->nvals = 0;
	n->len = 0;
}

void mach_sysctl_free(struct mach_sysctl *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->n; i++) {
		clear_value(&t->nodes[i]);
		free(t->nodes[i].name);
		free(t->nodes[i].kids);
	}
	free(t->nodes);
	free(t);
}

/* memcmp order, a prefix before what it prefixes: the kernel's namecmp. */
static int name_cmp(const char *a, const char *b, size_t blen)
{
	size_t alen = strlen(a);
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c ? c : (alen > blen) - (alen < blen);
}

/* Where @name is or would go among @dir's children. */
static uint32_t kid_pos(const struct mach_sysctl *t, const struct mach_sysctl_node *dir, const char *name,
			size_t len, bool *found)
{
	uint32_t lo = 0, hi = dir->nkids;

	*found = false;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = name_cmp(t->nodes[dir->kids[mid]].name, name, len);

		if (c < 0) {
			lo = mid + 1;
		} else if (c > 0) {
			hi = mid;
		} else {
			*found = true;
			return mid;
		}
	}
	return lo;
}

int64_t mach_sysctl_lookup(const struct mach_sysctl *t, uint32_t dir, const char *name, size_t len)
{
	const struct mach_sysctl_node *d;
	uint32_t pos;
	bool found;

	if (!t || dir >= t->n || t->nodes[dir].kind != MACH_SYSCTL_DIR)
		return -1;
	d = &t->nodes[dir];
	pos = kid_pos(t, d, name, len, &found);
	return found ? (int64_t)d->kids[pos] : -1;
}

int64_t mach_sysctl_find(const struct mach_sysctl *t, const char *path)
{
	int64_t at = t ? 0 : -1;

	while (at >= 0 && *path) {
		const char *slash = strchr(path, '/');
		size_t len = slash ? (size_t)(slash - path) : strlen(path);

		at = mach_sysctl_lookup(t, (uint32_t)at, path, len);
		path += len + (slash != NULL);
	}
	return at;
}

int mach_sysctl_path(const struct mach_sysctl *t, uint32_t id, char *buf, size_t size)
{
	size_t at = size;

	if (!t || id >= t->n || !size)
		return -ENOENT;
	buf[--at] = '\0';
	/* from the node up to the root, writing backwards */
	for (uint32_t n = id; n; n = t->nodes[n].parent) {
		size_t len = strlen(t->nodes[n].name);

		if (at < len + (n != id))
			return -ENAMETOOLONG;
		if (n != id)
			buf[--at] = '/';
		at -= len;
		memcpy(buf + at, t->nodes[n].name, len);
	}
	memmove(buf, buf + at, size - at);
	return 0;
}

/* A new child @name of directory @dir at sorted position @pos: its number, or -ENOMEM. */
static int64_t add_kid(struct mach_sysctl *t, uint32_t dir, uint32_t pos, const char *name, size_t len, bool is_dir)
{
	struct mach_sysctl_node *d;
	uint32_t id = t->n, *kids;

	if (t->n == t->cap) {
		struct mach_sysctl_node *n = realloc(t->nodes, 2 * (size_t)t->cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->nodes = n;
		t->cap *= 2;
	}
	d = &t->nodes[dir];
	kids = realloc(d->kids, (d->nkids + 1) * sizeof(*kids));
	if (!kids)
		return -ENOMEM;
	d->kids = kids;
	t->nodes[id] = (struct mach_sysctl_node){ .parent = dir, .mode = is_dir ? 0555 : 0644,
						  .kind = is_dir ? MACH_SYSCTL_DIR : MACH_SYSCTL_STRING };
	t->nodes[id].name = strndup(name, len);
	if (!t->nodes[id].name)
		return -ENOMEM;
	memmove(&kids[pos + 1], &kids[pos], (d->nkids - pos) * sizeof(*kids));
	kids[pos] = id;
	d->nkids++;
	t->n++;
	return id;
}

int mach_sysctl_make(struct mach_sysctl *t, const char *path, bool dir, uint32_t *id)
{
	uint32_t at = 0;

	while (*path) {
		const char *slash = strchr(path, '/');
		size_t len = slash ? (size_t)(slash - path) : strlen(path);
		bool last = !slash || !slash[1], want_dir = !last || dir, found;
		uint32_t pos;
		int64_t kid;

		if (!len)
			return -EINVAL;
		pos = kid_pos(t, &t->nodes[at], path, len, &found);
		kid = found ? (int64_t)t->nodes[at].kids[pos] : add_kid(t, at, pos, path, len, want_dir);
		if (kid < 0)
			return (int)kid;
		if ((t->nodes[kid].kind == MACH_SYSCTL_DIR) != want_dir)
			return -ENOTDIR;
		at = (uint32_t)kid;
		path += len + (slash != NULL);
	}
	if (at && !dir) {
		clear_value(&t->nodes[at]);
		t->nodes[at].kind = MACH_SYSCTL_STRING;
		t->nodes[at].src = MACH_SYSCTL_OWN;
	}
	*id = at;
	return at || dir ? 0 : -EINVAL;
}

int mach_sysctl_set_nums(struct mach_sysctl *t, uint32_t id, const uint64_t *vals, uint32_t n, bool is_signed)
{
	struct mach_sysctl_node *node = &t->nodes[id];
	uint64_t *v = malloc((n ? n : 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	memcpy(v, vals, n * sizeof(*v));
	clear_value(node);
	node->kind = MACH_SYSCTL_NUMS;
	node->vals = v;
	node->nvals = n;
	node->is_signed = is_signed;
	return 0;
}

int mach_sysctl_set_string(struct mach_sysctl *t, uint32_t id, const char *s, size_t len)
{
	struct mach_sysctl_node *node = &t->nodes[id];
	char *copy = malloc(len + 1);

	if (!copy)
		return -ENOMEM;
	memcpy(copy, s, len);
	copy[len] = '\0';
	clear_value(node);
	node->kind = MACH_SYSCTL_STRING;
	node->str = copy;
	node->len = len;
	return 0;
}

void mach_sysctl_set_kind(struct mach_sysctl *t, uint32_t id, enum mach_sysctl_kind kind)
{
	clear_value(&t->nodes[id]);
	t->nodes[id].kind = (uint8_t)kind;
}

enum mach_sysctl_src mach_sysctl_src_of(const char *path)
{
	static const struct {
		const char *path;
		enum mach_sysctl_src src;
	} derived[] = {
		{ "kernel/osrelease", MACH_SYSCTL_SRC_OSRELEASE },
		{ "kernel/pid_max", MACH_SYSCTL_SRC_PID_MAX },
		{ "kernel/ns_last_pid", MACH_SYSCTL_SRC_NS_LAST_PID },
		{ "fs/file-nr", MACH_SYSCTL_SRC_FILE_NR },
		{ "kernel/random/uuid", MACH_SYSCTL_SRC_RANDOM_UUID },
	};

	for (size_t i = 0; i < sizeof(derived) / sizeof(derived[0]); i++)
		if (!strcmp(path, derived[i].path))
			return derived[i].src;
	return MACH_SYSCTL_OWN;
}
