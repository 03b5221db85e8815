// SPDX-License-Identifier: MIT
/*
 * cgroup_cpu.c - a group's CPU and pids files (kernel/cgroup/rstat.c
 * cgroup_base_stat_cputime_show, kernel/sched/core.c cpu_files,
 * kernel/cgroup/pids.c of Linux 6.18).
 *
 * cpu.stat of a group is the time of its tasks: each process in it or
 * below it counts its threads' time (utime and stime as /proc/<pid>/stat
 * shows them, nice time where it runs niced), and the group keeps what
 * tasks that are gone left.  The root's is the CPUs' own accounting, what
 * /proc/stat sums: user and nice, then system, irq and softirq.  Both
 * print microseconds, each cut from its nanosecond sum.
 */
#include <stdlib.h>

#include "render.h"

static const struct mach_cg_state *state(const struct pfs_ctx *c)
{
	return mach_cg_state_of(&c->mach->cgroups[pfs_cg_of(c)]);
}

void pfs_cg_cputime(const struct mach_machine *mach, uint32_t g, uint64_t *user, uint64_t *sys, uint64_t *nice)
{
	const struct mach_cg_state *st = mach_cg_state_of(&mach->cgroups[g]);

	*user = *sys = *nice = 0;
	if (mach->cgroups[g].parent == MACH_NONE) {
		for (unsigned int i = 0; i < mach->ncpus; i++) {
			const uint64_t *t = mach->cpus[i].time_ns;

			*user += t[MACH_CPU_USER] + t[MACH_CPU_NICE];
			*sys += t[MACH_CPU_SYSTEM] + t[MACH_CPU_IRQ] + t[MACH_CPU_SOFTIRQ];
			*nice += t[MACH_CPU_NICE];
		}
		return;
	}
	mach_cg_task_time(mach, g, user, sys, nice);
	*user += st->gone_user_ns;
	*sys += st->gone_system_ns;
	*nice += st->gone_nice_ns;
}

int pfs_show_cg_cpu_stat(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	uint32_t g = pfs_cg_of(c);
	const struct mach_cg_state *st = state(c);
	uint64_t user, sys, nice;

	(void)v;
	pfs_cg_cputime(c->mach, g, &user, &sys, &nice);
	seq_put_decimal_ull(m, "usage_usec ", (user + sys) / 1000);
	seq_put_decimal_ull(m, "\nuser_usec ", user / 1000);
	seq_put_decimal_ull(m, "\nsystem_usec ", sys / 1000);
	seq_put_decimal_ull(m, "\nnice_usec ", nice / 1000);
	seq_putc(m, '\n');
	if (!mach_cg_has_css(c->mach, g, MACH_SS_CPU))
		return 0;
	/* cpu_extra_stat_show: the group's CFS bandwidth */
	seq_put_decimal_ull(m, "nr_periods ", st->nr_periods);
	seq_put_decimal_ull(m, "\nnr_throttled ", st->nr_throttled);
	seq_put_decimal_ull(m, "\nthrottled_usec ", st->throttled_ns / 1000);
	seq_put_decimal_ull(m, "\nnr_bursts ", st->nr_bursts);
	seq_put_decimal_ull(m, "\nburst_usec ", st->burst_ns / 1000);
	seq_putc(m, '\n');
	return 0;
}

int pfs_show_cg_cpu_stat_local(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	if (mach_cg_has_css(c->mach, pfs_cg_of(c), MACH_SS_CPU)) {
		seq_put_decimal_ull(m, "throttled_usec ", state(c)->local_throttled_ns / 1000);
		seq_putc(m, '\n');
	}
	return 0;
}

/* cpu_period_quota_print */
int pfs_show_cg_cpu_max(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_cg_state *st = state(c);

	(void)v;
	if (st->quota_us < 0)
		seq_puts(m, "max");
	else
		seq_put_decimal_ll(m, "", st->quota_us);
	seq_put_decimal_ull(m, " ", st->period_us);
	seq_putc(m, '\n');
	return 0;
}

int pfs_show_cg_cpu_weight(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_put_decimal_ull(m, "", mach_cg_weight(state(c)->shares));
	seq_putc(m, '\n');
	return 0;
}

int pfs_show_cg_cpu_weight_nice(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_put_decimal_ll(m, "", mach_cg_weight_nice(state(c)->shares));
	seq_putc(m, '\n');
	return 0;
}

/* pids.current: tasks charged in the subtree, zombies until reaped. */
int pfs_show_cg_pids_current(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	uint64_t n = mach_cg_nr_tasks(c->mach, pfs_cg_of(c));

	(void)v;
	seq_put_decimal_ull(m, "", n);
	seq_putc(m, '\n');
	return 0;
}

int pfs_show_cg_pids_max(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	int64_t max = state(c)->pids_max;

	(void)v;
	if (max >= MACH_CG_PIDS_MAX)
		seq_puts(m, "max");
	else
		seq_put_decimal_ll(m, "", max);
	seq_putc(m, '\n');
	return 0;
}
