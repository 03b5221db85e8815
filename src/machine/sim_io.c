// SPDX-License-Identifier: MIT
/*
 * sim_io.c - block I/O in the simulator.
 *
 * A task that ends its burst in an io wait has submitted a request, which
 * completes when it wakes: the same activity gives iowait (the CPU idles
 * with a waiter), io pressure (the PSI engine sees the task in iowait) and
 * the devices' counters.  A request goes to a top device (mostly the root
 * filesystem's) and down its stack: a device-mapper device passes it to its
 * partition, a loop device to the file's filesystem, a partition counts on
 * its disk too, as part_stat_add does.  While it is in flight the devices
 * count it in in_flight and their busy time in io_ticks (update_io_ticks);
 * at completion ios, merges, sectors and the time it took go to its group.
 * Each top device it passes through is a submit_bio, counted in vmstat's
 * pgpgin or pgpgout.  Every 5 s the flusher writes back what was dirtied.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim_io.h"
#include "util/splitmix.h"

#define MAX_STACK 8
#define WRITEBACK_EVERY_NS 5000000000ull /* dirty_writeback_centisecs = 500 */

struct req {
	int top;                  /* device index; -1: a free slot */
	int group;                /* MACH_BLK_READ or MACH_BLK_WRITE */
	uint32_t sectors;
	bool flush;               /* a write that ends with a cache flush (fsync) */
	uint64_t start, done;     /* done: when writeback completes it (0: when its task wakes) */
};

struct sim_io {
	struct mach_machine *m;
	uint64_t rng;
	uint64_t jiffy_ns;
	double io;
	size_t ntops;
	int *tops;                /* top devices with a medium, by weight */
	double *cum;              /* cumulative weights of tops */
	uint64_t *busy_rem;       /* per device: busy ns not yet a whole jiffy */
	struct req *reqs;
	size_t nreqs;
	uint64_t next_writeback;
};

static double uniform(struct sim_io *io)
{
	return (double)(util_splitmix64(&io->rng) >> 11) * 0x1p-53;
}

/* @top and the devices beneath it, top first: slaves, then a partition's disk. */
static size_t stack_of(const struct mach_sys *sys, int top, int *out)
{
	size_t n = 0;
	int d = top;

	while (d >= 0 && n < MAX_STACK - 1) {
		out[n++] = d;
		d = sys->blk[d].slave;
	}
	if (n && sys->blk[out[n - 1]].partno) {
		int disk = (int)sys->blk[out[n - 1]].disk;

		out[n++] = disk;
	}
	return n;
}

int sim_io_create(struct mach_machine *m, uint64_t seed, double io_share, struct sim_io **out)
{
	struct mach_sys *sys = &m->sys;
	struct sim_io *io = calloc(1, sizeof(*io));
	double sum = 0, others = 0;

	*out = io;
	if (!io)
		return -ENOMEM;
	io->m = m;
	io->rng = seed ^ 0xd15c5ull;
	io->jiffy_ns = 1000000000ull / (m->profile.sys.hz ? m->profile.sys.hz : 250);
	io->io = io_share;
	io->next_writeback = m->uptime_ns + WRITEBACK_EVERY_NS;
	io->tops = calloc(sys->nblk + 1, sizeof(*io->tops));
	io->cum = calloc(sys->nblk + 1, sizeof(*io->cum));
	io->busy_rem = calloc(sys->nblk + 1, sizeof(*io->busy_rem));
	if (!io->tops || !io->cum || !io->busy_rem)
		return -ENOMEM;
	/* where the I/O went so far is where it goes on; the root gets at least half of it */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < sys->nblk; i++) {
			const struct mach_blk_stats *st = &sys->blk[i].st;
			double w = (double)(st->sectors[MACH_BLK_READ] + st->sectors[MACH_BLK_WRITE]) + 1;

			if (!sys->blk[i].nr_sects || !mach_blk_is_top(sys, i))
				continue;
			if (!pass) {
				others += (int)i == sys->root_blk ? 0 : w;
				continue;
			}
			sum += (int)i == sys->root_blk && w < others ? others : w;
			io->tops[io->ntops] = (int)i;
			io->cum[io->ntops++] = sum;
		}
	return 0;
}

void sim_io_destroy(struct sim_io *io)
{
	if (!io)
		return;
	free(io->tops);
	free(io->cum);
	free(io->busy_rem);
	free(io->reqs);
	free(io);
}

/* A free request slot; -1 when out of memory. */
static int req_slot(struct sim_io *io)
{
	struct req *n;

	for (size_t i = 0; i < io->nreqs; i++)
		if (io->reqs[i].top < 0)
			return (int)i;
	n = realloc(io->reqs, (io->nreqs * 2 + 8) * sizeof(*n));
	if (!n)
		return -1;
	io->reqs = n;
	for (size_t i = io->nreqs; i < io->nreqs * 2 + 8; i++)
		n[i].top = -1;
	io->nreqs = io->nreqs * 2 + 8;
	return req_slot(io);
}

