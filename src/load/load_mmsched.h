/* SPDX-License-Identifier: MIT */
/*
 * load_mmsched.h - the records of the per-task files about memory and
 * scheduling that the loader parses beside status and stat: smaps,
 * smaps_rollup, schedstat, wchan, stack, syscall and children.
 *
 * They hang off struct ld_task (ld_task.mms); pid_records.c hands every file
 * of these kinds to ld_mms_new/parse/swap, and ld_assemble_mmsched puts what
 * they say into the process ld_assemble built, after checking them against
 * each other and against its status and stat.
 */
#ifndef UPROCFS_LOAD_MMSCHED_H
#define UPROCFS_LOAD_MMSCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "load_int.h"

/* The counter lines of smaps and smaps_rollup: mach_vm.h's, in the order either prints them. */
enum ld_sm {
	SM_SIZE = MACH_SML_SIZE, SM_KPAGE = MACH_SML_KPAGE, SM_MMUPAGE = MACH_SML_MMUPAGE, SM_RSS = MACH_SML_RSS,
	SM_PSS = MACH_SML_PSS, SM_PSS_DIRTY = MACH_SML_PSS_DIRTY, SM_PSS_ANON = MACH_SML_PSS_ANON,
	SM_PSS_FILE = MACH_SML_PSS_FILE, SM_PSS_SHMEM = MACH_SML_PSS_SHMEM, SM_SHARED_CLEAN = MACH_SML_SHARED_CLEAN,
	SM_SHARED_DIRTY = MACH_SML_SHARED_DIRTY, SM_PRIVATE_CLEAN = MACH_SML_PRIVATE_CLEAN,
	SM_PRIVATE_DIRTY = MACH_SML_PRIVATE_DIRTY, SM_REFERENCED = MACH_SML_REFERENCED,
	SM_ANONYMOUS = MACH_SML_ANONYMOUS, SM_KSM = MACH_SML_KSM, SM_LAZYFREE = MACH_SML_LAZYFREE,
	SM_ANON_THP = MACH_SML_ANON_THP, SM_SHMEM_PMD = MACH_SML_SHMEM_PMD, SM_FILE_PMD = MACH_SML_FILE_PMD,
	SM_SHARED_HUGETLB = MACH_SML_SHARED_HUGETLB, SM_PRIVATE_HUGETLB = MACH_SML_PRIVATE_HUGETLB,
	SM_SWAP = MACH_SML_SWAP, SM_SWAP_PSS = MACH_SML_SWAP_PSS, SM_LOCKED = MACH_SML_LOCKED,
	SM_NR = MACH_NR_SML
};

/* One smaps record: the VMA (header, VmFlags, page size, THPeligible) and its lines in kB (0: not printed). */
struct ld_smap {
	struct mach_vma vma;
	uint64_t kb[SM_NR];
	unsigned int line;          /* of its header */
};

/*
 * A smaps file and the kernel profile its lines show (the first record's:
 * every other one has the same lines).  prof.locked is not in the lines:
 * the assembly tells it from the values (locked_rule).
 */
struct ld_smaps {
	char *path;
	size_t n;
	struct ld_smap *v;
	struct mach_smaps_profile prof;
};

struct ld_rollup {
	char *path;
	uint64_t start, end;        /* the header's span */
	uint64_t kb[SM_NR];
	unsigned int nseq;          /* its lines, in order */
	unsigned char seq[SM_NR];
	bool filepmd_narrow;
};

struct ld_sched {
	char *path;
	uint64_t run_ns, wait_ns, pcount;
};

struct ld_wchan {
	char *path;
	char *name;                 /* NULL: "0" */
};

struct ld_frame {
	char *name, *module;        /* module NULL: built in */
	uint32_t off, size;
};

struct ld_stack {
	char *path;
	unsigned int n;
	struct ld_frame *f;
};

