// SPDX-License-Identifier: MIT
/*
 * access.c - who may read what: the entries' access rules, applied the same
 * way whatever the source (fs/proc/base.c proc_mem_open, lock_trace,
 * proc_fd_access_allowed; kernel/ptrace.c __ptrace_may_access; mm_access).
 */
#include <errno.h>

#include "uprocfs/procfs.h"

/*
 * __ptrace_may_access with fs credentials: the reader's own thread group
 * always; otherwise its fsuid must equal the task's real, effective and
 * saved uid and its fsgid the three gids, or it holds CAP_SYS_PTRACE; and
 * a task that is not dumpable needs CAP_SYS_PTRACE whatever the ids.  Kernel
 * threads carry root's credentials, so only root passes.  (Attach differs
 * only by LSMs such as Yama, which the model has none of.)
 */
static bool may_ptrace(const struct pfs_reader *r, const struct mach_process *p, const struct mach_thread *t)
{
	const struct mach_cred *cr = mach_thread_cred(t);
	bool ids_match;

	if (r->pid && r->pid == p->tgid)
		return true;
	if (t->kthread)
		ids_match = r->uid == 0 && r->gid == 0;
	else
		ids_match = r->uid == cr->uid[0] && r->uid == cr->uid[1] && r->uid == cr->uid[2] &&
			    r->gid == cr->gid[0] && r->gid == cr->gid[1] && r->gid == cr->gid[2];
	if (!ids_match && !r->cap_sys_ptrace)
		return false;
	return !p->undumpable || r->cap_sys_ptrace;
}

/* test_perm: root is checked against the owner's bits, group root against the group's, with no override. */
static int sysctl_perm(const struct pfs_node *n, const struct pfs_reader *r, const struct pfs_ctx *c)
{
	mode_t mode = pfs_node_mode(n, c);

	if (r->uid == 0)
		mode >>= 6;
	else if (r->gid == 0)
		mode >>= 3;
	return mode & 04 ? 0 : -EACCES;
}

int pfs_access_check(const struct pfs_node *n, const struct pfs_reader *r, struct pfs_ctx *c)
{
	unsigned int acc = n->entry ? n->entry->access : 0;
	bool allowed;
	int err = 0;

	c->read_denied = false;
	c->read_err = 0;
	if ((acc & PFS_ACC_SYSCTL) && r && n->entry->kind == PFS_FILE) {
		c->ptrace_ok = true;
		return sysctl_perm(n, r, c);
	}
	if (!c->thread || !r) {
		/* global files, and the command line's own reads, which have every right */
		c->ptrace_ok = true;
		return 0;
	}
	c->ptrace_ok = may_ptrace(r, c->proc, c->thread);
	if ((acc & PFS_ACC_NEED_MM) && !c->proc->mm)
		return -ESRCH;
	if (acc & PFS_ACC_SELF_OR_NICE) {
		/* timerslack_ns_show: a task other than the reading thread needs CAP_SYS_NICE, whatever the ids */
		pid_t me = r->tid ? r->tid : r->pid;

		if ((!me || me != c->thread->tid) && !r->cap_sys_nice) {
			c->read_denied = true;
			c->read_err = EPERM;
		}
		return 0;
	}
	if (!(acc & (PFS_ACC_PTRACE_READ | PFS_ACC_PTRACE_ATTACH)))
		return 0;
	allowed = c->ptrace_ok;
	/* mm_access: a task without an mm, or sharing the reader's, has nothing to hide */
	if ((acc & PFS_ACC_MM) && (!c->proc->mm || (r->pid && r->pid == c->proc->tgid)))
		allowed = true;
	/* stack asks for CAP_SYS_ADMIN first (EACCES), then lock_trace's attach (EPERM) */
	if ((acc & PFS_ACC_CAP_SYS_ADMIN) && !r->cap_sys_admin)
		err = EACCES;
	else if (!allowed)
		err = (acc & PFS_ACC_PTRACE_ATTACH) && (acc & PFS_ACC_AT_READ) ? EPERM : EACCES;
	if (!err)
		return 0;
	if (acc & PFS_ACC_AT_READ) {
		/* checked when read: lock_trace's attach check fails with EPERM, the others with EACCES */
		c->read_denied = true;
		c->read_err = err;
		return 0;
	}
	return -err;
}
