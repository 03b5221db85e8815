/* SPDX-License-Identifier: MIT */
/*
 * mach_vm.h - what the model knows of a mapping beyond its maps line: the
 * kernel's vm_flags bits, as smaps names them, and the counters a
 * page-table walk of it finds (smaps, smaps_rollup).  Included by
 * machine.h.
 */
#ifndef UPROCFS_MACH_VM_H
#define UPROCFS_MACH_VM_H

#include <stdbool.h>
#include <stdint.h>

/*
 * vm_flags bits (include/linux/mm.h, x86_64, Linux 6.18), named by the
 * two-letter mnemonics smaps prints for them in bit order (VmFlags:).
 * maps shows four of them: r, w, x, and 's' for VM_MAYSHARE.
 */
enum mach_vm_bit {
	MACH_VMB_READ = 0,         /* rd */
	MACH_VMB_WRITE = 1,        /* wr */
	MACH_VMB_EXEC = 2,         /* ex */
	MACH_VMB_SHARED = 3,       /* sh: shared and writable through the file */
	MACH_VMB_MAYREAD = 4,      /* mr */
	MACH_VMB_MAYWRITE = 5,     /* mw */
	MACH_VMB_MAYEXEC = 6,      /* me */
	MACH_VMB_MAYSHARE = 7,     /* ms: MAP_SHARED ('s' in maps) */
	MACH_VMB_GROWSDOWN = 8,    /* gd: the stack */
	MACH_VMB_UFFD_MISSING = 9, /* um */
	MACH_VMB_PFNMAP = 10,      /* pf */
	MACH_VMB_DENYWRITE = 11,   /* dw: a text mapping of an executable (gone in 5.15: 6.18 never sets it) */
	MACH_VMB_UFFD_WP = 12,     /* uw */
	MACH_VMB_LOCKED = 13,      /* lo: mlock()ed */
	MACH_VMB_IO = 14,          /* io */
	MACH_VMB_SEQ_READ = 15,    /* sr */
	MACH_VMB_RAND_READ = 16,   /* rr */
	MACH_VMB_DONTCOPY = 17,    /* dc */
	MACH_VMB_DONTEXPAND = 18,  /* de */
	MACH_VMB_LOCKONFAULT = 19, /* lf */
	MACH_VMB_ACCOUNT = 20,     /* ac: charged to the commit limit */
	MACH_VMB_NORESERVE = 21,   /* nr */
	MACH_VMB_HUGETLB = 22,     /* ht */
	MACH_VMB_SYNC = 23,        /* sf */
	MACH_VMB_ARCH_1 = 24,      /* ar: VM_PAT on x86 */
	MACH_VMB_WIPEONFORK = 25,  /* wf */
	MACH_VMB_DONTDUMP = 26,    /* dd */
	MACH_VMB_SOFTDIRTY = 27,   /* sd: only with CONFIG_MEM_SOFT_DIRTY (not in the reference kernel) */
	MACH_VMB_MIXEDMAP = 28,    /* mm */
	MACH_VMB_HUGEPAGE = 29,    /* hg: MADV_HUGEPAGE */
	MACH_VMB_NOHUGEPAGE = 30,  /* nh */
	MACH_VMB_MERGEABLE = 31,   /* mg: KSM may merge it */
	MACH_VMB_PKEY_BIT0 = 32,   /* 32..35: the protection key, which VmFlags does not print */
	MACH_VMB_SHADOW_STACK = 37,/* ss */
	MACH_VMB_UFFD_MINOR = 38,  /* ui */
	MACH_VMB_DROPPABLE = 40,   /* dp */
	MACH_VMB_SEALED = 42,      /* sl: mseal()ed */
	MACH_NR_VM_BITS = 64
};

