// SPDX-License-Identifier: MIT
/*
 * bench_psi.c - `uprocfs bench psi`: the cost of a PSI task state change by
 * cgroup depth, with the clock read once per change (Linux 6.17+, and the
 * 2021 "psi: Reduce calls to sched_clock() in psi" patch) against once per
 * group on the way up (the baseline, "clock_per_level").
 *
 * Mirrors the seed's experiment (kernel/sched/psi.c psi_task_change and
 * psi_task_switch): the kernel's cpu_clock() was the expensive part, so the
 * engine's clock here is clock_gettime(CLOCK_MONOTONIC), a real clock of
 * similar cost.  Both modes run side by side in one process, alternating
 * passes, medians reported.  Clock reads per change are counted exactly.
 *
 * The messaging case replays `perf bench sched messaging` (10 groups of 20
 * senders and 20 receivers, 100 messages from every sender to every
 * receiver of its group) on a tiny two-CPU round-robin scheduler of our own
 * that drives only the PSI hooks: wakeups (which preempt, as CFS/EEVDF
 * wakeup preemption mostly does here), blocking reads and writes, slice
 * expiry, exits.  All 400 tasks share one cgroup three levels down, as the
 * seed's perf ran.  Only PSI and this scheduler run, so the old/new ratio
 * is larger than the seed's whole-kernel 0.747 s -> 0.640 s.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "machine/sim_testing.h"
#include "psi/psi_testing.h"
#include "spec.h"
#include "uprocfs/sim.h"
#include "uprocfs/psi.h"

#define MAX_DEPTH 8

static uint64_t mono_clock(void *ctx, int cpu)
{
	struct timespec ts;

	(void)ctx;
	(void)cpu;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct psi_engine *bench_engine(enum psi_clock_mode mode)
{
	struct psi_config cfg = { .ncpus = 2, .clock = mono_clock, .clock_mode = mode };
	struct psi_engine *eng = NULL;

	if (psi_engine_create(&cfg, &eng))
		return NULL;
	return eng;
}

/* ------------------------------------------------------------------ */
/* Cost per change by depth                                            */

#define CHANGE_TASKS 8

struct change_job {
	struct psi_engine *eng;
	struct psi_task tasks[CHANGE_TASKS];
	size_t ops;
	unsigned int k;
	int errors;
};

/*
 * Each op flips one task between runnable and iowait (a wakeup or an io
 * dequeue): one psi_task_change walking leaf to root.  Eight tasks on two
 * CPUs keep the state masks moving as on a busy machine.
 */
static void change_pass(void *arg)
{
	struct change_job *j = arg;

	for (size_t i = 0; i < j->ops; i++) {
		struct psi_task *t = &j->tasks[j->k++ % CHANGE_TASKS];

		if (t->psi_flags & PSI_TSK_RUNNING)
			j->errors += psi_task_change(t, PSI_TSK_RUNNING, PSI_TSK_IOWAIT) != 0;
		else
			j->errors += psi_task_change(t, PSI_TSK_IOWAIT, PSI_TSK_RUNNING) != 0;
	}
	bench_escape(j);
}

static int change_job_init(struct change_job *j, unsigned int depth, enum psi_clock_mode mode,
			   size_t ops)
{
	struct psi_group *g;

	memset(j, 0, sizeof(*j));
	j->eng = bench_engine(mode);
	if (!j->eng)
		return -ENOMEM;
	g = psi_system_group(j->eng);
	for (unsigned int d = 0; d < depth; d++)
		if (psi_group_create(j->eng, g, &g))
			return -ENOMEM;
	for (int i = 0; i < CHANGE_TASKS; i++) {
		psi_task_init(&j->tasks[i], g, i % 2);
		j->errors += psi_task_change(&j->tasks[i], 0, PSI_TSK_IOWAIT) != 0;
	}
	j->ops = ops;
	return 0;
}

/* Clock reads per change, exactly: a counted pass of @n changes. */
static double reads_per_change(struct change_job *j, size_t n)
{
	struct psi_stats a, b;
	size_t ops = j->ops;

	psi_get_stats(j->eng, &a);
	j->ops = n;
	change_pass(j);
	j->ops = ops;
	psi_get_stats(j->eng, &b);
	return (double)(b.change_clock_reads - a.change_clock_reads) /
	       (double)(b.task_changes - a.task_changes);
}

/* ------------------------------------------------------------------ */
/* perf bench sched messaging, PSI hooks only                           */

