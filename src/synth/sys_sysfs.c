// SPDX-License-Identifier: MIT
/*
 * sys_sysfs.c - what sysfs shows of a synthetic machine's block devices:
 * where each disk sits under /sys/devices, its queue's limits and the
 * device under it, as the drivers of its kind set them up.
 *
 * The directories follow the kernel's naming: a virtio disk under its PCI
 * function's virtioN device and a "block" glue directory, an NVMe
 * namespace straight under its controller (a class device), a SATA disk
 * under its ATA port's SCSI host, target and LUN, device-mapper and loop
 * devices under /sys/devices/virtual/block.  Queue limits are what each
 * driver sets (virtio-blk from QEMU's defaults, the NVMe and ATA numbers
 * of a common SSD, loop's and device-mapper's stacked ones), diskseq
 * counts disks in registration order, and a bound loop device takes a new
 * one.  Each device draws from its own stream (its index), so nothing
 * else in the machine moves.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth_int.h"

#define KEY_SYSFS 0x600000050ull    /* + device index */

/* A queue attribute and its value, for the per-driver tables. */
struct qv {
	enum mach_blkq q;
	uint64_t v;
};

/* Common to every queue (blk_set_stacking_limits and the sysfs defaults). */
static const struct qv q_base[] = {
	{ MACH_BLKQ_DMA_ALIGNMENT, 511 }, { MACH_BLKQ_HW_SECTOR_SIZE, 512 }, { MACH_BLKQ_LOGICAL_BLOCK_SIZE, 512 },
	{ MACH_BLKQ_PHYSICAL_BLOCK_SIZE, 512 }, { MACH_BLKQ_MINIMUM_IO_SIZE, 512 }, { MACH_BLKQ_IOSTATS, 1 },
	{ MACH_BLKQ_IO_POLL_DELAY, (uint64_t)-1 }, { MACH_BLKQ_MAX_DISCARD_SEGMENTS, 1 },
	{ MACH_BLKQ_READ_AHEAD_KB, 128 }, { MACH_BLKQ_RQ_AFFINITY, 1 }, { MACH_BLKQ_MAX_SEGMENTS, 128 },
	{ MACH_BLKQ_MAX_SEGMENT_SIZE, 65536 }, { MACH_BLKQ_MAX_HW_SECTORS_KB, 1280 },
	{ MACH_BLKQ_MAX_SECTORS_KB, 1280 },
};

/* virtio-blk under QEMU: a rotational disk as far as the guest knows, with discard */
static const struct qv q_virtio[] = {
	{ MACH_BLKQ_MAX_HW_SECTORS_KB, 2147483647 }, { MACH_BLKQ_MAX_SEGMENTS, 254 },
	{ MACH_BLKQ_MAX_SEGMENT_SIZE, 4294967295u }, { MACH_BLKQ_NR_REQUESTS, 256 }, { MACH_BLKQ_ROTATIONAL, 1 },
	{ MACH_BLKQ_WBT_LAT_USEC, 75000 }, { MACH_BLKQ_DISCARD_GRANULARITY, 512 },
	{ MACH_BLKQ_DISCARD_MAX_BYTES, 2147483136 }, { MACH_BLKQ_DISCARD_MAX_HW_BYTES, 2147483136 },
	{ MACH_BLKQ_WRITE_ZEROES_MAX_BYTES, 2147483136 },
};

/* an NVMe SSD: FUA, a PRP-aligned virt boundary, MDTS of 512 KiB */
static const struct qv q_nvme[] = {
	{ MACH_BLKQ_DMA_ALIGNMENT, 3 }, { MACH_BLKQ_FUA, 1 }, { MACH_BLKQ_MAX_HW_SECTORS_KB, 512 },
	{ MACH_BLKQ_MAX_SECTORS_KB, 512 }, { MACH_BLKQ_MAX_SEGMENTS, 127 },
	{ MACH_BLKQ_MAX_SEGMENT_SIZE, 4294967295u }, { MACH_BLKQ_NR_REQUESTS, 1023 },
	{ MACH_BLKQ_VIRT_BOUNDARY_MASK, 4095 }, { MACH_BLKQ_WBT_LAT_USEC, 2000 }, { MACH_BLKQ_IO_TIMEOUT, 30000 },
	{ MACH_BLKQ_DISCARD_GRANULARITY, 512 }, { MACH_BLKQ_DISCARD_MAX_BYTES, 2199023255040ull },
	{ MACH_BLKQ_DISCARD_MAX_HW_BYTES, 2199023255040ull }, { MACH_BLKQ_MAX_DISCARD_SEGMENTS, 256 },
	{ MACH_BLKQ_WRITE_ZEROES_MAX_BYTES, 2199023255040ull },
};

