// SPDX-License-Identifier: MIT
/*
 * pid_assemble_build.c - a process's threads and mm, built from records
 * that pid_assemble.c found to agree.
 *
 * Each value is taken from the one record that speaks for it (the first
 * status, the first stat, a thread's own stat); status wins where it and
 * stat say the same.  What stat sums over the threads is split into the
 * live threads' own counts and what exited ones left (dead_*).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pid_assemble.h"

/* Move what a status said about a thread into @t. */
static int thread_from_status(struct mach_thread *t, struct ld_status *s)
{
	struct mach_cred *cr = mach_thread_cred_mut(t);
	int rc;

	if (!cr)
		return -ENOMEM;
	if ((rc = mach_thread_set_comm(t, s->name, strlen(s->name))))
		return rc;
	t->state = (enum mach_task_state)s->v[ST_STATE][0];
	t->umask = s->present[ST_UMASK] ? (int)s->v[ST_UMASK][0] : -1;
	{
		struct mach_thread_rare r = *mach_thread_rare(t);

		r.tracer_pid = (pid_t)s->v[ST_TRACERPID][0];
		if ((rc = mach_thread_rare_set(t, &r)))
			return rc;
	}
	for (int k = 0; k < 4; k++) {
		cr->uid[k] = (uint32_t)s->v[ST_UID][k];
		cr->gid[k] = (uint32_t)s->v[ST_GID][k];
	}
	free(cr->groups);
	cr->ngroups = s->ngroups;
	cr->groups = s->groups;
	s->groups = NULL;
	s->ngroups = 0;
	if ((rc = mach_thread_ns_set(t, s->present[ST_NSTGID] ? s->ns_levels : 0,
				     (const pid_t (*)[MACH_NS_LEVELS_MAX])s->ns)))
		return rc;
	if (s->present[ST_KTHREAD])
		t->kthread = s->v[ST_KTHREAD][0];
	t->sig_pending = s->v[ST_SIGPND][0];
	t->sig_blocked = s->v[ST_SIGBLK][0];
	cr->cap_inh = s->v[ST_CAPINH][0];
	cr->cap_prm = s->v[ST_CAPPRM][0];
	cr->cap_eff = s->v[ST_CAPEFF][0];
	cr->cap_bnd = s->v[ST_CAPBND][0];
	cr->cap_amb = s->v[ST_CAPAMB][0];
	cr->no_new_privs = s->v[ST_NNP][0];
	cr->seccomp_mode = (unsigned int)s->v[ST_SECCOMP][0];
	cr->seccomp_filters = (unsigned int)s->v[ST_SECCOMP_FILTERS][0];
	cr->ssb = (enum mach_spec_store_bypass)s->v[ST_SSB][0];
	cr->sib = s->present[ST_SIB] ? (enum mach_spec_indirect_branch)s->v[ST_SIB][0]
				    : MACH_SIB_UNSUPPORTED;
	t->cpus_allowed = s->cpus;
	t->mems_allowed = s->mems;
	memset(&s->cpus, 0, sizeof(s->cpus));
	memset(&s->mems, 0, sizeof(s->mems));
	t->nvcsw = s->v[ST_VCSW][0];
	t->nivcsw = s->v[ST_NVCSW][0];
	cr->x86_features = (unsigned int)s->v[ST_X86][0];
	cr->x86_features_locked = (unsigned int)s->v[ST_X86_LOCKED][0];
	return 0;
}

/* The thread-level stat fields (the whole file gives the leader's): 0 or -ENOMEM. */
static int thread_from_stat(struct mach_thread *t, const struct ld_stat *s, bool with_status)
{
	struct mach_thread_rare r = *mach_thread_rare(t);

	if (!with_status) {
		int rc = mach_thread_set_comm(t, s->comm, strlen(s->comm));

		if (rc)
			return rc;
		t->state = s->state;
		t->umask = -1;
		t->sig_pending = s->f[LD_STAT_SIGNAL];
		t->sig_blocked = s->f[LD_STAT_BLOCKED];
	}
	/* the Kthread: line, when the profile has it, says the same */
	t->kthread = !!(s->f[LD_STAT_FLAGS] & LD_PF_KTHREAD);
	t->pf_flags = (unsigned int)s->f[LD_STAT_FLAGS];
	t->priority = (int)ld_sf_s(s, LD_STAT_PRIORITY);
	t->nice = (int)ld_sf_s(s, LD_STAT_NICE);
	t->start_time_ns = s->f[LD_STAT_STARTTIME] * MACH_NSEC_PER_TICK;
	r.kstkesp = s->f[LD_STAT_KSTKESP];
	r.kstkeip = s->f[LD_STAT_KSTKEIP];
	t->processor = (int)ld_sf_s(s, LD_STAT_PROCESSOR);
	t->rt_priority = (unsigned int)s->f[LD_STAT_RT_PRIORITY];
	t->policy = (unsigned int)s->f[LD_STAT_POLICY];
	r.delayacct_blkio_ticks = s->f[LD_STAT_DELAYACCT_BLKIO_TICKS];
	return mach_thread_rare_set(t, &r);
}

