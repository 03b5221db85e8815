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

#include "uprocfs/mach_sysctl.h"
#include "uprocfs/mach_ns.h"
#include "uprocfs/mach_sys.h"
#include "uprocfs/mach_sysfs.h"
#include "uprocfs/mach_platform.h"
#include "uprocfs/mach_vm.h"
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
	/*
	 * The words are the machine's (mach_machine.shared_masks), which many
	 * threads' masks point at: "every CPU", "every node".  Read them; to
	 * write, mach_bitmap_own first.  mach_bitmap_free leaves them be.
	 */
	bool borrowed;
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

/*
 * Per-CPU scheduler statistics of /proc/schedstat versions 15 to 17.  The
 * idle types in the enum order of version 16 and later (busy first);
 * version 15 prints idle, busy, newly idle.
 */
enum mach_idle_type { MACH_IDLE_BUSY, MACH_IDLE_IDLE, MACH_IDLE_NEWLY, MACH_NR_IDLE_TYPES };

/*
 * Per idle type, in printed order of version 17, then the one counter
 * versions 15 and 16 print in place of the four imbalance kinds.
 */
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
	MACH_LB_IMBALANCE,        /* versions 15 and 16: lb_imbalance */
	MACH_NR_LB_STATS
};

/** The lb counters a schedstat version prints per idle type, in order; *@n set. */
const enum mach_lb_stat *mach_schedstat_lb_fields(unsigned int version, unsigned int *n);
/** The idle types in the order schedstat @version prints them. */
const enum mach_idle_type *mach_schedstat_idle_order(unsigned int version);

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
	enum mach_sd_level level; /* printed by version 17 only: a loaded version 15/16 leaves it 0 */
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
	/* irq_stat of this CPU: the arch rows of /proc/interrupts (ERR and MIS are the machine's) */
	uint32_t arch_irq[MACH_NR_ARCH_IRQS];
	uint32_t softirq[MACH_NR_SOFTIRQS]; /* kstat_softirqs_cpu: /proc/softirqs columns */
	struct mach_cpu_topo topo;  /* where it sits, its caches and clock (/sys, cpuinfo: mach_platform.h) */
};

/** What raises an irq, for the simulator to move its counts; loaded machines do not know. */
enum mach_irq_dev { MACH_IRQ_DEV_OTHER, MACH_IRQ_DEV_BLOCK, MACH_IRQ_DEV_NET };

/*
 * One interrupt descriptor that has counts or an action; all other irq
 * numbers below nr_irqs print 0.  Its count in /proc/stat is total plus the
 * sum of per_cpu, so /proc/stat and /proc/interrupts agree by construction.
 */
struct mach_irq {
	unsigned int irq;
	/*
	 * Counts not attributed to a CPU: what /proc/stat alone said of an
	 * irq whose per-CPU counts are not known.  0 once per_cpu holds them.
	 */
	uint64_t total;
	uint32_t *per_cpu;        /* kstat_irqs_cpu per possible CPU (index into cpus[]), or NULL */
	/*
	 * The descriptor as /proc/interrupts shows it; actions NULL: no
	 * handler, so 6.18 leaves the irq out of /proc/interrupts.
	 */
	char *chip;               /* irq_chip name: "IO-APIC", "PCI-MSIX-0000:00:01.0" */
	bool has_domain;          /* an irq domain: hwirq is printed */
	unsigned long hwirq;      /* the number in the domain: the IO-APIC pin, the MSI vector index */
	char *flow;               /* the flow handler's name ("edge", "fasteoi"), or NULL */
	char *actions;            /* the action names as printed, joined by ", " (shared irqs) */
	enum mach_irq_dev dev;    /* a disk or network queue's vector: moves with io and traffic */
};

/** An irq's count as /proc/stat prints it (kstat_irqs_usr): total plus its per-CPU counts. */
static inline uint64_t mach_irq_count(const struct mach_irq *irq, unsigned int ncpus)
{
	uint64_t n = irq->total;

	for (unsigned int c = 0; irq->per_cpu && c < ncpus; c++)
		n += irq->per_cpu[c];
	return n;
}

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

struct mach_vma {
	uint64_t start, end;
	uint64_t offset;          /* bytes (pgoff << PAGE_SHIFT) */
	uint32_t dev_major, dev_minor;
	uint64_t inode;
	uint64_t flags;           /* vm_flags: MACH_VM_* bits */
	enum mach_vma_kind kind;
	bool deleted;             /* FILE: the file was unlinked */
	bool thp_eligible;        /* smaps THPeligible: THPs may back it (thp_vma_allowable_orders) */
	uint32_t pagesize_kb;     /* KernelPageSize = MMUPageSize on x86: 4, or the hugetlb page's */
	char *name;               /* FILE: path; ANON_NAMED/ANON_SHMEM: the name; else NULL */
	struct mach_mss mss;      /* what smaps counts in it */
};

struct mach_mm;

/*
 * Makes what the model does not store: an mm's VMAs, a mount namespace's
 * table.  A synthetic machine's VMAs run to some 40 per process with their
 * smaps counters, most of its bytes, and a container's mount table to
 * some 3 KB; both are a pure function of the machine's seed and the
 * generator's plan, so the generator keeps what replays them (a few bytes
 * per process or table) and makes them when a reader asks (mach_mm_vmas,
 * mach_mnt_table_mounts).
 *
 * A maker is plain data with a kind; what makes things of that kind is
 * found in the calling process (mach_maker_register), never through a
 * pointer in the maker.  So a maker copied into a snapshot, which another
 * program maps (the preload transport), works there too: the programs that
 * link the generator register its kind.
 */
enum mach_maker_kind {
	MACH_MAKER_SYNTH = 1,  /* src/synth/maker.c */
	MACH_NR_MAKERS
};

struct mach_maker {
	enum mach_maker_kind kind;
};

struct mach_mnt_table;
struct mach_mount;
struct mach_files;

struct mach_maker_ops {
	/**
	 * Make @mm's mm->nvmas VMAs into *@out: one malloc'd block holding
	 * them and their names, which one free() frees.  0 or -errno.
	 */
	int (*make)(const struct mach_maker *mk, const struct mach_mm *mm, struct mach_vma **out);
	/**
	 * Make @t's t->n mounts into *@out: one malloc'd block holding them
	 * and their strings, which one free() frees.  0 or -errno.
	 */
	int (*make_mounts)(const struct mach_maker *mk, const struct mach_mnt_table *t, struct mach_mount **out);
	/**
	 * Make @f's f->nfds fds into *@out: a new table of its own (fds,
	 * fdinfo values and names), which mach_files_free frees.  0 or -errno.
	 */
	int (*make_files)(const struct mach_maker *mk, const struct mach_files *f, struct mach_files **out);
	/** Free the maker itself (mach_free calls it). */
	void (*release)(struct mach_maker *mk);
	/**
	 * A copy of @mk, all of it in memory from @take (@size bytes, 16-aligned,
	 * NULL when there is none), which owns it: never released.  NULL when
	 * @take ran out.
	 */
	struct mach_maker *(*copy)(const struct mach_maker *mk, void *(*take)(void *ctx, size_t size),
				   void *ctx);
};

