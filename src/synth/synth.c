// SPDX-License-Identifier: MIT
/*
 * synth.c - the seeded synthetic machine generator (`--machine synth:...`).
 *
 * Builds a whole struct machine the way a Linux 6.18 x86_64 server holds
 * it: kthreadd and its kernel threads (per-CPU sets, rescuers, kworkers),
 * systemd and its daemons, ssh sessions with jobs, services with worker
 * pools, cron jobs and containers, each with the VMAs its ELF files,
 * libraries, heap, thread stacks and stack give it; and the global
 * counters (/proc/stat, meminfo, vmstat, loadavg, pressure, schedstat)
 * agreeing with the tasks the way the kernel's own accounting makes them
 * agree: task_mem and vm_stat_account for the mm counters, cputime fitted
 * into the CPUs' cpustat, meminfo's LRU and slab identities, vmstat's page
 * counts, arch_probe_nr_irqs for nr_irqs.  Constants that the live
 * reference VM shows (capabilities, kthread flags, signal masks of common
 * programs, inodes of libc and ld.so) are taken from it.
 *
 * Everything is derived from the options through splitmix64 streams: the
 * machine-wide stream draws the shape (clock, tree, pid gaps, CPUs), and
 * every process draws its details from its own streams keyed by (seed,
 * index) -- its layout from the stream of the process it was forked from,
 * so forked workers share their master's addresses.  No rand(), no clock:
 * the same options give the same bytes, on any number of threads.
 *
 * Order of the build (mach_synth_build):
 *   1. clock, topology (SMT siblings, packages, NUMA nodes) and per-CPU
 *      times from the load;
 *   2. the plan: the process tree as program choices, parents first, then
 *      states, thread counts and pids (pid order is fork order, so parents
 *      start before children and start times follow the pids);
 *   3. the processes, in parallel on large machines: threads, credentials,
 *      signals, masks, mm with VMAs, cmdline and environment, raw CPU demand;
 *   4. task times fitted into the CPUs' totals, context switches;
 *   5. schedstat, IRQs and softirqs, meminfo and vmstat from the sums over
 *      tasks, load averages and pressure.
 *
 * Dense machines (hundreds of thousands of tasks) are mostly Kubernetes-style
 * pods whose containers run static binaries, as such hosts are; small ones
 * look like a general-purpose server.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uprocfs/machine.h"
#include "../util/vec.h"
#include "synth_int.h"

/* btime is this fixed instant minus the uptime: reproducible, yet recent. */
#define SYNTH_EPOCH_NOW 1798761600ull /* 2027-01-01 00:00:00 UTC */

#define NSEC_PER_SEC 1000000000ull
#define NSEC_PER_USEC 1000ull
#define SYNTH_HZ 250ull             /* CONFIG_HZ of the reference kernel */
#define JIFFY_NS (NSEC_PER_SEC / SYNTH_HZ)
/* INITIAL_JIFFIES: jiffies start 5 minutes before wrapping 32 bits. */
#define SYNTH_INITIAL_JIFFIES ((uint64_t)(uint32_t)(-300 * (int)SYNTH_HZ))

/* Capability sets of the live machine: root lacks CAP_SYS_RESOURCE there. */
#define CAPS_ROOT 0x000001fffeffffffull
#define CAPS_KTHREAD 0x000001ffffffffffull

#define SIGCHLD_NR 17
#define SIGSTOP_NR 19

/* ------------------------------------------------------------------ */
/* Processes and threads                                                */

/* Package (and NUMA node, when there are several) of a CPU: siblings share one. */
static unsigned int cpu_core(const struct synth *s, unsigned int cpu)
{
	return s->smt ? cpu % (s->o->cpus / 2) : cpu;
}

static unsigned int cpu_pkg(const struct synth *s, unsigned int cpu)
{
	return cpu_core(s, cpu) / (s->smt ? s->pkg_cpus / 2 : s->pkg_cpus);
}

static unsigned int cpu_node(const struct synth *s, unsigned int cpu)
{
	return s->nnodes > 1 ? cpu_pkg(s, cpu) : 0;
}

/* Set bits [first, first + count) a word at a time. */
static void bitmap_set_range(struct mach_bitmap *b, unsigned int first, unsigned int count)
{
	unsigned int bit = first, end = first + count;

	if (end > b->nbits)
		end = b->nbits;
	while (bit < end) {
		if (bit % 64 == 0 && end - bit >= 64) {
			b->words[bit / 64] = ~0ull;
			bit += 64;
		} else {
			mach_bitmap_set(b, bit++);
		}
	}
}

/* All CPUs of NUMA node @node (every CPU when there is one node). */
static void bitmap_set_node_cpus(const struct synth *s, struct mach_bitmap *b, unsigned int node)
{
	if (s->nnodes <= 1) {
		bitmap_set_range(b, 0, s->o->cpus);
		return;
	}
	for (unsigned int cpu = 0; cpu < s->o->cpus; cpu++)
		if (cpu_node(s, cpu) == node)
			mach_bitmap_set(b, cpu);
}

/* Allowed CPUs (one, or all) and memory nodes (all online nodes). */
static int thread_masks(struct synth *s, struct mach_thread *t, int pinned)
{
	if (mach_bitmap_alloc(&t->cpus_allowed, s->m->nr_cpu_ids) ||
	    mach_bitmap_alloc(&t->mems_allowed, s->m->max_numnodes))
		return -ENOMEM;
	if (pinned >= 0)
		mach_bitmap_set(&t->cpus_allowed, (unsigned int)pinned);
	else
		bitmap_set_range(&t->cpus_allowed, 0, s->o->cpus);
	bitmap_set_range(&t->mems_allowed, 0, s->nnodes);
	return 0;
}

static void thread_ids(struct mach_thread *t, const struct mach_process *p)
{
	t->ns_levels = 1;
	t->ns_tgid[0] = p->tgid;
	t->ns_pid[0] = t->tid;
	t->ns_pgid[0] = p->pgrp;
	t->ns_sid[0] = p->session;
}

/* Supplementary groups by account: the first user administers the box. */
static int user_groups(struct mach_thread *t, uint32_t uid)
{
	static const uint32_t admin[] = { 4, 24, 27, 30, 46, 100 };
	uint32_t tmp[8];
	unsigned int n = 0;

	if (uid == UID_FIRST_USER) {
		memcpy(tmp, admin, sizeof(admin));
		n = 6;
		tmp[n++] = uid;
	} else if (uid > UID_FIRST_USER && uid < UID_NOBODY) {
		if (uid % 4 == 1)
			tmp[n++] = 27; /* sudo */
		tmp[n++] = 100;    /* users */
		tmp[n++] = uid;
	} else if (uid == UID_POSTGRES) {
		tmp[n++] = 110;    /* ssl-cert */
	} else if (uid == UID_SYSLOG) {
		tmp[n++] = 4;      /* adm */
	}
	if (!n)
		return 0;
	t->groups = malloc(n * sizeof(uint32_t));
	if (!t->groups)
		return -ENOMEM;
	memcpy(t->groups, tmp, n * sizeof(uint32_t));
	t->ngroups = n;
	return 0;
}

/* The @k-th '|'-separated thread name of @list (of @n) into @comm. */
static void nth_name(char *comm, const char *list, unsigned int n, unsigned int k)
{
	const char *c = list, *e;

	for (k %= n; k; k--)
		c = strchr(c, '|') + 1;
	e = strchr(c, '|');
	if (!e)
		e = c + strlen(c);
	snprintf(comm, 16, "%.*s", (int)(e - c), c);
}

/* Voluntary switches: wakeups over a lifetime at a per-task rate. */
static uint64_t wakeups(struct rng *r, uint64_t life_ns, double rate_lo, double rate_hi)
{
	return (uint64_t)((double)life_ns / 1e9 * rng_logu(r, rate_lo, rate_hi));
}

/*
 * A user process: its threads share credentials, signal handlers and the
 * mm; each has its own times, faults and switches.  CPU time is raw demand
 * here (a share of the lifetime) and is fitted into the CPUs' totals later.
 */
