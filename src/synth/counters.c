// SPDX-License-Identifier: MIT
/*
 * counters.c - the machine-wide counters derived from the built tasks:
 * /proc/meminfo, /proc/vmstat, load averages and pressure (interrupts and
 * softirqs are irqs.c's).
 *
 * They come last because they must agree with the tasks the way the
 * kernel's accounting makes them agree: AnonPages is the sum of the
 * processes' RssAnon, the LRU lists add up to the page cache and anonymous
 * memory, vmstat's page counts are meminfo's in pages, and nr_threads,
 * procs_running and procs_blocked count the threads in each state.
 */
#include <errno.h>
#include <stdlib.h>

#include "synth_int.h"

/* ------------------------------------------------------------------ */
/* Memory                                                               */

#define MI(id) m->meminfo[MACH_MEMINFO_##id]
#define VM(id) m->vmstat[MACH_VMSTAT_##id]

/* Page-cache and slab sizes in whole 4 kB pages, as meminfo prints them. */
static uint64_t kb4(double kb)
{
	return kb <= 0 ? 0 : (uint64_t)kb / 4 * 4;
}

/*
 * /proc/meminfo from the tasks' memory and the kernel's own: RAM is sized
 * from the CPU count (and from what the tasks need), what is neither used
 * nor free is page cache, and the LRU lists, slab, commit and direct-map
 * lines keep the kernel's identities.
 */
