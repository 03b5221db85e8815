// SPDX-License-Identifier: MIT
/*
 * pid_oom.c - /proc/<pid>/oom_score, oom_adj and oom_score_adj.
 *
 * Mirrors fs/proc/base.c proc_oom_score, oom_adj_read and
 * oom_score_adj_read of Linux 6.18.  The score is computed when read, as
 * the kernel computes it (mach_oom_score: oom_badness over the mm's
 * counters and meminfo's RAM and swap), so it agrees with status, stat and
 * meminfo by construction.
 */
#include "render.h"

int pfs_show_pid_oom_score(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_put_decimal_ull(m, NULL, mach_oom_score(c->mach, c->proc));
	seq_putc(m, '\n');
	return 0;
}

int pfs_show_pid_oom_adj(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_put_decimal_ll(m, NULL, mach_oom_adj(c->proc->oom_score_adj));
	seq_putc(m, '\n');
	return 0;
}

int pfs_show_pid_oom_score_adj(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	/* "%hd" of signal->oom_score_adj */
	seq_put_decimal_ll(m, NULL, (short)c->proc->oom_score_adj);
	seq_putc(m, '\n');
	return 0;
}
