/* SPDX-License-Identifier: MIT */
/*
 * synth_int.h - the generator's private state, shared by its files.
 *
 * One struct synth lives through a build: the options, the machine being
 * filled, the plan (one struct gen per process), the scratch of the mm
 * being built and the sums over tasks that the global counters are derived
 * from.  Builder threads each work on a copy (see parallel.c), so nothing
 * here is written by two threads.
 */
#ifndef UPROCFS_SYNTH_INT_H
#define UPROCFS_SYNTH_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "catalog.h"
#include "devices.h"
#include "rng.h"
#include "uprocfs/machine.h"

/* ------------------------------------------------------------------ */
/* Limits and constants of the emulated machine                         */

#define SYNTH_MAX_CPUS 8192u
#define SYNTH_MAX_TASKS 2000000u
#define SYNTH_MAX_THREADS 4000000u
#define SYNTH_MAX_DEPTH 16u
#define SYNTH_PID_SLACK 64          /* pids kept free above the last one */
/* the highest pid a synthetic task may get: readers under `uprocfs run` take the rest */
#define SYNTH_PID_TOP MACH_SYNTH_PID_LIMIT

#define PAGE_KB (MACH_PAGE_SIZE / 1024u)

/* Keys of the random streams (rng_init): one range per purpose, so no two streams coincide. */
#define KEY_MACHINE 1ull             /* the machine-wide stream: shape, tree, pids, CPUs */
#define KEY_MACHINE_ID 7ull          /* the machine id (journal directory name) */
#define KEY_HOSTNAME 8ull            /* the host name */
#define KEY_TASK 0x100000000ull      /* + plan index: a process's own stream */
#define KEY_LAYOUT 0x200000000ull    /* + layout root: its address space layout */
#define KEY_ENV 0x300000000ull       /* + environment root: its environment */
#define KEY_SYSCTL 8ull              /* the host name, boot id and RSS key of /proc/sys */
#define KEY_FILES 0x400000000ull     /* + plan index: its fd table */
#define KEY_IO 0x500000000ull        /* + plan index: limits, oom, I/O (and + 2^31: its I/O counters) */
/* the rest of the machine (sys_*.c): each part its own stream, so the others never move */
#define KEY_STORAGE 0x600000000ull   /* +0 the layout, +1 the devices and swap */
#define KEY_DISKIO 0x600000010ull
#define KEY_ZONES 0x600000020ull
#define KEY_SLABS 0x600000030ull
#define KEY_KERNEL 0x600000040ull
#define KEY_SYSFS 0x600000050ull     /* +0 THP, +1 topology, clocks and sensors (sys_cpus.c) */
#define KEY_DETAIL 0x700000000ull    /* + pid: its smaps details and wait registers */

/* Round kB to whole pages. */
static inline uint64_t kb_pages(double kb)
{
	uint64_t v = (uint64_t)kb;

	return (v + PAGE_KB - 1) / PAGE_KB * PAGE_KB;
}

/* ------------------------------------------------------------------ */
/* Generator state                                                      */

enum gen_kind { G_USER, G_KTHREAD };

#define GF_PARENT 0x01u   /* has children */
#define GF_READER 0x02u   /* the `ps -ef` reading /proc right now */
#define GF_PINNED 0x04u   /* pinned to one CPU with taskset */
#define GF_DELETED 0x08u  /* its executable was replaced on disk since it started */

/* What the plan decided for one process, beyond what struct mach_process holds. */
struct gen {
	uint32_t uid;
	uint32_t inst;        /* worker index, pts number, CPU, node or rescuer */
	uint32_t lroot;       /* forked copies inherit their layout from this index */
	uint32_t nrun;        /* threads in R */
	uint16_t prog;        /* enum prog_id, or enum kt_id for kernel threads */
	uint8_t kind;         /* enum gen_kind */
	uint8_t state;        /* planned state of the group leader */
	uint8_t flags;        /* GF_* */
	uint8_t env;          /* enum env_class */
	uint32_t eroot;       /* the process that set up the environment it inherited */
	/* namespaces and control groups (ns_plan.c) */
	uint32_t css_set;     /* its control groups: a m->css_sets index */
	uint32_t nsset;       /* its namespaces: a m->nssets index */
	uint32_t ns_pid;      /* its pid in its container's pid namespace; 0: in the host's only */
	uint32_t ns_pgid, ns_sid; /* its group's and session's there (0: outside it) */
	int32_t container;    /* the plan index of its container's first process; NONE: on the host */
};

