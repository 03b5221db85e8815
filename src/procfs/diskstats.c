// SPDX-License-Identifier: MIT
/*
 * diskstats.c - /proc/diskstats.
 *
 * Mirrors block/genhd.c diskstats_show of Linux 6.18 over disk_seqf_start/
 * next: one record per disk, in block-class registration order, holding a
 * line for the disk and one for each partition with sectors.  Disks without
 * a medium (unbound loop devices) are listed too.  Each line is major (width
 * 4), minor (width 7), the name and 17 counters; the times are nanosecond
 * sums cut to 32-bit milliseconds, io_ticks jiffies in milliseconds, and
 * field 14 the four groups' time together, divided once.
 */
#include "render.h"

/* The whole disk at or after index @i of the device list, or NULL. */
static const struct mach_blkdev *disk_at_or_after(const struct mach_sys *s, size_t i)
{
	for (; i < s->nblk; i++)
		if (s->blk[i].partno == 0)
			return &s->blk[i];
	return NULL;
}

void *pfs_disk_seqf_start(struct seq_file *m, loff_t *pos)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_sys *s = &c->mach->sys;
	const struct mach_blkdev *d = disk_at_or_after(s, 0);

	for (loff_t skip = *pos; d && skip > 0; skip--)
		d = disk_at_or_after(s, (size_t)(d - s->blk) + 1);
	return *pos < 0 ? NULL : (void *)d;
}

void *pfs_disk_seqf_next(struct seq_file *m, void *v, loff_t *pos)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_blkdev *d = v;

	++*pos;
	return (void *)disk_at_or_after(&c->mach->sys, (size_t)(d - c->mach->sys.blk) + 1);
}

/* (unsigned int)div_u64(ns, NSEC_PER_MSEC) */
static unsigned int ms32(uint64_t ns)
{
	return (unsigned int)(ns / 1000000u);
}

/* jiffies_to_msecs, which returns an unsigned int */
static unsigned int jiffies_to_msecs(uint64_t j, unsigned int hz)
{
	return (unsigned int)(j * 1000u / (hz ? hz : 250u));
}

static void diskstats_line(struct seq_file *m, const struct mach_blkdev *b, unsigned int hz)
{
	const struct mach_blk_stats *st = &b->st;
	int g;

	seq_put_decimal_ull_width(m, "", b->major, 4);
	seq_put_decimal_ull_width(m, " ", b->minor, 7);
	seq_putc(m, ' ');
	seq_puts(m, b->name);
	for (g = MACH_BLK_READ; g <= MACH_BLK_WRITE; g++) {
		seq_put_decimal_ull(m, " ", st->ios[g]);
		seq_put_decimal_ull(m, " ", st->merges[g]);
		seq_put_decimal_ull(m, " ", st->sectors[g]);
		seq_put_decimal_ull(m, " ", ms32(st->nsecs[g]));
	}
	seq_put_decimal_ull(m, " ", (unsigned int)(st->in_flight[0] + st->in_flight[1]));
	seq_put_decimal_ull(m, " ", jiffies_to_msecs(st->io_ticks, hz));
	seq_put_decimal_ull(m, " ", ms32(st->nsecs[MACH_BLK_READ] + st->nsecs[MACH_BLK_WRITE] +
					 st->nsecs[MACH_BLK_DISCARD] + st->nsecs[MACH_BLK_FLUSH]));
	seq_put_decimal_ull(m, " ", st->ios[MACH_BLK_DISCARD]);
	seq_put_decimal_ull(m, " ", st->merges[MACH_BLK_DISCARD]);
	seq_put_decimal_ull(m, " ", st->sectors[MACH_BLK_DISCARD]);
	seq_put_decimal_ull(m, " ", ms32(st->nsecs[MACH_BLK_DISCARD]));
	seq_put_decimal_ull(m, " ", st->ios[MACH_BLK_FLUSH]);
	seq_put_decimal_ull(m, " ", ms32(st->nsecs[MACH_BLK_FLUSH]));
	seq_putc(m, '\n');
}

static int diskstats_show(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_sys *s = &c->mach->sys;
	const struct mach_blkdev *d = v, *end = s->blk + s->nblk;

	diskstats_line(m, d, c->mach->profile.sys.hz);
	for (const struct mach_blkdev *p = d + 1; p < end && p->partno; p++)
		if (p->nr_sects)
			diskstats_line(m, p, c->mach->profile.sys.hz);
	return 0;
}

const struct seq_operations pfs_diskstats_ops = {
	.start = pfs_disk_seqf_start,
	.next = pfs_disk_seqf_next,
	.stop = pfs_seq_stop_nothing,
	.show = diskstats_show,
};
