// SPDX-License-Identifier: MIT
/*
 * irq_sums.c - the cross-file sums of the interrupt files, read back from
 * the rendered text as a tool (mpstat, procinfo) would read them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "irq_sums.h"
#include "uprocfs/procfs.h"

static char *render(const struct mach_machine *m, const char *path)
{
	struct pfs_node n;
	struct pfs_ctx c;
	char err[256], *text;
	size_t len;

	if (pfs_resolve(m, path, &n, &c, err, sizeof(err)) || pfs_render(&n, &c, &text, &len))
		return NULL;
	text = realloc(text, len + 1);
	if (text)
		text[len] = '\0';
	return text;
}

/* The numbers after "label " on the line that starts with it; how many (at most @max). */
static size_t stat_line(const char *stat, const char *label, unsigned long long *v, size_t max)
{
	const char *p = strstr(stat, label);
	size_t n = 0;
	char *end;

	if (!p)
		return 0;
	p += strlen(label);
	while (n < max && *p == ' ') {
		v[n++] = strtoull(p + 1, &end, 10);
		p = end;
	}
	return n;
}

/* Sum the CPU columns of a line after its "NAME:"; *@rest points after them. */
static unsigned long long row_sum(const char *line, unsigned int ncols, const char **rest)
{
	const char *p = strchr(line, ':') + 1;
	unsigned long long sum = 0;
	char *end;

	for (unsigned int i = 0; i < ncols; i++) {
		sum += strtoull(p, &end, 10);
		p = end;
	}
	*rest = p;
	return sum;
}

static int fail(char *why, size_t n, const char *fmt, unsigned long long a, unsigned long long b, const char *what)
{
	snprintf(why, n, fmt, what, a, b);
	return -1;
}

/* The arch rows: the part of the intr total they account for, in *@arch. */
static int check_interrupts(const struct mach_machine *m, const char *irqs, const unsigned long long *intr,
			    size_t nintr, unsigned long long *arch, char *why, size_t n)
{
	unsigned int online = 0;
	unsigned long long shown = 0, listed = 0;
	const char *line = strchr(irqs, '\n'), *rest;
	static const char *const counted = "NMI LOC SPU PMI IWI RTR PLT RES CAL TRM THR HYP HRE HVS MCE MCP ERR";

	for (unsigned int c = 0; c < m->ncpus; c++)
		online += m->cpus[c].online;
	*arch = 0;
	for (; line && line[1]; line = strchr(line + 1, '\n')) {
		const char *l = line + 1;
		char sym[8] = "";
		bool one = false;

		while (*l == ' ')
			l++;
		if (*l >= '0' && *l <= '9') {
			unsigned long nr = strtoul(l, NULL, 10);
			unsigned long long sum = row_sum(l, online, &rest);

			if (nr >= nintr || intr[nr] != sum)
				return fail(why, n, "%s: interrupts sums to %llu, stat says %llu", sum,
					    nr < nintr ? intr[nr] : 0, "an irq");
			shown += sum;
			continue;
		}
		sscanf(l, "%7[A-Z]", sym);
		one = !strcmp(sym, "ERR") || !strcmp(sym, "MIS");
		if (strstr(counted, sym))
			*arch += row_sum(l, one ? 1 : online, &rest);
	}
	for (size_t i = 0; i < nintr; i++)
		listed += intr[i];
	if (listed != shown)
		return fail(why, n, "%s: the irqs /proc/interrupts shows sum to %llu, stat's fields to %llu", shown,
			    listed, "intr");
	return 0;
}

int irq_sums_check(const struct mach_machine *m, char *why, size_t n)
{
	char *stat = render(m, "/proc/stat"), *irqs = render(m, "/proc/interrupts"), *soft = render(m, "/proc/softirqs");
	unsigned long long *intr = calloc(m->nr_irqs + 1, sizeof(*intr)), sv[11], arch = 0, listed = 0;
	size_t nintr;
	int rc = -1;

	snprintf(why, n, "a file did not render");
	if (!stat || !irqs || !soft || !intr)
		goto out;
	nintr = stat_line(stat, "\nintr", intr, m->nr_irqs + 1);
	if (nintr != m->nr_irqs + 1u) {
		snprintf(why, n, "intr has %zu fields, nr_irqs is %u", nintr, m->nr_irqs);
		goto out;
	}
	if (check_interrupts(m, irqs, intr + 1, nintr - 1, &arch, why, n))
		goto out;
	for (size_t i = 1; i < nintr; i++)
		listed += intr[i];
	if (intr[0] != listed + arch) {
		fail(why, n, "%s: total %llu, but the irqs and the counted arch rows make %llu", intr[0], listed + arch,
		     "intr");
		goto out;
	}
	if (stat_line(stat, "\nsoftirq", sv, 11) != 11)
		goto out;
	for (int i = 0; i < MACH_NR_SOFTIRQS; i++) {
		const char *line = strstr(soft, mach_softirq_names[i]), *rest;
		unsigned long long sum = line ? row_sum(line, m->ncpus, &rest) : ~0ull;

		if (sum != sv[i + 1]) {
			fail(why, n, "%s: softirqs sums to %llu, stat says %llu", sum, sv[i + 1], mach_softirq_names[i]);
			goto out;
		}
		sv[0] -= sum;
	}
	rc = sv[0] ? fail(why, n, "%s: total off by %llu%llu", sv[0], 0, "softirq") : 0;
out:
	free(stat);
	free(irqs);
	free(soft);
	free(intr);
	return rc;
}
