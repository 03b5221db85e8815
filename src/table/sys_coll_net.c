// SPDX-License-Identifier: MIT
/*
 * sys_coll_net.c - the network devices of /sys: /sys/class/net's links,
 * each device's directory among the objects /sys/devices holds (beside
 * the disks, sys_coll.c), and which of a device's files exist and show.
 *
 * /sys/class/net shows the namespace sysfs was mounted in (mach_sys_net):
 * a device of it has a directory once its sysfs side is known, under its
 * parent device's "net" glue directory or under virtual/net.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "table_sys.h"

/* The network devices /sys shows, or NULL. */
static const struct mach_net *net_of(const struct mach_machine *m)
{
	return m ? mach_sys_net(m) : NULL;
}

size_t pfs_sys_nobjs(const struct mach_machine *m)
{
	const struct mach_net *n = net_of(m);

	return m->sys.nblk + (n ? n->ndevs : 0);
}

const char *pfs_sys_obj_dir(const struct mach_machine *m, size_t o, char *buf, size_t size)
{
	const struct mach_net *n;

	if (o < m->sys.nblk) {
		const struct mach_blkdev *b = &m->sys.blk[o];

		return !b->partno && b->sysfs && b->sysfs->dir ? b->sysfs->dir : NULL;
	}
	n = net_of(m);
	o -= m->sys.nblk;
	return n && o < n->ndevs && !mach_netdev_dir(&n->devs[o], buf, size) ? buf : NULL;
}

uint32_t pfs_sys_obj_inst(const struct mach_machine *m, size_t o)
{
	return o < m->sys.nblk ? pfs_obj(PFS_OBJ_BLK, (uint32_t)o) : pfs_obj(PFS_OBJ_NET, (uint32_t)(o - m->sys.nblk));
}

int pfs_net_obj_path(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	int i = pfs_obj_net(c->mach, inst), n;
	char dir[512];

	if (i < 0 || mach_netdev_dir(&net_of(c->mach)->devs[i], dir, sizeof(dir)))
		return -ENOENT;
	n = snprintf(buf, size, "devices/%s", dir);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* ------------------------------------------------------------------ */
/* /sys/class/net: instance = the device's index in its namespace       */

static bool links_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	const struct mach_net *n = net_of(c->mach);

	(void)parent;
	for (; n && *pos < n->ndevs; ++*pos)
		if (n->devs[*pos].sys.known) {
			*inst = (uint32_t)(*pos)++;
			return true;
		}
	return false;
}

static int links_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	const struct mach_net *n = net_of(c->mach);
	int i = n ? mach_net_dev_by_name(n, name) : -1;

	/* any device /proc/net/dev names: one whose place is not known yet has no link (has() says so), but its
	 * link, read, places it */
	(void)parent;
	if (i < 0)
		return -ENOENT;
	*inst = (uint32_t)i;
	return 0;
}

static int links_name(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	const struct mach_net *n = net_of(c->mach);

	if (!n || inst >= n->ndevs)
		return -ENOENT;
	return snprintf(buf, size, "%s", n->devs[inst].name) < (int)size ? 0 : -ENAMETOOLONG;
}

static int links_path(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	char name[MACH_IFNAMSIZ];
	int rc = links_name(c, inst, name, sizeof(name));

	if (rc)
		return rc;
	return snprintf(buf, size, "class/net/%s", name) < (int)size ? 0 : -ENAMETOOLONG;
}

static bool links_has(const struct pfs_ctx *c, uint32_t inst)
{
	const struct mach_net *n = net_of(c->mach);

	return n && inst < n->ndevs && n->devs[inst].sys.known;
}

const struct pfs_coll_ops pfs_class_net_ops = {
	.lookup = links_lookup, .name = links_name, .path = links_path, .next = links_next, .has = links_has,
};

/* ------------------------------------------------------------------ */
/* A device's directory (PFS_OBJ_NET): which files it holds             */

static const struct mach_netdev *dev_of(const struct pfs_ctx *c)
{
	int i = pfs_obj_net(c->mach, c->inst);

	return i < 0 ? NULL : &net_of(c->mach)->devs[i];
}

bool pfs_net_any(const struct pfs_ctx *c)
{
	return dev_of(c) != NULL;
}

/* device -> the parent: a virtual device has none (netdev_register_kobject leaves it out) */
bool pfs_net_device_link(const struct pfs_ctx *c)
{
	const struct mach_netdev *d = dev_of(c);

	return d && d->sys.parent[0];
}

int pfs_net_refuses(const struct pfs_ctx *c)
{
	const struct mach_netdev *d = dev_of(c);

	return d ? mach_netdev_attr_refuses(d, c->arg) : -ENOENT;
}