/* Where a process's environment came from (it inherits its parent's otherwise). */
enum env_class {
	ENV_SERVICE,    /* a systemd unit */
	ENV_INIT,       /* pid 1: what the kernel passed */
	ENV_LOGIN,      /* a login shell (pam_env, sshd) */
	ENV_CRON,       /* a cron job */
	ENV_CONTAINER,  /* a container's process */
};

#define NONE (-1)

/*
 * Containers (docker ones, pods' sandboxes) the generator gives a network
 * namespace of their own (ns_plan.c); those past it share the host's, as
 * with --network=host (net.c builds one struct mach_net per namespace).
 */
#define SY_NET_MAX_CONTAINERS 64u

/*
 * How many processes map each shared file, from the plan: the mapcount
 * of their resident pages, from which smaps' Pss and Shared_* follow.
 * Index [1] counts the mappers of a deleted (replaced) copy.
 */
struct sy_sharing {
	uint32_t exe[NR_PROGS][2];  /* by program: every program with the same executable */
	uint32_t lib[NR_LIBS][2];
	uint32_t libc, ld_so, vdso, locale, modules, journals;
	uint32_t *group;            /* by layout root: the forked copies sharing its memory */
};

/*
 * Sums over the tasks that the global counters are derived from: kB of
 * the mms, faults, and CPU demand before it is fitted into the CPUs.  Each
 * builder thread keeps its own, added up in worker order afterwards.
 */
struct synth_sums {
	uint64_t anon, file, shmem, pte, data, swap;
	uint64_t lck, lck_res;        /* VmLck, and the RSS of the mms it covers */
	uint64_t thp;                 /* AnonHugePages of the mms */
	uint64_t minflt, majflt;
	uint64_t raw_user, raw_sys;
	uint64_t threads, running, blocked; /* the tasks' states: /proc/stat's and loadavg's counts */
	uint64_t fds, mms;            /* open fds and processes with an mm: fs/file-nr's struct files */
};

struct sy_ns_state;

/* environments a builder remembers: a direct-mapped table by the index of who set them up */
#define SY_ENV_MEMO 64

struct synth {
	const struct mach_synth_opts *o;
	struct mach_machine *m;
	struct rng rng;               /* the machine-wide stream */

	/* clock and topology */
	uint64_t now;                 /* uptime, ns */
	uint64_t upgrade_ns;          /* libssl was upgraded then (0: never) */
	unsigned int nnodes;          /* NUMA nodes */
	unsigned int pkg_cpus;        /* CPUs per package (LLC) */
	bool smt;                     /* CPUs i and i + n/2 are siblings */
	bool virt;                    /* a KVM guest: virtio devices, steal time */
	double per_cpu_gib;           /* memory sizing */
	uint8_t storage;              /* enum storage_layout (sys_storage.c) */
	char root_name[32];           /* the block device holding / ("dm-0", "vda") */
	bool data_disk;               /* a second disk, mounted on /home (planned with the layout) */
	struct sy_blockfs blockfs[SY_NR_BLOCKFS]; /* the filesystems on the disks (devices.c) */

	/* the plan */
	struct gen *gen;
	size_t n;                     /* processes planned so far */
	size_t limit;                 /* plan_add refuses past this */
	size_t boot_end;              /* first index after the boot daemons */
	size_t kt_budget, nkt;        /* kernel threads allowed, planned */
	size_t late_kworkers;         /* kworkers still to spread among the workloads */
	unsigned int late_seq;
	unsigned int rescuer;         /* next sy_kt_rescuers[] name */
	int sshd, cron, last_bash;
	uint32_t nusers;
	uint8_t *user_seen;
	uint32_t next_pts;
	pid_t last_boot_kt_pid, last_boot_pid;

	/* pid -> start time (piecewise linear) */
	unsigned int nbp;
	double bp_pid[4], bp_ns[4];

	/* file names and inodes, computed once per build */
	char lib_path[NR_LIBS][80];
	uint8_t lib_len[NR_LIBS];
	uint64_t lib_ino[NR_LIBS], exe_ino[NR_PROGS];

