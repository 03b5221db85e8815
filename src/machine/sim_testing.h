/* SPDX-License-Identifier: MIT */
/*
 * sim_testing.h - what tests and benchmarks look at inside a simulator.
 *
 * Not installed: a served model only needs sim.h.  These count the
 * simulator's work and make its clock cost what a real one does, for the
 * PSI benchmarks and the simulator's tests.  Include it as
 * "machine/sim_testing.h" (src/ is on the path of the library, the tests
 * and the benchmarks).
 */
#ifndef UPROCFS_SIM_TESTING_H
#define UPROCFS_SIM_TESTING_H

#include <stdbool.h>
#include <stdint.h>

#include "psi/psi_testing.h"
#include "uprocfs/sim.h"

/** Counters of the simulator's work. */
struct mach_sim_stats {
	uint64_t steps, switches, wakeups;
	struct psi_stats psi;
};

/** A copy of the counters. */
void mach_sim_get_stats(const struct mach_sim *s, struct mach_sim_stats *out);

/** Number of workload tasks the simulator moves. */
unsigned int mach_sim_nr_tasks(const struct mach_sim *s);

/**
 * Workload task @i (below mach_sim_nr_tasks): its thread, the PSI group it
 * feeds, and that group's cgroup (a machine cgroups index; MACH_NONE for
 * the system group).  The thread is NULL past the end.
 */
const struct mach_thread *mach_sim_task(const struct mach_sim *s, unsigned int i, const struct psi_group **g,
					uint32_t *cg);

/** The PSI group the simulator made for cgroup @cg (a machine cgroups index), or NULL. */
const struct psi_group *mach_sim_cgroup_psi(const struct mach_sim *s, uint32_t cg);

/**
 * From now on each PSI clock read of @s also reads CLOCK_MONOTONIC, so a
 * benchmark's simulated clock costs what the kernel's cpu_clock() does
 * and the two clock modes differ by what they would on a real machine.
 */
void mach_sim_set_clock_real_cost(struct mach_sim *s, bool on);

#endif /* UPROCFS_SIM_TESTING_H */
