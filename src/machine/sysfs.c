// SPDX-License-Identifier: MIT
/*
 * sysfs.c - names, lifetimes and derived facts of what /sys shows beyond
 * /proc (mach_sysfs.h): memory.stat's vocabulary, the queue attributes'
 * names, a block device's place under /sys/devices, and what a cgroup v2
 * group has by its place in the tree (which controllers' state it holds,
 * which tasks are in it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uprocfs/machine.h"

/* ------------------------------------------------------------------ */
/* Vocabularies                                                         */

static const struct {
	const char *name;
	enum mach_memcg_unit unit;
} memcg_items[MACH_NR_MEMCG_ITEMS] = {
	[MACH_MEMCG_ANON] = { "anon", MACH_MEMCG_PAGES },
	[MACH_MEMCG_FILE] = { "file", MACH_MEMCG_PAGES },
	[MACH_MEMCG_KERNEL] = { "kernel", MACH_MEMCG_PAGES },
	[MACH_MEMCG_KERNEL_STACK] = { "kernel_stack", MACH_MEMCG_KB },
	[MACH_MEMCG_PAGETABLES] = { "pagetables", MACH_MEMCG_PAGES },
	[MACH_MEMCG_SEC_PAGETABLES] = { "sec_pagetables", MACH_MEMCG_PAGES },
	[MACH_MEMCG_PERCPU] = { "percpu", MACH_MEMCG_BYTES },
	[MACH_MEMCG_SOCK] = { "sock", MACH_MEMCG_PAGES },
	[MACH_MEMCG_VMALLOC] = { "vmalloc", MACH_MEMCG_PAGES },
	[MACH_MEMCG_SHMEM] = { "shmem", MACH_MEMCG_PAGES },
	[MACH_MEMCG_ZSWAP] = { "zswap", MACH_MEMCG_BYTES },
	[MACH_MEMCG_ZSWAPPED] = { "zswapped", MACH_MEMCG_PAGES },
	[MACH_MEMCG_FILE_MAPPED] = { "file_mapped", MACH_MEMCG_PAGES },
	[MACH_MEMCG_FILE_DIRTY] = { "file_dirty", MACH_MEMCG_PAGES },
	[MACH_MEMCG_FILE_WRITEBACK] = { "file_writeback", MACH_MEMCG_PAGES },
	[MACH_MEMCG_SWAPCACHED] = { "swapcached", MACH_MEMCG_PAGES },
	[MACH_MEMCG_ANON_THP] = { "anon_thp", MACH_MEMCG_PAGES },
	[MACH_MEMCG_FILE_THP] = { "file_thp", MACH_MEMCG_PAGES },
	[MACH_MEMCG_SHMEM_THP] = { "shmem_thp", MACH_MEMCG_PAGES },
	[MACH_MEMCG_INACTIVE_ANON] = { "inactive_anon", MACH_MEMCG_PAGES },
	[MACH_MEMCG_ACTIVE_ANON] = { "active_anon", MACH_MEMCG_PAGES },
	[MACH_MEMCG_INACTIVE_FILE] = { "inactive_file", MACH_MEMCG_PAGES },
	[MACH_MEMCG_ACTIVE_FILE] = { "active_file", MACH_MEMCG_PAGES },
	[MACH_MEMCG_UNEVICTABLE] = { "unevictable", MACH_MEMCG_PAGES },
	[MACH_MEMCG_SLAB_RECLAIMABLE] = { "slab_reclaimable", MACH_MEMCG_BYTES },
	[MACH_MEMCG_SLAB_UNRECLAIMABLE] = { "slab_unreclaimable", MACH_MEMCG_BYTES },
	[MACH_MEMCG_HUGETLB] = { "hugetlb", MACH_MEMCG_PAGES },
	[MACH_MEMCG_WORKINGSET_REFAULT_ANON] = { "workingset_refault_anon", MACH_MEMCG_COUNT },
	[MACH_MEMCG_WORKINGSET_REFAULT_FILE] = { "workingset_refault_file", MACH_MEMCG_COUNT },
	[MACH_MEMCG_WORKINGSET_ACTIVATE_ANON] = { "workingset_activate_anon", MACH_MEMCG_COUNT },
	[MACH_MEMCG_WORKINGSET_ACTIVATE_FILE] = { "workingset_activate_file", MACH_MEMCG_COUNT },
	[MACH_MEMCG_WORKINGSET_RESTORE_ANON] = { "workingset_restore_anon", MACH_MEMCG_COUNT },
	[MACH_MEMCG_WORKINGSET_RESTORE_FILE] = { "workingset_restore_file", MACH_MEMCG_COUNT },
	[MACH_MEMCG_WORKINGSET_NODERECLAIM] = { "workingset_nodereclaim", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGDEMOTE_KSWAPD] = { "pgdemote_kswapd", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGDEMOTE_DIRECT] = { "pgdemote_direct", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGDEMOTE_KHUGEPAGED] = { "pgdemote_khugepaged", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGDEMOTE_PROACTIVE] = { "pgdemote_proactive", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGPROMOTE_SUCCESS] = { "pgpromote_success", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PSWPIN] = { "pswpin", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PSWPOUT] = { "pswpout", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGSCAN_KSWAPD] = { "pgscan_kswapd", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGSCAN_DIRECT] = { "pgscan_direct", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGSCAN_KHUGEPAGED] = { "pgscan_khugepaged", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGSCAN_PROACTIVE] = { "pgscan_proactive", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGSTEAL_KSWAPD] = { "pgsteal_kswapd", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGSTEAL_DIRECT] = { "pgsteal_direct", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGSTEAL_KHUGEPAGED] = { "pgsteal_khugepaged", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGSTEAL_PROACTIVE] = { "pgsteal_proactive", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGFAULT] = { "pgfault", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGMAJFAULT] = { "pgmajfault", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGREFILL] = { "pgrefill", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGACTIVATE] = { "pgactivate", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGDEACTIVATE] = { "pgdeactivate", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGLAZYFREE] = { "pglazyfree", MACH_MEMCG_COUNT },
	[MACH_MEMCG_PGLAZYFREED] = { "pglazyfreed", MACH_MEMCG_COUNT },
	[MACH_MEMCG_SWPIN_ZERO] = { "swpin_zero", MACH_MEMCG_COUNT },
	[MACH_MEMCG_SWPOUT_ZERO] = { "swpout_zero", MACH_MEMCG_COUNT },
	[MACH_MEMCG_ZSWPIN] = { "zswpin", MACH_MEMCG_COUNT },
	[MACH_MEMCG_ZSWPOUT] = { "zswpout", MACH_MEMCG_COUNT },
	[MACH_MEMCG_ZSWPWB] = { "zswpwb", MACH_MEMCG_COUNT },
	[MACH_MEMCG_THP_FAULT_ALLOC] = { "thp_fault_alloc", MACH_MEMCG_COUNT },
	[MACH_MEMCG_THP_COLLAPSE_ALLOC] = { "thp_collapse_alloc", MACH_MEMCG_COUNT },
	[MACH_MEMCG_THP_SWPOUT] = { "thp_swpout", MACH_MEMCG_COUNT },
	[MACH_MEMCG_THP_SWPOUT_FALLBACK] = { "thp_swpout_fallback", MACH_MEMCG_COUNT },
	[MACH_MEMCG_NUMA_PAGES_MIGRATED] = { "numa_pages_migrated", MACH_MEMCG_COUNT },
	[MACH_MEMCG_NUMA_PTE_UPDATES] = { "numa_pte_updates", MACH_MEMCG_COUNT },
	[MACH_MEMCG_NUMA_HINT_FAULTS] = { "numa_hint_faults", MACH_MEMCG_COUNT },
};

