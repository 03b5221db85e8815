// SPDX-License-Identifier: MIT
/*
 * pid_smaps.c - /proc/<pid>/smaps (one record per VMA) and
 * /proc/<pid>/smaps_rollup (the sums over the mm).
 *
 * Mirrors fs/proc/task_mmu.c of Linux 6.18: show_smap (the maps line, the
 * sizes, __show_smap's counters, THPeligible and show_smap_vma_flags) and
 * show_smaps_rollup, and of the kernels before it as the machine's smaps
 * profile says (mach_vm.h): which counter lines, where the page sizes go
 * (after SwapPss before 4.14), THPeligible's format, what Locked counts,
 * ProtectionKey.  Every counter line is a 16-character label and the kB
 * value right-aligned in 8 (SEQ_PUT_DEC), except Private_Hugetlb, whose
 * 17-character label takes a width of 7 (and 5.4-5.8's FilePmdMapped, one
 * short).  Proportional sizes are kept in the MACH_PSS_SHIFT fixed point
 * and truncated only when printed, so the rollup, which sums them first,
 * may exceed the sum of the per-VMA lines.  The reference CPU has no
 * OSPKE: its profile prints no ProtectionKey.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "render.h"

/* The printed kB of a byte count, and of a fixed-point proportional size. */
#define KB(bytes) ((bytes) >> 10)
#define PSS_KB(fixed) (((fixed) >> MACH_PSS_SHIFT) >> 10)

/* Line @l's kB: of @vma's record (NULL: the rollup's), from the counters @s and the Locked pss @locked. */
static uint64_t line_kb(const struct mach_vma *vma, const struct mach_mss *s, uint64_t locked, unsigned int l)
{
	switch ((enum mach_smaps_line)l) {
	case MACH_SML_SIZE: return vma ? KB(vma->end - vma->start) : 0;
	case MACH_SML_KPAGE:
	case MACH_SML_MMUPAGE: return vma ? vma->pagesize_kb : 0;
	case MACH_SML_RSS: return KB(s->resident);
	case MACH_SML_PSS: return PSS_KB(s->pss);
	case MACH_SML_PSS_DIRTY: return PSS_KB(s->pss_dirty);
	case MACH_SML_PSS_ANON: return PSS_KB(s->pss_anon);
	case MACH_SML_PSS_FILE: return PSS_KB(s->pss_file);
	case MACH_SML_PSS_SHMEM: return PSS_KB(s->pss_shmem);
	case MACH_SML_SHARED_CLEAN: return KB(s->shared_clean);
	case MACH_SML_SHARED_DIRTY: return KB(s->shared_dirty);
	case MACH_SML_PRIVATE_CLEAN: return KB(s->private_clean);
	case MACH_SML_PRIVATE_DIRTY: return KB(s->private_dirty);
	case MACH_SML_REFERENCED: return KB(s->referenced);
	case MACH_SML_ANONYMOUS: return KB(s->anonymous);
	case MACH_SML_KSM: return KB(s->ksm);
	case MACH_SML_LAZYFREE: return KB(s->lazyfree);
	case MACH_SML_ANON_THP: return KB(s->anonymous_thp);
	case MACH_SML_SHMEM_PMD: return KB(s->shmem_thp);
	case MACH_SML_FILE_PMD: return KB(s->file_thp);
	case MACH_SML_SHARED_HUGETLB: return KB(s->shared_hugetlb);
	case MACH_SML_PRIVATE_HUGETLB: return KB(s->private_hugetlb);
	case MACH_SML_SWAP: return KB(s->swap);
	case MACH_SML_SWAP_PSS: return PSS_KB(s->swap_pss);
	case MACH_SML_LOCKED: return PSS_KB(locked);
	case MACH_NR_SML: break;
	}
	return 0;
}

/* One line as it lays out: the padded label, the value's width, the value. */
struct line {
	const char *label;
	unsigned int len, width;
	uint64_t v;
};

/*
 * The fast path of the counters, while each value has fewer digits than
 * its width: the padded label copied, the width filled with spaces, the
 * digits written in place from the right, " kB\n".  False (nothing
 * written) when a value is too wide or the buffer too short.
 */
