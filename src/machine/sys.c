// SPDX-License-Identifier: MIT
/*
 * sys.c - lifetimes and names of the system part of the model (mach_sys.h):
 * block devices, swaps, memory nodes, slab caches, identity, registries and
 * locks.
 */
#include <stdlib.h>
#include <string.h>

#include "uprocfs/machine.h"

static const char *const zone_names[MACH_NR_ZONE_TYPES] = {
	[MACH_ZONE_DMA] = "DMA", [MACH_ZONE_DMA32] = "DMA32", [MACH_ZONE_NORMAL] = "Normal",
	[MACH_ZONE_MOVABLE] = "Movable", [MACH_ZONE_DEVICE] = "Device",
};

const char *mach_zone_name(enum mach_zone_type z)
{
	return (unsigned int)z < MACH_NR_ZONE_TYPES ? zone_names[z] : "?";
}

void mach_sys_profile_default(struct mach_sys_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->hz = 250;
	p->nzone_types = MACH_NR_ZONE_TYPES;
	/* the vocabulary's zone items and NUMA events, then its node items, are 6.18's lists */
	for (int id = MACH_VMSTAT_NR_FREE_PAGES; id <= MACH_VMSTAT_NUMA_OTHER; id++)
		p->zone_items[p->nzone_items++] = (enum mach_vmstat_id)id;
	for (int id = MACH_VMSTAT_NR_INACTIVE_ANON; id <= MACH_VMSTAT_NR_KERNEL_FILE_PAGES; id++)
		p->node_items[p->nnode_items++] = (enum mach_vmstat_id)id;
}

void mach_sys_init(struct mach_sys *s)
{
	memset(s, 0, sizeof(*s));
	s->root_blk = -1;
}

void mach_sys_blk_clear(struct mach_sys *s)
{
	for (size_t i = 0; s->blk && i < s->nblk; i++) {
		free(s->blk[i].backing_file);
		mach_blk_sysfs_free(s->blk[i].sysfs);
	}
	free(s->blk);
	s->blk = NULL;
	s->nblk = 0;
	s->root_blk = -1;
}

void mach_sys_swaps_clear(struct mach_sys *s)
{
	for (size_t i = 0; s->swaps && i < s->nswaps; i++)
		free(s->swaps[i].path);
	free(s->swaps);
	s->swaps = NULL;
	s->nswaps = 0;
}

void mach_sys_nodes_clear(struct mach_sys *s)
{
	for (unsigned int i = 0; s->nodes && i < s->nnodes; i++)
		for (int z = 0; z < MACH_NR_ZONE_TYPES; z++)
			free(s->nodes[i].zones[z].pagesets);
	free(s->nodes);
	s->nodes = NULL;
	s->nnodes = 0;
}

void mach_sys_slabs_clear(struct mach_sys *s)
{
	for (size_t i = 0; s->slabs && i < s->nslabs; i++)
		free(s->slabs[i].name);
	free(s->slabs);
	s->slabs = NULL;
	s->nslabs = 0;
}

void mach_sys_clear(struct mach_sys *s)
{
	mach_sys_blk_clear(s);
	mach_sys_swaps_clear(s);
	mach_sys_nodes_clear(s);
	mach_sys_slabs_clear(s);
	free(s->kid.cmdline);
	free(s->fstypes);
	free(s->chrdevs);
	free(s->blkdevs);
	free(s->misc);
	free(s->cgroup_subsys);
	free(s->locks);
	mach_sys_init(s);
}

int mach_sys_find_blk(const struct mach_sys *s, const char *name)
{
	for (size_t i = 0; i < s->nblk; i++)
		if (!strcmp(s->blk[i].name, name))
			return (int)i;
	return -1;
}

bool mach_blk_is_top(const struct mach_sys *s, size_t i)
{
	for (size_t k = 0; k < s->nblk; k++) {
		if (s->blk[k].kind == MACH_BLK_DM && s->blk[k].slave == (int)i)
			return false;
		if (k != i && s->blk[k].partno && s->blk[k].disk == i)
			return false;
	}
	return i < s->nblk;
}