/* a SATA SSD behind libata: queue depth 32, ATA's 32 MiB transfers */
static const struct qv q_sata[] = {
	{ MACH_BLKQ_DMA_ALIGNMENT, 3 }, { MACH_BLKQ_MAX_HW_SECTORS_KB, 32767 }, { MACH_BLKQ_MAX_SEGMENTS, 168 },
	{ MACH_BLKQ_NR_REQUESTS, 64 }, { MACH_BLKQ_WBT_LAT_USEC, 2000 }, { MACH_BLKQ_IO_TIMEOUT, 30000 },
	{ MACH_BLKQ_DISCARD_GRANULARITY, 512 }, { MACH_BLKQ_DISCARD_MAX_BYTES, 2147450880 },
	{ MACH_BLKQ_DISCARD_MAX_HW_BYTES, 2147450880 },
};

/* loop: blk-mq, 128 requests; bound to a file it can punch holes in */
static const struct qv q_loop[] = {
	{ MACH_BLKQ_NR_REQUESTS, 128 }, { MACH_BLKQ_WBT_LAT_USEC, 2000 },
};

static const struct qv q_loop_bound[] = {
	{ MACH_BLKQ_DISCARD_GRANULARITY, 4096 }, { MACH_BLKQ_DISCARD_MAX_BYTES, 4294966784u },
	{ MACH_BLKQ_DISCARD_MAX_HW_BYTES, 4294966784u }, { MACH_BLKQ_WRITE_ZEROES_MAX_BYTES, 4294966784u },
};

static void apply(struct mach_blk_sysfs *f, const struct qv *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		f->q[list[i].q] = list[i].v;
}

#define APPLY(f, list) apply(f, list, sizeof(list) / sizeof(list[0]))

/*
 * The disk's directory: its kind's place under /sys/devices, on the PCI
 * functions /proc/interrupts names (irqs.c): virtio-blk from slot 4 on,
 * after the NIC's virtio0 in slot 3; the NVMe controller 0000:01:00.0
 * behind a root port.
 */
static int disk_dir(struct mach_blk_sysfs *f, const struct mach_blkdev *b, unsigned int nth)
{
	char dir[256];

	switch (b->kind) {
	case MACH_BLK_VIRTIO:
		snprintf(dir, sizeof(dir), "pci0000:00/0000:00:%02x.0/virtio%u/block/%s", 4 + nth, 1 + nth, b->name);
		break;
	case MACH_BLK_NVME:
		snprintf(dir, sizeof(dir), "pci0000:00/0000:00:1d.0/0000:%02x:00.0/nvme/nvme%u/%s", 1 + nth, nth, b->name);
		break;
	case MACH_BLK_SCSI:
		snprintf(dir, sizeof(dir), "pci0000:00/0000:00:17.0/ata%u/host%u/target%u:0:0/%u:0:0:0/block/%s",
			 nth + 1, nth, nth, nth, b->name);
		break;
	default:
		snprintf(dir, sizeof(dir), "virtual/block/%s", b->name);
		break;
	}
	f->dir = strdup(dir);
	return f->dir ? 0 : -ENOMEM;
}

/* A string of the characters LVM uses in its identifiers. */
static void lvm_id(struct rng *r, char *out, size_t n)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

	for (size_t i = 0; i + 1 < n; i++)
		out[i] = set[rng_below(r, sizeof(set) - 1)];
	out[n - 1] = '\0';
}

/* The device under a disk: a virtio function, an NVMe controller, an ATA disk's SCSI device. */
static void hardware(struct mach_blk_hw *hw, const struct mach_blkdev *b, struct rng *r)
{
	static const char *const nvme_models[] = { "Samsung SSD 980 PRO 1TB", "WD_BLACK SN850X 2000GB",
						   "KINGSTON SKC3000D2048G", "Micron_7450_MTFDKBG3T8TFR" };
	static const char *const sata_models[] = { "Samsung SSD 870 ", "CT1000MX500SSD1 ", "WDC WDS100T2B0A " };

	switch (b->kind) {
	case MACH_BLK_VIRTIO:
		hw->virtio_vendor = 0x1af4;
		hw->virtio_device = 0x0002;
		/* SIZE_MAX SEG_MAX BLK_SIZE FLUSH TOPOLOGY MQ DISCARD WRITE_ZEROES, RING_INDIRECT_DESC EVENT_IDX VERSION_1 */
		hw->virtio_features[0] = 0x0000000000006e56ull | (1ull << 28) | (1ull << 29) | (1ull << 32);
		hw->virtio_status = 0xf;
		break;
	case MACH_BLK_NVME:
		snprintf(hw->model, sizeof(hw->model), "%s", nvme_models[rng_below(r, 4)]);
		snprintf(hw->serial, sizeof(hw->serial), "S%llX", (unsigned long long)(rng_next(r) >> 8));
		snprintf(hw->firmware_rev, sizeof(hw->firmware_rev), "%uB2QGXA7", (unsigned int)rng_range(r, 3, 5));
		snprintf(hw->state, sizeof(hw->state), "live");
		snprintf(hw->transport, sizeof(hw->transport), "pcie");
		break;
	case MACH_BLK_SCSI:
		snprintf(hw->vendor, sizeof(hw->vendor), "ATA     ");
		snprintf(hw->model, sizeof(hw->model), "%s", sata_models[rng_below(r, 3)]);
		snprintf(hw->rev, sizeof(hw->rev), "%uB6Q", (unsigned int)rng_range(r, 1, 4));
		snprintf(hw->state, sizeof(hw->state), "running");
		break;
	default:
		break;
	}
}