#define MACH_VM_BIT(b) (UINT64_C(1) << (b))
#define MACH_VM_READ MACH_VM_BIT(MACH_VMB_READ)
#define MACH_VM_WRITE MACH_VM_BIT(MACH_VMB_WRITE)
#define MACH_VM_EXEC MACH_VM_BIT(MACH_VMB_EXEC)
#define MACH_VM_SHARED MACH_VM_BIT(MACH_VMB_SHARED)
#define MACH_VM_MAYREAD MACH_VM_BIT(MACH_VMB_MAYREAD)
#define MACH_VM_MAYWRITE MACH_VM_BIT(MACH_VMB_MAYWRITE)
#define MACH_VM_MAYEXEC MACH_VM_BIT(MACH_VMB_MAYEXEC)
#define MACH_VM_MAYSHARE MACH_VM_BIT(MACH_VMB_MAYSHARE)
#define MACH_VM_GROWSDOWN MACH_VM_BIT(MACH_VMB_GROWSDOWN)
#define MACH_VM_PFNMAP MACH_VM_BIT(MACH_VMB_PFNMAP)
#define MACH_VM_LOCKED MACH_VM_BIT(MACH_VMB_LOCKED)
#define MACH_VM_IO MACH_VM_BIT(MACH_VMB_IO)
#define MACH_VM_DONTCOPY MACH_VM_BIT(MACH_VMB_DONTCOPY)
#define MACH_VM_DONTEXPAND MACH_VM_BIT(MACH_VMB_DONTEXPAND)
#define MACH_VM_LOCKONFAULT MACH_VM_BIT(MACH_VMB_LOCKONFAULT)
#define MACH_VM_ACCOUNT MACH_VM_BIT(MACH_VMB_ACCOUNT)
#define MACH_VM_NORESERVE MACH_VM_BIT(MACH_VMB_NORESERVE)
#define MACH_VM_HUGETLB MACH_VM_BIT(MACH_VMB_HUGETLB)
#define MACH_VM_WIPEONFORK MACH_VM_BIT(MACH_VMB_WIPEONFORK)
#define MACH_VM_DONTDUMP MACH_VM_BIT(MACH_VMB_DONTDUMP)
#define MACH_VM_MIXEDMAP MACH_VM_BIT(MACH_VMB_MIXEDMAP)
#define MACH_VM_HUGEPAGE MACH_VM_BIT(MACH_VMB_HUGEPAGE)
#define MACH_VM_NOHUGEPAGE MACH_VM_BIT(MACH_VMB_NOHUGEPAGE)
#define MACH_VM_MERGEABLE MACH_VM_BIT(MACH_VMB_MERGEABLE)
#define MACH_VM_SEALED MACH_VM_BIT(MACH_VMB_SEALED)
/* what mmap() gives every mapping before the file and the flags take some away */
#define MACH_VM_MAY_RWX (MACH_VM_MAYREAD | MACH_VM_MAYWRITE | MACH_VM_MAYEXEC)

/*
 * fs/proc/task_mmu.c keeps proportional sizes in fixed point, bytes <<
 * PSS_SHIFT, so that pages shared three ways do not each lose a third;
 * the printed kB truncate: (pss >> PSS_SHIFT) >> 10.
 */
#define MACH_PSS_SHIFT 12

/**
 * What a page-table walk of one VMA counts (struct mem_size_stats of
 * fs/proc/task_mmu.c): sizes in bytes, proportional sizes (pss*, swap_pss)
 * in the MACH_PSS_SHIFT fixed point.  smaps prints them per VMA;
 * smaps_rollup sums them over the mm before it truncates.  Locked is not
 * kept apart: it is the pss of a VM_LOCKED VMA.
 */
struct mach_mss {
	uint64_t resident;        /* Rss: present pages (the zero page not counted) */
	uint64_t shared_clean, shared_dirty;   /* pages more than this mm maps */
	uint64_t private_clean, private_dirty;
	uint64_t referenced;      /* young or referenced */
	uint64_t anonymous;       /* anonymous folios, KSM ones included */
	uint64_t ksm;             /* KSM-merged */
	uint64_t lazyfree;        /* MADV_FREE'd and still clean */
	uint64_t anonymous_thp, shmem_thp, file_thp; /* PMD-mapped THPs by kind */
	uint64_t shared_hugetlb, private_hugetlb;    /* hugetlb pages (not in Rss) */
	uint64_t swap;            /* swapped-out pages (for shmem: of the object it maps) */
	uint64_t pss;             /* fixed point: each page over its mapcount */
	uint64_t pss_anon, pss_file, pss_shmem; /* pss by folio kind: they sum to pss */
	uint64_t pss_dirty;       /* pss of the dirty pages */
	uint64_t swap_pss;        /* fixed point: each swap slot over its swap count */
};

/*
 * The lines of a smaps record and of smaps_rollup, in the order any
 * kernel prints them but for the page sizes, which kernels before 4.14
 * print after SwapPss (mach_smaps_lines gives one kernel's sequence).
 */
enum mach_smaps_line {
	MACH_SML_SIZE, MACH_SML_KPAGE, MACH_SML_MMUPAGE, MACH_SML_RSS, MACH_SML_PSS, MACH_SML_PSS_DIRTY,
	MACH_SML_PSS_ANON, MACH_SML_PSS_FILE, MACH_SML_PSS_SHMEM, MACH_SML_SHARED_CLEAN,
	MACH_SML_SHARED_DIRTY, MACH_SML_PRIVATE_CLEAN, MACH_SML_PRIVATE_DIRTY, MACH_SML_REFERENCED,
	MACH_SML_ANONYMOUS, MACH_SML_KSM, MACH_SML_LAZYFREE, MACH_SML_ANON_THP, MACH_SML_SHMEM_PMD,
	MACH_SML_FILE_PMD, MACH_SML_SHARED_HUGETLB, MACH_SML_PRIVATE_HUGETLB, MACH_SML_SWAP,
	MACH_SML_SWAP_PSS, MACH_SML_LOCKED,
	MACH_NR_SML
};

