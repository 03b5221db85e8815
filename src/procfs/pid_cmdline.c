// SPDX-License-Identifier: MIT
/*
 * pid_cmdline.c - /proc/<pid>/cmdline: the argument area, NULs included.
 *
 * Mirrors fs/proc/base.c proc_pid_cmdline_read (get_mm_cmdline) of Linux 6.18,
 * which copies the bytes between arg_start and arg_end of the process memory;
 * kernel threads and zombies have none.  The model keeps those bytes as the
 * kernel would return them.
 */
#include "render.h"

int pfs_show_pid_cmdline(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_mm *mm = c->proc->mm;

	(void)v;
	if (mm && mm->cmdline_len)
		seq_write(m, mm->cmdline, mm->cmdline_len);
	return 0;
}
