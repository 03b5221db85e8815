// SPDX-License-Identifier: MIT
/*
 * registries.c - what the kernel has registered: /proc/cgroups, /proc/devices
 * and /proc/misc.
 *
 * cgroups mirrors kernel/cgroup/cgroup-v1.c proc_cgroupstats_show of Linux
 * 6.18: a header, then "%s\t%d\t%d\t%d\n" per controller with a v1 interface,
 * in subsystem-id order.  devices mirrors fs/proc/devices.c devinfo_start/
 * next/show: one record per possible major, 512 char majors then 512 block
 * majors, each printing its regions as "%3d %s\n" (chrdev_show, blkdev_show),
 * the sections opened by the records of major 0; the records of majors with
 * no region are passed over, which prints the same.  misc mirrors
 * drivers/char/misc.c misc_seq_show: "%3i %s\n" in the misc list's order.
 */
#include "render.h"

#define CHRDEV_MAJOR_MAX 512
#define BLKDEV_MAJOR_MAX 512

int pfs_show_cgroups(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_sys *s = &c->mach->sys;

	(void)v;
	seq_puts(m, "#subsys_name\thierarchy\tnum_cgroups\tenabled\n");
	for (size_t i = 0; i < s->ncgroup_subsys; i++) {
		const struct mach_cgroup_subsys *ss = &s->cgroup_subsys[i];

		seq_printf(m, "%s\t%d\t%d\t%d\n", ss->name, ss->hierarchy, ss->num_cgroups, (int)ss->enabled);
	}
	return 0;
}

/* The first region of @major in @list (sorted by major), or @n. */
static size_t major_first(const struct mach_devmajor *list, size_t n, unsigned int major)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (list[mid].major < major)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The record after @i that prints anything: the next major with regions, or the block section's first. */
static loff_t devinfo_after(const struct mach_sys *s, loff_t i)
{
	size_t k;

	if (i + 1 < CHRDEV_MAJOR_MAX) {
		k = major_first(s->chrdevs, s->nchrdevs, (unsigned int)(i + 1));
		return k < s->nchrdevs && s->chrdevs[k].major < CHRDEV_MAJOR_MAX ? s->chrdevs[k].major : CHRDEV_MAJOR_MAX;
	}
	k = major_first(s->blkdevs, s->nblkdevs, (unsigned int)(i + 1 - CHRDEV_MAJOR_MAX));
	return k < s->nblkdevs && s->blkdevs[k].major < BLKDEV_MAJOR_MAX ? CHRDEV_MAJOR_MAX + s->blkdevs[k].major
									   : CHRDEV_MAJOR_MAX + BLKDEV_MAJOR_MAX;
}

static void *devinfo_start(struct seq_file *m, loff_t *pos)
{
	(void)m;
	return *pos >= 0 && *pos < CHRDEV_MAJOR_MAX + BLKDEV_MAJOR_MAX ? pos : NULL;
}

/* The next record; records that print nothing are passed over (the bytes are the same). */
static void *devinfo_next(struct seq_file *m, void *v, loff_t *pos)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	*pos = devinfo_after(&c->mach->sys, *pos);
	return *pos < CHRDEV_MAJOR_MAX + BLKDEV_MAJOR_MAX ? pos : NULL;
}

/* Every region of @major in @list (sorted by major): "%3d %s\n" each. */
static void major_show(struct seq_file *m, const struct mach_devmajor *list, size_t n, unsigned int major)
{
	for (size_t k = major_first(list, n, major); k < n && list[k].major == major; k++) {
		seq_put_decimal_ull_width(m, NULL, major, 3);
		seq_putc(m, ' ');
		seq_puts(m, list[k].name);
		seq_putc(m, '\n');
	}
}

static int devinfo_show(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_sys *s = &c->mach->sys;
	loff_t i = *(const loff_t *)v;

	if (i < CHRDEV_MAJOR_MAX) {
		if (i == 0)
			seq_puts(m, "Character devices:\n");
		major_show(m, s->chrdevs, s->nchrdevs, (unsigned int)i);
	} else {
		i -= CHRDEV_MAJOR_MAX;
		if (i == 0)
			seq_puts(m, "\nBlock devices:\n");
		major_show(m, s->blkdevs, s->nblkdevs, (unsigned int)i);
	}
	return 0;
}

const struct seq_operations pfs_devices_ops = {
	.start = devinfo_start,
	.next = devinfo_next,
	.stop = pfs_seq_stop_nothing,
	.show = devinfo_show,
};

static void *misc_seq_start(struct seq_file *m, loff_t *pos)
{
	const struct pfs_ctx *c = m->private;

	if (*pos < 0 || (size_t)*pos >= c->mach->sys.nmisc)
		return NULL;
	return (void *)&c->mach->sys.misc[*pos];
}

static void *misc_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return misc_seq_start(m, pos);
}

static int misc_seq_show(struct seq_file *m, void *v)
{
	const struct mach_miscdev *d = v;

	seq_put_decimal_ull_width(m, NULL, d->minor, 3);
	seq_putc(m, ' ');
	seq_puts(m, d->name);
	seq_putc(m, '\n');
	return 0;
}

const struct seq_operations pfs_misc_ops = {
	.start = misc_seq_start,
	.next = misc_seq_next,
	.stop = pfs_seq_stop_nothing,
	.show = misc_seq_show,
};