/* The fields of a thread's own task/<tid>/stat: 0 or -ENOMEM. */
static int own_from_stat(struct mach_thread *t, const struct ld_stat *s)
{
	struct mach_thread_rare r = *mach_thread_rare(t);

	t->minflt = s->f[LD_STAT_MINFLT];
	t->majflt = s->f[LD_STAT_MAJFLT];
	t->utime_ns = s->f[LD_STAT_UTIME] * MACH_NSEC_PER_TICK;
	t->stime_ns = s->f[LD_STAT_STIME] * MACH_NSEC_PER_TICK;
	r.guest_time_ns = s->f[LD_STAT_GUEST_TIME] * MACH_NSEC_PER_TICK;
	r.wchan_addr = s->f[LD_STAT_WCHAN];
	t->exit_code = (int)ld_sf_s(s, LD_STAT_EXIT_CODE);
	return mach_thread_rare_set(t, &r);
}

/*
 * The whole-process sums: minflt, majflt and guest time keep what exited
 * threads left (dead_*) beyond the live threads' own.
 */
static int aggregates(const struct ld_msg *ms, struct mach_process *p, const struct thr *th,
		      const struct ld_stat *whole)
{
	const struct thr *lead = &th[0];
	uint64_t sum[3] = { 0, 0, 0 };
	char what[64];
	static const enum ld_stat_field fld[3] = { LD_STAT_MINFLT, LD_STAT_MAJFLT,
						   LD_STAT_GUEST_TIME };
	unsigned int n = p->nthreads;

	for (unsigned int i = 0; i < n; i++) {
		if (!th[i].stat)
			continue;
		for (int k = 0; k < 3; k++) {
			if (sum[k] + th[i].stat->f[fld[k]] < sum[k])
				return ld_say(ms, -EINVAL, "%s:%u: the threads' %s overflow", whole->path,
					      whole->line[fld[k]], ld_sf_defs[fld[k]].name);
			sum[k] += th[i].stat->f[fld[k]];
		}
	}
	for (int k = 0; k < 3; k++)
		if (whole->f[fld[k]] < sum[k]) {
			/* any of them may be the younger: a thread's count that grew after the whole was read */
			ld_blame_add(ms, whole->path);
			for (unsigned int i = 0; i < n; i++)
				if (th[i].stat)
					ld_blame_add(ms, th[i].stat->path);
			return ld_say(ms, -EINVAL,
				      "%s:%u: %s %" PRIu64
				      " is below the sum over its threads' task/*/stat, %" PRIu64,
				      whole->path, whole->line[fld[k]], ld_sf_what(fld[k], what),
				      whole->f[fld[k]], sum[k]);
		}
	if (!lead->stat) {
		struct mach_thread_rare lead_rare = *mach_thread_rare(&p->threads[0]);
		uint64_t w = whole->f[LD_STAT_WCHAN];

		/* a group of several threads shows no wchan: 0 (a flag), or ~0UL before 4.4 */
		if (ld_sf_s(whole, LD_STAT_NUM_THREADS) >= 2 && w && w != UINT64_MAX)
			return ld_say(ms, -EINVAL, "%s:%u: wchan %" PRIu64 " for a process of %" PRId64 " threads, "
				      "which shows none", whole->path, whole->line[LD_STAT_WCHAN], w,
				      ld_sf_s(whole, LD_STAT_NUM_THREADS));
		/* no task/<tgid>/stat: the leader gets what the others leave */
		p->threads[0].minflt = whole->f[LD_STAT_MINFLT] - sum[0];
		p->threads[0].majflt = whole->f[LD_STAT_MAJFLT] - sum[1];
		p->threads[0].utime_ns = whole->f[LD_STAT_UTIME] * MACH_NSEC_PER_TICK;
		p->threads[0].stime_ns = whole->f[LD_STAT_STIME] * MACH_NSEC_PER_TICK;
		lead_rare.guest_time_ns = (whole->f[LD_STAT_GUEST_TIME] - sum[2]) * MACH_NSEC_PER_TICK;
		lead_rare.wchan_addr = ld_sf_s(whole, LD_STAT_NUM_THREADS) < 2 ? whole->f[LD_STAT_WCHAN] : 0;
		if (mach_thread_rare_set(&p->threads[0], &lead_rare))
			return -ENOMEM;
		/* the group's exit code stands in for the leader's own */
		p->threads[0].exit_code = (int)ld_sf_s(whole, LD_STAT_EXIT_CODE);
		sum[0] = whole->f[LD_STAT_MINFLT];
		sum[1] = whole->f[LD_STAT_MAJFLT];
		sum[2] = whole->f[LD_STAT_GUEST_TIME];
	}
	p->dead_minflt = whole->f[LD_STAT_MINFLT] - sum[0];
	p->dead_majflt = whole->f[LD_STAT_MAJFLT] - sum[1];
	p->group_utime_ns = whole->f[LD_STAT_UTIME] * MACH_NSEC_PER_TICK;
	p->group_stime_ns = whole->f[LD_STAT_STIME] * MACH_NSEC_PER_TICK;

	/*
	 * Guest time is summed in nanoseconds and converted once; what the whole
	 * file shows beyond its threads' ticks (sub-tick remainders, exited
	 * threads' sig->gtime) is kept as dead_guest_time_ns.
	 */
	p->dead_guest_time_ns = (whole->f[LD_STAT_GUEST_TIME] - sum[2]) * MACH_NSEC_PER_TICK;

	/* wchan: the whole file shows the leader's only for a single-threaded process */
	if (lead->stat) {
		const struct ld_stat *ls = lead->stat;
		/* before 4.4 a wchan not shown is ~0UL (do_task_stat's initial value), since 0 */
		uint64_t none = whole->f[LD_STAT_WCHAN] == UINT64_MAX ? UINT64_MAX : 0;
		uint64_t want = !p->stat_hidden && ld_sf_s(whole, LD_STAT_NUM_THREADS) < 2
					? ls->f[LD_STAT_WCHAN] : none;

		if (whole->f[LD_STAT_WCHAN] != want)
			return ld_disagree_u(ms, whole->path, whole->line[LD_STAT_WCHAN], ls->path,
					     ls->line[LD_STAT_WCHAN], ld_sf_what(LD_STAT_WCHAN, what),
					     whole->f[LD_STAT_WCHAN], ls->f[LD_STAT_WCHAN]);
	}
	return 0;
}

