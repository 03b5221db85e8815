/* SPDX-License-Identifier: MIT */
/*
 * clone.h - a deep copy of a machine into an arena (util/arena.h): the
 * snapshot the in-process transport maps into its readers at the arena's
 * address, every pointer valid there.
 *
 * Every pointer the model holds must be followed here.  A field added to the
 * model and not copied leaves the copy pointing into the daemon's heap;
 * tests/procfs/test_clone.c renders every file of clones of synthetic and
 * loaded machines after freeing (and poisoning) the originals, so such a
 * field fails that test rather than a reader.
 */
#ifndef UPROCFS_MACHINE_CLONE_H
#define UPROCFS_MACHINE_CLONE_H

#include "uprocfs/machine.h"
#include "util/arena.h"

/**
 * Copy @m and everything it owns into @a (blocks taken with ua_take, never
 * freed one by one: the arena is dropped whole).  The copy, or NULL when the
 * arena is full.  Capacities become counts (a copy never grows); the mount
 * tables' shared string blocks become strings of each mount.
 */
struct mach_machine *mach_clone_into(struct ua_arena *a, const struct mach_machine *m);

#endif
