// SPDX-License-Identifier: MIT
/*
 * load_pid.c - one process's files, checked against each other and turned
 * into a struct mach_process.
 *
 * The kernel prints the same facts in several files: the state in status and
 * stat, the rss in status, stat and statm, the leader's values in
 * /proc/<pid>/X and in task/<pid>/X, the mm in every thread's files.  A
 * process is built only when they agree, so the renderers, which print each
 * fact from one place in the model, reproduce every file.  Disagreement is
 * -EINVAL naming both files; on a live tree it means the process changed
 * between two reads and the caller reads it again.  Files that agree with
 * the kernel but that the model cannot hold give -ENOTSUP.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"

/* ------------------------------------------------------------------ */
/* Records                                                              */

static void stat_free(struct ld_stat *s)
{
	if (s) {
		free(s->path);
		free(s);
	}
}

static void statm_free(struct ld_statm *s)
{
	if (s) {
		free(s->path);
		free(s);
	}
}

void ld_task_clear(struct ld_task *t)
{
	ld_status_free(t->status);
	stat_free(t->stat);
	statm_free(t->statm);
	ld_maps_free(t->maps);
	ld_bytes_free(t->cmdline);
	ld_bytes_free(t->comm);
	t->status = NULL;
	t->stat = NULL;
	t->statm = NULL;
	t->maps = NULL;
	t->cmdline = NULL;
	t->comm = NULL;
}

void ld_pid_free(struct ld_pid *lp)
{
	if (!lp)
		return;
	ld_task_clear(&lp->whole);
	for (size_t i = 0; i < lp->ntasks; i++)
		ld_task_clear(&lp->tasks[i]);
	free(lp->tasks);
	free(lp);
}

struct ld_pid *ld_pid_new(pid_t tgid)
{
	struct ld_pid *lp = calloc(1, sizeof(*lp));

	if (lp) {
		lp->tgid = tgid;
		lp->whole.tid = tgid;
	}
	return lp;
}

struct ld_task *ld_pid_task(struct ld_pid *lp, pid_t tid)
{
	struct ld_task *t;

	for (size_t i = 0; i < lp->ntasks; i++)
		if (lp->tasks[i].tid == tid)
			return &lp->tasks[i];
	t = VEC_PUSH(lp->tasks, lp->ntasks, lp->cap);
	if (t)
		t->tid = tid;
	return t;
}

#define REC_NEW(t, rec) (((t)->rec = calloc(1, sizeof(*(t)->rec))) ? &(t)->rec->path : NULL)
#define REC_SWAP(a, b, rec)                         \
	do {                                        \
		__typeof__((a)->rec) rec_tmp__ = (a)->rec; \
		(a)->rec = (b)->rec;                \
		(b)->rec = rec_tmp__;               \
	} while (0)

/* An empty record of @kind in @t, named @path: 0 or -ENOMEM (what was made is @t's). */
static int rec_new(struct ld_task *t, enum mach_ld_kind kind, const char *path)
{
	char **name = NULL;

	switch (kind) {
	case MACH_LD_PID_STATUS: name = REC_NEW(t, status); break;
	case MACH_LD_PID_STAT: name = REC_NEW(t, stat); break;
	case MACH_LD_PID_STATM: name = REC_NEW(t, statm); break;
	case MACH_LD_PID_MAPS: name = REC_NEW(t, maps); break;
	case MACH_LD_PID_CMDLINE: name = REC_NEW(t, cmdline); break;
	case MACH_LD_PID_COMM: name = REC_NEW(t, comm); break;
	default: return -EINVAL;
	}
	if (!name || !(*name = strdup(path)))
		return -ENOMEM;
	return 0;
}

static int rec_parse(struct ld_task *t, enum mach_ld_kind kind, pid_t tgid, struct lex *lx)
{
	switch (kind) {
	case MACH_LD_PID_STATUS: return ld_parse_status(lx, tgid, t->tid, t->status);
	case MACH_LD_PID_STAT: return ld_parse_pid_stat(lx, t->tid, t->stat);
	case MACH_LD_PID_STATM: return ld_parse_statm(lx, t->statm);
	case MACH_LD_PID_MAPS: return ld_parse_maps(lx, t->maps);
	case MACH_LD_PID_CMDLINE: return ld_parse_cmdline(lx, t->cmdline);
	default: return ld_parse_comm(lx, t->comm);
	}
}

static void rec_swap(struct ld_task *a, struct ld_task *b, enum mach_ld_kind kind)
{
	switch (kind) {
	case MACH_LD_PID_STATUS: REC_SWAP(a, b, status); break;
	case MACH_LD_PID_STAT: REC_SWAP(a, b, stat); break;
	case MACH_LD_PID_STATM: REC_SWAP(a, b, statm); break;
	case MACH_LD_PID_MAPS: REC_SWAP(a, b, maps); break;
	case MACH_LD_PID_CMDLINE: REC_SWAP(a, b, cmdline); break;
	default: REC_SWAP(a, b, comm); break;
	}
}