const char *mach_memcg_item_name(enum mach_memcg_item i)
{
	return (unsigned int)i < MACH_NR_MEMCG_ITEMS ? memcg_items[i].name : "?";
}

enum mach_memcg_unit mach_memcg_item_unit(enum mach_memcg_item i)
{
	return (unsigned int)i < MACH_NR_MEMCG_ITEMS ? memcg_items[i].unit : MACH_MEMCG_COUNT;
}

const char *mach_memcg_event_name(enum mach_memcg_event e)
{
	static const char *const names[MACH_NR_MEMCG_EVENTS] = {
		"low", "high", "max", "oom", "oom_kill", "oom_group_kill", "sock_throttled",
	};
	return (unsigned int)e < MACH_NR_MEMCG_EVENTS ? names[e] : "?";
}

const char *mach_blkq_name(enum mach_blkq q)
{
	static const char *const names[MACH_NR_BLKQ] = {
		"add_random", "atomic_write_boundary_bytes", "atomic_write_max_bytes",
		"atomic_write_unit_max_bytes", "atomic_write_unit_min_bytes", "chunk_sectors", "dax",
		"discard_granularity", "discard_max_bytes", "discard_max_hw_bytes", "discard_zeroes_data",
		"dma_alignment", "fua", "hw_sector_size", "io_poll", "io_poll_delay", "io_timeout", "iostats",
		"iostats_passthrough", "logical_block_size", "max_active_zones", "max_discard_segments",
		"max_hw_sectors_kb", "max_integrity_segments", "max_open_zones", "max_sectors_kb",
		"max_segment_size", "max_segments", "max_write_streams", "minimum_io_size", "nomerges",
		"nr_requests", "nr_zones", "optimal_io_size", "physical_block_size", "read_ahead_kb",
		"rotational", "rq_affinity", "stable_writes", "virt_boundary_mask", "wbt_lat_usec",
		"write_same_max_bytes", "write_stream_granularity", "write_zeroes_max_bytes",
		"write_zeroes_unmap_max_bytes", "write_zeroes_unmap_max_hw_bytes", "zone_append_max_bytes",
		"zone_write_granularity",
	};
	return (unsigned int)q < MACH_NR_BLKQ ? names[q] : "?";
}