#define MSG_GROUPS 10
#define MSG_FDS 20		/* senders = receivers per group */
#define MSG_LOOPS 100
#define MSG_TASKS (MSG_GROUPS * MSG_FDS * 2)
#define MSG_SOCK_CAP 32		/* messages a socket buffers before a sender blocks */
#define MSG_SLICE 16		/* work units before a preemption if others wait */

enum { MSG_RUNNABLE, MSG_BLOCKED, MSG_DONE };

struct msg_task {
	struct psi_task psi;
	struct msg_task *next;	/* runqueue or socket wait list */
	int sender;
	int group, idx;
	int remaining;
	int next_rcv;
	int state;
};

struct msg_sock {
	int count;
	struct msg_task *waiters;	/* senders blocked on a full buffer */
	struct msg_task *reader;	/* its receiver */
};

struct msg_cpu {
	struct msg_task *curr;
	struct msg_task *head, *tail;
	int slice;
	bool need_resched;	/* a woken task waits at the head */
};

struct msg_job {
	struct psi_engine *eng;
	struct msg_task tasks[MSG_TASKS];
	struct msg_sock socks[MSG_GROUPS][MSG_FDS];
	struct msg_cpu cpus[2];
	uint64_t psi_ops;		/* PSI hook calls in the last run */
	int errors;
};

static void rq_push(struct msg_cpu *c, struct msg_task *t)
{
	t->next = NULL;
	if (c->tail)
		c->tail->next = t;
	else
		c->head = t;
	c->tail = t;
}

static void rq_push_head(struct msg_cpu *c, struct msg_task *t)
{
	t->next = c->head;
	c->head = t;
	if (!c->tail)
		c->tail = t;
}

static struct msg_task *rq_pop(struct msg_cpu *c)
{
	struct msg_task *t = c->head;

	if (t) {
		c->head = t->next;
		if (!c->head)
			c->tail = NULL;
	}
	return t;
}

/* A wakeup goes to the head of its CPU's queue and asks to preempt. */
static void msg_wake(struct msg_job *j, struct msg_task *t, bool preempt)
{
	struct msg_cpu *c = &j->cpus[t->psi.cpu];

	t->state = MSG_RUNNABLE;
	j->errors += psi_task_wakeup(&t->psi) != 0;
	j->psi_ops++;
	if (preempt) {
		rq_push_head(c, t);
		c->need_resched = c->curr != NULL;
	} else {
		rq_push(c, t);
	}
}

enum msg_leave { MSG_SLEEP, MSG_EXPIRED, MSG_PREEMPTED };

/*
 * @prev leaves the CPU; the head of the queue runs.  A preempted task
 * resumes right after the one that preempted it; one whose slice expired
 * goes to the back.
 */
static void msg_switch(struct msg_job *j, struct msg_cpu *c, struct msg_task *prev,
		       enum msg_leave why)
{
	struct msg_task *next = rq_pop(c);

	if (why == MSG_PREEMPTED)
		rq_push_head(c, prev);
	else if (why == MSG_EXPIRED)
		rq_push(c, prev);
	j->errors += psi_task_switch(&prev->psi, next ? &next->psi : NULL,
				     why == MSG_SLEEP) != 0;
	j->psi_ops++;
	c->curr = next;
	c->slice = 0;
	c->need_resched = false;
}

