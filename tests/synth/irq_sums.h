/* SPDX-License-Identifier: MIT */
/* irq_sums.h - /proc/stat against /proc/interrupts and /proc/softirqs, as printed. */
#ifndef UPROCFS_TESTS_IRQ_SUMS_H
#define UPROCFS_TESTS_IRQ_SUMS_H

#include <stddef.h>

#include "uprocfs/machine.h"

/**
 * Render /proc/stat, /proc/interrupts and /proc/softirqs of @m and check
 * what the research notes found on the live kernel: each irq's intr field
 * is its row's sum over the CPU columns, the intr total adds the arch rows
 * arch_irq_stat_cpu counts (not TLB, DFR, MIS nor the posted-interrupt
 * rows) and ERR, and each softirq field is its row's sum.  0, or -1 with
 * the first disagreement in @why.
 */
int irq_sums_check(const struct mach_machine *m, char *why, size_t n);

#endif
