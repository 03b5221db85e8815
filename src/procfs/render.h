/* SPDX-License-Identifier: MIT */
/*
 * render.h - the renderers, one per file (src/procfs/<name>.c), for the file
 * table and the benches.  Each prints from the const model in its
 * struct pfs_ctx (seq_file.private) through the seq_file putters.
 */
#ifndef UPROCFS_PROCFS_RENDER_H
#define UPROCFS_PROCFS_RENDER_H

#include <sys/types.h>

#include "uprocfs/machine.h"
#include "uprocfs/pfs_ctx.h"
#include "uprocfs/seq_file.h"

int pfs_show_pid_status(struct seq_file *m, void *v);
int pfs_show_pid_stat(struct seq_file *m, void *v);
int pfs_show_pid_statm(struct seq_file *m, void *v);
extern const struct seq_operations pfs_pid_maps_ops;
/** One maps line (show_map_vma): the header fields, then the name; smaps repeats it. */
void pfs_show_map_vma(struct seq_file *m, const struct mach_vma *vma);
/** The address, permission, offset, device and inode fields of @vma, through the space before the name. */
void pfs_show_vma_header_prefix(struct seq_file *m, const struct mach_vma *vma);
extern const struct seq_operations pfs_pid_smaps_ops;
int pfs_show_pid_smaps_rollup(struct seq_file *m, void *v);
int pfs_show_pid_schedstat(struct seq_file *m, void *v);
int pfs_show_pid_wchan(struct seq_file *m, void *v);
int pfs_show_pid_stack(struct seq_file *m, void *v);
int pfs_show_pid_syscall(struct seq_file *m, void *v);
extern const struct seq_operations pfs_pid_children_ops;
int pfs_show_pid_cmdline(struct seq_file *m, void *v);
int pfs_show_pid_comm(struct seq_file *m, void *v);
int pfs_show_pid_environ(struct seq_file *m, void *v);
int pfs_show_pid_cgroup(struct seq_file *m, void *v);
int pfs_show_pid_cpuset(struct seq_file *m, void *v);
extern const struct seq_operations pfs_pid_mounts_ops;
extern const struct seq_operations pfs_pid_mountinfo_ops;
extern const struct seq_operations pfs_pid_mountstats_ops;

int pfs_show_stat(struct seq_file *m, void *v);
/** The first buffer for /proc/stat: its size grows with CPUs and IRQs. */
size_t pfs_stat_first_size(const struct pfs_ctx *c);
extern const struct seq_operations pfs_schedstat_ops;
int pfs_show_pressure(struct seq_file *m, void *v);
/** Print a pressure snapshot as psi_show does (also for cgroup pressure files). */
void pfs_print_pressure(struct seq_file *m, const struct mach_pressure *p);
int pfs_show_meminfo(struct seq_file *m, void *v);
extern const struct seq_operations pfs_vmstat_ops;
int pfs_show_loadavg(struct seq_file *m, void *v);
int pfs_show_uptime(struct seq_file *m, void *v);
int pfs_show_cpuinfo(struct seq_file *m, void *v);
/** A key of /proc/sys: the node c->inst of the machine's tree. */
int pfs_show_sysctl(struct seq_file *m, void *v);
int pfs_show_tty_drivers(struct seq_file *m, void *v);
extern const struct seq_operations pfs_interrupts_ops;
int pfs_show_softirqs(struct seq_file *m, void *v);
/** /proc/softirqs is one record as wide as the CPUs: its first buffer. */
size_t pfs_softirqs_first_size(const struct pfs_ctx *c);

/* The rest of the machine (mach_sys.h): block devices, swaps, zones, slabs, identity, registries, locks */
extern const struct seq_operations pfs_diskstats_ops;
extern const struct seq_operations pfs_partitions_ops;
/** disk_seqf_start/next: one record per whole disk, in registration order. */
void *pfs_disk_seqf_start(struct seq_file *m, loff_t *pos);
void *pfs_disk_seqf_next(struct seq_file *m, void *v, loff_t *pos);
extern const struct seq_operations pfs_swaps_ops;
int pfs_show_filesystems(struct seq_file *m, void *v);
int pfs_show_version(struct seq_file *m, void *v);
int pfs_show_cmdline(struct seq_file *m, void *v);
extern const struct seq_operations pfs_buddyinfo_ops;
extern const struct seq_operations pfs_zoneinfo_ops;
/** frag_start/next: one record per online memory node. */
void *pfs_pgdat_start(struct seq_file *m, loff_t *pos);
void *pfs_pgdat_next(struct seq_file *m, void *v, loff_t *pos);
extern const struct seq_operations pfs_slabinfo_ops;
int pfs_show_cgroups(struct seq_file *m, void *v);
extern const struct seq_operations pfs_devices_ops;
extern const struct seq_operations pfs_misc_ops;
extern const struct seq_operations pfs_locks_ops;
/**
 * One lock line (lock_get_status): "@id: ", the "-> " of a waiter @level deep,
 * then the lock; /proc/<pid>/fdinfo's "lock:\t" lines print the same with
 * their own id and level 0.
 */
