/* SPDX-License-Identifier: MIT */
/*
 * psi.h - pressure stall information (PSI) in userspace.
 *
 * Mirrors kernel/sched/psi.c and include/linux/psi_types.h of Linux 6.18: a
 * tree of groups (the root is the system group, /proc/pressure/<res>; the
 * others are cgroups, <cgroup>/<res>.pressure) with per-CPU task counts,
 * state masks and u32 stall clocks; task state changes walked from a task's
 * group up to the root; the 2 s averaging work folding the per-CPU clocks
 * into totals and avg10/avg60/avg300; and what psi_show prints, as a
 * struct mach_pressure snapshot for the /proc/pressure renderer.
 *
 * Clock: an injectable function (virtual in tests, CLOCK_BOOTTIME when the
 * model is served).  A task change reads it once and hands the same `now` to
 * every group on the way up, inside one per-CPU write section, as 6.17/6.18
 * do (Peter Zijlstra, "sched/psi: Optimize psi_group_change() cpu_clock()
 * usage"; first done in 2021 by Shakeel Butt).  PSI_CLOCK_PER_GROUP restores
 * the older behaviour, one read inside each group's update, so a benchmark
 * can compare both in one process.  Every read is counted (the counters
 * are for tests and benchmarks: src/psi/psi_testing.h, not installed).
 *
 * Not thread-safe: the caller serialises all calls on one engine (the
 * simulator's model lock plays the part of the kernel's rq locks and
 * avgs_lock).  Functions return 0 or -errno and never abort.
 */
#ifndef UPROCFS_PSI_H
#define UPROCFS_PSI_H

#include <stdbool.h>
#include <stdint.h>

#include "uprocfs/machine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Types of include/linux/psi_types.h                                   */

/*
 * Every name here carries the PSI_ / psi_ prefix: the kernel's own names
 * (NR_RUNNING, TSK_RUNNING, EXP_10s, ...) are common enough to be defined by
 * a program or another header already.  Each one mirrors the kernel name
 * given in its comment.
 */

/** Per-CPU task counts of a group (6.1+ order; NR_ONCPU is gone). */
enum psi_task_count {
	PSI_NR_IOWAIT,			/* kernel NR_IOWAIT */
	PSI_NR_MEMSTALL,		/* kernel NR_MEMSTALL */
	PSI_NR_RUNNING,			/* kernel NR_RUNNING */
	PSI_NR_MEMSTALL_RUNNING,	/* kernel NR_MEMSTALL_RUNNING: running
					 * tasks that are also in a memstall */
	PSI_NR_TASK_COUNTS = 4,		/* kernel NR_PSI_TASK_COUNTS */
};

/*
 * Task flags (kernel TSK_IOWAIT, TSK_MEMSTALL, TSK_RUNNING,
 * TSK_MEMSTALL_RUNNING, TSK_ONCPU): one per count, plus ONCPU which is a
 * state bit, not a count.  PSI_TSK_ALL is every one of them.
 */
#define PSI_TSK_IOWAIT			(1u << PSI_NR_IOWAIT)
#define PSI_TSK_MEMSTALL		(1u << PSI_NR_MEMSTALL)
#define PSI_TSK_RUNNING			(1u << PSI_NR_RUNNING)
#define PSI_TSK_MEMSTALL_RUNNING	(1u << PSI_NR_MEMSTALL_RUNNING)
#define PSI_TSK_ONCPU			(1u << PSI_NR_TASK_COUNTS)
#define PSI_TSK_ALL			(PSI_TSK_IOWAIT | PSI_TSK_MEMSTALL | \
					 PSI_TSK_RUNNING | PSI_TSK_MEMSTALL_RUNNING | \
					 PSI_TSK_ONCPU)

/** Resources, in the order of the kernel and of enum mach_psi_res. */
enum psi_res {
	PSI_IO,
	PSI_MEM,
	PSI_CPU,
	PSI_IRQ,	/* only with irq_accounting (CONFIG_IRQ_TIME_ACCOUNTING) */
	PSI_NR_RESOURCES,	/* kernel NR_PSI_RESOURCES */
};

/** Stall states; index = res * 2 + full, as psi_show computes it. */
enum psi_states {
	PSI_IO_SOME,
	PSI_IO_FULL,
	PSI_MEM_SOME,
	PSI_MEM_FULL,
	PSI_CPU_SOME,
	PSI_CPU_FULL,
	PSI_IRQ_FULL,	/* fed by psi_account_irqtime, never by task counts */
	PSI_NONIDLE,	/* only a weight for the aggregation; never printed */
	PSI_NR_STATES,	/* kernel NR_PSI_STATES */
};

/** state_mask bit: a task of this group is the one on this CPU. */
#define PSI_ONCPU		(1u << PSI_NR_STATES)

