// SPDX-License-Identifier: MIT
/*
 * load_sys_blkattr.c - what the files of a block device's sysfs directory
 * say (block/genhd.c, block/partitions/core.c, block/blk-sysfs.c,
 * dm-sysfs.c, loop.c, and the device under a disk) into its struct
 * mach_blk_sysfs, or checked against what /proc said of it.
 *
 * stat and inflight print the counters /proc/diskstats printed: read at
 * another moment they may have moved, and then the parse fails with
 * -EAGAIN for the reader to read both again; inflight splits diskstats'
 * one in-flight count into reads and writes.  size refines partitions'
 * KiB to sectors.  The links must lead where the model puts things.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_sys.h"
#include "load_sys_blk.h"

#define NS_PER_MS 1000000u

/* What part_stat_show prints of @st: the 17 numbers of /proc/diskstats. */
static void printed_stat(const struct mach_blk_stats *st, unsigned int hz, uint64_t out[17])
{
	uint64_t all = st->nsecs[0] + st->nsecs[1] + st->nsecs[2] + st->nsecs[3];

	for (int g = 0; g < 2; g++) {
		out[g * 4] = st->ios[g];
		out[g * 4 + 1] = st->merges[g];
		out[g * 4 + 2] = st->sectors[g];
		out[g * 4 + 3] = (uint32_t)(st->nsecs[g] / NS_PER_MS);
	}
	out[8] = (uint32_t)(st->in_flight[0] + st->in_flight[1]);
	out[9] = (uint32_t)(st->io_ticks * 1000u / hz);
	out[10] = (uint32_t)(all / NS_PER_MS);
	out[11] = st->ios[MACH_BLK_DISCARD];
	out[12] = st->merges[MACH_BLK_DISCARD];
	out[13] = st->sectors[MACH_BLK_DISCARD];
	out[14] = (uint32_t)(st->nsecs[MACH_BLK_DISCARD] / NS_PER_MS);
	out[15] = st->ios[MACH_BLK_FLUSH];
	out[16] = (uint32_t)(st->nsecs[MACH_BLK_FLUSH] / NS_PER_MS);
}

/* The newline that ends the file. */
static int eol_eof(struct lex *lx)
{
	int rc = lex_eol(lx);

	return rc ? rc : lex_expect_eof(lx);
}

static int moved(struct lex *lx, const char *what)
{
	snprintf(lx->err, lx->errlen, "%s: %s moved since /proc/diskstats was read", lx->path, what);
	return -EAGAIN;
}

static int stat_file(struct lex *lx, const struct mach_blkdev *b, unsigned int hz)
{
	uint64_t want[17], v;
	int rc;

	printed_stat(&b->st, hz ? hz : 250, want);
	for (int f = 0; f < 17; f++) {
		lex_field(lx, f + 1, NULL);
		if (f && (rc = lex_expect(lx, " ")))
			return rc;
		if ((rc = lex_u64_width(lx, &v, 8))) /* "%8lu" */
			return rc;
		if (v != want[f])
			return moved(lx, "the counters");
	}
	return eol_eof(lx);
}

static int inflight_file(struct lex *lx, struct mach_blkdev *b)
{
	uint64_t r, w;
	int rc;

	/* "%8u %8u\n" */
	if ((rc = lex_u64_width_max(lx, &r, 8, UINT32_MAX)) || (rc = lex_expect(lx, " ")) ||
	    (rc = lex_u64_width_max(lx, &w, 8, UINT32_MAX)) || (rc = lex_eol(lx)) || (rc = lex_expect_eof(lx)))
		return rc;
	if (r + w != (uint64_t)b->st.in_flight[0] + b->st.in_flight[1])
		return moved(lx, "the requests in flight");
	b->st.in_flight[0] = (unsigned int)r;
	b->st.in_flight[1] = (unsigned int)w;
	return 0;
}

