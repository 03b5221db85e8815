// SPDX-License-Identifier: MIT
/*
 * net_arp.c - /proc/net/arp: the IPv4 neighbour cache.
 *
 * Mirrors net/ipv4/arp.c arp_seq_start (neigh_seq_start with
 * NEIGH_SEQ_SKIP_NOARP), arp_seq_show, arp_format_neigh_entry and
 * arp_format_pneigh_entry (Linux 6.18): a header, the entries in hash
 * order, NOARP ones skipped, then the proxy entries.  The hardware type is
 * the device's; the flags follow the entry's NUD state.
 */
#include <stdio.h>

#include "net_int.h"

#define ATF_COM 0x02
#define ATF_PERM 0x04
#define ATF_PUBL 0x08
#define HBUFFERLEN 30
/* NUD_VALID: PERMANENT, NOARP, REACHABLE, PROBE (0x10), STALE, DELAY (0x08) */
#define NUD_VALID (MACH_NUD_PERMANENT | MACH_NUD_NOARP | MACH_NUD_REACHABLE | 0x10 | MACH_NUD_STALE | 0x08)

static bool shown(const struct mach_neigh *e)
{
	return e->proxy || !(e->nud_state & MACH_NUD_NOARP);
}

/* The first shown entry at or after @i, as its record position; @n when none. */
static size_t next_shown(const struct mach_net *n, size_t i)
{
	while (i < n->nneigh && !shown(&n->neigh[i]))
		i++;
	return i;
}

static void *arp_seq_start(struct seq_file *m, loff_t *pos)
{
	const struct mach_net *n = pfs_net(m->private);
	size_t i = next_shown(n, 0);

	if (*pos == 0)
		return SEQ_START_TOKEN;
	for (loff_t k = 1; k < *pos && i < n->nneigh; k++)
		i = next_shown(n, i + 1);
	return i < n->nneigh ? &n->neigh[i] : NULL;
}

static void *arp_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	const struct mach_net *n = pfs_net(m->private);
	size_t i = v == SEQ_START_TOKEN ? next_shown(n, 0) :
		   next_shown(n, (size_t)((const struct mach_neigh *)v - n->neigh) + 1);

	++*pos;
	return i < n->nneigh ? &n->neigh[i] : NULL;
}

static int arp_state_to_flags(const struct mach_neigh *e)
{
	if (e->nud_state & MACH_NUD_PERMANENT)
		return ATF_PERM | ATF_COM;
	if (e->nud_state & NUD_VALID)
		return ATF_COM;
	return 0;
}

static void ip_str(char tbuf[16], uint32_t be32)
{
	const unsigned char *b = (const unsigned char *)&be32;

	snprintf(tbuf, 16, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
}

static void arp_format_neigh_entry(struct seq_file *m, const struct mach_net *n, const struct mach_neigh *e)
{
	const struct mach_netdev *dev = &n->devs[e->dev];
	char hbuffer[HBUFFERLEN], tbuf[16];
	int k = 0;

	for (int j = 0; k < HBUFFERLEN - 3 && j < dev->addr_len; j++) {
		hbuffer[k++] = "0123456789abcdef"[e->ha[j] >> 4];
		hbuffer[k++] = "0123456789abcdef"[e->ha[j] & 0xf];
		hbuffer[k++] = ':';
	}
	if (k != 0)
		--k;
	hbuffer[k] = 0;
	ip_str(tbuf, e->ip);
	seq_printf(m, "%-16s 0x%-10x0x%-10x%-17s     %-8s %s\n", tbuf, dev->type, arp_state_to_flags(e), hbuffer,
		   "*", dev->name);
}

static void arp_format_pneigh_entry(struct seq_file *m, const struct mach_net *n, const struct mach_neigh *e)
{
	const struct mach_netdev *dev = e->dev >= 0 ? &n->devs[e->dev] : NULL;
	char tbuf[16];

	ip_str(tbuf, e->ip);
	seq_printf(m, "%-16s 0x%-10x0x%-10x%s     *        %s\n", tbuf, dev ? dev->type : 0, ATF_PUBL | ATF_PERM,
		   "00:00:00:00:00:00", dev ? dev->name : "*");
}

static int arp_seq_show(struct seq_file *m, void *v)
{
	const struct mach_net *n = pfs_net(m->private);
	const struct mach_neigh *e = v;

	if (v == SEQ_START_TOKEN)
		seq_puts(m, "IP address       HW type     Flags       HW address            Mask     Device\n");
	else if (e->proxy)
		arp_format_pneigh_entry(m, n, e);
	else
		arp_format_neigh_entry(m, n, e);
	return 0;
}

const struct seq_operations pfs_net_arp_ops = {
	.start = arp_seq_start,
	.next = arp_seq_next,
	.stop = pfs_seq_stop_nothing,
	.show = arp_seq_show,
};
