/* SPDX-License-Identifier: MIT */
/*
 * mach_sysfs.h - what /sys shows of the machine beyond what /proc shows:
 * the sysfs attributes of block devices (the disk, its queue, the device
 * it sits on) and the state cgroup v2 keeps for each group.
 *
 * One truth with /proc: a block device's counters, name, numbers and size
 * stay in struct mach_blkdev (mach_sys.h), which /proc/diskstats and
 * /sys/block/X/stat both print; a group's place in the tree, its tasks
 * and its subtree_control stay in mach_ns.h.  What is here is only what
 * /proc never says.  Units are the kernel's: bytes where memcg keeps
 * bytes, pages where it keeps pages, nanoseconds of CPU time.
 *
 * machine.h includes this header: struct mach_machine holds one struct
 * mach_sysfs; a struct mach_blkdev points to its struct mach_blk_sysfs, a
 * struct mach_cgroup to its struct mach_cg_state (NULL when the model
 * knows nothing of them: a machine loaded from /proc alone).
 */
#ifndef UPROCFS_MACH_SYSFS_H
#define UPROCFS_MACH_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uprocfs/mach_ns.h"
#include "uprocfs/mach_vocab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Block devices (block/genhd.c, block/blk-sysfs.c, block/partitions/)  */

/**
 * The numeric files of a disk's queue/ directory (queue_attrs of
 * block/blk-sysfs.c), in name order.  Which a queue shows depends on it
 * (mach_blkq_shown); IO_POLL_DELAY is signed (-1: classic polling).
 */
enum mach_blkq {
	MACH_BLKQ_ADD_RANDOM,
	MACH_BLKQ_ATOMIC_WRITE_BOUNDARY_BYTES,
	MACH_BLKQ_ATOMIC_WRITE_MAX_BYTES,
	MACH_BLKQ_ATOMIC_WRITE_UNIT_MAX_BYTES,
	MACH_BLKQ_ATOMIC_WRITE_UNIT_MIN_BYTES,
	MACH_BLKQ_CHUNK_SECTORS,
	MACH_BLKQ_DAX,
	MACH_BLKQ_DISCARD_GRANULARITY,
	MACH_BLKQ_DISCARD_MAX_BYTES,
	MACH_BLKQ_DISCARD_MAX_HW_BYTES,
	MACH_BLKQ_DISCARD_ZEROES_DATA,
	MACH_BLKQ_DMA_ALIGNMENT,
	MACH_BLKQ_FUA,
	MACH_BLKQ_HW_SECTOR_SIZE,
	MACH_BLKQ_IO_POLL,
	MACH_BLKQ_IO_POLL_DELAY,
	MACH_BLKQ_IO_TIMEOUT,          /* request queues whose driver has a timeout handler (nvme, scsi) */
	MACH_BLKQ_IOSTATS,
	MACH_BLKQ_IOSTATS_PASSTHROUGH,
	MACH_BLKQ_LOGICAL_BLOCK_SIZE,
	MACH_BLKQ_MAX_ACTIVE_ZONES,    /* zoned queues only */
	MACH_BLKQ_MAX_DISCARD_SEGMENTS,
	MACH_BLKQ_MAX_HW_SECTORS_KB,
	MACH_BLKQ_MAX_INTEGRITY_SEGMENTS,
	MACH_BLKQ_MAX_OPEN_ZONES,      /* zoned queues only */
	MACH_BLKQ_MAX_SECTORS_KB,
	MACH_BLKQ_MAX_SEGMENT_SIZE,
	MACH_BLKQ_MAX_SEGMENTS,
	MACH_BLKQ_MAX_WRITE_STREAMS,
	MACH_BLKQ_MINIMUM_IO_SIZE,
	MACH_BLKQ_NOMERGES,
	MACH_BLKQ_NR_REQUESTS,         /* request (blk-mq) queues only */
	MACH_BLKQ_NR_ZONES,
	MACH_BLKQ_OPTIMAL_IO_SIZE,
	MACH_BLKQ_PHYSICAL_BLOCK_SIZE,
	MACH_BLKQ_READ_AHEAD_KB,
	MACH_BLKQ_ROTATIONAL,
	MACH_BLKQ_RQ_AFFINITY,         /* request queues only */
	MACH_BLKQ_STABLE_WRITES,
	MACH_BLKQ_VIRT_BOUNDARY_MASK,
	MACH_BLKQ_WBT_LAT_USEC,        /* request queues only */
	MACH_BLKQ_WRITE_SAME_MAX_BYTES,
	MACH_BLKQ_WRITE_STREAM_GRANULARITY,
	MACH_BLKQ_WRITE_ZEROES_MAX_BYTES,
	MACH_BLKQ_WRITE_ZEROES_UNMAP_MAX_BYTES,
	MACH_BLKQ_WRITE_ZEROES_UNMAP_MAX_HW_BYTES,
	MACH_BLKQ_ZONE_APPEND_MAX_BYTES,
	MACH_BLKQ_ZONE_WRITE_GRANULARITY,
	MACH_NR_BLKQ
};

