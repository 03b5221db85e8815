// SPDX-License-Identifier: MIT
/*
 * load_smaps.c - parse /proc/<pid>/smaps and smaps_rollup, as printed by
 * fs/proc/task_mmu.c show_smap and show_smaps_rollup of Linux 3.10 to 6.18
 * (research notes sections 14 and 14b; the kernels' differences in
 * mach_vm.h).
 *
 * A smaps record is the maps line of its VMA, the counter lines in kB
 * ("Label:" padded to its column, the value right-aligned, " kB"),
 * "THPeligible:" 0 or 1 (5.0 on, in the format of its era), ProtectionKey
 * where the CPU has protection keys, and "VmFlags:" with one mnemonic per
 * set vm_flags bit in bit order.  The first record's lines say which
 * kernel wrote the file (the profile: which optional lines, where the page
 * sizes go); every other record must have the same lines.  The rollup's
 * header spans the mm with flags, offset, device and inode 0 and the name
 * "[rollup]"; its counters add Pss_Anon, Pss_File and Pss_Shmem (5.3 on)
 * and leave out the sizes, THPeligible and VmFlags.  Values are kept in kB
 * as printed: which fixed-point proportional sizes lie behind them is
 * decided once the whole process is read (pss_fit.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_mmsched.h"

/* Largest kB value accepted: its bytes in the PSS fixed point fit 64 bits. */
#define KB_MAX (UINT64_C(1) << 41)

/* A profile printing every line: the labels the names are taken from (mach_vm.h keeps their text). */
static const struct mach_smaps_profile all_lines = { .lines = MACH_SMAPS_ALL };

const char *ld_sm_label(enum ld_sm f)
{
	static const char names[SM_NR][17] = {
		"Size:", "KernelPageSize:", "MMUPageSize:", "Rss:", "Pss:", "Pss_Dirty:", "Pss_Anon:", "Pss_File:",
		"Pss_Shmem:", "Shared_Clean:", "Shared_Dirty:", "Private_Clean:", "Private_Dirty:", "Referenced:",
		"Anonymous:", "KSM:", "LazyFree:", "AnonHugePages:", "ShmemPmdMapped:", "FilePmdMapped:",
		"Shared_Hugetlb:", "Private_Hugetlb:", "Swap:", "SwapPss:", "Locked:",
	};

	return (unsigned int)f < SM_NR ? names[f] : "?";
}

void ld_smaps_free(struct ld_smaps *sm)
{
	if (!sm)
		return;
	for (size_t i = 0; i < sm->n; i++)
		free(sm->v[i].vma.name);
	free(sm->v);
	free(sm->path);
	free(sm);
}

/* The counter line whose name ("Rss:") opens the line at the cursor, or -1. */
static int line_named(const struct lex *lx)
{
	size_t avail = (size_t)(lx->end - lx->p);
	const char *colon = memchr(lx->p, ':', avail < 20 ? avail : 20);

	for (int f = 0; colon && f < SM_NR; f++) {
		const char *name = ld_sm_label((enum ld_sm)f);

		if ((size_t)(colon + 1 - lx->p) == strlen(name) && !memcmp(lx->p, name, strlen(name)))
			return f;
	}
	return -1;
}

/*
 * One counter line named at the cursor, of any kernel: the name, the
 * padding to its column, the value right-aligned in its width, " kB".  The
 * padding must be the kernel's; FilePmdMapped's tells the 5.4-5.8 label,
 * one column short (*@narrow).
 */
