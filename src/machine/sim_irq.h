/* SPDX-License-Identifier: MIT */
/*
 * sim_irq.h - the simulator's interrupt accounting (sim_irq.c): which
 * counters of /proc/interrupts and /proc/softirqs a tick, a wakeup, an io
 * completion and network traffic move.  Internal to src/machine/.
 */
#ifndef UPROCFS_SIM_IRQ_H
#define UPROCFS_SIM_IRQ_H

#include <stdbool.h>
#include <stdint.h>

#include "uprocfs/machine.h"

/** Where device interrupts land: found once from the model's descriptors. */
struct sim_irqs {
	int *blk_of_cpu;          /* per CPU: the disk queue irq (index into irqs) completing its io, or -1 */
	unsigned int *net;        /* indexes of the network queue irqs */
	unsigned int nnet;
	unsigned int *home;       /* per irq: the CPU its vector fires on */
};

/** Find the disk and network queues of @m; 0 or -ENOMEM. */
int sim_irqs_init(struct sim_irqs *si, const struct mach_machine *m);

/** Free what sim_irqs_init allocated. */
void sim_irqs_free(struct sim_irqs *si);

/**
 * @ticks timer ticks of CPU @cpu: the local timer fires at HZ while the CPU
 * is @busy and rarely while it idles (NO_HZ); the softirqs it raises.
 * @rnd: a fresh random number.
 */
void sim_irq_ticks(struct mach_machine *m, unsigned int cpu, bool busy, uint64_t ticks, uint64_t rnd);

/**
 * A wakeup sent to CPU @cpu from another: a rescheduling IPI, and now and
 * then (by @rnd) a function call IPI, as remote TLB and membarrier work sends.
 */
void sim_irq_resched(struct mach_machine *m, unsigned int cpu, uint64_t rnd);

/** An io completion for a task of CPU @cpu: its disk queue's vector and the BLOCK softirq. */
void sim_irq_io_done(const struct sim_irqs *si, struct mach_machine *m, unsigned int cpu);

/** @packets network interrupts, spread over the queues by @rnd: the vectors and NET_RX. */
void sim_irq_net(const struct sim_irqs *si, struct mach_machine *m, uint64_t packets, uint64_t rnd);

#endif
