// SPDX-License-Identifier: MIT
/*
 * plan.c - the plan: the process tree as program choices, parents first,
 * then the pids.
 *
 * Planning before building lets every process be built from the plan
 * alone, in any order and on any thread: a process needs its parent's
 * layout root, its environment root and its pid, and the plan holds them.
 */
#include <errno.h>
#include <stdlib.h>

#include "plan.h"

/*
 * Append one process to the plan; the index, or NONE when the plan is full.
 * Until plan_pids, ppid/pgrp/session/tpgid hold indices (see plan.h).
 */
static int plan_add(struct synth *s, enum gen_kind kind, unsigned int prog, int parent,
		    enum pgmode mode, uint32_t uid, uint32_t inst)
{
	struct mach_process *p, *pp;
	struct gen *g;
	int idx;

	if (s->n >= s->limit)
		return NONE;
	idx = (int)s->n++;
	p = &s->m->procs[idx];
	g = &s->gen[idx];
	pp = parent >= 0 ? &s->m->procs[parent] : NULL;
	g->kind = (uint8_t)kind;
	g->prog = (uint16_t)prog;
	g->uid = uid;
	g->inst = inst;
	g->lroot = (uint32_t)idx;
	g->state = kind == G_KTHREAD ? sy_kthread_types[prog].state : MACH_TASK_SLEEPING;
	/* systemd starts every unit with a fresh environment; others inherit */
	g->env = parent > 0 ? s->gen[parent].env : parent == 0 ? ENV_SERVICE : ENV_INIT;
	g->eroot = parent > 0 ? s->gen[parent].eroot : (uint32_t)idx;
	p->ppid = parent;
	p->nthreads = 1;
	p->tpgid = NONE;
	if (pp)
		s->gen[parent].flags |= GF_PARENT;
	switch (mode) {
	case PG_NONE:
		p->pgrp = p->session = NONE;
		break;
	case PG_SESSION:
		p->pgrp = p->session = idx;
		break;
	case PG_GROUP:
	case PG_INHERIT:
		p->pgrp = mode == PG_GROUP || !pp ? idx : pp->pgrp;
		p->session = pp ? pp->session : idx;
		p->tty_nr = pp ? pp->tty_nr : 0;
		p->tpgid = pp ? pp->tpgid : NONE;
		break;
	}
	/* A copy that never exec'd keeps its parent's address space layout. */
	if (kind == G_USER && parent >= 0 && (sy_progs[prog].flags & PR_FORKED))
		g->lroot = s->gen[parent].lroot;
	return idx;
}

/* Every user process goes through here, so the plan's limit holds for all of them. */
int sy_plan_user(struct synth *s, unsigned int prog, int parent, enum pgmode mode, uint32_t uid,
		 uint32_t inst)
{
	return plan_add(s, G_USER, prog, parent, mode, uid, inst);
}

/* @idx starts a new environment of @cls that its descendants inherit. */
void sy_plan_env(struct synth *s, int idx, enum env_class cls)
{
	if (idx != NONE) {
		s->gen[idx].env = (uint8_t)cls;
		s->gen[idx].eroot = (uint32_t)idx;
	}
}

/* A kernel thread, child of kthreadd (index 1), within the kthread budget. */
int sy_plan_kt(struct synth *s, enum kt_id type, uint32_t inst)
{
	int idx;

	if (s->nkt >= s->kt_budget)
		return NONE;
	idx = plan_add(s, G_KTHREAD, type, type == K_KTHREADD ? NONE : 1, PG_NONE, 0, inst);
	if (idx != NONE)
		s->nkt++;
	return idx;
}

/* The pid of the process planned at index @idx, once plan_pids numbered it. */
static pid_t idx_pid(const struct synth *s, int idx)
{
	return idx < 0 ? 0 : s->m->procs[idx].tgid;
}

/* The pid order is the fork order, so a pid says when its task started. */
uint64_t sy_pid_start_ns(const struct synth *s, pid_t pid)
{
	unsigned int k = 1;

	while (k + 1 < s->nbp && pid > s->bp_pid[k])
		k++;
	double f = ((double)pid - s->bp_pid[k - 1]) / (s->bp_pid[k] - s->bp_pid[k - 1]);
	double t = s->bp_ns[k - 1] + f * (s->bp_ns[k] - s->bp_ns[k - 1]);

	if (t < 1)
		t = 1;
	if (t > (double)s->now)
		t = (double)s->now;
	return (uint64_t)t;
}

/* The pids the plan may hand out: the rest is kept for gaps and readers. */
#define PID_USABLE ((uint64_t)(SYNTH_PID_TOP - SYNTH_PID_SLACK))

/*
 * Boot tasks: dense pids in plan order, with a gap now and then where a
 * short-lived helper ran.  The next free pid.
 */
static uint64_t number_boot(struct synth *s)
{
	struct mach_process *procs = s->m->procs;
	struct rng *r = &s->rng;
	uint64_t next = 1;

	for (size_t i = 0; i < s->boot_end; i++) {
		procs[i].tgid = (pid_t)next;
		next += procs[i].nthreads;
		if (i >= 2 && rng_chance(r, 0.08))
			next += rng_range(r, 1, 3);
		if (s->gen[i].kind == G_KTHREAD)
			s->last_boot_kt_pid = procs[i].tgid;
	}
	s->last_boot_pid = (pid_t)next - 1;
	return next;
}

