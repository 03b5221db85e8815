/* SPDX-License-Identifier: MIT */
/*
 * catalog.h - what the generator chooses from: shared libraries, programs,
 * service accounts, kernel threads and workqueue rescuers.
 *
 * The tables are data only (catalog.c); the plan picks entries by these ids
 * and the builders read their fields, so adding a program touches the
 * catalog and the workload that starts it, nothing else.
 */
#ifndef UPROCFS_SYNTH_CATALOG_H
#define UPROCFS_SYNTH_CATALOG_H

#include <stdint.h>

#include "uprocfs/machine.h"

/* task->flags bits (include/linux/sched.h) that show in stat field 9 */
#define PF_EXITING 0x00000004u
#define PF_POSTCOREDUMP 0x00000008u
#define PF_WQ_WORKER 0x00000020u
#define PF_FORKNOEXEC 0x00000040u
#define PF_SUPERPRIV 0x00000100u
#define PF_MEMALLOC 0x00000800u
#define PF_NOFREEZE 0x00008000u
#define PF_KSWAPD 0x00020000u
#define PF_KTHREAD 0x00200000u
#define PF_RANDOMIZE 0x00400000u
#define PF_NO_SETAFFINITY 0x04000000u

/* kthreads as the live machine shows them: 2129984, 69238848, 69238880 */
#define PF_KT (PF_KTHREAD | PF_NOFREEZE | PF_FORKNOEXEC)
#define PF_KT_PERCPU (PF_KT | PF_NO_SETAFFINITY)
#define PF_KT_WORKER (PF_KT_PERCPU | PF_WQ_WORKER)

/* ------------------------------------------------------------------ */
/* Shared libraries                                                     */

/*
 * The libraries programs map, with the size of their text segment; the
 * other ELF segments are derived from it (elf_segs).  Paths without a
 * leading '/' live in /usr/lib/x86_64-linux-gnu/.  Inodes are fixed per file,
 * as they are on one root filesystem; ld.so and libc keep the live machine's.
 */
enum lib_id {
	L_M, L_Z, L_SSL, L_CRYPTO, L_PCRE2, L_SELINUX, L_SDSHARED, L_SYSTEMD, L_CAP, L_GCRYPT,
	L_LZ4, L_ZSTD, L_LZMA, L_GLIB, L_GIO, L_GOBJECT, L_STDCXX, L_GCC_S, L_TINFO, L_PAM,
	L_AUDIT, L_CRYPT, L_PQ, L_XML2, L_ICUUC, L_EXPAT, L_FFI, L_JVM, L_JLI, L_JAVA,
	L_MOUNT, L_BLKID, L_KMOD, L_SECCOMP, L_ACL, L_EVENT, L_PROC2, L_GMP, L_MPFR, L_NODE,
	L_UV, L_BROTLI, L_NUMA, L_SASL, NR_LIBS
};

#define LIB(x) (1ull << (x))

struct lib {
	const char *path;
	uint32_t text_kb;
};

extern const struct lib sy_libs[NR_LIBS];

#define LIBDIR "/usr/lib/x86_64-linux-gnu/"
#define LD_SO_PATH LIBDIR "ld-linux-x86-64.so.2"
#define LIBC_PATH LIBDIR "libc.so.6"
#define LD_SO_INODE 332383
#define LIBC_INODE 332835

/** An inode number for a path, stable across processes and seeds. */
uint64_t sy_path_inode(const char *path);

/* ------------------------------------------------------------------ */
/* Programs                                                             */

enum prog_id {
	P_SYSTEMD, P_JOURNALD, P_UDEVD, P_NETWORKD, P_RESOLVED, P_TIMESYNCD, P_LOGIND, P_DBUS,
	P_RSYSLOGD, P_CRON, P_ATD, P_SSHD, P_AGETTY, P_AGETTY_SERIAL, P_IRQBALANCE, P_MULTIPATHD,
	P_POLKITD, P_CONTAINERD, P_DOCKERD, P_UNATTENDED, P_DNSMASQ, P_SYSTEMD_USER, P_SD_PAM,
	P_SSHD_PRIV, P_SSHD_USER, P_BASH_LOGIN, P_BASH, P_SH, P_TMUX, P_MAKE, P_CC1, P_VIM,
	P_TOP, P_LESS, P_TAIL, P_SLEEP, P_PYTHON, P_PS, P_SSH, P_RSYNC, P_XZ, P_NGINX,
	P_NGINX_WORKER, P_POSTMASTER, P_PG_AUX, P_PG_BACKEND, P_REDIS, P_JAVA, P_NODE,
	P_GUNICORN, P_GUNICORN_WORKER, P_PHPFPM, P_PHPFPM_WORKER, P_CRON_CHILD, P_SHIM,
	P_MEMCACHED, P_CELERY, P_PAUSE, P_COREDNS, P_EXPORTER, NR_PROGS
};

