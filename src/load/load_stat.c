// SPDX-License-Identifier: MIT
/*
 * load_stat.c - parse /proc/stat, as printed by fs/proc/stat.c show_stat()
 * (Linux 6.18; procfs-facts.md section 4).
 *
 * The model keeps CPU times in nanoseconds.  Each "cpuN" line is that CPU's
 * nanoseconds converted to ticks on their own, while the aggregate "cpu  "
 * line sums the nanoseconds of every possible CPU and converts once, so it
 * may exceed the sum of the per-CPU ticks by up to (CPUs - 1).  The loader
 * gives each online CPU a sub-tick remainder so that the sum reproduces the
 * aggregate; a larger surplus (time of CPUs that are offline now) goes to an
 * extra offline CPU, which prints in the aggregate only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"

/* Ticks whose nanoseconds plus a sub-tick remainder still fit a u64. */
#define MAX_TICKS (UINT64_MAX / MACH_NSEC_PER_TICK - 1)

struct mach_cpu *ld_cpu(struct mach_machine *m, unsigned int id, bool create)
{
	unsigned int lo = 0, hi = m->ncpus;
	struct mach_cpu *n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (m->cpus[mid].id < id)
			lo = mid + 1;
		else if (m->cpus[mid].id > id)
			hi = mid;
		else
			return &m->cpus[mid];
	}
	if (!create)
		return NULL;
	n = realloc(m->cpus, (m->ncpus + 1) * sizeof(*n));
	if (!n)
		return NULL;
	m->cpus = n;
	memmove(&n[lo + 1], &n[lo], (m->ncpus - lo) * sizeof(*n));
	memset(&n[lo], 0, sizeof(*n));
	n[lo].id = id;
	n[lo].online = true;
	m->ncpus++;
	return &n[lo];
}

static void cpu_sched_free(struct mach_cpu *c)
{
	for (unsigned int d = 0; d < c->sched.ndomains; d++)
		mach_bitmap_free(&c->sched.domains[d].span);
	free(c->sched.domains);
	c->sched.domains = NULL;
	c->sched.ndomains = 0;
}

struct cpu_line {
	unsigned int id;
	uint64_t ticks[MACH_NR_CPUTIME];
};

/*
 * The times of a cpu line: *@ncols columns, or, when it is 0 (the
 * aggregate line), as many as the line has, 7 to 10 (steal came in 2.6.11,
 * guest in 2.6.24, guest_nice in 2.6.33).  Columns not printed hold 0.
 */
static int parse_times(struct lex *lx, uint64_t *t, unsigned int *ncols)
{
	unsigned int want = *ncols, c;
	int rc;

	memset(t, 0, MACH_NR_CPUTIME * sizeof(*t));
	for (c = 0; c < MACH_NR_CPUTIME; c++) {
		if (c && (want ? c == want : c >= 7 && lex_peek(lx, '\n')))
			break;
		if (c && (rc = lex_expect(lx, " ")))
			return rc;
		rc = lex_u64_exact(lx, &t[c]);
		if (!rc && t[c] > MAX_TICKS)
			rc = lex_fail(lx, "%llu ticks too large", (unsigned long long)t[c]);
		if (rc)
			return rc;
	}
	if (!want && c < 7)
		return lex_expected(lx, "7 to 10 cpu time columns");
	*ncols = c;
	return lex_eol(lx);
}

struct intr {
	struct mach_irq *irqs;
	unsigned int nirqs, nr_irqs;
	uint64_t extra;
};

static int parse_intr(struct lex *lx, struct intr *in)
{
	struct mach_irq *irqs = NULL;
	unsigned int nirqs = 0, nr = 0;
	size_t cap = 0;
	uint64_t total, sum = 0;
	int rc;

	lex_ctx(lx, "intr");
	if ((rc = lex_expect(lx, "intr ")) || (rc = lex_u64_exact(lx, &total)))
		return rc;
	while (!lex_peek(lx, '\n')) {
		uint64_t v;

		if ((rc = lex_expect(lx, " ")) || (rc = lex_u64_exact(lx, &v)))
			goto fail;
		if (nr == UINT32_MAX) {
			rc = lex_fail(lx, "too many interrupts");
			goto fail;
		}
		if (sum + v < sum) {
			rc = lex_fail(lx, "the interrupt counts overflow");
			goto fail;
		}
		sum += v;
		if (v) {
			struct mach_irq *irq = VEC_PUSH(irqs, nirqs, cap);

			if (!irq) {
				rc = -ENOMEM;
				goto fail;
			}
			*irq = (struct mach_irq){ .irq = nr, .total = v, .per_cpu = NULL };
		}
		nr++;
	}
	if (sum > total) {
		rc = lex_fail(lx, "intr total %llu is below the sum of the per-irq counts %llu",
			      (unsigned long long)total, (unsigned long long)sum);
		goto fail;
	}
	rc = lex_eol(lx);
	if (rc)
		goto fail;
	in->irqs = irqs;
	in->nirqs = nirqs;
	in->nr_irqs = nr;
	in->extra = total - sum;
	return 0;
fail:
	free(irqs);
	return rc;
}