void pfs_lock_get_status(struct seq_file *m, const struct mach_file_lock *l, long long id, unsigned int level);
int pfs_link_mounts(const struct pfs_ctx *c, char *buf, size_t size);

/* /proc/<pid>/net (src/procfs/net_*.c): the reader's task's network namespace */
extern const struct seq_operations pfs_net_dev_ops;
extern const struct seq_operations pfs_net_arp_ops;
extern const struct seq_operations pfs_net_route_ops;
extern const struct seq_operations pfs_net_tcp_ops;
extern const struct seq_operations pfs_net_tcp6_ops;
extern const struct seq_operations pfs_net_udp_ops;
extern const struct seq_operations pfs_net_udp6_ops;
extern const struct seq_operations pfs_net_unix_ops;
extern const struct seq_operations pfs_net_if_inet6_ops;
extern const struct seq_operations pfs_net_softnet_ops;
int pfs_show_net_snmp(struct seq_file *m, void *v);
int pfs_show_net_snmp6(struct seq_file *m, void *v);
int pfs_show_net_netstat(struct seq_file *m, void *v);
int pfs_show_net_sockstat(struct seq_file *m, void *v);
int pfs_show_net_sockstat6(struct seq_file *m, void *v);
/** The namespace a net file of the task in @c shows (the table's exists predicate makes it non-NULL). */
const struct mach_net *pfs_net(const struct pfs_ctx *c);

