// SPDX-License-Identifier: MIT
/*
 * pid_children.c - /proc/<pid>/task/<tid>/children: the processes that
 * thread forked (its children list: fork order, orphans it adopted after
 * them), each as "%d " with no newline at the end.
 *
 * Mirrors fs/proc/array.c children_seq_ops of Linux 6.18: one record per
 * child.  The model keeps each thread's list, built once per machine, so a
 * read costs its own length, not a scan of the machine's processes.
 */
#include "render.h"

static void *children_start(struct seq_file *m, loff_t *pos)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_thread *t = c->thread;

	if (*pos < 0 || (size_t)*pos >= t->nchildren)
		return NULL;
	return (void *)&t->children[*pos];
}

static void *children_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return children_start(m, pos);
}

static int children_show(struct seq_file *m, void *v)
{
	seq_put_decimal_ll(m, NULL, *(const pid_t *)v);
	seq_putc(m, ' ');
	return 0;
}

const struct seq_operations pfs_pid_children_ops = {
	.start = children_start,
	.next = children_next,
	.stop = pfs_seq_stop_nothing,
	.show = children_show,
};
