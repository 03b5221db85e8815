// SPDX-License-Identifier: MIT
/*
 * sys_coll.c - the collections of the /sys tree: the links of the block
 * classes, the directories of /sys/devices on the way to each disk, the
 * disks and partitions themselves, holders/ and slaves/, and the child
 * groups of a cgroupfs directory; and the path of any of their nodes.
 *
 * A device directory is named by the first disk (in the machine's order)
 * whose directory passes through it, and its depth: PFS_OBJ_DEVDIR's
 * index is (disk << 4) | depth, so nothing is stored for it.  Listing a
 * directory walks the disks in order, each giving the next component of
 * its path: a device directory (where it first appears) or the disk.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "table_sys.h"

/* ------------------------------------------------------------------ */
/* Paths of disks' directories                                          */

#define DIR_BUF 512 /* an object's directory below /sys/devices: a few device levels */

/* Disk @d's directory below /sys/devices, or NULL: not a disk, or not known. */
static const char *disk_dir(const struct mach_machine *m, size_t d)
{
	const struct mach_blkdev *b = d < m->sys.nblk ? &m->sys.blk[d] : NULL;

	return b && !b->partno && b->sysfs && b->sysfs->dir ? b->sysfs->dir : NULL;
}

/* Component @k of @dir (from 0): where it starts and its length; false past the last. */
static bool component(const char *dir, unsigned int k, const char **p, size_t *len)
{
	const char *s = dir;

	for (; k; k--) {
		s = strchr(s, '/');
		if (!s)
			return false;
		s++;
	}
	*p = s;
	*len = strchr(s, '/') ? (size_t)(strchr(s, '/') - s) : strlen(s);
	return true;
}

/* The length of @dir through component @k. */
static size_t through(const char *dir, unsigned int k)
{
	const char *p;
	size_t len;

	return component(dir, k, &p, &len) ? (size_t)(p - dir) + len : strlen(dir);
}

static unsigned int ncomponents(const char *dir)
{
	unsigned int n = 1;

	for (; *dir; dir++)
		n += *dir == '/';
	return n;
}

/*
 * The length of @dir through its component @k when a component follows
 * (the directory it names has something below it), else 0.
 */
static size_t dir_prefix(const char *dir, unsigned int k)
{
	const char *p;
	size_t len;

	return component(dir, k, &p, &len) && p[len] == '/' ? (size_t)(p - dir) + len : 0;
}

/*
 * Whether @other passes through the directory @dir[0..@len) and goes
 * below it: one compare, where a lookup asks this of every object for
 * every object before it.
 */
static bool passes(const char *other, const char *dir, size_t len)
{
	return !strncmp(other, dir, len) && other[len] == '/';
}

/* Whether object @d is the first whose directory passes through its component @k: it names that directory. */
static bool canonical(const struct mach_machine *m, size_t d, unsigned int k)
{
	char b1[DIR_BUF], b2[DIR_BUF];
	const char *dir = pfs_sys_obj_dir(m, d, b1, sizeof(b1));
	size_t len = dir ? dir_prefix(dir, k) : 0;

	if (!len)
		return false;
	for (size_t e = 0; e < d; e++) {
		const char *other = pfs_sys_obj_dir(m, e, b2, sizeof(b2));

		if (other && passes(other, dir, len))
			return false;
	}
	return true;
}

/* A device directory's object and depth; false when @inst is not one. */
static bool devdir_of(const struct mach_machine *m, uint32_t inst, size_t *d, unsigned int *k)
{
	uint32_t i = pfs_obj_index(inst);

	if (pfs_obj_type(inst) != PFS_OBJ_DEVDIR)
		return false;
	*d = i >> PFS_OBJ_DEPTH_BITS;
	*k = i & ((1u << PFS_OBJ_DEPTH_BITS) - 1);
	return canonical(m, *d, *k);
}

/*
 * The next child of the device directory (@d, @k) (@k -1: /sys/devices)
 * from cursor *@pos (an object index): a device directory (@want_dirs) or
 * an object's own (a disk's, a network device's).  Its instance in *@inst.
 */
