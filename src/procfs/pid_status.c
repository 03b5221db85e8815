// SPDX-License-Identifier: MIT
/* pid_status.c - placeholder while the renderer is written. */
#include "uprocfs/procfs.h"

int pfs_show_pid_status(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	return 0;
}
