// SPDX-License-Identifier: MIT
/*
 * plan_boot.c - the part of the tree that boot creates: kthreadd and its
 * kernel threads, systemd's daemons, and the kworkers that came later.
 *
 * Kernel threads take pids before userspace does, in the order Linux 6.18
 * creates them, so the pids of a synthetic machine read like a real one's.
 */
#include "plan.h"

/* The next workqueue rescuer, in the kernel's order, until the names run out. */
static void plan_rescuer(struct synth *s)
{
	if (s->rescuer < NR_RESCUERS && sy_plan_kt(s, K_RESCUER, s->rescuer) != NONE)
		s->rescuer++;
}

/*
 * kthreadd and the kernel threads of boot, in the order Linux 6.18 creates
 * them: early workqueue rescuers, CPU 0's threads, every other CPU's
 * hotplug/migration/softirq/kworker set, then the subsystems.  On machines
 * with thousands of CPUs and few tasks, the per-CPU sets stop where the
 * kthread share of the task count (45%) runs out.
 */
void sy_plan_kthreads(struct synth *s)
{
	unsigned int ncpu = s->o->cpus, unbound = 4 * ncpu, sets;
	size_t tail = 26 + 2 * (size_t)s->nnodes;

	s->kt_budget = s->limit >= 2 ? (size_t)((double)s->limit * 0.45) : 0;
	if (s->limit >= 2 && s->kt_budget < 1)
		s->kt_budget = 1;
	sy_plan_kt(s, K_KTHREADD, 0);
	sy_plan_kt(s, K_POOL_RELEASE, 0);
	for (int i = 0; i < 5; i++)
		plan_rescuer(s);
	sy_plan_kt(s, K_PERCPU_H, 0);
	sy_plan_kt(s, K_UNBOUND, unbound);
	plan_rescuer(s);
	sy_plan_kt(s, K_KSOFTIRQD, 0);
	sy_plan_kt(s, K_RCU_PREEMPT, 0);
	sy_plan_kt(s, K_RCU_EXP_PAR, 0);
	sy_plan_kt(s, K_RCU_EXP, 0);
	sy_plan_kt(s, K_MIGRATION, 0);
	sy_plan_kt(s, K_CPUHP, 0);
	sets = ncpu - 1;
	if (s->nkt + tail + 5 * (size_t)sets > s->kt_budget)
		sets = s->kt_budget > s->nkt + tail ? (unsigned int)((s->kt_budget - s->nkt - tail) / 5) : 0;
	for (unsigned int cpu = 1; cpu <= sets; cpu++) {
		sy_plan_kt(s, K_CPUHP, cpu);
		sy_plan_kt(s, K_MIGRATION, cpu);
		sy_plan_kt(s, K_KSOFTIRQD, cpu);
		sy_plan_kt(s, K_PERCPU_EVENTS, cpu);
		sy_plan_kt(s, K_PERCPU_HIGHPRI, cpu);
	}
	sy_plan_kt(s, K_KDEVTMPFS, 0);
	plan_rescuer(s);
	sy_plan_kt(s, K_RCU_TASKS, 0);
	sy_plan_kt(s, K_RCU_TASKS_RUDE, 0);
	sy_plan_kt(s, K_RCU_TASKS_TRACE, 0);
	sy_plan_kt(s, K_KAUDITD, 0);
	sy_plan_kt(s, K_KHUNGTASKD, 0);
	sy_plan_kt(s, K_OOM_REAPER, 0);
	sy_plan_kt(s, K_UNBOUND_WB, unbound);
	plan_rescuer(s);
	sy_plan_kt(s, K_UNBOUND_FLUSH, unbound);
	for (unsigned int node = 0; node < s->nnodes; node++)
		sy_plan_kt(s, K_KCOMPACTD, node);
	sy_plan_kt(s, K_KSMD, 0);
	sy_plan_kt(s, K_KHUGEPAGED, 0);
	plan_rescuer(s);
	plan_rescuer(s);
	sy_plan_kt(s, K_WATCHDOGD, 0);
	plan_rescuer(s);
	for (unsigned int node = 0; node < s->nnodes; node++)
		sy_plan_kt(s, K_KSWAPD, node);
	plan_rescuer(s);
	sy_plan_kt(s, K_IRQ_ACPI, 0);
	sy_plan_kt(s, K_HWRNG, 0);
	for (int i = 0; i < 3; i++)
		plan_rescuer(s);
	sy_plan_kt(s, K_UNBOUND_HI, unbound + 1);
	sy_plan_kt(s, K_JBD2, 0);
	plan_rescuer(s);
	/* kworkers that came and went while the machine ran: some are alive now */
	s->late_kworkers = s->kt_budget > s->nkt ? s->kt_budget - s->nkt : 0;
	if (s->late_kworkers > 2 + ncpu / 2)
		s->late_kworkers = 2 + ncpu / 2;
}