/** What makes VMAs and mount tables of @kind in this process (a producer registers itself once, at load). */
void mach_maker_register(enum mach_maker_kind kind, const struct mach_maker_ops *ops);

/** The operations of @mk's kind in this process, or NULL when no producer here registered it. */
const struct mach_maker_ops *mach_maker_ops(const struct mach_maker *mk);

/** What the mm of a process holds (shared by its threads). */
struct mach_mm {
	/* status Vm* / Rss* lines, kB */
	uint64_t vm_peak, vm_size, vm_lck, vm_pin, vm_hwm, vm_rss;
	uint64_t rss_anon, rss_file, rss_shmem;
	uint64_t vm_data, vm_stk, vm_exe, vm_lib, vm_pte, vm_swap;
	uint64_t vm_pmd;          /* VmPMD: (4.0-4.14 kept PMD pages apart from VmPTE) */
	uint64_t hugetlb_pages;
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
	/*
	 * Ascending, the gate VMA last; NULL when @maker makes them on demand:
	 * read them with mach_mm_vmas(), never through this field.
	 */
	struct mach_vma *vmas;
	const struct mach_maker *maker; /* NULL: @vmas holds them */
	uint32_t maker_key;       /* which process's the maker replays (the generator's plan index) */
	/* the flags in the 4 bytes after maker_key */
	bool core_dumping;
	bool thp_enabled;
	bool exe_deleted;         /* of @exe */
	/* cmdline, environ and exe lie in the machine's interned strings: not to be freed */
	bool strings_interned;
	char *cmdline;            /* raw bytes, NULs included */
	size_t cmdline_len;
	char *environ;            /* raw bytes of the environment area (/proc/<pid>/environ) */
	size_t environ_len;
	char *exe;                /* mm->exe_file's path; NULL: the file mapping the code (older trees) */
	/*
	 * Which mm this is, unique in the process that built it (mach_mm_new;
	 * 0: none).  Its VMAs, command line, environment and exe never change
	 * once its machine is built, so snapshots copy them once and share
	 * them by this (machine/clone.h).  Code that changes them must give
	 * the mm a new serial.
	 */
	uint64_t serial;
};

/* ------------------------------------------------------------------ */
/* Open files, limits and the other per-process attributes of           */
/* fs/proc/base.c and fs/proc/fd.c                                      */

/*
 * What an fd's /proc/<pid>/fd/<n> link names (proc_fd_link's d_path, or
 * the d_dname of a pseudo filesystem).
 */
enum mach_fd_kind {
	MACH_FD_UNKNOWN,  /* listed in fd/, its target not known (the link could not be read) */
	MACH_FD_PATH,     /* a path: file, directory, device, "/memfd:NAME"; " (deleted)" when unlinked */
	MACH_FD_PIPE,     /* "pipe:[INO]": both ends of one pipe share the inode */
	MACH_FD_SOCKET,   /* "socket:[INO]" */
	MACH_FD_ANON,     /* "anon_inode:NAME": "[eventfd]", "inotify", "[pidfd]", ... */
	MACH_FD_PSEUDO,   /* "NAME:[INO]" of another pseudo filesystem: an nsfs namespace ("net") */
};

/* Which show_fdinfo the file's operations have: what follows the four fixed fdinfo lines. */
enum mach_fd_type {
	MACH_FDT_NONE,        /* regular files, pipes, inet sockets, nsfs, memfd: nothing */
	MACH_FDT_EVENTFD,
	MACH_FDT_EPOLL,
	MACH_FDT_INOTIFY,
	MACH_FDT_FANOTIFY,
	MACH_FDT_SIGNALFD,
	MACH_FDT_TIMERFD,
	MACH_FDT_PIDFD,
	MACH_FDT_UNIX,        /* an AF_UNIX socket: "scm_fds:" */
	MACH_FDT_USERFAULTFD,
	MACH_FDT_PTMX,        /* the master side of a pty (/dev/ptmx): "tty-index:" */
	MACH_FDT_FUSE,        /* /dev/fuse of a mounted connection: "fuse_connection:" */
	MACH_NR_FD_TYPES
};

/* f_flags bits the renderers and generators name (octal, as fdinfo prints them). */
#define MACH_O_ACCMODE   00000003u
#define MACH_O_WRONLY    00000001u
#define MACH_O_RDWR      00000002u
#define MACH_O_APPEND    00002000u
#define MACH_O_NONBLOCK  00004000u
#define MACH_O_LARGEFILE 00100000u
#define MACH_O_DIRECTORY 00200000u
#define MACH_O_NOFOLLOW  00400000u
#define MACH_O_CLOEXEC   02000000u  /* the fd's close-on-exec bit: fdinfo adds it to f_flags */
#define MACH_O_PATH      010000000u

/* One epoll registration (fs/eventpoll.c ep_show_fdinfo): a "tfd:" line. */
struct mach_epoll_item {
	int tfd;                  /* the watched fd number */
	uint32_t events;          /* EPOLLIN ... EPOLLET, as registered */
	uint64_t data;            /* the user's epoll_data */
	int64_t pos;              /* the watched file's f_pos */
	uint64_t ino;             /* its inode */
	uint32_t sdev;            /* its superblock's dev_t (kernel encoding, printed hex) */
};

/* Where an fsnotify mark is attached. */
enum mach_mark_obj { MACH_MARK_INODE, MACH_MARK_MOUNT, MACH_MARK_SB };

#define MACH_FHANDLE_MAX 128      /* MAX_HANDLE_SZ */

/* One inotify watch or fanotify mark (fs/notify/fdinfo.c). */
struct mach_fsnotify_mark {
	enum mach_mark_obj obj;   /* inotify: always an inode */
	int wd;                   /* inotify: the watch descriptor */
	uint64_t ino;             /* MACH_MARK_INODE */
	uint32_t sdev;            /* MACH_MARK_INODE, MACH_MARK_SB: the superblock's dev_t */
	int mnt_id;               /* MACH_MARK_MOUNT */
	uint32_t mflags;          /* fanotify */
	uint32_t mask, ignored_mask;
	bool has_fhandle;         /* the file system encoded a handle (exportfs) */
	int fh_type;
	unsigned int fh_bytes;
	uint8_t fh[MACH_FHANDLE_MAX];
};

