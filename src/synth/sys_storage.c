// SPDX-License-Identifier: MIT
/*
 * sys_storage.c - a synthetic machine's block devices and swap areas.
 *
 * Four layouts, as such machines are installed:
 *   - a microVM: a virtio disk vda that is the root filesystem whole;
 *   - a cloud VM with Ubuntu's LVM: vda with an EFI, a /boot and a PV
 *     partition, the root LV dm-0 on the PV;
 *   - bare metal with NVMe: nvme0n1 on blkext with the same partitions,
 *     root and swap LVs;
 *   - bare metal with SATA: sda with those partitions, maybe a data disk.
 * Every layout's root filesystem is 254:0, the device the mappings of its
 * files name (ROOT_DEV_MAJOR): device-mapper registers the first dynamic
 * block major (254), or virtio_blk does when there is no device-mapper.
 * loop0..7 exist from boot (max_loop=8); snap packages bind some and create
 * loop8 and beyond later, after the disks.  Swap is a swap LV or a file (the
 * installer's /swap.img); its size is meminfo's SwapTotal, which then holds
 * exactly the areas' sizes, the header page excluded.
 *
 * The layout is chosen before the tasks (the journal thread is named after
 * the root device) from its own random stream, so nothing else moves.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "synth_int.h"

#define GIB_SECTORS (2097152ull)
#define DM_NAME_ROOT "ubuntu--vg-ubuntu--lv"
#define DM_NAME_SWAP "ubuntu--vg-swap_1"

/* The snaps an Ubuntu machine carries: name and size in KiB of the squashfs. */
static const struct {
	const char *name;
	unsigned int kib;
} snaps[] = {
	{ "core22_2139", 75660 }, { "snapd_25202", 51968 }, { "lxd_33110", 92672 },
	{ "core20_2599", 65536 }, { "amazon-ssm-agent_11797", 26624 }, { "core24_1055", 67712 },
	{ "certbot_4829", 46080 }, { "snapd_24792", 51840 }, { "microk8s_7394", 184320 },
	{ "kubectl_3446", 20480 }, { "core22_1908", 75648 },
};

#define NR_SNAPS (sizeof(snaps) / sizeof(snaps[0]))

void sy_plan_storage(struct synth *s)
{
	struct rng r;

	rng_init(&r, s->o->seed, KEY_STORAGE);
	if (s->virt)
		s->storage = rng_chance(&r, 0.4) ? ST_MICROVM : ST_CLOUD_LVM;
	else
		s->storage = rng_chance(&r, 0.7) ? ST_NVME_LVM : ST_SATA_LVM;
	snprintf(s->root_name, sizeof(s->root_name), "%s", s->storage == ST_MICROVM ? "vda" : "dm-0");
	/* a data disk (mounted on /home): known before the tasks, whose files may live there */
	s->data_disk = s->storage == ST_MICROVM ? rng_chance(&r, 0.5)
						: s->storage == ST_SATA_LVM ? rng_chance(&r, 0.4) : false;
}

struct blk_build {
	struct mach_sys *sys;
	size_t cap;
	unsigned int ext_minor;   /* next blkext minor */
	int rc;
};

static struct mach_blkdev *blk_add(struct blk_build *b, const char *name, uint32_t major, uint32_t minor,
				   enum mach_blk_kind kind, uint64_t sectors)
{
	struct mach_blkdev *d = VEC_PUSH(b->sys->blk, b->sys->nblk, b->cap);

	if (!d) {
		b->rc = -ENOMEM;
		return NULL;
	}
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->major = major;
	d->minor = minor;
	d->kind = kind;
	d->nr_sects = sectors;
	d->disk = (unsigned int)(b->sys->nblk - 1);
	d->slave = -1;
	return d;
}

/* Partition @partno of the last disk added: "p" between when the disk's name ends in a digit. */
static int part_add(struct blk_build *b, unsigned int partno, uint64_t start, uint64_t sectors)
{
	struct mach_sys *sys = b->sys;
	size_t disk = sys->nblk;
	struct mach_blkdev *d, *p;
	char name[40];

	while (disk-- > 0 && sys->blk[disk].partno)
		;
	d = &sys->blk[disk];
	snprintf(name, sizeof(name), "%s%s%u", d->name, d->name[strlen(d->name) - 1] <= '9' ? "p" : "", partno);
	/* nvme disks have no minors of their own: partitions take extended ones */
	p = d->kind == MACH_BLK_NVME ? blk_add(b, name, MACH_BLOCK_EXT_MAJOR, b->ext_minor++, d->kind, sectors)
				     : blk_add(b, name, d->major, d->minor + partno, d->kind, sectors);
	if (!p)
		return b->rc;
	p->partno = partno;
	p->disk = (unsigned int)disk;
	p->start_sect = start;
	return 0;
}

/* EFI, /boot and an LVM PV on the rest, GPT-aligned; the PV's index. */
static int gpt_disk(struct blk_build *b, const char *name, uint32_t major, uint32_t minor,
		    enum mach_blk_kind kind, uint64_t sectors)
{
	uint64_t efi = 2203648, boot = 4194304, start = 2048, pv;

