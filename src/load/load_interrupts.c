// SPDX-License-Identifier: MIT
/*
 * load_interrupts.c - parse /proc/interrupts and /proc/softirqs (Linux
 * 6.18; research notes sections 15 and 16) into the per-CPU counters that
 * /proc/stat's intr and softirq lines are the sums of.
 *
 * Both come after /proc/stat in a session: stat says how many irqs there
 * are (the width of the irq column), which CPUs exist, and the totals.
 * These files then attribute the totals to CPUs, and must account for them
 * exactly; when they do not, the counters moved between the reads and the
 * parse fails with -EAGAIN, so the reader reads the three files again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "load_int.h"

/* A disagreement with /proc/stat read before: the counters moved (message already written). */
static int moved(int rc)
{
	(void)rc;
	return -EAGAIN;
}

/* The width of irq numbers: 3, one more per power of ten from 1000 up to nr_irqs. */
static unsigned int irq_prec(const struct mach_machine *m)
{
	unsigned int prec = 3;

	for (uint64_t j = 1000; prec < 10 && j <= m->nr_irqs; j *= 10)
		prec++;
	return prec;
}

/* "CPU<n>" columns padded to 11: the CPU ids in order, checked against the model's. */
static int parse_cpu_header(struct lex *lx, struct mach_machine *m, bool online_only)
{
	unsigned int want = 0;
	ptrdiff_t digits;
	uint64_t id;
	int rc;

	lex_ctx(lx, "the CPU header");
	while (!lex_peek(lx, '\n')) {
		const char *start = lx->p;

		if ((rc = lex_expect(lx, "CPU")) || (rc = lex_u64_max(lx, &id, LD_MAX_CPU_BITS - 1)))
			return rc;
		digits = lx->p - start;
		lex_skip_spaces(lx);
		/* "CPU%-8d": the last column is padded too */
		if (lx->p - start != (digits < 11 ? 11 : digits))
			return lex_fail_at(lx, start, "a CPU column of %td characters where the kernel pads to 11",
					   lx->p - start);
		while (want < m->ncpus && online_only && !m->cpus[want].online)
			want++;
		if (want < m->ncpus && m->cpus[want].id == id) {
			want++;
			continue;
		}
		if (online_only)
			return moved(lex_fail_at(lx, start, "CPU%llu is not the next online CPU /proc/stat shows",
						 (unsigned long long)id));
		return lex_fail_at(lx, start, "CPU%llu is not the next CPU of /proc/stat", (unsigned long long)id);
	}
	while (want < m->ncpus && online_only && !m->cpus[want].online)
		want++;
	if (want != m->ncpus)
		return online_only ? moved(lex_fail(lx, "fewer online CPUs than /proc/stat shows"))
				   : lex_fail(lx, "fewer CPUs than /proc/stat shows");
	return lex_eol(lx);
}

/* One count per shown CPU into @out (indexed by position in m->cpus); " %10u" or "%10u ". */
static int parse_columns(struct lex *lx, const struct mach_machine *m, bool online_only, bool trail,
			 uint32_t *out, size_t stride, uint64_t *sum)
{
	uint64_t v;
	int rc;

	*sum = 0;
	for (unsigned int c = 0; c < m->ncpus; c++) {
		if (online_only && !m->cpus[c].online)
			continue;
		if ((!trail && (rc = lex_expect(lx, " "))) || (rc = lex_u64_width_max(lx, &v, 10, UINT32_MAX)) ||
		    (trail && (rc = lex_expect(lx, " "))))
			return rc;
		*(uint32_t *)(void *)((char *)out + c * stride) = (uint32_t)v;
		*sum += v;
	}
	return 0;
}

/* A token up to the next space or end of line, copied. */
static int take_token(struct lex *lx, char **out, const char *what)
{
	const char *start = lx->p, *eol = lex_line_end(lx);

	while (lx->p < eol && *lx->p != ' ')
		lx->p++;
	if (lx->p == start)
		return lex_expected(lx, what);
	*out = strndup(start, (size_t)(lx->p - start));
	return *out ? 0 : -ENOMEM;
}