static int any_counter(struct lex *lx, int f, uint64_t *kb, bool *narrow)
{
	const char *name = ld_sm_label((enum ld_sm)f), *digits;
	struct mach_smaps_profile p = all_lines;
	unsigned int width;
	size_t pad, nd;
	int rc;

	lx->p += strlen(name);
	lex_ctx(lx, name);
	pad = lex_skip_spaces(lx);
	digits = lx->p;
	if ((rc = lex_u64_exact(lx, kb)))
		return rc;
	nd = (size_t)(lx->p - digits);
	for (int v = 0;; v++) {
		size_t want;

		p.filepmd_narrow = v;
		want = strlen(mach_smaps_label(&p, (enum mach_smaps_line)f, &width)) - strlen(name);
		want += nd < width ? width - nd : 0;
		if (pad == want) {
			*narrow = v;
			break;
		}
		if (v || f != SM_FILE_PMD)
			return lex_fail_at(lx, digits, "%zu spaces before a %zu-digit value where the kernel pads to "
					   "%zu", pad, nd, want);
	}
	if (*kb > KB_MAX)
		return lex_fail_at(lx, digits, "%llu kB: more than a 64-bit fixed point holds", (unsigned long long)*kb);
	if ((rc = lex_expect(lx, " kB")) || (rc = lex_eol(lx)))
		return rc;
	lex_ctx(lx, NULL);
	return 0;
}

/*
 * The counter lines of a file's first record (or of the rollup), as the
 * kernel that wrote it printed them: values into @kb, their order into
 * @seq (@n lines), *@narrow FilePmdMapped's label.
 */
static int first_counters(struct lex *lx, uint64_t kb[SM_NR], unsigned char seq[SM_NR], unsigned int *n,
			  bool *narrow)
{
	int f, rc;

	*n = 0;
	*narrow = false;
	while (!lex_eof(lx) && (f = line_named(lx)) >= 0) {
		bool nw = false;

		for (unsigned int i = 0; i < *n; i++)
			if (seq[i] == f)
				return lex_fail(lx, "a second \"%s\" line in one record", ld_sm_label((enum ld_sm)f));
		if ((rc = any_counter(lx, f, &kb[f], &nw)))
			return rc;
		*narrow |= nw;
		seq[(*n)++] = (unsigned char)f;
	}
	return 0;
}

/*
 * One counter line as it nearly always is: the padded @label (@len bytes),
 * the value right-aligned in its @width with room to spare, " kB".  False,
 * the cursor where it was, for anything else (the careful path decides).
 */
static bool plain_counter(struct lex *lx, const char *label, size_t len, unsigned int width, uint64_t *kb)
{
	const char *f = lx->p + len, *e = f + width;
	uint64_t v = 0;

	if ((size_t)(lx->end - lx->p) < len + width + 4 || memcmp(lx->p, label, len) || memcmp(e, " kB\n", 4))
		return false;
	while (f < e && *f == ' ')
		f++;
	if (f == e || (*f == '0' && f + 1 < e))
		return false;
	for (; f < e; f++) {
		if (*f < '0' || *f > '9')
			return false;
		v = v * 10 + (uint64_t)(*f - '0');
	}
	*kb = v;
	lx->p = e + 4;
	return true;
}

/* The counter lines of a later record: the first record's, each exactly as the profile prints it. */
static int counters(struct lex *lx, const struct mach_smaps_profile *p, const unsigned char *seq, unsigned int n,
		    uint64_t kb[SM_NR])
{
	unsigned int width;
	int rc;

	for (unsigned int i = 0; i < n; i++) {
		const char *label = mach_smaps_label(p, (enum mach_smaps_line)seq[i], &width);

		if (plain_counter(lx, label, strlen(label), width, &kb[seq[i]]))
			continue;
		lex_ctx(lx, NULL);
		if ((rc = lex_expect(lx, label)))
			return rc;
		lex_ctx(lx, ld_sm_label((enum ld_sm)seq[i]));
		if ((rc = lex_u64_width(lx, &kb[seq[i]], width)) || (rc = lex_expect(lx, " kB")) || (rc = lex_eol(lx)))
			return rc;
		if (kb[seq[i]] > KB_MAX)
			return lex_fail(lx, "%llu kB: more than a 64-bit fixed point holds",
					(unsigned long long)kb[seq[i]]);
	}
	lex_ctx(lx, NULL);
	return 0;
}

