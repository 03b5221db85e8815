// SPDX-License-Identifier: MIT
/*
 * mm.c - the address space of one user process: the executable and its
 * heap (or a Go binary and its arenas, or a JVM's heap reservation), the
 * mmap area, the stack with argv and the environment at its top, the
 * vsyscall page; then the mm counters the kernel derives from them.
 *
 * Addresses follow x86_64 with randomize_va_space=2: PIE executables near
 * ELF_ET_DYN_BASE, mmap_base below the stack, each shifted by a random
 * number of pages drawn from the layout stream, which forked copies share,
 * so a worker shows its master's addresses as it does after fork().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm_int.h"

#define VSYSCALL_START 0xffffffffff600000ull
#define PIE_BASE 0x555555554000ull      /* ELF_ET_DYN_BASE, randomized by 28 bits of pages */
#define STATIC_BASE 0x400000ull         /* where non-PIE executables are linked */
#define GO_ARENAS 0xc000000000ull       /* the Go runtime's heap arena hint */
#define MMAP_LOW 0x7f0000000000ull      /* where mmap_base lands with ASLR */
#define STACK_LOW 0x7ffc00000000ull     /* where the stack top lands with ASLR */
#define JAVA_HEAP 0x0000000700000000ull /* -Xmx4g with compressed oops */

/* Paths and inodes are the same in every process: formatted once, not per mapping. */
void sy_init_names(struct synth *s)
{
	for (unsigned int id = 0; id < NR_LIBS; id++) {
		int n = snprintf(s->lib_path[id], sizeof(s->lib_path[id]), "%s%s",
				 sy_libs[id].path[0] == '/' ? "" : LIBDIR, sy_libs[id].path);

		s->lib_len[id] = (uint8_t)n;
		s->lib_ino[id] = sy_path_inode(s->lib_path[id]);
	}
	for (unsigned int p = 0; p < NR_PROGS; p++)
		s->exe_ino[p] = sy_path_inode(sy_progs[p].exe);
}

/* A copy of @len bytes at @src in new memory; NULL when there is none. */
static void *memdup(const void *src, size_t len)
{
	void *p = malloc(len);

	if (p)
		memcpy(p, src, len);
	return p;
}

/* The Java heap reservation (compressed oops) and the class space, far below the executable. */
static int map_java_heap(struct synth *s, struct layout *L)
{
	uint64_t heap = ALIGN_DOWN(L->anon_kb * 1024 + MB(64), MB(2));
	int rc;

	if (heap > GB(4) - MB(64))
		heap = GB(4) - MB(64);
	if ((rc = sy_vma_nofile(s, JAVA_HEAP, JAVA_HEAP + heap, VM_RW | MACH_VM_HUGEPAGE, MACH_VMA_ANON,
				L->anon_kb * 4 / 5)) ||
	    (rc = sy_vma_nofile(s, JAVA_HEAP + heap, JAVA_HEAP + GB(4), 0, MACH_VMA_ANON, 0)) ||
	    (rc = sy_vma_nofile(s, JAVA_HEAP + GB(4), JAVA_HEAP + GB(4) + MB(16), VM_RW, MACH_VMA_ANON,
				KB(4) * rng_range(L->r, 1000, 3000) / 1024)))
		return rc;
	return sy_vma_nofile(s, JAVA_HEAP + GB(4) + MB(16), JAVA_HEAP + GB(5), 0, MACH_VMA_ANON, 0);
}

/*
 * A static Go binary: non-PIE text, rodata and data from STATIC_BASE, its
 * bss, and the runtime's heap arenas at GO_ARENAS instead of a brk heap.
 */