void sy_build_meminfo(struct synth *s)
{
	struct mach_machine *m = s->m;
	struct rng *r = &s->rng;
	unsigned int n = s->o->cpus;
	double mem = s->o->mem, up_days = (double)s->now / 86400e9;
	uint64_t phys, total, fixed, left, cache, file_lru, anon_lru, shmem;
	uint64_t kstack = 16 * (s->nr_threads + n), pt = s->sum.pte + 4 * n;
	uint64_t sunreclaim = kb4(20000.0 + 600.0 * n + 6.0 * (double)s->nr_threads + 4.0 * (double)m->nprocs);
	uint64_t percpu = 344 * (uint64_t)n + 4 * rng_below(r, 32);
	/* distinct shared memory: the postgres/nginx segments are shared by their processes */
	uint64_t shm_tmpfs = kb4(rng_uniform(r, 2000, 40000));
	uint64_t need;

	shmem = kb4((double)s->sum.shmem * rng_uniform(r, 0.1, 0.3)) + shm_tmpfs;
	fixed = s->sum.anon + shmem + kstack + pt + sunreclaim + percpu;
	need = (uint64_t)((double)fixed / (0.6 - 0.4 * (mem > 1 ? 1 : mem)));
	phys = (uint64_t)(n * s->per_cpu_gib) << 20;
	if (phys < need)
		phys = (need + (1u << 20) - 1) >> 20 << 20;
	total = kb4((double)phys * (1 - rng_uniform(r, 0.015, 0.03)));
	MI(MEMTOTAL) = total;

	left = total - fixed;
	{
		double cf = rng_uniform(r, 0.1, 0.35) + 0.1 * (up_days > 3 ? 1 : up_days / 3) + 2 * mem;

		cache = (uint64_t)((double)left * (cf > 0.97 ? 0.97 : cf));
	}
	MI(BUFFERS) = kb4((double)cache * rng_uniform(r, 0.003, 0.02));
	MI(SRECLAIMABLE) = kb4((double)cache * rng_uniform(r, 0.03, 0.08));
	MI(SUNRECLAIM) = sunreclaim;
	MI(SLAB) = MI(SRECLAIMABLE) + MI(SUNRECLAIM);
	MI(KRECLAIMABLE) = MI(SRECLAIMABLE);
	MI(SHMEM) = shmem;
	MI(CACHED) = kb4((double)(cache - MI(BUFFERS) - MI(SRECLAIMABLE))) + shmem;
	MI(MEMFREE) = total - fixed - (MI(CACHED) - shmem) - MI(BUFFERS) - MI(SRECLAIMABLE);
	MI(ANONPAGES) = s->sum.anon;
	MI(MLOCKED) = s->sum.lck_res;
	MI(UNEVICTABLE) = MI(MLOCKED);
	MI(KERNELSTACK) = kstack;
	MI(PAGETABLES) = pt;
	MI(PERCPU) = percpu;

	/* the file LRU holds the page cache but shmem, which sits on the anon LRU */
	file_lru = MI(CACHED) + MI(BUFFERS) - shmem;
	anon_lru = MI(ANONPAGES) + shmem - (MI(UNEVICTABLE) < MI(ANONPAGES) ? MI(UNEVICTABLE) : MI(ANONPAGES));
	MI(ACTIVE_ANON) = kb4((double)anon_lru * rng_uniform(r, 0.05, 0.6));
	MI(INACTIVE_ANON) = anon_lru - MI(ACTIVE_ANON);
	MI(ACTIVE_FILE) = kb4((double)file_lru * rng_uniform(r, 0.3, 0.6));
	MI(INACTIVE_FILE) = file_lru - MI(ACTIVE_FILE);
	MI(ACTIVE) = MI(ACTIVE_ANON) + MI(ACTIVE_FILE);
	MI(INACTIVE) = MI(INACTIVE_ANON) + MI(INACTIVE_FILE);
	MI(MEMAVAILABLE) = MI(MEMFREE) + kb4((double)file_lru * 0.9) + kb4((double)MI(SRECLAIMABLE) * 0.5);
	if (MI(MEMAVAILABLE) > total)
		MI(MEMAVAILABLE) = total;

	/* mapped file pages: libraries are shared by every process mapping them */
	MI(MAPPED) = kb4((double)s->sum.file / (m->nprocs < 20 ? 2 : 10) + (double)shmem * 0.8);
	if (MI(MAPPED) > MI(CACHED))
		MI(MAPPED) = MI(CACHED);
	MI(DIRTY) = kb4((double)(MI(CACHED) - shmem) * rng_uniform(r, 0.0002, 0.003) * (1 + 20 * s->o->io));
	MI(WRITEBACK) = rng_chance(r, 0.3 + s->o->io) ? kb4((double)MI(DIRTY) * rng_uniform(r, 0, 0.2)) : 0;

	if (s->sum.swap || rng_chance(r, 0.5)) {
		uint64_t swap_gib = (uint64_t)(s->per_cpu_gib * n / 4);

		MI(SWAPTOTAL) = (swap_gib ? swap_gib : 1) << 20;
		while (MI(SWAPTOTAL) < s->sum.swap * 5 / 4)
			MI(SWAPTOTAL) *= 2;
		MI(SWAPFREE) = MI(SWAPTOTAL) - s->sum.swap - kb4((double)s->sum.swap * rng_uniform(r, 0, 0.1));
		MI(SWAPCACHED) = kb4((double)s->sum.swap * rng_uniform(r, 0, 0.05));
	}
	MI(COMMITLIMIT) = total / 4 * 50 / 100 * 4 + MI(SWAPTOTAL);
	MI(COMMITTED_AS) = kb4((double)MI(ANONPAGES) * rng_uniform(r, 1.2, 1.6) +
			       (double)s->sum.data * rng_uniform(r, 0.05, 0.2)) + shmem;
	MI(VMALLOCTOTAL) = 34359738367ull;
	MI(VMALLOCUSED) = kstack + 12000 + 400 * (uint64_t)n;
	MI(ANONHUGEPAGES) = (uint64_t)((double)MI(ANONPAGES) * rng_uniform(r, 0, 0.15)) / 2048 * 2048;
	/* at least the huge pages the processes' smaps show */
	if (MI(ANONHUGEPAGES) < s->sum.thp)
		MI(ANONHUGEPAGES) = s->sum.thp;
	MI(HUGEPAGESIZE) = 2048;
	/* the direct map covers all of RAM: a few 4k pages, the rest 2M */
	MI(DIRECTMAP4K) = 2048 * rng_range(r, 8, 120);
	MI(DIRECTMAP2M) = phys - MI(DIRECTMAP4K);
}

