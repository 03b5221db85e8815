// SPDX-License-Identifier: MIT
/*
 * pid_status.c - /proc/<pid>/status and /proc/<pid>/task/<tid>/status.
 *
 * Mirrors fs/proc/array.c proc_pid_status (task_name, task_state, task_mem
 * from fs/proc/task_mmu.c, task_sig, task_cap, task_seccomp, task_cpus_allowed,
 * task_context_switch_counts, arch_proc_pid_thread_features) of Linux 6.18.
 * Like the kernel, each line's newline is the start of the next line's
 * delimiter, so most lines are one putter call.  Lines the source kernel did
 * not print are left out by the machine's profile.
 */
#include "render.h"

static void show_name(struct seq_file *m, const struct mach_thread *t)
{
	seq_puts(m, "Name:\t");
	/* Only newline and backslash are escaped (SEQ_ESCAPE_SPACE|SPECIAL over "\n\\"). */
	seq_escape_str(m, mach_thread_comm(t), SEQ_ESCAPE_SPACE | SEQ_ESCAPE_SPECIAL, "\n\\");
}

SEQ_INLINE void show_ids(struct seq_file *m, const char *label, const uint32_t id[4])
{
	seq_puts(m, label);
	for (int i = 0; i < 4; i++)
		seq_put_decimal_ull(m, "\t", id[i]);
}

SEQ_INLINE void show_ns_ids(struct seq_file *m, const char *label, const pid_t *ids, unsigned int n)
{
	seq_puts(m, label);
	for (unsigned int i = 0; i < n; i++)
		seq_put_decimal_ull(m, "\t", (unsigned long long)ids[i]);
}

static void show_state(struct seq_file *m, const struct pfs_ctx *c)
{
	const struct mach_profile *pr = &c->mach->profile;
	const struct mach_process *p = c->proc;
	const struct mach_thread *t = c->thread;
	const struct mach_cred *cr = mach_thread_cred(t);

	if (pr->status_umask && t->umask >= 0) {
		/* "%#04o": always four digits with the leading 0 */
		seq_put_decimal_ull(m, "\nUmask:\t0", (unsigned long long)((t->umask >> 6) & 7));
		seq_put_decimal_ull(m, NULL, (unsigned long long)((t->umask >> 3) & 7));
		seq_put_decimal_ull(m, NULL, (unsigned long long)(t->umask & 7));
	}
	seq_puts(m, "\nState:\t");
	seq_puts(m, mach_task_state_name(t->state));
	seq_put_decimal_ull(m, "\nTgid:\t", (unsigned long long)p->tgid);
	if (pr->status_ngid)
		seq_put_decimal_ull(m, "\nNgid:\t", (unsigned long long)p->ngid);
	seq_put_decimal_ull(m, "\nPid:\t", (unsigned long long)t->tid);
	seq_put_decimal_ull(m, "\nPPid:\t", (unsigned long long)p->ppid);
	seq_put_decimal_ull(m, "\nTracerPid:\t", (unsigned long long)mach_thread_rare(t)->tracer_pid);
	show_ids(m, "\nUid:", cr->uid);
	show_ids(m, "\nGid:", cr->gid);
	seq_put_decimal_ull(m, "\nFDSize:\t", p->files ? p->files->max_fds : 0);
	seq_puts(m, "\nGroups:\t");
	for (unsigned int g = 0; g < cr->ngroups; g++)
		seq_put_decimal_ull(m, g ? " " : NULL, cr->groups[g]);
	/*
	 * The kernel's comment: the trailing space shouldn't have been added.
	 * Before 4.10 it came with each gid ("%d "), so an empty list had none.
	 */
	if (cr->ngroups || pr->status_groups_space)
		seq_putc(m, ' ');
	if (pr->status_ns_lines) {
		show_ns_ids(m, "\nNStgid:", mach_thread_ns_ids(t, MACH_NSID_TGID), t->ns_levels);
		show_ns_ids(m, "\nNSpid:", mach_thread_ns_ids(t, MACH_NSID_PID), t->ns_levels);
		show_ns_ids(m, "\nNSpgid:", mach_thread_ns_ids(t, MACH_NSID_PGID), t->ns_levels);
		show_ns_ids(m, "\nNSsid:", mach_thread_ns_ids(t, MACH_NSID_SID), t->ns_levels);
	}
	if (pr->status_kthread)
		seq_put_decimal_ull(m, "\nKthread:\t", t->kthread);
	seq_putc(m, '\n');
}