/* One kworker created long after boot, placed among the user processes. */
void sy_plan_late_kworker(struct synth *s)
{
	static const enum kt_id kinds[] = { K_LATE_EVENTS, K_LATE_POWER, K_LATE_UNBOUND };
	enum kt_id k = kinds[rng_below(&s->rng, 3)];
	uint32_t inst = k == K_LATE_UNBOUND ? 4 * s->o->cpus : (uint32_t)rng_below(&s->rng, s->o->cpus);

	inst |= (1 + s->late_seq++ % 60000) << 16;

	if (sy_plan_kt(s, k, inst) != NONE)
		s->late_kworkers--;
	else
		s->late_kworkers = 0;
}

/* systemd's children at boot; each leads its own session. */
static int plan_daemon(struct synth *s, unsigned int prog, uint32_t uid)
{
	int idx = sy_plan_user(s, prog, 0, PG_SESSION, uid, 0);

	if (idx != NONE && rng_chance(&s->rng, 0.04))
		s->gen[idx].flags |= GF_DELETED;
	return idx;
}

/* Which daemons run varies per machine, as it does between real servers. */
void sy_plan_daemons(struct synth *s)
{
	struct rng *r = &s->rng;
	int idx;

	plan_daemon(s, P_JOURNALD, UID_ROOT);
	plan_daemon(s, P_UDEVD, UID_ROOT);
	if (rng_chance(r, 0.5))
		plan_daemon(s, P_NETWORKD, UID_NETWORK);
	if (rng_chance(r, 0.6))
		plan_daemon(s, P_RESOLVED, UID_RESOLVE);
	if (rng_chance(r, 0.8))
		plan_daemon(s, P_TIMESYNCD, UID_TIMESYNC);
	plan_daemon(s, P_DBUS, UID_MESSAGEBUS);
	plan_daemon(s, P_LOGIND, UID_ROOT);
	plan_daemon(s, P_RSYSLOGD, UID_SYSLOG);
	s->cron = plan_daemon(s, P_CRON, UID_ROOT);
	if (rng_chance(r, 0.4))
		plan_daemon(s, P_ATD, UID_DAEMON);
	if (s->o->cpus > 1 && rng_chance(r, 0.7))
		plan_daemon(s, P_IRQBALANCE, UID_ROOT);
	if (rng_chance(r, 0.3))
		plan_daemon(s, P_MULTIPATHD, UID_ROOT);
	if (rng_chance(r, 0.5))
		plan_daemon(s, P_POLKITD, UID_POLKITD);
	plan_daemon(s, P_DNSMASQ, UID_NOBODY); /* drops to nobody */
	s->sshd = plan_daemon(s, P_SSHD, UID_ROOT);
	idx = plan_daemon(s, P_AGETTY, UID_ROOT);
	if (idx != NONE) {
		s->m->procs[idx].tty_nr = TTY_TTY1;
		s->m->procs[idx].tpgid = idx;
	}
	if (rng_chance(r, 0.6) && (idx = plan_daemon(s, P_AGETTY_SERIAL, UID_ROOT)) != NONE) {
		s->m->procs[idx].tty_nr = TTY_TTYS0;
		s->m->procs[idx].tpgid = idx;
	}
	if (rng_chance(r, 0.45)) {
		plan_daemon(s, P_CONTAINERD, UID_ROOT);
		if (rng_chance(r, 0.7))
			plan_daemon(s, P_DOCKERD, UID_ROOT);
	}
	if (rng_chance(r, 0.5))
		plan_daemon(s, P_UNATTENDED, UID_ROOT);
}
