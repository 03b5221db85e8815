// SPDX-License-Identifier: MIT
/*
 * pid_assemble.c - one process's records, checked against each other and
 * turned into a struct mach_process.
 *
 * A process is built only when its files agree, so the renderers, which
 * print each fact from one place in the model, reproduce every file.
 * Disagreement is -EINVAL naming both files; on a live tree it means the
 * process changed between two reads and the caller reads it again.  Files
 * that agree with the kernel but that the model cannot hold give -ENOTSUP.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_int.h"
#include "load_mmsched.h"

/* ------------------------------------------------------------------ */
/* Assembly                                                             */

/* One thread and the records that describe it. */
struct thr {
	pid_t tid;
	const struct ld_status *status;
	const struct ld_stat *stat;  /* its own values (task/<tid>/stat), or NULL */
	const struct ld_stat *tstat; /* thread-level fields: own, else the whole file's */
	const struct ld_bytes *comm;
};

/* One process being assembled: its records, and what the checks found out. */
struct asm_ctx {
	struct ld_msg ms;
	const struct mach_loader *ld;
	struct ld_pid *lp;
	struct ld_commit *cm;
	struct mach_process *out;
	struct ld_task *lt;            /* task/<tgid>/: the leader's second set of files, or NULL */
	struct thr *th;                /* the leader, then the other threads by tid */
	unsigned int n;
	/* the first record of each kind speaks for the process once all agree */
	const struct ld_status *rs;
	const struct ld_stat *ts;
	const struct ld_statm *rm;
	struct ld_maps *rmaps;
	struct ld_bytes *rcmd;
	bool hidden;                   /* stat masked: the reader may not ptrace the task */
	bool has_mm;
};

/* The whole files (@i 0), then each task/<tid>/ slot. */
static struct ld_task *task_at(struct ld_pid *lp, size_t i)
{
	return i ? &lp->tasks[i - 1] : &lp->whole;
}

static int tid_cmp(const void *a, const void *b)
{
	pid_t x = ((const struct ld_task *)a)->tid, y = ((const struct ld_task *)b)->tid;

	return (x > y) - (x < y);
}

static const enum ld_st dec_line[LD_NR_DEC] = {
	[DEC_UMASK] = ST_UMASK, [DEC_NGID] = ST_NGID, [DEC_NS] = ST_NSTGID,
	[DEC_KTHREAD] = ST_KTHREAD, [DEC_HUGETLB] = ST_HUGETLB, [DEC_COREDUMP] = ST_COREDUMP,
	[DEC_THP] = ST_THP, [DEC_UNTAG] = ST_UNTAG, [DEC_SECCOMP] = ST_SECCOMP,
	[DEC_SECCOMP_FILTERS] = ST_SECCOMP_FILTERS, [DEC_SIB] = ST_SIB, [DEC_MEMS] = ST_MEMS,
	[DEC_X86] = ST_X86, [DEC_VMPIN] = ST_VMPIN, [DEC_RSS] = ST_RSSANON, [DEC_VMPMD] = ST_VMPMD,
	[DEC_CAPAMB] = ST_CAPAMB, [DEC_NNP] = ST_NNP, [DEC_SSB] = ST_SSB,
	[DEC_GROUPS_SPACE] = ST_GROUPS,
};

/*
 * Decision @f of the kernel profile from @by: the first file that shows it
 * decides; a later one that says otherwise is refused.  NULL when it agrees
 * (or decided), else the decider's name (its message is the caller's).
 */
static const char *decide_one(const struct mach_loader *ld, struct ld_commit *cm, int f, bool val, const char *by)
{
	const struct ld_decision *d = ld->dec[f].val >= 0 ? &ld->dec[f] : cm->dec[f].val >= 0 ? &cm->dec[f] : NULL;

	if (!d) {
		cm->dec[f].val = val;
		cm->dec[f].by = (char *)by;
		return NULL;
	}
	return d->val != val ? (d->by ? d->by : "an earlier file") : NULL;
}

