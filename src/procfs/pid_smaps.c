// SPDX-License-Identifier: MIT
/*
 * pid_smaps.c - /proc/<pid>/smaps (one record per VMA) and
 * /proc/<pid>/smaps_rollup (the sums over the mm).
 *
 * Mirrors fs/proc/task_mmu.c of Linux 6.18: show_smap (the maps line, the
 * sizes, __show_smap's counters, THPeligible and show_smap_vma_flags) and
 * show_smaps_rollup.  Every counter line is a 16-character label and the
 * kB value right-aligned in 8 (SEQ_PUT_DEC), except Private_Hugetlb, whose
 * 17-character label takes a width of 7.  Proportional sizes are kept in
 * the MACH_PSS_SHIFT fixed point and truncated only when printed, so the
 * rollup, which sums them first, may exceed the sum of the per-VMA lines.
 * There is no ProtectionKey line: the reference CPU has no OSPKE.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "render.h"

/* The printed kB of a byte count, and of a fixed-point proportional size. */
#define KB(bytes) ((bytes) >> 10)
#define PSS_KB(fixed) (((fixed) >> MACH_PSS_SHIFT) >> 10)

/*
 * A label, with the end of the line before it, and a kB value in 8 columns:
 * __show_smap's SEQ_PUT_DEC.  A macro, so that each label is a constant
 * whose length and copy the compiler folds.
 */
#define put_kb(m, label, kb) seq_put_decimal_ull_width(m, label, kb, 8)

/*
 * The fast path of the counters: every line is 28 bytes (a label padded to
 * 16, the value right-aligned in 8 — Private_Hugetlb's 17 and 7 — and " kB\n")
 * while each value has fewer digits than its width.  Each line is then two
 * fixed-size copies, the padded label and "       0 kB\n", and the value's
 * digits written in place from the right.
 */
#define LINE 28
#define NLINES 22

/* The labels padded to 16: the Pss_Anon, _File and _Shmem of the rollup are 3 to 5. */
static const char counter_labels[NLINES][17] = {
	"Rss:            ", "Pss:            ", "Pss_Dirty:      ", "Pss_Anon:       ", "Pss_File:       ",
	"Pss_Shmem:      ", "Shared_Clean:   ", "Shared_Dirty:   ", "Private_Clean:  ", "Private_Dirty:  ",
	"Referenced:     ", "Anonymous:      ", "KSM:            ", "LazyFree:       ", "AnonHugePages:  ",
	"ShmemPmdMapped: ", "FilePmdMapped:  ", "Shared_Hugetlb: ", "Private_Hugetlb:", "Swap:           ",
	"SwapPss:        ", "Locked:         ",
};

/* The values in printed order (the rollup's with Pss_Anon, _File and _Shmem); how many. */
static unsigned int counter_values(const struct mach_mss *s, uint64_t pss_locked, bool rollup,
				   uint64_t v[NLINES])
{
	unsigned int n = 0;

	v[n++] = KB(s->resident);
	v[n++] = PSS_KB(s->pss);
	v[n++] = PSS_KB(s->pss_dirty);
	if (rollup) {
		v[n++] = PSS_KB(s->pss_anon);
		v[n++] = PSS_KB(s->pss_file);
		v[n++] = PSS_KB(s->pss_shmem);
	}
	v[n++] = KB(s->shared_clean);
	v[n++] = KB(s->shared_dirty);
	v[n++] = KB(s->private_clean);
	v[n++] = KB(s->private_dirty);
	v[n++] = KB(s->referenced);
	v[n++] = KB(s->anonymous);
	v[n++] = KB(s->ksm);
	v[n++] = KB(s->lazyfree);
	v[n++] = KB(s->anonymous_thp);
	v[n++] = KB(s->shmem_thp);
	v[n++] = KB(s->file_thp);
	v[n++] = KB(s->shared_hugetlb);
	v[n++] = KB(s->private_hugetlb);
	v[n++] = KB(s->swap);
	v[n++] = PSS_KB(s->swap_pss);
	v[n++] = PSS_KB(pss_locked);
	return n;
}

/* The lines at the buffer's end with every value in its width: false (nothing written) otherwise. */
static bool counters_fast(struct seq_file *m, const uint64_t *v, unsigned int n, bool rollup)
{
	char *out;

	if (m->size - m->count <= n * LINE)
		return false;
	for (unsigned int i = 0; i < n; i++)
		if (v[i] >= (i == n - 4 ? 10000000u : 100000000u))
			return false;
	out = m->buf + m->count;
	for (unsigned int i = 0; i < n; i++, out += LINE) {
		/* the per-VMA record has no Pss_Anon, Pss_File or Pss_Shmem */
		unsigned int label = i < 3 || rollup ? i : i + 3;
		char *p = out + 24;

		memcpy(out, counter_labels[label], 16);
		memcpy(out + 16, "       0 kB\n", 12);
		for (uint64_t x = v[i]; x; x /= 10)
			*--p = (char)('0' + x % 10);
	}
	m->count += n * LINE;
	return true;
}

/*
 * __show_smap: the counters of one VMA or of the whole mm (@rollup adds
 * the split of Pss by kind).  @pss_locked is the pss of VM_LOCKED memory.
 */
