// SPDX-License-Identifier: MIT
/*
 * status.c - /proc/<pid>/status as fs/proc/array.c printed it before Alexey
 * Dobriyan's 2018 "proc: faster /proc/PID/status" (seed 000): grouped
 * seq_printf calls with "%d", "%8lu kB", "%016llx" and the bitmap through
 * per-chunk "%x"/"%08x".  Same bytes as src/procfs/pid_status.c.
 */
#include "before.h"

static void before_bitmap(struct seq_file *m, const struct mach_bitmap *b)
{
	unsigned int top = b->nbits % 32 ? b->nbits % 32 : 32;
	int chunk = (int)((b->nbits + 31) / 32) - 1;

	for (; chunk >= 0; chunk--) {
		uint64_t word = b->words[chunk / 2] >> (32 * (chunk % 2));
		unsigned int bits = chunk == (int)((b->nbits + 31) / 32) - 1 ? top : 32;
		uint32_t v = (uint32_t)(word & ((1ull << bits) - 1));

		before_seq_printf(m, chunk ? "%0*x," : "%0*x", (int)((bits + 3) / 4), v);
	}
}

static void before_bitmap_list(struct seq_file *m, const struct mach_bitmap *b)
{
	const char *sep = "";

	for (unsigned int i = 0; i < b->nbits; i++) {
		unsigned int j;

		if (!mach_bitmap_test(b, i))
			continue;
		for (j = i; j + 1 < b->nbits && mach_bitmap_test(b, j + 1); j++)
			;
		if (j > i)
			before_seq_printf(m, "%s%u-%u", sep, i, j);
		else
			before_seq_printf(m, "%s%u", sep, i);
		sep = ",";
		i = j;
	}
}