/** queue/zoned (blk_zoned_model). */
enum mach_blk_zoned { MACH_BLK_ZONED_NONE, MACH_BLK_ZONED_HOST_AWARE, MACH_BLK_ZONED_HOST_MANAGED };

/* disk->events bits (DISK_EVENT_*): the events file names them */
#define MACH_DISK_EVENT_MEDIA_CHANGE 0x1u
#define MACH_DISK_EVENT_EJECT_REQUEST 0x2u

#define MACH_VIRTIO_FEATURE_WORDS 2  /* VIRTIO_FEATURES_MAX = 128 bits */

/**
 * The device a disk sits on, as its device/ directory shows it: a virtio
 * device's ids and negotiated features, an NVMe controller's or a SCSI
 * device's identity strings (as the device reports them, padding included).
 */
struct mach_blk_hw {
	uint32_t virtio_vendor, virtio_device;   /* "0x%04x" */
	uint64_t virtio_features[MACH_VIRTIO_FEATURE_WORDS];
	uint32_t virtio_status;                  /* "0x%08x" */
	char vendor[16];                         /* SCSI: 8 chars, space padded */
	char model[48];                          /* SCSI: 16 padded; NVMe: 40 trimmed */
	char rev[16];                            /* SCSI firmware revision, 4 padded */
	char serial[32];                         /* NVMe */
	char firmware_rev[16];                   /* NVMe */
	char state[16];                          /* NVMe "live", SCSI "running" */
	char transport[16];                      /* NVMe "pcie" */
	int scsi_type;                           /* SCSI peripheral type: 0 disk */
};

/**
 * What sysfs shows of one block device (disk or partition) that /proc
 * does not.  A partition uses the fields the kernel keeps per partition
 * (ro, the alignments, its directory under its disk's); the rest are its
 * disk's.
 */
struct mach_blk_sysfs {
	/*
	 * A disk's directory under /sys/devices: its parent device's path,
	 * then "block/NAME" when the parent is not a class device ("pci0000:00/
	 * 0000:00:02.0/virtio1/block/vda", "virtual/block/loop0"), or just
	 * "NAME" under it (NVMe: ".../nvme/nvme0/nvme0n1").  NULL for a
	 * partition: its disk's directory, then its name.
	 */
	char *dir;
	uint64_t diskseq;
	int alignment_offset, discard_alignment;
	unsigned int events;        /* MACH_DISK_EVENT_* the disk reports */
	long events_poll_msecs;     /* -1: the driver's default */
	unsigned int minors;        /* range: minors of its own (1: none for partitions) */
	unsigned int ext_range;     /* range with extended minors (1: GENHD_FL_NO_PART) */
	bool partscan, removable, ro;
	bool mq;                    /* a request (blk-mq) queue: nr_requests, scheduler, mq/ */
	bool timeout;               /* its driver has a timeout handler: queue/io_timeout */
	bool write_back;            /* queue/write_cache, and cache_type where the driver has one */
	bool cache_type;            /* the driver shows cache_type (virtio-blk, sd) */
	unsigned char elevator;     /* the scheduler: 0 none, k the machine's elevators[k - 1] */
	enum mach_blk_zoned zoned;
	uint64_t q[MACH_NR_BLKQ];   /* queue/ numbers; IO_POLL_DELAY as int64_t */
	char *serial;               /* virtio-blk's serial (printed without a newline), NULL: none */
	/* device-mapper (dm/) */
	char *dm_uuid;              /* NULL: "" */
	bool dm_suspended;
	/* a bound loop device (loop/), backing_file in mach_blkdev */
	uint64_t loop_offset, loop_sizelimit;
	bool loop_autoclear, loop_partscan, loop_dio;
	struct mach_blk_hw hw;      /* the device under it (device/) */
};

