/* SPDX-License-Identifier: MIT */
/* table_int.h - what the parts of the file table share. */
#ifndef UPROCFS_TABLE_INT_H
#define UPROCFS_TABLE_INT_H

#include "uprocfs/procfs.h"

/** Whether instance @inst of leaf collection @coll exists on the task bound in @c. */
bool pfs_coll_has(enum pfs_coll coll, const struct pfs_ctx *c, uint32_t inst);

/**
 * Whether the model knows what instance @inst of leaf entry @e shows: an
 * fd listed but whose link (fd/) or fdinfo could not be read does not.
 */
bool pfs_coll_known(const struct pfs_entry *e, const struct pfs_ctx *c, uint32_t inst);

/** A leaf collection: a "*" entry whose instances are not scopes (fd numbers). */
static inline bool pfs_coll_is_leaf(enum pfs_coll coll)
{
	return coll != PFS_COLL_NONE && coll != PFS_COLL_PIDS && coll != PFS_COLL_TIDS;
}

#endif
