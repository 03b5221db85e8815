// SPDX-License-Identifier: MIT
/*
 * slabinfo.c - /proc/slabinfo (mode 0400).
 *
 * Mirrors mm/slab_common.c slab_start/next and slab_show of Linux 6.18 with
 * SLUB: the first record prints the version 2.1 header, then each cache in
 * slab_caches order is cache_show's "%-17s %6lu %6lu %6u %4u %4d", tunables
 * that SLUB leaves at zero, and slabdata whose active and total slab counts
 * are both nr_slabs, with no shared objects.
 */
#include "render.h"

static void *slab_start(struct seq_file *m, loff_t *pos)
{
	const struct pfs_ctx *c = m->private;

	if (*pos < 0 || (size_t)*pos >= c->mach->sys.nslabs)
		return NULL;
	return (void *)&c->mach->sys.slabs[*pos];
}

static void *slab_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return slab_start(m, pos);
}

static int slab_show(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_slab_cache *s = v;

	if (s == c->mach->sys.slabs) {
		seq_puts(m, "slabinfo - version: 2.1\n");
		seq_puts(m, "# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab>");
		seq_puts(m, " : tunables <limit> <batchcount> <sharedfactor>");
		seq_puts(m, " : slabdata <active_slabs> <num_slabs> <sharedavail>");
		seq_putc(m, '\n');
	}
	seq_printf(m, "%-17s %6llu %6llu %6u %4u %4d", s->name, (unsigned long long)s->active_objs,
		   (unsigned long long)s->num_objs, s->size, s->objs_per_slab, 1 << s->order);
	seq_printf(m, " : tunables %4u %4u %4u", 0u, 0u, 0u);
	seq_printf(m, " : slabdata %6llu %6llu %6llu", (unsigned long long)s->nr_slabs,
		   (unsigned long long)s->nr_slabs, 0ull);
	seq_putc(m, '\n');
	return 0;
}

const struct seq_operations pfs_slabinfo_ops = {
	.start = slab_start,
	.next = slab_next,
	.stop = pfs_seq_stop_nothing,
	.show = slab_show,
};
