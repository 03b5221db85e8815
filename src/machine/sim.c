// SPDX-License-Identifier: MIT
/*
 * sim.c - moving a machine through time.
 *
 * A small scheduler runs the workload tasks on the machine's CPUs in ticks of
 * 1/HZ: each task alternates CPU bursts with sleeps, io waits and memory
 * stalls (exponential durations whose means give the requested load, io and
 * mem shares), each CPU runs one task and round-robins the others every few
 * ticks.  Every state change goes through the PSI engine the way the kernel
 * drives it (psi_task_switch on a context switch, psi_task_wakeup on enqueue,
 * psi_memstall_enter/leave), so /proc/pressure reports what happened.  The
 * tick also does the accounting the kernel's does: account_user_time /
 * account_system_time / account_idle_time per CPU (iowait when a CPU is idle
 * with io waiters), per-task times, context switches, the local timer, IPIs,
 * disk and network interrupts and their softirqs (sim_irq.c), and
 * calc_global_load every LOAD_FREQ = 5*HZ+1 ticks.  A task's io wait is a
 * request to a block device (sim_io.c), so diskstats moves with iowait and
 * io pressure.
 *
 * The PSI groups are the machine's cgroup v2 tree: a workload task feeds
 * the group its /proc/<pid>/cgroup names and every group above it, the
 * root being /proc/pressure.  Groups are made for the workload's groups
 * and their ancestors only; a machine that knows no v2 tree has the root.
 * The workload is the busiest tasks `depth` levels down the tree, and
 * others only when there are too few there.
 *
 * Setting up (choosing the workload, making its PSI groups) is
 * sim_setup.c; the state both share is sim_internal.h.
 */
#include <math.h>
#include <stdlib.h>

#include "machine/sim_internal.h"
#include "machine/sim_irq.h"
#include "machine/sim_net.h"
#include "machine/sim_testing.h"
#include "sim_io.h"
#include "uprocfs/calc_load.h"
#include "uprocfs/sim.h"

/* avenrun is computed with calc_load.h and stored in the model's units. */
_Static_assert(CALC_LOAD_FSHIFT == MACH_FSHIFT, "calc_load.h and machine.h share one scale");

#define SLICE_TICKS 3             /* round-robin after this many ticks (~sched_latency / nr) */
#define FAST_STEP_NS 250000000ull /* step for gaps too long to simulate tick by tick */
#define FINE_WINDOW_NS 120000000000ull /* the last this-much of a gap runs at tick resolution */
#define NET_IRQS_IDLE 50.0        /* network interrupts a second of an idle server, and per unit of load */
#define NET_IRQS_PER_LOAD 4000.0

/* ------------------------------------------------------------------ */
/* model access                                                        */

static struct mach_cpu *cpu_of(struct mach_sim *s, int cpu)
{
	return &s->m->cpus[cpu];
}

/* ------------------------------------------------------------------ */
/* runqueues                                                           */

static void rq_push(struct mach_sim *s, int cpu, int w)
{
	struct cpu_rq *rq = &s->rq[cpu];

	rq->queue[(rq->head + rq->len) % s->ntasks] = w;
	rq->len++;
}

static int rq_pop(struct mach_sim *s, int cpu)
{
	struct cpu_rq *rq = &s->rq[cpu];
	int w;

	if (!rq->len)
		return -1;
	w = rq->queue[rq->head];
	rq->head = (rq->head + 1) % s->ntasks;
	rq->len--;
	return w;
}

/* The CPU with the fewest tasks wanting it: where a waking task goes. */
static int least_loaded_cpu(struct mach_sim *s, int prefer)
{
	unsigned int best_load = s->rq[prefer].len + (s->rq[prefer].curr >= 0);
	int best = prefer;

	for (unsigned int c = 0; c < s->m->ncpus && best_load; c++) {
		unsigned int load = s->rq[c].len + (s->rq[c].curr >= 0);
		if (s->m->cpus[c].online && load < best_load) {
			best = (int)c;
			best_load = load;
		}
	}
	return best;
}