/* The size in sectors: /proc/partitions said it in KiB (the odd sector lost), or 0. */
static int size_file(struct lex *lx, struct mach_blkdev *b)
{
	uint64_t v;
	int rc = ld_sys_u64_line(lx, &v, UINT64_MAX >> 9);

	if (rc)
		return rc;
	if (b->nr_sects / 2 != v / 2 || (!b->nr_sects && v))
		return moved(lx, "the size");
	b->nr_sects = v;
	return 0;
}

static int dev_file(struct lex *lx, const struct mach_blkdev *b)
{
	char want[32];

	snprintf(want, sizeof(want), "%u:%u\n", b->major, b->minor);
	if (!lex_accept(lx, want))
		return lex_expected(lx, want);
	return lex_expect_eof(lx);
}

static int uevent_file(struct lex *lx, const struct mach_blkdev *b, struct mach_blk_sysfs *disk)
{
	char head[160];
	uint64_t seq, partn;
	int rc;

	snprintf(head, sizeof(head), "MAJOR=%u\nMINOR=%u\nDEVNAME=%s\nDEVTYPE=%s\nDISKSEQ=", b->major, b->minor, b->name,
		 b->partno ? "partition" : "disk");
	if (!lex_accept(lx, head))
		return lex_expected(lx, "the device's MAJOR, MINOR, DEVNAME, DEVTYPE and DISKSEQ");
	if ((rc = lex_u64(lx, &seq)) || (rc = lex_eol(lx)))
		return rc;
	if (b->partno && ((rc = lex_expect(lx, "PARTN=")) || (rc = lex_u64(lx, &partn)) || (rc = lex_eol(lx))))
		return rc;
	if (b->partno && partn != b->partno)
		return lex_fail(lx, "PARTN=%llu, but %s is partition %u", (unsigned long long)partn, b->name, b->partno);
	if ((rc = lex_expect_eof(lx)))
		return rc;
	if (disk->diskseq && disk->diskseq != seq)
		return lex_fail(lx, "DISKSEQ=%llu, but diskseq said %llu", (unsigned long long)seq,
				(unsigned long long)disk->diskseq);
	disk->diskseq = seq;
	return 0;
}

/* __disk_events_show's names, space-separated; nothing for no events. */
static int events_file(struct lex *lx, unsigned int *events)
{
	unsigned int e = 0;

	while (!lex_eof(lx)) {
		if (lex_accept(lx, "media_change"))
			e |= MACH_DISK_EVENT_MEDIA_CHANGE;
		else if (lex_accept(lx, "eject_request"))
			e |= MACH_DISK_EVENT_EJECT_REQUEST;
		else
			return lex_expected(lx, "media_change or eject_request");
		if (!lex_accept(lx, " ")) {
			int rc = lex_eol(lx);

			if (rc)
				return rc;
			break;
		}
	}
	*events = e;
	return lex_expect_eof(lx);
}

/* A link of a device's directory: where it leads must be where the model puts it. */
static int own_link(struct lex *lx, const char *path, const char *want)
{
	char target[1024], abs[1024];
	size_t n = (size_t)(lx->end - lx->p);

	if (!n || n >= sizeof(target))
		return lex_expected(lx, "a link target");
	memcpy(target, lx->p, n);
	target[n] = '\0';
	if (ld_sys_link_target(path, target, abs, sizeof(abs)) || strcmp(abs, want))
		return lex_fail(lx, "the link leads to %s, not to /sys/%s", target, want);
	lx->p = lx->end;
	return 0;
}

static int links(struct lex *lx, const struct mach_blkdev *b, const struct mach_blk_sysfs *disk, const char *name,
		 const char *path)
{
	char want[1024];

	if (!strcmp(name, "subsystem"))
		return own_link(lx, path, "class/block");
	if (b->partno)
		return -ENOENT;
	if (!strcmp(name, "bdi"))
		snprintf(want, sizeof(want), "devices/virtual/bdi/%u:%u", b->major, b->minor);
	else if (mach_blk_has_device(disk->dir))
		snprintf(want, sizeof(want), "devices/%.*s", (int)mach_blk_parent_len(disk->dir), disk->dir);
	else
		return lex_fail(lx, "%s sits on no device, but has a device link", b->name);
	return own_link(lx, path, want);
}