static void msg_run(void *arg)
{
	struct msg_job *j = arg;
	int alive = MSG_TASKS;

	/* Reset the workload; the PSI tasks all ended the last run with no flags. */
	memset(j->socks, 0, sizeof(j->socks));
	memset(j->cpus, 0, sizeof(j->cpus));
	j->psi_ops = 0;
	for (int i = 0; i < MSG_TASKS; i++) {
		struct msg_task *t = &j->tasks[i];

		t->remaining = MSG_FDS * MSG_LOOPS;	/* each sends or receives 2000 */
		t->next_rcv = 0;
		if (!t->sender)
			j->socks[t->group][t->idx].reader = t;
		msg_wake(j, t, false);	/* forked and started */
	}

	while (alive) {
		for (int cpu = 0; cpu < 2; cpu++) {
			struct msg_cpu *c = &j->cpus[cpu];
			struct msg_task *t = c->curr;
			struct msg_sock *s;
			bool block = false;

			if (!t) {
				t = rq_pop(c);
				if (!t)
					continue;
				j->errors += psi_task_switch(NULL, &t->psi, false) != 0;
				j->psi_ops++;
				c->curr = t;
				c->slice = 0;
				c->need_resched = false;
			} else if (c->need_resched) {
				msg_switch(j, c, t, MSG_PREEMPTED);
				t = c->curr;
			}
			if (t->sender) {
				s = &j->socks[t->group][t->next_rcv];
				if (s->count == MSG_SOCK_CAP) {
					/* write() on a full socket sleeps until a read */
					t->next = s->waiters;
					s->waiters = t;
					block = true;
				} else {
					s->count++;
					if (s->reader->state == MSG_BLOCKED)
						msg_wake(j, s->reader, true);
					t->next_rcv = (t->next_rcv + 1) % MSG_FDS;
					t->remaining--;
				}
			} else {
				s = &j->socks[t->group][t->idx];
				if (!s->count) {
					block = true;	/* read() on an empty socket */
				} else {
					s->count--;
					t->remaining--;
					while (s->waiters) {
						struct msg_task *w = s->waiters;

						s->waiters = w->next;
						msg_wake(j, w, false);
					}
				}
			}

			if (!t->remaining) {
				t->state = MSG_DONE;
				alive--;
				msg_switch(j, c, t, MSG_SLEEP);	/* exit */
			} else if (block) {
				t->state = MSG_BLOCKED;
				msg_switch(j, c, t, MSG_SLEEP);
			} else if (++c->slice >= MSG_SLICE && c->head) {
				msg_switch(j, c, t, MSG_EXPIRED);
			}
		}
	}
	bench_escape(j);
}

static int msg_job_init(struct msg_job *j, enum psi_clock_mode mode)
{
	struct psi_group *g = NULL;

	memset(j, 0, sizeof(*j));
	j->eng = bench_engine(mode);
	if (!j->eng)
		return -ENOMEM;
	/* perf ran in a cgroup three levels down (e.g. user.slice/user-0.slice/session). */
	g = psi_system_group(j->eng);
	for (int level = 0; level < 3; level++)
		if (psi_group_create(j->eng, g, &g))
			return -ENOMEM;
	for (int i = 0; i < MSG_TASKS; i++) {
		struct msg_task *t = &j->tasks[i];

		t->group = i / (2 * MSG_FDS);
		t->sender = (i / MSG_FDS) % 2;
		t->idx = i % MSG_FDS;
		psi_task_init(&t->psi, g, i % 2);
	}
	return 0;
}

/* ------------------------------------------------------------------ */

static void clock_pass(void *arg)
{
	uint64_t sum = 0;
	size_t n = *(size_t *)arg;

	for (size_t i = 0; i < n; i++)
		sum += mono_clock(NULL, 0);
	bench_escape(&sum);
}

/*
 * The same workload driven through the simulator: a machine of 2 CPUs whose
 * workload is 10 messaging groups of 40 tasks in a cgroup 3 levels deep,
 * simulated at 1000 ticks a second with a clock that costs what a real one
 * does; wall time of one simulated second, old clock rule vs new.
 */
struct sim_msg_job {
	struct mach_machine *m;
	struct mach_sim *sim;
	uint64_t seconds;
};

static void sim_msg_run(void *arg)
{
	struct sim_msg_job *j = arg;

	mach_sim_advance(j->sim, j->m->uptime_ns + j->seconds * 1000000000ull);
}

static int sim_msg_init(struct sim_msg_job *j, enum psi_clock_mode mode)
{
	static const char spec[] = "synth:cpus=2,tasks=600,threads=0,seed=4,depth=3";
	struct mach_sim_opts so;
	char err[256];

	if (mach_from_spec(spec, &j->m, err, sizeof(err)) || mach_sim_opts_from_spec(spec, &so, err, sizeof(err))) {
		fprintf(stderr, "bench psi: %s\n", err);
		return -1;
	}
	so.messaging_groups = 10;
	so.tick_hz = 1000;
	so.psi_clock_mode = mode;
	if (mach_sim_create(j->m, &so, &j->sim, err, sizeof(err))) {
		fprintf(stderr, "bench psi: %s\n", err);
		return -1;
	}
	mach_sim_set_clock_real_cost(j->sim, true);
	j->seconds = 10;
	return 0;
}

