/* SPDX-License-Identifier: MIT */
/*
 * control.h - what a process may do to a machine's tasks: signal them,
 * renice them, pin them, change their scheduling, I/O priority and limits,
 * and ask about them, answered with the kernel's rules (permissions,
 * signal masks, limits) and with effects the served files show at once.
 *
 * `uprocfs run` supervises its command's syscalls aimed at synthetic pids
 * (seccomp user notification) and answers them with these functions, under
 * the model's write lock.  Each returns 0 or -errno as the syscall would.
 */
#ifndef UPROCFS_CONTROL_H
#define UPROCFS_CONTROL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "uprocfs/machine.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mach_sim;

/** Who asks: a real process's credentials (from its /proc/<pid>/status). */
struct mach_caller {
	uid_t ruid, euid, suid;
	gid_t rgid, egid, sgid;
	uint64_t cap_eff;          /* effective capabilities, bit n = capability n */
	pid_t session;             /* the caller's session, in the machine's numbering (0: none there) */
};

/* The capabilities these rules consult (linux/capability.h numbers them). */
#define MACH_CAP_KILL 5
#define MACH_CAP_SYS_NICE 23
#define MACH_CAP_SYS_RESOURCE 24

/** What a control call works on: the machine, and its simulator if it moves (or NULL). */
struct mach_ctl {
	struct mach_machine *m;
	struct mach_sim *sim;
};

/**
 * kill(2) for a target the machine holds: @pid > 0 a process, @pid < -1 a
 * process group (-@pid).  Signal 0 only checks existence and permission.
 * SIGSTOP/TSTP/TTIN/TTOU stop it (state T), SIGCONT resumes it, a fatal
 * signal ends it (reaped by its parent at once unless the parent is
 * stopped); ignored signals do nothing, blocked ones become pending.
 * -ESRCH, -EPERM, -EINVAL.
 */
int mach_ctl_kill(struct mach_ctl *x, const struct mach_caller *who, pid_t pid, int sig);

/** tgkill(2)/tkill(2): one thread (@tgid 0: any group).  As mach_ctl_kill. */
int mach_ctl_tgkill(struct mach_ctl *x, const struct mach_caller *who, pid_t tgid, pid_t tid, int sig);

/**
 * getpriority(2): @which PRIO_PROCESS (a thread), PRIO_PGRP, PRIO_USER; the
 * kernel's return value 20 - nice of the highest-priority match in *@ret.
 */
int mach_ctl_getpriority(struct mach_ctl *x, int which, int who_id, int *ret);

/** setpriority(2): nice @nice (clamped to -20..19) on every match; raising priority needs CAP_SYS_NICE. */
int mach_ctl_setpriority(struct mach_ctl *x, const struct mach_caller *who, int which, int who_id, int nice);

/**
 * sched_getaffinity(2) of thread @tid: the allowed CPUs that are online, as
 * @size bytes of mask in @mask; the number of bytes the kernel copies
 * (nr_cpu_ids rounded up to longs) in *@copied.  -EINVAL if @size is short.
 */
int mach_ctl_getaffinity(struct mach_ctl *x, pid_t tid, unsigned char *mask, size_t size, size_t *copied);

/** The machine's online CPUs as a sched_getaffinity mask (what nproc sees); as mach_ctl_getaffinity. */
int mach_ctl_online_mask(struct mach_ctl *x, unsigned char *mask, size_t size, size_t *copied);

/** sched_setaffinity(2): -EINVAL when no allowed CPU is online; the simulator moves the task. */
int mach_ctl_setaffinity(struct mach_ctl *x, const struct mach_caller *who, pid_t tid, const unsigned char *mask,
			 size_t size);

/** sched_getscheduler(2): the policy in *@policy. */
int mach_ctl_getscheduler(struct mach_ctl *x, pid_t tid, int *policy);

/** sched_getparam(2): the real-time priority in *@prio. */
int mach_ctl_getparam(struct mach_ctl *x, pid_t tid, int *prio);

/** sched_setscheduler(2) / sched_setparam(2) (@policy < 0: keep it). */
int mach_ctl_setscheduler(struct mach_ctl *x, const struct mach_caller *who, pid_t tid, int policy, int prio);

/** ioprio_get(2): @which IOPRIO_WHO_PROCESS/PGRP/USER; the best priority in *@ioprio. */
int mach_ctl_ioprio_get(struct mach_ctl *x, int which, int who_id, int *ioprio);

/** ioprio_set(2). */
int mach_ctl_ioprio_set(struct mach_ctl *x, const struct mach_caller *who, int which, int who_id, int ioprio);

/** getpgid(2), getsid(2). */
int mach_ctl_getpgid(struct mach_ctl *x, pid_t pid, pid_t *pgid);
int mach_ctl_getsid(struct mach_ctl *x, pid_t pid, pid_t *sid);

/**
 * prlimit64(2) on the process of thread @pid: the old limit of @resource
 * into *@old (when not NULL), then @new_lim set (when not NULL).  The
 * caller's real ids must be all of the target's (or CAP_SYS_RESOURCE);
 * raising a hard limit needs CAP_SYS_RESOURCE; RLIMIT_NOFILE's is capped by
 * fs.nr_open.  -ESRCH, -EPERM, -EINVAL.
 */
int mach_ctl_prlimit(struct mach_ctl *x, const struct mach_caller *who, pid_t pid, unsigned int resource,
		     const struct mach_rlimit *new_lim, struct mach_rlimit *old);

/** Whether @pid names a process or thread of the machine (for pidfd_open). */
bool mach_ctl_exists(struct mach_ctl *x, pid_t pid);

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_CONTROL_H */