/* The text just read (@len characters after @pad blanks) was "%*s" of @width: right-aligned, no wider. */
static int right_aligned(struct lex *lx, size_t pad, size_t len, size_t width)
{
	if (pad + len == (len < width ? width : len))
		return 0;
	return lex_fail_at(lx, lx->p - len - pad, "%zu spaces before %zu characters where the kernel pads to %zu "
			   "columns", pad, len, width);
}

/* The descriptor part after the counts: chip, hwirq, flow and actions. */
static int parse_desc(struct lex *lx, unsigned int prec, struct mach_irq *irq)
{
	size_t pad;
	int rc;

	lex_ctx(lx, "the chip name");
	if ((rc = lex_expect(lx, " ")))
		return rc;
	pad = lex_skip_spaces(lx);
	if ((rc = take_token(lx, &irq->chip, "a chip name")))
		return rc;
	if ((rc = right_aligned(lx, pad, strlen(irq->chip), 8)) || (rc = lex_expect(lx, " ")))
		return rc;
	lex_ctx(lx, "the hwirq");
	pad = lex_skip_spaces(lx);
	irq->has_domain = lx->p < lx->end && *lx->p >= '0' && *lx->p <= '9';
	if (irq->has_domain) {
		const char *digits = lx->p;
		uint64_t hw;

		if ((rc = lex_u64(lx, &hw)) || (rc = right_aligned(lx, pad, (size_t)(lx->p - digits), prec)))
			return rc;
		irq->hwirq = (unsigned long)hw;
	} else if (pad < prec) {
		return lex_expected(lx, "a hwirq or its blank column");
	} else {
		lx->p -= pad - prec; /* the rest of the blanks belong to what follows */
	}
	if (lex_accept(lx, "-")) {
		lex_ctx(lx, "the flow handler");
		if ((rc = take_token(lx, &irq->flow, "a flow handler name")))
			return rc;
		pad = strlen(irq->flow);
		while (pad++ < 8)
			if ((rc = lex_expect(lx, " ")))
				return rc;
	}
	lex_ctx(lx, "the action names");
	if ((rc = lex_expect(lx, "  ")))
		return rc;
	if (lx->p == lex_line_end(lx))
		return lex_expected(lx, "an action name");
	irq->actions = strndup(lx->p, (size_t)(lex_line_end(lx) - lx->p));
	if (!irq->actions)
		return -ENOMEM;
	lx->p = lex_line_end(lx);
	return lex_eol(lx);
}

/* The model's descriptor of irq @nr, inserted in order if /proc/stat had no count for it. */
static struct mach_irq *irq_slot(struct mach_machine *m, unsigned int nr)
{
	unsigned int lo = 0, hi = m->nirqs;
	struct mach_irq *n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (m->irqs[mid].irq < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->nirqs && m->irqs[lo].irq == nr)
		return &m->irqs[lo];
	n = realloc(m->irqs, (m->nirqs + 1) * sizeof(*n));
	if (!n)
		return NULL;
	m->irqs = n;
	memmove(&n[lo + 1], &n[lo], (m->nirqs - lo) * sizeof(*n));
	memset(&n[lo], 0, sizeof(*n));
	n[lo].irq = nr;
	m->nirqs++;
	return &n[lo];
}

/* The first offline CPU: where counts of CPUs that went offline stay; -1 if none. */
static int offline_cpu(const struct mach_machine *m)
{
	for (unsigned int c = 0; c < m->ncpus; c++)
		if (!m->cpus[c].online)
			return (int)c;
	return -1;
}