/* ------------------------------------------------------------------ */
/* cgroup v2 (kernel/cgroup/, mm/memcontrol.c, kernel/sched/)           */

/**
 * memory.stat's items in printed order (memory_stats[] and
 * memcg_vm_event_stat[] of Linux 6.18 x86_64 with SWAP, ZSWAP, THP and
 * NUMA_BALANCING, MEMCG_V1 set), "slab", "pgscan" and "pgsteal" aside:
 * they print sums of others.  HUGETLB prints only when the hierarchy
 * accounts hugetlb (memory_hugetlb_accounting).
 */
enum mach_memcg_item {
	MACH_MEMCG_ANON, MACH_MEMCG_FILE, MACH_MEMCG_KERNEL, MACH_MEMCG_KERNEL_STACK,
	MACH_MEMCG_PAGETABLES, MACH_MEMCG_SEC_PAGETABLES, MACH_MEMCG_PERCPU, MACH_MEMCG_SOCK,
	MACH_MEMCG_VMALLOC, MACH_MEMCG_SHMEM, MACH_MEMCG_ZSWAP, MACH_MEMCG_ZSWAPPED,
	MACH_MEMCG_FILE_MAPPED, MACH_MEMCG_FILE_DIRTY, MACH_MEMCG_FILE_WRITEBACK,
	MACH_MEMCG_SWAPCACHED, MACH_MEMCG_ANON_THP, MACH_MEMCG_FILE_THP, MACH_MEMCG_SHMEM_THP,
	MACH_MEMCG_INACTIVE_ANON, MACH_MEMCG_ACTIVE_ANON, MACH_MEMCG_INACTIVE_FILE,
	MACH_MEMCG_ACTIVE_FILE, MACH_MEMCG_UNEVICTABLE, MACH_MEMCG_SLAB_RECLAIMABLE,
	MACH_MEMCG_SLAB_UNRECLAIMABLE,
	MACH_MEMCG_HUGETLB,
	MACH_MEMCG_WORKINGSET_REFAULT_ANON, MACH_MEMCG_WORKINGSET_REFAULT_FILE,
	MACH_MEMCG_WORKINGSET_ACTIVATE_ANON, MACH_MEMCG_WORKINGSET_ACTIVATE_FILE,
	MACH_MEMCG_WORKINGSET_RESTORE_ANON, MACH_MEMCG_WORKINGSET_RESTORE_FILE,
	MACH_MEMCG_WORKINGSET_NODERECLAIM,
	MACH_MEMCG_PGDEMOTE_KSWAPD, MACH_MEMCG_PGDEMOTE_DIRECT, MACH_MEMCG_PGDEMOTE_KHUGEPAGED,
	MACH_MEMCG_PGDEMOTE_PROACTIVE, MACH_MEMCG_PGPROMOTE_SUCCESS,
	/* events: counts */
	MACH_MEMCG_PSWPIN, MACH_MEMCG_PSWPOUT,
	MACH_MEMCG_PGSCAN_KSWAPD, MACH_MEMCG_PGSCAN_DIRECT, MACH_MEMCG_PGSCAN_KHUGEPAGED,
	MACH_MEMCG_PGSCAN_PROACTIVE, MACH_MEMCG_PGSTEAL_KSWAPD, MACH_MEMCG_PGSTEAL_DIRECT,
	MACH_MEMCG_PGSTEAL_KHUGEPAGED, MACH_MEMCG_PGSTEAL_PROACTIVE,
	MACH_MEMCG_PGFAULT, MACH_MEMCG_PGMAJFAULT, MACH_MEMCG_PGREFILL, MACH_MEMCG_PGACTIVATE,
	MACH_MEMCG_PGDEACTIVATE, MACH_MEMCG_PGLAZYFREE, MACH_MEMCG_PGLAZYFREED,
	MACH_MEMCG_SWPIN_ZERO, MACH_MEMCG_SWPOUT_ZERO, MACH_MEMCG_ZSWPIN, MACH_MEMCG_ZSWPOUT,
	MACH_MEMCG_ZSWPWB, MACH_MEMCG_THP_FAULT_ALLOC, MACH_MEMCG_THP_COLLAPSE_ALLOC,
	MACH_MEMCG_THP_SWPOUT, MACH_MEMCG_THP_SWPOUT_FALLBACK, MACH_MEMCG_NUMA_PAGES_MIGRATED,
	MACH_MEMCG_NUMA_PTE_UPDATES, MACH_MEMCG_NUMA_HINT_FAULTS,
	MACH_NR_MEMCG_ITEMS
};