static int build_user(struct synth *s, size_t idx)
{
	struct machine *m = s->m;
	struct mach_process *p = &m->procs[idx];
	const struct gen *g = &s->gen[idx];
	const struct prog *pg = &sy_progs[g->prog];
	bool zombie = g->state == MACH_TASK_ZOMBIE, stopped = g->state == MACH_TASK_STOPPED;
	bool forked = pg->flags & PR_FORKED, root = g->uid == UID_ROOT;
	unsigned int nnames = 1;
	struct layout L;
	struct rng r;
	int pinned = -1, rc, status = 0;
	double rho;

	rng_init(&r, s->o->seed, 0x100000000ull + idx);
	memset(&L, 0, sizeof(L));
	rng_init(&L.lr, s->o->seed, 0x200000000ull + g->lroot);
	L.r = &r;
	L.pg = pg;
	L.g = g;
	L.pid = p->tgid;
	L.nthreads = p->nthreads;
	L.start_ns = sy_pid_start_ns(s, p->tgid);
	L.anon_kb = kb_pages((double)pg->anon_kb * rng_logu(&r, 0.5, 2.0));
	if (g->flags & GF_PINNED)
		pinned = (int)rng_below(&r, s->o->cpus);

	p->threads = calloc(p->nthreads, sizeof(*p->threads));
	if (!p->threads)
		return -ENOMEM;
	p->fdsize = zombie ? 0 : pg->fdsize;
	p->sig_ignored = pg->ign;
	p->sig_caught = zombie ? 0 : pg->cgt;
	p->exit_signal = SIGCHLD_NR;
	p->rsslim = UINT64_MAX;
	if (stopped)
		p->exit_code = SIGSTOP_NR;
	if (zombie) {
		status = rng_chance(&r, 0.7) ? 0 : (int)rng_range(&r, 1, 2) << 8;
		p->exit_code = status;
	}
	if (!zombie) {
		rc = sy_build_mm(s, &L);
		p->mm = L.mm;
		if (rc)
			return rc;
		if (s->o->mem > 0.05 && rng_chance(&r, s->o->mem))
			p->mm->vm_swap = kb_pages((double)p->mm->rss_anon * rng_uniform(&r, 0, s->o->mem));
		s->sum.anon += p->mm->rss_anon;
		s->sum.file += p->mm->rss_file;
		s->sum.shmem += p->mm->rss_shmem;
		s->sum.pte += p->mm->vm_pte;
		s->sum.data += p->mm->vm_data + p->mm->vm_stk;
		s->sum.swap += p->mm->vm_swap;
		if (p->mm->vm_lck) {
			s->sum.lck += p->mm->vm_lck;
			s->sum.lck_res += p->mm->vm_rss;
		}
	}
	if (pg->tnames)
		for (const char *c = pg->tnames; *c; c++)
			nnames += *c == '|';

	/* how busy this process is, as a share of its lifetime */
	rho = pg->cpu * rng_logu(&r, 0.25, 4.0);
	if (g->nrun)
		rho *= 3;
	if (rho > 0.9)
		rho = 0.9;
	for (unsigned int j = 0; j < p->nthreads; j++) {
		struct mach_thread *t = &p->threads[j];
		uint64_t life, raw;
		bool running;

		t->tid = p->tgid + (pid_t)j;
		if (j == 0 || !pg->tnames)
			snprintf(t->comm, 16, "%s", pg->comm);
		else
			nth_name(t->comm, pg->tnames, nnames, j - 1);
		running = p->nthreads == 1 || g->nrun >= p->nthreads ? j < g->nrun : j >= 1 && j <= g->nrun;
		t->state = j == 0 ? g->state : stopped ? MACH_TASK_STOPPED : MACH_TASK_SLEEPING;
		if (running)
			t->state = MACH_TASK_RUNNING;
		t->umask = zombie ? -1 : g->prog == P_SYSTEMD ? 0 :
			   (g->uid >= UID_FIRST_USER && g->uid % 3 == 0) ? 002 : 022;
		for (int k = 0; k < 4; k++) {
			t->uid[k] = g->uid;
			t->gid[k] = g->uid == UID_SYSLOG ? 4 : g->uid;
		}
		if ((rc = user_groups(t, g->uid)))
			return rc;
		thread_ids(t, p);
		t->sig_blocked = pg->blk;
		if (root) {
			t->cap_prm = t->cap_eff = CAPS_ROOT;
		}
		t->cap_bnd = pg->capbnd ? pg->capbnd : CAPS_ROOT;
		if (pg->flags & PR_SECCOMP) {
			t->no_new_privs = true;
			t->seccomp_mode = 2;
			t->seccomp_filters = 4;
		}
		t->ssb = MACH_SSB_VULNERABLE;
		t->sib = MACH_SIB_ALWAYS_ENABLED;
		if ((rc = thread_masks(s, t, pinned)))
			return rc;
		t->processor = pinned >= 0 ? pinned : (int)rng_below(&r, s->o->cpus);
		if (j == 0) {
			t->pf_flags = PF_RANDOMIZE | (forked ? PF_FORKNOEXEC : 0) |
				      (root && (pg->flags & PR_SUPER) ? PF_SUPERPRIV : 0);
			if (zombie)
				t->pf_flags = PF_RANDOMIZE | PF_NOFREEZE | PF_POSTCOREDUMP | PF_EXITING |
					      (forked ? PF_FORKNOEXEC : 0);
		} else {
			t->pf_flags = PF_RANDOMIZE | PF_FORKNOEXEC;
		}
		t->start_time_ns = sy_pid_start_ns(s, t->tid);
		if ((g->flags & GF_READER) && s->now > 50000000u) {
			/* the reader started a moment ago: the newest pid, a few ms of CPU */
			t->start_time_ns = s->now - 20000000u - rng_below(&r, 30000000u);
		}
		life = s->now - t->start_time_ns;
		/* the main thread of a thread pool mostly waits for its workers */
		raw = (uint64_t)((double)life * rho * (p->nthreads > 1 ? (j ? rng_uniform(&r, 0.1, 1.0) :
								       rng_uniform(&r, 0.01, 0.2)) : 1.0));
		if (zombie)
			raw = (uint64_t)((double)raw * 0.01);
		t->utime_ns = (uint64_t)((double)raw * pg->ushare * rng_uniform(&r, 0.85, 1.0));
		t->stime_ns = raw - t->utime_ns;
		s->sum.raw_user += t->utime_ns;
		s->sum.raw_sys += t->stime_ns;
		if (pg->flags & PR_NICE)
			t->nice = 19;
		t->priority = 20 + t->nice;
		if (pg->flags & PR_RT) {
			t->policy = 2;
			t->rt_priority = 99;
			t->priority = -100;
		}
		if (p->mm && j == 0) {
			t->minflt = p->mm->vm_rss / PAGE_KB * rng_range(&r, 12, 40) / 10 +
				    (uint64_t)((double)raw / 1e9 * rng_uniform(&r, 0, 400));
			t->majflt = rng_below(&r, 1 + p->mm->rss_file / 400);
		} else if (p->mm) {
			t->minflt = rng_below(&r, 1 + p->mm->vm_rss / 40);
			t->majflt = rng_below(&r, 3);
		} else {
			t->minflt = rng_range(&r, 60, 400);
		}
		t->nvcsw = (pg->flags & PR_BUSY) ? wakeups(&r, life, 0.5, 200) :
			   (pg->flags & PR_TTY) ? wakeups(&r, life, 0.05, 5) : wakeups(&r, life, 0.002, 2);
		t->wchan = t->state != MACH_TASK_RUNNING;
		t->exit_code = stopped ? SIGSTOP_NR : zombie ? status : 0;
		s->sum.minflt += t->minflt;
		s->sum.majflt += t->majflt;
	}
	/* children it waited for: shells, init, make, cron */
	if (g->prog == P_SYSTEMD || g->prog == P_BASH_LOGIN || g->prog == P_BASH || g->prog == P_MAKE ||
	    g->prog == P_CRON || g->prog == P_SSHD || g->prog == P_SH || g->prog == P_SYSTEMD_USER) {
		uint64_t life = s->now - p->threads[0].start_time_ns;
		double share = g->prog == P_MAKE ? rng_uniform(&r, 0.2, 0.9) : rng_logu(&r, 0.00005, 0.01);
		uint64_t c = (uint64_t)((double)life * share);

		p->cutime_ns = c * 7 / 10;
		p->cstime_ns = c - p->cutime_ns;
		s->sum.raw_user += p->cutime_ns;
		s->sum.raw_sys += p->cstime_ns;
	}
	return 0;
}