/*
 * What an fd's show_fdinfo prints after the four fixed lines, by type.  Few
 * fds have such lines (an event loop's eventfd and epoll, a pidfd...), so
 * they live apart from struct mach_fd: 76 of a table's bytes per fd were
 * these, for every fd.
 */
struct mach_fd_info {
	union {
		struct { uint64_t count; int id; bool semaphore; } eventfd;
		struct { uint64_t sigmask; } signalfd;   /* the signals it accepts (bit n-1 = signal n) */
		struct {
			int clockid;
			uint64_t ticks;
			unsigned int settime_flags;
			uint64_t value_sec, value_nsec;    /* time left until it fires */
			uint64_t interval_sec, interval_nsec;
		} timerfd;
		struct {
			unsigned int levels;               /* 1 + the levels below the reader's pid namespace */
			pid_t nspid[MACH_NS_LEVELS_MAX];   /* [0] is Pid:; -1 reaped, 0 not visible */
		} pidfd;
		struct { unsigned int scm_fds; } unix_sock;  /* fds in flight in its queue */
		struct { uint64_t pending, total, api, ioctls; uint32_t features; } uffd;
		struct { int index; } ptmx;                   /* the pts number of the pair */
		struct { unsigned int connection; } fuse;     /* the connection's device number */
		struct { uint32_t flags, event_flags; } fanotify;
	} u;
	/* EPOLL: registrations; INOTIFY, FANOTIFY: marks (in the order the kernel lists them) */
	struct mach_epoll_item *epoll;
	struct mach_fsnotify_mark *marks;
	unsigned int nitems;
	unsigned int nlocks;
	/* the locks held through this fd: level 0 of /proc/locks, fd this fd (mach_sys.h) */
	struct mach_file_lock *locks;
};

/** One open file of a process (fs/proc/fd.c): /proc/<pid>/fd/<n> and fdinfo/<n>. */
/*
 * Interned strings: what many objects of a machine hold the same of (fd
 * paths, cwds, environments, command lines), kept once.  A synthetic
 * machine of 100,000 processes has 731,000 fd names but 5,700 distinct
 * ones, and a third as many distinct environments as processes.  An
 * object whose strings lie here says so (its *interned flag) and never
 * frees them; whoever changes such a field puts a malloc'd copy there and
 * clears the flag.  The machine frees the blocks.
 */
struct mach_str_block {
	struct mach_str_block *next;
	size_t used, cap;         /* bytes of @bytes in use, and there */
	char bytes[];
};

struct mach_fd {
	int fd;
	unsigned int flags;       /* f_flags: O_ACCMODE decides the link's mode (r-x, -wx, rwx, ---) */
	int mnt_id;               /* the mount the file is on (mountinfo's ids; internal mounts too) */
	/* the small fields packed into the 4 bytes before @pos: a million tasks hold some 10 million fds */
	uint8_t sock_family;      /* SOCKET: AF_UNIX, AF_INET, AF_INET6, AF_NETLINK; 0 unknown (loaded, not unix) */
	enum mach_fd_kind kind : 8;
	enum mach_fd_type type : 8;
	unsigned int sock_type : 4; /* SOCKET: SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET (at most SOCK_PACKET, 10); 0 unknown */
	bool info_known : 1;      /* its fdinfo was read (a loaded model) or made (synthetic) */
	bool deleted : 1;         /* MACH_FD_PATH: unlinked */
	bool cloexec : 1;         /* the close-on-exec bit of the fd table */
	bool name_interned : 1;   /* @name lies in the machine's interned strings: not to be freed */
	int64_t pos;              /* f_pos */
	uint64_t ino;             /* its inode: for pipes, sockets and nsfs also the link's [INO] */
	char *name;               /* PATH: the path; ANON, PSEUDO: the name before ":" or after "anon_inode:" */
	/*
	 * What the file's show_fdinfo prints beyond the fixed lines, and the
	 * locks held through it: NULL for none (mach_fd_info).
	 */
	struct mach_fd_info *info;
};

/*
 * A process's file table (files_struct); its threads share it.  Every
 * socket of the machine is an fd of kind MACH_FD_SOCKET in some process's
 * table, with its inode number: walking every table's fds (mach_files_fds) enumerates
 * them all (a socket inherited by several processes, as a listening socket
 * of a master and its workers, appears once per holder with one inode).
 */
struct mach_files {
	unsigned int max_fds;     /* the table's capacity: status FDSize (64, then 128 << k) */
	unsigned int nfds;
	/*
	 * Ascending by fd; every fd below max_fds.  NULL when @maker makes
	 * them on demand: read them through mach_files_fds.
	 */
	struct mach_fd *fds;
	const struct mach_maker *maker; /* NULL: @fds holds them */
	uint32_t maker_key;       /* which process's table the maker replays (the generator's plan index) */
	/*
	 * Which table this is (mach_files_new; 0: none), from the counter of
	 * struct mach_mm's serial.  Its fds never change once the machine is
	 * built, so snapshots share them by this (machine/clone.h), and made
	 * ones are kept per reader by it.
	 */
	uint64_t serial;
};

/* The resource limits of proc_pid_limits, in struct rlimit order. */
enum mach_rlimit_id {
	MACH_RLIMIT_CPU, MACH_RLIMIT_FSIZE, MACH_RLIMIT_DATA, MACH_RLIMIT_STACK, MACH_RLIMIT_CORE,
	MACH_RLIMIT_RSS, MACH_RLIMIT_NPROC, MACH_RLIMIT_NOFILE, MACH_RLIMIT_MEMLOCK, MACH_RLIMIT_AS,
	MACH_RLIMIT_LOCKS, MACH_RLIMIT_SIGPENDING, MACH_RLIMIT_MSGQUEUE, MACH_RLIMIT_NICE,
	MACH_RLIMIT_RTPRIO, MACH_RLIMIT_RTTIME, MACH_RLIM_NLIMITS
};

#define MACH_RLIM_INFINITY UINT64_MAX   /* printed "unlimited" */

struct mach_rlimit {
	uint64_t cur, max;        /* raw rlim values: bytes, seconds, microseconds, counts */
};

/* Task I/O accounting (struct task_io_accounting): /proc/<pid>/io. */
struct mach_taskio {
	uint64_t rchar, wchar;    /* bytes passed to read and write family calls */
	uint64_t syscr, syscw;    /* how many such calls */
	uint64_t read_bytes, write_bytes, cancelled_write_bytes; /* storage layer, whole pages */
};

