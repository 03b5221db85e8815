// SPDX-License-Identifier: MIT
/*
 * sys_block_queue.c - a disk's queue/ directory (block/blk-sysfs.c
 * queue_attrs and blk_mq_queue_attrs of Linux 6.18; elv_iosched_show of
 * block/elevator.c).
 *
 * The numbers print as their shows print them, "%u\n" or "%lu\n" (one
 * signed: io_poll_delay, -1 for classic polling).  scheduler lists "none"
 * and then the registered elevators, each followed by a space, the chosen
 * one in brackets: the line ends in " \n".
 */
#include "render.h"
#include "uprocfs/pfs_sysobj.h"

static const struct mach_blk_sysfs *queue(const struct pfs_ctx *c)
{
	return c->mach->sys.blk[pfs_obj_blk(c->mach, c->inst)].sysfs;
}

int pfs_show_blkq(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	uint64_t x = queue(c)->q[c->arg];

	(void)v;
	if (c->arg == MACH_BLKQ_IO_POLL_DELAY)
		seq_put_decimal_ll(m, "", (int64_t)x);
	else
		seq_put_decimal_ull(m, "", x);
	seq_putc(m, '\n');
	return 0;
}

int pfs_show_blkq_scheduler(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_sysfs *s = &c->mach->sysfs;
	unsigned int cur = queue(c)->elevator;

	(void)v;
	seq_puts(m, cur ? "none " : "[none] ");
	for (unsigned int i = 0; i < s->nelevators; i++) {
		if (cur == i + 1)
			seq_putc(m, '[');
		seq_puts(m, s->elevators[i]);
		seq_puts(m, cur == i + 1 ? "] " : " ");
	}
	seq_putc(m, '\n');
	return 0;
}

int pfs_show_blkq_write_cache(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_puts(m, queue(c)->write_back ? "write back\n" : "write through\n");
	return 0;
}

int pfs_show_blkq_zoned(struct seq_file *m, void *v)
{
	static const char *const names[] = { "none\n", "host-aware\n", "host-managed\n" };
	const struct pfs_ctx *c = m->private;
	unsigned int z = queue(c)->zoned;

	(void)v;
	seq_puts(m, names[z < 3 ? z : 0]);
	return 0;
}