	if (!blk_add(b, name, major, minor, kind, sectors))
		return -1;
	if (kind == MACH_BLK_NVME)
		b->sys->blk[b->sys->nblk - 1].minor = b->ext_minor++;
	pv = (sectors - 34 - (start + efi + boot)) / 2048 * 2048;
	if (part_add(b, 1, start, efi) || part_add(b, 2, start + efi, boot) ||
	    part_add(b, 3, start + efi + boot, pv))
		return -1;
	return (int)b->sys->nblk - 1;
}

/* Loop devices 0..7, bound to the first snaps. */
static void loops(struct blk_build *b, unsigned int first, unsigned int n, unsigned int nsnaps)
{
	char name[16], path[96];

	for (unsigned int i = first; i < first + n && !b->rc; i++) {
		struct mach_blkdev *d;
		uint64_t kib = i < nsnaps ? snaps[i].kib : 0;

		snprintf(name, sizeof(name), "loop%u", i);
		if (!(d = blk_add(b, name, 7, i, MACH_BLK_LOOP, kib * 2)) || i >= nsnaps)
			continue;
		snprintf(path, sizeof(path), "/var/lib/snapd/snaps/%s.snap", snaps[i].name);
		if (!(d->backing_file = strdup(path)))
			b->rc = -ENOMEM;
		d->slave = b->sys->root_blk;
	}
}

/* Swap: an LV after the root LV, or a file on the root filesystem; the LV's size in sectors. */
static uint64_t swap_size_sectors(const struct mach_machine *m)
{
	/* pages + the header page, in whole 4 MiB extents for an LV */
	uint64_t kib = m->meminfo[MACH_MEMINFO_SWAPTOTAL] + 4;

	return (kib + 4095) / 4096 * 4096 * 2;
}

/* The LVM root (and swap) on PV @pv, 254:0 and 254:1. */
static void lvm(struct blk_build *b, int pv, bool swap_lv, uint64_t swap_sects)
{
	struct mach_sys *sys = b->sys;
	uint64_t pv_sects = sys->blk[pv].nr_sects, root = pv_sects - (swap_lv ? swap_sects : 0);
	struct mach_blkdev *d;

	/* the installer gives the root LV 100 GiB or half the volume group, whichever is more */
	if (root > 100 * GIB_SECTORS && root / 2 < 100 * GIB_SECTORS)
		root = 100 * GIB_SECTORS;
	else if (root > 100 * GIB_SECTORS)
		root = root / 2 / 8192 * 8192;
	if ((d = blk_add(b, "dm-0", 254, 0, MACH_BLK_DM, root))) {
		snprintf(d->dm_name, sizeof(d->dm_name), "%s", DM_NAME_ROOT);
		d->slave = pv;
		sys->root_blk = (int)sys->nblk - 1;
	}
	if (swap_lv && (d = blk_add(b, "dm-1", 254, 1, MACH_BLK_DM, swap_sects))) {
		snprintf(d->dm_name, sizeof(d->dm_name), "%s", DM_NAME_SWAP);
		d->slave = pv;
	}
}

static const uint64_t nvme_sizes[] = { 500118192, 1000215216, 2000409264, 3907029168 };
static const uint64_t sata_sizes[] = { 468862128, 937703088, 1875385008 };

/* The disks of the layout: 0 or -ENOMEM; *@swap_lv when swap is an LV. */
static int layout(struct synth *s, struct blk_build *b, struct rng *r, bool *swap_lv)
{
	bool swap = s->m->meminfo[MACH_MEMINFO_SWAPTOTAL] != 0;
	unsigned int nsnaps = s->storage == ST_MICROVM ? 0 : (unsigned int)rng_range(r, 0, NR_SNAPS);
	int pv;

	*swap_lv = swap && (s->storage == ST_NVME_LVM || s->storage == ST_SATA_LVM) && rng_chance(r, 0.5);
	loops(b, 0, 8, 0);
	switch (s->storage) {
	case ST_MICROVM:
		if (blk_add(b, "vda", 254, 0, MACH_BLK_VIRTIO, rng_range(r, 4, 64) * GIB_SECTORS))
			b->sys->root_blk = (int)b->sys->nblk - 1;
		if (s->data_disk)
			blk_add(b, "vdb", 254, 16, MACH_BLK_VIRTIO, rng_range(r, 8, 512) * GIB_SECTORS);
		break;
	case ST_CLOUD_LVM:
		pv = gpt_disk(b, "vda", 253, 0, MACH_BLK_VIRTIO, rng_range(r, 20, 400) * GIB_SECTORS);
		if (pv >= 0)
			lvm(b, pv, false, 0);
		break;
	case ST_NVME_LVM:
		pv = gpt_disk(b, "nvme0n1", MACH_BLOCK_EXT_MAJOR, 0, MACH_BLK_NVME, nvme_sizes[rng_below(r, 4)]);
		if (pv >= 0)
			lvm(b, pv, *swap_lv, swap_size_sectors(s->m));
		break;
	default:
		pv = gpt_disk(b, "sda", 8, 0, MACH_BLK_SCSI, sata_sizes[rng_below(r, 3)]);
		if (pv >= 0)
			lvm(b, pv, *swap_lv, swap_size_sectors(s->m));
		if (!b->rc && s->data_disk && blk_add(b, "sdb", 8, 16, MACH_BLK_SCSI, sata_sizes[rng_below(r, 3)]))
			part_add(b, 1, 2048, (b->sys->blk[b->sys->nblk - 1].nr_sects - 2048 - 34) / 2048 * 2048);
		break;
	}
	/* snapd binds loop devices from loop0 on; past loop7 it creates new ones */
	for (unsigned int i = 0; i < nsnaps && i < 8 && !b->rc; i++) {
		struct mach_blkdev *d = &b->sys->blk[i];
		char path[96];

		d->nr_sects = (uint64_t)snaps[i].kib * 2;
		snprintf(path, sizeof(path), "/var/lib/snapd/snaps/%s.snap", snaps[i].name);
		if (!(d->backing_file = strdup(path)))
			b->rc = -ENOMEM;
		d->slave = b->sys->root_blk;
	}
	if (nsnaps > 8)
		loops(b, 8, nsnaps - 8, nsnaps);
	return b->rc;
}

