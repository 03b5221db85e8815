// SPDX-License-Identifier: MIT
/*
 * load_statm.c - parse /proc/<pid>/statm, as printed by fs/proc/array.c
 * proc_pid_statm() (Linux 6.18; procfs-facts.md section 3.2).
 *
 * "size resident shared text lib data dt\n", all in pages; lib and dt are
 * always 0 since 2.6.  A task without an mm prints seven zeros.  Only text
 * has a home of its own in the model (mm->statm_text); load_pid.c checks the
 * others against the status Vm lines.
 */
#include "load_int.h"

static const char *const names[7] = { "size", "resident", "shared", "text", "lib", "data", "dt" };

int ld_parse_statm(struct lex *lx, struct ld_statm *st)
{
	const char *start;
	int rc;

	for (int i = 0; i < 7; i++) {
		lex_field(lx, i + 1, names[i]);
		if (i && (rc = lex_expect(lx, " ")))
			return rc;
		start = lx->p;
		rc = lex_u64(lx, &st->v[i]);
		if (!rc)
			rc = lex_token_end(lx, start);
		if (rc)
			return rc;
	}
	if (st->v[4] || st->v[6]) {
		lex_field(lx, st->v[4] ? 5 : 7, st->v[4] ? "lib" : "dt");
		return lex_fail(lx, "%s is always 0 since Linux 2.6", st->v[4] ? "lib" : "dt");
	}
	lex_ctx(lx, "dt");
	rc = lex_eol(lx);
	if (rc)
		return rc;
	return lex_expect_eof(lx);
}
