/* SPDX-License-Identifier: MIT */
/*
 * net_int.h - what the /proc/<pid>/net renderers share: the namespace of
 * the task, the address and pointer printers, an iterator over an array
 * with a header record.
 */
#ifndef UPROCFS_PROCFS_NET_INT_H
#define UPROCFS_PROCFS_NET_INT_H

#include <stdint.h>
#include <string.h>

#include "render.h"

/** "%0<width>X": uppercase hex, zero-padded (the kernel's socket tables). */
void net_put_hex_upper(struct seq_file *m, uint64_t v, unsigned int width);

/** " %08X:%08X %02X:%08lX %08X": the queues, the timer and its ticks left, the retransmits. */
void net_put_queues_timer(struct seq_file *m, uint32_t tx, uint32_t rx, unsigned int tr, unsigned long when,
			  unsigned int retr);

/** " %5u %8d %lu %d ": uid, timeout, inode and refcount, before a pointer. */
void net_put_uid_inode_ref(struct seq_file *m, uint32_t uid, int timeout, uint64_t inode, int ref);

/** An IPv4 __be32 as "%08X" prints it on a little-endian machine. */
static inline void net_put_ipv4(struct seq_file *m, uint32_t be32)
{
	net_put_hex_upper(m, be32, 8);
}

/** An in6_addr as "%08X%08X%08X%08X" of its four 32-bit words in host order. */
void net_put_ipv6(struct seq_file *m, const unsigned char addr[16]);

/** A socket's address as the 4 bytes of an IPv4 __be32. */
static inline uint32_t net_be32(const unsigned char addr[16])
{
	uint32_t v;

	memcpy(&v, addr, 4);
	return v;
}

/** A kernel pointer as %pK shows it (the model holds the printed value). */
static inline void net_put_pk(struct seq_file *m, uint64_t kaddr)
{
	seq_put_hex_ll(m, NULL, kaddr, 16);
}

/** clock_t ticks until @expires (ns of uptime), 0 once past: jiffies_delta_to_clock_t. */
static inline unsigned long net_ticks_left(const struct mach_machine *mach, uint64_t expires)
{
	return expires > mach->uptime_ns ? (unsigned long)((expires - mach->uptime_ns) / MACH_NSEC_PER_TICK) : 0;
}

/**
 * Record @pos of a file with a header: SEQ_START_TOKEN at 0, then element
 * pos - 1 of the @n elements of @size bytes at @base, NULL past them.
 */
static inline void *net_array_pos(const void *base, size_t n, size_t size, loff_t pos)
{
	if (pos == 0)
		return SEQ_START_TOKEN;
	if (pos < 0 || (uint64_t)pos > n)
		return NULL;
	return (char *)base + (size_t)(pos - 1) * size;
}

/** The socket shown after @cur (NULL: the first) in a file of @family, or NULL at the end. */
typedef const struct mach_socket *(*net_sock_walk_fn)(const struct mach_net *n, unsigned short family,
						       const struct mach_socket *cur);

/** start() of a socket table: the header at 0, then the rows @walk gives. */
void *net_sock_start(struct seq_file *m, loff_t *pos, unsigned short family, net_sock_walk_fn walk);

/** next() of a socket table. */
void *net_sock_next(struct seq_file *m, void *v, loff_t *pos, unsigned short family, net_sock_walk_fn walk);

#endif
