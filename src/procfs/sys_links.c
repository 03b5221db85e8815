// SPDX-License-Identifier: MIT
/*
 * sys_links.c - the symlinks of the block devices in sysfs: /sys/block,
 * /sys/class/block and /sys/dev/block to the devices' directories, and a
 * device's own device, subsystem, bdi, holders/ and slaves/ links.
 *
 * sysfs writes a link's target relative to the link's directory as
 * kernfs_get_target_path does: up ("../") from the link's directory until
 * a directory that holds the target, then down to it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "render.h"
#include "uprocfs/pfs_sysobj.h"

#define SYS_PATH_MAX 1024 /* paths below /sys are short: device trees a few levels deep */

int pfs_sys_rel_link(const char *from, const char *to, char *buf, size_t size)
{
	size_t base = strlen(from), at = 0;
	unsigned int ups = 0;
	int n;

	/* the nearest ancestor of @from (itself included) strictly above @to */
	while (base && !(!strncmp(to, from, base) && to[base] == '/')) {
		while (base && from[base - 1] != '/')
			base--;
		if (base)
			base--; /* drop the slash: the parent's length */
		ups++;
	}
	for (; ups; ups--) {
		if (at + 3 >= size)
			return -ENAMETOOLONG;
		memcpy(buf + at, "../", 3);
		at += 3;
	}
	n = snprintf(buf + at, size - at, "%s", to + (base ? base + 1 : 0));
	return n < 0 || (size_t)n >= size - at ? -ENAMETOOLONG : 0;
}

/* "devices/" and device @i's directory into @buf. */
static int blk_path(const struct mach_machine *mach, size_t i, char *buf, size_t size)
{
	char dir[SYS_PATH_MAX];
	int n;

	if (mach_blk_dir(&mach->sys, i, dir, sizeof(dir)))
		return -ENOENT;
	n = snprintf(buf, size, "devices/%s", dir);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* A link in @from to device @i's directory. */
static int link_to_blk(const struct pfs_ctx *c, const char *from, size_t i, char *buf, size_t size)
{
	char to[SYS_PATH_MAX];
	int rc = blk_path(c->mach, i, to, sizeof(to));

	return rc ? rc : pfs_sys_rel_link(from, to, buf, size);
}

int pfs_link_sys_block(const struct pfs_ctx *c, char *buf, size_t size)
{
	return link_to_blk(c, "block", c->inst, buf, size);
}

int pfs_link_class_block(const struct pfs_ctx *c, char *buf, size_t size)
{
	return link_to_blk(c, "class/block", c->inst, buf, size);
}

int pfs_link_dev_block(const struct pfs_ctx *c, char *buf, size_t size)
{
	return link_to_blk(c, "dev/block", c->inst, buf, size);
}

/* The directory of the device c->inst (a PFS_OBJ_BLK), for the links in it. */
static int own_dir(const struct pfs_ctx *c, char *buf, size_t size, size_t *idx)
{
	int b = pfs_obj_blk(c->mach, c->inst);

	if (b < 0)
		return -ENOENT;
	*idx = (size_t)b;
	return blk_path(c->mach, (size_t)b, buf, size);
}

int pfs_link_blk_device(const struct pfs_ctx *c, char *buf, size_t size)
{
	char from[SYS_PATH_MAX], to[SYS_PATH_MAX];
	size_t i;
	int rc = own_dir(c, from, sizeof(from), &i);
	const char *dir;

	if (rc)
		return rc;
	dir = c->mach->sys.blk[i].sysfs->dir;
	snprintf(to, sizeof(to), "devices/%.*s", (int)mach_blk_parent_len(dir), dir);
	return pfs_sys_rel_link(from, to, buf, size);
}

int pfs_link_blk_subsystem(const struct pfs_ctx *c, char *buf, size_t size)
{
	char from[SYS_PATH_MAX];
	size_t i;
	int rc = own_dir(c, from, sizeof(from), &i);

	return rc ? rc : pfs_sys_rel_link(from, "class/block", buf, size);
}

/* The disk's backing_dev_info, named by its device number, under /sys/devices/virtual/bdi. */
int pfs_link_blk_bdi(const struct pfs_ctx *c, char *buf, size_t size)
{
	char from[SYS_PATH_MAX], to[64];
	size_t i;
	int rc = own_dir(c, from, sizeof(from), &i);

	if (rc)
		return rc;
	snprintf(to, sizeof(to), "devices/virtual/bdi/%u:%u", c->mach->sys.blk[i].major, c->mach->sys.blk[i].minor);
	return pfs_sys_rel_link(from, to, buf, size);
}

/* holders/NAME of a device (bd_link_disk_holder): c->inst is the holder, its slave the directory's device. */
int pfs_link_blk_holder(const struct pfs_ctx *c, char *buf, size_t size)
{
	char from[SYS_PATH_MAX];
	const struct mach_blkdev *h = c->inst < c->mach->sys.nblk ? &c->mach->sys.blk[c->inst] : NULL;
	int rc;

	if (!h || h->slave < 0)
		return -ENOENT;
	rc = blk_path(c->mach, (size_t)h->slave, from, sizeof(from) - 8);
	if (rc)
		return rc;
	strcat(from, "/holders");
	return link_to_blk(c, from, c->inst, buf, size);
}

/* slaves/NAME of a device-mapper device: c->inst is it, its slave the target. */
int pfs_link_blk_slave(const struct pfs_ctx *c, char *buf, size_t size)
{
	char from[SYS_PATH_MAX];
	const struct mach_blkdev *d = c->inst < c->mach->sys.nblk ? &c->mach->sys.blk[c->inst] : NULL;
	int rc;

	if (!d || d->slave < 0)
		return -ENOENT;
	rc = blk_path(c->mach, c->inst, from, sizeof(from) - 8);
	if (rc)
		return rc;
	strcat(from, "/slaves");
	return link_to_blk(c, from, (size_t)d->slave, buf, size);
}
