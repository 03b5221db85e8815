/* SPDX-License-Identifier: MIT */
/*
 * sim_waits.h - where the simulator's tasks wait when it puts them to sleep
 * (sim_waits.c): what sim.c needs from the machine's stacks.
 */
#ifndef UPROCFS_SIM_WAITS_H
#define UPROCFS_SIM_WAITS_H

#include <stdint.h>

#include "uprocfs/machine.h"

/** A wait: a kernel stack and the function wchan names (its first frame). */
struct sim_wait {
	uint32_t kstack, wchan;
};

/**
 * How thread @t of @p sleeps: its own stack if it has one; else one of its
 * process's threads'; else the first task of its kind (kernel thread or
 * not) that sleeps on the machine.  {0, 0} when no task sleeps anywhere.
 */
struct sim_wait sim_sleep_wait(const struct mach_machine *m, const struct mach_process *p,
			       const struct mach_thread *t);

/** How a task waits for io (D): a stack in folio_wait_bit_common if the machine has one, else @sleep. */
struct sim_wait sim_io_wait(const struct mach_machine *m, struct sim_wait sleep);

#endif
