// SPDX-License-Identifier: MIT
/*
 * load_pid_stat.c - parse /proc/<pid>/stat and task/<tid>/stat, as printed by
 * fs/proc/array.c do_task_stat() (Linux 6.18; procfs-facts.md section 3.1).
 *
 * One line of 52 fields.  The comm (field 2) is printed raw between
 * parentheses, so it may hold spaces, parentheses and even newlines: it runs
 * from the first '(' to the last ')' of the file, since no later field can
 * contain one.  Signed fields may be negative.  What a field means for the
 * model (the task's own value, the thread group's, the mm's) is in the table
 * below; load_pid.c does the rest.
 */
#include <errno.h>
#include <string.h>

#include "load_int.h"

#define U(name, scope) { name, false, scope, false, false }
#define S(name, scope) { name, true, scope, false, false }
#define UP(name, scope) { name, false, scope, true, false }
#define UT(name, scope) { name, false, scope, false, true }
#define ST(name, scope) { name, true, scope, false, true }

const struct ld_sf_def ld_sf_defs[LD_STAT_FIELDS + 1] = {
	[1] = U("pid", SF_SPECIAL),
	[2] = U("comm", SF_SPECIAL),
	[3] = U("state", SF_SPECIAL),
	[4] = S("ppid", SF_PROC),
	[5] = S("pgrp", SF_PROC),
	[6] = S("session", SF_PROC),
	[7] = S("tty_nr", SF_PROC),
	[8] = S("tpgid", SF_PROC),
	[9] = U("flags", SF_THREAD),
	[10] = U("minflt", SF_AGG),
	[11] = U("cminflt", SF_PROC),
	[12] = U("majflt", SF_AGG),
	[13] = U("cmajflt", SF_PROC),
	[14] = UT("utime", SF_AGG),
	[15] = UT("stime", SF_AGG),
	[16] = ST("cutime", SF_PROC),
	[17] = ST("cstime", SF_PROC),
	[18] = S("priority", SF_THREAD),
	[19] = S("nice", SF_THREAD),
	[20] = S("num_threads", SF_PROC),
	[21] = U("itrealvalue", SF_ZERO),
	[22] = UT("starttime", SF_THREAD),
	[23] = U("vsize", SF_MM),
	[24] = U("rss", SF_MM),
	[25] = U("rsslim", SF_PROC),
	[26] = UP("startcode", SF_MM),
	[27] = UP("endcode", SF_MM),
	[28] = UP("startstack", SF_MM),
	[29] = UP("kstkesp", SF_THREAD),
	[30] = UP("kstkeip", SF_THREAD),
	[31] = U("signal", SF_THREAD),
	[32] = U("blocked", SF_THREAD),
	[33] = U("sigignore", SF_PROC),
	[34] = U("sigcatch", SF_PROC),
	[35] = UP("wchan", SF_AGG),
	[36] = U("nswap", SF_ZERO),
	[37] = U("cnswap", SF_ZERO),
	[38] = S("exit_signal", SF_SPECIAL),
	[39] = S("processor", SF_THREAD),
	[40] = U("rt_priority", SF_THREAD),
	[41] = U("policy", SF_THREAD),
	[42] = U("delayacct_blkio_ticks", SF_THREAD),
	[43] = UT("guest_time", SF_AGG),
	[44] = ST("cguest_time", SF_PROC),
	[45] = UP("start_data", SF_MM),
	[46] = UP("end_data", SF_MM),
	[47] = UP("start_brk", SF_MM),
	[48] = UP("arg_start", SF_MM),
	[49] = UP("arg_end", SF_MM),
	[50] = UP("env_start", SF_MM),
	[51] = UP("env_end", SF_MM),
	[52] = { "exit_code", true, SF_SPECIAL, true, false },
};

/* Largest tick count whose nanoseconds fit the model's u64. */
#define MAX_TICKS (UINT64_MAX / MACH_NSEC_PER_TICK)

static int parse_value(struct lex *lx, struct ld_stat *st, int n)
{
	const struct ld_sf_def *d = &ld_sf_defs[n];
	int rc;

	if (d->is_signed) {
		int64_t v;

		/* The model keeps child times unsigned, like the kernel's u64 */
		if (d->ticks)
			rc = lex_s64(lx, &v, 0, (int64_t)MAX_TICKS);
		else
			rc = lex_s64(lx, &v, INT32_MIN, INT32_MAX);
		st->f[n] = (uint64_t)v;
		return rc;
	}
	if (d->ticks)
		return lex_u64_max(lx, &st->f[n], MAX_TICKS);
	switch (n) {
	case 9: case 40: case 41: /* unsigned int in the kernel */
		return lex_u64_max(lx, &st->f[n], UINT32_MAX);
	case 35: /* wchan is a 0/1 flag since 4.x */
		return lex_u64_max(lx, &st->f[n], 1);
	case 21: case 36: case 37:
		return lex_u64_max(lx, &st->f[n], 0);
	default:
		return lex_u64(lx, &st->f[n]);
	}
}

static int parse_field(struct lex *lx, struct ld_stat *st, int n)
{
	const char *start;
	int rc;

	lex_field(lx, n, ld_sf_defs[n].name);
	rc = lex_expect(lx, " ");
	if (rc)
		return rc;
	start = lx->p;
	rc = parse_value(lx, st, n);
	return rc ? rc : lex_token_end(lx, start);
}

int ld_parse_pid_stat(struct lex *lx, pid_t tid, struct ld_stat *st)
{
	const char *rparen, *start;
	unsigned int line;
	uint64_t pid;
	size_t len;
	int rc;

	lex_field(lx, 1, "pid");
	rc = lex_u64_max(lx, &pid, INT32_MAX);
	if (rc)
		return rc;
	if (pid != (uint64_t)tid)
		return lex_fail(lx, "pid %llu is not the task id %d", (unsigned long long)pid, tid);
	st->f[1] = pid;
	rc = lex_expect(lx, " (");
	if (rc)
		return rc;
	/* The comm is raw: only the last ')' of the file can close it. */
	start = lx->p;
	rparen = NULL;
	for (const char *q = lx->end; q > start; q--)
		if (q[-1] == ')') {
			rparen = q - 1;
			break;
		}
	lex_field(lx, 2, "comm");
	if (!rparen)
		return lex_expected(lx, "a comm closed by \")\"");
	len = (size_t)(rparen - start);
	if (len >= MACH_COMM_MAX)
		return lex_fail(lx, "comm longer than %d bytes", MACH_COMM_MAX - 1);
	if (memchr(start, '\0', len))
		return lex_fail(lx, "NUL byte in the comm");
	memcpy(st->comm, start, len);
	st->comm[len] = '\0';
	lx->p = rparen + 1;

	lex_field(lx, 3, "state");
	rc = lex_expect(lx, " ");
	if (rc)
		return rc;
	for (st->state = 0; st->state < MACH_NR_TASK_STATES; st->state++)
		if (lex_peek(lx, mach_task_state_letter(st->state)))
			break;
	if (st->state == MACH_NR_TASK_STATES)
		return lex_expected(lx, "a state letter (one of RSDTtXZPI)");
	lx->p++;

	line = lex_line_at(lx, lx->p);
	for (int n = 1; n <= LD_STAT_FIELDS; n++)
		st->line[n] = line;
	for (int n = 4; n <= LD_STAT_FIELDS; n++) {
		rc = parse_field(lx, st, n);
		if (rc)
			return rc;
	}
	lex_field(lx, 0, NULL);
	lex_ctx(lx, "exit_code");
	rc = lex_eol(lx);
	if (rc)
		return rc;
	return lex_expect_eof(lx);
}
