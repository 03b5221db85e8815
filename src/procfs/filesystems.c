// SPDX-License-Identifier: MIT
/*
 * filesystems.c - /proc/filesystems.
 *
 * Mirrors fs/filesystems.c filesystems_proc_show of Linux 6.18: one
 * "%s\t%s\n" line per registered type in registration order, the first field
 * "nodev" unless the type needs a block device.
 */
#include "render.h"

int pfs_show_filesystems(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_sys *s = &c->mach->sys;

	(void)v;
	for (size_t i = 0; i < s->nfstypes; i++) {
		if (!s->fstypes[i].requires_dev)
			seq_puts(m, "nodev");
		seq_putc(m, '\t');
		seq_puts(m, s->fstypes[i].name);
		seq_putc(m, '\n');
	}
	return 0;
}
