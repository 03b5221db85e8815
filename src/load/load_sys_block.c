// SPDX-License-Identifier: MIT
/*
 * load_sys_block.c - the block devices' files of /sys: where each disk
 * sits (the links of /sys/block, /sys/class/block, /sys/dev/block, and
 * the paths of its files under /sys/devices), its holders and slaves,
 * and which device a file of a disk's directory belongs to.
 *
 * The devices themselves come from /proc/diskstats and /proc/partitions,
 * read before in the same machine: a file of a device they do not list is
 * an error.  A disk's directory is learned from the first file that shows
 * it, a link or a path that passes through a directory named after the
 * disk; every later one must agree.  Its kind follows from its name, as
 * the drivers name their disks.  The attributes are load_sys_blkattr.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_sys.h"
#include "load_sys_blk.h"

#define DIR_MAX 1024

/* The device named @name[0..len) (a disk when @disk), or -1. */
static int named(const struct mach_sys *s, const char *name, size_t len, bool disk)
{
	for (size_t i = 0; i < s->nblk; i++)
		if (strlen(s->blk[i].name) == len && !memcmp(s->blk[i].name, name, len) && (!disk || !s->blk[i].partno))
			return (int)i;
	return -1;
}

struct mach_blk_sysfs *ld_blk_sysfs(struct mach_blkdev *b)
{
	if (!b->sysfs && (b->sysfs = calloc(1, sizeof(*b->sysfs))))
		b->sysfs->events_poll_msecs = -1;
	return b->sysfs;
}

/* The driver of a disk called @name: each names its disks its own way. */
static enum mach_blk_kind kind_of(const char *name)
{
	static const struct {
		const char *prefix;
		enum mach_blk_kind kind;
	} kinds[] = {
		{ "vd", MACH_BLK_VIRTIO }, { "nvme", MACH_BLK_NVME }, { "sd", MACH_BLK_SCSI },
		{ "dm-", MACH_BLK_DM }, { "loop", MACH_BLK_LOOP }, { "zram", MACH_BLK_ZRAM },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strncmp(name, kinds[i].prefix, strlen(kinds[i].prefix)))
			return kinds[i].kind;
	return MACH_BLK_OTHER;
}

/* Disk @d sits at @dir[0..len) under /sys/devices: learned, or checked against what was. */
static int place(struct lex *lx, struct mach_sys *s, int d, const char *dir, size_t len)
{
	struct mach_blkdev *b = &s->blk[d];
	struct mach_blk_sysfs *f = ld_blk_sysfs(b);

	if (!f)
		return -ENOMEM;
	if (f->dir) {
		if (strlen(f->dir) != len || memcmp(f->dir, dir, len))
			return lex_fail(lx, "%s is under /sys/devices/%s, not /sys/devices/%.*s", b->name, f->dir,
					(int)len, dir);
		return 0;
	}
	if (!(f->dir = strndup(dir, len)))
		return -ENOMEM;
	if (b->kind == MACH_BLK_OTHER)
		b->kind = kind_of(b->name);
	return 0;
}

/* A link's target as a path below /sys, which must be under /sys/devices: what follows "devices/". */
static int link_dir(struct lex *lx, const char *path, char *abs, size_t size, const char **dir)
{
	char target[DIR_MAX];
	size_t n = (size_t)(lx->end - lx->p);

	if (!n || n >= sizeof(target) || memchr(lx->p, '\n', n))
		return lex_expected(lx, "a link target");
	memcpy(target, lx->p, n);
	target[n] = '\0';
	if (ld_sys_link_target(path, target, abs, size) || !(*dir = ld_sys_after(abs, "devices/")))
		return lex_fail(lx, "the link %s leads to %s, not under /sys/devices", path, target);
	lx->p = lx->end;
	return 0;
}

/* block/NAME, class/block/NAME, dev/block/MAJ:MIN: a device's directory. */
static int class_link(struct lex *lx, struct mach_sys *s, const char *path, const char *name, bool by_devt)
{
	char abs[DIR_MAX];
	const char *dir, *last;
	int rc = link_dir(lx, path, abs, sizeof(abs), &dir), i = -1;
	unsigned int major, minor;

	if (rc)
		return rc;
	last = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	if (by_devt) {
		for (size_t k = 0; k < s->nblk && sscanf(name, "%u:%u", &major, &minor) == 2; k++)
			if (s->blk[k].major == major && s->blk[k].minor == minor)
				i = (int)k;
	} else {
		i = named(s, name, strlen(name), false);
	}
	if (i < 0 || strcmp(s->blk[i].name, last))
		return lex_fail(lx, "%s: no device of /proc/diskstats is %s there", path, last);
	if (!s->blk[i].partno)
		return place(lx, s, i, dir, strlen(dir));
	/* a partition's directory is in its disk's */
	if (last - dir < 2 || strncmp(last - 1 - strlen(s->blk[s->blk[i].disk].name), s->blk[s->blk[i].disk].name,
				       strlen(s->blk[s->blk[i].disk].name)))
		return lex_fail(lx, "%s: partition %s is not in its disk's directory", path, last);
	return place(lx, s, (int)s->blk[i].disk, dir, (size_t)(last - 1 - dir));
}

