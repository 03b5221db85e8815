/* SPDX-License-Identifier: MIT */
/* sysfs_checks.h - the property checks of test_synth_sysfs.c, by area. */
#ifndef UPROCFS_TESTS_SYSFS_CHECKS_H
#define UPROCFS_TESTS_SYSFS_CHECKS_H

#include <stdint.h>

#include "uprocfs/machine.h"

enum prop { P_BLKSTAT, P_BLKLINK, P_CPUS, P_NET, P_PROCS, P_PIDS, P_MEM, P_CPU, P_IO, P_PSI, NR_PROPS };

/** Count one check of property @p; report the first few that fail. */
void check(enum prop p, int cond, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/** The text of the file at the path @fmt makes, NUL-terminated and malloc'd; NULL when it is not there. */
char *file(const struct mach_machine *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** The value after "@key " in a "key value" text, or 0. */
uint64_t keyed(const char *text, const char *key);
/** The first number of the file at @fmt with @path. */
uint64_t number(const struct mach_machine *m, const char *fmt, const char *path);

/** The block devices' /sys files against /proc's (sysfs_checks_blk.c). */
void check_blocks(const struct mach_machine *m);
/** The CPUs /sys lists against /proc/stat and /proc/cpuinfo (sysfs_checks_blk.c). */
void check_cpus(const struct mach_machine *m);
/** /sys/class/net and each device's statistics/ against /proc/net/dev (sysfs_checks_blk.c). */
void check_net(const struct mach_machine *m);
/** cgroup v2's files against /proc's and each other (sysfs_checks_cg.c). */
void check_cgroups(const struct mach_machine *m);
/** A simulated machine's groups' pressure is the simulator's PSI groups' (sysfs_checks_cg.c). */
void check_sim_pressure(void);

#endif