	/* who maps what: the plan's, read-only while tasks are built */
	struct sy_sharing share;

	/* one mm being built */
	uint32_t root_major, root_minor; /* the device of its root filesystem (files it maps) */
	struct mach_vma *vb;
	size_t vn, vcap;
	size_t vcap_lent;             /* vb's capacity while the mm being built holds it (maker.c) */
	bool replay;                  /* making one mm's VMAs again: nothing else of the mm is made */
	/* a replay's VMA names, back to back; each VMA's name is its offset + 1 until the end */
	char *names;
	size_t names_len, names_cap;
	/* the machine's shared masks (sy_share_masks): every CPU, every online node */
	uint64_t *all_cpus, *all_nodes;
	uint64_t *one_cpu;        /* CPU c alone: nr_cpu_ids bits at one_cpu + c * words, for each of the o->cpus */
	/* every planned process's ids (sy_plan_ids), by plan index: what fd tables and sockets read */
	struct sy_ids *ids;
	/*
	 * fds=made: each process's socket fds in table order, by plan index,
	 * kept from its table until the network's tables are built (net.c)
	 */
	struct sy_sock_fd **sock_fds;
	/* makes VMAs and mount tables from the seed when a reader asks (maker.c); NULL: the model stores them */
	struct sy_maker *maker;
	/* this builder's interned strings (intern.c); NULL until the first */
	struct sy_intern *intern;
	bool mlock_all;               /* the program mlockall()ed: its mappings are locked and resident */
	pid_t vpid;                   /* whose: its pid keys the per-mapping details */
	uint64_t res_anon, res_file, res_shmem; /* resident kB by class */
	char argbuf[4096];
	char envbuf[2048];
	/* environments this builder interned, by who set them up (sy_intern_env); empty with @intern */
	struct sy_env_memo {
		char *text;
		size_t len;
		uint32_t eroot;
		uint8_t env;
	} env_memo[SY_ENV_MEMO];

	/* namespaces, control groups, mount tables (ns_plan.c): planned, then read-only */
	struct sy_ns_state *ns;
	/* the network (net.c): each process's namespace, 0 the host's, k container k */
	uint16_t *netns_of;
	int32_t *first_prog;          /* [ns * NR_PROGS + prog]: its first live process there, or NONE (net.c) */
	unsigned int ncontainers;
	uint32_t udp_hash_mask;       /* udp_hash_entries - 1: UDP's hash buckets (sl of /proc/net/udp) */

	/* sums over the tasks, for the global counters */
	struct synth_sums sum;
	uint64_t nr_running, nr_blocked, nr_threads;
};

/*
 * A planned process's ids as the plan gave them: what one process's fd
 * table and sockets read of the others (their pids, sessions, terminals),
 * so that a replay of the table needs no model.
 */
struct sy_ids {
	pid_t tgid, ppid, session;
	int32_t tty_nr;
	int32_t parent;               /* the parent's plan index, or -1 */
};

/* Where a process holds one of its sockets: what the network's tables read of a dropped fd table. */
struct sy_sock_fd {
	uint64_t ino;                 /* 0: the end of a process's list */
	int fd;
};

/* Where one process's mappings go, and what was learned while mapping. */
struct layout {
	struct rng lr;              /* layout stream: shared with forked copies */
	struct rng *r;              /* the process's own stream */
	const struct prog *pg;
	const struct gen *g;
	struct mach_mm *mm;
	unsigned int nthreads;
	uint64_t anon_kb;           /* target RssAnon */
	uint64_t start_ns;
	pid_t pid;
};

/* How the machine's disks are laid out (sys_storage.c). */
enum storage_layout { ST_MICROVM, ST_CLOUD_LVM, ST_NVME_LVM, ST_SATA_LVM };

/* ------------------------------------------------------------------ */
/* What the generator's files hand each other                           */

/* net.c (net_int.h has the rest) */

