// SPDX-License-Identifier: MIT
/*
 * vma.c - the scratch VMA list of the mm being built, and the ways to add
 * to it: one mapping, a mapping at a cursor, the vDSO pages, an ELF file.
 *
 * Resident kB are counted per class as each VMA is added, the way the
 * kernel keeps MM_ANONPAGES, MM_FILEPAGES and MM_SHMEMPAGES, so the mm's
 * RSS lines follow from its VMAs instead of being drawn apart from them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "mm_int.h"

/*
 * The vm_flags mmap() and the kernel's special mappings leave on a mapping
 * of protection @prot (READ, WRITE, EXEC; SHARED meaning MAP_SHARED; any
 * other MACH_VM_* bit is taken as it is, such as the ACCOUNT of a RELRO
 * segment once writable): every mapping may be read, written and executed
 * unless it is a shared one of a file opened read-only; private writable
 * memory is charged to the commit limit; the stack grows down.
 */
static uint64_t vm_flags_of(const struct synth *s, uint64_t prot, enum mach_vma_kind kind, bool file)
{
	const uint64_t rwx = MACH_VM_READ | MACH_VM_WRITE | MACH_VM_EXEC;
	uint64_t f = (prot & ~MACH_VM_SHARED) | MACH_VM_MAY_RWX;

	switch (kind) {
	case MACH_VMA_VVAR:
	case MACH_VMA_VVAR_VCLOCK:
		return MACH_VM_READ | MACH_VM_MAYREAD | MACH_VM_PFNMAP | MACH_VM_IO | MACH_VM_DONTEXPAND |
		       MACH_VM_DONTDUMP;
	case MACH_VMA_VDSO:
		return (prot & rwx) | MACH_VM_MAY_RWX | MACH_VM_DONTEXPAND;
	case MACH_VMA_VSYSCALL:
		return prot & rwx;
	default:
		break;
	}
	if (prot & MACH_VM_SHARED) {
		f |= MACH_VM_MAYSHARE;
		if (prot & MACH_VM_WRITE)
			f |= MACH_VM_SHARED;
		else if (file)
			f &= ~MACH_VM_MAYWRITE;
	} else if ((prot & MACH_VM_WRITE) && !(prot & MACH_VM_NORESERVE)) {
		f |= MACH_VM_ACCOUNT;
	}
	if (kind == MACH_VMA_STACK)
		f |= MACH_VM_GROWSDOWN;
	if (s->mlock_all)
		f |= MACH_VM_LOCKED;
	return f;
}

/*
 * Append one VMA to the scratch list of the mm being built and count
 * @res_kb of it as resident in @cls, each of its pages mapped by @mapcount
 * processes.  Addresses must come in ascending order; the caller keeps them
 * apart.  Memory an mlockall() locked is all resident, but for PROT_NONE.
 */