/*
 * The kernel the lines @seq of a record (or of the rollup) show: which
 * optional lines, where the page sizes are, FilePmdMapped's label, into
 * @p.  -EINVAL when no kernel printed that sequence (a line missing, moved
 * or added by hand), naming the first line out of place.
 */
static int lines_profile(struct lex *lx, const unsigned char *seq, unsigned int n, bool narrow, bool rollup,
			 struct mach_smaps_profile *p)
{
	static const struct { unsigned char line; unsigned char bit; } optional[] = {
		{ SM_SWAP_PSS, MACH_SMAPS_SWAP_PSS }, { SM_SHARED_HUGETLB, MACH_SMAPS_HUGETLB },
		{ SM_SHMEM_PMD, MACH_SMAPS_SHMEM_PMD }, { SM_LAZYFREE, MACH_SMAPS_LAZYFREE },
		{ SM_PSS_ANON, MACH_SMAPS_PSS_SPLIT }, { SM_FILE_PMD, MACH_SMAPS_FILE_PMD },
		{ SM_PSS_DIRTY, MACH_SMAPS_PSS_DIRTY }, { SM_KSM, MACH_SMAPS_KSM },
	};
	unsigned char want[SM_NR];
	unsigned int nwant, i = 0;

	p->lines = 0;
	for (unsigned int k = 0; k < n; k++)
		for (size_t o = 0; o < sizeof(optional) / sizeof(optional[0]); o++)
			if (seq[k] == optional[o].line)
				p->lines |= optional[o].bit;
	p->sizes_first = rollup || (n > 1 && seq[1] == SM_KPAGE);
	p->rollup = p->sizes_first;
	p->filepmd_narrow = narrow;
	nwant = mach_smaps_lines(p, rollup, want);
	while (i < n && i < nwant && seq[i] == want[i])
		i++;
	if (i == n && i == nwant)
		return 0;
	if (i == n)
		return lex_fail(lx, "the counter lines end before \"%s\", which every kernel printing these prints",
				ld_sm_label((enum ld_sm)want[i]));
	return lex_fail(lx, "these counter lines are no kernel's: \"%s\" where one printing the others has %s%s%s",
			ld_sm_label((enum ld_sm)seq[i]), i < nwant ? "\"" : "no more",
			i < nwant ? ld_sm_label((enum ld_sm)want[i]) : "", i < nwant ? "\"" : "");
}

/* The bit whose mnemonic is the two bytes at @s, or -1. */
static int flag_bit(const char *s)
{
	for (unsigned int bit = 0; bit < MACH_NR_VM_BITS; bit++) {
		const char *name = mach_vm_flag_name(bit);

		if (name && name[0] && name[0] == s[0] && name[1] == s[1])
			return (int)bit;
	}
	return -1;
}

/* "VmFlags: " then "xx " per set bit, in bit order, then the newline. */
static int parse_vm_flags(struct lex *lx, uint64_t *flags)
{
	int prev = -1, bit, rc;

	lex_ctx(lx, NULL);
	if ((rc = lex_expect(lx, "VmFlags: ")))
		return rc;
	lex_ctx(lx, "VmFlags:");
	*flags = 0;
	while (!lex_peek(lx, '\n')) {
		if (lx->end - lx->p < 3 || lx->p[2] != ' ')
			return lex_expected(lx, "a two-letter flag and a space");
		if (lx->p[0] == '?' && lx->p[1] == '?')
			return lex_fail(lx, "a flag the kernel has no name for (\"??\"): its bit is unknown");
		bit = flag_bit(lx->p);
		if (bit < 0)
			return lex_expected(lx, "a VmFlags mnemonic");
		if (bit <= prev)
			return lex_fail(lx, "flag \"%.2s\" out of bit order", lx->p);
		*flags |= MACH_VM_BIT(bit);
		prev = bit;
		lx->p += 3;
	}
	return lex_eol(lx);
}

