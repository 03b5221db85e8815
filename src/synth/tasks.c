// SPDX-License-Identifier: MIT
/*
 * tasks.c - the processes and threads of the plan: ids, names, states,
 * credentials, signal and CPU masks, the mm of user processes, and times,
 * faults and context switches; then the times fitted into the CPUs'.
 *
 * A process draws only from its own streams (keyed by its plan index, and
 * its layout root for the mm), so processes can be built in any order, on
 * any number of threads, with the same result.  CPU time is drawn as raw
 * demand, a share of the lifetime, because only once every task is built
 * is it known how much the CPUs' totals leave for the tasks alive now.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_int.h"
#include "synth_int.h"

/* Capability sets of the live machine: root lacks CAP_SYS_RESOURCE there. */
#define CAPS_ROOT 0x000001fffeffffffull
#define CAPS_KTHREAD 0x000001ffffffffffull

#define SIGCHLD_NR 17
#define SIGSTOP_NR 19

int sy_share_masks(struct synth *s)
{
	struct mach_machine *m = s->m;
	size_t cw = (m->nr_cpu_ids + 63) / 64, nw = (m->max_numnodes + 63) / 64, n = cw + nw + s->o->cpus * cw;
	struct mach_bitmap cpus, nodes;

	if (!(m->shared_masks = calloc(n ? n : 1, sizeof(uint64_t))))
		return -ENOMEM;
	s->all_cpus = m->shared_masks;
	s->all_nodes = m->shared_masks + cw;
	s->one_cpu = s->all_nodes + nw;
	for (unsigned int c = 0; c < s->o->cpus; c++)
		s->one_cpu[c * cw + c / 64] = 1ull << (c % 64);
	cpus = (struct mach_bitmap){ .words = s->all_cpus, .nbits = m->nr_cpu_ids };
	nodes = (struct mach_bitmap){ .words = s->all_nodes, .nbits = m->max_numnodes };
	sy_bitmap_set_range(&cpus, 0, s->o->cpus);
	sy_bitmap_set_range(&nodes, 0, s->nnodes);
	return 0;
}

/* Allowed CPUs (one, or all) and memory nodes (all online nodes): the machine's shared masks. */
static int thread_masks(struct synth *s, struct mach_thread *t, int pinned)
{
	size_t cw = (s->m->nr_cpu_ids + 63) / 64;

	t->mems_allowed = (struct mach_bitmap){ .words = s->all_nodes, .nbits = s->m->max_numnodes, .borrowed = true };
	if (pinned < 0) {
		t->cpus_allowed = (struct mach_bitmap){ .words = s->all_cpus, .nbits = s->m->nr_cpu_ids, .borrowed = true };
		return 0;
	}
	/* the per-CPU kthreads: 23,000 at 4,096 CPUs, 512 bytes each when every one had its own */
	if ((unsigned int)pinned < s->o->cpus) {
		t->cpus_allowed = (struct mach_bitmap){ .words = s->one_cpu + (size_t)pinned * cw,
							.nbits = s->m->nr_cpu_ids, .borrowed = true };
		return 0;
	}
	if (mach_bitmap_alloc(&t->cpus_allowed, s->m->nr_cpu_ids))
		return -ENOMEM;
	mach_bitmap_set(&t->cpus_allowed, (unsigned int)pinned);
	return 0;
}

/* Supplementary groups by account, into @tmp (room for 8): the first user administers the box. */
static unsigned int user_groups(uint32_t tmp[8], uint32_t uid)
{
	static const uint32_t admin[] = { 4, 24, 27, 30, 46, 100 };
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
	return n;
}

/* Voluntary switches: wakeups over a lifetime at a per-task rate. */
static uint64_t wakeups(struct rng *r, uint64_t life_ns, double rate_lo, double rate_hi)
{
	return (uint64_t)((double)life_ns / 1e9 * rng_logu(r, rate_lo, rate_hi));
}

/* ------------------------------------------------------------------ */
/* User processes                                                       */

/* What the threads of one user process share while they are built. */
struct user_task {
	struct synth *s;
	size_t idx;                /* its plan index */
	struct mach_process *p;
	const struct gen *g;
	const struct prog *pg;
	struct rng r;              /* the process's own stream */
	unsigned int nnames;       /* thread names in pg->tnames */
	int pinned;                /* the CPU taskset pinned it to, or -1 */
	int status;                /* a zombie's exit status */
	double rho;                /* how busy it is: share of its lifetime on a CPU */
	bool zombie, stopped;
};

