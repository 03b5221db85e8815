// SPDX-License-Identifier: MIT
/*
 * meminfo.c - /proc/meminfo.
 *
 * Mirrors fs/proc/meminfo.c meminfo_proc_show (show_val_kb) with the hugetlb
 * and x86 DirectMap lines of Linux 6.18: each label padded to its value column,
 * the value right-aligned (width 8, or 5 for HugePages_* and
 * HardwareCorrupted), " kB" where the kernel prints it.  Which lines exist is
 * the machine profile's: they depend on the kernel's configuration.
 */
#include "render.h"

int pfs_show_meminfo(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;

	(void)v;
	for (unsigned int i = 0; i < mach->profile.nmeminfo; i++) {
		enum mach_meminfo_id id = mach->profile.meminfo_order[i];
		const struct mach_meminfo_format *f = &mach_meminfo_formats[id];

		seq_puts(m, f->label);
		seq_put_decimal_ull_width(m, NULL, mach->meminfo[id], f->width);
		if (f->kb)
			seq_puts(m, " kB\n");
		else
			seq_putc(m, '\n');
	}
	return 0;
}