/* A task's fs_struct: what cwd and root resolve to. */
struct mach_fs {
	char *cwd, *root;         /* paths as the reader's root sees them */
	bool cwd_deleted, root_deleted;
	bool interned;            /* cwd and root lie in the machine's interned strings: not to be freed */
};

/*
 * Files a loaded machine has no text for (issue 14: partial and torn
 * captures): a capture without vmstat, a process whose stat was torn away
 * from its status.  Bit k stands for the file kind the loader numbers k
 * (enum mach_ld_kind in load.h; the model only keeps the bits).  Such a
 * file does not exist on the machine (ENOENT), rather than printing values
 * the machine never had.  Empty (0) for synthetic machines and for
 * whatever a load read.
 */
__extension__ typedef unsigned __int128 mach_file_set;

/*
 * Where tasks wait in the kernel.  Kernel functions and whole stacks are
 * kept once per machine (mach_machine.ksyms, .kstacks) and tasks refer to
 * them by index: thousands of threads sleep in the same few places.
 */

/** A kernel function as %pB prints it: NAME+OFFSET/SIZE, and " [MODULE]" for a module's. */
struct mach_ksym {
	char *name;               /* "do_epoll_wait", "poll_schedule_timeout.constprop.0" */
	uint32_t size;            /* the function's length in bytes */
	char *module;             /* NULL: built into the kernel */
};

/** One return address of a kernel stack: inside ksyms[sym], @off bytes in. */
struct mach_kframe {
	uint32_t sym;
	uint32_t off;
};

/** A stack as stack_trace_save_tsk() keeps it (scheduler functions skipped), innermost first. */
struct mach_kstack {
	unsigned int nframes;
	struct mach_kframe *frames;
};

/** What task_current_syscall() finds a task blocked in (/proc/<pid>/syscall). */
struct mach_syscall {
	int32_t nr;               /* the syscall number; -1: in none (only sp and pc print) */
	uint64_t args[6];         /* the argument registers, as saved at entry */
	uint64_t sp, pc;          /* user stack pointer and instruction pointer */
};

/*
 * A thread's credentials and the security state beside them (the kernel's
 * struct cred, and the task's seccomp, speculation, audit and personality
 * bits).  Threads share them as the kernel's tasks share a cred: a
 * synthetic machine's 1,250,000 threads at a million tasks have a few
 * thousand distinct ones, interned.  Read them with mach_thread_cred(),
 * change them through mach_thread_cred_mut().
 */
struct mach_cred {
	uint32_t uid[4], gid[4];  /* real, effective, saved, fs */
	unsigned int ngroups;
	uint32_t *groups;         /* supplementary groups; owned by the cred (interned with it) */
	uint64_t cap_inh, cap_prm, cap_eff, cap_bnd, cap_amb;
	bool no_new_privs;
	unsigned int seccomp_mode;
	unsigned int seccomp_filters;
	enum mach_spec_store_bypass ssb;
	enum mach_spec_indirect_branch sib;
	uint32_t loginuid;        /* audit login uid; 4294967295 when unset */
	uint32_t sessionid;       /* audit session; 4294967295 when unset */
	uint32_t personality;     /* ADDR_NO_RANDOMIZE 0x0040000, PER_LINUX32 8, ... */
	unsigned int x86_features, x86_features_locked;
};

/*
 * What few threads hold other than zero: a loaded thread's missing files,
 * a tracer, stack registers (which a kernel shows only of a task dumping
 * core), the wchan address of kernels before 4.4, an I/O priority someone
 * set.  A thread holds them only when one is not zero (most threads: a
 * NULL pointer, where they took 64 bytes in every thread of a million-task
 * machine).  Read them with mach_thread_rare(), set them with
 * mach_thread_rare_set().
 */
struct mach_thread_rare {
	mach_file_set lacks;      /* task/<tid>/X files this thread has no text for */
	uint64_t kstkesp, kstkeip;
	uint64_t wchan_addr;      /* field 35 before 4.4 (profile.stat_wchan_addr): where it blocks */
	uint64_t delayacct_blkio_ticks;
	uint64_t guest_time_ns;
	pid_t tracer_pid;
	int ioprio;               /* ioprio_get: class << 13 | level; 0 when never set */
};

/** One thread (a task in kernel terms). */
struct mach_thread {
	pid_t tid;
	enum mach_task_state state;
	/*
	 * Its name, at most MACH_COMM_MAX - 1 bytes: NULL for none.  Read it
	 * with mach_thread_comm(), set it with mach_thread_set_comm() (or point
	 * it at interned bytes that outlive the machine's threads, as a
	 * synthetic machine does: most of a million threads share a few dozen
	 * names, and an inline 64-byte array was an eighth of a thread).
	 */
	const char *comm;
	/*
	 * Its credentials and security bits: NULL for none set (all zero, as
	 * a zeroed thread had).  Read through mach_thread_cred().
	 */
	struct mach_cred *cred;
	uint8_t ns_levels;        /* NSpid etc.: ids from the reader's ns down (at most MACH_NS_LEVELS_MAX) */
	bool kthread;
	bool cred_interned;       /* @cred lies in the machine's interned strings: shared, not to be freed */
	bool comm_owned;          /* @comm is the thread's own allocation (mach_thread_set_comm) */
	/* its network namespace (nsproxy->net_ns): 1 + index into mach_machine.nets; 0: none (a zombie) */
	unsigned int netns;
	/*
	 * NStgid's, NSpid's, NSpgid's and NSsid's ids, ns_levels of each, one
	 * list after the other: read them with mach_thread_ns_ids(), set them
	 * with mach_thread_ns_set().  One level (most tasks) lies in @one,
	 * more in an allocation @many points to: 16 bytes in the thread
	 * rather than a pointer and a heap chunk of 32, not four lists of
	 * MACH_NS_LEVELS_MAX in every thread.
	 */
	union {
		pid_t one[4];
		pid_t *many;
	} ns_ids;
	uint64_t sig_pending, sig_blocked; /* bit n-1 = signal n */
	struct mach_bitmap cpus_allowed; /* nr_cpu_ids bits */
	struct mach_bitmap mems_allowed; /* MAX_NUMNODES bits */
	uint64_t nvcsw, nivcsw;
	/* stat fields of this thread (task/<tid>/stat) */
	uint64_t minflt, majflt;
	uint64_t utime_ns, stime_ns; /* cputime_adjust-ed */
	unsigned int pf_flags;
	int priority, nice;
	unsigned int rt_priority, policy;
	int processor;
	uint64_t start_time_ns;   /* since boot */
	/*
	 * Where it waits: get_wchan()'s function (0: none, "0" in wchan; a
	 * running task has none), its kernel stack (0: empty) and the syscall
	 * it is in.  stat field 35 follows from the state alone.
	 */
	uint32_t wchan_sym;       /* index into mach_machine.ksyms */
	uint32_t kstack;          /* index into mach_machine.kstacks */
	struct mach_syscall syscall;
	/* sched_info (schedstat): time on a CPU, time waiting on a runqueue, timeslices */
	uint64_t sum_exec_runtime_ns; /* se.sum_exec_runtime: utime_ns + stime_ns up to cputime_adjust */
	uint64_t run_delay_ns;
	uint64_t pcount;
	/* the processes it forked (task/<tid>/children): their tgids in its children list's order */
	pid_t *children;
	unsigned int nchildren;
	int exit_code;            /* stat field 52 of task/<tid>/stat */
	/* namespaces and control groups (mach_ns.h): indices into the machine's tables */
	uint32_t nsset;           /* mach->nssets: its namespaces and mount table */
	uint32_t css_set;         /* mach->css_sets: its control groups */
	/*
	 * Where cgroup.procs and cgroup.threads of its v2 group list it: by
	 * this, then by tid (the kernel's order is its css_set's, then when it
	 * joined it; 0 for all gives tid order, a fork-order machine's).
	 */
	uint32_t cg_pos;
	int umask;                /* -1: no fs_struct (the Umask: line is absent) */
	/* fs/proc/base.c files of the task itself */
	struct mach_taskio io;    /* this thread's own I/O (task/<tid>/io) */
	struct mach_fs *fs;       /* its own fs_struct when it unshared one; NULL: the process's */
	uint64_t timer_slack_ns;  /* 50000 by default, 0 for RT tasks */
	struct mach_thread_rare *rare; /* NULL: all zero (mach_thread_rare) */
};