static bool devtree_next(const struct mach_machine *m, size_t d, int k, uint64_t *pos, uint32_t *inst,
			 bool want_dirs)
{
	char b1[DIR_BUF], b2[DIR_BUF];
	const char *base = k >= 0 ? pfs_sys_obj_dir(m, d, b1, sizeof(b1)) : NULL;
	size_t blen = base ? dir_prefix(base, (unsigned int)k) : 0;
	unsigned int child = (unsigned int)(k + 1);

	if (base && !blen)
		return false; /* not a directory with anything below it */
	for (; *pos < pfs_sys_nobjs(m); ++*pos) {
		size_t e = (size_t)*pos;
		const char *dir = pfs_sys_obj_dir(m, e, b2, sizeof(b2));
		unsigned int n;

		/* below the directory (@k -1: anywhere), with component @child */
		if (!dir || (base && !passes(dir, base, blen)) || (n = ncomponents(dir)) <= child)
			continue;
		if (child + 1 == n) {
			if (want_dirs)
				continue;
			*inst = pfs_sys_obj_inst(m, e);
		} else {
			if (!want_dirs || !canonical(m, e, child) || child >= (1u << PFS_OBJ_DEPTH_BITS))
				continue;
			*inst = pfs_obj(PFS_OBJ_DEVDIR, (uint32_t)(e << PFS_OBJ_DEPTH_BITS | child));
		}
		++*pos;
		return true;
	}
	return false;
}

/* The partitions of disk @d from cursor *@pos (a device index). */
static bool parts_next(const struct mach_machine *m, size_t d, uint64_t *pos, uint32_t *inst)
{
	if (*pos <= d)
		*pos = d + 1;
	for (; *pos < m->sys.nblk; ++*pos) {
		const struct mach_blkdev *b = &m->sys.blk[*pos];

		if (b->partno && b->disk == d && m->sys.blk[d].sysfs) {
			*inst = pfs_obj(PFS_OBJ_BLK, (uint32_t)(*pos)++);
			return true;
		}
	}
	return false;
}

/* A block or network device's name, a device directory's component. */
static const char *obj_name(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	const struct mach_machine *m = c->mach;
	int b = pfs_obj_blk(m, inst), i = pfs_obj_net(m, inst);
	char dir[DIR_BUF];
	const char *p;
	size_t d, len;
	unsigned int k;

	if (b >= 0)
		return m->sys.blk[b].name;
	if (i >= 0)
		return mach_sys_net(m)->devs[i].name;
	if (!devdir_of(m, inst, &d, &k) || !component(pfs_sys_obj_dir(m, d, dir, sizeof(dir)), k, &p, &len))
		return "";
	snprintf(buf, size, "%.*s", (int)len, p);
	return buf;
}

/* ------------------------------------------------------------------ */
/* /sys/devices and the directories below it                            */

static bool devices_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	(void)parent;
	return devtree_next(c->mach, 0, -1, pos, inst, true);
}

static bool devdirs_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	size_t d;
	unsigned int k;

	return devdir_of(c->mach, parent, &d, &k) && devtree_next(c->mach, d, (int)k, pos, inst, true);
}

static bool blkdevs_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	int b = pfs_obj_blk(c->mach, parent);
	size_t d;
	unsigned int k;

	if (b >= 0)
		return !c->mach->sys.blk[b].partno && parts_next(c->mach, (size_t)b, pos, inst);
	return devdir_of(c->mach, parent, &d, &k) && devtree_next(c->mach, d, (int)k, pos, inst, false);
}

/* The instance named @name among what @next lists under @parent. */
static int lookup_by(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst,
		     bool (*next)(const struct pfs_ctx *, uint32_t, uint64_t *, uint32_t *))
{
	uint64_t pos = 0;
	uint32_t i;
	char buf[256];

	while (next(c, parent, &pos, &i))
		if (!strcmp(obj_name(c, i, buf, sizeof(buf)), name)) {
			*inst = i;
			return 0;
		}
	return -ENOENT;
}

static int devices_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	return lookup_by(c, parent, name, inst, devices_next);
}

static int devdirs_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	return lookup_by(c, parent, name, inst, devdirs_next);
}

