// SPDX-License-Identifier: MIT
/*
 * sim_setup.c - making and freeing a simulator: its options, the workload
 * it moves, and the PSI groups the workload feeds.
 *
 * The workload is the busiest user threads, those `depth` levels down the
 * cgroup v2 tree first; each feeds the PSI group of its v2 group, made with
 * its ancestors' on first use.  The threads the simulator does not move are
 * put to sleep, so the load is the workload's.  What happens once time
 * moves is sim.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "machine/sim_internal.h"
#include "machine/sim_irq.h"
#include "machine/sim_net.h"
#include "machine/sim_waits.h"
#include "sim_io.h"
#include "uprocfs/sim.h"

/* ------------------------------------------------------------------ */
/* options                                                             */

void mach_sim_defaults(struct mach_sim_opts *o)
{
	struct mach_synth_opts so;

	mach_synth_defaults(&so);
	*o = (struct mach_sim_opts){ .depth = so.depth, .load = so.load, .io = so.io, .mem = so.mem,
				     .seed = so.seed, .psi_clock_mode = PSI_CLOCK_ONCE };
}

/* ------------------------------------------------------------------ */
/* the PSI engine's clock: the simulated time                          */

static uint64_t sim_clock(void *ctx, int cpu)
{
	const struct mach_sim *s = ctx;

	(void)cpu;
	if (s->clock_real_cost) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		__asm__ volatile("" : : "g"(&ts) : "memory");
	}
	return s->now;
}

/* ------------------------------------------------------------------ */
/* set-up                                                              */

static bool can_work(const struct mach_process *p, const struct mach_thread *t)
{
	return p->mm && !t->kthread && t->state != MACH_TASK_ZOMBIE && t->state != MACH_TASK_STOPPED &&
	       t->state != MACH_TASK_TRACED && t->state != MACH_TASK_DEAD;
}

/* The tasks `depth` levels deep first, each part busiest first. */
static int by_cpu_time_desc(const void *a, const void *b, void *ctx)
{
	const struct mach_machine *m = ctx;
	const struct wtask *x = a, *y = b;
	const struct mach_thread *tx = &m->procs[x->proc].threads[x->thread];
	const struct mach_thread *ty = &m->procs[y->proc].threads[y->thread];
	uint64_t cx = tx->utime_ns + tx->stime_ns, cy = ty->utime_ns + ty->stime_ns;

	if (x->at_depth != y->at_depth)
		return x->at_depth ? -1 : 1;
	if (cx != cy)
		return cx < cy ? 1 : -1;
	return x->proc != y->proc ? (x->proc < y->proc ? -1 : 1) : (x->thread < y->thread ? -1 : 1);
}

/* The v2 group of thread @t, MACH_NONE when the model knows none (the root stands for it). */
static uint32_t v2_group(const struct mach_machine *m, const struct mach_thread *t)
{
	const struct mach_css_set *cs = mach_thread_css_set(m, t);
	uint32_t dfl = mach_cg_dfl_root(m);

	if (!cs || dfl == MACH_NONE || cs->cg[dfl] >= m->ncgroups)
		return MACH_NONE;
	return cs->cg[dfl];
}

/*
 * Pick the workload: enough user threads to reach the load with some
 * contention.  The threads that have used the most CPU so far are the busy
 * ones, and they stay busy: the servers and workers, not the getty; those
 * `depth` levels down the cgroup tree come first.
 */