/** One thread group (a process): what its threads share. */
struct mach_process {
	pid_t tgid;
	pid_t ppid;
	pid_t pgrp, session;
	int tty_nr;
	pid_t tpgid;
	pid_t ngid;
	unsigned int nthreads;    /* how many @threads holds (nr_threads below is what the kernel counts) */
	struct mach_mm *mm;       /* NULL: kernel thread or zombie (no Vm lines) */
	/* NULL: no files_struct (a zombie: FDSize 0, fd/ empty); kernel threads have init's */
	struct mach_files *files;
	/* signal_struct / sighand */
	uint64_t sig_shared_pending, sig_ignored, sig_caught;
	uint64_t sigq_queued;     /* SigQ: queued; its limit is rlim[MACH_RLIMIT_SIGPENDING].cur */
	int exit_signal;
	int exit_code;            /* stat field 52 of /proc/<pid>/stat (group exit code) */
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
	bool rlim_interned;       /* @rlim lies in the machine's interned strings: not to be freed */
	/*
	 * The OOM killer passes it by (MMF_OOM_SKIP, or a vfork child not yet
	 * exec'd): oom_score 0 whatever it holds.
	 */
	bool oom_skip;
	/*
	 * The group's thread count (signal->nr_threads: Threads:, num_threads).
	 * The threads array holds them all in a complete model; a partial load
	 * (one task of a busy process) may hold fewer.
	 */
	unsigned int nr_threads;
	struct mach_thread *threads; /* threads[0] is the group leader (tid == tgid) */
	/* fs/proc/base.c files of the thread group */
	struct mach_fs *fs;       /* the group's fs_struct (cwd, root); NULL: none (a zombie) */
	/*
	 * Limits, MACH_RLIM_NLIMITS of them (stat's rsslim is RSS's cur): read
	 * them with mach_process_rlim(), change them through
	 * mach_process_rlim_mut().  NULL: none known (all zero).  A synthetic
	 * machine's processes share a few dozen interned sets.
	 */
	struct mach_rlimit *rlim;
	/*
	 * What exited threads did (/proc/<pid>/io adds the live ones): NULL
	 * for nothing, as for most processes; owned by the process.
	 */
	struct mach_taskio *dead_io;
	int oom_score_adj;        /* -1000..1000; oom_adj and oom_score derive from it */
	int autogroup_nice;
	uint64_t autogroup_id;    /* /autogroup-ID; 0: the root autogroup (an empty file) */
	mach_file_set lacks;      /* /proc/<pid>/X files the process has no text for */
};

/* ------------------------------------------------------------------ */
/* The kernel profile: optional lines of the source kernel             */

/* Keys outside the vocabulary a profile holds, per file. */
#define MACH_MAX_EXTRA_KEYS 64

/*
 * A line of /proc/meminfo or /proc/vmstat whose name is not in the
 * vocabulary (mach_vocab.h): a counter of an older kernel (nr_bounce,
 * allocstall, workingset_refault), a distribution's backport, a key of a
 * newer kernel.  Kept by name and printed where the file listed it; its
 * value is the machine's (meminfo_extra[], vmstat_extra[]).
 */
struct mach_extra_key {
	char name[48];            /* vmstat: the name; meminfo: the label through its ':' */
	unsigned char col;        /* meminfo: the column the digits end at (label, padding, digits) */
	bool kb;                  /* meminfo: " kB" follows the value */
	bool is_signed;           /* an s64 (printed with '-' when negative), else a u64 */
};

struct mach_profile {
	unsigned int kernel_major, kernel_minor;
	char kernel_release[64];  /* /proc/sys/kernel/osrelease */
	/* /proc/<pid>/status */
	bool status_umask, status_ngid, status_ns_lines, status_kthread;
	bool status_hugetlb, status_core_dumping, status_thp_enabled, status_untag_mask;
	bool status_seccomp, status_seccomp_filters, status_spec_ib, status_mems_allowed;
	bool status_x86_features;
	/* lines of older kernels: VmPin (3.2), Rss* and HugetlbPages (4.5), VmPMD (4.0-4.14 only) */
	bool status_vmpin, status_rss, status_vmpmd;
	bool status_capamb, status_nnp, status_ssb; /* CapAmb (4.3), NoNewPrivs (4.10), Speculation_ (4.17) */
	bool status_groups_space;  /* an empty Groups: list prints "\t " (4.10+), not "\t" */
	unsigned int sig_hex_digits; /* _NSIG / 4: 16 on x86 */
	/* /proc/<pid>/stat: start_data..start_brk (3.3), arg_start..exit_code (3.5) */
	bool stat_brk_fields, stat_arg_fields;
	bool stat_wchan_addr;     /* field 35 is the wchan address (before 4.4), not a 0/1 flag */
	/* /proc/stat: the cpu lines' columns (7 to 10: steal 2.6.11, guest 2.6.24, guest_nice 2.6.33) */
	unsigned int stat_cpu_columns;
	bool stat_softirq;        /* the softirq line (2.6.31) */
	/* /proc/schedstat (absent without CONFIG_SCHEDSTATS, as on the reference VM) */
	bool has_schedstat;
	unsigned int schedstat_version;
	/* /proc/interrupts: the arch rows this kernel prints (bit per enum mach_arch_irq) */
	uint32_t arch_irq_rows;
	/*
	 * /proc/meminfo and /proc/vmstat: which lines, in order.  An entry
	 * below MACH_NR_MEMINFO (MACH_NR_VMSTAT) is a vocabulary id; one at or
	 * above it is the key meminfo_extra[entry - MACH_NR_MEMINFO] (vmstat_extra).
	 */
	unsigned int nmeminfo;
	uint16_t meminfo_order[MACH_NR_MEMINFO + MACH_MAX_EXTRA_KEYS];
	unsigned int nmeminfo_extra;
	struct mach_extra_key meminfo_extra[MACH_MAX_EXTRA_KEYS];
	unsigned int nvmstat;
	uint16_t vmstat_order[MACH_NR_VMSTAT + MACH_MAX_EXTRA_KEYS];
	unsigned int nvmstat_extra;
	struct mach_extra_key vmstat_extra[MACH_MAX_EXTRA_KEYS];
	/* zoneinfo's lists, HZ (mach_sys.h) */
	struct mach_sys_profile sys;
	/* /proc/<pid>/smaps and smaps_rollup (mach_vm.h) */
	struct mach_smaps_profile smaps;
};

