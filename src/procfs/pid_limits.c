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

/* One column: @s, or @v in decimal, left-aligned in @width, then a space ("%-20s ", "%-20lu "). */
static void put_col(struct seq_file *m, const char *s, uint64_t v, size_t width)
{
	seq_setwidth(m, width);
	if (s)
		seq_puts(m, s);
	else
		seq_put_decimal_ull(m, NULL, v);
	seq_pad(m, ' ');
}

int pfs_show_pid_limits(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_rlimit *rlim = mach_process_rlim(c->proc);

	(void)v;
	/* the kernel's seq_printf("%-25s %-20s %-20s %-10s\n"), column by column */
	seq_puts(m, "Limit                     Soft Limit           Hard Limit           Units     \n");
	for (enum mach_rlimit_id i = 0; i < MACH_RLIM_NLIMITS; i++) {
		const char *unit = mach_rlimit_unit(i);

		put_col(m, mach_rlimit_name(i), 0, 25);
		put_col(m, rlim[i].cur == MACH_RLIM_INFINITY ? "unlimited" : NULL, rlim[i].cur, 20);
		put_col(m, rlim[i].max == MACH_RLIM_INFINITY ? "unlimited" : NULL, rlim[i].max, 20);
		if (unit) {
			seq_setwidth(m, 10);
			seq_puts(m, unit);
			seq_pad(m, '\n');
		} else {
			seq_putc(m, '\n');
		}
	}
	return 0;
}
