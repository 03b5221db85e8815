// SPDX-License-Identifier: MIT
/*
 * meminfo.c - /proc/meminfo.
 *
 * Mirrors fs/proc/meminfo.c meminfo_proc_show (show_val_kb) with the hugetlb
 * and x86 DirectMap lines of Linux 6.18: each label padded to its value column,
 * the value right-aligned (width 8, or 5 for HugePages_* and
 * HardwareCorrupted), " kB" where the kernel prints it.  Which lines exist is
 * the machine profile's: they depend on the kernel and its configuration.
 * Lines outside the vocabulary (another kernel's) print as they were loaded.
 */
#include <string.h>

#include "render.h"

/* A line the vocabulary does not know: as the file it was loaded from laid it out. */
static void show_extra(struct seq_file *m, const struct mach_extra_key *k, uint64_t v)
{
	bool neg = k->is_signed && (int64_t)v < 0;
	uint64_t mag = neg ? 0 - v : v;
	unsigned int ndig = 1 + neg;

	while (mag >= 10) {
		mag /= 10;
		ndig++;
	}
	unsigned int len = (unsigned int)strlen(k->name);

	seq_puts(m, k->name);
	for (unsigned int c = len + ndig; c < k->col; c++)
		seq_putc(m, ' ');
	if (k->is_signed)
		seq_put_decimal_ll(m, NULL, (long long)v);
	else
		seq_put_decimal_ull(m, NULL, v);
	if (k->kb)
		seq_puts(m, " kB\n");
	else
		seq_putc(m, '\n');
}

int pfs_show_meminfo(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;
	const struct mach_profile *p = &mach->profile;

	(void)v;
	for (unsigned int i = 0; i < p->nmeminfo; i++) {
		unsigned int id = p->meminfo_order[i];
		const struct mach_meminfo_format *f;

		if (id >= MACH_NR_MEMINFO) {
			show_extra(m, &p->meminfo_extra[id - MACH_NR_MEMINFO], mach->meminfo_extra[id - MACH_NR_MEMINFO]);
			continue;
		}
		f = &mach_meminfo_formats[id];
		seq_puts(m, f->label);
		seq_put_decimal_ull_width(m, NULL, mach->meminfo[id], f->width);
		if (f->kb)
			seq_puts(m, " kB\n");
		else
			seq_putc(m, '\n');
	}
	return 0;
}
