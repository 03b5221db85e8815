// SPDX-License-Identifier: MIT
/*
 * net_udp.c - /proc/net/udp and /proc/net/udp6.
 *
 * Mirrors net/ipv4/udp.c udp_seq_start/next, udp4_seq_show and
 * udp4_format_sock, and net/ipv6/datagram.c __ip6_dgram_sock_seq_show
 * (Linux 6.18).  Sockets are walked bucket by bucket of the port hash;
 * "sl" is the bucket, not a row number.  udp pads lines to 127 bytes,
 * udp6 does not.  Only bound sockets are hashed, so only they are shown.
 */
#include "net_int.h"

static bool udp_row(const struct mach_socket *s, unsigned short family)
{
	return s->family == family && s->protocol == MACH_IPPROTO_UDP && s->lport;
}

static const struct mach_socket *udp_walk(const struct mach_net *n, unsigned short family,
					  const struct mach_socket *cur)
{
	for (size_t i = cur ? (size_t)(cur - n->socks) + 1 : 0; i < n->nsocks; i++)
		if (udp_row(&n->socks[i], family))
			return &n->socks[i];
	return NULL;
}

static void *udp4_start(struct seq_file *m, loff_t *pos)
{
	return net_sock_start(m, pos, MACH_AF_INET, udp_walk);
}

static void *udp4_next(struct seq_file *m, void *v, loff_t *pos)
{
	return net_sock_next(m, v, pos, MACH_AF_INET, udp_walk);
}

static void *udp6_start(struct seq_file *m, loff_t *pos)
{
	return net_sock_start(m, pos, MACH_AF_INET6, udp_walk);
}

static void *udp6_next(struct seq_file *m, void *v, loff_t *pos)
{
	return net_sock_next(m, v, pos, MACH_AF_INET6, udp_walk);
}

/* What udp4_format_sock and __ip6_dgram_sock_seq_show share after the addresses. */
static void udp_tail(struct seq_file *m, const struct mach_socket *s)
{
	seq_putc(m, ' ');
	net_put_hex_upper(m, s->state, 2);
	net_put_queues_timer(m, s->tx_queue, s->rx_queue, 0, 0, 0);
	net_put_uid_inode_ref(m, s->uid, 0, s->inode, s->refcnt);
	net_put_pk(m, s->kaddr);
	seq_put_decimal_ull(m, " ", s->drops);
}

static void udp_addr(struct seq_file *m, const unsigned char *addr, uint16_t port, bool v6)
{
	if (v6)
		net_put_ipv6(m, addr);
	else
		net_put_ipv4(m, net_be32(addr));
	seq_putc(m, ':');
	net_put_hex_upper(m, port, 4);
}

static void udp_format_sock(struct seq_file *m, const struct mach_socket *s, bool v6)
{
	seq_put_decimal_ull_width(m, NULL, s->hash_slot, 5);
	seq_puts(m, ": ");
	udp_addr(m, s->laddr, s->lport, v6);
	seq_putc(m, ' ');
	udp_addr(m, s->raddr, s->rport, v6);
	udp_tail(m, s);
}

static int udp4_seq_show(struct seq_file *m, void *v)
{
	seq_setwidth(m, 127);
	if (v == SEQ_START_TOKEN)
		seq_puts(m, "   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout "
			    "inode ref pointer drops");
	else
		udp_format_sock(m, v, false);
	seq_pad(m, '\n');
	return 0;
}

static int udp6_seq_show(struct seq_file *m, void *v)
{
	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "  sl  local_address                         remote_address                        st "
			    "tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops\n");
		return 0;
	}
	udp_format_sock(m, v, true);
	seq_putc(m, '\n');
	return 0;
}

const struct seq_operations pfs_net_udp_ops = {
	.start = udp4_start,
	.next = udp4_next,
	.stop = pfs_seq_stop_nothing,
	.show = udp4_seq_show,
};

const struct seq_operations pfs_net_udp6_ops = {
	.start = udp6_start,
	.next = udp6_next,
	.stop = pfs_seq_stop_nothing,
	.show = udp6_seq_show,
};
