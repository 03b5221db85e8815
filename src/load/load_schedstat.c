// SPDX-License-Identifier: MIT
/*
 * load_schedstat.c - parse /proc/schedstat versions 15, 16 and 17, as
 * printed by kernel/sched/stats.c show_schedstat() (procfs-facts.md section
 * 6).  The file exists only with CONFIG_SCHEDSTATS.
 *
 *   version 17
 *   timestamp <jiffies>
 *   cpu<N> <yld> 0 <sched> <goidle> <ttwu> <ttwu_local> <cpu_ns> <delay_ns> <pcount>
 *   domain<D> <NAME> <%*pb span> <11 x 3 load-balance counters> <12 more>
 *
 * One cpu line per online CPU, followed by its domains numbered from 0.
 * Versions 15 (up to 6.9) and 16 (6.10 to 6.14) print no domain name
 * and 8 counters per idle type (one lb_imbalance); 15 lists the idle types
 * idle, busy, newly idle, 16 and 17 busy first.  Other versions are refused.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"

struct sched_cpu {
	unsigned int id;
	struct mach_cpu_schedstat s;
	size_t domains_cap;
};

static void sched_free(struct mach_cpu_schedstat *s)
{
	for (unsigned int d = 0; d < s->ndomains; d++)
		mach_bitmap_free(&s->domains[d].span);
	free(s->domains);
	s->domains = NULL;
	s->ndomains = 0;
}

static int u32_field(struct lex *lx, uint32_t *v)
{
	uint64_t x;
	int rc;

	if ((rc = lex_expect(lx, " ")) || (rc = lex_u64_max(lx, &x, UINT32_MAX)))
		return rc;
	*v = (uint32_t)x;
	return 0;
}

static int cpu_line(struct lex *lx, struct sched_cpu *c)
{
	uint64_t id, zero;
	int rc;

	lex_ctx(lx, "cpu");
	if (lx->p >= lx->end || *lx->p < '0' || *lx->p > '9')
		return lex_expected(lx, "a CPU number");
	if ((rc = lex_u64_max(lx, &id, LD_MAX_CPU_BITS - 2)))
		return rc;
	c->id = (unsigned int)id;
	lex_ctx(lx, "cpuN");
	if ((rc = u32_field(lx, &c->s.yld_count)) || (rc = lex_expect(lx, " ")) ||
	    (rc = lex_u64_max(lx, &zero, 0)) || (rc = u32_field(lx, &c->s.sched_count)) ||
	    (rc = u32_field(lx, &c->s.sched_goidle)) || (rc = u32_field(lx, &c->s.ttwu_count)) ||
	    (rc = u32_field(lx, &c->s.ttwu_local)) || (rc = lex_expect(lx, " ")) ||
	    (rc = lex_u64(lx, &c->s.rq_cpu_time)) || (rc = lex_expect(lx, " ")) ||
	    (rc = lex_u64(lx, &c->s.run_delay)) || (rc = lex_expect(lx, " ")) ||
	    (rc = lex_u64(lx, &c->s.pcount)))
		return rc;
	return lex_eol(lx);
}

/* The domain's name (version 17 prints it before the span). */
static int domain_name(struct lex *lx, struct mach_sched_domain *d)
{
	const char *sp = memchr(lx->p, ' ', (size_t)(lex_line_end(lx) - lx->p));
	int level = -1;

	for (int l = 0; sp && l < MACH_NR_SD_LEVELS; l++) {
		const char *name = mach_sd_level_name((enum mach_sd_level)l);

		if (strlen(name) == (size_t)(sp - lx->p) && !memcmp(name, lx->p, strlen(name)))
			level = l;
	}
	if (level < 0)
		return lex_expected(lx, "a domain name (SMT, CLS, MC, PKG or NUMA)");
	d->level = (enum mach_sd_level)level;
	lx->p = sp + 1;
	return 0;
}

static int domain_line(struct lex *lx, unsigned int version, struct sched_cpu *c, struct ld_bound *cpus)
{
	const enum mach_idle_type *order = mach_schedstat_idle_order(version);
	unsigned int nlb;
	const enum mach_lb_stat *lb = mach_schedstat_lb_fields(version, &nlb);
	struct mach_sched_domain *d;
	unsigned int lo, hi;
	uint64_t num;
	int rc;

	lex_ctx(lx, "domain");
	if ((rc = lex_u64_max(lx, &num, UINT32_MAX)))
		return rc;
	if (num != c->s.ndomains)
		return lex_fail(lx, "domain%llu where domain%u was expected",
				(unsigned long long)num, c->s.ndomains);
	d = VEC_PUSH(c->s.domains, c->s.ndomains, c->domains_cap);
	if (!d)
		return -ENOMEM;
	if ((rc = lex_expect(lx, " ")))
		return rc;
	if (version >= 17 && (rc = domain_name(lx, d)))
		return rc;
	lex_ctx(lx, version >= 17 ? "domain name" : "domain");
	if ((rc = lex_bitmap(lx, &d->span, LD_MAX_CPU_BITS, &lo, &hi)))
		return rc;
	ld_bound_lo(cpus, lo, lx->path);
	ld_bound_hi(cpus, hi, lx->path);
	lex_ctx(lx, "domain span");
	for (int t = 0; t < MACH_NR_IDLE_TYPES; t++)
		for (unsigned int k = 0; k < nlb; k++)
			if ((rc = u32_field(lx, &d->lb[order[t]][lb[k]])))
				return rc;
	for (int k = 0; k < MACH_NR_DOMAIN_TAIL; k++)
		if ((rc = u32_field(lx, &d->tail[k])))
			return rc;
	return lex_eol(lx);
}