/* ------------------------------------------------------------------ */
/* transitions                                                         */

void sim_set_task_state(struct mach_sim *s, struct wtask *w, enum wstate st)
{
	static const enum mach_task_state shown[] = {
		[W_RUNNING] = MACH_TASK_RUNNING, [W_RUNNABLE] = MACH_TASK_RUNNING,
		[W_SLEEP] = MACH_TASK_SLEEPING, [W_IOWAIT] = MACH_TASK_DISK_SLEEP,
		[W_MEMSTALL] = MACH_TASK_DISK_SLEEP, [W_STOPPED] = MACH_TASK_STOPPED,
	};
	struct mach_thread *t = sim_thread_of(s, w);
	const struct sim_wait *wait = st == W_SLEEP ? &w->sleep : &w->io;

	w->state = st;
	t->state = shown[st];
	/* a task on a CPU or a runqueue waits in nothing */
	t->kstack = st == W_RUNNING || st == W_RUNNABLE ? 0 : wait->kstack;
	t->wchan_sym = st == W_RUNNING || st == W_RUNNABLE ? 0 : wait->wchan;
}

/* A context switch on @cpu from @prev (or idle) to the next runnable task. */
static void switch_to_next(struct mach_sim *s, int cpu, struct wtask *prev, bool sleep)
{
	struct cpu_rq *rq = &s->rq[cpu];
	int next = rq_pop(s, cpu);
	struct wtask *nw = next >= 0 ? &s->tasks[next] : NULL;
	struct mach_cpu_schedstat *ss = &cpu_of(s, cpu)->sched;

	if (!prev && !nw)
		return;
	psi_task_switch(prev ? &prev->pt : NULL, nw ? &nw->pt : NULL, sleep);
	s->switches++;
	ss->sched_count++;
	if (!nw)
		ss->sched_goidle++;
	s->m->ctxt++;
	if (prev) {
		if (sleep)
			sim_thread_of(s, prev)->nvcsw++;
		else
			sim_thread_of(s, prev)->nivcsw++;
	}
	rq->curr = next;
	if (nw) {
		nw->ran_ticks = 0;
		sim_set_task_state(s, nw, W_RUNNING);
		ss->pcount++;
		sim_thread_of(s, nw)->pcount++; /* sched_info_arrive: a timeslice begins */
		if (nw->stall_pending) {
			/* its memory stall ends once it runs again */
			psi_memstall_leave(&nw->pt);
			nw->stall_pending = false;
		}
	}
}

static void wake(struct mach_sim *s, struct wtask *w);

/* @cpu if the task may run there (sched_setaffinity), else the first online CPU it may use. */
static int allowed_cpu(struct mach_sim *s, const struct wtask *w, int cpu)
{
	const struct mach_bitmap *mask = &sim_thread_of(s, w)->cpus_allowed;

	if (!mask->words || mach_bitmap_test(mask, s->m->cpus[cpu].id))
		return cpu;
	for (unsigned int c = 0; c < s->m->ncpus; c++)
		if (s->m->cpus[c].online && mach_bitmap_test(mask, s->m->cpus[c].id))
			return (int)c;
	return cpu;
}

/*
 * Messaging: a sender's burst ends with a message to its group, which wakes
 * every receiver waiting for one; a receiver, once it has read, waits for the
 * next; a sender pauses briefly before sending again.
 */
static void end_burst_messaging(struct mach_sim *s, int cpu, struct wtask *w)
{
	sim_set_task_state(s, w, W_SLEEP);
	w->remaining_ns = w->sender ? sim_exponential(s, (double)s->tick_ns) : INFINITY;
	switch_to_next(s, cpu, w, true);
	if (!w->sender)
		return;
	for (unsigned int i = (unsigned int)w->group * 40; i < (unsigned int)w->group * 40 + 40 && i < s->ntasks; i++) {
		struct wtask *r = &s->tasks[i];
		if (!r->sender && r->state == W_SLEEP)
			wake(s, r);
	}
}

