/* SPDX-License-Identifier: MIT */
/* source_int.h - what the model and live sources share. */
#ifndef UPROCFS_SOURCE_INT_H
#define UPROCFS_SOURCE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

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
static inline uint64_t node_needs(const struct pfs_node *n)
{
	return n->entry && n->entry->kind != PFS_DIR ? pfs_entry_needs(n->entry) : ~0ull;
}

/** Sort a few ids ascending. */
void src_sort_ids(pid_t *ids, size_t n);

/** Insert @id into ascending @ids (n used, max room) unless there; the new count. */
size_t src_merge_id(pid_t *ids, size_t n, size_t max, pid_t id);

#endif