/* The number of threads the process says it has, or that task/ holds. */
static unsigned int nr_threads(const struct asm_ctx *a)
{
	if (a->rs)
		return (unsigned int)a->rs->v[ST_THREADS][0];
	if (a->ts)
		return (unsigned int)ld_sf_s(a->ts, LD_STAT_NUM_THREADS);
	return a->n;
}

int ld_asm_build_threads(struct asm_ctx *a)
{
	struct mach_process *out = a->out;
	int rc;

	out->tgid = a->lp->tgid;
	out->threads = calloc(a->n, sizeof(*out->threads));
	if (!out->threads)
		return -ENOMEM;
	out->nthreads = a->n;
	out->nr_threads = nr_threads(a);
	for (unsigned int i = 0; i < a->n; i++) {
		const struct thr *th = &a->th[i];
		struct mach_thread *t = &out->threads[i];
		/* the status's groups and bitmaps move into the thread */
		struct ld_status *s = (struct ld_status *)th->status;

		t->tid = th->tid;
		t->umask = -1;
		if (th->tstat && (rc = thread_from_stat(t, th->tstat, s != NULL)))
			return rc;
		if (s && (rc = thread_from_status(t, s)))
			return rc;
		if (!s && !th->tstat && th->comm && (rc = mach_thread_set_comm(t, th->comm->buf, th->comm->len)))
			return rc;
		if (th->stat && (rc = own_from_stat(t, th->stat)))
			return rc;
	}
	return 0;
}

