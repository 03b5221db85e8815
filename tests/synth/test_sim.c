// SPDX-License-Identifier: MIT
/*
 * test_sim.c - the simulator keeps a machine consistent as time moves.
 *
 * After each advance: the uptime moved by exactly the time asked; the CPUs'
 * times grew by the elapsed time per online CPU; no task gained more CPU
 * time than elapsed, and all tasks together no more than the CPUs' busy
 * time; the idle total is the CPUs' idle; context switches, forks and
 * pressure totals only grow; procs_running/blocked count the tasks' states;
 * load averages stay between 0 and the number of tasks; the same seed gives
 * the same bytes; and every file of the advanced machine, written out, loads
 * back with the loader and renders the same again (the strictest check of
 * cross-file consistency we have).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "irq_sums.h"
#include "machine/sim_testing.h"
#include "spec.h"
#include "tap.h"
#include "tree_write.h"
#include "uprocfs/load.h"
#include "uprocfs/procfs.h"
#include "uprocfs/sim.h"

#define NS 1000000000ull

struct snap {
	uint64_t uptime, ctxt, processes, idle;
	uint64_t cpu[MACH_NR_CPUTIME];
	uint64_t task_ns;       /* all tasks' utime + stime */
	uint64_t psi_total[MACH_NR_PSI_RES];
	uint64_t loc, dev_irqs;   /* local timer interrupts, device irqs: all CPUs */
	uint64_t *per_task;     /* utime + stime of each thread */
	size_t nthreads;
};

static void take(const struct mach_machine *m, struct snap *s)
{
	size_t k = 0;

	memset(s, 0, sizeof(*s));
	s->uptime = m->uptime_ns;
	s->ctxt = m->ctxt;
	s->processes = m->processes;
	s->idle = m->idle_ns;
	for (unsigned int c = 0; c < m->ncpus; c++)
		for (int t = 0; t < MACH_NR_CPUTIME; t++)
			s->cpu[t] += m->cpus[c].time_ns[t];
	for (size_t i = 0; i < m->nprocs; i++)
		s->nthreads += m->procs[i].nthreads;
	s->per_task = calloc(s->nthreads, sizeof(uint64_t));
	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int t = 0; t < m->procs[i].nthreads; t++) {
			const struct mach_thread *th = &m->procs[i].threads[t];
			s->per_task[k++] = th->utime_ns + th->stime_ns;
			s->task_ns += th->utime_ns + th->stime_ns;
		}
	for (int r = 0; r < MACH_NR_PSI_RES; r++)
		s->psi_total[r] = m->pressure[r].some.total_us;
	for (unsigned int c = 0; c < m->ncpus; c++)
		s->loc += m->cpus[c].arch_irq[MACH_ARCH_IRQ_LOC];
	for (unsigned int i = 0; i < m->nirqs; i++)
		s->dev_irqs += mach_irq_count(&m->irqs[i], m->ncpus);
}

static void check_step(const struct mach_machine *m, const struct snap *a, const struct snap *b, uint64_t dt,
		       const char *what)
{
	unsigned int online = 0, running = 0, blocked = 0, tasks = 0;
	uint64_t busy = 0, cpu_total = 0, worst = 0;

	for (unsigned int c = 0; c < m->ncpus; c++)
		online += m->cpus[c].online;
	for (int t = 0; t < MACH_NR_CPUTIME; t++)
		if (t != MACH_CPU_GUEST && t != MACH_CPU_GUEST_NICE)
			cpu_total += b->cpu[t] - a->cpu[t];
	busy = (b->cpu[MACH_CPU_USER] - a->cpu[MACH_CPU_USER]) + (b->cpu[MACH_CPU_NICE] - a->cpu[MACH_CPU_NICE]) +
	       (b->cpu[MACH_CPU_SYSTEM] - a->cpu[MACH_CPU_SYSTEM]);
	for (size_t i = 0; i < b->nthreads && i < a->nthreads; i++)
		if (b->per_task[i] - a->per_task[i] > worst)
			worst = b->per_task[i] - a->per_task[i];
	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int t = 0; t < m->procs[i].nthreads; t++) {
			running += m->procs[i].threads[t].state == MACH_TASK_RUNNING;
			blocked += m->procs[i].threads[t].state == MACH_TASK_DISK_SLEEP;
			tasks++;
		}
	ok(b->uptime - a->uptime == dt, "%s: the uptime moved by the time asked", what);
	ok(cpu_total == dt * online, "%s: the CPUs' times grew by the elapsed time on each CPU (%llu vs %llu)",
	   what, (unsigned long long)cpu_total, (unsigned long long)(dt * online));
	ok(worst <= dt, "%s: no task ran longer than elapsed", what);
	ok(b->task_ns - a->task_ns <= busy, "%s: the tasks' time fits in the CPUs' busy time (%llu <= %llu)", what,
	   (unsigned long long)(b->task_ns - a->task_ns), (unsigned long long)busy);
	ok(b->idle - a->idle == b->cpu[MACH_CPU_IDLE] - a->cpu[MACH_CPU_IDLE], "%s: uptime's idle is the CPUs' idle",
	   what);
	ok(b->ctxt >= a->ctxt && b->processes >= a->processes, "%s: context switches and forks only grow", what);
	bool psi_up = true;
	for (int r = 0; r < MACH_NR_PSI_RES; r++)
		psi_up &= b->psi_total[r] >= a->psi_total[r];
	ok(psi_up, "%s: pressure totals only grow", what);
	ok(m->procs_running == running && m->procs_blocked == blocked && m->nr_running == running,
	   "%s: procs_running %u and procs_blocked %u count the states", what, running, blocked);
	/* HZ = 250: a busy CPU takes every tick, an idle one few (NO_HZ) */
	ok(b->loc - a->loc >= busy / 4000000 * 9 / 10 && b->loc - a->loc <= dt * online / 4000000 + online,
	   "%s: the local timer fired %llu times, busy %llu ticks of %llu", what, (unsigned long long)(b->loc - a->loc),
	   (unsigned long long)(busy / 4000000), (unsigned long long)(dt * online / 4000000));
	ok(dt < NS || b->dev_irqs > a->dev_irqs, "%s: device interrupts moved with io and traffic", what);
	{
		char why[256];

		if (!ok(!irq_sums_check(m, why, sizeof(why)), "%s: stat's intr and softirq lines sum interrupts and softirqs",
			what))
			diag("%s", why);
	}
	ok(m->avenrun[0] <= (unsigned long)tasks * MACH_FIXED_1 && m->avenrun[2] <= (unsigned long)tasks * MACH_FIXED_1,
	   "%s: load averages within 0..tasks", what);
}

