// SPDX-License-Identifier: MIT
/*
 * listing.c - the rules of kernfs (fs/kernfs, fs/sysfs) for the /sys tree:
 * which filesystem a node follows, the sizes it reports, and a
 * directory's children whole, in the order kernfs lists them.
 *
 * kernfs keeps a directory's children in a red-black tree sorted by a
 * hash of the name (kernfs_name_hash), then by name; readdir walks it in
 * that order and each entry's d_off is the next one's hash.  The hash is
 * computable, so the order is the kernel's exactly (the namespace-tagged
 * directories of /sys/class/net aside, whose hash starts from a pointer).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "table_int.h"
#include "uprocfs/pfs_sysobj.h"

enum pfs_fstype pfs_node_fstype(const struct pfs_node *n)
{
	if (n->entry && n->entry->fstype != PFS_FST_DEFAULT)
		return n->entry->fstype;
	if (n->scope == PFS_SCOPE_SYSOBJ)
		return pfs_sysobj_is_cgroup(n->inst) ? PFS_FST_CGROUP : PFS_FST_SYSFS;
	return n->scope >= PFS_SCOPE_SYS ? PFS_FST_SYSFS : PFS_FST_PROC;
}

off_t pfs_node_size(const struct pfs_node *n)
{
	/* a sysfs attribute's buffer is a page whatever it holds; binary attributes are not served */
	return n->entry && n->entry->kind == PFS_FILE && pfs_node_fstype(n) == PFS_FST_SYSFS ? 4096 : 0;
}

uint32_t pfs_kernfs_hash(const char *name)
{
	uint64_t h = 0;

	/* partial_name_hash over the bytes, then hash_64 to 32 bits and 31 kept (kernfs_name_hash) */
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h + ((uint64_t)*p << 4) + (*p >> 4)) * 11;
	h = (uint32_t)((h * 0x61C8864680B583EBull) >> 32) & 0x7fffffffu;
	/* 0 and 1 are the positions of "." and "..", and INT_MAX is the end */
	if (h < 2)
		h += 2;
	if (h >= 0x7fffffffu)
		h = 0x7ffffffeu;
	return (uint32_t)h;
}

bool pfs_dir_hashed(const struct pfs_node *dir)
{
	enum pfs_fstype t = pfs_node_fstype(dir);

	return t == PFS_FST_SYSFS || t == PFS_FST_CGROUP;
}

void pfs_listing_free(struct pfs_listing *l)
{
	free(l->ents);
	free(l->names);
	memset(l, 0, sizeof(*l));
}

static int add(struct pfs_listing *l, const char *name, const struct pfs_node *n)
{
	size_t len = strlen(name) + 1;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 32;
		struct pfs_listing_ent *e = realloc(l->ents, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		l->ents = e;
		l->cap = cap;
	}
	if (l->names_len + len > l->names_cap) {
		size_t cap = l->names_cap ? 2 * l->names_cap : 1024;
		char *p;

		while (cap < l->names_len + len)
			cap *= 2;
		p = realloc(l->names, cap);
		if (!p)
			return -ENOMEM;
		l->names = p;
		l->names_cap = cap;
	}
	memcpy(l->names + l->names_len, name, len);
	l->ents[l->n++] = (struct pfs_listing_ent){ .name = (uint32_t)l->names_len, .node = *n };
	l->names_len += len;
	return 0;
}

/* Whether @name is among the listing's first @upto entries. */
static bool listed(const struct pfs_listing *l, size_t upto, const char *name)
{
	for (size_t i = 0; i < upto && i < l->n; i++)
		if (!strcmp(l->names + l->ents[i].name, name))
			return true;
	return false;
}

static int by_hash(const void *a, const void *b, void *names)
{
	const struct pfs_listing_ent *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return strcmp((const char *)names + x->name, (const char *)names + y->name);
}

/*
 * By hash with a radix sort of (hash, index) keys: 4096 cpuN directories
 * must list in well under a millisecond, and a comparison sort of the
 * entries themselves (moving each through a temporary) takes about that.
 * Stable, so names of equal hash stay in the order added until sorted by
 * name below.  False when out of memory.
 */