static int parse_scalar(struct lex *lx, const char *label, uint64_t *v, uint64_t max)
{
	int rc;

	lex_ctx(lx, label);
	if ((rc = lex_expect(lx, label)) || (rc = lex_u64_max(lx, v, max)))
		return rc;
	return lex_eol(lx);
}

/*
 * Give the CPUs their nanoseconds: per-CPU ticks plus remainders whose sum
 * makes floor(sum / tick) equal the aggregate.  *@offline receives what the
 * online CPUs cannot absorb.
 */
static int spread(struct lex *lx, const uint64_t *agg, const struct cpu_line *cl, unsigned int n,
		  uint64_t ns[][MACH_NR_CPUTIME], uint64_t *offline, bool *need_offline)
{
	static const char *const names[MACH_NR_CPUTIME] = {
		"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal", "guest",
		"guest_nice",
	};

	*need_offline = false;
	for (int c = 0; c < MACH_NR_CPUTIME; c++) {
		uint64_t sum = 0, surplus, rem;

		for (unsigned int i = 0; i < n; i++) {
			if (sum + cl[i].ticks[c] < sum)
				return lex_fail_line(lx, 1, "the per-CPU %s times overflow", names[c]);
			sum += cl[i].ticks[c];
		}
		if (agg[c] < sum)
			return lex_fail_line(lx, 1, "aggregate %s %llu is below the sum of the "
					     "per-CPU lines, %llu", names[c],
					     (unsigned long long)agg[c], (unsigned long long)sum);
		surplus = agg[c] - sum;
		offline[c] = 0;
		for (unsigned int i = 0; i < n; i++)
			ns[i][c] = cl[i].ticks[c] * MACH_NSEC_PER_TICK;
		if (n && surplus <= n - 1) {
			/* spread surplus ticks evenly; each share stays below a tick */
			rem = surplus * MACH_NSEC_PER_TICK;
			for (unsigned int i = 0; i < n; i++)
				ns[i][c] += rem / n + (i < rem % n ? 1 : 0);
		} else if (surplus) {
			offline[c] = surplus * MACH_NSEC_PER_TICK;
			*need_offline = true;
		}
	}
	return 0;
}

/* The "cpuN" lines, ascending: *@cl (the caller frees it) and *@n. */
static int parse_cpu_lines(struct lex *lx, struct cpu_line **cl, unsigned int *n, unsigned int ncols)
{
	size_t cap = 0;
	uint64_t v;
	int rc;

	while (lex_accept(lx, "cpu")) {
		struct cpu_line *c;

		if ((rc = VEC_RESERVE(*cl, cap, *n + 1)))
			return rc;
		c = &(*cl)[*n];
		/* "cpu%d": no padding between the word and the number */
		if (lx->p >= lx->end || *lx->p < '0' || *lx->p > '9') {
			lex_ctx(lx, "cpu");
			return lex_expected(lx, "a CPU number");
		}
		if ((rc = lex_u64_max(lx, &v, LD_MAX_CPU_BITS - 2)))
			return rc;
		if (*n && v <= c[-1].id)
			return lex_fail(lx, "cpu%llu after cpu%u", (unsigned long long)v, c[-1].id);
		c->id = (unsigned int)v;
		lex_ctx(lx, "cpuN");
		if ((rc = lex_expect(lx, " ")) || (rc = parse_times(lx, c->ticks, &ncols)))
			return rc;
		++*n;
	}
	return 0;
}

static int parse_softirq(struct lex *lx, uint64_t *softirq)
{
	uint64_t total, sum = 0;
	int rc;

	lex_ctx(lx, "softirq");
	if ((rc = lex_expect(lx, "softirq ")) || (rc = lex_u64_exact(lx, &total)))
		return rc;
	for (int i = 0; i < MACH_NR_SOFTIRQS; i++) {
		if ((rc = lex_expect(lx, " ")) || (rc = lex_u64_exact(lx, &softirq[i])))
			return rc;
		if (sum + softirq[i] < sum)
			return lex_fail(lx, "the softirq counts overflow");
		sum += softirq[i];
	}
	if (sum != total)
		return lex_fail(lx, "softirq total %llu is not the sum of the ten counts, %llu",
				(unsigned long long)total, (unsigned long long)sum);
	return lex_eol(lx);
}

/* Whether the @n CPU lines' numbers differ from @ids. */
static bool ids_differ(const struct cpu_line *cl, const unsigned int *ids, unsigned int n)
{
	for (unsigned int k = 0; k < n; k++)
		if (cl[k].id != ids[k])
			return true;
	return false;
}

/*
 * Make m->cpus the @n listed CPUs with their nanoseconds @ns, and an offline
 * CPU holding @offline when @need_offline.
 */