bool mach_blkq_shown(const struct mach_blk_sysfs *b, enum mach_blkq q)
{
	switch (q) {
	case MACH_BLKQ_NR_REQUESTS:
	case MACH_BLKQ_RQ_AFFINITY:
	case MACH_BLKQ_WBT_LAT_USEC:
		return b->mq;
	case MACH_BLKQ_IO_TIMEOUT:
		return b->mq && b->timeout;
	case MACH_BLKQ_MAX_ACTIVE_ZONES:
	case MACH_BLKQ_MAX_OPEN_ZONES:
		return b->zoned != MACH_BLK_ZONED_NONE;
	default:
		return (unsigned int)q < MACH_NR_BLKQ;
	}
}

/* ------------------------------------------------------------------ */
/* Lifetimes                                                            */

void mach_sysfs_init(struct mach_sysfs *s)
{
	static const char *const elv[] = { "mq-deadline", "kyber", "bfq" };

	memset(s, 0, sizeof(*s));
	for (unsigned int i = 0; i < 3; i++)
		snprintf(s->elevators[s->nelevators++], sizeof(s->elevators[0]), "%s", elv[i]);
}

void mach_blk_sysfs_free(struct mach_blk_sysfs *b)
{
	if (!b)
		return;
	free(b->dir);
	free(b->serial);
	free(b->dm_uuid);
	free(b);
}

void mach_cg_state_free(struct mach_cg_state *st)
{
	if (!st)
		return;
	free(st->io);
	free(st->pressure);
	free(st->memstat_vals);
	free(st->nr_dying_subsys);
	free(st->mem_events);
	free(st);
}

uint64_t mach_cg_mem_event(const struct mach_cg_state *st, enum mach_memcg_event e)
{
	return st->mem_events ? st->mem_events[e] : 0;
}

int mach_cg_set_mem_event(struct mach_cg_state *st, enum mach_memcg_event e, uint64_t v)
{
	if (!st->mem_events) {
		if (!v)
			return 0;
		if (!(st->mem_events = calloc(MACH_NR_MEMCG_EVENTS, sizeof(*st->mem_events))))
			return -ENOMEM;
	}
	st->mem_events[e] = v;
	return 0;
}

uint32_t mach_cg_dying_subsys(const struct mach_cg_state *st, enum mach_cg_ss ss)
{
	return st->nr_dying_subsys ? st->nr_dying_subsys[ss] : 0;
}

int mach_cg_set_dying_subsys(struct mach_cg_state *st, enum mach_cg_ss ss, uint32_t v)
{
	if (!st->nr_dying_subsys) {
		if (!v)
			return 0;
		if (!(st->nr_dying_subsys = calloc(MACH_NR_SS, sizeof(*st->nr_dying_subsys))))
			return -ENOMEM;
	}
	st->nr_dying_subsys[ss] = v;
	return 0;
}