/* One device irq line; *@last is the previous irq number (or -1). */
static int parse_irq_line(struct lex *lx, struct mach_machine *m, unsigned int prec, int64_t *last)
{
	struct mach_irq desc = { 0 }, *slot;
	uint64_t nr, sum, stat_count;
	int off, rc;

	lex_ctx(lx, "an irq number");
	if ((rc = lex_u64_width_max(lx, &nr, prec, m->nr_irqs ? m->nr_irqs - 1 : 0)) || (rc = lex_expect(lx, ":")))
		return rc;
	if ((int64_t)nr <= *last)
		return lex_fail(lx, "irq %llu after irq %lld", (unsigned long long)nr, (long long)*last);
	*last = (int64_t)nr;
	desc.per_cpu = calloc(m->ncpus ? m->ncpus : 1, sizeof(uint32_t));
	if (!desc.per_cpu)
		return -ENOMEM;
	lex_ctx(lx, "the per-CPU counts");
	rc = parse_columns(lx, m, true, false, desc.per_cpu, sizeof(uint32_t), &sum);
	if (!rc)
		rc = parse_desc(lx, prec, &desc);
	slot = rc ? NULL : irq_slot(m, (unsigned int)nr);
	if (!rc && !slot)
		rc = -ENOMEM;
	if (rc)
		goto fail;
	stat_count = mach_irq_count(slot, m->ncpus);
	off = offline_cpu(m);
	if (stat_count < sum || (stat_count > sum && off < 0) || stat_count - sum > UINT32_MAX) {
		rc = moved(lex_fail_at(lx, lx->p - 1, "irq %llu: /proc/stat counts %llu, the CPUs here %llu",
				       (unsigned long long)nr, (unsigned long long)stat_count, (unsigned long long)sum));
		goto fail;
	}
	if (off >= 0)
		desc.per_cpu[off] = (uint32_t)(stat_count - sum);
	desc.irq = (unsigned int)nr;
	mach_irq_clear(slot);
	*slot = desc;
	return 0;
fail:
	mach_irq_clear(&desc);
	return rc;
}

/* One arch row; *@next is the first row that may still come. */
static int parse_arch_row(struct lex *lx, struct mach_machine *m, unsigned int prec, int *next, uint64_t *in_intr)
{
	const char *start = lx->p, *colon = memchr(lx->p, ':', (size_t)(lex_line_end(lx) - lx->p));
	uint64_t sum, v;
	size_t pad;
	int r, rc;

	pad = lex_skip_spaces(lx);
	for (r = *next; colon && r < MACH_NR_ARCH_IRQS; r++)
		if ((size_t)(colon - lx->p) == strlen(mach_arch_irq_formats[r].sym) &&
		    !memcmp(lx->p, mach_arch_irq_formats[r].sym, (size_t)(colon - lx->p)))
			break;
	if (!colon || r == MACH_NR_ARCH_IRQS)
		return lex_fail_at(lx, start, "expected an irq number or the next arch row (NMI, LOC, ... PMN)");
	*next = r + 1;
	m->profile.arch_irq_rows |= 1u << r;
	lex_ctx(lx, mach_arch_irq_formats[r].sym);
	lx->p = colon;
	if ((rc = right_aligned(lx, pad, strlen(mach_arch_irq_formats[r].sym), prec)))
		return rc;
	if ((rc = lex_expect(lx, ": ")))
		return rc;
	if (!mach_arch_irq_formats[r].text) {
		/* "%*s: %10u\n" */
		if ((rc = lex_u64_width(lx, &v, 10)) || (v > UINT32_MAX && (rc = lex_fail(lx, "beyond 32 bits"))))
			return rc;
		*(r == MACH_ARCH_IRQ_ERR ? &m->irq_err : &m->irq_mis) = (uint32_t)v;
		*in_intr += mach_arch_irq_formats[r].in_intr ? v : 0;
		return lex_eol(lx);
	}
	if ((rc = parse_columns(lx, m, true, true, &m->cpus[0].arch_irq[r], sizeof(struct mach_cpu), &sum)) ||
	    (rc = lex_expect(lx, "  ")) || (rc = lex_expect(lx, mach_arch_irq_formats[r].text)))
		return rc;
	*in_intr += mach_arch_irq_formats[r].in_intr ? sum : 0;
	return lex_eol(lx);
}

