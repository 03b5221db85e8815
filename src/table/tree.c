// SPDX-License-Identifier: MIT
/*
 * tree.c - the served tree as the file table shapes it: which entries are
 * the children of which directory, the one path parser, node paths, and
 * binding a node to a model for reading.
 *
 * A directory is a scope and a prefix inside it: the root is (global, ""),
 * a pid directory (tgid, ""), task/<tid> (tid, ""), /proc/<pid>/ns is
 * (tgid, "ns").  Its children are the entries of that scope whose path is
 * the prefix plus one component; they are found once, on first use.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "table_int.h"

/* Entries are few (hundreds); a directory's children are a short list of indexes. */
#define MAX_ENTRIES 4096
#define NO_DIR (-1)

struct dir_children {
	unsigned int n;
	unsigned short *idx;
};

/* [scope][1 + directory entry index]; slot 0 is the scope's own root. */
static struct dir_children *children[PFS_NR_SCOPES];
static pthread_once_t children_once = PTHREAD_ONCE_INIT;

/* Length of the directory part of @path ("a/b/c" -> 3, "c" -> 0). */
static size_t parent_len(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? (size_t)(slash - path) : 0;
}

/* The directory entry (index) whose path is @path[0..len) in @scope, NO_DIR for the scope root. */
static int dir_index(enum pfs_scope scope, const char *path, size_t len)
{
	if (!len)
		return NO_DIR;
	for (size_t i = 0; i < pfs_nentries; i++) {
		const struct pfs_entry *e = &pfs_entries[i];

		if (e->kind == PFS_DIR && (e->scopes & PFS_IN(scope)) && strlen(e->path) == len &&
		    !memcmp(e->path, path, len))
			return (int)i;
	}
	return -2; /* an undeclared directory: a table error, caught by the table test */
}

static void build_children(void)
{
	for (int s = 0; s < PFS_NR_SCOPES; s++) {
		struct dir_children *dc = calloc(pfs_nentries + 1, sizeof(*dc));

		if (!dc)
			abort(); /* at start-up, a few kilobytes: nothing sensible to serve without it */
		for (size_t i = 0; i < pfs_nentries && i < MAX_ENTRIES; i++) {
			const struct pfs_entry *e = &pfs_entries[i];
			int d;

			if (!(e->scopes & PFS_IN(s)))
				continue;
			d = dir_index((enum pfs_scope)s, e->path, parent_len(e->path));
			if (d < NO_DIR)
				continue;
			struct dir_children *slot = &dc[d + 1];
			unsigned short *n = realloc(slot->idx, (slot->n + 1) * sizeof(*n));
			if (!n)
				abort();
			slot->idx = n;
			slot->idx[slot->n++] = (unsigned short)i;
		}
		children[s] = dc;
	}
}

/* The scope and directory slot whose children @dir lists; false if @dir is not a directory. */
static bool dir_slot(const struct pfs_node *dir, enum pfs_scope *scope, const struct dir_children **dc)
{
	const struct pfs_entry *e = dir->entry;

	pthread_once(&children_once, build_children);
	if (!e) {
		*scope = PFS_SCOPE_GLOBAL;
		*dc = &children[PFS_SCOPE_GLOBAL][0];
		return true;
	}
	if (e->kind != PFS_DIR)
		return false;
	if (e->coll == PFS_COLL_PIDS || e->coll == PFS_COLL_TIDS) {
		*scope = e->child_scope;
		*dc = &children[e->child_scope][0];
		return true;
	}
	*scope = dir->scope;
	*dc = &children[dir->scope][pfs_entry_index(e) + 1];
	return true;
}

bool pfs_node_is_dir(const struct pfs_node *n)
{
	return !n->entry || n->entry->kind == PFS_DIR;
}

mode_t pfs_node_mode(const struct pfs_node *n)
{
	if (!n->entry)
		return S_IFDIR | 0555;
	switch (n->entry->kind) {
	case PFS_DIR:
		return S_IFDIR | (n->entry->mode & 07777);
	case PFS_LINK:
		return S_IFLNK | 0777;
	default:
		return S_IFREG | (n->entry->mode & 07777);
	}
}

static const char *last_component(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* A decimal id component: 1..2^25-1, no sign, no leading zero; 0 if it is not one. */
static uint32_t parse_id(const char *s)
{
	uint32_t v = 0;

	if (!*s || *s == '0')
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v >= (1u << 25) / 10)
			return 0;
		v = v * 10 + (uint32_t)(*s - '0');
	}
	return v < (1u << 25) ? v : 0;
}

/* Place a "*" child: pids and tids root scopes, other collections are leaves. */
static int child_instance(const struct pfs_entry *e, const char *name, struct pfs_node *out)
{
	/* fd 0 is a name; "00" is not */
	uint32_t id = pfs_coll_is_leaf(e->coll) && !strcmp(name, "0") ? 0 : parse_id(name);

	if (!id && strcmp(name, "0"))
		return -ENOENT;
	if (!id && !pfs_coll_is_leaf(e->coll))
		return -ENOENT;
	switch (e->coll) {
	case PFS_COLL_PIDS:
		out->pid = (pid_t)id;
		return 0;
	case PFS_COLL_TIDS:
		out->tid = (pid_t)id;
		return 0;
	default:
		out->inst = id;
		return 0;
	}
}