/* Its layout stream is its layout root's, so forked workers share their master's addresses. */
static void user_layout(struct synth *s, struct user_task *u, struct layout *L)
{
	memset(L, 0, sizeof(*L));
	rng_init(&L->lr, s->o->seed, KEY_LAYOUT + u->g->lroot);
	L->r = &u->r;
	L->pg = u->pg;
	L->g = u->g;
	L->pid = u->p->tgid;
	L->nthreads = u->p->nthreads;
	L->start_ns = sy_pid_start_ns(s, u->p->tgid);
	L->anon_kb = kb_pages((double)u->pg->anon_kb * rng_logu(&u->r, 0.5, 2.0));
}

/*
 * What a user process is and draws before its mm: its program, its own
 * stream, its layout, the CPU it is pinned to.  sy_replay_mm goes through
 * the same steps, so the mm draws the same numbers both times.
 */
static void user_begin(struct synth *s, struct user_task *u, struct layout *L)
{
	u->pg = &sy_progs[u->g->prog];
	u->zombie = u->g->state == MACH_TASK_ZOMBIE;
	u->stopped = u->g->state == MACH_TASK_STOPPED;
	rng_init(&u->r, s->o->seed, KEY_TASK + u->idx);
	user_layout(s, u, L);
	if (u->g->flags & GF_PINNED)
		u->pinned = (int)rng_below(&u->r, s->o->cpus);
}

int sy_replay_mm(struct synth *s, size_t idx, pid_t tgid, unsigned int nthreads, struct mach_mm *scratch)
{
	struct mach_process p = { .tgid = tgid, .nthreads = nthreads };
	struct user_task u = { .s = s, .idx = idx, .p = &p, .g = &s->gen[idx], .pinned = -1 };
	struct layout L;
	int rc;

	user_begin(s, &u, &L);
	L.mm = scratch;
	if ((rc = sy_build_mm(s, &L)))
		return rc;
	sy_mm_swap_thp(scratch, u.pg->flags & PR_JAVA);
	return 0;
}

/* Process-wide fields: signal dispositions and exit state. */
static void user_process(struct user_task *u)
{
	struct mach_process *p = u->p;

	p->sig_ignored = u->pg->ign;
	p->sig_caught = u->zombie ? 0 : u->pg->cgt;
	p->exit_signal = SIGCHLD_NR;
	if (u->stopped)
		p->exit_code = SIGSTOP_NR;
	if (u->zombie) {
		u->status = rng_chance(&u->r, 0.7) ? 0 : (int)rng_range(&u->r, 1, 2) << 8;
		p->exit_code = u->status;
	}
}

/* The mm, some of it swapped out under memory pressure, and its part of the sums. */
static int user_mm(struct synth *s, struct user_task *u, struct layout *L)
{
	struct mach_mm *mm;
	int rc = sy_build_mm(s, L);

	mm = u->p->mm = L->mm;
	if (rc)
		return rc;
	if (s->o->mem > 0.05 && rng_chance(&u->r, s->o->mem))
		mm->vm_swap = kb_pages((double)mm->rss_anon * rng_uniform(&u->r, 0, s->o->mem));
	s->sum.thp += sy_mm_swap_thp(mm, u->pg->flags & PR_JAVA);
	s->sum.anon += mm->rss_anon;
	s->sum.file += mm->rss_file;
	s->sum.shmem += mm->rss_shmem;
	s->sum.pte += mm->vm_pte;
	s->sum.data += mm->vm_data + mm->vm_stk;
	s->sum.swap += mm->vm_swap;
	if (mm->vm_lck) {
		s->sum.lck += mm->vm_lck;
		s->sum.lck_res += mm->vm_rss;
	}
	return 0;
}

