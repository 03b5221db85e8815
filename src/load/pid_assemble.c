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
 *
 * This file holds the checks and the order of the steps; the building of
 * the threads and the mm from records that agree is pid_assemble_build.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_mmsched.h"
#include "pid_assemble.h"

/* ------------------------------------------------------------------ */
/* Assembly                                                             */

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
 * Where no wchan is shown (the @whole file of several threads, or a stat
 * masked from the reader) the address era prints ~0UL and the flag era 0,
 * so a 0 there says "flag" too.
 */
static int decide_stat(const struct ld_msg *ms, const struct mach_loader *ld, struct ld_commit *cm,
		       const struct ld_stat *t, bool whole)
{
	bool masked = t->f[LD_STAT_STARTCODE] == 1 && t->f[LD_STAT_ENDCODE] == 1;
	bool not_shown = masked || (whole && ld_sf_s(t, LD_STAT_NUM_THREADS) >= 2);
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
	if ((w || not_shown) && (by = decide_one(ld, cm, DEC_STAT_WCHAN_ADDR, w > 1, t->path)))
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
		if ((rc = decide_stat(&a->ms, a->ld, a->cm, s, i == 0)))
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
	/* stat's rss is a field of its own (mm->stat_rss): a torn pair keeps both */
	const uint64_t slack = a->lp->tolerant ? UINT64_MAX : ld_rss_slack(a->ld->m);
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
	/* the threads share one mm: a status and a stat of different threads agree on it too */
	if (a->rs && a->ts && (rc = ld_mm_status_vs_stat(&a->ms, a->rs, a->ts, slack)))
		return rc;
	return 0;
}

/* When task/ was listed, the thread count matches it. */
static int check_thread_count(struct asm_ctx *a)
{
	const struct ld_status *rs = a->rs;
	const struct ld_stat *ts = a->ts;
	uint64_t want;

	/* the model holds both counts (nr_threads, the threads array): a torn capture keeps each */
	if (!a->lp->tasks_complete || a->lp->tolerant)
		return 0;
	want = rs ? rs->v[ST_THREADS][0] : ts ? (uint64_t)ld_sf_s(ts, LD_STAT_NUM_THREADS) : a->n;
	if (want == a->n)
		return 0;
	return ld_say(&a->ms, -EINVAL, "%s:%u: %" PRIu64 " threads, but task/ holds %u",
		      path_of(rs, ts),
		      rs ? rs->line[ST_THREADS] : ts ? ts->line[LD_STAT_NUM_THREADS] : 1, want, a->n);
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
	ld_asm_build_threads, ld_asm_build_from_stat, ld_asm_build_from_status, ld_asm_build_mm,
	build_misc, build_nets, build_ns,
};

int ld_assemble(const struct mach_loader *ld, struct ld_pid *lp, struct mach_process *out,
		struct ld_commit *cm, char *err, size_t errlen)
{
	struct asm_ctx a = { .ms = { err, errlen, ld->blame }, .ld = ld, .lp = lp, .cm = cm, .out = out };
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
