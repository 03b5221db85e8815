// SPDX-License-Identifier: MIT
/*
 * stat.c - /proc/stat as fs/proc/stat.c printed it before KAMEZAWA Hiroyuki's
 * 2012 "procfs: add num_to_str() to speed up /proc/stat" (seed 002): one
 * seq_printf per CPU line with ten "%llu", and " %u" for every irq number.
 * Same bytes as src/procfs/stat.c.
 */
#include "before.h"

#define T(ns) ((unsigned long long)mach_ns_to_ticks(ns))

int before_show_stat(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;
	uint64_t s[MACH_NR_CPUTIME], intr, softirq;
	unsigned int k = 0;

	(void)v;
	pfs_stat_totals(mach, s, &intr, &softirq); /* the numbers are the same; only printing differs */

	before_seq_printf(m, "cpu  %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n", T(s[0]), T(s[1]),
			  T(s[2]), T(s[3]), T(s[4]), T(s[5]), T(s[6]), T(s[7]), T(s[8]), T(s[9]));
	for (unsigned int i = 0; i < mach->ncpus; i++) {
		const uint64_t *t = mach->cpus[i].time_ns;

		if (!mach->cpus[i].online)
			continue;
		before_seq_printf(m, "cpu%u %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
				  mach->cpus[i].id, T(t[0]), T(t[1]), T(t[2]), T(t[3]), T(t[4]), T(t[5]),
				  T(t[6]), T(t[7]), T(t[8]), T(t[9]));
	}
	before_seq_printf(m, "intr %llu", (unsigned long long)intr);
	for (unsigned int irq = 0; irq < mach->nr_irqs; irq++) {
		unsigned long long count = 0;

		if (k < mach->nirqs && mach->irqs[k].irq == irq)
			count = mach_irq_count(&mach->irqs[k++], mach->ncpus);
		before_seq_printf(m, " %llu", count);
	}
	before_seq_printf(m, "\nctxt %llu\nbtime %llu\nprocesses %llu\nprocs_running %u\nprocs_blocked %u\n",
			  (unsigned long long)mach->ctxt, (unsigned long long)mach->btime,
			  (unsigned long long)mach->processes, mach->procs_running, mach->procs_blocked);
	before_seq_printf(m, "softirq %llu", (unsigned long long)softirq);
	for (int i = 0; i < MACH_NR_SOFTIRQS; i++)
		before_seq_printf(m, " %llu", (unsigned long long)pfs_softirq_count(mach, i));
	seq_putc(m, '\n');
	return 0;
}