/* Optional counter lines of smaps (bits of mach_smaps_profile.lines), with the kernel that brought each. */
#define MACH_SMAPS_SWAP_PSS  0x01u /* SwapPss (4.3) */
#define MACH_SMAPS_HUGETLB   0x02u /* Shared_Hugetlb and Private_Hugetlb (4.4) */
#define MACH_SMAPS_SHMEM_PMD 0x04u /* ShmemPmdMapped (4.8) */
#define MACH_SMAPS_LAZYFREE  0x08u /* LazyFree (4.12) */
#define MACH_SMAPS_PSS_SPLIT 0x10u /* the rollup's Pss_Anon, Pss_File and Pss_Shmem (5.3) */
#define MACH_SMAPS_FILE_PMD  0x20u /* FilePmdMapped (5.4) */
#define MACH_SMAPS_PSS_DIRTY 0x40u /* Pss_Dirty (6.0) */
#define MACH_SMAPS_KSM       0x80u /* KSM (6.7) */
#define MACH_SMAPS_ALL       0xffu

/* How THPeligible prints: not at all (before 5.0), or one of three formats. */
enum mach_smaps_thp {
	MACH_SMAPS_THP_NONE,
	MACH_SMAPS_THP_PLAIN,     /* "THPeligible:    %d" (5.0-5.2, 5.9-6.5) */
	MACH_SMAPS_THP_TABS,      /* "THPeligible:\t\t%d" (5.3-5.8) */
	MACH_SMAPS_THP_WIDE,      /* "THPeligible:    %8u" (6.6) */
};

/* What Locked prints: the kernels of 4.14 to 4.20 had it wrong, each its own way. */
enum mach_smaps_locked {
	MACH_SMAPS_LOCKED_PSS,    /* the pss of VM_LOCKED memory (before 4.14, and 5.0 on) */
	/* 4.14-4.18: every VMA's Pss, locked or not, and the rollup's whole Pss */
	MACH_SMAPS_LOCKED_ALL,
	/*
	 * 4.19-4.20: right per VMA, but the rollup adds, at each VM_LOCKED VMA,
	 * the pss summed so far over every VMA up to it (fixed in 5.0).
	 */
	MACH_SMAPS_LOCKED_RUNNING,
};

/**
 * What the source kernel's smaps and smaps_rollup print (fs/proc/task_mmu.c
 * of its era): the loader learns it from a smaps file's lines, the
 * generator from the facts table, and the renderer prints what it says.
 */
struct mach_smaps_profile {
	uint32_t lines;           /* MACH_SMAPS_* bits: the optional counter lines */
	unsigned char thp;        /* enum mach_smaps_thp */
	unsigned char locked;     /* enum mach_smaps_locked */
	/* Size, KernelPageSize and MMUPageSize open the record (4.14); before, the page sizes follow SwapPss */
	bool sizes_first;
	bool filepmd_narrow;      /* "FilePmdMapped: " one column short of the others (5.4-5.8) */
	bool pkey;                /* ProtectionKey: (4.6, a CPU with OSPKE): VmFlags bits 32-35 */
	bool rollup;              /* /proc/<pid>/smaps_rollup exists (4.14) */
};

/** The smaps of Linux 6.18 on the reference VM (no OSPKE: no ProtectionKey). */
void mach_smaps_profile_default(struct mach_smaps_profile *p);

/** Whether @a and @b print the same smaps (field by field: the struct has padding). */
static inline bool mach_smaps_profile_equal(const struct mach_smaps_profile *a, const struct mach_smaps_profile *b)
{
	return a->lines == b->lines && a->thp == b->thp && a->locked == b->locked && a->sizes_first == b->sizes_first &&
	       a->filepmd_narrow == b->filepmd_narrow && a->pkey == b->pkey && a->rollup == b->rollup;
}

/**
 * The counter lines a record (@rollup false) or smaps_rollup prints under
 * profile @p, in order, into @out; how many.
 */
unsigned int mach_smaps_lines(const struct mach_smaps_profile *p, bool rollup, unsigned char out[MACH_NR_SML]);

/**
 * Line @l's label as @p prints it, padded (with the colon, "Rss:            "),
 * and the width its value is right-aligned in (*@width).
 */
const char *mach_smaps_label(const struct mach_smaps_profile *p, enum mach_smaps_line l, unsigned int *width);

#endif /* UPROCFS_MACH_VM_H */