/* queue/scheduler: "none" and the elevators, the chosen one in brackets, each followed by a space. */
static int scheduler_file(struct lex *lx, struct mach_machine *m, struct mach_blk_sysfs *f)
{
	struct mach_sysfs list = { 0 };
	unsigned int cur = 0, n = 0;

	while (!lex_eof(lx) && !lex_peek(lx, '\n')) {
		char word[20];
		bool chosen = lex_accept(lx, "[");
		int rc = ld_word(lx, word, sizeof(word), "a scheduler");

		if (rc)
			return rc;
		if (chosen && word[strlen(word) - 1] != ']')
			return lex_expected(lx, "]");
		if (chosen)
			word[strlen(word) - 1] = '\0';
		if ((rc = lex_expect(lx, " ")))
			return rc;
		if (!n++ ? strcmp(word, "none") != 0 : list.nelevators == 8)
			return lex_fail(lx, "a scheduler list starts with none and holds at most 8");
		/* the kernel's elevator names fit in 16 bytes (ELV_NAME_MAX): a longer one is no kernel's */
		if (strlen(word) >= sizeof(list.elevators[0]))
			return lex_fail(lx, "a scheduler name longer than %zu bytes", sizeof(list.elevators[0]) - 1);
		if (n > 1)
			memcpy(list.elevators[list.nelevators++], word, strlen(word) + 1);
		if (chosen)
			cur = n - 1;
	}
	if (lex_eol(lx) || lex_expect_eof(lx) || !n)
		return lex_expected(lx, "\"none \" and the schedulers, then a newline");
	/* the elevators are the kernel's: the same list for every queue */
	m->sysfs.nelevators = list.nelevators;
	memcpy(m->sysfs.elevators, list.elevators, sizeof(list.elevators));
	f->elevator = (unsigned char)cur;
	f->mq = true;
	return 0;
}

static int bool_line(struct lex *lx, bool *out)
{
	uint64_t v;
	int rc = ld_sys_u64_line(lx, &v, 1);

	if (!rc)
		*out = v;
	return rc;
}

static int string_choice(struct lex *lx, const char *const *names, unsigned int n, unsigned int *out)
{
	for (unsigned int i = 0; i < n; i++)
		if (lex_accept(lx, names[i])) {
			*out = i;
			return lex_expect_eof(lx);
		}
	return lex_expected(lx, names[0]);
}

static int write_cache(struct lex *lx, struct mach_blk_sysfs *f)
{
	static const char *const names[] = { "write through\n", "write back\n" };
	unsigned int v = 0;
	int rc = string_choice(lx, names, 2, &v);

	if (!rc)
		f->write_back = v;
	return rc;
}

/* queue/NAME: a number, or one of the three that print words. */
static int queue_file(struct lex *lx, struct mach_loader *ld, struct mach_blk_sysfs *f, const char *name)
{
	static const char *const zoned[] = { "none\n", "host-aware\n", "host-managed\n" };
	unsigned int z = 0;
	int rc;

	if (!strcmp(name, "scheduler"))
		return scheduler_file(lx, ld->m, f);
	if (!strcmp(name, "write_cache"))
		return write_cache(lx, f);
	if (!strcmp(name, "zoned")) {
		if (!(rc = string_choice(lx, zoned, 3, &z)))
			f->zoned = (enum mach_blk_zoned)z;
		return rc;
	}
	for (int q = 0; q < MACH_NR_BLKQ; q++) {
		int64_t sv;

		if (strcmp(name, mach_blkq_name((enum mach_blkq)q)))
			continue;
		if (q == MACH_BLKQ_IO_POLL_DELAY) {
			if (!(rc = ld_sys_s64_line(lx, &sv, INT32_MIN, INT32_MAX)))
				f->q[q] = (uint64_t)sv;
		} else {
			rc = ld_sys_u64_line(lx, &f->q[q], UINT64_MAX);
		}
		/* files only request queues, timeouts or zones show */
		f->mq |= q == MACH_BLKQ_NR_REQUESTS || q == MACH_BLKQ_RQ_AFFINITY || q == MACH_BLKQ_WBT_LAT_USEC ||
			 q == MACH_BLKQ_IO_TIMEOUT;
		f->timeout |= q == MACH_BLKQ_IO_TIMEOUT;
		return rc;
	}
	return -ENOENT;
}