int before_show_pid_status(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_profile *pr = &c->mach->profile;
	const struct mach_process *p = c->proc;
	const struct mach_thread *t = c->thread;
	const struct mach_cred *cr = mach_thread_cred(t);
	const struct mach_mm *mm = p->mm;
	int digits = (int)pr->sig_hex_digits;

	(void)v;
	seq_puts(m, "Name:\t");
	seq_escape_str(m, mach_thread_comm(t), SEQ_ESCAPE_SPACE | SEQ_ESCAPE_SPECIAL, "\n\\");
	seq_putc(m, '\n');
	if (pr->status_umask && t->umask >= 0)
		before_seq_printf(m, "Umask:\t%#04o\n", t->umask);
	before_seq_printf(m, "State:\t%s\n", mach_task_state_name(t->state));
	before_seq_printf(m, "Tgid:\t%d\n", (int)p->tgid);
	if (pr->status_ngid)
		before_seq_printf(m, "Ngid:\t%d\n", (int)p->ngid);
	before_seq_printf(m,
			  "Pid:\t%d\nPPid:\t%d\nTracerPid:\t%d\nUid:\t%u\t%u\t%u\t%u\n"
			  "Gid:\t%u\t%u\t%u\t%u\nFDSize:\t%u\nGroups:\t",
			  (int)t->tid, (int)p->ppid, (int)mach_thread_rare(t)->tracer_pid, cr->uid[0], cr->uid[1],
			  cr->uid[2], cr->uid[3], cr->gid[0], cr->gid[1], cr->gid[2], cr->gid[3], p->files ? p->files->max_fds : 0);
	for (unsigned int g = 0; g < cr->ngroups; g++)
		before_seq_printf(m, g ? " %u" : "%u", cr->groups[g]);
	seq_putc(m, ' ');
	if (pr->status_ns_lines) {
		static const char *const labels[] = { "\nNStgid:", "\nNSpid:", "\nNSpgid:", "\nNSsid:" };
		const pid_t *ids[] = { mach_thread_ns_ids(t, MACH_NSID_TGID), mach_thread_ns_ids(t, MACH_NSID_PID),
					mach_thread_ns_ids(t, MACH_NSID_PGID), mach_thread_ns_ids(t, MACH_NSID_SID) };
		for (int k = 0; k < 4; k++) {
			seq_puts(m, labels[k]);
			for (unsigned int i = 0; i < t->ns_levels; i++)
				before_seq_printf(m, "\t%d", (int)ids[k][i]);
		}
	}
	if (pr->status_kthread)
		before_seq_printf(m, "\nKthread:\t%d", t->kthread);
	seq_putc(m, '\n');
	if (mm) {
		before_seq_printf(m,
				  "VmPeak:\t%8lu kB\nVmSize:\t%8lu kB\nVmLck:\t%8lu kB\nVmPin:\t%8lu kB\n"
				  "VmHWM:\t%8lu kB\nVmRSS:\t%8lu kB\nRssAnon:\t%8lu kB\nRssFile:\t%8lu kB\n"
				  "RssShmem:\t%8lu kB\nVmData:\t%8lu kB\nVmStk:\t%8lu kB\nVmExe:\t%8lu kB\n"
				  "VmLib:\t%8lu kB\nVmPTE:\t%8lu kB\nVmSwap:\t%8lu kB\n",
				  mm->vm_peak, mm->vm_size, mm->vm_lck, mm->vm_pin, mm->vm_hwm, mm->vm_rss,
				  mm->rss_anon, mm->rss_file, mm->rss_shmem, mm->vm_data, mm->vm_stk,
				  mm->vm_exe, mm->vm_lib, mm->vm_pte, mm->vm_swap);
		if (pr->status_hugetlb)
			before_seq_printf(m, "HugetlbPages:\t%8lu kB\n", mm->hugetlb_pages);
		if (pr->status_core_dumping)
			before_seq_printf(m, "CoreDumping:\t%d\n", mm->core_dumping);
		if (pr->status_thp_enabled)
			before_seq_printf(m, "THP_enabled:\t%d\n", mm->thp_enabled);
		if (pr->status_untag_mask)
			before_seq_printf(m, "untag_mask:\t%#lx\n", mm->untag_mask);
	}
	before_seq_printf(m, "Threads:\t%u\nSigQ:\t%lu/%lu\n", p->nr_threads, p->sigq_queued, mach_process_rlim(p)[MACH_RLIMIT_SIGPENDING].cur);
	before_seq_printf(m, "SigPnd:\t%0*lx\nShdPnd:\t%0*lx\nSigBlk:\t%0*lx\nSigIgn:\t%0*lx\nSigCgt:\t%0*lx\n",
			  digits, t->sig_pending, digits, p->sig_shared_pending, digits, t->sig_blocked,
			  digits, p->sig_ignored, digits, p->sig_caught);
	before_seq_printf(m, "CapInh:\t%016lx\nCapPrm:\t%016lx\nCapEff:\t%016lx\nCapBnd:\t%016lx\nCapAmb:\t%016lx\n",
			  cr->cap_inh, cr->cap_prm, cr->cap_eff, cr->cap_bnd, cr->cap_amb);
	before_seq_printf(m, "NoNewPrivs:\t%d\n", cr->no_new_privs);
	if (pr->status_seccomp)
		before_seq_printf(m, "Seccomp:\t%u\n", cr->seccomp_mode);
	if (pr->status_seccomp_filters)
		before_seq_printf(m, "Seccomp_filters:\t%u\n", cr->seccomp_filters);
	before_seq_printf(m, "Speculation_Store_Bypass:\t%s\n", mach_ssb_name(cr->ssb));
	if (pr->status_spec_ib)
		before_seq_printf(m, "SpeculationIndirectBranch:\t%s\n", mach_sib_name(cr->sib));
	seq_puts(m, "Cpus_allowed:\t");
	before_bitmap(m, &t->cpus_allowed);
	seq_puts(m, "\nCpus_allowed_list:\t");
	before_bitmap_list(m, &t->cpus_allowed);
	seq_putc(m, '\n');
	if (pr->status_mems_allowed) {
		seq_puts(m, "Mems_allowed:\t");
		before_bitmap(m, &t->mems_allowed);
		seq_puts(m, "\nMems_allowed_list:\t");
		before_bitmap_list(m, &t->mems_allowed);
		seq_putc(m, '\n');
	}
	before_seq_printf(m, "voluntary_ctxt_switches:\t%lu\nnonvoluntary_ctxt_switches:\t%lu\n",
			  t->nvcsw, t->nivcsw);
	if (pr->status_x86_features) {
		before_seq_printf(m, "x86_Thread_features:\t%s%s\n",
				  cr->x86_features & MACH_X86_FEAT_SHSTK ? "shstk " : "",
				  cr->x86_features & MACH_X86_FEAT_WRSS ? "wrss " : "");
		before_seq_printf(m, "x86_Thread_features_locked:\t%s%s\n",
				  cr->x86_features_locked & MACH_X86_FEAT_SHSTK ? "shstk " : "",
				  cr->x86_features_locked & MACH_X86_FEAT_WRSS ? "wrss " : "");
	}
	return 0;
}
