// SPDX-License-Identifier: MIT
/*
 * mmap_area.c - the mmap area of one process, bottom up: thread stacks and
 * malloc arenas, anonymous chunks, the program's own mappings (JVM code
 * cache, shared memory, journals, locale), its libraries, libc, the vDSO
 * pages and ld.so on top, as the kernel's top-down allocator leaves them.
 *
 * Sizes that belong to the program's layout come from the layout stream,
 * shared with forked copies; how much of them is resident comes from the
 * process's own stream, since forked workers touch different pages.
 */
#include <stdio.h>

#include "mm_int.h"

/* Libraries replaced by a package upgrade while the machine ran: still mapped, deleted. */
#define UPGRADED_LIBS (LIB(L_SSL) | LIB(L_CRYPTO))

/* Thread stacks and malloc arenas, below the libraries. */
static int map_threads(struct synth *s, struct layout *L, uint64_t top)
{
	unsigned int extra = L->nthreads - 1, nstacks = extra < 512 ? extra : 512;
	unsigned int narenas = extra < 8 ? extra : 8;
	bool java = L->pg->flags & PR_JAVA;
	uint64_t stack = java ? KB(1024) : MB(8), guard = java ? KB(16) : KB(4);
	uint64_t arenas = ALIGN_DOWN(top - MB(64) * (narenas + 1), MB(64));
	uint64_t at = ALIGN_DOWN(arenas - (stack + guard) * nstacks - MB(2), MACH_PAGE_SIZE);
	int rc;

	for (unsigned int i = 0; i < nstacks; i++) {
		rc = sy_vma_nofile(s, at, at + guard, 0, MACH_VMA_ANON, 0);
		if (rc)
			return rc;
		at += guard;
		rc = sy_vma_nofile(s, at, at + stack, VM_RW, MACH_VMA_ANON, 4 * rng_range(L->r, 3, 24));
		if (rc)
			return rc;
		at += stack;
	}
	at = arenas;
	for (unsigned int i = 0; i < narenas; i++) {
		uint64_t used = KB(132) + KB(4) * rng_below(&L->lr, 1024);

		rc = sy_vma_nofile(s, at, at + used, VM_RW, MACH_VMA_ANON, used / 1024 * 3 / 4);
		if (!rc)
			rc = sy_vma_nofile(s, at + used, at + MB(64), 0, MACH_VMA_ANON, 0);
		if (rc)
			return rc;
		at += MB(64);
	}
	return 0;
}

/* The first anonymous chunks: what malloc and the loader mmap'd before anything else. */
static int map_anon_chunks(struct synth *s, struct layout *L, uint64_t *at)
{
	struct rng *lr = &L->lr;
	unsigned int n = (L->pg->flags & PR_STATIC) ? 0 : 1 + (unsigned int)rng_below(lr, 3);
	int rc;

	for (unsigned int i = 0; i < n; i++) {
		uint64_t size = KB(4) * rng_range(lr, 2, 600);

		if ((rc = sy_anon_at(s, at, size, VM_RW,
				     size / 1024 * (uint64_t)rng_range(L->r, 20, 100) / 100 / 4 * 4)))
			return rc;
		*at += MACH_PAGE_SIZE * rng_below(lr, 4);
	}
	return 0;
}

/* The JVM's code cache (reserved, partly committed), its modules image and hsperfdata. */
static int map_java_area(struct synth *s, struct layout *L, uint64_t *at)
{
	uint64_t cache = MB(240), used = MB(8) + MB(1) * rng_below(L->r, 40);
	char path[64];
	int rc;

	if ((rc = sy_vma_nofile(s, *at, *at + used, VM_RW | MACH_VM_EXEC, MACH_VMA_ANON,
				used / 1024 * 3 / 4)) ||
	    (rc = sy_vma_nofile(s, *at + used, *at + cache, 0, MACH_VMA_ANON, 0)))
		return rc;
	*at += cache + MACH_PAGE_SIZE;
	if ((rc = sy_file_at(s, at, "/usr/lib/jvm/java-17-openjdk-amd64/lib/modules", KB(134184),
			     MACH_VM_READ, KB(4) * rng_range(L->r, 2000, 8000) / 1024, false, DEV_ROOT,
			     RES_FILE, 0, s->share.modules)))
		return rc;
	snprintf(path, sizeof(path), "/tmp/hsperfdata_app/%d", (int)L->pid);
	return sy_file_at(s, at, path, KB(32), VM_RW | MACH_VM_SHARED, 8, false, DEV_ROOT, RES_FILE, 0, 1);
}

/*
 * Shared anonymous memory shows as /dev/zero (deleted): PostgreSQL's
 * shared_buffers with its SysV segment, nginx's ssl_session_cache and
 * limit_req zones.
 */
static int map_shared_memory(struct synth *s, struct layout *L, uint64_t *at)
{
	struct rng *lr = &L->lr, *r = L->r;
	/* the forked copies of one layout attach the same segments */
	uint32_t shm_mc = s->share.group[L->g->lroot];
	char path[32];
	int rc;

	if (L->pg->flags & PR_PGSHM) {
		uint64_t shm = MB(143) + MB(16) * rng_below(lr, 8);

		if ((rc = sy_file_at(s, at, "/dev/zero", shm, VM_RW | MACH_VM_SHARED,
				     shm / 1024 * (uint64_t)rng_range(r, 1, 40) / 100 / 4 * 4, true,
				     DEV_SHM, RES_SHMEM, 1024 + rng_below(lr, 60000), shm_mc)))
			return rc;
		snprintf(path, sizeof(path), "/SYSV%08llx", (unsigned long long)(rng_next(lr) & 0xffffffff));
		if ((rc = sy_file_at(s, at, path, KB(4), VM_RW | MACH_VM_SHARED, 4, true, DEV_SHM,
				     RES_SHMEM, rng_range(lr, 2, 65536), shm_mc)))
			return rc;
	}
	if (L->g->prog == P_NGINX || L->g->prog == P_NGINX_WORKER)
		return sy_file_at(s, at, "/dev/zero", MB(10), VM_RW | MACH_VM_SHARED,
				  4 * rng_range(r, 1, 64), true, DEV_SHM, RES_SHMEM,
				  1024 + rng_below(lr, 60000), shm_mc);
	return 0;
}

