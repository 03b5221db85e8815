/* SPDX-License-Identifier: MIT */
/*
 * table_sys.h - what the file table's /sys part shares: the collections of
 * block devices, device directories and cgroups (sys_coll.c), the
 * predicates that say which files an object's directory holds
 * (sys_exists.c), and the paths of its nodes.
 */
#ifndef UPROCFS_TABLE_SYS_H
#define UPROCFS_TABLE_SYS_H

#include "table_int.h"
#include "uprocfs/pfs_sysobj.h"

extern const struct pfs_coll_ops pfs_sys_block_ops, pfs_class_block_ops, pfs_dev_block_ops;
extern const struct pfs_coll_ops pfs_sysdevices_ops, pfs_devdirs_ops, pfs_blkdevs_ops;
extern const struct pfs_coll_ops pfs_blk_holders_ops, pfs_blk_slaves_ops, pfs_cgroups_ops;
extern const struct pfs_coll_ops pfs_class_net_ops;

/*
 * The objects whose directories hang under /sys/devices (sys_coll_net.c):
 * the block devices (0 ..< nblk) and then the network devices of
 * /sys/class/net's namespace.  Object @o's directory below /sys/devices,
 * in @buf when it is composed there; NULL when it has none.
 */
size_t pfs_sys_nobjs(const struct mach_machine *m);
const char *pfs_sys_obj_dir(const struct mach_machine *m, size_t o, char *buf, size_t size);
/** The directory instance of object @o (a disk: PFS_OBJ_BLK, a network device: PFS_OBJ_NET). */
uint32_t pfs_sys_obj_inst(const struct mach_machine *m, size_t o);
/** The path below /sys of network device directory @inst, or -ENOENT. */
int pfs_net_obj_path(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size);

/**
 * The path below /sys of node @n of the /sys tree (a /sys literal, a named
 * collection's instance, or anything in PFS_SCOPE_SYSOBJ), from the machine
 * bound in @c.  0, -ENOENT or -ENAMETOOLONG.
 */
int pfs_sys_node_path(const struct pfs_node *n, const struct pfs_ctx *c, char *buf, size_t size);

/** Whether pfs_node_path must ask pfs_sys_node_path for @n. */
bool pfs_sys_node_named(const struct pfs_node *n);

/* Which files an object's directory holds (sys_exists.c); c->inst is the directory's instance. */
bool pfs_blk_any(const struct pfs_ctx *c);
bool pfs_blk_disk(const struct pfs_ctx *c);
bool pfs_blk_part(const struct pfs_ctx *c);
bool pfs_blk_queue_attr(const struct pfs_ctx *c);    /* arg: enum mach_blkq */
bool pfs_blk_mq(const struct pfs_ctx *c);
bool pfs_blk_cache_type(const struct pfs_ctx *c);
bool pfs_blk_serial(const struct pfs_ctx *c);
bool pfs_blk_device_link(const struct pfs_ctx *c);
bool pfs_blk_dm(const struct pfs_ctx *c);
bool pfs_blk_loop(const struct pfs_ctx *c);
bool pfs_blk_hw(const struct pfs_ctx *c);            /* arg: enum pfs_blk_hw_attr */

bool pfs_net_any(const struct pfs_ctx *c);
bool pfs_net_device_link(const struct pfs_ctx *c);
int pfs_net_refuses(const struct pfs_ctx *c);        /* arg: enum mach_netdev_attr */

bool pfs_cg_any(const struct pfs_ctx *c);
bool pfs_cg_nonroot(const struct pfs_ctx *c);
bool pfs_cg_psi(const struct pfs_ctx *c);            /* arg: enum mach_psi_res */
bool pfs_cg_psi_any(const struct pfs_ctx *c);
bool pfs_cg_cpu_nonroot(const struct pfs_ctx *c);
bool pfs_cg_mem(const struct pfs_ctx *c);
bool pfs_cg_mem_nonroot(const struct pfs_ctx *c);
bool pfs_cg_io(const struct pfs_ctx *c);
bool pfs_cg_pids_nonroot(const struct pfs_ctx *c);

#endif