/* The process-wide values of stat, and the sums over its threads. */
int ld_asm_build_from_stat(struct asm_ctx *a)
{
	const struct ld_stat *ts = a->ts, *whole = a->lp->whole.stat;
	struct mach_process *out = a->out;

	if (!ts)
		return 0;
	out->ppid = (pid_t)ld_sf_s(ts, LD_STAT_PPID);
	out->pgrp = (pid_t)ld_sf_s(ts, LD_STAT_PGRP);
	out->session = (pid_t)ld_sf_s(ts, LD_STAT_SESSION);
	out->tty_nr = (int)ld_sf_s(ts, LD_STAT_TTY_NR);
	out->tpgid = (pid_t)ld_sf_s(ts, LD_STAT_TPGID);
	out->cminflt = ts->f[LD_STAT_CMINFLT];
	out->cmajflt = ts->f[LD_STAT_CMAJFLT];
	out->cutime_ns = ts->f[LD_STAT_CUTIME] * MACH_NSEC_PER_TICK;
	out->cstime_ns = ts->f[LD_STAT_CSTIME] * MACH_NSEC_PER_TICK;
	if (!mach_process_rlim_mut(out))
		return -ENOMEM;
	out->rlim[MACH_RLIMIT_RSS].cur = ts->f[LD_STAT_RSSLIM];
	out->sig_ignored = ts->f[LD_STAT_SIGIGNORE];
	out->sig_caught = ts->f[LD_STAT_SIGCATCH];
	out->cguest_time_ns = ts->f[LD_STAT_CGUEST_TIME] * MACH_NSEC_PER_TICK;
	out->exit_code = (int)ld_sf_s(whole ? whole : ts, LD_STAT_EXIT_CODE);
	/* the leader's; a thread's own stat shows -1 */
	out->exit_signal = a->th[0].tstat ? (int)ld_sf_s(a->th[0].tstat, LD_STAT_EXIT_SIGNAL) : 0;
	out->stat_hidden = a->hidden;
	if (whole)
		return aggregates(&a->ms, out, a->th, whole);
	for (unsigned int i = 0; i < a->n; i++) {
		out->group_utime_ns += out->threads[i].utime_ns;
		out->group_stime_ns += out->threads[i].stime_ns;
	}
	return 0;
}

/* The process-wide values of status; where stat says the same, status wins. */
int ld_asm_build_from_status(struct asm_ctx *a)
{
	const struct ld_status *rs = a->rs;
	struct mach_process *out = a->out;

	if (!rs)
		return 0;
	out->ppid = (pid_t)rs->v[ST_PPID][0];
	out->ngid = (pid_t)rs->v[ST_NGID][0];
	/* FDSize 0: no files_struct (a zombie); otherwise the table, its fds read later */
	if (rs->v[ST_FDSIZE][0]) {
		out->files = mach_files_new();
		if (!out->files)
			return -ENOMEM;
		out->files->max_fds = (unsigned int)rs->v[ST_FDSIZE][0];
	}
	out->sigq_queued = rs->v[ST_SIGQ][0];
	if (!mach_process_rlim_mut(out))
		return -ENOMEM;
	out->rlim[MACH_RLIMIT_SIGPENDING].cur = rs->v[ST_SIGQ][1];
	out->sig_shared_pending = rs->v[ST_SHDPND][0];
	out->sig_ignored = rs->v[ST_SIGIGN][0];
	out->sig_caught = rs->v[ST_SIGCGT][0];
	return 0;
}

static void mm_from_status(struct mach_mm *mm, const struct ld_status *rs)
{
	mm->vm_peak = rs->v[ST_VMPEAK][0];
	mm->vm_size = rs->v[ST_VMSIZE][0];
	mm->vm_lck = rs->v[ST_VMLCK][0];
	mm->vm_pin = rs->v[ST_VMPIN][0];
	mm->vm_hwm = rs->v[ST_VMHWM][0];
	mm->vm_rss = rs->v[ST_VMRSS][0];
	mm->rss_anon = rs->v[ST_RSSANON][0];
	mm->rss_file = rs->v[ST_RSSFILE][0];
	mm->rss_shmem = rs->v[ST_RSSSHMEM][0];
	mm->vm_data = rs->v[ST_VMDATA][0];
	mm->vm_stk = rs->v[ST_VMSTK][0];
	mm->vm_exe = rs->v[ST_VMEXE][0];
	mm->vm_lib = rs->v[ST_VMLIB][0];
	mm->vm_pte = rs->v[ST_VMPTE][0];
	mm->vm_pmd = rs->v[ST_VMPMD][0];
	mm->vm_swap = rs->v[ST_VMSWAP][0];
	mm->hugetlb_pages = rs->v[ST_HUGETLB][0];
	mm->core_dumping = rs->v[ST_COREDUMP][0];
	mm->thp_enabled = rs->v[ST_THP][0];
	/* untag_mask is all ones on x86 unless LAM is enabled */
	mm->untag_mask = rs->present[ST_UNTAG] ? rs->v[ST_UNTAG][0] : UINT64_MAX;
}

