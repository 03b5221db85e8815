// SPDX-License-Identifier: MIT
/*
 * sys_block.c - the files of a block device's directory in sysfs: stat,
 * inflight, dev, size, uevent and the small attributes of block/genhd.c
 * (disk_attrs) and block/partitions/core.c (part_attrs), dm/ and loop/,
 * and the device a disk sits on (virtio, nvme or scsi attributes).
 *
 * stat mirrors part_stat_show of Linux 6.18: the 17 counters of
 * /proc/diskstats, from the same struct mach_blk_stats, each "%8lu" with a
 * single space between; the times are cut from nanosecond sums as
 * diskstats cuts them.  A sysfs show prints one page at most.
 */
#include <string.h>

#include "render.h"
#include "uprocfs/pfs_sysobj.h"

/* The device c->inst names: the table's exists predicates made sure it is one. */
static const struct mach_blkdev *blk(const struct pfs_ctx *c)
{
	return &c->mach->sys.blk[pfs_obj_blk(c->mach, c->inst)];
}

static const struct mach_blkdev *disk_of(const struct pfs_ctx *c, const struct mach_blkdev *b)
{
	return &c->mach->sys.blk[b->disk];
}

/* (unsigned int)div_u64(ns, NSEC_PER_MSEC) */
static unsigned int ms32(uint64_t ns)
{
	return (unsigned int)(ns / 1000000u);
}

int pfs_show_blk_stat(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_blk_stats *st = &blk(c)->st;
	unsigned int hz = c->mach->profile.sys.hz ? c->mach->profile.sys.hz : 250;

	(void)v;
	for (int g = MACH_BLK_READ; g <= MACH_BLK_WRITE; g++) {
		seq_put_decimal_ull_width(m, g ? " " : "", st->ios[g], 8);
		seq_put_decimal_ull_width(m, " ", st->merges[g], 8);
		seq_put_decimal_ull_width(m, " ", st->sectors[g], 8);
		seq_put_decimal_ull_width(m, " ", ms32(st->nsecs[g]), 8);
	}
	seq_put_decimal_ull_width(m, " ", (unsigned int)(st->in_flight[0] + st->in_flight[1]), 8);
	seq_put_decimal_ull_width(m, " ", (unsigned int)(st->io_ticks * 1000u / hz), 8);
	seq_put_decimal_ull_width(m, " ", ms32(st->nsecs[MACH_BLK_READ] + st->nsecs[MACH_BLK_WRITE] +
					       st->nsecs[MACH_BLK_DISCARD] + st->nsecs[MACH_BLK_FLUSH]), 8);
	seq_put_decimal_ull_width(m, " ", st->ios[MACH_BLK_DISCARD], 8);
	seq_put_decimal_ull_width(m, " ", st->merges[MACH_BLK_DISCARD], 8);
	seq_put_decimal_ull_width(m, " ", st->sectors[MACH_BLK_DISCARD], 8);
	seq_put_decimal_ull_width(m, " ", ms32(st->nsecs[MACH_BLK_DISCARD]), 8);
	seq_put_decimal_ull_width(m, " ", st->ios[MACH_BLK_FLUSH], 8);
	seq_put_decimal_ull_width(m, " ", ms32(st->nsecs[MACH_BLK_FLUSH]), 8);
	seq_putc(m, '\n');
	return 0;
}

/* part_inflight_show: reads and writes in flight, "%8u %8u\n". */
int pfs_show_blk_inflight(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_blk_stats *st = &blk(c)->st;

	(void)v;
	seq_put_decimal_ull_width(m, "", st->in_flight[0], 8);
	seq_put_decimal_ull_width(m, " ", st->in_flight[1], 8);
	seq_putc(m, '\n');
	return 0;
}

/* dev_show: print_dev_t, "MAJ:MIN\n". */
int pfs_show_blk_dev(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_blkdev *b = blk(c);

	(void)v;
	seq_put_decimal_ull(m, "", b->major);
	seq_put_decimal_ull(m, ":", b->minor);
	seq_putc(m, '\n');
	return 0;
}

/* part_size_show: bdev_nr_sectors, in 512-byte sectors whatever the block size. */
int pfs_show_blk_size(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_put_decimal_ull(m, "", blk(c)->nr_sects);
	seq_putc(m, '\n');
	return 0;
}

