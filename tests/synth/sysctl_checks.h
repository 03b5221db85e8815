/* SPDX-License-Identifier: MIT */
/* sysctl_checks.h - a synthetic machine's /proc/sys against the rest of it. */
#ifndef UPROCFS_TESTS_SYSCTL_CHECKS_H
#define UPROCFS_TESTS_SYSCTL_CHECKS_H

#include <stddef.h>

#include "uprocfs/machine.h"

/**
 * Check @m's /proc/sys: the kernel's inventory (every key and the modes of
 * a few), the interfaces' directories, and agreement with meminfo (the
 * overcommit ratio CommitLimit was computed with, nr_hugepages), the CPUs
 * (watchdog_cpumask), the limits the kernel derives from threads-max and
 * file-max.  0, or -1 with the first disagreement in @why.
 */
int sysctl_check(const struct mach_machine *m, char *why, size_t n);

#endif