static int blkdevs_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	return lookup_by(c, parent, name, inst, blkdevs_next);
}

/* A collection's name() from a function that gives the name as a string. */
static int put_name(const char *name, char *buf, size_t size)
{
	if (!*name)
		return -ENOENT;
	return snprintf(buf, size, "%s", name) < (int)size ? 0 : -ENAMETOOLONG;
}

static int objs_name(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	char tmp[256];

	return put_name(obj_name(c, inst, tmp, sizeof(tmp)), buf, size);
}

/* The path below /sys of the directory object @inst. */
static int obj_path(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	const struct mach_machine *m = c->mach;
	int b = pfs_obj_blk(m, inst), n;
	size_t d;
	unsigned int k;
	char dir[4096];
	const char *od;

	if (b >= 0) {
		if (mach_blk_dir(&m->sys, (size_t)b, dir, sizeof(dir)))
			return -ENOENT;
		n = snprintf(buf, size, "devices/%s", dir);
	} else if (pfs_obj_type(inst) == PFS_OBJ_NET) {
		return pfs_net_obj_path(c, inst, buf, size);
	} else if (devdir_of(m, inst, &d, &k)) {
		od = pfs_sys_obj_dir(m, d, dir, sizeof(dir));
		n = snprintf(buf, size, "devices/%.*s", (int)through(od, k), od);
	} else if (pfs_obj_type(inst) == PFS_OBJ_CGTOP && !pfs_obj_index(inst)) {
		n = snprintf(buf, size, "fs/cgroup");
	} else if (pfs_obj_type(inst) == PFS_OBJ_CGROUP && pfs_obj_cgroup(m, inst) != MACH_NONE) {
		char rel[4096];

		if (mach_cg_path(m, pfs_obj_index(inst), rel, sizeof(rel)))
			return -ENAMETOOLONG;
		n = snprintf(buf, size, "fs/cgroup%s%s%s", mach_cg_hybrid(m) ? "/unified" : "", *rel ? "/" : "", rel);
	} else {
		return -ENOENT;
	}
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static bool devdir_has(const struct pfs_ctx *c, uint32_t inst)
{
	size_t d;
	unsigned int k;

	return devdir_of(c->mach, inst, &d, &k);
}

static bool blkdev_has(const struct pfs_ctx *c, uint32_t inst)
{
	char dir[4096];
	int b = pfs_obj_blk(c->mach, inst);

	if (pfs_obj_type(inst) == PFS_OBJ_NET)
		return pfs_obj_net(c->mach, inst) >= 0;
	return b >= 0 && !mach_blk_dir(&c->mach->sys, (size_t)b, dir, sizeof(dir));
}

const struct pfs_coll_ops pfs_sysdevices_ops = {
	.lookup = devices_lookup, .name = objs_name, .path = obj_path, .next = devices_next,
	.has = devdir_has, .shared_cursor = true,
};

const struct pfs_coll_ops pfs_devdirs_ops = {
	.lookup = devdirs_lookup, .name = objs_name, .path = obj_path, .next = devdirs_next,
	.has = devdir_has, .shared_cursor = true,
};

const struct pfs_coll_ops pfs_blkdevs_ops = {
	.lookup = blkdevs_lookup, .name = objs_name, .path = obj_path, .next = blkdevs_next,
	.has = blkdev_has, .shared_cursor = true,
};

/* ------------------------------------------------------------------ */
/* Links: /sys/block, /sys/class/block, /sys/dev/block                  */

/* Device @i has a directory the tree shows: its disk's is known. */
static bool blk_shown(const struct mach_machine *m, size_t i)
{
	return i < m->sys.nblk && disk_dir(m, m->sys.blk[i].disk) != NULL;
}

static bool links_next(const struct pfs_ctx *c, uint64_t *pos, uint32_t *inst, bool disks_only)
{
	for (; *pos < c->mach->sys.nblk; ++*pos)
		if (blk_shown(c->mach, (size_t)*pos) && (!disks_only || !c->mach->sys.blk[*pos].partno)) {
			*inst = (uint32_t)(*pos)++;
			return true;
		}
	return false;
}

static bool sys_block_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	(void)parent;
	return links_next(c, pos, inst, true);
}

