// SPDX-License-Identifier: MIT
/*
 * load_vmstat.c - parse /proc/vmstat, as printed by mm/vmstat.c vmstat_show()
 * (every kernel since 2.6: "name value\n" per counter).
 *
 * The names of the vocabulary (mach_vocab.h) load into typed fields; any
 * other name (a counter of an older kernel, a backport, a newer kernel's) is
 * kept as an extra key of the profile with its value.  The order of the
 * lines, which follows the kernel's enums and configuration, is the
 * profile's.  A repeated name is an error, and so is a value the kernel
 * would print otherwise (padding, a leading zero).
 */
#include <string.h>

#include "load_int.h"

/* A vmstat name as vmstat_text spells them: lowercase letters, digits and '_'. */
static bool counter_name(const char *s, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

/* The vocabulary id of @name (@len bytes), looking from *@hint on; -1 if none. */
static int vocab_id(const char *name, size_t len, unsigned int *hint)
{
	/* Lines usually come in vocabulary order: look from the last hit on. */
	for (unsigned int k = 0; k < MACH_NR_VMSTAT; k++) {
		unsigned int i = (*hint + k) % MACH_NR_VMSTAT;
		const char *v = mach_vmstat_names[i];

		if (strlen(v) == len && !memcmp(v, name, len)) {
			*hint = i + 1;
			return (int)i;
		}
	}
	return -1;
}

struct vm_parse {
	uint64_t val[MACH_NR_VMSTAT];
	bool seen[MACH_NR_VMSTAT];
	uint16_t order[MACH_NR_VMSTAT + MACH_MAX_EXTRA_KEYS];
	unsigned int n, nextra;
	struct mach_extra_key extra[MACH_MAX_EXTRA_KEYS];
	uint64_t extra_val[MACH_MAX_EXTRA_KEYS];
};

int ld_extra_key_new(struct lex *lx, struct mach_extra_key *keys, unsigned int n, const char *name, size_t len,
		     const char *esc, const char *what)
{
	struct mach_extra_key *k = &keys[n];

	if (len >= sizeof(k->name))
		return lex_fail(lx, "%s \"%s\" longer than %zu bytes", what, esc, sizeof(k->name) - 1);
	for (unsigned int i = 0; i < n; i++)
		if (!strncmp(keys[i].name, name, len) && !keys[i].name[len])
			return lex_fail(lx, "\"%s\" repeated", esc);
	if (n == MACH_MAX_EXTRA_KEYS)
		return lex_fail(lx, "more than %d %ss outside the vocabulary", MACH_MAX_EXTRA_KEYS, what);
	memset(k, 0, sizeof(*k));
	memcpy(k->name, name, len);
	return 0;
}

/* A name outside the vocabulary: a new extra key (its value is read by the caller). */
static int add_extra(struct lex *lx, struct vm_parse *vp, const char *name, size_t len, const char *esc)
{
	if (!counter_name(name, len))
		return lex_fail(lx, "\"%s\" is not a vmstat counter name", esc);
	return ld_extra_key_new(lx, vp->extra, vp->nextra, name, len, esc, "counter");
}

int ld_parse_vmstat(struct lex *lx, struct mach_machine *m)
{
	static struct vm_parse zero;
	struct vm_parse vp = zero;
	unsigned int hint = 0;
	int rc;

	lex_ctx(lx, NULL);
	if (lex_eof(lx))
		return lex_expected(lx, "a vmstat line");
	while (!lex_eof(lx)) {
		const char *eol = lex_line_end(lx), *name = lx->p, *sp = lx->p;
		size_t len;
		char esc[96];
		int id;

		/* the name ends at white space; the separator is checked below */
		while (sp < eol && *sp != ' ' && *sp != '\t')
			sp++;
		len = (size_t)(sp - name);
		lex_escape(name, len, esc, sizeof(esc));
		id = vocab_id(name, len, &hint);
		if (id >= 0 && vp.seen[id])
			return lex_fail(lx, "\"%s\" repeated", esc);
		if (id < 0 && (rc = add_extra(lx, &vp, name, len, esc)))
			return rc;
		lx->p += len;
		lex_ctx(lx, id >= 0 ? mach_vmstat_names[id] : vp.extra[vp.nextra].name);
		if ((rc = lex_expect(lx, " ")))
			return rc;
		if (id >= 0) {
			rc = lex_u64_exact(lx, &vp.val[id]);
			vp.seen[id] = true;
			vp.order[vp.n++] = (uint16_t)id;
		} else {
			struct mach_extra_key *k = &vp.extra[vp.nextra];
			int64_t s;

			/* vmstat_show prints unsigned longs; a '-' is some other kernel's signed value */
			if ((k->is_signed = lex_peek(lx, '-'))) {
				rc = lex_s64_exact(lx, &s);
				vp.extra_val[vp.nextra] = (uint64_t)s;
			} else {
				rc = lex_u64_exact(lx, &vp.extra_val[vp.nextra]);
			}
			vp.order[vp.n++] = (uint16_t)(MACH_NR_VMSTAT + vp.nextra++);
		}
		if (!rc)
			rc = lex_eol(lx);
		if (rc)
			return rc;
	}
	memcpy(m->vmstat, vp.val, sizeof(m->vmstat));
	memcpy(m->vmstat_extra, vp.extra_val, sizeof(m->vmstat_extra));
	m->profile.nvmstat = vp.n;
	memcpy(m->profile.vmstat_order, vp.order, vp.n * sizeof(vp.order[0]));
	m->profile.nvmstat_extra = vp.nextra;
	memcpy(m->profile.vmstat_extra, vp.extra, sizeof(vp.extra));
	return 0;
}