/* A kernel thread: no mm, all signals ignored, all capabilities, bound or not. */
static int build_kthread(struct synth *s, size_t idx)
{
	struct mach_process *p = &s->m->procs[idx];
	const struct gen *g = &s->gen[idx];
	const struct kthread_type *k = &sy_kthread_types[g->prog];
	struct mach_thread *t;
	struct rng r;
	uint64_t life, raw;
	int rc;

	rng_init(&r, s->o->seed, 0x100000000ull + idx);
	p->threads = t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	p->fdsize = 64;
	p->sig_ignored = ~0ull;
	p->exit_signal = g->prog == K_KTHREADD ? 0 : SIGCHLD_NR;
	p->rsslim = UINT64_MAX;
	t->tid = p->tgid;
	if (g->prog == K_RESCUER)
		snprintf(t->comm, sizeof(t->comm), "kworker/R-%s", sy_kt_rescuers[g->inst]);
	else if (g->prog >= K_LATE_EVENTS)
		snprintf(t->comm, sizeof(t->comm), k->fmt, g->inst & 0xffff, g->inst >> 16);
	else
		snprintf(t->comm, sizeof(t->comm), k->fmt, g->inst);
	t->state = g->nrun ? MACH_TASK_RUNNING : g->state;
	t->umask = 022;
	thread_ids(t, p);
	t->kthread = true;
	t->cap_prm = t->cap_eff = t->cap_bnd = CAPS_KTHREAD;
	t->ssb = MACH_SSB_VULNERABLE;
	t->sib = MACH_SIB_ALWAYS_ENABLED;
	if ((rc = thread_masks(s, t, k->percpu ? (int)(g->inst & 0xffff) : -1)))
		return rc;
	if (g->prog == K_KSWAPD || g->prog == K_KCOMPACTD) {
		/* bound to the CPUs of their node */
		memset(t->cpus_allowed.words, 0, (t->cpus_allowed.nbits + 63) / 64 * 8);
		bitmap_set_node_cpus(s, &t->cpus_allowed, g->inst);
	}
	t->processor = k->percpu ? (int)(g->inst & 0xffff) : (int)rng_below(&r, s->o->cpus);
	if (g->prog == K_KSWAPD || g->prog == K_KCOMPACTD)
		while (!mach_bitmap_test(&t->cpus_allowed, (unsigned int)t->processor))
			t->processor = (int)rng_below(&r, s->o->cpus);
	t->pf_flags = k->pf;
	t->nice = k->nice;
	t->priority = 20 + k->nice;
	if (k->policy) {
		t->policy = k->policy;
		t->rt_priority = k->rtprio;
		t->priority = -1 - (int)k->rtprio;
	}
	t->start_time_ns = sy_pid_start_ns(s, t->tid);
	life = s->now - t->start_time_ns;
	raw = (uint64_t)((double)life * k->cpu * rng_logu(&r, 0.3, 3.0));
	t->stime_ns = raw;
	s->sum.raw_sys += raw;
	t->nvcsw = wakeups(&r, life, 0.01 + 2000 * k->cpu, 0.02 + 20000 * k->cpu);
	t->wchan = t->state != MACH_TASK_RUNNING;
	return 0;
}

/*
 * Fit the raw CPU demand of the tasks into what the CPUs accounted: the
 * tasks alive now may not have used more user (+nice) or system time than
 * the CPUs show, and the tasks that exited used the rest.  Then the values
 * that follow from the fitted times: group sums, involuntary switches,
 * children's faults.
 */
static void fit_task_times(struct synth *s)
{
	struct machine *m = s->m;
	uint64_t cpu_user = 0, cpu_sys = 0, csw = 0;
	double ku, ks;

	for (unsigned int c = 0; c < m->ncpus; c++) {
		cpu_user += m->cpus[c].time_ns[MACH_CPU_USER] + m->cpus[c].time_ns[MACH_CPU_NICE];
		cpu_sys += m->cpus[c].time_ns[MACH_CPU_SYSTEM];
	}
	/* the tasks alive now account for most of it, the exited ones for the rest */
	ku = s->sum.raw_user ? 0.85 * (double)cpu_user / (double)s->sum.raw_user : 0;
	ks = s->sum.raw_sys ? 0.85 * (double)cpu_sys / (double)s->sum.raw_sys : 0;
	if (ku > 1)
		ku = 1;
	if (ks > 1)
		ks = 1;
	for (size_t i = 0; i < m->nprocs; i++) {
		struct mach_process *p = &m->procs[i];
		uint64_t h = (uint64_t)p->tgid * 0x9e3779b97f4a7c15ull;

		p->group_utime_ns = p->group_stime_ns = 0;
		for (unsigned int j = 0; j < p->nthreads; j++) {
			struct mach_thread *t = &p->threads[j];
			uint64_t cpu;

			t->utime_ns = (uint64_t)((double)t->utime_ns * ku);
			t->stime_ns = (uint64_t)((double)t->stime_ns * ks);
			p->group_utime_ns += t->utime_ns;
			p->group_stime_ns += t->stime_ns;
			cpu = t->utime_ns + t->stime_ns;
			/* preempted a few times per CPU-second */
			t->nivcsw = cpu / 1000000 * (1 + (h >> 59)) / 2000 + (h >> 61);
			csw += t->nvcsw + t->nivcsw;
			h = h * 6364136223846793005ull + 1442695040888963407ull;
		}
		p->cutime_ns = (uint64_t)((double)p->cutime_ns * ku);
		p->cstime_ns = (uint64_t)((double)p->cstime_ns * ks);
		p->cminflt = (p->cutime_ns + p->cstime_ns) / 1000000 * 3;
		p->cmajflt = p->cminflt / 2000;
		s->sum.minflt += p->cminflt;
		s->sum.majflt += p->cmajflt;
	}
	m->ctxt = csw + csw / 4 + (uint64_t)((double)s->now / 1e9 * m->ncpus * rng_uniform(&s->rng, 20, 200));
}

/* ------------------------------------------------------------------ */
/* Clock and topology                                                   */

static void build_clock(struct synth *s)
{
	struct machine *m = s->m;

	/* up between two hours and a month */
	s->now = (uint64_t)(rng_logu(&s->rng, 2 * 3600.0, 30 * 86400.0) * 1e9);
	m->uptime_ns = s->now;
	m->btime = SYNTH_EPOCH_NOW - s->now / NSEC_PER_SEC;
	s->upgrade_ns = rng_chance(&s->rng, 0.5) ? (uint64_t)((double)s->now * rng_uniform(&s->rng, 0.2, 0.8)) : 0;
	m->schedstat_timestamp = SYNTH_INITIAL_JIFFIES + s->now / JIFFY_NS;
}

/*
 * x86 enumeration: with SMT, CPU i and i + n/2 are the two threads of one
 * core.  Up to 32 cores share a package (LLC); several packages are NUMA
 * nodes, or one node with a PKG domain on flat virtual machines.
 */
static void build_topology(struct synth *s)
{
	static const unsigned int sizes[] = { 32, 16, 24, 48, 64, 28, 20, 12, 8 };
	unsigned int n = s->o->cpus, cores, pkg_cores, npkgs;

	s->virt = rng_chance(&s->rng, n <= 64 ? 0.6 : 0.2);
	s->smt = n >= 2 && n % 2 == 0;
	cores = s->smt ? n / 2 : n;
	pkg_cores = cores;
	if (cores > 32) {
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			if (cores % sizes[i] == 0) {
				pkg_cores = sizes[i];
				break;
			}
		}
	}
	npkgs = cores / pkg_cores;
	s->pkg_cpus = pkg_cores * (s->smt ? 2 : 1);
	s->nnodes = npkgs == 1 || (npkgs <= 8 && s->virt) ? 1 : npkgs;
	s->per_cpu_gib = (double)(1u << rng_range(&s->rng, 1, 3)); /* 2, 4 or 8 GiB per CPU */
}

/* ------------------------------------------------------------------ */
/* CPUs and scheduler statistics                                        */

static uint64_t to_jiffies_ns(double ns)
{
	return (uint64_t)(ns / JIFFY_NS) * JIFFY_NS;
}