/** What an environment root (plan index @eroot) draws from its stream, in this order (cmdline.c). */
struct sy_env_draws {
	uint64_t x0, x1, h, j;
	unsigned int a, b, port; /* an ssh login's client: 10.0.a.b:port */
};
void sy_env_draws(uint64_t seed, uint32_t eroot, struct sy_env_draws *d);
/** The client of PostgreSQL backend @idx: 10.0.X.Y as a __be32, and its port (net_socks.c). */
void sy_net_pg_client(uint64_t seed, size_t idx, uint32_t *be32, unsigned int *port);
/** The inode of a service's journal stream, its stdout: JOURNAL_STREAM names it (net_socks.c). */
uint64_t sy_net_stdout_inode(pid_t pid);
/** The host's uplink device's name ("ens3", "enp2s0"...), as /proc/net/dev and its queue irqs name it (net_devs.c). */
void sy_net_uplink_name(const struct synth *s, char out[MACH_IFNAMSIZ]);
/** Whether plan index @j is a service's own main process, whose stdout and stderr stream to journald. */
bool sy_net_service_root(const struct synth *s, size_t j);

/** Each planned process's network namespace (containers get their own): 0 or -ENOMEM. */
int sy_net_plan(struct synth *s);
/** The namespaces: devices, addresses, routes, sockets and counters: 0 or -ENOMEM. */
int sy_build_net(struct synth *s);

/* plan.c */

/** Plan the process tree, the states, threads and pids: 0 or -ENOMEM. */
int sy_plan(struct synth *s);
/** When the task with pid @pid started (ns of uptime), from the plan's pid order. */
uint64_t sy_pid_start_ns(const struct synth *s, pid_t pid);

/* mm.c, vma.c */

/** Format the library paths and compute the inodes of libraries and executables. */
void sy_init_names(struct synth *s);
/** Build the mm of user process @L, with its VMAs, cmdline and environment: 0 or -ENOMEM. */
int sy_build_mm(struct synth *s, struct layout *L);
/** Free the names of the scratch VMAs not handed to an mm, and empty the list. */
void sy_vb_drop(struct synth *s);
/** Mark the executable's and ld.so's file VMAs among @n at @v VM_DENYWRITE (kernels before 5.15). */
void sy_deny_write_vmas(struct mach_vma *v, size_t n, const char *exe);

/* tasks.c */

/**
 * The masks most threads have, "every CPU", "every online node" and "CPU
 * c alone", made once for the machine (m->shared_masks) for threads to borrow: 0 or
 * -ENOMEM.  A thread's mems_allowed alone is 128 bytes (MAX_NUMNODES bits),
 * its cpus_allowed 512 at 4096 CPUs.  Call after the topology.
 */
int sy_share_masks(struct synth *s);

/**
 * Make again the VMAs of the user process of plan index @idx, whose pid
 * is @tgid and which had @nthreads threads when built, into @scratch
 * (which holds vm_swap and the lengths of its command line and
 * environment): the draws its build made, in the same order.  0 or -ENOMEM.
 */
int sy_replay_mm(struct synth *s, size_t idx, pid_t tgid, unsigned int nthreads, struct mach_mm *scratch);

/* intern.c */

/**
 * @len bytes at @bytes kept once for the machine (a NUL after them), the
 * copy an earlier call of this builder made when it has one: what fd
 * names, cwds, environments, command lines and exe paths point at, with
 * their *interned flag set.  NULL on ENOMEM.
 */
char *sy_intern(struct synth *s, const void *bytes, size_t len);

/**
 * Point @t at the interned copy of @want (its groups interned too): the
 * threads of a synthetic machine share a few thousand credentials.  0 or
 * -ENOMEM.
 */
int sy_thread_cred(struct synth *s, struct mach_thread *t, const struct mach_cred *want);

/** sy_intern of the C string @str. */
char *sy_intern_str(struct synth *s, const char *str);

/**
 * A copy of a builder starts with no interned strings of its own: those
 * it was copied with stay the original's, and so do the environments it
 * remembers in them.
 */
void sy_intern_forget(struct synth *s);

/** Give this builder's interned strings to the machine (or free them when there is none), and drop its table. */
void sy_intern_finish(struct synth *s);

/* maker.c */

/** Whether the build leaves mms' VMAs to the maker (else the mms store them). */
static inline bool sy_vmas_made(const struct synth *s)
{
	return s->maker && !s->o->store_vmas;
}

/** Whether the build leaves fd tables to the maker (else the tables store them). */
static inline bool sy_fds_made(const struct synth *s)
{
	return s->maker && !s->o->store_fds;
}

