// SPDX-License-Identifier: MIT
/*
 * access.c - who may read what: the entries' access rules, applied the same
 * way whatever the source (fs/proc/base.c proc_mem_open, lock_trace and
 * ptrace_may_access; kernel/ptrace.c __ptrace_may_access).
 */
#include <errno.h>

#include "uprocfs/procfs.h"

/*
 * A reader may ptrace-read a task when it is root, or when the task is a
 * user task of the reader's uid.  Kernel threads are root's alone.
 */
static bool may_ptrace(const struct pfs_reader *r, const struct mach_thread *t)
{
	return r->uid == 0 || (!t->kthread && t->uid[1] == r->uid);
}

int pfs_access_check(const struct pfs_node *n, const struct pfs_reader *r, struct pfs_ctx *c)
{
	if (!c->thread || !r) {
		/* global files, and the command line's own reads, which have every right */
		c->ptrace_ok = true;
		return 0;
	}
	c->ptrace_ok = may_ptrace(r, c->thread);
	switch (n->entry ? n->entry->access : PFS_ACCESS_MODE) {
	case PFS_ACCESS_PTRACE_READ:
	case PFS_ACCESS_PTRACE_ATTACH:
		return c->ptrace_ok ? 0 : -EACCES;
	default:
		return 0;
	}
}
