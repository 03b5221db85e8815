// SPDX-License-Identifier: MIT
/*
 * net_dev.c - /proc/net/dev: one line of counters per device.
 *
 * Mirrors net/core/net-procfs.c dev_seq_start/next/show and
 * dev_seq_printf_stats (Linux 6.18): two header lines, then the devices in
 * ascending ifindex order, each "%6s:" and sixteen right-aligned counters;
 * drop, frame and carrier are sums of rtnl_link_stats64 fields.
 */
#include "net_int.h"

static void *dev_seq_start(struct seq_file *m, loff_t *pos)
{
	const struct mach_net *n = pfs_net(m->private);

	return net_array_pos(n->devs, n->ndevs, sizeof(*n->devs), *pos);
}

static void *dev_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return dev_seq_start(m, pos);
}

/* "%6s": names are right-aligned, never cut. */
static void put_name_right(struct seq_file *m, const char *name, size_t width)
{
	size_t len = strnlen(name, MACH_IFNAMSIZ);

	for (; len < width; width--)
		seq_putc(m, ' ');
	seq_write(m, name, len);
}

static void dev_seq_printf_stats(struct seq_file *m, const struct mach_netdev *d)
{
	const uint64_t *s = d->stats;

	put_name_right(m, d->name, 6);
	seq_putc(m, ':');
	seq_put_decimal_ull_width(m, " ", s[MACH_NETDEV_RX_BYTES], 7);
	seq_put_decimal_ull_width(m, " ", s[MACH_NETDEV_RX_PACKETS], 7);
	seq_put_decimal_ull_width(m, " ", s[MACH_NETDEV_RX_ERRORS], 4);
	seq_put_decimal_ull_width(m, " ", s[MACH_NETDEV_RX_DROPPED] + s[MACH_NETDEV_RX_MISSED_ERRORS], 4);
	seq_put_decimal_ull_width(m, " ", s[MACH_NETDEV_RX_FIFO_ERRORS], 4);
	seq_put_decimal_ull_width(m, " ", s[MACH_NETDEV_RX_LENGTH_ERRORS] + s[MACH_NETDEV_RX_OVER_ERRORS] +
					  s[MACH_NETDEV_RX_CRC_ERRORS] + s[MACH_NETDEV_RX_FRAME_ERRORS], 5);
	seq_put_decimal_ull_width(m, " ", s[MACH_NETDEV_RX_COMPRESSED], 10);
	seq_put_decimal_ull_width(m, " ", s[MACH_NETDEV_MULTICAST], 9);
	seq_put_decimal_ull_width(m, " ", s[MACH_NETDEV_TX_BYTES], 8);
	seq_put_decimal_ull_width(m, " ", s[MACH_NETDEV_TX_PACKETS], 7);
	seq_put_decimal_ull_width(m, " ", s[MACH_NETDEV_TX_ERRORS], 4);
	seq_put_decimal_ull_width(m, " ", s[MACH_NETDEV_TX_DROPPED], 4);
	seq_put_decimal_ull_width(m, " ", s[MACH_NETDEV_TX_FIFO_ERRORS], 4);
	seq_put_decimal_ull_width(m, " ", s[MACH_NETDEV_COLLISIONS], 5);
	seq_put_decimal_ull_width(m, " ", s[MACH_NETDEV_TX_CARRIER_ERRORS] + s[MACH_NETDEV_TX_ABORTED_ERRORS] +
					  s[MACH_NETDEV_TX_WINDOW_ERRORS] + s[MACH_NETDEV_TX_HEARTBEAT_ERRORS], 7);
	seq_put_decimal_ull_width(m, " ", s[MACH_NETDEV_TX_COMPRESSED], 10);
	seq_putc(m, '\n');
}

static int dev_seq_show(struct seq_file *m, void *v)
{
	if (v == SEQ_START_TOKEN)
		seq_puts(m, "Inter-|   Receive                                                |  Transmit\n"
			    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs "
			    "drop fifo colls carrier compressed\n");
	else
		dev_seq_printf_stats(m, v);
	return 0;
}

const struct seq_operations pfs_net_dev_ops = {
	.start = dev_seq_start,
	.next = dev_seq_next,
	.stop = pfs_seq_stop_nothing,
	.show = dev_seq_show,
};