/** Give the machine a maker unless the options store VMAs, mount tables and fds: 0 or -ENOMEM.  Call after the plan. */
int sy_maker_new(struct synth *s);
/** Process @idx's table @f is built and measured: drop its fds for the maker to make again. */
void sy_maker_keep_files(struct synth *s, size_t idx, struct mach_files *f);
/**
 * Process @idx is built: record what replays its mm, and drop the VMAs
 * the build needed (s->vb takes their array back).  Nothing without a maker.
 */
void sy_maker_keep_vmas(struct synth *s, size_t idx, const struct mach_process *p);
/** The kernel marks executables' VMAs VM_DENYWRITE: the made VMAs get it too. */
void sy_maker_deny_write(struct synth *s);
/** The maker owns the plan now: false when there is none (free_build frees the plan). */
bool sy_maker_adopt(struct synth *s);

/* sharing.c */

/** Count the mappers of every shared file from the plan (s->share): 0 or -ENOMEM. */
int sy_plan_sharing(struct synth *s);

/* smaps.c (and sy_vma_mss in mm_int.h) */

/** Swap out @mm->vm_swap kB of its anonymous mappings, back a JVM heap with THPs: their kB. */
uint64_t sy_mm_swap_thp(struct mach_mm *mm, bool java);

/* waits.c */

/** The kernel functions and stacks tasks wait in, into the machine's tables: 0 or -ENOMEM. */
int sy_install_waits(struct synth *s);
/** Where thread @j of user process @p waits (wchan, stack, syscall), by its program and state. */
void sy_user_wait(struct synth *s, const struct gen *g, struct mach_process *p, unsigned int j);
/** Where kernel thread @p waits, by its kind. */
void sy_kthread_wait(const struct gen *g, struct mach_thread *t);
/** sched_info of every task (schedstat): run time from the fitted times, waits and timeslices. */
void sy_build_sched_info(struct synth *s);
/** Each thread's children list from the processes' parents: 0 or -ENOMEM. */
int sy_build_children(struct synth *s);

/* tasks.c */

/** Build planned process @idx, kernel thread or user process: 0 or -ENOMEM. */
int sy_build_task(struct synth *s, size_t idx);
/** Scale the tasks' raw CPU demand into the CPUs' totals; switches and children's faults follow. */
void sy_fit_task_times(struct synth *s);

/* files.c, proc_misc.c: what fs/proc/base.c and fs/proc/fd.c show */

/** Every planned process's ids into s->ids (after the plan, before the tasks): 0 or -ENOMEM. */
int sy_plan_ids(struct synth *s);

/**
 * The fd table of planned process @idx (init's for a kernel thread, none
 * for a zombie): made and kept, or (sy_fds_made) made, measured and
 * dropped for the maker to make again.  0 or -ENOMEM.
 */
int sy_build_files(struct synth *s, size_t idx);

/**
 * The fds of the user process of plan index @idx into the empty table @f,
 * from s->ids, the plan and the seed alone: what the build and a replay
 * both call.  A replay (s->replay) owns its names rather than interning
 * them.  0 or -ENOMEM.
 */
int sy_make_files(struct synth *s, size_t idx, struct mach_files *f);

/**
 * The fd of process @p open on @path (a file it locks): the one its table
 * has, or a new one at the lowest free number, read-write, on /run's tmpfs
 * when @on_run, else the root filesystem.  NULL when @p has no table, or on
 * ENOMEM.  The pointer holds until the table changes again.
 */
struct mach_fd *sy_files_open_path(struct synth *s, struct mach_process *p, const char *path, bool on_run);
/** Limits, cwd and root, exe, oom_score_adj, audit ids, autogroup, timer slack of @idx: 0 or -ENOMEM. */
int sy_build_proc_misc(struct synth *s, size_t idx);
/** Every thread's I/O counters, in step with its fitted CPU time: 0 or -ENOMEM. */
int sy_build_task_io(struct synth *s);
/** A user's home directory ("/root", "/home/alice") into @out. */
void sy_user_home(char *out, size_t n, uint32_t uid);
/** A login user's name: the catalog's for the first users, "u<uid>" past them; the length. */
int sy_login_name(char *out, uint32_t uid);
/** The machine's accounts: every uid and gid its tasks hold, named (accounts.c). */
int sy_build_accounts(struct synth *s);

/* parallel.c */