/* The first status that shows, or could show, an optional line decides the profile. */
static int decide(const struct ld_msg *ms, const struct mach_loader *ld, struct ld_commit *cm,
		  const struct ld_status *s)
{
	for (int f = 0; f < DEC_STAT_BRK; f++) {
		enum ld_st line = dec_line[f];
		bool val = s->present[line];
		const char *by;

		/* Umask: absent whenever the task has no fs_struct, so absence decides nothing */
		if (f == DEC_UMASK && !val)
			continue;
		if ((ld_st_defs[line].flags & STF_MM) && !s->present[ST_VMPEAK])
			continue;
		/* the Groups: format shows only in an empty list */
		if (f == DEC_GROUPS_SPACE) {
			if (s->groups_space < 0)
				continue;
			val = s->groups_space;
		}
		if (!(by = decide_one(ld, cm, f, val, s->path)))
			continue;
		if (f == DEC_GROUPS_SPACE)
			return ld_say(ms, -EINVAL, "%s:%u: an empty Groups: list %s, but in %s, which decided the "
				      "kernel profile, it %s", s->path, s->line[line],
				      val ? "ends in a space" : "ends after the tab", by, val ? "does not" : "does");
		return ld_say(ms, -EINVAL, "%s:%u: %s \"%s\" line, but %s, which decided the kernel profile, %s",
			      s->path, val ? s->line[line] : 1, val ? "has a" : "has no", ld_st_defs[line].label, by,
			      val ? "has none" : "has one");
	}
	return 0;
}

/*
 * What a stat line says of the kernel: how many fields it prints (44 before
 * 3.3, 47 before 3.5, 52 since) and whether field 35 is the wchan address
 * (before 4.4) or a 0/1 flag: a value above 1 is an address, a 1 a flag.
 */
static int decide_stat(const struct ld_msg *ms, const struct mach_loader *ld, struct ld_commit *cm,
		       const struct ld_stat *t)
{
	static const char *const what[] = { "start_data, end_data and start_brk (fields 45-47)",
					    "arg_start .. exit_code (fields 48-52)" };
	uint64_t w = t->f[LD_STAT_WCHAN];
	const char *by;

	for (int k = 0; k < 2; k++) {
		bool val = t->nfields >= (k ? 52 : 47);

		if ((by = decide_one(ld, cm, DEC_STAT_BRK + k, val, t->path)))
			return ld_say(ms, -EINVAL, "%s:1: %u fields: %s %s, but %s, which decided the kernel profile, "
				      "%s", t->path, t->nfields, val ? "has" : "lacks", what[k], by,
				      val ? "lacks them" : "has them");
	}
	if (w && (by = decide_one(ld, cm, DEC_STAT_WCHAN_ADDR, w > 1, t->path)))
		return ld_say(ms, -EINVAL, "%s:%u: wchan %" PRIu64 " is %s, but %s, which decided the kernel "
			      "profile, %s", t->path, t->line[LD_STAT_WCHAN], w, w > 1 ? "an address" : "a flag",
			      by, w > 1 ? "has a flag" : "has an address");
	return 0;
}

/*
 * Whether field 35 is an address: as this process or an earlier one decided,
 * else as the machine loaded before said (all zeros decide nothing).
 */
static bool wchan_is_addr(const struct mach_loader *ld, const struct ld_commit *cm)
{
	const struct ld_decision *d = &ld->dec[DEC_STAT_WCHAN_ADDR];

	if (d->val < 0)
		d = &cm->dec[DEC_STAT_WCHAN_ADDR];
	return d->val >= 0 ? d->val > 0 : ld->m->profile.stat_wchan_addr;
}

static const char *path_of(const struct ld_status *s, const struct ld_stat *t)
{
	return s ? s->path : t ? t->path : "?";
}

