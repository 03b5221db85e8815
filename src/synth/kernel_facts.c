// SPDX-License-Identifier: MIT
/*
 * kernel_facts.c - what each kernel version prints, as one table: the lines
 * of /proc/vmstat and /proc/meminfo in print order, the optional lines of
 * /proc/<pid>/status, and the format changes of the other files, each with
 * the version that brought it and the one that took it away.
 *
 * The configuration is the reference VM's (x86_64, NUMA, THP, compaction,
 * migration, hugetlb, balloon, swap, zswap, KSM, NUMA balancing, zsmalloc,
 * ZONE_DEVICE; no CMA, no memory failure, no unaccepted memory, no debug
 * counters), held fixed across versions so that only the kernel changes.
 * Versions are mainline x.y.0: distributions backport lines (RHEL 8's 4.18
 * prints 5.x vmstat names), stable trees added Speculation_Store_Bypass to
 * 4.14.y; neither is modelled.
 *
 * Sources: the kernel's own vmstat_text[], task_state()/task_mem(),
 * show_stat(), show_schedstat() and show_smap() of each era, the commit
 * titles named below, and real files of 3.2, 3.13, 4.14, 4.18, 5.8, 5.10, 6.12, 6.15
 * and 6.18 (tests/golden/corpus-*).  Where a version is known only to lie
 * between two of the supported ones, it is the earliest release the
 * evidence allows; that changes no supported version's files.
 */
#include <stddef.h>

#include "synth_int.h"

#define KV(a, b) ((a) * 100u + (b))

/* A vmstat line outside the vocabulary: how its value follows the typed counters. */
#define V(n, s, u) { KF_VMSTAT, n, s, u, KD_NONE, NULL, NULL, SY_KF_NONE }
#define VD(n, s, u, d, f, g) { KF_VMSTAT, n, s, u, d, f, g, SY_KF_NONE }
#define M(n, s, u) { KF_MEMINFO, n, s, u, KD_NONE, NULL, NULL, SY_KF_NONE }
#define F(flag, s, u) { KF_FLAG, #flag, s, u, KD_NONE, NULL, NULL, flag }
/* the four zones of x86_64 before ZONE_DEVICE was named (6.1) */
#define ZONES(base, s, u) \
	VD(base "_dma", s, u, KD_ZONE_DMA, base, NULL), VD(base "_dma32", s, u, KD_ZONE_DMA32, base, NULL), \
	VD(base "_normal", s, u, KD_ZONE_NORMAL, base, NULL), VD(base "_movable", s, u, KD_ZONE_MOVABLE, base, NULL)