/** Averaging windows of avg[][]: 10 s, 60 s, 300 s (kernel NR_PSI_AVGS = 3). */
enum { PSI_AVG10, PSI_AVG60, PSI_AVG300, PSI_NR_AVGS };

/*
 * kernel EXP_10s, EXP_60s, EXP_300s: the decay per PSI period of about 2 s,
 * 1/exp(2s/10s) etc. in CALC_LOAD_FSHIFT fixed point.
 */
#define PSI_EXP_10s		1677
#define PSI_EXP_60s		1981
#define PSI_EXP_300s		2034

/** Averaging period in jiffies: 2 s and one tick (2.004 s at HZ=250). */
#define PSI_FREQ_HZ(hz)		(2 * (hz) + 1)
/** The reference machine's tick rate. */
#define PSI_DEFAULT_HZ		250

/* ------------------------------------------------------------------ */
/* Engine                                                              */

struct psi_engine;
struct psi_group;

/**
 * The clock: nanoseconds, monotonic, all CPUs in step (the kernel's
 * cpu_clock(cpu) and sched_clock(); @cpu is -1 for the latter).
 */
typedef uint64_t (*psi_clock_fn)(void *ctx, int cpu);

/** Where a task change reads the clock. */
enum psi_clock_mode {
	/* Once per change, before walking the groups: 5.13 up to the 2024
	 * fix, and 6.17+ with the per-CPU seqcount (the default). */
	PSI_CLOCK_ONCE,
	/* Before 5.13, and from the 2024 aggregation-race fix until 6.17:
	 * once inside each group's update. */
	PSI_CLOCK_PER_GROUP,
};

struct psi_config {
	unsigned int ncpus;		/* possible CPUs, 1..4096 */
	unsigned int hz;		/* 0: 250; must divide 10^9 */
	psi_clock_fn clock;		/* NULL: psi_clock_boottime */
	void *clock_ctx;
	enum psi_clock_mode clock_mode;
	bool irq_accounting;		/* PSI_IRQ exists (off on the reference VM) */
};

/** CLOCK_BOOTTIME in nanoseconds: the clock of a served model. */
uint64_t psi_clock_boottime(void *ctx, int cpu);

/**
 * Create an engine with its system group (created at the clock's current
 * time, like psi_init at boot).  Returns 0 and *@out, -EINVAL for a bad
 * config, -ENOMEM.
 */
int psi_engine_create(const struct psi_config *cfg, struct psi_engine **out);

/** Free the engine and every group it still has.  NULL is a no-op. */
void psi_engine_destroy(struct psi_engine *eng);

/** The root of the tree: what /proc/pressure/<res> prints. */
struct psi_group *psi_system_group(struct psi_engine *eng);

/** Number of CPUs the engine was created with. */
unsigned int psi_nr_cpus(const struct psi_engine *eng);

/** The averaging period in ns (jiffies_to_nsecs(2*HZ+1)). */
uint64_t psi_period_ns(const struct psi_engine *eng);

/* ------------------------------------------------------------------ */
/* Groups (cgroups)                                                    */

/**
 * Create a child group under @parent (psi_cgroup_alloc); its averaging clock
 * starts now.  Returns 0 and *@out, -EINVAL, -ENOMEM.
 */
int psi_group_create(struct psi_engine *eng, struct psi_group *parent,
		     struct psi_group **out);

/**
 * Free a group (psi_cgroup_free).  -EBUSY while it has children or counted
 * tasks, -EINVAL for the system group (freed by psi_engine_destroy).
 */
int psi_group_destroy(struct psi_group *group);

/** The parent group, or NULL for the system group. */
struct psi_group *psi_group_parent(const struct psi_group *group);

/** 0 for the system group, 1 for its children, ... */
unsigned int psi_group_depth(const struct psi_group *group);

/**
 * cgroup.pressure: stop (false) or restart (true) accounting in @group.
 * Counts keep being maintained while disabled; re-enabling restarts the
 * state clocks at the current time (psi_cgroup_restart).  -EINVAL for the
 * system group.
 */
int psi_group_set_enabled(struct psi_group *group, bool enabled);

/* ------------------------------------------------------------------ */
/* Tasks                                                               */

/**
 * What the engine needs of a task (fields of task_struct).  Embed it in
 * your task; set it up with psi_task_init.  NULL stands for a CPU's idle
 * task, which PSI ignores (pid 0).
 */
struct psi_task {
	struct psi_group *group;	/* its cgroup (a leaf or any group) */
	int cpu;			/* task_cpu() */
	unsigned int psi_flags;		/* PSI_TSK_* currently accounted */
	bool in_memstall;		/* set by psi_memstall_enter/leave */
	bool in_iowait;			/* set by the caller before an io sleep,
					 * cleared once the task runs again */
};

