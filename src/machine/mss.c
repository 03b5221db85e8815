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

size_t mach_mm_nvmas_own(const struct mach_mm *mm)
{
	size_t n = mm->nvmas;

	if (n && mm->vmas[n - 1].kind == MACH_VMA_VSYSCALL)
		n--;
	return n;
}

void mach_mm_rollup(const struct mach_mm *mm, struct mach_mss *sum, uint64_t *pss_locked,
		    uint64_t *start, uint64_t *end)
{
	size_t n = mach_mm_nvmas_own(mm);

	memset(sum, 0, sizeof(*sum));
	*pss_locked = 0;
	for (size_t i = 0; i < n; i++) {
		mach_mss_add(sum, &mm->vmas[i].mss);
		*pss_locked += mach_vma_pss_locked(&mm->vmas[i]);
	}
	*start = n ? mm->vmas[0].start : 0;
	*end = n ? mm->vmas[n - 1].end : 0;
}
