// SPDX-License-Identifier: MIT
/*
 * table.c - the one table of files, directories and symlinks uprocfs serves.
 *
 * Order is listing order (readdir), as the kernel's tables list them.  Modes
 * are the kernel's (fs/proc/base.c tgid_base_stuff and tid_base_stuff, the
 * proc_create calls of each file, kernel/sched/psi.c): pressure files are
 * 0666 because they accept trigger writes; comm 0644 because its owner may
 * rename the task; ns/ is dr-x--x--x.  The files of /proc/sys take their
 * modes from the machine's tree (the "*" key entry's 0644 is only a default).
 *
 * Adding a file is one line here, its renderer in src/procfs/, its parser
 * in src/load/ (or MACH_LD_NONE) and its model fields: docs/architecture.md.
 */
#include <errno.h>
#include <sys/stat.h>

#include "../procfs/render.h"
#include "table_sys.h"
#include "uprocfs/procfs.h"

#define G PFS_IN(PFS_SCOPE_GLOBAL)
#define P PFS_IN(PFS_SCOPE_TGID)
#define T PFS_IN(PFS_SCOPE_TID)
#define PT PFS_IN_TASK
#define S PFS_IN(PFS_SCOPE_SYSCTL)
#define SY PFS_IN(PFS_SCOPE_SYS)

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

/* smaps_rollup came in 4.14: a machine of an older kernel has none */
static bool has_smaps_rollup(const struct pfs_ctx *c)
{
	return c->mach->profile.smaps.rollup;
}

static bool has_pressure(const struct pfs_ctx *c)
{
	return c->mach->pressure[c->arg].present;
}

/* /proc/pressure came with PSI (4.20): a kernel without it has no directory either */
static bool has_any_pressure(const struct pfs_ctx *c)
{
	for (int r = 0; r < MACH_NR_PSI_RES; r++)
		if (c->mach->pressure[r].present)
			return true;
	return false;
}

static bool has_sysctl(const struct pfs_ctx *c)
{
	return c->mach->sysctl != NULL;
}

static bool has_irq_detail(const struct pfs_ctx *c)
{
	return c->mach->irq_detail;
}

static bool has_softirq_detail(const struct pfs_ctx *c)
{
	return c->mach->softirq_detail;
}

/* The model knows the task's mount table, or the task has none to show (a zombie: EINVAL at open). */
static bool has_mounts(const struct pfs_ctx *c)
{
	const struct mach_nsset *ns = mach_thread_nsset(c->mach, c->thread);

	return !mach_thread_has_nsproxy(c->thread) || (ns && ns->mounts < c->mach->nmnt_tables);
}

static bool has_cgroups(const struct pfs_ctx *c)
{
	return mach_thread_css_set(c->mach, c->thread) != NULL;
}

/* ------------------------------------------------------------------ */
/* /sys: the platform (mach_platform.h)                                 */

static const struct mach_cpu *sys_cpu(const struct pfs_ctx *c, uint32_t id)
{
	int i = mach_cpu_index(c->mach, id);

	return i < 0 ? NULL : &c->mach->cpus[i];
}

/* cpuN/online: every CPU but the boot CPU (x86 cannot take it offline) */
static bool sys_cpu_hotpluggable(const struct pfs_ctx *c)
{
	const struct mach_cpu *cpu = sys_cpu(c, c->inst);

	return cpu && (c->mach->platform.cpus_known ? cpu->topo.hotpluggable : cpu->id != 0);
}

/* topology/ and cache/ exist while the CPU is online */
static bool sys_cpu_topology(const struct pfs_ctx *c)
{
	const struct mach_cpu *cpu = sys_cpu(c, c->inst);

	return cpu && cpu->online && c->mach->platform.cpus_known;
}

static bool sys_cpu_ppin(const struct pfs_ctx *c)
{
	const struct mach_cpu *cpu = sys_cpu(c, c->inst);

	return cpu && cpu->topo.has_ppin;
}

static bool sys_cache_id(const struct pfs_ctx *c)
{
	const struct mach_cpu *cpu = sys_cpu(c, c->inst >> 3);

	return cpu && (c->inst & 7u) < cpu->topo.ncaches && cpu->topo.cache[c->inst & 7u].has_id;
}

static bool sys_cpufreq(const struct pfs_ctx *c)
{
	return c->mach->platform.cpufreq.present && sys_cpu(c, c->inst);
}

static bool sys_nodes(const struct pfs_ctx *c)
{
	return c->mach->platform.nnodes > 0;
}

static bool sys_hwmon(const struct pfs_ctx *c)
{
	return c->mach->platform.nhwmon > 0;
}

static bool sys_pci_hwmon(const struct pfs_ctx *c)
{
	for (unsigned int h = 0; h < c->mach->platform.nhwmon; h++)
		if (c->mach->platform.hwmon[h].parent == MACH_HWMON_PCI)
			return true;
	return false;
}

