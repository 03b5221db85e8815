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

#endif