/** The unit memcg keeps an item in; memory.stat prints bytes for the first three. */
enum mach_memcg_unit { MACH_MEMCG_PAGES, MACH_MEMCG_BYTES, MACH_MEMCG_KB, MACH_MEMCG_COUNT };

/** memory.events keys, in printed order (MEMCG_LOW ... MEMCG_SOCK_THROTTLED). */
enum mach_memcg_event {
	MACH_MEMCG_EV_LOW, MACH_MEMCG_EV_HIGH, MACH_MEMCG_EV_MAX, MACH_MEMCG_EV_OOM,
	MACH_MEMCG_EV_OOM_KILL, MACH_MEMCG_EV_OOM_GROUP_KILL, MACH_MEMCG_EV_SOCK_THROTTLED,
	MACH_NR_MEMCG_EVENTS
};

/** cgroup.type. */
enum mach_cg_type { MACH_CG_DOMAIN, MACH_CG_DOMAIN_THREADED, MACH_CG_DOMAIN_INVALID, MACH_CG_THREADED };

#define MACH_CG_PAGE_COUNTER_MAX (UINT64_MAX / 4096) /* PAGE_COUNTER_MAX: a limit of "max" */
#define MACH_CG_INT_MAX 2147483647                   /* cgroup.max.depth, max.descendants: "max" */
#define MACH_CG_PIDS_MAX INT64_MAX                   /* pids.max "max" (PIDS_MAX stands beyond any count) */
#define MACH_CG_RUNTIME_INF (-1)                     /* cpu.max quota "max" */

/** One device's line of io.stat: a blkg of the group (blkcg_print_one_stat). */
struct mach_cg_io {
	uint32_t major, minor;      /* the disk's (its bdi's name) */
	uint64_t rbytes, wbytes, rios, wios, dbytes, dios;
};

/**
 * What cgroup v2 keeps for one group, as the kernel keeps it: the
 * counters the kernel keeps per group and propagates upward (memory,
 * io, the CPU time of tasks that are gone, dying descendants) are held
 * hierarchically here, so a parent's exceed the sum of its children's by
 * what was charged to it directly.  What follows from the tree or the
 * tasks (nr_descendants, populated, pids.current, the CPU time of live
 * tasks) is not stored.  The root's CPU time and io.stat come from the
 * CPUs and disks, its pressure from the machine's.
 */
