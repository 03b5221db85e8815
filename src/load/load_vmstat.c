// SPDX-License-Identifier: MIT
/*
 * load_vmstat.c - parse /proc/vmstat, as printed by mm/vmstat.c vmstat_show()
 * (Linux 6.18).
 *
 * "name value\n" per line.  The names come from the vocabulary
 * (mach_vocab.h); their order, which depends on the configuration, is
 * recorded in the profile.  Unknown or repeated names are errors.
 */
#include <string.h>

#include "load_int.h"

int ld_parse_vmstat(struct lex *lx, struct mach_machine *m)
{
	uint64_t val[MACH_NR_VMSTAT];
	enum mach_vmstat_id order[MACH_NR_VMSTAT];
	bool seen[MACH_NR_VMSTAT] = { false };
	unsigned int n = 0, hint = 0;
	int rc;

	lex_ctx(lx, NULL);
	if (lex_eof(lx))
		return lex_expected(lx, "a vmstat line");
	while (!lex_eof(lx)) {
		const char *eol = lex_line_end(lx);
		const char *sp = lx->p;
		size_t len;

		/* the name ends at white space; the separator is checked below */
		while (sp < eol && *sp != ' ' && *sp != '\t')
			sp++;
		len = (size_t)(sp - lx->p);
		int id = -1;
		char esc[96];

		/* Lines usually come in vocabulary order: look from the last hit on. */
		for (unsigned int k = 0; k < MACH_NR_VMSTAT; k++) {
			unsigned int i = (hint + k) % MACH_NR_VMSTAT;
			const char *name = mach_vmstat_names[i];

			if (strlen(name) == len && !memcmp(name, lx->p, len)) {
				id = (int)i;
				hint = i + 1;
				break;
			}
		}
		lex_escape(lx->p, len, esc, sizeof(esc));
		if (id < 0)
			return lex_fail(lx, "unknown field \"%s\"", esc);
		if (seen[id])
			return lex_fail(lx, "\"%s\" repeated", esc);
		lx->p += len;
		lex_ctx(lx, mach_vmstat_names[id]);
		rc = lex_expect(lx, " ");
		if (!rc)
			rc = lex_u64(lx, &val[id]);
		if (!rc)
			rc = lex_eol(lx);
		if (rc)
			return rc;
		seen[id] = true;
		order[n++] = (enum mach_vmstat_id)id;
	}
	memset(m->vmstat, 0, sizeof(m->vmstat));
	for (unsigned int i = 0; i < n; i++)
		m->vmstat[order[i]] = val[order[i]];
	m->profile.nvmstat = n;
	memcpy(m->profile.vmstat_order, order, n * sizeof(order[0]));
	return 0;
}