static int vma_add_len(struct synth *s, uint64_t start, uint64_t end, uint64_t prot,
		       enum mach_vma_kind kind, const char *name, size_t nlen, uint64_t off,
		       uint64_t inode, enum vma_dev dev, bool deleted, uint64_t res_kb, enum res_class cls,
		       uint32_t mapcount)
{
	struct mach_vma *v = VEC_PUSH(s->vb, s->vn, s->vcap);

	if (!v)
		return -ENOMEM;
	*v = (struct mach_vma){ .start = start, .end = end, .offset = off, .inode = inode,
				.flags = vm_flags_of(s, prot, kind, name != NULL), .kind = kind,
				.deleted = deleted, .pagesize_kb = PAGE_KB };
	if (dev == DEV_ROOT) {
		/* the root filesystem as this process sees it: the host's disk, or its container's overlay */
		v->dev_major = s->root_major;
		v->dev_minor = s->root_minor;
	} else if (dev == DEV_SHM)
		v->dev_minor = 1;
	if (name && (s->replay || sy_vmas_made(s))) {
		/* one block for the lot (maker.c): offsets now, pointers once the list is whole */
		if (s->names_len + nlen + 1 > s->names_cap) {
			size_t cap = s->names_cap ? s->names_cap * 2 : 2048;
			char *n;

			while (cap < s->names_len + nlen + 1)
				cap *= 2;
			if (!(n = realloc(s->names, cap)))
				return -ENOMEM;
			s->names = n;
			s->names_cap = cap;
		}
		memcpy(s->names + s->names_len, name, nlen + 1);
		v->name = (char *)(uintptr_t)(s->names_len + 1);
		s->names_len += nlen + 1;
	} else if (name) {
		v->name = malloc(nlen + 1);
		if (!v->name)
			return -ENOMEM;
		memcpy(v->name, name, nlen + 1);
	}
	if ((v->flags & MACH_VM_LOCKED) && (prot & (MACH_VM_READ | MACH_VM_WRITE | MACH_VM_EXEC)))
		res_kb = (end - start) / 1024;
	/* resident memory comes in whole pages, and never beyond the mapping */
	res_kb = res_kb / PAGE_KB * PAGE_KB;
	if (res_kb > (end - start) / 1024)
		res_kb = (end - start) / 1024;
	if (cls == RES_ANON)
		s->res_anon += res_kb;
	else if (cls == RES_FILE)
		s->res_file += res_kb;
	else
		s->res_shmem += res_kb;
	/* the huge-page flags of a JVM heap */
	v->thp_eligible = (v->flags & MACH_VM_HUGEPAGE) && end - ALIGN_DOWN(end, MB(2)) < end - start &&
			  (ALIGN_DOWN(end, MB(2)) - MB(2) >= start);
	if (s->replay || !sy_vmas_made(s)) {
		sy_vma_mss(s, v, res_kb, cls, mapcount ? mapcount : 1);
	} else {
		/*
		 * The maker makes this VMA again for smaps; the build reads only
		 * what swap and huge pages are spread over (sy_mm_swap_thp).
		 */
		v->mss.resident = res_kb * 1024;
		if (cls == RES_ANON)
			v->mss.anonymous = v->mss.resident;
	}
	return 0;
}

/* Callers name files by C string; ELF paths come with their length precomputed. */
int sy_vma_add(struct synth *s, uint64_t start, uint64_t end, uint64_t flags,
	       enum mach_vma_kind kind, const char *name, uint64_t off, uint64_t inode,
	       enum vma_dev dev, bool deleted, uint64_t res_kb, enum res_class cls, uint32_t mapcount)
{
	return vma_add_len(s, start, end, flags, kind, name, name ? strlen(name) : 0, off, inode, dev,
			   deleted, res_kb, cls, mapcount);
}

/* Most mappings have no file: one short call for them keeps the layouts readable. */
int sy_vma_nofile(struct synth *s, uint64_t start, uint64_t end, uint64_t flags,
		  enum mach_vma_kind kind, uint64_t res_kb)
{
	return vma_add_len(s, start, end, flags, kind, NULL, 0, 0, 0, DEV_NONE, false, res_kb, RES_ANON, 1);
}

/*
 * One page further when it would merge with the mapping before: the kernel
 * would show the two as one VMA, and the layout means two.
 */
int sy_anon_at(struct synth *s, uint64_t *cursor, uint64_t size, uint64_t flags,
	       uint64_t res_kb)
{
	const struct mach_vma *prev = s->vn ? &s->vb[s->vn - 1] : NULL;
	int rc;

	if (prev && prev->end == *cursor && prev->kind == MACH_VMA_ANON &&
	    prev->flags == vm_flags_of(s, flags, MACH_VMA_ANON, false))
		*cursor += MACH_PAGE_SIZE;
	rc = sy_vma_nofile(s, *cursor, *cursor + size, flags, MACH_VMA_ANON, res_kb);
	*cursor += size;
	return rc;
}

/* Files mapped whole at the cursor: journals, perf data, caches, shared memory. */
int sy_file_at(struct synth *s, uint64_t *at, const char *path, uint64_t size, uint64_t flags,
	       uint64_t res_kb, bool deleted, enum vma_dev dev, enum res_class cls, uint64_t inode,
	       uint32_t mapcount)
{
	int rc = sy_vma_add(s, *at, *at + size, flags, MACH_VMA_FILE, path, 0,
			    inode ? inode : sy_path_inode(path), dev, deleted, res_kb, cls, mapcount);

	*at += size;
	return rc;
}

