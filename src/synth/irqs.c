// SPDX-License-Identifier: MIT
/*
 * irqs.c - the interrupts of a synthetic machine: the irq descriptors an
 * x86 server of its size has, and per-CPU counts of every irq, arch row
 * (NMI, LOC, RES, ...) and softirq, from which /proc/stat's intr and
 * softirq lines are summed.
 *
 * The layout is what Linux 6.18 sets up on x86_64: the legacy ISA irqs on
 * the IO-APIC (timer on pin 2, i8042, rtc0, acpi), then from irq 24 the
 * MSI-X vectors of per-device MSI domains ("PCI-MSIX-<BDF>", hwirq = the
 * vector index, "IR-" prefixed where interrupt remapping is on): the disk's
 * admin or config vector and one queue per CPU group (managed affinity, so
 * each queue fires on one CPU of its group), the NIC's queues spread over
 * the CPUs as irqbalance leaves them.  A KVM guest has virtio devices and
 * the HYP row; bare metal has an NVMe disk and an Intel-style NIC.
 *
 * Counts follow the CPU times built before: the local timer ticks at HZ
 * while a CPU is busy and rarely while it idles (NO_HZ), rescheduling and
 * function-call IPIs and the softirqs follow the context switches.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth_int.h"

#define SYNTH_HZ 250.0
#define IDLE_TICKS_PER_SEC 12.0      /* NO_HZ_IDLE: wakeups of an idle CPU */
#define FIRST_DYNAMIC_IRQ 24         /* gsi_top on a PC: dynamic irqs follow the IO-APIC's 24 pins */

/* Seconds CPU @c was busy and idle (including iowait). */
static void cpu_seconds(const struct mach_cpu *c, double *busy, double *idle)
{
	double all = 0, quiet = (double)(c->time_ns[MACH_CPU_IDLE] + c->time_ns[MACH_CPU_IOWAIT]);

	for (int k = 0; k < MACH_NR_CPUTIME; k++)
		all += (double)c->time_ns[k];
	*idle = quiet / 1e9;
	*busy = (all - quiet) / 1e9;
}

/* Append descriptor @irq with strings copied; its counts start at zero. */
static struct mach_irq *add_irq(struct mach_machine *m, unsigned int nr, const char *chip, long hwirq,
				const char *flow, const char *action, enum mach_irq_dev dev)
{
	struct mach_irq *irq = &m->irqs[m->nirqs];

	*irq = (struct mach_irq){ .irq = nr, .has_domain = hwirq >= 0, .hwirq = hwirq >= 0 ? (unsigned long)hwirq : 0,
				  .dev = dev };
	irq->per_cpu = calloc(m->ncpus, sizeof(uint32_t));
	irq->chip = strdup(chip);
	irq->flow = flow ? strdup(flow) : NULL;
	irq->actions = strdup(action);
	m->nirqs++;
	if (!irq->per_cpu || !irq->chip || (flow && !irq->flow) || !irq->actions)
		return NULL;
	return irq;
}

/* Counts that stay within a per-CPU unsigned int, as the kernel's do (they wrap; ours stop short). */
static uint32_t clamp32(double v)
{
	return v <= 0 ? 0 : v >= 4.0e9 ? 4000000000u : (uint32_t)v;
}

/* The legacy irqs on the IO-APIC: few counts, mostly on CPU 0. */
static int legacy_irqs(struct synth *s, const char *ioapic)
{
	static const struct { unsigned int irq, pin; const char *flow, *name; unsigned int max; } legacy[] = {
		{ 0, 2, "edge", "timer", 60 },   { 1, 1, "edge", "i8042", 12 }, { 4, 4, "edge", "ttyS0", 400 },
		{ 8, 8, "edge", "rtc0", 2 },      { 9, 9, "fasteoi", "acpi", 0 }, { 12, 12, "edge", "i8042", 200 },
	};
	struct mach_machine *m = s->m;

	for (size_t i = 0; i < sizeof(legacy) / sizeof(legacy[0]); i++) {
		struct mach_irq *irq;

		if (legacy[i].irq == 4 && !s->virt)
			continue; /* a server's serial console is quiet; only the guest's logs to ttyS0 */
		irq = add_irq(m, legacy[i].irq, ioapic, legacy[i].pin, legacy[i].flow, legacy[i].name, MACH_IRQ_DEV_OTHER);
		if (!irq)
			return -ENOMEM;
		irq->per_cpu[0] = (uint32_t)rng_below(&s->rng, legacy[i].max + 1u);
	}
	return 0;
}

