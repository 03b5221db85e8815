// SPDX-License-Identifier: MIT
/*
 * partitions.c - /proc/partitions.
 *
 * Mirrors block/genhd.c show_partition_start and show_partition of Linux
 * 6.18: the header is printed by start at position 0 when a disk exists,
 * then each disk with a capacity that is not hidden gives a line for itself
 * and for each partition with sectors: "%4d  %7d %10llu %pg", the size in
 * 1 KiB blocks.
 */
#include "render.h"

static void *show_partition_start(struct seq_file *m, loff_t *pos)
{
	void *p = pfs_disk_seqf_start(m, pos);

	if (p && !*pos)
		seq_puts(m, "major minor  #blocks  name\n\n");
	return p;
}

static int show_partition(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_sys *s = &c->mach->sys;
	const struct mach_blkdev *d = v, *end = s->blk + s->nblk;

	if (!d->nr_sects || d->hidden)
		return 0;
	for (const struct mach_blkdev *p = d; p < end && (p == d || p->partno); p++) {
		if (!p->nr_sects)
			continue;
		seq_put_decimal_ull_width(m, "", p->major, 4);
		seq_put_decimal_ull_width(m, "  ", p->minor, 7);
		seq_put_decimal_ull_width(m, " ", p->nr_sects >> 1, 10);
		seq_putc(m, ' ');
		seq_puts(m, p->name);
		seq_putc(m, '\n');
	}
	return 0;
}

const struct seq_operations pfs_partitions_ops = {
	.start = show_partition_start,
	.next = pfs_disk_seqf_next,
	.stop = pfs_seq_stop_nothing,
	.show = show_partition,
};
