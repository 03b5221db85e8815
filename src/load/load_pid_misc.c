// SPDX-License-Identifier: MIT
/*
 * load_pid_misc.c - parse the small files of fs/proc/base.c (Linux 6.18):
 * io (do_io_accounting), limits (proc_pid_limits), autogroup
 * (proc_sched_autogroup_show_task) and the one-number files oom_score,
 * oom_score_adj, oom_adj, loginuid, sessionid (no newline), personality
 * ("%08x") and timerslack_ns.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "load_int.h"

int ld_parse_io(struct lex *lx, struct ld_io *io)
{
	static const char *const labels[7] = { "rchar: ", "wchar: ", "syscr: ", "syscw: ", "read_bytes: ",
					       "write_bytes: ", "cancelled_write_bytes: " };
	uint64_t *const v[7] = { &io->io.rchar, &io->io.wchar, &io->io.syscr, &io->io.syscw,
				 &io->io.read_bytes, &io->io.write_bytes, &io->io.cancelled_write_bytes };
	int rc;

	for (int i = 0; i < 7; i++) {
		const char *start;

		lex_ctx(lx, labels[i]);
		if ((rc = lex_expect(lx, labels[i])))
			return rc;
		start = lx->p;
		if ((rc = lex_u64(lx, v[i])) || (rc = lex_token_end(lx, start)) || (rc = lex_eol(lx)))
			return rc;
	}
	return lex_expect_eof(lx);
}

/* After @len characters of a "%-*s" column of @width: the spaces to the column's end and @sep more. */
static int column_pad(struct lex *lx, size_t len, size_t width, size_t sep)
{
	const char *at = lx->p;
	size_t pad = lex_skip_spaces(lx), want = (len < width ? width - len : 0) + sep;

	if (pad == want)
		return 0;
	return lex_fail_at(lx, at, "%zu spaces after a %zu-character column where the kernel pads to %zu and %zu "
			   "more", pad, len, width, sep);
}

/* A limit's value column: "unlimited" or a number, then the padding. */
static int limit_value(struct lex *lx, uint64_t *v)
{
	const char *start = lx->p;
	int rc;

	if (lex_accept(lx, "unlimited")) {
		*v = MACH_RLIM_INFINITY;
	} else {
		if ((rc = lex_u64(lx, v)) || (rc = lex_token_end(lx, start)))
			return rc;
		if (*v == MACH_RLIM_INFINITY)
			return lex_fail(lx, "RLIM_INFINITY printed as a number");
	}
	return column_pad(lx, (size_t)(lx->p - start), 20, 1);
}

int ld_parse_limits(struct lex *lx, struct ld_limits *l)
{
	int rc;

	lex_ctx(lx, "Limit");
	/* "%-25s %-20s %-20s %-10s\n" of the four column names: fixed text */
	if ((rc = lex_expect(lx, "Limit                     Soft Limit           Hard Limit           Units     \n")))
		return rc;
	for (enum mach_rlimit_id i = 0; i < MACH_RLIM_NLIMITS; i++) {
		const char *name = mach_rlimit_name(i), *unit = mach_rlimit_unit(i);

		lex_ctx(lx, name);
		/* "%-25s %-20s %-20s %-10s\n"; a limit without a unit ends after the third column's space */
		if ((rc = lex_expect(lx, name)) || (rc = column_pad(lx, strlen(name), 25, 1)) ||
		    (rc = limit_value(lx, &l->rlim[i].cur)) || (rc = limit_value(lx, &l->rlim[i].max)))
			return rc;
		if (unit) {
			if ((rc = lex_expect(lx, unit)) || (rc = column_pad(lx, strlen(unit), 10, 0)))
				return rc;
		}
		if ((rc = lex_eol(lx)))
			return rc;
	}
	return lex_expect_eof(lx);
}

int ld_parse_autogroup(struct lex *lx, struct ld_autogroup *a)
{
	int64_t nice;
	int rc;

	a->id = 0;
	if (lex_eof(lx))
		return 0; /* the root autogroup prints nothing */
	lex_ctx(lx, "/autogroup-");
	if ((rc = lex_expect(lx, "/autogroup-")) || (rc = lex_u64_max(lx, &a->id, INT64_MAX)) ||
	    (rc = lex_expect(lx, " nice ")) || (rc = lex_s64(lx, &nice, -20, 19)) || (rc = lex_eol(lx)))
		return rc;
	if (!a->id)
		return lex_fail(lx, "autogroup 0 is the root group, which prints nothing");
	a->nice = (int)nice;
	return lex_expect_eof(lx);
}

int ld_parse_num(struct lex *lx, enum ld_num which, struct ld_numfile *n)
{
	static const struct {
		const char *what;
		int64_t min, max;
		bool hex, newline, is_unsigned;
	} f[LD_NR_NUMS] = {
		[LD_NUM_OOM_SCORE] = { "oom_score", 0, 2000, false, true, true },
		[LD_NUM_OOM_SCORE_ADJ] = { "oom_score_adj", -1000, 1000, false, true, false },
		[LD_NUM_OOM_ADJ] = { "oom_adj", -17, 15, false, true, false },
		[LD_NUM_LOGINUID] = { "loginuid", 0, UINT32_MAX, false, false, true },
		[LD_NUM_SESSIONID] = { "sessionid", 0, UINT32_MAX, false, false, true },
		[LD_NUM_PERSONALITY] = { "personality", 0, UINT32_MAX, true, true, true },
		[LD_NUM_TIMERSLACK] = { "timerslack_ns", 0, INT64_MAX, false, true, true },
	};
	const char *start = lx->p;
	int rc;

	lex_ctx(lx, f[which].what);
	if (f[which].hex) {
		rc = lex_hex_min(lx, &n->u, 8); /* "%08x" */
		if (!rc && n->u > (uint64_t)f[which].max)
			rc = lex_fail(lx, "%s beyond 32 bits", f[which].what);
		n->v = (int64_t)n->u;
	} else if (f[which].is_unsigned) {
		/* one number alone in its file: no padding the kernel never prints */
		rc = lex_u64_exact(lx, &n->u);
		if (!rc && n->u > (uint64_t)f[which].max)
			rc = lex_fail_at(lx, start, "%s %" PRIu64 " beyond its maximum %" PRId64, f[which].what,
					 n->u, f[which].max);
		n->v = (int64_t)n->u;
	} else {
		rc = lex_s64_exact(lx, &n->v);
		if (!rc && (n->v < f[which].min || n->v > f[which].max))
			rc = lex_fail_at(lx, start, "%s %" PRId64 " out of range %" PRId64 "..%" PRId64,
					 f[which].what, n->v, f[which].min, f[which].max);
		n->u = (uint64_t)n->v;
	}
	if (!rc)
		rc = lex_token_end(lx, start);
	if (!rc && f[which].newline)
		rc = lex_eol(lx);
	return rc ? rc : lex_expect_eof(lx);
}
