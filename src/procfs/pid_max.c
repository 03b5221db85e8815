// SPDX-License-Identifier: MIT
/*
 * pid_max.c - /proc/sys/kernel/pid_max, as the proc_dointvec sysctl prints
 * an int: the value and a newline.  procps reads it to size its pid columns.
 */
#include "render.h"

int pfs_show_pid_max(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_put_decimal_ll(m, NULL, c->mach->pid_max);
	seq_putc(m, '\n');
	return 0;
}
