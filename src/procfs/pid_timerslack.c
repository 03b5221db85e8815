// SPDX-License-Identifier: MIT
/*
 * pid_timerslack.c - /proc/<pid>/timerslack_ns (the thread group leader's).
 *
 * Mirrors fs/proc/base.c timerslack_ns_show of Linux 6.18: "%llu"
 * nanoseconds.  Anyone may open it (0666); reading another task's needs
 * CAP_SYS_NICE (the table's PFS_ACC_SELF_OR_NICE).
 */
#include "render.h"

int pfs_show_pid_timerslack_ns(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_put_decimal_ull(m, NULL, c->thread->timer_slack_ns);
	seq_putc(m, '\n');
	return 0;
}