/*
 * THPeligible, in the format of its era (none before 5.0): the first
 * record decides *@format, the later ones must print the same.
 */
static int thp_line(struct lex *lx, unsigned char *format, bool first, uint64_t *thp)
{
	static const char *const forms[] = { [MACH_SMAPS_THP_PLAIN] = "THPeligible:    ",
					     [MACH_SMAPS_THP_TABS] = "THPeligible:\t\t",
					     [MACH_SMAPS_THP_WIDE] = "THPeligible:           " };
	unsigned char f = MACH_SMAPS_THP_NONE;
	int rc;

	*thp = 0;
	/* the wide format's spaces begin with the plain one's: try it first */
	for (unsigned char k = MACH_SMAPS_THP_WIDE; k >= MACH_SMAPS_THP_PLAIN && !f; k--)
		if (lex_accept(lx, forms[k]))
			f = k;
	if (first)
		*format = f;
	else if (f != *format)
		return lex_expected(lx, *format == MACH_SMAPS_THP_NONE ? "\"VmFlags: \" (the first record has no "
					"THPeligible)" : "THPeligible: as the first record prints it");
	if (f == MACH_SMAPS_THP_NONE)
		return 0;
	lex_ctx(lx, "THPeligible:");
	if (lex_peek(lx, ' '))
		return lex_expected(lx, "THPeligible's 0 or 1 in the kernel's column");
	if ((rc = lex_u64_max(lx, thp, 1)) || (rc = lex_eol(lx)))
		return rc;
	lex_ctx(lx, NULL);
	return 0;
}

/* ProtectionKey (4.6, a CPU with OSPKE): the key into *@key; the first record decides *@pkey. */
static int pkey_line(struct lex *lx, bool *pkey, bool first, uint64_t *key)
{
	bool has = lex_accept(lx, "ProtectionKey:  ");
	int rc;

	*key = 0;
	if (first)
		*pkey = has;
	else if (has != *pkey)
		return has ? lex_fail(lx, "a ProtectionKey: line, but the first record has none")
			   : lex_expected(lx, "\"ProtectionKey:  \" (as the first record)");
	if (!has)
		return 0;
	lex_ctx(lx, "ProtectionKey:");
	if ((rc = lex_u64_width(lx, key, 8)) || (rc = lex_eol(lx)))
		return rc;
	if (*key > 15)
		return lex_fail(lx, "protection key %llu: x86 has 16", (unsigned long long)*key);
	lex_ctx(lx, NULL);
	return 0;
}

/* One VMA's record, after its maps line: the @first one decides the file's profile and lines (@seq). */
static int parse_record(struct lex *lx, struct ld_smaps *sm, struct ld_smap *r, bool first, unsigned char *seq,
			unsigned int *nseq)
{
	const uint64_t perms = MACH_VM_READ | MACH_VM_WRITE | MACH_VM_EXEC | MACH_VM_MAYSHARE;
	struct mach_vma *v = &r->vma;
	uint64_t thp, flags, key;
	bool narrow;
	int rc;

	if (first) {
		if ((rc = first_counters(lx, r->kb, seq, nseq, &narrow)) ||
		    (rc = lines_profile(lx, seq, *nseq, narrow, false, &sm->prof)))
			return rc;
	} else if ((rc = counters(lx, &sm->prof, seq, *nseq, r->kb))) {
		return rc;
	}
	if ((rc = thp_line(lx, &sm->prof.thp, first, &thp)) || (rc = pkey_line(lx, &sm->prof.pkey, first, &key)) ||
	    (rc = parse_vm_flags(lx, &flags)))
		return rc;
	/*
	 * Only a rollup prints Pss_Anon, Pss_File and Pss_Shmem (5.3 on); until
	 * one is read, the era says: THPeligible in tabs (5.3-5.8) or wide
	 * (6.6 on), or plain beside FilePmdMapped (5.9-6.5).
	 */
	if (first && (sm->prof.thp == MACH_SMAPS_THP_TABS || sm->prof.thp == MACH_SMAPS_THP_WIDE ||
		      (sm->prof.thp == MACH_SMAPS_THP_PLAIN && (sm->prof.lines & MACH_SMAPS_FILE_PMD))))
		sm->prof.lines |= MACH_SMAPS_PSS_SPLIT;
	if ((flags & perms) != (v->flags & perms))
		return lex_fail_line(lx, r->line, "VmFlags disagree with the permissions of the maps line");
	if (r->kb[SM_SIZE] != (v->end - v->start) / 1024)
		return lex_fail_line(lx, r->line, "Size: %llu kB, but the mapping spans %llu kB",
				     (unsigned long long)r->kb[SM_SIZE],
				     (unsigned long long)((v->end - v->start) / 1024));
	v->flags = flags | key << MACH_VMB_PKEY_BIT0;
	v->thp_eligible = thp;
	v->pagesize_kb = (uint32_t)(r->kb[SM_KPAGE] < UINT32_MAX ? r->kb[SM_KPAGE] : UINT32_MAX);
	return 0;
}

