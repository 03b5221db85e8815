// SPDX-License-Identifier: MIT
/*
 * mss.c - sums of the smaps counters (struct mach_mss): what smaps_rollup
 * shows, and what the loader and the tests check the mm counters against.
 */
#include <string.h>

#include "uprocfs/machine.h"

void mach_mss_add(struct mach_mss *sum, const struct mach_mss *s)
{
	sum->resident += s->resident;
	sum->shared_clean += s->shared_clean;
	sum->shared_dirty += s->shared_dirty;
	sum->private_clean += s->private_clean;
	sum->private_dirty += s->private_dirty;
	sum->referenced += s->referenced;
	sum->anonymous += s->anonymous;
	sum->ksm += s->ksm;
	sum->lazyfree += s->lazyfree;
	sum->anonymous_thp += s->anonymous_thp;
	sum->shmem_thp += s->shmem_thp;
	sum->file_thp += s->file_thp;
	sum->shared_hugetlb += s->shared_hugetlb;
	sum->private_hugetlb += s->private_hugetlb;
	sum->swap += s->swap;
	sum->pss += s->pss;
	sum->pss_anon += s->pss_anon;
	sum->pss_file += s->pss_file;
	sum->pss_shmem += s->pss_shmem;
	sum->pss_dirty += s->pss_dirty;
	sum->swap_pss += s->swap_pss;
}

size_t mach_vmas_own(const struct mach_vma *v, size_t n)
{
	if (n && v[n - 1].kind == MACH_VMA_VSYSCALL)
		n--;
	return n;
}

void mach_vmas_rollup(const struct mach_vma *v, size_t n, struct mach_mss *sum, uint64_t *pss_locked,
		      uint64_t *start, uint64_t *end)
{
	n = mach_vmas_own(v, n);
	memset(sum, 0, sizeof(*sum));
	*pss_locked = 0;
	for (size_t i = 0; i < n; i++) {
		mach_mss_add(sum, &v[i].mss);
		*pss_locked += mach_vma_pss_locked(&v[i]);
	}
	*start = n ? v[0].start : 0;
	*end = n ? v[n - 1].end : 0;
}

uint64_t mach_smaps_locked(const struct mach_vma *v, size_t n, const struct mach_vma *vma, unsigned int mode)
{
	uint64_t sum = 0, so_far = 0;

	if (vma)
		return mode == MACH_SMAPS_LOCKED_ALL ? vma->mss.pss : mach_vma_pss_locked(vma);
	n = v ? mach_vmas_own(v, n) : 0;
	for (size_t i = 0; i < n; i++) {
		so_far += v[i].mss.pss;
		if (mode == MACH_SMAPS_LOCKED_ALL)
			sum += v[i].mss.pss;
		else if (v[i].flags & MACH_VM_LOCKED)
			sum += mode == MACH_SMAPS_LOCKED_RUNNING ? so_far : v[i].mss.pss;
	}
	return sum;
}

/*
 * The lines of show_smap and show_smaps_rollup of each era: one printf of
 * every line before 4.14 (Size first, the page sizes after SwapPss), then
 * the page sizes before the counters that __show_smap shares with the
 * rollup, the rollup adding its split of Pss.
 */
void mach_smaps_profile_default(struct mach_smaps_profile *p)
{
	*p = (struct mach_smaps_profile){ .lines = MACH_SMAPS_ALL, .thp = MACH_SMAPS_THP_WIDE,
					  .locked = MACH_SMAPS_LOCKED_PSS, .sizes_first = true, .rollup = true };
}

unsigned int mach_smaps_lines(const struct mach_smaps_profile *p, bool rollup, unsigned char out[MACH_NR_SML])
{
	static const unsigned char middle[] = { MACH_SML_SHARED_CLEAN, MACH_SML_SHARED_DIRTY, MACH_SML_PRIVATE_CLEAN,
						MACH_SML_PRIVATE_DIRTY, MACH_SML_REFERENCED, MACH_SML_ANONYMOUS };
	unsigned int n = 0;

#define LINE(l) (out[n++] = (unsigned char)(l))
#define IF(bit, l) ((p->lines & (bit)) ? (void)LINE(l) : (void)0)
	if (!rollup) {
		LINE(MACH_SML_SIZE);
		if (p->sizes_first) {
			LINE(MACH_SML_KPAGE);
			LINE(MACH_SML_MMUPAGE);
		}
	}
	LINE(MACH_SML_RSS);
	LINE(MACH_SML_PSS);
	IF(MACH_SMAPS_PSS_DIRTY, MACH_SML_PSS_DIRTY);
	if (rollup && (p->lines & MACH_SMAPS_PSS_SPLIT)) {
		LINE(MACH_SML_PSS_ANON);
		LINE(MACH_SML_PSS_FILE);
		LINE(MACH_SML_PSS_SHMEM);
	}
	for (size_t i = 0; i < sizeof(middle); i++)
		LINE(middle[i]);
	IF(MACH_SMAPS_KSM, MACH_SML_KSM);
	IF(MACH_SMAPS_LAZYFREE, MACH_SML_LAZYFREE);
	LINE(MACH_SML_ANON_THP);
	IF(MACH_SMAPS_SHMEM_PMD, MACH_SML_SHMEM_PMD);
	IF(MACH_SMAPS_FILE_PMD, MACH_SML_FILE_PMD);
	IF(MACH_SMAPS_HUGETLB, MACH_SML_SHARED_HUGETLB);
	IF(MACH_SMAPS_HUGETLB, MACH_SML_PRIVATE_HUGETLB);
	LINE(MACH_SML_SWAP);
	IF(MACH_SMAPS_SWAP_PSS, MACH_SML_SWAP_PSS);
	if (!rollup && !p->sizes_first) {
		LINE(MACH_SML_KPAGE);
		LINE(MACH_SML_MMUPAGE);
	}
	LINE(MACH_SML_LOCKED);
#undef IF
#undef LINE
	return n;
}

const char *mach_smaps_label(const struct mach_smaps_profile *p, enum mach_smaps_line l, unsigned int *width)
{
	/* each label padded to 16 columns, the value in 8: Private_Hugetlb's 17 leave it 7 */
	static const char labels[MACH_NR_SML][18] = {
		"Size:           ", "KernelPageSize: ", "MMUPageSize:    ", "Rss:            ", "Pss:            ",
		"Pss_Dirty:      ", "Pss_Anon:       ", "Pss_File:       ", "Pss_Shmem:      ", "Shared_Clean:   ",
		"Shared_Dirty:   ", "Private_Clean:  ", "Private_Dirty:  ", "Referenced:     ", "Anonymous:      ",
		"KSM:            ", "LazyFree:       ", "AnonHugePages:  ", "ShmemPmdMapped: ", "FilePmdMapped:  ",
		"Shared_Hugetlb: ", "Private_Hugetlb: ", "Swap:           ", "SwapPss:        ", "Locked:         ",
	};

	*width = l == MACH_SML_PRIVATE_HUGETLB ? 7 : 8;
	if (l == MACH_SML_FILE_PMD && p->filepmd_narrow)
		return "FilePmdMapped: ";
	return (unsigned int)l < MACH_NR_SML ? labels[l] : "?";
}
