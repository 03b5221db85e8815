// SPDX-License-Identifier: MIT
/*
 * coll.c - the collections: the instances a "*" entry stands for (fd
 * numbers on one task; the directories and files of /proc/sys), how they
 * are named, found and listed.  The pids and tids of the task scopes are the
 * sources' to list (a live source asks the kernel).  A collection is added
 * here, once: an enum pfs_coll value and its operations.
 */
#include <stddef.h>

#include "table_int.h"

/* The file table entry of fd @fd, by binary search; NULL if it is not open. */
static const struct mach_fd *find_fd(const struct mach_files *f, uint32_t fd)
{
	size_t lo = 0, hi = f ? f->nfds : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uint32_t)f->fds[mid].fd < fd)
			lo = mid + 1;
		else
			hi = mid;
	}
	return f && lo < f->nfds && (uint32_t)f->fds[lo].fd == fd ? &f->fds[lo] : NULL;
}

static bool fds_has(const struct pfs_ctx *c, uint32_t inst)
{
	return c->proc && find_fd(c->proc->files, inst) != NULL;
}

static bool fds_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	const struct mach_files *f = c->proc ? c->proc->files : NULL;

	(void)parent;
	if (!f || *pos >= f->nfds)
		return false;
	*inst = (uint32_t)f->fds[(*pos)++].fd;
	return true;
}

static const struct pfs_coll_ops fds_ops = {
	.numeric = true,
	.next = fds_next,
	.has = fds_has,
};

static const struct pfs_coll_ops *const colls[PFS_NR_COLLS] = {
	[PFS_COLL_FDS] = &fds_ops,
};

const struct pfs_coll_ops *pfs_coll_ops(enum pfs_coll coll)
{
	return (unsigned int)coll < PFS_NR_COLLS ? colls[coll] : NULL;
}
