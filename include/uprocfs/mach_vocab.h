/* SPDX-License-Identifier: MIT */
/*
 * mach_vocab.h - the fixed vocabularies of /proc/meminfo and /proc/vmstat.
 *
 * Each is an X-macro list: the kernel's field names are facts of its format,
 * kept once here and expanded into enums (machine.h) and name tables
 * (src/machine/vocab.c).  A loaded file naming a field not listed here is a
 * parse error, never text carried through.
 */
#ifndef UPROCFS_MACH_VOCAB_H
#define UPROCFS_MACH_VOCAB_H

/*
 * X(ident, "Label", width, kb): the label printed before the value padded to
 * the column where the kernel's format string puts it, the value's width, and
 * whether " kB" follows.  Order is Linux 6.18's print order.
 */
#define MACH_MEMINFO_FIELDS(X) \
	X(MEMINFO_MEMTOTAL, "MemTotal:       ", 8, 1) \
	X(MEMINFO_MEMFREE, "MemFree:        ", 8, 1) \
	X(MEMINFO_MEMAVAILABLE, "MemAvailable:   ", 8, 1) \
	X(MEMINFO_BUFFERS, "Buffers:        ", 8, 1) \
	X(MEMINFO_CACHED, "Cached:         ", 8, 1) \
	X(MEMINFO_SWAPCACHED, "SwapCached:     ", 8, 1) \
	X(MEMINFO_ACTIVE, "Active:         ", 8, 1) \
	X(MEMINFO_INACTIVE, "Inactive:       ", 8, 1) \
	X(MEMINFO_ACTIVE_ANON, "Active(anon):   ", 8, 1) \
	X(MEMINFO_INACTIVE_ANON, "Inactive(anon): ", 8, 1) \
	X(MEMINFO_ACTIVE_FILE, "Active(file):   ", 8, 1) \
	X(MEMINFO_INACTIVE_FILE, "Inactive(file): ", 8, 1) \
	X(MEMINFO_UNEVICTABLE, "Unevictable:    ", 8, 1) \
	X(MEMINFO_MLOCKED, "Mlocked:        ", 8, 1) \
	X(MEMINFO_HIGHTOTAL, "HighTotal:      ", 8, 1) \
	X(MEMINFO_HIGHFREE, "HighFree:       ", 8, 1) \
	X(MEMINFO_LOWTOTAL, "LowTotal:       ", 8, 1) \
	X(MEMINFO_LOWFREE, "LowFree:        ", 8, 1) \
	X(MEMINFO_MMAPCOPY, "MmapCopy:       ", 8, 1) \
	X(MEMINFO_SWAPTOTAL, "SwapTotal:      ", 8, 1) \
	X(MEMINFO_SWAPFREE, "SwapFree:       ", 8, 1) \
	X(MEMINFO_ZSWAP, "Zswap:          ", 8, 1) \
	X(MEMINFO_ZSWAPPED, "Zswapped:       ", 8, 1) \
	X(MEMINFO_DIRTY, "Dirty:          ", 8, 1) \
	X(MEMINFO_WRITEBACK, "Writeback:      ", 8, 1) \
	X(MEMINFO_ANONPAGES, "AnonPages:      ", 8, 1) \
	X(MEMINFO_MAPPED, "Mapped:         ", 8, 1) \
	X(MEMINFO_SHMEM, "Shmem:          ", 8, 1) \
	X(MEMINFO_KRECLAIMABLE, "KReclaimable:   ", 8, 1) \
	X(MEMINFO_SLAB, "Slab:           ", 8, 1) \
	X(MEMINFO_SRECLAIMABLE, "SReclaimable:   ", 8, 1) \
	X(MEMINFO_SUNRECLAIM, "SUnreclaim:     ", 8, 1) \
	X(MEMINFO_KERNELSTACK, "KernelStack:    ", 8, 1) \
	X(MEMINFO_SHADOWCALLSTACK, "ShadowCallStack:", 8, 1) \
	X(MEMINFO_PAGETABLES, "PageTables:     ", 8, 1) \
	X(MEMINFO_SECPAGETABLES, "SecPageTables:  ", 8, 1) \
	X(MEMINFO_NFS_UNSTABLE, "NFS_Unstable:   ", 8, 1) \
	X(MEMINFO_BOUNCE, "Bounce:         ", 8, 1) \
	X(MEMINFO_WRITEBACKTMP, "WritebackTmp:   ", 8, 1) \
	X(MEMINFO_COMMITLIMIT, "CommitLimit:    ", 8, 1) \
	X(MEMINFO_COMMITTED_AS, "Committed_AS:   ", 8, 1) \
	X(MEMINFO_VMALLOCTOTAL, "VmallocTotal:   ", 8, 1) \
	X(MEMINFO_VMALLOCUSED, "VmallocUsed:    ", 8, 1) \
	X(MEMINFO_VMALLOCCHUNK, "VmallocChunk:   ", 8, 1) \
	X(MEMINFO_PERCPU, "Percpu:         ", 8, 1) \
	X(MEMINFO_HARDWARECORRUPTED, "HardwareCorrupted: ", 5, 1) \
	X(MEMINFO_ANONHUGEPAGES, "AnonHugePages:  ", 8, 1) \
	X(MEMINFO_SHMEMHUGEPAGES, "ShmemHugePages: ", 8, 1) \
	X(MEMINFO_SHMEMPMDMAPPED, "ShmemPmdMapped: ", 8, 1) \
	X(MEMINFO_FILEHUGEPAGES, "FileHugePages:  ", 8, 1) \
	X(MEMINFO_FILEPMDMAPPED, "FilePmdMapped:  ", 8, 1) \
	X(MEMINFO_CMATOTAL, "CmaTotal:       ", 8, 1) \
	X(MEMINFO_CMAFREE, "CmaFree:        ", 8, 1) \
	X(MEMINFO_UNACCEPTED, "Unaccepted:     ", 8, 1) \
	X(MEMINFO_BALLOON, "Balloon:        ", 8, 1) \
	X(MEMINFO_GPUACTIVE, "GPUActive:      ", 8, 1) \
	X(MEMINFO_GPURECLAIM, "GPUReclaim:     ", 8, 1) \
	X(MEMINFO_HUGEPAGES_TOTAL, "HugePages_Total:   ", 5, 0) \
	X(MEMINFO_HUGEPAGES_FREE, "HugePages_Free:    ", 5, 0) \
	X(MEMINFO_HUGEPAGES_RSVD, "HugePages_Rsvd:    ", 5, 0) \
	X(MEMINFO_HUGEPAGES_SURP, "HugePages_Surp:    ", 5, 0) \
	X(MEMINFO_HUGEPAGESIZE, "Hugepagesize:   ", 8, 1) \
	X(MEMINFO_HUGETLB, "Hugetlb:        ", 8, 1) \
	X(MEMINFO_DIRECTMAP4K, "DirectMap4k:    ", 8, 1) \
	X(MEMINFO_DIRECTMAP2M, "DirectMap2M:    ", 8, 1) \
	X(MEMINFO_DIRECTMAP4M, "DirectMap4M:    ", 8, 1) \
	X(MEMINFO_DIRECTMAP1G, "DirectMap1G:    ", 8, 1)