/* The running task @w ends its burst: it sleeps, waits for io or stalls on memory. */
static void end_burst(struct mach_sim *s, int cpu, struct wtask *w)
{
	double r = sim_uniform(s);

	if (w->group >= 0) {
		end_burst_messaging(s, cpu, w);
		return;
	}
	enum wstate off = r < s->p_io ? W_IOWAIT : r < s->p_io + s->p_mem ? W_MEMSTALL : W_SLEEP;

	if (off == W_MEMSTALL)
		psi_memstall_enter(&w->pt); /* reclaim while running, then block on it */
	w->pt.in_iowait = off == W_IOWAIT;
	if (off == W_IOWAIT) {
		s->rq[cpu].nr_iowait++;
		w->io_req = sim_io_submit(s->io, s->now);
	}
	sim_set_task_state(s, w, off);
	w->remaining_ns = sim_exponential(s, s->off_mean_ns);
	switch_to_next(s, cpu, w, true);
}

/*
 * @w's wait is over: enqueue it.  Like select_task_rq, it mostly stays on
 * the CPU whose caches it warmed (even if that CPU is busy: that is where
 * runqueue waits, and CPU pressure, come from) and otherwise goes to the
 * least loaded CPU.
 */
static void wake(struct mach_sim *s, struct wtask *w)
{
	int cpu = sim_uniform(s) < 0.6 ? w->pt.cpu : least_loaded_cpu(s, w->pt.cpu);
	bool local;

	cpu = allowed_cpu(s, w, cpu);
	local = cpu == w->pt.cpu;

	if (w->state == W_IOWAIT) {
		s->rq[w->pt.cpu].nr_iowait--;
		sim_irq_io_done(&s->irqs, s->m, (unsigned int)w->pt.cpu);
		sim_io_complete(s->io, w->io_req, s->now);
		w->io_req = -1;
	}
	if (!local) {
		psi_task_migrate(&w->pt, cpu);
		sim_irq_resched(s->m, (unsigned int)cpu, sim_next_rand(s));
	}
	psi_task_wakeup(&w->pt);
	s->wakeups++;
	w->pt.in_iowait = false;
	w->stall_pending = w->state == W_MEMSTALL;
	sim_thread_of(s, w)->processor = cpu;
	cpu_of(s, cpu)->sched.ttwu_count++;
	if (local)
		cpu_of(s, cpu)->sched.ttwu_local++;
	sim_set_task_state(s, w, W_RUNNABLE);
	w->remaining_ns = sim_exponential(s, w->group >= 0 ? (double)s->tick_ns : BURST_MEAN_NS);
	rq_push(s, cpu, (int)(w - s->tasks));
	if (s->rq[cpu].curr < 0)
		switch_to_next(s, cpu, NULL, false);
}

/* ------------------------------------------------------------------ */
/* one step                                                            */

/* Charge @ns of CPU @cpu as the kernel's tick accounting would. */
static void account_cpu(struct mach_sim *s, int cpu, uint64_t ns)
{
	struct mach_cpu *c = cpu_of(s, cpu);
	struct cpu_rq *rq = &s->rq[cpu];
	/* a little of every tick goes to interrupts and softirqs */
	uint64_t irq = ns / 400, softirq = ns / 150, rest = ns - irq - softirq;

	c->time_ns[MACH_CPU_IRQ] += irq;
	c->time_ns[MACH_CPU_SOFTIRQ] += softirq;
	if (rq->curr >= 0) {
		struct wtask *w = &s->tasks[rq->curr];
		struct mach_thread *t = sim_thread_of(s, w);
		struct mach_process *p = sim_proc_of(s, w);
		uint64_t user = rest * w->user_permille / 1000, sys = rest - user;

		c->time_ns[t->nice > 0 ? MACH_CPU_NICE : MACH_CPU_USER] += user;
		c->time_ns[MACH_CPU_SYSTEM] += sys;
		t->utime_ns += user;
		t->stime_ns += sys;
		t->sum_exec_runtime_ns += rest; /* utime and stime split exactly this */
		p->group_utime_ns += user;
		p->group_stime_ns += sys;
		c->sched.rq_cpu_time += rest;
		if (sim_next_rand(s) % 4 == 0)
			t->minflt++;
		/* system time is spent in calls: reads and writes grow with it (/proc/<pid>/io) */
		t->io.syscr += sys / 40000;
		t->io.rchar += sys / 40000 * 700;
		t->io.syscw += sys / 200000;
		t->io.wchar += sys / 200000 * 300;
	} else if (rq->nr_iowait) {
		c->time_ns[MACH_CPU_IOWAIT] += rest;
	} else {
		c->time_ns[MACH_CPU_IDLE] += rest;
		s->m->idle_ns += rest;
	}
	c->sched.run_delay += (uint64_t)rq->len * ns;
	for (unsigned int k = 0; k < rq->len; k++)
		sim_thread_of(s, &s->tasks[rq->queue[(rq->head + k) % s->ntasks]])->run_delay_ns += ns;
}