static bool class_block_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	(void)parent;
	return links_next(c, pos, inst, false);
}

static const char *blk_name(const struct pfs_ctx *c, uint32_t inst)
{
	return inst < c->mach->sys.nblk ? c->mach->sys.blk[inst].name : "";
}

static int blk_name_ops(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	return put_name(blk_name(c, inst), buf, size);
}

static const char *devt_name(const struct pfs_ctx *c, uint32_t inst)
{
	static __thread char buf[32];
	const struct mach_blkdev *b = inst < c->mach->sys.nblk ? &c->mach->sys.blk[inst] : NULL;

	if (!b)
		return "";
	snprintf(buf, sizeof(buf), "%u:%u", b->major, b->minor);
	return buf;
}

static int devt_name_ops(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	return put_name(devt_name(c, inst), buf, size);
}

static int links_lookup(const struct pfs_ctx *c, const char *name, uint32_t *inst, bool disks_only,
			const char *(*name_of)(const struct pfs_ctx *, uint32_t))
{
	/*
	 * Any device /proc/diskstats names: one whose place is not known yet
	 * has no link to show (has() says so), but its link, read, places it.
	 */
	for (uint32_t i = 0; i < c->mach->sys.nblk; i++)
		if ((!disks_only || !c->mach->sys.blk[i].partno) && !strcmp(name_of(c, i), name)) {
			*inst = i;
			return 0;
		}
	return -ENOENT;
}

static int sys_block_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	(void)parent;
	return links_lookup(c, name, inst, true, blk_name);
}

static int class_block_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	(void)parent;
	return links_lookup(c, name, inst, false, blk_name);
}

static int dev_block_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	(void)parent;
	return links_lookup(c, name, inst, false, devt_name);
}

static int link_path(char *buf, size_t size, const char *dir, const char *name)
{
	int n = snprintf(buf, size, "%s/%s", dir, name);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int sys_block_path(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	return link_path(buf, size, "block", blk_name(c, inst));
}

static int class_block_path(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	return link_path(buf, size, "class/block", blk_name(c, inst));
}

static int dev_block_path(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	return link_path(buf, size, "dev/block", devt_name(c, inst));
}

static bool disk_link_has(const struct pfs_ctx *c, uint32_t inst)
{
	return blk_shown(c->mach, inst) && !c->mach->sys.blk[inst].partno;
}

static bool any_link_has(const struct pfs_ctx *c, uint32_t inst)
{
	return blk_shown(c->mach, inst);
}

const struct pfs_coll_ops pfs_sys_block_ops = {
	.lookup = sys_block_lookup, .name = blk_name_ops, .path = sys_block_path, .next = sys_block_next,
	.has = disk_link_has,
};

const struct pfs_coll_ops pfs_class_block_ops = {
	.lookup = class_block_lookup, .name = blk_name_ops, .path = class_block_path, .next = class_block_next,
	.has = any_link_has,
};

const struct pfs_coll_ops pfs_dev_block_ops = {
	.lookup = dev_block_lookup, .name = devt_name_ops, .path = dev_block_path, .next = class_block_next,
	.has = any_link_has,
};

/* ------------------------------------------------------------------ */
/* holders/ and slaves/: a device-mapper device and the device under it */

/* Device @h is a device-mapper device on a shown device: its holder link's instance. */
static bool holds(const struct mach_machine *m, size_t h)
{
	const struct mach_blkdev *b = h < m->sys.nblk ? &m->sys.blk[h] : NULL;

	return b && b->kind == MACH_BLK_DM && b->slave >= 0 && (size_t)b->slave < m->sys.nblk &&
	       blk_shown(m, h) && blk_shown(m, (size_t)b->slave);
}

static bool holders_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	int s = pfs_obj_blk(c->mach, parent);

	for (; s >= 0 && *pos < c->mach->sys.nblk; ++*pos)
		if (holds(c->mach, (size_t)*pos) && c->mach->sys.blk[*pos].slave == s) {
			*inst = (uint32_t)(*pos)++;
			return true;
		}
	return false;
}

