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

/* Every line's kB, in enum mach_smaps_line order: of @vma's record (NULL: the rollup's). */
static void line_kbs(const struct mach_vma *vma, const struct mach_mss *s, uint64_t locked, uint64_t v[MACH_NR_SML])
{
	v[MACH_SML_SIZE] = vma ? KB(vma->end - vma->start) : 0;
	v[MACH_SML_KPAGE] = v[MACH_SML_MMUPAGE] = vma ? vma->pagesize_kb : 0;
	v[MACH_SML_RSS] = KB(s->resident);
	v[MACH_SML_PSS] = PSS_KB(s->pss);
	v[MACH_SML_PSS_DIRTY] = PSS_KB(s->pss_dirty);
	v[MACH_SML_PSS_ANON] = PSS_KB(s->pss_anon);
	v[MACH_SML_PSS_FILE] = PSS_KB(s->pss_file);
	v[MACH_SML_PSS_SHMEM] = PSS_KB(s->pss_shmem);
	v[MACH_SML_SHARED_CLEAN] = KB(s->shared_clean);
	v[MACH_SML_SHARED_DIRTY] = KB(s->shared_dirty);
	v[MACH_SML_PRIVATE_CLEAN] = KB(s->private_clean);
	v[MACH_SML_PRIVATE_DIRTY] = KB(s->private_dirty);
	v[MACH_SML_REFERENCED] = KB(s->referenced);
	v[MACH_SML_ANONYMOUS] = KB(s->anonymous);
	v[MACH_SML_KSM] = KB(s->ksm);
	v[MACH_SML_LAZYFREE] = KB(s->lazyfree);
	v[MACH_SML_ANON_THP] = KB(s->anonymous_thp);
	v[MACH_SML_SHMEM_PMD] = KB(s->shmem_thp);
	v[MACH_SML_FILE_PMD] = KB(s->file_thp);
	v[MACH_SML_SHARED_HUGETLB] = KB(s->shared_hugetlb);
	v[MACH_SML_PRIVATE_HUGETLB] = KB(s->private_hugetlb);
	v[MACH_SML_SWAP] = KB(s->swap);
	v[MACH_SML_SWAP_PSS] = PSS_KB(s->swap_pss);
	v[MACH_SML_LOCKED] = PSS_KB(locked);
}

/* One line's padded label and its value's width. */
struct line {
	const char *label;
	unsigned int len, width;
};

/*
 * A profile's lines laid out once per thread (a file of a thousand records
 * asks a thousand times): for a record ([0]) and for the rollup ([1]), the
 * text of every line with a value of 0, and where each value ends in it.
 */
#define TEXT_MAX 1024

struct slot {
	unsigned short end;   /* the offset just past the value's last digit */
	unsigned char id;     /* enum mach_smaps_line */
};

struct layout {
	bool valid;
	struct mach_smaps_profile p;
	unsigned int n[2];
	size_t len[2];
	struct slot slot[2][MACH_NR_SML];
	struct line ln[2][MACH_NR_SML];      /* the labels, for the slow path */
	char text[2][TEXT_MAX];
};

static __thread struct layout laid_out;

static const struct layout *layout_of(const struct mach_smaps_profile *p)
{
	struct layout *l = &laid_out;

	if (l->valid && mach_smaps_profile_equal(&l->p, p))
		return l;
	l->p = *p;
	for (int r = 0; r < 2; r++) {
		unsigned char ids[MACH_NR_SML];
		char *t = l->text[r];

		l->n[r] = mach_smaps_lines(p, r, ids);
		for (unsigned int i = 0; i < l->n[r]; i++) {
			struct line *ln = &l->ln[r][i];

			ln->label = mach_smaps_label(p, (enum mach_smaps_line)ids[i], &ln->width);
			ln->len = (unsigned int)strlen(ln->label);
			/* 26 labels of 17, 8 columns, " kB\n" fit in TEXT_MAX */
			memcpy(t, ln->label, ln->len);
			t += ln->len;
			memset(t, ' ', ln->width - 1);
			t += ln->width - 1;
			*t++ = '0';
			l->slot[r][i] = (struct slot){ .end = (unsigned short)(t - l->text[r]), .id = ids[i] };
			memcpy(t, " kB\n", 4);
			t += 4;
		}
		l->len[r] = (size_t)(t - l->text[r]);
	}
	l->valid = true;
	return l;
}

/*
 * __show_smap (and before 4.14 the one printf of show_smap): the lines of
 * one VMA's record, @vma, or of the whole mm (@vma NULL: the rollup) as
 * the profile @p prints them, from the counters @s and the Locked pss.
 * While each value has fewer digits than its width, the text of zeros is
 * copied and the digits written in place from the right.
 */
static void show_smap_counters(struct seq_file *m, const struct mach_smaps_profile *p, const struct mach_vma *vma,
			       const struct mach_mss *s, uint64_t locked)
{
	const struct layout *l = layout_of(p);
	int r = !vma;
	unsigned int n = l->n[r];
	uint64_t v[MACH_NR_SML], wide = 0;
	bool fits;

	/*
	 * Every value has fewer digits than its width (8; Private_Hugetlb's 7),
	 * those of lines the profile leaves out too: they are as small.
	 */
	line_kbs(vma, s, locked, v);
	for (unsigned int i = 0; i < MACH_NR_SML; i++)
		wide |= v[i];
	fits = m->size - m->count > l->len[r] && (wide < 10000000u ||
		(wide < 100000000u && v[MACH_SML_PRIVATE_HUGETLB] < 10000000u));
	if (fits) {
		char *out = m->buf + m->count;

		memcpy(out, l->text[r], l->len[r]);
		for (unsigned int i = 0; i < n; i++) {
			char *d = out + l->slot[r][i].end;

			for (uint64_t x = v[l->slot[r][i].id]; x; x /= 10)
				*--d = (char)('0' + x % 10);
		}
		m->count += l->len[r];
		return;
	}
	for (unsigned int i = 0; i < n; i++) {
		seq_write(m, l->ln[r][i].label, l->ln[r][i].len);
		seq_put_decimal_ull_width(m, "", v[l->slot[r][i].id], l->ln[r][i].width);
		seq_write(m, " kB\n", 4);
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
	show_smap_counters(m, p, vma, &vma->mss, mach_smaps_locked(NULL, 0, vma, p->locked));
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
	const struct mach_vma *vmas;
	struct mach_mss sum;
	uint64_t pss_locked;
	int rc;

	(void)v;
	if (!mm)
		return -ESRCH; /* the open refuses it first (PFS_ACC_NEED_MM) */
	if ((rc = mach_mm_vmas(mm, &vmas)))
		return rc;
	mach_vmas_rollup(vmas, mm->nvmas, &sum, &pss_locked, &header.start, &header.end);
	if (p->locked != MACH_SMAPS_LOCKED_PSS)
		pss_locked = mach_smaps_locked(vmas, mm->nvmas, NULL, p->locked);
	pfs_show_vma_header_prefix(m, &header);
	seq_pad(m, ' ');
	seq_puts(m, "[rollup]\n");
	show_smap_counters(m, p, NULL, &sum, pss_locked);
	return 0;
}
