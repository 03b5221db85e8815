// SPDX-License-Identifier: MIT
/* vmstat.c - placeholder while the renderer is written. */
#include "uprocfs/procfs.h"

int pfs_show_vmstat(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	return 0;
}