static int pick_workload(struct mach_sim *s)
{
	struct mach_machine *m = s->m;
	unsigned int online = 0, candidates = 0, want, k = 0;

	for (unsigned int c = 0; c < m->ncpus; c++)
		online += m->cpus[c].online;
	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int t = 0; t < m->procs[i].nthreads; t++)
			candidates += can_work(&m->procs[i], &m->procs[i].threads[t]);
	want = (unsigned int)(2.0 * online * s->o.load + 1.5);
	if (want > 4 * online + 8)
		want = 4 * online + 8;
	if (s->o.messaging_groups)
		want = s->o.messaging_groups * 40; /* 20 senders and 20 receivers a group */
	if (want > candidates)
		want = candidates;
	if (!want || (s->o.load <= 0 && !s->o.messaging_groups))
		return 0;
	s->tasks = calloc(candidates, sizeof(*s->tasks));
	if (!s->tasks)
		return -ENOMEM;
	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int t = 0; t < m->procs[i].nthreads; t++) {
			uint32_t cg;

			if (!can_work(&m->procs[i], &m->procs[i].threads[t]))
				continue;
			cg = v2_group(m, &m->procs[i].threads[t]);
			s->tasks[k].proc = i;
			s->tasks[k].thread = t;
			s->tasks[k].cgroup = cg;
			s->tasks[k].at_depth = (cg == MACH_NONE ? 0 : mach_cgroup_level(m, cg)) == s->o.depth;
			k++;
		}
	qsort_r(s->tasks, k, sizeof(*s->tasks), by_cpu_time_desc, m);
	s->ntasks = want;
	s->duty = s->o.load * online / (s->ntasks ? s->ntasks : 1);
	if (s->duty > 0.95)
		s->duty = 0.95;
	return 0;
}

/* The PSI group of cgroup @cg, made with its ancestors' as needed; the system group for MACH_NONE. */
static int group_of(struct mach_sim *s, uint32_t cg, struct psi_group **out)
{
	const struct mach_machine *m = s->m;
	struct psi_group *parent;
	int rc;

	if (cg == MACH_NONE || m->cgroups[cg].parent == MACH_NONE) {
		*out = psi_system_group(s->psi);
		return 0;
	}
	if (s->groups[cg]) {
		*out = s->groups[cg];
		return 0;
	}
	if ((rc = group_of(s, m->cgroups[cg].parent, &parent)) ||
	    (rc = psi_group_create(s->psi, parent, &s->groups[cg])))
		return rc;
	*out = s->groups[cg];
	return 0;
}

/* The groups of the workload's tasks and their ancestors, from the machine's tree. */
static int make_groups(struct mach_sim *s)
{
	s->ngroups = s->m->ncgroups;
	s->groups = calloc(s->ngroups ? s->ngroups : 1, sizeof(*s->groups));
	return s->groups ? 0 : -ENOMEM;
}

/* Tasks the simulator does not move stop being runnable or blocked: the load is the workload's. */
static void quiesce_others(struct mach_sim *s)
{
	struct mach_machine *m = s->m;

	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int t = 0; t < m->procs[i].nthreads; t++) {
			struct mach_thread *th = &m->procs[i].threads[t];
			if (th->state == MACH_TASK_RUNNING || th->state == MACH_TASK_DISK_SLEEP) {
				struct sim_wait w = sim_sleep_wait(m, &m->procs[i], th);

				th->state = th->kthread ? MACH_TASK_IDLE : MACH_TASK_SLEEPING;
				th->kstack = w.kstack;
				th->wchan_sym = w.wchan;
			}
		}
}

/* Every workload task starts in a random phase of its cycle, feeding its cgroup's PSI group. */
static int start_tasks(struct mach_sim *s)
{
	for (unsigned int i = 0; i < s->ntasks; i++) {
		struct wtask *w = &s->tasks[i];
		struct mach_thread *t = sim_thread_of(s, w);
		int cpu = (int)(i % s->m->ncpus);
		struct psi_group *g;
		int rc = group_of(s, w->cgroup, &g);

		if (rc)
			return rc;
		while (!s->m->cpus[cpu].online)
			cpu = (cpu + 1) % (int)s->m->ncpus;
		psi_task_init(&w->pt, g, cpu);
		w->user_permille = 600 + (unsigned int)(sim_next_rand(s) % 380);
		w->group = s->o.messaging_groups ? (int)(i / 40) : -1;
		w->io_req = -1;
		w->sender = s->o.messaging_groups && i % 40 < 20;
		t->processor = cpu;
		w->sleep = sim_sleep_wait(s->m, sim_proc_of(s, w), t);
		w->io = sim_io_wait(s->m, w->sleep);
		sim_set_task_state(s, w, W_SLEEP);
		if (w->group >= 0)
			w->remaining_ns = w->sender ? sim_exponential(s, (double)s->tick_ns) : INFINITY;
		else
			w->remaining_ns = sim_exponential(s, s->off_mean_ns) * sim_uniform(s);
	}
	return 0;
}

