// SPDX-License-Identifier: MIT
/*
 * load_net_dev.c - parse /proc/net/dev, as net/core/net-procfs.c
 * dev_seq_show prints it (Linux 6.18; research notes section 3).
 *
 * The two header lines, then "%6s:" and sixteen right-aligned counters
 * per device, in ascending ifindex order (the index itself is not shown).
 * Three columns are sums of rtnl_link_stats64 fields: a loaded device keeps
 * each sum in the first field the column names (drop in rx_dropped, frame
 * in rx_frame_errors, carrier in tx_carrier_errors), which renders the same.
 */
#include <string.h>

#include "load_net.h"

static const char dev_header[] =
	"Inter-|   Receive                                                |  Transmit\n"
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs "
	"drop fifo colls carrier compressed\n";

/* The columns in order: the stat each goes into and its width. */
static const struct {
	enum mach_netdev_stat stat;
	unsigned char width;
	const char *name;
} columns[16] = {
	{ MACH_NETDEV_RX_BYTES, 7, "receive bytes" }, { MACH_NETDEV_RX_PACKETS, 7, "receive packets" },
	{ MACH_NETDEV_RX_ERRORS, 4, "receive errs" }, { MACH_NETDEV_RX_DROPPED, 4, "receive drop" },
	{ MACH_NETDEV_RX_FIFO_ERRORS, 4, "receive fifo" }, { MACH_NETDEV_RX_FRAME_ERRORS, 5, "receive frame" },
	{ MACH_NETDEV_RX_COMPRESSED, 10, "receive compressed" }, { MACH_NETDEV_MULTICAST, 9, "multicast" },
	{ MACH_NETDEV_TX_BYTES, 8, "transmit bytes" }, { MACH_NETDEV_TX_PACKETS, 7, "transmit packets" },
	{ MACH_NETDEV_TX_ERRORS, 4, "transmit errs" }, { MACH_NETDEV_TX_DROPPED, 4, "transmit drop" },
	{ MACH_NETDEV_TX_FIFO_ERRORS, 4, "transmit fifo" }, { MACH_NETDEV_COLLISIONS, 5, "colls" },
	{ MACH_NETDEV_TX_CARRIER_ERRORS, 7, "carrier" }, { MACH_NETDEV_TX_COMPRESSED, 10, "transmit compressed" },
};

/* "%6s:": the name right-aligned in 6 columns, up to the colon. */
static int dev_name(struct lex *lx, char name[MACH_IFNAMSIZ])
{
	const char *eol = lex_line_end(lx), *start = lx->p;
	size_t pad = lex_skip_spaces(lx);
	const char *colon = memchr(lx->p, ':', (size_t)(eol - lx->p));
	size_t len = colon ? (size_t)(colon - lx->p) : 0;

	if (!len || len >= MACH_IFNAMSIZ || memchr(lx->p, ' ', len)) {
		lx->p = start;
		return lex_expected(lx, "a device name and ':'");
	}
	if (len < 6 ? pad != 6 - len : pad != 0) {
		lx->p = start;
		return lex_expected(lx, "a device name right-aligned in 6 columns");
	}
	memcpy(name, lx->p, len);
	name[len] = '\0';
	lx->p = colon + 1;
	return 0;
}

int ld_parse_net_dev(struct lex *lx, struct ld_net_file *f)
{
	struct mach_net *n = &f->n;
	int rc = lex_expect(lx, dev_header);

	while (!rc && !lex_eof(lx)) {
		struct mach_netdev *d;
		char name[MACH_IFNAMSIZ];
		int i;

		lex_ctx(lx, NULL);
		rc = dev_name(lx, name);
		if (rc)
			return rc;
		if (mach_net_dev_by_name(n, name) >= 0)
			return lex_fail(lx, "device \"%s\" listed twice", name);
		i = ld_net_file_dev(f, name, lex_line_at(lx, lx->p));
		if (i < 0)
			return i;
		d = &n->devs[i];
		for (int c = 0; c < 16 && !rc; c++) {
			lex_ctx(lx, columns[c].name);
			rc = lex_expect(lx, " ");
			if (!rc)
				rc = ld_net_dec(lx, columns[c].width, UINT64_MAX, &d->stats[columns[c].stat]);
		}
		if (!rc)
			rc = lex_eol(lx);
	}
	return rc;
}
