/* SPDX-License-Identifier: MIT */
/*
 * machine.h - the machine model: typed data about CPUs, IRQs, memory, load,
 * pressure and tasks, as the kernel holds it, for the renderers to print.
 *
 * Units follow the kernel's internal ones, not the printed ones: CPU and task
 * times in nanoseconds (the renderers convert with nsec_to_clock_t), memory in
 * kB where the kernel prints kB, load and pressure averages in FSHIFT=11 fixed
 * point.  Strings exist only for names (comm), paths and command lines.
 *
 * A model is either synthetic (mach_synth_*), loaded from a /proc tree
 * (mach_load_*), or advanced in time by the simulator.  Renderers take it
 * const.  The kernel profile records which optional lines the source kernel
 * prints, so a tree captured from another kernel renders back the same.
 */
#ifndef UPROCFS_MACHINE_H
#define UPROCFS_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "uprocfs/mach_net.h"
#include "uprocfs/mach_vocab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Constants of the emulated kernel (Linux 6.18, x86_64)                */

#define MACH_USER_HZ 100            /* clock ticks in /proc/stat, /proc/<pid>/stat */
#define MACH_NSEC_PER_TICK 10000000ull
#define MACH_PAGE_SIZE 4096u
#define MACH_FSHIFT 11              /* load/pressure averages: FIXED_1 = 2048 */
#define MACH_FIXED_1 (1ul << MACH_FSHIFT)
#define MACH_MAX_NUMNODES_DEFAULT 1024 /* NODES_SHIFT=10: Mems_allowed width */
#define MACH_NR_SOFTIRQS 10
#define MACH_COMM_MAX 64            /* kthread names up to 63 chars + NUL */
/*
 * Pids of a synthetic machine stay below this; `uprocfs run` starts its
 * command's pid namespace here, so a reader's pid never names a machine's task.
 */
#define MACH_SYNTH_PID_LIMIT 3000000
#define MACH_NS_LEVELS_MAX 8        /* pid namespace levels kept (the kernel allows 32; deeper is an error) */

/** A bitmap of CPUs or NUMA nodes; nbits set by the model (nr_cpu_ids, MAX_NUMNODES). */
struct mach_bitmap {
	uint64_t *words;     /* (nbits + 63) / 64 words */
	unsigned int nbits;
};

/* ------------------------------------------------------------------ */
/* CPUs, IRQs, /proc/stat                                              */

enum mach_cputime {
	MACH_CPU_USER,
	MACH_CPU_NICE,
	MACH_CPU_SYSTEM,
	MACH_CPU_IDLE,
	MACH_CPU_IOWAIT,
	MACH_CPU_IRQ,
	MACH_CPU_SOFTIRQ,
	MACH_CPU_STEAL,
	MACH_CPU_GUEST,
	MACH_CPU_GUEST_NICE,
	MACH_NR_CPUTIME
};

/** Per-CPU scheduler statistics of /proc/schedstat version 17. */
enum mach_idle_type { MACH_IDLE_BUSY, MACH_IDLE_IDLE, MACH_IDLE_NEWLY, MACH_NR_IDLE_TYPES };

/* Per idle type, in printed order (v17). */
enum mach_lb_stat {
	MACH_LB_COUNT,
	MACH_LB_BALANCED,
	MACH_LB_FAILED,
	MACH_LB_IMBALANCE_LOAD,
	MACH_LB_IMBALANCE_UTIL,
	MACH_LB_IMBALANCE_TASK,
	MACH_LB_IMBALANCE_MISFIT,
	MACH_LB_GAINED,
	MACH_LB_HOT_GAINED,
	MACH_LB_NOBUSYQ,
	MACH_LB_NOBUSYG,
	MACH_NR_LB_STATS
};

