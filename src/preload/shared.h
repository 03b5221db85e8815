/* SPDX-License-Identifier: MIT */
/*
 * shared.h - what the daemon of `uprocfs run --preload` and the library in
 * its readers share: a directory of small files on a tmpfs, named by
 * UPROCFS_PRELOAD in the readers' environment.
 *
 *   ctl      one page the daemon writes and readers map read-only: the newest
 *            snapshot's generation and served time, the clock, the run's
 *            settings.  Readers check it with an atomic load per file.
 *   req      one page every reader may write: requests for a newer snapshot
 *            (a futex word) and counters of what the readers did.
 *   snap.N   snapshot N: an arena (util/arena.h) holding a struct
 *            pl_file_page, a struct pl_snap and the machine cloned behind
 *            it, made at address PL_SLOT_BASE(N),
 *            which readers map there read-only.  Two slots alternate, so a
 *            reader maps a new snapshot while threads may still read the
 *            previous one.
 *
 * Files are reused: snapshot N + 2 is written over snapshot N's file
 * (renamed), whose pages then need no allocating and zeroing.  That is safe
 * only while no reader is inside N, so every reader counts itself in the
 * file's first page (struct pl_file_page, which readers map writable) and
 * then checks that the file still holds the generation it mapped; the
 * daemon zeroes that generation and then checks the count.  Both are
 * sequentially consistent, so one of them sees the other: the reader backs
 * off to a newer snapshot, or the daemon writes a new file instead.  A
 * reader that died inside a file keeps that file from being reused, and
 * that file alone: its count goes with it.
 *   shared   what every snapshot shares (machine/clone.h): each mm's VMAs,
 *            command line, environment and exe, copied once, at
 *            PL_SHARED_BASE, which readers map there read-only.  The
 *            daemon only appends to it; nothing in it is ever rewritten.
 *   nsproc   a procfs of the run's pid namespace showing only pids (mounted
 *            in the run's mount namespace): the run's own processes, which
 *            the library lists beside the snapshot's.
 *
 * Served time: a snapshot shows the machine at the served time it was made
 * (uptime, ages, counters), exactly what the FUSE mount printed at that
 * time.  A reader takes it while it is at most max_age_ns old on the served
 * clock; older, it asks for a new one and waits.  A reader that finds it
 * older than half of that asks without waiting, so steady readers rarely
 * wait.  A control call (kill, renice) bumps `changes`: snapshots made
 * before it are stale at once.
 */
#ifndef UPROCFS_PRELOAD_SHARED_H
#define UPROCFS_PRELOAD_SHARED_H

#include <stdint.h>
#include <sys/types.h>

#include "uprocfs/machine.h"

#define PL_ENV "UPROCFS_PRELOAD"
#define PL_MAGIC 0x75706c31u /* "upl1" */
#define PL_VERSION 7u /* 4: mms carry a VMA maker; struct mach_fd_info; borrowed masks; 5: mount tables made too; 6: threads point at shared credentials; 7: fd tables made too */

/* Snapshot slots: where snapshot N lives, in every process that maps it. */
#define PL_SLOT_BASE(gen) ((uintptr_t)0x6e0000000000ull + ((uintptr_t)((gen) & 1u) << 40))
#define PL_SLOT_RESERVE ((size_t)1 << 39)
/* The shared file's address, below the slots (PL_SLOT_RESERVE long). */
#define PL_SHARED_BASE ((uintptr_t)0x6d0000000000ull)

/** The control page (ctl), written by the daemon only. */
struct pl_ctl {
	uint32_t magic, version;
	/* the newest snapshot: gen (0 none yet) is stored last, with release order */
	uint64_t gen;
	uint32_t gen_futex;       /* low bits of gen, for readers waiting on a new one */
	uint32_t frozen;          /* the served clock stands still (--stop-clock) */
	uint64_t snap_uptime_ns;  /* its served time */
	uint64_t snap_changes;    /* the value of changes it was made at */
	uint64_t changes;         /* control calls that changed the model */
	uint64_t max_age_ns;      /* how old (served time) a snapshot a reader takes may be */
	int64_t clock_offset_ns;  /* served time = CLOCK_BOOTTIME + this */
	pid_t mirror_from;        /* pids from here up are the run's own: served by FUSE */
	uint32_t hidepid;         /* the mount's procfs options (pfs_fuse.h) */
	uint32_t hidepid_gid_set, hidepid_gid, subset_pid;
	uint64_t publish_ns;      /* how long the last publish took (daemon wall time) */
	uint64_t publishes;
};

/*
 * A snapshot file's first page: the readers inside it now.  The snapshot
 * (struct pl_snap) starts PL_SNAP_OFFSET bytes in.
 */
struct pl_file_page {
	uint32_t inside;
};
#define PL_SNAP_OFFSET 4096u

/** The request page (req): readers write it. */
struct pl_req {
	uint32_t want;            /* futex word: bumped by a reader that wants a newer snapshot */
	uint32_t pad;
	/* counters, for tests and the bench: what readers did */
	uint64_t procs_served;    /* processes that mapped a snapshot */
	uint64_t procs_fallback;  /* processes that could not (address taken...): all through FUSE */
	uint64_t waits;           /* times a reader waited for a newer snapshot */
	uint64_t opens;           /* files served from a snapshot */
	uint64_t passes;          /* calls passed on to the kernel (the FUSE mount) */
	uint64_t reuses;          /* snapshots the daemon wrote over an older one's file */
};

/** What a snapshot file holds at PL_SNAP_OFFSET, before the machine. */
struct pl_snap {
	uint32_t magic, version;
	uint64_t gen;             /* 0 while the file is being rewritten */
	uint64_t uptime_ns;       /* served time it shows (mach->uptime_ns) */
	uint64_t changes;         /* the ctl's changes when it was made */
	struct mach_machine *mach;
};

#endif
