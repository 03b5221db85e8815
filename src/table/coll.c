// SPDX-License-Identifier: MIT
/*
 * coll.c - the collections: the instances a "*" entry stands for (fd
 * numbers on one task; the directories and files of /proc/sys), how they
 * are named, found and listed.  The pids and tids of the task scopes are the
 * sources' to list (a live source asks the kernel).  A collection is added
 * here, once: an enum pfs_coll value and its operations.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../procfs/render.h"
#include "table_int.h"
#include "table_sys.h"

static bool fds_has(const struct pfs_ctx *c, uint32_t inst)
{
	return c->proc && pfs_files_find(c->proc->files, inst) != NULL;
}

static bool fds_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	const struct mach_files *f = c->proc ? c->proc->files : NULL;
	const struct mach_fd *fds;

	(void)parent;
	if (!f || *pos >= f->nfds || mach_files_fds(f, &fds))
		return false;
	*inst = (uint32_t)fds[(*pos)++].fd;
	return true;
}

static const struct pfs_coll_ops fds_ops = {
	.numeric = true,
	.next = fds_next,
	.has = fds_has,
};

/* ------------------------------------------------------------------ */
/* /proc/sys: the nodes of the machine's tree, directories and keys apart */

static const struct mach_sysctl_node *sysctl_node(const struct pfs_ctx *c, uint32_t inst)
{
	const struct mach_sysctl *t = c->mach ? c->mach->sysctl : NULL;

	return t && inst < t->n ? &t->nodes[inst] : NULL;
}

static bool is_dir(const struct mach_sysctl_node *n)
{
	return n->kind == MACH_SYSCTL_DIR;
}

/* The node named @name under directory @parent, if it is a directory (@dirs) or a key. */
static int sysctl_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst, bool dirs)
{
	int64_t id = c->mach ? mach_sysctl_lookup(c->mach->sysctl, parent, name, strlen(name)) : -1;

	if (id < 0 || is_dir(&c->mach->sysctl->nodes[id]) != dirs)
		return -ENOENT;
	*inst = (uint32_t)id;
	return 0;
}

static int sysctl_lookup_dir(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	return sysctl_lookup(c, parent, name, inst, true);
}

static int sysctl_lookup_key(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	return sysctl_lookup(c, parent, name, inst, false);
}

static int sysctl_name(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	const struct mach_sysctl_node *n = sysctl_node(c, inst);

	return snprintf(buf, size, "%s", n && n->name ? n->name : "") < (int)size ? 0 : -ENAMETOOLONG;
}

static int sysctl_path(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	return c->mach ? mach_sysctl_path(c->mach->sysctl, inst, buf, size) : -ENOENT;
}

/* The children of @parent in name order, from cursor *@pos: the next directory (@dirs) or key. */
static bool sysctl_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst, bool dirs)
{
	const struct mach_sysctl_node *d = sysctl_node(c, parent);

	while (d && is_dir(d) && *pos < d->nkids) {
		uint32_t kid = d->kids[(*pos)++];

		if (is_dir(&c->mach->sysctl->nodes[kid]) == dirs) {
			*inst = kid;
			return true;
		}
	}
	return false;
}

static bool sysctl_next_dir(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	return sysctl_next(c, parent, pos, inst, true);
}

static bool sysctl_next_key(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	return sysctl_next(c, parent, pos, inst, false);
}

static bool sysctl_has_dir(const struct pfs_ctx *c, uint32_t inst)
{
	const struct mach_sysctl_node *n = sysctl_node(c, inst);

	return inst && n && is_dir(n);
}

static bool sysctl_has_key(const struct pfs_ctx *c, uint32_t inst)
{
	const struct mach_sysctl_node *n = sysctl_node(c, inst);

	return n && !is_dir(n);
}

static mode_t sysctl_mode(const struct pfs_ctx *c, uint32_t inst)
{
	const struct mach_sysctl_node *n = sysctl_node(c, inst);

	return n ? n->mode : 0;
}

