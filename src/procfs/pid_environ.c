// SPDX-License-Identifier: MIT
/*
 * pid_environ.c - /proc/<pid>/environ: the environment area, NULs included.
 *
 * Mirrors fs/proc/base.c environ_read of Linux 6.18, which copies
 * env_start..env_end of the process memory (mode 0400: the owner only; the
 * transport enforces that).  Kernel threads and zombies have none.
 */
#include "render.h"

int pfs_show_pid_environ(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_mm *mm = c->proc->mm;

	(void)v;
	if (mm && mm->environ_len)
		seq_write(m, mm->environ, mm->environ_len);
	return 0;
}
