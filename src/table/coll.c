// SPDX-License-Identifier: MIT
/*
 * coll.c - leaf collections: the instances a "*" entry stands for on one
 * task (fd numbers), whether one exists, and how they list.  The pids and
 * tids of the scopes are the sources' to list (a live source asks the
 * kernel); everything else is read from the bound model.
 */
#include <stddef.h>
#include <sys/stat.h>

#include "../procfs/render.h"
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

bool pfs_coll_known(const struct pfs_entry *e, const struct pfs_ctx *c, uint32_t inst)
{
	const struct mach_fd *f;

	switch (e->coll) {
	case PFS_COLL_FDS:
		f = c->proc ? find_fd(c->proc->files, inst) : NULL;
		if (!f)
			return false;
		return e->kind == PFS_LINK ? f->kind != MACH_FD_UNKNOWN : f->info_known;
	default:
		return true;
	}
}

void pfs_node_attr(const struct pfs_node *n, const struct pfs_ctx *c, struct stat *st)
{
	const struct mach_files *files = c->proc ? c->proc->files : NULL;
	const struct mach_fd *f;

	if (!n->entry)
		return;
	if (n->entry->coll == PFS_COLL_FDS && n->entry->kind == PFS_LINK) {
		/* tid_fd_update_inode: r-x for FMODE_READ, -wx for FMODE_WRITE; proc_fd_instantiate: 64 */
		f = find_fd(files, n->inst);
		st->st_mode = S_IFLNK | (f ? pfs_fd_link_mode(f) : 0);
		st->st_size = 64;
	} else if (n->entry->kind == PFS_DIR) {
		const struct pfs_entry *leaf = pfs_dir_coll(n);

		/* proc_fd_getattr, of fd/ (the links) only: the number of open fds */
		if (leaf && leaf->coll == PFS_COLL_FDS && leaf->kind == PFS_LINK)
			st->st_size = files ? files->nfds : 0;
	}
}