/* One queue vector per CPU group: each fires on the first CPU of its group (managed affinity). */
static int block_queues(struct synth *s, unsigned int *nr, const char *chip, const char *fmt, unsigned int nq,
			double per_sec)
{
	struct mach_machine *m = s->m;
	unsigned int n = m->ncpus;
	char name[32];

	for (unsigned int q = 0; q < nq; q++) {
		unsigned int cpu = q * n / nq;
		double busy, idle;
		struct mach_irq *irq;

		snprintf(name, sizeof(name), fmt, q + (fmt[0] == 'n')); /* nvme0q1.., virtio1-req.0.. */
		irq = add_irq(m, (*nr)++, chip, q + 1, "edge", name, MACH_IRQ_DEV_BLOCK);
		if (!irq)
			return -ENOMEM;
		cpu_seconds(&m->cpus[cpu], &busy, &idle);
		irq->per_cpu[cpu] = clamp32(busy * per_sec * rng_uniform(&s->rng, 0.3, 1.7) + 1);
	}
	return 0;
}

/* The NIC's queue vectors, each left by irqbalance on one CPU, a little on the one before. */
static int net_queues(struct synth *s, unsigned int *nr, const char *chip, unsigned int nq, double per_sec)
{
	struct mach_machine *m = s->m;
	unsigned int n = m->ncpus;
	char name[40], uplink[MACH_IFNAMSIZ];

	sy_net_uplink_name(s, uplink); /* a physical NIC's driver names its vectors after the device */
	for (unsigned int q = 0; q < nq; q++) {
		unsigned int cpu = (q * n / nq + n / 2) % n;
		double v = (double)s->now / 1e9 * per_sec * rng_uniform(&s->rng, 0.3, 1.7) / nq;
		struct mach_irq *irq;

		for (unsigned int k = 0; k < (s->virt ? 2u : 1u); k++) {
			if (s->virt)
				snprintf(name, sizeof(name), k ? "virtio0-output.%u" : "virtio0-input.%u", q);
			else
				snprintf(name, sizeof(name), "%s-TxRx-%u", uplink, q);
			irq = add_irq(m, (*nr)++, chip, s->virt ? 1 + 2 * q + k : q, "edge", name, MACH_IRQ_DEV_NET);
			if (!irq)
				return -ENOMEM;
			irq->per_cpu[cpu] = clamp32(v * (k ? 0.6 : 1.0) * 0.95);
			irq->per_cpu[(cpu + n - 1) % n] += clamp32(v * (k ? 0.6 : 1.0) * 0.05);
		}
	}
	return 0;
}

/* The device irqs: legacy, then the disk's and the NIC's MSI-X vectors. */
static int device_irqs(struct synth *s)
{
	struct mach_machine *m = s->m;
	unsigned int n = m->ncpus, blkq = n < 64 ? n : 64, netq = n < 32 ? n : 32, nr = FIRST_DYNAMIC_IRQ;
	double io_rate = 20 + 600 * s->o->io, net_rate = 50 + 4000 * s->o->load;
	struct mach_irq *irq;
	int rc;

	m->irqs = calloc(8 + 2 + blkq + 2 * netq + 1, sizeof(*m->irqs));
	if (!m->irqs)
		return -ENOMEM;
	if (s->virt) {
		if ((rc = legacy_irqs(s, "IO-APIC")) || !(irq = add_irq(m, nr++, "PCI-MSIX-0000:00:03.0", 0, "edge",
									   "virtio0-config", MACH_IRQ_DEV_OTHER)))
			return rc ? rc : -ENOMEM;
		if ((rc = net_queues(s, &nr, "PCI-MSIX-0000:00:03.0", netq, net_rate)))
			return rc;
		if (!(irq = add_irq(m, nr++, "PCI-MSIX-0000:00:04.0", 0, "edge", "virtio1-config", MACH_IRQ_DEV_OTHER)))
			return -ENOMEM;
		return block_queues(s, &nr, "PCI-MSIX-0000:00:04.0", "virtio1-req.%u", blkq, io_rate);
	}
	if ((rc = legacy_irqs(s, "IR-IO-APIC")) ||
	    !(irq = add_irq(m, nr++, "DMAR-MSI", 0, "edge", "dmar0", MACH_IRQ_DEV_OTHER)))
		return rc ? rc : -ENOMEM;
	if (!(irq = add_irq(m, nr++, "IR-PCI-MSIX-0000:01:00.0", 0, "edge", "nvme0q0", MACH_IRQ_DEV_OTHER)))
		return -ENOMEM;
	irq->per_cpu[0] = (uint32_t)rng_range(&s->rng, 20, 200); /* the admin queue: setup and smart polls */
	if ((rc = block_queues(s, &nr, "IR-PCI-MSIX-0000:01:00.0", "nvme0q%u", blkq, io_rate)) ||
	    (rc = net_queues(s, &nr, "IR-PCI-MSIX-0000:02:00.0", netq, net_rate)))
		return rc;
	char uplink[MACH_IFNAMSIZ];

	sy_net_uplink_name(s, uplink);
	irq = add_irq(m, nr++, "IR-PCI-MSIX-0000:02:00.0", netq, "edge", uplink, MACH_IRQ_DEV_OTHER);
	if (!irq)
		return -ENOMEM;
	irq->per_cpu[0] = (uint32_t)rng_range(&s->rng, 2, 12); /* link changes */
	return 0;
}

