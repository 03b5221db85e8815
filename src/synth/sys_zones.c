// SPDX-License-Identifier: MIT
/*
 * sys_zones.c - a synthetic machine's memory nodes and zones, agreeing with
 * meminfo and vmstat as the page allocator's accounting makes them agree.
 *
 * RAM below 16 MiB is DMA, below 4 GiB DMA32 (minus the PCI hole), the rest
 * Normal, spread over the NUMA nodes; Movable and Device are empty.  The
 * zones' managed pages add up to MemTotal and their free pages to MemFree
 * (vmstat's nr_free_pages): the page allocator keeps free pages in the
 * buddy lists, so each zone's free blocks of each order add up to its free
 * pages, and those in blocks of a pageblock or more to nr_free_pages_blocks.
 * The LRU and NUMA counters sit in the zones the page cache and anonymous
 * memory come from; the node counters are vmstat's, split over the nodes.
 * Watermarks follow min_free_kbytes as khugepaged raises it, protection the
 * lowmem reserve ratios, pagesets the zone sizes and the node's CPUs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "synth_int.h"

#define PAGEBLOCK 512u                 /* pageblock_nr_pages: order 9 */
#define DMA_PAGES 3840u                /* managed below 16 MiB on x86 */
#define DMA32_SPAN 1044480u            /* pfn 4096 to 4 GiB */
#define NORMAL_START 1048576u          /* pfn of 4 GiB */

static const unsigned int reserve_ratio[MACH_NR_ZONE_TYPES] = { 256, 256, 32, 0, 0 };

