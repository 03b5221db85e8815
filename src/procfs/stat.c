// SPDX-License-Identifier: MIT
/*
 * stat.c - /proc/stat.
 *
 * Mirrors fs/proc/stat.c show_stat and show_all_irqs of Linux 6.18: the
 * aggregate "cpu  " line (two spaces, kept in 2012 so parsers did not break)
 * sums nanoseconds over all possible CPUs and converts once, each online CPU
 * converts its own, so the aggregate can exceed the sum of the per-CPU lines.
 * The intr line has one count per irq number; runs of inactive irqs are
 * written from a constant string of zeros, as the 2019 genirq rework does.
 * Every count is summed from the same per-CPU counters /proc/interrupts and
 * /proc/softirqs print, so the three files agree by construction.
 */
#include <string.h>

#include "render.h"

static const char zeros16[] = " 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0";

/* The first @ncols columns: 7 before steal (2.6.11), 8 before guest, 9 before guest_nice (2.6.33). */
static void show_cpu_times(struct seq_file *m, const uint64_t ns[MACH_NR_CPUTIME], unsigned int ncols)
{
	for (unsigned int i = 0; i < ncols && i < MACH_NR_CPUTIME; i++)
		seq_put_decimal_ull(m, " ", mach_ns_to_ticks(ns[i]));
	seq_putc(m, '\n');
}

static void show_irq_gap(struct seq_file *m, unsigned int n)
{
	while (n) {
		unsigned int k = n < 16 ? n : 16;
		seq_write(m, zeros16, 2 * k);
		n -= k;
	}
}

static void show_all_irqs(struct seq_file *m, const struct mach_machine *mach)
{
	unsigned int next = 0;

	for (unsigned int i = 0; i < mach->nirqs && mach->irqs[i].irq < mach->nr_irqs; i++) {
		const struct mach_irq *irq = &mach->irqs[i];

		show_irq_gap(m, irq->irq - next);
		seq_put_decimal_ull(m, " ", mach_irq_count(irq, mach->ncpus));
		next = irq->irq + 1;
	}
	show_irq_gap(m, mach->nr_irqs - next);
}

void pfs_stat_totals(const struct mach_machine *mach, uint64_t cpu_ns[MACH_NR_CPUTIME], uint64_t *intr,
		     uint64_t *softirq)
{
	memset(cpu_ns, 0, MACH_NR_CPUTIME * sizeof(uint64_t));
	for (unsigned int i = 0; i < mach->ncpus; i++)
		for (int k = 0; k < MACH_NR_CPUTIME; k++)
			cpu_ns[k] += mach->cpus[i].time_ns[k];
	*intr = pfs_intr_total(mach);
	*softirq = 0;
	for (int i = 0; i < MACH_NR_SOFTIRQS; i++)
		*softirq += pfs_softirq_count(mach, i);
}

uint64_t pfs_softirq_count(const struct mach_machine *mach, int vec)
{
	uint64_t n = mach->softirq[vec];

	for (unsigned int c = 0; c < mach->ncpus; c++)
		n += mach->cpus[c].softirq[vec];
	return n;
}

/*
 * The intr total: every irq's count (kstat_cpu_irqs_sum over the CPUs),
 * the arch rows arch_irq_stat_cpu adds (not TLB, DFR nor the posted-interrupt
 * rows), arch_irq_stat's ERR, and what a machine loaded from /proc/stat
 * alone could not attribute.
 */
uint64_t pfs_intr_total(const struct mach_machine *mach)
{
	uint64_t sum = mach->intr_arch_extra + mach->irq_err;

	for (unsigned int i = 0; i < mach->nirqs; i++)
		sum += mach_irq_count(&mach->irqs[i], mach->ncpus);
	for (unsigned int c = 0; c < mach->ncpus; c++)
		for (int r = 0; r < MACH_NR_ARCH_IRQS; r++)
			if (mach_arch_irq_formats[r].in_intr)
				sum += mach->cpus[c].arch_irq[r];
	return sum;
}

int pfs_show_stat(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;
	uint64_t sum[MACH_NR_CPUTIME], intr, softirq;

	(void)v;
	pfs_stat_totals(mach, sum, &intr, &softirq);

	seq_puts(m, "cpu ");
	show_cpu_times(m, sum, mach->profile.stat_cpu_columns);
	for (unsigned int i = 0; i < mach->ncpus; i++) {
		const struct mach_cpu *cpu = &mach->cpus[i];

		if (!cpu->online)
			continue;
		seq_put_decimal_ull(m, "cpu", cpu->id);
		show_cpu_times(m, cpu->time_ns, mach->profile.stat_cpu_columns);
	}
	seq_put_decimal_ull(m, "intr ", intr);
	show_all_irqs(m, mach);
	seq_put_decimal_ull(m, "\nctxt ", mach->ctxt);
	seq_put_decimal_ull(m, "\nbtime ", mach->btime);
	seq_put_decimal_ull(m, "\nprocesses ", mach->processes);
	seq_put_decimal_ull(m, "\nprocs_running ", mach->procs_running);
	seq_put_decimal_ull(m, "\nprocs_blocked ", mach->procs_blocked);
	seq_putc(m, '\n');
	if (mach->profile.stat_softirq) { /* since 2.6.31 */
		seq_put_decimal_ull(m, "softirq ", softirq);
		for (int i = 0; i < MACH_NR_SOFTIRQS; i++)
			seq_put_decimal_ull(m, " ", pfs_softirq_count(mach, i));
		seq_putc(m, '\n');
	}
	return 0;
}

size_t pfs_stat_first_size(const struct pfs_ctx *c)
{
	unsigned int online = 0;

	for (unsigned int i = 0; i < c->mach->ncpus; i++)
		online += c->mach->cpus[i].online;
	/* the kernel's estimate: "2 bytes minimum per irq count" */
	return 1024 + 128 * (size_t)online + 2 * (size_t)c->mach->nr_irqs;
}
