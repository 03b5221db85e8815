/* SPDX-License-Identifier: MIT */
/*
 * psi_internal.h - the PSI engine's private types, shared by psi.c (task
 * changes), psi_group.c (groups and the engine), psi_avgs.c (aggregation)
 * and psi_pressure.c (snapshots).
 *
 * Mirrors struct psi_group_cpu and struct psi_group of
 * include/linux/psi_types.h (Linux 6.18), without triggers (no PSI_POLL
 * aggregator, no rtpoll) and with the averaging work's timer as two fields.
 */
#ifndef UPROCFS_PSI_INTERNAL_H
#define UPROCFS_PSI_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "psi/psi_testing.h"
#include "uprocfs/calc_load.h"
#include "uprocfs/psi.h"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define NSEC_PER_SEC	1000000000ull

/* The aggregator wants re-arming: set in changed_states by get_recent_times. */
#define PSI_STATE_RESCHEDULE	(1u << (PSI_NR_STATES + 1))

/** One group's state on one CPU (struct psi_group_cpu). */
struct psi_group_cpu {
	/* Written on every task change of this CPU. */
	unsigned int tasks[PSI_NR_TASK_COUNTS];
	uint32_t state_mask;
	uint32_t times[PSI_NR_STATES];	/* ns; wraps, only deltas matter */
	uint64_t state_start;
	/* Written by the aggregator only. */
	uint32_t times_prev[PSI_NR_STATES];
};

struct psi_group {
	/* Hot: read on every walk up the tree. */
	struct psi_group *parent;
	struct psi_engine *eng;
	bool enabled;
	bool avgs_pending;		/* the averaging work is armed */
	uint64_t avgs_due;		/* ... to run at this clock time */

	/* Aggregation. */
	uint64_t total[PSI_NR_STATES - 1];	/* ns, PSI_AVGS aggregator */
	uint64_t avg_total[PSI_NR_STATES - 1];
	unsigned long avg[PSI_NR_STATES - 1][PSI_NR_AVGS];
	uint64_t avg_last_update;
	uint64_t avg_next_update;

	/* Bookkeeping of the tree. */
	struct psi_group *next_all, *prev_all;	/* every group of the engine */
	unsigned int nr_children;
	unsigned int depth;

	struct psi_group_cpu pcpu[];	/* ncpus entries */
};

/** Per-CPU state of the engine (the rq bits PSI looks at, and psi_seq). */
struct psi_cpu {
	/*
	 * psi_seq: odd while a change is being written.  The engine is driven
	 * by one thread at a time, so nothing retries on it; it is kept so the
	 * write sections sit exactly where the kernel's do, which is what the
	 * two clock modes differ in.
	 */
	unsigned int seq;
	struct psi_task *curr;		/* cpu_curr(): the task on this CPU */
};

struct psi_engine {
	/* Hot. */
	enum psi_clock_mode clock_mode;
	unsigned int ncpus;
	psi_clock_fn clock;
	void *clock_ctx;
	struct psi_cpu *cpus;
	uint64_t tick_nsec;		/* ns per jiffy */
	unsigned int psi_freq;		/* PSI_FREQ in jiffies */
	uint64_t period;		/* psi_period in ns */
	struct psi_stats stats;

	bool irq_accounting;
	struct psi_group *system;
	struct psi_group *groups;	/* list of all groups, system first */
};

/* A read on the task-change paths (cpu_clock). */
static inline uint64_t psi_change_clock(struct psi_engine *eng, int cpu)
{
	eng->stats.change_clock_reads++;
	return eng->clock(eng->clock_ctx, cpu);
}

/* A read by the aggregation side (sched_clock, or cpu_clock per CPU). */
static inline uint64_t psi_aggr_clock(struct psi_engine *eng, int cpu)
{
	eng->stats.aggr_clock_reads++;
	return eng->clock(eng->clock_ctx, cpu);
}

static inline uint64_t psi_nsecs_to_jiffies(const struct psi_engine *eng, uint64_t ns)
{
	return ns / eng->tick_nsec;
}

/* psi_avgs.c */
void psi_arm_avgs_work(struct psi_group *group, uint64_t now, uint64_t delay_jiffies);
void psi__group_refresh(struct psi_group *group);

#endif /* UPROCFS_PSI_INTERNAL_H */