struct mach_cg_state {
	/* cgroup core */
	enum mach_cg_type type;
	int max_depth, max_descendants;   /* MACH_CG_INT_MAX: "max" */
	bool freeze;                      /* cgroup.freeze as written: it and its descendants are frozen */
	bool psi_off;                     /* cgroup.pressure 0: no pressure accounted */
	bool idle;                        /* cpu.idle (with the flags here: no padding) */
	bool oom_group;                   /* memory.oom.group */
	uint64_t frozen_usec;             /* cgroup.stat.local: time spent frozen */
	uint32_t nr_dying_descendants;    /* removed groups still referenced, in the whole subtree */
	/*
	 * Dying groups per controller id (enum mach_cg_ss), in the whole
	 * subtree: MACH_NR_SS counts, NULL when all are 0, as in most groups.
	 * Read them with mach_cg_dying_subsys().
	 */
	uint32_t *nr_dying_subsys;
	/* cpu: time of tasks that exited or left, hierarchical, ns */
	uint64_t gone_user_ns, gone_system_ns, gone_nice_ns;
	/* cpu controller (its css in this group): bandwidth and weight */
	uint64_t nr_periods, nr_throttled, throttled_ns, nr_bursts, burst_ns;
	uint64_t local_throttled_ns;      /* cpu.stat.local */
	int64_t quota_us;                 /* cpu.max: MACH_CG_RUNTIME_INF for "max" */
	uint64_t period_us, burst_us;
	unsigned long shares;             /* tg->shares scaled down (1024 = weight 100) */
	/* memory controller: pages unless noted, hierarchical */
	uint64_t mem_usage, swap_usage;   /* page counters: memory.current, memory.swap.current */
	uint64_t mem_min, mem_low, mem_high, mem_max, swap_max; /* MACH_CG_PAGE_COUNTER_MAX: "max" */
	/*
	 * memory.stat's values, each in its item's unit (mach_memcg_item_unit),
	 * the nonzero ones packed: a container's group has some 22 of 68.  Bit
	 * i of @memstat_has says item i is nonzero; its value is then the
	 * (number of set bits below i)-th of @memstat_vals.  Read them with
	 * mach_cg_memstat()/mach_cg_memstat_all(), set them with
	 * mach_cg_memstat_set().
	 */
	uint64_t memstat_has[(MACH_NR_MEMCG_ITEMS + 63) / 64];
	uint64_t *memstat_vals;
	/*
	 * memory.events, MACH_NR_MEMCG_EVENTS counts (hierarchical): NULL when
	 * all are 0, as a synthetic machine's are.  mach_cg_mem_event() reads them.
	 */
	uint64_t *mem_events;
	/* pids controller */
	int64_t pids_max;                 /* MACH_CG_PIDS_MAX: "max" */
	/* io controller: its blkgs, newest first, hierarchical */
	size_t nio;
	struct mach_cg_io *io;
	/*
	 * Pressure (PSI): the group's own, MACH_NR_PSI_RES of them (machine.h);
	 * NULL: none accounted yet (zeros).  The root's are the machine's.
	 */
	struct mach_pressure *pressure;
};

/** The machine-wide part of what /sys shows. */
struct mach_sysfs {
	/* I/O schedulers registered (elv_list order): queue/scheduler lists them after "none" */
	unsigned int nelevators;
	char elevators[8][16];
	/* the v2 hierarchy accounts hugetlb memory (mount option memory_hugetlb_accounting) */
	bool cg_hugetlb_accounting;
};

struct mach_machine;
struct mach_sys;
struct mach_thread;

/** The printed name of memory.stat item @i ("anon", "workingset_refault_anon"). */
const char *mach_memcg_item_name(enum mach_memcg_item i);
/** The unit memcg keeps item @i in. */
enum mach_memcg_unit mach_memcg_item_unit(enum mach_memcg_item i);
/** The name of memory.events key @e ("low", "oom_group_kill"). */
const char *mach_memcg_event_name(enum mach_memcg_event e);
/** The name of queue attribute @q ("max_sectors_kb"). */
const char *mach_blkq_name(enum mach_blkq q);

/** Whether a queue like @b's shows attribute @q (queue_attr_visible, blk_mq_queue_attr_visible). */
bool mach_blkq_shown(const struct mach_blk_sysfs *b, enum mach_blkq q);

/** The defaults of a machine's /sys part: the elevators of a 6.18 build. */
void mach_sysfs_init(struct mach_sysfs *s);
/** Free a block device's sysfs part (NULL is fine). */
void mach_blk_sysfs_free(struct mach_blk_sysfs *b);
/** A group's state with the kernel's defaults (no limits, weight 100); NULL on ENOMEM. */
struct mach_cg_state *mach_cg_state_new(void);
/** Free a group's state (NULL is fine). */
void mach_cg_state_free(struct mach_cg_state *st);

/** memory.events count @e of @st (0 when it has none). */
uint64_t mach_cg_mem_event(const struct mach_cg_state *st, enum mach_memcg_event e);

/** Set that count to @v.  0 or -ENOMEM. */
int mach_cg_set_mem_event(struct mach_cg_state *st, enum mach_memcg_event e, uint64_t v);

/** How many dying groups below @st still hold controller @ss's state (cgroup.stat nr_dying_subsys_*). */
uint32_t mach_cg_dying_subsys(const struct mach_cg_state *st, enum mach_cg_ss ss);

/** Set that count to @v.  0 or -ENOMEM. */
int mach_cg_set_dying_subsys(struct mach_cg_state *st, enum mach_cg_ss ss, uint32_t v);

/** memory.stat item @i of @st (0 when it has none). */
uint64_t mach_cg_memstat(const struct mach_cg_state *st, enum mach_memcg_item i);