static int by_path(const void *a, const void *b)
{
	return strcmp((*(const struct mach_tree_member *const *)a)->path, (*(const struct mach_tree_member *const *)b)->path);
}

/* A digest of @m's tree: its files concatenated in the order of their paths (bytes), malloc'd in *@out. */
static int render_all(const struct mach_machine *m, char **out, size_t *len)
{
	struct tree_writer w;
	const struct mach_tree_member *members, **order = NULL;
	char err[256];
	size_t n, total = 0;
	int rc = tw_begin_memory(&w, "sim", err, sizeof(err));

	*out = NULL;
	*len = 0;
	if (!rc)
		rc = tw_machine(&w, m, err, sizeof(err));
	members = rc ? NULL : tw_memory_members(&w, &n);
	if (members && (order = malloc(n * sizeof(*order)))) {
		for (size_t i = 0; i < n; i++) {
			order[i] = &members[i];
			total += members[i].type == 'f' ? members[i].len : 0;
		}
		qsort(order, n, sizeof(*order), by_path);
		*out = malloc(total + 1);
	}
	if (*out) {
		for (size_t i = 0; i < n; i++) {
			if (order[i]->type != 'f')
				continue;
			memcpy(*out + *len, order[i]->data, order[i]->len);
			*len += order[i]->len;
		}
	} else if (!rc) {
		rc = -1;
	}
	if (rc)
		diag("render the tree: %s", rc == -1 ? "out of memory" : err);
	free(order);
	tw_abort(&w);
	return rc;
}

static void roundtrip(const struct mach_machine *m, const char *what)
{
	struct mach_load_report rep = { 0 };
	struct mach_machine *back = NULL;
	size_t differ = 0;
	char err[512];
	int rc = tw_roundtrip_memory(m, &back, &rep, err, sizeof(err));

	if (!ok(rc == 0, "%s: the advanced machine's files load back (cross-file consistent)", what))
		diag("%s", err);
	if (!rc) {
		struct pfs_verify_counts counts;

		pfs_verify(back, &rep, NULL, NULL, &counts);
		differ = counts.differ + counts.skipped;
	}
	if (!rc)
		ok(differ == 0, "%s: and render back to the same bytes (%zu differ)", what, differ);
	mach_load_report_free(&rep);
	mach_free(back);
}

static void run(const char *spec)
{
	struct mach_machine *m = NULL;
	struct mach_sim *sim = NULL;
	struct mach_sim_opts so;
	struct snap a, b;
	char err[256], what[160];
	uint64_t steps[] = { 4000000ull, 1 * NS, 60 * NS, 600 * NS };

	if (mach_from_spec(spec, &m, err, sizeof(err)) || mach_sim_opts_from_spec(spec, &so, err, sizeof(err)) ||
	    mach_sim_create(m, &so, &sim, err, sizeof(err))) {
		ok(0, "%s: %s", spec, err);
		mach_free(m);
		return;
	}
	ok(mach_sim_nr_tasks(sim) > 0, "%s: the simulator moves %u tasks", spec, mach_sim_nr_tasks(sim));
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		take(m, &a);
		mach_sim_advance(sim, m->uptime_ns + steps[i]);
		take(m, &b);
		snprintf(what, sizeof(what), "%s +%.3f s", spec, (double)steps[i] / 1e9);
		check_step(m, &a, &b, steps[i], what);
		free(a.per_task);
		free(b.per_task);
	}
	roundtrip(m, spec);
	mach_sim_destroy(sim);
	mach_free(m);
}

