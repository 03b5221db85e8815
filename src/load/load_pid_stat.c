// SPDX-License-Identifier: MIT
/*
 * load_pid_stat.c - parse /proc/<pid>/stat and task/<tid>/stat, as printed by
 * fs/proc/array.c do_task_stat() (Linux 6.18; procfs-facts.md section 3.1).
 *
 * One line of 52 fields (44 before 3.3, 47 before 3.5).  The comm (field 2) is printed raw between
 * parentheses, so it may hold spaces, parentheses and even newlines: it runs
 * from the first '(' to the last ')' of the file, since no later field can
 * contain one.  Signed fields may be negative.  What a field means for the
 * model (the task's own value, the thread group's, the mm's) is in the table
 * below; pid_assemble.c does the rest.
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
	[LD_STAT_PID] = U("pid", SF_SPECIAL),
	[LD_STAT_COMM] = U("comm", SF_SPECIAL),
	[LD_STAT_STATE] = U("state", SF_SPECIAL),
	[LD_STAT_PPID] = S("ppid", SF_PROC),
	[LD_STAT_PGRP] = S("pgrp", SF_PROC),
	[LD_STAT_SESSION] = S("session", SF_PROC),
	[LD_STAT_TTY_NR] = S("tty_nr", SF_PROC),
	[LD_STAT_TPGID] = S("tpgid", SF_PROC),
	[LD_STAT_FLAGS] = U("flags", SF_THREAD),
	[LD_STAT_MINFLT] = U("minflt", SF_AGG),
	[LD_STAT_CMINFLT] = U("cminflt", SF_PROC),
	[LD_STAT_MAJFLT] = U("majflt", SF_AGG),
	[LD_STAT_CMAJFLT] = U("cmajflt", SF_PROC),
	[LD_STAT_UTIME] = UT("utime", SF_AGG),
	[LD_STAT_STIME] = UT("stime", SF_AGG),
	[LD_STAT_CUTIME] = ST("cutime", SF_PROC),
	[LD_STAT_CSTIME] = ST("cstime", SF_PROC),
	[LD_STAT_PRIORITY] = S("priority", SF_THREAD),
	[LD_STAT_NICE] = S("nice", SF_THREAD),
	[LD_STAT_NUM_THREADS] = S("num_threads", SF_PROC),
	[LD_STAT_ITREALVALUE] = U("itrealvalue", SF_ZERO),
	[LD_STAT_STARTTIME] = UT("starttime", SF_THREAD),
	[LD_STAT_VSIZE] = U("vsize", SF_MM),
	[LD_STAT_RSS] = U("rss", SF_MM),
	[LD_STAT_RSSLIM] = U("rsslim", SF_PROC),
	[LD_STAT_STARTCODE] = UP("startcode", SF_MM),
	[LD_STAT_ENDCODE] = UP("endcode", SF_MM),
	[LD_STAT_STARTSTACK] = UP("startstack", SF_MM),
	[LD_STAT_KSTKESP] = UP("kstkesp", SF_THREAD),
	[LD_STAT_KSTKEIP] = UP("kstkeip", SF_THREAD),
	[LD_STAT_SIGNAL] = U("signal", SF_THREAD),
	[LD_STAT_BLOCKED] = U("blocked", SF_THREAD),
	[LD_STAT_SIGIGNORE] = U("sigignore", SF_PROC),
	[LD_STAT_SIGCATCH] = U("sigcatch", SF_PROC),
	[LD_STAT_WCHAN] = UP("wchan", SF_AGG),
	[LD_STAT_NSWAP] = U("nswap", SF_ZERO),
	[LD_STAT_CNSWAP] = U("cnswap", SF_ZERO),
	[LD_STAT_EXIT_SIGNAL] = S("exit_signal", SF_SPECIAL),
	[LD_STAT_PROCESSOR] = S("processor", SF_THREAD),
	[LD_STAT_RT_PRIORITY] = U("rt_priority", SF_THREAD),
	[LD_STAT_POLICY] = U("policy", SF_THREAD),
	[LD_STAT_DELAYACCT_BLKIO_TICKS] = U("delayacct_blkio_ticks", SF_THREAD),
	[LD_STAT_GUEST_TIME] = UT("guest_time", SF_AGG),
	[LD_STAT_CGUEST_TIME] = ST("cguest_time", SF_PROC),
	[LD_STAT_START_DATA] = UP("start_data", SF_MM),
	[LD_STAT_END_DATA] = UP("end_data", SF_MM),
	[LD_STAT_START_BRK] = UP("start_brk", SF_MM),
	[LD_STAT_ARG_START] = UP("arg_start", SF_MM),
	[LD_STAT_ARG_END] = UP("arg_end", SF_MM),
	[LD_STAT_ENV_START] = UP("env_start", SF_MM),
	[LD_STAT_ENV_END] = UP("env_end", SF_MM),
	[LD_STAT_EXIT_CODE] = { "exit_code", true, SF_SPECIAL, true, false },
};

/* Largest tick count whose nanoseconds fit the model's u64. */
#define MAX_TICKS (UINT64_MAX / MACH_NSEC_PER_TICK)