int pfs_child(const struct pfs_node *dir, const char *name, struct pfs_node *out)
{
	const struct dir_children *dc;
	enum pfs_scope scope;

	if (!dir_slot(dir, &scope, &dc))
		return -ENOTDIR;
	if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
		return -ENOENT;
	for (unsigned int i = 0; i < dc->n; i++) {
		const struct pfs_entry *e = &pfs_entries[dc->idx[i]];
		const char *last = last_component(e->path);

		*out = (struct pfs_node){ .entry = e, .scope = scope, .pid = dir->pid, .tid = dir->tid,
					  .inst = dir->inst };
		if (last[0] == '*' && !last[1]) {
			if (!child_instance(e, name, out))
				return 0;
		} else if (!strcmp(last, name)) {
			return 0;
		}
	}
	return -ENOENT;
}

bool pfs_node_exists(const struct pfs_node *n, const struct pfs_ctx *c)
{
	struct pfs_ctx own;

	if (!n->entry || !n->entry->exists || !c)
		return true;
	own = *c;
	own.arg = n->entry->arg;
	own.inst = n->inst;
	return n->entry->exists(&own);
}

bool pfs_dir_next(const struct pfs_node *dir, const struct pfs_ctx *c, unsigned int *pos,
		  const char **name, struct pfs_node *out)
{
	const struct dir_children *dc;
	enum pfs_scope scope;

	if (!dir_slot(dir, &scope, &dc))
		return false;
	while (*pos < dc->n) {
		const struct pfs_entry *e = &pfs_entries[dc->idx[(*pos)++]];
		const char *last = last_component(e->path);

		if (last[0] == '*' && !last[1])
			continue; /* collections are listed by whoever knows the instances */
		*out = (struct pfs_node){ .entry = e, .scope = scope, .pid = dir->pid, .tid = dir->tid,
					  .inst = dir->inst };
		if (!pfs_node_exists(out, c))
			continue;
		*name = last;
		return true;
	}
	return false;
}

const struct pfs_entry *pfs_dir_coll(const struct pfs_node *dir)
{
	const struct dir_children *dc;
	enum pfs_scope scope;

	if (!dir_slot(dir, &scope, &dc))
		return NULL;
	for (unsigned int i = 0; i < dc->n; i++) {
		const struct pfs_entry *e = &pfs_entries[dc->idx[i]];
		const char *last = last_component(e->path);

		if (last[0] == '*' && !last[1])
			return e;
	}
	return NULL;
}

int pfs_parse_path(const char *path, struct pfs_node *out, char *err, size_t errlen)
{
	const char *p = path;
	char part[256];

	*out = pfs_root();
	if (!strncmp(p, "/proc/", 6))
		p += 6;
	else if (!strcmp(p, "/proc"))
		p += 5;
	else if (*p == '/')
		goto no_file;
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		struct pfs_node child;

		if (len >= sizeof(part))
			goto no_file;
		memcpy(part, p, len);
		part[len] = '\0';
		if (len && pfs_child(out, part, &child))
			goto no_file;
		if (len)
			*out = child;
		p += len;
		if (*p == '/')
			p++;
	}
	return 0;
no_file:
	snprintf(err, errlen, "%s: not a file uprocfs serves", path);
	return -ENOENT;
}

/* Append @s to the path being built; false when it does not fit. */
static bool put(char *buf, size_t size, size_t *at, const char *s, size_t len)
{
	if (*at + len >= size)
		return false;
	memcpy(buf + *at, s, len);
	*at += len;
	buf[*at] = '\0';
	return true;
}

static bool put_id(char *buf, size_t size, size_t *at, unsigned long v)
{
	char num[24];
	int n = snprintf(num, sizeof(num), "%lu", v);

	return put(buf, size, at, num, (size_t)n);
}

int pfs_node_path(const struct pfs_node *n, char *buf, size_t size)
{
	const struct pfs_entry *e = n->entry;
	size_t at = 0;
	bool ok = true;

	if (!size)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	if (!e)
		return 0;
	if (n->pid && (n->scope != PFS_SCOPE_GLOBAL || e->coll == PFS_COLL_PIDS))
		ok = put_id(buf, size, &at, (unsigned long)n->pid);
	if (ok && n->scope == PFS_SCOPE_TID)
		ok = put(buf, size, &at, "/task/", 6) && put_id(buf, size, &at, (unsigned long)n->tid);
	if (e->coll == PFS_COLL_PIDS)
		return ok ? 0 : -ENAMETOOLONG;
	if (ok && at)
		ok = put(buf, size, &at, "/", 1);
	for (const char *p = e->path; ok && *p; p++) {
		if (*p == '*')
			ok = put_id(buf, size, &at, e->coll == PFS_COLL_TIDS ? (unsigned long)n->tid : n->inst);
		else
			ok = put(buf, size, &at, p, 1);
	}
	return ok ? 0 : -ENAMETOOLONG;
}
