/* SPDX-License-Identifier: MIT */
/*
 * sim.h - the simulator: a machine whose time moves.
 *
 * A seeded workload moves tasks between running, runnable, sleeping, iowait
 * and memory stall on each CPU, and everything that depends on time follows:
 * per-CPU and per-task times, context switches, interrupts, forks,
 * procs_running/blocked, load averages (every 5 s, the kernel's fixed-point
 * method), uptime and idle time, and pressure through the PSI engine (every
 * transition is a psi_task_change or psi_task_switch).
 */
#ifndef UPROCFS_SIM_H
#define UPROCFS_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "uprocfs/machine.h"
#include "uprocfs/psi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mach_sim;

struct mach_sim_opts {
	unsigned int depth;        /* cgroup depth of the workload (0: the system group) */
	double load;               /* target fraction of CPU time busy */
	double io, mem;            /* fraction of a workload task's time in iowait / memory stall */
	uint64_t seed;
	enum psi_clock_mode psi_clock_mode;
	unsigned int tick_hz;      /* simulation step; 0: the kernel's HZ, 250 */
	/*
	 * A `perf bench sched messaging`-like workload instead: this many groups
	 * of 20 senders and 20 receivers; a sender's message wakes every sleeping
	 * receiver of its group.  0: the ordinary workload.
	 */
	unsigned int messaging_groups;
};

/** Defaults: the synthetic generator's (depth 2, load 0.5, io 0.05, mem 0.02). */
void mach_sim_defaults(struct mach_sim_opts *o);

/**
 * Start simulating @m from its current uptime: pick the workload tasks,
 * build the cgroup chain and the PSI engine.  @m must outlive the simulator
 * and keep its processes (the simulator holds indices into them).
 */
int mach_sim_create(struct mach_machine *m, const struct mach_sim_opts *o, struct mach_sim **out,
		    char *err, size_t errlen);

/**
 * Advance the model to @uptime_ns (the machine's CLOCK_BOOTTIME); earlier
 * times are ignored.  Long gaps are covered in coarser steps.  0 or -errno.
 */
int mach_sim_advance(struct mach_sim *s, uint64_t uptime_ns);

/** The model time the simulator has reached. */
uint64_t mach_sim_now(const struct mach_sim *s);

/** The PSI engine (its system group is /proc/pressure). */
struct psi_engine *mach_sim_psi(struct mach_sim *s);

/**
 * The machine's process at index @k changed by a control call (stopped,
 * continued, pinned): the simulator takes its tasks off the CPUs or puts them
 * back as the model now says.
 */
void mach_sim_process_changed(struct mach_sim *s, size_t k);

/**
 * The machine's process at index @k is about to be removed (it exited and
 * was reaped), and the processes after it move down one place: the
 * simulator forgets its tasks and follows the others.
 */
void mach_sim_process_removed(struct mach_sim *s, size_t k);

/** Free the simulator (not the machine). */
void mach_sim_destroy(struct mach_sim *s);

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_SIM_H */