/* The page counts meminfo already shows, in pages: the two files must agree. */
static void vmstat_pages(struct synth *s)
{
	struct mach_machine *m = s->m;
	struct rng *r = &s->rng;

	VM(NR_FREE_PAGES) = MI(MEMFREE) / 4;
	VM(NR_FREE_PAGES_BLOCKS) = (uint64_t)((double)VM(NR_FREE_PAGES) * rng_uniform(r, 0.85, 0.95)) / 512 * 512;
	VM(NR_INACTIVE_ANON) = VM(NR_ZONE_INACTIVE_ANON) = MI(INACTIVE_ANON) / 4;
	VM(NR_ACTIVE_ANON) = VM(NR_ZONE_ACTIVE_ANON) = MI(ACTIVE_ANON) / 4;
	VM(NR_INACTIVE_FILE) = VM(NR_ZONE_INACTIVE_FILE) = MI(INACTIVE_FILE) / 4;
	VM(NR_ACTIVE_FILE) = VM(NR_ZONE_ACTIVE_FILE) = MI(ACTIVE_FILE) / 4;
	VM(NR_UNEVICTABLE) = VM(NR_ZONE_UNEVICTABLE) = MI(UNEVICTABLE) / 4;
	VM(NR_MLOCK) = MI(MLOCKED) / 4;
	VM(NR_DIRTY) = MI(DIRTY) / 4;
	VM(NR_WRITEBACK) = MI(WRITEBACK) / 4;
	VM(NR_ZONE_WRITE_PENDING) = VM(NR_DIRTY) + VM(NR_WRITEBACK);
	VM(NR_SLAB_RECLAIMABLE) = MI(SRECLAIMABLE) / 4;
	VM(NR_SLAB_UNRECLAIMABLE) = MI(SUNRECLAIM) / 4;
	VM(NR_ANON_PAGES) = MI(ANONPAGES) / 4;
	VM(NR_MAPPED) = MI(MAPPED) / 4;
	VM(NR_FILE_PAGES) = (MI(CACHED) + MI(BUFFERS) + MI(SWAPCACHED)) / 4;
	VM(NR_SHMEM) = MI(SHMEM) / 4;
	VM(NR_ANON_TRANSPARENT_HUGEPAGES) = MI(ANONHUGEPAGES) / 2048;
	VM(NR_KERNEL_STACK) = MI(KERNELSTACK); /* NR_KERNEL_STACK_KB: already in kB */
	VM(NR_PAGE_TABLE_PAGES) = MI(PAGETABLES) / 4;
	VM(NR_SWAPCACHED) = MI(SWAPCACHED) / 4;
}

/* Reclaim under memory pressure: scanning, stealing, stalls, compaction and OOM kills. */
static void vmstat_reclaim(struct synth *s, double up, double mem)
{
	struct mach_machine *m = s->m;
	struct rng *r = &s->rng;

	if (mem > 0.01) {
		uint64_t scan = (uint64_t)(up * mem * rng_uniform(r, 50, 2000));

		VM(PGSCAN_KSWAPD) = scan;
		VM(PGSCAN_DIRECT) = (uint64_t)((double)scan * mem);
		VM(PGSTEAL_KSWAPD) = VM(PGSCAN_KSWAPD) * 4 / 5;
		VM(PGSTEAL_DIRECT) = VM(PGSCAN_DIRECT) * 3 / 5;
		VM(PGSCAN_ANON) = (VM(PGSCAN_KSWAPD) + VM(PGSCAN_DIRECT)) / 5;
		VM(PGSCAN_FILE) = VM(PGSCAN_KSWAPD) + VM(PGSCAN_DIRECT) - VM(PGSCAN_ANON);
		VM(PGSTEAL_ANON) = (VM(PGSTEAL_KSWAPD) + VM(PGSTEAL_DIRECT)) / 6;
		VM(PGSTEAL_FILE) = VM(PGSTEAL_KSWAPD) + VM(PGSTEAL_DIRECT) - VM(PGSTEAL_ANON);
		VM(PGDEACTIVATE) = scan / 3;
		VM(PGREFILL) = scan / 2;
		VM(ALLOCSTALL_NORMAL) = (uint64_t)(up * mem * mem * rng_uniform(r, 0, 2));
		VM(SLABS_SCANNED) = scan / 4;
		VM(KSWAPD_INODESTEAL) = scan / 100;
		VM(KSWAPD_LOW_WMARK_HIT_QUICKLY) = scan / 1000;
		VM(KSWAPD_HIGH_WMARK_HIT_QUICKLY) = scan / 2000;
		VM(PAGEOUTRUN) = scan / 500 + 1;
		VM(COMPACT_STALL) = VM(ALLOCSTALL_NORMAL) / 2;
		VM(COMPACT_FAIL) = VM(COMPACT_STALL) / 3;
		VM(COMPACT_SUCCESS) = VM(COMPACT_STALL) - VM(COMPACT_FAIL);
		VM(COMPACT_DAEMON_WAKE) = scan / 800;
		VM(OOM_KILL) = mem > 0.5 ? rng_range(r, 1, 5) : 0;
	} else {
		VM(SLABS_SCANNED) = rng_below(r, 1000);
	}
}

