// SPDX-License-Identifier: MIT
/* pid_stat.c - placeholder while the renderer is written. */
#include "uprocfs/procfs.h"

int pfs_show_pid_stat(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	return 0;
}
