// SPDX-License-Identifier: MIT
/*
 * pid_personality.c - /proc/<pid>/personality.
 *
 * Mirrors fs/proc/base.c proc_pid_personality of Linux 6.18: "%08x" of
 * task->personality, after lock_trace (the table's attach check, made at
 * read time).
 */
#include "render.h"

int pfs_show_pid_personality(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_put_hex_ll(m, NULL, mach_thread_cred(c->thread)->personality, 8);
	seq_putc(m, '\n');
	return 0;
}