/* dev_uevent's MAJOR, MINOR, DEVNAME, DEVTYPE; block_uevent's DISKSEQ; part_uevent's PARTN. */
int pfs_show_blk_uevent(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_blkdev *b = blk(c);

	(void)v;
	seq_put_decimal_ull(m, "MAJOR=", b->major);
	seq_put_decimal_ull(m, "\nMINOR=", b->minor);
	seq_puts(m, "\nDEVNAME=");
	seq_puts(m, b->name);
	seq_puts(m, b->partno ? "\nDEVTYPE=partition" : "\nDEVTYPE=disk");
	seq_put_decimal_ull(m, "\nDISKSEQ=", disk_of(c, b)->sysfs->diskseq);
	if (b->partno)
		seq_put_decimal_ull(m, "\nPARTN=", b->partno);
	seq_putc(m, '\n');
	return 0;
}

/* __disk_events_show: the names of the events set, space-separated; nothing at all for none. */
static void disk_events_show(struct seq_file *m, unsigned int events)
{
	static const char *const names[] = { "media_change", "eject_request" };
	const char *delim = "";

	for (unsigned int i = 0; i < 2; i++)
		if (events & (1u << i)) {
			seq_puts(m, delim);
			seq_puts(m, names[i]);
			delim = " ";
		}
	if (*delim)
		seq_putc(m, '\n');
}

/* The integer attributes: "%d\n", "%llu\n" or "%ld\n" as each show prints. */
static bool show_number(struct seq_file *m, const struct mach_blkdev *b, const struct mach_blk_sysfs *d,
			enum pfs_blk_attr a)
{
	const struct mach_blk_sysfs *own = b->sysfs;

	switch (a) {
	case PFS_BA_RO: seq_put_decimal_ull(m, "", own->ro); break;
	case PFS_BA_REMOVABLE: seq_put_decimal_ull(m, "", d->removable); break;
	case PFS_BA_HIDDEN: seq_put_decimal_ull(m, "", b->hidden); break;
	case PFS_BA_RANGE: seq_put_decimal_ull(m, "", d->minors); break;
	case PFS_BA_EXT_RANGE: seq_put_decimal_ull(m, "", d->ext_range); break;
	case PFS_BA_CAPABILITY: seq_putc(m, '0'); break; /* deprecated: always 0 since 6.2 */
	case PFS_BA_ALIGNMENT_OFFSET: seq_put_decimal_ll(m, "", own->alignment_offset); break;
	case PFS_BA_DISCARD_ALIGNMENT: seq_put_decimal_ll(m, "", own->discard_alignment); break;
	case PFS_BA_DISKSEQ: seq_put_decimal_ull(m, "", d->diskseq); break;
	case PFS_BA_PARTSCAN: seq_put_decimal_ull(m, "", d->partscan); break;
	case PFS_BA_EVENTS_POLL_MSECS: seq_put_decimal_ll(m, "", d->events_poll_msecs); break;
	case PFS_BA_PARTITION: seq_put_decimal_ull(m, "", b->partno); break;
	case PFS_BA_START: seq_put_decimal_ull(m, "", b->start_sect); break;
	case PFS_BA_DM_SUSPENDED: seq_put_decimal_ull(m, "", d->dm_suspended); break;
	case PFS_BA_LOOP_OFFSET: seq_put_decimal_ull(m, "", d->loop_offset); break;
	case PFS_BA_LOOP_SIZELIMIT: seq_put_decimal_ull(m, "", d->loop_sizelimit); break;
	case PFS_BA_LOOP_AUTOCLEAR: seq_put_decimal_ull(m, "", d->loop_autoclear); break;
	case PFS_BA_LOOP_PARTSCAN: seq_put_decimal_ull(m, "", d->loop_partscan); break;
	case PFS_BA_LOOP_DIO: seq_put_decimal_ull(m, "", d->loop_dio); break;
	default: return false;
	}
	seq_putc(m, '\n');
	return true;
}