static bool radix_by_hash(struct pfs_listing *l)
{
	uint64_t *key = malloc(2 * l->n * sizeof(*key)), *tmp;
	struct pfs_listing_ent *sorted = malloc(l->n * sizeof(*sorted));

	if (!key || !sorted) {
		free(key);
		free(sorted);
		return false;
	}
	tmp = key + l->n;
	for (size_t i = 0; i < l->n; i++)
		key[i] = (uint64_t)l->ents[i].hash << 32 | i;
	for (unsigned int shift = 32; shift < 64; shift += 8) {
		size_t count[257] = { 0 };
		uint64_t *swap;

		for (size_t i = 0; i < l->n; i++)
			count[((key[i] >> shift) & 0xff) + 1]++;
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (size_t i = 0; i < l->n; i++)
			tmp[count[(key[i] >> shift) & 0xff]++] = key[i];
		swap = key;
		key = tmp;
		tmp = swap;
	}
	/* four passes: the sorted keys are back in the first half */
	for (size_t i = 0; i < l->n; i++)
		sorted[i] = l->ents[key[i] & 0xffffffffu];
	free(key < tmp ? key : tmp);
	free(l->ents);
	l->ents = sorted;
	l->cap = l->n;
	/* kernfs_sd_compare: equal hashes by name (rare: a short insertion sort) */
	for (size_t i = 1; i < l->n; i++) {
		struct pfs_listing_ent e = l->ents[i];
		size_t j = i;

		while (j && l->ents[j - 1].hash == e.hash && by_hash(&l->ents[j - 1], &e, l->names) > 0) {
			l->ents[j] = l->ents[j - 1];
			j--;
		}
		l->ents[j] = e;
	}
	return true;
}

/* Sort a listing as kernfs keeps it: by hash, then by name. */
static void sort_hashed(struct pfs_listing *l)
{
	for (size_t i = 0; i < l->n; i++)
		l->ents[i].hash = pfs_kernfs_hash(l->names + l->ents[i].name);
	if (l->n > 1 && !radix_by_hash(l))
		qsort_r(l->ents, l->n, sizeof(*l->ents), by_hash, l->names);
}

int pfs_dir_list(const struct pfs_node *dir, const struct pfs_ctx *c, struct pfs_listing *out)
{
	const struct pfs_entry *coll;
	unsigned int pos = 0;
	struct pfs_node n;
	const char *name;
	char buf[256];
	bool hashed;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	hashed = pfs_dir_hashed(dir);
	while (!rc && pfs_dir_next(dir, c, &pos, &name, &n))
		rc = add(out, name, &n);
	/*
	 * The collections with instances of their own; pids and tids are the
	 * sources' to list.  A name already listed (devices/virtual: a literal
	 * that is an instance too; a function two collections share) is listed
	 * once: a collection's instances are checked against what came before
	 * it, never against each other (4096 cpuN would take n^2 comparisons).
	 */
	for (unsigned int k = 0; !rc && (coll = pfs_dir_coll(dir, k)); k++) {
		size_t before = out->n;
		uint64_t cur = 0;

		if (!pfs_coll_ops(coll->coll))
			continue;
		while (!rc && pfs_dir_next_instance(dir, coll, c, &cur, &n, buf, sizeof(buf)))
			if (!hashed || !listed(out, before, buf))
				rc = add(out, buf, &n);
	}
	if (rc) {
		pfs_listing_free(out);
		return rc;
	}
	if (hashed)
		sort_hashed(out);
	return 0;
}

unsigned int pfs_dir_subdirs(const struct pfs_node *dir, const struct pfs_ctx *c)
{
	const struct pfs_entry *coll;
	unsigned int pos = 0, n = 0;
	struct pfs_node child;
	const char *name;

	while (pfs_dir_next(dir, c, &pos, &name, &child))
		n += child.entry->kind == PFS_DIR;
	for (unsigned int k = 0; (coll = pfs_dir_coll(dir, k)); k++) {
		const struct pfs_coll_ops *ops = pfs_coll_ops(coll->coll);
		uint64_t cur = 0;
		uint32_t inst;

		if (!ops || coll->kind != PFS_DIR)
			continue;
		while (ops->next(c, dir->inst, &cur, &inst)) {
			char name[256];
			struct pfs_node lit;

			/* an instance a literal directory stands for already counts */
			n += ops->numeric || ops->name(c, inst, name, sizeof(name)) || pfs_child(dir, name, c, &lit) ||
			     pfs_entry_is_star(lit.entry);
		}
	}
	return n;
}