int ld_parse_smaps(struct lex *lx, struct ld_smaps *sm)
{
	unsigned char seq[SM_NR];
	unsigned int nseq = 0, per_record = 0;
	size_t cap = 0;
	int rc;

	mach_smaps_profile_default(&sm->prof);
	while (!lex_eof(lx)) {
		const char *line = lx->p;
		/* counted before it parses, so that ld_smaps_free frees a failed record's name */
		struct ld_smap *r = VEC_PUSH(sm->v, sm->n, cap);

		if (!r)
			return -ENOMEM;
		memset(r, 0, sizeof(*r));
		/* every record before this one had the first's lines: counting them is cheaper than a scan */
		r->line = 1 + (unsigned int)(sm->n - 1) * per_record;
		if ((rc = ld_parse_map_line(lx, &r->vma)) || (rc = parse_record(lx, sm, r, sm->n == 1, seq, &nseq)))
			return rc;
		/* the maps line, the counters, THPeligible and ProtectionKey where printed, VmFlags */
		per_record = 2 + nseq + (sm->prof.thp != MACH_SMAPS_THP_NONE) + sm->prof.pkey;
		if (r->vma.end <= r->vma.start)
			return lex_fail_at(lx, line, "mapping ends before it starts");
		if (sm->n > 1 && r->vma.start < sm->v[sm->n - 2].vma.end)
			return lex_fail_at(lx, line, "mapping overlaps or precedes the one before");
	}
	return 0;
}

int ld_parse_smaps_rollup(struct lex *lx, struct ld_rollup *ro)
{
	struct mach_smaps_profile p = { 0 };
	struct mach_vma h = { 0 };
	const char *line = lx->p;
	bool ok;
	int rc;

	rc = ld_parse_map_line(lx, &h);
	ok = !rc && !h.flags && !h.offset && !h.dev_major && !h.dev_minor && !h.inode &&
	     h.kind == MACH_VMA_FILE && !h.deleted && h.name && !strcmp(h.name, "[rollup]");
	free(h.name);
	if (rc)
		return rc;
	if (!ok)
		return lex_fail_at(lx, line, "expected \"START-END ---p 00000000 00:00 0 [rollup]\"");
	if (h.end < h.start)
		return lex_fail_at(lx, line, "the span ends before it starts");
	ro->start = h.start;
	ro->end = h.end;
	if ((rc = first_counters(lx, ro->kb, ro->seq, &ro->nseq, &ro->filepmd_narrow)) ||
	    (rc = lines_profile(lx, ro->seq, ro->nseq, ro->filepmd_narrow, true, &p)))
		return rc;
	return lex_expect_eof(lx);
}