int mach_sim_create(struct mach_machine *m, const struct mach_sim_opts *o, struct mach_sim **out,
		    char *err, size_t errlen)
{
	struct mach_sim *s;
	struct psi_config cfg;
	double off_share;
	int rc;

	if (!m->ncpus) {
		snprintf(err, errlen, "simulator: the machine has no CPUs");
		return -EINVAL;
	}
	if (o->load < 0 || o->load > 1 || o->io < 0 || o->mem < 0 || o->io + o->mem > 1) {
		snprintf(err, errlen, "simulator: load, io and mem must be fractions (io + mem <= 1)");
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->m = m;
	s->o = *o;
	s->rng = o->seed ^ 0x5157a11ce5ull;
	s->now = m->uptime_ns;
	s->tick_ns = 1000000000ull / (o->tick_hz ? o->tick_hz : SIM_HZ_DEFAULT);
	s->next_fork = s->now + FORK_EVERY_NS;
	s->load_freq_ns = (5 * (1000000000ull / s->tick_ns) + 1) * s->tick_ns;
	s->next_load_update = s->now + s->load_freq_ns;
	cfg = (struct psi_config){ .ncpus = m->ncpus, .hz = SIM_HZ_DEFAULT, .clock = sim_clock,
				   .clock_ctx = s, .clock_mode = o->psi_clock_mode };
	rc = psi_engine_create(&cfg, &s->psi);
	if (!rc)
		rc = sim_irqs_init(&s->irqs, m);
	if (!rc)
		rc = make_groups(s);
	if (!rc)
		rc = pick_workload(s);
	if (!rc)
		rc = sim_io_create(m, o->seed, o->io, &s->io);
	if (!rc && !(s->net = sim_net_create(m)))
		rc = -ENOMEM;
	if (!rc && s->ntasks) {
		s->rq = calloc(m->ncpus, sizeof(*s->rq));
		if (!s->rq)
			rc = -ENOMEM;
		for (unsigned int c = 0; !rc && c < m->ncpus; c++) {
			s->rq[c].curr = -1;
			s->rq[c].queue = calloc(s->ntasks, sizeof(int));
			if (!s->rq[c].queue)
				rc = -ENOMEM;
		}
	}
	if (rc) {
		snprintf(err, errlen, "simulator: cannot start: %s", strerror(-rc));
		mach_sim_destroy(s);
		return rc;
	}
	/* A task wants the CPU `duty` of the time; io and mem share out the rest. */
	off_share = 1.0 - s->duty;
	s->off_mean_ns = BURST_MEAN_NS * off_share / (s->duty > 0 ? s->duty : 1);
	s->p_io = off_share > 0 ? o->io / off_share : 0;
	s->p_mem = off_share > 0 ? o->mem / off_share : 0;
	if (s->p_io + s->p_mem > 1) {
		double scale = 1 / (s->p_io + s->p_mem);
		s->p_io *= scale;
		s->p_mem *= scale;
	}
	memcpy(s->base, m->pressure, sizeof(s->base));
	quiesce_others(s);
	s->others_stale = true;
	rc = start_tasks(s);
	if (rc) {
		snprintf(err, errlen, "simulator: cannot start: %s", strerror(-rc));
		mach_sim_destroy(s);
		return rc;
	}
	sim_publish(s);
	*out = s;
	return 0;
}

void mach_sim_destroy(struct mach_sim *s)
{
	if (!s)
		return;
	if (s->rq)
		for (unsigned int c = 0; c < s->m->ncpus; c++)
			free(s->rq[c].queue);
	free(s->rq);
	free(s->tasks);
	free(s->groups);
	sim_irqs_free(&s->irqs);
	sim_io_destroy(s->io);
	psi_engine_destroy(s->psi);
	sim_net_destroy(s->net);
	free(s);
}