static void show_smap_counters(struct seq_file *m, const struct mach_mss *s, uint64_t pss_locked,
			       bool rollup)
{
	uint64_t v[NLINES];

	if (counters_fast(m, v, counter_values(s, pss_locked, rollup, v), rollup))
		return;
	put_kb(m, "Rss:            ", KB(s->resident));
	put_kb(m, " kB\nPss:            ", PSS_KB(s->pss));
	put_kb(m, " kB\nPss_Dirty:      ", PSS_KB(s->pss_dirty));
	if (rollup) {
		put_kb(m, " kB\nPss_Anon:       ", PSS_KB(s->pss_anon));
		put_kb(m, " kB\nPss_File:       ", PSS_KB(s->pss_file));
		put_kb(m, " kB\nPss_Shmem:      ", PSS_KB(s->pss_shmem));
	}
	put_kb(m, " kB\nShared_Clean:   ", KB(s->shared_clean));
	put_kb(m, " kB\nShared_Dirty:   ", KB(s->shared_dirty));
	put_kb(m, " kB\nPrivate_Clean:  ", KB(s->private_clean));
	put_kb(m, " kB\nPrivate_Dirty:  ", KB(s->private_dirty));
	put_kb(m, " kB\nReferenced:     ", KB(s->referenced));
	put_kb(m, " kB\nAnonymous:      ", KB(s->anonymous));
	put_kb(m, " kB\nKSM:            ", KB(s->ksm));
	put_kb(m, " kB\nLazyFree:       ", KB(s->lazyfree));
	put_kb(m, " kB\nAnonHugePages:  ", KB(s->anonymous_thp));
	put_kb(m, " kB\nShmemPmdMapped: ", KB(s->shmem_thp));
	put_kb(m, " kB\nFilePmdMapped:  ", KB(s->file_thp));
	put_kb(m, " kB\nShared_Hugetlb: ", KB(s->shared_hugetlb));
	seq_put_decimal_ull_width(m, " kB\nPrivate_Hugetlb: ", KB(s->private_hugetlb), 7);
	put_kb(m, " kB\nSwap:           ", KB(s->swap));
	put_kb(m, " kB\nSwapPss:        ", PSS_KB(s->swap_pss));
	put_kb(m, " kB\nLocked:         ", PSS_KB(pss_locked));
	seq_puts(m, " kB\n");
}

/* "xx " for each vm_flags bit: its mnemonic, "??" for bits unnamed, "" for the protection key's. */
static char flag_words[MACH_NR_VM_BITS][4];
static pthread_once_t flag_words_once = PTHREAD_ONCE_INIT;

static void make_flag_words(void)
{
	for (unsigned int bit = 0; bit < MACH_NR_VM_BITS; bit++) {
		const char *name = mach_vm_flag_name(bit);

		if (!name || name[0])
			snprintf(flag_words[bit], sizeof(flag_words[bit]), "%s ", name ? name : "??");
	}
}

/* One mnemonic per set flag, in bit order, each followed by a space. */
static void show_smap_vma_flags(struct seq_file *m, uint64_t flags)
{
	pthread_once(&flag_words_once, make_flag_words);
	seq_puts(m, "VmFlags: ");
	for (uint64_t f = flags; f; f &= f - 1) {
		const char *w = flag_words[__builtin_ctzll(f)];

		if (w[0])
			seq_write(m, w, 3);
	}
	seq_putc(m, '\n');
}

static int show_smap(struct seq_file *m, void *v)
{
	const struct mach_vma *vma = v;

	pfs_show_map_vma(m, vma);
	put_kb(m, "Size:           ", KB(vma->end - vma->start));
	put_kb(m, " kB\nKernelPageSize: ", vma->pagesize_kb);
	put_kb(m, " kB\nMMUPageSize:    ", vma->pagesize_kb);
	seq_puts(m, " kB\n");
	show_smap_counters(m, &vma->mss, mach_vma_pss_locked(vma), false);
	seq_puts(m, vma->thp_eligible ? "THPeligible:           1\n" : "THPeligible:           0\n");
	show_smap_vma_flags(m, vma->flags);
	return 0;
}

const struct seq_operations pfs_pid_smaps_ops = {
	.start = pfs_pid_maps_start,
	.next = pfs_pid_maps_next,
	.stop = pfs_seq_stop_nothing,
	.show = show_smap,
};

/*
 * show_smaps_rollup: the walk of every VMA of the mm (not the gate VMA,
 * which is no VMA of it), summed in fixed point, under a header that spans
 * the first VMA's start to the last one's end with flags, offset, device
 * and inode all 0.
 */
int pfs_show_pid_smaps_rollup(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_mm *mm = c->proc->mm;
	struct mach_vma header = { .kind = MACH_VMA_ANON };
	struct mach_mss sum;
	uint64_t pss_locked;

	(void)v;
	if (!mm)
		return -ESRCH; /* the open refuses it first (PFS_ACC_NEED_MM) */
	mach_mm_rollup(mm, &sum, &pss_locked, &header.start, &header.end);
	pfs_show_vma_header_prefix(m, &header);
	seq_pad(m, ' ');
	seq_puts(m, "[rollup]\n");
	show_smap_counters(m, &sum, pss_locked, true);
	return 0;
}
