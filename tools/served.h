/* SPDX-License-Identifier: MIT */
/* served.h - the machine a mount serves: built from --machine, moved by the simulator. */
#ifndef UPROCFS_SERVED_H
#define UPROCFS_SERVED_H

#include <stddef.h>

#include "uprocfs/pfs_fuse.h"

struct mach_sim;

struct served {
	struct mach_machine *mach;   /* the model (NULL when live) */
	struct mach_sim *sim;   /* the simulator driving mach, or NULL */
	int live_proc_fd;       /* --machine live: the real /proc, else -1 */
	uint64_t model_base_ns; /* the machine's uptime when serving started */
	uint64_t boot_base_ns;  /* CLOCK_BOOTTIME then */
	bool stop_clock;        /* `uprocfs run --stop-clock`: no simulator, the clock stands still */
};

/**
 * Build what `--machine SPEC` names for serving: a synthetic or captured
 * machine that the simulator moves with CLOCK_BOOTTIME, or the live /proc.
 * Must run before anything is mounted over /proc.
 */
int served_open(struct served *s, const char *spec, char *err, size_t errlen);

/**
 * The source that serves it; @reader_proc_fd (or -1) is a procfs of the
 * readers' pid namespace, from which each reader sees itself, and every
 * process from @mirror_from up if that is not 0 (`uprocfs run`).
 */
int served_source(struct served *s, int reader_proc_fd, pid_t mirror_from, struct pfs_source **out);

/** Free it all. */
void served_close(struct served *s);

#endif
