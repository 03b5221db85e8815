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

#endif /* UPROCFS_PROCFS_RENDER_H */