static int submit(struct sim_io *io, int top, int group, uint32_t sectors, uint64_t now, uint64_t done)
{
	struct mach_sys *sys = &io->m->sys;
	int k = req_slot(io), stack[MAX_STACK];
	size_t n = stack_of(sys, top, stack);
	struct req *r;

	if (k < 0)
		return -1;
	r = &io->reqs[k];
	*r = (struct req){ .top = top, .group = group, .sectors = sectors, .start = now, .done = done,
			   .flush = group == MACH_BLK_WRITE && uniform(io) < 0.3 };
	for (size_t i = 0; i < n; i++)
		sys->blk[stack[i]].st.in_flight[group == MACH_BLK_WRITE]++;
	return k;
}

int sim_io_submit(struct sim_io *io, uint64_t now)
{
	double x;
	size_t i = 0;

	if (!io || !io->ntops)
		return -1;
	x = uniform(io) * io->cum[io->ntops - 1];
	while (i + 1 < io->ntops && io->cum[i] < x)
		i++;
	/* a read, or an fsync'd write: 8 to 256 sectors */
	return submit(io, io->tops[i], uniform(io) < 0.75 ? MACH_BLK_READ : MACH_BLK_WRITE,
		      8u << (util_splitmix64(&io->rng) % 6), now, 0);
}

void sim_io_complete(struct sim_io *io, int k, uint64_t now)
{
	struct mach_machine *m;
	struct req *r;
	int stack[MAX_STACK];
	size_t n;

	if (!io || k < 0 || (size_t)k >= io->nreqs || io->reqs[k].top < 0)
		return;
	m = io->m;
	r = &io->reqs[k];
	n = stack_of(&m->sys, r->top, stack);
	for (size_t i = 0; i < n; i++) {
		struct mach_blkdev *b = &m->sys.blk[stack[i]];
		struct mach_blk_stats *st = &b->st;
		/* bio-based device-mapper never merges; a request queue sometimes does */
		bool merged = b->kind != MACH_BLK_DM && uniform(io) < (r->group == MACH_BLK_WRITE ? 0.3 : 0.1);

		st->in_flight[r->group == MACH_BLK_WRITE]--;
		st->ios[r->group]++;
		st->merges[r->group] += merged;
		st->sectors[r->group] += r->sectors;
		st->nsecs[r->group] += now - r->start;
		if (r->flush) {
			st->ios[MACH_BLK_FLUSH]++;
			st->nsecs[MACH_BLK_FLUSH] += (now - r->start) / 8;
		}
		if (mach_blk_is_top(&m->sys, (size_t)stack[i]))
			m->vmstat[r->group == MACH_BLK_READ ? MACH_VMSTAT_PGPGIN : MACH_VMSTAT_PGPGOUT] += r->sectors / 2;
	}
	r->top = -1;
}

/* The flusher: what was dirtied since the last writeback goes to the root's device. */
static void writeback(struct sim_io *io, uint64_t now)
{
	struct mach_machine *m = io->m;
	uint64_t pages = (uint64_t)((5 + 2000 * io->io) * 5 * (0.5 + uniform(io)));
	int root = m->sys.root_blk >= 0 ? m->sys.root_blk : io->ntops ? io->tops[0] : -1;

	if (root < 0)
		return;
	m->vmstat[MACH_VMSTAT_NR_DIRTIED] += pages;
	m->vmstat[MACH_VMSTAT_NR_WRITTEN] += pages;
	for (uint64_t left = pages * 8; left;) {
		uint32_t sectors = left > 1024 ? 1024 : (uint32_t)left;

		submit(io, root, MACH_BLK_WRITE, sectors, now, now + 1000000 + util_splitmix64(&io->rng) % 8000000);
		left -= sectors;
	}
}

void sim_io_tick(struct sim_io *io, uint64_t now, uint64_t dt)
{
	struct mach_sys *sys;

	if (!io || !io->ntops)
		return;
	sys = &io->m->sys;
	for (size_t i = 0; i < sys->nblk; i++) {
		struct mach_blk_stats *st = &sys->blk[i].st;

		if (!st->in_flight[0] && !st->in_flight[1])
			continue;
		io->busy_rem[i] += dt;
		st->io_ticks += io->busy_rem[i] / io->jiffy_ns;
		io->busy_rem[i] %= io->jiffy_ns;
	}
	for (size_t k = 0; k < io->nreqs; k++)
		if (io->reqs[k].top >= 0 && io->reqs[k].done && io->reqs[k].done <= now)
			sim_io_complete(io, (int)k, now);
	while (now >= io->next_writeback) {
		writeback(io, now);
		io->next_writeback += WRITEBACK_EVERY_NS;
	}
}