static int map_go_exe(struct synth *s, struct layout *L)
{
	const struct prog *pg = L->pg;
	struct rng *lr = &L->lr;
	struct mach_mm *mm = L->mm;
	bool deleted = L->g->flags & GF_DELETED;
	uint64_t at = STATIC_BASE, text = clamp_kb(pg->text_kb, 4, 1u << 20);
	uint64_t ro = clamp_kb(pg->text_kb * 9 / 10, 4, 1u << 20), data = clamp_kb(pg->text_kb / 40, 4, 1u << 16);
	uint64_t ino = s->exe_ino[L->g->prog];
	int rc;

	uint32_t mc = s->share.exe[L->g->prog][deleted];

	if ((rc = sy_vma_add(s, at, at + text, MACH_VM_READ | MACH_VM_EXEC, MACH_VMA_FILE, pg->exe, 0,
			     ino, DEV_ROOT, deleted, text / 1024 * 3 / 5 / 4 * 4, RES_FILE, mc)) ||
	    (rc = sy_vma_add(s, at + text, at + text + ro, MACH_VM_READ, MACH_VMA_FILE, pg->exe, text,
			     ino, DEV_ROOT, deleted, ro / 1024 / 2 / 4 * 4, RES_FILE, mc)) ||
	    (rc = sy_vma_add(s, at + text + ro, at + text + ro + data, VM_RW, MACH_VMA_FILE, pg->exe,
			     text + ro, ino, DEV_ROOT, deleted, data / 1024, RES_ANON, 1)))
		return rc;
	mm->start_code = at + MACH_PAGE_SIZE;
	mm->end_code = at + text - rng_range(lr, 16, 4000);
	mm->start_data = at + text + ro + 8 * rng_below(lr, 64);
	mm->end_data = at + text + ro + data - 8 * rng_range(lr, 1, 64);
	at += text + ro + data;
	if ((rc = sy_anon_at(s, &at, KB(4) * rng_range(lr, 50, 200), VM_RW, 4 * rng_range(L->r, 10, 50))))
		return rc;
	mm->start_brk = at + MACH_PAGE_SIZE * rng_below(lr, 8192);
	return sy_vma_nofile(s, GO_ARENAS, GO_ARENAS + ALIGN_DOWN(L->anon_kb * 1024 * 5 / 4 + MB(4), MB(4)),
			     VM_RW, MACH_VMA_ANON, L->anon_kb * 9 / 10 / 4 * 4);
}

/*
 * An ELF executable (PIE at ELF_ET_DYN_BASE plus 28 bits of pages, static
 * at STATIC_BASE) and its brk heap, which holds most of the anonymous
 * memory except in a JVM, whose objects live in its own heap.
 */
static int map_exe(struct synth *s, struct layout *L)
{
	const struct prog *pg = L->pg;
	struct rng *lr = &L->lr;
	struct mach_mm *mm = L->mm;
	uint64_t base = (pg->flags & PR_STATIC) ? STATIC_BASE :
			PIE_BASE + MACH_PAGE_SIZE * rng_below(lr, 1ull << 28);
	uint64_t brk, heap;
	struct elf_map em;
	int rc;

	bool deleted = L->g->flags & GF_DELETED;

	if ((rc = sy_map_elf(s, L->r, base, pg->exe, strlen(pg->exe), s->exe_ino[L->g->prog], pg->text_kb,
			     true, deleted, s->share.exe[L->g->prog][deleted], &em)))
		return rc;
	mm->start_code = em.text_start;
	mm->end_code = em.text_end - rng_range(lr, 16, 4000);
	mm->start_data = em.relro_start + 16 * rng_below(lr, 256);
	mm->end_data = em.data_end - rng_range(lr, 1, (em.data_end - em.data_start) / 2);
	/* brk starts up to 32 MiB above the bss (randomize_va_space=2) */
	brk = em.end + MACH_PAGE_SIZE * rng_below(lr, 8192);
	heap = kb_pages((double)L->anon_kb * rng_uniform(lr, 0.75, 1.1)) * 1024;
	if (pg->flags & PR_JAVA)
		heap = KB(132) + KB(4) * rng_below(lr, 2000);
	mm->start_brk = brk;
	return sy_vma_nofile(s, brk, brk + heap, VM_RW, MACH_VMA_HEAP,
			     (pg->flags & PR_JAVA) ? heap / 2048 / 4 * 4 : L->anon_kb * 7 / 10 / 4 * 4);
}