static bool slaves_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	int d = pfs_obj_blk(c->mach, parent);

	if (d < 0 || *pos || !holds(c->mach, (size_t)d))
		return false;
	*inst = (uint32_t)d;
	*pos = 1;
	return true;
}

static const char *slave_name(const struct pfs_ctx *c, uint32_t inst)
{
	return holds(c->mach, inst) ? c->mach->sys.blk[c->mach->sys.blk[inst].slave].name : "";
}

static int slave_name_ops(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	return put_name(slave_name(c, inst), buf, size);
}

/*
 * The loader asks before the link it reads says which device holds which:
 * any device-mapper device (any device, for slaves/) of the name is the
 * link's, and the link's own target then ties the two.
 */
static int loading_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst, bool dm)
{
	const struct mach_sys *s = &c->mach->sys;

	if (pfs_obj_blk(c->mach, parent) < 0)
		return -ENOENT;
	for (size_t i = 0; i < s->nblk; i++)
		if ((!dm || s->blk[i].kind == MACH_BLK_DM || !strncmp(s->blk[i].name, "dm-", 3)) &&
		    !strcmp(s->blk[i].name, name)) {
			*inst = (uint32_t)i;
			return 0;
		}
	return -ENOENT;
}

static int holders_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	uint64_t pos = 0;
	uint32_t i;

	if (c->loading)
		return loading_lookup(c, parent, name, inst, true);
	while (holders_next(c, parent, &pos, &i))
		if (!strcmp(blk_name(c, i), name)) {
			*inst = i;
			return 0;
		}
	return -ENOENT;
}

static int slaves_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	uint64_t pos = 0;
	uint32_t i;

	/* slaves/'s instance is the holder's own device */
	if (c->loading && !loading_lookup(c, parent, name, &i, false)) {
		*inst = (uint32_t)pfs_obj_blk(c->mach, parent);
		return 0;
	}
	if (c->loading)
		return -ENOENT;
	if (!slaves_next(c, parent, &pos, &i) || strcmp(slave_name(c, i), name))
		return -ENOENT;
	*inst = i;
	return 0;
}

static int holders_path(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	char dir[4096];

	if (!holds(c->mach, inst) || mach_blk_dir(&c->mach->sys, (size_t)c->mach->sys.blk[inst].slave, dir, sizeof(dir)))
		return -ENOENT;
	return snprintf(buf, size, "devices/%s/holders/%s", dir, blk_name(c, inst)) >= (int)size ? -ENAMETOOLONG : 0;
}

static int slaves_path(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	char dir[4096];

	if (!holds(c->mach, inst) || mach_blk_dir(&c->mach->sys, inst, dir, sizeof(dir)))
		return -ENOENT;
	return snprintf(buf, size, "devices/%s/slaves/%s", dir, slave_name(c, inst)) >= (int)size ? -ENAMETOOLONG : 0;
}

static bool holder_has(const struct pfs_ctx *c, uint32_t inst)
{
	return holds(c->mach, inst);
}

const struct pfs_coll_ops pfs_blk_holders_ops = {
	.lookup = holders_lookup, .name = blk_name_ops, .path = holders_path, .next = holders_next, .has = holder_has,
};

const struct pfs_coll_ops pfs_blk_slaves_ops = {
	.lookup = slaves_lookup, .name = slave_name_ops, .path = slaves_path, .next = slaves_next, .has = holder_has,
};

/* ------------------------------------------------------------------ */
/* cgroupfs: a directory's child groups                                 */

static bool cgroups_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	const struct mach_machine *m = c->mach;
	uint32_t top = mach_cg_v2_top(m), g;

	if (top == MACH_NONE)
		return false;
	if (pfs_obj_type(parent) == PFS_OBJ_CGTOP && !pfs_obj_index(parent) && mach_cg_hybrid(m)) {
		/* the tmpfs of a hybrid layout: the v1 hierarchies are not served, v2 is "unified" */
		if (*pos)
			return false;
		*pos = 1;
		*inst = pfs_obj(PFS_OBJ_CGROUP, top);
		return true;
	}
	g = pfs_obj_cgroup(m, parent);
	if (g == MACH_NONE)
		return false;
	if (*pos <= g)
		*pos = g + 1;
	for (; *pos < m->ncgroups; ++*pos)
		if (m->cgroups[*pos].parent == g && !m->cgroups[*pos].dead) {
			*inst = pfs_obj(PFS_OBJ_CGROUP, (uint32_t)(*pos)++);
			return true;
		}
	return false;
}

