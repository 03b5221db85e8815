/* SPDX-License-Identifier: MIT */
/*
 * snapshot.h - the reader's side of shared.h: the control page, the newest
 * snapshot mapped at its slot's address, and how fresh it must be.
 *
 * Every call here but the rare ones (mapping a new snapshot, asking for
 * one) is a few atomic operations on shared memory: no syscall.
 */
#ifndef UPROCFS_PRELOAD_SNAPSHOT_H
#define UPROCFS_PRELOAD_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "shared.h"

/** A snapshot held for one call: pls_enter takes it, pls_leave gives it back. */
struct pl_hold {
	const struct pl_snap *snap;
	int slot;
	uint32_t *inside;         /* the count of its file we are in */
};

/**
 * Map the control files named by UPROCFS_PRELOAD and the newest snapshot.
 * False when this process cannot be served (no such run, the slot address
 * taken): every call then goes to the kernel (counted in req).
 */
bool pls_init(void);

/**
 * Take the newest snapshot fresh enough for the served clock, asking the
 * daemon for a newer one (and waiting for it) when it is not.  0, or
 * -EAGAIN when none can be had (the caller passes the call on).
 */
int pls_enter(struct pl_hold *h);

/** Give back what pls_enter took. */
void pls_leave(struct pl_hold *h);

/** The control page (valid after pls_init succeeded). */
const struct pl_ctl *pls_ctl(void);

/** Count one event in the request page (a field of struct pl_req). */
#define PLS_COUNT(field) pls_count(__builtin_offsetof(struct pl_req, field))
void pls_count(size_t offset);

/** What stat of the mount's root said: its device, block size and the mount's time (every node's). */
const struct stat *pls_root_stat(void);

/**
 * The run's own pids (in its namespace's procfs) above @after, ascending,
 * at most @max into @ids: how many.
 */
size_t pls_real_pids(pid_t after, pid_t *ids, size_t max);

/** After fork, in the child: only this thread holds anything now. */
void pls_after_fork_child(void);

#endif
