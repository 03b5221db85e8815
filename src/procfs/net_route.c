// SPDX-License-Identifier: MIT
/*
 * net_route.c - /proc/net/route: the IPv4 main routing table.
 *
 * Mirrors net/ipv4/fib_trie.c fib_route_seq_show and fib_flag_trans
 * (Linux 6.18): a header padded to 127 bytes, then one line per route of
 * the main table in trie order (broadcast and multicast routes are not in
 * the model), each padded to 127 bytes with seq_setwidth/seq_pad.
 * Addresses are __be32 printed as "%08X" (byte-reversed on x86).
 */
#include "net_int.h"

#define RTF_UP 0x0001
#define RTF_GATEWAY 0x0002
#define RTF_HOST 0x0004
#define RTF_REJECT 0x0200

static void *route_seq_start(struct seq_file *m, loff_t *pos)
{
	const struct mach_net *n = pfs_net(m->private);

	if (n->no_main_table)
		return NULL; /* fib_route_seq_start: no RT_TABLE_MAIN, nothing at all */
	return net_array_pos(n->routes, n->nroutes, sizeof(*n->routes), *pos);
}

static void *route_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return route_seq_start(m, pos);
}

/* inet_make_mask: a prefix length as a __be32 mask. */
static uint32_t make_mask(unsigned int plen)
{
	uint32_t host = plen ? ~0u << (32 - plen) : 0;

	return __builtin_bswap32(host);
}

static unsigned int fib_flag_trans(const struct mach_route *r, uint32_t mask)
{
	unsigned int flags = r->type == MACH_RTN_UNREACHABLE || r->type == MACH_RTN_PROHIBIT ? RTF_REJECT : 0;

	if (r->gw || r->gw_v6)
		flags |= RTF_GATEWAY;
	if (mask == 0xFFFFFFFFu)
		flags |= RTF_HOST;
	return flags | RTF_UP;
}

static int route_seq_show(struct seq_file *m, void *v)
{
	const struct mach_net *n = pfs_net(m->private);
	const struct mach_route *r = v;
	uint32_t mask;

	if (v == SEQ_START_TOKEN) {
		seq_printf(m, "%-127s\n", "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU"
			   "\tWindow\tIRTT");
		return 0;
	}
	mask = make_mask(r->plen);
	seq_setwidth(m, 127);
	seq_printf(m, "%s\t%08X\t%08X\t%04X\t%d\t%u\t%d\t%08X\t%d\t%u\t%u",
		   r->dev >= 0 ? n->devs[r->dev].name : "*", r->dst, r->gw, fib_flag_trans(r, mask), 0, 0,
		   (int)r->priority, mask, r->advmss ? (int)r->advmss + 40 : 0, r->window, r->rtt >> 3);
	seq_pad(m, '\n');
	return 0;
}

const struct seq_operations pfs_net_route_ops = {
	.start = route_seq_start,
	.next = route_seq_next,
	.stop = pfs_seq_stop_nothing,
	.show = route_seq_show,
};
