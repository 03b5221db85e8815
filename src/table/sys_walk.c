// SPDX-License-Identifier: MIT
/*
 * sys_walk.c - every file and link of a machine's /sys tree, found by
 * listing it as a reader would: a directory's static entries (those its
 * object has), then its collections' instances, depth first.
 */
#include <string.h>

#include "table_int.h"

#define MAX_DEPTH 32 /* device trees are a dozen levels deep at most */

struct sys_walk {
	const struct mach_machine *mach;
	unsigned int flags;
	int (*fn)(void *arg, const struct pfs_node *n, const struct pfs_ctx *c);
	void *arg;
};

static int visit(const struct sys_walk *w, const struct pfs_node *dir, unsigned int depth);

/* A file or link found in the walk: handed over if the loader parses it (or PFS_EACH_ALL). */
static int leaf(const struct sys_walk *w, const struct pfs_node *n)
{
	struct pfs_ctx c = { .ptrace_ok = true };
	char buf[PFS_LINK_MAX];

	if (!(w->flags & PFS_EACH_ALL) && n->entry->load == MACH_LD_NONE)
		return 0;
	if (pfs_bind(w->mach, n, &c))
		return 0;
	if (n->entry->kind == PFS_LINK) {
		struct pfs_ctx lc = c;

		lc.arg = n->entry->arg;
		lc.inst = n->inst;
		if (n->entry->readlink(&lc, buf, sizeof(buf)))
			return 0; /* a link to nothing: not there */
	}
	return w->fn(w->arg, n, &c);
}

static int child(const struct sys_walk *w, const struct pfs_node *n, unsigned int depth)
{
	return pfs_node_is_dir(n) ? visit(w, n, depth + 1) : leaf(w, n);
}

static int visit(const struct sys_walk *w, const struct pfs_node *dir, unsigned int depth)
{
	struct pfs_ctx c = { .mach = w->mach, .inst = dir->inst, .ptrace_ok = true };
	const struct pfs_entry *coll;
	struct pfs_node n;
	unsigned int pos = 0;
	const char *name;
	int rc = 0;

	if (depth > MAX_DEPTH)
		return 0;
	while (!rc && pfs_dir_next(dir, &c, &pos, &name, &n))
		rc = child(w, &n, depth);
	for (unsigned int k = 0; !rc && (coll = pfs_dir_coll(dir, k)); k++) {
		uint64_t cur = 0;
		char inst_name[256];

		while (!rc && pfs_dir_next_instance(dir, coll, &c, &cur, &n, inst_name, sizeof(inst_name)))
			rc = child(w, &n, depth);
	}
	return rc;
}

int pfs_for_each_sys_file(const struct mach_machine *mach, unsigned int flags,
			  int (*fn)(void *arg, const struct pfs_node *n, const struct pfs_ctx *c), void *arg)
{
	struct sys_walk w = { .mach = mach, .flags = flags, .fn = fn, .arg = arg };
	struct pfs_node root = pfs_tree_root(PFS_SCOPE_SYS);

	return visit(&w, &root, 0);
}
