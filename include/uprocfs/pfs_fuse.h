/* SPDX-License-Identifier: MIT */
/*
 * pfs_fuse.h - the machine model served as a /proc filesystem through FUSE.
 *
 * Every node comes from the file table (procfs.h), every byte from a source
 * (source.h) through the seq_file read protocol: direct I/O, st_size 0, the
 * whole file in the first read of any size, a snapshot per open.
 */
#ifndef UPROCFS_PFS_FUSE_H
#define UPROCFS_PFS_FUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "uprocfs/source.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pfs_fuse;

/* hidepid= values, as proc(5) numbers them */
#define PFS_HIDEPID_OFF 0
#define PFS_HIDEPID_NOACCESS 1   /* other users' /proc/<pid> can be listed, not entered */
#define PFS_HIDEPID_INVISIBLE 2  /* other users' /proc/<pid> do not show at all */
#define PFS_HIDEPID_PTRACEABLE 4 /* only processes the reader may ptrace show */


struct pfs_fuse_opts {
	const char *mountpoint;
	/* which tree this mount serves: /proc (PFS_SCOPE_GLOBAL, the default) or /sys (PFS_SCOPE_SYS) */
	enum pfs_scope tree;
	bool allow_other;          /* let other users in (-o allow_other) */
	bool debug;                /* libfuse request log on stderr */
	unsigned int max_threads;  /* request threads; 0: 8 */
	/*
	 * procfs's own mount options (fs/proc/root.c): hidepid hides other
	 * users' processes (PFS_HIDEPID_*), gid exempts one group from
	 * hiding, subset=pid serves only the process directories and self.
	 */
	unsigned int hidepid;
	bool hidepid_gid_set;
	gid_t hidepid_gid;
	bool subset_pid;
	/*
	 * A real procfs of the pid namespace the tree was mounted from: FUSE
	 * names callers by their pid there, and their own pid directory is
	 * mirrored from it.  -1: callers are not mirrored.
	 */
	int caller_proc_fd;
	/*
	 * A /dev/fuse descriptor already mounted with pfs_fuse_mount_fd (by the
	 * command's side of `uprocfs run`, in its own mount namespace), or -1 to
	 * mount at mountpoint.  The daemon then never sees the tree it serves,
	 * so nothing it or libc does can read its own files (a deadlock).
	 */
	int mounted_fd;
	/*
	 * Serve every file through requests (direct I/O) even where the
	 * kernel offers passthrough, which answers a small file's reads
	 * without one (Linux 6.9+, root).
	 */
	bool no_passthrough;
	/*
	 * Take requests over io_uring, a queue per CPU (Linux 6.14+, root,
	 * the fuse module's enable_uring on): each is served on the CPU of
	 * the task that sent it.
	 */
	bool io_uring;
};

/**
 * Parse procfs mount options ("hidepid=2,gid=100,subset=pid"; hidepid also
 * takes off, noaccess, invisible, ptraceable) into @o.  -EINVAL with a
 * message naming the bad option in @err.
 */
int pfs_fuse_parse_options(struct pfs_fuse_opts *o, const char *opts, char *err, size_t errlen);

/**
 * Mount the FUSE descriptor @fuse_fd (opened from /dev/fuse) at @target as a
 * uprocfs tree, in the calling process's mount namespace, for a daemon that
 * will serve it with pfs_fuse_opts.mounted_fd.  0 or -errno.
 */
int pfs_fuse_mount_fd(int fuse_fd, const char *target, bool allow_other);

/**
 * Create the filesystem and mount it at o->mountpoint.  On failure returns
 * -errno with a message naming what is missing (/dev/fuse, fusermount3, the
 * mount point) in @err.
 */
int pfs_fuse_create(struct pfs_fuse **out, struct pfs_source *src, const struct pfs_fuse_opts *o,
		    char *err, size_t errlen);

/** Detach from the terminal unless @foreground (after the mount succeeded). */
int pfs_fuse_daemonize(bool foreground);

/** Serve requests until unmounted or pfs_fuse_exit(); 0 or -errno. */
int pfs_fuse_loop(struct pfs_fuse *fs);

/** Ask the loop to stop (safe from another thread). */
void pfs_fuse_exit(struct pfs_fuse *fs);

/** Install SIGINT/SIGTERM/SIGHUP handlers that stop the loop. */
int pfs_fuse_set_signal_handlers(struct pfs_fuse *fs);

/** Unmount now: requests in flight fail and the loop returns. */
void pfs_fuse_unmount(struct pfs_fuse *fs);

/** Unmount (if still mounted) and free. */
void pfs_fuse_destroy(struct pfs_fuse *fs);

/** Requests served so far, by kind (for `uprocfs bench fuse`). */
struct pfs_fuse_stats {
	uint64_t lookup, getattr, readdir, open, read, release, readlink, other;
	/* opens answered by passthrough, and kept files rendered again for it */
	uint64_t passthrough, refresh;
	/* requests that came over io_uring */
	uint64_t uring;
};

/** A copy of the request counters. */
void pfs_fuse_get_stats(struct pfs_fuse *fs, struct pfs_fuse_stats *st);

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_PFS_FUSE_H */
