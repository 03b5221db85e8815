/* SPDX-License-Identifier: MIT */
/*
 * node.h - inode numbers of the served tree.
 *
 * An inode carries everything needed to find its node again, so the daemon
 * keeps no per-inode state and forget is free: the table entry (12 bits),
 * the scope it is seen in (3 bits), a 24-bit value and a 25-bit one: the
 * pid and tid, or the pid and a "*" instance.  Pids stay below 2^24 (the
 * kernel's pid_max limit is 2^22).  A leaf inside a thread (task/<tid>/fd/<n>) needs
 * three values: it keeps the tid and the instance, marked by scope code 3,
 * and its pid is found again from the tid (node_needs_tgid).
 */
#ifndef UPROCFS_FUSE_NODE_H
#define UPROCFS_FUSE_NODE_H

#include <stdint.h>
#include <sys/types.h>

#include "uprocfs/procfs.h"

#define NODE_ENTRY_SHIFT 52
#define NODE_SCOPE_SHIFT 49
#define NODE_SCOPE_MASK 7u
#define NODE_A_BITS 24
#define NODE_A_MASK ((1u << NODE_A_BITS) - 1)
#define NODE_VALUE_BITS 25
#define NODE_VALUE_MASK ((1u << NODE_VALUE_BITS) - 1)

_Static_assert(PFS_NR_SCOPES < NODE_SCOPE_MASK, "scope codes fit in the inode, with one to spare");

#define NODE_SCOPE_TID_LEAF NODE_SCOPE_MASK

/* A leaf instance inside a thread: the tid and the instance, the pid found again. */
static inline bool node_is_tid_leaf(const struct pfs_node *n)
{
	return n->scope == PFS_SCOPE_TID && n->entry->coll != PFS_COLL_NONE && n->entry->coll != PFS_COLL_TIDS;
}

static inline uint64_t node_ino(const struct pfs_node *n)
{
	uint64_t a = (uint32_t)n->pid, b = n->inst, scope = n->scope;

	if (!n->entry)
		return 1; /* FUSE_ROOT_ID */
	if (node_is_tid_leaf(n)) {
		a = (uint32_t)n->tid;
		scope = NODE_SCOPE_TID_LEAF;
	} else if (n->scope == PFS_SCOPE_TID || n->entry->coll == PFS_COLL_TIDS) {
		b = (uint32_t)n->tid;
	}
	return (uint64_t)(pfs_entry_index(n->entry) + 1) << NODE_ENTRY_SHIFT | scope << NODE_SCOPE_SHIFT |
	       (a & NODE_A_MASK) << NODE_VALUE_BITS | (b & NODE_VALUE_MASK);
}

/** Whether a decoded node still needs its pid: the tgid of its tid. */
static inline bool node_needs_tgid(const struct pfs_node *n)
{
	return n->entry && n->scope == PFS_SCOPE_TID && n->pid == 0;
}

/** Decode @ino; -1 when it cannot be one of ours. */
static inline int node_from_ino(uint64_t ino, struct pfs_node *n)
{
	uint64_t e = ino >> NODE_ENTRY_SHIFT;
	uint32_t a = (uint32_t)(ino >> NODE_VALUE_BITS) & NODE_A_MASK, b = (uint32_t)ino & NODE_VALUE_MASK;

	if (ino == 1) {
		*n = pfs_root();
		return 0;
	}
	if (!e || e > pfs_nentries)
		return -1;
	unsigned int scope = (unsigned int)(ino >> NODE_SCOPE_SHIFT) & NODE_SCOPE_MASK;

	*n = (struct pfs_node){ .entry = &pfs_entries[e - 1],
				.scope = scope == NODE_SCOPE_TID_LEAF ? PFS_SCOPE_TID : (enum pfs_scope)scope };
	if (n->scope >= PFS_NR_SCOPES || !(n->entry->scopes & PFS_IN(n->scope)))
		return -1;
	if (scope == NODE_SCOPE_TID_LEAF) {
		n->tid = (pid_t)a; /* the pid: node_needs_tgid */
		n->inst = b;
		return node_is_tid_leaf(n) ? 0 : -1;
	}
	n->pid = (pid_t)a;
	if (n->scope == PFS_SCOPE_TID || n->entry->coll == PFS_COLL_TIDS)
		n->tid = (pid_t)b;
	else
		n->inst = b;
	return 0;
}

#endif
