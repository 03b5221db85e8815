/* SPDX-License-Identifier: MIT */
/*
 * run_preload.h - the daemon's side of `uprocfs run --preload`: the run's
 * directory of shared files (src/preload/shared.h) and the thread that
 * publishes snapshots of the served machine into it.
 */
#ifndef UPROCFS_RUN_PRELOAD_H
#define UPROCFS_RUN_PRELOAD_H

#include <stddef.h>
#include <sys/types.h>

#include "served.h"

struct pl_daemon;

/**
 * Make the run's directory and its control files, before the command's
 * namespaces are made (their init mounts nsproc in it).  0 or -errno with a
 * message in @err.
 */
int pl_daemon_prepare(struct pl_daemon **out, bool stop_clock, char *err, size_t errlen);

/**
 * In the command's mount namespace, before anything there reads the
 * directory: put the run's tmpfs (if it has one) on it.  0 or -errno.
 */
int pl_daemon_attach(const struct pl_daemon *d);

/** The directory the library finds through UPROCFS_PRELOAD. */
const char *pl_daemon_dir(const struct pl_daemon *d);

/**
 * Publish the first snapshot of @src (served as @s, the run's own processes
 * from @mirror_from up) and start the thread that publishes the next ones
 * when readers ask.  0 or -errno with a message in @err.
 */
int pl_daemon_start(struct pl_daemon *d, struct pfs_source *src, const struct served *s, pid_t mirror_from,
		    char *err, size_t errlen);

/** A control call changed the model (struct served's changed): snapshots made before are stale. */
void pl_daemon_changed(void *d);

/** What readers and the publisher did, in one line (UPROCFS_FUSE_STATS). */
void pl_daemon_stats(const struct pl_daemon *d, char *buf, size_t size);

/** Stop publishing, remove the directory and free @d (NULL: nothing). */
void pl_daemon_stop(struct pl_daemon *d);

/**
 * The preload library's path: $UPROCFS_PRELOAD_LIB, or where the build or
 * the installation puts it beside this program.  0 or -ENOENT.
 */
int pl_library_path(char *buf, size_t size);

#endif
