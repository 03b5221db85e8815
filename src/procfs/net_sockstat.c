// SPDX-License-Identifier: MIT
/*
 * net_sockstat.c - /proc/net/sockstat and /proc/net/sockstat6.
 *
 * Mirrors net/ipv4/proc.c sockstat_seq_show and net/ipv6/proc.c
 * sockstat6_seq_show (Linux 6.18): "%d" counts of the namespace, the global
 * TCP orphan/alloc/mem and UDP mem figures, and the fragment queues.
 */
#include "net_int.h"

int pfs_show_net_sockstat(struct seq_file *m, void *v)
{
	const struct mach_sockstat *s = &pfs_net(m->private)->sockstat;

	(void)v;
	seq_put_decimal_ll(m, "sockets: used ", s->sockets_used);
	seq_put_decimal_ll(m, "\nTCP: inuse ", s->tcp_inuse);
	seq_put_decimal_ll(m, " orphan ", s->tcp_orphan);
	seq_put_decimal_ll(m, " tw ", s->tcp_tw);
	seq_put_decimal_ll(m, " alloc ", s->tcp_alloc);
	seq_put_decimal_ll(m, " mem ", s->tcp_mem);
	seq_put_decimal_ll(m, "\nUDP: inuse ", s->udp_inuse);
	seq_put_decimal_ll(m, " mem ", s->udp_mem);
	seq_put_decimal_ll(m, "\nUDPLITE: inuse ", s->udplite_inuse);
	seq_put_decimal_ll(m, "\nRAW: inuse ", s->raw_inuse);
	seq_put_decimal_ull(m, "\nFRAG: inuse ", s->frag_inuse);
	seq_put_decimal_ull(m, " memory ", s->frag_memory);
	seq_putc(m, '\n');
	return 0;
}

int pfs_show_net_sockstat6(struct seq_file *m, void *v)
{
	const struct mach_sockstat6 *s = &pfs_net(m->private)->sockstat6;

	(void)v;
	seq_put_decimal_ll(m, "TCP6: inuse ", s->tcp_inuse);
	seq_put_decimal_ll(m, "\nUDP6: inuse ", s->udp_inuse);
	seq_put_decimal_ll(m, "\nUDPLITE6: inuse ", s->udplite_inuse);
	seq_put_decimal_ll(m, "\nRAW6: inuse ", s->raw_inuse);
	seq_put_decimal_ull(m, "\nFRAG6: inuse ", s->frag_inuse);
	seq_put_decimal_ull(m, " memory ", s->frag_memory);
	seq_putc(m, '\n');
	return 0;
}