/* X(ident, "name"): /proc/vmstat names, in Linux 6.18 print order. */
#define MACH_VMSTAT_FIELDS(X) \
	X(VMSTAT_NR_FREE_PAGES, "nr_free_pages") \
	X(VMSTAT_NR_FREE_PAGES_BLOCKS, "nr_free_pages_blocks") \
	X(VMSTAT_NR_ZONE_INACTIVE_ANON, "nr_zone_inactive_anon") \
	X(VMSTAT_NR_ZONE_ACTIVE_ANON, "nr_zone_active_anon") \
	X(VMSTAT_NR_ZONE_INACTIVE_FILE, "nr_zone_inactive_file") \
	X(VMSTAT_NR_ZONE_ACTIVE_FILE, "nr_zone_active_file") \
	X(VMSTAT_NR_ZONE_UNEVICTABLE, "nr_zone_unevictable") \
	X(VMSTAT_NR_ZONE_WRITE_PENDING, "nr_zone_write_pending") \
	X(VMSTAT_NR_MLOCK, "nr_mlock") \
	X(VMSTAT_NR_ZSPAGES, "nr_zspages") \
	X(VMSTAT_NR_FREE_CMA, "nr_free_cma") \
	X(VMSTAT_NUMA_HIT, "numa_hit") \
	X(VMSTAT_NUMA_MISS, "numa_miss") \
	X(VMSTAT_NUMA_FOREIGN, "numa_foreign") \
	X(VMSTAT_NUMA_INTERLEAVE, "numa_interleave") \
	X(VMSTAT_NUMA_LOCAL, "numa_local") \
	X(VMSTAT_NUMA_OTHER, "numa_other") \
	X(VMSTAT_NR_INACTIVE_ANON, "nr_inactive_anon") \
	X(VMSTAT_NR_ACTIVE_ANON, "nr_active_anon") \
	X(VMSTAT_NR_INACTIVE_FILE, "nr_inactive_file") \
	X(VMSTAT_NR_ACTIVE_FILE, "nr_active_file") \
	X(VMSTAT_NR_UNEVICTABLE, "nr_unevictable") \
	X(VMSTAT_NR_SLAB_RECLAIMABLE, "nr_slab_reclaimable") \
	X(VMSTAT_NR_SLAB_UNRECLAIMABLE, "nr_slab_unreclaimable") \
	X(VMSTAT_NR_ISOLATED_ANON, "nr_isolated_anon") \
	X(VMSTAT_NR_ISOLATED_FILE, "nr_isolated_file") \
	X(VMSTAT_WORKINGSET_NODES, "workingset_nodes") \
	X(VMSTAT_WORKINGSET_REFAULT_ANON, "workingset_refault_anon") \
	X(VMSTAT_WORKINGSET_REFAULT_FILE, "workingset_refault_file") \
	X(VMSTAT_WORKINGSET_ACTIVATE_ANON, "workingset_activate_anon") \
	X(VMSTAT_WORKINGSET_ACTIVATE_FILE, "workingset_activate_file") \
	X(VMSTAT_WORKINGSET_RESTORE_ANON, "workingset_restore_anon") \
	X(VMSTAT_WORKINGSET_RESTORE_FILE, "workingset_restore_file") \
	X(VMSTAT_WORKINGSET_NODERECLAIM, "workingset_nodereclaim") \
	X(VMSTAT_NR_ANON_PAGES, "nr_anon_pages") \
	X(VMSTAT_NR_MAPPED, "nr_mapped") \
	X(VMSTAT_NR_FILE_PAGES, "nr_file_pages") \
	X(VMSTAT_NR_DIRTY, "nr_dirty") \
	X(VMSTAT_NR_WRITEBACK, "nr_writeback") \
	X(VMSTAT_NR_SHMEM, "nr_shmem") \
	X(VMSTAT_NR_SHMEM_HUGEPAGES, "nr_shmem_hugepages") \
	X(VMSTAT_NR_SHMEM_PMDMAPPED, "nr_shmem_pmdmapped") \
	X(VMSTAT_NR_FILE_HUGEPAGES, "nr_file_hugepages") \
	X(VMSTAT_NR_FILE_PMDMAPPED, "nr_file_pmdmapped") \
	X(VMSTAT_NR_ANON_TRANSPARENT_HUGEPAGES, "nr_anon_transparent_hugepages") \
	X(VMSTAT_NR_VMSCAN_WRITE, "nr_vmscan_write") \
	X(VMSTAT_NR_VMSCAN_IMMEDIATE_RECLAIM, "nr_vmscan_immediate_reclaim") \
	X(VMSTAT_NR_DIRTIED, "nr_dirtied") \
	X(VMSTAT_NR_WRITTEN, "nr_written") \
	X(VMSTAT_NR_THROTTLED_WRITTEN, "nr_throttled_written") \
	X(VMSTAT_NR_KERNEL_MISC_RECLAIMABLE, "nr_kernel_misc_reclaimable") \
	X(VMSTAT_NR_FOLL_PIN_ACQUIRED, "nr_foll_pin_acquired") \
	X(VMSTAT_NR_FOLL_PIN_RELEASED, "nr_foll_pin_released") \
	X(VMSTAT_NR_KERNEL_STACK, "nr_kernel_stack") \
	X(VMSTAT_NR_PAGE_TABLE_PAGES, "nr_page_table_pages") \
	X(VMSTAT_NR_SEC_PAGE_TABLE_PAGES, "nr_sec_page_table_pages") \
	X(VMSTAT_NR_IOMMU_PAGES, "nr_iommu_pages") \
	X(VMSTAT_NR_SWAPCACHED, "nr_swapcached") \
	X(VMSTAT_PGPROMOTE_SUCCESS, "pgpromote_success") \
	X(VMSTAT_PGPROMOTE_CANDIDATE, "pgpromote_candidate") \
	X(VMSTAT_PGPROMOTE_CANDIDATE_NRL, "pgpromote_candidate_nrl") \
	X(VMSTAT_PGDEMOTE_KSWAPD, "pgdemote_kswapd") \
	X(VMSTAT_PGDEMOTE_DIRECT, "pgdemote_direct") \
	X(VMSTAT_PGDEMOTE_KHUGEPAGED, "pgdemote_khugepaged") \
	X(VMSTAT_PGDEMOTE_PROACTIVE, "pgdemote_proactive") \
	X(VMSTAT_NR_HUGETLB, "nr_hugetlb") \
	X(VMSTAT_NR_BALLOON_PAGES, "nr_balloon_pages") \
	X(VMSTAT_NR_KERNEL_FILE_PAGES, "nr_kernel_file_pages") \
	X(VMSTAT_NR_DIRTY_THRESHOLD, "nr_dirty_threshold") \
	X(VMSTAT_NR_DIRTY_BACKGROUND_THRESHOLD, "nr_dirty_background_threshold") \
	X(VMSTAT_NR_MEMMAP_PAGES, "nr_memmap_pages") \
	X(VMSTAT_NR_MEMMAP_BOOT_PAGES, "nr_memmap_boot_pages") \
	X(VMSTAT_PGPGIN, "pgpgin") \
	X(VMSTAT_PGPGOUT, "pgpgout") \
	X(VMSTAT_PSWPIN, "pswpin") \
	X(VMSTAT_PSWPOUT, "pswpout") \
	X(VMSTAT_PGALLOC_DMA, "pgalloc_dma") \
	X(VMSTAT_PGALLOC_DMA32, "pgalloc_dma32") \
	X(VMSTAT_PGALLOC_NORMAL, "pgalloc_normal") \
	X(VMSTAT_PGALLOC_MOVABLE, "pgalloc_movable") \
	X(VMSTAT_PGALLOC_DEVICE, "pgalloc_device") \
	X(VMSTAT_ALLOCSTALL_DMA, "allocstall_dma") \
	X(VMSTAT_ALLOCSTALL_DMA32, "allocstall_dma32") \
	X(VMSTAT_ALLOCSTALL_NORMAL, "allocstall_normal") \
	X(VMSTAT_ALLOCSTALL_MOVABLE, "allocstall_movable") \
	X(VMSTAT_ALLOCSTALL_DEVICE, "allocstall_device") \
	X(VMSTAT_PGSKIP_DMA, "pgskip_dma") \
	X(VMSTAT_PGSKIP_DMA32, "pgskip_dma32") \
	X(VMSTAT_PGSKIP_NORMAL, "pgskip_normal") \
	X(VMSTAT_PGSKIP_MOVABLE, "pgskip_movable") \
	X(VMSTAT_PGSKIP_DEVICE, "pgskip_device") \
	X(VMSTAT_PGFREE, "pgfree") \
	X(VMSTAT_PGACTIVATE, "pgactivate") \
	X(VMSTAT_PGDEACTIVATE, "pgdeactivate") \
	X(VMSTAT_PGLAZYFREE, "pglazyfree") \
	X(VMSTAT_PGFAULT, "pgfault") \
	X(VMSTAT_PGMAJFAULT, "pgmajfault") \
	X(VMSTAT_PGLAZYFREED, "pglazyfreed") \
	X(VMSTAT_PGREFILL, "pgrefill") \
	X(VMSTAT_PGREUSE, "pgreuse") \
	X(VMSTAT_PGSTEAL_KSWAPD, "pgsteal_kswapd") \
	X(VMSTAT_PGSTEAL_DIRECT, "pgsteal_direct") \
	X(VMSTAT_PGSTEAL_KHUGEPAGED, "pgsteal_khugepaged") \
	X(VMSTAT_PGSTEAL_PROACTIVE, "pgsteal_proactive") \
	X(VMSTAT_PGSCAN_KSWAPD, "pgscan_kswapd") \
	X(VMSTAT_PGSCAN_DIRECT, "pgscan_direct") \
	X(VMSTAT_PGSCAN_KHUGEPAGED, "pgscan_khugepaged") \
	X(VMSTAT_PGSCAN_PROACTIVE, "pgscan_proactive") \
	X(VMSTAT_PGSCAN_DIRECT_THROTTLE, "pgscan_direct_throttle") \
	X(VMSTAT_PGSCAN_ANON, "pgscan_anon") \
	X(VMSTAT_PGSCAN_FILE, "pgscan_file") \
	X(VMSTAT_PGSTEAL_ANON, "pgsteal_anon") \
	X(VMSTAT_PGSTEAL_FILE, "pgsteal_file") \
	X(VMSTAT_ZONE_RECLAIM_SUCCESS, "zone_reclaim_success") \
	X(VMSTAT_ZONE_RECLAIM_FAILED, "zone_reclaim_failed") \
	X(VMSTAT_PGINODESTEAL, "pginodesteal") \
	X(VMSTAT_SLABS_SCANNED, "slabs_scanned") \
	X(VMSTAT_KSWAPD_INODESTEAL, "kswapd_inodesteal") \
	X(VMSTAT_KSWAPD_LOW_WMARK_HIT_QUICKLY, "kswapd_low_wmark_hit_quickly") \
	X(VMSTAT_KSWAPD_HIGH_WMARK_HIT_QUICKLY, "kswapd_high_wmark_hit_quickly") \
	X(VMSTAT_PAGEOUTRUN, "pageoutrun") \
	X(VMSTAT_PGROTATED, "pgrotated") \
	X(VMSTAT_DROP_PAGECACHE, "drop_pagecache") \
	X(VMSTAT_DROP_SLAB, "drop_slab") \
	X(VMSTAT_OOM_KILL, "oom_kill") \
	X(VMSTAT_NUMA_PTE_UPDATES, "numa_pte_updates") \
	X(VMSTAT_NUMA_HUGE_PTE_UPDATES, "numa_huge_pte_updates") \
	X(VMSTAT_NUMA_HINT_FAULTS, "numa_hint_faults") \
	X(VMSTAT_NUMA_HINT_FAULTS_LOCAL, "numa_hint_faults_local") \
	X(VMSTAT_NUMA_PAGES_MIGRATED, "numa_pages_migrated") \
	X(VMSTAT_PGMIGRATE_SUCCESS, "pgmigrate_success") \
	X(VMSTAT_PGMIGRATE_FAIL, "pgmigrate_fail") \
	X(VMSTAT_THP_MIGRATION_SUCCESS, "thp_migration_success") \
	X(VMSTAT_THP_MIGRATION_FAIL, "thp_migration_fail") \
	X(VMSTAT_THP_MIGRATION_SPLIT, "thp_migration_split") \
	X(VMSTAT_COMPACT_MIGRATE_SCANNED, "compact_migrate_scanned") \
	X(VMSTAT_COMPACT_FREE_SCANNED, "compact_free_scanned") \
	X(VMSTAT_COMPACT_ISOLATED, "compact_isolated") \
	X(VMSTAT_COMPACT_STALL, "compact_stall") \
	X(VMSTAT_COMPACT_FAIL, "compact_fail") \
	X(VMSTAT_COMPACT_SUCCESS, "compact_success") \
	X(VMSTAT_COMPACT_DAEMON_WAKE, "compact_daemon_wake") \
	X(VMSTAT_COMPACT_DAEMON_MIGRATE_SCANNED, "compact_daemon_migrate_scanned") \
	X(VMSTAT_COMPACT_DAEMON_FREE_SCANNED, "compact_daemon_free_scanned") \
	X(VMSTAT_HTLB_BUDDY_ALLOC_SUCCESS, "htlb_buddy_alloc_success") \
	X(VMSTAT_HTLB_BUDDY_ALLOC_FAIL, "htlb_buddy_alloc_fail") \
	X(VMSTAT_UNEVICTABLE_PGS_CULLED, "unevictable_pgs_culled") \
	X(VMSTAT_UNEVICTABLE_PGS_SCANNED, "unevictable_pgs_scanned") \
	X(VMSTAT_UNEVICTABLE_PGS_RESCUED, "unevictable_pgs_rescued") \
	X(VMSTAT_UNEVICTABLE_PGS_MLOCKED, "unevictable_pgs_mlocked") \
	X(VMSTAT_UNEVICTABLE_PGS_MUNLOCKED, "unevictable_pgs_munlocked") \
	X(VMSTAT_UNEVICTABLE_PGS_CLEARED, "unevictable_pgs_cleared") \
	X(VMSTAT_UNEVICTABLE_PGS_STRANDED, "unevictable_pgs_stranded") \
	X(VMSTAT_THP_FAULT_ALLOC, "thp_fault_alloc") \
	X(VMSTAT_THP_FAULT_FALLBACK, "thp_fault_fallback") \
	X(VMSTAT_THP_FAULT_FALLBACK_CHARGE, "thp_fault_fallback_charge") \
	X(VMSTAT_THP_COLLAPSE_ALLOC, "thp_collapse_alloc") \
	X(VMSTAT_THP_COLLAPSE_ALLOC_FAILED, "thp_collapse_alloc_failed") \
	X(VMSTAT_THP_FILE_ALLOC, "thp_file_alloc") \
	X(VMSTAT_THP_FILE_FALLBACK, "thp_file_fallback") \
	X(VMSTAT_THP_FILE_FALLBACK_CHARGE, "thp_file_fallback_charge") \
	X(VMSTAT_THP_FILE_MAPPED, "thp_file_mapped") \
	X(VMSTAT_THP_SPLIT_PAGE, "thp_split_page") \
	X(VMSTAT_THP_SPLIT_PAGE_FAILED, "thp_split_page_failed") \
	X(VMSTAT_THP_DEFERRED_SPLIT_PAGE, "thp_deferred_split_page") \
	X(VMSTAT_THP_UNDERUSED_SPLIT_PAGE, "thp_underused_split_page") \
	X(VMSTAT_THP_SPLIT_PMD, "thp_split_pmd") \
	X(VMSTAT_THP_SCAN_EXCEED_NONE_PTE, "thp_scan_exceed_none_pte") \
	X(VMSTAT_THP_SCAN_EXCEED_SWAP_PTE, "thp_scan_exceed_swap_pte") \
	X(VMSTAT_THP_SCAN_EXCEED_SHARE_PTE, "thp_scan_exceed_share_pte") \
	X(VMSTAT_THP_SPLIT_PUD, "thp_split_pud") \
	X(VMSTAT_THP_ZERO_PAGE_ALLOC, "thp_zero_page_alloc") \
	X(VMSTAT_THP_ZERO_PAGE_ALLOC_FAILED, "thp_zero_page_alloc_failed") \
	X(VMSTAT_THP_SWPOUT, "thp_swpout") \
	X(VMSTAT_THP_SWPOUT_FALLBACK, "thp_swpout_fallback") \
	X(VMSTAT_BALLOON_INFLATE, "balloon_inflate") \
	X(VMSTAT_BALLOON_DEFLATE, "balloon_deflate") \
	X(VMSTAT_BALLOON_MIGRATE, "balloon_migrate") \
	X(VMSTAT_SWAP_RA, "swap_ra") \
	X(VMSTAT_SWAP_RA_HIT, "swap_ra_hit") \
	X(VMSTAT_SWPIN_ZERO, "swpin_zero") \
	X(VMSTAT_SWPOUT_ZERO, "swpout_zero") \
	X(VMSTAT_KSM_SWPIN_COPY, "ksm_swpin_copy") \
	X(VMSTAT_COW_KSM, "cow_ksm") \
	X(VMSTAT_ZSWPIN, "zswpin") \
	X(VMSTAT_ZSWPOUT, "zswpout") \
	X(VMSTAT_ZSWPWB, "zswpwb") \
	X(VMSTAT_DIRECT_MAP_LEVEL2_SPLITS, "direct_map_level2_splits") \
	X(VMSTAT_DIRECT_MAP_LEVEL3_SPLITS, "direct_map_level3_splits") \
	X(VMSTAT_DIRECT_MAP_LEVEL2_COLLAPSES, "direct_map_level2_collapses") \
	X(VMSTAT_DIRECT_MAP_LEVEL3_COLLAPSES, "direct_map_level3_collapses") \
	X(VMSTAT_NR_UNSTABLE, "nr_unstable")

