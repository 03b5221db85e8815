// SPDX-License-Identifier: MIT
/*
 * schedstat.c - /proc/schedstat printed with seq_printf, as
 * kernel/sched/stats.c show_schedstat does (the seed 004 patch to use
 * seq_put_decimal_ull was answered "why do we want less obvious code for a
 * silly stats file?").  Version 17 layout; same bytes as
 * src/procfs/schedstat.c.
 */
#include "before.h"

static void show_span(struct seq_file *m, const struct mach_bitmap *b)
{
	unsigned int top = b->nbits % 32 ? b->nbits % 32 : 32;
	int last = (int)((b->nbits + 31) / 32) - 1;

	for (int chunk = last; chunk >= 0; chunk--) {
		unsigned int bits = chunk == last ? top : 32;
		uint32_t v = (uint32_t)((b->words[chunk / 2] >> (32 * (chunk % 2))) & ((1ull << bits) - 1));
		before_seq_printf(m, chunk ? "%0*x," : "%0*x", (int)((bits + 3) / 4), v);
	}
}

static int show(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_cpu *cpu = v;
	const struct mach_cpu_schedstat *s;

	if (v == SEQ_START_TOKEN) {
		before_seq_printf(m, "version %u\n", c->mach->profile.schedstat_version);
		before_seq_printf(m, "timestamp %llu\n", (unsigned long long)c->mach->schedstat_timestamp);
		return 0;
	}
	s = &cpu->sched;
	before_seq_printf(m, "cpu%u %u 0 %u %u %u %u %llu %llu %llu", cpu->id, s->yld_count, s->sched_count,
			  s->sched_goidle, s->ttwu_count, s->ttwu_local, (unsigned long long)s->rq_cpu_time,
			  (unsigned long long)s->run_delay, (unsigned long long)s->pcount);
	before_seq_printf(m, "\n");
	for (unsigned int d = 0; d < s->ndomains; d++) {
		const struct mach_sched_domain *sd = &s->domains[d];

		before_seq_printf(m, "domain%u %s ", d, mach_sd_level_name(sd->level));
		show_span(m, &sd->span);
		for (int t = 0; t < MACH_NR_IDLE_TYPES; t++) {
			const uint32_t *l = sd->lb[t];
			before_seq_printf(m, " %u %u %u %u %u %u %u %u %u %u %u", l[0], l[1], l[2], l[3], l[4],
					  l[5], l[6], l[7], l[8], l[9], l[10]);
		}
		const uint32_t *x = sd->tail;
		before_seq_printf(m, " %u %u %u %u %u %u %u %u %u %u %u %u\n", x[0], x[1], x[2], x[3], x[4],
				  x[5], x[6], x[7], x[8], x[9], x[10], x[11]);
	}
	return 0;
}

const struct seq_operations before_schedstat_ops = {
	.start = pfs_schedstat_start, .next = pfs_schedstat_next, .stop = pfs_seq_stop_nothing, .show = show,
};
