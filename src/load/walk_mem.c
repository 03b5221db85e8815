// SPDX-License-Identifier: MIT
/*
 * walk_mem.c - a /proc tree held in memory (an archive read whole), indexed
 * for the walk: one node per member, each directory's entries sorted by
 * name, so that a path is found in a few binary searches and a directory is
 * listed in order.
 *
 * The members come from somebody else's archive: a path must stay beneath
 * the root (no "", "." or ".." component, no leading '/'), a file or link
 * may appear only once, and nothing lies beneath a file or a symlink.
 * Symlinks are text, never followed: a path through one is -ELOOP, as
 * uf_read says of a tree on disk.
 *
 * Building takes the members in any order: a hash of (directory, name)
 * finds a directory while the tree grows (a capture of 2,000 processes has
 * over a third of a million members; the next member usually lies in the
 * last one's directory), files and links are added without a look, and
 * each directory's entries are sorted once at the end, where a name given
 * twice shows.  Nodes and names live in chunks freed together.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "walk.h"

#define PATH_LIMIT 4096
#define CHUNK ((size_t)64 << 10)

/* A chunk of nodes or names. */
struct mt_chunk {
	struct mt_chunk *next;
	size_t used, cap;
	_Alignas(16) char data[];
};

/* One slot of the (directory, name) hash: the entry, or NULL, and its hash (a miss reads no node). */
struct mt_slot {
	struct mt_node *node;
	size_t hash;
};

struct mt_build {
	struct mt_tree *t;
	struct mt_slot *slots;
	size_t nslots, used;     /* a power of two; used: entries in it */
	/* the directory of the last member entered, and its path with the '/': the next is likeliest in it */
	struct mt_node *last_dir;
	const char *last_path;
	size_t last_plen;
};

/* @size bytes from the tree's chunks (16-byte aligned); NULL on ENOMEM. */
static void *chunk_take(struct mt_tree *t, size_t size)
{
	struct mt_chunk *c = t->chunks;

	size = (size + 15) & ~(size_t)15;
	if (!c || c->cap - c->used < size) {
		size_t cap = size > CHUNK ? size : CHUNK;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->used = 0;
		c->cap = cap;
		c->next = t->chunks;
		t->chunks = c;
	}
	c->used += size;
	return c->data + c->used - size;
}

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

/* FNV-1a of a directory and a name. */
static size_t slot_hash(const struct mt_node *dir, const char *name, size_t len)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)(uintptr_t)dir;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
	return (size_t)(h ^ (h >> 29));
}

/* The slot of (@dir, @name): where it is, or the empty one where it would go. */
static struct mt_slot *slot_find(struct mt_build *b, const struct mt_node *dir, const char *name, size_t len)
{
	size_t h = slot_hash(dir, name, len), i = h & (b->nslots - 1);

	for (;; i = (i + 1) & (b->nslots - 1)) {
		struct mt_slot *s = &b->slots[i];

		if (!s->node) {
			s->hash = h; /* where the caller puts the new entry */
			return s;
		}
		if (s->hash == h && s->node->parent == dir && s->node->nlen == len && !memcmp(s->node->name, name, len))
			return s;
	}
}

/* Twice the slots when more than half are taken; 0 or -ENOMEM. */
static int slots_grow(struct mt_build *b)
{
	struct mt_build nb = { .t = b->t, .nslots = b->nslots * 2 };

	if (b->used * 2 < b->nslots)
		return 0;
	nb.slots = calloc(nb.nslots, sizeof(*nb.slots));
	if (!nb.slots)
		return -ENOMEM;
	for (size_t i = 0; i < b->nslots; i++) {
		struct mt_node *n = b->slots[i].node;

		if (n) {
			size_t k = b->slots[i].hash & (nb.nslots - 1);

			while (nb.slots[k].node)
				k = (k + 1) & (nb.nslots - 1);
			nb.slots[k] = b->slots[i];
		}
	}
	free(b->slots);
	b->slots = nb.slots;
	b->nslots = nb.nslots;
	return 0;
}

/* A new entry @name[0..len) of directory @d, a directory until its member says otherwise; NULL on ENOMEM. */
static struct mt_node *kid_add(struct mt_build *b, struct mt_node *d, const char *name, size_t len)
{
	struct mt_node *k;
	char *copy;