static void step(struct mach_sim *s, uint64_t dt)
{
	struct mach_machine *m = s->m;
	uint64_t due;

	s->now += dt;
	s->steps++;
	m->uptime_ns = s->now;
	for (unsigned int c = 0; c < m->ncpus; c++)
		if (m->cpus[c].online)
			account_cpu(s, (int)c, dt);

	/* bursts end, waits end, slices run out */
	for (unsigned int i = 0; i < s->ntasks; i++) {
		struct wtask *w = &s->tasks[i];

		if (w->state == W_RUNNABLE || w->state == W_STOPPED || w->state == W_GONE)
			continue;
		w->remaining_ns -= (double)dt;
		if (w->state == W_RUNNING) {
			int cpu = w->pt.cpu;
			if (w->remaining_ns <= 0) {
				end_burst(s, cpu, w);
			} else if (++w->ran_ticks >= SLICE_TICKS && s->rq[cpu].len) {
				/* preempted: back to the end of its runqueue */
				sim_set_task_state(s, w, W_RUNNABLE);
				rq_push(s, cpu, (int)i);
				switch_to_next(s, cpu, w, false);
			}
		} else if (w->remaining_ns <= 0) {
			wake(s, w);
		}
	}

	sim_io_tick(s->io, s->now, dt);

	/* the local timer on every CPU, the softirqs it raises, and the network's interrupts */
	for (unsigned int c = 0; c < m->ncpus; c++)
		if (m->cpus[c].online)
			sim_irq_ticks(m, c, s->rq && s->rq[c].curr >= 0, dt / s->tick_ns, sim_next_rand(s));
	sim_irq_net(&s->irqs, m,
		    (uint64_t)((double)dt / 1e9 * (NET_IRQS_IDLE + NET_IRQS_PER_LOAD * s->o.load) + sim_uniform(s)),
		    sim_next_rand(s));
	if (s->now >= s->next_fork) {
		/* short-lived children come and go between two looks at /proc */
		m->processes++;
		if (m->last_pid + 1 < m->pid_max)
			m->last_pid++;
		s->next_fork += FORK_EVERY_NS;
	}
	while (s->now >= s->next_load_update) {
		unsigned long active = 0;

		for (unsigned int i = 0; i < s->ntasks; i++) {
			enum wstate st = s->tasks[i].state;
			active += st == W_RUNNING || st == W_RUNNABLE || st == W_IOWAIT || st == W_MEMSTALL;
		}
		active *= CALC_LOAD_FIXED_1;
		m->avenrun[0] = calc_load(m->avenrun[0], CALC_LOAD_EXP_1, active);
		m->avenrun[1] = calc_load(m->avenrun[1], CALC_LOAD_EXP_5, active);
		m->avenrun[2] = calc_load(m->avenrun[2], CALC_LOAD_EXP_15, active);
		s->next_load_update += s->load_freq_ns;
	}
	while (psi_next_avgs_work(s->psi, &due) && due <= s->now)
		if (psi_avgs_tick(s->psi) <= 0)
			break;
}

