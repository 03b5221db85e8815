// SPDX-License-Identifier: MIT
/*
 * load_sys_cgcpu.c - the root cgroup's cpu.stat against /proc/stat.
 *
 * Both print the CPUs' own accounting (kcpustat): /proc/stat in ticks of
 * 10 ms, each CPU's cut on its own and the total cut once, the root's
 * cpu.stat in microseconds (user and nice, then system, irq and softirq,
 * and their sum, each cut from nanoseconds).  The loader gave the CPUs
 * whole ticks and the remainders the total needed; cpu.stat says more
 * finely where the sums lie, so the remainders are chosen again, within
 * what every /proc/stat line still prints, for both files to print as read.
 */
#include <errno.h>

#include "load_int.h"

#define TICK MACH_NSEC_PER_TICK

struct range {
	uint64_t lo, hi; /* inclusive; lo > hi: empty */
};

static struct range meet(struct range a, struct range b)
{
	return (struct range){ a.lo > b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi };
}

static struct range plus(struct range a, struct range b)
{
	return (struct range){ a.lo + b.lo, a.hi + b.hi };
}

static bool empty(struct range r)
{
	return r.lo > r.hi;
}

static uint64_t clamp(uint64_t v, struct range r)
{
	return v < r.lo ? r.lo : v > r.hi ? r.hi : v;
}

/* What field @f's sum over the CPUs may be: each CPU's ticks kept, the total's ticks kept. */
static struct range field_range(const struct mach_machine *m, enum mach_cputime f)
{
	uint64_t sum = 0, base = 0;

	for (unsigned int i = 0; i < m->ncpus; i++) {
		sum += m->cpus[i].time_ns[f];
		base += m->cpus[i].time_ns[f] / TICK * TICK;
	}
	return meet((struct range){ sum / TICK * TICK, sum / TICK * TICK + TICK - 1 },
		    (struct range){ base, base + (uint64_t)m->ncpus * (TICK - 1) });
}

static uint64_t sum_of(const struct mach_machine *m, enum mach_cputime f)
{
	uint64_t sum = 0;

	for (unsigned int i = 0; i < m->ncpus; i++)
		sum += m->cpus[i].time_ns[f];
	return sum;
}

/* Give field @f the sum @total: each CPU its ticks and a share of the rest below a tick. */
static void spread(struct mach_machine *m, enum mach_cputime f, uint64_t total)
{
	uint64_t rest = total;

	for (unsigned int i = 0; i < m->ncpus; i++)
		rest -= m->cpus[i].time_ns[f] / TICK * TICK;
	for (unsigned int i = 0; i < m->ncpus; i++) {
		uint64_t share = rest < TICK - 1 ? rest : TICK - 1;

		m->cpus[i].time_ns[f] = m->cpus[i].time_ns[f] / TICK * TICK + share;
		rest -= share;
	}
}

static struct range usec(uint64_t us)
{
	return (struct range){ us * 1000, us * 1000 + 999 };
}

int ld_cpu_fit_cgroup(struct mach_machine *m, uint64_t usage, uint64_t user, uint64_t sys, uint64_t nice)
{
	struct range ru = field_range(m, MACH_CPU_USER), rn = field_range(m, MACH_CPU_NICE);
	struct range rs = field_range(m, MACH_CPU_SYSTEM), ri = field_range(m, MACH_CPU_IRQ);
	struct range rq = field_range(m, MACH_CPU_SOFTIRQ);
	struct range n = meet(usec(nice), rn), un = meet(usec(user), plus(ru, n));
	struct range s3 = meet(usec(sys), plus(plus(rs, ri), rq)), all = meet(usec(usage), plus(un, s3));
	uint64_t t_un, t_s3, t_n, t_s, t_i, t_q, cur_i = sum_of(m, MACH_CPU_IRQ), cur_q = sum_of(m, MACH_CPU_SOFTIRQ);

	if (!m->ncpus || empty(n) || empty(un) || empty(s3) || empty(all))
		return -EAGAIN;
	t_un = clamp(all.lo - s3.lo, un);
	t_s3 = all.lo - t_un;
	t_n = clamp(t_un - ru.lo, n);
	/* irq and softirq stay where they are if the system time allows, else move as little as they must */
	t_s = clamp(t_s3 > cur_i + cur_q ? t_s3 - cur_i - cur_q : 0, rs);
	if (t_s > t_s3)
		return -EAGAIN;
	t_i = clamp(t_s3 - t_s > cur_q ? t_s3 - t_s - cur_q : 0, ri);
	if (t_s + t_i > t_s3)
		return -EAGAIN;
	t_q = t_s3 - t_s - t_i;
	if (empty(meet((struct range){ t_q, t_q }, rq)) || empty(meet((struct range){ t_un - t_n, t_un - t_n }, ru)))
		return -EAGAIN;
	spread(m, MACH_CPU_USER, t_un - t_n);
	spread(m, MACH_CPU_NICE, t_n);
	spread(m, MACH_CPU_SYSTEM, t_s);
	spread(m, MACH_CPU_IRQ, t_i);
	spread(m, MACH_CPU_SOFTIRQ, t_q);
	return 0;
}
