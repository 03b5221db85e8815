// SPDX-License-Identifier: MIT
/*
 * maps.c - /proc/<pid>/maps as fs/proc/task_mmu.c printed it before Andrei
 * Vagin's 2018 "procfs: add seq_put_hex_ll to speed up /proc/pid/maps" (seed
 * 003): the line prefix through one seq_printf
 * "%08lx-%08lx %c%c%c%c %08llx %02x:%02x %lu ".  Also the putter version with
 * the one-character delimiter fast path turned off, to measure that part of
 * the patch alone.  Both print the same bytes as src/procfs/pid_maps.c.
 */
#include <string.h>

#include "before.h"

static void show_name(struct seq_file *m, const struct mach_vma *vma)
{
	const char *fixed = mach_vma_kind_name(vma->kind);

	if (vma->kind == MACH_VMA_ANON)
		return;
	seq_pad(m, ' ');
	if (vma->kind == MACH_VMA_FILE) {
		seq_escape_str(m, vma->name ? vma->name : "", SEQ_ESCAPE_OCTAL, "\n");
		if (vma->deleted)
			seq_puts(m, " (deleted)");
	} else if (vma->kind == MACH_VMA_ANON_NAMED) {
		before_seq_printf(m, "[anon:%s]", vma->name ? vma->name : "");
	} else if (vma->kind == MACH_VMA_ANON_SHMEM) {
		before_seq_printf(m, "[anon_shmem:%s]", vma->name ? vma->name : "");
	} else if (fixed) {
		seq_puts(m, fixed);
	}
}

static int before_maps_show(struct seq_file *m, void *v)
{
	const struct mach_vma *vma = v;
	unsigned int f = vma->flags;

	seq_setwidth(m, 72);
	before_seq_printf(m, "%08lx-%08lx %c%c%c%c %08llx %02x:%02x %lu ", (unsigned long)vma->start,
			  (unsigned long)vma->end, f & MACH_VM_READ ? 'r' : '-', f & MACH_VM_WRITE ? 'w' : '-',
			  f & MACH_VM_EXEC ? 'x' : '-', f & MACH_VM_SHARED ? 's' : 'p',
			  (unsigned long long)vma->offset, vma->dev_major, vma->dev_minor,
			  (unsigned long)vma->inode);
	show_name(m, vma);
	seq_putc(m, '\n');
	return 0;
}

const struct seq_operations before_pid_maps_ops = {
	.start = pfs_pid_maps_start, .next = pfs_pid_maps_next, .stop = pfs_seq_stop_nothing,
	.show = before_maps_show,
};

/*
 * A delimiter the compiler cannot see into: copied with its length counted at
 * run time, as seq_put_delimeter did for every delimiter before the patch
 * taught it to seq_putc single characters.
 */
static void __attribute__((noinline)) put_delimiter(struct seq_file *m, const char *d)
{
	seq_write(m, d, strlen(d));
}

static int nofastpath_maps_show(struct seq_file *m, void *v)
{
	const struct mach_vma *vma = v;
	unsigned int f = vma->flags;

	seq_setwidth(m, 72);
	seq_put_hex_ll(m, NULL, vma->start, 8);
	put_delimiter(m, "-");
	seq_put_hex_ll(m, NULL, vma->end, 8);
	put_delimiter(m, " ");
	seq_putc(m, f & MACH_VM_READ ? 'r' : '-');
	seq_putc(m, f & MACH_VM_WRITE ? 'w' : '-');
	seq_putc(m, f & MACH_VM_EXEC ? 'x' : '-');
	seq_putc(m, f & MACH_VM_SHARED ? 's' : 'p');
	put_delimiter(m, " ");
	seq_put_hex_ll(m, NULL, vma->offset, 8);
	put_delimiter(m, " ");
	seq_put_hex_ll(m, NULL, vma->dev_major, 2);
	put_delimiter(m, ":");
	seq_put_hex_ll(m, NULL, vma->dev_minor, 2);
	put_delimiter(m, " ");
	seq_put_decimal_ull(m, NULL, vma->inode);
	put_delimiter(m, " ");
	show_name(m, vma);
	seq_putc(m, '\n');
	return 0;
}

const struct seq_operations nofastpath_pid_maps_ops = {
	.start = pfs_pid_maps_start, .next = pfs_pid_maps_next, .stop = pfs_seq_stop_nothing,
	.show = nofastpath_maps_show,
};
