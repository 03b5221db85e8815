/* SPDX-License-Identifier: MIT */
/*
 * net_int.h - what the network generator's files (net.c, net_devs.c,
 * net_socks.c, net_mib.c) hand each other, and what the rest of the
 * generator may call: the sockets of one process by its identity.
 *
 * The machine's network: a host namespace with lo, an ethernet device
 * (10.0.0.5/24 behind the gateway 10.0.0.1, as the login environments'
 * SSH_CONNECTION say), docker0 and a veth per container when there are
 * containers; each container (the processes under a containerd-shim) in a
 * namespace of its own with lo and eth0 on docker0's 172.17.0.0/16.
 */
#ifndef UPROCFS_SYNTH_NET_INT_H
#define UPROCFS_SYNTH_NET_INT_H

#include "synth_int.h"

/* Keys of the network's random streams (rng_init), clear of synth_int.h's ranges. */
#define KEY_NET 0x400000000ull        /* + namespace: its devices and counters */
#define KEY_NET_SOCK 0x500000000ull   /* + plan index: a process's sockets */
#define KEY_NET_UPLINK 0x4f0000000ull /* the uplink's name (irqs.c names its queues before the network is built) */

/* Sockets one process holds at most (a server's accepted ends count). */
#define SY_NET_MAX_PROC_SOCKS 4096u
/* The ssh clients and pg clients connect from 10.0.a.b; the host is 10.0.0.5. */
#define SY_NET_HOST_ADDR mach_ipv4(10, 0, 0, 5)
#define SY_NET_GATEWAY mach_ipv4(10, 0, 0, 1)

/*
 * The machine's one allocator of pipe and socket inodes (sockfs and pipefs
 * draw from one counter in the kernel, get_next_ino): a range of
 * SY_INO_SLOTS per pid, above every anon inode (ANON_INODE_INO) and pidfs
 * inode a synthetic machine shows, so that no two of them meet.  Within a
 * pid's range: slots [0, SY_SLOT_PEER) are the sockets the process made
 * (net_socks.c), [SY_SLOT_PEER, 2 * SY_SLOT_PEER) the server ends its
 * connections make in other processes (dbus, journald), [SY_SLOT_PIPE,
 * SY_SLOT_SHARED) its own pipes and [SY_SLOT_SHARED, SY_INO_SLOTS) the pipes
 * it makes for its children (files_progs.c).  A number is a function of
 * the pid and slot alone, so any process's are known without the others.
 */
#define SY_INO_BASE 20000000u
#define SY_INO_SLOTS 256u
#define SY_SLOT_PEER 64u   /* slot + this: the other end, held by the server */
#define SY_SLOT_PIPE 128u
#define SY_SLOT_SHARED 192u
#define SY_SLOT_STDOUT 0u  /* a service's stdout and stderr: its journal stream (JOURNAL_STREAM) */

/** Inode of slot @slot of pid @pid (see above). */
static inline uint64_t sy_sock_inode(pid_t pid, unsigned int slot)
{
	return SY_INO_BASE + (uint64_t)(uint32_t)pid * SY_INO_SLOTS + slot % SY_INO_SLOTS;
}

/** The namespace (0: the host's, k: container k) of plan index @idx, from s->netns_of. */
unsigned int sy_net_ns_of(const struct synth *s, size_t idx);

/**
 * The sockets process @idx of the plan holds, as a function of its identity
 * (the seed, its plan index, program, pid, uid and namespace) and the plan:
 * written to @out (room for @max), their number returned.  Each has its
 * owner (tgid, fd): a process's fd table shows "socket:[inode]" at each fd.
 * A socket held at two fds (a service's stdout and stderr) is listed twice.
 * Unix sockets' paths go to @paths (their namespace's, where they are
 * going; NULL: not kept, path_len 0), and *@err is set to -ENOMEM when
 * one could not be.
 */
unsigned int sy_net_proc_sockets(const struct synth *s, size_t idx, struct mach_socket *out, unsigned int max,
				 struct mach_net *paths, int *err);

/* net_devs.c: the devices, addresses, routes and neighbours of namespace @ns */
int sy_net_build_links(struct synth *s, struct mach_net *n, unsigned int ns, unsigned int ncontainers);

/* net_mib.c: the counters that follow from the devices and sockets of namespace @ns */
void sy_net_build_mib(struct synth *s, struct mach_net *n, unsigned int ns);
/** softnet_stat of every namespace, from the packets all of them received. */
int sy_net_build_softnet(struct synth *s);
/** sockstat of every namespace from the socket tables (some figures are global). */
void sy_net_build_sockstat(struct synth *s);

#endif