/*
 * Each cgroup's pressure is its PSI group's, as psi_show prints it (the
 * root's is the system's, m->pressure); a group no workload task ever fed
 * keeps what it had.
 */
static void publish_cgroups(struct mach_sim *s)
{
	struct mach_machine *m = s->m;

	for (size_t g = 0; g < s->ngroups && g < m->ncgroups; g++) {
		struct mach_cg_state *st = m->cgroups[g].st;

		if (!s->groups[g] || !st || st->psi_off)
			continue;
		if (!st->pressure && !(st->pressure = calloc(MACH_NR_PSI_RES, sizeof(*st->pressure))))
			continue; /* out of memory: the file shows zeros */
		psi_fill_pressure_all(s->groups[g], st->pressure);
	}
}

/* Running and blocked among the threads the simulator moves (their states change only here). */
static void count_simulated(struct mach_sim *s, unsigned int *running, unsigned int *blocked)
{
	*running = *blocked = 0;
	for (unsigned int i = 0; i < s->ntasks; i++) {
		enum mach_task_state st;

		if (s->tasks[i].state == W_GONE)
			continue;
		st = sim_thread_of(s, &s->tasks[i])->state;
		*running += st == MACH_TASK_RUNNING;
		*blocked += st == MACH_TASK_DISK_SLEEP;
	}
}

/* Recount every thread once the outside changed some: the others are the rest. */
static void count_others(struct mach_sim *s)
{
	const struct mach_machine *m = s->m;
	unsigned int running = 0, blocked = 0, sim_running, sim_blocked;

	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int t = 0; t < m->procs[i].nthreads; t++) {
			enum mach_task_state st = m->procs[i].threads[t].state;
			running += st == MACH_TASK_RUNNING;
			blocked += st == MACH_TASK_DISK_SLEEP;
		}
	count_simulated(s, &sim_running, &sim_blocked);
	s->others_running = running - sim_running;
	s->others_blocked = blocked - sim_blocked;
	s->others_stale = false;
}

/* Publish what the rest of the model derives from the tasks' states. */
void sim_publish(struct mach_sim *s)
{
	struct mach_machine *m = s->m;
	unsigned int running, blocked;

	if (s->others_stale)
		count_others(s);
	count_simulated(s, &running, &blocked);
	running += s->others_running;
	blocked += s->others_blocked;
	m->procs_running = running;
	m->procs_blocked = blocked;
	m->nr_running = running;
	m->schedstat_timestamp = 4294892296ull + s->now / (1000000000u / SIM_HZ_DEFAULT);
	psi_fill_pressure_all(psi_system_group(s->psi), m->pressure);
	publish_cgroups(s);
	/* totals are monotonic: they continue from what the model had */
	for (int r = 0; r < MACH_NR_PSI_RES; r++) {
		m->pressure[r].some.total_us += s->base[r].some.total_us;
		if (r != MACH_PSI_CPU)
			m->pressure[r].full.total_us += s->base[r].full.total_us;
		m->pressure[r].present = s->base[r].present && m->pressure[r].present;
		/* the kernel's lines: cpu had no full line before 5.13 (profile of the base) */
		m->pressure[r].has_some &= s->base[r].has_some;
		m->pressure[r].has_full &= s->base[r].has_full;
	}
}

int mach_sim_advance(struct mach_sim *s, uint64_t uptime_ns)
{
	/* A long gap (a daemon nobody read for an hour) goes by in coarse steps. */
	while (s->now + FINE_WINDOW_NS < uptime_ns)
		step(s, FAST_STEP_NS);
	while (s->now + s->tick_ns <= uptime_ns)
		step(s, s->tick_ns);
	sim_net_advance(s->net, s->m);
	sim_publish(s);
	return 0;
}

uint64_t mach_sim_now(const struct mach_sim *s)
{
	return s->now;
}

struct psi_engine *mach_sim_psi(struct mach_sim *s)
{
	return s->psi;
}

unsigned int mach_sim_nr_tasks(const struct mach_sim *s)
{
	return s->ntasks;
}

