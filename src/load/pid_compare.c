// SPDX-License-Identifier: MIT
/*
 * pid_compare.c - what two records of one process must agree on, and the
 * messages that say where they do not.
 *
 * The kernel prints the same facts in several files: the state in status and
 * stat, the rss in status, stat and statm, the leader's values in
 * /proc/<pid>/X and in task/<pid>/X, the mm in every thread's files.  Each
 * check here names both files and lines of the first disagreement.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "load_int.h"

/* ------------------------------------------------------------------ */
/* Messages                                                             */

int ld_say(const struct ld_msg *ms, int rc, const char *fmt, ...)
{
	va_list ap;

	if (ms->err && ms->errlen) {
		va_start(ap, fmt);
		vsnprintf(ms->err, ms->errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

void ld_blame_add(const struct ld_msg *ms, const char *path)
{
	struct ld_blame *b = ms->blame;

	if (b && path && b->n < LD_BLAME_MAX)
		b->path[b->n++] = path;
}

/* "A:LA: WHAT is VA, but B:LB says VB" */
int ld_disagree(const struct ld_msg *ms, const char *a, unsigned int la, const char *b,
		unsigned int lb, const char *what, const char *va, const char *vb)
{
	ld_blame_add(ms, a);
	ld_blame_add(ms, b);
	return ld_say(ms, -EINVAL, "%s:%u: %s is %s, but %s:%u says %s", a, la, what, va, b, lb, vb);
}

int ld_disagree_u(const struct ld_msg *ms, const char *a, unsigned int la, const char *b,
		  unsigned int lb, const char *what, uint64_t va, uint64_t vb)
{
	char sa[32], sb[32];

	snprintf(sa, sizeof(sa), "%" PRIu64, va);
	snprintf(sb, sizeof(sb), "%" PRIu64, vb);
	return ld_disagree(ms, a, la, b, lb, what, sa, sb);
}

int ld_disagree_s(const struct ld_msg *ms, const char *a, unsigned int la, const char *b,
		  unsigned int lb, const char *what, int64_t va, int64_t vb)
{
	char sa[32], sb[32];

	snprintf(sa, sizeof(sa), "%" PRId64, va);
	snprintf(sb, sizeof(sb), "%" PRId64, vb);
	return ld_disagree(ms, a, la, b, lb, what, sa, sb);
}

int ld_disagree_str(const struct ld_msg *ms, const char *a, unsigned int la, const char *b,
		    unsigned int lb, const char *what, const char *va, const char *vb)
{
	char sa[300], sb[300], qa[310], qb[310];

	lex_escape(va, strlen(va), sa, sizeof(sa));
	lex_escape(vb, strlen(vb), sb, sizeof(sb));
	snprintf(qa, sizeof(qa), "\"%s\"", sa);
	snprintf(qb, sizeof(qb), "\"%s\"", sb);
	return ld_disagree(ms, a, la, b, lb, what, qa, qb);
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
int ld_status_cmp(const struct ld_msg *ms, const struct ld_status *a, const struct ld_status *b,
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
		return ld_disagree(ms, a->path, a->present[i] ? a->line[i] : 1, b->path,
				   b->present[i] ? b->line[i] : 1, ld_st_defs[i].label, va, vb);
	}
	return 0;
}

/* "field 35 (wchan)" into @buf (64 bytes), as messages name a stat field. */
const char *ld_sf_what(enum ld_stat_field n, char buf[64])
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
int ld_stat_cmp(const struct ld_msg *ms, const struct ld_stat *a, const struct ld_stat *b,
		bool leader_pair)
{
	char what[64];

	if (leader_pair && strcmp(a->comm, b->comm))
		return ld_disagree_str(ms, a->path, 1, b->path, 1, ld_sf_what(LD_STAT_COMM, what),
				       a->comm, b->comm);
	if (leader_pair && a->state != b->state) {
		char sa[2] = { mach_task_state_letter(a->state), 0 };
		char sb[2] = { mach_task_state_letter(b->state), 0 };

		return ld_disagree(ms, a->path, a->line[LD_STAT_STATE], b->path, b->line[LD_STAT_STATE],
				   ld_sf_what(LD_STAT_STATE, what), sa, sb);
	}
	for (enum ld_stat_field n = LD_STAT_PPID; n <= LD_STAT_FIELDS; n++) {
		if (!sf_selected(n, leader_pair) || a->f[n] == b->f[n])
			continue;
		ld_sf_what(n, what);
		if (ld_sf_defs[n].is_signed)
			return ld_disagree_s(ms, a->path, a->line[n], b->path, b->line[n], what,
					     (int64_t)a->f[n], (int64_t)b->f[n]);
		return ld_disagree_u(ms, a->path, a->line[n], b->path, b->line[n], what, a->f[n],
				     b->f[n]);
	}
	return 0;
}

int ld_statm_cmp(const struct ld_msg *ms, const struct ld_statm *a, const struct ld_statm *b)
{
	for (int i = 0; i < LD_STATM_FIELDS; i++)
		if (a->v[i] != b->v[i])
			return ld_disagree_u(ms, a->path, 1, b->path, 1, ld_statm_names[i], a->v[i],
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

int ld_maps_cmp(const struct ld_msg *ms, const struct ld_maps *a, const struct ld_maps *b)
{
	for (size_t i = 0; i < a->n || i < b->n; i++) {
		if (i < a->n && i < b->n && vma_equal(&a->vmas[i], &b->vmas[i]))
			continue;
		if (i >= a->n || i >= b->n)
			return ld_say(ms, -EINVAL, "%s:%zu: %zu mappings, but %s has %zu", a->path,
				      i + 1, a->n, b->path, b->n);
		return ld_say(ms, -EINVAL, "%s:%zu: mapping differs from %s:%zu", a->path, i + 1,
			      b->path, i + 1);
	}
	return 0;
}

int ld_bytes_cmp(const struct ld_msg *ms, const struct ld_bytes *a, const struct ld_bytes *b,
		 const char *what)
{
	if (a->len == b->len && !memcmp(a->buf, b->buf, a->len))
		return 0;
	return ld_say(ms, -EINVAL, "%s:1: %s differ from those of %s", a->path, what, b->path);
}

/*
 * How far stat's rss may stray from VmRSS.  Since 6.16 ("mm: fix the
 * inaccurate memory statistics issue for users") status and statm sum the
 * per-CPU rss counters exactly, while stat's get_mm_rss() still reads the
 * approximate global counts: each of the three counters may lag by under
 * one batch (max(32, 2 * online CPUs)) per CPU.  UINT64_MAX: CPUs unknown.
 */
uint64_t ld_rss_slack(const struct mach_machine *m)
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
int ld_status_vs_stat(const struct ld_msg *ms, const struct ld_status *s, const struct ld_stat *t,
		      uint64_t slack)
{
	static const struct { enum ld_st line; enum ld_stat_field field; } sig[] = {
		{ ST_SIGPND, LD_STAT_SIGNAL }, { ST_SIGBLK, LD_STAT_BLOCKED },
		{ ST_SIGIGN, LD_STAT_SIGIGNORE }, { ST_SIGCGT, LD_STAT_SIGCATCH },
	};
	const int64_t pgrp = ld_sf_s(t, LD_STAT_PGRP), sid = ld_sf_s(t, LD_STAT_SESSION);
	char what[96];

	if (strcmp(s->name, t->comm))
		return ld_disagree_str(ms, s->path, s->line[ST_NAME], t->path, t->line[LD_STAT_COMM], "Name:",
				       s->name, t->comm);
	if (s->v[ST_STATE][0] != (uint64_t)t->state) {
		char a[2] = { mach_task_state_letter((enum mach_task_state)s->v[ST_STATE][0]), 0 };
		char b[2] = { mach_task_state_letter(t->state), 0 };

		return ld_disagree(ms, s->path, s->line[ST_STATE], t->path, t->line[LD_STAT_STATE],
				   "the State: letter", a, b);
	}
	if ((int64_t)s->v[ST_PPID][0] != ld_sf_s(t, LD_STAT_PPID))
		return ld_disagree_s(ms, s->path, s->line[ST_PPID], t->path, t->line[LD_STAT_PPID], "PPid:",
				     (int64_t)s->v[ST_PPID][0], ld_sf_s(t, LD_STAT_PPID));
	if ((int64_t)s->v[ST_THREADS][0] != ld_sf_s(t, LD_STAT_NUM_THREADS))
		return ld_disagree_s(ms, s->path, s->line[ST_THREADS], t->path, t->line[LD_STAT_NUM_THREADS],
				     "Threads:", (int64_t)s->v[ST_THREADS][0], ld_sf_s(t, LD_STAT_NUM_THREADS));
	for (size_t k = 0; k < sizeof(sig) / sizeof(sig[0]); k++) {
		/* stat prints the first 31 signals only, in decimal */
		uint64_t want = s->v[sig[k].line][0] & 0x7fffffff;

		if (want != t->f[sig[k].field]) {
			snprintf(what, sizeof(what), "%s & 0x7fffffff", ld_st_defs[sig[k].line].label);
			return ld_disagree_u(ms, s->path, s->line[sig[k].line], t->path,
					     t->line[sig[k].field], what, want, t->f[sig[k].field]);
		}
	}
	if (s->present[ST_NSPGID] && pgrp >= 0 && s->ns[2][0] != pgrp)
		return ld_disagree_s(ms, s->path, s->line[ST_NSPGID], t->path, t->line[LD_STAT_PGRP],
				     "NSpgid:", s->ns[2][0], pgrp);
	if (s->present[ST_NSSID] && sid >= 0 && s->ns[3][0] != sid)
		return ld_disagree_s(ms, s->path, s->line[ST_NSSID], t->path, t->line[LD_STAT_SESSION],
				     "NSsid:", s->ns[3][0], sid);
	if (s->present[ST_KTHREAD] && s->v[ST_KTHREAD][0] != !!(t->f[LD_STAT_FLAGS] & LD_PF_KTHREAD))
		return ld_disagree_u(ms, s->path, s->line[ST_KTHREAD], t->path, t->line[LD_STAT_FLAGS],
				     "Kthread: (PF_KTHREAD in flags)", s->v[ST_KTHREAD][0],
				     !!(t->f[LD_STAT_FLAGS] & LD_PF_KTHREAD));
	return ld_mm_status_vs_stat(ms, s, t, slack);
}

int ld_mm_status_vs_stat(const struct ld_msg *ms, const struct ld_status *s, const struct ld_stat *t,
			 uint64_t slack)
{
	if (s->present[ST_VMPEAK]) {
		if (s->v[ST_VMSIZE][0] * 1024 / 1024 != s->v[ST_VMSIZE][0] ||
		    t->f[LD_STAT_VSIZE] != s->v[ST_VMSIZE][0] * 1024)
			return ld_disagree_u(ms, s->path, s->line[ST_VMSIZE], t->path, t->line[LD_STAT_VSIZE],
					     "VmSize: in bytes (vsize)", s->v[ST_VMSIZE][0] * 1024,
					     t->f[LD_STAT_VSIZE]);
		uint64_t pages = s->v[ST_VMRSS][0] / 4;
		uint64_t diff = t->f[LD_STAT_RSS] > pages ? t->f[LD_STAT_RSS] - pages : pages - t->f[LD_STAT_RSS];

		if (diff > slack)
			return ld_disagree_u(ms, s->path, s->line[ST_VMRSS], t->path, t->line[LD_STAT_RSS],
					     "VmRSS: in pages (rss, give or take the counter slack)",
					     pages, t->f[LD_STAT_RSS]);
	} else if (t->f[LD_STAT_VSIZE] || t->f[LD_STAT_RSS]) {
		return ld_say(ms, -EINVAL,
			      "%s:%u: vsize/rss of a task without an mm (%s has no Vm lines)", t->path,
			      t->line[LD_STAT_VSIZE], s->path);
	}
	return 0;
}

int ld_statm_vs_status(const struct ld_msg *ms, const struct ld_statm *m,
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
				return ld_say(ms, -EINVAL,
					      "%s:1: nonzero %s without an mm (%s has no Vm lines)",
					      m->path, ld_statm_names[i], s->path);
		return 0;
	}
	/* statm_vs_status runs after the status check, which bounds the Rss sums */
	want[LD_STATM_SIZE] = s->v[ST_VMSIZE][0];
	want[LD_STATM_RESIDENT] = s->v[ST_VMRSS][0];
	want[LD_STATM_SHARED] = s->v[ST_RSSFILE][0] + s->v[ST_RSSSHMEM][0];
	/* without the Rss lines (before 4.5) shared is the file pages statm alone tells */
	if (!s->present[ST_RSSANON]) {
		if (m->v[LD_STATM_SHARED] > m->v[LD_STATM_RESIDENT])
			return ld_say(ms, -EINVAL, "%s:1: statm shared %" PRIu64 " above resident %" PRIu64,
				      m->path, m->v[LD_STATM_SHARED], m->v[LD_STATM_RESIDENT]);
		want[LD_STATM_SHARED] = m->v[LD_STATM_SHARED] * 4;
	}
	want[LD_STATM_DATA] = s->v[ST_VMDATA][0] + s->v[ST_VMSTK][0];
	if (want[LD_STATM_DATA] < s->v[ST_VMDATA][0])
		return ld_say(ms, -EINVAL, "%s:%u: VmData: + VmStk: overflow", s->path,
			      s->line[ST_VMDATA]);
	for (int i = 0; i < LD_STATM_FIELDS; i++) {
		char what[64];

		if (from[i] == ST_NR)
			continue;
		if (m->v[i] <= UINT64_MAX / 4 && m->v[i] * 4 == want[i])
			continue;
		snprintf(what, sizeof(what), "statm %s in kB", ld_statm_names[i]);
		return ld_disagree_u(ms, m->path, 1, s->path, s->line[from[i]], what,
				     m->v[i] <= UINT64_MAX / 4 ? m->v[i] * 4 : UINT64_MAX, want[i]);
	}
	return 0;
}

/* Fields a stat must print as 0: without an mm, or masked by ptrace permission. */
int ld_stat_zeros(const struct ld_msg *ms, const struct ld_stat *t, bool hidden, bool has_mm)
{
	char what[64];

	/* without an mm, do_task_stat leaves vsize and rss 0 too */
	if (!has_mm && (t->f[LD_STAT_VSIZE] || t->f[LD_STAT_RSS]))
		return ld_say(ms, -EINVAL, "%s:%u: vsize and rss must be 0 for a task without an mm", t->path,
			      t->line[t->f[LD_STAT_VSIZE] ? LD_STAT_VSIZE : LD_STAT_RSS]);
	for (enum ld_stat_field n = LD_STAT_STARTCODE; n <= LD_STAT_FIELDS; n++) {
		bool no_mm = !has_mm && (n <= LD_STAT_STARTSTACK ||
					 (n >= LD_STAT_START_DATA && n <= LD_STAT_ENV_END));
		/* startcode and endcode read 1 when masked; the other [PT] fields 0 */
		bool masked = hidden && ld_sf_defs[n].ptrace && n != LD_STAT_STARTCODE &&
			      n != LD_STAT_ENDCODE;

		/* a masked wchan read ~0UL before 4.4 */
		if (n == LD_STAT_WCHAN && t->f[n] == UINT64_MAX)
			continue;
		if ((no_mm || masked) && t->f[n])
			return ld_say(ms, -EINVAL, "%s:%u: %s must be 0 %s", t->path, t->line[n],
				      ld_sf_what(n, what), no_mm ? "for a task without an mm"
				      : "when startcode and endcode are 1 (no ptrace access)");
	}
	return 0;
}
