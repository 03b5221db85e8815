// SPDX-License-Identifier: MIT
/*
 * net_common.c - the reader's network namespace and the printers the
 * /proc/<pid>/net renderers share; the /proc/net symlink.
 *
 * In the kernel /proc/net is a symlink to self/net (fs/proc/proc_net.c),
 * and /proc/<pid>/net shows the namespace of that task's nsproxy.
 */
#include <errno.h>
#include <stdio.h>

#include "net_int.h"

const struct mach_net *pfs_net(const struct pfs_ctx *c)
{
	return mach_thread_net(c->mach, c->thread);
}

int pfs_link_net(const struct pfs_ctx *c, char *buf, size_t size)
{
	(void)c;
	return snprintf(buf, size, "self/net") >= (int)size ? -ENAMETOOLONG : 0;
}

void net_put_hex_upper(struct seq_file *m, uint64_t v, unsigned int width)
{
	static const char digits[] = "0123456789ABCDEF";
	unsigned int len = seq_hex_len(v);
	char tmp[16];

	if (len < width)
		len = width;
	for (unsigned int i = len; i-- > 0; v >>= 4)
		tmp[i] = digits[v & 0xf];
	seq_write(m, tmp, len);
}

void net_put_ipv6(struct seq_file *m, const unsigned char addr[16])
{
	for (int k = 0; k < 4; k++) {
		uint32_t w;

		memcpy(&w, addr + 4 * k, 4);
		net_put_hex_upper(m, w, 8);
	}
}

void *net_sock_start(struct seq_file *m, loff_t *pos, unsigned short family, net_sock_walk_fn walk)
{
	const struct mach_net *n = pfs_net(m->private);
	const struct mach_socket *s;
	loff_t k = 1;

	if (*pos == 0)
		return SEQ_START_TOKEN;
	for (s = walk(n, family, NULL); s && k < *pos; k++)
		s = walk(n, family, s);
	return (void *)s;
}

void *net_sock_next(struct seq_file *m, void *v, loff_t *pos, unsigned short family, net_sock_walk_fn walk)
{
	++*pos;
	return (void *)walk(pfs_net(m->private), family, v == SEQ_START_TOKEN ? NULL : v);
}

void net_put_queues_timer(struct seq_file *m, uint32_t tx, uint32_t rx, unsigned int tr, unsigned long when,
			  unsigned int retr)
{
	seq_putc(m, ' ');
	net_put_hex_upper(m, tx, 8);
	seq_putc(m, ':');
	net_put_hex_upper(m, rx, 8);
	seq_putc(m, ' ');
	net_put_hex_upper(m, tr, 2);
	seq_putc(m, ':');
	net_put_hex_upper(m, when, 8);
	seq_putc(m, ' ');
	net_put_hex_upper(m, retr, 8);
}

void net_put_uid_inode_ref(struct seq_file *m, uint32_t uid, int timeout, uint64_t inode, int ref)
{
	seq_put_decimal_ull_width(m, " ", uid, 5);
	if (timeout >= 0)
		seq_put_decimal_ull_width(m, " ", (unsigned int)timeout, 8);
	else
		seq_printf(m, " %8d", timeout);
	seq_put_decimal_ull(m, " ", inode);
	seq_put_decimal_ll(m, " ", ref);
	seq_putc(m, ' ');
}
