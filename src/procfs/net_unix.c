// SPDX-License-Identifier: MIT
/*
 * net_unix.c - /proc/net/unix: every AF_UNIX socket of the namespace.
 *
 * Mirrors net/unix/af_unix.c unix_seq_start/next/show (Linux 6.18): the
 * sockets in hash order, each "%pK: %08X %08X %08X %04X %02X %5lu" and,
 * for a bound one (or the accepted child of a bound listener), a space and
 * the address: a path raw (newlines and all), an abstract name as '@' and
 * its bytes, every NUL shown as '@'.
 */
#include "net_int.h"

#define SO_ACCEPTCON 0x00010000 /* __SO_ACCEPTCON */
enum { SS_UNCONNECTED = 1, SS_CONNECTING, SS_CONNECTED, SS_DISCONNECTING };

static const struct mach_socket *unix_walk(const struct mach_net *n, unsigned short family,
					   const struct mach_socket *cur)
{
	for (size_t i = cur ? (size_t)(cur - n->socks) + 1 : 0; i < n->nsocks; i++)
		if (n->socks[i].family == family)
			return &n->socks[i];
	return NULL;
}

static void *unix_seq_start(struct seq_file *m, loff_t *pos)
{
	return net_sock_start(m, pos, MACH_AF_UNIX, unix_walk);
}

static void *unix_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	return net_sock_next(m, v, pos, MACH_AF_UNIX, unix_walk);
}

static int unix_seq_show(struct seq_file *m, void *v)
{
	const struct mach_socket *s = v;
	bool established;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "Num       RefCount Protocol Flags    Type St Inode Path\n");
		return 0;
	}
	established = s->state == MACH_TCP_ESTABLISHED;
	net_put_pk(m, s->kaddr);
	seq_puts(m, ": ");
	net_put_hex_upper(m, (unsigned int)s->refcnt, 8);
	seq_puts(m, " 00000000 ");
	net_put_hex_upper(m, s->state == MACH_TCP_LISTEN ? SO_ACCEPTCON : 0, 8);
	seq_putc(m, ' ');
	net_put_hex_upper(m, s->type, 4);
	seq_putc(m, ' ');
	net_put_hex_upper(m, s->has_socket ? (established ? SS_CONNECTED : SS_UNCONNECTED)
					    : (established ? SS_CONNECTING : SS_DISCONNECTING), 2);
	seq_put_decimal_ull_width(m, " ", s->inode, 5);
	if (s->path_len) {
		const char *path = mach_sock_path(pfs_net(m->private), s);

		seq_putc(m, ' ');
		for (unsigned int i = 0; i < s->path_len; i++)
			seq_putc(m, path[i] ? path[i] : '@');
	}
	seq_putc(m, '\n');
	return 0;
}

const struct seq_operations pfs_net_unix_ops = {
	.start = unix_seq_start,
	.next = unix_seq_next,
	.stop = pfs_seq_stop_nothing,
	.show = unix_seq_show,
};