/*
 * The stack: argv and the environment at its top below the exec path, a
 * GiB or more above the mmap area; then the vsyscall gate page, the
 * highest mapping of all.
 */
static int map_stack(struct synth *s, struct layout *L, uint64_t area_end)
{
	struct mach_mm *mm = L->mm;
	struct rng *lr = &L->lr;
	uint64_t stack_top, stack_size;
	size_t alen = sy_expand_argv(s, L), elen;
	int rc;

	if (s->replay) {
		/* argv's placeholders draw from the process's stream; the environment draws nothing */
		elen = mm->environ_len;
	} else {
		/* a service's workers share one command line and environment: interned */
		mm->strings_interned = true;
		if (!(mm->cmdline = sy_intern(s, s->argbuf, alen)))
			return -ENOMEM;
		mm->cmdline_len = alen;
		if ((rc = sy_intern_env(s, L, &mm->environ, &elen)))
			return rc;
		mm->environ_len = elen;
	}
	stack_top = STACK_LOW + MACH_PAGE_SIZE * rng_below(lr, (1ull << 34) / MACH_PAGE_SIZE);
	if (stack_top < area_end + GB(1))
		stack_top = PAGE_ALIGN(area_end + GB(1));
	stack_size = KB(132) + KB(4) * (rng_below(lr, 4) ? 0 : rng_below(lr, 200));
	mm->env_end = stack_top - 8 - (strlen(L->pg->exe) + 1);
	mm->env_start = mm->env_end - elen;
	mm->arg_end = mm->env_start;
	mm->arg_start = mm->arg_end - alen;
	mm->start_stack = ALIGN_DOWN(mm->arg_start - 0x200 - 16 * rng_below(lr, 160), 16);
	if ((rc = sy_vma_nofile(s, stack_top - stack_size, stack_top, VM_RW, MACH_VMA_STACK,
				4 * rng_range(L->r, 4, stack_size / 4096))))
		return rc;
	return sy_vma_nofile(s, VSYSCALL_START, VSYSCALL_START + MACH_PAGE_SIZE, MACH_VM_EXEC,
			     MACH_VMA_VSYSCALL, 0);
}

/*
 * The counters the kernel derives from the VMAs (vm_stat_account: exec,
 * stack and data mappings; total_vm without the gate VMA) and from the
 * resident pages, in the units /proc/<pid>/status prints.  Mirrors
 * task_mem() and the mm counters it reads, so it stays one function.
 */
