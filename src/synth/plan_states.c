// SPDX-License-Identifier: MIT
/*
 * plan_states.c - what the planned processes are doing now: a few stopped
 * jobs, zombies and disk sleepers, pinned processes, the extra threads and
 * which threads are running.
 *
 * Decided after the tree so the picks can prefer the processes that would
 * be in such states on a real server (jobs on a terminal for ^Z, programs
 * that read the disk for D, CPU-bound ones for R).
 */
#include "plan.h"

/* Programs that wait on the disk: the likely D tasks. */
static bool does_io(unsigned int prog)
{
	return prog == P_RSYNC || prog == P_XZ || prog == P_PG_BACKEND || prog == P_CC1 ||
	       prog == P_PYTHON || prog == P_TAIL || prog == P_PHPFPM_WORKER || prog == P_NGINX_WORKER;
}

/*
 * A random user process after boot, leaf or not, still sleeping; NONE if
 * none turns up.  @on_tty: prefer jobs on a terminal (what ^Z stops);
 * @io: prefer programs that do disk I/O.
 */
static int pick_proc_io(struct synth *s, bool leaf, bool reapable_parent, bool on_tty, bool io)
{
	for (int tries = 0; tries < 256 && s->n > s->boot_end; tries++) {
		size_t i = s->boot_end + rng_below(&s->rng, s->n - s->boot_end);
		const struct gen *g = &s->gen[i];

		if (g->kind != G_USER || g->state != MACH_TASK_SLEEPING || (g->flags & GF_READER))
			continue;
		if (on_tty && tries < 200 && !s->m->procs[i].tty_nr)
			continue;
		if (io && tries < 200 && !does_io(g->prog))
			continue;
		if (leaf && (g->flags & GF_PARENT))
			continue;
		/* init reaps its zombies at once; a zombie needs a live, busy parent */
		if (reapable_parent && (s->m->procs[i].ppid <= 0 ||
					s->gen[s->m->procs[i].ppid].kind != G_USER))
			continue;
		return (int)i;
	}
	return NONE;
}

/* pick_proc_io without the preference for disk I/O. */
static int pick_proc(struct synth *s, bool leaf, bool reapable_parent, bool on_tty)
{
	return pick_proc_io(s, leaf, reapable_parent, on_tty, false);
}

/* A few stopped jobs, zombies and a task in disk sleep, as any busy server has. */
void sy_plan_states(struct synth *s)
{
	struct rng *r = &s->rng;
	size_t tasks = s->n, nz, nt, nd;
	int i;

	nz = tasks >= 20 ? 1 + tasks / 5000 + rng_below(r, 2) : 0;
	nt = tasks >= 30 ? 1 + tasks / 3000 + rng_below(r, 2) : 0;
	nd = tasks >= 40 && s->o->io > 0 ? 1 + (size_t)((double)tasks * s->o->io / 40) : 0;
	while (nz--)
		if ((i = pick_proc(s, true, true, false)) != NONE)
			s->gen[i].state = MACH_TASK_ZOMBIE;
	while (nt--)
		if ((i = pick_proc(s, true, false, true)) != NONE)
			s->gen[i].state = MACH_TASK_STOPPED;
	while (nd--)
		if ((i = pick_proc_io(s, true, false, false, true)) != NONE)
			s->gen[i].state = MACH_TASK_DISK_SLEEP;
	/* a few processes pinned with taskset */
	for (size_t k = tasks / 100; k && s->o->cpus > 1; k--)
		if ((i = pick_proc(s, false, false, false)) != NONE)
			s->gen[i].flags |= GF_PINNED;
}

/*
 * Spread the extra threads: every multi-threaded program first gets its
 * usual minimum (rsyslogd's three workers), the rest goes by weight.  With
 * no multi-threaded program planned, the last live user process takes them.
 */
void sy_plan_threads(struct synth *s)
{
	struct mach_process *procs = s->m->procs;
	uint64_t left = s->o->threads, weight = 0, share;
	size_t ncand = 0, last = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct gen *g = &s->gen[i];

		if (g->kind != G_USER || g->state == MACH_TASK_ZOMBIE)
			continue;
		last = i;
		if (!sy_progs[g->prog].mt)
			continue;
		ncand++;
		weight += sy_progs[g->prog].mt;
		share = sy_progs[g->prog].min_threads < left ? sy_progs[g->prog].min_threads : left;
		procs[i].nthreads += (unsigned int)share;
		left -= share;
	}
	if (!left)
		return;
	if (!ncand) {
		procs[last].nthreads += (unsigned int)left;
		return;
	}
	share = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct gen *g = &s->gen[i];

		if (g->kind != G_USER || g->state == MACH_TASK_ZOMBIE || !sy_progs[g->prog].mt)
			continue;
		uint64_t t = left * sy_progs[g->prog].mt / weight;
		procs[i].nthreads += (unsigned int)t;
		share += t;
	}
	/* the remainder of the division, one thread each to random candidates */
	for (left -= share; left;) {
		size_t i = rng_below(&s->rng, s->n);
		const struct gen *g = &s->gen[i];

		if (g->kind == G_USER && g->state != MACH_TASK_ZOMBIE && sy_progs[g->prog].mt) {
			procs[i].nthreads++;
			left--;
		}
	}
}

/*
 * Running threads: the reader, and about load x CPUs more, mostly in
 * CPU-bound programs (procs_running and loadavg's numerator count them).
 */
void sy_plan_running(struct synth *s)
{
	struct rng *r = &s->rng;
	double want = s->o->load * s->o->cpus * rng_uniform(r, 0.3, 0.8);
	size_t target = (size_t)(want + 0.5), tries = 64 * (target + 1), nrun = 0;

	if (target > (size_t)s->o->cpus + 2)
		target = (size_t)s->o->cpus + 2;
	for (size_t got = 0; got < target && tries--;) {
		int i = pick_proc(s, false, false, false);
		struct gen *g;

		if (i == NONE)
			break;
		g = &s->gen[i];
		if (g->nrun >= s->m->procs[i].nthreads)
			continue;
		if (!rng_chance(r, (sy_progs[g->prog].flags & PR_BUSY) ? 0.9 : 0.05))
			continue;
		g->nrun++;
		got++;
	}
	for (size_t i = 0; i < s->n; i++) {
		if (s->gen[i].flags & GF_READER)
			s->gen[i].nrun = 1;
		nrun += s->gen[i].nrun;
	}
	/* something always runs: on tiny machines, the newest sleeping task */
	for (size_t i = s->n; !nrun && i--;) {
		struct gen *g = &s->gen[i];

		if (g->state == MACH_TASK_SLEEPING || g->state == MACH_TASK_IDLE) {
			g->state = MACH_TASK_SLEEPING;
			g->nrun = 1;
			nrun = 1;
		}
	}
}
