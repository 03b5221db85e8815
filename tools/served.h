/* SPDX-License-Identifier: MIT */
/* served.h - the machine a mount serves: built from --machine, moved by the simulator. */
#ifndef UPROCFS_SERVED_H
#define UPROCFS_SERVED_H

#include <stddef.h>

#include "uprocfs/pfs_fuse.h"

struct mach_sim;

struct served {
	struct machine *mach;
	struct pfs_source src;
	struct mach_sim *sim;   /* the simulator driving mach, or NULL (live) */
	uint64_t model_base_ns; /* the machine's uptime when serving started */
	uint64_t boot_base_ns;  /* CLOCK_BOOTTIME then */
};

/**
 * Build what `--machine SPEC` names for serving: a synthetic or captured
 * machine that the simulator moves with CLOCK_BOOTTIME, or the live /proc.
 * Must run before anything is mounted over /proc.
 */
int served_open(struct served *s, const char *spec, char *err, size_t errlen);

/** Free it all. */
void served_close(struct served *s);

#endif