int ld_pid_file(struct ld_pid *lp, enum mach_ld_kind kind, pid_t tid, const char *path,
		const char *text, size_t len, char *err, size_t errlen)
{
	struct ld_task *t = tid ? ld_pid_task(lp, tid) : &lp->whole;
	struct ld_task fresh = { .tid = t ? t->tid : 0 };
	struct lex lx;
	int rc;

	if (!t)
		return -ENOMEM;
	/* parsed aside, so that a file that does not parse leaves the slot as it was */
	rc = rec_new(&fresh, kind, path);
	if (!rc) {
		lex_init(&lx, path, text, len, err, errlen);
		rc = rec_parse(&fresh, kind, lp->tgid, &lx);
	}
	if (!rc)
		rec_swap(t, &fresh, kind);
	ld_task_clear(&fresh);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Bounds and commits                                                   */

void ld_bound_lo(struct ld_bound *b, unsigned int lo, const char *by)
{
	if (lo > b->lo) {
		b->lo = lo;
		free(b->lo_by);
		b->lo_by = by ? strdup(by) : NULL;
	}
}

void ld_bound_hi(struct ld_bound *b, unsigned int hi, const char *by)
{
	if (hi && (!b->hi || hi < b->hi)) {
		b->hi = hi;
		free(b->hi_by);
		b->hi_by = by ? strdup(by) : NULL;
	}
}

void ld_commit_clear(struct ld_commit *cm)
{
	free(cm->cpus.lo_by);
	free(cm->cpus.hi_by);
	free(cm->mems.lo_by);
	free(cm->mems.hi_by);
	memset(cm, 0, sizeof(*cm));
}

int ld_commit(struct mach_loader *ld, const struct ld_commit *cm)
{
	for (int f = 0; f < LD_NR_DEC; f++)
		if (ld->dec[f].val < 0 && cm->dec[f].val >= 0) {
			ld->dec[f].val = cm->dec[f].val;
			ld->dec[f].by = cm->dec[f].by ? strdup(cm->dec[f].by) : NULL;
			if (cm->dec[f].by && !ld->dec[f].by)
				return -ENOMEM;
		}
	ld_bound_lo(&ld->cpus, cm->cpus.lo, cm->cpus.lo_by);
	ld_bound_hi(&ld->cpus, cm->cpus.hi, cm->cpus.hi_by);
	ld_bound_lo(&ld->mems, cm->mems.lo, cm->mems.lo_by);
	ld_bound_hi(&ld->mems, cm->mems.hi, cm->mems.hi_by);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Messages                                                             */

struct msg {
	char *err;
	size_t errlen;
};

static int say(const struct msg *ms, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int say(const struct msg *ms, int rc, const char *fmt, ...)
{
	va_list ap;

	if (ms->err && ms->errlen) {
		va_start(ap, fmt);
		vsnprintf(ms->err, ms->errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* "A:LA: WHAT is VA, but B:LB says VB" */
static int disagree(const struct msg *ms, const char *a, unsigned int la, const char *b,
		    unsigned int lb, const char *what, const char *va, const char *vb)
{
	return say(ms, -EINVAL, "%s:%u: %s is %s, but %s:%u says %s", a, la, what, va, b, lb, vb);
}

static int disagree_u(const struct msg *ms, const char *a, unsigned int la, const char *b,
		      unsigned int lb, const char *what, uint64_t va, uint64_t vb)
{
	char sa[32], sb[32];

	snprintf(sa, sizeof(sa), "%" PRIu64, va);
	snprintf(sb, sizeof(sb), "%" PRIu64, vb);
	return disagree(ms, a, la, b, lb, what, sa, sb);
}

static int disagree_s(const struct msg *ms, const char *a, unsigned int la, const char *b,
		      unsigned int lb, const char *what, int64_t va, int64_t vb)
{
	char sa[32], sb[32];

	snprintf(sa, sizeof(sa), "%" PRId64, va);
	snprintf(sb, sizeof(sb), "%" PRId64, vb);
	return disagree(ms, a, la, b, lb, what, sa, sb);
}

static int disagree_str(const struct msg *ms, const char *a, unsigned int la, const char *b,
			unsigned int lb, const char *what, const char *va, const char *vb)
{
	char sa[300], sb[300], qa[310], qb[310];

	lex_escape(va, strlen(va), sa, sizeof(sa));
	lex_escape(vb, strlen(vb), sb, sizeof(sb));
	snprintf(qa, sizeof(qa), "\"%s\"", sa);
	snprintf(qb, sizeof(qb), "\"%s\"", sb);
	return disagree(ms, a, la, b, lb, what, qa, qb);
}

/* ------------------------------------------------------------------ */
/* Comparisons between records                                          */

static bool bitmap_equal(const struct mach_bitmap *a, const struct mach_bitmap *b)
{
	if (a->nbits != b->nbits)
		return false;
	for (unsigned int w = 0; w < (a->nbits + 63) / 64; w++)
		if (a->words[w] != b->words[w])
			return false;
	return true;
}

static bool st_line_equal(const struct ld_status *a, const struct ld_status *b, int i)
{
	if (a->present[i] != b->present[i])
		return false;
	if (!a->present[i])
		return true;
	switch (i) {
	case ST_NAME:
		return !strcmp(a->name, b->name);
	case ST_GROUPS:
		return a->ngroups == b->ngroups &&
		       (!a->ngroups || !memcmp(a->groups, b->groups, a->ngroups * sizeof(uint32_t)));
	case ST_NSTGID: case ST_NSPID: case ST_NSPGID: case ST_NSSID:
		return a->ns_levels == b->ns_levels &&
		       !memcmp(a->ns[i - ST_NSTGID], b->ns[i - ST_NSTGID],
			       a->ns_levels * sizeof(pid_t));
	case ST_CPUS:
		return bitmap_equal(&a->cpus, &b->cpus);
	case ST_MEMS:
		return bitmap_equal(&a->mems, &b->mems);
	default:
		return !memcmp(a->v[i], b->v[i], sizeof(a->v[i]));
	}
}

static void st_line_text(const struct ld_status *s, int i, char *buf, size_t n)
{
	if (!s->present[i])
		snprintf(buf, n, "absent");
	else if (i == ST_NAME)
		lex_escape(s->name, strlen(s->name), buf, n);
	else if (i == ST_GROUPS)
		snprintf(buf, n, "%u groups", s->ngroups);
	else if (i >= ST_NSTGID && i <= ST_NSSID)
		snprintf(buf, n, "%u levels from %d", s->ns_levels, (int)s->ns[i - ST_NSTGID][0]);
	else if (i == ST_CPUS || i == ST_MEMS)
		snprintf(buf, n, "another bitmap");
	else
		snprintf(buf, n, "%" PRIu64, s->v[i][0]);
}

/* Every line @mask selects (0: all) must be equal in @a and @b. */
static int status_cmp(const struct msg *ms, const struct ld_status *a, const struct ld_status *b,
		      unsigned int mask)
{
	for (int i = 0; i < ST_NR; i++) {
		char va[96], vb[96];

		if (mask && !(ld_st_defs[i].flags & mask))
			continue;
		if (st_line_equal(a, b, i))
			continue;
		st_line_text(a, i, va, sizeof(va));
		st_line_text(b, i, vb, sizeof(vb));
		return disagree(ms, a->path, a->present[i] ? a->line[i] : 1, b->path,
				b->present[i] ? b->line[i] : 1, ld_st_defs[i].label, va, vb);
	}
	return 0;
}

/* "field 35 (wchan)" into @buf (64 bytes), as messages name a stat field. */
static const char *sf_what(enum ld_stat_field n, char buf[64])
{
	snprintf(buf, 64, "field %d (%s)", (int)n, ld_sf_defs[n].name);
	return buf;
}

static bool sf_selected(enum ld_stat_field n, bool leader_pair)
{
	switch (ld_sf_defs[n].scope) {
	case SF_PROC: case SF_MM:
		return true;
	case SF_THREAD: case SF_ZERO:
		return leader_pair;
	case SF_SPECIAL:
		return leader_pair && n != LD_STAT_EXIT_CODE;
	default:
		return false;
	}
}

/* Compare stat records: PROC and MM fields, and for the two files of the leader the rest too. */
static int stat_cmp(const struct msg *ms, const struct ld_stat *a, const struct ld_stat *b,
		    bool leader_pair)
{
	char what[64];

	if (leader_pair && strcmp(a->comm, b->comm))
		return disagree_str(ms, a->path, 1, b->path, 1, sf_what(LD_STAT_COMM, what),
				    a->comm, b->comm);
	if (leader_pair && a->state != b->state) {
		char sa[2] = { mach_task_state_letter(a->state), 0 };
		char sb[2] = { mach_task_state_letter(b->state), 0 };

		return disagree(ms, a->path, a->line[LD_STAT_STATE], b->path, b->line[LD_STAT_STATE],
				sf_what(LD_STAT_STATE, what), sa, sb);
	}
	for (enum ld_stat_field n = LD_STAT_PPID; n <= LD_STAT_FIELDS; n++) {
		if (!sf_selected(n, leader_pair) || a->f[n] == b->f[n])
			continue;
		sf_what(n, what);
		if (ld_sf_defs[n].is_signed)
			return disagree_s(ms, a->path, a->line[n], b->path, b->line[n], what,
					  (int64_t)a->f[n], (int64_t)b->f[n]);
		return disagree_u(ms, a->path, a->line[n], b->path, b->line[n], what, a->f[n],
				  b->f[n]);
	}
	return 0;
}

static int statm_cmp(const struct msg *ms, const struct ld_statm *a, const struct ld_statm *b)
{
	for (int i = 0; i < LD_STATM_FIELDS; i++)
		if (a->v[i] != b->v[i])
			return disagree_u(ms, a->path, 1, b->path, 1, ld_statm_names[i], a->v[i],
					  b->v[i]);
	return 0;
}

static bool vma_equal(const struct mach_vma *a, const struct mach_vma *b)
{
	return a->start == b->start && a->end == b->end && a->offset == b->offset &&
	       a->dev_major == b->dev_major && a->dev_minor == b->dev_minor &&
	       a->inode == b->inode && a->flags == b->flags && a->kind == b->kind &&
	       a->deleted == b->deleted && !a->name == !b->name &&
	       (!a->name || !strcmp(a->name, b->name));
}

static int maps_cmp(const struct msg *ms, const struct ld_maps *a, const struct ld_maps *b)
{
	for (size_t i = 0; i < a->n || i < b->n; i++) {
		if (i < a->n && i < b->n && vma_equal(&a->vmas[i], &b->vmas[i]))
			continue;
		if (i >= a->n || i >= b->n)
			return say(ms, -EINVAL, "%s:%zu: %zu mappings, but %s has %zu", a->path,
				   i + 1, a->n, b->path, b->n);
		return say(ms, -EINVAL, "%s:%zu: mapping differs from %s:%zu", a->path, i + 1,
			   b->path, i + 1);
	}
	return 0;
}

static int bytes_cmp(const struct msg *ms, const struct ld_bytes *a, const struct ld_bytes *b,
		     const char *what)
{
	if (a->len == b->len && !memcmp(a->buf, b->buf, a->len))
		return 0;
	return say(ms, -EINVAL, "%s:1: %s differ from those of %s", a->path, what, b->path);
}

/* ------------------------------------------------------------------ */
/* Assembly                                                             */

/* One thread and the records that describe it. */
struct thr {
	pid_t tid;
	struct ld_task *task;        /* task/<tid> slot, or NULL */
	const struct ld_status *status;
	const struct ld_stat *stat;  /* its own values (task/<tid>/stat), or NULL */
	const struct ld_stat *tstat; /* thread-level fields: own, else the whole file's */
	const struct ld_bytes *comm;
};

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
	[DEC_X86] = ST_X86,
};

/* The first status that shows, or could show, an optional line decides the profile. */
static int decide(const struct msg *ms, const struct mach_loader *ld, struct ld_commit *cm,
		  const struct ld_status *s)
{
	for (int f = 0; f < LD_NR_DEC; f++) {
		enum ld_st line = dec_line[f];
		bool val = s->present[line];
		const struct ld_decision *d;

		/* Umask: absent whenever the task has no fs_struct, so absence decides nothing */
		if (f == DEC_UMASK && !val)
			continue;
		if ((ld_st_defs[line].flags & STF_MM) && !s->present[ST_VMPEAK])
			continue;
		d = ld->dec[f].val >= 0 ? &ld->dec[f] : cm->dec[f].val >= 0 ? &cm->dec[f] : NULL;
		if (!d) {
			cm->dec[f].val = val;
			cm->dec[f].by = s->path;
			continue;
		}
		if (d->val != val)
			return say(ms, -EINVAL,
				   "%s:%u: %s \"%s\" line, but %s, which decided the kernel profile, %s",
				   s->path, val ? s->line[line] : 1, val ? "has a" : "has no",
				   ld_st_defs[line].label,
				   d->by ? d->by : "an earlier status", val ? "has none" : "has one");
	}
	return 0;
}

static const char *path_of(const struct ld_status *s, const struct ld_stat *t)
{
	return s ? s->path : t ? t->path : "?";
}

/*
 * How far stat's rss may stray from VmRSS.  Since 6.16 ("mm: fix the
 * inaccurate memory statistics issue for users") status and statm sum the
 * per-CPU rss counters exactly, while stat's get_mm_rss() still reads the
 * approximate global counts: each of the three counters may lag by under
 * one batch (max(32, 2 * online CPUs)) per CPU.  UINT64_MAX: CPUs unknown.
 */
static uint64_t rss_slack(const struct machine *m)
{
	uint64_t online = 0, batch;

	for (unsigned int i = 0; i < m->ncpus; i++)
		online += m->cpus[i].online;
	if (!online)
		return UINT64_MAX;
	batch = online * 2 > 32 ? online * 2 : 32;
	return 3 * online * batch;
}

/* status vs stat of one thread */
static int status_vs_stat(const struct msg *ms, const struct ld_status *s, const struct ld_stat *t,
			  uint64_t slack)
{
	static const struct { enum ld_st line; enum ld_stat_field field; } sig[] = {
		{ ST_SIGPND, LD_STAT_SIGNAL }, { ST_SIGBLK, LD_STAT_BLOCKED },
		{ ST_SIGIGN, LD_STAT_SIGIGNORE }, { ST_SIGCGT, LD_STAT_SIGCATCH },
	};
	const int64_t pgrp = ld_sf_s(t, LD_STAT_PGRP), sid = ld_sf_s(t, LD_STAT_SESSION);
	char what[96];

	if (strcmp(s->name, t->comm))
		return disagree_str(ms, s->path, s->line[ST_NAME], t->path, t->line[LD_STAT_COMM], "Name:",
				    s->name, t->comm);
	if (s->v[ST_STATE][0] != (uint64_t)t->state) {
		char a[2] = { mach_task_state_letter((enum mach_task_state)s->v[ST_STATE][0]), 0 };
		char b[2] = { mach_task_state_letter(t->state), 0 };

		return disagree(ms, s->path, s->line[ST_STATE], t->path, t->line[LD_STAT_STATE],
				"the State: letter", a, b);
	}
	if ((int64_t)s->v[ST_PPID][0] != ld_sf_s(t, LD_STAT_PPID))
		return disagree_s(ms, s->path, s->line[ST_PPID], t->path, t->line[LD_STAT_PPID], "PPid:",
				  (int64_t)s->v[ST_PPID][0], ld_sf_s(t, LD_STAT_PPID));
	if ((int64_t)s->v[ST_THREADS][0] != ld_sf_s(t, LD_STAT_NUM_THREADS))
		return disagree_s(ms, s->path, s->line[ST_THREADS], t->path, t->line[LD_STAT_NUM_THREADS],
				  "Threads:", (int64_t)s->v[ST_THREADS][0], ld_sf_s(t, LD_STAT_NUM_THREADS));
	for (size_t k = 0; k < sizeof(sig) / sizeof(sig[0]); k++) {
		/* stat prints the first 31 signals only, in decimal */
		uint64_t want = s->v[sig[k].line][0] & 0x7fffffff;

		if (want != t->f[sig[k].field]) {
			snprintf(what, sizeof(what), "%s & 0x7fffffff", ld_st_defs[sig[k].line].label);
			return disagree_u(ms, s->path, s->line[sig[k].line], t->path,
					  t->line[sig[k].field], what, want, t->f[sig[k].field]);
		}
	}
	if (s->present[ST_NSPGID] && pgrp >= 0 && s->ns[2][0] != pgrp)
		return disagree_s(ms, s->path, s->line[ST_NSPGID], t->path, t->line[LD_STAT_PGRP],
				  "NSpgid:", s->ns[2][0], pgrp);
	if (s->present[ST_NSSID] && sid >= 0 && s->ns[3][0] != sid)
		return disagree_s(ms, s->path, s->line[ST_NSSID], t->path, t->line[LD_STAT_SESSION],
				  "NSsid:", s->ns[3][0], sid);
	if (s->present[ST_KTHREAD] && s->v[ST_KTHREAD][0] != !!(t->f[LD_STAT_FLAGS] & LD_PF_KTHREAD))
		return disagree_u(ms, s->path, s->line[ST_KTHREAD], t->path, t->line[LD_STAT_FLAGS],
				  "Kthread: (PF_KTHREAD in flags)", s->v[ST_KTHREAD][0],
				  !!(t->f[LD_STAT_FLAGS] & LD_PF_KTHREAD));
	if (s->present[ST_VMPEAK]) {
		if (s->v[ST_VMSIZE][0] * 1024 / 1024 != s->v[ST_VMSIZE][0] ||
		    t->f[LD_STAT_VSIZE] != s->v[ST_VMSIZE][0] * 1024)
			return disagree_u(ms, s->path, s->line[ST_VMSIZE], t->path, t->line[LD_STAT_VSIZE],
					  "VmSize: in bytes (vsize)", s->v[ST_VMSIZE][0] * 1024,
					  t->f[LD_STAT_VSIZE]);
		uint64_t pages = s->v[ST_VMRSS][0] / 4;
		uint64_t diff = t->f[LD_STAT_RSS] > pages ? t->f[LD_STAT_RSS] - pages : pages - t->f[LD_STAT_RSS];

		if (diff > slack)
			return disagree_u(ms, s->path, s->line[ST_VMRSS], t->path, t->line[LD_STAT_RSS],
					  "VmRSS: in pages (rss, give or take the counter slack)",
					  pages, t->f[LD_STAT_RSS]);
	} else if (t->f[LD_STAT_VSIZE] || t->f[LD_STAT_RSS]) {
		return say(ms, -EINVAL,
			   "%s:%u: vsize/rss of a task without an mm (%s has no Vm lines)", t->path,
			   t->line[LD_STAT_VSIZE], s->path);
	}
	return 0;
}

static int statm_vs_status(const struct msg *ms, const struct ld_statm *m,
			   const struct ld_status *s)
{
	/* the status line each statm field is checked against (ST_NR: none) */
	static const enum ld_st from[LD_STATM_FIELDS] = {
		[LD_STATM_SIZE] = ST_VMSIZE, [LD_STATM_RESIDENT] = ST_VMRSS,
		[LD_STATM_SHARED] = ST_RSSFILE, [LD_STATM_TEXT] = ST_NR, [LD_STATM_LIB] = ST_NR,
		[LD_STATM_DATA] = ST_VMDATA, [LD_STATM_DT] = ST_NR,
	};
	uint64_t want[LD_STATM_FIELDS] = { 0 };

	if (!s->present[ST_VMPEAK]) {
		for (int i = 0; i < LD_STATM_FIELDS; i++)
			if (m->v[i])
				return say(ms, -EINVAL,
					   "%s:1: nonzero %s without an mm (%s has no Vm lines)",
					   m->path, ld_statm_names[i], s->path);
		return 0;
	}
	/* statm_vs_status runs after the status check, which bounds the Rss sums */
	want[LD_STATM_SIZE] = s->v[ST_VMSIZE][0];
	want[LD_STATM_RESIDENT] = s->v[ST_VMRSS][0];
	want[LD_STATM_SHARED] = s->v[ST_RSSFILE][0] + s->v[ST_RSSSHMEM][0];
	want[LD_STATM_DATA] = s->v[ST_VMDATA][0] + s->v[ST_VMSTK][0];
	if (want[LD_STATM_DATA] < s->v[ST_VMDATA][0])
		return say(ms, -EINVAL, "%s:%u: VmData: + VmStk: overflow", s->path,
			   s->line[ST_VMDATA]);
	for (int i = 0; i < LD_STATM_FIELDS; i++) {
		char what[64];

		if (from[i] == ST_NR)
			continue;
		if (m->v[i] <= UINT64_MAX / 4 && m->v[i] * 4 == want[i])
			continue;
		snprintf(what, sizeof(what), "statm %s in kB", ld_statm_names[i]);
		return disagree_u(ms, m->path, 1, s->path, s->line[from[i]], what,
				  m->v[i] <= UINT64_MAX / 4 ? m->v[i] * 4 : UINT64_MAX, want[i]);
	}
	return 0;
}

/* Fields a stat must print as 0: without an mm, or masked by ptrace permission. */
static int stat_zeros(const struct msg *ms, const struct ld_stat *t, bool hidden, bool has_mm)
{
	char what[64];

	for (enum ld_stat_field n = LD_STAT_STARTCODE; n <= LD_STAT_FIELDS; n++) {
		bool no_mm = !has_mm && (n <= LD_STAT_STARTSTACK ||
					 (n >= LD_STAT_START_DATA && n <= LD_STAT_ENV_END));
		/* startcode and endcode read 1 when masked; the other [PT] fields 0 */
		bool masked = hidden && ld_sf_defs[n].ptrace && n != LD_STAT_STARTCODE &&
			      n != LD_STAT_ENDCODE;

		if ((no_mm || masked) && t->f[n])
			return say(ms, -EINVAL, "%s:%u: %s must be 0 %s", t->path, t->line[n],
				   sf_what(n, what), no_mm ? "for a task without an mm"
					 : "when startcode and endcode are 1 (no ptrace access)");
	}
	return 0;
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
	t->wchan = s->f[LD_STAT_WCHAN];
	t->exit_code = (int)ld_sf_s(s, LD_STAT_EXIT_CODE);
}

/*
 * The whole-process sums: minflt, majflt and guest time keep what exited
 * threads left (dead_*) beyond the live threads' own.
 */
static int aggregates(const struct msg *ms, struct mach_process *p, const struct thr *th,
		      const struct ld_stat *whole, bool hidden)
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
				return say(ms, -EINVAL, "%s:%u: the threads' %s overflow", whole->path,
					   whole->line[fld[k]], ld_sf_defs[fld[k]].name);
			sum[k] += th[i].stat->f[fld[k]];
		}
	}
	for (int k = 0; k < 3; k++)
		if (whole->f[fld[k]] < sum[k])
			return say(ms, -EINVAL,
				   "%s:%u: %s %" PRIu64
				   " is below the sum over its threads' task/*/stat, %" PRIu64,
				   whole->path, whole->line[fld[k]], sf_what(fld[k], what),
				   whole->f[fld[k]], sum[k]);
	if (!lead->stat) {
		/* no task/<tgid>/stat: the leader gets what the others leave */
		p->threads[0].minflt = whole->f[LD_STAT_MINFLT] - sum[0];
		p->threads[0].majflt = whole->f[LD_STAT_MAJFLT] - sum[1];
		p->threads[0].utime_ns = whole->f[LD_STAT_UTIME] * MACH_NSEC_PER_TICK;
		p->threads[0].stime_ns = whole->f[LD_STAT_STIME] * MACH_NSEC_PER_TICK;
		p->threads[0].guest_time_ns =
			(whole->f[LD_STAT_GUEST_TIME] - sum[2]) * MACH_NSEC_PER_TICK;
		p->threads[0].wchan =
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
		uint64_t want = !hidden && ld_sf_s(whole, LD_STAT_NUM_THREADS) < 2
					? ls->f[LD_STAT_WCHAN] : 0;

		if (whole->f[LD_STAT_WCHAN] != want)
			return disagree_u(ms, whole->path, whole->line[LD_STAT_WCHAN], ls->path,
					  ls->line[LD_STAT_WCHAN], sf_what(LD_STAT_WCHAN, what),
					  whole->f[LD_STAT_WCHAN], ls->f[LD_STAT_WCHAN]);
	}
	return 0;
}

int ld_assemble(const struct mach_loader *ld, struct ld_pid *lp, struct mach_process *out,
		struct ld_commit *cm, char *err, size_t errlen)
{
	const struct msg ms = { err, errlen };
	const pid_t tgid = lp->tgid;
	struct ld_task *lt = NULL;
	struct thr *th = NULL;
	const struct ld_status *rs = NULL;
	const struct ld_stat *ts = NULL;
	const struct ld_statm *rm = NULL;
	struct ld_maps *rmaps = NULL;
	struct ld_bytes *rcmd = NULL;
	const uint64_t slack = rss_slack(ld->m);
	unsigned int n = 1;
	bool hidden = false, has_mm;
	int rc = 0;

	memset(cm, 0, sizeof(*cm));
	for (int f = 0; f < LD_NR_DEC; f++)
		cm->dec[f].val = -1;
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
	th[0].task = lt;
	th[0].status = lp->whole.status ? lp->whole.status : lt ? lt->status : NULL;
	th[0].stat = lt ? lt->stat : NULL;
	th[0].tstat = th[0].stat ? th[0].stat : lp->whole.stat;
	th[0].comm = lp->whole.comm ? lp->whole.comm : lt ? lt->comm : NULL;
	for (size_t i = 0, k = 1; i < lp->ntasks; i++) {
		struct ld_task *t = &lp->tasks[i];

		if (t->tid == tgid)
			continue;
		th[k].tid = t->tid;
		th[k].task = t;
		th[k].status = t->status;
		th[k].stat = t->stat;
		th[k].tstat = t->stat;
		th[k].comm = t->comm;
		k++;
	}

	/* 1. the leader's two sets of files describe one task */
	if (lt) {
		if (lp->whole.status && lt->status &&
		    (rc = status_cmp(&ms, lp->whole.status, lt->status, 0)))
			goto out;
		if (lp->whole.stat && lt->stat &&
		    (rc = stat_cmp(&ms, lp->whole.stat, lt->stat, true)))
			goto out;
		if (lp->whole.comm && lt->comm &&
		    (rc = bytes_cmp(&ms, lp->whole.comm, lt->comm, "names")))
			goto out;
	}

	/* 2. every status: one process, one mm, one kernel profile */
	for (size_t i = 0; i <= lp->ntasks; i++) {
		const struct ld_status *s = i ? lp->tasks[i - 1].status : lp->whole.status;

		if (!s)
			continue;
		if (!rs) {
			rs = s;
		} else {
			if (s->present[ST_VMPEAK] != rs->present[ST_VMPEAK]) {
				rc = say(&ms, -ENOTSUP,
					 "%s:1: %s the Vm lines of an mm but %s %s (a zombie leader "
					 "with live threads?); machine.h has one mm per process",
					 rs->path, rs->present[ST_VMPEAK] ? "has" : "lacks", s->path,
					 s->present[ST_VMPEAK] ? "has them" : "does not");
				goto out;
			}
			if ((rc = status_cmp(&ms, rs, s, STF_PROC)))
				goto out;
		}
		if ((rc = decide(&ms, ld, cm, s)))
			goto out;
		ld_bound_lo(&cm->cpus, s->cpus_lo, s->path);
		ld_bound_hi(&cm->cpus, s->cpus_hi, s->path);
		if (s->present[ST_MEMS]) {
			ld_bound_lo(&cm->mems, s->mems_lo, s->path);
			ld_bound_hi(&cm->mems, s->mems_hi, s->path);
		}
	}

	/* 3. every stat: one process, one mm */
	for (size_t i = 0; i <= lp->ntasks; i++) {
		const struct ld_stat *s = i ? lp->tasks[i - 1].stat : lp->whole.stat;

		if (!s)
			continue;
		if (!ts)
			ts = s;
		else if ((rc = stat_cmp(&ms, ts, s, false)))
			goto out;
	}
	if (ts)
		hidden = ts->f[LD_STAT_STARTCODE] == 1 && ts->f[LD_STAT_ENDCODE] == 1;

	/* 4. statm, maps and cmdline of every thread show the same mm */
	for (size_t i = 0; i <= lp->ntasks; i++) {
		struct ld_task *t = i ? &lp->tasks[i - 1] : &lp->whole;

		if (t->statm) {
			if (!rm)
				rm = t->statm;
			else if ((rc = statm_cmp(&ms, rm, t->statm)))
				goto out;
		}
		if (t->maps) {
			if (!rmaps)
				rmaps = t->maps;
			else if ((rc = maps_cmp(&ms, rmaps, t->maps)))
				goto out;
		}
		if (t->cmdline) {
			if (!rcmd)
				rcmd = t->cmdline;
			else if ((rc = bytes_cmp(&ms, rcmd, t->cmdline, "command lines")))
				goto out;
		}
	}
	if (rs)
		has_mm = rs->present[ST_VMPEAK];
	else
		has_mm = (ts && (ts->f[LD_STAT_VSIZE] || ts->f[LD_STAT_STARTCODE])) || (rm && rm->v[LD_STATM_SIZE]) ||
			 (rmaps && rmaps->n) || (rcmd && rcmd->len);
	if (rs && rm && (rc = statm_vs_status(&ms, rm, rs)))
		goto out;
	if (!has_mm && rmaps && rmaps->n) {
		rc = say(&ms, -EINVAL, "%s:1: mappings of a task without an mm (%s)", rmaps->path,
			 path_of(rs, ts));
		goto out;
	}
	if (!has_mm && rcmd && rcmd->len) {
		rc = say(&ms, -EINVAL, "%s:1: a command line of a task without an mm (%s)",
			 rcmd->path, path_of(rs, ts));
		goto out;
	}
	for (size_t i = 0; i <= lp->ntasks; i++) {
		const struct ld_stat *s = i ? lp->tasks[i - 1].stat : lp->whole.stat;

		if (s && (rc = stat_zeros(&ms, s, hidden, has_mm)))
			goto out;
	}

	/* 5. each thread: status, stat and comm agree */
	for (unsigned int i = 0; i < n; i++) {
		const struct thr *t = &th[i];
		const struct ld_stat *both[2] = { t->stat, i ? NULL : lp->whole.stat };

		for (int k = 0; k < 2; k++)
			if (t->status && both[k] &&
			    (rc = status_vs_stat(&ms, t->status, both[k], slack)))
				goto out;
		if (t->comm) {
			const char *name = t->status ? t->status->name
					 : t->tstat ? t->tstat->comm : NULL;
			const char *from = t->status ? t->status->path
					 : t->tstat ? t->tstat->path : NULL;

			if (name && strcmp(name, t->comm->buf)) {
				rc = disagree_str(&ms, t->comm->path, 1, from, 1, "the name", t->comm->buf,
						  name);
				goto out;
			}
		}
		/* exit_signal: the leader's, and -1 for every other thread (copy_process) */
		if (i && t->stat && ld_sf_s(t->stat, LD_STAT_EXIT_SIGNAL) != -1) {
			char what[64];

			rc = say(&ms, -EINVAL, "%s:%u: %s of a non-leader thread is %" PRId64 ", not -1",
				 t->stat->path, t->stat->line[LD_STAT_EXIT_SIGNAL],
				 sf_what(LD_STAT_EXIT_SIGNAL, what),
				 ld_sf_s(t->stat, LD_STAT_EXIT_SIGNAL));
			goto out;
		}
	}

	/* 6. the thread count */
	if (lp->tasks_complete) {
		uint64_t want = rs ? rs->v[ST_THREADS][0] : ts ? (uint64_t)ld_sf_s(ts, LD_STAT_NUM_THREADS) : n;

		if (want != n) {
			rc = say(&ms, -EINVAL, "%s:%u: %" PRIu64 " threads, but task/ holds %u",
				 path_of(rs, ts), rs ? rs->line[ST_THREADS] : ts ? ts->line[LD_STAT_NUM_THREADS] : 1,
				 want, n);
			goto out;
		}
	}

	/* 7. build the process */
	out->tgid = tgid;
	out->threads = calloc(n, sizeof(*out->threads));
	if (!out->threads) {
		rc = -ENOMEM;
		goto out;
	}
	out->nthreads = n;
	out->nr_threads = rs ? (unsigned int)rs->v[ST_THREADS][0]
			 : ts ? (unsigned int)ld_sf_s(ts, LD_STAT_NUM_THREADS) : n;
	for (unsigned int i = 0; i < n; i++) {
		struct mach_thread *t = &out->threads[i];
		struct ld_status *s = (struct ld_status *)th[i].status;

		t->tid = th[i].tid;
		t->umask = -1;
		if (th[i].tstat)
			thread_from_stat(t, th[i].tstat, s != NULL);
		if (s)
			thread_from_status(t, s);
		if (!s && !th[i].tstat && th[i].comm)
			memcpy(t->comm, th[i].comm->buf, th[i].comm->len + 1);
		if (th[i].stat)
			own_from_stat(t, th[i].stat);
	}
	if (ts) {
		const struct ld_stat *w = lp->whole.stat ? lp->whole.stat : ts;

		out->ppid = (pid_t)ld_sf_s(ts, LD_STAT_PPID);
		out->pgrp = (pid_t)ld_sf_s(ts, LD_STAT_PGRP);
		out->session = (pid_t)ld_sf_s(ts, LD_STAT_SESSION);
		out->tty_nr = (int)ld_sf_s(ts, LD_STAT_TTY_NR);
		out->tpgid = (pid_t)ld_sf_s(ts, LD_STAT_TPGID);
		out->cminflt = ts->f[LD_STAT_CMINFLT];
		out->cmajflt = ts->f[LD_STAT_CMAJFLT];
		out->cutime_ns = ts->f[LD_STAT_CUTIME] * MACH_NSEC_PER_TICK;
		out->cstime_ns = ts->f[LD_STAT_CSTIME] * MACH_NSEC_PER_TICK;
		out->rsslim = ts->f[LD_STAT_RSSLIM];
		out->sig_ignored = ts->f[LD_STAT_SIGIGNORE];
		out->sig_caught = ts->f[LD_STAT_SIGCATCH];
		out->cguest_time_ns = ts->f[LD_STAT_CGUEST_TIME] * MACH_NSEC_PER_TICK;
		out->exit_code = (int)ld_sf_s(w, LD_STAT_EXIT_CODE);
		/* the leader's; a thread's own stat shows -1 */
		out->exit_signal = th[0].tstat ? (int)ld_sf_s(th[0].tstat, LD_STAT_EXIT_SIGNAL) : 0;
		out->stat_hidden = hidden;
		if (lp->whole.stat) {
			if ((rc = aggregates(&ms, out, th, lp->whole.stat, hidden)))
				goto out;
		} else {
			for (unsigned int i = 0; i < n; i++) {
				out->group_utime_ns += out->threads[i].utime_ns;
				out->group_stime_ns += out->threads[i].stime_ns;
			}
		}
	}
	if (rs) {
		out->ppid = (pid_t)rs->v[ST_PPID][0];
		out->ngid = (pid_t)rs->v[ST_NGID][0];
		out->fdsize = (unsigned int)rs->v[ST_FDSIZE][0];
		out->sigq_queued = rs->v[ST_SIGQ][0];
		out->sigq_limit = rs->v[ST_SIGQ][1];
		out->sig_shared_pending = rs->v[ST_SHDPND][0];
		out->sig_ignored = rs->v[ST_SIGIGN][0];
		out->sig_caught = rs->v[ST_SIGCGT][0];
	}
	if (has_mm) {
		struct mach_mm *mm = calloc(1, sizeof(*mm));

		if (!mm) {
			rc = -ENOMEM;
			goto out;
		}
		out->mm = mm;
		if (rs) {
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
			mm->vm_swap = rs->v[ST_VMSWAP][0];
			mm->hugetlb_pages = rs->v[ST_HUGETLB][0];
			mm->core_dumping = rs->v[ST_COREDUMP][0];
			mm->thp_enabled = rs->v[ST_THP][0];
			/* untag_mask is all ones on x86 unless LAM is enabled */
			mm->untag_mask = rs->present[ST_UNTAG] ? rs->v[ST_UNTAG][0] : UINT64_MAX;
		}
		if (rm)
			mm->statm_text = rm->v[LD_STATM_TEXT];
		if (ts)
			mm->stat_rss = ts->f[LD_STAT_RSS];
		if (ts && !hidden) {
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
		if (rmaps) {
			mm->vmas = rmaps->vmas;
			mm->nvmas = rmaps->n;
			rmaps->vmas = NULL;
			rmaps->n = 0;
		}
		if (rcmd) {
			mm->cmdline = rcmd->buf;
			mm->cmdline_len = rcmd->len;
			rcmd->buf = NULL;
			rcmd->len = 0;
		}
	}
out:
	free(th);
	return rc;
}
