/* SPDX-License-Identifier: MIT */
/*
 * hardcases.h - processes that exercise every corner of the /proc formats,
 * started by the verify and golden-tree tests and ended by pid.
 */
#ifndef UPROCFS_HARDCASES_H
#define UPROCFS_HARDCASES_H

#include <sys/types.h>

#define HC_MAX 32

struct hardcases {
	pid_t pids[HC_MAX];      /* every process we started, to end them */
	const char *names[HC_MAX];
	unsigned int n;
	pid_t zombie_parent;     /* the zombie's parent (a zombie cannot be asked to exit) */
	char dir[64];            /* temporary directory of the odd file names */
	/* namespaces and cgroups: the v2 groups made (leaf first), removed once their task is gone */
	char cgdirs[2][192];     /* [0] the nested group, [1] its parent */
	const char *cg_note;     /* how the nested cgroup was made, or why it was not */
};

/**
 * Start the hard cases: an odd comm, odd file names mapped (spaces, tab,
 * newline, backslash), a deleted mapped file, a multithreaded process, a
 * stopped one, a zombie, nobody with supplementary groups, one pinned to a
 * CPU, and blocked/ignored/caught/pending signals; a process in a cgroup v2
 * group two levels deep (a space in its name), one in its own mount
 * namespace with a tmpfs on a mount point with a space (shared, and a
 * slave bind of it) and a thread with a namespace of its own, one in new
 * uts, ipc, net, cgroup and time namespaces with a thread in yet another
 * uts namespace, pid 1 of a child pid namespace and its parent, and a
 * process whose new pid namespace has no init yet.  Each is asleep (or
 * stopped/dead) when this returns.  0 or -errno.
 */
int hardcases_start(struct hardcases *hc);

/**
 * The memory and waiting cases (hardcases_mem.c), which hardcases_start
 * starts last: mappings of every kind shared three ways, a thread's child,
 * threads asleep in a dozen different ways.  0 or -errno.
 */
int hardcases_start_mem(struct hardcases *hc);

/** Remove the files hardcases_start_mem made (its processes end with the others). */
void hardcases_stop_mem(struct hardcases *hc);

/** End exactly the processes hardcases_start began and remove its files. */
void hardcases_stop(struct hardcases *hc);

#endif
