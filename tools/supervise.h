/* SPDX-License-Identifier: MIT */
/*
 * supervise.h - the syscalls of `uprocfs run`'s command that are aimed at the
 * served machine's tasks, answered from the model (seccomp user
 * notification).
 *
 * The command's side installs a filter before it runs CMD: kill, tgkill,
 * tkill, rt_sigqueueinfo, rt_tgsigqueueinfo, pidfd_open, getpriority,
 * setpriority, sched_{get,set}affinity, sched_getscheduler, sched_getparam,
 * sched_setscheduler, sched_setparam, ioprio_{get,set}, getpgid and getsid
 * reach the supervisor only when their pid argument lies below the run's own
 * pids (a synthetic task, or 0: the caller); every other call goes to the
 * kernel without a stop.  pidfd_send_signal, sysinfo and uname always reach
 * it: the machine describes itself.  A call on the run's real processes is
 * sent on to the kernel untouched.  When the supervisor is gone, the kernel
 * answers the watched calls with ENOSYS: nothing hangs.
 */
#ifndef UPROCFS_TOOLS_SUPERVISE_H
#define UPROCFS_TOOLS_SUPERVISE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "uprocfs/source.h"

struct mach_sim;
struct supervisor;

/**
 * In the command's process, just before exec: install the filter for pids
 * below @first_real (the run's own pids start there).  The listener
 * descriptor for the supervisor in *@listener.  0 or -errno with a message.
 */
int sup_install(pid_t first_real, int *listener, char *err, size_t errlen);

/** What the supervisor answers from. */
struct sup_opts {
	struct pfs_source *src;    /* the served model (control calls run under its lock) */
	struct mach_sim *sim;      /* its simulator, or NULL */
	pid_t first_real;          /* the run's own pids start here */
	bool real_affinity;        /* sched_getaffinity of the caller: the real mask, not the machine's */
	/* told after a call changed the model (a signal, a nice value...), or NULL (run --preload) */
	void (*changed)(void *ctx);
	void *changed_ctx;
};

/** Answer the notifications of @listener on a thread of its own; 0 or -errno. */
int sup_start(struct supervisor **out, int listener, const struct sup_opts *o);

/** How many calls were answered from the model, and how many sent on to the kernel. */
void sup_counts(const struct supervisor *sv, unsigned long *answered, unsigned long *passed);

/** Stop answering (the watched calls then fail with ENOSYS) and free. */
void sup_stop(struct supervisor *sv);

#endif
