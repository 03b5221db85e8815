/* SPDX-License-Identifier: MIT */
/*
 * sim_internal.h - the simulator's own state, shared by the files that move
 * it (sim.c: the scheduler, the tick, publishing, changes from outside) and
 * the file that sets it up (sim_setup.c: the workload, its PSI groups).
 *
 * Private to src/machine: everything else sees struct mach_sim through
 * uprocfs/sim.h and machine/sim_testing.h only.
 */
#ifndef UPROCFS_SIM_INTERNAL_H
#define UPROCFS_SIM_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/sim_irq.h"
#include "util/splitmix.h"
#include "machine/sim_waits.h"
#include "uprocfs/sim.h"

#define SIM_HZ_DEFAULT 250
#define BURST_MEAN_NS 6000000.0   /* mean CPU burst: a few ms, as interactive servers run */
#define FORK_EVERY_NS 150000000ull

/* W_STOPPED: stopped by a signal; W_GONE: its process exited (its index no longer names it). */
enum wstate { W_RUNNING, W_RUNNABLE, W_SLEEP, W_IOWAIT, W_MEMSTALL, W_STOPPED, W_GONE };

struct wtask {
	size_t proc;              /* index into m->procs */
	unsigned int thread;      /* index into its threads */
	uint32_t cgroup;          /* its v2 group (m->cgroups), MACH_NONE: the root */
	bool at_depth;            /* its group is `depth` levels deep */
	struct psi_task pt;
	enum wstate state;
	double remaining_ns;      /* of the current burst or wait */
	unsigned int ran_ticks;   /* in the current slice */
	unsigned int user_permille; /* share of its CPU time spent in user mode */
	bool stall_pending;       /* woke from a memory stall: leave it when it runs */
	int group;                /* messaging: its group, or -1 */
	int io_req;               /* in an io wait: the request it waits on (sim_io.c), or -1 */
	bool sender;              /* messaging: sends (wakes its group's receivers) */
	struct sim_wait sleep, io; /* where it waits asleep, and for io or memory (D) */
};

struct cpu_rq {
	int curr;                 /* running wtask index, -1 idle */
	unsigned int nr_iowait;   /* tasks of this CPU sleeping in iowait */
	int *queue;               /* runnable wtask indices, FIFO */
	unsigned int head, len;
};

struct mach_sim {
	struct mach_machine *m;
	struct mach_sim_opts o;
	struct psi_engine *psi;
	struct psi_group **groups; /* per m->cgroups index: its PSI group, NULL until a task needs it */
	size_t ngroups;
	struct sim_io *io;        /* the block devices' requests (sim_io.c) */
	unsigned int ntasks;
	struct wtask *tasks;
	struct cpu_rq *rq;
	uint64_t now;             /* model uptime, ns */
	uint64_t tick_ns;
	uint64_t next_load_update; /* calc_global_load: every LOAD_FREQ = 5*HZ+1 ticks */
	uint64_t load_freq_ns;
	uint64_t next_fork;
	uint64_t rng;
	double duty;              /* fraction of its time a workload task wants a CPU */
	double off_mean_ns;       /* mean length of a sleep/iowait/memstall */
	double p_io, p_mem;       /* chance an off period is an io wait / a memory stall */
	struct mach_pressure base[MACH_NR_PSI_RES]; /* the model's pressure before we started */
	uint64_t steps, switches, wakeups;
	bool clock_real_cost;     /* mach_sim_set_clock_real_cost (benchmarks) */
	struct sim_irqs irqs;     /* where device interrupts land */
	struct sim_net *net;      /* the network's counters (sim_net.c) */
	/*
	 * Running and blocked threads the simulator does not move, counted
	 * again only after a change from outside (others_stale): publish runs
	 * on every advance, and a walk of every thread of a 100,000-task
	 * machine there held the write lock for most of each 2 ms.
	 */
	unsigned int others_running, others_blocked;
	bool others_stale;
};

/* ------------------------------------------------------------------ */
/* randomness: one stream per simulator (inline: every tick draws)     */

/** The next number of @s's stream (splitmix64). */
static inline uint64_t sim_next_rand(struct mach_sim *s)
{
	return util_splitmix64(&s->rng);
}

/** A uniform draw in (0, 1), never 0 or 1 (log() of it is finite). */
static inline double sim_uniform(struct mach_sim *s)
{
	return ((double)(sim_next_rand(s) >> 11) + 0.5) / 9007199254740992.0;
}

/** An exponential draw of mean @mean. */
static inline double sim_exponential(struct mach_sim *s, double mean)
{
	return -mean * log(sim_uniform(s));
}

/* ------------------------------------------------------------------ */
/* model access                                                        */

/** The thread workload task @w moves. */
static inline struct mach_thread *sim_thread_of(struct mach_sim *s, const struct wtask *w)
{
	return &s->m->procs[w->proc].threads[w->thread];
}

/** The process of workload task @w. */
static inline struct mach_process *sim_proc_of(struct mach_sim *s, const struct wtask *w)
{
	return &s->m->procs[w->proc];
}

/* ------------------------------------------------------------------ */
/* sim.c, for sim_setup.c                                              */

/**
 * Put workload task @w in state @st, and show it in its thread: the task
 * state letter, and where it waits (kernel stack, wchan) unless it runs or
 * is runnable.
 */
void sim_set_task_state(struct mach_sim *s, struct wtask *w, enum wstate st);

/**
 * Publish what the rest of the model derives from the tasks' states:
 * procs_running/blocked, the schedstat timestamp, the system's and each
 * cgroup's pressure.
 */
void sim_publish(struct mach_sim *s);

#endif /* UPROCFS_SIM_INTERNAL_H */