/*
 * Tasks after boot, from pid @next: spread with random gaps so the last
 * pid lands at a few tens of thousands (more with millions of tasks), never
 * past PID_USABLE.  Threads take the tids after their leader.  The next
 * free pid.
 */
static uint64_t number_user(struct synth *s, uint64_t next)
{
	struct mach_process *procs = s->m->procs;
	struct rng *r = &s->rng;
	uint64_t user_ids = 0, top, span;
	size_t nuser = s->n - s->boot_end;
	double mean;

	for (size_t i = s->boot_end; i < s->n; i++)
		user_ids += procs[i].nthreads;
	span = (uint64_t)((double)user_ids * rng_uniform(r, 1.5, 3.0));
	if (span < 4000 + rng_below(r, 40000))
		span = 4000 + rng_below(r, 40000);
	top = next + span;
	if (top > PID_USABLE)
		top = PID_USABLE;
	mean = nuser ? (double)(top - next - user_ids) / (double)nuser : 0;
	for (size_t i = s->boot_end; i < s->n; i++) {
		uint64_t gap = (uint64_t)(rng_unit(r) * 2 * mean);

		if (next + gap + user_ids > PID_USABLE)
			gap = PID_USABLE - next - user_ids;
		next += gap;
		procs[i].tgid = (pid_t)next;
		next += procs[i].nthreads;
		user_ids -= procs[i].nthreads;
	}
	return next;
}

/* The plan's indices in ppid/pgrp/session/tpgid become the pids just given. */
static void indices_to_pids(struct synth *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct mach_process *p = &s->m->procs[i];

		p->ppid = idx_pid(s, p->ppid);
		p->pgrp = idx_pid(s, p->pgrp);
		p->session = idx_pid(s, p->session);
		p->tpgid = p->tpgid < 0 ? -1 : idx_pid(s, p->tpgid);
	}
}

/*
 * The pid -> start time map, piecewise linear: kernel threads within a
 * second of boot, userspace a few seconds on, then the rest of the uptime.
 */
static void map_start_times(struct synth *s)
{
	struct rng *r = &s->rng;

	s->nbp = 4;
	s->bp_pid[0] = 0;
	s->bp_ns[0] = 0.1e9 + (double)rng_below(r, 80) * 1e6;
	s->bp_pid[1] = (double)s->last_boot_kt_pid + 1;
	s->bp_ns[1] = s->bp_ns[0] + 0.25e9 + s->bp_pid[1] * 20e3;
	s->bp_pid[2] = (double)s->last_boot_pid + 1;
	s->bp_ns[2] = s->bp_ns[1] + rng_uniform(r, 4, 25) * 1e9;
	s->bp_pid[3] = (double)s->m->last_pid + 1;
	s->bp_ns[3] = (double)s->now * rng_uniform(r, 0.97, 0.9999);
	if (s->bp_ns[3] < s->bp_ns[2] + 1e9)
		s->bp_ns[3] = s->bp_ns[2] + 1e9;
	if (s->bp_pid[2] <= s->bp_pid[1])
		s->bp_pid[2] = s->bp_pid[1] + 1;
	if (s->bp_pid[3] <= s->bp_pid[2])
		s->bp_pid[3] = s->bp_pid[2] + 1;
}

/* Pids in plan order, with gaps where tasks came and went; then start times follow them. */
static void plan_pids(struct synth *s)
{
	struct mach_machine *m = s->m;
	uint64_t next = number_user(s, number_boot(s));

	m->last_pid = (pid_t)(next - 1 + rng_below(&s->rng, 4));
	if ((uint64_t)m->last_pid > PID_USABLE)
		m->last_pid = (pid_t)PID_USABLE;
	m->processes = (uint64_t)m->last_pid + rng_range(&s->rng, 10, 10 + (uint64_t)m->last_pid / 20);
	indices_to_pids(s);
	map_start_times(s);
}

/*
 * The whole plan: the tree (boot, then workloads, with the last slot kept
 * for the reader so it is the newest process), states, threads, pids.
 */
int sy_plan(struct synth *s)
{
	struct mach_machine *m = s->m;
	size_t cap = s->o->tasks;
	int rc;

	m->procs = calloc(cap, sizeof(*m->procs));
	s->gen = calloc(cap, sizeof(*s->gen));
	s->nusers = (uint32_t)(cap / 300 + 1 + rng_below(&s->rng, 3));
	if (s->nusers > 60000)
		s->nusers = 60000;
	s->user_seen = calloc(s->nusers, 1);
	if (!m->procs || !s->gen || !s->user_seen)
		return -ENOMEM;
	m->nprocs = cap;
	s->limit = cap;
	s->sshd = s->cron = s->last_bash = NONE;

	sy_plan_user(s, P_SYSTEMD, NONE, PG_SESSION, UID_ROOT, 0);
	sy_plan_kthreads(s);
	sy_plan_daemons(s);
	s->boot_end = s->n;
	s->limit = cap > s->n ? cap - 1 : cap;
	while (s->n < s->limit)
		sy_plan_workload(s);
	s->limit = cap;
	if (s->n < cap)
		sy_plan_reader(s);
	while (s->n < cap)
		sy_plan_workload(s);
	sy_plan_states(s);
	sy_plan_threads(s);
	sy_plan_running(s);
	rc = sy_plan_ns(s); /* reads the tree as plan indices: before the pids */
	if (rc)
		return rc;
	plan_pids(s);
	/* a command run on this machine starts from the last login shell, beside its `ps` */
	s->m->login_pid = idx_pid(s, s->last_bash);
	return 0;
}