/* ------------------------------------------------------------------ */
/* The machine                                                         */

/** A user or group of the machine: its id and name (and a user's primary group). */
struct mach_account {
	uint32_t id;
	uint32_t gid;             /* users: the primary group; groups: unused */
	char name[32];
};

/** The names a machine gives its ids, so tools show "postgres" where /proc says 106. */
struct mach_accounts {
	size_t nusers, ngroups;
	struct mach_account *users, *groups;
};

/** The account named for @id in @list of @n (ascending), or NULL. */
const struct mach_account *mach_account_find(const struct mach_account *list, size_t n, uint32_t id);

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
	/*
	 * Which rings of cpus[].topo are set (mach_topo_link): bit k for
	 * enum mach_topo_mask k, bit 4 + n for cache leaf n; good while
	 * ncpus is topo_linked_ncpus.
	 */
	uint32_t topo_linked;
	unsigned int topo_linked_ncpus;

	unsigned int nr_irqs;
	unsigned int nirqs;       /* entries of irqs, ascending by irq */
	struct mach_irq *irqs;
	/*
	 * Per-CPU counts of every irq and arch row are known (cpus[].arch_irq,
	 * irqs[].per_cpu): /proc/interrupts exists.  A machine loaded from
	 * /proc/stat alone knows totals only.
	 */
	bool irq_detail;
	uint32_t irq_err, irq_mis; /* the ERR and MIS rows: irq_err_count, irq_mis_count */
	/*
	 * Arch counts in the intr total that no row holds: what /proc/stat alone
	 * said beyond the per-irq counts.  0 when irq_detail (the rows hold them).
	 */
	uint64_t intr_arch_extra;
	/* softirqs not attributed to a CPU (/proc/stat alone); 0 when softirq_detail */
	uint64_t softirq[MACH_NR_SOFTIRQS];
	bool softirq_detail;      /* cpus[].softirq hold every count: /proc/softirqs exists */

	uint64_t ctxt;
	uint64_t processes;       /* forks since boot */
	unsigned int procs_running, procs_blocked;

	uint64_t meminfo[MACH_NR_MEMINFO]; /* kB, or a count for HugePages_* */
	uint64_t vmstat[MACH_NR_VMSTAT];
	/* the values of the profile's extra keys (an s64 one as two's complement) */
	uint64_t meminfo_extra[MACH_MAX_EXTRA_KEYS];
	uint64_t vmstat_extra[MACH_MAX_EXTRA_KEYS];

	unsigned long avenrun[3]; /* FSHIFT fixed point */
	unsigned int nr_running;  /* loadavg 4th field, numerator */
	unsigned int nr_threads;  /* loadavg 4th field, denominator */
	pid_t last_pid;

	uint64_t schedstat_timestamp; /* jiffies */

	char hostname[65];        /* uname's nodename, kernel/hostname */
	/* the login shell a command run on this machine starts from (its parent in the tree); 0: init */
	pid_t login_pid;

	/* what the FUSE tree serves besides the renderers' files */
	pid_t pid_max;            /* /proc/sys/kernel/pid_max */
	char cpu_model[64];       /* /proc/cpuinfo "model name" */
	unsigned int cpu_khz;     /* /proc/cpuinfo "cpu MHz" * 1000 */

	struct mach_pressure pressure[MACH_NR_PSI_RES];

	/* /proc/sys (mach_sysctl.h); an empty machine has the kernel's identity keys */
	struct mach_sysctl *sysctl;

	size_t nprocs;            /* ascending by tgid */
	struct mach_process *procs;
	/* makes the VMAs and mount tables the model does not store (NULL: it stores all); freed with the machine */
	struct mach_maker *maker;
	/* the words of masks threads borrow (struct mach_bitmap's borrowed); freed with the machine */
	uint64_t *shared_masks;
	/* the blocks interned strings lie in (struct mach_str_block); freed with the machine */
	struct mach_str_block *interned;

	/* namespaces, control groups and mount tables the threads index (mach_ns.h) */
	size_t nnssets;
	struct mach_nsset *nssets;
	size_t ncg_roots;         /* the hierarchies /proc/<pid>/cgroup lists, in its order */
	struct mach_cg_root *cg_roots;
	size_t ncgroups;          /* every group of every hierarchy, parents before children */
	struct mach_cgroup *cgroups;
	size_t ncss_sets;
	struct mach_css_set *css_sets;
	size_t nmnt_tables;
	struct mach_mnt_table *mnt_tables;
	/* block devices, swaps, zones, slabs, identity, registries, locks (mach_sys.h) */
	struct mach_sys sys;
	/* what /sys shows beyond /proc: elevators, cgroup options (mach_sysfs.h) */
	struct mach_sysfs sysfs;
	/* what /sys adds: CPU topology, caches, cpufreq, nodes, sensors, THP (mach_platform.h) */
	struct mach_platform platform;
	mach_file_set lacks;      /* machine-wide files the machine has no text for */
	/* kernel functions and stacks tasks wait in; entry 0 of each is "none" */
	size_t nksyms;
	struct mach_ksym *ksyms;
	size_t nkstacks;
	struct mach_kstack *kstacks;
	/* network namespaces (mach_net.h); threads name theirs by mach_thread.netns */
	unsigned int nnets;
	struct mach_net *nets;
	/*
	 * The machine's own accounts (its /etc/passwd and /etc/group), ascending
	 * by id; none for a machine whose accounts are the host's (live).
	 */
	struct mach_accounts accounts;
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
/**
 * The VmFlags mnemonic of vm_flags bit @bit ("rd", "wr", ...); "" for the
 * bits VmFlags does not print (the protection key); NULL for bits the kernel
 * prints as "??".
 */