/* After the three idle-type groups, in printed order. */
enum mach_domain_tail {
	MACH_ALB_COUNT,
	MACH_ALB_FAILED,
	MACH_ALB_PUSHED,
	MACH_SBE_COUNT,
	MACH_SBE_BALANCED,
	MACH_SBE_PUSHED,
	MACH_SBF_COUNT,
	MACH_SBF_BALANCED,
	MACH_SBF_PUSHED,
	MACH_TTWU_WAKE_REMOTE,
	MACH_TTWU_MOVE_AFFINE,
	MACH_TTWU_MOVE_BALANCE,
	MACH_NR_DOMAIN_TAIL
};

/** Scheduling domain levels; the v17 line prints the name. */
enum mach_sd_level { MACH_SD_SMT, MACH_SD_CLS, MACH_SD_MC, MACH_SD_PKG, MACH_SD_NUMA, MACH_NR_SD_LEVELS };

struct mach_sched_domain {
	enum mach_sd_level level;
	struct mach_bitmap span;   /* CPUs of the domain, nr_cpu_ids bits */
	uint32_t lb[MACH_NR_IDLE_TYPES][MACH_NR_LB_STATS];
	uint32_t tail[MACH_NR_DOMAIN_TAIL];
};

struct mach_cpu_schedstat {
	uint32_t yld_count;
	uint32_t sched_count;
	uint32_t sched_goidle;
	uint32_t ttwu_count;
	uint32_t ttwu_local;
	uint64_t rq_cpu_time;     /* ns */
	uint64_t run_delay;       /* ns */
	uint64_t pcount;
	unsigned int ndomains;
	struct mach_sched_domain *domains;
};

struct mach_cpu {
	unsigned int id;          /* CPU number (online CPUs may have gaps) */
	bool online;              /* offline CPUs count in the aggregate line only */
	uint64_t time_ns[MACH_NR_CPUTIME];
	struct mach_cpu_schedstat sched;
};

/** One IRQ with a non-zero or active descriptor; all others print 0. */
struct mach_irq {
	unsigned int irq;
	uint64_t total;           /* kstat_irqs_usr: sum over CPUs */
	uint64_t *per_cpu;        /* ncpus counts, or NULL when only the total is known */
};

/* ------------------------------------------------------------------ */
/* Pressure (PSI) as printed: what /proc/pressure/<res> shows           */

enum mach_psi_res { MACH_PSI_IO, MACH_PSI_MEM, MACH_PSI_CPU, MACH_PSI_IRQ, MACH_NR_PSI_RES };

struct mach_psi_line {
	unsigned long avg[3];     /* avg10, avg60, avg300; FSHIFT fixed point */
	uint64_t total_us;
};

struct mach_pressure {
	bool present;             /* the file exists (PSI enabled; irq needs IRQ_TIME_ACCOUNTING) */
	bool has_some;            /* irq has only a full line */
	bool has_full;            /* cpu full exists since 5.13 */
	struct mach_psi_line some, full;
};

/* ------------------------------------------------------------------ */
/* Tasks                                                               */

enum mach_task_state {
	MACH_TASK_RUNNING,    /* R (running) */
	MACH_TASK_SLEEPING,   /* S (sleeping) */
	MACH_TASK_DISK_SLEEP, /* D (disk sleep) */
	MACH_TASK_STOPPED,    /* T (stopped) */
	MACH_TASK_TRACED,     /* t (tracing stop) */
	MACH_TASK_DEAD,       /* X (dead) */
	MACH_TASK_ZOMBIE,     /* Z (zombie) */
	MACH_TASK_PARKED,     /* P (parked) */
	MACH_TASK_IDLE,       /* I (idle) */
	MACH_NR_TASK_STATES
};

enum mach_spec_store_bypass {
	MACH_SSB_UNKNOWN,
	MACH_SSB_NOT_VULNERABLE,
	MACH_SSB_THREAD_FORCE_MITIGATED,
	MACH_SSB_THREAD_MITIGATED,
	MACH_SSB_THREAD_VULNERABLE,
	MACH_SSB_GLOBALLY_MITIGATED,
	MACH_SSB_VULNERABLE,
	MACH_NR_SSB
};

