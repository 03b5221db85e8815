/* SPDX-License-Identifier: MIT */
/*
 * mach_sys.h - the rest of the machine: block devices and their I/O
 * counters, swap areas, memory zones and their free lists, slab caches, the
 * kernel's identity and command line, its registries (filesystem types,
 * device majors, misc devices, cgroup controllers) and the file locks.
 *
 * /proc/diskstats, partitions, swaps, filesystems, version, cmdline,
 * buddyinfo, zoneinfo, slabinfo, cgroups, devices, misc and locks print
 * from here; a later /sys/block reads the same block devices.  Units are
 * the kernel's: sectors of 512 bytes, pages, nanoseconds, jiffies.
 * machine.h includes this header; struct mach_machine holds one struct
 * mach_sys and struct mach_profile one struct mach_sys_profile.
 */
#ifndef UPROCFS_MACH_SYS_H
#define UPROCFS_MACH_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uprocfs/mach_vocab.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mach_blk_sysfs;

#define MACH_NR_PAGE_ORDERS 11       /* x86_64: orders 0..10 (MAX_PAGE_ORDER 10) */
#define MACH_BLOCK_EXT_MAJOR 259     /* blkext: extended dev_t of partitions past a disk's minors */
#define MACH_LOCK_EOF INT64_MAX      /* a POSIX lock's end at OFFSET_MAX prints "EOF" */

/* ------------------------------------------------------------------ */
/* Block devices (block/genhd.c)                                        */

/** The stat groups of struct disk_stats, in the kernel's order (STAT_READ...). */
enum mach_blk_group { MACH_BLK_READ, MACH_BLK_WRITE, MACH_BLK_DISCARD, MACH_BLK_FLUSH, MACH_NR_BLK_GROUPS };

/** A block device's counters: struct disk_stats summed over CPUs, and what is in flight. */
struct mach_blk_stats {
	uint64_t ios[MACH_NR_BLK_GROUPS];     /* completed requests */
	uint64_t merges[MACH_NR_BLK_GROUPS];  /* requests merged into others (no flush merges) */
	uint64_t sectors[MACH_NR_BLK_GROUPS]; /* 512-byte sectors moved (no flush sectors) */
	uint64_t nsecs[MACH_NR_BLK_GROUPS];   /* time the completed requests took, ns */
	uint64_t io_ticks;                    /* jiffies with at least one request in flight */
	unsigned int in_flight[2];            /* reads and writes in flight now */
};

/** What drives a disk: the /sys/block layout and naming follow from it. */
enum mach_blk_kind {
	MACH_BLK_VIRTIO,  /* virtio_blk: vda */
	MACH_BLK_NVME,    /* nvme0n1 on blkext */
	MACH_BLK_SCSI,    /* sd: sda */
	MACH_BLK_DM,      /* device-mapper: dm-0 */
	MACH_BLK_LOOP,    /* loop0 */
	MACH_BLK_ZRAM,    /* zram0 */
	MACH_BLK_OTHER,   /* loaded from /proc alone: the driver is not known */
	MACH_NR_BLK_KINDS
};

/**
 * One block device: a whole disk (part0) or a partition.  The machine
 * lists them in block-class registration order, each disk followed by its
 * partitions in partition-number order, as diskstats walks them.
 */
struct mach_blkdev {
	char name[32];            /* %pg: "nvme0n1", "nvme0n1p2", "sda1", "dm-0" */
	uint32_t major, minor;
	unsigned int partno;      /* 0: the whole disk */
	unsigned int disk;        /* index of its disk in mach_sys.blk (its own for a disk) */
	uint64_t nr_sects;        /* size in 512-byte sectors (0: no medium, loop not bound) */
	uint64_t start_sect;      /* a partition's first sector on its disk */
	bool hidden;              /* GENHD_FL_HIDDEN (nvme multipath paths): not in /proc/partitions */
	enum mach_blk_kind kind;
	char dm_name[64];         /* device-mapper: /dev/mapper/NAME; "" otherwise */
	int slave;                /* the device this one sits on (a dm target's, a loop's file's), -1 none */
	char *backing_file;       /* loop: the file it maps; NULL otherwise */
	struct mach_blk_stats st;
	struct mach_blk_sysfs *sysfs; /* what /sys shows beyond /proc (mach_sysfs.h); NULL: not known */
};

/* ------------------------------------------------------------------ */
/* Swap areas (mm/swapfile.c)                                           */

struct mach_swap {
	char *path;               /* the swap file or device, as the reader's root sees it */
	bool is_file;             /* a regular file ("file"), else a block device ("partition") */
	int blkdev;               /* a partition's index in mach_sys.blk, -1 for a file or unknown */
	uint64_t pages;           /* si->pages: usable pages (a swap file's header page excluded) */
	uint64_t inuse_pages;     /* slots in use */
	int prio;                 /* swapon priority: automatic ones count down from -2 */
};