/* pci0000:00 holds a sensor's function, or the way to a disk (an instance of devices/ *) */
static bool sys_pci_root(const struct pfs_ctx *c)
{
	return sys_pci_hwmon(c) || pfs_obj_type(c->inst) == PFS_OBJ_DEVDIR;
}

static bool sys_thermal(const struct pfs_ctx *c)
{
	return c->mach->platform.thermal_class;
}

static bool sys_zone_trip(const struct pfs_ctx *c)
{
	return c->inst < c->mach->platform.nzones && c->mach->platform.zones[c->inst].crit;
}

static bool sys_thp(const struct pfs_ctx *c)
{
	return c->mach->platform.thp.known;
}

/* An ns/ link: the kernel lists all ten for every task; readlink says which it has. */
#define NS_LINK(p, type, ld) \
	LINK(p, PT, pfs_link_ns, "proc_ns_readlink", .access = PFS_ACC_PTRACE_READ, .arg = type, .load = ld)
/* A task without a network namespace (a zombie) has an empty net/: get_proc_task_net fails. */
static bool has_net(const struct pfs_ctx *c)
{
	return mach_thread_net(c->mach, c->thread) != NULL;
}

/* The net files that name devices render them from net/dev's list. */
#define NEEDS_DEV .needs = PFS_NEEDS(MACH_LD_PID_NET_DEV)