enum mach_spec_indirect_branch {
	MACH_SIB_UNSUPPORTED,
	MACH_SIB_NOT_AFFECTED,
	MACH_SIB_CONDITIONAL_FORCE_DISABLED,
	MACH_SIB_CONDITIONAL_DISABLED,
	MACH_SIB_CONDITIONAL_ENABLED,
	MACH_SIB_ALWAYS_ENABLED,
	MACH_SIB_ALWAYS_DISABLED,
	MACH_SIB_UNKNOWN,
	MACH_NR_SIB
};

/* x86_Thread_features words */
#define MACH_X86_FEAT_SHSTK 0x1u
#define MACH_X86_FEAT_WRSS  0x2u

enum mach_vma_kind {
	MACH_VMA_FILE,        /* path (escaped newline), " (deleted)" when unlinked */
	MACH_VMA_ANON,        /* no name: the line ends after the inode and a space */
	MACH_VMA_HEAP,        /* [heap] */
	MACH_VMA_STACK,       /* [stack] */
	MACH_VMA_VDSO,        /* [vdso] */
	MACH_VMA_VVAR,        /* [vvar] */
	MACH_VMA_VVAR_VCLOCK, /* [vvar_vclock] */
	MACH_VMA_VSYSCALL,    /* [vsyscall] (the gate VMA, last) */
	MACH_VMA_UPROBES,     /* [uprobes] */
	MACH_VMA_ANON_NAMED,  /* [anon:NAME] (PR_SET_VMA_ANON_NAME) */
	MACH_VMA_ANON_SHMEM,  /* [anon_shmem:NAME] */
	MACH_NR_VMA_KINDS
};

#define MACH_VM_READ   0x1u
#define MACH_VM_WRITE  0x2u
#define MACH_VM_EXEC   0x4u
#define MACH_VM_SHARED 0x8u   /* VM_MAYSHARE: 's' instead of 'p' */

struct mach_vma {
	uint64_t start, end;
	uint64_t offset;          /* bytes (pgoff << PAGE_SHIFT) */
	uint32_t dev_major, dev_minor;
	uint64_t inode;
	unsigned int flags;       /* MACH_VM_* */
	enum mach_vma_kind kind;
	bool deleted;             /* FILE: the file was unlinked */
	char *name;               /* FILE: path; ANON_NAMED/ANON_SHMEM: the name; else NULL */
};

/** What the mm of a process holds (shared by its threads). */
struct mach_mm {
	/* status Vm* / Rss* lines, kB */
	uint64_t vm_peak, vm_size, vm_lck, vm_pin, vm_hwm, vm_rss;
	uint64_t rss_anon, rss_file, rss_shmem;
	uint64_t vm_data, vm_stk, vm_exe, vm_lib, vm_pte, vm_swap;
	uint64_t hugetlb_pages;
	bool core_dumping;
	bool thp_enabled;
	uint64_t untag_mask;
	/* statm text field, pages (from the code span) */
	uint64_t statm_text;
	/*
	 * stat's rss, pages.  Since 6.16 status and statm sum the per-CPU rss
	 * counters exactly while stat reads get_mm_rss()'s approximate global
	 * count, so the two may differ by the counters' per-CPU batches.
	 */
	uint64_t stat_rss;
	/* layout (stat fields 26-28, 45-51) */
	uint64_t start_code, end_code, start_stack;
	uint64_t start_data, end_data, start_brk;
	uint64_t arg_start, arg_end, env_start, env_end;
	size_t nvmas;
	struct mach_vma *vmas;    /* ascending, the gate VMA last */
	char *cmdline;            /* raw bytes, NULs included */
	size_t cmdline_len;
	char *environ;            /* raw bytes of the environment area (/proc/<pid>/environ) */
	size_t environ_len;
};