/* Thread @j's name, state and credentials: what `ps` shows of it before any number. */
static int user_thread_identity(struct user_task *u, struct mach_thread *t, unsigned int j)
{
	const struct gen *g = u->g;
	const struct prog *pg = u->pg;
	const struct mach_process *p = u->p;
	struct mach_cred cr = { 0 };
	uint32_t groups[8];
	char name[16];
	bool running;
	int rc;

	t->tid = p->tgid + (pid_t)j;
	if (j == 0 || !pg->tnames) {
		snprintf(name, 16, "%s", pg->comm);
	} else {
		const char *e, *c = sy_nth_field(pg->tnames, '|', u->nnames, j - 1, &e);

		snprintf(name, 16, "%.*s", (int)(e - c), c);
	}
	if (!(t->comm = sy_intern_str(u->s, name)))
		return -ENOMEM;
	/* the leader of a pool waits; its workers are the ones on a CPU */
	running = p->nthreads == 1 || g->nrun >= p->nthreads ? j < g->nrun : j >= 1 && j <= g->nrun;
	t->state = j == 0 ? g->state : u->stopped ? MACH_TASK_STOPPED : MACH_TASK_SLEEPING;
	if (running)
		t->state = MACH_TASK_RUNNING;
	t->umask = u->zombie ? -1 : g->prog == P_SYSTEMD ? 0 :
		   (g->uid >= UID_FIRST_USER && g->uid % 3 == 0) ? 002 : 022;
	for (int k = 0; k < 4; k++) {
		cr.uid[k] = g->uid;
		cr.gid[k] = g->uid == UID_SYSLOG ? 4 : g->uid;
	}
	if ((rc = sy_thread_ns(u->s, u->idx, p, t, j)))
		return rc;
	t->sig_blocked = pg->blk;
	if (g->uid == UID_ROOT)
		cr.cap_prm = cr.cap_eff = CAPS_ROOT;
	cr.cap_bnd = pg->capbnd ? pg->capbnd : CAPS_ROOT;
	if (pg->flags & PR_SECCOMP) {
		cr.no_new_privs = true;
		cr.seccomp_mode = 2;
		cr.seccomp_filters = 4;
	}
	cr.ssb = MACH_SSB_VULNERABLE;
	cr.sib = MACH_SIB_ALWAYS_ENABLED;
	cr.ngroups = user_groups(groups, g->uid);
	cr.groups = groups;
	return sy_thread_cred(u->s, t, &cr);
}

/* task->flags: a zombie's leader shows how it died, other threads that they never exec'd. */
static unsigned int user_pf_flags(const struct user_task *u, unsigned int j)
{
	bool forked = u->pg->flags & PR_FORKED;

	if (j)
		return PF_RANDOMIZE | PF_FORKNOEXEC;
	if (u->zombie)
		return PF_RANDOMIZE | PF_NOFREEZE | PF_POSTCOREDUMP | PF_EXITING |
		       (forked ? PF_FORKNOEXEC : 0);
	return PF_RANDOMIZE | (forked ? PF_FORKNOEXEC : 0) |
	       (u->g->uid == UID_ROOT && (u->pg->flags & PR_SUPER) ? PF_SUPERPRIV : 0);
}

/* Start time and raw CPU demand of thread @j, in *@raw; returns its lifetime. */
static uint64_t user_thread_times(struct synth *s, struct user_task *u, struct mach_thread *t,
				  unsigned int j, uint64_t *raw)
{
	struct rng *r = &u->r;
	uint64_t life;

	t->start_time_ns = sy_pid_start_ns(s, t->tid);
	if ((u->g->flags & GF_READER) && s->now > 50000000u) {
		/* the reader started a moment ago: the newest pid, a few ms of CPU */
		t->start_time_ns = s->now - 20000000u - rng_below(r, 30000000u);
	}
	life = s->now - t->start_time_ns;
	/* the main thread of a thread pool mostly waits for its workers */
	*raw = (uint64_t)((double)life * u->rho * (u->p->nthreads > 1 ? (j ? rng_uniform(r, 0.1, 1.0) :
								      rng_uniform(r, 0.01, 0.2)) : 1.0));
	if (u->zombie)
		*raw = (uint64_t)((double)*raw * 0.01);
	t->utime_ns = (uint64_t)((double)*raw * u->pg->ushare * rng_uniform(r, 0.85, 1.0));
	t->stime_ns = *raw - t->utime_ns;
	s->sum.raw_user += t->utime_ns;
	s->sum.raw_sys += t->stime_ns;
	return life;
}

/* Nice 19 or SCHED_RR 99 where the program asks for it. */
static void user_thread_sched(const struct prog *pg, struct mach_thread *t)
{
	if (pg->flags & PR_NICE)
		t->nice = 19;
	t->priority = 20 + t->nice;
	if (pg->flags & PR_RT) {
		t->policy = 2;
		t->rt_priority = 99;
		t->priority = -100;
	}
}

