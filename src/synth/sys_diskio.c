// SPDX-License-Identifier: MIT
/*
 * sys_diskio.c - the block devices' I/O counters since boot, agreeing with
 * vmstat the way the kernel's accounting makes them agree.
 *
 * submit_bio counts every read and write it is given in pgpgin and pgpgout
 * (KiB): that is the I/O of the top devices (mach_blk_is_top), the root
 * filesystem's device, /boot, the swap LV, the loop devices of snaps.  So
 * their sectors add up to twice vmstat's counts: the root gets what the
 * others leave.  Below a device-mapper device its partition sees the same
 * sectors in requests that merged; a disk counts what its partitions count.
 * Times follow each kind's latency, io_ticks the busy share of the uptime,
 * discards the weekly fstrim of an SSD, flushes a share of the writes.
 */
#include <stdlib.h>
#include <string.h>

#include "synth_int.h"

/* Request latency of a device kind, ns: reads, writes, flushes. */
static void latency(enum mach_blk_kind k, struct rng *r, double ns[3])
{
	switch (k) {
	case MACH_BLK_NVME:
		ns[0] = rng_uniform(r, 60e3, 160e3), ns[1] = rng_uniform(r, 20e3, 70e3);
		ns[2] = rng_uniform(r, 100e3, 2e6);
		break;
	case MACH_BLK_SCSI:
		ns[0] = rng_uniform(r, 150e3, 450e3), ns[1] = rng_uniform(r, 60e3, 300e3);
		ns[2] = rng_uniform(r, 1e6, 8e6);
		break;
	case MACH_BLK_LOOP:
		ns[0] = rng_uniform(r, 20e3, 90e3), ns[1] = ns[0], ns[2] = 0;
		break;
	default:
		ns[0] = rng_uniform(r, 120e3, 500e3), ns[1] = rng_uniform(r, 80e3, 400e3);
		ns[2] = rng_uniform(r, 400e3, 3e6);
		break;
	}
}

/* @bios of @sectors in group @g, as requests of a device that merges @mf per request. */
static void add_requests(struct mach_blk_stats *st, int g, uint64_t bios, uint64_t sectors, double mf, double ns)
{
	uint64_t merges = mf > 0 ? (uint64_t)((double)bios * mf / (1 + mf)) : 0;

	st->ios[g] += bios - merges;
	st->merges[g] += merges;
	st->sectors[g] += sectors;
	st->nsecs[g] += (uint64_t)((double)(bios - merges) * ns);
}

/* The sectors each top device read or wrote: @total shared by weight, the root taking the rest. */
static void share(struct synth *s, struct rng *r, uint64_t total, bool write, uint64_t *out)
{
	struct mach_sys *sys = &s->m->sys;
	uint64_t given = 0;

	for (size_t i = 0; i < sys->nblk; i++) {
		const struct mach_blkdev *b = &sys->blk[i];
		double w = 0;

		out[i] = 0;
		if ((int)i == sys->root_blk || !mach_blk_is_top(sys, i) || !b->nr_sects)
			continue;
		if (b->kind == MACH_BLK_LOOP)
			w = write ? 0 : (double)b->nr_sects * rng_uniform(r, 0.1, 1.2);
		else if (!strcmp(b->dm_name, "ubuntu--vg-swap_1"))
			w = (double)(write ? s->m->vmstat[MACH_VMSTAT_PSWPOUT] : s->m->vmstat[MACH_VMSTAT_PSWPIN]) * 8;
		else if (b->partno == 1 && b->nr_sects < 4 * 2097152ull)
			w = rng_uniform(r, 600, 3000) * (write ? 0.05 : 1);
		else if (b->partno == 2 && b->nr_sects <= 4194304)
			w = rng_uniform(r, 8000, 60000) * (write ? 2 : 1);
		else
			w = (double)total * rng_uniform(r, 0.05, 0.4);
		out[i] = (uint64_t)w;
		if (given + out[i] > total)
			out[i] = total - given;
		given += out[i];
	}
	if (sys->root_blk >= 0)
		out[sys->root_blk] = total - given;
}