static void mm_account(struct synth *s, struct layout *L)
{
	struct mach_mm *mm = L->mm;
	uint64_t total = 0, exec = 0, stack = 0, data = 0, span, lck = 0;

	for (size_t i = 0; i < mm->nvmas; i++) {
		const struct mach_vma *v = &mm->vmas[i];
		uint64_t kb = (v->end - v->start) / 1024;

		if (v->kind == MACH_VMA_VSYSCALL)
			continue;
		total += kb;
		if (v->kind == MACH_VMA_STACK)
			stack += kb;
		else if ((v->flags & (MACH_VM_EXEC | MACH_VM_WRITE)) == MACH_VM_EXEC)
			exec += kb;
		else if ((v->flags & (MACH_VM_WRITE | MACH_VM_SHARED)) == MACH_VM_WRITE)
			data += kb;
		if (v->kind != MACH_VMA_VVAR && v->kind != MACH_VMA_VVAR_VCLOCK && v->kind != MACH_VMA_VDSO)
			lck += kb;
	}
	span = (PAGE_ALIGN(mm->end_code) - ALIGN_DOWN(mm->start_code, MACH_PAGE_SIZE));
	mm->statm_text = span / MACH_PAGE_SIZE;
	mm->vm_size = total;
	mm->vm_peak = total + kb_pages((double)total * rng_uniform(L->r, 0, 0.08));
	mm->vm_exe = span / 1024 < exec ? span / 1024 : exec;
	mm->vm_lib = exec - mm->vm_exe;
	mm->vm_stk = stack;
	mm->vm_data = data;
	mm->rss_anon = s->res_anon;
	mm->rss_file = s->res_file;
	mm->rss_shmem = s->res_shmem;
	mm->vm_rss = mm->rss_anon + mm->rss_file + mm->rss_shmem;
	mm->vm_hwm = mm->vm_rss + kb_pages((double)mm->vm_rss * rng_uniform(L->r, 0, 0.25));
	/*
	 * stat reads the approximate global rss counter, which lags the exact
	 * per-CPU sum by the batches other threads have not folded in yet.
	 */
	mm->stat_rss = mm->vm_rss / PAGE_KB;
	if (L->nthreads > 1) {
		/* each of the three counters lags by under a batch per CPU the threads ran on */
		uint64_t cpus = s->m->ncpus, batch = cpus * 2 > 32 ? cpus * 2 : 32;
		uint64_t bound = 3 * (L->nthreads < cpus ? L->nthreads : cpus) * (batch - 1);
		uint64_t lag = mm->stat_rss / 64 < bound ? mm->stat_rss / 64 : bound;

		mm->stat_rss -= rng_below(L->r, 1 + lag);
	}
	/* one page-table page per 2 MiB touched, plus the upper levels */
	mm->vm_pte = 4 * (4 + mm->nvmas / 3 + mm->vm_rss / 1536);
	if (L->pg->flags & PR_MLOCK)
		mm->vm_lck = lck;
	mm->thp_enabled = true;
	mm->untag_mask = ~0ull;
}

/*
 * Mappings are added bottom up, so each step starts where the previous one
 * ended; the VMAs go to the mm only when all of them are there.  A replay
 * (s->replay) maps into the scratch mm in L->mm and stops there: the
 * counters are the built mm's already.
 */
int sy_build_mm(struct synth *s, struct layout *L)
{
	const struct prog *pg = L->pg;
	struct mach_mm *mm;
	uint64_t area;
	int rc;

	mm = s->replay ? L->mm : mach_mm_new();
	if (!mm)
		return -ENOMEM;
	L->mm = mm;
	s->vn = 0;
	s->res_anon = s->res_file = s->res_shmem = 0;
	s->mlock_all = pg->flags & PR_MLOCK;
	s->vpid = L->pid;

	if ((pg->flags & PR_JAVA) && (rc = map_java_heap(s, L)))
		goto fail;
	if ((rc = (pg->flags & PR_GO) ? map_go_exe(s, L) : map_exe(s, L)))
		goto fail;
	area = MMAP_LOW + MACH_PAGE_SIZE * rng_below(&L->lr, (1ull << 40) / MACH_PAGE_SIZE);
	if ((rc = sy_map_mmap_area(s, L, area, &area)) || (rc = map_stack(s, L, area)))
		goto fail;
	mm->nvmas = s->vn;
	if (s->replay || sy_vmas_made(s)) {
		/*
		 * The VMAs live until the process is built (or the replay's reader
		 * is done): lend the list.  A build's names point into the names
		 * block from now on, which stays put until the next mm; a replay
		 * makes its block of both (maker.c).
		 */
		for (size_t i = 0; i < s->vn && !s->replay; i++)
			if (s->vb[i].name)
				s->vb[i].name = s->names + ((uintptr_t)s->vb[i].name - 1);
		mm->vmas = s->vb;
		s->vcap_lent = s->vcap;
		s->vb = NULL;
		s->vcap = 0;
	} else if (!(mm->vmas = memdup(s->vb, s->vn * sizeof(*mm->vmas)))) {
		rc = -ENOMEM;
		goto fail;
	}
	s->vn = 0;
	if (!s->replay)
		mm_account(s, L);
	return 0;
fail:
	sy_vb_drop(s);
	return rc;
}