/** Every memory.stat item of @st into @out. */
void mach_cg_memstat_all(const struct mach_cg_state *st, uint64_t out[MACH_NR_MEMCG_ITEMS]);

/** How many values @st's memory.stat keeps (its nonzero items): the length of memstat_vals. */
size_t mach_cg_memstat_nvals(const struct mach_cg_state *st);

/** Set every memory.stat item of @st from @all (packed: only the nonzero kept): 0 or -ENOMEM. */
int mach_cg_memstat_set(struct mach_cg_state *st, const uint64_t all[MACH_NR_MEMCG_ITEMS]);

/**
 * Device @i's directory under /sys/devices into @buf: its disk's dir, then
 * its own name for a partition.  -ENOENT when the disk's is not known.
 */
int mach_blk_dir(const struct mach_sys *s, size_t i, char *buf, size_t size);
/** How much of disk directory @dir is its parent device's (the "block" glue dir left out). */
size_t mach_blk_parent_len(const char *dir);
/** Whether a disk in @dir sits on a device (a device/ link): not a virtual one. */
bool mach_blk_has_device(const char *dir);

/** The controller (enum mach_cg_ss) named @name, v1 or v2 name; -1 if none. */
int mach_cg_ss_by_name(const char *name);
/** The controllers bound to the v2 hierarchy, those with no v2 files left out (1u << MACH_SS_*). */
uint32_t mach_cg_v2_ss(const struct mach_machine *m);
/** cgroup.controllers of v2 group @cg: the root's bound ones (perf_event implicit), else its parent's subtree_control. */
uint32_t mach_cg_controllers(const struct mach_machine *m, uint32_t cg);
/** Whether v2 group @cg holds controller @ss's state (a css): its files exist there. */
bool mach_cg_has_css(const struct mach_machine *m, uint32_t cg, enum mach_cg_ss ss);
/** Whether /sys/fs/cgroup is a tmpfs of v1 hierarchies with v2 at "unified" (systemd's hybrid layout). */
bool mach_cg_hybrid(const struct mach_machine *m);
/** The v2 hierarchy's root group, or MACH_NONE. */
uint32_t mach_cg_v2_top(const struct mach_machine *m);
/** Whether group @cg is @anc or below it. */
bool mach_cg_under(const struct mach_machine *m, uint32_t cg, uint32_t anc);
/** Thread @t's v2 group, or MACH_NONE when the model does not know it. */
uint32_t mach_thread_cg2(const struct mach_machine *m, const struct mach_thread *t);
struct mach_cgroup;
/** Group @g's state, or the kernel's defaults for a group the model knows no more of. */
const struct mach_cg_state *mach_cg_state_of(const struct mach_cgroup *g);
/** cpu.weight of a group whose tg->shares (scaled down) is @shares. */
uint64_t mach_cg_weight(unsigned long shares);
/** cpu.weight.nice: the nice level whose weight is nearest @shares. */
int mach_cg_weight_nice(unsigned long shares);
/** The shares writing cpu.weight.nice @nice sets (sched_prio_to_weight). */
unsigned long mach_cg_nice_shares(int nice);
/**
 * The CPU time (ns) of the processes in v2 group @g or below it: their
 * threads' user and system time, the user time of niced ones also as nice.
 */
void mach_cg_task_time(const struct mach_machine *m, uint32_t g, uint64_t *user, uint64_t *sys, uint64_t *nice);
/** The tasks charged to v2 group @g and below it (pids.current): every thread, zombies until reaped. */
uint64_t mach_cg_nr_tasks(const struct mach_machine *m, uint32_t g);
struct mach_process;
/**
 * Process @p is reaped: its time stays in its v2 group and the groups above
 * it (cpu.stat counts what its tasks ran, gone or not).
 */
void mach_cg_charge_gone(struct mach_machine *m, const struct mach_process *p);
/** The live child of group @parent named @name[0..len), or MACH_NONE. */
uint32_t mach_cg_child(const struct mach_machine *m, uint32_t parent, const char *name, size_t len);
/** Group @cg's path below its hierarchy's root ("" for the root, "system.slice/x.service"). */
int mach_cg_path(const struct mach_machine *m, uint32_t cg, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_MACH_SYSFS_H */
