// SPDX-License-Identifier: MIT
/*
 * net_if_inet6.c - /proc/net/if_inet6: the IPv6 addresses of the namespace.
 *
 * Mirrors net/ipv6/addrconf.c if6_seq_start/next/show (Linux 6.18): the
 * addresses in hash order (not per device), each as "%pi6 %02x %02x %02x
 * %02x %8s": 32 hex digits, then ifindex, prefix length, scope and the
 * low byte of the flags, all in hex, and the device name right-aligned.
 */
#include "net_int.h"

static void *if6_seq_start(struct seq_file *m, loff_t *pos)
{
	const struct mach_net *n = pfs_net(m->private);

	return *pos >= 0 && (uint64_t)*pos < n->ninet6 ? &n->inet6[*pos] : NULL;
}

static void *if6_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return if6_seq_start(m, pos);
}

static int if6_seq_show(struct seq_file *m, void *v)
{
	const struct mach_net *n = pfs_net(m->private);
	const struct mach_inet6_addr *a = v;
	const struct mach_netdev *dev = &n->devs[a->dev];

	for (int i = 0; i < 16; i++)
		seq_put_hex_ll(m, NULL, a->addr[i], 2);
	seq_printf(m, " %02x %02x %02x %02x %8s\n", (unsigned int)dev->ifindex, a->prefix_len, a->scope,
		   (unsigned int)(a->flags & 0xff), dev->name);
	return 0;
}

const struct seq_operations pfs_net_if_inet6_ops = {
	.start = if6_seq_start,
	.next = if6_seq_next,
	.stop = pfs_seq_stop_nothing,
	.show = if6_seq_show,
};