static void mm_from_stat(struct mach_mm *mm, const struct ld_stat *ts, bool hidden)
{
	mm->stat_rss = ts->f[LD_STAT_RSS];
	if (hidden)
		return;
	mm->start_code = ts->f[LD_STAT_STARTCODE];
	mm->end_code = ts->f[LD_STAT_ENDCODE];
	mm->start_stack = ts->f[LD_STAT_STARTSTACK];
	mm->start_data = ts->f[LD_STAT_START_DATA];
	mm->end_data = ts->f[LD_STAT_END_DATA];
	mm->start_brk = ts->f[LD_STAT_START_BRK];
	mm->arg_start = ts->f[LD_STAT_ARG_START];
	mm->arg_end = ts->f[LD_STAT_ARG_END];
	mm->env_start = ts->f[LD_STAT_ENV_START];
	mm->env_end = ts->f[LD_STAT_ENV_END];
}

/*
 * A process read without its status (a partial tree): the sizes statm and
 * stat print come from them.  statm's data is VmData + VmStk, taken as
 * data; its shared as file pages.  Values a page size other than 4 KiB
 * would give are refused.
 */
static int mm_without_status(struct asm_ctx *a, struct mach_mm *mm)
{
	const struct ld_statm *rm = a->rm;
	const struct ld_stat *ts = a->ts;

	if (rm) {
		const uint64_t *v = rm->v;

		if (v[LD_STATM_SIZE] > UINT64_MAX / 4 || v[LD_STATM_RESIDENT] > UINT64_MAX / 4 ||
		    v[LD_STATM_DATA] > UINT64_MAX / 4 || v[LD_STATM_SHARED] > v[LD_STATM_RESIDENT])
			return ld_say(&a->ms, -EINVAL, "%s:1: statm counts out of range (shared above resident?)",
				      rm->path);
		mm->vm_size = v[LD_STATM_SIZE] * 4;
		mm->vm_rss = v[LD_STATM_RESIDENT] * 4;
		mm->rss_file = v[LD_STATM_SHARED] * 4;
		mm->rss_anon = mm->vm_rss - mm->rss_file;
		mm->vm_data = v[LD_STATM_DATA] * 4;
	}
	if (ts && !rm) {
		if (ts->f[LD_STAT_VSIZE] % MACH_PAGE_SIZE)
			return ld_say(&a->ms, -EINVAL, "%s:%u: vsize %" PRIu64 " is no whole number of %u-byte pages",
				      ts->path, ts->line[LD_STAT_VSIZE], ts->f[LD_STAT_VSIZE], MACH_PAGE_SIZE);
		mm->vm_size = ts->f[LD_STAT_VSIZE] / 1024;
	}
	if (ts && rm && ts->f[LD_STAT_VSIZE] != mm->vm_size * 1024)
		return ld_disagree_u(&a->ms, ts->path, ts->line[LD_STAT_VSIZE], rm->path, 1, "vsize in bytes",
				     ts->f[LD_STAT_VSIZE], mm->vm_size * 1024);
	mm->vm_peak = mm->vm_size;
	mm->vm_hwm = mm->vm_rss;
	mm->untag_mask = UINT64_MAX;
	return 0;
}

/* The mm, from every file that describes it; maps and cmdline move into it. */
int ld_asm_build_mm(struct asm_ctx *a)
{
	struct mach_mm *mm;
	int rc;

	if (!a->has_mm)
		return 0;
	mm = mach_mm_new();
	if (!mm)
		return -ENOMEM;
	a->out->mm = mm;
	if (a->rs)
		mm_from_status(mm, a->rs);
	else if ((rc = mm_without_status(a, mm)))
		return rc;
	if (a->rm)
		mm->statm_text = a->rm->v[LD_STATM_TEXT];
	if (a->rs && !a->rs->present[ST_RSSANON]) {
		/*
		 * A status before 4.5 does not split VmRSS: statm's shared is
		 * the file pages (shmem counted with them then), the rest anon.
		 */
		mm->rss_file = a->rm ? a->rm->v[LD_STATM_SHARED] * 4 : 0;
		mm->rss_shmem = 0;
		mm->rss_anon = mm->vm_rss - mm->rss_file;
	}
	if (a->ts)
		mm_from_stat(mm, a->ts, a->hidden);
	if (a->rmaps) {
		mm->vmas = a->rmaps->vmas;
		mm->nvmas = a->rmaps->n;
		a->rmaps->vmas = NULL;
		a->rmaps->n = 0;
	}
	if (a->rcmd) {
		mm->cmdline = a->rcmd->buf;
		mm->cmdline_len = a->rcmd->len;
		a->rcmd->buf = NULL;
		a->rcmd->len = 0;
	}
	return 0;
}
