// SPDX-License-Identifier: MIT
/*
 * net_tcp.c - /proc/net/tcp and /proc/net/tcp6.
 *
 * Mirrors net/ipv4/tcp_ipv4.c tcp_seq_start/next, tcp4_seq_show,
 * get_tcp4_sock, get_openreq4, get_timewait4_sock and their IPv6
 * counterparts in net/ipv6/tcp_ipv6.c (Linux 6.18).  The listening hash
 * is walked first, then the established hash (which holds time-wait and
 * request socks too), so listeners come first; "sl" counts the rows.  tcp
 * pads every line to 149 bytes; tcp6 does not pad.
 */
#include "net_int.h"

#define TMPSZ 150

static bool tcp_row(const struct mach_socket *s, unsigned short family)
{
	return s->family == family && s->protocol == MACH_IPPROTO_TCP && s->state != MACH_TCP_CLOSE;
}

/* Rows in walk order: pass 0 the listeners, pass 1 the rest; each in table order. */
static bool in_pass(const struct mach_socket *s, int pass)
{
	return (s->kind == MACH_SK_FULL && s->state == MACH_TCP_LISTEN) == (pass == 0);
}

/* The row after @cur (NULL: the first), or NULL at the end. */
static const struct mach_socket *tcp_walk(const struct mach_net *n, unsigned short family,
					  const struct mach_socket *cur)
{
	size_t i = cur ? (size_t)(cur - n->socks) + 1 : 0;
	int pass = cur && !in_pass(cur, 0) ? 1 : 0;

	for (; pass < 2; pass++, i = 0)
		for (; i < n->nsocks; i++)
			if (tcp_row(&n->socks[i], family) && in_pass(&n->socks[i], pass))
				return &n->socks[i];
	return NULL;
}

static void *tcp4_start(struct seq_file *m, loff_t *pos)
{
	return net_sock_start(m, pos, MACH_AF_INET, tcp_walk);
}

static void *tcp4_next(struct seq_file *m, void *v, loff_t *pos)
{
	return net_sock_next(m, v, pos, MACH_AF_INET, tcp_walk);
}

static void *tcp6_start(struct seq_file *m, loff_t *pos)
{
	return net_sock_start(m, pos, MACH_AF_INET6, tcp_walk);
}

static void *tcp6_next(struct seq_file *m, void *v, loff_t *pos)
{
	return net_sock_next(m, v, pos, MACH_AF_INET6, tcp_walk);
}

/* "%4d: ADDR:PORT ADDR:PORT %02X": the start every kind of row shares. */
static void put_ends(struct seq_file *m, const struct mach_socket *s, int sl, bool v6)
{
	seq_put_decimal_ull_width(m, NULL, (unsigned int)sl, 4);
	seq_puts(m, ": ");
	if (v6)
		net_put_ipv6(m, s->laddr);
	else
		net_put_ipv4(m, net_be32(s->laddr));
	seq_putc(m, ':');
	net_put_hex_upper(m, s->lport, 4);
	seq_putc(m, ' ');
	if (v6)
		net_put_ipv6(m, s->raddr);
	else
		net_put_ipv4(m, net_be32(s->raddr));
	seq_putc(m, ':');
	net_put_hex_upper(m, s->rport, 4);
	seq_putc(m, ' ');
	/* a request sock is NEW_SYN_RECV inside, SYN_RECV in the file */
	net_put_hex_upper(m, s->kind == MACH_SK_REQUEST ? MACH_TCP_SYN_RECV : s->state, 2);
}

/* get_tcp4_sock / get_tcp6_sock */
static void get_tcp_sock(struct seq_file *m, const struct pfs_ctx *c, const struct mach_socket *s)
{
	unsigned long when = s->timer ? net_ticks_left(c->mach, s->timer_expires) : 0;

	net_put_queues_timer(m, s->tx_queue, s->rx_queue, s->timer, when, s->retransmits);
	net_put_uid_inode_ref(m, s->uid, s->probes_out, s->inode, s->refcnt);
	net_put_pk(m, s->kaddr);
	seq_put_decimal_ull(m, " ", s->rto);
	seq_put_decimal_ull(m, " ", s->ato);
	seq_put_decimal_ull(m, " ", s->ack_flags);
	seq_put_decimal_ull(m, " ", s->cwnd);
	seq_put_decimal_ll(m, " ", s->ssthresh);
}

/* get_openreq4 / get_openreq6 */
static void get_openreq(struct seq_file *m, const struct pfs_ctx *c, const struct mach_socket *s)
{
	net_put_queues_timer(m, 0, 0, 1, net_ticks_left(c->mach, s->timer_expires), s->retransmits);
	net_put_uid_inode_ref(m, s->uid, 0, 0, 0);
	net_put_pk(m, s->kaddr);
}

/* get_timewait4_sock / get_timewait6_sock */
static void get_timewait_sock(struct seq_file *m, const struct pfs_ctx *c, const struct mach_socket *s)
{
	net_put_queues_timer(m, 0, 0, 3, net_ticks_left(c->mach, s->timer_expires), 0);
	net_put_uid_inode_ref(m, 0, 0, 0, s->refcnt);
	net_put_pk(m, s->kaddr);
}

static void tcp_row_show(struct seq_file *m, const struct mach_socket *s, bool v6)
{
	const struct pfs_ctx *c = m->private;

	put_ends(m, s, (int)(m->index - 1), v6);
	if (s->kind == MACH_SK_TIMEWAIT)
		get_timewait_sock(m, c, s);
	else if (s->kind == MACH_SK_REQUEST)
		get_openreq(m, c, s);
	else
		get_tcp_sock(m, c, s);
}

static int tcp4_seq_show(struct seq_file *m, void *v)
{
	seq_setwidth(m, TMPSZ - 1);
	if (v == SEQ_START_TOKEN)
		seq_puts(m, "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout "
			    "inode");
	else
		tcp_row_show(m, v, false);
	seq_pad(m, '\n');
	return 0;
}

static int tcp6_seq_show(struct seq_file *m, void *v)
{
	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "  sl  local_address                         remote_address                        st "
			    "tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n");
		return 0;
	}
	tcp_row_show(m, v, true);
	seq_putc(m, '\n');
	return 0;
}

const struct seq_operations pfs_net_tcp_ops = {
	.start = tcp4_start,
	.next = tcp4_next,
	.stop = pfs_seq_stop_nothing,
	.show = tcp4_seq_show,
};

const struct seq_operations pfs_net_tcp6_ops = {
	.start = tcp6_start,
	.next = tcp6_next,
	.stop = pfs_seq_stop_nothing,
	.show = tcp6_seq_show,
};