/** Point @task at @group on @cpu with no flags.  -EINVAL for bad arguments. */
int psi_task_init(struct psi_task *task, struct psi_group *group, int cpu);

/**
 * Clear then set PSI_TSK_* flags of @task and update its group and every
 * ancestor on its CPU (psi_task_change): enqueue, dequeue, memstall.  In
 * PSI_CLOCK_ONCE mode the clock is read exactly once.  -EINVAL if the flags
 * are inconsistent with the task's (setting one it has, clearing one it has
 * not) - the kernel warns once and carries on; we refuse and change nothing.
 */
int psi_task_change(struct psi_task *task, unsigned int clear, unsigned int set);

/**
 * A context switch on one CPU from @prev to @next (psi_task_switch): set
 * PSI_TSK_ONCPU on @next's groups up to the first one that already has a
 * task on that CPU, clear it on @prev's below that common ancestor, and when
 * @sleep also retire @prev's PSI_TSK_RUNNING (and PSI_TSK_MEMSTALL_RUNNING;
 * PSI_TSK_IOWAIT is set if in_iowait) all the way up.  Either task may be
 * NULL (the idle task), not both; both must be on the same CPU; @prev must
 * be on the CPU and @next not.  One clock read in PSI_CLOCK_ONCE mode.
 */
int psi_task_switch(struct psi_task *prev, struct psi_task *next, bool sleep);

/**
 * Wake a sleeping task onto its CPU's runqueue (psi_enqueue for a wakeup):
 * clear PSI_TSK_IOWAIT if in_iowait, set PSI_TSK_RUNNING (and
 * PSI_TSK_MEMSTALL_RUNNING when in a memstall).
 */
int psi_task_wakeup(struct psi_task *task);

/**
 * The running @task starts a memory stall (psi_memstall_enter): sets
 * PSI_TSK_MEMSTALL | PSI_TSK_MEMSTALL_RUNNING.  Nested calls are no-ops (0).
 */
int psi_memstall_enter(struct psi_task *task);

/** The memory stall of @task ends (psi_memstall_leave).  No-op if not in one. */
int psi_memstall_leave(struct psi_task *task);

/**
 * Move @task to @group (cgroup_move_task): its flags leave the old groups
 * and arrive at the new ones, two changes.
 */
int psi_task_move(struct psi_task *task, struct psi_group *group);

/**
 * Move a task that is not on a CPU to @cpu (dequeue on the old runqueue,
 * enqueue on the new one).  -EBUSY if it is the one on its CPU.
 */
int psi_task_migrate(struct psi_task *task, int cpu);

/**
 * @delta_ns of interrupt time on @task's CPU counts as irq full stall in
 * its groups (psi_account_irqtime).  -EOPNOTSUPP without irq_accounting.
 */
int psi_account_irqtime(struct psi_task *task, uint32_t delta_ns);

/* ------------------------------------------------------------------ */
/* Averaging                                                           */

/**
 * Run every group's averaging work that is due (psi_avgs_work): fold the
 * per-CPU clocks into totals, update the averages once a period has passed,
 * and re-arm while there is activity.  The work is armed by task changes
 * 2*HZ+1 jiffies ahead, as schedule_delayed_work would.  The caller's
 * timer loop calls this at or after psi_next_avgs_work; at least every
 * 4 s while tasks stall, or the u32 per-CPU deltas wrap (the kernel's
 * worker guarantees the same).  Returns the number of works run.
 */
int psi_avgs_tick(struct psi_engine *eng);

/**
 * Earliest due time (clock ns) of any armed averaging work in *@due;
 * false when none is armed (the machine has been idle).
 */
bool psi_next_avgs_work(const struct psi_engine *eng, uint64_t *due);

/**
 * What a read of a pressure file does first: fold the per-CPU clocks up to
 * now and update the averages if a period has passed.  Returns 0.
 */
int psi_group_refresh(struct psi_group *group);

/* ------------------------------------------------------------------ */
/* Output: snapshots, printed by the /proc/pressure renderer            */

/**
 * Refresh @group and fill *@out with what psi_show would print for @res;
 * the text itself is pfs_print_pressure's (procfs.h), so the engine stays
 * below the renderers.  The system group's cpu full line is all zeros; irq
 * has only the full line.  When the file would not exist (PSI_IRQ without
 * irq_accounting, a group with accounting disabled) out->present is false
 * and nothing is refreshed, as no read would reach the kernel.  -EINVAL for
 * a bad @res.
 */
int psi_fill_pressure(struct psi_group *group, enum psi_res res,
		      struct mach_pressure *out);

/**
 * Refresh @group once and fill all MACH_NR_PSI_RES entries of @out (e.g. a
 * machine's pressure[] array from the system group).
 */
int psi_fill_pressure_all(struct psi_group *group,
			  struct mach_pressure out[MACH_NR_PSI_RES]);

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_PSI_H */