/* schedstat's CPUs against the online CPUs /proc/stat listed: the same, one line each. */
static int same_as_online(struct lex *lx, const struct mach_machine *m, const struct sched_cpu *cpus, unsigned int n)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < m->ncpus; i++) {
		if (!m->cpus[i].online)
			continue;
		if (k >= n || cpus[k].id != m->cpus[i].id)
			return lex_fail_line(lx, 1, "stat lists cpu%u online, schedstat %s", m->cpus[i].id,
					     k < n ? "lists another CPU in its place" : "does not list it");
		k++;
	}
	if (k < n)
		return lex_fail_line(lx, 1, "cpu%u is not online in stat", cpus[k].id);
	return 0;
}

int ld_parse_schedstat(struct lex *lx, struct mach_machine *m, struct ld_bound *bound, bool stat_known,
		       struct ld_cpu_ids *listed)
{
	unsigned int *ids;
	struct sched_cpu *cpus = NULL;
	unsigned int n = 0;
	size_t cap = 0;
	uint64_t version, ts;
	int rc;

	lex_ctx(lx, NULL);
	if ((rc = lex_expect(lx, "version ")) || (rc = lex_u64(lx, &version)))
		goto out;
	if (version < 15 || version > 17) {
		rc = lex_fail(lx, "schedstat version %llu; versions 15 (up to 6.9), 16 (6.10-6.14) and 17 "
			      "(6.15+) are understood", (unsigned long long)version);
		goto out;
	}
	lex_ctx(lx, "version");
	if ((rc = lex_eol(lx)))
		goto out;
	lex_ctx(lx, NULL);
	if ((rc = lex_expect(lx, "timestamp ")) || (rc = lex_u64(lx, &ts)))
		goto out;
	lex_ctx(lx, "timestamp");
	if ((rc = lex_eol(lx)))
		goto out;
	while (!lex_eof(lx)) {
		lex_ctx(lx, NULL);
		if (lex_accept(lx, "cpu")) {
			struct sched_cpu *sc = VEC_PUSH(cpus, n, cap);

			if (!sc) {
				rc = -ENOMEM;
				goto out;
			}
			if ((rc = cpu_line(lx, sc)))
				goto out;
			if (n > 1 && cpus[n - 1].id <= cpus[n - 2].id) {
				rc = lex_fail_at(lx, lx->p - 1, "cpu%u after cpu%u", cpus[n - 1].id,
						 cpus[n - 2].id);
				goto out;
			}
		} else if (n && lex_accept(lx, "domain")) {
			if ((rc = domain_line(lx, (unsigned int)version, &cpus[n - 1], bound)))
				goto out;
		} else {
			rc = lex_expected(lx, n ? "\"cpu\" or \"domain\"" : "\"cpu\"");
			goto out;
		}
	}
	if (stat_known && (rc = same_as_online(lx, m, cpus, n)))
		goto out;
	ids = malloc((n ? n : 1) * sizeof(*ids));
	if (!ids) {
		rc = -ENOMEM;
		goto out;
	}
	for (unsigned int i = 0; i < n; i++)
		ids[i] = cpus[i].id;
	free(listed->id);
	listed->id = ids;
	listed->n = n;
	for (unsigned int i = 0; i < n; i++) {
		struct mach_cpu *c = ld_cpu(m, cpus[i].id, true);

		if (!c) {
			rc = -ENOMEM;
			goto out;
		}
		sched_free(&c->sched);
		c->sched = cpus[i].s;
		cpus[i].s.domains = NULL;
		cpus[i].s.ndomains = 0;
		ld_bound_lo(bound, cpus[i].id + 1, lx->path);
	}
	m->schedstat_timestamp = ts;
	m->profile.has_schedstat = true;
	m->profile.schedstat_version = (unsigned int)version;
out:
	for (unsigned int i = 0; i < n; i++)
		sched_free(&cpus[i].s);
	free(cpus);
	return rc;
}