/** Build every planned process, on several threads on large machines: 0 or -ENOMEM. */
int sy_build_tasks(struct synth *s);

/* cpus.c */

/** The uptime, boot time and the moment libssl was upgraded. */
void sy_build_clock(struct synth *s);
/** SMT, packages and NUMA nodes for the CPU count, and the memory per CPU. */
void sy_build_topology(struct synth *s);
/** Per-CPU times from the load: 0 or -ENOMEM. */
int sy_build_cpus(struct synth *s);
/** Per-CPU schedstat counts and scheduler domains: 0 or -ENOMEM. */
int sy_build_schedstat(struct synth *s);
/** Set bits [@first, @first + @count) of @b, clipped to its width. */
/** The core of CPU @cpu, numbered across the machine: SMT siblings share one. */
unsigned int sy_cpu_core(const struct synth *s, unsigned int cpu);
/** The package of CPU @cpu: siblings share one. */
unsigned int sy_cpu_pkg(const struct synth *s, unsigned int cpu);
/** The NUMA node of CPU @cpu: its package, on machines with several nodes. */
unsigned int sy_cpu_node(const struct synth *s, unsigned int cpu);
void sy_bitmap_set_range(struct mach_bitmap *b, unsigned int first, unsigned int count);
/** Set the bits of the CPUs of NUMA node @node (all CPUs with one node). */
void sy_bitmap_set_node_cpus(const struct synth *s, struct mach_bitmap *b, unsigned int node);

/* ns_plan.c, ns_cgroups.c, ns_mounts.c */

/**
 * After the plan: the control group tree (systemd's layout, the workload
 * `depth` levels deep), the namespaces of services and containers, the pids
 * inside containers; each process's css_set and nsset in its gen, and the
 * mount tables reserved.  0 or -ENOMEM.
 */
int sy_plan_ns(struct synth *s);
/** Fill the reserved mount tables; after meminfo, which sizes the tmpfs mounts.  0 or -ENOMEM. */
int sy_build_mounts(struct synth *s);
/** Free the namespace plan's state (not the machine's tables). */
void sy_ns_free(struct synth *s);
/** Thread @j of planned process @idx (@p): its css_set, nsset and ids in every pid namespace; 0 or -ENOMEM. */
int sy_thread_ns(const struct synth *s, size_t idx, const struct mach_process *p, struct mach_thread *t,
		 unsigned int j);
/** The device of planned process @idx's root filesystem, for the files it maps. */
void sy_root_dev(const struct synth *s, size_t idx, uint32_t *major, uint32_t *minor);
/** The 64-hex-digit id of the container whose first process is planned at @idx. */
void sy_container_id(const struct synth *s, size_t idx, char out[65]);

/* counters.c */

/** The irqs with their counts, nr_irqs and the softirq counts: 0 or -ENOMEM. */
int sy_build_irqs(struct synth *s);
/** /proc/meminfo from the sums over tasks, RAM sized to hold them. */
void sy_build_meminfo(struct synth *s);
/** /proc/sys: the kernel's keys, fitted to the machine's RAM, CPUs and interfaces (after meminfo). */
int sy_build_sysctl(struct synth *s);
/** /proc/vmstat: meminfo's pages and event counts since boot. */
void sy_build_vmstat(struct synth *s);

/* kernel_facts.c, kernels.c: what `synth:kernel=V` changes */

/** The facts of sy_kfacts that are not a line of vmstat or meminfo. */
enum sy_kflag {
	SY_KF_NONE, SY_KF_NGID, SY_KF_NS, SY_KF_UMASK, SY_KF_GROUPS_SPACE, SY_KF_KTHREAD, SY_KF_VMPIN,
	SY_KF_RSS, SY_KF_HUGETLB, SY_KF_VMPMD, SY_KF_COREDUMP, SY_KF_THP, SY_KF_UNTAG, SY_KF_CAPAMB,
	SY_KF_NNP, SY_KF_SECCOMP, SY_KF_SECCOMP_FILTERS, SY_KF_SSB, SY_KF_SIB, SY_KF_STATE_IDLE,
	SY_KF_WCHAN_ADDR, SY_KF_SCHEDSTAT_16, SY_KF_SCHEDSTAT_17, SY_KF_PRESSURE, SY_KF_PRESSURE_CPU_FULL,
	/* smaps (mach_vm.h), the last of the flags */
	SY_KF_SM_SWAP_PSS, SY_KF_SM_HUGETLB, SY_KF_SM_SHMEM_PMD, SY_KF_SM_LAZYFREE, SY_KF_SM_ROLLUP,
	SY_KF_SM_LOCKED_ALL, SY_KF_SM_LOCKED_RUNNING, SY_KF_SM_THP, SY_KF_SM_THP_TABS, SY_KF_SM_THP_WIDE,
	SY_KF_SM_PSS_SPLIT, SY_KF_SM_FILE_PMD, SY_KF_SM_FILE_PMD_NARROW, SY_KF_SM_PSS_DIRTY, SY_KF_SM_KSM,
	SY_KF_DENYWRITE,
	SY_NR_KF
};