/* The swap area, and meminfo's swap lines made exact: pages are the area minus its header page. */
static int swaps(struct synth *s, struct rng *r, bool swap_lv)
{
	struct mach_machine *m = s->m;
	struct mach_sys *sys = &m->sys;
	uint64_t used = (m->meminfo[MACH_MEMINFO_SWAPTOTAL] - m->meminfo[MACH_MEMINFO_SWAPFREE]) / 4;
	struct mach_swap *si;
	int lv = mach_sys_find_blk(sys, "dm-1");

	if (!m->meminfo[MACH_MEMINFO_SWAPTOTAL])
		return 0;
	si = calloc(1, sizeof(*si));
	if (!si)
		return -ENOMEM;
	sys->swaps = si;
	sys->nswaps = 1;
	si->is_file = !swap_lv;
	si->blkdev = swap_lv ? lv : -1;
	si->prio = -2;
	si->pages = swap_lv ? sys->blk[lv].nr_sects / 8 - 1 : m->meminfo[MACH_MEMINFO_SWAPTOTAL] / 4 - 1;
	si->inuse_pages = used < si->pages ? used : si->pages;
	si->path = strdup(swap_lv ? "/dev/dm-1" : rng_chance(r, 0.7) ? "/swap.img" : "/swapfile");
	if (!si->path)
		return -ENOMEM;
	m->meminfo[MACH_MEMINFO_SWAPTOTAL] = si->pages * 4;
	m->meminfo[MACH_MEMINFO_SWAPFREE] = (si->pages - si->inuse_pages) * 4;
	m->meminfo[MACH_MEMINFO_COMMITLIMIT] =
		m->meminfo[MACH_MEMINFO_MEMTOTAL] / 4 * 50 / 100 * 4 + m->meminfo[MACH_MEMINFO_SWAPTOTAL];
	return 0;
}

static void major_add(struct mach_devmajor *list, size_t *n, unsigned int major, const char *name)
{
	list[*n].major = major;
	snprintf(list[*n].name, sizeof(list[*n].name), "%s", name);
	++*n;
}

/* /proc/devices' block majors: what registered, by major (dynamic ones from 254 down). */
static int block_majors(struct synth *s)
{
	struct mach_sys *sys = &s->m->sys;
	bool dm = s->storage != ST_MICROVM, sd = s->storage == ST_SATA_LVM || s->storage == ST_NVME_LVM;
	struct mach_devmajor list[32];
	size_t n = 0;

	major_add(list, &n, 7, "loop");
	if (sd) {
		major_add(list, &n, 8, "sd");
		for (unsigned int m = 65; m <= 71; m++)
			major_add(list, &n, m, "sd");
		for (unsigned int m = 128; m <= 135; m++)
			major_add(list, &n, m, "sd");
	}
	if (s->storage == ST_CLOUD_LVM)
		major_add(list, &n, 253, "virtblk");
	major_add(list, &n, 254, dm ? "device-mapper" : "virtblk");
	major_add(list, &n, MACH_BLOCK_EXT_MAJOR, "blkext");
	sys->blkdevs = malloc(n * sizeof(*list));
	if (!sys->blkdevs)
		return -ENOMEM;
	memcpy(sys->blkdevs, list, n * sizeof(*list));
	sys->nblkdevs = n;
	return 0;
}

int sy_build_storage(struct synth *s)
{
	struct blk_build b = { .sys = &s->m->sys };
	struct rng r;
	bool swap_lv;
	int rc;

	rng_init(&r, s->o->seed, KEY_STORAGE + 1);
	if ((rc = layout(s, &b, &r, &swap_lv)) || (rc = swaps(s, &r, swap_lv)))
		return rc;
	return block_majors(s);
}
