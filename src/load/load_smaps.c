// SPDX-License-Identifier: MIT
/*
 * load_smaps.c - parse /proc/<pid>/smaps and smaps_rollup, as printed by
 * fs/proc/task_mmu.c show_smap and show_smaps_rollup (Linux 6.18;
 * research notes sections 14 and 14b).
 *
 * A smaps record is the maps line of its VMA, the counter lines in kB
 * ("Label:" then the value right-aligned, then " kB"), "THPeligible:" 0 or
 * 1 and "VmFlags:" with one mnemonic per set vm_flags bit in bit order.  The
 * rollup's header spans the mm with flags, offset, device and inode 0 and
 * the name "[rollup]"; its counters add Pss_Anon, Pss_File and Pss_Shmem and
 * leave out the sizes, THPeligible and VmFlags.  Values are kept in kB as
 * printed: which fixed-point proportional sizes lie behind them is decided
 * once the whole process is read (pss_fit.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_mmsched.h"

/* Largest kB value accepted: its bytes in the PSS fixed point fit 64 bits. */
#define KB_MAX (UINT64_C(1) << 41)

#define IN_VMA 0x1u
#define IN_ROLLUP 0x2u

static const struct {
	const char *label;
	unsigned char in;
} sm_defs[SM_NR] = {
	[SM_SIZE] = { "Size:", IN_VMA },
	[SM_KPAGE] = { "KernelPageSize:", IN_VMA },
	[SM_MMUPAGE] = { "MMUPageSize:", IN_VMA },
	[SM_RSS] = { "Rss:", IN_VMA | IN_ROLLUP },
	[SM_PSS] = { "Pss:", IN_VMA | IN_ROLLUP },
	[SM_PSS_DIRTY] = { "Pss_Dirty:", IN_VMA | IN_ROLLUP },
	[SM_PSS_ANON] = { "Pss_Anon:", IN_ROLLUP },
	[SM_PSS_FILE] = { "Pss_File:", IN_ROLLUP },
	[SM_PSS_SHMEM] = { "Pss_Shmem:", IN_ROLLUP },
	[SM_SHARED_CLEAN] = { "Shared_Clean:", IN_VMA | IN_ROLLUP },
	[SM_SHARED_DIRTY] = { "Shared_Dirty:", IN_VMA | IN_ROLLUP },
	[SM_PRIVATE_CLEAN] = { "Private_Clean:", IN_VMA | IN_ROLLUP },
	[SM_PRIVATE_DIRTY] = { "Private_Dirty:", IN_VMA | IN_ROLLUP },
	[SM_REFERENCED] = { "Referenced:", IN_VMA | IN_ROLLUP },
	[SM_ANONYMOUS] = { "Anonymous:", IN_VMA | IN_ROLLUP },
	[SM_KSM] = { "KSM:", IN_VMA | IN_ROLLUP },
	[SM_LAZYFREE] = { "LazyFree:", IN_VMA | IN_ROLLUP },
	[SM_ANON_THP] = { "AnonHugePages:", IN_VMA | IN_ROLLUP },
	[SM_SHMEM_PMD] = { "ShmemPmdMapped:", IN_VMA | IN_ROLLUP },
	[SM_FILE_PMD] = { "FilePmdMapped:", IN_VMA | IN_ROLLUP },
	[SM_SHARED_HUGETLB] = { "Shared_Hugetlb:", IN_VMA | IN_ROLLUP },
	[SM_PRIVATE_HUGETLB] = { "Private_Hugetlb:", IN_VMA | IN_ROLLUP },
	[SM_SWAP] = { "Swap:", IN_VMA | IN_ROLLUP },
	[SM_SWAP_PSS] = { "SwapPss:", IN_VMA | IN_ROLLUP },
	[SM_LOCKED] = { "Locked:", IN_VMA | IN_ROLLUP },
};

const char *ld_sm_label(enum ld_sm f)
{
	return (unsigned int)f < SM_NR ? sm_defs[f].label : "?";
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

/* The counter lines a record of kind @in has, into @kb. */
static int parse_counters(struct lex *lx, unsigned int in, uint64_t kb[SM_NR])
{
	int rc;

	for (int f = 0; f < SM_NR; f++) {
		if (!(sm_defs[f].in & in))
			continue;
		lex_ctx(lx, NULL);
		if ((rc = lex_expect(lx, sm_defs[f].label)))
			return rc;
		lex_ctx(lx, sm_defs[f].label);
		if ((rc = lex_u64_pad(lx, &kb[f], KB_MAX)) || (rc = lex_expect(lx, " kB")) ||
		    (rc = lex_eol(lx)))
			return rc;
	}
	return 0;
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

/* One VMA's record, after its maps line. */
static int parse_record(struct lex *lx, struct ld_smap *r)
{
	const uint64_t perms = MACH_VM_READ | MACH_VM_WRITE | MACH_VM_EXEC | MACH_VM_MAYSHARE;
	struct mach_vma *v = &r->vma;
	uint64_t thp, flags;
	int rc;

	if ((rc = parse_counters(lx, IN_VMA, r->kb)))
		return rc;
	lex_ctx(lx, NULL);
	if ((rc = lex_expect(lx, "THPeligible:")))
		return rc;
	lex_ctx(lx, "THPeligible:");
	if ((rc = lex_u64_pad(lx, &thp, 1)) || (rc = lex_eol(lx)))
		return rc;
	if ((rc = parse_vm_flags(lx, &flags)))
		return rc;
	if ((flags & perms) != (v->flags & perms))
		return lex_fail_line(lx, r->line, "VmFlags disagree with the permissions of the maps line");
	if (r->kb[SM_SIZE] != (v->end - v->start) / 1024)
		return lex_fail_line(lx, r->line, "Size: %llu kB, but the mapping spans %llu kB",
				     (unsigned long long)r->kb[SM_SIZE],
				     (unsigned long long)((v->end - v->start) / 1024));
	v->flags = flags;
	v->thp_eligible = thp;
	v->pagesize_kb = (uint32_t)(r->kb[SM_KPAGE] < UINT32_MAX ? r->kb[SM_KPAGE] : UINT32_MAX);
	return 0;
}

int ld_parse_smaps(struct lex *lx, struct ld_smaps *sm)
{
	size_t cap = 0;
	unsigned int per_record = 3; /* the maps line, THPeligible and VmFlags, */
	int rc;

	for (int f = 0; f < SM_NR; f++)
		per_record += !!(sm_defs[f].in & IN_VMA); /* and the counters */
	while (!lex_eof(lx)) {
		const char *line = lx->p;
		/* counted before it parses, so that ld_smaps_free frees a failed record's name */
		struct ld_smap *r = VEC_PUSH(sm->v, sm->n, cap);

		if (!r)
			return -ENOMEM;
		memset(r, 0, sizeof(*r));
		/* every record before this one had all its lines: counting them is cheaper than a scan */
		r->line = 1 + (unsigned int)(sm->n - 1) * per_record;
		if ((rc = ld_parse_map_line(lx, &r->vma)) || (rc = parse_record(lx, r)))
			return rc;
		if (r->vma.end <= r->vma.start)
			return lex_fail_at(lx, line, "mapping ends before it starts");
		if (sm->n > 1 && r->vma.start < sm->v[sm->n - 2].vma.end)
			return lex_fail_at(lx, line, "mapping overlaps or precedes the one before");
	}
	return 0;
}

int ld_parse_smaps_rollup(struct lex *lx, struct ld_rollup *ro)
{
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
	if ((rc = parse_counters(lx, IN_ROLLUP, ro->kb)))
		return rc;
	return lex_expect_eof(lx);
}