enum sy_kfact_kind { KF_VMSTAT, KF_MEMINFO, KF_FLAG };

/* How a vmstat line outside the vocabulary gets its value from the typed counters. */
enum sy_kderive {
	KD_NONE, KD_ZERO, KD_COPY, KD_SUM, KD_FRAC, KD_MEMINFO,
	KD_ZONE_DMA, KD_ZONE_DMA32, KD_ZONE_NORMAL, KD_ZONE_MOVABLE,
};

/** One fact of a kernel's files: printed from version @since to before @until (0: still). */
struct sy_kfact {
	unsigned char kind;       /* enum sy_kfact_kind */
	const char *name;         /* vmstat name, meminfo label without ':', or the flag's name */
	unsigned short since, until; /* major * 100 + minor */
	unsigned char derive;     /* enum sy_kderive */
	const char *from, *from2; /* vocabulary names (a meminfo label for KD_MEMINFO) */
	unsigned char flag;       /* enum sy_kflag */
};

extern const struct sy_kfact sy_kfacts[];
extern const size_t sy_nkfacts;
/** The versions `kernel=` accepts (major * 100 + minor), oldest first. */
extern const unsigned int sy_kernels[];
extern const size_t sy_nkernels;
/** Whether fact @f holds for kernel @v. */
bool sy_kfact_holds(const struct sy_kfact *f, unsigned int v);
/** The kernel's release string, before anything prints it (a no-op for the default). */
void sy_kernel_begin(struct synth *s);
/** Make the built machine print what kernel o->kernel printed (after everything is built). */
int sy_kernel_finish(struct synth *s);
/** Load averages, run-queue counts and pressure. */
void sy_build_load(struct synth *s);

/* sys_*.c: the rest of the machine (mach_sys.h) */

/** The disk layout and the root device, from their own stream: before the tasks. */
void sy_plan_storage(struct synth *s);
/** Block devices, block majors and swap areas (meminfo's swap lines made exact): after meminfo. */
int sy_build_storage(struct synth *s);
/** The devices' I/O counters, adding up to vmstat's pgpgin and pgpgout: after vmstat. */
void sy_build_disk_io(struct synth *s);
/** Nodes and zones, their free lists and pagesets, from meminfo and vmstat: 0 or -ENOMEM. */
int sy_build_zones(struct synth *s);
/** Slab caches adding up to meminfo's Slab lines: 0 or -ENOMEM. */
int sy_build_slabs(struct synth *s);
/** Identity, command line, registries, cgroup controllers and file locks: 0 or -ENOMEM. */
int sy_build_kernel(struct synth *s);

/* sys_sysfs.c, cg_state.c: what /sys shows beyond /proc */

/** Each block device's sysfs part: its directory, queue limits, the device under it.  0 or -ENOMEM. */
int sy_build_blk_sysfs(struct synth *s);
/** Each v2 group's state: charges of its tasks, limits, I/O, gone tasks' time; summed up the tree. */
int sy_build_cgroup_state(struct synth *s);
/** The sysfs side of the host namespace's network devices, after the links (net_sysfs.c); 0. */
int sy_build_net_sysfs(struct synth *s);

/* sys_cpus.c */

/** Transparent hugepages' settings, before meminfo (AnonHugePages is 0 when THP is never). */
void sy_plan_thp(struct synth *s);
/** What /sys shows beyond /proc: topology, caches, clocks, nodes, sensors (after the zones). */
int sy_build_sysfs(struct synth *s);

#endif /* UPROCFS_SYNTH_INT_H */
