// SPDX-License-Identifier: MIT
/* pid_cmdline.c - placeholder while the renderer is written. */
#include "uprocfs/procfs.h"

int pfs_show_pid_cmdline(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	return 0;
}