/* Page faults: the leader faulted the mm in (and more with its CPU time), the others less. */
static void user_thread_faults(struct synth *s, struct user_task *u, struct mach_thread *t,
			       unsigned int j, uint64_t raw)
{
	const struct mach_mm *mm = u->p->mm;
	struct rng *r = &u->r;

	if (mm && j == 0) {
		t->minflt = mm->vm_rss / PAGE_KB * rng_range(r, 12, 40) / 10 +
			    (uint64_t)((double)raw / 1e9 * rng_uniform(r, 0, 400));
		t->majflt = rng_below(r, 1 + mm->rss_file / 400);
	} else if (mm) {
		t->minflt = rng_below(r, 1 + mm->vm_rss / 40);
		t->majflt = rng_below(r, 3);
	} else {
		t->minflt = rng_range(r, 60, 400);
	}
	s->sum.minflt += t->minflt;
	s->sum.majflt += t->majflt;
}

/* Thread @j of a user process: the steps draw from the process's stream in this order. */
static int build_user_thread(struct synth *s, struct user_task *u, unsigned int j)
{
	struct mach_thread *t = &u->p->threads[j];
	const struct prog *pg = u->pg;
	uint64_t life, raw;
	int rc;

	if ((rc = user_thread_identity(u, t, j)) || (rc = thread_masks(s, t, u->pinned)))
		return rc;
	t->processor = u->pinned >= 0 ? u->pinned : (int)rng_below(&u->r, s->o->cpus);
	t->pf_flags = user_pf_flags(u, j);
	life = user_thread_times(s, u, t, j, &raw);
	user_thread_sched(pg, t);
	user_thread_faults(s, u, t, j, raw);
	t->nvcsw = (pg->flags & PR_BUSY) ? wakeups(&u->r, life, 0.5, 200) :
		   (pg->flags & PR_TTY) ? wakeups(&u->r, life, 0.05, 5) : wakeups(&u->r, life, 0.002, 2);
	t->exit_code = u->stopped ? SIGSTOP_NR : u->zombie ? u->status : 0;
	sy_user_wait(s, u->g, u->p, j);
	return 0;
}

/* Children it waited for: shells, init, make and cron reap theirs. */
static void user_children_times(struct synth *s, struct user_task *u)
{
	unsigned int prog = u->g->prog;
	struct mach_process *p = u->p;
	uint64_t life, c;
	double share;

	if (prog != P_SYSTEMD && prog != P_BASH_LOGIN && prog != P_BASH && prog != P_MAKE &&
	    prog != P_CRON && prog != P_SSHD && prog != P_SH && prog != P_SYSTEMD_USER)
		return;
	life = s->now - p->threads[0].start_time_ns;
	share = prog == P_MAKE ? rng_uniform(&u->r, 0.2, 0.9) : rng_logu(&u->r, 0.00005, 0.01);
	c = (uint64_t)((double)life * share);
	p->cutime_ns = c * 7 / 10;
	p->cstime_ns = c - p->cutime_ns;
	s->sum.raw_user += p->cutime_ns;
	s->sum.raw_sys += p->cstime_ns;
}

/*
 * A user process: its threads share credentials, signal handlers and the
 * mm; each has its own times, faults and switches.
 */