static bool counters_fast(struct seq_file *m, const struct line *ln, unsigned int n)
{
	static const uint64_t limit[9] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000 };
	size_t need = 0;
	char *out;

	for (unsigned int i = 0; i < n; i++) {
		if (ln[i].v >= limit[ln[i].width])
			return false;
		need += ln[i].len + ln[i].width + 4;
	}
	if (m->size - m->count <= need)
		return false;
	out = m->buf + m->count;
	for (unsigned int i = 0; i < n; i++) {
		char *p;

		memcpy(out, ln[i].label, ln[i].len);
		out += ln[i].len;
		memset(out, ' ', ln[i].width);
		out += ln[i].width;
		p = out;
		if (!ln[i].v)
			p[-1] = '0';
		for (uint64_t x = ln[i].v; x; x /= 10)
			*--p = (char)('0' + x % 10);
		memcpy(out, " kB\n", 4);
		out += 4;
	}
	m->count += need;
	return true;
}

/*
 * __show_smap (and before 4.14 the one printf of show_smap): the lines of
 * one VMA's record, @vma, or of the whole mm (@vma NULL: the rollup) as
 * the profile @p prints them, from the counters @s and the Locked pss.
 */
static void show_smap_counters(struct seq_file *m, const struct mach_smaps_profile *p, const struct mach_vma *vma,
			       const struct mach_mss *s, uint64_t locked)
{
	unsigned char ids[MACH_NR_SML];
	struct line ln[MACH_NR_SML];
	unsigned int n = mach_smaps_lines(p, !vma, ids);

	for (unsigned int i = 0; i < n; i++) {
		ln[i].label = mach_smaps_label(p, (enum mach_smaps_line)ids[i], &ln[i].width);
		ln[i].len = (unsigned int)strlen(ln[i].label);
		ln[i].v = line_kb(vma, s, locked, ids[i]);
	}
	if (counters_fast(m, ln, n))
		return;
	for (unsigned int i = 0; i < n; i++) {
		seq_put_decimal_ull_width(m, ln[i].label, ln[i].v, ln[i].width);
		seq_puts(m, " kB\n");
	}
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

/* THPeligible in the format of the profile's era. */
static void show_thp_eligible(struct seq_file *m, unsigned int format, bool eligible)
{
	switch ((enum mach_smaps_thp)format) {
	case MACH_SMAPS_THP_NONE:
		return;
	case MACH_SMAPS_THP_PLAIN:
		seq_puts(m, eligible ? "THPeligible:    1\n" : "THPeligible:    0\n");
		return;
	case MACH_SMAPS_THP_TABS:
		seq_puts(m, eligible ? "THPeligible:\t\t1\n" : "THPeligible:\t\t0\n");
		return;
	case MACH_SMAPS_THP_WIDE:
		seq_puts(m, eligible ? "THPeligible:           1\n" : "THPeligible:           0\n");
		return;
	}
}

static int show_smap(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_smaps_profile *p = &c->mach->profile.smaps;
	const struct mach_vma *vma = v;

	pfs_show_map_vma(m, vma);
	show_smap_counters(m, p, vma, &vma->mss, mach_smaps_locked(NULL, vma, p->locked));
	show_thp_eligible(m, p->thp, vma->thp_eligible);
	/* arch_pkeys_enabled(): the key is VmFlags' bits 32-35, which the flags line leaves out */
	if (p->pkey) {
		seq_put_decimal_ull_width(m, "ProtectionKey:  ", (vma->flags >> MACH_VMB_PKEY_BIT0) & 0xf, 8);
		seq_putc(m, '\n');
	}
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
	const struct mach_smaps_profile *p = &c->mach->profile.smaps;
	const struct mach_mm *mm = c->proc->mm;
	struct mach_vma header = { .kind = MACH_VMA_ANON };
	struct mach_mss sum;
	uint64_t pss_locked;

	(void)v;
	if (!mm)
		return -ESRCH; /* the open refuses it first (PFS_ACC_NEED_MM) */
	mach_mm_rollup(mm, &sum, &pss_locked, &header.start, &header.end);
	if (p->locked != MACH_SMAPS_LOCKED_PSS)
		pss_locked = mach_smaps_locked(mm, NULL, p->locked);
	pfs_show_vma_header_prefix(m, &header);
	seq_pad(m, ' ');
	seq_puts(m, "[rollup]\n");
	show_smap_counters(m, p, NULL, &sum, pss_locked);
	return 0;
}
