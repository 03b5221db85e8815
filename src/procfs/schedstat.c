// SPDX-License-Identifier: MIT
/* schedstat.c - placeholder while the renderer is written. */
#include "uprocfs/procfs.h"

int pfs_show_schedstat(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	return 0;
}
