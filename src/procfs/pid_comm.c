// SPDX-License-Identifier: MIT
/*
 * pid_comm.c - /proc/<pid>/comm: the task's name and a newline.
 *
 * Mirrors fs/proc/base.c comm_show (proc_task_name without escaping) of
 * Linux 6.18: the name is printed raw, and for kernel threads and workqueue
 * workers it is the long form status prints too.
 */
#include "render.h"

int pfs_show_pid_comm(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_puts(m, mach_thread_comm(c->thread));
	seq_putc(m, '\n');
	return 0;
}
