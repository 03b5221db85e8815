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

/*
 * Clones that share what does not change: each mm's VMAs (with their
 * names), command line, environment and exe path, and each fd table's fds,
 * are copied once, into an arena of their own, and every later clone points
 * at that copy (they never change once the machine is built: the serials of
 * struct mach_mm and struct mach_files).  A snapshot of a big machine is then mostly its counters: the
 * VMAs are over half of a synthetic machine's bytes.  Readers map the
 * shared arena beside the clone, at its address.
 */
struct mach_clone_shared;

/** What clones into other arenas may share, kept in @a (which the caller owns).  0 or -ENOMEM. */
int mach_clone_shared_new(struct mach_clone_shared **out, struct ua_arena *a);

/** Free the table (not the arena: the clones still point into it). */
void mach_clone_shared_free(struct mach_clone_shared *sh);

/** How many mms and fd tables were copied into the shared arena, and how many times a clone found them there. */
void mach_clone_shared_counts(const struct mach_clone_shared *sh, size_t *mms, size_t *hits);

/** mach_clone_into, with the mms' fixed parts in @shared (NULL: copied like the rest). */
struct mach_machine *mach_clone_into_sharing(struct ua_arena *a, const struct mach_machine *m,
					     struct mach_clone_shared *shared);

#endif