const struct pfs_entry pfs_entries[] = {
	/* /proc */
	DIR_("pressure", G, 0555, .exists = has_any_pressure),
	LINK("net", G, pfs_link_net, "proc_net_init"),
	/* /proc/sys: a scope per directory of the machine's tree (mach_sysctl.h) */
	DIR_("sys", G, 0555, .child_scope = PFS_SCOPE_SYSCTL, .exists = has_sysctl),
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
	/* interrupts: after stat in a load, whose totals they attribute to CPUs */
	FILE_("softirqs", G, 0444, pfs_show_softirqs, MACH_LD_SOFTIRQS, "show_softirqs",
	      .first_size = pfs_softirqs_first_size, .exists = has_softirq_detail, .needs = PFS_NEEDS(MACH_LD_STAT)),
	ITER("interrupts", G, 0444, &pfs_interrupts_ops, MACH_LD_INTERRUPTS, "show_interrupts",
	     .exists = has_irq_detail, .needs = PFS_NEEDS(MACH_LD_STAT)),
	FILE_("tty/drivers", G, 0444, pfs_show_tty_drivers, MACH_LD_NONE, "show_tty_driver"),
	/* the rest of the machine (mach_sys.h), in the kernel's readdir order among themselves */
	ITER("misc", G, 0444, &pfs_misc_ops, MACH_LD_MISC, "misc_seq_show"),
	ITER("locks", G, 0444, &pfs_locks_ops, MACH_LD_LOCKS, "locks_show"),
	ITER("swaps", G, 0444, &pfs_swaps_ops, MACH_LD_SWAPS, "swap_show"),
	LINK("mounts", G, pfs_link_mounts, "proc_symlink"),
	FILE_("cgroups", G, 0444, pfs_show_cgroups, MACH_LD_CGROUPS, "proc_cgroupstats_show"),
	FILE_("cmdline", G, 0444, pfs_show_cmdline, MACH_LD_CMDLINE, "cmdline_proc_show"),
	ITER("devices", G, 0444, &pfs_devices_ops, MACH_LD_DEVICES, "devinfo_show"),
	FILE_("version", G, 0444, pfs_show_version, MACH_LD_VERSION, "version_proc_show"),
	ITER("slabinfo", G, 0400, &pfs_slabinfo_ops, MACH_LD_SLABINFO, "slab_show"),
	ITER("zoneinfo", G, 0444, &pfs_zoneinfo_ops, MACH_LD_ZONEINFO, "zoneinfo_show"),
	ITER("buddyinfo", G, 0444, &pfs_buddyinfo_ops, MACH_LD_BUDDYINFO, "frag_show"),
	ITER("diskstats", G, 0444, &pfs_diskstats_ops, MACH_LD_DISKSTATS, "diskstats_show"),
	ITER("partitions", G, 0444, &pfs_partitions_ops, MACH_LD_PARTITIONS, "show_partition"),
	FILE_("filesystems", G, 0444, pfs_show_filesystems, MACH_LD_FILESYSTEMS, "filesystems_proc_show"),
	LINK("self", G, pfs_link_self, "proc_self_get_link"),
	LINK("thread-self", G, pfs_link_thread_self, "proc_thread_self_get_link"),
	DIR_("*", G, 0555, .coll = PFS_COLL_PIDS, .child_scope = PFS_SCOPE_TGID),

	/* a /proc/sys directory: its directories and its keys, listed together in name order */
	DIR_("*", S, 0555, .coll = PFS_COLL_SYSCTL_DIRS, .child_scope = PFS_SCOPE_SYSCTL),
	FILE_("*", S, 0644, pfs_show_sysctl, MACH_LD_SYSCTL, "proc_sys_read", .coll = PFS_COLL_SYSCTL_KEYS,
	      .access = PFS_ACC_SYSCTL),

	/* /proc/<pid> and /proc/<pid>/task/<tid>, in the kernel's order (tgid_base_stuff, tid_base_stuff) */
	DIR_("task", P, 0555),
	DIR_("task/*", P, 0555, .coll = PFS_COLL_TIDS, .child_scope = PFS_SCOPE_TID),
	DIR_("fd", PT, 0500),
	LINK("fd/*", PT, pfs_link_fd, "proc_fd_link", .coll = PFS_COLL_FDS, .load = MACH_LD_PID_FD,
	     .access = PFS_ACC_PTRACE_READ),
	DIR_("fdinfo", PT, 0555, .access = PFS_ACC_PTRACE_READ),
	/* a thread's fdinfo shows its process's table: loaded from /proc/<pid> only */
	FILE_("fdinfo/*", P, 0444, pfs_show_pid_fdinfo, MACH_LD_PID_FDINFO, "seq_show", .coll = PFS_COLL_FDS,
	      .access = PFS_ACC_PTRACE_READ),
	FILE_("fdinfo/*", T, 0444, pfs_show_pid_fdinfo, MACH_LD_NONE, "seq_show", .coll = PFS_COLL_FDS,
	      .access = PFS_ACC_PTRACE_READ, .needs = PFS_NEEDS(MACH_LD_PID_FDINFO)),
	DIR_("ns", PT, 0511),
	/* net/: the task's network namespace (fs/proc/proc_net.c), in the namespace's readdir order */
	DIR_("net", PT, 0555, .empty_list_err = -EINVAL),
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
	FILE_("environ", PT, 0400, pfs_show_pid_environ, MACH_LD_NONE, "environ_read",
	      .access = PFS_ACC_PTRACE_READ | PFS_ACC_MM | PFS_ACC_NEED_MM),
	FILE_("status", PT, 0444, pfs_show_pid_status, MACH_LD_PID_STATUS, "proc_pid_status"),
	FILE_("personality", PT, 0400, pfs_show_pid_personality, MACH_LD_PID_PERSONALITY, "proc_pid_personality",
	      .access = PFS_ACC_PTRACE_ATTACH | PFS_ACC_AT_READ),
	FILE_("limits", PT, 0444, pfs_show_pid_limits, MACH_LD_PID_LIMITS, "proc_pid_limits"),
	FILE_("autogroup", P, 0644, pfs_show_pid_autogroup, MACH_LD_PID_AUTOGROUP, "proc_sched_autogroup_show_task"),
	FILE_("comm", PT, 0644, pfs_show_pid_comm, MACH_LD_PID_COMM, "comm_show"),
	FILE_("syscall", PT, 0400, pfs_show_pid_syscall, MACH_LD_PID_SYSCALL, "proc_pid_syscall",
	      .access = PFS_ACC_PTRACE_ATTACH | PFS_ACC_AT_READ),
	FILE_("cmdline", PT, 0444, pfs_show_pid_cmdline, MACH_LD_PID_CMDLINE, "proc_pid_cmdline_read"),
	FILE_("stat", PT, 0444, pfs_show_pid_stat, MACH_LD_PID_STAT, "do_task_stat", .ptrace_masked = true),
	FILE_("statm", PT, 0444, pfs_show_pid_statm, MACH_LD_PID_STATM, "proc_pid_statm"),
	ITER("maps", PT, 0444, &pfs_pid_maps_ops, MACH_LD_PID_MAPS, "show_map",
	     .access = PFS_ACC_PTRACE_READ | PFS_ACC_MM),
	/* memory and scheduling (syscall is above, before stat, as the kernel lists it) */
	ITER("children", T, 0444, &pfs_pid_children_ops, MACH_LD_PID_CHILDREN, "children_seq_show"),
	LINK("cwd", PT, pfs_link_cwd, "proc_cwd_link", .load = MACH_LD_PID_CWD, .access = PFS_ACC_PTRACE_READ),
	LINK("root", PT, pfs_link_root, "proc_root_link", .load = MACH_LD_PID_ROOT, .access = PFS_ACC_PTRACE_READ),
	LINK("exe", PT, pfs_link_exe, "proc_exe_link", .load = MACH_LD_PID_EXE, .access = PFS_ACC_PTRACE_READ),
	ITER("mounts", PT, 0444, &pfs_pid_mounts_ops, MACH_LD_PID_MOUNTS, "show_vfsmnt", .access = PFS_ACC_NEED_NS,
	     .exists = has_mounts, .needs = PFS_NEEDS(MACH_LD_PID_MOUNTINFO)),
	ITER("mountinfo", PT, 0444, &pfs_pid_mountinfo_ops, MACH_LD_PID_MOUNTINFO, "show_mountinfo",
	     .access = PFS_ACC_NEED_NS, .exists = has_mounts),
	ITER("mountstats", P, 0400, &pfs_pid_mountstats_ops, MACH_LD_PID_MOUNTSTATS, "show_vfsstat",
	     .access = PFS_ACC_NEED_NS, .exists = has_mounts, .needs = PFS_NEEDS(MACH_LD_PID_MOUNTINFO)),
	ITER("smaps", PT, 0444, &pfs_pid_smaps_ops, MACH_LD_PID_SMAPS, "show_smap",
	     .access = PFS_ACC_PTRACE_READ | PFS_ACC_MM),
	FILE_("smaps_rollup", PT, 0444, pfs_show_pid_smaps_rollup, MACH_LD_PID_SMAPS_ROLLUP,
	      "show_smaps_rollup", .access = PFS_ACC_PTRACE_READ | PFS_ACC_MM | PFS_ACC_NEED_MM,
	      .needs = PFS_NEEDS(MACH_LD_PID_SMAPS), .exists = has_smaps_rollup),
	FILE_("wchan", PT, 0444, pfs_show_pid_wchan, MACH_LD_PID_WCHAN, "proc_pid_wchan", .ptrace_masked = true),
	FILE_("stack", PT, 0400, pfs_show_pid_stack, MACH_LD_PID_STACK, "proc_pid_stack",
	      .access = PFS_ACC_PTRACE_ATTACH | PFS_ACC_CAP_SYS_ADMIN | PFS_ACC_AT_READ),
	FILE_("schedstat", PT, 0444, pfs_show_pid_schedstat, MACH_LD_PID_SCHEDSTAT, "proc_pid_schedstat"),
	FILE_("cpuset", PT, 0444, pfs_show_pid_cpuset, MACH_LD_PID_CPUSET, "proc_cpuset_show", .exists = has_cgroups,
	      .needs = PFS_NEEDS(MACH_LD_PID_CGROUP)),
	FILE_("cgroup", PT, 0444, pfs_show_pid_cgroup, MACH_LD_PID_CGROUP, "proc_cgroup_show", .exists = has_cgroups),
	NS_LINK("ns/net", MACH_NS_NET, MACH_LD_PID_NS_NET),
	NS_LINK("ns/uts", MACH_NS_UTS, MACH_LD_PID_NS_UTS),
	NS_LINK("ns/ipc", MACH_NS_IPC, MACH_LD_PID_NS_IPC),
	NS_LINK("ns/pid", MACH_NS_PID, MACH_LD_PID_NS_PID),
	NS_LINK("ns/pid_for_children", MACH_NS_PID_FOR_CHILDREN, MACH_LD_PID_NS_PID_FOR_CHILDREN),
	NS_LINK("ns/user", MACH_NS_USER, MACH_LD_PID_NS_USER),
	NS_LINK("ns/mnt", MACH_NS_MNT, MACH_LD_PID_NS_MNT),
	NS_LINK("ns/cgroup", MACH_NS_CGROUP, MACH_LD_PID_NS_CGROUP),
	NS_LINK("ns/time", MACH_NS_TIME, MACH_LD_PID_NS_TIME),
	NS_LINK("ns/time_for_children", MACH_NS_TIME_FOR_CHILDREN, MACH_LD_PID_NS_TIME_FOR_CHILDREN),
	FILE_("oom_score", PT, 0444, pfs_show_pid_oom_score, MACH_LD_PID_OOM_SCORE, "proc_oom_score",
	      .needs = PFS_NEEDS(MACH_LD_MEMINFO) | PFS_NEEDS(MACH_LD_PID_OOM_SCORE_ADJ)),
	FILE_("oom_adj", PT, 0644, pfs_show_pid_oom_adj, MACH_LD_PID_OOM_ADJ, "oom_adj_read"),
	FILE_("oom_score_adj", PT, 0644, pfs_show_pid_oom_score_adj, MACH_LD_PID_OOM_SCORE_ADJ, "oom_score_adj_read"),
	FILE_("loginuid", PT, 0644, pfs_show_pid_loginuid, MACH_LD_PID_LOGINUID, "proc_loginuid_read"),
	FILE_("sessionid", PT, 0444, pfs_show_pid_sessionid, MACH_LD_PID_SESSIONID, "proc_sessionid_read"),
	FILE_("io", PT, 0400, pfs_show_pid_io, MACH_LD_PID_IO, "do_io_accounting",
	      .access = PFS_ACC_PTRACE_READ | PFS_ACC_AT_READ),
	FILE_("timerslack_ns", P, 0666, pfs_show_pid_timerslack_ns, MACH_LD_PID_TIMERSLACK_NS, "timerslack_ns_show",
	      .access = PFS_ACC_SELF_OR_NICE),
	/*
	 * /sys.  Kernfs lists a directory by the hash of each name
	 * (pfs_kernfs_hash), so the order here is free.  The directories the
	 * other parts of /sys hang under come first; a directory marked with a
	 * .load kind roots a subtree the loader walks (mach_loader_sys).
	 */
	DIR_("devices/system", SY, 0755),
	DIR_("devices/virtual", SY, 0755),
	DIR_("class", SY, 0755),
	DIR_("kernel", SY, 0755),
	DIR_("kernel/mm", SY, 0755),

	/* network devices (table_net.inc), block devices and cgroup v2 (table_sys.inc): class links first */
#include "table_net.inc"
#include "table_sys.inc"

	/* the platform: CPUs, nodes, sensors, THP (mach_platform.h); file = .arg, instance = its directory's */
#define SYSF(p, md, sh, ld, a, fn, ...) FILE_(p, SY, md, sh, ld, fn, .arg = a, __VA_ARGS__)
#define CPU_LIST(p, a, fn) SYSF("devices/system/cpu/" p, 0444, pfs_show_sys_cpus, MACH_LD_SYS_CPU, a, fn)
#define TOPO(p, a, fn, ...) SYSF("devices/system/cpu/*/topology/" p, 0444, pfs_show_sys_topology, \
				  MACH_LD_SYS_CPU, a, fn, __VA_ARGS__)