/* The disk whose directory @rel (below /sys/devices) is in: known, or named by a component. */
static int owner(struct lex *lx, struct mach_sys *s, const char *rel, const char **rest)
{
	const char *p = rel;

	for (size_t d = 0; d < s->nblk; d++) {
		const char *dir = !s->blk[d].partno && s->blk[d].sysfs ? s->blk[d].sysfs->dir : NULL;
		size_t n = dir ? strlen(dir) : 0;

		if (n && !strncmp(rel, dir, n) && rel[n] == '/') {
			*rest = rel + n + 1;
			return (int)d;
		}
	}
	/* the first component past the top that names a disk is its directory */
	while ((p = strchr(p, '/'))) {
		const char *c = ++p, *end = strchr(c, '/');
		int d;

		if (!end)
			break;
		d = named(s, c, (size_t)(end - c), true);
		if (d >= 0) {
			int rc = place(lx, s, d, rel, (size_t)(end - rel));

			*rest = end + 1;
			return rc ? rc : d;
		}
	}
	return -ENOENT;
}

/* The disk whose parent device's directory is @dir[0..len), or -1. */
static int parent_of(const struct mach_sys *s, const char *dir, size_t len)
{
	for (size_t d = 0; d < s->nblk; d++) {
		const char *own = !s->blk[d].partno && s->blk[d].sysfs ? s->blk[d].sysfs->dir : NULL;

		if (own && mach_blk_has_device(own) && mach_blk_parent_len(own) == len && !memcmp(own, dir, len))
			return (int)d;
	}
	return -1;
}

/* holders/NAME or slaves/NAME of device @i: the device-mapper device and the one under it. */
static int holder_link(struct lex *lx, struct mach_sys *s, const char *path, int i, const char *name, bool slave)
{
	char abs[DIR_MAX];
	const char *dir;
	int rc = link_dir(lx, path, abs, sizeof(abs), &dir), o;

	if (rc)
		return rc;
	o = named(s, name, strlen(name), false);
	if (o < 0)
		return lex_fail(lx, "%s: no device %s in /proc/diskstats", path, name);
	if (!s->blk[o].partno && (rc = place(lx, s, o, dir, strlen(dir))))
		return rc;
	/* the model keeps one device under each holder */
	if (slave)
		s->blk[i].slave = o;
	else
		s->blk[o].slave = i;
	return 0;
}

/* A file under /sys/devices: a disk's, a partition's, or the device's a disk sits on. */
static int devices_file(struct lex *lx, struct mach_loader *ld, const char *path, const char *rel)
{
	struct mach_sys *s = &ld->m->sys;
	const char *rest = NULL, *slash;
	int d = owner(lx, s, rel, &rest), i;
	struct ld_sys *st = ld_sys_of(ld);

	if (d == -ENOENT) {
		const char *base = strrchr(rel, '/');

		if (!base || !ld_blk_hw_name(base + 1)) {
			snprintf(lx->err, lx->errlen, "%s: not a file of the block devices", path);
			return -ENOENT;
		}
		d = parent_of(s, rel, (size_t)(base - rel));
		if (d >= 0)
			return ld_blk_hw(lx, &s->blk[d], base + 1);
		if (st && !st->final)
			return ld_sys_defer(ld, &(struct mach_ld_sys_file){ .kind = MACH_LD_SYS_BLOCK }, path, lx->p,
					    (size_t)(lx->end - lx->p));
		return lex_fail(lx, "%s: no block device of /proc/diskstats is in or under this directory", path);
	}
	if (d < 0)
		return d;
	i = d;
	slash = strchr(rest, '/');
	if (slash) {
		int p = named(s, rest, (size_t)(slash - rest), false);

		if (p >= 0 && s->blk[p].partno && (int)s->blk[p].disk == d) {
			i = p;
			rest = slash + 1;
		}
	}
	if ((slash = ld_sys_after(rest, "holders/")))
		return holder_link(lx, s, path, i, slash, false);
	if ((slash = ld_sys_after(rest, "slaves/")))
		return holder_link(lx, s, path, i, slash, true);
	if (!ld_blk_sysfs(&s->blk[i]))
		return -ENOMEM;
	return ld_blk_attr(lx, ld, i, rest, path);
}

int ld_parse_sys_block(struct lex *lx, struct mach_loader *ld, const char *path)
{
	struct mach_sys *s = &ld->m->sys;
	const char *rel = ld_sys_after(path, "/sys/") ? path + 5 : path, *rest;

	if (!s->nblk)
		return lex_fail(lx, "%s: the machine knows no block devices (load /proc/diskstats first)", path);
	if ((rest = ld_sys_after(rel, "block/")))
		return class_link(lx, s, rel, rest, false);
	if ((rest = ld_sys_after(rel, "class/block/")))
		return class_link(lx, s, rel, rest, false);
	if ((rest = ld_sys_after(rel, "dev/block/")))
		return class_link(lx, s, rel, rest, true);
	if ((rest = ld_sys_after(rel, "devices/"))) {
		int rc = devices_file(lx, ld, rel, rest);

		if (rc == -ENOENT)
			snprintf(lx->err, lx->errlen, "%s: not a file of the block devices the loader parses", path);
		return rc;
	}
	snprintf(lx->err, lx->errlen, "%s: not a file of the block devices", path);
	return -ENOENT;
}
