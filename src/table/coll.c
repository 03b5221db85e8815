// SPDX-License-Identifier: MIT
/*
 * coll.c - leaf collections: the instances a "*" entry stands for on one
 * task (fd numbers), whether one exists, and how they list.  The pids and
 * tids of the scopes are the sources' to list (a live source asks the
 * kernel); everything else is read from the bound model.
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

bool pfs_coll_has(enum pfs_coll coll, const struct pfs_ctx *c, uint32_t inst)
{
	switch (coll) {
	case PFS_COLL_FDS:
		return c->proc && find_fd(c->proc->files, inst) != NULL;
	default:
		return false;
	}
}

bool pfs_coll_next(enum pfs_coll coll, const struct pfs_ctx *c, uint64_t *pos, uint32_t *inst)
{
	switch (coll) {
	case PFS_COLL_FDS: {
		const struct mach_files *f = c->proc ? c->proc->files : NULL;

		if (!f || *pos >= f->nfds)
			return false;
		*inst = (uint32_t)f->fds[(*pos)++].fd;
		return true;
	}
	default:
		return false;
	}
}