int pfs_show_blk_attr(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_blkdev *b = blk(c), *disk = disk_of(c, b);
	const struct mach_blk_sysfs *d = disk->sysfs;

	(void)v;
	if (show_number(m, b, d, (enum pfs_blk_attr)c->arg))
		return 0;
	switch ((enum pfs_blk_attr)c->arg) {
	case PFS_BA_EVENTS:
		disk_events_show(m, d->events);
		break;
	case PFS_BA_EVENTS_ASYNC:
		break; /* disk_events_async_show: always empty */
	case PFS_BA_CACHE_TYPE:
		seq_puts(m, d->write_back ? "write back\n" : "write through\n");
		break;
	case PFS_BA_SERIAL:
		seq_puts(m, d->serial ? d->serial : ""); /* virtio's serial_show: no newline */
		break;
	case PFS_BA_DM_NAME:
		seq_puts(m, disk->dm_name);
		seq_putc(m, '\n');
		break;
	case PFS_BA_DM_UUID:
		seq_puts(m, d->dm_uuid ? d->dm_uuid : "");
		seq_putc(m, '\n');
		break;
	case PFS_BA_LOOP_BACKING_FILE:
		seq_puts(m, disk->backing_file ? disk->backing_file : "");
		seq_putc(m, '\n');
		break;
	default:
		break;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The device under a disk (device/)                                    */

bool pfs_blk_hw_shown(enum mach_blk_kind kind, enum pfs_blk_hw_attr a)
{
	switch (kind) {
	case MACH_BLK_VIRTIO:
		return a == PFS_HW_DEVICE || a == PFS_HW_VENDOR || a == PFS_HW_FEATURES || a == PFS_HW_MODALIAS ||
		       a == PFS_HW_STATUS;
	case MACH_BLK_NVME:
		return a == PFS_HW_MODEL || a == PFS_HW_SERIAL || a == PFS_HW_FIRMWARE_REV || a == PFS_HW_STATE ||
		       a == PFS_HW_TRANSPORT;
	case MACH_BLK_SCSI:
		return a == PFS_HW_VENDOR || a == PFS_HW_MODEL || a == PFS_HW_REV || a == PFS_HW_STATE ||
		       a == PFS_HW_TYPE;
	default:
		return false;
	}
}

const struct mach_blkdev *pfs_blk_hw_disk(const struct pfs_ctx *c)
{
	const struct mach_machine *mach = c->mach;
	uint32_t i = pfs_obj_index(c->inst), d = i >> PFS_OBJ_DEPTH_BITS, k = i & ((1u << PFS_OBJ_DEPTH_BITS) - 1);
	const struct mach_blkdev *b;
	const char *dir;
	size_t len, comps = 1;

	if (pfs_obj_type(c->inst) != PFS_OBJ_DEVDIR || d >= mach->sys.nblk)
		return NULL;
	b = &mach->sys.blk[d];
	if (b->partno || !b->sysfs || !b->sysfs->dir || !mach_blk_has_device(b->sysfs->dir))
		return NULL;
	/* the directory at depth k is the disk's parent device */
	dir = b->sysfs->dir;
	len = mach_blk_parent_len(dir);
	for (size_t p = 0; p < len; p++)
		comps += dir[p] == '/';
	return comps == k + 1 ? b : NULL;
}

/* Strings as the device reports them, then a newline (the nvme and scsi shows). */
static void put_line(struct seq_file *m, const char *s)
{
	seq_puts(m, s);
	seq_putc(m, '\n');
}

int pfs_show_blk_hw(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_blkdev *d = pfs_blk_hw_disk(c);
	const struct mach_blk_hw *hw = &d->sysfs->hw;

	(void)v;
	switch ((enum pfs_blk_hw_attr)c->arg) {
	case PFS_HW_DEVICE:
		seq_printf(m, "0x%04x\n", hw->virtio_device);
		break;
	case PFS_HW_VENDOR:
		if (d->kind == MACH_BLK_VIRTIO)
			seq_printf(m, "0x%04x\n", hw->virtio_vendor);
		else
			put_line(m, hw->vendor);
		break;
	case PFS_HW_FEATURES:
		/* features_show: one '0' or '1' per feature bit, lowest first */
		for (unsigned int i = 0; i < 64 * MACH_VIRTIO_FEATURE_WORDS; i++)
			seq_putc(m, (hw->virtio_features[i / 64] >> (i % 64)) & 1 ? '1' : '0');
		seq_putc(m, '\n');
		break;
	case PFS_HW_MODALIAS:
		seq_printf(m, "virtio:d%08Xv%08X\n", hw->virtio_device, hw->virtio_vendor);
		break;
	case PFS_HW_STATUS:
		seq_printf(m, "0x%08x\n", hw->virtio_status);
		break;
	case PFS_HW_MODEL: put_line(m, hw->model); break;
	case PFS_HW_REV: put_line(m, hw->rev); break;
	case PFS_HW_SERIAL: put_line(m, hw->serial); break;
	case PFS_HW_FIRMWARE_REV: put_line(m, hw->firmware_rev); break;
	case PFS_HW_STATE: put_line(m, hw->state); break;
	case PFS_HW_TRANSPORT: put_line(m, hw->transport); break;
	case PFS_HW_TYPE:
		seq_put_decimal_ll(m, "", hw->scsi_type);
		seq_putc(m, '\n');
		break;
	default:
		break;
	}
	return 0;
}