static int messaging_through_sim(const struct bench_opts *o)
{
	struct sim_msg_job nj = { 0 }, oj = { 0 };
	struct mach_sim_stats ns, os;
	double base_ns, cand_ns;
	char note[320];
	int rc = 0;

	bench_progress(o, "%s", "psi: messaging through the simulator");
	if (sim_msg_init(&nj, PSI_CLOCK_ONCE) || sim_msg_init(&oj, PSI_CLOCK_PER_GROUP)) {
		rc = 1;
		goto out;
	}
	bench_pair(sim_msg_run, &oj, sim_msg_run, &nj, o->quick ? 3 : 9, &base_ns, &cand_ns);
	mach_sim_get_stats(nj.sim, &ns);
	mach_sim_get_stats(oj.sim, &os);
	snprintf(note, sizeof(note),
		 "%u tasks in 10 groups, 3 cgroup levels, 2 CPUs, 10 simulated s per run at 1000 ticks/s; "
		 "%.0f switches + %.0f wakeups per run; clock reads per change %.2f vs %.2f; seed 0.747 s -> 0.640 s",
		 mach_sim_nr_tasks(nj.sim), (double)ns.switches / (double)(ns.steps / 10000),
		 (double)ns.wakeups / (double)(ns.steps / 10000),
		 (double)ns.psi.change_clock_reads / (double)(ns.psi.task_changes + ns.psi.task_switches),
		 (double)os.psi.change_clock_reads / (double)(os.psi.task_changes + os.psi.task_switches));
	struct bench_result r = {
		.bench = "psi", .case_name = "messaging_sim", .unit = "s", .value = cand_ns / 1e9,
		.baseline = "clock_per_level", .baseline_value = base_ns / 1e9, .note = note,
		.kernel_ratio = 0.747 / 0.640,
	};
	bench_report(o, &r);
out:
	mach_sim_destroy(nj.sim);
	mach_sim_destroy(oj.sim);
	mach_free(nj.m);
	mach_free(oj.m);
	return rc;
}

/* What one clock read costs here: the unit the change costs are counted in. */
static void bench_clock(const struct bench_opts *o, size_t ops, int passes)
{
	size_t n = ops;
	double a, b;

	bench_pair(clock_pass, &n, clock_pass, &n, passes, &a, &b);
	struct bench_result r = {
		.bench = "psi", .case_name = "clock_gettime_monotonic", .unit = "ns/read",
		.value = (a + b) / 2 / (double)n,
		.note = "the engine's clock in this bench (the kernel's cpu_clock)",
	};
	bench_report(o, &r);
}

/*
 * One task change at each cgroup depth, clock read once vs once per level;
 * the ns per change into @new_ns/@old_ns, clock reads checked in *@reads_ok.
 * 0, or 1 when the engine refused something.
 */
static int bench_depths(const struct bench_opts *o, size_t ops, int passes, struct change_job *nj,
			struct change_job *oj, double *new_ns, double *old_ns, int *reads_ok)
{
	char note[256];
	int status = 0;

	for (unsigned int depth = 1; depth <= MAX_DEPTH; depth++) {
		double base_ns, cand_ns, rn, ro;
		char name[32];

		bench_progress(o, "psi: change_depth_%u", depth);
		if (change_job_init(nj, depth, PSI_CLOCK_ONCE, ops) ||
		    change_job_init(oj, depth, PSI_CLOCK_PER_GROUP, ops)) {
			fprintf(stderr, "bench psi: engine setup failed\n");
			psi_engine_destroy(nj->eng);
			psi_engine_destroy(oj->eng);
			return 1;
		}
		bench_pair(change_pass, oj, change_pass, nj, passes, &base_ns, &cand_ns);
		new_ns[depth] = cand_ns / (double)ops;
		old_ns[depth] = base_ns / (double)ops;
		rn = reads_per_change(nj, 4096);
		ro = reads_per_change(oj, 4096);
		*reads_ok &= rn == 1.0 && ro == (double)(depth + 1);
		if (nj->errors || oj->errors)
			status = 1;

		snprintf(name, sizeof(name), "change_depth_%u", depth);
		struct bench_result r = {
			.bench = "psi", .case_name = name, .unit = "ns/change",
			.value = new_ns[depth], .baseline = "clock_per_level",
			.baseline_value = old_ns[depth],
		};
		bench_report(o, &r);
		snprintf(name, sizeof(name), "reads_depth_%u", depth);
		snprintf(note, sizeof(note), "%u groups walked; goal 1 (old: depth+1 = %u)",
			 depth + 1, depth + 1);
		struct bench_result rr = {
			.bench = "psi", .case_name = name, .unit = "reads/change",
			.value = rn, .baseline = "clock_per_level", .baseline_value = ro,
			.note = note,
		};
		bench_report(o, &rr);
		psi_engine_destroy(nj->eng);
		psi_engine_destroy(oj->eng);
	}
	return status;
}

