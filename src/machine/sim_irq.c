// SPDX-License-Identifier: MIT
/*
 * sim_irq.c - the simulator's interrupt accounting (sim_irq.h).
 *
 * Every count goes to a per-CPU counter the model keeps (an irq's per_cpu,
 * a CPU's arch rows and softirqs); /proc/stat sums them, so the files stay
 * in agreement however the simulator moves them.
 */
#include <errno.h>
#include <stdlib.h>

#include "sim_irq.h"

#define IDLE_TICK_EVERY 20        /* NO_HZ_IDLE: an idle CPU takes about one tick in this many */
#define CALL_IPI_EVERY 6          /* function call IPIs per rescheduling IPI, as servers show them */

/* The CPU an irq's counts went to most: where its vector fires. */
static unsigned int home_cpu(const struct mach_irq *irq, unsigned int ncpus)
{
	unsigned int best = 0;

	for (unsigned int c = 1; irq->per_cpu && c < ncpus; c++)
		if (irq->per_cpu[c] > irq->per_cpu[best])
			best = c;
	return best;
}

int sim_irqs_init(struct sim_irqs *si, const struct mach_machine *m)
{
	*si = (struct sim_irqs){ 0 };
	si->blk_of_cpu = malloc((m->ncpus ? m->ncpus : 1) * sizeof(int));
	si->net = malloc((m->nirqs ? m->nirqs : 1) * sizeof(unsigned int));
	si->home = malloc((m->nirqs ? m->nirqs : 1) * sizeof(unsigned int));
	if (!si->blk_of_cpu || !si->net || !si->home) {
		sim_irqs_free(si);
		return -ENOMEM;
	}
	for (unsigned int c = 0; c < m->ncpus; c++)
		si->blk_of_cpu[c] = -1;
	for (unsigned int i = 0; i < m->nirqs; i++) {
		const struct mach_irq *irq = &m->irqs[i];

		si->home[i] = home_cpu(irq, m->ncpus);
		if (!irq->per_cpu)
			continue;
		if (irq->dev == MACH_IRQ_DEV_NET)
			si->net[si->nnet++] = i;
		/* a disk queue serves the CPUs from its home up to the next queue's */
		if (irq->dev == MACH_IRQ_DEV_BLOCK)
			for (unsigned int c = si->home[i]; c < m->ncpus; c++)
				si->blk_of_cpu[c] = (int)i;
	}
	return 0;
}

void sim_irqs_free(struct sim_irqs *si)
{
	free(si->blk_of_cpu);
	free(si->net);
	free(si->home);
	*si = (struct sim_irqs){ 0 };
}

void sim_irq_ticks(struct mach_machine *m, unsigned int cpu, bool busy, uint64_t ticks, uint64_t rnd)
{
	struct mach_cpu *c = &m->cpus[cpu];
	uint32_t n = (uint32_t)ticks;

	if (!busy)
		n = (uint32_t)((ticks + rnd % IDLE_TICK_EVERY) / IDLE_TICK_EVERY);
	if (!n)
		return;
	c->arch_irq[MACH_ARCH_IRQ_LOC] += n;
	c->softirq[MACH_SOFTIRQ_RCU] += n + (busy ? n : 0);
	/* the timer wheel and the load balancer run on a part of the ticks */
	c->softirq[MACH_SOFTIRQ_TIMER] += (n + (uint32_t)(rnd >> 8) % 5) / 5;
	c->softirq[MACH_SOFTIRQ_SCHED] += (n + (uint32_t)(rnd >> 16) % 4) / 4;
}

void sim_irq_resched(struct mach_machine *m, unsigned int cpu, uint64_t rnd)
{
	m->cpus[cpu].arch_irq[MACH_ARCH_IRQ_RES]++;
	if (rnd % CALL_IPI_EVERY == 0)
		m->cpus[cpu].arch_irq[MACH_ARCH_IRQ_CAL]++;
}

void sim_irq_io_done(const struct sim_irqs *si, struct mach_machine *m, unsigned int cpu)
{
	int i = si->blk_of_cpu ? si->blk_of_cpu[cpu] : -1;
	unsigned int home;

	if (i < 0)
		return;
	home = si->home[i];
	m->irqs[i].per_cpu[home]++;
	m->cpus[home].softirq[MACH_SOFTIRQ_BLOCK]++;
}

void sim_irq_net(const struct sim_irqs *si, struct mach_machine *m, uint64_t packets, uint64_t rnd)
{
	for (uint64_t k = 0; k < packets && si->nnet; k++) {
		unsigned int i = si->net[(rnd + k * 0x9e3779b9u) % si->nnet], home = si->home[i];

		m->irqs[i].per_cpu[home]++;
		m->cpus[home].softirq[MACH_SOFTIRQ_NET_RX]++;
	}
}
