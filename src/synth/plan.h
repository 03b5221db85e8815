/* SPDX-License-Identifier: MIT */
/*
 * plan.h - what the plan's files hand each other while they grow the
 * process tree.
 *
 * The plan is made of indices, not pids: how far apart the pids are
 * depends on how many tasks there are, so they are given last (plan.c).
 * Until then ppid/pgrp/session/tpgid of struct mach_process hold plan
 * indices, NONE for none.
 */
#ifndef UPROCFS_SYNTH_PLAN_H
#define UPROCFS_SYNTH_PLAN_H

#include "synth_int.h"

enum pgmode {
	PG_NONE,     /* kernel threads: pgrp and session 0 */
	PG_SESSION,  /* setsid(): leads a new session and group */
	PG_GROUP,    /* a new job (process group) in the parent's session */
	PG_INHERIT,  /* stays in the parent's group */
};

/* new_encode_dev() of a character device, as stat's tty_nr shows it */
static inline int encode_dev(unsigned int major, unsigned int minor)
{
	return (int)((minor & 0xff) | (major << 8) | ((minor & ~0xffu) << 12));
}

#define TTY_TTY1 encode_dev(4, 1)
#define TTY_TTYS0 encode_dev(4, 64)
#define PTS_MAJOR 136

/* plan.c: the tree's primitives */

/** Plan a user process under @parent; its index, or NONE once the plan is full. */
int sy_plan_user(struct synth *s, unsigned int prog, int parent, enum pgmode mode, uint32_t uid,
		 uint32_t inst);
/** Make @idx (NONE: nothing) the root of a new environment its descendants inherit. */
void sy_plan_env(struct synth *s, int idx, enum env_class cls);
/** Plan a kernel thread under kthreadd, within the kthread budget; its index or NONE. */
int sy_plan_kt(struct synth *s, enum kt_id type, uint32_t inst);

/* plan_boot.c: what the machine started at boot */

/** kthreadd and the kernel threads of boot, in the kernel's order. */
void sy_plan_kthreads(struct synth *s);
/** One kworker created long after boot, among the user processes. */
void sy_plan_late_kworker(struct synth *s);
/** systemd's daemons, each leading its own session. */
void sy_plan_daemons(struct synth *s);

/* plan_workloads.c: what runs after boot */

/** One workload subtree (or a late kworker); always adds at least one process. */
void sy_plan_workload(struct synth *s);
/** The `ps -ef` reading /proc, in the foreground of the last login shell. */
void sy_plan_reader(struct synth *s);

/* plan_states.c: what the planned processes are doing now */

/** A few stopped, zombie, disk-sleeping and pinned processes. */
void sy_plan_states(struct synth *s);
/** Spread the extra threads over the multi-threaded programs. */
void sy_plan_threads(struct synth *s);
/** Choose the running threads: about load x CPUs, and always at least one. */
void sy_plan_running(struct synth *s);

#endif /* UPROCFS_SYNTH_PLAN_H */