static int parse_value(struct lex *lx, struct ld_stat *st, enum ld_stat_field n)
{
	const struct ld_sf_def *d = &ld_sf_defs[n];
	int rc;

	if (d->is_signed) {
		int64_t v;

		/* The model keeps child times unsigned, like the kernel's u64 */
		if (d->ticks)
			rc = lex_s64(lx, &v, 0, (int64_t)MAX_TICKS);
		else if (n == LD_STAT_NUM_THREADS) /* the model counts threads unsigned: a group has one at least */
			rc = lex_s64(lx, &v, 1, INT32_MAX);
		else
			rc = lex_s64(lx, &v, INT32_MIN, INT32_MAX);
		st->f[n] = (uint64_t)v;
		return rc;
	}
	if (d->ticks)
		return lex_u64_max(lx, &st->f[n], MAX_TICKS);
	switch (n) {
	case LD_STAT_FLAGS: case LD_STAT_RT_PRIORITY: case LD_STAT_POLICY:
		/* unsigned int in the kernel */
		return lex_u64_max(lx, &st->f[n], UINT32_MAX);
	case LD_STAT_WCHAN: /* a 0/1 flag since 4.4, an address before (pid_assemble.c decides) */
		return lex_u64(lx, &st->f[n]);
	case LD_STAT_ITREALVALUE: case LD_STAT_NSWAP: case LD_STAT_CNSWAP:
		return lex_u64_max(lx, &st->f[n], 0);
	case LD_STAT_SIGNAL: case LD_STAT_BLOCKED: case LD_STAT_SIGIGNORE: case LD_STAT_SIGCATCH:
		/* the kernel masks these to the first 31 signals: more bits never print */
		return lex_u64_max(lx, &st->f[n], 0x7fffffff);
	default:
		return lex_u64(lx, &st->f[n]);
	}
}

static int parse_field(struct lex *lx, struct ld_stat *st, enum ld_stat_field n)
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

	lex_field(lx, LD_STAT_PID, ld_sf_defs[LD_STAT_PID].name);
	rc = lex_u64_max(lx, &pid, INT32_MAX);
	if (rc)
		return rc;
	if (pid != (uint64_t)tid)
		return lex_fail(lx, "pid %llu is not the task id %d", (unsigned long long)pid, tid);
	st->f[LD_STAT_PID] = pid;
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
	lex_field(lx, LD_STAT_COMM, ld_sf_defs[LD_STAT_COMM].name);
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

	lex_field(lx, LD_STAT_STATE, ld_sf_defs[LD_STAT_STATE].name);
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
	for (enum ld_stat_field n = LD_STAT_PID; n <= LD_STAT_FIELDS; n++)
		st->line[n] = line;
	for (enum ld_stat_field n = LD_STAT_PPID; n <= LD_STAT_FIELDS; n++) {
		/* older kernels end after cguest_time (before 3.3) or start_brk (3.3, 3.4) */
		if ((n == LD_STAT_START_DATA || n == LD_STAT_ARG_START) && lex_peek(lx, '\n'))
			break;
		rc = parse_field(lx, st, n);
		if (rc)
			return rc;
		st->nfields = n;
	}
	lex_field(lx, 0, NULL);
	lex_ctx(lx, "exit_code");
	rc = lex_eol(lx);
	if (rc)
		return rc;
	return lex_expect_eof(lx);
}