/* /proc/vmstat: the page counts meminfo shows, and event counts since boot. */
void sy_build_vmstat(struct synth *s)
{
	struct mach_machine *m = s->m;
	struct rng *r = &s->rng;
	double up = (double)s->now / 1e9, io = s->o->io, mem = s->o->mem;
	uint64_t phys_pages = (MI(DIRECTMAP4K) + MI(DIRECTMAP2M)) / 4;
	uint64_t alloc, dirtyable;

	vmstat_pages(s);
	VM(WORKINGSET_NODES) = (VM(NR_INACTIVE_FILE) + VM(NR_ACTIVE_FILE)) / 64;
	VM(WORKINGSET_REFAULT_FILE) = (uint64_t)(up * io * rng_uniform(r, 5, 100));
	VM(WORKINGSET_ACTIVATE_FILE) = VM(WORKINGSET_REFAULT_FILE) / 4;
	if (MI(SWAPTOTAL) > MI(SWAPFREE)) {
		VM(WORKINGSET_REFAULT_ANON) = (uint64_t)(up * mem * rng_uniform(r, 1, 20));
		VM(WORKINGSET_ACTIVATE_ANON) = VM(WORKINGSET_REFAULT_ANON) / 3;
		VM(PSWPOUT) = (MI(SWAPTOTAL) - MI(SWAPFREE)) / 4 + VM(WORKINGSET_REFAULT_ANON);
		VM(PSWPIN) = VM(WORKINGSET_REFAULT_ANON);
	}
	VM(NR_DIRTIED) = (uint64_t)(up * (5 + 2000 * io) * rng_uniform(r, 0.5, 1.5)) + VM(NR_DIRTY);
	VM(NR_WRITTEN) = VM(NR_DIRTIED) - VM(NR_DIRTY) - VM(NR_WRITEBACK);
	VM(NR_VMSCAN_IMMEDIATE_RECLAIM) = (uint64_t)(up * mem * rng_uniform(r, 0, 2));
	VM(NR_FOLL_PIN_ACQUIRED) = VM(NR_FOLL_PIN_RELEASED) = (uint64_t)(up * io * rng_uniform(r, 10, 100));
	dirtyable = VM(NR_FREE_PAGES) + VM(NR_INACTIVE_FILE) + VM(NR_ACTIVE_FILE);
	VM(NR_DIRTY_THRESHOLD) = dirtyable / 5;
	VM(NR_DIRTY_BACKGROUND_THRESHOLD) = dirtyable / 10;
	VM(NR_MEMMAP_BOOT_PAGES) = phys_pages / 64; /* 64-byte struct page per 4k page */
	VM(PGPGIN) = (uint64_t)(up * (20 + 8000 * io) * rng_uniform(r, 0.5, 1.5)) + MI(CACHED) / 2;
	VM(PGPGOUT) = VM(NR_WRITTEN) * 4 + (uint64_t)(up * rng_uniform(r, 1, 20));
	VM(PGFAULT) = (uint64_t)((double)s->sum.minflt * rng_uniform(r, 1.3, 3.0)) + s->sum.majflt;
	VM(PGMAJFAULT) = (uint64_t)((double)s->sum.majflt * rng_uniform(r, 1.2, 2.0)) +
			 (uint64_t)(up * io * rng_uniform(r, 0, 5));
	alloc = VM(PGFAULT) + VM(PGPGIN) / 4 + (uint64_t)(up * m->ncpus * rng_uniform(r, 50, 500));
	VM(PGALLOC_DMA32) = alloc / 100;
	VM(PGALLOC_NORMAL) = alloc - VM(PGALLOC_DMA32);
	VM(NUMA_HIT) = alloc;
	VM(NUMA_LOCAL) = s->nnodes > 1 ? alloc - alloc / 20 : alloc;
	VM(NUMA_OTHER) = VM(NUMA_HIT) - VM(NUMA_LOCAL);
	VM(NUMA_INTERLEAVE) = rng_range(r, 500, 3000);
	if (s->nnodes > 1) {
		VM(NUMA_MISS) = VM(NUMA_FOREIGN) = alloc / 200;
		VM(NUMA_PTE_UPDATES) = (uint64_t)(up * rng_uniform(r, 10, 500));
		VM(NUMA_HINT_FAULTS) = VM(NUMA_PTE_UPDATES) / 2;
		VM(NUMA_HINT_FAULTS_LOCAL) = VM(NUMA_HINT_FAULTS) * 9 / 10;
		VM(NUMA_PAGES_MIGRATED) = VM(NUMA_HINT_FAULTS) / 20;
		VM(PGMIGRATE_SUCCESS) = VM(NUMA_PAGES_MIGRATED);
	}
	VM(PGFREE) = alloc + VM(NR_FREE_PAGES) + VM(NR_FREE_PAGES) / 8;
	VM(PGACTIVATE) = (uint64_t)((double)alloc * rng_uniform(r, 0.01, 0.05));
	VM(PGREUSE) = (uint64_t)((double)VM(PGFAULT) * rng_uniform(r, 0.05, 0.15));
	VM(PGROTATED) = (uint64_t)(up * io * rng_uniform(r, 0, 5));
	vmstat_reclaim(s, up, mem);
	VM(UNEVICTABLE_PGS_CULLED) = VM(NR_MLOCK) + rng_below(r, 20000);
	VM(UNEVICTABLE_PGS_MLOCKED) = VM(NR_MLOCK) + rng_below(r, 20000);
	VM(UNEVICTABLE_PGS_MUNLOCKED) = VM(UNEVICTABLE_PGS_MLOCKED) - VM(NR_MLOCK);
	VM(UNEVICTABLE_PGS_RESCUED) = VM(UNEVICTABLE_PGS_MUNLOCKED);
	VM(THP_FAULT_ALLOC) = VM(NR_ANON_TRANSPARENT_HUGEPAGES) + rng_below(r, 2000);
	VM(THP_FAULT_FALLBACK) = rng_below(r, 50);
	VM(THP_COLLAPSE_ALLOC) = rng_below(r, 100);
	VM(THP_SPLIT_PMD) = rng_below(r, 200);
	VM(THP_DEFERRED_SPLIT_PAGE) = rng_below(r, 300);
	VM(DIRECT_MAP_LEVEL2_SPLITS) = rng_range(r, 1, 200);
	VM(DIRECT_MAP_LEVEL3_SPLITS) = rng_below(r, 3);
}