/* journald's open journals, under the machine id: one machine id per seed. */
static int map_journals(struct synth *s, struct layout *L, uint64_t *at)
{
	static const char *const journals[] = { "system.journal", "user-1000.journal" };
	char mid[33], path[160];
	struct rng mr;
	int rc;

	rng_init(&mr, s->o->seed, KEY_MACHINE_ID);
	snprintf(mid, sizeof(mid), "%016llx%016llx", (unsigned long long)rng_next(&mr),
		 (unsigned long long)rng_next(&mr));
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "/var/log/journal/%s/%s", mid, journals[i]);
		if ((rc = sy_file_at(s, at, path, MB(8), VM_RW | MACH_VM_SHARED,
				     4 * rng_range(L->r, 64, 1024), false, DEV_ROOT, RES_FILE, 0,
				     s->share.journals)))
			return rc;
	}
	return 0;
}

/* The libraries, then libc with its bss and the initial TLS block: what ld.so mapped. */
static int map_libraries(struct synth *s, struct layout *L, uint64_t *at)
{
	bool upgraded = L->start_ns < s->upgrade_ns;
	struct elf_map em;
	int rc;

	for (unsigned int id = 0; id < NR_LIBS; id++) {
		if (!(L->pg->libs & LIB(id)))
			continue;
		bool deleted = upgraded && (UPGRADED_LIBS & LIB(id));

		if ((rc = sy_map_elf(s, L->r, *at, s->lib_path[id], s->lib_len[id], s->lib_ino[id],
				     sy_libs[id].text_kb, false, deleted, s->share.lib[id][deleted], &em)))
			return rc;
		*at = em.end;
	}
	if ((rc = sy_map_elf(s, L->r, *at, LIBC_PATH, sizeof(LIBC_PATH) - 1, LIBC_INODE, 1368, false,
			     false, s->share.libc, &em)))
		return rc;
	*at = em.end;
	if ((rc = sy_anon_at(s, at, KB(52), VM_RW, 4 * rng_range(L->r, 3, 13))))
		return rc;
	*at += MACH_PAGE_SIZE * rng_range(&L->lr, 1, 4);
	return sy_anon_at(s, at, KB(8), VM_RW, 8);
}

/* A Go binary maps only its runtime's spans and the vDSO: no threads' stacks, no libc. */
static int map_go_area(struct synth *s, struct layout *L, uint64_t at, uint64_t *end)
{
	struct rng *lr = &L->lr;
	int rc;

	for (unsigned int i = 0, n = 2 + (unsigned int)rng_below(lr, 4); i < n; i++) {
		uint64_t size = MB(1) * rng_range(lr, 1, 64);

		if ((rc = sy_anon_at(s, &at, size, VM_RW,
				     size / 1024 / 4 * (uint64_t)rng_range(L->r, 5, 60) / 100 * 4)))
			return rc;
		at += MACH_PAGE_SIZE * rng_range(lr, 1, 16);
	}
	if ((rc = sy_map_vdso(s, &at)))
		return rc;
	*end = at;
	return 0;
}

/* The order of the steps is the order of the addresses: each maps above the last. */
int sy_map_mmap_area(struct synth *s, struct layout *L, uint64_t at, uint64_t *end)
{
	const struct prog *pg = L->pg;
	struct elf_map em;
	int rc;

	if (pg->flags & PR_GO)
		return map_go_area(s, L, at, end);
	if (L->nthreads > 1 && (rc = map_threads(s, L, at)))
		return rc;
	if ((rc = map_anon_chunks(s, L, &at)))
		return rc;
	if ((pg->flags & PR_JAVA) && (rc = map_java_area(s, L, &at)))
		return rc;
	if ((rc = map_shared_memory(s, L, &at)))
		return rc;
	if ((pg->flags & PR_JOURNAL) && (rc = map_journals(s, L, &at)))
		return rc;
	/* interactive programs keep the terminal's locale archive mapped */
	if ((pg->flags & PR_TTY) &&
	    (rc = sy_file_at(s, &at, "/usr/lib/locale/locale-archive", KB(3048), MACH_VM_READ,
			     4 * rng_range(L->r, 8, 80), false, DEV_ROOT, RES_FILE, 0, s->share.locale)))
		return rc;
	if (!(pg->flags & PR_STATIC) && (rc = map_libraries(s, L, &at)))
		return rc;
	if ((rc = sy_map_vdso(s, &at)))
		return rc;
	if (pg->flags & PR_STATIC) {
		*end = at;
		return 0;
	}
	if ((rc = sy_map_elf(s, L->r, at, LD_SO_PATH, sizeof(LD_SO_PATH) - 1, LD_SO_INODE, 152, false,
			     false, s->share.ld_so, &em)))
		return rc;
	*end = em.end;
	return 0;
}