/* How the cost grows from depth 1 to MAX_DEPTH: the seed's goal. */
static void report_growth(const struct bench_opts *o, const double *new_ns, const double *old_ns, int reads_ok)
{
	double growth = new_ns[MAX_DEPTH] / new_ns[1];
	double old_growth = old_ns[MAX_DEPTH] / old_ns[1];
	char note[256];

	snprintf(note, sizeof(note),
		 "goal <= 2.00: %s; clock_per_level grows x%.2f; reads goal (1 vs depth+1): %s",
		 growth <= 2.0 ? "met" : "MISSED", old_growth, reads_ok ? "met" : "MISSED");
	struct bench_result r = {
		.bench = "psi", .case_name = "depth8_over_depth1", .unit = "x",
		.value = growth, .note = note,
	};
	bench_report(o, &r);
}

/* The messaging workload on the engine alone, old clock rule vs new; 0 or 1. */
static int bench_messaging(const struct bench_opts *o, struct msg_job *nm, struct msg_job *om)
{
	double base_ns, cand_ns;
	struct psi_stats sa, sb;
	int mpasses = o->quick ? 5 : 15, status = 0;
	char note[256];

	bench_progress(o, "%s", "psi: messaging");
	if (msg_job_init(nm, PSI_CLOCK_ONCE) || msg_job_init(om, PSI_CLOCK_PER_GROUP)) {
		fprintf(stderr, "bench psi: engine setup failed\n");
		psi_engine_destroy(nm->eng);
		psi_engine_destroy(om->eng);
		return 1;
	}
	bench_pair(msg_run, om, msg_run, nm, mpasses, &base_ns, &cand_ns);
	psi_get_stats(nm->eng, &sa);
	psi_get_stats(om->eng, &sb);
	if (nm->errors || om->errors) {
		fprintf(stderr, "bench psi: messaging: %d/%d refused PSI calls\n", nm->errors, om->errors);
		status = 1;
	}
	snprintf(note, sizeof(note),
		 "400 tasks, 10 groups, 3 cgroup levels, 2 CPUs; %" PRIu64 " PSI calls/run; "
		 "reads/call %.2f vs %.2f; seed (kernel, perf bench): 0.747 s -> 0.640 s (x1.17)",
		 nm->psi_ops,
		 (double)sa.change_clock_reads / (double)(sa.task_changes + sa.task_switches),
		 (double)sb.change_clock_reads / (double)(sb.task_changes + sb.task_switches));
	struct bench_result r = {
		.bench = "psi", .case_name = "messaging_total", .unit = "s",
		.value = cand_ns / 1e9, .baseline = "clock_per_level",
		.baseline_value = base_ns / 1e9, .note = note,
	};
	bench_report(o, &r);
	psi_engine_destroy(nm->eng);
	psi_engine_destroy(om->eng);
	return status;
}

int bench_psi(const struct bench_opts *o)
{
	size_t ops = o->quick ? 20000 : 100000;
	int passes = o->quick ? 11 : 31;
	double new_ns[MAX_DEPTH + 1] = { 0 }, old_ns[MAX_DEPTH + 1] = { 0 };
	struct change_job *nj = calloc(1, sizeof(*nj)), *oj = calloc(1, sizeof(*oj));
	struct msg_job *nm = calloc(1, sizeof(*nm)), *om = calloc(1, sizeof(*om));
	int reads_ok = 1, status = 0;

	if (!nj || !oj || !nm || !om) {
		fprintf(stderr, "bench psi: out of memory\n");
		status = 1;
		goto out;
	}
	bench_clock(o, ops, passes);
	if (bench_depths(o, ops, passes, nj, oj, new_ns, old_ns, &reads_ok))
		status = 1;
	report_growth(o, new_ns, old_ns, reads_ok);
	if (!reads_ok || bench_messaging(o, nm, om) || messaging_through_sim(o))
		status = 1;
	bench_progress(o, "%s", "");
out:
	free(nj);
	free(oj);
	free(nm);
	free(om);
	return status;
}