/* ------------------------------------------------------------------ */
/* Load and pressure                                                    */

/* FIXED_1 fixed point, as the kernel keeps loadavg and the PSI averages. */
static unsigned long fixed_pt(double v)
{
	return v <= 0 ? 0 : (unsigned long)(v * MACH_FIXED_1 + 0.5);
}

/*
 * Load averages: runnable plus uninterruptible tasks, about load x CPUs,
 * the longer windows smoothed toward it.  Pressure: io and mem are the
 * shares of time some task stalled (full: all non-idle tasks), CPU
 * pressure grows with the load; the system-level cpu "full" line is zero,
 * as the kernel forces it.  Totals (microseconds) never exceed the uptime.
 */
void sy_build_load(struct synth *s)
{
	struct mach_machine *m = s->m;
	struct rng *r = &s->rng;
	double n = s->o->cpus, l1, up_us = (double)s->now / 1e3;
	double share[MACH_NR_PSI_RES] = {
		[MACH_PSI_IO] = s->o->io,
		[MACH_PSI_MEM] = s->o->mem,
		[MACH_PSI_CPU] = s->o->load > 0.3 ? (s->o->load - 0.3) * 0.5 : s->o->load * 0.01,
	};

	l1 = s->o->load * n * rng_uniform(r, 0.6, 1.3) + (double)s->nr_blocked + s->o->io * n * 0.2;
	m->avenrun[0] = fixed_pt(l1);
	m->avenrun[1] = fixed_pt(l1 * rng_uniform(r, 0.75, 1.2));
	m->avenrun[2] = fixed_pt(l1 * rng_uniform(r, 0.7, 1.15));
	m->nr_running = m->procs_running = (unsigned int)s->nr_running;
	m->procs_blocked = (unsigned int)s->nr_blocked;
	m->nr_threads = (unsigned int)s->nr_threads;

	for (int res = 0; res < MACH_NR_PSI_RES; res++) {
		struct mach_pressure *p = &m->pressure[res];
		double some = share[res] * 100, full_f = res == MACH_PSI_MEM ? 0.8 : 0.5;

		if (res == MACH_PSI_IRQ)
			continue; /* no CONFIG_IRQ_TIME_ACCOUNTING: no pressure/irq */
		p->present = p->has_some = p->has_full = true;
		for (int w = 0; w < 3; w++) {
			double v = some * rng_uniform(r, 0.5, 1.5);

			v = v > 100 ? 100 : v;
			p->some.avg[w] = fixed_pt(v);
			if (res != MACH_PSI_CPU)
				p->full.avg[w] = fixed_pt(v * full_f * rng_uniform(r, 0.7, 1.0));
		}
		p->some.total_us = (uint64_t)(up_us * (share[res] > 1 ? 1 : share[res]) * rng_uniform(r, 0.3, 0.9));
		if (res != MACH_PSI_CPU)
			p->full.total_us = (uint64_t)((double)p->some.total_us * full_f * rng_uniform(r, 0.5, 1.0));
	}
}
