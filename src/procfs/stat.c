// SPDX-License-Identifier: MIT
/* stat.c - placeholder while the renderer is written. */
#include "uprocfs/procfs.h"

int pfs_show_stat(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	return 0;
}

size_t pfs_stat_first_size(const struct pfs_ctx *c)
{
	(void)c;
	return 4096;
}