int ld_parse_interrupts(struct lex *lx, struct mach_machine *m)
{
	unsigned int prec = irq_prec(m);
	uint64_t in_intr = 0;
	int64_t last = -1;
	int next = 0, off, rc;

	if (!m->ncpus)
		return lex_fail(lx, "/proc/stat must be read before /proc/interrupts (it gives the CPUs)");
	for (unsigned int c = 0; c < m->ncpus; c++)
		memset(m->cpus[c].arch_irq, 0, sizeof(m->cpus[c].arch_irq));
	m->irq_err = m->irq_mis = 0;
	m->profile.arch_irq_rows = 0;
	lex_ctx(lx, "the header");
	for (unsigned int i = 0; i < prec + 8; i++)
		if ((rc = lex_expect(lx, " ")))
			return rc;
	if ((rc = parse_cpu_header(lx, m, true)))
		return rc;
	while (!lex_eof(lx)) {
		const char *q = lx->p;

		while (q < lx->end && *q == ' ')
			q++;
		if (next == 0 && q < lx->end && *q >= '0' && *q <= '9')
			rc = parse_irq_line(lx, m, prec, &last);
		else
			rc = parse_arch_row(lx, m, prec, &next, &in_intr);
		if (rc)
			return rc;
	}
	off = offline_cpu(m);
	if (m->intr_arch_extra < in_intr || (m->intr_arch_extra > in_intr && off < 0) ||
	    m->intr_arch_extra - in_intr > UINT32_MAX)
		return moved(lex_fail(lx, "the arch rows counted in the intr total sum to %llu, but /proc/stat's "
				      "total leaves %llu for them",
				      (unsigned long long)in_intr, (unsigned long long)m->intr_arch_extra));
	if (off >= 0)
		m->cpus[off].arch_irq[MACH_ARCH_IRQ_LOC] = (uint32_t)(m->intr_arch_extra - in_intr);
	m->intr_arch_extra = 0;
	m->irq_detail = true;
	return 0;
}

int ld_parse_softirqs(struct lex *lx, struct mach_machine *m)
{
	int rc;

	if (!m->ncpus)
		return lex_fail(lx, "/proc/stat must be read before /proc/softirqs (it gives the CPUs)");
	lex_ctx(lx, "the header");
	if ((rc = lex_expect(lx, "                    ")) || (rc = parse_cpu_header(lx, m, false)))
		return rc;
	for (int i = 0; i < MACH_NR_SOFTIRQS; i++) {
		uint64_t sum, stat_count = m->softirq[i];
		size_t len = strlen(mach_softirq_names[i]);

		lex_ctx(lx, mach_softirq_names[i]);
		for (size_t k = len; k < 12; k++)
			if ((rc = lex_expect(lx, " ")))
				return rc;
		if ((rc = lex_expect(lx, mach_softirq_names[i])) || (rc = lex_expect(lx, ":")))
			return rc;
		for (unsigned int c = 0; c < m->ncpus; c++)
			stat_count += m->cpus[c].softirq[i];
		if ((rc = parse_columns(lx, m, false, false, &m->cpus[0].softirq[i], sizeof(struct mach_cpu), &sum)) ||
		    (rc = lex_eol(lx)))
			return rc;
		if (sum != stat_count)
			return moved(lex_fail_at(lx, lx->p - 1, "%s: /proc/stat counts %llu, the CPUs here %llu",
						 mach_softirq_names[i], (unsigned long long)stat_count,
						 (unsigned long long)sum));
		m->softirq[i] = 0;
	}
	if ((rc = lex_expect_eof(lx)))
		return rc;
	m->softirq_detail = true;
	return 0;
}