/* Move what a status said about a thread into @t. */
static void thread_from_status(struct mach_thread *t, struct ld_status *s)
{
	memcpy(t->comm, s->name, sizeof(t->comm));
	t->state = (enum mach_task_state)s->v[ST_STATE][0];
	t->umask = s->present[ST_UMASK] ? (int)s->v[ST_UMASK][0] : -1;
	t->tracer_pid = (pid_t)s->v[ST_TRACERPID][0];
	for (int k = 0; k < 4; k++) {
		t->uid[k] = (uint32_t)s->v[ST_UID][k];
		t->gid[k] = (uint32_t)s->v[ST_GID][k];
	}
	t->ngroups = s->ngroups;
	t->groups = s->groups;
	s->groups = NULL;
	s->ngroups = 0;
	t->ns_levels = s->present[ST_NSTGID] ? s->ns_levels : 0;
	memcpy(t->ns_tgid, s->ns[0], sizeof(t->ns_tgid));
	memcpy(t->ns_pid, s->ns[1], sizeof(t->ns_pid));
	memcpy(t->ns_pgid, s->ns[2], sizeof(t->ns_pgid));
	memcpy(t->ns_sid, s->ns[3], sizeof(t->ns_sid));
	if (s->present[ST_KTHREAD])
		t->kthread = s->v[ST_KTHREAD][0];
	t->sig_pending = s->v[ST_SIGPND][0];
	t->sig_blocked = s->v[ST_SIGBLK][0];
	t->cap_inh = s->v[ST_CAPINH][0];
	t->cap_prm = s->v[ST_CAPPRM][0];
	t->cap_eff = s->v[ST_CAPEFF][0];
	t->cap_bnd = s->v[ST_CAPBND][0];
	t->cap_amb = s->v[ST_CAPAMB][0];
	t->no_new_privs = s->v[ST_NNP][0];
	t->seccomp_mode = (unsigned int)s->v[ST_SECCOMP][0];
	t->seccomp_filters = (unsigned int)s->v[ST_SECCOMP_FILTERS][0];
	t->ssb = (enum mach_spec_store_bypass)s->v[ST_SSB][0];
	t->sib = s->present[ST_SIB] ? (enum mach_spec_indirect_branch)s->v[ST_SIB][0]
				    : MACH_SIB_UNSUPPORTED;
	t->cpus_allowed = s->cpus;
	t->mems_allowed = s->mems;
	memset(&s->cpus, 0, sizeof(s->cpus));
	memset(&s->mems, 0, sizeof(s->mems));
	t->nvcsw = s->v[ST_VCSW][0];
	t->nivcsw = s->v[ST_NVCSW][0];
	t->x86_features = (unsigned int)s->v[ST_X86][0];
	t->x86_features_locked = (unsigned int)s->v[ST_X86_LOCKED][0];
}

