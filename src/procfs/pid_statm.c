// SPDX-License-Identifier: MIT
/*
 * pid_statm.c - /proc/<pid>/statm: seven page counts.
 *
 * Mirrors fs/proc/array.c proc_pid_statm with task_statm from
 * fs/proc/task_mmu.c (Linux 6.18): size resident shared text lib data dt, in
 * pages; lib and dt have been 0 since 2.6.  The counts come from the same mm
 * counters status prints in kB, so the two files always agree.
 */
#include "render.h"

#define KB_PER_PAGE (MACH_PAGE_SIZE / 1024)

int pfs_show_pid_statm(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_mm *mm = c->proc->mm;

	(void)v;
	if (!mm) {
		seq_puts(m, "0 0 0 0 0 0 0\n");
		return 0;
	}
	seq_put_decimal_ull(m, NULL, mm->vm_size / KB_PER_PAGE);
	seq_put_decimal_ull(m, " ", mm->vm_rss / KB_PER_PAGE);
	seq_put_decimal_ull(m, " ", (mm->rss_file + mm->rss_shmem) / KB_PER_PAGE);
	seq_put_decimal_ull(m, " ", mm->statm_text);
	seq_puts(m, " 0");
	seq_put_decimal_ull(m, " ", (mm->vm_data + mm->vm_stk) / KB_PER_PAGE);
	seq_puts(m, " 0\n");
	return 0;
}