int pfs_link_self(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_thread_self(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_exe(const struct pfs_ctx *c, char *buf, size_t size);
/** An ns/ link: c->arg is its enum mach_ns_type. */
int pfs_link_ns(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_cwd(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_root(const struct pfs_ctx *c, char *buf, size_t size);

/* Open files (pid_fd.c, pid_fdinfo_show.c) */
int pfs_link_fd(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_show_pid_fdinfo(struct seq_file *m, void *v);
/** The open file instance c->inst names in the bound process, or NULL. */
const struct mach_fd *pfs_fd_of(const struct pfs_ctx *c);
/** Fd @fd of table @f (NULL: none) by binary search, made when the table is; NULL if it is not open. */
const struct mach_fd *pfs_files_find(const struct mach_files *f, uint32_t fd);
/** An fd link's permission bits from its file's open mode (tid_fd_update_inode). */
mode_t pfs_fd_link_mode(const struct mach_fd *f);
/** What the file's own show_fdinfo adds after the fixed lines and locks. */
void pfs_show_fdinfo_type(struct seq_file *m, const struct mach_fd *f);

/* The small files of fs/proc/base.c */
int pfs_show_pid_io(struct seq_file *m, void *v);
int pfs_show_pid_limits(struct seq_file *m, void *v);
int pfs_show_pid_oom_score(struct seq_file *m, void *v);
int pfs_show_pid_oom_adj(struct seq_file *m, void *v);
int pfs_show_pid_oom_score_adj(struct seq_file *m, void *v);
int pfs_show_pid_loginuid(struct seq_file *m, void *v);
int pfs_show_pid_sessionid(struct seq_file *m, void *v);
int pfs_show_pid_autogroup(struct seq_file *m, void *v);
int pfs_show_pid_personality(struct seq_file *m, void *v);
int pfs_show_pid_timerslack_ns(struct seq_file *m, void *v);
int pfs_link_net(const struct pfs_ctx *c, char *buf, size_t size);

/*
 * /sys: the platform (mach_platform.h).  The entry's arg is the file
 * (enum mach_sys_attr); c->inst the CPU, cache leaf, node, hwmon file or
 * zone of the directory holding it.
 */
int pfs_show_sys_cpus(struct seq_file *m, void *v);
int pfs_show_sys_kernel_max(struct seq_file *m, void *v);
int pfs_show_sys_cpu_online(struct seq_file *m, void *v);
int pfs_show_sys_topology(struct seq_file *m, void *v);
int pfs_show_sys_cache(struct seq_file *m, void *v);
int pfs_show_sys_cpufreq(struct seq_file *m, void *v);
int pfs_show_sys_nodes(struct seq_file *m, void *v);
int pfs_show_sys_node_cpus(struct seq_file *m, void *v);
int pfs_show_sys_node_distance(struct seq_file *m, void *v);
int pfs_show_sys_node_meminfo(struct seq_file *m, void *v);
int pfs_show_sys_node_numastat(struct seq_file *m, void *v);
int pfs_show_sys_hwmon_name(struct seq_file *m, void *v);
int pfs_show_sys_hwmon_temp(struct seq_file *m, void *v);
int pfs_show_sys_zone(struct seq_file *m, void *v);
int pfs_show_sys_thp(struct seq_file *m, void *v);
/** An attribute that reads empty (a uevent with nothing to announce). */
int pfs_show_sys_empty(struct seq_file *m, void *v);
int pfs_show_sys_one(struct seq_file *m, void *v);
int pfs_link_sys_cpu_node(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_sys_cpu_cpufreq(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_sys_cpu_subsystem(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_sys_bus_cpu(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_sys_node_cpu(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_sys_hwmon(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_sys_hwmon_device(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_sys_zone(const struct pfs_ctx *c, char *buf, size_t size);

/* The iterators' parts, for other show functions over the same records (bench/before). */
void *pfs_pid_maps_start(struct seq_file *m, loff_t *pos);
void *pfs_pid_maps_next(struct seq_file *m, void *v, loff_t *pos);
void *pfs_schedstat_start(struct seq_file *m, loff_t *pos);
void *pfs_schedstat_next(struct seq_file *m, void *v, loff_t *pos);
/** A stop() for iterators that take no locks. */
void pfs_seq_stop_nothing(struct seq_file *m, void *v);
/** /proc/stat's intr total: every irq, the arch rows it counts, ERR. */
uint64_t pfs_intr_total(const struct mach_machine *mach);
/** /proc/stat's count of softirq vector @vec: the per-CPU counts and what no CPU holds. */
uint64_t pfs_softirq_count(const struct mach_machine *mach, int vec);
/** /proc/stat's totals: CPU times summed over all CPUs (ns), the intr and softirq totals. */
void pfs_stat_totals(const struct mach_machine *mach, uint64_t cpu_ns[MACH_NR_CPUTIME], uint64_t *intr,
		     uint64_t *softirq);

/* ------------------------------------------------------------------ */
/* /sys: block devices (sys_block.c, sys_block_queue.c, sys_links.c)    */

/** The small files of a block device's directory, as pfs_show_blk_attr's arg. */
enum pfs_blk_attr {
	PFS_BA_RO, PFS_BA_REMOVABLE, PFS_BA_HIDDEN, PFS_BA_RANGE, PFS_BA_EXT_RANGE, PFS_BA_CAPABILITY,
	PFS_BA_ALIGNMENT_OFFSET, PFS_BA_DISCARD_ALIGNMENT, PFS_BA_DISKSEQ, PFS_BA_PARTSCAN, PFS_BA_EVENTS,
	PFS_BA_EVENTS_ASYNC, PFS_BA_EVENTS_POLL_MSECS, PFS_BA_PARTITION, PFS_BA_START, PFS_BA_CACHE_TYPE,
	PFS_BA_SERIAL, PFS_BA_DM_NAME, PFS_BA_DM_UUID, PFS_BA_DM_SUSPENDED, PFS_BA_LOOP_BACKING_FILE,
	PFS_BA_LOOP_OFFSET, PFS_BA_LOOP_SIZELIMIT, PFS_BA_LOOP_AUTOCLEAR, PFS_BA_LOOP_PARTSCAN, PFS_BA_LOOP_DIO,
	PFS_NR_BA
};

/** The files of the device a disk sits on (its device/ directory), as pfs_show_blk_hw's arg. */
enum pfs_blk_hw_attr {
	PFS_HW_DEVICE, PFS_HW_VENDOR, PFS_HW_FEATURES, PFS_HW_MODALIAS, PFS_HW_STATUS, /* virtio */
	PFS_HW_MODEL, PFS_HW_REV, PFS_HW_SERIAL, PFS_HW_FIRMWARE_REV, PFS_HW_STATE, PFS_HW_TRANSPORT,
	PFS_HW_TYPE, PFS_NR_HW
};

/** Whether the device a disk of kind @kind sits on shows @a. */
bool pfs_blk_hw_shown(enum mach_blk_kind kind, enum pfs_blk_hw_attr a);

int pfs_show_blk_stat(struct seq_file *m, void *v);
int pfs_show_blk_inflight(struct seq_file *m, void *v);
int pfs_show_blk_dev(struct seq_file *m, void *v);
int pfs_show_blk_size(struct seq_file *m, void *v);
int pfs_show_blk_uevent(struct seq_file *m, void *v);
int pfs_show_blk_attr(struct seq_file *m, void *v);
int pfs_show_blkq(struct seq_file *m, void *v);
int pfs_show_blkq_scheduler(struct seq_file *m, void *v);
int pfs_show_blkq_write_cache(struct seq_file *m, void *v);
int pfs_show_blkq_zoned(struct seq_file *m, void *v);
int pfs_show_blk_hw(struct seq_file *m, void *v);
/** The disk a device-directory instance is the parent device of (c->inst), or NULL. */
const struct mach_blkdev *pfs_blk_hw_disk(const struct pfs_ctx *c);
int pfs_link_sys_block(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_class_block(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_dev_block(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_blk_device(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_blk_subsystem(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_blk_bdi(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_blk_holder(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_blk_slave(const struct pfs_ctx *c, char *buf, size_t size);
/**
 * The relative target sysfs gives a link in directory @from (below /sys)
 * to @to (below /sys), as kernfs_get_target_path: up to the nearest
 * ancestor of @from that holds @to, then down.  0 or -ENAMETOOLONG.
 */
int pfs_sys_rel_link(const char *from, const char *to, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* /sys/class/net: network devices (sys_net.c); arg: enum mach_netdev_attr */

int pfs_show_net_attr(struct seq_file *m, void *v);
int pfs_show_net_stat(struct seq_file *m, void *v);
int pfs_link_class_net(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_net_device(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_net_subsystem(const struct pfs_ctx *c, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* /sys/fs/cgroup: cgroup v2 (cgroup_core.c, cgroup_cpu.c, cgroup_mem.c) */

/** The v2 group a cgroupfs file's directory (c->inst) stands for, or MACH_NONE. */
uint32_t pfs_cg_of(const struct pfs_ctx *c);
/** The memory limits of pfs_show_cg_mem_limit's arg. */
enum pfs_cg_limit { PFS_CG_MEM_MIN, PFS_CG_MEM_LOW, PFS_CG_MEM_HIGH, PFS_CG_MEM_MAX, PFS_CG_SWAP_MAX };

/**
 * A group's CPU time in ns as cpu.stat prints it: the root's from the
 * CPUs, another's from its tasks in and below it and what gone ones left.
 */
void pfs_cg_cputime(const struct mach_machine *mach, uint32_t g, uint64_t *user, uint64_t *sys, uint64_t *nice);
int pfs_show_cg_procs(struct seq_file *m, void *v);
int pfs_show_cg_threads(struct seq_file *m, void *v);
size_t pfs_cg_tasks_first_size(const struct pfs_ctx *c);
int pfs_show_cg_controllers(struct seq_file *m, void *v);
int pfs_show_cg_subtree_control(struct seq_file *m, void *v);
int pfs_show_cg_type(struct seq_file *m, void *v);
int pfs_show_cg_events(struct seq_file *m, void *v);
int pfs_show_cg_stat(struct seq_file *m, void *v);
int pfs_show_cg_stat_local(struct seq_file *m, void *v);
int pfs_show_cg_max_depth(struct seq_file *m, void *v);
int pfs_show_cg_max_descendants(struct seq_file *m, void *v);
int pfs_show_cg_freeze(struct seq_file *m, void *v);
int pfs_show_cg_kill(struct seq_file *m, void *v);
int pfs_show_cg_psi_enable(struct seq_file *m, void *v);
int pfs_show_cg_pressure(struct seq_file *m, void *v);
int pfs_show_cg_cpu_stat(struct seq_file *m, void *v);
int pfs_show_cg_cpu_stat_local(struct seq_file *m, void *v);
int pfs_show_cg_cpu_max(struct seq_file *m, void *v);
int pfs_show_cg_cpu_weight(struct seq_file *m, void *v);
int pfs_show_cg_cpu_weight_nice(struct seq_file *m, void *v);
int pfs_show_cg_mem_current(struct seq_file *m, void *v);
int pfs_show_cg_swap_current(struct seq_file *m, void *v);
int pfs_show_cg_mem_limit(struct seq_file *m, void *v);
int pfs_show_cg_mem_stat(struct seq_file *m, void *v);
int pfs_show_cg_mem_events(struct seq_file *m, void *v);
int pfs_show_cg_io_stat(struct seq_file *m, void *v);
int pfs_show_cg_pids_current(struct seq_file *m, void *v);
int pfs_show_cg_pids_max(struct seq_file *m, void *v);

#endif /* UPROCFS_PROCFS_RENDER_H */