const struct mach_thread *mach_sim_task(const struct mach_sim *s, unsigned int i, const struct psi_group **g,
					uint32_t *cg)
{
	const struct wtask *w;

	if (i >= s->ntasks)
		return NULL;
	w = &s->tasks[i];
	*g = w->pt.group;
	*cg = w->cgroup != MACH_NONE && s->m->cgroups[w->cgroup].parent != MACH_NONE ? w->cgroup : MACH_NONE;
	return &s->m->procs[w->proc].threads[w->thread];
}

const struct psi_group *mach_sim_cgroup_psi(const struct mach_sim *s, uint32_t cg)
{
	return cg < s->ngroups ? s->groups[cg] : NULL;
}

void mach_sim_get_stats(const struct mach_sim *s, struct mach_sim_stats *out)
{
	out->steps = s->steps;
	out->switches = s->switches;
	out->wakeups = s->wakeups;
	psi_get_stats(s->psi, &out->psi);
}

void mach_sim_set_clock_real_cost(struct mach_sim *s, bool on)
{
	s->clock_real_cost = on;
}

/* ------------------------------------------------------------------ */
/* control: signals, affinity and exits from outside                    */

/* Remove wtask @idx from @cpu's runqueue, keeping the others' order. */
static void rq_remove(struct mach_sim *s, int cpu, int idx)
{
	struct cpu_rq *rq = &s->rq[cpu];
	unsigned int k = 0;

	for (unsigned int i = 0; i < rq->len; i++) {
		int w = rq->queue[(rq->head + i) % s->ntasks];

		if (w != idx)
			rq->queue[(rq->head + k++) % s->ntasks] = w;
	}
	rq->len = k;
}

/* Take @w off its CPU or runqueue and out of any wait, as a task that stops or exits leaves them. */
static void take_off(struct mach_sim *s, struct wtask *w)
{
	int cpu = w->pt.cpu;

	switch (w->state) {
	case W_RUNNING:
		switch_to_next(s, cpu, w, true);
		break;
	case W_RUNNABLE:
		rq_remove(s, cpu, (int)(w - s->tasks));
		psi_task_change(&w->pt, PSI_TSK_RUNNING | (w->pt.in_memstall ? PSI_TSK_MEMSTALL_RUNNING : 0), 0);
		break;
	case W_IOWAIT:
		s->rq[cpu].nr_iowait--;
		psi_task_change(&w->pt, PSI_TSK_IOWAIT, 0);
		w->pt.in_iowait = false;
		break;
	default:
		break;
	}
	psi_memstall_leave(&w->pt);
	w->stall_pending = false;
}

void mach_sim_process_changed(struct mach_sim *s, size_t k)
{
	s->others_stale = true;
	for (unsigned int i = 0; i < s->ntasks; i++) {
		struct wtask *w = &s->tasks[i];
		struct mach_thread *t;

		if (w->state == W_GONE || w->proc != k)
			continue;
		t = sim_thread_of(s, w);
		if (t->state == MACH_TASK_STOPPED && w->state != W_STOPPED) {
			take_off(s, w);
			w->state = W_STOPPED;
		} else if (t->state != MACH_TASK_STOPPED && w->state == W_STOPPED) {
			sim_set_task_state(s, w, W_SLEEP);
			w->remaining_ns = sim_exponential(s, (double)s->tick_ns);
		} else if (w->state != W_STOPPED && allowed_cpu(s, w, w->pt.cpu) != w->pt.cpu) {
			/* pinned away from its CPU: it leaves it, and wakes where it may run */
			take_off(s, w);
			sim_set_task_state(s, w, W_SLEEP);
			w->remaining_ns = 0;
		}
	}
}

void mach_sim_process_removed(struct mach_sim *s, size_t k)
{
	s->others_stale = true;
	for (unsigned int i = 0; i < s->ntasks; i++) {
		struct wtask *w = &s->tasks[i];

		if (w->state == W_GONE)
			continue;
		if (w->proc == k) {
			take_off(s, w);
			w->state = W_GONE;
		} else if (w->proc > k) {
			w->proc--;
		}
	}
}
