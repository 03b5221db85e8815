// SPDX-License-Identifier: MIT
/*
 * pid_maps.c - /proc/<pid>/maps: one record per VMA.
 *
 * Mirrors fs/proc/task_mmu.c show_map_vma / show_vma_header_prefix and the
 * maps seq_operations of Linux 6.18.  The prefix is built with seq_put_hex_ll
 * (the 2018 "seq_put_hex_ll to speed up /proc/pid/maps" patch); names start at
 * column 73 through seq_setwidth/seq_pad; paths escape only the newline, as
 * octal; unnamed mappings end with the inode and one space.  The gate VMA
 * ([vsyscall]) is the model's last VMA.
 */
#include "render.h"

/* 25 + sizeof(void *) * 6 - 1 on 64-bit */
#define MAPS_NAME_COLUMN 72

static const struct mach_mm *maps_mm(struct seq_file *m)
{
	const struct pfs_ctx *c = m->private;
	return c->proc->mm;
}

void *pfs_pid_maps_start(struct seq_file *m, loff_t *pos)
{
	const struct mach_mm *mm = maps_mm(m);
	const struct mach_vma *vmas;
	int rc;

	if (!mm || *pos < 0 || (size_t)*pos >= mm->nvmas)
		return NULL;
	/* every call asks again: the VMAs may be made ones, kept for this thread only */
	if ((rc = mach_mm_vmas(mm, &vmas)))
		return SEQ_ERR_PTR(rc);
	return (void *)&vmas[*pos];
}

void *pfs_pid_maps_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return pfs_pid_maps_start(m, pos);
}

void pfs_seq_stop_nothing(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
}

static void show_vma_name(struct seq_file *m, const struct mach_vma *vma)
{
	const char *fixed;

	switch (vma->kind) {
	case MACH_VMA_ANON:
		return;
	case MACH_VMA_FILE:
		seq_pad(m, ' ');
		seq_escape_str(m, vma->name ? vma->name : "", SEQ_ESCAPE_OCTAL, "\n");
		if (vma->deleted)
			seq_puts(m, " (deleted)");
		return;
	case MACH_VMA_ANON_NAMED:
		seq_pad(m, ' ');
		seq_puts(m, "[anon:");
		seq_puts(m, vma->name ? vma->name : "");
		seq_putc(m, ']');
		return;
	case MACH_VMA_ANON_SHMEM:
		seq_pad(m, ' ');
		seq_puts(m, "[anon_shmem:");
		seq_puts(m, vma->name ? vma->name : "");
		seq_putc(m, ']');
		return;
	default:
		fixed = mach_vma_kind_name(vma->kind);
		if (fixed) {
			seq_pad(m, ' ');
			seq_puts(m, fixed);
		}
		return;
	}
}

void pfs_show_vma_header_prefix(struct seq_file *m, const struct mach_vma *vma)
{
	uint64_t f = vma->flags;

	seq_setwidth(m, MAPS_NAME_COLUMN);
	seq_put_hex_ll(m, NULL, vma->start, 8);
	seq_put_hex_ll(m, "-", vma->end, 8);
	seq_putc(m, ' ');
	seq_putc(m, f & MACH_VM_READ ? 'r' : '-');
	seq_putc(m, f & MACH_VM_WRITE ? 'w' : '-');
	seq_putc(m, f & MACH_VM_EXEC ? 'x' : '-');
	seq_putc(m, f & MACH_VM_MAYSHARE ? 's' : 'p');
	seq_put_hex_ll(m, " ", vma->offset, 8);
	seq_put_hex_ll(m, " ", vma->dev_major, 2);
	seq_put_hex_ll(m, ":", vma->dev_minor, 2);
	seq_put_decimal_ull(m, " ", vma->inode);
	seq_putc(m, ' ');
}

void pfs_show_map_vma(struct seq_file *m, const struct mach_vma *vma)
{
	pfs_show_vma_header_prefix(m, vma);
	show_vma_name(m, vma);
	seq_putc(m, '\n');
}

static int show_map(struct seq_file *m, void *v)
{
	pfs_show_map_vma(m, v);
	return 0;
}

const struct seq_operations pfs_pid_maps_ops = {
	.start = pfs_pid_maps_start,
	.next = pfs_pid_maps_next,
	.stop = pfs_seq_stop_nothing,
	.show = show_map,
};