/* The thread-level stat fields (the whole file gives the leader's). */
static void thread_from_stat(struct mach_thread *t, const struct ld_stat *s, bool with_status)
{
	if (!with_status) {
		memcpy(t->comm, s->comm, sizeof(t->comm));
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
	t->kstkesp = s->f[LD_STAT_KSTKESP];
	t->kstkeip = s->f[LD_STAT_KSTKEIP];
	t->processor = (int)ld_sf_s(s, LD_STAT_PROCESSOR);
	t->rt_priority = (unsigned int)s->f[LD_STAT_RT_PRIORITY];
	t->policy = (unsigned int)s->f[LD_STAT_POLICY];
	t->delayacct_blkio_ticks = s->f[LD_STAT_DELAYACCT_BLKIO_TICKS];
}

static void own_from_stat(struct mach_thread *t, const struct ld_stat *s)
{
	t->minflt = s->f[LD_STAT_MINFLT];
	t->majflt = s->f[LD_STAT_MAJFLT];
	t->utime_ns = s->f[LD_STAT_UTIME] * MACH_NSEC_PER_TICK;
	t->stime_ns = s->f[LD_STAT_STIME] * MACH_NSEC_PER_TICK;
	t->guest_time_ns = s->f[LD_STAT_GUEST_TIME] * MACH_NSEC_PER_TICK;
	t->wchan_addr = s->f[LD_STAT_WCHAN];
	t->exit_code = (int)ld_sf_s(s, LD_STAT_EXIT_CODE);
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
		if (whole->f[fld[k]] < sum[k])
			return ld_say(ms, -EINVAL,
				      "%s:%u: %s %" PRIu64
				      " is below the sum over its threads' task/*/stat, %" PRIu64,
				      whole->path, whole->line[fld[k]], ld_sf_what(fld[k], what),
				      whole->f[fld[k]], sum[k]);
	if (!lead->stat) {
		/* no task/<tgid>/stat: the leader gets what the others leave */
		p->threads[0].minflt = whole->f[LD_STAT_MINFLT] - sum[0];
		p->threads[0].majflt = whole->f[LD_STAT_MAJFLT] - sum[1];
		p->threads[0].utime_ns = whole->f[LD_STAT_UTIME] * MACH_NSEC_PER_TICK;
		p->threads[0].stime_ns = whole->f[LD_STAT_STIME] * MACH_NSEC_PER_TICK;
		p->threads[0].guest_time_ns =
			(whole->f[LD_STAT_GUEST_TIME] - sum[2]) * MACH_NSEC_PER_TICK;
		p->threads[0].wchan_addr =
			ld_sf_s(whole, LD_STAT_NUM_THREADS) < 2 ? whole->f[LD_STAT_WCHAN] : 0;
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

/* The threads, leader first, each with the records that describe it. */
static int collect_threads(struct asm_ctx *a)
{
	struct ld_pid *lp = a->lp;
	const pid_t tgid = lp->tgid;
	struct ld_task *lt = NULL;
	struct thr *th;
	unsigned int n = 1;

	lp->whole.tid = tgid;
	if (lp->ntasks)
		qsort(lp->tasks, lp->ntasks, sizeof(lp->tasks[0]), tid_cmp);
	for (size_t i = 0; i < lp->ntasks; i++) {
		if (lp->tasks[i].tid == tgid)
			lt = &lp->tasks[i];
		else
			n++;
	}
	th = calloc(n, sizeof(*th));
	if (!th)
		return -ENOMEM;
	th[0].tid = tgid;
	th[0].status = lp->whole.status ? lp->whole.status : lt ? lt->status : NULL;
	th[0].stat = lt ? lt->stat : NULL;
	th[0].tstat = th[0].stat ? th[0].stat : lp->whole.stat;
	th[0].comm = lp->whole.comm ? lp->whole.comm : lt ? lt->comm : NULL;
	for (size_t i = 0, k = 1; i < lp->ntasks; i++) {
		const struct ld_task *t = &lp->tasks[i];

		if (t->tid == tgid)
			continue;
		th[k].tid = t->tid;
		th[k].status = t->status;
		th[k].stat = t->stat;
		th[k].tstat = t->stat;
		th[k].comm = t->comm;
		k++;
	}
	a->lt = lt;
	a->th = th;
	a->n = n;
	return 0;
}

/* The leader's two sets of files, /proc/<pid>/X and task/<pid>/X, describe one task. */
static int check_leader(struct asm_ctx *a)
{
	const struct ld_task *w = &a->lp->whole, *lt = a->lt;
	int rc = 0;

	if (!lt)
		return 0;
	if (w->status && lt->status)
		rc = ld_status_cmp(&a->ms, w->status, lt->status, 0);
	if (!rc && w->stat && lt->stat)
		rc = ld_stat_cmp(&a->ms, w->stat, lt->stat, true);
	if (!rc && w->comm && lt->comm)
		rc = ld_bytes_cmp(&a->ms, w->comm, lt->comm, "names");
	return rc;
}

/* Every status: one process, one mm, one kernel profile. */
static int check_statuses(struct asm_ctx *a)
{
	struct ld_commit *cm = a->cm;
	int rc;

	for (size_t i = 0; i <= a->lp->ntasks; i++) {
		const struct ld_status *s = task_at(a->lp, i)->status, *rs = a->rs;

		if (!s)
			continue;
		if (!rs) {
			a->rs = s;
		} else if (s->present[ST_VMPEAK] != rs->present[ST_VMPEAK]) {
			return ld_say(&a->ms, -ENOTSUP,
				      "%s:1: %s the Vm lines of an mm but %s %s (a zombie leader "
				      "with live threads?); machine.h has one mm per process",
				      rs->path, rs->present[ST_VMPEAK] ? "has" : "lacks", s->path,
				      s->present[ST_VMPEAK] ? "has them" : "does not");
		} else if ((rc = ld_status_cmp(&a->ms, rs, s, STF_PROC))) {
			return rc;
		}
		if ((rc = decide(&a->ms, a->ld, cm, s)))
			return rc;
		ld_bound_lo(&cm->cpus, s->cpus_lo, s->path);
		ld_bound_hi(&cm->cpus, s->cpus_hi, s->path);
		if (s->present[ST_MEMS]) {
			ld_bound_lo(&cm->mems, s->mems_lo, s->path);
			ld_bound_hi(&cm->mems, s->mems_hi, s->path);
		}
	}
	return 0;
}

/* Every stat: one process, one mm. */
static int check_stats(struct asm_ctx *a)
{
	int rc;

	for (size_t i = 0; i <= a->lp->ntasks; i++) {
		const struct ld_stat *s = task_at(a->lp, i)->stat;

		if (!s)
			continue;
		if ((rc = decide_stat(&a->ms, a->ld, a->cm, s)))
			return rc;
		if (!a->ts)
			a->ts = s;
		else if ((rc = ld_stat_cmp(&a->ms, a->ts, s, false)))
			return rc;
	}
	/* startcode and endcode both 1: what do_task_stat prints without ptrace access */
	a->hidden = a->ts && a->ts->f[LD_STAT_STARTCODE] == 1 && a->ts->f[LD_STAT_ENDCODE] == 1;
	return 0;
}

/* statm, maps and cmdline of every thread show the same mm. */
static int check_mm_files(struct asm_ctx *a)
{
	int rc;

	for (size_t i = 0; i <= a->lp->ntasks; i++) {
		struct ld_task *t = task_at(a->lp, i);

		if (t->statm && !a->rm)
			a->rm = t->statm;
		else if (t->statm && (rc = ld_statm_cmp(&a->ms, a->rm, t->statm)))
			return rc;
		if (t->maps && !a->rmaps)
			a->rmaps = t->maps;
		else if (t->maps && (rc = ld_maps_cmp(&a->ms, a->rmaps, t->maps)))
			return rc;
		if (t->cmdline && !a->rcmd)
			a->rcmd = t->cmdline;
		else if (t->cmdline &&
			 (rc = ld_bytes_cmp(&a->ms, a->rcmd, t->cmdline, "command lines")))
			return rc;
	}
	return 0;
}

/* Whether the process has an mm, and that every file agrees on it. */
static int check_mm(struct asm_ctx *a)
{
	const struct ld_status *rs = a->rs;
	const struct ld_stat *ts = a->ts;
	int rc;

	if (rs)
		a->has_mm = rs->present[ST_VMPEAK];
	else
		a->has_mm = (ts && (ts->f[LD_STAT_VSIZE] || ts->f[LD_STAT_STARTCODE])) ||
			    (a->rm && a->rm->v[LD_STATM_SIZE]) || (a->rmaps && a->rmaps->n) ||
			    (a->rcmd && a->rcmd->len);
	if (rs && a->rm && (rc = ld_statm_vs_status(&a->ms, a->rm, rs)))
		return rc;
	if (!a->has_mm && a->rmaps && a->rmaps->n)
		return ld_say(&a->ms, -EINVAL, "%s:1: mappings of a task without an mm (%s)",
			      a->rmaps->path, path_of(rs, ts));
	if (!a->has_mm && a->rcmd && a->rcmd->len)
		return ld_say(&a->ms, -EINVAL, "%s:1: a command line of a task without an mm (%s)",
			      a->rcmd->path, path_of(rs, ts));
	for (size_t i = 0; i <= a->lp->ntasks; i++) {
		const struct ld_stat *s = task_at(a->lp, i)->stat;

		if (s && (rc = ld_stat_zeros(&a->ms, s, a->hidden, a->has_mm)))
			return rc;
	}
	return 0;
}

/* Each thread: its status, stat and comm agree. */
static int check_threads(struct asm_ctx *a)
{
	const uint64_t slack = ld_rss_slack(a->ld->m);
	char what[64];
	int rc;

	for (unsigned int i = 0; i < a->n; i++) {
		const struct thr *t = &a->th[i];
		const struct ld_stat *both[2] = { t->stat, i ? NULL : a->lp->whole.stat };
		const char *name = t->status ? t->status->name : t->tstat ? t->tstat->comm : NULL;
		const char *from = t->status ? t->status->path : t->tstat ? t->tstat->path : NULL;

		for (int k = 0; k < 2; k++)
			if (t->status && both[k] &&
			    (rc = ld_status_vs_stat(&a->ms, t->status, both[k], slack)))
				return rc;
		if (t->comm && name && strcmp(name, t->comm->buf))
			return ld_disagree_str(&a->ms, t->comm->path, 1, from, 1, "the name",
					       t->comm->buf, name);
		/* exit_signal: the leader's, and -1 for every other thread (copy_process) */
		if (i && t->stat && ld_sf_s(t->stat, LD_STAT_EXIT_SIGNAL) != -1)
			return ld_say(&a->ms, -EINVAL, "%s:%u: %s of a non-leader thread is %" PRId64
				      ", not -1", t->stat->path, t->stat->line[LD_STAT_EXIT_SIGNAL],
				      ld_sf_what(LD_STAT_EXIT_SIGNAL, what),
				      ld_sf_s(t->stat, LD_STAT_EXIT_SIGNAL));
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

/* When task/ was listed, the thread count matches it. */
static int check_thread_count(struct asm_ctx *a)
{
	const struct ld_status *rs = a->rs;
	const struct ld_stat *ts = a->ts;
	uint64_t want;

	if (!a->lp->tasks_complete)
		return 0;
	want = rs ? rs->v[ST_THREADS][0] : ts ? (uint64_t)ld_sf_s(ts, LD_STAT_NUM_THREADS) : a->n;
	if (want == a->n)
		return 0;
	return ld_say(&a->ms, -EINVAL, "%s:%u: %" PRIu64 " threads, but task/ holds %u",
		      path_of(rs, ts),
		      rs ? rs->line[ST_THREADS] : ts ? ts->line[LD_STAT_NUM_THREADS] : 1, want, a->n);
}

static int build_threads(struct asm_ctx *a)
{
	struct mach_process *out = a->out;

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
		if (th->tstat)
			thread_from_stat(t, th->tstat, s != NULL);
		if (s)
			thread_from_status(t, s);
		if (!s && !th->tstat && th->comm)
			memcpy(t->comm, th->comm->buf, th->comm->len + 1);
		if (th->stat)
			own_from_stat(t, th->stat);
	}
	return 0;
}

/* The process-wide values of stat, and the sums over its threads. */
static int build_from_stat(struct asm_ctx *a)
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
static int build_from_status(struct asm_ctx *a)
{
	const struct ld_status *rs = a->rs;
	struct mach_process *out = a->out;

	if (!rs)
		return 0;
	out->ppid = (pid_t)rs->v[ST_PPID][0];
	out->ngid = (pid_t)rs->v[ST_NGID][0];
	/* FDSize 0: no files_struct (a zombie); otherwise the table, its fds read later */
	if (rs->v[ST_FDSIZE][0]) {
		out->files = calloc(1, sizeof(*out->files));
		if (!out->files)
			return -ENOMEM;
		out->files->max_fds = (unsigned int)rs->v[ST_FDSIZE][0];
	}
	out->sigq_queued = rs->v[ST_SIGQ][0];
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
static int build_mm(struct asm_ctx *a)
{
	struct mach_mm *mm;
	int rc;

	if (!a->has_mm)
		return 0;
	mm = calloc(1, sizeof(*mm));
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

/* Namespaces, control groups, mounts: last, since they enter the machine's shared tables. */
static int build_ns(struct asm_ctx *a)
{
	return ld_ns_build(&a->ms, a->ld, a->lp, a->out);
}

/* Open files, links and the small files: once the threads and the mm stand. */
static int build_misc(struct asm_ctx *a)
{
	return ld_assemble_misc(a->ld, a->lp, a->out, &a->ms);
}

/* Each thread's network namespace, from the net files of its slots (net_assemble.c). */
static int build_nets(struct asm_ctx *a)
{
	return ld_assemble_nets(a->ld, a->lp, a->out, a->cm, &a->ms);
}

/*
 * The checks first, in the order that names the likeliest culprit, then the
 * process; each step may use what the ones before it found.
 */
static int (*const steps[])(struct asm_ctx *a) = {
	collect_threads, check_leader, check_statuses, check_stats, check_mm_files, check_mm,
	check_threads, check_thread_count,
	build_threads, build_from_stat, build_from_status, build_mm, build_misc, build_nets, build_ns,
};

int ld_assemble(const struct mach_loader *ld, struct ld_pid *lp, struct mach_process *out,
		struct ld_commit *cm, char *err, size_t errlen)
{
	struct asm_ctx a = { .ms = { err, errlen }, .ld = ld, .lp = lp, .cm = cm, .out = out };
	int rc = 0;

	memset(cm, 0, sizeof(*cm));
	for (int f = 0; f < LD_NR_DEC; f++)
		cm->dec[f].val = -1;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]) && !rc; i++)
		rc = steps[i](&a);
	free(a.th);
	if (!rc)
		rc = ld_assemble_mmsched(ld, lp, out, wchan_is_addr(ld, cm), err, errlen);
	return rc;
}
