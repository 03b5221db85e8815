// SPDX-License-Identifier: MIT
/*
 * pid_audit.c - /proc/<pid>/loginuid and /proc/<pid>/sessionid.
 *
 * Mirrors fs/proc/base.c proc_loginuid_read and proc_sessionid_read of
 * Linux 6.18: the task's audit login uid and session id as "%u", with no
 * newline; 4294967295 (AUDIT_UID_UNSET, AUDIT_SID_UNSET) until a login sets
 * them.
 */
#include "render.h"

int pfs_show_pid_loginuid(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_put_decimal_ull(m, NULL, mach_thread_cred(c->thread)->loginuid);
	return 0;
}

int pfs_show_pid_sessionid(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_put_decimal_ull(m, NULL, mach_thread_cred(c->thread)->sessionid);
	return 0;
}