/* How many of @st's packed values lie before item @i's place (@i up to MACH_NR_MEMCG_ITEMS). */
static unsigned int memstat_rank(const struct mach_cg_state *st, unsigned int i)
{
	unsigned int w = i / 64, n = 0;

	for (unsigned int k = 0; k < w; k++)
		n += (unsigned int)__builtin_popcountll(st->memstat_has[k]);
	if (w < sizeof(st->memstat_has) / sizeof(st->memstat_has[0]))
		n += (unsigned int)__builtin_popcountll(st->memstat_has[w] & ((UINT64_C(1) << (i % 64)) - 1));
	return n;
}

size_t mach_cg_memstat_nvals(const struct mach_cg_state *st)
{
	return memstat_rank(st, MACH_NR_MEMCG_ITEMS);
}

uint64_t mach_cg_memstat(const struct mach_cg_state *st, enum mach_memcg_item i)
{
	unsigned int u = (unsigned int)i;

	if (u >= MACH_NR_MEMCG_ITEMS || !(st->memstat_has[u / 64] >> (u % 64) & 1))
		return 0;
	return st->memstat_vals[memstat_rank(st, u)];
}

void mach_cg_memstat_all(const struct mach_cg_state *st, uint64_t out[MACH_NR_MEMCG_ITEMS])
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < MACH_NR_MEMCG_ITEMS; i++)
		out[i] = st->memstat_has[i / 64] >> (i % 64) & 1 ? st->memstat_vals[k++] : 0;
}

int mach_cg_memstat_set(struct mach_cg_state *st, const uint64_t all[MACH_NR_MEMCG_ITEMS])
{
	uint64_t has[sizeof(st->memstat_has) / sizeof(st->memstat_has[0])] = { 0 };
	uint64_t *vals = NULL;
	unsigned int n = 0;

	for (unsigned int i = 0; i < MACH_NR_MEMCG_ITEMS; i++)
		n += all[i] != 0;
	if (n && !(vals = malloc(n * sizeof(*vals))))
		return -ENOMEM;
	n = 0;
	for (unsigned int i = 0; i < MACH_NR_MEMCG_ITEMS; i++)
		if (all[i]) {
			has[i / 64] |= UINT64_C(1) << (i % 64);
			vals[n++] = all[i];
		}
	free(st->memstat_vals);
	st->memstat_vals = vals;
	memcpy(st->memstat_has, has, sizeof(has));
	return 0;
}

struct mach_cg_state *mach_cg_state_new(void)
{
	struct mach_cg_state *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->max_depth = st->max_descendants = MACH_CG_INT_MAX;
	st->quota_us = MACH_CG_RUNTIME_INF;
	st->period_us = 100000;
	st->shares = 1024;
	st->mem_high = st->mem_max = st->swap_max = MACH_CG_PAGE_COUNTER_MAX;
	st->pids_max = MACH_CG_PIDS_MAX;
	return st;
}

/* ------------------------------------------------------------------ */
/* Block devices under /sys/devices                                     */

int mach_blk_dir(const struct mach_sys *s, size_t i, char *buf, size_t size)
{
	const struct mach_blkdev *b = i < s->nblk ? &s->blk[i] : NULL;
	const struct mach_blkdev *d = b ? &s->blk[b->disk] : NULL;
	int n;

	if (!d || !d->sysfs || !d->sysfs->dir)
		return -ENOENT;
	n = b->partno ? snprintf(buf, size, "%s/%s", d->sysfs->dir, b->name) : snprintf(buf, size, "%s", d->sysfs->dir);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

size_t mach_blk_parent_len(const char *dir)
{
	const char *slash = strrchr(dir, '/');
	size_t len = slash ? (size_t)(slash - dir) : 0;

	/* a class glue directory "block" between the parent device and the disk */
	if (len >= 6 && !memcmp(dir + len - 6, "/block", 6))
		len -= 6;
	else if (len == 5 && !memcmp(dir, "block", 5))
		len = 0;
	return len;
}

bool mach_blk_has_device(const char *dir)
{
	size_t len = mach_blk_parent_len(dir);

	return len && !(len == 7 && !memcmp(dir, "virtual", 7));
}

/* ------------------------------------------------------------------ */
/* cgroup v2: what a group has by its place                             */

/* Controllers with no files on v2: never bound there (cgrp_dfl_inhibit_ss_mask). */
#define SS_INHIBITED ((1u << MACH_SS_CPUACCT) | (1u << MACH_SS_DEVICES) | (1u << MACH_SS_FREEZER) | \
		      (1u << MACH_SS_NET_CLS) | (1u << MACH_SS_NET_PRIO) | (1u << MACH_SS_DEBUG))
