// SPDX-License-Identifier: MIT
/*
 * load_diskstats.c - parse /proc/diskstats and /proc/partitions (block/
 * genhd.c diskstats_show, show_partition; Linux 6.18) into the block
 * devices of the model.
 *
 * diskstats names every device and its counters, partitions the sizes of
 * those with a capacity.  A partition follows its disk and is named after it
 * (a "p" between when the disk's name ends in a digit): that is how a line
 * is told to be a partition.  Sizes come in 1 KiB blocks, so a loaded size
 * is even in sectors; a device diskstats lists but partitions does not has
 * no medium (its size is 0) or is hidden, which prints the same.  A
 * partition of such a disk has sectors (diskstats lists only those), but
 * no file says how many.
 *
 * Times print as 32-bit milliseconds cut from nanosecond sums, and field 14
 * divides the four groups' sum once: it may exceed the sum of the printed
 * times by up to 3, which says how much the groups' sub-millisecond parts
 * add to.  The loader gives the groups such parts.  io_ticks are jiffies
 * printed in milliseconds, so they must be whole jiffies of the profile's HZ.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"

#define NS_PER_MS 1000000u

/* Is @name partition @partno-to-be of disk @disk: "sda" "sda1", "nvme0n1" "nvme0n1p1"? */
static bool part_of(const char *disk, const char *name, unsigned int *partno)
{
	size_t dl = strlen(disk);
	const char *p = name + dl;
	unsigned long v = 0;

	if (strncmp(disk, name, dl) || !dl)
		return false;
	if (disk[dl - 1] >= '0' && disk[dl - 1] <= '9' && *p++ != 'p')
		return false;
	if (*p < '1' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((v = v * 10 + (unsigned long)(*p - '0')) > 65535)
			return false;
	*partno = (unsigned int)v;
	return !*p;
}

/* Place @b in @list after the devices before it: a disk, or a partition of the last disk (its size kept). */
static void place(struct mach_blkdev *list, size_t n, struct mach_blkdev *b)
{
	size_t disk = n;

	for (size_t i = n; i-- > 0;)
		if (!list[i].partno) {
			disk = i;
			break;
		}
	b->partno = 0;
	b->disk = (unsigned int)n;
	if (disk < n && part_of(list[disk].name, b->name, &b->partno))
		b->disk = (unsigned int)disk;
	b->slave = -1;
	b->kind = MACH_BLK_OTHER;
}

/* "   7       0 loop0": major, minor and name. */
static int dev_head(struct lex *lx, struct mach_blkdev *b, const char *minor_sep)
{
	uint64_t major, minor;
	int rc;

	lex_ctx(lx, "the device number");
	/* "%4d %7d %pg" */
	if ((rc = lex_u64_width_max(lx, &major, 4, 4095)) || (rc = lex_expect(lx, minor_sep)) ||
	    (rc = lex_u64_width_max(lx, &minor, 7, (1u << 20) - 1)) || (rc = lex_expect(lx, " ")))
		return rc;
	b->major = (uint32_t)major;
	b->minor = (uint32_t)minor;
	return ld_word(lx, b->name, sizeof(b->name), "a device name");
}

/* The sub-millisecond parts that make field 14 (@total) of the printed times. */
static int spread_remainders(struct lex *lx, struct mach_blk_stats *st, uint32_t total)
{
	uint32_t sum = 0, extra;

	for (int g = 0; g < MACH_NR_BLK_GROUPS; g++)
		sum += (uint32_t)(st->nsecs[g] / NS_PER_MS);
	extra = total - sum; /* both sides are cut to 32 bits */
	if (extra > MACH_NR_BLK_GROUPS - 1)
		return lex_fail(lx, "field 14 (time in queue) %u is not the sum of the four times (%u) "
			        "plus at most 3", total, sum);
	for (uint32_t g = 0; g < extra; g++)
		st->nsecs[g] += NS_PER_MS - 1;
	if (extra)
		st->nsecs[extra] += extra;
	return 0;
}

/* The 17 counters after the name. */
static int dev_counters(struct lex *lx, struct mach_blk_stats *st, unsigned int hz)
{
	static const signed char order[17] = {
		/* 0-3: ios, merges, sectors, ms of a group; -1 in flight, -2 io_ticks, -3 time in queue */
		10, 20, 30, 40, 11, 21, 31, 41, -1, -2, -3, 12, 22, 32, 42, 13, 43,
	};
	uint64_t v, total = 0;
	int rc;

	memset(st, 0, sizeof(*st));
	for (int f = 0; f < 17; f++) {
		int what = order[f], g = what % 10, kind = what / 10;
		bool u32 = kind == 4 || what < 0;

		lex_field(lx, f + 4, NULL);
		if ((rc = lex_expect(lx, " ")) || (rc = lex_u64_max(lx, &v, u32 ? UINT32_MAX : UINT64_MAX)))
			return rc;
		if (what == -1) {
			st->in_flight[0] = (unsigned int)v;
		} else if (what == -2) {
			st->io_ticks = v * hz / 1000;
			if ((uint32_t)(st->io_ticks * 1000 / hz) != v)
				return lex_fail(lx, "io_ticks %llu ms is not a whole number of jiffies at HZ=%u",
						(unsigned long long)v, hz);
		} else if (what == -3) {
			total = v;
		} else {
			uint64_t *slot[] = { st->ios, st->merges, st->sectors, st->nsecs };

			slot[kind - 1][g] = kind == 4 ? v * NS_PER_MS : v;
		}
	}
	return spread_remainders(lx, st, (uint32_t)total);
}

/*
 * Keep what the model knew of a device that diskstats does not say (its
 * size, kind, names, what sysfs said of it): moved from @old, whose list
 * is freed next.
 */
static void carry_over(struct mach_sys *old, struct mach_blkdev *b)
{
	for (size_t i = 0; i < old->nblk; i++) {
		struct mach_blkdev *o = &old->blk[i];

		if (strcmp(o->name, b->name) || o->major != b->major || o->minor != b->minor)
			continue;
		b->nr_sects = o->nr_sects;
		b->start_sect = o->start_sect;
		b->hidden = o->hidden;
		b->kind = o->kind;
		memcpy(b->dm_name, o->dm_name, sizeof(b->dm_name));
		/* sysfs said these; the list keeps its order, so indices stay */
		b->slave = o->slave;
		b->backing_file = o->backing_file;
		b->sysfs = o->sysfs;
		o->backing_file = NULL;
		o->sysfs = NULL;
		return;
	}
}

/* One line of partitions into @b (name, device, size). */
static int partition_line(struct lex *lx, struct mach_blkdev *b)
{
	uint64_t major, minor, kb;
	int rc;

	lex_ctx(lx, "the device number");
	/* "%4d  %7d %10llu %pg" */
	if ((rc = lex_u64_width_max(lx, &major, 4, 4095)) || (rc = lex_expect(lx, "  ")) ||
	    (rc = lex_u64_width_max(lx, &minor, 7, (1u << 20) - 1)) || (rc = lex_expect(lx, " ")))
		return rc;
	lex_ctx(lx, "#blocks");
	if ((rc = lex_u64_width_max(lx, &kb, 10, UINT64_MAX >> 1)) || (rc = lex_expect(lx, " ")) ||
	    (rc = ld_word(lx, b->name, sizeof(b->name), "a device name")) || (rc = lex_eol(lx)))
		return rc;
	b->major = (uint32_t)major;
	b->minor = (uint32_t)minor;
	/* only the odd sector is lost; a line of 0 blocks is a device of one sector */
	b->nr_sects = kb ? kb * 2 : 1;
	return 0;
}

/* One line of diskstats into @b: the device and its counters. */
static int diskstats_line(struct lex *lx, struct mach_blkdev *b, unsigned int hz)
{
	int rc = dev_head(lx, b, " ");

	if (!rc)
		rc = dev_counters(lx, &b->st, hz);
	return rc ? rc : lex_eol(lx);
}

/*
 * The devices of diskstats (@hz set) or partitions (@hz 0), each line by
 * its parser, placed under its disk; into s's list, replacing it.
 */
static int dev_lines(struct lex *lx, struct mach_sys *s, unsigned int hz, bool header)
{
	struct mach_blkdev *list = NULL, *b;
	size_t n = 0, cap = 0;
	int rc = 0;

	while (!lex_eof(lx) && !rc) {
		const char *line = lx->p;

		if (!(b = VEC_PUSH(list, n, cap))) {
			rc = -ENOMEM;
			break;
		}
		if ((rc = hz ? diskstats_line(lx, b, hz) : partition_line(lx, b)))
			break;
		for (size_t i = 0; i + 1 < n; i++)
			if (!strcmp(list[i].name, b->name))
				rc = lex_fail_at(lx, line, "device %s listed twice", b->name);
		place(list, n - 1, b);
		if (hz)
			carry_over(s, b);
	}
	if (!rc && header && !n)
		rc = lex_fail(lx, "a header without devices: the disks without a capacity are not known "
			      "without /proc/diskstats");
	if (rc) {
		free(list);
		return rc;
	}
	mach_sys_blk_clear(s);
	s->blk = list;
	s->nblk = n;
	return 0;
}

int ld_parse_diskstats(struct lex *lx, struct mach_loader *ld)
{
	unsigned int hz = ld->m->profile.sys.hz;
	struct mach_sys *s = &ld->m->sys;
	int rc = dev_lines(lx, s, hz ? hz : 250, false);

	/*
	 * diskstats lists a partition only when it has sectors: until
	 * /proc/partitions says how many (it may be absent or refused), one
	 * stands for them, or the partition would vanish from diskstats.
	 */
	for (size_t i = 0; !rc && i < s->nblk; i++)
		if (s->blk[i].partno && !s->blk[i].nr_sects)
			s->blk[i].nr_sects = 1;
	return rc;
}

/* Every line names the next device of diskstats' list that has a size; the others have none. */
static int sizes_onto(struct lex *lx, struct mach_sys *s)
{
	uint64_t *sects = calloc(s->nblk ? s->nblk : 1, sizeof(*sects));
	size_t at = 0;
	int rc = 0;

	if (!sects)
		return -ENOMEM;
	while (!lex_eof(lx) && !rc) {
		struct mach_blkdev b = { 0 };
		const char *line = lx->p;

		if ((rc = partition_line(lx, &b)))
			break;
		while (at < s->nblk && strcmp(s->blk[at].name, b.name))
			at++;
		if (at == s->nblk || s->blk[at].major != b.major || s->blk[at].minor != b.minor)
			rc = lex_fail_at(lx, line, "%s %u:%u is not the next device of /proc/diskstats with a size",
					 b.name, b.major, b.minor);
		else
			sects[at++] = b.nr_sects;
	}
	for (size_t i = 0; i < s->nblk && !rc; i++) {
		/* a partition has sectors (diskstats shows it): its disk must hide it here */
		if (s->blk[i].partno && !sects[i] && sects[s->blk[i].disk])
			rc = lex_fail(lx, "diskstats lists partition %s of a disk shown here, but not it",
				      s->blk[i].name);
		/*
		 * A disk losing its medium (del_gendisk, a loop device detached)
		 * has capacity 0 before its partitions go: they have sectors, how
		 * many no file says.  One stands for them.
		 */
		else if (s->blk[i].partno && !sects[i])
			sects[i] = 1;
	}
	for (size_t i = 0; i < s->nblk && !rc; i++)
		s->blk[i].nr_sects = sects[i];
	free(sects);
	return rc;
}

int ld_parse_partitions(struct lex *lx, struct mach_loader *ld)
{
	struct mach_sys *s = &ld->m->sys;
	bool header;

	lex_ctx(lx, NULL);
	header = lex_accept(lx, "major minor  #blocks  name\n\n");
	if (!header && !lex_eof(lx))
		return lex_expected(lx, "the header \"major minor  #blocks  name\"");
	if (!ld_loaded(ld, MACH_LD_DISKSTATS))
		return dev_lines(lx, s, 0, header); /* partitions alone: sizes and names only */
	if (header != (s->nblk > 0))
		return lex_fail(lx, header ? "a header, but /proc/diskstats lists no device"
				: "no header, but /proc/diskstats lists devices");
	return sizes_onto(lx, s);
}