/* The queue of a disk of its kind; a device-mapper device stacks the limits of the one under it. */
static void queue_of(struct mach_blk_sysfs *f, const struct mach_blkdev *b, const struct mach_sys *sys)
{
	APPLY(f, q_base);
	f->mq = b->kind != MACH_BLK_DM && b->kind != MACH_BLK_ZRAM;
	f->write_back = true;
	switch (b->kind) {
	case MACH_BLK_VIRTIO:
		APPLY(f, q_virtio);
		f->elevator = 1; /* mq-deadline: udev's default for single-queue-looking disks */
		f->cache_type = true;
		break;
	case MACH_BLK_NVME:
		APPLY(f, q_nvme);
		f->timeout = true;
		break;
	case MACH_BLK_SCSI:
		APPLY(f, q_sata);
		f->timeout = f->cache_type = true;
		f->elevator = 1;
		break;
	case MACH_BLK_LOOP:
		APPLY(f, q_loop);
		f->write_back = b->backing_file != NULL;
		if (b->backing_file)
			APPLY(f, q_loop_bound);
		break;
	case MACH_BLK_DM:
		if (b->slave >= 0 && sys->blk[sys->blk[b->slave].disk].sysfs)
			memcpy(f->q, sys->blk[sys->blk[b->slave].disk].sysfs->q, sizeof(f->q));
		f->q[MACH_BLKQ_NR_REQUESTS] = f->q[MACH_BLKQ_RQ_AFFINITY] = f->q[MACH_BLKQ_WBT_LAT_USEC] = 0;
		f->q[MACH_BLKQ_IO_TIMEOUT] = 0;
		break;
	default:
		break;
	}
}

/* Disk @b (the @nth of its kind), registered @seq-th. */
static int disk(struct mach_blk_sysfs *f, const struct mach_blkdev *b, const struct mach_sys *sys,
		unsigned int nth, uint64_t seq, struct rng *r)
{
	bool parts = b->kind == MACH_BLK_VIRTIO || b->kind == MACH_BLK_SCSI || b->kind == MACH_BLK_NVME;

	f->diskseq = seq;
	f->events_poll_msecs = -1;
	f->events = b->kind == MACH_BLK_LOOP ? MACH_DISK_EVENT_MEDIA_CHANGE : 0;
	f->minors = b->kind == MACH_BLK_NVME ? 0 : parts ? 16 : 1;
	f->ext_range = parts || b->kind == MACH_BLK_LOOP ? 256 : 1;
	f->partscan = parts;
	/* snaps are squashfs images, bound read-only and cleared when unmounted */
	f->ro = b->kind == MACH_BLK_LOOP && b->backing_file;
	f->loop_autoclear = f->ro;
	queue_of(f, b, sys);
	hardware(&f->hw, b, r);
	if (b->kind == MACH_BLK_VIRTIO && !(f->serial = strdup("")))
		return -ENOMEM;
	if (b->kind == MACH_BLK_DM) {
		char vg[33], lv[33], uuid[80];

		lvm_id(r, vg, sizeof(vg));
		lvm_id(r, lv, sizeof(lv));
		snprintf(uuid, sizeof(uuid), "LVM-%s%s", vg, lv);
		if (!(f->dm_uuid = strdup(uuid)))
			return -ENOMEM;
	}
	return disk_dir(f, b, nth);
}

int sy_build_blk_sysfs(struct synth *s)
{
	struct mach_sys *sys = &s->m->sys;
	unsigned int nth[MACH_NR_BLK_KINDS] = { 0 };
	uint64_t seq = 0, ndisks = 0, bound = 0;

	for (size_t i = 0; i < sys->nblk; i++)
		ndisks += !sys->blk[i].partno;
	for (size_t i = 0; i < sys->nblk; i++) {
		struct mach_blkdev *b = &sys->blk[i];
		struct rng r;
		int rc;

		if (!(b->sysfs = calloc(1, sizeof(*b->sysfs))))
			return -ENOMEM;
		rng_init(&r, s->o->seed, KEY_SYSFS + i);
		if (b->partno) {
			/* a partition keeps its own read-only bit and alignments; the rest is its disk's */
			b->sysfs->ro = sys->blk[b->disk].sysfs->ro;
			continue;
		}
		/* binding a loop device gives it a new sequence number, after every disk */
		++seq;
		rc = disk(b->sysfs, b, sys, nth[b->kind]++,
			  b->kind == MACH_BLK_LOOP && b->backing_file ? ndisks + ++bound : seq, &r);
		if (rc)
			return rc;
	}
	return 0;
}
