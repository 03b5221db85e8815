/* SPDX-License-Identifier: MIT */
/* table_int.h - what the parts of the file table share. */
#ifndef UPROCFS_TABLE_INT_H
#define UPROCFS_TABLE_INT_H

#include "uprocfs/procfs.h"

/**
 * Whether the model knows what instance @inst of leaf entry @e shows: an
 * fd listed but whose link (fd/) or fdinfo could not be read does not.
 */
bool pfs_coll_known(const struct pfs_entry *e, const struct pfs_ctx *c, uint32_t inst);

/** A leaf collection: a "*" entry whose instances are not scopes (fd numbers, sysctl keys). */
static inline bool pfs_coll_is_leaf(enum pfs_coll coll)
{
	return pfs_coll_ops(coll) != NULL;
}

/** Whether @e is a "*" entry (its path's last component). */
bool pfs_entry_is_star(const struct pfs_entry *e);

/** Whether each instance on the way to /sys node @n exists on the machine in @c (cpu3 of cpu3/cache/index2 too). */
bool pfs_chain_exists(const struct pfs_node *n, const struct pfs_ctx *c);

/** The operations of a /sys collection (coll_sys.c), or NULL. */
const struct pfs_coll_ops *pfs_sys_coll_ops(enum pfs_coll coll);
/** The operations of a /sys collection of the sensors (coll_sys_sensors.c), or NULL. */
const struct pfs_coll_ops *pfs_sys_sensor_coll_ops(enum pfs_coll coll);

#endif