/*
 * X(ident, "SYM", "description", in_intr): the x86 rows /proc/interrupts
 * prints after the device irqs (arch_show_interrupts, the 6.18 seq_printf
 * form), in print order.  in_intr: the row's counts are in /proc/stat's
 * intr total (arch_irq_stat_cpu, arch_irq_stat).  ERR and MIS print one
 * machine-wide number and no description (NULL).
 */
#define MACH_ARCH_IRQ_ROWS(X) \
	X(NMI, "NMI", "Non-maskable interrupts", 1) \
	X(LOC, "LOC", "Local timer interrupts", 1) \
	X(SPU, "SPU", "Spurious interrupts", 1) \
	X(PMI, "PMI", "Performance monitoring interrupts", 1) \
	X(IWI, "IWI", "IRQ work interrupts", 1) \
	X(RTR, "RTR", "APIC ICR read retries", 1) \
	X(PLT, "PLT", "Platform interrupts", 1) \
	X(RES, "RES", "Rescheduling interrupts", 1) \
	X(CAL, "CAL", "Function call interrupts", 1) \
	X(TLB, "TLB", "TLB shootdowns", 0) \
	X(TRM, "TRM", "Thermal event interrupts", 1) \
	X(THR, "THR", "Threshold APIC interrupts", 1) \
	X(DFR, "DFR", "Deferred Error APIC interrupts", 0) \
	X(MCE, "MCE", "Machine check exceptions", 1) \
	X(MCP, "MCP", "Machine check polls", 1) \
	X(HYP, "HYP", "Hypervisor callback interrupts", 1) \
	X(HRE, "HRE", "Hyper-V reenlightenment interrupts", 1) \
	X(HVS, "HVS", "Hyper-V stimer0 interrupts", 1) \
	X(ERR, "ERR", NULL, 1) \
	X(MIS, "MIS", NULL, 0) \
	X(PIN, "PIN", "Posted-interrupt notification event", 0) \
	X(NPI, "NPI", "Nested posted-interrupt event", 0) \
	X(PIW, "PIW", "Posted-interrupt wakeup event", 0) \
	X(PMN, "PMN", "Posted MSI notification event", 0)