static int put_cpus(struct lex *lx, struct mach_machine *m, const struct cpu_line *cl, unsigned int n,
		    uint64_t ns[][MACH_NR_CPUTIME], const uint64_t *offline, bool need_offline,
		    const struct ld_cpu_ids *sched)
{
	unsigned int offline_id = 0;
	struct mach_cpu *c;

	/* both print one line per online CPU: a CPU only one lists would render as zeros or vanish */
	if (sched && (sched->n != n || ids_differ(cl, sched->id, n)))
		return lex_fail_line(lx, 1, "the online CPUs listed here (%u) are not the %u schedstat lists", n,
				     sched->n);

	/* CPUs this file does not list: a stale offline CPU goes, schedstat's must not */
	for (unsigned int i = 0; i < m->ncpus;) {
		bool listed = false;

		c = &m->cpus[i];
		for (unsigned int k = 0; k < n && !listed; k++)
			listed = cl[k].id == c->id;
		if (listed) {
			i++;
			continue;
		}
		if (c->sched.ndomains || c->sched.sched_count || c->sched.pcount)
			return lex_fail_line(lx, 1, "schedstat shows cpu%u, which is not online here",
					     c->id);
		cpu_sched_free(c);
		memmove(c, c + 1, (m->ncpus - i - 1) * sizeof(*c));
		m->ncpus--;
	}
	for (unsigned int k = 0; k < n && cl[k].id == offline_id; k++)
		offline_id++;
	for (unsigned int k = 0; k < n; k++) {
		c = ld_cpu(m, cl[k].id, true);
		if (!c)
			return -ENOMEM;
		c->online = true;
		memcpy(c->time_ns, ns[k], sizeof(c->time_ns));
	}
	if (need_offline) {
		c = ld_cpu(m, offline_id, true);
		if (!c)
			return -ENOMEM;
		c->online = false;
		memcpy(c->time_ns, offline, sizeof(c->time_ns));
	}
	return 0;
}

int ld_parse_stat(struct lex *lx, struct mach_machine *m, const struct ld_cpu_ids *sched)
{
	struct intr in = { NULL, 0, 0, 0 };
	struct cpu_line *cl = NULL;
	uint64_t (*ns)[MACH_NR_CPUTIME] = NULL;
	uint64_t agg[MACH_NR_CPUTIME], offline[MACH_NR_CPUTIME], softirq[MACH_NR_SOFTIRQS];
	uint64_t ctxt, btime, processes, running, blocked;
	unsigned int n = 0, ncols = 0;
	bool need_offline, has_softirq;
	int rc;

	lex_ctx(lx, NULL);
	if ((rc = lex_expect(lx, "cpu  ")))
		goto out;
	lex_ctx(lx, "cpu");
	if ((rc = parse_times(lx, agg, &ncols)) || (rc = parse_cpu_lines(lx, &cl, &n, ncols)) ||
	    (rc = parse_intr(lx, &in)))
		goto out;
	if ((rc = parse_scalar(lx, "ctxt ", &ctxt, UINT64_MAX)) ||
	    (rc = parse_scalar(lx, "btime ", &btime, UINT64_MAX)) ||
	    (rc = parse_scalar(lx, "processes ", &processes, UINT64_MAX)) ||
	    (rc = parse_scalar(lx, "procs_running ", &running, UINT32_MAX)) ||
	    (rc = parse_scalar(lx, "procs_blocked ", &blocked, UINT32_MAX)))
		goto out;
	/* the softirq line came in 2.6.31 */
	memset(softirq, 0, sizeof(softirq));
	has_softirq = !lex_eof(lx);
	if ((has_softirq && (rc = parse_softirq(lx, softirq))) || (rc = lex_expect_eof(lx)))
		goto out;

	ns = calloc(n ? n : 1, sizeof(*ns));
	if (!ns) {
		rc = -ENOMEM;
		goto out;
	}
	if ((rc = spread(lx, agg, cl, n, ns, offline, &need_offline)) ||
	    (rc = put_cpus(lx, m, cl, n, ns, offline, need_offline, sched)))
		goto out;
	for (unsigned int i = 0; i < m->nirqs; i++)
		mach_irq_clear(&m->irqs[i]);
	free(m->irqs);
	/* the per-CPU counters are /proc/interrupts' and /proc/softirqs': read again after this */
	for (unsigned int i = 0; i < m->ncpus; i++) {
		memset(m->cpus[i].arch_irq, 0, sizeof(m->cpus[i].arch_irq));
		memset(m->cpus[i].softirq, 0, sizeof(m->cpus[i].softirq));
	}
	m->irq_detail = m->softirq_detail = false;
	m->irq_err = m->irq_mis = 0;
	m->irqs = in.irqs;
	in.irqs = NULL;
	m->nirqs = in.nirqs;
	m->nr_irqs = in.nr_irqs;
	m->intr_arch_extra = in.extra;
	m->ctxt = ctxt;
	m->btime = btime;
	m->processes = processes;
	m->procs_running = (unsigned int)running;
	m->procs_blocked = (unsigned int)blocked;
	memcpy(m->softirq, softirq, sizeof(softirq));
	m->profile.stat_cpu_columns = ncols;
	m->profile.stat_softirq = has_softirq;
out:
	free(in.irqs);
	free(cl);
	free(ns);
	return rc;
}
