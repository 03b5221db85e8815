// SPDX-License-Identifier: MIT
/*
 * load_meminfo.c - parse /proc/meminfo, as printed by fs/proc/meminfo.c
 * meminfo_proc_show() and arch_report_meminfo() (Linux 6.18;
 * procfs-facts.md section 8).
 *
 * Every line is a label of the vocabulary (mach_vocab.h), padding, a value
 * and " kB" (none for HugePages_*).  Which lines appear depends on the
 * kernel's configuration, so their order is recorded in the profile; a label
 * outside the vocabulary, or one seen twice, is an error.
 */
#include <string.h>

#include "load_int.h"

/* The length of @label up to and including its colon. */
static size_t label_len(const char *label)
{
	const char *c = strchr(label, ':');

	return c ? (size_t)(c + 1 - label) : strlen(label);
}

int ld_parse_meminfo(struct lex *lx, struct mach_machine *m)
{
	uint64_t val[MACH_NR_MEMINFO];
	enum mach_meminfo_id order[MACH_NR_MEMINFO];
	bool seen[MACH_NR_MEMINFO] = { false };
	unsigned int n = 0;
	int rc;

	lex_ctx(lx, NULL);
	if (lex_eof(lx))
		return lex_expected(lx, "a meminfo line");
	while (!lex_eof(lx)) {
		const char *eol = lex_line_end(lx);
		const char *colon = memchr(lx->p, ':', (size_t)(eol - lx->p));
		size_t len = colon ? (size_t)(colon + 1 - lx->p) : (size_t)(eol - lx->p);
		char esc[96], lab[32];
		int id = -1;

		for (int i = 0; i < MACH_NR_MEMINFO && colon; i++) {
			const char *l = mach_meminfo_formats[i].label;

			if (label_len(l) == len && !memcmp(l, lx->p, len)) {
				id = i;
				break;
			}
		}
		lex_escape(lx->p, len, esc, sizeof(esc));
		if (id < 0)
			return lex_fail(lx, "unknown field \"%s\"", esc);
		if (seen[id])
			return lex_fail(lx, "\"%s\" repeated", esc);
		lx->p += len;
		/* messages name the label without its padding */
		memcpy(lab, lx->p - len, len);
		lab[len] = '\0';
		lex_ctx(lx, lab);
		rc = lex_u64(lx, &val[id]);
		if (!rc && mach_meminfo_formats[id].kb)
			rc = lex_expect(lx, " kB");
		if (!rc)
			rc = lex_eol(lx);
		if (rc)
			return rc;
		seen[id] = true;
		order[n++] = (enum mach_meminfo_id)id;
	}
	memset(m->meminfo, 0, sizeof(m->meminfo));
	for (unsigned int i = 0; i < n; i++)
		m->meminfo[order[i]] = val[order[i]];
	m->profile.nmeminfo = n;
	memcpy(m->profile.meminfo_order, order, n * sizeof(order[0]));
	return 0;
}