	if (d->nkids == d->cap) {
		uint32_t cap = d->cap ? d->cap * 2 : 4;
		struct mt_node **n = realloc(d->kids, cap * sizeof(*n));

		if (!n)
			return NULL;
		d->kids = n;
		d->cap = cap;
	}
	k = chunk_take(b->t, sizeof(*k));
	copy = chunk_take(b->t, len + 1);
	if (!k || !copy)
		return NULL;
	memcpy(copy, name, len);
	copy[len] = '\0';
	/* made for its entries: no member of its own (yet) */
	*k = (struct mt_node){ .name = copy, .nlen = (uint32_t)len, .type = 'd', .mode = 0555, .order = SIZE_MAX,
			       .parent = d };
	d->kids[d->nkids++] = k;
	return k;
}

/*
 * The directory @name[0..len) of @d, made when missing; NULL on ENOMEM.
 * Only directories go into the hash: a file's or link's entry is added
 * without a look, and one named twice shows when the entries are sorted.
 */
static struct mt_node *kid_make(struct mt_build *b, struct mt_node *d, const char *name, size_t len)
{
	struct mt_slot *s;

	if (slots_grow(b))
		return NULL;
	s = slot_find(b, d, name, len);
	if (s->node)
		return s->node;
	if (!(s->node = kid_add(b, d, name, len)))
		return NULL;
	b->used++;
	return s->node;
}