/* Controllers on v2 in every group, never listed (cgrp_dfl_implicit_ss_mask). */
#define SS_IMPLICIT (1u << MACH_SS_PERF_EVENT)

int mach_cg_ss_by_name(const char *name)
{
	for (int ss = 0; ss < MACH_NR_SS; ss++)
		if (!strcmp(name, mach_cg_ss_name((enum mach_cg_ss)ss, true)) ||
		    !strcmp(name, mach_cg_ss_name((enum mach_cg_ss)ss, false)))
			return ss;
	return -1;
}

uint32_t mach_cg_v2_ss(const struct mach_machine *m)
{
	uint32_t mask = 0, v1 = 0;

	if (m->sys.ncgroup_subsys) {
		for (size_t i = 0; i < m->sys.ncgroup_subsys; i++) {
			const struct mach_cgroup_subsys *c = &m->sys.cgroup_subsys[i];
			int ss = mach_cg_ss_by_name(c->name);

			if (ss >= 0 && c->enabled && c->hierarchy == 0)
				mask |= 1u << ss;
		}
		return mask & ~SS_INHIBITED;
	}
	/* no /proc/cgroups: whatever no v1 hierarchy holds */
	for (size_t i = 0; i < m->ncg_roots; i++)
		v1 |= m->cg_roots[i].ss_mask;
	return ((1u << MACH_NR_SS) - 1) & ~v1 & ~SS_INHIBITED;
}

uint32_t mach_cg_controllers(const struct mach_machine *m, uint32_t cg)
{
	const struct mach_cgroup *g = &m->cgroups[cg];

	if (g->parent == MACH_NONE)
		return mach_cg_v2_ss(m) & ~SS_IMPLICIT;
	return m->cgroups[g->parent].subtree_control;
}

bool mach_cg_has_css(const struct mach_machine *m, uint32_t cg, enum mach_cg_ss ss)
{
	uint32_t bit = 1u << ss;

	if (!(mach_cg_v2_ss(m) & bit))
		return false;
	return m->cgroups[cg].parent == MACH_NONE || (bit & SS_IMPLICIT) ||
	       (m->cgroups[m->cgroups[cg].parent].subtree_control & bit);
}

bool mach_cg_hybrid(const struct mach_machine *m)
{
	for (size_t i = 0; i < m->ncg_roots; i++)
		if (m->cg_roots[i].id != 0)
			return true;
	return false;
}

uint32_t mach_cg_v2_top(const struct mach_machine *m)
{
	uint32_t dfl = mach_cg_dfl_root(m);

	return dfl == MACH_NONE ? MACH_NONE : m->cg_roots[dfl].top;
}

bool mach_cg_under(const struct mach_machine *m, uint32_t cg, uint32_t anc)
{
	for (unsigned int hops = 0; cg < m->ncgroups && hops <= m->ncgroups; hops++) {
		if (cg == anc)
			return true;
		cg = m->cgroups[cg].parent;
	}
	return false;
}

uint32_t mach_thread_cg2(const struct mach_machine *m, const struct mach_thread *t)
{
	const struct mach_css_set *cs = mach_thread_css_set(m, t);
	uint32_t dfl = mach_cg_dfl_root(m);

	if (!cs || dfl == MACH_NONE || cs->cg[dfl] >= m->ncgroups)
		return MACH_NONE;
	return cs->cg[dfl];
}

uint32_t mach_cg_child(const struct mach_machine *m, uint32_t parent, const char *name, size_t len)
{
	for (size_t i = parent + 1; i < m->ncgroups; i++) {
		const struct mach_cgroup *g = &m->cgroups[i];

		if (g->parent == parent && !g->dead && strlen(g->name) == len && !memcmp(g->name, name, len))
			return (uint32_t)i;
	}
	return MACH_NONE;
}

