// SPDX-License-Identifier: MIT
/* meminfo.c - placeholder while the renderer is written. */
#include "uprocfs/procfs.h"

int pfs_show_meminfo(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	return 0;
}
