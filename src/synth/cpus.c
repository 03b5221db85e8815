// SPDX-License-Identifier: MIT
/*
 * cpus.c - the clock, the CPU topology, per-CPU times and /proc/schedstat.
 *
 * These come first in a build: the per-CPU times are what the tasks'
 * times are later fitted into, and the topology decides thread masks, the
 * nodes of kswapd and kcompactd, and the scheduler domains.
 */
#include <errno.h>
#include <stdlib.h>

#include "synth_int.h"

/* btime is this fixed instant minus the uptime: reproducible, yet recent. */
#define SYNTH_EPOCH_NOW 1798761600ull /* 2027-01-01 00:00:00 UTC */

#define NSEC_PER_SEC 1000000000ull
#define NSEC_PER_USEC 1000ull
#define SYNTH_HZ 250ull             /* CONFIG_HZ of the reference kernel */
#define JIFFY_NS (NSEC_PER_SEC / SYNTH_HZ)
/* INITIAL_JIFFIES: jiffies start 5 minutes before wrapping 32 bits. */
#define SYNTH_INITIAL_JIFFIES ((uint64_t)(uint32_t)(-300 * (int)SYNTH_HZ))

/* Up between two hours and a month, booted at SYNTH_EPOCH_NOW minus that. */
void sy_build_clock(struct synth *s)
{
	struct mach_machine *m = s->m;

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
void sy_build_topology(struct synth *s)
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
/* CPU numbering                                                        */

/* The core of a CPU: SMT siblings share one. */
static unsigned int cpu_core(const struct synth *s, unsigned int cpu)
{
	return s->smt ? cpu % (s->o->cpus / 2) : cpu;
}

/* Package (and NUMA node, when there are several) of a CPU: siblings share one. */
static unsigned int cpu_pkg(const struct synth *s, unsigned int cpu)
{
	return cpu_core(s, cpu) / (s->smt ? s->pkg_cpus / 2 : s->pkg_cpus);
}

/* Nodes are packages, except on one-node machines. */
static unsigned int cpu_node(const struct synth *s, unsigned int cpu)
{
	return s->nnodes > 1 ? cpu_pkg(s, cpu) : 0;
}

/* A word at a time: masks of thousands of CPUs are set for every thread. */
void sy_bitmap_set_range(struct mach_bitmap *b, unsigned int first, unsigned int count)
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

/* Every CPU when there is one node: the common case needs no per-CPU walk. */
void sy_bitmap_set_node_cpus(const struct synth *s, struct mach_bitmap *b, unsigned int node)
{
	if (s->nnodes <= 1) {
		sy_bitmap_set_range(b, 0, s->o->cpus);
		return;
	}
	for (unsigned int cpu = 0; cpu < s->o->cpus; cpu++)
		if (cpu_node(s, cpu) == node)
			mach_bitmap_set(b, cpu);
}

/* ------------------------------------------------------------------ */
/* CPU times and scheduler statistics                                   */

/* Tick-based times are whole jiffies (HZ=250). */
static uint64_t to_jiffies_ns(double ns)
{
	return (uint64_t)(ns / JIFFY_NS) * JIFFY_NS;
}

/* NO_HZ idle and iowait in whole microseconds. */
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
int sy_build_cpus(struct synth *s)
{
	struct mach_machine *m = s->m;
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

/* An empty span as wide as the CPU ids, at @level. */
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
	sy_bitmap_set_range(&d->span, first, count);
	if (s->smt)
		sy_bitmap_set_range(&d->span, first + cores, count);
}

/* Counters in schedstat are 32-bit: saturate rather than wrap. */
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
		/* what schedstat versions 15 and 16 print: one imbalance, the kinds summed */
		lb[MACH_LB_IMBALANCE] = u32v((double)lb[MACH_LB_IMBALANCE_LOAD] + lb[MACH_LB_IMBALANCE_UTIL] +
					     lb[MACH_LB_IMBALANCE_TASK]);
	}
	d->tail[MACH_ALB_COUNT] = level == 0 ? u32v(up * s->o->load * rng_uniform(r, 0, 0.01)) : 0;
	d->tail[MACH_ALB_PUSHED] = d->tail[MACH_ALB_COUNT] / 2;
	d->tail[MACH_TTWU_WAKE_REMOTE] = u32v(cs->ttwu_count * rng_uniform(r, 0.1, 0.4) * scale);
	d->tail[MACH_TTWU_MOVE_AFFINE] = u32v(d->tail[MACH_TTWU_WAKE_REMOTE] * rng_uniform(r, 0.05, 0.3));
}

/*
 * The domain levels each CPU has: SMT (siblings), MC (the package), then
 * PKG for a few packages on one node, or NUMA levels (8 packages, then
 * all).  Their count; @groups holds how many packages a NUMA level spans
 * (0: all).
 */
static unsigned int sched_levels(const struct synth *s, enum mach_sd_level levels[4], unsigned int groups[4])
{
	unsigned int n = s->o->cpus, pkg_cores = s->smt ? s->pkg_cpus / 2 : s->pkg_cpus;
	unsigned int cores = s->smt ? n / 2 : n, npkgs = cores / pkg_cores, nlev = 0;

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
	return n == 1 ? 0 : nlev;
}

/* One CPU's run-queue counts: they follow the context switches and its busy time. */
static void cpu_schedstat(struct synth *s, struct mach_cpu *cpu, double pressure)
{
	struct mach_cpu_schedstat *cs = &cpu->sched;
	const uint64_t *t = cpu->time_ns;
	unsigned int n = s->o->cpus;
	double busy = (double)(t[MACH_CPU_USER] + t[MACH_CPU_NICE] + t[MACH_CPU_SYSTEM] +
			       t[MACH_CPU_SOFTIRQ]);

	cs->sched_count = (uint32_t)(uint64_t)((double)s->m->ctxt / n * rng_uniform(&s->rng, 0.9, 1.1));
	cs->sched_goidle = u32v(cs->sched_count * rng_uniform(&s->rng, 0.3, 0.5) *
				(1 - busy / (double)s->now));
	cs->ttwu_count = u32v(cs->sched_count * rng_uniform(&s->rng, 0.4, 0.6));
	cs->ttwu_local = u32v(cs->ttwu_count * rng_uniform(&s->rng, 0.4, 0.8));
	cs->yld_count = (uint32_t)rng_below(&s->rng, 1 + cs->sched_count / 1000);
	cs->rq_cpu_time = (uint64_t)busy;
	cs->run_delay = (uint64_t)(busy * pressure * rng_uniform(&s->rng, 0.5, 1.5));
	cs->pcount = cs->sched_count - cs->sched_goidle;
}

/* /proc/schedstat: every CPU's counts, and its domains with their load balancing. */
int sy_build_schedstat(struct synth *s)
{
	enum mach_sd_level levels[4];
	unsigned int groups[4] = { 0 }, nlev = sched_levels(s, levels, groups);
	double pressure = 0.005 + 0.3 * s->o->load * s->o->load;

	for (unsigned int c = 0; c < s->o->cpus; c++) {
		struct mach_cpu_schedstat *cs = &s->m->cpus[c].sched;

		cpu_schedstat(s, &s->m->cpus[c], pressure);
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
