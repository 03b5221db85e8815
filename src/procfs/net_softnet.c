// SPDX-License-Identifier: MIT
/*
 * net_softnet.c - /proc/net/softnet_stat: one line per online CPU.
 *
 * Mirrors net/core/net-procfs.c softnet_seq_start/next/show (Linux 6.18):
 * fifteen "%08x" columns, the historic fastroute and cpu_collision ones
 * always 0, the 13th the CPU's number (offline CPUs have no line).  No
 * header.
 */
#include "net_int.h"

static void *softnet_seq_start(struct seq_file *m, loff_t *pos)
{
	const struct mach_net *n = pfs_net(m->private);

	return *pos >= 0 && (uint64_t)*pos < n->nsoftnet ? &n->softnet[*pos] : NULL;
}

static void *softnet_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return softnet_seq_start(m, pos);
}

static int softnet_seq_show(struct seq_file *m, void *v)
{
	const struct mach_softnet *sd = v;

	seq_put_hex_ll(m, NULL, sd->processed, 8);
	seq_put_hex_ll(m, " ", sd->dropped, 8);
	seq_put_hex_ll(m, " ", sd->time_squeeze, 8);
	for (int i = 0; i < 6; i++)
		seq_puts(m, " 00000000"); /* was fastroute, was cpu_collision */
	seq_put_hex_ll(m, " ", sd->received_rps, 8);
	seq_put_hex_ll(m, " ", sd->flow_limit_count, 8);
	seq_put_hex_ll(m, " ", (uint32_t)(sd->input_qlen + sd->process_qlen), 8);
	seq_put_hex_ll(m, " ", sd->cpu, 8);
	seq_put_hex_ll(m, " ", sd->input_qlen, 8);
	seq_put_hex_ll(m, " ", sd->process_qlen, 8);
	seq_putc(m, '\n');
	return 0;
}

const struct seq_operations pfs_net_softnet_ops = {
	.start = softnet_seq_start,
	.next = softnet_seq_next,
	.stop = pfs_seq_stop_nothing,
	.show = softnet_seq_show,
};