SEQ_INLINE void show_kb(struct seq_file *m, const char *label, uint64_t kb)
{
	seq_puts(m, label);
	seq_put_decimal_ull_width(m, NULL, kb, 8);
	seq_puts(m, " kB\n");
}

static void show_mem(struct seq_file *m, const struct mach_profile *pr, const struct mach_mm *mm)
{
	show_kb(m, "VmPeak:\t", mm->vm_peak);
	show_kb(m, "VmSize:\t", mm->vm_size);
	show_kb(m, "VmLck:\t", mm->vm_lck);
	if (pr->status_vmpin)
		show_kb(m, "VmPin:\t", mm->vm_pin);
	show_kb(m, "VmHWM:\t", mm->vm_hwm);
	show_kb(m, "VmRSS:\t", mm->vm_rss);
	if (pr->status_rss) {
		show_kb(m, "RssAnon:\t", mm->rss_anon);
		show_kb(m, "RssFile:\t", mm->rss_file);
		show_kb(m, "RssShmem:\t", mm->rss_shmem);
	}
	show_kb(m, "VmData:\t", mm->vm_data);
	show_kb(m, "VmStk:\t", mm->vm_stk);
	show_kb(m, "VmExe:\t", mm->vm_exe);
	show_kb(m, "VmLib:\t", mm->vm_lib);
	show_kb(m, "VmPTE:\t", mm->vm_pte);
	if (pr->status_vmpmd)
		show_kb(m, "VmPMD:\t", mm->vm_pmd);
	show_kb(m, "VmSwap:\t", mm->vm_swap);
	if (pr->status_hugetlb)
		show_kb(m, "HugetlbPages:\t", mm->hugetlb_pages);
	if (pr->status_core_dumping) {
		seq_put_decimal_ull(m, "CoreDumping:\t", mm->core_dumping);
		seq_putc(m, '\n');
	}
	if (pr->status_thp_enabled) {
		seq_put_decimal_ull(m, "THP_enabled:\t", mm->thp_enabled);
		seq_putc(m, '\n');
	}
	if (pr->status_untag_mask) {
		/* "%#lx": no 0x prefix for zero */
		seq_put_hex_ll(m, mm->untag_mask ? "untag_mask:\t0x" : "untag_mask:\t", mm->untag_mask, 0);
		seq_putc(m, '\n');
	}
}

SEQ_INLINE void show_sigmask(struct seq_file *m, const char *label, uint64_t mask, unsigned int digits)
{
	seq_put_hex_ll(m, label, mask, digits);
}

static void show_sig(struct seq_file *m, const struct pfs_ctx *c)
{
	const struct mach_process *p = c->proc;
	const struct mach_thread *t = c->thread;
	unsigned int digits = c->mach->profile.sig_hex_digits;

	seq_put_decimal_ull(m, "Threads:\t", p->nr_threads);
	seq_put_decimal_ull(m, "\nSigQ:\t", p->sigq_queued);
	seq_put_decimal_ull(m, "/", mach_process_rlim(p)[MACH_RLIMIT_SIGPENDING].cur);
	show_sigmask(m, "\nSigPnd:\t", t->sig_pending, digits);
	show_sigmask(m, "\nShdPnd:\t", p->sig_shared_pending, digits);
	show_sigmask(m, "\nSigBlk:\t", t->sig_blocked, digits);
	show_sigmask(m, "\nSigIgn:\t", p->sig_ignored, digits);
	show_sigmask(m, "\nSigCgt:\t", p->sig_caught, digits);
}

