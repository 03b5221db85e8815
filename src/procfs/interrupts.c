// SPDX-License-Identifier: MIT
/*
 * interrupts.c - /proc/interrupts and /proc/softirqs.
 *
 * /proc/interrupts mirrors kernel/irq/proc.c show_interrupts (one record
 * per irq, the header with the first) and arch/x86/kernel/irq.c
 * arch_show_interrupts in the seq_printf form Linux 6.18 prints: columns
 * for the online CPUs, the irq number and the arch symbols right-aligned to
 * prec (3, one more per power of ten from 1000 up to nr_irqs), counts as
 * " %10u" on irq lines but "%10u " on arch lines, ERR and MIS with one
 * machine-wide number.  /proc/softirqs mirrors fs/proc/softirqs.c
 * show_softirqs: columns for the possible CPUs.
 *
 * Most columns are zeros (a queue's vector fires on one CPU of a thousand),
 * so runs of zeros are copied from a constant string: the bytes are those of
 * the printf form, as the later kernels' zero fast path keeps them.
 */
#include <stdint.h>
#include <string.h>

#include "render.h"

#define ZERO_RUN 32
/* " %10u" and "%10u " of 0, ZERO_RUN times each */
#define Z11 "          0"
#define Z11T "         0 "
#define Z4(z) z z z z
static const char zeros_lead[] = Z4(Z4(Z11)) Z4(Z4(Z11));
static const char zeros_trail[] = Z4(Z4(Z11T)) Z4(Z4(Z11T));

_Static_assert(sizeof(zeros_lead) == 11 * ZERO_RUN + 1, "ZERO_RUN columns of zeros");

/* A run of @n zero columns. */
static void put_zeros(struct seq_file *m, const char *zeros, unsigned int n)
{
	while (n) {
		unsigned int k = n < ZERO_RUN ? n : ZERO_RUN;

		seq_write(m, zeros, 11 * (size_t)k);
		n -= k;
	}
}

/*
 * One count per CPU: the counter at @first, then every @stride bytes (an
 * irq's per_cpu array, or one arch row across struct mach_cpu), for the
 * online CPUs (@online_only) or all possible ones.  @trail: "%10u " rather
 * than " %10u".
 */
static void put_columns(struct seq_file *m, const struct mach_machine *mach, const uint32_t *first,
			size_t stride, bool online_only, bool trail)
{
	const char *zeros = trail ? zeros_trail : zeros_lead;
	unsigned int run = 0;

	for (unsigned int c = 0; c < mach->ncpus; c++) {
		uint32_t v = first ? *(const uint32_t *)(const void *)((const char *)first + c * stride) : 0;

		if (online_only && !mach->cpus[c].online)
			continue;
		if (!v) {
			run++;
			continue;
		}
		put_zeros(m, zeros, run);
		run = 0;
		if (trail) {
			seq_put_decimal_ull_width(m, NULL, v, 10);
			seq_putc(m, ' ');
		} else {
			seq_put_decimal_ull_width(m, " ", v, 10);
		}
	}
	put_zeros(m, zeros, run);
}

/* "CPU%-8d" for each CPU shown. */
static void put_cpu_header(struct seq_file *m, const struct mach_machine *mach, bool online_only)
{
	for (unsigned int c = 0; c < mach->ncpus; c++) {
		size_t start;

		if (online_only && !mach->cpus[c].online)
			continue;
		start = m->count;
		seq_put_decimal_ull(m, "CPU", mach->cpus[c].id);
		for (size_t w = m->count - start; w < 11 && !seq_has_overflowed(m); w++)
			seq_putc(m, ' ');
	}
	seq_putc(m, '\n');
}

/* The width of irq numbers and arch symbols: 3, and one more per power of ten from 1000 to nr_irqs. */
static unsigned int irq_prec(const struct mach_machine *mach)
{
	unsigned int prec = 3;

	for (uint64_t j = 1000; prec < 10 && j <= mach->nr_irqs; j *= 10)
		prec++;
	return prec;
}

/* @s right-aligned in @width columns ("%*s"). */
static void put_right(struct seq_file *m, const char *s, unsigned int width)
{
	size_t len = strlen(s);

	for (; len < width; width--)
		seq_putc(m, ' ');
	seq_write(m, s, len);
}

