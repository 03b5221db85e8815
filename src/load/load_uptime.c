// SPDX-License-Identifier: MIT
/*
 * load_uptime.c - parse /proc/uptime, as printed by fs/proc/uptime.c
 * uptime_proc_show() (Linux 6.18; procfs-facts.md section 8).
 *
 * "%lu.%02lu %lu.%02lu\n": seconds and tv_nsec / 10,000,000 (truncated) of
 * the boot-time clock, then of the summed idle time.  The hundredths are the
 * only sub-second digits printed, so s * 1e9 + cs * 1e7 prints back exactly.
 */
#include "load_int.h"

static int centi_ns(struct lex *lx, uint64_t *ns)
{
	uint64_t s;
	unsigned int cs;
	int rc = lex_centi(lx, &s, &cs);

	if (rc)
		return rc;
	if (s > (UINT64_MAX - 99 * MACH_NSEC_PER_TICK) / 1000000000ull)
		return lex_fail(lx, "%llu seconds do not fit in 64-bit nanoseconds",
				(unsigned long long)s);
	*ns = s * 1000000000ull + cs * MACH_NSEC_PER_TICK;
	return 0;
}

int ld_parse_uptime(struct lex *lx, struct mach_machine *m)
{
	uint64_t up = 0, idle = 0; /* set on every path that reads them; -O3 cannot tell */
	int rc;

	lex_field(lx, 1, "uptime");
	if ((rc = centi_ns(lx, &up)))
		return rc;
	lex_field(lx, 2, "idle");
	if ((rc = lex_expect(lx, " ")) || (rc = centi_ns(lx, &idle)) || (rc = lex_eol(lx)) ||
	    (rc = lex_expect_eof(lx)))
		return rc;
	m->uptime_ns = up;
	m->idle_ns = idle;
	return 0;
}
