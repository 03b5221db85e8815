/* SPDX-License-Identifier: MIT */
/*
 * sim_io.h - the simulator's block I/O (sim_io.c): the requests of tasks
 * waiting on I/O and of writeback, accounted to the block devices the way
 * the block layer accounts them.  Private to src/machine/.
 */
#ifndef UPROCFS_MACHINE_SIM_IO_H
#define UPROCFS_MACHINE_SIM_IO_H

#include <stdint.h>

#include "uprocfs/machine.h"

struct sim_io;

/**
 * Account I/O to @m's block devices (none: every call does nothing).  @io is
 * the workload's share of time in iowait, which sets how much writeback
 * there is.  0 or -ENOMEM.
 */
int sim_io_create(struct mach_machine *m, uint64_t seed, double io, struct sim_io **out);

void sim_io_destroy(struct sim_io *io);

/** A task starts waiting on a request it submitted now: the request's handle (-1: none). */
int sim_io_submit(struct sim_io *io, uint64_t now);

/** Request @req is done at @now (the task waiting on it wakes). */
void sim_io_complete(struct sim_io *io, int req, uint64_t now);

/** Time moved to @now by @dt: busy devices' io_ticks, writeback every 5 s. */
void sim_io_tick(struct sim_io *io, uint64_t now, uint64_t dt);

#endif
