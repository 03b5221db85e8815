/* SPDX-License-Identifier: MIT */
/*
 * psi_testing.h - what tests and benchmarks look at inside a PSI engine.
 *
 * Not installed: a program reads pressure through psi_fill_pressure; these
 * expose the per-CPU counts and masks, the raw totals and averages, and
 * the engine's work counters, which only a test checking the engine
 * against the kernel's rules or a benchmark counting clock reads needs.
 * Include it as "psi/psi_testing.h" (the src/ directory is on the path of
 * the library, the tests and the benchmarks).
 */
#ifndef UPROCFS_PSI_TESTING_H
#define UPROCFS_PSI_TESTING_H

#include <stdint.h>

#include "uprocfs/psi.h"

/** Counters of what the engine did; clock reads are exact. */
struct psi_stats {
	uint64_t task_changes;		/* successful psi_task_change calls */
	uint64_t task_switches;		/* successful psi_task_switch calls */
	uint64_t group_changes;		/* per-group updates (psi_group_change) */
	uint64_t change_clock_reads;	/* clock reads on the task-change paths */
	uint64_t aggr_clock_reads;	/* reads by readers, the averaging work, group creation */
	uint64_t avgs_works;		/* averaging work runs */
	uint64_t underflows;		/* task count would have gone below 0 (kernel: "psi: task underflow!") */
};

/** Copy the counters into *@out. */
void psi_get_stats(const struct psi_engine *eng, struct psi_stats *out);

/**
 * Switch where task changes read the clock; takes effect at the next
 * change (a benchmark comparing both modes on one engine).
 */
void psi_set_clock_mode(struct psi_engine *eng, enum psi_clock_mode mode);

/** The count @count of @group on @cpu (0 for bad arguments). */
unsigned int psi_group_tasks(const struct psi_group *group, int cpu,
			     enum psi_task_count count);

/** The state mask (bits 1 << PSI_* and PSI_ONCPU) of @group on @cpu. */
uint32_t psi_group_state_mask(const struct psi_group *group, int cpu);

/**
 * The accumulated stall time of @state in ns as of the last aggregation
 * (a read or the averaging work); psi_show prints it / 1000.
 */
uint64_t psi_group_total(const struct psi_group *group, enum psi_states state);

/** avg[@state][@window] in CALC_LOAD_FSHIFT fixed point, as of the last aggregation. */
unsigned long psi_group_avg(const struct psi_group *group, enum psi_states state,
			    unsigned int window);

#endif /* UPROCFS_PSI_TESTING_H */
