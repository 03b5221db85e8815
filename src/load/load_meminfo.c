// SPDX-License-Identifier: MIT
/*
 * load_meminfo.c - parse /proc/meminfo, as printed by fs/proc/meminfo.c
 * meminfo_proc_show() and arch_report_meminfo() (procfs-facts.md section 8).
 *
 * Every line is a label, padding, a value right-aligned to a width and
 * " kB" (none for HugePages_*).  A label of the vocabulary (mach_vocab.h)
 * must have exactly its kernel format; its value goes to a typed field.  Any
 * other label (a line of an older or newer kernel, a backport) is kept as an
 * extra key of the profile: its name, the column its digits end at and
 * whether " kB" follows.  Which lines appear, and in what order, depends on
 * the kernel and its configuration: that is the profile's.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "load_int.h"

/* The length of @label up to and including its colon. */
static size_t label_len(const char *label)
{
	const char *c = strchr(label, ':');

	return c ? (size_t)(c + 1 - label) : strlen(label);
}

struct mi_parse {
	uint64_t val[MACH_NR_MEMINFO];
	bool seen[MACH_NR_MEMINFO];
	uint16_t order[MACH_NR_MEMINFO + MACH_MAX_EXTRA_KEYS];
	unsigned int n, nextra;
	struct mach_extra_key extra[MACH_MAX_EXTRA_KEYS];
	uint64_t extra_val[MACH_MAX_EXTRA_KEYS];
};

/* A label meminfo could print: printable, no spaces, ending in its colon. */
static bool meminfo_label(const char *s, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++)
		if (s[i] <= ' ' || s[i] > '~' || s[i] == ':')
			return false;
	return len > 1;
}

/* The value of a vocabulary line, after its label and padding. */
static int known_value(struct lex *lx, struct mi_parse *mp, int id)
{
	const struct mach_meminfo_format *f = &mach_meminfo_formats[id];
	size_t pad = strlen(f->label) - label_len(f->label);
	int rc;

	/* the label's own padding, then the digits right-aligned to the width */
	for (size_t i = 0; i < pad; i++, lx->p++)
		if (!lex_peek(lx, ' '))
			return lex_expected(lx, "the kernel's padding");
	if ((rc = lex_u64_width(lx, &mp->val[id], f->width)))
		return rc;
	if (f->kb && (rc = lex_expect(lx, " kB")))
		return rc;
	mp->seen[id] = true;
	mp->order[mp->n++] = (uint16_t)id;
	return 0;
}

/* A line outside the vocabulary: its label (@len bytes through ':'), value and unit. */
static int extra_value(struct lex *lx, struct mi_parse *mp, const char *label, size_t len, const char *esc)
{
	struct mach_extra_key *k = &mp->extra[mp->nextra];
	const char *digits;
	int64_t s;
	int rc;

	if (!meminfo_label(label, len))
		return lex_fail(lx, "\"%s\" is not a meminfo label", esc);
	if ((rc = ld_extra_key_new(lx, mp->extra, mp->nextra, label, len, esc, "line")))
		return rc;
	while (lex_peek(lx, ' '))
		lx->p++;
	digits = lx->p;
	if ((k->is_signed = lex_peek(lx, '-'))) {
		rc = lex_s64_exact(lx, &s);
		mp->extra_val[mp->nextra] = (uint64_t)s;
	} else {
		rc = lex_u64_exact(lx, &mp->extra_val[mp->nextra]);
	}
	if (rc)
		return rc;
	/* the padding and the width cannot be told apart: keep where the digits end */
	if (lx->p - digits > 24)
		return lex_fail(lx, "value of \"%s\" too long", esc);
	if (lx->p - label > UCHAR_MAX)
		return lex_fail(lx, "value of \"%s\" ends beyond column %d", esc, UCHAR_MAX);
	k->col = (unsigned char)(lx->p - label);
	k->kb = lex_accept(lx, " kB");
	mp->order[mp->n++] = (uint16_t)(MACH_NR_MEMINFO + mp->nextra++);
	return 0;
}

int ld_parse_meminfo(struct lex *lx, struct mach_machine *m)
{
	static struct mi_parse zero;
	struct mi_parse mp = zero;
	int rc;

	lex_ctx(lx, NULL);
	if (lex_eof(lx))
		return lex_expected(lx, "a meminfo line");
	while (!lex_eof(lx)) {
		const char *eol = lex_line_end(lx);
		const char *colon = memchr(lx->p, ':', (size_t)(eol - lx->p));
		const char *label = lx->p;
		size_t len = colon ? (size_t)(colon + 1 - lx->p) : (size_t)(eol - lx->p);
		char esc[96], lab[64];
		int id = -1;

		for (int i = 0; i < MACH_NR_MEMINFO && colon; i++) {
			const char *l = mach_meminfo_formats[i].label;

			if (label_len(l) == len && !memcmp(l, lx->p, len)) {
				id = i;
				break;
			}
		}
		lex_escape(lx->p, len, esc, sizeof(esc));
		if (!colon && !len)
			return lex_fail(lx, "empty line");
		if (!colon)
			return lex_fail(lx, "no ':' in \"%s\"", esc);
		if (id >= 0 && mp.seen[id])
			return lex_fail(lx, "\"%s\" repeated", esc);
		lx->p += len;
		/* messages name the label without its padding */
		snprintf(lab, sizeof(lab), "%.*s", (int)len, label);
		lex_ctx(lx, lab);
		rc = id >= 0 ? known_value(lx, &mp, id) : extra_value(lx, &mp, label, len, esc);
		if (!rc)
			rc = lex_eol(lx);
		if (rc)
			return rc;
	}
	memcpy(m->meminfo, mp.val, sizeof(m->meminfo));
	memcpy(m->meminfo_extra, mp.extra_val, sizeof(m->meminfo_extra));
	m->profile.nmeminfo = mp.n;
	memcpy(m->profile.meminfo_order, mp.order, mp.n * sizeof(mp.order[0]));
	m->profile.nmeminfo_extra = mp.nextra;
	memcpy(m->profile.meminfo_extra, mp.extra, sizeof(mp.extra));
	return 0;
}