/* ------------------------------------------------------------------ */
/* Memory nodes and zones (mm/vmstat.c, mm/page_alloc.c)                 */

enum mach_zone_type {
	MACH_ZONE_DMA, MACH_ZONE_DMA32, MACH_ZONE_NORMAL, MACH_ZONE_MOVABLE, MACH_ZONE_DEVICE,
	MACH_NR_ZONE_TYPES
};

/** A zone's per-CPU page lists on one online CPU. */
struct mach_pageset {
	unsigned int cpu;
	int count, high, batch, high_min, high_max; /* struct per_cpu_pages */
	int stat_threshold;                        /* per_cpu_zonestat: vm stats threshold */
};

struct mach_zone {
	/*
	 * "pages free": NR_FREE_PAGES when the zone's header was printed.
	 * The stat list reads the counter again (stat[MACH_VMSTAT_NR_FREE_PAGES]),
	 * and on a busy machine the two may differ.
	 */
	uint64_t pages_free;
	uint64_t boost;                            /* watermark_boost */
	uint64_t wmark_min, wmark_low, wmark_high, wmark_promo;
	uint64_t spanned, present, managed, cma;   /* pages; present 0: unpopulated */
	long lowmem_reserve[MACH_NR_ZONE_TYPES];   /* "protection" */
	uint64_t stat[MACH_NR_VMSTAT];             /* zone and NUMA items, by vmstat id */
	uint64_t free_area[MACH_NR_PAGE_ORDERS];   /* free blocks of each order (buddyinfo) */
	unsigned int npagesets;
	struct mach_pageset *pagesets;             /* one per online CPU, ascending */
	uint64_t start_pfn;
};

/** An online NUMA node and its zones (pg_data_t). */
struct mach_mem_node {
	unsigned int id;
	bool unreclaimable;                        /* kswapd_failures >= MAX_RECLAIM_RETRIES */
	uint64_t stat[MACH_NR_VMSTAT];             /* node items by vmstat id, as vmstat prints them */
	struct mach_zone zones[MACH_NR_ZONE_TYPES];
};

/* ------------------------------------------------------------------ */
/* Slab caches (mm/slab_common.c, SLUB)                                  */

struct mach_slab_cache {
	char *name;
	uint64_t active_objs, num_objs;
	unsigned int size;        /* s->size: bytes an object takes with its metadata */
	unsigned int objs_per_slab;
	unsigned int order;       /* a slab is 1 << order pages */
	uint64_t nr_slabs;
	bool reclaimable;         /* SLAB_RECLAIM_ACCOUNT: counted in SReclaimable (not printed) */
};

/* ------------------------------------------------------------------ */
/* The kernel's identity and registries                                 */

struct mach_kernel_id {
	char sysname[65];         /* utsname()->sysname; the release is the profile's kernel_release */
	char uts_version[65];     /* utsname()->version: "#1 SMP PREEMPT_DYNAMIC ..." */
	char compile_by[64];      /* LINUX_COMPILE_BY */
	char compile_host[64];    /* LINUX_COMPILE_HOST */
	char compiler[256];       /* LINUX_COMPILER: "gcc (GCC) 15.3.0, GNU ld ... 2.46" */
	char *cmdline;            /* saved_command_line (no newline); NULL: empty */
};

/** A registered filesystem type, in registration order. */
struct mach_fstype {
	char name[32];
	bool requires_dev;        /* FS_REQUIRES_DEV: printed without "nodev" */
};

/** A registered char or block device major (one region of it). */
struct mach_devmajor {
	unsigned int major;
	char name[64];
};

/** A misc device (major 10), in the misc list's order: newest first. */
struct mach_miscdev {
	unsigned int minor;
	char name[64];
};

/** A cgroup controller as /proc/cgroups shows it, in subsystem-id order. */
struct mach_cgroup_subsys {
	char name[32];            /* legacy (v1) name: "blkio", not "io" */
	int hierarchy;            /* v1 hierarchy id; 0: the v2 hierarchy or unmounted */
	int num_cgroups;          /* cgroups in that hierarchy */
	bool enabled;
};

/* ------------------------------------------------------------------ */
/* File locks (fs/locks.c)                                              */

enum mach_lock_class {
	MACH_LOCK_POSIX, MACH_LOCK_OFDLCK, MACH_LOCK_ACCESS, MACH_LOCK_FLOCK,
	MACH_LOCK_LEASE, MACH_LOCK_DELEG, MACH_LOCK_UNKNOWN, MACH_NR_LOCK_CLASSES
};

