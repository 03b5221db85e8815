// SPDX-License-Identifier: MIT
/*
 * pid_limits.c - /proc/<pid>/limits.
 *
 * Mirrors fs/proc/base.c proc_pid_limits of Linux 6.18 (its lnames[]
 * table is mach_rlimit_name and mach_rlimit_unit): a header of four
 * left-aligned columns, then one row per limit with the raw values
 * ("unlimited" for RLIM_INFINITY) and the unit, if the limit has one.
 */
#include "render.h"

int pfs_show_pid_limits(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_rlimit *rlim = c->proc->rlim;

	(void)v;
	seq_printf(m, "%-25s %-20s %-20s %-10s\n", "Limit", "Soft Limit", "Hard Limit", "Units");
	for (enum mach_rlimit_id i = 0; i < MACH_RLIM_NLIMITS; i++) {
		seq_printf(m, "%-25s ", mach_rlimit_name(i));
		if (rlim[i].cur == MACH_RLIM_INFINITY)
			seq_printf(m, "%-20s ", "unlimited");
		else
			seq_printf(m, "%-20llu ", (unsigned long long)rlim[i].cur);
		if (rlim[i].max == MACH_RLIM_INFINITY)
			seq_printf(m, "%-20s ", "unlimited");
		else
			seq_printf(m, "%-20llu ", (unsigned long long)rlim[i].max);
		if (mach_rlimit_unit(i))
			seq_printf(m, "%-10s\n", mach_rlimit_unit(i));
		else
			seq_putc(m, '\n');
	}
	return 0;
}
