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
#define KEY_TASK 0x100000000ull      /* + plan index: a process's own stream */
#define KEY_LAYOUT 0x200000000ull    /* + layout root: its address space layout */
#define KEY_ENV 0x300000000ull       /* + environment root: its environment */

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
 * Sums over the tasks that the global counters are derived from: kB of
 * the mms, faults, and CPU demand before it is fitted into the CPUs.  Each
 * builder thread keeps its own, added up in worker order afterwards.
 */
struct synth_sums {
	uint64_t anon, file, shmem, pte, data, swap;
	uint64_t lck, lck_res;        /* VmLck, and the RSS of the mms it covers */
	uint64_t minflt, majflt;
	uint64_t raw_user, raw_sys;
};

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

	/* one mm being built */
	struct mach_vma *vb;
	size_t vn, vcap;
	uint64_t res_anon, res_file, res_shmem; /* resident kB by class */
	char argbuf[4096];
	char envbuf[2048];

	/* the network (net.c): each process's namespace, 0 the host's, k container k */
	uint16_t *netns_of;
	unsigned int ncontainers;
	uint32_t udp_hash_mask;       /* udp_hash_entries - 1: UDP's hash buckets (sl of /proc/net/udp) */

	/* sums over the tasks, for the global counters */
	struct synth_sums sum;
	uint64_t nr_running, nr_blocked, nr_threads;
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

/* tasks.c */

/** Build planned process @idx, kernel thread or user process: 0 or -ENOMEM. */
int sy_build_task(struct synth *s, size_t idx);
/** Scale the tasks' raw CPU demand into the CPUs' totals; switches and children's faults follow. */
void sy_fit_task_times(struct synth *s);

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
void sy_bitmap_set_range(struct mach_bitmap *b, unsigned int first, unsigned int count);
/** Set the bits of the CPUs of NUMA node @node (all CPUs with one node). */
void sy_bitmap_set_node_cpus(const struct synth *s, struct mach_bitmap *b, unsigned int node);

/* counters.c */

/** The irqs with their counts, nr_irqs and the softirq counts: 0 or -ENOMEM. */
int sy_build_irqs(struct synth *s);
/** /proc/meminfo from the sums over tasks, RAM sized to hold them. */
void sy_build_meminfo(struct synth *s);
/** /proc/vmstat: meminfo's pages and event counts since boot. */
void sy_build_vmstat(struct synth *s);
/** Load averages, run-queue counts and pressure. */
void sy_build_load(struct synth *s);

#endif /* UPROCFS_SYNTH_INT_H */