/** One thread (a task in kernel terms). */
struct mach_thread {
	pid_t tid;
	char comm[MACH_COMM_MAX];
	enum mach_task_state state;
	int umask;                /* -1: no fs_struct (the Umask: line is absent) */
	pid_t tracer_pid;
	uint32_t uid[4], gid[4];  /* real, effective, saved, fs */
	unsigned int ngroups;
	uint32_t *groups;
	unsigned int ns_levels;   /* NSpid etc.: ids from the reader's ns down */
	pid_t ns_tgid[MACH_NS_LEVELS_MAX], ns_pid[MACH_NS_LEVELS_MAX];
	pid_t ns_pgid[MACH_NS_LEVELS_MAX], ns_sid[MACH_NS_LEVELS_MAX];
	bool kthread;
	uint64_t sig_pending, sig_blocked; /* bit n-1 = signal n */
	uint64_t cap_inh, cap_prm, cap_eff, cap_bnd, cap_amb;
	bool no_new_privs;
	unsigned int seccomp_mode;
	unsigned int seccomp_filters;
	enum mach_spec_store_bypass ssb;
	enum mach_spec_indirect_branch sib;
	struct mach_bitmap cpus_allowed; /* nr_cpu_ids bits */
	struct mach_bitmap mems_allowed; /* MAX_NUMNODES bits */
	uint64_t nvcsw, nivcsw;
	unsigned int x86_features, x86_features_locked;
	/* stat fields of this thread (task/<tid>/stat) */
	unsigned int pf_flags;
	uint64_t minflt, majflt;
	uint64_t utime_ns, stime_ns; /* cputime_adjust-ed */
	int priority, nice;
	unsigned int rt_priority, policy;
	uint64_t start_time_ns;   /* since boot */
	uint64_t kstkesp, kstkeip;
	int processor;
	uint64_t delayacct_blkio_ticks;
	uint64_t guest_time_ns;
	bool wchan;               /* stat field 35: blocked in the kernel */
	int exit_code;            /* stat field 52 of task/<tid>/stat */
	/* its network namespace (nsproxy->net_ns): 1 + index into mach_machine.nets; 0: none (a zombie) */
	unsigned int netns;
};

/** One open file of a process (fs/proc/fd.c): /proc/<pid>/fd/<n> and fdinfo/<n>. */
struct mach_fd {
	int fd;
};

/** A process's file table (files_struct); its threads share it. */
struct mach_files {
	unsigned int max_fds;     /* the table's capacity: status FDSize */
	unsigned int nfds;
	struct mach_fd *fds;      /* ascending by fd */
};

/** One thread group (a process): what its threads share. */
struct mach_process {
	pid_t tgid;
	pid_t ppid;
	pid_t pgrp, session;
	int tty_nr;
	pid_t tpgid;
	pid_t ngid;
	unsigned int fdsize;
	struct mach_mm *mm;       /* NULL: kernel thread or zombie (no Vm lines) */
	struct mach_files *files; /* NULL: none known (a zombie's, or not loaded) */
	/* signal_struct / sighand */
	uint64_t sig_shared_pending, sig_ignored, sig_caught;
	uint64_t sigq_queued, sigq_limit;
	int exit_signal;
	int exit_code;            /* stat field 52 of /proc/<pid>/stat (group exit code) */
	uint64_t rsslim;          /* RLIMIT_RSS current */
	/* whole-process stat values (the kernel keeps these in signal_struct) */
	uint64_t group_utime_ns, group_stime_ns; /* thread_group_cputime_adjusted */
	uint64_t dead_minflt, dead_majflt;        /* of threads that exited */
	uint64_t dead_guest_time_ns;
	uint64_t cutime_ns, cstime_ns, cminflt, cmajflt, cguest_time_ns;
	bool stat_hidden;         /* source reader lacked ptrace access: masked stat fields */
	/*
	 * The mm is not dumpable (setuid exec, prctl(PR_SET_DUMPABLE, 0)): its
	 * /proc entries belong to root and only CAP_SYS_PTRACE may ptrace-read it.
	 */
	bool undumpable;
	/*
	 * The group's thread count (signal->nr_threads: Threads:, num_threads).
	 * The threads array holds them all in a complete model; a partial load
	 * (one task of a busy process) may hold fewer.
	 */
	unsigned int nr_threads;
	unsigned int nthreads;
	struct mach_thread *threads; /* threads[0] is the group leader (tid == tgid) */
};

