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
#include <string.h>

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
	size_t len;

	if (s == c->mach->sys.slabs) {
		seq_puts(m, "slabinfo - version: 2.1\n");
		seq_puts(m, "# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab>");
		seq_puts(m, " : tunables <limit> <batchcount> <sharedfactor>");
		seq_puts(m, " : slabdata <active_slabs> <num_slabs> <sharedavail>");
		seq_putc(m, '\n');
	}
	/* cache_show's "%-17s %6lu %6lu %6u %4u %4d", tunables and slabdata, with putters */
	len = strlen(s->name);
	seq_write(m, s->name, len);
	if (len < 17)
		seq_write(m, "                 ", 17 - len);
	seq_put_decimal_ull_width(m, " ", s->active_objs, 6);
	seq_put_decimal_ull_width(m, " ", s->num_objs, 6);
	seq_put_decimal_ull_width(m, " ", s->size, 6);
	seq_put_decimal_ull_width(m, " ", s->objs_per_slab, 4);
	seq_put_decimal_ull_width(m, " ", 1ull << s->order, 4);
	seq_puts(m, " : tunables    0    0    0 : slabdata");
	seq_put_decimal_ull_width(m, " ", s->nr_slabs, 6);
	seq_put_decimal_ull_width(m, " ", s->nr_slabs, 6);
	seq_puts(m, "      0\n");
	return 0;
}

const struct seq_operations pfs_slabinfo_ops = {
	.start = slab_start,
	.next = slab_next,
	.stop = pfs_seq_stop_nothing,
	.show = slab_show,
};
