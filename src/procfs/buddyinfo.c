// SPDX-License-Identifier: MIT
/*
 * buddyinfo.c - /proc/buddyinfo.
 *
 * Mirrors mm/vmstat.c frag_show and frag_show_print of Linux 6.18: one
 * record per online node, a line per populated zone with the free block
 * count of every order, each "%6lu " (so the line ends in a space).
 */
#include "render.h"

static int frag_show(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_mem_node *n = v;

	for (unsigned int i = 0; i < c->mach->profile.sys.nzone_types; i++) {
		const struct mach_zone *z = &n->zones[i];

		if (!mach_zone_populated(z))
			continue;
		seq_printf(m, "Node %d, zone %8s ", (int)n->id, mach_zone_name((enum mach_zone_type)i));
		for (int o = 0; o < MACH_NR_PAGE_ORDERS; o++)
			seq_printf(m, "%6llu ", (unsigned long long)z->free_area[o]);
		seq_putc(m, '\n');
	}
	return 0;
}

const struct seq_operations pfs_buddyinfo_ops = {
	.start = pfs_pgdat_start,
	.next = pfs_pgdat_next,
	.stop = pfs_seq_stop_nothing,
	.show = frag_show,
};
