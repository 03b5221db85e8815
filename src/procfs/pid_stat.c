// SPDX-License-Identifier: MIT
/*
 * pid_stat.c - /proc/<pid>/stat and /proc/<pid>/task/<tid>/stat.
 *
 * Mirrors fs/proc/array.c do_task_stat of Linux 6.18: 52 fields on one line,
 * written with seq_put_decimal_ull/_ll since the 2012 "speed up
 * /proc/pid/stat" patch.  The /proc/<pid> view ("whole") adds up the thread
 * group; task/<tid> shows one thread.  Without ptrace access the layout
 * fields are masked the way the kernel masks them (startcode/endcode read 1).
 */
#include "render.h"

#define STAT_SIG_MASK 0x7fffffffull

static uint64_t ticks(uint64_t ns)
{
	return mach_ns_to_ticks(ns);
}

int pfs_show_pid_stat(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_process *p = c->proc;
	const struct mach_thread *t = c->thread;
	const struct mach_thread_rare *rare = mach_thread_rare(t);
	const struct mach_mm *mm = p->mm;
	bool permitted = c->ptrace_ok && !p->stat_hidden;
	uint64_t minflt = t->minflt, majflt = t->majflt, gtime = rare->guest_time_ns;
	uint64_t utime = t->utime_ns, stime = t->stime_ns;
	int exit_code = t->exit_code;

	(void)v;
	if (c->whole) {
		minflt = p->dead_minflt;
		majflt = p->dead_majflt;
		gtime = p->dead_guest_time_ns;
		for (unsigned int i = 0; i < p->nthreads; i++) {
			minflt += p->threads[i].minflt;
			majflt += p->threads[i].majflt;
			gtime += mach_thread_rare(&p->threads[i])->guest_time_ns;
		}
		utime = p->group_utime_ns;
		stime = p->group_stime_ns;
		exit_code = p->exit_code;
	}

	seq_put_decimal_ull(m, NULL, (unsigned long long)t->tid);
	seq_puts(m, " (");
	seq_puts(m, mach_thread_comm(t)); /* raw: readers parse up to the last ')' */
	seq_puts(m, ") ");
	seq_putc(m, mach_task_state_letter(t->state));
	seq_put_decimal_ll(m, " ", p->ppid);
	seq_put_decimal_ll(m, " ", p->pgrp);
	seq_put_decimal_ll(m, " ", p->session);
	seq_put_decimal_ll(m, " ", p->tty_nr);
	seq_put_decimal_ll(m, " ", p->tpgid);
	seq_put_decimal_ull(m, " ", t->pf_flags);
	seq_put_decimal_ull(m, " ", minflt);
	seq_put_decimal_ull(m, " ", p->cminflt);
	seq_put_decimal_ull(m, " ", majflt);
	seq_put_decimal_ull(m, " ", p->cmajflt);
	seq_put_decimal_ull(m, " ", ticks(utime));
	seq_put_decimal_ull(m, " ", ticks(stime));
	seq_put_decimal_ll(m, " ", (long long)ticks(p->cutime_ns));
	seq_put_decimal_ll(m, " ", (long long)ticks(p->cstime_ns));
	seq_put_decimal_ll(m, " ", t->priority);
	seq_put_decimal_ll(m, " ", t->nice);
	seq_put_decimal_ll(m, " ", p->nr_threads);
	seq_put_decimal_ull(m, " ", 0); /* itrealvalue */
	seq_put_decimal_ull(m, " ", ticks(t->start_time_ns));
	seq_put_decimal_ull(m, " ", mm ? mm->vm_size * 1024 : 0);
	seq_put_decimal_ull(m, " ", mm ? mm->stat_rss : 0);
	seq_put_decimal_ull(m, " ", mach_process_rlim(p)[MACH_RLIMIT_RSS].cur);
	seq_put_decimal_ull(m, " ", mm ? (permitted ? mm->start_code : 1) : 0);
	seq_put_decimal_ull(m, " ", mm ? (permitted ? mm->end_code : 1) : 0);
	seq_put_decimal_ull(m, " ", permitted && mm ? mm->start_stack : 0);
	seq_put_decimal_ull(m, " ", permitted ? rare->kstkesp : 0);
	seq_put_decimal_ull(m, " ", permitted ? rare->kstkeip : 0);
	seq_put_decimal_ull(m, " ", t->sig_pending & STAT_SIG_MASK);
	seq_put_decimal_ull(m, " ", t->sig_blocked & STAT_SIG_MASK);
	seq_put_decimal_ull(m, " ", p->sig_ignored & STAT_SIG_MASK);
	seq_put_decimal_ull(m, " ", p->sig_caught & STAT_SIG_MASK);
	/*
	 * wchan: a 0/1 flag since 4.4 ("fs/proc, core/debug: Don't expose
	 * absolute kernel addresses via wchan"), the address before; for a
	 * whole group only when single-threaded.
	 */
	if (!c->mach->profile.stat_wchan_addr)
		seq_put_decimal_ull(m, " ", permitted && (!c->whole || p->nr_threads < 2) &&
				    t->state != MACH_TASK_RUNNING);
	else if (permitted && (!c->whole || p->nr_threads < 2))
		seq_put_decimal_ull(m, " ", rare->wchan_addr);
	else
		seq_put_decimal_ull(m, " ", UINT64_MAX); /* the address era's "none": ~0UL */
	seq_puts(m, " 0 0"); /* nswap, cnswap */
	/* only a group leader has an exit signal; the other threads show -1 */
	seq_put_decimal_ll(m, " ", t->tid == p->tgid ? p->exit_signal : -1);
	seq_put_decimal_ll(m, " ", t->processor);
	seq_put_decimal_ull(m, " ", t->rt_priority);
	seq_put_decimal_ull(m, " ", t->policy);
	seq_put_decimal_ull(m, " ", rare->delayacct_blkio_ticks);
	seq_put_decimal_ull(m, " ", ticks(gtime));
	seq_put_decimal_ll(m, " ", (long long)ticks(p->cguest_time_ns));
	/* fields 45-47 came in 3.3, 48-52 in 3.5 */
	if (c->mach->profile.stat_brk_fields) {
		if (mm && permitted) {
			seq_put_decimal_ull(m, " ", mm->start_data);
			seq_put_decimal_ull(m, " ", mm->end_data);
			seq_put_decimal_ull(m, " ", mm->start_brk);
		} else {
			seq_puts(m, " 0 0 0");
		}
	}
	if (c->mach->profile.stat_arg_fields) {
		if (mm && permitted) {
			seq_put_decimal_ull(m, " ", mm->arg_start);
			seq_put_decimal_ull(m, " ", mm->arg_end);
			seq_put_decimal_ull(m, " ", mm->env_start);
			seq_put_decimal_ull(m, " ", mm->env_end);
		} else {
			seq_puts(m, " 0 0 0 0");
		}
		if (permitted)
			seq_put_decimal_ll(m, " ", exit_code);
		else
			seq_puts(m, " 0");
	}
	seq_putc(m, '\n');
	return 0;
}
