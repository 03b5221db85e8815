// SPDX-License-Identifier: MIT
/*
 * vocab.c - name tables of the vocabularies of mach_vocab.h: meminfo, vmstat,
 * the arch rows of /proc/interrupts and the softirq vectors.
 */
#include "uprocfs/machine.h"

#define MEMINFO_FORMAT(id, label, width, kb) [MACH_##id] = { label, width, kb },
const struct mach_meminfo_format mach_meminfo_formats[MACH_NR_MEMINFO] = {
	MACH_MEMINFO_FIELDS(MEMINFO_FORMAT)
};

#define VMSTAT_NAME(id, name) [MACH_##id] = name,
const char *const mach_vmstat_names[MACH_NR_VMSTAT] = {
	MACH_VMSTAT_FIELDS(VMSTAT_NAME)
};

#define ARCH_IRQ_FORMAT(id, sym, text, in_intr) [MACH_ARCH_IRQ_##id] = { sym, text, in_intr },
const struct mach_arch_irq_format mach_arch_irq_formats[MACH_NR_ARCH_IRQS] = {
	MACH_ARCH_IRQ_ROWS(ARCH_IRQ_FORMAT)
};

_Static_assert(MACH_NR_SOFTIRQS == MACH_NR_SOFTIRQ_NAMES, "one name per softirq vector");

#define SOFTIRQ_NAME(id, name) [MACH_SOFTIRQ_##id] = name,
const char *const mach_softirq_names[MACH_NR_SOFTIRQ_NAMES] = {
	MACH_SOFTIRQ_NAMES(SOFTIRQ_NAME)
};
