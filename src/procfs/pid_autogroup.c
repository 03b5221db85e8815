// SPDX-License-Identifier: MIT
/*
 * pid_autogroup.c - /proc/<pid>/autogroup (CONFIG_SCHED_AUTOGROUP).
 *
 * Mirrors kernel/sched/autogroup.c proc_sched_autogroup_show_task of
 * Linux 6.18: "/autogroup-ID nice N", or nothing at all for a task in the
 * root autogroup (kernel threads, and what never called setsid()).
 */
#include "render.h"

int pfs_show_pid_autogroup(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	if (!c->proc->autogroup_id)
		return 0; /* autogroup_kref_put of the root group: no line */
	seq_put_decimal_ull(m, "/autogroup-", c->proc->autogroup_id);
	seq_put_decimal_ll(m, " nice ", c->proc->autogroup_nice);
	seq_putc(m, '\n');
	return 0;
}
