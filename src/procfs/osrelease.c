// SPDX-License-Identifier: MIT
/*
 * osrelease.c - /proc/sys/kernel/osrelease (proc_dostring of utsname's
 * release): the release string and a newline.  top reads it to pick the
 * fields its kernel has.
 */
#include "render.h"

int pfs_show_osrelease(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_puts(m, c->mach->profile.kernel_release);
	seq_putc(m, '\n');
	return 0;
}