/** A lease's state; only leases and delegations have one. */
enum mach_lease_state { MACH_LEASE_ACTIVE, MACH_LEASE_BREAKING, MACH_LEASE_BREAKER, MACH_NR_LEASE_STATES };

/** The type printed (a lease's target type while it breaks). */
enum mach_lock_type { MACH_LOCK_READ, MACH_LOCK_WRITE, MACH_LOCK_UNLCK, MACH_NR_LOCK_TYPES };

/**
 * One line of /proc/locks: a lock of the global list (level 0) or a
 * request blocked on it (level n: n deep in its tree of waiters, under the
 * nearest line before it with level n - 1).  Waiters share their root's id.
 */
struct mach_file_lock {
	int64_t id;               /* the list position the kernel prints (hidden owners leave gaps) */
	unsigned int level;
	enum mach_lock_class cls;
	enum mach_lease_state lease;
	enum mach_lock_type type;
	int pid;                  /* the owner as the reader's pid namespace sees it; -1 for OFD locks */
	bool has_inode;           /* false: "*NOINODE*" and "<none>:0" */
	uint32_t dev_major, dev_minor; /* the inode's superblock device */
	uint64_t ino;
	int64_t start, end;       /* POSIX-style byte range; end MACH_LOCK_EOF: to the end */
	int fd;                   /* the owner's descriptor holding it (fdinfo "lock:"), -1 unknown */
};

/* ------------------------------------------------------------------ */
/* The whole                                                            */

/** What of the kernel's configuration these files show. */
struct mach_sys_profile {
	unsigned int hz;          /* CONFIG_HZ: io_ticks are jiffies */
	unsigned int nzone_types; /* MAX_NR_ZONES: the first this-many of enum mach_zone_type */
	unsigned int nzone_items; /* zoneinfo's per-zone stat lines, NUMA events included */
	enum mach_vmstat_id zone_items[MACH_NR_VMSTAT];
	unsigned int nnode_items; /* zoneinfo's "per-node stats" lines */
	enum mach_vmstat_id node_items[MACH_NR_VMSTAT];
};

struct mach_sys {
	size_t nblk;
	struct mach_blkdev *blk;
	int root_blk;             /* the device holding /, -1 unknown */

	size_t nswaps;
	struct mach_swap *swaps;  /* in swap type order (swapon order) */

	unsigned int nnodes;
	struct mach_mem_node *nodes; /* online nodes, ascending */

	size_t nslabs;
	struct mach_slab_cache *slabs; /* in slab_caches order: newest first */

	struct mach_kernel_id kid;

	size_t nfstypes;
	struct mach_fstype *fstypes;
	size_t nchrdevs, nblkdevs;
	struct mach_devmajor *chrdevs, *blkdevs; /* ascending by major, regions by base minor */
	size_t nmisc;
	struct mach_miscdev *misc;
	size_t ncgroup_subsys;
	struct mach_cgroup_subsys *cgroup_subsys;

	size_t nlocks;
	struct mach_file_lock *locks; /* printed order */
};

/* ------------------------------------------------------------------ */
/* Names and lifetimes (src/machine/sys.c)                               */

/** "DMA", "DMA32", "Normal", "Movable", "Device". */
const char *mach_zone_name(enum mach_zone_type z);
/** Whether a zone has pages (populated_zone): buddyinfo lists only these. */
static inline bool mach_zone_populated(const struct mach_zone *z)
{
	return z->present != 0;
}

/** Set @p to what Linux 6.18 on the reference VM prints. */
void mach_sys_profile_default(struct mach_sys_profile *p);
/** An empty system part (no devices, no zones, root unknown). */
void mach_sys_init(struct mach_sys *s);
/** Free what @s owns and leave it empty. */
void mach_sys_clear(struct mach_sys *s);
/** Free the block devices of @s. */
void mach_sys_blk_clear(struct mach_sys *s);
/** Free the swap areas of @s. */
void mach_sys_swaps_clear(struct mach_sys *s);
/** Free the memory nodes of @s. */
void mach_sys_nodes_clear(struct mach_sys *s);
/** Free the slab caches of @s. */
void mach_sys_slabs_clear(struct mach_sys *s);

/**
 * Whether device @i of @s is where filesystems and swap submit their I/O
 * (submit_bio counts it in vmstat's pgpgin and pgpgout): not beneath a
 * device-mapper device, and not a disk whose partitions carry the data.
 */
bool mach_blk_is_top(const struct mach_sys *s, size_t i);

/** The device called @name in @s, or -1. */
int mach_sys_find_blk(const struct mach_sys *s, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_MACH_SYS_H */
