// SPDX-License-Identifier: MIT
/*
 * sys_exists.c - which files a /sys object's directory holds.  Every entry
 * of PFS_SCOPE_SYSOBJ has one of these predicates: the scope holds the
 * files of cgroups, block devices and device directories alike, and
 * c->inst (the directory's instance) says which object a lookup is in.
 *
 * Block devices: a partition has its own stat, size, start and the few
 * attributes of block/partitions/core.c; everything else is its disk's
 * (block/genhd.c disk_attrs, blk-sysfs.c queue_attrs as queue_attr_visible
 * filters them).  cgroupfs: CFTYPE_NOT_ON_ROOT files are absent at the
 * root, a controller's files appear where its css exists (the parent's
 * subtree_control enables it), pressure files where PSI runs.
 */
#include "../procfs/render.h"
#include "table_sys.h"

/* The block device the directory stands for, if its disk's directory is known. */
static const struct mach_blkdev *blk_of(const struct pfs_ctx *c)
{
	int b = pfs_obj_blk(c->mach, c->inst);
	const struct mach_blkdev *d;

	if (b < 0)
		return NULL;
	d = &c->mach->sys.blk[c->mach->sys.blk[b].disk];
	/* a partition's own attributes come with its first file: the loader asks before they are there */
	return d->sysfs && d->sysfs->dir && (c->loading || c->mach->sys.blk[b].sysfs) ? &c->mach->sys.blk[b] : NULL;
}

static const struct mach_blkdev *disk_of(const struct pfs_ctx *c)
{
	const struct mach_blkdev *b = blk_of(c);

	return b && !b->partno ? b : NULL;
}

bool pfs_blk_any(const struct pfs_ctx *c)
{
	return blk_of(c) != NULL;
}

bool pfs_blk_disk(const struct pfs_ctx *c)
{
	return disk_of(c) != NULL;
}

bool pfs_blk_part(const struct pfs_ctx *c)
{
	const struct mach_blkdev *b = blk_of(c);

	return b && b->partno;
}

bool pfs_blk_queue_attr(const struct pfs_ctx *c)
{
	const struct mach_blkdev *d = disk_of(c);

	return d && (c->loading ? c->arg < MACH_NR_BLKQ : mach_blkq_shown(d->sysfs, (enum mach_blkq)c->arg));
}

bool pfs_blk_mq(const struct pfs_ctx *c)
{
	const struct mach_blkdev *d = disk_of(c);

	return d && (c->loading || d->sysfs->mq);
}

bool pfs_blk_cache_type(const struct pfs_ctx *c)
{
	const struct mach_blkdev *d = disk_of(c);

	return d && (c->loading || d->sysfs->cache_type);
}

bool pfs_blk_serial(const struct pfs_ctx *c)
{
	const struct mach_blkdev *d = disk_of(c);

	return d && (c->loading || d->sysfs->serial);
}

bool pfs_blk_device_link(const struct pfs_ctx *c)
{
	const struct mach_blkdev *d = disk_of(c);

	return d && mach_blk_has_device(d->sysfs->dir);
}

bool pfs_blk_dm(const struct pfs_ctx *c)
{
	const struct mach_blkdev *d = disk_of(c);

	return d && d->kind == MACH_BLK_DM;
}

bool pfs_blk_loop(const struct pfs_ctx *c)
{
	const struct mach_blkdev *d = disk_of(c);

	/* loop/ exists while the device is bound (loop_sysfs_init at LOOP_SET_FD) */
	return d && d->kind == MACH_BLK_LOOP && (c->loading || d->backing_file);
}

bool pfs_blk_hw(const struct pfs_ctx *c)
{
	const struct mach_blkdev *d = pfs_blk_hw_disk(c);

	return d && pfs_blk_hw_shown(d->kind, (enum pfs_blk_hw_attr)c->arg);
}

/* ------------------------------------------------------------------ */
/* cgroupfs                                                             */

static bool cg_root(const struct pfs_ctx *c, uint32_t g)
{
	return c->mach->cgroups[g].parent == MACH_NONE;
}

bool pfs_cg_any(const struct pfs_ctx *c)
{
	return pfs_cg_of(c) != MACH_NONE;
}

bool pfs_cg_nonroot(const struct pfs_ctx *c)
{
	uint32_t g = pfs_cg_of(c);

	return g != MACH_NONE && !cg_root(c, g);
}

bool pfs_cg_psi(const struct pfs_ctx *c)
{
	return pfs_cg_any(c) && c->arg < MACH_NR_PSI_RES && c->mach->pressure[c->arg].present;
}

bool pfs_cg_psi_any(const struct pfs_ctx *c)
{
	bool any = false;

	for (int r = 0; r < MACH_NR_PSI_RES; r++)
		any |= c->mach->pressure[r].present;
	return any && pfs_cg_any(c);
}

/* Controller @ss's css is in the group (and, @nonroot, the group is not the root). */
static bool cg_ctrl(const struct pfs_ctx *c, enum mach_cg_ss ss, bool nonroot)
{
	uint32_t g = pfs_cg_of(c);

	return g != MACH_NONE && (!nonroot || !cg_root(c, g)) && mach_cg_has_css(c->mach, g, ss);
}

bool pfs_cg_cpu_nonroot(const struct pfs_ctx *c)
{
	return cg_ctrl(c, MACH_SS_CPU, true);
}

bool pfs_cg_mem(const struct pfs_ctx *c)
{
	return cg_ctrl(c, MACH_SS_MEMORY, false);
}

bool pfs_cg_mem_nonroot(const struct pfs_ctx *c)
{
	return cg_ctrl(c, MACH_SS_MEMORY, true);
}

bool pfs_cg_io(const struct pfs_ctx *c)
{
	return cg_ctrl(c, MACH_SS_IO, false);
}

bool pfs_cg_pids_nonroot(const struct pfs_ctx *c)
{
	return cg_ctrl(c, MACH_SS_PIDS, true);
}