/* ------------------------------------------------------------------ */
/* The kernel profile: optional lines of the source kernel             */

struct mach_profile {
	unsigned int kernel_major, kernel_minor;
	char kernel_release[64];  /* /proc/sys/kernel/osrelease */
	/* /proc/<pid>/status */
	bool status_umask, status_ngid, status_ns_lines, status_kthread;
	bool status_hugetlb, status_core_dumping, status_thp_enabled, status_untag_mask;
	bool status_seccomp, status_seccomp_filters, status_spec_ib, status_mems_allowed;
	bool status_x86_features;
	unsigned int sig_hex_digits; /* _NSIG / 4: 16 on x86 */
	/* /proc/schedstat (absent without CONFIG_SCHEDSTATS, as on the reference VM) */
	bool has_schedstat;
	unsigned int schedstat_version;
	/* /proc/meminfo and /proc/vmstat: which lines, in order */
	unsigned int nmeminfo;
	enum mach_meminfo_id meminfo_order[MACH_NR_MEMINFO];
	unsigned int nvmstat;
	enum mach_vmstat_id vmstat_order[MACH_NR_VMSTAT];
};

/* ------------------------------------------------------------------ */
/* The machine                                                         */

struct mach_machine {
	struct mach_profile profile;

	/* clock: everything time-based is relative to boot */
	uint64_t uptime_ns;       /* CLOCK_BOOTTIME now */
	uint64_t idle_ns;         /* sum of per-CPU idle (uptime's second field) */
	uint64_t btime;           /* boot time, seconds since the epoch */

	unsigned int nr_cpu_ids;  /* width of CPU masks */
	unsigned int max_numnodes;/* width of node masks */
	unsigned int ncpus;       /* possible CPUs */
	struct mach_cpu *cpus;

	unsigned int nr_irqs;
	unsigned int nirqs;       /* entries of irqs, ascending by irq */
	struct mach_irq *irqs;
	uint64_t intr_arch_extra; /* arch counts in the intr total but in no irq (NMI, LOC, ...) */
	uint64_t softirq[MACH_NR_SOFTIRQS];

	uint64_t ctxt;
	uint64_t processes;       /* forks since boot */
	unsigned int procs_running, procs_blocked;

	uint64_t meminfo[MACH_NR_MEMINFO]; /* kB, or a count for HugePages_* */
	uint64_t vmstat[MACH_NR_VMSTAT];

	unsigned long avenrun[3]; /* FSHIFT fixed point */
	unsigned int nr_running;  /* loadavg 4th field, numerator */
	unsigned int nr_threads;  /* loadavg 4th field, denominator */
	pid_t last_pid;

	uint64_t schedstat_timestamp; /* jiffies */

	/* the login shell a command run on this machine starts from (its parent in the tree); 0: init */
	pid_t login_pid;

	/* what the FUSE tree serves besides the renderers' files */
	pid_t pid_max;            /* /proc/sys/kernel/pid_max */
	uint64_t pidns_inode;     /* /proc/<pid>/ns/pid -> "pid:[INODE]" */
	char cpu_model[64];       /* /proc/cpuinfo "model name" */
	unsigned int cpu_khz;     /* /proc/cpuinfo "cpu MHz" * 1000 */

	struct mach_pressure pressure[MACH_NR_PSI_RES];

	size_t nprocs;            /* ascending by tgid */
	struct mach_process *procs;

	/* network namespaces (mach_net.h); threads name theirs by mach_thread.netns */
	unsigned int nnets;
	struct mach_net *nets;
};

/* ------------------------------------------------------------------ */
/* Names of enumerated values, as the kernel prints them                */

