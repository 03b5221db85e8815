/* SPDX-License-Identifier: MIT */
/* run_sys.h - the served machine's /sys under `uprocfs run`, beside the host's. */
#ifndef UPROCFS_TOOLS_RUN_SYS_H
#define UPROCFS_TOOLS_RUN_SYS_H

#include <stddef.h>

/* Where the FUSE /sys and the host's /sys wait while /sys is put together. */
struct run_sys_stage {
	char dir[64]; /* a private tmpfs; "" when none */
};

/**
 * In a private mount namespace: mount the FUSE descriptor @fuse_fd (from
 * /dev/fuse, to be served with the /sys tree) and a recursive bind of the
 * host's /sys beneath a private staging directory.  0 or -errno, with what
 * failed in @err; on failure nothing stays mounted.
 */
int run_sys_stage(struct run_sys_stage *st, int fuse_fd, char *err, size_t errlen);

/**
 * Once the daemon serves the staged tree: put /sys together on a tmpfs
 * made read-only once filled.  Every subtree the served tree has (CPUs,
 * nodes, sensors, THP, ...) is bound from it whole, so no host file of it
 * shows; what only the host has is bound from the host's /sys; the
 * directories both hang things under (devices, devices/system, class,
 * kernel/mm, ...) are merged one level at a time.  The staging goes away
 * either way.  0 or -errno, with the path that failed in @err; on failure
 * /sys is the host's again.
 */
int run_sys_assemble(struct run_sys_stage *st, char *err, size_t errlen);

struct stat;
/**
 * @dst (to be created) becomes what @src is, whose lstat is @s: a symlink
 * is copied, a directory or any other file bound over (recursively, with
 * what is mounted beneath it).  0 or -errno.
 */
int run_sys_place(const char *dst, const char *src, const struct stat *s);

/** Undo run_sys_stage (when run_sys_assemble will not run). */
void run_sys_unstage(struct run_sys_stage *st);

#endif