/* prog flags */
#define PR_FORKED 0x0001u   /* a forked copy of its parent that never exec'd */
#define PR_GO 0x0002u       /* static Go binary: non-PIE at 0x400000, no libc */
#define PR_JAVA 0x0004u     /* JVM: heap reservation, code cache, modules image */
#define PR_PGSHM 0x0008u    /* PostgreSQL shared memory (/dev/zero and SysV, deleted) */
#define PR_SECCOMP 0x0010u  /* systemd service with SystemCallFilter= and NoNewPrivileges= */
#define PR_TTY 0x0020u      /* interactive: keeps the terminal's locale archive mapped */
#define PR_RT 0x0040u       /* SCHED_RR 99 */
#define PR_MLOCK 0x0080u    /* mlockall(): VmLck covers the mappings */
#define PR_NICE 0x0100u     /* runs at nice 19 */
#define PR_JOURNAL 0x0200u  /* maps journal files shared */
#define PR_SUPER 0x0400u    /* used root privileges (PF_SUPERPRIV) */
#define PR_BUSY 0x0800u     /* CPU-bound: a likely R task */
#define PR_STATIC 0x1000u   /* static C binary, non-PIE at 0x400000: no ld.so, no libc */

/*
 * One program: what its processes look like.  argv is '|'-separated;
 * '\n' separates alternatives chosen by instance number.  Placeholders:
 * {u} user name, {U} the name of the user in the instance field, {t} pts
 * number, {i} instance, {c} CPUs, {h} a 64-digit hex id, {C} a PostgreSQL
 * backend's client "10.0.X.Y(PORT)" as its socket shows it, {a} an address
 * octet, {p} a port.  tnames are the comms of extra
 * threads, '|'-separated and cycled (NULL: the leader's comm).
 */
struct prog {
	const char *comm;
	const char *exe;
	const char *argv;
	const char *tnames;
	uint64_t libs;          /* LIB() bits beyond ld.so and libc */
	uint32_t text_kb;       /* r-xp of the executable */
	uint32_t anon_kb;       /* typical RssAnon */
	uint16_t fdsize;
	uint16_t mt;            /* weight in the extra-thread draw; 0: single-threaded */
	uint16_t min_threads;   /* extra threads it gets first when the budget allows */
	uint16_t flags;
	float cpu;              /* typical share of its lifetime spent on a CPU */
	float ushare;           /* user part of that */
	uint64_t blk, ign, cgt; /* SigBlk, SigIgn, SigCgt */
	uint64_t capbnd;        /* bounding set when not the default */
};

extern const struct prog sy_progs[NR_PROGS];

/** How many @sep-separated fields @list has (argv alternatives, thread names). */
unsigned int sy_count_fields(const char *list, char sep);
/** Field @k (modulo @n, the count) of @list; *@end is set to where it ends. */
const char *sy_nth_field(const char *list, char sep, unsigned int n, unsigned int k, const char **end);

/* ------------------------------------------------------------------ */
/* Accounts                                                             */

/* Service accounts, and the first login users' names. */
#define UID_ROOT 0u
#define UID_DAEMON 1u
#define UID_WWW 33u
#define UID_MESSAGEBUS 101u
#define UID_SYSLOG 104u
#define UID_POSTGRES 106u
#define UID_REDIS 107u
#define UID_MEMCACHE 108u
#define UID_POLKITD 995u
#define UID_TIMESYNC 996u
#define UID_RESOLVE 997u
#define UID_NETWORK 998u
#define UID_APP 999u
#define UID_NOBODY 65534u
#define UID_FIRST_USER 1000u

#define NR_USER_NAMES 19u
extern const char *const sy_user_names[]; /* NR_USER_NAMES: checked where defined */

/* ------------------------------------------------------------------ */
/* Kernel threads                                                       */

enum kt_id {
	K_KTHREADD, K_POOL_RELEASE, K_RESCUER, K_PERCPU_H, K_UNBOUND, K_KSOFTIRQD, K_RCU_PREEMPT,
	K_RCU_EXP_PAR, K_RCU_EXP, K_MIGRATION, K_CPUHP, K_PERCPU_EVENTS, K_PERCPU_HIGHPRI,
	K_KDEVTMPFS, K_RCU_TASKS, K_RCU_TASKS_RUDE, K_RCU_TASKS_TRACE, K_KAUDITD, K_KHUNGTASKD,
	K_OOM_REAPER, K_UNBOUND_WB, K_UNBOUND_FLUSH, K_KCOMPACTD, K_KSMD, K_KHUGEPAGED,
	K_WATCHDOGD, K_KSWAPD, K_HWRNG, K_UNBOUND_HI, K_JBD2, K_IRQ_ACPI, K_LATE_EVENTS,
	K_LATE_POWER, K_LATE_UNBOUND, NR_KTS
};

/*
 * One kind of kernel thread.  fmt's %u is the CPU (percpu), the NUMA node
 * (pernode) or the unbound pool; names of rescuers come from
 * sy_kt_rescuers.  Late kworkers (K_LATE_*) also print their worker
 * number: the instance holds the CPU or pool in its low 16 bits and the
 * worker above them.
 */
struct kthread_type {
	const char *fmt;
	unsigned int pf;
	int nice;
	uint8_t policy, rtprio;
	uint8_t state;          /* MACH_TASK_IDLE or MACH_TASK_SLEEPING */
	uint8_t percpu;         /* bound to CPU %u */
	float cpu;              /* share of its lifetime on a CPU (all system time) */
};

extern const struct kthread_type sy_kthread_types[NR_KTS];

/* Workqueue rescuers (kworker/R-NAME), in the order the kernel creates them. */
#define NR_RESCUERS 16u
extern const char *const sy_kt_rescuers[]; /* NR_RESCUERS: checked where defined */

#endif /* UPROCFS_SYNTH_CATALOG_H */
