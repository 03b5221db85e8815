// SPDX-License-Identifier: MIT
/*
 * pid_io.c - /proc/<pid>/io and /proc/<pid>/task/<tid>/io.
 *
 * Mirrors fs/proc/base.c do_io_accounting of Linux 6.18: a thread's own
 * counters under task/<tid>, and under /proc/<pid> the group's: what its
 * exited threads left in signal->ioac plus every live thread's.  The ptrace
 * check is made at read time (PFS_ACC_AT_READ in the table).
 */
#include "render.h"

int pfs_show_pid_io(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	struct mach_taskio acct;

	(void)v;
	if (c->whole)
		mach_process_io(c->proc, &acct);
	else
		acct = c->thread->io;
	seq_put_decimal_ull(m, "rchar: ", acct.rchar);
	seq_put_decimal_ull(m, "\nwchar: ", acct.wchar);
	seq_put_decimal_ull(m, "\nsyscr: ", acct.syscr);
	seq_put_decimal_ull(m, "\nsyscw: ", acct.syscw);
	seq_put_decimal_ull(m, "\nread_bytes: ", acct.read_bytes);
	seq_put_decimal_ull(m, "\nwrite_bytes: ", acct.write_bytes);
	seq_put_decimal_ull(m, "\ncancelled_write_bytes: ", acct.cancelled_write_bytes);
	seq_putc(m, '\n');
	return 0;
}