static void show_cap(struct seq_file *m, const struct mach_profile *pr, const struct mach_cred *cr)
{
	seq_put_hex_ll(m, "\nCapInh:\t", cr->cap_inh, 16);
	seq_put_hex_ll(m, "\nCapPrm:\t", cr->cap_prm, 16);
	seq_put_hex_ll(m, "\nCapEff:\t", cr->cap_eff, 16);
	seq_put_hex_ll(m, "\nCapBnd:\t", cr->cap_bnd, 16);
	if (pr->status_capamb)
		seq_put_hex_ll(m, "\nCapAmb:\t", cr->cap_amb, 16);
}

static void show_seccomp(struct seq_file *m, const struct mach_profile *pr, const struct mach_cred *cr)
{
	if (pr->status_nnp)
		seq_put_decimal_ull(m, "\nNoNewPrivs:\t", cr->no_new_privs);
	if (pr->status_seccomp)
		seq_put_decimal_ull(m, "\nSeccomp:\t", cr->seccomp_mode);
	if (pr->status_seccomp_filters)
		seq_put_decimal_ull(m, "\nSeccomp_filters:\t", cr->seccomp_filters);
	if (pr->status_ssb) {
		seq_puts(m, "\nSpeculation_Store_Bypass:\t");
		seq_puts(m, mach_ssb_name(cr->ssb));
	}
	if (pr->status_spec_ib) {
		seq_puts(m, "\nSpeculationIndirectBranch:\t");
		seq_puts(m, mach_sib_name(cr->sib));
	}
	seq_putc(m, '\n');
}

static void show_masks(struct seq_file *m, const struct mach_profile *pr, const struct mach_thread *t)
{
	seq_puts(m, "Cpus_allowed:\t");
	seq_put_bitmap(m, t->cpus_allowed.words, t->cpus_allowed.nbits);
	seq_puts(m, "\nCpus_allowed_list:\t");
	seq_put_bitmap_list(m, t->cpus_allowed.words, t->cpus_allowed.nbits);
	seq_putc(m, '\n');
	if (pr->status_mems_allowed) {
		seq_puts(m, "Mems_allowed:\t");
		seq_put_bitmap(m, t->mems_allowed.words, t->mems_allowed.nbits);
		seq_puts(m, "\nMems_allowed_list:\t");
		seq_put_bitmap_list(m, t->mems_allowed.words, t->mems_allowed.nbits);
		seq_putc(m, '\n');
	}
}

SEQ_INLINE void show_x86_features(struct seq_file *m, const char *label, unsigned int f)
{
	seq_puts(m, label);
	if (f & MACH_X86_FEAT_SHSTK)
		seq_puts(m, "shstk ");
	if (f & MACH_X86_FEAT_WRSS)
		seq_puts(m, "wrss ");
	seq_putc(m, '\n');
}

int pfs_show_pid_status(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_profile *pr = &c->mach->profile;
	const struct mach_thread *t = c->thread;
	const struct mach_mm *mm = c->proc->mm;

	(void)v;
	show_name(m, t);
	show_state(m, c);
	if (mm)
		show_mem(m, pr, mm);
	show_sig(m, c);
	show_cap(m, pr, mach_thread_cred(t));
	show_seccomp(m, pr, mach_thread_cred(t));
	show_masks(m, pr, t);
	seq_put_decimal_ull(m, "voluntary_ctxt_switches:\t", t->nvcsw);
	seq_put_decimal_ull(m, "\nnonvoluntary_ctxt_switches:\t", t->nivcsw);
	seq_putc(m, '\n');
	if (pr->status_x86_features) {
		const struct mach_cred *cr = mach_thread_cred(t);

		show_x86_features(m, "x86_Thread_features:\t", cr->x86_features);
		show_x86_features(m, "x86_Thread_features_locked:\t", cr->x86_features_locked);
	}
	return 0;
}
