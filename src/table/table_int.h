/* SPDX-License-Identifier: MIT */
/* table_int.h - what the parts of the file table share. */
#ifndef UPROCFS_TABLE_INT_H
#define UPROCFS_TABLE_INT_H

#include "uprocfs/procfs.h"

/** A collection with instances of its own: not the pids and tids, which the sources list. */
static inline bool pfs_coll_is_leaf(enum pfs_coll coll)
{
	return pfs_coll_ops(coll) != NULL;
}

/** Whether @e is a "*" entry (its path's last component). */
bool pfs_entry_is_star(const struct pfs_entry *e);

#endif
