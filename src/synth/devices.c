// SPDX-License-Identifier: MIT
/* devices.c - the synthetic machine's filesystems on its disks (devices.h), from m->sys. */
#include <stdio.h>
#include <string.h>

#include "devices.h"
#include "synth_int.h"

static void put(struct sy_blockfs *fs, const struct mach_blkdev *b, const char *point, const char *fstype,
		const char *opts)
{
	fs->present = true;
	if (b->dm_name[0])
		snprintf(fs->dev, sizeof(fs->dev), "/dev/mapper/%s", b->dm_name);
	else
		snprintf(fs->dev, sizeof(fs->dev), "/dev/%s", b->name);
	fs->major = b->major;
	fs->minor = b->minor;
	fs->point = point;
	fs->fstype = fstype;
	fs->opts = opts;
}

/* Partition @partno of disk @disk, or -1. */
static int partition(const struct mach_sys *sys, unsigned int disk, unsigned int partno)
{
	for (size_t i = 0; i < sys->nblk; i++)
		if (sys->blk[i].partno == partno && sys->blk[i].disk == disk && (size_t)disk != i)
			return (int)i;
	return -1;
}

void sy_plan_blockfs(struct synth *s)
{
	const struct mach_sys *sys = &s->m->sys;
	int root = sys->root_blk, under = root, p;

	memset(s->blockfs, 0, sizeof(s->blockfs));
	if (root < 0)
		return;
	put(&s->blockfs[SY_FS_ROOT], &sys->blk[root], "/", "ext4", "errors=remount-ro");
	/* the partitioned disk under the root: the root's own, or its LV's physical volume's */
	if (sys->blk[root].kind == MACH_BLK_DM && sys->blk[root].slave >= 0)
		under = sys->blk[root].slave;
	if (sys->blk[under].partno) {
		unsigned int disk = sys->blk[under].disk;

		if ((p = partition(sys, disk, 2)) >= 0)
			put(&s->blockfs[SY_FS_BOOT], &sys->blk[p], "/boot", "ext4", NULL);
		if ((p = partition(sys, disk, 1)) >= 0)
			put(&s->blockfs[SY_FS_EFI], &sys->blk[p], "/boot/efi", "vfat",
			    "fmask=0077,dmask=0077,codepage=437,iocharset=ascii,shortname=mixed,utf8,errors=remount-ro");
	}
	/* a data disk: vdb whole, or sdb's one partition */
	for (size_t i = 0; i < sys->nblk; i++) {
		const struct mach_blkdev *b = &sys->blk[i];

		if ((!strcmp(b->name, "vdb") || !strcmp(b->name, "sdb1")) && b->nr_sects)
			put(&s->blockfs[SY_FS_HOME], b, "/home", "ext4", NULL);
	}
}