const struct sy_kfact sy_kfacts[] = {
	/* ---- /proc/vmstat: zone counters (enum zone_stat_item) ---- */
	V("nr_free_pages", 0, 0),
	/* "mm: page_alloc: fair zone allocator policy" (3.12); "mm, page_alloc: remove fair zone allocation policy" (4.8) */
	VD("nr_alloc_batch", KV(3, 12), KV(4, 8), KD_FRAC, "nr_free_pages", NULL),
	/* "mm: page_alloc: defrag_mode" counts free pageblocks (6.15) */
	V("nr_free_pages_blocks", KV(6, 15), 0),
	/* before the node-based LRU (4.8, "mm, vmscan: move LRU lists to node") every counter was per zone */
	V("nr_inactive_anon", 0, KV(4, 8)), V("nr_active_anon", 0, KV(4, 8)),
	V("nr_inactive_file", 0, KV(4, 8)), V("nr_active_file", 0, KV(4, 8)),
	V("nr_unevictable", 0, KV(4, 8)), V("nr_mlock", 0, KV(4, 8)), V("nr_anon_pages", 0, KV(4, 8)),
	V("nr_mapped", 0, KV(4, 8)), V("nr_file_pages", 0, KV(4, 8)), V("nr_dirty", 0, KV(4, 8)),
	V("nr_writeback", 0, KV(4, 8)), V("nr_slab_reclaimable", 0, KV(4, 8)),
	V("nr_slab_unreclaimable", 0, KV(4, 8)), V("nr_page_table_pages", 0, KV(4, 8)),
	V("nr_kernel_stack", 0, KV(4, 8)), V("nr_unstable", 0, KV(4, 8)),
	VD("nr_bounce", 0, KV(4, 8), KD_MEMINFO, "Bounce", NULL),
	V("nr_vmscan_write", 0, KV(4, 8)), V("nr_vmscan_immediate_reclaim", 0, KV(4, 8)),
	VD("nr_writeback_temp", 0, KV(4, 8), KD_MEMINFO, "WritebackTmp", NULL),
	V("nr_isolated_anon", 0, KV(4, 8)), V("nr_isolated_file", 0, KV(4, 8)), V("nr_shmem", 0, KV(4, 8)),
	V("nr_dirtied", 0, KV(4, 8)), V("nr_written", 0, KV(4, 8)),
	/* "mm: move zone->pages_scanned into a vmstat counter" (3.18) */
	VD("nr_pages_scanned", KV(3, 18), KV(4, 8), KD_ZERO, NULL, NULL),
	V("numa_hit", 0, KV(4, 8)), V("numa_miss", 0, KV(4, 8)), V("numa_foreign", 0, KV(4, 8)),
	V("numa_interleave", 0, KV(4, 8)), V("numa_local", 0, KV(4, 8)), V("numa_other", 0, KV(4, 8)),
	/* "mm: thrash detection-based file cache sizing" (3.15) */
	VD("workingset_refault", KV(3, 15), KV(4, 8), KD_SUM, "workingset_refault_anon", "workingset_refault_file"),
	VD("workingset_activate", KV(3, 15), KV(4, 8), KD_SUM, "workingset_activate_anon",
	   "workingset_activate_file"),
	V("workingset_nodereclaim", KV(3, 15), KV(4, 8)),
	V("nr_anon_transparent_hugepages", 0, KV(4, 8)),
	V("nr_free_cma", 0, KV(4, 8)),
	/* 4.8: the zone keeps its own LRU sizes ("mm: add per-zone lru list stat") */
	V("nr_zone_inactive_anon", KV(4, 8), 0), V("nr_zone_active_anon", KV(4, 8), 0),
	V("nr_zone_inactive_file", KV(4, 8), 0), V("nr_zone_active_file", KV(4, 8), 0),
	V("nr_zone_unevictable", KV(4, 8), 0), V("nr_zone_write_pending", KV(4, 8), 0),
	V("nr_mlock", KV(4, 8), 0),
	/* "mm: memcontrol: account slab stats per lruvec" moved slab to the node (4.13) */
	V("nr_slab_reclaimable", KV(4, 8), KV(4, 13)), V("nr_slab_unreclaimable", KV(4, 8), KV(4, 13)),
	/* "mm: memcontrol: account pagetables per node" (5.11) */
	V("nr_page_table_pages", KV(4, 8), KV(5, 11)),
	/* "mm: memcg: account kernel stack per node" (5.9) */
	V("nr_kernel_stack", KV(4, 8), KV(5, 9)),
	/* NR_BOUNCE left with the block layer's bounce buffering (gone by 6.15) */
	VD("nr_bounce", KV(4, 8), KV(6, 15), KD_MEMINFO, "Bounce", NULL),
	/* "mm: zsmalloc vmstat" (4.8, CONFIG_ZSMALLOC) */
	V("nr_zspages", KV(4, 8), 0),
	V("numa_hit", KV(4, 8), KV(4, 14)), V("numa_miss", KV(4, 8), KV(4, 14)),
	V("numa_foreign", KV(4, 8), KV(4, 14)), V("numa_interleave", KV(4, 8), KV(4, 14)),
	V("numa_local", KV(4, 8), KV(4, 14)), V("numa_other", KV(4, 8), KV(4, 14)),
	V("nr_free_cma", KV(4, 8), 0),
	/* "mm: Change the call sites of numa statistics items": own enum after the zone's (4.14) */
	V("numa_hit", KV(4, 14), 0), V("numa_miss", KV(4, 14), 0), V("numa_foreign", KV(4, 14), 0),
	V("numa_interleave", KV(4, 14), 0), V("numa_local", KV(4, 14), 0), V("numa_other", KV(4, 14), 0),

	/* ---- node counters (enum node_stat_item, 4.8) ---- */
	V("nr_inactive_anon", KV(4, 8), 0), V("nr_active_anon", KV(4, 8), 0),
	V("nr_inactive_file", KV(4, 8), 0), V("nr_active_file", KV(4, 8), 0),
	V("nr_unevictable", KV(4, 8), 0),
	V("nr_slab_reclaimable", KV(4, 13), 0), V("nr_slab_unreclaimable", KV(4, 13), 0),
	V("nr_isolated_anon", KV(4, 8), 0), V("nr_isolated_file", KV(4, 8), 0),
	/* "mm: fix 100% CPU kswapd busyloop on unreclaimable nodes" dropped it (4.11) */
	VD("nr_pages_scanned", KV(4, 8), KV(4, 11), KD_ZERO, NULL, NULL),
	/* "mm: workingset: add vmstat counter for shadow nodes" (4.20) */
	V("workingset_nodes", KV(4, 20), 0),
	VD("workingset_refault", KV(4, 8), KV(5, 9), KD_SUM, "workingset_refault_anon", "workingset_refault_file"),
	/* "mm: workingset: age nonresident information alongside anonymous pages" split them (5.9) */
	V("workingset_refault_anon", KV(5, 9), 0), V("workingset_refault_file", KV(5, 9), 0),
	VD("workingset_activate", KV(4, 8), KV(5, 9), KD_SUM, "workingset_activate_anon",
	   "workingset_activate_file"),
	V("workingset_activate_anon", KV(5, 9), 0), V("workingset_activate_file", KV(5, 9), 0),
	/* "mm: workingset: tell cache transitions from workingset thrashing" (4.20) */
	VD("workingset_restore", KV(4, 20), KV(5, 9), KD_SUM, "workingset_restore_anon", "workingset_restore_file"),
	V("workingset_restore_anon", KV(5, 9), 0), V("workingset_restore_file", KV(5, 9), 0),
	V("workingset_nodereclaim", KV(4, 8), 0),
	V("nr_anon_pages", KV(4, 8), 0), V("nr_mapped", KV(4, 8), 0), V("nr_file_pages", KV(4, 8), 0),
	V("nr_dirty", KV(4, 8), 0), V("nr_writeback", KV(4, 8), 0),
	/* NR_WRITEBACK_TEMP went with FUSE's temporary writeback pages (gone by 6.15) */
	VD("nr_writeback_temp", KV(4, 8), KV(6, 15), KD_MEMINFO, "WritebackTmp", NULL),
	V("nr_shmem", KV(4, 8), 0),
	/* "mm, thp: ... shmem huge pages" (4.8) */
	V("nr_shmem_hugepages", KV(4, 8), 0), V("nr_shmem_pmdmapped", KV(4, 8), 0),
	/* "mm,thp: stats for file backed THP" (5.4) */
	V("nr_file_hugepages", KV(5, 4), 0), V("nr_file_pmdmapped", KV(5, 4), 0),
	V("nr_anon_transparent_hugepages", KV(4, 8), 0),
	/* "mm: remove NR_UNSTABLE_NFS" kept a zero nr_unstable at the end (5.8) */
	V("nr_unstable", KV(4, 8), KV(5, 8)),
	V("nr_vmscan_write", KV(4, 8), 0), V("nr_vmscan_immediate_reclaim", KV(4, 8), 0),
	V("nr_dirtied", KV(4, 8), 0), V("nr_written", KV(4, 8), 0),
	/* "mm/vmscan: throttle reclaim until some writeback completes if congested" (5.16) */
	V("nr_throttled_written", KV(5, 16), 0),
	/* "mm: rename and change semantics of nr_indirectly_reclaimable_bytes" (4.20) */
	V("nr_kernel_misc_reclaimable", KV(4, 20), 0),
	/* "mm/gup: track FOLL_PIN pages" (5.7) */
	V("nr_foll_pin_acquired", KV(5, 7), 0), V("nr_foll_pin_released", KV(5, 7), 0),
	V("nr_kernel_stack", KV(5, 9), 0),
	V("nr_page_table_pages", KV(5, 11), 0),
	/* "mm: add NR_SECONDARY_PAGETABLE to count secondary page table uses" (6.0) */
	V("nr_sec_page_table_pages", KV(6, 0), 0),
	/* "iommu: account IOMMU allocated memory" (6.11) */
	V("nr_iommu_pages", KV(6, 11), 0),
	/* "mm: swap: add NR_SWAPCACHE" (5.13) */
	V("nr_swapcached", KV(5, 13), 0),
	/* "memory tiering: count number of pages promoted" (5.18), "rate limit NUMA migration throughput" (6.1) */
	V("pgpromote_success", KV(5, 18), 0), V("pgpromote_candidate", KV(6, 1), 0),
	V("pgpromote_candidate_nrl", KV(6, 17), 0),
	/* "mm/vmstat: move pgdemote_* to per-node stats" (6.9) */
	V("pgdemote_kswapd", KV(6, 9), 0), V("pgdemote_direct", KV(6, 9), 0),
	V("pgdemote_khugepaged", KV(6, 9), 0),
	/* "mm: vmscan: add proactive reclaim stats" (6.14) */
	V("pgdemote_proactive", KV(6, 14), 0),
	/* "mm: memcg: add hugetlb stats" (6.13) */
	V("nr_hugetlb", KV(6, 13), 0),
	/* 6.15: balloon pages and kernel file pages become node counters */
	V("nr_balloon_pages", KV(6, 15), 0), V("nr_kernel_file_pages", KV(6, 15), 0),
	/* writeback thresholds (2.6.37), then "mm: report per-page metadata information" (6.11) */
	V("nr_dirty_threshold", 0, 0), V("nr_dirty_background_threshold", 0, 0),
	V("nr_memmap_pages", KV(6, 12), 0), V("nr_memmap_boot_pages", KV(6, 12), 0),

	/* ---- events (enum vm_event_item) ---- */
	V("pgpgin", 0, 0), V("pgpgout", 0, 0), V("pswpin", 0, 0), V("pswpout", 0, 0),
	/* "mm: add DEVICE_ZONE to FOR_ALL_ZONES" (6.1) */
	V("pgalloc_dma", 0, 0), V("pgalloc_dma32", 0, 0), V("pgalloc_normal", 0, 0), V("pgalloc_movable", 0, 0),
	V("pgalloc_device", KV(6, 1), 0),
	/* "mm, vmscan: account stalls and skips per zone" (4.8) */
	V("allocstall_dma", KV(4, 8), 0), V("allocstall_dma32", KV(4, 8), 0), V("allocstall_normal", KV(4, 8), 0),
	V("allocstall_movable", KV(4, 8), 0), V("allocstall_device", KV(6, 1), 0),
	V("pgskip_dma", KV(4, 8), 0), V("pgskip_dma32", KV(4, 8), 0), V("pgskip_normal", KV(4, 8), 0),
	V("pgskip_movable", KV(4, 8), 0), V("pgskip_device", KV(6, 1), 0),
	V("pgfree", 0, 0), V("pgactivate", 0, 0), V("pgdeactivate", 0, 0),
	/* "mm: add counters for lazyfree pages" (4.12) */
	V("pglazyfree", KV(4, 12), 0),
	V("pgfault", 0, 0), V("pgmajfault", 0, 0),
	/* "mm: support madvise(MADV_FREE)" (4.5) */
	V("pglazyfreed", KV(4, 5), 0),
	ZONES("pgrefill", 0, KV(4, 8)),
	V("pgrefill", KV(4, 8), 0),
	/* "mm: add a pgreuse vm event" (5.9) */
	V("pgreuse", KV(5, 9), 0),
	ZONES("pgsteal_kswapd", 0, KV(4, 8)), ZONES("pgsteal_direct", 0, KV(4, 8)),
	V("pgsteal_kswapd", KV(4, 8), 0), V("pgsteal_direct", KV(4, 8), 0),
	/* "mm: vmscan: split khugepaged stats from direct reclaim stats" (6.3) */
	V("pgsteal_khugepaged", KV(6, 3), 0),
	V("pgsteal_proactive", KV(6, 14), 0),
	/* "mm/vmscan: add page demotion counter" (5.15), node counters from 6.9 */
	V("pgdemote_kswapd", KV(5, 15), KV(6, 9)), V("pgdemote_direct", KV(5, 15), KV(6, 9)),
	V("pgdemote_khugepaged", KV(6, 3), KV(6, 9)),
	ZONES("pgscan_kswapd", 0, KV(4, 8)), ZONES("pgscan_direct", 0, KV(4, 8)),
	V("pgscan_kswapd", KV(4, 8), 0), V("pgscan_direct", KV(4, 8), 0),
	V("pgscan_khugepaged", KV(6, 3), 0), V("pgscan_proactive", KV(6, 14), 0),
	V("pgscan_direct_throttle", 0, 0),
	/* "mm: vmscan: add anon and file reclaim stats" (5.8) */
	V("pgscan_anon", KV(5, 8), 0), V("pgscan_file", KV(5, 8), 0),
	V("pgsteal_anon", KV(5, 8), 0), V("pgsteal_file", KV(5, 8), 0),
	V("zone_reclaim_success", KV(6, 16), 0),
	V("zone_reclaim_failed", 0, 0),
	V("pginodesteal", 0, 0), V("slabs_scanned", 0, 0), V("kswapd_inodesteal", 0, 0),
	V("kswapd_low_wmark_hit_quickly", 0, 0), V("kswapd_high_wmark_hit_quickly", 0, 0),
	V("pageoutrun", 0, 0),
	VD("allocstall", 0, KV(4, 8), KD_SUM, "allocstall_dma32", "allocstall_normal"),
	V("pgrotated", 0, 0),
	/* "mm: vmscan: count... drop_caches" (4.0) */
	V("drop_pagecache", KV(4, 0), 0), V("drop_slab", KV(4, 0), 0),
	/* "mm, oom: count global and memory cgroup oom kills" (4.13) */
	V("oom_kill", KV(4, 13), 0),
	V("numa_pte_updates", 0, 0),
	/* "mm: numa: account for THP numa hinting faults" (3.13) */
	V("numa_huge_pte_updates", KV(3, 13), 0),
	V("numa_hint_faults", 0, 0), V("numa_hint_faults_local", 0, 0), V("numa_pages_migrated", 0, 0),
	V("pgmigrate_success", 0, 0), V("pgmigrate_fail", 0, 0),
	/* "mm/migrate: add migration statistics for THP" (5.9) */
	V("thp_migration_success", KV(5, 9), 0), V("thp_migration_fail", KV(5, 9), 0),
	V("thp_migration_split", KV(5, 9), 0),
	V("compact_migrate_scanned", 0, 0), V("compact_free_scanned", 0, 0), V("compact_isolated", 0, 0),
	V("compact_stall", 0, 0), V("compact_fail", 0, 0), V("compact_success", 0, 0),
	/* "mm, compaction: introduce kcompactd" (4.6), its scan counters (4.12) */
	V("compact_daemon_wake", KV(4, 6), 0),
	V("compact_daemon_migrate_scanned", KV(4, 12), 0), V("compact_daemon_free_scanned", KV(4, 12), 0),
	V("htlb_buddy_alloc_success", 0, 0), V("htlb_buddy_alloc_fail", 0, 0),
	V("unevictable_pgs_culled", 0, 0), V("unevictable_pgs_scanned", 0, 0),
	V("unevictable_pgs_rescued", 0, 0), V("unevictable_pgs_mlocked", 0, 0),
	V("unevictable_pgs_munlocked", 0, 0), V("unevictable_pgs_cleared", 0, 0),
	V("unevictable_pgs_stranded", 0, 0),
	V("thp_fault_alloc", 0, 0), V("thp_fault_fallback", 0, 0),
	/* "mm, thp: track fallbacks due to failed memcg charges separately" (5.8) */
	V("thp_fault_fallback_charge", KV(5, 8), 0),
	V("thp_collapse_alloc", 0, 0), V("thp_collapse_alloc_failed", 0, 0),
	V("thp_file_alloc", KV(4, 8), 0),
	V("thp_file_fallback", KV(5, 8), 0), V("thp_file_fallback_charge", KV(5, 8), 0),
	V("thp_file_mapped", KV(4, 8), 0),
	/* "thp: rewrite freeze_page()/unfreeze_page()..." renamed thp_split (4.5) */
	VD("thp_split", 0, KV(4, 5), KD_COPY, "thp_split_page", NULL),
	V("thp_split_page", KV(4, 5), 0), V("thp_split_page_failed", KV(4, 5), 0),
	V("thp_deferred_split_page", KV(4, 5), 0),
	/* "mm: thp: split underused THPs" (6.12) */
	V("thp_underused_split_page", KV(6, 12), 0),
	V("thp_split_pmd", KV(4, 5), 0),
	/* "mm: khugepaged: add ... thp_scan_exceed_*" (5.19) */
	V("thp_scan_exceed_none_pte", KV(5, 19), 0), V("thp_scan_exceed_swap_pte", KV(5, 19), 0),
	V("thp_scan_exceed_share_pte", KV(5, 19), 0),
	/* "mm, thp: introduce transparent huge PUD" (4.11) */
	V("thp_split_pud", KV(4, 11), 0),
	V("thp_zero_page_alloc", 0, 0), V("thp_zero_page_alloc_failed", 0, 0),
	/* "mm, THP, swap: add THP swapping out fallback counting" (4.13) */
	V("thp_swpout", KV(4, 13), 0), V("thp_swpout_fallback", KV(4, 13), 0),
	/* "mm/balloon_compaction: ... vmstat counters" (4.0) */
	V("balloon_inflate", KV(4, 0), 0), V("balloon_deflate", KV(4, 0), 0), V("balloon_migrate", KV(4, 0), 0),
	/* "mm, swap: add swap readahead hit statistics" (4.13) */
	V("swap_ra", KV(4, 13), 0), V("swap_ra_hit", KV(4, 13), 0),
	/* "mm: count the number of zero-filled swap pages" (6.13) */
	V("swpin_zero", KV(6, 13), 0), V("swpout_zero", KV(6, 13), 0),
	/* "mm: ... ksm_swpin_copy" (5.19), "ksm: count allocated ksm rmap_items" / cow_ksm (6.1) */
	V("ksm_swpin_copy", KV(5, 19), 0), V("cow_ksm", KV(6, 1), 0),
	/* "mm: zswap: add zswpin and zswpout counters" (5.19), "zswap: writeback counter" (6.8) */
	V("zswpin", KV(5, 19), 0), V("zswpout", KV(5, 19), 0), V("zswpwb", KV(6, 8), 0),
	/* "x86/mm: Add a counter for splitting the direct map" (5.18), collapses (6.18) */
	V("direct_map_level2_splits", KV(5, 18), 0), V("direct_map_level3_splits", KV(5, 18), 0),
	V("direct_map_level2_collapses", KV(6, 18), 0), V("direct_map_level3_collapses", KV(6, 18), 0),
	V("nr_unstable", KV(5, 8), 0),

	/* ---- /proc/meminfo (meminfo_proc_show, arch_report_meminfo) ---- */
	M("MemTotal", 0, 0), M("MemFree", 0, 0),
	/* "/proc/meminfo: provide estimated available memory" (3.14) */
	M("MemAvailable", KV(3, 14), 0),
	M("Buffers", 0, 0), M("Cached", 0, 0), M("SwapCached", 0, 0), M("Active", 0, 0), M("Inactive", 0, 0),
	M("Active(anon)", 0, 0), M("Inactive(anon)", 0, 0), M("Active(file)", 0, 0), M("Inactive(file)", 0, 0),
	M("Unevictable", 0, 0), M("Mlocked", 0, 0), M("SwapTotal", 0, 0), M("SwapFree", 0, 0),
	/* "mm: zswap: add zswap accounting to meminfo" (5.19) */
	M("Zswap", KV(5, 19), 0), M("Zswapped", KV(5, 19), 0),
	M("Dirty", 0, 0), M("Writeback", 0, 0), M("AnonPages", 0, 0), M("Mapped", 0, 0), M("Shmem", 0, 0),
	/* "mm: proc: export KReclaimable in /proc/meminfo" (4.20) */
	M("KReclaimable", KV(4, 20), 0),
	M("Slab", 0, 0), M("SReclaimable", 0, 0), M("SUnreclaim", 0, 0), M("KernelStack", 0, 0),
	M("PageTables", 0, 0),
	/* NR_SECONDARY_PAGETABLE (6.0) */
	M("SecPageTables", KV(6, 0), 0),
	M("NFS_Unstable", 0, 0), M("Bounce", 0, 0), M("WritebackTmp", 0, 0), M("CommitLimit", 0, 0),
	M("Committed_AS", 0, 0), M("VmallocTotal", 0, 0), M("VmallocUsed", 0, 0), M("VmallocChunk", 0, 0),
	/* "mm: show total percpu memory in /proc/meminfo" (4.20) */
	M("Percpu", KV(4, 20), 0),
	M("AnonHugePages", 0, 0),
	/* shmem THP (4.8), file THP (5.4) */
	M("ShmemHugePages", KV(4, 8), 0), M("ShmemPmdMapped", KV(4, 8), 0),
	M("FileHugePages", KV(5, 4), 0), M("FilePmdMapped", KV(5, 4), 0),
	/* the balloon's pages (6.15) */
	M("Balloon", KV(6, 15), 0),
	M("HugePages_Total", 0, 0), M("HugePages_Free", 0, 0), M("HugePages_Rsvd", 0, 0),
	M("HugePages_Surp", 0, 0), M("Hugepagesize", 0, 0),
	/* "mm: show total hugetlb memory consumption in /proc/meminfo" (4.16) */
	M("Hugetlb", KV(4, 16), 0),
	/* DirectMap1G follows the CPU (gbpages): the synthetic direct map has no 1 GiB pages */
	M("DirectMap4k", 0, 0), M("DirectMap2M", 0, 0),

	/* ---- /proc/<pid>/status (task_state, task_mem, task_cap, task_seccomp) ---- */
	/* "sched/numa: Report the numa group ... in /proc/pid/status" (3.13) */
	F(SY_KF_NGID, KV(3, 13), 0),
	/* "/proc/PID/status: show all sets of pid according to ns" (4.1) */
	F(SY_KF_NS, KV(4, 1), 0),
	/* "proc: present process umask in /proc/<pid>/status" (4.7) */
	F(SY_KF_UMASK, KV(4, 7), 0),
	/* "proc: faster /proc/PID/status" printed the Groups: space on its own (4.10) */
	F(SY_KF_GROUPS_SPACE, KV(4, 10), 0),
	/* "fs/proc: add Kthread flag to /proc/$pid/status" (6.12) */
	F(SY_KF_KTHREAD, KV(6, 12), 0),
	/* "mm: add VmPin" (3.2) */
	F(SY_KF_VMPIN, KV(3, 2), 0),
	/* "mm: ... RssAnon, RssFile, RssShmem in /proc/PID/status" and HugetlbPages (4.5) */
	F(SY_KF_RSS, KV(4, 5), 0), F(SY_KF_HUGETLB, KV(4, 5), 0),
	/* "mm: account pmd page tables to the process" (4.0); "mm: consolidate page table accounting" (4.15) */
	F(SY_KF_VMPMD, KV(4, 0), KV(4, 15)),
	/* "proc, coredump: add CoreDumping flag to /proc/pid/status" (4.15) */
	F(SY_KF_COREDUMP, KV(4, 15), 0),
	/* "mm, proc: report PR_SET_THP_DISABLE in proc" (5.0) */
	F(SY_KF_THP, KV(5, 0), 0),
	/* "x86/mm: Provide arch_prctl() interface for LAM" adds untag_mask (6.4) */
	F(SY_KF_UNTAG, KV(6, 4), 0),
	/* "capabilities: ambient capabilities" (4.3) */
	F(SY_KF_CAPAMB, KV(4, 3), 0),
	/* "proc: Show NoNewPrivs in /proc/<pid>/status" (4.10) */
	F(SY_KF_NNP, KV(4, 10), 0),
	/* "seccomp: add "seccomp" to /proc/<pid>/status" (3.8), its filter count (5.9) */
	F(SY_KF_SECCOMP, KV(3, 8), 0), F(SY_KF_SECCOMP_FILTERS, KV(5, 9), 0),
	/* "proc: Provide details on speculation flaw mitigations" (4.17) */
	F(SY_KF_SSB, KV(4, 17), 0),
	/* "proc: Provide details on indirect branch speculation" (5.11) */
	F(SY_KF_SIB, KV(5, 11), 0),
	/* "sched/debug: Add explicit TASK_IDLE printing": "I (idle)" (4.14) */
	F(SY_KF_STATE_IDLE, KV(4, 14), 0),

	/* ---- /proc/<pid>/stat, /proc/schedstat, /proc/pressure ---- */
	/* "fs/proc, core/debug: Don't expose absolute kernel addresses via wchan" (4.4) */
	F(SY_KF_WCHAN_ADDR, 0, KV(4, 4)),
	/* "sched/balancing: ... enum cpu_idle_type" reordered the idle types: version 16 (6.10) */
	F(SY_KF_SCHEDSTAT_16, KV(6, 10), 0),
	/* "sched: Report the different kinds of imbalances", domain names: version 17 (6.15) */
	F(SY_KF_SCHEDSTAT_17, KV(6, 15), 0),
	/* "psi: pressure stall information for CPU, memory, and IO" (4.20) */
	F(SY_KF_PRESSURE, KV(4, 20), 0),
	/* "psi: Add PSI_CPU_FULL state" (5.13) */
	F(SY_KF_PRESSURE_CPU_FULL, KV(5, 13), 0),

	/* ---- /proc/<pid>/smaps and smaps_rollup (show_smap, __show_smap) ---- */
	/* SwapPss, the swap slots shared like pages (4.3) */
	F(SY_KF_SM_SWAP_PSS, KV(4, 3), 0),
	/* Shared_Hugetlb and Private_Hugetlb: hugetlb pages, which Rss leaves out (4.4) */
	F(SY_KF_SM_HUGETLB, KV(4, 4), 0),
	/* ShmemPmdMapped, with the shmem huge pages (4.8) */
	F(SY_KF_SM_SHMEM_PMD, KV(4, 8), 0),
	/* LazyFree: MADV_FREE'd pages reclaim may drop (4.12) */
	F(SY_KF_SM_LAZYFREE, KV(4, 12), 0),
	/*
	 * "mm: add /proc/pid/smaps_rollup" put the page sizes first (4.14) and
	 * printed every mapping's Pss as Locked until "mm: /proc/pid/smaps:
	 * factor out mem stats gathering" (4.19), whose rollup summed, at each
	 * locked mapping, the pss so far, until "mm: proc: smaps_rollup: Fix
	 * pss_locked calculation" (5.0)
	 */
	F(SY_KF_SM_ROLLUP, KV(4, 14), 0), F(SY_KF_SM_LOCKED_ALL, KV(4, 14), KV(4, 19)),
	F(SY_KF_SM_LOCKED_RUNNING, KV(4, 19), KV(5, 0)),
	/* "mm, thp, proc: report THP eligibility for each vma" (5.0) */
	F(SY_KF_SM_THP, KV(5, 0), 0),
	/*
	 * "mm: thp: fix false negative of shmem vma's THP eligibility" printed
	 * it after two tabs (5.3), "/proc/PID/smaps: consistent whitespace
	 * output format" after spaces again (5.9), "mm,thp: fix smaps
	 * THPeligible output alignment" in the value's column (6.6)
	 */
	F(SY_KF_SM_THP_TABS, KV(5, 3), KV(5, 9)), F(SY_KF_SM_THP_WIDE, KV(6, 6), 0),
	/* "mm: smaps: split PSS into components" (5.3) */
	F(SY_KF_SM_PSS_SPLIT, KV(5, 3), 0),
	/* "mm,thp: stats for file backed THP", its label a column short until 5.9 (above) (5.4) */
	F(SY_KF_SM_FILE_PMD, KV(5, 4), 0), F(SY_KF_SM_FILE_PMD_NARROW, KV(5, 4), KV(5, 9)),
	/* "mm/smaps: add Pss_Dirty" (6.0) */
	F(SY_KF_SM_PSS_DIRTY, KV(6, 0), 0),
	/* "proc/ksm: add ksm stats to /proc/pid/smaps" (6.7) */
	F(SY_KF_SM_KSM, KV(6, 7), 0),
	/* "mm: remove VM_DENYWRITE" (5.15): before, the exec'd ELF files' mappings print "dw" */
	F(SY_KF_DENYWRITE, 0, KV(5, 15)),
};

const size_t sy_nkfacts = sizeof(sy_kfacts) / sizeof(sy_kfacts[0]);

/* The kernels `synth:kernel=` builds, oldest first. */
const unsigned int sy_kernels[] = {
	KV(3, 10), KV(4, 4), KV(4, 9), KV(4, 14), KV(4, 18), KV(4, 19), KV(5, 4),
	KV(5, 10), KV(5, 15), KV(6, 1), KV(6, 6), KV(6, 8), KV(6, 12), KV(6, 18),
};

const size_t sy_nkernels = sizeof(sy_kernels) / sizeof(sy_kernels[0]);