#define CACHE(p, a, ...) SYSF("devices/system/cpu/*/cache/*/" p, 0444, pfs_show_sys_cache, MACH_LD_SYS_CPU, a, \
			      p "_show", __VA_ARGS__)
#define FREQ(p, md, a, fn) SYSF("devices/system/cpu/cpufreq/*/" p, md, pfs_show_sys_cpufreq, MACH_LD_SYS_CPU, a, fn)
#define NODES(p, a) SYSF("devices/system/node/" p, 0444, pfs_show_sys_nodes, MACH_LD_SYS_NODE, a, "print_nodes_state")
#define ZONE(p, md, a, fn, ...) SYSF("devices/virtual/thermal/*/" p, md, pfs_show_sys_zone, MACH_LD_SYS_THERMAL, a, \
				     fn, __VA_ARGS__)
#define THP(p, md, a, fn) SYSF("kernel/mm/transparent_hugepage/" p, md, pfs_show_sys_thp, MACH_LD_SYS_THP, a, fn)
	DIR_("devices/system/cpu", SY, 0755, .load = MACH_LD_SYS_CPU),
	CPU_LIST("online", MACH_SYSA_CPUS_ONLINE, "show_cpus_attr"),
	CPU_LIST("possible", MACH_SYSA_CPUS_POSSIBLE, "show_cpus_attr"),
	CPU_LIST("present", MACH_SYSA_CPUS_PRESENT, "show_cpus_attr"),
	CPU_LIST("offline", MACH_SYSA_CPUS_OFFLINE, "print_cpus_offline"),
	CPU_LIST("isolated", MACH_SYSA_CPUS_ISOLATED, "print_cpus_isolated"),
	CPU_LIST("enabled", MACH_SYSA_CPUS_ENABLED, "show_cpus_attr"),
	SYSF("devices/system/cpu/kernel_max", 0444, pfs_show_sys_kernel_max, MACH_LD_SYS_CPU, MACH_SYSA_CPUS_KERNEL_MAX,
	     "print_cpus_kernel_max"),
	SYSF("devices/system/cpu/uevent", 0644, pfs_show_sys_empty, MACH_LD_NONE, 0, "uevent_show"),
	DIR_("devices/system/cpu/cpufreq", SY, 0755),
	DIR_("devices/system/cpu/cpufreq/*", SY, 0755, .coll = PFS_COLL_SYS_POLICIES),
	FREQ("affected_cpus", 0444, MACH_SYSA_FREQ_AFFECTED, "show_affected_cpus"),
	FREQ("related_cpus", 0444, MACH_SYSA_FREQ_RELATED, "show_related_cpus"),
	FREQ("cpuinfo_min_freq", 0444, MACH_SYSA_FREQ_CPUINFO_MIN, "show_cpuinfo_min_freq"),
	FREQ("cpuinfo_max_freq", 0444, MACH_SYSA_FREQ_CPUINFO_MAX, "show_cpuinfo_max_freq"),
	FREQ("cpuinfo_cur_freq", 0400, MACH_SYSA_FREQ_CPUINFO_CUR, "show_cpuinfo_cur_freq"),
	FREQ("cpuinfo_transition_latency", 0444, MACH_SYSA_FREQ_LATENCY, "show_cpuinfo_transition_latency"),
	FREQ("scaling_cur_freq", 0444, MACH_SYSA_FREQ_SCALING_CUR, "show_scaling_cur_freq"),
	FREQ("scaling_min_freq", 0644, MACH_SYSA_FREQ_SCALING_MIN, "show_scaling_min_freq"),
	FREQ("scaling_max_freq", 0644, MACH_SYSA_FREQ_SCALING_MAX, "show_scaling_max_freq"),
	FREQ("scaling_governor", 0644, MACH_SYSA_FREQ_GOVERNOR, "show_scaling_governor"),
	FREQ("scaling_driver", 0444, MACH_SYSA_FREQ_DRIVER, "show_scaling_driver"),
	FREQ("scaling_available_governors", 0444, MACH_SYSA_FREQ_GOVERNORS, "show_scaling_available_governors"),
	FREQ("scaling_setspeed", 0644, MACH_SYSA_FREQ_SETSPEED, "show_scaling_setspeed"),
	FREQ("scaling_available_frequencies", 0444, MACH_SYSA_FREQ_AVAILABLE, "show_available_freqs"),
	DIR_("devices/system/cpu/*", SY, 0755, .coll = PFS_COLL_SYS_CPUS),
	SYSF("devices/system/cpu/*/online", 0644, pfs_show_sys_cpu_online, MACH_LD_SYS_CPU, MACH_SYSA_CPU_ONLINE,
	     "online_show", .exists = sys_cpu_hotpluggable),
	SYSF("devices/system/cpu/*/uevent", 0644, pfs_show_sys_empty, MACH_LD_NONE, 0, "uevent_show"),
	LINK("devices/system/cpu/*/*", SY, pfs_link_sys_cpu_node, "register_cpu_under_node",
	     .coll = PFS_COLL_SYS_CPU_NODE, .load = MACH_LD_SYS_CPU, .arg = MACH_SYSA_CPU_NODE_LINK),
	LINK("devices/system/cpu/*/cpufreq", SY, pfs_link_sys_cpu_cpufreq, "cpufreq_add_dev_symlink",
	     .exists = sys_cpufreq, .load = MACH_LD_SYS_CPU, .arg = MACH_SYSA_CPU_CPUFREQ_LINK),
	LINK("devices/system/cpu/*/subsystem", SY, pfs_link_sys_cpu_subsystem, "device_add_class_symlinks",
	     .load = MACH_LD_SYS_CPU, .arg = MACH_SYSA_CPU_SUBSYSTEM_LINK),
	DIR_("devices/system/cpu/*/topology", SY, 0755, .exists = sys_cpu_topology),
	TOPO("physical_package_id", MACH_SYSA_TOPO_PACKAGE, "physical_package_id_show"),
	TOPO("die_id", MACH_SYSA_TOPO_DIE, "die_id_show"),
	TOPO("cluster_id", MACH_SYSA_TOPO_CLUSTER, "cluster_id_show"),
	TOPO("core_id", MACH_SYSA_TOPO_CORE, "core_id_show"),
	SYSF("devices/system/cpu/*/topology/ppin", 0400, pfs_show_sys_topology, MACH_LD_SYS_CPU, MACH_SYSA_TOPO_PPIN,
	     "ppin_show", .exists = sys_cpu_ppin),
	TOPO("thread_siblings", MACH_SYSA_TOPO_THREAD_SIBLINGS, "thread_siblings_read"),
	TOPO("thread_siblings_list", MACH_SYSA_TOPO_THREAD_SIBLINGS_LIST, "thread_siblings_list_read"),
	TOPO("core_cpus", MACH_SYSA_TOPO_CORE_CPUS, "core_cpus_read"),
	TOPO("core_cpus_list", MACH_SYSA_TOPO_CORE_CPUS_LIST, "core_cpus_list_read"),
	TOPO("core_siblings", MACH_SYSA_TOPO_CORE_SIBLINGS, "core_siblings_read"),
	TOPO("core_siblings_list", MACH_SYSA_TOPO_CORE_SIBLINGS_LIST, "core_siblings_list_read"),
	TOPO("package_cpus", MACH_SYSA_TOPO_PACKAGE_CPUS, "package_cpus_read"),
	TOPO("package_cpus_list", MACH_SYSA_TOPO_PACKAGE_CPUS_LIST, "package_cpus_list_read"),
	TOPO("die_cpus", MACH_SYSA_TOPO_DIE_CPUS, "die_cpus_read"),
	TOPO("die_cpus_list", MACH_SYSA_TOPO_DIE_CPUS_LIST, "die_cpus_list_read"),
	TOPO("cluster_cpus", MACH_SYSA_TOPO_CLUSTER_CPUS, "cluster_cpus_read"),
	TOPO("cluster_cpus_list", MACH_SYSA_TOPO_CLUSTER_CPUS_LIST, "cluster_cpus_list_read"),
	DIR_("devices/system/cpu/*/cache", SY, 0755, .exists = sys_cpu_topology),
	SYSF("devices/system/cpu/*/cache/uevent", 0644, pfs_show_sys_empty, MACH_LD_NONE, 0, "uevent_show",
	     .exists = sys_cpu_topology),
	DIR_("devices/system/cpu/*/cache/*", SY, 0755, .coll = PFS_COLL_SYS_CACHES),
	CACHE("level", MACH_SYSA_CACHE_LEVEL),
	CACHE("type", MACH_SYSA_CACHE_TYPE),
	CACHE("size", MACH_SYSA_CACHE_SIZE),
	CACHE("ways_of_associativity", MACH_SYSA_CACHE_WAYS),
	CACHE("coherency_line_size", MACH_SYSA_CACHE_LINE),
	CACHE("number_of_sets", MACH_SYSA_CACHE_SETS),
	CACHE("physical_line_partition", MACH_SYSA_CACHE_PARTITION),
	CACHE("id", MACH_SYSA_CACHE_ID, .exists = sys_cache_id),
	CACHE("shared_cpu_map", MACH_SYSA_CACHE_SHARED_MAP),
	CACHE("shared_cpu_list", MACH_SYSA_CACHE_SHARED_LIST),
	SYSF("devices/system/cpu/*/cache/*/uevent", 0644, pfs_show_sys_empty, MACH_LD_NONE, 0, "uevent_show"),
	/* the cpu bus: its devices are the CPUs (driver_register of the processor driver, bus_add_device) */
	DIR_("bus", SY, 0755),
	DIR_("bus/cpu", SY, 0755),
	SYSF("bus/cpu/uevent", 0200, pfs_show_sys_empty, MACH_LD_NONE, 0, "bus_uevent_store"),
	SYSF("bus/cpu/drivers_probe", 0200, pfs_show_sys_empty, MACH_LD_NONE, 0, "drivers_probe_store"),
	SYSF("bus/cpu/drivers_autoprobe", 0644, pfs_show_sys_one, MACH_LD_NONE, 0, "drivers_autoprobe_show"),
	DIR_("bus/cpu/devices", SY, 0755, .load = MACH_LD_SYS_CPU),
	LINK("bus/cpu/devices/*", SY, pfs_link_sys_bus_cpu, "bus_add_device", .coll = PFS_COLL_SYS_CPUS,
	     .load = MACH_LD_SYS_CPU, .arg = MACH_SYSA_BUS_CPU_LINK),
	DIR_("bus/cpu/drivers", SY, 0755),
	DIR_("bus/cpu/drivers/processor", SY, 0755),
	SYSF("bus/cpu/drivers/processor/bind", 0200, pfs_show_sys_empty, MACH_LD_NONE, 0, "bind_store"),
	SYSF("bus/cpu/drivers/processor/unbind", 0200, pfs_show_sys_empty, MACH_LD_NONE, 0, "unbind_store"),
	SYSF("bus/cpu/drivers/processor/uevent", 0200, pfs_show_sys_empty, MACH_LD_NONE, 0, "uevent_store"),
	DIR_("devices/system/node", SY, 0755, .load = MACH_LD_SYS_NODE, .exists = sys_nodes),
	NODES("possible", MACH_SYSA_NODES_POSSIBLE),
	NODES("online", MACH_SYSA_NODES_ONLINE),
	NODES("has_cpu", MACH_SYSA_NODES_HAS_CPU),
	NODES("has_memory", MACH_SYSA_NODES_HAS_MEMORY),
	NODES("has_normal_memory", MACH_SYSA_NODES_HAS_NORMAL),
	NODES("has_generic_initiator", MACH_SYSA_NODES_HAS_GI),
	SYSF("devices/system/node/uevent", 0644, pfs_show_sys_empty, MACH_LD_NONE, 0, "uevent_show"),
	DIR_("devices/system/node/*", SY, 0755, .coll = PFS_COLL_SYS_NODES),
	SYSF("devices/system/node/*/cpumap", 0444, pfs_show_sys_node_cpus, MACH_LD_SYS_NODE, MACH_SYSA_NODE_CPUMAP,
	     "node_read_cpumask"),
	SYSF("devices/system/node/*/cpulist", 0444, pfs_show_sys_node_cpus, MACH_LD_SYS_NODE, MACH_SYSA_NODE_CPULIST,
	     "node_read_cpulist"),
	SYSF("devices/system/node/*/distance", 0444, pfs_show_sys_node_distance, MACH_LD_SYS_NODE,
	     MACH_SYSA_NODE_DISTANCE, "node_read_distance"),
	SYSF("devices/system/node/*/meminfo", 0444, pfs_show_sys_node_meminfo, MACH_LD_SYS_NODE,
	     MACH_SYSA_NODE_MEMINFO, "node_read_meminfo"),
	SYSF("devices/system/node/*/numastat", 0444, pfs_show_sys_node_numastat, MACH_LD_SYS_NODE,
	     MACH_SYSA_NODE_NUMASTAT, "node_read_numastat"),
	LINK("devices/system/node/*/*", SY, pfs_link_sys_node_cpu, "register_cpu_under_node",
	     .coll = PFS_COLL_SYS_NODE_CPUS, .load = MACH_LD_SYS_NODE, .arg = MACH_SYSA_NODE_CPU_LINK),
	/* the sensors' class links first: a loaded device learns where it hangs from its link */
	DIR_("class/hwmon", SY, 0755, .load = MACH_LD_SYS_HWMON, .exists = sys_hwmon),
	LINK("class/hwmon/*", SY, pfs_link_sys_hwmon, "device_add_class_symlinks", .coll = PFS_COLL_SYS_HWMON_LINKS,
	     .load = MACH_LD_SYS_HWMON, .arg = MACH_SYSA_HWMON_LINK),
	DIR_("class/thermal", SY, 0755, .load = MACH_LD_SYS_THERMAL, .exists = sys_thermal),
	LINK("class/thermal/*", SY, pfs_link_sys_zone, "device_add_class_symlinks", .coll = PFS_COLL_SYS_ZONE_LINKS,
	     .load = MACH_LD_SYS_THERMAL, .arg = MACH_SYSA_ZONE_LINK),
	/* hwmon devices: k10temp on its data fabric function, a thermal zone's own */
	DIR_("devices/pci0000:00", SY, 0755, .load = MACH_LD_SYS_HWMON, .exists = sys_pci_root),
	DIR_("devices/pci0000:00/*", SY, 0755, .coll = PFS_COLL_SYS_HWMON_PCI),
	DIR_("devices/pci0000:00/*", SY, 0755, .coll = PFS_COLL_DEVDIRS, .child_scope = PFS_SCOPE_SYSOBJ),
	DIR_("devices/pci0000:00/*/hwmon", SY, 0755),
	DIR_("devices/pci0000:00/*/hwmon/*", SY, 0755, .coll = PFS_COLL_SYS_HWMONS_PCI),
	SYSF("devices/pci0000:00/*/hwmon/*/name", 0444, pfs_show_sys_hwmon_name, MACH_LD_SYS_HWMON,
	     MACH_SYSA_HWMON_NAME, "name_show"),
	SYSF("devices/pci0000:00/*/hwmon/*/*", 0444, pfs_show_sys_hwmon_temp, MACH_LD_SYS_HWMON,
	     MACH_SYSA_HWMON_TEMP, "hwmon_attr_show", .coll = PFS_COLL_SYS_HWMON_TEMPS),
	LINK("devices/pci0000:00/*/hwmon/*/device", SY, pfs_link_sys_hwmon_device, "device_add_class_symlinks",
	     .load = MACH_LD_SYS_HWMON, .arg = MACH_SYSA_HWMON_DEVICE_LINK),
	DIR_("devices/virtual/*", SY, 0755, .coll = PFS_COLL_DEVDIRS, .child_scope = PFS_SCOPE_SYSOBJ),
	DIR_("devices/virtual/thermal", SY, 0755, .load = MACH_LD_SYS_THERMAL, .exists = sys_thermal),
	DIR_("devices/virtual/thermal/*", SY, 0755, .coll = PFS_COLL_SYS_ZONES),
	ZONE("type", 0444, MACH_SYSA_ZONE_TYPE, "type_show"),
	ZONE("temp", 0444, MACH_SYSA_ZONE_TEMP, "temp_show"),
	ZONE("mode", 0644, MACH_SYSA_ZONE_MODE, "mode_show"),
	ZONE("policy", 0644, MACH_SYSA_ZONE_POLICY, "policy_show"),
	ZONE("trip_point_0_type", 0444, MACH_SYSA_ZONE_TRIP_TYPE, "trip_point_type_show", .exists = sys_zone_trip),
	ZONE("trip_point_0_temp", 0444, MACH_SYSA_ZONE_TRIP_TEMP, "trip_point_temp_show", .exists = sys_zone_trip),
	DIR_("devices/virtual/thermal/*/*", SY, 0755, .coll = PFS_COLL_SYS_HWMONS_ZONE),
	SYSF("devices/virtual/thermal/*/*/name", 0444, pfs_show_sys_hwmon_name, MACH_LD_SYS_HWMON,
	     MACH_SYSA_HWMON_NAME, "name_show"),
	SYSF("devices/virtual/thermal/*/*/*", 0444, pfs_show_sys_hwmon_temp, MACH_LD_SYS_HWMON, MACH_SYSA_HWMON_TEMP,
	     "hwmon_attr_show", .coll = PFS_COLL_SYS_HWMON_TEMPS),
	DIR_("kernel/mm/transparent_hugepage", SY, 0755, .load = MACH_LD_SYS_THP, .exists = sys_thp),
	THP("enabled", 0644, MACH_SYSA_THP_ENABLED, "enabled_show"),
	THP("defrag", 0644, MACH_SYSA_THP_DEFRAG, "defrag_show"),
	THP("shmem_enabled", 0644, MACH_SYSA_THP_SHMEM, "shmem_enabled_show"),
	THP("use_zero_page", 0644, MACH_SYSA_THP_ZERO_PAGE, "use_zero_page_show"),
	THP("hpage_pmd_size", 0444, MACH_SYSA_THP_PMD_SIZE, "hpage_pmd_size_show"),
#undef SYSF
#undef CPU_LIST
#undef TOPO
#undef CACHE
#undef FREQ
#undef NODES
#undef ZONE
#undef THP
	/* end of the platform's /sys */
};

const size_t pfs_nentries = sizeof(pfs_entries) / sizeof(pfs_entries[0]);

_Static_assert(MACH_LD_NR_KINDS <= 128, "pfs_entry.needs holds one bit per loader kind");

mach_ld_set pfs_entry_needs(const struct pfs_entry *e)
{
	mach_ld_set k = e->needs | PFS_NEEDS(MACH_LD_PID_STATUS) | PFS_NEEDS(MACH_LD_PID_STAT);

	if (e->load != MACH_LD_NONE)
		k |= PFS_NEEDS(e->load);
	return k;
}
