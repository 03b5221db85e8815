// SPDX-License-Identifier: MIT
/*
 * smaps.c - what a page-table walk would count in each synthetic mapping
 * (the smaps counters of struct mach_mss), and the swapped-out and huge
 * pages of an address space.
 *
 * A mapping's resident memory is of one class: anonymous (private pages
 * written to: heap, stacks, relocated data), file or shmem.  Anonymous
 * pages are private and dirty; shared memory is dirty; file pages are
 * clean, except those of a file mapped shared and writable.  Every
 * resident page of a file is taken to be mapped by all the processes that
 * map the file (sharing.c), so its Pss share is the kernel's
 * (PAGE_SIZE << PSS_SHIFT) / mapcount per page, and it counts as Shared_*
 * once two processes map it.  Which part of the resident pages was
 * referenced lately comes from the process's detail stream, keyed by its
 * pid and the mapping's address: it does not depend on build order.
 */
#include "mm_int.h"

#define PAGE_FIXED ((uint64_t)MACH_PAGE_SIZE << MACH_PSS_SHIFT)
#define HPAGE (UINT64_C(2) << 20)

/* The detail stream of one mapping of process @pid. */
static struct rng detail(const struct synth *s, pid_t pid, uint64_t start)
{
	struct rng r;

	rng_init(&r, s->o->seed, KEY_DETAIL + (uint64_t)(uint32_t)pid);
	r.s ^= start * 0x9e3779b97f4a7c15ull;
	return r;
}

void sy_vma_mss(struct synth *s, struct mach_vma *v, uint64_t res_kb, enum res_class cls, uint32_t mapcount)
{
	struct mach_mss *m = &v->mss;
	uint64_t res = res_kb * 1024, pages = res / MACH_PAGE_SIZE;
	bool shared = mapcount >= 2, dirty = cls != RES_FILE ||
		      (v->flags & (MACH_VM_SHARED | MACH_VM_WRITE)) == (MACH_VM_SHARED | MACH_VM_WRITE);
	struct rng r = detail(s, s->vpid, v->start);
	uint64_t *pss_kind = cls == RES_ANON ? &m->pss_anon : cls == RES_SHMEM ? &m->pss_shmem : &m->pss_file;

	*m = (struct mach_mss){ .resident = res };
	if (!res)
		return;
	m->pss = pages * (shared ? PAGE_FIXED / mapcount : PAGE_FIXED);
	*pss_kind = m->pss;
	if (dirty)
		m->pss_dirty = m->pss;
	if (shared && dirty)
		m->shared_dirty = res;
	else if (shared)
		m->shared_clean = res;
	else if (dirty)
		m->private_dirty = res;
	else
		m->private_clean = res;
	if (cls == RES_ANON)
		m->anonymous = res;
	/* what was touched lately: most of it, all of a small or busy mapping */
	m->referenced = pages <= 4 ? res : res - MACH_PAGE_SIZE * rng_below(&r, pages * 2 / 5 + 1);
}

/* Resident and swapped pages share a mapping's size: the room left for swap. */
static uint64_t swap_room(const struct mach_vma *v)
{
	uint64_t size = v->end - v->start;

	return v->mss.anonymous && size > v->mss.resident + v->mss.swap ? size - v->mss.resident - v->mss.swap : 0;
}

/*
 * Swap VmSwap out of the anonymous mappings, as far as the room their
 * non-resident pages leave allows (mm->vm_swap is cut to what fits), and
 * back a JVM's heap with transparent huge pages where it asked for them.
 * The kB of huge pages.
 */
uint64_t sy_mm_swap_thp(struct mach_mm *mm, bool java)
{
	uint64_t room = 0, left, thp = 0;

	for (size_t i = 0; i < mm->nvmas; i++)
		room += swap_room(&mm->vmas[i]);
	if (mm->vm_swap * 1024 > room)
		mm->vm_swap = room / 1024 / PAGE_KB * PAGE_KB;
	left = mm->vm_swap * 1024;
	for (size_t i = 0; i < mm->nvmas && left; i++) {
		struct mach_vma *v = &mm->vmas[i];
		uint64_t take = swap_room(v);

		take = take < left ? take : left;
		v->mss.swap += take;
		v->mss.swap_pss += take << MACH_PSS_SHIFT;
		left -= take;
	}
	for (size_t i = 0; java && i < mm->nvmas; i++) {
		struct mach_vma *v = &mm->vmas[i];

		/* the heap with -XX:+UseTransparentHugePages: MADV_HUGEPAGE, half of it in huge pages */
		if ((v->flags & MACH_VM_HUGEPAGE) && v->mss.anonymous) {
			v->mss.anonymous_thp = v->mss.anonymous / 2 / HPAGE * HPAGE;
			thp += v->mss.anonymous_thp / 1024;
		}
	}
	return thp;
}
