/* SPDX-License-Identifier: MIT */
/* source_int.h - what the model and live sources share. */
#ifndef UPROCFS_SOURCE_INT_H
#define UPROCFS_SOURCE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "mirror.h"
#include "uprocfs/source.h"

/** CLOCK_BOOTTIME in ns: the served clock. */
uint64_t src_boottime_ns(void);

/** Owner and times of a modelled task's /proc entry whose st_mode @st already holds, as the kernel sets them. */
void src_task_owner(const struct mach_machine *m, const struct mach_process *p, const struct mach_thread *t,
		    struct stat *st);

/** Whether node @n exists in the real procfs at @procfd (and the table serves it): 0 or -ENOENT. */
int src_mirror_exists(int procfd, const struct pfs_node *n);

/** The pids (dir is the root) or tids of a real procfs above @after, ascending. */
size_t src_list_real_ids(int procfd, const struct pfs_node *dir, pid_t after, pid_t *ids, size_t max);

/** The loader kinds a mirror reads to render node @n (every per-task file for a directory). */
/* The loader kind of node @n's own file (MACH_LD_NONE for a directory or a file not loaded). */
static inline enum mach_ld_kind node_own(const struct pfs_node *n)
{
	return n->entry && n->entry->kind != PFS_DIR ? n->entry->load : MACH_LD_NONE;
}

static inline mach_ld_set node_needs(const struct pfs_node *n)
{
	const struct pfs_entry *leaf;

	if (n->entry && n->entry->kind != PFS_DIR)
		return pfs_entry_needs(n->entry);
	/* fd/ and fdinfo/ list their collection: what its entries need */
	leaf = n->entry ? pfs_dir_coll(n, 0) : NULL;
	if (leaf && leaf->coll != PFS_COLL_PIDS && leaf->coll != PFS_COLL_TIDS)
		return pfs_entry_needs(leaf);
	return MACH_LD_ALL;
}

/** Which entries of a collection a mirror reads for node @n: that one (fd/3), none (a directory), or all. */
static inline long node_inst(const struct pfs_node *n)
{
	if (!n->entry || n->entry->kind == PFS_DIR)
		return MIRROR_NO_INSTS;
	if (n->entry->coll != PFS_COLL_NONE && n->entry->coll != PFS_COLL_PIDS && n->entry->coll != PFS_COLL_TIDS)
		return (long)n->inst;
	return MIRROR_ALL_INSTS;
}

/** Sort a few ids ascending. */
void src_sort_ids(pid_t *ids, size_t n);

/** Insert @id into ascending @ids (n used, max room) unless there; the new count. */
size_t src_merge_id(pid_t *ids, size_t n, size_t max, pid_t id);

#endif
