/* SPDX-License-Identifier: MIT */
/*
 * ns_intern.h - what pid_ns.c hands ns_intern.c: one thread's namespace,
 * control group and mount records, checked, for the machine's tables.
 */
#ifndef UPROCFS_LOAD_NS_INTERN_H
#define UPROCFS_LOAD_NS_INTERN_H

#include "load_int.h"

/** One thread's records (the leader's two copies merged); borrowed from the records. */
struct nsi_view {
	const struct ld_cgroup *cgroup;
	const struct ld_bytes *cpuset;
	const struct ld_mountinfo *mountinfo;
	const struct ld_mountlist *mounts, *mountstats;
	uint32_t ino[MACH_NR_NS];          /* 0: not read, or absent */
	const char *ino_path[MACH_NR_NS];
	mach_ld_set absent;                /* the kernel said the task has none */
};

/** Two mounts say the same in every field. */
bool nsi_mount_eq(const struct mach_mount *a, const struct mach_mount *b);

/** The options field /proc/<pid>/mounts prints for @m (show_vfsmnt), into @buf; @buf. */
const char *nsi_mounts_opts(const struct mach_mount *m, char *buf, size_t size);

/**
 * Enter the views of @out's threads (views[i] is threads[i]'s) in @m's
 * tables, sharing entries that say the same, and set each thread's css_set
 * and nsset.  0 or -ENOMEM.
 */
int nsi_enter(struct mach_machine *m, struct mach_process *out, const struct nsi_view *views);

#endif