const char *mach_vm_flag_name(unsigned int bit);

/** "Max open files" etc.: a limit's row in /proc/<pid>/limits. */
const char *mach_rlimit_name(enum mach_rlimit_id id);
/** A limit's unit ("bytes", "us"), or NULL for the two without one. */
const char *mach_rlimit_unit(enum mach_rlimit_id id);
/** The name an anon inode file of @type has ("[eventfd]", "inotify"), or NULL. */
const char *mach_anon_fd_name(enum mach_fd_type type);
/** The type of an anon inode file by its name; MACH_FDT_NONE for names with no fdinfo lines of theirs. */
enum mach_fd_type mach_anon_fd_type(const char *name);

/* ------------------------------------------------------------------ */
/* Values the kernel derives when a file is read                       */

/**
 * /proc/<pid>/oom_score: oom_badness from the mm's rss, swap and page
 * tables and oom_score_adj, against RAM plus swap (meminfo), scaled to
 * 0..2000 as proc_oom_score does.
 */
unsigned long long mach_oom_score(const struct mach_machine *m, const struct mach_process *p);
/** /proc/<pid>/oom_adj as oom_adj_read derives it from oom_score_adj (-17..15). */
int mach_oom_adj(int oom_score_adj);
/** /proc/<pid>/io of the group: the exited threads' counters plus every live thread's. */
void mach_process_io(const struct mach_process *p, struct mach_taskio *acct);

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
/** Give @b words of its own to write, a copy of the borrowed ones: 0 or -ENOMEM. */
int mach_bitmap_own(struct mach_bitmap *b);
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

/** Free what an irq descriptor owns (its per-CPU counts and names), keeping its number. */
void mach_irq_clear(struct mach_irq *irq);

/** Free an mm and everything it owns. */
void mach_mm_free(struct mach_mm *mm);
/** A new, empty mm with a serial of its own (struct mach_mm), or NULL. */
struct mach_mm *mach_mm_new(void);
/** A new, empty fd table with a serial of its own (struct mach_files), or NULL. */
struct mach_files *mach_files_new(void);

/** Free what one thread owns (groups, masks), not the struct itself. */
void mach_thread_clear(struct mach_thread *t);
/* ------------------------------------------------------------------ */
/* Namespaces, control groups, mounts (mach_ns.h)                      */

/** The namespace type's name in a link ("net", and "pid" for pid_for_children). */
const char *mach_ns_type_name(enum mach_ns_type t);
/** Its entry's name under /proc/<pid>/ns/ ("pid_for_children"). */
const char *mach_ns_entry_name(enum mach_ns_type t);
/** A controller's name: its v1 legacy name ("blkio") or its v2 one ("io"). */
const char *mach_cg_ss_name(enum mach_cg_ss ss, bool legacy);

/** @t's namespaces, or NULL when the model does not know them. */
const struct mach_nsset *mach_thread_nsset(const struct mach_machine *m, const struct mach_thread *t);
/** @t's mount table, or NULL when it has none (a zombie) or the model does not know it. */
const struct mach_mnt_table *mach_thread_mounts(const struct mach_machine *m, const struct mach_thread *t);
/** @t's control groups, or NULL when the model does not know them. */
const struct mach_css_set *mach_thread_css_set(const struct mach_machine *m, const struct mach_thread *t);
/** Whether @t still has its nsproxy: a zombie or dead task has dropped it. */
bool mach_thread_has_nsproxy(const struct mach_thread *t);
/** The index of the v2 hierarchy in m->cg_roots, or MACH_NONE. */
uint32_t mach_cg_dfl_root(const struct mach_machine *m);
/** How deep group @cg is below its hierarchy's root (the root: 0). */
unsigned int mach_cgroup_level(const struct mach_machine *m, uint32_t cg);

/** Free what a mount table owns (not the struct). */
void mach_mnt_table_clear(struct mach_mnt_table *t);
/** Free what one mount owns (not the struct). */
void mach_mount_clear(struct mach_mount *mnt);

/* ------------------------------------------------------------------ */
/* Open files (fs/proc/fd.c)                                           */

/** Free what one open file owns (its name, locks, its fdinfo lines' values), not the struct. */
void mach_fd_clear(struct mach_fd *f);

/** What @f's fdinfo prints after the fixed lines: its own, or all zero when it has none. */
const struct mach_fd_info *mach_fd_info(const struct mach_fd *f);

/** @f's fdinfo values to fill in, made (zeroed) on first use: NULL when there is no memory. */
struct mach_fd_info *mach_fd_info_mut(struct mach_fd *f);

/** Append a copy of @l to the locks held through @f (its fdinfo's lock: lines).  0 or -ENOMEM. */
int mach_fd_add_lock(struct mach_fd *f, const struct mach_file_lock *l);

/** Which of a thread's per-namespace id lists (struct mach_thread.ns_ids). */
enum mach_ns_id { MACH_NSID_TGID, MACH_NSID_PID, MACH_NSID_PGID, MACH_NSID_SID, MACH_NR_NSIDS };

/** @t's @which ids, t->ns_levels of them from the reader's namespace down; NULL when it has none. */
static inline const pid_t *mach_thread_ns_ids(const struct mach_thread *t, enum mach_ns_id which)
{
	if (!t->ns_levels)
		return NULL;
	return t->ns_levels == 1 ? &t->ns_ids.one[which] : t->ns_ids.many + (size_t)which * t->ns_levels;
}

/**
 * Set @t's ids in @levels pid namespaces (at most MACH_NS_LEVELS_MAX; 0
 * drops them): @ids[which][level].  0, -EINVAL, or -ENOMEM.
 */
int mach_thread_ns_set(struct mach_thread *t, unsigned int levels, const pid_t ids[MACH_NR_NSIDS][MACH_NS_LEVELS_MAX]);

/** @t's name: "" when it has none. */
static inline const char *mach_thread_comm(const struct mach_thread *t)
{
	return t->comm ? t->comm : "";
}

/**
 * Give @t its own copy of the name @name[0..@len) (shorter than
 * MACH_COMM_MAX), or no name when @name is NULL: 0, -EINVAL when too long
 * (the name it had is kept), or -ENOMEM.
 */