static unsigned int fls32(uint64_t v)
{
	unsigned int n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

/* How the managed pages fall into zones: DMA and DMA32 on node 0, Normal over the nodes. */
static void zone_sizes(struct synth *s, struct rng *r)
{
	struct mach_sys *sys = &s->m->sys;
	uint64_t total = s->m->meminfo[MACH_MEMINFO_MEMTOTAL] / 4, dma32, left, pfn = NORMAL_START;

	dma32 = total > DMA_PAGES + 800000 ? rng_range(r, 735000, 773000) : total - DMA_PAGES;
	left = total - DMA_PAGES - dma32;
	sys->nodes[0].zones[MACH_ZONE_DMA] = (struct mach_zone){ .managed = DMA_PAGES, .present = 3998,
								 .spanned = 4095, .start_pfn = 1 };
	sys->nodes[0].zones[MACH_ZONE_DMA32] = (struct mach_zone){
		.managed = dma32, .present = dma32 + dma32 / 80, .spanned = DMA32_SPAN, .start_pfn = 4096 };
	for (unsigned int n = 0; n < sys->nnodes; n++) {
		struct mach_zone *z = &sys->nodes[n].zones[MACH_ZONE_NORMAL];
		uint64_t share = n + 1 < sys->nnodes ? left / sys->nnodes : left - left / sys->nnodes * (sys->nnodes - 1);

		if (!share)
			continue;
		z->managed = share;
		z->present = share + share / 60 + rng_below(r, 4096);
		z->spanned = z->present;
		z->start_pfn = pfn;
		pfn = (pfn + z->spanned + 262143) / 262144 * 262144;
	}
}

/* Split @total over the @n weights, the last non-zero weight taking the rounding. */
static void split(uint64_t total, const double *w, unsigned int n, uint64_t *out)
{
	double sum = 0;
	uint64_t given = 0;
	unsigned int last = n;

	for (unsigned int i = 0; i < n; i++) {
		sum += w[i];
		if (w[i] > 0)
			last = i;
	}
	for (unsigned int i = 0; i < n; i++) {
		out[i] = sum > 0 && i != last ? (uint64_t)((double)total * w[i] / sum) : 0;
		given += out[i];
	}
	if (last < n)
		out[last] = total - given;
}

/* Free pages of each zone: DMA nearly all free, DMA32 mostly, Normal what is left; within managed. */
static void free_pages(struct synth *s, struct rng *r, struct mach_zone **zones, const unsigned char *type,
		       unsigned int nz)
{
	uint64_t left = s->m->vmstat[MACH_VMSTAT_NR_FREE_PAGES], normal = 0, start;
	unsigned int last = nz;

	for (unsigned int i = 0; i < nz; i++) {
		struct mach_zone *z = zones[i];
		uint64_t want;

		if (type[i] == MACH_ZONE_NORMAL) {
			normal += z->managed;
			last = i;
			continue;
		}
		want = type[i] == MACH_ZONE_DMA ? z->managed - rng_below(r, 64)
						: (uint64_t)((double)z->managed * rng_uniform(r, 0.5, 0.97));
		z->pages_free = want < left ? want : left;
		left -= z->pages_free;
	}
	start = left;
	for (unsigned int i = 0; i < nz && normal; i++) {
		struct mach_zone *z = zones[i];
		uint64_t want = i == last ? left : (uint64_t)((double)start * (double)z->managed / (double)normal);

		if (type[i] != MACH_ZONE_NORMAL)
			continue;
		z->pages_free = want < z->managed ? want : z->managed;
		left -= z->pages_free;
	}
	/* what the Normal zones cannot hold stays in the low zones */
	for (unsigned int i = 0; i < nz && left; i++) {
		uint64_t room = zones[i]->managed - zones[i]->pages_free, add = room < left ? room : left;

		zones[i]->pages_free += add;
		left -= add;
	}
}

/* The buddy lists of a zone: blocks of a pageblock or more, and the rest in smaller orders. */
static void buddy(struct mach_zone *z, struct rng *r)
{
	uint64_t blocks = (uint64_t)((double)z->pages_free * rng_uniform(r, 0.75, 0.95)) / PAGEBLOCK * PAGEBLOCK, rest;

	z->free_area[10] = (uint64_t)((double)blocks * rng_uniform(r, 0.6, 1.0)) / 1024;
	z->free_area[9] = (blocks - z->free_area[10] * 1024) / PAGEBLOCK;
	rest = z->pages_free - blocks;
	for (int o = 8; o >= 1; o--) {
		z->free_area[o] = (uint64_t)((double)rest * rng_uniform(r, 0.05, 0.3)) >> o;
		rest -= z->free_area[o] << o;
	}
	z->free_area[0] = rest;
	z->stat[MACH_VMSTAT_NR_FREE_PAGES] = z->pages_free;
	z->stat[MACH_VMSTAT_NR_FREE_PAGES_BLOCKS] = blocks;
}

/* min_free_kbytes as khugepaged raises it, shared by managed pages; low, high, promo above it. */
static void watermarks(struct synth *s, struct mach_zone **zones, unsigned int nz)
{
	uint64_t managed = s->m->meminfo[MACH_MEMINFO_MEMTOTAL] / 4, npop = 0, min_pages, root = 1;

	for (unsigned int i = 0; i < nz; i++)
		npop += mach_zone_populated(zones[i]);
	/* int_sqrt(lowmem_kbytes * 16), or pageblocks for THP: 2 per zone, and 9 for the pcp types */
	while ((root + 1) * (root + 1) <= managed * 4 * 16)
		root++;
	min_pages = root / 4 > PAGEBLOCK * 11 * npop ? root / 4 : PAGEBLOCK * 11 * npop;
	for (unsigned int i = 0; i < nz; i++) {
		struct mach_zone *z = zones[i];
		uint64_t min = min_pages * z->managed / managed, delta = min / 4 > z->managed * 10 / 10000 ? min / 4
												     : z->managed * 10 / 10000;

		z->wmark_min = min;
		z->wmark_low = min + delta;
		z->wmark_high = min + 2 * delta;
		z->wmark_promo = min + 3 * delta;
	}
}

static void lowmem_reserve(struct mach_mem_node *n, unsigned int ntypes)
{
	for (unsigned int i = 0; i + 1 < ntypes; i++) {
		uint64_t upper = 0;

		for (unsigned int j = i + 1; j < ntypes; j++) {
			upper += n->zones[j].managed;
			n->zones[i].lowmem_reserve[j] =
				reserve_ratio[i] && n->zones[i].managed ? (long)(upper / reserve_ratio[i]) : 0;
		}
	}
	/* an empty Movable zone still keeps SWAP_CLUSTER_MAX pages as its minimum */
	n->zones[MACH_ZONE_MOVABLE].wmark_min = n->zones[MACH_ZONE_MOVABLE].wmark_low = 32;
	n->zones[MACH_ZONE_MOVABLE].wmark_high = n->zones[MACH_ZONE_MOVABLE].wmark_promo = 32;
}

/*
 * The zone counters but the free ones: where used pages are, so in the
 * Normal zones (DMA32 when there are none), by their used pages.
 */
static void zone_counters(struct synth *s, struct mach_zone **zones, const unsigned char *type, unsigned int nz)
{
	const struct mach_sys_profile *prof = &s->m->profile.sys;
	bool normal = false;
	double w[4096];
	uint64_t out[4096];

	for (unsigned int i = 0; i < nz; i++)
		normal |= type[i] == MACH_ZONE_NORMAL;
	for (unsigned int i = 0; i < nz; i++)
		w[i] = type[i] == (normal ? MACH_ZONE_NORMAL : MACH_ZONE_DMA32)
			       ? (double)(zones[i]->managed - zones[i]->pages_free) + 1
			       : 0;
	for (unsigned int k = 0; k < prof->nzone_items; k++) {
		enum mach_vmstat_id id = prof->zone_items[k];

		if (id == MACH_VMSTAT_NR_FREE_PAGES || id == MACH_VMSTAT_NR_FREE_PAGES_BLOCKS)
			continue;
		split(s->m->vmstat[id], w, nz, out);
		for (unsigned int i = 0; i < nz; i++)
			zones[i]->stat[id] = out[i];
	}
}

/* vmstat's node counters over the nodes, by their used pages. */
static void node_counters(struct synth *s)
{
	struct mach_sys *sys = &s->m->sys;
	const struct mach_sys_profile *prof = &s->m->profile.sys;
	double w[1024];
	uint64_t out[1024];

	for (unsigned int n = 0; n < sys->nnodes; n++) {
		w[n] = 1;
		for (unsigned int t = 0; t < MACH_NR_ZONE_TYPES; t++)
			w[n] += (double)(sys->nodes[n].zones[t].managed - sys->nodes[n].zones[t].pages_free);
	}
	for (unsigned int k = 0; k < prof->nnode_items; k++) {
		enum mach_vmstat_id id = prof->node_items[k];

		split(s->m->vmstat[id], w, sys->nnodes, out);
		for (unsigned int n = 0; n < sys->nnodes; n++)
			sys->nodes[n].stat[id] = out[n];
	}
}

/* Each online CPU's page lists: zone_batchsize, zone_highsize over the node's CPUs. */
static int pagesets(struct synth *s, struct rng *r, struct mach_mem_node *n, unsigned int node_cpus,
		    const struct mach_bitmap *cpus)
{
	unsigned int online = 0, split_cpus = node_cpus ? node_cpus : 1;

	for (unsigned int c = 0; c < s->m->ncpus; c++)
		online += s->m->cpus[c].online;
	for (unsigned int t = 0; t < MACH_NR_ZONE_TYPES; t++) {
		struct mach_zone *z = &n->zones[t];
		uint64_t b = (z->managed >> 10) < 256 ? z->managed >> 10 : 256;
		int batch, min4, thr;

		if (!mach_zone_populated(z))
			continue;
		b = b / 4 ? b / 4 : 1;
		b += b / 2;
		while (b & (b - 1))
			b &= b - 1;
		batch = b > 1 ? (int)b - 1 : 1;
		min4 = batch << 2;
		thr = (int)(2 * fls32(online) * (1 + fls32(z->managed >> 15)));
		z->pagesets = calloc(node_cpus ? node_cpus : 1, sizeof(*z->pagesets));
		if (!z->pagesets)
			return -ENOMEM;
		for (unsigned int c = 0; c < s->m->ncpus; c++) {
			struct mach_pageset *p;

			if (!s->m->cpus[c].online || !mach_bitmap_test(cpus, c))
				continue;
			p = &z->pagesets[z->npagesets++];
			p->cpu = s->m->cpus[c].id;
			p->batch = batch;
			p->high_min = (int)(z->wmark_low / split_cpus) > min4 ? (int)(z->wmark_low / split_cpus) : min4;
			p->high_max = (int)(z->managed / 8 / split_cpus) > min4 ? (int)(z->managed / 8 / split_cpus) : min4;
			p->high = t == MACH_ZONE_DMA || rng_chance(r, 0.2) ? 0 : p->high_min + (int)rng_below(r, (uint64_t)(p->high_max - p->high_min) / 8 + 1);
			p->count = p->high ? (int)rng_below(r, (uint64_t)p->high + 1) : 0;
			p->stat_threshold = thr < 125 ? thr : 125;
		}
	}
	return 0;
}

int sy_build_zones(struct synth *s)
{
	struct mach_sys *sys = &s->m->sys;
	struct mach_zone *zones[4096];
	unsigned char type[4096];
	unsigned int nz = 0;
	uint64_t blocks = 0;
	struct rng r;
	int rc = 0;

	rng_init(&r, s->o->seed, KEY_ZONES);
	sys->nnodes = s->nnodes < 1024 ? (s->nnodes ? s->nnodes : 1) : 1024;
	sys->nodes = calloc(sys->nnodes, sizeof(*sys->nodes));
	if (!sys->nodes)
		return -ENOMEM;
	for (unsigned int n = 0; n < sys->nnodes; n++)
		sys->nodes[n].id = n;
	zone_sizes(s, &r);
	for (unsigned int n = 0; n < sys->nnodes; n++)
		for (unsigned int t = 0; t < MACH_NR_ZONE_TYPES; t++)
			if (mach_zone_populated(&sys->nodes[n].zones[t]) && nz < 4096) {
				zones[nz] = &sys->nodes[n].zones[t];
				type[nz++] = (unsigned char)t;
			}
	free_pages(s, &r, zones, type, nz);
	for (unsigned int i = 0; i < nz; i++) {
		buddy(zones[i], &r);
		blocks += zones[i]->stat[MACH_VMSTAT_NR_FREE_PAGES_BLOCKS];
	}
	s->m->vmstat[MACH_VMSTAT_NR_FREE_PAGES_BLOCKS] = blocks;
	zone_counters(s, zones, type, nz);
	node_counters(s);
	watermarks(s, zones, nz);
	for (unsigned int n = 0; n < sys->nnodes && !rc; n++) {
		struct mach_bitmap cpus;
		unsigned int ncpu = 0;

		lowmem_reserve(&sys->nodes[n], s->m->profile.sys.nzone_types);
		if ((rc = mach_bitmap_alloc(&cpus, s->m->ncpus)))
			break;
		sy_bitmap_set_node_cpus(s, &cpus, n);
		for (unsigned int c = 0; c < s->m->ncpus; c++)
			ncpu += mach_bitmap_test(&cpus, c) && s->m->cpus[c].online;
		rc = pagesets(s, &r, &sys->nodes[n], ncpu, &cpus);
		mach_bitmap_free(&cpus);
	}
	return rc;
}