/* What a tree written from the model can hold: text a read gives, the same on the next read. */
static bool sysctl_loadable(const struct pfs_ctx *c, uint32_t inst)
{
	const struct mach_sysctl_node *n = sysctl_node(c, inst);

	return n && (n->mode & 0400) && n->kind != MACH_SYSCTL_UNSET && n->kind != MACH_SYSCTL_WRITE_ONLY &&
	       n->src != MACH_SYSCTL_SRC_RANDOM_UUID;
}

static bool sysctl_whole_at_zero(const struct pfs_ctx *c, uint32_t inst)
{
	const struct mach_sysctl_node *n = sysctl_node(c, inst);

	return n && (n->kind == MACH_SYSCTL_NUMS || n->src == MACH_SYSCTL_SRC_PID_MAX ||
		     n->src == MACH_SYSCTL_SRC_NS_LAST_PID || n->src == MACH_SYSCTL_SRC_FILE_NR);
}

static const struct pfs_coll_ops sysctl_dirs_ops = {
	.lookup = sysctl_lookup_dir,
	.name = sysctl_name,
	.path = sysctl_path,
	.next = sysctl_next_dir,
	.has = sysctl_has_dir,
	.mode = sysctl_mode,
	.shared_cursor = true,
};

static const struct pfs_coll_ops sysctl_keys_ops = {
	.lookup = sysctl_lookup_key,
	.name = sysctl_name,
	.path = sysctl_path,
	.next = sysctl_next_key,
	.has = sysctl_has_key,
	.mode = sysctl_mode,
	.loadable = sysctl_loadable,
	.whole_at_zero = sysctl_whole_at_zero,
	.shared_cursor = true,
};

static const struct pfs_coll_ops *const colls[PFS_NR_COLLS] = {
	[PFS_COLL_FDS] = &fds_ops,
	[PFS_COLL_SYSCTL_DIRS] = &sysctl_dirs_ops,
	[PFS_COLL_SYSCTL_KEYS] = &sysctl_keys_ops,
	[PFS_COLL_SYS_BLOCK] = &pfs_sys_block_ops,
	[PFS_COLL_CLASS_BLOCK] = &pfs_class_block_ops,
	[PFS_COLL_DEV_BLOCK] = &pfs_dev_block_ops,
	[PFS_COLL_DEVICES] = &pfs_sysdevices_ops,
	[PFS_COLL_DEVDIRS] = &pfs_devdirs_ops,
	[PFS_COLL_BLKDEVS] = &pfs_blkdevs_ops,
	[PFS_COLL_BLK_HOLDERS] = &pfs_blk_holders_ops,
	[PFS_COLL_BLK_SLAVES] = &pfs_blk_slaves_ops,
	[PFS_COLL_CLASS_NET] = &pfs_class_net_ops,
	[PFS_COLL_CGROUPS] = &pfs_cgroups_ops,
};

const struct pfs_coll_ops *pfs_coll_ops(enum pfs_coll coll)
{
	if ((unsigned int)coll >= PFS_NR_COLLS)
		return NULL;
	return colls[coll] ? colls[coll] : pfs_sys_coll_ops(coll);
}

bool pfs_coll_known(const struct pfs_entry *e, const struct pfs_ctx *c, uint32_t inst)
{
	const struct mach_fd *f;

	switch (e->coll) {
	case PFS_COLL_FDS:
		f = c->proc ? pfs_files_find(c->proc->files, inst) : NULL;
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
		f = pfs_files_find(files, n->inst);
		st->st_mode = S_IFLNK | (f ? pfs_fd_link_mode(f) : 0);
		st->st_size = 64;
	} else if (n->entry->kind == PFS_DIR) {
		const struct pfs_entry *leaf = pfs_dir_coll(n, 0);

		/* proc_fd_getattr, of fd/ (the links) only: the number of open fds */
		if (leaf && leaf->coll == PFS_COLL_FDS && leaf->kind == PFS_LINK)
			st->st_size = files ? files->nfds : 0;
	}
}