/* Disk I/O counters of the top devices and the devices in all, for the io checks. */
struct io_snap {
	uint64_t top_rd, top_wr, ios, io_ticks, iowait_ns, io_some_us;
	unsigned int in_flight;
};

static void io_take(const struct mach_machine *m, struct io_snap *s)
{
	const struct mach_sys *sys = &m->sys;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < sys->nblk; i++) {
		const struct mach_blk_stats *st = &sys->blk[i].st;

		if (mach_blk_is_top(sys, i)) {
			s->top_rd += st->sectors[MACH_BLK_READ];
			s->top_wr += st->sectors[MACH_BLK_WRITE];
		}
		s->ios += st->ios[MACH_BLK_READ] + st->ios[MACH_BLK_WRITE];
		s->io_ticks += st->io_ticks;
		s->in_flight += st->in_flight[0] + st->in_flight[1];
	}
	for (unsigned int c = 0; c < m->ncpus; c++)
		s->iowait_ns += m->cpus[c].time_ns[MACH_CPU_IOWAIT];
	s->io_some_us = m->pressure[MACH_PSI_IO].some.total_us;
}

/*
 * The io waits of the workload are requests to the block devices: iowait, io
 * pressure and diskstats rise together, and what the top devices move stays
 * twice vmstat's pgpgin and pgpgout.  Without io waits no reads happen.
 */
static void disk_io(const char *spec, bool waits)
{
	struct mach_machine *m = NULL;
	struct mach_sim *sim = NULL;
	struct mach_sim_opts so;
	struct io_snap a, b;
	char err[256];

	if (mach_from_spec(spec, &m, err, sizeof(err)) || mach_sim_opts_from_spec(spec, &so, err, sizeof(err)) ||
	    mach_sim_create(m, &so, &sim, err, sizeof(err))) {
		ok(0, "%s: %s", spec, err);
		mach_free(m);
		return;
	}
	io_take(m, &a);
	ok(a.top_rd == 2 * m->vmstat[MACH_VMSTAT_PGPGIN] && a.top_wr == 2 * m->vmstat[MACH_VMSTAT_PGPGOUT],
	   "%s: the top devices' sectors are twice pgpgin and pgpgout", spec);
	mach_sim_advance(sim, m->uptime_ns + 30 * NS);
	io_take(m, &b);
	ok(b.top_rd == 2 * m->vmstat[MACH_VMSTAT_PGPGIN] && b.top_wr == 2 * m->vmstat[MACH_VMSTAT_PGPGOUT],
	   "%s +30 s: still twice pgpgin and pgpgout", spec);
	if (waits) {
		ok(b.ios > a.ios && b.top_rd > a.top_rd && b.io_ticks > a.io_ticks,
		   "%s +30 s: requests completed, sectors read, busy time (%llu requests)", spec,
		   (unsigned long long)(b.ios - a.ios));
		ok(b.iowait_ns > a.iowait_ns && b.io_some_us > a.io_some_us,
		   "%s +30 s: with iowait and io pressure", spec);
		ok(b.in_flight <= mach_sim_nr_tasks(sim) + 1024, "%s: in flight %u: the waiting tasks and writeback", spec,
		   b.in_flight);
	} else {
		ok(b.top_rd == a.top_rd && b.iowait_ns == a.iowait_ns, "%s +30 s: no io waits, no reads, no iowait", spec);
		ok(b.top_wr > a.top_wr, "%s +30 s: writeback still writes", spec);
	}
	mach_sim_destroy(sim);
	mach_free(m);
}

static void determinism(void)
{
	char *x, *y;
	size_t xl, yl;
	int same = 1;

	for (int k = 0; k < 2; k++) {
		struct mach_machine *m;
		struct mach_sim *sim;
		struct mach_sim_opts so;
		char err[256];

		mach_from_spec("synth:seed=11,load=0.8,io=0.1,mem=0.05", &m, err, sizeof(err));
		mach_sim_opts_from_spec("synth:seed=11,load=0.8,io=0.1,mem=0.05", &so, err, sizeof(err));
		mach_sim_create(m, &so, &sim, err, sizeof(err));
		mach_sim_advance(sim, m->uptime_ns + 30 * NS);
		if (render_all(m, k ? &y : &x, k ? &yl : &xl))
			same = 0;
		mach_sim_destroy(sim);
		mach_free(m);
	}
	ok(same && xl == yl && xl > 100000 && !memcmp(x, y, xl), "the same seed moves the machine the same way (%zu bytes)",
	   xl);
	free(x);
	free(y);
}

int main(void)
{
	plan(0);
	run("synth");
	run("synth:cpus=2,tasks=40,load=1,io=0.3,mem=0.2,depth=4,seed=3");
	run("synth:cpus=64,tasks=800,load=0.3,seed=9");
	determinism();
	disk_io("synth:cpus=4,tasks=120,load=0.5,io=0.3,seed=5", true);
	disk_io("synth:cpus=4,tasks=120,load=0.5,io=0,mem=0,seed=6", false);
	return tap_done();
}