static uint64_t to_usec_ns(double ns)
{
	return (uint64_t)(ns / NSEC_PER_USEC) * NSEC_PER_USEC;
}

/*
 * Per-CPU times: busy about `load` of the uptime, split as a server splits
 * it; tick-based fields in whole jiffies (HZ=250), idle and iowait in
 * microseconds as NO_HZ reports them.  No IRQ time (no
 * IRQ_TIME_ACCOUNTING), no guest time.
 */
static int build_cpus(struct synth *s)
{
	struct machine *m = s->m;
	double now = (double)s->now;

	m->nr_cpu_ids = m->ncpus = s->o->cpus;
	m->max_numnodes = MACH_MAX_NUMNODES_DEFAULT;
	m->cpus = calloc(m->ncpus, sizeof(*m->cpus));
	if (!m->cpus)
		return -ENOMEM;
	for (unsigned int c = 0; c < m->ncpus; c++) {
		struct mach_cpu *cpu = &m->cpus[c];
		uint64_t *t = cpu->time_ns;
		double busy = s->o->load * rng_uniform(&s->rng, 0.75, 1.25), iow;

		busy = busy < 0.002 ? 0.002 : busy > 0.97 ? 0.97 : busy;
		cpu->id = c;
		cpu->online = true;
		t[MACH_CPU_USER] = to_jiffies_ns(now * busy * rng_uniform(&s->rng, 0.6, 0.72));
		t[MACH_CPU_NICE] = to_jiffies_ns(now * busy * rng_uniform(&s->rng, 0, 0.03));
		t[MACH_CPU_SOFTIRQ] = to_jiffies_ns(now * busy * rng_uniform(&s->rng, 0.01, 0.02));
		t[MACH_CPU_STEAL] = s->virt ? to_jiffies_ns(now * busy * rng_uniform(&s->rng, 0, 0.01)) : 0;
		t[MACH_CPU_SYSTEM] = to_jiffies_ns(now * busy) - t[MACH_CPU_USER] - t[MACH_CPU_NICE] -
				     t[MACH_CPU_SOFTIRQ] - t[MACH_CPU_STEAL];
		iow = s->o->io * rng_uniform(&s->rng, 0.1, 0.4);
		t[MACH_CPU_IOWAIT] = to_usec_ns((now - now * busy) * (iow > 0.5 ? 0.5 : iow));
		t[MACH_CPU_IDLE] = to_usec_ns(now - now * busy - (double)t[MACH_CPU_IOWAIT] -
					      now * rng_uniform(&s->rng, 0, 0.002));
		m->idle_ns += t[MACH_CPU_IDLE];
	}
	return 0;
}

static int domain_init(struct synth *s, struct mach_sched_domain *d, enum mach_sd_level level)
{
	d->level = level;
	return mach_bitmap_alloc(&d->span, s->m->nr_cpu_ids);
}

/* The span of CPU @cpu's domain: its SMT siblings, package, NUMA group or all. */
static void domain_span(struct synth *s, struct mach_sched_domain *d, unsigned int cpu, unsigned int group)
{
	unsigned int n = s->o->cpus, cores = s->smt ? n / 2 : n, core = cpu_core(s, cpu);
	unsigned int pkg_cores = s->smt ? s->pkg_cpus / 2 : s->pkg_cpus, first, count;

	switch (d->level) {
	case MACH_SD_SMT:
		mach_bitmap_set(&d->span, core);
		mach_bitmap_set(&d->span, core + cores);
		return;
	case MACH_SD_MC:
		count = pkg_cores;
		break;
	default:
		count = group ? group * pkg_cores : cores;
		break;
	}
	first = core / count * count;
	bitmap_set_range(&d->span, first, count);
	if (s->smt)
		bitmap_set_range(&d->span, first + cores, count);
}

static uint32_t u32v(double v)
{
	return v <= 0 ? 0 : v >= 4294967295.0 ? 4294967295u : (uint32_t)v;
}

/* Load-balancing counters of one domain: mostly balanced, a few moves. */
static void domain_counts(struct synth *s, struct mach_sched_domain *d, unsigned int level,
			  const struct mach_cpu_schedstat *cs)
{
	struct rng *r = &s->rng;
	double up = (double)s->now / 1e9, scale = 1.0 / (1 + level);
	double count[MACH_NR_IDLE_TYPES] = {
		[MACH_IDLE_BUSY] = up * s->o->load * rng_uniform(r, 0.05, 0.3) * scale,
		[MACH_IDLE_IDLE] = up * rng_uniform(r, 0.5, 2.0) * scale,
		[MACH_IDLE_NEWLY] = cs->sched_goidle * rng_uniform(r, 0.01, 0.1) * scale,
	};

	for (int it = 0; it < MACH_NR_IDLE_TYPES; it++) {
		uint32_t *lb = d->lb[it];
		double failed = count[it] * rng_uniform(r, 0.005, 0.05);

		lb[MACH_LB_COUNT] = u32v(count[it]);
		lb[MACH_LB_FAILED] = u32v(failed);
		lb[MACH_LB_BALANCED] = lb[MACH_LB_COUNT] - lb[MACH_LB_FAILED] -
				       u32v((count[it] - failed) * rng_uniform(r, 0, 0.1));
		lb[MACH_LB_IMBALANCE_LOAD] = u32v(failed * rng_uniform(r, 0, 40));
		lb[MACH_LB_IMBALANCE_UTIL] = u32v(failed * rng_uniform(r, 0, 4));
		lb[MACH_LB_IMBALANCE_TASK] = u32v(failed * rng_uniform(r, 1, 2));
		lb[MACH_LB_GAINED] = u32v(failed * rng_uniform(r, 0.3, 0.9));
		lb[MACH_LB_NOBUSYQ] = u32v(failed * rng_uniform(r, 0, 0.2));
		lb[MACH_LB_NOBUSYG] = u32v(lb[MACH_LB_BALANCED] * rng_uniform(r, 0.8, 0.99));
	}
	d->tail[MACH_ALB_COUNT] = level == 0 ? u32v(up * s->o->load * rng_uniform(r, 0, 0.01)) : 0;
	d->tail[MACH_ALB_PUSHED] = d->tail[MACH_ALB_COUNT] / 2;
	d->tail[MACH_TTWU_WAKE_REMOTE] = u32v(cs->ttwu_count * rng_uniform(r, 0.1, 0.4) * scale);
	d->tail[MACH_TTWU_MOVE_AFFINE] = u32v(d->tail[MACH_TTWU_WAKE_REMOTE] * rng_uniform(r, 0.05, 0.3));
}

/*
 * /proc/schedstat per CPU: its counts follow the context switches and the
 * busy time; domains SMT (siblings), MC (the package), then PKG for a few
 * packages on one node, or NUMA levels (8 packages, then all).
 */
