// SPDX-License-Identifier: MIT
/*
 * table.c - the one table of files, directories and symlinks uprocfs serves.
 *
 * Order is listing order (readdir), as the kernel's tables list them.  Modes
 * are the kernel's (fs/proc/base.c tgid_base_stuff and tid_base_stuff, the
 * proc_create calls of each file, kernel/sched/psi.c): pressure files are
 * 0666 because they accept trigger writes; comm 0644 because its owner may
 * rename the task; ns/ is dr-x--x--x.
 *
 * Adding a file is one line here, its renderer in src/procfs/, its parser
 * in src/load/ (or MACH_LD_NONE) and its model fields: docs/architecture.md.
 */
#include <sys/stat.h>

#include "../procfs/render.h"
#include "uprocfs/procfs.h"

#define G PFS_IN(PFS_SCOPE_GLOBAL)
#define P PFS_IN(PFS_SCOPE_TGID)
#define T PFS_IN(PFS_SCOPE_TID)
#define PT PFS_IN_TASK

/* A single_open file. */
#define FILE_(p, sc, md, sh, ld, fn, ...) \
	{ .path = p, .scopes = sc, .kind = PFS_FILE, .mode = md, .show = sh, .load = ld, .mirrors = fn, __VA_ARGS__ }
/* An iterator file. */
#define ITER(p, sc, md, op, ld, fn, ...) \
	{ .path = p, .scopes = sc, .kind = PFS_FILE, .mode = md, .ops = op, .load = ld, .mirrors = fn, __VA_ARGS__ }
#define DIR_(p, sc, md, ...) { .path = p, .scopes = sc, .kind = PFS_DIR, .mode = md, __VA_ARGS__ }
#define LINK(p, sc, rl, fn, ...) \
	{ .path = p, .scopes = sc, .kind = PFS_LINK, .mode = 0777, .readlink = rl, .mirrors = fn, __VA_ARGS__ }

static bool has_schedstat(const struct pfs_ctx *c)
{
	return c->mach->profile.has_schedstat;
}

static bool has_pressure(const struct pfs_ctx *c)
{
	return c->mach->pressure[c->arg].present;
}

/* A task without a network namespace (a zombie) has an empty net/: get_proc_task_net fails. */
static bool has_net(const struct pfs_ctx *c)
{
	return mach_thread_net(c->mach, c->thread) != NULL;
}

/* The net files that name devices render them from net/dev's list. */
#define NEEDS_DEV .needs = PFS_NEEDS(MACH_LD_PID_NET_DEV)

