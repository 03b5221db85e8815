/* SPDX-License-Identifier: MIT */
/*
 * hardcases_net.h - a network hard case for /sys/class/net: a veth pair,
 * one end up and the other down, so that the up end runs without a carrier
 * (operstate lowerlayerdown, carrier 0, speed and duplex shown) and the
 * down end refuses its link state (EINVAL).  Made and removed with ip(8).
 */
#ifndef UPROCFS_HARDCASES_NET_H
#define UPROCFS_HARDCASES_NET_H

struct hardcases_net {
	char up[16], down[16];   /* the two ends' names; "" when not made */
};

/** Make the pair; 0, or -1 when ip(8) could not (then nothing is left behind). */
int hardcases_net_start(struct hardcases_net *hn);

/** Remove the pair (deleting one end deletes both). */
void hardcases_net_stop(struct hardcases_net *hn);

#endif