int mach_thread_set_comm(struct mach_thread *t, const char *name, size_t len);

/** @t's credentials and security bits: its own or shared ones, or all zero when it has none. */
const struct mach_cred *mach_thread_cred(const struct mach_thread *t);

/**
 * @t's credentials to change: its own, made first (a copy of the interned
 * ones it shared, groups included, or zeroed when it had none).  NULL when
 * there is no memory.
 */
struct mach_cred *mach_thread_cred_mut(struct mach_thread *t);

/** @t's rarely set attributes: its own, or all zero when it has none (never NULL). */
const struct mach_thread_rare *mach_thread_rare(const struct mach_thread *t);

/**
 * Give @t the rare attributes @r (which may point into @t's own): kept
 * only when one of them is not zero.  0 or -ENOMEM (then @t is unchanged).
 */
int mach_thread_rare_set(struct mach_thread *t, const struct mach_thread_rare *r);

/** Set @own's (a cred owned by its thread) supplementary groups to @n of @groups.  0 or -ENOMEM. */
int mach_cred_set_groups(struct mach_cred *own, const uint32_t *groups, unsigned int n);

/** @p's limits, MACH_RLIM_NLIMITS of them: its own, or all zero when it has none. */
const struct mach_rlimit *mach_process_rlim(const struct mach_process *p);

/**
 * @p's limits to change: its own array, made first (a copy of the interned
 * set it shared, or zeroed when it had none).  NULL when there is no memory.
 */
struct mach_rlimit *mach_process_rlim_mut(struct mach_process *p);

/** Free a file table and its files. */
void mach_files_free(struct mach_files *f);
/** Free @f's files and their array (f->fds NULL); f->nfds, the count a maker makes again, stays. */
void mach_files_drop_fds(struct mach_files *f);

/** Free an fs_struct's paths and the struct. */
void mach_fs_free(struct mach_fs *fs);

/** The fs_struct thread @t resolves cwd and root with: its own, or its process's (NULL: none). */
static inline const struct mach_fs *mach_thread_fs(const struct mach_process *p, const struct mach_thread *t)
{
	return t->fs ? t->fs : p->fs;
}

/* ------------------------------------------------------------------ */
/* Kernel functions, stacks, smaps counters                            */

/**
 * The index of kernel function @name (@len bytes), @size bytes long, of
 * @module (NULL: built in) in m->ksyms, added if new: 0 or -ENOMEM.
 */
int mach_ksym_intern(struct mach_machine *m, const char *name, size_t len, uint32_t size,
		     const char *module, uint32_t *id);

/** The index of the stack of @n @frames in m->kstacks, added if new (0 for none): 0 or -ENOMEM. */
int mach_kstack_intern(struct mach_machine *m, const struct mach_kframe *frames, unsigned int n,
		       uint32_t *id);

/** The name of m->ksyms[@id], or NULL for 0 and ids out of range. */
const char *mach_ksym_name(const struct mach_machine *m, uint32_t id);

/** Add the counters of @s to @sum. */
void mach_mss_add(struct mach_mss *sum, const struct mach_mss *s);

/** The pss smaps counts as Locked in @vma: all of it in a VM_LOCKED VMA, else none. */
static inline uint64_t mach_vma_pss_locked(const struct mach_vma *vma)
{
	return (vma->flags & MACH_VM_LOCKED) ? vma->mss.pss : 0;
}

/**
 * @mm's mm->nvmas VMAs into *@out: the stored array, or (mm->maker) the
 * ones made for this thread, kept until the thread asks for another mm's
 * or ends.  So a reader holds one mm's VMAs at a time, and reading a
 * file in pieces makes them once.  0, or -errno when making them failed.
 */
int mach_mm_vmas(const struct mach_mm *mm, const struct mach_vma **out);

/**
 * @t's t->n mounts into *@out: the stored array, or (t->maker) the ones
 * made for this thread, kept until the thread asks for another table's or
 * ends, as mach_mm_vmas keeps VMAs.  0, or -errno when making them failed.
 */
int mach_mnt_table_mounts(const struct mach_mnt_table *t, const struct mach_mount **out);

/**
 * @f's f->nfds fds into *@out: the stored array, or (f->maker) the ones
 * made for this thread, kept until the thread asks for another table's or
 * ends, as mach_mm_vmas keeps VMAs.  0, or -errno when making them failed.
 */
int mach_files_fds(const struct mach_files *f, const struct mach_fd **out);

/**
 * Make @f's fds its own stored ones (f->maker NULL after), for a writer
 * that changes the table: 0, or -errno when making them failed (@f as it was).
 */
int mach_files_store(struct mach_files *f);

/** A number no other mm or mount table of any machine in this process has had: what made ones are kept by. */
uint64_t mach_new_serial(void);

/** Free @n stored VMAs (a malloc'd array, each name malloc'd), and their names. */
void mach_vmas_free(struct mach_vma *v, size_t n);

/** The @n VMAs at @v but the gate VMA ([vsyscall], last when there), which no mm holds. */
size_t mach_vmas_own(const struct mach_vma *v, size_t n);

/**
 * What smaps_rollup shows of the @n VMAs at @v: the sum of their own (not
 * the gate's) counters, their Locked pss, and the span from the first
 * one's start to the last one's end (0-0 without VMAs).
 */
void mach_vmas_rollup(const struct mach_vma *v, size_t n, struct mach_mss *sum, uint64_t *pss_locked,
		      uint64_t *start, uint64_t *end);

/**
 * The Locked value (fixed point) a smaps record of @vma, or (@vma NULL) the
 * rollup of the @n VMAs at @v, prints under Locked rule @mode (enum
 * mach_smaps_locked).
 */
uint64_t mach_smaps_locked(const struct mach_vma *v, size_t n, const struct mach_vma *vma, unsigned int mode);

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
	/*
	 * The kernel whose files the machine prints: major * 100 + minor, one
	 * of mach_synth_kernels(); 0 (the default) is Linux 6.18.
	 */
	unsigned int kernel;
	/*
	 * Keep every mm's VMAs in the model (synth:vmas=stored) rather than
	 * make them from the seed when a reader asks (vmas=made, the default).
	 */
	bool store_vmas;
	/*
	 * Keep containers' and pods' mount tables in the model
	 * (synth:mounts=stored) rather than make them when read (mounts=made).
	 */
	bool store_mounts;
	/*
	 * Keep every process's fd table in the model (synth:fds=stored)
	 * rather than make it when read (fds=made).
	 */
	bool store_fds;
};

/** The kernels `synth:kernel=` accepts (major * 100 + minor, oldest first); *@n set. */
const unsigned int *mach_synth_kernels(size_t *n);

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
