// SPDX-License-Identifier: MIT
/*
 * pressure.c - /proc/pressure/cpu, memory, io and irq.
 *
 * Mirrors kernel/sched/psi.c psi_show of Linux 6.18 as it prints the model's
 * snapshot (struct mach_pressure; the PSI engine fills it when the machine is
 * simulated): "some" then "full", averages as LOAD_INT.LOAD_FRAC truncated to
 * two decimals with no rounding term (unlike /proc/loadavg), totals in µs.
 * The irq file has only a full line.
 */
#include "render.h"

static void show_avg(struct seq_file *m, const char *label, unsigned long avg)
{
	unsigned long frac = ((avg & (MACH_FIXED_1 - 1)) * 100) >> MACH_FSHIFT;

	seq_put_decimal_ull(m, label, avg >> MACH_FSHIFT);
	seq_put_decimal_ull(m, frac < 10 ? ".0" : ".", frac); /* "%02lu" */
}

static void show_line(struct seq_file *m, const char *kind, const struct mach_psi_line *l)
{
	seq_puts(m, kind);
	show_avg(m, " avg10=", l->avg[0]);
	show_avg(m, " avg60=", l->avg[1]);
	show_avg(m, " avg300=", l->avg[2]);
	seq_put_decimal_ull(m, " total=", l->total_us);
	seq_putc(m, '\n');
}

void pfs_print_pressure(struct seq_file *m, const struct mach_pressure *p)
{
	if (!p->present)
		return;
	if (p->has_some)
		show_line(m, "some", &p->some);
	if (p->has_full)
		show_line(m, "full", &p->full);
}

int pfs_show_pressure(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	pfs_print_pressure(m, &c->mach->pressure[c->arg]);
	return 0;
}