/* The spaces of "%*s" with an empty string. */
static void put_spaces(struct seq_file *m, unsigned int n)
{
	while (n--)
		seq_putc(m, ' ');
}

/* One device irq line (show_interrupts for an irq with an action). */
static void show_irq_line(struct seq_file *m, const struct mach_machine *mach, const struct mach_irq *irq,
			  unsigned int prec)
{
	char num[24];

	seq_snprintf(num, sizeof(num), "%u", irq->irq);
	put_right(m, num, prec);
	seq_putc(m, ':');
	put_columns(m, mach, irq->per_cpu, sizeof(uint32_t), true, false);
	seq_putc(m, ' ');
	put_right(m, irq->chip ? irq->chip : "", 8);
	if (irq->has_domain) {
		seq_snprintf(num, sizeof(num), "%lu", irq->hwirq);
		seq_putc(m, ' ');
		put_right(m, num, prec);
	} else {
		seq_putc(m, ' ');
		put_spaces(m, prec);
	}
	if (irq->flow) {
		size_t len = strlen(irq->flow);

		seq_putc(m, '-');
		seq_write(m, irq->flow, len);
		put_spaces(m, len < 8 ? 8 - (unsigned int)len : 0);
	}
	seq_puts(m, "  ");
	seq_puts(m, irq->actions);
	seq_putc(m, '\n');
}

/* arch_show_interrupts: the rows this kernel prints, in order. */
static void show_arch_rows(struct seq_file *m, const struct mach_machine *mach, unsigned int prec)
{
	for (int r = 0; r < MACH_NR_ARCH_IRQS; r++) {
		const struct mach_arch_irq_format *f = &mach_arch_irq_formats[r];

		if (!(mach->profile.arch_irq_rows & (1u << r)))
			continue;
		put_right(m, f->sym, prec);
		seq_puts(m, ": ");
		if (!f->text) {
			seq_put_decimal_ull_width(m, NULL, r == MACH_ARCH_IRQ_ERR ? mach->irq_err : mach->irq_mis,
						  10);
			seq_putc(m, '\n');
			continue;
		}
		put_columns(m, mach, mach->ncpus ? &mach->cpus[0].arch_irq[r] : NULL, sizeof(struct mach_cpu), true,
			    true);
		seq_puts(m, "  ");
		seq_puts(m, f->text);
		seq_putc(m, '\n');
	}
}

/* Records: 1 + the index of an irq, then 1 + nirqs for the arch rows. */
static void *interrupts_start(struct seq_file *m, loff_t *pos)
{
	const struct pfs_ctx *c = m->private;

	return *pos <= (loff_t)c->mach->nirqs ? (void *)(uintptr_t)(*pos + 1) : NULL;
}

static void *interrupts_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return interrupts_start(m, pos);
}

static int interrupts_show(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;
	size_t i = (uintptr_t)v - 1;
	unsigned int prec = irq_prec(mach);

	if (i == 0) {
		put_spaces(m, prec + 8);
		put_cpu_header(m, mach, true);
	}
	if (i == mach->nirqs)
		show_arch_rows(m, mach, prec);
	else if (mach->irqs[i].actions && mach->irqs[i].irq < mach->nr_irqs)
		show_irq_line(m, mach, &mach->irqs[i], prec);
	return 0;
}

const struct seq_operations pfs_interrupts_ops = {
	.start = interrupts_start,
	.next = interrupts_next,
	.stop = pfs_seq_stop_nothing,
	.show = interrupts_show,
};

int pfs_show_softirqs(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;

	(void)v;
	seq_puts(m, "                    ");
	put_cpu_header(m, mach, false);
	for (int i = 0; i < MACH_NR_SOFTIRQS; i++) {
		put_right(m, mach_softirq_names[i], 12);
		seq_putc(m, ':');
		put_columns(m, mach, mach->ncpus ? &mach->cpus[0].softirq[i] : NULL, sizeof(struct mach_cpu), false,
			    false);
		seq_putc(m, '\n');
	}
	return 0;
}

size_t pfs_softirqs_first_size(const struct pfs_ctx *c)
{
	/* the whole file in one record: 11 columns of 11 bytes per CPU, and the names */
	return 4096 + 121 * (size_t)c->mach->ncpus;
}