/** "R (running)" etc. */
const char *mach_task_state_name(enum mach_task_state s);
/** The state letter of stat field 3. */
char mach_task_state_letter(enum mach_task_state s);
/** The Speculation_Store_Bypass: text ("thread vulnerable", ...). */
const char *mach_ssb_name(enum mach_spec_store_bypass v);
/** The SpeculationIndirectBranch: text ("conditional enabled", ...). */
const char *mach_sib_name(enum mach_spec_indirect_branch v);
/** "SMT", "MC", "PKG", ... */
const char *mach_sd_level_name(enum mach_sd_level l);
/** "[heap]" etc. for the fixed-name kinds; NULL for FILE, ANON and the named kinds. */
const char *mach_vma_kind_name(enum mach_vma_kind k);

/* ------------------------------------------------------------------ */
/* Lifetimes and lookups                                               */

/** An empty machine with the Linux 6.18 x86_64 profile of the reference VM. */
struct mach_machine *mach_new(void);

/** Free a machine and everything it owns. */
void mach_free(struct mach_machine *m);

/** Set @profile to what Linux 6.18 on the reference VM prints. */
void mach_profile_default(struct mach_profile *profile);

/** Allocate a bitmap of @nbits bits, all clear; 0 or -ENOMEM. */
int mach_bitmap_alloc(struct mach_bitmap *b, unsigned int nbits);
/** Release a bitmap's words. */
void mach_bitmap_free(struct mach_bitmap *b);
/** Set bit @bit (ignored past nbits). */
void mach_bitmap_set(struct mach_bitmap *b, unsigned int bit);
/** Test bit @bit. */
bool mach_bitmap_test(const struct mach_bitmap *b, unsigned int bit);

/** The process with thread group id @tgid, or NULL. */
const struct mach_process *mach_find_process(const struct mach_machine *m, pid_t tgid);

/** The thread @tid of @p, or NULL. */
const struct mach_thread *mach_find_thread(const struct mach_process *p, pid_t tid);

/** The thread @tid anywhere on the machine (and its process in *@proc), or NULL. */
const struct mach_thread *mach_find_any_thread(const struct mach_machine *m, pid_t tid,
					       const struct mach_process **proc);

/** The network namespace of @t on @m, or NULL (none, or an index past nets). */
static inline const struct mach_net *mach_thread_net(const struct mach_machine *m, const struct mach_thread *t)
{
	return t && t->netns && t->netns <= m->nnets ? &m->nets[t->netns - 1] : NULL;
}

/** Free one process's threads, mm and strings (not the struct itself). */
void mach_process_clear(struct mach_process *p);

/** Free an mm and everything it owns. */
void mach_mm_free(struct mach_mm *mm);

/** Nanoseconds to clock ticks, as the kernel's nsec_to_clock_t (USER_HZ=100). */
static inline uint64_t mach_ns_to_ticks(uint64_t ns)
{
	return ns / MACH_NSEC_PER_TICK;
}

/* ------------------------------------------------------------------ */
/* Building a model                                                    */

/** Options of the synthetic generator (`--machine synth:...`). */
struct mach_synth_opts {
	unsigned int cpus;        /* default 8 */
	unsigned int tasks;       /* processes, default 200 */
	unsigned int threads;     /* extra threads spread over multi-threaded programs; default tasks/4 */
	uint64_t seed;            /* default 1 */
	unsigned int depth;       /* cgroup depth of the workload (simulator), default 2 */
	double load;              /* target CPU busy fraction (simulator), default 0.5 */
	double io, mem;           /* fractions of time tasks stall on io / memory, default 0.05 / 0.02 */
};

/** The defaults above. */
void mach_synth_defaults(struct mach_synth_opts *o);

/**
 * Parse "key=value,..." (the part after "synth:") into @o, starting from its
 * current values.  Unknown keys and bad values are errors: -EINVAL with a
 * message naming them in @err (size @errlen).
 */
int mach_synth_parse(struct mach_synth_opts *o, const char *spec, char *err, size_t errlen);

/** Build a deterministic, self-consistent synthetic machine. */
int mach_synth_build(const struct mach_synth_opts *o, struct mach_machine **out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_MACHINE_H */
