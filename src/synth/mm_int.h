/* SPDX-License-Identifier: MIT */
/*
 * mm_int.h - what the files that build one address space hand each other:
 * the scratch VMA list's helpers, the mmap area and the argv/environment.
 *
 * VMAs go to the scratch list of the struct synth in ascending address
 * order, each with its resident kB counted by class; sy_build_mm hands the
 * list to the mm only once it is complete, so a failure halfway leaves no
 * half-made VMA array behind.
 */
#ifndef UPROCFS_SYNTH_MM_INT_H
#define UPROCFS_SYNTH_MM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "synth_int.h"

#define KB(x) ((uint64_t)(x) * 1024)
#define MB(x) ((uint64_t)(x) << 20)
#define GB(x) ((uint64_t)(x) << 30)
#define PAGE_ALIGN(x) (((x) + MACH_PAGE_SIZE - 1) & ~(uint64_t)(MACH_PAGE_SIZE - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((uint64_t)(a) - 1))

#define VM_RW (MACH_VM_READ | MACH_VM_WRITE)

enum vma_dev { DEV_NONE, DEV_ROOT, DEV_SHM };

/* Which RSS counter a mapping's resident pages go to. */
enum res_class { RES_ANON, RES_FILE, RES_SHMEM };

/* @kb rounded up to whole pages and clamped to [@lo, @hi] kB, in bytes. */
static inline uint64_t clamp_kb(uint64_t kb, uint64_t lo, uint64_t hi)
{
	kb = (kb + PAGE_KB - 1) / PAGE_KB * PAGE_KB;
	return KB(kb < lo ? lo : kb > hi ? hi : kb);
}

/* Where sy_map_elf put the segments of one file. */
struct elf_map {
	uint64_t text_start, text_end, relro_start, data_start, data_end, end;
};

/* smaps.c */

/** What smaps counts in @v: @res_kb resident in @cls, each page mapped @mapcount times. */
void sy_vma_mss(struct synth *s, struct mach_vma *v, uint64_t res_kb, enum res_class cls,
		uint32_t mapcount);

/* vma.c */

/*
 * Mappings take protections (MACH_VM_READ, _WRITE, _EXEC, and _SHARED for
 * MAP_SHARED) and any vm_flags bit mmap() would not set itself (ACCOUNT,
 * NORESERVE, HUGEPAGE); vma.c adds what mmap() sets.
 */

/** Append a VMA of file @name (NULL: none), @res_kb of it resident in @cls, mapped @mapcount times. */
int sy_vma_add(struct synth *s, uint64_t start, uint64_t end, uint64_t flags,
	       enum mach_vma_kind kind, const char *name, uint64_t off, uint64_t inode,
	       enum vma_dev dev, bool deleted, uint64_t res_kb, enum res_class cls, uint32_t mapcount);
/** Append a VMA no file backs (anon, heap, stack...); its resident part is anonymous. */
int sy_vma_nofile(struct synth *s, uint64_t start, uint64_t end, uint64_t flags,
		  enum mach_vma_kind kind, uint64_t res_kb);
/** An anonymous mapping at *@cursor, kept from merging with the one before; advances it. */
int sy_anon_at(struct synth *s, uint64_t *cursor, uint64_t size, uint64_t flags,
	       uint64_t res_kb);
/** A file mapping at *@at (@inode 0: the path's own), @mapcount processes map; advances it. */
int sy_file_at(struct synth *s, uint64_t *at, const char *path, uint64_t size, uint64_t flags,
	       uint64_t res_kb, bool deleted, enum vma_dev dev, enum res_class cls, uint64_t inode,
	       uint32_t mapcount);
/** The vvar, vvar_vclock and vDSO pages at *@at; advances it past them. */
int sy_map_vdso(struct synth *s, uint64_t *at);
/** Map the load segments of one ELF file at @base, which @mapcount processes map; where they went in @out. */
int sy_map_elf(struct synth *s, struct rng *r, uint64_t base, const char *path, size_t plen,
	       uint64_t ino, uint64_t text_kb, bool exe, bool deleted, uint32_t mapcount,
	       struct elf_map *out);

/* mmap_area.c */

/** The mmap area from @at up (thread stacks, libraries, vDSO, ld.so); its end in *@end. */
int sy_map_mmap_area(struct synth *s, struct layout *L, uint64_t at, uint64_t *end);

/* cmdline.c */

/** The process's argv into s->argbuf, NUL-terminated arguments; the length used. */
size_t sy_expand_argv(struct synth *s, const struct layout *L);
/**
 * The process's environment, NUL-terminated entries, interned: into
 * *@text and *@len.  Processes that share the one who set it up share the
 * block, found again without expanding it.  0 or -ENOMEM.
 */
int sy_intern_env(struct synth *s, const struct layout *L, char **text, size_t *len);

#endif /* UPROCFS_SYNTH_MM_INT_H */
