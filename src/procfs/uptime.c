// SPDX-License-Identifier: MIT
/*
 * uptime.c - /proc/uptime.
 *
 * Mirrors fs/proc/uptime.c uptime_proc_show of Linux 6.18: seconds since boot
 * and the idle time summed over CPUs (so it can exceed the uptime on SMP),
 * each as "%lu.%02lu" with the hundredths truncated.
 */
#include "render.h"

static void show_seconds(struct seq_file *m, const char *delim, uint64_t ns)
{
	uint64_t cs = (ns % 1000000000u) / 10000000u;

	seq_put_decimal_ull(m, delim, ns / 1000000000u);
	seq_put_decimal_ull(m, cs < 10 ? ".0" : ".", cs);
}

int pfs_show_uptime(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	show_seconds(m, NULL, c->mach->uptime_ns);
	show_seconds(m, " ", c->mach->idle_ns);
	seq_putc(m, '\n');
	return 0;
}
