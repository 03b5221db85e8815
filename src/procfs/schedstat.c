// SPDX-License-Identifier: MIT
/*
 * schedstat.c - /proc/schedstat, versions 15, 16 and 17.
 *
 * Mirrors kernel/sched/stats.c show_schedstat and its seq_operations of Linux
 * 6.18: record 0 is the header (version, timestamp in jiffies), then one
 * record per online CPU with its domains.  Version 17 (6.15) prints each
 * domain's name before its span and 11 load-balance counters per idle type;
 * versions 15 and 16 print 8 (one lb_imbalance).  Version 16 (6.10) put the
 * idle types in the order busy, idle, newly idle; 15 printed idle first.  Only
 * CONFIG_SCHEDSTATS kernels have this file; the reference VM does not, so the
 * format is checked against the documented layout rather than an oracle.
 */
#include "render.h"

/* Records are 1 + the index of the online CPU: 1 is the header token. */
static void *schedstat_at(struct seq_file *m, loff_t pos)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;
	loff_t online = 0;

	if (pos == 0)
		return SEQ_START_TOKEN;
	for (unsigned int i = 0; i < mach->ncpus; i++) {
		if (!mach->cpus[i].online)
			continue;
		if (++online == pos)
			return (void *)&mach->cpus[i];
	}
	return NULL;
}

void *pfs_schedstat_start(struct seq_file *m, loff_t *pos)
{
	return *pos < 0 ? NULL : schedstat_at(m, *pos);
}

void *pfs_schedstat_next(struct seq_file *m, void *v, loff_t *pos)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_cpu *cpu = v, *end = c->mach->cpus + c->mach->ncpus;

	++*pos;
	if (v == SEQ_START_TOKEN)
		return schedstat_at(m, *pos);
	/* The next online CPU after this one, without rescanning from CPU 0. */
	for (cpu++; cpu < end; cpu++)
		if (cpu->online)
			return (void *)cpu;
	return NULL;
}

static void show_domain(struct seq_file *m, unsigned int version, unsigned int index,
			const struct mach_sched_domain *sd)
{
	const enum mach_idle_type *order = mach_schedstat_idle_order(version);
	unsigned int nlb;
	const enum mach_lb_stat *lb = mach_schedstat_lb_fields(version, &nlb);

	seq_put_decimal_ull(m, "domain", index);
	seq_putc(m, ' ');
	if (version >= 17) { /* "sched/stats: Print domain name in /proc/schedstat" */
		seq_puts(m, mach_sd_level_name(sd->level));
		seq_putc(m, ' ');
	}
	seq_put_bitmap(m, sd->span.words, sd->span.nbits);
	for (int type = 0; type < MACH_NR_IDLE_TYPES; type++)
		for (unsigned int k = 0; k < nlb; k++)
			seq_put_decimal_ull(m, " ", sd->lb[order[type]][lb[k]]);
	for (int k = 0; k < MACH_NR_DOMAIN_TAIL; k++)
		seq_put_decimal_ull(m, " ", sd->tail[k]);
	seq_putc(m, '\n');
}

static int schedstat_show(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_cpu *cpu = v;
	const struct mach_cpu_schedstat *s;

	if (v == SEQ_START_TOKEN) {
		seq_put_decimal_ull(m, "version ", c->mach->profile.schedstat_version);
		seq_put_decimal_ull(m, "\ntimestamp ", c->mach->schedstat_timestamp);
		seq_putc(m, '\n');
		return 0;
	}
	s = &cpu->sched;
	seq_put_decimal_ull(m, "cpu", cpu->id);
	seq_put_decimal_ull(m, " ", s->yld_count);
	seq_puts(m, " 0");
	seq_put_decimal_ull(m, " ", s->sched_count);
	seq_put_decimal_ull(m, " ", s->sched_goidle);
	seq_put_decimal_ull(m, " ", s->ttwu_count);
	seq_put_decimal_ull(m, " ", s->ttwu_local);
	seq_put_decimal_ull(m, " ", s->rq_cpu_time);
	seq_put_decimal_ull(m, " ", s->run_delay);
	seq_put_decimal_ull(m, " ", s->pcount);
	seq_putc(m, '\n');
	for (unsigned int d = 0; d < s->ndomains; d++)
		show_domain(m, c->mach->profile.schedstat_version, d, &s->domains[d]);
	return 0;
}

const struct seq_operations pfs_schedstat_ops = {
	.start = pfs_schedstat_start,
	.next = pfs_schedstat_next,
	.stop = pfs_seq_stop_nothing,
	.show = schedstat_show,
};
