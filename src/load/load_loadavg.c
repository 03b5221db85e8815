// SPDX-License-Identifier: MIT
/*
 * load_loadavg.c - parse /proc/loadavg, as printed by fs/proc/loadavg.c
 * loadavg_proc_show() (Linux 6.18; procfs-facts.md section 8).
 *
 * "%lu.%02lu %lu.%02lu %lu.%02lu %u/%d %d\n": each average is printed as
 * LOAD_INT/LOAD_FRAC of avenrun + FIXED_1/200.  The loader picks the
 * smallest fixed-point avenrun that prints back the same text (clamped at
 * 0) and proves it by printing it again.
 */
#include <limits.h>

#include "load_int.h"

#define LOAD_INT(x) ((x) >> MACH_FSHIFT)
#define LOAD_FRAC(x) LOAD_INT(((x) & (MACH_FIXED_1 - 1)) * 100)

/* The avenrun value that prints as @ip.@frac; 0 or -EINVAL. */
static int invert(struct lex *lx, uint64_t ip, unsigned int frac, unsigned long *out)
{
	unsigned long y, a;

	if (ip > (ULONG_MAX >> MACH_FSHIFT) - 1)
		return lex_fail(lx, "load average %llu too large", (unsigned long long)ip);
	/* smallest y with LOAD_INT(y) == ip and LOAD_FRAC(y) == frac */
	y = (unsigned long)ip * MACH_FIXED_1 + (frac * MACH_FIXED_1 + 99) / 100;
	a = y >= MACH_FIXED_1 / 200 ? y - MACH_FIXED_1 / 200 : 0;
	y = a + MACH_FIXED_1 / 200;
	if (LOAD_INT(y) != ip || LOAD_FRAC(y) != frac)
		return lex_fail(lx, "no load average prints as %llu.%02u",
				(unsigned long long)ip, frac);
	*out = a;
	return 0;
}

int ld_parse_loadavg(struct lex *lx, struct mach_machine *m)
{
	static const char *const names[3] = { "1-minute average", "5-minute average",
					      "15-minute average" };
	unsigned long avenrun[3];
	uint64_t running, threads, ip;
	int64_t last;
	unsigned int frac;
	int rc;

	for (int i = 0; i < 3; i++) {
		lex_field(lx, i + 1, names[i]);
		if (i && (rc = lex_expect(lx, " ")))
			return rc;
		if ((rc = lex_centi(lx, &ip, &frac)) || (rc = invert(lx, ip, frac, &avenrun[i])))
			return rc;
	}
	lex_field(lx, 4, "running/threads");
	if ((rc = lex_expect(lx, " ")) || (rc = lex_u64_max(lx, &running, UINT32_MAX)) ||
	    (rc = lex_expect(lx, "/")) || (rc = lex_u64_max(lx, &threads, INT32_MAX)))
		return rc;
	lex_field(lx, 5, "last pid");
	if ((rc = lex_expect(lx, " ")) || (rc = lex_s64(lx, &last, INT32_MIN, INT32_MAX)) ||
	    (rc = lex_eol(lx)) || (rc = lex_expect_eof(lx)))
		return rc;
	for (int i = 0; i < 3; i++)
		m->avenrun[i] = avenrun[i];
	m->nr_running = (unsigned int)running;
	m->nr_threads = (unsigned int)threads;
	m->last_pid = (pid_t)last;
	return 0;
}