/* A top device's requests, and what they are below it. */
static void top_io(struct synth *s, struct rng *r, size_t i, const uint64_t *rd, const uint64_t *wr)
{
	struct mach_sys *sys = &s->m->sys;
	struct mach_blkdev *b = &sys->blk[i];
	struct mach_blkdev *low = b->kind == MACH_BLK_DM && b->slave >= 0 ? &sys->blk[b->slave] : NULL;
	double lat[3], rmf = rng_uniform(r, 0.02, 0.2), wmf = rng_uniform(r, 0.3, b->kind == MACH_BLK_VIRTIO ? 30 : 4);
	uint64_t rbios = rd[i] / (uint64_t)rng_range(r, 16, 96), wbios = wr[i] / (uint64_t)rng_range(r, 16, 160);
	uint64_t flushes = (uint64_t)((double)wbios * rng_uniform(r, 0.005, 0.05));

	if (rd[i] && !rbios)
		rbios = 1;
	if (wr[i] && !wbios)
		wbios = 1;
	latency(low ? low->kind : b->kind, r, lat);
	if (low) {
		/* device-mapper passes bios on unmerged; its partition's queue merges them */
		add_requests(&b->st, MACH_BLK_READ, rbios, rd[i], 0, lat[0] * 1.05);
		add_requests(&b->st, MACH_BLK_WRITE, wbios, wr[i], 0, lat[1] * 1.05);
		add_requests(&low->st, MACH_BLK_READ, rbios, rd[i], rmf, lat[0]);
		add_requests(&low->st, MACH_BLK_WRITE, wbios, wr[i], wmf, lat[1]);
	} else {
		add_requests(&b->st, MACH_BLK_READ, rbios, rd[i], rmf, lat[0]);
		add_requests(&b->st, MACH_BLK_WRITE, wbios, wr[i], b->kind == MACH_BLK_LOOP ? 0 : wmf, lat[1]);
	}
	if (b->kind == MACH_BLK_LOOP)
		return;
	for (struct mach_blkdev *d = b; d; d = d == b ? low : NULL) {
		d->st.ios[MACH_BLK_FLUSH] += flushes;
		d->st.nsecs[MACH_BLK_FLUSH] += (uint64_t)((double)flushes * lat[2]);
	}
}

/* fstrim.timer: weekly discards of the root filesystem's free space on an SSD. */
static void trims(struct synth *s, struct rng *r)
{
	struct mach_sys *sys = &s->m->sys;
	uint64_t weeks = s->now / (7 * 86400ull * 1000000000ull);
	struct mach_blkdev *root, *low;
	uint64_t ios, sectors;

	if (sys->root_blk < 0 || !weeks)
		return;
	root = &sys->blk[sys->root_blk];
	low = root->slave >= 0 ? &sys->blk[root->slave] : NULL;
	if (!low || (low->kind != MACH_BLK_NVME && low->kind != MACH_BLK_SCSI))
		return;
	ios = weeks * rng_range(r, 20, 400);
	sectors = weeks * root->nr_sects / 4 * (uint64_t)rng_range(r, 1, 3) / 8 / 8 * 8;
	for (struct mach_blkdev *d = root; d; d = d == root ? low : NULL) {
		d->st.ios[MACH_BLK_DISCARD] += ios;
		d->st.sectors[MACH_BLK_DISCARD] += sectors;
		d->st.nsecs[MACH_BLK_DISCARD] += ios * rng_range(r, 200000, 3000000);
	}
}

/* Busy jiffies: the requests' time over the concurrency they had, within the uptime. */
static uint64_t busy_jiffies(const struct synth *s, const struct mach_blk_stats *st, struct rng *r)
{
	unsigned int hz = s->m->profile.sys.hz;
	uint64_t up = s->now / (1000000000ull / hz), ns = 0, j;

	for (int g = 0; g < MACH_NR_BLK_GROUPS; g++)
		ns += st->nsecs[g];
	j = (uint64_t)((double)ns / rng_uniform(r, 1.2, 3.0)) / (1000000000ull / hz);
	return j < up * 9 / 10 ? j : up * 9 / 10;
}

void sy_build_disk_io(struct synth *s)
{
	struct mach_sys *sys = &s->m->sys;
	uint64_t *rd = calloc(sys->nblk + 1, sizeof(*rd)), *wr = calloc(sys->nblk + 1, sizeof(*wr));
	struct rng r;

	rng_init(&r, s->o->seed, KEY_DISKIO);
	if (rd && wr) {
		share(s, &r, 2 * s->m->vmstat[MACH_VMSTAT_PGPGIN], false, rd);
		share(s, &r, 2 * s->m->vmstat[MACH_VMSTAT_PGPGOUT], true, wr);
		for (size_t i = 0; i < sys->nblk; i++)
			if (mach_blk_is_top(sys, i))
				top_io(s, &r, i, rd, wr);
		trims(s, &r);
	}
	free(rd);
	free(wr);
	/* a disk counts what its partitions count; io_ticks last, over everything */
	for (size_t i = 0; i < sys->nblk; i++) {
		struct mach_blkdev *p = &sys->blk[i], *d = &sys->blk[p->disk];

		if (p->partno)
			for (int g = 0; g < MACH_NR_BLK_GROUPS; g++) {
				d->st.ios[g] += p->st.ios[g];
				d->st.merges[g] += p->st.merges[g];
				d->st.sectors[g] += p->st.sectors[g];
				d->st.nsecs[g] += p->st.nsecs[g];
			}
	}
	for (size_t i = 0; i < sys->nblk; i++)
		sys->blk[i].st.io_ticks = busy_jiffies(s, &sys->blk[i].st, &r);
	for (size_t i = 0; i < sys->nblk; i++) {
		struct mach_blkdev *p = &sys->blk[i], *d = &sys->blk[p->disk];

		if (d->st.io_ticks < p->st.io_ticks)
			d->st.io_ticks = p->st.io_ticks;
	}
}