/* Every process has them, libc or not: three fixed-size pages of the kernel's. */
int sy_map_vdso(struct synth *s, uint64_t *at)
{
	uint64_t a = *at;
	int rc;

	/* the vDSO's text page is resident and mapped by every process: RssFile, a sliver of Pss */
	if ((rc = sy_vma_nofile(s, a, a + KB(16), MACH_VM_READ, MACH_VMA_VVAR, 0)) ||
	    (rc = sy_vma_nofile(s, a + KB(16), a + KB(24), MACH_VM_READ, MACH_VMA_VVAR_VCLOCK, 0)) ||
	    (rc = vma_add_len(s, a + KB(24), a + KB(32), MACH_VM_READ | MACH_VM_EXEC, MACH_VMA_VDSO, NULL,
			      0, 0, 0, DEV_NONE, false, PAGE_KB, RES_FILE, s->share.vdso)))
		return rc;
	*at = a + KB(32);
	return 0;
}

/* The load segments of one ELF file, derived from its text size alone. */
struct elf_segs {
	uint64_t hdr, text, ro, relro, data, bss; /* bytes */
};

/* Same file, same layout in every process: sizes depend only on the file. */
static struct elf_segs elf_segs(uint64_t text_kb, uint64_t inode, bool exe)
{
	struct elf_segs e;

	e.hdr = clamp_kb(text_kb / 9, 4, 4096);
	e.text = clamp_kb(text_kb, 4, 1u << 20);
	e.ro = clamp_kb(text_kb * 24 / 100, 4, 1u << 18);
	e.relro = clamp_kb(text_kb / 85, 4, 2048);
	e.data = clamp_kb(text_kb / 170 + 4 * (inode % 3), 4, 4096);
	e.bss = exe && text_kb > 64 ? KB(4 * (1 + inode % 16)) : 0;
	return e;
}

/*
 * Map an ELF file at @base: r--p headers, r-xp text, r--p rodata, r--p
 * RELRO and rw-p data, consecutive in the file; the RELRO and data pages
 * were written (relocations), so they are anonymous memory now.
 */
int sy_map_elf(struct synth *s, struct rng *r, uint64_t base, const char *path, size_t plen,
	       uint64_t ino, uint64_t text_kb, bool exe, bool deleted, uint32_t mapcount,
	       struct elf_map *out)
{
	uint64_t off = 0, at = base;
	struct elf_segs e = elf_segs(text_kb, ino, exe);
	double hot = exe ? rng_uniform(r, 0.5, 1.0) : rng_uniform(r, 0.25, 0.9);
	int rc;

#define SEG(size, fl, res, cls) \
	do { \
		rc = vma_add_len(s, at, at + (size), (fl), MACH_VMA_FILE, path, plen, off, ino, \
				 DEV_ROOT, deleted, (res), (cls), (cls) == RES_FILE ? mapcount : 1); \
		if (rc) \
			return rc; \
		at += (size); \
		off += (size); \
	} while (0)
	SEG(e.hdr, MACH_VM_READ, kb_pages((double)e.hdr / 1024 * hot), RES_FILE);
	out->text_start = at;
	SEG(e.text, MACH_VM_READ | MACH_VM_EXEC, kb_pages((double)e.text / 1024 * hot), RES_FILE);
	out->text_end = at;
	SEG(e.ro, MACH_VM_READ, kb_pages((double)e.ro / 1024 * hot * 0.6), RES_FILE);
	out->relro_start = at;
	SEG(e.relro, MACH_VM_READ | MACH_VM_ACCOUNT, e.relro / 1024, RES_ANON);
	out->data_start = at;
	SEG(e.data, VM_RW, e.data / 1024, RES_ANON);
#undef SEG
	out->data_end = at;
	if (e.bss) {
		rc = sy_anon_at(s, &at, e.bss, VM_RW, e.bss / 1024);
		if (rc)
			return rc;
	}
	out->end = at;
	return 0;
}

/* Until the list is handed to an mm, the names belong to it; a failure frees them here. */
void sy_vb_drop(struct synth *s)
{
	for (size_t i = 0; i < s->vn && !s->replay && !sy_vmas_made(s); i++)
		free(s->vb[i].name);
	s->vn = 0;
	s->names_len = 0;
}