/* X(ident, "NAME"): the softirq vectors in /proc/softirqs order (softirq_to_name). */
#define MACH_SOFTIRQ_NAMES(X) \
	X(HI, "HI") X(TIMER, "TIMER") X(NET_TX, "NET_TX") X(NET_RX, "NET_RX") X(BLOCK, "BLOCK") \
	X(IRQ_POLL, "IRQ_POLL") X(TASKLET, "TASKLET") X(SCHED, "SCHED") X(HRTIMER, "HRTIMER") \
	X(RCU, "RCU")

#define MACH__MEMINFO_ENUM(id, label, width, kb) MACH_##id,
#define MACH__VMSTAT_ENUM(id, name) MACH_##id,

enum mach_meminfo_id { MACH_MEMINFO_FIELDS(MACH__MEMINFO_ENUM) MACH_NR_MEMINFO };
enum mach_vmstat_id { MACH_VMSTAT_FIELDS(MACH__VMSTAT_ENUM) MACH_NR_VMSTAT };

#define MACH__ARCH_IRQ_ENUM(id, sym, text, in_intr) MACH_ARCH_IRQ_##id,
#define MACH__SOFTIRQ_ENUM(id, name) MACH_SOFTIRQ_##id,

enum mach_arch_irq { MACH_ARCH_IRQ_ROWS(MACH__ARCH_IRQ_ENUM) MACH_NR_ARCH_IRQS };
enum mach_softirq { MACH_SOFTIRQ_NAMES(MACH__SOFTIRQ_ENUM) MACH_NR_SOFTIRQ_NAMES };

/** How one arch row of /proc/interrupts prints, and whether /proc/stat's intr total counts it. */
struct mach_arch_irq_format {
	const char *sym;
	const char *text;       /* NULL: one machine-wide number (ERR, MIS) */
	unsigned char in_intr;
};

/** Per arch row. */
extern const struct mach_arch_irq_format mach_arch_irq_formats[MACH_NR_ARCH_IRQS];
/** Per softirq vector. */
extern const char *const mach_softirq_names[MACH_NR_SOFTIRQ_NAMES];

/** How one meminfo line prints. */
struct mach_meminfo_format {
	const char *label;      /* with the padding before the value */
	unsigned char width;    /* value right-aligned to this many columns */
	unsigned char kb;       /* followed by " kB" */
};

/** Per meminfo id. */
extern const struct mach_meminfo_format mach_meminfo_formats[MACH_NR_MEMINFO];
/** Per vmstat id. */
extern const char *const mach_vmstat_names[MACH_NR_VMSTAT];

#endif