static int build_user(struct synth *s, size_t idx)
{
	struct user_task u = { .s = s, .idx = idx, .p = &s->m->procs[idx], .g = &s->gen[idx], .pinned = -1 };
	struct layout L;
	int rc = 0;

	user_begin(s, &u, &L);
	u.p->threads = calloc(u.p->nthreads, sizeof(*u.p->threads));
	if (!u.p->threads)
		return -ENOMEM;
	user_process(&u);
	sy_root_dev(s, idx, &s->root_major, &s->root_minor);
	if (!u.zombie && (rc = user_mm(s, &u, &L)))
		goto out;
	u.nnames = u.pg->tnames ? sy_count_fields(u.pg->tnames, '|') : 1;
	/* how busy this process is, as a share of its lifetime */
	u.rho = u.pg->cpu * rng_logu(&u.r, 0.25, 4.0);
	if (u.g->nrun)
		u.rho *= 3;
	if (u.rho > 0.9)
		u.rho = 0.9;
	for (unsigned int j = 0; j < u.p->nthreads && !rc; j++)
		rc = build_user_thread(s, &u, j);
	if (!rc) {
		user_children_times(s, &u);
		rc = sy_build_files(s, idx) ?: sy_build_proc_misc(s, idx);
	}
out:
	/* on every path: the mm's lent VMAs name the generator's block, which the mm must not free */
	sy_maker_keep_vmas(s, idx, u.p);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Kernel threads                                                       */

/* Bound to its CPU (per-CPU threads), to its node's CPUs (kswapd, kcompactd), or free. */
static int kthread_cpus(struct synth *s, struct mach_thread *t, const struct gen *g,
			const struct kthread_type *k, struct rng *r)
{
	bool pernode = g->prog == K_KSWAPD || g->prog == K_KCOMPACTD;
	int rc;

	if ((rc = thread_masks(s, t, k->percpu ? (int)(g->inst & 0xffff) : -1)))
		return rc;
	if (pernode) {
		if (mach_bitmap_own(&t->cpus_allowed))
			return -ENOMEM;
		memset(t->cpus_allowed.words, 0, (t->cpus_allowed.nbits + 63) / 64 * 8);
		sy_bitmap_set_node_cpus(s, &t->cpus_allowed, g->inst);
	}
	t->processor = k->percpu ? (int)(g->inst & 0xffff) : (int)rng_below(r, s->o->cpus);
	if (pernode)
		while (!mach_bitmap_test(&t->cpus_allowed, (unsigned int)t->processor))
			t->processor = (int)rng_below(r, s->o->cpus);
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
	struct mach_cred cr = { 0 };
	char name[MACH_COMM_MAX];
	int rc;

	rng_init(&r, s->o->seed, KEY_TASK + idx);
	p->threads = t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	p->sig_ignored = ~0ull;
	p->exit_signal = g->prog == K_KTHREADD ? 0 : SIGCHLD_NR;
	t->tid = p->tgid;
	if (g->prog == K_RESCUER)
		snprintf(name, sizeof(name), "kworker/R-%s", sy_kt_rescuers[g->inst]);
	else if (g->prog == K_JBD2)
		snprintf(name, sizeof(name), "jbd2/%s-8", s->root_name); /* the root filesystem's journal */
	else if (g->prog >= K_LATE_EVENTS)
		snprintf(name, sizeof(name), k->fmt, g->inst & 0xffff, g->inst >> 16);
	else
		snprintf(name, sizeof(name), k->fmt, g->inst);
	if (!(t->comm = sy_intern_str(s, name)))
		return -ENOMEM;
	t->state = g->nrun ? MACH_TASK_RUNNING : g->state;
	t->umask = 022;
	if ((rc = sy_thread_ns(s, idx, p, t, 0)))
		return rc;
	t->kthread = true;
	cr.cap_prm = cr.cap_eff = cr.cap_bnd = CAPS_KTHREAD;
	cr.ssb = MACH_SSB_VULNERABLE;
	cr.sib = MACH_SIB_ALWAYS_ENABLED;
	if ((rc = sy_thread_cred(s, t, &cr)))
		return rc;
	if ((rc = kthread_cpus(s, t, g, k, &r)))
		return rc;
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
	sy_kthread_wait(g, t);
	if ((rc = sy_build_files(s, idx)))
		return rc;
	return sy_build_proc_misc(s, idx);
}

/*
 * While a built process's threads are in the cache: their network
 * namespace (a zombie's nsproxy went at exit: none), and the states the
 * machine's counts add up.  Two later walks over every thread for these
 * cost some 0.6 s of cache misses at a million tasks (profile samples).
 */
static void note_threads(struct synth *s, size_t idx)
{
	const struct mach_process *p = &s->m->procs[idx];
	unsigned int netns = sy_net_ns_of(s, idx) + 1;

	s->sum.threads += p->nthreads;
	s->sum.mms += p->mm != NULL;
	s->sum.fds += p->files ? p->files->nfds : 0;
	for (unsigned int j = 0; j < p->nthreads; j++) {
		struct mach_thread *t = &p->threads[j];

		t->netns = t->state == MACH_TASK_ZOMBIE ? 0 : netns;
		s->sum.running += t->state == MACH_TASK_RUNNING;
		s->sum.blocked += t->state == MACH_TASK_DISK_SLEEP;
	}
}

/* Kernel threads and user processes differ in nearly every field: one builder each. */
int sy_build_task(struct synth *s, size_t idx)
{
	int rc = s->gen[idx].kind == G_KTHREAD ? build_kthread(s, idx) : build_user(s, idx);

	if (!rc)
		note_threads(s, idx);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Times                                                                */

/*
 * Fit the raw CPU demand of the tasks into what the CPUs accounted: the
 * tasks alive now may not have used more user (+nice) or system time than
 * the CPUs show, and the tasks that exited used the rest.  Then the values
 * that follow from the fitted times: group sums, involuntary switches,
 * children's faults.
 */
void sy_fit_task_times(struct synth *s)
{
	struct mach_machine *m = s->m;
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