/* dm/NAME and loop/NAME of disk @b. */
static int driver_file(struct lex *lx, struct mach_blkdev *b, struct mach_blk_sysfs *f, const char *rest)
{
	const char *n;
	char *s = NULL;
	int rc;

	if ((n = ld_sys_after(rest, "dm/"))) {
		if (!strcmp(n, "name")) {
			if ((rc = ld_sys_string_line(lx, &s)))
				return rc;
			snprintf(b->dm_name, sizeof(b->dm_name), "%s", s);
			rc = strlen(s) < sizeof(b->dm_name) ? 0 : lex_fail(lx, "a device-mapper name too long");
			free(s);
			return rc;
		}
		if (!strcmp(n, "uuid"))
			return ld_sys_string_line(lx, &f->dm_uuid);
		return !strcmp(n, "suspended") ? bool_line(lx, &f->dm_suspended) : -ENOENT;
	}
	if (!(n = ld_sys_after(rest, "loop/")))
		return -ENOENT;
	if (!strcmp(n, "backing_file"))
		return ld_sys_string_line(lx, &b->backing_file);
	if (!strcmp(n, "offset"))
		return ld_sys_u64_line(lx, &f->loop_offset, UINT64_MAX);
	if (!strcmp(n, "sizelimit"))
		return ld_sys_u64_line(lx, &f->loop_sizelimit, UINT64_MAX);
	if (!strcmp(n, "autoclear"))
		return bool_line(lx, &f->loop_autoclear);
	if (!strcmp(n, "partscan"))
		return bool_line(lx, &f->loop_partscan);
	return !strcmp(n, "dio") ? bool_line(lx, &f->loop_dio) : -ENOENT;
}

/* The small numbers of a disk (genhd.c disk_attrs); -ENOENT for other names. */
static int disk_number(struct lex *lx, struct mach_blkdev *b, struct mach_blk_sysfs *f, const char *name)
{
	uint64_t v;
	int64_t sv;
	int rc;

	if (!strcmp(name, "removable"))
		return bool_line(lx, &f->removable);
	if (!strcmp(name, "hidden"))
		return bool_line(lx, &b->hidden);
	if (!strcmp(name, "partscan"))
		return bool_line(lx, &f->partscan);
	if (!strcmp(name, "range") || !strcmp(name, "ext_range")) {
		if (!(rc = ld_sys_u64_line(lx, &v, 1u << 20)))
			*(name[0] == 'r' ? &f->minors : &f->ext_range) = (unsigned int)v;
		return rc;
	}
	if (!strcmp(name, "diskseq"))
		return ld_sys_u64_line(lx, &f->diskseq, UINT64_MAX);
	if (!strcmp(name, "capability"))
		return lex_accept(lx, "0\n") ? lex_expect_eof(lx) : lex_expected(lx, "0 (deprecated since 6.2)");
	if (!strcmp(name, "events_poll_msecs")) {
		if (!(rc = ld_sys_s64_line(lx, &sv, INT64_MIN, INT64_MAX)))
			f->events_poll_msecs = (long)sv;
		return rc;
	}
	if (!strcmp(name, "events"))
		return events_file(lx, &f->events);
	if (!strcmp(name, "events_async"))
		return lex_expect_eof(lx);
	if (!strcmp(name, "cache_type")) {
		f->cache_type = true;
		return write_cache(lx, f);
	}
	if (!strcmp(name, "serial")) {
		free(f->serial);
		f->serial = strndup(lx->p, (size_t)(lx->end - lx->p));
		lx->p = lx->end;
		return f->serial ? 0 : -ENOMEM;
	}
	return -ENOENT;
}