int mach_cg_path(const struct mach_machine *m, uint32_t cg, char *buf, size_t size)
{
	uint32_t chain[64];
	unsigned int n = 0;
	size_t at = 0;

	for (; cg < m->ncgroups && m->cgroups[cg].parent != MACH_NONE; cg = m->cgroups[cg].parent) {
		if (n == 64)
			return -ENAMETOOLONG;
		chain[n++] = cg;
	}
	if (!size)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	while (n--) {
		int k = snprintf(buf + at, size - at, "%s%s", at ? "/" : "", m->cgroups[chain[n]].name);

		if (k < 0 || (size_t)k >= size - at)
			return -ENAMETOOLONG;
		at += (size_t)k;
	}
	return 0;
}

const struct mach_cg_state *mach_cg_state_of(const struct mach_cgroup *g)
{
	static const struct mach_cg_state defaults = {
		.max_depth = MACH_CG_INT_MAX, .max_descendants = MACH_CG_INT_MAX,
		.quota_us = MACH_CG_RUNTIME_INF, .period_us = 100000, .shares = 1024,
		.mem_high = MACH_CG_PAGE_COUNTER_MAX, .mem_max = MACH_CG_PAGE_COUNTER_MAX,
		.swap_max = MACH_CG_PAGE_COUNTER_MAX, .pids_max = MACH_CG_PIDS_MAX,
	};

	return g->st ? g->st : &defaults;
}

/* sched_prio_to_weight: the load weight of nice -20 .. 19 */
static const unsigned long prio_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
	110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
};

uint64_t mach_cg_weight(unsigned long shares)
{
	/* sched_weight_to_cgroup: DIV_ROUND_CLOSEST_ULL(weight * CGROUP_WEIGHT_DFL, 1024) */
	return ((uint64_t)shares * 100 + 512) / 1024;
}

int mach_cg_weight_nice(unsigned long shares)
{
	long last = 0x7fffffff;
	int prio;

	/* cpu_weight_nice_read_s64: the nice whose weight is nearest, the first of ties */
	for (prio = 0; prio < 40; prio++) {
		long delta = labs((long)prio_to_weight[prio] - (long)shares);

		if (delta >= last)
			break;
		last = delta;
	}
	return prio - 1 - 20;
}

unsigned long mach_cg_nice_shares(int nice)
{
	return nice >= -20 && nice <= 19 ? prio_to_weight[nice + 20] : 1024;
}

void mach_cg_task_time(const struct mach_machine *m, uint32_t g, uint64_t *user, uint64_t *sys, uint64_t *nice)
{
	*user = *sys = *nice = 0;
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_process *p = &m->procs[i];
		uint32_t cg = p->nthreads ? mach_thread_cg2(m, &p->threads[0]) : MACH_NONE;

		if (cg == MACH_NONE || !mach_cg_under(m, cg, g))
			continue;
		*user += p->group_utime_ns;
		*sys += p->group_stime_ns;
		/* a niced task's user time is nice time (CPUTIME_NICE) */
		if (p->threads[0].nice > 0)
			*nice += p->group_utime_ns;
	}
}

uint64_t mach_cg_nr_tasks(const struct mach_machine *m, uint32_t g)
{
	uint64_t n = 0;

	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int t = 0; t < m->procs[i].nthreads; t++) {
			uint32_t cg = mach_thread_cg2(m, &m->procs[i].threads[t]);

			n += cg != MACH_NONE && mach_cg_under(m, cg, g);
		}
	return n;
}

void mach_cg_charge_gone(struct mach_machine *m, const struct mach_process *p)
{
	uint32_t g = p->nthreads ? mach_thread_cg2(m, &p->threads[0]) : MACH_NONE;

	/* the time stays in its group and every one above it; the root's is the CPUs' anyway */
	for (unsigned int hops = 0; g < m->ncgroups && m->cgroups[g].parent != MACH_NONE && hops < m->ncgroups; hops++) {
		struct mach_cgroup *cg = &m->cgroups[g];

		if (!cg->st && !(cg->st = mach_cg_state_new()))
			return; /* out of memory: the group forgets the time, nothing worse */
		cg->st->gone_user_ns += p->group_utime_ns;
		cg->st->gone_system_ns += p->group_stime_ns;
		if (p->threads[0].nice > 0)
			cg->st->gone_nice_ns += p->group_utime_ns;
		g = cg->parent;
	}
}