struct ld_syscall {
	char *path;
	bool running;
	struct mach_syscall sc;
};

struct ld_children {
	char *path;
	size_t n;
	pid_t *pids;
};

struct ld_mmsched {
	struct ld_smaps *smaps;
	struct ld_rollup *rollup;
	struct ld_sched *sched;
	struct ld_wchan *wchan;
	struct ld_stack *stack;
	struct ld_syscall *syscall;
	struct ld_children *children;
};

/** Whether @kind is one of the files above. */
bool ld_mms_kind(enum mach_ld_kind kind);
/** An empty record of @kind named @path in *@mms (created if NULL): 0 or -ENOMEM. */
int ld_mms_new(struct ld_mmsched **mms, enum mach_ld_kind kind, const char *path);
/** Parse the text at @lx into the record of @kind. */
int ld_mms_parse(struct ld_mmsched *mms, enum mach_ld_kind kind, struct lex *lx);
/** Exchange the records of @kind (a fresh container may move whole). */
void ld_mms_swap(struct ld_mmsched **a, struct ld_mmsched **b, enum mach_ld_kind kind);
/** Free the records and the container. */
void ld_mms_free(struct ld_mmsched *mms);

/* Parsers (load_smaps.c, load_waits.c): 0, -EINVAL with "path:line: ..." in lx->err, -ENOMEM. */
int ld_parse_smaps(struct lex *lx, struct ld_smaps *sm);
int ld_parse_smaps_rollup(struct lex *lx, struct ld_rollup *ro);
int ld_parse_pid_schedstat(struct lex *lx, struct ld_sched *s);
int ld_parse_wchan(struct lex *lx, struct ld_wchan *w);
int ld_parse_stack(struct lex *lx, struct ld_stack *st);
int ld_parse_syscall(struct lex *lx, struct ld_syscall *sc);
int ld_parse_children(struct lex *lx, struct ld_children *ch);
void ld_smaps_free(struct ld_smaps *sm);
void ld_stack_free(struct ld_stack *st);

/** smaps' label of line @f ("Pss_Dirty:"), for messages. */
const char *ld_sm_label(enum ld_sm f);

/*
 * The proportional sizes of the VMAs in fixed point (pss_fit.c): each
 * VMA's printed kB is its value truncated, the rollup's the sum truncated;
 * pick per-VMA values below a kB above what each prints whose sums give
 * the rollup's lines, and split each VMA's pss by kind, into v[i].vma.mss.
 * @v are the mm's own VMAs (the gate VMA is no part of the rollup).  Profile
 * @p says which lines the rollup has (a line it lacks binds nothing) and
 * what its Locked sums.  0, or -ENOTSUP naming what no choice satisfies.
 */
int ld_fit_pss(const struct ld_msg *ms, struct ld_smap *v, size_t n, const struct ld_rollup *ro,
	       const struct mach_smaps_profile *p);

/**
 * smaps and smaps_rollup (pid_smaps_asm.c): the same in every file of the
 * process, smaps' VMAs those of maps, its counters those status prints, the
 * rollup their sum; the VMAs with their counters replace the mm's.
 */
int ld_assemble_smaps(const struct ld_msg *ms, const struct mach_loader *ld, struct ld_pid *lp,
		      struct mach_process *out);

/**
 * Check a process's smaps, smaps_rollup, schedstat, wchan, stack, syscall
 * and children files against each other and against what @out holds from
 * its status, stat and maps, and put them into @out: its mm's VMAs take
 * smaps' counters, its threads the rest.  0, -EINVAL (files disagree),
 * -ENOTSUP (they agree but the model cannot hold them), -ENOMEM.  @wchan_addr:
 * stat field 35 is an address (before 4.4), not the 0/1 flag of the state.
 */
int ld_assemble_mmsched(const struct mach_loader *ld, struct ld_pid *lp, struct mach_process *out,
			bool wchan_addr, char *err, size_t errlen);

#endif