int ld_blk_attr(struct lex *lx, struct mach_loader *ld, size_t i, const char *rest, const char *path)
{
	struct mach_blkdev *b = &ld->m->sys.blk[i];
	struct mach_blk_sysfs *own = b->sysfs, *disk = ld_blk_sysfs(&ld->m->sys.blk[b->disk]);
	uint64_t v;
	int64_t sv;
	int rc;

	if (!disk)
		return -ENOMEM;
	if (!strcmp(rest, "stat"))
		return stat_file(lx, b, ld->m->profile.sys.hz);
	if (!strcmp(rest, "inflight"))
		return inflight_file(lx, b);
	if (!strcmp(rest, "size"))
		return size_file(lx, b);
	if (!strcmp(rest, "dev"))
		return dev_file(lx, b);
	if (!strcmp(rest, "uevent"))
		return uevent_file(lx, b, disk);
	if (!strcmp(rest, "ro"))
		return bool_line(lx, &own->ro);
	if (!strcmp(rest, "alignment_offset") || !strcmp(rest, "discard_alignment")) {
		if (!(rc = ld_sys_s64_line(lx, &sv, INT32_MIN, INT32_MAX)))
			*(rest[0] == 'a' ? &own->alignment_offset : &own->discard_alignment) = (int)sv;
		return rc;
	}
	if (!strcmp(rest, "subsystem") || !strcmp(rest, "bdi") || !strcmp(rest, "device"))
		return links(lx, b, disk, rest, path);
	if (b->partno) {
		if (!strcmp(rest, "partition")) {
			if ((rc = ld_sys_u64_line(lx, &v, 65535)))
				return rc;
			return v == b->partno ? 0 : lex_fail(lx, "partition %llu, but it is %s's %u",
							     (unsigned long long)v, b->name, b->partno);
		}
		return !strcmp(rest, "start") ? ld_sys_u64_line(lx, &b->start_sect, UINT64_MAX >> 9) : -ENOENT;
	}
	if (ld_sys_after(rest, "queue/"))
		return queue_file(lx, ld, disk, rest + 6);
	if (ld_sys_after(rest, "dm/") || ld_sys_after(rest, "loop/"))
		return driver_file(lx, b, disk, rest);
	return disk_number(lx, b, disk, rest);
}

/* ------------------------------------------------------------------ */
/* The device a disk sits on                                            */

static const char *const hw_names[] = { "device", "vendor", "features", "modalias", "status", "model", "rev",
					"serial", "firmware_rev", "state", "transport", "type" };

bool ld_blk_hw_name(const char *name)
{
	for (size_t i = 0; i < sizeof(hw_names) / sizeof(hw_names[0]); i++)
		if (!strcmp(name, hw_names[i]))
			return true;
	return false;
}

/* A string field as the device reports it, up to the newline. */
static int hw_string(struct lex *lx, char *buf, size_t size)
{
	const char *eol = lex_line_end(lx);
	size_t n = (size_t)(eol - lx->p);

	if (eol == lx->end || n >= size)
		return lex_expected(lx, "a line shorter than the field");
	memcpy(buf, lx->p, n);
	buf[n] = '\0';
	lx->p = eol + 1;
	return lex_expect_eof(lx);
}

/* "0x%0*x\n" with @width digits at least. */
static int hex_line(struct lex *lx, uint32_t *out, unsigned int width)
{
	uint64_t v;
	int rc;

	if ((rc = lex_expect(lx, "0x")) || (rc = lex_hex_min(lx, &v, width)) || (rc = lex_eol(lx)) || (rc = lex_expect_eof(lx)))
		return rc;
	if (v > UINT32_MAX)
		return lex_fail(lx, "more than 32 bits");
	*out = (uint32_t)v;
	return 0;
}

