/* SPDX-License-Identifier: MIT */
/*
 * render.h - the renderers, one per file (src/procfs/<name>.c), for the file
 * table and the benches.  Each prints from the const model in its
 * struct pfs_ctx (seq_file.private) through the seq_file putters.
 */
#ifndef UPROCFS_PROCFS_RENDER_H
#define UPROCFS_PROCFS_RENDER_H

#include "uprocfs/machine.h"
#include "uprocfs/pfs_ctx.h"
#include "uprocfs/seq_file.h"

int pfs_show_pid_status(struct seq_file *m, void *v);
int pfs_show_pid_stat(struct seq_file *m, void *v);
int pfs_show_pid_statm(struct seq_file *m, void *v);
extern const struct seq_operations pfs_pid_maps_ops;
/** One maps line (show_map_vma): the header fields, then the name; smaps repeats it. */
void pfs_show_map_vma(struct seq_file *m, const struct mach_vma *vma);
int pfs_show_pid_cmdline(struct seq_file *m, void *v);
int pfs_show_pid_comm(struct seq_file *m, void *v);
int pfs_show_pid_environ(struct seq_file *m, void *v);

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
int pfs_show_pid_max(struct seq_file *m, void *v);
int pfs_show_osrelease(struct seq_file *m, void *v);
int pfs_show_tty_drivers(struct seq_file *m, void *v);

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
int pfs_link_ns_pid(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_net(const struct pfs_ctx *c, char *buf, size_t size);

/* The iterators' parts, for other show functions over the same records (bench/before). */
void *pfs_pid_maps_start(struct seq_file *m, loff_t *pos);
void *pfs_pid_maps_next(struct seq_file *m, void *v, loff_t *pos);
void *pfs_schedstat_start(struct seq_file *m, loff_t *pos);
void *pfs_schedstat_next(struct seq_file *m, void *v, loff_t *pos);
/** A stop() for iterators that take no locks. */
void pfs_seq_stop_nothing(struct seq_file *m, void *v);
/** /proc/stat's totals: CPU times summed over all CPUs (ns), the intr and softirq totals. */
void pfs_stat_totals(const struct mach_machine *mach, uint64_t cpu_ns[MACH_NR_CPUTIME], uint64_t *intr,
		     uint64_t *softirq);

#endif /* UPROCFS_PROCFS_RENDER_H */
