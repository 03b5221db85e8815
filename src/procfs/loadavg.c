// SPDX-License-Identifier: MIT
/*
 * loadavg.c - /proc/loadavg.
 *
 * Mirrors fs/proc/loadavg.c loadavg_proc_show of Linux 6.18:
 * "%lu.%02lu %lu.%02lu %lu.%02lu %u/%d %d\n" of the three averages after adding
 * FIXED_1/200 (round to two decimals, unlike PSI), runnable/total threads,
 * and the last pid allocated.
 */
#include "render.h"

static void show_load(struct seq_file *m, const char *delim, unsigned long avg)
{
	unsigned long a = avg + MACH_FIXED_1 / 200;
	unsigned long frac = ((a & (MACH_FIXED_1 - 1)) * 100) >> MACH_FSHIFT;

	seq_put_decimal_ull(m, delim, a >> MACH_FSHIFT);
	seq_put_decimal_ull(m, frac < 10 ? ".0" : ".", frac);
}

int pfs_show_loadavg(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;

	(void)v;
	show_load(m, NULL, mach->avenrun[0]);
	show_load(m, " ", mach->avenrun[1]);
	show_load(m, " ", mach->avenrun[2]);
	seq_put_decimal_ull(m, " ", mach->nr_running);
	seq_put_decimal_ll(m, "/", (int)mach->nr_threads);
	seq_put_decimal_ll(m, " ", mach->last_pid);
	seq_putc(m, '\n');
	return 0;
}