/* The arch rows and the softirqs of each CPU, and the softirqs its device irqs raised. */
static void per_cpu_counts(struct synth *s)
{
	struct mach_machine *m = s->m;
	double switches = (double)m->ctxt / m->ncpus;

	for (unsigned int c = 0; c < m->ncpus; c++) {
		struct mach_cpu *cpu = &m->cpus[c];
		double busy, idle, loc;
		uint32_t *a = cpu->arch_irq, *soft = cpu->softirq;

		cpu_seconds(cpu, &busy, &idle);
		loc = (busy * SYNTH_HZ + idle * IDLE_TICKS_PER_SEC) * rng_uniform(&s->rng, 0.95, 1.05);
		a[MACH_ARCH_IRQ_LOC] = clamp32(loc);
		a[MACH_ARCH_IRQ_RES] = clamp32(switches * rng_uniform(&s->rng, 0.2, 0.5));
		a[MACH_ARCH_IRQ_CAL] = clamp32(a[MACH_ARCH_IRQ_RES] * rng_uniform(&s->rng, 0.05, 0.2));
		a[MACH_ARCH_IRQ_TLB] = clamp32(a[MACH_ARCH_IRQ_RES] * rng_uniform(&s->rng, 0.002, 0.02));
		a[MACH_ARCH_IRQ_IWI] = (uint32_t)rng_below(&s->rng, 4);
		/* no NMI watchdog: the reference kernel has no hardlockup detector (kernel.nmi_watchdog 0, 0444) */
		if (s->virt)
			a[MACH_ARCH_IRQ_HYP] = (uint32_t)rng_range(&s->rng, 20, 120);
		soft[MACH_SOFTIRQ_TIMER] = clamp32(loc * rng_uniform(&s->rng, 0.15, 0.25));
		soft[MACH_SOFTIRQ_SCHED] = clamp32(loc * rng_uniform(&s->rng, 0.15, 0.3) + switches * 0.02);
		soft[MACH_SOFTIRQ_RCU] = clamp32(loc * rng_uniform(&s->rng, 1.5, 3.0));
		soft[MACH_SOFTIRQ_TASKLET] = (uint32_t)rng_below(&s->rng, 3);
		soft[MACH_SOFTIRQ_HRTIMER] = (uint32_t)rng_below(&s->rng, 20);
	}
	m->cpus[0].softirq[MACH_SOFTIRQ_HI] = (uint32_t)rng_below(&s->rng, 50);
	/* a queue's completions run in the softirq of the CPU its vector fired on */
	for (unsigned int i = 0; i < m->nirqs; i++) {
		const struct mach_irq *irq = &m->irqs[i];

		for (unsigned int c = 0; c < m->ncpus; c++) {
			uint32_t *soft = m->cpus[c].softirq, v = irq->per_cpu[c];

			if (irq->dev == MACH_IRQ_DEV_BLOCK)
				soft[MACH_SOFTIRQ_BLOCK] = clamp32((double)soft[MACH_SOFTIRQ_BLOCK] + v);
			else if (irq->dev == MACH_IRQ_DEV_NET)
				soft[MACH_SOFTIRQ_NET_RX] = clamp32((double)soft[MACH_SOFTIRQ_NET_RX] + v * 1.1);
		}
	}
	for (unsigned int c = 0; c < m->ncpus; c++)
		m->cpus[c].softirq[MACH_SOFTIRQ_NET_TX] = m->cpus[c].softirq[MACH_SOFTIRQ_NET_RX] / 40;
}

/*
 * nr_irqs as arch_probe_nr_irqs sizes it for 24 GSIs and the CPUs, the
 * descriptors, then the counts.  /proc/stat keeps nothing of its own: its
 * totals are these counts summed.
 */
int sy_build_irqs(struct synth *s)
{
	struct mach_machine *m = s->m;
	uint64_t nr = 408 + 8 * (uint64_t)s->o->cpus;
	int rc;

	m->nr_irqs = (unsigned int)(nr < 256 * (uint64_t)s->o->cpus ? nr : 256 * (uint64_t)s->o->cpus);
	if ((rc = device_irqs(s)))
		return rc;
	per_cpu_counts(s);
	if (!s->virt)
		m->profile.arch_irq_rows &= ~(1u << MACH_ARCH_IRQ_HYP); /* no hypervisor callback vector */
	m->intr_arch_extra = 0;
	memset(m->softirq, 0, sizeof(m->softirq));
	m->irq_detail = m->softirq_detail = true;
	return 0;
}