static int build_schedstat(struct synth *s)
{
	struct machine *m = s->m;
	unsigned int n = s->o->cpus, pkg_cores = s->smt ? s->pkg_cpus / 2 : s->pkg_cpus;
	unsigned int cores = s->smt ? n / 2 : n, npkgs = cores / pkg_cores;
	enum mach_sd_level levels[4];
	unsigned int groups[4] = { 0 }, nlev = 0;
	double pressure = 0.005 + 0.3 * s->o->load * s->o->load;

	if (s->smt)
		levels[nlev++] = MACH_SD_SMT;
	if (pkg_cores > 1 || (!s->smt && s->pkg_cpus > 1))
		levels[nlev++] = MACH_SD_MC;
	if (npkgs > 1 && s->nnodes == 1) {
		levels[nlev++] = MACH_SD_PKG;
	} else if (npkgs > 8) {
		groups[nlev] = 8;
		levels[nlev++] = MACH_SD_NUMA;
		levels[nlev++] = MACH_SD_NUMA;
	} else if (npkgs > 1) {
		levels[nlev++] = MACH_SD_NUMA;
	}
	if (n == 1)
		nlev = 0;

	for (unsigned int c = 0; c < n; c++) {
		struct mach_cpu *cpu = &m->cpus[c];
		struct mach_cpu_schedstat *cs = &cpu->sched;
		const uint64_t *t = cpu->time_ns;
		double busy = (double)(t[MACH_CPU_USER] + t[MACH_CPU_NICE] + t[MACH_CPU_SYSTEM] +
				       t[MACH_CPU_SOFTIRQ]);

		cs->sched_count = (uint32_t)(uint64_t)((double)m->ctxt / n * rng_uniform(&s->rng, 0.9, 1.1));
		cs->sched_goidle = u32v(cs->sched_count * rng_uniform(&s->rng, 0.3, 0.5) *
					(1 - busy / (double)s->now));
		cs->ttwu_count = u32v(cs->sched_count * rng_uniform(&s->rng, 0.4, 0.6));
		cs->ttwu_local = u32v(cs->ttwu_count * rng_uniform(&s->rng, 0.4, 0.8));
		cs->yld_count = (uint32_t)rng_below(&s->rng, 1 + cs->sched_count / 1000);
		cs->rq_cpu_time = (uint64_t)busy;
		cs->run_delay = (uint64_t)(busy * pressure * rng_uniform(&s->rng, 0.5, 1.5));
		cs->pcount = cs->sched_count - cs->sched_goidle;
		if (!nlev)
			continue;
		cs->domains = calloc(nlev, sizeof(*cs->domains));
		if (!cs->domains)
			return -ENOMEM;
		cs->ndomains = nlev;
		for (unsigned int d = 0; d < nlev; d++) {
			if (domain_init(s, &cs->domains[d], levels[d]))
				return -ENOMEM;
			domain_span(s, &cs->domains[d], c, groups[d]);
			domain_counts(s, &cs->domains[d], d, cs);
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Interrupts                                                           */

/* An active irq; its count goes to @cpu (bound queue vectors) or mostly CPU 0. */
static void irq_set(struct synth *s, struct mach_irq *irq, unsigned int nr, uint64_t total, int cpu)
{
	irq->irq = nr;
	irq->total = total;
	if (!irq->per_cpu)
		return;
	if (cpu >= 0) {
		irq->per_cpu[cpu] = total;
		return;
	}
	irq->per_cpu[0] = total - total / 8;
	irq->per_cpu[rng_below(&s->rng, s->o->cpus)] += total / 8;
}

/*
 * The x86 irq space: nr_irqs as arch_probe_nr_irqs sizes it for 24 GSIs,
 * legacy ISA irqs, then MSI-X vectors from 24: the block device's admin and
 * per-CPU queues and the NIC's queues, each bound to one CPU.
 */
static int build_irqs(struct synth *s)
{
	struct machine *m = s->m;
	struct rng *r = &s->rng;
	unsigned int n = s->o->cpus, blkq = n < 64 ? n : 64, netq = n < 32 ? n : 32;
	static const unsigned int legacy[] = { 1, 4, 8, 9, 12 };
	double up = (double)s->now / 1e9;
	uint64_t block = 0, net = 0, nr = 408 + 8 * (uint64_t)n;

	m->nr_irqs = (unsigned int)(nr < 256 * (uint64_t)n ? nr : 256 * (uint64_t)n);
	m->nirqs = 5 + 1 + blkq + 1 + netq;
	m->irqs = calloc(m->nirqs, sizeof(*m->irqs));
	if (!m->irqs)
		return -ENOMEM;
	for (unsigned int i = 0; i < m->nirqs; i++) {
		m->irqs[i].per_cpu = calloc(n, sizeof(uint64_t));
		if (!m->irqs[i].per_cpu)
			return -ENOMEM;
	}
	for (unsigned int i = 0; i < 5; i++)
		irq_set(s, &m->irqs[i], legacy[i], 1 + rng_below(r, legacy[i] == 4 ? 4000 : 40), -1);
	/* virtio-blk / nvme: config or admin vector, then one queue per CPU */
	irq_set(s, &m->irqs[5], 24, rng_range(r, 20, 200), -1);
	for (unsigned int q = 0; q < blkq; q++) {
		uint64_t v = (uint64_t)(up * (1 + 400 * s->o->io) * rng_uniform(r, 0.2, 2.0) * 64 / blkq);

		irq_set(s, &m->irqs[6 + q], 25 + q, v + 1, (int)(q * (n / blkq)));
		block += v + 1;
	}
	irq_set(s, &m->irqs[6 + blkq], 25 + blkq, rng_range(r, 1, 10), -1);
	for (unsigned int q = 0; q < netq; q++) {
		uint64_t v = (uint64_t)(up * rng_uniform(r, 2, 200) * s->o->load * 32 / netq) + 1;

		irq_set(s, &m->irqs[7 + blkq + q], 26 + blkq + q, v, (int)(q * (n / netq)));
		net += v;
	}
	/* local timer, rescheduling and function-call IPIs, TLB shootdowns */
	m->intr_arch_extra = (uint64_t)(up * n * (10 + 250 * s->o->load) * rng_uniform(r, 0.8, 1.2));
	m->softirq[0] = rng_below(r, 50);
	m->softirq[1] = (uint64_t)(up * n * rng_uniform(r, 5, 20));
	m->softirq[2] = net / 20 + rng_below(r, 100);
	m->softirq[3] = net + net / 10;
	m->softirq[4] = block;
	m->softirq[5] = 0;
	m->softirq[6] = rng_below(r, 100);
	m->softirq[7] = m->ctxt / 20;
	m->softirq[8] = rng_below(r, 1000);
	m->softirq[9] = (uint64_t)(up * n * rng_uniform(r, 8, 30));
	return 0;
}

/* ------------------------------------------------------------------ */
/* Memory                                                               */

#define MI(id) m->meminfo[MACH_MEMINFO_##id]
#define VM(id) m->vmstat[MACH_VMSTAT_##id]

static uint64_t kb4(double kb)
{
	return kb <= 0 ? 0 : (uint64_t)kb / 4 * 4;
}

/*
 * /proc/meminfo from the tasks' memory and the kernel's own: RAM is sized
 * from the CPU count (and from what the tasks need), what is neither used
 * nor free is page cache, and the LRU lists, slab, commit and direct-map
 * lines keep the kernel's identities.
 */
static void build_meminfo(struct synth *s)
{
	struct machine *m = s->m;
	struct rng *r = &s->rng;
	unsigned int n = s->o->cpus;
	double mem = s->o->mem, up_days = (double)s->now / 86400e9;
	uint64_t phys, total, fixed, left, cache, file_lru, anon_lru, shmem;
	uint64_t kstack = 16 * (s->nr_threads + n), pt = s->sum.pte + 4 * n;
	uint64_t sunreclaim = kb4(20000.0 + 600.0 * n + 6.0 * (double)s->nr_threads + 4.0 * (double)m->nprocs);
	uint64_t percpu = 344 * (uint64_t)n + 4 * rng_below(r, 32);
	/* distinct shared memory: the postgres/nginx segments are shared by their processes */
	uint64_t shm_tmpfs = kb4(rng_uniform(r, 2000, 40000));
	uint64_t need;

	shmem = kb4((double)s->sum.shmem * rng_uniform(r, 0.1, 0.3)) + shm_tmpfs;
	fixed = s->sum.anon + shmem + kstack + pt + sunreclaim + percpu;
	need = (uint64_t)((double)fixed / (0.6 - 0.4 * (mem > 1 ? 1 : mem)));
	phys = (uint64_t)(n * s->per_cpu_gib) << 20;
	if (phys < need)
		phys = (need + (1u << 20) - 1) >> 20 << 20;
	total = kb4((double)phys * (1 - rng_uniform(r, 0.015, 0.03)));
	MI(MEMTOTAL) = total;

	left = total - fixed;
	{
		double cf = rng_uniform(r, 0.1, 0.35) + 0.1 * (up_days > 3 ? 1 : up_days / 3) + 2 * mem;

		cache = (uint64_t)((double)left * (cf > 0.97 ? 0.97 : cf));
	}
	MI(BUFFERS) = kb4((double)cache * rng_uniform(r, 0.003, 0.02));
	MI(SRECLAIMABLE) = kb4((double)cache * rng_uniform(r, 0.03, 0.08));
	MI(SUNRECLAIM) = sunreclaim;
	MI(SLAB) = MI(SRECLAIMABLE) + MI(SUNRECLAIM);
	MI(KRECLAIMABLE) = MI(SRECLAIMABLE);
	MI(SHMEM) = shmem;
	MI(CACHED) = kb4((double)(cache - MI(BUFFERS) - MI(SRECLAIMABLE))) + shmem;
	MI(MEMFREE) = total - fixed - (MI(CACHED) - shmem) - MI(BUFFERS) - MI(SRECLAIMABLE);
	MI(ANONPAGES) = s->sum.anon;
	MI(MLOCKED) = s->sum.lck_res;
	MI(UNEVICTABLE) = MI(MLOCKED);
	MI(KERNELSTACK) = kstack;
	MI(PAGETABLES) = pt;
	MI(PERCPU) = percpu;

	/* the file LRU holds the page cache but shmem, which sits on the anon LRU */
	file_lru = MI(CACHED) + MI(BUFFERS) - shmem;
	anon_lru = MI(ANONPAGES) + shmem - (MI(UNEVICTABLE) < MI(ANONPAGES) ? MI(UNEVICTABLE) : MI(ANONPAGES));
	MI(ACTIVE_ANON) = kb4((double)anon_lru * rng_uniform(r, 0.05, 0.6));
	MI(INACTIVE_ANON) = anon_lru - MI(ACTIVE_ANON);
	MI(ACTIVE_FILE) = kb4((double)file_lru * rng_uniform(r, 0.3, 0.6));
	MI(INACTIVE_FILE) = file_lru - MI(ACTIVE_FILE);
	MI(ACTIVE) = MI(ACTIVE_ANON) + MI(ACTIVE_FILE);
	MI(INACTIVE) = MI(INACTIVE_ANON) + MI(INACTIVE_FILE);
	MI(MEMAVAILABLE) = MI(MEMFREE) + kb4((double)file_lru * 0.9) + kb4((double)MI(SRECLAIMABLE) * 0.5);
	if (MI(MEMAVAILABLE) > total)
		MI(MEMAVAILABLE) = total;

	/* mapped file pages: libraries are shared by every process mapping them */
	MI(MAPPED) = kb4((double)s->sum.file / (m->nprocs < 20 ? 2 : 10) + (double)shmem * 0.8);
	if (MI(MAPPED) > MI(CACHED))
		MI(MAPPED) = MI(CACHED);
	MI(DIRTY) = kb4((double)(MI(CACHED) - shmem) * rng_uniform(r, 0.0002, 0.003) * (1 + 20 * s->o->io));
	MI(WRITEBACK) = rng_chance(r, 0.3 + s->o->io) ? kb4((double)MI(DIRTY) * rng_uniform(r, 0, 0.2)) : 0;

	if (s->sum.swap || rng_chance(r, 0.5)) {
		uint64_t swap_gib = (uint64_t)(s->per_cpu_gib * n / 4);

		MI(SWAPTOTAL) = (swap_gib ? swap_gib : 1) << 20;
		while (MI(SWAPTOTAL) < s->sum.swap * 5 / 4)
			MI(SWAPTOTAL) *= 2;
		MI(SWAPFREE) = MI(SWAPTOTAL) - s->sum.swap - kb4((double)s->sum.swap * rng_uniform(r, 0, 0.1));
		MI(SWAPCACHED) = kb4((double)s->sum.swap * rng_uniform(r, 0, 0.05));
	}
	MI(COMMITLIMIT) = total / 4 * 50 / 100 * 4 + MI(SWAPTOTAL);
	MI(COMMITTED_AS) = kb4((double)MI(ANONPAGES) * rng_uniform(r, 1.2, 1.6) +
			       (double)s->sum.data * rng_uniform(r, 0.05, 0.2)) + shmem;
	MI(VMALLOCTOTAL) = 34359738367ull;
	MI(VMALLOCUSED) = kstack + 12000 + 400 * (uint64_t)n;
	MI(ANONHUGEPAGES) = (uint64_t)((double)MI(ANONPAGES) * rng_uniform(r, 0, 0.15)) / 2048 * 2048;
	MI(HUGEPAGESIZE) = 2048;
	/* the direct map covers all of RAM: a few 4k pages, the rest 2M */
	MI(DIRECTMAP4K) = 2048 * rng_range(r, 8, 120);
	MI(DIRECTMAP2M) = phys - MI(DIRECTMAP4K);
}

/* /proc/vmstat: the page counts meminfo shows, and event counts since boot. */
static void build_vmstat(struct synth *s)
{
	struct machine *m = s->m;
	struct rng *r = &s->rng;
	double up = (double)s->now / 1e9, io = s->o->io, mem = s->o->mem;
	uint64_t phys_pages = (MI(DIRECTMAP4K) + MI(DIRECTMAP2M)) / 4;
	uint64_t alloc, dirtyable;

	VM(NR_FREE_PAGES) = MI(MEMFREE) / 4;
	VM(NR_FREE_PAGES_BLOCKS) = (uint64_t)((double)VM(NR_FREE_PAGES) * rng_uniform(r, 0.85, 0.95)) / 512 * 512;
	VM(NR_INACTIVE_ANON) = VM(NR_ZONE_INACTIVE_ANON) = MI(INACTIVE_ANON) / 4;
	VM(NR_ACTIVE_ANON) = VM(NR_ZONE_ACTIVE_ANON) = MI(ACTIVE_ANON) / 4;
	VM(NR_INACTIVE_FILE) = VM(NR_ZONE_INACTIVE_FILE) = MI(INACTIVE_FILE) / 4;
	VM(NR_ACTIVE_FILE) = VM(NR_ZONE_ACTIVE_FILE) = MI(ACTIVE_FILE) / 4;
	VM(NR_UNEVICTABLE) = VM(NR_ZONE_UNEVICTABLE) = MI(UNEVICTABLE) / 4;
	VM(NR_MLOCK) = MI(MLOCKED) / 4;
	VM(NR_DIRTY) = MI(DIRTY) / 4;
	VM(NR_WRITEBACK) = MI(WRITEBACK) / 4;
	VM(NR_ZONE_WRITE_PENDING) = VM(NR_DIRTY) + VM(NR_WRITEBACK);
	VM(NR_SLAB_RECLAIMABLE) = MI(SRECLAIMABLE) / 4;
	VM(NR_SLAB_UNRECLAIMABLE) = MI(SUNRECLAIM) / 4;
	VM(NR_ANON_PAGES) = MI(ANONPAGES) / 4;
	VM(NR_MAPPED) = MI(MAPPED) / 4;
	VM(NR_FILE_PAGES) = (MI(CACHED) + MI(BUFFERS) + MI(SWAPCACHED)) / 4;
	VM(NR_SHMEM) = MI(SHMEM) / 4;
	VM(NR_ANON_TRANSPARENT_HUGEPAGES) = MI(ANONHUGEPAGES) / 2048;
	VM(NR_KERNEL_STACK) = MI(KERNELSTACK); /* NR_KERNEL_STACK_KB: already in kB */
	VM(NR_PAGE_TABLE_PAGES) = MI(PAGETABLES) / 4;
	VM(NR_SWAPCACHED) = MI(SWAPCACHED) / 4;
	VM(WORKINGSET_NODES) = (VM(NR_INACTIVE_FILE) + VM(NR_ACTIVE_FILE)) / 64;
	VM(WORKINGSET_REFAULT_FILE) = (uint64_t)(up * io * rng_uniform(r, 5, 100));
	VM(WORKINGSET_ACTIVATE_FILE) = VM(WORKINGSET_REFAULT_FILE) / 4;
	if (MI(SWAPTOTAL) > MI(SWAPFREE)) {
		VM(WORKINGSET_REFAULT_ANON) = (uint64_t)(up * mem * rng_uniform(r, 1, 20));
		VM(WORKINGSET_ACTIVATE_ANON) = VM(WORKINGSET_REFAULT_ANON) / 3;
		VM(PSWPOUT) = (MI(SWAPTOTAL) - MI(SWAPFREE)) / 4 + VM(WORKINGSET_REFAULT_ANON);
		VM(PSWPIN) = VM(WORKINGSET_REFAULT_ANON);
	}
	VM(NR_DIRTIED) = (uint64_t)(up * (5 + 2000 * io) * rng_uniform(r, 0.5, 1.5)) + VM(NR_DIRTY);
	VM(NR_WRITTEN) = VM(NR_DIRTIED) - VM(NR_DIRTY) - VM(NR_WRITEBACK);
	VM(NR_VMSCAN_IMMEDIATE_RECLAIM) = (uint64_t)(up * mem * rng_uniform(r, 0, 2));
	VM(NR_FOLL_PIN_ACQUIRED) = VM(NR_FOLL_PIN_RELEASED) = (uint64_t)(up * io * rng_uniform(r, 10, 100));
	dirtyable = VM(NR_FREE_PAGES) + VM(NR_INACTIVE_FILE) + VM(NR_ACTIVE_FILE);
	VM(NR_DIRTY_THRESHOLD) = dirtyable / 5;
	VM(NR_DIRTY_BACKGROUND_THRESHOLD) = dirtyable / 10;
	VM(NR_MEMMAP_BOOT_PAGES) = phys_pages / 64; /* 64-byte struct page per 4k page */
	VM(PGPGIN) = (uint64_t)(up * (20 + 8000 * io) * rng_uniform(r, 0.5, 1.5)) + MI(CACHED) / 2;
	VM(PGPGOUT) = VM(NR_WRITTEN) * 4 + (uint64_t)(up * rng_uniform(r, 1, 20));
	VM(PGFAULT) = (uint64_t)((double)s->sum.minflt * rng_uniform(r, 1.3, 3.0)) + s->sum.majflt;
	VM(PGMAJFAULT) = (uint64_t)((double)s->sum.majflt * rng_uniform(r, 1.2, 2.0)) +
			 (uint64_t)(up * io * rng_uniform(r, 0, 5));
	alloc = VM(PGFAULT) + VM(PGPGIN) / 4 + (uint64_t)(up * m->ncpus * rng_uniform(r, 50, 500));
	VM(PGALLOC_DMA32) = alloc / 100;
	VM(PGALLOC_NORMAL) = alloc - VM(PGALLOC_DMA32);
	VM(NUMA_HIT) = alloc;
	VM(NUMA_LOCAL) = s->nnodes > 1 ? alloc - alloc / 20 : alloc;
	VM(NUMA_OTHER) = VM(NUMA_HIT) - VM(NUMA_LOCAL);
	VM(NUMA_INTERLEAVE) = rng_range(r, 500, 3000);
	if (s->nnodes > 1) {
		VM(NUMA_MISS) = VM(NUMA_FOREIGN) = alloc / 200;
		VM(NUMA_PTE_UPDATES) = (uint64_t)(up * rng_uniform(r, 10, 500));
		VM(NUMA_HINT_FAULTS) = VM(NUMA_PTE_UPDATES) / 2;
		VM(NUMA_HINT_FAULTS_LOCAL) = VM(NUMA_HINT_FAULTS) * 9 / 10;
		VM(NUMA_PAGES_MIGRATED) = VM(NUMA_HINT_FAULTS) / 20;
		VM(PGMIGRATE_SUCCESS) = VM(NUMA_PAGES_MIGRATED);
	}
	VM(PGFREE) = alloc + VM(NR_FREE_PAGES) + VM(NR_FREE_PAGES) / 8;
	VM(PGACTIVATE) = (uint64_t)((double)alloc * rng_uniform(r, 0.01, 0.05));
	VM(PGREUSE) = (uint64_t)((double)VM(PGFAULT) * rng_uniform(r, 0.05, 0.15));
	VM(PGROTATED) = (uint64_t)(up * io * rng_uniform(r, 0, 5));
	if (mem > 0.01) {
		/* reclaim under memory pressure */
		uint64_t scan = (uint64_t)(up * mem * rng_uniform(r, 50, 2000));

		VM(PGSCAN_KSWAPD) = scan;
		VM(PGSCAN_DIRECT) = (uint64_t)((double)scan * mem);
		VM(PGSTEAL_KSWAPD) = VM(PGSCAN_KSWAPD) * 4 / 5;
		VM(PGSTEAL_DIRECT) = VM(PGSCAN_DIRECT) * 3 / 5;
		VM(PGSCAN_ANON) = (VM(PGSCAN_KSWAPD) + VM(PGSCAN_DIRECT)) / 5;
		VM(PGSCAN_FILE) = VM(PGSCAN_KSWAPD) + VM(PGSCAN_DIRECT) - VM(PGSCAN_ANON);
		VM(PGSTEAL_ANON) = (VM(PGSTEAL_KSWAPD) + VM(PGSTEAL_DIRECT)) / 6;
		VM(PGSTEAL_FILE) = VM(PGSTEAL_KSWAPD) + VM(PGSTEAL_DIRECT) - VM(PGSTEAL_ANON);
		VM(PGDEACTIVATE) = scan / 3;
		VM(PGREFILL) = scan / 2;
		VM(ALLOCSTALL_NORMAL) = (uint64_t)(up * mem * mem * rng_uniform(r, 0, 2));
		VM(SLABS_SCANNED) = scan / 4;
		VM(KSWAPD_INODESTEAL) = scan / 100;
		VM(KSWAPD_LOW_WMARK_HIT_QUICKLY) = scan / 1000;
		VM(KSWAPD_HIGH_WMARK_HIT_QUICKLY) = scan / 2000;
		VM(PAGEOUTRUN) = scan / 500 + 1;
		VM(COMPACT_STALL) = VM(ALLOCSTALL_NORMAL) / 2;
		VM(COMPACT_FAIL) = VM(COMPACT_STALL) / 3;
		VM(COMPACT_SUCCESS) = VM(COMPACT_STALL) - VM(COMPACT_FAIL);
		VM(COMPACT_DAEMON_WAKE) = scan / 800;
		VM(OOM_KILL) = mem > 0.5 ? rng_range(r, 1, 5) : 0;
	} else {
		VM(SLABS_SCANNED) = rng_below(r, 1000);
	}
	VM(UNEVICTABLE_PGS_CULLED) = VM(NR_MLOCK) + rng_below(r, 20000);
	VM(UNEVICTABLE_PGS_MLOCKED) = VM(NR_MLOCK) + rng_below(r, 20000);
	VM(UNEVICTABLE_PGS_MUNLOCKED) = VM(UNEVICTABLE_PGS_MLOCKED) - VM(NR_MLOCK);
	VM(UNEVICTABLE_PGS_RESCUED) = VM(UNEVICTABLE_PGS_MUNLOCKED);
	VM(THP_FAULT_ALLOC) = VM(NR_ANON_TRANSPARENT_HUGEPAGES) + rng_below(r, 2000);
	VM(THP_FAULT_FALLBACK) = rng_below(r, 50);
	VM(THP_COLLAPSE_ALLOC) = rng_below(r, 100);
	VM(THP_SPLIT_PMD) = rng_below(r, 200);
	VM(THP_DEFERRED_SPLIT_PAGE) = rng_below(r, 300);
	VM(DIRECT_MAP_LEVEL2_SPLITS) = rng_range(r, 1, 200);
	VM(DIRECT_MAP_LEVEL3_SPLITS) = rng_below(r, 3);
}

/* ------------------------------------------------------------------ */
/* Load and pressure                                                    */

static unsigned long fixed_pt(double v)
{
	return v <= 0 ? 0 : (unsigned long)(v * MACH_FIXED_1 + 0.5);
}

/*
 * Load averages: runnable plus uninterruptible tasks, about load x CPUs,
 * the longer windows smoothed toward it.  Pressure: io and mem are the
 * shares of time some task stalled (full: all non-idle tasks), CPU
 * pressure grows with the load; the system-level cpu "full" line is zero,
 * as the kernel forces it.  Totals (microseconds) never exceed the uptime.
 */
static void build_load(struct synth *s)
{
	struct machine *m = s->m;
	struct rng *r = &s->rng;
	double n = s->o->cpus, l1, up_us = (double)s->now / 1e3;
	double share[MACH_NR_PSI_RES] = {
		[MACH_PSI_IO] = s->o->io,
		[MACH_PSI_MEM] = s->o->mem,
		[MACH_PSI_CPU] = s->o->load > 0.3 ? (s->o->load - 0.3) * 0.5 : s->o->load * 0.01,
	};

	l1 = s->o->load * n * rng_uniform(r, 0.6, 1.3) + (double)s->nr_blocked + s->o->io * n * 0.2;
	m->avenrun[0] = fixed_pt(l1);
	m->avenrun[1] = fixed_pt(l1 * rng_uniform(r, 0.75, 1.2));
	m->avenrun[2] = fixed_pt(l1 * rng_uniform(r, 0.7, 1.15));
	m->nr_running = m->procs_running = (unsigned int)s->nr_running;
	m->procs_blocked = (unsigned int)s->nr_blocked;
	m->nr_threads = (unsigned int)s->nr_threads;

	for (int res = 0; res < MACH_NR_PSI_RES; res++) {
		struct mach_pressure *p = &m->pressure[res];
		double some = share[res] * 100, full_f = res == MACH_PSI_MEM ? 0.8 : 0.5;

		if (res == MACH_PSI_IRQ)
			continue; /* no CONFIG_IRQ_TIME_ACCOUNTING: no pressure/irq */
		p->present = p->has_some = p->has_full = true;
		for (int w = 0; w < 3; w++) {
			double v = some * rng_uniform(r, 0.5, 1.5);

			v = v > 100 ? 100 : v;
			p->some.avg[w] = fixed_pt(v);
			if (res != MACH_PSI_CPU)
				p->full.avg[w] = fixed_pt(v * full_f * rng_uniform(r, 0.7, 1.0));
		}
		p->some.total_us = (uint64_t)(up_us * (share[res] > 1 ? 1 : share[res]) * rng_uniform(r, 0.3, 0.9));
		if (res != MACH_PSI_CPU)
			p->full.total_us = (uint64_t)((double)p->some.total_us * full_f * rng_uniform(r, 0.5, 1.0));
	}
}

/* ------------------------------------------------------------------ */
/* The build                                                            */

#define BUILD_BLOCK 512          /* processes handed to a worker at a time */
#define BUILD_MAX_WORKERS 8
#define BUILD_PARALLEL_MIN 20000 /* below this, threads cost more than they save */

/*
 * One builder of processes.  Each has its own copy of the generator state:
 * the shared parts are pointers (the machine, the plan) or read-only
 * arrays, and the scratch buffers and sums are its own.  Workers take
 * blocks of indices from a shared counter; every process draws only from
 * its own random streams, so the result does not depend on which worker
 * built it, nor on how many there were.
 */
struct builder {
	struct synth s;
	atomic_size_t *next;
	int rc;
	bool started;
	pthread_t thread;
};

static void *build_worker(void *arg)
{
	struct builder *b = arg;
	struct synth *s = &b->s;
	size_t n = s->m->nprocs, first;

	while (!b->rc && (first = atomic_fetch_add(b->next, BUILD_BLOCK)) < n) {
		for (size_t i = first; i < n && i < first + BUILD_BLOCK && !b->rc; i++)
			b->rc = s->gen[i].kind == G_KTHREAD ? build_kthread(s, i) : build_user(s, i);
		if (b->rc)
			atomic_store(b->next, n); /* stop the others early */
	}
	return NULL;
}

/* Add a worker's sums into the generator's, in worker order (exact integer sums). */
static void merge_sums(struct synth_sums *sum, const struct synth_sums *w)
{
	sum->anon += w->anon;
	sum->file += w->file;
	sum->shmem += w->shmem;
	sum->pte += w->pte;
	sum->data += w->data;
	sum->swap += w->swap;
	sum->lck += w->lck;
	sum->lck_res += w->lck_res;
	sum->minflt += w->minflt;
	sum->majflt += w->majflt;
	sum->raw_user += w->raw_user;
	sum->raw_sys += w->raw_sys;
}

/*
 * Build every planned process, on several threads for large machines (the
 * work is allocation-bound, and page faults run in parallel).  When a
 * thread cannot be started, the calling thread does its share.
 */
static int build_tasks(struct synth *s)
{
	struct machine *m = s->m;
	struct builder *b;
	atomic_size_t next = 0;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int nw = m->nprocs < BUILD_PARALLEL_MIN || online < 2 ? 1 :
			  online > BUILD_MAX_WORKERS ? BUILD_MAX_WORKERS : (unsigned int)online;
	int rc = 0;

	b = calloc(nw, sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (unsigned int w = 0; w < nw; w++) {
		b[w].s = *s;
		b[w].s.vb = NULL;
		b[w].s.vn = b[w].s.vcap = 0;
		b[w].s.sum = (struct synth_sums){ 0 };
		b[w].next = &next;
	}
	for (unsigned int w = 1; w < nw; w++)
		b[w].started = !pthread_create(&b[w].thread, NULL, build_worker, &b[w]);
	/* the calling thread works too, and takes over the share of threads that did not start */
	build_worker(&b[0]);
	for (unsigned int w = 0; w < nw; w++) {
		if (b[w].started)
			pthread_join(b[w].thread, NULL);
		else if (w)
			build_worker(&b[w]);
		if (!rc)
			rc = b[w].rc;
		sy_vb_drop(&b[w].s);
		free(b[w].s.vb);
		merge_sums(&s->sum, &b[w].s.sum);
	}
	free(b);
	if (rc)
		return rc;
	for (size_t i = 0; i < m->nprocs; i++) {
		struct mach_process *p = &m->procs[i];

		s->nr_threads += p->nthreads;
		for (unsigned int j = 0; j < p->nthreads; j++) {
			s->nr_running += p->threads[j].state == MACH_TASK_RUNNING;
			s->nr_blocked += p->threads[j].state == MACH_TASK_DISK_SLEEP;
		}
	}
	return 0;
}

/* RLIMIT_SIGPENDING defaults to max_threads / 2, which follows RAM. */
static void set_sigq_limit(struct synth *s)
{
	struct machine *m = s->m;
	uint64_t limit = m->meminfo[MACH_MEMINFO_MEMTOTAL] / 4 / 64;

	for (size_t i = 0; i < m->nprocs; i++)
		m->procs[i].sigq_limit = limit;
}

int mach_synth_build(const struct mach_synth_opts *o, struct machine **out, char *err, size_t errlen)
{
	struct synth s;
	uint64_t ids = (uint64_t)o->tasks + o->threads;
	int rc;

	*out = NULL;
	if (o->cpus < 1 || o->cpus > SYNTH_MAX_CPUS || o->tasks < 1 || o->tasks > SYNTH_MAX_TASKS ||
	    o->threads > SYNTH_MAX_THREADS || o->depth > SYNTH_MAX_DEPTH || !(o->load >= 0 && o->load <= 1) ||
	    !(o->io >= 0 && o->io <= 1) || !(o->mem >= 0 && o->mem <= 1)) {
		snprintf(err, errlen, "synth: option out of range");
		return -EINVAL;
	}
	/* every task needs a pid below the synthetic limit, with room for the gaps of boot */
	if (ids > SYNTH_PID_TOP - SYNTH_PID_SLACK - 100000) {
		snprintf(err, errlen, "synth: tasks + threads = %llu exceeds the %d pids a synthetic machine numbers",
			 (unsigned long long)ids, SYNTH_PID_TOP);
		return -EINVAL;
	}
	memset(&s, 0, sizeof(s));
	s.o = o;
	s.m = mach_new();
	if (!s.m) {
		rc = -ENOMEM;
		goto fail;
	}
	rng_init(&s.rng, o->seed, 1);
	sy_init_names(&s);
	build_clock(&s);
	build_topology(&s);
	if ((rc = build_cpus(&s)) || (rc = sy_plan(&s)) || (rc = build_tasks(&s)))
		goto fail;
	fit_task_times(&s);
	if ((rc = build_schedstat(&s)) || (rc = build_irqs(&s)))
		goto fail;
	build_meminfo(&s);
	set_sigq_limit(&s);
	build_vmstat(&s);
	build_load(&s);
	for (size_t i = 0; i < s.m->nprocs; i++)
		s.m->procs[i].nr_threads = s.m->procs[i].nthreads; /* a complete model */
	free(s.vb);
	free(s.gen);
	free(s.user_seen);
	*out = s.m;
	return 0;
fail:
	sy_vb_drop(&s);
	free(s.vb);
	free(s.gen);
	free(s.user_seen);
	mach_free(s.m);
	snprintf(err, errlen, "synth: %s", rc == -ENOMEM ? "out of memory" : strerror(-rc));
	return rc;
}