static const char *cgroup_name(const struct pfs_ctx *c, uint32_t inst)
{
	uint32_t g = pfs_obj_index(inst);

	if (pfs_obj_type(inst) != PFS_OBJ_CGROUP || g >= c->mach->ncgroups)
		return "";
	return c->mach->cgroups[g].parent == MACH_NONE ? "unified" : c->mach->cgroups[g].name;
}

static int cgroup_name_ops(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	return put_name(cgroup_name(c, inst), buf, size);
}

static int cgroups_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	uint64_t pos = 0;
	uint32_t i;

	while (cgroups_next(c, parent, &pos, &i))
		if (!strcmp(cgroup_name(c, i), name)) {
			*inst = i;
			return 0;
		}
	/*
	 * Any directory of a group is a group: one the machine lacks (an empty
	 * group /proc does not name) is the placeholder, which no machine has,
	 * so it is served as absent but classifies a path for the loader.
	 */
	if (pfs_sysobj_placeholder(parent) || (pfs_obj_cgroup(c->mach, parent) != MACH_NONE &&
					       !(pfs_obj_type(parent) == PFS_OBJ_CGTOP && mach_cg_hybrid(c->mach)))) {
		*inst = pfs_obj(PFS_OBJ_CGROUP, PFS_OBJ_INDEX_MASK);
		return 0;
	}
	return -ENOENT;
}

static bool cgroup_has(const struct pfs_ctx *c, uint32_t inst)
{
	return pfs_obj_type(inst) == PFS_OBJ_CGROUP && pfs_obj_cgroup(c->mach, inst) != MACH_NONE;
}

/* The v2 root is read-only to all (0555), wherever it is mounted; other groups are 0755. */
static mode_t cgroup_mode(const struct pfs_ctx *c, uint32_t inst)
{
	uint32_t g = pfs_obj_cgroup(c->mach, inst);

	return g != MACH_NONE && c->mach->cgroups[g].parent == MACH_NONE ? 0555 : 0755;
}

const struct pfs_coll_ops pfs_cgroups_ops = {
	.lookup = cgroups_lookup, .name = cgroup_name_ops, .path = obj_path, .next = cgroups_next,
	.has = cgroup_has, .mode = cgroup_mode, .shared_cursor = true,
};

/* ------------------------------------------------------------------ */
/* Node paths                                                           */

bool pfs_sys_node_named(const struct pfs_node *n)
{
	const struct pfs_coll_ops *ops;

	if (!n->entry)
		return false;
	if (n->scope == PFS_SCOPE_SYSOBJ)
		return true;
	ops = pfs_coll_ops(n->entry->coll);
	/* the block devices' links and the ways to them; the platform's collections name themselves */
	return n->scope == PFS_SCOPE_SYS && ops && n->entry->coll >= PFS_COLL_SYS_BLOCK &&
	       n->entry->coll <= PFS_COLL_CGROUPS && pfs_entry_is_star(n->entry);
}

int pfs_sys_node_path(const struct pfs_node *n, const struct pfs_ctx *c, char *buf, size_t size)
{
	const struct pfs_coll_ops *ops = pfs_coll_ops(n->entry->coll);
	size_t at;

	if (!c || !c->mach)
		return -ENOENT;
	if (pfs_entry_is_star(n->entry))
		return ops ? ops->path(c, n->inst, buf, size) : -ENOENT;
	/* a literal entry of an object's directory: the directory's path, then the entry's */
	if (obj_path(c, n->inst, buf, size))
		return -ENOENT;
	at = strlen(buf);
	if (snprintf(buf + at, size - at, "/%s", n->entry->path) >= (int)(size - at))
		return -ENAMETOOLONG;
	return 0;
}
