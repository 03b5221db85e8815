/* SPDX-License-Identifier: MIT */
/*
 * pfs_sysobj.h - the directories of /sys that stand for an object of the
 * machine: a cgroup, a device directory on the way to a disk, a block
 * device.  They share one scope (PFS_SCOPE_SYSOBJ), whose instance says
 * which kind of object and which one: the kind in the top bits, an index
 * below.  Renderers decode it from pfs_ctx.inst; the file table builds it.
 *
 * Instance 0 is the mount point of cgroupfs, /sys/fs/cgroup: the v2 root
 * itself on a pure v2 machine, a directory holding "unified" on a hybrid one.
 */
#ifndef UPROCFS_PFS_SYSOBJ_H
#define UPROCFS_PFS_SYSOBJ_H

#include <stdint.h>

#include "uprocfs/machine.h"

#ifdef __cplusplus
extern "C" {
#endif

enum pfs_obj_type {
	PFS_OBJ_CGTOP,   /* /sys/fs/cgroup: index 0 */
	PFS_OBJ_CGROUP,  /* a v2 group: index into mach->cgroups */
	PFS_OBJ_DEVDIR,  /* a directory of /sys/devices above a disk: (disk << 4) | depth */
	PFS_OBJ_BLK,     /* a block device's directory: index into mach->sys.blk */
	PFS_OBJ_NET,     /* a network device's directory: index into mach_sys_net(mach)->devs */
};

#define PFS_OBJ_SHIFT 22
#define PFS_OBJ_INDEX_MASK ((1u << PFS_OBJ_SHIFT) - 1)
#define PFS_OBJ_DEPTH_BITS 4

/** The instance of object @index of kind @type. */
static inline uint32_t pfs_obj(enum pfs_obj_type type, uint32_t index)
{
	return (uint32_t)type << PFS_OBJ_SHIFT | (index & PFS_OBJ_INDEX_MASK);
}

static inline enum pfs_obj_type pfs_obj_type(uint32_t inst)
{
	return (enum pfs_obj_type)(inst >> PFS_OBJ_SHIFT);
}

static inline uint32_t pfs_obj_index(uint32_t inst)
{
	return inst & PFS_OBJ_INDEX_MASK;
}

/**
 * The v2 group a cgroupfs directory instance stands for: a group, or the
 * mount point of a pure v2 machine (its root); MACH_NONE otherwise.
 */
static inline uint32_t pfs_obj_cgroup(const struct mach_machine *m, uint32_t inst)
{
	uint32_t i = pfs_obj_index(inst);

	if (pfs_obj_type(inst) == PFS_OBJ_CGROUP)
		return i < m->ncgroups && !m->cgroups[i].dead ? i : MACH_NONE;
	if (pfs_obj_type(inst) == PFS_OBJ_CGTOP && !i && !mach_cg_hybrid(m))
		return mach_cg_v2_top(m);
	return MACH_NONE;
}

/** The group no machine has: a directory of a group the model lacks, named for the loader. */
static inline bool pfs_sysobj_placeholder(uint32_t inst)
{
	return pfs_obj_type(inst) == PFS_OBJ_CGROUP && pfs_obj_index(inst) == PFS_OBJ_INDEX_MASK;
}

/** Whether a directory instance is cgroupfs's (the mount point or a group). */
static inline bool pfs_sysobj_is_cgroup(uint32_t inst)
{
	return pfs_obj_type(inst) == PFS_OBJ_CGTOP || pfs_obj_type(inst) == PFS_OBJ_CGROUP;
}

/** The block device a directory instance stands for (an index into mach->sys.blk), or -1. */
static inline int pfs_obj_blk(const struct mach_machine *m, uint32_t inst)
{
	uint32_t i = pfs_obj_index(inst);

	return pfs_obj_type(inst) == PFS_OBJ_BLK && i < m->sys.nblk ? (int)i : -1;
}

/** The network device of /sys/class/net's namespace a directory instance stands for (an index into its devs), or -1. */
static inline int pfs_obj_net(const struct mach_machine *m, uint32_t inst)
{
	const struct mach_net *n = pfs_obj_type(inst) == PFS_OBJ_NET ? mach_sys_net(m) : NULL;

	return n && pfs_obj_index(inst) < n->ndevs && n->devs[pfs_obj_index(inst)].sys.known ? (int)pfs_obj_index(inst)
											      : -1;
}

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_PFS_SYSOBJ_H */
