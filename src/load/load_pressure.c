// SPDX-License-Identifier: MIT
/*
 * load_pressure.c - parse /proc/pressure/{io,memory,cpu,irq}, as printed by
 * kernel/sched/psi.c psi_show() (Linux 6.18; procfs-facts.md section 7.5).
 *
 * "some avg10=%lu.%02lu avg60=... avg300=... total=%llu\n" then the same for
 * "full"; irq has only the full line, and cpu had only some before 5.13.
 * The averages are LOAD_INT/LOAD_FRAC of FSHIFT fixed point with no rounding
 * term, so the loader picks the smallest fixed-point value that truncates to
 * the printed hundredths.
 */
#include "load_int.h"

static int average(struct lex *lx, const char *label, unsigned long *out)
{
	uint64_t ip;
	unsigned int frac;
	unsigned long x;
	int rc;

	lex_ctx(lx, label);
	if ((rc = lex_expect(lx, label)) || (rc = lex_centi(lx, &ip, &frac)))
		return rc;
	if (ip > (UINT64_MAX >> MACH_FSHIFT) - 1)
		return lex_fail(lx, "average %llu too large", (unsigned long long)ip);
	x = (unsigned long)ip * MACH_FIXED_1 + (frac * MACH_FIXED_1 + 99) / 100;
	if (x >> MACH_FSHIFT != ip || ((x & (MACH_FIXED_1 - 1)) * 100) >> MACH_FSHIFT != frac)
		return lex_fail(lx, "no average prints as %llu.%02u", (unsigned long long)ip, frac);
	*out = x;
	return 0;
}

static int psi_line(struct lex *lx, struct mach_psi_line *l)
{
	int rc;

	if ((rc = average(lx, "avg10=", &l->avg[0])) || (rc = lex_expect(lx, " ")) ||
	    (rc = average(lx, "avg60=", &l->avg[1])) || (rc = lex_expect(lx, " ")) ||
	    (rc = average(lx, "avg300=", &l->avg[2])) || (rc = lex_expect(lx, " ")))
		return rc;
	lex_ctx(lx, "total=");
	if ((rc = lex_expect(lx, "total=")) || (rc = lex_u64(lx, &l->total_us)))
		return rc;
	return lex_eol(lx);
}

int ld_parse_psi(struct lex *lx, struct mach_pressure *out)
{
	struct mach_pressure p = { .present = true };
	int rc;

	lex_ctx(lx, NULL);
	if (lex_accept(lx, "some ")) {
		p.has_some = true;
		if ((rc = psi_line(lx, &p.some)))
			return rc;
	}
	lex_ctx(lx, NULL);
	if (lex_accept(lx, "full ")) {
		p.has_full = true;
		if ((rc = psi_line(lx, &p.full)))
			return rc;
	}
	lex_ctx(lx, NULL);
	if (!p.has_some && !p.has_full)
		return lex_expected(lx, "\"some \" or \"full \"");
	if ((rc = lex_expect_eof(lx)))
		return rc;
	*out = p;
	return 0;
}

int ld_parse_pressure(struct lex *lx, struct mach_machine *m, enum mach_psi_res res)
{
	return ld_parse_psi(lx, &m->pressure[res]);
}