/* Enter member @m (index @order) under the tree's root. */
static int enter(struct mt_build *b, const struct mach_tree_member *m, size_t order, char *err, size_t errlen)
{
	struct mt_node *d = &b->t->root;
	const char *p = m->path, *slash = strrchr(p, '/');
	size_t plen = slash ? (size_t)(slash - p) + 1 : 0;

	/* an archive lists a directory's entries together: start from the last one's directory */
	if (b->last_dir && plen && plen == b->last_plen && !memcmp(p, b->last_path, plen)) {
		d = b->last_dir;
		p += plen;
	}
	for (;;) {
		size_t n = comp_len(p);
		struct mt_node *k;

		if (d->type != 'd') {
			snprintf(err, errlen, "member \"%s\": beneath a %s", m->path,
				 d->type == 'l' ? "symlink" : "file");
			return -EINVAL;
		}
		k = p[n] || m->type == 'd' ? kid_make(b, d, p, n) : kid_add(b, d, p, n);
		if (!k)
			return -ENOMEM;
		if (p[n]) {
			d = k;
			p += n + 1;
			continue;
		}
		b->last_dir = d;
		b->last_path = m->path;
		b->last_plen = plen;
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

/* Compare @a[0..alen) with @b[0..blen) as strcmp would order them. */
static int name_cmp_n(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c ? c : (alen > blen) - (alen < blen);
}

static int kid_cmp(const void *a, const void *b)
{
	const struct mt_node *x = *(struct mt_node *const *)a, *y = *(struct mt_node *const *)b;

	return name_cmp_n(x->name, x->nlen, y->name, y->nlen);
}

/* The path of @n beneath the root into @buf. */
static void node_path(const struct mt_node *n, char *buf, size_t size)
{
	size_t len = 0;

	for (const struct mt_node *p = n; p && p->parent; p = p->parent)
		len += p->nlen + (p != n);
	if (len >= size) {
		snprintf(buf, size, "%s", n->name);
		return;
	}
	buf[len] = '\0';
	for (const struct mt_node *p = n; p && p->parent; p = p->parent) {
		len -= p->nlen;
		memcpy(buf + len, p->name, p->nlen);
		if (len)
			buf[--len] = '/';
	}
}

/*
 * Every directory's entries in name order (an explicit stack, since an
 * archive's depth is its own to choose); two entries of one name are a
 * member given twice, or a file with members beneath it.
 */
static int sort_dirs(struct mt_node *root, char *err, size_t errlen)
{
	struct mt_node **stack = NULL;
	size_t n = 0, cap = 0;

	for (struct mt_node *d = root;; d = stack[--n]) {
		if (d->nkids > 1)
			qsort(d->kids, d->nkids, sizeof(*d->kids), kid_cmp);
		for (uint32_t i = 1; i < d->nkids; i++)
			if (!kid_cmp(&d->kids[i - 1], &d->kids[i])) {
				char path[PATH_LIMIT];

				node_path(d->kids[i], path, sizeof(path));
				snprintf(err, errlen, "member \"%s\": %s", path,
					 d->kids[i]->type == 'd' || d->kids[i - 1]->type == 'd' ? "a file, and members beneath it"
												 : "given twice");
				free(stack);
				return -EINVAL;
			}
		for (uint32_t i = 0; i < d->nkids; i++) {
			if (d->kids[i]->type != 'd' || !d->kids[i]->nkids)
				continue;
			if (n == cap) {
				size_t nc = cap ? cap * 2 : 64;
				struct mt_node **s = realloc(stack, nc * sizeof(*s));

				if (!s) {
					free(stack);
					return -ENOMEM;
				}
				stack = s;
				cap = nc;
			}
			stack[n++] = d->kids[i];
		}
		if (!n)
			break;
	}
	free(stack);
	return 0;
}

int ld_mem_build(const struct mach_tree_member *m, size_t n, struct mt_tree *t, char *err, size_t errlen)
{
	struct mt_build b = { .t = t };
	int rc = 0;

	memset(t, 0, sizeof(*t));
	t->root = (struct mt_node){ .name = "", .type = 'd', .mode = 0555 };
	/* the directories only (a capture has about one per six members), at most half full */
	b.nslots = 1024;
	while (b.nslots < n / 2 && b.nslots < ((size_t)1 << 40))
		b.nslots *= 2;
	b.slots = calloc(b.nslots, sizeof(*b.slots));
	if (!b.slots)
		return -ENOMEM;
	for (size_t i = 0; i < n && !rc; i++) {
		if (!m[i].path || !clean_path(m[i].path) || (m[i].type != 'f' && m[i].type != 'd' && m[i].type != 'l') ||
		    (m[i].len && !m[i].data)) {
			snprintf(err, errlen, "member \"%s\": not a file, directory or symlink beneath the root",
				 m[i].path ? m[i].path : "(null)");
			rc = -EINVAL;
			break;
		}
		rc = enter(&b, &m[i], i, err, errlen);
	}
	free(b.slots);
	if (!rc)
		rc = sort_dirs(&t->root, err, errlen);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (rc)
		ld_mem_free(t);
	return rc;
}

/* Free every directory's entry list beneath @root (the nodes themselves live in the chunks). */
static void free_kids(struct mt_node *root)
{
	struct mt_node **stack = NULL;
	size_t n = 0, cap = 0;
	bool nomem = false;

	for (struct mt_node *d = root;; d = stack[--n]) {
		for (uint32_t i = 0; i < d->nkids && !nomem; i++) {
			if (!d->kids[i]->nkids)
				continue;
			if (n == cap) {
				size_t nc = cap ? cap * 2 : 64;
				struct mt_node **s = realloc(stack, nc * sizeof(*s));

				if (!s) {
					nomem = true; /* leak what is left rather than crash */
					break;
				}
				stack = s;
				cap = nc;
			}
			stack[n++] = d->kids[i];
		}
		free(d->kids);
		d->kids = NULL;
		if (!n)
			break;
	}
	free(stack);
}

void ld_mem_free(struct mt_tree *t)
{
	free_kids(&t->root);
	for (struct mt_chunk *c = t->chunks, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	memset(t, 0, sizeof(*t));
}

/* The entry @name[0..len) of directory @d, by binary search, or NULL. */
static const struct mt_node *kid_find(const struct mt_node *d, const char *name, size_t len)
{
	size_t lo = 0, hi = d->nkids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct mt_node *k = d->kids[mid];
		int c = name_cmp_n(name, len, k->name, k->nlen);

		if (!c)
			return k;
		if (c > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
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

		if (d->type == 'l')
			return -ELOOP;
		if (d->type != 'd')
			return -ENOTDIR;
		d = kid_find(d, p, n);
		if (!d)
			return -ENOENT;
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

int ld_mem_copy(const struct mt_node *node, size_t limit, char **text, size_t *len)
{
	if (node->len > limit)
		return -EFBIG;
	*text = malloc(node->len + 1);
	if (!*text)
		return -ENOMEM;
	memcpy(*text, node->data, node->len);
	(*text)[node->len] = '\0';
	*len = node->len;
	return 0;
}
