// SPDX-License-Identifier: MIT
/*
 * load_statm.c - parse /proc/<pid>/statm, as printed by fs/proc/array.c
 * proc_pid_statm() (Linux 6.18; procfs-facts.md section 3.2).
 *
 * "size resident shared text lib data dt\n", all in pages; lib and dt are
 * always 0 since 2.6.  A task without an mm prints seven zeros.  Only text
 * has a home of its own in the model (mm->statm_text); pid_compare.c checks
 * the others against the status Vm lines.
 */
#include "load_int.h"

const char *const ld_statm_names[LD_STATM_FIELDS] = {
	[LD_STATM_SIZE] = "size", [LD_STATM_RESIDENT] = "resident", [LD_STATM_SHARED] = "shared",
	[LD_STATM_TEXT] = "text", [LD_STATM_LIB] = "lib", [LD_STATM_DATA] = "data",
	[LD_STATM_DT] = "dt",
};

int ld_parse_statm(struct lex *lx, struct ld_statm *st)
{
	const char *start;
	int rc;

	for (int i = 0; i < LD_STATM_FIELDS; i++) {
		lex_field(lx, i + 1, ld_statm_names[i]);
		if (i && (rc = lex_expect(lx, " ")))
			return rc;
		start = lx->p;
		rc = lex_u64_exact(lx, &st->v[i]);
		if (!rc)
			rc = lex_token_end(lx, start);
		if (rc)
			return rc;
	}
	if (st->v[LD_STATM_LIB] || st->v[LD_STATM_DT]) {
		enum ld_statm_field f = st->v[LD_STATM_LIB] ? LD_STATM_LIB : LD_STATM_DT;

		lex_field(lx, f + 1, ld_statm_names[f]);
		return lex_fail(lx, "%s is always 0 since Linux 2.6", ld_statm_names[f]);
	}
	lex_ctx(lx, "dt");
	rc = lex_eol(lx);
	if (rc)
		return rc;
	return lex_expect_eof(lx);
}
