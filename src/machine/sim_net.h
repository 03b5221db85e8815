/* SPDX-License-Identifier: MIT */
/*
 * sim_net.h - the network counters moving with the simulator's clock
 * (sim_net.c), for sim.c.
 */
#ifndef UPROCFS_SIM_NET_H
#define UPROCFS_SIM_NET_H

#include "uprocfs/machine.h"

struct sim_net;

/** Remember @m's network as it is now, the base it grows from; NULL on ENOMEM. */
struct sim_net *sim_net_create(const struct mach_machine *m);

/** Bring @m's network counters and timers to its uptime. */
void sim_net_advance(struct sim_net *sn, struct mach_machine *m);

/** Free what sim_net_create made (not the machine). */
void sim_net_destroy(struct sim_net *sn);

#endif
