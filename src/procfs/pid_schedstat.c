// SPDX-License-Identifier: MIT
/*
 * pid_schedstat.c - /proc/<pid>/schedstat and task/<tid>/schedstat.
 *
 * Mirrors fs/proc/base.c proc_pid_schedstat of Linux 6.18 (CONFIG_SCHED_INFO):
 * "%llu %llu %lu\n", the task's se.sum_exec_runtime, its sched_info.run_delay
 * (ns spent runnable on a runqueue) and sched_info.pcount (timeslices run).
 * /proc/<pid>/schedstat is the leader's own, not a sum over the group.
 */
#include "render.h"

int pfs_show_pid_schedstat(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_thread *t = c->thread;

	(void)v;
	seq_put_decimal_ull(m, NULL, t->sum_exec_runtime_ns);
	seq_put_decimal_ull(m, " ", t->run_delay_ns);
	seq_put_decimal_ull(m, " ", t->pcount);
	seq_putc(m, '\n');
	return 0;
}