/* Eight upper-case hex digits ("%08X"). */
static int upper_hex8(struct lex *lx, uint64_t *out)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++, lx->p++) {
		char ch = lx->p < lx->end ? *lx->p : '\0';

		if (ch >= '0' && ch <= '9')
			v = v << 4 | (uint64_t)(ch - '0');
		else if (ch >= 'A' && ch <= 'F')
			v = v << 4 | (uint64_t)(ch - 'A' + 10);
		else
			return lex_expected(lx, "eight upper-case hex digits");
	}
	*out = v;
	return 0;
}

static int virtio_file(struct lex *lx, struct mach_blk_hw *hw, const char *name)
{
	char want[64];

	if (!strcmp(name, "vendor"))
		return hex_line(lx, &hw->virtio_vendor, 4);
	if (!strcmp(name, "device"))
		return hex_line(lx, &hw->virtio_device, 4);
	if (!strcmp(name, "status"))
		return hex_line(lx, &hw->virtio_status, 8);
	if (!strcmp(name, "modalias")) {
		/* the ids again, read in name order before vendor: what vendor and device then say must agree */
		const char *start = lx->p;
		uint64_t dev = 0, ven = 0; /* set on every path that reads them; -O3 cannot tell */
		int rc;

		if ((rc = lex_expect(lx, "virtio:d")) || (rc = upper_hex8(lx, &dev)) || (rc = lex_expect(lx, "v")) ||
		    (rc = upper_hex8(lx, &ven)) || (rc = eol_eof(lx)))
			return rc;
		if (dev > UINT32_MAX || ven > UINT32_MAX)
			return lex_fail(lx, "an id of more than 32 bits");
		hw->virtio_device = (uint32_t)dev;
		hw->virtio_vendor = (uint32_t)ven;
		snprintf(want, sizeof(want), "virtio:d%08Xv%08X\n", hw->virtio_device, hw->virtio_vendor);
		if ((size_t)(lx->end - start) != strlen(want) || memcmp(start, want, strlen(want)))
			return lex_fail(lx, "expected %.*s in upper-case hex", (int)strlen(want) - 1, want);
		return 0;
	}
	if (strcmp(name, "features"))
		return -ENOENT;
	memset(hw->virtio_features, 0, sizeof(hw->virtio_features));
	for (unsigned int i = 0; i < 64 * MACH_VIRTIO_FEATURE_WORDS; i++) {
		if (lex_accept(lx, "1"))
			hw->virtio_features[i / 64] |= 1ull << (i % 64);
		else if (!lex_accept(lx, "0"))
			return lex_expected(lx, "a 0 or 1 for each of 128 feature bits");
	}
	return eol_eof(lx);
}

int ld_blk_hw(struct lex *lx, struct mach_blkdev *d, const char *name)
{
	struct mach_blk_sysfs *f = ld_blk_sysfs(d);
	struct mach_blk_hw *hw;
	int64_t v;
	int rc;

	if (!f)
		return -ENOMEM;
	hw = &f->hw;
	if (d->kind == MACH_BLK_VIRTIO)
		return virtio_file(lx, hw, name);
	if (!strcmp(name, "type")) {
		if (!(rc = ld_sys_s64_line(lx, &v, 0, 31)))
			hw->scsi_type = (int)v;
		return rc;
	}
	if (!strcmp(name, "vendor"))
		return hw_string(lx, hw->vendor, sizeof(hw->vendor));
	if (!strcmp(name, "model"))
		return hw_string(lx, hw->model, sizeof(hw->model));
	if (!strcmp(name, "rev"))
		return hw_string(lx, hw->rev, sizeof(hw->rev));
	if (!strcmp(name, "serial"))
		return hw_string(lx, hw->serial, sizeof(hw->serial));
	if (!strcmp(name, "firmware_rev"))
		return hw_string(lx, hw->firmware_rev, sizeof(hw->firmware_rev));
	if (!strcmp(name, "state"))
		return hw_string(lx, hw->state, sizeof(hw->state));
	if (!strcmp(name, "transport"))
		return hw_string(lx, hw->transport, sizeof(hw->transport));
	return -ENOENT;
}
