/* SPDX-License-Identifier: MIT */
/*
 * hardcases_sys.h - machine-wide hard cases for the system files: file
 * locks of every class with waiters two deep (/proc/locks), a swap file
 * whose name needs escaping (/proc/swaps), and a loop device with two
 * partitions on blkext (/proc/diskstats, /proc/partitions).  Started by the
 * live verify test and ended by pid, swapoff and detach.
 */
#ifndef UPROCFS_HARDCASES_SYS_H
#define UPROCFS_HARDCASES_SYS_H

#include <stdbool.h>
#include <sys/types.h>

struct hardcases_sys {
	pid_t pids[4];           /* the lock holder and its two waiters */
	unsigned int n;
	char dir[64];
	char lockfile[128], leased[160], swapfile[128], image[128];
	bool swapping;           /* swapfile is on */
	int loop_fd;             /* the bound loop device (autoclear), -1 none */
	int loop;                /* its number */
};

/**
 * Take the locks (POSIX range, OFD, flock, lease; two waiters, the second
 * queued under the first), swap on a 16 MiB file named "swap file", and bind
 * a partitioned image to a free loop device with partition scanning.
 * 0 or -errno (then nothing is left behind).
 */
int hardcases_sys_start(struct hardcases_sys *hs);

/** End the processes, swap off, detach the loop device, remove the files. */
void hardcases_sys_stop(struct hardcases_sys *hs);

#endif
