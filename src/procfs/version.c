// SPDX-License-Identifier: MIT
/*
 * version.c - /proc/version and /proc/cmdline.
 *
 * version mirrors fs/proc/version.c version_proc_show of Linux 6.18: the
 * banner "%s version %s (BY@HOST) (COMPILER) %s\n" with the UTS sysname,
 * release and version and the build's fixed strings.  cmdline mirrors
 * fs/proc/cmdline.c cmdline_proc_show: the saved command line and a newline.
 */
#include "render.h"

int pfs_show_version(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_kernel_id *k = &c->mach->sys.kid;

	(void)v;
	seq_puts(m, k->sysname);
	seq_puts(m, " version ");
	seq_puts(m, c->mach->profile.kernel_release);
	seq_puts(m, " (");
	seq_puts(m, k->compile_by);
	seq_putc(m, '@');
	seq_puts(m, k->compile_host);
	seq_puts(m, ") (");
	seq_puts(m, k->compiler);
	seq_puts(m, ") ");
	seq_puts(m, k->uts_version);
	seq_putc(m, '\n');
	return 0;
}

int pfs_show_cmdline(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const char *cmdline = c->mach->sys.kid.cmdline;

	(void)v;
	if (cmdline)
		seq_puts(m, cmdline);
	seq_putc(m, '\n');
	return 0;
}