const struct pfs_entry pfs_entries[] = {
	/* /proc */
	DIR_("pressure", G, 0555),
	LINK("net", G, pfs_link_net, "proc_net_init"),
	DIR_("sys", G, 0555),
	DIR_("sys/kernel", G, 0555),
	DIR_("tty", G, 0555),
	FILE_("stat", G, 0444, pfs_show_stat, MACH_LD_STAT, "show_stat", .first_size = pfs_stat_first_size),
	FILE_("meminfo", G, 0444, pfs_show_meminfo, MACH_LD_MEMINFO, "meminfo_proc_show"),
	ITER("vmstat", G, 0444, &pfs_vmstat_ops, MACH_LD_VMSTAT, "vmstat_show"),
	FILE_("loadavg", G, 0444, pfs_show_loadavg, MACH_LD_LOADAVG, "loadavg_proc_show"),
	FILE_("uptime", G, 0444, pfs_show_uptime, MACH_LD_UPTIME, "uptime_proc_show"),
	ITER("schedstat", G, 0444, &pfs_schedstat_ops, MACH_LD_SCHEDSTAT, "show_schedstat",
	     .exists = has_schedstat),
	FILE_("pressure/io", G, 0666, pfs_show_pressure, MACH_LD_PRESSURE_IO, "psi_show", .arg = MACH_PSI_IO,
	      .exists = has_pressure),
	FILE_("pressure/memory", G, 0666, pfs_show_pressure, MACH_LD_PRESSURE_MEMORY, "psi_show", .arg = MACH_PSI_MEM,
	      .exists = has_pressure),
	FILE_("pressure/cpu", G, 0666, pfs_show_pressure, MACH_LD_PRESSURE_CPU, "psi_show", .arg = MACH_PSI_CPU,
	      .exists = has_pressure),
	FILE_("pressure/irq", G, 0666, pfs_show_pressure, MACH_LD_PRESSURE_IRQ, "psi_show", .arg = MACH_PSI_IRQ,
	      .exists = has_pressure),
	FILE_("cpuinfo", G, 0444, pfs_show_cpuinfo, MACH_LD_NONE, "show_cpuinfo"),
	FILE_("sys/kernel/pid_max", G, 0644, pfs_show_pid_max, MACH_LD_NONE, "proc_dointvec"),
	FILE_("sys/kernel/osrelease", G, 0444, pfs_show_osrelease, MACH_LD_NONE, "proc_dostring"),
	FILE_("tty/drivers", G, 0444, pfs_show_tty_drivers, MACH_LD_NONE, "show_tty_driver"),
	LINK("self", G, pfs_link_self, "proc_self_get_link"),
	LINK("thread-self", G, pfs_link_thread_self, "proc_thread_self_get_link"),
	DIR_("*", G, 0555, .coll = PFS_COLL_PIDS, .child_scope = PFS_SCOPE_TGID),

	/* /proc/<pid> and /proc/<pid>/task/<tid> */
	DIR_("task", P, 0555),
	DIR_("task/*", P, 0555, .coll = PFS_COLL_TIDS, .child_scope = PFS_SCOPE_TID),
	DIR_("ns", PT, 0511),
	/* net/: the task's network namespace (fs/proc/proc_net.c), in the namespace's readdir order */
	DIR_("net", PT, 0555),
	ITER("net/arp", PT, 0444, &pfs_net_arp_ops, MACH_LD_PID_NET_ARP, "arp_seq_show", .exists = has_net, NEEDS_DEV),
	ITER("net/dev", PT, 0444, &pfs_net_dev_ops, MACH_LD_PID_NET_DEV, "dev_seq_show", .exists = has_net),
	ITER("net/tcp", PT, 0444, &pfs_net_tcp_ops, MACH_LD_PID_NET_TCP, "tcp4_seq_show", .exists = has_net),
	ITER("net/udp", PT, 0444, &pfs_net_udp_ops, MACH_LD_PID_NET_UDP, "udp4_seq_show", .exists = has_net),
	FILE_("net/snmp", PT, 0444, pfs_show_net_snmp, MACH_LD_PID_NET_SNMP, "snmp_seq_show", .exists = has_net),
	ITER("net/tcp6", PT, 0444, &pfs_net_tcp6_ops, MACH_LD_PID_NET_TCP6, "tcp6_seq_show", .exists = has_net),
	ITER("net/udp6", PT, 0444, &pfs_net_udp6_ops, MACH_LD_PID_NET_UDP6, "udp6_seq_show", .exists = has_net),
	ITER("net/unix", PT, 0444, &pfs_net_unix_ops, MACH_LD_PID_NET_UNIX, "unix_seq_show", .exists = has_net),
	ITER("net/route", PT, 0444, &pfs_net_route_ops, MACH_LD_PID_NET_ROUTE, "fib_route_seq_show",
	     .exists = has_net, NEEDS_DEV),
	FILE_("net/snmp6", PT, 0444, pfs_show_net_snmp6, MACH_LD_PID_NET_SNMP6, "snmp6_seq_show", .exists = has_net),
	FILE_("net/netstat", PT, 0444, pfs_show_net_netstat, MACH_LD_PID_NET_NETSTAT, "netstat_seq_show",
	      .exists = has_net),
	ITER("net/if_inet6", PT, 0444, &pfs_net_if_inet6_ops, MACH_LD_PID_NET_IF_INET6, "if6_seq_show",
	     .exists = has_net, NEEDS_DEV),
	FILE_("net/sockstat", PT, 0444, pfs_show_net_sockstat, MACH_LD_PID_NET_SOCKSTAT, "sockstat_seq_show",
	      .exists = has_net),
	FILE_("net/sockstat6", PT, 0444, pfs_show_net_sockstat6, MACH_LD_PID_NET_SOCKSTAT6, "sockstat6_seq_show",
	      .exists = has_net),
	ITER("net/softnet_stat", PT, 0444, &pfs_net_softnet_ops, MACH_LD_PID_NET_SOFTNET, "softnet_seq_show",
	     .exists = has_net),
	FILE_("status", PT, 0444, pfs_show_pid_status, MACH_LD_PID_STATUS, "proc_pid_status"),
	FILE_("stat", PT, 0444, pfs_show_pid_stat, MACH_LD_PID_STAT, "do_task_stat"),
	FILE_("statm", PT, 0444, pfs_show_pid_statm, MACH_LD_PID_STATM, "proc_pid_statm"),
	ITER("maps", PT, 0444, &pfs_pid_maps_ops, MACH_LD_PID_MAPS, "show_map",
	     .access = PFS_ACC_PTRACE_READ | PFS_ACC_MM),
	FILE_("cmdline", PT, 0444, pfs_show_pid_cmdline, MACH_LD_PID_CMDLINE, "proc_pid_cmdline_read"),
	FILE_("comm", PT, 0644, pfs_show_pid_comm, MACH_LD_PID_COMM, "comm_show"),
	FILE_("environ", PT, 0400, pfs_show_pid_environ, MACH_LD_NONE, "environ_read",
	      .access = PFS_ACC_PTRACE_READ | PFS_ACC_MM | PFS_ACC_NEED_MM),
	LINK("exe", PT, pfs_link_exe, "proc_exe_link", .access = PFS_ACC_PTRACE_READ,
	     .needs = PFS_NEEDS(MACH_LD_PID_MAPS)),
	LINK("ns/pid", PT, pfs_link_ns_pid, "ns_get_name", .access = PFS_ACC_PTRACE_READ),
};

const size_t pfs_nentries = sizeof(pfs_entries) / sizeof(pfs_entries[0]);

_Static_assert(MACH_LD_NR_KINDS <= 64, "pfs_entry.needs holds one bit per loader kind");

uint64_t pfs_entry_needs(const struct pfs_entry *e)
{
	uint64_t k = e->needs | PFS_NEEDS(MACH_LD_PID_STATUS) | PFS_NEEDS(MACH_LD_PID_STAT);

	if (e->load != MACH_LD_NONE)
		k |= PFS_NEEDS(e->load);
	return k;
}
